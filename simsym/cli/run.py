"""`simsym run SCENARIO`: the main job."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from simsym.cli.common import (games_option, jobs_option, json_option, out_dir, out_option,
                               quiet_option, seed_option)
from simsym.run.executor import ENGINES
from simsym.model.scenario import load_scenario


@click.command("run")
@click.argument("scenario_path", metavar="SCENARIO", type=click.Path(dir_okay=False))
@games_option(help="Games to play [default: the scenario's games].")
@seed_option
@jobs_option
@click.option("--engine", type=click.Choice(ENGINES), default="numba", show_default=True,
              help="The compiled engine, or the plain-Python reference (slow).")
@click.option("--search", type=click.Choice(["reference", "numba"]), default="reference",
              show_default=True,
              help="With --engine python: the brute-force best-Symposion search, or the "
                   "compiled one (faster; for strategies written as Python classes).")
@out_option("reports/<scenario name>/")
@click.option("--save-games", is_flag=True,
              help="Also write the games as Parquet: games/ (one row a game) and "
                   "games_long/ (one row a game and seat).")
@click.option("--chunk-size", type=click.IntRange(1), default=None,
              help="Games per chunk (results do not depend on it).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Processes on this machine, or a Dask cluster.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="With --executor dask: an existing scheduler [default: a local cluster with "
                   "one worker a core].")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted run in --out from its saved chunks.")
@click.option("--force", is_flag=True, help="Overwrite a run directory of another scenario.")
@click.option("--verify-compensation", is_flag=True,
              help="Re-run on the same deals with the suggested seat compensation and show "
                   "the seats after it in the report (a scenario with `judges:`: on fresh "
                   "deals, under both tables).")
@click.option("--judge", type=click.Choice(["both", "fast", "strong"]), default="both",
              show_default=True,
              help="A scenario with `judges:`: run both tables on the same deals, or only "
                   "one of them [default --out: reports/<scenario name>-<judge>/].")
@click.option("--report/--no-report", default=True, show_default=True,
              help="Also write report.md with its plots (simsym report RUN_DIR).")
@quiet_option
@json_option
def run(scenario_path, games, seed, jobs, engine, search, out, save_games, chunk_size,
        executor, scheduler, resume, force, verify_compensation, judge, report, quiet,
        as_json):
    """Play SCENARIO's games and write its report.

    Simulates many seeded games of SCENARIO and writes, into --out, summary.json,
    cards.csv, seats.csv, totals.json, run.json and report.md with its figures (not
    report.md with --no-report). A scenario judged by two tables (`judges:`) plays both on
    the same deals: judges.json beside them, the fast table's files in fast/. How to read
    the report: `simsym docs guide`."""
    from simsym.run.job import compile_note, run_scenario
    from simsym.run.lock import out_dir_lock

    scenario = load_scenario(scenario_path)
    games = games or scenario.games
    seed = scenario.seed if seed is None else seed
    jobs = jobs or os.cpu_count() or 1
    if judge != "both" and not scenario.judges:
        raise click.UsageError(f"--judge {judge}: {scenario_path} names its own table "
                               "(`strategies:`), it has no judges")
    # one judge's table alone goes beside the judged run's directory, not over it
    out = out_dir(out, scenario.name if judge == "both" else f"{scenario.name}-{judge}")
    if scheduler and executor != "dask":
        raise click.UsageError("--scheduler goes with --executor dask")
    if executor == "dask" and engine != "numba":
        raise click.UsageError("--executor dask runs the numba engine")
    show = not quiet and sys.stderr.isatty()
    if not quiet:
        where = (f"Dask at {scheduler}" if scheduler else f"local Dask cluster, {jobs} workers") \
            if executor == "dask" else f"{jobs} process{'es' if jobs > 1 else ''}"
        click.echo(f"{scenario.name}: {games:,} games, {scenario.players} players, seed {seed}, "
                   f"{engine} engine, {where}" + (", resuming" if resume else ""), err=True)
    if engine == "numba":
        from simsym.engine.compiled import setup_for

        setup_for(scenario)  # refuse what the numba engine cannot run before touching --out
    if scenario.judges and judge == "both":
        _run_judged(scenario, games, seed, out, jobs, engine, search, save_games, chunk_size,
                    executor, scheduler, resume, force, verify_compensation, report,
                    quiet or as_json, show)
        if as_json:
            click.echo(run_json(out))
        return
    scenario = scenario.judge(None if judge == "both" else judge)
    with out_dir_lock(out, "run"):
        (out / "judges.json").unlink(missing_ok=True)  # a judged run's, now replaced
        summary = run_scenario(scenario, games=games, seed=seed, out=out, jobs=jobs,
                               engine=engine, save_games=save_games, progress=show, force=force,
                               chunk_size=chunk_size, search=search, executor=executor,
                               scheduler=scheduler, resume=resume,
                               meanwhile=_report_imports if report else None)
        note = None if quiet else compile_note(out)
        if note:
            click.echo(note, err=True)
        _after_run(scenario, summary, games, seed, out, jobs, show, verify_compensation,
                   report, quiet, dict(engine=engine, search=search, executor=executor,
                                       scheduler=scheduler, chunk_size=chunk_size))
        from simsym.cli.report_inputs import record_inputs

        record_inputs(out)  # what `make report-changed` checks before running it again
    if as_json:
        click.echo(run_json(out))
    elif not quiet:
        click.echo("\n".join([*balance_summary(out), format_summary(summary)]))
        click.echo(f"\nwrote {out}/summary.json, cards.csv, seats.csv, run.json"
                   + (", report.md" if report else "")
                   + (", games/, games_long/" if save_games else ""))


def _report_imports():
    """The report's imports (matplotlib: about a second), made while the games play."""
    import simsym.report.build  # noqa: F401


