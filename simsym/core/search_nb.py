"""Exact best-Symposion search, numba-compiled, over the int64 card table and rule array.

How it stays exact and fast (the reference brute force in simsym.reference checks it):

* Types are searched one at a time; Intellectual twice, once without IO cards and once with
  IO allowed but no WC/MW (ruling 17), so no search has to track that exclusion. Each of these
  (type, mode) groups has a cheap upper bound (the sum of every allowed card's best value, plus
  the largest Social bonus); groups are searched in order of decreasing bound and a group whose
  bound is below the best score found so far is skipped. Exact ties between groups are broken
  by (type, mode) order, so the answer is the same as searching the groups in canonical order.
* In an Intellectual or Hedonistic search a card that can give no wine, is not Vintage and has
  no requirement ("free") never affects legality, so the best play holds it exactly when it
  scores (> 0 points); only the other cards are enumerated (excluded, or each option).
* In a Social search the score is additive except for the bonus, which is at most B
  (``maxbonus``). A free card worth more than B is in every best play; the free cards worth at
  most B are enumerated as an exclusion set whose points sum to at most B. The exclusion sets
  (and their I/H/E totals) are listed once per search, not once per leaf.
* The depth-first walk over the enumerated cards prunes on wine (too much, or too little left
  to reach the window), Vintage, the non-Container rule and on a score bound (strictly below the
  best found, so tie-breaks are unaffected). It tries each card's options (highest value
  first) before leaving it out, which finds high scores early and prunes more; an exact tie
  (same score, cards and kinds) goes to the play a walk in canonical order (left out first,
  then the options in order) meets first.
* Cards of one behaviour class (kinds alike in every column but their name, enums.CF.CLS,
  and alike in being required or not) can swap their states without changing anything but
  the kinds a play lists. Of each set of plays that differ only so, the canonical order
  below prefers the one where each such card, against the previous one of its class in
  sorted order, is: of another kind, left out if the previous one is, else left out or
  playing an option numbered no lower (the lower kind plays first); a copy of the same kind,
  left out only if the previous one is, else playing an option numbered no lower (the
  earlier copy is left out first). The walk visits only plays in that order (``w.sp``):
  the best play is always one of them, so the answer is the same, with fewer leaves when a
  hand holds alike cards (the base deck's 75 kinds fall in 33 classes).
* The Social group in closed form (``_social_cf``), when every Social card of the hand has a
  shape it covers (enums.CF.SCF: free cards of one category worth 1 to 5, enumerated cards
  without requirements and with E items of 1 or 2), the kinds are distinct, the hand has at
  most XC_MAX_HAND cards, the deck has its table of exclusion vectors (enums.CF.XR) and the
  rules count printed wine, keep E whole and have bonuses of at most 5: free cards fall in
  classes of alike cards (category, points), so the exclusion sets are vectors of counts per
  class, listed once per deck by encode_cards; a leaf tries only the vectors losing at most
  the I = H bonus or exactly what the all-equal bonus needs, each in closed form. The same
  answers as the walk below (tests/kernels/test_social_closed_form.py), at about three quarters of
  the median search's time. Other hands take
  the general walk.
* E points never change the score, only whether I = H (and = Wine) is reachable; a subset-sum
  bitset answers that, and the split is rebuilt once for the winner.
* All scratch memory is one int64 workspace (``best_symposion_ws`` takes it preallocated),
  carved into named views once per call (``Work``, by ``_carve``: a slice of the workspace
  reshaped, through numba's documented array API; nothing allocates, nor does any part). Each view has room for MAX_HAND cards
  whatever the hand, so it starts at a constant offset: the compiled search addresses every
  view from the workspace's one pointer instead of keeping a pointer per view (7% fewer
  instructions a search than views sized by the hand). The walk sums
  its columns packed in 16-bit lanes (ST.P0..ST.P2), and the hot loops index the views with
  unsigned integers (``U``) so numba emits no negative-index wraparound.
* Each part takes the workspace itself (``ws``, one array) and carves its views at its
  start (``_views``, inlined: constant offsets from the workspace's one pointer), so a call
  passes one array, not the ~30 views. The parts a search runs once or once per group
  (``_group_bounds``, ``_social_cf``, ``_card_states``, ``_walk``, ``_write_result``) are
  compiled on their own; what runs at every leaf (``_social_leaf``, ``_x_build``,
  ``_option_states``) is inlined by numba into its caller. Each numba-inlined function is
  copied into its caller block by block, at a cost that grows with its blocks times its
  variables, so the large parts stay calls: the search's cold compile is ~6 s, not ~40 s.
  Everything is compiled without reference counting (``_nrt=False``; otherwise each view
  handed to a part costs an atomic increment and decrement; the search measured 2 to 3.5
  times slower with it).
* What depends only on a card kind (usable options, best values, largest wine, the groups it
  may join, its walk states per type already packed and ordered, the groups' bounds a lane
  per group) is read from the card table's derived columns (enums.CF.OKI ..., CF.ST,
  CF.PUB, filled by simsym.model.cards.encode), not recomputed per call.

Ties are broken canonically: highest score, fewest cards, lexicographically smallest sorted
list of card kinds, then type order intellectual, social, hedonistic, then the canonical
walk's order (per sorted card: left out, then its options in order).

The parts, in the order ``_best_core`` runs them:

* ``_views``: the workspace as a ``Work`` record of named array views (``w.hs``, ``w.st`` ...).
* ``_sort_hand``: the hand sorted by kind (``w.hs``), each card's hand position (``w.perm``).
* ``_rule_facts``: the rule values the search reads, once (a ``Facts`` record).
* ``_group_bounds``: the (type, mode) groups still possible, each one's score bound and
  largest wine.
* per group, best bound first: the Social group by ``_social_cf`` when it covers the hand;
  otherwise ``_card_states`` sorts the cards into fixed free cards, optional
  free cards (Social) and enumerated cards, whose states (each option, then left out) it
  writes into ``w.st`` (``_option_states``); it returns the group's ``Group`` record.
  ``_walk`` then walks the enumerated cards' states depth first; at a leaf, ``_leaf``
  (Intellectual, Hedonistic) or ``_social_leaf`` (tries the exclusion sets of optional free
  cards, listed by ``_x_build``) compares the play with the best (a ``Best`` record,
  ``_cmp_play``; an exact tie by ``_walk_order``). When the group's walk found a new best,
  ``_record`` keeps its options.
* ``_write_result``: the answer into ``res``, with the E split and the woman flags. What
  ``_best_core`` writes depends on its ``mode`` (MODE_*): all of that (``best_symposion_ws``),
  the play only (score, type, mask, count: ``best_play_ws``, what the engine reads) or the
  score only (``best_score_above_ws``).
"""

from __future__ import annotations

from collections import namedtuple

import math

import numpy as np
from numba import njit
from numba import config as _numba_config

from simsym.core.layout import layout
from simsym.core.options import INNER, PY_ENTRY

if _numba_config.DISABLE_JIT:  # the search's python mode (NUMBA_DISABLE_JIT=1): plain numpy
    def _tz(x):
        """Trailing zeros of x (x != 0): the index of its lowest set bit."""
        x = int(x)
        return (x & -x).bit_length() - 1

    def _carve(ws, at, size, shape):
        """``ws[at:at + size]`` as a C-ordered array of ``shape`` (size: its entries)."""
        return ws[at:at + size].reshape(shape)
else:
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def _tz(typingctx, x):
        """Trailing zeros of x (x != 0): the index of its lowest set bit, LLVM's cttz."""
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, sig, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
        return x(x), codegen

    @njit(cache=True, inline='always')
    def _carve(ws, at, size, shape):
        """``ws[at:at + size]`` as a C-ordered array of ``shape`` (a tuple of integers whose
        product is ``size``), for 0 <= at and at + size <= len(ws)."""
        return ws[at:at + size].reshape(shape)

from simsym.core.enums import (
    CF, CF_GROUP_BV, CF_GROUP_BW, CH_E_SHIFT, CH_WOMAN, LANE, MAX_HAND, MAX_OPTIONS, OPT, RES, RULE,
    SCF_ENUM, SCF_FREE, SCF_MAX_CLASSES, SCF_NONE, STF, ST_BLOCK, T_HEDONISTIC, T_INTELLECTUAL,
    T_SOCIAL, XR_PER_ROW,
)

# Columns of a per-card "state" row: one way a card takes part (or not) in a search. Only
# what the walk and the leaves read: the summed columns packed in 16-bit lanes (ST.P0..ST.P2),
# so a step of the walk adds three words (every sum stays below 2**15: MAX_HAND cards of
# bounded points, see simsym.model.cards.encode), and the maxed requirements.
ST = layout(
    "ST",
    "P0",  # CW | NCW << 16 | VINT << 32 | VAL << 48: what every step of the walk checks
    "P1",  # IN | WB << 16 | WOMEN << 32: read at the leaves
    "P2",  # I | H << 16 | E << 32
    "REQW",  # women the card requires
    "REQWINE",  # wine the card requires
    "IN",  # 1 if the card is played
    "E",  # Either points (Social searches only; in I/H searches they are folded in)
    "OPT",  # option index; MAX_OPTIONS in the left-out state (read only by _walk's order
    #         between alike cards)
)
# The lanes: CW, wine counted for requirements; NCW, counted wine from a non-Container card;
# VINT, Vintage cards; VAL, points before any bonus; IN, cards played; WB, wine the
# all-equal Social bonus compares with (scored or printed); WOMEN, women; I, fixed
# Intellectual points (in I searches: all points but wine); H, fixed Hedonistic points; E,
# Either points.
LMASK = (1 << LANE) - 1
# Columns of the walk's accumulator (a row per depth).
ACC = layout("ACC", "P0", "P1", "P2", "REQW", "REQWINE")
MAXS = MAX_OPTIONS + 1  # states of a card: left out, or one of its options

