"""Declared layouts: one declaration per record of the kernels' flat integer arrays.

A record (the game's scalars, a card-table row, the bound table's header ...) is declared once,
as its fields in order, each a name (one entry) or a (name, entries) pair::

    GS = layout("GS", "NPILE", "NDISC", ..., ("LA_F0", LA_MAX_QUERIES))

The result is a named tuple of offsets: ``GS.NPILE`` is the field's first entry, ``GS.SIZE``
the record's length, so a kernel reads ``sc[GS.NDISC]`` or ``sc[GS.LA_F0 + q]`` and imports one
name per record. numba compiles such a module-level tuple as a constant: an offset read from
it is the same machine code as a module-level integer. A field of 0 entries marks a place (where
a variable-length tail starts). ``sizes(GS)`` gives each field's entries, ``zeros(GS, ...)``
allocates records.

Records of several arrays (the search's workspace, a game's state) are named tuples of
arrays instead, declared where they are carved or allocated.
"""

from __future__ import annotations

from collections import namedtuple
from types import MappingProxyType

import numpy as np

__all__ = ["codes", "layout", "sizes", "zeros"]


def layout(name, *fields, dtype="int64"):
    """The offsets of the record ``name`` whose fields are ``fields`` in order (a name: one
    entry; a (name, entries) pair: that many), and its length as ``SIZE``."""
    names, offsets, entries = [], [], {}
    at = 0
    for field in fields:
        fname, n = (field, 1) if isinstance(field, str) else field
        n = int(n)
        if fname in entries or fname == "SIZE" or n < 0:
            raise ValueError(f"layout {name}: field {fname!r} repeated, reserved or negative")
        names.append(fname)
        offsets.append(at)
        entries[fname] = n
        at += n
    cls = namedtuple(f"{name}Layout", names + ["SIZE"])
    cls.__doc__ = f"Offsets of the {name} record's fields, and its length (SIZE)."
    cls.sizes = MappingProxyType(entries)
    cls.dtype = np.dtype(dtype)
    return cls(*offsets, at)


def sizes(lay):
    """Each field's entries, by name, in order."""
    return dict(type(lay).sizes)


def zeros(lay, *lead):
    """A zeroed array of ``lead`` records (``lead``: leading dimensions, none for one)."""
    return np.zeros(tuple(lead) + (lay.SIZE,), type(lay).dtype)


def codes(name, *names, start=0):
    """An enumeration: ``names`` numbered from ``start``, as a named tuple (``AT.TURN``)."""
    cls = namedtuple(f"{name}Codes", names)
    cls.__doc__ = f"The {name} codes."
    return cls(*range(start, start + len(names)))
