"""Shared bases of the package's estimators: the target conventions, input checks and tags.

Two conventions for the target of ``fit``; every estimator derives from exactly one base.

PU learning, :class:`PUClassifier` -- ``fit(X, s)``
    ``s`` is the PU indicator: ``s = 1`` for a labelled positive, ``s = 0`` for an
    unlabelled sample (positive or negative, unknown). Both values must occur. The
    estimators predict the *latent* class, ``+1`` / ``-1`` (``classes_ = [-1, 1]``), not a
    value of ``s``; ``score(X, y)`` is the accuracy against true labels ``y`` in
    ``{-1, +1}``, ``{0, 1}`` or bool (0 / False are read as -1), the same value for all
    three codings; any other labels raise ``ValueError``. ``score`` needs true labels: to
    select hyperparameters on ``(X, s)`` alone use a scorer of :mod:`weaklabel.metrics`.

Semi-supervised learning, :class:`SemiSupervisedClassifier` -- ``fit(X, y)``
    ``y`` holds the class label, ``0`` or ``1``, of each labelled sample and the marker
    :data:`UNLABELLED` (``-1``, as in scikit-learn's ``SelfTrainingClassifier``) for each
    unlabelled one. Because ``-1`` is the marker, the classes are ``{0, 1}``, never
    ``{-1, +1}`` (recode a -1/+1 labelling as 0/1 before marking the unlabelled samples).
    Both classes must occur among the labelled samples; unlabelled samples may be absent.
    Predictions are ``0`` / ``1`` (``classes_ = [0, 1]``). No estimator uses this base yet.

Common to both (:class:`WeakLabelClassifier`): binary classifiers only; ``X`` is a 2-D
numeric array (sparse input is accepted and densified); ``fit`` validates its inputs with
errors that name the argument and sets ``n_features_in_`` last, which marks the estimator
as fitted; before that every method raises ``NotFittedError``; ``predict`` is
``classes_[1]`` where ``decision_function(X) >= 0`` and ``classes_[0]`` elsewhere.
The conventions are declared as scikit-learn tags (``sklearn.utils.get_tags``), with
:class:`WeakLabelTargetTags` adding ``pu_indicator`` / ``unlabelled_marker`` to the target
tags.
"""

from __future__ import annotations

import warnings
from abc import ABCMeta, abstractmethod
from dataclasses import dataclass, fields

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import TargetTags
from sklearn.utils.validation import check_is_fitted

from .._validation import (
    check_int,
    check_labels_pm1,
    check_matrix,
    check_positive,
    check_prior,
    check_pu_indicator,
    check_random_state,
    check_target_given,
    check_vector,
)
from ..kernels import make_kernel
from .exceptions import OneClassPredictionWarning

UNLABELLED = -1
"""Marker of an unlabelled sample in the target ``y`` of a semi-supervised estimator."""


@dataclass(slots=True)
class WeakLabelTargetTags(TargetTags):
    """scikit-learn's target tags plus the meaning of the target passed to ``fit``.

    Parameters
    ----------
    pu_indicator : bool, default=False
        ``fit(X, s)`` takes a PU indicator (1 = labelled positive, 0 = unlabelled) and the
        estimator predicts the latent class in ``{-1, +1}``, not a value of ``s``.
    unlabelled_marker : int or None, default=None
        ``fit(X, y)`` takes class labels ``{0, 1}`` with this value marking unlabelled
        samples (:data:`UNLABELLED`).
    """

    pu_indicator: bool = False
    unlabelled_marker: int | None = None


# --------------------------------------------------------------------------- validation
def validate_pu(X, s):
    """``(X, s)`` of the PU convention -> ``(X, s)`` as float64 C-contiguous / bool arrays.

    ``X`` must be 2-D, numeric and finite; ``s`` a 0/1 indicator with one entry per row of
    ``X`` and both values present. Errors name the offending argument.
    """
    X = check_matrix(X, "X", min_rows=2)
    s = check_pu_indicator(s, "s", n=X.shape[0])
    return X, s


