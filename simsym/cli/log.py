"""`simsym log SCENARIO --game G`: one game, move by move, as readable text."""

from __future__ import annotations

import click

from simsym.model.scenario import load_scenario


def game_log(scenario, g: int, engine: str = "numba") -> str:
    from simsym.reference.game import render_events

    if engine == "numba":
        from simsym.engine.compiled import play_logged, setup_for

        events, _, _ = play_logged(setup_for(scenario), g)
        events = [tuple(int(x) for x in e) for e in events]
    else:
        from simsym.reference.game import play_game

        events = play_game(scenario, g).events
    header = (f"# scenario {scenario.name}, seed {scenario.seed}, game {g}, "
              f"{scenario.players} players, seating {scenario.seating}\n")
    return header + render_events(events, scenario) + "\n"


@click.command("log")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--game", "-g", type=click.IntRange(0), default=0, show_default=True,
              help="Game index (with the seed, it fixes the whole game).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Seed [default: the scenario's].")
@click.option("--engine", type=click.Choice(["numba", "python"]), default="numba",
              show_default=True)
def log(scenario_path, game, seed, engine):
    """Print one game's log, move by move.

    Every draw, discard, trade, Symposion and score of game --game of SCENARIO, played with
    the scenario's seed (or --seed)."""
    from dataclasses import replace

    scenario = load_scenario(scenario_path)
    if seed is not None:
        scenario = replace(scenario, seed=seed)
    click.echo(game_log(scenario, game, engine), nl=False)
