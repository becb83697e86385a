"""The best Social score above a floor, without the search's walk over every card.

A trade attempt asks, for each candidate card w, whether some play of the hand with w beats
a floor, and with what score; only the number counts, not which play (no tie-breaks). In the
base game most of these searches are Social, and the search answers them by walking every
card's states and, at each leaf, the exclusion sets of the cheap wineless cards up to the
largest bonus. This walks fewer cards and looks at fewer exclusion sets:

* The walked cards are those whose choice changes more than points: the wine-capable ones,
  Vintage cards and cards of several options (each left out unless required, or played in
  one of its options), pruned on the wine window, the non-Container rule, Vintage and two
  bounds (points plus the I = H bonus; A3 plus the largest bonus, below). Walked cards of
  one behaviour class (enums.CF.CLS) and requirement have the same choices and may swap
  them without changing a sum, so each takes a choice no earlier than the previous one's.
* Every other card ("wineless": one option, no wine) only adds points, so a finished
  configuration scores at most V = its points + every wineless card's, and leaving wineless
  cards out pays only for a bonus:
  - the I = H bonus beq: a play leaving out wineless cards worth t scores V - t + beq, so
    only t < beq is tried, smallest first;
  - the all-equal bonus (I = H = bonus wine): such a play scores exactly
    A3 + maxbonus, A3 = scored wine + 2 x bonus wine of the configuration, so it leaves out
    exactly t = V - A3 (the points of I + H + E above 2 x bonus wine); it is tried when
    A3 + maxbonus beats the best so far.
  Either way the question is whether wineless cards worth exactly t can be left out so that
  I = H is reachable (the split of the E points: any, or each card's E whole to one side,
  a subset-sum bitset): ``_reach``. For t = 0 that is one test; for t > 0 it tries the sets
  of left-out cards worth 1 to maxbonus - 1 (copies per kind, alike ones once), listed by
  ``_x_list`` the first time a call needs them.
* Before the walk, the all-equal first test of allequal_nb (one grid of the (I, H) cells any
  play may reach) turns the all-equal part off for most calls, and with it its bound.

What this does not cover it says (UNCOVERED), and the caller searches instead: a Social card
with a requirement, a wine window starting at 0, bonuses where maxbonus < beq or beq < 0,
E totals of E_MAX or more, and more than XMAX sets to leave out (or XVEC vectors to list
them). tests/kernels/test_social_above.py checks it against the search
(score-only, Social only) on base and random decks under rule variants, and against the
reference brute force.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simsym.core.enums import CF, MAX_OPTIONS, OPT, RULE, T_SOCIAL
from simsym.core.allequal_nb import (
    UNCOVERED, W_MAX, _add, _add_card_all, _wine_facts, may_beat, option_wine, social_card,
)
from simsym.core.options import INNER, PY_ENTRY
from simsym.core.search_nb import U, _fold, _has_sum, _rule_facts

E_MAX = 120  # E points of a hand the subset-sum bitsets (sums 0..127) hold

# Per walked card, its choices: each option, then left out (unless required).
C_CW = 0  # counted wine (for the window)
C_NCW = 1  # counted wine from a non-Container card
C_VINT = 2  # 1 when it plays a Vintage card
C_V = 3  # points (scored wine + I + H + E)
C_A3 = 4  # scored wine + 2 x bonus wine
C_I = 5
C_H = 6
C_E = 7  # the option's E points: one item of the split
C_SIZE = 8
MAXC = 1 + MAX_OPTIONS
REC = 1 + MAXC * C_SIZE  # a walked card's record: how many choices, the choices' rows
# A kind of wineless card that may be left out (not required, worth less than maxbonus):
# points, I, H, E, copies, and the copies the set being tried leaves out.
K_V = 0
K_I = 1
K_H = 2
K_E = 3
K_N = 4
K_OUT = 5
K_SIZE = 6
# Suffix maxima over the walked cards: counted wine, non-Container wine, points, A3.
SFX = 4
# The sets of wineless cards a bonus may leave out, listed once a call when first needed:
# points lost, I, H and E taken away, and the subset-sum bitset of the wineless E items kept.
X_LOST = 0
X_I = 1
X_H = 2
X_E = 3
X_LO = 4
X_HI = 5
X_SIZE = 6
XMAX = 64  # such sets listed at most (beyond: UNCOVERED)
XVEC = 4096  # ... and vectors of copies per kind tried at most to list them
X_UNLISTED = -1


@njit(cache=True)
def social_workspace_size(n):
    """Entries of the int64 workspace social_above_ws needs for a hand of n cards."""
    return n * REC + (n + 1) + SFX * (n + 1) + n * K_SIZE + 1 + XMAX * X_SIZE + 2 * n


@njit(**PY_ENTRY)
def social_above_ws(hand, n, kinds, rules, required_mask, floor, ws):
    """The highest score of a Social play of ``hand[:n]`` holding every card of
    ``required_mask`` (hand positions) scoring strictly more than ``floor`` (>= 0), or -1 when
    there is none: what best_score_above_ws returns with Social the only type. UNCOVERED when
    the hand or the rules are outside what this answers (the module's docstring). ``ws``: an
    int64 workspace of at least social_workspace_size(n) entries."""
    rf = _rule_facts(rules)
    beq = rf.beq
    maxbonus = rf.maxbonus
    lo = rules[RULE.WINE_LO + T_SOCIAL]
    hi = rules[RULE.WINE_HI + T_SOCIAL]
    wine_scored = rf.wine_scored
    bonus_scored = rf.bonus_wine_scored
    iobm = rf.iobm
    max_vint = rf.max_vint
    if lo < 1 or beq < 0 or maxbonus < beq:
        return np.int64(UNCOVERED)
    # The layout of ws: per walked card its record; per depth of the walk its choice; suffix
    # maxima; the kinds of wineless cards that may be left out; the sets of them listed.
    walk = n * REC
    sfx = walk + n + 1
    kl = sfx + SFX * (n + 1)
    xl = kl + n * K_SIZE  # ws[xl]: how many sets are listed (X_UNLISTED: not yet), then them
    # Per walked card: its behaviour class (CF.CLS) x 2 + 1 if required, and the previous
    # walked card of that class and requirement (-1: none). Two such cards have the same
    # choices, and swapping theirs changes no sum: the walk takes them in order (_walk).
    pcl = xl + 1 + XMAX * X_SIZE
    prv = pcl + n
    seen = np.uint64(0)  # the walked cards' classes, hashed to 64 bits
    # The wineless cards, all played: their points, I, H, E and E items (the bitset of the
    # ones that always stay, and of all).
    fv = 0
    fi = 0
    fh = 0
    fe = 0
    flo = np.uint64(1)
    fhi = np.uint64(0)
    alo = np.uint64(1)
    ahi = np.uint64(0)
    nk = 0
    m = 0
    etot = 0
    # The all-equal bonus's first test (as allequal_nb's): the (I, H) cells any play may
    # reach, and the most bonus wine (every walked card's largest; the largest beyond its
    # counted wine, for the window; for the one Vintage card) and scored wine beyond it.
    grid = np.uint64(1)
    wsum = 0
    xsum = 0
    xvint = 0
    asum = 0
    for p in range(n):
        k = hand[p]
        required = (required_mask >> p) & 1 != 0
        st = social_card(kinds, k, iobm, required)
        if st == 0:
            continue
        if st != 1:
            return np.int64(st)  # a required card outside Social (-1), or UNCOVERED
        vint = kinds[U(k), U(CF.VINTAGE)] != 0
        nopt = kinds[U(k), U(CF.NOPT)]
        if kinds[U(k), U(CF.WM)] == 0 and not vint and nopt == 1:
            ci = kinds[U(k), U(CF.OPT + OPT.I)]
            ch = kinds[U(k), U(CF.OPT + OPT.H)]
            ce = kinds[U(k), U(CF.OPT + OPT.E)]
            v = ci + ch + ce
            fv += v
            fi += ci
            fh += ch
            fe += ce
            etot += ce
            if ce > 0:
                alo, ahi = _fold(alo, ahi, ce)
            if ci or ch or ce:
                g = _add(grid, ci, ch, ce, rf.either_split)
                grid = g if required else grid | g
            if required or v >= maxbonus or v <= 0:
                if ce > 0:
                    flo, fhi = _fold(flo, fhi, ce)
                continue
            nk = _list_kind(ws, kl, nk, v, ci, ch, ce)
            continue
        # A walked card: its choices (its options, then left out unless required: high scores
        # first, so the bounds prune more; only the best score counts, in any order).
        emax = _walked_choices(ws, m * REC, kinds, k, required, vint, wine_scored, bonus_scored)
        bwb, bx, bs = _wine_facts(kinds, k, wine_scored, bonus_scored)
        etot += emax
        wsum += bwb
        asum += bs
        if vint and max_vint <= 1:
            xvint = max(xvint, bx)
        else:
            xsum += bx
        g = _add_card_all(grid, kinds, k, rf.either_split)
        grid = g if required else grid | g
        seen = _alike(ws, pcl, prv, m, kinds[U(k), U(CF.CLS)] * 2 + (1 if required else 0), seen)
        m += 1
    if m == 0:
        return np.int64(-1)  # no wine: no Social play (the window starts at 1 or more)
    if etot >= E_MAX:
        return np.int64(UNCOVERED)
    _suffix_maxima(ws, sfx, m)
    # An all-equal play scores A3 + maxbonus with A3 = 3 W + scored wine beyond bonus wine
    # (at most asum): unless some (W, W) cell reachable by any play has W large enough to beat
    # the floor, there is none (W beyond the grid: not tested).
    ae = maxbonus > beq
    wcap = min(wsum, hi + xsum + (xvint if max_vint > 0 else 0))
    if ae and wcap <= W_MAX:
        ae = may_beat(grid, floor, maxbonus, asum, wcap)
    ws[U(xl)] = X_UNLISTED
    best = _walk(ws, walk, sfx, kl, xl, prv, nk, m, lo, hi, rf.need_ncw, max_vint,
                 rf.either_split, beq, maxbonus, ae, fv, fi, fh, fe, flo, fhi, alo, ahi, floor)
    if best == UNCOVERED:
        return np.int64(UNCOVERED)
    return best if best > floor else np.int64(-1)


@njit(cache=True, _nrt=False, inline='always')
def _list_kind(ws, kl, nk, v, ci, ch, ce):
    """A wineless card that may be left out, among the nk kinds listed from ws[kl] (K_
    columns): one more copy of the kind of the same points, I, H and E, or a new kind.
    Returns the kinds listed."""
    for j in range(nk):
        q = kl + j * K_SIZE
        if ws[U(q + K_V)] == v and ws[U(q + K_I)] == ci and ws[U(q + K_H)] == ch \
                and ws[U(q + K_E)] == ce:
            ws[U(q + K_N)] += 1
            return nk
    q = kl + nk * K_SIZE
    ws[U(q + K_V)] = v
    ws[U(q + K_I)] = ci
    ws[U(q + K_H)] = ch
    ws[U(q + K_E)] = ce
    ws[U(q + K_N)] = 1
    return nk + 1


@njit(cache=True, _nrt=False, inline='always')
def _walked_choices(ws, r, kinds, k, required, vint, wine_scored, bonus_scored):
    """A walked card's record from ws[r]: how many choices, then each choice's row (its
    options, then left out unless required: high scores first, so the bounds prune more;
    only the best score counts, in any order). Returns its options' largest E."""
    nc = 0
    cont = kinds[U(k), U(CF.CONTAINER)] != 0
    emax = 0
    for o in range(kinds[U(k), U(CF.NOPT)]):
        base = CF.OPT + o * OPT.SIZE
        _, sw, cw, wb = option_wine(kinds, k, o, wine_scored, bonus_scored)
        ci = kinds[U(k), U(base + OPT.I)]
        ch = kinds[U(k), U(base + OPT.H)]
        ce = kinds[U(k), U(base + OPT.E)]
        emax = max(emax, ce)
        _choice(ws, r, nc, cw, 0 if cont else cw, 1 if vint else 0, sw + ci + ch + ce,
                sw + 2 * wb, ci, ch, ce)
        nc += 1
    if not required:
        _choice(ws, r, nc, 0, 0, 0, 0, 0, 0, 0, 0)
        nc += 1
    ws[U(r)] = nc
    return emax


@njit(cache=True, _nrt=False, inline='always')
def _alike(ws, pcl, prv, m, cl, seen):
    """Walked card m's class ``cl`` (behaviour class x 2 + 1 if required) into ws[pcl + m],
    and the previous walked card of that class into ws[prv + m] (-1: none). ``seen``: the
    earlier cards' classes, hashed to 64 bits; returns it with this class added."""
    ws[U(pcl + m)] = cl
    prev = -1
    bucket = np.uint64(1) << U(cl & 63)
    if seen & bucket:  # some earlier card's class falls in the same bucket
        for jj in range(m - 1, -1, -1):
            if ws[U(pcl + jj)] == cl:
                prev = jj
                break
    ws[U(prv + m)] = prev
    return seen | bucket


@njit(cache=True, _nrt=False, inline='always')
def _suffix_maxima(ws, sfx, m):
    """Suffix sums over the m walked cards of their choices' largest counted wine,
    non-Container wine, points and A3 (SFX columns a depth, from ws[sfx])."""
    for c in range(SFX):
        ws[U(sfx + SFX * m + c)] = 0
    for j in range(m - 1, -1, -1):
        r = j * REC
        s = sfx + SFX * j
        for c in range(SFX):
            col = C_CW if c == 0 else (C_NCW if c == 1 else (C_V if c == 2 else C_A3))
            b = 0
            for x in range(ws[U(r)]):
                b = max(b, ws[U(r + 1 + x * C_SIZE + col)])
            ws[U(s + c)] = ws[U(s + SFX + c)] + b


@njit(**INNER)
def _walk(ws, walk, sfx, kl, xl, prv, nk, m, lo, hi, need, max_vint, split, beq, maxbonus,
          ae, fv, fi, fh, fe, flo, fhi, alo, ahi, best):
    """Depth-first over the walked cards' choices: the best score above ``best`` of a finished
    configuration with every wineless card, or leaving some out for a bonus. The sums of the
    choices taken are kept as they go (added going down, taken off coming back); ws[walk + d]
    is the choice taken at depth d. A card alike with an earlier one (ws[prv + d]) starts at
    that one's choice: of the configurations that only swap choices between alike cards, which
    have the same sums, only the one in order is walked. UNCOVERED when the sets to leave out
    are too many."""
    cw = 0
    ncw = 0
    nv = 0
    v = 0
    a3 = 0
    i = 0
    h = 0
    e = 0
    ws[U(walk)] = -1
    d = 0
    while True:
        if d == m:
            vt = v + fv
            if vt > best:
                best = vt
            if ae and a3 + maxbonus > best and vt - a3 >= 0:
                r = _reach(ws, walk, kl, xl, nk, m, split, maxbonus, vt - a3, i + fi, h + fh,
                           e + fe, flo, fhi, alo, ahi)
                if r < 0:
                    return np.int64(UNCOVERED)
                if r:
                    best = a3 + maxbonus
            for t in range(beq):
                if vt - t + beq <= best:
                    break
                r = _reach(ws, walk, kl, xl, nk, m, split, maxbonus, t, i + fi, h + fh, e + fe,
                           flo, fhi, alo, ahi)
                if r < 0:
                    return np.int64(UNCOVERED)
                if r:
                    best = vt - t + beq
                    break
        else:
            r = d * REC
            c = ws[U(walk + d)] + 1
            if c < ws[U(r)]:
                ws[U(walk + d)] = c
                q = r + 1 + c * C_SIZE
                qcw = ws[U(q + C_CW)]
                if cw + qcw > hi or cw + qcw + ws[U(sfx + SFX * (d + 1))] < lo \
                        or ncw + ws[U(q + C_NCW)] + ws[U(sfx + SFX * (d + 1) + 1)] < need \
                        or nv + ws[U(q + C_VINT)] > max_vint:
                    continue
                sq = sfx + SFX * (d + 1) + 2  # the rest's most points and A3
                if v + ws[U(q + C_V)] + ws[U(sq)] + fv + beq <= best and (
                        not ae or a3 + ws[U(q + C_A3)] + ws[U(sq + 1)] + maxbonus <= best):
                    continue
                cw += qcw
                ncw += ws[U(q + C_NCW)]
                nv += ws[U(q + C_VINT)]
                v += ws[U(q + C_V)]
                a3 += ws[U(q + C_A3)]
                i += ws[U(q + C_I)]
                h += ws[U(q + C_H)]
                e += ws[U(q + C_E)]
                d += 1
                if d < m:
                    p = ws[U(prv + d)]
                    ws[U(walk + d)] = ws[U(walk + p)] - 1 if p >= 0 else -1
                continue
        # Back up one depth: take off the choice taken there.
        d -= 1
        if d < 0:
            break
        q = d * REC + 1 + ws[U(walk + d)] * C_SIZE
        cw -= ws[U(q + C_CW)]
        ncw -= ws[U(q + C_NCW)]
        nv -= ws[U(q + C_VINT)]
        v -= ws[U(q + C_V)]
        a3 -= ws[U(q + C_A3)]
        i -= ws[U(q + C_I)]
        h -= ws[U(q + C_H)]
        e -= ws[U(q + C_E)]
    return best


@njit(**INNER)
def _reach(ws, walk, kl, xl, nk, m, split, maxbonus, t, i, h, e, flo, fhi, alo, ahi):
    """1 when leaving out wineless cards worth exactly t (0 <= t < maxbonus; of the kinds
    that may be left out) makes I = H reachable, for the finished configuration of the walk
    whose I, H and E points with every wineless card are i, h, e; else 0; -1 when the sets
    to try are too many to list."""
    if t == 0:
        return 1 if _split_reaches(ws, walk, m, split, h - i + e, e, alo, ahi) else 0
    if ws[U(xl)] == X_UNLISTED:
        ws[U(xl)] = _x_list(ws, kl, xl, nk, split, maxbonus, flo, fhi)
    for x in range(ws[U(xl)]):
        q = xl + 1 + x * X_SIZE
        if ws[U(q + X_LOST)] != t:
            continue
        xe = ws[U(q + X_E)]
        if _split_reaches(ws, walk, m, split, (h - ws[U(q + X_H)]) - (i - ws[U(q + X_I)]) + e
                          - xe, e - xe, np.uint64(ws[U(q + X_LO)]), np.uint64(ws[U(q + X_HI)])):
            return 1
    return 0 if ws[U(xl)] >= 0 else -1


@njit(**INNER)
def _x_list(ws, kl, xl, nk, split, maxbonus, flo, fhi):
    """List, after ws[xl], the sets of wineless cards worth 1 to maxbonus - 1 that may be left
    out (as copies per kind; sets alike in what they take away and the E items they keep
    once). How many, or -2 when more than XMAX, or more than XVEC vectors to try."""
    nx = 0
    for j in range(nk):
        ws[U(kl + j * K_SIZE + K_OUT)] = 0
    tot = 0
    for _ in range(XVEC):
        # The next vector of copies left out per kind worth less than maxbonus in all, as an
        # odometer whose digits stay within that (every kind is worth 1 or more).
        j = 0
        while j < nk:
            q = kl + j * K_SIZE
            if ws[U(q + K_OUT)] < ws[U(q + K_N)] and tot + ws[U(q + K_V)] < maxbonus:
                ws[U(q + K_OUT)] += 1
                tot += ws[U(q + K_V)]
                break
            tot -= ws[U(q + K_OUT)] * ws[U(q + K_V)]
            ws[U(q + K_OUT)] = 0
            j += 1
        if j == nk:
            return nx
        xi = 0
        xh = 0
        xe = 0
        for j in range(nk):
            q = kl + j * K_SIZE
            c = ws[U(q + K_OUT)]
            xi += c * ws[U(q + K_I)]
            xh += c * ws[U(q + K_H)]
            xe += c * ws[U(q + K_E)]
        blo = flo
        bhi = fhi
        if not split:
            for j in range(nk):  # the E items of the copies kept
                q = kl + j * K_SIZE
                ce = ws[U(q + K_E)]
                if ce > 0:
                    for _ in range(ws[U(q + K_N)] - ws[U(q + K_OUT)]):
                        blo, bhi = _fold(blo, bhi, ce)
        dup = False
        for x in range(nx):
            q = xl + 1 + x * X_SIZE
            if ws[U(q + X_LOST)] == tot and ws[U(q + X_I)] == xi and ws[U(q + X_H)] == xh \
                    and ws[U(q + X_LO)] == np.int64(blo) and ws[U(q + X_HI)] == np.int64(bhi):
                dup = True
                break
        if dup:
            continue
        if nx >= XMAX:
            return -2
        q = xl + 1 + nx * X_SIZE
        ws[U(q + X_LOST)] = tot
        ws[U(q + X_I)] = xi
        ws[U(q + X_H)] = xh
        ws[U(q + X_E)] = xe
        ws[U(q + X_LO)] = np.int64(blo)
        ws[U(q + X_HI)] = np.int64(bhi)
        nx += 1
    return -2


@njit(**INNER)
def _split_reaches(ws, walk, m, split, d, e, blo, bhi):
    """Whether E points e split to I and H can close d = H - I + E (the configuration's E
    items folded into the wineless cards' bitset blo, bhi unless ``split``)."""
    if d < 0 or d % 2 != 0 or d // 2 > e:
        return False
    if split:
        return True
    for j in range(m):  # the configuration's E items
        ce = ws[U(j * REC + 1 + ws[U(walk + j)] * C_SIZE + C_E)]
        if ce > 0:
            blo, bhi = _fold(blo, bhi, ce)
    return _has_sum(blo, bhi, d // 2)


@njit(**INNER)
def _choice(ws, r, c, cw, ncw, vint, v, a3, ci, ch, ce):
    """Write choice c of the walked card whose record starts at ws[r]."""
    q = r + 1 + c * C_SIZE
    ws[U(q + C_CW)] = cw
    ws[U(q + C_NCW)] = ncw
    ws[U(q + C_VINT)] = vint
    ws[U(q + C_V)] = v
    ws[U(q + C_A3)] = a3
    ws[U(q + C_I)] = ci
    ws[U(q + C_H)] = ch
    ws[U(q + C_E)] = ce
