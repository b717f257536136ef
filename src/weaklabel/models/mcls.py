"""MCLS (Chaudhari & Shevade, 2012) and the baselines of its Table 2 / Table 3: estimators only.

Input convention (:class:`~weaklabel.models._base.PUClassifier`): ``fit(X, s)`` with ``s = 1``
for a labelled positive and ``s = 0`` for an unlabelled row; predictions are ``+1`` / ``-1``
and ``score`` reads true labels in ``{-1, +1}`` or ``{0, 1}``.
Every kernel is the Gaussian ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))`` (section 3 of the
paper). Section numbers below are the paper's.

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
from ..solvers.lssvm import LSSVCFactor
from ..solvers.mcls import mcls_loop
from ._base import PUClassifier
from ._mcls_labels import KernelSVC, ilu_labels, nb_labels

__all__ = ["GaussianNBPU", "ILUISVM", "MCLS", "NBBSVM", "PNB"]


# --------------------------------------------------------------------------- helpers
def _check_r(r):
    return check_prior(r, "r")


def _gauss(A, B, sigma):
    return gram(A, B, "gaussian", sigma=sigma)


# --------------------------------------------------------------------------- MCLS
class MCLS(PUClassifier):
    """Maximum-margin clustering with a least-squares SVC for PU learning (Algorithm 1).

    Parameters
    ----------
    r : float
        Class-balance ratio, in (0, 1): the fraction of positives that the bias step keeps
        (over all training rows with ``r_mode="all"``, over U with ``"U"``).
    sigma : float
        Gaussian kernel width (> 0).
    C : float
        LS-SVC cost of Eq. (2) (diagonal ``1/(2C)``; LS-SVMlab ``gamma = 2C``).
    tol : float
        Tolerance of the bias step: the allowed overshoot of the positive fraction so that
        labelled positives end up positive (>= 0; 0 enforces the ratio exactly).
    r_mode : {"all", "U"}
        Pool on which ``r`` is enforced: Eq. (1) of the paper states the ratio over U, while
        Table 1's ``r`` is the positive fraction of the whole data set
        (:func:`weaklabel.solvers.mcls.class_balance_bias`).
    init : {"ilu", "nb"}
        Initial labels of U: ILU (the paper) or the NB labels of Liu et al.
    k : int
        Number of k-means clusters in ILU.
    ilu_C : float
        Cost of the C-SVM inside ILU.
    max_iter : int
        Iteration cap of Algorithm 1.
    random_state : int, Generator or None
        Seeds k-means in ILU.

    Attributes
    ----------
    alpha_ : ndarray of shape (n_train,)
        Dual coefficients; ``f(x) = sum_j alpha_j k(x, x_j) + bias_``.
    bias_ : float
        The class-balance bias ``b_hat`` (step 12 of Algorithm 1).
    X_fit_ : ndarray
        Training rows (the expansion points).
    init_labels_, labels_ : ndarray
        Labels of the training rows after the initialisation and at the end.
    n_iter_ : int
    converged_ : bool
    stop_reason_ : str
        ``"converged"``, ``"cycle"`` or ``"max_iter"``.
    """

    def __init__(self, r=0.5, *, sigma=1.0, C=1.0, tol=0.05, r_mode="all", init="ilu", k=10,
                 ilu_C=1.0, max_iter=100, random_state=None):
        self.r = r
        self.sigma = sigma
        self.C = C
        self.tol = tol
        self.r_mode = r_mode
        self.init = init
        self.k = k
        self.ilu_C = ilu_C
        self.max_iter = max_iter
        self.random_state = random_state

    def _validate(self):
        _check_r(self.r)
        check_positive(self.sigma, "sigma")
        check_positive(self.C, "C")
        check_positive(self.tol, "tol", allow_zero=True)
        check_choice(self.r_mode, "r_mode", {"all", "U"})
        check_choice(self.init, "init", {"ilu", "nb"})
        check_int(self.max_iter, "max_iter", minimum=1)

    def fit(self, X, s, *, K=None, factor=None, init_labels=None):
        """Fit on ``(X, s)``.

        Parameters
        ----------
        X : array-like of shape (n, d)
        s : array-like of shape (n,)
            1 = labelled positive, 0 = unlabelled.
        K : ndarray of shape (n, n), optional
            Precomputed Gaussian Gram matrix of ``X`` with this ``sigma``.
        factor : LSSVCFactor, optional
            Precomputed factor of ``K + I/(2C)`` for this ``X``, ``sigma`` and ``C`` (reuse
            across labelled sets, ``r`` values and repetitions of the same training set).
        init_labels : ndarray of shape (n,), optional
            Initial labels to use instead of ILU/NB (e.g. computed once and shared).

        Returns
        -------
        self
        """
        self._validate()
        X, s = self._validate_pu(X, s)
        n = X.shape[0]
        if factor is not None and getattr(factor, "n", n) != n:
            raise ValueError(f"factor was built for {factor.n} rows but X has {n}.")
        if K is None and (factor is None or (init_labels is None and self.init == "ilu")):
            K = _gauss(X, X, self.sigma)
        if init_labels is not None:
            y0 = np.where(np.asarray(init_labels, dtype=np.float64) >= 0, 1.0, -1.0)
        elif self.init == "ilu":
            y0 = ilu_labels(X, s, self.r, sigma=self.sigma, k=self.k, svc_C=self.ilu_C, K=K,
                            random_state=self.random_state)
        else:
            y0 = nb_labels(X, s)
        if factor is None:
            factor = LSSVCFactor(K, self.C)
        res = mcls_loop(factor, y0, s, self.r, eps=self.tol, r_mode=self.r_mode,
                        max_iter=self.max_iter)
        if res.stop_reason == "max_iter":
            warnings.warn(f"MCLS stopped at max_iter={self.max_iter} with {res.n_changes} "
                          "labels still changing; increase max_iter.", ConvergenceWarning,
                          stacklevel=2)
        self.alpha_ = res.alpha
        self.bias_ = float(res.bias)
        self.X_fit_ = X
        self.init_labels_ = y0
        self.labels_ = res.labels
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.stop_reason_ = res.stop_reason
        self.n_features_in_ = X.shape[1]
        return self

    def decision_function(self, X, *, K=None):
        """``f(x) = sum_j alpha_j k(x, x_j) + b_hat`` (``K`` = kernel to ``X_fit_``, optional)."""
        X = self._check_X(X)
        K = _gauss(X, self.X_fit_, self.sigma) if K is None else K
        return K @ self.alpha_ + self.bias_


# --------------------------------------------------------------------------- ILU + ISVM
class ILUISVM(PUClassifier):
    """ILU initialisation followed by an iterative hinge-loss SVM (ILU + ISVM of Table 2).

    Train an RBF C-SVM on P (+1) and U (current labels), relabel U by its sign, repeat until
    the labels stop changing (or ``max_iter``); the last SVM is the classifier.

    Parameters
    ----------
    r : float
        Class-balance ratio (used by ILU only), in (0, 1).
    sigma, C : float
        RBF width and SVM cost.
    k, ilu_C : int, float
        ILU's k-means clusters and SVM cost.
    max_iter : int
    random_state : int, Generator or None
    """

    def __init__(self, r=0.5, *, sigma=1.0, C=1.0, k=10, ilu_C=1.0, max_iter=20,
                 random_state=None):
        self.r = r
        self.sigma = sigma
        self.C = C
        self.k = k
        self.ilu_C = ilu_C
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, s, *, K=None, init_labels=None):
        """Fit on ``(X, s)``; ``K`` optional precomputed Gram matrix. Returns ``self``."""
        _check_r(self.r)
        check_positive(self.sigma, "sigma")
        check_positive(self.C, "C")
        check_int(self.max_iter, "max_iter", minimum=1)
        X, s = self._validate_pu(X, s)
        K = _gauss(X, X, self.sigma) if K is None else K
        y = (ilu_labels(X, s, self.r, sigma=self.sigma, k=self.k, svc_C=self.ilu_C, K=K,
                        random_state=self.random_state)
             if init_labels is None else np.where(np.asarray(init_labels) >= 0, 1.0, -1.0))
        self.init_labels_ = y.copy()
        self.converged_ = False
        n_iter = 0
        for it in range(1, self.max_iter + 1):
            n_iter = it
            svm = KernelSVC(self.sigma, self.C).fit(X, y, K=K)
            y_new = np.where(svm.f_train_ >= 0, 1.0, -1.0)
            y_new[s] = 1.0
            if np.array_equal(y_new, y):
                self.converged_ = True
                break
            y = y_new
        self.svm_ = svm
        self.labels_ = y
        self.n_iter_ = n_iter
        self.n_features_in_ = X.shape[1]
        return self

    def decision_function(self, X):
        """Decision values of the last SVM."""
        X = self._check_X(X)
        return self.svm_.decision_function(X)


# --------------------------------------------------------------------------- NB + BSVM
class NBBSVM(PUClassifier):
    """Biased SVM (Liu et al. 2003) on NB-initialised labels (NB + BSVM of Table 2).

    NB labels split the training rows into a positive set (P and the U rows NB calls
    positive) and a negative set. An RBF SVM with costs ``C_plus`` on positive errors and
    ``C_plus * ratio`` on negative errors is selected on a stratified hold-out
    (``val_fraction`` of the rows) by ``recall_P^2 / Pr[f = +1]`` (recall on held-out
    labelled positives, ``Pr`` over all held-out rows), then refitted on all rows.

    Parameters
    ----------
    sigma : float
    C_plus_grid : sequence of float
    ratio_grid : sequence of float
        ``C_minus / C_plus`` values (<= 1: positive errors weigh more).
    val_fraction : float
    random_state : int, Generator or None
    """

    def __init__(self, *, sigma=1.0, C_plus_grid=(1.0, 10.0), ratio_grid=(0.05, 0.2, 1.0),
                 val_fraction=0.3, random_state=None):
        self.sigma = sigma
        self.C_plus_grid = C_plus_grid
        self.ratio_grid = ratio_grid
        self.val_fraction = val_fraction
        self.random_state = random_state

    def fit(self, X, s, *, K=None, init_labels=None):
        """Fit on ``(X, s)``; ``K`` optional precomputed Gram matrix. Returns ``self``."""
        check_positive(self.sigma, "sigma")
        X, s = self._validate_pu(X, s)
        n = X.shape[0]
        K = _gauss(X, X, self.sigma) if K is None else K
        y = nb_labels(X, s) if init_labels is None else np.where(
            np.asarray(init_labels) >= 0, 1.0, -1.0)
        self.init_labels_ = y.copy()
        rng = np.random.default_rng(self.random_state)
        # hold-out stratified on s so that it contains labelled positives
        val = np.zeros(n, dtype=bool)
        for grp in (np.flatnonzero(s), np.flatnonzero(~s)):
            m = int(np.floor(self.val_fraction * grp.size + 0.5))
            val[rng.choice(grp, size=m, replace=False)] = True
        tr = np.flatnonzero(~val)
        va = np.flatnonzero(val)
        best, best_crit = None, -np.inf
        if np.any(s[va]) and np.unique(y[tr]).size == 2:
            for cp_ in self.C_plus_grid:
                for ratio in self.ratio_grid:
                    cw = {1: float(cp_), -1: float(cp_) * float(ratio)}
                    svm = KernelSVC(self.sigma, 1.0, class_weight=cw).fit(
                        X[tr], y[tr], K=K[np.ix_(tr, tr)])
                    f = svm.decision_function(X[va])
                    pred = f >= 0
                    rec = pred[s[va]].mean()
                    pr = pred.mean()
                    crit = rec * rec / pr if pr > 0 else 0.0
                    if crit > best_crit + 1e-12:
                        best, best_crit = cw, crit
        if best is None:
            best = {1: float(self.C_plus_grid[0]), -1: float(self.C_plus_grid[0]) *
                    float(self.ratio_grid[0])}
        self.class_weight_ = best
        self.criterion_ = float(best_crit)
        self.svm_ = KernelSVC(self.sigma, 1.0, class_weight=best).fit(X, y, K=K)
        self.n_features_in_ = X.shape[1]
        return self

    def decision_function(self, X):
        """Decision values of the biased SVM."""
        X = self._check_X(X)
        return self.svm_.decision_function(X)


# --------------------------------------------------------------------------- NB family
class GaussianNBPU(PUClassifier):
    """Gaussian NB on P (+1) vs U treated as negative (-1), empirical priors (Table 3's NB)."""

    def fit(self, X, s):
        """Fit on ``(X, s)``. Returns ``self``."""
        X, s = self._validate_pu(X, s)
        self.nb_ = GaussianNB().fit(X, np.where(s, 1, -1))
        self.n_features_in_ = X.shape[1]
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

    with ``p = r_U`` the positive share of U implied by ``r`` (``(r n - L) / (n - L)``).
    Test rows are classified with the prior ``P(+) = r``.

    Parameters
    ----------
    r : float
        Class-balance ratio (whole training set), in (0, 1).
    n_bins : int
    """

    def __init__(self, r=0.5, *, n_bins=10):
        self.r = r
        self.n_bins = n_bins

    def fit(self, X, s):
        """Fit on ``(X, s)``. Returns ``self``."""
        r = _check_r(self.r)
        nb = check_int(self.n_bins, "n_bins", minimum=2)
        X, s = self._validate_pu(X, s)
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
        return self

    def _codes(self, X):
        return np.stack([np.searchsorted(e, X[:, j], side="right")
                         for j, e in enumerate(self.edges_)], axis=1)

    def decision_function(self, X):
        """Log posterior odds with prior ``P(+) = r``."""
        X = self._check_X(X)
        codes = self._codes(X)
        f = np.full(X.shape[0], np.log(self.prior_) - np.log1p(-self.prior_))
        for j in range(X.shape[1]):
            f += self.log_pos_[j][codes[:, j]] - self.log_neg_[j][codes[:, j]]
        return f
