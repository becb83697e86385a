"""`simsym train SPEC`: a player learned from the `lookahead` search (expert iteration).

Round r plays ``games`` games at each table of the spec with the model of round r (round 0's
model is all zeros, which plays greedy's choice at every decision). At every decision of a
learned seat that has two or more candidates, the search (the teacher: lookahead with the
spec's budget) is run from the same state and its successive-halving values of every
candidate are kept beside their features, but the learned seat plays its *own* choice, so
the states labelled are the ones the learner reaches (DAgger). The model of round r + 1 is
fitted on every label so far: for each decision and phase of the game, a ridge regression of
each candidate's mean rollout value (in win shares) on its features, within decisions
(each decision's weighted means subtracted from its candidates: only the differences between
the candidates of one decision count), weighted by the candidate's rollouts.

Games whose index is a multiple of HOLDOUT_EVERY are never fitted on: the agreement with
the search's choice and the regret (the search's value of its choice minus its value of the
model's) are measured on them. Each round's model also plays ``eval_games`` games against
three greedy seats (rotate seating), on deals no round trains on.

Training starts from the zero model (greedy's choices) or from the spec's ``start:`` model, and
its teacher's rollouts play greedy or, under ``teacher.policy: learned``, every seat as the
round's model. Each round's model is a *generation*, counted on from the start model's (a model
trained from zero begins at generation 1), written as ``generations/generation-N.json``;
``model.json`` is the last. With a start model each round's model is also measured in one seat
against three of the start model.

Everything is deterministic: the games' streams come from (seed, round, table, game), the
labels are kept in chunk order and the fit sums in a fixed order, so the same spec and seed
give the same model file. Each round's labels and model are saved as the round ends
(``rounds/``), so an interrupted training resumes (``--resume``) at the first round missing.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from simsym.learned import model as M
from simsym.learned.features import DECISIONS, FEATURES, MODEL_SIZE, NF, NPHASE, WEIGHTS
from simsym.studies.refine import derived_seed
from simsym.studies.train_spec import TrainSpec

HOLDOUT_EVERY = 5
CHUNK = 10  # games a task labels
LABEL_ROWS_PER_TURN = 48  # room: a turn's decisions (four, and trade answers) x candidates
VALUE_UNIT = 1024 * 60  # a whole win in rollout value units (docs 6.6)
EVAL_SEED_SALT = 0xE7A1


def table_scenario(sc, table: str, learned_model: str, spec: TrainSpec, seed: int):
    """The scenario of one training table, its learned seats playing ``learned_model``."""
    from simsym.model.strategies import make_strategy

    ln = make_strategy({"family": "learned", "model": learned_model,
                        "candidates": spec.candidates})
    P = sc.players
    if table == "self":
        strategies, seating = [ln], "mirror"
    elif table == "greedy":
        strategies, seating = [ln] + [make_strategy("greedy")] * (P - 1), "rotate"
    else:
        la = make_strategy({"family": "lookahead", "iterations": 32})
        strategies, seating = [ln] + [la] * (P - 1), "rotate"
    return replace(sc, strategies=strategies, seating=seating, seed=seed)


def label_chunk(scenario, weights, iterations, g0, g1, turns=200, policy="greedy"):
    """Play games g0..g1-1 with labelling on: (labc rows, labf rows) of the learned seats'
    decisions, in play order. The search labels with ``iterations`` rollouts whose seats play
    greedy, or under ``policy`` "learned" the learned seat's model (``weights``). Room is made
    for ``turns`` turns a game; a chunk that needs more is played again a game at a time with
    room for the turn cap."""
    from simsym.core import enums as E
    from simsym.core import lookahead_nb as LA
    from simsym.engine.compiled import new_look, run_chunk, setup_for

    setup = setup_for(scenario)
    for i, s in enumerate(scenario.strategies):
        if s.family == "learned":
            setup.model[i] = weights
            setup.strat_params[i, E.SP.ITERATIONS] = iterations
            if policy == "learned":
                setup.strat_params[i, E.SP.POLICY] = E.POLICY.LEARNED
                setup.strat_params[i, E.SP.LEARNED] = i  # the rollouts play this model
            else:
                setup.strat_params[i, E.SP.POLICY] = E.POLICY.GREEDY
    room = LABEL_ROWS_PER_TURN * min(turns, scenario.rules.turn_cap) * max(g1 - g0, 1)
    lk = new_look(setup, setup.table(), label_rows=room)
    run_chunk(setup, g0, g1, look=lk)
    if lk.lab[LA.LAB.FULL]:
        if turns >= scenario.rules.turn_cap:
            raise RuntimeError(f"games {g0}..{g1 - 1} labelled more than {room} candidates")
        parts = [label_chunk(scenario, weights, iterations, g, g + 1,
                             scenario.rules.turn_cap, policy) for g in range(g0, g1)]
        return _join(parts)
    m = int(lk.lab[LA.LAB.N])
    return lk.labc[:m].copy(), lk.labf[:m].copy()


def _join(parts):
    """Label arrays of consecutive chunks as one, decisions numbered on."""
    from simsym.core.lookahead_nb import LC

    labc = [p[0] for p in parts]
    off = 0
    for c in labc:
        if len(c):
            c[:, LC.DEC] += off
            off = int(c[:, LC.DEC].max()) + 1
    return (np.concatenate(labc) if labc else np.zeros((0, LC.SIZE), np.int64),
            np.concatenate([p[1] for p in parts]) if parts else np.zeros((0, NF), np.int64))


# --- the fit ----------------------------------------------------------------------------------

def decision_starts(labc) -> np.ndarray:
    """The first row of each decision (rows of one decision are consecutive)."""
    from simsym.core.lookahead_nb import LC

    return np.flatnonzero(labc[:, LC.CAND] == 0)


def _within(x, w, starts):
    """x minus its decision's w-weighted mean, row by row."""
    sw = np.add.reduceat(w, starts)
    if x.ndim == 1:
        mean = np.add.reduceat(x * w, starts) / sw
    else:
        mean = np.add.reduceat(x * w[:, None], starts, axis=0) / sw[:, None]
    counts = np.diff(np.append(starts, len(w)))
    return x - np.repeat(mean, counts, axis=0)


