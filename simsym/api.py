"""The Python API for notebooks: scenarios from files or mappings with card and rule
overrides, runs, comparisons and sweeps, each returning pandas DataFrames in a result object
that renders as a table in Jupyter.

    >>> import simsym.api as ss
    >>> base = ss.scenario("simsym:base", games=20_000)
    >>> nerf = ss.scenario(base, cards={"Plato": "4I; IO"})     # one card changed
    >>> ss.compare(base, nerf)                                   # same deals, paired
    >>> res = ss.run(nerf, seed=1)
    >>> res.balanced                                             # "yes", "no" or "not decided"
    >>> res.seats[["seat", "win_rate", "win_rate_lo", "win_rate_hi"]]   # in %
    >>> res.cards[["card", "strength", "strength_lo", "strength_hi"]].head()  # pp, strongest
    >>> ss.sweep(base, card="Plato", values=["3I; IO", "4I; IO", "5I; IO"]).long
    >>> ss.load("reports/my-game").strategies                    # a `simsym run`'s folder

Every share and every difference is in percentage points (``units="pp"``, the reports' unit:
a win share of 25.0, a card 1.3 pp below the table's average as -1.3); ``units="fraction"``
gives fractions (0.25, -0.013) instead.

A run without ``out=`` plays into a temporary folder that is removed when its result is no
longer used (or when Python exits); pass ``out=`` to keep the files. Scenarios made from
mappings are written as YAML to a temporary folder of their own, removed at exit, so that
they are checked exactly as a scenario file is (errors name the key, and what is allowed).
"""

from __future__ import annotations

import atexit
import copy
import html
import itertools
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from simsym.analysis.cards import card_averages, card_strength, pooled_counts
from simsym.analysis.rundir import load_run
from simsym.analysis.seats import compensation, seat_table, strategy_table
from simsym.errors import InputError, InputErrors, SimsymError
from simsym.model import packaged
from simsym.model.scenario import Scenario, load_scenario

MAPPING = "<scenario mapping>"  # how errors name a scenario given as a mapping
UNITS = ("pp", "fraction")
# the columns of the run tables that are shares or differences of shares
_SEAT_SHARES = ("win_rate", "win_rate_lo", "win_rate_hi", "fair_share")
_CARD_SHARES = tuple(f"{m}{x}" for m in ("oh_wr", "gd_wr", "gih_wr", "gns_wr", "play_rate",
                                         "dead_rate", "iwd", "strength")
                     for x in ("", "_lo", "_hi"))
# the metrics of a comparison that are shares (the rest, mean scores, are points)
_COMPARE_SHARES = ("win_rate", "seat_gap", "strength", "gih_wr", "iwd", "play_rate")
_scratch: Path | None = None
_numbers = itertools.count()


def _check_units(units: str) -> str:
    if units not in UNITS:
        raise SimsymError(f"units {units!r}: allowed: " + ", ".join(UNITS)
                          + " (pp: percentage points, as every report says them)")
    return units


def _in_units(df: pd.DataFrame | None, cols, units: str) -> pd.DataFrame | None:
    """``df`` with its share columns ``cols`` in ``units`` (they are fractions)."""
    if df is None or units == "fraction":
        return df
    df = df.copy()
    for c in cols:
        if c in df.columns:
            df[c] = df[c] * 100
    return df


def _scratch_dir() -> Path:
    global _scratch
    if _scratch is None:
        _scratch = Path(tempfile.mkdtemp(prefix="simsym-api-"))
        atexit.register(shutil.rmtree, _scratch, True)
    return _scratch


# --- scenarios -----------------------------------------------------------------------------

