"""`simsym tune SPEC`: search the knobs of a scenario's `tune:` block for the balance fix."""

from __future__ import annotations

import os
import sys

import click

from simsym.cli.common import jobs_option, judge_option, out_dir, out_option, quiet_option


@click.command("tune")
@click.argument("spec_path", metavar="SPEC", type=click.Path(dir_okay=False))
@out_option("reports/<name>-tune/")
@click.option("--resume", is_flag=True, help="Continue a tune cut off in --out (tune.db).")
@click.option("--force", is_flag=True, help="Start over in an --out that holds a tune.")
@jobs_option
@quiet_option
@judge_option
def tune(spec_path, out, resume, force, jobs, judge, quiet):
    """Search the `tune:` block of SPEC (knobs, targets, budget; docs/designer-guide.md) on
    the same deals for every candidate, re-measure the best on held-out deals, confirm the
    winner against the start on fresh ones, and write tuned.yaml, tune.md and trials.csv."""
    from simsym.run.lock import out_dir_lock
    from simsym.scenario import load_scenario
    from simsym.tune_report import run_tune
    from simsym.tune_spec import parse_tune

    sc = load_scenario(spec_path).judge(judge)
    if "tune" not in sc.raw:
        from simsym.errors import InputError

        raise InputError("no `tune:` block; a tune spec is a scenario with tune: {vary, "
                         "targets, budget} (docs/designer-guide.md)", spec_path, None, "tune")
    parse_tune(sc)  # every problem of the block before anything runs
    out = out_dir(out, f"{sc.name}-tune")

    def echo(line):
        if not quiet:
            click.echo(line, err=True)

    with out_dir_lock(out, "tune"):
        path = run_tune(sc, out, jobs=jobs or os.cpu_count() or 1, resume=resume,
                        force=force, echo=echo)
    if not quiet:
        click.echo(f"wrote {path}")
        sys.stdout.flush()
