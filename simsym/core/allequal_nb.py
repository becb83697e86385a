"""The best all-equal Social play, by (I, H) reachability instead of the search's walk.

A Social play is *all-equal* when its Intellectual points, its Hedonistic points and its bonus
wine (scored or printed Wine, as the rules say) are one number W: it takes the largest bonus
and scores exactly A3 + maxbonus, where A3 = scored Wine + 2 W comes from its wine options
alone.

In a trade attempt most candidate searches come down to such plays: the trade bound
(game_nb._bound_may_beat) usually shows that no other Social play holding the candidate can
beat the floor, and what is left is whether an all-equal one can. The search answers that by
walking every wine configuration with every choice of the other cards and trying exclusion
sets at its leaves; this walks the wine-capable cards only and keeps the rest as a grid:

* The grid is one 64-bit word: bit 8 I + H is set when the cards so far can bring
  Intellectual to I and Hedonistic to H (both 0..6: W never exceeds 6 here, and the top bit
  stays clear, so the word is also a valid int64). A card adds its I and H points and its E
  points whole to one side (any split, when the rules allow): a few shifts of the word
  (``_add``). A card that may be left out keeps the cells it had.
* First, every configuration at once: the wineless cards (played when required, else
  optional) and every option of every wine-capable card, each optional, give a grid that
  holds every configuration's cells. Unless it holds some (W, W) with W large enough for
  A3 + maxbonus to beat the floor, there is no such play: most calls end here.
* Else a walk gives each wine-capable card one of its wine options, or plays it without wine
  (its wineless options, optional unless required), or, for a Vintage card, leaves it out:
  a Vintage card is the Vintage card whichever way it is played, so playing it without wine
  is a choice of its own that takes the slot. The walk prunes on the wine window, the
  non-Container rule, Vintage and A3 (a configuration whose A3 + maxbonus cannot beat the
  best so far is never finished), and carries the grid: a finished configuration is
  all-equal exactly when its grid holds (W, W).

What this does not cover (a Social card with a requirement, a wineless Vintage card, a
Vintage limit other than 0 or 1, a wine window starting at 0, W possibly above 6) it says
(UNCOVERED), and the caller searches instead: the trade attempt then searches Social as it
would have without this. (Calling the search from here would link the whole search into
this module's compiled code again: ~7 s more cold compile.) tests/kernels/test_allequal.py
checks the answers against the search on rules in which only the all-equal bonus counts, and against
the reference's brute force.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simsym.core.enums import CF, MAX_OPTIONS, OPT, RULE, T_SOCIAL
from simsym.core.options import INNER, PY_ENTRY
from simsym.core.search_nb import U, _rule_facts

G_SOCIAL = 2  # the Social search group (its bit in the card table's CF.AL columns)
W_MAX = 6  # the largest W the grid holds: I and H 0..6, a byte a value of I
UNCOVERED = -2  # all_equal_above_ws's answer for what it does not cover
# BYTES[b]: in bytes 0..6, the bits of the H values that stay at most 6 after adding b.
BYTES = np.array([0x7F >> b for b in range(W_MAX + 1)], np.uint64) \
    * np.uint64(0x01010101010101)
CELLS = np.uint64(0x7F7F7F7F7F7F7F)  # every cell with I and H at most 6

# Per wine-capable card, its choices in the walk: first how it is played without wine (left
# out, or one of its wineless options; for a Vintage card these are two choices, since
# playing it takes the Vintage slot), then each wine option. A choice's row:
C_CW = 0  # counted wine (for the window)
C_NCW = 1  # counted wine from a non-Container card
C_VINT = 2  # 1 when it plays a Vintage card
C_A3 = 3  # scored wine + 2 x bonus wine
C_WB = 4  # bonus wine
C_OPT = 5  # the option whose I, H, E it adds; -1: none (left out); -2, -3: one of its
#            wineless options, or (-2) none
C_MUST = 6  # 1 when the card is played
C_SIZE = 7
MAXC = 2 + MAX_OPTIONS  # choices a card can have: left out, without wine, each wine option
REC = 2 + MAXC * C_SIZE  # a card's record: its kind, how many choices, the choices' rows
# A depth's row in the walk: sums (cw, ncw, Vintage, A3, bonus wine), choice, grid.
D_CW = 0
D_NCW = 1
D_VINT = 2
D_A3 = 3
D_WB = 4
D_CH = 5
D_GRID = 6
D_SIZE = 7


@njit(cache=True)
def ae_workspace_size(n):
    """Entries of the int64 workspace all_equal_above_ws needs for a hand of n cards: per
    card its kind and choices, per depth of the walk a row, suffix maxima."""
    return n * REC + (n + 1) * D_SIZE + 3 * (n + 1)


@njit(**INNER)
def _shl(g, s):
    """The grid's cells moved s bits up (nothing when s leaves the word)."""
    if s >= 64:
        return np.uint64(0)
    return g << np.uint64(s)