def split_pu(X, s):
    """``(X, s)`` with ``s = 1`` labelled positive / ``0`` unlabelled -> ``(Xp, Xu)``.

    Row order inside each part is kept (``Xu`` is ``X[s == 0]`` in the original order).
    """
    X, s = validate_pu(X, s)
    return np.ascontiguousarray(X[s]), np.ascontiguousarray(X[~s])


def check_semisupervised_target(y, name: str = "y", *, n: int | None = None):
    """Target of the semi-supervised convention -> int64 array with values in {-1, 0, 1}.

    Labelled samples carry their class, 0 or 1; unlabelled ones carry :data:`UNLABELLED`
    (-1). Both classes must occur among the labelled samples. SVM-light style targets
    (+1 / -1 labelled, 0 unlabelled) are refused: a target whose entries 0 outnumber the
    entries -1 and 1 together (while both occur) is read as one, with an error naming
    scikit-learn's -1 convention.
    """
    a = check_vector(check_target_given(y, name), name, n=n)
    vals = np.unique(a)
    if not set(vals.tolist()) <= {float(UNLABELLED), 0.0, 1.0}:
        shown = vals[:5].tolist()
        if not np.all(vals == np.round(vals)):
            got = f"got continuous (non-integer) values {shown}"
        elif np.sum(vals != UNLABELLED) > 2:
            got = f"got values {shown}. Only binary classification is supported"
        else:
            got = f"got values {shown}"
        raise ValueError(
            f"{name} must hold class labels 0/1 for labelled samples and {UNLABELLED} for "
            f"unlabelled ones, {got}."
        )
    n_u, n_0, n_1 = (int(np.sum(a == v)) for v in (UNLABELLED, 0, 1))
    if n_u and n_1 and n_0 > n_u + n_1:
        raise ValueError(
            f"{name} looks like SVM-light style labels (+1 / -1 labelled, 0 unlabelled): "
            f"{n_0} of its {a.size} entries are 0, more than the {n_u} entries -1 and the "
            f"{n_1} entries 1 together. This package follows scikit-learn's convention: -1 "
            "marks an unlabelled sample and the classes are 0 / 1. Recode, e.g. "
            f"{name} = np.select([{name} == 0, {name} > 0], [-1, 1], 0). (A target whose "
            "labelled class 0 outnumbers all other entries is refused for this reason: "
            "relabel the classes so that class 1 is the larger one.)")
    present = [c for c in (0, 1) if np.any(a == c)]
    if len(present) < 2:
        hint = ""
        if present == [1] and np.any(a == UNLABELLED):
            hint = (f" {UNLABELLED} marks unlabelled samples here: recode a -1/+1 labelling "
                    "as 0/1 before marking the unlabelled samples.")
        raise ValueError(
            f"{name} has labelled samples of one class only ({present or 'none'}); a "
            f"semi-supervised classifier needs labelled samples of both classes 0 and 1.{hint}"
        )
    return a.astype(np.int64)


# --------------------------------------------------------------------------- bases
class WeakLabelClassifier(ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
    """Common root: binary-only tags, fitted-state check, ``X`` checks, ``predict``.

    Subclasses define ``classes_`` (the two predicted labels) and implement ``fit`` (which
    sets ``n_features_in_`` last) and ``decision_function`` (which starts with
    ``X = self._check_X(X)``).
    """

    @abstractmethod
    def fit(self, X, y):
        """Fit the estimator; returns ``self``."""

    @abstractmethod
    def decision_function(self, X):
        """Real-valued scores; ``>= 0`` is predicted as ``classes_[1]``."""

    def __sklearn_is_fitted__(self):
        return hasattr(self, "n_features_in_")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only
        tags.input_tags.sparse = True  # accepted and densified by check_matrix
        # Every fit is deterministic once random_state (where there is one) is fixed; an
        # estimator using randomness that random_state does not control must set True.
        tags.non_deterministic = False
        return tags

    @staticmethod
    def _target_tags(tags, **extra):
        """``tags.target_tags`` as :class:`WeakLabelTargetTags` with ``extra`` set."""
        t = tags.target_tags
        return WeakLabelTargetTags(**{f.name: getattr(t, f.name) for f in fields(t)}, **extra)

    def _check_X(self, X):
        """``X`` of a method called after ``fit``: NotFittedError first, then the checks."""
        check_is_fitted(self)
        X = check_matrix(X, "X")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input (the number of features seen in fit)."
            )
        return X

    def _check_random_state(self):
        """``random_state`` (where the estimator has one): a seed ``default_rng`` takes, or a
        clear error naming it (checked by the family validators before any use)."""
        if "random_state" in self._get_param_names():
            check_random_state(self.random_state, "random_state")

    def predict(self, X):
        """``classes_[1]`` where ``decision_function(X) >= 0``, ``classes_[0]`` elsewhere."""
        f = self.decision_function(X)
        return self.classes_[(f >= 0).astype(np.intp)]

    def _warn_if_one_class(self, f_unlabelled, hint: str, *, stacklevel: int = 3) -> None:
        """The end-of-fit check shared by every classifier: :func:`check_fitted_scores`.

        Called at the end of ``fit`` with the decision values of the training rows whose
        label the estimator had to infer (the unlabelled rows; the labelled ones are often
        fitted as their class even by a kernel that is nearly the identity, so they are
        left out); ``stacklevel=3`` points at the line that called ``fit``.
        """
        check_fitted_scores(self, f_unlabelled, hint, labels=self.classes_,
                            stacklevel=stacklevel + 1)


