"""Reports made again only when their inputs changed (simsym/cli/report_inputs.py): every report
command records inputs.json where `check` looks for it; unchanged inputs are current, and an
edit of the card file, of a scenario (or the file it extends), a flag or the game code makes
the report stale; `make report-changed` runs only the stale ones; the balance workflow's plan
and the workflow itself."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from simsym.cli import report_inputs as ri
from simsym.cli.main import main
from simsym.model.scenario import REPO_ROOT

CARD_FILE = REPO_ROOT / "scenarios" / "cards" / "symposion.yaml"
WORKFLOW = REPO_ROOT / ".github" / "workflows" / "balance.yml"
BASE = "name: base\ncards: cards/symposion.yaml\nplayers: 4\nstrategies: [greedy]\n" \
       "games: 40\nseed: 7\n"
NERF = 'extends: base.yaml\nname: nerf\ncards:\n  overrides:\n    Plato: "3I; IO"\n'
SWEEP = ('extends: base.yaml\nname: plato\ngames: 20\nsweep:\n  card: Plato\n'
         '  values: ["3I; IO", "5I; IO"]\n')


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A checkout of its own: scenarios/ with the card file, a base of 40 greedy games and a
    variant; the current directory, as under make."""
    (tmp_path / "scenarios" / "cards").mkdir(parents=True)
    shutil.copy(CARD_FILE, tmp_path / "scenarios" / "cards" / "symposion.yaml")
    (tmp_path / "scenarios" / "base.yaml").write_text(BASE)
    (tmp_path / "scenarios" / "nerf.yaml").write_text(NERF)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r


def edit_card(root: Path, name: str, text: str):
    import re

    path = root / "scenarios" / "cards" / "symposion.yaml"
    body, n = re.subn(rf'(?m)^(\s*{re.escape(name)}:\s*).*$', lambda m: f'{m[1]}"{text}"',
                      path.read_text())
    assert n == 1
    path.write_text(body)


RUN = "run scenarios/nerf.yaml -q --force --jobs 1 --no-report"


def test_a_run_records_its_inputs_and_stays_current_until_one_changes(work, monkeypatch):
    cli(*RUN.split())
    doc = json.loads((work / "reports" / "nerf" / "inputs.json").read_text())
    assert doc["command"] == "run" and set(doc["files"]) == {
        "scenarios/nerf.yaml", "scenarios/base.yaml", "scenarios/cards/symposion.yaml"}
    assert doc["flags"]["report"] is False and "jobs" not in doc["flags"]
    c = ri.check(RUN)
    assert c.current and c.out == Path("reports/nerf") and c.reason == "inputs unchanged"
    # how it runs is not an input
    assert ri.check("run scenarios/nerf.yaml --no-report --jobs 2 --chunk-size 7").current
    # a flag that decides the results is
    c = ri.check(RUN + " --games 50")
    assert not c.current and c.reason == "flags changed: games None -> 50"

    # a card of the card file: stale, and current again once the file is as it was
    text = (work / "scenarios" / "cards" / "symposion.yaml").read_text()
    edit_card(work, "Krater", "2H; HO")
    c = ri.check(RUN)
    assert not c.current and c.reason == "scenarios/cards/symposion.yaml changed"
    (work / "scenarios" / "cards" / "symposion.yaml").write_text(text)
    assert ri.check(RUN).current

    # the scenario, or the file it extends
    (work / "scenarios" / "nerf.yaml").write_text(NERF.replace("3I", "2I"))
    assert ri.check(RUN).reason == "scenarios/nerf.yaml changed"
    (work / "scenarios" / "nerf.yaml").write_text(NERF)
    (work / "scenarios" / "base.yaml").write_text(BASE.replace("seed: 7", "seed: 8"))
    assert ri.check(RUN).reason == "scenarios/base.yaml changed"
    (work / "scenarios" / "base.yaml").write_text(BASE)
    assert ri.check(RUN).current

    # the game code (simsym/run/cache.py's hash of the files that play games)
    from simsym.run import cache

    monkeypatch.setattr(cache, "code_hash", lambda: "0" * 64)
    c = ri.check(RUN)
    assert not c.current and c.reason == "the game code changed"


