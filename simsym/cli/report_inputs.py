"""What a report was made from, so that only the reports whose inputs changed are made again.

Every report-producing command (`simsym run`, `sweep`, `ladder`, `tune`) ends by writing
``OUT/inputs.json`` (:func:`record_inputs`): the command, the flags that decide its results,
the SHA-256 of every file the scenario reads (the file itself, the files it extends, its card
file, the Python files and learned models of its strategies) and the hash of the game code
(:func:`simsym.run.cache.code_hash`), with one digest over all of them. Flags that only say
how or where it ran (``--jobs``, ``--out``, ``-q``, ``--force``, ``--resume``,
``--chunk-size``, ``--executor``, ``--scheduler``) are left out: results do not depend on
them.

:func:`check` takes a report command line (``run scenarios/base.yaml -q --force ...``),
parses it with the command's own options, finds the directory it writes to and says whether
the report there was made from the same inputs. ``make report-changed`` pipes the commands of
``make report`` into ``python -m simsym.cli.report_inputs run SIMSYM``, which runs only the stale
ones; ``... plan`` gives the balance workflow the stale reports in groups (the slow scenarios
alone, the others together) and the code hash its chunk cache is keyed on
(.github/workflows/balance.yml, docs/reliability.md).

Paths are written relative to the current directory (``make`` runs in the checkout), the files
of the installed package as ``<simsym>/...``, so a report made on one machine is current on
another. Report and analysis code is not in the code hash (it reads the games, it does not
make them): after a change there, ``make report`` regenerates everything.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from simsym.model import packaged

INPUTS_FILE = "inputs.json"
COMMANDS = ("run", "sweep", "ladder", "tune")
# The file a finished report of each command has (a report without it is not finished).
MAIN_FILE = {"run": "summary.json", "sweep": "sweep.md", "ladder": "ladder.md",
             "tune": "tune.md"}
# Parameters that say how or where a command ran, not what it found.
CIRCUMSTANCES = frozenset({"scenario_path", "spec_path", "jobs", "out", "quiet", "force",
                           "resume", "chunk_size", "executor", "scheduler"})
PACKAGE = Path(__file__).resolve().parent.parent


# --- the files a scenario reads ------------------------------------------------------------

def _tables(sc) -> list:
    """Every strategy the scenario can seat: its table, its judges, its ladder, its sweep's
    tables."""
    out = [*sc.strategies, *(sc.judges or {}).values(), *sc.ladder]
    if sc.sweep and sc.sweep[0] == "strategies":
        out += list(sc.sweep[2])
    return out


def _strategy_files(s) -> list[Path]:
    from simsym.learned.model import BASE_MODEL
    from simsym.model.strategies import model_path

    if s.family == "python":
        where = str(s.get("class")).rsplit(":", 1)[0]
        return [Path(s.base_dir) / where] if where.endswith(".py") else []
    if s.family == "learned" or (s.family == "lookahead" and s.get("policy") == "learned"):
        return [model_path(s) or BASE_MODEL]
    return []


def scenario_files(scenario_path) -> list[Path]:
    """The files a scenario reads: itself, the files it extends, its card file, and the
    Python files and models of its strategies (judges, ladder and sweep tables included)."""
    from simsym.model.scenario import load_scenario

    given = str(scenario_path)
    path = packaged.scenario_file(given) if packaged.is_packaged(given) else Path(given)
    sc = load_scenario(given)
    files = list(sc.files)
    cards = sc.raw.get("cards")
    if isinstance(cards, dict) and isinstance(cards.get("file"), str):
        files.append(Path(cards["file"]))
    else:
        files.append(path.parent / packaged.CARD_FILE)
    for s in _tables(sc):
        files += _strategy_files(s)
    return list(dict.fromkeys(files))


def label(path: Path) -> str:
    """How inputs.json names a file: ``<simsym>/...`` in the package (wherever it is
    installed or checked out), else relative to the current directory, else its absolute
    path."""
    p = Path(path).resolve()
    for root, prefix in ((PACKAGE, "<simsym>/"), (Path.cwd().resolve(), "")):
        try:
            return prefix + p.relative_to(root).as_posix()
        except ValueError:
            pass
    return p.as_posix()


def _sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# --- the inputs of one command ---------------------------------------------------------------

def _plain(value):
    return list(map(_plain, value)) if isinstance(value, (tuple, list)) else value


def inputs(command: str, scenario_path, params: dict) -> dict:
    """What decides a report: the command, its flags (CIRCUMSTANCES left out), the files
    the scenario reads and the game code's hash; ``digest`` is the SHA-256 over the rest."""
    from simsym.run import cache

    doc = {"command": command,
           "flags": {k: _plain(v) for k, v in sorted(params.items())
                     if k not in CIRCUMSTANCES},
           "files": {label(p): _sha256(p) for p in scenario_files(scenario_path)},
           "code": cache.code_hash()}
    doc["digest"] = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()
    return doc


def _scenario_arg(params: dict):
    return params.get("scenario_path") or params.get("spec_path")


