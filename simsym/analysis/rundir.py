"""Read a run directory written by `simsym run` (summary.json, cards.csv, totals.json)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simsym.errors import SimsymError


@dataclass(frozen=True)
class Run:
    """The parsed files of one run directory."""

    path: Path
    summary: dict
    cards: pd.DataFrame
    totals: dict | None  # None when totals.json is absent (older runs)


def load_run(run_dir: Path) -> Run:
    """Load RUN_DIR; a missing directory or an incomplete run is a SimsymError."""
    run_dir = Path(run_dir)
    if not run_dir.exists():
        raise SimsymError(f"{run_dir}: no such run directory (make one with `simsym run "
                          f"SCENARIO --out {run_dir}`)")
    if not run_dir.is_dir():
        raise SimsymError(f"{run_dir}: is a file, not a run directory")
    summary_path = run_dir / "summary.json"
    if not summary_path.exists():
        raise SimsymError(f"{run_dir}: not a complete run directory (no summary.json; the run "
                          "may still be going, or was interrupted: rerun `simsym run`)")
    try:
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise SimsymError(f"{summary_path}: cannot be read as JSON ({e})") from None
    cards_path = run_dir / "cards.csv"
    if not cards_path.exists():
        raise SimsymError(f"{run_dir}: not a complete run directory (no cards.csv)")
    try:
        cards = pd.read_csv(cards_path)
    except (OSError, ValueError) as e:
        raise SimsymError(f"{cards_path}: cannot be read as CSV ({e})") from None
    missing = {"games", "players", "seats", "strategies"} - set(summary)
    if missing:
        raise SimsymError(f"{summary_path}: missing {', '.join(sorted(missing))}")
    totals = None
    totals_path = run_dir / "totals.json"
    if totals_path.exists():
        try:
            totals = json.loads(totals_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise SimsymError(f"{totals_path}: cannot be read as JSON ({e})") from None
    return Run(path=run_dir, summary=summary, cards=cards, totals=totals)
