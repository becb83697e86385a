"""Strategies written as Python classes, in the reference engine."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from replay import replay
from simsym.cli.main import main
from simsym.errors import InputError
from simsym.reference.game import play_game
from simsym.run.worker import compiled_oracle
from simsym.model.scenario import REPO_ROOT, load_scenario
from simsym.engine.search import Searcher

EXAMPLE = REPO_ROOT / "scenarios" / "python-strategy.yaml"


def test_python_class_plays_legal_games():
    sc = load_scenario(EXAMPLE)
    oracle = compiled_oracle(sc)
    searcher = Searcher(sc.cards, sc.rules)
    for g in range(6):
        rec = play_game(sc, g, search=oracle)
        assert replay(rec.events, sc, searcher) == rec.scores
        hoarder = [i for i, s in enumerate(rec.seat_strategy) if s == 1]
        assert hoarder  # the class sat at the table


def test_cli_runs_python_strategy_with_the_reference_engine(tmp_path):
    r = CliRunner().invoke(main, ["run", str(EXAMPLE), "--engine", "python", "--search",
                                  "numba", "--games", "8", "--jobs", "1", "--out",
                                  str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "summary.json").read_text())
    assert [x["strategy"] for x in s["strategies"]] == ["greedy", "python(Hoarder)"]


def test_numba_engine_refuses_python_classes_clearly(tmp_path):
    r = CliRunner().invoke(main, ["run", str(EXAMPLE), "--games", "5", "--out",
                                  str(tmp_path / "o")])
    assert r.exit_code == 2 and "--engine python" in r.output
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("cls,fragment", [
    ("missing.py:Foo", "not found"),
    ("strategies/examples.py:Nope", "no class 'Nope'"),
    ("no_colon", "file.py:ClassName"),
])
def test_bad_class_is_an_input_error(tmp_path, cls, fragment):
    p = Path(REPO_ROOT / "scenarios" / f".tmp-{tmp_path.name}.yaml")
    p.write_text(f"extends: base.yaml\nseating: rotate\nstrategies:\n  - greedy\n"
                 f"  - family: python\n    class: {cls}\n")
    try:
        with pytest.raises(InputError, match=fragment):
            load_scenario(p)
    finally:
        p.unlink()


def test_a_class_that_cheats_is_stopped(tmp_path):
    (tmp_path / "cheat.py").write_text(
        "from simsym.model.custom import Strategy\n"
        "class Cheat(Strategy):\n"
        "    def discards(self, view):\n"
        "        return [0, 0, 0, 0, 0, 0]\n")
    (tmp_path / "s.yaml").write_text(
        f"extends: {REPO_ROOT / 'scenarios' / 'base.yaml'}\nstrategies:\n"
        "  - family: python\n    class: cheat.py:Cheat\n")
    sc = load_scenario(tmp_path / "s.yaml")
    from simsym.reference.game import CustomStrategyError

    with pytest.raises(CustomStrategyError, match="not in the hand"):
        play_game(sc, 0, search=compiled_oracle(sc))
