"""Whole games in numba: docs/game-engine.md, implemented over flat integer arrays.

One call of :func:`play_until` with turn ``PLAY_CHUNK`` plays the games ``g0 .. g1-1`` of
the state's chunk (``State.out``) and writes their per-game rows and aggregate counts there
(simsym.engine.compiled.run_chunk allocates it). Game ``g`` depends on (seed, g) alone.
The plain-Python statement of the same contract is simsym/reference/game.py, and this module
follows it phase by phase: :func:`setup`, :func:`end_check`, :func:`amphorae_phase`,
:func:`symposiarch_phase` (the discards and redraws), :func:`trading`,
:func:`symposion_phase`, :func:`komos_phase` and :func:`record`.

Two records carry everything (namedtuples of arrays, which numba compiles and caches):

* :class:`Table`, read-only while games are played: the card table, the rule array, the game
  parameters, the copies per kind, the strategy tables (one row a strategy: parameters, keep
  values, trade-candidate order) and the trade bound table. Built once by
  ``simsym.engine.compiled.Setup.table()``.
* :class:`State`, one game in progress: its scalars ``sc`` (layout ``GS`` in
  simsym.core.enums; scalars that change live in this small array), its stream, the piles,
  the hands, the scores and statistics, the per-seat memo of searches, the strategy each seat
  plays, the event log and the scratch arrays. Allocated once (:func:`new_state`) and reset by
  :func:`setup` for every game, so nothing is allocated per game.

A state knows where it stands (``sc[GS.AT]``, an ``AT`` phase boundary), so a game can be
stopped at any phase boundary and played on from there (:func:`play_until`, :func:`step`).

Rollouts (docs/game-engine.md, "Rollouts"): :func:`rollout_nb` copies a state into another,
preallocated one (:func:`copy_state`, no allocation), gives every seat a strategy (a policy:
one row of the strategy tables per seat, e.g. each seat's own or ``Setup.greedy`` for all),
replaces the game's stream by one the caller gives (:func:`key_stream_nb` derives one from a
key such as (seed, game, turn, seat, decision, iteration)) and plays to the end; it returns
the final scores. A decision can be evaluated by applying it to a copy
(:func:`discard_and_redraw`, :func:`make_play`, :func:`komos_discard`) and rolling that out.
What a seat knows, for re-dealing the cards it has not seen: the discard pile's counts
(``dcount``), the cards each seat played (``cs[:, :, CS.PLAYED]``), the hand sizes (``hn``)
and the runs ended (``sc[GS.RUNS]``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from simsym.core.enums import (
    AGG, ALL_TYPES, AT, BT, BTP, BTP_CAP, BTP_MAXN, BTR, BTS, BT_MAY_AE, BT_NEG, BT_WMAX, CF, CK,
    CS, DISCARD, EV, EV_SIZE, FAM, GP, GS, MEMO, OPT, RES, ROW, RULE, SEATING, SP, SRC, WIN_BY,
    WIN_UNITS,
)
from simsym.core.allequal_nb import (
    AEP_SIZE, UNCOVERED, ae_may_beat_with, ae_prep, ae_workspace_size, all_equal_above_ws,
)
from simsym.core.options import INNER, PY_ENTRY
from simsym.core.social_nb import social_above_ws, social_workspace_size
from simsym.core.rng_nb import SEATING_SALT, below_nb, mix64_nb, shuffle_nb, stream_state_nb
from simsym.core.search_nb import (
    G_TYPE, MODE_PLAY, U, _carve, best_play_hint_ws, best_play_ws, best_score_above_ws,
    workspace_size, write_no_play,
)

# Reference counting. numba increfs every array of a record when a function it has not
# inlined receives the record, and decrefs them when it returns (two atomic operations a
# field, ~70 a call here); across the phase functions and the trade code that made games
# twice as slow. The functions over the records neither allocate nor hand an array to Python,
# so they are compiled without it (NO_RC: numba's option ``_nrt=False``); the few that
# allocate or return arrays to Python keep it (WITH_RC). The rule that keeps this safe: a
# function with it never calls one without it that returns an array (it would release a
# reference it was never given; numba refuses the other way round). numba passes the option
# on to the functions a function calls unless they set it. The search allocates nothing (its
# workspace is the caller's), so it and its gateways here (_search_a, _hsearch_a)
# are compiled without it too: with it, each call paid two atomic operations per array
# argument at two levels (~4% of a game).
# Neither has numba's C-callable wrapper, and those only kernels call have no Python wrapper
# either (simsym.core.options says why); those also called from Python are *_PY.
NO_RC = INNER
NO_RC_PY = PY_ENTRY
WITH_RC = dict(INNER, _nrt=True)
WITH_RC_PY = dict(PY_ENTRY, _nrt=True)
# Thin functions over the records are inlined by numba itself (not compiled on their own):
# numba compiles every function separately and optimises again all the code it calls, so
# each function level above the search costs compile time.
NO_RC_INLINE = dict(cache=True, _nrt=False, inline="always")
# Calls that stay calls. numba passes every array as its seven to eleven fields, so a call
# taking both records pushes 254 values on the stack (~260 instructions), one taking six
# arrays ~45. A function called many times a game over the records therefore has its body
# inlined into the loop around it: play_until plays a game with the phases inlined (_step),
# and the trade attempt is inlined into trading. trading itself, once a turn, stays a call:
# inlined it made the game loop's compile ~10 s longer for ~1.5% of games/s. A small kernel
# called at every draw or memoised search keeps only its rare case out of line (_refill_a,
# _hsearch_a), so the common case costs no call.
# Indexing: numba adds a negative-index wraparound (three or four instructions) to every
# access through a signed integer. In the loops a game runs most (the trade's candidate
# listing, discard orders, hands copied or narrowed, the per-game statistics) indices are
# written U(...) (unsigned, as in the search's walk): none there is ever negative (~4% of a
# game's instructions).

# The read-only record of a run (see the module docstring).
Table = namedtuple("Table", ("kinds", "rules", "gp", "copies", "base_strat", "strat_params",
                             "keep_table", "cand_table", "bt"))

# One game in progress. The fields up to ``ev`` are the game; the rest is scratch, which
# copy_state does not copy.
State = namedtuple("State", (
    "sc",  # int64 (GS.SIZE,): the scalars of the game (the GS record)
    "rng",  # uint64 (1,): the stream every random choice draws from
    "pile",  # int64 (D,): the draw pile, its top at pile[sc[GS.NPILE] - 1]
    "disc",  # int64 (D,): the discard pile, sc[GS.NDISC] cards in pile order
    "dcount",  # int64 (K,): cards of each kind in the discard pile
    "hands",  # int64 (P, D + 8): each seat's hand, sorted, hn[p] cards
    "hn",  # int64 (P,)
    "score",  # int64 (P,)
    "symposia",  # int64 (P,)
    "by_type",  # int64 (P, 3): points by Symposion type
    "cs",  # int64 (P, K, CS.SIZE): per seat and kind statistics (docs section 8)
    "memo",  # int64 (P, MEMO.SIZE): per seat, its hand's version and cached searches
    "strat",  # int64 (P,): the row of the strategy tables each seat plays now (its policy)
    "seat_strat",  # int64 (P,): the strategy seated there for the game (what it reports)
    "ev",  # int64 (n, EV_SIZE): the event log (sc[GS.MAXEV] rows may be written)
    "tmp", "tmp2", "tmp3", "order",  # int64 (H,): a hand's cards, and an order over them
    "inplay",  # int64 (H,): make_play: the cards played (the Symposion and its joiners)
    "queue",  # int64 (2 H,): make_play: the draw queue of the cards played
    "discards",  # int64 (H,): the cards a seat discards (Symposiarch or Komos phase)
    "cand",  # int64 (K,): a trade attempt's candidate kinds (docs 6.5 step 3)
    "cand_seats",  # int64 (K,): ... per candidate, the mask (2 << h) of the seats h the offer
    #                asks that hold it (0: none)
    "taker",  # int64 (K,): ... per held candidate, the first seat that takes x for it (-1:
    #           none; -2: a lookahead seat is asked first)
    "taker_t2",  # int64 (K,): ... and that seat's accepts' bound on T'
    "res",  # int64 (RES.SIZE,): a search result
    "sws",  # the search's workspace (and all_equal_above_ws's)
    "bscr",  # int64 (4 * BTS.SIZE + 2 * AEP_SIZE,): the trade bound's scratch (BSCR_AE on:
    #          the all-equal first test's, allequal_nb.ae_prep)
    "mark",  # int64 (K,): per kind, who holds it, while a trade attempt lists its
    #          candidates (all 0 otherwise)
    "out",  # int64: the chunk of games play_until(PLAY_CHUNK) plays, its rows and aggregate
    #         (CK layout; simsym.engine.compiled gives it; new_state's holds an empty chunk)
))
N_GAME_FIELDS = State._fields.index("ev")  # the fields copy_state copies

PENDING = -2  # the trade code waits for a lookahead seat's answer (see _lookahead_answer)

# What a memoised hand search tells its callers.
Best = namedtuple("Best", ("type", "score", "mask"))


# --- allocation and copying ------------------------------------------------------------------

@njit(**WITH_RC_PY)
def deck_size(copies):
    D = 0
    for k in range(copies.shape[0]):
        D += copies[k]
    return D


BSCR_AE = 4 * BTS.SIZE  # where the all-equal first test's sums start in a state's bscr


@njit(**WITH_RC_PY)
def new_state(tb, maxev):
    """A state for games of the table, with room for ``maxev`` events (0: no log)."""
    P = tb.gp[GP.PLAYERS]
    K = tb.kinds.shape[0]
    D = deck_size(tb.copies)
    H = D + 8
    sc = np.zeros(GS.SIZE, np.int64)
    sc[GS.MAXEV] = maxev
    memo = np.zeros((P, MEMO.SIZE), np.int64)
    memo[:, MEMO.PKVER] = -1  # no sums yet (setup says so again for every game)
    return State(sc, np.zeros(1, np.uint64), np.zeros(D, np.int64), np.zeros(D, np.int64),
                 np.zeros(K, np.int64), np.zeros((P, H), np.int64), np.zeros(P, np.int64),
                 np.zeros(P, np.int64), np.zeros(P, np.int64), np.zeros((P, 3), np.int64),
                 np.zeros((P, K, CS.SIZE), np.int64), memo,
                 np.zeros(P, np.int64), np.zeros(P, np.int64),
                 np.zeros((max(maxev, 1), EV_SIZE), np.int64),
                 np.zeros(H, np.int64), np.zeros(H, np.int64), np.zeros(H, np.int64),
                 np.zeros(H, np.int64), np.zeros(H, np.int64), np.zeros(2 * H, np.int64),
                 np.zeros(H, np.int64), np.zeros(K, np.int64), np.zeros(K, np.int64),
                 np.zeros(K, np.int64), np.zeros(K, np.int64), np.zeros(RES.SIZE, np.int64),
                 np.zeros(max(workspace_size(H), ae_workspace_size(H), social_workspace_size(H)),
                          np.int64),
                 np.zeros(BSCR_AE + 2 * AEP_SIZE, np.int64), np.zeros(K, np.int64),
                 np.zeros(CK.SIZE, np.int64))


@njit(**NO_RC_PY)
def copy_state(src, dst):
    """Copy the game of ``src`` into ``dst`` (a state of the same table; nothing is
    allocated and nothing of ``src`` is shared). ``dst`` keeps its own event log: its count
    restarts at 0 and its room (sc[GS.MAXEV]) stays. (Loops, not slice assignments: those
    compile numba's shape checks and their error messages, 10 s of the lookahead's cold
    compile for a copy whose shapes always agree.)"""
    maxev = dst.sc[GS.MAXEV]
    _copy1(src.sc, dst.sc)
    dst.sc[GS.NEV] = 0
    dst.sc[GS.MAXEV] = maxev
    dst.rng[0] = src.rng[0]
    _copy1(src.pile, dst.pile)
    _copy1(src.disc, dst.disc)
    _copy1(src.dcount, dst.dcount)
    _copy2(src.hands, dst.hands)
    _copy1(src.hn, dst.hn)
    _copy1(src.score, dst.score)
    _copy1(src.symposia, dst.symposia)
    _copy2(src.by_type, dst.by_type)
    for i in range(src.cs.shape[0]):
        _copy2(src.cs[U(i)], dst.cs[U(i)])
    _copy2(src.memo, dst.memo)
    _copy1(src.strat, dst.strat)
    _copy1(src.seat_strat, dst.seat_strat)


@njit(**NO_RC_INLINE)
def _copy1(src, dst):
    for i in range(src.shape[0]):
        dst[U(i)] = src[U(i)]


@njit(**NO_RC_INLINE)
def _copy2(src, dst):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[U(i), U(j)] = src[U(i), U(j)]


@njit(**WITH_RC_PY)
def key_stream_nb(seed, key):
    """A stream state from a seed and a key (an int64 array, e.g. game, turn, seat, decision,
    iteration): splitmix64's finaliser folded over the key, so every key has its own stream
    and none is the game's own (those fold one value, the deal)."""
    x = mix64_nb(mix64_nb(np.uint64(seed)) ^ np.uint64(key.shape[0] + 0x5011))
    for i in range(key.shape[0]):
        x = mix64_nb(x ^ np.uint64(key[i]))
    return x


