"""WellSVM for semi-supervised learning (Li, Tsang, Kwok & Zhou, JMLR 2013): the estimator.

Input convention (:class:`~weaklabel.models._base.SemiSupervisedClassifier`): ``fit(X, y)``
with ``y`` in ``{0, 1}`` for labelled rows and ``-1`` for unlabelled ones; predictions are
``0`` / ``1``. The solver is :func:`weaklabel.solvers.wellsvm.wellsvm` (Algorithm 2 of the
paper; the two variants are described there).

Names shared with the other estimators (README, "Estimators: one vocabulary"): ``kernel``,
``sigma`` (default ``"scale"``), ``degree``, ``coef0``, ``max_iter``, ``tol``, ``verbose``,
``random_state``; fitted ``dual_coef_``, ``intercept_`` (always 0.0: the model has no bias),
``n_iter_``, ``converged_``. ``C1`` and ``C2`` are the paper's costs of the labelled and of
the unlabelled points (costs on the errors, larger is less regularised).
"""

from __future__ import annotations

import warnings

import numpy as np

from .._validation import ConvergenceWarning, check_choice, check_int, check_positive
from ..kernels import check_cache_mb, gram, make_kernel
from ..solvers.wellsvm import gamma_width, wellsvm
from ._base import (
    UNLABELLED,
    KernelParamsMixin,
    SemiSupervisedClassifier,
    check_dense_memory,
    check_kernel_scale,
)

_ONE_CLASS_HINT = ("the costs C1 / C2 or the kernel width sigma probably do not suit the "
                   "data (try a grid over C2 and sigma_ratio scored by cross-validation on "
                   "the labels).")

#: tolerance of the inner SVM solves of :func:`weaklabel.solvers.wellsvm.wellsvm` (not a
#: parameter of the estimator; used by the scale check of ``fit``)
_INNER_TOL = 1e-5


def reissue_wellsvm_warnings(caught, owner: str, max_iter, *, stacklevel: int = 3) -> bool:
    """Re-emit the warnings of the WellSVM solvers in the estimator's own words.

    The solvers name their own arguments (``max_outer``, ``eps``, ``mkl_max_iter``,
    ``inner_eps``, and the inner SVM solver's ``max_iter`` / ``eps``); the estimators have
    ``max_iter`` and ``tol``. Returns True when the fit did not converge (an outer or an
    inner cap was reached, or a Prop. 4/6 check failed). ``stacklevel`` is that of the
    user's line as seen from this function (3 when called directly by ``fit``).
    """
    failed = False
    cap = "the default cap" if max_iter is None else f"max_iter={max_iter}"
    for w in caught:
        msg = str(w.message)
        if issubclass(w.category, ConvergenceWarning):
            failed = True
            if "MLKL" in msg or "mkl_max_iter" in msg:
                text = (f"{owner} did not converge: a multiple-label-kernel (MLKL) solve "
                        "stopped at its iteration cap before its duality gap closed "
                        "(converged_=False); standardise X, or loosen tol.")
            elif msg.startswith(("label_kernel_dual ", "smo ")):
                # an inner SVM solve (its tolerance is fixed, not the estimator's tol)
                text = (f"{owner} did not converge: an inner SVM solve stopped at its "
                        "iteration cap before reaching its tolerance (converged_=False); "
                        "standardise X.")
            else:
                text = (f"{owner} did not converge: the label-generation loop stopped at "
                        f"{cap} outer iterations with a label still violated "
                        "(converged_=False); increase max_iter or loosen tol.")
            warnings.warn(text, ConvergenceWarning, stacklevel=stacklevel)
        elif issubclass(w.category, RuntimeWarning) and "check(s) failed" in msg:
            failed = True
            warnings.warn(
                f"{owner}: {msg.split(':', 1)[1].split(';')[0].strip()}; the inner solutions "
                "may be inaccurate (converged_=False); standardise X.",
                ConvergenceWarning, stacklevel=stacklevel)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return failed

__all__ = ["WellSVM"]

_BLOCK = 2048  # rows of X per block in decision_function


