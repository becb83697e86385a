"""Whole games in numba: docs/game-engine.md, implemented over flat integer arrays.

One call of :func:`run_chunk_nb` plays games ``g0 .. g1-1`` and writes per-game rows and
aggregate counts into arrays the caller allocated. Game ``g`` depends on (seed, g) alone.
The plain-Python statement of the same contract is simsym/reference/game.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simsym.core.enums import (
    CF_AL, CF_DRAW_USABLE, CF_DRAWS, CF_NOPT, CF_OKH, CF_OKI, CF_OPT, MAX_OPTIONS, OPT_E, OPT_H,
    OPT_I, OPT_SIZE, OPT_WINE, OPT_WINE_SCORED, RES_MASK, RES_SCORE, RES_SIZE, RES_TYPE,
)
from simsym.core.rng_nb import below_nb, shuffle_nb, stream_state_nb, SEATING_SALT
from simsym.core.search_nb import (
    G_TYPE, best_score_above_ws, best_symposion_hint_ws, best_symposion_ws, workspace_size,
)
from simsym.rules import (
    R_BONUS_ALL, R_BONUS_EQ, R_BONUS_STACKS, R_IO_BARS_MW, R_WINE_HI, R_WINE_LO, R_WINE_SCORED,
)
from simsym.strategies import (
    F_GREEDY, F_PATIENT, F_RANDOM, F_SPECIALIST, P_DISCARD_MAX, P_FALLBACK, P_FAMILY,
    P_FAVOURS, P_KEEP_THRESHOLD, P_LATE_RUN, P_THRESHOLD, P_TRADE, P_TRADE_CANDIDATES,
    P_TRADE_INACTIVE,
)

# Game rule parameters (int64 array ``gp``), built by simsym.engine.
G_HAND_SIZE = 0
G_DECK_RUNS = 1
G_TURN_CAP = 2
G_DISCARD_LIMIT = 3
G_TRADING = 4
G_BETWEEN = 5
G_UNEVEN = 6
G_MAX_TRADES = 7
G_KOMOS = 8
G_MAY_JOIN = 9
G_CHAIN = 10
G_SYMPOSIA = 11
G_SEATING = 12  # 0 mirror, 1 rotate, 2 random
G_PLAYERS = 13
G_COMP = 14  # then one a seat (6)
G_SIZE = G_COMP + 6

# Scalars of the game state (int64 array ``st``).
ST_NPILE = 0
ST_NDISC = 1
ST_RUNS = 2
ST_NEV = 3
ST_MAXEV = 4
ST_SIZE = 5

# Events: docs/game-engine.md section 7.
EV_TURN, EV_DRAW, EV_RUN_END, EV_DISCARD, EV_TRADE, EV_PLAY, EV_PLAYCARD, EV_JOIN, EV_SCORE, \
    EV_END = range(1, 11)

# Per seat and kind statistics of one game (``cs``), docs section 8.
C_OPENING, C_DRAWN, C_TRADED, C_HELD, C_PLAYED, C_POINTS, C_END, C_DISCARDED = range(8)
C_SIZE = 8

# Per-game row (``rows``): then P seat scores, P seat strategies, P symposia, 3P points by type.
R_DEAL = 0
R_TURNS = 1
R_STALLED = 2
R_TRADES = 3
R_SEATS = 4
R_FIXED = 4

ALL_TYPES = 7


@njit(cache=True)
def _log(ev, st, code, a, b, c, d):
    n = st[ST_NEV]
    if n < st[ST_MAXEV]:
        ev[n, 0] = code
        ev[n, 1] = a
        ev[n, 2] = b
        ev[n, 3] = c
        ev[n, 4] = d
        st[ST_NEV] = n + 1


@njit(cache=True)
def _draw(rng, st, pile, disc, dcount, gp, ev):
    """docs section 4: a kind, or -1 when nothing can be drawn."""
    if st[ST_NPILE] == 0:
        if st[ST_NDISC] == 0:
            return -1
        if st[ST_RUNS] == gp[G_DECK_RUNS]:
            return -1
        st[ST_RUNS] += 1
        if st[ST_RUNS] == gp[G_DECK_RUNS]:
            _log(ev, st, EV_RUN_END, st[ST_RUNS], 0, 0, 0)
            return -1
        n = st[ST_NDISC]
        for i in range(n):
            pile[i] = disc[i]
        for i in range(dcount.shape[0]):
            dcount[i] = 0
        st[ST_NDISC] = 0
        st[ST_NPILE] = n
        shuffle_nb(rng, pile, n)
        _log(ev, st, EV_RUN_END, st[ST_RUNS], n, 0, 0)
    st[ST_NPILE] -= 1
    return pile[st[ST_NPILE]]


@njit(cache=True)
def _hand_add(hands, hn, memo, p, k):
    """Insert kind k into seat p's hand, kept sorted (and bump the hand's version)."""
    memo[p, M_VER] += 1
    q = hn[p]
    while q > 0 and hands[p, q - 1] > k:
        hands[p, q] = hands[p, q - 1]
        q -= 1
    hands[p, q] = k
    hn[p] += 1


@njit(cache=True)
def _hand_remove(hands, hn, memo, p, k):
    """Remove one card of kind k from seat p's hand (it must be there); bump its version and
    forget the lower bound on its best play."""
    memo[p, M_VER] += 1
    memo[p, M_LB] = 0
    n = hn[p]
    q = 0
    while hands[p, q] != k:
        q += 1
    for r in range(q, n - 1):
        hands[p, r] = hands[p, r + 1]
    hn[p] = n - 1


@njit(cache=True)
def _count(hands, hn, p, k):
    c = 0
    for q in range(hn[p]):
        if hands[p, q] == k:
            c += 1
    return c


@njit(cache=True)
def _discard_cards(cards, n, disc, dcount, st):
    """Append n cards to the discard pile in sorted order (cards is sorted in place)."""
    _sort(cards, n)
    for i in range(n):
        disc[st[ST_NDISC]] = cards[i]
        st[ST_NDISC] += 1
        dcount[cards[i]] += 1


@njit(cache=True)
def _sort(a, n):
    for i in range(1, n):
        v = a[i]
        q = i
        while q > 0 and a[q - 1] > v:
            a[q] = a[q - 1]
            q -= 1
        a[q] = v


@njit(cache=True)
def _discard_order(kinds_list, n, keep, order):
    """order[:n] = positions 0..n-1 of kinds_list sorted by keep asc, then kind desc."""
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        v = order[i]
        q = i
        while q > 0 and _before(kinds_list[v], kinds_list[order[q - 1]], keep):
            order[q] = order[q - 1]
            q -= 1
        order[q] = v


@njit(cache=True)
def _before(k1, k2, keep):
    if keep[k1] != keep[k2]:
        return keep[k1] < keep[k2]
    return k1 > k2


@njit(cache=True)
def _own_types(sp):
    if sp[P_FAMILY] == F_SPECIALIST:
        return 1 << sp[P_FAVOURS]
    return ALL_TYPES


# Typed (non-literal) constants for calls into the search: numba compiles a function once per
# distinct argument type, and a literal argument (0, -1, 7) is a type of its own, so passing
# literals would compile the large search kernel once per literal seen (minutes, cold).
@njit(cache=True)
def _no_req():
    return np.int64(0)


@njit(cache=True)
def _no_card():
    return np.int64(-1)


@njit(cache=True)
def _all_types():
    return np.int64(ALL_TYPES)


@njit(cache=True)
def _search(hand, n, kinds, rules, req, types, res, sws):
    best_symposion_ws(hand, n, kinds, rules, req, types, res, sws)
    return res[RES_SCORE] if res[RES_TYPE] >= 0 else 0


@njit(cache=True)
def _hsearch(p, types, hands, hn, memo, kinds, rules, sws):
    """best(hand of seat p, types) with nothing required, memoised per seat and type mask on
    the hand's version (every hand mutation bumps it): returns the result row (read-only).

    A search with the seat's own types starts from the seat's lower bound on the score (a
    hint: the answer is the same, see best_symposion_hint_ws) and refreshes the bound."""
    r = memo[p, M_RES + types * RES_SIZE:M_RES + (types + 1) * RES_SIZE]
    if memo[p, M_CVER + types] != memo[p, M_VER]:
        if types == memo[p, M_OWN]:
            best_symposion_hint_ws(hands[p], hn[p], kinds, rules, _no_req(), types,
                                   memo[p, M_LB] - 1, r, sws)
            memo[p, M_LB] = _score(r)
        else:
            best_symposion_ws(hands[p], hn[p], kinds, rules, _no_req(), types, r, sws)
        memo[p, M_CVER + types] = memo[p, M_VER]
    return r


# Per-seat memo rows (``memo``, int64 (P, M_SIZE)): the hand's version (bumped by every
# mutation), the seat's own type mask, a lower bound on the score of its own best play (0 when
# unknown; every card removal resets it), then per type mask the version its cached search
# result is for, and the results.
M_VER = 0
M_OWN = 1
M_LB = 2
M_CVER = 3
M_RES = M_CVER + 8
M_SIZE = M_RES + 8 * RES_SIZE


@njit(cache=True)
def _memo_reset(memo, sparams, P):
    for p in range(P):
        memo[p, M_VER] = 0
        memo[p, M_OWN] = _own_types(sparams[p])
        memo[p, M_LB] = 0
        for t in range(8):
            memo[p, M_CVER + t] = -1


# Trade-candidate bounds (``bt``, int64): a header, then per (kind, group) a row of BT_W:
# usable in the group, best value of a usable wineless option (0 if none), number of usable
# options, their largest counted wine, then (counted wine, value) of each. Groups as in the
# search: Intellectual twice (without IO cards; with them but no WC/MW), Social, Hedonistic.
# Then per group a scratch block: the base value, the knapsack's wine cap, the knapsack row
# and, per counted wine of the card to add, the best knapsack value.
BT_ON = 0  # 1 when the bound may be used
BT_LO = 1  # 4 entries: per group
BT_HI = 5
BT_BONUS = 9
BT_MAXCW = 13  # largest counted wine of a usable option of any kind, per group
BT_TAB = 20
BT_W = 4 + 2 * MAX_OPTIONS
BT_WMAX = 64
BT_SCR = 2 + 2 * (BT_WMAX + 1)
BT_NEG = -(1 << 40)


@njit(cache=True)
def bound_table_size(K):
    return BT_TAB + K * 4 * BT_W + 4 * BT_SCR


@njit(cache=True)
def _group_type_bit(g):
    """The type-mask bit of a search group."""
    return 1 << G_TYPE[g]


@njit(cache=True)
def _scratch(bt, g):
    return bt.shape[0] - 4 * BT_SCR + g * BT_SCR


@njit(cache=True)
def bound_table_nb(kinds, rules, bt):
    """Fill ``bt`` (bound_table_size(K) entries) for the card table and rules."""
    K = kinds.shape[0]
    bt[:] = 0
    beq = rules[R_BONUS_EQ]
    ball = rules[R_BONUS_ALL]
    maxbonus = beq + ball if rules[R_BONUS_STACKS] != 0 else max(beq, ball)
    on = 1
    for g in range(4):
        t = G_TYPE[g]
        bt[BT_LO + g] = rules[R_WINE_LO + t]
        bt[BT_HI + g] = rules[R_WINE_HI + t]
        bt[BT_BONUS + g] = max(maxbonus, 0) if g == 2 else 0
        if bt[BT_HI + g] < 0:
            on = 0
    iobm = 1 if rules[R_IO_BARS_MW] != 0 else 0
    wine_scored = rules[R_WINE_SCORED] != 0
    for k in range(K):
        # The groups a kind may join and its options usable in each: the card table's derived
        # columns (simsym.cards.encode), as the search reads them.
        al = kinds[k, CF_AL + iobm]
        for g in range(4):
            row = BT_TAB + (k * 4 + g) * BT_W
            okm = kinds[k, CF_OKI] if g < 2 else (
                kinds[k, CF_OKH] if g == 3 else (1 << kinds[k, CF_NOPT]) - 1)
            no = 0
            nw = 0
            mcw = 0
            if (al >> g) & 1:
                for o in range(kinds[k, CF_NOPT]):
                    if not (okm >> o) & 1:
                        continue
                    base = CF_OPT + o * OPT_SIZE
                    pw = kinds[k, base + OPT_WINE]
                    sw = kinds[k, base + OPT_WINE_SCORED]
                    val = sw + kinds[k, base + OPT_I] + kinds[k, base + OPT_H] \
                        + kinds[k, base + OPT_E]
                    cw = sw if wine_scored else pw
                    if cw < 0:
                        on = 0
                    bt[row + 4 + 2 * no] = cw
                    bt[row + 5 + 2 * no] = val
                    no += 1
                    mcw = max(mcw, cw)
                    if cw == 0:
                        nw = max(nw, val)
            bt[row] = 1 if no > 0 else 0
            bt[row + 1] = nw
            bt[row + 2] = no
            bt[row + 3] = mcw
            bt[BT_MAXCW + g] = max(bt[BT_MAXCW + g], mcw)
    bt[BT_ON] = on


@njit(cache=True)
def _bound_prep(bt, H, m, types):
    """For the cards H[:m] and each group of ``types``: per counted wine cw of one more card,
    an upper bound on what the other cards add to a play holding it. A relaxation of the
    search: each card at most once at a usable option's value, the counted wine inside the
    group's window (a knapsack over the options with wine, every card otherwise counted at
    its best wineless value or left out), requirements, Vintage and the like ignored.
    False when the knapsack would be too wide (then no bound is used)."""
    for g in range(4):
        if not (types & _group_type_bit(g)):
            continue
        lo = bt[BT_LO + g]
        hi = bt[BT_HI + g]
        # Wine beyond what the cards and any one more card can reach never matters.
        cap = bt[BT_MAXCW + g]
        for q in range(m):
            cap += bt[BT_TAB + (H[q] * 4 + g) * BT_W + 3]
        cap = min(cap, hi)
        if cap > BT_WMAX:
            return False
        sc = _scratch(bt, g)
        dp = sc + 2  # best extra value (over the wineless ones) with counted wine exactly c
        bw = dp + BT_WMAX + 1
        bt[sc + 1] = cap
        bt[dp] = 0
        for c in range(1, cap + 1):
            bt[dp + c] = BT_NEG
        base = 0
        for q in range(m):
            row = BT_TAB + (H[q] * 4 + g) * BT_W
            if bt[row] == 0:
                continue
            nw = bt[row + 1]
            base += nw
            if bt[row + 3] == 0:
                continue
            no = bt[row + 2]
            for c in range(cap, 0, -1):
                b = bt[dp + c]
                for j in range(no):
                    cw = bt[row + 4 + 2 * j]
                    if cw > 0 and cw <= c and bt[dp + c - cw] > BT_NEG:
                        v = bt[dp + c - cw] + bt[row + 5 + 2 * j] - nw
                        if v > b:
                            b = v
                bt[dp + c] = b
        bt[sc] = base
        for cw in range(cap + 1):
            b = BT_NEG
            for c in range(max(0, lo - cw), min(hi - cw, cap) + 1):
                if bt[dp + c] > b:
                    b = bt[dp + c]
            bt[bw + cw] = b
    return True


@njit(cache=True)
def _bound_may_beat(bt, w, types, floor):
    """False when no play of the prepared cards plus w, holding w, can score above floor."""
    for g in range(4):
        if not (types & _group_type_bit(g)):
            continue
        row = BT_TAB + (w * 4 + g) * BT_W
        if bt[row] == 0:
            continue
        sc = _scratch(bt, g)
        cap = bt[sc + 1]
        bw = sc + 2 + BT_WMAX + 1
        top = floor - bt[sc] - bt[BT_BONUS + g]
        for j in range(bt[row + 2]):
            cw = bt[row + 4 + 2 * j]
            if cw > cap:  # more than the window allows (cap >= any card's wine otherwise)
                continue
            b = bt[bw + cw]
            if b > BT_NEG and b + bt[row + 5 + 2 * j] > top:
                return True
    return False


@njit(cache=True)
def _score(r):
    return r[RES_SCORE] if r[RES_TYPE] >= 0 else 0


@njit(cache=True)
def _rest(hand, n, mask, out):
    """Cards of the hand not in the play ``mask``; returns how many."""
    m = 0
    for q in range(n):
        if not (mask >> q) & 1:
            out[m] = hand[q]
            m += 1
    return m


@njit(cache=True)
def _without(H, n, k, out):
    """Copy H[:n] into out without its first card of kind k (out may be H itself, the copy
    only moves cards down); returns how many cards were copied."""
    m = 0
    skipped = False
    for q in range(n):
        if not skipped and H[q] == k:
            skipped = True
            continue
        out[m] = H[q]
        m += 1
    return m


@njit(cache=True)
def _card_gain(cs, p, k, col):
    cs[p, k, col] += 1
    cs[p, k, C_HELD] = 1


@njit(cache=True)
def _draw_to(p, source, rng, st, pile, disc, dcount, gp, ev, cs):
    c = _draw(rng, st, pile, disc, dcount, gp, ev)
    if c >= 0:
        _log(ev, st, EV_DRAW, p, c, source, 0)
        _card_gain(cs, p, c, C_OPENING if source == 0 else C_DRAWN)
    return c


@njit(cache=True)
def _attempt(i, excl, P, hands, hn, memo, kinds, rules, gp, sparams, keep, cand_order,
             copies, dcount, ev, st, cs, res, tmp, tmp2, tmp3, order, sws, bt):
    """One trade attempt by seat i (docs 6.5); True when a swap was made."""
    spi = sparams[i]
    ti = _own_types(spi)
    n = hn[i]
    H = hands[i]
    r0 = _hsearch(i, ti, hands, hn, memo, kinds, rules, sws)
    S = _score(r0)
    mask = r0[RES_MASK] if r0[RES_TYPE] >= 0 else 0
    nr = _rest(H, n, mask, tmp)
    if nr == 0:
        return False
    _discard_order(tmp, nr, keep[i], order)
    x = tmp[order[0]]
    x2 = tmp[order[1]] if nr >= 2 else -1
    # Candidates, best first; the first with the highest score after the swap.
    # A play of H - x + w without w is a play of H, so scores at most S: only plays holding w
    # can beat max(S, the best so far), and only a candidate that beats it matters (the
    # attempt fails unless the best exceeds S; a later candidate must be strictly better).
    # So each candidate is a search with w required and that floor: the same w* and S_w*;
    # a candidate whose relaxed upper bound (_bound_may_beat) does not exceed the floor is
    # passed over without a search, which also leaves w* and S_w* as they are.
    m = _without(H, n, x, tmp2)
    wbit = np.int64(1) << m
    use_bound = bt[BT_ON] != 0 and _bound_prep(bt, tmp2, m, ti)
    K = cand_order.shape[1]
    tc = spi[P_TRADE_CANDIDATES]
    found = 0
    wstar = _no_card()
    swstar = S
    for r in range(K):
        if found >= tc:
            break
        w = cand_order[i, r]
        if _count(hands, hn, i, w) > 0 or dcount[w] >= copies[w]:
            continue
        found += 1
        if use_bound and not _bound_may_beat(bt, w, ti, swstar):
            continue
        tmp2[m] = w  # H - x + w (w last: the search sorts its own copy)
        sw = best_score_above_ws(tmp2, m + 1, kinds, rules, wbit, ti, swstar, res, sws)
        if sw > swstar:
            swstar = sw
            wstar = w
    if wstar < 0:
        return False
    if _offer(i, excl, P, wstar, x, _no_card(), swstar, hands, hn, memo, kinds, rules,
              sparams, keep, res, tmp3, sws, ev, st, cs):
        return True
    if gp[G_UNEVEN] and x2 >= 0:
        m = _without(H, n, x, tmp2)
        m = _without(tmp2, m, x2, tmp2)
        tmp2[m] = wstar
        # best(H - x - x2 + w*) > S: plays without w* are plays of H (at most S).
        s2 = best_score_above_ws(tmp2, m + 1, kinds, rules, np.int64(1) << m, ti, S, res, sws)
        if s2 < 0:
            return False
        return _offer(i, excl, P, wstar, x, x2, s2, hands, hn, memo, kinds, rules, sparams,
                      keep, res, tmp3, sws, ev, st, cs)
    return False


@njit(cache=True)
def _offer(i, excl, P, wstar, x, x2, s_new, hands, hn, memo, kinds, rules, sparams, keep,
           res, tmp3, sws, ev, st, cs):
    """Seat i offers x (and x2 unless it is -1) for w*, to the other seats in turn order
    after it (but excl); the first that holds w*, trades and accepts gets the swap. s_new is
    seat i's best after it, exactly. True when a swap was made."""
    for step in range(1, P):
        h = (i + step) % P
        if h == excl:
            continue
        if _count(hands, hn, h, wstar) == 0 or not sparams[h, P_TRADE]:
            continue
        t2 = _accepts(h, wstar, x, x2, hands, hn, memo, kinds, rules, sparams, keep, res,
                      tmp3, sws)
        if t2 >= 0:
            _hand_remove(hands, hn, memo, i, x)
            if x2 >= 0:
                _hand_remove(hands, hn, memo, i, x2)
            _hand_add(hands, hn, memo, i, wstar)
            _hand_remove(hands, hn, memo, h, wstar)
            _hand_add(hands, hn, memo, h, x)
            if x2 >= 0:
                _hand_add(hands, hn, memo, h, x2)
            memo[i, M_LB] = s_new  # best_i of the new hand, exactly
            memo[h, M_LB] = t2  # best_h of the new hand, exactly
            _log(ev, st, EV_TRADE, i, h, x, wstar)
            if x2 >= 0:
                _log(ev, st, EV_TRADE, i, h, x2, _no_card())
            _card_gain(cs, i, wstar, C_TRADED)
            _card_gain(cs, h, x, C_TRADED)
            if x2 >= 0:
                _card_gain(cs, h, x2, C_TRADED)
            return True
    return False


