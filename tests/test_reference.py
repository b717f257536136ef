import time

import numpy as np
import pytest
from sklearn.svm import SVC

from weaklabel.experiments.solvers import (
    random_svm_problem,
    svm_dual_kkt_violation,
    svm_dual_objective,
)
from weaklabel.kernels import gram
from weaklabel.reference import ReferenceSolverError, make_psd, solve_qp, svm_dual_qp


def test_unconstrained_quadratic():
    P = np.array([[2.0, 0.5], [0.5, 1.0]])
    q = np.array([-1.0, 1.0])
    t0 = time.perf_counter()
    r = solve_qp(P, q)
    wall = time.perf_counter() - t0
    np.testing.assert_allclose(r.x, np.linalg.solve(P, -q), atol=1e-7)
    assert r.status == "optimal"
    assert 0 < r.seconds <= wall  # the solve is timed, inside the call


def test_box_and_equality_known_solution():
    # min 1/2||x||^2 - x1 - x2  s.t. x1 + x2 = 1, 0 <= x <= 0.7  ->  x = (0.5, 0.5)
    r = solve_qp(np.eye(2), -np.ones(2), A=np.ones((1, 2)), b=[1.0], lb=np.zeros(2),
                 ub=np.full(2, 0.7))
    np.testing.assert_allclose(r.x, [0.5, 0.5], atol=1e-7)
    assert r.objective == pytest.approx(0.25 - 1.0, abs=1e-8)
    # stationarity: x + q + A'y = 0 (bounds inactive)
    np.testing.assert_allclose(r.x - 1 + r.y_eq[0], 0, atol=1e-6)


def test_inequality_active_dual():
    # min 1/2 x^2 - 2x  s.t. x <= 1  -> x = 1, multiplier 1
    r = solve_qp(np.eye(1), [-2.0], G=np.ones((1, 1)), h=[1.0])
    assert r.x[0] == pytest.approx(1.0, abs=1e-7)
    assert r.z_ineq[0] == pytest.approx(1.0, abs=1e-6)


def test_infeasible_raises():
    with pytest.raises(ReferenceSolverError, match="infeasible"):
        solve_qp(np.eye(2), np.zeros(2), A=np.ones((1, 2)), b=[5.0], lb=np.zeros(2),
                 ub=np.ones(2))


def test_psd_up_to_rounding_and_indefinite(rng):
    X = rng.normal(size=(30, 2))
    K = gram(X, kernel="linear")  # rank 2: eigenvalues ~ 0, some slightly negative
    K[0, 1] += 1e-14
    P, jitter, min_eig = make_psd(K)
    np.testing.assert_array_equal(P, P.T)
    assert min_eig > -1e-8 and jitter >= 0
    with pytest.raises(ValueError, match="not positive semidefinite"):
        make_psd(np.diag([1.0, -1.0]))
    with pytest.raises(ValueError, match="square"):
        make_psd(np.ones((2, 3)))


def test_bad_shapes():
    with pytest.raises(ValueError, match="q has length 3"):
        solve_qp(np.eye(2), np.zeros(3))
    with pytest.raises(ValueError, match="both A and b"):
        solve_qp(np.eye(2), np.zeros(2), A=np.ones((1, 2)))
    with pytest.raises(ValueError, match="lb must be <= ub"):
        solve_qp(np.eye(2), np.zeros(2), lb=np.ones(2), ub=np.zeros(2))


@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_svm_dual_matches_sklearn_svc(rng, kernel, C):
    X, y = random_svm_problem(80, 4, rng, duplicates=4)
    K = gram(X, kernel=kernel, **({"sigma": 2.0} if kernel == "gaussian" else {}))
    svc = SVC(C=C, kernel="precomputed", tol=1e-10).fit(K, y)
    a = np.zeros(len(y))
    a[svc.support_] = np.abs(svc.dual_coef_.ravel())
    ref = svm_dual_qp(K, y, C)
    obj = svm_dual_objective(K, y, a)
    assert abs(obj - ref.objective) <= 1e-6 * max(1.0, abs(ref.objective))
    assert svm_dual_kkt_violation(K, y, a, C) < 1e-5 * max(1.0, C)
    assert svm_dual_kkt_violation(K, y, ref.x, C) < 1e-3 * max(1.0, C)


def test_factored_quadratic_equals_dense(rng):
    F = rng.normal(size=(40, 3))
    y = np.sign(rng.normal(size=40))
    kw = dict(q=-np.ones(40), A=y[None, :], b=[0.0], lb=np.zeros(40), ub=np.full(40, 0.5))
    dense = solve_qp(F @ F.T, **kw)
    fact = solve_qp(None, P_factor=F, **kw)
    assert fact.objective == pytest.approx(dense.objective, rel=1e-6)
    with pytest.raises(ValueError, match="either P or P_factor"):
        solve_qp(F @ F.T, P_factor=F, **kw)
