"""MCLS (Chaudhari & Shevade, 2012) and the baselines of its Table 2 / Table 3: estimators only.

Input convention (:class:`~weaklabel.models._base.PUClassifier`): ``fit(X, s)`` with ``s = 1``
for a labelled positive and ``s = 0`` for an unlabelled row; predictions are ``+1`` / ``-1``
and ``score`` reads true labels in ``{-1, +1}``, ``{0, 1}`` or bool.
The kernel estimators (MCLS, ILUISVM, NBBSVM) default to the paper's Gaussian
``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))`` (section 3 of the paper) and accept
``kernel="linear"`` or ``"polynomial"`` (``degree``, ``coef0``) as the USMO estimators do;
``sigma="scale"`` (the default) is ``sqrt(n_features * X.var() / 2)`` at fit, the
experiments pass their selected width explicitly. Section numbers below are the paper's.

Names shared with :mod:`weaklabel.models.usmo` (README, "Estimators: one vocabulary"):
``prior`` (the paper's ``r``), ``kernel``, ``sigma``, ``degree``, ``coef0``, ``max_iter``,
``intercept_``, ``dual_coef_``, ``n_iter_``, ``converged_``. ``C`` here is a cost on the
training errors (larger = less regularised), not the penalty weight ``lam`` of the USMO
estimators.

Estimators
----------
:class:`MCLS`
    ILU initialisation (section 2.1), then Algorithm 1: an LS-SVC (Eq. (2), section 2.2)
    on the current labels, the ratio-enforcing bias step (section 2.3), relabelling, until
    the labels repeat, a cycle is detected or ``max_iter`` is reached. The LS-SVC factor is
    computed once per fit (or passed in) and reused by every iteration
    (:mod:`weaklabel.solvers.lssvm`, :mod:`weaklabel.solvers.mcls`).
:class:`ILUISVM`
    ILU labels, then an iterative hinge-loss SVM that relabels U with its own sign until
    the labels stop changing; the last SVM is kept (the paper's ILU + ISVM, section 3:
    "SVM is trained iteratively and the last classifier obtained after convergence is
    selected").
:class:`NBBSVM`
    Gaussian NB (P vs U-as-negative) labels, then a biased SVM (Liu et al. 2003) with costs
    ``C+ > C-`` selected on a hold-out by ``recall^2 / Pr[f = +1]``.
:class:`PNB`
    Positive naive Bayes (Calvo et al. 2007) on equal-frequency discretised features.
:class:`GaussianNBPU`
    Gaussian NB trained on P (+1) vs all of U (-1) with empirical priors, the "NB"
    initialisation of Table 3.

The label generators :func:`~weaklabel.models._mcls_labels.ilu_labels` and
:func:`~weaklabel.models._mcls_labels.nb_labels` and the kernel SVC used by the baselines are
in :mod:`weaklabel.models._mcls_labels` (not estimators).
"""
from __future__ import annotations

import warnings

import numpy as np
from sklearn.naive_bayes import GaussianNB

from .._validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_positive,
    check_prior,
)
from ..kernels import gram
from ..metrics import lee_liu_criterion
from ..solvers.lssvm import LSSVCFactor
from ..solvers.mcls import mcls_loop
from ._base import (
    KernelParamsMixin,
    PUClassifier,
    check_dense_memory,
)
from ._mcls_labels import KernelSVC, ilu_labels, nb_labels
from ._prior import check_pu_prior, fit_pu_prior

__all__ = ["GaussianNBPU", "ILUISVM", "MCLS", "NBBSVM", "PNB"]


# --------------------------------------------------------------------------- helpers
def _check_prior(est):
    return check_pu_prior(est.prior, type(est).__name__)


_ONE_CLASS_HINT = ("the kernel (Gaussian width sigma) or the cost C probably does not suit "
                   "the data (try sigma='scale' or a grid over sigma and C).")


