"""Score and game-length distributions from totals.json's histograms."""

from __future__ import annotations

import numpy as np
import pandas as pd


def score_distribution(totals: dict) -> pd.DataFrame:
    """Games by final score, one column per seat (``seat_0`` ...); the last bin is 'or more'."""
    hist = np.asarray(totals["score_hist"], dtype=np.int64)
    df = pd.DataFrame(hist.T, columns=[f"seat_{i}" for i in range(hist.shape[0])])
    df.insert(0, "score", np.arange(hist.shape[1]))
    return df


def length_distribution(totals: dict) -> pd.DataFrame:
    """Games by length in turns; the last bin is 'or more'."""
    hist = np.asarray(totals["length_hist"], dtype=np.int64)
    return pd.DataFrame({"turns": np.arange(len(hist)), "games": hist})


def hist_quantiles(values: np.ndarray, counts: np.ndarray,
                   qs=(0.05, 0.25, 0.5, 0.75, 0.95)) -> list[int]:
    """Quantiles (lower value at each cumulative share) of a histogram."""
    counts = np.asarray(counts, dtype=np.int64)
    cum = np.cumsum(counts)
    total = cum[-1] if len(cum) else 0
    if total == 0:
        return [0 for _ in qs]
    return [int(values[np.searchsorted(cum, q * total, side="left")]) for q in qs]