@njit(**NO_RC_PY)
def set_policy(tb, s, policy):
    """Seat p plays row policy[p] of the strategy tables from now on."""
    for p in range(s.strat.shape[0]):
        if s.strat[p] != policy[p]:
            s.strat[p] = policy[p]
            s.memo[p, MEMO.OWN] = _own_types(tb.strat_params[policy[p]])
            s.memo[p, MEMO.LB] = 0  # a bound on the old strategy's own best play


@njit(**WITH_RC_PY)
def rollout_nb(tb, src, dst, policy, stream):
    """Copy ``src`` into ``dst``, give seat p the strategy row policy[p], draw from the
    stream state ``stream`` (uint64) instead of the game's, and play the copy from its phase
    boundary to the end. Returns dst's final scores (a view of dst.score); ``src`` is left
    as it was."""
    copy_state(src, dst)
    set_policy(tb, dst, policy)
    dst.rng[0] = np.uint64(stream)
    play_until(tb, dst, np.int64(-1), np.int64(-1))
    return dst.score


# --- plumbing --------------------------------------------------------------------------------

# The small helpers the phases share take the arrays they touch rather than the records.


@njit(**NO_RC_INLINE)
def _log(ev, sc, code, a, b, c, d):
    n = sc[GS.NEV]
    if n < sc[GS.MAXEV]:
        ev[n, 0] = code
        ev[n, 1] = a
        ev[n, 2] = b
        ev[n, 3] = c
        ev[n, 4] = d
        sc[GS.NEV] = n + 1


@njit(**NO_RC_INLINE)
def _draw(tb, s):
    """docs section 4: a kind, or -1 when nothing can be drawn."""
    return _draw_a(s.rng, s.sc, s.pile, s.disc, s.dcount, tb.gp[GP.DECK_RUNS], s.ev)


@njit(**NO_RC_INLINE)
def _draw_a(rng, sc, pile, disc, dcount, deck_runs, ev):
    if sc[GS.NPILE] == 0 and not _refill_a(rng, sc, pile, disc, dcount, deck_runs, ev):
        return -1
    sc[GS.NPILE] -= 1
    return pile[sc[GS.NPILE]]


@njit(**NO_RC)
def _refill_a(rng, sc, pile, disc, dcount, deck_runs, ev):
    """The draw pile is empty: shuffle the discard pile into it, unless the deck has run out
    its runs (or there is nothing to shuffle). Returns whether there is a card to draw. Out
    of line: a draw inlines only the common case, a card from the pile."""
    if sc[GS.NDISC] == 0:
        return False
    if sc[GS.RUNS] == deck_runs:
        return False
    sc[GS.RUNS] += 1
    if sc[GS.RUNS] == deck_runs:
        _log(ev, sc, EV.RUN_END, sc[GS.RUNS], 0, 0, 0)
        return False
    n = sc[GS.NDISC]
    for i in range(n):
        pile[i] = disc[i]
    dcount[:] = 0
    sc[GS.NDISC] = 0
    sc[GS.NPILE] = n
    shuffle_nb(rng, pile, n)
    _log(ev, sc, EV.RUN_END, sc[GS.RUNS], n, 0, 0)
    return True


@njit(**NO_RC_INLINE)
def _draw_to(tb, s, p, source):
    """A draw into seat p's hand (logged and counted) when one can be made: the kind, or -1."""
    return _draw_to_a(s.rng, s.sc, s.pile, s.disc, s.dcount, tb.gp[GP.DECK_RUNS], s.ev, s.cs,
                      s.hands, s.hn, s.memo, p, source)


@njit(**NO_RC)
def _draw_to_a(rng, sc, pile, disc, dcount, deck_runs, ev, cs, hands, hn, memo, p, source):
    c = _draw_a(rng, sc, pile, disc, dcount, deck_runs, ev)
    if c >= 0:
        _log(ev, sc, EV.DRAW, p, c, source, 0)
        _card_gain(cs, p, c, CS.OPENING if source == SRC.DEAL else CS.DRAWN)
        _hand_add(hands, hn, memo, p, c)
    return c


@njit(**NO_RC)
def _card_gain(cs, p, k, col):
    cs[p, k, col] += 1
    cs[p, k, CS.HELD] = 1


@njit(**NO_RC)
def _hand_add(hands, hn, memo, p, k):
    """Insert kind k into seat p's hand, kept sorted (and bump the hand's version)."""
    memo[p, MEMO.VER] += 1
    q = hn[p]
    while q > 0 and hands[p, q - 1] > k:
        hands[p, q] = hands[p, q - 1]
        q -= 1
    hands[p, q] = k
    hn[p] += 1


@njit(**NO_RC_INLINE)
def _hand_lost_cards(memo, p):
    """Seat p's hand lost cards (or was replaced): bump its version, so its cached searches
    and packed sums are stale, and forget the lower bound on its best play."""
    memo[p, MEMO.VER] += 1
    memo[p, MEMO.LB] = 0


@njit(**NO_RC)
def _hand_remove(hands, hn, memo, p, k):
    """Remove one card of kind k from seat p's hand (it must be there); see
    _hand_lost_cards."""
    _hand_lost_cards(memo, p)
    n = hn[p]
    q = 0
    while hands[p, U(q)] != k:
        q += 1
    for r in range(q, n - 1):
        hands[p, U(r)] = hands[p, U(r + 1)]
    hn[p] = n - 1


@njit(**NO_RC_INLINE)
def _hand_drop(hands, hn, memo, p, mask):
    """Remove the cards at the positions ``mask`` from seat p's hand in one pass (what
    _hand_remove does for each of them, the hand staying sorted)."""
    _hand_lost_cards(memo, p)
    hn[p] = _rest(hands[p], hn[p], mask, hands[p])


@njit(**NO_RC)
def _holds_free(H, n, mask, k):
    """Whether H[:n] holds a card of kind k outside the positions in ``mask``."""
    for q in range(n):
        if H[q] == k and not (mask >> q) & 1:
            return True
    return False


@njit(**NO_RC)
def _to_discard(s, p, cards, n, phase):
    """Seat p's cards[:n] (out of its hand already) go to the discard pile in sorted order,
    each logged DISCARD(p, kind, phase) and counted as discarded."""
    _sort(cards, n)
    cs = s.cs
    for j in range(n):
        _log(s.ev, s.sc, EV.DISCARD, p, cards[j], phase, 0)
        cs[p, cards[j], CS.DISCARDED] += 1
    _discard_cards(s.disc, s.dcount, s.sc, cards, n)


@njit(**NO_RC)
def _discard_cards(disc, dcount, sc, cards, n):
    """Append n cards to the discard pile in sorted order (cards is sorted in place)."""
    _sort(cards, n)
    for i in range(n):
        disc[U(sc[GS.NDISC])] = cards[U(i)]
        sc[GS.NDISC] += 1
        dcount[U(cards[U(i)])] += 1


@njit(**NO_RC)
def _sort(a, n):
    for i in range(1, n):
        v = a[U(i)]
        q = i
        while q > 0 and a[U(q - 1)] > v:
            a[U(q)] = a[U(q - 1)]
            q -= 1
        a[U(q)] = v


@njit(**NO_RC_PY)
def _discard_order(kinds_list, n, keep, order):
    """order[:n] = positions 0..n-1 of kinds_list sorted by keep asc, then kind desc (equal
    kinds in position order). (Indices as U(...): positions and kinds are never negative, so
    no wraparound code.)

    The three keys packed in one word per position, sorted as plain integers: keep << 32,
    then 2**24 - 1 - kind, then the position in 8 bits (keep values are small, kinds fewer
    than 2**24: simsym.model.strategies and the card encoding bound them). A hand of more than
    255 cards is sorted through _before instead."""
    if n <= 255:
        for i in range(n):
            k = kinds_list[U(i)]
            order[U(i)] = (keep[U(k)] << 32) | ((0xFFFFFF - k) << 8) | i
        _sort(order, n)
        for i in range(n):
            order[U(i)] &= 0xFF
        return
    for i in range(n):
        order[U(i)] = i
    for i in range(1, n):
        v = order[U(i)]
        q = i
        while q > 0 and _before(kinds_list[U(v)], kinds_list[U(order[U(q - 1)])], keep):
            order[U(q)] = order[U(q - 1)]
            q -= 1
        order[U(q)] = v


@njit(**NO_RC)
def _before(k1, k2, keep):
    if keep[U(k1)] != keep[U(k2)]:
        return keep[U(k1)] < keep[U(k2)]
    return k1 > k2


@njit(**NO_RC)
def _own_types(sp):
    if sp[SP.FAMILY] == FAM.SPECIALIST:
        return 1 << sp[SP.FAVOURS]
    return ALL_TYPES


# Typed (non-literal) constants for calls into the search: numba compiles a function once per
# distinct argument type, and a literal argument (0, -1, 7) is a type of its own, so passing
# literals would compile the large search kernel once per literal seen (minutes, cold).
@njit(**NO_RC)
def _no_req():
    return np.int64(0)


@njit(**NO_RC)
def _no_floor():
    return np.int64(-1)


@njit(**NO_RC)
def _no_card():
    return np.int64(-1)


@njit(**NO_RC)
def _all_types():
    return np.int64(ALL_TYPES)


@njit(**NO_RC_INLINE)
def _search(tb, s, hand, n, req, types):
    """best(hand[:n], types, required positions req): its score (0 if none), the result in
    s.res."""
    _search_a(hand, n, tb.kinds, tb.rules, req, types, _no_floor(), np.bool_(True), s.res,
              s.sws)
    return s.res[RES.SCORE] if s.res[RES.TYPE] >= 0 else 0


@njit(**NO_RC_INLINE)
def _above(tb, s, hand, n, req, types, floor):
    """best_score_above_ws on the state's scratch."""
    return _search_a(hand, n, tb.kinds, tb.rules, req, types, floor, np.bool_(False), s.res,
                     s.sws)


@njit(**NO_RC)
def _search_a(hand, n, kinds, rules, req, types, floor, full, res, sws):
    """The engine's one gateway into the search (each compiled function above the search
    optimises its code again, so there is one, not one per entry point): the play when
    ``full`` (best_play_ws: score, type, mask; ``floor`` unused), else best_score_above_ws."""
    if full:
        best_play_ws(hand, n, kinds, rules, req, types, res, sws)
        return res[RES.SCORE]
    return best_score_above_ws(hand, n, kinds, rules, req, types, floor, res, sws)


@njit(**NO_RC_INLINE)
def _memo_row(types):
    """Where a seat's memo keeps its search result for the type mask ``types``."""
    return MEMO.RES + types * RES.SIZE


