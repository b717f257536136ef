"""Transductive SVM by local combinatorial label switching (Joachims, ICML 1999) on the SMO
core.

Joachims (1999), "Transductive inference for text classification using support vector
machines", Fig. 2 (the algorithm of SVMlight's ``-p`` option), minimises over the labels
``y*_j`` of the unlabelled points and over ``(w, b)``::

    1/2 ||w||^2 + C sum_L xi_i + C*_- sum_{U, y*=-1} xi*_j + C*_+ sum_{U, y*=+1} xi*_j

subject to the margin constraints on every point and a fixed number ``n_+`` of positives in
``U``:

1. Train the C-SVM (with bias) on the labelled points; label the ``n_+`` unlabelled points of
   largest decision value ``+1``, the others ``-1``.
2. ``C*_- = 1e-5``, ``C*_+ = 1e-5 n_+ / (u - n_+)`` (Joachims' ratio, so that both classes of
   ``U`` weigh alike).
3. Repeat: solve the SVM with the current costs; while a pair ``m`` (``y*_m = +1``) and ``l``
   (``y*_l = -1``) of unlabelled points has ``xi*_m > 0``, ``xi*_l > 0`` and
   ``xi*_m + xi*_l > 2``, switch both labels and solve again (Joachims' Theorem 2: each
   switch strictly decreases the objective); stop when ``C*_- = C*_+ = C*``, else double
   both costs (capped at ``C*``) and repeat.

The pair switched is the one with the largest slacks (the largest ``xi*_m`` and ``xi*_l``),
one pair per solve as in the paper. Switching keeps ``n_+`` fixed, so the balance holds
throughout. ``n_+`` follows WellSVM's balance constraint (Li et al. 2013, Sec. 4.1, Prop. 5):
the fraction of positives in ``U`` equals that in ``L``, ``n_- = ceil(u (1 - pi_L))``,
``n_+ = u - n_-``.

Every solve is :func:`weaklabel.solvers.smo.smo` with per-sample costs, warm-started from the
previous solution: raising the costs keeps it feasible, and after a switch of ``m`` and ``l``
their multipliers are exchanged (``a_m <-> a_l``), which keeps ``y'a = 0`` and the new boxes.
Slacks come from the SMO gradient (``y_i f(x_i) = G_i + 1 - y_i rho``). When the kernel
matrix of the ``l + u`` points fits in ``gram_mb`` megabytes it is computed once and every
solve reads its rows from it (``kernel="precomputed"``): a warm-started solve rebuilds its
gradient from the rows of all its support vectors, which would otherwise be recomputed at
every label switch (on Chapelle's ``text``, 1946 points in 7511 dimensions, that made one
fit take longer than 15 minutes).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .._validation import (
    check_int,
    check_labels_pm1,
    check_matrix,
    check_positive,
    warn_not_converged,
)
from ..kernels import check_cache_mb, gram, make_kernel
from .smo import smo, smo_decision_function, svc_dual

__all__ = ["TSVMResult", "tsvm", "balanced_labels"]


def balanced_labels(scores, n_pos: int) -> np.ndarray:
    """``+1`` on the ``n_pos`` largest ``scores``, ``-1`` elsewhere (stable order on ties)."""
    scores = np.asarray(scores, dtype=float)
    out = -np.ones(scores.shape[0])
    if n_pos > 0:
        order = np.argsort(-scores, kind="stable")
        out[order[:n_pos]] = 1.0
    return out


def n_positives(y_l, u: int) -> int:
    """``n_+ = u - ceil(u (1 - pi_L))``: WellSVM's balance (Li et al. 2013, Prop. 5)."""
    pi = float(np.mean(np.asarray(y_l) > 0))
    return int(u - np.ceil(u * (1.0 - pi) - 1e-9))


