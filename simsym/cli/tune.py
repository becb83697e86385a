"""`simsym tune SPEC`: search the knobs of a scenario's `tune:` block for the balance fix."""

from __future__ import annotations

import os
import sys

import click

from simsym.cli.common import jobs_option, judge_option, out_dir, out_option, quiet_option


EPILOG = """\b
The `tune:` block (a complete example ships as simsym:tune-cards):
  tune:
    vary:                 # what may change
      cards:              # a notation template with [lo, hi] per {placeholder},
        Orgy: {text: "{points}H; HO", points: [5, 14]}   # or a list of notations
      rules: {hand_size: [8, 10]}          # whole numbers [lo, hi]; others a list
      seat_compensation: [0, 12]           # starting points of seats 1..P-1
    targets:              # what balanced means (at least one)
      iwd_band: 3pp       # IWD within 3 pp of the table average...
      iwd_cards: [Orgy]   # ...of these cards (default: every card)
      seat_spread: 2pp    # best minus worst seat's win share
      play_rate: {Orgy: 20%}
      change_penalty: 1   # objective points per changed card, rule or compensation
    budget: {trials: 14, games: 4000, block: 250, seed: 1, finalists: 2,
             holdout_games: 12000, lookahead_games: 2000}
"""


@click.command("tune", epilog=EPILOG)
@click.argument("spec_path", metavar="SPEC", type=click.Path(dir_okay=False))
@out_option("reports/<name>-tune/")
@click.option("--resume", is_flag=True, help="Continue a tune cut off in --out (tune.db).")
@click.option("--force", is_flag=True, help="Start over in an --out that holds a tune.")
@jobs_option
@quiet_option
@judge_option
def tune(spec_path, out, resume, force, jobs, judge, quiet):
    """Search card values and rules for a balanced game.

    Searches the `tune:` block of SPEC (knobs, targets, budget: below) on the same deals for
    every candidate, re-measures the best on held-out deals, confirms the winner against the
    start on fresh ones, and writes tuned.yaml, tune.md and trials.csv.

    tune.md opens with "Balanced?" for the start and the winner (balance.json holds both);
    the command prints both answers in one line."""
    from simsym.model.scenario import load_scenario
    from simsym.run.lock import out_dir_lock
    from simsym.studies.tune_report import run_tune
    from simsym.studies.tune_spec import parse_tune

    full = load_scenario(spec_path)
    sc = full.judge(judge)
    if "tune" not in sc.raw:
        from simsym.errors import InputError

        raise InputError("no `tune:` block; a tune spec is a scenario with tune: {vary, "
                         "targets, budget}; `simsym tune --help` shows one", spec_path, None,
                         "tune")
    spec = parse_tune(sc)  # every problem of the block before anything runs
    out = out_dir(out, f"{sc.name}-tune")

    from simsym.run.progress import Progress

    # On a terminal: a bar of the trials (then finalists, confirmations) over the games of
    # the one under way, each trial's result a line above them.
    bar = Progress(spec.games, not quiet and sys.stderr.isatty(), steps=spec.trials,
                   step_word="trial")

    def echo(line):
        if bar.enabled:
            bar.note(line)
        elif not quiet:
            click.echo(line, err=True)

    with out_dir_lock(out, "tune"):
        try:
            path, answers = run_tune(sc, out, jobs=jobs or os.cpu_count() or 1,
                                     resume=resume, force=force, echo=echo,
                                     others=other_tables(full, sc, spec),
                                     progress=bar if bar.enabled else None)
        finally:
            bar.close()
        from simsym.cli.report_inputs import record_inputs

        record_inputs(out)  # what `make report-changed` checks before running it again
    if not quiet:
        click.echo(answers.line())
        click.echo(f"wrote {path}")
        sys.stdout.flush()


LOOKAHEAD = {"family": "lookahead", "iterations": 32}  # the search player's strong table


def other_tables(full, sc, spec) -> list:
    """The tables a tuned change is confirmed under besides the one tuned: the other judge of
    a judged scenario (the budget's holdout_games) and a mirror table of the lookahead search
    player (the budget's lookahead_games: the search is slow, so a few thousand games)."""
    from dataclasses import replace

    from simsym.model.strategies import make_strategy

    out = []
    if full.judges:
        role = "fast" if sc.judged_by == "strong" else "strong"
        other = full.judge(role)
        out.append((f"the {role} table ({other.strategies[0].label} players)", other,
                    spec.holdout_games))
    la = make_strategy(LOOKAHEAD)
    if sc.seating == "mirror" and [s.label for s in sc.strategies] != [la.label]:
        out.append((f"a {la.label} table", replace(sc, judges=None, judged_by=None,
                                                   strategies=[la]), spec.lookahead_games))
    return out