@njit(**NO_RC_INLINE)
def _hsearch(tb, s, p, types):
    """best(hand of seat p, types) with nothing required, memoised per seat and type mask on
    the hand's version (every hand mutation bumps it): (type, score, mask) of the result.

    A search with the seat's own types starts from the seat's lower bound on the score (a
    hint: the answer is the same, see best_play_hint_ws) and refreshes the bound."""
    memo = s.memo
    if memo[p, MEMO.CVER + types] != memo[p, MEMO.VER]:  # not searched since the last change
        _hsearch_a(tb.kinds, tb.rules, tb.bt, s.hands, s.hn, memo, s.sws, p, types)
    off = _memo_row(types)
    return Best(memo[p, off + RES.TYPE], memo[p, off + RES.SCORE], memo[p, off + RES.MASK])


@njit(**NO_RC)
def _hsearch_a(kinds, rules, bt, hands, hn, memo, sws, p, types):
    """The search of _hsearch, into seat p's result row for ``types`` in its memo. Out of
    line: a search already memoised is answered inline."""
    off = _memo_row(types)
    r = memo[p, off:off + RES.SIZE]
    if not _may_play(bt, hands[p], hn[p], types):
        write_no_play(r, np.int64(MODE_PLAY))  # as best_play_ws would
        if types == memo[p, MEMO.OWN]:
            memo[p, MEMO.LB] = 0
    elif types == memo[p, MEMO.OWN]:
        best_play_hint_ws(hands[p], hn[p], kinds, rules, _no_req(), types,
                          memo[p, MEMO.LB] - 1, r, sws)
        memo[p, MEMO.LB] = r[RES.SCORE] if r[RES.TYPE] >= 0 else 0
    else:
        best_play_ws(hands[p], hn[p], kinds, rules, _no_req(), types, r, sws)
    memo[p, MEMO.CVER + types] = memo[p, MEMO.VER]


@njit(**NO_RC_INLINE)
def _own_best(tb, s, p):
    """B(hand) of seat p (docs 6.1): its own best play (type -1: none)."""
    return _hsearch(tb, s, p, _own_types(tb.strat_params[s.strat[p]]))


@njit(**NO_RC)
def _score(r):
    return r.score if r.type >= 0 else 0


@njit(**NO_RC)
def _play_mask(r):
    return r.mask if r.type >= 0 else np.int64(0)


@njit(**NO_RC_INLINE)
def _rest_in_discard_order(tb, s, p):
    """rest(hand) of seat p (docs 6.1) into s.tmp and its discard order into s.order:
    (how many, the mask of B(hand) over the hand, B's score)."""
    r0 = _own_best(tb, s, p)
    mask = _play_mask(r0)
    nr = _rest(s.hands[p], s.hn[p], mask, s.tmp)
    _discard_order(s.tmp, nr, tb.keep_table[s.strat[p]], s.order)
    return nr, mask, _score(r0)


@njit(**NO_RC)
def _rest(hand, n, mask, out):
    """Cards of the hand not in the play ``mask`` into out (which may be the hand itself);
    returns how many."""
    m = 0
    for q in range(n):
        if not (mask >> q) & 1:
            out[U(m)] = hand[U(q)]
            m += 1
    return m


@njit(**NO_RC)
def _played(hand, n, mask, out):
    """Cards of the hand in the play ``mask`` (the twin of _rest); returns how many."""
    m = 0
    for q in range(n):
        if (mask >> q) & 1:
            out[U(m)] = hand[U(q)]
            m += 1
    return m


@njit(**NO_RC)
def _without(H, n, k, out):
    """Copy H[:n] into out without its first card of kind k (out may be H itself, the copy
    only moves cards down); returns how many cards were copied."""
    m = 0
    skipped = False
    for q in range(n):
        if not skipped and H[U(q)] == k:
            skipped = True
            continue
        out[U(m)] = H[U(q)]
        m += 1
    return m


@njit(**NO_RC)
def _random_picks(s, p, n, out):
    """docs 6.2/6.4 (random): up to n times remove hand[below(len(hand))] from seat p's
    hand into out (stopping, without drawing, when the hand is empty); returns how many."""
    nd = 0
    for _ in range(n):
        if s.hn[p] == 0:
            break
        c = s.hands[p, below_nb(s.rng, s.hn[p])]
        _hand_remove(s.hands, s.hn, s.memo, p, c)
        out[nd] = c
        nd += 1
    return nd


# --- the trade-candidate bound ---------------------------------------------------------------

@njit(**WITH_RC_PY)
def bound_table_size(K):
    return BT.TAB + K * (4 * BTR.SIZE + BTP.SIZE)


@njit(**NO_RC_INLINE)
def _bt_row(k, g):
    """Where the bound table's row of kind k in search group g starts (BTR offsets in it)."""
    return BT.TAB + (k * 4 + g) * BTR.SIZE


@njit(**NO_RC)
def _group_type_bit(g):
    """The type-mask bit of a search group."""
    return 1 << G_TYPE[g]


@njit(**WITH_RC_PY)
def bound_table_nb(kinds, rules, bt):
    """Fill ``bt`` (bound_table_size(K) entries) for the card table and rules."""
    K = kinds.shape[0]
    bt[:] = 0
    beq = rules[RULE.BONUS_EQ]
    ball = rules[RULE.BONUS_ALL]
    maxbonus = beq + ball if rules[RULE.BONUS_STACKS] != 0 else max(beq, ball)
    on = 1
    for g in range(4):
        t = G_TYPE[g]
        bt[BT.LO + g] = rules[RULE.WINE_LO + t]
        bt[BT.HI + g] = rules[RULE.WINE_HI + t]
        bt[BT.BONUS + g] = max(maxbonus, 0) if g == 2 else 0
        bt[BT.BONUS_NAE + g] = max(beq, 0) if g == 2 else 0
        if bt[BT.HI + g] < 0:
            on = 0
    bt[BT.VMODE] = min(max(rules[RULE.MAX_VINTAGE], 0), 2)
    bt[BT.NCW] = rules[RULE.NON_CONTAINER]
    iobm = 1 if rules[RULE.IO_BARS_MW] != 0 else 0
    wine_scored = rules[RULE.WINE_SCORED] != 0
    for k in range(K):
        # The groups a kind may join and its options usable in each: the card table's derived
        # columns (simsym.model.cards.encode), as the search reads them.
        al = kinds[k, CF.AL + iobm]
        for g in range(4):
            row = _bt_row(k, g)
            okm = kinds[k, CF.OKI] if g < 2 else (
                kinds[k, CF.OKH] if g == 3 else (1 << kinds[k, CF.NOPT]) - 1)
            no = 0
            nw = 0
            mcw = 0
            if (al >> g) & 1:
                for o in range(kinds[k, CF.NOPT]):
                    if not (okm >> o) & 1:
                        continue
                    base = CF.OPT + o * OPT.SIZE
                    pw = kinds[k, base + OPT.WINE]
                    sw = kinds[k, base + OPT.WINE_SCORED]
                    val = sw + kinds[k, base + OPT.I] + kinds[k, base + OPT.H] \
                        + kinds[k, base + OPT.E]
                    cw = sw if wine_scored else pw
                    if cw < 0:
                        on = 0
                    bt[row + BTR.OPT + 2 * no] = cw
                    bt[row + BTR.OPT + 1 + 2 * no] = val
                    no += 1
                    mcw = max(mcw, cw)
                    if cw == 0:
                        nw = max(nw, val)
            bt[row + BTR.JOIN] = 1 if no > 0 else 0
            bt[row + BTR.NW] = nw
            bt[row + BTR.NO] = no
            bt[row + BTR.MCW] = mcw
            # Women as the search counts them: a WC card, or an MW card outside group 1
            # (Intellectual with IO cards, where no MW card may be a woman).
            bt[row + BTR.WOMAN] = 1 if no > 0 and (
                kinds[k, CF.WOMAN] != 0 or (kinds[k, CF.MW] != 0 and g != 1)) else 0
            bt[row + BTR.REQW] = kinds[k, CF.REQ_WOMEN]
            bt[row + BTR.REQWINE] = kinds[k, CF.REQ_WINE]
            bt[row + BTR.VINT] = 1 if kinds[k, CF.VINTAGE] != 0 else 0
            bt[row + BTR.NCW] = 0 if kinds[k, CF.CONTAINER] != 0 else mcw
            bt[row + BTR.IO] = 1 if kinds[k, CF.IO] != 0 else 0
            bt[BT.MAXCW + g] = max(bt[BT.MAXCW + g], mcw)
    bt[BT.ON] = on
    _pack_wine(bt, K)


@njit(**WITH_RC)
def _pack_wine(bt, K):
    """_may_play's packed wine words (the BTP columns) after the rows, and BT.PK where they
    start; BT.PK stays 0 (no words) when a cap exceeds BTP_CAP. A card's wine in a lane is
    capped at what _may_play asks of the group: of nonnegative numbers, the sum of each
    capped at c reaches c exactly when their sum does."""
    ncap = max(bt[BT.NCW], 0)
    if ncap > BTP_CAP:
        return
    for g in range(4):
        if bt[BT.LO + g] > BTP_CAP:
            return
    pk = BT.TAB + K * 4 * BTR.SIZE
    for k in range(K):
        a = 0
        b = 0
        for g in range(4):
            row = _bt_row(k, g)
            cap = max(bt[BT.LO + g], 0)
            a |= min(bt[row + BTR.MCW], cap) << (16 * g)
            b |= min(bt[row + BTR.NCW], ncap) << (16 * g)
        w = pk + k * BTP.SIZE
        bt[w + BTP.MCW] = a
        bt[w + BTP.NCW] = b
        bt[w + BTP.VINT] = bt[_bt_row(k, 0) + BTR.VINT]
    bt[BT.PK] = pk


