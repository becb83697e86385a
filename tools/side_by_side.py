"""Two checkouts timed at the same moment, one pinned to each core, then the cores swapped.

    .venv/bin/python tools/side_by_side.py /tmp/before /work/main          # B against A
    .venv/bin/python tools/side_by_side.py A B --rounds 10 --sets 3
    .venv/bin/python tools/side_by_side.py A A --env-b NUMBA_CACHE_DIR=/tmp/c2 SOME_FLAG=1

On this shared machine a figure moves by 10-30% (and up to 2x) within minutes, so two runs
one after the other cannot show a 5% change. Run at the same moment on the two cores, both
trees see the same phase; swapping the cores between the two halves of a set cancels a
core that is busier than the other. Each tree runs in its own process with its own numba
cache (a folder per digest of its kernel sources, under the NUMBA_CACHE_DIR its --env
gives or the user's cache folder), so compile both once
first (the first set's figures include no compile: each process warms its kernels before
timing).

What each process measures, ``--rounds`` times, keeping its best: the bench's median (each
of every ``--stride``-th bench hand searched 50 times in a row, best of three: what
`simsym bench` calls search_us_median), the 2,000 bench hands searched one after the other
(search_us_distinct_mean), and a chunk of ``--games`` base games (engine_games_per_s, in
process). It prints each process's figures and, per pair run at the same moment, B's over
A's: a time ratio below 1 and a games/s ratio above 1 mean B is faster. The medians of the
ratios are the figures to quote.

Needs two CPUs (taskset-like pinning through ``os.sched_setaffinity``); with one, the two
trees alternate on it. A ``git worktree`` of the other commit makes the second tree.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys

CHILD = "--child"


def measure(rounds: int, games: int, stride: int) -> dict:
    """The figures of the tree whose simsym this process imports (the child's work). The
    per-hand median repeats simsym.run.bench.search_figures' loop rather than calling it: that
    function also times the reference engine (seconds a round), and this one has to run on
    older trees too, so it uses only what every tree's bench has had (_repeat_search_nb,
    deck_hands)."""
    import time

    import numpy as np

    from simsym.core import enums as E
    from simsym.core.search_nb import workspace_size

    try:  # the package in layers (model/, engine/, ...)
        from simsym.engine import compiled as engine
        from simsym.model.cards.encode import encode_cards
        from simsym.model.rules import encode_rules
        from simsym.model.scenario import REPO_ROOT, load_scenario
        from simsym.run.bench import _repeat_search_nb, deck_hands
    except ImportError:  # an older tree
        from simsym import engine  # the layout before the layers
        from simsym.bench import _repeat_search_nb, deck_hands  # the layout before the layers
        from simsym.cards.encode import encode_cards  # the layout before the layers
        from simsym.rules import encode_rules  # the layout before the layers
        from simsym.scenario import REPO_ROOT, load_scenario  # the layout before the layers

    sc = load_scenario(REPO_ROOT / "scenarios" / "base.yaml")
    table = encode_cards(sc.cards)
    rules = encode_rules(sc.rules)
    res = np.zeros(E.RES.SIZE, np.int64)
    ws = np.empty(workspace_size(9), np.int64)
    hands = deck_hands(sc, 2000, 9, 1)
    setup = engine.setup_for(sc)
    _repeat_search_nb(hands, 9, table, rules, 1, res, ws)  # compiled or loaded, not timed
    engine.run_chunk(setup, 0, 2)
    median, fresh, rate = [], [], []
    for r in range(rounds):
        per_hand = []
        for i in range(0, len(hands), stride):
            best = float("inf")
            for _ in range(3):
                t = time.perf_counter()
                _repeat_search_nb(hands[i:i + 1], 9, table, rules, 50, res, ws)
                best = min(best, time.perf_counter() - t)
            per_hand.append(best / 50 * 1e6)
        median.append(statistics.median(per_hand))
        t = time.perf_counter()
        _repeat_search_nb(hands, 9, table, rules, 1, res, ws)
        fresh.append((time.perf_counter() - t) / len(hands) * 1e6)
        g0 = 1000 + r * games
        t = time.perf_counter()
        engine.run_chunk(setup, g0, g0 + games)
        rate.append(games / (time.perf_counter() - t))
    return {"median_us": min(median), "fresh_us": min(fresh), "games_per_s": max(rate)}


def ratios(a: dict, b: dict) -> dict:
    """B's figures over A's, for one pair measured at the same moment."""
    return {k: b[k] / a[k] for k in ("median_us", "fresh_us", "games_per_s")}


def summary(pairs: list[dict]) -> dict:
    """The median of each ratio over the pairs."""
    return {k: statistics.median(p[k] for p in pairs) for k in pairs[0]}


def parse_env(items: list[str]) -> dict:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"--env wants NAME=VALUE, not {item!r}")
        out[key] = value
    return out


def child_command(tree: str, args) -> list[str]:
    return [sys.executable, os.path.abspath(__file__), CHILD, os.path.abspath(tree),
            str(args.rounds), str(args.games), str(args.stride)]


def _die_with_parent() -> None:
    """In a child, before it runs: SIGKILL when the parent dies, however it dies (Linux's
    PR_SET_PDEATHSIG), so no timing outlives the run."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the parent's finally still kills its children


