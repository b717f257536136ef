"""Large-scale linear path: dual coordinate descent on CSR rows (no kernel matrix).

The linear SVM dual (Hsieh, Chang, Lin, Keerthi and Sundararajan, ICML 2008, Eq. (4); the
algorithm of LIBLINEAR's ``-s 1`` / ``-s 3``)::

    min_a  1/2 a' Qbar a - 1'a   s.t.  0 <= a_i <= U_i,
    Qbar = Q + D,  Q_ij = y_i y_j x_i'x_j,

with ``U_i = C_i, D_ii = 0`` for the hinge (L1) loss and ``U_i = inf, D_ii = 1/(2 C_i)`` for
the squared hinge (L2) loss. One coordinate at a time, in a random order per epoch
(Hsieh et al. 2008, Algorithm 1 with random permutation), keeping ``w = sum_i a_i y_i x_i``
so that the gradient ``G_i = y_i w'x_i - 1 + D_ii a_i`` costs the non-zeros of ``x_i``:
one epoch is ``O(nnz(X))`` and ``X X'`` is never formed. The projected gradient ``PG_i``
gives the stopping rule ``max PG - min PG <= tol`` and the shrinking heuristic (Hsieh et
al. 2008, Section 3.2 / Algorithm 3).

The same core solves the label-kernel dual of WellSVM with a linear kernel (Li, Tsang, Kwok
and Zhou, JMLR 2013, Section 4.1.2, the dual of the MKL primal Eq. (16)): with
``Q = sum_t mu_t (y_t y_t') o (X X')`` it keeps one vector ``v_t = sum_i a_i y_ti x_i``
per label vector, and the coordinate gradient is
``sum_t mu_t y_ti v_t'x_i - 1 (+ D_ii a_i)``: ``O(T nnz(X))`` per epoch
(:func:`linear_label_kernel_dual`). :func:`linear_mlkl` runs the MKLGL alternation of the
paper (Eq. (15), Xu et al. 2010) on it, and :func:`linear_oracle_scores` gives the linear
term ``r = H y`` of the violated-label oracles in ``O(nnz)`` (Li et al. 2013, footnote 3:
``r = a o X(X'(a o y))``), after which the ``O(N log N)`` sorting (Eq. (22)) and band
(Eqs. (37)-(38)) oracles of :mod:`weaklabel.solvers.wellsvm` apply unchanged;
:func:`linear_violated_label` is the whole violated-label search done that way.

Input ``X``: a ``scipy.sparse`` matrix (CSR or anything convertible; unsorted indices,
duplicate entries and explicit zeros are put in canonical form on a copy, a canonical CSR is
used without copying) or a dense array (converted to CSR).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba as nb
import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from .._validation import (
    check_choice,
    check_int,
    check_matrix,
    check_positive,
    check_vector,
    warn_not_converged,
)

__all__ = ["LinearCDResult", "LinearMLKLResult", "linear_label_kernel_dual",
           "linear_label_quadratic", "linear_mlkl", "linear_oracle_scores",
           "linear_svm_dual_cd", "linear_violated_label", "wellsvm_linear_clustering",
           "wellsvm_linear_ssl"]

_INF = np.inf


# --------------------------------------------------------------------------- input
def _csr_input(X, name: str = "X", *, allow_empty_rows: bool = False,
               empty_hint: str = "drop these rows"):
    """``(indptr, indices, data, n, d)`` of ``X`` in canonical CSR (sorted, no duplicates, no
    explicit zeros), copying only when ``X`` is not already so."""
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array or a scipy.sparse matrix.")
    if sp.issparse(X):
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got shape {X.shape}.")
        if np.iscomplexobj(X.data):
            raise ValueError(f"{name} is complex. Complex data not supported; pass real values.")
        A = X if X.format == "csr" else X.tocsr()
        if A.dtype != np.float64:
            A = A.astype(np.float64)
        if not np.all(np.isfinite(A.data)):
            bad = int(np.sum(~np.isfinite(A.data)))
            raise ValueError(f"{name} contains {bad} NaN or infinite value(s) in its data; "
                             "impute or drop them first.")
        canonical = A.has_canonical_format and not np.any(A.data == 0.0)
        if not canonical:
            A = A.copy()
            A.sum_duplicates()  # sorts the indices, merges duplicates
            A.eliminate_zeros()
    else:
        D = check_matrix(X, name)
        A = sp.csr_matrix(D)
    n, d = A.shape
    if n < 1 or d < 1:
        raise ValueError(f"{name} has shape {A.shape}; at least one row and one column "
                         "are required.")
    idx_t = np.int32 if max(A.nnz, d) < 2**31 - 1 else np.int64
    indptr = A.indptr.astype(idx_t, copy=False)
    indices = A.indices.astype(idx_t, copy=False)
    if not allow_empty_rows:
        empty = np.flatnonzero(np.diff(indptr) == 0)
        if empty.size:
            raise ValueError(
                f"{name} has {empty.size} all-zero row(s) (first: row {int(empty[0])}); such "
                "a point has no curvature in the dual without an offset (x_i'x_i = 0) and "
                f"does not change the solution: {empty_hint}.")
    return indptr, indices, A.data, n, d


def _bounds(C, n: int, name: str = "C") -> np.ndarray:
    """Per-sample costs ``C_i > 0`` (finite) from a float or an array of length ``n``."""
    if np.ndim(C) == 0:
        return np.full(n, check_positive(C, name))
    c = check_vector(C, name, n=n)
    if np.any(c <= 0):
        raise ValueError(f"{name} must hold values > 0, got min {c.min():.6g}.")
    return np.ascontiguousarray(c)


def _seed(random_state) -> int:
    return int(check_random_state(random_state).randint(0, 2**31 - 1))


# --------------------------------------------------------------------------- numba core
@nb.njit(cache=True, inline="always")
def _xorshift(x):
    """One step of Marsaglia's xorshift64 generator (the per-epoch permutations)."""
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    return x


