"""USMO: sequential minimal optimisation for kernel PU learning with the double hinge loss.

Sansone, De Natale, Zhou, "Efficient Training for Positive Unlabeled Learning", TPAMI 2019.
Equation, table and section numbers are the paper's (TPAMI PDF numbering); what the paper
does not state is derived in this module's docstrings or taken from the official code.

Problem
-------
``dual`` holds the dual variables of the unlabelled samples, one per sample (the paper's
σ_u; ``sigma`` is the Gaussian kernel width everywhere in this package). With
``c1 = pi / (2 lam p)`` and ``c2 = 1 / (2 lam n)`` the dual (6), in the reduced form of
Lemma 1 (Section 4.1: at the optimum ``delta = 2 min(dual, c2 - dual)``), is::

    min_dual   1/2 dual' K_UU dual - c1 (K_UP 1_p)' dual - sum_u min(dual_u, c2 - dual_u)
    s.t.       sum_u dual_u = c1 p,   0 <= dual_u <= c2.

The classifier is ``f(x) = c1 sum_P k(x, x_i) - sum_U dual_u k(x, x_u) + beta`` (Eq. (7)).

Algorithm (Section 4, Algorithm 1)
----------------------------------
State: ``dual`` and the LIBSVM-style function cache ``F_u = f(x_u) - beta`` for *all*
unlabelled samples (O(n) memory), ``F = G - K_UU dual`` with the constant part
``G_u = c1 sum_P k(x_u, x_i)`` computed once in O(p n d) without storing ``K_UP``.
Kernel rows of the unlabelled set come only from the shared LRU row cache
(:func:`weaklabel.kernels.cache_get_row`), so memory is linear in ``n``.

* Two-variable step: Table I (with the ``/ eta`` typo fixed), all four cases, clipping to each
  case's interval, best case by ``phi`` (Table I, Section 4.1), accepted only when ``phi`` strictly
  decreases; ``eta <= 1e-12`` compares the interval end points (as the official code); dual
  values within ``1e-12 c2`` of ``{0, c2/2, c2}`` are snapped.
* Slopes (our complete form of Definition 1, Section 4.3):
  ``up_u = -F_u + (-1 if dual_u < c2/2 else +1)`` (``dual_u < c2``),
  ``dn_u = F_u + (+1 if dual_u <= c2/2 else -1)`` (``dual_u > 0``). ``(i, j)`` is violating
  iff ``up_i + dn_j < -tau``.
* ``stopping="complete"``: stop when ``min up + min dn >= -tau``, i.e. the three conditions
  (13) plus the missing fourth ``m3max - m3min <= 2 + tau`` (derived from the KKT table (11),
  Section 4.2).
  ``stopping="paper"``: the paper's incomplete rule (13) / Definition 1 (14), with the
  critical values ``m1max, m2min, m3min, m3max`` and the partner attached to each violation
  (official ``examineexample.m``); it can stop at a suboptimal point.
* Working set, complete rule: the first index is the examined sample (whole-set pass) or
  ``argmin up`` (non-bound pass); the partner is chosen with LIBSVM's second-order rule (WSS2,
  Fan, Chen, Lin 2005) among the *violating* candidates: maximise ``b^2 / eta`` where
  ``b = -(up_i + dn_j) > tau`` is the slope along ``dual_i up, dual_j down`` and
  ``eta = k_ii + k_jj - 2 k_ij`` its curvature (so ``b^2 / (2 eta)`` is the decrease of the
  quadratic model). When ``eta <= 1e-12`` it is replaced by ``1e-12`` (LIBSVM's ``TAU``): the
  model decrease is then unbounded and such pairs are ranked first-order, by ``b``.
* Passes (Section 4.3 and the official code): strict alternation of whole-set passes (every
  sample examined in order, Platt-style ``examineExample``) and non-bound passes (pairs from
  the non-bound set ``0 < dual < c2, dual != c2/2`` until it is tau-optimal or a step fails);
  the first pass is whole-set; the solver stops after a whole-set pass that changes nothing.
* Bias (16): mean over non-bound samples of ``-1 - F_u`` (lower half) or ``1 - F_u`` (upper
  half); the midpoint of the KKT interval when there is none (Eq. (16), Section 4.4; the
  midpoint from the KKT table (11)).
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numba as nb
import numpy as np

from .._validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_matrix,
    check_positive,
    check_prior,
    warn_not_converged,
)
from ..kernels import (
    LINEAR,
    Kernel,
    KernelRowCache,
    cache_get_row,
    check_cache_mb,
    kernel_diag,
    kernel_rowsum,
    kernel_value,
    make_kernel,
)
from ._usmo_init import feasible_repair, ocsvm_init, trivial_init

__all__ = ["USMOResult", "usmo", "usmo_decision_function", "dual_objective", "bias_from_F",
           "bias_interval", "kkt_violation"]

COMPLETE, PAPER = 0, 1
_ETA_MIN = 1e-12  # curvature below which the step compares end points (official code)
_SNAP = 1e-12  # relative snapping tolerance (times c2)
_NB_TOL = 1e-8  # relative non-bound tolerance for the bias (16) (times c2)

# indices into the "extremes" arrays
_MINUP, _MINDN, _MINUP_NB, _MINDN_NB = 0, 1, 2, 3
_M1MAX, _M2MIN, _M3MIN, _M3MAX = 4, 5, 6, 7
_M1MAX_NB, _M2MIN_NB, _M3MIN_NB, _M3MAX_NB = 8, 9, 10, 11


# --------------------------------------------------------------------------- numba core
@nb.njit(cache=True, nogil=True, inline="always")
def _h(s, c2):
    """``h(s) = -min(s, c2 - s)`` of the reduced dual (Lemma 1, Section 4.1)."""
    return -min(s, c2 - s)


@nb.njit(cache=True, nogil=True, inline="always")
def _snap(s, c2):
    half = 0.5 * c2
    tol = _SNAP * c2
    if abs(s) <= tol:
        return 0.0
    if abs(s - half) <= tol:
        return half
    if abs(s - c2) <= tol:
        return c2
    return s


@nb.njit(cache=True, nogil=True, inline="always")
def _is_special(s, c2):
    return s == 0.0 or s == 0.5 * c2 or s == c2


@nb.njit(cache=True, nogil=True)
def _delta_phi(t, si, sj, Fi, Fj, eta, c2, h0):
    """Change of the objective of (8) when ``dual_j += t``, ``dual_i -= t`` (Table I)."""
    return (Fi - Fj) * t + 0.5 * eta * t * t + _h(si - t, c2) + _h(sj + t, c2) - h0


@nb.njit(cache=True, nogil=True)
def take_step(si, sj, Fi, Fj, kii, kjj, kij, c2):
    """Analytic solution of the two-variable subproblem (8), Table I (Section 4.1).

    Returns ``(accepted, dual_i_new, dual_j_new)``. The four cases (i upper/lower half,
    j upper/lower half) each give ``dual_j = dual_j_old + (F_j - F_i + s) / eta`` with
    ``s = 0, +2, -2, 0`` clipped to the case's interval; with ``eta <= 1e-12`` the interval's
    end points are compared. The best case by ``phi`` is taken only if it strictly decreases
    ``phi`` (as the official code).
    """
    a = si + sj
    half = 0.5 * c2
    eta = kii + kjj - 2.0 * kij
    if eta < 0.0:
        eta = 0.0
    h0 = _h(si, c2) + _h(sj, c2)
    best_d = 0.0
    best_t = 0.0
    found = False
    for case in range(4):
        if case == 0:  # i upper, j upper
            s, lo, hi = 0.0, max(half, a - c2), min(c2, a - half)
        elif case == 1:  # i upper, j lower
            s, lo, hi = 2.0, max(0.0, a - c2), min(half, a - half)
        elif case == 2:  # i lower, j upper
            s, lo, hi = -2.0, max(half, a - half), min(c2, a)
        else:  # i lower, j lower
            s, lo, hi = 0.0, max(0.0, a - half), min(half, a)
        if lo > hi:
            continue
        if eta > _ETA_MIN:
            c = sj + (Fj - Fi + s) / eta
            c = min(max(c, lo), hi)
            t = c - sj
            d = _delta_phi(t, si, sj, Fi, Fj, eta, c2, h0)
            if d < best_d:
                best_d, best_t, found = d, t, True
        else:
            for c in (lo, hi):
                t = c - sj
                d = _delta_phi(t, si, sj, Fi, Fj, eta, c2, h0)
                if d < best_d:
                    best_d, best_t, found = d, t, True
    if not found:
        return False, si, sj
    nj = _snap(sj + best_t, c2)
    nj = min(max(nj, 0.0), c2)
    ni = a - nj
    ni2 = _snap(ni, c2)
    if ni2 != ni:
        if not _is_special(nj, c2):
            nj = min(max(a - ni2, 0.0), c2)
        ni = ni2
    ni = min(max(ni, 0.0), c2)
    if ni == si and nj == sj:
        return False, si, sj
    return True, ni, nj


@nb.njit(cache=True, nogil=True)
def _extremes(dual, F, c2, ext, iext):
    """Extremes of the slopes (complete rule) and critical values (13) (paper rule)."""
    half = 0.5 * c2
    inf = np.inf
    for k in range(12):
        iext[k] = -1
    ext[_MINUP] = inf
    ext[_MINDN] = inf
    ext[_MINUP_NB] = inf
    ext[_MINDN_NB] = inf
    ext[_M1MAX] = -inf
    ext[_M2MIN] = inf
    ext[_M3MIN] = inf
    ext[_M3MAX] = -inf
    ext[_M1MAX_NB] = -inf
    ext[_M2MIN_NB] = inf
    ext[_M3MIN_NB] = inf
    ext[_M3MAX_NB] = -inf
    for u in range(dual.shape[0]):
        s = dual[u]
        f = F[u]
        inner = s > 0.0 and s < c2
        nb_ = inner and s != half
        if s < c2:
            up = -f - 1.0 if s < half else -f + 1.0
            if up < ext[_MINUP]:
                ext[_MINUP] = up
                iext[_MINUP] = u
            if nb_ and up < ext[_MINUP_NB]:
                ext[_MINUP_NB] = up
                iext[_MINUP_NB] = u
        if s > 0.0:
            dn = f + 1.0 if s <= half else f - 1.0
            if dn < ext[_MINDN]:
                ext[_MINDN] = dn
                iext[_MINDN] = u
            if nb_ and dn < ext[_MINDN_NB]:
                ext[_MINDN_NB] = dn
                iext[_MINDN_NB] = u
        if s < half:  # D1
            if f > ext[_M1MAX]:
                ext[_M1MAX] = f
                iext[_M1MAX] = u
            if nb_ and f > ext[_M1MAX_NB]:
                ext[_M1MAX_NB] = f
                iext[_M1MAX_NB] = u
        elif s > half:  # D2
            if f < ext[_M2MIN]:
                ext[_M2MIN] = f
                iext[_M2MIN] = u
            if nb_ and f < ext[_M2MIN_NB]:
                ext[_M2MIN_NB] = f
                iext[_M2MIN_NB] = u
        if inner:  # D3
            if f < ext[_M3MIN]:
                ext[_M3MIN] = f
                iext[_M3MIN] = u
            if f > ext[_M3MAX]:
                ext[_M3MAX] = f
                iext[_M3MAX] = u
            if nb_:
                if f < ext[_M3MIN_NB]:
                    ext[_M3MIN_NB] = f
                    iext[_M3MIN_NB] = u
                if f > ext[_M3MAX_NB]:
                    ext[_M3MAX_NB] = f
                    iext[_M3MAX_NB] = u


@nb.njit(cache=True, nogil=True, inline="always")
def _up(s, f, c2):
    return -f - 1.0 if s < 0.5 * c2 else -f + 1.0


@nb.njit(cache=True, nogil=True, inline="always")
def _dn(s, f, c2):
    return f + 1.0 if s <= 0.5 * c2 else f - 1.0


@nb.njit(cache=True, nogil=True)
def _partner_dn(i, row_i, diag, dual, F, c2, tau, nb_only):
    """Second-order choice of ``j`` (dual_j decreases) for a fixed ``i`` (dual_i increases)."""
    half = 0.5 * c2
    up_i = _up(dual[i], F[i], c2)
    best, best_gain = -1, -1.0
    kii = diag[i]
    for v in range(dual.shape[0]):
        s = dual[v]
        if s <= 0.0:
            continue
        if nb_only and (s >= c2 or s == half):
            continue
        b = -(up_i + _dn(s, F[v], c2))
        if b <= tau:
            continue
        eta = kii + diag[v] - 2.0 * row_i[v]
        if eta < _ETA_MIN:
            eta = _ETA_MIN
        g = b * b / eta
        if g > best_gain:
            best_gain = g
            best = v
    return best


@nb.njit(cache=True, nogil=True)
def _partner_up(j, row_j, diag, dual, F, c2, tau, nb_only):
    """Second-order choice of ``i`` (dual_i increases) for a fixed ``j`` (dual_j decreases)."""
    half = 0.5 * c2
    dn_j = _dn(dual[j], F[j], c2)
    best, best_gain = -1, -1.0
    kjj = diag[j]
    for v in range(dual.shape[0]):
        s = dual[v]
        if s >= c2:
            continue
        if nb_only and (s <= 0.0 or s == half):
            continue
        b = -(_up(s, F[v], c2) + dn_j)
        if b <= tau:
            continue
        eta = kjj + diag[v] - 2.0 * row_j[v]
        if eta < _ETA_MIN:
            eta = _ETA_MIN
        g = b * b / eta
        if g > best_gain:
            best_gain = g
            best = v
    return best


@nb.njit(cache=True, nogil=True)
def _update_pair(i, j, Xu, code, params, diag, dual, F, c2, cs, ext, iext, stats):
    """Step on the pair ``(i, j)``; update ``F`` with the two cached rows (Eq. (15))."""
    if i == j:
        return False
    ri = cache_get_row(i, Xu, Xu, code, params, cs)
    rj = cache_get_row(j, Xu, Xu, code, params, cs)
    ok, ni, nj = take_step(dual[i], dual[j], F[i], F[j], diag[i], diag[j], float(ri[j]), c2)
    if not ok:
        stats[1] += 1
        return False
    di = ni - dual[i]
    dj = nj - dual[j]
    dual[i] = ni
    dual[j] = nj
    for u in range(F.shape[0]):
        F[u] -= di * ri[u] + dj * rj[u]
    _extremes(dual, F, c2, ext, iext)
    stats[0] += 1
    return True


@nb.njit(cache=True, nogil=True)
def _paper_partner(u, s, f, c2, tau, ext, iext, nb_only):
    """Partner of ``u`` attached to its largest Definition-1 violation (``examineexample.m``)."""
    half = 0.5 * c2
    o = 4 if not nb_only else 8
    m1max, m2min, m3min, m3max = ext[o], ext[o + 1], ext[o + 2], ext[o + 3]
    best, partner = tau, -1
    if s < half:  # CASE 1 / 2: u in D1
        v = f - m2min + 2.0
        if v > best:
            best, partner = v, iext[o + 1]
        v = f - m3min
        if v > best:
            best, partner = v, iext[o + 2]
    if s > 0.0 and s < c2:  # u in D3 (CASE 2, 3, 4)
        v = m1max - f
        if v > best:
            best, partner = v, iext[o]
        v = f - m2min
        if v > best:
            best, partner = v, iext[o + 1]
    if s > half:  # CASE 4 / 5: u in D2
        v = m1max - f + 2.0
        if v > best:
            best, partner = v, iext[o]
        v = m3max - f
        if v > best:
            best, partner = v, iext[o + 3]
    return partner


@nb.njit(cache=True, nogil=True)
def _whole_pass(mode, Xu, code, params, diag, dual, F, c2, tau, cs, ext, iext, stats):
    """One whole-set pass: examine every sample in order (Section 4.3). Returns #updates."""
    n = dual.shape[0]
    changed = 0
    for u in range(n):
        s = dual[u]
        f = F[u]
        if mode == COMPLETE:
            vu = -np.inf
            vd = -np.inf
            if s < c2:
                vu = -(_up(s, f, c2) + ext[_MINDN])
            if s > 0.0:
                vd = -(ext[_MINUP] + _dn(s, f, c2))
            if vu <= tau and vd <= tau:
                continue
            ru = cache_get_row(u, Xu, Xu, code, params, cs)
            if vu >= vd:
                i = u
                j = _partner_dn(u, ru, diag, dual, F, c2, tau, False)
            else:
                j = u
                i = _partner_up(u, ru, diag, dual, F, c2, tau, False)
            if i < 0 or j < 0:
                continue
        else:
            partner = _paper_partner(u, s, f, c2, tau, ext, iext, False)
            if partner < 0 or partner == u:
                continue
            i, j = partner, u
        if _update_pair(i, j, Xu, code, params, diag, dual, F, c2, cs, ext, iext, stats):
            changed += 1
    return changed


