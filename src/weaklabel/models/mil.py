"""Multi-instance baselines of the ROI experiment of Li, Tsang, Kwok and Zhou (JMLR 2013,
Sec. 5.2, Table 10 and Fig. 6) and the ROI success metric.

Estimators (scikit-learn style, on bags):

- :class:`MiSVM` -- mi-SVM, :class:`MISVM` -- MI-SVM (Andrews, Tsochantaridis and Hofmann
  2003);
- :class:`MIKernelSVM` -- the SVM with the multi-instance set kernel (Gartner, Flach,
  Kowalczyk and Smola 2002);
- :class:`DiverseDensity` -- DD (Maron and Ratan 1998);
- :class:`EMDD` -- EM-DD (Zhang and Goldman 2002).

Convention: ``fit(bags, y)`` with ``bags`` a list of ``(m_i, d)`` arrays (one row per
instance) and ``y`` the bag labels in ``{0, 1}`` (``{-1, +1}`` and bool are accepted; 0 / -1 /
False is a negative bag); both classes must occur. ``instance_scores(bags)`` is the score of
every instance, ``decision_function(bags)`` the bag score (the largest instance score, except
for :class:`MIKernelSVM`, whose bag score is the set-kernel SVM's value, the sum of its
instance contributions), ``predict(bags)`` is ``classes_[1]`` (1, or +1 when fit saw
-1 / +1 labels) where the bag score is ``> 0`` (an image is "classified as relevant" when
``max_j f(x_ij) > 0``, Li et al. 2013, Sec. 5.2), and
``locate(bags)`` the index, inside each bag, of the instance taken as the ROI: the instance of
largest score.

Metrics: :func:`roi_success_rate` (Li et al. 2013, Eqs. (39)-(40) and their harmonic mean, the
reported success rate) and :func:`roi_successes_at_k` (Fig. 6).
"""

from __future__ import annotations

import inspect
import numbers
import time

import numpy as np
from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags
from sklearn.utils.validation import check_is_fitted

from .._validation import check_choice, check_int, check_labels_pm1, check_random_state
from ..kernels import gram
from ..solvers.mil import (
    diverse_density,
    em_dd,
    instance_mi_svm,
    mi_kernel_instance_contributions,
    mi_kernel_svm,
    stack_mil_bags,
    witness_mi_svm,
)
from ._base import KernelParamsMixin, check_fitted_scores

__all__ = ["EMDD", "MISVM", "DiverseDensity", "MIKernelSVM", "MiSVM", "roi_success_rate",
           "roi_successes_at_k"]

_BLOCK = 4096


def _segments(v, ptr):
    return [v[ptr[i]:ptr[i + 1]] for i in range(ptr.shape[0] - 1)]


def _seg_max_argmax(v, ptr):
    m = np.empty(ptr.shape[0] - 1)
    a = np.empty(ptr.shape[0] - 1, dtype=np.int64)
    for i in range(m.shape[0]):
        s = v[ptr[i]:ptr[i + 1]]
        a[i] = int(np.argmax(s))
        m[i] = s[a[i]]
    return m, a


class _ParamsProtocol:
    """scikit-learn's parameter protocol (``get_params`` / ``set_params`` from the
    ``__init__`` signature, the ``repr``, the tags and the fitted state) for the classifiers
    of lists of bags, so that ``sklearn.base.clone`` and the model-selection tools work on
    them."""

    @classmethod
    def _get_param_names(cls):
        sig = inspect.signature(cls.__init__)
        return sorted(p.name for p in sig.parameters.values() if p.name != "self")

    def get_params(self, deep=True):
        """Constructor parameters as a dict (scikit-learn's protocol)."""
        return {k: getattr(self, k) for k in self._get_param_names()}

    def set_params(self, **params):
        """Set constructor parameters; an unknown name raises ``ValueError``."""
        valid = self._get_param_names()
        for k, v in params.items():
            if k not in valid:
                raise ValueError(f"Invalid parameter {k!r} for {type(self).__name__}; valid "
                                 f"parameters: {valid}.")
            setattr(self, k, v)
        return self

    def __sklearn_is_fitted__(self):
        return hasattr(self, "n_features_in_")

    def __sklearn_tags__(self):
        """Binary classifier of bags (not 2-D arrays), for scikit-learn's model selection."""
        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(multi_class=False),
                    input_tags=InputTags(two_d_array=False, allow_nan=False))

    def __repr__(self):
        sig = inspect.signature(type(self).__init__)
        shown = [f"{k}={getattr(self, k)!r}" for k, p in sig.parameters.items()
                 if k != "self" and getattr(self, k) is not p.default
                 and getattr(self, k) != p.default]
        return f"{type(self).__name__}({', '.join(shown)})"