@dataclass(repr=False)
class TSVMResult:
    """Solution of :func:`tsvm`.

    Attributes
    ----------
    alpha : array (l+u,)
        SMO multipliers over ``[X_l; X_u]`` (``0 <= alpha_i <= C_i``).
    labels : array (l+u,)
        ``[y_l; y*_U]``: the labels of the final SVM (``+1`` / ``-1``).
    coef : array (l+u,)
        ``alpha * labels``: ``f(x) = sum_i coef_i k(x_i, x) + bias``.
    bias : float
    objective : float
        Joachims' primal objective at the final costs (``C*_+ = C*_- = C*``).
    n_iter : int
        SVM solves (each one SMO run).
    n_switches : int
        Label pairs switched.
    converged : bool
        False when ``max_iter`` solves were reached first, or when an SVM solve stopped at
        SMO's update cap (``info["smo_failed"]``; the loop stops there).
    seconds : float
    info : dict
        ``kernel``, ``n_pos`` (positives in ``U``), ``smo_iterations``.
    """

    alpha: np.ndarray
    labels: np.ndarray
    coef: np.ndarray
    bias: float
    objective: float
    n_iter: int
    n_switches: int
    converged: bool
    seconds: float
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"TSVMResult(n={self.alpha.shape[0]}, objective={self.objective:.10g}, "
                f"n_iter={self.n_iter}, n_switches={self.n_switches}, "
                f"converged={self.converged})")


def _margins(res, y):
    """``y_i f(x_i)`` from the SMO gradient ``G = Q a - 1``."""
    return res.gradient + 1.0 - y * res.rho