@nb.njit(cache=True, nogil=True)
def _nonbound_pass(mode, Xu, code, params, diag, dual, F, c2, tau, cs, ext, iext, stats,
                   max_updates):
    """One non-bound pass: pairs from the non-bound set until it is tau-optimal (Section 4.3)."""
    changed = 0
    while changed < max_updates:
        if mode == COMPLETE:
            if ext[_MINUP_NB] + ext[_MINDN_NB] >= -tau:
                break
            i = iext[_MINUP_NB]
            ri = cache_get_row(i, Xu, Xu, code, params, cs)
            j = _partner_dn(i, ri, diag, dual, F, c2, tau, True)
            if j < 0:
                break
        else:
            q1 = ext[_M1MAX_NB] - ext[_M3MIN_NB]
            q2 = ext[_M3MAX_NB] - ext[_M2MIN_NB]
            q3 = ext[_M1MAX_NB] - ext[_M2MIN_NB] + 2.0
            q = max(q1, max(q2, q3))
            if q <= tau:
                break
            if q1 == q:
                i, j = iext[_M1MAX_NB], iext[_M3MIN_NB]
            elif q2 == q:
                i, j = iext[_M3MAX_NB], iext[_M2MIN_NB]
            else:
                i, j = iext[_M1MAX_NB], iext[_M2MIN_NB]
        if not _update_pair(i, j, Xu, code, params, diag, dual, F, c2, cs, ext, iext, stats):
            break
        changed += 1
    return changed