def _check_K(K, n: int):
    """A precomputed Gram matrix for the ``n`` rows of ``X``: finite, shape ``(n, n)``."""
    if K is None:
        return None
    K = np.asarray(K, dtype=np.float64)
    if K.shape != (n, n):
        raise ValueError(f"K must be the (n, n) Gram matrix of the {n} rows of X, got shape "
                         f"{K.shape}.")
    if not np.all(np.isfinite(K)):
        raise ValueError("K contains NaN or infinite values.")
    return K


def _check_grid(grid, name: str):
    """A non-empty sequence of finite positive numbers."""
    if isinstance(grid, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of positive numbers, got "
                        f"{type(grid).__name__} {grid!r}.")
    try:
        vals = list(grid)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of positive numbers, got "
                        f"{type(grid).__name__}.") from None
    if not vals:
        raise ValueError(f"{name} is empty; give at least one positive value.")
    return [check_positive(v, name) for v in vals]


# --------------------------------------------------------------------------- MCLS
class MCLS(KernelParamsMixin, PUClassifier):
    """Maximum-margin clustering with a least-squares SVC for PU learning (Algorithm 1).

    Parameters
    ----------
    prior : float or "estimate", required
        Class-balance ratio (the paper's ``r``), in (0, 1): the fraction of positives that
        the bias step keeps (over all training rows with ``prior_pool="all"``, over U with
        ``"U"``). No default: ``None`` raises ``ValueError``. ``"estimate"``: that share
        (of all rows or of U, as ``prior_pool`` says) estimated at fit by Elkan & Noto's e1
        (:func:`weaklabel.models._prior.fit_pu_prior`), in ``prior_``.
    kernel : {"gaussian", "linear", "polynomial"}, default="gaussian"
        The kernel; the paper's is the Gaussian (``"rbf"`` and ``"poly"`` are aliases).
    sigma : float or "scale", default="scale"
        Gaussian kernel width (> 0); ``"scale"``: ``sqrt(n_features * X.var() / 2)``.
    degree : int, default=3
        Degree of the polynomial kernel ``(<x, y> + coef0)^degree``.
    coef0 : float, default=1.0
        Offset of the polynomial kernel.
    C : float, default=1.0
        LS-SVC cost of Eq. (2) (diagonal ``1/(2C)``; LS-SVMlab ``gamma = 2C``): a cost on the
        errors, not a penalty weight like the USMO estimators' ``lam``.
    bias_overshoot : float, default=0.05
        The allowed overshoot of the positive fraction in the bias step (section 2.3), so
        that labelled positives end up positive (>= 0; 0 enforces the ratio exactly). Not a
        convergence tolerance.
    prior_pool : {"all", "U"}, default="all"
        Pool on which ``prior`` is enforced: Eq. (1) of the paper states the ratio over U,
        while Table 1's ``r`` is the positive fraction of the whole data set
        (:func:`weaklabel.solvers.mcls.class_balance_bias`).
    init : {"ilu", "nb"}, default="ilu"
        Initial labels of U: ILU (the paper) or the NB labels of Liu et al.
    n_clusters : int, default=10
        Number of k-means clusters in ILU (the paper's k).
    ilu_C : float, default=1.0
        Cost of the C-SVM inside ILU.
    max_iter : int, default=100
        Iteration cap of Algorithm 1.
    random_state : int, Generator or None, default=None
        Seeds k-means in ILU.
    verbose : bool, default=False
        Print the initialisation and the outcome of Algorithm 1 (iterations, stop reason).

    Attributes
    ----------
    prior_ : float
        The class-balance ratio of the fit (``prior``, or its estimate).
    prior_estimate_ : PriorEstimate or None
        The estimate of ``prior="estimate"`` (:func:`weaklabel.prior.estimate_prior`).
    dual_coef_ : ndarray of shape (n_train,)
        Dual coefficients (the paper's alpha); ``f(x) = sum_j dual_coef_j k(x, x_j) +
        intercept_``.
    intercept_ : float
        The class-balance bias ``b_hat`` (step 12 of Algorithm 1).
    sigma_ : float or None
        The Gaussian width used (``None`` for the other kernels).
    X_fit_ : ndarray of shape (n_train, n_features)
        Training rows (the expansion points).
    init_labels_, labels_ : ndarray of shape (n_train,)
        Labels of the training rows after the initialisation and at the end.
    n_iter_ : int
        Iterations of Algorithm 1.
    converged_ : bool
        Whether the labels stopped changing before ``max_iter``.
    stop_reason_ : str
        ``"converged"``, ``"cycle"`` or ``"max_iter"``.
    n_features_in_ : int
        Number of features seen in fit.

    Notes
    -----
    Memory: ``fit`` builds the dense (n x n) Gram matrix of the training rows and
    its LS-SVC factor (about ``2 x 8 n^2`` bytes: 1.6 GB at n = 10 000) unless ``K`` /
    ``factor`` are passed; ``fit`` raises ``MemoryError`` naming n and the bytes before
    allocating them when they exceed the memory available. ``decision_function`` builds a
    (rows x n) kernel block.

    Warns
    -----
    ConvergenceWarning
        Algorithm 1 stopped at ``max_iter`` with labels still changing.
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, prior=None, *, kernel="gaussian", sigma="scale", degree=3, coef0=1.0,
                 C=1.0, bias_overshoot=0.05, prior_pool="all", init="ilu", n_clusters=10,
                 ilu_C=1.0, max_iter=100, random_state=None, verbose=False):
        self.prior = prior
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.C = C
        self.bias_overshoot = bias_overshoot
        self.prior_pool = prior_pool
        self.init = init
        self.n_clusters = n_clusters
        self.ilu_C = ilu_C
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose

    def _validate(self):
        prior = _check_prior(self)
        if not isinstance(self.sigma, str):
            check_positive(self.sigma, "sigma")
        check_positive(self.C, "C")
        check_positive(self.bias_overshoot, "bias_overshoot", allow_zero=True)
        check_choice(self.prior_pool, "prior_pool", {"all", "U"})
        check_choice(self.init, "init", {"ilu", "nb"})
        check_int(self.max_iter, "max_iter", minimum=1)
        check_positive(self.ilu_C, "ilu_C")
        check_int(self.n_clusters, "n_clusters", minimum=1)
        return prior

    def fit(self, X, s, *, K=None, factor=None, init_labels=None):
        """Fit on ``(X, s)``.

        Parameters
        ----------
        X : array-like of shape (n, d)
        s : array-like of shape (n,)
            1 = labelled positive, 0 = unlabelled.
        K : ndarray of shape (n, n), optional
            Precomputed Gram matrix of ``X`` with this kernel.
        factor : LSSVCFactor, optional
            Precomputed factor of ``K + I/(2C)`` for this ``X``, kernel and ``C`` (reuse
            across labelled sets, ``prior`` values and repetitions of the same training set).
        init_labels : ndarray of shape (n,), optional
            Initial labels to use instead of ILU/NB (e.g. computed once and shared).

        Returns
        -------
        self
        """
        prior = self._validate()
        X, s = self._validate_pu(X, s)
        prior = fit_pu_prior(self, prior, X, s,
                             share="all" if self.prior_pool == "all" else "unlabelled")
        K = _check_K(K, X.shape[0])
        kern = self.kernel_ = self._kernel(X)
        n = X.shape[0]
        if factor is not None and getattr(factor, "n", n) != n:
            raise ValueError(f"factor was built for {factor.n} rows but X has {n}.")
        if K is None and (factor is None or (init_labels is None and self.init == "ilu")):
            check_dense_memory(n, 1 if factor is not None else 2, owner="MCLS",
                               avoid="Pass a precomputed K / factor, or subsample X.")
            K = gram(X, X, kern)
        if init_labels is not None:
            y0 = np.where(np.asarray(init_labels, dtype=np.float64) >= 0, 1.0, -1.0)
        elif self.init == "ilu":
            y0 = ilu_labels(X, s, prior, kernel=kern, k=self.n_clusters, svc_C=self.ilu_C,
                            K=K, random_state=self.random_state)
        else:
            y0 = nb_labels(X, s)
        if self.verbose:
            print(f"MCLS: initial labels ({self.init if init_labels is None else 'given'}): "
                  f"{int(np.sum(y0 > 0))} of {n} positive")
        if factor is None:
            factor = LSSVCFactor(K, self.C)
        res = mcls_loop(factor, y0, s, prior, eps=self.bias_overshoot, r_mode=self.prior_pool,
                        max_iter=self.max_iter)
        if self.verbose:
            print(f"MCLS: Algorithm 1 stopped after {res.n_iter} iterations "
                  f"({res.stop_reason})")
        if res.stop_reason == "max_iter":
            warnings.warn(f"MCLS stopped at max_iter={self.max_iter} iterations of Algorithm 1 "
                          f"with {res.n_changes} labels still changing; increase max_iter.",
                          ConvergenceWarning, stacklevel=2)
        self.dual_coef_ = res.alpha
        self.intercept_ = float(res.bias)
        self.X_fit_ = X
        self.init_labels_ = y0
        self.labels_ = res.labels
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.stop_reason_ = res.stop_reason
        self.n_features_in_ = X.shape[1]
        self._warn_if_one_class(res.labels[~s], _ONE_CLASS_HINT)
        return self

    def decision_function(self, X, *, K=None):
        """``f(x) = sum_j dual_coef_j k(x, x_j) + intercept_`` (``K`` = kernel to ``X_fit_``,
        optional)."""
        X = self._check_X(X)
        K = gram(X, self.X_fit_, self.kernel_) if K is None else K
        # row by row (einsum), not BLAS's matrix-vector product, whose rounding of a row may
        # depend on how many rows it is given: a point's value must not change with the
        # batch (scikit-learn's check_methods_subset_invariance failed on an AMD EPYC)
        return np.einsum("ij,j->i", K, self.dual_coef_) + self.intercept_


# --------------------------------------------------------------------------- ILU + ISVM
class ILUISVM(KernelParamsMixin, PUClassifier):
    """ILU initialisation followed by an iterative hinge-loss SVM (ILU + ISVM of Table 2).

    Train an RBF C-SVM on P (+1) and U (current labels), relabel U by its sign, repeat until
    the labels stop changing (or ``max_iter``); the last SVM is the classifier.

    Parameters
    ----------
    prior : float or "estimate", required
        Class-balance ratio (the paper's ``r``, used by ILU only), in (0, 1). No default:
        ``None`` raises ``ValueError``.
        ``"estimate"``: the positive share of all training rows estimated at fit by
        Elkan & Noto's e1 (:func:`weaklabel.models._prior.fit_pu_prior`), in ``prior_``.
    kernel : {"gaussian", "linear", "polynomial"}, default="gaussian"
        The kernel; the paper's is the Gaussian (``"rbf"`` and ``"poly"`` are aliases).
    sigma : float or "scale", default="scale"
        RBF width; ``"scale"``: ``sqrt(n_features * X.var() / 2)`` at fit.
    degree : int, default=3
        Degree of the polynomial kernel ``(<x, y> + coef0)^degree``.
    coef0 : float, default=1.0
        Offset of the polynomial kernel.
    C : float, default=1.0
        Cost of the C-SVM (a cost on the errors, as scikit-learn's ``SVC``).
    n_clusters : int, default=10
        ILU's k-means clusters (the paper's k).
    ilu_C : float, default=1.0
        Cost of the C-SVM inside ILU.
    max_iter : int, default=20
        Cap on the SVM / relabel iterations.
    random_state : int, Generator or None, default=None
        Seeds k-means in ILU.
    verbose : bool, default=False
        Print one line per iteration (labels of U that changed).

    Attributes
    ----------
    svm_ : KernelSVC
        The last SVM (the classifier).
    prior_ : float
        The class-balance ratio of the fit (``prior``, or its estimate).
    prior_estimate_ : PriorEstimate or None
        The estimate of ``prior="estimate"`` (:func:`weaklabel.prior.estimate_prior`).
    dual_coef_ : ndarray of shape (n_SV,)
        Its dual coefficients ``y_i a_i`` over the support vectors ``support_vectors_``.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    intercept_ : float
        Its intercept; ``f(x) = sum_i dual_coef_i k(x, sv_i) + intercept_``.
    sigma_ : float or None
        The Gaussian width used (``None`` for the other kernels).
    init_labels_, labels_ : ndarray of shape (n_train,)
        ILU labels and the labels of the last iteration.
    n_iter_ : int
    converged_ : bool
        Whether the labels stopped changing before ``max_iter``.
    n_features_in_ : int

    Notes
    -----
    Memory: ``fit`` builds the dense (n x n) Gram matrix of the training rows
    (``8 n^2`` bytes: 3.2 GB at n = 20 000) unless ``K`` is passed; it raises
    ``MemoryError`` naming n and the bytes before allocating it when that exceeds the
    memory available.

    Warns
    -----
    ConvergenceWarning
        The labels still changed at ``max_iter``.
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, prior=None, *, kernel="gaussian", sigma="scale", degree=3, coef0=1.0,
                 C=1.0, n_clusters=10, ilu_C=1.0, max_iter=20, random_state=None,
                 verbose=False):
        self.prior = prior
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.C = C
        self.n_clusters = n_clusters
        self.ilu_C = ilu_C
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, s, *, K=None, init_labels=None):
        """Fit on ``(X, s)``; ``K`` optional precomputed Gram matrix. Returns ``self``."""
        prior = _check_prior(self)
        check_positive(self.C, "C")
        check_positive(self.ilu_C, "ilu_C")
        check_int(self.max_iter, "max_iter", minimum=1)
        check_int(self.n_clusters, "n_clusters", minimum=1)
        X, s = self._validate_pu(X, s)
        prior = fit_pu_prior(self, prior, X, s, share="all")
        K = _check_K(K, X.shape[0])
        kern = self.kernel_ = self._kernel(X)
        if K is None:
            check_dense_memory(X.shape[0], 1, owner=type(self).__name__,
                               avoid="Pass a precomputed K, or subsample X.")
            K = gram(X, X, kern)
        y = (ilu_labels(X, s, prior, kernel=kern, k=self.n_clusters, svc_C=self.ilu_C, K=K,
                        random_state=self.random_state)
             if init_labels is None else np.where(np.asarray(init_labels) >= 0, 1.0, -1.0))
        self.init_labels_ = y.copy()
        self.converged_ = False
        n_iter = 0
        for it in range(1, self.max_iter + 1):
            n_iter = it
            svm = KernelSVC(kern, self.C).fit(X, y, K=K)
            y_new = np.where(svm.f_train_ >= 0, 1.0, -1.0)
            y_new[s] = 1.0
            n_changed = int(np.sum(y_new != y))
            if self.verbose:
                print(f"ILUISVM: iteration {it}: {n_changed} labels changed")
            if n_changed == 0:
                self.converged_ = True
                break
            y = y_new
        if not self.converged_:
            warnings.warn(f"ILUISVM stopped at max_iter={self.max_iter} SVM / relabel "
                          f"iterations with {n_changed} labels of U still changing in the last "
                          "one; increase max_iter.", ConvergenceWarning,
                          stacklevel=2)
        self.svm_ = svm
        self.dual_coef_, self.intercept_ = svm.coef_, float(svm.intercept_)
        self.support_vectors_ = svm.X_sv_
        self.labels_ = y
        self.n_iter_ = n_iter
        self.n_features_in_ = X.shape[1]
        self._warn_if_one_class(svm.f_train_[~s], _ONE_CLASS_HINT)
        return self

    def decision_function(self, X):
        """Decision values of the last SVM."""
        X = self._check_X(X)
        return self.svm_.decision_function(X)