def test_a_report_without_inputs_or_without_its_results_is_stale(work):
    c = ri.check(RUN)
    assert not c.current and c.reason == "no report in reports/nerf/ yet"
    cli(*RUN.split())
    inputs = (work / "reports" / "nerf" / "inputs.json").read_bytes()
    (work / "reports" / "nerf" / "inputs.json").unlink()
    assert "made before its inputs were recorded" in ri.check(RUN).reason
    cli(*RUN.split())
    (work / "reports" / "nerf" / "summary.json").unlink()
    assert not ri.check(RUN).current
    # results written after the record (another run into the same directory) are not current
    cli(*RUN.split())
    cli("run", "scenarios/base.yaml", "--out", "reports/nerf", "-q", "--force", "--jobs", 1,
        "--no-report")
    (work / "reports" / "nerf" / "inputs.json").write_bytes(inputs)
    assert ri.check(RUN).reason == "reports/nerf/summary.json was written after its inputs " \
                                   "were recorded"


def test_the_files_of_a_scenario_include_its_strategies_files_and_models(work):
    (work / "scenarios" / "strategies").mkdir()
    shutil.copy(REPO_ROOT / "scenarios" / "strategies" / "examples.py",
                work / "scenarios" / "strategies" / "examples.py")
    (work / "scenarios" / "mixed.yaml").write_text(
        "extends: nerf.yaml\nname: mixed\nseating: rotate\nstrategies:\n  - learned\n"
        "  - {family: python, class: strategies/examples.py:Hoarder}\n")
    files = [ri.label(p) for p in ri.scenario_files("scenarios/mixed.yaml")]
    from simsym.learned.model import BASE_MODEL

    assert files == ["scenarios/mixed.yaml", "scenarios/nerf.yaml", "scenarios/base.yaml",
                     "scenarios/cards/symposion.yaml", ri.label(BASE_MODEL),
                     "scenarios/strategies/examples.py"]


def test_every_report_command_records_where_check_looks(work):
    """run (a judged scenario's one table alone too), sweep, ladder and tune: each writes
    inputs.json into the directory `check` finds from the same command line."""
    (work / "scenarios" / "plato.yaml").write_text(SWEEP)
    (work / "scenarios" / "judged.yaml").write_text(
        "extends: base.yaml\nname: judged\njudges: {fast: greedy, strong: learned}\n")
    (work / "scenarios" / "ladder.yaml").write_text(
        "extends: base.yaml\nname: two\ngames: 8\nladder:\n  strategies: [greedy, random]\n")
    (work / "scenarios" / "tune.yaml").write_text(
        "extends: base.yaml\nname: seats\ntune:\n  vary:\n    seat_compensation: [0, 3]\n"
        "  targets: {seat_spread: 2pp, change_penalty: 0}\n"
        "  budget: {trials: 2, games: 40, block: 20, seed: 1, finalists: 1, "
        "holdout_games: 40, lookahead_games: 0}\n")
    lines = {"sweep scenarios/plato.yaml -q --jobs 1": "reports/plato-sweep",
             "run scenarios/judged.yaml --judge fast -q --jobs 1 --no-report":
                 "reports/judged-fast",
             "ladder scenarios/ladder.yaml -q --jobs 1": "reports/two-ladder",
             "tune scenarios/tune.yaml -q --force --jobs 1": "reports/seats-tune"}
    for line, out in lines.items():
        cli(*line.split())
        assert (work / out / "inputs.json").is_file(), line
        c = ri.check(line)
        assert c.current and c.out == Path(out), (line, c)
    # a flag of the sweep is an input; --out is where check looks
    assert not ri.check("sweep scenarios/plato.yaml -q --games 30").current
    cli("sweep", "scenarios/plato.yaml", "-q", "--jobs", "1", "--out", "elsewhere")
    assert ri.check("sweep scenarios/plato.yaml --out elsewhere").current


