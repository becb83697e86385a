"""Is the game balanced? The criteria, the one rule for a real difference, and the answer.

**Card strength, one frame.** A card's strength is its IWD minus the table's average IWD, in
percentage points, with the card's 95% interval shifted by the same average (the average over
every card is taken as known). Raw IWD sits above zero for
every card (a player who sees more cards wins more), so only the difference from the average
says strong or weak.

**One rule for a real difference.** A report tests many things at once: every card against
the table's average, every card's and every seat's change between two scenarios. Of 75
intervals at 95%, about four exclude the truth by chance alone, so a difference is called real
when its Holm-adjusted p-value, over every test of the report's family, is below
0.05. An interval that excludes 0 while the adjusted test does not is reported in words: not
told apart from noise once the whole family is tested.

**Balanced**, by the scenario's ``balance:`` criteria (defaults: 3 pp each):
- cards: every card's strength within ``card_band`` of the table's average;
- seats: the best seat's win share minus the worst's within ``seat_band``, with the seat
  compensation the run verified on fresh deals when there is one.
Each criterion is *met* (every estimate inside the band), *not met* (something outside the band
beyond noise, by the rule above against the band's edge) or *not decided* (an estimate outside
the band, within noise of its edge). The game is balanced when every criterion is met.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simsym.analysis import stats

DEFAULT_BAND = 0.03  # both criteria's band, as a fraction (3 pp)
# The one rule, in the words every report's glossary, the README and the guide state it.
RULE = ("a real change is one whose Holm-adjusted p-value, over everything the report tests, "
        "is below 0.05")
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
MET, NOT_MET, UNDECIDED = "met", "not met", "not decided"
WORDS = {MET: "yes", NOT_MET: "no", UNDECIDED: "not decided"}


@dataclass(frozen=True)
class Criteria:
    """The scenario's `balance:` block, as fractions (the file states them in pp)."""

    card_band: float = DEFAULT_BAND
    seat_band: float = DEFAULT_BAND

    def as_pp(self) -> dict:
        return {"card_band": round(self.card_band * 100, 6),
                "seat_band": round(self.seat_band * 100, 6)}

    @classmethod
    def from_pp(cls, d: dict | None) -> "Criteria":
        d = d or {}
        return cls(card_band=float(d.get("card_band", DEFAULT_BAND * 100)) / 100,
                   seat_band=float(d.get("seat_band", DEFAULT_BAND * 100)) / 100)


# --- cards ----------------------------------------------------------------------------------

def strength_columns(df: pd.DataFrame, average: float,
                     family: int | None = None) -> pd.DataFrame:
    """Card strength in one frame, and the one rule applied to it.

    ``df``: rows with the counts of :mod:`simsym.analysis.cards` (held_wins, held_n, gns_wins,
    gns_n) and their ``iwd``, ``iwd_lo``, ``iwd_hi``; ``average``: the table's average IWD.
    Adds, per row: ``strength`` = iwd - average and ``strength_lo``/``strength_hi``, its 95%
    interval; ``strength_p`` (the card against the average), ``strength_p_holm`` (Holm over
    the ``family`` size, default every row with a p-value) and ``verdict``: 'strong'/'weak'
    where the adjusted p is below 0.05, '' within noise; ``interval_only`` where the interval
    excludes the average but the adjusted test does not.
    """
    out = df.copy()
    avg = float(average)
    out["strength"] = out["iwd"] - avg
    out["strength_lo"] = out["iwd_lo"] - avg
    out["strength_hi"] = out["iwd_hi"] - avg
    p = stats.newcombe_p(out["held_wins"], out["held_n"], out["gns_wins"], out["gns_n"], avg)
    out["strength_p"] = p
    out["strength_p_holm"] = _holm(p, family)
    real = out["strength_p_holm"].to_numpy() < stats.ALPHA
    s = out["strength"].to_numpy(dtype=float)
    out["verdict"] = np.where(real & (s > 0), "strong", np.where(real & (s < 0), "weak", ""))
    excl = (out["strength_lo"].to_numpy() > 0) | (out["strength_hi"].to_numpy() < 0)
    out["interval_only"] = excl & ~real
    return out


def band_columns(df: pd.DataFrame, average: float, band: float = DEFAULT_BAND,
                 family: int | None = None) -> pd.DataFrame:
    """Each card against the card band (rows of :func:`strength_columns`): ``band_p_holm``
    (the card's IWD against the band's nearer edge, Holm-adjusted) and ``band``: 'inside'
    (the estimate within ``band`` of the average), 'outside' (beyond its edge, beyond noise)
    or 'edge' (outside on the estimate, within noise of the edge)."""
    out = df.copy()
    avg = float(average)
    s = out["strength"].to_numpy(dtype=float)
    edge = avg + np.where(s >= 0, band, -band)
    bp = stats.newcombe_p(out["held_wins"], out["held_n"], out["gns_wins"], out["gns_n"], edge)
    out["band_p_holm"] = _holm(bp, family)
    beyond = np.abs(s) > band
    out["band"] = np.where(~beyond | np.isnan(s), "inside",
                           np.where(out["band_p_holm"].to_numpy() < stats.ALPHA, "outside",
                                    "edge"))
    return out


