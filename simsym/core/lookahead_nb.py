"""The `lookahead` player in the numba engine: docs/game-engine.md section 6.6.

The parts that do not depend on the game state's layout: the rollout streams, the
determinization of the cards a seat cannot see, the value of a finished rollout and the
successive-halving schedule. simsym/reference/lookahead.py states the same procedure readably;
the two must make the same decisions, game for game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simsym.core.rng_nb import mix64_nb, shuffle_nb

ROLLOUT_SALT = 0x100C
WIN_UNITS = 60
WIN_WEIGHT = 1024
MARGIN_LO = -512
MARGIN_HI = 511


@njit(cache=True)
def rollout_stream_nb(seed, g, turn, seat, d, i, out):
    """Set ``out[0]`` to the state of rollout_stream(seed, g, turn, seat, d, i) (spec 6.6)."""
    x = mix64_nb(np.uint64(seed) ^ np.uint64(ROLLOUT_SALT))
    x = mix64_nb(x ^ np.uint64(g))
    x = mix64_nb(x ^ np.uint64(turn))
    x = mix64_nb(x ^ np.uint64(seat))
    x = mix64_nb(x ^ np.uint64(d))
    out[0] = mix64_nb(x ^ np.uint64(i))


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def halving_rounds_nb(c):
    """ceil(log2 c) for c >= 1."""
    r = 0
    while (1 << r) < c:
        r += 1
    return r
