"""Whole games in numba: docs/game-engine.md, implemented over flat integer arrays.

One call of :func:`run_chunk_nb` plays games ``g0 .. g1-1`` and writes per-game rows and
aggregate counts into arrays the caller allocated. Game ``g`` depends on (seed, g) alone.
The plain-Python statement of the same contract is simsym/reference/game.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simsym.core.enums import (
    CF_DRAW_USABLE, CF_DRAWS, RES_MASK, RES_SCORE, RES_SIZE, RES_TYPE,
)
from simsym.core.rng_nb import below_nb, shuffle_nb, stream_state_nb, SEATING_SALT
from simsym.core.search_nb import best_symposion_nb
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
def _hand_add(hands, hn, p, k):
    """Insert kind k into seat p's hand, kept sorted."""
    q = hn[p]
    while q > 0 and hands[p, q - 1] > k:
        hands[p, q] = hands[p, q - 1]
        q -= 1
    hands[p, q] = k
    hn[p] += 1


@njit(cache=True)
def _hand_remove(hands, hn, p, k):
    """Remove one card of kind k from seat p's hand (it must be there)."""
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


@njit(cache=True)
def _search(hand, n, kinds, rules, req, types, res):
    best_symposion_nb(hand, n, kinds, rules, req, types, res)
    return res[RES_SCORE] if res[RES_TYPE] >= 0 else 0


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
def _attempt(i, excl, P, hands, hn, kinds, rules, gp, sparams, keep, cand_order, copies,
             dcount, ev, st, cs, res, tmp, tmp2, tmp3, order):
    """One trade attempt by seat i (docs 6.5); True when a swap was made."""
    spi = sparams[i]
    ti = _own_types(spi)
    n = hn[i]
    H = hands[i]
    S = _search(H, n, kinds, rules, 0, ti, res)
    mask = res[RES_MASK] if res[RES_TYPE] >= 0 else 0
    nr = _rest(H, n, mask, tmp)
    if nr == 0:
        return False
    _discard_order(tmp, nr, keep[i], order)
    x = tmp[order[0]]
    x2 = tmp[order[1]] if nr >= 2 else -1
    # Candidates, best first; the first with the highest score after the swap.
    K = cand_order.shape[1]
    tc = spi[P_TRADE_CANDIDATES]
    found = 0
    wstar = -1
    swstar = -1
    for r in range(K):
        if found >= tc:
            break
        w = cand_order[i, r]
        if _count(hands, hn, i, w) > 0 or dcount[w] >= copies[w]:
            continue
        found += 1
        # H - x + w, sorted.
        m = 0
        skipped = False
        for q in range(n):
            if not skipped and H[q] == x:
                skipped = True
                continue
            tmp2[m] = H[q]
            m += 1
        tmp2[m] = w
        m += 1
        sw = _search(tmp2, m, kinds, rules, 0, ti, res)
        if sw > swstar:
            swstar = sw
            wstar = w
    if wstar < 0 or swstar <= S:
        return False
    for step in range(1, P):
        h = (i + step) % P
        if h == excl:
            continue
        if _count(hands, hn, h, wstar) == 0 or not sparams[h, P_TRADE]:
            continue
        if _accepts(h, wstar, x, -1, hands, hn, kinds, rules, sparams, keep, res, tmp3):
            _hand_remove(hands, hn, i, x)
            _hand_add(hands, hn, i, wstar)
            _hand_remove(hands, hn, h, wstar)
            _hand_add(hands, hn, h, x)
            _log(ev, st, EV_TRADE, i, h, x, wstar)
            _card_gain(cs, i, wstar, C_TRADED)
            _card_gain(cs, h, x, C_TRADED)
            return True
    if gp[G_UNEVEN] and x2 >= 0:
        m = 0
        sx = False
        sx2 = False
        for q in range(n):
            if not sx and H[q] == x:
                sx = True
                continue
            if not sx2 and H[q] == x2:
                sx2 = True
                continue
            tmp2[m] = H[q]
            m += 1
        tmp2[m] = wstar
        m += 1
        if _search(tmp2, m, kinds, rules, 0, ti, res) <= S:
            return False
        for step in range(1, P):
            h = (i + step) % P
            if h == excl:
                continue
            if _count(hands, hn, h, wstar) == 0 or not sparams[h, P_TRADE]:
                continue
            if _accepts(h, wstar, x, x2, hands, hn, kinds, rules, sparams, keep, res, tmp3):
                _hand_remove(hands, hn, i, x)
                _hand_remove(hands, hn, i, x2)
                _hand_add(hands, hn, i, wstar)
                _hand_remove(hands, hn, h, wstar)
                _hand_add(hands, hn, h, x)
                _hand_add(hands, hn, h, x2)
                _log(ev, st, EV_TRADE, i, h, x, wstar)
                _log(ev, st, EV_TRADE, i, h, x2, -1)
                _card_gain(cs, i, wstar, C_TRADED)
                _card_gain(cs, h, x, C_TRADED)
                _card_gain(cs, h, x2, C_TRADED)
                return True
    return False