# Social exclusion sets (sets of optional free cards left out): each set's fields packed in
# one word (w.xw: points lost | cards << 16 | I << 32 | E << 48; its H is lost - I - E, since
# optional free cards carry no wine), its bitmask over the optional free cards (the set's
# index itself when every subset is listed, else w.xx) and their order by points lost (w.xo).
XCAP = 128
X_SMALL = 7  # up to this many optional free cards, every subset is listed (2 ** 7 <= XCAP)
X_SHIFT = 7  # an entry of the order w.xo: points lost << X_SHIFT | the set's index (< XCAP)
X_IMASK = (1 << X_SHIFT) - 1
assert XCAP <= 1 << X_SHIFT and 1 << X_SMALL <= XCAP
X_UNLISTED = -2  # the walk's exclusion-set count before a leaf first needs the list
X_TOO_MANY = -1  # ... when there are more than XCAP (then a leaf enumerates them on the fly)

SUM_WORDS = 2 ** 15 // 64  # words of a bitset over every sum of points a hand can hold

U = np.uint64  # an index type numba does not wrap around (see _walk)

# The Social closed form (_social_cf): free-card classes of a deck (enums.CF.SCF_FREE), one
# more than the most cards of one class a hand may hold for it (more: the general walk), and
# the largest hand and bonus it takes (its packed sums have 8-bit fields).
XC_CLASSES = SCF_MAX_CLASSES
XC_COUNT = 8
XC_MAX_HAND = 16
XC_MAX_BONUS = 5
XC_GUARD = np.int64(0x0080808080808080)  # the guard bit of each class's lane (enums.CF.XR)
# What _best_core writes into ``res``: only score and type (best_score_above_ws); the play
# (score, type, cards as a mask over hand positions, their number: all the engine reads);
# or the complete result (each card's option, E split and woman flag too).
MODE_SCORE = 0
MODE_PLAY = 1
MODE_FULL = 2
NGROUPS = 4  # (type, mode): (I, 0), (I, 1), (S, 0), (H, 0)
G_TYPE = (T_INTELLECTUAL, T_INTELLECTUAL, T_SOCIAL, T_HEDONISTIC)

# The workspace as named views, carved by _views ("sorted position": a card's index in
# w.hs): each field's shape, in workspace order. Each has room for n = MAX_HAND cards; a search
# of a hand of fewer uses its first entries.
_N = MAX_HAND
WORK = (
    ("hs", (_N,)),  # the hand sorted by kind
    ("perm", (_N,)),  # the hand position of each sorted card
    ("bopt", (_N,)),  # the best play's option per sorted card
    ("copt", (_N,)),  # the free cards' option in the current group
    ("ub", (NGROUPS,)),  # per group, an upper bound on the score
    ("wx", (NGROUPS,)),  # ... and on the counted wine
    ("st", (_N, MAXS, ST.SIZE)),  # each enumerated card's states (ST columns)
    ("ns", (_N,)),  # ... how many states it has
    ("epos", (_N,)),  # ... its sorted position
    ("ecl", (_N,)),  # ... its behaviour class (enums.CF.CLS) x 2 + 1 if required
    ("sp", (_N,)),  # ... the previous enumerated card of that class and requirement, as
    #                 j << 1 | 1 for a copy of its kind (0 for another kind); -1: none (_walk)
    ("rv", (_N + 1,)),  # suffix sums over the enumerated cards of their best value,
    ("rc", (_N + 1,)),  # ... of their largest counted wine
    ("rn", (_N + 1,)),  # ... of their largest non-Container wine
    ("acc", (_N + 1, ACC.SIZE)),  # the walk's sums at each depth (row 0: the fixed free cards)
    ("ch", (_N + 1,)),  # the walk's current state per depth
    ("bch", (_N,)),  # the best play's states, kept until its group's walk ends
    ("ppos", (_N,)),  # Social optional free cards: sorted position,
    ("pv", (_N,)),  # ... points (value),
    ("pi", (_N,)),  # ... I points,
    ("ph", (_N,)),  # ... H points,
    ("pe", (_N,)),  # ... E points
    ("xw", (XCAP,)),  # Social exclusion sets: their fields, packed (see XCAP),
    ("xx", (XCAP,)),  # ... their bitmasks (when not every subset is listed),
    ("xe", (XCAP,)),  # ... their E items counted by size (see _e_code),
    ("xo", (XCAP,)),  # ... their order, by points lost (packed with the index: _x_insert)
    ("xcnt", (XCAP + 1,)),  # ... a counting sort's buckets
    ("xst", (_N,)),  # ... the stack of the walk that lists them
    ("li", (_N,)),  # a Social leaf's E items from the enumerated cards
    ("ei", (_N,)),  # a Social play's E items, on the slow subset-sum path
    ("sums", (SUM_WORDS,)),  # ... the bitset of their subset sums
    ("out_e", (_N,)),  # the answer's E items,
    ("out_pos", (_N,)),  # ... their sorted positions,
    ("out_toi", (_N,)),  # ... and per sorted card, the E points given to Intellectual
    ("xtop", (XC_CLASSES, XC_COUNT)),  # _social_cf: per free class, the masks of its x
    #                                    highest sorted positions
)
Work = namedtuple("Work", [name for name, _ in WORK])
# Where each view starts in the workspace, and the entries they take (WORK_AT.SIZE).
WORK_AT = layout("WORK", *((name, int(np.prod(shape))) for name, shape in WORK))

# The rule values the search reads (from the rule array, once per call).
Facts = namedtuple("Facts", (
    "wine_scored",  # the wine windows count scored wine (else printed)
    "bonus_wine_scored",  # the all-equal bonus compares with scored wine (else printed)
    "iobm",  # 1 when IO cards bar MW cards: the column offset into CF.AL and CF.WMAT
    "need_ncw",  # wine that must come from non-Container cards
    "max_vint",  # most Vintage cards
    "either_split",  # E points may be split between I and H
    "beq",  # the Social bonus for I = H
    "maxbonus",  # the largest Social bonus (I = H = wine: stacked or not)
))

# One (type, mode) group's search, as _card_states prepared it.
Group = namedtuple("Group", (
    "g", "t", "social",
    "lo_w", "hi_w",  # the type's wine window
    "m",  # enumerated cards (w.st[:m])
    "np_",  # Social: optional free cards (w.ppos[:np_] ...)
    "free_mask",  # sorted positions of the fixed free cards
    "pmask",  # ... of the optional free cards
    "f_val",  # points of the fixed free cards
    "flo", "fhi",  # ... their E items' subset-sum bitset (Social)
    "fe12",  # ... their E items counted by size (see _e_code)
    "psum", "pisum", "phsum", "pesum",  # optional free cards: total points, I, H, E
    "pe12",  # ... their E items counted by size
    "has_reqs",  # an enumerated card has a requirement
))

# The best play so far: score, number of cards, mask over sorted positions, group (NGROUPS:
# none yet).
Best = namedtuple("Best", ("score", "n", "mask", "g"))


@njit(cache=True)
def workspace_size(n):
    """Length of the int64 workspace ``best_symposion_ws`` needs for a hand of n cards: what
    ``_views`` carves, the same for every n (room for the largest hand whatever the hand)."""
    return WORK_AT.SIZE


def _carve_work_source() -> str:
    """The source of ``_carve_work``: ``Work(ws[at:at + n], _carve(ws, at, size, shape), ...)``
    for every view of the WORK declaration, each at its WORK_AT offset, so that every offset
    and shape is a constant of the compiled code; a one-dimensional view is a plain slice (a
    reshape calls into numba's runtime, measurably slower in the search)."""
    views = ", ".join(f"ws[{at}:{at + shape[0]}]" if len(shape) == 1 else
                      f"_carve(ws, {at}, {math.prod(shape)}, {tuple(shape)!r})"
                      for at, (_, shape) in zip(WORK_AT, WORK))
    return f"def _carve_work(ws):\n    return Work({views})\n"


exec(_carve_work_source(), globals())  # noqa: S102 - the views of a fixed declaration
_carve_work.__doc__ = """The workspace's views (``Work``), each at its WORK_AT offset with its
WORK shape. The caller guarantees len(ws) >= WORK_AT.SIZE."""
if not _numba_config.DISABLE_JIT:
    _carve_work = njit(inline='always')(_carve_work)


@njit(cache=True, inline='always')
def _views(ws):
    """The workspace carved into the search's views (see ``Work``), each with room for
    MAX_HAND cards, and how many entries they take. (A function compiled with ``_nrt=False``
    must not return an array to one with reference counting: the caller would release a
    reference it was never given. So this is inlined, never compiled with ``_nrt=False``.)"""
    return _carve_work(ws), WORK_AT.SIZE


@njit(cache=True)
def _opt_value(kinds, k, o):
    """Points option o of kind k adds before any bonus (scored Wine, I, H and E)."""
    base = CF.OPT + o * OPT.SIZE
    return (kinds[k, base + OPT.WINE_SCORED] + kinds[k, base + OPT.I] + kinds[k, base + OPT.H]
            + kinds[k, base + OPT.E])


@njit(**PY_ENTRY)
def _kinds_cmp(hs, a, b, n):
    """-1, 0 or 1 as the sorted kind list of mask ``a`` is below, equal to or above ``b``'s.

    ``hs`` is the sorted hand, so walking positions upwards yields each mask's sorted kind
    list. Below the lowest position i where the masks differ, the lists agree; the mask
    holding i meets hs[i] next, the other its next position j above i (none: it is a proper
    prefix, so the smaller). hs[j] >= hs[i]; when equal (a copy of the same kind), the two
    lists agree there too and the other mask may as well hold i instead of j."""
    while True:
        d = a ^ b
        if d == 0:
            return 0
        i = _tz(d)
        bit = np.int64(1) << i
        above = ~((bit << 1) - 1)
        if a & bit:
            rest = b & above
            if rest == 0:
                return 1
            j = _tz(rest)
            if hs[U(j)] != hs[U(i)]:
                return -1
            b ^= (np.int64(1) << j) | bit
        else:
            rest = a & above
            if rest == 0:
                return -1
            j = _tz(rest)
            if hs[U(j)] != hs[U(i)]:
                return 1
            a ^= (np.int64(1) << j) | bit


