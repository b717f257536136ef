"""TEMPORARY stand-in for the label-kernel dual solvers that :mod:`weaklabel.solvers.smo`
will provide (``label_kernel_dual``, ``KernelRowCache``, ``label_kernel_quadratic``).

Dense numpy/numba, correctness only: the full Gram matrix is built once and the duals are
solved by greedy coordinate descent (box) and by the two-coordinate pairwise method (simplex,
the "mu-SVM" of Scholkopf & Smola, solved by LIBSVM's one-class SVM with ``nu = 1/N``).
:mod:`weaklabel.solvers.wellsvm` imports the three names through one import line, to be
switched to ``from .smo import ...`` at integration, when this file is deleted.

Problems (``Q_ij = K_ij sum_t mu_t labels[t, i] labels[t, j] + delta_ij diag_i``)::

    box:     min 1/2 a'Qa - 1'a   s.t. 0 <= a_i <= C_i
    simplex: min 1/2 a'Qa         s.t. a >= 0, 1'a = 1
"""

from __future__ import annotations

import time

import numba as nb
import numpy as np

from .._validation import check_choice, check_int, check_matrix, check_positive, check_vector
from ..kernels import gram_block, make_kernel
from .smo import SMOResult


class KernelRowCache:
    """Dense stand-in of the row cache: the full Gram matrix ``K`` (``kernel="precomputed"``:
    ``X`` is ``K``)."""

    def __init__(self, X, kernel="linear", cache_mb: float = 200.0):
        if isinstance(kernel, str) and kernel == "precomputed":
            K = check_matrix(X, "X")
            if K.shape[0] != K.shape[1]:
                raise ValueError(f"X must be a square Gram matrix with kernel='precomputed', "
                                 f"got shape {K.shape}.")
            self.kernel = "precomputed"
        else:
            X = check_matrix(X, "X")
            k = make_kernel(kernel)
            K = gram_block(X, X, k.code, k.params)
            self.kernel = k
        self.K = np.ascontiguousarray(0.5 * (K + K.T))
        self.n = self.K.shape[0]

    def matvec(self, v) -> np.ndarray:
        """``K @ v``."""
        return self.K @ np.asarray(v, dtype=np.float64)


def label_kernel_quadratic(cache, labels, alpha) -> np.ndarray:
    """``q_t = (alpha * z_t)' K (alpha * z_t)`` for every row ``z_t`` of ``labels``."""
    Z = np.atleast_2d(np.asarray(labels, dtype=np.float64)) * np.asarray(alpha)[None, :]
    KZ = cache.K @ Z.T
    return np.einsum("it,ti->t", KZ, Z)


@nb.njit(cache=True, nogil=True)
def _box_cd(Q, C, a, eps, max_iter):
    n = Q.shape[0]
    G = Q @ a - 1.0
    it = 0
    viol = 0.0
    while True:
        best = -1
        viol = 0.0
        for i in range(n):
            g = G[i]
            if a[i] <= 0.0:
                pg = min(g, 0.0)
            elif a[i] >= C[i]:
                pg = max(g, 0.0)
            else:
                pg = g
            if abs(pg) > viol:
                viol = abs(pg)
                best = i
        if viol <= eps or it >= max_iter:
            break
        i = best
        new = a[i] - G[i] / max(Q[i, i], 1e-12)
        if new < 0.0:
            new = 0.0
        elif new > C[i]:
            new = C[i]
        d = new - a[i]
        a[i] = new
        for k in range(n):
            G[k] += d * Q[k, i]
        it += 1
    return G, it, viol


@nb.njit(cache=True, nogil=True)
def _simplex_pair(Q, a, eps, max_iter):
    n = Q.shape[0]
    G = Q @ a
    it = 0
    gap = 0.0
    while True:
        i = 0
        for k in range(1, n):
            if G[k] < G[i]:
                i = k
        j = -1
        gmax = -np.inf
        for k in range(n):
            if a[k] > 0.0 and G[k] > gmax:
                gmax = G[k]
                j = k
        gap = gmax - G[i]
        if gap <= eps or it >= max_iter or j == i:
            break
        quad = Q[i, i] + Q[j, j] - 2.0 * Q[i, j]
        t = gap / max(quad, 1e-12)
        if t > a[j]:
            t = a[j]
        a[i] += t
        a[j] -= t
        for k in range(n):
            G[k] += t * (Q[k, i] - Q[k, j])
        it += 1
    return G, it, max(gap, 0.0)


def label_kernel_dual(X, labels, mu, C=1.0, kernel="linear", *, problem="box", diag=None,
                      alpha0=None, eps=1e-3, shrinking=True, cache=None, cache_mb=200.0,
                      max_iter=None) -> SMOResult:
    """Dual with the label kernel ``Q = K o (sum_t mu_t z_t z_t') + diag`` (see the module
    docstring); TEMPORARY dense implementation."""
    check_choice(problem, "problem", {"box", "simplex"})
    if cache is None:
        cache = KernelRowCache(X, kernel, cache_mb)
    n = cache.n
    Y = np.atleast_2d(np.asarray(labels, dtype=np.float64))
    if Y.shape[1] != n:
        raise ValueError(f"labels must have {n} columns (one per row of X), got {Y.shape}.")
    mu = check_vector(mu, "mu", n=Y.shape[0])
    if np.any(mu < 0):
        raise ValueError("mu must be >= 0.")
    M = Y.T @ (mu[:, None] * Y)
    Q = cache.K * M
    if diag is not None:
        Q[np.diag_indices(n)] += check_vector(diag, "diag", n=n)
    eps = check_positive(eps, "eps")
    max_iter = 100_000 * max(1, n) if max_iter is None else check_int(max_iter, "max_iter",
                                                                        minimum=1)
    t0 = time.perf_counter()
    if problem == "box":
        Cv = np.full(n, check_positive(C, "C")) if np.ndim(C) == 0 else check_vector(C, "C",
                                                                                     n=n)
        a = np.zeros(n) if alpha0 is None else np.clip(check_vector(alpha0, "alpha0", n=n),
                                                       0.0, Cv)
        a = a.copy()
        G, it, viol = _box_cd(Q, Cv, a, eps, max_iter)
        objective = float(0.5 * a @ (G - 1.0))
    else:
        if alpha0 is None:
            a = np.full(n, 1.0 / n)
        else:
            a = np.clip(check_vector(alpha0, "alpha0", n=n), 0.0, None)
            a = a / a.sum() if a.sum() > 0 else np.full(n, 1.0 / n)
        a = a.copy()
        G, it, viol = _simplex_pair(Q, a, eps, max_iter)
        objective = float(0.5 * a @ G)
    seconds = time.perf_counter() - t0
    return SMOResult(alpha=a, gradient=G, rho=0.0, objective=objective, n_iter=int(it),
                     kkt_violation=float(viol), converged=bool(viol <= eps),
                     kernel_rows_computed=n, seconds=seconds,
                     info={"problem": problem, "eps": eps})

