"""Statistics of comparison tables: paired win/tie/loss counts, average ranks, the Friedman
test and the Bonferroni-Dunn critical difference (Demsar, JMLR 7 2006).

A *means table* has one row per data set and one column per method (a 2-D array or a
pandas DataFrame), each cell a score where larger is better (accuracy) unless
``higher_is_better=False``. *Runs* are, per data set, the scores of the repeated runs
(paired across methods: run ``r`` of both methods uses the same split).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import stats as _st

from ._validation import check_positive

__all__ = ["WinTieLoss", "FriedmanResult", "win_tie_loss", "rank_table", "average_ranks",
           "friedman_test", "bonferroni_dunn_cd"]


# --------------------------------------------------------------------------- win / tie / loss
@dataclass
class WinTieLoss:
    """Counts of a paired comparison of method A against method B over data sets.

    Attributes
    ----------
    win, tie, loss : int
        Data sets where A is significantly better, not significantly different, or
        significantly worse than B (from A's point of view).
    outcomes : list of str
        ``"win"`` / ``"tie"`` / ``"loss"`` per data set, in input order.
    pvalues : ndarray
        Two-sided p-values of the paired t-tests (NaN where the differences are all equal,
        counted as a tie when they are all zero).
    """

    win: int
    tie: int
    loss: int
    outcomes: list = field(default_factory=list)
    pvalues: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __str__(self) -> str:
        return f"{self.win}/{self.tie}/{self.loss}"


def _as_runs(runs, name):
    if hasattr(runs, "values") and hasattr(runs, "index") and not isinstance(runs, dict):
        runs = runs.values  # DataFrame / Series
    if isinstance(runs, dict):
        runs = list(runs.values())
    out = []
    for i, r in enumerate(runs):
        a = np.asarray(r, dtype=float).ravel()
        if a.size < 2:
            raise ValueError(f"{name}[{i}] has {a.size} run(s); a paired t-test needs >= 2.")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name}[{i}] contains NaN or infinite values.")
        out.append(a)
    if not out:
        raise ValueError(f"{name} is empty; pass one sequence of runs per data set.")
    return out


def win_tie_loss(a_runs, b_runs, alpha=0.05) -> WinTieLoss:
    """Paired t-test per data set; counts from the first method's (``a``'s) point of view.

    The "win/tie/loss" rows of comparison tables (e.g. Li et al. 2013, Tables 2-4,
    "SVM: win/tie/loss", which counts from SVM's side against each other method).

    Parameters
    ----------
    a_runs, b_runs : sequence (or dict, or 2-D array) of 1-D arrays
        Per data set, the scores of the paired runs of methods A and B (same length per
        data set).
    alpha : float, default=0.05
        Level of the two-sided paired t-test (``scipy.stats.ttest_rel``), 95 % confidence.

    Returns
    -------
    WinTieLoss
        ``win`` when ``p < alpha`` and A's mean is larger, ``loss`` when ``p < alpha`` and it
        is smaller, ``tie`` otherwise (identical runs included).
    """
    A = _as_runs(a_runs, "a_runs")
    B = _as_runs(b_runs, "b_runs")
    if len(A) != len(B):
        raise ValueError(f"a_runs has {len(A)} data sets but b_runs has {len(B)}.")
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}.")
    outcomes, pvals = [], []
    for i, (a, b) in enumerate(zip(A, B)):
        if a.shape != b.shape:
            raise ValueError(f"data set {i}: a_runs has {a.size} runs but b_runs has "
                             f"{b.size}; the t-test is paired.")
        d = a - b
        if np.all(d == d[0]):  # constant differences: t undefined
            p = 0.0 if d[0] != 0 else 1.0
            pvals.append(np.nan)
        else:
            p = float(_st.ttest_rel(a, b).pvalue)
            pvals.append(p)
        if p < alpha and d.mean() > 0:
            outcomes.append("win")
        elif p < alpha and d.mean() < 0:
            outcomes.append("loss")
        else:
            outcomes.append("tie")
    return WinTieLoss(win=outcomes.count("win"), tie=outcomes.count("tie"),
                      loss=outcomes.count("loss"), outcomes=outcomes,
                      pvalues=np.asarray(pvals))


# --------------------------------------------------------------------------- ranks
def _table(means_table, name="means_table"):
    cols = None
    index = None
    if hasattr(means_table, "columns"):
        cols, index = list(means_table.columns), list(means_table.index)
        M = means_table.to_numpy(dtype=float)
    else:
        M = np.asarray(means_table, dtype=float)
    if M.ndim != 2 or M.shape[0] < 1 or M.shape[1] < 2:
        raise ValueError(f"{name} must be 2-D (n_datasets, n_methods) with >= 2 methods, got "
                         f"shape {M.shape}.")
    if not np.all(np.isfinite(M)):
        raise ValueError(f"{name} contains NaN or infinite values; drop incomplete rows.")
    return M, cols, index


def rank_table(means_table, *, higher_is_better=True):
    """Per-data-set ranks (Demsar 2006): 1 = best; tied methods share the average rank.

    Returns an array of the table's shape, or a DataFrame when given one.
    """
    M, cols, index = _table(means_table)
    R = np.vstack([_st.rankdata(-row if higher_is_better else row, method="average")
                   for row in M])
    if cols is not None:
        import pandas as pd

        return pd.DataFrame(R, index=index, columns=cols)
    return R


def average_ranks(means_table, *, higher_is_better=True):
    """Average over data sets of :func:`rank_table` (Demsar 2006, Sec. 3.2.2).

    Returns an array (n_methods,), or a Series indexed by the columns of a DataFrame.
    """
    R = rank_table(means_table, higher_is_better=higher_is_better)
    return R.mean(axis=0)


@dataclass
class FriedmanResult:
    """Friedman test on average ranks (Demsar 2006, Sec. 3.2.2).

    Attributes
    ----------
    chi2 : float
        ``chi2_F = 12 N / (k (k+1)) [sum_j R_j^2 - k (k+1)^2 / 4]``.
    pvalue : float
        Of ``chi2_F`` against chi-square with ``k - 1`` degrees of freedom.
    F : float
        Iman-Davenport statistic ``(N - 1) chi2_F / (N (k - 1) - chi2_F)`` (inf when all
        methods rank identically on every data set).
    pvalue_F : float
        Of ``F`` against F with ``k - 1`` and ``(k - 1)(N - 1)`` degrees of freedom.
    ranks : ndarray (k,)
        Average ranks.
    n_datasets, n_methods : int
    """

    chi2: float
    pvalue: float
    F: float
    pvalue_F: float
    ranks: np.ndarray
    n_datasets: int
    n_methods: int


def friedman_test(means_table, *, higher_is_better=True) -> FriedmanResult:
    """Friedman test of the methods (columns) over the data sets (rows); Demsar 2006.

    Computed from the average ranks with the tie-averaged ranks of :func:`rank_table`
    (no tie correction, as in Demsar 2006).
    """
    M, _, _ = _table(means_table)
    N, k = M.shape
    R = np.asarray(average_ranks(M, higher_is_better=higher_is_better))
    chi2 = 12.0 * N / (k * (k + 1)) * (float(np.sum(R**2)) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(chi2, 0.0)
    p = float(_st.chi2.sf(chi2, k - 1))
    den = N * (k - 1) - chi2
    if N < 2:
        F, pF = float("nan"), float("nan")
    elif den <= 0:
        F, pF = float("inf"), 0.0
    else:
        F = (N - 1) * chi2 / den
        pF = float(_st.f.sf(F, k - 1, (k - 1) * (N - 1)))
    return FriedmanResult(chi2=float(chi2), pvalue=p, F=float(F), pvalue_F=pF, ranks=R,
                          n_datasets=N, n_methods=k)


def bonferroni_dunn_cd(n_methods, n_datasets, alpha=0.10) -> float:
    """Critical difference of the Bonferroni-Dunn test against a control (Demsar 2006,
    Sec. 3.2.2): ``CD = q_alpha sqrt(k (k+1) / (6 N))`` with ``q_alpha`` the two-sided
    normal quantile at ``alpha / (k - 1)`` (Demsar's Table 5(b): 2.241 for ``k = 5``,
    ``alpha = 0.10``).

    A method whose average rank differs from the control's by more than ``CD`` differs
    significantly at level ``alpha``.
    """
    k = int(n_methods)
    N = int(n_datasets)
    if k < 2:
        raise ValueError(f"n_methods must be >= 2, got {n_methods}.")
    if N < 1:
        raise ValueError(f"n_datasets must be >= 1, got {n_datasets}.")
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}.")
    q = float(_st.norm.ppf(1.0 - alpha / (2.0 * (k - 1))))
    return q * float(np.sqrt(k * (k + 1) / (6.0 * N)))