def scenario(source=None, *, cards: dict | None = None, rules: dict | None = None,
             base_dir=None, **keys) -> Scenario:
    """A checked scenario.

    ``source``: a scenario file, ``simsym:NAME`` (default ``simsym:base``, the game as
    written), a Scenario, or a mapping written as a scenario file is (its relative paths are
    relative to ``base_dir``, default the current folder). ``cards``: card overrides, name ->
    notation (``{"Plato": "4I; IO"}``) or a mapping with ``text`` and/or ``copies``.
    ``rules``: rule options (``simsym options`` lists them). Any other keyword is a top-level
    key of a scenario file: ``players``, ``games``, ``seed``, ``name``, ``strategies``...

    Problems raise :class:`simsym.errors.InputError` naming the key and what is allowed.
    """
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    if isinstance(source, dict):
        data = _absolute_paths(copy.deepcopy(source), base)
    else:
        if source is None:
            source = "simsym:base"
        if isinstance(source, Scenario) and not (cards or rules or keys):
            return source
        parent = source.path if isinstance(source, Scenario) else str(source)
        if not packaged.is_packaged(parent):
            parent = str((base / parent).resolve())
        if not (cards or rules or keys):
            return load_scenario(parent)
        name = source.name if isinstance(source, Scenario) else load_scenario(parent).name
        # the parent's name when only how much to play changes
        variant = cards or rules or set(keys) - {"games", "seed"}
        data = {"extends": parent, "name": f"{name}-variant" if variant else name}
    if cards:
        spec = data.get("cards")
        spec = {"file": spec} if isinstance(spec, str) else dict(spec or {})
        spec["overrides"] = {**spec.get("overrides", {}), **cards}
        data["cards"] = spec
    if rules:
        data["rules"] = {**(data.get("rules") or {}), **rules}
    data.update(keys)
    data.setdefault("name", "scenario")
    return _load_mapping(data)


def _absolute_paths(data: dict, base: Path) -> dict:
    """A mapping's ``extends`` and card file as absolute paths (it is loaded from elsewhere)."""
    def absolute(p):
        return p if not isinstance(p, str) or packaged.is_packaged(p) else str(base / p)

    if "extends" in data:
        data["extends"] = absolute(data["extends"])
    c = data.get("cards")
    if isinstance(c, str):
        data["cards"] = absolute(c)
    elif isinstance(c, dict) and "file" in c:
        c["file"] = absolute(c["file"])
    return data


def _load_mapping(data: dict) -> Scenario:
    import yaml

    path = _scratch_dir() / f"scenario-{next(_numbers)}.yaml"
    try:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError as e:
        raise SimsymError(f"{MAPPING}: not writable as YAML ({e}); a scenario holds text, "
                          "numbers, true/false, lists and mappings") from None
    path.write_text(text, encoding="utf-8")
    try:
        return load_scenario(path)
    except InputError as e:
        # The YAML's lines mean nothing to whoever wrote the mapping: name it and the key.
        raise InputErrors([InputError(x.message, MAPPING, None, x.key)
                           if x.file == str(path) else x for x in e.errors]) from None


# --- runs ----------------------------------------------------------------------------------

