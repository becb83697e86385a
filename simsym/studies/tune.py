"""`simsym tune SPEC`: let the tool propose the balance fix.

A tune spec is a scenario with a `tune:` block (simsym.studies.tune_spec): the knobs, the targets,
the budget. Every candidate is played on the same deal blocks (the budget's seed, game
indices 0..games-1, cut into blocks of whole deals), so candidates differ by the change and
not by the luck of the deal.

The search is optuna's, one trial after another, each using every core for its games: a
TPE sampler seeded per trial (seed + trial number, so a resumed tune proposes what an
uninterrupted one would), integer and categorical knobs, and the Wilcoxon pruner, which
compares a trial's per-block objective with the best trial's on the same blocks and stops a
trial that is clearly worse. The study lives in OUT/tune.db (SQLite), so ``--resume``
continues a killed tune: a trial cut off half way is marked failed and played again.

When only ``seat_compensation`` varies, no optimiser is needed: a paired hill climb over the
vector (small integers) from the first-order suggestion (mean-score gaps) reaches the seat
target on the same deals (simsym.studies.tune.search_compensation).

Finishing honestly: the best few candidates (and the start) are played again on held-out
deals (seed + 1) and the winner is the best there; the winner is then confirmed against the
start on fresh deals (seed + 2) with paired intervals over blocks, and each one's answer to
"Balanced?" (the scenario's `balance:` criteria) is read from those games. Written to OUT:
tuned.yaml (extends the spec, states only the changes), tune.md ("Balanced?" first, then the
verdict), balance.json, trials.csv, finalists.csv, objective.png.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simsym.analysis.balance import MET, UNDECIDED
from simsym.errors import SimsymError
from simsym.studies.paired import card_metrics, seat_metrics
from simsym.studies.sequential import batched
from simsym.studies.tune_spec import QUALITY_KEYS, TuneSpec, apply, n_changes, start_values

HOLDOUT_SEED_OFFSET = 1
STARTUP_TRIALS = 6  # random trials before TPE models the objective (optuna's default: 10)
CONFIRM_SEED_OFFSET = 2


# --- measuring a candidate ------------------------------------------------------------------

def play_blocks(sc, games: int, seed: int, block: int, jobs: int, on_block=None) -> list:
    """Play ``games`` (whole blocks) in rounds of ``jobs`` blocks; ``on_block(i, result)`` is
    called for each block in order and may return True to stop (a pruned trial)."""
    from simsym.run.executor import run_games

    n = max(1, games // block)
    done: dict = {}
    step = max(jobs, 1)
    upto = 0
    while upto < n:
        upto = min(n, upto + step)
        first = len(done)

        def take(res, played):
            done[res.index] = res

        run_games(sc, upto * block, seed, jobs=jobs, chunk_size=block, on_chunk=take,
                  done=dict(done))
        for i in range(first, upto):
            if on_block and on_block(i, done[i]):
                return [done[j] for j in range(i + 1)]
    return [done[i] for i in range(n)]


def pooled(blocks):
    from simsym.run.aggregate import merge

    totals = None
    for r in blocks:
        totals = merge(totals, r.totals)
    return totals, np.sum([r.agg for r in blocks], axis=0)


def measure(sc, spec: TuneSpec, totals, agg, changes) -> tuple[float, dict]:
    """The objective (squared overshoots in pp beyond each band, plus the change penalty)
    and its parts."""
    parts: dict = {}
    value = 0.0
    s = seat_metrics(totals, sc.players)
    spread = 100 * float(s["seat_gap"][0])
    parts["seat_spread_pp"] = spread
    if spec.seat_spread is not None:
        value += max(0.0, spread - 100 * spec.seat_spread) ** 2
    if spec.iwd_band is not None or spec.play_rate:
        c = card_metrics(agg, totals)
        iwd = 100 * c["iwd"]
        avg = float(np.nanmean(iwd))
        parts["iwd_average_pp"] = avg
        if spec.iwd_band is not None:
            names = spec.iwd_cards or [x.name for x in sc.cards]
            dev = np.array([iwd[sc.cards.index(n)] - avg for n in names])
            over = np.maximum(0.0, np.abs(np.nan_to_num(dev)) - 100 * spec.iwd_band)
            value += float(np.sum(over ** 2))
            if spec.iwd_cards:
                for n, d in zip(names, dev):
                    parts[f"iwd_dev_pp:{n}"] = float(d)
            parts["iwd_worst_dev_pp"] = float(np.nanmax(np.abs(dev)))
            parts["iwd_outside_band"] = int(np.sum(over > 0))
        for n, least in spec.play_rate.items():
            rate = 100 * float(c["play_rate"][sc.cards.index(n)])
            parts[f"play_rate_pct:{n}"] = rate
            value += max(0.0, 100 * least - (0.0 if math.isnan(rate) else rate)) ** 2
    for key, est, (lo, hi), unit in quality_limits(spec, totals):
        parts[f"quality:{key}"] = est
        # the overshoot beyond the limit in the measure's unit (a share's in pp)
        value += max(0.0, (lo if lo is not None else est) - est,
                     est - (hi if hi is not None else est)) ** 2
    # how far from the centre of the bands: breaks ties between candidates that all meet
    # their targets (the objective is flat inside a band)
    parts["off_centre"] = (spread ** 2 if spec.seat_spread is not None else 0.0) + sum(
        v ** 2 for key, v in parts.items() if key.startswith("iwd_dev_pp:"))
    k = n_changes(changes)
    parts["changes"] = k
    value += spec.change_penalty * k
    return value, parts


def quality_limit(key: str, lo, hi) -> tuple[int, float, float | None, float | None, str]:
    """A limit of targets.quality in the unit a designer reads it in: (the measure's row in
    simsym.analysis.quality.MEASURES, the scale from the stored value, lo, hi, unit), a
    share's in % (its differences in pp), any other measure's in its unit."""
    from simsym.analysis.quality import MEASURES, SHARES, in_percent

    i = [m for m, _ in MEASURES].index(QUALITY_KEYS[key])
    unit = MEASURES[i][1]
    k, _ = in_percent(unit)
    return (i, k, None if lo is None else lo * k, None if hi is None else hi * k,
            "%" if unit in SHARES else unit)


def quality_limits(spec: TuneSpec, totals: dict):
    """Each limit of targets.quality on these totals: (key, estimate, (lo, hi), unit), in
    the unit of :func:`quality_limit`."""
    if not spec.quality:
        return []
    from simsym.analysis.quality import quality_frame
    from simsym.run.summary import quality_block

    est = quality_frame(quality_block(totals))["estimate"].to_numpy(dtype=float)
    out = []
    for key, (lo, hi) in spec.quality.items():
        i, k, lo, hi, unit = quality_limit(key, lo, hi)
        v = k * est[i]
        out.append((key, 0.0 if math.isnan(v) else v, (lo, hi), unit))
    return out


def limit_words(lo, hi, unit: str) -> str:
    """A limit as tune.md says it: "from 18 to 30 turns", "at least 30%"."""
    u = unit if unit == "%" else f" {unit}"
    if lo is not None and hi is not None:
        return f"from {lo:g} to {hi:g}{u}"
    return f"at least {lo:g}{u}" if lo is not None else f"at most {hi:g}{u}"


@dataclass
class Candidate:
    label: str
    values: dict
    changes: dict
    value: float  # objective on the tuning deals


def evaluate(sc, spec, values, seed, games, jobs, on_block=None):
    """Play the candidate ``values``; (objective, parts, changes, blocks)."""
    tsc, changes = apply(sc, spec, values)
    blocks = play_blocks(tsc, games, seed, spec.block, jobs, on_block)
    value, parts = measure(tsc, spec, *pooled(blocks), changes)
    return value, parts, changes, blocks


def describe(changes: dict) -> str:
    items = [f"{c}: \"{t}\"" for c, t in changes["cards"].items()]
    items += [f"rules.{r}: {v}" for r, v in changes["rules"].items()]
    return "; ".join(items) or "no change"


# --- the optuna search ----------------------------------------------------------------------

def spec_hash(sc, spec: TuneSpec) -> str:
    """What makes two tunes the same study: the tune block and the name, but not the number
    of trials (raise it and --resume to extend a finished tune)."""
    block = dict(sc.raw.get("tune") or {})
    block["budget"] = {k: v for k, v in dict(block.get("budget") or {}).items()
                       if k != "trials"}
    raw = json.dumps(block, sort_keys=True, default=str)
    return hashlib.sha256((raw + sc.name).encode()).hexdigest()[:16]


def open_study(out: Path, sc, spec, resume: bool):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    db = out / "tune.db"
    if db.exists() and not resume:
        raise SimsymError(f"{out} already holds a tune (tune.db): --resume continues it, "
                          "--force starts over")
    if resume and not db.exists():
        raise SimsymError(f"{out}: nothing to resume (no tune.db)")
    out.mkdir(parents=True, exist_ok=True)
    import warnings

    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    study = optuna.create_study(
        study_name="tune", storage=f"sqlite:///{db}", direction="minimize",
        load_if_exists=True,
        pruner=optuna.pruners.WilcoxonPruner(p_threshold=0.1, n_startup_steps=3))
    h = spec_hash(sc, spec)
    if study.user_attrs.get("spec") not in (None, h):
        raise SimsymError(f"{out}/tune.db was made by another tune spec: --force starts over")
    study.set_user_attr("spec", h)
    # a trial cut off by a kill: failed, and played again from the same sampler seed
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study._storage.set_trial_state_values(t._trial_id, TrialState.FAIL)
    return study


def finished_trials(study):
    from optuna.trial import TrialState

    return study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED))


def _stage(progress, label, games, k, of, word):
    """The progress display's next step, and the block callback that moves its bar (or
    None): ``on_block(i, ...)`` after block i of ``block`` games."""
    if progress is None:
        return None
    progress.stage(label, games, k, of, word)
    return lambda i, block: progress.update(min((i + 1) * block, games))


def optuna_search(sc, spec: TuneSpec, study, jobs: int, echo, progress=None) -> list[dict]:
    """Run trials until ``spec.trials`` have finished; the rows of trials.csv."""
    import optuna
    from optuna.trial import TrialState

    knobs = spec.knobs(sc.players)
    start = start_values(sc, spec)
    n_blocks = max(1, spec.games // spec.block)
    while len(finished_trials(study)) < spec.trials:
        k = len(finished_trials(study))
        study.sampler = optuna.samplers.TPESampler(seed=(spec.seed + k) % 2**32,
                                                   n_startup_trials=STARTUP_TRIALS)
        if k == 0 and start is not None and not study.get_trials(
                deepcopy=False, states=(TrialState.WAITING,)):
            study.enqueue_trial({kn.name: kn.encode(start[kn.name]) for kn in knobs})
        trial = study.ask()
        values = {kn.name: kn.suggest(trial) for kn in knobs}
        same = _played_before(study, trial)
        if same is not None:  # TPE proposes a point again: its games would be the same games
            for key, v in same.user_attrs.items():
                trial.set_user_attr(key, v)
            trial.set_user_attr("games", 0)
            trial.set_user_attr("repeat_of", _index(study, same) + 1)
            study.tell(trial, same.value)
            echo(f"trial {k + 1}/{spec.trials}: trial {_index(study, same) + 1} again "
                 "(not replayed: the same candidate on the same deals)")
            continue

        tick = _stage(progress, "playing", spec.games, k, spec.trials, "trial")

        def on_block(i, res, trial=trial, values=values, tick=tick):
            if tick:
                tick(i, spec.block)
            tsc, changes = apply(sc, spec, values)
            v, _ = measure(tsc, spec, res.totals, res.agg, changes)
            trial.report(v, i)
            return i + 1 < n_blocks and trial.should_prune()

        value, parts, changes, blocks = evaluate(sc, spec, values, spec.seed, spec.games,
                                                 jobs, on_block)
        trial.set_user_attr("parts", parts)
        trial.set_user_attr("changes", changes)
        trial.set_user_attr("games", len(blocks) * spec.block)
        pruned = len(blocks) < n_blocks
        if pruned:
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, value)
        best = study.best_trial
        echo(f"trial {k + 1}/{spec.trials}: {describe(changes)}: objective {value:.2f}"
             + (f" (pruned after {len(blocks)}/{n_blocks} blocks)" if pruned else "")
             + f"; best so far {best.value:.2f} (trial {_index(study, best) + 1})")
    return trial_rows(study, knobs)


def _played_before(study, trial):
    """A complete trial with the same knob values as ``trial``, if any."""
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        if t.params == trial.params and t.number != trial.number:
            return t
    return None


def _index(study, trial) -> int:
    return [t.number for t in finished_trials(study)].index(trial.number)


def trial_rows(study, knobs) -> list[dict]:
    rows = []
    for i, t in enumerate(finished_trials(study)):
        parts = t.user_attrs["parts"]
        row = {"trial": i + 1, "state": t.state.name.lower(),
               "objective": t.value if t.value is not None else float("nan"),
               "games": t.user_attrs["games"], "change": describe(t.user_attrs["changes"]),
               "repeat_of": t.user_attrs.get("repeat_of", "")}
        for kn in knobs:
            v = t.params.get(kn.name)
            row[kn.name] = kn.choices[v] if kn.choices is not None and v is not None else v
        row.update(parts)
        row["_values"] = {kn.name: row[kn.name] for kn in knobs}
        row["_changes"] = t.user_attrs["changes"]
        rows.append(row)
    return rows


# --- seat compensation: a paired hill climb -------------------------------------------------

def first_guess(sc, totals, lo, hi) -> list[int]:
    """Seats 1..P-1 start with the mean-score gap to seat 0 added to what they have (the
    first-order suggestion of simsym.analysis.seats.compensation, seat 0 kept at 0)."""
    means = totals["seat_score"] / totals["games"][0]
    comp = np.array(sc.rules.seat_compensation or (0,) * sc.players, dtype=float)
    total = comp - comp[0] + (means[0] - means)
    return [int(min(hi, max(lo, round(v)))) for v in total[1:]]


def search_compensation(sc, spec: TuneSpec, jobs: int, echo, progress=None) -> list[dict]:
    """Hill climb over the compensation of seats 1..P-1 (seat 0 keeps 0) on the tuning deals:
    from the first guess, step to the first neighbour (one seat one point up or down; the
    weakest seat's step up and the strongest seat's step down are tried first) that lowers
    (objective, seat spread), until the targets are met or no neighbour is better; at most
    ``spec.trials`` vectors are played. The rows of trials.csv, one per vector played."""
    lo, hi = spec.compensation
    P = sc.players
    name = [f"seat_compensation[{i}]" for i in range(1, P)]
    seen: dict = {}
    rows: list[dict] = []

    def play(vec):
        vec = tuple(vec)
        if vec not in seen:
            values = dict(zip(name, vec))
            tick = _stage(progress, f"[0, {', '.join(map(str, vec))}]", spec.games,
                          len(rows), spec.trials, "vector (at most)")
            value, parts, changes, blocks = evaluate(
                sc, spec, values, spec.seed, spec.games, jobs,
                tick and (lambda i, res: tick(i, spec.block)))
            miss = value - spec.change_penalty * parts["changes"]
            totals = pooled(blocks)[0]
            seen[vec] = ((value, parts["seat_spread_pp"], sum(vec)), miss,
                         seat_metrics(totals, P)["win_rate"], totals)
            rows.append({"trial": len(rows) + 1, "state": "complete", "objective": value,
                         "games": len(blocks) * spec.block, "change": describe(changes),
                         **values, **parts, "_values": values, "_changes": changes})
            best = min(seen.values(), key=lambda x: x[0])[0]
            echo(f"vector {len(rows)}/{spec.trials} (at most): [0, {', '.join(map(str, vec))}]:"
                 f" seat spread {parts['seat_spread_pp']:.2f} pp, objective {value:.2f}; best "
                 f"so far {best[0]:.2f}")
        return seen[vec][0]

    start = start_values(sc, spec)
    current = tuple(start[n] for n in name) if start else (lo,) * (P - 1)
    play(current)
    guess = tuple(first_guess(sc, seen[current][3], lo, hi))
    if play(guess) < play(current):
        current = guess
    while len(rows) < spec.trials and seen[current][1] > 0:
        wr = seen[current][2]
        steps = sorted(((i, step) for i in range(P - 1) for step in (-1, 1)),
                       key=lambda x: x[1] * (wr[x[0] + 1] - 1 / P))  # weak up, strong down first
        for i, step in steps:
            v = list(current)
            v[i] += step
            if not lo <= v[i] <= hi or (tuple(v) not in seen and len(rows) >= spec.trials):
                continue
            if play(v) < play(current):
                current = tuple(v)
                break
        else:
            break
    return rows


# --- finishing: held-out finalists, then a paired confirmation ------------------------------

def candidates(rows: list[dict], start_vals, sc, spec) -> list[Candidate]:
    """Complete trials, best first, one per distinct change."""
    out, seen = [], set()
    for r in sorted((r for r in rows if r["state"] == "complete"),
                    key=lambda r: (r["objective"], r["off_centre"], r["trial"])):
        key = describe(r["_changes"])
        if key not in seen:
            seen.add(key)
            out.append(Candidate(f"trial {r['trial']}", r["_values"], r["_changes"],
                                 r["objective"]))
    return out


def finals(sc, spec: TuneSpec, rows, jobs: int, echo, progress=None):
    """Play the best ``finalists`` candidates and the start on held-out deals; the winner
    is the best there. Returns (finalist rows, winner Candidate, start Candidate); each row
    keeps its held-out games as a BatchedRun (``_run``)."""
    start = start_values(sc, spec)
    start_c = Candidate("start", start, {"cards": {}, "rules": {}}, math.nan)
    pool = candidates(rows, start, sc, spec)[:spec.finalists]
    if all(describe(c.changes) != "no change" for c in pool):
        pool.append(start_c)
    seed = spec.seed + HOLDOUT_SEED_OFFSET
    out = []
    for i, c in enumerate(pool):
        tsc, changes = _scenario_of(sc, spec, c)
        tick = _stage(progress, c.label, spec.holdout_games, i, len(pool), "finalist")
        blocks = play_blocks(tsc, spec.holdout_games, seed, spec.block, jobs,
                             tick and (lambda b, res, tick=tick: tick(b, spec.block)))
        value, parts = measure(tsc, spec, *pooled(blocks), changes)
        echo(f"finalist {i + 1}/{len(pool)} on {spec.holdout_games:,} held-out games: "
             f"{describe(changes)}: objective {value:.2f}")
        out.append({"candidate": c.label, "change": describe(changes),
                    "tuning_objective": c.value, "holdout_objective": value, **parts,
                    "_c": c, "_run": batched(tsc, blocks, seed)})
    winner = min(out, key=lambda r: (r["holdout_objective"], r["off_centre"],
                                     r["change"] != "no change"))
    return out, winner["_c"], start_c


def _scenario_of(sc, spec, c: Candidate):
    if c.values is None:  # the start, when its own values are outside the ranges searched
        return sc, {"cards": {}, "rules": {}}
    return apply(sc, spec, c.values)


def confirm(sc, spec: TuneSpec, winner: Candidate, jobs: int, games: int | None = None,
            on_block=None):
    """Start and winner on fresh deals (seed + 2): paired intervals over the blocks for the
    seat spread, each target's metric and the objective. ``games`` (default the budget's
    holdout_games; whole blocks, as run_tune rounds them); ``sc`` may be another table than
    the one tuned (the winner's changes apply to any). Returns the rows and the two runs
    (start, tuned), BatchedRuns of those games."""
    from simsym.studies.paired import card_metric, paired, seat_metric

    seed = spec.seed + CONFIRM_SEED_OFFSET
    games = games or spec.holdout_games
    tsc, changes = _scenario_of(sc, spec, winner)
    runs = [batched(s, play_blocks(s, games, seed, spec.block, jobs,
                                   on_block and (lambda i, res, k=k: on_block(k, i))), seed)
            for k, s in enumerate((sc, tsc))]
    A, B = runs
    rows = []

    def add(label, d, scale=100.0):
        rows.append({"metric": label, "start": scale * float(d.a), "tuned": scale * float(d.b),
                     "change": scale * float(d.diff), "lo": scale * float(d.lo),
                     "hi": scale * float(d.hi)})

    add("seat spread (pp)", _one(paired(seat_metric, A, B, {"name": "seat_gap"})))

    def dev(run, batch, kinds):
        v = card_metric(run, batch, "iwd")
        return v[kinds] - np.nanmean(v)

    if spec.iwd_band is not None:
        names = spec.iwd_cards or []
        for n in names:
            add(f"{n}: IWD minus the table average (pp)",
                _one(paired(dev, A, B, {"kinds": sc.cards.index(n)},
                            {"kinds": tsc.cards.index(n)})))
        if not names:
            def outside(run, batch):
                v = 100 * card_metric(run, batch, "iwd")
                return np.array([np.sum(np.abs(v - np.nanmean(v)) > 100 * spec.iwd_band)])

            add("cards outside the IWD band", _one(paired(outside, A, B)), 1.0)
    for n in spec.play_rate:
        add(f"{n}: play rate when held (%)",
            _one(paired(card_metric, A, B, {"name": "play_rate", "kinds": sc.cards.index(n)},
                        {"name": "play_rate", "kinds": tsc.cards.index(n)})))

    if spec.quality:
        from simsym.studies.paired import quality_metric

        for key, limit in spec.quality.items():
            i, k, lo, hi, unit = quality_limit(key, *limit)
            add(f"{QUALITY_KEYS[key]} ({unit})",
                _one(paired(lambda run, batch, i=i: quality_metric(run, batch)[i:i + 1],
                            A, B)), k)
            tuned = rows[-1]["tuned"]
            rows[-1]["limit"] = limit_words(lo, hi, unit)
            rows[-1]["held"] = bool((lo is None or tuned >= lo) and (hi is None or tuned <= hi))

    def objective(run, batch, s, ch):
        t = run.totals if batch is None else run.batch_totals[batch]
        a = run.agg if batch is None else run.batch_agg[batch]
        return np.array([measure(s, spec, t, a, ch)[0]])

    add("objective (per block; lower is better)",
        _one(paired(objective, A, B, {"s": sc, "ch": {"cards": {}, "rules": {}}},
                    {"s": tsc, "ch": changes})), 1.0)
    rows[-1]["pooled_start"] = measure(sc, spec, A.totals, A.agg, {"cards": {}, "rules": {}})[0]
    rows[-1]["pooled_tuned"] = measure(tsc, spec, B.totals, B.agg, changes)[0]
    return rows, (A, B)


# --- "Balanced?" of the start and of the winner ---------------------------------------------

def criterion_change(before: str, after: str) -> str:
    """What a change did to one criterion of "Balanced?" (states of
    simsym.analysis.balance): 'fixed' (to met), 'broke' (from met), 'unchanged', else
    'improved' (not met to not decided) or 'worsened' (not decided to not met)."""
    if before == after:
        return "unchanged"
    if after == MET:
        return "fixed"
    if before == MET:
        return "broke"
    return "improved" if after == UNDECIDED else "worsened"


def criteria_changes(start, tuned) -> dict[str, dict]:
    """Each criterion's state under the start and the tuned scenario (two
    simsym.analysis.balance.Balance) and what the change did to it."""
    states = {"cards": (start.cards_state, tuned.cards_state),
              "seats": (start.seats_state, tuned.seats_state)}
    return {name: {"start": a, "tuned": b, "change": criterion_change(a, b)}
            for name, (a, b) in states.items()}


def criteria_words(start, tuned) -> str:
    """``cards: not met → met (fixed); seats: met → met (unchanged)``."""
    return "; ".join(f"{name}: {c['start']} → {c['tuned']} ({c['change']})"
                     for name, c in criteria_changes(start, tuned).items())


def _one(d):
    from simsym.studies.paired import Diff

    return Diff(*(np.atleast_1d(x)[0] for x in (d.a, d.b, d.diff, d.lo, d.hi, d.p)))