@njit(**NO_RC_PY)
def _bound_prep(bt, scr, H, m, types):
    """For the cards H[:m] and each group of ``types``: per counted wine cw of one more card,
    an upper bound on what the other cards add to a play holding it (into the scratch
    ``scr``). A relaxation of the search: each card at most once at a usable option's value,
    the counted wine inside the group's window (a knapsack over the options with wine, every
    card otherwise counted at its best wineless value or left out), the container rule and
    the like ignored. Two rows: plays with no Vintage card (for a Vintage card to add) and
    with at most one (for any other), under the usual limit of one; a card whose requirement
    no play of these cards and one more can meet (too few women, or wine out of reach) is
    left out. False when the knapsack would be too wide (then no bound is used)."""
    vmode = bt[U(BT.VMODE)]
    for g in range(4):
        if not (types & _group_type_bit(g)):
            continue
        sc = g * BTS.SIZE
        if g == 1 and not _holds_io(bt, H, m):
            # Group 1's plays hold an IO card (the search opens it only then): none here, so
            # it is left unprepared (cap -1) and _bound_may_beat says what a candidate needs.
            scr[U(sc + BTS.CAP)] = -1
            continue
        lo = bt[U(BT.LO + g)]
        hi = bt[U(BT.HI + g)]
        # Wine beyond what the cards and any one more card can reach never matters; nor do
        # women beyond those they and one more card bring.
        cap = bt[U(BT.MAXCW + g)]
        women = 0
        for q in range(m):
            row = _bt_row(H[q], g)
            cap += bt[U(row + BTR.MCW)]
            women += bt[U(row + BTR.WOMAN)]
        cap = min(cap, hi)
        if cap > BT_WMAX:
            return False
        dp = sc + BTS.DP  # best extra value (over the wineless ones), counted wine exactly c
        dp1 = dp + BT_WMAX + 1  # the same, with at most one Vintage card
        scr[U(sc + BTS.CAP)] = cap
        scr[U(sc + BTS.WOMEN)] = women
        scr[U(dp)] = 0
        for c in range(1, cap + 1):
            scr[U(dp + c)] = BT_NEG
        base = 0
        nvint = 0
        reach = 0  # the most wine the cards so far bring: dp is BT_NEG above it
        for q in range(m):
            row = _bt_row(H[q], g)
            if bt[U(row + BTR.JOIN)] == 0 or not _requirements_reachable(bt, row, women, cap):
                continue
            if bt[U(row + BTR.VINT)] and vmode < 2:
                nvint += 1
                continue
            nw = bt[U(row + BTR.NW)]
            base += nw
            mcw = bt[U(row + BTR.MCW)]
            if mcw == 0:
                continue
            no = bt[U(row + BTR.NO)]
            reach = min(reach + mcw, cap)
            for c in range(reach, 0, -1):
                b = scr[U(dp + c)]
                for j in range(no):
                    cw = bt[U(row + BTR.OPT + 2 * j)]
                    if cw > 0 and cw <= c and scr[U(dp + c - cw)] > BT_NEG:
                        v = scr[U(dp + c - cw)] + bt[U(row + BTR.OPT + 1 + 2 * j)] - nw
                        if v > b:
                            b = v
                scr[U(dp + c)] = b
        scr[U(sc + BTS.BASE)] = base
        for c in range(cap + 1):
            scr[U(dp1 + c)] = scr[U(dp + c)]
        if nvint and vmode == 1:
            # One Vintage card at any of its options (its whole value: base has none of it).
            for q in range(m):
                row = _bt_row(H[q], g)
                if bt[U(row + BTR.JOIN)] == 0 or bt[U(row + BTR.VINT)] == 0 \
                        or not _requirements_reachable(bt, row, women, cap):
                    continue
                for j in range(bt[U(row + BTR.NO)]):
                    cw = bt[U(row + BTR.OPT + 2 * j)]
                    val = bt[U(row + BTR.OPT + 1 + 2 * j)]
                    for c in range(cw, cap + 1):
                        b = scr[U(dp + c - cw)]
                        if b > BT_NEG and b + val > scr[U(dp1 + c)]:
                            scr[U(dp1 + c)] = b + val
        # Per wine cw of the card to add, each row's best value whose wine c keeps the total
        # in the window: c in [lo - cw, hi - cw] (clamped to 0..cap).
        for r in range(2):
            row_ = dp + r * (BT_WMAX + 1)
            bw = dp + (2 + r) * (BT_WMAX + 1)
            if hi - cap >= cap:
                # No upper end within reach (Hedonistic): as cw grows the range only widens
                # downwards, so a running maximum walks it once.
                b = BT_NEG
                c = cap
                for cw in range(cap + 1):
                    low = max(0, lo - cw)
                    while c >= low:
                        if scr[U(row_ + c)] > b:
                            b = scr[U(row_ + c)]
                        c -= 1
                    scr[U(bw + cw)] = b
            else:
                for cw in range(cap + 1):
                    scr[U(bw + cw)] = _window_max(scr, row_, lo - cw, hi - cw, cap)
    return True


@njit(**NO_RC_INLINE)
def _holds_io(bt, H, m):
    """Whether the cards H[:m] hold an IO card (the bound table's rows say)."""
    for q in range(m):
        if bt[U(_bt_row(H[U(q)], 1) + BTR.IO)]:
            return True
    return False


@njit(**NO_RC_PY)
def _may_play(bt, H, n, types):
    """False when the cards H[:n] hold no legal play of ``types`` for want of wine: in every
    group of those types the counted wine its cards may bring is below the window, or the
    wine they may bring from non-Container cards is below the rule's (a hand that has just
    played often has a card or two; one holding only Container wine, or two Vintage cards
    for its wine, has none either). A card brings at most its largest counted wine, and of
    the Vintage cards only the largest when at most one may be played (BT.VMODE 1), none
    when none may (0). True when some group may reach both (or the bound table is off): then
    only a search can tell.

    One pass over the cards adds their packed words (every group at once); the rows, group
    by group, when there are none (_may_play_rows, the same answer)."""
    if bt[U(BT.ON)] == 0:
        return True
    if bt[U(BT.PK)] == 0 or n > BTP_MAXN:
        return _may_play_rows(bt, H, n, types)
    a, b, va, vb = _wine_sums(bt, H, n)
    return _wine_verdict(bt, a, b, va, vb, types)


@njit(**NO_RC_INLINE)
def _wine_sums(bt, H, n):
    """The packed words' sums over H[:n] (at most BTP_MAXN cards; BT.PK set): the cards'
    capped wine and non-Container wine per group lane, the Vintage cards' among them only
    when they are not bounded (BT.VMODE 2); and the Vintage cards' lane maxima when at most
    one may be played (1; none count when none may, 0)."""
    pk = bt[U(BT.PK)]
    vmode = bt[U(BT.VMODE)]
    a = 0
    b = 0
    va = 0
    vb = 0
    for q in range(n):
        w = pk + H[U(q)] * BTP.SIZE
        if _pk_counts(bt[U(w + BTP.VINT)], vmode):
            a += bt[U(w + BTP.MCW)]
            b += bt[U(w + BTP.NCW)]
        elif vmode == 1:
            va = _lane_max(va, bt[U(w + BTP.MCW)])
            vb = _lane_max(vb, bt[U(w + BTP.NCW)])
    return a, b, va, vb


@njit(**NO_RC_INLINE)
def _wine_verdict(bt, a, b, va, vb, types):
    """_may_play's answer from the sums of _wine_sums."""
    need = bt[U(BT.NCW)]
    for g in range(4):
        if (types & _group_type_bit(g)) == 0:
            continue
        sh = 16 * g
        if ((a >> sh) & 0xFFFF) + ((va >> sh) & 0xFFFF) >= bt[U(BT.LO + g)] \
                and ((b >> sh) & 0xFFFF) + ((vb >> sh) & 0xFFFF) >= need:
            return True
    return False


@njit(**NO_RC_PY)
def _swap_may_play(bt, hands, hn, memo, h, w, x, x2, types):
    """_may_play for seat h's hand after it gives w for x (and x2 unless it is -1): 1 or 0,
    from the sums of its hand (made once per hand version, in memo) less w's words plus
    x's; -1 when those cannot tell (a Vintage card given or taken when at most one may be
    played, no words, too many cards): then only _may_play on the new hand can."""
    if bt[U(BT.ON)] == 0:
        return 1
    pk = bt[U(BT.PK)]
    n = hn[h]
    if pk == 0 or n + 1 > BTP_MAXN:
        return -1
    vmode = bt[U(BT.VMODE)]
    ww = pk + w * BTP.SIZE
    xw = pk + x * BTP.SIZE
    x2w = pk + x2 * BTP.SIZE
    vw = bt[U(ww + BTP.VINT)]
    vx = bt[U(xw + BTP.VINT)]
    vx2 = bt[U(x2w + BTP.VINT)] if x2 >= 0 else 0
    if vmode == 1 and (vw != 0 or vx != 0 or vx2 != 0):
        return -1
    if memo[h, MEMO.PKVER] != memo[h, MEMO.VER]:
        a, b, va, vb = _wine_sums(bt, hands[h], n)
        memo[h, MEMO.PK] = a
        memo[h, MEMO.PK + 1] = b
        memo[h, MEMO.PK + 2] = va
        memo[h, MEMO.PK + 3] = vb
        memo[h, MEMO.PKVER] = memo[h, MEMO.VER]
    a = memo[h, MEMO.PK]
    b = memo[h, MEMO.PK + 1]
    # w is in the hand, so its words are in the sums (no lane goes below 0); a Vintage card
    # counts in them only when not bounded, and for nothing when none may be played.
    a, b = _pk_add(bt, ww, _pk_counts(vw, vmode), -1, a, b)
    a, b = _pk_add(bt, xw, _pk_counts(vx, vmode), 1, a, b)
    if x2 >= 0:
        a, b = _pk_add(bt, x2w, _pk_counts(vx2, vmode), 1, a, b)
    return 1 if _wine_verdict(bt, a, b, memo[h, MEMO.PK + 2], memo[h, MEMO.PK + 3], types) else 0


@njit(**NO_RC_INLINE)
def _pk_add(bt, kw, counts, sign, a, b):
    """The sums a, b of _wine_sums with the card whose packed words start at kw added (sign
    1) or taken out (-1), if it counts in them (``counts``, from _pk_counts)."""
    if counts:
        a += sign * bt[U(kw + BTP.MCW)]
        b += sign * bt[U(kw + BTP.NCW)]
    return a, b


@njit(**NO_RC_INLINE)
def _pk_counts(vint, vmode):
    """Whether a card counts in the packed sums of _wine_sums: not a Vintage card (its
    BTP.VINT flag ``vint`` 0), or Vintage cards not bounded (BT.VMODE 2)."""
    return vint == 0 or vmode == 2


@njit(**NO_RC_INLINE)
def _lane_max(x, y):
    """The lane-wise maximum of two packed words whose 16-bit lanes each hold at most
    BTP_CAP (255), without a branch: (x | 256 per lane) - y keeps bit 8 of a lane exactly
    where x >= y there (no lane borrows from the next), and that bit selects x's lane."""
    d = (x | _LANE_BIT8) - y
    m = ((d & _LANE_BIT8) >> 8) * 0xFF
    return (x & m) | (y & ~m)


_LANE_BIT8 = 0x0100010001000100  # bit 8 of each 16-bit lane
assert BTP_CAP < 256  # what _lane_max needs of a lane


@njit(**NO_RC_PY)
def _may_play_rows(bt, H, n, types):
    """_may_play from the bound table's rows, group by group."""
    vmode = bt[U(BT.VMODE)]
    need = bt[U(BT.NCW)]
    for g in range(4):
        if (types & _group_type_bit(g)) == 0:
            continue
        cw = 0  # the non-Vintage cards' largest counted wine, summed
        ncw = 0  # ... of those that are not Containers
        vcw = 0  # the Vintage cards': the largest, or the sum when not bounded
        vncw = 0
        for q in range(n):
            row = _bt_row(H[U(q)], g)
            m = bt[U(row + BTR.MCW)]
            mn = bt[U(row + BTR.NCW)]
            if bt[U(row + BTR.VINT)] == 0:
                cw += m
                ncw += mn
            elif vmode == 2:
                vcw += m
                vncw += mn
            elif vmode == 1:
                vcw = max(vcw, m)
                vncw = max(vncw, mn)
        if cw + vcw >= bt[U(BT.LO + g)] and ncw + vncw >= need:
            return True
    return False


@njit(**NO_RC)
def _requirements_reachable(bt, row, women, cap):
    """Whether the requirements of a card of the hand (its bound-table row) may be met by a
    play of the hand and one more card: women the cards bring (``women``, plus one), Wine
    within the knapsack's cap."""
    return bt[U(row + BTR.REQW)] <= women + 1 and bt[U(row + BTR.REQWINE)] <= cap


@njit(**NO_RC)
def _window_max(scr, dp, c0, c1, cap):
    """The best knapsack value of the row at dp whose wine c is in [c0, c1] (clamped to
    0..cap); BT_NEG when none."""
    b = BT_NEG
    for c in range(max(0, c0), min(c1, cap) + 1):
        if scr[U(dp + c)] > b:
            b = scr[U(dp + c)]
    return b