@dataclass
class Results:
    """A run's tables. ``cards``: card strength pooled over strategies, strongest first
    (``strength``: IWD minus the table's average, with its interval; ``verdict`` strong or
    weak by the one rule); ``cards_by_strategy`` per strategy (None with one strategy);
    ``card_counts`` the raw counts of cards.csv. Shares in ``units`` (pp by default).
    ``balance``: "Balanced?" for this table (``balance.as_dict()``, ``balance.changes()``)."""

    run_dir: Path
    summary: dict
    seats: pd.DataFrame
    strategies: pd.DataFrame
    cards: pd.DataFrame
    cards_by_strategy: pd.DataFrame | None
    card_counts: pd.DataFrame
    balance: object = None  # simsym.analysis.balance.Balance
    units: str = "pp"
    _finalizer: object = field(default=None, repr=False, compare=False)

    @property
    def balanced(self) -> str:
        """"yes", "no" or "not decided", by the scenario's `balance:` criteria."""
        return self.balance.answer

    @property
    def compensation(self) -> list[int]:
        """Starting points per seat that would even out the seats (simsym.analysis.seats)."""
        return compensation(self.summary)

    @property
    def temporary(self) -> bool:
        """The run directory is removed once this result is no longer used."""
        return self._finalizer is not None and self._finalizer.alive

    def report(self) -> Path:
        """Write report.md (and its plots) into the run directory; returns its path."""
        from simsym.report.build import build_report

        return build_report(self.run_dir)

    @property
    def quality(self) -> pd.DataFrame:
        """How the game plays (docs/game-engine.md section 8): one row a measure and table,
        columns judge ("strong" and "fast" for a judged run's directory, else "table"),
        measure, estimate, low, high (the 95% interval) and unit. Shares in ``units``: in
        % with "pp" (the unit "% of games"), else fractions ("share of games"). Per game:
        ``games()`` of a run made with ``save_games=True`` holds each game's measures
        (run1_turn ... winner)."""
        import json

        from simsym.analysis.quality import in_percent, quality_tables
        from simsym.run.judged import FAST_DIR, JUDGES_JSON

        blocks = {}
        if "quality" in self.summary:
            judged = (self.run_dir / JUDGES_JSON).exists()
            blocks["strong" if judged else "table"] = self.summary["quality"]
            fast = self.run_dir / FAST_DIR / "summary.json"
            if judged and fast.exists():
                doc = json.loads(fast.read_text(encoding="utf-8"))
                if "quality" in doc:
                    blocks["fast"] = doc["quality"]
        df = quality_tables(blocks)
        if self.units == "pp":
            for i, unit in df["unit"].items():
                scale, df.at[i, "unit"] = in_percent(unit)
                df.loc[i, ["estimate", "low", "high"]] *= scale
        return df

    def games(self, long: bool = False) -> pd.DataFrame:
        """The games of a run made with ``save_games=True``: one row a game, or (``long``)
        one row a game and seat; a game's row holds its game-quality measures too."""
        name = "games_long" if long else "games"
        if not (self.run_dir / name).is_dir():
            raise SimsymError(f"{self.run_dir}: no {name}/; run with save_games=True")
        return pd.read_parquet(self.run_dir / name).sort_values(
            ["game", "seat"] if long else "game", ignore_index=True)

    def _repr_html_(self) -> str:
        s = self.summary
        k = 1 if self.units == "pp" else 100
        seats = self.seats[["seat", "strategy", "win_rate", "win_rate_lo", "win_rate_hi",
                            "mean_score"]].copy()
        for c in ("win_rate", "win_rate_lo", "win_rate_hi"):
            seats[c] = k * seats[c]
        seats.columns = ["seat", "strategy", "win share %", "95% low", "95% high",
                         "mean score"]
        cards = self.cards[["card", "strength", "strength_lo", "strength_hi", "verdict"]]
        cards = pd.concat([cards.head(5), cards.tail(5)]).copy()
        cards[["strength", "strength_lo", "strength_hi"]] *= k
        cards.columns = ["card", "strength (pp)", "95% low", "95% high", "by the one rule"]
        b = self.balance
        answer = (f"<p><b>Balanced? {html.escape(b.answer)}</b> (cards {b.cards_state}, "
                  f"seats {b.seats_state})</p>" if b is not None else "")
        return (f"<h4>{html.escape(str(s['scenario']))}: {s['games']:,} games, seed "
                f"{s['seed']}</h4>{answer}<p>Seats (fair share {100 * s['fair_share']:.1f}%); "
                f"compensation that would even them: {self.compensation}</p>"
                + seats.to_html(index=False, float_format="{:.2f}".format)
                + "<p>Strongest and weakest cards (IWD minus the table's average)</p>"
                + cards.to_html(index=False, float_format="{:+.2f}".format))


