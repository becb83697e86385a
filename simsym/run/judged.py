"""A judged scenario's run: its fast and its strong judge's mirror tables on the same deals.

The strong table's run is the run directory itself (summary.json, cards.csv, ...: what every
other command reads); the fast table's is its subdirectory ``fast/``. ``judges.json`` beside
them holds what only the two together say: each table's seats, the compensation suggested
under each and verified on fresh deals (the strong table's also under the fast table), and
the skill gap, the strong judge's win share in a table of one strong and the rest fast players
(seats rotated). The report opens with the verdicts under both (simsym.report.judges).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from simsym.analysis.seats import compensation, refine_compensation
from simsym.run.compensation import gap_of as _gap
from simsym.run.compensation import quality_after
from simsym.run.compensation import seats_of as _seats
from simsym.run.executor import run_games
from simsym.run.progress import Progress
from simsym.run.output import prepare_out_dir, write_json
from simsym.run.summary import build_summary
from simsym.run.worker import fingerprint

FAST_DIR = "fast"
JUDGES_JSON = "judges.json"
SKILL_GAMES = 20_000  # games of the mixed table that measures the skill gap
FRESH = 1  # compensations are verified on the deals of seed + FRESH (and + FRESH + 1): fresh
# The arguments of run_scenario that say where and how games are played: the compensation
# checks and the skill games play where the two tables do.
PLAY_KWARGS = ("engine", "search", "executor", "scheduler", "chunk_size")


def _finished(sc, out: Path, games: int, seed: int) -> dict | None:
    """The summary of a finished run of ``sc`` in ``out`` (a resumed judged run keeps it)."""
    try:
        meta = json.loads((out / "run.json").read_text())
        summary = json.loads((out / "summary.json").read_text())
    except (OSError, ValueError):
        return None
    same = (meta.get("fingerprint") == fingerprint(sc) and meta.get("games") == games
            and meta.get("seed") == seed and not (out / "chunks").exists())
    return summary if same else None


def _table(sc, out, *, games, seed, resume, run_kwargs, echo):
    from simsym.run.job import compile_note, run_scenario

    if resume:
        done = _finished(sc, out, games, seed)
        if done is not None:
            echo(f"{sc.judged_by} table ({sc.strategies[0].label}): finished before, kept")
            return done
    echo(f"{sc.judged_by} table: four {sc.strategies[0].label} players"
         if sc.players == 4 else
         f"{sc.judged_by} table: {sc.players} {sc.strategies[0].label} players")
    summary = run_scenario(sc, games=games, seed=seed, out=out,
                           resume=resume and (out / "chunks" / "manifest.json").exists(),
                           **run_kwargs)
    note = compile_note(out)
    if note:
        echo(note)
    return summary


def _played(sc, games, seed, jobs, show, play) -> dict:
    """The summary of ``games`` games of ``sc`` on the deals of ``seed``, with a progress bar;
    ``play``: run_games' engine, executor, ... (PLAY_KWARGS)."""
    bar = Progress(games, show)
    try:
        totals, _ = run_games(sc, games, seed, jobs=jobs,
                              on_chunk=lambda res, done: bar.update(done), **play)
    finally:
        bar.close()
    return build_summary(sc, totals, games, seed)


def _check(sc, comp, games, seed, jobs, show, echo, what, play):
    """Play ``sc`` with seat compensation ``comp`` on the deals of ``seed``."""
    echo(f"verifying {what} on {games:,} fresh deals ...")
    after_sc = replace(sc, rules=replace(sc.rules, seat_compensation=tuple(comp)))
    return _played(after_sc, games, seed, jobs, show, play)


def _verification(before, after, comp, games, seed, estimate) -> dict:
    return {"suggested": list(comp), "estimate": estimate, "games": games, "seed": seed,
            "deals": "fresh", "seats_before": _seats(before), "seats_after": _seats(after),
            "gap_before": _gap(before), "gap_after": _gap(after),
            **quality_after(after)}


def _seats_only(v: dict | None) -> dict | None:
    """A verification as judges.json keeps it: its seats (each table's compensation.json
    keeps how the game plays too)."""
    return v and {k: x for k, x in v.items() if k != "quality_after"}