@nb.njit(cache=True, nogil=True)
def _initial_outputs(Xu, code, params, dual, G):
    """``F = G - K_UU dual`` without the Gram matrix (symmetric loop, n^2/2 kernel values)."""
    n = Xu.shape[0]
    F = G.copy()
    for u in range(n):
        su = dual[u]
        F[u] -= su * kernel_value(Xu[u], Xu[u], code, params)
        for v in range(u + 1, n):
            sv = dual[v]
            if su == 0.0 and sv == 0.0:
                continue
            k = kernel_value(Xu[u], Xu[v], code, params)
            F[u] -= sv * k
            F[v] -= su * k
    return F


@nb.njit(cache=True, nogil=True)
def _decision_core(X, Xp, Xu, dual, c1, beta, code, params):
    nz = np.nonzero(dual)[0]
    out = np.empty(X.shape[0])
    for r in range(X.shape[0]):
        x = X[r]
        acc = 0.0
        for i in range(Xp.shape[0]):
            acc += kernel_value(x, Xp[i], code, params)
        acc *= c1
        for t in range(nz.shape[0]):
            v = nz[t]
            acc -= dual[v] * kernel_value(x, Xu[v], code, params)
        out[r] = acc + beta
    return out


# --------------------------------------------------------------------------- helpers
def kkt_violation(dual, F, c2, *, bound_tol: float = 0.0) -> float:
    """Complete-rule violation ``max(0, -(min up + min dn))`` (Definition 1 made complete).

    Zero iff the four conditions (13) + ``m3max - m3min <= 2`` hold, i.e. iff a bias
    satisfying the KKT table (11) exists (Section 4.2). ``bound_tol`` (times ``c2``) counts
    values that close to ``0``, ``c2/2`` or ``c2`` as being there, for solutions of interior
    point solvers.
    """
    dual = np.asarray(dual, dtype=float)
    F = np.asarray(F, dtype=float)
    eps = bound_tol * c2
    half = 0.5 * c2
    can_up = dual < c2 - eps
    can_dn = dual > eps
    up = np.where(dual < half - eps, -F - 1.0, -F + 1.0)
    dn = np.where(dual <= half + eps, F + 1.0, F - 1.0)
    if not can_up.any() or not can_dn.any():
        return 0.0
    return float(max(0.0, -(up[can_up].min() + dn[can_dn].min())))


