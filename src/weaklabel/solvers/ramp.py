"""One convex step of the ramp-loss CCCP (du Plessis et al. 2014; ref. [6] of USMO) on the
SMO core.

The ramp-loss PU objective (``RampPU``) is minimised by the concave-convex procedure. With
``l_R(z) = 1/2 [max(0, 1 - z) - max(0, -1 - z)]``, each step linearises the concave part at
the current ``f`` and solves a weighted hinge-loss SVM with a linear term. Its dual, in the
variable ``b`` of ``f(x) = sum_i b_i y_i / (2 lam) k(x, x_i) + bias``, is::

    min_b  1/(4 lam) b' Q b - 1' b   s.t.  y'b = 0,  -e <= b <= C - e

with ``Q = yy' * K``, ``C_i`` the hinge weights and ``e_i = C_i d_i``, where ``d_i`` marks
the points with ``y_i f(x_i) < -1`` at the linearisation point.

Substituting ``a = (b + e) / (2 lam)`` gives the problem of :func:`weaklabel.solvers.smo`
with a fixed box and a moving right-hand side::

    min_a  1/2 a' Q a + p' a   s.t.  y'a = y'e~,  0 <= a <= C~,

``C~ = C / (2 lam)``, ``e~ = e / (2 lam)``, ``p = -1 - Q e~``. Its gradient is
``G = Q (a - e~) - 1 = y * g - 1`` with ``g = K v`` the function values without bias
(``v = y * (a - e~)`` are the expansion coefficients), so no Gram matrix is formed; only the
``p`` term needs the kernel rows of the points with ``d_i = 1``.

Warm start (:func:`ramp_step`, ``v0``): the previous step's coefficients are kept where the
new box allows them, clipped where a point changed side, and the equality constraint is
restored by a deterministic greedy pass (:func:`feasible_start`).

Bias. On free multipliers ``y_i f_i = 1`` gives the bias (the mean over them, LIBSVM's
``rho``). When every multiplier sits at a bound the step's optimal biases form an interval
``[lb, ub]`` (the objective is flat there); the step then takes the interval's midpoint, a
choice that does not move with rounding. (The cvxpy implementation picked the breakpoint
with the smallest objective value, which is decided by rounding noise when the objective is
flat: see the USMO notebook, section on the ramp loss.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..kernels import Kernel, gram, make_kernel
from .smo import smo

__all__ = ["RampStep", "ramp_step", "feasible_start", "bias_interval_pm1"]

_BLOCK = 1024


@dataclass(repr=False)
class RampStep:
    """Solution of one CCCP step.

    Attributes
    ----------
    v : array (n,)
        Expansion coefficients: ``f(x) = sum_i v_i k(x, x_i) + bias``; ``v = b * y / (2 lam)``.
    b : array (n,)
        The step's dual variables in the cvxpy formulation (``-e <= b <= C - e``).
    g : array (n,)
        ``g = K v`` on the training points (``f`` without the bias).
    bias : float
    bias_interval : (float, float)
        Optimal biases of the step; a single point when a multiplier is free.
    objective : float
        ``1/(4 lam) b'Qb - 1'b`` (the cvxpy formulation's objective).
    n_free : int
        Multipliers strictly between their bounds (0: the bias is not determined by them).
    n_iter, kkt_violation, converged
        Of the SMO run (``kkt_violation`` in margin units: ``max y_i f_i`` violations).
    """

    v: np.ndarray
    b: np.ndarray
    g: np.ndarray
    bias: float
    bias_interval: tuple
    objective: float
    n_free: int
    n_iter: int
    kkt_violation: float
    converged: bool

    def __repr__(self) -> str:
        return (f"RampStep(n={self.v.shape[0]}, objective={self.objective:.10g}, "
                f"bias={self.bias:.6g}, n_iter={self.n_iter}, "
                f"kkt_violation={self.kkt_violation:.3g})")


def feasible_start(a, y, C, target):
    """Move ``a`` (with ``0 <= a <= C``) to ``y'a = target`` by a greedy pass in index order.

    Raises ``ValueError`` when ``target`` is outside ``[-sum_{y<0} C, sum_{y>0} C]``.
    """
    a = np.clip(np.asarray(a, dtype=float), 0.0, C)
    delta = float(target - y @ a)
    lo, hi = -float(C[y < 0].sum()), float(C[y > 0].sum())
    if not lo - 1e-9 * max(1.0, hi - lo) <= target <= hi + 1e-9 * max(1.0, hi - lo):
        raise ValueError(f"target {target} is outside the feasible range [{lo}, {hi}].")
    for i in range(a.shape[0]):
        if abs(delta) <= 0.0:
            break
        # room to move y_i a_i in the direction of delta
        up = (C[i] - a[i]) if (y[i] > 0) == (delta > 0) else a[i]
        step = min(up, abs(delta))
        if step <= 0.0:
            continue
        a[i] += step * (1.0 if delta > 0 else -1.0) * y[i]
        delta -= step * (1.0 if delta > 0 else -1.0)
    return np.clip(a, 0.0, C)


def bias_interval_pm1(a, G, y, C, rtol=1e-9):
    """``(lb, ub, n_free, free_mean)`` of the bias ``-rho`` at an SMO solution.

    LIBSVM's ``calculate_rho`` in terms of ``bias = -rho``: free multipliers give
    ``bias = -y_i G_i``; at bounds they bound it. A multiplier within ``rtol * C_i`` of a
    bound counts as at the bound (the two-variable update leaves some a rounding error away
    from it).
    """
    yg = y * G
    tol = rtol * np.maximum(C, 1e-300)
    at_up = a >= C - tol
    at_lo = a <= tol
    free = ~(at_up | at_lo)
    # rho bounds (LIBSVM): upper-bound y<0 and lower-bound y>0 give ub; the others lb
    ub_rho = np.min(yg[(at_up & (y < 0)) | (at_lo & (y > 0))], initial=np.inf)
    lb_rho = np.max(yg[(at_up & (y > 0)) | (at_lo & (y < 0))], initial=-np.inf)
    mean = float(-np.mean(yg[free])) if free.any() else float("nan")
    return -ub_rho, -lb_rho, int(free.sum()), mean


def _kernel_matvec(X, rows, coef, k: Kernel):
    """``K[:, rows] @ coef`` in blocks (no n x n matrix)."""
    out = np.zeros(X.shape[0])
    if rows.size == 0:
        return out
    Xr = np.ascontiguousarray(X[rows])
    for s in range(0, X.shape[0], _BLOCK):
        out[s:s + _BLOCK] = gram(X[s:s + _BLOCK], Xr, k) @ coef
    return out


def ramp_step(X, y, C, d, lam, kernel="linear", *, v0=None, eps=1e-6, cache_mb=200.0,
              max_iter=None) -> RampStep:
    """Solve one CCCP step of the ramp loss on the SMO core (see the module docstring).

    Parameters
    ----------
    X : array (n, m)
    y : array (n,) of +1 / -1
    C : array (n,)
        Hinge weights (``C_i > 0``).
    d : bool array (n,)
        Points linearised on the flat side (``y_i f(x_i) < -1`` at the current ``f``).
    lam : float
        Regularisation ``lambda > 0``.
    kernel : str or Kernel
    v0 : array (n,), optional
        Coefficients of the previous step (warm start).
    eps : float
        SMO's stopping tolerance (margin units).
    cache_mb : float, None or "auto"
        Kernel-row cache of the SMO solve in MB (:func:`weaklabel.solvers.smo.smo`;
        ``None``: all of ``Q`` when it needs at most 1024 MB, else 1024 MB). Changes the
        time, never the step.
    max_iter : int, optional
        Cap on SMO's updates.
    """
    k = make_kernel(kernel)
    X = np.ascontiguousarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    C = np.asarray(C, dtype=float)
    d = np.asarray(d, dtype=bool)
    lam = float(lam)
    Ct = C / (2.0 * lam)
    et = Ct * d
    rows = np.flatnonzero(d)
    # p = -1 - Q e~ = -1 - y * (K (y e~))
    p = -1.0 - y * _kernel_matvec(X, rows, (y * et)[rows], k)
    target = float(y @ et)
    if v0 is None:
        a0 = et.copy()  # v = 0 (f = bias): feasible by construction
    else:
        a0 = feasible_start(y * np.asarray(v0, dtype=float) + et, y, Ct, target)
    res = smo(X, y, Ct, k, p=p, alpha0=a0, eps=eps, cache_mb=cache_mb, max_iter=max_iter)
    a, G = res.alpha, res.gradient
    v = y * (a - et)
    g = y * (G + 1.0)
    lb, ub, n_free, mean_free = bias_interval_pm1(a, G, y, Ct)
    if n_free > 0:
        bias = mean_free
    elif np.isfinite(lb) and np.isfinite(ub):
        bias = 0.5 * (lb + ub)
    else:
        bias = lb if np.isfinite(lb) else ub
    b = 2.0 * lam * (a - et)
    # 1/(4 lam) b'Qb - 1'b with Q b = 2 lam y * g
    objective = float(0.5 * b @ (y * g) - b.sum())
    return RampStep(v=v, b=b, g=g, bias=float(bias), bias_interval=(float(lb), float(ub)),
                    objective=objective, n_free=n_free, n_iter=res.n_iter,
                    kkt_violation=res.kkt_violation, converged=res.converged)
