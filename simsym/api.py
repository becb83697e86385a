"""A small Python API for notebooks: run a scenario, or load a run directory, and get the
report's tables as pandas DataFrames.

    >>> import simsym.api as ss
    >>> res = ss.run("scenarios/base.yaml", games=20_000, seed=1)
    >>> res.seats[["seat", "win_rate", "win_rate_lo", "win_rate_hi"]]
    >>> res.cards.sort_values("iwd").tail()          # strongest cards by IWD
    >>> res.cards_by_strategy                         # per strategy (None for one strategy)
    >>> ss.load("reports/base").strategies
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simsym.analysis.cards import card_strength
from simsym.analysis.rundir import load_run
from simsym.analysis.seats import compensation, seat_table, strategy_table
from simsym.model.scenario import load_scenario


@dataclass
class Results:
    run_dir: Path
    summary: dict
    seats: pd.DataFrame
    strategies: pd.DataFrame
    cards: pd.DataFrame  # card strength pooled over strategies
    cards_by_strategy: pd.DataFrame | None
    card_counts: pd.DataFrame  # the raw per (strategy, card) counts of cards.csv

    @property
    def compensation(self) -> list[int]:
        return compensation(self.summary)

    def report(self) -> Path:
        """Write report.md (and its plots) into the run directory; returns its path."""
        from simsym.report.build import build_report

        return build_report(self.run_dir)


def load(run_dir) -> Results:
    """The tables of a `simsym run` directory."""
    run = load_run(Path(run_dir))
    players = int(run.summary["players"])
    several = run.cards["strategy"].nunique() > 1
    return Results(Path(run_dir), run.summary, seat_table(run.summary),
                   strategy_table(run.summary), card_strength(run.cards, players),
                   card_strength(run.cards, players, by_strategy=True) if several else None,
                   run.cards)


def run(scenario, games: int | None = None, seed: int | None = None, jobs: int = 1,
        out=None, **rules) -> Results:
    """Run a scenario file (rule options may be overridden as keywords) and load its tables.
    Without ``out`` the run directory is a temporary one."""
    from dataclasses import replace

    from simsym.model.rules import rules_from_mapping
    from simsym.run.job import run_scenario

    sc = load_scenario(scenario)
    if rules:
        sc = replace(sc, rules=rules_from_mapping(rules, base=sc.rules))
    out = Path(out) if out else Path(tempfile.mkdtemp(prefix=f"simsym-{sc.name}-"))
    run_scenario(sc, games=games or sc.games, seed=sc.seed if seed is None else seed, out=out,
                 jobs=jobs, force=True)
    return load(out)
