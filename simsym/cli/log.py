"""`simsym log SCENARIO --game G`: one game, move by move, as readable text."""

from __future__ import annotations

import click

from simsym.cli.common import judge_option
from simsym.core import enums as E
from simsym.model.scenario import load_scenario


def log_header(scenario, g: int) -> str:
    """The lines above a game's moves: the scenario and game, which table plays it (a judge's,
    or the scenario's own `strategies:`) and the strategy of each seat in that game."""
    from simsym.reference.game import seating

    _, seat_strategy = seating(scenario, g)
    table = (f"the {scenario.judged_by} judge's (--judge {scenario.judged_by})"
             if scenario.judged_by else "the scenario's own (strategies:)")
    seats = ", ".join(f"{i} {scenario.strategies[k].label}" for i, k in enumerate(seat_strategy))
    return (f"# scenario {scenario.name}, seed {scenario.seed}, game {g}, "
            f"{scenario.players} players, seating {scenario.seating}\n"
            f"# table: {table}\n"
            f"# seats: {seats}\n")


def game_log(scenario, g: int, engine: str = "numba") -> str:
    """Game ``g`` of ``scenario`` (one table: a judged scenario's :meth:`judge`), its header
    and every move, then how it played (docs/game-engine.md section 8)."""
    from simsym.reference.game import render_events
    from simsym.reference.quality import describe

    if engine == "numba":
        from simsym.engine.compiled import play_logged, setup_for
        from simsym.run.reference import quality_of

        events, row, _ = play_logged(setup_for(scenario), g)
        events = [tuple(int(x) for x in e) for e in events]
        quality, turns = quality_of(row), int(row[E.ROW.TURNS])
    else:
        from simsym.reference.game import play_game

        result = play_game(scenario, g)
        events, quality, turns = result.events, result.quality, result.turns
    return (log_header(scenario, g) + render_events(events, scenario)
            + describe(quality, turns) + "\n")


@click.command("log")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@click.option("--game", "-g", type=click.IntRange(0), default=0, show_default=True,
              help="Game index (with the seed, it fixes the whole game).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Seed [default: the scenario's].")
@click.option("--engine", type=click.Choice(["numba", "python"]), default="numba",
              show_default=True)
@judge_option(run_dirs=False)
def log(scenario_path, game, seed, engine, judge):
    """Print one game's log, move by move.

    Every draw, discard, trade, Symposion and score of game --game of SCENARIO, played with
    the scenario's seed (or --seed), by the strong judge's table unless --judge fast; the
    header names the table and each seat's strategy."""
    from dataclasses import replace

    scenario = load_scenario(scenario_path).judge(judge)
    if seed is not None:
        scenario = replace(scenario, seed=seed)
    click.echo(game_log(scenario, game, engine), nl=False)
