"""`simsym report RUN_DIR`: the balance report of a run directory."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("report")
@click.argument("run_dir", metavar="RUN_DIR", type=click.Path(file_okay=True, dir_okay=True))
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
def report(run_dir, quiet):
    """Rebuild a run's report.md and its figures.

    Writes RUN_DIR/report.md, cards_strength.csv and the figures, from the files a `simsym
    run` wrote into RUN_DIR (how to read the report: `simsym docs guide`)."""
    from simsym.report import build_report
    from simsym.run.lock import out_dir_lock

    run_dir = Path(run_dir)
    if not run_dir.is_dir():  # build_report says what is wrong; a lock needs a directory
        path = build_report(run_dir)
    else:
        with out_dir_lock(run_dir, "report"):
            path = build_report(run_dir)
    if not quiet:
        click.echo(f"wrote {path}")
