"""`simsym compare-tree OLD`: what a change to the scenarios or card files does to balance.

For a pull request: OLD is a checkout of the base branch, NEW (default: this one) the
branch. Every scenario file of NEW/scenarios/ that also exists in OLD/scenarios/ is loaded
in both trees (each with its own `extends` and card files); those whose games differ (the
scenario fingerprint: cards, rules, table, strategies) are compared on the same deals
(`simsym compare OLD_FILE NEW_FILE`), each into OUT/NAME/, and the verdicts are gathered in
OUT/summary.md. Scenarios whose strategies are Python classes cannot run in the numba
engine and are listed as skipped, as are new scenarios (nothing to compare with).

A scenario with `judges:` is compared as one judge's table (``judge``: "strong", the
default, or "fast"), on both sides; summary.md says which table judged each scenario.
``only`` restricts everything to the scenarios of those names (file names without .yaml):
the balance workflow compares the slow scenarios each in a job of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simsym.analysis.convergence import change_summary
from simsym.studies.compare import check_fail_on, compare, sides, verdict, write_report
from simsym.errors import SimsymError
from simsym.run.worker import fingerprint
from simsym.run.output import atomic_write_text
from simsym.model.scenario import load_scenario
from simsym.model.strategies import BUILT_IN


@dataclass
class Pair:
    name: str
    old: Path
    new: Path
    note: str = ""  # why it is not compared; empty for a changed scenario
    table: str = ""  # which table plays on each side (a judge's, or its own)


def table_of(sc, judge: str | None) -> str:
    """Which table of a scenario is played: one judge's, or its own `strategies:`."""
    labels = ", ".join(s.label for s in sc.judge(judge).strategies)
    if sc.judges:
        return f"the {judge or 'strong'} judge's table ({labels})"
    return f"its own table ({labels})"


def scenario_pairs(old_root: Path, new_root: Path, judge: str | None = None,
                   only=None) -> list[Pair]:
    """Every scenario file of NEW (or those named in ``only``) with what happens to it
    (note empty: compare it), a judged scenario as the table of ``judge`` (default strong)."""
    new_dir, old_dir = Path(new_root) / "scenarios", Path(old_root) / "scenarios"
    if not old_dir.is_dir():
        raise SimsymError(f"{old_root}: not a simsym checkout (no scenarios/ directory)")
    files = sorted(new_dir.glob("*.yaml"))
    if only is not None:
        names = {p.stem for p in files}
        unknown = sorted(set(only) - names)
        if unknown:
            raise SimsymError(f"--only {', '.join(unknown)}: no such scenario in "
                              f"{new_dir}; allowed: " + ", ".join(sorted(names)))
        files = [p for p in files if p.stem in set(only)]
    pairs = []
    for new in files:
        old = old_dir / new.name
        pair = Pair(new.stem, old, new)
        pairs.append(pair)
        if not old.exists():
            pair.note = "new scenario (nothing to compare with)"
            continue
        b = load_scenario(new)  # a broken scenario in the branch is an error
        if any(s.family not in BUILT_IN for s in b.judge(judge).strategies):
            pair.note = "strategies written in Python (the numba engine cannot run them)"
            continue
        try:
            a = load_scenario(old)
        except SimsymError as e:
            pair.note = f"the old tree's file does not load ({str(e).splitlines()[0]})"
            continue
        ta, tb = table_of(a, judge), table_of(b, judge)
        pair.table = f"Table: {tb}" if ta == tb else f"Tables: A {ta}; B {tb}"
        if a.players != b.players:
            pair.note = f"players changed ({a.players} -> {b.players})"
        elif fingerprint(a.judge(judge)) == fingerprint(b.judge(judge)):
            pair.note = "unchanged"
    return pairs


def compare_tree(old_root, new_root, out: Path, *, games=None, seed=None, jobs=1,
                 rules=(), progress=None, say=lambda msg: None, judge: str | None = None,
                 only=None) -> tuple[Path, list[str]]:
    """Compare each changed scenario (a judged one as the table of ``judge``, default the
    strong one); write OUT/NAME/compare.md and OUT/summary.md. Returns summary.md's path and
    the ``--fail-on`` failures (as "NAME: failure")."""
    pairs = scenario_pairs(Path(old_root), Path(new_root), judge=judge, only=only)
    changed = [p for p in pairs if not p.note]
    role = judge or "strong"
    lines = [f"Scenarios of this tree compared with {old_root} on the same deals; a "
             f"scenario with `judges:` as its {role} judge's table (`--judge {role}`).", ""]
    failures = []
    done = 0
    for p in changed:
        say(f"{p.name}: comparing the old and the new scenario ...")
        c = compare(str(p.old), str(p.new), games=games, seed=seed, jobs=jobs,
                    progress=progress and (lambda n, base=done: progress(base + n)),
                    judge=judge)
        done += len(sides(str(p.old), str(p.new), judge)) * c.games
        failed = check_fail_on(c, rules)
        write_report(c, out / p.name, failed)
        failures += [f"{p.name}: {f}" for f in failed]
        better = [f"- {change_summary(c.convergence)}"] if c.convergence else []
        lines += [f"### {p.name}", "", *verdict(c, failed), *better,
                  *([f"- {p.table}"] if p.table else []),
                  f"- Details: [{p.name}/compare.md]({p.name}/compare.md)", ""]
    if not changed:
        lines += ["No scenario's games changed.", ""]
    skipped = [p for p in pairs if p.note]
    if skipped:
        lines += ["Not compared: " + "; ".join(f"{p.name} ({p.note})" for p in skipped) + ".",
                  ""]
    path = out / "summary.md"
    atomic_write_text(path, "\n".join(lines))
    return path, failures
