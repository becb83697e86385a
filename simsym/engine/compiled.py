"""The numba engine's wrapper: scenario -> integer arrays -> kernels -> numpy results.

Also the strategies' keep values (docs/game-engine.md 6.1), computed once per scenario.
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from filelock import FileLock, Timeout

from simsym.model.cards.encode import aligned, encode_cards
from simsym.core import enums as E
from simsym.core import game_nb as G
from simsym.core import lookahead_nb as LA
from simsym.model.rules import encode_rules
from simsym.errors import SimsymError
from simsym.model.scenario import Scenario
from simsym.learned.features import MODEL_SIZE, kind_features
from simsym.model.strategies import (
    BUILT_IN, SEARCHED, StrategyConfig, encode_strategy, greedy_twin, make_strategy,
    model_weights, rollout_learner,
)

SEATING_CODES = {"mirror": E.SEATING.MIRROR, "rotate": E.SEATING.ROTATE,
                 "random": E.SEATING.RANDOM}


def _usable(card, t: str) -> bool:
    if t == "intellectual":
        if card.not_intellectual or card.hedonistic_only or card.social_only:
            return False
        return any(o.hedonistic == 0 for o in card.options)
    if t == "hedonistic":
        if card.not_hedonistic or card.intellectual_only or card.social_only:
            return False
        return any(o.intellectual == 0 for o in card.options)
    return not (card.intellectual_only or card.hedonistic_only)


def keep_values(cards, s: StrategyConfig) -> np.ndarray:
    """docs 6.1: a keep value per kind for one strategy configuration."""
    ww = s.get("wine_weight")
    out = np.zeros(len(cards), np.int64)
    for k, card in enumerate(cards):
        opts = card.options
        if s.family == "specialist":
            fav = s.get("favours")
            if not _usable(card, fav):
                continue
            if fav == "intellectual":
                opts = [o for o in opts if o.hedonistic == 0]
            elif fav == "hedonistic":
                opts = [o for o in opts if o.intellectual == 0]
        best = max(o.wine_scored + o.intellectual + o.hedonistic + o.either + ww * o.wine
                   for o in opts)
        out[k] = best + (s.get("focus") if s.family == "specialist" else 0)
    return out


@dataclass
class Setup:
    """Everything the kernels need for a scenario, as arrays (built once).

    The strategy tables (``strat_params``, ``keep_table``, ``cand_table``) hold one row per
    strategy of the scenario, then one more: the default greedy strategy (row ``greedy``),
    which rollouts may give every seat."""

    scenario: Scenario
    kinds: np.ndarray
    rules: np.ndarray
    gp: np.ndarray
    copies: np.ndarray
    base_strat: np.ndarray
    strat_params: np.ndarray
    keep_table: np.ndarray
    cand_table: np.ndarray
    model: np.ndarray  # (strategy rows, MODEL_SIZE): a learned row's weights, else zeros
    kfeat: np.ndarray  # (K, NKF): the cards' data the learned player reads (kind_features)

    @property
    def players(self) -> int:
        return self.scenario.players

    @property
    def row_size(self) -> int:
        return E.ROW.FIXED + 6 * self.players

    @property
    def agg_shape(self) -> tuple[int, int, int]:
        """The per strategy and kind aggregate of a chunk: (strategies, kinds, AGG.SIZE)."""
        return len(self.scenario.strategies), len(self.scenario.cards), E.AGG.SIZE

    @property
    def lookahead(self) -> bool:
        """Whether a seat searches (docs 6.6) or plays a learned model over the search's
        candidates (6.7): such tables run the lookahead's game loop."""
        return any(s.family in SEARCHED for s in self.scenario.strategies)

    @property
    def searches(self) -> bool:
        """Whether a seat searches over rollouts (docs 6.6): only such a table, or one whose
        learned seats' decisions are searched to label them, compiles and runs the search
        (lookahead_nb._searched)."""
        return any(s.family == "lookahead" for s in self.scenario.strategies)

    def searched(self, look=None) -> bool:
        """Whether the lookahead loop searches: a seat searches, or the workspace ``look``
        labels the learned seats' decisions with the search's."""
        return self.searches or (look is not None and bool(look.lab[LA.LAB.ON]))

    def rollout_look(self, tb, look=None):
        """The rollouts' workspace the lookahead loop is given: new_look's where it searches
        (:meth:`searched`); else None (the loop compiled without the search)."""
        return new_look(self, tb) if self.searched(look) else None

    @property
    def greedy(self) -> int:
        """The strategy-table row of the default greedy strategy (after the scenario's)."""
        return len(self.scenario.strategies)

    def table(self) -> G.Table:
        """The kernels' read-only record (simsym.core.game_nb.Table)."""
        bt = np.zeros(G.bound_table_size(len(self.kinds)), np.int64)
        G.bound_table_nb(self.kinds, self.rules, bt)
        return G.Table(aligned(self.kinds), self.rules, self.gp, self.copies, self.base_strat,
                       self.strat_params, self.keep_table, self.cand_table, bt)


