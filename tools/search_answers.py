"""The search's answers on many cases, written to a file, so that two versions of the kernel
can be compared answer by answer (a change to the search must not move one).

    .venv/bin/python tools/search_answers.py dump /tmp/old.npy            # in this tree
    PYTHONPATH=/tmp/wt .venv/bin/python tools/search_answers.py dump /tmp/new.npy  # a worktree
    .venv/bin/python tools/search_answers.py compare /tmp/old.npy /tmp/new.npy

The cases, all from one seeded stream: the base deck and random decks (the shapes of
tests/kernels/test_search_random_decks.py, some kinds alike, some with copies), seven rule variants,
hands of 1 to 14 cards (sorted or not), type masks, required cards and floors. Each case
keeps every mode's answer: the full result (``best_symposion_ws``), the full result above a
floor (``best_symposion_hint_ws``), the play (``best_play_ws``) and the score above a floor
(``best_score_above_ws``). Run it from the repository's root (it reads scenarios/base.yaml
and the tests' deck generator); with PYTHONPATH pointing at another tree, that tree's
kernel answers.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from simsym.core import enums as E

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # for tests.*; a PYTHONPATH given first still wins for simsym

VARIANTS = (
    {},
    {"wine_social": (2, 7), "max_vintage": 2},
    {"either_split": True},
    {"social_bonus_stacks": False, "social_bonus_all_equal": 4},
    {"wine_counts": "scored", "bonus_wine": "printed"},
    {"non_container_wine": 0, "max_vintage": 0},
    {"social_bonus_equal": 4, "social_bonus_all_equal": 5},
)
RANDOM_DECKS = 12
HEAD = 1  # the score above the floor best_score_above_ws returns (-1: none)
PLAY_FIELDS = [E.RES.SCORE, E.RES.TYPE, E.RES.MASK, E.RES.NCARDS]  # best_play_ws's


def answers(cases, seed=7):
    """An int64 array, a row per case: the score best_score_above_ws returns, then the result
    rows of the four calls (full, full above the floor, play, score above the floor)."""
    from simsym.model.cards.encode import encode_cards
    from simsym.core.search_nb import (best_play_ws, best_score_above_ws,
                                       best_symposion_hint_ws, best_symposion_ws,
                                       workspace_size)
    from simsym.model.rules import RuleOptions, encode_rules
    from simsym.model.scenario import load_scenario
    from tests.kernels.test_search_random_decks import _deck

    decks = [load_scenario(ROOT / "scenarios" / "base.yaml").cards]
    decks += [_deck(s) for s in range(RANDOM_DECKS)]
    per = cases // (len(decks) * len(VARIANTS)) + 1
    ws = np.zeros(workspace_size(16), np.int64)
    res = np.zeros(E.RES.SIZE, np.int64)
    rng = random.Random(seed)
    rows = []
    for cards in decks:
        table = encode_cards(cards)
        deck = [k for k, c in enumerate(cards) for _ in range(c.copies)]
        for v in VARIANTS:
            rules = encode_rules(replace(RuleOptions(), **v))
            for _ in range(per):
                n = min(rng.choice((9, 9, 9, rng.randint(1, 14))), len(deck))
                hand = np.array(rng.sample(deck, n), np.int64)
                if rng.random() < 0.5:
                    hand = np.sort(hand)
                req = 0
                if rng.random() < 0.3:
                    req = rng.getrandbits(n) & rng.getrandbits(n) & rng.getrandbits(n)
                tm = rng.choice((7, 7, 2, 3, 6, 5))
                floor = rng.randint(0, 25)
                best_symposion_ws(hand, n, table, rules, req, tm, res, ws)
                full = res.copy()
                best_symposion_hint_ws(hand, n, table, rules, req, tm, floor, res, ws)
                hint = res.copy()
                best_play_ws(hand, n, table, rules, req, tm, res, ws)
                play = res[PLAY_FIELDS].copy()  # what the play mode writes
                above = best_score_above_ws(hand, n, table, rules, req, tm, floor, res, ws)
                score = res[:E.RES.TYPE + 1].copy()
                rows.append(np.concatenate([np.array([above], np.int64), full, hint, play,
                                            score]))
    return np.array(rows, np.int64)


def compare(a, b):
    """The indices of the rows where two answer arrays differ (every row when shapes
    differ)."""
    if a.shape != b.shape:
        return list(range(max(len(a), len(b))))
    return [int(i) for i in np.nonzero((a != b).any(axis=1))[0]]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="write the answers of this tree's kernel")
    d.add_argument("out")
    d.add_argument("--cases", type=int, default=30000)
    c = sub.add_parser("compare", help="compare two dumps")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        if args.cases < 1:
            ap.error("--cases must be at least 1")
        got = answers(args.cases)
        with open(args.out, "wb") as f:
            np.save(f, got)
        print(f"{len(got)} cases written to {args.out}")
        return 0
    a, b = np.load(args.a), np.load(args.b)
    bad = compare(a, b)
    if bad:
        print(f"{len(bad)} of {max(len(a), len(b))} cases differ; the first: {bad[:10]}")
        return 1
    print(f"{len(a)} cases, the same answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