@njit(**INNER)
def _add(g, i, h, e, split):
    """The cells of grid g with one option of (i, h, e) points added: I + i, H + h and the e
    Either points whole to one side (any split with ``split``)."""
    out = np.uint64(0)
    for x in range(e + 1):  # x of the E points to Intellectual
        if e > 0 and not split and x != 0 and x != e:
            continue
        dh = h + e - x
        if dh <= W_MAX:
            out |= _shl(g & BYTES[dh], 8 * (i + x) + dh)
    return out & CELLS


@njit(**INNER)
def _add_card(g, kinds, k, must, split):
    """Grid g with card kind k played with one of its wineless options (or, unless
    ``must``, left out)."""
    out = np.uint64(0) if must else g
    for o in range(kinds[k, CF.NOPT]):
        base = CF.OPT + o * OPT.SIZE
        if kinds[k, base + OPT.WINE] > 0 or kinds[k, base + OPT.WINE_SCORED] > 0:
            continue
        out |= _add(g, kinds[k, base + OPT.I], kinds[k, base + OPT.H], kinds[k, base + OPT.E],
                    split)
    return out


@njit(**INNER)
def _add_card_all(g, kinds, k, split):
    """The cells of grid g with card kind k added in any of its options (wine options' own
    I, H and E points included)."""
    out = np.uint64(0)
    for o in range(kinds[k, CF.NOPT]):
        base = CF.OPT + o * OPT.SIZE
        out |= _add(g, kinds[k, base + OPT.I], kinds[k, base + OPT.H], kinds[k, base + OPT.E],
                    split)
    return out


@njit(**INNER)
def social_card(kinds, k, iobm, required):
    """How a hand card of kind k stands for the Social solvers (this one, social_nb's): 1 it
    may join a Social play; 0 it may not (not a Social card); -1 it may not but is
    required, so there is no Social play; UNCOVERED it has a requirement (women, Wine),
    which they do not answer."""
    if not (kinds[k, CF.AL + iobm] >> G_SOCIAL) & 1:
        return -1 if required else 0
    if kinds[k, CF.REQ_WOMEN] > 0 or kinds[k, CF.REQ_WINE] > 0:
        return UNCOVERED
    return 1