def _evening(sc, summary, games, seed, jobs, show, echo, role,
             play) -> tuple[dict, dict | None]:
    """The compensation that evens ``sc``'s seats, in two estimates each played on deals
    the table has not seen: the mean-score estimate on the deals of seed + FRESH, then the
    estimate refined from the win shares that gave (simsym.analysis.seats), on the deals of
    seed + FRESH + 1, which chose nothing. Returns the verification of the compensation to
    print (the refined one, or the first when refining changes nothing) and of the first
    (None when that is the one printed)."""
    first = compensation(summary)
    seed1, seed2 = seed + FRESH, seed + FRESH + 1
    after1 = _check(sc, first, games, seed1, jobs, show, echo,
                    f"the {role} table's mean-score compensation {first}", play)
    v1 = _verification(summary, after1, first, games, seed1, "mean scores")
    refined = refine_compensation(summary, after1)
    if refined == first:
        return v1, None
    after2 = _check(sc, refined, games, seed2, jobs, show, echo,
                    f"the {role} table's compensation refined from win shares {refined}",
                    play)
    return _verification(summary, after2, refined, games, seed2, "win shares"), v1


def _skill(scenario, fast, strong, games, seed, jobs, show, echo, play) -> dict:
    """The strong judge in one seat, the fast judge in the others, seats rotated."""
    n = min(games, SKILL_GAMES)
    mixed = replace(scenario, judges=None, judged_by=None, seating="rotate",
                    strategies=[strong] + [fast] * (scenario.players - 1))
    echo(f"skill gap: one {strong.label} against {scenario.players - 1} {fast.label}, "
         f"{n:,} games ...")
    s = _played(mixed, n, seed, jobs, show, play)
    st = {x["strategy"]: x for x in s["strategies"]}[strong.label]
    return {"games": n, "seed": seed, "strong": strong.label, "fast": fast.label,
            "win_rate": st["win_rate"], "ci95": st["ci95"], "fair_share": s["fair_share"]}


def run_judged(scenario, *, games: int, seed: int, out: Path, jobs: int = 1,
               verify: bool = False, progress: bool = False, echo=None, resume: bool = False,
               force: bool = False, **run_kwargs) -> dict:
    """Run both judges' tables of ``scenario`` into ``out`` (strong) and ``out/fast``, then
    the checks of judges.json; returns judges.json's content. ``run_kwargs`` go to
    run_scenario (engine, jobs, chunk_size, executor, ...); those of PLAY_KWARGS to the
    compensation checks and the skill games too."""
    echo = echo or (lambda text: None)
    out = prepare_out_dir(Path(out), scenario.name, force or resume)
    (out / JUDGES_JSON).unlink(missing_ok=True)  # it described an older run
    fast_sc, strong_sc = scenario.judge("fast"), scenario.judge("strong")
    kw = dict(jobs=jobs, progress=progress, force=True, **run_kwargs)
    play = {k: v for k, v in run_kwargs.items() if k in PLAY_KWARGS}
    fast = _table(fast_sc, out / FAST_DIR, games=games, seed=seed, resume=resume,
                  run_kwargs=kw, echo=echo)
    strong = _table(strong_sc, out, games=games, seed=seed, resume=resume, run_kwargs=kw,
                    echo=echo)
    result = {"games": games, "seed": seed, "fast_dir": FAST_DIR,
              "tables": {role: {"strategy": sc.strategies[0].label, "seats": _seats(s),
                                "gap": _gap(s)}
                         for role, sc, s in (("fast", fast_sc, fast),
                                             ("strong", strong_sc, strong))}}
    for stale in (out / "compensation.json", out / FAST_DIR / "compensation.json"):
        stale.unlink(missing_ok=True)  # they described an older run
    if verify:
        v_s, first_s = _evening(strong_sc, strong, games, seed, jobs, progress, echo, "strong",
                                play)
        v_f, first_f = _evening(fast_sc, fast, games, seed, jobs, progress, echo, "fast", play)
        comp_s = v_s["suggested"]
        after_x = _check(fast_sc, comp_s, games, v_s["seed"], jobs, progress, echo,
                         f"the strong table's {comp_s} under the fast table", play)
        write_json(out / "compensation.json", v_s)
        write_json(out / FAST_DIR / "compensation.json", v_f)
        result["compensation"] = {k: _seats_only(v) for k, v in {
            "strong": v_s, "strong_first": first_s,
            "strong_under_fast": _verification(fast, after_x, comp_s, games, v_s["seed"],
                                               v_s["estimate"]),
            "fast": v_f, "fast_first": first_f}.items()}
    result["skill"] = _skill(scenario, fast_sc.strategies[0], strong_sc.strategies[0], games,
                             seed, jobs, progress, echo, play)
    write_json(out / JUDGES_JSON, result)
    return result