def test_plan_puts_each_slow_scenario_in_a_job_of_its_own(work):
    (work / "scenarios" / "look.yaml").write_text(
        "extends: base.yaml\nname: look\nstrategies: [{family: lookahead, iterations: 4}]\n")
    (work / "scenarios" / "ladder.yaml").write_text(
        "extends: base.yaml\nname: two\nladder:\n  strategies: [greedy, random]\n")
    lines = ["run scenarios/base.yaml -q --force --verify-compensation",
             "run scenarios/nerf.yaml -q --force", "run scenarios/look.yaml -q --force",
             "ladder scenarios/ladder.yaml -q"]
    assert ri.slow("scenarios/look.yaml") and ri.slow("scenarios/ladder.yaml")
    assert not ri.slow("scenarios/nerf.yaml")
    groups = ri.plan(lines)
    assert groups == [
        {"group": "ladder", "reports": "scenarios/ladder.yaml", "compare": ""},
        {"group": "look", "reports": "scenarios/look.yaml", "compare": ""},
        {"group": "others", "reports": "scenarios/base.yaml scenarios/nerf.yaml",
         "compare": ""}]
    # a current report is left out, and a group with nothing to do
    cli("run", "scenarios/nerf.yaml", "-q", "--force", "--jobs", "1", "--no-report")
    assert ri.plan(["run scenarios/nerf.yaml -q --force --no-report"]) == []
    # a pull request: the scenarios whose games differ from the old tree's are compared
    old = work / "old"
    shutil.copytree(work / "scenarios", old / "scenarios")
    edit_card(work, "Krater", "2H; HO")
    groups = ri.plan(["run scenarios/nerf.yaml -q --force --no-report"], old_root=old)
    assert groups == [
        {"group": "ladder", "reports": "", "compare": "ladder"},
        {"group": "look", "reports": "", "compare": "look"},
        {"group": "others", "reports": "scenarios/nerf.yaml", "compare": "base nerf"}]
    # without the search tables (the workflow's default): the lookahead table waits for the
    # schedule or a label, the ladder without one stays
    assert ri.searches("scenarios/look.yaml") and not ri.searches("scenarios/ladder.yaml")
    later = []
    groups = ri.plan(["run scenarios/look.yaml -q --force", "run scenarios/nerf.yaml -q"],
                     old_root=old, search=False, deferred=later)
    assert groups == [
        {"group": "ladder", "reports": "", "compare": "ladder"},
        {"group": "others", "reports": "scenarios/nerf.yaml", "compare": "base nerf"}]
    assert later == ["look"]


def test_the_module_s_command_line(work, tmp_path, capsys):
    """`check` exits 0 for a current report and 1 for a stale one; `run` runs the stale
    lines only, and a line it cannot check is run, so the command says what is wrong."""
    log = tmp_path / "ran.log"
    fake = tmp_path / "simsym"
    fake.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexit 2\n')
    fake.chmod(0o755)
    cli(*RUN.split())
    assert ri.main(["check", *RUN.split()]) == 0
    assert ri.main(["check", *RUN.split(), "--games", "9"]) == 1
    assert "stale, flags changed: games None -> 9" in capsys.readouterr().err
    assert ri._run_stale(str(fake), [RUN, ""]) == 0 and not log.exists()
    assert ri._run_stale(str(fake), ["run scenarios/missing.yaml -q"]) == 2
    assert log.read_text() == "run scenarios/missing.yaml -q\n"
    assert ri.main(["nope"]) == 2


# --- make report-changed --------------------------------------------------------------------

def _bin(tmp_path: Path) -> Path:
    """python and a simsym that logs its arguments, both this interpreter's."""
    d = tmp_path / "bin"
    d.mkdir()
    (d / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (d / "simsym").write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "calls.log"}\n'
                              f'exec "{sys.executable}" -m simsym.cli.main "$@"\n')
    for f in d.iterdir():
        f.chmod(0o755)
    return d


