"""`simsym compare-tree` on two small trees made here, gates in percentage points, and the
workflow that calls it, linted with actionlint."""

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from simsym.cli.main import main
from simsym.studies.compare import Comparison, check_fail_on, parse_fail_on
from simsym.errors import SimsymError
from simsym.model.scenario import REPO_ROOT

SCENARIOS = REPO_ROOT / "scenarios"
WORKFLOW = REPO_ROOT / ".github" / "workflows" / "balance.yml"


def tree(root: Path, nerf: str = "4I; IO", plato: str | None = None) -> Path:
    """A checkout's scenarios/: base, plato-nerf (Plato as ``nerf``), the python-strategy
    variant, and the card file (with Plato as ``plato`` when given)."""
    (root / "scenarios" / "cards").mkdir(parents=True)
    cards = (SCENARIOS / "cards" / "symposion.yaml").read_text()
    if plato is not None:
        import re

        cards, n = re.subn(r'(?m)^(\s*Plato:\s*).*$', lambda m: f'{m[1]}"{plato}"', cards)
        assert n == 1
    (root / "scenarios" / "cards" / "symposion.yaml").write_text(cards)
    shutil.copy(SCENARIOS / "base.yaml", root / "scenarios" / "base.yaml")
    (root / "scenarios" / "plato-nerf.yaml").write_text(
        f'extends: base.yaml\nname: plato-nerf\ncards:\n  overrides:\n    Plato: "{nerf}"\n')
    for f in ("python-strategy.yaml",):
        shutil.copy(SCENARIOS / f, root / "scenarios" / f)
    if (SCENARIOS / "strategies").is_dir():
        shutil.copytree(SCENARIOS / "strategies", root / "scenarios" / "strategies")
    return root


def compare_tree(old, new, out, *extra):
    return CliRunner().invoke(main, ["compare-tree", str(old), "--new", str(new), "--games",
                                     "200", "--jobs", "1", "--out", str(out), "-q", *extra])


def test_only_the_changed_scenario_is_compared(tmp_path):
    old = tree(tmp_path / "old")
    new = tree(tmp_path / "new", nerf="3I; IO")
    (new / "scenarios" / "players-3.yaml").write_text("extends: base.yaml\nname: p3\n"
                                                      "players: 3\n")
    out = tmp_path / "out"
    r = compare_tree(old, new, out)
    assert r.exit_code == 0, r.output
    summary = (out / "summary.md").read_text()
    assert "### plato-nerf" in summary and "### base" not in summary
    assert "base (unchanged)" in summary and "p3" not in summary
    assert "players-3 (new scenario (nothing to compare with))" in summary
    assert "python-strategy (strategies written in Python" in summary
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["plato-nerf"]
    md = (out / "plato-nerf" / "compare.md").read_text()
    assert "200 games each" in md and "# Compare: A = plato-nerf, B = plato-nerf" in md
    # Plato changed from 4I to 3I: the verdict of that comparison is the one gathered.
    verdict = md.split("## Verdict\n\n")[1].split("\n\n## ")[0]
    assert verdict in summary


def test_a_card_file_change_reaches_every_scenario_that_uses_it(tmp_path):
    old = tree(tmp_path / "old")
    new = tree(tmp_path / "new", plato="6I; IO")
    r = compare_tree(old, new, tmp_path / "out")
    assert r.exit_code == 0, r.output
    summary = (tmp_path / "out" / "summary.md").read_text()
    # base sees the new Plato; plato-nerf overrides Plato, so its games are unchanged.
    assert "### base" in summary and "### plato-nerf" not in summary
    assert "plato-nerf (unchanged)" in summary


def test_identical_trees_compare_nothing_and_say_so(tmp_path):
    r = compare_tree(tree(tmp_path / "old"), tree(tmp_path / "new"), tmp_path / "out")
    assert r.exit_code == 0, r.output
    assert "No scenario's games changed." in (tmp_path / "out" / "summary.md").read_text()


def test_a_gate_crossed_in_a_changed_scenario_exits_3(tmp_path):
    old = tree(tmp_path / "old")
    new = tree(tmp_path / "new", nerf="3I; IO")
    r = compare_tree(old, new, tmp_path / "out", "--fail-on", "seat-gap>0pp")
    assert r.exit_code == 3, r.output
    assert "plato-nerf: seat-gap>0pp (value" in r.output
    assert "**FAILED** `--fail-on seat-gap>0pp" in (tmp_path / "out" / "summary.md").read_text()