@njit(cache=True)
def _accepts(h, w, x, x2, hands, hn, memo, kinds, rules, sparams, keep, res, tmp,
             sws):
    """Whether seat h accepts: T' (>= 0, its best after the swap) when it does, else -1."""
    sph = sparams[h]
    th = _own_types(sph)
    n = hn[h]
    H = hands[h]
    T = _score(_hsearch(h, th, hands, hn, memo, kinds, rules, sws))
    m = _without(H, n, w, tmp)
    tmp[m] = x
    m += 1
    gift = keep[h, x]
    if x2 >= 0:
        tmp[m] = x2
        m += 1
        gift += keep[h, x2]
    # Every outcome needs T' >= T: with T > 0 a search for plays above T - 1 gives T' exactly
    # when T' >= T (and -1, a refusal, when T' < T).
    if T > 0:
        T2 = best_score_above_ws(tmp, m, kinds, rules, _no_req(), th, T - 1, res, sws)
        if T2 < 0:
            return -1
    else:
        T2 = _search(tmp, m, kinds, rules, _no_req(), th, res, sws)
    if sph[P_FAMILY] == F_RANDOM:
        return T2 if T2 >= T else -1
    return T2 if T2 > T or (T2 == T and gift >= keep[h, w]) else -1


@njit(cache=True)
def play_game_nb(g, seed, kinds, rules, gp, copies, base_strat, strat_params, keep_table,
                 cand_table, ev, maxev, cs, row, ws):
    """Play game ``g``; fill ``cs`` (P, K, C_SIZE), ``row`` and (if maxev > 0) the events.

    ``ws`` is an int64 work array of at least 12 * D + 64 entries."""
    sws, memo, bt = _game_scratch(kinds, rules, gp, copies)
    return _play_game(g, seed, kinds, rules, gp, copies, base_strat, strat_params, keep_table,
                      cand_table, ev, maxev, cs, row, ws, sws, memo, bt)