def paper_rule_violation(dual, F, c2) -> float:
    """Largest of the three quantities (13) (the paper's incomplete rule), clipped at 0."""
    dual = np.asarray(dual, dtype=float)
    F = np.asarray(F, dtype=float)
    half = 0.5 * c2
    d1, d2, d3 = dual < half, dual > half, (dual > 0) & (dual < c2)
    m1max = F[d1].max() if d1.any() else -np.inf
    m2min = F[d2].min() if d2.any() else np.inf
    m3min = F[d3].min() if d3.any() else np.inf
    m3max = F[d3].max() if d3.any() else -np.inf
    return float(max(0.0, m1max - m3min, m3max - m2min, m1max - m2min + 2.0))


def bias_interval(dual, F, c2, *, tol: float = _NB_TOL) -> tuple[float, float]:
    """Interval ``[lo, hi]`` of the biases ``beta`` that satisfy the KKT conditions at ``dual``.

    Each unlabelled sample constrains ``f = F + beta`` through its multiplier (Eq. (16)
    and the KKT table (11), Sections 4.2 and 4.4): ``dual = 0`` gives ``f <= -1``;
    ``0 < dual < c2/2`` gives ``f = -1``;
    ``dual = c2/2`` gives ``-1 <= f <= 1``; ``c2/2 < dual < c2`` gives ``f = 1``;
    ``dual = c2`` gives ``f >= 1`` (``tol`` is relative to ``c2``). When a non-bound sample
    exists the interval is (up to solver accuracy) a single point; when every sample is at a
    bound the optimal bias is not unique and any ``beta`` in the interval gives the same
    primal value (5). ``lo > hi`` only through the inexactness of ``dual``.
    """
    dual = np.asarray(dual, dtype=float)
    F = np.asarray(F, dtype=float)
    half, eps = 0.5 * c2, tol * c2
    zero, full = dual <= eps, dual >= c2 - eps
    mid = np.abs(dual - half) <= eps
    low_nb = ~zero & ~mid & (dual < half)   # f = -1
    up_nb = ~full & ~mid & (dual > half)    # f = +1
    ub = np.concatenate([-1.0 - F[zero | low_nb], 1.0 - F[mid | up_nb]])
    lb = np.concatenate([1.0 - F[full | up_nb], -1.0 - F[mid | low_nb]])
    return (float(lb.max()) if lb.size else -np.inf, float(ub.min()) if ub.size else np.inf)


