"""`simsym ladder`: every strategy meets every other on the same duplicate deals, and is rated.

**Tables.** For each pair {A, B} of the S entrants there is a table of P seats alternating
A, B, A, B, ... in `rotate` seating: game g plays deal g // P with the seats rotated by
g % P, so over the P games of a deal each strategy sits in every seat and seat luck cancels.
With an odd P a second table B, A, B, ... plays the same deals, so neither strategy holds
more seats than the other in total. Every pair plays the same deals 0..D-1 from the same
seed: pairs differ only in who sits at the table, not in the cards. S(S-1)/2 pairs, each
playing ``games`` games (D deals of P games, or of 2P with an odd P).

**A game's result** for a pair: the win units of A's seats and of B's seats (60 a win,
split evenly between tied winners, as everywhere in simsym). A's **win share** against B is
its units / 60, averaged over the pair's games; 0.5 is even.

**Ratings.** Three views of the same games:

- *openskill* (the headline `rating`, `lo`, `hi`): the Weng-Lin Bayesian Plackett-Luce
  model updated game by game, each game a two-team match ranked by the win units (equal
  units: a tie). ``tau`` is 0 because a strategy's strength does not drift. The online
  update depends on the order of the games, so the games go through in a seeded random
  order that interleaves all pairs, each counted once (passing the same games several times
  through one rating would shrink sigma for nothing); this is done ORDERS times from the
  prior, each in its own order, and mu is their mean (``order_sd``: how far one order
  moves it). Interval: mu +- 1.96 sigma. openskill's sigma shrinks cautiously by design
  (its gamma factor), so this interval is wider than the bootstrap's.
- *batch fit*: the maximum-likelihood Bradley-Terry fit (Plackett-Luce with two teams) of
  the same results, by choix, with win shares as fractional wins and half a win each way per
  pair as a prior (keeps a strategy that never wins finite). It is put on openskill's scale:
  for two teams openskill's model says P(A beats B) = 1 / (1 + exp(-(mu_A - mu_B) / c)) with
  c = sqrt(2) beta once sigma is small, so ``batch_rating = 25 + c theta``.
- *bootstrap over deals* (the batch fit's interval, the head-to-head intervals and the
  significance of the ladder's steps): deals are resampled with replacement, the same draw
  for every pair (a deal's rotated games are correlated, and every pair shares the deals),
  and everything is refitted, 1,000 times.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

import numpy as np

from simsym.core import enums as E
from simsym.errors import InputError, SimsymError
from simsym.model.scenario import file_of
from simsym.model.yamlio import line_of
from simsym.run.aggregate import win_units

SALT = 0x1ADDE5  # keeps the rating order and the bootstrap apart from the game streams
BOOTSTRAP = 1000
ORDERS = 8  # openskill passes, each in its own seeded random order of the games
Z95 = 1.959963984540054
TINY = 1e-6  # rating points: differences below are floating-point noise
PRIOR_WINS = 0.5  # per pair and direction, in the batch fit
MU, BETA = 25.0, 25.0 / 6.0  # openskill's defaults
SCALE = math.sqrt(2) * BETA  # openskill's c for two teams of settled ratings


@dataclass(frozen=True)
class Table:
    first: int  # entrant in seats 0, 2, 4, ... of rotation 0
    second: int
    pair: int  # index into pairs(S)


def pairs(S: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(S), 2))


def tables_for(S: int, P: int) -> list[Table]:
    """One table a pair, two (both seat orders) when P is odd."""
    out = []
    for k, (i, j) in enumerate(pairs(S)):
        out.append(Table(i, j, k))
        if P % 2:
            out.append(Table(j, i, k))
    return out


def deal_games(P: int) -> int:
    """Games a pair plays on one deal: every rotation, at both tables when P is odd."""
    return P if P % 2 == 0 else 2 * P


# --- input ---------------------------------------------------------------------------------

def entrants(scenario) -> list:
    """The ladder's strategies: `ladder.strategies`, else a judged scenario's two judges (fast
    then strong: how far apart they play), else `strategies`; checked for the numba engine.
    Labels are made unique (a second `greedy` is `greedy #2`)."""
    raw = scenario.raw
    spec, key = (raw.get("ladder"), "ladder.strategies") if scenario.ladder else \
        (raw, "judges") if scenario.judges else (raw, "strategies")
    file, line = file_of(spec, key.split(".")[-1], scenario.path), \
        line_of(spec, key.split(".")[-1])
    entries = scenario.ladder or (
        [scenario.judges["fast"], scenario.judges["strong"]] if scenario.judges
        else scenario.strategies)
    if len(entries) < 2:  # only `strategies` can be: `ladder.strategies` holds 2 or more
        found = ", ".join(s.label for s in entries) or "none"
        raise InputError(f"a ladder needs at least 2 strategies, found {len(entries)} "
                         f"({found}); list them under `strategies:` or, when they are more "
                         "than the players, under `ladder: {strategies: [...]}`",
                         file, line, key)
    for i, s in enumerate(entries):
        if s.family == "python":
            raise InputError(f"strategy {s.label!r} is a Python class: simsym ladder plays "
                             "the numba engine; allowed: the built-in families",
                             file, line, f"{key}[{i}]")
    seen: dict[str, int] = {}
    out = []
    for s in entries:
        seen[s.label] = seen.get(s.label, 0) + 1
        out.append(s if seen[s.label] == 1 else replace(s, label=f"{s.label} #{seen[s.label]}"))
    return out


def check_games(games: int, players: int) -> None:
    block = deal_games(players)
    if games < block or games % block:
        below = games // block * block
        near = " or ".join(f"{x:,}" for x in (below, below + block) if x >= block)
        why = f"{players} rotations" + (" at both seat orders" if players % 2 else "")
        raise SimsymError(f"--games {games:,}: a pair plays whole duplicate deals of {block} "
                          f"games ({why}); allowed: a multiple of {block}, e.g. {near}")


# --- playing -------------------------------------------------------------------------------

def table_scenario(scenario, strategies, table: Table, seed: int):
    return replace(scenario, strategies=[strategies[table.first], strategies[table.second]],
                   seating="rotate", seed=seed, ladder=[])


def play_chunk(scenario, t: int, g0: int, g1: int):
    """Games g0..g1-1 of table ``t`` (in whatever process runs it): the win units of the
    table's first strategy, a game each, and both strategies' score sums."""
    from simsym.engine.compiled import run_chunk, setup_for

    rows, _ = run_chunk(setup_for(scenario), g0, g1)
    P = scenario.players
    scores = rows[:, E.ROW.FIXED:E.ROW.FIXED + P]
    first = rows[:, E.ROW.FIXED + P:E.ROW.FIXED + 2 * P] == 0
    units = np.where(first, win_units(scores), 0).sum(axis=1).astype(np.int16)
    return t, g0, units, np.array([scores[first].sum(), scores[~first].sum()], np.int64)


@dataclass
class Played:
    """Every game of a ladder, by table and game index."""

    scenario: object
    strategies: list
    games: int  # a pair
    seed: int
    tables: list[Table]
    first_units: np.ndarray  # (tables, games a table): the first strategy's win units
    score_sums: np.ndarray  # (tables, 2)

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.strategies]

    @property
    def players(self) -> int:
        return self.scenario.players

    @property
    def deals(self) -> int:
        return self.games // deal_games(self.players)

    def pair_units(self) -> np.ndarray:
        """(pairs, deals): the win units of each pair's lower-indexed strategy on each deal."""
        P = self.players
        out = np.zeros((len(pairs(len(self.strategies))), self.deals), np.int64)
        for t, tab in enumerate(self.tables):
            per_deal = self.first_units[t].astype(np.int64).reshape(self.deals, P).sum(axis=1)
            out[tab.pair] += per_deal if tab.first < tab.second else P * E.WIN_UNITS - per_deal
        return out


