"""WellSVM (Li, Tsang, Kwok & Zhou, JMLR 2013) for clustering and multi-instance learning.

:class:`WellSVMClustering` (Section 4.3, maximum-margin clustering) and :class:`WellSVMMIL`
(Section 4.2, key-instance / ROI location) on the label-generation loop of
:func:`weaklabel.solvers.wellsvm.label_generation`
(:func:`~weaklabel.solvers.wellsvm.wellsvm_clustering`,
:func:`~weaklabel.solvers.wellsvm.wellsvm_mil`).

Neither is a classifier of the package's two target conventions (PU, semi-supervised): a
clusterer has no target and a multi-instance learner takes a list of bags. They follow the
scikit-learn API by duck typing (``get_params`` / ``set_params``, so ``sklearn.base.clone``
works; ``fit`` returns ``self``; fitted attributes end in ``_``) and share the kernel
vocabulary of :class:`~weaklabel.models.wellsvm.WellSVM` (``kernel``, ``sigma`` with
``"scale"`` / ``"gamma"``, ``sigma_ratio``, ``degree``, ``coef0``, ``max_iter``, ``tol``,
``verbose``, ``random_state``).
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.exceptions import NotFittedError

from .._validation import check_int, check_matrix, check_positive, check_random_state
from ..kernels import check_cache_mb, gram, make_kernel
from ..solvers.mil import _real_bag
from ..solvers.wellsvm import (
    clustering_beta,
    gamma_width,
    wellsvm_clustering,
    wellsvm_mil,
    wellsvm_mil_decision_function,
)
from ._base import check_dense_memory, check_fitted_scores, scale_sigma
from .mil import _ParamsProtocol
from .wellsvm import reissue_wellsvm_warnings

__all__ = ["WellSVMClustering", "WellSVMMIL"]

_KERNELS = ("linear", "gaussian", "rbf", "polynomial", "poly")


class _WellSVMKernel:
    """The kernel of a fit and the fitted-state check."""

    def _check_fitted(self):
        if not hasattr(self, "n_features_in_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet; "
                                 "call fit first.")

    def _make_kernel(self, X):
        kernel = self.kernel
        if kernel not in _KERNELS:
            raise ValueError(f"kernel must be one of {list(_KERNELS)}, got {kernel!r}.")
        if kernel in ("gaussian", "rbf"):
            if isinstance(self.sigma, str):
                if self.sigma == "gamma":
                    self.sigma_ = gamma_width(X, check_positive(self.sigma_ratio,
                                                                "sigma_ratio"))
                elif self.sigma == "scale":
                    self.sigma_ = scale_sigma(X)
                else:
                    raise ValueError(f"sigma must be a positive number, 'scale' or 'gamma', "
                                     f"got {self.sigma!r}.")
            else:
                self.sigma_ = check_positive(self.sigma, "sigma")
            return make_kernel("gaussian", sigma=self.sigma_)
        self.sigma_ = None
        if kernel in ("polynomial", "poly"):
            return make_kernel("polynomial", degree=check_int(self.degree, "degree", minimum=1),
                               coef0=float(self.coef0))
        return make_kernel("linear")


class _WellSVMParams(_ParamsProtocol, _WellSVMKernel):
    """scikit-learn's parameter protocol for an estimator on lists of bags (which
    scikit-learn's ``BaseEstimator`` checks do not fit), and the WellSVM kernel."""


