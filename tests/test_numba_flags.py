"""numba's compile options compared fast (simsym.core): values(), the hash and equality give
numba's own answers for every pair of a set of configs that differ in what they set."""

import itertools

from numba.core import targetconfig
from numba.core.compiler import Flags

import simsym.core as core


# What each config sets, in the order it sets it: nothing, an option at its default, the
# same settings in two orders, others.
SETTINGS = [
    [],
    [("nrt", False)],
    [("nrt", True), ("boundscheck", True)],
    [("boundscheck", True), ("nrt", True)],
    [("nrt", True), ("no_cpython_wrapper", True)],
    [("error_model", "numpy")],
]


def _configs():
    """Flags set as SETTINGS says, and copies of those."""
    out = []
    for settings in SETTINGS:
        f = Flags()
        for name, value in settings:
            setattr(f, name, value)
        out.append(f)
    return out + [Flags(c) for c in out]


def test_patch_installed():
    assert core.TARGET_CONFIG_FAST_COMPARE
    assert getattr(targetconfig.TargetConfig.values, "_simsym_fast", False)


def test_same_answers_as_numba():
    config = targetconfig.TargetConfig
    values = config.values._numba_original
    hash_ = config.__hash__._numba_original
    eq = config.__eq__._numba_original
    configs = _configs()
    for c in configs:
        fast = c.values()
        assert fast == values(c)
        assert list(fast) == list(values(c))  # the same order too
        assert hash(c) == hash_(c)
    answers = set()
    for a, b in itertools.product(configs, repeat=2):
        expected = eq(a, b)
        assert (a == b) == expected, (a, b)
        answers.add(expected)
    assert answers == {True, False}  # the set holds equal and unequal pairs
    assert Flags().__eq__(object()) is NotImplemented


def test_a_changed_option_is_seen():
    a, b = Flags(), Flags()
    assert a == b
    b.boundscheck = True
    assert a != b
    assert a.values()["boundscheck"] is False and b.values()["boundscheck"] is True