@njit(**NO_RC_PY)
def _bound_may_beat(bt, scr, w, types, floor):
    """The types of ``types`` in which a play of the prepared cards plus w, holding w, may
    score above floor by the bound (their type-mask bits; 0: none can), and BT_MAY_AE when
    in Social only an all-equal play may (no other Social play can: then Social's bit is not
    set). An all-equal play takes the largest bonus, any other at most BT.BONUS_NAE. A group
    where w's own requirement cannot be met (too few women; the wine it asks for) is
    bounded with it: no play there."""
    may = 0
    for g in range(4):
        if not (types & _group_type_bit(g)):
            continue
        row = _bt_row(w, g)
        if bt[U(row + BTR.JOIN)] == 0:
            continue
        sc = g * BTS.SIZE
        cap = scr[U(sc + BTS.CAP)]
        if cap < 0:
            # Group 1 unprepared (its scratch is stale): the prepared cards hold no IO card.
            # Without one in w either, no play of the group exists; with w one, only a search
            # can tell.
            if bt[U(row + BTR.IO)]:
                may |= _group_type_bit(g)
            continue
        if bt[U(row + BTR.REQW)] > scr[U(sc + BTS.WOMEN)] + bt[U(row + BTR.WOMAN)]:
            continue
        if bt[U(row + BTR.VINT)] and bt[U(BT.VMODE)] == 0:
            continue  # no Vintage card may be played
        # The knapsack row of the other cards: none Vintage when w is (at most one in all).
        r = 0 if bt[U(row + BTR.VINT)] and bt[U(BT.VMODE)] == 1 else 1
        dp = sc + BTS.DP + r * (BT_WMAX + 1)
        bw = sc + BTS.DP + (2 + r) * (BT_WMAX + 1)
        tb_ = _group_type_bit(g)
        if may & tb_:
            continue
        top = floor - scr[U(sc + BTS.BASE)] - bt[U(BT.BONUS + g)]
        top_nae = floor - scr[U(sc + BTS.BASE)] - bt[U(BT.BONUS_NAE + g)]
        reqwine = bt[U(row + BTR.REQWINE)]
        for j in range(bt[U(row + BTR.NO)]):
            cw = bt[U(row + BTR.OPT + 2 * j)]
            if cw > cap:  # more than the window allows (cap >= any card's wine otherwise)
                continue
            if reqwine > bt[U(BT.LO + g)]:  # w asks for more wine than the window's floor
                b = _window_max(scr, dp, reqwine - cw, bt[U(BT.HI + g)] - cw, cap)
            else:
                b = scr[U(bw + cw)]
            if b > BT_NEG:
                v = b + bt[U(row + BTR.OPT + 1 + 2 * j)]
                if v > top_nae:
                    may |= tb_
                    break
                if v > top:
                    may |= BT_MAY_AE
    if may & _group_type_bit(2):
        may &= ~BT_MAY_AE
    return may


# --- spec 3: setup ---------------------------------------------------------------------------

@njit(**NO_RC_PY)
def setup(tb, s, g, seed):
    """Reset the state to game ``g`` of a run with ``seed``: seating (docs 2), the game
    stream, scores and statistics (docs 3.2). The state is then AT.DEAL: :func:`deal`
    shuffles and deals."""
    gp = tb.gp
    P = gp[GP.PLAYERS]
    sc = s.sc
    seating = gp[GP.SEATING]
    d = g // P if seating == SEATING.ROTATE else g  # the deal
    # Seats' strategies (docs 2).
    for i in range(P):
        s.seat_strat[i] = tb.base_strat[i]
    if seating == SEATING.ROTATE:
        r = g % P
        for i in range(P):
            s.seat_strat[i] = tb.base_strat[(i + r) % P]
    elif seating == SEATING.RANDOM:
        s.rng[0] = stream_state_nb(np.uint64(seed) ^ np.uint64(SEATING_SALT), g)
        shuffle_nb(s.rng, s.seat_strat, P)
    maxev = sc[GS.MAXEV]
    sc[:] = 0
    sc[GS.MAXEV] = maxev
    sc[GS.DEAL] = d
    sc[GS.Q_LAST] = -1
    sc[GS.Q_LEAD] = -1
    sc[GS.Q_RUN1] = -1
    sc[GS.Q_RUN2] = -1
    s.rng[0] = stream_state_nb(seed, d)
    s.dcount[:] = 0
    s.hn[:] = 0
    s.symposia[:] = 0
    s.by_type[:, :] = 0
    s.cs[:, :, :] = 0
    memo = s.memo
    for i in range(P):
        s.strat[i] = s.seat_strat[i]
        s.score[i] = gp[GP.COMP + i]
        # The per-seat memo of hand searches (docs: every decision is a function of the
        # hand's multiset; the memo is keyed on a version every mutation bumps).
        memo[i, MEMO.VER] = 0
        memo[i, MEMO.OWN] = _own_types(tb.strat_params[s.strat[i]])
        memo[i, MEMO.LB] = 0
        for t in range(8):
            memo[i, MEMO.CVER + t] = -1
        memo[i, MEMO.PKVER] = -1
    sc[GS.AT] = AT.DEAL


@njit(**NO_RC)
def deal(tb, s):
    """docs 3.1 and 3.3: the pile in card-file order, shuffled, then the deal; the state
    moves to AT.TURN of turn 0."""
    P = tb.gp[GP.PLAYERS]
    n = 0
    pile = s.pile
    copies = tb.copies
    for k in range(copies.shape[0]):
        for _ in range(copies[k]):
            pile[n] = k
            n += 1
    shuffle_nb(s.rng, pile, n)
    s.sc[GS.NPILE] = n
    for _ in range(tb.gp[GP.HAND_SIZE]):
        for i in range(P):
            _draw_to(tb, s, i, SRC.DEAL)
    s.sc[GS.AT] = AT.TURN


# --- spec 5: a turn --------------------------------------------------------------------------

ONE_STEP = -2  # play_until's turn for "one phase only" (what step does)
PLAY_CHUNK = -3  # play_until's turn for "the games of the state's chunk" (s.out)


@njit(**NO_RC_PY)
def play_until(tb, s, turn, at):
    """Play on from the state's phase boundary until it stands at phase ``at`` of turn
    ``turn``, or to the end of the game (turn -1, or a point it never reaches); turn
    ONE_STEP plays the one phase the state stands at.

    Turn PLAY_CHUNK plays the games of the state's chunk (``s.out``, CK layout) from their
    start instead, each one recorded into the chunk's rows and aggregate (simsym.engine.compiled's
    run_chunk). The engine's one compiled game loop serves games, chunks, rollouts and
    single steps. numba links it into every compiled function that calls it, where LLVM
    optimises it again, so the functions above it are few (the rollouts, the lookahead's
    chunk loop and its search over candidates)."""
    sc = s.sc
    if turn == PLAY_CHUNK and not _chunk_next(tb, s):
        return
    while True:
        if sc[GS.LA_PEND]:
            # A lookahead or learned seat was asked to trade (a table of them played here,
            # not by lookahead_nb's loop, which answers before it steps on): this loop has
            # neither search nor model, so the seat answers as greedy, as it makes its other
            # choices here. The attempt then runs again with the answer.
            answer_query(sc, sc[GS.LA_QG])
        elif sc[GS.AT] == AT.OVER:
            if turn != PLAY_CHUNK:
                return
            _chunk_record(tb, s)
            if not _chunk_next(tb, s):
                return
        elif sc[GS.TURN] == turn and sc[GS.AT] == at:
            return
        _step(tb, s)
        if turn == ONE_STEP:
            return


@njit(**NO_RC)
def _chunk_next(tb, s):
    """Set up the chunk's next game, if any is left (whether one is)."""
    out = s.out
    g = out[CK.G]
    if g >= out[CK.G1]:
        return False
    setup(tb, s, g, out[CK.SEED])
    return True


@njit(**NO_RC)
def _chunk_record(tb, s):
    """The chunk's game just played: its row, its card counts into the aggregate."""
    out = s.out
    g = out[CK.G]
    n = out[CK.G1] - out[CK.G0]
    width = out[CK.ROW]
    row = _carve(out, CK.SIZE + (g - out[CK.G0]) * width, width, (width,))
    kinds = tb.kinds.shape[0]
    agg = _carve(out, CK.SIZE + n * width, out[CK.NSTRAT] * kinds * AGG.SIZE,
                 (out[CK.NSTRAT], kinds, AGG.SIZE))
    record(tb, s, row)
    accumulate_nb(s.cs, row, tb.gp[GP.PLAYERS], agg, s.tmp, s.tmp2)
    out[CK.G] = g + 1


@njit(**NO_RC_INLINE)
def step(tb, s):
    """Play the phase the state stands at, moving it to the next phase boundary. (Through
    play_until, which holds the compiled game loop already: a second compiled copy of the
    phases cost ~18 s of the lookahead's cold compile.)"""
    play_until(tb, s, np.int64(ONE_STEP), np.int64(0))


@njit(**NO_RC_INLINE)
def _step(tb, s):
    """step's body, inlined into the loop that plays a game."""
    at = s.sc[GS.AT]
    if at == AT.DEAL:
        deal(tb, s)
    elif at == AT.TURN:
        end_check(tb, s)
    elif at == AT.AMPHORAE:
        amphorae_phase(tb, s)
    elif at == AT.DISCARDS:
        symposiarch_phase(tb, s)
    elif at == AT.TRADING:
        trading(tb, s)
    elif at == AT.SYMPOSION:
        symposion_phase(tb, s)
    elif at == AT.KOMOS:
        komos_phase(tb, s)


@njit(**NO_RC_INLINE)
def end_check(tb, s):
    """docs 5, start of a turn: the turn cap, then the end of the game; else TURN(turn, a)."""
    sc = s.sc
    P = tb.gp[GP.PLAYERS]
    turn = sc[GS.TURN]
    if turn == tb.gp[GP.TURN_CAP]:
        sc[GS.STALLED] = 1
        _log(s.ev, s.sc, EV.END, 1, turn, 0, 0)
        sc[GS.AT] = AT.OVER
        return
    if sc[GS.RUNS] == tb.gp[GP.DECK_RUNS]:
        any_legal = False
        memo = s.memo
        for i in range(P):
            # A known positive bound on the seat's own best play (of its own types, a
            # subset of all) means a legal play.
            if memo[i, MEMO.LB] > 0 or _hsearch(tb, s, i, _all_types()).type >= 0:
                any_legal = True
                break
        if not any_legal:
            _log(s.ev, s.sc, EV.END, 0, turn, 0, 0)
            sc[GS.AT] = AT.OVER
            return
    _log(s.ev, s.sc, EV.TURN, turn, turn % P, 0, 0)
    sc[GS.MADE] = 0
    sc[GS.TSTEP] = 0
    sc[GS.AT] = AT.AMPHORAE


@njit(**NO_RC)
def _active(tb, s):
    return s.sc[GS.TURN] % tb.gp[GP.PLAYERS]


@njit(**NO_RC)
def amphorae_phase(tb, s):
    a = _active(tb, s)
    hn = s.hn
    hand_size = tb.gp[GP.HAND_SIZE]
    while hn[a] < hand_size:
        if _draw_to(tb, s, a, SRC.AMPHORAE) < 0:
            break
    s.sc[GS.AT] = AT.DISCARDS


@njit(**NO_RC_INLINE)
def symposiarch_phase(tb, s):
    """docs 5.2 (a): the strategy's discards (6.2), then as many redraws."""
    a = _active(tb, s)
    nd = choose_symposiarch_discards(tb, s, a, s.discards)
    discard_and_redraw(tb, s, a, s.discards, nd)


@njit(**NO_RC_INLINE)
def choose_symposiarch_discards(tb, s, a, out):
    """docs 6.2: seat a's discards into out (removed from its hand already); how many."""
    sp = tb.strat_params[s.strat[a]]
    limit = min(sp[SP.DISCARD_MAX], tb.gp[GP.DISCARD_LIMIT])
    if sp[SP.FAMILY] == FAM.RANDOM:
        return _random_picks(s, a, below_nb(s.rng, limit + 1), out)
    nr, _, sd = _rest_in_discard_order(tb, s, a)
    tmp = s.tmp
    order = s.order
    keep = tb.keep_table[s.strat[a]]
    nd = 0
    for j in range(min(limit, nr)):
        c = tmp[order[j]]
        if keep[c] >= sp[SP.KEEP_THRESHOLD]:
            break
        out[nd] = c
        nd += 1
    for j in range(nd):
        _hand_remove(s.hands, s.hn, s.memo, a, out[j])
    # The discards are all outside the best play, which the hand still holds.
    s.memo[a, MEMO.LB] = sd
    return nd