def play_ladder(scenario, games: int, seed: int, jobs: int = 1, chunk_size: int | None = None,
                progress=None) -> Played:
    """Play every pair's table(s); ``progress(done_games)`` after each chunk."""
    from simsym.engine.compiled import setup_for
    from simsym.run.executor import default_chunk_size, map_tasks, plan_chunks

    strategies = entrants(scenario)
    P = scenario.players
    check_games(games, P)
    tables = tables_for(len(strategies), P)
    scenarios = [table_scenario(scenario, strategies, tab, seed) for tab in tables]
    setup_for(scenarios[0])  # refuse what the numba engine cannot run, before any work
    per_table = games if P % 2 == 0 else games // 2
    chunk_size = chunk_size or default_chunk_size(per_table * len(tables), jobs)
    tasks = [(scenarios[t], t, g0, g1) for t in range(len(tables))
             for g0, g1 in plan_chunks(per_table, chunk_size)]
    first_units = np.zeros((len(tables), per_table), np.int16)
    score_sums = np.zeros((len(tables), 2), np.int64)
    done = 0

    def take(result):
        nonlocal done
        t, g0, units, sums = result
        first_units[t, g0:g0 + len(units)] = units
        score_sums[t] += sums
        done += len(units)
        if progress:
            progress(done)

    map_tasks(play_chunk, tasks, take, jobs)
    return Played(scenario, strategies, games, seed, tables, first_units, score_sums)


