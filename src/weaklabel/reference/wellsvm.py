"""cvxpy and brute-force references for WellSVM (Li, Tsang, Kwok & Zhou, JMLR 2013).

Tiny problems only (N <= 40, working sets T <= 4, label sets enumerated for u <= 12):

- :func:`mlkl_reference`: the MLKL optimum of Eq. (15) over a fixed working set as one
  convex program, written as the dual of the epigraph form Eq. (5)::

      max_{a in A, theta}  g(a) - theta   s.t.  1/2 (a o y_t)' K (a o y_t) <= theta  (all t)

  with ``g(a) = 1'a`` and ``A = {0 <= a <= C}`` (hinge dual without offset) or ``g(a) =
  -1/2 a'Da`` and ``A = {a >= 0, 1'a = 1}`` (mu-SVM); the multipliers of the ``T``
  constraints are the kernel weights ``mu`` (Prop. 1).
- label sets and brute-force oracles: :func:`enumerate_ssl_labels` (balance set),
  :func:`enumerate_band_labels` (clustering, ``|1'y| <= beta``), :func:`brute_force_argmax`
  (``argmax r'y`` over an enumerated set), :func:`brute_force_bags` (MIL per bag).
- :func:`box_dual_values` / :func:`p_mip_batched`: ``max_a G(a, y)`` of the hinge dual
  without offset for every row of an enumerated label set at once (the primal active-set
  method in numpy), for ``p_MIP`` over the few thousand labellings of ``N = 12 - 14``
  points, where one cvxpy solve per labelling is too slow.
- the three optima of Theorem 1: :func:`p_mip` (enumeration of ``B``), :func:`p_sdp`
  (the SDP relaxation over the set of Xu et al. 2005, SSL or clustering form) and
  :func:`p_wellsvm` (the cutting plane with the exact most-violated label), which satisfy
  ``p_SDP <= p_WellSVM <= p_MIP``.
"""

from __future__ import annotations

import itertools
import time
import warnings
from dataclasses import dataclass, field

import cvxpy as cp
import numpy as np

from .._validation import check_choice, check_int, check_matrix, check_positive, check_vector
from .qp import ReferenceSolverError, make_psd

__all__ = ["MLKLReference", "box_dual_values", "brute_force_argmax", "brute_force_bags",
           "enumerate_band_labels", "enumerate_ssl_labels", "mlkl_reference",
           "most_violated_label", "p_mip", "p_mip_batched", "p_sdp", "p_wellsvm",
           "single_label_value"]

_OK = {cp.OPTIMAL}


def _factor(K):
    """``R`` with ``R'R = K`` (K made PSD up to rounding)."""
    K, _, _ = make_psd(K, name="K")
    w, V = np.linalg.eigh(K)
    w = np.clip(w, 0.0, None)
    return (V * np.sqrt(w)).T


def _costs(C, n):
    if np.ndim(C) == 0:
        return np.full(n, check_positive(C, "C"))
    c = check_vector(C, "C", n=n)
    if np.any(c <= 0):
        raise ValueError("C must contain values > 0.")
    return c


@dataclass
class MLKLReference:
    """Solution of :func:`mlkl_reference`: ``objective`` (the MLKL optimum ``p``),
    ``alpha``, ``mu`` (multipliers of the epigraph constraints, normalised), ``theta``."""

    objective: float
    alpha: np.ndarray
    mu: np.ndarray
    theta: float
    status: str
    seconds: float
    info: dict = field(default_factory=dict)


def mlkl_reference(K, labels, C=1.0, *, problem: str = "box", diag=None,
                   solver: str = "CLARABEL") -> MLKLReference:
    """MLKL optimum of Eq. (15) (Li et al. 2013) over the working set ``labels`` (T, N).

    See the module docstring for the program; ``problem="box"`` uses ``C`` (scalar or
    per-point), ``"simplex"`` uses ``diag`` (``D``, e.g. ``1/C_i``).
    """
    K = check_matrix(K, "K")
    n = K.shape[0]
    Y = np.atleast_2d(np.asarray(labels, dtype=np.float64))
    if Y.shape[1] != n:
        raise ValueError(f"labels must have {n} columns, got {Y.shape}.")
    check_choice(problem, "problem", {"box", "simplex"})
    R = _factor(K)
    a = cp.Variable(n)
    theta = cp.Variable()
    cons = [0.5 * cp.sum_squares(R @ cp.multiply(Y[t], a)) <= theta for t in range(Y.shape[0])]
    if problem == "box":
        c = _costs(C, n)
        obj = cp.sum(a) - theta
        dom = [a >= 0, a <= c]
    else:
        d = np.zeros(n) if diag is None else check_vector(diag, "diag", n=n)
        obj = -0.5 * cp.sum_squares(cp.multiply(np.sqrt(np.maximum(d, 0.0)), a)) - theta
        dom = [a >= 0, cp.sum(a) == 1]
    prob = cp.Problem(cp.Maximize(obj), cons + dom)
    t0 = time.perf_counter()
    prob.solve(solver=solver)
    if prob.status not in _OK:
        raise ReferenceSolverError(f"mlkl_reference: solver status {prob.status}.")
    mu = np.array([float(np.ravel(cn.dual_value)[0]) for cn in cons])
    mu = np.clip(mu, 0.0, None)
    mu = mu / mu.sum() if mu.sum() > 0 else np.full(len(cons), 1.0 / len(cons))
    return MLKLReference(objective=float(prob.value), alpha=np.asarray(a.value).ravel(),
                         mu=mu, theta=float(theta.value), status=prob.status,
                         seconds=time.perf_counter() - t0, info={"solver": solver})


