"""build_report: a run directory -> report.md, cards_strength.csv and PNGs beside them."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from simsym.report import plots
from simsym.report.data import ReportData, gather
from simsym.report.markdown import render
from simsym.run.output import atomic_write_text

REPORT = "report.md"
CARDS_CSV = "cards_strength.csv"
BALANCE_JSON = "balance.json"  # "Balanced?" under each table, every difference in pp
CSV_DIGITS = 6


def cards_csv(d: ReportData) -> str:
    """The card table: pooled rows (strategy 'all'), then per strategy when several."""
    frames = [d.cards] + ([d.by_strategy] if d.by_strategy is not None else [])
    df = pd.concat(frames, ignore_index=True)
    return df.round(CSV_DIGITS).to_csv(index=False, lineterminator="\n")


def draw(d: ReportData, out: Path) -> dict:
    """Write every figure into out; return the image names the report links (relative)."""
    s = d.summary
    name = s["scenario"]
    images: dict = {}
    images["seats"] = plots.win_share_plot(
        d.seats, "seat", f"{name}: win share per seat ({s['games']:,} games)",
        out / "seats.png").name
    if len(d.strategies) > 1:
        images["strategies"] = plots.win_share_plot(
            d.strategies, "strategy", f"{name}: win share per strategy",
            out / "strategies.png").name
    images["cards"] = plots.iwd_plot(
        d.cards, float(d.cards_average["iwd"]),
        f"{name}: card strength, all strategies", out / "cards-iwd.png",
        band=d.balance.criteria.card_band if d.balance else None).name
    if d.by_strategy is not None:
        images["cards_by_strategy"] = []
        for i, (label, avg) in enumerate(d.by_strategy_average.iterrows()):
            g = d.by_strategy[d.by_strategy["strategy"] == label]
            images["cards_by_strategy"].append(plots.iwd_plot(
                g, float(avg["iwd"]), f"{name}: card strength, {label}",
                out / f"cards-iwd-strategy-{i}.png").name)
    if d.scores is not None:
        images["scores"] = plots.score_plot(
            d.scores, f"{name}: final scores per seat", out / "scores.png").name
    if d.lengths is not None:
        images["lengths"] = plots.length_plot(
            d.lengths, f"{name}: game length", out / "game-length.png").name
    images["points"] = plots.points_by_type_plot(
        d.strategies, d.seats, f"{name}: points by Symposion type",
        out / "points-by-type.png").name
    return images


def build_report(run_dir: Path) -> Path:
    """Analyse RUN_DIR (written by `simsym run`) and write its report; return report.md's path.

    A missing directory or an incomplete run (no summary.json) is a SimsymError.
    """
    run_dir = Path(run_dir)
    d = gather(run_dir)
    images = draw(d, run_dir)
    atomic_write_text(run_dir / CARDS_CSV, cards_csv(d))
    path = run_dir / REPORT
    opening, balanced, answers = _judged_opening(run_dir, d) or (None, None, [d.balance])
    atomic_write_text(run_dir / BALANCE_JSON, balance_json(answers))
    quality = _quality(run_dir, d, judged=opening is not None)
    atomic_write_text(path, render(d, images, opening, balanced, quality,
                                   _convergence(run_dir)))
    return path  # report.md last: its presence means the report is whole


def convergence_doc(run_dir: Path) -> dict | None:
    """The run's convergence.json (simsym.studies.convergence), or None."""
    import json

    p = Path(run_dir) / "convergence.json"
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None


def _convergence(run_dir: Path) -> str | None:
    """"Does it hold for better players?": the strong verdicts under the generation before
    the shipped model (simsym.analysis.convergence); None without the check."""
    from simsym.analysis.convergence import lines

    doc = convergence_doc(run_dir)
    return doc and "\n".join([f"## {CONVERGENCE_HEADING}", "", *lines(doc)])


CONVERGENCE_HEADING = "Does it hold for better players?"


def _quality(run_dir: Path, d: ReportData, judged: bool) -> str | None:
    """"How the game plays" under this table, and under the fast one beside it in a judged
    run, with its plot (quality.png); None for a run without the measures."""
    from simsym.report.data import table_label
    from simsym.report.markdown import quality_section
    from simsym.run.judged import FAST_DIR

    s = d.summary
    if "quality" not in s:
        return None
    blocks = {}

    def add(label, data):
        blocks[label] = data.summary["quality"]
        check = data.compensation_check or {}
        if "quality_after" in check:  # the same table with its verified compensation
            where = "fresh deals" if check.get("deals") == "fresh" else "the same deals"
            blocks[f"{label} with {check['suggested']} ({where})"] = check["quality_after"]

    add(f"{'strong table' if judged else 'table'} ({table_label(s)})", d)
    if judged:
        fast = gather(run_dir / FAST_DIR)
        if "quality" in fast.summary:
            add(f"fast table ({table_label(fast.summary)})", fast)
    image = plots.quality_plot(blocks, f"{s['scenario']}: how the game plays "
                               f"({s['games']:,} games)", run_dir / "quality.png").name
    return quality_section(blocks, image)


def balance_json(answers: list) -> str:
    """balance.json: "Balanced?" under each table (simsym.analysis.balance.Balance.as_dict)."""
    import json

    return json.dumps({"units": "pp", "tables": [b.as_dict() for b in answers]}, indent=1) + "\n"


def _judged_opening(run_dir: Path, d: ReportData) -> tuple[str, str, list] | None:
    """A judged run's opening (both tables' verdicts), its "Balanced?" under both tables and
    the two answers, drawing its plot; None otherwise."""
    import json

    from simsym.report.judges import judged_balanced, opening
    from simsym.run.judged import FAST_DIR, JUDGES_JSON

    if not (run_dir / JUDGES_JSON).exists():
        return None
    build_report(run_dir / FAST_DIR)  # the fast table's own report, linked from this one
    fast = gather(run_dir / FAST_DIR)
    j = json.loads((run_dir / JUDGES_JSON).read_text(encoding="utf-8"))
    plots.judges_seats_plot(j["tables"], f"{d.summary['scenario']}: win share per seat, both "
                            f"tables ({j['games']:,} games each)", run_dir / "judges-seats.png")
    return (opening(run_dir, d.cards, fast.cards),
            *judged_balanced(j, d, fast, convergence_doc(run_dir)))