def bias_from_F(dual, F, c2, *, nb_tol: float = _NB_TOL) -> float:
    """Bias ``beta`` by Eq. (16) (Section 4.4), with the midpoint of the KKT interval of (11)
    as the fallback.

    Non-bound samples are those with ``nb_tol c2 < delta_u < c2 - nb_tol c2`` (the official
    code uses an absolute ``1e-8``; a relative tolerance keeps the rule scale-free). Without
    any, ``beta`` is the midpoint of :func:`bias_interval` (one end if the other is infinite).
    """
    dual = np.asarray(dual, dtype=float)
    F = np.asarray(F, dtype=float)
    half = 0.5 * c2
    delta = 2.0 * np.minimum(dual, c2 - dual)
    eps = nb_tol * c2
    nbm = (delta > eps) & (delta < c2 - eps)
    if nbm.any():
        b = np.where(dual[nbm] < half, -1.0 - F[nbm], 1.0 - F[nbm])
        return float(b.mean())
    lo, hi = bias_interval(dual, F, c2, tol=nb_tol)
    if np.isfinite(lo) and np.isfinite(hi):
        return float(0.5 * (lo + hi))
    if np.isfinite(lo):
        return float(lo)
    if np.isfinite(hi):
        return float(hi)
    return 0.0  # pragma: no cover - n >= 1 always gives one bound


def dual_objective(dual, Kuu, Kup1, c1, c2) -> float:
    """Value of the dual (6) at ``(dual, delta = 2 min(dual, c2 - dual))``.

    ``1/2 dual' K_UU dual - c1 (K_UP 1_p)' dual - 1/2 1' delta`` with ``Kup1 = K_UP 1_p``.
    """
    dual = np.asarray(dual, dtype=float)
    delta = 2.0 * np.minimum(dual, c2 - dual)
    return float(0.5 * dual @ (Kuu @ dual) - c1 * (Kup1 @ dual) - 0.5 * delta.sum())


