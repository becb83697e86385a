"""The `lookahead` and `learned` players in the numba engine: docs/game-engine.md 6.6, 6.7.

simsym/reference/lookahead.py states the same procedures readably; the two make the same
decisions, game for game (tests/engines/test_lookahead_engines.py, tests/engines/test_learned.py).

* The parts that do not depend on the game state: the rollout streams
  (:func:`rollout_stream_nb`), the determinization of the cards a seat cannot see
  (:func:`determinize_nb`), the value of a finished rollout and the halving schedule.
* The player: :func:`play_lookahead_nb` plays a game as game_nb.play_until does, phase by
  phase, but when a lookahead seat is to choose its Symposiarch discards, its Symposion or its
  Komos discards it lists the candidates (:func:`_symposiarch`, :func:`_symposion`,
  :func:`_komos`) and searches (:func:`_decide`): per iteration one determinized copy of the
  state (``Look.det``), shared by every surviving candidate, each applied to a copy of that
  (``Look.sim``) and played to the end with game_nb.play_until; successive halving ranks them.
* The learned player (:func:`_learned`) lists the same candidates and scores each with its
  model over the candidate's features (:func:`_features`; simsym.learned.features names
  them), without rollouts. With labelling on (simsym.studies.train) its decisions are also
  searched, and the candidates' features and rollout values kept (:func:`_label`).
* Trade offers: the trade code (game_nb._ask_others, docs 6.5 steps 5, 6) stops with the
  query in the state (``GS.LA_PEND``) when it asks a lookahead or learned seat; the loop
  decides the answer (two candidates: greedy's answer and the other) and runs the attempt
  again, which had changed nothing, with the answers given so far (``GS.LA_F0 ...``,
  game_nb.answer_query). game_nb.play_until, which has neither search nor model, answers
  such a query itself with greedy's answer (a table of such seats played there from Python).

Why the trade answer is a parked query, not a call: the answer is a search whose rollouts
play the game loop, and the trade is inside that loop, so a call would have the compiled game
loop reach itself again while numba compiles it. numba compiles that (it infers the types
through the recursion), but such code cannot be cached: loaded from numba's cache in a new
process it crashes (a known numba bug, reproduced with numba 0.68: "Setting cache=True with a
recursive function results in Segmentation fault"). It does so as well when the function is
reached again with other argument types, e.g. the rollouts' loop told apart by a None
answerer (the answer chosen by its type with numba.extending.overload): any function whose
compiling reaches itself. Without that, the game's loop and the rollouts' (and, under policy
learned, the learned rollouts', whose seats answer by their model) must be distinct compiled
functions with the trade code in each, each a whole copy of the game loop with the search
and the trade inlined into it, the costliest code here to compile. Parked, the one compiled
game loop serves them all.

Compiling: as in the game kernel, these functions are compiled without reference counting
(NO_RC), but new_look, which allocates (WITH_RC; game_nb says why). numba links into each
compiled function the code of every function it calls and optimises it all again, so each
compiled function that reaches the game loop re-optimises the whole engine, and an inlined
function is copied once per call site. So the player has few compiled functions above the
game loop: :func:`run_chunk_lookahead_nb` (the state and workspace are the caller's), with
the decision loop inlined into it, and the search over candidates (:func:`_decide`) and the
labelling (:func:`_label`), compiled on their own (inlined, they made the cold compile about
twice as long). The loop has one call site each for the choice, its application and the
plain phases (game_nb.step, itself a call into the compiled play_until).

Rollout states play no lookahead seat (every seat plays the rollout policy), so the search
never nests: the plain game loop (game_nb.play_until, the phases inlined) serves the rollouts,
or under policy learned :func:`_play_out`, the decision loop with every seat's model choosing
(in its own workspace, ``lr``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from simsym.core.enums import ALL_TYPES, AT, FAM, GP, GS, POLICY, RES, SP
from simsym.core.game_nb import (
    NO_RC, NO_RC_INLINE, NO_RC_PY, WITH_RC_PY, _discard_order, _hand_lost_cards, _hand_remove,
    _hsearch, _played, _rest_in_discard_order, _sort, _without, accumulate_nb, answer_query,
    copy_state, deck_size, discard_and_redraw, komos_discard, make_play, new_state,
    play_until, record, set_policy, setup, step, swap,
)
from simsym.core.layout import layout
from simsym.core.rng_nb import mix64_nb, shuffle_nb
from simsym.core.search_nb import best_play_ws
from simsym.learned.features import (
    F_BEST, F_BI, F_COND, F_E, F_GIVEN, F_H, F_HAND, F_I, F_KEEP, F_NCWINE, F_PASS, F_PLAYED,
    F_POINTS, F_VINTAGE, F_WINE, F_WOMEN, KF_COND, KF_E, KF_H, KF_I, KF_NCWINE, KF_VINTAGE,
    KF_WINE, KF_WOMAN, MODEL_SIZE, NF, NKF, NPHASE, WEIGHTS,
)

ROLLOUT_SALT = 0x100C
WIN_UNITS = 60
WIN_WEIGHT = 1024
MARGIN_LO = -512
MARGIN_HI = 511


@njit(**NO_RC_PY)
def rollout_stream_nb(seed, g, turn, seat, d, i, out):
    """Set ``out[0]`` to the state of rollout_stream(seed, g, turn, seat, d, i) (spec 6.6)."""
    x = mix64_nb(np.uint64(seed) ^ np.uint64(ROLLOUT_SALT))
    x = mix64_nb(x ^ np.uint64(g))
    x = mix64_nb(x ^ np.uint64(turn))
    x = mix64_nb(x ^ np.uint64(seat))
    x = mix64_nb(x ^ np.uint64(d))
    out[0] = mix64_nb(x ^ np.uint64(i))


@njit(**NO_RC_PY)
def rollout_value_nb(score, P, s):
    """1024 * (60 / k if s is one of k top scorers else 0) + clamp(margin, -512, 511)."""
    top = score[0]
    for j in range(1, P):
        top = max(top, score[j])
    k = 0
    best_other = np.int64(-(1 << 62))
    for j in range(P):
        if score[j] == top:
            k += 1
        if j != s:
            best_other = max(best_other, score[j])
    w = WIN_UNITS // k if score[s] == top else 0
    margin = min(MARGIN_HI, max(MARGIN_LO, score[s] - best_other))
    return WIN_WEIGHT * w + margin


@njit(**NO_RC_PY)
def determinize_nb(copies, hands, hn, s, dcount, giver, offer, noffer, stream, unseen, pile):
    """Deal the cards seat ``s`` cannot see: spec 6.6 steps 1-3.

    ``hands``/``hn`` are the rollout's hands (seat s's is kept, the others are overwritten, in
    place, with the same sizes); ``dcount`` counts the discard pile by kind; ``offer[:noffer]``
    are cards ``giver`` offered s (they stay in its hand). Returns the pile's size; the pile is
    ``pile[:size]`` (its top last). ``unseen`` is scratch of at least sum(copies) entries."""
    K = copies.shape[0]
    n = 0
    for k in range(K):
        c = copies[k] - dcount[k]
        for q in range(hn[s]):
            if hands[s, q] == k:
                c -= 1
        for q in range(noffer):
            if offer[q] == k:
                c -= 1
        for _ in range(c):
            unseen[n] = k
            n += 1
    shuffle_nb(stream, unseen, n)
    pos = 0
    P = hn.shape[0]
    for j in range(P):
        if j == s:
            continue
        q = 0
        if j == giver:
            for t in range(noffer):
                hands[j, q] = offer[t]
                q += 1
        while q < hn[j]:
            hands[j, q] = unseen[pos]
            pos += 1
            q += 1
    m = n - pos
    for t in range(m):
        pile[t] = unseen[pos + t]
    return m


@njit(**NO_RC_PY)
def halving_rounds_nb(c):
    """ceil(log2 c) for c >= 1."""
    r = 0
    while (1 << r) < c:
        r += 1
    return r


# --- the player in games (docs 6.6) ------------------------------------------------------------
# Decision kinds, as in simsym.reference.lookahead.
LA_SYMPOSIARCH, LA_TRADE, LA_SYMPOSION, LA_KOMOS = range(4)
CMAX = 64  # the most candidates a decision may have (the `candidates` parameter's maximum)

# The lookahead's workspace for one game state: two rollout states (one determinization per
# iteration, ``det``; one candidate played out in it, ``sim``) and the candidates.
Look = namedtuple("Look", (
    "det", "sim",
    "cset",  # int64 (CMAX, H + 1): a candidate's cards [n, sorted kinds...]
    "ctype", "cmask", "cscore",  # int64 (CMAX,): a play candidate (type -1: pass)
    "total", "alive",  # int64 (CMAX,): successive halving
    "buf", "buf2", "order",  # int64 (H,): scratch
    "offer",  # int64 (2,)
    "policy",  # int64 (P,): the strategy row each seat plays in a rollout
    "dec",  # int64 (P,): searched decisions of each seat in the current turn
    "key",  # int64 (2,): the run's seed and the game index
    "scores", "units",  # int64 (P,): accumulate_nb's scratch
    "count",  # int64 (CMAX,): rollouts each candidate got (successive halving)
    # the learned player (docs 6.7; simsym.learned): its weights, one row per strategy-table
    # row, the cards' data, and one feature row a candidate
    "model",  # int64 (strategy rows, MODEL_SIZE)
    "kfeat",  # int64 (K, NKF)
    "feat",  # int64 (CMAX, NF)
    # labelling (simsym.studies.train): each decision of a learned seat is also searched, and
    # its candidates' features and rollout values kept
    "lab",  # int64 (LAB.SIZE,): the LAB record below
    "labc",  # int64 (room, LC.SIZE): one LC record (below) a candidate
    "labf",  # int64 (room, NF): its features
))
# labelling on; rows used; decisions; out of room
LAB = layout("LAB", "ON", "N", "DEC", "FULL")
# A labelled candidate: game, decision (numbered in the chunk), seat, decision kind, phase,
# candidate index, candidates of the decision, total rollout value, rollouts, 1 if the search
# chose it, 1 if the model did.
LC = layout("LC", "GAME", "DEC", "SEAT", "KIND", "PHASE", "CAND", "NC", "TOTAL", "COUNT",
            "TEACHER", "MODEL")


@njit(**WITH_RC_PY)
def new_look(tb):
    P = tb.gp[GP.PLAYERS]
    H = deck_size(tb.copies) + 8
    return Look(new_state(tb, np.int64(0)), new_state(tb, np.int64(0)),
                np.zeros((CMAX, H + 1), np.int64), np.zeros(CMAX, np.int64),
                np.zeros(CMAX, np.int64), np.zeros(CMAX, np.int64), np.zeros(CMAX, np.int64),
                np.zeros(CMAX, np.int64), np.zeros(H, np.int64), np.zeros(H, np.int64),
                np.zeros(H, np.int64), np.zeros(2, np.int64), np.zeros(P, np.int64),
                np.zeros(P, np.int64), np.zeros(2, np.int64), np.zeros(P, np.int64),
                np.zeros(P, np.int64), np.zeros(CMAX, np.int64),
                np.zeros((1, MODEL_SIZE), np.int64), np.zeros((1, NKF), np.int64),
                np.zeros((CMAX, NF), np.int64), np.zeros(LAB.SIZE, np.int64),
                np.zeros((0, LC.SIZE), np.int64), np.zeros((0, NF), np.int64))


@njit(**NO_RC)
def _add(lk, nc, limit, src, n, ptype):
    """Candidate ``nc`` = the cards src[:n] (sorted here) as a play of ``ptype`` (or a discard
    set, ptype -2), unless it equals an earlier candidate or ``limit`` are there already.
    Returns the new count."""
    if nc >= limit:
        return nc
    row = lk.cset[nc]
    row[0] = n
    for q in range(n):
        row[1 + q] = src[q]
    _sort(row[1:], n)
    for c in range(nc):
        if lk.ctype[c] != ptype or lk.cset[c, 0] != n:
            continue
        same = True
        for q in range(n):
            if lk.cset[c, 1 + q] != row[1 + q]:
                same = False
                break
        if same:
            return nc
    lk.ctype[nc] = ptype
    return nc + 1


@njit(**NO_RC)
def _add_play(tb, s, lk, nc, limit, a, ptype, pmask, pscore):
    """A play candidate: the cards of ``pmask`` over seat a's hand."""
    n = _played(s.hands[a], s.hn[a], pmask, lk.buf2)
    m = _add(lk, nc, limit, lk.buf2, n, ptype)
    if m > nc:
        lk.cmask[nc] = pmask
        lk.cscore[nc] = pscore
    return m


