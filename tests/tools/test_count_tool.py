"""tools/count_instructions.py: reading callgrind's figure, the per-unit arithmetic, and its
workloads (run here without valgrind, so nothing is toggled)."""

import importlib.util
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location(
    "count_instructions", Path(__file__).parents[2] / "tools" / "count_instructions.py")
count_instructions = importlib.util.module_from_spec(spec)
spec.loader.exec_module(count_instructions)


def test_collected_reads_the_last_figure_by_event():
    err = ("==15350== Callgrind, a call-graph generating cache profiler\n"
           "==15350== Events    : Ir\n==15350== Collected : 15,778,143\n==15350== \n"
           "==15350== I   refs:      15,778,143\n")
    assert count_instructions.collected(err) == {"Ir": 15778143}
    assert count_instructions.collected("==1== Collected : 12\n==2== Collected : 345\n") == \
        {"Ir": 345}
    cache = ("==18362== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
             "==18362== Collected : 74688380 27474690 17811327 1094615 397895 231868 4874 "
             "3784 3803\n")
    got = count_instructions.collected(cache)
    assert got["Ir"] == 74688380 and got["I1mr"] == 1094615 and got["D1mw"] == 231868
    with pytest.raises(ValueError):
        count_instructions.collected("==1== I   refs: 12\n")
    with pytest.raises(ValueError):  # two events named, three counts
        count_instructions.collected("==1== Events : Ir Dr\n==1== Collected : 1 2 3\n")


def test_branch_simulation_is_asked_for_and_read():
    # --branches adds callgrind's branch simulation, alone or with the caches' ...
    assert count_instructions.simulated(False, False) == []
    assert count_instructions.simulated(False, True) == ["--branch-sim=yes"]
    assert count_instructions.simulated(True, True) == ["--cache-sim=yes", "--branch-sim=yes"]
    # ... and its events are read by name (callgrind's lines with --branch-sim=yes).
    err = ("==15153== Events    : Ir Bc Bcm Bi Bim\n"
           "==15153== Collected : 15508074 1953394 238741 34575 9219\n")
    assert count_instructions.collected(err) == {
        "Ir": 15508074, "Bc": 1953394, "Bcm": 238741, "Bi": 34575, "Bim": 9219}


def test_bad_sizes_are_refused():
    with pytest.raises(count_instructions.argparse.ArgumentTypeError):
        count_instructions._positive("0")
    assert count_instructions._positive("3") == 3


def test_per_unit_is_the_difference_over_the_extra_units():
    # r repetitions of 2000 hands cost 1,000,000 + 2000 x; 3 r cost 1,000,000 + 6000 x.
    assert count_instructions.per_unit(1_000_000 + 2000 * 7, 1_000_000 + 6000 * 7, 4000) == 7


def test_workloads_run_without_valgrind():
    # The same sum for the same work: the search loop's scores are deterministic.
    a = count_instructions.workload("search", 20, 2, 7, toggle=False)
    b = count_instructions.workload("search", 20, 2, 7, toggle=False)
    assert a == b and a > 0
    assert count_instructions.workload("search", 20, 1, 2, toggle=False) <= a
    # --play counts best_play_ws: the same plays, so the same scores.
    assert count_instructions.workload("search", 20, 2, 7, toggle=False, play=True) == a
    assert count_instructions.workload("games", 3, 2, toggle=False) == 6  # 3 games, twice


def test_valgrind_cpu_names_what_valgrind_reports(monkeypatch):
    # The kernels are warmed and counted for the processor LLVM sees under valgrind: the
    # probe's two lines become numba's CPU settings; a failed probe stops the tool.
    calls = []

    def fake_run(cmd, **kw):
        calls.append(cmd)
        return count_instructions.subprocess.CompletedProcess(
            cmd, 0, stdout="haswell\n+64bit,+avx2,-avx512f\n", stderr="")

    monkeypatch.setattr(count_instructions.subprocess, "run", fake_run)
    assert count_instructions.valgrind_cpu({}) == {
        "NUMBA_CPU_NAME": "haswell", "NUMBA_CPU_FEATURES": "+64bit,+avx2,-avx512f"}
    assert calls[0][:2] == ["valgrind", "--tool=none"]

    def failing_run(cmd, **kw):
        return count_instructions.subprocess.CompletedProcess(cmd, 1, stdout="",
                                                              stderr="valgrind: bad")

    monkeypatch.setattr(count_instructions.subprocess, "run", failing_run)
    with pytest.raises(SystemExit, match="valgrind: bad"):
        count_instructions.valgrind_cpu({})


def test_per_kernel_sums_the_costs_of_jit_code_by_function():
    # Two kernels start at 0x1000 and 0x2000. Code with a symbol (the interpreter's) is not
    # counted, nor the inclusive cost of a call (the line after "calls="); JIT code before
    # the first kernel is named as such.
    out = ("positions: instr line\nevents: Ir I1mr\n"
           "fn=PyEval_EvalFrameDefault\n0x100 0 5 1\n"
           "fn=0x0000000000001010\n0x1010 0 7 2\n0x1020 0 3\n"
           "calls=1 0x2000\n0x1024 0 100 9\n0x1028 0 1 0\n"
           "fn=0x0000000000002008\n0x2008 0 4 1\n"
           "fn=0x0000000000000500\n0x500 0 2 2\n")
    kmap = "4096 game_nb.play_until\n8192 search_nb._best_core\n"
    got = count_instructions.per_kernel(out, kmap)
    assert got == {"game_nb.play_until": {"Ir": 11, "I1mr": 2},
                   "search_nb._best_core": {"Ir": 4, "I1mr": 1},
                   "(other JIT code)": {"Ir": 2, "I1mr": 2}}


def test_the_workload_maps_the_kernels_it_runs(tmp_path, monkeypatch):
    # What --per-kernel's child writes: every compiled function's address, the search and
    # the game loop among them (loaded from the cache or compiled here).
    path = tmp_path / "kernels.map"
    monkeypatch.setenv(count_instructions.KERNEL_MAP, str(path))
    assert count_instructions.workload("games", 2, 1, toggle=False) == 2
    rows = [line.split(maxsplit=1) for line in path.read_text().splitlines()]
    names = {name for _, name in rows}
    assert {"search_nb._best_core", "game_nb.play_until", "game_nb._bound_prep"} <= names
    addrs = [int(a) for a, _ in rows]
    assert addrs == sorted(addrs) and addrs[0] > 0