class WellSVMClustering(ClusterMixin, _WellSVMKernel, BaseEstimator):
    """WellSVM maximum-margin clustering (Li et al. 2013, Section 4.3, Algorithm 4).

    Two clusters with the balance constraint ``|1'y| <= beta``; the convex relaxation is
    solved by label generation with the band oracle of Eqs. (37)-(38). See
    :func:`weaklabel.solvers.wellsvm.wellsvm_clustering` for the initialisation (best kernel
    alignment of ``n_init_draws`` random balanced labellings) and the assignment (``sign f``
    re-balanced by sorting, declared: the paper does not state it).

    Parameters
    ----------
    kernel : {"linear", "gaussian", "polynomial"}, default="gaussian"
        ``"rbf"`` and ``"poly"`` are accepted as aliases. The model has no bias: centre the
        features for the linear kernel.
    sigma : float, "scale" or "gamma", default="scale"
        Gaussian width (as :class:`~weaklabel.models.wellsvm.WellSVM`; ``"gamma"`` is the
        paper's ``sigma_ratio * sqrt(mean squared distance)``).
    C : float, default=1.0
        The cost (the paper's grid: 0.1, 0.5, 1, 5, 10, 100).
    beta : float or None, default=None
        Balance bound as a count, ``0 <= beta <= n_samples``; ``None``: ``beta_fraction *
        n_samples`` (:func:`~weaklabel.solvers.wellsvm.clustering_beta`).
    beta_fraction : float, default=0.03
        The paper's 0.03 (balanced data) or 0.3 (imbalanced data).
    sigma_ratio, degree, coef0 : kernel parameters (as WellSVM).
    n_init_draws : int, default=20
    max_iter : int, default=50
        Cap on the label-generation iterations.
    tol : float, default=1e-3
        Relative violation and objective-decrease thresholds.
    verbose : bool, default=False
    random_state : int, Generator or None, default=None
        Seeds the random initial labellings.
    cache_mb : float, "auto" or None, default=None
        Kernel-row cache of the solver in MB (as :class:`~weaklabel.models.WellSVM`);
        ``None``: all of ``K`` when it needs at most 1024 MB, else 1024 MB. Changes the
        time, never the clustering.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster index 0 / 1 of every training point (1 where the assignment is +1).
    dual_coef_ : ndarray of shape (n_samples,)
        ``f(x) = sum_i dual_coef_i k(x, x_i)``.
    intercept_ : float
        0.0 (no bias).
    objective_path_ : list of float
    selection_score_ : float
        Label-free model-selection score (lower is better): the final relaxation objective
        divided by ``C n_samples``.
    radius_margin_ : float
        ``R^2 ||w||^2 / n_samples``, a second label-free score (lower is better).
    n_iter_ : int
    converged_ : bool
    beta_ : float
    sigma_ : float or None
    result_ : WellSVMClusteringResult
    X_fit_ : ndarray
    n_features_in_ : int
    """

    def __init__(self, kernel="gaussian", sigma="scale", C=1.0, *, beta=None,
                 beta_fraction=0.03, sigma_ratio=1.0, degree=3, coef0=1.0, n_init_draws=20,
                 max_iter=50, tol=1e-3, verbose=False, random_state=None, cache_mb=None):
        self.kernel = kernel
        self.sigma = sigma
        self.C = C
        self.beta = beta
        self.beta_fraction = beta_fraction
        self.sigma_ratio = sigma_ratio
        self.degree = degree
        self.coef0 = coef0
        self.n_init_draws = n_init_draws
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.random_state = random_state
        self.cache_mb = cache_mb

    def fit(self, X, y=None):
        """Cluster the rows of ``X`` (``y`` is ignored). Returns ``self``."""
        check_random_state(self.random_state, "random_state")
        X = check_matrix(X, "X", min_rows=2)
        C = check_positive(self.C, "C")
        check_cache_mb(self.cache_mb)
        tol = check_positive(self.tol, "tol", allow_zero=True)
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        beta = (clustering_beta(X.shape[0], self.beta_fraction) if self.beta is None
                else self.beta)
        k = self._make_kernel(X)
        check_dense_memory(X.shape[0], 1, owner="WellSVMClustering")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = wellsvm_clustering(X, C, k, beta, n_init_draws=self.n_init_draws,
                                   random_state=self.random_state, eps=tol, thr=tol,
                                   max_outer=max_iter, verbose=bool(self.verbose),
                                   cache_mb=self.cache_mb)
        failed = reissue_wellsvm_warnings(caught, "WellSVMClustering", max_iter)
        self.result_ = r
        self.labels_ = (r.assignment > 0).astype(np.int64)
        self.dual_coef_ = r.result.coef
        self.intercept_ = 0.0
        self.objective_path_ = list(r.result.objective_path)
        self.selection_score_ = r.selection_score
        self.radius_margin_ = r.radius_margin
        self.n_iter_ = len(r.result.objective_path)
        self.converged_ = bool(r.result.converged) and not failed
        self.beta_ = r.beta
        self.X_fit_ = X
        self._kernel_obj = k
        self.n_features_in_ = X.shape[1]
        check_fitted_scores(self, np.where(self.labels_ > 0, 1.0, -1.0),
                            "the kernel width sigma, C or the balance beta probably do not "
                            "suit the data.", labels=(0, 1), what="points (one cluster)")
        return self

    def fit_predict(self, X, y=None):
        """``fit(X).labels_``."""
        return self.fit(X).labels_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # densified by check_matrix
        return tags

    def decision_function(self, X):
        """``f(x) = sum_i dual_coef_i k(x, x_i)`` (no bias)."""
        self._check_fitted()
        X = check_matrix(X, "X")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input (the number of features seen in fit).")
        sv = np.flatnonzero(self.dual_coef_ != 0)
        if sv.size == 0:
            return np.zeros(X.shape[0])
        return gram(X, self.X_fit_[sv], self._kernel_obj) @ self.dual_coef_[sv]

    def predict(self, X):
        """Cluster 1 where ``decision_function(X) >= 0``, else 0 (new points are not
        re-balanced)."""
        return (self.decision_function(X) >= 0).astype(np.int64)


