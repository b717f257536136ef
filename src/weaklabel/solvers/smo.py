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
  a row is computed only over the *active* columns while the active set shrinks, and a
  cached row is *extended* to the columns it lacks when the active set grows again;
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
    check_choice,
    check_int,
    check_labels_pm1,
    check_matrix,
    check_positive,
    check_vector,
    warn_not_converged,
)
from ..kernels import _EVICTIONS as _ST_EVICTIONS
from ..kernels import (
    _FM,
    GAUSSIAN,
    LINEAR,
    PRECOMPUTED,
    Kernel,
    KernelRowCache,
    _cache_dtype,
    cache_budget,
    cache_get_row,
    cache_scan_row,
    kernel_value,
    make_kernel_or_precomputed,
    rc_get,
    rc_new,
    rc_swap_many,
)
from ..kernels import _GET_MISSES as _ST_GET_MISSES
from ..kernels import _GETS as _ST_GETS
from ..kernels import _VALUES as _ST_VALUES

__all__ = ["SMOResult", "smo", "svc_dual", "smo_decision_function", "KernelRowCache",
           "label_kernel_dual", "label_kernel_quadratic", "label_kernel_decision_function",
           "cache_matvec"]

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
def _fill_row(i, X, sp, y, code, params, perm, start, stop, row):
    """``row[t] = y_i y_j k(x_i, x_j)`` with ``j = perm[t]`` for ``t`` in ``start..stop-1``
    (the row's columns are in the cache's storage order ``perm``); returns the number computed.

    ``X`` holds dense rows, or is the Gram matrix (``code == PRECOMPUTED``), or, with
    ``sp[0]``, sparse rows (:func:`_fill_row_sparse`). The dense loop keeps the arithmetic
    of the first version of this solver (no reassociation), so that its results, used by
    the USMO pipeline, are reproduced bit for bit.
    """
    if sp[0]:
        return _fill_row_sparse(i, sp[1], sp[2], sp[3], sp[4], sp[5], y, code, params, perm,
                                start, stop, row)
    xi = X[i]
    yi = y[i]
    if code == PRECOMPUTED:  # X is the Gram matrix: row i is X[i]
        for t in range(start, stop):
            j = perm[t]
            row[t] = yi * y[j] * xi[j]
        return stop - start
    for t in range(start, stop):
        j = perm[t]
        row[t] = yi * y[j] * kernel_value(xi, X[j], code, params)
    return stop - start


@nb.njit(cache=True, nogil=True, fastmath=_FM)
def _fill_row_sparse(i, indptr, indices, vals, sq, buf, y, code, params, perm, start, stop,
                     row):
    """:func:`_fill_row` on CSR rows (``indptr, indices, vals``; ``sq`` the squared norms,
    ``buf`` a zero buffer of length d): the dot products run over the non-zeros of ``x_j``
    only (as LIBSVM's ``Kernel::dot``) and the Gaussian kernel is
    ``exp(-gamma (|x_i|^2 + |x_j|^2 - 2 x_i.x_j))`` (LIBSVM's ``kernel_rbf``; a negative
    rounding of the distance is clipped to 0). Fastmath flags of the kernel module
    (reassociation and contraction, not "no NaN")."""
    yi = y[i]
    for u in range(indptr[i], indptr[i + 1]):
        buf[indices[u]] = vals[u]
    g = params[0]
    sqi = sq[i]
    for t in range(start, stop):
        j = perm[t]
        dot = 0.0
        for u in range(indptr[j], indptr[j + 1]):
            dot += buf[indices[u]] * vals[u]
        if code == LINEAR:
            kv = dot
        elif code == GAUSSIAN:
            d2 = sqi + sq[j] - 2.0 * dot
            kv = np.exp(-g * (d2 if d2 > 0.0 else 0.0))
        else:
            kv = (g * dot + params[1]) ** params[2]
        row[t] = yi * y[j] * kv
    for u in range(indptr[i], indptr[i + 1]):
        buf[indices[u]] = 0.0
    return stop - start


@nb.njit(cache=True, nogil=True)
def _q_row(i, need, X, sp, y, code, params, perm, cs):
    """Row ``Q_i`` over the first ``need`` columns of the storage order ``perm`` (the active
    set is ``perm[:active_size]``; ``need = n`` for a whole row), from the row cache.

    The cache (:func:`weaklabel.kernels.rc_get`) keeps the values a row holds and only the
    columns it lacks are computed (LIBSVM's ``Cache::get_data``). Values are a function of
    ``(i, j)`` alone, so where they come from never changes the iterates.
    """
    start = rc_get(i, need, cs)
    row = cs[0][i]
    if start < need:
        cs[4][_ST_VALUES] += _fill_row(i, X, sp, y, code, params, perm, start, need, row)
    return row


@nb.njit(cache=True, nogil=True)
def _storage_swap(a, b, perm, pos):
    """Exchange the storage places ``a <= b`` of two variables in ``perm``/``pos`` (the cached
    rows follow, by :func:`weaklabel.kernels.rc_swap_many`, LIBSVM's ``swap_index``)."""
    ka = perm[a]
    kb = perm[b]
    perm[a] = kb
    perm[b] = ka
    pos[kb] = a
    pos[ka] = b