@nb.njit(cache=True, nogil=True)
def _dcd_core(indptr, indices, data, bval, Z, mu, diag, U, QD, alpha, V, index, tol,
              max_iter, shrinking, seed):
    """Dual CD with shrinking on ``min 1/2 a'(sum_t mu_t Z_t Z_t' o XX' + D)a - 1'a``.

    ``V[:, t]`` is ``sum_i a_i Z[i, t] x_i`` (last row: the constant feature ``bval`` when
    ``V`` has one more row than ``X`` has columns). ``V`` is stored feature-major,
    ``(d + 1, T)``, so that the ``T`` values of one feature are adjacent in memory: a
    non-zero of ``x_i`` then touches one cache line instead of ``T``. ``index`` is scratch
    (n,). Returns ``(n_iter, converged, violation)``; ``violation`` is ``max PG - min PG`` of
    the last full pass.
    """
    n = alpha.shape[0]
    T = Z.shape[1]
    dcol = V.shape[0] - 1
    has_b = bval != 0.0
    state = np.uint64(seed) * np.uint64(2654435761) + np.uint64(88172645463325252)
    dots = np.empty(T)
    for i in range(n):
        index[i] = i
    active = n
    pg_max_old = np.inf
    pg_min_old = -np.inf
    it = 0
    converged = False
    viol = np.inf
    while it < max_iter:
        # random permutation of the active coordinates (Fisher-Yates)
        for s in range(active - 1, 0, -1):
            state = _xorshift(state)
            j = np.int64(state % np.uint64(s + 1))
            tmp = index[s]
            index[s] = index[j]
            index[j] = tmp
        pg_max = -np.inf
        pg_min = np.inf
        s = 0
        while s < active:
            i = index[s]
            a0 = alpha[i]
            # dots[t] = v_t'x_i
            if T == 1:  # the plain SVM: a scalar accumulator
                acc = 0.0
                for k in range(indptr[i], indptr[i + 1]):
                    acc += V[indices[k], 0] * data[k]
                dots[0] = acc
            else:
                for t in range(T):
                    dots[t] = 0.0
                for k in range(indptr[i], indptr[i + 1]):
                    c = indices[k]
                    x = data[k]
                    for t in range(T):
                        dots[t] += V[c, t] * x
            if has_b:
                for t in range(T):
                    dots[t] += V[dcol, t] * bval
            g = -1.0 + diag[i] * a0
            for t in range(T):
                g += mu[t] * Z[i, t] * dots[t]
            pg = 0.0
            if a0 == 0.0:
                if g > pg_max_old:
                    active -= 1
                    index[s] = index[active]
                    index[active] = i
                    continue
                if g < 0.0:
                    pg = g
            elif a0 == U[i]:
                if g < pg_min_old:
                    active -= 1
                    index[s] = index[active]
                    index[active] = i
                    continue
                if g > 0.0:
                    pg = g
            else:
                pg = g
            if pg > pg_max:
                pg_max = pg
            if pg < pg_min:
                pg_min = pg
            if abs(pg) > 1e-12:
                a1 = a0 - g / QD[i]
                if a1 < 0.0:
                    a1 = 0.0
                elif a1 > U[i]:
                    a1 = U[i]
                delta = a1 - a0
                if delta != 0.0:
                    alpha[i] = a1
                    if T == 1:
                        dz = delta * Z[i, 0]
                        for k in range(indptr[i], indptr[i + 1]):
                            V[indices[k], 0] += dz * data[k]
                    else:
                        for k in range(indptr[i], indptr[i + 1]):
                            c = indices[k]
                            x = delta * data[k]
                            for t in range(T):
                                V[c, t] += Z[i, t] * x
                    if has_b:
                        for t in range(T):
                            V[dcol, t] += Z[i, t] * delta * bval
            s += 1
        it += 1
        if active == 0:
            pg_max = 0.0
            pg_min = 0.0
        viol = pg_max - pg_min
        if viol <= tol:
            if active == n:
                converged = True
                break
            # check the whole problem again
            active = n
            pg_max_old = np.inf
            pg_min_old = -np.inf
            continue
        if shrinking:
            pg_max_old = pg_max if pg_max > 0.0 else np.inf
            pg_min_old = pg_min if pg_min < 0.0 else -np.inf
    return it, converged, viol


@nb.njit(cache=True, nogil=True)
def _accumulate(indptr, indices, data, bval, coef, V):
    """``V[:, t] = sum_i coef[i, t] x_i`` (last row: the constant feature; ``V`` is
    ``(d + 1, T)``)."""
    n = indptr.shape[0] - 1
    T = coef.shape[1]
    dcol = V.shape[0] - 1
    has_b = bval != 0.0
    for i in range(n):
        for k in range(indptr[i], indptr[i + 1]):
            c = indices[k]
            x = data[k]
            for t in range(T):
                V[c, t] += coef[i, t] * x
        if has_b:
            for t in range(T):
                V[dcol, t] += coef[i, t] * bval


@nb.njit(cache=True, nogil=True)
def _accumulate_scaled(indptr, indices, data, a, Z, V):
    """``V[:, t] = sum_i (a_i Z[i, t]) x_i`` without the bias row: :func:`_accumulate` with
    ``coef = a[:, None] * Z`` formed on the fly (the same products, in the same order)."""
    n = indptr.shape[0] - 1
    T = Z.shape[1]
    for i in range(n):
        for k in range(indptr[i], indptr[i + 1]):
            c = indices[k]
            x = data[k]
            for t in range(T):
                V[c, t] += (a[i] * Z[i, t]) * x


@nb.njit(cache=True, nogil=True)
def _row_dots(indptr, indices, data, bval, V, out):
    """``out[i, t] = v_t'x_i`` (with the constant feature when ``V``, ``(d + 1, T)``, has
    it). Each ``out[i, t]`` is summed over the non-zeros in index order, then the constant."""
    n = indptr.shape[0] - 1
    T = V.shape[1]
    dcol = V.shape[0] - 1
    has_b = bval != 0.0
    for i in range(n):
        for t in range(T):
            out[i, t] = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            c = indices[k]
            x = data[k]
            for t in range(T):
                out[i, t] += V[c, t] * x
        if has_b:
            for t in range(T):
                out[i, t] += V[dcol, t] * bval


@nb.njit(cache=True, nogil=True)
def _row_sqnorms(indptr, data, out):
    n = indptr.shape[0] - 1
    for i in range(n):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += data[k] * data[k]
        out[i] = s