@njit(cache=True)
def _accepts(h, w, x, x2, hands, hn, kinds, rules, sparams, keep, res, tmp):
    sph = sparams[h]
    th = _own_types(sph)
    n = hn[h]
    H = hands[h]
    T = _search(H, n, kinds, rules, 0, th, res)
    m = 0
    skipped = False
    for q in range(n):
        if not skipped and H[q] == w:
            skipped = True
            continue
        tmp[m] = H[q]
        m += 1
    tmp[m] = x
    m += 1
    gift = keep[h, x]
    if x2 >= 0:
        tmp[m] = x2
        m += 1
        gift += keep[h, x2]
    _sort(tmp, m)
    T2 = _search(tmp, m, kinds, rules, 0, th, res)
    if sph[P_FAMILY] == F_RANDOM:
        return T2 >= T
    return T2 > T or (T2 == T and gift >= keep[h, w])


@njit(cache=True)
def play_game_nb(g, seed, kinds, rules, gp, copies, base_strat, strat_params, keep_table,
                 cand_table, ev, maxev, cs, row, ws):
    """Play game ``g``; fill ``cs`` (P, K, C_SIZE), ``row`` and (if maxev > 0) the events.

    ``ws`` is an int64 work array of at least 12 * D + 64 entries."""
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
                _hand_add(hands, hn, i, c)

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
                _search(hands[i], hn[i], kinds, rules, 0, ALL_TYPES, res)
                if res[RES_TYPE] >= 0:
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
            _hand_add(hands, hn, a, c)
        # Symposiarch: discards, then redraws.
        nd = 0
        limit = min(sp[P_DISCARD_MAX], gp[G_DISCARD_LIMIT])
        if fam == F_RANDOM:
            nwant = below_nb(rng, limit + 1)
            for _ in range(nwant):
                if hn[a] == 0:
                    break
                c = hands[a, below_nb(rng, hn[a])]
                _hand_remove(hands, hn, a, c)
                inplay[nd] = c
                nd += 1
        else:
            _search(hands[a], hn[a], kinds, rules, 0, _own_types(sp), res)
            mask = res[RES_MASK] if res[RES_TYPE] >= 0 else 0
            nr = _rest(hands[a], hn[a], mask, tmp)
            _discard_order(tmp, nr, keep[a], order)
            for j in range(min(limit, nr)):
                c = tmp[order[j]]
                if keep[a, c] >= sp[P_KEEP_THRESHOLD]:
                    break
                inplay[nd] = c
                nd += 1
            for j in range(nd):
                _hand_remove(hands, hn, a, inplay[j])
        _sort(inplay, nd)
        for j in range(nd):
            _log(ev, st, EV_DISCARD, a, inplay[j], 1, 0)
            cs[a, inplay[j], C_DISCARDED] += 1
        _discard_cards(inplay, nd, disc, dcount, st)
        for _ in range(nd):
            c = _draw_to(a, 2, rng, st, pile, disc, dcount, gp, ev, cs)
            if c >= 0:
                _hand_add(hands, hn, a, c)
        # Trading (docs 6.5).
        if gp[G_TRADING]:
            made = 0
            if sp[P_TRADE] and fam != F_RANDOM:
                while made < gp[G_MAX_TRADES]:
                    if not _attempt(a, -1, P, hands, hn, kinds, rules, gp, sparams, keep, cand,
                                    copies, dcount, ev, st, cs, res, tmp, tmp2, tmp3, order):
                        break
                    made += 1
            if gp[G_BETWEEN]:
                for step in range(1, P):
                    if made >= gp[G_MAX_TRADES]:
                        break
                    j = (a + step) % P
                    if sparams[j, P_TRADE] and sparams[j, P_TRADE_INACTIVE]:
                        if _attempt(j, a, P, hands, hn, kinds, rules, gp, sparams, keep, cand,
                                    copies, dcount, ev, st, cs, res, tmp, tmp2, tmp3, order):
                            made += 1
            trades += made
        # Symposion (docs 6.3).
        ptype = -1
        pmask = np.int64(0)
        if gp[G_SYMPOSIA] > 0:
            H = hands[a]
            nh = hn[a]
            if fam == F_GREEDY:
                _search(H, nh, kinds, rules, 0, ALL_TYPES, res)
                ptype = res[RES_TYPE]
                pmask = res[RES_MASK]
            elif fam == F_PATIENT:
                sc = _search(H, nh, kinds, rules, 0, ALL_TYPES, res)
                if res[RES_TYPE] >= 0 and (sc >= sp[P_THRESHOLD] or st[ST_RUNS] >= min(
                        sp[P_LATE_RUN], gp[G_DECK_RUNS])):
                    ptype = res[RES_TYPE]
                    pmask = res[RES_MASK]
            elif fam == F_SPECIALIST:
                _search(H, nh, kinds, rules, 0, 1 << sp[P_FAVOURS], res)
                if res[RES_TYPE] < 0 and (sp[P_FALLBACK] or st[ST_RUNS] == gp[G_DECK_RUNS]):
                    _search(H, nh, kinds, rules, 0, ALL_TYPES, res)
                ptype = res[RES_TYPE]
                pmask = res[RES_MASK]
            else:
                _search(H, nh, kinds, rules, 0, ALL_TYPES, res)
                if res[RES_TYPE] >= 0:
                    t0 = below_nb(rng, 3)
                    for dt in range(3):
                        t = (t0 + dt) % 3
                        _search(H, nh, kinds, rules, 0, 1 << t, res)
                        if res[RES_TYPE] >= 0:
                            pos = below_nb(rng, nh)
                            ptype = res[RES_TYPE]
                            pmask = res[RES_MASK]
                            _search(H, nh, kinds, rules, np.int64(1) << pos, 1 << t, res)
                            if res[RES_TYPE] >= 0:
                                ptype = res[RES_TYPE]
                                pmask = res[RES_MASK]
                            break
        if ptype >= 0:
            nin = 0
            for q in range(hn[a]):
                if (pmask >> q) & 1:
                    inplay[nin] = hands[a, q]
                    nin += 1
            for j in range(nin):
                _hand_remove(hands, hn, a, inplay[j])
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
            while qi < nq:
                qk = queue[qi]
                qi += 1
                c = _draw_to(a, 3, rng, st, pile, disc, dcount, gp, ev, cs)
                if c < 0:
                    continue
                joined = False
                if gp[G_MAY_JOIN] and kinds[qk, CF_DRAW_USABLE]:
                    req = (np.int64(1) << nin) - 1
                    now = _search(inplay, nin, kinds, rules, req, tmask, res)
                    inplay[nin] = c
                    _search(inplay, nin + 1, kinds, rules, req, tmask, res)
                    if res[RES_TYPE] >= 0 and (res[RES_MASK] >> nin) & 1 \
                            and res[RES_SCORE] > now:
                        joined = True
                        nin += 1
                        _log(ev, st, EV_JOIN, a, c, 0, 0)
                        if gp[G_CHAIN]:
                            for _ in range(kinds[c, CF_DRAWS]):
                                queue[nq] = c
                                nq += 1
                if not joined:
                    _hand_add(hands, hn, a, c)
            final = _search(inplay, nin, kinds, rules, (np.int64(1) << nin) - 1, tmask, res)
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
                    _hand_remove(hands, hn, a, c)
                    inplay[nd] = c
                    nd += 1
            else:
                _search(hands[a], hn[a], kinds, rules, 0, _own_types(sp), res)
                mask = res[RES_MASK] if res[RES_TYPE] >= 0 else 0
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
                    _hand_remove(hands, hn, a, inplay[j])
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
    ev = np.zeros((1, 5), np.int64)
    cs = np.zeros((P, K, C_SIZE), np.int64)
    units = np.zeros(P, np.int64)
    scores = np.zeros(P, np.int64)
    for g in range(g0, g1):
        row = rows[g - g0]
        play_game_nb(g, seed, kinds, rules, gp, copies, base_strat, strat_params, keep_table,
                     cand_table, ev, 0, cs, row, ws)
        accumulate_nb(cs, row, P, agg, scores, units)
        progress[0] += 1
