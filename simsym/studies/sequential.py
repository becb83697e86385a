"""Sequential comparison: play deal blocks until a test decides, then stop.

A fixed-size comparison spends the same games on a change that moves a seat by 10 points as
on one that moves nothing. Here A and B are played block by block on the same deals (common
random numbers: block k is game indices k*b .. k*b+b-1 of both, same seed), and after each
look a sequential probability ratio test on the paired block differences
``d_k = metric(B, block k) - metric(A, block k)`` says whether to go on.

The test is fishtest's GSPRT (the generalised SPRT used to accept chess-engine patches),
applied to the mean of ``d``: with the sample mean ``m`` and variance ``s2`` of the n block
differences, the log-likelihood ratio of "the mean is mu1" against "the mean is mu0" under a
normal model with the observed variance is

    LLR(mu0, mu1) = n * (mu1 - mu0) * (2*m - mu0 - mu1) / (2 * s2)

and Wald's bounds are ``log(beta / (1 - alpha))`` (accept H0) and ``log((1 - beta) / alpha)``
(accept H1). Two-sided ("did B change the metric by at least ``delta`` either way?") runs two
one-sided tests, 0 against +delta and 0 against -delta, each at ``alpha / 2``: B changed the
metric when either accepts its H1; B did not change it by ``delta`` when both accept H0.
One-sided tests ("B raised it by at least delta") use the first only, at ``alpha``.

A block difference averages a whole block of games, so ``d`` is close to normal even for a
win share; a test looks only once it has ``min_blocks`` blocks, so the variance is not a
guess. The SPRT may be checked at any look without inflating its error rates beyond Wald's
bounds, so looks come every ``look`` blocks (few process pools, little overhead) and the test
stops at the first look that decides, or undecided at the cap.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from simsym.errors import SimsymError

SIDES = ("two", "greater", "less")


def llr(diffs, mu0: float, mu1: float) -> float:
    """GSPRT log-likelihood ratio of mean ``mu1`` against ``mu0`` for the differences."""
    d = np.asarray(diffs, dtype=float)
    n = len(d)
    if n < 2:
        return 0.0
    s2 = float(d.var(ddof=1))
    if s2 <= 0.0:  # every block differs by the same amount: all the evidence there is
        m = float(d.mean())
        gap = (m - mu0) ** 2 - (m - mu1) ** 2
        return math.copysign(math.inf, gap) if gap != 0 else 0.0
    return n * (mu1 - mu0) * (2.0 * float(d.mean()) - mu0 - mu1) / (2.0 * s2)


@dataclass
class SPRT:
    """The sequential test of one metric's paired difference B - A.

    ``delta``: the smallest change worth knowing about, in the metric's unit (0.02 for 2
    percentage points of a win share). ``sides``: "two" (a change either way), "greater" (B
    raised it) or "less" (B lowered it)."""

    delta: float
    alpha: float = 0.05
    beta: float = 0.05
    sides: str = "two"
    min_blocks: int = 20

    def __post_init__(self):
        if not self.delta > 0:
            raise SimsymError(f"sequential test: delta must be above 0, got {self.delta}")
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not 0 < v < 0.5:
                raise SimsymError(f"sequential test: {name} must be between 0 and 0.5, got {v}")
        if self.sides not in SIDES:
            raise SimsymError(f"sequential test: sides {self.sides!r}; allowed: "
                              + ", ".join(SIDES))

    def bounds(self) -> tuple[float, float]:
        """(accept H0 at or below, accept H1 at or above) for each one-sided test."""
        a = self.alpha / 2 if self.sides == "two" else self.alpha
        return math.log(self.beta / (1 - a)), math.log((1 - self.beta) / a)

    def state(self, diffs) -> "Decision":
        """Where the test stands after these block differences."""
        lower, upper = self.bounds()
        d = np.asarray(diffs, dtype=float)
        up = llr(d, 0.0, self.delta) if self.sides in ("two", "greater") else None
        down = llr(d, 0.0, -self.delta) if self.sides in ("two", "less") else None
        verdict = None
        if len(d) >= self.min_blocks:
            tests = [x for x in (up, down) if x is not None]
            if up is not None and up >= upper:
                verdict = "greater"
            elif down is not None and down >= upper:
                verdict = "less"
            elif all(x <= lower for x in tests):
                verdict = "no-change"
        return Decision(len(d), verdict, up, down, lower, upper, *interval(d))


@dataclass
class Decision:
    """One look: blocks so far, the verdict (None: go on; "greater"/"less": B changed the
    metric by at least delta that way; "no-change": not by delta), the LLRs and bounds, and
    the mean difference with its 95% interval."""

    blocks: int
    verdict: str | None
    llr_up: float | None
    llr_down: float | None
    lower: float
    upper: float
    mean: float
    lo: float
    hi: float

    @property
    def decided(self) -> bool:
        return self.verdict is not None


def interval(d) -> tuple[float, float, float]:
    """Mean of the block differences and its t 95% interval (NaN with fewer than 2)."""
    from scipy import stats as sps

    n = len(d)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(np.mean(d))
    if n < 2:
        return m, math.nan, math.nan
    half = float(sps.t.ppf(0.975, n - 1) * np.std(d, ddof=1) / math.sqrt(n))
    return m, m - half, m + half


# --- metrics of one block ------------------------------------------------------------------

_METRIC = re.compile(r"^(seat-gap|seat:(\d+)|(card|gih|iwd|play):(.+)|quality:(.+))$")
METRICS = {
    "seat-gap": "best minus worst seat's win share",
    "seat:N": "seat N's win share (0-based)",
    "card:CARD": "CARD's strength: its IWD minus the table's average IWD",
    "gih:CARD": "win share of players who held CARD",
    "iwd:CARD": "CARD's improvement when drawn (held minus never held)",
    "play:CARD": "CARD's play rate when held",
    "quality:MEASURE": "a measure of how the game plays (turns, lead_changes, drama, margin, "
                       "shared_win, ...; docs/designer-guide.md)",
}


@dataclass
class Metric:
    """A per-block metric by name (see ``METRICS``), resolved against both scenarios."""

    spec: str
    seat: int | None = None
    card_kind: str | None = None
    kinds: tuple = field(default_factory=tuple)  # the card's kind code in A and in B
    quality: int | None = None  # the measure's row in simsym.analysis.quality.MEASURES

    def value(self, totals: dict, agg, players: int, which: int) -> float:
        from simsym.studies.paired import card_metrics, seat_metrics

        if self.spec == "seat-gap":
            return float(seat_metrics(totals, players)["seat_gap"][0])
        if self.seat is not None:
            return float(seat_metrics(totals, players)["win_rate"][self.seat])
        if self.quality is not None:
            from simsym.analysis.quality import quality_frame
            from simsym.run.summary import quality_block

            return float(quality_frame(quality_block(totals))["estimate"].iloc[self.quality])
        name = {"card": "strength", "gih": "gih_wr", "iwd": "iwd",
                "play": "play_rate"}[self.card_kind]
        return float(card_metrics(agg, totals)[name][self.kinds[which]])

    @property
    def unit(self) -> str:
        """The unit its changes are read in: pp for a share, else the measure's unit."""
        from simsym.analysis.quality import MEASURES, SHARES

        if self.quality is None:
            return "pp"
        u = MEASURES[self.quality][1]
        return "pp" if u in SHARES else u

    def delta_words(self, delta: float) -> str:
        """The smallest change the test looks for, as the designer gave it: ``2 pp``,
        ``1 turn``."""
        k = 100.0 if self.unit == "pp" else 1.0
        unit = self.unit[:-1] if k * delta == 1 and self.unit.endswith("s") else self.unit
        return f"{k * delta:g} {unit}"

    def fmt(self, x: float, lo: float | None = None, hi: float | None = None,
            extra: int = 0) -> str:
        """A change in its unit, signed (``+2.0 pp``, ``+0.27 turns``), with its interval
        when given; ``extra`` decimals more than the report's (a mean per block)."""
        from simsym.analysis.quality import MEASURES, digits

        if self.unit == "pp":
            k, d = 100.0, 1 if self.quality is None else digits(MEASURES[self.quality][1])
        else:
            k, d = 1.0, digits(self.unit)
        d += extra
        out = f"{k * x:+.{d}f} {self.unit}"
        return out if lo is None else f"{out} ({k * lo:+.{d}f} to {k * hi:+.{d}f})"


