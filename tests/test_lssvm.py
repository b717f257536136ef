"""LS-SVC solver (weaklabel.solvers.lssvm) against a dense solve and the cvxpy reference, and
the MCLS label loop on it (weaklabel.solvers.mcls)."""

import dataclasses

import numpy as np
import pytest

from weaklabel.kernels import gram
from weaklabel.reference.lssvm import lssvc_reference
from weaklabel.solvers.lssvm import (
    KernelEigen,
    LSSVCFactor,
    dense_solve,
    lssvc_objective,
    suykens_solve,
)
from weaklabel.solvers.mcls import MCLSResult, class_balance_bias, mcls_loop


def _problem(n=60, d=3, seed=0, sigma=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(rng.normal(size=n) + X[:, 0] > 0, 1.0, -1.0)
    return X, y, gram(X, X, "gaussian", sigma=sigma)


def _rel(a, b):
    return np.max(np.abs(a - b)) / max(1.0, np.max(np.abs(b)))


@pytest.mark.parametrize("C", [1e-3, 0.1, 1.0, 10.0, 1e3])
@pytest.mark.parametrize("seed", [0, 1])
def test_factor_matches_dense_and_eigen(C, seed):
    X, y, K = _problem(seed=seed)
    a0, b0 = dense_solve(K, y, C)
    for fac in (LSSVCFactor(K, C), KernelEigen(K).factor(C)):
        a, b = fac.solve(y)
        assert _rel(a, a0) <= 1e-8
        assert abs(b - b0) <= 1e-8 * max(1.0, abs(b0))
        # training scores from the KKT conditions equal K alpha
        assert _rel(fac.scores(y, a, b), K @ a) <= 1e-8
    # KKT: sum alpha = 0 and the linear system holds
    assert abs(a0.sum()) < 1e-8
    assert _rel(K @ a0 + b0 + a0 / (2 * C), y) < 1e-8


@pytest.mark.parametrize("form", ["dual", "primal"])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_matches_cvxpy_reference(form, C):
    X, y, K = _problem(n=50, seed=3)
    a, b = LSSVCFactor(K, C).solve(y)
    ref = lssvc_reference(K, y, C, form=form)
    assert _rel(a, ref["alpha"]) <= 1e-8
    assert abs(b - ref["b"]) <= 1e-8 * max(1.0, abs(ref["b"]))
    obj = lssvc_objective(K, y, a, b, C)
    assert abs(obj - ref["objective"]) <= 1e-8 * max(1.0, abs(obj))


def test_gamma_equals_2C():
    X, y, K = _problem(seed=5)
    for C in (0.05, 1.0, 20.0):
        a, b = LSSVCFactor(K, C).solve(y)
        a2, b2 = suykens_solve(K, y, 2 * C)
        assert _rel(a, a2) <= 1e-8 and abs(b - b2) <= 1e-8
        # and a different gamma gives a different classifier
        a3, _ = suykens_solve(K, y, C)
        assert _rel(a, a3) > 1e-4


def test_per_sample_costs():
    X, y, K = _problem(seed=2)
    c = np.where(np.arange(K.shape[0]) < 10, 5.0, 0.5)
    a, b = LSSVCFactor(K, c).solve(y)
    a0, b0 = dense_solve(K, y, c)
    assert _rel(a, a0) <= 1e-8 and abs(b - b0) <= 1e-8


def test_degenerate_problems():
    X, y, K = _problem(n=30, seed=4)
    # duplicated points: H stays positive definite thanks to the diagonal
    Xd = np.vstack([X, X[:5]])
    yd = np.concatenate([y, y[:5]])
    Kd = gram(Xd, Xd, "gaussian", sigma=1.0)
    a, b = LSSVCFactor(Kd, 1.0).solve(yd)
    a0, b0 = dense_solve(Kd, yd, 1.0)
    assert _rel(a, a0) <= 1e-8
    # all labels one class: alpha = 0, b = 1
    a, b = LSSVCFactor(K, 1.0).solve(np.ones(30))
    assert np.max(np.abs(a)) < 1e-10 and abs(b - 1.0) < 1e-10


def test_factor_reused_for_many_label_vectors():
    X, y, K = _problem(n=80, seed=6)
    fac = LSSVCFactor(K, 1.0)
    rng = np.random.default_rng(0)
    for _ in range(5):
        yy = np.where(rng.random(80) < 0.4, 1.0, -1.0)
        a, b = fac.solve(yy)
        a0, b0 = dense_solve(K, yy, 1.0)
        assert _rel(a, a0) <= 1e-8 and abs(b - b0) <= 1e-8


def test_bias_exact_ratio_and_tolerance():
    rng = np.random.default_rng(0)
    s = rng.normal(size=200)
    is_pos = np.zeros(200, bool)
    is_pos[:20] = True
    for r in (0.1, 0.3, 0.5, 0.77):
        b = class_balance_bias(s, is_pos, r, eps=0.0)
        assert np.sum(s + b >= 0) == int(np.floor(r * 200 + 0.5))
        bu = class_balance_bias(s, is_pos, r, eps=0.0, r_mode="U")
        assert np.sum(s[~is_pos] + bu >= 0) == int(np.floor(r * 180 + 0.5))
    # positives with high scores except one slightly below the r threshold: tolerance fixes it
    s2 = np.linspace(1, -1, 200)
    pos = np.zeros(200, bool)
    pos[[0, 1, 2, 105]] = True
    b0 = class_balance_bias(s2, pos, 0.5, eps=0.0)
    assert s2[105] + b0 < 0
    b1 = class_balance_bias(s2, pos, 0.5, eps=0.05)
    assert np.all(s2[pos] + b1 >= 0)
    assert np.sum(s2 + b1 >= 0) <= int(np.floor(0.55 * 200 + 0.5))
    # a positive far below: not reachable within the tolerance, bias stays bounded
    pos[199] = True
    b2 = class_balance_bias(s2, pos, 0.5, eps=0.05)
    assert s2[199] + b2 < 0 and np.sum(s2 + b2 >= 0) <= 110


def test_mcls_loop_reuse_equals_dense_resolve():
    X, y, K = _problem(n=120, seed=7, sigma=1.5)
    is_pos = (y > 0) & (np.arange(120) % 3 == 0)
    y0 = np.where(X[:, 1] > 0, 1.0, -1.0)
    C = 1.0

    class Dense:
        n = 120
        dinv = np.full(120, 1 / (2 * C))

        def solve(self, yy):
            return dense_solve(K, yy, C)

        def scores(self, yy, a, b):
            return K @ a

    r = float(np.mean(y > 0))
    fast = mcls_loop(LSSVCFactor(K, C), y0, is_pos, r, eps=0.05)
    slow = mcls_loop(Dense(), y0, is_pos, r, eps=0.05)
    eig = mcls_loop(KernelEigen(K).factor(C), y0, is_pos, r, eps=0.05)
    assert fast.n_iter == slow.n_iter == eig.n_iter
    assert np.array_equal(fast.labels, slow.labels) and np.array_equal(fast.labels, eig.labels)
    assert _rel(fast.alpha, slow.alpha) <= 1e-8 and abs(fast.bias - slow.bias) <= 1e-8
    assert fast.stop_reason in ("converged", "cycle")
    assert isinstance(fast, MCLSResult) and dataclasses.is_dataclass(fast)
    assert [f.name for f in dataclasses.fields(MCLSResult)] == [
        "alpha", "bias", "labels", "n_iter", "converged", "stop_reason", "n_changes"]
    assert fast.converged == (fast.stop_reason == "converged")
    assert repr(fast).startswith("MCLSResult(n=120, ")


def test_bad_input():
    X, y, K = _problem(n=10)
    with pytest.raises(ValueError, match="C"):
        LSSVCFactor(K, 0.0)
    with pytest.raises(ValueError, match="K"):
        LSSVCFactor(K[:, :5], 1.0)
    with pytest.raises(ValueError, match="y"):
        LSSVCFactor(K, 1.0).solve(y[:5])
    with pytest.raises(ValueError, match="gamma"):
        suykens_solve(K, y, -1.0)
    Kn = K.copy()
    Kn[0, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KernelEigen(Kn)
