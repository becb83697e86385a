"""Benchmarks behind `simsym bench` (figures only; nothing here asserts a speed)."""

from __future__ import annotations

import statistics
import time

import numpy as np
from numba import njit

from simsym.core import enums as E
from simsym.core import game_nb as G
from simsym.core.search_nb import best_symposion_nb, best_symposion_ws, workspace_size
from simsym.engine.search import Searcher
from simsym.model.cards.encode import encode_cards
from simsym.model.rules import encode_rules


@njit  # not cached on purpose: see below
def _repeat_search_nb(hands, n, table, rules, reps, res, ws):
    """Search each of ``hands`` ``reps`` times in a row, with one workspace (as the engine
    does).

    Compiled afresh in each process (a few seconds), this loop calls the search's cached
    machine code as it is, as `simsym best` and the Python API do. A cached copy of this loop
    would instead inline the whole search into itself and optimise it again for this loop
    alone, which measured 20 to 40% slower here; the engine inlines it too, so its speed
    shows in the games/s figures."""
    s = 0
    for i in range(hands.shape[0]):
        for _ in range(reps):
            best_symposion_ws(hands[i], n, table, rules, np.int64(0), np.int64(7), res, ws)
            s += res[E.RES.SCORE]
    return s


def deck_hands(scenario, count: int, size: int, seed: int) -> np.ndarray:
    """``count`` hands of ``size`` cards dealt from the scenario's deck (copies included)."""
    deck = np.repeat(np.arange(len(scenario.cards)), [c.copies for c in scenario.cards])
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(deck)[:size] for _ in range(count)]).astype(np.int64)


def search_figures(scenario, hands=2000, ref_hands=30, reps=50, seed=1, size=9) -> dict:
    table = encode_cards(scenario.cards)
    rules = encode_rules(scenario.rules)
    res = np.zeros(E.RES.SIZE, np.int64)
    ws = np.empty(workspace_size(size), np.int64)
    hs = deck_hands(scenario, hands, size, seed)
    t0 = time.perf_counter()
    _repeat_search_nb(hs[:1], size, table, rules, 1, res, ws)
    compile_s = time.perf_counter() - t0
    # Per hand: the fastest of three timings of ``reps`` searches (as timeit does: a slower
    # timing measures the other work on a shared machine, not the search).
    per_hand = []
    for i in range(len(hs)):
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            _repeat_search_nb(hs[i:i + 1], size, table, rules, reps, res, ws)
            best = min(best, time.perf_counter() - t)
        per_hand.append(best / reps)
    # The same hands one after the other (no repeats): what a caller meeting a new hand each
    # time sees; the branch predictor cannot learn a hand, so this is the slower figure.
    t = time.perf_counter()
    _repeat_search_nb(hs, size, table, rules, 1, res, ws)
    fresh_s = (time.perf_counter() - t) / len(hs)
    fast = Searcher(scenario.cards, scenario.rules)
    ref = Searcher(scenario.cards, scenario.rules, engine="reference")
    sub = hs[:ref_hands]
    t = time.perf_counter()
    ref_plays = [ref.best(list(h)) for h in sub]
    ref_s = time.perf_counter() - t
    # Compiled or loaded before it is timed: its cache is stale after an install or any
    # kernel edit (simsym.core stamps every kernel source), and the ratio then measured the
    # compile (37.7x instead of ~3,000x in one such run).
    best_symposion_nb(sub[0], size, table, rules, 0, 7, res)
    t = time.perf_counter()
    for _ in range(reps):
        for h in sub:
            best_symposion_nb(h, size, table, rules, 0, 7, res)
    fast_s = (time.perf_counter() - t) / reps
    agree = sum(fast.best(list(h)).score == p.score for h, p in zip(sub, ref_plays))
    median = statistics.median(per_hand)
    return {
        "hand_size": size, "compile_s": compile_s, "reps": reps,
        "numba_hands": len(hs), "numba_median_us": median * 1e6,
        "numba_hands_per_s": 1.0 / statistics.mean(per_hand),
        "numba_fresh_us": fresh_s * 1e6,
        "reference_hands": len(sub), "reference_hands_per_s": len(sub) / ref_s,
        "ratio": ref_s / fast_s, "agree": agree,
    }


