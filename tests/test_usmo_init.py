"""USMO's initial points (weaklabel.solvers._usmo_init): the one-class-SVM ranking, the group
sizes of (18), the greedy fallback and the exact feasibility repair."""

from __future__ import annotations

import bisect
import math

import numpy as np
import pytest

from weaklabel.kernels import gram, make_kernel
from weaklabel.reference.qp import solve_qp
from weaklabel.solvers._usmo_init import (
    _ocsvm_scores,
    feasible_repair,
    ocsvm_init,
    solve_group_sizes,
    trivial_init,
)

KERNELS = {"linear": make_kernel("linear"), "gaussian": make_kernel("gaussian", sigma=1.0),
           "polynomial": make_kernel("polynomial", degree=2)}


def pu_data(seed, p=20, n=120, d=3):
    rng = np.random.default_rng(seed)
    Xp = rng.normal(size=(p, d)) + 1.0
    Xu = np.vstack([rng.normal(size=(n // 2, d)) + 1.0, rng.normal(size=(n - n // 2, d)) - 1.0])
    return Xp, Xu


def targets(n, pi, lam=1e-2):
    """``(c1 p, c2)`` of the dual (6): ``c1 p = pi / (2 lam)``, ``c2 = 1 / (2 lam n)``."""
    return pi / (2 * lam), 1.0 / (2 * lam * n)


def assert_feasible(dual, target, c2):
    assert dual.min() >= 0.0 and dual.max() <= c2
    assert abs(math.fsum(dual) - target) <= 1e-12 * max(1.0, target)


def longest_non_increasing(values) -> int:
    """Length of the longest non-increasing subsequence (patience sorting on -values)."""
    tails: list[float] = []
    for v in -np.asarray(values):
        i = bisect.bisect_right(tails, v)
        tails[i:i + 1] = [v]
    return len(tails)


# --------------------------------------------------------------------------- the ranking
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_ocsvm_scores_are_a_one_class_svm_with_the_same_kernel(kernel):
    """The ranking comes from the one-class SVM (nu = 0.5) of the labelled positives with
    USMO's kernel: its decision values equal, up to the constant offset rho, those of the
    one-class SVM dual ``min 1/2 a'Ka, 0 <= a <= 1, sum a = nu p`` solved by the cvxpy
    reference on our Gram matrix."""
    Xp, Xu = pu_data(0)
    k = KERNELS[kernel]
    scores = _ocsvm_scores(Xp, Xu, k)
    p = Xp.shape[0]
    K = gram(Xp, kernel=k)
    ref = solve_qp(K, np.zeros(p), A=np.ones((1, p)), b=[0.5 * p], lb=np.zeros(p),
                   ub=np.ones(p))
    f = gram(Xu, Xp, kernel=k) @ ref.x
    scale = max(1.0, np.abs(f).max())
    np.testing.assert_allclose(scores - scores.mean(), f - f.mean(), atol=1e-2 * scale)


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("pi", [0.2, 0.5, 0.8])
def test_ocsvm_init_is_feasible_and_follows_the_ranking(kernel, pi):
    Xp, Xu = pu_data(1)
    n = Xu.shape[0]
    target, c2 = targets(n, pi)
    k = KERNELS[kernel]
    dual = ocsvm_init(Xp, Xu, k, pi, target, c2)
    assert_feasible(dual, target, c2)
    # in ranking order (most positive-like first) the values do not increase, except at
    # the three samples reserved for the repair
    order = np.argsort(-_ocsvm_scores(Xp, Xu, k), kind="stable")
    assert longest_non_increasing(dual[order]) >= n - 3


def test_random_state_only_breaks_ties():
    Xp, Xu = pu_data(2)
    target, c2 = targets(Xu.shape[0], 0.4)
    k = KERNELS["gaussian"]
    base = ocsvm_init(Xp, Xu, k, 0.4, target, c2)
    assert np.array_equal(base, ocsvm_init(Xp, Xu, k, 0.4, target, c2, random_state=7))
    # duplicated unlabelled rows tie: their order, and so the point, depends on the seed
    Xd = np.repeat(Xu[:20], 6, axis=0)
    runs = {ocsvm_init(Xp, Xd, k, 0.4, target, c2, random_state=s).tobytes() for s in range(4)}
    assert len(runs) > 1
    for r in runs:
        assert_feasible(np.frombuffer(r), target, c2)


@pytest.mark.parametrize("n", [1, 2, 5, 7])
def test_small_n_fills_the_ranking_greedily(n):
    """Without a solution of (18) (fewer than 8 samples), the top of the ranking is filled
    with ``c2`` each until ``c1 p`` is reached."""
    Xp, Xu = pu_data(3, n=n)
    pi = 0.6
    target, c2 = targets(n, pi)
    k = KERNELS["gaussian"]
    dual = ocsvm_init(Xp, Xu, k, pi, target, c2)
    assert_feasible(dual, target, c2)
    ranked = dual[np.argsort(-_ocsvm_scores(Xp, Xu, k), kind="stable")]
    full = int(target // c2)
    np.testing.assert_array_equal(ranked[:full], c2)
    assert ranked[full:].sum() == pytest.approx(target - full * c2, abs=1e-12)
    assert np.all(ranked[full + 1:] == 0)


# --------------------------------------------------------------------------- (18)
def residual_18(x, n, pi):
    """The residual of (18) divided by ``c2 u1`` (``u1 = n - 3``) at ``x = [s2, s4, a, b, c]``."""
    s2, s4, a, b, c = x
    return pi * n / (n - 3) - b * s2 - c * s4 - pi * a - 0.5 * (1 - a - b - c)


@pytest.mark.parametrize("n", [12, 50, 1000])
@pytest.mark.parametrize("pi", [0.1, 0.3, 0.5, 0.9])
def test_group_sizes_satisfy_the_constraints_of_18(n, pi):
    u1 = n - 3
    x = solve_group_sizes(u1, n, pi)
    assert x is not None
    s2, s4, a, b, c = x
    eps = 1e-3  # the bounds of s2 = dual2 / c2 and s4 = dual4 / c2
    a_lb = max(1 / ((1 - pi) * u1), 1 / (pi * u1))
    a_lb = a_lb if a_lb <= 1 else min(1 / ((1 - pi) * u1), 1 / (pi * u1))
    lb = np.array([eps, 0.5 + eps, a_lb, 1 / u1, 1 / u1])
    ub = np.array([0.5 - eps, 1 - eps, min(1 / (1 - pi), 1 / pi)] + [math.log(u1) / u1] * 2)
    assert np.all(lb <= x) and np.all(x <= ub)
    assert a + b + c <= 1 - 1 / u1 + 1e-12
    # least squares on (18): better than the start [1/4, 3/4, 1/4, 1/4, 1/4] projected on
    # the bounds, and exactly solved when s2 is strictly inside its bounds (there the
    # derivative in s2, -2 b r, vanishes only with the residual r)
    start = np.clip([0.25, 0.75, 0.25, 0.25, 0.25], lb, ub)
    r = residual_18(x, n, pi)
    assert abs(r) < abs(residual_18(start, n, pi))
    if eps + 1e-6 < s2 < 0.5 - eps - 1e-6:
        assert abs(r) < 1e-6


@pytest.mark.parametrize("u1,n,pi", [(4, 7, 0.5), (5, 8, 0.3), (5, 8, 0.44)])
def test_group_sizes_without_a_solution(u1, n, pi):
    assert solve_group_sizes(u1, n, pi) is None


# --------------------------------------------------------------------------- repair
def test_trivial_init_is_uniform_and_feasible():
    target, c2 = targets(30, 0.3)
    dual = trivial_init(30, target, c2)
    assert_feasible(dual, target, c2)
    np.testing.assert_allclose(dual, target / 30, rtol=1e-14)


def test_repair_adds_a_deficit_in_the_given_order():
    c2 = 1.0
    dual = feasible_repair(np.array([0.0, 0.5, 0.0, 1.0]), 2.7, c2, order_up=[2, 1, 0, 3])
    np.testing.assert_allclose(dual, [0.0, 0.7, 1.0, 1.0])
    assert_feasible(dual, 2.7, c2)


def test_repair_removes_a_surplus_in_the_given_order():
    dual = feasible_repair(np.array([1.0, 0.6, 0.3, 0.2]), 1.5, 1.0, order_down=[3, 2, 1, 0])
    np.testing.assert_allclose(dual, [1.0, 0.5, 0.0, 0.0])
    assert_feasible(dual, 1.5, 1.0)


def test_repair_clips_snaps_and_leaves_its_input_alone():
    c2 = 2.0
    x = np.array([-0.1, 1.0 + 1e-13, 2.5, 0.7])
    dual = feasible_repair(x, 1.0 + 2.0 + 0.7, c2)
    assert dual[1] == 1.0  # within 1e-12 c2 of c2/2: exactly c2/2
    assert dual[0] == 0.0 and dual[2] == c2
    assert_feasible(dual, 3.7, c2)
    assert x[0] == -0.1  # a copy is repaired


@pytest.mark.parametrize("seed", range(5))
def test_repair_is_exact_on_random_points(seed):
    rng = np.random.default_rng(seed)
    n, c2 = 200, 0.37
    target = rng.uniform(0, n * c2)
    dual = feasible_repair(rng.uniform(-0.1, c2 + 0.1, n), target, c2,
                           order_up=rng.permutation(n), order_down=rng.permutation(n))
    assert_feasible(dual, target, c2)


def test_repair_refuses_an_infeasible_target():
    with pytest.raises(ValueError, match="infeasible"):
        feasible_repair(np.zeros(3), 3.5, 1.0)
    with pytest.raises(ValueError, match="infeasible"):
        feasible_repair(np.zeros(3), -0.1, 1.0)
