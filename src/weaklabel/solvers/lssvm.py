"""Least-squares support vector classifier (LS-SVC) as a factorised linear system.

The problem (Eq. (2) of Chaudhari & Shevade 2012, section 2.2)::

    min_{w, b, xi}  1/2 ||w||^2 + sum_i c_i xi_i^2    s.t.  y_i - (w' phi(x_i) + b) = xi_i

with a uniform cost ``c_i = C`` (or per-sample costs). Its KKT conditions (the standard
LS-SVM derivation of Suykens & Vandewalle, the paper's reference [10]) are the linear
system::

    [ 0   1'          ] [b    ]   [0]
    [ 1   K + D       ] [alpha] = [y],     D = diag(1 / (2 c_i)),

and ``f(x) = sum_j alpha_j k(x, x_j) + b``. With ``H = K + D`` (symmetric positive
definite and **independent of the labels**)::

    eta = H^{-1} 1,  nu = H^{-1} y,  b = 1'nu / 1'eta,  alpha = nu - b eta.

``H`` is factorised once (:class:`LSSVCFactor`, Cholesky, ``O(n^3)``) and every new label
vector then costs two triangular solves, ``O(n^2)``. :class:`KernelEigen` eigendecomposes
``K`` once and gives an ``O(n^2)``-per-solve factor for **any** uniform ``C``, so a whole C
grid shares one ``O(n^3)`` step. The training scores ``w' phi(x_i) = (K alpha)_i`` follow
from the KKT conditions in ``O(n)``: ``K alpha = y - b - D alpha``.

Convention: Eq. (2) puts no 1/2 on the squared slacks, so the diagonal is ``1/(2C)``;
Suykens' classifier form with ``gamma/2 sum e_i^2`` has diagonal ``1/gamma``, i.e.
``gamma = 2 C`` gives the same classifier (:func:`suykens_solve`).

The MCLS label loop that reuses these factors is in :mod:`weaklabel.solvers.mcls`.
No scikit-learn and no pandas here.
"""
from __future__ import annotations

import numpy as np
from scipy.linalg import cho_factor, cho_solve, eigh

from .._validation import check_positive

__all__ = [
    "KernelEigen",
    "LSSVCFactor",
    "dense_solve",
    "lssvc_objective",
    "suykens_solve",
]


