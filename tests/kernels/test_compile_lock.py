"""One compile per machine (simsym.engine.compiled.compiled_once): the worker processes of a first
run take turns at compiling the kernels, so one compiles and the others load its cache."""

import subprocess
import sys
import time

import pytest

from simsym.engine import compiled as engine
from simsym.engine.compiled import compiled_once, run_chunk, setup_for

HOLD = """
import sys, time
from filelock import FileLock
with FileLock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
print("released", time.time(), flush=True)
"""


@pytest.fixture
def fresh(monkeypatch, own_locks):
    """compiled_once as in a new process: nothing compiled yet; its locks a test's own."""
    monkeypatch.setattr(engine, "_COMPILED", set())


def _hold_lock(seconds, part=""):
    p = subprocess.Popen([sys.executable, "-c", HOLD, str(engine.compile_lock_path(part)),
                          str(seconds)],
                         stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "held"
    return p


def test_a_process_waits_for_another_compile_then_warms_once(fresh):
    other = _hold_lock(1.5)  # another process compiling
    calls = []
    try:
        compiled_once("k", lambda: calls.append(time.time()))
        compiled_once("k", lambda: calls.append(time.time()))  # done: not again
    finally:
        released = float(other.communicate(timeout=60)[0].split()[1])
    assert len(calls) == 1 and calls[0] >= released
    compiled_once("other", lambda: calls.append(0))  # another kernel warms on its own
    assert len(calls) == 2


def test_a_process_that_finds_another_compiling_takes_on_the_helper_part_meanwhile(fresh):
    other = _hold_lock(1.5)  # another process compiling
    calls = []
    try:
        compiled_once("k", lambda: calls.append(("warm", time.time())),
                      helper=lambda: calls.append(("helper", time.time())))
    finally:
        released = float(other.communicate(timeout=60)[0].split()[1])
    assert [c[0] for c in calls] == ["helper", "warm"]
    assert calls[0][1] < released <= calls[1][1]  # the part while the other compiled


def test_a_process_that_compiles_first_leaves_the_helper_part_to_others(fresh):
    calls = []
    compiled_once("k", lambda: calls.append("warm"), helper=lambda: calls.append("helper"))
    assert calls == ["warm"]  # the compile comes to the part itself


def test_one_process_takes_on_the_helper_part_and_the_next_only_waits(fresh):
    compiling = _hold_lock(2.0)
    helping = _hold_lock(2.0, part="helper")  # a second process takes the part on already
    calls = []
    try:
        compiled_once("k", lambda: calls.append("warm"), helper=lambda: calls.append("helper"))
    finally:
        for p in (compiling, helping):
            p.communicate(timeout=60)
    assert calls == ["warm"]


# Two processes, one numba cache of their own: the first compiles the trade code's leaves
# (game_nb.trade_leaves, the helper part), the second the trade code over them (trading,
# given the game loop's argument types). The second's compile events name the kernels it
# compiled; the leaves are not among them (it loads them).
COMPILE_EVENTS = """
import sys
from numba.core import event
compiled = []
class Log(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev):
        pass
event.register("numba:compile", Log())
from numba import njit
from simsym.core import game_nb as G
from simsym.engine.compiled import setup_for
from simsym.model.scenario import BASE_SCENARIO, load_scenario
tb = setup_for(load_scenario(BASE_SCENARIO).judge("fast")).table()
if sys.argv[1] == "helper":
    G.trade_leaves(tb, G.new_state(tb, 0), False)
else:
    @njit(_nrt=False)
    def trade_code(tb, s, go):
        if go:
            G.trading(tb, s)
    trade_code(tb, G.new_state(tb, 0), False)
print(" ".join(compiled))
"""
LEAVES = {"_bound_prep", "_bound_may_beat", "ae_prep", "ae_may_beat_with", "all_equal_above_ws",
          "social_above_ws", "_swap_may_play"}


@pytest.mark.slow
def test_the_trade_code_compile_loads_the_leaves_another_process_compiled(tmp_path):
    import os

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    env.pop("NUMBA_BOUNDSCHECK", None)

    def compile_in_a_process(part):
        r = subprocess.run([sys.executable, "-c", COMPILE_EVENTS, part], env=env,
                           capture_output=True, text=True, timeout=1800)
        assert r.returncode == 0, r.stderr[-3000:]
        return set(r.stdout.split())

    helper = compile_in_a_process("helper")
    assert LEAVES | {"trade_leaves"} <= helper and "trading" not in helper
    trade = compile_in_a_process("trading")
    assert {"trading", "_best_core"} <= trade  # a cold compile of the rest
    assert not trade & LEAVES  # the leaves with the argument types trading gives them


def test_a_compile_elsewhere_past_the_wait_does_not_stop_this_one(fresh, monkeypatch):
    monkeypatch.setattr(engine, "COMPILE_WAIT_S", 0.2)
    other = _hold_lock(30)
    calls = []
    try:
        compiled_once("k", lambda: calls.append(1))
        assert calls == [1] and other.poll() is None  # the other still held it
    finally:
        other.kill()
        other.wait()


def test_a_failed_warm_up_releases_the_lock_and_is_tried_again(fresh):
    def boom():
        raise RuntimeError("compile failed")

    with pytest.raises(RuntimeError):
        compiled_once("k", boom)
    calls = []
    compiled_once("k", lambda: calls.append(1))  # the lock is free, the kernel not marked
    assert calls == [1]


def test_run_chunk_warms_with_no_games_then_plays(base, fresh, monkeypatch):
    warmed = []
    real = engine._play_chunk
    monkeypatch.setattr(engine, "_play_chunk",
                        lambda s, tb, st, g0, g1: (warmed.append((g0, g1)),
                                                   real(s, tb, st, g0, g1))[1])
    setup = setup_for(base)
    rows, _ = run_chunk(setup, 3, 5)
    rows2, _ = run_chunk(setup, 3, 5)
    assert warmed == [(0, 0), (3, 5), (3, 5)]  # the warm-up plays nothing, and only once
    assert rows.shape[0] == 2 and (rows == rows2).all()


def test_a_learned_table_warms_the_game_loop_first(base_judged, fresh, monkeypatch):
    """A learned table's kernels call the game loop's: it is compiled first, as the greedy
    table compiles it (docs/performance.md, "What each table compiles"), then the lookahead
    loop over it, each with no games and once."""
    order = []
    play, run = engine._play_chunk, engine._run_chunk
    monkeypatch.setattr(engine, "_play_chunk",
                        lambda s, tb, st, g0, g1: (order.append(("game loop", g0, g1)),
                                                   play(s, tb, st, g0, g1))[1])
    monkeypatch.setattr(engine, "_run_chunk",
                        lambda s, g0, g1, p=None, look=None: (order.append(("loop", g0, g1)),
                                                              run(s, g0, g1, p, look))[1])
    setup = setup_for(base_judged.judge("strong"))
    rows, _ = run_chunk(setup, 3, 4)
    run_chunk(setup, 3, 4)
    assert order == [("game loop", 0, 0), ("loop", 0, 0), ("loop", 3, 4), ("loop", 3, 4)]
    assert rows.shape[0] == 1


def test_one_lock_per_cache_and_compile_settings(tmp_path):
    """Processes sharing a numba cache share the lock; a bounds-checked build, or another
    cache directory, has its own (it compiles other code into another place)."""
    import os

    def path(part="", **env):
        e = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        r = subprocess.run([sys.executable, "-c",
                            "from simsym.engine.compiled import compile_lock_path;"
                            f" print(compile_lock_path({part!r}))"], env={**e, **env},
                           capture_output=True, text=True, check=True)
        return r.stdout.strip()

    plain = path()
    assert plain == path() and plain.endswith(".lock")
    others = [path(NUMBA_BOUNDSCHECK="1"), path(NUMBA_CACHE_DIR=str(tmp_path)),
              path(NUMBA_OPT="1")]
    assert len({plain, *others}) == 4
    # the helper part's lock: one per cache and settings too, beside the compile's
    helper = path("helper")
    assert helper == path("helper") and helper.endswith(".lock")
    assert len({plain, helper, path("helper", NUMBA_CACHE_DIR=str(tmp_path))}) == 3


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_waiting_for_a_compile_says_so_above_its_bar(base, tmp_path, monkeypatch, capsys,
                                                          jobs, own_locks):
    """`simsym run`'s progress: while another process of this machine compiles the kernels
    (holds the lock), the run's first look says why no game is done; a warm run says
    nothing."""
    from simsym.run.job import CompileWatch, run_scenario

    monkeypatch.setattr(CompileWatch, "AFTER_S", 0.3)
    monkeypatch.setattr(engine, "_COMPILED", set())  # this process warms up again, too
    # A lock of the test's own (the pool's workers are forked: they see it too), so that a
    # compile elsewhere in the suite neither delays this run nor speaks in the warm one.
    lock = engine.compile_lock_path()
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(lock), "3"],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        run_scenario(base, games=40, seed=1, out=tmp_path / "cold", jobs=jobs, progress=True)
    finally:
        other.kill()
        other.wait()
    err = capsys.readouterr().err
    assert err.count(CompileWatch.TEXT) == 1 and "40/40 games" in err
    run_scenario(base, games=40, seed=1, out=tmp_path / "warm", jobs=jobs, progress=True)
    err = capsys.readouterr().err
    assert CompileWatch.TEXT not in err and "40/40 games" in err
    cold, warm = ((tmp_path / d / "summary.json").read_bytes() for d in ("cold", "warm"))
    assert cold == warm


def test_the_watch_starts_once_however_often_it_is_told(tmp_path, monkeypatch, own_locks):
    """A Dask run starts the watch before its cluster and again when the cluster's workers
    exist (run_games' on_start): the second start is a no-op, not a second thread."""
    import io

    from simsym.run.progress import Progress
    from simsym.run.job import CompileWatch

    monkeypatch.setattr(CompileWatch, "AFTER_S", 0.0)
    out = io.StringIO()
    watch = CompileWatch(Progress(10, True, stream=out))
    watch.start()
    watch.thread.join()
    watch.start()  # the thread has ended: not started again (RuntimeError otherwise)
    watch.stop()
    assert CompileWatch.TEXT not in out.getvalue()  # the lock was free: nothing said