def record_inputs(out, command: str | None = None, params: dict | None = None) -> Path | None:
    """Write OUT/inputs.json for a command that has just finished its report (by default the
    command and parameters of the click command running now), with the SHA-256 of the
    report's main file, so that a later run that rewrote it leaves the record stale. A record
    that cannot be written is a warning, not a failed run: the report is then stale."""
    from simsym.run.output import atomic_write_text

    if command is None or params is None:
        import click

        ctx = click.get_current_context()
        command, params = command or ctx.command.name, ctx.params if params is None else params
    path = Path(out) / INPUTS_FILE
    try:
        doc = inputs(command, _scenario_arg(params), params)
        doc["made"] = {MAIN_FILE[command]: _sha256(Path(out) / MAIN_FILE[command])}
        atomic_write_text(path, json.dumps(doc, indent=1, sort_keys=True) + "\n")
    except Exception as e:  # the report itself is written and sound
        path.unlink(missing_ok=True)
        print(f"simsym: warning: could not record the inputs of {out} ({type(e).__name__}: "
              f"{e}); `make report-changed` will make it again", file=sys.stderr)
        return None
    return path


# --- is a report current? ----------------------------------------------------------------------

@dataclass
class Check:
    argv: list[str]
    command: str
    scenario: str  # the scenario argument as given
    out: Path  # the directory the command writes its report to
    current: bool
    reason: str  # why it is stale, or "inputs unchanged"


def parse(argv) -> tuple[str, dict]:
    """A report command line (without ``simsym``) as the command name and its parameters,
    parsed by the command's own options."""
    from simsym.cli.main import main

    argv = shlex.split(argv) if isinstance(argv, str) else [str(a) for a in argv]
    if not argv or argv[0] not in COMMANDS:
        raise ValueError(f"not a report command: {' '.join(argv)!r}; allowed: "
                         + ", ".join(COMMANDS))
    cmd = main.get_command(None, argv[0])
    ctx = cmd.make_context(argv[0], argv[1:])
    return argv[0], dict(ctx.params)


def report_dir(command: str, params: dict) -> Path:
    """Where the command writes: ``--out``, else what each command makes of the scenario's
    name under ./reports/ (a judged run's one table alone: NAME-JUDGE)."""
    from simsym.cli.common import out_dir
    from simsym.model.scenario import load_scenario

    if params.get("out"):
        return Path(params["out"])
    name = load_scenario(_scenario_arg(params)).name
    if command == "run":
        judge = params.get("judge", "both")
        return out_dir(None, name if judge == "both" else f"{name}-{judge}")
    return out_dir(None, f"{name}-{command}")


def _why(old: dict, new: dict) -> str:
    if old.get("command") != new["command"]:
        return f"made by `simsym {old.get('command')}`, now `simsym {new['command']}`"
    if old.get("code") != new["code"]:
        return "the game code changed"
    files, before = new["files"], old.get("files", {})
    changed = [f for f in files if f in before and before[f] != files[f]]
    added = [f for f in files if f not in before]
    gone = [f for f in before if f not in files]
    parts = ([f"{', '.join(changed)} changed"] if changed else []) + \
        ([f"now reads {', '.join(added)}"] if added else []) + \
        ([f"no longer reads {', '.join(gone)}"] if gone else [])
    if parts:
        return "; ".join(parts)
    flags, was = new["flags"], old.get("flags", {})
    diff = sorted(k for k in {*flags, *was} if flags.get(k) != was.get(k))
    if diff:
        return "flags changed: " + ", ".join(f"{k} {was.get(k)!r} -> {flags.get(k)!r}"
                                             for k in diff)
    return "inputs.json differs"


def check(argv) -> Check:
    """Whether the report a command line makes is already there, made from the same inputs."""
    command, params = parse(argv)
    argv = shlex.split(argv) if isinstance(argv, str) else [str(a) for a in argv]
    scenario = str(_scenario_arg(params))
    out = report_dir(command, params)
    new = inputs(command, scenario, params)

    def result(current, reason):
        return Check(argv, command, scenario, out, current, reason)

    if not (out / MAIN_FILE[command]).is_file():
        return result(False, f"no report in {out}/ yet")
    try:
        old = json.loads((out / INPUTS_FILE).read_text())
    except FileNotFoundError:
        return result(False, f"{out}/ was made before its inputs were recorded")
    except (OSError, ValueError):
        return result(False, f"{out}/{INPUTS_FILE} is unreadable")
    if old.get("digest") != new["digest"]:
        return result(False, _why(old, new))
    main_file = MAIN_FILE[command]
    if old.get("made", {}).get(main_file) != _sha256(out / main_file):
        return result(False, f"{out}/{main_file} was written after its inputs were recorded")
    return result(True, "inputs unchanged")


# --- the balance workflow's plan ----------------------------------------------------------

def _searching(sc) -> bool:
    """A `lookahead` seat anywhere in the scenario: its table, judges, ladder or sweep (the
    search player, ~100 times a scripted table's cost)."""
    return any(s.family == "lookahead" for s in _tables(sc))


def _slow(sc) -> bool:
    return bool(sc.ladder) or "tune" in sc.raw or _searching(sc)