def setup_for(scenario: Scenario) -> Setup:
    for s in scenario.strategies:
        if s.family not in BUILT_IN:
            raise SimsymError(f"strategy {s.label!r} is a Python class: only the reference "
                              "engine runs those (simsym run --engine python)")
    r = scenario.rules
    P = scenario.players
    gp = np.zeros(E.GP.SIZE, np.int64)
    gp[E.GP.HAND_SIZE] = r.hand_size
    gp[E.GP.DECK_RUNS] = r.deck_runs
    gp[E.GP.TURN_CAP] = r.turn_cap
    gp[E.GP.DISCARD_LIMIT] = r.discard_limit
    gp[E.GP.TRADING] = r.trading
    gp[E.GP.BETWEEN] = r.trade_between_others
    gp[E.GP.UNEVEN] = r.uneven_trades
    gp[E.GP.MAX_TRADES] = r.max_trades_per_turn
    gp[E.GP.KOMOS] = r.komos_limit
    gp[E.GP.MAY_JOIN] = r.draw_may_join
    gp[E.GP.CHAIN] = r.chain_draws
    gp[E.GP.SYMPOSIA] = r.symposia_per_turn
    gp[E.GP.SEATING] = SEATING_CODES[scenario.seating]
    gp[E.GP.PLAYERS] = P
    for i, v in enumerate(r.seat_compensation):
        gp[E.GP.COMP + i] = v
    # The scenario's strategies, the default greedy one (see Setup), then the greedy twin of
    # each lookahead or learned strategy (what it plays inside rollouts under policy "own").
    S = len(scenario.strategies)
    L = list(scenario.strategies) + [make_strategy("greedy")]
    twin = list(range(S)) + [S]
    learned_row = {}  # lookahead strategy -> the learned row its rollouts play (policy learned)
    for i, s in enumerate(scenario.strategies):
        if s.family in SEARCHED:
            twin[i] = len(L)
            L.append(greedy_twin(s))
            twin.append(twin[i])
        if s.family == "lookahead" and s.get("policy") == "learned":
            learned_row[i] = len(L)
            L.append(rollout_learner(s))
            twin.append(S)
    base = np.array([i % S for i in range(P)], np.int64)
    params = np.stack([encode_strategy(s) for s in L])
    params[:, E.SP.TWIN] = twin
    params[:, E.SP.GREEDY] = S
    for i, row in learned_row.items():
        params[i, E.SP.LEARNED] = row
    keep = np.stack([keep_values(scenario.cards, s) for s in L])
    K = len(scenario.cards)
    # Trade candidates: kinds by descending keep value, ties by ascending kind.
    cand = np.stack([np.array(sorted(range(K), key=lambda k: (-kv[k], k)), np.int64)
                     for kv in keep])
    copies = np.array([c.copies for c in scenario.cards], np.int64)
    model = np.zeros((len(L), MODEL_SIZE), np.int64)
    for i, s in enumerate(L):
        if s.family == "learned":
            model[i] = model_weights(s)
    return Setup(scenario, encode_cards(scenario.cards), encode_rules(r), gp, copies, base,
                 params, keep, cand, model, kind_features(scenario.cards))


def new_agg(setup: Setup) -> np.ndarray:
    return np.zeros(setup.agg_shape, np.int64)


def run_chunk(setup: Setup, g0: int, g1: int, progress=None, look=None):
    """Play games g0..g1-1 with the numba engine: (rows, card aggregate). ``look``: the
    lookahead loop's workspace to play in (new_look), for a table that has one."""
    ready(setup, look)
    return _run_chunk(setup, g0, g1, progress, look)