def parse_metric(spec: str, a_sc, b_sc) -> Metric:
    """``seat-gap``, ``seat:N``, ``card|gih|iwd|play:CARD`` or ``quality:MEASURE`` -> a
    Metric, or a clear error."""
    from simsym.analysis.quality import KEYS, MEASURES

    m = _METRIC.match(spec.strip())
    if not m:
        raise SimsymError(f"metric {spec!r}: allowed: " + "; ".join(
            f"{k} ({v})" for k, v in METRICS.items()))
    if m[1] == "seat-gap":
        return Metric("seat-gap")
    if m[5] is not None:
        key = m[5].strip()
        if key not in KEYS:
            raise SimsymError(f"metric {spec!r}: no measure {key!r}; allowed: "
                              + ", ".join(KEYS))
        return Metric(spec, quality=[n for n, _ in MEASURES].index(KEYS[key]))
    if m[2] is not None:
        seat = int(m[2])
        if seat >= a_sc.players:
            raise SimsymError(f"metric {spec!r}: seats are 0..{a_sc.players - 1}")
        return Metric(spec, seat=seat)
    card = m[4].strip()
    kinds = []
    for sc in (a_sc, b_sc):
        k = sc.cards.index(card)
        if k is None:
            raise SimsymError(f"metric {spec!r}: no card named {card!r} in {sc.name}; cards: "
                              + ", ".join(c.name for c in sc.cards))
        kinds.append(k)
    return Metric(spec, card_kind=m[3], kinds=tuple(kinds))