@njit(**NO_RC)
def _take_cards(s, a, lk, c, out):
    """Remove candidate c's cards from seat a's hand into out; how many."""
    n = lk.cset[c, 0]
    for q in range(n):
        out[q] = lk.cset[c, 1 + q]
        _hand_remove(s.hands, s.hn, s.memo, a, out[q])
    return n


@njit(**NO_RC_INLINE)
def _trade_answer(sc, c):
    """The pending trade query's answer as candidate c (0 greedy's, 1 the other): 1 accept."""
    return sc[GS.LA_QG] if c == 0 else 1 - sc[GS.LA_QG]


@njit(**NO_RC_INLINE)
def _apply(tb, s, lk, kind, c, a, seat):
    """Candidate c of a decision of ``kind`` made in state s (a the active seat, seat the
    deciding one); s moves to the next phase boundary."""
    if kind == LA_SYMPOSIARCH:
        n = _take_cards(s, a, lk, c, s.discards)
        discard_and_redraw(tb, s, a, s.discards, n)
    elif kind == LA_KOMOS:
        n = _take_cards(s, a, lk, c, s.discards)
        komos_discard(tb, s, a, s.discards, n)
    elif kind == LA_SYMPOSION:
        make_play(tb, s, a, lk.ctype[c], lk.cmask[c], lk.cscore[c])
    else:  # a trade answer: c == 0 greedy's answer, 1 the other
        if _trade_answer(s.sc, c):
            swap(s, s.sc[GS.LA_QI], seat, s.sc[GS.LA_QW], s.sc[GS.LA_QX], s.sc[GS.LA_QX2])
        s.sc[GS.AT] = AT.SYMPOSION  # the rest of this turn's trading is not played out