# --------------------------------------------------------------------------- plain SVM
@dataclass(repr=False)
class LinearCDResult:
    """Result of :func:`linear_svm_dual_cd` and :func:`linear_label_kernel_dual`.

    Attributes
    ----------
    w : array (d,) or (T, d)
        :func:`linear_svm_dual_cd`: the primal weights ``w = sum_i a_i y_i x_i`` (without the
        bias). :func:`linear_label_kernel_dual`: ``V`` with rows ``v_t = sum_i a_i y_ti x_i``
        (the MKL weights of Eq. (16) are ``w_t = mu_t v_t``).
    alpha : array (n,)
        The dual solution.
    objective : float
        :func:`linear_svm_dual_cd`: the primal objective ``1/2 |w|^2 (+ 1/2 b^2) + sum_i C_i
        loss_i``. :func:`linear_label_kernel_dual`: the dual objective in minimisation form
        ``1/2 a'Qa + 1/2 a'Da - 1'a`` (as ``label_kernel_dual``).
    dual_objective : float
        ``1'a - 1/2 a'(Q + D)a`` (maximisation form; ``<= `` the primal optimum).
    n_iter : int
        Epochs (passes over the active coordinates).
    converged : bool
        ``max PG - min PG <= tol`` on a full pass before ``max_iter``.
    violation : float
        ``max PG - min PG`` of the last pass.
    intercept : float
        The bias (weight of the appended constant feature; 0 without ``bias``).
    seconds : float
        Wall time of the numba core.
    info : dict
        ``loss``, ``bias``, ``tol``, ``shrinking``, ``seed``.
    """

    w: np.ndarray
    alpha: np.ndarray
    objective: float
    dual_objective: float
    n_iter: int
    converged: bool
    violation: float
    intercept: float = 0.0
    seconds: float = 0.0
    info: dict = field(default_factory=dict)

    @property
    def gap(self) -> float:
        """``objective - dual_objective`` for the plain SVM (duality gap, >= 0)."""
        return float(self.objective - self.dual_objective)

    def __repr__(self) -> str:
        return (f"LinearCDResult(n={self.alpha.shape[0]}, objective={self.objective:.10g}, "
                f"n_iter={self.n_iter}, violation={self.violation:.3g}, "
                f"converged={self.converged})")


def linear_svm_dual_cd(X, y, C=1.0, *, loss: str = "l1", bias: bool = False,
                       tol: float = 0.1, max_iter: int = 1000, shrinking: bool = True,
                       w0=None, alpha0=None, random_state=None) -> LinearCDResult:
    """Linear SVM by dual coordinate descent (Hsieh et al. 2008; LIBLINEAR ``-s 3``/``-s 1``).

    Primal::

        min_w  1/2 |w|^2 + sum_i C_i max(0, 1 - y_i w'x_i)          (loss="l1")
        min_w  1/2 |w|^2 + sum_i C_i max(0, 1 - y_i w'x_i)^2        (loss="l2")

    solved through its box dual (module docstring). With ``bias=True`` the constant feature
    1 is appended to every ``x_i`` (LIBLINEAR ``-B 1``, scikit-learn's ``LinearSVC`` with
    ``intercept_scaling=1``): the bias is regularised like a weight.

    Parameters
    ----------
    X : scipy.sparse matrix or array (n, d)
        CSR is used as is when canonical (sorted indices, no duplicates, no explicit zeros),
        otherwise a canonical copy is made; dense input is converted to CSR.
    y : array (n,) of +1 / -1
    C : float or array (n,)
        Costs ``C_i > 0`` (e.g. ``C1`` on labelled and ``C2`` on unlabelled points).
    loss : {"l1", "l2"}
        Hinge or squared hinge.
    bias : bool
        Append the constant feature 1.
    tol : float
        Stop when ``max_i PG_i - min_i PG_i <= tol`` over a full pass (LIBLINEAR's ``-e``,
        default 0.1 as there).
    max_iter : int
        Cap on epochs; a ``ConvergenceWarning`` is emitted when it is reached.
    shrinking : bool
        Hsieh et al. 2008, Algorithm 3 (the whole problem is checked again before stopping).
    w0 : array (d,) or (d + 1,), optional
        Must be given together with ``alpha0`` and equal ``sum_i alpha0_i y_i x_i`` (the
        state of a previous call, e.g. ``result.w`` with the intercept appended when
        ``bias``); saves one pass. Without ``w0`` the weights are rebuilt from ``alpha0``.
        A primal ``w0`` alone has no dual counterpart and is rejected.
    alpha0 : array (n,), optional
        Feasible start ``0 <= alpha0_i <= U_i`` (warm start; default 0).
    random_state : int, RandomState instance or None
        Seed of the per-epoch permutations.

    Returns
    -------
    LinearCDResult
    """
    check_choice(loss, "loss", {"l1", "l2"})
    indptr, indices, data, n, d = _csr_input(X, "X", allow_empty_rows=bool(bias),
                                             empty_hint="drop these rows (or use bias=True)")
    yv = check_vector(y, "y", n=n)
    if not np.all((yv == 1.0) | (yv == -1.0)):
        raise ValueError(f"y must hold labels +1 / -1, got values {np.unique(yv)[:5].tolist()}.")
    Cv = _bounds(C, n)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    if loss == "l1":
        U = Cv
        diag = np.zeros(n)
    else:
        U = np.full(n, _INF)
        diag = 0.5 / Cv
    bval = 1.0 if bias else 0.0
    Z = np.ascontiguousarray(yv[:, None])
    mu = np.ones(1)
    sq = np.empty(n)
    _row_sqnorms(indptr, data, sq)
    QD = sq + bval * bval + diag
    alpha, V = _warm_start(alpha0, w0, U, n, d, bias, indptr, indices, data, bval, Z)
    seed = _seed(random_state)
    index = np.empty(n, dtype=np.int64)
    t0 = time.perf_counter()
    it, converged, viol = _dcd_core(indptr, indices, data, bval, Z, mu, diag, U, QD, alpha,
                                    V, index, tol, max_iter, bool(shrinking), seed)
    seconds = time.perf_counter() - t0
    if not converged:
        warn_not_converged("linear_svm_dual_cd", max_iter, viol,
                           what="projected-gradient range")
    w_full = V[:, 0]
    margins = np.empty((n, 1))
    _row_dots(indptr, indices, data, bval, V, margins)
    xi = np.maximum(0.0, 1.0 - yv * margins[:, 0])
    wn = float(w_full @ w_full)
    loss_sum = float(Cv @ (xi if loss == "l1" else xi * xi))
    primal = 0.5 * wn + loss_sum
    dual = float(alpha.sum() - 0.5 * wn - 0.5 * diag @ (alpha * alpha))
    w = w_full[:d].copy()
    b = float(w_full[d]) if bias else 0.0
    return LinearCDResult(w=w, alpha=alpha, objective=primal, dual_objective=dual,
                          n_iter=int(it), converged=bool(converged), violation=float(viol),
                          intercept=b, seconds=seconds,
                          info={"loss": loss, "bias": bool(bias), "tol": tol,
                                "shrinking": bool(shrinking), "seed": seed})


