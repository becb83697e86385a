"""`simsym bench`: speed figures, measured in one process so they compare side by side."""

from __future__ import annotations

import json

import click

from simsym.cli.common import scenario_option, scenario_or_base


@click.command()
@scenario_option
@click.option("--hands", default=2000, show_default=True, help="9-card hands for the numba search.")
@click.option("--ref-hands", default=30, show_default=True,
              help="Of those, how many the (slow) reference also searches.")
@click.option("--reps", default=50, show_default=True, help="Repeats of each hand when timing.")
@click.option("--seed", default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of a table.")
def bench(scenario_path, hands, ref_hands, reps, seed, as_json):
    """Measure the best-Symposion search: numba vs the reference on the same hands."""
    scenario = scenario_or_base(scenario_path)
    from simsym.bench import search_figures

    figs = search_figures(scenario, hands=hands, ref_hands=ref_hands, reps=reps, seed=seed)
    if as_json:
        click.echo(json.dumps(figs, sort_keys=True))
        return
    click.echo(f"best-Symposion search, {figs['hand_size']}-card hands from the "
               f"{scenario.name} deck, one core")
    click.echo(f"  numba compile (first call)     {figs['compile_s']:10.2f} s")
    click.echo(f"  numba median per hand          {figs['numba_median_us']:10.2f} us"
               f"   ({figs['numba_hands']} hands x {figs['reps']} repeats)")
    click.echo(f"  numba hands/s                  {figs['numba_hands_per_s']:10,.0f}")
    click.echo(f"  reference hands/s              {figs['reference_hands_per_s']:10,.1f}"
               f"   ({figs['reference_hands']} hands)")
    click.echo(f"  ratio numba/reference (same hands) {figs['ratio']:8,.0f}x")
    click.echo(f"  agreement on those hands       {figs['agree']}/{figs['reference_hands']}")