def run_json(out) -> str:
    """`simsym run --json`: the run's verdict as one JSON object, from the files it wrote: a
    judged run's judges.json (both tables' seats and gaps, the compensation, the skill gap),
    or a one-table run's seats, gap and compensation check; with where they are."""
    import json

    from simsym.run.compensation import gap_of, seats_of  # as judges.json's tables say them

    out = Path(out)
    if (out / "judges.json").exists():
        doc = json.loads((out / "judges.json").read_text())
    else:
        s = json.loads((out / "summary.json").read_text())
        doc = {"games": s["games"], "seed": s["seed"], "tables": {"table": {
            "strategy": ", ".join(dict.fromkeys(seat["strategy"] for seat in s["seats"])),
            "seats": seats_of(s), "gap": gap_of(s)}}}
        if (out / "compensation.json").exists():
            doc["compensation"] = {"table": json.loads((out / "compensation.json")
                                                        .read_text())}
    scenario = json.loads((out / "run.json").read_text()).get("scenario")
    balance = out / "balance.json"
    balanced = json.loads(balance.read_text())["tables"] if balance.exists() else None
    return json.dumps({"scenario": scenario, "out": str(out), "units": "pp",
                       "balanced": balanced, **_in_pp(doc)}, indent=1)


_SHARE_KEYS = {"win_rate", "ci95", "gap", "gap_before", "gap_after", "fair_share"}


def _in_pp(x, key=None):
    """A JSON document's shares (win rates, their intervals, seat gaps) in pp."""
    if isinstance(x, dict):
        return {k: _in_pp(v, k) for k, v in x.items()}
    if isinstance(x, list):
        return [_in_pp(v, key) for v in x]
    if key in _SHARE_KEYS and isinstance(x, (int, float)) and not isinstance(x, bool):
        return round(x * 100, 4)
    return x


def balance_summary(out) -> list[str]:
    """"Balanced?" under each table, a line each, from the report's balance.json (none
    without a report)."""
    import json

    path = Path(out) / "balance.json"
    if not path.exists():
        return []
    lines = []
    for t in json.loads(path.read_text())["tables"]:
        sp = t["seats"]["spread"]
        n_out = len(t["cards"]["strong_outside"]) + len(t["cards"]["weak_outside"])
        lines.append(f"Balanced? {t['judge']}: {t['balanced']} (cards {t['cards']['state']}: "
                     f"{n_out} outside the ±{t['criteria']['card_band']:g} pp band beyond "
                     f"noise; seats {t['seats']['state']}: spread {sp['value']:.1f} pp "
                     f"({sp['lo']:.1f} to {sp['hi']:.1f}))")
    return lines


def _run_judged(scenario, games, seed, out, jobs, engine, search, save_games, chunk_size,
                executor, scheduler, resume, force, verify, report, quiet, show):
    """Both judges' tables on the same deals, their checks, and the report that opens with
    the verdicts under both."""
    from simsym.run.judged import FAST_DIR, run_judged
    from simsym.run.lock import out_dir_lock

    def echo(text):
        if not quiet:
            click.echo(text, err=True)

    with out_dir_lock(out, "run"):
        result = run_judged(scenario, games=games, seed=seed, out=out, jobs=jobs,
                            verify=verify, progress=show, echo=echo, resume=resume,
                            force=force, engine=engine, save_games=save_games,
                            chunk_size=chunk_size, search=search, executor=executor,
                            scheduler=scheduler,
                            meanwhile=_report_imports if report else None)
        _convergence(scenario, result, out, jobs, show, echo, engine=engine, search=search,
                     executor=executor, scheduler=scheduler)
        if report:
            from simsym.report.build import build_report

            build_report(out)  # and the fast table's, in FAST_DIR
        from simsym.cli.report_inputs import record_inputs

        record_inputs(out)  # what `make report-changed` checks before running it again
    if not quiet:
        click.echo("\n".join([*balance_summary(out), format_judged(result)]))
        click.echo(f"\nwrote {out}/judges.json, summary.json, cards.csv, seats.csv, run.json"
                   + (", report.md" if report else "") + f" and {out}/{FAST_DIR}/ (the fast "
                   "table)")


