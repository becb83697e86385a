"""`simsym bench`: speed figures, measured in one process run so they compare side by side."""

from __future__ import annotations

import json
import os

import click

from simsym.cli.common import scenario_option, scenario_or_base


# The headline figures and their targets, under their names: (name, where bench's own figures
# keep it, the target, "min" when at most the target is wanted / "max" when at least).
HEADLINE = (
    ("search_us_median", "numba_median_us", 0.4, "min"),
    ("search_us_distinct_mean", "numba_fresh_us", 0.8, "min"),
    ("engine_games_per_s", "numba_games_per_s_1", 10_000, "max"),
    ("games_per_s_all_cores", "numba_games_per_s_all", None, "max"),
    ("million_games_s", "million_wall_s", 75, "min"),
    ("rollouts_per_s", "rollouts_per_s", None, "max"),
    ("learned_games_per_s", "learned_games_per_s", 1000, "max"),
    ("compile_cold_s", "compile_cold_s", 60, "min"),
)


def _runs(rates) -> str:
    """Each measurement of an engine rate, for the table: "9,870, 10,120 and 10,240"."""
    text = [f"{r:,.0f}" for r in rates]
    return text[0] if len(text) == 1 else ", ".join(text[:-1]) + " and " + text[-1]


def headline(figs: dict) -> dict:
    """The HEADLINE figures from bench's own (None when not measured in this run)."""
    flat = {**figs, **figs.get("engine", {})}
    return {name: flat.get(src) for name, src, _, _ in HEADLINE}


@click.command()
@scenario_option
@click.option("--hands", default=2000, show_default=True, type=click.IntRange(min=1),
              help="9-card hands for the search.")
@click.option("--ref-hands", default=30, show_default=True, type=click.IntRange(min=1),
              help="Of those, how many the (slow) brute-force reference also searches.")
@click.option("--reps", default=50, show_default=True, type=click.IntRange(min=1),
              help="Repeats of each hand when timing.")
@click.option("--games", default=4000, show_default=True, type=click.IntRange(min=1),
              help="Games per process for the engine figures (rates come from runs of this "
                   "many and three times as many, so start-up cancels out; each rate is the "
                   "fastest of three such pairs); a quarter as many for the learned player.")
@click.option("--ref-games", default=2, show_default=True, type=click.IntRange(min=1),
              help="Games the pure-Python reference engine plays (about 15 s each).")
@click.option("--million", is_flag=True,
              help="Also time a 1,000,000-game `simsym run` and its peak memory (minutes).")
@click.option("--compile/--no-compile", "with_compile", default=True, show_default=True,
              help="Time the kernels' first call in fresh processes (the cold one recompiles "
                   "everything: about a minute).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object instead of a table (the headline figures under the names "
                   "of HEADLINE, null when not measured).")
def bench(scenario_path, hands, ref_hands, reps, games, ref_games, million, with_compile,
          as_json):
    """Measure the speed of the search and the engines.

    The compiled search and engine against the plain-Python references, their scaling, the
    compile time and the memory; how to read the figures: `simsym docs performance`."""
    from simsym.run.bench import (
        compile_figures, game_figures, learned_figures, million_figures, rollout_figures,
        search_figures,
    )
    from simsym.model.scenario import BASE_SCENARIO

    scenario = scenario_or_base(scenario_path).judge("fast")  # a judged one: the engine's table
    quiet = as_json
    say = (lambda *a: None) if quiet else (lambda m: click.echo(m, err=True))
    say("measuring the best-Symposion search ...")
    figs = {"cpus": os.cpu_count(), "scenario": scenario.name}
    figs.update(search_figures(scenario, hands=hands, ref_hands=ref_hands, reps=reps))
    say("measuring the engines ...")
    figs["engine"] = game_figures(scenario, games=games, ref_games=ref_games)
    say("measuring rollouts ...")
    figs.update(rollout_figures(scenario))
    say("measuring the learned player ...")
    figs.update(learned_figures(scenario, games=max(10, games // 4)))
    if with_compile:
        say("measuring compile times in fresh processes ...")
        figs.update(compile_figures())
    if million:
        say("running 1,000,000 games ...")
        figs.update(million_figures(scenario_path or BASE_SCENARIO))
    figs.update(headline(figs))
    if as_json:
        click.echo(json.dumps(figs, sort_keys=True))
        return
    e = figs["engine"]
    lines = [
        f"simsym bench: scenario {scenario.name}, {figs['cpus']} cores",
        "",
        "best-Symposion search (9-card hands from the deck, one core)",
        f"  numba median per hand        {figs['numba_median_us']:10.2f} us",
        f"  numba hands/s                {figs['numba_hands_per_s']:10,.0f}",
        f"  numba, distinct hands        {figs['numba_fresh_us']:10.2f} us a hand, mean"
        "   (no repeats)",
        f"  reference hands/s            {figs['reference_hands_per_s']:10,.1f}"
        f"   (brute force, {figs['reference_hands']} hands)",
        f"  ratio on the same hands      {figs['ratio']:10,.0f}x",
        f"  agreement                    {figs['agree']:>10}/{figs['reference_hands']}",
        "",
        "games (base rules and strategies of the scenario)",
        f"  numba, 1 process             {e['numba_games_per_s_1']:10,.0f} games/s"
        f"   (fastest of {_runs(e['numba_games_per_s_1_runs'])})",
        f"  numba, {e['jobs']} processes          {e['numba_games_per_s_all']:10,.0f} games/s"
        f"   (fastest of {_runs(e['numba_games_per_s_all_runs'])}; scaling {e['scaling']:.2f}x)",
        f"  reference (pure Python)      {e['reference_games_per_s']:10,.3f} games/s"
        f"   ({e['reference_games']} games)",
        f"  ratio numba/reference        {e['ratio']:10,.0f}x",
        f"  summaries identical          {str(e['summaries_identical']):>10}",
        f"  rollouts, all seats greedy   {figs['rollouts_per_s']:10,.0f} /s"
        f"   (from mid-game, {figs['rollout_turns_mean']:.1f} turns each)",
        "",
        "the learned player (four `learned` seats, one process)",
        f"  games/s                      {figs['learned_games_per_s']:10,.0f}"
        f"   (fastest of {_runs(figs['learned_games_per_s_runs'])})",
        f"  lookahead-32 table           {figs['lookahead32_s_per_game']:10.3f} s a game",
        f"  cost ratio lookahead/learned {figs['learned_cost_ratio']:10,.0f}x",
    ]
    if with_compile:
        lines += ["", "compile (first call in a fresh process)",
                  f"  cold (empty numba cache)     {figs['compile_cold_s']:10.1f} s",
                  f"  from the numba cache         {figs['compile_cached_s']:10.1f} s"]
    if million:
        lines += ["", "1,000,000 games with `simsym run` (all cores)",
                  f"  wall time                    {figs['million_wall_s']:10.1f} s",
                  f"  peak RSS (largest process)   {figs['million_peak_rss_mb']:10.0f} MB"]
    lines += ["", "targets (`simsym docs performance`, `simsym docs strategies`)"]
    for name, _, target, sense in HEADLINE:
        value = figs[name]
        if target is None or value is None:
            continue
        met = value <= target if sense == "min" else value >= target
        word = "at most" if sense == "min" else "at least"
        lines.append(f"  {name:<28} {value:10,.2f}   target {word} {target:,}: "
                     f"{'met' if met else 'not met'}")
    click.echo("\n".join(lines))
