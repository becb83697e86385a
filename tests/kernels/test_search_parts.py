"""The search kernel's parts that no play-level test reaches directly: the workspace layout,
the subset-sum check for large totals, which copy of a card an exact tie plays and the
play-only result the engine reads."""

import random

import numpy as np
import pytest
from numba import njit

from simsym.model.cards.encode import encode_cards
from simsym.core import search_nb as S
from simsym.core.enums import MAX_HAND, RES, T_INTELLECTUAL
from simsym.model.rules import encode_rules


@pytest.mark.parametrize("n", [0, 1, 9, 17, MAX_HAND])
def test_views_fit_the_workspace_and_do_not_overlap(n):
    """Every view _views carves from a workspace of workspace_size(n) entries has room for
    MAX_HAND cards whatever n (so each starts at an offset the compiled search knows), the
    same offsets in any workspace, and no entry belongs to two views (each view sees distinct
    workspace indices)."""
    size = S.workspace_size.py_func(n)
    assert size == S.workspace_size.py_func(MAX_HAND)
    ws = np.arange(size, dtype=np.int64)
    work, end = S._views(ws)  # compiled: its 2-d and 3-d views need numba
    assert end <= size
    N = MAX_HAND
    expected = {"st": N * S.MAXS * S.ST.SIZE, "acc": (N + 1) * S.ACC.SIZE, "xw": S.XCAP,
                "xx": S.XCAP, "xe": S.XCAP, "xo": S.XCAP, "xcnt": S.XCAP + 1,
                "ub": S.NGROUPS, "wx": S.NGROUPS, "sums": S.SUM_WORDS, "rv": N + 1, "rc": N + 1,
                "rn": N + 1, "ch": N + 1, "xtop": S.XC_CLASSES * S.XC_COUNT}
    shapes = {"st": (N, S.MAXS, S.ST.SIZE), "acc": (N + 1, S.ACC.SIZE),
              "xtop": (S.XC_CLASSES, S.XC_COUNT)}
    other, _ = S._views(np.zeros(size + 5, np.int64)[5:])
    seen = []
    for name, view, view2 in zip(S.Work._fields, work, other):
        assert view.size == expected.get(name, N), name
        assert view.shape == shapes.get(name, (view.size,)), name
        assert view.size == 0 or np.shares_memory(view, ws)
        # The view starts at the entry its offset says, in either workspace.
        assert view.ravel()[0] == (view2.ctypes.data - other.hs.ctypes.data) // 8, name
        # C order over consecutive entries: [j, c, col] is entry ((j * MAXS) + c) * ST.SIZE + col
        assert view.flags.c_contiguous and np.all(np.diff(view.ravel()) == 1), name
        seen.append(view.ravel())
    cells = np.concatenate(seen)
    assert len(np.unique(cells)) == len(cells) == end


def _reachable(items, x):
    sums = {0}
    for v in items:
        sums |= {s + v for s in sums}
    return x in sums


def test_large_subset_sums_match_a_set_of_sums():
    """_has_sum_slow (a multi-word bitset in workspace scratch, for totals of 128 and more)
    against the plain set of subset sums, across word boundaries."""
    rng = random.Random(5)
    bits = np.zeros(S.SUM_WORDS, np.int64)
    for _ in range(300):
        items = [rng.choice([1, 2, 3, 20, 63, 64, 65, 100, 127, 128, 129])
                 for _ in range(rng.randint(0, 12))]
        total = sum(items)
        arr = np.array(items + [0], np.int64)
        for x in {0, 1, 63, 64, 65, 127, 128, total, total - 1, rng.randint(0, total + 5)}:
            assert S._has_sum_slow(arr, len(items), x, bits) == _reachable(items, x), (items, x)


def _best_intellectual(base, hand):
    """(score, mask over hand positions) of the best Intellectual play of ``hand`` (names)."""
    kinds, rules = encode_cards(base.cards), encode_rules(base.rules)
    res = np.zeros(RES.SIZE, np.int64)
    codes = np.array([base.cards.lookup(c) for c in hand], np.int64)
    S.best_symposion_nb(codes, len(codes), kinds, rules, 0, 1 << T_INTELLECTUAL, res)
    return res[RES.SCORE], res[RES.MASK]


def test_kind_lists_compare_as_sorted_lists():
    """_kinds_cmp (masks over a sorted hand, with copies) orders two plays as their sorted
    kind lists compare, a proper prefix the smaller."""
    rng = random.Random(11)
    for _ in range(3000):
        n = rng.randint(0, 14)
        hs = np.array(sorted(rng.randint(0, 5) for _ in range(n)) + [0], np.int64)
        a, b = rng.getrandbits(n) if n else 0, rng.getrandbits(n) if n else 0
        if rng.random() < 0.3:  # the same list through other copies
            b = a
            for q in range(n - 1):
                if hs[q] == hs[q + 1] and (b >> q) & 1 != (b >> (q + 1)) & 1:
                    b ^= 3 << q
        la = [int(hs[q]) for q in range(n) if (a >> q) & 1]
        lb = [int(hs[q]) for q in range(n) if (b >> q) & 1]
        want = (la > lb) - (la < lb)
        assert S._kinds_cmp(hs, np.int64(a), np.int64(b), np.int64(n)) == want, (hs, a, b)


