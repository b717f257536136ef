"""cvxpy references for USMO: the dual (6) and the primal (5) of the double-hinge PU problem.

Equation numbers are the USMO paper's (TPAMI PDF numbering). With
``c1 = pi / (2 lam p)`` and ``c2 = 1 / (2 lam n)``:

- dual (6), variables ``(dual, delta)``, one pair per unlabelled sample (``dual`` is the
  paper's σ)::

      min 1/2 dual' K_UU dual - c1 1_p' K_PU dual - 1/2 1' delta
      s.t. sum(dual) = c1 p,  dual + delta/2 <= c2,  dual - delta/2 >= 0,  0 <= delta <= c2

- primal (5), variables ``(alpha, xi, beta)``::

      min -c1 1~' K alpha - c1 p beta + c2 1' xi + 1/2 alpha' K alpha
      s.t. xi >= 0,  xi >= U K alpha + beta,  xi >= 1/2 + (U K alpha + beta) / 2

Strong duality (derived from (5) and (6); Lemma 1, Section 4.1):
``min (5) = -min (6) - c1^2/2 1' K_PP 1``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cvxpy as cp
import numpy as np

from .._validation import check_matrix, check_positive, check_prior
from ..kernels import gram, make_kernel
from .qp import ReferenceSolverError, make_psd, solve_qp

__all__ = ["USMODualReference", "USMOPrimalReference", "usmo_dual_reference",
           "usmo_primal_reference", "usmo_kkt_violation", "usmo_primal_objective"]


@dataclass
class USMODualReference:
    """Solution of the dual (6) by :func:`usmo_dual_reference`.

    ``beta`` is the bias, recovered as the multiplier of the equality constraint
    (``beta = -y_eq`` in cvxpy's sign convention; checked against (16) in the tests).
    ``F`` are the bias-free outputs ``f(x_u) - beta`` at ``dual``.
    """

    dual: np.ndarray
    delta: np.ndarray
    objective: float
    beta: float
    seconds: float
    c1: float
    c2: float
    F: np.ndarray
    y_eq: float
    status: str

    @property
    def dual_objective(self) -> float:
        """Alias of ``objective`` (same name as :class:`weaklabel.solvers.USMOResult`)."""
        return self.objective


@dataclass
class USMOPrimalReference:
    """Solution of the primal (5) by :func:`usmo_primal_reference` (positives first)."""

    alpha: np.ndarray
    beta: float
    xi: np.ndarray
    objective: float
    seconds: float
    c1: float
    c2: float
    status: str


def _setup(Xp, Xu, kernel, lam, pi):
    Xp = check_matrix(Xp, "Xp", min_rows=1)
    Xu = check_matrix(Xu, "Xu", min_rows=1, n_features=Xp.shape[1])
    lam = check_positive(lam, "lam")
    pi = check_prior(pi, "pi")
    k = make_kernel(kernel)
    p, n = Xp.shape[0], Xu.shape[0]
    return Xp, Xu, k, pi / (2.0 * lam * p), 1.0 / (2.0 * lam * n)


def usmo_dual_reference(Xp, Xu, kernel="linear", lam=1e-2, pi=0.5, *, solver="CLARABEL",
                        **solver_opts) -> USMODualReference:
    """Solve the dual (6) in ``(dual, delta)`` with :func:`weaklabel.reference.solve_qp`.

    ``P = blockdiag(K_UU, 0)``, ``q = [-c1 K_UP 1_p, -1/2 1_n]``; the redundant
    ``delta <= c2`` and the implied ``0 <= dual <= c2`` are passed as bounds.
    """
    Xp, Xu, k, c1, c2 = _setup(Xp, Xu, kernel, lam, pi)
    p, n = Xp.shape[0], Xu.shape[0]
    Kuu = gram(Xu, kernel=k)
    Kup1 = gram(Xu, Xp, kernel=k).sum(axis=1)
    P = np.zeros((2 * n, 2 * n))
    P[:n, :n] = Kuu
    q = np.concatenate([-c1 * Kup1, -0.5 * np.ones(n)])
    A = np.concatenate([np.ones(n), np.zeros(n)])[None, :]
    eye = np.eye(n)
    G = np.block([[eye, 0.5 * eye], [-eye, 0.5 * eye]])
    h = np.concatenate([np.full(n, c2), np.zeros(n)])
    res = solve_qp(P, q, A=A, b=[c1 * p], G=G, h=h, lb=np.zeros(2 * n),
                   ub=np.full(2 * n, c2), solver=solver, **solver_opts)
    dual, delta = res.x[:n].copy(), res.x[n:].copy()
    y = float(res.y_eq[0])
    F = c1 * Kup1 - Kuu @ dual
    return USMODualReference(dual=dual, delta=delta, objective=res.objective, beta=-y,
                             seconds=res.seconds, c1=c1, c2=c2, F=F, y_eq=y,
                             status=res.status)


def usmo_primal_reference(Xp, Xu, kernel="linear", lam=1e-2, pi=0.5, *, solver="CLARABEL",
                          **solver_opts) -> USMOPrimalReference:
    """Solve the primal (5) with cvxpy (``cp.psd_wrap`` on the symmetrised Gram matrix)."""
    Xp, Xu, k, c1, c2 = _setup(Xp, Xu, kernel, lam, pi)
    p, n = Xp.shape[0], Xu.shape[0]
    K = gram(np.vstack([Xp, Xu]), kernel=k)
    Ks, jitter, _ = make_psd(K, name="K")
    K = 0.5 * (K + K.T)
    ones_t = np.r_[np.ones(p), np.zeros(n)]
    lin = K @ ones_t  # K 1~
    alpha = cp.Variable(p + n)
    xi = cp.Variable(n)
    beta = cp.Variable()
    fu = K[p:] @ alpha + beta
    obj = (-c1 * (lin @ alpha) - c1 * p * beta + c2 * cp.sum(xi)
           + 0.5 * cp.quad_form(alpha, cp.psd_wrap(Ks)))
    cons = [xi >= 0, xi >= fu, xi >= 0.5 + 0.5 * fu]
    prob = cp.Problem(cp.Minimize(obj), cons)
    t0 = time.perf_counter()
    try:
        prob.solve(solver=solver, **solver_opts)
    except cp.error.SolverError as exc:
        raise ReferenceSolverError(f"reference QP solver {solver} failed: {exc}") from exc
    seconds = time.perf_counter() - t0
    if prob.status != cp.OPTIMAL:
        raise ReferenceSolverError(f"primal (5) reference ({solver}) returned status "
                                   f"{prob.status!r}.")
    a = np.asarray(alpha.value, dtype=float)
    b = float(beta.value)
    value = usmo_primal_objective(K, p, c1, c2, a, b)
    return USMOPrimalReference(alpha=a, beta=b, xi=np.asarray(xi.value, dtype=float),
                               objective=value, seconds=seconds, c1=c1, c2=c2,
                               status=prob.status)


def usmo_primal_objective(K, p: int, c1: float, c2: float, alpha, beta: float) -> float:
    """Objective of (5) at ``(alpha, beta)`` with the optimal slacks
    ``xi_u = max(0, f_u, (1 + f_u)/2)``; ``K`` is the Gram matrix of ``[Xp; Xu]``."""
    K = np.asarray(K, dtype=float)
    alpha = np.asarray(alpha, dtype=float)
    Ka = K @ alpha
    fu = Ka[p:] + beta
    xi = np.maximum(0.0, np.maximum(fu, 0.5 * (1.0 + fu)))
    return float(-c1 * Ka[:p].sum() - c1 * p * beta + c2 * xi.sum() + 0.5 * alpha @ Ka)


def usmo_kkt_violation(dual, F, c2, *, bound_tol: float = 0.0) -> float:
    """Complete-rule KKT violation ``max(0, -(min up + min dn))`` of any solution of (6).

    ``F_u = f(x_u) - beta`` are the bias-free outputs (``c1 K_UP 1 - K_UU dual``).
    ``bound_tol`` (times ``c2``) treats ``dual`` that close to ``0``, ``c2/2`` or ``c2`` as
    being there, which is needed for interior-point solutions. See Definition 1 (Section 4.3)
    and :func:`weaklabel.solvers.usmo.kkt_violation`.
    """
    from ..solvers.usmo import kkt_violation

    return kkt_violation(dual, F, c2, bound_tol=bound_tol)
