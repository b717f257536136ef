"""The statistic each published cell is compared with, and tolerances derived from the
published tables themselves.

A published number is one of three kinds, and each is compared with its own spread:

- a **mean over R repetitions** (most tables of MCLS and WellSVM): two means are compared,
  so the band around our mean is ``z * sqrt(s^2 / n + pm^2 / R)``: our standard error and,
  where the paper prints its ``±`` over ``R`` repetitions, the paper's standard error
  (:func:`mean_band`). The spread of single runs would be ``sqrt(n)`` times too wide;
- a **single split** (one published run): it is compared with the spread of our single
  runs, ``mean +- z * s`` (:func:`single_run_band`);
- a **rank of means** (a method's rank in a table of means): the band is the bootstrap
  distribution, over repetitions resampled jointly for all methods, of the rank of the
  method's mean (:func:`rank_of_means_band`), never the ranks of single repetitions.

No band is computed from fewer than :data:`MIN_RUNS` runs (:class:`TooFewRuns`): a spread
estimated from two or three runs explains anything.

:func:`derived_tolerance` derives a table's tolerance from the published table, before any
run: half the median gap between the methods whose order the paper's conclusions state,
never narrower than the printed precision or the paper's own ``±``.
:func:`uninformative` marks a cell where the trivial predictor (majority class,
all-positive) would also be within tolerance of the published number: agreement there says
nothing about the learned model. :func:`one_class_share` is the share of runs whose
predictions are one class for every test point.

Pure functions of arrays and frames; nothing here reads or writes a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["MIN_RUNS", "Band", "TooFewRuns", "mean_band", "single_run_band",
           "rank_of_means_band", "derived_tolerance", "uninformative", "one_class_share"]

#: fewest runs a spread is estimated from
MIN_RUNS = 5


class TooFewRuns(ValueError):
    """Fewer than :data:`MIN_RUNS` runs: no spread is estimated."""


@dataclass(frozen=True)
class Band:
    """An interval our statistic is expected in: ``statistic`` names what was compared."""

    statistic: str
    center: float
    low: float
    high: float
    n_runs: int

    def contains(self, value: float) -> bool:
        return bool(np.isfinite(value) and self.low <= value <= self.high)

    def describe(self, value: float | None = None) -> str:
        where = "" if value is None else (
            f"published {value:.4g} {'in' if self.contains(value) else 'outside'} ")
        return (f"{where}{self.statistic} {self.center:.4g}, band [{self.low:.4g}, "
                f"{self.high:.4g}] (n_runs={self.n_runs})")


def _runs(runs, name: str = "runs") -> np.ndarray:
    a = np.asarray(runs, dtype=float).ravel()
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    if a.size < MIN_RUNS:
        raise TooFewRuns(f"{name} has {a.size} run(s); a spread needs at least {MIN_RUNS}.")
    return a


def _positive(x: float, name: str) -> float:
    x = float(x)
    if not np.isfinite(x) or x <= 0:
        raise ValueError(f"{name} must be a positive number, got {x!r}.")
    return x


def mean_band(runs, *, published_pm: float | None = None,
              published_reps: int | None = None, z: float = 2.0) -> Band:
    """Band for a published **mean over repetitions**: our mean ``+- z`` standard errors of
    the difference of two means.

    Parameters
    ----------
    runs : array-like
        Our per-repetition values (at least :data:`MIN_RUNS`).
    published_pm : float, optional
        The paper's printed ``±`` (a standard deviation over its repetitions).
    published_reps : int, optional
        The paper's number of repetitions; required with ``published_pm``.
    z : float, default 2
    """
    a = _runs(runs)
    z = _positive(z, "z")
    var = a.var(ddof=1) / a.size
    if published_pm is not None and np.isfinite(published_pm):
        if published_reps is None:
            raise ValueError("published_reps is required with published_pm: the paper's "
                             "standard error is its ± over the square root of its "
                             "repetitions.")
        if float(published_pm) < 0:
            raise ValueError(f"published_pm must be >= 0, got {published_pm!r}.")
        var += float(published_pm) ** 2 / _positive(published_reps, "published_reps")
    half = z * float(np.sqrt(var))
    m = float(a.mean())
    return Band("mean of runs", m, m - half, m + half, int(a.size))


def single_run_band(runs, *, z: float = 2.0) -> Band:
    """Band for a published **single split**: the spread of our single runs,
    ``mean +- z * std`` (ddof = 1)."""
    a = _runs(runs)
    z = _positive(z, "z")
    m, half = float(a.mean()), z * float(a.std(ddof=1))
    return Band("single runs", m, m - half, m + half, int(a.size))


def _ranks(means: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Ranks (1 = best, ties averaged) along the last axis."""
    from scipy.stats import rankdata

    return rankdata(-means if higher_is_better else means, axis=-1)