def parse_delta(text, metric: Metric | None = None) -> float:
    """The smallest change worth finding in the metric's own terms: for a share ``2pp`` or
    ``0.02`` -> 0.02 (a bare number from 1 up is refused: a share is below 1); for a measure
    of how the game plays in another unit, a number in that unit (``1`` turn)."""
    s = str(text).strip()
    unit = metric.unit if metric is not None else "pp"
    try:
        if unit != "pp":
            v = float(s.removesuffix(unit).strip())
        elif s.endswith("pp"):
            v = float(s[:-2]) / 100
        else:
            v = float(s)
            if v >= 1:
                raise ValueError
    except ValueError:
        raise SimsymError(f"delta {text!r}: expected percentage points (2pp) or a fraction "
                          "below 1 (0.02)" if unit == "pp" else
                          f"delta {text!r}: expected a number of {unit} (the unit of "
                          f"{metric.spec})") from None
    if v <= 0:
        raise SimsymError(f"delta {text!r}: must be above 0")
    return v


# --- the driver ----------------------------------------------------------------------------

@dataclass
class Look:
    """What the driver yields after each look: games per side so far, the test's state, and
    the per-block values of A and B (for any other estimate a caller wants)."""

    games: int
    decision: Decision
    a_values: list
    b_values: list
    a_blocks: list  # ChunkResult of each block of A, in order
    b_blocks: list