@njit(**INNER)
def _cmp_play(hs, n, score, cnt, mask, g, best):
    """Canonical order: 1 when the play (score, cnt cards, mask, group g) is better than
    ``best``, -1 when worse, 0 on an exact tie within the same group (the caller breaks it by
    the canonical walk order, _walk_order). Exact ties between groups go to the earlier
    (type, mode) group."""
    if score != best.score:
        return 1 if score > best.score else -1
    if cnt != best.n:
        return 1 if cnt < best.n else -1
    c = _kinds_cmp(hs, mask, best.mask, n)
    if c != 0:
        return -c
    if g != best.g:
        return 1 if g < best.g else -1
    return 0


@njit(**INNER)
def _walk_order(w, m):
    """-1, 0 or 1 as the walk's current states (w.ch) come before, are or come after the best
    play's (w.bch) in the canonical order: depth by depth, a card left out before its options,
    its options in option order. (The walk itself visits each card's options first, the highest
    value first, and leaving it out last, which finds high scores early and so prunes more;
    ties are broken by this order, so the answer is the one a walk in canonical order finds
    first.)"""
    for j in range(m):
        a = w.ch[U(j)]
        b = w.bch[U(j)]
        if a != b:
            ra = w.st[U(j), U(a), ST.OPT] if w.st[U(j), U(a), ST.IN] else -1
            rb = w.st[U(j), U(b), ST.OPT] if w.st[U(j), U(b), ST.IN] else -1
            return -1 if ra < rb else 1
    return 0


@njit(cache=True)
def _fold(lo, hi, v):
    """Add one item of size v (0 <= v < 128) to a subset-sum bitset."""
    if v == 0:
        return lo, hi
    if v >= 64:
        return lo, hi | (lo << np.uint64(v - 64))
    nlo = lo << np.uint64(v)
    nhi = (hi << np.uint64(v)) | (lo >> np.uint64(64 - v))
    return lo | nlo, hi | nhi


@njit(cache=True)
def _has_sum(lo, hi, x):
    if x < 0 or x >= 128:
        return False
    if x < 64:
        return (lo >> np.uint64(x)) & np.uint64(1) == np.uint64(1)
    return (hi >> np.uint64(x - 64)) & np.uint64(1) == np.uint64(1)


