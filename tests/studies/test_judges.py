"""A scenario's two judges: a fast and a strong mirror table on the same deals, in the
scenario file, in `simsym run` (both tables, judges.json, the report's opening) and as the
table the other commands play by default."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simsym.cli.main import main as cli
from simsym.studies.compare import resolve
from simsym.errors import InputError, InputErrors
from simsym.report.judges import _cards_text
from simsym.model.scenario import load_scenario
from simsym.run.judged import JUDGES_JSON

BASE = "scenarios/base.yaml"


def _write(tmp_path, text, name="s.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def _problems(path):
    with pytest.raises((InputError, InputErrors)) as e:
        load_scenario(path)
    return str(e.value)


def test_judges_default_to_greedy_and_learned(tmp_path):
    cards = _abs("scenarios/cards/symposion.yaml")
    plain = load_scenario(_write(tmp_path, f"name: plain\ncards: {cards}\n", "p.yaml"))
    assert plain.judges is None and [s.family for s in plain.strategies] == ["greedy"]
    sc = load_scenario(_write(tmp_path, f"name: judged\ncards: {cards}\njudges: {{}}\n"))
    assert {k: v.family for k, v in sc.judges.items()} == {"fast": "greedy",
                                                           "strong": "learned"}
    assert [s.family for s in sc.strategies] == ["learned"]  # the strong table by default
    assert [s.family for s in sc.judge("fast").strategies] == ["greedy"]
    assert sc.judge("fast").judged_by == "fast" and sc.judge().judged_by == "strong"
    assert sc.judge("fast").judges is None


def _abs(p):
    from pathlib import Path

    return str(Path(p).resolve())


def test_validate_names_the_judges():
    res = CliRunner().invoke(cli, ["validate", BASE])
    assert res.exit_code == 0, res.output
    assert "mirror seating, judges fast greedy, strong learned" in res.output


def test_judges_named_in_the_file(tmp_path):
    sc = load_scenario(_write(tmp_path, f"extends: {_abs('scenarios/base.yaml')}\njudges:\n"
                                        "  fast: patient\n"
                                        "  strong: {family: lookahead, iterations: 16}\n"))
    assert sc.judges["fast"].family == "patient"
    assert sc.judges["strong"].family == "lookahead"
    assert dict(sc.judges["strong"].params)["iterations"] == 16


def test_a_variant_naming_its_strategies_replaces_the_judges_it_extends(tmp_path):
    sc = load_scenario(_write(tmp_path, f"extends: {_abs(BASE)}\nstrategies: [patient]\n"))
    assert sc.judges is None and [s.family for s in sc.strategies] == ["patient"]
    assert sc.judge("fast") is sc  # its own table, whatever the role
    rot = load_scenario(_write(tmp_path, f"extends: {_abs(BASE)}\nseating: rotate\n"
                                         "strategies: [greedy, patient]\n", "r.yaml"))
    assert rot.judges is None


def test_a_variant_setting_only_the_seating_keeps_the_judges_it_extends(tmp_path):
    sc = load_scenario(_write(tmp_path, f"extends: {_abs(BASE)}\nseating: mirror\n"
                                        "players: 3\n"))
    assert {k: v.family for k, v in sc.judges.items()} == {"fast": "greedy",
                                                           "strong": "learned"}
    fast = sc.judge("fast")
    assert [s.family for s in fast.strategies] == ["greedy"] and fast.players == 3


@pytest.mark.parametrize("seating", ["rotate", "random"])
def test_a_variant_seating_mixed_tables_over_judges_is_refused_where_it_says_so(tmp_path,
                                                                              seating):
    """The judges' tables are mirror tables: a seating that mixes strategies does not apply
    to them, and is refused at the variant's own line rather than playing greedy instead."""
    path = _write(tmp_path, f"extends: {_abs(BASE)}\nname: v\nseating: {seating}\n")
    with pytest.raises(InputError) as e:
        load_scenario(path)
    err = e.value
    assert (err.file, err.line, err.key) == (str(path), 3, "seating")
    assert "judges" in str(err) and "base.yaml:12" in str(err)
    assert "seating 'mirror'" in str(err) and "`strategies:`" in str(err)
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 2 and f"{path}:3: seating: seating '{seating}'" in res.output
    # naming the table to seat is the way to mix strategies
    table = load_scenario(_write(tmp_path, f"extends: {_abs(BASE)}\nseating: {seating}\n"
                                           "strategies: [greedy, learned]\n", "t.yaml"))
    assert table.judges is None and table.seating == seating


