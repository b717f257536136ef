"""cvxpy reference of one convex step of the ramp-loss CCCP (``RampPU``; ref. [6] of USMO).

The step's dual (see :mod:`weaklabel.solvers.ramp`)::

    min_b  1/(4 lam) b' Q b - 1' b   s.t.  y'b = 0,  -e <= b <= C - e,   Q = yy' * K,

solved by :func:`weaklabel.reference.solve_qp` on the full Gram matrix (factored as
``P = F F'`` for a linear kernel with fewer features than half the points). This is how
``RampPU`` solved every step before the SMO step; it stays as the certificate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..kernels import gram, make_kernel
from .qp import solve_qp

__all__ = ["RampStepReference", "ramp_step_reference", "ramp_step_kkt_violation",
           "ramp_step_bias_breakpoints"]


@dataclass(repr=False)
class RampStepReference:
    """``b`` (dual), ``v = b y / (2 lam)``, ``g = K v``, the bias, the objective, the dual
    ``y_eq`` of ``y'b = 0`` and the solver's wall time."""

    b: np.ndarray
    v: np.ndarray
    g: np.ndarray
    bias: float
    objective: float
    y_eq: float
    seconds: float


def ramp_step_bias_breakpoints(b, g, y, C, e, y_eq, free_rtol=1e-7) -> float:
    """The bias rule of the cvxpy implementation: the median of ``y_i - g_i`` over free
    multipliers (within ``free_rtol * C_i`` of neither bound); otherwise the breakpoint that
    minimises the step's primal objective ``sum_i C_i max(0, 1 - y_i (g_i + t)) + t sum e y``.

    When every multiplier is at a bound that objective is flat over an interval of
    breakpoints, and ``argmin`` picks one of them by rounding noise (kept as it was: it is
    what the certified QP path reports).
    """
    lo, hi = -e, C - e
    tol = free_rtol * np.maximum(C, 1e-300)
    free = (b > lo + tol) & (b < hi - tol)
    if np.any(free):
        return float(np.median(y[free] - g[free]))
    cand = np.r_[y - g, np.atleast_1d(y_eq), -np.atleast_1d(y_eq)]
    hinge = np.maximum(0.0, 1.0 - y[None, :] * (g[None, :] + cand[:, None]))
    vals = hinge @ C + cand * np.sum(e * y)
    return float(cand[int(np.argmin(vals))])


def ramp_step_reference(X, y, C, d, lam, kernel="linear", *, K=None,
                        solver: str = "CLARABEL") -> RampStepReference:
    """Solve one CCCP step with cvxpy (``K``: the Gram matrix, if already computed)."""
    k = make_kernel(kernel)
    X = np.ascontiguousarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    C = np.asarray(C, dtype=float)
    e = C * np.asarray(d, dtype=bool)
    n = X.shape[0]
    K = gram(X, kernel=k) if K is None else K
    if k.name == "linear" and X.shape[1] < n // 2:
        # same QP, factored: P = F F' with F = diag(y) X / sqrt(2 lam) (cheap when d << n)
        qp_kw = {"P": None, "P_factor": (y[:, None] * X) / np.sqrt(2.0 * lam)}
    else:
        qp_kw = {"P": (y[:, None] * y[None, :]) * K / (2.0 * lam)}
    res = solve_qp(q=-np.ones(n), A=y[None, :], b=np.zeros(1), lb=-e, ub=C - e,
                   solver=solver, **qp_kw)
    v = res.x * y / (2.0 * lam)  # f(x) = sum_i v_i k(x, x_i) + bias
    g = K @ v
    y_eq = float(np.atleast_1d(res.y_eq)[0])
    bias = ramp_step_bias_breakpoints(res.x, g, y, C, e, y_eq)
    return RampStepReference(b=res.x, v=v, g=g, bias=bias, objective=float(res.objective),
                             y_eq=y_eq, seconds=res.seconds)


def ramp_step_kkt_violation(b, g, bias, y, C, d, *, bound_rtol=1e-7) -> float:
    """Largest violation of the step's KKT conditions, in margin units.

    With ``m_i = y_i (g_i + bias)``: a multiplier at its lower bound ``-e_i`` needs
    ``m_i >= 1``, one at its upper bound ``C_i - e_i`` needs ``m_i <= 1``, a free one
    ``m_i = 1``; plus the equality ``y'b = 0`` relative to ``sum C``.
    """
    e = C * np.asarray(d, dtype=bool)
    lo, hi = -e, C - e
    tol = bound_rtol * np.maximum(C, 1e-300)
    m = y * (g + bias)
    at_lo = b <= lo + tol
    at_hi = b >= hi - tol
    viol = np.where(at_lo, np.maximum(0.0, 1.0 - m),
                    np.where(at_hi, np.maximum(0.0, m - 1.0), np.abs(m - 1.0)))
    eq = abs(float(y @ b)) / max(float(C.sum()), 1e-300)
    return float(max(viol.max(initial=0.0), eq))
