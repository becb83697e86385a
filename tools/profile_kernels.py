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

    .venv/bin/python tools/profile_kernels.py --annotate game_nb.trading

also prints where inside that function the samples fall, per machine instruction: the
process copies the code of every mapped function out of its memory (/proc/self/mem) before
the games, and objdump (Debian's `binutils`) disassembles it. The hottest stretches of
--window instructions are printed, hottest first, and the whole listing is written to
--listing. numba's release code has no line information (its debuginfo would change the
code), so the stretches are read against the source by their loads, loops and constants.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

CHILD = "SIMSYM_PROFILE_CHILD"
CODE = "SIMSYM_PROFILE_CODE"  # where the child copies the functions' code (--annotate)


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


def kernel_functions(modules=("game_nb",)) -> list[tuple[int, str]]:
    """(address, short name) of every function, sorted, in the compiled libraries of the
    dispatchers of simsym.core's ``modules`` (and whatever they link in)."""
    import importlib

    libs = []
    for mod in modules:
        m = importlib.import_module(f"simsym.core.{mod}")
        libs += [cres.library for name in dir(m)
                 for cres in getattr(getattr(m, name), "overloads", {}).values()]
    addrs = set()
    for lib in libs:
        # A library loaded from numba's cache keeps its functions in _shared_module only.
        module = getattr(lib, "_shared_module", None) or lib._final_module
        for fn in module.functions:
            if fn.is_declaration:
                continue
            addr = lib.get_pointer_to_function(fn.name)
            if addr:
                addrs.add((addr, short_name(fn.name)))
    return sorted(addrs)


def write_perf_map(path: str) -> set[str]:
    """perf's symbol map for every function of kernel_functions(); returns the names it
    gives."""
    addrs = kernel_functions()
    with open(path, "w") as fh:
        for i, (addr, fname) in enumerate(addrs):
            size = addrs[i + 1][0] - addr if i + 1 < len(addrs) else 4096
            if not 0 < size < 1 << 20:
                size = 4096
            fh.write(f"{addr:x} {size:x} {fname}\n")
    return {fname for _, fname in addrs}


def dump_code(map_path: str, code_path: str) -> list[tuple[int, int, str, int]]:
    """Copy the code of every function of the perf map out of this process into code_path;
    returns (address, size, name, offset in the file) per function copied. /proc/self/mem
    refuses an unmapped range instead of faulting, so a size guessed too long (the last
    function's) is cut at the first address it cannot read."""
    meta = []
    with open(map_path) as fh, open("/proc/self/mem", "rb", buffering=0) as mem, \
            open(code_path, "wb") as out:
        for line in fh:
            addr, size, name = line.split()
            addr, size = int(addr, 16), int(size, 16)
            data = b""
            while size > 0 and not data:
                try:
                    mem.seek(addr)
                    data = mem.read(size)
                except OSError:
                    size //= 2
            if data:
                meta.append((addr, len(data), name, out.tell()))
                out.write(data)
    return meta


def parse_objdump(text: str) -> list[tuple[int, str]]:
    """(address, instruction) per line of ``objdump -D`` output."""
    out = []
    for line in text.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(\S.*)", line)
        if m:
            out.append((int(m.group(1), 16), m.group(2).strip()))
    return out


def hot_windows(listing: list[tuple[int, str]], samples: dict[int, int], width: int,
                top: int) -> list[tuple[int, int]]:
    """The ``top`` stretches of ``width`` consecutive instructions (starting at multiples of
    width) with the most samples, as (samples, index of the first instruction), hottest
    first; stretches without samples are left out."""
    sums = []
    for i in range(0, len(listing), width):
        n = sum(samples.get(a, 0) for a, _ in listing[i:i + width])
        if n:
            sums.append((n, i))
    sums.sort(key=lambda t: (-t[0], t[1]))
    return sums[:top]


