"""What `simsym tune` writes: tuned.yaml, tune.md ("Balanced?" for the start and the winner
first, the glossary, then the verdict), balance.json, trials.csv, finalists.csv,
objective.png; and the whole tune from spec to report (``run_tune``)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simsym.run.output import atomic_write_text
from simsym.studies.sequential import block_size
from simsym.studies.tune import (CONFIRM_SEED_OFFSET, HOLDOUT_SEED_OFFSET, confirm,
                                 criteria_changes, criteria_words, describe, finals,
                                 limit_words, open_study, optuna_search, quality_limit,
                                 search_compensation)
from simsym.studies.tune_spec import QUALITY_KEYS, parse_tune


@dataclass
class Answers:
    """"Balanced?" for the start and for the winner (simsym.analysis.balance.Balance; the
    winner's None when the tune found no change), and the games they were read from."""

    start: object
    tuned: object | None
    games: int
    seed: int
    fresh: bool  # the confirmation's fresh deals; else the start's held-out deals

    def line(self) -> str:
        """The one-line answer the command prints."""
        from simsym.report.table_sweep import answer_words

        tuned = answer_words(self.tuned) if self.tuned is not None else "no change"
        return f"Balanced? start: {answer_words(self.start)}; tuned: {tuned}"

    def as_dict(self) -> dict:
        """balance.json: both answers, every difference in pp, and what the change did to each
        criterion."""
        both = [self.start] + ([self.tuned] if self.tuned is not None else [])
        return {"units": "pp", "games": self.games, "seed": self.seed,
                "deals": "fresh" if self.fresh else "held out",
                "tables": [b.as_dict() for b in both],
                "against_start": (criteria_changes(self.start, self.tuned)
                                  if self.tuned is not None else "no change")}


def answers(sc, fin, winner, runs) -> Answers:
    """The start's and the winner's answers from the confirmation's ``runs`` (start, tuned)
    on fresh deals (a seat compensation the winner changed counts as verified there); with
    no change (no confirmation), the start's from its held-out games."""
    from simsym.model.scenario import table_name
    from simsym.studies.paired import balance_of

    label = table_name(sc)
    if runs is not None:
        A, B = runs
        tuned = balance_of(B, f"tuned, {label}")
        # a compensation the tune chose, played on deals the search never saw: verified
        tuned.compensation_verified = "seat_compensation" in winner.changes["rules"]
        return Answers(balance_of(A, f"start, {label}"), tuned, A.games, A.seed, True)
    run = next(r["_run"] for r in fin if r["_c"] is winner)
    return Answers(balance_of(run, f"start, {label}"), None, run.games, run.seed, False)


def run_tune(sc, out: Path, *, jobs: int, resume: bool = False, force: bool = False,
             echo=print, others=(), progress=None) -> tuple[Path, Answers]:
    """Tune ``sc`` into ``out``. ``others``: (description, scenario) of the other tables the
    winner is confirmed under too, on the same fresh deals (the other judge of a judged
    scenario, with the budget's holdout_games; a lookahead table, with its lookahead_games;
    simsym.cli.tune.other_tables). ``progress``: a simsym.run.progress.Progress shown in
    steps (trials, finalists, confirmations), or None. Returns tune.md's path and the
    answers to "Balanced?"."""
    spec = parse_tune(sc)
    spec.block = block_size(sc.players, sc.seating, spec.block)
    spec.games = max(1, spec.games // spec.block) * spec.block
    spec.holdout_games = max(1, spec.holdout_games // spec.block) * spec.block
    if force and out.exists():
        (out / "tune.db").unlink(missing_ok=True)
    if spec.seats_only:
        out.mkdir(parents=True, exist_ok=True)
        how = "paired hill climb over the compensation vector"
        rows = search_compensation(sc, spec, jobs, echo, progress)
    else:
        how = "optuna TPE (seeded per trial) with the Wilcoxon pruner on matched blocks"
        rows = optuna_search(sc, spec, open_study(out, sc, spec, resume), jobs, echo,
                             progress)
    write_trials(rows, out)
    fin, winner, start = finals(sc, spec, rows, jobs, echo, progress)
    conf, runs, elsewhere = None, None, []
    if describe(winner.changes) != "no change":
        tables = [("the table tuned", sc, spec.holdout_games)]
        tables += [(what, osc, max(1, games // spec.block) * spec.block)
                   for what, osc, games in others if games]
        for j, (what, osc, games) in enumerate(tables):
            echo(f"confirming {'against the start' if j == 0 else 'under ' + what} on "
                 f"{games:,} fresh games")
            n = games // spec.block

            def on_block(k, i, n=n, games=games, j=j):
                if progress is not None:  # start's games, then the tuned change's
                    progress.update(k * games + (i + 1) * spec.block)
                elif j:
                    echo(f"  {'start' if k == 0 else 'tuned'}: block {i + 1}/{n}")

            if progress is not None:
                progress.stage(what, 2 * games, j, len(tables), "confirmation")
            result, played = confirm(osc, spec, winner, jobs, games, on_block)
            if j == 0:
                conf, runs = result, played
            else:
                elsewhere.append((what, games, result))
    write_finalists(fin, out)
    write_tuned(sc, winner, out)
    ans = answers(sc, fin, winner, runs)
    atomic_write_text(out / "balance.json", json.dumps(ans.as_dict(), indent=1) + "\n")
    return write_md(sc, spec, how, rows, fin, winner, conf, out, elsewhere, ans), ans


def _public(rows):
    return pd.DataFrame([{k: v for k, v in r.items() if not k.startswith("_")} for r in rows])


def write_trials(rows, out: Path):
    atomic_write_text(out / "trials.csv", _public(rows).to_csv(index=False, lineterminator="\n",
                                                              float_format="%.6g"))
    plot_objective(rows, out / "objective.png")


def write_finalists(fin, out: Path):
    atomic_write_text(out / "finalists.csv", _public(fin).to_csv(index=False,
                                                                 lineterminator="\n",
                                                                 float_format="%.6g"))


def plot_objective(rows, path: Path):
    import matplotlib.pyplot as plt

    from simsym.report.plots import save

    df = _public(rows)
    fig, ax = plt.subplots(figsize=(7, 3.5))
    done = df[df["state"] == "complete"]
    ax.scatter(done["trial"], done["objective"], s=14, label="trial")
    pr = df[df["state"] == "pruned"]
    if len(pr):
        ax.scatter(pr["trial"], [done["objective"].max()] * len(pr), marker="x", c="gray",
                   s=14, label="pruned (drawn at the top)")
    best = done.set_index("trial")["objective"].cummin().reindex(df["trial"]).ffill()
    ax.step(df["trial"], best, where="post", c="tab:red", label="best so far")
    ax.set_yscale("symlog", linthresh=1.0)
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (lower is better)")
    ax.set_title("Objective over trials (same deals for every trial)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, path)


def write_tuned(sc, winner, out: Path):
    """tuned.yaml: extends the spec and states only the changes (loads with `simsym run`)."""
    import yaml

    rel = os.path.relpath(Path(sc.path).resolve(), out.resolve())
    doc: dict = {"extends": rel, "name": f"{sc.name}-tuned"}
    ch = winner.changes
    if ch["cards"]:
        doc["cards"] = {"overrides": dict(ch["cards"])}
    if ch["rules"]:
        doc["rules"] = dict(ch["rules"])
    head = (f"# Tuned by `simsym tune {sc.path}`: {describe(ch)}.\n"
            "# Only the changes; see tune.md for what they buy on fresh deals.\n")
    atomic_write_text(out / "tuned.yaml", head + yaml.safe_dump(doc, sort_keys=False,
                                                               allow_unicode=True))


def _ci(r):
    return f"{r['change']:+.2f} ({r['lo']:+.2f} to {r['hi']:+.2f})"


def balanced_md(ans: Answers) -> list[str]:
    """tune.md's opening: "## Balanced?" for the start and the winner, criterion by
    criterion, what the change did to each criterion, then the glossary."""
    from simsym.report.markdown import GLOSSARY, balanced_section

    if ans.tuned is not None:
        notes = [f"**Against the start**, on the same {ans.games:,} fresh games (seed "
                 f"{ans.seed}, never seen by the search): {criteria_words(ans.start, ans.tuned)}."]
        both = [ans.start, ans.tuned]
    else:
        notes = [f"**No change** was found: the start's answer stands, read from its "
                 f"{ans.games:,} held-out games (seed {ans.seed})."]
        both = [ans.start]
    return [balanced_section(both, notes), "", GLOSSARY, ""]


def _held(r) -> str:
    """A limit on how the game plays, as the confirmation found it."""
    if "limit" not in r:
        return ""
    return f"; limit {r['limit']}: {'held' if r['held'] else 'NOT held'}"


def write_md(sc, spec, how, rows, fin, winner, conf, out: Path, elsewhere,
             ans: Answers) -> Path:
    df = _public(rows)
    games_search = int(df["games"].sum())
    games_final = (spec.holdout_games * len(fin) + (2 * spec.holdout_games if conf else 0)
                   + sum(2 * g for _, g, _ in elsewhere))
    targets = []
    if spec.seat_spread is not None:
        targets.append(f"seat spread at most {100 * spec.seat_spread:g} pp")
    if spec.iwd_band is not None:
        who = ", ".join(spec.iwd_cards) if spec.iwd_cards else "every card"
        targets.append(f"IWD within ±{100 * spec.iwd_band:g} pp of the table average "
                       f"({who})")
    for n, r in spec.play_rate.items():
        targets.append(f"{n} played when held at least {100 * r:g}%")
    for key, limit in spec.quality.items():
        _, _, lo, hi, unit = quality_limit(key, *limit)
        targets.append(f"{QUALITY_KEYS[key]} {limit_words(lo, hi, unit)}")
    lines = [f"# Tune: {sc.name}", "", *balanced_md(ans), "## Verdict", ""]
    if conf is None:
        lines.append("- **No change**: no candidate beat the starting scenario on the held-out "
                     "deals; tuned.yaml restates the start.")
    else:
        lines.append(f"- **Change: {describe(winner.changes)}** ([tuned.yaml](tuned.yaml)).")
        obj = conf[-1]
        lines.append(f"- **What it buys**, on {spec.holdout_games:,} fresh games (seed "
                     f"{spec.seed + CONFIRM_SEED_OFFSET}, never seen by the search), tuned "
                     "minus start with paired 95% intervals over blocks of the same deals:")
        for r in conf[:-1]:
            lines.append(f"  - {r['metric']}: {r['start']:.2f} → {r['tuned']:.2f}, change "
                         f"{_ci(r)}{_held(r)}")
        lines.append(f"  - objective on all those games: {obj['pooled_start']:.2f} → "
                     f"{obj['pooled_tuned']:.2f} (per block: change {_ci(obj)})")
        table = sc.strategies[0].label if len(sc.strategies) == 1 else "the scenario's"
        for what, games, rows_o in elsewhere:
            lines.append(f"- **Under {what}**, the same change on {games:,} fresh games "
                         f"(seed {spec.seed + CONFIRM_SEED_OFFSET}; tuned under {table} "
                         "players):")
            for r in rows_o[:-1]:
                lines.append(f"  - {r['metric']}: {r['start']:.2f} → {r['tuned']:.2f}, "
                             f"change {_ci(r)}{_held(r)}")
    lines.append(f"- Targets: {'; '.join(targets)}; {spec.change_penalty:g} objective points "
                 "per changed card, rule or compensation vector.")
    lines.append(f"- Games: {games_search:,} in the search ({len(df)} candidates, "
                 f"{int((df['state'] == 'pruned').sum())} pruned early), {games_final:,} on "
                 f"held-out and fresh deals: {games_search + games_final:,} in all.")
    lines += ["", "## How it was found", "",
              f"Search: {how}. Every candidate was played on the same deals (seed {spec.seed}, "
              f"game indices 0..{spec.games - 1}, blocks of {spec.block}); the objective is the "
              "sum of squared overshoots beyond each band (in pp) plus the change penalty.", "",
              "![Objective over trials](objective.png)", "",
              f"## Finalists (re-measured on {spec.holdout_games:,} held-out games, seed "
              f"{spec.seed + HOLDOUT_SEED_OFFSET}; the winner is the lowest there)", "",
              "| candidate | change | objective (search) | objective (held out) | seat spread "
              "pp |", "| --- | --- | ---: | ---: | ---: |"]
    for r in fin:
        mark = " **winner**" if r["_c"] is winner else ""
        lines.append(f"| {r['candidate']}{mark} | {r['change']} | {r['tuning_objective']:.2f} | "
                     f"{r['holdout_objective']:.2f} | {r['seat_spread_pp']:.2f} |")
    best = df[df["state"] == "complete"].sort_values(["objective", "trial"]).head(10)
    lines += ["", "## Best candidates of the search", "", "| trial | change | objective | "
              "seat spread pp |", "| ---: | --- | ---: | ---: |"]
    for _, r in best.iterrows():
        lines.append(f"| {r['trial']} | {r['change']} | {r['objective']:.2f} | "
                     f"{r['seat_spread_pp']:.2f} |")
    lines += ["", "Data: [trials.csv](trials.csv), [finalists.csv](finalists.csv), "
              "[balance.json](balance.json) (both answers to \"Balanced?\" in full).", ""]
    path = out / "tune.md"
    atomic_write_text(path, "\n".join(lines))
    return path
