"""SMO for the SVM dual with one equality constraint: LIBSVM's ``Solver``, in numba.

Problem (Fan, Chen and Lin, JMLR 2005; LIBSVM ``svm.cpp``)::

    min_a  1/2 a' Q a + p' a   s.t.   y' a = y' a0,   0 <= a_i <= C_i,

with ``Q_ij = y_i y_j k(x_i, x_j)`` and ``y_i = +-1``. The C-SVM dual is ``p = -1``,
``a0 = 0``; other members of the family (one-class, epsilon-SVR, the sub-problems of
multiple-kernel or label-generation methods) are other ``p``, ``C`` and feasible ``a0``.

The three ingredients that make LIBSVM fast, kept apart from one another:

* **working-set selection** (WSS2, second order): ``i`` maximises ``-y_i G_i`` over
  ``I_up``; ``j`` minimises ``-(b_ij)^2 / a_ij`` over the violating ``j in I_low``, with
  ``a_ij = Q_ii + Q_jj - 2 y_i y_j Q_ij`` (replaced by ``TAU = 1e-12`` when not positive);
  stop when ``m(a) - M(a) <= eps``;
* **kernel rows** from an LRU cache within a memory budget (never the full Gram matrix);
  a row is computed only over the *active* columns while the active set shrinks;
* **shrinking**: every ``min(n, 1000)`` iterations, variables at a bound that cannot enter
  a violating pair are removed from the active set; the gradient of the removed ones is
  rebuilt from ``G_bar`` (the contribution of the variables at their upper bound) when
  the active problem is solved to ``10 eps`` and at the end, and the solver then checks
  the whole problem again (LIBSVM's ``do_shrinking`` / ``reconstruct_gradient``).

The result is the LIBSVM solution: ``alpha``, the gradient ``G = Q a + p``, the bias
``rho`` (``f(x) = sum_i a_i y_i k(x_i, x) - rho``) and the iteration count.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba as nb
import numpy as np

from .._validation import (
    check_int,
    check_labels_pm1,
    check_matrix,
    check_positive,
    check_vector,
    warn_not_converged,
)
from ..kernels import (
    LINEAR,
    PRECOMPUTED,
    Kernel,
    cache_evict_lru,
    kernel_value,
    make_kernel_or_precomputed,
)

__all__ = ["SMOResult", "smo", "svc_dual", "smo_decision_function"]

_TAU = 1e-12
_LOWER, _UPPER, _FREE = 0, 1, 2


# --------------------------------------------------------------------------- numba core
@nb.njit(cache=True, nogil=True, inline="always")
def _status(a, c):
    if a >= c:
        return _UPPER
    if a <= 0.0:
        return _LOWER
    return _FREE


@nb.njit(cache=True, nogil=True)
def _q_row(i, full, X, y, code, params, active, active_size, data, slot_of, row_of, stamp,
           s_full, s_gen, gen, clock):
    """Slot holding row ``Q_i``: over all columns (``full``) or over the active ones.

    A row computed over the active set of generation ``gen`` stays valid while the active
    set only shrinks; every reconstruction of the gradient starts a new generation.
    ``clock[0]`` counts uses, ``clock[1]`` rows computed.
    """
    clock[0] += 1
    s = slot_of[i]
    if s >= 0 and (s_full[s] or (not full and s_gen[s] == gen)):
        stamp[s] = clock[0]
        return s
    if s < 0:
        s = cache_evict_lru(slot_of, row_of, stamp)
    xi = X[i]
    yi = y[i]
    row = data[s]
    if code == PRECOMPUTED:  # X is the Gram matrix: row i is X[i]
        if full:
            for j in range(X.shape[0]):
                row[j] = yi * y[j] * xi[j]
        else:
            for t in range(active_size):
                j = active[t]
                row[j] = yi * y[j] * xi[j]
    elif full:
        for j in range(X.shape[0]):
            row[j] = yi * y[j] * kernel_value(xi, X[j], code, params)
    else:
        for t in range(active_size):
            j = active[t]
            row[j] = yi * y[j] * kernel_value(xi, X[j], code, params)
    row_of[s] = i
    slot_of[i] = s
    s_full[s] = full
    s_gen[s] = gen
    stamp[s] = clock[0]
    clock[1] += 1
    return s


@nb.njit(cache=True, nogil=True)
def _select(y, G, alpha, C, QD, active, active_size, eps, X, code, params, data, slot_of,
            row_of, stamp, s_full, s_gen, gen, clock):
    """WSS2 (LIBSVM ``select_working_set``); returns ``(i, j, gap)``, ``i = -1`` if optimal."""
    gmax = -np.inf
    gmax2 = -np.inf
    imax = -1
    for t in range(active_size):
        k = active[t]
        st = _status(alpha[k], C[k])
        if y[k] > 0:
            if st != _UPPER and -G[k] >= gmax:
                gmax = -G[k]
                imax = k
        elif st != _LOWER and G[k] >= gmax:
            gmax = G[k]
            imax = k
    if imax < 0:
        return -1, -1, 0.0
    i = imax
    si = _q_row(i, False, X, y, code, params, active, active_size, data, slot_of, row_of,
                stamp, s_full, s_gen, gen, clock)
    qi = data[si]
    jmin = -1
    obj_min = np.inf
    for t in range(active_size):
        j = active[t]
        st = _status(alpha[j], C[j])
        if y[j] > 0:
            if st != _LOWER:
                diff = gmax + G[j]
                if G[j] >= gmax2:
                    gmax2 = G[j]
                if diff > 0.0:
                    quad = QD[i] + QD[j] - 2.0 * y[i] * qi[j]
                    o = -(diff * diff) / (quad if quad > 0.0 else _TAU)
                    if o <= obj_min:
                        jmin = j
                        obj_min = o
        elif st != _UPPER:
            diff = gmax - G[j]
            if -G[j] >= gmax2:
                gmax2 = -G[j]
            if diff > 0.0:
                quad = QD[i] + QD[j] + 2.0 * y[i] * qi[j]
                o = -(diff * diff) / (quad if quad > 0.0 else _TAU)
                if o <= obj_min:
                    jmin = j
                    obj_min = o
    gap = gmax + gmax2
    if gap < eps or jmin < 0:
        return -1, -1, gap
    return i, jmin, gap


@nb.njit(cache=True, nogil=True)
def _be_shrunk(k, gmax1, gmax2, y, G, alpha, C):
    st = _status(alpha[k], C[k])
    if st == _UPPER:
        return -G[k] > gmax1 if y[k] > 0 else -G[k] > gmax2
    if st == _LOWER:
        return G[k] > gmax2 if y[k] > 0 else G[k] > gmax1
    return False


@nb.njit(cache=True, nogil=True)
def _reconstruct(y, p, G, G_bar, alpha, C, active, active_size, X, code, params, data,
                 slot_of, row_of, stamp, s_full, s_gen, gen, clock, inactive_mark):
    """Gradient of the shrunk variables from ``G_bar`` and the free active ones."""
    n = y.shape[0]
    if active_size == n:
        return
    for k in range(n):
        inactive_mark[k] = True
    for t in range(active_size):
        inactive_mark[active[t]] = False
    for k in range(n):
        if inactive_mark[k]:
            G[k] = G_bar[k] + p[k]
    for t in range(active_size):
        i = active[t]
        if _status(alpha[i], C[i]) == _FREE:
            s = _q_row(i, True, X, y, code, params, active, active_size, data, slot_of,
                       row_of, stamp, s_full, s_gen, gen, clock)
            qi = data[s]
            ai = alpha[i]
            for k in range(n):
                if inactive_mark[k]:
                    G[k] += ai * qi[k]


@nb.njit(cache=True, nogil=True)
def _update_gbar(v, c, a_old, a_new, G_bar, X, y, code, params, active, active_size, data,
                 slot_of, row_of, stamp, s_full, s_gen, gen, clock):
    was_up = a_old >= c
    if was_up == (a_new >= c):
        return
    s = _q_row(v, True, X, y, code, params, active, active_size, data, slot_of, row_of,
               stamp, s_full, s_gen, gen, clock)
    qv = data[s]
    sign = -c if was_up else c
    for k in range(G_bar.shape[0]):
        G_bar[k] += sign * qv[k]


@nb.njit(cache=True, nogil=True)
def _smo_core(X, y, p, C, alpha, code, params, eps, max_iter, shrinking, n_slots):
    n = X.shape[0]
    data = np.empty((n_slots, n))
    slot_of = -np.ones(n, dtype=np.int64)
    row_of = -np.ones(n_slots, dtype=np.int64)
    stamp = -np.ones(n_slots, dtype=np.int64)
    s_full = np.zeros(n_slots, dtype=np.bool_)
    s_gen = -np.ones(n_slots, dtype=np.int64)
    clock = np.zeros(2, dtype=np.int64)
    inactive_mark = np.zeros(n, dtype=np.bool_)
    gen = 0
    QD = np.empty(n)
    for k in range(n):
        if code == PRECOMPUTED:
            QD[k] = X[k, k]
        else:
            QD[k] = kernel_value(X[k], X[k], code, params)
    active = np.arange(n)
    active_size = n
    # gradient G = Q a + p and G_bar = sum over upper-bound a_i of C_i Q_i
    G = p.copy()
    G_bar = np.zeros(n)
    for i in range(n):
        if alpha[i] > 0.0:
            s = _q_row(i, True, X, y, code, params, active, active_size, data, slot_of, row_of,
                       stamp, s_full, s_gen, gen, clock)
            qi = data[s]
            ai = alpha[i]
            for k in range(n):
                G[k] += ai * qi[k]
            if alpha[i] >= C[i]:
                for k in range(n):
                    G_bar[k] += C[i] * qi[k]
    it = 0
    counter = min(n, 1000) + 1
    unshrink = False
    gap = np.inf
    converged = False
    while it < max_iter:
        if shrinking:
            counter -= 1
            if counter == 0:
                counter = min(n, 1000)
                # ---- do_shrinking
                g1 = -np.inf  # max over I_up of -y G
                g2 = -np.inf  # max over I_low of y G
                for t in range(active_size):
                    k = active[t]
                    st = _status(alpha[k], C[k])
                    if y[k] > 0:
                        if st != _UPPER and -G[k] >= g1:
                            g1 = -G[k]
                        if st != _LOWER and G[k] >= g2:
                            g2 = G[k]
                    else:
                        if st != _UPPER and -G[k] >= g2:
                            g2 = -G[k]
                        if st != _LOWER and G[k] >= g1:
                            g1 = G[k]
                if not unshrink and g1 + g2 <= eps * 10.0:
                    unshrink = True
                    _reconstruct(y, p, G, G_bar, alpha, C, active, active_size, X, code,
                                 params, data, slot_of, row_of, stamp, s_full, s_gen, gen,
                                 clock, inactive_mark)
                    active_size = n
                    for k in range(n):
                        active[k] = k
                    gen += 1
                t = 0
                while t < active_size:
                    if _be_shrunk(active[t], g1, g2, y, G, alpha, C):
                        active_size -= 1
                        tmp = active[t]
                        active[t] = active[active_size]
                        active[active_size] = tmp
                    else:
                        t += 1
        i, j, gap = _select(y, G, alpha, C, QD, active, active_size, eps, X, code, params,
                            data, slot_of, row_of, stamp, s_full, s_gen, gen, clock)
        if i < 0:
            if active_size == n:
                converged = True
                break
            # optimal on the active set: rebuild the whole gradient, check everything
            _reconstruct(y, p, G, G_bar, alpha, C, active, active_size, X, code, params,
                         data, slot_of, row_of, stamp, s_full, s_gen, gen, clock,
                         inactive_mark)
            active_size = n
            for k in range(n):
                active[k] = k
            gen += 1
            i, j, gap = _select(y, G, alpha, C, QD, active, active_size, eps, X, code,
                                params, data, slot_of, row_of, stamp, s_full, s_gen, gen,
                                clock)
            if i < 0:
                converged = True
                break
            counter = 1  # shrink again at the next iteration
        it += 1
        # ---- two-variable update (LIBSVM Solver::Solve)
        si = _q_row(i, False, X, y, code, params, active, active_size, data, slot_of, row_of,
                    stamp, s_full, s_gen, gen, clock)
        sj = _q_row(j, False, X, y, code, params, active, active_size, data, slot_of, row_of,
                    stamp, s_full, s_gen, gen, clock)
        qi = data[si]
        qj = data[sj]
        ci = C[i]
        cj = C[j]
        ai_old = alpha[i]
        aj_old = alpha[j]
        ai = ai_old
        aj = aj_old
        if y[i] != y[j]:
            quad = QD[i] + QD[j] + 2.0 * qi[j]
            if quad <= 0.0:
                quad = _TAU
            delta = (-G[i] - G[j]) / quad
            diff = ai - aj
            ai += delta
            aj += delta
            if diff > 0.0:
                if aj < 0.0:
                    aj = 0.0
                    ai = diff
            elif ai < 0.0:
                ai = 0.0
                aj = -diff
            if diff > ci - cj:
                if ai > ci:
                    ai = ci
                    aj = ci - diff
            elif aj > cj:
                aj = cj
                ai = cj + diff
        else:
            quad = QD[i] + QD[j] - 2.0 * qi[j]
            if quad <= 0.0:
                quad = _TAU
            delta = (G[i] - G[j]) / quad
            tot = ai + aj
            ai -= delta
            aj += delta
            if tot > ci:
                if ai > ci:
                    ai = ci
                    aj = tot - ci
            elif aj < 0.0:
                aj = 0.0
                ai = tot
            if tot > cj:
                if aj > cj:
                    aj = cj
                    ai = tot - cj
            elif ai < 0.0:
                ai = 0.0
                aj = tot
        alpha[i] = ai
        alpha[j] = aj
        dai = ai - ai_old
        daj = aj - aj_old
        for t in range(active_size):
            k = active[t]
            G[k] += qi[k] * dai + qj[k] * daj
        # G_bar follows the variables that enter or leave their upper bound (full rows)
        _update_gbar(i, ci, ai_old, ai, G_bar, X, y, code, params, active, active_size, data,
                     slot_of, row_of, stamp, s_full, s_gen, gen, clock)
        _update_gbar(j, cj, aj_old, aj, G_bar, X, y, code, params, active, active_size, data,
                     slot_of, row_of, stamp, s_full, s_gen, gen, clock)
    if not converged:
        _reconstruct(y, p, G, G_bar, alpha, C, active, active_size, X, code, params, data,
                     slot_of, row_of, stamp, s_full, s_gen, gen, clock, inactive_mark)
        active_size = n
        for k in range(n):
            active[k] = k
        i, j, gap = _select(y, G, alpha, C, QD, active, active_size, eps, X, code, params,
                            data, slot_of, row_of, stamp, s_full, s_gen, gen + 1, clock)
    return G, it, converged, max(gap, 0.0), clock[1]


@nb.njit(cache=True, nogil=True)
def _rho(y, G, alpha, C):
    """Bias ``rho`` (LIBSVM ``calculate_rho``): mean of ``y_i G_i`` over free variables, else
    the midpoint of the feasible interval."""
    ub = np.inf
    lb = -np.inf
    tot = 0.0
    nfree = 0
    for k in range(y.shape[0]):
        yg = y[k] * G[k]
        st = _status(alpha[k], C[k])
        if st == _UPPER:
            if y[k] < 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        elif st == _LOWER:
            if y[k] > 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        else:
            nfree += 1
            tot += yg
    if nfree > 0:
        return tot / nfree
    if np.isinf(ub):
        return lb
    if np.isinf(lb):
        return ub
    return 0.5 * (ub + lb)


@nb.njit(cache=True, nogil=True)
def _decision(X, Xs, coef, rho, code, params):
    out = np.empty(X.shape[0])
    for r in range(X.shape[0]):
        acc = 0.0
        for t in range(Xs.shape[0]):
            acc += coef[t] * kernel_value(X[r], Xs[t], code, params)
        out[r] = acc - rho
    return out


# --------------------------------------------------------------------------- public API
@dataclass(repr=False)
class SMOResult:
    """Result of :func:`smo`.

    Attributes
    ----------
    alpha : array (n,)
        The dual solution ``a``.
    gradient : array (n,)
        ``G = Q a + p`` at the solution (rebuilt over every variable).
    rho : float
        Bias; the decision function is ``f(x) = sum_i a_i y_i k(x_i, x) - rho``.
    objective : float
        ``1/2 a' Q a + p' a``.
    n_iter : int
        Two-variable updates.
    kkt_violation : float
        ``max(0, m(a) - M(a))``, the maximal violation of WSS2's stopping rule.
    converged : bool
        ``kkt_violation <= eps`` before ``max_iter``.
    kernel_rows_computed : int
        Rows (full or over the active set) computed by the row cache.
    seconds : float
        Wall time of the numba core.
    info : dict
        ``kernel``, ``shrinking``, ``eps`` and ``cache_slots`` of the run.
    """

    alpha: np.ndarray
    gradient: np.ndarray
    rho: float
    objective: float
    n_iter: int
    kkt_violation: float
    converged: bool
    kernel_rows_computed: int
    seconds: float
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"SMOResult(n={self.alpha.shape[0]}, objective={self.objective:.10g}, "
                f"rho={self.rho:.6g}, n_iter={self.n_iter}, "
                f"kkt_violation={self.kkt_violation:.3g}, converged={self.converged})")


def smo(X, y, C=1.0, kernel="linear", *, p=None, alpha0=None, eps=1e-3, shrinking=True,
        cache_mb=200.0, max_iter=None) -> SMOResult:
    """Solve ``min 1/2 a'Qa + p'a, y'a = y'a0, 0 <= a <= C`` by SMO (LIBSVM's solver).

    Parameters
    ----------
    X : array (n, d), or (n, n) with ``kernel="precomputed"``
        Training points, or the Gram matrix ``K`` (row ``i`` of ``Q`` is then
        ``y_i y_j X[i, j]``; ``X`` should be symmetric positive semidefinite).
    y : array (n,) of +1 / -1
        Signs of ``Q_ij = y_i y_j k(x_i, x_j)`` and of the equality constraint.
    C : float or array (n,)
        Upper bounds ``C_i > 0``.
    kernel : str or Kernel
        See :func:`weaklabel.kernels.make_kernel`, or ``"precomputed"``.
    p : array (n,), optional
        Linear term; default ``-1`` (the C-SVM dual).
    alpha0 : array (n,), optional
        A feasible start (``0 <= alpha0 <= C``); it fixes the right-hand side ``y'alpha0``.
        Default 0.
    eps : float
        Stopping tolerance on ``m(a) - M(a)`` (LIBSVM's ``-e``, default 1e-3).
    shrinking : bool
        LIBSVM's shrinking heuristic (same solution, less work per iteration).
    cache_mb : float
        Budget of the kernel-row cache in MB (at least two rows are kept).
    max_iter : int, optional
        Cap on two-variable updates (default ``max(10_000_000, 100 n)``, as LIBSVM).

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` is reached before the stopping rule holds.
    """
    k: Kernel = make_kernel_or_precomputed(kernel)
    X = _check_points(X, k)
    n = X.shape[0]
    y = check_labels_pm1(y, "y", n=n)
    if np.ndim(C) == 0:
        Cv = np.full(n, check_positive(C, "C"))
    else:
        Cv = check_vector(C, "C", n=n)
        if np.any(Cv <= 0):
            raise ValueError("C must contain values > 0.")
    pv = -np.ones(n) if p is None else check_vector(p, "p", n=n)
    if alpha0 is None:
        a = np.zeros(n)
    else:
        a = check_vector(alpha0, "alpha0", n=n).copy()
        if np.any(a < 0) or np.any(a > Cv):
            raise ValueError("alpha0 must satisfy 0 <= alpha0 <= C (a feasible start).")
    eps = check_positive(eps, "eps")
    cache_mb = check_positive(cache_mb, "cache_mb")
    max_iter = max(10_000_000, 100 * n) if max_iter is None else check_int(
        max_iter, "max_iter", minimum=1)
    n_slots = int(max(2, min(n, cache_mb * 2**20 // (8 * n))))
    t0 = time.perf_counter()
    G, it, converged, gap, rows = _smo_core(X, np.ascontiguousarray(y, dtype=np.float64), pv,
                                            Cv, a, k.code, k.params, eps, max_iter,
                                            bool(shrinking), n_slots)
    seconds = time.perf_counter() - t0
    if not converged:
        warn_not_converged("smo", max_iter, gap, tol_param="eps")
    objective = float(0.5 * a @ (G + pv))
    return SMOResult(alpha=a, gradient=G, rho=float(_rho(y, G, a, Cv)), objective=objective,
                     n_iter=int(it), kkt_violation=float(gap), converged=bool(converged),
                     kernel_rows_computed=int(rows), seconds=seconds,
                     info={"kernel": k, "shrinking": bool(shrinking), "eps": eps,
                           "cache_slots": n_slots})


def _check_points(X, k: Kernel, name: str = "X"):
    """``X`` as a float matrix; with a precomputed kernel, a square Gram matrix."""
    X = check_matrix(X, name, min_rows=2)
    if k.code == PRECOMPUTED and X.shape[0] != X.shape[1]:
        raise ValueError(f"{name} must be the square (n, n) Gram matrix with "
                         f"kernel='precomputed', got shape {X.shape}.")
    return X


def svc_dual(X, y, C=1.0, kernel="linear", **kw) -> SMOResult:
    """The C-SVM dual ``min 1/2 a'Qa - 1'a, y'a = 0, 0 <= a <= C`` by :func:`smo`."""
    yv = check_labels_pm1(y, "y")
    if np.all(yv == yv[0]):
        raise ValueError("y contains a single class; a C-SVM needs both +1 and -1 labels.")
    return smo(X, yv, C, kernel, **kw)


def smo_decision_function(result: SMOResult, X_train, y, X, kernel=None) -> np.ndarray:
    """``f(x) = sum_i a_i y_i k(x_i, x) - rho`` over the support vectors (``a_i > 0``).

    With a precomputed kernel, ``X`` is the (m, n) kernel block ``k(x, x_i)`` between the
    new points and the training points (``X_train`` is then only used for ``n``).
    """
    k = make_kernel_or_precomputed(result.info["kernel"] if kernel is None else kernel)
    X_train = check_matrix(X_train, "X_train")
    if k.code == PRECOMPUTED:
        n = X_train.shape[0]
        y = check_labels_pm1(y, "y", n=n)
        X = check_matrix(X, "X", min_rows=0, n_features=n)
        sv = np.flatnonzero(result.alpha > 0)
        return X[:, sv] @ (result.alpha[sv] * y[sv]) - result.rho
    X = check_matrix(X, "X", min_rows=0, n_features=X_train.shape[1])
    y = check_labels_pm1(y, "y", n=X_train.shape[0])
    sv = np.flatnonzero(result.alpha > 0)
    coef = result.alpha[sv] * y[sv]
    if k.code == LINEAR:
        return X @ (X_train[sv].T @ coef) - result.rho
    return _decision(X, np.ascontiguousarray(X_train[sv]), coef, result.rho, k.code,
                     k.params)