def _make(work: Path, bin_dir: Path, *args):
    env = {k: v for k, v in os.environ.items()
           if k not in ("REPORTS", "REPORT_FLAGS", "PLAN", "OLD", "MAKEFLAGS", "MFLAGS")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep)
    r = subprocess.run(["make", "-s", "-f", str(REPO_ROOT / "Makefile"), "-C", str(work),
                        "report-changed", f"BIN={bin_dir}", "STAMP=",
                        "REPORT_FLAGS=-q --force --jobs 1 --no-report", *args], env=env,
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    log = work.parent / "calls.log"
    calls = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return r.stdout, sorted(c.split()[1] for c in calls)


def test_make_report_changed_runs_only_the_reports_whose_inputs_changed(tmp_path):
    work = tmp_path / "work"
    (work / "scenarios" / "cards").mkdir(parents=True)
    shutil.copy(CARD_FILE, work / "scenarios" / "cards" / "symposion.yaml")
    (work / "scenarios" / "base.yaml").write_text(BASE)
    (work / "scenarios" / "nerf.yaml").write_text(NERF)
    (work / "scenarios" / "plato.yaml").write_text(SWEEP)
    bin_dir = _bin(tmp_path)
    everything = ["scenarios/base.yaml", "scenarios/nerf.yaml", "scenarios/plato.yaml"]

    out, calls = _make(work, bin_dir)
    assert calls == everything and "== nerf (no report in reports/nerf/ yet)" in out
    for d in ("base", "nerf", "plato-sweep"):
        assert (work / "reports" / d / "inputs.json").is_file()
    # nothing changed: nothing runs
    out, calls = _make(work, bin_dir)
    assert calls == [] and out.count("skipped, inputs unchanged") == 3
    # a card every scenario reads
    edit_card(work, "Krater", "2H; HO")
    out, calls = _make(work, bin_dir)
    assert calls == everything
    assert "== base (scenarios/cards/symposion.yaml changed)" in out
    # one scenario
    (work / "scenarios" / "nerf.yaml").write_text(NERF.replace("3I", "2I"))
    assert _make(work, bin_dir)[1] == ["scenarios/nerf.yaml"]
    # REPORTS picks the files; PLAN=1 prints the workflow's jobs instead of running
    (work / "scenarios" / "nerf.yaml").write_text(NERF)
    out, calls = _make(work, bin_dir, "PLAN=1", "REPORTS=scenarios/nerf.yaml scenarios/base.yaml")
    assert calls == []
    lines = dict(line.split("=", 1) for line in out.splitlines())
    assert json.loads(lines["groups"]) == [
        {"group": "others", "reports": "scenarios/nerf.yaml", "compare": ""}]
    from simsym.run.cache import code_hash

    assert lines["code"] == code_hash()


# --- the workflow --------------------------------------------------------------------------

def test_the_workflow_regenerates_only_stale_reports_and_keeps_the_chunk_cache():
    wf = yaml.safe_load(WORKFLOW.read_text())
    jobs = wf["jobs"]
    assert all(j["timeout-minutes"] <= 120 for j in jobs.values())
    plan = " ".join(s.get("run", "") for s in jobs["plan"]["steps"])
    assert "make -s report-changed PLAN=1" in plan
    reports = jobs["reports"]
    assert reports["strategy"]["matrix"]["include"] == \
        "${{ fromJSON(needs.plan.outputs.groups) }}"
    steps = reports["steps"]
    runs = " ".join(s.get("run", "") for s in steps)
    assert 'make report-changed REPORTS="$REPORTS"' in runs
    assert "make report\n" not in runs and "make report " not in runs
    assert "compare-tree /tmp/base-branch --games 20000" in runs and '--only "$ONLY"' in runs
    assert reports["env"]["SIMSYM_CACHE"] == "${{ github.workspace }}/.cache/chunks"
    (chunks,) = [s for s in steps if s.get("with", {}).get("path") == ".cache/chunks"]
    code = "chunks-${{ needs.plan.outputs.code }}-"
    assert chunks["with"]["key"].startswith(code + "${{ matrix.group }}-")
    assert chunks["with"]["restore-keys"].splitlines() == [code + "${{ matrix.group }}-", code]
    # the tests and the reports run side by side
    assert "needs" not in jobs["tests"] and reports["needs"] == "plan"