def single_label_value(K, y, C=1.0, *, problem: str = "box", diag=None) -> float:
    """``max_{a in A} G(a, y)`` for one label vector (the MLKL with ``T = 1``)."""
    return mlkl_reference(K, np.atleast_2d(y), C, problem=problem, diag=diag).objective


# --------------------------------------------------------------------------- label sets
def enumerate_ssl_labels(y_l, labelled_mask, n_pos: int) -> np.ndarray:
    """Every label vector of the SSL balance set (``y_L`` fixed, ``n_pos`` positives in U)."""
    mask = np.asarray(labelled_mask, dtype=bool)
    y_l = check_vector(y_l, "y_l", n=int(mask.sum()))
    unl = np.flatnonzero(~mask)
    n_pos = check_int(n_pos, "n_pos", minimum=0)
    if unl.size > 16:
        raise ValueError(f"enumerate_ssl_labels: {unl.size} unlabelled points; at most 16.")
    out = []
    for pos in itertools.combinations(range(unl.size), n_pos):
        y = np.empty(mask.size)
        y[mask] = y_l
        yu = -np.ones(unl.size)
        yu[list(pos)] = 1.0
        y[unl] = yu
        out.append(y)
    return np.array(out)


def enumerate_band_labels(n: int, beta: float, *, up_to_sign: bool = False) -> np.ndarray:
    """Every ``y in {-1, +1}^n`` with ``|1'y| <= beta`` (clustering, Li et al. 2013 Eq. (32));
    ``up_to_sign`` keeps one of ``y`` and ``-y`` (they give the same kernel)."""
    n = check_int(n, "n", minimum=1)
    if n > 16:
        raise ValueError(f"enumerate_band_labels: n={n}; at most 16.")
    beta = check_positive(beta, "beta", allow_zero=True)
    out = []
    for bits in itertools.product((-1.0, 1.0), repeat=n):
        y = np.array(bits)
        if abs(y.sum()) <= beta and (not up_to_sign or y[0] > 0):
            out.append(y)
    return np.array(out)


def brute_force_argmax(r, label_set) -> tuple[np.ndarray, float]:
    """``(y, r'y)`` maximising ``r'y`` over the rows of ``label_set``."""
    vals = np.asarray(label_set) @ check_vector(r, "r")
    i = int(np.argmax(vals))
    return np.asarray(label_set)[i].copy(), float(vals[i])


def brute_force_bags(r, bag_ptr) -> tuple[np.ndarray, float]:
    """``(d, r'd)`` maximising ``r'd`` over one key instance per bag, by enumeration."""
    r = check_vector(r, "r")
    ptr = np.asarray(bag_ptr)
    bags = [range(int(ptr[b]), int(ptr[b + 1])) for b in range(ptr.size - 1)]
    best, best_d = -np.inf, None
    for pick in itertools.product(*bags):
        v = float(r[list(pick)].sum())
        if v > best:
            best = v
            best_d = np.zeros(r.shape[0])
            best_d[list(pick)] = 1.0
    return best_d, best


def most_violated_label(alpha, K, label_set) -> tuple[np.ndarray, float]:
    """``(y, y'Hy)`` maximising ``y'Hy`` (``H = K o aa'``) over the rows of ``label_set``:
    the exact most violated label of Eqs. (18)-(20)."""
    Z = np.asarray(label_set) * check_vector(alpha, "alpha")[None, :]
    vals = np.einsum("ti,ij,tj->t", Z, check_matrix(K, "K"), Z)
    i = int(np.argmax(vals))
    return np.asarray(label_set)[i].copy(), float(vals[i])


