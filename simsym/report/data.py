"""Everything the report shows, computed once from a run directory."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simsym.model import packaged
from simsym.analysis.balance import Balance, Criteria, judge_balance
from simsym.analysis.cards import card_averages, card_strength, pooled_counts
from simsym.analysis.degenerate import degenerate_findings
from simsym.analysis.distributions import length_distribution, score_distribution
from simsym.analysis.rundir import Run, load_run
from simsym.analysis.seats import (EqualityTest, compensation, seat_equality_test, seat_table,
                                   strategy_table)


@dataclass(frozen=True)
class ReportData:
    run: Run
    seats: pd.DataFrame
    strategies: pd.DataFrame
    equality: EqualityTest
    compensation: list[int]
    cards: pd.DataFrame  # pooled over strategies, ranked by IWD
    cards_average: pd.Series  # the pooled table's averages
    by_strategy: pd.DataFrame | None  # per (strategy, card), when several strategies
    by_strategy_average: pd.DataFrame | None
    findings: list[str]
    scores: pd.DataFrame | None  # None without totals.json
    lengths: pd.DataFrame | None
    command: list[str]
    # compensation.json of `simsym run --verify-compensation`
    compensation_check: dict | None = None
    census: dict | None = None  # census.json: the Symposia of the first games, broken down
    balance: Balance | None = None  # "Balanced?" for this table (simsym.analysis.balance)

    @property
    def summary(self) -> dict:
        return self.run.summary

    @property
    def several_strategies(self) -> bool:
        return self.by_strategy is not None


def _display_path(p) -> str:
    """A path as the reader should type it: relative to the current directory when inside it
    (``reports/base`` when run from a checkout, as the Makefile does), else absolute; a
    packaged ``simsym:NAME`` as it is."""
    if packaged.is_packaged(str(p)):
        return str(p)
    p = Path(p).resolve()
    try:
        return str(p.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def reproduce_command(run: Run) -> list[str]:
    """The commands that rebuild this run and report (results do not depend on --jobs).

    Uses only run.json's scenario file and engine (stable for a given command), never its
    timings; falls back to the packaged scenario of the run's name without run.json. A run
    with a compensation check is rebuilt with ``--verify-compensation``, so that following
    the command keeps the verified section.
    """
    s = run.summary
    meta = {}
    try:
        meta = json.loads((run.path / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    scenario_file = meta.get("scenario_file") or (
        packaged.PREFIX + s["scenario"] if s["scenario"] in packaged.names()
        else f"{s['scenario']}.yaml")
    path, judge = run.path, meta.get("judge")
    if judge == "fast" and path.name == "fast" and (path.parent / "judges.json").exists():
        path, judge = path.parent, None  # the fast table of a judged run: the run's command
    out = _display_path(path)
    cmd = (f"simsym run {_display_path(scenario_file)} --games {s['games']} "
           f"--seed {s['seed']}" + (f" --judge {judge}" if judge and not
                                    (path / "judges.json").exists() else ""))
    if meta.get("engine", "numba") != "numba":
        cmd += f" --engine {meta['engine']}"
        if meta.get("search") == "numba":
            cmd += " --search numba"
    if (path / "compensation.json").exists():
        cmd += " --verify-compensation"
    return [f"{cmd} --out {out}", f"simsym report {out}"]


def gather(run_dir: Path) -> ReportData:
    run = load_run(run_dir)
    s = run.summary
    players = int(s["players"])
    cards = card_strength(run.cards, players)
    avg = card_averages(pooled_counts(run.cards)).iloc[0]
    several = run.cards["strategy"].nunique() > 1
    by_strategy = card_strength(run.cards, players, by_strategy=True) if several else None
    by_avg = card_averages(run.cards) if several else None
    totals = run.totals
    census = _read_json(Path(run_dir) / "census.json")
    findings = degenerate_findings(s, by_strategy if several else cards)
    if census:
        from simsym.analysis.census import census_findings

        findings = census_findings(census) + findings
    check = _read_json(Path(run_dir) / "compensation.json")
    return ReportData(
        run=run, seats=seat_table(s), strategies=strategy_table(s),
        equality=seat_equality_test(s), compensation=compensation(s),
        cards=cards, cards_average=avg, by_strategy=by_strategy, by_strategy_average=by_avg,
        findings=findings,
        scores=score_distribution(totals) if totals and "score_hist" in totals else None,
        lengths=length_distribution(totals) if totals and "length_hist" in totals else None,
        command=reproduce_command(run),
        compensation_check=check, census=census,
        balance=table_balance(f"table ({table_label(s)})", s, cards, float(avg["iwd"]), check))


def table_label(summary: dict) -> str:
    """A table named by its strategies: "learned", "greedy", "greedy and patient"."""
    labels = [st["strategy"] for st in summary["strategies"]]
    return labels[0] if len(labels) == 1 else " and ".join([", ".join(labels[:-1]),
                                                            labels[-1]])


def table_balance(label: str, summary: dict, cards: pd.DataFrame, average: float,
                  check: dict | None) -> Balance:
    """"Balanced?" for one table: its cards, and its seats as played or, where a
    compensation was verified on fresh deals (``check``: compensation.json), as that
    compensation left them."""
    criteria = Criteria.from_pp(summary.get("balance"))
    if check:
        rates = [x["win_rate"] for x in check["seats_after"]]
        return judge_balance(label, cards, average, rates, int(check["games"]), criteria,
                             check["suggested"], verified=True)
    rates = [x["wins"] / x["games"] for x in summary["seats"]]
    comp = summary.get("rules", {}).get("seat_compensation") or None
    return judge_balance(label, cards, average, rates, int(summary["games"]), criteria, comp)


def _read_json(path: Path) -> dict | None:
    import json

    return json.loads(path.read_text()) if path.exists() else None

