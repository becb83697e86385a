"""Options and helpers shared by several commands (declared once, as pip-tools does)."""

from __future__ import annotations

import click

from simsym.scenario import BASE_SCENARIO, load_scenario

scenario_option = click.option(
    "--scenario", "scenario_path", type=click.Path(dir_okay=False), default=None,
    help="Scenario whose cards and rule options to use (default: scenarios/base.yaml).")


def scenario_or_base(path):
    return load_scenario(path or BASE_SCENARIO)