# --------------------------------------------------------------------------- Theorem 1
def p_mip(K, label_set, C=1.0, *, problem: str = "box", diag=None) -> tuple[float, np.ndarray]:
    """``p_MIP = min_{y in B} max_a G(a, y)`` (Eq. (3)) by enumerating ``label_set``; returns
    ``(value, argmin label)``. Labels ``y`` and ``-y`` give the same value."""
    best, arg = np.inf, None
    for y in np.asarray(label_set):
        v = single_label_value(K, y, C, problem=problem, diag=diag)
        if v < best:
            best, arg = v, y.copy()
    return best, arg


def p_wellsvm(K, label_set, C=1.0, *, problem: str = "box", diag=None, y0=None,
              max_iter: int = 50, tol: float = 1e-7) -> tuple[float, np.ndarray]:
    """``p_WellSVM`` (Eq. (4)) by the cutting plane with the exact most violated label.

    The working set starts at ``y0`` (default the first row of ``label_set``); at each
    step the MLKL over the working set is solved exactly (:func:`mlkl_reference`) and the
    label maximising ``y'Hy`` over all of ``label_set`` is added, until it is not violated
    by more than ``tol`` (relative). Returns ``(value, working set)``.
    """
    L = np.asarray(label_set, dtype=np.float64)
    work = [L[0] if y0 is None else np.asarray(y0, dtype=np.float64)]
    for _ in range(max_iter):
        ref = mlkl_reference(K, np.array(work), C, problem=problem, diag=diag)
        y, v = most_violated_label(ref.alpha, K, L)
        Z = np.array(work) * ref.alpha[None, :]
        cur = float(np.max(np.einsum("ti,ij,tj->t", Z, K, Z)))
        if v <= cur + tol * max(1.0, abs(cur)):
            return ref.objective, np.array(work)
        work.append(y)
    raise ReferenceSolverError(f"p_wellsvm: no convergence in {max_iter} cutting-plane steps.")


def p_sdp(K, C=1.0, *, form: str = "clustering", beta: float = 0.0, y_l=None,
          labelled_mask=None, n_pos=None, solver: str = "CLARABEL") -> float:
    """The SDP relaxation ``min_{M in Y_2} max_{0 <= a <= C} 1'a - 1/2 a'(K o M)a`` (Eq. (10)).

    ``Y_2`` is ``{M psd} intersected with`` the set of Xu et al. 2005: ``-1 <= m_ij <= 1``,
    ``m_ii = 1``, symmetry, ``m_ik >= m_ij + m_jk - 1``, ``m_jk >= -m_ij - m_ik - 1``, and
    ``form="clustering"``: ``-beta <= sum_i m_ij <= beta``; ``form="ssl"``: ``M_LL =
    y_L y_L'``, ``m_il y_l`` equal for every labelled ``l`` (``= y_i``) and the balance
    ``sum_{j in U} m_ij = c y_i`` with ``c = 2 n_pos - u`` (linear in ``M`` through
    ``y_i = m_{i l0} y_{l0}``). Every constraint holds for ``M = yy'`` with ``y in B``, so
    ``p_SDP <= p_WellSVM`` (Theorem 1). The inner max is dualised (``a`` box, multipliers
    ``u >= 0`` of ``a <= C`` and ``v >= 0`` of ``a >= 0``)::

        min t + C'u   s.t.  [[K o M, 1 + v - u], [(1 + v - u)', 2 t]] psd.
    """
    K = check_matrix(K, "K")
    n = K.shape[0]
    if n > 20:
        raise ValueError(f"p_sdp: N={n}; at most 20.")
    check_choice(form, "form", {"clustering", "ssl"})
    c = _costs(C, n)
    M = cp.Variable((n, n), symmetric=True)
    t = cp.Variable()
    u = cp.Variable(n, nonneg=True)
    v = cp.Variable(n, nonneg=True)
    z = cp.reshape(1 + v - u, (n, 1), order="C")
    P = cp.multiply(K, M)
    block = cp.bmat([[P, z], [z.T, cp.reshape(2 * t, (1, 1), order="C")]])
    cons = [block >> 0, M >> 0, cp.diag(M) == 1, M <= 1, M >= -1]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            for k in range(n):
                if k in (i, j):
                    continue
                cons.append(M[i, k] >= M[i, j] + M[j, k] - 1)
                cons.append(M[j, k] >= -M[i, j] - M[i, k] - 1)
    if form == "clustering":
        beta = check_positive(beta, "beta", allow_zero=True)
        cons += [cp.sum(M, axis=0) <= beta, cp.sum(M, axis=0) >= -beta]
    else:
        mask = np.asarray(labelled_mask, dtype=bool)
        lab = np.flatnonzero(mask)
        unl = np.flatnonzero(~mask)
        y_l = check_vector(y_l, "y_l", n=lab.size)
        cbal = 2 * check_int(n_pos, "n_pos", minimum=0) - unl.size
        cons.append(M[np.ix_(lab, lab)] == np.outer(y_l, y_l))
        l0 = lab[0]
        for i in range(n):
            yi = y_l[int(np.searchsorted(lab, i))] if mask[i] else M[i, l0] * y_l[0]
            if not mask[i]:
                for q, ll in enumerate(lab[1:], start=1):
                    cons.append(M[i, ll] * y_l[q] == yi)
            cons.append(cp.sum(M[i, unl]) == cbal * yi)
    prob = cp.Problem(cp.Minimize(t + c @ u), cons)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prob.solve(solver=solver)
        if prob.status not in _OK:  # retry with SCS at a tight tolerance
            prob.solve(solver="SCS", eps=1e-9, max_iters=200_000)
    if prob.status not in _OK:
        raise ReferenceSolverError(f"p_sdp: solver status {prob.status}.")
    return float(prob.value)


