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
  best found, so tie-breaks are unaffected); the walk order is the canonical one.
* E points never change the score, only whether I = H (and = Wine) is reachable; a subset-sum
  bitset answers that, and the split is rebuilt once for the winner.
* All scratch memory is one int64 workspace (``best_symposion_ws`` takes it preallocated).
  The walk sums its columns packed in 16-bit lanes (S_P0..S_P2), and the workspace is
  indexed with unsigned integers (``U``) so numba emits no negative-index wraparound.
* What depends only on a card kind (usable options, best values, largest wine, the groups it
  may join) is read from the card table's derived columns (enums.CF_OKI ..., filled by
  simsym.cards.encode), not recomputed per call.

Ties are broken canonically: highest score, fewest cards, lexicographically smallest sorted
list of card kinds, then type order intellectual, social, hedonistic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simsym.core.enums import (
    CF_AL, CF_BH, CF_BI, CF_BVH, CF_BVI, CF_BVS, CF_BWH, CF_BWI, CF_BWS, CF_FREE, CF_IO,
    CF_MW, CF_NOPT, CF_OKH, CF_OKI, CF_OPT, CF_REQ_WINE, CF_REQ_WOMEN, CF_VINTAGE, CF_WM,
    CF_WMAT, CF_WOMAN, CF_CONTAINER, CH_E_SHIFT, CH_WOMAN, MAX_HAND, MAX_OPTIONS, OPT_E,
    OPT_H, OPT_I, OPT_SIZE, OPT_WINE, OPT_WINE_SCORED, RES_BONUS, RES_H, RES_I, RES_MASK,
    RES_NCARDS, RES_PER_CARD, RES_SCORE, RES_SIZE, RES_TYPE, RES_WINE, T_HEDONISTIC,
    T_INTELLECTUAL, T_SOCIAL,
)
from simsym.core.enums import (  # the rule array, under the names this module reads
    RULE_BONUS_ALL as R_BONUS_ALL,
    RULE_BONUS_EQ as R_BONUS_EQ,
    RULE_BONUS_STACKS as R_BONUS_STACKS,
    RULE_BONUS_WINE_SCORED as R_BONUS_WINE_SCORED,
    RULE_EITHER_SPLIT as R_EITHER_SPLIT,
    RULE_IO_BARS_MW as R_IO_BARS_MW,
    RULE_MAX_VINTAGE as R_MAX_VINTAGE,
    RULE_NON_CONTAINER as R_NON_CONTAINER,
    RULE_WINE_HI as R_WINE_HI,
    RULE_WINE_LO as R_WINE_LO,
    RULE_WINE_SCORED as R_WINE_SCORED,
)

# Columns of a per-card "state" row: one way a card takes part (or not) in a search.
# S_P0..S_P2 pack the summed columns into 16-bit lanes, so a step of the walk adds three
# words instead of ten (every sum stays below 2**15: MAX_HAND cards of bounded points, see
# simsym.cards.encode); S_REQW and S_REQWINE are maxed.
S_IN = 0  # 1 if the card is played
S_CW = 1  # wine counted for requirements
S_WB = 2  # wine the all-equal Social bonus compares with (scored or printed)
S_I = 3  # fixed Intellectual points (in I searches: all points but wine)
S_H = 4  # fixed Hedonistic points
S_E = 5  # Either points (Social searches only; in I/H searches they are folded in)
S_NCW = 6  # counted wine from a non-Container card
S_VINT = 7
S_WOMEN = 8
S_VAL = 9  # points the card adds before any bonus
S_REQW = 10
S_REQWINE = 11
S_OPT = 12  # option index
S_P0 = 13  # CW | NCW << 16 | VINT << 32 | VAL << 48: what every step of the walk checks
S_P1 = 14  # IN | WB << 16 | WOMEN << 32: read at the leaves
S_P2 = 15  # I | H << 16 | E << 32
S_COLS = 16
LANE = 16
LMASK = 0xFFFF
# Rows of the walk's accumulator (one per depth).
A_P0 = 0
A_P1 = 1
A_P2 = 2
A_REQW = 3
A_REQWINE = 4
A_COLS = 5
MAXS = MAX_OPTIONS + 1

# Social exclusion-set list (sorted by points lost, then bitmask): fields per entry.
X_XS = 0  # bitmask over the optional free cards left out
X_LOST = 1  # points lost
X_K = 2  # how many cards are left out
X_I = 3  # their I points
X_D = 4  # (their I) - (their H) - (their E): shifts H - I + Etot
X_E = 5  # their E points
X_F = 6
XCAP = 128

U = np.uint64  # an index type numba does not wrap around (see the walk in _best_core)
NGROUPS = 4  # (type, mode): (I, 0), (I, 1), (S, 0), (H, 0)
G_TYPE = (T_INTELLECTUAL, T_INTELLECTUAL, T_SOCIAL, T_HEDONISTIC)
G_BV = (CF_BVI, CF_BVI, CF_BVS, CF_BVH)  # per group: the kind's best value, largest wine
G_BW = (CF_BWI, CF_BWI, CF_BWS, CF_BWH)


@njit(cache=True)
def workspace_size(n):
    """Length of the int64 workspace ``best_symposion_ws`` needs for a hand of n cards."""
    return (27 * n + 5 * (n + 1) + 2 * NGROUPS + n * MAXS * S_COLS + (n + 1) * S_COLS
            + XCAP * (X_F + 1) + 64)


