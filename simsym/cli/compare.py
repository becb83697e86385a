"""`simsym compare A B`: two scenarios (or run directories) on the same deals."""

from __future__ import annotations

import os
import sys

import click

from simsym.cli.common import (games_option, jobs_option, out_dir, out_option, quiet_option,
                               seed_option)
from simsym.compare import FAIL_METRICS, check_fail_on, compare, parse_fail_on, write_report

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
@quiet_option
def compare_cmd(a, b, games, seed, jobs, out, fail_on, quiet):
    """Run A and B (scenario files or run directories) on the same seeds and deals, and
    report per seat and per card A, B and the difference with a paired interval."""
    rules = parse_fail_on(fail_on)
    from simsym.compare import resolve
    from simsym.run.executor import Progress
    from simsym.run.lock import out_dir_lock

    a_sc, a_games, _ = resolve(a)
    b_sc = resolve(b)[0]
    out = out_dir(out, f"compare-{a_sc.name}-vs-{b_sc.name}")
    bar = Progress(2 * (games or a_games), not quiet and sys.stderr.isatty())
    with out_dir_lock(out, "compare"):
        try:
            c = compare(a, b, games=games, seed=seed, jobs=jobs or os.cpu_count() or 1,
                        progress=bar.update)
        finally:
            bar.close()
        failed = check_fail_on(c, rules)
        path = write_report(c, out, failed)
    if not quiet:
        gap = c.gap.iloc[0]
        click.echo(f"seat gap: A {100 * gap['A']:.1f}%, B {100 * gap['B']:.1f}% "
                   f"(change {100 * gap['diff']:+.1f} pp, 95% CI {100 * gap['lo']:+.1f} to "
                   f"{100 * gap['hi']:+.1f})")
        moved = c.cards[(c.cards["metric"] == "gih_wr") & c.cards["beyond_noise"]]
        click.echo("cards beyond noise: " + (", ".join(
            f"{r['name']} {100 * r['diff']:+.1f} pp" for _, r in moved.iterrows()) or "none"))
        click.echo(f"wrote {path}")
    report_failures(failed)


def report_failures(failed):
    for f in failed:
        click.echo(f"simsym: --fail-on {f}", err=True)
    if failed:
        sys.exit(EXIT_FAILED)
