"""Golden logs: the full move-by-move log of a few fixed-seed games, from both engines.

A change to the rules or the strategies shows up here as a readable diff. When the change
is intended, regenerate with `make golden` and commit the new logs with it. SCENARIO-gameN.txt
is game N at the fast judge's table (greedy players on the judged base), SCENARIO-strong-gameN.txt
at the strong judge's (learned players); a scenario that names its own `strategies:` plays them
under either."""

import re
from pathlib import Path

import pytest

from simsym.cli.log import game_log, log_header
from simsym.reference.game import play_game, render_events
from simsym.reference.quality import describe
from simsym.model.scenario import REPO_ROOT, load_scenario
from simsym.engine.search import Searcher

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))


def spec(path):
    m = re.fullmatch(r"(.+?)(-strong)?-game(\d+)", path.stem)
    judge = "strong" if m[2] else "fast"
    return load_scenario(REPO_ROOT / "scenarios" / f"{m[1]}.yaml").judge(judge), int(m[3])


def split_header(text):
    """A log's header lines (each starting with '#') and its moves."""
    lines = text.splitlines(keepends=True)
    n = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    return "".join(lines[:n]), "".join(lines[n:])


def test_there_are_golden_logs():
    assert len(GOLDEN) >= 6
    strong = [p for p in GOLDEN if "-strong-" in p.stem]
    assert strong and all(spec(p)[0].strategies[0].family == "learned" for p in strong)
    assert all(spec(p)[0].strategies[0].family == "greedy" for p in GOLDEN
               if p.stem.startswith("base-game"))


def test_make_golden_writes_what_the_tests_check():
    """`make golden` logs each file's game at the table :func:`spec` reads from its name."""
    make = (REPO_ROOT / "Makefile").read_text()
    listed = {}
    for var, suffix in (("GOLDEN", ""), ("GOLDEN_STRONG", "-strong")):
        line = re.search(rf"^{var} := (.*)$", make, re.M)[1]
        for entry in line.split():
            sc, g = entry.split(":")
            listed[f"{sc}{suffix}-game{g}"] = "strong" if suffix else "fast"
    assert sorted(listed) == [p.stem for p in GOLDEN]
    assert "--judge $(2)" in make and "$(call golden_logs,$(GOLDEN),fast,)" in make
    assert "$(call golden_logs,$(GOLDEN_STRONG),strong,-strong)" in make


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_the_header_names_the_table_and_each_seat(path):
    scenario, g = spec(path)
    header, _ = split_header(path.read_text())
    role = scenario.judged_by
    assert (f"# table: the {role} judge's (--judge {role})\n" if role else
            "# table: the scenario's own (strategies:)\n") in header
    P, labels = scenario.players, [s.label for s in scenario.strategies]
    # docs/game-engine.md, seating: mirror seats strategy 0 everywhere; rotate seats
    # strategy (i + g) mod P (of the list repeated to P seats) in seat i of game g
    want = ([labels[0]] * P if scenario.seating == "mirror" else
            [labels[(i + g) % P % len(labels)] for i in range(P)])
    assert f"# seats: {', '.join(f'{i} {x}' for i, x in enumerate(want))}\n" in header


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_numba_engine_matches_golden_log(path):
    scenario, g = spec(path)
    assert game_log(scenario, g, "numba") == path.read_text()


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_reference_engine_matches_golden_log(path):
    scenario, g = spec(path)
    s = Searcher(scenario.cards, scenario.rules)

    def oracle(hand, types, required=()):
        p = s.best(list(hand), types=types, required=required)
        return p.score, p.type, tuple(sorted(scenario.cards.index(n) for n in p.cards))

    rec = play_game(scenario, g, search=oracle)
    header, body = split_header(path.read_text())
    assert header == log_header(scenario, g)
    # the moves, then how the game played (docs/game-engine.md section 8)
    assert render_events(rec.events, scenario) + describe(rec.quality, rec.turns) + "\n" == body


def test_simsym_log_plays_the_judge_it_is_asked_for():
    """`simsym log` on the judged base: the strong table unless --judge fast, as `simsym run`;
    its output is the golden log of that table, header included."""
    from click.testing import CliRunner

    from simsym.cli.main import main

    golden = Path(__file__).parent / "golden"
    base = str(REPO_ROOT / "scenarios" / "base.yaml")
    for flags, name in (([], "base-strong-game1"), (["--judge", "strong"], "base-strong-game1"),
                        (["--judge", "fast"], "base-game1")):
        res = CliRunner().invoke(main, ["log", base, "--game", "1", *flags])
        assert res.exit_code == 0, res.output
        assert res.output == (golden / f"{name}.txt").read_text(), flags
    res = CliRunner().invoke(main, ["log", base, "--judge", "slow"])
    assert res.exit_code == 2 and "'strong', 'fast'" in res.output