class WellSVM(KernelParamsMixin, SemiSupervisedClassifier):
    """WellSVM (Li et al. 2013): the convex minimax relaxation of the S3VM, solved by label
    generation (Algorithm 2), for semi-supervised binary classification.

    Parameters
    ----------
    kernel : {"linear", "gaussian", "polynomial"}, default="gaussian"
        ``"rbf"`` and ``"poly"`` are accepted as aliases.
    sigma : float, "scale" or "gamma", default="scale"
        Gaussian width, ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))``. ``"scale"``:
        ``sqrt(n_features * X.var() / 2)`` (scikit-learn's ``gamma="scale"``); ``"gamma"``:
        the paper's rule (Section 5.1.1), ``sigma_ratio * sqrt(gamma)`` with ``gamma`` the
        mean squared distance over all pairs of training rows, labelled and unlabelled
        (:func:`weaklabel.solvers.wellsvm.gamma_width`). Both are computed at fit on all
        rows of ``X`` and stored in ``sigma_``.
    C1 : float, default=1.0
        Cost of the labelled points (the paper fixes ``C1 = 1``).
    C2 : float, default=0.1
        Cost of the unlabelled points (the paper's grid is 0.001 ... 1; 0.1 is the
        default of the authors' code).
    sigma_ratio : float, default=1.0
        The ratio of ``sigma="gamma"`` (the paper's grid: 0.25, 0.5, 1, 2, 4).
    degree : int, default=3
        Polynomial degree.
    coef0 : float, default=1.0
        Polynomial offset, ``(<x, y> + coef0)^degree``.
    variant : {"paper", "reference"}, default="paper"
        ``"paper"``: hinge-loss dual without offset and full MKLGL (the paper's equations);
        ``"reference"``: the mu-SVM dual and the post-steps of the authors' code (see
        :func:`weaklabel.solvers.wellsvm.wellsvm`).
    max_iter : int or None, default=None
        Cap on the label-generation (outer) iterations; ``None``: 50 (``"paper"``) or 20
        (``"reference"``, as the authors' code).
    tol : float, default=1e-3
        Relative tolerance of the paper variant: a label is violated when it raises
        ``y'Hy`` by more than ``tol`` (relative), and the loop stops when the objective
        decreases by less than ``tol`` (relative). The reference variant keeps its fixed
        0.1 % thresholds.
    verbose : bool, default=False
        Print one line per outer iteration.
    random_state : int, Generator or None, default=None
        Seeds the random initial labellings of the reference variant (the paper variant is
        deterministic).
    cache_mb : float, "auto" or None, default=None
        Kernel-row cache of the solver in MB, shared by the inner SVM solves and the full
        ``K v`` scans of the label steps; ``None``: all of ``K`` when it needs at most
        1024 MB, else 1024 MB (:func:`weaklabel.kernels.cache_budget`). Changes the time,
        never the solution.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_train,)
        ``alpha_i sum_t mu_t y_ti`` over the training rows: ``f(x) = sum_i dual_coef_i
        k(x, x_i)`` (Li et al. 2013, Section 4.1.2).
    intercept_ : float
        0.0 (the formulation has no bias).
    alpha_ : ndarray of shape (n_train,)
        The dual solution.
    mu_ : ndarray of shape (n_labels,)
        Weights of the label vectors (the reference variant's final model has one).
    label_sets_ : ndarray of shape (n_labels, n_train)
        The label vectors (+1 / -1, rows) of the final model; for the paper variant the
        working set of Algorithm 2, in the order of generation.
    transduction_ : ndarray of shape (n_train,)
        Labels (0 / 1) of the training rows: the given ones on labelled rows, ``predict``
        on the unlabelled ones.
    objective_path_ : list of float
        The MLKL objective after each outer iteration (Fig. 2 of the paper).
    n_iter_ : int
        Outer iterations run: MLKL solves of Algorithm 2, the first one (on the initial
        label) included, so at least 1.
    converged_ : bool
        Whether the outer loop stopped by its tests before ``max_iter`` with every inner
        (MLKL) solve converged and every Prop. 4 check holding.
    sigma_ : float or None
        The Gaussian width used (``None`` for the other kernels).
    X_fit_ : ndarray of shape (n_train, n_features)
        Training rows (the expansion points).
    result_ : WellSVMResult
        The solver's full result (timings, Prop. 4 checks, ...).
    n_features_in_ : int

    Notes
    -----
    Memory: the temporary inner solver builds the dense (n x n) Gram matrix (``8 n^2``
    bytes: 3.2 GB at n = 20 000); ``fit`` raises ``MemoryError`` naming n and the bytes
    before allocating it when it exceeds the memory available. ``decision_function`` builds
    (block x n_support) kernel blocks.

    ``X`` with a linear or polynomial kernel whose values make the inner solver's
    tolerance unreachable (e.g. a feature on a 1e6 scale) is refused with a
    ``ValueError``: standardise it.

    Warns
    -----
    ConvergenceWarning
        The outer loop stopped at ``max_iter`` (paper variant), or an MKL solve stopped at
        its iteration cap.
    """

    def __init__(self, kernel="gaussian", sigma="scale", C1=1.0, C2=0.1, *, sigma_ratio=1.0,
                 degree=3, coef0=1.0, variant="paper", max_iter=None, tol=1e-3,
                 verbose=False, random_state=None, cache_mb=None):
        self.kernel = kernel
        self.sigma = sigma
        self.C1 = C1
        self.C2 = C2
        self.sigma_ratio = sigma_ratio
        self.degree = degree
        self.coef0 = coef0
        self.variant = variant
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.random_state = random_state
        self.cache_mb = cache_mb

    def _resolve_sigma(self, *parts) -> float:
        if isinstance(self.sigma, str) and self.sigma == "gamma":
            return gamma_width(np.vstack(parts), check_positive(self.sigma_ratio,
                                                                "sigma_ratio"))
        if isinstance(self.sigma, str) and self.sigma != "scale":
            raise ValueError(f"sigma must be a positive number, 'scale' or 'gamma', got "
                             f"{self.sigma!r}.")
        return super()._resolve_sigma(*parts)

    def _validate_params(self):
        C1 = check_positive(self.C1, "C1")
        C2 = check_positive(self.C2, "C2")
        check_positive(self.sigma_ratio, "sigma_ratio")
        check_choice(self.variant, "variant", {"paper", "reference"})
        check_choice(self.kernel, "kernel", {"linear", "gaussian", "rbf", "polynomial",
                                             "poly"})
        max_iter = None if self.max_iter is None else check_int(self.max_iter, "max_iter",
                                                                minimum=1)
        tol = check_positive(self.tol, "tol", allow_zero=True)
        check_cache_mb(self.cache_mb)
        return C1, C2, max_iter, tol

    def fit(self, X, y):
        """Fit on ``(X, y)``; ``y`` holds 0 / 1 for labelled rows and -1 for unlabelled ones.

        Returns
        -------
        self
        """
        C1, C2, max_iter, tol = self._validate_params()
        X, y = self._validate_semisupervised(X, y)
        k = self._kernel(X)
        n, l = X.shape[0], int(np.sum(y != UNLABELLED))
        check_dense_memory(n, 1, owner="WellSVM")
        check_kernel_scale(X, k, C1 * l + C2 * (n - l), _INNER_TOL, owner="WellSVM",
                           tol_name="its tolerance ")
        ys = np.where(y == UNLABELLED, 0.0, np.where(y == 1, 1.0, -1.0))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = wellsvm(X, ys, C1, C2, k, variant=self.variant, eps=tol, thr=tol,
                          max_outer=max_iter, random_state=self.random_state,
                          verbose=bool(self.verbose), cache_mb=self.cache_mb)
        failed = reissue_wellsvm_warnings(caught, "WellSVM", max_iter)
        coef = res.coef
        self.result_ = res
        self.alpha_ = res.alpha
        self.mu_ = res.mu
        self.label_sets_ = res.labels
        self.dual_coef_ = coef
        self.intercept_ = 0.0
        self.objective_path_ = list(res.objective_path)
        self.n_iter_ = max(1, len(res.objective_path))
        self.converged_ = bool(res.converged) and not failed
        self.X_fit_ = X
        self._support = np.flatnonzero(coef != 0)
        self._kernel_obj = k
        self.n_features_in_ = X.shape[1]
        f = self.decision_function(X)
        self.transduction_ = np.where(y == UNLABELLED, (f >= 0).astype(np.int64), y)
        if np.any(y == UNLABELLED):
            self._warn_if_one_class(f[y == UNLABELLED], _ONE_CLASS_HINT)
        return self

    def decision_function(self, X):
        """``f(x) = sum_i dual_coef_i k(x, x_i)`` (no bias)."""
        X = self._check_X(X)
        sv = self._support
        if sv.size == 0:
            return np.zeros(X.shape[0])
        k = make_kernel(self._kernel_obj)
        Xs = self.X_fit_[sv]
        c = self.dual_coef_[sv]
        out = np.empty(X.shape[0])
        for s in range(0, X.shape[0], _BLOCK):
            out[s:s + _BLOCK] = gram(X[s:s + _BLOCK], Xs, k) @ c
        return out
