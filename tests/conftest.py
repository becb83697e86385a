import numpy as np
import pytest

from simsym.scenario import BASE_SCENARIO, load_scenario


@pytest.fixture(scope="session")
def base():
    return load_scenario(BASE_SCENARIO)


@pytest.fixture(scope="session")
def cards(base):
    return base.cards


@pytest.fixture(scope="session", autouse=True)
def warm_numba(base):
    """Compile (or load from cache) the kernels once, before any test is timed or run."""
    from simsym.search import Searcher

    Searcher(base.cards, base.rules).best([0, 1, 2])
    return True


def kinds(cards, *names):
    return [cards.lookup(n) for n in names]


@pytest.fixture(scope="session")
def chromium_path():
    """Debian's Chromium for the browser tests, installed when missing (CI runs as root on a
    fresh machine; Playwright's own browser download is not reachable)."""
    import shutil
    import subprocess

    path = shutil.which("chromium")
    if path is None:
        subprocess.run(["apt-get", "update"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "chromium"], check=True,
                       stdout=subprocess.DEVNULL)
        path = shutil.which("chromium")
    assert path, "apt-get installed no chromium"
    return path
