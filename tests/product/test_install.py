"""simsym where the designer works: a real install, outputs beside the user, and
committed reports that the documented commands reproduce.

- The packaged scenarios: ``simsym:NAME`` loads the same game as the checkout's file; a wrong
  name is one line listing the allowed names, exit 2.
- ``simsym init``: a workspace whose card file is the game's; no file overwritten unless --force.
- Default outputs in ``./reports/<name>/`` of the current directory, for every command.
- ``make run`` and ``make report`` regenerate ``reports/base/`` byte for byte but for the
  fields of run.json that describe when, how fast and on what machine it ran (slow).
- The wheel: built, installed into a fresh virtual environment, and used from an unrelated
  directory, its scenarios read from the package alone (slow).
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from simsym.model import packaged
from simsym.cli.main import main
from simsym.model.scenario import REPO_ROOT, load_scenario

SCENARIOS = REPO_ROOT / "scenarios"
# run.json fields that say when, how fast and on what machine a run ran, not what it found
# (jobs defaults to the machine's cores, the chunk size follows it; results do not depend
# on either: tests/product/test_cli_run.py). Everything else of reports/base/ must match byte
# for byte.
RUN_CIRCUMSTANCES = ("wall_seconds", "compile_seconds", "games_per_second", "started", "jobs",
                     "chunk_size", "machine", "versions")


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def same_game(a, b):
    """What decides the games: the deck, the rules, the table and the run."""
    return (list(a.cards.cards) == list(b.cards.cards) and a.rules == b.rules
            and (a.players, a.seating, a.games, a.seed) == (b.players, b.seating, b.games,
                                                            b.seed)
            and a.strategies == b.strategies and a.ladder == b.ladder and a.sweep == b.sweep)


def shipped_files(root: Path) -> dict[str, bytes]:
    """The files of scenarios/ that the wheel must carry, relative path -> bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".yaml", ".py")}


# --- packaged scenarios -------------------------------------------------------------------

def test_packaged_names_are_the_scenario_files():
    assert packaged.data_dir() == SCENARIOS  # a checkout reads its own scenarios/
    assert packaged.names() == sorted(p.stem for p in SCENARIOS.glob("*.yaml"))
    assert "base" in packaged.names()


@pytest.mark.parametrize("name", packaged.names())
def test_simsym_name_loads_the_same_game_as_the_path(name):
    by_name = load_scenario(f"simsym:{name}")
    by_path = load_scenario(SCENARIOS / f"{name}.yaml")
    assert same_game(by_name, by_path) and by_name.name == by_path.name
    assert by_name.path == f"simsym:{name}"  # portable in run.json and reports


def test_extends_simsym_base_as_well_as_a_path(tmp_path):
    (tmp_path / "by-name.yaml").write_text("extends: simsym:base\nplayers: 3\n")
    (tmp_path / "by-path.yaml").write_text(f"extends: {SCENARIOS / 'base.yaml'}\nplayers: 3\n")
    a, b = load_scenario(tmp_path / "by-name.yaml"), load_scenario(tmp_path / "by-path.yaml")
    assert same_game(a, b) and a.players == 3 and len(a.cards) == 75


