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
import warnings

import numpy as np

from .._validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_positive,
)
from ..kernels import check_cache_mb, gram
from ._base import (
    KernelParamsMixin,
    PUClassifier,
    check_kernel_scale,
    split_pu,
)
from ._prior import check_pu_prior, fit_pu_prior

__all__ = ["DoubleHingePU", "RampPU"]

_BLOCK = 2048  # rows of X per block in decision functions (memory ~ BLOCK x n floats)


_ONE_CLASS_HINT = (
    "the kernel width sigma or the regularisation lam probably does not suit the data "
    "(try sigma='scale', or a grid over sigma and lam scored by weaklabel.metrics).")


class DoubleHingePU(KernelParamsMixin, PUClassifier):
    """Kernel PU classifier with the double hinge loss (convex; du Plessis et al. 2015).

    Minimises ``pi/p sum_P -f(x) + 1/n sum_U max(0, f, (1+f)/2) + lam ||f||^2`` (Eq. (4) of
    the USMO paper), ``pi`` being ``prior``.

    Parameters
    ----------
    kernel : {"linear", "gaussian", "polynomial"}, default="linear"
        ``"rbf"`` and ``"poly"`` are accepted as aliases.
    sigma : float or "scale", default="scale"
        Gaussian width, ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))`` (Gaussian kernel
        only). ``"scale"`` sets ``sigma_ = sqrt(n_features * X.var() / 2)`` at fit (the
        width of scikit-learn's ``gamma="scale"``). The paper's value is ``sigma=1.0``
        (the Gaussian kernel of its Tables III-IV; the experiments of this package pass it
        explicitly).
    lam : float, default=1e-2
        Regularisation ``lambda > 0`` multiplying ``||f||^2`` (the paper's lambda; larger
        is smoother). A penalty weight, not a C-SVM cost (roughly ``C = 1 / (2 lam n)``).
    prior : float or "estimate", required
        Class prior ``Pr[y = +1]`` of the data, in (0, 1) (the paper's pi). No default:
        ``None`` raises ``ValueError``; it is not identifiable from ``(X, s)`` alone.
        ``"estimate"``: estimated at fit by Elkan & Noto's e1 as the positive share of the
        unlabelled rows (:func:`weaklabel.models._prior.fit_pu_prior`), stored in ``prior_``.
    degree : int, default=3
        Degree of the polynomial kernel ``(<x, y> + coef0)^degree``.
    coef0 : float, default=1.0
        Offset of the polynomial kernel.
    solver : {"usmo", "qp", "init"}, default="usmo"
        ``usmo``: the numba SMO solver; ``qp``: the cvxpy reference on the dual (6) (the
        paper's baseline [7]); ``init``: USMO's one-class-SVM initialisation only (Init*).
    tol : float, default=2e-3
        USMO's stopping tolerance on the KKT violation (the paper's tau; 2e-3 as in the
        authors' code).
    stopping : {"complete", "paper"}, default="complete"
        USMO's stopping rule (``paper`` = Eq. (13) without the missing fourth condition).
    init : {"ocsvm", "trivial"}, default="ocsvm"
        USMO's initial point: the one-class-SVM ranking (Eqs. (17)-(18)) or uniform.
    cache_mb : float, "auto" or None, default=200.0
        Kernel-row cache budget of USMO, in MB; ``None``: all of ``K_UU`` when it needs at
        most 1024 MB, else 1024 MB (:func:`weaklabel.kernels.cache_budget`). The default
        stays 200 MB: whether the budget holds all of ``K_UU`` decides how the start is
        computed (:func:`weaklabel.solvers.usmo.usmo`), so it is kept for the committed
        results.
    max_iter : int, default=100_000
        Cap on USMO's passes over the data.
    qp_solver : str, default="CLARABEL"
        cvxpy solver of ``solver="qp"``.
    random_state : int, Generator or None, default=None
        Breaks ties in the OCSVM initialisation.
    verbose : bool, default=False
        Print one line per USMO pass (time, dual objective, changes, KKT violation; printed
        when the solver returns) and a summary.

    Attributes
    ----------
    dual_ : ndarray of shape (n,)
        The dual variables of (6), one per unlabelled sample, in ``[0, 1/(2 lam n)]`` (the
        paper's sigma_u).
    dual_coef_ : ndarray of shape (p + n,)
        Coefficients of ``k(x, x_i)`` over the training points, positives first (as in
        :class:`RampPU`): ``c1_`` for each positive, ``-dual_`` for the unlabelled samples,
        so ``f(x) = sum_i dual_coef_i k(x, x_i) + intercept_``.
    c1_ : float
        Weight of every labelled positive, ``prior / (2 lam p)``.
    intercept_ : float
        The bias beta (Eq. (16)).
    sigma_ : float or None
        The Gaussian width used (``None`` for the other kernels).
    prior_ : float
        The class prior of the fit (``prior``, or its estimate with ``prior="estimate"``).
    prior_estimate_ : PriorEstimate or None
        The estimate of ``prior="estimate"`` (:func:`weaklabel.prior.estimate_prior`).
    n_iter_ : int
        USMO passes (0 for ``solver="init"`` and ``solver="qp"``).
    converged_ : bool
        Whether USMO's stopping rule holds at ``tol`` (True for ``"qp"`` and ``"init"``).
    result_ : USMOResult or the reference QP's result
        The solver's full result (passes, pair updates, KKT violation, trace...).
    fit_seconds_ : float
        Wall time of the solver (initialisation included for USMO).
    n_features_in_ : int
        Number of features seen in fit.

    Notes
    -----
    Memory: USMO keeps O(n) floats and a kernel-row cache of at most ``cache_mb``; it builds
    no n x n matrix. ``solver="qp"`` builds the dense (n x n) Gram matrix of the unlabelled
    samples (``8 n^2`` bytes, 2 GB at n = 16 000) and cvxpy's copies of it.

    Warns
    -----
    ConvergenceWarning
        USMO stopped at ``max_iter`` passes, or could make no more progress, with a KKT
        violation above ``tol`` (the message gives the remaining violation).
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, kernel="linear", sigma="scale", lam=1e-2, prior=None, *, degree=3,
                 coef0=1.0, solver="usmo", tol=2e-3, stopping="complete", init="ocsvm",
                 cache_mb=200.0, max_iter=100_000, qp_solver="CLARABEL", random_state=None,
                 verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.lam = lam
        self.prior = prior
        self.degree = degree
        self.coef0 = coef0
        self.solver = solver
        self.tol = tol
        self.stopping = stopping
        self.init = init
        self.cache_mb = cache_mb
        self.max_iter = max_iter
        self.qp_solver = qp_solver
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, s):
        """Fit on ``X`` with the PU indicator ``s`` (1 = labelled positive, 0 = unlabelled).

        Returns
        -------
        self
        """
        from ..solvers.usmo import usmo

        check_choice(self.solver, "solver", {"usmo", "qp", "init"})
        check_cache_mb(self.cache_mb)
        prior = check_pu_prior(self.prior, type(self).__name__)
        lam = check_positive(self.lam, "lam")
        tol = check_positive(self.tol, "tol")
        max_iter = check_int(self.max_iter, "max_iter", minimum=0)
        self._check_random_state()
        Xp, Xu = split_pu(X, s)
        prior = fit_pu_prior(self, prior, X, s)
        k = self._kernel(Xp, Xu)
        name = f"DoubleHingePU(solver={self.solver!r})"
        t0 = time.perf_counter()
        if self.solver == "qp":
            # cvxpy is the [reference] extra: imported only when the QP solver is asked for
            from ..reference.usmo import usmo_dual_reference

            ref = usmo_dual_reference(Xp, Xu, k, lam, prior, solver=self.qp_solver)
            self.dual_, self.intercept_ = np.asarray(ref.dual), float(ref.beta)
            self.result_ = ref
            self.n_iter_, self.converged_ = 0, True
            f_u = None
        else:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ConvergenceWarning)
                res = usmo(Xp, Xu, k, lam, prior, tau=tol, stopping=self.stopping,
                           init=self.init, cache_mb=self.cache_mb,
                           max_passes=0 if self.solver == "init" else max_iter,
                           random_state=self.random_state)
            self.result_ = res
            if self.solver == "init":
                self.dual_, self.intercept_ = np.asarray(res.init_dual), float(res.init_beta)
                self.n_iter_, self.converged_ = 0, True
            else:
                self.dual_, self.intercept_ = np.asarray(res.dual), float(res.beta)
                self.n_iter_, self.converged_ = int(res.passes), bool(res.converged)
                if max_iter == 0 and not res.converged and not any(
                        issubclass(w.category, ConvergenceWarning) for w in caught):
                    warnings.warn(
                        f"{name} did not converge: max_iter=0 allows no USMO pass, so the "
                        "fit is the initial solution, with KKT violation "
                        f"{self._rule_violation(res):.3g} > tol={tol:g} (converged_=False); "
                        "increase max_iter, or use solver='init' for the initial solution.",
                        ConvergenceWarning, stacklevel=2)
            f_u = np.asarray(res.F) + self.intercept_  # F = f - beta on the unlabelled
            for w in caught:
                if issubclass(w.category, ConvergenceWarning):
                    stalled = bool(res.info.get("stalled", False))
                    cause = ("no pair update can decrease the objective (numerically "
                             "degenerate at this tolerance)" if stalled
                             else f"stopped at max_iter={max_iter} passes")
                    fix = "loosen tol" if stalled else "increase max_iter or loosen tol"
                    warnings.warn(
                        f"{name} did not converge: {cause}, with remaining KKT violation "
                        f"{self._rule_violation(res):.3g} > tol={tol:g}; {fix}.",
                        ConvergenceWarning, stacklevel=2)
                else:
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
            if self.verbose:
                self._print_trace(res)
        self.fit_seconds_ = time.perf_counter() - t0
        p, n = Xp.shape[0], Xu.shape[0]
        self.c1_ = prior / (2.0 * lam * p)
        self.dual_coef_ = np.r_[np.full(p, self.c1_), -self.dual_]
        self.Xp_, self.Xu_ = Xp, Xu
        self.kernel_ = k
        self.n_features_in_ = Xp.shape[1]
        self.n_labelled_, self.n_unlabelled_ = p, n
        if f_u is None:
            f_u = self.decision_function(Xu)
        if self.verbose:
            print(f"{name}: fitted in {self.fit_seconds_:.3g} s, intercept "
                  f"{self.intercept_:.6g}")
        self._warn_if_one_class(f_u, _ONE_CLASS_HINT)
        return self

    @staticmethod
    def _rule_violation(res) -> float:
        """The violation of the stopping rule that USMO tested (complete or paper's)."""
        from ..solvers.usmo import paper_rule_violation

        if res.stopping == "paper":
            return float(paper_rule_violation(res.dual, res.F, res.c2))
        return float(res.kkt_violation)

    @staticmethod
    def _print_trace(res) -> None:
        tr = res.trace
        for i in range(len(tr["seconds"])):
            kind = "whole" if tr["kind"][i] else "non-bound"
            print(f"DoubleHingePU: pass {i + 1} ({kind}): {tr['seconds'][i]:.3g} s, dual "
                  f"objective {tr['dual_objective'][i]:.6g}, {tr['n_changed'][i]} changes, "
                  f"KKT violation {tr['kkt_violation'][i]:.3g}")
        print(f"DoubleHingePU: {res.passes} passes, {res.pair_updates} pair updates, "
              f"converged={res.converged}")

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

    Because ``l_R(z) + l_R(-z) = 1``, Eq. (4) with the ramp loss is (``pi`` = ``prior``)::

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
    kernel : {"linear", "gaussian", "polynomial"}, default="linear"
        ``"rbf"`` and ``"poly"`` are accepted as aliases.
    sigma : float or "scale", default="scale"
        Gaussian width, ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))``. ``"scale"`` sets
        ``sigma_ = sqrt(n_features * X.var() / 2)`` at fit (scikit-learn's
        ``gamma="scale"``); the USMO paper's value is ``sigma=1.0`` (its Tables III-IV;
        the experiments pass it explicitly).
    lam : float, default=1e-2
        Regularisation ``lambda > 0`` multiplying ``||f||^2`` (as in :class:`DoubleHingePU`).
    prior : float or "estimate", required
        Class prior ``Pr[y = +1]`` of the data, in (0, 1) (the paper's pi). No default:
        ``None`` raises ``ValueError``; it is not identifiable from ``(X, s)`` alone.
        ``"estimate"``: estimated at fit by Elkan & Noto's e1 as the positive share of the
        unlabelled rows (:func:`weaklabel.models._prior.fit_pu_prior`), stored in ``prior_``.
    degree : int, default=3
        Degree of the polynomial kernel ``(<x, y> + coef0)^degree``.
    coef0 : float, default=1.0
        Offset of the polynomial kernel.
    max_iter : int, default=50
        Cap on CCCP steps.
    solver : {"smo", "qp"}, default="smo"
        Solver of each convex step (see above).
    tol : float, default=1e-6
        SMO's stopping tolerance per step (margin units; ``solver="smo"``). CCCP itself
        stops at a fixed point of the linearisation pattern, not at a tolerance.
    cache_mb : float, "auto" or None, default=200.0
        Kernel-row cache of the SMO step, in MB; ``None``: all of the kernel matrix when it
        needs at most 1024 MB, else 1024 MB. Changes the time, never the solution.
    qp_solver : str, default="CLARABEL"
        cvxpy solver of ``solver="qp"``.
    verbose : bool, default=False
        Print one line per CCCP step (seconds, objective, points that changed side).

    Attributes
    ----------
    dual_coef_ : ndarray of shape (p + n,)
        Coefficients of ``k(x, x_i)`` over the training points (positives first);
        ``f(x) = sum_i dual_coef_i k(x, x_i) + intercept_``.
    intercept_ : float
        Bias.
    sigma_ : float or None
        The Gaussian width used (``None`` for the other kernels).
    prior_ : float
        The class prior of the fit (``prior``, or its estimate with ``prior="estimate"``).
    prior_estimate_ : PriorEstimate or None
        The estimate of ``prior="estimate"`` (:func:`weaklabel.prior.estimate_prior`).
    n_iter_ : int
        CCCP steps.
    converged_ : bool
        Whether CCCP reached a fixed point before ``max_iter`` with every convex step
        solved to ``tol``.
    objective_ : float
        Final value of the ramp objective (without the constant ``-pi``).
    history_ : ndarray
        The ramp objective after every step.
    steps_ : list of dict
        Per-step solver information.
    fit_seconds_ : float
        Wall time of the CCCP loop.
    n_features_in_ : int
        Number of features seen in fit.

    Notes
    -----
    Memory: ``solver="smo"`` keeps O(n) floats and a kernel-row cache of at most
    ``cache_mb``; ``solver="qp"`` builds the dense (n x n) Gram matrix of all training points
    (``8 n^2`` bytes) and cvxpy's copies of it.

    Warns
    -----
    ConvergenceWarning
        CCCP stopped at ``max_iter`` steps (the message gives how many points changed side
        in the last step).
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, kernel="linear", sigma="scale", lam=1e-2, prior=None, *, degree=3,
                 coef0=1.0, max_iter=50, solver="smo", tol=1e-6, cache_mb=200.0,
                 qp_solver="CLARABEL", verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.lam = lam
        self.prior = prior
        self.degree = degree
        self.coef0 = coef0
        self.max_iter = max_iter
        self.solver = solver
        self.tol = tol
        self.cache_mb = cache_mb
        self.qp_solver = qp_solver
        self.verbose = verbose

    def fit(self, X, s):
        """Fit on ``X`` with the PU indicator ``s`` (1 = labelled positive, 0 = unlabelled)."""
        check_choice(self.solver, "solver", {"smo", "qp"})
        check_cache_mb(self.cache_mb)
        prior = check_pu_prior(self.prior, type(self).__name__)
        lam = check_positive(self.lam, "lam")
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        self._check_random_state()
        Xp, Xu = split_pu(X, s)
        prior = fit_pu_prior(self, prior, X, s)
        k = self._kernel(Xp, Xu)
        p, n = Xp.shape[0], Xu.shape[0]
        Xall = np.vstack([Xp, Xu])
        y = np.r_[np.ones(p), -np.ones(n)]
        w = np.r_[np.full(p, 2.0 * prior / p), np.full(n, 1.0 / n)]
        C = 0.5 * w
        tol = check_positive(self.tol, "tol")
        if self.solver == "smo":  # SMO's box bounds are C / (2 lam)
            check_kernel_scale(Xall, k, float(np.sum(C)) / (2.0 * lam), tol,
                               owner="RampPU(solver='smo')")
        t0 = time.perf_counter()
        step = self._step_smo if self.solver == "smo" else self._step_qp(Xall, y, C, lam, k)
        d = np.zeros(p + n, dtype=bool)  # f = 0 start: no point has y f < -1
        history, steps = [], []
        converged = False
        v = None
        inner_failed = []  # steps whose SMO solve stopped at its update cap
        for it in range(1, max_iter + 1):  # noqa: B007  (it is reported as n_iter_)
            ts = time.perf_counter()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ConvergenceWarning)
                v, g, b, info = step(Xall, y, C, d, lam, k, v)
            for wn in caught:
                if not issubclass(wn.category, ConvergenceWarning):
                    warnings.warn_explicit(wn.message, wn.category, wn.filename, wn.lineno)
            if not info.get("converged", True) or any(
                    issubclass(wn.category, ConvergenceWarning) for wn in caught):
                inner_failed.append((it, float(info.get("kkt_violation", np.nan))))
            z = y * (g + b)
            # distance of the closest point to the ramp's kink at y f = -1: the next
            # linearisation pattern is decided by solver accuracy when it is tiny
            info.update(seconds=time.perf_counter() - ts,
                        kink_margin=float(np.min(np.abs(z + 1.0))))
            steps.append(info)
            obj = float(lam * v @ g + np.sum(w * ramp_loss(z)))
            history.append(obj)
            d_new = z < -1.0
            n_changed = int(np.sum(d_new != d))
            if self.verbose:
                print(f"RampPU: CCCP step {it}: {info['seconds']:.3g} s, objective {obj:.6g}, "
                      f"{n_changed} points changed side")
            if n_changed == 0:
                converged = True
                break
            d = d_new
        if inner_failed:
            converged = False
            warnings.warn(
                f"RampPU(solver={self.solver!r}) did not converge: the convex solve of "
                f"{len(inner_failed)} CCCP step(s) stopped at its update cap (remaining KKT "
                f"violation {inner_failed[-1][1]:.3g} > tol={tol:g} in step "
                f"{inner_failed[-1][0]}); converged_=False. Standardise X or loosen tol.",
                ConvergenceWarning, stacklevel=2)
        elif not converged:
            warnings.warn(
                f"RampPU(solver={self.solver!r}) did not converge: CCCP stopped at "
                f"max_iter={max_iter} steps with {n_changed} points that changed side of the "
                "ramp's kink in the last step (no fixed point of the linearisation yet); "
                "increase max_iter.", ConvergenceWarning, stacklevel=2)
        self.fit_seconds_ = time.perf_counter() - t0
        self.dual_coef_, self.intercept_ = v, float(b)
        self.X_fit_, self.kernel_ = Xall, k
        self.n_iter_, self.objective_, self.history_ = it, history[-1], np.array(history)
        self.converged_ = converged
        self.steps_ = steps
        self.n_features_in_ = Xall.shape[1]
        self._warn_if_one_class((g + b)[p:], _ONE_CLASS_HINT)
        return self

    def _step_smo(self, Xall, y, C, d, lam, k, v_prev):
        """One CCCP step on the SMO core, warm-started from the previous coefficients."""
        from ..solvers.ramp import ramp_step

        r = ramp_step(Xall, y, C, d, lam, k, v0=v_prev, eps=self.tol, cache_mb=self.cache_mb)
        return r.v, r.g, r.bias, {"n_iter": r.n_iter, "kkt_violation": r.kkt_violation,
                                  "objective": r.objective, "bias_interval": r.bias_interval,
                                  "n_free": r.n_free, "converged": bool(r.converged)}

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
        """``f(x) = sum_i dual_coef_i k(x, x_i) + intercept_``, in blocks of rows."""
        X = self._check_X(X)
        out = np.empty(X.shape[0])
        for a in range(0, X.shape[0], _BLOCK):
            out[a:a + _BLOCK] = gram(X[a:a + _BLOCK], self.X_fit_, self.kernel_) @ \
                self.dual_coef_ + self.intercept_
        return out