def judged_tree(root: Path, plato: str = "4I; IO") -> Path:
    """A checkout whose base is judged by two tables (greedy fast, learned strong), written
    here so the test does not depend on what scenarios/base.yaml names."""
    import re

    (root / "scenarios" / "cards").mkdir(parents=True)
    cards = (SCENARIOS / "cards" / "symposion.yaml").read_text()
    cards, n = re.subn(r'(?m)^(\s*Plato:\s*).*$', lambda m: f'{m[1]}"{plato}"', cards)
    assert n == 1
    (root / "scenarios" / "cards" / "symposion.yaml").write_text(cards)
    (root / "scenarios" / "base.yaml").write_text(
        "name: base\ncards: cards/symposion.yaml\nplayers: 4\nseating: mirror\n"
        "judges: {fast: greedy, strong: learned}\ngames: 100000\nseed: 20261130\n")
    (root / "scenarios" / "greedy.yaml").write_text(
        "extends: base.yaml\nname: greedy\nstrategies: [greedy]\n")
    return root


def seats_table(md: str) -> str:
    return md.split("## Seats\n\n")[1].split("\n\n")[0]


@pytest.mark.parametrize("judge", [None, "fast"])
def test_a_judged_scenario_is_compared_as_the_judge_named_on_the_same_deals(tmp_path, judge):
    """--judge strong (the default) or fast: both sides of a judged scenario play that
    judge's table, on the deals `simsym compare --judge` plays, and summary.md says which
    table judged; a scenario with its own `strategies:` plays them whatever --judge says."""
    from simsym.studies.compare import compare, verdict

    old, new = judged_tree(tmp_path / "old"), judged_tree(tmp_path / "new", plato="6I; IO")
    out = tmp_path / "out"
    r = compare_tree(old, new, out, *(["--judge", judge] if judge else []))
    assert r.exit_code == 0, r.output
    role, table = ("fast", "greedy") if judge else ("strong", "learned")
    summary = (out / "summary.md").read_text()
    assert f"a scenario with `judges:` as its {role} judge's table (`--judge {role}`)" \
        in summary
    base = summary.split("### base\n")[1].split("###")[0]
    assert f"- Table: the {role} judge's table ({table})" in base
    assert "- Table: its own table (greedy)" in summary.split("### greedy\n")[1]
    # the same games as `simsym compare --judge ROLE` of the two files
    c = compare(str(old / "scenarios" / "base.yaml"), str(new / "scenarios" / "base.yaml"),
                games=200, jobs=1, judge=role)
    assert "\n".join(verdict(c, [])) in base
    md = (out / "base" / "compare.md").read_text()
    direct = CliRunner().invoke(main, ["compare", str(old / "scenarios" / "base.yaml"),
                                       str(new / "scenarios" / "base.yaml"), "--games", "200",
                                       "--jobs", "1", "--judge", role, "-q", "--out",
                                       str(tmp_path / "direct")])
    assert direct.exit_code == 0, direct.output
    assert seats_table(md) == seats_table((tmp_path / "direct" / "compare.md").read_text())


def test_the_two_judges_tables_give_two_comparisons(tmp_path):
    old, new = judged_tree(tmp_path / "old"), judged_tree(tmp_path / "new", plato="6I; IO")
    for role in ("strong", "fast"):
        assert compare_tree(old, new, tmp_path / role, "--judge", role).exit_code == 0
    strong, fast = (seats_table((tmp_path / role / "base" / "compare.md").read_text())
                    for role in ("strong", "fast"))
    assert strong != fast
    # the scenario naming its own table plays the same games under either --judge
    assert (seats_table((tmp_path / "strong" / "greedy" / "compare.md").read_text())
            == seats_table((tmp_path / "fast" / "greedy" / "compare.md").read_text()))


