"""`simsym ladder`: pair tables on the same deals, ratings, files, determinism, bad input."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from simsym.cli.main import main
from simsym.core import enums as E
from simsym.errors import InputError, SimsymError
from simsym.studies.ladder import (SCALE, Played, Table, batch_fit, check_games, entrants,
                                   ladder_entries, play_ladder, rate, steps, tables_for)
from simsym.run.executor import run_games
from simsym.model.scenario import REPO_ROOT, load_scenario

BASE = REPO_ROOT / "scenarios" / "base.yaml"


def scenario(tmp_path, strategies, players=4, name="t"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: {BASE}\nname: {name}\nplayers: {players}\nseating: rotate\n"
                    f"strategies: {json.dumps(strategies)}\n")
    return load_scenario(path)


def ladder(sc, games, seed=7, **kw):
    played = play_ladder(sc, games, seed, **kw)
    return played, rate(played)


# --- the design ----------------------------------------------------------------------------

def test_tables_pair_every_strategy_and_balance_odd_tables():
    assert tables_for(3, 4) == [Table(0, 1, 0), Table(0, 2, 1), Table(1, 2, 2)]
    # Odd P: both seat orders, so each holds (P+1)/2 seats at one table and (P-1)/2 at the other.
    assert tables_for(2, 3) == [Table(0, 1, 0), Table(1, 0, 0)]
    for games, players in ((8, 4), (6, 3), (2, 2), (12, 6)):
        check_games(games, players)  # whole deals: fine
    for games, players, message in ((6, 4, "multiple of 4, e.g. 4 or 8"),
                                    (3, 3, "multiple of 6, e.g. 6$"),
                                    (9, 3, "multiple of 6, e.g. 6 or 12")):
        with pytest.raises(SimsymError, match=message):
            check_games(games, players)


def test_pair_units_by_hand():
    """P = 3, two strategies: two tables on 2 deals of 3 games; the pair's lower strategy's
    units per deal add its units at the first table and 3*60 minus B's at the second."""
    first = np.array([[60, 0, 30, 20, 20, 60],   # table (0, 1): strategy 0 sits first
                      [0, 60, 60, 40, 0, 0]], np.int16)  # table (1, 0): strategy 1 first
    played = Played(type("S", (), {"players": 3})(), ["a", "b"], 12, 0, tables_for(2, 3),
                    first, np.zeros((2, 2), np.int64))
    assert played.deals == 2
    assert played.pair_units().tolist() == [[90 + (180 - 120), 100 + (180 - 40)]]


def test_batch_fit_by_hand():
    """Two strategies: the Bradley-Terry MLE is log(wins / losses), here with the prior."""
    w = np.array([[0, 300.0], [100.0, 0]])
    theta = batch_fit(w)
    assert theta[0] - theta[1] == pytest.approx(math.log(300.5 / 100.5), abs=1e-6)
    assert theta.sum() == pytest.approx(0, abs=1e-9)


# --- the games -----------------------------------------------------------------------------

def test_greedy_beats_random_and_the_win_share_is_the_engines(tmp_path):
    sc = scenario(tmp_path, ["random", "greedy"])
    played, r = ladder(sc, 400)
    e = ladder_entries(played, r)
    assert [x["strategy"] for x in e] == ["greedy", "random"]
    greedy, rnd = e
    assert greedy["lo"] > rnd["hi"] and greedy["batch_lo"] > rnd["batch_hi"]
    assert greedy["rating"] - rnd["rating"] > 10  # > 85% head to head
    assert greedy["head_to_head"]["random"]["lo"] > 0.8
    assert steps(r)[0].significant
    # The same table under `simsym run` (rotate seating, random in seats 0 and 2 first):
    # its per-strategy win units give the ladder's win share exactly.
    totals, _ = run_games(sc, 400, 7, jobs=1)
    assert greedy["win_share"] == round(totals["strat_wins"][1] / E.WIN_UNITS / 400, 4)
    assert r.head[1, 0] == totals["strat_wins"][1] / E.WIN_UNITS / 400
    # Both ratings say the same about the pair, on the same scale.
    online = r.mu[1] - r.mu[0]
    batch = SCALE * (r.theta[1] - r.theta[0])
    assert abs(online - batch) < 1.96 * math.hypot(r.sigma[0], r.sigma[1])