def test_unknown_simsym_name_lists_the_allowed_names(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nextends: simsym:bse\n")
    r = cli("validate", bad)
    assert r.exit_code == 2
    line = r.output.splitlines()[0]
    assert line.startswith(f"{bad}:2: extends: no packaged scenario 'simsym:bse'")
    assert "did you mean 'simsym:base'" in line
    assert line.endswith("allowed: " + ", ".join(f"simsym:{n}" for n in packaged.names()))
    r = cli("run", "simsym:nope", "--games", "10")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.startswith("simsym: error: no packaged scenario 'simsym:nope'; allowed: "
                               "simsym:base, ")


# --- simsym init --------------------------------------------------------------------------

def test_init_writes_a_workspace_whose_card_file_is_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("init", "my-game")
    assert r.exit_code == 0, r.output
    ws = tmp_path / "my-game"
    assert sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if p.is_file()) == [
        "README.md", "cards/symposion.yaml", "game.yaml"]
    assert "simsym run game.yaml" in (ws / "README.md").read_text()
    cards = ws / "cards" / "symposion.yaml"
    assert cards.read_bytes() == (SCENARIOS / "cards" / "symposion.yaml").read_bytes()
    mine, base = load_scenario(ws / "game.yaml"), load_scenario("simsym:base")
    assert mine.name == "my-game"
    assert same_game(mine, base)  # the copy plays the base game until edited
    assert mine.cards.source == str(ws / "cards" / "symposion.yaml")
    # Editing the copy changes the game (and only the copy: the packaged deck is untouched).
    text = cards.read_text()
    assert text.count('Plato: "5I; IO"') == 1
    cards.write_text(text.replace('Plato: "5I; IO"', 'Plato: "4I; IO"'))
    edited = load_scenario(ws / "game.yaml")
    assert edited.cards[edited.cards.index("Plato")].text == "4I; IO"
    assert not same_game(edited, base)
    assert base.cards[base.cards.index("Plato")].text == "5I; IO"
    assert load_scenario("simsym:base").cards.cards == base.cards.cards


def test_init_notebook_adds_the_example_notebook(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("init", "my-game", "--notebook")
    assert r.exit_code == 0, r.output
    ws = tmp_path / "my-game"
    assert sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if p.is_file()) == [
        "README.md", "cards/symposion.yaml", "game.yaml", "notebook.ipynb"]
    assert f"wrote {Path('my-game') / 'notebook.ipynb'}" in r.output
    assert (ws / "notebook.ipynb").read_bytes() == (REPO_ROOT / "docs" /
                                                    "notebook.ipynb").read_bytes()
    readme = (ws / "README.md").read_text()
    assert "- `notebook.ipynb`: the notebook API" in readme
    assert 'ss.scenario("game.yaml")' in readme
    r = cli("init", "my-game", "--notebook")
    assert r.exit_code == 2 and f"{Path('my-game') / 'notebook.ipynb'}; allowed" in r.output


def test_the_workspace_names_the_docs_by_the_command_that_shows_them(tmp_path):
    """The workspace's README and scenario cite the docs as `simsym docs TOPIC` (a
    workspace has no docs/ beside it); without --notebook the README says how to get it."""
    ws = tmp_path / "ws"
    assert cli("init", ws).exit_code == 0
    readme, scenario = (ws / "README.md").read_text(), (ws / "game.yaml").read_text()
    assert "docs/" not in readme + scenario
    assert "simsym docs guide" in readme and "`simsym docs` lists them" in readme
    assert "every key: `simsym docs scenarios`" in scenario
    assert "`simsym docs notebook`" in readme
    assert '`cp "$(simsym docs --path notebook)" .`' in readme
    assert not (ws / "notebook.ipynb").exists()


def test_init_refuses_to_overwrite_without_force(tmp_path):
    ws = tmp_path / "ws"
    assert cli("init", ws).exit_code == 0
    cards = ws / "cards" / "symposion.yaml"
    cards.write_text(cards.read_text().replace('"5I; IO"', '"6I; IO"'))
    edited = cards.read_text()
    r = cli("init", ws)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip() == (f"simsym: error: {ws}: would overwrite {ws / 'game.yaml'}, "
                                f"{cards}, {ws / 'README.md'}; allowed: a directory without "
                                "them, or --force to overwrite")
    assert cards.read_text() == edited  # nothing written
    r = cli("init", ws, "--force")
    assert r.exit_code == 0, r.output
    assert cards.read_bytes() == (SCENARIOS / "cards" / "symposion.yaml").read_bytes()
    (tmp_path / "file").write_text("")
    r = cli("init", tmp_path / "file")
    assert r.exit_code == 2 and "Traceback" not in r.output


# --- default output directories -----------------------------------------------------------