def tsvm(X_l, y_l, X_u, *, C=1.0, C_star=0.1, kernel="linear", n_pos=None, c_start=1e-5,
         eps=1e-3, max_iter=10_000, gram_mb=256.0, verbose=False, cache_mb=None) -> TSVMResult:
    """Joachims' (1999) transductive SVM; see the module docstring.

    Parameters
    ----------
    X_l, y_l : labelled points and their labels (+1 / -1; 0 / 1 accepted).
    X_u : array (u, d)
        Unlabelled points (at least one).
    C : float
        Cost of the labelled slacks (the WellSVM paper's ``C1``).
    C_star : float
        Final cost of the unlabelled slacks (the paper's ``C2``).
    kernel : str or Kernel
    n_pos : int, optional
        Positives in ``U``; default the balance of Li et al. 2013 (:func:`n_positives`).
    c_start : float
        Starting ``C*_-`` (Joachims: 1e-5).
    eps : float
        SMO tolerance.
    max_iter : int
        Cap on SVM solves (the first, labelled-only one excluded).
    gram_mb : float
        Largest kernel matrix (in MB, ``8 (l + u)^2`` bytes) computed once and shared by all
        solves; above it, each solve computes its kernel rows (0: always).
    verbose : bool
        One line per cost level.
    cache_mb : float, None or "auto"
        Kernel-row cache of every SMO solve (:func:`weaklabel.solvers.smo.smo`); ``None``:
        all of ``Q`` when it needs at most 1024 MB, else 1024 MB. Changes the time only.

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` solves are reached with label pairs still to switch.
    """
    X_l = check_matrix(X_l, "X_l", min_rows=2)
    y_l = check_labels_pm1(y_l, "y_l", n=X_l.shape[0])
    X_u = check_matrix(X_u, "X_u", min_rows=1, n_features=X_l.shape[1])
    C = check_positive(C, "C")
    C_star = check_positive(C_star, "C_star")
    c_start = check_positive(c_start, "c_start")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    gram_mb = check_positive(gram_mb, "gram_mb", allow_zero=True)
    cache_mb = check_cache_mb(cache_mb)
    k = make_kernel(kernel)
    l, u = X_l.shape[0], X_u.shape[0]
    n_pos = n_positives(y_l, u) if n_pos is None else check_int(n_pos, "n_pos")
    if n_pos > u:
        raise ValueError(f"n_pos must be <= the number of unlabelled points {u}, got {n_pos}.")
    t0 = time.perf_counter()
    # 1. labelled-only SVM, balanced initial labels
    s0 = svc_dual(X_l, y_l, C, k, eps=eps, cache_mb=cache_mb)
    yu = balanced_labels(smo_decision_function(s0, X_l, y_l, X_u), n_pos)
    X = np.vstack([X_l, X_u])
    y = np.r_[y_l, yu]
    # the solves' kernel: the Gram matrix once, when it fits in gram_mb
    if 8.0 * X.shape[0] ** 2 <= gram_mb * 2**20:
        Xs, ks = gram(X, kernel=k), "precomputed"
    else:
        Xs, ks = X, k
    # 2. costs
    cm = min(c_start, C_star)
    cp = min(c_start * n_pos / max(u - n_pos, 1), C_star) if n_pos > 0 else C_star
    alpha = np.zeros(l + u)
    alpha[:l] = s0.alpha
    n_iter = n_switches = smo_it = 0
    converged = True
    smo_failed = not s0.converged  # an SVM solve stopped at its update cap: stop there
    tol = 1e-9
    while not smo_failed:
        Cv = np.r_[np.full(l, C), np.where(yu > 0, cp, cm)]
        res = smo(Xs, y, Cv, ks, alpha0=np.minimum(alpha, Cv), eps=eps, cache_mb=cache_mb)
        n_iter += 1
        smo_it += res.n_iter
        alpha = res.alpha
        if not res.converged:
            smo_failed = True
            break
        while True:
            xi = np.maximum(0.0, 1.0 - _margins(res, y))[l:]
            pos = np.flatnonzero((yu > 0) & (xi > 0))
            neg = np.flatnonzero((yu < 0) & (xi > 0))
            if pos.size == 0 or neg.size == 0:
                break
            m = pos[np.argmax(xi[pos])]
            j = neg[np.argmax(xi[neg])]
            if xi[m] + xi[j] <= 2.0 + tol:
                break
            if n_iter >= max_iter:
                converged = False
                break
            # switch the pair and exchange its multipliers (keeps y'a and the boxes)
            yu[m], yu[j] = -1.0, 1.0
            y[l + m], y[l + j] = -1.0, 1.0
            alpha[l + m], alpha[l + j] = alpha[l + j], alpha[l + m]
            n_switches += 1
            Cv = np.r_[np.full(l, C), np.where(yu > 0, cp, cm)]
            res = smo(Xs, y, Cv, ks, alpha0=alpha, eps=eps, cache_mb=cache_mb)
            n_iter += 1
            smo_it += res.n_iter
            alpha = res.alpha
            if not res.converged:
                smo_failed = True
                break
        if smo_failed:
            break
        if verbose:
            print(f"TSVM: C*_-={cm:.3g} C*_+={cp:.3g} solves={n_iter} switches={n_switches}")
        if not converged or (cm >= C_star and cp >= C_star):
            break
        cm, cp = min(2.0 * cm, C_star), min(2.0 * cp, C_star)
    seconds = time.perf_counter() - t0
    if smo_failed:
        converged = False
        if n_iter == 0:  # the labelled-only SVM failed: report it as the final solve
            res = s0
            y = y_l
            alpha = s0.alpha
            Cv0 = np.full(l, C)
            marg = _margins(s0, y_l)
            obj = 0.5 * float(alpha @ (s0.gradient + 1.0)) + float(
                Cv0 @ np.maximum(0.0, 1.0 - marg))
            return TSVMResult(alpha=np.r_[alpha, np.zeros(u)], labels=np.r_[y_l, yu],
                              coef=np.r_[alpha * y_l, np.zeros(u)], bias=-float(s0.rho),
                              objective=obj, n_iter=0, n_switches=0, converged=False,
                              seconds=seconds,
                              info={"kernel": k, "n_pos": n_pos, "smo_iterations": s0.n_iter,
                                    "precomputed_gram": ks == "precomputed",
                                    "smo_failed": True,
                                    "smo_kkt_violation": float(s0.kkt_violation)})
    elif not converged:
        warn_not_converged("tsvm", max_iter, float(xi[m] + xi[j] - 2.0),
                           what="pair slack excess (xi_m + xi_l - 2)", tol_param=None)
    Cv = np.r_[np.full(l, C), np.full(u, C_star)]
    marg = _margins(res, y)
    coef = alpha * y
    # ||w||^2 = a'Qa = (G + 1)'a
    obj = 0.5 * float(alpha @ (res.gradient + 1.0)) + float(Cv @ np.maximum(0.0, 1.0 - marg))
    return TSVMResult(alpha=alpha, labels=y.copy(), coef=coef, bias=-float(res.rho),
                      objective=obj, n_iter=n_iter, n_switches=n_switches,
                      converged=converged, seconds=seconds,
                      info={"kernel": k, "n_pos": n_pos, "smo_iterations": smo_it,
                            "precomputed_gram": ks == "precomputed",
                            "smo_failed": smo_failed,
                            "smo_kkt_violation": float(res.kkt_violation)})