def ready(setup: Setup, look=None) -> None:
    """Get the kernels this table plays ready (compiled_once): the game loop, then for a
    table with lookahead or learned seats the lookahead loop over it, with the search when a
    seat searches or ``look`` labels. The game loop comes first, as the greedy table compiles
    it: compiled from inside the lookahead loop's compile, numba takes about twice as long
    over the trade code (measured: 29 s against 14 s), and a judged run needs it anyway."""
    tb = setup.table()
    compiled_once("greedy", lambda: _play_chunk(setup, tb, G.new_state(tb, 0), 0, 0),
                  helper=lambda: G.trade_leaves(tb, G.new_state(tb, 0), False))
    if setup.lookahead:
        compiled_once("lookahead" if setup.searched(look) else "learned",
                      lambda: _run_chunk(setup, 0, 0, look=look))


def _run_chunk(setup: Setup, g0: int, g1: int, progress=None, look=None):
    tb = setup.table()
    if not setup.lookahead:
        rows, agg = _play_chunk(setup, tb, G.new_state(tb, 0), g0, g1)
        if progress is not None:
            progress[0] += g1 - g0
        return rows, agg
    rows = np.zeros((g1 - g0, setup.row_size), np.int64)
    agg = new_agg(setup)
    prog = progress if progress is not None else np.zeros(1, np.int64)
    LA.run_chunk_lookahead_nb(tb, G.new_state(tb, 0),
                              new_look(setup, tb) if look is None else look,
                              setup.rollout_look(tb, look), g0, g1,
                              setup.scenario.seed, rows, agg, prog)
    return rows, agg


def new_look(setup: Setup, tb, label_rows: int = 0):
    """The lookahead loop's workspace (lookahead_nb.Look) with the learned seats' models and
    the cards' data; ``label_rows`` > 0 turns on labelling (simsym.studies.train): room for
    that many candidates of labelled decisions."""
    from simsym.learned.features import NF

    lk = LA.new_look(tb)
    lk = lk._replace(model=np.ascontiguousarray(setup.model),
                     kfeat=np.ascontiguousarray(setup.kfeat))
    if label_rows:
        lk = lk._replace(labc=np.zeros((label_rows, LA.LC.SIZE), np.int64),
                         labf=np.zeros((label_rows, NF), np.int64))
        lk.lab[LA.LAB.ON] = 1
    return lk


def _play_chunk(setup: Setup, tb, s, g0: int, g1: int):
    """Games g0..g1-1 of a table without lookahead seats, played in the state ``s`` by the
    engine's compiled game loop (game_nb.play_until with turn PLAY_CHUNK: no compiled
    function above it, each of which would compile the engine's code again): (rows,
    aggregate), views of the chunk's one array (enums CK layout)."""
    n, width = g1 - g0, setup.row_size
    shape = setup.agg_shape
    out = np.zeros(E.CK.SIZE + n * width + int(np.prod(shape)), np.int64)
    out[[E.CK.G0, E.CK.G, E.CK.G1, E.CK.SEED, E.CK.ROW, E.CK.NSTRAT]] = \
        (g0, g0, g1, setup.scenario.seed, width, shape[0])
    G.play_until(tb, s._replace(out=out), np.int64(G.PLAY_CHUNK), np.int64(0))
    at = E.CK.SIZE + n * width
    return out[E.CK.SIZE:at].reshape(n, width), out[at:].reshape(shape)


# --- one compile per machine -----------------------------------------------------------------

# How long a process waits for another's compile before compiling itself (a cold compile of
# every kernel takes 2-5 minutes on a loaded 2-core machine).
COMPILE_WAIT_S = 900
_COMPILED: set[str] = set()
_SPENT = [0.0]  # seconds this process has spent in compiled_once


def compile_seconds() -> float:
    """The seconds this process has spent getting kernels ready (compiled_once): waiting for
    another process's compile, compiling, or loading the kernels from numba's cache (under a
    second). A run subtracts what its chunks spent here from its wall time to count its games
    a second (simsym.run.worker.run_chunk_task)."""
    return _SPENT[0]


