"""Intervals and tests shared by the card and seat tables (vectorised over arrays)."""

from __future__ import annotations

import numpy as np
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

ALPHA = 0.05  # every interval in the report is a 95% interval


def rate(successes, n) -> np.ndarray:
    """successes / n, NaN where n == 0."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, s / np.where(n > 0, n, 1.0), np.nan)


def wilson(successes, n) -> tuple[np.ndarray, np.ndarray]:
    """95% Wilson score interval of successes/n (successes may be fractional: shared ties).

    statsmodels' proportion_confint(method="wilson"); NaN where n == 0.
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    ok = n > 0
    lo = np.full(s.shape, np.nan)
    hi = np.full(s.shape, np.nan)
    if np.any(ok):
        lo_ok, hi_ok = proportion_confint(s[ok], n[ok], alpha=ALPHA, method="wilson")
        lo[ok] = lo_ok
        hi[ok] = hi_ok
    return lo, hi


def newcombe_diff(s1, n1, s2, n2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """p1 - p2 and its 95% interval by Newcombe's hybrid score method (his method 10).

    Treats the two proportions as independent and combines their Wilson intervals:
    lower = d - sqrt((p1 - l1)^2 + (u2 - p2)^2), upper = d + sqrt((u1 - p1)^2 + (p2 - l2)^2).
    The same as statsmodels' confint_proportions_2indep(method="newcomb", compare="diff").
    """
    p1, p2 = rate(s1, n1), rate(s2, n2)
    l1, u1 = wilson(s1, n1)
    l2, u2 = wilson(s2, n2)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def marker(lo, hi, reference) -> np.ndarray:
    """'+' where the interval lies wholly above reference, '-' wholly below, '' otherwise."""
    lo = np.asarray(lo, dtype=float)
    hi = np.asarray(hi, dtype=float)
    ref = np.broadcast_to(np.asarray(reference, dtype=float), lo.shape)
    out = np.full(lo.shape, "", dtype=object)
    out[lo > ref] = "+"
    out[hi < ref] = "-"
    return out


def chi_square_equal(observed) -> tuple[float, int, float]:
    """Chi-square goodness of fit of observed counts against equal expected counts.

    Returns (statistic, degrees of freedom, p-value); scipy.stats.chisquare.
    """
    obs = np.asarray(observed, dtype=float)
    exp = np.full(obs.shape, obs.sum() / len(obs))
    res = sps.chisquare(obs, exp)
    return float(res.statistic), len(obs) - 1, float(res.pvalue)
