"""`simsym sweep SCENARIO`: one card value, rule option or player count over a list."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from simsym.cli.common import games_option, jobs_option, out_option, quiet_option, seed_option
from simsym.scenario import REPO_ROOT, load_scenario


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
def sweep(scenario_path, card, rule, players, values, games, seed, jobs, out, quiet):
    """Run the scenario once per value on the same seed and plot the metrics against it."""
    import yaml

    from simsym.run.executor import Progress
    from simsym.sweep import run_sweep, sweep_spec, write_sweep

    sc = load_scenario(scenario_path)
    vals = [yaml.safe_load(v) if rule else v for v in values]
    kind, target, vals = sweep_spec(sc, card, rule, players, vals)
    games = games or sc.games
    seed = sc.seed if seed is None else seed
    from simsym.run.lock import out_dir_lock

    out = Path(out) if out else REPO_ROOT / "reports" / f"{sc.name}-sweep"
    bar = Progress(games * len(vals), not quiet and sys.stderr.isatty())
    with out_dir_lock(out, "sweep"):
        try:
            df = run_sweep(sc, kind, target, vals, games, seed, jobs or os.cpu_count() or 1,
                           progress=bar.update)
        finally:
            bar.close()
        path = write_sweep(df, sc, kind, target, games, seed, out)
    if not quiet:
        click.echo(df.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
        click.echo(f"wrote {path}")
