"""The generations of the learned player a verdict is checked against (docs/strategies.md,
"Generations"): the shipped model is the newest generation the package ships, and a verdict
of the learned player with it is checked against the generation before (simsym.studies.
convergence for a run, simsym.studies.compare for a change)."""

from __future__ import annotations

from dataclasses import replace


def previous_generation(strategy):
    """The strategy a verdict is checked against: the learned player with the generation
    before the shipped model, its other parameters as ``strategy``'s; None when ``strategy``
    is not the learned player with the shipped model or the package ships one generation."""
    from simsym.learned.model import NEWEST, PREVIOUS
    from simsym.model.strategies import make_strategy, parameters

    if strategy.family != "learned" or strategy.get("model") or PREVIOUS is None \
            or strategy.get("generation") not in (0, NEWEST):
        return None
    spec = parameters("learned")
    given = {k: v for k, v in strategy.params
             if k not in ("model", "generation") and v != spec[k][0]}
    return make_strategy({"family": "learned", **given, "generation": PREVIOUS})


def generations_of(sc):
    """(previous scenario, newest scenario, previous generation, newest generation) of a
    judged scenario's strong table, or None when its verdicts have no generation before."""
    from simsym.learned.model import NEWEST, PREVIOUS

    strong = sc.judge("strong")  # a scenario with one table is that table
    if len(strong.strategies) != 1:
        return None
    prev = previous_generation(strong.strategies[0])
    if prev is None:
        return None
    return replace(strong, strategies=[prev]), strong, PREVIOUS, NEWEST


def previous_pair(a_sc, b_sc):
    """A's and B's tables played by the generation before the shipped model, with the two
    generations, or None when either side's verdicts have no generation before."""
    ga, gb = generations_of(a_sc), generations_of(b_sc)
    if ga is None or gb is None:
        return None
    return ga[0], gb[0], ga[2], ga[3]