def _warm_start(alpha0, w0, U, n, d, bias, indptr, indices, data, bval, Z):
    """``alpha`` and ``V`` (d + 1, T) from the warm start (zeros by default)."""
    T = Z.shape[1]
    V = np.zeros((d + 1, T))  # the last row holds the constant feature (unused if no bias)
    if alpha0 is None:
        if w0 is not None:
            raise ValueError("w0 must be given together with alpha0 (the dual state); a "
                             "primal w0 alone has no dual counterpart.")
        return np.zeros(n), V
    a = check_vector(alpha0, "alpha0", n=n).copy()
    if np.any(a < 0) or np.any(a > U):
        raise ValueError("alpha0 must satisfy 0 <= alpha0_i <= C_i (a feasible start).")
    if w0 is not None:
        if T != 1:
            raise ValueError("w0 is only accepted by linear_svm_dual_cd.")
        wv = check_vector(w0, "w0")
        if wv.shape[0] not in (d, d + 1) or (bias and wv.shape[0] != d + 1):
            raise ValueError(f"w0 must have length {d + 1 if bias else d} (d features"
                             f"{' plus the intercept' if bias else ''}), got {wv.shape[0]}.")
        V[:wv.shape[0], 0] = wv
    else:
        _accumulate(indptr, indices, data, bval, np.ascontiguousarray(a[:, None] * Z), V)
    return a, V


# --------------------------------------------------------------------------- label kernel
def _labels(labels, n: int, name: str = "labels") -> np.ndarray:
    """Label vectors as a C-contiguous ``(n, T)`` array of +1 / -1 from ``(T, n)``/``(n,)``."""
    L = np.asarray(labels, dtype=np.float64)
    if L.ndim == 1:
        L = L[None, :]
    if L.ndim != 2 or L.shape[0] < 1 or L.shape[1] != n:
        raise ValueError(f"{name} must be a (T, n={n}) array of +1/-1 label vectors, got "
                         f"shape {np.shape(labels)}.")
    if not np.all((L == 1.0) | (L == -1.0)):
        raise ValueError(f"{name} must contain only +1 and -1.")
    return np.ascontiguousarray(L.T)


def _weights(mu, T: int) -> np.ndarray:
    if np.ndim(mu) == 0:
        mu = np.full(T, float(mu))
    m = check_vector(mu, "mu", n=T)
    if np.any(m < 0) or m.sum() <= 0:
        raise ValueError("mu must contain values >= 0 with a positive sum.")
    return np.ascontiguousarray(m)


def linear_label_kernel_dual(X, labels, mu, C=1.0, *, diag=None, alpha0=None,
                             tol: float = 1e-3, max_iter: int = 1000, shrinking: bool = True,
                             random_state=0) -> LinearCDResult:
    """WellSVM's inner dual with a linear kernel, by dual coordinate descent.

    ``min_a 1/2 a'(Q + D)a - 1'a`` s.t. ``0 <= a_i <= C_i`` with
    ``Q = sum_t mu_t (y_t y_t') o (X X')`` (Li et al. 2013, Eq. (15) at fixed ``mu``, the
    dual of the MKL primal Eq. (16)). Keeps ``v_t = sum_i a_i y_ti x_i`` for every label
    vector; the coordinate gradient is ``sum_t mu_t y_ti v_t'x_i - 1 + D_ii a_i``, one epoch
    costs ``O(T nnz(X))`` and the memory is ``O(n + T d)`` beyond ``X``.

    Parameters
    ----------
    X : scipy.sparse matrix or array (n, d)
    labels : array (T, n) of +1 / -1
    mu : array (T,) or float
        Kernel weights ``mu_t >= 0``.
    C : float or array (n,)
        Upper bounds ``C_i > 0`` (``C1`` labelled, ``C2`` unlabelled).
    diag : float or array (n,), optional
        ``D_ii >= 0`` added to ``Q`` (default 0).
    alpha0 : array (n,), optional
        Feasible warm start.
    tol : float
        Projected-gradient stopping rule ``max PG - min PG <= tol``. Note the rule of
        ``label_kernel_dual`` (``eps``) is the largest violation ``max |PG|``; the range
        used here is at most twice that.
    max_iter : int
        Cap on epochs (``ConvergenceWarning`` when reached).
    shrinking : bool
    random_state : int, RandomState instance or None

    Returns
    -------
    LinearCDResult
        ``w`` is ``V`` (T, d); ``objective`` is ``1/2 a'(Q + D)a - 1'a``.
    """
    indptr, indices, data, n, d = _csr_input(X, "X")
    Z = _labels(labels, n)
    T = Z.shape[1]
    muv = _weights(mu, T)
    Cv = _bounds(C, n)
    dv = _diag(diag, n)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    if alpha0 is not None:
        alpha0 = check_vector(alpha0, "alpha0", n=n)
    sq = np.empty(n)
    _row_sqnorms(indptr, data, sq)
    return _lk_solve(indptr, indices, data, n, d, Z, muv, Cv, dv, sq, alpha0, tol, max_iter,
                     bool(shrinking), _seed(random_state))


def _diag(diag, n: int) -> np.ndarray:
    """``D_ii >= 0`` as an array (n,) from None (zeros), a float or an array."""
    if diag is None:
        return np.zeros(n)
    if np.ndim(diag) == 0:
        return np.full(n, check_positive(diag, "diag", allow_zero=True))
    dv = check_vector(diag, "diag", n=n)
    if np.any(dv < 0):
        raise ValueError("diag must contain values >= 0.")
    return np.ascontiguousarray(dv)


