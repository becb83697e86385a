"""Does a verdict hold for better players? The strong judge against its model's generation
before, on the same deals (simsym.analysis.convergence says what the figures mean).

A judged scenario whose strong judge is the learned player with the shipped model (the newest
generation the package ships) is played again with the generation before it, both as paired
batched runs on the run's deals (simsym.studies.paired), and, when the run verified a seat
compensation, both again with it on the fresh deals it was verified on. The moves (newest
minus previous) of the seat spread, of each seat's win share, of each card's strength, of each
measure of how the game plays and of the compensated spread are one family of tests under the
one rule (Holm); each verdict is also judged under both generations by the scenario's
`balance:` criteria. ``simsym run`` writes the result as ``convergence.json`` beside
judges.json, and the report reads it; ``simsym compare`` asks the same of a change.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from simsym.analysis.convergence import card_verdict
from simsym.analysis.quality import MEASURES
from simsym.studies.compare import _one_rule, comparison_of, measure_row, pp_row
from simsym.studies.generations import generations_of
from simsym.studies.paired import balance_of, diff_frame, paired, run_batched, seat_metric

CONVERGENCE_JSON = "convergence.json"


def convergence(sc, games: int, seed: int, jobs: int = 1, compensation=None,
                compensation_seed: int | None = None, progress=None, **play) -> dict | None:
    """The check of ``sc``'s strong verdicts under the generation before the shipped model
    (see the module's text), as convergence.json holds it; None when there is none to check
    against. ``compensation``: the seat compensation the run verified on the deals of
    ``compensation_seed``. ``progress(done)`` counts the games of every side; ``play``:
    where and how they are played (run_games' engine, search, executor, scheduler)."""
    g = generations_of(sc)
    if g is None:
        return None
    prev_sc, new_sc, a, b = g
    sides = 4 if compensation else 2
    done = [0] * sides

    def bar(i):
        return progress and (lambda n: (done.__setitem__(i, n), progress(sum(done))))

    A = run_batched(prev_sc, games, seed, jobs, on_progress=bar(0), **play)
    B = run_batched(new_sc, games, seed, jobs, on_progress=bar(1), **play)
    c = comparison_of(A, B)
    bal_a, bal_b = balance_of(A), balance_of(B)
    family = [(c.gap, np.ones(len(c.gap), bool)),
              (c.seats, (c.seats["metric"] == "win_rate").to_numpy()),
              (c.cards, (c.cards["metric"] == "strength").to_numpy())]
    if c.quality is not None:
        family.append((c.quality, np.ones(len(c.quality), bool)))
    comp = None
    if compensation:
        rules = replace(new_sc.rules, seat_compensation=tuple(compensation))
        A2 = run_batched(replace(prev_sc, rules=rules), games, compensation_seed, jobs,
                         on_progress=bar(2), **play)
        B2 = run_batched(replace(new_sc, rules=rules), games, compensation_seed, jobs,
                         on_progress=bar(3), **play)
        comp = diff_frame(["compensated seat gap"],
                          paired(seat_metric, A2, B2, {"name": "seat_gap"}))
        family.append((comp, np.ones(1, bool)))
        seats_a, seats_b = balance_of(A2), balance_of(B2)
    tested = _one_rule(family)
    cards = c.cards[c.cards["metric"] == "strength"].reset_index(drop=True)
    verdicts = {side: {r["card"]: card_verdict(r["band"], r["strength"])
                       for _, r in bal.cards.iterrows()}
                for side, bal in (("previous", bal_a), ("newest", bal_b))}
    card_rows = []
    for i in range(len(cards)):
        name = cards.iloc[i]["name"]
        v = {side: verdicts[side].get(name) for side in ("previous", "newest")}
        card_rows.append({"card": name, **pp_row(cards, i), "verdict": v,
                          "holds": v["previous"] == v["newest"]})
    spread = pp_row(c.gap)
    spread["holds"] = True  # a figure, no criterion: it holds unless it moves
    doc = {"games": games, "seed": seed, "units": "pp", "tested": tested,
           "previous": {"generation": a, "judge": prev_sc.strategies[0].label},
           "newest": {"generation": b, "judge": new_sc.strategies[0].label},
           "seats": spread, "compensation": None, "cards": card_rows}
    if comp is not None:
        state = {"previous": seats_a.seats_state, "newest": seats_b.seats_state}
        doc["compensation"] = {"suggested": [int(x) for x in compensation],
                               "seed": compensation_seed, "games": games, **pp_row(comp),
                               "state": state, "holds": state["previous"] == state["newest"]}
    if c.quality is not None:
        units = dict(MEASURES)
        doc["quality"] = [{"name": r["name"], **measure_row(r, units[r["name"]]),
                           "holds": True} for _, r in c.quality.iterrows()]
    return doc