@nb.njit(cache=True, nogil=True)
def _select(y, G, alpha, C, QD, active, active_size, eps, X, sp, code, params, perm, pos, cs):
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
    qi = _q_row(i, active_size, X, sp, y, code, params, perm, cs)
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
                    quad = QD[i] + QD[j] - 2.0 * y[i] * qi[pos[j]]
                    o = -(diff * diff) / (quad if quad > 0.0 else _TAU)
                    if o <= obj_min:
                        jmin = j
                        obj_min = o
        elif st != _UPPER:
            diff = gmax - G[j]
            if -G[j] >= gmax2:
                gmax2 = -G[j]
            if diff > 0.0:
                quad = QD[i] + QD[j] + 2.0 * y[i] * qi[pos[j]]
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
def _reconstruct(y, p, G, G_bar, alpha, C, active, active_size, X, sp, code, params, perm,
                 cs):
    """Gradient of the shrunk variables (storage places ``active_size..n-1``) from ``G_bar``
    and the free active ones."""
    n = y.shape[0]
    if active_size == n:
        return
    for t in range(active_size, n):
        k = perm[t]
        G[k] = G_bar[k] + p[k]
    for t in range(active_size):
        i = active[t]
        if _status(alpha[i], C[i]) == _FREE:
            qi = _q_row(i, n, X, sp, y, code, params, perm, cs)
            ai = alpha[i]
            for u in range(active_size, n):
                G[perm[u]] += ai * qi[u]


@nb.njit(cache=True, nogil=True)
def _update_gbar(v, c, a_old, a_new, G_bar, X, sp, y, code, params, perm, cs):
    was_up = a_old >= c
    if was_up == (a_new >= c):
        return
    n = G_bar.shape[0]
    qv = _q_row(v, n, X, sp, y, code, params, perm, cs)
    sign = -c if was_up else c
    for t in range(n):
        G_bar[perm[t]] += sign * qv[t]


@nb.njit(cache=True, nogil=True)
def _smo_core(X, sp, y, p, C, alpha, code, params, eps, max_iter, shrinking, budget_values,
              proto):
    n = X.shape[0]
    # the row cache: one block when the budget holds every row, else rows on demand; row
    # values are in the storage order perm (pos its inverse), the active set first
    block = np.empty((n if budget_values >= n * n else 0, n), dtype=proto.dtype)
    cs = rc_new(n, budget_values, block)
    perm = np.arange(n)
    pos = np.arange(n)
    swaps = np.empty((n, 2), dtype=np.int64)
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
            qi = _q_row(i, n, X, sp, y, code, params, perm, cs)
            ai = alpha[i]
            for t in range(n):
                G[perm[t]] += ai * qi[t]
            if alpha[i] >= C[i]:
                for t in range(n):
                    G_bar[perm[t]] += C[i] * qi[t]
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
                    _reconstruct(y, p, G, G_bar, alpha, C, active, active_size, X, sp, code,
                                 params, perm, cs)
                    active_size = n
                    for k in range(n):
                        active[k] = k
                t = 0
                nsw = 0
                while t < active_size:
                    if _be_shrunk(active[t], g1, g2, y, G, alpha, C):
                        active_size -= 1
                        tmp = active[t]
                        active[t] = active[active_size]
                        active[active_size] = tmp
                        # storage follows: the active set keeps the first places
                        a_pl = pos[tmp]
                        if a_pl != active_size:
                            swaps[nsw, 0] = a_pl
                            swaps[nsw, 1] = active_size
                            nsw += 1
                            _storage_swap(a_pl, active_size, perm, pos)
                    else:
                        t += 1
                rc_swap_many(swaps, nsw, cs)
        i, j, gap = _select(y, G, alpha, C, QD, active, active_size, eps, X, sp, code, params,
                            perm, pos, cs)
        if i < 0:
            if active_size == n:
                converged = True
                break
            # optimal on the active set: rebuild the whole gradient, check everything
            _reconstruct(y, p, G, G_bar, alpha, C, active, active_size, X, sp, code, params,
                         perm, cs)
            active_size = n
            for k in range(n):
                active[k] = k
            i, j, gap = _select(y, G, alpha, C, QD, active, active_size, eps, X, sp, code,
                                params, perm, pos, cs)
            if i < 0:
                converged = True
                break
            counter = 1  # shrink again at the next iteration
        it += 1
        # ---- two-variable update (LIBSVM Solver::Solve)
        qi = _q_row(i, active_size, X, sp, y, code, params, perm, cs)
        qj = _q_row(j, active_size, X, sp, y, code, params, perm, cs)
        qij = qi[pos[j]]
        ci = C[i]
        cj = C[j]
        ai_old = alpha[i]
        aj_old = alpha[j]
        ai = ai_old
        aj = aj_old
        if y[i] != y[j]:
            quad = QD[i] + QD[j] + 2.0 * qij
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
            quad = QD[i] + QD[j] - 2.0 * qij
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
            k = perm[t]
            G[k] += qi[t] * dai + qj[t] * daj
        # G_bar follows the variables that enter or leave their upper bound (full rows)
        _update_gbar(i, ci, ai_old, ai, G_bar, X, sp, y, code, params, perm, cs)
        _update_gbar(j, cj, aj_old, aj, G_bar, X, sp, y, code, params, perm, cs)
    if not converged:
        _reconstruct(y, p, G, G_bar, alpha, C, active, active_size, X, sp, code, params, perm,
                     cs)
        active_size = n
        for k in range(n):
            active[k] = k
        i, j, gap = _select(y, G, alpha, C, QD, active, active_size, eps, X, sp, code, params,
                            perm, pos, cs)
    st = cs[4]
    return G, it, converged, max(gap, 0.0), st[_ST_GET_MISSES], st[_ST_VALUES], \
        st[_ST_EVICTIONS], st[_ST_GETS]


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