def _lk_solve(indptr, indices, data, n, d, Z, muv, Cv, dv, sq, alpha0, tol, max_iter,
              shrinking, seed) -> LinearCDResult:
    """:func:`linear_label_kernel_dual` on validated input: canonical CSR arrays, ``Z``
    (n, T) C-contiguous, ``sq`` the squared row norms. :func:`linear_mlkl` calls it once per
    MKL iteration without re-validating ``X`` and the labels."""
    if alpha0 is not None:
        a = np.array(alpha0, dtype=np.float64)
        if np.any(a < 0) or np.any(a > Cv):
            raise ValueError("alpha0 must satisfy 0 <= alpha0_i <= C_i (a feasible start).")
        V = np.zeros((d + 1, Z.shape[1]))
        _accumulate_scaled(indptr, indices, data, a, Z, V)
        alpha = a
    else:
        alpha, V = np.zeros(n), np.zeros((d + 1, Z.shape[1]))
    QD = sq * muv.sum() + dv  # (sum_t mu_t y_ti^2) x_i'x_i + D_ii
    index = np.empty(n, dtype=np.int64)
    t0 = time.perf_counter()
    it, converged, viol = _dcd_core(indptr, indices, data, 0.0, Z, muv, dv, Cv, QD, alpha,
                                    V, index, tol, max_iter, shrinking, seed)
    seconds = time.perf_counter() - t0
    if not converged:
        warn_not_converged("linear_label_kernel_dual", max_iter, viol,
                           what="projected-gradient range")
    Vd = np.ascontiguousarray(V[:d].T)
    quad = float(muv @ np.einsum("ij,ij->i", Vd, Vd)) + float(dv @ (alpha * alpha))
    objective = 0.5 * quad - float(alpha.sum())
    return LinearCDResult(w=Vd, alpha=alpha, objective=objective, dual_objective=-objective,
                          n_iter=int(it), converged=bool(converged), violation=float(viol),
                          seconds=seconds,
                          info={"tol": tol, "shrinking": bool(shrinking), "seed": seed,
                                "mu": muv.copy()})


@dataclass(repr=False)
class LinearMLKLResult:
    """Result of :func:`linear_mlkl`: the fields of ``weaklabel.solvers.wellsvm.MLKLResult``
    plus ``V``.

    Attributes
    ----------
    alpha : array (N,)
    mu : array (T,)
    objective : float
        ``max_a sum_t mu_t G(a, y_t)`` at the final ``mu`` (upper bound of the MLKL optimum).
    lower : float
        ``min_t G(alpha, y_t)`` (lower bound).
    gap : float
        ``objective - lower``.
    n_iter : int
        MKLGL iterations (inner solves).
    converged : bool
    history : list of float
    inner_iter : int
        Total inner epochs.
    stop_reason : str
        ``"gap"``, ``"change"``, ``"single"`` or ``"max_iter"``.
    V : array (T, d)
        ``v_t = sum_i a_i y_ti x_i`` at the last inner solve (the MKL weights are
        ``w_t = mu_t v_t`` for the ``mu`` of that solve).
    """

    alpha: np.ndarray
    mu: np.ndarray
    objective: float
    lower: float
    gap: float
    n_iter: int
    converged: bool
    history: list = field(default_factory=list)
    inner_iter: int = 0
    stop_reason: str = "max_iter"
    V: np.ndarray | None = None

    def __repr__(self) -> str:
        return (f"LinearMLKLResult(T={self.mu.shape[0]}, objective={self.objective:.10g}, "
                f"gap={self.gap:.3g}, n_iter={self.n_iter}, converged={self.converged})")


def linear_mlkl(X, labels, C=1.0, *, diag=None, mu0=None, alpha0=None, tol: float = 1e-3,
                max_iter: int = 100, inner_tol: float = 1e-3, inner_max_iter: int = 1000,
                change_tol=None, random_state=0) -> LinearMLKLResult:
    """Eq. (15) of Li et al. 2013 with a linear kernel, by MKLGL (Xu et al. 2010).

    The alternation of ``weaklabel.solvers.wellsvm.mlkl`` (the hinge box dual, ``problem=
    "box"``) with :func:`linear_label_kernel_dual` as the inner solver: (a) the inner dual at
    fixed ``mu`` (warm-started from the previous ``alpha``); (b) ``mu_t <- mu_t sqrt(q_t)``
    normalised, where ``q_t = a'(K o y_t y_t')a = |v_t|^2`` comes for free from the kept
    vectors ``v_t`` (``|w_t| = mu_t |v_t|``, derived from the primal Eq. (16)).

    Stopping as ``mlkl``: relative gap ``(J - min_t G(a, y_t)) / max(|J|, 1e-12) <= tol``,
    or relative decrease of ``J`` below ``change_tol`` (default ``tol / 100``), or
    ``max_iter`` inner solves; a single label vector needs one solve.

    Parameters
    ----------
    X : scipy.sparse matrix or array (N, d)
    labels : array (T, N) of +1 / -1
    C : float or array (N,)
    diag : float or array (N,), optional
        ``D`` added to every base kernel (``G = 1'a - 1/2 a'(K o yy' + D)a``).
    mu0, alpha0 : warm starts (``mu0`` default uniform).
    tol, max_iter, change_tol : outer stopping rule.
    inner_tol, inner_max_iter : of :func:`linear_label_kernel_dual`.
    random_state : seed of the inner solves.

    Returns
    -------
    LinearMLKLResult
    """
    indptr, indices, data, n, d = _csr_input(X, "X")
    Zc = _labels(labels, n)
    Y = np.ascontiguousarray(Zc.T)
    T = Y.shape[0]
    Cv = _bounds(C, n)
    tol = check_positive(tol, "tol", allow_zero=True)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    if mu0 is None:
        mu = np.full(T, 1.0 / T)
    else:
        mu = check_vector(mu0, "mu0", n=T).copy()
        if np.any(mu < 0) or mu.sum() <= 0:
            raise ValueError("mu0 must be >= 0 with a positive sum.")
        mu /= mu.sum()
    change_tol = tol / 100.0 if change_tol is None else check_positive(
        change_tol, "change_tol", allow_zero=True)
    dv = _diag(diag, n)
    inner_tol = check_positive(inner_tol, "inner_tol")
    inner_max_iter = check_int(inner_max_iter, "inner_max_iter", minimum=1)
    if alpha0 is not None:
        alpha0 = check_vector(alpha0, "alpha0", n=n)
    # an int seed gives the same inner seed every time: draw it once (other random states
    # give a new seed per inner solve, as linear_label_kernel_dual would draw)
    fixed = random_state is None or isinstance(random_state, (int, np.integer))
    seed = _seed(random_state) if fixed and random_state is not None else None
    sq = np.empty(n)
    _row_sqnorms(indptr, data, sq)
    a = alpha0
    history: list = []
    inner = 0
    converged = False
    stop = "max_iter"
    obj = lower = np.inf
    V = None
    for _ in range(max_iter):
        res = _lk_solve(indptr, indices, data, n, d, Zc, np.ascontiguousarray(mu), Cv, dv,
                        sq, a, inner_tol, inner_max_iter, True,
                        _seed(random_state) if seed is None else seed)
        a = res.alpha
        V = res.w
        inner += res.n_iter
        obj = -res.objective
        history.append(obj)
        q = np.einsum("ij,ij->i", V, V)
        g = float(a.sum())
        if diag is not None:
            g -= 0.5 * float(np.broadcast_to(np.asarray(diag, dtype=np.float64), (n,))
                             @ (a * a))
        lower = g - 0.5 * float(q.max())
        scale = max(abs(obj), 1e-12)
        if T == 1:
            converged, stop = True, "single"
        elif obj - lower <= tol * scale:
            converged, stop = True, "gap"
        elif len(history) > 1 and history[-2] - obj < change_tol * scale:
            converged, stop = True, "change"
        wn = mu * np.sqrt(q)
        if converged or wn.sum() <= 0:
            converged = True
            stop = stop if stop != "max_iter" else "gap"
            break
        mu = wn / wn.sum()
    return LinearMLKLResult(alpha=a, mu=mu, objective=float(obj), lower=float(lower),
                            gap=float(max(obj - lower, 0.0)), n_iter=len(history),
                            converged=converged, history=history, inner_iter=inner,
                            stop_reason=stop, V=V)