def _start(tree: str, env: dict, cpu: int | None, args) -> subprocess.Popen:
    def pin():
        _die_with_parent()
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
    return subprocess.Popen(child_command(tree, args), env={**os.environ, **env},
                            stdout=subprocess.PIPE, text=True, preexec_fn=pin)


def _finish(p: subprocess.Popen, tree: str) -> dict:
    out, _ = p.communicate()
    if p.returncode != 0:
        raise SystemExit(f"the run of {tree} failed (exit {p.returncode}); its error is above")
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="the checkout to compare against (its repository root)")
    ap.add_argument("b", help="the checkout being judged")
    ap.add_argument("--rounds", type=int, default=10, help="rounds a process (its best kept)")
    ap.add_argument("--sets", type=int, default=3, help="sets of two pairs (cores swapped)")
    ap.add_argument("--games", type=int, default=3000, help="base games a round")
    ap.add_argument("--stride", type=int, default=4, help="every n-th bench hand for the median")
    ap.add_argument("--env-a", nargs="*", default=[], metavar="NAME=VALUE")
    ap.add_argument("--env-b", nargs="*", default=[], metavar="NAME=VALUE")
    args = ap.parse_args(argv)
    for name in ("rounds", "sets", "games", "stride"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1")
    try:
        env_a, env_b = parse_env(args.env_a), parse_env(args.env_b)
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    for tree in (args.a, args.b):
        if not os.path.isdir(os.path.join(tree, "simsym")):
            ap.error(f"{tree} holds no simsym/ (give a checkout's root)")
    # SIGTERM ends the run as Ctrl-C does: through the finally below, which kills the children.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    two = len(os.sched_getaffinity(0)) >= 2
    cpus = sorted(os.sched_getaffinity(0))[:2]
    pairs = []
    running = []
    try:
        for s in range(1, args.sets + 1):
            for half, (ca, cb) in enumerate(((0, 1), (1, 0))):
                if two:
                    running = [_start(args.a, env_a, cpus[ca], args),
                               _start(args.b, env_b, cpus[cb], args)]
                    fa, fb = _finish(running[0], args.a), _finish(running[1], args.b)
                else:
                    running = [_start(args.a, env_a, None, args)]
                    fa = _finish(running[0], args.a)
                    running = [_start(args.b, env_b, None, args)]
                    fb = _finish(running[0], args.b)
                running = []
                r = ratios(fa, fb)
                pairs.append(r)
                where = f"A on cpu {cpus[ca]}, B on cpu {cpus[cb]}" if two else "alternated"
                print(f"set {s}.{half + 1} ({where}): "
                      f"A median {fa['median_us']:.3f} us, fresh {fa['fresh_us']:.3f} us, "
                      f"{fa['games_per_s']:,.0f} games/s; "
                      f"B {fb['median_us']:.3f}, {fb['fresh_us']:.3f}, "
                      f"{fb['games_per_s']:,.0f}; B/A {r['median_us']:.3f}, "
                      f"{r['fresh_us']:.3f}, {r['games_per_s']:.3f}", flush=True)
    finally:
        for p in running:  # interrupted: no child outlives this run
            p.kill()
            p.wait()
    m = summary(pairs)
    print(f"median of {len(pairs)} pairs, B/A: search median {m['median_us']:.3f} (time), "
          f"fresh hands {m['fresh_us']:.3f} (time), games/s {m['games_per_s']:.3f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == CHILD:
        tree, rounds, games, stride = sys.argv[2], *map(int, sys.argv[3:6])
        sys.path.insert(0, tree)
        print(json.dumps(measure(rounds, games, stride)))
        sys.exit(0)
    sys.exit(main())