@pytest.mark.parametrize("np_", [0, 1, 4, S.X_SMALL, S.X_SMALL + 1, 11])
def test_exclusion_sets_are_every_set_within_the_loss_in_order_of_loss(np_):
    """_x_build lists exactly the sets of optional free cards losing at most ``maxlost``
    points, each with its count, I and E (packed), in order of points lost; every subset
    listed up to X_SMALL cards, a depth-first walk beyond, which gives up past XCAP sets.
    (Points of 20 to 59 a card: a loss bound past XCAP, which the counting sort cannot
    bucket.)"""
    from itertools import combinations

    rng = random.Random(np_)
    for trial in range(40):
        big = trial % 4 == 3
        ws = np.zeros(S.workspace_size.py_func(12), np.int64)
        work, _ = S._views(ws)
        cards = []
        for r in range(np_):
            i, h, e = (rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 3)) if not big \
                else (rng.randint(10, 29), 0, rng.randint(10, 30))
            cards.append((i + h + e, i, e))
            work.pv[r], work.pi[r], work.ph[r], work.pe[r] = i + h + e, i, h, e
        maxlost = rng.randint(0, 9) if not big else rng.randint(100, 300)
        psum = sum(c[0] for c in cards)
        want = {}
        for k in range(np_ + 1):
            for combo in combinations(range(np_), k):
                lost = sum(cards[r][0] for r in combo)
                if lost <= maxlost:
                    want[sum(1 << r for r in combo)] = (
                        lost, k, sum(cards[r][1] for r in combo), sum(cards[r][2] for r in combo))
        nx = S._x_build(work, np.int64(np_), np.int64(maxlost), np.int64(psum))
        if np_ > S.X_SMALL and len(want) > S.XCAP:
            assert nx == S.X_TOO_MANY
            continue
        assert nx == len(want)
        got = {}
        last = 0
        for key in work.xo[:nx]:
            idx, lost = key & S.X_IMASK, key >> S.X_SHIFT
            assert lost >= last  # in order of points lost
            last = lost
            xs = idx if np_ <= S.X_SMALL else work.xx[idx]
            f = work.xw[idx]
            got[xs] = (f & 0xFFFF, (f >> 16) & 0xFFFF, (f >> 32) & 0xFFFF, f >> 48)
            assert got[xs][0] == lost
            sizes = [cards[r][2] for r in range(np_) if (xs >> r) & 1]
            assert work.xe[idx] == (sizes.count(1) + (sizes.count(2) << 16)
                                    + (sum(1 for e in sizes if e > 2) << 32))
        assert got == want


@pytest.mark.parametrize("hand, mask", [
    (["Wine Jars", "Grapes", "Wine Jars"], 0b110),
    (["Wine Jars", "Wine Jars", "Grapes"], 0b110),
    (["Grapes", "Wine Jars", "Wine Jars"], 0b101),
])
def test_a_tie_between_copies_goes_to_the_canonical_walks_first_play(base, hand, mask):
    """Worked by hand: an Intellectual play needs exactly 3 Wine, so one Wine Jars (2W) and
    the Grapes (1W) score 3, with either copy of Wine Jars: the same score, cards and kinds.
    The canonical walk goes over the hand sorted by kind (copies in hand order) and leaves a
    card out before playing it, so it meets the play with the second copy first, and that
    copy's hand position is in the answer. The kernel walks a card's options before leaving it
    out, so it meets the other play first; the tie-break (_walk_order) must still answer the
    second copy."""
    assert _best_intellectual(base, hand) == (3, mask)


@pytest.mark.parametrize("hand, mask", [
    (["Vines", "Wine Jars", "Grapes"], 0b110),
    (["Grapes", "Wine Jars", "Vines"], 0b011),
])
def test_a_tie_between_two_kinds_that_behave_alike_plays_the_smaller_kind(base, hand, mask):
    """Worked by hand: Grapes and Vines are both "1W" (alike, but sorted apart: Grapes
    comes first in the card file). An Intellectual play needs exactly 3 Wine: Wine Jars (2W)
    and one of the two, the same score and count. The smaller sorted kind list has Grapes,
    so Grapes plays, wherever it sits in the hand."""
    assert _best_intellectual(base, hand) == (3, mask)