def _objective_from_F(dual, F, G, c2) -> float:
    # dual' K dual = dual' (G - F);  c1 (K_UP 1)' dual = dual' G
    delta = 2.0 * np.minimum(dual, c2 - dual)
    return float(-0.5 * (dual @ (G + F)) - 0.5 * delta.sum())


# --------------------------------------------------------------------------- public API
@dataclass(repr=False)
class USMOResult:
    """Result of :func:`usmo`.

    Attributes
    ----------
    dual : array (n,)
        The dual variables of (6), one per unlabelled sample, in ``[0, c2]`` (the paper's
        σ_u; the classifier weighs ``k(x, x_u)`` by ``-dual_u``).
    delta : array (n,)
        The other half of the dual solution, ``delta = 2 min(dual, c2 - dual)`` (Lemma 1).
    c1, c2 : float
        ``pi / (2 lam p)`` and ``1 / (2 lam n)``.
    beta : float
        Bias by (16) (midpoint fallback).
    alpha_p : float
        Weight ``c1`` of every labelled positive (Eq. (7)); ``alpha_u = -dual_u``.
    dual_objective : float
        Value of (6).
    passes, pair_updates : int
        Passes (whole-set + non-bound, the "iterations" of Fig. 1) and successful steps.
    kkt_violation : float
        Complete-rule violation ``max(0, -(min up + min dn))`` at the end, for either rule.
    converged : bool
        The chosen stopping rule holds at tolerance ``tau``.
    trace : dict of arrays, one entry per pass
        ``seconds``, ``dual_objective``, ``n_changed``, ``kind`` (1 = whole-set,
        0 = non-bound), ``kkt_violation``.
    init_dual, init_beta : the initial point and its classifier (the "Init*" column).
    init_seconds, solve_seconds : time of the initialisation and of the passes.
    kernel_rows_computed, cache_hits : LRU row-cache statistics.
    F : array (n,)
        Final bias-free outputs ``F_u = f(x_u) - beta``.
    """

    dual: np.ndarray
    delta: np.ndarray
    c1: float
    c2: float
    beta: float
    alpha_p: float
    dual_objective: float
    passes: int
    pair_updates: int
    kkt_violation: float
    converged: bool
    trace: dict
    init_dual: np.ndarray
    init_beta: float
    init_seconds: float
    solve_seconds: float
    kernel_rows_computed: int
    cache_hits: int
    F: np.ndarray
    stopping: str = "complete"
    tau: float = 2e-3
    failed_steps: int = 0
    info: dict = field(default_factory=dict)

    @property
    def n_nonbound(self) -> int:
        """Number of samples with ``0 < delta < c2`` (the paper's non-bound set)."""
        return int(np.sum((self.delta > _NB_TOL * self.c2)
                          & (self.delta < self.c2 - _NB_TOL * self.c2)))

    def __repr__(self) -> str:
        return (f"USMOResult(n={self.dual.shape[0]}, dual_objective={self.dual_objective:.10g}, "
                f"beta={self.beta:.6g}, passes={self.passes}, pair_updates={self.pair_updates}, "
                f"kkt_violation={self.kkt_violation:.3g}, converged={self.converged})")


def _check_inputs(Xp, Xu, lam, pi, tau):
    Xp = check_matrix(Xp, "Xp", min_rows=1)
    Xu = check_matrix(Xu, "Xu", min_rows=1, n_features=Xp.shape[1])
    lam = check_positive(lam, "lam")
    pi = check_prior(pi, "pi")
    tau = check_positive(tau, "tau")
    return Xp, Xu, lam, pi, tau


def _constant_part(Xp, Xu, k: Kernel, c1: float) -> np.ndarray:
    """``G_u = c1 sum_P k(x_u, x_i)`` in O(p n d), without storing ``K_UP``."""
    if k.code == LINEAR:
        return c1 * (Xu @ Xp.sum(axis=0))
    return kernel_rowsum(Xu, Xp, k.code, k.params, c1)


def _outputs(Xu, k: Kernel, dual, G) -> np.ndarray:
    if k.code == LINEAR:
        return G - Xu @ (Xu.T @ dual)
    return _initial_outputs(Xu, k.code, k.params, dual, G)


