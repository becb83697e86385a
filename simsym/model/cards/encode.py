"""Card set -> the int64 kind table the kernels read (built once, at load time)."""

from __future__ import annotations

import numpy as np

from simsym.core import enums as E
from simsym.errors import InputError
from simsym.model.cards.model import CardSet
from simsym.model.cards.notation import MAX_OPTION_POINTS, option_points


def encode_cards(cards: CardSet) -> np.ndarray:
    table = _aligned_zeros(len(cards), E.CF.SIZE)
    for k, c in enumerate(cards):
        row = table[k]
        row[E.CF.NOPT] = len(c.options)
        row[E.CF.CONTAINER] = c.container
        row[E.CF.VINTAGE] = c.vintage
        row[E.CF.WOMAN] = c.woman
        row[E.CF.MW] = c.maybe_woman
        row[E.CF.IO] = c.intellectual_only
        row[E.CF.HO] = c.hedonistic_only
        row[E.CF.NI] = c.not_intellectual
        row[E.CF.NH] = c.not_hedonistic
        row[E.CF.SO] = c.social_only
        row[E.CF.REQ_WOMEN] = c.requires_women
        row[E.CF.REQ_WINE] = c.requires_wine
        row[E.CF.DRAWS] = c.draws
        row[E.CF.DRAW_USABLE] = c.draw_usable
        for j, o in enumerate(c.options):
            points = (o.wine, o.wine_scored, o.intellectual, o.hedonistic, o.either)
            if min(points) < 0 or option_points(o) > MAX_OPTION_POINTS:
                raise InputError(f"card {c.name!r}: option {j + 1} has negative points or more "
                                 f"than {MAX_OPTION_POINTS} in all (the search's limit)")
            base = E.CF.OPT + j * E.OPT.SIZE
            row[base + E.OPT.WINE] = o.wine
            row[base + E.OPT.WINE_SCORED] = o.wine_scored
            row[base + E.OPT.I] = o.intellectual
            row[base + E.OPT.H] = o.hedonistic
            row[base + E.OPT.E] = o.either
        _derive(row)
    first = {}  # a behaviour (every column but CF.CLS) -> the lowest kind with it
    for k in range(len(table)):
        key = np.delete(table[k], E.CF.CLS).tobytes()
        table[k, E.CF.CLS] = first.setdefault(key, k)
    _exclusion_vectors(table)
    return table


def _exclusion_vectors(table: np.ndarray) -> None:
    """The deck's free-card classes numbered among themselves (in CF.SCF_FREE) and its table
    of exclusion vectors (enums.CF.XR ...; after CF.CLS, which they must not enter)."""
    K = len(table)
    if K == 0:
        return  # (no row to hold the table; the search reads none then)
    table[0, E.CF.XR_STARTS] = -1
    free = [k for k in range(K) if table[k, E.CF.SCF] == E.SCF_FREE]
    raw = sorted({int(table[k, E.CF.SCF_FREE]) & 0xFF for k in free})
    if len(raw) > E.SCF_MAX_CLASSES:
        return
    number = {c: i for i, c in enumerate(raw)}
    for k in free:
        f = int(table[k, E.CF.SCF_FREE])
        table[k, E.CF.SCF_FREE] = (f & ~0xFF) | number[f & 0xFF]
    vectors = []

    def extend(i, lost, counts):
        if i == len(raw):
            vectors.append((lost, counts))
            return
        points = raw[i] % 5 + 1
        n = 0
        while lost + n * points <= E.SCF_MAX_FREE:
            extend(i + 1, lost + n * points, counts + ([(i, n)] if n else []))
            n += 1

    extend(0, 0, [])
    if len(vectors) > min(E.XR_PER_ROW * K, 511):
        return
    vectors.sort(key=lambda v: v[0])
    for v, (lost, counts) in enumerate(vectors):
        w0 = (sum(n for _, n in counts) | lost << 4) << 56
        w1 = 0
        for t, (i, n) in enumerate(counts):
            cat, points = divmod(raw[i], 5)
            points += 1
            w0 |= n << 8 * i
            w1 |= (i | n << 3) << 6 * t
            w1 += n * (points << 32 if cat == 0 else points << 40 if cat == 1
                       else 1 << (48 if points == 1 else 56))
        row, col = divmod(v, E.XR_PER_ROW)
        table[row, E.CF.XR + 2 * col] = np.uint64(w0).view(np.int64)
        table[row, E.CF.XR + 2 * col + 1] = w1
    table[0, E.CF.XR_STARTS] = sum(
        sum(1 for lost, _ in vectors if lost < L) << 9 * L for L in range(E.SCF_MAX_FREE + 2))