def _bags_to_arrays(bags, name="bags", n_features=None):
    """A list of ``(m_i, d)`` arrays -> ``(instances, bag_ptr)``; errors name ``bags``."""
    if bags is None or isinstance(bags, (str, bytes)) or not hasattr(bags, "__len__"):
        raise ValueError(f"{name} must be a list of (m_i, n_features) arrays, one per bag.")
    if isinstance(bags, np.ndarray) and bags.ndim == 2:
        raise ValueError(f"{name} must be a list of (m_i, n_features) arrays, one per bag, got "
                         f"a single 2-D array of shape {bags.shape} (it would be read as "
                         f"{bags.shape[0]} one-instance bags); wrap it as [{name}] for one bag.")
    if len(bags) == 0:
        raise ValueError(f"{name} is empty; pass at least one bag.")
    mats = []
    for i, b in enumerate(bags):
        B = _real_bag(b, f"{name}[{i}]")
        if B.ndim == 1:
            B = B.reshape(1, -1)
        if B.ndim != 2 or B.shape[0] == 0:
            raise ValueError(f"{name}[{i}] must be a non-empty (m_i, n_features) array, got "
                             f"shape {B.shape} (empty bag).")
        d = mats[0].shape[1] if mats else n_features
        mats.append(check_matrix(B, f"{name}[{i}]", n_features=d))
    ptr = np.concatenate([[0], np.cumsum([m.shape[0] for m in mats])]).astype(np.int64)
    return np.vstack(mats), ptr