def fit(labc, labf, ridge: float, least_gain: float = 0.0) -> np.ndarray:
    """The model's integer weights (MODEL_SIZE,) fitted on the labelled candidates, with
    ``least_gain`` (win shares) as its least gain."""
    from simsym.core.lookahead_nb import LC

    weights = np.zeros((len(DECISIONS), NPHASE, NF))
    gain = int(round(least_gain * M.SCALE))
    if len(labc) == 0:
        return np.append(np.zeros(WEIGHTS, np.int64), gain)
    starts = decision_starts(labc)
    w = labc[:, LC.COUNT].astype(np.float64)
    v = labc[:, LC.TOTAL] / np.maximum(labc[:, LC.COUNT], 1) / VALUE_UNIT
    X = _within(labf.astype(np.float64), w, starts)
    y = _within(v, w, starts)
    for d in range(len(DECISIONS)):
        for p in range(NPHASE):
            sel = (labc[:, LC.KIND] == d) & (labc[:, LC.PHASE] == p)
            if sel.sum() < 2 * NF:
                continue
            Xs, ys, ws = X[sel], y[sel], w[sel]
            # Sums in a fixed order (einsum, not BLAS): the same bytes on every run.
            G = np.einsum("ij,ik,i->jk", Xs, Xs, ws)
            b = np.einsum("ij,i,i->j", Xs, ys, ws)
            scale = np.sqrt(np.maximum(np.diag(G), 1e-12))
            A = G / np.outer(scale, scale) + ridge * np.eye(NF)
            beta = np.linalg.solve(A, b / scale) / scale
            beta[np.diag(G) <= 1e-12] = 0.0  # a feature that never varies here
            weights[d, p] = beta
    return np.append(np.round(weights.reshape(WEIGHTS) * M.SCALE).astype(np.int64), gain)