@pytest.mark.parametrize("engine", ["numba", "reference"])
@pytest.mark.parametrize("hand", [
    ["Libation to Zeus", "Wine Jars", "Libation to the Gods"],
    ["Libation to the Gods", "Libation to Zeus", "Wine Jars"],
])
def test_two_alike_kinds_both_played_take_their_options_in_canonical_order(base, hand, engine):
    """Worked by hand: both Libations are "1W or 2E". Intellectual needs exactly 3
    Wine: Wine Jars (2W), one Libation as 1W and the other as 2E (E counts as I): 2 + 1 + 2
    = 5; both as 1W would be 4 Wine. Either Libation may take the Wine: the same score, cards
    and kinds. The canonical walk gives the earlier sorted card (Libation to the Gods comes
    first in the card file) its first option, 1W."""
    from simsym.model.rules import RuleOptions
    from simsym.engine.search import Searcher

    codes = [base.cards.lookup(c) for c in hand]
    play = Searcher(base.cards, RuleOptions(), engine=engine).best(codes, types=("intellectual",))
    assert (play.score, play.wine, play.intellectual) == (5, 3, 2)
    assert sorted((c.name, c.option) for c in play.choices) == [
        ("Libation to Zeus", 1), ("Libation to the Gods", 0), ("Wine Jars", 0)]


@njit  # not cached: numba would judge its cache fresh by this file alone, and the search's
# wrappers inlined into it would then call a stale search (simsym.core's cache folder per
# digest covers only the package's own kernels)
def _three_modes(hands, ns, kinds, rules, reqs, types, floors, full, play, ws):
    """Per hand: the complete result (best_symposion_hint_ws) into full[i] and the play-only
    result (best_play_hint_ws) into play[i], which starts as -7 everywhere."""
    for i in range(hands.shape[0]):
        S.best_symposion_hint_ws(hands[i], ns[i], kinds, rules, reqs[i], types[i], floors[i],
                                 full[i], ws)
        S.best_play_hint_ws(hands[i], ns[i], kinds, rules, reqs[i], types[i], floors[i],
                            play[i], ws)


@pytest.mark.parametrize("deck", ["base", 0, 1, 2])
def test_the_play_only_result_is_the_complete_results_play(base, deck):
    """best_play_ws / best_play_hint_ws (the engine's searches) write the same score, type,
    cards and card count as the complete search, on base and random decks with copies, random
    required cards, type masks and hints (right and wrong), and leave the rest of ``res`` as
    it was."""
    from tests.kernels.test_search_random_decks import _deck

    cards = base.cards if deck == "base" else _deck(deck)
    kinds, rules = encode_cards(cards), encode_rules(base.rules)
    pool = [k for k, c in enumerate(cards) for _ in range(c.copies)]
    rng = random.Random(11)
    N = 3000
    hands = np.zeros((N, 14), np.int64)
    ns = np.zeros(N, np.int64)
    reqs = np.zeros(N, np.int64)
    types = np.zeros(N, np.int64)
    floors = np.zeros(N, np.int64)
    for i in range(N):
        n = rng.randint(0, 14)
        hands[i, :n] = rng.sample(pool, n)
        ns[i] = n
        reqs[i] = rng.getrandbits(n) & rng.getrandbits(n) & rng.getrandbits(n) if n else 0
        types[i] = rng.randint(1, 7)
        floors[i] = rng.choice([-1, -1, rng.randint(0, 30)])
    full = np.zeros((N, RES.SIZE), np.int64)
    play = np.full((N, RES.SIZE), -7, np.int64)
    ws = np.zeros(S.workspace_size(14), np.int64)
    _three_modes(hands, ns, kinds, rules, reqs, types, floors, full, play, ws)
    fields = [RES.SCORE, RES.TYPE, RES.MASK, RES.NCARDS]
    assert (play[:, fields] == full[:, fields]).all()
    rest = np.ones(RES.SIZE, bool)
    rest[fields] = False
    assert (play[:, rest] == -7).all()
    # The samples reach plays of every type and plays with no answer.
    assert set(full[:, RES.TYPE]) == {-1, 0, 1, 2}


@pytest.mark.parametrize("engine", ["numba", "reference"])
def test_best_parts_are_the_figures_of_best(engine):
    """Searcher.best_parts (the census's call) gives what best gives, without the cards."""
    from simsym.errors import SimsymError
    from simsym.model.scenario import BASE_SCENARIO, load_scenario
    from simsym.engine.search import TYPES, Searcher

    sc = load_scenario(BASE_SCENARIO)
    s = Searcher(sc.cards, sc.rules, engine=engine)
    rng = random.Random(7)
    K = len(sc.cards)
    kinds = set()
    for _ in range(40 if engine == "reference" else 400):
        hand = [rng.randrange(K) for _ in range(rng.randint(1, 7 if engine == "reference"
                                                             else 10))]
        types = tuple(t for t in TYPES if rng.random() < 0.7) or TYPES
        required = tuple(p for p in range(len(hand)) if rng.random() < 0.2)
        full, parts = s.best(hand, types, required), s.best_parts(hand, types, required)
        assert parts.choices == ()
        assert (parts.score, parts.type, parts.wine, parts.intellectual, parts.hedonistic,
                parts.bonus) == (full.score, full.type, full.wine, full.intellectual,
                                 full.hedonistic, full.bonus)
        kinds.add(full.type)
    assert kinds >= {None, "social"}  # hands with no play and with plays are both met
    with pytest.raises(SimsymError, match="unknown Symposion type"):
        s.best_parts([0, 1], ("banquet",))
