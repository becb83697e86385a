"""Hand-worked tests of the exact best-Symposion search.

Every expectation below was worked out by hand from the rules text
(seeds/symposion-rules.txt) and the product's rulings (rulings.md), NOT read off the code.
Each test's comment lists the competing plays and why the winner wins.

Notation in the comments: W = scored Wine, I / H = Intellectual / Hedonistic points,
"printed" = the Wine the requirements count (ruling 12).  Score = W + I + H + bonus (ruling 20).

Canonical tie-break (rulings' determinism notes, as the brief defines it): highest score,
then fewest cards, then the lexicographically smallest sorted list of card indices in
card-file order, then type order intellectual, social, hedonistic.  Only a few tests assert
it on purpose (they say so); elsewhere the card set is asserted only when it is unique.

Card-file indices used by the tie-break tests (scenarios/cards/symposion.yaml, 0-based):
Grapes 6, Vines 7, Wine of Lesbos 8, Wine of Chios 9, Inhibitions Removed 11,
Overindulgence 15, Intoxication 27, Wine Mixed with Water 23, Plato 74.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from simsym.model.cards.model import CardSet
from simsym.model.cards.notation import parse_notation
from simsym.model.rules import RuleOptions
from simsym.model.scenario import BASE_SCENARIO, load_scenario
from simsym.engine.search import Searcher

ALL_TYPES = ("intellectual", "social", "hedonistic")
DEFAULT = RuleOptions()

_SC = load_scenario(BASE_SCENARIO)
CARDS = _SC.cards
_SEARCHERS: dict = {}


@pytest.fixture(params=["numba", "reference"])
def engine(request):
    return request.param


def best(engine, names, rules=DEFAULT, types=ALL_TYPES, required=(), cards=None):
    cards = CARDS if cards is None else cards
    key = (engine, rules, id(cards))
    if key not in _SEARCHERS:
        _SEARCHERS[key] = Searcher(cards, rules, engine=engine)
    hand = [cards.lookup(n) for n in names]
    p = _SEARCHERS[key].best(hand, types=types, required=required)
    # Ruling 20: the score is exactly the sum of its parts, always.
    assert p.wine + p.intellectual + p.hedonistic + p.bonus == p.score
    return p


_ANY = object()


def check(p, score, type_=_ANY, cards=_ANY, wine=_ANY, intellectual=_ANY, hedonistic=_ANY,
          bonus=_ANY):
    assert p.score == score, p
    if type_ is not _ANY:
        assert p.type == type_, p
    if cards is not _ANY:
        assert sorted(p.cards) == sorted(cards), p
        assert len(p.cards) == len(cards), p
    if wine is not _ANY:
        assert p.wine == wine, p
    if intellectual is not _ANY:
        assert p.intellectual == intellectual, p
    if hedonistic is not _ANY:
        assert p.hedonistic == hedonistic, p
    if bonus is not _ANY:
        assert p.bonus == bonus, p


def choice(p, name):
    [c] = [c for c in p.choices if c.name == name]
    return c


def idx(name):
    return CARDS.lookup(name)


def test_card_file_indices_used_in_comments():
    for name, i in [("Grapes", 6), ("Vines", 7), ("Wine of Lesbos", 8), ("Wine of Chios", 9),
                    ("Inhibitions Removed", 11), ("Overindulgence", 15),
                    ("Wine Mixed with Water", 23), ("Intoxication", 27), ("Plato", 74)]:
        assert idx(name) == i


# --------------------------------------------------------------------------------------
# Worked examples at the end of rulings.md
# --------------------------------------------------------------------------------------

def test_worked_example_intellectual_18(engine):
    # IO cards (Plato 5, Mathematics 4, Science 3, Education 3) force Intellectual; exactly 3
    # Wine from Grapes, Vines, WMW; Dancers (WC) is barred next to IO (ruling 17).
    # 3 + 15 = 18.  Social without the IO cards: 3W + Dancers 2E = 5 at most (or 3 + bonus 2).
    p = best(engine, ["Plato", "Mathematics", "Science", "Education", "Grapes", "Vines",
                      "Wine Mixed with Water", "Dancers"])
    check(p, 18, "intellectual",
          ["Plato", "Mathematics", "Science", "Education", "Grapes", "Vines",
           "Wine Mixed with Water"], wine=3, intellectual=15, hedonistic=0, bonus=0)


def test_worked_example_hedonistic_24(engine):
    # All nine: Wine 3+2+1 = 6 (>= 5), Orgy 5H with 3 WC, Komos 4H, Kottabos 3H, three 2E
    # women as H: 6 + 18 = 24.  Social cannot hold Orgy (HO) and at most 5 Wine: <= 5+13+...
    # (I+H = 13 odd, no bonus) = 18.  Intellectual: NI wine barred, H cards barred.
    p = best(engine, ["Flutist", "Singers", "Dancers", "Orgy", "Overindulgence",
                      "Intoxication", "Grapes", "Komos", "Kottabos"])
    check(p, 24, "hedonistic",
          ["Flutist", "Singers", "Dancers", "Orgy", "Overindulgence", "Intoxication",
           "Grapes", "Komos", "Kottabos"], wine=6, intellectual=0, hedonistic=18, bonus=0)
    for w in ("Flutist", "Singers", "Dancers"):
        assert choice(p, w).woman
        assert choice(p, w).either_to_hedonistic == 2


def test_worked_example_social_bonus_when_both_zero(engine):
    # Grapes, Vines, Krater: 3 Wine, one not a Container.  Intellectual: 3 + 0 = 3.
    # Social: I = H = 0 -> +2 (ruling 21: also when both are 0); W=3 != 0, no +3.  5.
    p = best(engine, ["Grapes", "Vines", "Krater"])
    check(p, 5, "social", ["Grapes", "Vines", "Krater"], wine=3, intellectual=0,
          hedonistic=0, bonus=2)


# --------------------------------------------------------------------------------------
# Types (rules: Social mixes, Intellectual only I & E, Hedonistic only H & E)
# --------------------------------------------------------------------------------------

def test_social_mixes_intellectual_and_hedonistic(engine):
    # Intellectual: 3W + Philosophy 3I = 6 (Komos barred).  Hedonistic: only 3 Wine -> illegal.
    # Social: 3W + 3I + 4H = 10 (I != H, no bonus); Social with only Komos 7, only Phil 6.
    p = best(engine, ["Grapes", "Vines", "Wine Mixed with Water", "Philosophy", "Komos"])
    check(p, 10, "social", ["Grapes", "Vines", "Wine Mixed with Water", "Philosophy", "Komos"],
          wine=3, intellectual=3, hedonistic=4, bonus=0)


def test_intellectual_holds_no_hedonistic_card_and_social_no_io(engine):
    # Plato (IO) cannot be in a Social Symposion; Komos (gives H) cannot be in an
    # Intellectual one (ruling 16).  Intellectual 3W + 5I = 8 beats Social 3W + Komos 4H = 7
    # and Social 3W + bonus 2 = 5.  Hedonistic: 3 Wine < 5.
    p = best(engine, ["Plato", "Grapes", "Vines", "Wine Mixed with Water", "Komos"])
    check(p, 8, "intellectual", ["Plato", "Grapes", "Vines", "Wine Mixed with Water"],
          wine=3, intellectual=5, hedonistic=0, bonus=0)


def test_hedonistic_holds_no_intellectual_card(engine):
    # Printed Wine 3+2+2 = 7 unlocks Drunken Revelry (HO, 7+).  Hedonistic: 7 + 4 = 11;
    # Philosophy gives I so it is barred (would make 14).  Social: <= 5W, no DR (HO):
    # 5 + Philosophy 3 = 8 (H=0, no bonus), or 5 + bonus 2 = 7.  Intellectual: NI wine barred,
    # only Strong Wine 2W -> illegal.
    p = best(engine, ["Overindulgence", "Intoxication", "Strong Wine", "Drunken Revelry",
                      "Philosophy"])
    check(p, 11, "hedonistic", ["Overindulgence", "Intoxication", "Strong Wine",
                                "Drunken Revelry"],
          wine=7, intellectual=0, hedonistic=4, bonus=0)


# --------------------------------------------------------------------------------------
# Wine requirements (rules; ruling 12) and the window options
# --------------------------------------------------------------------------------------

def test_intellectual_exactly_three_wine_and_tie_break(engine):
    # Plato forces Intellectual (Social 5W + bonus 2 = 7; Hedonistic 5W = 5).  Intellectual
    # must hold EXACTLY 3 printed Wine, so score 3 + 5 = 8 (4 Wine would be 9, 5 would be 10).
    # Deliberate tie-break: the 8-point plays are {Plato, IR as 2W, one 1W card} (3 cards) and
    # 4-card ones.  Fewest cards -> 3 cards; smallest card-FILE indices -> Grapes (6) beats
    # Vines (7) and WMW (23), although Grapes sits last among them in the hand (hand
    # positions would pick WMW).
    p = best(engine, ["Plato", "Wine Mixed with Water", "Vines", "Grapes",
                      "Inhibitions Removed"])
    check(p, 8, "intellectual", ["Plato", "Grapes", "Inhibitions Removed"],
          wine=3, intellectual=5, hedonistic=0, bonus=0)
    assert choice(p, "Inhibitions Removed").played_as == "2W"


def test_social_at_most_five_wine(engine):
    # Six 1W cards (two Containers), Debate 2I, Pleasure 2H.  Social: 5 Wine max:
    # 5 + 2 + 2 + bonus 2 = 11 (6 Wine would be 12).  Hedonistic: Moderate Drinking is NH,
    # so 5W + Pleasure 2H = 7.  Intellectual: 3 + 2 = 5.
    # Which five wine cards is a tie; the canonical one drops the highest file index (Hydria).
    p = best(engine, ["Grapes", "Vines", "Wine Mixed with Water", "Moderate Drinking",
                      "Cylix", "Hydria", "Debate", "Pleasure"])
    check(p, 11, "social", wine=5, intellectual=2, hedonistic=2, bonus=2)
    assert "Debate" in p.cards and "Pleasure" in p.cards and len(p.cards) == 7
    # Deliberate tie-break: dropping the wine card with the highest file index is canonical.
    assert "Hydria" not in p.cards


def test_wine_social_window_option_3_6(engine):
    # Same hand with wine_social=(3, 6): all six Wine fit: 6 + 4 + 2 = 12.
    rules = replace(DEFAULT, wine_social=(3, 6))
    p = best(engine, ["Grapes", "Vines", "Wine Mixed with Water", "Moderate Drinking",
                      "Cylix", "Hydria", "Debate", "Pleasure"], rules)
    check(p, 12, "social", ["Grapes", "Vines", "Wine Mixed with Water", "Moderate Drinking",
                            "Cylix", "Hydria", "Debate", "Pleasure"],
          wine=6, intellectual=2, hedonistic=2, bonus=2)


def test_social_needs_three_wine_no_legal_symposion(engine):
    # 2 Wine only: Intellectual needs exactly 3, Social 3-5, Hedonistic 5+: nothing legal.
    p = best(engine, ["Grapes", "Vines", "Komos", "Philosophy"])
    check(p, 0, None, [], wine=0, intellectual=0, hedonistic=0, bonus=0)


def test_hedonistic_uses_more_than_five_wine(engine):
    # Hedonistic has no upper limit: 3+2+1 = 6W + Komos 4 + Kottabos 3 = 13.  Social: at most
    # 5W + 7H = 12 (no I, no bonus).  Intellectual: only Grapes is allowed Wine -> illegal.
    p = best(engine, ["Overindulgence", "Intoxication", "Grapes", "Komos", "Kottabos"])
    check(p, 13, "hedonistic", ["Overindulgence", "Intoxication", "Grapes", "Komos",
                                "Kottabos"], wine=6, intellectual=0, hedonistic=7, bonus=0)


HED_MIN_HAND = ["Flutist", "Singers", "Young Women", "Orgy", "Overindulgence", "Grapes"]


def test_hedonistic_needs_five_wine(engine):
    # Only 4 Wine: Hedonistic (and with it Orgy, HO) is illegal.  Intellectual: Overindulgence
    # is NI, Grapes alone 1W -> illegal.  Social: 4W + E cards 2,2,1 given whole:
    # Flutist->I, Singers->H: I = H = 2 -> 4 + 4 + 2 = 10; all three E: 4 + 5 = 9;
    # 3W (no Grapes) + 2/2 + 2 = 9.
    p = best(engine, HED_MIN_HAND)
    check(p, 10, "social", ["Overindulgence", "Grapes", "Flutist", "Singers"],
          wine=4, intellectual=2, hedonistic=2, bonus=2)


def test_wine_hedonistic_window_option_4(engine):
    # wine_hedonistic=(4, None): Hedonistic with 4W, Orgy (3 WC) 5H, E 2+2+1 as H:
    # 4 + 5 + 5 = 14 > Social 10.
    rules = replace(DEFAULT, wine_hedonistic=(4, None))
    p = best(engine, HED_MIN_HAND, rules)
    check(p, 14, "hedonistic", HED_MIN_HAND, wine=4, intellectual=0, hedonistic=10, bonus=0)


def test_wine_intellectual_window_option(engine):
    # wine_intellectual=(3, 5) on the "exactly three" hand: Plato + all 5 Wine
    # (Grapes, Vines, WMW, IR as 2W) = 5 + 5 = 10.
    rules = replace(DEFAULT, wine_intellectual=(3, 5))
    p = best(engine, ["Plato", "Wine Mixed with Water", "Vines", "Grapes",
                      "Inhibitions Removed"], rules)
    check(p, 10, "intellectual", ["Plato", "Wine Mixed with Water", "Vines", "Grapes",
                                  "Inhibitions Removed"],
          wine=5, intellectual=5, hedonistic=0, bonus=0)


# --------------------------------------------------------------------------------------
# Ruling 12: printed Wine for requirements, "worth 2W for scoring", "Requires 7+"
# --------------------------------------------------------------------------------------

LESBOS_HAND = ["Plato", "Wine of Lesbos", "Grapes", "Vines"]


def test_worth_2w_counts_one_for_requirement_two_for_score(engine):
    # Plato forces Intellectual.  Lesbos + Grapes + Vines = 3 printed Wine (exactly 3), but
    # scores 2 + 1 + 1 = 4: 4 + 5 = 9.  Lesbos + Grapes alone is only 2 printed -> illegal.
    # Social (no Plato): same 3 cards, 4 + bonus 2 = 6.
    p = best(engine, LESBOS_HAND)
    check(p, 9, "intellectual", LESBOS_HAND, wine=4, intellectual=5, hedonistic=0, bonus=0)
    assert choice(p, "Wine of Lesbos").played_as == "1W (worth 2W for scoring)"


def test_wine_counts_scored_option_intellectual(engine):
    # wine_counts="scored": Intellectual needs exactly 3 SCORED Wine.  Lesbos(2) + Grapes(1)
    # = 3 -> 3 + 5 = 8; Lesbos + Grapes + Vines = 4 scored is now too much; Grapes + Vines 2.
    # Social (no Plato): 3..5 scored: Lesbos+Grapes+Vines 4 + bonus 2 = 6.  So 8, from
    # {Plato, Lesbos, Grapes} or {Plato, Lesbos, Vines}: both 3 cards; Grapes (6) < Vines (7)
    # in file order -> Grapes (deliberate tie-break).
    rules = replace(DEFAULT, wine_counts="scored")
    p = best(engine, LESBOS_HAND, rules)
    check(p, 8, "intellectual", ["Plato", "Wine of Lesbos", "Grapes"], wine=3,
          intellectual=5, hedonistic=0, bonus=0)


DR_HAND = ["Wine of Lesbos", "Overindulgence", "Intoxication", "Drunken Revelry", "Komos"]


def test_requires_7_wine_counts_printed(engine):
    # Printed Wine: Lesbos 1 + Overindulgence 3 + Intoxication 2 = 6 < 7, so Drunken Revelry
    # is barred (scored Wine would be 2+3+2 = 7).  Hedonistic: 7 scored + Komos 4 = 11.
    # Social (<= 5 printed): Overindulgence + Intoxication 5 + 4 = 9, or Lesbos +
    # Overindulgence (4 printed, 5 scored) + 4 = 9.  Intellectual: only Lesbos -> illegal.
    p = best(engine, DR_HAND)
    check(p, 11, "hedonistic", ["Wine of Lesbos", "Overindulgence", "Intoxication", "Komos"],
          wine=7, intellectual=0, hedonistic=4, bonus=0)


def test_requires_7_wine_with_wine_counts_scored(engine):
    # wine_counts="scored": 7 scored Wine unlocks Drunken Revelry: 7 + 4 + 4 = 15.
    rules = replace(DEFAULT, wine_counts="scored")
    p = best(engine, DR_HAND, rules)
    check(p, 15, "hedonistic", DR_HAND, wine=7, intellectual=0, hedonistic=8, bonus=0)


def test_requires_7_wine_reached_with_1w_or_2w(engine):
    # Inhibitions Removed as 2W: printed 2 + 3 + 2 = 7 -> Drunken Revelry: 7 + 4 = 11.
    # (as 1W only 6 -> 6).  Social: 5W + bonus 2 = 7.
    p = best(engine, ["Inhibitions Removed", "Overindulgence", "Intoxication",
                      "Drunken Revelry"])
    check(p, 11, "hedonistic", ["Inhibitions Removed", "Overindulgence", "Intoxication",
                                "Drunken Revelry"], wine=7, intellectual=0, hedonistic=4,
          bonus=0)
    assert choice(p, "Inhibitions Removed").played_as == "2W"


# --------------------------------------------------------------------------------------
# Ruling 13: not only Container Wine
# --------------------------------------------------------------------------------------

CONTAINERS_ONLY = ["Wine Jars", "Krater", "Cylix", "Debate", "Pleasure"]


def test_only_container_wine_is_illegal(engine):
    # All the Wine (2 + 1 + 1) comes from Containers: no type is legal.
    p = best(engine, CONTAINERS_ONLY)
    check(p, 0, None, [], wine=0, intellectual=0, hedonistic=0, bonus=0)


def test_non_container_wine_option_off(engine):
    # non_container_wine=0: Social 4W + Debate 2I + Pleasure 2H + bonus 2 = 10
    # (3W gives 9; Intellectual 3 + 2 = 5; Hedonistic 4 < 5).
    rules = replace(DEFAULT, non_container_wine=0)
    p = best(engine, CONTAINERS_ONLY, rules)
    check(p, 10, "social", CONTAINERS_ONLY, wine=4, intellectual=2, hedonistic=2, bonus=2)


GDV_HAND = ["Grapes", "Golden Drinking Vessels", "Wine Jars", "Plato"]


def test_container_rule_forces_the_weaker_wine(engine):
    # Plato forces Intellectual (Social best: 3W + bonus 2 = 5 or 4W + 1E = 5; Hedonistic
    # 4W < 5).  Exactly 3 Wine: GDV (1W and 1E) + Wine Jars (2W) = 3W + 1E -> 9, but both
    # are Containers -> illegal.  Grapes + Wine Jars = 3W -> 3 + 5 = 8.
    p = best(engine, GDV_HAND)
    check(p, 8, "intellectual", ["Grapes", "Wine Jars", "Plato"], wine=3, intellectual=5,
          hedonistic=0, bonus=0)


def test_container_rule_off_allows_container_wine(engine):
    rules = replace(DEFAULT, non_container_wine=0)
    p = best(engine, GDV_HAND, rules)
    check(p, 9, "intellectual", ["Golden Drinking Vessels", "Wine Jars", "Plato"], wine=3,
          intellectual=6, hedonistic=0, bonus=0)
    c = choice(p, "Golden Drinking Vessels")
    assert (c.either_to_intellectual, c.either_to_hedonistic) == (1, 0)


# --------------------------------------------------------------------------------------
# Ruling 14: one Vintage card, whichever way it is played
# --------------------------------------------------------------------------------------

VINTAGE_HAND = ["Wine of Lesbos", "Wine of Chios", "Grapes", "Vines", "Plato"]


def test_one_vintage(engine):
    # Plato forces Intellectual (Social: Lesbos+Grapes+Vines 4 + bonus 2 = 6; Hedonistic:
    # 4 printed < 5).  Exactly 3 printed, at most one Vintage: one of Lesbos/Chios + Grapes
    # + Vines = 2+1+1 = 4 scored -> 9.  (Lesbos + Chios + Grapes would score 5 -> 10.)
    # The Vintage card is a tie; canonical = Lesbos (8 < 9).  Deliberate.
    p = best(engine, VINTAGE_HAND)
    check(p, 9, "intellectual", ["Wine of Lesbos", "Grapes", "Vines", "Plato"], wine=4,
          intellectual=5, hedonistic=0, bonus=0)


def test_max_vintage_two(engine):
    # max_vintage=2: Lesbos + Chios + Grapes = 3 printed, 5 scored -> 5 + 5 = 10 (Social:
    # Lesbos+Chios+Grapes+Vines 4 printed, 6 scored + 2 = 8).  Grapes vs Vines is a tie;
    # canonical = Grapes (6 < 7), deliberate.
    rules = replace(DEFAULT, max_vintage=2)
    p = best(engine, VINTAGE_HAND, rules)
    check(p, 10, "intellectual", ["Wine of Lesbos", "Wine of Chios", "Grapes", "Plato"],
          wine=5, intellectual=5, hedonistic=0, bonus=0)


OLD_WINE_HAND = ["Old Wine", "Strong Wine", "Grapes", "Plato"]


def test_old_wine_as_1e_is_still_vintage(engine):
    # Plato forces Intellectual (Social: Strong + Grapes 3W + bonus 2 = 5).  Strong Wine 2W +
    # Grapes = 3 -> 3 + 5 = 8.  Adding Old Wine as 1E (-> I) would make 9 but it is still a
    # second Vintage card.  Old Wine 1W + Strong Wine = 3 but two Vintage; Old Wine 1W +
    # Grapes = 2 < 3.
    p = best(engine, OLD_WINE_HAND)
    check(p, 8, "intellectual", ["Strong Wine", "Grapes", "Plato"], wine=3, intellectual=5,
          hedonistic=0, bonus=0)


def test_old_wine_as_1e_with_max_vintage_two(engine):
    rules = replace(DEFAULT, max_vintage=2)
    p = best(engine, OLD_WINE_HAND, rules)
    check(p, 9, "intellectual", OLD_WINE_HAND, wine=3, intellectual=6, hedonistic=0, bonus=0)
    c = choice(p, "Old Wine")
    assert c.played_as == "1E" and c.either_to_intellectual == 1


# --------------------------------------------------------------------------------------
# Ruling 15: choices
# --------------------------------------------------------------------------------------

def test_1w_or_2e_played_as_2e(engine):
    # Plato forces Intellectual.  3W from Grapes, Vines, WMW; Dionysus as 2E -> I:
    # 3 + 2 + 5 = 10.  (Social: Dionysus 1W + 3W = 4 + bonus 2 = 6.)
    p = best(engine, ["Plato", "Dionysus", "Grapes", "Vines", "Wine Mixed with Water"])
    check(p, 10, "intellectual", ["Plato", "Dionysus", "Grapes", "Vines",
                                  "Wine Mixed with Water"],
          wine=3, intellectual=7, hedonistic=0, bonus=0)
    c = choice(p, "Dionysus")
    assert c.played_as == "2E" and c.either_to_intellectual == 2


def test_1w_or_2e_played_as_1w(engine):
    # Only Grapes + Vines otherwise: Dionysus must be the third Wine: 3 + 5 = 8.
    # (Social: same 3W + bonus 2 = 5.)
    p = best(engine, ["Plato", "Dionysus", "Grapes", "Vines"])
    check(p, 8, "intellectual", ["Plato", "Dionysus", "Grapes", "Vines"], wine=3,
          intellectual=5, hedonistic=0, bonus=0)
    assert choice(p, "Dionysus").played_as == "1W"


def test_1w_or_2w_choice_for_all_equal_bonus(engine):
    # Social, Philosophy 3I, Kottabos 3H.  Inhibitions Removed as 2W + Grapes = 3W:
    # 3 + 3 + 3 + 5 = 14.  IR 1W + Grapes = 2W is illegal; with Vines IR 1W + G + V = 3W also
    # 14 but with 5 cards.  Intellectual 3 + 3 = 6; Hedonistic <= 4W illegal.
    # Deliberate tie-break: fewest cards -> IR as 2W + Grapes (6) rather than Vines (7).
    p = best(engine, ["Vines", "Grapes", "Inhibitions Removed", "Philosophy", "Kottabos"])
    check(p, 14, "social", ["Grapes", "Inhibitions Removed", "Philosophy", "Kottabos"],
          wine=3, intellectual=3, hedonistic=3, bonus=5)
    assert choice(p, "Inhibitions Removed").played_as == "2W"


def test_1w_and_1e_gives_both(engine):
    # GDV is "1W and 1E": both, never the Wine alone.  Grapes + Vines + GDV = 3W and the 1E
    # must be applied.  Social: I=1,H=0 (or 0/1): 3 + 1 = 4, no bonus (if GDV could be 1W
    # only it would be 3 + bonus 2 = 5).  Intellectual: 3 + 1 = 4.  Same cards, same score:
    # type order puts intellectual first (deliberate).  Hedonistic: 3W illegal.
    p = best(engine, ["Grapes", "Vines", "Golden Drinking Vessels"])
    check(p, 4, "intellectual", ["Grapes", "Vines", "Golden Drinking Vessels"], wine=3,
          intellectual=1, hedonistic=0, bonus=0)
    c = choice(p, "Golden Drinking Vessels")
    assert c.played_as == "1W and 1E"


DESIGNER_CARDS = CardSet(list(CARDS) + [parse_notation("Test Card", "2I or 2H")])


def test_designer_card_i_or_h_choice(engine):
    # A designer card "2I or 2H" next to Debate 2I: Social 3W + Debate 2I + Test Card as 2H
    # -> I = H = 2 -> 3 + 4 + 2 = 9.  Intellectual at most 3 + 2 + 2 = 7; Hedonistic 3W
    # illegal.
    hand = ["Grapes", "Vines", "Wine Mixed with Water", "Debate", "Test Card"]
    p = best(engine, hand, cards=DESIGNER_CARDS)
    check(p, 9, "social", hand, wine=3, intellectual=2, hedonistic=2, bonus=2)
    assert choice(p, "Test Card").played_as == "2H"


SPLIT_HAND = ["Grapes", "Vines", "Wine Mixed with Water", "Debate", "Pleasure", "Wit"]


def test_either_goes_whole_to_one_category(engine):
    # Social with 3W, Debate 2I, Pleasure 2H, Wit 2E (whole).  With all three: I/H = 4/2 or
    # 2/4 -> 3 + 6 = 9.  With two of them balanced (Debate + Pleasure, Wit->I + Pleasure, or
    # Debate + Wit->H): I = H = 2 -> 3 + 4 + 2 = 9.  Tie at 9; fewer cards wins: a 5-card
    # play.  (Splitting Wit 1/1 would give I=H=W=3 -> 14.)
    # Intellectual: 3 + 2 + 2 = 7; Hedonistic: 3W illegal.
    p = best(engine, SPLIT_HAND)
    check(p, 9, "social", wine=3, intellectual=2, hedonistic=2, bonus=2)
    assert len(p.cards) == 5


def test_either_split_option(engine):
    # either_split=True: Wit 1I + 1H -> W = I = H = 3 -> 3 + 6 + 5 = 14.
    rules = replace(DEFAULT, either_split=True)
    p = best(engine, SPLIT_HAND, rules)
    check(p, 14, "social", SPLIT_HAND, wine=3, intellectual=3, hedonistic=3, bonus=5)
    c = choice(p, "Wit")
    assert (c.either_to_intellectual, c.either_to_hedonistic) == (1, 1)


def test_mw_declared_woman_enables_orgy(engine):
    # Hedonistic: 5W (Overindulgence + Intoxication) + Orgy 5H, needing 3 women: Flutist,
    # Singers (WC) and Apply Perfume (MW declared a woman, ruling 15/18) + E 2+2+1 as H:
    # 5 + 5 + 5 = 15.  Social (no Orgy): 5W + Flutist->I, Singers->H = 5 + 4 + 2 = 11.
    hand = ["Flutist", "Singers", "Apply Perfume", "Orgy", "Overindulgence", "Intoxication"]
    p = best(engine, hand)
    check(p, 15, "hedonistic", hand, wine=5, intellectual=0, hedonistic=10, bonus=0)
    assert choice(p, "Apply Perfume").woman is True


# --------------------------------------------------------------------------------------
# Ruling 16: type limits (NI, NH, IO, HO, Social Symposion Only)
# --------------------------------------------------------------------------------------

def test_ni_barred_from_intellectual(engine):
    # Intellectual with Plato needs 3 Wine: Grapes + Vines = 2, Overindulgence (3W) is NI ->
    # illegal (else Plato + Overindulgence = 8).  Social (no Plato): 3+1+1 = 5W + bonus 2 = 7.
    # Hedonistic: 5W = 5.
    p = best(engine, ["Plato", "Overindulgence", "Grapes", "Vines"])
    check(p, 7, "social", ["Overindulgence", "Grapes", "Vines"], wine=5, intellectual=0,
          hedonistic=0, bonus=2)


def test_nh_barred_from_hedonistic(engine):
    # Hedonistic without Moderate Drinking (NH): 3+2+1 = 6 printed < 7, Drunken Revelry
    # barred: 6.  (With MD it would be 7 -> DR -> 11.)  Social (no DR, HO): 5W + bonus 2 = 7,
    # from {Overindulgence, Intoxication} (2 cards) or {Overindulgence, Grapes, MD} (3):
    # fewest cards (deliberate).  Intellectual: Grapes + MD = 2W -> illegal.
    p = best(engine, ["Moderate Drinking", "Overindulgence", "Intoxication", "Grapes",
                      "Drunken Revelry"])
    check(p, 7, "social", ["Overindulgence", "Intoxication"], wine=5, intellectual=0,
          hedonistic=0, bonus=2)


def test_nh_and_type_order_tie(engine):
    # Hedonistic: Overindulgence + Intoxication 5W + 4+3+3 H = 15 (Moderate Drinking NH
    # barred; would be 16).  Social: the very same 5 cards are legal (5W in 3..5): 15, no
    # bonus (I=0).  Social with MD: 3+1 = 4W + 10 = 14.  Same score, same cards -> type order
    # intellectual, social, hedonistic picks social (deliberate).
    p = best(engine, ["Moderate Drinking", "Overindulgence", "Intoxication", "Komos",
                      "Kottabos", "Challenges"])
    check(p, 15, "social", ["Overindulgence", "Intoxication", "Komos", "Kottabos",
                            "Challenges"], wine=5, intellectual=0, hedonistic=10, bonus=0)


def test_ho_barred_from_social(engine):
    # Only 3 Wine, so Hedonistic (and Orgy) is out; Orgy (HO) may not go into Social.
    # Social: 3W + Flutist->I 2, Singers->H 2 -> 3 + 4 + 2 = 9; with Young Women: 3 + 5 = 8.
    # Intellectual: 3 + 5E = 8.
    p = best(engine, ["Flutist", "Singers", "Young Women", "Orgy", "Grapes", "Vines",
                      "Wine Mixed with Water"])
    check(p, 9, "social", ["Flutist", "Singers", "Grapes", "Vines", "Wine Mixed with Water"],
          wine=3, intellectual=2, hedonistic=2, bonus=2)


def test_social_only_barred_from_intellectual(engine):
    # Sing Hymns (Social Symposion Only) cannot join Plato's Intellectual: 3 + 5 = 8
    # (would be 10).  Social without Plato: 3 + Sing Hymns 2 = 5, or 3 + bonus 2 = 5.
    p = best(engine, ["Plato", "Grapes", "Vines", "Wine Mixed with Water", "Sing Hymns"])
    check(p, 8, "intellectual", ["Plato", "Grapes", "Vines", "Wine Mixed with Water"],
          wine=3, intellectual=5, hedonistic=0, bonus=0)


def test_social_only_barred_from_hedonistic(engine):
    # 7 printed Wine -> Drunken Revelry: Hedonistic 7 + 4 = 11; Sing Hymns barred (13).
    # Social: 5W + Sing Hymns 2E = 7 or 5W + bonus 2 = 7.
    p = best(engine, ["Overindulgence", "Intoxication", "Strong Wine", "Drunken Revelry",
                      "Sing Hymns"])
    check(p, 11, "hedonistic", ["Overindulgence", "Intoxication", "Strong Wine",
                                "Drunken Revelry"], wine=7, intellectual=0, hedonistic=4,
          bonus=0)


def test_social_only_allowed_in_social(engine):
    # Sing Hymns as H balances Debate 2I: 3 + 4 + 2 = 9.  Intellectual: 3 + 2 = 5.
    p = best(engine, ["Grapes", "Vines", "Wine Mixed with Water", "Sing Hymns", "Debate"])
    check(p, 9, "social", ["Grapes", "Vines", "Wine Mixed with Water", "Sing Hymns",
                           "Debate"], wine=3, intellectual=2, hedonistic=2, bonus=2)
    assert choice(p, "Sing Hymns").either_to_hedonistic == 2


# --------------------------------------------------------------------------------------
# Ruling 17: IO bars WC and MW
# --------------------------------------------------------------------------------------

IO_HAND = ["Plato", "Grapes", "Vines", "Wine Mixed with Water", "Flutist", "Apply Perfume"]


def test_io_bars_wc_and_mw(engine):
    # With Plato: no Flutist (WC), no Apply Perfume (MW, even as not a woman): 3 + 5 = 8.
    # Without Plato: Intellectual 3 + 2 + 1 = 6; Social 3 + 3 = 6 (E 2 and 1 can never be
    # equal; 3 + bonus 2 = 5); Hedonistic 3W illegal.
    p = best(engine, IO_HAND)
    check(p, 8, "intellectual", ["Plato", "Grapes", "Vines", "Wine Mixed with Water"],
          wine=3, intellectual=5, hedonistic=0, bonus=0)


def test_io_bars_mw_option_off(engine):
    # io_bars_mw=False: Apply Perfume may join as not a woman: 3 + 5 + 1 = 9; Flutist (WC)
    # still barred.
    rules = replace(DEFAULT, io_bars_mw=False)
    p = best(engine, IO_HAND, rules)
    check(p, 9, "intellectual", ["Plato", "Grapes", "Vines", "Wine Mixed with Water",
                                 "Apply Perfume"],
          wine=3, intellectual=6, hedonistic=0, bonus=0)
    assert choice(p, "Apply Perfume").woman is False


# --------------------------------------------------------------------------------------
# Ruling 18: Orgy needs 3 women
# --------------------------------------------------------------------------------------

def test_orgy_needs_three_women(engine):
    # Two WC only: Orgy barred.  Hedonistic: 5W + Komos 4 + 2E + 2E = 13.  Social: 5W,
    # Flutist + Singers -> I = 4, Komos H = 4 -> 5 + 8 + 2 = 15.  (With Orgy: 18.)
    p = best(engine, ["Flutist", "Singers", "Orgy", "Overindulgence", "Intoxication",
                      "Komos"])
    check(p, 15, "social", ["Flutist", "Singers", "Overindulgence", "Intoxication", "Komos"],
          wine=5, intellectual=4, hedonistic=4, bonus=2)


# --------------------------------------------------------------------------------------
# Rules + ruling 21: the Social bonus
# --------------------------------------------------------------------------------------

BONUS_HAND = ["Overindulgence", "Intoxication", "Philosophy", "Kottabos"]


def test_all_equal_bonus_stacks(engine):
    # Social W = I = H = 3 (Overindulgence only): 3 + 6 + 2 + 3 = 14.
    # W = 5 (with Intoxication): 5 + 6 + 2 = 13.  Intellectual: NI wine -> illegal.
    # Hedonistic: 5 + 3 = 8.
    p = best(engine, BONUS_HAND)
    check(p, 14, "social", ["Overindulgence", "Philosophy", "Kottabos"], wine=3,
          intellectual=3, hedonistic=3, bonus=5)


def test_all_equal_bonus_replaces(engine):
    # social_bonus_stacks=False: W=I=H=3 now 3 + 6 + 3 = 12; W = 5, I = H: 5 + 6 + 2 = 13.
    rules = replace(DEFAULT, social_bonus_stacks=False)
    p = best(engine, BONUS_HAND, rules)
    check(p, 13, "social", BONUS_HAND, wine=5, intellectual=3, hedonistic=3, bonus=2)


def test_all_equal_bonus_replaces_value(engine):
    # social_bonus_stacks=False, W = I = H = 3 is the only Social: +3 (not +5): 12.
    # Intellectual 3 + 3 = 6.
    rules = replace(DEFAULT, social_bonus_stacks=False)
    p = best(engine, ["Grapes", "Vines", "Wine Mixed with Water", "Philosophy", "Kottabos"],
             rules)
    check(p, 12, "social", ["Grapes", "Vines", "Wine Mixed with Water", "Philosophy",
                            "Kottabos"], wine=3, intellectual=3, hedonistic=3, bonus=3)


def test_all_equal_bonus_uses_scored_wine(engine):
    # Lesbos + Grapes + Vines: printed 3, scored 4.  Debate 2I + Wit 2E -> I = 4; Pleasure +
    # Shouting -> H = 4.  Scored W = I = H = 4: 4 + 8 + 5 = 17.  Intellectual 4 + 4 = 8;
    # Hedonistic 3 printed < 5.
    hand = ["Wine of Lesbos", "Grapes", "Vines", "Debate", "Wit", "Pleasure", "Shouting"]
    p = best(engine, hand)
    check(p, 17, "social", hand, wine=4, intellectual=4, hedonistic=4, bonus=5)


def test_all_equal_bonus_with_printed_wine_option(engine):
    # bonus_wine="printed": printed W = 3 != 4 -> only +2: 4 + 8 + 2 = 14.  I = H = 3 is
    # impossible (I from 2I and 2E, H from 2H, 2H and the 2E).
    rules = replace(DEFAULT, bonus_wine="printed")
    hand = ["Wine of Lesbos", "Grapes", "Vines", "Debate", "Wit", "Pleasure", "Shouting"]
    p = best(engine, hand, rules)
    check(p, 14, "social", hand, wine=4, intellectual=4, hedonistic=4, bonus=2)


# --------------------------------------------------------------------------------------
# types= and required=
# --------------------------------------------------------------------------------------

TYPES_HAND = ["Grapes", "Vines", "Wine Mixed with Water", "Overindulgence", "Komos",
              "Philosophy"]


def test_types_unrestricted(engine):
    # Social: 5W (Overindulgence + two 1W) + 4H + 3I = 12 (I != H).  Hedonistic: 6W + 4 = 10.
    # Intellectual: 3 + 3 = 6.  Canonical 1W pair: Grapes (6), Vines (7) (deliberate).
    p = best(engine, TYPES_HAND)
    check(p, 12, "social", ["Grapes", "Vines", "Overindulgence", "Komos", "Philosophy"],
          wine=5, intellectual=3, hedonistic=4, bonus=0)


def test_types_restricted_to_hedonistic(engine):
    p = best(engine, TYPES_HAND, types=("hedonistic",))
    check(p, 10, "hedonistic", ["Grapes", "Vines", "Wine Mixed with Water", "Overindulgence",
                                "Komos"], wine=6, intellectual=0, hedonistic=4, bonus=0)


def test_types_restricted_to_intellectual(engine):
    p = best(engine, TYPES_HAND, types=("intellectual",))
    check(p, 6, "intellectual", ["Grapes", "Vines", "Wine Mixed with Water", "Philosophy"],
          wine=3, intellectual=3, hedonistic=0, bonus=0)


REQ_HAND = ["Plato", "Grapes", "Vines", "Wine Mixed with Water", "Komos", "Kottabos"]


def test_required_none(engine):
    # Social 3W + Komos 4 + Kottabos 3 = 10 beats Intellectual 3 + 5 = 8.
    p = best(engine, REQ_HAND)
    check(p, 10, "social", ["Grapes", "Vines", "Wine Mixed with Water", "Komos", "Kottabos"],
          wine=3, intellectual=0, hedonistic=7, bonus=0)


def test_required_plato(engine):
    # Plato (position 0) must be played: only Intellectual: 8.
    p = best(engine, REQ_HAND, required=(0,))
    check(p, 8, "intellectual", ["Plato", "Grapes", "Vines", "Wine Mixed with Water"],
          wine=3, intellectual=5, hedonistic=0, bonus=0)


def test_required_incompatible_cards(engine):
    # Plato (IO, only Intellectual) and Komos (H, never Intellectual) together: nothing legal.
    p = best(engine, REQ_HAND, required=(0, 4))
    check(p, 0, None, [], wine=0, intellectual=0, hedonistic=0, bonus=0)


def test_required_card_that_can_never_be_legal(engine):
    # Orgy (position 0) with no women can never be played: 0, although Grapes + Vines + WMW
    # alone would make Social 5.
    p = best(engine, ["Orgy", "Grapes", "Vines", "Wine Mixed with Water"], required=(0,))
    check(p, 0, None, [], wine=0, intellectual=0, hedonistic=0, bonus=0)


# --------------------------------------------------------------------------------------
# Empty hand, and hands of 10-12 cards
# --------------------------------------------------------------------------------------

def test_empty_hand(engine):
    p = best(engine, [])
    check(p, 0, None, [], wine=0, intellectual=0, hedonistic=0, bonus=0)
    assert p.choices == ()


def test_ten_card_hand(engine):
    # Printed Wine: Grapes 1, Vines 1, Strong Wine 2 = 4 -> no Hedonistic.
    # Intellectual with Plato + Mathematics: exactly 3W (Strong + one 1W), Philosophy 3I,
    # Wit 2E; Flutist (WC) barred by IO, Komos/Kottabos give H: 3 + 5 + 4 + 3 + 2 = 17.
    # Social (no IO): all 4W + Komos 4 + Kottabos 3 (H = 7) + Philosophy 3 + Flutist 2 + Wit 2
    # (I = 7): I = H -> 4 + 14 + 2 = 20.  W = I = H = 4 (Flutist + Wit vs Komos) is only
    # 4 + 8 + 5 = 17; 3W with everything else 3 + 14 + 2 = 19.  I = 7 needs Philosophy,
    # Flutist and Wit all as I, so the play is unique.
    hand = ["Plato", "Mathematics", "Grapes", "Vines", "Strong Wine", "Flutist", "Komos",
            "Kottabos", "Philosophy", "Wit"]
    p = best(engine, hand)
    check(p, 20, "social", ["Grapes", "Vines", "Strong Wine", "Flutist", "Komos", "Kottabos",
                            "Philosophy", "Wit"], wine=4, intellectual=7, hedonistic=7,
          bonus=2)
    assert choice(p, "Flutist").either_to_intellectual == 2
    assert choice(p, "Wit").either_to_intellectual == 2


def test_eleven_card_hand(engine):
    # Five IO cards (5+4+3+3+3 = 18I) + Grapes, Vines, WMW (Overindulgence is NI): 21.
    # Hedonistic: 6W, Orgy has 1 woman only -> 6 + Flutist 2 = 8.  Social: 5W + 2 = 7.
    hand = ["Plato", "Mathematics", "Science", "Education", "Learned Discourse", "Grapes",
            "Vines", "Wine Mixed with Water", "Overindulgence", "Flutist", "Orgy"]
    p = best(engine, hand)
    check(p, 21, "intellectual", ["Plato", "Mathematics", "Science", "Education",
                                  "Learned Discourse", "Grapes", "Vines",
                                  "Wine Mixed with Water"],
          wine=3, intellectual=18, hedonistic=0, bonus=0)


def test_twelve_card_hand(engine):
    # Intellectual: IO 5+4+3 + 3W (no WC, no NI) = 15.  Social: <= 5W, no Orgy, no IO,
    # E 2,2,2 -> 5 + 6 = 11 or 5 + 4 + 2 = 11.  Hedonistic: 3+2+1+1+1 = 8W, Orgy with three WC
    # 5H, E 6 as H: 8 + 11 = 19.
    hand = ["Plato", "Mathematics", "Science", "Grapes", "Vines", "Wine Mixed with Water",
            "Overindulgence", "Intoxication", "Flutist", "Singers", "Dancers", "Orgy"]
    p = best(engine, hand)
    check(p, 19, "hedonistic", ["Grapes", "Vines", "Wine Mixed with Water", "Overindulgence",
                                "Intoxication", "Flutist", "Singers", "Dancers", "Orgy"],
          wine=8, intellectual=0, hedonistic=11, bonus=0)