@njit(**NO_RC)
def discard_and_redraw(tb, s, a, cards, nd):
    """Seat a's Symposiarch discards cards[:nd] (out of its hand already) go to the pile,
    then nd redraws are tried; the state moves to AT.TRADING."""
    _to_discard(s, a, cards, nd, DISCARD.SYMPOSIARCH)
    for _ in range(nd):
        _draw_to(tb, s, a, SRC.SYMPOSIARCH)
    s.sc[GS.AT] = AT.TRADING


@njit(**NO_RC_PY)
def trade_leaves(tb, s, go):
    """Called with ``go`` False, it plays nothing: the call compiles (or loads from numba's
    cache) the kernels trading calls that call nothing of the search, each with the argument
    types trading gives it. The game loop's compile comes to them late, after the search,
    so a second process can compile them meanwhile and the first loads them from the cache
    (simsym.engine.compiled.ready)."""
    if go:
        m = np.int64(0)
        ti = np.int64(ALL_TYPES)
        w = np.int64(0)
        floor = np.int64(0)
        _bound_prep(tb.bt, s.bscr, s.tmp2, m, ti)
        _bound_may_beat(tb.bt, s.bscr, w, ti, floor)
        ae_prep(s.tmp2, m, tb.kinds, tb.rules, s.bscr, np.int64(BSCR_AE))
        ae_may_beat_with(s.bscr, np.int64(BSCR_AE), tb.kinds, tb.rules, w, floor)
        all_equal_above_ws(s.tmp2, m + 1, tb.kinds, tb.rules, w, floor, s.sws)
        social_above_ws(s.tmp2, m + 1, tb.kinds, tb.rules, w, floor, s.sws)
        _swap_may_play(tb.bt, s.hands, s.hn, s.memo, m, w, w, w, ti)


@njit(**NO_RC)
def trading(tb, s):
    """docs 6.5: the active seat's attempts, then one attempt by each other seat that trades
    when inactive, within max_trades_per_turn. Resumable at any attempt: sc[GS.MADE] counts
    the swaps of the turn and sc[GS.TSTEP] says whose attempt is next."""
    gp = tb.gp
    sc = s.sc
    P = gp[GP.PLAYERS]
    a = _active(tb, s)
    # One call of the attempt (its code inlined here once): sc[GS.TSTEP] 0 for the active
    # seat's attempts, then 1 .. P - 1 for the others' in turn order after it.
    while gp[GP.TRADING]:
        if sc[GS.TSTEP] == 0:
            sp = tb.strat_params[s.strat[a]]
            if sp[SP.TRADE] == 0 or sp[SP.FAMILY] == FAM.RANDOM \
                    or sc[GS.MADE] >= gp[GP.MAX_TRADES]:
                sc[GS.TSTEP] = 1
                continue
            i = a
            excl = _no_card()
        else:
            if gp[GP.BETWEEN] == 0 or sc[GS.TSTEP] >= P or sc[GS.MADE] >= gp[GP.MAX_TRADES]:
                break
            i = _seat_after(a, sc[GS.TSTEP], P)
            spj = tb.strat_params[s.strat[i]]
            if spj[SP.TRADE] == 0 or spj[SP.TRADE_INACTIVE] == 0:
                sc[GS.TSTEP] += 1
                continue
            excl = a
        sc[GS.LA_Q] = 0  # the queries to lookahead seats this run of the attempt has made
        r = trade_attempt(tb, s, i, excl)
        if r == PENDING:
            # A lookahead or learned seat must answer first (GS.LA_PEND). The attempt has
            # changed nothing; it runs again once the answer is known.
            return
        sc[GS.LA_NF] = 0  # the answers given belong to this attempt
        if sc[GS.TSTEP] == 0:
            if r == 0:
                sc[GS.TSTEP] = 1
            else:
                sc[GS.MADE] += 1
        else:
            sc[GS.MADE] += r
            sc[GS.TSTEP] += 1
    sc[GS.AT] = AT.SYMPOSION


@njit(**NO_RC_INLINE)
def trade_attempt(tb, s, i, excl):
    """One trade attempt by seat i, asking no seat ``excl`` (docs 6.5 steps 1-7): 1 when a
    swap was made, 0 when not, PENDING when a lookahead or learned seat's answer is needed
    first (the attempt has changed nothing then).

    The steps in the docs' order but for step 3 first: it is the cheapest, and when no seat
    asked holds a candidate the attempt cannot swap (steps 1, 2 and 4 change nothing but
    search memos and scratch)."""
    # 3. the candidates (and whether a seat the offer asks holds one)
    nc, held = _candidates(tb, s, i, excl)
    if not held:
        return 0
    # 1. its own best S; 2. the card it offers, x (and x2, the next, for step 6)
    S, x, x2 = _offered_card(tb, s, i)
    if x < 0:
        return 0
    # 4. the wanted card w*: the first with the highest S_w, if above S (with, when known
    # by then, the first seat that takes x for it: step 5's answer)
    wstar, swstar, taker, t2 = _wanted_card(tb, s, i, excl, nc, S, x, x2)
    if wstar < 0:
        return 0
    if taker >= 0:
        _take_offer(s, i, taker, wstar, x, _no_card(), swstar, t2)
        return 1
    # 5. ask the others in order i+1, i+2, ... with x; 6. then, if none accepts, with x and
    # x2 when the uneven offer is worth it. One call site of _ask_others, whose code (with
    # accepts') is inlined once for both offers.
    xx = _no_card()
    s_new = swstar
    while True:
        r = _ask_others(tb, s, i, excl, wstar, x, xx, s_new)
        if r != 0 or xx >= 0:
            return r
        s_new = _uneven_offer(tb, s, i, wstar, x, x2, S)
        if s_new < 0:
            return 0  # 7. the attempt fails
        xx = x2


@njit(**NO_RC_INLINE)
def _seat_after(i, k, P):
    """The seat k places after seat i (0 <= i, k < P) in turn order: (i + k) % P without a
    division, in the trade's loops over seats."""
    h = i + k
    return h - P if h >= P else h


@njit(**NO_RC_INLINE)
def _asked(tb, s, h, excl):
    """Whether an offer of seat i asks seat h (h is not i) when it holds the card: h is not
    excl and its strategy trades (docs 6.5)."""
    return h != excl and tb.strat_params[U(s.strat[h]), SP.TRADE] != 0


@njit(**NO_RC_INLINE)
def _asks(tb, s, h, excl, w):
    """Whether an offer of seat i for w asks seat h (h is not i)."""
    return _asked(tb, s, h, excl) and _holds_free(s.hands[h], s.hn[h], np.int64(0), w)


@njit(**NO_RC_INLINE)
def _offered_card(tb, s, i):
    """docs 6.5 steps 1-2: seat i's own best S, and x and x2, the first two cards of
    rest(H) in discard order (-1 for each that is not there)."""
    nr, _, S = _rest_in_discard_order(tb, s, i)
    x = s.tmp[s.order[0]] if nr >= 1 else _no_card()
    x2 = s.tmp[s.order[1]] if nr >= 2 else _no_card()
    return S, x, x2


@njit(**NO_RC_INLINE)
def _candidates(tb, s, i, excl):
    """docs 6.5 step 3: the first trade_candidates kinds of seat i's table (keep descending,
    then kind) that it does not hold and that are not all in the discard pile, into
    s.cand[:nc]; s.cand_seats[j] is the mask (2 << h) of the seats h the offer asks (_asks:
    another seat but excl, that trades) that hold candidate j, 0 when none does. Returns
    (nc, whether a seat asked holds any candidate)."""
    spi = tb.strat_params[s.strat[i]]
    order = tb.cand_table[s.strat[i]]
    dcount = s.dcount
    copies = tb.copies
    tc = spi[SP.TRADE_CANDIDATES]
    P = tb.gp[GP.PLAYERS]
    cand = s.cand
    cand_seats = s.cand_seats
    # mark[k]: 1 when seat i holds kind k, else the mask of the seats the offer asks that do.
    # (Indices as U(...): cards and kinds are never negative, so no wraparound code.)
    mark = s.mark
    for h in range(P):
        if h != i and _asked(tb, s, h, excl):
            for q in range(s.hn[h]):
                mark[U(s.hands[h, q])] |= 2 << h
    for q in range(s.hn[i]):
        mark[U(s.hands[i, q])] = 1
    nc = 0
    nheld = 0
    for r in range(order.shape[0]):
        if nc >= tc:
            break
        # Without a branch on the kind (which of them a seat holds or the pile has all of is
        # a coin toss to the processor): each kind is written at nc, which moves on only for
        # a candidate. (nc <= r stays below the kinds.)
        w = order[r]
        held = mark[U(w)]
        ok = np.int64((dcount[U(w)] < copies[U(w)]) & (held != 1))
        cand[U(nc)] = w
        cand_seats[U(nc)] = held
        nheld |= held * ok
        nc += ok
    for h in range(P):
        for q in range(s.hn[h]):
            mark[U(s.hands[h, q])] = 0
    return nc, nheld != 0


@njit(**NO_RC_INLINE)
def _wanted_card(tb, s, i, excl, nc, S, x, x2):
    """docs 6.5 step 4: w*, the first candidate (s.cand[:nc], from _candidates) with the
    highest S_w = best_i(H - x + w), and S_w*, if above S; else (-1, S). With it, when
    already known, the first seat that takes x for w* (step 5) and its accepts' bound on
    T'; else -1 there (no seat asked yet: _ask_others then asks).

    The attempt swaps only if w* is a candidate some seat takes, so the seats are asked
    first where the scores do not matter (_first_taker: who takes x for a held candidate does
    not depend on S_w). The candidates some seat may take (a taker, or -2: a lookahead seat,
    whose answer is only its query) are searched first, in table order: their best (w_t,
    S_t). When none beats S, w* is none or one no seat takes: no swap. Else w* is w_t unless
    another candidate (not held, or refused) beats S_t, or ties it before w_t in table order:
    then no swap either. So the others are only asked that. With uneven offers a refusal
    leads on to step 6: every held candidate is searched first then, and _ask_others asks.

    A play of H - x + w without w is a play of H, so scores at most S: only plays holding w
    can beat max(S, the best so far), and only a candidate that beats it matters (the attempt
    fails unless the best exceeds S; a later candidate must be strictly better). So each
    candidate is a search with w required and that floor (_candidate_above), behind the
    relaxed bound of the trade bound table."""
    spi = tb.strat_params[s.strat[i]]
    ti = _own_types(spi)
    cand = s.cand
    cand_seats = s.cand_seats
    uneven = tb.gp[GP.UNEVEN] != 0 and x2 >= 0
    taker = s.taker
    taker_t2 = s.taker_t2
    some = False
    for j in range(nc):
        if cand_seats[j] == 0:
            continue
        if uneven:
            taker[j] = -2
            taker_t2[j] = 0
            some = True
            continue
        tk, t2j = _first_taker(tb, s, i, cand_seats[j], cand[j], x)
        taker[j] = tk
        taker_t2[j] = t2j
        if tk != -1:
            some = True
    if not some:
        return _no_card(), S, _no_card(), np.int64(0)
    tmp2 = s.tmp2
    m = _without(s.hands[i], s.hn[i], x, tmp2)
    use_bound = tb.bt[BT.ON] != 0 and _bound_prep(tb.bt, s.bscr, tmp2, m, ti)
    ae_ready = False  # the all-equal first test's sums of H - x (at the first need)
    wstar = _no_card()
    rstar = nc
    swstar = S
    for j in range(nc):
        if cand_seats[j] == 0 or taker[j] == -1:
            continue
        sw, ae_ready = _candidate_above(tb, s, tmp2, m, ti, use_bound, ae_ready, cand[j], swstar)
        if sw > swstar:
            swstar = sw
            wstar = cand[j]
            rstar = j
    if wstar < 0:
        return _no_card(), S, _no_card(), np.int64(0)
    for j in range(nc):
        if cand_seats[j] != 0 and taker[j] != -1:
            continue
        fl = swstar - 1 if j < rstar else swstar
        sw, ae_ready = _candidate_above(tb, s, tmp2, m, ti, use_bound, ae_ready, cand[j], fl)
        if sw > fl:
            return _no_card(), S, _no_card(), np.int64(0)
    return wstar, swstar, taker[rstar], taker_t2[rstar]