def test_judges_over_an_inherited_mixed_seating_say_where_it_is_set(tmp_path):
    parent = _write(tmp_path, f"extends: {_abs(BASE)}\nseating: rotate\n"
                              "strategies: [greedy, patient]\n", "parent.yaml")
    child = _write(tmp_path, "extends: parent.yaml\njudges: {fast: greedy}\n", "child.yaml")
    with pytest.raises(InputError) as e:
        load_scenario(child)
    assert (e.value.file, e.value.line, e.value.key) == (str(child), 2, "judges")
    assert f"from {parent.resolve()}:2" in str(e.value)


def test_bad_judges_are_clear_errors(tmp_path):
    both = _write(tmp_path, f"extends: {_abs(BASE)}\nstrategies: [greedy]\n"
                            "judges: {fast: greedy}\n")
    assert "not both" in _problems(both) and "judges" in _problems(both)
    unknown = _write(tmp_path, f"extends: {_abs(BASE)}\njudges: {{fats: greedy}}\n", "u.yaml")
    text = _problems(unknown)
    assert "unknown key 'fats'" in text and "fast" in text and "u.yaml" in text
    listed = _write(tmp_path, f"extends: {_abs(BASE)}\njudges: {{strong: [greedy, patient]}}\n",
                    "l.yaml")
    assert "one strategy" in _problems(listed)
    family = _write(tmp_path, f"extends: {_abs(BASE)}\njudges: {{strong: grandmaster}}\n",
                    "f.yaml")
    assert "grandmaster" in _problems(family)
    seated = _write(tmp_path, "name: x\ncards: " + _abs("scenarios/cards/symposion.yaml")
                    + "\nseating: rotate\njudges: {fast: greedy}\n", "m.yaml")
    assert "mirror" in _problems(seated)


def test_bad_judges_exit_2_from_the_command_line(tmp_path):
    bad = _write(tmp_path, f"extends: {_abs(BASE)}\njudges: {{fast: 3}}\n")
    res = CliRunner().invoke(cli, ["run", str(bad), "--games", "10", "--out",
                                   str(tmp_path / "o")])
    assert res.exit_code == 2 and "judges.fast" in res.output
    own = _write(tmp_path, f"extends: {_abs(BASE)}\nstrategies: [greedy]\n", "own.yaml")
    res = CliRunner().invoke(cli, ["run", str(own), "--games", "10", "--judge", "fast",
                                   "--out", str(tmp_path / "o2")])
    assert res.exit_code == 2 and "no judges" in res.output


def test_one_judge_alone_goes_beside_the_judged_run(tmp_path, monkeypatch):
    scenario = _abs(BASE)
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["run", scenario, "--games", "40", "--jobs", "1",
                                   "--judge", "fast", "--no-report", "-q"])
    assert res.exit_code == 0, res.output
    run = json.loads((tmp_path / "reports" / "base-fast" / "run.json").read_text())
    assert run["judge"] == "fast" and not (tmp_path / "reports" / "base").exists()


def _part(sc) -> str:
    """Which part of a judged run of base.yaml plays ``sc``: a judge's table, a compensation
    check (the table with seat compensation), the skill games (the mixed, rotated table), or
    the strong table's check for better players (the previous generation's table)."""
    if sc.seating == "rotate":
        return "skill"
    s = sc.strategies[0]
    # the generation before the shipped model: the check of the strong verdicts
    role = "previous" if s.family == "learned" and s.get("generation") else \
        {"greedy": "fast", "learned": "strong"}[s.family]
    return f"{role} compensation" if sc.rules.seat_compensation else f"{role} table"


def _judged_run(tmp_path, monkeypatch, *flags):
    """A tiny judged run of base.yaml with compensation checks, ``flags`` added, in one
    process; its judges.json."""
    monkeypatch.delenv("SIMSYM_CACHE", raising=False)  # every chunk is played, none read
    res = CliRunner().invoke(cli, ["run", BASE, "--games", "8", "--jobs", "1", "--out",
                                   str(tmp_path / "o"), "--verify-compensation", "--no-report",
                                   "-q", *flags])
    assert res.exit_code == 0, res.output
    return json.loads((tmp_path / "o" / JUDGES_JSON).read_text())