def card_frame(df: pd.DataFrame, average: float, band: float = DEFAULT_BAND,
               family: int | None = None) -> pd.DataFrame:
    """:func:`strength_columns` and :func:`band_columns` together."""
    return band_columns(strength_columns(df, average, family), average, band, family)


def _holm(p, family: int | None) -> np.ndarray:
    """Holm's adjustment; with ``family`` larger than len(p), as if the other tests of the
    family were far from significant (their p-values 1)."""
    p = np.asarray(p, dtype=float)
    if family is None or family <= len(p):
        return stats.holm(p)
    padded = np.concatenate([p, np.ones(family - len(p))])
    return stats.holm(padded)[:len(p)]


# --- seats ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Spread:
    """The best seat's win share minus the worst's, with a 95% interval."""

    value: float
    lo: float
    hi: float
    best: int
    worst: int
    games: int
    compensation: list[int] | None = None  # the starting points the seats played with

    def as_pp(self) -> dict:
        return {"value": _pp(self.value), "lo": _pp(self.lo), "hi": _pp(self.hi),
                "best_seat": self.best, "worst_seat": self.worst, "games": self.games,
                "compensation": self.compensation}


def seat_spread(win_rates, games: int, compensation=None) -> Spread:
    """The spread of the seats' win shares of one table of ``games`` games, its interval from
    the multinomial variance of the difference of the two seats' shares,
    (p_i (1 - p_i) + p_j (1 - p_j) + 2 p_i p_j) / n, its lower end cut at 0."""
    w = np.asarray(win_rates, dtype=float)
    i, j = int(np.argmax(w)), int(np.argmin(w))
    d = float(w[i] - w[j])
    var = (w[i] * (1 - w[i]) + w[j] * (1 - w[j]) + 2 * w[i] * w[j]) / max(games, 1)
    half = Z95 * math.sqrt(max(var, 0.0))
    # a spread is never below 0: the interval's lower end is cut there
    return Spread(d, max(d - half, 0.0), d + half, i, j, int(games),
                  list(compensation) if compensation else None)


# --- the answer -----------------------------------------------------------------------------

@dataclass
class Balance:
    """The answer for one table: each criterion's state and what it rests on."""

    judge: str  # who played: "strong table (learned)", "fast table (greedy)", "A (...)"
    criteria: Criteria
    cards: pd.DataFrame  # card_frame's rows, strongest first
    spread: Spread
    compensation_verified: bool = False
    family: int = 0  # the cards tested (with a strength), the family of Holm's correction

    @property
    def cards_state(self) -> str:
        band = self.cards["band"]
        if (band == "outside").any():
            return NOT_MET
        return UNDECIDED if (band == "edge").any() else MET

    @property
    def seats_state(self) -> str:
        s, b = self.spread, self.criteria.seat_band
        if s.value <= b:
            return MET
        return NOT_MET if s.lo > b else UNDECIDED

    @property
    def state(self) -> str:
        states = {self.cards_state, self.seats_state}
        if NOT_MET in states:
            return NOT_MET
        return UNDECIDED if UNDECIDED in states else MET

    @property
    def answer(self) -> str:
        return WORDS[self.state]

    def outside(self, side: str | None = None) -> pd.DataFrame:
        """The cards outside the band beyond noise (``side`` 'strong' or 'weak')."""
        c = self.cards[self.cards["band"] == "outside"]
        if side == "strong":
            c = c[c["strength"] > 0]
        elif side == "weak":
            c = c[c["strength"] < 0].iloc[::-1]
        return c

    def changes(self) -> list[str]:
        """The smallest set of changes that remains: each card outside the band beyond noise
        and the least it must move to reach the band's edge (pp), strongest first; then the
        seats."""
        band = self.criteria.card_band
        out = [f"weaken {r['card']} by at least {(r['strength'] - band) * 100:.1f} pp"
               for _, r in self.outside("strong").iterrows()]
        out += [f"strengthen {r['card']} by at least {(-r['strength'] - band) * 100:.1f} pp"
                for _, r in self.outside("weak").iterrows()]
        if self.seats_state == NOT_MET:
            s = self.spread
            if s.compensation and any(s.compensation):
                out.append(f"re-tune the seat compensation {s.compensation} (it leaves a "
                           f"spread of {s.value * 100:.1f} pp)")
            else:
                out.append(f"compensate the seats (their spread is {s.value * 100:.1f} pp)")
        return out

    def as_dict(self) -> dict:
        """The answer as JSON values, every difference in pp."""
        def card(r):
            return {"card": r["card"], "strength": _pp(r["strength"]),
                    "lo": _pp(r["strength_lo"]), "hi": _pp(r["strength_hi"]),
                    "p_holm": _num(r["band_p_holm"])}

        return {"judge": self.judge, "balanced": self.answer, "units": "pp",
                "criteria": self.criteria.as_pp(),
                "cards": {"state": self.cards_state,
                          "strong_outside": [card(r) for _, r in
                                             self.outside("strong").iterrows()],
                          "weak_outside": [card(r) for _, r in self.outside("weak").iterrows()],
                          "edge": [card(r) for _, r in
                                   self.cards[self.cards["band"] == "edge"].iterrows()],
                          "tested": self.family},
                "seats": {"state": self.seats_state, "spread": self.spread.as_pp(),
                          "compensation_verified": self.compensation_verified},
                "changes": self.changes()}


