"""The notation parser: every card of the rules text, and clear errors for what it can't read."""

import re

import numpy as np
import pytest

from simsym.model.cards.model import Option
from simsym.model.cards.notation import NotationError, parse_notation
from simsym.model.scenario import REPO_ROOT


RULES_TEXT = REPO_ROOT / "docs" / "symposion-rules.txt"


def test_base_deck_has_the_75_cards_of_the_rules_in_their_notation(cards):
    assert len(cards) == 75
    assert cards.deck_size == 75  # ruling 1: one copy of each
    listed = RULES_TEXT.read_text().split("CARD LIST\n", 1)[1].splitlines()[1:]
    rows = [re.split(r"\t+", line.strip(), maxsplit=1) for line in listed if line.strip()]
    assert [name for name, _ in rows] == cards.names
    assert [text for _, text in rows] == [c.text for c in cards]


@pytest.mark.parametrize("name,text,expect", [
    ("Amphorae", "1W or 2W, Container",
     dict(options=(Option(1, 1), Option(2, 2)), container=True)),
    ("Golden Drinking Vessels", "1W and 1E, Container",
     dict(options=(Option(1, 1, 0, 0, 1),), container=True)),
    ("Dionysus", "1W or 2E", dict(options=(Option(1, 1), Option(either=2)))),
    ("Wine of Lesbos", "1W (Worth 2W for Scoring) Vintage",
     dict(options=(Option(1, 2),), vintage=True)),
    ("Old Wine", "1W or 1E; Vintage", dict(options=(Option(1, 1), Option(either=1)),
                                          vintage=True)),
    ("Overindulgence", "3W; NI", dict(options=(Option(3, 3),), not_intellectual=True)),
    ("Moderate Drinking", "1W; NH", dict(options=(Option(1, 1),), not_hedonistic=True)),
    ("Musicians", "2E; WC", dict(options=(Option(either=2),), woman=True)),
    ("Apply Perfume", "1E, MW", dict(options=(Option(either=1),), maybe_woman=True)),
    ("Orgy", "5H; HO, Requires 3+ WC",
     dict(options=(Option(hedonistic=5),), hedonistic_only=True, requires_women=3)),
    ("Drunken Revelry", "4H; HO, Requires 7+ Wine Points",
     dict(options=(Option(hedonistic=4),), hedonistic_only=True, requires_wine=7)),
    ("Sing Hymns", "2E; Social Symposion Only", dict(options=(Option(either=2),),
                                                    social_only=True)),
    ("Andron", "1E; Draw 1 card when Played*",
     dict(options=(Option(either=1),), draws=1, draw_usable=True)),
    ("Plato", "5I; IO", dict(options=(Option(intellectual=5),), intellectual_only=True)),
    ("Debate", "2I", dict(options=(Option(intellectual=2),))),
])
def test_parse(name, text, expect):
    card = parse_notation(name, text)
    for key, value in expect.items():
        assert getattr(card, key) == value, key
    # Every flag not named is off.
    for flag in ("container", "vintage", "woman", "maybe_woman", "intellectual_only",
                 "hedonistic_only", "not_intellectual", "not_hedonistic", "social_only",
                 "draw_usable"):
        if flag not in expect:
            assert getattr(card, flag) is False, flag


def test_every_base_card_parses_to_what_its_text_says(cards):
    by = {c.name: c for c in cards}
    assert sum(c.vintage for c in cards) == 7
    assert sum(c.container for c in cards) == 10
    assert sum(c.woman for c in cards) == 5
    assert sum(c.maybe_woman for c in cards) == 3
    assert sum(c.intellectual_only for c in cards) == 7
    assert by["Symposiarch"].draws == 1


LETTERS = ("allowed letters: W (Wine), I (Intellectual), H (Hedonistic), E (Either: I or H, "
           "the player's choice)")
PROPERTIES = ("allowed after the points, separated by ';' or ',': Container, Vintage, WC (a "
              "Woman card), MW (may be a Woman), IO (Intellectual Symposion only), HO")