class _MILClassifier(_ParamsProtocol):
    """Shared plumbing: bag validation, fitted state, predict / locate / instance_scores,
    and the parameter protocol of scikit-learn (:class:`_ParamsProtocol`).

    Not a ``sklearn.base.BaseEstimator`` on purpose: the inputs are lists of bags, not the
    ``(n_samples, n_features)`` arrays scikit-learn's generic estimator checks (run on every
    ``BaseEstimator`` of :mod:`weaklabel.models`) feed.

    Subclasses implement ``_fit(X, bag_ptr, y)`` (``y`` in +1/-1) and
    ``_scores(X, bag_ptr) -> (bag_scores, instance_scores)``.
    """

    classes_ = np.array([0, 1])
    _estimator_type = "classifier"


    def score(self, bags, y):
        """Bag accuracy against labels ``y`` in ``{0, 1}`` (or ``{-1, +1}``, bool)."""
        pred = self.predict(bags)
        yy = check_labels_pm1(y, "y", n=pred.shape[0]) > 0
        return float(np.mean((pred == self.classes_[1]) == yy))

    def fit(self, bags, y):
        """Fit on labelled bags.

        Parameters
        ----------
        bags : list of array-like (m_i, d)
            At least one bag per class; every bag has at least one instance and all have
            the same ``d``.
        y : array-like (n_bags,)
            Bag labels in ``{0, 1}`` (or ``{-1, +1}``, bool).

        Returns
        -------
        self
        """
        t0 = time.perf_counter()
        if "random_state" in self._get_param_names():
            check_random_state(self.random_state, "random_state")
        X, ptr = stack_mil_bags(bags, "bags")
        n_bags = ptr.shape[0] - 1
        if y is None:
            raise ValueError("y is None; pass one label (0 or 1) per bag.")
        ya = np.asarray(y)
        if ya.ndim != 1 or ya.shape[0] != n_bags:
            raise ValueError(f"y must hold one label per bag: it has shape {ya.shape} but "
                             f"bags has {n_bags} bags.")
        yy = check_labels_pm1(ya, "y", n=n_bags)
        if not (np.any(yy > 0) and np.any(yy < 0)):
            raise ValueError("y must contain both positive (1) and negative (0) bags.")
        for attr in ("n_features_in_",):
            if hasattr(self, attr):
                delattr(self, attr)
        self._fit(X, ptr, yy)
        # predict answers in the labels fit saw: {-1, +1} if -1 was among them, else {0, 1}
        self.classes_ = np.array([-1, 1]) if np.any(ya == -1) else np.array([0, 1])
        self.n_bags_fit_ = n_bags
        self.fit_seconds_ = time.perf_counter() - t0
        self.n_features_in_ = X.shape[1]
        # finite scores, and both classes among the training bags (or a warning)
        f = np.asarray(self._scores(X, ptr)[0], dtype=np.float64)
        check_fitted_scores(self, np.where(f > 0, 1.0, -1.0) if np.all(np.isfinite(f)) else f,
                            "the kernel width sigma or the cost C probably do not suit the "
                            "data.", labels=tuple(int(c) for c in self.classes_),
                            what="training bags")
        return self

    def _stack(self, bags):
        check_is_fitted(self)
        return stack_mil_bags(bags, "bags", n_features=self.n_features_in_)

    def decision_function(self, bags):
        """Bag scores (``> 0``: predicted positive / relevant).

        Parameters
        ----------
        bags : list of array-like (m_i, d)

        Returns
        -------
        ndarray (n_bags,)
        """
        X, ptr = self._stack(bags)
        return self._scores(X, ptr)[0]

    def instance_scores(self, bags):
        """Score of every instance, one array per bag."""
        X, ptr = self._stack(bags)
        return _segments(self._scores(X, ptr)[1], ptr)

    def locate(self, bags):
        """Index, inside each bag, of the instance taken as the ROI (largest instance score;
        the first one on ties).

        Returns
        -------
        ndarray of int64 (n_bags,)
        """
        X, ptr = self._stack(bags)
        return _seg_max_argmax(self._scores(X, ptr)[1], ptr)[1]

    def predict(self, bags):
        """``classes_[1]`` where ``decision_function(bags) > 0``, else ``classes_[0]``
        (``classes_`` is ``[-1, 1]`` when fit's labels were -1 / +1, else ``[0, 1]``)."""
        return self.classes_[(self.decision_function(bags) > 0).astype(np.intp)]

    def _max_scores(self, inst, ptr):
        return _seg_max_argmax(inst, ptr)[0], inst