def test_default_outputs_land_under_the_current_directory(tmp_path, monkeypatch):
    """Every command that writes, run with no --out from an unrelated folder, writes into its
    ./reports/ and says where; nothing goes into the checkout."""
    before = sorted(p.name for p in (REPO_ROOT / "reports").iterdir())
    old = tmp_path / "old"
    shutil.copytree(SCENARIOS, old / "scenarios")
    (tmp_path / "scenarios").mkdir()
    nerf = (SCENARIOS / "plato-nerf.yaml").read_text().replace('"4I; IO"', '"3I; IO"')
    (tmp_path / "scenarios" / "plato-nerf.yaml").write_text(
        nerf.replace("extends: base.yaml", "extends: simsym:base"))
    monkeypatch.chdir(tmp_path)
    few = ("--games", "20", "--jobs", "1")
    commands = {
        "base/report.md": ("run", "simsym:base", *few),
        "compare-base-vs-plato-nerf/compare.md": ("compare", "simsym:base",
                                                  "simsym:plato-nerf", *few),
        "base-ablation/ablation.md": ("ablate", "simsym:base", "--cards", "Plato",
                                       "--games", "4", "--jobs", "1"),
        "plato-sweep-sweep/sweep.md": ("sweep", "simsym:plato-sweep", *few),
        "strategies-ladder/ladder.md": ("ladder", "simsym:ladder", "--games", "4", "--jobs",
                                        "1"),
        "compare/summary.md": ("compare-tree", old, *few),
    }
    for output, args in commands.items():
        r = cli(*args)
        assert r.exit_code in (0, 3), (args, r.output)
        path = Path("reports") / output
        assert path.is_file(), (args, sorted(map(str, Path("reports").rglob("*"))))
        assert f"wrote reports/{output.split('/')[0]}/" in r.output, (args, r.output)
    assert sorted(p.name for p in (REPO_ROOT / "reports").iterdir()) == before
    # The report's command to rebuild it names the packaged scenario and the relative --out.
    assert ("simsym run simsym:base --games 20 --seed 20261130 --out reports/base"
            in Path("reports/base/report.md").read_text())


# --- the committed base report ------------------------------------------------------------

def _make(target, cwd, bin_dir, **variables):
    """The Makefile's ``target`` run in ``cwd``, its simsym taken from ``bin_dir``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("SCENARIO", "REPORT_FLAGS", "BASE_FLAGS", "MAKEFLAGS", "MFLAGS")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep)
    args = [f"{k}={v}" for k, v in {"BIN": bin_dir, "STAMP": "", **variables}.items()]
    return subprocess.run(["make", "-s", "-f", str(REPO_ROOT / "Makefile"), "-C", str(cwd),
                           target, *args], env=env, capture_output=True, text=True,
                          timeout=3600)


def _fake_bin(path: Path, body: str) -> Path:
    path.mkdir()
    exe = path / "simsym"
    exe.write_text("#!/bin/sh\n" + body)
    exe.chmod(0o755)
    return path


def _checkout_copy(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    shutil.copytree(SCENARIOS, work / "scenarios",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return work


def test_make_report_runs_the_base_game_as_make_run_does(tmp_path):
    """The report loop of every scenario, its commands recorded instead of run: the base
    game gets `make run`'s flags, plus only -q (terminal) and --force."""
    work = _checkout_copy(tmp_path)
    log = tmp_path / "argv.log"
    bin_dir = _fake_bin(tmp_path / "bin", f'echo "$*" >> {log}\n')
    assert _make("run", work, bin_dir).returncode == 0
    run_args = log.read_text().split()
    log.unlink()
    r = _make("report", work, bin_dir)
    assert r.returncode == 0, r.stderr
    calls = [line.split() for line in log.read_text().splitlines()]
    base = [c for c in calls if "scenarios/base.yaml" in c]
    assert len(base) == 1
    assert run_args[:2] == ["run", "scenarios/base.yaml"]
    assert sorted(base[0]) == sorted(run_args + ["-q", "--force"])