def test_every_part_of_a_judged_run_plays_on_the_engine_asked_for(tmp_path, monkeypatch):
    from simsym.run import executor

    played = []
    real = executor.run_chunk_task

    def spy(sc, engine, search, *rest):  # one process (--jobs 1): chunks are played here
        played.append((_part(sc), engine, search))
        return real(sc, engine, search, *rest)

    monkeypatch.setattr(executor, "run_chunk_task", spy)
    _judged_run(tmp_path, monkeypatch, "--engine", "python", "--search", "numba")
    parts = {p for p, _, _ in played}
    assert parts == {"fast table", "strong table", "fast compensation", "strong compensation",
                     "skill", "previous table", "previous compensation"}
    assert {(engine, search) for _, engine, search in played} == {("python", "numba")}


def test_every_part_of_a_judged_run_plays_on_the_executor_asked_for(tmp_path, monkeypatch):
    """--executor dask with --scheduler: every part's chunks go to that cluster (here one of
    a worker thread in this process)."""
    from dask.distributed import LocalCluster

    from simsym.run import dask_executor

    sent = []
    real = dask_executor.run_on_dask

    def spy(args, todo, *rest, scheduler, **kw):
        sent.append((_part(args[0]), args[1], scheduler))
        return real(args, todo, *rest, scheduler=scheduler, **kw)

    monkeypatch.setattr(dask_executor, "run_on_dask", spy)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster:
        j = _judged_run(tmp_path, monkeypatch, "--executor", "dask", "--scheduler",
                        cluster.scheduler_address)
    assert {p for p, _, _ in sent} == {"fast table", "strong table", "fast compensation",
                                       "strong compensation", "skill", "previous table",
                                       "previous compensation"}
    assert {(e, s) for _, e, s in sent} == {("numba", cluster.scheduler_address)}
    assert j["skill"]["games"] == 8


def _card_frame(marks: dict) -> pd.DataFrame:
    """A card table as simsym.analysis.cards gives it: IWD, the table's verdict, and strength
    (IWD minus the table's average) with an interval of ±1 pp."""
    df = pd.DataFrame([{"card": c, "iwd": v, "verdict": {"+": "strong", "-": "weak"}.get(m, "")}
                       for c, (v, m) in marks.items()])
    df["strength"] = df["iwd"] - df["iwd"].mean()
    df["strength_lo"], df["strength_hi"] = df["strength"] - 0.01, df["strength"] + 0.01
    df["interval_only"] = False
    return df


def test_cards_are_flagged_only_where_both_tables_agree():
    fast = _card_frame({"A": (0.10, "+"), "B": (-0.10, "-"), "C": (0.08, "+"),
                        "D": (-0.05, "-"), "E": (0.0, "")})
    strong = _card_frame({"A": (0.12, "+"), "B": (-0.03, "-"), "C": (0.0, ""),
                          "D": (0.06, "+"), "E": (-0.04, "-")})
    agree, differ = _cards_text(fast, strong, {"fast": "greedy", "strong": "learned"})
    # against each table's average IWD: strong +2.2 pp, fast +0.6 pp
    assert ("strong: A +9.8 pp (+8.8 to +10.8) strong table, +9.4 pp (+8.4 to +10.4) fast."
            in agree)
    assert "Weak: B -5.2 pp (-6.2 to -4.2) strong table, -10.6 pp (-11.6 to -9.6) fast." \
        in agree
    assert ("The tables agree on 1 strong and 1 weak cards; the strong table alone finds 2 "
            "strong and 2 weak beyond noise, of 5 cards.") in agree
    assert "strong only for greedy players: C" in differ
    assert "weak for greedy players but strong for learned players: D" in differ
    assert "weak only for learned players: E" in differ
    assert "only for learned players: D" not in differ and "only for greedy players: D" \
        not in differ  # a card turned round is listed once, as such


