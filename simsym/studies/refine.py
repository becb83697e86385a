"""Refining a learned model by direct policy search on its weights (`train.refine`).

Expert iteration fits the model to the search's values; refining instead tunes the weights
for what counts, winning: an evolution strategy with mirrored samples (antithetic pairs)
around the current weights, each candidate playing one seat against the other seats of the
opponents (rotate seating), its fitness its win share over all its games. Every candidate of a
step plays the same deals (common random numbers: game indices ``step x games``
on), so the difference between the two candidates of a pair is measured with little noise;
the next step's weights move along the pairs' perturbations, weighted by their
differences of win share divided by the spread of those differences.

The search runs in standardised coordinates: weight ``j`` is ``start[j] + scale[j] x z[j]``,
``scale[j]`` the size of the start model's weight (at least a quarter of the typical size of
that feature's weights across decisions and phases); a weight that is zero in the start model
(a feature that never varies in that decision) stays zero. The least gain is searched with
its own scale.

Deterministic: perturbations come from numpy's PCG64 seeded with the spec's seed, games from
fixed seeds and indices, fitnesses are integer win units gathered in candidate order, and the
update sums in a fixed order; the same spec gives the same model file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

import numpy as np

from simsym.learned.features import DECISIONS, NF, NPHASE, WEIGHTS


@dataclass(frozen=True)
class RefineSpec:
    steps: int = 60
    pairs: int = 12  # antithetic pairs a step (2 x pairs candidates)
    games: int = 2000  # games each candidate plays against the opponent model
    greedy_games: int = 800  # and against greedy seats
    sigma: float = 0.2  # the perturbation, in units of each weight's scale
    step: float = 0.08  # the update's size, in the same units
    opponent: str = "start"  # the other seats: the start model, or "current" (self-play)
    eval_games: int = 8000
    seed: int = 1

    def as_dict(self) -> dict:
        return {"steps": self.steps, "pairs": self.pairs, "games": self.games,
                "greedy_games": self.greedy_games, "sigma": self.sigma, "step": self.step,
                "opponent": self.opponent, "eval_games": self.eval_games, "seed": self.seed}


def derived_seed(*xs) -> int:
    """A seed from values (their repr's sha256): the streams of a training and its refine."""
    h = hashlib.sha256(repr(xs).encode()).digest()
    return int.from_bytes(h[:8], "little") >> 1


def weight_scale(start: np.ndarray) -> np.ndarray:
    """Each searched weight's scale (0: not searched), least gain last."""
    W = np.abs(start[:WEIGHTS].reshape(len(DECISIONS) * NPHASE, NF)).astype(np.float64)
    scale = np.zeros_like(W)
    for j in range(NF):
        col = W[:, j]
        nz = col[col > 0]
        if len(nz) == 0:
            continue
        floor = 0.25 * float(np.sort(nz)[len(nz) // 2])
        scale[:, j] = np.where(col > 0, np.maximum(col, floor), 0.0)
    gain_scale = max(float(start[WEIGHTS]), 1024.0)
    return np.append(scale.reshape(WEIGHTS), gain_scale)


def weights_at(start: np.ndarray, scale: np.ndarray, z: np.ndarray) -> np.ndarray:
    """The integer model at standardised point z."""
    w = np.round(start.astype(np.float64) + scale * z).astype(np.int64)
    w[WEIGHTS] = max(0, int(w[WEIGHTS]))
    return w


# --- playing, in this process or a worker -----------------------------------------------------

_SETUPS: dict = {}


def table_setup(sc, against: str, seed: int):
    """The compiled setup of one candidate seat (strategy row 0) against P - 1 seats of
    ``against``: "greedy" or "model" (rows 1.. get their weights per call)."""
    key = (sc.name, sc.players, repr(sc.rules),
           tuple((c.name, c.text, c.copies) for c in sc.cards), against, seed)
    setup = _SETUPS.get(key)
    if setup is None:
        from simsym.engine.compiled import setup_for
        from simsym.model.strategies import make_strategy

        ln = make_strategy({"family": "learned"})
        other = make_strategy("greedy") if against == "greedy" else ln
        ev = replace(sc, strategies=[ln] + [other] * (sc.players - 1), seating="rotate",
                     seed=seed)
        setup = _SETUPS[key] = setup_for(ev)
    return setup


def play_units(sc, against: str, seed: int, weights, opponent, g0: int, g1: int) -> int:
    """Win units (60 a win) of the seat playing ``weights`` over games g0..g1-1 against
    ``against`` seats (``opponent``'s weights when a model)."""
    from simsym.core import enums as E
    from simsym.engine.compiled import run_chunk
    from simsym.run.aggregate import win_units

    setup = table_setup(sc, against, seed)
    setup.model[0] = weights
    if against != "greedy":
        for i in range(1, sc.players):
            setup.model[i] = opponent
    rows, _ = run_chunk(setup, g0, g1)
    P, F = sc.players, E.ROW.FIXED
    units = win_units(rows[:, F:F + P])
    return int(units[rows[:, F + P:F + 2 * P] == 0].sum())


def _task(i, sc, against, seed, weights, opponent, g0, g1):
    return i, play_units(sc, against, seed, weights, opponent, g0, g1)


def _split(games: int, parts: int, players: int):
    """games (a multiple of players) in about ``parts`` ranges of whole deals."""
    deals = games // players
    step = max(1, -(-deals // parts))
    return [(d * players, min(deals, d + step) * players) for d in range(0, deals, step)]


def _score(pool, sc, cands, opponent, g_base, games, greedy_games, seeds, jobs):
    """Each candidate's win units over its games against the opponent and greedy seats,
    played in ``pool`` (simsym.run.executor.TaskPool)."""
    P = sc.players
    tasks, owner = [], []
    per = max(1, 2 * jobs // max(1, len(cands)))  # split games when candidates are few
    for c, w in enumerate(cands):
        for against, n, seed in (("model", games, seeds[0]), ("greedy", greedy_games,
                                                               seeds[1])):
            n -= n % P
            if n <= 0:
                continue
            for a, b in _split(n, per, P):
                tasks.append((len(tasks), sc, against, seed, w, opponent, g_base + a,
                              g_base + b))
                owner.append(c)
    units = [0] * len(tasks)

    def take(res):
        i, u = res
        units[i] = u

    pool.map(_task, tasks, take)
    total = [0] * len(cands)
    for t, u in enumerate(units):
        total[owner[t]] += u
    return total


@dataclass
class State:
    """The search between two steps: steps done, the standardised point z, the
    random generator's state (numpy's PCG64, as a dict) and the history so far."""

    done: int
    z: np.ndarray
    rng: dict
    history: list

    def to_json(self) -> dict:
        """Exact: z's floats as hex, so a state read back is the state written."""
        return {"done": self.done, "z": [float(x).hex() for x in self.z], "rng": self.rng,
                "history": self.history}

    @classmethod
    def from_json(cls, d: dict) -> "State":
        return cls(int(d["done"]), np.array([float.fromhex(x) for x in d["z"]], np.float64),
                   d["rng"], list(d["history"]))

    def digest(self) -> str:
        """A short fingerprint of z and the generator (what a later step starts from)."""
        h = hashlib.sha256(np.ascontiguousarray(self.z, np.float64).tobytes())
        h.update(repr(sorted(self.rng["state"].items())).encode())
        return h.hexdigest()[:16]


def first_state(start: np.ndarray, spec: RefineSpec) -> State:
    """Where the search starts: z = 0 (the start model), the generator seeded by the spec."""
    rng = np.random.Generator(np.random.PCG64(spec.seed))
    return State(0, np.zeros(len(weight_scale(np.asarray(start, np.int64)))),
                 rng.bit_generator.state, [])


def step(sc, start: np.ndarray, spec: RefineSpec, state: State, pool, jobs: int,
         echo) -> State:
    """One step of the search from ``state``: its candidates played on the
    step's deals, z moved along the pairs' directions; every tenth step and the
    last also measured on held-out deals."""
    from simsym.analysis.stats import wilson

    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = state.rng
    start = np.asarray(start, np.int64)
    scale = weight_scale(start)
    active = np.flatnonzero(scale > 0)
    z = state.z
    P = sc.players
    seeds = (derived_seed(spec.seed, "model"), derived_seed(spec.seed, "greedy"))
    held = (derived_seed(spec.seed, "held-out model"),
            derived_seed(spec.seed, "held-out greedy"))
    per_gen = max(spec.games, spec.greedy_games)
    per_gen += (-per_gen) % P
    gen = state.done
    current = weights_at(start, scale, z)
    opponent = start if spec.opponent == "start" else current
    eps = np.zeros((spec.pairs, len(scale)))
    eps[:, active] = rng.standard_normal((spec.pairs, len(active)))
    cands = []
    for k in range(spec.pairs):
        cands.append(weights_at(start, scale, z + spec.sigma * eps[k]))
        cands.append(weights_at(start, scale, z - spec.sigma * eps[k]))
    units = _score(pool, sc, cands, opponent, gen * per_gen, spec.games,
                   spec.greedy_games, seeds, jobs)
    n_games = (spec.games - spec.games % P) + (spec.greedy_games - spec.greedy_games % P)
    diff = np.array([units[2 * k] - units[2 * k + 1] for k in range(spec.pairs)],
                    np.float64)
    spread = float(np.sqrt(np.mean(diff * diff)))
    if spread > 0:
        g = np.zeros(len(scale))
        for k in range(spec.pairs):  # fixed order
            g += (diff[k] / spread) * eps[k]
        z = z + spec.step * g / spec.pairs
    entry = {"step": gen + 1,
             "candidates_mean": sum(units) / len(units) / 60 / n_games,
             "candidates_best": max(units) / 60 / n_games,
             "pair_spread": spread / 60 / n_games,
             "step_norm": float(np.sqrt(np.sum((spec.step * g / spec.pairs) ** 2)))
             if spread > 0 else 0.0}
    if (gen + 1) % 10 == 0 or gen + 1 == spec.steps:
        w = weights_at(start, scale, z)
        ev = spec.eval_games - spec.eval_games % P
        (u_model, u_greedy) = [
            _score(pool, sc, [w], start, 0, ev if k == 0 else 0,
                   ev if k == 1 else 0, held, jobs)[0] for k in (0, 1)]
        for name, u in (("vs_start", u_model), ("vs_greedy", u_greedy)):
            lo, hi = wilson(u / 60, ev)
            entry[name] = {"games": ev, "win_share": u / 60 / ev,
                           "ci95": [float(lo), float(hi)]}
        echo(f"refine step {gen + 1}/{spec.steps}: held-out win share vs 3 of the "
             f"start model {entry['vs_start']['win_share']:.3f}, vs 3 greedy "
             f"{entry['vs_greedy']['win_share']:.3f}")
    return State(gen + 1, z, rng.bit_generator.state, [*state.history, entry])


def refine(sc, start: np.ndarray, spec: RefineSpec, *, jobs: int, echo,
           on_step=None, state: State | None = None) -> tuple[np.ndarray, list]:
    """The refined model (MODEL_SIZE,) int64 and the search's history (one entry per
    step; every tenth and the last also measured on held-out deals), from ``state``
    (a search cut off) or the start; ``on_step(state)`` after each step."""
    from simsym.run.executor import task_pool

    start = np.asarray(start, np.int64)
    state = state or first_state(start, spec)
    with task_pool(jobs) as pool:  # one pool for the whole search: its workers keep setups
        while state.done < spec.steps:
            state = step(sc, start, spec, state, pool, jobs, echo)
            if on_step is not None:
                on_step(state)
    return weights_at(start, weight_scale(start), state.z), state.history


# --- simsym train's hook ----------------------------------------------------------------------

PATH_JSON = "refine-path.json"  # the search's trajectory, beside train.json


def refine_model(sc, spec, weights, *, jobs: int, echo, out=None,
                 rounds=None, resume: bool = False) -> tuple[np.ndarray, dict]:
    """`train.refine` (spec: a TrainSpec with a refine block): the refined weights and what
    train.json keeps of the search (its settings, history and seconds).

    With ``rounds`` (the training's rounds/ folder) the state after each step is kept
    there (refine-state.json), so that ``resume`` goes on from the last step done.
    With ``out``, the search's path is written there (refine-path.json): each step's
    digest, and the whole state at the start, every tenth step and the one before the
    last, from which any stretch of the search can be played again and checked."""
    import json
    import time

    from simsym.run.output import write_json

    rs = RefineSpec(**spec.refine, seed=derived_seed(spec.seed, "refine"))
    state = first_state(weights, rs)
    path = {"digests": [state.digest()], "states": {"0": state.to_json()}}
    keep = rounds / "refine-state.json" if rounds is not None else None
    if resume and keep is not None and keep.exists():
        saved = json.loads(keep.read_text())
        state, path = State.from_json(saved["state"]), saved["path"]
        echo(f"refine: resumed after step {state.done}")

    def checkpoint(st: State):
        path["digests"].append(st.digest())
        if st.done % 10 == 0 or st.done >= rs.steps - 1:
            path["states"][str(st.done)] = st.to_json()
        if keep is not None:
            write_json(keep, {"state": st.to_json(), "path": path})

    echo(f"refine: {rs.steps} steps of {2 * rs.pairs} candidates, each "
         f"{rs.games:,} games against the {rs.opponent} model and {rs.greedy_games:,} "
         "against greedy")
    t0 = time.perf_counter()
    new, history = refine(sc, weights, rs, jobs=jobs, echo=echo, on_step=checkpoint,
                          state=state)
    if out is not None:
        write_json(out / PATH_JSON, {"settings": rs.as_dict(), **path})
    return new, {"settings": rs.as_dict(), "history": history,
                 "seconds": round(time.perf_counter() - t0, 1)}


def replay(sc, start: np.ndarray, spec, path: dict, done: int, jobs: int = 1) -> State:
    """Play step ``done`` + 1 of a search again from its recorded state (``path``:
    refine-path.json's content); the state it reaches."""
    from simsym.run.executor import task_pool

    rs = RefineSpec(**path["settings"])
    with task_pool(jobs) as pool:
        return step(sc, start, rs, State.from_json(path["states"][str(done)]), pool, jobs,
                    lambda _: None)


def report_lines(sc, spec, refined: dict) -> list[str]:
    """train.md's section on the search: its held-out measures, step by step."""
    rs = refined["settings"]
    P = sc.players
    lines = ["", "## Refined by direct search on the weights", "",
             f"{rs['steps']} steps of {rs['pairs']} mirrored pairs (sigma "
             f"{rs['sigma']}, step {rs['step']}); each candidate played {rs['games']:,} games "
             f"in one seat against {P - 1} seats of the {rs['opponent']} model and "
             f"{rs['greedy_games']:,} against {P - 1} greedy seats, a step's candidates "
             f"on the same deals; {refined['seconds']} s. Held out: {rs['eval_games']:,} games "
             "on deals no step played.", "",
             "| step | candidates' mean | win share vs the start model (95% CI) "
             "| win share vs greedy (95% CI) |", "| ---: | ---: | --- | --- |"]

    def cell(m):
        return f"{m['win_share']:.3f} ({m['ci95'][0]:.3f}-{m['ci95'][1]:.3f})"
    for h in refined["history"]:
        if "vs_start" in h:
            lines.append(f"| {h['step']} | {h['candidates_mean']:.3f} | "
                         f"{cell(h['vs_start'])} | {cell(h['vs_greedy'])} |")
    return lines
