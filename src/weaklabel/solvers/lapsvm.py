"""Laplacian SVM (Belkin, Niyogi and Sindhwani, JMLR 7 2006, "Manifold regularization") on
the SMO core.

LapSVM minimises, over ``f(x) = sum_{i=1}^{l+u} alpha_i k(x_i, x) + b``::

    1/l sum_{i<=l} max(0, 1 - y_i f(x_i)) + gamma_A ||f||_K^2
        + gamma_I / (l+u)^2  f' L f

(Belkin et al. 2006, Eq. (7) with the hinge loss, Sec. 4.3). Its representer solution
(their Eqs. (35)-(37), with ``J = [I_l 0]`` and ``Y = diag(y_L)``) is::

    alpha* = (2 gamma_A I + 2 gamma_I/(l+u)^2 L K)^{-1} J' Y beta*,

``beta*`` solving the SVM dual on the labelled points::

    max_beta  1'beta - 1/2 beta' Q beta   s.t.  y'beta = 0,  0 <= beta_i <= 1/l,
    Q = Y J K (2 gamma_A I + 2 gamma_I/(l+u)^2 L K)^{-1} J' Y.

Mapping to the SMO core. With ``A = 2 gamma_A I + 2 gamma_I/(l+u)^2 L K`` and ``beta =
2 gamma_A a``, the dual is ``2 gamma_A`` times ``min 1/2 a'(Y Kt Y) a - 1'a`` with
``Kt = 2 gamma_A J K A^{-1} J'`` and ``0 <= a_i <= C = 1/(2 gamma_A l)``: a C-SVM dual on a
precomputed ``l x l`` kernel ``Kt``. Its ``rho`` is the bias (``b = -rho``) and
``alpha = A^{-1} J' Y beta = 2 gamma_A A^{-1} J' Y a``. With ``gamma_I = 0``, ``Kt = K_LL``
and ``alpha = J' Y a``: LapSVM is then exactly the C-SVM (with bias) on the labelled points
with ``C = 1/(2 gamma_A l)``. The estimators therefore map the labelled cost ``C1`` to
``gamma_A = 1/(2 C1 l)``.

Graph (Belkin et al. 2006, Sec. 6): symmetric k-nearest-neighbour graph (an edge when either
point is among the other's ``k`` nearest neighbours, Euclidean distance) over the labelled
and unlabelled training points, with ``"binary"`` weights (``W_ij = 1``) or ``"heat"`` weights
``W_ij = exp(-||x_i - x_j||^2 / (4 t))`` with ``4 t`` the mean squared edge length; Laplacian
``L = D - W`` (``"unnormalized"``, the default) or ``I - D^{-1/2} W D^{-1/2}``
(``"normalized"``).

Memory and time: the dense ``(l+u) x (l+u)`` Gram matrix and the ``(l+u) x (l+u)`` linear
solve (``O((l+u)^3)``), as in Belkin et al.'s own implementation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from scipy.spatial.distance import cdist

from .._validation import (
    check_choice,
    check_int,
    check_labels_pm1,
    check_matrix,
    check_positive,
)
from ..kernels import gram, make_kernel
from .smo import SMOResult, smo

__all__ = ["LapSVMResult", "lapsvm", "knn_laplacian"]


# --------------------------------------------------------------------------- SMO on a Gram matrix
class _GramSMO:
    """:func:`weaklabel.solvers.smo.smo` with ``kernel="precomputed"`` on a fixed symmetric
    matrix ``K`` (symmetrised once, reused by every solve)."""

    def __init__(self, K):
        K = np.asarray(K, dtype=np.float64)
        self.K = np.ascontiguousarray(0.5 * (K + K.T))

    def solve(self, y, C, *, p=None, alpha0=None, eps=1e-3, max_iter=None) -> SMOResult:
        return smo(self.K, y, C, "precomputed", p=p, alpha0=alpha0, eps=eps,
                   max_iter=max_iter)


# --------------------------------------------------------------------------- graph
def knn_laplacian(X, n_neighbors=5, *, weights="heat", laplacian="unnormalized"):
    """Graph Laplacian of the symmetric k-nearest-neighbour graph of ``X``.

    Parameters
    ----------
    X : array (n, d)
    n_neighbors : int
        ``k``; ``i`` and ``j`` are joined when either is among the other's ``k`` nearest
        neighbours (Euclidean; the point itself excluded).
    weights : {"heat", "binary"}
        ``"heat"``: ``W_ij = exp(-||x_i - x_j||^2 / (4 t))``, ``4 t`` the mean squared length
        of the graph's edges (Belkin et al. 2006, Sec. 6); ``"binary"``: ``W_ij = 1``.
    laplacian : {"unnormalized", "normalized"}
        ``L = D - W`` or ``I - D^{-1/2} W D^{-1/2}``.

    Returns
    -------
    L : array (n, n)
    """
    X = check_matrix(X, "X", min_rows=2)
    n = X.shape[0]
    k = check_int(n_neighbors, "n_neighbors", minimum=1)
    if k > n - 1:
        raise ValueError(f"n_neighbors must be <= n_samples - 1 = {n - 1}, got {k}.")
    check_choice(weights, "weights", {"heat", "binary"})
    check_choice(laplacian, "laplacian", {"unnormalized", "normalized"})
    D2 = cdist(X, X, "sqeuclidean")
    np.fill_diagonal(D2, np.inf)
    nn = np.argsort(D2, axis=1, kind="stable")[:, :k]
    A = np.zeros((n, n), dtype=bool)
    A[np.repeat(np.arange(n), k), nn.ravel()] = True
    A |= A.T
    if weights == "binary":
        W = A.astype(float)
    else:
        d2 = D2[A]
        scale = float(d2.mean()) if d2.size and d2.mean() > 0 else 1.0
        W = np.where(A, np.exp(-np.where(A, D2, 0.0) / scale), 0.0)
    deg = W.sum(axis=1)
    if laplacian == "unnormalized":
        return np.diag(deg) - W
    s = np.where(deg > 0, 1.0 / np.sqrt(np.where(deg > 0, deg, 1.0)), 0.0)
    return np.eye(n) - s[:, None] * W * s[None, :]


# --------------------------------------------------------------------------- solver
@dataclass(repr=False)
class LapSVMResult:
    """Solution of :func:`lapsvm`.

    Attributes
    ----------
    alpha : array (l+u,)
        Expansion coefficients over the training points (labelled first, as passed):
        ``f(x) = sum_i alpha_i k(x_i, x) + bias``.
    beta : array (l,)
        The labelled dual variables ``beta*`` (``0 <= beta <= 1/l``) of Belkin et al.
    bias : float
    gamma_A, gamma_I : float
    objective : float
        The LapSVM primal objective at the solution (hinge term, ``gamma_A`` term and
        ``gamma_I/(l+u)^2 f'Lf``).
    n_iter : int
        SMO two-variable updates.
    kkt_violation : float
        Of the SMO run (in the units of the scaled dual ``a = beta / (2 gamma_A)``).
    converged : bool
    seconds : float
    info : dict
        ``n_neighbors``, ``weights``, ``laplacian``, ``kernel``.
    """

    alpha: np.ndarray
    beta: np.ndarray
    bias: float
    gamma_A: float
    gamma_I: float
    objective: float
    n_iter: int
    kkt_violation: float
    converged: bool
    seconds: float
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"LapSVMResult(n={self.alpha.shape[0]}, objective={self.objective:.10g}, "
                f"bias={self.bias:.6g}, n_iter={self.n_iter}, converged={self.converged})")


def lapsvm(X_l, y_l, X_u, *, gamma_A, gamma_I, kernel="linear", n_neighbors=5,
           weights="heat", laplacian="unnormalized", eps=1e-3, max_iter=None) -> LapSVMResult:
    """Train a Laplacian SVM (Belkin et al. 2006, Sec. 4.3; see the module docstring).

    Parameters
    ----------
    X_l : array (l, d)
        Labelled points.
    y_l : array (l,)
        Their labels, +1 / -1 (0 / 1 accepted).
    X_u : array (u, d)
        Unlabelled points (``u = 0`` allowed).
    gamma_A : float > 0
        Ambient (RKHS) regularisation; ``gamma_A = 1 / (2 C l)`` gives the C-SVM with cost
        ``C`` when ``gamma_I = 0``.
    gamma_I : float >= 0
        Intrinsic (graph) regularisation; multiplied by ``1/(l+u)^2`` as in the paper.
    kernel : str or Kernel
    n_neighbors, weights, laplacian
        The graph; see :func:`knn_laplacian`.
    eps : float
        SMO tolerance.
    max_iter : int, optional
        Cap on SMO updates (default that of :func:`weaklabel.solvers.smo.smo`).

    Warns
    -----
    ConvergenceWarning
        When the SMO run stops at ``max_iter``.
    """
    X_l = check_matrix(X_l, "X_l", min_rows=2)
    y_l = check_labels_pm1(y_l, "y_l", n=X_l.shape[0])
    if np.all(y_l == y_l[0]):
        raise ValueError("y_l contains a single class; LapSVM needs both +1 and -1 labels.")
    X_u = check_matrix(X_u, "X_u", min_rows=0, n_features=X_l.shape[1])
    gamma_A = check_positive(gamma_A, "gamma_A")
    gamma_I = check_positive(gamma_I, "gamma_I", allow_zero=True)
    k = make_kernel(kernel)
    t0 = time.perf_counter()
    X = np.vstack([X_l, X_u])
    n, l = X.shape[0], X_l.shape[0]
    K = gram(X, X, k)
    if gamma_I > 0 and n > 2:
        Lap = knn_laplacian(X, min(n_neighbors, n - 1), weights=weights, laplacian=laplacian)
        A = 2.0 * gamma_A * np.eye(n) + (2.0 * gamma_I / n**2) * (Lap @ K)
        # M = A^{-1} J'  (n x l): the columns of A^{-1} of the labelled points
        M = np.linalg.solve(A, np.eye(n)[:, :l])
    else:
        Lap = None
        M = np.eye(n)[:, :l] / (2.0 * gamma_A)
    Kt = 2.0 * gamma_A * (K[:l] @ M)  # 2 gamma_A J K A^{-1} J'
    C = 1.0 / (2.0 * gamma_A * l)
    res = _GramSMO(Kt).solve(y_l, C, eps=eps, max_iter=max_iter)
    a = res.alpha
    beta = 2.0 * gamma_A * a
    alpha = M @ (y_l * beta)
    bias = -float(res.rho)
    seconds = time.perf_counter() - t0
    g = K @ alpha  # f without the bias
    hinge = float(np.maximum(0.0, 1.0 - y_l * (g[:l] + bias)).mean())
    obj = hinge + gamma_A * float(alpha @ g)
    if Lap is not None:  # the intrinsic term on K alpha (L 1 = 0 for L = D - W)
        obj += gamma_I / n**2 * float(g @ Lap @ g)
    return LapSVMResult(alpha=alpha, beta=beta, bias=bias, gamma_A=gamma_A, gamma_I=gamma_I,
                        objective=obj, n_iter=res.n_iter, kkt_violation=res.kkt_violation,
                        converged=res.converged, seconds=seconds,
                        info={"n_neighbors": n_neighbors, "weights": weights,
                              "laplacian": laplacian, "kernel": k})