@njit(**NO_RC_INLINE)
def _determinize(tb, s, lk, seat, kind, d, i):
    """lk.det = s with the cards ``seat`` cannot see dealt anew from the stream of its
    decision d, iteration i (which the rollout then goes on drawing from)."""
    det = lk.det
    copy_state(s, det)
    rollout_stream_nb(lk.key[0], lk.key[1], s.sc[GS.TURN], seat, d, i, det.rng)
    giver = np.int64(-1)
    noffer = np.int64(0)
    if kind == LA_TRADE:
        giver = s.sc[GS.LA_QI]
        lk.offer[0] = s.sc[GS.LA_QX]
        lk.offer[1] = s.sc[GS.LA_QX2]
        noffer = np.int64(1 if lk.offer[1] < 0 else 2)
    npile = determinize_nb(tb.copies, det.hands, det.hn, seat, det.dcount, giver, lk.offer,
                           noffer, det.rng, lk.buf, det.pile)
    det.sc[GS.NPILE] = npile
    P = tb.gp[GP.PLAYERS]
    for j in range(P):
        if j != seat:
            _sort(det.hands[j], det.hn[j])
            _hand_lost_cards(det.memo, j)  # its cached searches are of another hand
    det.sc[GS.LA_PEND] = 0
    det.sc[GS.LA_NF] = 0
    set_policy(tb, det, lk.policy)


