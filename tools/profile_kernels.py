"""Where the compiled engine spends its time: `perf` samples attributed to numba functions.

    make profile                       # base scenario, 20,000 games
    .venv/bin/python tools/profile_kernels.py scenarios/x.yaml --games 50000

perf cannot name the code numba generates (it lives in anonymous memory), so this script
writes perf's symbol map for it (/tmp/perf-PID.map: address, size, name) from the compiled
libraries of every kernel of simsym.core.game_nb. Those libraries hold their code only when
compiled in this process, so the kernels are compiled afresh into a temporary numba cache
(about a minute), then the games are played and timed. The sizes in the map run from one
function's address to the next one's, so a sample is only as precise as that guess; the
function a kernel inlines counts as its caller.

Runs itself under `perf record` (Debian's `linux-perf`), then prints the share of the
samples taken in compiled code per function, summed over the copies numba links into each
caller, and what stayed outside compiled code.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

CHILD = "SIMSYM_PROFILE_CHILD"


def short_name(mangled: str) -> str:
    """``_ZN6simsym4core9search_nb10_best_coreB3v53...`` -> ``search_nb._best_core`` (numba's
    mangling: length-prefixed names, then its ABI tags); other names as they are."""
    if not mangled.startswith("_ZN"):
        return mangled
    parts, rest = [], mangled[3:]
    while rest[:1].isdigit():
        digits = re.match(r"\d+", rest).group()
        n = int(digits)
        parts.append(rest[len(digits):len(digits) + n])
        rest = rest[len(digits) + n:]
    parts = [p for p in parts if p not in ("simsym", "core")]
    return ".".join(parts) or mangled


def write_perf_map(path: str) -> set[str]:
    """perf's symbol map for every function in the compiled libraries of game_nb's kernels
    (and whatever they link in); returns the names it gives."""
    import simsym.core.game_nb as G

    addrs = set()
    for name in dir(G):
        disp = getattr(G, name)
        for cres in getattr(disp, "overloads", {}).values():
            lib = cres.library
            for fn in lib._final_module.functions:
                if fn.is_declaration:
                    continue
                addr = lib.get_pointer_to_function(fn.name)
                if addr:
                    addrs.add((addr, short_name(fn.name)))
    addrs = sorted(addrs)
    with open(path, "w") as fh:
        for i, (addr, fname) in enumerate(addrs):
            size = addrs[i + 1][0] - addr if i + 1 < len(addrs) else 4096
            if not 0 < size < 1 << 20:
                size = 4096
            fh.write(f"{addr:x} {size:x} {fname}\n")
    return {fname for _, fname in addrs}


def child(scenario_path: str, games: int, names_file: str) -> None:
    from simsym.engine import run_chunk, setup_for
    from simsym.scenario import load_scenario

    setup = setup_for(load_scenario(scenario_path))
    print("compiling the kernels afresh (about a minute) ...", file=sys.stderr, flush=True)
    t = time.perf_counter()
    run_chunk(setup, 0, 10)  # compiles everything (the cache directory is empty)
    print(f"compiled in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    names = write_perf_map(f"/tmp/perf-{os.getpid()}.map")
    with open(names_file, "w") as fh:
        fh.write("\n".join(sorted(names)))
    print(f"{len(names)} compiled functions mapped; playing {games:,} games under perf ...",
          file=sys.stderr, flush=True)
    t = time.perf_counter()
    run_chunk(setup, 0, games)
    dt = time.perf_counter() - t
    print(f"{games} games in {dt:.1f} s: {games / dt:,.0f} games/s", file=sys.stderr)


def report(data: str, names: set[str], top: int) -> None:
    out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "sym",
                          "--stdio", "-q"], capture_output=True, text=True, check=True).stdout
    shares = Counter()
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(.*\S)", line)
        if m and m.group(2) in names:
            shares[m.group(2)] += float(m.group(1))
    jit = sum(shares.values())
    print(f"samples in compiled kernels: {jit:.1f}% of the process (the rest is compiling, "
          "Python and start-up)")
    print(f"{'share of kernel time':>22}  function")
    for name, v in shares.most_common(top):
        print(f"{100 * v / max(jit, 1e-9):21.1f}%  {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", nargs="?", default="scenarios/base.yaml")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    if os.environ.get(CHILD):
        child(a.scenario, a.games, os.environ[CHILD])
        return
    if shutil.which("perf") is None:
        sys.exit("profile_kernels: needs `perf` (Debian: apt-get install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        names_file = os.path.join(tmp, "names.txt")
        env = {**os.environ, CHILD: names_file, "NUMBA_CACHE_DIR": os.path.join(tmp, "numba")}
        data = os.path.join(tmp, "perf.data")
        subprocess.run(["perf", "record", "-q", "-F", "2000", "-o", data, sys.executable,
                        __file__, a.scenario, "--games", str(a.games)], env=env, check=True)
        with open(names_file) as fh:
            names = set(fh.read().split())
        report(data, names, a.top)


if __name__ == "__main__":
    main()
