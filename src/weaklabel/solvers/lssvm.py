"""Least-squares support vector classifier (LS-SVC) and the MCLS label loop, on plain arrays.

The problem (MCLS digest section 2.2, Eq. (2) of Chaudhari & Shevade 2012)::

    min_{w, b, xi}  1/2 ||w||^2 + sum_i c_i xi_i^2    s.t.  y_i - (w' phi(x_i) + b) = xi_i

with a uniform cost ``c_i = C`` (or per-sample costs). Its KKT conditions are the linear
system (digest section 2.3)::

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

Convention (digest section 12 A3): the squared slacks carry no 1/2, so the diagonal is
``1/(2C)``; Suykens' classifier form with ``gamma/2 sum e_i^2`` has diagonal ``1/gamma``,
i.e. ``gamma = 2 C`` gives the same classifier (:func:`suykens_solve`).

The MCLS pieces are :func:`class_balance_bias` (the ratio-enforcing bias step, digest
section 5.2) and :func:`mcls_loop` (Algorithm 1 with an iteration cap and a cycle guard).
No scikit-learn and no pandas here.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_factor, cho_solve, eigh

from .._validation import check_positive

__all__ = [
    "KernelEigen",
    "LSSVCFactor",
    "MCLSResult",
    "class_balance_bias",
    "dense_solve",
    "lssvc_objective",
    "mcls_loop",
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
        uniform or per sample (digest section 2.3, weighted variant).

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


# --------------------------------------------------------------------------- MCLS pieces
def _bias_at(sorted_desc: np.ndarray, k: int) -> float:
    """Bias making exactly the ``k`` largest scores positive (midpoint threshold)."""
    n = sorted_desc.shape[0]
    if k <= 0:
        return -float(sorted_desc[0]) - 1e-9 * (1.0 + abs(sorted_desc[0]))
    if k >= n:
        return -float(sorted_desc[-1])
    return -0.5 * float(sorted_desc[k - 1] + sorted_desc[k])


def class_balance_bias(scores, is_pos, r: float, eps: float = 0.05, r_mode: str = "all") -> float:
    """Bias of the MCLS class-balance step (paper section 2.3; digest section 5.2).

    1. Sort the scores ``w' phi(x_i)`` of the pool (all training points for
       ``r_mode="all"``, the unlabelled ones for ``r_mode="U"``) and put the threshold where
       a fraction ``r`` is positive (``round(r n)`` points, midpoint between neighbours).
    2. If a labelled positive is then negative, raise the bias, but by no more than the
       tolerance allows: at most ``round((r + eps) n)`` pool points may become positive.
       The smallest bias that classifies the most labelled positives positive is returned.

    Parameters
    ----------
    scores : ndarray of shape (n,)
        ``w' phi(x_i)`` for every training point.
    is_pos : ndarray of bool, shape (n,)
        Labelled positives.
    r : float
        Class-balance ratio in (0, 1).
    eps : float
        Tolerance: the allowed overshoot of the positive fraction (0 = exact ratio).
    r_mode : {"all", "U"}
        The pool the ratio is enforced on.

    Returns
    -------
    float
        The bias ``b_hat``; labels are ``+1`` where ``scores + b_hat >= 0``.
    """
    s = np.asarray(scores, dtype=np.float64)
    is_pos = np.asarray(is_pos, dtype=bool)
    pool = s if r_mode == "all" else s[~is_pos]
    n = pool.shape[0]
    srt = -np.sort(-pool, kind="stable")
    b0 = _bias_at(srt, int(np.floor(r * n + 0.5)))
    sp = s[is_pos]
    if sp.size == 0 or eps <= 0.0 or np.min(sp) + b0 >= 0.0:
        return b0
    bmax = _bias_at(srt, min(n, int(np.floor((r + eps) * n + 0.5))))
    b_need = -float(np.min(sp))
    if b_need <= bmax:
        return max(b0, b_need)
    m = int(np.sum(sp + bmax >= 0.0))
    if m == 0:
        return b0
    mth = np.sort(sp)[::-1][m - 1]
    return max(b0, -float(mth))


class MCLSResult:
    """Outcome of :func:`mcls_loop` (plain attributes)."""

    def __init__(self, alpha, bias, labels, n_iter, converged, stop_reason, n_changes):
        self.alpha = alpha
        self.bias = bias
        self.labels = labels
        self.n_iter = n_iter
        self.converged = converged
        self.stop_reason = stop_reason
        self.n_changes = n_changes


def mcls_loop(factor, y_init, is_pos, r: float, *, eps: float = 0.05, r_mode: str = "all",
              max_iter: int = 100) -> MCLSResult:
    """Algorithm 1 of the paper from given initial labels, with a reused LS-SVC factor.

    Each iteration: LS-SVC on the current labels (positives clamped to +1), the
    class-balance bias :func:`class_balance_bias`, relabel the unlabelled points by
    ``sign(w' phi(x) + b_hat)``. Stops when the unlabelled labels repeat the previous ones
    (``converged``), repeat an earlier label vector (``cycle``), or at ``max_iter``.

    Parameters
    ----------
    factor : LSSVCFactor or KernelEigen.factor(C)
        Factor of ``K + D`` for the training points.
    y_init : ndarray of shape (n,)
        Initial labels (+1/-1) of all training points (those of positives are ignored).
    is_pos : ndarray of bool, shape (n,)
        Labelled positives.
    r, eps, r_mode
        See :func:`class_balance_bias`.
    max_iter : int
        Iteration cap (digest section 6).

    Returns
    -------
    MCLSResult
        ``alpha`` and ``bias`` (``f(x) = sum_j alpha_j k(x, x_j) + bias``), the final
        labels of all training points, ``n_iter``, ``converged``, ``stop_reason`` in
        ``{"converged", "cycle", "max_iter"}`` and ``n_changes`` (labels changed in the last
        iteration).
    """
    is_pos = np.asarray(is_pos, dtype=bool)
    unl = ~is_pos
    y = np.where(np.asarray(y_init, dtype=np.float64) >= 0, 1.0, -1.0)
    y[is_pos] = 1.0
    seen = {y[unl].tobytes()}
    reason, changes = "max_iter", 0
    alpha, bias, y_new = None, 0.0, y
    n_iter = 0
    for it in range(1, max_iter + 1):
        n_iter = it
        alpha, b_ls = factor.solve(y)
        sc = factor.scores(y, alpha, b_ls)
        bias = class_balance_bias(sc, is_pos, r, eps, r_mode)
        y_new = np.where(sc + bias >= 0.0, 1.0, -1.0)
        y_new[is_pos] = 1.0
        changes = int(np.sum(y_new[unl] != y[unl]))
        if changes == 0:
            reason = "converged"
            break
        key = y_new[unl].tobytes()
        if key in seen:
            reason = "cycle"
            break
        seen.add(key)
        y = y_new
    # labels given by the returned (alpha, bias): sign(w' phi(x) + b_hat), positives +1
    return MCLSResult(alpha, bias, y_new, n_iter, reason == "converged", reason, changes)