class PUClassifier(WeakLabelClassifier):
    """Base of every PU estimator: ``fit(X, s)``, predictions ``+1`` / ``-1``.

    See the module docstring for the convention. ``fit`` validates with
    :meth:`_validate_pu` (or :func:`split_pu`).
    """

    classes_ = np.array([-1, 1])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags = self._target_tags(tags, pu_indicator=True)
        # The estimators predict the latent class, not s: the accuracy against s that the
        # generic checks compute is not a measure of these estimators.
        tags.classifier_tags.poor_score = True
        return tags

    def _validate_pu(self, X, s):
        """:func:`validate_pu`: ``(X, s)`` as float64 / bool arrays, or a clear error (and
        ``random_state`` checked)."""
        self._check_random_state()
        return validate_pu(X, s)

    def score(self, X, y, sample_weight=None):
        """Accuracy against the true class labels ``y``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True labels in ``{-1, +1}``, ``{0, 1}`` or bool; ``0`` / ``False`` are read as
            -1, so the three codings give the same value. Anything else (e.g. ``{1, 2}``,
            strings, three values) raises ``ValueError``. Not the PU indicator ``s``: the
            estimator predicts the latent class (use :mod:`weaklabel.metrics` for a score
            on ``(X, s)``).
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        float
            Fraction (weighted by ``sample_weight``) of correct predictions.
        """
        pred = self.predict(X)
        y = check_labels_pm1(y, "y", n=pred.shape[0])
        return float(np.average(pred == y, weights=sample_weight))


class SemiSupervisedClassifier(WeakLabelClassifier):
    """Base of semi-supervised binary classifiers: ``fit(X, y)``, ``y`` in {0, 1, -1}.

    ``y = -1`` (:data:`UNLABELLED`) marks an unlabelled sample; predictions are ``0`` /
    ``1``. ``fit`` validates with :meth:`_validate_semisupervised`. ``score`` is
    scikit-learn's accuracy against labels in ``{0, 1}``.
    """

    classes_ = np.array([0, 1])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags = self._target_tags(tags, unlabelled_marker=UNLABELLED)
        return tags

    def _validate_semisupervised(self, X, y):
        """``(X, y)`` -> float64 ``X`` and int64 ``y`` in {-1, 0, 1}, or a clear error (and
        ``random_state`` checked)."""
        self._check_random_state()
        X = check_matrix(X, "X", min_rows=2)
        y = check_semisupervised_target(y, "y", n=X.shape[0])
        return X, y


