"""The LIBSVM-style SMO core against the cvxpy reference and against LIBSVM itself."""

import numpy as np
import pytest
from sklearn.svm import SVC, OneClassSVM

from weaklabel._validation import ConvergenceWarning
from weaklabel.experiments.solvers import (
    random_svm_problem,
    svm_dual_kkt_violation,
    svm_dual_objective,
)
from weaklabel.kernels import gram, make_kernel
from weaklabel.reference import svm_dual_qp
from weaklabel.solvers.smo import smo, smo_decision_function, svc_dual

KERNELS = {"linear": make_kernel("linear"), "gaussian": make_kernel("gaussian", sigma=2.0)}


def rel_gap(a, b):
    return abs(a - b) / max(1.0, abs(b))


@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
@pytest.mark.parametrize("shrinking", [True, False])
def test_svc_dual_matches_reference_and_libsvm(kernel, C, shrinking):
    rng = np.random.default_rng(11)
    X, y = random_svm_problem(120, 4, rng, duplicates=5)
    k = KERNELS[kernel]
    K = gram(X, kernel=k)
    r = svc_dual(X, y, C, k, eps=1e-6, shrinking=shrinking)
    ref = svm_dual_qp(K, y, C)
    assert r.converged and r.kkt_violation <= 1e-6
    assert rel_gap(r.objective, ref.objective) <= 1e-6
    assert r.objective == pytest.approx(svm_dual_objective(K, y, r.alpha), abs=1e-9)
    assert svm_dual_kkt_violation(K, y, r.alpha, C) <= 1e-5 * max(1.0, C)
    assert abs(y @ r.alpha) <= 1e-10 * max(1.0, C) * len(y)
    assert r.alpha.min() >= 0 and r.alpha.max() <= C
    svc = SVC(C=C, kernel="precomputed", tol=1e-6).fit(K, y)
    f = smo_decision_function(r, X, y, X)
    scale = max(1.0, np.abs(f).max())
    np.testing.assert_allclose(f, svc.decision_function(K), atol=1e-3 * scale)


@pytest.mark.parametrize("seed", range(4))
def test_shrinking_and_a_tiny_cache_give_the_same_solution(seed):
    rng = np.random.default_rng(seed)
    X, y = random_svm_problem(200, 3, rng)
    k = KERNELS["gaussian"]
    a = svc_dual(X, y, 10.0, k, eps=1e-8, shrinking=True)
    b = svc_dual(X, y, 10.0, k, eps=1e-8, shrinking=False, cache_mb=1e-3)
    assert b.info["cache_slots"] == 2 and b.kernel_rows_computed > a.kernel_rows_computed
    assert rel_gap(a.objective, b.objective) <= 1e-9
    np.testing.assert_allclose(a.alpha, b.alpha, atol=1e-5 * 10.0)
    assert a.rho == pytest.approx(b.rho, abs=1e-5)


def test_general_linear_term_and_feasible_start_one_class_svm():
    # one-class SVM dual: min 1/2 a'Ka, sum a = nu n, 0 <= a <= 1 (y = +1, p = 0)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 2))
    nu = 0.3
    n = X.shape[0]
    a0 = np.zeros(n)
    m = int(nu * n)
    a0[:m] = 1.0
    a0[m] = nu * n - m
    k = make_kernel("gaussian", sigma=1.0)
    r = smo(X, np.ones(n), 1.0, k, p=np.zeros(n), alpha0=a0, eps=1e-8)
    assert r.alpha.sum() == pytest.approx(nu * n, rel=1e-12)
    oc = OneClassSVM(nu=nu, kernel="rbf", gamma=k.gamma, tol=1e-8).fit(X)
    np.testing.assert_allclose(smo_decision_function(r, X, np.ones(n), X),
                               oc.decision_function(X), atol=1e-5)


