"""Declared layouts (simsym.core.layout): offsets follow from the fields in order, and the
kernels' records declared with them keep the positions the card table's cache lines and the
readers rely on."""

import numpy as np
import pytest
from numba import njit

from simsym.core import enums as E
from simsym.core.layout import codes, layout, sizes, zeros


def test_offsets_follow_the_fields_in_order():
    lay = layout("T", "A", ("B", 3), ("MARK", 0), "C", dtype="int32")
    assert (lay.A, lay.B, lay.MARK, lay.C, lay.SIZE) == (0, 1, 4, 4, 5)
    assert sizes(lay) == {"A": 1, "B": 3, "MARK": 0, "C": 1}
    z = zeros(lay, 2, 3)
    assert z.shape == (2, 3, 5) and z.dtype == np.int32 and not z.any()
    assert zeros(lay).shape == (5,)


@pytest.mark.parametrize("fields", [("A", "A"), ("SIZE",), (("A", -1),)])
def test_a_repeated_reserved_or_negative_field_is_refused(fields):
    with pytest.raises(ValueError, match="field"):
        layout("T", *fields)


def test_codes_number_their_names():
    ev = codes("X", "ONE", "TWO", "THREE", start=1)
    assert (ev.ONE, ev.TWO, ev.THREE) == (1, 2, 3)
    assert tuple(codes("Y", "A", "B")) == (0, 1)


def test_every_record_tiles_its_array():
    """Each declared record of the kernels: fields one after the other, no gap, no overlap,
    SIZE their sum."""
    records = {name: v for name, v in vars(E).items() if hasattr(type(v), "sizes")}
    assert {"CF", "GS", "MEMO", "BT", "BTR", "BTS", "BTP", "RES", "RULE", "GP", "SP", "CS",
            "ROW", "AGG", "CK", "OPT", "STF"} <= set(records)
    for name, lay in records.items():
        at = 0
        for field, n in sizes(lay).items():
            assert getattr(lay, field) == at, (name, field)
            at += n
        assert lay.SIZE == at, name


def test_the_card_table_keeps_its_cache_lines():
    """The columns every search reads come first, eight to a 64-byte line; the Social walk
    states start a line; a row is whole lines (simsym.core.enums)."""
    assert E.CF.SIZE == 160 and E.CF.SIZE % 8 == 0
    assert E.CF.ST + E.T_SOCIAL * E.ST_BLOCK == 80
    assert E.CF.OKH == 8 and E.CF.PWX == 16 and E.CF.BI == 24 and E.CF.BWS == 32
    assert E.CF.SCF == 17 * 8  # the closed form's columns start line 17
    assert E.CF.OPT + E.MAX_OPTIONS * E.OPT.SIZE <= E.CF.ST
    assert E.MEMO.RES == E.MEMO.CVER + 8 and E.MEMO.SIZE == 3 + 8 + 8 * E.RES.SIZE + 1 + 4
    assert E.BTR.SIZE == 10 + 2 * E.MAX_OPTIONS and E.BT.TAB == E.BT.SIZE == 24


@njit(cache=False)
def _read(sc):
    return sc[E.GS.NDISC] + 10 * sc[E.GS.LA_F0 + 3]


def test_a_kernel_reads_a_record_through_its_offsets():
    sc = zeros(E.GS)
    sc[E.GS.NDISC] = 4
    sc[E.GS.LA_F0 + 3] = 7
    assert _read(sc) == 74