class WellSVMMIL(_WellSVMParams):
    """WellSVM for multi-instance learning and ROI location (Li et al. 2013, Section 4.2,
    Algorithm 3).

    One key instance per positive bag, every instance of a negative bag negative; the
    relaxation over key-instance assignments is solved by label generation with the per-bag
    argmax oracle of Eq. (31) (:func:`weaklabel.solvers.wellsvm.wellsvm_mil`; Prop. 6 is
    checked at every step). A bag's score is the max of its instance scores; its ROI is the
    instance of largest score.

    Parameters
    ----------
    kernel : {"linear", "gaussian", "polynomial"}, default="gaussian"
    sigma : float, "scale" or "gamma", default="scale"
        Computed at fit on all training instances.
    C1 : float, default=1.0
        Cost of the positive bags.
    C2 : float, default=1.0
        Cost of the negative instances.
    sigma_ratio, degree, coef0 : kernel parameters.
    max_iter : int, default=50
    tol : float, default=1e-3
    verbose : bool, default=False

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The bag labels seen in fit (``[0, 1]`` or ``[-1, 1]``); ``predict`` returns them.
    dual_coef_ : ndarray of shape (n_instances,)
        ``f(x) = sum_j dual_coef_j k(x, x_j)`` over the training instances.
    intercept_ : float
        0.0 (no bias).
    key_instances_ : ndarray
        Key instance (index in the bag) of each positive training bag.
    roi_ : ndarray of shape (n_bags,)
        Located ROI (index in the bag) of every training bag.
    objective_path_ : list of float
    n_iter_ : int
    converged_ : bool
    sigma_ : float or None
    result_ : WellSVMMILResult
    n_features_in_ : int
    """

    def __init__(self, kernel="gaussian", sigma="scale", C1=1.0, C2=1.0, *, sigma_ratio=1.0,
                 degree=3, coef0=1.0, max_iter=50, tol=1e-3, verbose=False):
        self.kernel = kernel
        self.sigma = sigma
        self.C1 = C1
        self.C2 = C2
        self.sigma_ratio = sigma_ratio
        self.degree = degree
        self.coef0 = coef0
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose

    def fit(self, bags, y):
        """Fit on a list of bags (``(m_i, d)`` arrays) with bag labels ``y`` in ``{0, 1}`` or
        ``{-1, +1}`` (both classes required). Returns ``self``."""
        X, ptr = _bags_to_arrays(bags)
        if y is None:
            raise ValueError("y is None; pass one label (0/1 or -1/+1) per bag.")
        ya = np.asarray(y).ravel()
        if ya.shape[0] != ptr.size - 1:
            raise ValueError(f"y has {ya.shape[0]} labels but there are {ptr.size - 1} bags.")
        vals = set(np.unique(ya).tolist())
        if not (vals <= {0, 1} or vals <= {-1, 1}):
            raise ValueError(f"y must hold bag labels in {{0, 1}} or {{-1, +1}}, got "
                             f"{sorted(vals)[:5]}.")
        if len(vals) < 2:
            raise ValueError(f"y has bags of one class only ({sorted(vals)}); multi-instance "
                             "learning needs positive and negative bags.")
        self.classes_ = np.array([-1, 1]) if -1 in vals else np.array([0, 1])
        tol = check_positive(self.tol, "tol", allow_zero=True)
        k = self._make_kernel(X)
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = wellsvm_mil(X, ptr, np.where(ya > 0, 1.0, -1.0), self.C1, self.C2, k,
                            eps=tol, thr=tol, max_outer=max_iter, verbose=bool(self.verbose))
        failed = reissue_wellsvm_warnings(caught, "WellSVMMIL", max_iter)
        self.result_ = r
        self.dual_coef_ = r.coef
        self.intercept_ = 0.0
        self.key_instances_ = r.key_instances
        self.roi_ = r.roi
        self.objective_path_ = list(r.result.objective_path)
        self.n_iter_ = len(r.result.objective_path)
        self.converged_ = bool(r.result.converged) and not failed
        self.n_features_in_ = X.shape[1]
        f = self.decision_function(bags)
        check_fitted_scores(self, np.where(f > 0, 1.0, -1.0) if np.all(np.isfinite(f)) else f,
                            "the costs C1 / C2 or the kernel width sigma probably do not suit "
                            "the data.", labels=tuple(self.classes_), what="training bags")
        return self

    def _scores(self, bags):
        self._check_fitted()
        X, ptr = _bags_to_arrays(bags, n_features=self.n_features_in_)
        return wellsvm_mil_decision_function(self.result_, X), ptr

    def instance_scores(self, bags):
        """Instance scores ``f(x_ij)``: a list with one array per bag (the name the
        multi-instance baselines of :mod:`weaklabel.models.mil` use)."""
        f, ptr = self._scores(bags)
        return [f[ptr[b]:ptr[b + 1]] for b in range(ptr.size - 1)]

    predict_instances = instance_scores

    def score(self, bags, y):
        """Bag accuracy of :meth:`predict` against labels ``y`` (the labels of fit's
        convention, ``{0, 1}`` or ``{-1, +1}``)."""
        ya = np.asarray(y).ravel()
        pred = self.predict(bags)
        if ya.shape[0] != pred.shape[0]:
            raise ValueError(f"y has {ya.shape[0]} labels but there are {pred.shape[0]} bags.")
        return float(np.mean((pred == self.classes_[1]) == (ya > 0)))

    def decision_function(self, bags):
        """Bag scores ``max_j f(x_ij)``."""
        f, ptr = self._scores(bags)
        return np.array([f[ptr[b]:ptr[b + 1]].max() for b in range(ptr.size - 1)])

    def predict(self, bags):
        """``classes_[1]`` where the bag score is ``> 0``, else ``classes_[0]``: an image
        is relevant when ``max_j f(x_ij) > 0`` (Li et al. 2013, Sec. 5.2), the rule of the
        multi-instance baselines and of the ROI success rate."""
        f = self.decision_function(bags)
        return self.classes_[(f > 0).astype(np.intp)]

    def locate(self, bags):
        """ROI of every bag: the index (inside the bag) of its highest-scoring instance."""
        f, ptr = self._scores(bags)
        return np.array([int(np.argmax(f[ptr[b]:ptr[b + 1]])) for b in range(ptr.size - 1)])