@pytest.mark.slow
def test_make_run_regenerates_the_committed_base_report(tmp_path):
    """`make run` in a copy of the checkout's scenarios/ rebuilds reports/base/ as committed:
    every file byte for byte (both tables'), run.json but for RUN_CIRCUMSTANCES. About 1.5
    minutes on 2 cores (100,000 games a table, the compensation checks, the skill games)."""
    work = _checkout_copy(tmp_path)
    bin_dir = _fake_bin(tmp_path / "bin", f'exec "{sys.executable}" -m simsym.cli.main "$@"\n')
    t0 = time.perf_counter()
    r = _make("run", work, bin_dir)
    print(f"make run: {time.perf_counter() - t0:.0f} s")
    assert r.returncode == 0, r.stderr[-3000:]
    new, committed = work / "reports" / "base", REPO_ROOT / "reports" / "base"

    def files(d):  # the strong table's files, and the fast table's in fast/
        return sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())

    names = files(committed)
    assert files(new) == names  # the outputs alone: the run's lock is not in the folder
    assert {"compensation.json", "report.md", "judges.json", "fast/report.md",
            "fast/summary.json"} <= set(names)
    for name in names:
        if Path(name).name == "run.json":
            a, b = (json.loads((d / name).read_text()) for d in (new, committed))
            for k in RUN_CIRCUMSTANCES:  # each run.json has the timings its simsym wrote
                a.pop(k, None), b.pop(k, None)
            assert a == b
        else:
            assert (new / name).read_bytes() == (committed / name).read_bytes(), name


# --- the wheel ----------------------------------------------------------------------------

SOURCES = ("pyproject.toml", "setup.py", "README.md", "simsym", "scenarios", "docs")


def _build_wheel(tmp_path: Path) -> Path:
    """The wheel of a clean copy of the sources (no build/ left over from an earlier build)."""
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        p = REPO_ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
        else:
            shutil.copy2(p, src / name)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                        str(tmp_path / "dist"), str(src)], capture_output=True, text=True,
                       timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("simsym-*.whl")
    return wheel