# --------------------------------------------------------------------------- label kernels
# WellSVM's inner problems (Li, Tsang, Kwok and Zhou, JMLR 2013, Eqs. (15)-(17) and the
# mu-SVM of Assumption 1): SVM duals on Q = K o M + diag(d), M = sum_t mu_t z_t z_t'.
# Rows of Q are built from cached rows of K (a KernelRowCache, kept across calls while mu
# and the label vectors change) and the label vectors; Q itself is never stored.
@nb.njit(cache=True, nogil=True)
def _lk_row(i, R, code, params, cs, Z, mu, pat, Mv, cols, ncols,
            out, coef):
    """``out[j] = K_ij M_ij`` for ``j`` in ``cols[:ncols]`` (without the diagonal ``d``).

    With ``Mv`` non-empty, ``M_i`` is the precomputed row ``Mv[pat[i]]`` of ``i``'s sign
    pattern (:func:`_lk_patterns`): ``O(n)`` per row instead of ``O(n T)``, same values."""
    krow = cache_get_row(i, R, R, code, params, cs)
    if Mv.shape[0] > 0:
        m = Mv[pat[i]]
        for u in range(ncols):
            j = cols[u]
            out[j] = krow[j] * m[j]
        return
    T = Z.shape[1]
    for t in range(T):
        coef[t] = mu[t] * Z[i, t]
    if T == 1:
        c0 = coef[0]
        for u in range(ncols):
            j = cols[u]
            out[j] = krow[j] * (c0 * Z[j, 0])
    else:
        for u in range(ncols):
            j = cols[u]
            m = 0.0
            for t in range(T):
                m += coef[t] * Z[j, t]
            out[j] = krow[j] * m


@nb.njit(cache=True, nogil=True)
def _lk_pattern_rows(Z, mu, reps):
    """``Mv[p, j] = sum_t mu_t Z[r, t] Z[j, t]`` for the representative row ``r = reps[p]`` of
    each sign pattern, with the arithmetic of :func:`_lk_row` (bit for bit its ``M_rj``)."""
    n, T = Z.shape
    P = reps.shape[0]
    Mv = np.empty((P, n))
    coef = np.empty(T)
    for p in range(P):
        i = reps[p]
        for t in range(T):
            coef[t] = mu[t] * Z[i, t]
        if T == 1:
            c0 = coef[0]
            for j in range(n):
                Mv[p, j] = c0 * Z[j, 0]
        else:
            for j in range(n):
                m = 0.0
                for t in range(T):
                    m += coef[t] * Z[j, t]
                Mv[p, j] = m
    return Mv


_LK_PATTERN_MB = 256.0


def _lk_patterns(Z, mu, budget_mb=None):
    """Rows of ``M = sum_t mu_t z_t z_t'`` by sign pattern: ``(pat, Mv)``.

    ``M_i`` depends on ``i`` only through the signs ``Z[i, :]``: points with the same pattern
    share one row of ``M``. WellSVM's working sets have few patterns (e.g. 284 for 11
    labels on 5 000 points), so ``Mv`` (patterns x n) is small and a row of ``Q`` costs one
    product per entry. Empty ``Mv`` (the ``O(n T)`` path) when the patterns would need more
    than ``budget_mb`` or number more than half the points."""
    budget_mb = _LK_PATTERN_MB if budget_mb is None else budget_mb
    n = Z.shape[0]
    uniq, reps, pat = np.unique(Z, axis=0, return_index=True, return_inverse=True)
    P = uniq.shape[0]
    if P * n * 8 > budget_mb * 2.0**20 or 2 * P > n:
        return np.zeros(n, dtype=np.int64), np.empty((0, n))
    return (np.ascontiguousarray(pat.ravel(), dtype=np.int64),
            _lk_pattern_rows(Z, mu, np.ascontiguousarray(reps, dtype=np.int64)))


@nb.njit(cache=True, nogil=True)
def _lk_qrow(i, R, code, params, cs, Z, mu, pat, Mv, allc, qdata,
             qslot, qowner, qnext, coef):
    """Slot of ``qdata`` that holds the whole row ``K_i o M_i`` (without ``d``) of this call.

    ``Q`` changes with ``mu`` and the label vectors, so this cache of its rows lives for one
    call of the solver (the rows of ``K`` stay in the ``KernelRowCache``); slots are reused
    first in, first out. A cached row holds the same values as a recomputed one (same
    operations in the same order), so the cache changes the time, never the iterates.
    """
    s = qslot[i]
    if s >= 0:
        return s
    s = qnext[0]
    qnext[0] = (s + 1) % qdata.shape[0]
    o = qowner[s]
    if o >= 0:
        qslot[o] = -1
    _lk_row(i, R, code, params, cs, Z, mu, pat, Mv, allc,
            allc.shape[0], qdata[s], coef)
    qslot[i] = s
    qowner[s] = i
    return s


@nb.njit(cache=True, nogil=True)
def _lk_gradient(R, code, params, cs, Z, mu, pat, Mv, d, p, alpha,
                 cols, ncols, G, qrow, coef, allc, qdata, qslot, qowner, qnext):
    """``G[j] = p_j + d_j a_j + sum_i a_i K_ij M_ij`` for ``j`` in ``cols[:ncols]``.

    A row already in the call's row cache is read from it; a missing one is computed whole
    and cached when at least half of the columns are asked for, else only on ``cols``."""
    n = alpha.shape[0]
    for u in range(ncols):
        j = cols[u]
        G[j] = p[j] + d[j] * alpha[j]
    for i in range(n):
        ai = alpha[i]
        if ai != 0.0:
            if qslot[i] >= 0 or 2 * ncols >= n:
                qr = qdata[_lk_qrow(i, R, code, params, cs,
                                    Z, mu, pat, Mv, allc, qdata, qslot, qowner, qnext, coef)]
            else:
                _lk_row(i, R, code, params, cs, Z, mu, pat, Mv,
                        cols, ncols, qrow, coef)
                qr = qrow
            for u in range(ncols):
                j = cols[u]
                G[j] += ai * qr[j]


@nb.njit(cache=True)
def _lk_kernel_diagonal(R, code, params):
    """``k(x_i, x_i)`` for every row of ``R``: ``kernels.kernel_diag`` without its fastmath
    flags, so that the diagonal is bit for bit the one every earlier result was built on."""
    n = R.shape[0]
    out = np.empty(n)
    for i in range(n):
        out[i] = kernel_value(R[i], R[i], code, params)
    return out


