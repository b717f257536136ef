"""Semi-supervised SVM baselines of the WellSVM paper's Tables 2-4 (Li, Tsang, Kwok and Zhou,
JMLR 2013, Sec. 5.1.1).

- :class:`LabelledSVM` -- the C-SVM (with bias) on the labelled points only (the paper's
  "SVM", LIBSVM there).
- :class:`TSVM` -- Joachims (1999), local combinatorial label switching (SVMlight).
- :class:`CCCPTSVM` -- Collobert, Sinz, Weston and Bottou (2006), CCCP on the symmetric ramp
  loss with the balancing constraint (the paper's "USVM", UniverSVM).
- :class:`LapSVM` -- Belkin, Niyogi and Sindhwani (2006), Laplacian SVM on a kNN graph.

All run on the package's SMO core (:mod:`weaklabel.solvers.smo`). Convention of the
semi-supervised estimators (:class:`weaklabel.models._base.SemiSupervisedClassifier`):
``fit(X, y)`` with ``y`` in ``{0, 1}`` for labelled samples and ``-1`` for unlabelled ones;
predictions ``0`` / ``1``. The costs are the WellSVM paper's: ``C1`` on the labelled
slacks (1 in the paper) and ``C2`` on the unlabelled ones (grid 0.001 ... 1).

When ``y`` has no unlabelled sample, TSVM and CCCPTSVM fit the labelled-only SVM (there is
nothing to transduce); LapSVM builds its graph on the labelled points.
"""

from __future__ import annotations

import numbers
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
    UNLABELLED,
    KernelParamsMixin,
    SemiSupervisedClassifier,
    check_dense_memory,
    check_kernel_scale,
)

__all__ = ["CCCPTSVM", "LabelledSVM", "LapSVM", "TSVM"]

_BLOCK = 2048

_ONE_CLASS_HINT = ("the costs C1 / C2 or the kernel width sigma probably do not suit the data "
                   "(try a grid over C2 and sigma scored by cross-validation on the labels).")


