"""The label-kernel SVM duals of WellSVM (Li et al. 2013, Eq. (15), Assumption 1) by
``label_kernel_dual``, certified against the cvxpy references."""

import numpy as np
import pytest

from weaklabel._validation import ConvergenceWarning
from weaklabel.kernels import KernelRowCache, gram, make_kernel
from weaklabel.reference.smo import (
    box_dual_kkt_violation,
    label_kernel_dual_reference,
    label_kernel_matrix,
    simplex_dual_kkt_violation,
)
from weaklabel.solvers.smo import (
    cache_matvec,
    label_kernel_decision_function,
    label_kernel_dual,
    label_kernel_quadratic,
)

KERNELS = {"linear": make_kernel("linear"), "gaussian": make_kernel("gaussian", sigma=1.5)}


def rel_gap(a, b):
    return abs(a - b) / max(1.0, abs(b))


def random_problem(seed, n, T, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Z = np.where(rng.random((T, n)) < 0.5, 1.0, -1.0)
    mu = rng.dirichlet(np.ones(T))
    C = rng.uniform(0.05, 3.0, n)
    return rng, X, Z, mu, C


def check(X, Z, mu, C, k, problem, diag=None, eps=1e-8, **kw):
    r = label_kernel_dual(X, Z, mu, C, k, problem=problem, diag=diag, eps=eps, **kw)
    K = gram(X, kernel=k)
    ref = label_kernel_dual_reference(K, Z, mu, C, problem=problem, diag=diag)
    Q = label_kernel_matrix(K, Z, mu, diag)
    assert r.converged and r.kkt_violation <= eps
    assert rel_gap(r.objective, ref.objective) <= 1e-6, (r.objective, ref.objective)
    lin = -np.ones(len(r.alpha)) if problem == "box" else np.zeros(len(r.alpha))
    np.testing.assert_allclose(r.gradient, Q @ r.alpha + lin, atol=1e-10)
    assert r.objective == pytest.approx(0.5 * r.alpha @ Q @ r.alpha + lin @ r.alpha,
                                        abs=1e-10)
    if problem == "box":
        assert r.rho == 0.0
        assert box_dual_kkt_violation(Q, r.alpha, C) <= 10 * eps
        assert r.alpha.min() >= 0 and np.all(r.alpha <= C)
    else:
        assert r.alpha.sum() == pytest.approx(1.0, abs=1e-12)
        assert simplex_dual_kkt_violation(Q, r.alpha, C) <= 10 * eps
        assert r.rho == pytest.approx(ref.rho, abs=1e-6)
        if np.all(np.isinf(C)):  # a'G = rho 1'a = rho when no upper bound is active
            assert r.objective == pytest.approx(0.5 * r.rho, abs=1e-8)
    return r, ref


@pytest.mark.parametrize("problem", ["box", "simplex"])
@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("seed,n,T", [(0, 20, 1), (1, 45, 2), (2, 60, 4)])
def test_matches_the_cvxpy_reference(problem, kernel, seed, n, T):
    rng, X, Z, mu, C = random_problem(seed, n, T)
    if problem == "simplex":
        diag = 1.0 / C  # the mu-SVM of the authors' code, d_i = 1/c_i
        C = np.inf
    else:
        diag = None if seed % 2 == 0 else rng.uniform(0.0, 0.5, n)
    check(X, Z, mu, C, KERNELS[kernel], problem, diag=diag,
          shrinking=seed != 1)


@pytest.mark.parametrize("problem", ["box", "simplex"])
def test_degenerate_problems(problem):
    rng, X, Z, mu, C = random_problem(7, 30, 3)
    X[5] = X[6]  # duplicated points
    X[10] = X[11]
    k = KERNELS["gaussian"]
    extra = {"diag": 0.5} if problem == "simplex" else {}
    Cs = np.inf if problem == "simplex" else C
    check(X, Z, mu, Cs, k, problem, **extra)
    # all labels equal, and mu with zeros
    check(X, np.ones((2, 30)), np.array([1.0, 0.0]), Cs, k, problem, **extra)
    check(X, Z, np.array([0.0, 0.7, 0.0]), Cs, k, problem, **extra)
    # a point of zero norm with the linear kernel: its row of Q is zero
    X0 = X.copy()
    X0[3] = 0.0
    r, _ = check(X0, Z, mu, Cs, KERNELS["linear"], problem, **extra)
    if problem == "box":
        assert r.alpha[3] == C[3]  # a free unit of objective, up to its bound
        check(X, Z, mu, 1e-6, k, "box")  # C tiny: everything at the bound
        check(X, Z, mu, np.full(30, 1e-6), k, "box")
    else:
        check(X, Z, mu, 0.05, k, "simplex", diag=0.5)  # upper bound active, sum C >= 1


def test_box_with_one_label_vector_is_the_svm_without_offset():
    # T = 1, z = y, mu = 1: the hinge-loss SVM dual without offset (no equality constraint)
    rng = np.random.default_rng(3)
    n = 50
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, 2)) + y[:, None]
    k = KERNELS["gaussian"]
    r = label_kernel_dual(X, y, 1.0, 2.0, k, eps=1e-9)
    K = gram(X, kernel=k)
    from weaklabel.reference import solve_qp

    Q = (y[:, None] * y[None, :]) * K
    ref = solve_qp(Q, -np.ones(n), lb=np.zeros(n), ub=np.full(n, 2.0))
    assert rel_gap(r.objective, ref.objective) <= 1e-6
    np.testing.assert_allclose(r.alpha, ref.x, atol=1e-5)
    f = label_kernel_decision_function(r, y, 1.0, X, X)
    np.testing.assert_allclose(f, K @ (r.alpha * y), atol=1e-12)


