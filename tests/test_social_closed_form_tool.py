"""tools/social_closed_form.py (issue 11's closed-form Social prototype): its answers are the
kernel's on dealt hands, hand-worked plays come out as worked, and decks outside its card
shapes are refused."""

import dataclasses
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from simsym.cards.model import Option

ROOT = Path(__file__).parents[1]
spec = importlib.util.spec_from_file_location("social_closed_form",
                                              ROOT / "tools" / "social_closed_form.py")
scf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scf)


def _play(scenario, names):
    t = scf.tables(scenario.cards, scenario.rules)
    index = {c.name: k for k, c in enumerate(scenario.cards)}
    hand = np.array([[index[x] for x in names]], np.int64)
    out = np.zeros((1, 3 + len(names)), np.int64)
    scf._loop_cf(hand, len(names), t["kind"], t["free"], t["st"], t["ns"], t["xr"], t["xs"],
                 t["ecls"], t["rank"], t["maxp"], 1, out)
    return out[0]


def test_hand_worked_social_plays(base):
    # Ruling 21's example: 3 Wine (one a Container), I = H = 0: 3 + 2 = 5, all three cards.
    out = _play(base, ["Grapes", "Vines", "Krater"])
    assert out[0] == 5 and out[1] == 3 and out[2] == 0b111
    # I = H = W = 3: 3 + 3 + 3 + 5 = 14 with all five cards.
    out = _play(base, ["Grapes", "Vines", "Wine Mixed with Water", "Philosophy", "Kottabos"])
    assert out[0] == 14 and out[1] == 5 and out[2] == 0b11111
    # With Food (1E) too, all six score 3 + 3 + 3 + 1 = 10 and no bonus (I + H + E = 7 is
    # odd); leaving Food out makes I = H = W = 3 again: 14 with five cards.
    out = _play(base, ["Grapes", "Vines", "Wine Mixed with Water", "Philosophy", "Kottabos",
                       "Food"])
    assert out[0] == 14 and out[1] == 5 and out[2] == 0b011111
    # Dionysus (1W or 2E) as 1W: 4 Wine, I = H = 0, + 2 = 6; as 2E only 3 + 2 = 5 (2 E to one
    # side, no bonus). So option 0 (1W) with all four cards.
    out = _play(base, ["Grapes", "Vines", "Wine Mixed with Water", "Dionysus"])
    assert out[0] == 6 and out[1] == 4 and out[2] == 0b1111 and out[3 + 3] == 0
    # With Philosophy (3I): as 1W 4 + 3 = 7; as 2E 3 + 3 + 2 = 8 (I 3 against H 2 or 5 / 0,
    # no bonus). So option 1 (2E).
    out = _play(base, ["Grapes", "Vines", "Wine Mixed with Water", "Dionysus", "Philosophy"])
    assert out[0] == 8 and out[1] == 5 and out[2] == 0b11111 and out[3 + 3] == 1
    # No Social play without 3 Wine.
    out = _play(base, ["Grapes", "Philosophy", "Kottabos"])
    assert out[0] == -1 and out[2] == 0


def test_answers_are_the_kernels(base):
    hands, bad, a, b = scf.compare(base, 600, 7)
    assert len(bad) == 0
    assert (a[:, 0] >= 0).sum() > 300  # most dealt hands have a Social play
    assert (a == b).all()


def test_uncovered_decks_and_rules_are_refused(base, capsys):
    cards = list(base.cards)
    wit = next(i for i, c in enumerate(cards) if c.name == "Wit")
    cards[wit] = dataclasses.replace(cards[wit], options=(Option(either=3),))
    with pytest.raises(scf.Uncovered, match="3E"):
        scf.tables(cards, base.rules)
    rules = dataclasses.replace(base.rules, max_vintage=2)
    with pytest.raises(scf.Uncovered, match="max_vintage"):
        scf.tables(base.cards, rules)