# --- rating --------------------------------------------------------------------------------

def _rng(seed: int, stream: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, SALT, stream]))


def online_ratings(played: Played, order: int) -> tuple[int, np.ndarray, np.ndarray]:
    """openskill Plackett-Luce from its prior, one update a game, in the seeded random order
    number ``order`` of all games of all pairs: (order, mu, sigma)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    ratings = [model.rating(name=label) for label in played.labels]
    T, n = played.first_units.shape
    units = played.first_units.ravel()
    for idx in _rng(played.seed, 1 + order).permutation(T * n):
        tab = played.tables[idx // n]
        u = int(units[idx])
        ranks = [0, 0] if 2 * u == E.WIN_UNITS else ([0, 1] if 2 * u > E.WIN_UNITS else [1, 0])
        [[a], [b]] = model.rate([[ratings[tab.first]], [ratings[tab.second]]], ranks=ranks)
        ratings[tab.first], ratings[tab.second] = a, b
    return order, np.array([r.mu for r in ratings]), np.array([r.sigma for r in ratings])


def openskill_ratings(played: Played, jobs: int = 1, progress=None):
    """The mean of ORDERS independent passes, each from the prior in its own order (on
    scenarios/ladder.yaml one order moves mu by about 0.5 as a standard deviation, the mean
    of 8 by about 0.18): (mu, sigma, sd of mu over the orders). In ``jobs`` processes."""
    from simsym.run.executor import map_tasks

    S = len(played.strategies)
    mu, sigma = np.zeros((ORDERS, S)), np.zeros((ORDERS, S))
    games = played.first_units.size
    done = 0

    def take(result):
        nonlocal done
        k = result[0]
        mu[k], sigma[k] = result[1], result[2]
        done += games
        if progress:
            progress(done)

    map_tasks(online_ratings, [(played, k) for k in range(ORDERS)], take, jobs)
    return mu.mean(axis=0), sigma.mean(axis=0), mu.std(axis=0, ddof=1)


def wins_matrix(pair_wins: np.ndarray, games: int, S: int) -> np.ndarray:
    """(S, S): wins[i, j] = i's win shares against j, from the lower strategy's per pair."""
    w = np.zeros((S, S))
    for k, (i, j) in enumerate(pairs(S)):
        w[i, j] = pair_wins[k]
        w[j, i] = games - pair_wins[k]
    return w


def batch_fit(wins: np.ndarray) -> np.ndarray:
    """Bradley-Terry maximum likelihood (choix), centred log-strengths."""
    import choix

    comp = wins + PRIOR_WINS * (1 - np.eye(len(wins)))
    theta = choix.ilsr_pairwise_dense(comp, max_iter=10_000)
    return theta - theta.mean()


@dataclass
class Ratings:
    """Everything ladder.json and ladder.md say, by entrant index."""

    mu: np.ndarray  # openskill, mean over ORDERS orders
    sigma: np.ndarray
    order_sd: np.ndarray  # sd of mu over the orders
    theta: np.ndarray  # batch fit, centred log-strengths
    theta_boot: np.ndarray  # (BOOTSTRAP, S)
    head: np.ndarray  # (S, S) win share of i against j
    head_boot: np.ndarray  # (BOOTSTRAP, S, S)
    win_share: np.ndarray
    win_share_boot: np.ndarray  # (BOOTSTRAP, S)
    mean_score: np.ndarray
    order: list[int]  # best first

    def batch_rating(self, theta):
        return MU + SCALE * theta


def rate(played: Played, jobs: int = 1, progress=None) -> Ratings:
    """openskill over ORDERS orders (``progress(games rated)``), the batch fit, the
    bootstrap."""
    S = len(played.strategies)
    n = played.games
    U = played.pair_units()
    mu, sigma, order_sd = openskill_ratings(played, jobs, progress)
    rng = _rng(played.seed, 0)
    D = played.deals
    theta_b, head_b, ws_b = [], [], []
    for _ in range(BOOTSTRAP):
        counts = np.bincount(rng.integers(0, D, D), minlength=D)
        w = wins_matrix(U @ counts / E.WIN_UNITS, n, S)
        theta_b.append(batch_fit(w))
        head_b.append(w / n)
        ws_b.append(w.sum(axis=1) / (n * (S - 1)))
    w = wins_matrix(U.sum(axis=1) / E.WIN_UNITS, n, S)
    P = played.players
    per_table = played.first_units.shape[1]
    score = np.zeros(S)
    seats = np.zeros(S)
    for t, tab in enumerate(played.tables):
        score[tab.first] += played.score_sums[t, 0]
        score[tab.second] += played.score_sums[t, 1]
        seats[tab.first] += per_table * ((P + 1) // 2)
        seats[tab.second] += per_table * (P // 2)
    order = sorted(range(S), key=lambda i: (-mu[i], played.labels[i]))
    return Ratings(mu, sigma, order_sd, batch_fit(w), np.array(theta_b), w / n, np.array(head_b),
                   w.sum(axis=1) / (n * (S - 1)), np.array(ws_b), score / seats, order)


def interval(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """95% percentile interval along the first axis."""
    return np.percentile(samples, 2.5, axis=0), np.percentile(samples, 97.5, axis=0)


@dataclass
class Step:
    """One rung of the ladder against the next: the batch fit's rating difference."""

    upper: int
    lower: int
    diff: float
    lo: float
    hi: float

    @property
    def significant(self) -> bool:
        """The interval leaves out 0 (by more than rounding: equal strategies fit equal)."""
        return self.lo > TINY or self.hi < -TINY