@pytest.mark.parametrize("text,fragment,accepted,example", [
    ("", "empty notation", LETTERS, "1W or 2E; Vintage"),
    ("5X; IO", "cannot read a point value at '5X'", LETTERS, "5I; IO"),
    ("3X", "cannot read a point value at '3X'", LETTERS, "3W"),
    ("4Q; HO", "cannot read a point value at '4Q'", LETTERS, "4H; HO"),
    ("2Wine; Vintage", "cannot read a point value at '2Wine'", LETTERS, "2W; Vintage"),
    ("W; Vintage", "its number comes first", LETTERS, "1W; Vintage"),
    ("Vintage", "no point value before 'Vintage' (the points come first)", LETTERS,
     "1W; Vintage"),
    ("2W or", "a point value is missing after 'or'", LETTERS, "2W"),
    ("-1W", "cannot read a point value at '-1W'", LETTERS, "1W"),
    ("2I; Shiny", "the property 'Shiny'", PROPERTIES, "2I"),
    ("1W, Containr", "the property 'Containr' (did you mean 'Container'?)", PROPERTIES,
     "1W, Container"),
    ("5H; HO, Requires 3 WC", "the property 'Requires 3 WC'", "Requires N+ WC",
     "5H; HO, Requires 3+ WC"),
    ("2I (Worth 3W for Scoring)", "Worth", "follows a Wine value only",
     "2W (Worth 3W for Scoring)"),
    ("99I", "too large", "each point value is at most 20", "20I"),
    ("1E; WC, MW", "both WC and MW", "a Woman (WC) or may be one (MW), not both", "1E; WC"),
    ("2E; IO, HO", "more than one of IO, HO", "at most one of IO, HO, Social Symposion Only",
     "2E; IO"),
    ("1W or 1W or 1W or 1W or 1W", "5 alternatives", "at most 4 alternatives joined by 'or'",
     "1W or 1W or 1W or 1W"),
    ("20I and 20H and 20E and 20I and 20H and 1E", "add up to 101", "at most 100",
     "20I and 20H and 20E and 20I and 20H"),
    (" and ".join(["20W"] * 6), "add up to 120", "at most 100", " and ".join(["20W"] * 5)),
])
def test_unknown_notation_names_the_card_the_text_what_is_allowed_and_an_example(
        text, fragment, accepted, example):
    with pytest.raises(NotationError) as e:
        parse_notation("Odd Card", text)
    msg = str(e.value)
    assert "Odd Card" in msg
    assert fragment in msg
    if text:
        assert repr(text) in msg
    assert accepted in msg
    assert msg.endswith(f"; e.g. {example!r}"), msg
    parse_notation("Odd Card", example)  # the example reads


def test_an_option_of_exactly_the_limit_is_accepted():
    card = parse_notation("Feast", "20I and 20H and 20E and 20I and 20H")
    assert card.options[0].intellectual == 40 and card.options[0].either == 20


def test_cards_built_in_python_past_the_search_limit_are_refused_when_encoded():
    import dataclasses

    from simsym.model.cards.encode import encode_cards
    from simsym.model.cards.model import CardSet
    from simsym.errors import InputError

    card = parse_notation("Feast", "20I and 20H")
    big = dataclasses.replace(card, options=(Option(0, 0, 60, 50, 0),))
    with pytest.raises(InputError, match="Feast.*more than 100"):
        encode_cards(CardSet([big]))
    assert encode_cards(CardSet([card])).shape[0] == 1


def test_kinds_that_behave_alike_share_the_lowest_ones_class(cards):
    """enums.CF.CLS, worked by hand from the card file: the seven "1W, Container" cards
    (Krater first; the file writes three of them with ";" and four with ",", which read the
    same), the three plain "1W" (Grapes first) and the four "1W or 2E" (Dionysus first) each
    share a class, the lowest kind of it; a card with another flag or option (Wine Jars 2W,
    Container; Viticulture 1W, Vintage) is in a class of its own, and so is a card with copies
    alike with nothing else."""
    from simsym.model.cards.encode import encode_cards
    from simsym.model.cards.model import CardSet
    from simsym.core.enums import CF

    table = encode_cards(cards)
    kind = {c.name: k for k, c in enumerate(cards)}
    cls = {name: table[k, CF.CLS] for name, k in kind.items()}
    groups = {
        "Krater": ["Krater", "Drinking Horn", "Cantharos", "Rhyton", "Shallow Wine Bowls",
                   "Cylix", "Hydria"],
        "Grapes": ["Grapes", "Vines", "Wine Mixed with Water"],
        "Dionysus": ["Dionysus", "Libation to the Gods", "Libation to Zeus",
                     "Libation to Fallen Heroes"],
    }
    for first, names in groups.items():
        assert {cls[n] for n in names} == {kind[first]}, first
    for name in ("Wine Jars", "Viticulture", "Moderate Drinking", "Strong Wine"):
        assert cls[name] == kind[name]
        assert sum(1 for v in cls.values() if v == kind[name]) == 1, name
    alike = CardSet([parse_notation("A", "2H; HO"), parse_notation("B", "2H", copies=3),
                     parse_notation("C", "2H; HO", copies=2), parse_notation("D", "2H; HO, WC")])
    assert list(encode_cards(alike)[:, CF.CLS]) == [0, 1, 0, 3]


def test_the_kind_table_rows_start_on_cache_lines(cards):
    """enums' column order assumes each row starts a 64-byte line: the table encode_cards
    builds does (rows of CF.SIZE = 160 columns, 1,280 bytes), and so does the one the kernels
    get from a Setup unpickled in a worker process, whose arrays numpy allocates anew."""
    import pickle

    from simsym.engine import compiled as engine
    from simsym.model.cards.encode import aligned, encode_cards
    from simsym.core import enums as E
    from simsym.model.scenario import load_scenario

    assert E.CF.SIZE * 8 % 64 == 0
    table = encode_cards(cards)
    assert table.ctypes.data % 64 == 0 and table.flags.c_contiguous
    assert aligned(table) is table
    off = np.zeros(table.size + 1, np.int64)[1:].reshape(table.shape)  # 8 bytes off a line
    off[...] = table
    assert off.ctypes.data % 64 != 0
    again = aligned(off)
    assert again.ctypes.data % 64 == 0 and (again == table).all()
    setup = pickle.loads(pickle.dumps(engine.setup_for(load_scenario(
        REPO_ROOT / "scenarios" / "base.yaml"))))
    kinds = setup.table().kinds
    assert kinds.ctypes.data % 64 == 0 and (kinds == table).all()
