"""What a worker process keeps between chunks (simsym.run.worker.engine_state)."""

import pickle
from dataclasses import replace

from simsym.run.worker import engine_state


def test_engine_is_kept_for_a_copy_and_rebuilt_for_other_games(base):
    first = engine_state(base, "numba", "numba")["setup"]
    # A Dask task brings its own copy of the scenario: same games, same engine.
    assert engine_state(pickle.loads(pickle.dumps(base)), "numba", "numba")["setup"] is first
    # Another seed (a held-out or confirmation run of the same table): other games.
    other = engine_state(replace(base, seed=base.seed + 1), "numba", "numba")["setup"]
    assert other is not first and other.scenario.seed == base.seed + 1
    # Another table: other games.
    three = engine_state(replace(base, players=3), "numba", "numba")["setup"]
    assert three is not other and three.scenario.players == 3