def steps(r: Ratings) -> list[Step]:
    out = []
    for i, j in zip(r.order, r.order[1:]):
        d = SCALE * (r.theta_boot[:, i] - r.theta_boot[:, j])
        lo, hi = interval(d)
        out.append(Step(i, j, float(SCALE * (r.theta[i] - r.theta[j])), float(lo), float(hi)))
    return out


def _r(x, digits=4) -> float:
    return float(round(float(x), digits))


def ladder_entries(played: Played, r: Ratings) -> list[dict]:
    """ladder.json: a list, best first."""
    S = len(played.strategies)
    b_lo, b_hi = interval(r.batch_rating(r.theta_boot))
    w_lo, w_hi = interval(r.win_share_boot)
    h_lo, h_hi = interval(r.head_boot)
    out = []
    for rank, i in enumerate(r.order, 1):
        s = played.strategies[i]
        out.append({
            "strategy": s.label, "rating": _r(r.mu[i]), "lo": _r(r.mu[i] - Z95 * r.sigma[i]),
            "hi": _r(r.mu[i] + Z95 * r.sigma[i]), "games": played.games * (S - 1),
            "win_share": _r(r.win_share[i]), "rank": rank, "sigma": _r(r.sigma[i]),
            "order_sd": _r(r.order_sd[i]),
            "win_share_lo": _r(w_lo[i]), "win_share_hi": _r(w_hi[i]),
            "batch_rating": _r(r.batch_rating(r.theta[i])), "batch_lo": _r(b_lo[i]),
            "batch_hi": _r(b_hi[i]), "mean_score": _r(r.mean_score[i]),
            "family": s.family, "params": {k: v for k, v in s.params},
            "head_to_head": {played.labels[j]: {"win_share": _r(r.head[i, j]),
                                                "lo": _r(h_lo[i, j]), "hi": _r(h_hi[i, j])}
                             for j in r.order if j != i},
        })
    return out


def pairs_frame(played: Played, r: Ratings):
    """pairs.csv: one row a pair, A the lower-indexed strategy."""
    import pandas as pd

    h_lo, h_hi = interval(r.head_boot)
    rows = []
    for i, j in pairs(len(played.strategies)):
        rows.append({"a": played.labels[i], "b": played.labels[j], "games": played.games,
                     "deals": played.deals, "a_win_share": _r(r.head[i, j]),
                     "lo": _r(h_lo[i, j]), "hi": _r(h_hi[i, j]),
                     "beyond_noise": bool(h_lo[i, j] > 0.5 or h_hi[i, j] < 0.5)})
    return pd.DataFrame(rows)