def _pp(x) -> float | None:
    x = float(x)
    return None if math.isnan(x) else round(x * 100, 4)


def _num(x) -> float | None:
    x = float(x)
    return None if math.isnan(x) else round(x, 6)


def judge_balance(judge: str, strength: pd.DataFrame, average: float, seat_win_rates,
                  games: int, criteria: Criteria | None = None, compensation=None,
                  verified: bool = False) -> Balance:
    """The answer for one table from its card table (rows of
    :func:`simsym.analysis.cards.card_strength`, pooled) and its seats' win shares over
    ``games`` games (played with ``compensation``, verified on fresh deals or not)."""
    criteria = criteria or Criteria()
    cards = card_frame(strength, average, criteria.card_band)
    cards = cards.sort_values("strength", ascending=False, kind="mergesort",
                              na_position="last").reset_index(drop=True)
    return Balance(judge, criteria, cards, seat_spread(seat_win_rates, games, compensation),
                   compensation_verified=verified, family=int(cards["strength"].notna().sum()))


# --- words ----------------------------------------------------------------------------------

def fmt_pp(x: float, lo: float, hi: float, signed: bool = True) -> str:
    """``+13.0 pp (+12.8 to +13.3)``: a difference in pp with its interval (a spread,
    ``signed=False``: ``1.1 pp (0.7 to 1.5)``)."""
    f = "+.1f" if signed else ".1f"
    return f"{x * 100:{f}} pp ({lo * 100:{f}} to {hi * 100:{f}})"


def spread_words(s: Spread) -> str:
    return fmt_pp(s.value, s.lo, s.hi, signed=False)


def card_words(r) -> str:
    return f"{r['card']} {fmt_pp(r['strength'], r['strength_lo'], r['strength_hi'])}"


def balance_lines(b: Balance, listed: int = 6) -> list[str]:
    """Markdown lines of one table's answer: the answer, then each criterion and what
    remains."""
    c = b.criteria
    lines = [f"**{b.judge[:1].upper() + b.judge[1:]}: {b.answer}.**"]
    strong, weak = b.outside("strong"), b.outside("weak")
    edge = b.cards[b.cards["band"] == "edge"]

    def names(df):
        shown = "; ".join(card_words(r) for _, r in df.head(listed).iterrows())
        return shown + (f"; and {len(df) - listed} more" if len(df) > listed else "")

    text = (f"Cards (every card within ±{c.card_band * 100:g} pp of the table's average): "
            f"{b.cards_state}.")
    if len(strong):
        text += f" {len(strong)} too strong beyond noise: {names(strong)}."
    if len(weak):
        text += f" {len(weak)} too weak beyond noise: {names(weak)}."
    if len(edge):
        text += (f" {len(edge)} outside the band but within noise of its edge: "
                 f"{names(edge)}.")
    lines.append(text)
    s = b.spread
    comp = ("with the seat compensation `" + str(s.compensation) + "`"
            + (" verified on fresh deals" if b.compensation_verified else "")
            if s.compensation and any(s.compensation) else "with no seat compensation")
    lines.append(f"Seats (best minus worst seat's win share within {c.seat_band * 100:g} pp, "
                 f"{comp}): {b.seats_state}; seat {s.best} minus seat {s.worst}: "
                 f"{spread_words(s)}.")
    ch = b.changes()
    if len(ch) > 2 * listed:
        cards = [x for x in ch if not x.startswith(("re-tune", "compensate"))]
        rest = ch[len(cards):]
        ch = cards[:listed] + [f"and {len(cards) - listed} more cards (every one in "
                               f"balance.json)"] + rest
    lines.append("What remains: " + ("; ".join(ch) if ch else "nothing") + ".")
    return lines
