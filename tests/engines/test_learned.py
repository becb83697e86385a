"""The `learned` player (docs/game-engine.md 6.7): its features, its model file, the same games
in both engines, no hidden information, and `simsym train` (reproducible, resumable)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from simsym.errors import InputError
from simsym.learned import features as LF
from simsym.learned import model as M
from simsym.reference import lookahead as L
from simsym.reference.game import Game
from simsym.model.strategies import make_strategy
from tests.engines.test_lookahead_reference import BASE, _redeal
from tests.rules.test_reference_game import fast


@pytest.fixture(scope="module")
def random_model(tmp_path_factory):
    """A model of random weights: every feature decides something somewhere."""
    w = np.random.default_rng(0).integers(-1000, 1000, LF.MODEL_SIZE)
    w[LF.WEIGHTS] = 700  # the least gain
    path = tmp_path_factory.mktemp("model") / "random.json"
    path.write_text(M.dumps(w, {}))
    return path


# --- the features, by hand --------------------------------------------------------------------

def _card(name):
    return BASE.cards.lookup(name)


def test_features_of_a_hand_by_hand():
    cards = BASE.cards
    kf = LF.kind_features(cards)
    keep = list(range(100, 100 + len(cards)))  # any keep values: their sum is checked
    hand = sorted(_card(n) for n in ("Orgy", "Flutist", "Krater", "Wine of Chios", "Plato",
                                     "Dionysus"))
    best = {0: 11, 1: 13, 2: 0}
    f = LF.candidate_features(hand, kf, keep, lambda h, t: best[t], points=7, played=2,
                              given=0, is_pass=False)
    want = {
        "points_now": 7, "cards_played": 2, "cards_given": 0, "hand_size": 6,
        "best_intellectual": 11, "best_social": 13, "best_hedonistic": 0, "best_any": 13,
        "keep_sum": sum(keep[k] for k in hand),
        # Orgy 0, Flutist 0, Krater 1 (Container), Chios 1 printed, Plato 0, Dionysus 1
        "wine_sum": 3, "non_container_wine": 2,
        "women": 1,  # Flutist (WC)
        "intellectual_sum": 5,  # Plato 5I
        "hedonistic_sum": 5,  # Orgy 5H
        "either_sum": 4,  # Flutist 2E, Dionysus 2E
        "vintage": 1,  # Wine of Chios
        "conditional": 1,  # Orgy: Requires 3+ WC
        "pass": 0,
    }
    assert dict(zip(LF.FEATURES, f)) == want


def test_phases():
    assert [LF.phase(r, 3) for r in range(4)] == [0, 1, 2, 3]
    assert [LF.phase(r, 5) for r in range(6)] == [0, 1, 2, 2, 2, 3]
    assert LF.phase(1, 1) == 3


def test_the_score_is_the_decision_and_phase_block_dotted_with_the_features():
    w = np.zeros(LF.MODEL_SIZE, np.int64)
    base = (2 * LF.NPHASE + 1) * LF.NF  # symposion, one run ended
    w[base + LF.F_POINTS] = 3
    w[base + LF.F_PASS] = -5
    f = [0] * LF.NF
    f[LF.F_POINTS], f[LF.F_PASS] = 4, 1
    assert LF.model_score(w, 2, 1, f) == 3 * 4 - 5
    assert LF.model_score(w, 2, 0, f) == 0  # another phase's weights are zero
    assert LF.choose([3, 7, 7, 1]) == 1  # ties go to the earlier candidate
    assert LF.choose([0, 0]) == 0
    # the least gain: greedy's (the first) unless another beats it by more
    assert LF.choose([3, 7, 8, 1], least_gain=4) == 2
    assert LF.choose([3, 7, 7, 1], least_gain=4) == 0
    assert LF.choose([3, 8, 7, 9], least_gain=4) == 3


# --- the model file ---------------------------------------------------------------------------

def test_model_file_round_trip_and_errors(tmp_path):
    from simsym.errors import InputError

    w = np.arange(LF.MODEL_SIZE, dtype=np.int64) - 100
    p = tmp_path / "m.json"
    p.write_text(M.dumps(w, {"note": 1}))
    assert (M.load(p) == w).all()
    assert M.dumps(w, {"note": 1}) == p.read_text()  # deterministic text
    doc = json.loads(p.read_text())
    for change, words in [({"version": 99}, "version"), ({"format": "x"}, "not a simsym model"),
                          ({"features": ["a"]}, "other features"),
                          ({"weights": {}}, "'weights' must hold")]:
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({**doc, **change}))
        with pytest.raises(InputError, match=words):
            M.load(bad)
    with pytest.raises(InputError, match="no model file"):
        M.load(tmp_path / "missing.json")


def test_the_shipped_model_loads_and_is_not_zero():
    w = M.load_base()
    assert w.shape == (LF.MODEL_SIZE,) and np.abs(w).sum() > 0


def test_a_scenario_naming_a_missing_model_is_an_input_error(tmp_path):
    from simsym.cli.main import main as cli

    sc = tmp_path / "s.yaml"
    sc.write_text("extends: simsym:base\nstrategies:\n  - {family: learned, model: nope.json}\n")
    res = CliRunner().invoke(cli, ["validate", str(sc)])
    assert res.exit_code == 2, res.output
    assert "no model file" in res.output and "s.yaml" in res.output


# --- both engines, game for game --------------------------------------------------------------

def _scenarios(model):
    greedy = make_strategy("greedy")
    ln = make_strategy({"family": "learned", "model": str(model), "trade_inactive": True})
    # trades between others and uneven offers on: learned seats are asked and answer
    mixed = replace(BASE, players=4, seating="rotate", seed=11,
                    strategies=[ln, make_strategy({"family": "patient", "trade_inactive": True}),
                                greedy, make_strategy({"family": "learned",
                                                       "candidates": 3})])
    mixed = replace(mixed, rules=replace(mixed.rules, trade_between_others=True,
                                         uneven_trades=True))
    shipped = replace(BASE, players=4, seating="mirror", seed=3,
                      strategies=[make_strategy("learned")])
    three = replace(BASE, players=3, seating="rotate", seed=5,
                    strategies=[ln, make_strategy("specialist")])
    # a search whose rollouts the learned player plays (policy learned), against learned
    search = replace(BASE, players=4, seating="rotate", seed=13,
                     strategies=[make_strategy({"family": "lookahead", "iterations": 3,
                                                "candidates": 3, "policy": "learned",
                                                "model": str(model)}), ln, greedy, greedy])
    search = replace(search, rules=replace(search.rules, trade_between_others=True))
    return {"mixed": (mixed, 300), "shipped": (shipped, 300), "three": (three, 200),
            "search": (search, 12)}


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["mixed", "shipped", "three", "search"])
def test_games_agree_event_for_event(monkeypatch, random_model, variant):
    from simsym.engine.compiled import logged_games, setup_for
    from simsym.run.reference import record_row

    sc, games = _scenarios(random_model)[variant]
    kinds = Counter()
    real = L.learned_choice

    def counting(game, s, kind, cands, offer):
        kinds[kind] += 1
        return real(game, s, kind, cands, offer)

    monkeypatch.setattr(L, "learned_choice", counting)
    for g, (events, row, _) in enumerate(logged_games(setup_for(sc), 0, games)):
        ref = Game(sc, g, fast(sc)).play()
        assert [tuple(e) for e in events.tolist()] == [tuple(e) for e in ref.events], g
        # the per-game row too, the game-quality fields included (docs section 8)
        assert row.tolist() == record_row(ref, sc.players).tolist(), g
    assert kinds[L.SYMPOSIARCH] and kinds[L.SYMPOSION] and kinds[L.KOMOS]
    if variant == "mixed":
        assert kinds[L.TRADE] > 0


def test_a_model_of_zeros_plays_greedy(tmp_path):
    """Every decision's first candidate is greedy's choice and ties go to it."""
    from simsym.engine.compiled import logged_games, setup_for

    p = tmp_path / "zeros.json"
    p.write_text(M.dumps(np.zeros(LF.MODEL_SIZE, np.int64), {}))
    a = replace(BASE, seed=9, strategies=[make_strategy({"family": "learned",
                                                         "model": str(p)})])
    b = replace(a, strategies=[make_strategy("greedy")])
    for (ea, _, _), (eb, _, _) in zip(logged_games(setup_for(a), 0, 20),
                                      logged_games(setup_for(b), 0, 20)):
        assert (ea == eb).all()


def test_the_plain_game_loop_plays_a_learned_table_as_greedy_twins():
    """game_nb.play_until driven from Python on the strong (learned) table: the loop has
    neither search nor model, so a learned seat makes its choices as its greedy twin (the
    same parameters) does, a trade answer included. Game 1 asks a learned seat for a trade
    at turn 11; that query was parked for an answer the plain loop never gave, and it ran
    the attempt again for ever."""
    from simsym.core import enums as E
    from simsym.core import game_nb as G
    from simsym.engine.compiled import setup_for
    from simsym.model.scenario import BASE_SCENARIO, load_scenario

    strong = load_scenario(BASE_SCENARIO).judge("strong")
    tb = setup_for(strong).table()
    a, b = G.new_state(tb, 20_000), G.new_state(tb, 20_000)
    G.setup(tb, a, 1, strong.seed)
    G.setup(tb, b, 1, strong.seed)
    assert (tb.strat_params[a.strat, E.SP.FAMILY] == E.FAM.LEARNED).all()
    twins = np.array([tb.strat_params[r, E.SP.TWIN] for r in b.strat], np.int64)
    G.set_policy(tb, b, twins)
    assert (tb.strat_params[b.strat, E.SP.FAMILY] == E.FAM.GREEDY).all()
    G.play_until(tb, a, 12, E.AT.SYMPOSION)  # past the offer of turn 11
    assert (a.sc[E.GS.TURN], a.sc[E.GS.AT]) == (12, E.AT.SYMPOSION)
    G.play_until(tb, a, -1, -1)
    G.play_until(tb, b, -1, -1)
    assert a.sc[E.GS.AT] == b.sc[E.GS.AT] == E.AT.OVER
    assert a.sc[E.GS.TRADES] > 0
    n = a.sc[E.GS.NEV]
    assert n == b.sc[E.GS.NEV] and (a.ev[:n] == b.ev[:n]).all()


# --- no hidden information ----------------------------------------------------------------------

@pytest.mark.parametrize("g", [0, 1])
def test_decisions_do_not_depend_on_hidden_cards(monkeypatch, random_model, g):
    sc, _ = _scenarios(random_model)["mixed"]
    checked = Counter()
    real = L.learned_choice
    rnd = random.Random(g)

    def checking(game, s, kind, cands, offer):
        alt = _redeal(game, s, offer, rnd)
        assert (alt.hands, alt.pile) != (game.hands, game.pile)
        c = real(game, s, kind, cands, offer)
        assert real(alt, s, kind, cands, offer) == c
        checked[kind] += 1
        return c

    monkeypatch.setattr(L, "learned_choice", checking)
    Game(sc, g, fast(sc)).play()
    assert checked[L.SYMPOSION] > 0 and checked[L.KOMOS] + checked[L.SYMPOSIARCH] > 0


# --- simsym train -------------------------------------------------------------------------------

SPEC = """name: train-tiny
extends: simsym:base
seed: 5
train:
  rounds: 2
  games: 6
  tables: [self, greedy]
  teacher: {iterations: 6, candidates: 4}
  eval_games: 16
