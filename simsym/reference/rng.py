"""The reference engine's randomness (docs/game-engine.md §1): splitmix64 streams.

Every random choice of a game draws from a stream made here: the game stream of a deal, the
seating stream of a game, and the rollout streams of a lookahead seat.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB
SEATING_SALT = 0x5EA7


def _finalise(z: int) -> int:
    z = ((z ^ (z >> 30)) * MUL1) & MASK64
    z = ((z ^ (z >> 27)) * MUL2) & MASK64
    return z ^ (z >> 31)


def mix64(x: int) -> int:
    """splitmix64's finaliser of x + GOLDEN (all arithmetic modulo 2^64)."""
    return _finalise((x + GOLDEN) & MASK64)


class Stream:
    """splitmix64. Every random choice of a game draws from one of these, in spec order."""

    def __init__(self, state: int):
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return _finalise(self.state)

    def below(self, n: int) -> int:
        """A number in 0..n-1 (1 <= n < 2^32): the top 32 bits scaled by n."""
        assert 1 <= n < (1 << 32), n
        return ((self.next() >> 32) * n) >> 32

    def shuffle(self, a: list) -> None:
        """Fisher-Yates, in place, from the last element down."""
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]


def game_stream(seed: int, deal: int) -> Stream:
    """The game stream of deal d in a run with seed s: Stream(mix64(mix64(s) ^ d))."""
    return Stream(mix64(mix64(seed & MASK64) ^ deal))


def seating_stream(seed: int, g: int) -> Stream:
    """The seating stream of game g (seating: random): Stream(mix64(mix64(s ^ 0x5EA7) ^ g))."""
    return Stream(mix64(mix64((seed & MASK64) ^ SEATING_SALT) ^ g))
