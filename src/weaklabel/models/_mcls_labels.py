"""Initial labels of the unlabelled rows for MCLS and its baselines, and their kernel SVC.

Not estimators: :func:`ilu_labels` (ILU, section 2.1 of Chaudhari & Shevade 2012) and
:func:`nb_labels` (the naive Bayes initialisation of Liu et al. 2003, the paper's [3]) return
a label vector, and :class:`KernelSVC` is a thin wrapper of scikit-learn's ``SVC`` on a
precomputed Gaussian Gram matrix. They are used by the estimators of
:mod:`weaklabel.models.mcls` (MCLS, ILU + ISVM, NB + BSVM) and by the MCLS protocol
(Table 3 scores the labels themselves).

Why here, in a private module of :mod:`weaklabel.models`: all three are built on
scikit-learn (``KMeans``, ``SVC``, ``GaussianNB``), so they cannot go to
:mod:`weaklabel.solvers`, which holds plain-array solvers without scikit-learn; and the
estimators that call them in ``fit`` cannot import :mod:`weaklabel.experiments`, which sits
above :mod:`weaklabel.models`. They stay out of :mod:`weaklabel.models.mcls`, which holds
estimators only.

Input convention: ``(X, s)`` with ``s = 1`` for a labelled positive and ``s = 0`` for an
unlabelled row (:func:`weaklabel.models._base.validate_pu`); labels are ``+1`` / ``-1``.
Every kernel is the Gaussian ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))``.
"""

from __future__ import annotations

import numpy as np
from sklearn.cluster import KMeans
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import SVC

from .._validation import check_int, check_prior
from ..kernels import Kernel, gram, make_kernel
from ._base import validate_pu

__all__ = ["KernelSVC", "ilu_labels", "nb_labels"]


def _as_kernel(kernel) -> Kernel:
    """A number is a Gaussian width; a :class:`Kernel` is kept."""
    if isinstance(kernel, Kernel):
        return kernel
    return make_kernel("gaussian", sigma=kernel)


class KernelSVC:
    """scikit-learn ``SVC`` on a precomputed Gram matrix; keeps only the SVs.

    Parameters
    ----------
    kernel : float or Kernel
        A number is the width ``sigma`` of the Gaussian kernel (the MCLS paper's); a
        :class:`weaklabel.kernels.Kernel` is used as given.
    C : float
        SVM cost.
    class_weight : dict or None
        Passed to ``SVC`` (``{1: C_plus, -1: C_minus}`` for the biased SVM).

    Attributes
    ----------
    X_sv_, coef_, intercept_
        Support vectors, their dual coefficients ``y_i a_i`` and the intercept;
        ``f(x) = sum_sv coef_i k(x, x_i) + intercept_``. With one class only, a constant
        classifier (no support vectors, ``intercept_ = +-1``).
    f_train_ : ndarray of shape (n,)
        Decision values of the training rows (all attributes are set by :meth:`fit`).
    """

    def __init__(self, kernel, C=1.0, class_weight=None):
        self.kernel, self.C, self.class_weight = _as_kernel(kernel), C, class_weight

    def fit(self, X, y, K=None):
        """Fit on ``X`` with labels ``y`` in ``{-1, +1}`` (``K``: optional Gram matrix)."""
        K = gram(X, X, self.kernel) if K is None else K
        if np.unique(y).size < 2:  # one class only: a constant classifier
            self.X_sv_, self.coef_ = X[:0], np.zeros(0)
            self.intercept_ = 1.0 if y[0] > 0 else -1.0
            self.f_train_ = np.full(X.shape[0], self.intercept_)
            return self
        svc = SVC(C=self.C, kernel="precomputed", class_weight=self.class_weight,
                  tol=1e-3, cache_size=50)
        svc.fit(K, y)
        sv = svc.support_
        # SVC's decision function is positive for classes_[1] = +1
        self.X_sv_ = X[sv]
        self.coef_ = svc.dual_coef_.ravel().copy()
        self.intercept_ = float(svc.intercept_[0])
        self.f_train_ = K[:, sv] @ self.coef_ + self.intercept_
        return self

    def decision_function(self, X):
        """``f(x)`` for the rows of ``X``."""
        if self.coef_.size == 0:
            return np.full(X.shape[0], self.intercept_)
        return gram(X, self.X_sv_, self.kernel) @ self.coef_ + self.intercept_