def _convergence(scenario, judges: dict, out, jobs, show, echo, **play):
    """Whether the strong verdicts hold for better players: the strong table again with the
    generation before the shipped model, on the same deals and on the compensation's fresh
    ones (simsym.studies.convergence), into convergence.json; none for a strong judge with
    no generation before it."""
    from simsym.run.output import write_json
    from simsym.run.progress import Progress
    from simsym.studies.convergence import CONVERGENCE_JSON, convergence, generations_of

    path = out / CONVERGENCE_JSON
    path.unlink(missing_ok=True)  # it described an older run
    g = generations_of(scenario)
    if g is None:
        return
    comp = (judges.get("compensation") or {}).get("strong")
    games, seed = judges["games"], judges["seed"]
    echo(f"for better players? the strong table with generation {g[2]} of the learned "
         f"player against generation {g[3]}, on the same deals"
         + (" and on the compensation's fresh ones" if comp else "") + " ...")
    bar = Progress(games * (4 if comp else 2), show)
    try:
        doc = convergence(scenario, games, seed, jobs,
                          compensation=comp and comp["suggested"],
                          compensation_seed=comp and comp["seed"], progress=bar.update,
                          **play)
    finally:
        bar.close()
    write_json(path, doc)


def format_judged(r: dict) -> str:
    """The two tables' seats side by side, the compensation checks, the skill gap."""
    t = r["tables"]
    names = [f"{role} ({t[role]['strategy']})" for role in ("fast", "strong")]
    lines = [f"{r['games']:,} games a table, the same deals",
             f"{'seat':>4}  {names[0]:>22}  {names[1]:>22}"]
    for a, b in zip(t["fast"]["seats"], t["strong"]["seats"]):
        lines.append(f"{a['seat']:>4}  {100 * a['win_rate']:>21.1f}%  "
                     f"{100 * b['win_rate']:>21.1f}%")
    lines.append(f"{'gap':>4}  {100 * t['fast']['gap']:>19.1f} pp  "
                 f"{100 * t['strong']['gap']:>19.1f} pp")
    c = r.get("compensation")
    if c:
        lines.append(f"compensation {c['strong']['suggested']} (evens the strong table), on "
                     f"fresh deals: strong gap {100 * c['strong']['gap_after']:.1f} pp, fast "
                     f"gap {100 * c['strong_under_fast']['gap_after']:.1f} pp")
        lines.append(f"the fast table's own {c['fast']['suggested']}: fast gap "
                     f"{100 * c['fast']['gap_after']:.1f} pp")
    k = r["skill"]
    lo, hi = k["ci95"]
    lines.append(f"skill: one {k['strong']} against {len(t['fast']['seats']) - 1} "
                 f"{k['fast']} wins "
                 f"{100 * k['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) of "
                 f"{k['games']:,} games, fair share {100 * k['fair_share']:.1f}%")
    return "\n".join(lines)


def _after_run(scenario, summary, games, seed, out, jobs, show, verify_compensation, report,
               quiet, play):
    """The compensation check (played as the run was: ``play``, run_games' engine, executor,
    ...) and the report, while the run still holds --out."""
    if verify_compensation:
        from simsym.run.compensation import verify_compensation as verify
        from simsym.run.progress import Progress

        if not quiet:
            click.echo("verifying the suggested seat compensation on the same deals ...",
                       err=True)
        bar = Progress(games, show)
        try:
            chk = verify(scenario, summary, games, seed, out, jobs=jobs, progress=bar.update,
                         **play)
        finally:
            bar.close()
        if not quiet:
            click.echo(f"compensation {chk['suggested']}: seat gap {100 * chk['gap_before']:.1f}"
                       f" -> {100 * chk['gap_after']:.1f} pp", err=True)
    elif (out / "compensation.json").exists():
        (out / "compensation.json").unlink()  # it described an older run
    if report:
        from simsym.report.build import build_report

        build_report(out)


def format_summary(s: dict) -> str:
    """The terminal's seat table of a one-table run: win shares in %, intervals, scores."""
    lines = [f"{s['games']:,} games, {s['players']} players, {s['stalled']} stalled, "
             f"{s['mean_turns']:.1f} turns and {s['trades_per_game']:.2f} trades a game",
             f"{'seat':>4}  {'strategy':<24} {'win share':>9}  {'95% CI':>13}  "
             f"{'mean score':>10}"]
    for seat in s["seats"]:
        lo, hi = seat["ci95"]
        ci = f"{100 * lo:.1f}-{100 * hi:.1f}%"
        lines.append(f"{seat['seat']:>4}  {seat['strategy']:<24} {100 * seat['win_rate']:>8.1f}%"
                     f"  {ci:>13}  {seat['mean_score']:>10.2f}")
    if len(s["strategies"]) > 1:
        lines.append(f"{'':>4}  {'strategy':<24} {'win share':>9}")
        for st in s["strategies"]:
            lo, hi = st["ci95"]
            ci = f"{100 * lo:.1f}-{100 * hi:.1f}%"
            lines.append(f"{'':>4}  {st['strategy']:<24} {100 * st['win_rate']:>8.1f}%"
                         f"  {ci:>13}  {st['mean_score']:>10.2f}")
    lines.append(f"fair share {100 * s['fair_share']:.1f}%")
    return "\n".join(lines)