@njit(cache=True)
def _opt_value(kinds, k, o):
    """Points option o of kind k adds before any bonus (scored Wine, I, H and E)."""
    base = CF_OPT + o * OPT_SIZE
    return (kinds[k, base + OPT_WINE_SCORED] + kinds[k, base + OPT_I] + kinds[k, base + OPT_H]
            + kinds[k, base + OPT_E])


@njit(cache=True)
def _kinds_cmp(ws, o_hs, a, b, n):
    """-1, 0 or 1 as the sorted kind list of mask ``a`` is below, equal to or above ``b``'s.

    The sorted hand is at ws[o_hs:], so walking positions upwards yields each mask's sorted
    kind list."""
    i = 0
    j = 0
    while True:
        while i < n and not (a >> i) & 1:
            i += 1
        while j < n and not (b >> j) & 1:
            j += 1
        if i >= n or j >= n:
            if i >= n and j >= n:
                return 0
            return -1 if i >= n else 1  # a proper prefix is smaller
        hi_ = ws[U(o_hs + i)]
        hj = ws[U(o_hs + j)]
        if hi_ != hj:
            return -1 if hi_ < hj else 1
        i += 1
        j += 1


@njit(cache=True)
def _better(ws, o_hs, n, score, cnt, mask, g, tie_wins, best_score, best_n, best_mask, best_g):
    """Canonical order. Exact ties go to the earlier (type, mode) group; within a group the
    caller says (``tie_wins``) whether the new play comes first in the canonical walk."""
    if score != best_score:
        return score > best_score
    if cnt != best_n:
        return cnt < best_n
    c = _kinds_cmp(ws, o_hs, mask, best_mask, n)
    if c != 0:
        return c < 0
    return g < best_g or (g == best_g and tie_wins)


@njit(cache=True)
def _subset_sums(items, m):
    """Bitset (two uint64 words, sums 0..127) of the sums reachable by subsets of items."""
    lo = np.uint64(1)
    hi = np.uint64(0)
    for q in range(m):
        lo, hi = _fold(lo, hi, items[q])
    return lo, hi


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
def _has_sum_slow(items, m, x):
    """Subset-sum reachability for totals too large for the two-word bitset."""
    reach = np.zeros(x + 1, np.bool_)
    reach[0] = True
    for q in range(m):
        v = items[q]
        for s in range(x, v - 1, -1):
            if reach[s - v]:
                reach[s] = True
    return reach[x]


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
    bonus = rules[R_BONUS_EQ]
    if ifix + x == wine_for_bonus:
        if rules[R_BONUS_STACKS]:
            bonus += rules[R_BONUS_ALL]
        elif rules[R_BONUS_ALL] > bonus:
            bonus = rules[R_BONUS_ALL]
    return bonus, x


@njit(cache=True)
def _social_bonus(ifix, hfix, etot, eitems, m, wine_for_bonus, rules):
    """(bonus, E points to Intellectual that reach it) for a Social play; x = -1 if no bonus."""
    bonus, x = _bonus_target(ifix, hfix, etot, wine_for_bonus, rules)
    if x < 0:
        return 0, -1
    if not rules[R_EITHER_SPLIT]:
        if etot < 128:
            lo, hi = _subset_sums(eitems, m)
            if not _has_sum(lo, hi, x):
                return 0, -1
        elif not _has_sum_slow(eitems, m, x):
            return 0, -1
    return bonus, x


@njit(cache=True)
def _x_lost(ws, o_pv, np_, xs):
    lost = 0
    for r in range(np_):
        if (xs >> r) & 1:
            lost += ws[o_pv + r]
    return lost


@njit(cache=True)
def _x_fields(ws, o_pi, o_ph, o_pe, np_, xs):
    """(count, I, I - H - E, E) of the optional free cards in ``xs``."""
    di = 0
    dh = 0
    de = 0
    k = 0
    for r in range(np_):
        if (xs >> r) & 1:
            di += ws[o_pi + r]
            dh += ws[o_ph + r]
            de += ws[o_pe + r]
            k += 1
    return k, di, di - dh - de, de


@njit(cache=True)
def _x_insert(ws, o_x, o_xo, nx, xs, lost, k, di, dh, de):
    """Append one exclusion set to the list at ws[o_x:] and insert its index into the order
    at ws[o_xo:], kept sorted by points lost (the order among equal losses does not matter:
    ties between the plays they make are broken explicitly)."""
    j = nx
    while j > 0 and ws[U(o_x + ws[U(o_xo + j - 1)] * X_F + X_LOST)] > lost:
        ws[U(o_xo + j)] = ws[U(o_xo + j - 1)]
        j -= 1
    ws[U(o_xo + j)] = nx
    r = o_x + nx * X_F
    ws[U(r + X_XS)] = xs
    ws[U(r + X_LOST)] = lost
    ws[U(r + X_K)] = k
    ws[U(r + X_I)] = di
    ws[U(r + X_D)] = di - dh - de
    ws[U(r + X_E)] = de