@pytest.mark.parametrize("problem", ["box", "simplex"])
def test_warm_start_and_a_cache_reused_across_mu(problem):
    rng, X, Z, mu, C = random_problem(4, 60, 3)
    k = KERNELS["gaussian"]
    Cs, diag = (C, None) if problem == "box" else (np.inf, 1.0 / C)
    cache = KernelRowCache(X, kernel=k, cache_mb=1.0)
    a = label_kernel_dual(X, Z, mu, Cs, problem=problem, diag=diag, eps=1e-8, cache=cache)
    assert a.kernel_rows_computed > 0 and a.info["cache"] is cache
    mu2 = 0.95 * mu + 0.05 * np.array([1.0, 0.0, 0.0])  # a small step of mu, as in WellSVM
    cold = label_kernel_dual(X, Z, mu2, Cs, k, problem=problem, diag=diag, eps=1e-8)
    warm = label_kernel_dual(X, Z, mu2, Cs, problem=problem, diag=diag, eps=1e-8,
                             cache=cache, alpha0=a.alpha)
    assert warm.converged and cold.converged
    assert rel_gap(warm.objective, cold.objective) <= 1e-9
    assert warm.n_iter < cold.n_iter
    assert warm.kernel_rows_computed < cold.kernel_rows_computed
    # same cache, cold start: the same answer as a fresh cache, fewer rows computed
    reuse = label_kernel_dual(X, Z, mu2, Cs, problem=problem, diag=diag, eps=1e-8,
                              cache=cache)
    np.testing.assert_array_equal(reuse.alpha, cold.alpha)
    assert reuse.n_iter == cold.n_iter
    assert reuse.kernel_rows_computed < cold.kernel_rows_computed


@pytest.mark.parametrize("problem", ["box", "simplex"])
@pytest.mark.parametrize("diag_scale", [0.0, 0.5])
def test_the_row_cache_of_q_changes_the_time_not_the_iterates(problem, diag_scale):
    """Q's rows are cached for one call (row_cache_mb); a cache of 3 rows (evicting all
    the time, and in the simplex solver evicting row i while row j is fetched) and no
    budget at all give bit for bit the same solution as a cache that holds every row."""
    rng, X, Z, mu, C = random_problem(11, 70, 4)
    k = KERNELS["gaussian"]
    Cs, diag = (C, diag_scale * C) if problem == "box" else (np.inf, 1.0 / C + diag_scale)
    a0 = None
    if problem == "box":  # a warm start with a large support: the cached initial gradient
        a0 = np.minimum(C, rng.uniform(0, 1, 70))
    runs = [label_kernel_dual(X, Z, mu, Cs, k, problem=problem, diag=diag, eps=1e-9,
                              alpha0=a0, row_cache_mb=mb) for mb in (64.0, 0.0, 1e-9)]
    for r in runs[1:]:
        np.testing.assert_array_equal(r.alpha, runs[0].alpha)
        np.testing.assert_array_equal(r.gradient, runs[0].gradient)
        assert r.n_iter == runs[0].n_iter
    with pytest.raises(ValueError, match="row_cache_mb"):
        label_kernel_dual(X, Z, mu, Cs, k, problem=problem, diag=diag, row_cache_mb=-1.0)


@pytest.mark.parametrize("kernel", ["linear", "gaussian", "precomputed"])
def test_cache_matvec_is_the_cache_matvec_bit_for_bit(kernel):
    rng = np.random.default_rng(12)
    X = rng.normal(size=(50, 4))
    if kernel == "precomputed":
        cache = KernelRowCache(gram(X, kernel=KERNELS["gaussian"]), kernel="precomputed")
    else:
        cache = KernelRowCache(X, kernel=KERNELS[kernel], cache_mb=0.01)  # evicting rows
    v = rng.normal(size=50) * (rng.random(50) < 0.6)
    np.testing.assert_array_equal(cache_matvec(cache, v), cache.matvec(v))
    np.testing.assert_array_equal(cache_matvec(cache, np.zeros(50)), np.zeros(50))
    with pytest.raises(ValueError, match="square"):
        cache_matvec(KernelRowCache(X, X[:10], kernel=KERNELS["linear"]), v)