ENGINE_REPEATS = 3  # measurements of each engine rate; the fastest is the figure


def engine_rate(scenario, jobs: int, n: int):
    """Games/s of the numba engine from two runs, of n and 3n games: the difference cancels
    what does not grow with the games (starting the worker processes, loading the kernels).
    The fastest of ENGINE_REPEATS such pairs, as the search figure takes the fastest of three
    timings of each hand (and timeit its fastest repeat): on a shared machine a slower pair
    measures the other work, not the engine. Returns (the fastest, every pair's rate)."""
    from simsym.run.executor import run_games

    runs = []
    for _ in range(ENGINE_REPEATS):
        t = time.perf_counter()
        run_games(scenario, n, scenario.seed, engine="numba", jobs=jobs)
        t1 = time.perf_counter() - t
        t = time.perf_counter()
        run_games(scenario, 3 * n, scenario.seed, engine="numba", jobs=jobs)
        t3 = time.perf_counter() - t
        runs.append(2 * n / max(t3 - t1, 1e-9))
    return max(runs), runs


def game_figures(scenario, games: int = 4000, ref_games: int = 2, jobs: int = 0) -> dict:
    """Games/s of the numba engine (1 process and all cores: the fastest of ENGINE_REPEATS
    measurements, each kept under ``..._runs``) and of the pure-Python reference engine on the
    same first games, with a check that their summaries are identical."""
    import os

    from simsym.run.executor import run_games
    from simsym.run.summary import build_summary

    jobs = jobs or os.cpu_count() or 1
    seed = scenario.seed
    run_games(scenario, 10, seed, engine="numba")  # compile or load from cache

    one, one_runs = engine_rate(scenario, 1, games)
    many, many_runs = engine_rate(scenario, jobs, games * jobs)
    t = time.perf_counter()
    ref_tot, ref_agg = run_games(scenario, ref_games, seed, engine="python")
    ref_rate = ref_games / (time.perf_counter() - t)
    t = time.perf_counter()
    nb_tot, nb_agg = run_games(scenario, ref_games, seed, engine="numba")
    same = (build_summary(scenario, ref_tot, ref_games, seed)
            == build_summary(scenario, nb_tot, ref_games, seed)) and bool((ref_agg == nb_agg).all())
    return {"games": games, "numba_games_per_s_1": one, "numba_games_per_s_1_runs": one_runs,
            "jobs": jobs, "numba_games_per_s_all": many, "numba_games_per_s_all_runs": many_runs,
            "scaling": many / one,
            "reference_games": ref_games, "reference_games_per_s": ref_rate,
            "ratio": one / ref_rate, "summaries_identical": same}


def learned_figures(scenario, games: int = 1000, lookahead_games: int = 8) -> dict:
    """Games/s of a mirror table of `learned` seats (the shipped model) on one core, measured
    by engine_rate (runs of n and 3n games, the fastest of ENGINE_REPEATS pairs), and
    the seconds a game of a lookahead-32 mirror table takes, for the cost ratio."""
    from dataclasses import replace

    from simsym.model.strategies import make_strategy
    from simsym.run.executor import run_games

    seed = scenario.seed
    learned = replace(scenario, strategies=[make_strategy("learned")], seating="mirror")
    run_games(learned, 10, seed)  # compile or load from cache
    rate, runs = engine_rate(learned, 1, games)
    la = replace(scenario, strategies=[make_strategy({"family": "lookahead",
                                                      "iterations": 32})], seating="mirror")
    run_games(la, 1, seed)
    t = time.perf_counter()
    run_games(la, lookahead_games, seed)
    la_s = (time.perf_counter() - t) / lookahead_games
    return {"learned_games_per_s": rate, "learned_games_per_s_runs": runs,
            "lookahead32_s_per_game": la_s, "learned_cost_ratio": la_s * rate}