@pytest.mark.slow
def test_run_plays_both_tables_on_the_same_deals(tmp_path):
    out = tmp_path / "both"
    res = CliRunner().invoke(cli, ["run", BASE, "--games", "600", "--jobs", "1", "--out",
                                   str(out), "--verify-compensation", "-q"])
    assert res.exit_code == 0, res.output
    j = json.loads((out / "judges.json").read_text())
    assert j["tables"]["fast"]["strategy"] == "greedy"
    assert j["tables"]["strong"]["strategy"] == "learned"
    # each table is the same run as that judge alone on the same deals
    for role, where in (("strong", out), ("fast", out / "fast")):
        alone = tmp_path / role
        res = CliRunner().invoke(cli, ["run", BASE, "--games", "600", "--jobs", "1", "--judge",
                                       role, "--out", str(alone), "-q", "--no-report"])
        assert res.exit_code == 0, res.output
        assert (alone / "summary.json").read_bytes() == (where / "summary.json").read_bytes()
        assert not (alone / "judges.json").exists()
    comp = j["compensation"]
    assert comp["strong"]["deals"] == "fresh"
    first = comp["strong_first"]  # the mean-score estimate, when a refined one is printed
    if first is None:
        assert comp["strong"]["seed"] == j["seed"] + 1
        assert comp["strong"]["estimate"] == "mean scores"
    else:
        assert first["seed"] == j["seed"] + 1 and first["estimate"] == "mean scores"
        assert comp["strong"]["seed"] == j["seed"] + 2  # deals that chose nothing
        assert comp["strong"]["estimate"] == "win shares"
        assert first["suggested"] != comp["strong"]["suggested"]
    assert comp["strong_under_fast"]["suggested"] == comp["strong"]["suggested"]
    # each table's compensation.json: judges.json's verification, and how the game played
    # on its fresh deals (the games of the verification: as many as the run's)
    for where, role in ((out, "strong"), (out / "fast", "fast")):
        doc = json.loads((where / "compensation.json").read_text())
        assert doc.pop("quality_after")["games"] == j["games"]
        assert doc == comp[role]
    assert j["skill"]["games"] == 600 and 0 < j["skill"]["win_rate"] < 1
    report = (out / "report.md").read_text()
    assert report.index("## Verdict") < report.index("## The strong table (learned) in detail")
    assert "fast/report.md" in report and (out / "fast" / "report.md").exists()
    assert (out / "judges-seats.png").exists()
    assert f"`{comp['strong']['suggested']}`" in report.split("## The strong table")[0]


def test_commands_play_the_strong_table_unless_asked(tmp_path):
    assert [s.family for s in resolve(BASE)[0].strategies] == ["learned"]
    assert [s.family for s in resolve(BASE, "fast")[0].strategies] == ["greedy"]
    res = CliRunner().invoke(cli, ["compare", "--help"])
    assert "--judge [strong|fast]" in res.output
    # a run directory is compared as the table it holds, unless --judge says otherwise
    run = tmp_path / "fast-run"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"scenario_file": BASE, "games": 7, "seed": 3,
                                             "judge": "fast"}))
    assert [s.family for s in resolve(str(run))[0].strategies] == ["greedy"]
    assert resolve(str(run))[1:] == (7, 3)
    assert [s.family for s in resolve(str(run), "strong")[0].strategies] == ["learned"]
    for cmd in ("sweep", "ablate", "tune"):
        assert "--judge" in CliRunner().invoke(cli, [cmd, "--help"]).output


def test_refined_compensation_follows_the_price_of_a_point():
    """Hand-worked: without compensation the seats win 40/30/20/10%; with [0, 2, 4, 6] they
    win 27/26/24/23%. Centred, the starting points moved by (-3, -1, 1, 3) and the win shares
    by (-13, -4, 4, 13) pp: a point is worth 0.86 / 20 = 4.3 pp. Each seat should move by
    (25% - its share) / 4.3 pp: -0.47, -0.23, +0.23, +0.47 points. Of the vectors rounded
    from that, [0, 2, 5, 7] (moved 0, 0, 1, 1: centred -0.5, -0.5, 0.5, 0.5) is predicted at
    24.85 / 23.85 / 26.15 / 25.15%, a spread of 2.3 pp; [0, 2, 4, 7] gives 3.0 pp, [0, 3, 5,
    7] 3.05 pp and [0, 2, 4, 6] itself 4 pp."""
    from simsym.analysis.seats import refine_compensation

    def summary(rates, comp):
        return {"rules": {"seat_compensation": comp},
                "seats": [{"seat": i, "win_rate": r} for i, r in enumerate(rates)]}

    before = summary([0.40, 0.30, 0.20, 0.10], [])
    assert refine_compensation(before, summary([0.27, 0.26, 0.24, 0.23], [0, 2, 4, 6])) \
        == [0, 2, 5, 7]
    # a compensation that moved nothing gives no price of a point: it is kept
    assert refine_compensation(before, summary([0.40, 0.30, 0.20, 0.10], [0, 0, 0, 0])) \
        == [0, 0, 0, 0]
