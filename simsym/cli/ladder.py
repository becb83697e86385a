"""`simsym ladder SCENARIO`: every strategy against every other on the same deals, rated."""

from __future__ import annotations

import os
import sys
import time

import click

from simsym.cli.common import (games_option, jobs_option, out_dir, out_option, quiet_option,
                               seed_option)
from simsym.model.scenario import load_scenario


@click.command("ladder")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@games_option(help="Games a pair of strategies, whole duplicate deals: a multiple of the "
                   "players (of twice the players when odd) [default: the scenario's games].")
@seed_option
@jobs_option
@click.option("--chunk-size", type=click.IntRange(1), default=None,
              help="Games per chunk (results do not depend on it).")
@out_option("reports/<scenario>-ladder/")
@quiet_option
def ladder(scenario_path, games, seed, jobs, chunk_size, out, quiet):
    """Rate every strategy of SCENARIO against every other.

    The strategies are the scenario's `ladder: {strategies: [...]}`, else its `strategies:`.
    Each pair plays at a table alternating the two in rotate seating, every pair on the same
    deals; the ratings are openskill's Plackett-Luce, checked by a batch Bradley-Terry fit
    with a bootstrap over deals. Writes ladder.json (best first), ladder.md, ladder.png,
    pairs.csv and ladder-run.json."""
    from importlib.metadata import version

    from simsym.studies.ladder import ORDERS, check_games, entrants, pairs, play_ladder, rate
    from simsym.studies.ladder_report import write_ladder
    from simsym.run.progress import Progress
    from simsym.run.output import prepare_out_dir

    sc = load_scenario(scenario_path)
    strategies = entrants(sc)
    games = games or sc.games
    check_games(games, sc.players)
    seed = sc.seed if seed is None else seed
    jobs = jobs or os.cpu_count() or 1
    out = prepare_out_dir(out_dir(out, f"{sc.name}-ladder"),
                          sc.name, force=True)
    total = games * len(pairs(len(strategies)))
    show = not quiet and sys.stderr.isatty()
    if not quiet:
        click.echo(f"{sc.name}: {len(strategies)} strategies, {total:,} games ({games:,} a "
                   f"pair), {sc.players} players, seed {seed}, {jobs} process"
                   f"{'es' if jobs > 1 else ''}", err=True)
    t0 = time.perf_counter()
    bar = Progress(total, show, steps=2, step_word="stage")
    bar.stage(f"playing {len(pairs(len(strategies)))} pairings", total)
    try:
        played = play_ladder(sc, games, seed, jobs=jobs, chunk_size=chunk_size,
                             progress=bar.update)
        t1 = time.perf_counter()
        what = (f"rating: openskill game by game in {ORDERS} orders, batch fit, bootstrap "
                "over deals ...")
        if show:
            bar.note(what)
        elif not quiet:
            click.echo(what, err=True)
        bar.stage(f"rating in {ORDERS} orders", ORDERS * total)
        ratings = rate(played, jobs=jobs, progress=bar.update)
    finally:
        bar.close()
    t2 = time.perf_counter()
    entries = write_ladder(played, ratings, out, run_info={
        "scenario": sc.name, "scenario_file": str(sc.path), "players": sc.players,
        "strategies": played.labels, "games_per_pair": games, "games": total,
        "deals": played.deals, "seed": seed, "jobs": jobs, "chunk_size": chunk_size,
        "play_seconds": round(t1 - t0, 3), "rate_seconds": round(t2 - t1, 3),
        "games_per_second": round(total / (t1 - t0), 1) if t1 > t0 else None,
        "versions": {name: version(name) for name in ("simsym", "openskill", "choix")},
    })
    from simsym.cli.report_inputs import record_inputs

    record_inputs(out)  # what `make report-changed` checks before running it again
    if not quiet:
        click.echo(f"{'':>4}  {'strategy':<32} {'rating (95%)':>21}  {'win share':>9}")
        for e in entries:
            click.echo(f"{e['rank']:>4}  {e['strategy']:<32} {e['rating']:6.1f} "
                       f"[{e['lo']:5.1f}, {e['hi']:5.1f}]  {e['win_share']:9.3f}")
        click.echo(f"wrote {out / 'ladder.md'}, ladder.json, ladder.png, pairs.csv")