def check_fitted_scores(est, scores, hint: str, *, labels=(-1, 1), what="unlabelled training "
                        "points", stacklevel: int = 3) -> None:
    """The checks every estimator runs on its own training scores at the end of ``fit``.

    * Non-finite scores (NaN or inf decision values) raise ``FloatingPointError`` naming the
      estimator, how many there are and ``hint``: a fitted model never returns them.
    * A single sign (every score ``>= 0`` or every score ``< 0``) warns
      :class:`OneClassPredictionWarning`: the model predicts one class (``labels[1]`` for
      ``>= 0``, ``labels[0]`` otherwise) for every one of the rows.

    ``scores`` are decision values (the sign is the class); cluster labels are passed as
    ``labels_ == labels[1]`` mapped to ``+1 / -1``. ``stacklevel`` is that of the user's
    line as seen from this function (3 when called directly by ``fit``).
    """
    f = np.asarray(scores, dtype=np.float64).ravel()
    name = type(est).__name__
    if f.size == 0:
        return
    bad = ~np.isfinite(f)
    if np.any(bad):
        raise FloatingPointError(
            f"{name} produced {int(bad.sum())} non-finite (NaN or infinite) decision values "
            f"on its {f.size} {what}: the fit diverged or overflowed; {hint}")
    if np.all(f >= 0) or np.all(f < 0):
        c = int(labels[1] if f[0] >= 0 else labels[0])
        cls = f"{c:+d}" if min(int(v) for v in labels) < 0 else str(c)
        warnings.warn(
            f"{name} predicts {cls} for every one of the {f.size} {what}; {hint}",
            OneClassPredictionWarning, stacklevel=stacklevel)


#: Rounding error of the SMO gradient, relative to the tolerance, above which the solvers
#: of :func:`check_kernel_scale` cannot be expected to converge (a factor 100 of margin).
_ROUNDING_MARGIN = 100.0


def check_kernel_scale(X, kernel, total_cost: float, tol: float, *, owner: str,
                       tol_name: str = "tol=") -> None:
    """Refuse a training ``X`` whose kernel values make an SMO tolerance unreachable.

    SMO stops when the largest KKT violation, computed from the gradient ``Q a + p``, is
    below an absolute tolerance ``tol``. That gradient carries a rounding error of about
    ``max_i k(x_i, x_i) * sum_i C_i * 2.2e-16``; when that error is within a factor 100 of
    ``tol`` the solver cannot meet its stopping rule and runs to its iteration cap (on 200
    rows with one feature scaled by 1e6 the linear kernel reaches 1e12 and one SMO solve
    took tens of seconds without converging). The Gaussian kernel (values in ``(0, 1]``)
    always passes. ``total_cost`` is the sum of the box bounds of the dual.

    Raises ``ValueError`` naming ``X``, the kernel's largest value and the remedy.
    """
    from ..kernels import GAUSSIAN, LINEAR

    if kernel.code == GAUSSIAN or np.asarray(X).size == 0:
        return
    sq = float(np.max(np.einsum("ij,ij->i", X, X)))  # the diagonal, in numpy (no JIT)
    with np.errstate(over="ignore"):
        kmax = sq if kernel.code == LINEAR else float(
            max(abs(kernel.gamma * sq + kernel.coef0), abs(kernel.coef0)) ** kernel.degree)
    noise = kmax * float(total_cost) * np.finfo(np.float64).eps
    if not np.isfinite(noise) or _ROUNDING_MARGIN * noise > tol:
        raise ValueError(
            f"X is too badly scaled for {owner}'s SMO solver: the {kernel.name} kernel "
            f"reaches {kmax:.3g} on the training rows, so with the costs of this fit (summing "
            f"to {float(total_cost):.3g}) the rounding error of the solver's gradient (about "
            f"{noise:.2g}) is not far below {tol_name}{tol:g}, and the solver would run to "
            "its iteration cap without converging. Standardise X (e.g. "
            "sklearn.preprocessing.StandardScaler), or use kernel='gaussian'.")


