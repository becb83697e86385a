"""`simsym sweep SCENARIO`: one card value, rule option, player count or strategy table over a
list."""

from __future__ import annotations

import os
import sys

import click

from simsym.cli.common import (games_option, jobs_option, judge_option, out_dir, out_option,
                               quiet_option, seed_option)
from simsym.model.scenario import load_scenario


@click.command("sweep")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--card", default=None, help="Card whose notation varies.")
@click.option("--rule", default=None, help="Rule option that varies.")
@click.option("--players", multiple=True, type=click.IntRange(2, 6),
              help="Player counts (repeatable).")
@click.option("--values", multiple=True, help="Values (repeatable), for --card or --rule.")
@games_option(2, help="Games a value [default: the scenario's].")
@seed_option
@jobs_option
@out_option("reports/<scenario>-sweep/")
@quiet_option
@judge_option
def sweep(scenario_path, card, rule, players, values, games, seed, jobs, out, judge,
          quiet):
    """Vary one card, rule or the players; plot the metrics.

    Runs the scenario once per value on the same seed and plots the metrics against it.

    A `sweep: {strategies: [...]}` in the scenario runs each listed mirror table on the same
    deals and reports the seats, the card ranking agreement and the verdict flips side by side.
    """
    import yaml

    from simsym.run.progress import Progress
    from simsym.run.lock import out_dir_lock
    from simsym.studies.sweep import run_sweep, sweep_spec, value_labels, write_sweep

    sc = load_scenario(scenario_path).judge(judge)
    vals = [yaml.safe_load(v) if rule else v for v in values]
    kind, target, vals = sweep_spec(sc, card, rule, players, vals)
    games = games or sc.games
    seed = sc.seed if seed is None else seed
    out = out_dir(out, f"{sc.name}-sweep")
    bar = Progress(games * len(vals), not quiet and sys.stderr.isatty(),
                   steps=value_labels(kind, vals),
                   step_word="table" if kind == "strategies" else "value")
    jobs = jobs or os.cpu_count() or 1
    with out_dir_lock(out, "sweep"):
        try:
            if kind == "strategies":
                from simsym.studies.table_sweep import run_tables

                res = run_tables(sc, vals, games, seed, jobs, progress=bar.update)
                df = res.rows
            else:
                df = run_sweep(sc, kind, target, vals, games, seed, jobs, progress=bar.update)
        finally:
            bar.close()
        if kind == "strategies":
            from simsym.studies.table_sweep import write_tables

            path = write_tables(res, out)
        else:
            path = write_sweep(df, sc, kind, target, games, seed, out)
        from simsym.cli.report_inputs import record_inputs

        record_inputs(out)  # what `make report-changed` checks before running it again
    if not quiet:
        click.echo(df.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
        click.echo(f"wrote {path}")
