"""Exact instruction counts of the compiled search and games, under valgrind's callgrind.

    make count                                             # per search and per game
    .venv/bin/python tools/count_instructions.py search --type-mask 2   # Social only
    .venv/bin/python tools/count_instructions.py search --play   # the play only, as games
    .venv/bin/python tools/count_instructions.py games --games 2000
    .venv/bin/python tools/count_instructions.py games --cache   # and simulated cache misses
    .venv/bin/python tools/count_instructions.py games --games 300 --per-kernel  # by function
    .venv/bin/python tools/count_instructions.py games --branches  # and mispredicted branches

On this shared machine a timing moves by 10-30% from one run to the next; an instruction
count hardly does: per search it repeats to ~0.2%, per game to ~1%.
So a change to a kernel can be judged by the instructions it saves, one run each way, before
a timed side-by-side comparison (tools/side_by_side.py, `simsym bench`) confirms the time.
What a count does not see: branch mispredictions and cache misses. (A search over hands met
one after the other takes about twice the time of the same search repeated, at the same count.)

How: the workload runs twice under callgrind with instrumentation off except around the
measured loop (``callgrind_control -i on`` / ``off`` from inside), once with r repetitions
and once with 3 r; the difference, divided by the units of 2 r, is per search or per game,
free of start-up, imports and compiling. The kernels come from numba's cache, warmed first
outside valgrind (compiling under valgrind takes many minutes) for the processor valgrind
emulates (valgrind_cpu), so that its runs hit that cache. To compare two versions, run
this in each tree (a `git worktree` of the other commit).

Searches: the 9-card hands `simsym bench` times (dealt from the base deck, seed 1), each
searched once a repetition through ``best_symposion_ws`` (full result; with ``--play``,
``best_play_ws``: score, type and cards only, what the engine reads), with the type mask
given. Games: base scenario games as a run plays them (``run_chunk``), seeds from 0. With
``--cache``, callgrind also simulates the caches (the host's sizes) and the misses per unit
are printed: instruction-cache (I1mr), data-cache reads and writes (D1mr, D1mw). With
``--branches``, callgrind also simulates branch prediction and the mispredicted conditional
and indirect branches per unit are printed (Bcm, Bim; see ``simulated``). With
``--per-kernel``, one run (``--games`` games or ``--hands`` searches) under callgrind with
the caches simulated and costs kept per instruction; the child writes where each compiled
function's code starts (numba's libraries, cached or not) and the costs of the code
callgrind has no symbol for (the kernels) are summed per compiled function.
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import shutil
import signal
import subprocess
import sys

CHILD = "SIMSYM_COUNT_CHILD"
KERNEL_MAP = "SIMSYM_COUNT_MAP"  # where the child writes the kernels' addresses (--per-kernel)


def collected(valgrind_stderr: str) -> dict[str, int]:
    """The counts callgrind reports for the instrumented part ("Collected : N ..."), by event
    name ("Events : Ir ..."; Ir alone when the line is missing)."""
    m = re.findall(r"Collected\s*:\s*([\d, ]+)", valgrind_stderr)
    if not m:
        raise ValueError("no 'Collected' figure in valgrind's output")
    values = [int(v.replace(",", "")) for v in m[-1].split()]
    ev = re.findall(r"Events\s*:\s*(.+)", valgrind_stderr)
    names = ev[-1].split() if ev else ["Ir"]
    if len(names) != len(values):
        raise ValueError(f"events {names} do not match the counts {values}")
    return dict(zip(names, values))


def per_unit(low: int, high: int, units: int) -> float:
    """Instructions per unit from the counts of a run with r repetitions (low) and one with
    3 r (high), ``units`` being the units of 2 r repetitions."""
    return (high - low) / units


def workload(what: str, size: int, reps: int, type_mask: int = 7, toggle: bool = True,
             play: bool = False) -> int:
    """Run the measured loop ``reps`` times (instrumented between the two toggles when
    ``toggle``). Returns what it did, so the work cannot be skipped: the searches' summed
    scores, or the number of games played."""
    import numpy as np

    from simsym.model.scenario import BASE_SCENARIO, load_scenario

    scenario = load_scenario(BASE_SCENARIO)

    def switch(state: str) -> None:
        if toggle:
            subprocess.run(["callgrind_control", "-i", state, str(os.getpid())],
                           capture_output=True, check=False)

    if what == "search":
        from numba import njit

        from simsym.run.bench import deck_hands
        from simsym.model.cards.encode import encode_cards
        from simsym.core import enums as E
        from simsym.core.search_nb import best_play_ws, best_symposion_ws, workspace_size
        from simsym.model.rules import encode_rules

        entry = best_play_ws if play else best_symposion_ws

        @njit
        def loop(hands, n, table, rules, reps, res, ws, tm):
            s = 0
            for _ in range(reps):
                for i in range(hands.shape[0]):
                    entry(hands[i], n, table, rules, np.int64(0), tm, res, ws)
                    s += res[E.RES.SCORE]
            return s

        table = encode_cards(scenario.cards)
        rules = encode_rules(scenario.rules)
        res = np.zeros(E.RES.SIZE, np.int64)
        ws = np.empty(workspace_size(9), np.int64)
        hands = deck_hands(scenario, size, 9, 1)
        tm = np.int64(type_mask)
        loop(hands[:1], 9, table, rules, 1, res, ws, tm)  # compiles the loop, not the search
        write_kernel_map()
        switch("on")
        s = loop(hands, 9, table, rules, reps, res, ws, tm)
        switch("off")
        return int(s)
    from simsym.engine.compiled import run_chunk, setup_for

    setup = setup_for(scenario)
    run_chunk(setup, 0, 10)
    write_kernel_map()
    switch("on")
    rows, _ = run_chunk(setup, 0, size * reps)
    switch("off")
    return int(rows.shape[0])


def write_kernel_map() -> None:
    """Into the file KERNEL_MAP names (if set): "address name" per function of the compiled
    kernels' libraries (simsym.core's dispatchers and the kernels called by symbol), sorted."""
    path = os.environ.get(KERNEL_MAP)
    if not path:
        return
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from profile_kernels import kernel_functions

    rows = kernel_functions(("game_nb", "search_nb", "social_nb", "allequal_nb", "rng_nb",
                             "lookahead_nb"))
    with open(path, "w") as fh:
        fh.writelines(f"{addr} {name}\n" for addr, name in rows)


def per_kernel(callgrind_out: str, kernel_map: str) -> dict[str, dict[str, int]]:
    """The costs of callgrind's output (``--dump-instr=yes --compress-pos=no
    --compress-strings=no``) summed per compiled function: each cost line of a function
    callgrind has no symbol for ("fn=0x...", JIT code) goes to the function of the map
    (write_kernel_map's lines) starting at or before its address. The inclusive costs of
    calls (the line after "calls=") are left out, so each instruction counts once. The map
    holds no sizes: JIT code it does not name (the search workload's own loop) counts to the
    function placed before it, or to "(other JIT code)" below them all."""
    entries = sorted((int(a), n) for a, n in (ln.split(maxsplit=1)
                                               for ln in kernel_map.splitlines() if ln))
    starts = [a for a, _ in entries]
    events: list[str] = []
    npos = 1
    out: dict[str, dict[str, int]] = {}
    jit = False
    after_calls = False
    for line in callgrind_out.splitlines():
        if line.startswith("positions:"):
            npos = len(line.split()) - 1
        elif line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("fn="):
            jit = line[3:].startswith("0x")
        elif line.startswith("calls="):
            after_calls = True
        elif line[:1].isdigit():
            if after_calls or not jit:
                after_calls = False
                continue
            parts = line.split()
            i = bisect.bisect_right(starts, int(parts[0], 0)) - 1
            name = entries[i][1] if i >= 0 else "(other JIT code)"
            costs = out.setdefault(name, dict.fromkeys(events, 0))
            for e, v in zip(events, parts[npos:]):
                costs[e] += int(v)
    return out


def valgrind_cpu(env: dict[str, str]) -> dict[str, str]:
    """NUMBA_CPU_NAME and NUMBA_CPU_FEATURES as LLVM sees the processor under valgrind, which
    emulates fewer features than the host has (haswell, no AVX-512, on this machine's znver4).
    Warming the cache and counting with these makes the kernels valgrind runs the ones warmed
    outside it: without them numba's cache misses under valgrind (its key holds the CPU) and
    every kernel compiles there, slowly. The code counted is then the one for that CPU."""
    probe = ("import llvmlite.binding as ll; print(ll.get_host_cpu_name()); "
             "print(ll.get_host_cpu_features().flatten())")
    p = subprocess.run(["valgrind", "--tool=none", "-q", sys.executable, "-c", probe],
                       env=env, capture_output=True, text=True)
    lines = p.stdout.split()
    if p.returncode != 0 or len(lines) != 2:
        sys.exit(f"count_instructions: could not ask valgrind's CPU:\n{p.stderr[-2000:]}")
    return {"NUMBA_CPU_NAME": lines[0], "NUMBA_CPU_FEATURES": lines[1]}


def simulated(cache: bool, branches: bool) -> list[str]:
    """callgrind's flags for what it simulates besides counting instructions: the caches
    (events I1mr, D1mr, D1mw ...) and branch prediction (Bc, Bcm: conditional branches and
    their mispredictions; Bi, Bim: indirect ones). Its predictor is a simple model (a table
    of two-bit counters, no global history), so Bcm overstates what a modern processor
    mispredicts on patterned branches; it says where the unpredictable ones are."""
    return (["--cache-sim=yes"] if cache else []) + (["--branch-sim=yes"] if branches else [])


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", nargs="?", choices=("search", "games", "both"), default="both")
    ap.add_argument("--hands", type=_positive, default=2000, help="bench hands (search)")
    ap.add_argument("--games", type=_positive, default=500, help="games a repetition (games)")
    ap.add_argument("--type-mask", type=int, default=7,
                    help="search types: 1 Intellectual, 2 Social, 4 Hedonistic (default 7)")
    ap.add_argument("--play", action="store_true",
                    help="search: count best_play_ws (the play only) instead of the full result")
    ap.add_argument("--cache", action="store_true",
                    help="simulate the caches too and print their misses per unit")
    ap.add_argument("--branches", action="store_true",
                    help="simulate branch prediction too and print the mispredictions per "
                         "unit (conditional Bcm, indirect Bim)")
    ap.add_argument("--per-kernel", action="store_true",
                    help="one run with the caches simulated: instructions and misses per unit "
                         "for each compiled function (the 20 with the most I1 misses)")
    a = ap.parse_args()
    if os.environ.get(CHILD):
        what, size, reps, tm, play = os.environ[CHILD].split(",")
        workload(what, int(size), int(reps), int(tm), toggle=int(reps) > 0, play=play == "1")
        return
    # A termination signal unwinds through subprocess.run, which kills valgrind's run.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, _: sys.exit(128 + signum))
    missing = [t for t in ("valgrind", "callgrind_control") if shutil.which(t) is None]
    if missing:
        sys.exit(f"count_instructions: needs {' and '.join(missing)} "
                 "(Debian: apt-get install valgrind)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root, "PYTHONHASHSEED": "0"}
    env.update(valgrind_cpu(env))
    spec = f"{a.type_mask},{int(a.play)}"  # the search's type mask and mode, for the child
    for what in (("search", "games") if a.what == "both" else (a.what,)):
        size = a.hands if what == "search" else a.games
        print(f"{what}: warming the kernel cache ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, __file__], env={**env, CHILD: f"{what},{size},0,{spec}"},
                       check=True, cwd=root)
        if a.per_kernel:
            _print_per_kernel(what, size, spec, env, root, a.branches)
            continue
        counts = []
        for reps in (1, 3):
            print(f"{what}: {reps} repetition(s) under callgrind ...", file=sys.stderr,
                  flush=True)
            stderr = _callgrind(["--callgrind-out-file=/dev/null"]
                                + simulated(a.cache, a.branches),
                                {**env, CHILD: f"{what},{size},{reps},{spec}"}, what, root)
            counts.append(collected(stderr))
        units = 2 * size
        label = (f"per search ({size} bench hands, type mask {a.type_mask}"
                 f"{', play only' if a.play else ''})" if what == "search"
                 else f"per game (base scenario, {units} games)")
        print(f"instructions {label}: {per_unit(counts[0]['Ir'], counts[1]['Ir'], units):,.0f}")
        for name in ("I1mr", "D1mr", "D1mw", "Bcm", "Bim"):
            if name in counts[0]:
                print(f"  {name} {label}: {per_unit(counts[0][name], counts[1][name], units):,.1f}")


def _callgrind(flags: list[str], env: dict, what: str, root: str) -> str:
    """This script's child (the workload ``env`` names) under callgrind with ``flags``,
    instrumentation off until the child turns it on; returns valgrind's stderr, or exits
    with the end of it when the run fails."""
    p = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no"] + flags
                       + [sys.executable, __file__], env=env, capture_output=True, text=True,
                       cwd=root)
    if p.returncode != 0:
        sys.exit(f"count_instructions: the {what} workload failed:\n{p.stderr[-2000:]}")
    return p.stderr


def _print_per_kernel(what: str, size: int, spec: str, env: dict, root: str,
                      branches: bool = False) -> None:
    """--per-kernel: one repetition under callgrind, its costs per compiled function (with
    the branch mispredictions when ``branches``); ``spec``: the search's "type mask,play"."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="simsym-count-") as tmp:
        out, kmap = os.path.join(tmp, "callgrind.out"), os.path.join(tmp, "kernels.map")
        print(f"{what}: 1 repetition under callgrind, costs per instruction ...",
              file=sys.stderr, flush=True)
        _callgrind(simulated(True, branches) + ["--dump-instr=yes", "--compress-pos=no",
                                                 "--compress-strings=no",
                                                 f"--callgrind-out-file={out}"],
                   {**env, CHILD: f"{what},{size},1,{spec}", KERNEL_MAP: kmap}, what, root)
        with open(out) as fh, open(kmap) as km:
            costs = per_kernel(fh.read(), km.read())
    unit = "search" if what == "search" else "game"
    print(f"per {unit} ({size} {'bench hands' if what == 'search' else 'base games'}), "
          "by compiled function, most instruction-cache misses first:")
    cols = ("I1mr", "D1mr", "D1mw") + (("Bcm", "Bim") if branches else ())
    print(f"{'Ir':>10} " + " ".join(f"{c:>8}" for c in cols) + "  function")
    for name, c in sorted(costs.items(), key=lambda kv: -kv[1].get("I1mr", 0))[:20]:
        print(f"{c.get('Ir', 0) / size:10,.0f} "
              + " ".join(f"{c.get(e, 0) / size:8,.1f}" for e in cols) + f"  {name}")


if __name__ == "__main__":
    main()