@njit(**NO_RC_INLINE)
def _candidate_above(tb, s, tmp2, m, ti, use_bound, ae_ready, w, floor):
    """The best score of a play of the seat's own types of H - x (tmp2[:m]) + w holding w,
    if above ``floor``, else -1; and whether the all-equal first test's sums of H - x are
    ready in bscr (they are made at the first need, once per attempt)."""
    bt = tb.bt
    bscr = s.bscr
    tw = ti
    if use_bound:
        # Only the types whose bound may beat the floor are searched: the others' plays
        # holding w score at most the floor. When in Social only an all-equal play may,
        # all_equal_above_ws answers for Social.
        tw = _bound_may_beat(bt, bscr, w, ti, floor)
        if tw == 0:
            return np.int64(-1), ae_ready
    tmp2[m] = w  # H - x + w (w last: the search sorts its own copy)
    wbit = np.int64(1) << m
    sw = np.int64(-1)
    if tw & BT_MAY_AE:
        # all_equal_above_ws's first test, with H - x's part once per attempt: most
        # candidates end here.
        if not ae_ready:
            ae_prep(tmp2, m, tb.kinds, tb.rules, bscr, np.int64(BSCR_AE))
            ae_ready = True
        if ae_may_beat_with(bscr, np.int64(BSCR_AE), tb.kinds, tb.rules, w, floor):
            sw = all_equal_above_ws(tmp2, m + 1, tb.kinds, tb.rules, wbit, floor, s.sws)
            if sw == UNCOVERED:  # Social is answered below then
                tw |= _group_type_bit(2)
                sw = -1
    if tw & _group_type_bit(2):
        # Only the score counts here: social_above_ws answers for Social where it covers
        # the hand, the search otherwise.
        ss = social_above_ws(tmp2, m + 1, tb.kinds, tb.rules, wbit, floor, s.sws)
        if ss != UNCOVERED:
            sw = max(sw, ss)
            tw &= ~_group_type_bit(2)
    if tw & ALL_TYPES:
        sw = max(sw, _above(tb, s, tmp2, m + 1, wbit, tw & ALL_TYPES, max(sw, floor)))
    return sw, ae_ready


@njit(**NO_RC_INLINE)
def _first_taker(tb, s, i, holders, wstar, x):
    """The seat _ask_others would swap with for x against w* (no x2) when no lookahead seat
    is asked on the way: (that seat or -1 when every seat asked refuses, accepts' bound on
    its T'); (-2, 0) when a lookahead seat would be asked (its answer is only known through
    _ask_others). ``holders``: the mask (2 << h) of the seats h _ask_others asks for w*
    (_asks), from _candidates. Changes nothing but the seats' search memos. Inlined: a
    compiled function of its own would link and optimise the whole search again (~4 s of
    cold compile)."""
    P = tb.gp[GP.PLAYERS]
    for step_ in range(1, P):
        h = _seat_after(i, step_, P)
        if not (holders >> (h + 1)) & 1:
            continue
        if tb.strat_params[U(s.strat[h]), SP.FAMILY] >= FAM.LOOKAHEAD:
            return np.int64(-2), np.int64(0)
        t2 = accepts(tb, s, h, wstar, x, _no_card())
        if t2 >= 0:
            return h, t2
    return np.int64(-1), np.int64(0)


@njit(**NO_RC_INLINE)
def _ask_others(tb, s, i, excl, wstar, x, x2, s_new):
    """docs 6.5 steps 5 and 6: seat i offers x (and x2 unless it is -1) for w*, to the other
    seats in turn order after it (but excl); the first that holds w*, trades and accepts gets
    the swap. s_new is seat i's best after it, exactly. 1 when a swap was made, 0 when not,
    PENDING when a lookahead or learned seat must answer first."""
    P = tb.gp[GP.PLAYERS]
    for step_ in range(1, P):
        h = _seat_after(i, step_, P)
        if not _asks(tb, s, h, excl, wstar):
            continue
        t2 = accepts(tb, s, h, wstar, x, x2)
        if tb.strat_params[U(s.strat[h]), SP.FAMILY] >= FAM.LOOKAHEAD:
            t2 = _lookahead_answer(s.sc, i, h, wstar, x, x2, t2)
            if t2 == PENDING:
                return PENDING
        if t2 >= 0:
            _take_offer(s, i, h, wstar, x, x2, s_new, t2)
            return 1
    return 0


@njit(**NO_RC_INLINE)
def _uneven_offer(tb, s, i, wstar, x, x2, S):
    """docs 6.5 step 6: whether seat i offers x and x2 for w*: its best after that swap,
    best_i(H - x - x2 + w*), when there is an x2, uneven trades are on and it is above S;
    else -1."""
    if not (tb.gp[GP.UNEVEN] and x2 >= 0):
        return np.int64(-1)
    tmp2 = s.tmp2
    m = _without(s.hands[i], s.hn[i], x, tmp2)
    m = _without(tmp2, m, x2, tmp2)
    tmp2[m] = wstar
    # Plays without w* are plays of H (at most S): only those holding it may be above S.
    ti = _own_types(tb.strat_params[s.strat[i]])
    return _above(tb, s, tmp2, m + 1, np.int64(1) << m, ti, S)


@njit(**NO_RC)
def _take_offer(s, i, h, wstar, x, x2, s_new, t2):
    """The swap of an accepted offer, and both seats' new lower bounds."""
    swap(s, i, h, wstar, x, x2)
    s.memo[i, MEMO.LB] = s_new  # best_i of the new hand, exactly
    s.memo[h, MEMO.LB] = t2  # a lower bound on best_h of the new hand (accepts)


@njit(**NO_RC)
def _lookahead_answer(sc, i, h, w, x, x2, t2):
    """A lookahead seat h asked by i (docs 6.6): the answer it gave this attempt, if it has
    (a bound on T' when it accepts, 0 if greedy would have refused, so T' is unknown; -1
    when it refuses), else PENDING with the query in sc (greedy's answer: t2 >= 0)."""
    q = sc[GS.LA_Q]
    if q < sc[GS.LA_NF]:
        sc[GS.LA_Q] = q + 1
        if sc[GS.LA_F0 + q]:
            return max(t2, 0)
        return -1
    sc[GS.LA_PEND] = 1
    sc[GS.LA_QI] = i
    sc[GS.LA_QH] = h
    sc[GS.LA_QW] = w
    sc[GS.LA_QX] = x
    sc[GS.LA_QX2] = x2
    sc[GS.LA_QG] = 1 if t2 >= 0 else 0
    return PENDING


@njit(**NO_RC_INLINE)
def answer_query(sc, yes):
    """The parked query's answer (1: the seat accepts), given to the attempt's next run."""
    nf = sc[GS.LA_NF]
    sc[GS.LA_F0 + nf] = yes
    sc[GS.LA_NF] = nf + 1
    sc[GS.LA_PEND] = 0


@njit(**NO_RC)
def swap(s, i, h, w, x, x2):
    """Seat i gives x (and x2 unless -1) to seat h and gets w: TRADE(i, h, x, w), then
    TRADE(i, h, x2, -1)."""
    _hand_remove(s.hands, s.hn, s.memo, i, x)
    if x2 >= 0:
        _hand_remove(s.hands, s.hn, s.memo, i, x2)
    _hand_add(s.hands, s.hn, s.memo, i, w)
    _hand_remove(s.hands, s.hn, s.memo, h, w)
    _hand_add(s.hands, s.hn, s.memo, h, x)
    if x2 >= 0:
        _hand_add(s.hands, s.hn, s.memo, h, x2)
    _log(s.ev, s.sc, EV.TRADE, i, h, x, w)
    if x2 >= 0:
        _log(s.ev, s.sc, EV.TRADE, i, h, x2, _no_card())
    _card_gain(s.cs, i, w, CS.RECEIVED)
    _card_gain(s.cs, h, x, CS.RECEIVED)
    if x2 >= 0:
        _card_gain(s.cs, h, x2, CS.RECEIVED)
    s.sc[GS.TRADES] += 1


@njit(**NO_RC_INLINE)
def accepts(tb, s, h, w, x, x2):
    """docs 6.5 steps 5, 6: whether seat h accepts x (and x2 unless -1) for w: when it does,
    a lower bound on T' (its best after the swap) that is exact whenever a search was
    needed, else -1. Only the answer decides the game; the bound becomes the seat's MEMO.LB
    (a hint, see _take_offer)."""
    sph = tb.strat_params[s.strat[h]]
    th = _own_types(sph)
    b = _hsearch(tb, s, h, th)
    T = _score(b)
    keep = tb.keep_table[s.strat[h]]
    gift = keep[x]
    if x2 >= 0:
        gift += keep[x2]
    # Seat h accepts when T' > T, or T' = T and the gift is worth keep[w] (docs 6.5; random
    # seats when T' >= T). Scores are never negative, so T' >= T when T is 0, and also when
    # h holds a copy of w outside its best play (that play is still in H - w + x). Then only
    # "T' > T?" is left to ask, and nothing when a tie is enough.
    tie_ok = sph[SP.FAMILY] == FAM.RANDOM or gift >= keep[w]
    if T == 0 or _holds_free(s.hands[h], s.hn[h], _play_mask(b), w):
        if tie_ok:
            return T
        floor = T  # a play above T, or a refusal
    else:
        floor = T - 1  # every outcome needs T' >= T
    mp = _swap_may_play(tb.bt, s.hands, s.hn, s.memo, h, w, x, x2, th)
    if mp == 0:
        return -1  # T' is 0, not above the floor
    tmp = s.tmp3
    m = _without(s.hands[h], s.hn[h], w, tmp)
    tmp[m] = x
    xbit = np.int64(1) << m
    m += 1
    if x2 >= 0:
        tmp[m] = x2
        m += 1
    if mp < 0 and not _may_play(tb.bt, tmp, m, th):
        return -1
    # A play without x (or x2) is a play of H - w, so of H: it scores at most T. So a play
    # above T holds x when x alone is given, and the search may require it.
    req = xbit if floor == T and x2 < 0 else _no_req()
    # best_score_above_ws gives T' exactly when T' > floor, and -1 (a refusal) otherwise.
    T2 = _above(tb, s, tmp, m, req, th, floor)
    if T2 < 0 or (T2 == T and not tie_ok):
        return -1
    return T2


@njit(**NO_RC_INLINE)
def symposion_phase(tb, s):
    """docs 5.3: the strategy's play (6.3), if any, is made."""
    a = _active(tb, s)
    ptype, pmask, pscore = choose_play(tb, s, a)
    make_play(tb, s, a, ptype, pmask, pscore)


@njit(**NO_RC_INLINE)
def choose_play(tb, s, a):
    """docs 6.3: (type, mask over seat a's hand positions, score) of the strategy's play;
    type -1 for none."""
    ptype = np.int64(-1)
    pmask = np.int64(0)
    pscore = np.int64(0)
    if tb.gp[GP.SYMPOSIA] <= 0:
        return ptype, pmask, pscore
    sp = tb.strat_params[s.strat[a]]
    fam = sp[SP.FAMILY]
    runs = s.sc[GS.RUNS]
    last = tb.gp[GP.DECK_RUNS]
    if fam == FAM.SPECIALIST:
        r0 = _hsearch(tb, s, a, np.int64(1) << sp[SP.FAVOURS])
        if r0.type < 0 and (sp[SP.FALLBACK] or runs == last):
            r0 = _hsearch(tb, s, a, _all_types())
    else:
        r0 = _hsearch(tb, s, a, _all_types())
    if r0.type < 0:
        return ptype, pmask, pscore
    if fam == FAM.PATIENT and not (r0.score >= sp[SP.THRESHOLD]
                                   or runs >= min(sp[SP.LATE_RUN], last)):
        return ptype, pmask, pscore
    if fam != FAM.RANDOM:
        return r0.type, r0.mask, r0.score
    t0 = below_nb(s.rng, 3)
    for dt in range(3):
        t = (t0 + dt) % 3
        r1 = _hsearch(tb, s, a, np.int64(1) << t)
        if r1.type >= 0:
            pos = below_nb(s.rng, s.hn[a])
            ptype = r1.type
            pmask = r1.mask
            pscore = r1.score
            _search(tb, s, s.hands[a], s.hn[a], np.int64(1) << pos, np.int64(1) << t)
            if s.res[RES.TYPE] >= 0:
                ptype = s.res[RES.TYPE]
                pmask = s.res[RES.MASK]
                pscore = s.res[RES.SCORE]
            break
    return ptype, pmask, pscore