def slow(scenario_path) -> bool:
    """A scenario whose report takes long enough to want a job of its own: a lookahead table
    anywhere, a ladder or a tune."""
    from simsym.model.scenario import load_scenario

    return _slow(load_scenario(scenario_path))


def searches(scenario_path) -> bool:
    """A scenario with a searching table anywhere (:func:`_searching`): its report and
    comparison take 30 to 85 minutes on two cores, where the learned judge's take minutes.
    The workflow runs them on its schedule, by hand, or on a pull request labelled
    `search-tables` (plan's --search-tables)."""
    from simsym.model.scenario import load_scenario

    return _searching(load_scenario(scenario_path))


def plan(lines, old_root=None, judge=None, new_root=".", search=True,
         deferred=None) -> list[dict]:
    """The balance workflow's jobs: a group for each slow scenario and one (``others``) for
    the rest, each with ``reports`` (the stale scenario files, for ``make report-changed
    REPORTS=...``) and ``compare`` (the scenarios whose games differ from OLD's, for
    ``simsym compare-tree --only ...``); groups with neither are left out. ``search`` False:
    the scenarios with a searching table (:func:`searches`) are left out, their names added
    to the list ``deferred``."""
    from simsym.studies.compare_tree import scenario_pairs

    groups: dict[str, dict] = {}
    later: dict[str, None] = {}

    def group(path) -> dict:
        from simsym.model.scenario import load_scenario

        try:
            sc = load_scenario(path)
            if not search and _searching(sc):
                later[Path(path).stem] = None
                return {"reports": [], "compare": []}
            name = Path(path).stem if _slow(sc) else "others"
        except Exception:  # a scenario that does not load: its job will say why
            name = "others"
        return groups.setdefault(name, {"group": name, "reports": [], "compare": []})

    for line in lines:
        if line.strip():
            try:
                c = check(line)
                stale, scenario = not c.current, c.scenario
            except Exception:  # run it, and let the command say what is wrong
                stale, scenario = True, shlex.split(line)[1]
            if stale:
                group(scenario)["reports"].append(scenario)
    if old_root is not None:
        for p in scenario_pairs(Path(old_root), Path(new_root), judge=judge):
            if not p.note:
                group(p.new)["compare"].append(p.name)
    if deferred is not None:
        deferred.extend(later)
    order = sorted(groups, key=lambda g: (g == "others", g))
    return [{"group": g, "reports": " ".join(groups[g]["reports"]),
             "compare": " ".join(groups[g]["compare"])} for g in order]


# --- python -m simsym.cli.report_inputs ---------------------------------------------------------

def _run_stale(simsym: str, lines) -> int:
    import subprocess

    for line in lines:
        if not line.strip():
            continue
        try:
            c = check(line)
        except Exception as e:  # the command itself will say what is wrong: run it
            print(f"== {line.strip()} (cannot check its inputs: {e})", flush=True)
            code = subprocess.call([simsym, *shlex.split(line)], stdin=subprocess.DEVNULL)
            if code:
                return code
            continue
        name = Path(c.scenario).stem
        if c.current:
            print(f"== {name}: skipped, {c.reason} ({c.out}/{INPUTS_FILE})", flush=True)
            continue
        print(f"== {name} ({c.reason})", flush=True)
        code = subprocess.call([simsym, *c.argv], stdin=subprocess.DEVNULL)
        if code:
            return code
    return 0


USAGE = """usage: python -m simsym.cli.report_inputs COMMAND

  check SIMSYM-ARGS...   exit 0 when the report of `simsym SIMSYM-ARGS` is current, else 1
  run SIMSYM             read report command lines on stdin; run `SIMSYM LINE` for the stale
  plan [--old DIR] [--judge fast|strong] [--search-tables]
                         read report command lines on stdin; print the workflow's groups, the
                         scenarios with a searching table left for later (without
                         --search-tables) and the game code's hash (GitHub step outputs:
                         groups=..., deferred=..., code=...)
"""


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("check", "run", "plan"):
        print(USAGE, file=sys.stderr, end="")
        return 2
    what, rest = argv[0], argv[1:]
    if what == "check":
        c = check(rest)
        print(f"{c.out}: {'current' if c.current else 'stale'}, {c.reason}", file=sys.stderr)
        return 0 if c.current else 1
    if what == "run":
        if len(rest) != 1:
            print(USAGE, file=sys.stderr, end="")
            return 2
        return _run_stale(rest[0], sys.stdin)
    import argparse

    ap = argparse.ArgumentParser(prog="python -m simsym.cli.report_inputs plan")
    ap.add_argument("--old", default=None, help="the base branch's checkout (a pull request)")
    ap.add_argument("--judge", choices=("fast", "strong"), default=None)
    ap.add_argument("--search-tables", action="store_true",
                    help="plan the scenarios with a searching table too")
    args = ap.parse_args(rest)
    from simsym.run import cache

    later: list[str] = []
    groups = plan(sys.stdin, old_root=args.old or None, judge=args.judge,
                  search=args.search_tables, deferred=later)
    print("groups=" + json.dumps(groups))
    print("deferred=" + " ".join(later))
    print("code=" + cache.code_hash())
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