def _fresh_venv(tmp_path: Path, wheel: Path) -> Path:
    """A new virtual environment holding simsym from the wheel alone; its dependencies are
    reached through a .pth file naming this interpreter's site-packages (the .pth files there,
    such as an editable install of the checkout, are not processed)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                        "--no-deps", "--no-index", str(wheel)], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"], capture_output=True,
                          text=True, check=True, env=_clean_env(venv)).stdout.strip()
    here = sysconfig.get_paths()
    (Path(site) / "simsym-test-deps.pth").write_text(
        "\n".join(dict.fromkeys([here["purelib"], here["platlib"]])) + "\n")
    return venv


def _clean_env(venv: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


@pytest.mark.slow
def test_wheel_installs_and_works_outside_the_checkout(tmp_path):
    """pip install of the wheel, then from an empty folder: best, options, docs, init,
    validate, run. The numba kernels compile cold for the new environment's sources (cached
    under the user's cache folder, simsym.core.kernel_cache_dir)."""
    t0 = time.perf_counter()
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as z:  # the wheel carries scenarios/ exactly, as simsym/data/
        data = {n.removeprefix("simsym/data/"): z.read(n) for n in z.namelist()
                if n.startswith("simsym/data/")}
    assert data == shipped_files(SCENARIOS)
    venv = _fresh_venv(tmp_path, wheel)
    t1 = time.perf_counter()
    work = tmp_path / "somewhere"
    work.mkdir()
    env = _clean_env(venv)

    def simsym(*args):
        return subprocess.run([str(venv / "bin" / "simsym"), *map(str, args)], cwd=work,
                              env=env, capture_output=True, text=True, timeout=3000)

    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import simsym, simsym.model.packaged as p; print(simsym.__file__); "
                            "print(p.data_dir())"], cwd=work, env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    assert all(Path(w).is_relative_to(venv) for w in where), where
    assert where[1].endswith("simsym/data")

    best = simsym("best", "--json", "Plato", "Grapes", "Vines", "Krater")
    assert best.returncode == 0, best.stderr
    here = cli("best", "--json", "Plato", "Grapes", "Vines", "Krater")
    assert json.loads(best.stdout) == json.loads(here.output)
    t2 = time.perf_counter()

    r = simsym("options", "--rulings")  # the rulings the options cite ship in the wheel
    assert r.returncode == 0 and r.stdout == (REPO_ROOT / "docs" / "rulings.md").read_text()
    with zipfile.ZipFile(wheel) as z:
        assert z.read("simsym/docs/symposion-rules.txt") == \
            (REPO_ROOT / "docs" / "symposion-rules.txt").read_bytes()

    r = simsym("docs", "--path", "notebook")  # every document ships, the notebook too
    nb = Path(r.stdout.strip())
    assert r.returncode == 0 and nb.is_relative_to(venv) and nb.name == "notebook.ipynb"
    r = simsym("docs", "guide")
    assert r.returncode == 0
    assert r.stdout == (REPO_ROOT / "docs" / "designer-guide.md").read_text()

    r = simsym("init", "ws", "--notebook")
    assert r.returncode == 0, r.stderr
    assert (work / "ws" / "notebook.ipynb").read_bytes() == nb.read_bytes()
    r = simsym("validate", "ws/game.yaml")
    assert r.returncode == 0 and r.stdout.startswith("ws/game.yaml: ok (75 cards"), r.stdout
    (work / "bad.yaml").write_text("extends: simsym:nope\n")
    r = simsym("validate", "bad.yaml")
    assert r.returncode == 2 and "allowed: simsym:base, " in r.stdout
    assert "Traceback" not in r.stdout + r.stderr

    r = simsym("run", "ws/game.yaml", "--games", "200")
    assert r.returncode == 0, r.stderr
    t3 = time.perf_counter()
    out = work / "reports" / "ws"
    assert "wrote reports/ws/judges.json, summary.json" in r.stdout  # the judged base
    assert {"summary.json", "cards.csv", "run.json", "report.md"} <= {
        p.name for p in out.iterdir()}
    assert ("simsym run ws/game.yaml --games 200 --seed 20261130 --out reports/ws"
            in (out / "report.md").read_text())
    # The installed package plays the same games as the checkout (summary.json is
    # byte-identical for the same scenario, games and seed).
    ref = tmp_path / "checkout-run"
    r = cli("run", work / "ws" / "game.yaml", "--games", "200", "--out", ref, "-q",
            "--no-report")
    assert r.exit_code == 0, r.output
    assert (out / "summary.json").read_bytes() == (ref / "summary.json").read_bytes()
    assert not list(venv.rglob("reports"))

    # The notebook API from the installed package: a scenario from a mapping, a card
    # override, a comparison, a run; its temporary folders gone when Python exits.
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    script = (
        "import gc, simsym.api as ss\n"
        "base = ss.scenario({'extends': 'simsym:base', 'games': 200})\n"
        "c = ss.compare(base, ss.scenario(base, cards={'Plato': '4I; IO'}))\n"
        "print(c.changes, c.cards['name'].iloc[0])\n"
        "r = ss.run(base, save_games=True)\n"
        "print(len(r.games(long=True)), r.run_dir.exists())\n")
    r = subprocess.run([str(venv / "bin" / "python"), "-c", script], cwd=work,
                       env={**env, "TMPDIR": str(tmp)}, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["['Plato: 5I; IO → 4I; IO'] Plato", "800 True"]
    # (the machine's locks stay: the compile lock, the output folders' locks)
    left = [p.name for p in tmp.iterdir()
            if not p.name.startswith(("simsym-compile-", "simsym-locks-"))]
    assert left == [] and sorted(p.name for p in work.iterdir()) == ["bad.yaml", "reports",
                                                                     "ws"]
    print(f"wheel build + venv {t1 - t0:.0f} s, best (cold search compile) {t2 - t1:.0f} s, "
          f"init/validate/run 200 games (cold game compile) {t3 - t2:.0f} s")