class _InstanceSVM(KernelParamsMixin, _MILClassifier):
    _solver = None

    def __init__(self, C1=1.0, C2=1.0, kernel="gaussian", sigma="scale", degree=3, coef0=1.0,
                 max_iter=50, tol=1e-3, verbose=False):
        self.C1 = C1
        self.C2 = C2
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose

    def _fit(self, X, ptr, y):
        self.kernel_ = self._kernel(X)
        res = type(self)._solver(X, ptr, y, self.C1, self.C2, self.kernel_,
                                 max_iter=self.max_iter, tol=self.tol,
                                 verbose=bool(self.verbose))
        sv = np.flatnonzero(res.coef != 0)
        self.support_vectors_ = X[sv]
        self.dual_coef_ = res.coef[sv]
        self.intercept_ = -res.rho
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.changes_ = list(res.changes)
        self.witnesses_ = res.witnesses
        self.instance_labels_ = res.instance_labels

    def _scores(self, X, ptr):
        f = np.empty(X.shape[0])
        for s in range(0, X.shape[0], _BLOCK):
            f[s:s + _BLOCK] = gram(X[s:s + _BLOCK], self.support_vectors_, self.kernel_) @ \
                self.dual_coef_
        return self._max_scores(f + self.intercept_, ptr)


_SVM_PARAMS = """
    Parameters
    ----------
    C1 : float, default=1.0
        Cost of the positive bags (Li et al. 2013, Eq. (23); the paper's grid
        ``C1 in {C2, 4 C2, 10 C2}``).
    C2 : float, default=1.0
        Cost of the negative bags / instances (grid ``{1, 10, 100}``).
    kernel : {"gaussian", "linear", "polynomial"}, default="gaussian"
    sigma : float or "scale", default="scale"
        Gaussian width, ``k = exp(-||x - y||^2 / (2 sigma^2))``; ``"scale"``: the data-driven
        width of :func:`weaklabel.models._base.scale_sigma` on the training instances. The
        paper's grid is ``sigma in {0.25, 0.5, 1, 2, 4} sqrt(gamma)``, gamma the mean
        squared distance between training instances:
        ``weaklabel.solvers.wellsvm.gamma_width(np.vstack(bags), ratio)``.
    degree, coef0 : polynomial kernel parameters.
    max_iter : int, default=50
        Cap on the alternations (SVM solves); ``ConvergenceWarning`` when reached.
    tol : float, default=1e-3
        SMO stopping tolerance.
    verbose : bool, default=False
        Print one line per alternation (SVM solve); results are the same either way.
"""


class MiSVM(_InstanceSVM):
    __doc__ = """mi-SVM (Andrews, Tsochantaridis and Hofmann 2003): instance labels of the
    positive bags re-estimated by the SVM, at least one positive per positive bag.

    See :func:`weaklabel.solvers.mil.instance_mi_svm`. The instance score is the SVM's
    ``f(x)``, the bag score ``max_j f(x_ij)``.
    """ + _SVM_PARAMS + """
    Attributes
    ----------
    support_vectors_, dual_coef_, intercept_ : the instance SVM ``f``.
    instance_labels_ : final +1/-1 labels of the training instances.
    witnesses_ : row (in the stacked training instances) of each positive bag's top instance.
    n_iter_, converged_, changes_ : alternations, whether labels stopped changing, and the
        number of changed labels per alternation.
    """
    _solver = staticmethod(instance_mi_svm)


class MISVM(_InstanceSVM):
    __doc__ = """MI-SVM (Andrews, Tsochantaridis and Hofmann 2003): one witness per positive bag.

    See :func:`weaklabel.solvers.mil.witness_mi_svm` (first SVM on the positive bags'
    feature-space centroids). The instance score is ``f(x)``, the bag score
    ``max_j f(x_ij)``.
    """ + _SVM_PARAMS + """
    Attributes
    ----------
    support_vectors_, dual_coef_, intercept_ : the instance SVM ``f``.
    witnesses_ : row (in the stacked training instances) of each positive bag's witness.
    n_iter_, converged_, changes_ : as :class:`MiSVM` (changes of witnesses).
    """
    _solver = staticmethod(witness_mi_svm)


