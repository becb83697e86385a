"""`simsym train SPEC`: learn a player from the lookahead search (family `learned`)."""

from __future__ import annotations

import os
import sys

import click

from simsym.cli.common import jobs_option, out_dir, out_option, quiet_option


@click.command("train")
@click.argument("spec_path", metavar="SPEC", type=click.Path(dir_okay=False))
@out_option("reports/<name>/")
@click.option("--resume", is_flag=True,
              help="Continue a training cut off in --out at the first round not finished.")
@click.option("--force", is_flag=True, help="Start over in an --out that holds a training.")
@jobs_option
@quiet_option
def train(spec_path, out, resume, force, jobs, quiet):
    """Train a `learned` player from the `lookahead` search.

    As SPEC's `train:` block says (rounds, games, tables, teacher, ridge, eval_games, seed,
    start): round after round the learner plays, the search labels the decisions it
    reaches, and the model is fitted again. A `refine:` block then tunes the weights by
    direct search for winning (an evolution strategy; with rounds 0 and a start model, that
    model's). Each round's model, and the refined one, is a generation, counted on from the
    start model's: generations/generation-N.json. Writes model.json (the last; play it with
    {family: learned, model: PATH}), train.md and train.json; each round and each step of a
    refine is kept in rounds/ so that --resume goes on from there."""
    from simsym.errors import InputError
    from simsym.model.scenario import load_scenario
    from simsym.run.lock import out_dir_lock
    from simsym.studies.train import run_train
    from simsym.studies.train_spec import parse_train

    sc = load_scenario(spec_path)
    if "train" not in sc.raw:
        raise InputError("no `train:` block; a training spec is a scenario with train: "
                         "{rounds, games, tables, teacher, ridge, eval_games, seed} "
                         "(simsym train --help)", spec_path, None, "train")
    spec = parse_train(sc)
    out = out_dir(out, sc.name)

    def echo(line):
        if not quiet:
            click.echo(line, err=True)

    with out_dir_lock(out, "train"):
        path = run_train(sc, spec, out, jobs=jobs or os.cpu_count() or 1, resume=resume,
                         force=force, echo=echo)
    if not quiet:
        click.echo(f"wrote {path}")
        sys.stdout.flush()
