"""cvxpy references of the label-kernel SVM duals solved by
:func:`weaklabel.solvers.smo.label_kernel_dual` (WellSVM's inner problems).

With ``Q = K o M + diag(d)`` and ``M = sum_t mu_t z_t z_t'`` (Li, Tsang, Kwok and Zhou,
JMLR 2013, Eq. (15) and Assumption 1)::

    (box)      min 1/2 a'Qa - 1'a   s.t. 0 <= a <= C            (hinge SVM without offset)
    (simplex)  min 1/2 a'Qa         s.t. a >= 0, 1'a = 1, a <= C  (the mu-SVM, d_i = 1/c_i)

solved by :func:`weaklabel.reference.solve_qp` (Clarabel) on the dense ``Q``, and the
KKT violations in the solvers' own measures (projected gradient for ``box``, the gap
``m(a) - M(a)`` of the pair SMO for ``simplex``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_matrix, check_vector
from .qp import solve_qp

__all__ = ["LabelKernelReference", "label_kernel_matrix", "label_kernel_dual_reference",
           "box_dual_kkt_violation", "simplex_dual_kkt_violation"]


@dataclass(repr=False)
class LabelKernelReference:
    """``alpha``, ``objective`` (``1/2 a'Qa - 1'a`` or ``1/2 a'Qa``), the multiplier ``rho``
    of ``1'a = 1`` (``simplex``; 0 for ``box``), the status and the solver's wall time."""

    alpha: np.ndarray
    objective: float
    rho: float
    status: str
    seconds: float


def _labels(labels, n):
    L = np.asarray(labels, dtype=np.float64)
    if L.ndim == 1:
        L = L[None, :]
    if L.ndim != 2 or L.shape[1] != n or not np.all(np.abs(L) == 1.0):
        raise ValueError(f"labels must be a (T, {n}) array of +1/-1, got shape "
                         f"{np.shape(labels)}.")
    return L


def label_kernel_matrix(K, labels, mu, diag=None) -> np.ndarray:
    """Dense ``Q = K o (sum_t mu_t z_t z_t') + diag(d)`` (for references and tests only)."""
    K = check_matrix(K, "K")
    n = K.shape[0]
    Z = _labels(labels, n)
    mu = check_vector(np.full(Z.shape[0], float(mu)) if np.ndim(mu) == 0 else mu, "mu",
                      n=Z.shape[0])
    if np.any(mu < 0):
        raise ValueError("mu must contain values >= 0.")
    Q = K * ((Z.T * mu) @ Z)
    if diag is not None:
        Q = Q + np.diag(np.broadcast_to(np.asarray(diag, dtype=np.float64), (n,)))
    return Q


def label_kernel_dual_reference(K, labels, mu, C=1.0, *, problem="box", diag=None,
                                solver="CLARABEL", **kw) -> LabelKernelReference:
    """Solve the ``box`` or ``simplex`` label-kernel dual with cvxpy on the dense ``Q``."""
    check_choice(problem, "problem", {"box", "simplex"})
    Q = label_kernel_matrix(K, labels, mu, diag)
    n = Q.shape[0]
    Cv = np.broadcast_to(np.asarray(C, dtype=np.float64), (n,)).copy()
    if problem == "box":
        r = solve_qp(Q, -np.ones(n), lb=np.zeros(n), ub=Cv, solver=solver, **kw)
        return LabelKernelReference(alpha=r.x, objective=r.objective, rho=0.0,
                                    status=r.status, seconds=r.seconds)
    ub = None if np.all(np.isinf(Cv)) else np.minimum(Cv, 1.0)
    r = solve_qp(Q, np.zeros(n), A=np.ones((1, n)), b=np.ones(1), lb=np.zeros(n), ub=ub,
                 solver=solver, **kw)
    # cvxpy's Lagrangian is f + y(1'a - 1): G_i = Q_i a = -y on the free a_i
    return LabelKernelReference(alpha=r.x, objective=r.objective, rho=-float(r.y_eq[0]),
                                status=r.status, seconds=r.seconds)


def box_dual_kkt_violation(Q, alpha, C) -> float:
    """Largest projected-gradient violation of ``min 1/2 a'Qa - 1'a, 0 <= a <= C``:
    ``max_i |P(G)_i|`` with ``G = Qa - 1`` (``G_i >= 0`` at ``a_i = 0``, ``G_i <= 0`` at
    ``a_i = C_i``, ``G_i = 0`` in between)."""
    Q = check_matrix(Q, "Q")
    a = check_vector(alpha, "alpha", n=Q.shape[0])
    Cv = np.broadcast_to(np.asarray(C, dtype=np.float64), a.shape)
    G = Q @ a - 1.0
    v = np.where(a <= 0, np.maximum(-G, 0.0), np.where(a >= Cv, np.maximum(G, 0.0),
                                                        np.abs(G)))
    return float(v.max())


def simplex_dual_kkt_violation(Q, alpha, C=np.inf) -> float:
    """``max(0, m(a) - M(a))`` of ``min 1/2 a'Qa, 1'a = 1, 0 <= a <= C`` with ``G = Qa``:
    ``max over {a_i < C_i} of -G_i`` plus ``max over {a_j > 0} of G_j`` (the stopping rule of
    the pair SMO; 0 at the optimum). Also checks feasibility: adds ``|1'a - 1|`` and the
    bound violations."""
    Q = check_matrix(Q, "Q")
    a = check_vector(alpha, "alpha", n=Q.shape[0])
    Cv = np.broadcast_to(np.asarray(C, dtype=np.float64), a.shape)
    G = Q @ a
    up = a < Cv
    low = a > 0
    gap = (np.max(-G[up]) if up.any() else -np.inf) + (np.max(G[low]) if low.any()
                                                        else -np.inf)
    infeas = abs(a.sum() - 1.0) + float(np.maximum(-a, 0).max() + np.maximum(a - Cv, 0).max())
    return float(max(gap, 0.0) + infeas)