@njit(cache=True)
def _rollouts_nb(tb, src, dst, policy, seed, key, n):
    """n rollouts of ``src`` (key[-1] counts them); returns the turns they played in all."""
    turns = 0
    for it in range(n):
        key[key.shape[0] - 1] = it
        G.rollout_nb(tb, src, dst, policy, G.key_stream_nb(seed, key))
        turns += dst.sc[E.GS.TURN] - src.sc[E.GS.TURN]
    return turns


def rollout_figures(scenario, games: int = 20, turns=(4, 8, 12, 16, 20), reps: int = 20) -> dict:
    """Rollouts/s from mid-game states, all seats greedy: the states are the Symposion phase
    of a few turns of the first ``games`` games; each is rolled out ``reps`` times to the end,
    with its own stream each time (one process, compiled)."""
    from simsym.engine.compiled import setup_for

    setup = setup_for(scenario)
    tb = setup.table()
    src = G.new_state(tb, 0)
    dst = G.new_state(tb, 0)
    policy = np.full(setup.players, setup.greedy, np.int64)
    key = np.zeros(4, np.int64)
    G.setup(tb, src, 0, scenario.seed)
    _rollouts_nb(tb, src, dst, policy, scenario.seed, key, 1)  # compile or load
    n = played = 0
    spent = 0.0
    for g in range(games):
        for turn in turns:
            G.setup(tb, src, g, scenario.seed)
            G.play_until(tb, src, turn, E.AT.SYMPOSION)
            if src.sc[E.GS.AT] == E.AT.OVER:
                continue
            key[:3] = (g, turn, 0)
            t = time.perf_counter()
            played += _rollouts_nb(tb, src, dst, policy, scenario.seed, key, reps)
            spent += time.perf_counter() - t
            n += reps
    return {"rollouts": n, "rollouts_per_s": n / spent, "rollout_turns_mean": played / n}


def compile_figures() -> dict:
    """First-call time of the kernels in a fresh process: cold (empty numba cache) and warm."""
    import subprocess
    import sys
    import tempfile

    code = ("import time; t=time.perf_counter();"
            "from simsym.model.scenario import load_scenario, BASE_SCENARIO;"
            "from simsym.engine.compiled import setup_for, run_chunk;"
            "run_chunk(setup_for(load_scenario(BASE_SCENARIO).judge('fast')), 0, 1);"
            "print(time.perf_counter()-t)")
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**__import__("os").environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold", "cached"):
            r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                               text=True, check=True)
            out[f"compile_{label}_s"] = float(r.stdout.strip().splitlines()[-1])
    return out


# Runs `simsym run` (argv[1:]) and prints the peak RSS in KiB of the largest process among
# it and its workers: a process of its own, so that no earlier child of the bench (the cold
# compile, ~500 MB) counts, as it would in the bench's own RUSAGE_CHILDREN.
_PEAK_OF_RUN = ("import resource, subprocess, sys;"
                "subprocess.run(sys.argv[1:], check=True);"
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def million_figures(scenario_path, games: int = 1_000_000) -> dict:
    """Wall time and peak RSS (largest process) of `simsym run` on ``games`` games (of a
    judged scenario, its fast table's: the engine's figure)."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    exe = str(Path(sys.executable).parent / "simsym")
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        from simsym.model.scenario import load_scenario

        judge = ["--judge", "fast"] if load_scenario(scenario_path).judges else []
        r = subprocess.run([sys.executable, "-c", _PEAK_OF_RUN, exe, "run", str(scenario_path),
                            *judge, "--games", str(games), "--out", out, "-q", "--force"],
                           check=True, stdout=subprocess.PIPE, text=True)
        wall = time.perf_counter() - t
    peak_kb = int(r.stdout.strip().splitlines()[-1])
    return {"million_games": games, "million_wall_s": wall, "million_peak_rss_mb": peak_kb / 1024}
