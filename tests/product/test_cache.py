"""The chunk cache (simsym/run/cache.py): a chunk played once is read back, never replayed,
and gives the same totals; anything that decides the games changes the key."""

from dataclasses import replace

import numpy as np
import pytest

from simsym.run import cache as chunk_cache
from simsym.run import executor
from simsym.model.scenario import REPO_ROOT, load_scenario
from simsym.studies.sweep import variant


@pytest.fixture
def small():
    return replace(load_scenario("scenarios/base.yaml").judge("fast"), games=400)


def _same(a, b):
    ta, aa = a
    tb, ab = b
    assert sorted(ta) == sorted(tb)
    for k in ta:
        assert np.array_equal(ta[k], tb[k]), k
    assert np.array_equal(aa, ab)


def test_cached_chunks_are_read_back_not_replayed(small, tmp_path, monkeypatch):
    plain = executor.run_games(small, 400, 3, chunk_size=100)
    monkeypatch.setenv(chunk_cache.ENV, str(tmp_path))
    first = executor.run_games(small, 400, 3, chunk_size=100)
    assert len(list(tmp_path.rglob("*.npz"))) == 4
    _same(plain, first)

    played = []
    real = executor.run_chunk_task
    monkeypatch.setattr(executor, "run_chunk_task",
                        lambda *a: played.append(a[4:6]) or real(*a))
    seen = []
    again = executor.run_games(small, 500, 3, chunk_size=100,
                               on_chunk=lambda res, done: seen.append((res.index, done)))
    assert played == [(400, 500)]  # only the chunk no run had played
    assert sorted(i for i, _ in seen) == [0, 1, 2, 3, 4] and max(d for _, d in seen) == 500
    monkeypatch.delenv(chunk_cache.ENV)
    _same(executor.run_games(small, 500, 3, chunk_size=100), again)


def test_what_decides_the_games_changes_the_key(small):
    key = chunk_cache.chunk_key(small, "numba", 3, 0, 100)
    assert key == chunk_cache.chunk_key(replace(small, name="renamed", games=7), "numba", 3, 0,
                                        100)
    nerf = load_scenario("scenarios/plato-nerf.yaml")
    others = [chunk_cache.chunk_key(small, "numba", 4, 0, 100),
              chunk_cache.chunk_key(small, "numba", 3, 100, 200),
              chunk_cache.chunk_key(small, "python", 3, 0, 100),
              chunk_cache.chunk_key(nerf, "numba", 3, 0, 100),
              chunk_cache.chunk_key(replace(small, seating="rotate"), "numba", 3, 0, 100)]
    assert len({key, *others}) == 6


@pytest.mark.parametrize("seat", ["{family: learned, model: m.json}",
                                  "{family: lookahead, iterations: 4, policy: learned, "
                                  "model: m.json}"])
def test_every_model_a_table_plays_is_in_the_key(tmp_path, seat):
    """A learned seat's model and the model a lookahead seat's rollouts play under policy
    learned: the same file name with other weights is another key (not the stale chunks)."""
    import json

    from simsym.learned.model import BASE_MODEL

    model = tmp_path / "m.json"
    path = tmp_path / "s.yaml"
    path.write_text(f"extends: {REPO_ROOT / 'scenarios' / 'base.yaml'}\nstrategies: [{seat}]\n")

    def key_with(gain):
        doc = json.loads(BASE_MODEL.read_text())
        doc["least_gain"] = gain
        model.write_text(json.dumps(doc))
        return chunk_cache.chunk_key(load_scenario(path), "numba", 3, 0, 100)

    first = key_with(1)
    assert key_with(1) == first  # the same weights: the same games
    assert key_with(2) != first
    # the rollout model of one lookahead seat is not that of another policy's seat
    if "lookahead" in seat:
        own = tmp_path / "own.yaml"
        own.write_text(path.read_text().replace("policy: learned", "policy: own"))
        key_own = chunk_cache.chunk_key(load_scenario(own), "numba", 3, 0, 100)
        key_with(3)
        assert chunk_cache.chunk_key(load_scenario(own), "numba", 3, 0, 100) == key_own


def test_a_sweep_table_shares_the_runs_games():
    """strength-sweep's lookahead table is scenarios/base-lookahead.yaml's table: same key."""
    run = load_scenario("scenarios/base-lookahead.yaml")
    sweep = load_scenario("scenarios/strength-sweep.yaml")
    table = variant(sweep, "strategies", "strategies", next(
        t for t in sweep.sweep[2] if t.family == "lookahead"))
    assert chunk_cache.chunk_key(run, "numba", 1, 0, 500) == \
        chunk_cache.chunk_key(table, "numba", 1, 0, 500)


def test_a_damaged_entry_is_played_again(small, tmp_path, monkeypatch):
    monkeypatch.setenv(chunk_cache.ENV, str(tmp_path))
    first = executor.run_games(small, 200, 5, chunk_size=100)
    entry = sorted(tmp_path.rglob("*.npz"))[0]
    data = bytearray(entry.read_bytes())
    data[-10] ^= 0xFF
    entry.write_bytes(bytes(data))
    _same(first, executor.run_games(small, 200, 5, chunk_size=100))


def test_the_code_hash_follows_the_game_code(tmp_path, monkeypatch):
    chunk_cache.code_hash.cache_clear()
    before = chunk_cache.code_hash()
    assert chunk_cache.code_hash() == before
    monkeypatch.setattr(chunk_cache, "GAME_CODE", chunk_cache.GAME_CODE[:-1])
    chunk_cache.code_hash.cache_clear()
    assert chunk_cache.code_hash() != before
    monkeypatch.undo()
    chunk_cache.code_hash.cache_clear()
    assert chunk_cache.code_hash() == before