# --------------------------------------------------------------------------- NB + BSVM
class NBBSVM(KernelParamsMixin, PUClassifier):
    """Biased SVM (Liu et al. 2003) on NB-initialised labels (NB + BSVM of Table 2).

    NB labels split the training rows into a positive set (P and the U rows NB calls
    positive) and a negative set. An RBF SVM with costs ``C_plus`` on positive errors and
    ``C_plus * ratio`` on negative errors is selected on a stratified hold-out
    (``val_fraction`` of the rows) by ``recall_P^2 / Pr[f = +1]`` (recall on held-out
    labelled positives, ``Pr`` over all held-out rows:
    :func:`weaklabel.metrics.lee_liu_criterion`), then refitted on all rows. Needs no class
    prior.

    Parameters
    ----------
    kernel : {"gaussian", "linear", "polynomial"}, default="gaussian"
        The kernel; the paper's is the Gaussian (``"rbf"`` and ``"poly"`` are aliases).
    sigma : float or "scale", default="scale"
        RBF width; ``"scale"``: ``sqrt(n_features * X.var() / 2)`` at fit.
    degree : int, default=3
        Degree of the polynomial kernel ``(<x, y> + coef0)^degree``.
    coef0 : float, default=1.0
        Offset of the polynomial kernel.
    C_plus_grid : sequence of float, default=(1.0, 10.0)
        Costs ``C+`` of the errors on positives (as scikit-learn's ``SVC`` cost).
    ratio_grid : sequence of float, default=(0.05, 0.2, 1.0)
        ``C_minus / C_plus`` values (<= 1: positive errors weigh more).
    val_fraction : float, default=0.3
        Share of the rows held out for the selection, strictly between 0 and 1.
    random_state : int, Generator or None, default=None
        Seeds the hold-out.
    verbose : bool, default=False
        Print the hold-out criterion of every ``(C+, ratio)`` pair.

    Attributes
    ----------
    svm_ : KernelSVC
        The biased SVM refitted on all rows.
    dual_coef_ : ndarray of shape (n_SV,)
        Its dual coefficients over ``support_vectors_``.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    intercept_ : float
    class_weight_ : dict
        The selected ``{1: C+, -1: C-}``.
    criterion_ : float
        The selected hold-out criterion ``recall^2 / Pr[f = +1]``.
    sigma_ : float or None
        The Gaussian width used (``None`` for the other kernels).
    init_labels_ : ndarray of shape (n_train,)
        The NB labels.
    n_features_in_ : int

    Notes
    -----
    Memory: ``fit`` builds the dense (n x n) Gram matrix of the training rows
    (``8 n^2`` bytes: 3.2 GB at n = 20 000) unless ``K`` is passed; it raises
    ``MemoryError`` naming n and the bytes before allocating it when that exceeds the
    memory available.

    Warns
    -----
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, *, kernel="gaussian", sigma="scale", degree=3, coef0=1.0,
                 C_plus_grid=(1.0, 10.0), ratio_grid=(0.05, 0.2, 1.0), val_fraction=0.3,
                 random_state=None, verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.C_plus_grid = C_plus_grid
        self.ratio_grid = ratio_grid
        self.val_fraction = val_fraction
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, s, *, K=None, init_labels=None):
        """Fit on ``(X, s)``; ``K`` optional precomputed Gram matrix. Returns ``self``."""
        _check_grid(self.C_plus_grid, "C_plus_grid")
        _check_grid(self.ratio_grid, "ratio_grid")
        val_fraction = check_prior(self.val_fraction, "val_fraction")
        X, s = self._validate_pu(X, s)
        K = _check_K(K, X.shape[0])
        kern = self.kernel_ = self._kernel(X)
        n = X.shape[0]
        if K is None:
            check_dense_memory(n, 1, owner=type(self).__name__,
                               avoid="Pass a precomputed K, or subsample X.")
            K = gram(X, X, kern)
        y = nb_labels(X, s) if init_labels is None else np.where(
            np.asarray(init_labels) >= 0, 1.0, -1.0)
        self.init_labels_ = y.copy()
        rng = np.random.default_rng(self.random_state)
        # hold-out stratified on s so that it contains labelled positives
        val = np.zeros(n, dtype=bool)
        for grp in (np.flatnonzero(s), np.flatnonzero(~s)):
            m = int(np.floor(val_fraction * grp.size + 0.5))
            val[rng.choice(grp, size=m, replace=False)] = True
        tr = np.flatnonzero(~val)
        va = np.flatnonzero(val)
        best, best_crit = None, -np.inf
        if np.any(s[va]) and np.unique(y[tr]).size == 2:
            for cp_ in self.C_plus_grid:
                for ratio in self.ratio_grid:
                    cw = {1: float(cp_), -1: float(cp_) * float(ratio)}
                    svm = KernelSVC(kern, 1.0, class_weight=cw).fit(
                        X[tr], y[tr], K=K[np.ix_(tr, tr)])
                    f = svm.decision_function(X[va])
                    crit = lee_liu_criterion(s[va], f >= 0)
                    if self.verbose:
                        print(f"NBBSVM: C+ = {cp_:g}, C-/C+ = {ratio:g}: recall^2/Pr[f=+1] = "
                              f"{crit:.4g}")
                    if crit > best_crit + 1e-12:
                        best, best_crit = cw, crit
        if best is None:
            best = {1: float(self.C_plus_grid[0]), -1: float(self.C_plus_grid[0]) *
                    float(self.ratio_grid[0])}
        self.class_weight_ = best
        self.criterion_ = float(best_crit)
        self.svm_ = KernelSVC(kern, 1.0, class_weight=best).fit(X, y, K=K)
        self.dual_coef_, self.intercept_ = self.svm_.coef_, float(self.svm_.intercept_)
        self.support_vectors_ = self.svm_.X_sv_
        self.n_features_in_ = X.shape[1]
        self._warn_if_one_class(self.svm_.f_train_[~s], _ONE_CLASS_HINT)
        return self

    def decision_function(self, X):
        """Decision values of the biased SVM."""
        X = self._check_X(X)
        return self.svm_.decision_function(X)


# --------------------------------------------------------------------------- NB family
class GaussianNBPU(PUClassifier):
    """Gaussian NB on P (+1) vs U treated as negative (-1), empirical priors (Table 3's NB).

    No parameters: the class prior of the NB is the empirical share of labelled positives
    (this is the biased "U as negative" baseline, not a prior-corrected classifier).

    Attributes
    ----------
    nb_ : sklearn.naive_bayes.GaussianNB
        The fitted NB.
    n_features_in_ : int

    Warns
    -----
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def fit(self, X, s):
        """Fit on ``(X, s)``. Returns ``self``."""
        X, s = self._validate_pu(X, s)
        self.nb_ = GaussianNB().fit(X, np.where(s, 1, -1))
        self.n_features_in_ = X.shape[1]
        self._warn_if_one_class(self.decision_function(X[~s]), "Gaussian NB with U as negative "
                                "predicts the majority of U; a PU method with a class prior "
                                "may suit the data better.")
        return self

    def decision_function(self, X):
        """Log posterior odds ``log P(+|x) - log P(-|x)``."""
        X = self._check_X(X)
        lp = self.nb_.predict_joint_log_proba(X)
        return lp[:, 1] - lp[:, 0]


class PNB(PUClassifier):
    """Positive naive Bayes (Calvo, Larranaga & Lozano 2007) on discretised features.

    Every feature is cut into ``n_bins`` equal-frequency bins (edges from the training
    rows). ``P(x_j = v | +)`` is the Laplace-smoothed frequency among labelled positives;
    ``P(x_j = v | -)`` follows from ``P(v) = p P(v|+) + (1 - p) P(v|-)`` with ``P(v)`` from U::

        P(v | -) = (1 + max(0, U_v - P(v|+) p |U|)) / (n_vals + (1 - p) |U|),  renormalised,

    with ``p = r_U`` the positive share of U implied by ``r = prior``
    (``(r n - L) / (n - L)``). Test rows are classified with the prior ``P(+) = prior``.

    Parameters
    ----------
    prior : float or "estimate", required
        Class-balance ratio of the whole training set (the paper's ``r``), in (0, 1). No
        default: ``None`` raises ``ValueError``.
        ``"estimate"``: the positive share of all training rows estimated at fit by
        Elkan & Noto's e1 (:func:`weaklabel.models._prior.fit_pu_prior`), in ``prior_``.
    n_bins : int, default=10
        Equal-frequency bins per feature.

    Attributes
    ----------
    edges_ : list of ndarray
        Bin edges of every feature.
    log_pos_, log_neg_ : list of ndarray
        ``log P(bin | +)`` and ``log P(bin | -)`` per feature.
    prior_ : float
        The prior used.
    prior_estimate_ : PriorEstimate or None
        The estimate of ``prior="estimate"`` (:func:`weaklabel.prior.estimate_prior`).
    p_u_ : float
        The positive share of U implied by ``prior`` (clipped to [0.01, 0.99]).
    n_features_in_ : int

    Warns
    -----
    OneClassPredictionWarning
        Every unlabelled training point gets the same predicted class.
    """

    def __init__(self, prior=None, *, n_bins=10):
        self.prior = prior
        self.n_bins = n_bins

    def fit(self, X, s):
        """Fit on ``(X, s)``. Returns ``self``."""
        r = _check_prior(self)
        nb = check_int(self.n_bins, "n_bins", minimum=2)
        X, s = self._validate_pu(X, s)
        r = fit_pu_prior(self, r, X, s, share="all")
        n, d = X.shape
        L = int(s.sum())
        U = n - L
        p = float(np.clip((r * n - L) / max(U, 1), 0.01, 0.99))
        qs = np.linspace(0, 1, nb + 1)[1:-1]
        self.edges_ = [np.unique(np.quantile(X[:, j], qs)) for j in range(d)]
        codes = self._codes(X)
        self.log_pos_, self.log_neg_ = [], []
        for j in range(d):
            m = self.edges_[j].size + 1
            cp_ = np.bincount(codes[s, j], minlength=m).astype(float)
            cu = np.bincount(codes[~s, j], minlength=m).astype(float)
            pp = (cp_ + 1.0) / (L + m)
            pn = (1.0 + np.maximum(0.0, cu - pp * p * U)) / (m + (1.0 - p) * U)
            pn = pn / pn.sum()
            self.log_pos_.append(np.log(pp))
            self.log_neg_.append(np.log(pn))
        self.prior_ = r
        self.p_u_ = p
        self.n_features_in_ = d
        self._warn_if_one_class(self.decision_function(X[~s]), "check prior and n_bins.")
        return self

    def _codes(self, X):
        return np.stack([np.searchsorted(e, X[:, j], side="right")
                         for j, e in enumerate(self.edges_)], axis=1)

    def decision_function(self, X):
        """Log posterior odds with prior ``P(+) = prior_``."""
        X = self._check_X(X)
        codes = self._codes(X)
        f = np.full(X.shape[0], np.log(self.prior_) - np.log1p(-self.prior_))
        for j in range(X.shape[1]):
            f += self.log_pos_[j][codes[:, j]] - self.log_neg_[j][codes[:, j]]
        return f