@njit(cache=True)
def _x_build(ws, o_x, o_xo, o_xst, o_pv, o_pi, o_ph, o_pe, np_, maxlost):
    """List every exclusion set of the optional free cards losing at most ``maxlost`` points,
    ordered by points lost, by a depth-first walk that adds cards in index order and never
    extends a set past ``maxlost``. Returns the count, or -1 beyond XCAP sets."""
    z = np.int64(0)
    _x_insert(ws, o_x, o_xo, z, z, z, z, z, z, z)
    nx = np.int64(1)
    sp = 0
    xs = np.int64(0)
    lost = 0
    k = 0
    di = 0
    dh = 0
    de = 0
    r = 0
    while True:
        if r < np_:
            if lost + ws[U(o_pv + r)] <= maxlost:
                if nx >= XCAP:
                    return -1
                ws[U(o_xst + sp)] = r
                sp += 1
                xs |= np.int64(1) << r
                lost += ws[U(o_pv + r)]
                k += 1
                di += ws[U(o_pi + r)]
                dh += ws[U(o_ph + r)]
                de += ws[U(o_pe + r)]
                _x_insert(ws, o_x, o_xo, nx, xs, lost, k, di, dh, de)
                nx += 1
            r += 1
            continue
        if sp == 0:
            return nx
        sp -= 1
        r = ws[U(o_xst + sp)]
        xs &= ~(np.int64(1) << r)
        lost -= ws[U(o_pv + r)]
        k -= 1
        di -= ws[U(o_pi + r)]
        dh -= ws[U(o_ph + r)]
        de -= ws[U(o_pe + r)]
        r += 1


@njit(cache=True)
def best_symposion_nb(hand, n, kinds, rules, required_mask, type_mask, res):
    """Best legal Symposion in ``hand[:n]`` (kind codes, any order).

    ``required_mask``: bit p set = hand position p must be played. ``type_mask``: bit t set =
    type t may be declared. Writes the answer into ``res`` (see enums.RES_*): score 0, type -1
    and mask 0 when nothing is legal; per-card choice codes in hand order.
    """
    ws = np.empty(workspace_size(n), np.int64)
    best_symposion_ws(hand, n, kinds, rules, np.int64(required_mask), np.int64(type_mask), res,
                      ws)


@njit(cache=True)
def best_symposion_ws(hand, n, kinds, rules, required_mask, type_mask, res, ws):
    """:func:`best_symposion_nb` with a caller-supplied int64 workspace of at least
    ``workspace_size(n)`` entries (its contents are overwritten)."""
    _best_core(hand, n, kinds, rules, np.int64(required_mask), np.int64(type_mask), res, ws,
               np.int64(-1), np.bool_(True))


@njit(cache=True)
def best_symposion_hint_ws(hand, n, kinds, rules, required_mask, type_mask, floor, res, ws):
    """:func:`best_symposion_ws` (the same complete result) given a hint: a score ``floor``
    some legal play is believed to beat. The search then prunes everything scoring at most
    ``floor`` from the start; the best play and its canonical tie-break are unaffected (every
    play of the top score is still visited, in the same order). A wrong hint costs time
    only: when nothing beats it, the full search is run."""
    req = np.int64(required_mask)
    types = np.int64(type_mask)
    if floor >= 0:
        if _best_core(hand, n, kinds, rules, req, types, res, ws, np.int64(floor),
                      np.bool_(True)) >= 0:
            return
    _best_core(hand, n, kinds, rules, req, types, res, ws, np.int64(-1), np.bool_(True))


@njit(cache=True)
def best_score_above_ws(hand, n, kinds, rules, required_mask, type_mask, floor, res, ws):
    """The highest score of a legal play scoring strictly more than ``floor`` (>= 0), or -1
    when there is none. Exact: a play scoring above ``floor`` is never pruned, so when the
    answer is not -1 it equals the score :func:`best_symposion_ws` would find. Only
    ``res[RES_SCORE]`` and ``res[RES_TYPE]`` are written."""
    return _best_core(hand, n, kinds, rules, np.int64(required_mask), np.int64(type_mask), res,
                      ws, np.int64(floor), np.bool_(False))