class MIKernelSVM(KernelParamsMixin, _MILClassifier):
    """C-SVM on bags with the multi-instance set kernel (Gartner, Flach, Kowalczyk and Smola
    2002): ``k_set(B, B') = sum_ij k(x_i, x'_j)^p``, normalised.

    The bag score is the SVM's decision value ``f(B) = sum_s a_s y_s k_set(B_s, B) - rho``.
    The ROI (declared) is the instance with the largest contribution to it: ``f(B)`` splits
    as ``sum_{j in B} c_j - rho`` with
    ``c_j = sum_s a_s y_s sum_{i in B_s} k(x_si, x_j)^p / (norm(B_s) norm(B))``, and
    ``instance_scores`` returns the ``c_j``
    (:func:`weaklabel.solvers.mil.mi_kernel_instance_contributions`).

    Parameters
    ----------
    C1, C2, kernel, sigma, degree, coef0, tol : as :class:`MiSVM`.
    power : float, default=1.0
        The exponent ``p`` (for the Gaussian kernel, ``k^p`` is the Gaussian kernel of width
        ``sigma / sqrt(p)``).
    normalization : {"sqrt", "size", "none"}, default="sqrt"
        ``k_set(B, B') / sqrt(k_set(B, B) k_set(B', B'))``, ``/ (|B| |B'|)``, or none.
    """

    def __init__(self, C1=1.0, C2=1.0, kernel="gaussian", sigma="scale", degree=3, coef0=1.0,
                 power=1.0, normalization="sqrt", tol=1e-3):
        self.C1 = C1
        self.C2 = C2
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.power = power
        self.normalization = normalization
        self.tol = tol

    def _fit(self, X, ptr, y):
        check_choice(self.normalization, "normalization", {"sqrt", "size", "none"})
        self.kernel_ = self._kernel(X)
        res = mi_kernel_svm(X, ptr, y, self.C1, self.C2, self.kernel_, power=self.power,
                            normalization=self.normalization, tol=self.tol)
        sv = np.flatnonzero(res.coef != 0)
        if sv.size == 0:
            sv = np.array([0])
        sizes = np.diff(ptr)[sv]
        self.X_fit_ = np.ascontiguousarray(
            np.vstack([X[ptr[s]:ptr[s + 1]] for s in sv]))
        self.bag_ptr_fit_ = np.r_[0, np.cumsum(sizes)].astype(np.int64)
        self.result_ = type(res)(coef=res.coef[sv], rho=res.rho, bag_norms=res.bag_norms[sv],
                                 n_iter=res.n_iter, seconds=res.seconds)
        self.dual_coef_ = res.coef[sv]
        self.intercept_ = -res.rho
        self.support_ = sv
        self.n_iter_ = res.n_iter

    def _scores(self, X, ptr):
        c, f = mi_kernel_instance_contributions(
            self.result_, self.X_fit_, self.bag_ptr_fit_, X, ptr, self.kernel_,
            power=self.power, normalization=self.normalization)
        return f, c


def _check_threshold(threshold):
    if isinstance(threshold, str):
        check_choice(threshold, "threshold", {"train"})
        return threshold
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not (
            0.0 < float(threshold) < 1.0):
        raise ValueError(f"threshold must be 'train' or a number in (0, 1), got {threshold!r}.")
    return float(threshold)


def _train_threshold(scores, y):
    """The cut on the bag probabilities with the best training accuracy (midpoints between
    consecutive distinct scores, and below / above all); the one closest to 0.5 on ties."""
    u = np.unique(scores)
    cand = np.r_[u[0] / 2.0, (u[:-1] + u[1:]) / 2.0, (u[-1] + 1.0) / 2.0]
    acc = np.array([np.mean((scores > c) == (y > 0)) for c in cand])
    best = cand[acc >= acc.max() - 1e-12]
    return float(best[np.argmin(np.abs(best - 0.5))])