"""


def _train(tmp_path, out, *extra):
    from simsym.cli.main import main as cli

    spec = tmp_path / "train-tiny.yaml"
    spec.write_text(SPEC)
    res = CliRunner().invoke(cli, ["train", str(spec), "--out", str(out), "--jobs", "1",
                                   *extra])
    assert res.exit_code == 0, res.output
    return (out / "model.json").read_bytes()


@pytest.mark.slow
def test_training_is_reproducible_and_resumes(tmp_path):
    a = _train(tmp_path, tmp_path / "a")
    b = _train(tmp_path, tmp_path / "b")
    assert a == b
    # a folder holding a training is not started over unless asked
    from simsym.cli.main import main as cli

    res = CliRunner().invoke(cli, ["train", str(tmp_path / "train-tiny.yaml"), "--out",
                                   str(tmp_path / "a")])
    assert res.exit_code != 0 and "--resume" in res.output and "--force" in res.output
    doc = json.loads(a)
    assert doc["format"] == M.FORMAT and doc["training"]["decisions"] > 0
    W = np.array(M.load(tmp_path / "a" / "model.json"))
    assert np.abs(W).sum() > 0  # the labels taught it something
    report = json.loads((tmp_path / "a" / "train.json").read_text())
    assert [r["round"] for r in report["rounds"]] == [0, 1]
    for r in report["rounds"]:
        assert 0 <= r["held_out"]["agreement"] <= 1 and r["strength"]["games"] == 16
    assert "| 2 |" in (tmp_path / "a" / "train.md").read_text()
    # cut off after the first round: its labels are kept, the rest is made again
    rounds = tmp_path / "b" / "rounds"
    for f in ["round-1.npz", "round-1.json", "round-0.json"]:
        (rounds / f).unlink()
    (tmp_path / "b" / "model.json").unlink()
    assert _train(tmp_path, tmp_path / "b", "--resume") == a


def _start_model(tmp_path, generation: int) -> Path:
    """A model file of small random weights that says it is ``generation``."""
    rng = np.random.default_rng(7)
    w = np.append(rng.integers(-2000, 2000, LF.WEIGHTS), 100)
    p = tmp_path / "start.json"
    p.write_text(M.dumps(w, {"generation": generation}))
    return p


@pytest.mark.slow
def test_training_from_a_model_with_learned_rollouts_writes_each_generation(tmp_path):
    """`start:` plays the start model in round 1, each round's model is a generation counted
    on from the start model's, model.json is the last, and each is measured against three
    seats of the start model."""
    from simsym.cli.main import main as cli
    from simsym.studies.train import label_chunk

    start = _start_model(tmp_path, generation=5)
    spec = tmp_path / "t.yaml"
    spec.write_text(SPEC.replace("teacher: {iterations: 6, candidates: 4}",
                                 "teacher: {iterations: 6, candidates: 4, policy: learned}\n"
                                 "  start: start.json"))
    outs = []
    for name in ("a", "b"):
        res = CliRunner().invoke(cli, ["train", str(spec), "--out", str(tmp_path / name),
                                       "--jobs", "1"])
        assert res.exit_code == 0, res.output
        outs.append(tmp_path / name)
    gens = sorted(p.name for p in (outs[0] / "generations").iterdir())
    assert gens == ["generation-6.json", "generation-7.json"]
    assert (outs[0] / "model.json").read_bytes() == \
        (outs[0] / "generations" / "generation-7.json").read_bytes()
    for g in gens:  # reproducible, generation by generation
        assert (outs[0] / "generations" / g).read_bytes() == \
            (outs[1] / "generations" / g).read_bytes()
    assert [M.generation_of(outs[0] / "generations" / g) for g in gens] == [6, 7]
    report = json.loads((outs[0] / "train.json").read_text())
    assert [r["generation"] for r in report["rounds"]] == [6, 7]
    for r in report["rounds"]:
        assert r["against_start"]["games"] == 16 and 0 <= r["against_start"]["win_share"] <= 1
    md = (outs[0] / "train.md").read_text()
    assert "win share vs the start model" in md and "starts from start.json" in md
    assert "teacher's rollouts: learned" in md
    # round 1 was played by the start model: its labels are the start model's choices
    from simsym.core.lookahead_nb import LC
    from simsym.model.scenario import load_scenario
    from simsym.studies.train import table_scenario
    from simsym.studies.train_spec import parse_train

    sc = load_scenario(spec)
    tsc = table_scenario(sc, "self", str(start), parse_train(sc), 1)
    labc, labf = label_chunk(tsc, M.load(start), 6, 0, 2, policy="learned")
    assert len(labc) and labc[:, LC.MODEL].sum() == len(np.unique(labc[:, LC.DEC]))
    # the rollouts' policy is the teacher's: greedy rollouts value the candidates otherwise
    g_labc, _ = label_chunk(tsc, M.load(start), 6, 0, 2, policy="greedy")
    assert g_labc.shape == labc.shape  # the same decisions (the learner plays the same) ...
    assert (g_labc[:, LC.TOTAL] != labc[:, LC.TOTAL]).any()  # ... valued by other rollouts


def _model_recipe() -> list[list[str]]:
    """The `simsym train` command lines of the Makefile's `model` recipe."""
    import shlex

    make = Path("Makefile").read_text()
    recipe = make.split("\nmodel:", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    return [shlex.split(line.strip())[1:] for line in recipe if " train " in line]


@pytest.mark.slow
def test_make_model_reproduces_every_shipped_generation_byte_for_byte(tmp_path):
    """The Makefile's `model` recipe, checked here: its expert iteration is run whole, and
    every generation it trains is the file the package ships, byte for byte; its refine (100
    steps of a direct search, half an hour) is played again from the path it
    recorded (refine-path.json) at its first step, its 91st and its last, each reaching
    the recorded state exactly, and the model of its last state is the shipped generation,
    byte for byte."""
    import subprocess
    import sys

    from simsym.model.scenario import load_scenario
    from simsym.studies import refine as R
    from simsym.studies.train import _generation
    from simsym.studies.train_spec import parse_train

    trains = _model_recipe()
    assert len(trains) == 2, "the model recipe trains, then refines"
    made = {}
    for args in trains:
        assert args[0] == "train"
        sc = load_scenario(args[1])
        spec = parse_train(sc)
        out = Path(args[args.index("--out") + 1])
        if spec.refine is None:  # expert iteration: run whole
            mine = tmp_path / out.name
            done = subprocess.run([sys.executable, "-c",
                                   "from simsym.cli.main import main; main()", "train",
                                   args[1], "--out", str(mine), "--force", "--jobs", "2", "-q"],
                                  capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
            for p in (mine / "generations").glob("generation-*.json"):
                made[int(p.stem.split("-")[1])] = p.read_bytes()
            continue
        path = json.loads((out / R.PATH_JSON).read_text())  # the committed search's path
        start = M.load(spec.start_path)
        G = path["settings"]["steps"]
        assert len(path["digests"]) == G + 1
        for done in (0, 90, G - 1):
            state = R.replay(sc, start, spec, path, done, jobs=2)
            assert state.digest() == path["digests"][done + 1], f"step {done + 1}"
        assert state.to_json() == path["states"][str(G)]
        weights = R.weights_at(start, R.weight_scale(start), state.z)
        g = M.generation_of(spec.start_path) + 1
        made[g] = _generation(tmp_path, g, weights, spec, sc, []).encode()
    assert sorted(made) == M.generations()
    for g, text in made.items():
        assert text == M.generation_path(g).read_bytes(), f"generation {g}"


def test_a_shipped_generation_is_played_by_its_number(tmp_path):
    from simsym.model.strategies import model_weights

    gens = M.generations()
    assert len(gens) >= 2 and M.NEWEST == gens[-1] and M.PREVIOUS == gens[-2]
    assert M.BASE_MODEL == M.generation_path(M.NEWEST)  # the shipped model is the newest
    for g in gens:
        assert M.generation_of(M.generation_path(g)) == g
        w = model_weights(make_strategy({"family": "learned", "generation": g}))
        assert (w == M.load(M.generation_path(g))).all()
    assert (model_weights(make_strategy("learned")) == M.load_base()).all()
    old = make_strategy({"family": "learned", "generation": gens[0]})
    assert old.label == f"learned(generation={gens[0]})"
    with pytest.raises(InputError, match="no generation 999 is shipped; allowed: "
                                         + ", ".join(map(str, gens))):
        make_strategy({"family": "learned", "generation": 999})
    with pytest.raises(InputError, match="not both"):
        make_strategy({"family": "learned", "generation": gens[0], "model": "m.json"})


REFINE_SPEC = """name: refine-tiny
extends: simsym:base
seed: 5
train:
  start: base
  rounds: 0
  refine: {steps: 2, pairs: 2, games: 16, greedy_games: 8, eval_games: 16}
"""


def test_refining_is_reproducible_and_moves_the_weights(tmp_path):
    from simsym.cli.main import main as cli

    spec = tmp_path / "refine-tiny.yaml"
    spec.write_text(REFINE_SPEC)
    files = []
    for out in ("a", "b"):
        res = CliRunner().invoke(cli, ["train", str(spec), "--out", str(tmp_path / out),
                                       "--jobs", "1"])
        assert res.exit_code == 0, res.output
        files.append((tmp_path / out / "model.json").read_bytes())
    assert files[0] == files[1]
    W = M.load(tmp_path / "a" / "model.json")
    base = M.load_base()
    assert (W != base).any()
    assert (W[:LF.WEIGHTS][base[:LF.WEIGHTS] == 0] == 0).all()  # unused weights stay zero
    report = json.loads((tmp_path / "a" / "train.json").read_text())
    hist = report["refine"]["history"]
    assert [h["step"] for h in hist] == [1, 2]
    assert hist[-1]["vs_start"]["games"] == 16 and hist[-1]["vs_greedy"]["games"] == 16
    assert "Refined by direct search" in (tmp_path / "a" / "train.md").read_text()
    # the search's path: a digest per generation, whole states to play any stretch again
    from simsym.model.scenario import load_scenario
    from simsym.studies import refine as R
    from simsym.studies.train_spec import parse_train

    path = json.loads((tmp_path / "a" / R.PATH_JSON).read_text())
    assert len(path["digests"]) == 3 and sorted(path["states"]) == ["0", "1", "2"]
    sc = load_scenario(spec)
    again = R.replay(sc, base, parse_train(sc), path, 1)
    assert again.digest() == path["digests"][2] and again.to_json() == path["states"]["2"]
    # cut off after its first step: --resume plays only the second, to the same model
    rounds = tmp_path / "b" / "rounds"
    (rounds / "refine-state.json").write_text(json.dumps(
        {"state": path["states"]["1"], "path": {"digests": path["digests"][:2],
                                                "states": {"0": path["states"]["0"],
                                                           "1": path["states"]["1"]}}}))
    for f in ("model.json", "train.json", R.PATH_JSON):
        (tmp_path / "b" / f).unlink()
    res = CliRunner().invoke(cli, ["train", str(spec), "--out", str(tmp_path / "b"),
                                   "--jobs", "1", "--resume"])
    assert res.exit_code == 0 and "resumed after step 1" in res.output, res.output
    assert (tmp_path / "b" / "model.json").read_bytes() == files[0]
    assert (tmp_path / "b" / R.PATH_JSON).read_bytes() == \
        (tmp_path / "a" / R.PATH_JSON).read_bytes()
    spec.write_text(REFINE_SPEC.replace("pairs: 2", "pairs: 2, sigma: -1, mystery: 3"))
    res = CliRunner().invoke(cli, ["train", str(spec), "--out", str(tmp_path / "c")])
    assert res.exit_code == 2
    for words in ["train.refine.sigma", "train.refine.mystery"]:
        assert words in res.output, res.output


def test_train_block_errors_name_the_key(tmp_path):
    from simsym.cli.main import main as cli

    spec = tmp_path / "t.yaml"
    spec.write_text("extends: simsym:base\ntrain:\n  rounds: 0\n  tables: [self, mystery]\n"
                    "  teacher: {iterations: 64, budget: 3, policy: clever}\n  speed: 2\n"
                    "  start: nowhere.json\n")
    res = CliRunner().invoke(cli, ["train", str(spec), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2
    for words in ["train.rounds", "train.tables", "train.teacher.budget", "train.speed",
                  "t.yaml", "train.teacher.policy", "greedy, learned", "train.start",
                  "no model file"]:
        assert words in res.output, res.output
    spec.write_text("extends: simsym:base\n")
    res = CliRunner().invoke(cli, ["train", str(spec), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "no `train:` block" in res.output


def test_fit_recovers_known_weights():
    """Values made from known weights (within decisions) are fitted back."""
    from simsym.core import lookahead_nb as N
    from simsym.studies.train import VALUE_UNIT, evaluate_labels, fit

    rnd = np.random.default_rng(1)
    true = np.zeros((len(LF.DECISIONS), LF.NPHASE, LF.NF))
    true[2, 0, LF.F_POINTS] = 0.01
    true[2, 0, LF.F_BEST] = 0.004
    rows, feats = [], []
    for d in range(400):
        nc = int(rnd.integers(2, 6))
        for c in range(nc):
            f = rnd.integers(0, 20, LF.NF)
            v = float(true[2, 0] @ f) + 0.3 * d % 1  # a decision's own offset does not count
            r = np.zeros(N.LC.SIZE, np.int64)
            r[[N.LC.DEC, N.LC.KIND, N.LC.PHASE, N.LC.CAND, N.LC.NC]] = d, 2, 0, c, nc
            r[N.LC.COUNT] = 10
            r[N.LC.TOTAL] = round(v * VALUE_UNIT * 10)
            rows.append(r)
            feats.append(f)
    labc, labf = np.array(rows), np.array(feats)
    best = np.zeros(len(labc), np.int64)
    for d in range(400):
        sel = np.flatnonzero(labc[:, N.LC.DEC] == d)
        best[sel[np.argmax(labf[sel] @ true[2, 0])]] = 1
    labc[:, N.LC.TEACHER] = best
    fitted = fit(labc, labf, ridge=1e-6)
    w = fitted[:LF.WEIGHTS].reshape(true.shape) / M.SCALE
    assert np.allclose(w[2, 0], true[2, 0], atol=1e-4)
    assert evaluate_labels(labc, labf, fitted)["agreement"] > 0.97
    assert fit(labc, labf, 1.0, least_gain=0.01)[LF.WEIGHTS] == round(0.01 * M.SCALE)


# --- everywhere a family is -------------------------------------------------------------------

@pytest.mark.slow
def test_run_log_and_ladder_take_a_learned_seat(tmp_path, random_model):
    """`simsym run` gives the same summary.json in both engines; `simsym log` and `simsym
    ladder` play learned seats too."""
    from simsym.cli.main import main as cli

    sc = tmp_path / "learned.yaml"
    sc.write_text("extends: simsym:base\nname: learned-table\nseating: rotate\nstrategies:\n"
                  f"  - {{family: learned, model: {random_model}}}\n  - greedy\n"
                  "  - {family: learned}\n  - patient\n")
    runner = CliRunner()
    outs = []
    for engine in (["--engine", "numba"], ["--engine", "python", "--search", "numba"]):
        out = tmp_path / engine[1]
        res = runner.invoke(cli, ["run", str(sc), "--games", "8", "--jobs", "1", "-q",
                                  "--out", str(out), *engine])
        assert res.exit_code == 0, res.output
        outs.append((out / "summary.json").read_bytes())
    assert outs[0] == outs[1]
    assert b"learned(model=" in outs[0]
    res = runner.invoke(cli, ["log", str(sc), "--game", "1"])
    assert res.exit_code == 0 and "play seat" in res.output, res.output
    lad = tmp_path / "ladder.yaml"
    lad.write_text("extends: simsym:base\nname: lad\nladder:\n  strategies: [greedy, learned]\n")
    res = runner.invoke(cli, ["ladder", str(lad), "--games", "8", "--jobs", "1", "-q",
                              "--out", str(tmp_path / "lad")])
    assert res.exit_code == 0, res.output
    assert "learned" in (tmp_path / "lad" / "ladder.md").read_text()


def test_a_pass_is_never_chosen_once_draws_have_stopped():
    assert LF.choose([0, None, 5], least_gain=1) == 2
    assert LF.choose([0, None, 1], least_gain=1) == 0


def test_the_searched_families_are_named_alike_in_both_engines():
    from simsym.reference import game
    from simsym.model.strategies import SEARCHED

    assert game.SEARCHED == SEARCHED


@pytest.mark.slow
def test_the_workbench_judges_with_a_learned_table(tmp_path):
    """`simsym serve` on a scenario of learned seats: a one-card change is played and judged
    by that table."""
    from fastapi.testclient import TestClient

    from simsym.serve.app import create_app
    from simsym.serve.variant import base_fields
    from tests.serving import KRATER
    from tests.product.test_serve import HX, URL, copy_scenarios, job_id, wait_job

    base = copy_scenarios(tmp_path)
    sc = tmp_path / "learned.yaml"
    sc.write_text("extends: base.yaml\nname: learned-table\nstrategies: [learned]\n")
    app = create_app(sc, reports_dir=tmp_path, port=8765, jobs=1)
    assert base.exists()
    with TestClient(app, base_url=URL) as client:
        form = {**base_fields(app.state.session.base), "max_games": "2000", "block": "100"}
        form[f"text-{KRATER}"] = "2W, Container"
        r = client.post("/run", data=form, headers=HX)
        assert r.status_code == 200, r.text
        st = wait_job(app, job_id(r.text))
        assert st.status == "done", st.error
        assert st.last["games"] > 0 and st.last["metric"] == "card:Krater"