@njit(cache=True)
def _best_core(hand, n, kinds, rules, required_mask, type_mask, res, ws, floor, full):
    """The search; ``floor`` -1 looks at every legal play, ``floor`` >= 0 only at plays scoring
    above it. ``full``: write the complete result into res (else only score and type).
    Returns the best score found, or -1."""
    # A hand beyond MAX_HAND cards (reachable only with extreme rule options) is searched on
    # its first MAX_HAND positions: result masks are int64 bitmasks over positions.
    n = min(n, MAX_HAND)
    # Workspace layout.
    o_hs = 0  # the hand sorted by kind
    o_perm = o_hs + n  # hand position of each sorted card
    o_bopt = o_perm + n  # best play's option per card
    o_copt = o_bopt + n  # free cards' option in the current search
    o_ns = o_copt + n  # enumerated cards: number of states
    o_epos = o_ns + n  # ... sorted position
    o_ppos = o_epos + n  # Social optional free cards: sorted position, value, I, H, E
    o_pv = o_ppos + n
    o_pi = o_pv + n
    o_ph = o_pi + n
    o_pe = o_ph + n
    o_li = o_pe + n  # E items of the enumerated cards at a Social leaf
    o_ei = o_li + n  # scratch for the slow subset-sum path
    o_ch = o_ei + n + 8
    o_rv = o_ch + n + 1  # suffix sums of the enumerated cards' best value
    o_rc = o_rv + n + 1  # ... of their largest counted wine
    o_rn = o_rc + n + 1  # ... of their largest non-Container wine
    o_st = o_rn + n + 1
    o_acc = o_st + n * MAXS * S_COLS
    o_x = o_acc + (n + 1) * A_COLS
    o_xo = o_x + XCAP * X_F  # ... their order (by points lost)
    o_xst = o_xo + XCAP  # the exclusion-set walk's stack
    o_bch = o_xst + n  # the best play's walk choices, until its group ends
    o_ub = o_bch + n  # per group: score bound, largest counted wine
    o_wx = o_ub + NGROUPS

    # Sort a copy of the hand by kind (insertion sort; hands are small), remembering positions.
    for p in range(n):
        v = hand[p]
        q = p
        while q > 0 and ws[U(o_hs + q - 1)] > v:
            ws[U(o_hs + q)] = ws[U(o_hs + q - 1)]
            ws[U(o_perm + q)] = ws[U(o_perm + q - 1)]
            q -= 1
        ws[U(o_hs + q)] = v
        ws[U(o_perm + q)] = p
    req = np.int64(0)
    for q in range(n):
        if (required_mask >> ws[U(o_perm + q)]) & 1:
            req |= np.int64(1) << q

    wine_scored = rules[R_WINE_SCORED] != 0
    io_bars_mw = rules[R_IO_BARS_MW] != 0
    need_ncw = rules[R_NON_CONTAINER]
    max_vint = rules[R_MAX_VINTAGE]
    either_split = rules[R_EITHER_SPLIT] != 0
    bonus_wine_scored = rules[R_BONUS_WINE_SCORED] != 0
    beq = rules[R_BONUS_EQ]
    ball = rules[R_BONUS_ALL]
    stacks = rules[R_BONUS_STACKS] != 0
    maxbonus = beq + ball if stacks else max(beq, ball)
    ball_total = beq + ball if stacks else max(beq, ball)

    # One pass over the cards: what each group may use, and each group's upper bound (every
    # usable card at its best value, plus the largest Social bonus) and largest wine.
    # (The per-kind facts come from the card table's derived columns, enums.CF_OKI ...)
    iobm = 1 if io_bars_mw else 0
    wsv = 1 if wine_scored else 0
    has_io = False
    reqal = 15  # groups every required card may join
    for gg in range(NGROUPS):  # per group: bound on the score, largest counted wine
        ws[U(o_ub + gg)] = maxbonus if gg == 2 else 0
        ws[U(o_wx + gg)] = 0
    wmat = 0  # groups in which women matter
    for q in range(n):
        k = ws[U(o_hs + q)]
        if kinds[U(k), CF_IO]:
            has_io = True
        al = kinds[U(k), CF_AL + iobm]
        wmat |= kinds[U(k), CF_WMAT + iobm]
        for gg in range(NGROUPS):
            if (al >> gg) & 1:
                ws[U(o_ub + gg)] += kinds[U(k), G_BV[gg]]
                ws[U(o_wx + gg)] += kinds[U(k), G_BW[gg] + wsv]
        if (req >> q) & 1:
            reqal &= al
    gon = np.int64(0)  # groups still possible
    if type_mask & 1:
        gon |= 1
        if has_io:
            gon |= 2
    if (type_mask >> T_SOCIAL) & 1:
        gon |= 4
    if (type_mask >> T_HEDONISTIC) & 1:
        gon |= 8
    gon &= reqal
    for gg in range(NGROUPS):
        if ws[U(o_wx + gg)] < rules[R_WINE_LO + G_TYPE[gg]]:
            gon &= ~(np.int64(1) << gg)

    best_score = -1
    best_n = 0
    if floor >= 0:
        # Only plays scoring above ``floor`` count: start as if one scoring floor + 1 with
        # more cards than any play had been found, so every bound at most ``floor`` prunes.
        best_score = floor + 1
        best_n = 1 << 30
    best_mask = np.int64(0)
    best_g = 4
    best_leaf = -1
    best_xs = 0
    leaf_id = 0

    # Search the groups in order of decreasing bound (stable); skip any whose bound is below
    # the best score found so far.
    rec_m = -1  # the best play's choices are at o_bch, for a walk over rec_m cards
    while gon:
        if rec_m >= 0:  # the next group reuses the walk's rows: record the options now
            _record(ws, o_bopt, o_copt, o_st, o_bch, o_epos, rec_m, n, best_mask)
            rec_m = -1
        g = -1
        ub = -1
        for gg in range(NGROUPS):
            if (gon >> gg) & 1:
                u = ws[U(o_ub + gg)]
                if u > ub:
                    ub = u
                    g = gg
        gon &= ~(np.int64(1) << g)
        if ub < best_score:
            break
        t = G_TYPE[g]
        mode = 1 if g == 1 else 0
        social = t == T_SOCIAL
        lo_w = rules[R_WINE_LO + t]
        hi_w = rules[R_WINE_HI + t]
        women_matter = (wmat >> g) & 1 != 0
        m = 0  # enumerated cards
        np_ = 0  # Social: optional free cards
        free_mask = np.int64(0)
        pmask = np.int64(0)
        # The fixed free cards' sums (accumulator row 0).
        f_in = 0
        f_i = 0
        f_h = 0
        f_e = 0
        f_val = 0
        f_women = 0
        # Fixed free cards' E points (Social): subset-sum bitset and total.
        flo = np.uint64(1)
        fhi = np.uint64(0)
        fetot = 0
        psum = 0  # optional free cards: total value, I, H, E
        pisum = 0
        phsum = 0
        pesum = 0
        has_reqs = False
        for q in range(n):
            k = ws[U(o_hs + q)]
            if not (kinds[U(k), CF_AL + iobm] >> g) & 1:
                continue
            bit = np.int64(1) << q
            required = (req & bit) != 0
            woman = 0
            if kinds[U(k), CF_WOMAN]:
                woman = 1
            elif kinds[U(k), CF_MW] and g != 1:
                woman = 1
            okm = kinds[U(k), CF_OKI] if t == T_INTELLECTUAL else (
                kinds[U(k), CF_OKH] if t == T_HEDONISTIC else (1 << kinds[U(k), CF_NOPT]) - 1)
            free = kinds[U(k), CF_FREE] != 0 and (okm & kinds[U(k), CF_WM]) == 0 \
                and not (woman and women_matter)
            if free and not social:
                # Include exactly when it scores (or is required); best option first.
                if t == T_INTELLECTUAL:
                    bo = kinds[U(k), CF_BI]
                    bv = kinds[U(k), CF_BVI]
                else:
                    bo = kinds[U(k), CF_BH]
                    bv = kinds[U(k), CF_BVH]
                if bv > 0 or required:
                    f_in += 1
                    if t == T_INTELLECTUAL:
                        f_i += bv
                    else:
                        f_h += bv
                    f_val += bv
                    f_women += woman
                    ws[U(o_copt + q)] = bo
                    free_mask |= bit
                continue
            if free and social and okm == 1:
                ci = kinds[U(k), CF_OPT + OPT_I]
                ch = kinds[U(k), CF_OPT + OPT_H]
                ce = kinds[U(k), CF_OPT + OPT_E]
                val = ci + ch + ce
                ws[U(o_copt + q)] = 0
                if required or val > maxbonus:
                    f_in += 1
                    f_i += ci
                    f_h += ch
                    f_e += ce
                    f_val += val
                    f_women += woman
                    free_mask |= bit
                    if ce:
                        fetot += ce
                        if fetot < 128:
                            flo, fhi = _fold(flo, fhi, ce)
                else:
                    ws[U(o_ppos + np_)] = q
                    ws[U(o_pv + np_)] = val
                    ws[U(o_pi + np_)] = ci
                    ws[U(o_ph + np_)] = ch
                    ws[U(o_pe + np_)] = ce
                    psum += val
                    pisum += ci
                    phsum += ch
                    pesum += ce
                    pmask |= bit
                    np_ += 1
                continue
            # An enumerated card: its states (left out unless required, then each option).
            # Leaving it out cannot make the best play when adding it to any legal play keeps
            # the play legal and adds points: outside Social (whose bonus may want a card
            # out), with the group's wine ceiling out of reach, for a card with no Vintage and
            # no requirement of its own whose every usable option is worth something.
            reqw = kinds[U(k), CF_REQ_WOMEN]
            reqwine = kinds[U(k), CF_REQ_WINE]
            if reqw > 0 or reqwine > 0:
                has_reqs = True
            vint = kinds[U(k), CF_VINTAGE]
            may_out = not required
            if may_out and not social and ws[U(o_wx + g)] <= hi_w and vint == 0 and reqw == 0 \
                    and reqwine == 0:
                may_out = False
                for o in range(kinds[U(k), CF_NOPT]):
                    if (okm >> o) & 1 and _opt_value(kinds, k, o) <= 0:
                        may_out = True
            sbase = o_st + m * MAXS * S_COLS
            ns = 0
            if may_out:
                for c in range(S_COLS):
                    ws[U(sbase + c)] = 0
                ns = 1
            cont = kinds[U(k), CF_CONTAINER]
            bv = 0
            bc = 0
            bn = 0
            for o in range(kinds[U(k), CF_NOPT]):
                if not (okm >> o) & 1:
                    continue
                base = CF_OPT + o * OPT_SIZE
                pw = kinds[U(k), base + OPT_WINE]
                sw = kinds[U(k), base + OPT_WINE_SCORED]
                ci = kinds[U(k), base + OPT_I]
                ch = kinds[U(k), base + OPT_H]
                ce = kinds[U(k), base + OPT_E]
                cw = sw if wine_scored else pw
                r = sbase + ns * S_COLS
                ws[U(r + S_IN)] = 1
                ws[U(r + S_OPT)] = o
                ws[U(r + S_CW)] = cw
                ws[U(r + S_WB)] = sw if bonus_wine_scored else pw
                if t == T_INTELLECTUAL:
                    ws[U(r + S_I)] = ci + ce
                    ws[U(r + S_H)] = 0
                    ws[U(r + S_E)] = 0
                elif t == T_HEDONISTIC:
                    ws[U(r + S_I)] = 0
                    ws[U(r + S_H)] = ch + ce
                    ws[U(r + S_E)] = 0
                else:
                    ws[U(r + S_I)] = ci
                    ws[U(r + S_H)] = ch
                    ws[U(r + S_E)] = ce
                ncw = 0 if cont else cw
                ws[U(r + S_NCW)] = ncw
                ws[U(r + S_VINT)] = vint
                ws[U(r + S_WOMEN)] = woman
                ws[U(r + S_REQW)] = reqw
                ws[U(r + S_REQWINE)] = reqwine
                val = sw + ci + ch + ce
                ws[U(r + S_VAL)] = val
                ws[U(r + S_P0)] = cw | (ncw << LANE) | (vint << 2 * LANE) | (val << 3 * LANE)
                ws[U(r + S_P1)] = 1 | (ws[U(r + S_WB)] << LANE) | (woman << 2 * LANE)
                ws[U(r + S_P2)] = (ws[U(r + S_I)] | (ws[U(r + S_H)] << LANE)
                                   | (ws[U(r + S_E)] << 2 * LANE))
                bv = max(bv, val)
                bc = max(bc, cw)
                bn = max(bn, ncw)
                ns += 1
            ws[U(o_epos + m)] = q
            ws[U(o_ns + m)] = ns
            ws[U(o_rv + m)] = bv
            ws[U(o_rc + m)] = bc
            ws[U(o_rn + m)] = bn
            m += 1
        # Suffix bounds of the enumerated cards.
        ws[U(o_rv + m)] = 0
        ws[U(o_rc + m)] = 0
        ws[U(o_rn + m)] = 0
        for j in range(m - 1, -1, -1):
            ws[U(o_rv + j)] += ws[U(o_rv + j + 1)]
            ws[U(o_rc + j)] += ws[U(o_rc + j + 1)]
            ws[U(o_rn + j)] += ws[U(o_rn + j + 1)]
        extra = psum + maxbonus if social else 0
        if f_val + ws[U(o_rv)] + extra < best_score:
            continue
        if ws[U(o_rc)] < lo_w or ws[U(o_rn)] < need_ncw:
            continue
        ws[U(o_acc + A_P0)] = f_val << 3 * LANE
        ws[U(o_acc + A_P1)] = f_in | (f_women << 2 * LANE)
        ws[U(o_acc + A_P2)] = f_i | (f_h << LANE) | (f_e << 2 * LANE)
        ws[U(o_acc + A_REQW)] = 0
        ws[U(o_acc + A_REQWINE)] = 0
        nx = 0
        x_state = 0  # Social exclusion-set list: 0 not built, 1 built, 2 too long (on the fly)
        # Depth-first walk over the enumerated cards' states, pruning on wine, Vintage and
        # the score bound.
        d = 0
        ws[U(o_ch)] = -1
        while d >= 0:
            if d == m:
                # A leaf: check the requirements, then (Social) try the exclusion sets.
                a = o_acc + m * A_COLS
                d -= 1
                p0 = ws[U(a + A_P0)]
                p1 = ws[U(a + A_P1)]
                cw = p0 & LMASK
                if cw < lo_w or cw > hi_w or (p0 >> LANE) & LMASK < need_ncw \
                        or (p0 >> 2 * LANE) & LMASK > max_vint:
                    continue
                if has_reqs and ((p1 >> 2 * LANE) & LMASK < ws[U(a + A_REQW)]
                                 or cw < ws[U(a + A_REQWINE)]):
                    continue
                if not social:
                    score = p0 >> 3 * LANE
                    cnt = p1 & LMASK
                    if score < best_score or cnt == 0:
                        continue
                    if score == best_score and cnt > best_n:
                        continue
                    mask = free_mask
                    for j in range(m):
                        if ws[U(o_st + (j * MAXS + ws[U(o_ch + j)]) * S_COLS + S_IN)]:
                            mask |= np.int64(1) << ws[U(o_epos + j)]
                    if _better(ws, o_hs, n, score, cnt, mask, g, False, best_score, best_n,
                               best_mask, best_g):
                        best_score = score
                        best_n = cnt
                        best_mask = mask
                        best_g = g
                        for j in range(m):
                            ws[U(o_bch + j)] = ws[U(o_ch + j)]
                        rec_m = m
                    continue
                # Social leaf.
                p2 = ws[U(a + A_P2)]
                vall = (p0 >> 3 * LANE) + psum
                iall = (p2 & LMASK) + pisum
                hall = ((p2 >> LANE) & LMASK) + phsum
                eall = ((p2 >> 2 * LANE) & LMASK) + pesum  # row 0 holds the fixed free E too
                wb = (p1 >> LANE) & LMASK
                # The all-equal bonus needs I = H = wb, so exactly this many points left out
                # (free cards carry no wine); any other exclusion can earn beq at most.
                l5 = iall + hall + eall - 2 * wb
                if l5 < 0 or l5 > maxbonus or vall - l5 + ball_total < best_score:
                    l5 = -1
                if vall + beq < best_score and l5 < 0:
                    continue
                leaf_id += 1
                if x_state == 0:
                    nx = _x_build(ws, o_x, o_xo, o_xst, o_pv, o_pi, o_ph, o_pe, np_, maxbonus)
                    x_state = 1 if nx >= 0 else 2
                dleaf = hall - iall + eall
                call = (p1 & LMASK) + np_
                nli = -1  # this leaf's enumerated E items, gathered when first needed
                emask = np.int64(-1)
                xi = 0
                xs = 0
                lim = np.int64(1) << np_
                while True:
                    if x_state == 1:
                        if xi >= nx:
                            break
                        r = o_x + ws[U(o_xo + xi)] * X_F
                        xi += 1
                        lost = ws[U(r + X_LOST)]
                        if vall - lost + beq < best_score:
                            if l5 < lost:
                                break
                            if lost != l5:
                                continue
                        xcur = ws[U(r + X_XS)]
                        kx = ws[U(r + X_K)]
                        di = ws[U(r + X_I)]
                        dd = ws[U(r + X_D)]
                        de = ws[U(r + X_E)]
                    else:
                        if xs >= lim:
                            break
                        lost = _x_lost(ws, o_pv, np_, xs)
                        if lost > maxbonus:
                            xs += xs & -xs
                            continue
                        xcur = xs
                        xs += 1
                        if vall - lost + beq < best_score and lost != l5:
                            continue
                        kx, di, dd, de = _x_fields(ws, o_pi, o_ph, o_pe, np_, xcur)
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
                            cand = ball_total
                        if base_score + cand < best_score:
                            continue
                        if either_split:
                            reach = True
                        elif etot < 128:
                            # Every E item of the play, folded into a subset-sum bitset:
                            # the fixed free cards', the kept optional ones', the leaf's.
                            xlo = flo
                            xhi = fhi
                            for j in range(np_):
                                e = ws[U(o_pe + j)]
                                if e and not (xcur >> j) & 1:
                                    xlo, xhi = _fold(xlo, xhi, e)
                            if nli < 0:
                                nli = 0
                                for j in range(m):
                                    e = ws[U(o_st + (j * MAXS + ws[U(o_ch + j)]) * S_COLS + S_E)]
                                    if e:
                                        ws[U(o_li + nli)] = e
                                        nli += 1
                            for j in range(nli):
                                xlo, xhi = _fold(xlo, xhi, ws[U(o_li + j)])
                            reach = _has_sum(xlo, xhi, x)
                        else:
                            reach = _has_sum_slow_leaf(ws, o_st, o_ch, m, o_pe, np_, xcur,
                                                       o_ei, o_hs, o_copt, kinds, free_mask,
                                                       n, x)
                        if reach:
                            bonus = cand
                    score = base_score + bonus
                    if score < best_score:
                        continue
                    if score == best_score and cnt > best_n:
                        continue
                    if emask < 0:
                        emask = free_mask | pmask
                        for j in range(m):
                            if ws[U(o_st + (j * MAXS + ws[U(o_ch + j)]) * S_COLS + S_IN)]:
                                emask |= np.int64(1) << ws[U(o_epos + j)]
                    mask = emask
                    for j in range(np_):
                        if (xcur >> j) & 1:
                            mask &= ~(np.int64(1) << ws[U(o_ppos + j)])
                    if _better(ws, o_hs, n, score, cnt, mask, g,
                               best_leaf == leaf_id and xcur < best_xs, best_score, best_n,
                               best_mask, best_g):
                        best_score = score
                        best_n = cnt
                        best_mask = mask
                        best_g = g
                        best_leaf = leaf_id
                        best_xs = xcur
                        for j in range(m):
                            ws[U(o_bch + j)] = ws[U(o_ch + j)]
                        rec_m = m
                continue
            # (Indices as U(...): unsigned, so numba skips its negative-index wraparound in
            # this, the hottest loop; every index here is a workspace offset, never negative.)
            ch_ = ws[U(o_ch + d)] + 1
            ws[U(o_ch + d)] = ch_
            if ch_ >= ws[U(o_ns + d)]:
                d -= 1
                continue
            row = o_st + (d * MAXS + ch_) * S_COLS
            a0 = o_acc + d * A_COLS
            a1 = a0 + A_COLS
            p0 = ws[U(a0 + A_P0)] + ws[U(row + S_P0)]
            ws[U(a1 + A_P0)] = p0
            ws[U(a1 + A_P1)] = ws[U(a0 + A_P1)] + ws[U(row + S_P1)]
            ws[U(a1 + A_P2)] = ws[U(a0 + A_P2)] + ws[U(row + S_P2)]
            if has_reqs:
                ws[U(a1 + A_REQW)] = max(ws[U(a0 + A_REQW)], ws[U(row + S_REQW)])
                ws[U(a1 + A_REQWINE)] = max(ws[U(a0 + A_REQWINE)], ws[U(row + S_REQWINE)])
            cw = p0 & LMASK
            if cw > hi_w or (p0 >> 2 * LANE) & LMASK > max_vint:
                continue
            if cw + ws[U(o_rc + d + 1)] < lo_w \
                    or ((p0 >> LANE) & LMASK) + ws[U(o_rn + d + 1)] < need_ncw:
                continue
            if (p0 >> 3 * LANE) + ws[U(o_rv + d + 1)] + extra < best_score:
                continue
            d += 1
            ws[U(o_ch + d)] = -1
    if rec_m >= 0:
        _record(ws, o_bopt, o_copt, o_st, o_bch, o_epos, rec_m, n, best_mask)
    best_type = -1
    best_mode = 0
    if best_g < 4:
        best_type = T_INTELLECTUAL if best_g < 2 else (T_SOCIAL if best_g == 2 else T_HEDONISTIC)
        best_mode = 1 if best_g == 1 else 0
    if not full:
        res[RES_TYPE] = best_type
        if best_type < 0:
            res[RES_SCORE] = 0
            return -1
        res[RES_SCORE] = best_score
        return best_score
    _write_result(ws, o_hs, o_perm, o_bopt, o_st, n, kinds, rules, best_score, best_n,
                  best_mask, best_type, best_mode, res)
    return best_score if best_type >= 0 else -1


