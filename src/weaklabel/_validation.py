"""Input validation shared by every public function.

Every error names the offending argument and says how to fix it.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterable

import numpy as np
from sklearn.exceptions import (
    ConvergenceWarning,  # re-exported for the package
    DataConversionWarning,
)


def check_matrix(X, name: str = "X", *, min_rows: int = 1, n_features: int | None = None):
    """Return ``X`` as a C-contiguous float64 2-D array, or raise a clear error."""
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array of shape (n_samples, n_features).")
    if hasattr(X, "toarray"):  # scipy sparse
        X = X.toarray()
    try:
        A = np.asarray(X)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numeric (array-like of floats): {exc}") from None
    if np.iscomplexobj(A):
        raise ValueError(f"{name} is complex. Complex data not supported; pass real values.")
    try:
        A = A.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numeric (array-like of floats): {exc}") from None
    if A.ndim == 1:
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features), got a 1-D array of shape {A.shape}. "
            f"Reshape your data: {name}.reshape(-1, 1) for a single feature, "
            f"{name}.reshape(1, -1) for a single sample."
        )
    if A.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_features), got shape {A.shape}.")
    if A.shape[0] < min_rows:
        raise ValueError(
            f"{name} has {A.shape[0]} rows (n_samples={A.shape[0]}); at least {min_rows} required."
        )
    if A.shape[1] == 0:
        raise ValueError(
            f"{name} has 0 feature(s) (shape={A.shape}) while a minimum of 1 is required."
        )
    if not np.all(np.isfinite(A)):
        bad = int(np.sum(~np.isfinite(A)))
        raise ValueError(
            f"{name} contains {bad} NaN or infinite value(s); impute or drop them first."
        )
    check_magnitude(A, name)
    if n_features is not None and A.shape[1] != n_features:
        raise ValueError(
            f"{name} has {A.shape[1]} features but {n_features} were expected "
            "(the number of features seen in fit / in the other argument)."
        )
    return np.ascontiguousarray(A)


#: Largest magnitude of an input entry: squares, inner products, squared distances and
#: variances of larger values overflow float64 (about 1.8e308) and give inf / NaN.
MAX_ABS = 1e150


def check_magnitude(A, name: str = "X") -> None:
    """Refuse a finite array whose entries exceed :data:`MAX_ABS` in magnitude.

    Kernel values, squared distances and variances of such entries overflow float64 and
    turn into inf or NaN decision values; the error names ``name`` and the remedy.
    """
    if A.size == 0:
        return
    top = float(np.max(np.abs(A)))
    if top > MAX_ABS:
        raise ValueError(
            f"{name} has entries of magnitude up to {top:.3g}: above {MAX_ABS:.0e}, inner "
            "products, squared distances and variances overflow float64 (NaN or infinite "
            f"results). Rescale {name} (e.g. sklearn.preprocessing.StandardScaler) first."
        )


def check_vector(y, name: str = "y", *, n: int | None = None, dtype=np.float64):
    """Return ``y`` as a 1-D finite array of length ``n`` (when given)."""
    if y is None:
        raise ValueError(f"{name} is None; pass a 1-D array.")
    a = np.asarray(y)
    if a.ndim == 2 and 1 in a.shape:
        a = a.ravel()
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {a.shape}.")
    try:
        a = a.astype(dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numeric: {exc}") from None
    if np.issubdtype(a.dtype, np.floating) and not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    if n is not None and a.shape[0] != n:
        raise ValueError(f"{name} has length {a.shape[0]} but {n} was expected (rows of X).")
    return a


def check_labels_pm1(y, name: str = "y", *, n: int | None = None):
    """True class labels as -1.0 / +1.0 from ``{-1, +1}``, ``{0, 1}`` or bool.

    0 and ``False`` are read as -1 (only when the labels are exactly 0/1 or bool); anything
    else (strings, ``{1, 2}``, three values) raises ``ValueError``.
    """
    raw = np.asarray(y) if y is not None else None
    if raw is not None and raw.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} must hold true class labels in {{-1, +1}}, {{0, 1}} or bool, got dtype "
            f"{raw.dtype} (values {np.unique(raw)[:5].tolist()}).")
    a = check_vector(y, name, n=n)
    vals = set(np.unique(a).tolist())
    if vals <= {-1.0, 1.0}:
        return a.astype(np.float64)
    if vals <= {0.0, 1.0}:
        return np.where(a > 0, 1.0, -1.0)
    raise ValueError(
        f"{name} must hold true class labels in {{-1, +1}}, {{0, 1}} or bool (0/False read as "
        f"-1), got values {sorted(vals)[:5]}; recode them (e.g. y = (labels == positive)).")


def check_target_given(y, name: str):
    """``np.asarray(y)``; rejects ``y is None`` and warns on a column vector.

    The phrases "requires y to be passed, but the target y is None" and "A column-vector y
    was passed when a 1d array was expected" are those scikit-learn's estimator checks expect.
    """
    if y is None:
        raise ValueError(
            f"{name} is None: this estimator requires y to be passed, but the target y is "
            f"None; pass {name} as the second argument of fit."
        )
    a = np.asarray(y)
    if a.ndim == 2 and a.shape[1] == 1:
        warnings.warn(
            f"A column-vector y was passed when a 1d array was expected: {name} has shape "
            f"{a.shape}; pass a 1-D array of shape (n_samples,), e.g. with ravel().",
            DataConversionWarning,
            stacklevel=3,
        )
    return a


def check_pu_indicator(s, name: str = "s", *, n: int | None = None):
    """PU indicator ``s``: 1 = labelled positive, 0 = unlabelled (returned as a bool array).

    Both values must occur. The errors name ``name``; targets that are not 0/1 are reported
    as continuous or multi-class in the words scikit-learn's estimator checks look for.
    """
    a = check_vector(check_target_given(s, name), name, n=n)
    vals = np.unique(a)
    if not set(vals.tolist()) <= {0.0, 1.0}:
        shown = vals[:5].tolist()
        if not np.all(vals == np.round(vals)):
            got = f"got continuous (non-integer) values {shown}"
        elif vals.size > 2:
            got = (f"got {vals.size} distinct values {shown}. Only binary classification is "
                   "supported")
        else:
            got = f"got values {shown}"
        raise ValueError(
            f"{name} must be a 0/1 indicator (1 = labelled positive, 0 = unlabelled), {got}; "
            f"set {name} = 1 on the labelled positives and 0 on every other sample."
        )
    if not np.any(a == 1):
        raise ValueError(
            f"{name} has no labelled positives (no entry equal to 1): it holds one class "
            "only, and PU learning needs labelled positives (1) and unlabelled samples (0)."
        )
    if not np.any(a == 0):
        raise ValueError(
            f"{name} has no unlabelled samples (no entry equal to 0): it holds one class "
            "only, and PU learning needs labelled positives (1) and unlabelled samples (0)."
        )
    return a.astype(bool)


def check_prior(pi, name: str = "pi") -> float:
    """A class prior strictly inside (0, 1)."""
    if isinstance(pi, bool) or not isinstance(pi, numbers.Real):
        raise TypeError(f"{name} must be a real number in (0, 1), got {type(pi).__name__}.")
    pi = float(pi)
    if not (0.0 < pi < 1.0) or not np.isfinite(pi):
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {pi}.")
    return pi


def check_positive(value, name: str, *, allow_zero: bool = False) -> float:
    """A finite positive real (``> 0``, or ``>= 0`` with ``allow_zero``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive real number, got {type(value).__name__}.")
    v = float(value)
    ok = (v >= 0.0) if allow_zero else (v > 0.0)
    if not ok or not np.isfinite(v):
        rel = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be finite and {rel}, got {value}.")
    return v


def check_int(value, name: str, *, minimum: int = 0) -> int:
    """An integer ``>= minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}.")
    if int(value) < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    return int(value)


def check_random_state(value, name: str = "random_state"):
    """A seed numpy's ``default_rng`` takes: ``None``, a non-negative integer, a
    ``numpy.random.Generator`` (or ``BitGenerator`` / ``SeedSequence``, or a sequence of
    non-negative integers); a bool is refused. Returns ``value`` unchanged (a Generator is
    not advanced)."""
    if value is None or isinstance(value, np.random.Generator):
        return value
    if isinstance(value, bool):
        raise TypeError(f"{name} must be None, a non-negative integer or a "
                        f"numpy.random.Generator, got bool {value!r}.")
    try:
        np.random.default_rng(value)
    except (TypeError, ValueError):
        raise (ValueError if isinstance(value, numbers.Integral) else TypeError)(
            f"{name} must be None, a non-negative integer or a numpy.random.Generator, got "
            f"{type(value).__name__} {value!r}.") from None
    return value


def check_choice(value, name: str, choices):
    """``value`` must be one of ``choices`` (an unhashable ``value``, e.g. a list, is not)."""
    try:
        ok = value in choices
    except TypeError:  # unhashable: cannot be a member of a set of choices
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {sorted(choices)!r}, got {value!r}.")
    return value


def check_names(values, known, name: str, *, allow_none: bool = False, what: str = "dataset"):
    """``values`` (a list of names, or a mapping keyed by names) must name only entries of
    ``known``, the protocol's own names (e.g. the keys its loader looks up); ``None`` passes
    when ``allow_none``. Returns the names, or ``None``.

    Cheap: nothing is loaded. The error names the ``params.yaml`` key ``name``, the unknown
    name(s) and every known one.
    """
    known = tuple(known)
    listed = ", ".join(sorted(map(str, known)))
    if values is None:
        if allow_none:
            return None
        raise ValueError(f"{name} is None; list the {what}s by name (known: {listed}).")
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a list of {what} names, got {type(values).__name__} "
                        f"{values!r}; known: {listed}.")
    names = list(values)  # a mapping: its keys
    bad = [v for v in names if v not in known]
    if bad:
        shown = ", ".join(repr(v) for v in bad)
        if len(bad) == 1:
            head = f"unknown {what} {shown}, not a {what}"
        else:
            head = f"unknown {what}s {shown}, not {what}s"
        raise ValueError(f"{name}: {head} of this protocol; known: {listed}.")
    return names


def warn_not_converged(solver: str, max_iter: int, violation: float, *,
                       what: str = "KKT violation", param: str = "max_iter",
                       tol_param: str | None = "tol", stacklevel: int = 3) -> None:
    """Emit a ``ConvergenceWarning``: ``solver`` stopped at its iteration cap ``param`` with
    ``violation`` (described by ``what``) remaining."""
    loosen = f" or loosen {tol_param}" if tol_param else ""
    warnings.warn(
        f"{solver} stopped at {param}={max_iter} with remaining {what} "
        f"{violation:.3g}; increase {param}{loosen}.",
        ConvergenceWarning,
        stacklevel=stacklevel,
    )
