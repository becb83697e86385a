"""Verify a seat-compensation suggestion by re-running with it, on the same seeds."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from simsym.analysis.seats import compensation
from simsym.run.executor import run_games
from simsym.run.output import write_json
from simsym.run.summary import build_summary


def seats_of(summary: dict) -> list[dict]:
    """Each seat's win rate, its interval and mean score."""
    return [{k: s[k] for k in ("seat", "win_rate", "ci95", "mean_score")}
            for s in summary["seats"]]


def gap_of(summary: dict) -> float:
    """The best seat's win rate minus the worst's."""
    wr = [s["win_rate"] for s in summary["seats"]]
    return round(max(wr) - min(wr), 6)


def quality_after(after: dict) -> dict:
    """A verification's ``quality_after``: how the game played with the compensation (the
    summary's "quality" block), where the summary has one."""
    return {"quality_after": after["quality"]} if "quality" in after else {}


def verify_compensation(scenario, summary: dict, games: int, seed: int, out: Path,
                        jobs: int = 1, progress=None, **play) -> dict:
    """Re-run ``scenario`` with the compensation suggested by ``summary`` as the rule option
    seat_compensation, on the same seed and games; write DIR/compensation.json. ``play``:
    run_games' engine, search, executor, scheduler and chunk_size (the run's own)."""
    comp = compensation(summary)
    after_sc = replace(scenario, rules=replace(scenario.rules, seat_compensation=tuple(comp)))
    totals, _ = run_games(after_sc, games, seed, jobs=jobs,
                          on_chunk=progress and (lambda res, done: progress(done)), **play)
    after = build_summary(after_sc, totals, games, seed)
    result = {"suggested": comp, "games": games, "seed": seed,
              "seats_before": seats_of(summary), "seats_after": seats_of(after),
              "gap_before": gap_of(summary), "gap_after": gap_of(after),
              **quality_after(after)}
    write_json(Path(out) / "compensation.json", result)
    return result