# --------------------------------------------------------------------------- oracles
def linear_oracle_scores(X, alpha, labels, mu=None, *, return_decision: bool = False):
    """The linear term ``r = H y`` of the violated-label oracles in ``O(nnz(X))``.

    With ``H = (X X') o a a'`` and the combined label ``y = sum_t mu_t y_t``:
    ``u = X'(a o y)`` (= ``sum_t mu_t v_t``), ``f = X u`` and ``r = a o f`` (Li et al. 2013,
    Eq. (21)-(22) and footnote 3: with a linear kernel ``r`` costs ``O(nnz)`` instead of
    ``O(N^2)``). With one label vector ``y_bar`` (``mu`` = 1) this is the ``r`` of Eq. (22);
    ``f`` is the tie key ``f_y_bar(x_i)``. Pass ``r`` (and ``f``) to ``sort_oracle_ssl`` or
    ``band_oracle`` of :mod:`weaklabel.solvers.wellsvm`.

    Parameters
    ----------
    X : scipy.sparse matrix or array (N, d)
    alpha : array (N,)
    labels : array (T, N) or (N,) of +1 / -1
    mu : array (T,) or float, optional
        Weights (default 1 for every label vector).
    return_decision : bool
        Also return ``f``.

    Returns
    -------
    r : array (N,)
    f : array (N,), only with ``return_decision``
    """
    indptr, indices, data, n, d = _csr_input(X, "X", allow_empty_rows=True)
    a = check_vector(alpha, "alpha", n=n)
    Z = _labels(labels, n)
    muv = np.ones(Z.shape[1]) if mu is None else _weights(mu, Z.shape[1])
    coef = np.ascontiguousarray((a * (Z @ muv))[:, None])
    u = np.zeros((d + 1, 1))
    _accumulate(indptr, indices, data, 0.0, coef, u)
    f2 = np.empty((n, 1))
    _row_dots(indptr, indices, data, 0.0, u, f2)
    f = f2[:, 0]
    r = a * f
    return (r, f) if return_decision else r


def linear_label_quadratic(X, alpha, labels) -> np.ndarray:
    """``q_t = a'((X X') o y_t y_t')a = |X'(a o y_t)|^2`` for every label vector, in
    ``O(T nnz(X))`` (Li et al. 2013, footnote 3: ``o = X'(a o y)``, then ``o'o``).

    The linear counterpart of ``weaklabel.solvers.smo.label_kernel_quadratic``: the values
    ``y_t'Hy_t`` (``H = (X X') o aa'``) that pick ``y_bar`` in the violated-label search and
    drive the MKLGL weight update.
    """
    indptr, indices, data, n, d = _csr_input(X, "X", allow_empty_rows=True)
    a = check_vector(alpha, "alpha", n=n)
    Z = _labels(labels, n)
    V = np.zeros((d + 1, Z.shape[1]))
    _accumulate(indptr, indices, data, 0.0, np.ascontiguousarray(a[:, None] * Z), V)
    V = np.ascontiguousarray(V.T)
    return np.einsum("ij,ij->i", V, V)


def linear_violated_label(X, alpha, working_set, oracle, *, eps: float = 1e-3,
                          max_ascent: int = 100, use_tie: bool = True):
    """A violated label for ``alpha`` with a linear kernel (Li et al. 2013, Section 4.1.3).

    The search of ``weaklabel.solvers.wellsvm.violated_label`` with every product by
    ``K = X X'`` done on the rows of ``X``: ``y_bar = argmax_{y in C} |X'(a o y)|^2``, then
    ``y* = oracle(r, f)`` with ``f = X X'(a o y_bar)`` and ``r = a o f`` (Eq. (21)-(22)),
    repeated while ``y'Hy`` strictly increases (each accepted step violated by Prop. 4).
    Every step costs ``O(nnz(X))`` plus the oracle's ``O(N log N)`` sort, instead of the
    ``O(N^2)`` of a kernel (the paper's footnote 3).

    Parameters
    ----------
    X : scipy.sparse matrix or array (N, d)
    alpha : array (N,)
    working_set : array (T, N) of +1 / -1
    oracle : callable ``oracle(r, f) -> y``
        E.g. a ``functools.partial`` of ``sort_oracle_ssl`` or ``band_oracle``.
    eps, max_ascent, use_tie : as ``violated_label``.

    Returns
    -------
    weaklabel.solvers.wellsvm.ViolatedLabel
    """
    from .wellsvm import ViolatedLabel

    indptr, indices, data, n, d = _csr_input(X, "X", allow_empty_rows=True)
    a = check_vector(alpha, "alpha", n=n)
    Y = np.ascontiguousarray(_labels(working_set, n, "working_set").T)
    eps = check_positive(eps, "eps", allow_zero=True)
    max_ascent = check_int(max_ascent, "max_ascent", minimum=1)
    Xc = sp.csr_matrix((data, indices, indptr), shape=(n, d))
    q = linear_label_quadratic(Xc, a, Y)
    t_bar = int(np.argmax(q))
    working_max = float(q[t_bar])
    y_prev = Y[t_bar].copy()
    v_prev = working_max

    def f_of(y):
        return Xc @ (Xc.T @ (a * y))

    f = f_of(y_prev)
    prop4: dict = {}
    n_ascent = 0
    for step in range(max_ascent):
        r = a * f
        y = np.asarray(oracle(r, f if use_tie else None), dtype=np.float64)
        f_new = f_of(y)
        v = float((a * y) @ f_new)
        if step == 0:
            lin_new, lin_old = float(r @ y), float(r @ y_prev)
            scale = max(abs(lin_old), abs(v_prev), 1e-300)
            premise = lin_new > lin_old + 1e-12 * scale
            gain = v - v_prev
            prop4 = {"premise": bool(premise), "linear_new": lin_new, "linear_bar": lin_old,
                     "gain": gain, "holds": bool((not premise) or gain > -1e-10 * scale)}
        if v > v_prev * (1.0 + 1e-12) + 1e-300:
            y_prev, v_prev, f = y, v, f_new
            n_ascent += 1
        else:
            break
    violated = bool(n_ascent > 0 and v_prev > (1.0 + eps) * working_max)
    return ViolatedLabel(y=y_prev, value=v_prev, working_max=working_max, y_bar_index=t_bar,
                         n_ascent=n_ascent, violated=violated, prop4=prop4)


