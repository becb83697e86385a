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
