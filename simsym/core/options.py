"""The numba options of the kernels (all through ``numba.njit``).

- ``cache=True``: compiled once per kernel sources (the cache folder: simsym.core).
- ``_nrt=False``: no reference counting. The kernels allocate nothing in their hot paths
  (their scratch memory is the caller's), and with it every array handed to a kernel cost two
  atomic operations per call. A kernel that allocates (new_state, new_look) or returns an
  array to one with reference counting keeps it (``dict(PY_ENTRY, _nrt=True)``).
- ``no_cfunc_wrapper=True``: no C-callable wrapper (for a function used as a first-class
  value, which no kernel is).
- ``no_cpython_wrapper=True`` (INNER): no Python wrapper either, the code that unboxes every
  argument from Python objects (~90 KB of IR for a kernel over both game records). Such a
  kernel is for compiled callers only: numba gives it no Python entry, and a call from Python
  crashes the process. Kernels also called from Python (the engine's entry points and the
  parts the tests call directly) are PY_ENTRY. Without this option the cold compile of the
  engine takes about 12% longer.
"""

PY_ENTRY = dict(cache=True, _nrt=False, no_cfunc_wrapper=True)
INNER = dict(PY_ENTRY, no_cpython_wrapper=True)
