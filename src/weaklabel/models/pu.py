"""PU-learning estimators of the USMO paper (Sansone, De Natale, Zhou, TPAMI 2019).

- :class:`DoubleHingePU` — the convex double-hinge formulation of du Plessis et al. (ref. [7]
  of the paper), trained by USMO (``solver="usmo"``), by the cvxpy reference QP on the dual
  (6) (``solver="qp"``: the paper's baseline [7]), or stopped after USMO's initialisation
  (``solver="init"``: the paper's "Init*" column).
- :class:`RampPU` — the non-convex ramp-loss formulation of du Plessis et al. 2014 (ref. [6]),
  trained by the concave-convex procedure (CCCP) with the reference QP for each convex step.

Input convention (the whole package): ``fit(X, s)`` with ``s = 1`` for a labelled positive
and ``s = 0`` for an unlabelled sample; predictions are ``+1`` / ``-1``.
"""

from __future__ import annotations

import time

import numpy as np

from .._validation import (
    check_choice,
    check_int,
    check_positive,
    warn_not_converged,
)
from ..kernels import gram
from ..reference import solve_qp
from ._base import BaseEstimator, PUClassifierMixin, split_pu

_BLOCK = 2048  # rows of X per block in decision functions (memory ~ BLOCK x n floats)


class DoubleHingePU(PUClassifierMixin, BaseEstimator):
    """Kernel PU classifier with the double hinge loss (convex; du Plessis et al. 2015).

    Minimises ``pi/p sum_P -f(x) + 1/n sum_U max(0, f, (1+f)/2) + lam ||f||^2`` (Eq. (4)).

    Parameters
    ----------
    kernel : {"linear", "gaussian"}
    sigma : float
        Gaussian width, ``k = exp(-||x-y||^2 / (2 sigma^2))`` (the paper uses 1).
    lam : float
        Regularisation ``lambda > 0``.
    pi : float
        Class prior of the positives in (0, 1).
    solver : {"usmo", "qp", "init"}
        ``usmo``: the numba SMO solver; ``qp``: the cvxpy reference on the dual (6) (the
        paper's baseline [7]); ``init``: USMO's one-class-SVM initialisation only (Init*).
    tau : float
        USMO's tolerance (2e-3 as in the authors' code).
    stopping : {"complete", "paper"}
        USMO's stopping rule (``paper`` = Eq. (13) without the missing fourth condition).
    init : {"ocsvm", "trivial"}
    cache_mb : float
        Kernel-row cache budget of USMO, in MB.
    qp_solver : str
        cvxpy solver of ``solver="qp"``.

    Attributes
    ----------
    sigma_ : (n,) dual variables of the unlabelled samples; ``alpha_u = -sigma_``.
    c1_ : weight of every labelled positive, ``pi / (2 lam p)``.
    intercept_ : the bias beta.
    result_ : the solver's full result (passes, pair updates, KKT violation, trace...).
    fit_seconds_ : wall time of the solver (initialisation included for USMO).
    """

    def __init__(self, kernel="linear", sigma=1.0, lam=1e-2, pi=0.5, *, solver="usmo",
                 tau=2e-3, stopping="complete", init="ocsvm", cache_mb=200.0,
                 max_passes=100_000, qp_solver="CLARABEL", random_state=None):
        self.kernel = kernel
        self.sigma = sigma
        self.lam = lam
        self.pi = pi
        self.solver = solver
        self.tau = tau
        self.stopping = stopping
        self.init = init
        self.cache_mb = cache_mb
        self.max_passes = max_passes
        self.qp_solver = qp_solver
        self.random_state = random_state

    def fit(self, X, s):
        """Fit on ``X`` with the PU indicator ``s`` (1 = labelled positive, 0 = unlabelled)."""
        from ..reference.usmo import usmo_dual_reference
        from ..solvers import usmo

        check_choice(self.solver, "solver", {"usmo", "qp", "init"})
        self._check_common()
        lam = check_positive(self.lam, "lam")
        Xp, Xu = split_pu(X, s)
        k = self._kernel()
        t0 = time.perf_counter()
        if self.solver == "qp":
            ref = usmo_dual_reference(Xp, Xu, k, lam, self.pi, solver=self.qp_solver)
            self.sigma_, self.intercept_ = np.asarray(ref.sigma), float(ref.beta)
            self.result_ = ref
        else:
            res = usmo(Xp, Xu, k, lam, self.pi, tau=self.tau, stopping=self.stopping,
                       init=self.init, cache_mb=self.cache_mb,
                       max_passes=0 if self.solver == "init" else self.max_passes,
                       random_state=self.random_state)
            self.result_ = res
            if self.solver == "init":
                self.sigma_, self.intercept_ = np.asarray(res.init_sigma), float(res.init_beta)
            else:
                self.sigma_, self.intercept_ = np.asarray(res.sigma), float(res.beta)
        self.fit_seconds_ = time.perf_counter() - t0
        p, n = Xp.shape[0], Xu.shape[0]
        self.c1_ = self.pi / (2.0 * lam * p)
        self.Xp_, self.Xu_ = Xp, Xu
        self.kernel_ = k
        self.n_features_in_ = Xp.shape[1]
        self.n_labelled_, self.n_unlabelled_ = p, n
        return self

    def decision_function(self, X):
        """``f(x)`` of Eq. (7) with the bias (16)."""
        X = self._check_X(X)
        from ..solvers.usmo import double_hinge_decision

        return double_hinge_decision(X, self.Xp_, self.Xu_, self.sigma_, self.c1_,
                                     self.intercept_, self.kernel_)