def _aligned_zeros(rows: int, cols: int) -> np.ndarray:
    """A zeroed C-ordered int64 (rows, cols) array whose data starts on a 64-byte boundary."""
    buf = np.zeros(rows * cols + 8, dtype=np.int64)
    at = (-buf.ctypes.data % 64) // 8
    return buf[at:at + rows * cols].reshape(rows, cols)


def _derive(row: np.ndarray) -> None:
    """Fill a kind's derived columns (see enums.CF.OKI ...) from its flags and options.
    The search groups are Intellectual without IO cards (bit 0), Intellectual with IO cards
    and no women (bit 1), Social (bit 2) and Hedonistic (bit 3)."""
    io, ho, so = row[E.CF.IO] != 0, row[E.CF.HO] != 0, row[E.CF.SO] != 0
    a_i = not (row[E.CF.NI] or ho or so)
    a_i0 = a_i and not io
    a_s = not (io or ho)
    a_h = not (row[E.CF.NH] or io or so)
    ok = {"i": 0, "h": 0}  # options usable in Intellectual, in Hedonistic
    best = {"i": (-1, -1), "h": (-1, -1), "s": (-1, -1)}  # (value, option): first best
    bw = {(c, v): 0 for c in "ihs" for v in (0, 1)}  # largest counted wine [printed, scored]
    wm = 0
    for o in range(row[E.CF.NOPT]):
        base = E.CF.OPT + o * E.OPT.SIZE
        pw, sw = row[base + E.OPT.WINE], row[base + E.OPT.WINE_SCORED]
        ci, ch = row[base + E.OPT.I], row[base + E.OPT.H]
        val = sw + ci + ch + row[base + E.OPT.E]
        if pw or sw:
            wm |= 1 << o
        for c, usable in (("i", ch == 0), ("h", ci == 0), ("s", True)):
            if not usable:
                continue
            if c in ok:
                ok[c] |= 1 << o
            if val > best[c][0]:
                best[c] = (val, o)
            for v, cw in ((0, pw), (1, sw)):
                bw[c, v] = max(bw[c, v], cw)
    oki, okh = ok["i"], ok["h"]
    row[E.CF.OKI], row[E.CF.OKH], row[E.CF.WM] = oki, okh, wm
    row[E.CF.BVI], row[E.CF.BI] = best["i"]
    row[E.CF.BVH], row[E.CF.BH] = best["h"]
    row[E.CF.BVS] = best["s"][0]
    for v in (0, 1):
        row[E.CF.BWI + v], row[E.CF.BWH + v] = bw["i", v], bw["h", v]
        row[E.CF.BWS + v] = bw["s", v]
    for u in (0, 1):  # io_bars_mw off, on
        a_i1 = a_i and not (row[E.CF.WOMAN] or (row[E.CF.MW] and u))
        row[E.CF.AL + u] = ((1 if a_i0 and oki else 0) | (2 if a_i1 and oki else 0)
                            | (4 if a_s and row[E.CF.NOPT] else 0) | (8 if a_h and okh else 0))
        row[E.CF.WMAT + u] = 0 if row[E.CF.REQ_WOMEN] <= 0 else (
            (1 if a_i0 else 0) | (2 if a_i1 else 0) | (4 if a_s else 0) | (8 if a_h else 0))
    row[E.CF.FREE] = int(row[E.CF.VINTAGE] == 0 and row[E.CF.REQ_WOMEN] == 0
                         and row[E.CF.REQ_WINE] == 0)
    _walk_states(row)
    _social_shape(row)
    lane = E.LANE
    for u in (0, 1):
        al = row[E.CF.AL + u]
        joins = [g for g in range(len(E.CF_GROUP_BV)) if (al >> g) & 1]
        row[E.CF.PUB + u] = sum(int(row[E.CF_GROUP_BV[g]]) << lane * g for g in joins)
        for v in (0, 1):
            row[E.CF.PWX + 2 * u + v] = sum(int(row[E.CF_GROUP_BW[g] + v]) << lane * g
                                            for g in joins)