def block_size(players: int, seating: str, wanted: int) -> int:
    """A block holds whole deals: under rotate seating a deal is ``players`` games."""
    step = players if seating == "rotate" else 1
    return max(step, (wanted // step) * step)


def run_until_decided(a_sc, b_sc, metric: Metric, test: SPRT, *, seed: int, block: int = 200,
                      max_games: int = 200_000, jobs: int = 1, look_blocks: int | None = None,
                      on_games=None):
    """Play A and B block by block on the same deals until ``test`` decides or each has
    played ``max_games``; yields a ``Look`` after every look (the last one is final).

    ``on_games(done)`` is called as blocks finish (games of A and B together) for progress.
    Blocks already played are never replayed: each look extends both runs by whole blocks."""
    from simsym.run.executor import run_games

    if a_sc.players != b_sc.players:
        raise SimsymError(f"A has {a_sc.players} players and B {b_sc.players}: compare tables "
                          "of the same size")
    block = block_size(a_sc.players, a_sc.seating, block)
    cap_blocks = max(test.min_blocks, math.ceil(max_games / block))
    look_blocks = look_blocks or max(2, jobs)
    done = {0: {}, 1: {}}
    counted = [0, 0]
    n_blocks = 0
    while True:
        # the first look once the test may decide; then a quarter more each look (at least
        # ``look_blocks``), so a long comparison starts few process pools
        step = max(look_blocks, n_blocks // 4) if n_blocks else max(test.min_blocks, look_blocks)
        n_blocks = min(cap_blocks, n_blocks + step)
        games = n_blocks * block
        for side, sc in enumerate((a_sc, b_sc)):
            def on_chunk(res, played, side=side):
                done[side][res.index] = res
                counted[side] = len(done[side]) * block
                if on_games:
                    on_games(min(counted[0], games) + min(counted[1], games))

            run_games(sc, games, seed, jobs=jobs, chunk_size=block, on_chunk=on_chunk,
                      done={i: r for i, r in done[side].items() if i < n_blocks})
        a_blocks = [done[0][i] for i in range(n_blocks)]
        b_blocks = [done[1][i] for i in range(n_blocks)]
        av = [metric.value(r.totals, r.agg, a_sc.players, 0) for r in a_blocks]
        bv = [metric.value(r.totals, r.agg, b_sc.players, 1) for r in b_blocks]
        d = np.array(bv) - np.array(av)
        d = d[~np.isnan(d)]
        decision = test.state(d)
        yield Look(games, decision, av, bv, a_blocks, b_blocks)
        if decision.decided or n_blocks >= cap_blocks:
            return


# --- what a finished sequential comparison reports -----------------------------------------

VERDICTS = {
    "greater": "B raised {m} by at least {d}",
    "less": "B lowered {m} by at least {d}",
    "no-change": "B did not change {m} by {d} or more",
    None: "undecided at the cap: neither a change of {d} nor its absence was shown",
}


def batched(sc, blocks: list, seed: int):
    """The blocks of one side of a Look as a ``simsym.studies.paired.BatchedRun`` (its paired tables
    then use one batch a block)."""
    from simsym.run.aggregate import merge
    from simsym.studies.paired import BatchedRun

    totals = None
    for r in blocks:
        totals = merge(totals, r.totals)
    agg = np.sum([r.agg for r in blocks], axis=0)
    games = sum(r.g1 - r.g0 for r in blocks)
    return BatchedRun(sc, games, seed, totals, agg, [r.totals for r in blocks],
                      [r.agg for r in blocks])


def verdict_lines(look: Look, metric: Metric, test: SPRT, cap: int) -> list[str]:
    """The sequential test's verdict in words (first in compare.md)."""
    d = look.decision
    delta = metric.delta_words(test.delta)
    said = VERDICTS[d.verdict].format(m=f"`{metric.spec}`", d=delta)
    return [f"- **{said[0].upper()}{said[1:]}**, decided after **{look.games:,} games** each "
            f"({d.blocks} paired blocks; cap {cap:,})." if d.verdict else
            f"- **{said[0].upper()}{said[1:]}** after {look.games:,} games each (the cap).",
            f"- Mean change B - A of `{metric.spec}` per block: "
            f"{metric.fmt(d.mean, d.lo, d.hi, extra=1).replace(' (', ' (95% CI ', 1)}.",
            f"- GSPRT ({test.sides}-sided, H0: no change, H1: a change of {delta}; "
            f"alpha {test.alpha:g}, beta {test.beta:g}): LLR "
            + ", ".join(f"{name} {v:+.2f}" for name, v in (("up", d.llr_up),
                                                            ("down", d.llr_down))
                        if v is not None)
            + f" against bounds {d.lower:+.2f} (no change) and {d.upper:+.2f} (a change)."]


def subject_row(c, metric: Metric):
    """The row of a comparison (simsym.studies.compare.Comparison) that holds the metric the
    sequential test played for: the same difference judged by the one rule."""
    if metric.spec == "seat-gap":
        return c.gap.iloc[0]
    if metric.seat is not None:
        s = c.seats[c.seats["metric"] == "win_rate"]
        return s.iloc[metric.seat]
    if metric.quality is not None:
        return c.quality.iloc[metric.quality]
    name = {"card": "strength", "gih": "gih_wr", "iwd": "iwd",
            "play": "play_rate"}[metric.card_kind]
    card = metric.spec.split(":", 1)[1].strip()
    rows = c.cards[(c.cards["metric"] == name) & (c.cards["name"] == card)]
    return rows.iloc[0]


def compare_until_decided(a_sc, b_sc, metric: Metric, test: SPRT, *, seed: int,
                          block: int = 200, max_games: int = 200_000, jobs: int = 1,
                          on_games=None):
    """Run the driver to its end; the paired comparison of the games played, with the
    sequential verdict lines in it (``simsym.studies.compare.Comparison.sequential``)."""
    from simsym.studies.compare import comparison_of

    look = None
    for look in run_until_decided(a_sc, b_sc, metric, test, seed=seed, block=block,
                                  max_games=max_games, jobs=jobs, on_games=on_games):
        pass
    c = comparison_of(batched(a_sc, look.a_blocks, seed), batched(b_sc, look.b_blocks, seed))
    c.sequential = verdict_lines(look, metric, test, max_games) + [one_rule_line(c, metric)]
    return c, look


def subject_words(c, metric: Metric):
    """The row of the tested metric (:func:`subject_row`) and its verdict in words: the one
    rule's, or that the metric is shown but not among the changes the rule tests."""
    from simsym.studies.compare import rule_words

    r = subject_row(c, metric)
    if math.isnan(float(r["p_adjusted"])):
        return r, "shown, not among the changes the one rule tests"
    return r, rule_words(r, c.tested)


def one_rule_line(c, metric: Metric) -> str:
    """The tested metric's difference over the games played, judged by the one rule (the
    sequential test chose when to stop; the verdict is the rule's, as everywhere)."""
    r, judged = subject_words(c, metric)
    return (f"- **The verdict** on `{metric.spec}`, by the one rule over the games played: "
            f"{metric.fmt(r['diff'], r['lo'], r['hi'])}, {judged}.")