def load(run_dir, units: str = "pp") -> Results:
    """The tables of a `simsym run` directory, shares in ``units`` ("pp" or "fraction").
    A judged run's directory gives its strong table (its fast table: ``RUN_DIR/fast``)."""
    from simsym.report.data import table_balance, table_label

    _check_units(units)
    run = load_run(Path(run_dir))
    s = run.summary
    players = int(s["players"])
    several = run.cards["strategy"].nunique() > 1
    cards = card_strength(run.cards, players)
    avg = float(card_averages(pooled_counts(run.cards)).iloc[0]["iwd"])
    check = Path(run_dir) / "compensation.json"
    import json

    balance = table_balance(f"table ({table_label(s)})", s, cards, avg,
                            json.loads(check.read_text()) if check.exists() else None)
    by = card_strength(run.cards, players, by_strategy=True) if several else None
    return Results(Path(run_dir), s, _in_units(seat_table(s), _SEAT_SHARES, units),
                   _in_units(strategy_table(s), _SEAT_SHARES, units),
                   _in_units(cards, _CARD_SHARES, units), _in_units(by, _CARD_SHARES, units),
                   run.cards, balance, units)


def run(source=None, games: int | None = None, seed: int | None = None, jobs: int = 1,
        out=None, judge: str | None = None, save_games: bool = False, units: str = "pp",
        **rules) -> Results:
    """Play a scenario (a file, ``simsym:NAME``, a Scenario or a mapping; rule options may be
    given as keywords) and load its tables. Without ``out`` the run directory is temporary.
    ``judge``: for a scenario judged by two tables, "strong" (default) or "fast". ``units``:
    "pp" (default) or "fraction"."""
    from simsym.run.job import run_scenario

    _check_units(units)
    sc = scenario(source, rules=rules or None).judge(judge)
    keep = out is not None
    out = Path(out) if keep else Path(tempfile.mkdtemp(prefix=f"simsym-{sc.name}-"))
    try:
        run_scenario(sc, games=games or sc.games, seed=sc.seed if seed is None else seed,
                     out=out, jobs=jobs, force=True, save_games=save_games)
        res = load(out, units)
    except BaseException:
        if not keep:
            shutil.rmtree(out, ignore_errors=True)
        raise
    if not keep:
        res._finalizer = weakref.finalize(res, shutil.rmtree, out, True)
    return res


# --- comparisons and sweeps ----------------------------------------------------------------

def _frame_html(df: pd.DataFrame) -> str:
    return df.to_html(index=False, float_format="{:.2f}".format, na_rep="–")


