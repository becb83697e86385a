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


def wilson(successes, n, alpha=ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """95% Wilson score interval of successes/n (successes may be fractional: shared ties).

    statsmodels' proportion_confint(method="wilson"); NaN where n == 0. ``alpha`` (one value,
    or one per element) gives a 1 - alpha interval instead.
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    alpha = np.broadcast_to(np.asarray(alpha, dtype=float), s.shape)
    ok = n > 0
    lo = np.full(s.shape, np.nan)
    hi = np.full(s.shape, np.nan)
    if np.any(ok):
        lo_ok, hi_ok = proportion_confint(s[ok], n[ok], alpha=alpha[ok], method="wilson")
        lo[ok] = lo_ok
        hi[ok] = hi_ok
    return lo, hi


def newcombe_diff(s1, n1, s2, n2, alpha=ALPHA) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """p1 - p2 and its 95% interval by Newcombe's hybrid score method (his method 10).

    Treats the two proportions as independent and combines their Wilson intervals:
    lower = d - sqrt((p1 - l1)^2 + (u2 - p2)^2), upper = d + sqrt((u1 - p1)^2 + (p2 - l2)^2).
    The same as statsmodels' confint_proportions_2indep(method="newcomb", compare="diff").
    ``alpha`` as for :func:`wilson`.
    """
    p1, p2 = rate(s1, n1), rate(s2, n2)
    l1, u1 = wilson(s1, n1, alpha)
    l2, u2 = wilson(s2, n2, alpha)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


Z_MAX = 37.0  # 2 * P(Z > 37) is about 1e-299, still a float; p-values below it print as 0


def newcombe_p(s1, n1, s2, n2, reference, steps: int = 60) -> np.ndarray:
    """Two-sided p-value of "p1 - p2 equals reference", by inverting Newcombe's interval.

    The p-value is the smallest alpha whose 1 - alpha interval (:func:`newcombe_diff`)
    excludes ``reference``: the intervals shrink as alpha grows, so it is found by bisection
    on the normal quantile z = isf(alpha / 2). So p < 0.05 exactly where the 95% interval
    excludes the reference (the markers of the card table), and the p-values can be adjusted
    for testing many cards (:func:`holm`). NaN where either n is 0.
    """
    s1, n1, s2, n2 = (np.asarray(x, dtype=float) for x in (s1, n1, s2, n2))
    ref = np.broadcast_to(np.asarray(reference, dtype=float), s1.shape)

    def excludes(z):
        _, lo, hi = newcombe_diff(s1, n1, s2, n2, 2 * sps.norm.sf(z))
        return (lo > ref) | (hi < ref)

    lo_z, hi_z = np.zeros(s1.shape), np.full(s1.shape, Z_MAX)
    for _ in range(steps):  # invariant: the interval excludes ref at lo_z, not at hi_z
        mid = (lo_z + hi_z) / 2
        ex = excludes(mid)
        lo_z, hi_z = np.where(ex, mid, lo_z), np.where(ex, hi_z, mid)
    p = np.where(excludes(np.zeros(s1.shape)), 2 * sps.norm.sf(lo_z), 1.0)
    p = np.where(excludes(np.full(s1.shape, Z_MAX)), 0.0, p)
    return np.where((n1 > 0) & (n2 > 0), p, np.nan)


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN): statsmodels' multipletests."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(p, dtype=float)
    out = np.full_like(p, np.nan, dtype=float)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method="holm")[1]
    return out


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