def evaluate_labels(labc, labf, weights) -> dict:
    """Agreement with the search's choice and regret (in win shares) of ``weights`` on
    labelled decisions."""
    from simsym.core.lookahead_nb import LC

    if len(labc) == 0:
        return {"decisions": 0, "agreement": None, "regret": None}
    from simsym.learned.features import choose

    starts = decision_starts(labc)
    gain = int(weights[WEIGHTS])
    W = np.asarray(weights, np.int64)[:WEIGHTS].reshape(len(DECISIONS) * NPHASE, NF)
    block = labc[:, LC.KIND] * NPHASE + labc[:, LC.PHASE]
    score = np.einsum("ij,ij->i", W[block], labf)
    v = labc[:, LC.TOTAL] / np.maximum(labc[:, LC.COUNT], 1) / VALUE_UNIT
    ends = np.append(starts[1:], len(labc))
    agree, regret = 0, 0.0
    for a, b in zip(starts, ends):
        c = a + choose([int(x) for x in score[a:b]], gain)  # as the player chooses
        t = a + int(np.argmax(labc[a:b, LC.TEACHER]))
        agree += c == t
        regret += v[t] - v[c]
    n = len(starts)
    return {"decisions": n, "agreement": agree / n, "regret": regret / n}


# --- the rounds -------------------------------------------------------------------------------

def _spec_key(sc, spec: TrainSpec) -> str:
    from simsym.run.cache import code_hash

    cards = [(c.name, c.text, c.copies) for c in sc.cards]
    return hashlib.sha256(json.dumps([spec.as_dict(), cards, repr(sc.rules), sc.players,
                                      code_hash()], sort_keys=True, default=str).encode()
                          ).hexdigest()[:16]


def _save_npz(path: Path, **arrays):
    from simsym.run.output import atomic_write

    def write(f):
        np.savez(f, **arrays)
    atomic_write(path, write, binary=True)


def strength(sc, model_file: Path, games: int, seed: int, jobs: int,
             against: str | None = None) -> dict:
    """The learned seat's win share against P - 1 greedy seats, or P - 1 seats of the model
    file ``against`` (rotate seating)."""
    from simsym.analysis.stats import wilson
    from simsym.model.strategies import make_strategy
    from simsym.run.executor import run_games

    games -= games % sc.players
    if games <= 0:
        return {"games": 0, "win_share": None, "ci95": None}
    ln = make_strategy({"family": "learned", "model": str(model_file)})
    other = make_strategy("greedy" if against is None else
                          {"family": "learned", "model": str(against)})
    ev = replace(sc, strategies=[ln] + [other] * (sc.players - 1), seating="rotate")
    totals, _ = run_games(ev, games, seed, jobs=jobs)
    wins = float(totals["strat_wins"][0]) / 60
    n = int(totals["strat_games"][0])
    lo, hi = wilson(wins, n)
    return {"games": n, "win_share": wins / n, "ci95": [float(lo), float(hi)]}