@njit(**NO_RC)
def _decide(tb, s, lk, lr, kind, nc, seat):
    """Successive halving over candidates 0..nc-1 with common random numbers (docs 6.6)."""
    if nc == 1:
        return np.int64(0)
    sp = tb.strat_params[s.strat[seat]]
    d = lk.dec[seat]
    lk.dec[seat] += 1
    P = tb.gp[GP.PLAYERS]
    pol = sp[SP.POLICY]
    for j in range(P):
        row = s.seat_strat[j]
        if pol == POLICY.GREEDY:
            lk.policy[j] = sp[SP.GREEDY]
        elif pol == POLICY.LEARNED:
            lk.policy[j] = sp[SP.LEARNED]
        else:
            lk.policy[j] = tb.strat_params[row][SP.TWIN]
    a = s.sc[GS.TURN] % P
    rounds = halving_rounds_nb(nc)
    per_round = max(1, sp[SP.ITERATIONS] // rounds)
    for c in range(nc):
        lk.total[c] = 0
        lk.count[c] = 0
        lk.alive[c] = c
    na = nc
    i0 = 0
    while na > 1:
        m = max(1, per_round // na)
        for i in range(i0, i0 + m):
            _determinize(tb, s, lk, seat, kind, d, i)
            for q in range(na):
                c = lk.alive[q]
                copy_state(lk.det, lk.sim)
                _apply(tb, lk.sim, lk, kind, c, a, seat)
                if pol == POLICY.LEARNED:
                    _play_out(tb, lk.sim, lr)  # every seat the learned player
                else:
                    play_until(tb, lk.sim, np.int64(-1), np.int64(-1))
                lk.total[c] += rollout_value_nb(lk.sim.score, P, seat)
                lk.count[c] += 1
        i0 += m
        # rank the survivors: total descending, ties by candidate order
        for q in range(1, na):
            v = lk.alive[q]
            r = q
            while r > 0 and (lk.total[lk.alive[r - 1]] < lk.total[v] or (
                    lk.total[lk.alive[r - 1]] == lk.total[v] and lk.alive[r - 1] > v)):
                lk.alive[r] = lk.alive[r - 1]
                r -= 1
            lk.alive[r] = v
        na = (na + 1) // 2
    return lk.alive[0]


@njit(**NO_RC_INLINE)
def _symposiarch(tb, s, lk, a):
    """Seat a's Symposiarch discard candidates: greedy's, then the j lowest in its discard
    order for each j; how many."""
    sp = tb.strat_params[s.strat[a]]
    limit = sp[SP.CANDIDATES]
    m = min(sp[SP.DISCARD_MAX], tb.gp[GP.DISCARD_LIMIT])
    nr, _, sd = _rest_in_discard_order(tb, s, a)
    keep = tb.keep_table[s.strat[a]]
    for j in range(nr):
        lk.buf[j] = s.tmp[s.order[j]]
    ng = 0
    while ng < min(m, nr) and keep[lk.buf[ng]] < sp[SP.KEEP_THRESHOLD]:
        ng += 1
    nc = _add(lk, 0, limit, lk.buf, ng, np.int64(-2))
    for j in range(min(m, nr) + 1):
        nc = _add(lk, nc, limit, lk.buf, j, np.int64(-2))
    return nc


@njit(**NO_RC_INLINE)
def _symposion(tb, s, lk, a):
    """Seat a's Symposion candidates: greedy's play, no play, the best of each type, greedy's
    without its most valuable card; how many (0: the seat has no play, nothing to decide)."""
    sp = tb.strat_params[s.strat[a]]
    limit = sp[SP.CANDIDATES]
    g0 = _hsearch(tb, s, a, np.int64(ALL_TYPES))
    if tb.gp[GP.SYMPOSIA] <= 0 or g0.type < 0:
        return np.int64(0)
    gtype, gmask, gscore = g0.type, g0.mask, g0.score
    nc = _add_play(tb, s, lk, 0, limit, a, gtype, gmask, gscore)
    nc = _add_play(tb, s, lk, nc, limit, a, np.int64(-1), np.int64(0), np.int64(0))
    for t in range(3):
        r = _hsearch(tb, s, a, np.int64(1) << np.int64(t))
        if r.type >= 0:
            nc = _add_play(tb, s, lk, nc, limit, a, r.type, r.mask, r.score)
    # hold back the most valuable card of greedy's play
    keep = tb.keep_table[s.strat[a]]
    H = s.hands[a]
    n = s.hn[a]
    v = np.int64(-1)
    for q in range(n):
        if (gmask >> q) & 1:
            k = H[q]
            if v < 0 or keep[k] > keep[v] or (keep[k] == keep[v] and k > v):
                v = k
    pos = 0
    while H[pos] != v:
        pos += 1
    m = _without(H, n, v, lk.buf)
    best_play_ws(lk.buf, m, tb.kinds, tb.rules, np.int64(0), np.int64(ALL_TYPES), s.res, s.sws)
    if s.res[RES.TYPE] >= 0:
        mk = s.res[RES.MASK]
        hm = np.int64(0)
        for q in range(m):
            if (mk >> q) & 1:
                hm |= np.int64(1) << np.int64(q if q < pos else q + 1)
        nc = _add_play(tb, s, lk, nc, limit, a, s.res[RES.TYPE], hm, s.res[RES.SCORE])
    return nc


@njit(**NO_RC_INLINE)
def _komos(tb, s, lk, a):
    """Seat a's Komos discard candidates: each run of ``need`` cards in its discard order;
    how many (0: nothing to discard)."""
    need = s.hn[a] - tb.gp[GP.KOMOS]
    if need <= 0:
        return np.int64(0)
    sp = tb.strat_params[s.strat[a]]
    keep = tb.keep_table[s.strat[a]]
    nr, mask, _ = _rest_in_discard_order(tb, s, a)
    for j in range(nr):
        lk.buf[j] = s.tmp[s.order[j]]
    nb = _played(s.hands[a], s.hn[a], mask, lk.buf2)
    _discard_order(lk.buf2, nb, keep, lk.order)
    for j in range(nb):
        lk.buf[nr + j] = lk.buf2[lk.order[j]]
    nc = 0
    for j in range(nr + nb - need + 1):
        nc = _add(lk, nc, sp[SP.CANDIDATES], lk.buf[j:], need, np.int64(-2))
    return nc


# --- the learned player (docs 6.7; simsym.learned.features states the same readably) ---------

@njit(**NO_RC_INLINE)
def _after_hand(s, lk, kind, c, seat, out):
    """The hand candidate c leaves ``seat`` with (its after-hand) into out, sorted; how many
    cards."""
    H = s.hands[seat]
    n = s.hn[seat]
    sc = s.sc
    if kind == LA_TRADE:
        if _trade_answer(sc, c):
            m = _without(H, n, sc[GS.LA_QW], out)
            out[m] = sc[GS.LA_QX]
            m += 1
            if sc[GS.LA_QX2] >= 0:
                out[m] = sc[GS.LA_QX2]
                m += 1
            _sort(out, m)
            return m
        for q in range(n):
            out[q] = H[q]
        return n
    # the hand less the candidate's cards (both sorted)
    k = lk.cset[c, 0]
    j = 0
    m = 0
    for q in range(n):
        if j < k and H[q] == lk.cset[c, 1 + j]:
            j += 1
            continue
        out[m] = H[q]
        m += 1
    return m


@njit(**NO_RC_INLINE)
def _features(tb, s, lk, kind, c, seat, f):
    """Candidate c's features (simsym.learned.features.FEATURES) into f."""
    m = _after_hand(s, lk, kind, c, seat, lk.buf)
    for j in range(NF):
        f[j] = 0
    if kind == LA_SYMPOSION:
        if lk.ctype[c] >= 0:
            f[F_POINTS] = lk.cscore[c]
            f[F_PLAYED] = lk.cset[c, 0]
        else:
            f[F_PASS] = 1
    elif kind == LA_TRADE:
        if _trade_answer(s.sc, c):
            f[F_GIVEN] = 1 if s.sc[GS.LA_QX2] < 0 else 2
    else:
        f[F_GIVEN] = lk.cset[c, 0]
    f[F_HAND] = m
    if m > 0:
        for t in range(3):
            best_play_ws(lk.buf, m, tb.kinds, tb.rules, np.int64(0), np.int64(1) << np.int64(t),
                         s.res, s.sws)
            if s.res[RES.TYPE] >= 0:
                f[F_BI + t] = s.res[RES.SCORE]
    f[F_BEST] = max(f[F_BI], max(f[F_BI + 1], f[F_BI + 2]))
    keep = tb.keep_table[s.strat[seat]]
    for q in range(m):
        k = lk.buf[q]
        kf = lk.kfeat[k]
        f[F_KEEP] += keep[k]
        f[F_WINE] += kf[KF_WINE]
        f[F_NCWINE] += kf[KF_NCWINE]
        f[F_WOMEN] += kf[KF_WOMAN]
        f[F_I] += kf[KF_I]
        f[F_H] += kf[KF_H]
        f[F_E] += kf[KF_E]
        f[F_VINTAGE] += kf[KF_VINTAGE]
        f[F_COND] += kf[KF_COND]


@njit(**NO_RC_INLINE)
def _phase(tb, s):
    """simsym.learned.features.phase"""
    runs = s.sc[GS.RUNS]
    if runs >= tb.gp[GP.DECK_RUNS]:
        return np.int64(NPHASE - 1)
    return np.int64(min(runs, NPHASE - 2))


@njit(**NO_RC_INLINE)
def _learned(tb, s, lk, kind, nc, seat):
    """A learned seat's choice among candidates 0..nc-1 (lk.feat gets their features):
    simsym.learned.features.choose over the model's scores."""
    if nc == 1:
        return np.int64(0)
    w = lk.model[s.strat[seat]]
    ph = _phase(tb, s)
    base = (kind * NPHASE + ph) * NF
    # once draws have stopped a pass only postpones: it is never chosen then
    no_pass = kind == LA_SYMPOSION and ph == NPHASE - 1
    best = np.int64(0)
    top = np.int64(0)
    for c in range(nc):
        f = lk.feat[c]
        _features(tb, s, lk, kind, c, seat, f)
        v = np.int64(0)
        for j in range(NF):
            v += w[base + j] * f[j]
        if c == 0:
            top = v + w[WEIGHTS]
        elif v > top and not (no_pass and f[F_PASS]):
            best = c
            top = v
    return best


@njit(**NO_RC)
def _label(tb, s, lk, kind, nc, seat, teacher, chosen):
    """Keep a learned seat's searched decision: its candidates' features and rollout values."""
    if nc < 2:
        return
    n0 = lk.lab[LAB.N]
    if n0 + nc > lk.labc.shape[0]:
        lk.lab[LAB.FULL] = 1
        return
    ph = _phase(tb, s)
    d = lk.lab[LAB.DEC]
    for q in range(nc):
        r = lk.labc[n0 + q]
        r[LC.GAME] = lk.key[1]
        r[LC.DEC] = d
        r[LC.SEAT] = seat
        r[LC.KIND] = kind
        r[LC.PHASE] = ph
        r[LC.CAND] = q
        r[LC.NC] = nc
        r[LC.TOTAL] = lk.total[q]
        r[LC.COUNT] = lk.count[q]
        r[LC.TEACHER] = 1 if q == teacher else 0
        r[LC.MODEL] = 1 if q == chosen else 0
        for j in range(NF):
            lk.labf[n0 + q, j] = lk.feat[q, j]
    lk.lab[LAB.N] = n0 + nc
    lk.lab[LAB.DEC] = d + 1


def _searched(tb, s, lk, lr, kind, nc, seat):
    """The search's choice (_decide), in a loop given the rollouts' workspace ``lr``; in a
    loop given None (a table whose seats search nothing: learned and greedy seats, labelling
    off) there is no search, and no code of it is compiled. Chosen by lr's type
    (numba.extending.overload): the search, with the rollouts' whole game loop under it,
    is the costliest code of the engine to compile, and a learned table never calls it."""


@overload(_searched, inline="always")
def _searched_by_type(tb, s, lk, lr, kind, nc, seat):
    if isinstance(lr, types.NoneType):
        def unsearched(tb, s, lk, lr, kind, nc, seat):
            return np.int64(-1)  # never asked: no seat of such a table searches
        return unsearched

    def searched(tb, s, lk, lr, kind, nc, seat):
        return _decide(tb, s, lk, lr, kind, nc, seat)
    return searched


@njit(**NO_RC_INLINE)
def _choose(tb, s, lk, lr, kind, nc, seat):
    """The deciding seat's choice: the search (lookahead), or the model (learned), which is
    also searched and labelled when labelling is on."""
    learned = tb.strat_params[s.strat[seat]][SP.FAMILY] == FAM.LEARNED
    c = np.int64(0)
    if learned:
        c = _learned(tb, s, lk, kind, nc, seat)
    if not learned or (lk.lab[LAB.ON] and nc > 1):
        t = _searched(tb, s, lk, lr, kind, nc, seat)
        if learned:
            _label(tb, s, lk, kind, nc, seat, t, c)
        else:
            c = t
    return c


@njit(**NO_RC_INLINE)
def _next_decision(tb, s, lk):
    """What the state asks next: (decision kind, candidates listed in lk, deciding seat);
    no candidates when the phase is played as every seat plays it (a seat that decides
    over candidates, lookahead or learned, is not to choose, or has one candidate)."""
    sc = s.sc
    at = sc[GS.AT]
    a = sc[GS.TURN] % tb.gp[GP.PLAYERS]
    la = tb.strat_params[s.strat[a]][SP.FAMILY] >= FAM.LOOKAHEAD
    seat = a
    kind = np.int64(-1)
    nc = np.int64(0)
    if sc[GS.LA_PEND]:
        # the trade code asks such a seat (GS.LA_Q*): its answer is a decision
        sc[GS.LA_PEND] = 0
        seat = sc[GS.LA_QH]
        kind = np.int64(LA_TRADE)
        nc = np.int64(2)
    elif la and at == AT.DISCARDS:
        kind = np.int64(LA_SYMPOSIARCH)
        nc = _symposiarch(tb, s, lk, a)
    elif la and at == AT.SYMPOSION:
        kind = np.int64(LA_SYMPOSION)
        nc = _symposion(tb, s, lk, a)
    elif la and at == AT.KOMOS:
        kind = np.int64(LA_KOMOS)
        nc = _komos(tb, s, lk, a)
    return kind, nc, seat


@njit(**NO_RC_INLINE)
def _take(tb, s, lk, kind, c, seat):
    """Candidate c of the decision _next_decision listed becomes the seat's choice."""
    sc = s.sc
    if kind == LA_TRADE:
        answer_query(sc, _trade_answer(sc, c))
    else:
        # (Symposiarch discards are outside the best play, which the hand still holds;
        # the redraws only add)
        _apply(tb, s, lk, kind, c, sc[GS.TURN] % tb.gp[GP.PLAYERS], seat)


@njit(**NO_RC_INLINE)
def _play_out(tb, s, lr):
    """A rollout under policy learned: state s played to its end, every seat choosing by
    its model over its candidates (listed in the workspace ``lr``, not the searching
    decision's)."""
    while s.sc[GS.AT] != AT.OVER:
        kind, nc, seat = _next_decision(tb, s, lr)
        if nc == 0:
            # nothing to decide: the phase as every seat plays it (at AT.TRADING the
            # pending attempt again, with the answers given so far)
            step(tb, s)
            continue
        _take(tb, s, lr, kind, _learned(tb, s, lr, kind, nc, seat), seat)


@njit(**NO_RC_INLINE)
def play_lookahead_nb(tb, s, lk, lr, g, seed, row):
    """One game (set up, played, recorded into ``row``) for tables with lookahead or
    learned seats: the same game as game_nb.play_until's, but at each decision of such a
    seat it searches (docs 6.6) or asks its model (6.7) instead of taking greedy's choice.
    ``lr``: the learned rollouts' own workspace.

    One call site each for the choice (_choose), its application (_take) and the plain
    phases (step, which plays trading too): numba copies an inlined function once per call
    site, and these hold the game loop."""
    setup(tb, s, g, seed)
    lk.key[0] = seed
    lk.key[1] = g
    sc = s.sc
    P = tb.gp[GP.PLAYERS]
    while sc[GS.AT] != AT.OVER:
        at = sc[GS.AT]
        kind, nc, seat = _next_decision(tb, s, lk)
        if nc == 0:
            # nothing to decide: the phase as every seat plays it. At AT.TRADING this runs
            # the pending attempt again (it had changed nothing) with the answers so far.
            if at == AT.TURN:
                for j in range(P):
                    lk.dec[j] = 0
            step(tb, s)
            continue
        _take(tb, s, lk, kind, _choose(tb, s, lk, lr, kind, nc, seat), seat)
    record(tb, s, row)
    return sc[GS.NEV]


@njit(**NO_RC_PY)
def run_chunk_lookahead_nb(tb, s, lk, lr, g0, g1, seed, rows, agg, progress):
    """A chunk of games (game_nb.play_until's PLAY_CHUNK) for tables with lookahead or
    learned seats, in the caller's state ``s`` and workspaces ``lk`` and ``lr`` (the learned
    rollouts'; new_state(tb, maxev), new_look(tb) twice): the one compiled function above
    the game loop."""
    P = tb.gp[GP.PLAYERS]
    for g in range(g0, g1):
        row = rows[g - g0]
        play_lookahead_nb(tb, s, lk, lr, g, seed, row)
        accumulate_nb(s.cs, row, P, agg, lk.scores, lk.units)
        progress[0] += 1