@njit(cache=True)
def _game_scratch(kinds, rules, gp, copies):
    """The search workspace, the per-seat memo and the trade bound table (reusable)."""
    D = 0
    for k in range(copies.shape[0]):
        D += copies[k]
    sws = np.zeros(workspace_size(D + 8), np.int64)
    memo = np.zeros((gp[G_PLAYERS], M_SIZE), np.int64)
    bt = np.zeros(bound_table_size(kinds.shape[0]), np.int64)
    bound_table_nb(kinds, rules, bt)
    return sws, memo, bt


@njit(cache=True)
def _play_game(g, seed, kinds, rules, gp, copies, base_strat, strat_params, keep_table,
               cand_table, ev, maxev, cs, row, ws, sws, memo, bt):
    P = gp[G_PLAYERS]
    K = kinds.shape[0]
    D = 0
    for k in range(K):
        D += copies[k]
    seating = gp[G_SEATING]
    deal = g // P if seating == 1 else g
    # Seats' strategies (docs 2).
    seat_strat = np.empty(P, np.int64)
    for i in range(P):
        seat_strat[i] = base_strat[i]
    if seating == 1:
        r = g % P
        for i in range(P):
            seat_strat[i] = base_strat[(i + r) % P]
    elif seating == 2:
        srng = np.empty(1, np.uint64)
        srng[0] = stream_state_nb(np.uint64(seed) ^ np.uint64(SEATING_SALT), g)
        shuffle_nb(srng, seat_strat, P)
    sparams = np.empty((P, strat_params.shape[1]), np.int64)
    keep = np.empty((P, K), np.int64)
    cand = np.empty((P, K), np.int64)
    for i in range(P):
        sparams[i] = strat_params[seat_strat[i]]
        keep[i] = keep_table[seat_strat[i]]
        cand[i] = cand_table[seat_strat[i]]

    rng = np.empty(1, np.uint64)
    rng[0] = stream_state_nb(seed, deal)
    pile = ws[0:D]
    disc = ws[D:2 * D]
    tmp = ws[2 * D:3 * D + 8]
    tmp2 = ws[3 * D + 8:4 * D + 16]
    tmp3 = ws[4 * D + 16:5 * D + 24]
    order = ws[5 * D + 24:6 * D + 32]
    inplay = ws[6 * D + 32:7 * D + 40]
    queue = ws[7 * D + 40:9 * D + 48]
    st = np.zeros(ST_SIZE, np.int64)
    st[ST_MAXEV] = maxev
    dcount = np.zeros(K, np.int64)
    hands = np.empty((P, D + 8), np.int64)
    hn = np.zeros(P, np.int64)
    score = np.zeros(P, np.int64)
    symposia = np.zeros(P, np.int64)
    by_type = np.zeros((P, 3), np.int64)
    res = np.zeros(RES_SIZE, np.int64)
    # The per-seat memo of hand searches (docs: every decision is a function of the hand's
    # multiset; the memo is keyed on a version every mutation bumps).
    _memo_reset(memo, sparams, P)
    cs[:, :, :] = 0

    n = 0
    for k in range(K):
        for _ in range(copies[k]):
            pile[n] = k
            n += 1
    shuffle_nb(rng, pile, D)
    st[ST_NPILE] = D
    for i in range(P):
        score[i] = gp[G_COMP + i]
    for _ in range(gp[G_HAND_SIZE]):
        for i in range(P):
            c = _draw_to(i, 0, rng, st, pile, disc, dcount, gp, ev, cs)
            if c >= 0:
                _hand_add(hands, hn, memo, i, c)

    turn = 0
    stalled = 0
    trades = 0
    while True:
        if turn == gp[G_TURN_CAP]:
            stalled = 1
            _log(ev, st, EV_END, 1, turn, 0, 0)
            break
        if st[ST_RUNS] == gp[G_DECK_RUNS]:
            any_legal = False
            for i in range(P):
                # A known positive bound on the seat's own best play (of its own types, a
                # subset of all) means a legal play.
                if memo[i, M_LB] > 0 or _hsearch(i, _all_types(), hands, hn, memo, kinds, rules,
                                                 sws)[RES_TYPE] >= 0:
                    any_legal = True
                    break
            if not any_legal:
                _log(ev, st, EV_END, 0, turn, 0, 0)
                break
        a = turn % P
        sp = sparams[a]
        fam = sp[P_FAMILY]
        _log(ev, st, EV_TURN, turn, a, 0, 0)
        # Amphorae.
        while hn[a] < gp[G_HAND_SIZE]:
            c = _draw_to(a, 1, rng, st, pile, disc, dcount, gp, ev, cs)
            if c < 0:
                break
            _hand_add(hands, hn, memo, a, c)
        # Symposiarch: discards, then redraws.
        nd = 0
        limit = min(sp[P_DISCARD_MAX], gp[G_DISCARD_LIMIT])
        if fam == F_RANDOM:
            nwant = below_nb(rng, limit + 1)
            for _ in range(nwant):
                if hn[a] == 0:
                    break
                c = hands[a, below_nb(rng, hn[a])]
                _hand_remove(hands, hn, memo, a, c)
                inplay[nd] = c
                nd += 1
        else:
            r0 = _hsearch(a, _own_types(sp), hands, hn, memo, kinds, rules, sws)
            mask = r0[RES_MASK] if r0[RES_TYPE] >= 0 else 0
            sd = _score(r0)
            nr = _rest(hands[a], hn[a], mask, tmp)
            _discard_order(tmp, nr, keep[a], order)
            for j in range(min(limit, nr)):
                c = tmp[order[j]]
                if keep[a, c] >= sp[P_KEEP_THRESHOLD]:
                    break
                inplay[nd] = c
                nd += 1
            for j in range(nd):
                _hand_remove(hands, hn, memo, a, inplay[j])
            # The discards are all outside the best play, which the hand still holds.
            memo[a, M_LB] = sd
        _sort(inplay, nd)
        for j in range(nd):
            _log(ev, st, EV_DISCARD, a, inplay[j], 1, 0)
            cs[a, inplay[j], C_DISCARDED] += 1
        _discard_cards(inplay, nd, disc, dcount, st)
        for _ in range(nd):
            c = _draw_to(a, 2, rng, st, pile, disc, dcount, gp, ev, cs)
            if c >= 0:
                _hand_add(hands, hn, memo, a, c)
        # Trading (docs 6.5).
        if gp[G_TRADING]:
            made = 0
            if sp[P_TRADE] and fam != F_RANDOM:
                while made < gp[G_MAX_TRADES]:
                    if not _attempt(a, _no_card(), P, hands, hn, memo, kinds, rules, gp,
                                    sparams, keep, cand, copies, dcount, ev, st, cs, res, tmp,
                                    tmp2, tmp3, order, sws, bt):
                        break
                    made += 1
            if gp[G_BETWEEN]:
                for step in range(1, P):
                    if made >= gp[G_MAX_TRADES]:
                        break
                    j = (a + step) % P
                    if sparams[j, P_TRADE] and sparams[j, P_TRADE_INACTIVE]:
                        if _attempt(j, a, P, hands, hn, memo, kinds, rules, gp,
                                    sparams, keep, cand, copies, dcount, ev, st, cs, res, tmp,
                                    tmp2, tmp3, order, sws, bt):
                            made += 1
            trades += made
        # Symposion (docs 6.3).
        ptype = -1
        pmask = np.int64(0)
        pscore = 0
        if gp[G_SYMPOSIA] > 0:
            H = hands[a]
            nh = hn[a]
            if fam == F_GREEDY:
                r0 = _hsearch(a, _all_types(), hands, hn, memo, kinds, rules, sws)
                ptype = r0[RES_TYPE]
                pmask = r0[RES_MASK]
                pscore = r0[RES_SCORE]
            elif fam == F_PATIENT:
                r0 = _hsearch(a, _all_types(), hands, hn, memo, kinds, rules, sws)
                if r0[RES_TYPE] >= 0 and (r0[RES_SCORE] >= sp[P_THRESHOLD] or st[ST_RUNS] >= min(
                        sp[P_LATE_RUN], gp[G_DECK_RUNS])):
                    ptype = r0[RES_TYPE]
                    pmask = r0[RES_MASK]
                    pscore = r0[RES_SCORE]
            elif fam == F_SPECIALIST:
                r0 = _hsearch(a, 1 << sp[P_FAVOURS], hands, hn, memo, kinds, rules,
                              sws)
                if r0[RES_TYPE] < 0 and (sp[P_FALLBACK] or st[ST_RUNS] == gp[G_DECK_RUNS]):
                    r0 = _hsearch(a, _all_types(), hands, hn, memo, kinds, rules, sws)
                ptype = r0[RES_TYPE]
                pmask = r0[RES_MASK]
                pscore = r0[RES_SCORE]
            else:
                r0 = _hsearch(a, _all_types(), hands, hn, memo, kinds, rules, sws)
                if r0[RES_TYPE] >= 0:
                    t0 = below_nb(rng, 3)
                    for dt in range(3):
                        t = (t0 + dt) % 3
                        r1 = _hsearch(a, 1 << t, hands, hn, memo, kinds, rules, sws)
                        if r1[RES_TYPE] >= 0:
                            pos = below_nb(rng, nh)
                            ptype = r1[RES_TYPE]
                            pmask = r1[RES_MASK]
                            pscore = r1[RES_SCORE]
                            _search(H, nh, kinds, rules, np.int64(1) << pos, 1 << t, res, sws)
                            if res[RES_TYPE] >= 0:
                                ptype = res[RES_TYPE]
                                pmask = res[RES_MASK]
                                pscore = res[RES_SCORE]
                            break
        if ptype >= 0:
            nin = 0
            for q in range(hn[a]):
                if (pmask >> q) & 1:
                    inplay[nin] = hands[a, q]
                    nin += 1
            for j in range(nin):
                _hand_remove(hands, hn, memo, a, inplay[j])
            _log(ev, st, EV_PLAY, a, ptype, 0, 0)
            for j in range(nin):
                _log(ev, st, EV_PLAYCARD, a, inplay[j], 0, 0)
            nq = 0
            for j in range(nin):
                for _ in range(kinds[inplay[j], CF_DRAWS]):
                    queue[nq] = inplay[j]
                    nq += 1
            qi = 0
            tmask = 1 << ptype
            # best(in_play, type fixed, all required): the play is the best of its own cards
            # in its type (the search is exact), so it starts as the play's score; a join
            # makes it the score of the play with the card.
            now = pscore
            while qi < nq:
                qk = queue[qi]
                qi += 1
                c = _draw_to(a, 3, rng, st, pile, disc, dcount, gp, ev, cs)
                if c < 0:
                    continue
                joined = False
                if gp[G_MAY_JOIN] and kinds[qk, CF_DRAW_USABLE]:
                    # `with` holds c and beats `now` exactly when some play of in_play + c
                    # holding all of it scores above `now` (the only play without c is
                    # in_play itself, scoring `now`).
                    inplay[nin] = c
                    wsc = best_score_above_ws(inplay, nin + 1, kinds, rules,
                                              (np.int64(1) << (nin + 1)) - 1, tmask, now, res,
                                              sws)
                    if wsc >= 0:
                        now = wsc
                        joined = True
                        nin += 1
                        _log(ev, st, EV_JOIN, a, c, 0, 0)
                        if gp[G_CHAIN]:
                            for _ in range(kinds[c, CF_DRAWS]):
                                queue[nq] = c
                                nq += 1
                if not joined:
                    _hand_add(hands, hn, memo, a, c)
            final = now
            score[a] += final
            symposia[a] += 1
            by_type[a, ptype] += final
            _log(ev, st, EV_SCORE, a, final, 0, 0)
            for j in range(nin):
                cs[a, inplay[j], C_PLAYED] += 1
                cs[a, inplay[j], C_POINTS] += final
            _discard_cards(inplay, nin, disc, dcount, st)
        # Komos (docs 6.4).
        need = hn[a] - gp[G_KOMOS]
        if need > 0:
            nd = 0
            if fam == F_RANDOM:
                for _ in range(need):
                    c = hands[a, below_nb(rng, hn[a])]
                    _hand_remove(hands, hn, memo, a, c)
                    inplay[nd] = c
                    nd += 1
            else:
                r0 = _hsearch(a, _own_types(sp), hands, hn, memo, kinds, rules, sws)
                mask = r0[RES_MASK] if r0[RES_TYPE] >= 0 else 0
                nr = _rest(hands[a], hn[a], mask, tmp)
                _discard_order(tmp, nr, keep[a], order)
                for j in range(min(need, nr)):
                    inplay[nd] = tmp[order[j]]
                    nd += 1
                if nd < need:
                    nb = 0
                    for q in range(hn[a]):
                        if (mask >> q) & 1:
                            tmp2[nb] = hands[a, q]
                            nb += 1
                    _discard_order(tmp2, nb, keep[a], order)
                    for j in range(need - nd):
                        inplay[nd] = tmp2[order[j]]
                        nd += 1
                for j in range(nd):
                    _hand_remove(hands, hn, memo, a, inplay[j])
            _sort(inplay, nd)
            for j in range(nd):
                _log(ev, st, EV_DISCARD, a, inplay[j], 2, 0)
                cs[a, inplay[j], C_DISCARDED] += 1
            _discard_cards(inplay, nd, disc, dcount, st)
        turn += 1

    for i in range(P):
        for q in range(hn[i]):
            cs[i, hands[i, q], C_END] += 1
    row[R_DEAL] = deal
    row[R_TURNS] = turn
    row[R_STALLED] = stalled
    row[R_TRADES] = trades
    for i in range(P):
        row[R_FIXED + i] = score[i]
        row[R_FIXED + P + i] = seat_strat[i]
        row[R_FIXED + 2 * P + i] = symposia[i]
        for t in range(3):
            row[R_FIXED + 3 * P + 3 * i + t] = by_type[i, t]
    return st[ST_NEV]