class _SSLKernelSVM(KernelParamsMixin, SemiSupervisedClassifier):
    """Shared fit plumbing: validation, kernel, decision function, warnings."""

    _name = "SSL"

    def _split(self, X, y):
        X, y = self._validate_semisupervised(X, y)
        lab = y != UNLABELLED
        X_l, X_u = X[lab], X[~lab]
        y_l = np.where(y[lab] == 1, 1.0, -1.0)
        return X, lab, X_l, y_l, X_u

    def _common(self):
        C1 = check_positive(self.C1, "C1")
        tol = check_positive(self.tol, "tol")
        self._cache_mb = check_cache_mb(getattr(self, "cache_mb", None))
        return C1, tol

    def _check_scale(self, X, total_cost, tol):
        """Refuse an ``X`` on which SMO cannot reach ``tol`` (:func:`check_kernel_scale`)."""
        check_kernel_scale(X, self.kernel_, total_cost, tol, owner=type(self).__name__)

    def _warn_inner(self, res, tol, stacklevel=3):
        """Warn when the fit stopped because one SVM solve hit SMO's update cap."""
        if res.info.get("smo_failed"):
            warnings.warn(
                f"{type(self).__name__} did not converge: an SVM solve stopped at the SMO "
                f"update cap with remaining KKT violation "
                f"{res.info.get('smo_kkt_violation', float('nan')):.3g} > tol={tol:g}, and the "
                "fit stopped there (converged_=False); standardise X or loosen tol.",
                ConvergenceWarning, stacklevel=stacklevel)
            return True
        return False

    def _finish(self, X_fit, coef, intercept, n_iter, converged, t0, n_features, X_u):
        self.X_fit_ = np.ascontiguousarray(X_fit)
        self.dual_coef_ = np.asarray(coef, dtype=float)
        self.intercept_ = float(intercept)
        self.n_iter_ = int(n_iter)
        self.converged_ = bool(converged)
        self.fit_seconds_ = time.perf_counter() - t0
        self.n_features_in_ = n_features
        if X_u is not None and X_u.shape[0] > 0:
            self._warn_if_one_class(self.decision_function(X_u), _ONE_CLASS_HINT,
                                    stacklevel=4)
        return self

    def decision_function(self, X):
        """``f(x) = sum_i dual_coef_i k(x, X_fit_i) + intercept_``; ``>= 0`` predicts 1.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._check_X(X)
        out = np.empty(X.shape[0])
        for s in range(0, X.shape[0], _BLOCK):
            out[s:s + _BLOCK] = gram(X[s:s + _BLOCK], self.X_fit_, self.kernel_) @ \
                self.dual_coef_
        return out + self.intercept_

    def _labelled_svm(self, X_l, y_l, C1, tol, max_iter=None):
        from ..solvers.smo import svc_dual

        kw = {} if max_iter is None else {"max_iter": max_iter}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            res = svc_dual(X_l, y_l, C1, self.kernel_, eps=tol,
                           cache_mb=getattr(self, "_cache_mb", None), **kw)
        for w in caught:
            if issubclass(w.category, ConvergenceWarning):
                cap = (f"max_iter={max_iter} updates" if max_iter is not None
                       else f"its update cap ({res.n_iter} updates)")
                fix = ("increase max_iter or loosen tol" if max_iter is not None
                       else "standardise X or loosen tol")
                warnings.warn(
                    f"{type(self).__name__}: the SMO solve stopped at {cap} with remaining "
                    f"KKT violation {res.kkt_violation:.3g} > tol={tol:g}; {fix}.",
                    ConvergenceWarning, stacklevel=4)
        return res


_COMMON_PARAMS_DOC = """
    kernel : {"linear", "gaussian", "polynomial"}, default="linear"
        ``"rbf"`` and ``"poly"`` are accepted as aliases.
    sigma : float or "scale", default="scale"
        Gaussian width, ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))``. ``"scale"`` sets
        ``sigma_ = sqrt(n_features * X.var() / 2)`` over all training rows (labelled and
        unlabelled) at fit. The WellSVM paper's grid is ``{1/4, 1/2, 1, 2, 4} sqrt(gamma)``.
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1.0
        Offset of the polynomial kernel.
    C1 : float, default=1.0
        Cost of the labelled slacks (the WellSVM paper's C1 = 1)."""


class LabelledSVM(_SSLKernelSVM):
    __doc__ = f"""C-SVM (with bias) on the labelled samples only; unlabelled rows are ignored.

    The "SVM" column of Li et al. 2013, Tables 2-4 (LIBSVM there), on the SMO core
    (:func:`weaklabel.solvers.smo.svc_dual`).

    Parameters
    ----------{_COMMON_PARAMS_DOC}
    tol : float, default=1e-3
        SMO tolerance (LIBSVM's ``-e``).
    max_iter : int, default=10_000_000
        Cap on SMO two-variable updates.
    verbose : bool, default=False
        Print a one-line summary of the fit.
    cache_mb : float, "auto" or None, default=None
        Kernel-row cache of the SMO solves, in MB; ``None``: all of the kernel matrix when
        it needs at most 1024 MB, else 1024 MB (:func:`weaklabel.kernels.cache_budget`).
        Changes the time, never the solution.

    Attributes
    ----------
    X_fit_ : ndarray of shape (l, n_features)
        The labelled training rows.
    dual_coef_ : ndarray of shape (l,)
        ``alpha_i y_i``: ``f(x) = sum_i dual_coef_i k(x, X_fit_i) + intercept_``.
    intercept_ : float
    sigma_ : float or None
    n_iter_ : int
        SMO updates.
    converged_ : bool
    result_ : SMOResult
    fit_seconds_ : float
    n_features_in_ : int

    Warns
    -----
    ConvergenceWarning
        SMO stopped at ``max_iter``.
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, kernel="linear", sigma="scale", *, degree=3, coef0=1.0, C1=1.0,
                 tol=1e-3, max_iter=10_000_000, verbose=False, cache_mb=None):
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.C1 = C1
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.cache_mb = cache_mb

    def fit(self, X, y):
        """Fit on the labelled rows of ``(X, y)`` (``y = -1`` marks unlabelled rows).

        Returns
        -------
        self
        """
        C1, tol = self._common()
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        X, lab, X_l, y_l, X_u = self._split(X, y)
        self.kernel_ = self._kernel(X)
        self._check_scale(X_l, C1 * X_l.shape[0], tol)
        t0 = time.perf_counter()
        res = self._labelled_svm(X_l, y_l, C1, tol, max_iter)
        self.result_ = res
        if self.verbose:
            print(f"LabelledSVM: l={X_l.shape[0]} SMO updates={res.n_iter} "
                  f"objective={res.objective:.8g}")
        return self._finish(X_l, res.alpha * y_l, -res.rho, res.n_iter, res.converged, t0,
                            X.shape[1], X_u)


class TSVM(_SSLKernelSVM):
    __doc__ = f"""Transductive SVM by local combinatorial label switching (Joachims 1999).

    See :mod:`weaklabel.solvers.tsvm`. The number of positives among the unlabelled rows is
    fixed by the labelled class ratio (WellSVM's balance constraint, Li et al. 2013,
    Sec. 4.1); the unlabelled cost is ramped from 1e-5 up to ``C2`` by doubling, as in
    Joachims (1999).

    Parameters
    ----------{_COMMON_PARAMS_DOC}
    C2 : float, default=0.1
        Final cost of the unlabelled slacks (Joachims' C*; the paper's grid 0.001 ... 1).
    tol : float, default=1e-3
        SMO tolerance of each SVM solve.
    max_iter : int, default=10_000
        Cap on SVM solves (one per cost level and one per label switch).
    verbose : bool, default=False
        One line per cost level.
    cache_mb : float, "auto" or None, default=None
        Kernel-row cache of the SMO solves, in MB; ``None``: all of the kernel matrix when
        it needs at most 1024 MB, else 1024 MB (:func:`weaklabel.kernels.cache_budget`).
        Changes the time, never the solution.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples, n_features)
        Labelled rows then unlabelled rows (each in their order in ``X``).
    dual_coef_ : ndarray of shape (n_samples,)
        ``f(x) = sum_i dual_coef_i k(x, X_fit_i) + intercept_``.
    intercept_ : float
    transduction_ : ndarray of shape (n_unlabelled,)
        Final labels (0 / 1) of the unlabelled rows, in their order in ``X``.
    sigma_ : float or None
    n_iter_ : int
        SVM solves (1 without unlabelled rows: the labelled-only SVM).
    converged_ : bool
    result_ : TSVMResult or SMOResult (no unlabelled rows)
    fit_seconds_ : float
    n_features_in_ : int

    Warns
    -----
    ConvergenceWarning
        ``max_iter`` solves reached with label pairs still to switch.
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, kernel="linear", sigma="scale", *, degree=3, coef0=1.0, C1=1.0,
                 C2=0.1, tol=1e-3, max_iter=10_000, verbose=False, cache_mb=None):
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.C1 = C1
        self.C2 = C2
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.cache_mb = cache_mb

    def fit(self, X, y):
        """Fit on ``(X, y)``, ``y`` in {0, 1} for labelled rows and -1 for unlabelled ones.

        Returns
        -------
        self
        """
        from ..solvers.tsvm import tsvm

        C1, tol = self._common()
        C2 = check_positive(self.C2, "C2")
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        X, lab, X_l, y_l, X_u = self._split(X, y)
        self.kernel_ = self._kernel(X)
        self._check_scale(X, C1 * X_l.shape[0] + C2 * X_u.shape[0], tol)
        t0 = time.perf_counter()
        if X_u.shape[0] == 0:
            res = self._labelled_svm(X_l, y_l, C1, tol)
            self.result_ = res
            self.transduction_ = np.zeros(0, dtype=np.int64)
            return self._finish(X_l, res.alpha * y_l, -res.rho, 1, res.converged, t0,
                                X.shape[1],
                                None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            res = tsvm(X_l, y_l, X_u, C=C1, C_star=C2, kernel=self.kernel_, eps=tol,
                       max_iter=max_iter, verbose=self.verbose, cache_mb=self._cache_mb)
        if self._warn_inner(res, tol):
            pass
        elif any(issubclass(w.category, ConvergenceWarning) for w in caught):
            warnings.warn(
                f"TSVM did not converge: stopped at max_iter={max_iter} SVM solves with label "
                f"pairs still to switch ({res.n_switches} switched); increase max_iter.",
                ConvergenceWarning, stacklevel=2)
        self.result_ = res
        l = X_l.shape[0]
        self.transduction_ = (res.labels[l:] > 0).astype(np.int64)
        if self.verbose:
            print(f"TSVM: {res.n_iter} SVM solves, {res.n_switches} switches, "
                  f"objective={res.objective:.8g}")
        return self._finish(np.vstack([X_l, X_u]), res.coef, res.bias, res.n_iter,
                            res.converged, t0, X.shape[1], X_u)


class CCCPTSVM(_SSLKernelSVM):
    __doc__ = f"""CCCP transductive SVM with the balancing constraint (Collobert et al. 2006).

    The WellSVM paper's "USVM" (UniverSVM). See :mod:`weaklabel.solvers.cccp_tsvm`: each
    unlabelled row enters twice (labels +1 and -1) with the symmetric ramp loss
    ``R_s = H_1 - H_s``; the mean of ``f`` over the unlabelled rows equals the mean labelled
    label (in -1/+1 coding); each CCCP step is one SMO solve.

    Parameters
    ----------{_COMMON_PARAMS_DOC}
    C2 : float, default=0.1
        Cost of the unlabelled ramp losses (Collobert et al.'s C*; the paper's grid
        0.001 ... 1).
    s : float, default=-0.3
        Ramp parameter, ``-1 < s <= 0`` (Collobert et al.'s value).
    tol : float, default=1e-3
        SMO tolerance of each CCCP step.
    max_iter : int, default=50
        Cap on CCCP steps.
    verbose : bool, default=False
        One line per CCCP step.
    cache_mb : float, "auto" or None, default=None
        Kernel-row cache of the SMO solves, in MB; ``None``: all of the kernel matrix when
        it needs at most 1024 MB, else 1024 MB (:func:`weaklabel.kernels.cache_budget`).
        Changes the time, never the solution.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples, n_features)
        Labelled rows then unlabelled rows.
    dual_coef_ : ndarray of shape (n_samples,)
        ``f(x) = sum_i dual_coef_i k(x, X_fit_i) + intercept_`` (the two copies of each
        unlabelled row and the balancing example are folded in).
    intercept_ : float
    sigma_ : float or None
    n_iter_ : int
        CCCP steps (1 without unlabelled rows: the labelled-only SVM).
    converged_ : bool
    result_ : CCCPTSVMResult or SMOResult (no unlabelled rows)
    fit_seconds_ : float
    n_features_in_ : int

    Notes
    -----
    Memory: a dense ``(1 + l + 2u)^2`` kernel matrix (``8 (1 + l + 2u)^2`` bytes); ``fit``
    raises ``MemoryError`` naming its size and the bytes before allocating it when that
    exceeds the memory available.

    Warns
    -----
    ConvergenceWarning
        ``max_iter`` CCCP steps reached while the linearisation still changes.
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, kernel="linear", sigma="scale", *, degree=3, coef0=1.0, C1=1.0,
                 C2=0.1, s=-0.3, tol=1e-3, max_iter=50, verbose=False, cache_mb=None):
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.C1 = C1
        self.C2 = C2
        self.s = s
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.cache_mb = cache_mb

    def fit(self, X, y):
        """Fit on ``(X, y)``, ``y`` in {0, 1} for labelled rows and -1 for unlabelled ones.

        Returns
        -------
        self
        """
        from ..solvers.cccp_tsvm import cccp_tsvm

        C1, tol = self._common()
        C2 = check_positive(self.C2, "C2")
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        if isinstance(self.s, bool) or not isinstance(self.s, numbers.Real):
            raise TypeError(f"s (the ramp parameter) must be a real number with -1 < s <= 0, "
                            f"got {type(self.s).__name__} {self.s!r}.")
        if not -1.0 < float(self.s) <= 0.0:
            raise ValueError(f"s (the ramp parameter) must satisfy -1 < s <= 0, got {self.s}.")
        X, lab, X_l, y_l, X_u = self._split(X, y)
        self.kernel_ = self._kernel(X)
        self._check_scale(X, C1 * X_l.shape[0] + 2.0 * C2 * X_u.shape[0], tol)
        check_dense_memory(1 + X_l.shape[0] + 2 * X_u.shape[0], 1, owner="CCCPTSVM",
                           avoid="Subsample the unlabelled rows.")
        t0 = time.perf_counter()
        if X_u.shape[0] == 0:
            res = self._labelled_svm(X_l, y_l, C1, tol)
            self.result_ = res
            return self._finish(X_l, res.alpha * y_l, -res.rho, 1, res.converged, t0,
                                X.shape[1],
                                None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            res = cccp_tsvm(X_l, y_l, X_u, C=C1, C_star=C2, kernel=self.kernel_, s=self.s,
                            eps=tol, max_iter=max_iter, verbose=self.verbose,
                            cache_mb=self._cache_mb)
        if self._warn_inner(res, tol):
            pass
        elif any(issubclass(w.category, ConvergenceWarning) for w in caught):
            warnings.warn(
                f"CCCPTSVM did not converge: stopped at max_iter={max_iter} CCCP steps while "
                "the linearisation still changes; increase max_iter.",
                ConvergenceWarning, stacklevel=2)
        self.result_ = res
        if self.verbose:
            print(f"CCCPTSVM: {res.n_iter} CCCP steps, objective={res.objective:.8g}")
        return self._finish(np.vstack([X_l, X_u]), res.coef, res.bias, res.n_iter,
                            res.converged, t0, X.shape[1], X_u)


class LapSVM(_SSLKernelSVM):
    __doc__ = f"""Laplacian SVM (Belkin, Niyogi and Sindhwani 2006) on a kNN graph.

    See :mod:`weaklabel.solvers.lapsvm`. The costs map to Belkin et al.'s regularisers as
    ``gamma_A = 1 / (2 C1 l)`` and ``gamma_I / (l+u)^2 = 2 gamma_A C2``, i.e. the
    objective, in the C-SVM scaling, is
    ``1/2 ||f||^2 + C1 sum_L max(0, 1 - y_i f(x_i)) + C2 f'Lf`` (``f`` over all training
    rows). With ``C2 -> 0`` it is the labelled-only C-SVM.

    Parameters
    ----------{_COMMON_PARAMS_DOC}
    C2 : float, default=0.1
        Weight of the graph term ``f'Lf`` in the C-SVM scaling (mapped to Belkin et al.'s
        ``gamma_I = 2 gamma_A C2 (l+u)^2``).
    n_neighbors : int, default=5
        ``k`` of the symmetric kNN graph (the WellSVM paper's grid is {{3, 5, 7, 9}}).
    weights : {{"heat", "binary"}}, default="heat"
        Edge weights ``exp(-||x_i - x_j||^2 / (4t))`` (``4t`` the mean squared edge length)
        or 1.
    laplacian : {{"unnormalized", "normalized"}}, default="unnormalized"
        ``L = D - W`` or ``I - D^{{-1/2}} W D^{{-1/2}}``.
    tol : float, default=1e-3
        SMO tolerance.
    max_iter : int, default=10_000_000
        Cap on SMO two-variable updates.
    verbose : bool, default=False
        Print a one-line summary of the fit.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples, n_features)
        Labelled rows then unlabelled rows.
    dual_coef_ : ndarray of shape (n_samples,)
        Belkin et al.'s ``alpha*``: ``f(x) = sum_i dual_coef_i k(x, X_fit_i) + intercept_``.
    intercept_ : float
    gamma_A_, gamma_I_ : float
        The regularisers used.
    sigma_ : float or None
    n_iter_ : int
        SMO updates.
    converged_ : bool
    result_ : LapSVMResult
    fit_seconds_ : float
    n_features_in_ : int

    Notes
    -----
    Memory and time: dense ``n x n`` Gram and Laplacian matrices and an ``n x n`` linear
    solve (``O(n^3)``), ``n`` the number of training rows: about ``4 x 8 n^2`` bytes
    (12.8 GB at n = 20 000). ``fit`` raises ``MemoryError`` naming n and the bytes before
    allocating them when they exceed the memory available.

    Warns
    -----
    ConvergenceWarning
        SMO stopped at ``max_iter``.
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, kernel="linear", sigma="scale", *, degree=3, coef0=1.0, C1=1.0,
                 C2=0.1, n_neighbors=5, weights="heat", laplacian="unnormalized", tol=1e-3,
                 max_iter=10_000_000, verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.C1 = C1
        self.C2 = C2
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.laplacian = laplacian
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose

    def fit(self, X, y):
        """Fit on ``(X, y)``, ``y`` in {0, 1} for labelled rows and -1 for unlabelled ones.

        Returns
        -------
        self
        """
        from ..solvers.lapsvm import lapsvm

        C1, tol = self._common()
        C2 = check_positive(self.C2, "C2", allow_zero=True)
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        k = check_int(self.n_neighbors, "n_neighbors", minimum=1)
        check_choice(self.weights, "weights", {"heat", "binary"})
        check_choice(self.laplacian, "laplacian", {"unnormalized", "normalized"})
        X, lab, X_l, y_l, X_u = self._split(X, y)
        check_dense_memory(X.shape[0], 4, owner="LapSVM", avoid="Subsample the unlabelled rows.")
        self.kernel_ = self._kernel(X)
        n, l = X.shape[0], X_l.shape[0]
        gamma_A = 1.0 / (2.0 * C1 * l)
        gamma_I = 2.0 * gamma_A * C2 * n**2
        t0 = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            res = lapsvm(X_l, y_l, X_u, gamma_A=gamma_A, gamma_I=gamma_I,
                         kernel=self.kernel_, n_neighbors=min(k, n - 1),
                         weights=self.weights, laplacian=self.laplacian, eps=tol,
                         max_iter=max_iter)
        if any(issubclass(w.category, ConvergenceWarning) for w in caught):
            warnings.warn(
                f"LapSVM did not converge: the SMO solve stopped at max_iter={max_iter} "
                f"updates with remaining KKT violation {res.kkt_violation:.3g} > tol={tol:g}; "
                "increase max_iter or loosen tol.", ConvergenceWarning, stacklevel=2)
        self.result_ = res
        self.gamma_A_, self.gamma_I_ = gamma_A, gamma_I
        if self.verbose:
            print(f"LapSVM: n={n} l={l} SMO updates={res.n_iter} "
                  f"objective={res.objective:.8g}")
        return self._finish(np.vstack([X_l, X_u]), res.alpha, res.bias, res.n_iter,
                            res.converged, t0, X.shape[1], X_u)
