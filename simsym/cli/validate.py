"""`simsym validate SCENARIO...`: check scenario files before any game runs."""

from __future__ import annotations

import click

from simsym.errors import SimsymError


def describe(scenario) -> str:
    """One line on a scenario that loaded: what the games will be played with."""
    if scenario.judges:
        tables = "judges " + ", ".join(f"{role} {s.label}"
                                       for role, s in scenario.judges.items())
    else:
        tables = "strategies " + ", ".join(s.label for s in scenario.strategies)
    ladder = ", ".join(s.label for s in scenario.ladder)
    return (f"{len(scenario.cards)} cards ({scenario.cards.deck_size} in the deck), "
            f"{scenario.players} players, {scenario.seating} seating, "
            f"{tables}" + (f"; ladder {ladder}" if ladder else ""))


@click.command("validate")
@click.argument("paths", nargs=-1, required=True, metavar="SCENARIO...")
@click.pass_context
def validate(ctx, paths):
    """Check SCENARIO files, what they extend and their cards.

    Each file is checked with the files it extends and its card file (every key: `simsym
    docs scenarios`; the card notation: `simsym docs cards`).

    Every problem of a file is listed, one a line, as FILE:LINE: KEY: what was found; what
    is allowed. Exit code 0 when every file is fine, 2 when any has a problem.

    \b
    simsym validate scenarios/*.yaml
    """
    from simsym.model.scenario import load_scenario
    from simsym.studies.tune_spec import parse_tune

    failed = 0
    for path in paths:
        try:
            scenario = load_scenario(path)
            if "tune" in scenario.raw:
                parse_tune(scenario)  # a tune spec's `tune:` block too
        except SimsymError as e:
            failed += 1
            errors = getattr(e, "errors", [e])
            for err in errors:
                click.echo(err.format() if hasattr(err, "format") else str(err))
            n = len(errors)
            click.echo(f"{path}: {n} problem{'s' if n != 1 else ''}")
            continue
        click.echo(f"{path}: ok ({describe(scenario)})")
    if len(paths) > 1:
        click.echo(f"{len(paths) - failed} of {len(paths)} scenarios ok", err=True)
    if failed:
        ctx.exit(2)