def test_only_compares_the_scenarios_named(tmp_path):
    old = tree(tmp_path / "old")
    new = tree(tmp_path / "new", nerf="3I; IO", plato="6I; IO")  # base and plato-nerf change
    r = compare_tree(old, new, tmp_path / "out", "--only", "plato-nerf")
    assert r.exit_code == 0, r.output
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert "### plato-nerf" in summary and "base" not in summary.split("###")[-1]
    assert "### base" not in summary and "python-strategy" not in summary
    r = compare_tree(old, new, tmp_path / "both", "--only", "base, plato-nerf")
    summary = (tmp_path / "both" / "summary.md").read_text()
    assert "### base" in summary and "### plato-nerf" in summary
    r = compare_tree(old, new, tmp_path / "bad", "--only", "plato-nerv")
    assert r.exit_code == 2 and "--only plato-nerv: no such scenario" in r.output
    assert "allowed: base, plato-nerf, python-strategy" in r.output


# --- --fail-on in percentage points -----------------------------------------------------

def test_fail_on_takes_pp_and_fractions_and_refuses_a_bare_number_above_one():
    assert parse_fail_on(["card-change>2pp"]) == [("card-change", ">", 0.02)]
    assert parse_fail_on(["card-change > 0.02"]) == [("card-change", ">", 0.02)]
    assert parse_fail_on(["seat-gap>=0.5pp"]) == [("seat-gap", ">=", 0.005)]
    with pytest.raises(SimsymError, match=r"could never be crossed; .* write card-change>2pp"):
        parse_fail_on(["card-change>2"])
    r = CliRunner().invoke(main, ["compare", "a.yaml", "b.yaml", "--fail-on", "card-change>2"])
    assert r.exit_code == 2 and "card-change>2pp" in r.output and "Traceback" not in r.output


def comparison(card_diff: float, beyond: bool) -> Comparison:
    cards = pd.DataFrame({"metric": ["strength"], "name": ["Plato"], "diff": [card_diff],
                          "beyond_noise": [beyond]})
    gap = pd.DataFrame({"A": [0.04], "B": [0.03], "diff": [-0.01]})
    seats = pd.DataFrame({"metric": ["win_rate"], "diff": [0.0], "beyond_noise": [False]})
    return Comparison("a", "b", 100, 1, seats, gap, cards)


def test_a_card_moving_5_7_points_crosses_a_2pp_gate():
    """A card whose strength rose 5.7 points once passed `card-change>2` as a fraction."""
    c = comparison(0.057, True)
    assert check_fail_on(c, parse_fail_on(["card-change>2pp"])) == [
        "card-change>2pp (value 5.70 pp)"]
    assert check_fail_on(c, parse_fail_on(["card-change>6pp"])) == []
    assert check_fail_on(comparison(0.057, False), parse_fail_on(["card-change>2pp"])) == []
    assert check_fail_on(c, parse_fail_on(["seat-gap>2.5pp"])) == [
        "seat-gap>2.5pp (value 3.00 pp)"]


# --- the workflow ------------------------------------------------------------------------

def test_the_workflow_passes_actionlint_and_calls_compare_tree():
    actionlint = shutil.which("actionlint", path=str(Path(sys.executable).parent)) \
        or shutil.which("actionlint")
    assert actionlint, "actionlint is a test dependency (pyproject.toml [test])"
    workflows = sorted(WORKFLOW.parent.glob("*.yml"))
    assert WORKFLOW in workflows and len(workflows) > 1
    r = subprocess.run([actionlint, "-no-color", *map(str, workflows)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    text = WORKFLOW.read_text()
    assert "simsym compare-tree" in text and 'seat-gap-change>5pp' in text
    assert "for f in" not in text  # the logic lives in the product, tested above


def test_numba_has_a_tested_range_and_a_job_tries_the_newest_release():
    """pyproject.toml bounds numba to the releases tested (the kernels use options numba does
    not document); the installed numba is inside it, and a workflow runs the suite against
    the newest release with the range set aside."""
    import tomllib
    from importlib.metadata import version

    from packaging.requirements import Requirement

    deps = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    numba = next(Requirement(d) for d in deps if Requirement(d).name == "numba")
    assert any(s.operator == "<" for s in numba.specifier)  # an upper bound
    assert numba.specifier.contains(version("numba"))
    job = (WORKFLOW.parent / "numba-newest.yml").read_text()
    assert "pip install --upgrade --pre numba llvmlite" in job and "make test" in job
    assert job.index("pip install --upgrade --pre numba") < job.index("make test")