def run_train(sc, spec: TrainSpec, out: Path, *, jobs: int, resume: bool, echo,
              force: bool = False) -> Path:
    """Train; write out/model.json, out/train.json and out/train.md. Returns model.json."""
    from simsym.core.lookahead_nb import LC
    from simsym.run.executor import map_tasks
    from simsym.run.output import atomic_write_text, write_json
    from simsym.run.progress import Progress

    rounds_dir = out / "rounds"
    rounds_dir.mkdir(parents=True, exist_ok=True)
    key = _spec_key(sc, spec)
    manifest = rounds_dir / "manifest.json"
    from simsym.errors import SimsymError

    if manifest.exists() and resume:
        if json.loads(manifest.read_text()).get("key") != key:
            raise SimsymError(f"{out} holds a training of another spec, seed or simsym; "
                              "start over with --force")
    elif manifest.exists() and not force:
        raise SimsymError(f"{out} holds a training already: --resume to go on with it, "
                          "--force to start over")
    else:
        for f in rounds_dir.glob("*"):
            f.unlink()
        write_json(manifest, {"key": key, "spec": spec.as_dict()})
    weights = (M.load(spec.start_path) if spec.start_path else
               np.zeros(MODEL_SIZE, np.int64))
    # each round's model is a generation, counted on from the model training starts from
    first = (M.generation_of(spec.start_path) if spec.start_path else 0) + 1
    generations = out / "generations"
    generations.mkdir(exist_ok=True)
    for stale in generations.glob("generation-*.json"):
        stale.unlink()  # of an older training in this folder
    labc_all, labf_all, history = [], [], []
    t_start = time.perf_counter()
    for r in range(spec.rounds):
        data = rounds_dir / f"round-{r}.npz"
        info_file = rounds_dir / f"round-{r}.json"
        if data.exists():
            with np.load(data) as z:
                labc, labf, seconds = z["labc"], z["labf"], float(z["seconds"])
            echo(f"round {r + 1}/{spec.rounds}: labels resumed")
        else:
            t0 = time.perf_counter()
            model_file = rounds_dir / f"model-{r}.json"
            atomic_write_text(model_file, M.dumps(weights, {"round": r}))
            labc, labf = _label_round(sc, spec, r, weights, model_file, jobs, echo,
                                      Progress, map_tasks)
            seconds = round(time.perf_counter() - t0, 1)
            _save_npz(data, labc=labc, labf=labf, seconds=np.float64(seconds))
        labc_all.append(labc)
        labf_all.append(labf)
        C, F = np.concatenate(labc_all), np.concatenate(labf_all)
        hold = (C[:, LC.GAME] % HOLDOUT_EVERY) == 0
        new = fit(C[~hold], F[~hold], spec.ridge, spec.least_gain)
        if info_file.exists():
            info = json.loads(info_file.read_text())
        else:
            t1 = time.perf_counter()
            mfile = rounds_dir / f"model-{r + 1}.json"
            atomic_write_text(mfile, M.dumps(new, {"round": r + 1}))
            info = {"round": r, "decisions": int(len(decision_starts(labc))),
                    "candidates": int(len(labc)), "seconds": seconds,
                    "held_out": evaluate_labels(C[hold], F[hold], new),
                    "held_out_before": evaluate_labels(C[hold], F[hold], weights),
                    "strength": strength(sc, mfile, spec.eval_games,
                                         derived_seed(spec.seed, EVAL_SEED_SALT), jobs)}
            if spec.start_path:
                info["against_start"] = strength(sc, mfile, spec.eval_games,
                                                 derived_seed(spec.seed, EVAL_SEED_SALT, 1), jobs,
                                                 against=spec.start_path)
            info["eval_seconds"] = round(time.perf_counter() - t1, 1)
            write_json(info_file, info)
        s = info["strength"]
        echo(f"round {r + 1}/{spec.rounds}: {info['decisions']:,} decisions labelled; "
             f"held-out agreement {_pct(info['held_out']['agreement'])}, regret "
             f"{_num(info['held_out']['regret'])}; vs 3 greedy "
             f"{_num(s['win_share'])} over {s['games']:,} games"
             + (f"; vs 3 of the start model {_num(info['against_start']['win_share'])}"
                if "against_start" in info else ""))
        history.append(info)
        weights = new
        info["generation"] = first + r
        text = _generation(generations, first + r, weights, spec, sc, history)
    refined = None
    if spec.refine is not None:
        from simsym.studies.refine import refine_model

        weights, refined = refine_model(sc, spec, weights, jobs=jobs, echo=echo, out=out,
                                        rounds=rounds_dir, resume=resume)
        refined["generation"] = first + spec.rounds  # one generation more
        text = _generation(generations, first + spec.rounds, weights, spec, sc, history)
    path = out / "model.json"
    atomic_write_text(path, text)  # the last generation
    write_json(out / "train.json", {"scenario": sc.name, "spec": spec.as_dict(),
                                    "rounds": history,
                                    **({"refine": refined} if refined is not None else {}),
                                    "seconds": round(time.perf_counter() - t_start, 1)})
    atomic_write_text(out / "train.md", report_md(sc, spec, history, weights, refined))
    return path


def _generation(folder: Path, g: int, weights, spec, sc, history) -> str:
    """Write generation ``g`` (its model file) into ``folder``; returns its text."""
    from simsym.run.output import atomic_write_text

    text = M.dumps(weights, {"spec": spec.as_dict(), "scenario": sc.name, "generation": g,
                             "decisions": sum(h["decisions"] for h in history),
                             "features": len(FEATURES)})
    atomic_write_text(folder / f"generation-{g}.json", text)
    return text


