"""Strategies written as Python classes, for designers who want one-off logic.

Only the reference engine runs them (``simsym run --engine python``). In a scenario::

    strategies:
      - family: python
        class: my_strategies.py:Hoarder     # a file beside the scenario, or module:Class
        params: {greed: 3}                  # passed to the class as keyword arguments

Subclass :class:`Strategy` and override any decision; each receives a :class:`PlayerView`
holding only what the player may see (their hand, the discard pile, the scores).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from simsym.errors import InputError

ALL_TYPES = ("intellectual", "social", "hedonistic")


@dataclass
class PlayerView:
    seat: int
    hand: list[int]  # sorted kinds
    discard: list[int]  # the discard pile, oldest first
    scores: list[int]
    turn: int
    runs_ended: int
    cards: object  # the CardSet: cards[k].name, .options, ...
    rules: object  # the RuleOptions
    _best: Callable
    _below: Callable

    def best(self, hand=None, types=ALL_TYPES, required=()):
        """The best legal Symposion of ``hand`` (default: own hand) with ``required`` kinds:
        an object with .score, .type (None if nothing is legal) and .kinds."""
        return self._best(list(self.hand if hand is None else hand), tuple(types),
                          tuple(required))

    def below(self, n: int) -> int:
        """A random whole number 0..n-1 from the game's own stream (stays reproducible)."""
        return self._below(n)

    def name(self, kind: int) -> str:
        return self.cards[kind].name


class Strategy:
    """The defaults: play the best Symposion, discard nothing, trade nothing, and at Komos
    drop the cards outside the best play that score least."""

    def __init__(self, **params):
        self.params = params

    def discards(self, view: PlayerView) -> list[int]:
        return []

    def play(self, view: PlayerView):
        p = view.best()
        return p if p.type is not None else None

    def komos(self, view: PlayerView, n: int) -> list[int]:
        keep = list(view.best().kinds)
        rest = list(view.hand)
        for k in keep:
            rest.remove(k)

        def value(k):
            return max(o.wine_scored + o.intellectual + o.hedonistic + o.either
                       for o in view.cards[k].options)

        order = sorted(rest, key=lambda k: (value(k), -k)) + \
            sorted(keep, key=lambda k: (value(k), -k))
        return order[:n]

    def propose_trade(self, view: PlayerView):
        """(kind to give, kind wanted), or None for no trade."""
        return None

    def accept_trade(self, view: PlayerView, give: list[int], get: int) -> bool:
        """Another seat offers ``give`` for our card ``get``."""
        return False


def load_class(spec: str, base_dir: Path, file=None, line=None, key=None):
    """'file.py:Class' (relative to base_dir) or 'package.module:Class' -> the class."""
    if not isinstance(spec, str) or ":" not in spec:
        raise InputError("class must be 'file.py:ClassName' or 'module:ClassName'", file, line,
                         key)
    where, name = spec.rsplit(":", 1)
    try:
        if where.endswith(".py"):
            path = (base_dir / where).resolve()
            if not path.is_file():
                raise InputError(f"strategy file {where!r} not found (looked for {path})", file,
                                 line, key)
            mod_name = f"simsym_user_{path.stem}_{abs(hash(str(path)))}"
            module = sys.modules.get(mod_name)
            if module is None:
                spec_ = importlib.util.spec_from_file_location(mod_name, path)
                module = importlib.util.module_from_spec(spec_)
                sys.modules[mod_name] = module
                spec_.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except InputError:
        raise
    except Exception as e:  # the designer's code failed to import: say so, with the error
        raise InputError(f"cannot load {spec!r}: {type(e).__name__}: {e}", file, line,
                         key) from None
    cls = getattr(module, name, None)
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise InputError(f"{spec!r}: no class {name!r} subclassing "
                         "simsym.model.custom.Strategy", file, line, key)
    return cls