def ramp_loss(z):
    """``l_R(z) = 1/2 max(0, min(2, 1 - z))`` (the scaling of the USMO code / ref. [6])."""
    return 0.5 * np.clip(1.0 - z, 0.0, 2.0)


class RampPU(PUClassifierMixin, BaseEstimator):
    """Non-convex ramp-loss PU classifier (du Plessis et al. 2014, ref. [6] of USMO), by CCCP.

    Because ``l_R(z) + l_R(-z) = 1``, Eq. (4) with the ramp loss is::

        min_f  2 pi/p sum_P l_R(f(x)) + 1/n sum_U l_R(-f(x)) - pi + lam ||f||^2

    With ``l_R(z) = 1/2 [max(0, 1-z) - max(0, -1-z)]`` (convex minus convex), each CCCP step
    linearises the concave part at the current ``f`` and solves a weighted hinge-loss SVM
    with a linear term, whose dual is::

        min_b  1/(4 lam) b' Q b - 1' b   s.t.  y'b = 0,  -e <= b <= C - e

    (``Q = yy' * K``, ``C_i = w_i / 2``, ``e_i = C_i [y_i f(x_i) < -1]``, weights
    ``w = 2 pi/p`` on the positives, ``1/n`` on the unlabelled samples), solved with the cvxpy
    reference QP on the full Gram matrix, as in the paper. CCCP starts from ``f = 0`` (so
    the first step is the convex hinge problem) and stops when the linearisation pattern
    repeats (a fixed point) or after ``max_iter`` steps.

    Attributes
    ----------
    dual_coef_ : coefficients of ``k(x, x_i)`` over the training points (positives first).
    intercept_ : bias.
    n_iter_ : CCCP steps.
    objective_ : final value of the ramp objective (without the constant ``-pi``).
    """

    def __init__(self, kernel="linear", sigma=1.0, lam=1e-2, pi=0.5, *, max_iter=50,
                 qp_solver="CLARABEL"):
        self.kernel = kernel
        self.sigma = sigma
        self.lam = lam
        self.pi = pi
        self.max_iter = max_iter
        self.qp_solver = qp_solver

    def fit(self, X, s):
        """Fit on ``X`` with the PU indicator ``s`` (1 = labelled positive, 0 = unlabelled)."""
        self._check_common()
        lam = check_positive(self.lam, "lam")
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        Xp, Xu = split_pu(X, s)
        k = self._kernel()
        p, n = Xp.shape[0], Xu.shape[0]
        Xall = np.vstack([Xp, Xu])
        y = np.r_[np.ones(p), -np.ones(n)]
        w = np.r_[np.full(p, 2.0 * self.pi / p), np.full(n, 1.0 / n)]
        C = 0.5 * w
        t0 = time.perf_counter()
        K = gram(Xall, kernel=k)
        if k.name == "linear" and Xall.shape[1] < (p + n) // 2:
            # same QP, factored: P = F F' with F = diag(y) X / sqrt(2 lam) (cheap when d << n)
            qp_kw = {"P": None, "P_factor": (y[:, None] * Xall) / np.sqrt(2.0 * lam)}
        else:
            qp_kw = {"P": (y[:, None] * y[None, :]) * K / (2.0 * lam)}
        d = np.zeros(p + n, dtype=bool)  # f = 0 start: no point has y f < -1
        history = []
        converged = False
        for it in range(1, max_iter + 1):  # noqa: B007  (it is reported as n_iter_)
            e = C * d
            res = solve_qp(q=-np.ones(p + n), A=y[None, :], b=np.zeros(1), lb=-e, ub=C - e,
                           solver=self.qp_solver, **qp_kw)
            v = res.x * y / (2.0 * lam)  # f(x) = sum_i v_i k(x, x_i) + b
            g = K @ v
            b = self._bias(res.x, g, y, C, e, res.y_eq)
            z = y * (g + b)
            obj = float(lam * v @ g + np.sum(w * ramp_loss(z)))
            history.append(obj)
            d_new = z < -1.0
            if np.array_equal(d_new, d):
                converged = True
                break
            d = d_new
        if not converged:
            warn_not_converged("RampPU (CCCP)", max_iter, float(np.sum(d_new != d)))
        self.fit_seconds_ = time.perf_counter() - t0
        self.dual_coef_, self.intercept_ = v, float(b)
        self.X_fit_, self.kernel_ = Xall, k
        self.n_iter_, self.objective_, self.history_ = it, history[-1], np.array(history)
        self.n_features_in_ = Xall.shape[1]
        return self

    @staticmethod
    def _bias(beta, g, y, C, e, y_eq):
        """Bias of one convex step: on free multipliers ``y_i f_i = 1``; otherwise the
        minimiser of the step's convex objective over its breakpoints."""
        lo, hi = -e, C - e
        tol = 1e-7 * np.maximum(C, 1e-300)
        free = (beta > lo + tol) & (beta < hi - tol)
        if np.any(free):
            return float(np.median(y[free] - g[free]))
        cand = np.r_[y - g, np.atleast_1d(y_eq), -np.atleast_1d(y_eq)]
        hinge = np.maximum(0.0, 1.0 - y[None, :] * (g[None, :] + cand[:, None]))
        vals = hinge @ C + cand * np.sum(e * y)
        return float(cand[int(np.argmin(vals))])

    def decision_function(self, X):
        X = self._check_X(X)
        out = np.empty(X.shape[0])
        for a in range(0, X.shape[0], _BLOCK):
            out[a:a + _BLOCK] = gram(X[a:a + _BLOCK], self.X_fit_, self.kernel_) @ \
                self.dual_coef_ + self.intercept_
        return out