def test_a_strategy_against_itself_splits_every_deal_evenly(tmp_path):
    """Identical strategies play the same game in every rotation of a deal: each side holds
    every seat equally often, so each takes exactly half the wins, deal by deal."""
    sc = scenario(tmp_path, ["greedy", "greedy"])
    played, r = ladder(sc, 200)
    assert played.labels == ["greedy", "greedy #2"]
    assert (played.pair_units() == 2 * E.WIN_UNITS).all()
    assert r.win_share.tolist() == [0.5, 0.5]
    assert r.theta[0] == pytest.approx(r.theta[1], abs=1e-9)
    lo = r.mu - 1.96 * r.sigma
    hi = r.mu + 1.96 * r.sigma
    assert lo[0] < hi[1] and lo[1] < hi[0]
    # Every resample of the deals is 50/50 as well: the bootstrap sees no difference at all.
    step = steps(r)[0]
    assert not step.significant and abs(step.lo) < 1e-6 and abs(step.hi) < 1e-6
    assert (r.head_boot[:, 0, 1] == 0.5).all()


def test_ratings_order_agrees_with_win_shares_three_players(tmp_path):
    sc = scenario(tmp_path, ["random", "patient", "greedy"], players=3)
    played, r = ladder(sc, 240)
    assert played.deals == 40 and len(played.tables) == 6
    by_share = sorted(range(3), key=lambda i: -r.win_share[i])
    assert r.order == by_share == sorted(range(3), key=lambda i: -r.theta[i])
    assert played.labels[r.order[-1]] == "random"
    # Each pair's shares add up to 1, and each strategy plays (S-1) * games games.
    assert np.allclose(r.head + r.head.T, 1 - np.eye(3))
    assert all(x["games"] == 480 for x in ladder_entries(played, r))


# --- the files -----------------------------------------------------------------------------

def run_cli(*args):
    return CliRunner().invoke(main, ["ladder", *map(str, args)])


def test_cli_writes_the_ladder_files_with_their_schema(tmp_path):
    sc = scenario(tmp_path, ["random", {"family": "patient", "threshold": 14}, "greedy"])
    r = run_cli(sc.path, "--games", "200", "--jobs", "1", "--out", tmp_path / "out")
    assert r.exit_code == 0, r.output
    assert "greedy" in r.output and "wrote" in r.output
    out = tmp_path / "out"
    entries = json.loads((out / "ladder.json").read_text())
    assert isinstance(entries, list) and [e["rank"] for e in entries] == [1, 2, 3]
    ratings = [e["rating"] for e in entries]
    assert ratings == sorted(ratings, reverse=True)
    for e in entries:
        assert {"strategy", "rating", "lo", "hi", "games", "win_share"} <= set(e)
        assert isinstance(e["games"], int) and e["games"] == 400
        assert e["lo"] < e["rating"] < e["hi"]
        assert e["batch_lo"] <= e["batch_rating"] <= e["batch_hi"]
        assert e["win_share_lo"] <= e["win_share"] <= e["win_share_hi"]
        assert set(e["head_to_head"]) == {x["strategy"] for x in entries} - {e["strategy"]}
    assert {e["strategy"] for e in entries} == {"random", "patient(threshold=14)", "greedy"}
    md = (out / "ladder.md").read_text()
    assert md.index("## Verdict") < md.index("## Ladder") < md.index("## Head to head")
    assert f"**Best: {entries[0]['strategy']}**" in md
    assert (out / "ladder.png").read_bytes()[:4] == b"\x89PNG"
    assert len((out / "pairs.csv").read_text().splitlines()) == 1 + 3
    run = json.loads((out / "ladder-run.json").read_text())
    assert run["games"] == 600 and run["games_per_pair"] == 200


