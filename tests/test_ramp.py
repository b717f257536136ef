"""The ramp-loss CCCP step on the SMO core against its cvxpy reference, and RampPU's solvers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from weaklabel.kernels import make_kernel
from weaklabel.models import RampPU
from weaklabel.reference.ramp import ramp_step_kkt_violation, ramp_step_reference
from weaklabel.solvers.ramp import feasible_start, ramp_step


def _problem(rng, n_pos=8, n_unl=40, dim=3, duplicates=0, pi=0.4):
    Xp = rng.normal(1.0, 1.0, (n_pos, dim))
    Xu = np.vstack([rng.normal(1.0, 1.0, (n_unl // 2, dim)),
                    rng.normal(-1.0, 1.0, (n_unl - n_unl // 2, dim))])
    if duplicates:
        Xu[:duplicates] = Xp[:duplicates]
    X = np.vstack([Xp, Xu])
    y = np.r_[np.ones(n_pos), -np.ones(n_unl)]
    w = np.r_[np.full(n_pos, 2 * pi / n_pos), np.full(n_unl, 1 / n_unl)]
    return X, y, 0.5 * w


def _patterns(rng, y):
    n = y.shape[0]
    return {"none": np.zeros(n, bool), "random": rng.random(n) < 0.3,
            "all_unlabelled": y < 0, "all": np.ones(n, bool)}


@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("lam", [1e-4, 1e-2, 10.0])
@pytest.mark.parametrize("pattern", ["none", "random", "all_unlabelled", "all"])
def test_step_matches_cvxpy(rng, kernel, lam, pattern):
    X, y, C = _problem(rng, duplicates=3)
    d = _patterns(rng, y)[pattern]
    k = make_kernel(kernel, sigma=1.0) if kernel == "gaussian" else make_kernel(kernel)
    s = ramp_step(X, y, C, d, lam, k, eps=1e-9)
    r = ramp_step_reference(X, y, C, d, lam, k)
    assert s.converged
    # same optimum of the step's dual
    assert abs(s.objective - r.objective) <= 1e-6 * max(1.0, abs(r.objective))
    # the SMO step satisfies the step's KKT conditions (with its own bias)
    assert ramp_step_kkt_violation(s.b, s.g, s.bias, y, C, d) < 1e-6
    # box and equality of the cvxpy formulation
    e = C * d
    assert np.all(s.b >= -e - 1e-12) and np.all(s.b <= C - e + 1e-12)
    assert abs(y @ s.b) < 1e-10
    # f without the bias agrees up to the solvers' accuracy (unique when K is definite)
    assert np.max(np.abs(s.g - r.g)) < 1e-3 * max(1.0, np.abs(r.g).max())
    # the step's bias lies in its own interval of optimal biases
    lo, hi = s.bias_interval
    assert lo - 1e-6 <= s.bias <= hi + 1e-6


def test_warm_start_reaches_the_same_step_optimum(rng):
    X, y, C = _problem(rng, n_unl=60)
    k = make_kernel("gaussian", sigma=1.5)
    first = ramp_step(X, y, C, np.zeros(y.shape[0], bool), 1e-2, k, eps=1e-9)
    d = y * (first.g + first.bias) < -0.5  # some other linearisation pattern
    cold = ramp_step(X, y, C, d, 1e-2, k, eps=1e-9)
    warm = ramp_step(X, y, C, d, 1e-2, k, v0=first.v, eps=1e-9)
    assert warm.objective == pytest.approx(cold.objective, rel=1e-8, abs=1e-10)
    np.testing.assert_allclose(warm.g, cold.g, atol=1e-5)


def test_feasible_start(rng):
    y = np.where(rng.random(30) < 0.5, 1.0, -1.0)
    C = rng.uniform(0.1, 1.0, 30)
    a = rng.uniform(0, 1, 30) * C
    for target in (C[y > 0].sum(), -C[y < 0].sum(), 0.0, 0.3):
        b = feasible_start(a, y, C, target)
        assert y @ b == pytest.approx(target, abs=1e-12)
        assert np.all(b >= 0) and np.all(b <= C)
    with pytest.raises(ValueError, match="outside the feasible range"):
        feasible_start(a, y, C, C[y > 0].sum() + 1.0)


def test_flat_step_takes_the_midpoint_of_the_optimal_biases():
    # K = I (far-apart points, narrow Gaussian): every multiplier at its upper bound, the
    # step's objective is flat over an interval of biases
    rng = np.random.default_rng(0)
    X = rng.normal(0, 100.0, (30, 5))
    y = np.r_[np.ones(5), -np.ones(25)]
    C = np.r_[np.full(5, 0.4 / 5), np.full(25, 0.4 / 25)]  # equal totals: all at C
    s = ramp_step(X, y, C, np.zeros(30, bool), 1.0, make_kernel("gaussian", sigma=1.0))
    lo, hi = s.bias_interval
    assert np.isfinite(lo) and np.isfinite(hi) and hi - lo > 0.1
    assert s.bias == pytest.approx(0.5 * (lo + hi))
    np.testing.assert_allclose(s.b, C)


@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
def test_ramppu_smo_and_qp_agree(rng, kernel):
    X, y, C = _problem(rng, n_pos=10, n_unl=60)
    s = (y > 0).astype(int)
    kw = {"kernel": kernel, "sigma": 1.0, "lam": 1e-2, "prior": 0.4}
    a = RampPU(**kw).fit(X, s)
    b = RampPU(**kw, solver="qp").fit(X, s)
    assert a.converged_ and b.converged_
    assert a.n_iter_ == b.n_iter_
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-5)
    fa, fb = a.decision_function(X), b.decision_function(X)
    safe = np.abs(fb) > 1e-4
    np.testing.assert_array_equal(np.sign(fa[safe]), np.sign(fb[safe]))


def test_ramppu_cap_warning_names_the_real_parameter(rng):
    X, y, C = _problem(rng, n_pos=10, n_unl=60)
    s = (y > 0).astype(int)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m = RampPU(kernel="linear", lam=1e-4, prior=0.4, max_iter=1).fit(X, s)
    msgs = [str(x.message) for x in w]
    if not m.converged_:
        assert any("max_iter=1" in t and "changed side" in t for t in msgs), msgs
        assert not any("loosen tol" in t for t in msgs)


def test_ramppu_rejects_unknown_solver(rng):
    X, y, C = _problem(rng)
    with pytest.raises(ValueError, match="solver"):
        RampPU(solver="cvx").fit(X, (y > 0).astype(int))