# --------------------------------------------------------------------------- WellSVM (linear)
def _linear_svc_init(Xc, y, mask, C1):
    """Decision values on every row of a C-SVM with bias (cost ``C1``) trained on the
    labelled rows: the initialisation of ``weaklabel.solvers.wellsvm.wellsvm`` (paper
    variant) with a linear kernel, computed from the ``l x l`` Gram block of the labelled
    rows only (``l`` is small) and one product with ``X``."""
    from .smo import svc_dual

    lab = np.flatnonzero(mask)
    Xl = Xc[lab]
    K = np.asarray((Xl @ Xl.T).todense())
    res = svc_dual(K, y[lab], C1, "precomputed", eps=1e-5)
    w = Xl.T @ (res.alpha * y[lab])
    return np.asarray(Xc @ w).ravel() - res.rho


def wellsvm_linear_ssl(X, y, C1=1.0, C2=0.1, *, init: str = "svc", eps: float = 1e-3,
                       thr: float = 1e-3, max_outer: int = 50, mkl_tol: float = 1e-3,
                       mkl_max_iter: int = 100, inner_tol: float = 1e-3,
                       inner_max_iter: int = 1000, random_state=0, verbose: bool = False):
    """WellSVM for semi-supervised learning on the linear path (Li et al. 2013, Algorithm 2
    with a linear kernel; Section 5.1.2, the large-scale experiments).

    ``weaklabel.solvers.wellsvm.label_generation`` with :func:`linear_mlkl` as the MLKL
    solver and :func:`linear_violated_label` with the sorting oracle of Eq. (22) (Prop. 5;
    ``n_- = ceil(u (1 - pi_L))`` negatives among the unlabelled points) as the label search:
    no ``N x N`` matrix is formed; an MKL epoch costs ``O(T nnz(X))`` and a label search
    ``O(nnz(X) + N log N)`` (the paper's footnote 3). The same loop, oracle, stopping rules
    and warm starts as ``wellsvm(..., kernel="linear", variant="paper")``.

    Parameters
    ----------
    X : scipy.sparse matrix or array (N, d)
        No all-zero rows.
    y : array (N,)
        +1 / -1 on labelled rows, 0 on unlabelled ones; both classes labelled.
    C1, C2 : float
        Costs of the labelled and unlabelled points (Eq. (13)).
    init : {"svc", "linear"}
        Initial labels: the decision values of a classifier trained on the labelled rows,
        thresholded on U with the balance of Prop. 5. ``"svc"``: a C-SVM with bias (the
        kernel path's ``wellsvm`` initialisation; ``l x l`` Gram block); ``"linear"``:
        :func:`linear_svm_dual_cd` with the constant feature (LIBLINEAR ``-B 1``).
    eps, thr, max_outer : label-generation stopping rules (relative violation, relative
        objective decrease, cap on added labels).
    mkl_tol, mkl_max_iter : MLKL stopping rule (:func:`linear_mlkl`).
    inner_tol, inner_max_iter : of :func:`linear_label_kernel_dual`.
    random_state : seed of the coordinate orders.
    verbose : bool

    Returns
    -------
    weaklabel.solvers.wellsvm.WellSVMResult
        ``info["w"]`` holds the primal weights: ``f(x) = w'x = sum_i coef_i x_i'x``.
    """
    from .wellsvm import _parse_target, label_generation, sort_oracle_ssl, ssl_n_pos

    t0 = time.perf_counter()
    indptr, indices, data, n, d = _csr_input(X, "X")
    if n < 2:
        raise ValueError(f"X must have at least 2 rows, got {n}.")
    Xc = sp.csr_matrix((data, indices, indptr), shape=(n, d))
    y, mask = _parse_target(y, n)
    C1 = check_positive(C1, "C1")
    C2 = check_positive(C2, "C2")
    check_choice(init, "init", {"svc", "linear"})
    eps = check_positive(eps, "eps", allow_zero=True)
    thr = check_positive(thr, "thr", allow_zero=True)
    max_outer = check_int(max_outer, "max_outer", minimum=1)
    mkl_max_iter = check_int(mkl_max_iter, "mkl_max_iter", minimum=1)
    Cvec = np.where(mask, C1, C2)
    u = int((~mask).sum())
    n_pos = ssl_n_pos(u, y[mask], "paper")
    y_l = y[mask]
    t_init = time.perf_counter()
    if init == "svc":
        f0 = _linear_svc_init(Xc, y, mask, C1)
    else:
        lab = np.flatnonzero(mask)
        r0 = linear_svm_dual_cd(Xc[lab], y[lab], C1, bias=True, tol=1e-3,
                                random_state=random_state)
        f0 = np.asarray(Xc @ r0.w).ravel() + r0.intercept
    y0 = sort_oracle_ssl(f0, f0, y_l, mask, n_pos)
    seconds_init = time.perf_counter() - t_init

    def oracle(r, f):
        return sort_oracle_ssl(r, f, y_l, mask, n_pos)

    def solve(labels, mu0, alpha0):
        return linear_mlkl(Xc, labels, Cvec, mu0=mu0, alpha0=alpha0, tol=mkl_tol,
                           max_iter=mkl_max_iter, inner_tol=inner_tol,
                           inner_max_iter=inner_max_iter, random_state=random_state)

    def find_violated(alpha, labels):
        return linear_violated_label(Xc, alpha, labels, oracle, eps=eps)

    res = label_generation(None, y0, Cvec, oracle, eps=eps, thr=thr, max_outer=max_outer,
                           mkl_tol=mkl_tol, mkl_max_iter=mkl_max_iter, inner_eps=inner_tol,
                           solve=solve, find_violated=find_violated,
                           name="wellsvm_linear_ssl", variant="linear", verbose=verbose,
                           stacklevel=4)
    w = np.asarray(Xc.T @ res.coef).ravel()
    res.seconds = time.perf_counter() - t0
    res.info.update(w=w, init_labels=y0, n_pos=n_pos, seconds_init=seconds_init, C1=C1,
                    C2=C2, kernel="linear", init=init)
    return res