def _label_round(sc, spec, r, weights, model_file, jobs, echo, Progress, map_tasks):
    tasks = []
    for t, table in enumerate(spec.tables):
        seed = derived_seed(spec.seed, r, table)
        tsc = table_scenario(sc, table, str(model_file), spec, seed)
        games = spec.games - spec.games % (sc.players if tsc.seating == "rotate" else 1)
        for g0 in range(0, games, CHUNK):
            tasks.append((tsc, weights, spec.iterations, g0, min(games, g0 + CHUNK),
                          spec.policy))
    total = sum(t[4] - t[3] for t in tasks)
    results = {}
    progress = Progress(total, enabled=_tty())
    done = [0]

    def take(res):
        i, labc, labf, n = res
        results[i] = (labc, labf)
        done[0] += n
        progress.update(done[0])

    echo(f"round {r + 1}/{spec.rounds}: labelling {total:,} games "
         f"({', '.join(spec.tables)} tables; search of {spec.iterations} rollouts)")
    map_tasks(_task, [(i, *t) for i, t in enumerate(tasks)], take, jobs)
    progress.close()
    return _join([results[i] for i in range(len(tasks))])


def _task(i, scenario, weights, iterations, g0, g1, policy):
    labc, labf = label_chunk(scenario, weights, iterations, g0, g1, policy=policy)
    return i, labc, labf, g1 - g0


def _tty() -> bool:
    import sys

    return sys.stderr.isatty()


def _pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x):
    return "-" if x is None else f"{x:.3f}"


def _share(s) -> str:
    ci = f" ({s['ci95'][0]:.3f}-{s['ci95'][1]:.3f})" if s["ci95"] else ""
    return f"{_num(s['win_share'])}{ci}"


def report_md(sc, spec: TrainSpec, history: list, weights, refined=None) -> str:
    lines = [f"# A player learned from the search: {sc.name}", "",
             f"Teacher: `lookahead` with {spec.iterations} rollouts a decision, at most "
             f"{spec.candidates} candidates. {spec.rounds} rounds of {spec.games:,} games at "
             f"each table ({', '.join(spec.tables)}); ridge {spec.ridge}; least gain "
             f"{spec.least_gain} win shares; seed {spec.seed}"
             + (f"; teacher's rollouts: {spec.policy}" if spec.policy != "greedy" else "")
             + (f"; starts from {spec.start}" if spec.start else "") + ".",
             "", "Strength: the round's new model in one seat against "
             f"{sc.players - 1} greedy seats (rotate seating, the fair share is "
             f"{1 / sc.players:.2f}). Agreement and regret: on held-out decisions (games "
             f"whose index is a multiple of {HOLDOUT_EVERY}, never fitted on), the model's "
             "choice against the search's; regret is the search's value of its own choice "
             "minus its value of the model's, in win shares.", "",
             "| round | generation | decisions labelled | agreement | regret | agreement, "
             "model before | win share vs greedy (95% CI) |"
             + (" win share vs the start model (95% CI) |" if spec.start else "")
             + " labelling s | evaluation s |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | --- |" + (" --- |" if spec.start else "")
             + " ---: | ---: |"]
    for h in history:
        vs = [h["strength"]] + ([h["against_start"]] if spec.start else [])
        cells = " | ".join(_share(s) for s in vs)
        lines.append(f"| {h['round'] + 1} | {h['generation']} | {h['decisions']:,} | "
                     f"{_pct(h['held_out']['agreement'])} | {_num(h['held_out']['regret'])} | "
                     f"{_pct(h['held_out_before']['agreement'])} | {cells} | "
                     f"{h.get('seconds', '-')} | {h.get('eval_seconds', '-')} |")
    if not history:  # rounds 0: the start model, refined below
        lines = lines[:2] + [f"No rounds of expert iteration: the start model ({spec.start}) "
                             f"as it is; seed {spec.seed}."]
    if refined is not None:
        from simsym.studies.refine import report_lines

        lines += report_lines(sc, spec, refined)
    lines += ["", "The model's weights (win shares per unit of feature, x1000), by decision, "
              "for the last phase of the game (draws stopped) and the first:", ""]
    W = np.asarray(weights)[:WEIGHTS].reshape(len(DECISIONS), NPHASE, NF) / M.SCALE * 1000
    lines.append("| feature | " + " | ".join(f"{d}, first / last" for d in DECISIONS) + " |")
    lines.append("| --- |" + " ---: |" * len(DECISIONS))
    for j, f in enumerate(FEATURES):
        lines.append(f"| {f} | " + " | ".join(f"{W[d, 0, j]:.2f} / {W[d, -1, j]:.2f}"
                                               for d in range(len(DECISIONS))) + " |")
    return "\n".join(lines) + "\n"