class _DDBase(_MILClassifier):
    def _set_threshold(self, X, ptr, y):
        th = _check_threshold(self.threshold)
        if th == "train":
            p, _ = _seg_max_argmax(self._prob(X), ptr)
            th = _train_threshold(p, y)
        self.threshold_ = th

    def _prob(self, X):
        diff = X - self.target_
        return np.exp(-np.clip((diff * diff) @ self.scales_, 0.0, 700.0))

    def _scores(self, X, ptr):
        return self._max_scores(self._prob(X) - self.threshold_, ptr)

    def _store(self, res):
        self.target_ = res.target
        self.scales_ = res.scales
        self.objective_ = res.objective
        self.start_objective_ = res.start_objective
        self.starts_ = res.starts
        self.n_iter_ = res.n_iter


_DD_ATTRS = """
    Attributes
    ----------
    target_, scales_ : the concept point ``t`` and the feature weights ``w``; an instance's
        probability of being in the concept is ``exp(-sum_k w_k (x_k - t_k)^2)``.
    threshold_ : the cut on the bag probability ``max_j Pr(x_ij in concept)``.
    objective_, start_objective_ : minus the log diverse density at the result and at its
        start.
    starts_ : training instances (stacked rows) used as starts.
    n_iter_ : iterations of the chosen start.

    The instance score is ``Pr(x in concept) - threshold_``, the bag score its maximum over
    the bag, the ROI the instance nearest the target (in the scaled distance).
"""


class DiverseDensity(_DDBase):
    __doc__ = """DD (Maron and Ratan 1998): the noisy-or diverse density maximised by L-BFGS-B
    over the target point and per-feature scales, from instances of positive bags.

    See :func:`weaklabel.solvers.mil.diverse_density`.

    Parameters
    ----------
    n_starts : int or None, default=None
        Starts (None: every instance of every positive bag, as Maron and Ratan; an int keeps
        that many, spread evenly over the positive bags, seeded by ``random_state``).
    max_iter : int, default=200
        L-BFGS-B iterations per start.
    tol : float, default=1e-6
    threshold : "train" or float in (0, 1), default="train"
        Cut on the bag probability: ``"train"`` picks the one with the best training bag
        accuracy (declared; closest to 0.5 on ties), a number is used as given (Maron and
        Ratan: 0.5).
    random_state : int, Generator or None
    verbose : bool, default=False
        Print one line per start; results are the same either way.
    """ + _DD_ATTRS

    def __init__(self, n_starts=None, max_iter=200, tol=1e-6, threshold="train",
                 random_state=None, verbose=False):
        self.n_starts = n_starts
        self.max_iter = max_iter
        self.tol = tol
        self.threshold = threshold
        self.random_state = random_state
        self.verbose = verbose

    def _fit(self, X, ptr, y):
        _check_threshold(self.threshold)
        res = diverse_density(X, ptr, y, n_starts=self.n_starts, max_iter=self.max_iter,
                              tol=self.tol, random_state=self.random_state,
                              verbose=bool(self.verbose))
        self._store(res)
        self._set_threshold(X, ptr, y)


class EMDD(_DDBase):
    __doc__ = """EM-DD (Zhang and Goldman 2002): the most likely instance per bag (E-step) and
    the single-instance diverse density maximised by L-BFGS-B (M-step), from several starts.

    See :func:`weaklabel.solvers.mil.em_dd`.

    Parameters
    ----------
    n_starts : int or None, default=None
        As :class:`DiverseDensity`.
    max_em_iter : int, default=30
        EM rounds per start.
    max_iter : int, default=200
        L-BFGS-B iterations per M-step.
    tol : float, default=1e-6
    threshold : "train" or float in (0, 1), default="train"
        As :class:`DiverseDensity`.
    random_state : int, Generator or None
    verbose : bool, default=False
        Print one line per start; results are the same either way.
    """ + _DD_ATTRS

    def __init__(self, n_starts=None, max_em_iter=30, max_iter=200, tol=1e-6,
                 threshold="train", random_state=None, verbose=False):
        self.n_starts = n_starts
        self.max_em_iter = max_em_iter
        self.max_iter = max_iter
        self.tol = tol
        self.threshold = threshold
        self.random_state = random_state
        self.verbose = verbose

    def _fit(self, X, ptr, y):
        _check_threshold(self.threshold)
        res = em_dd(X, ptr, y, n_starts=self.n_starts, max_em_iter=self.max_em_iter,
                    max_iter=self.max_iter, tol=self.tol, random_state=self.random_state,
                    verbose=bool(self.verbose))
        self._store(res)
        self._set_threshold(X, ptr, y)