@njit(cache=True)
def _has_sum_slow(items, m, x, bits):
    """Subset-sum reachability for totals too large for the two-word bitset: a bitset of
    x // 64 + 1 words in the scratch ``bits`` (sums stay below 2**15: SUM_WORDS words)."""
    if x < 0:
        return False
    nw = x // 64 + 1
    for i in range(nw):
        bits[i] = 0
    bits[0] = 1
    for q in range(m):
        v = items[q]
        sh = v // 64
        b = v % 64
        for i in range(nw - 1, sh - 1, -1):  # bits |= bits << v, high words first
            word = np.uint64(bits[i - sh]) << np.uint64(b)
            if b > 0 and i - sh > 0:
                word |= np.uint64(bits[i - sh - 1]) >> np.uint64(64 - b)
            bits[i] |= np.int64(word)
    return (np.uint64(bits[x // 64]) >> np.uint64(x % 64)) & np.uint64(1) == np.uint64(1)


@njit(cache=True)
def _bonus_target(ifix, hfix, etot, wine_for_bonus, rules):
    """(bonus, E points to Intellectual) if the split reaching I = H exists; x = -1 if the
    totals alone rule the bonus out. The subset-sum check is the caller's."""
    d = hfix - ifix + etot
    if d < 0 or d % 2 != 0:
        return 0, -1
    x = d // 2
    if x > etot:
        return 0, -1
    bonus = rules[RULE.BONUS_EQ]
    if ifix + x == wine_for_bonus:
        if rules[RULE.BONUS_STACKS]:
            bonus += rules[RULE.BONUS_ALL]
        elif rules[RULE.BONUS_ALL] > bonus:
            bonus = rules[RULE.BONUS_ALL]
    return bonus, x


@njit(**INNER)
def _x_lost(pv, np_, xs):
    """Points lost by leaving out the optional free cards in ``xs``."""
    lost = 0
    for r in range(np_):
        if (xs >> r) & 1:
            lost += pv[r]
    return lost


@njit(**INNER)
def _x_fields(w, np_, xs):
    """(count, I, I - H - E, E, E items counted by size) of the optional free cards in
    ``xs``."""
    di = 0
    dh = 0
    de = 0
    k = 0
    e12 = np.int64(0)
    for r in range(np_):
        if (xs >> r) & 1:
            di += w.pi[r]
            dh += w.ph[r]
            de += w.pe[r]
            e12 += _e_code(w.pe[r])
            k += 1
    return k, di, di - dh - de, de, e12


@njit(**INNER)
def _e_code(e):
    """An E item counted by size, to be summed: 1 for 1E, 1 << 16 for 2E, 1 << 32 for any other
    size (0 for none). When a play's E items are all 1E and 2E, a subset of them sums to x
    (0 <= x <= their total) exactly when there is a 1E or x is even (see _social_leaf)."""
    if e == 0:
        return np.int64(0)
    if e == 1:
        return np.int64(1)
    if e == 2:
        return np.int64(1) << LANE
    return np.int64(1) << 2 * LANE


@njit(**INNER)
def _x_insert(w, nx, xs, packed, e12):
    """Append exclusion set ``nx`` (bitmask ``xs``, fields ``packed``, E items counted by size
    ``e12``) to the list and insert it into the order w.xo, kept sorted by points lost (the
    order among equal losses does not matter: ties between the plays they make are broken
    explicitly). An entry of w.xo is the set's points lost and its index packed (``lost <<
    X_SHIFT | index``), so the insertion compares and moves one word."""
    key = ((packed & LMASK) << X_SHIFT) | nx
    j = nx
    while j > 0 and w.xo[U(j - 1)] > key:
        w.xo[U(j)] = w.xo[U(j - 1)]
        j -= 1
    w.xo[U(j)] = key
    w.xw[U(nx)] = packed
    w.xx[U(nx)] = xs
    w.xe[U(nx)] = e12


@njit(**INNER)
def _x_card(w, r):
    """Optional free card r's fields, packed as an exclusion set's (see XCAP)."""
    return (w.pv[U(r)] | (np.int64(1) << LANE) | (w.pi[U(r)] << 2 * LANE)
            | (w.pe[U(r)] << 3 * LANE))


@njit(cache=True, inline='always')
def _x_build(w, np_, maxlost, psum):
    """List every exclusion set of the optional free cards losing at most ``maxlost`` points
    (w.xw, w.xx, w.xe), ordered by points lost (w.xo). Returns the count, or X_TOO_MANY beyond XCAP
    sets.

    Up to X_SMALL cards, every subset's fields are one addition each (the subsets holding
    card r are those without it, plus r: set xs is row xs), and a counting sort by points
    lost orders those within ``maxlost``. Beyond, a depth-first walk adds cards in index
    order and never extends a set past ``maxlost``."""
    if np_ <= X_SMALL:
        w.xw[0] = 0
        w.xe[0] = 0
        size = 1
        for r in range(np_):
            c = _x_card(w, r)
            ce = _e_code(w.pe[U(r)])
            for xs in range(size):
                w.xw[U(size + xs)] = w.xw[U(xs)] + c
                w.xe[U(size + xs)] = w.xe[U(xs)] + ce
            size += size
        top = min(maxlost, psum)
        nx = np.int64(0)
        if top < XCAP:
            for lost in range(top + 2):
                w.xcnt[U(lost)] = 0
            for xs in range(size):
                lost = w.xw[U(xs)] & LMASK
                if lost <= top:
                    w.xcnt[U(lost + 1)] += 1
            for lost in range(top + 1):
                w.xcnt[U(lost + 1)] += w.xcnt[U(lost)]
            for xs in range(size):
                lost = w.xw[U(xs)] & LMASK
                if lost <= top:
                    at = w.xcnt[U(lost)]
                    w.xo[U(at)] = (lost << X_SHIFT) | xs
                    w.xcnt[U(lost)] = at + 1
            return w.xcnt[U(top)]
        for xs in range(size):  # a bonus worth XCAP points or more: sorted by insertion
            lost = w.xw[U(xs)] & LMASK
            if lost <= top:
                key = (lost << X_SHIFT) | xs
                j = nx
                while j > 0 and w.xo[U(j - 1)] > key:
                    w.xo[U(j)] = w.xo[U(j - 1)]
                    j -= 1
                w.xo[U(j)] = key
                nx += 1
        return nx
    z = np.int64(0)
    _x_insert(w, z, z, z, z)
    nx = np.int64(1)
    sp = 0
    xs = np.int64(0)
    packed = np.int64(0)
    e12 = np.int64(0)
    r = 0
    while True:
        if r < np_:
            if (packed & LMASK) + w.pv[U(r)] <= maxlost:
                if nx >= XCAP:
                    return np.int64(X_TOO_MANY)
                w.xst[U(sp)] = r
                sp += 1
                xs |= np.int64(1) << r
                packed += _x_card(w, r)
                e12 += _e_code(w.pe[U(r)])
                _x_insert(w, nx, xs, packed, e12)
                nx += 1
            r += 1
            continue
        if sp == 0:
            return nx
        sp -= 1
        r = w.xst[U(sp)]
        xs &= ~(np.int64(1) << r)
        packed -= _x_card(w, r)
        e12 -= _e_code(w.pe[U(r)])
        r += 1


@njit(cache=True)
def best_symposion_nb(hand, n, kinds, rules, required_mask, type_mask, res):
    """Best legal Symposion in ``hand[:n]`` (kind codes, any order).

    ``required_mask``: bit p set = hand position p must be played. ``type_mask``: bit t set =
    type t may be declared. Writes the answer into ``res`` (see enums.RES): score 0, type -1
    and mask 0 when nothing is legal; per-card choice codes in hand order.
    """
    ws = np.empty(workspace_size(n), np.int64)
    best_symposion_ws(hand, n, kinds, rules, np.int64(required_mask), np.int64(type_mask), res,
                      ws)


@njit(cache=True, _nrt=False, inline='always')
def best_symposion_ws(hand, n, kinds, rules, required_mask, type_mask, res, ws):
    """:func:`best_symposion_nb` with a caller-supplied int64 workspace of at least
    ``workspace_size(n)`` entries (its contents are overwritten)."""
    _best_core(hand, n, kinds, rules, np.int64(required_mask), np.int64(type_mask), res, ws,
               np.int64(-1), np.int64(MODE_FULL))


@njit(cache=True, _nrt=False, inline='always')
def best_play_ws(hand, n, kinds, rules, required_mask, type_mask, res, ws):
    """:func:`best_symposion_ws`, writing only the play: ``res[RES.SCORE]``, ``RES.TYPE``,
    ``RES.MASK`` and ``RES.NCARDS`` (the same values; the rest of ``res`` is left as it
    was). What the engine reads, without rebuilding each card's option and E split."""
    _best_core(hand, n, kinds, rules, np.int64(required_mask), np.int64(type_mask), res, ws,
               np.int64(-1), np.int64(MODE_PLAY))


@njit(cache=True, _nrt=False, inline='always')
def best_symposion_hint_ws(hand, n, kinds, rules, required_mask, type_mask, floor, res, ws):
    """:func:`best_symposion_ws` (the same complete result) given a hint: a score ``floor``
    some legal play is believed to beat. The search then prunes everything scoring at most
    ``floor`` from the start; the best play and its canonical tie-break are unaffected (every
    play of the top score is still visited, in the same order). A wrong hint costs time
    only: when nothing beats it, the full search is run."""
    _hint_core(hand, n, kinds, rules, required_mask, type_mask, floor, res, ws,
               np.int64(MODE_FULL))


@njit(cache=True, _nrt=False, inline='always')
def best_play_hint_ws(hand, n, kinds, rules, required_mask, type_mask, floor, res, ws):
    """:func:`best_symposion_hint_ws` writing only the play, as :func:`best_play_ws`."""
    _hint_core(hand, n, kinds, rules, required_mask, type_mask, floor, res, ws,
               np.int64(MODE_PLAY))


@njit(cache=True, _nrt=False, inline='always')
def _hint_core(hand, n, kinds, rules, required_mask, type_mask, floor, res, ws, mode):
    req = np.int64(required_mask)
    types = np.int64(type_mask)
    if floor >= 0:
        if _best_core(hand, n, kinds, rules, req, types, res, ws, np.int64(floor), mode) >= 0:
            return
    _best_core(hand, n, kinds, rules, req, types, res, ws, np.int64(-1), mode)


@njit(cache=True, _nrt=False, inline='always')
def best_score_above_ws(hand, n, kinds, rules, required_mask, type_mask, floor, res, ws):
    """The highest score of a legal play scoring strictly more than ``floor`` (>= 0), or -1
    when there is none. Exact: a play scoring above ``floor`` is never pruned, so when the
    answer is not -1 it equals the score :func:`best_symposion_ws` would find. Only
    ``res[RES.SCORE]`` and ``res[RES.TYPE]`` are written."""
    return _best_core(hand, n, kinds, rules, np.int64(required_mask), np.int64(type_mask), res,
                      ws, np.int64(floor), np.int64(MODE_SCORE))



@njit(cache=True, inline='always')
def _xc_opt(kinds, k, c):
    """The option index of state c of enumerated kind k (its states: options, then left
    out: -1)."""
    if c < kinds[U(k), CF.SCF_NS]:
        return kinds[U(k), CF.SCF_OPT + c] & 0xFF
    return np.int64(-1)


@njit(cache=True, _nrt=False, inline='always')
def _cf_hand(w, hs, n, kinds, req):
    """_social_cf's look at the hand: the free cards' sums and masks, each optional free
    class's highest positions (w.xtop), the enumerated cards (w.xst, downwards). Returns
    (covered, fsum, ftot, nfree, fixmask, fmask, cp, m); covered False (the rest
    meaningless) when the closed form does not cover the hand."""
    fsum = np.int64(0)  # every free card's I, H and E items (packed as a state word)
    ftot = 0  # ... their points
    nfree = 0
    fixmask = np.int64(0)  # required free cards (always played)
    fmask = np.int64(0)  # optional free cards
    cp = np.int64(0)  # optional free cards per class (8-bit lanes, as enums.CF.XR's counts)
    m = 0  # enumerated cards (their positions in w.xst, downwards)
    last = np.int64(-1)
    for q in range(n - 1, -1, -1):  # downwards: a class's highest positions first (w.xtop)
        k = hs[U(q)]
        if k == last:
            return False, fsum, ftot, nfree, fixmask, fmask, cp, m  # copies of a kind
        last = k
        sh = kinds[U(k), CF.SCF]
        if sh == SCF_NONE:
            continue
        bit = np.int64(1) << q
        if sh == SCF_FREE:
            f = kinds[U(k), CF.SCF_FREE]
            fsum += ((f >> 8) & 0xFFFFFFFF) << 32
            ftot += f >> 40
            nfree += 1
            if (req >> q) & 1:
                fixmask |= bit
                continue
            c = f & 0xFF
            t = ((cp >> (8 * c)) & 0xFF) + 1  # its class's cards so far, this one included
            if t >= XC_COUNT:
                return False, fsum, ftot, nfree, fixmask, fmask, cp, m
            w.xtop[U(c), U(t)] = (w.xtop[U(c), U(t - 1)] if t > 1 else 0) | bit
            cp += np.int64(1) << (8 * c)
            fmask |= bit
        elif sh == SCF_ENUM:
            w.xst[U(m)] = q
            m += 1
        else:
            return False, fsum, ftot, nfree, fixmask, fmask, cp, m
    return True, fsum, ftot, nfree, fixmask, fmask, cp, m


@njit(cache=True, _nrt=False, inline='always')
def _cf_suffixes(w, hs, kinds, m):
    """_social_cf's enumerated cards upwards (the walk's depths, w.epos), and their suffix
    sums of best value (w.rv), largest printed wine (w.rc) and non-Container wine (w.rn)."""
    w.rv[U(m)] = 0
    w.rc[U(m)] = 0
    w.rn[U(m)] = 0
    for j in range(m - 1, -1, -1):
        q = w.xst[U(m - 1 - j)]  # (w.xst listed them downwards)
        w.epos[U(j)] = q
        k = hs[U(q)]
        mp = kinds[U(k), CF.SCF_MAXP]
        w.rv[U(j)] = w.rv[U(j + 1)] + kinds[U(k), CF.SCF_VAL]
        w.rc[U(j)] = w.rc[U(j + 1)] + mp
        w.rn[U(j)] = w.rn[U(j + 1)] + (0 if kinds[U(k), CF.CONTAINER] else mp)


@njit(cache=True, _nrt=False, inline='always')
def _cf_leaf(w, hs, n, kinds, rf, m, lo_w, fsum, ftot, nfree, fixmask, fmask, cp, best):
    """_social_cf at a leaf of its walk (every enumerated card's state chosen, sums in
    w.acc[m]): the best play over the exclusion vectors the leaf may use, or ``best``."""
    acc = w.acc
    ch = w.ch
    bch = w.bch
    maxbonus = rf.maxbonus
    beq = rf.beq
    starts = kinds[0, CF.XR_STARTS]
    ps = acc[U(m), 0]
    pw = ps & 0xFF
    if pw < lo_w or (ps >> 16) & 0xFF < rf.need_ncw or (ps >> 24) & 0xFF > rf.max_vint:
        return best
    ws_ = (ps >> 8) & 0xFF
    wb = ws_ if rf.bonus_wine_scored else pw
    tot = ps + fsum
    s0 = acc[U(m), 3] + ftot
    l5 = s0 - ws_ - 2 * wb  # points the all-equal bonus leaves out
    if l5 < 0 or l5 > maxbonus or s0 - l5 + maxbonus < best.score:
        l5 = -1
    if s0 + beq < best.score and l5 < 0:
        return best
    nin = acc[U(m), 1] + nfree
    L = 0
    lend = beq
    while True:
        if L > lend:
            if lend == beq and l5 > beq:
                L = l5
                lend = l5
            else:
                break
        if L != l5 and s0 - L + beq < best.score:
            # (no play losing L points reaches the all-equal bonus)
            if l5 > L:
                L += 1
                continue
            break
        for v in range((starts >> 9 * L) & 511, (starts >> 9 * (L + 1)) & 511):
            row = v // XR_PER_ROW
            col = CF.XR + 2 * (v % XR_PER_ROW)
            w0 = kinds[U(row), U(col)]
            if ((cp | XC_GUARD) - w0) & XC_GUARD != XC_GUARD:
                continue  # more cards of some class than the hand has
            w1 = kinds[U(row), U(col + 1)]
            t = tot - (w1 & ~np.int64(0xFFFFFFFF))
            ir = (t >> 32) & 0xFF
            hr = (t >> 40) & 0xFF
            b1 = (t >> 48) & 0xFF
            b2 = (t >> 56) & 0xFF
            e = ir + hr + b1 + 2 * b2
            b = 0
            if e & 1 == 0:
                x = e // 2 - ir
                if 0 <= x <= b1 + 2 * b2 and x - 2 * min(b2, x // 2) <= b1:
                    b = maxbonus if e == 2 * wb else beq
            if b == 0 and L > 0:
                continue  # cards left out for no bonus
            score = s0 - L + b
            if score < best.score:
                continue
            nn = nin - ((w0 >> 56) & 15)
            if nn == 0 or (score == best.score and nn > best.n):
                continue  # (no cards: no play, under a window from 0 Wine)
            xm = np.int64(0)  # the vector's cards: the highest of each class
            pairs = w1 & 0x3FFFFFFF
            while pairs:
                xm |= w.xtop[U(pairs & 7), U((pairs >> 3) & 7)]
                pairs >>= 6
            mask = acc[U(m), 2] | fixmask | (fmask & ~xm)
            cc = 1  # (a higher score or fewer cards: better, as _cmp_play says)
            if score == best.score and nn == best.n:
                cc = _cmp_play(hs, n, score, nn, mask, np.int64(2), best)
            if cc == 0:
                # An exact tie within the group: the walk's canonical order (as
                # _walk_order, over these states: left out first, then by option).
                cc = -1
                for j in range(m):
                    if ch[U(j)] != bch[U(j)]:
                        k = hs[U(w.epos[U(j)])]
                        if _xc_opt(kinds, k, ch[U(j)]) < _xc_opt(kinds, k, bch[U(j)]):
                            cc = 1
                        break
            if cc < 0:
                continue
            best = Best(score, nn, mask, np.int64(2))
            for j in range(m):
                bch[U(j)] = ch[U(j)]
        L += 1
    return best


@njit(**INNER)
def _social_cf(ws, n, kinds, rules, rf, req, best, mode):
    """The Social group in closed form, for hands whose every Social card has a shape it
    covers (enums.CF.SCF): the same play as _card_states and _walk would find. Returns the
    best play and True, or ``best`` unchanged and False when the hand is not covered (copies
    of a kind, a shape outside enums.CF.SCF, more than XC_COUNT - 1 cards of a free class):
    then the general walk searches the group.

    Free cards (one option of points in one category) fall in classes by category and points;
    cards of a class are interchangeable, so the optional ones a play leaves out (to reach a
    bonus) are a vector of counts per class, and of a class the highest kinds go (the play
    keeping the lowest is the first in the canonical order). The deck's table lists every
    vector losing at most SCF_MAX_FREE points, by points lost (enums.CF.XR); a hand
    uses those its cards allow. The enumerated cards are walked
    as in _walk (options by value, then left out; pruned on the wine window, non-Container
    wine, Vintage and the score bound; alike cards in canonical order). At a leaf only two
    kinds of vector can make the best play: those losing at most the I = H bonus, and those
    losing exactly what leaves I + H = 2 x bonus wine (the all-equal bonus): every other loses
    more than its bonus. Plays are compared as _cmp_play and _walk_order do."""
    w, _ = _views(ws)
    hs = w.hs
    covered, fsum, ftot, nfree, fixmask, fmask, cp, m = _cf_hand(w, hs, n, kinds, req)
    if not covered:
        return best, False
    lo_w = rules[RULE.WINE_LO + T_SOCIAL]
    hi_w = rules[RULE.WINE_HI + T_SOCIAL]
    maxbonus = rf.maxbonus
    _cf_suffixes(w, hs, kinds, m)
    if w.rc[0] < lo_w or w.rn[0] < rf.need_ncw or ftot + w.rv[0] + maxbonus < best.score:
        return best, True
    for j in range(m):  # each enumerated card's previous alike card (w.sp)
        q = w.epos[U(j)]
        cl = kinds[U(hs[U(q)]), CF.CLS] * 2 + ((req >> q) & 1)
        w.sp[U(j)] = -1
        for jj in range(j - 1, -1, -1):
            q2 = w.epos[U(jj)]
            if kinds[U(hs[U(q2)]), CF.CLS] * 2 + ((req >> q2) & 1) == cl:
                w.sp[U(j)] = jj
                break
    # The walk.
    acc = w.acc
    ch = w.ch
    bch = w.bch
    need_ncw = rf.need_ncw
    max_vint = rf.max_vint
    for f in range(4):
        acc[0, f] = 0
    d = 0
    ch[0] = -1
    while d >= 0:
        if d == m:
            d -= 1
            best = _cf_leaf(w, hs, n, kinds, rf, m, lo_w, fsum, ftot, nfree, fixmask, fmask,
                            cp, best)
            continue
        q = w.epos[U(d)]
        k = hs[U(q)]
        nsk = kinds[U(k), CF.SCF_NS]
        top = nsk - ((req >> q) & 1)  # the last state: left out, unless required
        c = ch[U(d)] + 1
        sp = w.sp[U(d)]
        word = np.int64(0)
        val = np.int64(0)
        prank = -1  # the previous alike card's state: its option, or 99 when left out
        if sp >= 0:
            prank = _xc_opt(kinds, k, ch[U(sp)])
            if prank < 0:
                prank = 99
        while c <= top:
            if c < nsk:
                word = kinds[U(k), CF.SCF_ST + c]
                ov = kinds[U(k), CF.SCF_OPT + c]
                rank = ov & 0xFF
                val = ov >> 8
            else:
                word = np.int64(0)
                rank = 99
                val = 0
            pw = (acc[U(d), 0] + word) & 0xFF
            if pw > hi_w or pw + w.rc[U(d + 1)] < lo_w or rank < prank \
                    or acc[U(d), 3] + val + w.rv[U(d + 1)] + ftot + maxbonus < best.score:
                c += 1
                continue
            break
        if c > top:
            d -= 1
            continue
        ch[U(d)] = c
        ps = acc[U(d), 0] + word
        if (ps >> 24) & 0xFF > max_vint or ((ps >> 16) & 0xFF) + w.rn[U(d + 1)] < need_ncw:
            continue
        acc[U(d + 1), 0] = ps
        acc[U(d + 1), 1] = acc[U(d), 1] + (1 if c < nsk else 0)
        acc[U(d + 1), 2] = acc[U(d), 2] | (np.int64(1) << q if c < nsk else 0)
        acc[U(d + 1), 3] = acc[U(d), 3] + val
        d += 1
        ch[U(d)] = -1
    if best.g == 2 and mode == MODE_FULL:  # (the Social group is searched once: its play)
        for q in range(n):
            if (best.mask >> q) & 1:
                w.bopt[U(q)] = 0
        for j in range(m):
            o = _xc_opt(kinds, hs[U(w.epos[U(j)])], bch[U(j)])
            if o >= 0:
                w.bopt[U(w.epos[U(j)])] = o
    return best, True


@njit(**INNER)
def _best_core(hand, n, kinds, rules, required_mask, type_mask, res, ws, floor, mode):
    """The search; ``floor`` -1 looks at every legal play, ``floor`` >= 0 only at plays scoring
    above it. ``mode`` (MODE_*): what it writes into res. Returns the best score found, or
    -1."""
    # A hand beyond MAX_HAND cards (reachable only with extreme rule options) is searched on
    # its first MAX_HAND positions: result masks are int64 bitmasks over positions.
    n = min(n, MAX_HAND)
    w, _ = _views(ws)
    req = _sort_hand(hand, n, w.hs, w.perm, required_mask)
    rf = _rule_facts(rules)
    gon, wmat = _group_bounds(ws, n, kinds, rules, rf, req, type_mask)
    if floor >= 0:
        # Only plays scoring above ``floor`` count: start as if one scoring floor + 1 with
        # more cards than any play had been found, so every bound at most ``floor`` prunes.
        best = Best(floor + 1, np.int64(1 << 30), np.int64(0), np.int64(NGROUPS))
    else:
        best = Best(np.int64(-1), np.int64(0), np.int64(0), np.int64(NGROUPS))
    # The Social group in closed form (_social_cf) under the rule options it covers.
    cf = not rf.wine_scored and not rf.either_split and rf.maxbonus <= XC_MAX_BONUS \
        and n <= XC_MAX_HAND and kinds.shape[0] > 0 and kinds[0, CF.XR_STARTS] >= 0
    # Search the groups in order of decreasing bound (stable); stop at the first whose bound
    # is below the best score found so far.
    while gon:
        g = _next_group(w.ub, gon)
        gon &= ~(np.int64(1) << g)
        if w.ub[g] < best.score:
            break
        if g == 2 and cf:
            best, done = _social_cf(ws, n, kinds, rules, rf, req, best, mode)
            if done:
                continue
        grp = _card_states(ws, n, kinds, rules, rf, req, wmat, g)
        extra = grp.psum + rf.maxbonus if grp.social else 0
        if grp.f_val + w.rv[0] + extra < best.score:
            continue
        if w.rc[0] < grp.lo_w or w.rn[0] < rf.need_ncw:
            continue
        best = _walk(ws, n, kinds, rf, grp, best)
        if best.g == g and mode == MODE_FULL:
            _record(w, grp.m, n, best.mask)  # the next group reuses the walk's rows
    if mode != MODE_FULL:
        if best.g == NGROUPS:
            write_no_play(res, mode)
            return -1
        res[RES.TYPE] = G_TYPE[best.g]
        res[RES.SCORE] = best.score
        if mode == MODE_PLAY:
            res[RES.MASK] = _hand_mask(w.perm, n, best.mask)
            res[RES.NCARDS] = best.n
        return best.score
    _write_result(ws, n, kinds, rules, best, res)
    return best.score if best.g < NGROUPS else -1


@njit(**INNER)
def write_no_play(res, mode):
    """What a search in ``mode`` MODE_SCORE or MODE_PLAY writes into res when the hand has no
    legal play (above the floor)."""
    res[RES.TYPE] = -1
    res[RES.SCORE] = 0
    if mode == MODE_PLAY:
        res[RES.MASK] = 0
        res[RES.NCARDS] = 0


@njit(**INNER)
def _hand_mask(perm, n, mask):
    """A mask over sorted positions as a mask over hand positions."""
    out = np.int64(0)
    for q in range(n):
        if (mask >> q) & 1:
            out |= np.int64(1) << perm[U(q)]
    return out


@njit(**INNER)
def _sort_hand(hand, n, hs, perm, required_mask):
    """The hand sorted by kind into ``hs`` and each card's hand position into ``perm`` (copies
    of a kind in hand order); returns the required cards as a mask over sorted positions.
    Each card goes to its rank among the keys (kind, position), counted without a branch: an
    insertion sort's branches are mispredicted on every new hand (fresh hands measured ~5%
    faster a search this way). A hand already sorted (as a game keeps
    its seats' hands), or sorted but for its last card (a seat's hand with one card taken
    out and another put last, as the trade code asks about), is copied in one pass."""
    req = np.int64(0)
    if n == 0:
        return req
    p = 1
    while p < n and hand[U(p - 1)] <= hand[U(p)]:
        p += 1
    if p >= n - 1:
        # hand[:n - 1] is sorted: the last card goes to its rank r among them (after the
        # copies of its kind, which come before it in the hand), the others keep their order.
        r = n - 1 if p >= n else 0
        if p < n:
            v = hand[U(n - 1)]
            for q in range(n - 1):
                r += hand[U(q)] <= v
        for q in range(r):
            hs[U(q)] = hand[U(q)]
            perm[U(q)] = q
        for q in range(r, n - 1):
            hs[U(q + 1)] = hand[U(q)]
            perm[U(q + 1)] = q
        hs[U(r)] = hand[U(n - 1)]
        perm[U(r)] = n - 1
        low = (np.int64(1) << r) - 1  # n <= MAX_HAND < 63
        rest = ((np.int64(1) << (n - 1)) - 1) & ~low
        return (required_mask & low) | ((required_mask & rest) << 1) \
            | (((required_mask >> (n - 1)) & 1) << r)
    for p in range(n):
        v = (hand[p] << 8) | p
        r = 0
        for p2 in range(n):
            r += ((hand[p2] << 8) | p2) < v
        hs[U(r)] = hand[p]
        perm[U(r)] = p
        req |= ((required_mask >> p) & 1) << r
    return req


@njit(**INNER)
def _rule_facts(rules):
    """The rule values the search reads, from the rule array (see ``Facts``)."""
    beq = rules[RULE.BONUS_EQ]
    ball = rules[RULE.BONUS_ALL]
    maxbonus = beq + ball if rules[RULE.BONUS_STACKS] != 0 else max(beq, ball)
    return Facts(rules[RULE.WINE_SCORED] != 0, rules[RULE.BONUS_WINE_SCORED] != 0,
                 np.int64(1 if rules[RULE.IO_BARS_MW] != 0 else 0), rules[RULE.NON_CONTAINER],
                 rules[RULE.MAX_VINTAGE], rules[RULE.EITHER_SPLIT] != 0, beq, maxbonus)


@njit(**INNER)
def _group_bounds(ws, n, kinds, rules, rf, req, type_mask):
    """One pass over the cards: each group's upper bound (every usable card at its best value,
    plus the largest Social bonus) into w.ub and largest counted wine into w.wx. Returns the
    groups still possible (a bitmask over NGROUPS) and those in which women matter."""
    w, _ = _views(ws)
    wsv = 1 if rf.wine_scored else 0
    has_io = 0
    reqal = 15  # groups every required card may join
    wmat = 0
    pub = 0  # the bounds, a 16-bit lane per group (enums.CF.PUB, CF.PWX)
    pwx = 0
    for q in range(n):
        k = w.hs[U(q)]
        has_io |= kinds[U(k), CF.IO]
        wmat |= kinds[U(k), CF.WMAT + rf.iobm]
        pub += kinds[U(k), CF.PUB + rf.iobm]
        pwx += kinds[U(k), CF.PWX + 2 * rf.iobm + wsv]
        if (req >> q) & 1:
            reqal &= kinds[U(k), CF.AL + rf.iobm]
    for gg in range(NGROUPS):
        w.ub[gg] = (pub >> LANE * gg) & LMASK
        w.wx[gg] = (pwx >> LANE * gg) & LMASK
    w.ub[2] += rf.maxbonus
    gon = np.int64(0)
    if type_mask & 1:
        gon |= 1
        if has_io != 0:
            gon |= 2
    if (type_mask >> T_SOCIAL) & 1:
        gon |= 4
    if (type_mask >> T_HEDONISTIC) & 1:
        gon |= 8
    gon &= reqal
    for gg in range(NGROUPS):
        if w.wx[gg] < rules[RULE.WINE_LO + G_TYPE[gg]]:
            gon &= ~(np.int64(1) << gg)
    return gon, wmat


@njit(**INNER)
def _next_group(ub, gon):
    """The group of ``gon`` with the highest bound (the first of equals)."""
    g = -1
    best = -1
    for gg in range(NGROUPS):
        if (gon >> gg) & 1 and ub[gg] > best:
            best = ub[gg]
            g = gg
    return g


@njit(**INNER)
def _card_states(ws, n, kinds, rules, rf, req, wmat, g):
    """Each card's part in group g's search: a fixed free card (always played; its sums go to
    the walk's row 0), a Social optional free card (w.ppos ...) or an enumerated card (its
    states in w.st, by _option_states); the enumerated cards' suffix bounds (w.rv, w.rc,
    w.rn). Returns the group's record."""
    w, _ = _views(ws)
    t = G_TYPE[g]
    social = t == T_SOCIAL
    hi_w = rules[RULE.WINE_HI + t]
    women_matter = (wmat >> g) & 1 != 0
    maxbonus = rf.maxbonus
    m = 0
    np_ = 0
    free_mask = np.int64(0)
    pmask = np.int64(0)
    # The fixed free cards' sums, packed as the walk's row 0 holds them (ACC.P0..ACC.P2).
    f_p0 = 0
    f_p1 = 0
    f_p2 = 0
    # Fixed free cards' E points (Social): subset-sum bitset and total.
    flo = np.uint64(1)
    fhi = np.uint64(0)
    fetot = 0
    fe12 = 0
    psums = 0  # optional free cards: total value, I, H, E (a 16-bit lane each)
    pe12 = 0
    has_reqs = False
    seen = np.uint64(0)  # the enumerated cards' classes, hashed to 64 bits
    for q in range(n):
        k = w.hs[U(q)]
        if not (kinds[U(k), CF.AL + rf.iobm] >> g) & 1:
            continue
        bit = np.int64(1) << q
        required = (req & bit) != 0
        woman = 0
        if kinds[U(k), CF.WOMAN]:
            woman = 1
        elif kinds[U(k), CF.MW] and g != 1:
            woman = 1
        okm = kinds[U(k), CF.OKI] if t == T_INTELLECTUAL else (
            kinds[U(k), CF.OKH] if t == T_HEDONISTIC else (1 << kinds[U(k), CF.NOPT]) - 1)
        free = kinds[U(k), CF.FREE] != 0 and (okm & kinds[U(k), CF.WM]) == 0 \
            and not (woman and women_matter)
        if free and not social:
            # Include exactly when it scores (or is required); best option first.
            if t == T_INTELLECTUAL:
                bo = kinds[U(k), CF.BI]
                bv = kinds[U(k), CF.BVI]
            else:
                bo = kinds[U(k), CF.BH]
                bv = kinds[U(k), CF.BVH]
            if bv > 0 or required:
                f_p0 += bv << 3 * LANE
                f_p1 += 1 | (woman << 2 * LANE)
                f_p2 += bv if t == T_INTELLECTUAL else bv << LANE
                w.copt[U(q)] = bo
                free_mask |= bit
            continue
        if free and social and okm == 1:
            ci = kinds[U(k), CF.OPT + OPT.I]
            ch = kinds[U(k), CF.OPT + OPT.H]
            ce = kinds[U(k), CF.OPT + OPT.E]
            val = ci + ch + ce
            w.copt[U(q)] = 0
            if required or val > maxbonus:
                f_p0 += val << 3 * LANE
                f_p1 += 1 | (woman << 2 * LANE)
                f_p2 += ci | (ch << LANE) | (ce << 2 * LANE)
                free_mask |= bit
                if ce:
                    fetot += ce
                    fe12 += _e_code(ce)
                    if fetot < 128:
                        flo, fhi = _fold(flo, fhi, ce)
            else:
                w.ppos[U(np_)] = q
                w.pv[U(np_)] = val
                w.pi[U(np_)] = ci
                w.ph[U(np_)] = ch
                w.pe[U(np_)] = ce
                psums += val | (ci << LANE) | (ch << 2 * LANE) | (ce << 3 * LANE)
                pe12 += _e_code(ce)
                pmask |= bit
                np_ += 1
            continue
        if kinds[U(k), CF.REQ_WOMEN] > 0 or kinds[U(k), CF.REQ_WINE] > 0:
            has_reqs = True
        seen = _enumerated_card(w, m, q, kinds, k, g, t, woman, required, okm, hi_w, rf, seen)
        m += 1
    # Suffix bounds of the enumerated cards.
    w.rv[U(m)] = 0
    w.rc[U(m)] = 0
    w.rn[U(m)] = 0
    for j in range(m - 1, -1, -1):
        w.rv[U(j)] += w.rv[U(j + 1)]
        w.rc[U(j)] += w.rc[U(j + 1)]
        w.rn[U(j)] += w.rn[U(j + 1)]
    # The walk's row 0: the fixed free cards.
    w.acc[0, ACC.P0] = f_p0
    w.acc[0, ACC.P1] = f_p1
    w.acc[0, ACC.P2] = f_p2
    w.acc[0, ACC.REQW] = 0
    w.acc[0, ACC.REQWINE] = 0
    return Group(np.int64(g), np.int64(t), social, rules[RULE.WINE_LO + t], hi_w, np.int64(m),
                 np.int64(np_), free_mask, pmask, np.int64(f_p0 >> 3 * LANE), flo, fhi,
                 np.int64(fe12), np.int64(psums & LMASK), np.int64((psums >> LANE) & LMASK),
                 np.int64((psums >> 2 * LANE) & LMASK), np.int64(psums >> 3 * LANE),
                 np.int64(pe12), has_reqs)


@njit(cache=True, inline='always')
def _enumerated_card(w, m, q, kinds, k, g, t, woman, required, okm, hi_w, rf, seen):
    """Hand position q (kind k) as group g's enumerated card m (_card_states): its states
    (each option, then left out unless required), its sorted position, and the previous
    enumerated card of its behaviour class and requirement (_walk). ``seen``: the classes of
    the cards before it, hashed to 64 bits; returns it with this card's class added.

    Leaving the card out cannot make the best play when adding it to any legal play keeps
    the play legal and adds points: outside Social (whose bonus may want a card out), with
    the group's wine ceiling out of reach, for a card with no Vintage and no requirement of
    its own whose every usable option is worth something."""
    may_out = not required
    if may_out and t != T_SOCIAL and w.wx[g] <= hi_w and kinds[U(k), CF.VINTAGE] == 0 \
            and kinds[U(k), CF.REQ_WOMEN] == 0 and kinds[U(k), CF.REQ_WINE] == 0:
        may_out = False
        for o in range(kinds[U(k), CF.NOPT]):
            if (okm >> o) & 1 and _opt_value(kinds, k, o) <= 0:
                may_out = True
    _option_states(w, m, kinds, k, g, t, woman, may_out, rf)
    w.epos[U(m)] = q
    cl = kinds[U(k), CF.CLS] * 2 + (1 if required else 0)
    w.ecl[U(m)] = cl
    prev = np.int64(-1)
    bucket = np.uint64(1) << U(cl & 63)
    if seen & bucket:  # some earlier card's class falls in the same bucket
        for jj in range(m - 1, -1, -1):
            if w.ecl[U(jj)] == cl:
                prev = jj * 2 + (1 if w.hs[U(w.epos[U(jj)])] == k else 0)
                break
    w.sp[U(m)] = prev
    return seen | bucket


@njit(cache=True, inline='always')
def _option_states(w, j, kinds, k, g, t, woman, may_out, rf):
    """Enumerated card j (kind k) in group g's search (type t): its states in w.st[j] (the
    options the type may use, highest value first, as the card table lists them, then left
    out when ``may_out``), their count in w.ns and its best value, largest counted and
    non-Container wine in w.rv, w.rc, w.rn."""
    st = w.st
    block = CF.ST + t * ST_BLOCK
    nst = kinds[U(k), block]
    reqw = kinds[U(k), CF.REQ_WOMEN]
    reqwine = kinds[U(k), CF.REQ_WINE]
    wsv = 1 if rf.wine_scored else 0
    bwsv = 1 if rf.bonus_wine_scored else 0
    women = woman << 2 * LANE
    for c in range(nst):
        at = block + 1 + c * STF.SIZE
        s = st[U(j), U(c)]
        p2 = kinds[U(k), at + STF.P2]
        s[ST.P0] = kinds[U(k), at + STF.P0 + wsv]
        s[ST.P1] = kinds[U(k), at + STF.P1 + bwsv] | women
        s[ST.P2] = p2
        s[ST.REQW] = reqw
        s[ST.REQWINE] = reqwine
        s[ST.IN] = 1
        s[ST.E] = (p2 >> 2 * LANE) & LMASK
        s[ST.OPT] = kinds[U(k), at + STF.OPT]
    if may_out:  # left out: the last state (see _walk_order)
        for c in range(ST.SIZE):
            st[U(j), U(nst), c] = 0
        st[U(j), U(nst), ST.OPT] = MAX_OPTIONS
        nst += 1
    w.ns[U(j)] = nst
    w.rv[U(j)] = kinds[U(k), CF_GROUP_BV[g]]
    bc = kinds[U(k), CF_GROUP_BW[g] + wsv]
    w.rc[U(j)] = bc
    w.rn[U(j)] = 0 if kinds[U(k), CF.CONTAINER] else bc


@njit(**INNER)
def _walk(ws, n, kinds, rf, grp, best):
    """Depth-first walk over the enumerated cards' states (options first, highest value
    first, left out last; ties are broken in canonical order, see _walk_order), pruning on
    wine (too much, or too little left to reach the window), Vintage and the score bound;
    each leaf that meets the requirements goes to _leaf or _social_leaf. Returns the best
    play."""
    w, _ = _views(ws)
    m = grp.m
    lo_w = grp.lo_w
    hi_w = grp.hi_w
    need_ncw = rf.need_ncw
    max_vint = rf.max_vint
    has_reqs = grp.has_reqs
    extra = grp.psum + rf.maxbonus if grp.social else 0
    st = w.st
    acc = w.acc
    ch = w.ch
    nx = np.int64(X_UNLISTED)  # the Social exclusion sets, listed when a leaf first needs them
    d = 0
    ch[0] = -1
    while d >= 0:
        if d == m:
            # A leaf: check the requirements, then score the play.
            d -= 1
            p0 = acc[U(m), ACC.P0]
            p1 = acc[U(m), ACC.P1]
            cw = p0 & LMASK
            if cw < lo_w or cw > hi_w or (p0 >> LANE) & LMASK < need_ncw \
                    or (p0 >> 2 * LANE) & LMASK > max_vint:
                continue
            if has_reqs and ((p1 >> 2 * LANE) & LMASK < acc[U(m), ACC.REQW]
                             or cw < acc[U(m), ACC.REQWINE]):
                continue
            if grp.social:
                best, nx = _social_leaf(w, n, kinds, rf, grp, p0, p1, acc[U(m), ACC.P2], best, nx)
            else:
                best = _leaf(w, n, grp, p0, p1, best)
            continue
        # A step: the next state of the card at depth d. (Indices as U(...): unsigned, so
        # numba skips its negative-index wraparound in this, the hottest loop; no index here
        # is negative.)
        c = ch[U(d)] + 1
        ch[U(d)] = c
        if c >= w.ns[U(d)]:
            d -= 1
            continue
        sp = w.sp[U(d)]
        if sp >= 0:
            # One play of each set that only swaps states between cards of a behaviour class
            # (module docstring): its key must not be below the previous such card's.
            p = sp >> 1
            cp = ch[U(p)]
            ka = st[U(d), U(c), ST.OPT]  # left out: after every option
            kb = st[U(p), U(cp), ST.OPT]
            if sp & 1:  # a copy of the same kind: left out before every option
                if st[U(d), U(c), ST.IN] == 0:
                    ka = -1
                if st[U(p), U(cp), ST.IN] == 0:
                    kb = -1
            if ka < kb:
                continue
        p0 = acc[U(d), ACC.P0] + st[U(d), U(c), ST.P0]
        acc[U(d + 1), ACC.P0] = p0
        acc[U(d + 1), ACC.P1] = acc[U(d), ACC.P1] + st[U(d), U(c), ST.P1]
        acc[U(d + 1), ACC.P2] = acc[U(d), ACC.P2] + st[U(d), U(c), ST.P2]
        if has_reqs:
            acc[U(d + 1), ACC.REQW] = max(acc[U(d), ACC.REQW], st[U(d), U(c), ST.REQW])
            acc[U(d + 1), ACC.REQWINE] = max(acc[U(d), ACC.REQWINE], st[U(d), U(c), ST.REQWINE])
        cw = p0 & LMASK
        if cw > hi_w or (p0 >> 2 * LANE) & LMASK > max_vint:
            continue
        if cw + w.rc[U(d + 1)] < lo_w \
                or ((p0 >> LANE) & LMASK) + w.rn[U(d + 1)] < need_ncw:
            continue
        if (p0 >> 3 * LANE) + w.rv[U(d + 1)] + extra < best.score:
            continue
        d += 1
        ch[U(d)] = -1
    return best


@njit(**INNER)
def _played(w, m, mask):
    """``mask`` with the enumerated cards the walk's current states play."""
    for j in range(m):
        if w.st[U(j), U(w.ch[U(j)]), ST.IN]:
            mask |= np.int64(1) << w.epos[U(j)]
    return mask


@njit(**INNER)
def _keep_choices(w, m):
    """Keep the walk's current states as the best play's (w.bch)."""
    for j in range(m):
        w.bch[U(j)] = w.ch[U(j)]


@njit(**INNER)
def _leaf(w, n, grp, p0, p1, best):
    """An Intellectual or Hedonistic leaf (the walk's sums ``p0``, ``p1``): the play of the
    fixed free cards and the walk's states, if better than ``best``."""
    score = p0 >> 3 * LANE
    cnt = p1 & LMASK
    if score < best.score or cnt == 0:
        return best
    if score == best.score and cnt > best.n:
        return best
    mask = _played(w, grp.m, grp.free_mask)
    c = _cmp_play(w.hs, n, score, cnt, mask, grp.g, best)
    if c > 0 or (c == 0 and _walk_order(w, grp.m) < 0):
        _keep_choices(w, grp.m)
        return Best(score, cnt, mask, grp.g)
    return best


@njit(cache=True, inline='always')
def _e_split_reaches(w, kinds, grp, n, xcur, xe12, etot, x, l12, nli):
    """Whether a Social play of _social_leaf (the leaf's cards, exclusion set ``xcur`` of
    optional free cards) can give exactly x of its E points (``etot`` in all) to
    Intellectual when each E item goes whole to one side. ``l12`` (the leaf's enumerated E
    items counted by size, _e_code) and ``nli`` (those items listed in w.li) are -1 until
    first needed; returns (reach, l12, nli)."""
    if l12 < 0:
        l12 = 0
        for j in range(grp.m):
            l12 += _e_code(w.st[U(j), U(w.ch[U(j)]), ST.E])
    e12 = grp.fe12 + grp.pe12 + l12 - xe12
    if e12 >> 2 * LANE == 0:
        # Every E item is 1E or 2E: x (at most their total) is a subset's sum exactly when
        # there is a 1E or x is even.
        return (e12 & LMASK) > 0 or x % 2 == 0, l12, nli
    if etot >= 128:
        return _has_sum_slow_leaf(w, kinds, grp, xcur, n, x), l12, nli
    # Every E item of the play, folded into a subset-sum bitset: the fixed free cards', the
    # kept optional ones', the leaf's.
    xlo = grp.flo
    xhi = grp.fhi
    for j in range(grp.np_):
        e = w.pe[U(j)]
        if e and not (xcur >> j) & 1:
            xlo, xhi = _fold(xlo, xhi, e)
    if nli < 0:
        nli = 0
        for j in range(grp.m):
            e = w.st[U(j), U(w.ch[U(j)]), ST.E]
            if e:
                w.li[U(nli)] = e
                nli += 1
    for j in range(nli):
        xlo, xhi = _fold(xlo, xhi, w.li[U(j)])
    return _has_sum(xlo, xhi, x), l12, nli


@njit(cache=True, inline='always')
def _social_leaf(w, n, kinds, rf, grp, p0, p1, p2, best, nx):
    """A Social leaf (the walk's sums ``p0``..``p2``): the plays it makes with each exclusion
    set of optional free cards, fewest points lost first, each with the bonus it reaches.
    Returns the best play and the exclusion-set count ``nx`` (listed on first need)."""
    beq = rf.beq
    maxbonus = rf.maxbonus
    np_ = grp.np_
    vall = (p0 >> 3 * LANE) + grp.psum
    iall = (p2 & LMASK) + grp.pisum
    hall = ((p2 >> LANE) & LMASK) + grp.phsum
    eall = ((p2 >> 2 * LANE) & LMASK) + grp.pesum  # row 0 holds the fixed free E too
    wb = (p1 >> LANE) & LMASK
    # The all-equal bonus needs I = H = wb, so exactly this many points left out (free cards
    # carry no wine); any other exclusion can earn beq at most.
    l5 = iall + hall + eall - 2 * wb
    if l5 < 0 or l5 > maxbonus or vall - l5 + maxbonus < best.score:
        l5 = -1
    if vall + beq < best.score and l5 < 0:
        return best, nx
    if nx == X_UNLISTED:
        nx = _x_build(w, np_, maxbonus, grp.psum)
    dleaf = hall - iall + eall
    call = (p1 & LMASK) + np_
    nli = -1  # this leaf's enumerated E items, gathered when first needed
    l12 = np.int64(-1)  # ... counted by size (_e_code), when first needed
    emask = np.int64(-1)
    found = False  # the best play is one of this leaf's; then best_xs is its exclusion set
    best_xs = 0
    xi = 0
    xs = 0
    lim = np.int64(1) << np_
    while True:
        if nx >= 0:
            if xi >= nx:
                break
            key = w.xo[U(xi)]
            xi += 1
            r = key & X_IMASK
            lost = key >> X_SHIFT
            if vall - lost + beq < best.score:
                if l5 < lost:
                    break
                if lost != l5:
                    continue
            xcur = r if np_ <= X_SMALL else w.xx[U(r)]
            xe12 = w.xe[U(r)]
            xf = w.xw[U(r)]
            kx = (xf >> LANE) & LMASK
            di = (xf >> 2 * LANE) & LMASK
            dd = 2 * di - lost  # I - H - E, with H = lost - I - E
            de = xf >> 3 * LANE
        else:
            if xs >= lim:
                break
            lost = _x_lost(w.pv, np_, xs)
            if lost > maxbonus:
                xs += xs & -xs
                continue
            xcur = xs
            xs += 1
            if vall - lost + beq < best.score and lost != l5:
                continue
            kx, di, dd, de, xe12 = _x_fields(w, np_, xcur)
        base_score = vall - lost
        cnt = call - kx
        if cnt == 0:
            continue
        dtot = dleaf + dd  # H - I + Etot of this play
        etot = eall - de
        bonus = 0
        if dtot >= 0 and dtot % 2 == 0 and dtot // 2 <= etot:
            x = dtot // 2
            cand = beq
            if iall - di + x == wb:
                cand = maxbonus
            if base_score + cand < best.score:
                continue
            reach = True
            if not rf.either_split:
                reach, l12, nli = _e_split_reaches(w, kinds, grp, n, xcur, xe12, etot, x, l12,
                                                   nli)
            if reach:
                bonus = cand
        score = base_score + bonus
        if score < best.score:
            continue
        if score == best.score and cnt > best.n:
            continue
        if emask < 0:
            emask = _played(w, grp.m, grp.free_mask | grp.pmask)
        mask = emask
        for j in range(np_):
            if (xcur >> j) & 1:
                mask &= ~(np.int64(1) << w.ppos[U(j)])
        c = _cmp_play(w.hs, n, score, cnt, mask, grp.g, best)
        if c == 0:
            # An exact tie with a play of this group: the one the canonical walk meets first
            # (within this leaf, the exclusion set of the smaller bitmask).
            o = _walk_order(w, grp.m)
            c = -o if o != 0 else (1 if found and xcur < best_xs else -1)
        if c > 0:
            best = Best(score, cnt, mask, grp.g)
            found = True
            best_xs = xcur
            _keep_choices(w, grp.m)
    return best, nx


@njit(**INNER)
def _has_sum_slow_leaf(w, kinds, grp, xs, n, x):
    """Subset-sum check over every E item of a Social play, for totals of 128 and more."""
    ne = 0
    for j in range(grp.m):
        e = w.st[j, w.ch[j], ST.E]
        if e:
            w.ei[ne] = e
            ne += 1
    for r in range(grp.np_):
        if not (xs >> r) & 1 and w.pe[r]:
            w.ei[ne] = w.pe[r]
            ne += 1
    for q in range(n):
        if (grp.free_mask >> q) & 1:
            e = kinds[w.hs[q], CF.OPT + w.copt[q] * OPT.SIZE + OPT.E]
            if e:
                w.ei[ne] = e
                ne += 1
    return _has_sum_slow(w.ei, ne, x, w.sums)


@njit(**INNER)
def _record(w, m, n, mask):
    """The options of the play ``mask`` (its walk states in w.bch) into w.bopt."""
    for q in range(n):
        if (mask >> q) & 1:
            w.bopt[U(q)] = w.copt[U(q)]
    for j in range(m):
        s = w.st[U(j), U(w.bch[U(j)])]
        if s[ST.IN]:
            w.bopt[U(w.epos[U(j)])] = s[ST.OPT]


@njit(**INNER)
def _write_result(ws, n, kinds, rules, best, res):
    """The answer into ``res`` (see enums.RES): the best play's totals, its cards as a mask
    over hand positions and each card's choice code (option, E points to Intellectual,
    woman)."""
    w, _ = _views(ws)
    for i in range(RES.SIZE):
        res[U(i)] = 0
    res[RES.TYPE] = -1
    if best.g == NGROUPS:
        return
    t = G_TYPE[best.g]
    best_mask = best.mask
    wine = 0
    pwine = 0
    ifix = 0
    hfix = 0
    ne = 0
    etot = 0
    eitems = w.out_e
    epos = w.out_pos
    toi = w.out_toi
    has_req_women = False
    for q in range(n):
        toi[U(q)] = 0
        if not (best_mask >> q) & 1:
            continue
        k = w.hs[U(q)]
        if kinds[U(k), CF.REQ_WOMEN] > 0:
            has_req_women = True
        base = CF.OPT + w.bopt[U(q)] * OPT.SIZE
        wine += kinds[U(k), base + OPT.WINE_SCORED]
        pwine += kinds[U(k), base + OPT.WINE]
        ifix += kinds[U(k), base + OPT.I]
        hfix += kinds[U(k), base + OPT.H]
        e = kinds[U(k), base + OPT.E]
        if e:
            eitems[U(ne)] = e
            epos[U(ne)] = q
            ne += 1
            etot += e
    # Split the E points: all to the type's own category, or (Social) a split reaching the
    # bonus, rebuilt from the subset-sum prefixes; with no bonus reachable, all to Intellectual.
    bonus = 0
    if t == T_INTELLECTUAL:
        for r in range(ne):
            toi[U(epos[U(r)])] = eitems[U(r)]
    elif t == T_SOCIAL:
        wb = wine if rules[RULE.BONUS_WINE_SCORED] else pwine
        bonus, x = _bonus_target(ifix, hfix, etot, wb, rules)
        if x >= 0 and not rules[RULE.EITHER_SPLIT]:
            if etot < 128:
                # The prefixes' subset-sum bitsets, kept (w.sums: lo, hi of each prefix) for
                # the split below; the last is every item's.
                lo = np.uint64(1)
                hi = np.uint64(0)
                for r in range(ne):
                    w.sums[U(2 * r)] = np.int64(lo)
                    w.sums[U(2 * r + 1)] = np.int64(hi)
                    lo, hi = _fold(lo, hi, eitems[U(r)])
                if not _has_sum(lo, hi, x):
                    bonus = 0
                    x = -1
            elif not _has_sum_slow(eitems, ne, x, w.sums):
                bonus = 0
                x = -1
        if x < 0:
            for r in range(ne):
                toi[U(epos[U(r)])] = eitems[U(r)]
        elif rules[RULE.EITHER_SPLIT]:
            for r in range(ne):  # greedy fill: any x in 0..etot is reachable by splitting
                give = min(x, eitems[U(r)])
                toi[U(epos[U(r)])] = give
                x -= give
        else:
            for r in range(ne - 1, -1, -1):  # last item first, against the prefix sums
                e = eitems[U(r)]
                if x < e:
                    continue
                if etot < 128:
                    ok = _has_sum(np.uint64(w.sums[U(2 * r)]), np.uint64(w.sums[U(2 * r + 1)]),
                                  x - e)
                else:
                    ok = _has_sum_slow(eitems, r, x - e, w.sums)
                if ok:
                    toi[U(epos[U(r)])] = e
                    x -= e
    ii = ifix
    hh = hfix
    for r in range(ne):
        ii += toi[U(epos[U(r)])]
        hh += eitems[U(r)] - toi[U(epos[U(r)])]
    res[RES.SCORE] = best.score
    res[RES.TYPE] = t
    res[RES.WINE] = wine
    res[RES.I] = ii
    res[RES.H] = hh
    res[RES.BONUS] = bonus
    res[RES.NCARDS] = best.n
    mask = np.int64(0)
    no_mw = best.g == 1 or not has_req_women
    for q in range(n):
        if (best_mask >> q) & 1:
            p = w.perm[U(q)]
            mask |= np.int64(1) << p
            k = w.hs[U(q)]
            woman = kinds[U(k), CF.WOMAN] or (kinds[U(k), CF.MW] and not no_mw)
            res[U(RES.PER_CARD + p)] = w.bopt[U(q)] + CH_E_SHIFT * toi[U(q)] + (
                CH_WOMAN if woman else 0)
    res[RES.MASK] = mask


assert MAX_HAND <= 62