# Aggregated per (strategy, kind) card counts of a chunk (``agg``), summed over player-games.
A_OH_N = 0  # player-games where the card was in the opening hand
A_OH_W = 1  # ... and their win units (60 a whole win)
A_GD_N = 2  # drawn later and not in the opening hand
A_GD_W = 3
A_GIH_N = 4  # held at any time
A_GIH_W = 5
A_PLAYED = 6  # times played
A_PLAYED_N = 7  # player-games where played at least once
A_POINTS = 8  # points of the Symposia it was played in
A_END = 9  # held at game end (count)
A_DISCARDED = 10  # discarded unplayed (count)
A_TRADED = 11  # received by trade (count)
A_HELD_UNPLAYED_N = 12  # player-games where held but never played ("dead")
A_SIZE = 13
WIN_UNITS = 60  # divisible by 1..6: tied wins stay whole numbers


@njit(cache=True)
def win_units_nb(scores, P, out):
    best = scores[0]
    for i in range(1, P):
        best = max(best, scores[i])
    k = 0
    for i in range(P):
        if scores[i] == best:
            k += 1
    for i in range(P):
        out[i] = WIN_UNITS // k if scores[i] == best else 0


@njit(cache=True)
def accumulate_nb(cs, row, P, agg, scores, units):
    """Add one game's per-seat card stats ``cs`` to the per-strategy aggregate ``agg``."""
    K = cs.shape[1]
    for i in range(P):
        scores[i] = row[R_FIXED + i]
    win_units_nb(scores, P, units)
    for i in range(P):
        s = row[R_FIXED + P + i]
        u = units[i]
        for k in range(K):
            c = cs[i, k]
            if c[C_HELD] == 0:
                continue
            a = agg[s, k]
            a[A_GIH_N] += 1
            a[A_GIH_W] += u
            if c[C_OPENING] > 0:
                a[A_OH_N] += 1
                a[A_OH_W] += u
            elif c[C_DRAWN] > 0:
                a[A_GD_N] += 1
                a[A_GD_W] += u
            a[A_PLAYED] += c[C_PLAYED]
            if c[C_PLAYED] > 0:
                a[A_PLAYED_N] += 1
            else:
                a[A_HELD_UNPLAYED_N] += 1
            a[A_POINTS] += c[C_POINTS]
            a[A_END] += c[C_END]
            a[A_DISCARDED] += c[C_DISCARDED]
            a[A_TRADED] += c[C_TRADED]


@njit(cache=True)
def run_chunk_nb(g0, g1, seed, kinds, rules, gp, copies, base_strat, strat_params, keep_table,
                 cand_table, rows, agg, progress):
    """Play games g0..g1-1: per-game rows into ``rows``, card counts added into ``agg``."""
    P = gp[G_PLAYERS]
    K = kinds.shape[0]
    D = 0
    for k in range(K):
        D += copies[k]
    ws = np.zeros(12 * D + 64, np.int64)
    sws, memo, bt = _game_scratch(kinds, rules, gp, copies)
    ev = np.zeros((1, 5), np.int64)
    cs = np.zeros((P, K, C_SIZE), np.int64)
    units = np.zeros(P, np.int64)
    scores = np.zeros(P, np.int64)
    for g in range(g0, g1):
        row = rows[g - g0]
        _play_game(g, seed, kinds, rules, gp, copies, base_strat, strat_params, keep_table,
                   cand_table, ev, np.int64(0), cs, row, ws, sws, memo, bt)
        accumulate_nb(cs, row, P, agg, scores, units)
        progress[0] += 1
