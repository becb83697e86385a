"""Kernels called by symbol: compiled once, not once more inside every kernel that calls them.

numba links the code of every compiled function a compiled function calls into the caller's
module, and LLVM optimises and compiles it there again: a kernel is compiled once on its own
and once more in each compiled level above it. For the big kernels a game calls rarely or
through one call (the score-only Social solvers, the trade bound's preparation, the
search itself; the trade attempt too until it was inlined into the game loop) that was most of the cold compile (docs/performance.md,
"Compile time"). Such a kernel is instead reached through a symbol registered with LLVM
(``llvmlite.binding.add_symbol``) at the address of its one compiled (or cache-loaded)
code; its callers' modules only declare it.

- :func:`by_symbol` wraps a numba dispatcher for one pinned signature and returns what its
  callers call instead: an intrinsic that emits a call, in numba's own calling convention,
  to the declared symbol. Its typing compiles the kernel (or loads it from numba's cache)
  and registers the symbol first.
- :func:`register` names a symbol and the function that makes it (by_symbol's registration).
- A kernel loaded from numba's cache is linked as it loads, so the symbols it calls must
  exist first: simsym.core wraps numba's ``Cache.load_overload`` so that loading any simsym
  kernel first calls :func:`ensure_all`. Importing the kernels compiles nothing.

Signatures are pinned (argument types given once) because a kernel loaded from the cache
must find its callees' symbols before anything tells which types they were compiled for.
A caller passing other types fails to compile, with the pinned types in the message.
"""

from __future__ import annotations

from numba import config as _numba_config
from numba.core import types as _types

I64 = _types.int64  # a pinned integer argument (any integer or boolean is cast to it)
U64 = _types.uint64

# numba options of a kernel without reference counting (it allocates nothing) and without
# numba's C-callable wrapper (for a function used as a first-class value, which no simsym
# kernel is; cold compile -6%, docs/performance.md, twenty-ninth session). INNER kernels are
# called only by other kernels and go without numba's Python wrapper too (the code that
# unboxes every argument from Python objects: ~90 KB of IR for a kernel over both game
# records; cold compile ~-13%, thirty-sixth session); simsym.core makes a call of one from
# Python raise a TypeError. Kernels also called from Python (the engine's entry points, the
# parts the tests call directly) are PY_ENTRY.
PY_ENTRY = dict(cache=True, _nrt=False, no_cfunc_wrapper=True)
INNER = dict(PY_ENTRY, no_cpython_wrapper=True)


def array(ndim, dtype=_types.int64):
    """The pinned type of a C-ordered array argument."""
    return _types.Array(dtype, ndim, "C")


def record(cls, **fields):
    """The pinned type of a namedtuple ``cls`` of arrays: each field a 1-d int64 array unless
    ``fields`` gives its type."""
    return _types.NamedTuple(tuple(fields.get(f, array(1)) for f in cls._fields), cls)


_MAKERS: dict = {}  # symbol name -> function returning (owner kept alive, code address)
_OWNERS: dict = {}  # symbol name -> what its maker returned to keep alive, once registered
_BUSY: set = set()  # symbols being made now (their own cache load re-enters ensure_all)


def register(name, make):
    """Name a symbol and the function that makes it callable: ``make()`` returns (an object
    that owns the code, the code's address)."""
    _MAKERS[name] = make


def ensure(name):
    """Make symbol ``name`` callable in this process (once)."""
    if name in _OWNERS or name in _BUSY:
        return
    _check_order(name)
    _BUSY.add(name)
    try:
        owner, address = _MAKERS[name]()
        import llvmlite.binding as llvm

        llvm.add_symbol(name, address)
        _OWNERS[name] = owner
    finally:
        _BUSY.discard(name)


def ensure_all():
    """Make every registered symbol callable (the ones already made cost nothing), in the
    order they were registered, up to the first one being made: a symbol's code calls only
    symbols registered before it (_check_order), so a kernel loaded while it is being made
    (itself, or what it compiles) needs only those."""
    for name in list(_MAKERS):
        if name in _BUSY:
            return
        ensure(name)


def _check_order(name):
    """A symbol's code may call only symbols registered before it (what ensure_all relies
    on): ``name`` is about to be called from the code of every symbol being made now."""
    order = list(_MAKERS)
    late = [b for b in _BUSY if order.index(b) <= order.index(name)]
    if late:
        raise RuntimeError(f"{late[0]} calls {name}, registered after it: register the "
                           "kernels a kernel calls by symbol before it")


def symbol_names():
    """The registered symbols, in the order they were registered."""
    return list(_MAKERS)


def owner(name):
    """What owns symbol ``name``'s code once made (a cfunc, or a compile result), else None."""
    return _OWNERS.get(name)


def symbol_name(dispatcher):
    """The symbol by_symbol registers for ``dispatcher``: simsym_<module>_<function>."""
    f = getattr(dispatcher, "py_func", dispatcher)  # a plain function in python mode
    return f"simsym_{f.__module__.rsplit('.', 1)[-1]}_{f.__name__}"


if _numba_config.DISABLE_JIT:
    def by_symbol(dispatcher, argtypes):
        """The function itself in python mode."""
        return dispatcher
else:
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    def _accepts(given, pinned):
        """Whether an argument of numba type ``given`` may be passed as ``pinned``: integers
        and booleans are cast to a pinned integer, anything else must be the pinned type."""
        if isinstance(pinned, types.Integer):
            return isinstance(given, (types.Integer, types.Boolean))
        return given == pinned

    def by_symbol(dispatcher, argtypes):
        """What compiled callers call instead of ``dispatcher`` (an njit function) so that
        its code is not linked into theirs: an intrinsic calling its one compile for
        ``argtypes`` (numba types) through a registered symbol."""
        argtypes = tuple(argtypes)
        name = symbol_name(dispatcher)

        def make():
            dispatcher.compile(argtypes)
            cres = dispatcher.overloads[argtypes]
            return cres, cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)

        register(name, make)

        def typer(typingctx, args):
            if len(args) != len(argtypes) or not all(map(_accepts, args, argtypes)):
                from numba.core.errors import TypingError

                raise TypingError(f"{name} is compiled for {argtypes}, not {tuple(args)}")
            _check_order(name)  # (ensure checks only a symbol not yet made)
            ensure(name)  # this compile's machine code will call it
            restype = _OWNERS[name].signature.return_type

            def codegen(context, builder, sig, values):
                vals = [context.cast(builder, v, a, t)
                        for v, a, t in zip(values, sig.args, argtypes)]
                fnty = context.call_conv.get_function_type(restype, argtypes)
                fn = cgutils.get_or_insert_function(builder.module, fnty, name)
                status, res = context.call_conv.call_function(builder, fn, restype, argtypes,
                                                              vals)
                with cgutils.if_unlikely(builder, status.is_error):
                    context.call_conv.return_status_propagate(builder, status)
                return res
            return restype(*args), codegen

        # numba types an intrinsic by its parameters: one of the kernel's arity, by name.
        params = ", ".join(f"a{i}" for i in range(len(argtypes)))
        scope = {"typer": typer}
        exec(f"def {name}(typingctx, {params}):\n    return typer(typingctx, ({params},))\n",
             scope)
        return intrinsic(scope[name])