def compile_lock_path(part: str = "") -> Path:
    """The lock the processes sharing one numba cache take to compile its kernels: one per
    cache folder (simsym.core.kernel_cache_dir: one per kernel sources, so two copies of the
    same simsym share it) and compile settings (NUMBA_BOUNDSCHECK, NUMBA_OPT: a
    bounds-checked build has its own cache and need not wait for the plain one). ``part``
    "helper": the lock of the part another process takes on meanwhile (compiled_once)."""
    import numba

    c = numba.config
    where = repr((c.CACHE_DIR, c.BOUNDSCHECK, c.OPT)) + part
    return (Path(tempfile.gettempdir())
            / f"simsym-compile-{hashlib.sha256(where.encode()).hexdigest()[:16]}.lock")


def compile_lock(part: str = "") -> FileLock:
    """The lock of compile_lock_path(part), as compiled_once takes it (and `simsym run` looks
    at the main one: simsym.run.job.CompileWatch)."""
    return FileLock(compile_lock_path(part), thread_local=False)


def compiled_once(kernel: str, warm, helper=None) -> None:
    """Call ``warm()``, a call that compiles the kernels ``kernel`` names (or loads them from
    numba's cache), under a lock shared by the processes of this machine, the first time this
    process needs them. Without it, the N worker processes of a first run (after an install
    or a kernel edit) would each compile the same kernels at once: N times the CPU and the
    memory, for no gain in time. With it one compiles and the others load its cache (~0.1 s).
    Should the lock not be had (no writable temporary directory, or a compile elsewhere
    lasting past COMPILE_WAIT_S), this process compiles on its own.

    ``helper``: a call that compiles a part of those kernels the compile comes to late (its
    callees that call nothing it compiles first). A process that finds another compiling
    takes that part on meanwhile, under a lock of its own, so one of the waiting processes
    works beside the compiling one, and the compile loads the part from the cache when it
    comes to it (docs/performance.md, "Two processes compile at once")."""
    if kernel in _COMPILED:
        return
    t0 = time.perf_counter()
    lock = compile_lock()
    try:
        try:
            lock.acquire(timeout=0)
        except Timeout:  # another process compiles
            if helper is not None:
                _help(helper)
            lock.acquire(timeout=COMPILE_WAIT_S)
    except (OSError, Timeout):
        lock = None
    try:
        warm()
    finally:
        if lock is not None:
            lock.release()
        _SPENT[0] += time.perf_counter() - t0
    _COMPILED.add(kernel)


def _help(helper) -> None:
    """``helper()`` under the helper lock, unless another process holds it (it takes that
    part on already)."""
    lock = compile_lock("helper")
    try:
        lock.acquire(timeout=0)
    except (OSError, Timeout):
        return
    try:
        helper()
    finally:
        lock.release()


def play_logged(setup: Setup, g: int, max_events: int = 200_000):
    """One game with its event log: (events (n, 5), row, card stats (P, K, 8))."""
    return next(logged_games(setup, g, g + 1, max_events))


def logged_games(setup: Setup, g0: int, g1: int, max_events: int = 200_000):
    """Games g0..g1-1 with their event logs, one after the other: (events (n, 5), row, card
    stats (P, K, 8)) each, as :func:`play_logged` gives them. One state serves them all
    (a state with room for max_events costs more to make than a base game to play)."""
    tb = setup.table()
    s = G.new_state(tb, max_events)
    seed = setup.scenario.seed
    if setup.lookahead:  # its workspace, and a one-game chunk's aggregate and progress
        look, agg, progress = new_look(setup, tb), new_agg(setup), np.zeros(1, np.int64)
        look2 = setup.rollout_look(tb)
    ready(setup)
    for g in range(g0, g1):  # a chunk of one game each
        if setup.lookahead:
            row = np.zeros(setup.row_size, np.int64)
            LA.run_chunk_lookahead_nb(tb, s, look, look2, g, g + 1, seed, row.reshape(1, -1), agg,
                                      progress)
        else:
            row = _play_chunk(setup, tb, s, g, g + 1)[0][0]
        n = int(s.sc[E.GS.NEV])
        if n >= max_events:
            raise RuntimeError(f"game {g} logged more than {max_events} events")
        yield s.ev[:n].copy(), row, s.cs.copy()