@njit(cache=True)
def _has_sum_slow_leaf(ws, o_st, o_ch, m, o_pe, np_, xs, o_ei, o_hs, o_copt, kinds, free_mask,
                       n, x):
    """Subset-sum check over every E item of a Social play, for totals of 128 and more."""
    ne = 0
    for j in range(m):
        e = ws[o_st + (j * MAXS + ws[o_ch + j]) * S_COLS + S_E]
        if e:
            ws[o_ei + ne] = e
            ne += 1
    for r in range(np_):
        if not (xs >> r) & 1 and ws[o_pe + r]:
            ws[o_ei + ne] = ws[o_pe + r]
            ne += 1
    for q in range(n):
        if (free_mask >> q) & 1:
            e = kinds[ws[o_hs + q], CF_OPT + ws[o_copt + q] * OPT_SIZE + OPT_E]
            if e:
                ws[o_ei + ne] = e
                ne += 1
    return _has_sum_slow(ws[o_ei:o_ei + ne], ne, x)


@njit(cache=True)
def _record(ws, o_bopt, o_copt, o_st, o_ch, o_epos, m, n, mask):
    """The options of the play ``mask`` whose walk choices are at ws[o_ch:]."""
    for q in range(n):
        if (mask >> q) & 1:
            ws[U(o_bopt + q)] = ws[U(o_copt + q)]
    for j in range(m):
        r = o_st + (j * MAXS + ws[U(o_ch + j)]) * S_COLS
        if ws[U(r + S_IN)]:
            ws[U(o_bopt + ws[U(o_epos + j)])] = ws[U(r + S_OPT)]


