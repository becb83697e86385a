"""Counter-based randomness (splitmix64), one stream per game: docs/game-engine.md section 1.

The stream state lives in a one-element uint64 array so kernels can pass it around."""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
SEATING_SALT = 0x5EA7


@njit(cache=True)
def mix64_nb(x):
    z = np.uint64(x) + GOLDEN
    z = (z ^ (z >> np.uint64(30))) * M1
    z = (z ^ (z >> np.uint64(27))) * M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_state_nb(seed, index):
    return mix64_nb(mix64_nb(np.uint64(seed)) ^ np.uint64(index))


@njit(cache=True)
def next_nb(state):
    s = state[0] + GOLDEN
    state[0] = s
    z = (s ^ (s >> np.uint64(30))) * M1
    z = (z ^ (z >> np.uint64(27))) * M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def below_nb(state, n):
    return np.int64(((next_nb(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle_nb(state, a, n):
    for i in range(n - 1, 0, -1):
        j = below_nb(state, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
