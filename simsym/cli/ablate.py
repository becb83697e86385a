"""`simsym ablate SCENARIO`: leave-one-out importance of each card on the same seeds."""

from __future__ import annotations

import os
import sys

import click

from simsym.cli.common import (games_option, jobs_option, judge_option, out_dir, out_option,
                               quiet_option, seed_option)
from simsym.model.scenario import load_scenario


@click.command("ablate")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--cards", "names", multiple=True,
              help="Only these cards (repeatable) [default: every card].")
@games_option(2, default=2000, show_default=True,
              help="Games per variant (paired seeds make few enough).")
@seed_option
@jobs_option
@out_option("reports/<scenario>-ablation/")
@quiet_option
@judge_option
def ablate(scenario_path, names, games, seed, jobs, out, judge, quiet):
    """Remove each card in turn and measure what changes.

    Replays the same seeds with each card removed; the change in mean score, length, seat
    gap and strategies' win shares, with paired intervals; writes ablation.md and
    ablation.csv."""
    from simsym.studies.ablate import ablate as run_ablation
    from simsym.studies.ablate import write_ablation
    from simsym.run.progress import Progress

    sc = load_scenario(scenario_path).judge(judge)
    names = list(names) or sc.cards.names
    for n in names:
        sc.cards.lookup(n, key="--cards")
    seed = sc.seed if seed is None else seed
    from simsym.run.lock import out_dir_lock

    out = out_dir(out, f"{sc.name}-ablation")
    bar = Progress(games * (len(names) + 1), not quiet and sys.stderr.isatty(),
                   steps=["the full deck"] + [f"without {n}" for n in names], step_word="deck")
    with out_dir_lock(out, "ablate"):
        try:
            df = run_ablation(sc, names, games, seed, jobs or os.cpu_count() or 1,
                              progress=bar.update)
        finally:
            bar.close()
        path = write_ablation(df, sc, games, seed, out)
    if not quiet:
        top = df.sort_values("mean_score_change").head(5)
        for _, r in top.iterrows():
            click.echo(f"{r['card']:<28} mean score {r['mean_score_change']:+.2f} "
                       f"({r['mean_score_lo']:+.2f} to {r['mean_score_hi']:+.2f})")
        click.echo(f"wrote {path}")
