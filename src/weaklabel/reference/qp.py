"""Generic convex QP through cvxpy, the reference every numba solver is checked against.

Solves::

    min  1/2 x' P x + q' x
    s.t. A x = b,  G x <= h,  lb <= x <= ub

with Clarabel by default. A kernel matrix that is PSD only up to rounding is
symmetrised, its smallest eigenvalue is checked (a clearly indefinite ``P`` is an
error), a tiny jitter is added when the smallest eigenvalue is slightly negative, and
the matrix is passed through ``cp.psd_wrap`` so cvxpy does not re-check it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import cvxpy as cp
import numpy as np

from .._validation import check_matrix, check_vector

__all__ = ["QPResult", "ReferenceSolverError", "make_psd", "solve_qp", "svm_dual_qp"]

#: statuses accepted as a solution
_OK = {cp.OPTIMAL}


class ReferenceSolverError(RuntimeError):
    """The reference solver did not return an accurate optimal solution."""


@dataclass
class QPResult:
    """Solution of :func:`solve_qp`.

    ``y_eq`` are the duals of ``A x = b`` (cvxpy sign convention: the Lagrangian is
    ``f(x) + y'(A x - b)``), ``z_ineq`` those of ``G x <= h`` (>= 0), ``z_lb``/``z_ub`` those
    of the bounds (>= 0).
    """

    x: np.ndarray
    objective: float
    status: str
    seconds: float
    solver: str
    y_eq: np.ndarray | None = None
    z_ineq: np.ndarray | None = None
    z_lb: np.ndarray | None = None
    z_ub: np.ndarray | None = None
    jitter: float = 0.0
    min_eig: float = float("nan")
    info: dict = field(default_factory=dict)


def make_psd(P, *, name: str = "P", tol: float = 1e-8):
    """Symmetrise ``P`` and make it PSD up to rounding.

    Returns ``(P_sym, jitter, min_eig)``, where ``min_eig`` is a certified lower bound of the
    smallest eigenvalue. Fast path: rows/columns that are identically zero (e.g. the
    ``delta`` block of the USMO dual) are set aside and a Cholesky factorisation of the rest
    plus ``1e-12 * scale`` on the diagonal is attempted; success certifies
    ``min_eig >= -1e-12 * scale`` and that jitter is added. Otherwise the eigenvalues are
    computed: a smallest eigenvalue below ``-tol * scale`` raises ``ValueError`` (genuinely
    indefinite); a slightly negative one is cancelled by a diagonal jitter.
    """
    P = check_matrix(P, name)
    if P.shape[0] != P.shape[1]:
        raise ValueError(f"{name} must be square, got shape {P.shape}.")
    P = 0.5 * (P + P.T)
    if P.shape[0] == 0:
        return P, 0.0, 0.0
    live = np.flatnonzero(np.any(P != 0.0, axis=1))
    if live.size == 0:
        return P, 0.0, 0.0
    S = P[np.ix_(live, live)]
    scale = max(1.0, float(np.abs(np.diag(S)).max()))
    tiny = 1e-12 * scale
    try:
        np.linalg.cholesky(S + tiny * np.eye(S.shape[0]))
        jitter, min_eig = tiny, -tiny
    except np.linalg.LinAlgError:
        eig = np.linalg.eigvalsh(S)
        min_eig = float(eig[0])
        scale = max(scale, float(np.abs(eig).max()))
        if min_eig < -tol * scale:
            raise ValueError(
                f"{name} is not positive semidefinite: smallest eigenvalue {min_eig:.3g} "
                f"(scale {scale:.3g}); check the kernel."
            ) from None
        jitter = max(0.0, -min_eig) + tiny
    P = P.copy()
    P[live, live] += jitter
    return P, jitter, min(min_eig, 0.0)


def _opt(v, name, n):
    return None if v is None else check_vector(v, name, n=n)


def solve_qp(P=None, q=None, A=None, b=None, G=None, h=None, lb=None, ub=None, *,
             solver: str = "CLARABEL", verbose: bool = False, P_factor=None,
             **solver_opts) -> QPResult:
    """Solve the convex QP above with cvxpy and return primal, duals, objective, status, time.

    ``P_factor`` (n x r), given instead of ``P`` (pass ``P=None``), states ``P = F F'`` (e.g.
    ``F = diag(y) X`` for a linear kernel): the quadratic term becomes
    ``1/2 ||F' x||^2``, which is PSD by construction and much cheaper when ``r << n``.

    Raises
    ------
    ValueError
        on inconsistent shapes, NaN/inf, or an indefinite ``P``.
    ReferenceSolverError
        when the status is infeasible, unbounded or inaccurate.
    """
    if P_factor is not None:
        if P is not None:
            raise ValueError("give either P or P_factor, not both.")
        Fac = check_matrix(P_factor, "P_factor")
        n, Psym, jitter, min_eig = Fac.shape[0], None, 0.0, 0.0
    else:
        Psym, jitter, min_eig = make_psd(P)
        n = Psym.shape[0]
    q = check_vector(q, "q", n=n)
    if (A is None) != (b is None):
        raise ValueError("give both A and b (equality constraints) or neither.")
    if (G is None) != (h is None):
        raise ValueError("give both G and h (inequality constraints) or neither.")
    x = cp.Variable(n)
    cons, tags = [], []
    if A is not None:
        A = np.atleast_2d(check_matrix(np.atleast_2d(A), "A", n_features=n))
        b = check_vector(np.atleast_1d(b), "b", n=A.shape[0])
        cons.append(A @ x == b)
        tags.append("eq")
    if G is not None:
        G = np.atleast_2d(check_matrix(np.atleast_2d(G), "G", n_features=n))
        h = check_vector(np.atleast_1d(h), "h", n=G.shape[0])
        cons.append(G @ x <= h)
        tags.append("ineq")
    lb, ub = _opt(lb, "lb", n), _opt(ub, "ub", n)
    if lb is not None and ub is not None and np.any(lb > ub):
        raise ValueError("lb must be <= ub elementwise.")
    if lb is not None:
        cons.append(x >= lb)
        tags.append("lb")
    if ub is not None:
        cons.append(x <= ub)
        tags.append("ub")
    if Psym is None:
        obj = 0.5 * cp.sum_squares(Fac.T @ x) + q @ x
    else:
        obj = 0.5 * cp.quad_form(x, cp.psd_wrap(Psym)) + q @ x
    prob = cp.Problem(cp.Minimize(obj), cons)
    t0 = time.perf_counter()
    try:
        prob.solve(solver=solver, verbose=verbose, **solver_opts)
    except cp.error.SolverError as exc:
        raise ReferenceSolverError(f"reference QP solver {solver} failed: {exc}") from exc
    seconds = time.perf_counter() - t0
    if prob.status not in _OK:
        raise ReferenceSolverError(
            f"reference QP ({solver}) returned status {prob.status!r}; the problem is "
            "infeasible, unbounded, or was not solved accurately."
        )
    xv = np.asarray(x.value, dtype=float)
    duals = {t: np.atleast_1d(np.asarray(c.dual_value, dtype=float)) for t, c in zip(tags, cons)}
    if Psym is None:
        r = Fac.T @ xv
        objective = float(0.5 * r @ r + q @ xv)
    else:
        xl = xv[np.diag(Psym) != 0.0]  # the jitter sits on the non-zero rows only
        objective = float(0.5 * xv @ Psym @ xv - 0.5 * jitter * (xl @ xl) + q @ xv)
    return QPResult(x=xv, objective=objective, status=prob.status, seconds=seconds,
                    solver=solver, y_eq=duals.get("eq"), z_ineq=duals.get("ineq"),
                    z_lb=duals.get("lb"), z_ub=duals.get("ub"), jitter=jitter,
                    min_eig=min_eig, info={"solver_stats": prob.solver_stats.solve_time})


def svm_dual_qp(K, y, C: float, **kw) -> QPResult:
    """The C-SVM dual ``min 1/2 a' Q a - 1' a, y'a = 0, 0 <= a <= C`` with ``Q = yy' * K``."""
    y = check_vector(y, "y")
    K = check_matrix(K, "K")
    Q = (y[:, None] * y[None, :]) * K
    n = y.shape[0]
    return solve_qp(Q, -np.ones(n), A=y[None, :], b=np.zeros(1), lb=np.zeros(n),
                    ub=np.full(n, float(C)), **kw)
