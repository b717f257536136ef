"""The MCLS label loop (Algorithm 1 of Chaudhari & Shevade 2012) on plain arrays.

Algorithm 1 alternates an LS-SVC fit on the current labels (Eq. (2), section 2.2 of the
paper) with a relabelling of the unlabelled points by ``sign(w' phi(x) + b_hat)``, where the
bias ``b_hat`` keeps the class-balance ratio ``r`` (section 2.3). This module holds the two
pieces that are not an LS-SVC solve:

- :func:`class_balance_bias`: the ratio-enforcing bias step of section 2.3;
- :func:`mcls_loop`: Algorithm 1 from given initial labels (step 1, the ILU
  initialisation of section 2.1, is an estimator's job: :mod:`weaklabel.models.mcls`),
  with an iteration cap and a cycle guard, returning an :class:`MCLSResult`.

The LS-SVC itself is any object with the interface of
:class:`weaklabel.solvers.lssvm.LSSVCFactor` (``solve(y) -> (alpha, b)`` and
``scores(y, alpha, b) -> w' phi(x_i)``), factorised once and reused by every iteration.
No scikit-learn and no pandas here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["MCLSResult", "class_balance_bias", "mcls_loop"]


def _bias_at(sorted_desc: np.ndarray, k: int) -> float:
    """Bias making exactly the ``k`` largest scores positive (midpoint threshold)."""
    n = sorted_desc.shape[0]
    if k <= 0:
        return -float(sorted_desc[0]) - 1e-9 * (1.0 + abs(sorted_desc[0]))
    if k >= n:
        return -float(sorted_desc[-1])
    return -0.5 * float(sorted_desc[k - 1] + sorted_desc[k])


def class_balance_bias(scores, is_pos, r: float, eps: float = 0.05, r_mode: str = "all") -> float:
    """Bias of the MCLS class-balance step (section 2.3 of the paper).

    The paper sorts the scores ``w' phi(x)``, puts the bias at the value "satisfying r",
    and, if a labelled positive is then misclassified, moves the bias "in the range of the
    tolerance parameter" so that as many positives as possible are classified correctly; it
    gives neither the tolerance's units nor its value. Here:

    1. Sort the scores ``w' phi(x_i)`` of the pool (all training points for
       ``r_mode="all"``, the unlabelled ones for ``r_mode="U"``) and put the threshold where
       a fraction ``r`` is positive (``round(r n)`` points, midpoint between neighbours).
    2. If a labelled positive is then negative, raise the bias (lowering it can only make
       positives negative), but by no more than the tolerance allows: at most
       ``round((r + eps) n)`` pool points may become positive. The smallest bias that
       classifies the most labelled positives positive is returned.

    Parameters
    ----------
    scores : ndarray of shape (n,)
        ``w' phi(x_i)`` for every training point.
    is_pos : ndarray of bool, shape (n,)
        Labelled positives.
    r : float
        Class-balance ratio in (0, 1).
    eps : float
        Tolerance: the allowed overshoot of the positive fraction (0 = exact ratio).
    r_mode : {"all", "U"}
        The pool the ratio is enforced on: Eq. (1) states it over U, while Table 1's ``r``
        is the positive fraction of the whole data set and step 5 of Algorithm 1 relabels
        every training point.

    Returns
    -------
    float
        The bias ``b_hat``; labels are ``+1`` where ``scores + b_hat >= 0``.
    """
    s = np.asarray(scores, dtype=np.float64)
    is_pos = np.asarray(is_pos, dtype=bool)
    pool = s if r_mode == "all" else s[~is_pos]
    n = pool.shape[0]
    srt = -np.sort(-pool, kind="stable")
    b0 = _bias_at(srt, int(np.floor(r * n + 0.5)))
    sp = s[is_pos]
    if sp.size == 0 or eps <= 0.0 or np.min(sp) + b0 >= 0.0:
        return b0
    bmax = _bias_at(srt, min(n, int(np.floor((r + eps) * n + 0.5))))
    b_need = -float(np.min(sp))
    if b_need <= bmax:
        return max(b0, b_need)
    m = int(np.sum(sp + bmax >= 0.0))
    if m == 0:
        return b0
    mth = np.sort(sp)[::-1][m - 1]
    return max(b0, -float(mth))


@dataclass(repr=False)
class MCLSResult:
    """Result of :func:`mcls_loop`.

    Attributes
    ----------
    alpha : array (n,)
        Dual coefficients of the last LS-SVC; ``f(x) = sum_j alpha_j k(x, x_j) + bias``.
    bias : float
        The class-balance bias ``b_hat`` of the last iteration (step 12 of Algorithm 1).
    labels : array (n,)
        Labels ``sign(w' phi(x_i) + bias)`` of every training point given by the returned
        ``(alpha, bias)``; labelled positives are ``+1``.
    n_iter : int
        LS-SVC solves (iterations of Algorithm 1's loop).
    converged : bool
        The unlabelled labels repeated the previous ones (``stop_reason == "converged"``).
    stop_reason : str
        ``"converged"``, ``"cycle"`` (an earlier label vector came back) or ``"max_iter"``.
    n_changes : int
        Unlabelled labels changed in the last iteration.
    """

    alpha: np.ndarray
    bias: float
    labels: np.ndarray
    n_iter: int
    converged: bool
    stop_reason: str
    n_changes: int

    def __repr__(self) -> str:
        return (f"MCLSResult(n={self.labels.shape[0]}, bias={self.bias:.6g}, "
                f"n_iter={self.n_iter}, stop_reason={self.stop_reason!r}, "
                f"n_changes={self.n_changes})")


def mcls_loop(factor, y_init, is_pos, r: float, *, eps: float = 0.05, r_mode: str = "all",
              max_iter: int = 100) -> MCLSResult:
    """Algorithm 1 of the paper from given initial labels, with a reused LS-SVC factor.

    Each iteration: LS-SVC on the current labels (positives clamped to +1), the
    class-balance bias :func:`class_balance_bias`, relabel the unlabelled points by
    ``sign(w' phi(x) + b_hat)``. Stops when the unlabelled labels repeat the previous ones
    (``converged``, step 6 of Algorithm 1, compared on U only since the positives are
    always trained as +1), repeat an earlier label vector (``cycle``), or at ``max_iter``.

    Parameters
    ----------
    factor : LSSVCFactor or KernelEigen.factor(C)
        Factor of ``K + D`` for the training points (:mod:`weaklabel.solvers.lssvm`).
    y_init : ndarray of shape (n,)
        Initial labels (+1/-1) of all training points (those of positives are ignored).
    is_pos : ndarray of bool, shape (n,)
        Labelled positives.
    r, eps, r_mode
        See :func:`class_balance_bias`.
    max_iter : int
        Iteration cap (the paper stops at a "maximum number of iterations" without giving
        its value).

    Returns
    -------
    MCLSResult
    """
    is_pos = np.asarray(is_pos, dtype=bool)
    unl = ~is_pos
    y = np.where(np.asarray(y_init, dtype=np.float64) >= 0, 1.0, -1.0)
    y[is_pos] = 1.0
    seen = {y[unl].tobytes()}
    reason, changes = "max_iter", 0
    alpha, bias, y_new = None, 0.0, y
    n_iter = 0
    for it in range(1, max_iter + 1):
        n_iter = it
        alpha, b_ls = factor.solve(y)
        sc = factor.scores(y, alpha, b_ls)
        bias = class_balance_bias(sc, is_pos, r, eps, r_mode)
        y_new = np.where(sc + bias >= 0.0, 1.0, -1.0)
        y_new[is_pos] = 1.0
        changes = int(np.sum(y_new[unl] != y[unl]))
        if changes == 0:
            reason = "converged"
            break
        key = y_new[unl].tobytes()
        if key in seen:
            reason = "cycle"
            break
        seen.add(key)
        y = y_new
    # labels given by the returned (alpha, bias): sign(w' phi(x) + b_hat), positives +1
    return MCLSResult(alpha, bias, y_new, n_iter, reason == "converged", reason, changes)