def test_degenerate_problems():
    k = KERNELS["gaussian"]
    # duplicated points with opposite labels, and a problem with two points
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [2.0, 0.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    for C in (1e-4, 1.0, 1e4):
        r = svc_dual(X, y, C, k, eps=1e-9)
        ref = svm_dual_qp(gram(X, kernel=k), y, C)
        assert r.converged and rel_gap(r.objective, ref.objective) <= 1e-6
    r = svc_dual(np.array([[0.0], [1.0]]), [1, -1], 1.0, "linear", eps=1e-12)
    # two points: the unconstrained optimum a = (2, 2) lies above C = 1, both at the bound
    assert r.alpha.tolist() == [1.0, 1.0] and np.isfinite(r.rho)


def test_bad_input_names_the_argument():
    X = np.zeros((4, 2))
    y = np.array([1, -1, 1, -1])
    with pytest.raises(ValueError, match="single class"):
        svc_dual(X, np.ones(4), 1.0)
    with pytest.raises(ValueError, match="C must"):
        smo(X, y, -1.0)
    with pytest.raises(ValueError, match=r"y must hold true class labels in \{-1, \+1\}"):
        smo(X, [1, 2, 1, 2], 1.0)
    with pytest.raises(ValueError, match="alpha0"):
        smo(X, y, 1.0, alpha0=[2.0, 0, 0, 0])
    with pytest.raises(ValueError, match="NaN"):
        smo(np.full((4, 2), np.nan), y, 1.0)
    with pytest.raises(ValueError, match="kernel"):
        smo(X, y, 1.0, kernel="spline")
    with pytest.raises(ValueError, match="eps"):
        smo(X, y, 1.0, eps=0.0)


def test_iteration_cap_warns_with_the_remaining_violation():
    rng = np.random.default_rng(5)
    X, y = random_svm_problem(100, 3, rng)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        r = smo(X, y, 100.0, KERNELS["gaussian"], eps=1e-9, max_iter=3)
    assert not r.converged and r.n_iter == 3 and r.kkt_violation > 1e-9
    # the gradient is rebuilt over every variable even after an early stop
    K = gram(X, kernel=KERNELS["gaussian"])
    Q = (y[:, None] * y[None, :]) * K
    np.testing.assert_allclose(r.gradient, Q @ r.alpha - 1.0, atol=1e-10)


@pytest.mark.parametrize("shrinking", [True, False])
def test_precomputed_kernel_equals_the_built_in_kernel(shrinking):
    rng = np.random.default_rng(8)
    X, y = random_svm_problem(150, 3, rng, duplicates=4)
    k = KERNELS["gaussian"]
    K = gram(X, kernel=k)
    Cv = rng.uniform(0.1, 10.0, len(y))
    a = svc_dual(X, y, Cv, k, eps=1e-8, shrinking=shrinking)
    b = svc_dual(K, y, Cv, "precomputed", eps=1e-8, shrinking=shrinking, cache_mb=0.05)
    assert b.converged and b.info["kernel"].name == "precomputed"
    assert rel_gap(b.objective, a.objective) <= 1e-10
    # duplicated points share their weight in any proportion: compare Q a, not a
    np.testing.assert_allclose(b.gradient, a.gradient, atol=1e-6)
    Xt = rng.normal(size=(7, 3))
    np.testing.assert_allclose(smo_decision_function(b, K, y, gram(Xt, X, kernel=k)),
                               smo_decision_function(a, X, y, Xt), atol=1e-5)
    with pytest.raises(ValueError, match="square"):
        smo(X, y, 1.0, "precomputed")


@pytest.mark.parametrize("kernel", ["linear", "gaussian", "polynomial"])
def test_sparse_rows_give_the_dense_solution(kernel):
    rng = np.random.default_rng(12)
    X, y = random_svm_problem(160, 30, rng)
    X[rng.random(X.shape) < 0.85] = 0.0  # 15 % non-zeros: sparse_rows="auto" uses CSR rows
    X[3] = 0.0
    k = (make_kernel("polynomial", gamma=0.1, degree=2) if kernel == "polynomial"
         else KERNELS[kernel])
    a = svc_dual(X, y, 1.0, k, eps=1e-9, sparse_rows=False)
    b = svc_dual(X, y, 1.0, k, eps=1e-9)
    assert b.info["sparse_rows"] and not a.info["sparse_rows"]
    assert rel_gap(b.objective, a.objective) <= 1e-10
    np.testing.assert_allclose(b.gradient, a.gradient, atol=1e-6)
    if kernel == "polynomial":  # gamma x.z + coef0 may be fused (one rounding less)
        return
    # 0/1 data: the sparse and the dense kernel values are both exact, results bitwise equal
    B = (X != 0).astype(float)
    c = svc_dual(B, y, 1.0, k, eps=1e-3, sparse_rows=False)
    d = svc_dual(B, y, 1.0, k, eps=1e-3, sparse_rows=True)
    np.testing.assert_array_equal(c.alpha, d.alpha)
    with pytest.raises(ValueError, match="sparse_rows"):
        smo(X, y, 1.0, sparse_rows="yes")


def test_rows_are_extended_not_recomputed_after_unshrinking():
    rng = np.random.default_rng(2)
    X, y = random_svm_problem(400, 3, rng)
    r = svc_dual(X, y, 1.0, KERNELS["gaussian"], eps=1e-6)
    # a row is computed at most once over all its n columns, plus the extensions
    assert r.info["kernel_values_computed"] <= r.kernel_rows_computed * len(y)
    assert r.info["kernel_values_computed"] <= len(y) * len(y)  # the cache holds every row