def _lk_row_cache(n: int, budget_mb: float):
    """The per-call cache of ``Q``'s rows: ``(allc, qdata, qslot, qowner, qnext)`` with as
    many whole rows as ``budget_mb`` holds (at least 3, at most ``n``)."""
    slots = int(min(n, max(3, budget_mb * 2.0**20 // (8 * max(n, 1)))))
    return (np.arange(n), np.empty((slots, n)), np.full(n, -1, dtype=np.int64),
            np.full(slots, -1, dtype=np.int64), np.zeros(1, dtype=np.int64))


@nb.njit(cache=True, nogil=True, inline="always")
def _box_violation(g, a, c):
    """Projected-gradient violation of coordinate ``a`` in ``[0, c]``."""
    if a <= 0.0:
        return -g if g < 0.0 else 0.0
    if a >= c:
        return g if g > 0.0 else 0.0
    return abs(g)


@nb.njit(cache=True, nogil=True)
def _lk_box_core(R, code, params, cs, Z, mu, pat, Mv, d, C, alpha,
                 QD, eps, max_iter, allc, qdata, qslot, qowner, qnext, shrinking):
    """Greedy coordinate descent on ``min 1/2 a'Qa - 1'a, 0 <= a <= C`` (no equality).

    Each iteration takes the coordinate of largest decrease of the objective by an exact
    one-dimensional Newton step clipped to the box (among the coordinates that violate the
    optimality conditions), then updates the gradient with one row of ``Q``. Stops when the
    largest projected-gradient violation is ``<= eps``. Shrinking: every ``min(n, 1000)``
    iterations the coordinates at a bound whose gradient pushes outwards by more than the
    current largest violation are set aside; their gradient is rebuilt from ``a`` before the
    final check on all coordinates.
    """
    n = alpha.shape[0]
    p = -np.ones(n)
    G = np.empty(n)
    qrow = np.zeros(n)
    coef = np.empty(Z.shape[1])
    active = np.arange(n)
    active_size = n
    _lk_gradient(R, code, params, cs, Z, mu, pat, Mv, d, p, alpha,
                 active, n, G, qrow, coef, allc, qdata, qslot, qowner, qnext)
    inactive = np.zeros(n, dtype=np.int64)
    it = 0
    counter = min(n, 1000)
    viol = np.inf
    converged = False
    while True:
        # ---- select: largest one-dimensional gain among violating coordinates
        best = -1
        best_gain = -1.0
        best_step = 0.0
        viol = 0.0
        for u in range(active_size):
            k = active[u]
            g = G[k]
            a = alpha[k]
            v = _box_violation(g, a, C[k])
            if v > viol:
                viol = v
            if v <= 0.0:
                continue
            q = QD[k]
            if q > 0.0:
                s = a - g / q
                if s < 0.0:
                    s = 0.0
                elif s > C[k]:
                    s = C[k]
                s -= a
            else:  # the objective is linear along this coordinate: go to the bound
                s = C[k] - a if g < 0.0 else -a
            gain = -(g * s + 0.5 * q * s * s)
            if gain > best_gain:
                best_gain = gain
                best = k
                best_step = s
        if viol <= eps or best < 0:
            if active_size == n:
                converged = viol <= eps
                break
            # optimal on the active set: rebuild the gradient of the others, check them all
            m = 0
            mark = np.ones(n, dtype=np.bool_)
            for u in range(active_size):
                mark[active[u]] = False
            for k in range(n):
                if mark[k]:
                    inactive[m] = k
                    m += 1
            _lk_gradient(R, code, params, cs, Z, mu, pat, Mv, d, p,
                         alpha, inactive, m, G, qrow, coef, allc, qdata, qslot, qowner,
                         qnext)
            active_size = n
            for k in range(n):
                active[k] = k
            counter = min(n, 1000)
            continue
        if it >= max_iter:
            break
        it += 1
        i = best
        a_old = alpha[i]
        a_new = a_old + best_step
        if a_new < 0.0:
            a_new = 0.0
        elif a_new > C[i]:
            a_new = C[i]
        alpha[i] = a_new
        s = a_new - a_old
        qr = qdata[_lk_qrow(i, R, code, params, cs, Z, mu, pat, Mv,
                            allc, qdata, qslot, qowner, qnext, coef)]
        gi = G[i]
        for u in range(active_size):
            k = active[u]
            G[k] += s * qr[k]
        G[i] = gi + s * (qr[i] + d[i])
        if shrinking:
            counter -= 1
            if counter == 0:
                counter = min(n, 1000)
                u = 0
                while u < active_size:
                    k = active[u]
                    a = alpha[k]
                    if (a <= 0.0 and G[k] > viol) or (a >= C[k] and G[k] < -viol):
                        active_size -= 1
                        active[u] = active[active_size]
                        active[active_size] = k
                    else:
                        u += 1
    if not converged and active_size < n:
        m = 0
        mark = np.ones(n, dtype=np.bool_)
        for u in range(active_size):
            mark[active[u]] = False
        for k in range(n):
            if mark[k]:
                inactive[m] = k
                m += 1
        _lk_gradient(R, code, params, cs, Z, mu, pat, Mv, d, p,
                     alpha, inactive, m, G, qrow, coef, allc, qdata, qslot, qowner,
                         qnext)
    viol = 0.0
    for k in range(n):
        v = _box_violation(G[k], alpha[k], C[k])
        if v > viol:
            viol = v
    return G, it, viol <= eps, viol


@nb.njit(cache=True, nogil=True)
def _lk_simplex_core(R, code, params, cs, Z, mu, pat, Mv, d, C,
                     alpha, QD, eps, max_iter, allc, qdata, qslot, qowner, qnext):
    """Pair SMO (WSS2 with every sign +1) on ``min 1/2 a'Qa, 1'a = 1, 0 <= a <= C``."""
    n = alpha.shape[0]
    p = np.zeros(n)
    G = np.empty(n)
    qtmp = np.zeros(n)
    coef = np.empty(Z.shape[1])
    _lk_gradient(R, code, params, cs, Z, mu, pat, Mv, d, p, alpha,
                 allc, n, G, qtmp, coef, allc, qdata, qslot, qowner, qnext)
    it = 0
    gap = np.inf
    converged = False
    while True:
        # ---- WSS2: i maximises -G over I_up = {a < C}; j over I_low = {a > 0}
        gmax = -np.inf
        i = -1
        for k in range(n):
            if alpha[k] < C[k] and -G[k] >= gmax:
                gmax = -G[k]
                i = k
        gmax2 = -np.inf
        j = -1
        if i >= 0:
            si = _lk_qrow(i, R, code, params, cs, Z, mu, pat, Mv,
                          allc, qdata, qslot, qowner, qnext, coef)
            qi = qdata[si]
            qii = qi[i] + d[i]
            obj_min = np.inf
            qdi = QD[i]
            # Every k is scored; a_k > 0 and the sign of diff only select (no branches on
            # them: near the optimum the CPU mispredicted the sign about half of the time,
            # which made the loop 3x slower). Only a_k > 0 with diff > 0 can be taken,
            # ties go to the last k: the choice of the textbook loop. diff = 0 at k = i.
            for k in range(n):
                gk = G[k]
                low = alpha[k] > 0.0
                g2 = gk if low else -np.inf
                if g2 >= gmax2:
                    gmax2 = g2
                diff = gmax + gk
                quad = qdi + QD[k] - 2.0 * qi[k]
                o = -(diff * diff) / (quad if quad > 0.0 else _TAU)
                o = o if (diff > 0.0) & low else np.inf
                if o <= obj_min:
                    obj_min = o
                    j = k
            if obj_min == np.inf:  # no k with diff > 0
                j = -1
        gap = gmax + gmax2
        if gap < eps or j < 0:
            converged = gap < eps
            break
        if it >= max_iter:
            break
        it += 1
        qj = qdata[_lk_qrow(j, R, code, params, cs, Z, mu, pat, Mv,
                            allc, qdata, qslot, qowner, qnext, coef)]
        if qowner[si] != i:  # row i's slot was taken by row j (small caches): fetch it again
            si = _lk_qrow(i, R, code, params, cs, Z, mu, pat, Mv,
                          allc, qdata, qslot, qowner, qnext, coef)
            qi = qdata[si]
        ci = C[i]
        cj = C[j]
        ai_old = alpha[i]
        aj_old = alpha[j]
        quad = QD[i] + QD[j] - 2.0 * qi[j]  # j != i: diff = 0 at k = i
        if quad <= 0.0:
            quad = _TAU
        delta = (G[i] - G[j]) / quad
        tot = ai_old + aj_old
        ai = ai_old - delta
        aj = aj_old + delta
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
        # rows i and j of Q are qi + d_i e_i and qj + d_j e_j: entries i and j apart
        gi = G[i] + (qii * dai + qj[i] * daj)
        gj = G[j] + (qi[j] * dai + (qj[j] + d[j]) * daj)
        for k in range(n):
            G[k] += qi[k] * dai + qj[k] * daj
        G[i] = gi
        G[j] = gj
    return G, it, converged, max(gap, 0.0)


@nb.njit(cache=True, nogil=True)
def _lk_quadratic(R, code, params, cs, Z, alpha):
    """``out[t] = (a o z_t)' K (a o z_t)`` from the rows of the support (``a_i != 0``)."""
    n, T = Z.shape
    sv = np.flatnonzero(alpha != 0.0)
    out = np.zeros(T)
    acc = np.empty(T)
    scratch = np.empty(n, dtype=cs[0][0].dtype)
    for u in range(sv.shape[0]):
        i = sv[u]
        krow = cache_scan_row(i, R, code, params, cs, scratch)
        acc[:] = 0.0
        for w in range(sv.shape[0]):  # the sums over w of the t's side by side (same order)
            j = sv[w]
            kj = krow[j] * alpha[j]
            for t in range(T):
                acc[t] += kj * Z[j, t]
        for t in range(T):
            out[t] += alpha[i] * Z[i, t] * acc[t]
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
        Rows computed by the row cache (complete, over the active set, or extended to the
        columns a cached row lacked); ``info["kernel_values_computed"]`` (:func:`smo`)
        counts the kernel values.
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
        cache_mb=None, max_iter=None, sparse_rows="auto", cache_dtype="float64") -> SMOResult:
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
    cache_mb : float, None or "auto"
        Budget of the kernel-row cache in MB (at least two whole rows are kept). Default
        ``None``: all of ``Q`` when it needs at most 1024 MB, else 1024 MB
        (:func:`weaklabel.kernels.cache_budget`). Rows have the length of the active set
        after shrinking (the active variables are kept first, LIBSVM's ``swap_index``) and
        are extended when it grows again. The budget changes the time, never the iterates.
    max_iter : int, optional
        Cap on two-variable updates (default ``max(10_000_000, 100 n)``, as LIBSVM).
    sparse_rows : bool or "auto"
        Compute kernel values on the non-zeros of the rows (CSR, as LIBSVM does; the
        Gaussian kernel then uses the squared norms, ``|x|^2 + |z|^2 - 2 x.z``). ``"auto"``
        (default): when at most a fifth of ``X``'s entries are non-zero. Kernel values may
        differ from the dense ones by rounding (not on 0/1 data with the linear or the
        Gaussian kernel, where both are exact).
    cache_dtype : {"float64", "float32"}
        Storage of the cached rows of ``Q``. ``"float32"`` (LIBSVM's ``Qfloat``) holds twice
        as many rows in the same budget; the iterates then use the rows rounded to float32
        (the diagonal ``Q_ii`` stays float64), so the solution differs from the float64 one
        within the tolerance. The default float64 reproduces earlier results bit for bit.

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
    dt = _cache_dtype(cache_dtype)
    budget, budget_mb = cache_budget(cache_mb, n, n, dt)
    max_iter = max(10_000_000, 100 * n) if max_iter is None else check_int(
        max_iter, "max_iter", minimum=1)
    n_slots = int(min(n, budget // n))
    sp = _sparse_rows(X, k, sparse_rows)
    t0 = time.perf_counter()
    yv = np.ascontiguousarray(y, dtype=np.float64)
    G, it, converged, gap, rows, values, evictions, gets = _smo_core(
        X, sp, yv, pv, Cv, a, k.code, k.params, eps, max_iter, bool(shrinking), budget,
        np.empty(0, dtype=dt))
    seconds = time.perf_counter() - t0
    if not converged:
        warn_not_converged("smo", max_iter, gap, tol_param="eps")
    objective = float(0.5 * a @ (G + pv))
    return SMOResult(alpha=a, gradient=G, rho=float(_rho(y, G, a, Cv)), objective=objective,
                     n_iter=int(it), kkt_violation=float(gap), converged=bool(converged),
                     kernel_rows_computed=int(rows), seconds=seconds,
                     info={"kernel": k, "shrinking": bool(shrinking), "eps": eps,
                           "cache_slots": n_slots, "kernel_values_computed": int(values),
                           "cache_mb": budget_mb, "cache_dtype": np.dtype(dt).name,
                           "cache_requests": int(gets), "cache_evictions": int(evictions),
                           "sparse_rows": bool(sp[0])})


def _sparse_rows(X, k: Kernel, sparse_rows):
    """The ``sp`` tuple of :func:`_k_ij`: CSR arrays when sparse rows are used, else empty."""
    if sparse_rows not in (True, False, "auto"):
        raise ValueError(f"sparse_rows must be True, False or 'auto', got {sparse_rows!r}.")
    nz = X != 0.0
    use = k.code != PRECOMPUTED and (sparse_rows is True or (
        sparse_rows == "auto" and nz.mean() <= 0.2))
    if not use:
        e = np.zeros(1, dtype=np.int64)
        return (False, e, e, np.zeros(1), np.zeros(1), np.zeros(1))
    indptr = np.concatenate([[0], np.cumsum(nz.sum(axis=1))]).astype(np.int64)
    rows, cols = np.nonzero(nz)
    vals = np.ascontiguousarray(X[rows, cols])
    sq = np.einsum("ij,ij->i", X, X)
    return (True, indptr, cols.astype(np.int64), vals, sq, np.zeros(X.shape[1]))


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



# --------------------------------------------------------------------------- label kernels
def _label_matrix(labels, n=None, name="labels"):
    """Label vectors ``z_t`` as an ``(n, T)`` float array (from ``(T, n)`` or ``(n,)``)."""
    L = np.asarray(labels, dtype=np.float64)
    if L.ndim == 1:
        L = L[None, :]
    if L.ndim != 2 or L.shape[0] < 1:
        raise ValueError(f"{name} must be a (T, n) array of +1/-1 label vectors, got shape "
                         f"{np.shape(labels)}.")
    if n is not None and L.shape[1] != n:
        raise ValueError(f"{name} must have n={n} columns (one per point), got shape "
                         f"{L.shape}.")
    if not np.all((L == 1.0) | (L == -1.0)):
        raise ValueError(f"{name} must contain only +1 and -1.")
    return np.ascontiguousarray(L.T)


def _resolve_cache(X, kernel, cache, cache_mb, cache_dtype="float64") -> KernelRowCache:
    """The row cache of ``K = k(X, X)``: the given one (checked against ``X``) or a new one."""
    if cache is None:
        k = make_kernel_or_precomputed(kernel)
        X = _check_points(X, k)
        return KernelRowCache(X, kernel=k, cache_mb=cache_mb, cache_dtype=cache_dtype)
    if not isinstance(cache, KernelRowCache):
        raise TypeError(f"cache must be a KernelRowCache, got {type(cache).__name__}.")
    if cache.C is not cache.R:
        raise ValueError("cache must hold rows of the square kernel matrix k(X, X) "
                         "(a KernelRowCache built without C).")
    if X is not None and X is not cache.R:
        Xc = np.asarray(X)
        if Xc.shape != cache.R.shape or not np.array_equal(Xc, cache.R):
            raise ValueError("cache was built on other points than X; build a "
                             "KernelRowCache(X, kernel=...) for these X, or pass X=None.")
    if kernel is not None and make_kernel_or_precomputed(kernel) != cache.kernel:
        raise ValueError(f"kernel {kernel!r} differs from the cache's kernel "
                         f"{cache.kernel!r}.")
    return cache


def label_kernel_dual(X, labels, mu, C=1.0, kernel="linear", *, problem="box", diag=None,
                      alpha0=None, eps=1e-3, shrinking=True, cache=None, cache_mb=None,
                      max_iter=None, row_cache_mb=64.0, cache_dtype="float64") -> SMOResult:
    """SVM dual on a label kernel ``Q = K o M + diag(d)``, ``M = sum_t mu_t z_t z_t'``.

    The inner problems of WellSVM (Li, Tsang, Kwok and Zhou, JMLR 2013): with the label
    vectors ``z_t`` of the working set and their weights ``mu`` (Eq. (15), the multiple
    label-kernel learning step, Eq. (17)), one of

    * ``problem="box"``: ``min 1/2 a'Qa - 1'a`` s.t. ``0 <= a_i <= C_i``, the dual of the
      hinge-loss SVM *without offset* (no equality constraint; Assumption 1, first row),
      solved by greedy coordinate descent (exact one-dimensional steps clipped to the box,
      the coordinate of largest gain first), stopping when the largest projected-gradient
      violation is ``<= eps``;
    * ``problem="simplex"``: ``min 1/2 a'Qa`` s.t. ``a >= 0, 1'a = 1`` (and ``a_i <= C_i``;
      the default ``C = 1`` is inactive), the mu-SVM of Assumption 1 with ``d_i = 1/c_i``
      (the authors' code solves it with LIBSVM's one-class SVM, nu = 1/n), solved by the pair
      SMO of :func:`smo` with every sign +1 (WSS2; stop when ``m(a) - M(a) <= eps``).

    Rows of ``Q`` are built from rows of ``K`` and the label vectors; ``Q`` is never formed.
    The rows of ``K`` come from ``cache`` (a :class:`~weaklabel.kernels.KernelRowCache`),
    which survives changes of ``mu``, ``labels`` and ``diag``: pass the same cache to every
    call on the same ``X`` (WellSVM calls this many times), together with the previous
    ``alpha`` as ``alpha0``.

    Parameters
    ----------
    X : array (n, d), or (n, n) with ``kernel="precomputed"``; may be None if ``cache``
        Training points (or the Gram matrix).
    labels : array (T, n) of +1 / -1
        The label vectors ``z_t`` (a single vector of shape (n,) means ``T = 1``).
    mu : array (T,) or float
        Weights ``mu_t >= 0`` (not all zero unless ``diag`` is positive for ``simplex``).
    C : float or array (n,)
        Upper bounds ``C_i > 0`` (``inf`` allowed for ``simplex``).
    kernel : str or Kernel
        As :func:`smo` (``"precomputed"`` accepted); ignored when ``cache`` is given
        (the cache's kernel is used).
    problem : {"box", "simplex"}
    diag : array (n,) or float, optional
        The diagonal ``d >= 0`` added to ``Q`` (default 0).
    alpha0 : array (n,), optional
        A feasible start (warm start). Default: 0 for ``box``; for ``simplex`` the vertex
        ``e_i`` of the smallest ``Q_ii`` (as LIBSVM's one-class start with nu = 1/n; when
        ``C_i < 1`` the mass is spread over the next smallest ``Q_ii``).
    eps : float
        Stopping tolerance (see above).
    shrinking : bool
        Shrinking heuristic of the ``box`` solver (coordinates held at a bound are set
        aside and checked again at the end); the ``simplex`` solver does not shrink.
    cache : KernelRowCache, optional
        Row cache of ``K = k(X, X)``; default a new one of ``cache_mb`` MB.
    cache_mb : float, None or "auto"
        Budget of a new cache in MB (ignored when ``cache`` is given); default ``None``: all
        of ``K`` when it needs at most 1024 MB, else 1024 MB.
    max_iter : int, optional
        Cap on updates (default ``max(10_000_000, 100 n)``).
    row_cache_mb : float
        Budget of the cache of ``Q``'s rows that lives for this call (``Q`` changes with
        ``mu``; at least 3 rows are kept whatever the budget). Rows are computed once per
        call instead of at every update, at ``O(n T)`` each; the iterates do not change.
    cache_dtype : {"float64", "float32"}
        Storage of the rows of a new cache (ignored when ``cache`` is given).

    Returns
    -------
    SMOResult
        ``rho`` is 0 for ``box`` and the multiplier of ``1'a = 1`` for ``simplex``
        (``G_i = rho`` on the free ``a_i``); ``objective`` is ``1/2 a'Qa - 1'a`` or
        ``1/2 a'Qa``; ``kernel_rows_computed`` counts the rows of ``K`` computed in this
        call; ``info`` holds ``problem``, ``kernel``, ``eps``, ``shrinking`` and ``cache``.
    """
    check_choice(problem, "problem", {"box", "simplex"})
    cache = _resolve_cache(X, kernel if cache is None else None, cache, cache_mb, cache_dtype)
    n = cache.R.shape[0]
    if n < 1:
        raise ValueError("X must have at least one row.")
    Z = _label_matrix(labels, n)
    T = Z.shape[1]
    if np.ndim(mu) == 0:
        mu = np.full(T, float(mu))
    muv = check_vector(mu, "mu", n=T)
    if np.any(muv < 0):
        raise ValueError("mu must contain values >= 0.")
    if np.ndim(C) == 0:
        c0 = float(C)
        if not (c0 > 0) or (np.isinf(c0) and problem == "box") or np.isnan(c0):
            raise ValueError(f"C must be > 0 (finite for problem='box'), got {C}.")
        Cv = np.full(n, c0)
    else:
        Cv = np.asarray(C, dtype=np.float64).ravel()
        if Cv.shape[0] != n or np.any(np.isnan(Cv)) or np.any(Cv <= 0) or (
                problem == "box" and not np.all(np.isfinite(Cv))):
            raise ValueError(f"C must be a float or an array of n={n} values > 0 (finite for "
                             "problem='box').")
        Cv = np.ascontiguousarray(Cv)
    if diag is None:
        d = np.zeros(n)
    elif np.ndim(diag) == 0:
        d = np.full(n, check_positive(diag, "diag", allow_zero=True))
    else:
        d = check_vector(diag, "diag", n=n)
        if np.any(d < 0):
            raise ValueError("diag must contain values >= 0.")
    eps = check_positive(eps, "eps")
    row_cache_mb = check_positive(row_cache_mb, "row_cache_mb", allow_zero=True)
    max_iter = max(10_000_000, 100 * n) if max_iter is None else check_int(
        max_iter, "max_iter", minimum=1)
    k = cache.kernel
    if k.code == PRECOMPUTED:
        kd = np.ascontiguousarray(np.diag(cache.R))
    else:
        kd = _lk_kernel_diagonal(cache.R, k.code, k.params) if k.code != LINEAR else np.einsum(
            "ij,ij->i", cache.R, cache.R)
    QD = kd * muv.sum() + d  # M_ii = sum_t mu_t z_ti^2 = sum_t mu_t
    if alpha0 is not None:
        a = check_vector(alpha0, "alpha0", n=n).copy()
        if np.any(a < 0) or np.any(a > Cv):
            raise ValueError("alpha0 must satisfy 0 <= alpha0 <= C (a feasible start).")
        if problem == "simplex" and abs(a.sum() - 1.0) > 1e-12 * n:
            raise ValueError(f"alpha0 must sum to 1 for problem='simplex', sums to "
                             f"{a.sum():.6g}.")
    elif problem == "box":
        a = np.zeros(n)
    else:
        if Cv.sum() < 1.0:
            raise ValueError("problem='simplex' is infeasible: sum(C) < 1.")
        a = np.zeros(n)
        rest = 1.0
        for i in np.argsort(QD, kind="stable"):
            a[i] = min(Cv[i], rest)
            rest -= a[i]
            if rest <= 0.0:
                break
    rows0 = cache.misses
    muv = np.ascontiguousarray(muv)
    args = (cache.R, k.code, k.params, cache.state, Z, muv, *_lk_patterns(Z, muv), d, Cv, a,
            QD, eps, max_iter, *_lk_row_cache(n, row_cache_mb))
    t0 = time.perf_counter()
    if problem == "box":
        G, it, converged, viol = _lk_box_core(*args, bool(shrinking))
        rho = 0.0
        objective = float(0.5 * a @ (G - 1.0))
    else:
        G, it, converged, viol = _lk_simplex_core(*args)
        rho = float(_rho(np.ones(n), G, a, Cv))
        objective = float(0.5 * a @ G)
    seconds = time.perf_counter() - t0
    if not converged:
        warn_not_converged("label_kernel_dual", max_iter, viol, tol_param="eps")
    return SMOResult(alpha=a, gradient=G, rho=rho, objective=objective, n_iter=int(it),
                     kkt_violation=float(viol), converged=bool(converged),
                     kernel_rows_computed=int(cache.misses - rows0), seconds=seconds,
                     info={"problem": problem, "kernel": k, "eps": eps,
                           "shrinking": bool(shrinking) and problem == "box",
                           "cache": cache, "cache_slots": cache.n_slots})


def label_kernel_quadratic(cache: KernelRowCache, labels, alpha) -> np.ndarray:
    """``q_t = a'(K o z_t z_t')a = (a o z_t)' K (a o z_t)`` for every label vector ``z_t``.

    The quantity of WellSVM's weight update ``mu_t <- mu_t sqrt(q_t)`` normalised (Li et
    al. 2013, Section 4.1.2, from ``||w_t|| = mu_t sqrt(q_t)``). Uses only the cached rows of
    the support ``a_i != 0``.
    """
    if not isinstance(cache, KernelRowCache):
        raise TypeError(f"cache must be a KernelRowCache, got {type(cache).__name__}.")
    n = cache.R.shape[0]
    Z = _label_matrix(labels, n)
    a = check_vector(alpha, "alpha", n=n)
    k = cache.kernel
    return _lk_quadratic(cache.R, k.code, k.params, cache.state, Z, a)


@nb.njit(cache=True, nogil=True)
def _cache_matvec(v, R, code, params, cs):
    n = v.shape[0]
    out = np.zeros(n)
    scratch = np.empty(n, dtype=cs[0][0].dtype)
    for i in range(n):
        vi = v[i]
        if vi != 0.0:
            row = cache_scan_row(i, R, code, params, cs, scratch)
            for j in range(n):
                out[j] += row[j] * vi
    return out


def cache_matvec(cache: KernelRowCache, v) -> np.ndarray:
    """``K v`` for one vector from the rows of ``cache`` (square kernel).

    The sums of ``KernelRowCache.matvec`` in the same order (bit for bit the same result),
    as one contiguous loop per row: WellSVM's label ascents call it hundreds of times per
    fit on internal, finite vectors, so the per-call checks of ``matvec`` are left out. A full
    scan: cached rows are read without being refreshed, missing rows are stored only where the
    budget has room, else computed into a scratch row (:func:`weaklabel.kernels.cache_scan_row`);
    nothing is evicted.
    """
    if cache.C is not cache.R:
        raise ValueError("cache_matvec needs a square kernel matrix (a cache built without C).")
    k = cache.kernel
    return _cache_matvec(np.ascontiguousarray(v, dtype=np.float64), cache.R, k.code, k.params,
                         cache.state)


def label_kernel_decision_function(result: SMOResult, labels, mu, X_train, X,
                                   kernel=None) -> np.ndarray:
    """``f(x) = sum_i a_i (sum_t mu_t z_ti) k(x_i, x)`` (no offset; Li et al. 2013, the
    prediction of the multiple label-kernel SVM). With a precomputed kernel ``X`` is the
    (m, n) block ``k(x, x_i)``."""
    k = make_kernel_or_precomputed(result.info["kernel"] if kernel is None else kernel)
    X_train = check_matrix(X_train, "X_train")
    n = X_train.shape[0]
    Z = _label_matrix(labels, n)
    muv = check_vector(np.full(Z.shape[1], float(mu)) if np.ndim(mu) == 0 else mu, "mu",
                       n=Z.shape[1])
    coef = result.alpha * (Z @ muv)
    sv = np.flatnonzero(coef != 0)
    if k.code == PRECOMPUTED:
        X = check_matrix(X, "X", min_rows=0, n_features=n)
        return X[:, sv] @ coef[sv]
    X = check_matrix(X, "X", min_rows=0, n_features=X_train.shape[1])
    if k.code == LINEAR:
        return X @ (X_train[sv].T @ coef[sv])
    return _decision(X, np.ascontiguousarray(X_train[sv]), coef[sv], 0.0, k.code, k.params)
