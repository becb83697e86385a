"""`simsym compare-tree OLD`: compare every scenario a change touched, on the same deals."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from simsym.cli.common import (games_option, jobs_option, judge_option, out_dir, out_option,
                               quiet_option, seed_option)
from simsym.cli.compare import fail_on_option, report_failures
from simsym.studies.compare import parse_fail_on


@click.command("compare-tree")
@click.argument("old", type=click.Path(file_okay=False, exists=True))
@click.option("--new", type=click.Path(file_okay=False, exists=True), default=".",
              show_default="the current directory", help="The changed tree.")
@games_option(2, help="Games each [default: each old scenario's games].")
@seed_option
@jobs_option
@out_option("reports/compare/")
@fail_on_option
@judge_option
@click.option("--only", multiple=True, metavar="NAMES",
              help="Only these scenarios (file names without .yaml; repeatable, or several "
                   "in one value separated by spaces or commas).")
@quiet_option
def compare_tree_cmd(old, new, games, seed, jobs, out, fail_on, judge, only, quiet):
    """Compare every scenario a change touched, on the same deals.

    Compares the scenarios of NEW whose games differ from OLD's (cards, rules, table or
    strategies, with their card files and `extends`), each on the same deals; writes
    OUT/NAME/compare.md for each and the verdicts in OUT/summary.md. A scenario with
    `judges:` plays its strong judge's table on both sides (--judge fast: the other), and
    summary.md says which table judged it.

    \b
    git worktree add /tmp/base origin/main
    simsym compare-tree /tmp/base --games 20000 --fail-on "seat-gap-change>5pp"
    """
    from simsym.studies.compare import resolve, sides
    from simsym.studies.compare_tree import compare_tree, scenario_pairs
    from simsym.run.progress import Progress
    from simsym.run.lock import out_dir_lock

    rules = parse_fail_on(fail_on)
    out = out_dir(out, "compare")
    only = [n for value in only for n in value.replace(",", " ").split()] if only else None
    changed = [p for p in scenario_pairs(Path(old), Path(new), judge=judge, only=only)
               if not p.note]
    total = sum(len(sides(str(p.old), str(p.new), judge))
                * (games or resolve(str(p.old), judge)[1]) for p in changed)
    bar = Progress(total, not quiet and sys.stderr.isatty())
    say = (lambda m: None) if quiet else (lambda m: click.echo(m, err=True))
    with out_dir_lock(out, "compare-tree"):
        try:
            path, failed = compare_tree(old, new, out, games=games, seed=seed,
                                        jobs=jobs or os.cpu_count() or 1, rules=rules,
                                        progress=bar.update, say=say, judge=judge,
                                        only=only)
        finally:
            bar.close()
    if not quiet:
        click.echo(f"compared {len(changed)} scenario{'s' if len(changed) != 1 else ''}; "
                   f"wrote {path}")
    report_failures(failed)