@njit(**INNER)
def may_beat(grid, floor, maxbonus, asum, wcap):
    """The all-equal first test: whether the (I, H) cells of ``grid`` hold some (W, W), W up
    to wcap, large enough for an all-equal play to beat the floor (it scores
    3 W + scored wine beyond bonus wine (at most asum) + maxbonus)."""
    for w in range(max(0, (floor + 1 - maxbonus - asum + 2) // 3), wcap + 1):
        if (grid >> np.uint64(9 * w)) & np.uint64(1):
            return True
    return False


@njit(**PY_ENTRY)
def all_equal_above_ws(hand, n, kinds, rules, required_mask, floor, ws):
    """The highest score of an all-equal Social play of ``hand[:n]`` scoring strictly more
    than ``floor`` (>= 0), or -1 when there is none: a play whose Intellectual points,
    Hedonistic points and bonus wine are equal, scored with the largest bonus. UNCOVERED
    when the hand or the rules are outside what this answers (see the module's docstring).
    ``required_mask``: hand positions that must be played. ``ws``: an int64 workspace of at
    least ae_workspace_size(n) entries."""
    rf = _rule_facts(rules)  # the rule values the search reads, as it reads them
    maxbonus = rf.maxbonus
    lo = rules[RULE.WINE_LO + T_SOCIAL]
    hi = rules[RULE.WINE_HI + T_SOCIAL]
    need = rf.need_ncw
    max_vint = rf.max_vint
    split = rf.either_split
    wine_scored = rf.wine_scored
    bonus_scored = rf.bonus_wine_scored
    iobm = rf.iobm
    if lo < 1 or max_vint < 0 or max_vint > 1:
        return np.int64(UNCOVERED)
    # The layout of ws: per wine-capable card its kind, its number of choices and the choices'
    # rows; per depth of the walk a row; suffix maxima (cw, ncw, A3) over the cards.
    cards = 0
    walk = n * REC
    sfx = walk + (n + 1) * D_SIZE
    grid = np.uint64(1)  # the wineless cards' grid: (I, H) = (0, 0) so far
    m = 0
    wsum = 0  # bonus wine: every card's largest, and largest beyond its counted wine
    xsum = 0
    xvint = 0  # ... the latter for the one Vintage card that may be played
    asum = 0  # scored wine beyond bonus wine, every card's largest
    for p in range(n):
        k = hand[p]
        required = (required_mask >> p) & 1 != 0
        st = social_card(kinds, k, iobm, required)
        if st == 0:
            continue
        if st != 1:
            return np.int64(st)
        vint = kinds[k, CF.VINTAGE] != 0
        if kinds[k, CF.WM] == 0:
            if vint:
                return np.int64(UNCOVERED)
            grid = _add_card(grid, kinds, k, required, split)
            continue
        # A wine-capable card: its choices.
        r = cards + m * REC
        _wine_card_choices(ws, r, kinds, k, required, vint, wine_scored, bonus_scored)
        bwb, bx, bs = _wine_facts(kinds, k, wine_scored, bonus_scored)
        wsum += bwb
        asum += bs
        if vint:
            xvint = max(xvint, bx)
        else:
            xsum += max(bx, 0)
        m += 1
    if m == 0:
        return np.int64(-1)  # no wine: no Social play (the window starts at 1 or more)
    wcap = min(wsum, hi + xsum + (xvint if max_vint > 0 else 0))
    if wcap > W_MAX:
        return np.int64(UNCOVERED)
    # A first test on every configuration at once: with each wine-capable card's every option
    # optional, is any (W, W) with W large enough for A3 to beat the floor reachable?
    # (A3 = 3 W + scored wine beyond bonus wine, at most asum of that.)
    gall = grid
    for j in range(m):
        gall = gall | _add_card_all(gall, kinds, ws[cards + j * REC], split)
    if not may_beat(gall, floor, maxbonus, asum, wcap):
        return np.int64(-1)
    _suffix_maxima(ws, cards, sfx, m)
    best = _walk(ws, cards, walk, sfx, m, kinds, grid, lo, hi, need, max_vint, split, maxbonus,
                 floor)
    return best if best > floor else np.int64(-1)


@njit(cache=True, _nrt=False, inline='always')
def _wine_card_choices(ws, r, kinds, k, required, vint, wine_scored, bonus_scored):
    """A wine-capable card's record from ws[r]: its kind, its number of choices, then each
    choice's row (without wine or left out as the card allows, then each wine option)."""
    ws[r] = k
    nc = 0
    has_wineless = kinds[k, CF.WM] != (1 << kinds[k, CF.NOPT]) - 1
    if vint:
        if not required:  # left out
            _choice(ws, r, nc, 0, 0, 0, 0, 0, -1, 0)
            nc += 1
        if has_wineless:  # played without wine: takes the Vintage slot
            _choice(ws, r, nc, 0, 0, 1, 0, 0, -3, 1)
            nc += 1
    elif has_wineless:  # without wine: one of its wineless options, or left out
        _choice(ws, r, nc, 0, 0, 0, 0, 0, -3 if required else -2, 1 if required else 0)
        nc += 1
    elif not required:
        _choice(ws, r, nc, 0, 0, 0, 0, 0, -1, 0)
        nc += 1
    cont = kinds[k, CF.CONTAINER] != 0
    for o in range(kinds[k, CF.NOPT]):
        wine, sw, cw, wb = option_wine(kinds, k, o, wine_scored, bonus_scored)
        if not wine:
            continue
        _choice(ws, r, nc, cw, 0 if cont else cw, 1 if vint else 0, sw + 2 * wb, wb, o, 1)
        nc += 1
    ws[r + 1] = nc


@njit(cache=True, _nrt=False, inline='always')
def _suffix_maxima(ws, cards, sfx, m):
    """Suffix sums over the m wine-capable cards (records from ws[cards]) of their choices'
    largest counted wine, non-Container wine and A3 (3 columns a depth, from ws[sfx])."""
    for c in range(3):
        ws[sfx + 3 * m + c] = 0
    for j in range(m - 1, -1, -1):
        r = cards + j * REC
        bcw = 0
        bncw = 0
        ba3 = 0
        for c in range(ws[r + 1]):
            q = r + 2 + c * C_SIZE
            bcw = max(bcw, ws[q + C_CW])
            bncw = max(bncw, ws[q + C_NCW])
            ba3 = max(ba3, ws[q + C_A3])
        ws[sfx + 3 * j] = ws[sfx + 3 * j + 3] + bcw
        ws[sfx + 3 * j + 1] = ws[sfx + 3 * j + 4] + bncw
        ws[sfx + 3 * j + 2] = ws[sfx + 3 * j + 5] + ba3


@njit(cache=True, _nrt=False, inline='always')
def _walk(ws, cards, walk, sfx, m, kinds, grid, lo, hi, need, max_vint, split, maxbonus, floor):
    """The walk over the wine-capable cards' choices (a row of D_SIZE a depth, from
    ws[walk]), pruned on the wine window, non-Container wine, Vintage and the score bound:
    the highest score of an all-equal play above ``floor``, or ``floor``. ``grid``: the
    (I, H) cells of the wineless cards."""
    best = floor  # only scores above it count
    for c in range(D_SIZE):
        ws[walk + c] = 0
    ws[walk + D_CH] = -1
    ws[walk + D_GRID] = np.int64(grid)
    d = 0
    while d >= 0:
        row = walk + d * D_SIZE
        if d == m:
            # A finished configuration: all-equal when its grid holds (W, W).
            w = ws[row + D_WB]
            if ws[row + D_A3] + maxbonus > best \
                    and (np.uint64(ws[row + D_GRID]) >> np.uint64(9 * w)) & np.uint64(1):
                best = ws[row + D_A3] + maxbonus
            d -= 1
            continue
        r = cards + d * REC
        c = ws[row + D_CH] + 1
        ws[row + D_CH] = c
        if c >= ws[r + 1]:
            d -= 1
            continue
        q = r + 2 + c * C_SIZE
        nxt = row + D_SIZE
        cw = ws[row + D_CW] + ws[q + C_CW]
        ncw = ws[row + D_NCW] + ws[q + C_NCW]
        nv = ws[row + D_VINT] + ws[q + C_VINT]
        a3 = ws[row + D_A3] + ws[q + C_A3]
        s = sfx + 3 * (d + 1)
        if cw > hi or nv > max_vint or cw + ws[s] < lo or ncw + ws[s + 1] < need \
                or a3 + ws[s + 2] + maxbonus <= best:
            continue
        g = np.uint64(ws[row + D_GRID])
        o = ws[q + C_OPT]
        k = ws[r]
        if o >= 0:
            base = CF.OPT + o * OPT.SIZE
            ci = kinds[k, base + OPT.I]
            ch = kinds[k, base + OPT.H]
            ce = kinds[k, base + OPT.E]
            if ci or ch or ce:
                g = _add(g, ci, ch, ce, split)
        elif o < -1:
            g = _add_card(g, kinds, k, ws[q + C_MUST] != 0, split)
        if g == 0:
            continue  # no cells left: no (W, W) below
        ws[nxt + D_CW] = cw
        ws[nxt + D_NCW] = ncw
        ws[nxt + D_VINT] = nv
        ws[nxt + D_A3] = a3
        ws[nxt + D_WB] = ws[row + D_WB] + ws[q + C_WB]
        ws[nxt + D_GRID] = np.int64(g)
        ws[nxt + D_CH] = -1
        d += 1
    return best


@njit(**INNER)
def _choice(ws, r, c, cw, ncw, vint, a3, wb, opt, must):
    """Write choice c of the card whose record starts at ws[r]."""
    q = r + 2 + c * C_SIZE
    ws[q + C_CW] = cw
    ws[q + C_NCW] = ncw
    ws[q + C_VINT] = vint
    ws[q + C_A3] = a3
    ws[q + C_WB] = wb
    ws[q + C_OPT] = opt
    ws[q + C_MUST] = must




# The first test for a hand plus one card, with the hand's part computed once (a trade
# attempt asks it of each candidate card w for the same hand minus one card): ae_prep writes
# these at scr[at:], ae_may_beat_with answers for H + w.
AEP_GRID = 0  # the (I, H) cells of the hand's Social cards, each optional, in any option
AEP_WSUM = 1  # bonus wine: every wine-capable card's largest, ...
AEP_XSUM = 2  # ... its largest beyond counted wine (every such card but a Vintage one, ...
AEP_XVINT = 3  # ... whose largest is this one, under a limit of one Vintage card)
AEP_ASUM = 4  # scored wine beyond bonus wine, every card's largest
AEP_SIZE = 5


@njit(cache=True, _nrt=False, inline='always')
def option_wine(kinds, k, o, wine_scored, bonus_scored):
    """Option o of card kind k's wine as the rules count it: (whether it has any, its scored
    wine, its counted wine (for the window), its bonus wine), the three 0 when it has none."""
    base = CF.OPT + o * OPT.SIZE
    pw = kinds[U(k), U(base + OPT.WINE)]
    sw = kinds[U(k), U(base + OPT.WINE_SCORED)]
    if pw <= 0 and sw <= 0:
        return False, np.int64(0), np.int64(0), np.int64(0)
    return (True, sw, sw if wine_scored else pw, sw if bonus_scored else pw)


@njit(**INNER)
def _wine_facts(kinds, k, wine_scored, bonus_scored):
    """Over the wine options of card kind k: the largest bonus wine, the largest bonus wine
    beyond counted wine, the largest scored wine beyond bonus wine (0 when it has none)."""
    bwb = 0
    bx = 0
    bs = 0
    for o in range(kinds[k, CF.NOPT]):
        wine, sw, cw, wb = option_wine(kinds, k, o, wine_scored, bonus_scored)
        if not wine:
            continue
        bwb = max(bwb, wb)
        bx = max(bx, wb - cw)
        bs = max(bs, sw - wb)
    return bwb, bx, bs


@njit(**INNER)
def _ae_add(scr, at, kinds, k, rf, must):
    """Card kind k into the first test's sums at scr[at:] (optional unless ``must``)."""
    g = np.uint64(scr[at + AEP_GRID])
    g2 = _add_card_all(g, kinds, k, rf.either_split)
    scr[at + AEP_GRID] = np.int64(g2 if must else g | g2)
    if kinds[k, CF.WM] != 0:
        bwb, bx, bs = _wine_facts(kinds, k, rf.wine_scored, rf.bonus_wine_scored)
        scr[at + AEP_WSUM] += bwb
        scr[at + AEP_ASUM] += bs
        if kinds[k, CF.VINTAGE] != 0 and rf.max_vint <= 1:
            scr[at + AEP_XVINT] = max(scr[at + AEP_XVINT], bx)
        else:
            scr[at + AEP_XSUM] += bx


@njit(**PY_ENTRY)
def ae_prep(hand, n, kinds, rules, scr, at):
    """The first test's part for the cards hand[:n] (none of them required), at scr[at:]
    (AEP_SIZE entries)."""
    rf = _rule_facts(rules)
    for c in range(AEP_SIZE):
        scr[at + c] = 0
    scr[at + AEP_GRID] = 1  # (I, H) = (0, 0)
    for p in range(n):
        k = hand[p]
        if (kinds[k, CF.AL + rf.iobm] >> G_SOCIAL) & 1:
            _ae_add(scr, at, kinds, k, rf, False)


@njit(**PY_ENTRY)
def ae_may_beat_with(scr, at, kinds, rules, w, floor):
    """False when no all-equal Social play of the prepared cards and card kind w, holding w,
    can score above ``floor``: all_equal_above_ws's first test, on cells that hold every such
    play's (every card optional in any option, w played). True when one may, or when the
    test cannot tell (W possibly beyond the grid)."""
    rf = _rule_facts(rules)
    if not (kinds[w, CF.AL + rf.iobm] >> G_SOCIAL) & 1:
        return False  # no Social play may hold w
    t = at + AEP_SIZE  # the prepared sums plus w, just after them
    for c in range(AEP_SIZE):
        scr[t + c] = scr[at + c]
    _ae_add(scr, t, kinds, w, rf, True)
    hi = rules[RULE.WINE_HI + T_SOCIAL]
    vint = scr[t + AEP_XVINT] if rf.max_vint > 0 else 0
    wcap = min(scr[t + AEP_WSUM], hi + scr[t + AEP_XSUM] + vint)
    if wcap > W_MAX:
        return True
    return may_beat(np.uint64(scr[t + AEP_GRID]), floor, rf.maxbonus, scr[t + AEP_ASUM], wcap)


assert 9 * W_MAX < 63  # the cell (W, W) and every other below the int64 sign bit