@njit(cache=True)
def _write_result(ws, o_hs, o_perm, o_bopt, o_tmp, n, kinds, rules, best_score, best_n,
                  best_mask, best_type, best_mode, res):
    for i in range(RES_SIZE):
        res[i] = 0
    res[RES_TYPE] = -1
    if best_type < 0:
        return
    t = best_type
    wine = 0
    pwine = 0
    ifix = 0
    hfix = 0
    ne = 0
    etot = 0
    o_ei = o_tmp
    o_epos = o_tmp + n
    o_toi = o_tmp + 2 * n
    eitems = ws[o_ei:o_ei + n]
    for q in range(n):
        ws[o_toi + q] = 0
    has_req_women = False
    for q in range(n):
        if (best_mask >> q) & 1 and kinds[ws[o_hs + q], CF_REQ_WOMEN] > 0:
            has_req_women = True
    for q in range(n):
        if not (best_mask >> q) & 1:
            continue
        k = ws[o_hs + q]
        base = CF_OPT + ws[o_bopt + q] * OPT_SIZE
        wine += kinds[k, base + OPT_WINE_SCORED]
        pwine += kinds[k, base + OPT_WINE]
        ifix += kinds[k, base + OPT_I]
        hfix += kinds[k, base + OPT_H]
        e = kinds[k, base + OPT_E]
        if e:
            ws[o_ei + ne] = e
            ws[o_epos + ne] = q
            ne += 1
            etot += e
    # Split the E points: all to the type's own category, or (Social) a split reaching the
    # bonus, rebuilt from the subset-sum prefixes; with no bonus reachable, all to Intellectual.
    bonus = 0
    if t == T_INTELLECTUAL:
        for r in range(ne):
            ws[o_toi + ws[o_epos + r]] = ws[o_ei + r]
    elif t == T_SOCIAL:
        wb = wine if rules[R_BONUS_WINE_SCORED] else pwine
        bonus, x = _social_bonus(ifix, hfix, etot, eitems, ne, wb, rules)
        if x < 0:
            for r in range(ne):
                ws[o_toi + ws[o_epos + r]] = ws[o_ei + r]
        elif rules[R_EITHER_SPLIT]:
            for r in range(ne):  # greedy fill: any x in 0..etot is reachable by splitting
                give = min(x, ws[o_ei + r])
                ws[o_toi + ws[o_epos + r]] = give
                x -= give
        else:
            for r in range(ne - 1, -1, -1):  # last item first, against the prefix sums
                if etot < 128:
                    plo, phi = _subset_sums(eitems, r)
                    ok = _has_sum(plo, phi, x - ws[o_ei + r])
                else:
                    ok = x >= ws[o_ei + r] and _has_sum_slow(eitems, r, x - ws[o_ei + r])
                if x >= ws[o_ei + r] and ok:
                    ws[o_toi + ws[o_epos + r]] = ws[o_ei + r]
                    x -= ws[o_ei + r]
    ii = ifix
    hh = hfix
    for r in range(ne):
        ii += ws[o_toi + ws[o_epos + r]]
        hh += ws[o_ei + r] - ws[o_toi + ws[o_epos + r]]
    res[RES_SCORE] = best_score
    res[RES_TYPE] = t
    res[RES_WINE] = wine
    res[RES_I] = ii
    res[RES_H] = hh
    res[RES_BONUS] = bonus
    res[RES_NCARDS] = best_n
    mask = np.int64(0)
    for q in range(n):
        if (best_mask >> q) & 1:
            p = ws[o_perm + q]
            mask |= np.int64(1) << p
            k = ws[o_hs + q]
            woman = kinds[k, CF_WOMAN] or (kinds[k, CF_MW] and has_req_women
                                            and not (t == T_INTELLECTUAL and best_mode == 1))
            res[RES_PER_CARD + p] = ws[o_bopt + q] + CH_E_SHIFT * ws[o_toi + q] + (
                CH_WOMAN if woman else 0)
    res[RES_MASK] = mask


assert MAX_HAND <= 62
