"""Options and helpers shared by several commands (declared once, as pip-tools does)."""

from __future__ import annotations

from pathlib import Path

import click

from simsym.model.scenario import BASE_SCENARIO, load_scenario

scenario_option = click.option(
    "--scenario", "scenario_path", type=click.Path(dir_okay=False), default=None,
    help="Scenario whose cards and rule options to use (default: simsym:base, the game as "
         "written).")


def scenario_or_base(path):
    return load_scenario(path or BASE_SCENARIO)

MAX_GAMES = 10**12

seed_option = click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
                           help="Seed [default: the scenario's].")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(1), default=None,
                           help="Processes [default: all cores].")
quiet_option = click.option("--quiet", "-q", is_flag=True,
                            help="No progress bar and no summary on the terminal.")
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print the verdict as one JSON object on stdout instead of the "
                                "summary (progress still goes to stderr).")


def games_option(least: int = 1, default=None, help="Games [default: the scenario's].",
                 **kw):
    return click.option("--games", type=click.IntRange(least, MAX_GAMES), default=default,
                        help=help, **kw)


def out_option(where: str):
    return click.option("--out", type=click.Path(file_okay=False), default=None,
                        help=f"Output directory [default: ./{where}].")


def out_dir(out, name: str) -> Path:
    """``--out`` if given, else ``reports/<name>/`` under the current directory: a command's
    outputs land where the user runs it, never inside the installed package."""
    return Path(out) if out else Path("reports") / name


def judge_option(f=None, *, run_dirs: bool = True):
    """--judge: which of a judged scenario's two tables plays (`judges:`). ``run_dirs``: the
    command also takes run directories (which hold one table); ``judge_option(run_dirs=False)``
    for one that takes scenarios only."""
    default = "strong; a run directory: the table it holds" if run_dirs else "strong"
    option = click.option(
        "--judge", type=click.Choice(["strong", "fast"]), default=None,
        help="A scenario judged by two tables (`judges:`): play the strong table (the "
             f"verdict to trust) or the fast scripted one [default: {default}]. A scenario "
             "that names its own `strategies:` plays them whatever this says.")
    return option if f is None else option(f)
