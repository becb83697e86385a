"""Card set -> the int64 kind table the kernels read (built once, at load time)."""

from __future__ import annotations

import numpy as np

from simsym.cards.model import CardSet
from simsym.core import enums as E


def encode_cards(cards: CardSet) -> np.ndarray:
    table = np.zeros((len(cards), E.CF_SIZE), dtype=np.int64)
    for k, c in enumerate(cards):
        row = table[k]
        row[E.CF_NOPT] = len(c.options)
        row[E.CF_CONTAINER] = c.container
        row[E.CF_VINTAGE] = c.vintage
        row[E.CF_WOMAN] = c.woman
        row[E.CF_MW] = c.maybe_woman
        row[E.CF_IO] = c.intellectual_only
        row[E.CF_HO] = c.hedonistic_only
        row[E.CF_NI] = c.not_intellectual
        row[E.CF_NH] = c.not_hedonistic
        row[E.CF_SO] = c.social_only
        row[E.CF_REQ_WOMEN] = c.requires_women
        row[E.CF_REQ_WINE] = c.requires_wine
        row[E.CF_DRAWS] = c.draws
        row[E.CF_DRAW_USABLE] = c.draw_usable
        for j, o in enumerate(c.options):
            base = E.CF_OPT + j * E.OPT_SIZE
            row[base + E.OPT_WINE] = o.wine
            row[base + E.OPT_WINE_SCORED] = o.wine_scored
            row[base + E.OPT_I] = o.intellectual
            row[base + E.OPT_H] = o.hedonistic
            row[base + E.OPT_E] = o.either
    return table