def _social_shape(row: np.ndarray) -> None:
    """The kind's shape for the Social group's closed form (enums.CF.SCF ...)."""
    if not (row[E.CF.AL] >> 2) & 1:
        row[E.CF.SCF] = E.SCF_NONE
        return
    row[E.CF.SCF] = E.SCF_OTHER
    if row[E.CF.REQ_WOMEN] > 0 or row[E.CF.REQ_WINE] > 0:
        return
    opts = [_option_fields(row, o) for o in range(row[E.CF.NOPT])]
    if any(e not in (0, 1, 2) for *_, e in opts):
        return
    if len(opts) == 1 and not row[E.CF.VINTAGE] and opts[0][0] == 0 and opts[0][1] == 0:
        _, _, ci, ch, ce = opts[0]
        cats = [(c, v) for c, v in ((0, ci), (1, ch), (2, ce)) if v]
        if len(cats) != 1 or cats[0][1] > E.SCF_MAX_FREE:
            return
        cat, v = cats[0]
        row[E.CF.SCF] = E.SCF_FREE
        row[E.CF.SCF_FREE] = ((cat * 5 + v - 1) | ci << 8 | ch << 16 | (ce == 1) << 24
                              | (ce == 2) << 32 | v << 40)
        return
    states = []
    for o, (pw, sw, ci, ch, ce) in enumerate(opts):
        fields = (pw, sw, 0 if row[E.CF.CONTAINER] else pw, 1 if row[E.CF.VINTAGE] else 0, ci,
                  ch, int(ce == 1), int(ce == 2))
        if max(fields) > E.SCF_MAX_FIELD:
            return
        word = sum(f << 8 * i for i, f in enumerate(fields))
        states.append((_value(sw, ci, ch, ce), o, word))
    states.sort(key=lambda t: -t[0])  # stable: the earlier option first among equals
    row[E.CF.SCF] = E.SCF_ENUM
    row[E.CF.SCF_NS] = len(states)
    row[E.CF.SCF_MAXP] = max(pw for pw, *_ in opts)
    row[E.CF.SCF_VAL] = states[0][0]
    for i, (val, o, word) in enumerate(states):
        row[E.CF.SCF_ST + i] = word
        row[E.CF.SCF_OPT + i] = o | val << 8


def _option_fields(row: np.ndarray, o: int) -> tuple[int, int, int, int, int]:
    """Option o of the kind: (printed Wine, scored Wine, I, H, E)."""
    base = E.CF.OPT + o * E.OPT.SIZE
    return tuple(int(row[base + f]) for f in (E.OPT.WINE, E.OPT.WINE_SCORED, E.OPT.I, E.OPT.H,
                                               E.OPT.E))


def _value(sw: int, ci: int, ch: int, ce: int) -> int:
    """An option's value, which orders a kind's states (the walk's and _social_cf's alike):
    its scored Wine and points."""
    return sw + ci + ch + ce


def _walk_states(row: np.ndarray) -> None:
    """The kind's walk states per search type (enums.CF.ST ...): for each option the type may
    use, highest value first (a stable sort: the earlier option first among equals), the
    packed words the search's walk sums (search_nb.ST.P0, ST.P1, ST.P2), under both settings of
    ``wine_counts`` and ``bonus_wine``."""
    lane = E.LANE
    okm = {E.T_INTELLECTUAL: row[E.CF.OKI], E.T_HEDONISTIC: row[E.CF.OKH],
           E.T_SOCIAL: (1 << row[E.CF.NOPT]) - 1}
    for t, usable in okm.items():
        opts = [o for o in range(row[E.CF.NOPT]) if (usable >> o) & 1]
        block = E.CF.ST + t * E.ST_BLOCK
        states = []
        for o in opts:
            pw, sw, ci, ch, ce = _option_fields(row, o)
            si, sh, se = ((ci + ce, 0, 0) if t == E.T_INTELLECTUAL
                          else (0, ch + ce, 0) if t == E.T_HEDONISTIC else (ci, ch, ce))
            val = _value(sw, ci, ch, ce)
            p0 = [cw | ((0 if row[E.CF.CONTAINER] else cw) << lane)
                  | (int(row[E.CF.VINTAGE]) << 2 * lane) | (val << 3 * lane) for cw in (pw, sw)]
            p1 = [1 | (wb << lane) for wb in (pw, sw)]
            states.append((-val, o, p0, p1, si | (sh << lane) | (se << 2 * lane)))
        states.sort(key=lambda s: s[:2])
        row[block] = len(states)
        for c, (_, o, p0, p1, p2) in enumerate(states):
            at = block + 1 + c * E.STF.SIZE
            row[at + E.STF.P0:at + E.STF.P0 + 2] = p0
            row[at + E.STF.P1:at + E.STF.P1 + 2] = p1
            row[at + E.STF.P2] = p2
            row[at + E.STF.OPT] = o


def aligned(table: np.ndarray) -> np.ndarray:
    """``table`` itself when its data starts on a 64-byte boundary (as encode_cards makes it),
    else an aligned copy (an unpickled table, in a worker process, is not)."""
    if table.ctypes.data % 64 == 0 and table.flags.c_contiguous:
        return table
    out = _aligned_zeros(*table.shape)
    out[...] = table
    return out