def rank_of_means_band(runs: pd.DataFrame, method: str, *, higher_is_better: bool = True,
                       n_boot: int = 2000, level: float = 0.95,
                       random_state: int | np.random.Generator = 0) -> Band:
    """Band for a published **rank of a method's mean** among methods: the ``level``
    interval of the rank of ``method``'s mean when the repetitions (rows of ``runs``, one
    column per method, paired: row ``r`` of every method is repetition ``r``) are resampled
    with replacement ``n_boot`` times. The centre is the rank of the observed means."""
    if not isinstance(runs, pd.DataFrame):
        raise TypeError(f"runs must be a DataFrame (repetitions x methods), got "
                        f"{type(runs).__name__}.")
    if method not in runs.columns:
        raise ValueError(f"method {method!r} is not a column of runs; columns: "
                         f"{list(runs.columns)}.")
    if runs.shape[1] < 2:
        raise ValueError("a rank needs at least two methods (columns of runs).")
    X = np.asarray(runs, dtype=float)
    if not np.all(np.isfinite(X)):
        raise ValueError("runs contains NaN or infinite values.")
    if X.shape[0] < MIN_RUNS:
        raise TooFewRuns(f"runs has {X.shape[0]} repetition(s); a spread needs at least "
                         f"{MIN_RUNS}.")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}.")
    if int(n_boot) < 100:
        raise ValueError(f"n_boot must be at least 100, got {n_boot!r}.")
    j = list(runs.columns).index(method)
    rng = np.random.default_rng(random_state)
    idx = rng.integers(0, X.shape[0], size=(int(n_boot), X.shape[0]))
    boot = X[idx].mean(axis=1)                     # (n_boot, n_methods)
    r = _ranks(boot, higher_is_better)[:, j]
    lo, hi = np.quantile(r, [(1 - level) / 2, (1 + level) / 2])
    center = float(_ranks(X.mean(axis=0), higher_is_better)[j])
    return Band("rank of means", center, float(lo), float(hi), int(X.shape[0]))


def derived_tolerance(published: pd.DataFrame, order: Sequence[str], *, decimals: int,
                      published_pm: pd.DataFrame | None = None) -> float:
    """A table's tolerance from the published table alone (declared before any run).

    Half the median gap, over the table's rows, between consecutive methods of ``order``
    (the methods whose order the paper's conclusions state, best first); never narrower than
    one unit of the printed precision (``10 ** -decimals``) nor the median of the paper's
    own ``±`` over those methods' cells (``published_pm``, same shape, where printed).

    Parameters
    ----------
    published : DataFrame
        One row per row of the table (data set), one column per method.
    order : sequence of str
        At least two columns of ``published``.
    decimals : int
        Digits printed after the decimal point.
    published_pm : DataFrame, optional
    """
    order = list(order)
    if len(order) < 2:
        raise ValueError("order must name at least two methods (whose order the paper's "
                         "conclusions state).")
    missing = [m for m in order if m not in published.columns]
    if missing:
        raise ValueError(f"order names {missing}, not columns of published "
                         f"({list(published.columns)}).")
    if int(decimals) < 0:
        raise ValueError(f"decimals must be >= 0, got {decimals!r}.")
    V = published[order].to_numpy(dtype=float)
    gaps = np.abs(np.diff(V, axis=1)).ravel()
    gaps = gaps[np.isfinite(gaps)]
    if gaps.size == 0:
        raise ValueError("published has no pair of printed numbers among the ordered methods.")
    floor = 10.0 ** -int(decimals)
    if published_pm is not None:
        pm = published_pm.reindex(columns=order).to_numpy(dtype=float).ravel()
        pm = pm[np.isfinite(pm)]
        if pm.size:
            floor = max(floor, float(np.median(pm)))
    return float(max(0.5 * np.median(gaps), floor))


def uninformative(published: float, tolerance: float, trivial: float) -> bool:
    """True when the trivial predictor's value (``trivial``: majority-class accuracy,
    all-positive F1, ...) is itself within ``tolerance`` of ``published``: agreement in that
    cell cannot tell a learned model from the trivial one. False when any is missing."""
    vals = np.array([published, tolerance, trivial], dtype=float)
    if not np.all(np.isfinite(vals)):
        return False
    if tolerance < 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}.")
    return bool(abs(trivial - published) <= tolerance)


def one_class_share(predictions) -> float:
    """Share of runs (one array of test predictions each) that predict a single class for
    every test point; an empty run is an error."""
    preds = list(predictions)
    if not preds:
        raise ValueError("predictions is empty: pass one array of predictions per run.")
    n = 0
    for i, p in enumerate(preds):
        a = np.asarray(p).ravel()
        if a.size == 0:
            raise ValueError(f"predictions[{i}] is empty.")
        n += int(np.unique(a).size == 1)
    return n / len(preds)
