import pytest

from simsym.model.scenario import BASE_SCENARIO, load_scenario


@pytest.fixture(scope="session")
def base():
    """The base game's fast table (four greedy players): the scripted table the engine tests
    play. `base_judged` is the scenario as written, judged by both tables."""
    return load_scenario(BASE_SCENARIO).judge("fast")


@pytest.fixture(scope="session")
def base_judged():
    return load_scenario(BASE_SCENARIO)


@pytest.fixture(scope="session")
def cards(base):
    return base.cards


@pytest.fixture(scope="session", autouse=True)
def warm_numba(base):
    """Compile (or load from cache) the kernels once, before any test is timed or run."""
    from simsym.engine.search import Searcher

    Searcher(base.cards, base.rules).best([0, 1, 2])
    return True


@pytest.fixture
def own_locks(monkeypatch, tmp_path):
    """The compile's locks (simsym.engine.compiled.compile_lock_path: the compile's and the
    helper part's) a test's own, not those a compile elsewhere in the suite may hold."""
    from simsym.engine import compiled

    monkeypatch.setattr(compiled, "compile_lock_path",
                        lambda part="": tmp_path / f"compile{part}.lock")


def kinds(cards, *names):
    return [cards.lookup(n) for n in names]


@pytest.fixture(scope="session")
def chromium_path():
    """Debian's Chromium for the browser tests, installed when missing (CI runs as root on a
    fresh machine; Playwright's own browser download is not reachable)."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    from filelock import FileLock

    # One install at a time: `make test` runs the suite in several worker processes.
    with FileLock(Path(tempfile.gettempdir()) / "simsym-tests-chromium.lock"):
        path = shutil.which("chromium")
        if path is None:
            subprocess.run(["apt-get", "update"], check=True, stdout=subprocess.DEVNULL)
            subprocess.run(["apt-get", "install", "-y", "chromium"], check=True,
                           stdout=subprocess.DEVNULL)
            path = shutil.which("chromium")
    assert path, "apt-get installed no chromium"
    return path


# --- the bounds-checked kernels, compiled while the rest of the suite runs ----------------

BOUNDSCHECK_TEST = "test_boundscheck.py::test_kernels_stay_in_bounds"
_boundscheck = {}


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected (make test-quick: not run)
def pytest_collection_modifyitems(session, config, items):
    """When the bounds-checked test is selected, start its runs now (in the background, see
    tests/boundscheck_job.py) and move it to the end, so it waits for them last.

    Not in a worker of pytest-xdist (`make test` runs the suite in two): every worker
    collects every test, so each would start the job. There the test starts the job when it
    runs, in the one worker that runs it, and the other worker has the second core."""
    _slow_files_first(items)
    chosen = [it for it in items if it.nodeid.endswith(BOUNDSCHECK_TEST)]
    if not chosen or config.getoption("collectonly") or hasattr(config, "workerinput"):
        return
    items[:] = [it for it in items if it not in chosen] + chosen
    _start_boundscheck()


def _slow_files_first(items):
    """The test files holding a test marked slow first, in their order, then the others: the
    workers of `make test` (pytest-xdist, a file at a time, handed out in this order: the
    Makefile passes --no-loadscope-reorder, without which xdist hands out the files with most
    tests first) start on the long files and finish on short ones, instead of one worker
    running a long file alone at the end. Every worker collects the same order, as
    pytest-xdist requires."""
    slow = {it.path for it in items if it.get_closest_marker("slow")}
    items.sort(key=lambda it: it.path not in slow)  # stable: each file keeps its order


def _start_boundscheck():
    if "job" not in _boundscheck:
        from boundscheck_job import BoundsCheckJob
        from test_boundscheck import STEPS

        _boundscheck["job"] = BoundsCheckJob(STEPS)
    return _boundscheck["job"]


@pytest.fixture(scope="session")
def boundscheck_job():
    return _start_boundscheck()


def pytest_sessionfinish(session, exitstatus):
    job = _boundscheck.pop("job", None)
    if job is not None:
        job.stop()
