"""PU-learning estimators of the USMO paper (Sansone, De Natale, Zhou, TPAMI 2019).

- :class:`DoubleHingePU` — the convex double-hinge formulation of du Plessis et al. (ref. [7]
  of the paper), trained by USMO (``solver="usmo"``), by the cvxpy reference QP on the dual
  (6) (``solver="qp"``: the paper's baseline [7]), or stopped after USMO's initialisation
  (``solver="init"``: the paper's "Init*" column).
- :class:`RampPU` — the non-convex ramp-loss formulation of du Plessis et al. 2014 (ref. [6]),
  trained by the concave-convex procedure (CCCP), each convex step on the SMO core
  (``solver="smo"``) or by the cvxpy reference QP (``solver="qp"``).

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
from ._base import KernelParamsMixin, PUClassifier, split_pu

__all__ = ["DoubleHingePU", "RampPU"]

_BLOCK = 2048  # rows of X per block in decision functions (memory ~ BLOCK x n floats)


class DoubleHingePU(KernelParamsMixin, PUClassifier):
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
    dual_ : (n,) the dual variables of (6), one per unlabelled sample, in ``[0, 1/(2 lam n)]``
        (the paper's σ_u).
    dual_coef_ : (p + n,) coefficients of ``k(x, x_i)`` over the training points, positives
        first (as in :class:`RampPU`): ``c1_`` for each positive, ``-dual_`` for the
        unlabelled samples, so ``f(x) = sum_i dual_coef_i k(x, x_i) + intercept_``.
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
        from ..solvers.usmo import usmo

        check_choice(self.solver, "solver", {"usmo", "qp", "init"})
        self._check_common()
        lam = check_positive(self.lam, "lam")
        Xp, Xu = split_pu(X, s)
        k = self._kernel()
        t0 = time.perf_counter()
        if self.solver == "qp":
            ref = usmo_dual_reference(Xp, Xu, k, lam, self.pi, solver=self.qp_solver)
            self.dual_, self.intercept_ = np.asarray(ref.dual), float(ref.beta)
            self.result_ = ref
        else:
            res = usmo(Xp, Xu, k, lam, self.pi, tau=self.tau, stopping=self.stopping,
                       init=self.init, cache_mb=self.cache_mb,
                       max_passes=0 if self.solver == "init" else self.max_passes,
                       random_state=self.random_state)
            self.result_ = res
            if self.solver == "init":
                self.dual_, self.intercept_ = np.asarray(res.init_dual), float(res.init_beta)
            else:
                self.dual_, self.intercept_ = np.asarray(res.dual), float(res.beta)
        self.fit_seconds_ = time.perf_counter() - t0
        p, n = Xp.shape[0], Xu.shape[0]
        self.c1_ = self.pi / (2.0 * lam * p)
        self.dual_coef_ = np.r_[np.full(p, self.c1_), -self.dual_]
        self.Xp_, self.Xu_ = Xp, Xu
        self.kernel_ = k
        self.n_features_in_ = Xp.shape[1]
        self.n_labelled_, self.n_unlabelled_ = p, n
        return self

    def decision_function(self, X):
        """``f(x)`` of Eq. (7) with the bias (16)."""
        X = self._check_X(X)
        from ..solvers.usmo import double_hinge_decision

        return double_hinge_decision(X, self.Xp_, self.Xu_, self.dual_, self.c1_,
                                     self.intercept_, self.kernel_)


def ramp_loss(z):
    """``l_R(z) = 1/2 max(0, min(2, 1 - z))`` (the scaling of the USMO code / ref. [6])."""
    return 0.5 * np.clip(1.0 - z, 0.0, 2.0)


class RampPU(KernelParamsMixin, PUClassifier):
    """Non-convex ramp-loss PU classifier (du Plessis et al. 2014, ref. [6] of USMO), by CCCP.

    Because ``l_R(z) + l_R(-z) = 1``, Eq. (4) with the ramp loss is::

        min_f  2 pi/p sum_P l_R(f(x)) + 1/n sum_U l_R(-f(x)) - pi + lam ||f||^2

    With ``l_R(z) = 1/2 [max(0, 1-z) - max(0, -1-z)]`` (convex minus convex), each CCCP step
    linearises the concave part at the current ``f`` and solves a weighted hinge-loss SVM
    with a linear term, whose dual is::

        min_b  1/(4 lam) b' Q b - 1' b   s.t.  y'b = 0,  -e <= b <= C - e

    (``Q = yy' * K``, ``C_i = w_i / 2``, ``e_i = C_i [y_i f(x_i) < -1]``, weights
    ``w = 2 pi/p`` on the positives, ``1/n`` on the unlabelled samples). CCCP starts from
    ``f = 0`` (so the first step is the convex hinge problem) and stops when the
    linearisation pattern repeats (a fixed point) or after ``max_iter`` steps.

    Each step is solved either by the SMO core (``solver="smo"``, default:
    :func:`weaklabel.solvers.ramp.ramp_step`, warm-started from the previous step, no Gram
    matrix) or by the cvxpy reference QP on the full Gram matrix (``solver="qp"``: how the
    paper's baseline was run; :func:`weaklabel.reference.ramp.ramp_step_reference`). Both
    give the same step optimum (certified in the tests); they differ in the bias when every
    multiplier sits at a bound, where any bias of an interval is optimal: SMO takes the
    interval's midpoint, the QP path a breakpoint chosen by rounding noise.

    Parameters
    ----------
    kernel : {"linear", "gaussian"}
    sigma : float
        Gaussian width, ``k = exp(-||x-y||^2 / (2 sigma^2))``.
    lam : float
        Regularisation ``lambda > 0``.
    pi : float
        Class prior of the positives in (0, 1).
    max_iter : int
        Cap on CCCP steps.
    solver : {"smo", "qp"}
        Solver of each convex step (see above).
    tol : float
        SMO's stopping tolerance per step (margin units; ``solver="smo"``).
    cache_mb : float
        Kernel-row cache of the SMO step, in MB.
    qp_solver : str
        cvxpy solver of ``solver="qp"``.

    Attributes
    ----------
    dual_coef_ : coefficients of ``k(x, x_i)`` over the training points (positives first).
    intercept_ : bias.
    n_iter_ : CCCP steps.
    converged_ : whether CCCP reached a fixed point before ``max_iter``.
    objective_ : final value of the ramp objective (without the constant ``-pi``).
    history_ : the ramp objective after every step.
    steps_ : per-step solver information.
    """

    def __init__(self, kernel="linear", sigma=1.0, lam=1e-2, pi=0.5, *, max_iter=50,
                 solver="smo", tol=1e-6, cache_mb=200.0, qp_solver="CLARABEL"):
        self.kernel = kernel
        self.sigma = sigma
        self.lam = lam
        self.pi = pi
        self.max_iter = max_iter
        self.solver = solver
        self.tol = tol
        self.cache_mb = cache_mb
        self.qp_solver = qp_solver

    def fit(self, X, s):
        """Fit on ``X`` with the PU indicator ``s`` (1 = labelled positive, 0 = unlabelled)."""
        self._check_common()
        lam = check_positive(self.lam, "lam")
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        check_choice(self.solver, "solver", {"smo", "qp"})
        Xp, Xu = split_pu(X, s)
        k = self._kernel()
        p, n = Xp.shape[0], Xu.shape[0]
        Xall = np.vstack([Xp, Xu])
        y = np.r_[np.ones(p), -np.ones(n)]
        w = np.r_[np.full(p, 2.0 * self.pi / p), np.full(n, 1.0 / n)]
        C = 0.5 * w
        t0 = time.perf_counter()
        step = self._step_smo if self.solver == "smo" else self._step_qp(Xall, y, C, lam, k)
        d = np.zeros(p + n, dtype=bool)  # f = 0 start: no point has y f < -1
        history, steps = [], []
        converged = False
        v = None
        for it in range(1, max_iter + 1):  # noqa: B007  (it is reported as n_iter_)
            ts = time.perf_counter()
            v, g, b, info = step(Xall, y, C, d, lam, k, v)
            z = y * (g + b)
            # distance of the closest point to the ramp's kink at y f = -1: the next
            # linearisation pattern is decided by solver accuracy when it is tiny
            info.update(seconds=time.perf_counter() - ts,
                        kink_margin=float(np.min(np.abs(z + 1.0))))
            steps.append(info)
            obj = float(lam * v @ g + np.sum(w * ramp_loss(z)))
            history.append(obj)
            d_new = z < -1.0
            if np.array_equal(d_new, d):
                converged = True
                break
            n_changed = int(np.sum(d_new != d))
            d = d_new
        if not converged:
            warn_not_converged(f"RampPU (CCCP, solver={self.solver!r})", max_iter,
                               float(n_changed), what="number of points that changed side in the "
                               "last step", tol_param=None)
        self.fit_seconds_ = time.perf_counter() - t0
        self.dual_coef_, self.intercept_ = v, float(b)
        self.X_fit_, self.kernel_ = Xall, k
        self.n_iter_, self.objective_, self.history_ = it, history[-1], np.array(history)
        self.converged_ = converged
        self.steps_ = steps
        self.n_features_in_ = Xall.shape[1]
        return self

    def _step_smo(self, Xall, y, C, d, lam, k, v_prev):
        """One CCCP step on the SMO core, warm-started from the previous coefficients."""
        from ..solvers.ramp import ramp_step

        r = ramp_step(Xall, y, C, d, lam, k, v0=v_prev, eps=self.tol, cache_mb=self.cache_mb)
        return r.v, r.g, r.bias, {"n_iter": r.n_iter, "kkt_violation": r.kkt_violation,
                                  "objective": r.objective, "bias_interval": r.bias_interval,
                                  "n_free": r.n_free}

    def _step_qp(self, Xall, y, C, lam, k):
        """One CCCP step with the cvxpy reference QP on the full Gram matrix (the
        implementation the SMO step is certified against)."""
        from ..reference.ramp import ramp_step_kkt_violation, ramp_step_reference

        K = gram(Xall, kernel=k)

        def step(Xall, y, C, d, lam, k, v_prev):
            r = ramp_step_reference(Xall, y, C, d, lam, k, K=K, solver=self.qp_solver)
            return r.v, r.g, r.bias, {"objective": r.objective, "kkt_violation": float(
                ramp_step_kkt_violation(r.b, r.g, r.bias, y, C, d))}

        return step

    def decision_function(self, X):
        X = self._check_X(X)
        out = np.empty(X.shape[0])
        for a in range(0, X.shape[0], _BLOCK):
            out[a:a + _BLOCK] = gram(X[a:a + _BLOCK], self.X_fit_, self.kernel_) @ \
                self.dual_coef_ + self.intercept_
        return out
