"""What the workbench's forms hold besides the variant (simsym.serve.variant): the
comparison's settings, their defaults, and the whole numbers typed into them."""

from __future__ import annotations

from simsym.errors import SimsymError

DEFAULT_MAX_GAMES = 20_000
DEFAULT_BLOCK = 100
DEFAULT_DELTA = "2pp"


def whole_number(text, what, default, lo, hi) -> int:
    """A form field's whole number from ``lo`` to ``hi`` (``default`` when empty), or a clear
    refusal."""
    if text is None or not str(text).strip():
        return default
    try:
        v = int(str(text).strip().replace("_", "").replace(",", ""))
    except ValueError:
        raise SimsymError(f"{what}: expected a whole number from {lo} to {hi:,}, found "
                          f"{str(text).strip()!r}") from None
    if not lo <= v <= hi:
        raise SimsymError(f"{what}: expected a whole number from {lo} to {hi:,}, found {v}")
    return v