def test_ladder_is_byte_identical_across_jobs_and_chunks(tmp_path):
    sc = scenario(tmp_path, ["random", "greedy", {"family": "specialist",
                                                  "favours": "hedonistic"}])
    a, b = tmp_path / "a", tmp_path / "b"
    assert run_cli(sc.path, "--games", "160", "--jobs", "1", "--chunk-size", "37",
                   "--out", a, "-q").exit_code == 0
    assert run_cli(sc.path, "--games", "160", "--jobs", "2", "--chunk-size", "100",
                   "--out", b, "-q").exit_code == 0
    for name in ("ladder.json", "ladder.md", "pairs.csv", "ladder.png"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_shipped_ladder_scenario_lists_the_families():
    sc = load_scenario(REPO_ROOT / "scenarios" / "ladder.yaml")
    labels = [s.label for s in entrants(sc)]
    assert labels == ["random", "specialist(favours=social)",
                      "specialist(favours=intellectual)", "specialist(favours=hedonistic)",
                      "patient", "greedy", "lookahead(iterations=32)", "lookahead", "learned"]
    assert sc.players == 4 and sc.games % 4 == 0


# --- bad input -----------------------------------------------------------------------------

def test_bad_input_is_one_clear_line_and_exit_2(tmp_path):
    one = tmp_path / "one.yaml"
    one.write_text(f"extends: {BASE}\nname: one\nstrategies: [greedy]\n")
    r = run_cli(one, "--games", "8", "--out", tmp_path)
    assert r.exit_code == 2
    assert "one.yaml:3: strategies: a ladder needs at least 2 strategies, found 1 (greedy)" \
        in r.output
    assert "Traceback" not in r.output
    sc = scenario(tmp_path, ["random", "greedy"])
    r = run_cli(sc.path, "--games", "6", "--out", tmp_path)
    assert r.exit_code == 2 and "--games 6: a pair plays whole duplicate deals of 4" in r.output
    assert run_cli(sc.path, "--games", "0").exit_code == 2
    r = run_cli(REPO_ROOT / "scenarios" / "python-strategy.yaml", "--games", "4")
    assert r.exit_code == 2 and "Python class" in r.output
    assert not (tmp_path / "ladder.json").exists()


@pytest.mark.parametrize("text, fragment", [
    ("ladder: [greedy, random]", ":3: ladder: expected a mapping with strategies"),
    ("ladder:\n  strategies: [greedy]", ":4: ladder.strategies: expected a list of at "
                                        "least 2 strategies"),
    ("ladder:\n  strategy: [greedy, random]", ":4: ladder.strategy: unknown key 'strategy' "
                                              "(did you mean 'strategies'?)"),
    ("ladder:\n  strategies: [greedy, greedyy]", "ladder.strategies[1].family: unknown "
                                                 "strategy 'greedyy'"),
])
def test_ladder_key_is_validated_with_file_and_line(tmp_path, text, fragment):
    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: {BASE}\nname: bad\n{text}\n")
    with pytest.raises(InputError) as e:
        load_scenario(path)
    assert fragment in str(e.value)


def test_more_strategies_than_players_only_under_ladder(tmp_path):
    path = tmp_path / "many.yaml"
    path.write_text(f"extends: {BASE}\nname: many\nplayers: 2\nladder:\n  strategies: "
                    "[random, greedy, patient]\n")
    sc = load_scenario(path)
    assert [s.label for s in entrants(sc)] == ["random", "greedy", "patient"]
    assert [s.label for s in sc.strategies] == ["learned"]  # what `simsym run` plays
    # a judged scenario without `ladder:` ladders its two judges
    assert [s.label for s in entrants(load_scenario(BASE))] == ["greedy", "learned"]