def usmo(Xp, Xu, kernel="linear", lam=1e-2, pi=0.5, *, tau=2e-3, stopping="complete",
         init="ocsvm", dual0=None, cache_mb=200.0, max_passes=100_000, record_trace=True,
         random_state=None, cache_dtype="float64") -> USMOResult:
    """Train the double-hinge PU classifier by USMO (Section 4, Algorithm 1).

    Parameters
    ----------
    Xp : array (p, d)
        Labelled positives (``p >= 1``).
    Xu : array (n, d)
        Unlabelled samples (``n >= 1``).
    kernel : str or Kernel
        ``"linear"``, ``"gaussian"`` (``sigma = 1`` by default; pass
        ``make_kernel("gaussian", sigma=...)`` otherwise) or ``"polynomial"``.
    lam : float
        Regularisation ``lambda > 0`` of Eq. (4).
    pi : float
        Positive class prior in (0, 1).
    tau : float
        Tolerance of the tau-KKT test (12)/(13) (the official code uses ``2e-3``).
    stopping : {"complete", "paper"}
        ``"complete"``: the up/dn rule, Definition 1 made complete (Section 4.3): conditions
        (13) plus the missing ``m3max - m3min <= 2 + tau``. ``"paper"``: the paper's rule
        (13)/Definition 1 only, which can stop at a suboptimal point (Section 4.2, Eq. (13);
        README, "USMO in brief").
    init : {"ocsvm", "trivial"}
        ``"ocsvm"``: the one-class-SVM ranking initialisation (17)-(18) with an exact
        feasibility repair (Section 4.5); ``"trivial"``: ``dual_u = c1 p / n``.
    dual0 : array (n,), optional
        An explicit initial point (overrides ``init``); it must satisfy the constraints up to
        rounding and is then repaired exactly.
    cache_mb : float, None or "auto"
        Budget of the LRU kernel-row cache in MB (at least two rows are kept); ``None``: all
        of ``K_UU`` when it needs at most 1024 MB, else 1024 MB
        (:func:`weaklabel.kernels.cache_budget`). When the budget holds all of ``K_UU``
        (``8 n^2`` bytes in float64), it is filled once at the start, by symmetry, and the
        start ``F`` is computed from it (one matrix product); otherwise rows are computed on
        demand and memory stays linear in ``n``. The two starts round ``F`` differently, so
        a budget on the other side of ``8 n^2`` bytes can change the iterates (not the
        optimum); the default stays 200 MB for that reason (the committed USMO results).
    max_passes : int
        Cap on the number of passes; ``0`` returns the initial point (no warning).
    record_trace : bool
        Record per-pass time, objective, number of changes and kind.
    random_state : int, Generator or None
        Only used to break ties in the OCSVM ranking (``None``: by index).
    cache_dtype : {"float64", "float32"}
        Storage of the cached rows (``"float32"``: LIBSVM's ``Qfloat``, twice the rows in the
        same budget; the steps then use the rows rounded to float32).

    Returns
    -------
    USMOResult

    Warns
    -----
    ConvergenceWarning
        When ``max_passes`` is reached (or no step can make progress) before the stopping
        rule holds.
    """
    Xp, Xu, lam, pi, tau = _check_inputs(Xp, Xu, lam, pi, tau)
    check_choice(stopping, "stopping", {"complete", "paper"})
    cache_mb = check_cache_mb(cache_mb)
    max_passes = check_int(max_passes, "max_passes", minimum=0)
    k = make_kernel(kernel)
    p, n = Xp.shape[0], Xu.shape[0]
    c1 = pi / (2.0 * lam * p)
    c2 = 1.0 / (2.0 * lam * n)
    target = c1 * p
    mode = COMPLETE if stopping == "complete" else PAPER

    t0 = time.perf_counter()
    if dual0 is not None:
        dual = _check_dual0(dual0, n, target, c2)
    else:
        check_choice(init, "init", {"ocsvm", "trivial"})
        if init == "trivial":
            dual = trivial_init(n, target, c2)
        else:
            dual = ocsvm_init(Xp, Xu, k, pi, target, c2, random_state=random_state)
    G = _constant_part(Xp, Xu, k, c1)
    cache = KernelRowCache(Xu, kernel=k, cache_mb=cache_mb, cache_dtype=cache_dtype)
    if cache.holds_all_rows:
        # the budget holds all of K_UU: fill it once by symmetry (n^2/2 kernel values, as
        # many as F alone would cost) so that no pass ever computes a row again
        F = G - cache.fill_all() @ dual
    else:
        F = _outputs(Xu, k, dual, G)
    init_dual = dual.copy()
    init_beta = bias_from_F(dual, F, c2)
    init_seconds = time.perf_counter() - t0

    t1 = time.perf_counter()
    diag = kernel_diag(Xu, k.code, k.params)
    ext = np.empty(12)
    iext = np.empty(12, dtype=np.int64)
    stats = np.zeros(2, dtype=np.int64)  # [pair updates, failed steps]
    _extremes(dual, F, c2, ext, iext)
    args = (Xu, k.code, k.params, diag, dual, F, c2, tau, cache.state, ext, iext, stats)
    max_nb_updates = max(10_000, 100 * n)
    tr_sec, tr_obj, tr_ch, tr_kind, tr_kkt = [], [], [], [], []
    passes = 0
    whole = True
    stalled = False
    finished = False
    while passes < max_passes:
        ts = time.perf_counter()
        if whole:
            changed = _whole_pass(mode, *args)
        else:
            changed = _nonbound_pass(mode, *args, max_nb_updates)
        passes += 1
        if record_trace:
            tr_sec.append(time.perf_counter() - ts)
            tr_obj.append(_objective_from_F(dual, F, G, c2))
            tr_ch.append(changed)
            tr_kind.append(1 if whole else 0)
            tr_kkt.append(kkt_violation(dual, F, c2))
        if whole and changed == 0:
            finished = True
            break
        whole = not whole
    solve_seconds = time.perf_counter() - t1

    viol = kkt_violation(dual, F, c2)
    rule_viol = viol if mode == COMPLETE else paper_rule_violation(dual, F, c2)
    converged = rule_viol <= tau
    if not converged and max_passes > 0:
        if finished:
            stalled = True
            warnings.warn(
                f"usmo: no step can decrease the objective but the tau-KKT test fails "
                f"(violation {rule_viol:.3g} > tau={tau:g}); the problem is numerically "
                "degenerate at this tolerance; loosen tau.", ConvergenceWarning, stacklevel=2)
        else:
            warn_not_converged("usmo", max_passes, rule_viol, param="max_passes", tol_param="tau")
    beta = bias_from_F(dual, F, c2)
    delta = 2.0 * np.minimum(dual, c2 - dual)
    trace = {
        "seconds": np.asarray(tr_sec, dtype=float),
        "dual_objective": np.asarray(tr_obj, dtype=float),
        "n_changed": np.asarray(tr_ch, dtype=np.int64),
        "kind": np.asarray(tr_kind, dtype=np.int64),
        "kkt_violation": np.asarray(tr_kkt, dtype=float),
    }
    return USMOResult(
        dual=dual, delta=delta, c1=c1, c2=c2, beta=beta, alpha_p=c1,
        dual_objective=_objective_from_F(dual, F, G, c2), passes=passes,
        pair_updates=int(stats[0]), kkt_violation=viol, converged=bool(converged),
        trace=trace, init_dual=init_dual, init_beta=init_beta, init_seconds=init_seconds,
        solve_seconds=solve_seconds, kernel_rows_computed=cache.misses, cache_hits=cache.hits,
        F=F, stopping=stopping, tau=tau, failed_steps=int(stats[1]),
        info={"stalled": stalled, "cache_slots": cache.n_slots, "kernel": k, "lam": lam,
              "pi": pi, "init": "dual0" if dual0 is not None else init},
    )