# --------------------------------------------------------------------------- metrics
def _check_roi_inputs(bag_scores, located, roi_masks):
    s = np.asarray(bag_scores, dtype=np.float64)
    if s.ndim != 1 or s.shape[0] == 0:
        raise ValueError(f"bag_scores must be a non-empty 1-D array, got shape {s.shape}.")
    n = s.shape[0]
    loc = np.asarray(located)
    if loc.shape != (n,) or loc.dtype.kind not in "iu":
        raise ValueError(f"located must hold one integer instance index per bag ({n}), got "
                         f"{loc.dtype} of shape {loc.shape}.")
    masks = list(roi_masks)
    if len(masks) != n:
        raise ValueError(f"roi_masks must hold one mask per bag ({n}), got {len(masks)}.")
    hit = np.zeros(n, dtype=bool)
    for i, m in enumerate(masks):
        m = np.asarray(m, dtype=bool).ravel()
        if not 0 <= loc[i] < m.shape[0]:
            raise ValueError(f"located[{i}]={loc[i]} is outside bag {i} ({m.shape[0]} "
                             "instances).")
        hit[i] = m[loc[i]]
    return s, hit


def _check_relevant(relevant, n):
    r = np.asarray(relevant)
    if r.shape != (n,):
        raise ValueError(f"relevant must hold one flag per bag ({n}), got shape {r.shape}.")
    return check_labels_pm1(r, "relevant", n=n) > 0 if r.dtype != bool else r


def roi_success_rate(bag_scores, located, roi_masks, relevant) -> dict:
    """ROI location success (Li et al. 2013, Sec. 5.2, Eqs. (39)-(40)).

    An image is predicted relevant when its bag score is ``> 0``; a *success* is a relevant
    image predicted relevant whose located instance is a real ROI.

    Parameters
    ----------
    bag_scores : array (n,)
        Bag scores (``decision_function``).
    located : int array (n,)
        Index of the located instance in each bag (``locate``).
    roi_masks : sequence of bool arrays
        Instance-level truth of each bag (True at the ROIs of the concept).
    relevant : array (n,)
        True (1) for the images of the concept.

    Returns
    -------
    dict
        ``successes``, ``n_relevant``, ``n_predicted``; ``relevant_rate`` = successes /
        #relevant (Eq. (39)); ``roi_rate`` = successes / #predicted relevant (Eq. (40), 0 if
        none is predicted); ``success_rate`` = 2 successes / (#relevant + #predicted), their
        harmonic mean, the number Table 10 reports.
    """
    s, hit = _check_roi_inputs(bag_scores, located, roi_masks)
    rel = _check_relevant(relevant, s.shape[0])
    pred = s > 0
    succ = int(np.sum(pred & rel & hit))
    n_rel, n_pred = int(rel.sum()), int(pred.sum())
    return {"successes": succ, "n_relevant": n_rel, "n_predicted": n_pred,
            "relevant_rate": succ / n_rel if n_rel else 0.0,
            "roi_rate": succ / n_pred if n_pred else 0.0,
            "success_rate": 2.0 * succ / (n_rel + n_pred) if n_rel + n_pred else 0.0}


def roi_successes_at_k(bag_scores, located, roi_masks, ks, relevant=None) -> np.ndarray:
    """ROI successes among the ``k`` most confident bags (Li et al. 2013, Fig. 6).

    Bags are ranked by decreasing score (stable: the earlier bag first on ties); one ROI is
    reported per bag (``located``); a success is a reported ROI that is a real one
    (``roi_masks``; with ``relevant``, only in relevant bags).

    Parameters
    ----------
    bag_scores, located, roi_masks : as :func:`roi_success_rate`.
    ks : int or sequence of int
        Numbers of top bags (each in ``1 .. n``).
    relevant : array (n,), optional

    Returns
    -------
    ndarray of int64, one count per ``k``.
    """
    s, hit = _check_roi_inputs(bag_scores, located, roi_masks)
    n = s.shape[0]
    if relevant is not None:
        hit = hit & _check_relevant(relevant, n)
    ks_arr = np.atleast_1d(np.asarray(ks))
    if ks_arr.dtype.kind not in "iu" or ks_arr.ndim != 1:
        raise ValueError(f"ks must be an int or a 1-D sequence of ints, got {ks!r}.")
    for k in ks_arr:
        check_int(int(k), "ks", minimum=1)
        if k > n:
            raise ValueError(f"ks must be <= the number of bags {n}, got {k}.")
    order = np.argsort(-s, kind="stable")
    cum = np.cumsum(hit[order])
    return cum[ks_arr - 1].astype(np.int64)

