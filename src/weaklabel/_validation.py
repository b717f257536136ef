"""Input validation shared by every public function (CONVENTIONS.md section 8).

Every error names the offending argument and says how to fix it.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning  # re-exported for the package


def check_matrix(X, name: str = "X", *, min_rows: int = 1, n_features: int | None = None):
    """Return ``X`` as a C-contiguous float64 2-D array, or raise a clear error."""
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array of shape (n_samples, n_features).")
    if hasattr(X, "toarray"):  # scipy sparse
        X = X.toarray()
    try:
        A = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numeric (array-like of floats): {exc}") from None
    if A.ndim == 1:
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features), got a 1-D array of shape {A.shape}; "
            "use X.reshape(-1, 1) for a single feature."
        )
    if A.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_features), got shape {A.shape}.")
    if A.shape[0] < min_rows:
        raise ValueError(f"{name} has {A.shape[0]} rows; at least {min_rows} required.")
    if A.shape[1] == 0:
        raise ValueError(f"{name} has 0 features.")
    if not np.all(np.isfinite(A)):
        bad = int(np.sum(~np.isfinite(A)))
        raise ValueError(
            f"{name} contains {bad} NaN or infinite value(s); impute or drop them first."
        )
    if n_features is not None and A.shape[1] != n_features:
        raise ValueError(
            f"{name} has {A.shape[1]} features but {n_features} were expected "
            "(the number of features seen in fit / in the other argument)."
        )
    return np.ascontiguousarray(A)


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
    """Labels in {-1, +1} (0 is accepted as -1 only when the labels are exactly {0, 1})."""
    a = check_vector(y, name, n=n)
    vals = set(np.unique(a).tolist())
    if vals <= {-1.0, 1.0}:
        return a.astype(np.float64)
    if vals <= {0.0, 1.0}:
        return np.where(a > 0, 1.0, -1.0)
    raise ValueError(f"{name} must contain only -1/+1 labels, got values {sorted(vals)[:5]}.")


def check_pu_indicator(s, name: str = "s", *, n: int | None = None):
    """PU indicator ``s``: 1 = labelled positive, 0 = unlabelled."""
    a = check_vector(s, name, n=n)
    vals = set(np.unique(a).tolist())
    if not vals <= {0.0, 1.0}:
        raise ValueError(
            f"{name} must be a 0/1 indicator (1 = labelled positive, 0 = unlabelled), "
            f"got values {sorted(vals)[:5]}."
        )
    if not np.any(a == 1):
        raise ValueError(f"{name} has no labelled positives (no entry equal to 1).")
    if not np.any(a == 0):
        raise ValueError(f"{name} has no unlabelled samples (no entry equal to 0).")
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


def check_choice(value, name: str, choices):
    """``value`` must be one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)!r}, got {value!r}.")
    return value


def warn_not_converged(solver: str, max_iter: int, violation: float) -> None:
    """Emit the ConvergenceWarning of CONVENTIONS.md section 8."""
    warnings.warn(
        f"{solver} stopped at max_iter={max_iter} with remaining KKT violation "
        f"{violation:.3g}; increase max_iter or loosen tol.",
        ConvergenceWarning,
        stacklevel=3,
    )