def available_memory_bytes() -> int | None:
    """Memory available to this process (``MemAvailable`` of ``/proc/meminfo``, else the
    physical memory), or ``None`` where neither can be read."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import os

        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


def check_dense_memory(n: int, n_matrices: float, *, owner: str, avoid: str = "",
                       available: int | None = None, n_cols: int | None = None) -> int:
    """Refuse a fit that would allocate ``n_matrices`` dense ``n x n`` float64 matrices
    (``8 n^2`` bytes each; ``n x n_cols`` when given) beyond the memory available, before
    allocating them.

    Returns the bytes needed. Raises ``MemoryError`` naming ``owner``, ``n``, the bytes
    needed and available, and ``avoid`` (the parameter that avoids the dense matrices,
    where the estimator has one).
    """
    cols = int(n) if n_cols is None else int(n_cols)
    need = int(8 * float(n_matrices) * int(n) * cols)
    have = available_memory_bytes() if available is None else int(available)
    if have is not None and need > have:
        tail = f" {avoid}" if avoid else " Subsample the training rows."
        raise MemoryError(
            f"{owner} needs about {need / 2**30:.3g} GiB for {n_matrices:g} dense "
            f"{'n x n' if n_cols is None else f'n x {cols}'} float64 matrices at n = {n} "
            f"training rows ({need} bytes), more than the "
            f"{have / 2**30:.3g} GiB available.{tail}")
    return need


def require_prior(prior, name: str = "prior", owner: str = "") -> float:
    """The class prior of a PU estimator: required, in (0, 1); never a silent default.

    ``None`` (the default of every estimator) raises a ``ValueError`` that names the
    parameter and how to obtain it.
    """
    if prior is None:
        who = f"{owner}: " if owner else ""
        raise ValueError(
            f"{who}{name} is required: pass the class prior Pr[y = +1] of your data, in "
            f"(0, 1), e.g. {name}=0.3. It is not identifiable from (X, s) without an "
            "assumption; estimate it with a class-prior estimator, e.g. Elkan & Noto "
            "(2008): c = mean of g(x) over held-out labelled positives for a calibrated "
            "classifier g of s, then prior = (number of labelled positives / c) / n.")
    return check_prior(prior, name)


def scale_sigma(X) -> float:
    """The data-driven Gaussian width ``sigma = sqrt(n_features * X.var() / 2)``.

    The width for which ``1 / (2 sigma^2)`` equals scikit-learn's ``gamma="scale"``
    (``1 / (n_features * X.var())``); 1 when ``X`` has zero variance.
    """
    X = np.asarray(X, dtype=np.float64)
    v = float(X.var()) * X.shape[1]
    return float(np.sqrt(v / 2.0)) if v > 0 else 1.0


class KernelParamsMixin:
    """Helpers of estimators with ``kernel`` / ``sigma`` / ``degree`` / ``coef0`` / ``prior``.

    ``sigma="scale"`` is resolved at fit (:func:`scale_sigma`) and stored as ``sigma_``;
    a number is used as given.
    """

    def _resolve_sigma(self, *parts) -> float:
        """``sigma`` as a number; ``"scale"`` is computed on the rows of ``parts``."""
        if isinstance(self.sigma, str):
            if self.sigma != "scale":
                raise ValueError(f"sigma must be a positive number or 'scale', got "
                                 f"{self.sigma!r}.")
            return scale_sigma(np.vstack(parts))
        return check_positive(self.sigma, "sigma")

    def _kernel(self, *parts):
        """The kernel of this fit on the training rows ``parts``; sets ``sigma_`` (``None``
        for the kernels without a width)."""
        kernel = self.kernel
        if kernel in ("gaussian", "rbf"):
            self.sigma_ = self._resolve_sigma(*parts)
            return make_kernel("gaussian", sigma=self.sigma_)
        self.sigma_ = None
        if kernel in ("polynomial", "poly"):
            return make_kernel("polynomial", degree=check_int(self.degree, "degree", minimum=1),
                               coef0=float(self.coef0))
        return make_kernel(kernel)

    def _check_common(self):
        return require_prior(self.prior, "prior", type(self).__name__)


__all__ = [
    "UNLABELLED",
    "KernelParamsMixin",
    "OneClassPredictionWarning",
    "PUClassifier",
    "SemiSupervisedClassifier",
    "WeakLabelClassifier",
    "WeakLabelTargetTags",
    "available_memory_bytes",
    "check_dense_memory",
    "check_fitted_scores",
    "check_kernel_scale",
    "check_semisupervised_target",
    "require_prior",
    "scale_sigma",
    "split_pu",
    "validate_pu",
]