def wellsvm_linear_clustering(X, C=1.0, beta=None, *, beta_fraction: float = 0.03,
                              n_init_draws: int = 20, random_state=None, eps: float = 1e-3,
                              thr: float = 1e-3, max_outer: int = 50, mkl_tol: float = 1e-3,
                              mkl_max_iter: int = 100, inner_tol: float = 1e-3,
                              inner_max_iter: int = 1000, verbose: bool = False):
    """WellSVM for maximum-margin clustering on the linear path (Li et al. 2013, Algorithm 4
    with a linear kernel; Section 5.3, Figs. 8-9).

    ``weaklabel.solvers.wellsvm.wellsvm_clustering`` with every kernel product done on the
    rows of ``X``: the initial labelling is the largest alignment ``y'XX'y = |X'y|^2`` of
    ``n_init_draws`` random balanced labellings (drawn as there, from ``random_state``); the
    MLKL by :func:`linear_mlkl`; violated labels by :func:`linear_violated_label` with the
    band oracle of Eqs. (37)-(38); labels equal to a working label up to sign are not
    added. The assignment is ``sign(w'x_i)``, re-balanced by sorting when ``|1'y| > beta``.

    Parameters
    ----------
    X : scipy.sparse matrix or array (N, d)
    C : float
    beta : float, optional
        Balance bound (a count, ``0 <= beta <= N``); default ``beta_fraction * N``
        (``weaklabel.solvers.wellsvm.clustering_beta``).
    beta_fraction, n_init_draws, random_state : as ``wellsvm_clustering``.
    eps, thr, max_outer, mkl_tol, mkl_max_iter : label-generation and MLKL settings.
    inner_tol, inner_max_iter : of :func:`linear_label_kernel_dual`.
    verbose : bool

    Returns
    -------
    weaklabel.solvers.wellsvm.WellSVMClusteringResult
        ``result.info["w"]`` holds the primal weights.
    """
    from .wellsvm import (
        WellSVMClusteringResult,
        _balanced_draws,
        band_oracle,
        clustering_beta,
        label_generation,
    )

    t0 = time.perf_counter()
    indptr, indices, data, n, d = _csr_input(X, "X")
    if n < 2:
        raise ValueError(f"X must have at least 2 rows, got {n}.")
    Xc = sp.csr_matrix((data, indices, indptr), shape=(n, d))
    C = check_positive(C, "C")
    if beta is None:
        beta = clustering_beta(n, beta_fraction)
    beta = check_positive(beta, "beta", allow_zero=True)
    if beta > n:
        raise ValueError(f"beta must lie in [0, N] = [0, {n}], got {beta}.")
    if n % 2 == 1 and beta < 1:
        raise ValueError(f"beta={beta} admits no labelling of an odd number N={n} of points "
                         "(|1'y| is odd); use beta >= 1.")
    n_init_draws = check_int(n_init_draws, "n_init_draws", minimum=1)
    max_outer = check_int(max_outer, "max_outer", minimum=1)
    rng = np.random.default_rng(random_state)
    draws = _balanced_draws(n, n_init_draws, rng)
    align = linear_label_quadratic(Xc, np.ones(n), draws)
    y0 = draws[int(np.argmax(align))].copy()

    def oracle(r, f):
        return band_oracle(r, beta, f)

    seed = 0 if random_state is None or not isinstance(random_state, int) else random_state

    def solve(labels, mu0, alpha0):
        return linear_mlkl(Xc, labels, C, mu0=mu0, alpha0=alpha0, tol=mkl_tol,
                           max_iter=mkl_max_iter, inner_tol=inner_tol,
                           inner_max_iter=inner_max_iter, random_state=seed)

    def find_violated(alpha, labels):
        return linear_violated_label(Xc, alpha, labels, oracle, eps=eps)

    res = label_generation(None, y0, C, oracle, eps=eps, thr=thr, max_outer=max_outer,
                           mkl_tol=mkl_tol, mkl_max_iter=mkl_max_iter, inner_eps=inner_tol,
                           sign_symmetric=True, solve=solve, find_violated=find_violated,
                           name="wellsvm_linear_clustering", variant="clustering",
                           verbose=verbose, stacklevel=4)
    w = np.asarray(Xc.T @ res.coef).ravel()
    f = np.asarray(Xc @ w).ravel()
    assignment = np.where(f >= 0, 1.0, -1.0)
    if abs(assignment.sum()) > beta:
        assignment = band_oracle(f, beta)
    q = np.maximum(linear_label_quadratic(Xc, res.alpha, res.labels), 0.0)
    sq = np.empty(n)
    _row_sqnorms(indptr, data, sq)
    res.info.update(kernel="linear", C=C, beta=beta, init_labels=y0,
                    init_alignment=float(align.max()), w=w)
    res.seconds = time.perf_counter() - t0
    return WellSVMClusteringResult(result=res, assignment=assignment, decision=f, beta=beta,
                                   selection_score=float(res.objective_path[-1]) / (C * n),
                                   radius_margin=float(sq.max()) * float(res.mu @ q) / n,
                                   init_labels=y0, seconds=res.seconds)