def _box_qp_active_set(Q, c, tol, max_iter):
    """``argmax_{0 <= a <= c} 1'a - 1/2 a'Qa`` (``Q`` positive definite) by the primal
    active-set method (Nocedal & Wright, Algorithm 16.3, for bound constraints); returns
    ``(a, KKT violation)``. Finite; every step is exact linear algebra."""
    n = Q.shape[0]
    a = np.zeros(n)
    fixed = np.ones(n, dtype=bool)      # working set: variables held at a bound
    viol = np.inf
    for _ in range(max_iter):
        free = ~fixed
        target = a.copy()
        if np.any(free):
            rhs = 1.0 - Q[np.ix_(free, fixed)] @ a[fixed]
            target[free] = np.linalg.solve(Q[np.ix_(free, free)], rhs)
        d = target - a
        if np.all(np.abs(d[free]) <= 1e-15 * (1.0 + np.abs(a[free]))) or not np.any(free):
            g = 1.0 - Q @ a
            # multipliers of the bounds in the working set: g <= 0 at 0, g >= 0 at c
            wrong = np.where(fixed & (a <= 0), np.maximum(g, 0.0),
                             np.where(fixed & (a >= c), np.maximum(-g, 0.0), 0.0))
            viol = float(np.max(np.where(fixed, wrong, np.abs(g))))
            if wrong.max() <= tol:
                return a, viol
            fixed[int(np.argmax(wrong))] = False
            continue
        # longest feasible step along d (blocking bound joins the working set)
        with np.errstate(divide="ignore", invalid="ignore"):
            tk = np.where(free & (d < 0) & (a + d < 0), -a / d,
                          np.where(free & (d > 0) & (a + d > c), (c - a) / d, np.inf))
        block = int(np.argmin(tk))
        t = float(tk[block])
        if t >= 1.0:
            t, block = 1.0, -1
        a = a + t * d
        if block >= 0:
            a[block] = 0.0 if d[block] < 0 else c[block]
            fixed[block] = True
        a = np.clip(a, 0.0, c)
    return a, viol


def box_dual_values(K, label_set, C=1.0, *, tol: float = 1e-10,
                    max_iter: int = 1_000) -> np.ndarray:
    """``max_{0 <= a <= C} 1'a - 1/2 a'(K o yy')a`` for every row ``y`` of ``label_set``.

    The primal active-set method on each row (exact up to rounding; ``tol`` bounds the
    wrong-signed bound multipliers at the end). ``K`` must be positive definite.
    """
    K = check_matrix(K, "K")
    n = K.shape[0]
    Y = np.atleast_2d(np.asarray(label_set, dtype=np.float64))
    if Y.shape[1] != n:
        raise ValueError(f"label_set must have {n} columns, got {Y.shape}.")
    c = _costs(C, n)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    out = np.empty(Y.shape[0])
    for t, y in enumerate(Y):
        Q = K * np.outer(y, y)
        a, viol = _box_qp_active_set(Q, c, tol, max_iter)
        if viol > tol:
            raise ReferenceSolverError(f"box_dual_values: KKT violation {viol:.3g} > {tol} "
                                       f"after {max_iter} steps (label {t}).")
        out[t] = a.sum() - 0.5 * a @ Q @ a
    return out


def p_mip_batched(K, label_set, C=1.0, **kw) -> tuple[float, np.ndarray]:
    """:func:`p_mip` for the hinge dual without offset by :func:`box_dual_values` (all
    labellings at once); returns ``(value, argmin label)``."""
    L = np.atleast_2d(np.asarray(label_set, dtype=np.float64))
    v = box_dual_values(K, L, C, **kw)
    i = int(np.argmin(v))
    return float(v[i]), L[i].copy()