def _check_dual0(dual0, n, target, c2):
    s = np.asarray(dual0, dtype=float)
    if s.ndim != 1 or s.shape[0] != n:
        raise ValueError(f"dual0 must be a 1-D array of length n = {n} (rows of Xu), "
                         f"got shape {s.shape}.")
    if not np.all(np.isfinite(s)):
        raise ValueError("dual0 contains NaN or infinite values.")
    slack = 1e-8 * c2
    if s.min() < -slack or s.max() > c2 + slack:
        raise ValueError(f"dual0 must satisfy 0 <= dual0 <= c2 = 1/(2 lam n) = {c2:.6g}.")
    total = math.fsum(s)
    if abs(total - target) > 1e-6 * max(1.0, target):
        raise ValueError(f"dual0 must satisfy sum(dual0) = c1 p = pi/(2 lam) = {target:.6g}, "
                         f"got {total:.6g}.")
    return feasible_repair(np.clip(s, 0.0, c2), target, c2)


def usmo_decision_function(result: USMOResult, Xp, Xu, X, kernel="linear", *,
                           init: bool = False) -> np.ndarray:
    """``f(x) = c1 sum_P k(x, x_i) - sum_U dual_u k(x, x_u) + beta`` (Eq. (7)).

    Computed row by row in numba (only the non-zero ``dual_u`` are visited), so no Gram
    block is stored. ``init=True`` evaluates the initial classifier (``init_dual``,
    ``init_beta``: the "Init*" column). ``Xp``, ``Xu`` and ``kernel`` must be those of the fit.
    """
    k = make_kernel(kernel)
    Xp = check_matrix(Xp, "Xp", min_rows=1)
    Xu = check_matrix(Xu, "Xu", min_rows=1, n_features=Xp.shape[1])
    X = check_matrix(X, "X", min_rows=0, n_features=Xp.shape[1])
    dual = result.init_dual if init else result.dual
    beta = result.init_beta if init else result.beta
    if dual.shape[0] != Xu.shape[0]:
        raise ValueError(f"Xu has {Xu.shape[0]} rows but the result has {dual.shape[0]} "
                         "unlabelled weights; pass the Xu used in the fit.")
    return double_hinge_decision(X, Xp, Xu, dual, result.c1, beta, k)


def double_hinge_decision(X, Xp, Xu, dual, c1, beta, kernel) -> np.ndarray:
    """``f(x) = c1 sum_P k(x, x_i) - sum_U dual_u k(x, x_u) + beta`` for any dual point
    ``dual`` (USMO's, the reference QP's or the initial one), without storing a Gram block.
    Arrays must already be validated float64 C-contiguous."""
    k = make_kernel(kernel)
    dual = np.ascontiguousarray(dual, dtype=float)
    if k.code == LINEAR:
        w = c1 * Xp.sum(axis=0) - Xu.T @ dual
        return X @ w + beta
    return _decision_core(X, Xp, Xu, dual, float(c1), float(beta), k.code, k.params)
