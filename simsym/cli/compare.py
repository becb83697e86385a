"""`simsym compare A B`: two scenarios (or run directories) on the same deals."""

from __future__ import annotations

import os
import sys

import click

from simsym.cli.common import (MAX_GAMES, games_option, jobs_option, json_option, judge_option,
                               out_dir, out_option, quiet_option, seed_option)
from simsym.studies.compare import FAIL_METRICS, check_fail_on, compare, parse_fail_on, write_report
from simsym.errors import SimsymError

EXIT_FAILED = 3

fail_on_option = click.option(
    "--fail-on", "fail_on", multiple=True, metavar="METRIC>VALUE",
    help="Exit 3 when a threshold is crossed (repeatable); VALUE in percentage points "
         "(seat-gap-change>2pp) or as a fraction (0.02). METRIC: "
         + "; ".join(f"{k}: {v}" for k, v in FAIL_METRICS.items()) + ".")


@click.command("compare")
@click.argument("a")
@click.argument("b")
@games_option(2, help="Games each [default: A's games].")
@seed_option
@jobs_option
@out_option("reports/compare-A-vs-B/")
@fail_on_option
@click.option("--until-decided", is_flag=True,
              help="Play paired deal blocks until a sequential test (GSPRT) decides whether "
                   "B changed --metric by at least --delta, or --max-games is reached.")
@click.option("--metric", default="seat-gap", show_default=True,
              help="With --until-decided: seat-gap, seat:N, card:CARD (its strength), "
                   "gih:CARD, iwd:CARD, play:CARD or quality:MEASURE (turns, lead_changes, "
                   "drama, margin, shared_win, ...).")
@click.option("--delta", default="2pp", show_default=True,
              help="With --until-decided: the smallest change worth finding (2pp or 0.02; "
                   "for a measure in another unit, a number of it: 1 for a turn).")
@click.option("--alpha", type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
              default=0.05, show_default=True, help="False alarm rate of the sequential test.")
@click.option("--beta", type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
              default=0.05, show_default=True, help="Miss rate of the sequential test.")
@click.option("--max-games", type=click.IntRange(1, MAX_GAMES), default=None,
              help="With --until-decided: the cap on games each [default: A's games].")
@click.option("--block", type=click.IntRange(1), default=200, show_default=True,
              help="With --until-decided: games a paired block (whole deals).")
@judge_option
@quiet_option
@json_option
def compare_cmd(a, b, games, seed, jobs, out, fail_on, until_decided, metric, delta, alpha,
                beta, max_games, block, judge, quiet, as_json):
    """Compare scenario A with B on the same deals.

    Runs A and B (scenario files or run directories) on the same seeds and deals, and
    reports per seat and per card A, B and the difference with a paired interval, in
    compare.md (how to read it: `simsym docs guide`).

    With --until-decided, A and B are played block by block on the same deals until a
    sequential probability ratio test decides (fishtest's GSPRT on the paired block
    differences of --metric), and compare.md says first how many games it took."""
    rules = parse_fail_on(fail_on)
    from simsym.studies.compare import resolve
    from simsym.run.progress import Progress
    from simsym.run.lock import out_dir_lock

    a_sc, a_games, a_seed = resolve(a, judge)
    b_sc = resolve(b, judge)[0]
    out = out_dir(out, f"compare-{a_sc.name}-vs-{b_sc.name}")
    jobs = jobs or os.cpu_count() or 1
    if until_decided:
        from simsym.studies.sequential import SPRT, parse_delta, parse_metric

        m = parse_metric(metric, a_sc, b_sc)
        test = SPRT(parse_delta(delta, m), alpha, beta)
        cap = max_games or games or a_games
    elif max_games is not None:
        raise SimsymError("--max-games goes with --until-decided (else use --games)")
    from simsym.studies.compare import sides

    steps = [f"A {a_sc.name}", f"B {b_sc.name}"] if until_decided else \
        sides(a, b, judge, a_sc, b_sc)
    bar = Progress(len(steps) * (cap if until_decided else games or a_games),
                   not quiet and sys.stderr.isatty(),
                   steps=None if until_decided else steps, step_word="side")
    with out_dir_lock(out, "compare"):
        try:
            if until_decided:
                from simsym.studies.sequential import compare_until_decided

                c, _ = compare_until_decided(a_sc, b_sc, m, test, seed=a_seed if seed is None
                                             else seed, block=block, max_games=cap,
                                             jobs=jobs, on_games=bar.update)
            else:
                c = compare(a, b, games=games, seed=seed, jobs=jobs, progress=bar.update,
                            judge=judge)
        finally:
            bar.close()
        failed = check_fail_on(c, rules)
        path = write_report(c, out, failed)
    if as_json:
        from simsym.studies.compare import verdict_json

        click.echo(verdict_json(c, failed, path))
    elif not quiet:
        from simsym.studies.compare import terminal_lines

        click.echo("\n".join(terminal_lines(c, failed)))
        click.echo(f"wrote {path}")
    report_failures(failed)


def report_failures(failed):
    for f in failed:
        click.echo(f"simsym: --fail-on {f}", err=True)
    if failed:
        sys.exit(EXIT_FAILED)