def _check_gram(K, name: str = "K") -> np.ndarray:
    K = np.asarray(K, dtype=np.float64)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square kernel matrix, got shape {K.shape}.")
    if not np.all(np.isfinite(K)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return K


def _costs(C, n: int) -> np.ndarray:
    """Per-sample costs ``c_i`` from a scalar ``C`` or an array of length ``n``."""
    if np.ndim(C) == 0:
        return np.full(n, check_positive(float(C), "C"))
    c = np.asarray(C, dtype=np.float64).ravel()
    if c.shape[0] != n:
        raise ValueError(f"C has length {c.shape[0]} but the kernel matrix has {n} rows.")
    if not np.all(np.isfinite(c)) or np.any(c <= 0):
        raise ValueError("C must contain finite values > 0.")
    return c


def _check_y(y, n: int) -> np.ndarray:
    y = np.asarray(y, dtype=np.float64).ravel()
    if y.shape[0] != n:
        raise ValueError(f"y has length {y.shape[0]} but the factor has {n} rows.")
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinite values.")
    return y


class _Solve:
    """Shared ``solve`` / ``scores`` given ``self._apply_inv`` (``v -> H^{-1} v``)."""

    n: int
    dinv: np.ndarray  # diagonal D = 1 / (2 c_i)
    eta: np.ndarray
    sum_eta: float

    def _finish_init(self):
        self.eta = self._apply_inv(np.ones(self.n))
        self.sum_eta = float(self.eta.sum())

    def solve(self, y):
        """Return ``(alpha, b)`` of the LS-SVC trained on labels ``y`` (``O(n^2)``)."""
        y = _check_y(y, self.n)
        nu = self._apply_inv(y)
        b = float(nu.sum() / self.sum_eta)
        return nu - b * self.eta, b

    def scores(self, y, alpha, b):
        """Training scores ``w' phi(x_i) = (K alpha)_i`` from the KKT conditions (``O(n)``)."""
        return np.asarray(y, dtype=np.float64) - b - self.dinv * alpha


class LSSVCFactor(_Solve):
    """Cholesky factor of ``H = K + diag(1/(2 c_i))``, reused for every label vector.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Kernel (Gram) matrix of the training points (symmetric PSD).
    C : float or ndarray of shape (n,)
        Cost of the squared slacks (Eq. (2) convention; ``gamma = 2 C`` in LS-SVMlab terms),
        uniform or per sample (per-sample costs keep ``H`` label-independent).

    Attributes
    ----------
    eta : ndarray of shape (n,)
        ``H^{-1} 1``, computed once.
    dinv : ndarray of shape (n,)
        The diagonal ``1 / (2 c_i)`` added to ``K``.
    """

    def __init__(self, K, C=1.0):
        K = _check_gram(K)
        self.n = K.shape[0]
        self.dinv = 1.0 / (2.0 * _costs(C, self.n))
        H = K + np.diag(self.dinv)
        self._cf = cho_factor(H, lower=True, overwrite_a=True, check_finite=False)
        self._finish_init()

    def _apply_inv(self, v):
        return cho_solve(self._cf, v, check_finite=False)


class KernelEigen:
    """Eigendecomposition ``K = V diag(lam) V'`` computed once per kernel matrix.

    :meth:`factor` returns, for any uniform ``C``, an object with the interface of
    :class:`LSSVCFactor` whose solves cost ``O(n^2)``: a whole C grid shares the single
    ``O(n^3)`` step.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Symmetric PSD kernel matrix; eigenvalues below zero (rounding) are clipped to 0.
    """

    def __init__(self, K):
        K = _check_gram(K)
        lam, V = eigh(K, check_finite=False)
        self.lam = np.maximum(lam, 0.0)
        self.V = np.ascontiguousarray(V)
        self.n = K.shape[0]

    def factor(self, C) -> _EigFactor:
        """The LS-SVC factor of ``H = K + I/(2C)`` (uniform ``C`` only)."""
        return _EigFactor(self, check_positive(C, "C"))


class _EigFactor(_Solve):
    def __init__(self, eig: KernelEigen, C: float):
        self.n = eig.n
        self._eig = eig
        self.C = C
        self.dinv = np.full(self.n, 1.0 / (2.0 * C))
        self._scale = 1.0 / (eig.lam + 1.0 / (2.0 * C))
        self._finish_init()

    def _apply_inv(self, v):
        V = self._eig.V
        return V @ (self._scale * (V.T @ v))


def dense_solve(K, y, C=1.0):
    """Solve the full ``(n+1)`` LS-SVC system with ``numpy.linalg.solve`` (no reuse).

    The naive baseline: ``O(n^3)`` for every label vector. Returns ``(alpha, b)``.
    """
    K = _check_gram(K)
    n = K.shape[0]
    y = _check_y(y, n)
    A = np.empty((n + 1, n + 1))
    A[0, 0] = 0.0
    A[0, 1:] = 1.0
    A[1:, 0] = 1.0
    A[1:, 1:] = K + np.diag(1.0 / (2.0 * _costs(C, n)))
    sol = np.linalg.solve(A, np.concatenate([[0.0], y]))
    return sol[1:], float(sol[0])


def suykens_solve(K, y, gamma):
    """Suykens & Vandewalle's classifier form; returns ``(alpha, b)`` with ``alpha = y * beta``.

    ``min 1/2||w||^2 + gamma/2 sum e_i^2  s.t.  y_i (w' phi(x_i) + b) = 1 - e_i``, system
    ``[[0, y'], [y, Omega + I/gamma]] [b; beta] = [0; 1]``, ``Omega_ij = y_i y_j K_ij``. For
    labels in {-1, +1} it equals the Eq. (2) LS-SVC with ``C = gamma / 2``.
    """
    K = _check_gram(K)
    n = K.shape[0]
    y = _check_y(y, n)
    gamma = check_positive(gamma, "gamma")
    A = np.empty((n + 1, n + 1))
    A[0, 0] = 0.0
    A[0, 1:] = y
    A[1:, 0] = y
    A[1:, 1:] = np.outer(y, y) * K + np.eye(n) / gamma
    sol = np.linalg.solve(A, np.concatenate([[0.0], np.ones(n)]))
    return y * sol[1:], float(sol[0])


def lssvc_objective(K, y, alpha, b, C=1.0) -> float:
    """Primal objective ``1/2 alpha'K alpha + sum_i c_i (y_i - (K alpha)_i - b)^2`` of Eq. (2)."""
    K = _check_gram(K)
    c = _costs(C, K.shape[0])
    Ka = K @ alpha
    xi = np.asarray(y, dtype=np.float64) - Ka - b
    return float(0.5 * alpha @ Ka + np.sum(c * xi * xi))