@dataclass
class CompareResult:
    """B against A on the same deals. ``seats``, ``gap`` and ``cards`` are the paired
    differences (``diff`` B - A with its 95% interval ``lo``..``hi``; shares in ``units``,
    pp by default, mean scores in points; ``real``: a real change by the one rule, the
    Holm-corrected paired test over every change tested); ``changes`` what B changes;
    ``verdict`` the report's verdict in words; ``balanced`` Balanced? for A and B."""

    comparison: object  # simsym.studies.compare.Comparison
    units: str = "pp"

    def _frame(self, df: pd.DataFrame) -> pd.DataFrame:
        df = df.copy()
        metric = df["metric"] if "metric" in df.columns else pd.Series("seat_gap", df.index)
        share = metric.isin(_COMPARE_SHARES).to_numpy()
        if self.units == "pp":
            for c in ("A", "B", "diff", "lo", "hi"):
                df.loc[share, c] = df.loc[share, c] * 100
        df["unit"] = ["points" if not s else self.units for s in share]
        return df.rename(columns={"beyond_noise": "real"})

    @property
    def seats(self) -> pd.DataFrame:
        return self._frame(self.comparison.seats)

    @property
    def gap(self) -> pd.DataFrame:
        return self._frame(self.comparison.gap)

    @property
    def cards(self) -> pd.DataFrame:
        """Every card's strength, GIH win rate, raw IWD and play rate change; the changed
        cards first. Only strength is tested by the one rule."""
        from simsym.studies.compare import changed_first

        c = self.comparison
        order = list(changed_first(c)["name"])
        rank = {n: i for i, n in enumerate(order)}
        metrics = {m: i for i, m in enumerate(dict.fromkeys(c.cards["metric"]))}
        return self._frame(c.cards.sort_values(
            ["metric", "name"], key=lambda s: s.map(rank) if s.name == "name"
            else s.map(metrics), kind="stable", ignore_index=True))

    @property
    def changes(self) -> list[str]:
        from simsym.studies.compare import plain_changes

        return plain_changes(self.comparison)

    @property
    def verdict(self) -> list[str]:
        """The verdict's lines as compare.md and the terminal say them."""
        from simsym.studies.compare import verdict

        return [line.removeprefix("- ").replace("**", "") for line in
                verdict(self.comparison, [])]

    @property
    def balanced(self) -> dict:
        """Balanced? for A and B (``balanced["a"].as_dict()`` in full), what B fixed or
        broke, and the answers under the other judge of a judged scenario."""
        from simsym.studies.compare import criteria_moves

        c = self.comparison
        out = {"a": c.balance[0], "b": c.balance[1], "moves": criteria_moves(*c.balance)}
        if c.other_balance:
            label, oa, ob = c.other_balance
            out["other_judge"] = {"judge": label, "a": oa, "b": ob,
                                  "moves": criteria_moves(oa, ob)}
        return out

    @property
    def for_better_players(self) -> pd.DataFrame | None:
        """Whether the change holds under the generation before the shipped model (the
        learned player's, on the same deals; docs/designer-guide.md, "Does it hold for
        better players?"): one row a tested change, with kind (seats, cards, quality), name,
        the change under each generation (previous, newest), real_previous, real_newest,
        holds, and how far the change moves (move, lo..hi, real). Shares in ``units``;
        measures of how the game plays in their own unit. None when the change has no
        generation before its judge's (a fast table, a model file of your own)."""
        conv = self.comparison.convergence
        if not conv:
            return None
        df = pd.DataFrame(conv["rows"])
        if "unit" not in df.columns:
            df["unit"] = "pp"
        df["unit"] = df["unit"].fillna("pp")
        share = (df["unit"] == "pp").to_numpy()
        if self.units == "fraction":
            for c in ("previous", "newest", "move", "lo", "hi"):
                df.loc[share, c] = df.loc[share, c] / 100
            df.loc[share, "unit"] = "fraction"
        from simsym.analysis.convergence import stopped

        df["stopped"] = [stopped(h, r) for h, r in zip(df["holds"], df["real"])]
        return df

    def report(self, out) -> Path:
        """Write compare.md, its plots and CSVs into ``out``; returns compare.md's path."""
        from simsym.studies.compare import write_report

        return write_report(self.comparison, Path(out), [])

    def _repr_html_(self) -> str:
        c = self.comparison
        items = "".join(f"<li>{html.escape(x)}</li>" for x in self.changes) or \
            "<li>Nothing: the same cards, rules and table.</li>"
        verdict = "".join(f"<li>{html.escape(x)}</li>" for x in self.verdict)
        a, b = c.balance
        bal = (f"<p><b>Balanced?</b> A: {a.answer}; B: {b.answer} "
               f"({html.escape(self.balanced['moves'])})</p>")
        g = self.cards[self.cards["metric"] == "strength"].head(10)
        g = g[["name", "A", "B", "diff", "lo", "hi", "p_adjusted"]].copy()
        if self.units == "fraction":
            g[["A", "B", "diff", "lo", "hi"]] = 100 * g[["A", "B", "diff", "lo", "hi"]]
        g.columns = ["card", "strength A (pp)", "strength B (pp)", "change (pp)", "95% low",
                     "95% high", "Holm p"]
        return (f"<h4>A = {html.escape(c.a_name)}, B = {html.escape(c.b_name)}: {c.games:,} "
                f"games each on the same deals (seed {c.seed})</h4>{bal}<p>What B changes:</p>"
                f"<ul>{items}</ul><p>Verdict:</p><ul>{verdict}</ul>"
                "<p>Cards, the changed ones first (strength: IWD minus the table's "
                "average)</p>" + _frame_html(g))