@pytest.mark.parametrize("problem", ["box", "simplex"])
def test_precomputed_equals_the_built_in_kernel(problem):
    rng, X, Z, mu, C = random_problem(5, 40, 2)
    k = KERNELS["gaussian"]
    K = gram(X, kernel=k)
    Cs, diag = (C, None) if problem == "box" else (np.inf, 0.3)
    a = label_kernel_dual(X, Z, mu, Cs, k, problem=problem, diag=diag, eps=1e-9)
    b = label_kernel_dual(K, Z, mu, Cs, "precomputed", problem=problem, diag=diag, eps=1e-9)
    assert b.kernel_rows_computed == 0
    assert rel_gap(a.objective, b.objective) <= 1e-12
    np.testing.assert_allclose(a.alpha, b.alpha, atol=1e-7)
    np.testing.assert_allclose(label_kernel_decision_function(b, Z, mu, K, K[:5]),
                               label_kernel_decision_function(a, Z, mu, X, X[:5]),
                               atol=1e-10)


def test_quadratic_and_matvec_from_the_cache():
    rng, X, Z, mu, C = random_problem(6, 50, 3)
    k = KERNELS["gaussian"]
    K = gram(X, kernel=k)
    r = label_kernel_dual(X, Z, mu, C, k, eps=1e-6)
    cache = KernelRowCache(X, kernel=k, cache_mb=0.01)  # 2 rows: constant eviction
    q = label_kernel_quadratic(cache, Z, r.alpha)
    np.testing.assert_allclose(q, [(r.alpha * z) @ K @ (r.alpha * z) for z in Z], rtol=1e-12)
    np.testing.assert_allclose(cache.matvec(r.alpha), K @ r.alpha, atol=1e-12)
    V = rng.normal(size=(50, 2))
    np.testing.assert_allclose(cache.matvec(V), K @ V, atol=1e-12)
    pc = KernelRowCache(K, kernel="precomputed")
    np.testing.assert_allclose(pc.matvec(V), K @ V, atol=1e-12)
    assert pc.misses == 0


def test_bad_input_names_the_argument():
    X = np.random.default_rng(0).normal(size=(6, 2))
    z = np.array([1, -1, 1, -1, 1, 1.0])
    with pytest.raises(ValueError, match="problem"):
        label_kernel_dual(X, z, 1.0, problem="ball")
    with pytest.raises(ValueError, match="labels"):
        label_kernel_dual(X, [1, 2, 1, 1, 1, 1], 1.0)
    with pytest.raises(ValueError, match="labels"):
        label_kernel_dual(X, np.ones((2, 5)), [0.5, 0.5])
    with pytest.raises(ValueError, match="mu"):
        label_kernel_dual(X, z, -1.0)
    with pytest.raises(ValueError, match="C must"):
        label_kernel_dual(X, z, 1.0, np.inf)
    with pytest.raises(ValueError, match="diag"):
        label_kernel_dual(X, z, 1.0, diag=-np.ones(6))
    with pytest.raises(ValueError, match="alpha0"):
        label_kernel_dual(X, z, 1.0, problem="simplex", alpha0=np.full(6, 0.5))
    with pytest.raises(ValueError, match="infeasible"):
        label_kernel_dual(X, z, 1.0, 0.1, problem="simplex")
    with pytest.raises(ValueError, match="cache"):
        label_kernel_dual(X + 1.0, z, 1.0, cache=KernelRowCache(X))
    with pytest.raises(ValueError, match="square"):
        label_kernel_dual(X, z, 1.0, kernel="precomputed")


def test_iteration_cap_warns():
    rng, X, Z, mu, C = random_problem(9, 40, 2)
    for problem in ("box", "simplex"):
        with pytest.warns(ConvergenceWarning, match="max_iter=3"):
            r = label_kernel_dual(X, Z, mu, 10.0, KERNELS["gaussian"], problem=problem,
                                  eps=1e-10, max_iter=3)
        assert not r.converged and r.n_iter == 3
        K = gram(X, kernel=KERNELS["gaussian"])
        lin = -1.0 if problem == "box" else 0.0
        np.testing.assert_allclose(r.gradient, label_kernel_matrix(K, Z, mu) @ r.alpha + lin,
                                   atol=1e-12)
