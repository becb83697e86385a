"""numba's typing of operators and builtins, kept per argument types (simsym.core): the same
signatures as numba's own typing, a failure raised every time, kernels typed as before."""

import operator

import numpy as np
import pytest
from numba import njit, types
from numba.core import errors
from numba.core.compiler import Flags
from numba.core.registry import cpu_target
from numba.core.targetconfig import ConfigStack
from numba.core.types import functions

import simsym.core as core

A1 = types.Array(types.int64, 1, "C")
A2 = types.Array(types.int64, 2, "C")
CALLS = [
    (operator.getitem, (A1, types.uint64)),
    (operator.getitem, (A1, types.int64)),
    (operator.getitem, (A2, types.UniTuple(types.uint64, 2))),
    (operator.getitem, (A2, types.Tuple((types.int64, types.IntegerLiteral(3))))),
    (operator.setitem, (A1, types.uint64, types.int64)),
    (operator.add, (types.int64, types.int64)),
    (operator.add, (types.uint64, types.int64)),
    (operator.lt, (types.int64, types.float64)),
    (operator.eq, (types.boolean, types.boolean)),
    (max, (types.int64, types.int64)),
    (bool, (types.int64,)),
    (range, (types.int64, types.int64)),
    (range, (types.IntegerLiteral(7),)),
]


def _context():
    ctx = cpu_target.typing_context
    ctx.refresh()
    return ctx


def test_memo_installed():
    assert core.OPERATOR_TYPING_MEMO
    assert getattr(functions.BaseFunction.get_call_type, "_simsym_memo", False)


@pytest.mark.parametrize("fn,args", CALLS, ids=[f"{f.__name__}{i}" for i, (f, _) in
                                                enumerate(CALLS)])
def test_same_signature_as_numba(fn, args):
    ctx = _context()
    fnty = ctx.resolve_value_type(fn)
    assert isinstance(fnty, types.Function) and core._memo_typing_key(fnty)
    original = functions.BaseFunction.get_call_type._numba_original
    expected = original(fnty, ctx, args, {})
    first = fnty.get_call_type(ctx, args, {})
    again = fnty.get_call_type(ctx, args, {})
    assert first == expected and again == expected
    assert again is first  # the second answer is the kept one


def test_kept_per_compile_options():
    ctx = _context()
    fnty = ctx.resolve_value_type(operator.getitem)
    memo = functions.BaseFunction.get_call_type.memo
    args = (types.Array(types.float32, 3, "F"), types.UniTuple(types.uint8, 3))  # no kernel's
    flags = Flags()
    flags.boundscheck = True
    before = len(memo)
    with ConfigStack().enter(flags):
        a = fnty.get_call_type(ctx, args, {})
        flags.nrt = True  # options changed after the answer was kept: looked up anew
        b = fnty.get_call_type(ctx, args, {})
    c = fnty.get_call_type(ctx, args, {})  # no options in force: another entry
    assert a == b == c
    assert len(memo) == before + 3


def test_a_failure_is_raised_each_time():
    ctx = _context()
    fnty = ctx.resolve_value_type(operator.getitem)
    args = (types.int64, types.int64)  # an integer cannot be indexed
    memo = functions.BaseFunction.get_call_type.memo
    before = len(memo)
    for _ in range(2):
        with pytest.raises(errors.TypingError):
            fnty.get_call_type(ctx, args, {})
    assert len(memo) == before


def test_kernels_typed_by_numba():
    """A function reached by name is not an operator: numba types it as before."""
    @njit
    def inner(a, i):
        return a[i] + 1

    ctx = _context()
    assert not isinstance(ctx.resolve_value_type(inner), types.Function) or \
        not core._memo_typing_key(ctx.resolve_value_type(inner))

    @njit
    def outer(a):
        s = 0
        for i in range(a.shape[0]):
            s += inner(a, np.uint64(i)) * (a[i] > 1)
        return s

    assert outer(np.arange(5, dtype=np.int64)) == 3 + 4 + 5