def compare(a, b, games: int | None = None, seed: int | None = None, jobs: int = 1,
            judge: str | None = None, units: str = "pp",
            both_judges: bool = True) -> CompareResult:
    """A and B (files, ``simsym:NAME``, Scenarios, mappings or run directories) on the same
    seed and game indices, as `simsym compare` plays them: A's games and seed unless
    given; a judged scenario also under its other judge, for its Balanced? answers
    (``both_judges=False``: the one judge alone). ``units``: "pp" (default) or
    "fraction"."""
    from simsym.studies.compare import compare as run_compare

    _check_units(units)

    def side(x):
        return x if isinstance(x, (str, Path)) and Path(x).is_dir() else scenario(x)

    return CompareResult(run_compare(side(a), side(b), games=games, seed=seed, jobs=jobs,
                                     judge=judge, both_judges=both_judges), units)


@dataclass
class SweepResult:
    """One row a value (``table``, as sweep.csv) and one row a value and metric in its unit
    with its 95% interval (``long``, as sweep_long.csv)."""

    scenario: Scenario
    kind: str
    target: str
    games: int
    seed: int
    table: pd.DataFrame
    long: pd.DataFrame | None
    _tables: object = field(default=None, repr=False)  # a strategies sweep's full result

    def report(self, out) -> Path:
        """Write sweep.md, its plot and CSVs into ``out``; returns sweep.md's path."""
        if self.kind == "strategies":
            from simsym.studies.table_sweep import write_tables

            return write_tables(self._tables, Path(out))
        from simsym.studies.sweep import write_sweep

        return write_sweep(self.table, self.scenario, self.kind, self.target, self.games,
                           self.seed, Path(out))

    def _repr_html_(self) -> str:
        head = (f"<h4>Sweep of {html.escape(str(self.target))} ({self.scenario.name}): "
                f"{self.games:,} games a value, seed {self.seed}</h4>")
        if self.long is None:
            return head + _frame_html(self.table)
        cells = self.long.assign(cell=[f"{e:.2f} ({lo:.2f} to {hi:.2f})" for e, lo, hi in
                                       zip(self.long.estimate, self.long.lo, self.long.hi)],
                                 metric=self.long.metric + " (" + self.long.unit + ")")
        wide = cells.pivot(index="value", columns="metric", values="cell")
        wide = wide.reindex(index=list(dict.fromkeys(self.long.value)),
                            columns=list(dict.fromkeys(cells.metric)))
        return head + "<p>Each figure with its 95% interval</p>" + wide.to_html()


def sweep(source=None, *, card: str | None = None, rule: str | None = None,
          players: list[int] | None = None, values: list | None = None,
          games: int | None = None, seed: int | None = None, jobs: int = 1,
          judge: str | None = None) -> SweepResult:
    """Play the scenario once per value on the same deals, as `simsym sweep` does: a card's
    notation (``card=``, ``values=``), a rule option (``rule=``, ``values=``), the player
    count (``players=[2, 3, 4]``), or the scenario's own `sweep:`."""
    from simsym.studies.sweep import long_table, run_sweep, sweep_spec

    sc = scenario(source).judge(judge)
    kind, target, vals = sweep_spec(sc, card, rule, players, values)
    games = games or sc.games
    seed = sc.seed if seed is None else seed
    if kind == "strategies":
        from simsym.studies.table_sweep import run_tables

        res = run_tables(sc, vals, games, seed, jobs)
        return SweepResult(sc, kind, "strategies", games, seed, res.rows, None, res)
    df = run_sweep(sc, kind, target, vals, games, seed, jobs)
    return SweepResult(sc, kind, str(target), games, seed, df, long_table(df))