@njit(**NO_RC_INLINE)
def make_play(tb, s, a, ptype, pmask, pscore):
    """docs 5.3: seat a plays the cards ``pmask`` of its hand as a Symposion of ``ptype``
    scoring ``pscore`` (the exact best of those cards in that type); then the draw queue,
    the score and the discard. Nothing but the move to AT.KOMOS when ptype is -1."""
    s.sc[GS.AT] = AT.KOMOS
    if ptype < 0:
        return
    kinds = tb.kinds
    inplay = s.inplay
    queue = s.queue
    cs = s.cs
    nin = _played(s.hands[a], s.hn[a], pmask, inplay)
    _hand_drop(s.hands, s.hn, s.memo, a, pmask)
    _log(s.ev, s.sc, EV.PLAY, a, ptype, 0, 0)
    for j in range(nin):
        _log(s.ev, s.sc, EV.PLAYCARD, a, inplay[j], 0, 0)
    nq = 0
    for j in range(nin):
        for _ in range(kinds[inplay[j], CF.DRAWS]):
            queue[nq] = inplay[j]
            nq += 1
    qi = 0
    tmask = np.int64(1) << ptype
    # best(in_play, type fixed, all required): the play is the best of its own cards in its
    # type (the search is exact), so it starts as the play's score; a join makes it the
    # score of the play with the card.
    now = pscore
    while qi < nq:
        qk = queue[qi]
        qi += 1
        c = _draw(tb, s)
        if c < 0:
            continue
        _log(s.ev, s.sc, EV.DRAW, a, c, SRC.ANDRON, 0)
        _card_gain(s.cs, a, c, CS.DRAWN)
        joined = False
        if tb.gp[GP.MAY_JOIN] and kinds[qk, CF.DRAW_USABLE]:
            # `with` holds c and beats `now` exactly when some play of in_play + c holding
            # all of it scores above `now` (the only play without c is in_play itself,
            # scoring `now`).
            inplay[nin] = c
            wsc = _above(tb, s, inplay, nin + 1, (np.int64(1) << (nin + 1)) - 1, tmask, now)
            if wsc >= 0:
                now = wsc
                joined = True
                nin += 1
                _log(s.ev, s.sc, EV.JOIN, a, c, 0, 0)
                if tb.gp[GP.CHAIN]:
                    for _ in range(kinds[c, CF.DRAWS]):
                        queue[nq] = c
                        nq += 1
        if not joined:
            _hand_add(s.hands, s.hn, s.memo, a, c)
    s.score[a] += now
    s.symposia[a] += 1
    s.by_type[a, ptype] += now
    _log(s.ev, s.sc, EV.SCORE, a, now, 0, 0)
    for j in range(nin):
        cs[a, inplay[j], CS.PLAYED] += 1
        cs[a, inplay[j], CS.POINTS] += now
    _discard_cards(s.disc, s.dcount, s.sc, inplay, nin)


@njit(**NO_RC_INLINE)
def komos_phase(tb, s):
    """docs 5.4: discard down to komos_limit (the strategy's choice, 6.4); the turn ends."""
    a = _active(tb, s)
    nd = choose_komos(tb, s, a, s.discards)
    komos_discard(tb, s, a, s.discards, nd)


@njit(**NO_RC_INLINE)
def choose_komos(tb, s, a, out):
    """docs 6.4: seat a's Komos discards into out (removed from its hand already); how many
    (0 when its hand is within the limit)."""
    need = s.hn[a] - tb.gp[GP.KOMOS]
    if need <= 0:
        return 0
    if tb.strat_params[s.strat[a]][SP.FAMILY] == FAM.RANDOM:
        return _random_picks(s, a, need, out)
    keep = tb.keep_table[s.strat[a]]
    nr, mask, _ = _rest_in_discard_order(tb, s, a)
    H = s.hands[a]
    n = s.hn[a]
    tmp = s.tmp
    tmp2 = s.tmp2
    order = s.order
    nd = 0
    for j in range(min(need, nr)):
        out[nd] = tmp[order[j]]
        nd += 1
    if nd < need:
        nb = _played(H, n, mask, tmp2)
        _discard_order(tmp2, nb, keep, order)
        for j in range(need - nd):
            out[nd] = tmp2[order[j]]
            nd += 1
    for j in range(nd):
        _hand_remove(s.hands, s.hn, s.memo, a, out[j])
    return nd


@njit(**NO_RC)
def komos_discard(tb, s, a, cards, nd):
    """Seat a's Komos discards cards[:nd] (out of its hand already) go to the pile; the turn
    ends (the state moves to AT.TURN of the next turn)."""
    _to_discard(s, a, cards, nd, DISCARD.KOMOS)
    s.sc[GS.TURN] += 1
    s.sc[GS.AT] = AT.TURN
    _quality_turn_end(s.sc, s.score, tb.gp[GP.PLAYERS])


@njit(**NO_RC_INLINE)
def _quality_turn_end(sc, score, P):
    """docs 8, the game-quality measures: the end of turn sc[GS.TURN] (counted from 1). The
    leader is the one seat with the strictly highest score (none on a tie at the top); each
    seat's deficit is the best other seat's score minus its own. Every game loop ends its
    turns in komos_discard, which calls this (the plain loop, the lookahead's and rollouts)."""
    t = sc[GS.TURN]
    best = score[0]
    lead = 0
    nbest = 1
    for i in range(1, P):
        v = score[i]
        if v > best:
            best = v
            lead = i
            nbest = 1
        elif v == best:
            nbest += 1
    second = best  # the best score of the others when the leader is alone at the top
    if nbest == 1:
        second = -(1 << 62)
        for i in range(P):
            if i != lead and score[i] > second:
                second = score[i]
    else:
        lead = -1
    if lead >= 0:
        last = sc[GS.Q_LAST]
        if last >= 0 and last != lead:
            sc[GS.Q_CHANGES] += 1
        sc[GS.Q_LAST] = lead
        if sc[GS.Q_LEAD] != lead:
            sc[GS.Q_SINCE] = t
    sc[GS.Q_LEAD] = lead
    runs = sc[GS.RUNS]
    run1 = runs >= 1 and sc[GS.Q_RUN1] < 0
    run2 = runs >= 2 and sc[GS.Q_RUN2] < 0
    if run1:
        sc[GS.Q_RUN1] = t
    if run2:
        sc[GS.Q_RUN2] = t
    for i in range(P):
        deficit = (second if i == lead else best) - score[i]
        if deficit > sc[GS.Q_DRAMA + i]:
            sc[GS.Q_DRAMA + i] = deficit
        if run1:
            sc[GS.Q_DEF1 + i] = deficit
        if run2:
            sc[GS.Q_DEF2 + i] = deficit


# --- spec 8: what a game reports -------------------------------------------------------------

@njit(**NO_RC)
def record(tb, s, row):
    """The per-game row (ROW then per-seat columns) and the end-of-game card counts."""
    P = tb.gp[GP.PLAYERS]
    cs = s.cs
    hands = s.hands
    for i in range(P):
        for q in range(s.hn[i]):
            cs[i, hands[i, q], CS.END] += 1
    row[ROW.DEAL] = s.sc[GS.DEAL]
    row[ROW.TURNS] = s.sc[GS.TURN]
    row[ROW.STALLED] = s.sc[GS.STALLED]
    row[ROW.TRADES] = s.sc[GS.TRADES]
    _record_quality(s.sc, s.score, P, row)
    for i in range(P):
        row[ROW.FIXED + i] = s.score[i]
        row[ROW.FIXED + P + i] = s.seat_strat[i]
        row[ROW.FIXED + 2 * P + i] = s.symposia[i]
        for t in range(3):
            row[ROW.FIXED + 3 * P + 3 * i + t] = s.by_type[i, t]


@njit(**NO_RC)
def _record_quality(sc, score, P, row):
    """docs 8: the game-quality fields of the row, from the final scores and what
    _quality_turn_end kept. The winner is the seat with the top score, the lowest of them when
    several share it (then the game is decided only at its last turn and the margin is 0)."""
    turns = sc[GS.TURN]
    best = score[0]
    w = 0
    for i in range(1, P):
        if score[i] > best:
            best = score[i]
            w = i
    k = 0
    second = -(1 << 62)
    for i in range(P):
        if score[i] == best:
            k += 1
        if i != w and score[i] > second:
            second = score[i]
    row[ROW.RUN1] = sc[GS.Q_RUN1]
    row[ROW.RUN2] = sc[GS.Q_RUN2]
    row[ROW.CHANGES] = sc[GS.Q_CHANGES]
    # A sole winner leads at the end of the last turn (the final scores are that turn's), so
    # its lead is decided where its last unbroken run of leads began.
    row[ROW.DECIDED] = sc[GS.Q_SINCE] if k == 1 and turns > 0 else turns
    row[ROW.DEF1] = sc[GS.Q_DEF1 + w] if sc[GS.Q_RUN1] >= 0 else 0
    row[ROW.DEF2] = sc[GS.Q_DEF2 + w] if sc[GS.Q_RUN2] >= 0 else 0
    row[ROW.DRAMA] = sc[GS.Q_DRAMA + w]
    row[ROW.MARGIN] = best - second if k == 1 else 0
    row[ROW.WINNERS] = k
    row[ROW.WIN_BY] = WIN_BY.POINTS if k == 1 else WIN_BY.SHARED
    row[ROW.WINNER] = w


@njit(**NO_RC)
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


@njit(**NO_RC_PY)
def accumulate_nb(cs, row, P, agg, scores, units):
    """Add one game's per-seat card stats ``cs`` to the per-strategy aggregate ``agg``."""
    K = cs.shape[1]
    for i in range(P):
        scores[i] = row[ROW.FIXED + i]
    win_units_nb(scores, P, units)
    for i in range(P):
        st = row[ROW.FIXED + P + i]  # (indices as U(...): none is negative)
        u = units[i]
        for k in range(K):
            if cs[U(i), U(k), CS.HELD] == 0:
                continue
            agg[U(st), U(k), AGG.GIH_N] += 1
            agg[U(st), U(k), AGG.GIH_W] += u
            if cs[U(i), U(k), CS.OPENING] > 0:
                agg[U(st), U(k), AGG.OH_N] += 1
                agg[U(st), U(k), AGG.OH_W] += u
            elif cs[U(i), U(k), CS.DRAWN] > 0:
                agg[U(st), U(k), AGG.GD_N] += 1
                agg[U(st), U(k), AGG.GD_W] += u
            played = cs[U(i), U(k), CS.PLAYED]
            agg[U(st), U(k), AGG.PLAYED] += played
            if played > 0:
                agg[U(st), U(k), AGG.PLAYED_N] += 1
            else:
                agg[U(st), U(k), AGG.HELD_UNPLAYED_N] += 1
            agg[U(st), U(k), AGG.POINTS] += cs[U(i), U(k), CS.POINTS]
            agg[U(st), U(k), AGG.END] += cs[U(i), U(k), CS.END]
            agg[U(st), U(k), AGG.DISCARDED] += cs[U(i), U(k), CS.DISCARDED]
            agg[U(st), U(k), AGG.TRADED] += cs[U(i), U(k), CS.RECEIVED]
