"""`simsym compare A B`: two scenarios (or run directories) on the same deals."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from simsym.cli.common import games_option, jobs_option, out_option, quiet_option, seed_option
from simsym.compare import FAIL_METRICS, check_fail_on, compare, parse_fail_on, write_report
from simsym.scenario import REPO_ROOT

EXIT_FAILED = 3


@click.command("compare")
@click.argument("a")
@click.argument("b")
@games_option(2, help="Games each [default: A's games].")
@seed_option
@jobs_option
@out_option("reports/compare-A-vs-B/")
@click.option("--fail-on", "fail_on", multiple=True, metavar="METRIC>VALUE",
              help="Exit 3 when a threshold is crossed (repeatable). METRIC: "
                   + "; ".join(f"{k}: {v}" for k, v in FAIL_METRICS.items()) + ".")
@quiet_option
def compare_cmd(a, b, games, seed, jobs, out, fail_on, quiet):
    """Run A and B (scenario files or run directories) on the same seeds and deals, and
    report per seat and per card A, B and the difference with a paired interval."""
    rules = parse_fail_on(fail_on)
    from simsym.compare import resolve
    from simsym.run.executor import Progress

    total = 2 * (games or resolve(a)[1])
    bar = Progress(total, not quiet and sys.stderr.isatty())
    try:
        c = compare(a, b, games=games, seed=seed, jobs=jobs or os.cpu_count() or 1,
                    progress=bar.update)
    finally:
        bar.close()
    out = Path(out) if out else REPO_ROOT / "reports" / f"compare-{c.a_name}-vs-{c.b_name}"
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
    for f in failed:
        click.echo(f"simsym: --fail-on {f}", err=True)
    if failed:
        sys.exit(EXIT_FAILED)