def annotate(name: str, meta, code_path: str, samples: Counter, width: int, top: int,
             listing_path: str) -> None:
    """Print the hottest stretches of the function ``name`` (of its copies, the one holding
    the most samples) and write its whole listing, samples per instruction, to
    listing_path."""
    if shutil.which("objdump") is None:
        sys.exit("profile_kernels: --annotate needs objdump (Debian: apt-get install binutils)")
    with open(code_path, "rb") as fh:
        code = fh.read()
    copies = [m for m in meta if m[2] == name]
    if not copies:
        sys.exit(f"profile_kernels: no compiled function named {name!r} "
                 "(names as the table above prints them)")
    hits = [(sum(v for a, v in samples.items() if m[0] <= a < m[0] + m[1]), m) for m in copies]
    total, (addr, size, _, off) = max(hits, key=lambda t: t[0])
    with tempfile.NamedTemporaryFile(suffix=".bin") as tmp:
        tmp.write(code[off:off + size])
        tmp.flush()
        text = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                               f"--adjust-vma={addr}", tmp.name], capture_output=True,
                              text=True, check=True).stdout
    listing = parse_objdump(text)
    with open(listing_path, "w") as fh:
        for a, ins in listing:
            fh.write(f"{samples.get(a, 0):7d}  {a - addr:6x}  {ins}\n")
    print(f"\n{name}: {size:,} bytes of code, {total} samples; whole listing (samples, "
          f"offset, instruction) in {listing_path}")
    for n, i in hot_windows(listing, samples, width, top):
        print(f"\n{100 * n / max(total, 1):5.1f}% of its samples at +{listing[i][0] - addr:x}:")
        for a, ins in listing[i:i + width]:
            print(f"{samples.get(a, 0):7d}  {a - addr:6x}  {ins}")


def child(scenario_path: str, games: int, names_file: str) -> None:
    from simsym.engine.compiled import run_chunk, setup_for
    from simsym.model.scenario import load_scenario

    setup = setup_for(load_scenario(scenario_path))
    print("compiling the kernels afresh (about a minute) ...", file=sys.stderr, flush=True)
    t = time.perf_counter()
    run_chunk(setup, 0, 10)  # compiles everything (the cache directory is empty)
    print(f"compiled in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    map_path = f"/tmp/perf-{os.getpid()}.map"
    names = write_perf_map(map_path)
    with open(names_file, "w") as fh:
        fh.write("\n".join(sorted(names)))
    if os.environ.get(CODE):
        with open(os.environ[CODE] + ".json", "w") as fh:
            json.dump(dump_code(map_path, os.environ[CODE]), fh)
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
    ap.add_argument("--annotate", metavar="FUNCTION",
                    help="also show where in this function (e.g. game_nb.trading) the "
                         "samples fall, per instruction")
    ap.add_argument("--window", type=int, default=32,
                    help="instructions in a stretch (--annotate)")
    ap.add_argument("--stretches", type=int, default=6,
                    help="hottest stretches printed (--annotate)")
    ap.add_argument("--listing",
                    default=os.path.join(tempfile.gettempdir(), "simsym-profile-listing.txt"),
                    help="file for the whole annotated listing (--annotate)")
    a = ap.parse_args()
    if os.environ.get(CHILD):
        child(a.scenario, a.games, os.environ[CHILD])
        return
    if shutil.which("perf") is None:
        sys.exit("profile_kernels: needs `perf` (Debian: apt-get install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        names_file = os.path.join(tmp, "names.txt")
        env = {**os.environ, CHILD: names_file, "NUMBA_CACHE_DIR": os.path.join(tmp, "numba")}
        code_path = os.path.join(tmp, "code.bin")
        if a.annotate:
            env[CODE] = code_path
        data = os.path.join(tmp, "perf.data")
        subprocess.run(["perf", "record", "-q", "-F", "2000", "-o", data, sys.executable,
                        __file__, a.scenario, "--games", str(a.games)], env=env, check=True)
        with open(names_file) as fh:
            names = set(fh.read().split())
        report(data, names, a.top)
        if a.annotate:
            ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"],
                                 capture_output=True, text=True, check=True).stdout
            samples = Counter(int(v, 16) for v in ips.split())
            with open(code_path + ".json") as fh:
                meta = [tuple(m) for m in json.load(fh)]
            annotate(a.annotate, meta, code_path, samples, a.window, a.stretches, a.listing)


if __name__ == "__main__":
    main()