def ilu_labels(X, s, r, *, sigma=1.0, k=10, svc_C=1.0, K=None, random_state=None,
               kernel=None):
    """ILU: initial labels of the unlabelled rows (section 2.1 of the paper).

    The paper gives the steps but not their parameters (``k``, the cluster polarity rule,
    the number of negatives per cluster, the SVM); our reading:

    1. k-means (``k`` clusters, k-means++, 3 restarts) on all training rows;
    2. a cluster is negative when its density of labelled positives is below the global
       one (``|P & c| / |c| < L / N``);
    3. from each negative cluster, the fraction ``1 - r`` of its unlabelled members that is
       farthest (Euclidean) from the centroid of the labelled positives is selected as
       negatives (fallback: the ``max(L, 1)`` unlabelled rows farthest from it);
    4. an RBF C-SVM (``svc_C``, width ``sigma``) on P (+1) vs the selected rows (-1) labels
       every unlabelled row by its sign.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    s : ndarray of shape (n,)
        1 = labelled positive, 0 = unlabelled.
    r : float
        Class-balance ratio in (0, 1).
    sigma, k, svc_C : float, int, float
        RBF width, number of clusters, SVM cost.
    K : ndarray of shape (n, n), optional
        Precomputed Gram matrix of ``X`` with this kernel (saves a kernel evaluation).
    random_state : int, Generator or None
    kernel : Kernel, optional
        The SVM's kernel instead of the Gaussian of width ``sigma``.

    Returns
    -------
    ndarray of shape (n,)
        +1/-1 labels of every row (labelled positives are +1).
    """
    X, s = validate_pu(X, s)
    r = check_prior(r, "r")
    k = check_int(k, "k", minimum=1)
    n = X.shape[0]
    P = np.flatnonzero(s)
    U = np.flatnonzero(~s)
    seed = int(np.random.default_rng(random_state).integers(2**31 - 1))
    k_eff = min(k, n)
    km = KMeans(n_clusters=k_eff, n_init=3, random_state=seed).fit(X)
    lab = km.labels_
    mu = X[P].mean(axis=0)
    dist = np.sqrt(np.sum((X - mu) ** 2, axis=1))
    glob = P.size / n
    chosen = []
    for c in range(k_eff):
        members = np.flatnonzero(lab == c)
        if members.size == 0:
            continue
        if np.sum(s[members]) / members.size < glob:
            uc = members[~s[members]]
            m = int(np.floor((1.0 - r) * uc.size + 0.5))
            if m > 0:
                chosen.append(uc[np.argsort(-dist[uc], kind="stable")[:m]])
    neg = np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.int64)
    if neg.size == 0:
        neg = U[np.argsort(-dist[U], kind="stable")[: max(P.size, 1)]]
    idx = np.concatenate([P, neg])
    yy = np.concatenate([np.ones(P.size), -np.ones(neg.size)])
    Ksub = None if K is None else K[np.ix_(idx, idx)]
    svm = KernelSVC(sigma if kernel is None else kernel, svc_C).fit(X[idx], yy, K=Ksub)
    f = svm.decision_function(X)
    y = np.where(f >= 0, 1.0, -1.0)
    y[P] = 1.0
    return y


def nb_labels(X, s):
    """NB initialisation (Liu et al. 2003, as described in section 3 of the paper).

    Gaussian NB trained on P (+1) vs all of U treated as negative (-1), empirical priors.
    Returns +1/-1 labels of every row (labelled positives are +1).
    """
    X, s = validate_pu(X, s)
    nb = GaussianNB().fit(X, np.where(s, 1, -1))
    y = nb.predict(X).astype(np.float64)
    y[s] = 1.0
    return y
