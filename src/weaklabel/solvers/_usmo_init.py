"""Initial points of USMO (Section 4.5, Eqs. (17)-(18)) and the exact feasibility repair.

``dual`` is the vector of USMO's dual variables, one per unlabelled sample (the paper's
σ_u). Every initial point satisfies ``0 <= dual <= c2`` and
``|sum(dual) - c1 p| <= 1e-12 max(1, c1 p)``; the repair always succeeds because
``0 < c1 p = pi n c2 < n c2``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..kernels import GAUSSIAN, LINEAR, Kernel

_SNAP = 1e-12
_SCALED_EPS = 1e-3  # dual2/c2 in [eps, 1/2 - eps], dual4/c2 in [1/2 + eps, 1 - eps]
_N_RESERVED = 3


def _snap_all(dual, c2):
    tol = _SNAP * c2
    half = 0.5 * c2
    dual[np.abs(dual) <= tol] = 0.0
    dual[np.abs(dual - half) <= tol] = half
    dual[np.abs(dual - c2) <= tol] = c2
    return dual


def feasible_repair(dual, target, c2, order_up=None, order_down=None):
    """Exact repair: move ``sum(dual)`` to ``target`` staying inside ``[0, c2]``.

    A positive residual is added greedily, in ``order_up``, up to ``c2`` per sample; a
    negative one is removed in ``order_down`` down to 0. The final rounding residual (a few
    ulps) goes to one sample with room. Always succeeds when ``0 <= target <= n c2``.
    """
    n = dual.shape[0]
    if not 0.0 <= target <= n * c2 * (1 + 1e-15):
        raise ValueError(f"infeasible constraint: c1 p = {target} not in [0, n c2].")
    dual = _snap_all(np.clip(np.asarray(dual, dtype=float).copy(), 0.0, c2), c2)
    order_up = np.arange(n) if order_up is None else np.asarray(order_up)
    order_down = np.arange(n)[::-1] if order_down is None else np.asarray(order_down)
    tol = 1e-13 * max(1.0, target)
    for _ in range(4):
        r = target - math.fsum(dual)
        if abs(r) <= tol:
            break
        if r > 0:
            for u in order_up:
                room = c2 - dual[u]
                if room <= 0.0:
                    continue
                if room <= r:
                    dual[u] = c2
                    r -= room
                else:
                    dual[u] += r
                    r = 0.0
                    break
        else:
            r = -r
            for u in order_down:
                room = dual[u]
                if room <= 0.0:
                    continue
                if room <= r:
                    dual[u] = 0.0
                    r -= room
                else:
                    dual[u] -= r
                    r = 0.0
                    break
    r = target - math.fsum(dual)
    if abs(r) > 1e-12 * max(1.0, target):  # pragma: no cover - guarded by the loop above
        raise RuntimeError(f"feasibility repair failed (residual {r:.3g}).")
    return dual


def trivial_init(n: int, target: float, c2: float) -> np.ndarray:
    """``dual_u = c1 p / n`` for all u (feasible since ``c1 p / n = pi c2 <= c2``)."""
    return feasible_repair(np.full(n, target / n), target, c2)


def _ocsvm_scores(Xp, Xu, k: Kernel):
    from sklearn.svm import OneClassSVM

    if k.code == LINEAR:
        kw = {"kernel": "linear"}
    elif k.code == GAUSSIAN:
        kw = {"kernel": "rbf", "gamma": k.gamma}
    else:
        kw = {"kernel": "poly", "gamma": k.gamma, "coef0": k.coef0, "degree": int(k.degree)}
    oc = OneClassSVM(nu=0.5, **kw).fit(Xp)
    return oc.decision_function(Xu)


def solve_group_sizes(u1: int, n: int, pi: float):
    """Solve (18) with SLSQP on the scale-free variables ``[s2, s4, a, b, c]``.

    ``s2 = dual2 / c2`` and ``s4 = dual4 / c2``; dividing (18) by ``(c2 u1)^2`` gives
    ``(pi n / u1 - b s2 - c s4 - pi a - (1 - a - b - c) / 2)^2`` (``u1 = n - 3`` samples are
    grouped, three are reserved for the repair, as in the official code). The start
    ``[1/4, 3/4, 1/4, 1/4, 1/4]`` is projected onto the bounds. Returns ``None`` when the
    constraints are infeasible (tiny ``u1`` or extreme ``pi``) or SLSQP fails.
    """
    from scipy.optimize import minimize

    if u1 < 5:
        return None
    a_lb = max(1.0 / ((1 - pi) * u1), 1.0 / (pi * u1))
    if a_lb > 1.0:
        a_lb = min(1.0 / ((1 - pi) * u1), 1.0 / (pi * u1))
    a_ub = min(1.0 / (1 - pi), 1.0 / pi)
    bc_lb, bc_ub = 1.0 / u1, math.log(u1) / u1
    if bc_ub < bc_lb or a_lb + 2 * bc_lb > 1.0 - 1.0 / u1:
        return None
    e = _SCALED_EPS
    lb = np.array([e, 0.5 + e, a_lb, bc_lb, bc_lb])
    ub = np.array([0.5 - e, 1.0 - e, a_ub, bc_ub, bc_ub])
    x0 = np.clip([0.25, 0.75, 0.25, 0.25, 0.25], lb, ub)
    t = pi * n / u1

    def obj(x):
        s2, s4, a, b, c = x
        r = t - b * s2 - c * s4 - pi * a - 0.5 * (1 - a - b - c)
        return r * r

    def grad(x):
        s2, s4, a, b, c = x
        r = t - b * s2 - c * s4 - pi * a - 0.5 * (1 - a - b - c)
        return 2 * r * np.array([-b, -c, 0.5 - pi, 0.5 - s2, 0.5 - s4])

    cons = [{"type": "ineq", "fun": lambda x: 1.0 - 1.0 / u1 - x[2] - x[3] - x[4],
             "jac": lambda x: np.array([0.0, 0.0, -1.0, -1.0, -1.0])}]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = minimize(obj, x0, jac=grad, method="SLSQP", bounds=list(zip(lb, ub)),
                           constraints=cons, options={"maxiter": 200, "ftol": 1e-14})
    except (ValueError, ArithmeticError):  # pragma: no cover - defensive
        return None
    x = np.clip(res.x, lb, ub)
    if not np.all(np.isfinite(x)):  # pragma: no cover - defensive
        return None
    if x[2] + x[3] + x[4] > 1.0 - 1.0 / u1:
        x[2] = max(lb[2], 1.0 - 1.0 / u1 - x[3] - x[4])
    return x


def ocsvm_init(Xp, Xu, k: Kernel, pi: float, target: float, c2: float, *,
               random_state=None) -> np.ndarray:
    """One-class-SVM initialisation (17)-(18) (Section 4.5), then the exact repair.

    1. ``OneClassSVM(nu=0.5)`` with the same kernel on ``Xp``; rank ``Xu`` by decision value,
       descending (ties by index, or randomly with ``random_state``).
    2. Five groups sized by (18): from the top, ``n5`` at ``c2``, ``n4`` at ``dual4``,
       ``n3`` at ``c2/2``, ``n2`` at ``dual2``, three reserved samples, the rest at 0.
    3. Exact repair of ``sum(dual) = c1 p``: a deficit is added to the reserved samples, then
       down the ranking; a surplus is removed from the bottom of the ranking upwards.

    When (18) has no solution (``n < 8`` or an extreme ``pi``), the ranking is filled greedily
    from the top: ``c2`` each until ``c1 p`` is reached.
    """
    n = Xu.shape[0]
    scores = _ocsvm_scores(Xp, Xu, k)
    idx = np.arange(n)
    if random_state is not None:
        idx = np.random.default_rng(random_state).permutation(n)
    order = idx[np.argsort(-scores[idx], kind="stable")]  # descending decision value
    dual = np.zeros(n)
    u1 = n - _N_RESERVED
    x = solve_group_sizes(u1, n, pi)
    if x is None:
        return feasible_repair(dual, target, c2, order_up=order, order_down=order[::-1])
    s2, s4, a, b, c = x
    n2 = int(math.floor(b * u1))
    n3 = int(math.floor((1 - a - b - c) * u1))
    n4 = int(math.floor(c * u1))
    n5 = int(math.floor(pi * a * u1))
    pos = 0
    for size, value in ((n5, c2), (n4, s4 * c2), (n3, 0.5 * c2), (n2, s2 * c2)):
        dual[order[pos:pos + size]] = value
        pos += size
    reserved = order[pos:pos + _N_RESERVED]
    rest = np.concatenate([reserved, order[:pos], order[pos + _N_RESERVED:]])
    return feasible_repair(dual, target, c2, order_up=rest, order_down=order[::-1])
