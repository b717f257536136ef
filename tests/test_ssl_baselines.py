"""The semi-supervised baselines of the WellSVM paper's Tables 2-4 (Li et al. 2013):
labelled-only SVM, TSVM (Joachims 1999), CCCP-TSVM / USVM (Collobert et al. 2006) and
LapSVM (Belkin et al. 2006).

- On two moons with 2 labels per class (the cluster assumption holds) every baseline beats
  chance and, on average over 5 draws, the labelled-only SVM.
- TSVM keeps the labelled class ratio on U and ends with no switchable pair (Joachims'
  stopping condition).
- One CCCP step equals the cvxpy solution of the same QP (relative objective gap <= 1e-6);
  the balancing constraint holds exactly; the CCCP objective does not increase.
- LapSVM with gamma_I = 0 is the C-SVM with bias on the labelled points (C = 1/(2 gamma_A l));
  LapSVM matches the cvxpy solution of its primal.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_moons

from weaklabel.kernels import gram, make_kernel
from weaklabel.models.ssl import CCCPTSVM, TSVM, LabelledSVM, LapSVM
from weaklabel.reference.qp import solve_qp
from weaklabel.solvers.cccp_tsvm import cccp_step, cccp_tsvm, extended_kernel
from weaklabel.solvers.lapsvm import knn_laplacian, lapsvm
from weaklabel.solvers.smo import smo_decision_function, svc_dual
from weaklabel.solvers.tsvm import n_positives, tsvm

KW = {"kernel": "gaussian", "sigma": 0.35}


def _moons(seed, n=300, per=2, noise=0.08):
    X, y = make_moons(n, noise=noise, random_state=seed)
    rng = np.random.default_rng(seed)
    P = rng.permutation(n)
    lab = np.r_[P[y[P] == 1][:per], P[y[P] == 0][:per]]
    ys = np.full(n, -1)
    ys[lab] = y[lab]
    return X, y, ys


def _split(seed, n=120, per=3):
    X, y, ys = _moons(seed, n=n, per=per)
    lab = ys >= 0
    return X[lab], np.where(y[lab] == 1, 1.0, -1.0), X[~lab], np.where(y[~lab] == 1, 1.0, -1.0)


# --------------------------------------------------------------------------- accuracy
@pytest.mark.parametrize("make", [lambda: TSVM(C2=1.0, **KW), lambda: CCCPTSVM(C2=1.0, **KW),
                                  lambda: LapSVM(C2=10.0, **KW)],
                         ids=["TSVM", "CCCPTSVM", "LapSVM"])
def test_beats_chance_and_the_labelled_svm_on_two_moons(make):
    acc, base = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(5):
            X, _, ys = _moons(seed)
            Xt, yt, _ = _moons(seed + 100)
            acc.append(make().fit(X, ys).score(Xt, yt))
            base.append(LabelledSVM(**KW).fit(X, ys).score(Xt, yt))
    assert min(acc) > 0.7  # chance is 0.5
    assert np.mean(acc) > np.mean(base) + 0.03, (acc, base)


def test_labelled_svm_is_svc_dual_on_the_labelled_rows():
    X, _, ys = _moons(0, n=80, per=5)
    m = LabelledSVM(**KW).fit(X, ys)
    lab = ys >= 0
    yl = np.where(ys[lab] == 1, 1.0, -1.0)
    res = svc_dual(X[lab], yl, 1.0, make_kernel("gaussian", sigma=0.35))
    np.testing.assert_allclose(m.decision_function(X),
                               smo_decision_function(res, X[lab], yl, X), atol=1e-12)
    assert m.X_fit_.shape[0] == lab.sum()


# --------------------------------------------------------------------------- TSVM
@pytest.mark.parametrize("per_pos,per_neg", [(3, 3), (2, 6)])
def test_tsvm_keeps_the_balance_and_stops_without_switchable_pairs(per_pos, per_neg):
    X, y = make_moons(150, noise=0.08, random_state=3)
    rng = np.random.default_rng(3)
    P = rng.permutation(150)
    lab = np.r_[P[y[P] == 1][:per_pos], P[y[P] == 0][:per_neg]]
    ys = np.full(150, -1)
    ys[lab] = y[lab]
    m = TSVM(C2=0.5, **KW).fit(X, ys)
    u = int(np.sum(ys == -1))
    pi_l = per_pos / (per_pos + per_neg)
    # Li et al. 2013, Prop. 5: n_- = ceil(u (1 - pi_L)), n_+ = u - n_-
    assert m.transduction_.sum() == u - int(np.ceil(u * (1 - pi_l)))
    assert m.transduction_.sum() == n_positives(np.where(y[lab] == 1, 1, -1), u)
    res = m.result_
    assert res.converged and m.converged_
    # Joachims' loop condition fails at the end: no pair with xi_m, xi_l > 0, sum > 2
    f = m.decision_function(m.X_fit_)
    xi = np.maximum(0.0, 1.0 - res.labels * f)[len(lab):]
    yu = res.labels[len(lab):]
    assert xi[yu > 0].max(initial=0) + xi[yu < 0].max(initial=0) <= 2.0 + 1e-2
    # the transduced labels are those of the final SVM's training set
    np.testing.assert_array_equal(m.transduction_, (yu > 0).astype(int))


def test_tsvm_objective_is_joachims_primal():
    Xl, yl, Xu, _ = _split(1)
    k = make_kernel("gaussian", sigma=0.35)
    r = tsvm(Xl, yl, Xu, C=1.0, C_star=0.3, kernel=k, eps=1e-8)
    X = np.vstack([Xl, Xu])
    K = gram(X, X, k)
    f = K @ r.coef + r.bias
    cost = np.r_[np.full(len(yl), 1.0), np.full(len(Xu), 0.3)]
    obj = 0.5 * r.coef @ K @ r.coef + cost @ np.maximum(0, 1 - r.labels * f)
    assert r.objective == pytest.approx(obj, rel=1e-9)


def test_tsvm_shared_gram_matches_per_solve_rows():
    """The Gram matrix computed once (``gram_mb`` large enough) and the kernel rows computed
    in every solve (``gram_mb=0``) give the same fit, up to the rounding of kernel values."""
    Xl, yl, Xu, _ = _split(1)
    k = make_kernel("gaussian", sigma=0.35)
    a = tsvm(Xl, yl, Xu, C=1.0, C_star=0.3, kernel=k, eps=1e-8)
    b = tsvm(Xl, yl, Xu, C=1.0, C_star=0.3, kernel=k, eps=1e-8, gram_mb=0)
    assert a.info["precomputed_gram"] and not b.info["precomputed_gram"]
    np.testing.assert_array_equal(a.labels, b.labels)
    assert a.n_switches == b.n_switches
    assert a.objective == pytest.approx(b.objective, rel=1e-7)
    np.testing.assert_allclose(a.coef, b.coef, atol=1e-6)
    with pytest.raises(ValueError, match="gram_mb"):
        tsvm(Xl, yl, Xu, gram_mb=-1.0)


# --------------------------------------------------------------------------- CCCP-TSVM
def _cccp_problem(seed=2, C=1.0, C_star=0.5):
    Xl, yl, Xu, _ = _split(seed, n=60, per=3)
    k = make_kernel("gaussian", sigma=0.5)
    l, u = len(yl), len(Xu)
    K_ext = extended_kernel(gram(np.vstack([Xl, Xu]), None, k), l)
    y_ext = np.r_[1.0, yl, np.ones(u), -np.ones(u)]
    c = np.r_[np.full(l, C), np.full(2 * u, C_star)]
    rng = np.random.default_rng(seed)
    beta = np.where((np.arange(l + 2 * u) >= l) & (rng.random(l + 2 * u) < 0.3), c, 0.0)
    return K_ext, y_ext, c, beta, float(np.mean(yl)), l, u


def test_one_cccp_step_matches_cvxpy():
    K_ext, y_ext, c, beta, rho0, l, u = _cccp_problem()
    step = cccp_step(K_ext, y_ext, c, beta, rho0, eps=1e-9)
    # Collobert et al. 2006 dual in the signed alpha: min 1/2 a'Ka - zeta'a, 1'a = 0,
    # -beta_i <= y_i a_i <= c_i - beta_i (i >= 1); alpha_0 free (|alpha_0| <= sum c).
    M = c.sum()
    yy = y_ext[1:]
    lo = np.where(yy > 0, -beta, -(c - beta))
    hi = np.where(yy > 0, c - beta, beta)
    zeta = np.r_[rho0, yy]
    ref = solve_qp(K_ext, -zeta, A=np.ones((1, K_ext.shape[0])), b=np.zeros(1),
                   lb=np.r_[-M, lo], ub=np.r_[M, hi])
    assert abs(step.objective - ref.objective) <= 1e-6 * abs(ref.objective)
    assert abs(step.alpha.sum()) < 1e-8
    # the balancing constraint: mean of f over U (the +1 copies) is rho0
    f_u = step.g[1 + l:1 + l + u] + step.bias
    assert f_u.mean() == pytest.approx(rho0, abs=1e-10)
    # the bias is the multiplier nu of 1'alpha = 0 (cvxpy: Lagrangian obj + nu (1'alpha));
    # stationarity K alpha - zeta + nu 1 = 0 gives f_i = y_i on free alpha_i with b = nu
    assert step.bias == pytest.approx(ref.y_eq[0], abs=1e-4)


def test_cccp_tsvm_balance_and_monotone_objective():
    Xl, yl, Xu, _ = _split(4, n=150, per=4)
    r = cccp_tsvm(Xl, yl, Xu, C=1.0, C_star=1.0, kernel=make_kernel("gaussian", sigma=0.35),
                  eps=1e-8)
    assert r.converged
    K = gram(Xu, np.vstack([Xl, Xu]), make_kernel("gaussian", sigma=0.35))
    assert np.mean(K @ r.coef + r.bias) == pytest.approx(np.mean(yl), abs=1e-10)
    J = np.asarray(r.objectives[1:])  # after the (unconstrained) labelled-only start
    assert np.all(np.diff(J) <= 1e-6 * np.abs(J[:-1]))


def test_cccp_rejects_a_bad_ramp_parameter():
    Xl, yl, Xu, _ = _split(0)
    with pytest.raises(ValueError, match="s must satisfy"):
        cccp_tsvm(Xl, yl, Xu, s=0.5)


# --------------------------------------------------------------------------- LapSVM
def test_lapsvm_without_the_graph_is_the_labelled_svm():
    """gamma_I = 0: Belkin et al.'s expansion reduces to the C-SVM with bias on L with
    C = 1/(2 gamma_A l) (alpha = 0 on the unlabelled points)."""
    Xl, yl, Xu, _ = _split(5)
    k = make_kernel("gaussian", sigma=0.35)
    C, l = 2.0, len(yl)
    r = lapsvm(Xl, yl, Xu, gamma_A=1 / (2 * C * l), gamma_I=0.0, kernel=k, eps=1e-10)
    s = svc_dual(Xl, yl, C, k, eps=1e-10)
    X = np.vstack([Xl, Xu])
    np.testing.assert_allclose(gram(X, X, k) @ r.alpha + r.bias,
                               smo_decision_function(s, Xl, yl, X), atol=1e-9)
    assert np.all(r.alpha[l:] == 0)
    # and the estimator with C2 = 0 is LabelledSVM
    Xa, _, ys = _moons(5, n=120, per=3)
    np.testing.assert_allclose(LapSVM(C2=0.0, **KW).fit(Xa, ys).decision_function(Xa),
                               LabelledSVM(**KW).fit(Xa, ys).decision_function(Xa), atol=1e-8)


def test_lapsvm_matches_the_cvxpy_primal():
    cp = pytest.importorskip("cvxpy")
    Xl, yl, Xu, _ = _split(6, n=80, per=3)
    k = make_kernel("gaussian", sigma=0.35)
    l = len(yl)
    X = np.vstack([Xl, Xu])
    n = X.shape[0]
    gA, gI = 1 / (2 * l), 2e3
    r = lapsvm(Xl, yl, Xu, gamma_A=gA, gamma_I=gI, kernel=k, eps=1e-10)
    K = gram(X, X, k)
    Lap = knn_laplacian(X, 5)
    ev, V = np.linalg.eigh(K)
    R = V * np.sqrt(np.clip(ev, 0, None))
    Bf = np.linalg.cholesky(Lap + 1e-12 * np.eye(n))
    a, b = cp.Variable(n), cp.Variable()
    f = K @ a + b
    obj = (cp.sum(cp.pos(1 - cp.multiply(yl, f[:l]))) / l + gA * cp.sum_squares(R.T @ a)
           + gI / n**2 * cp.sum_squares(Bf.T @ (K @ a)))
    prob = cp.Problem(cp.Minimize(obj))
    prob.solve(solver="CLARABEL")
    assert r.objective == pytest.approx(prob.value, rel=1e-6)


def test_knn_laplacian():
    X = np.array([[0.0], [1.0], [2.0], [10.0]])
    L = knn_laplacian(X, 1, weights="binary")
    # 1-NN: 0-1, 1-0 (or 1-2), 2-1, 3-2; symmetrised
    W = -(L - np.diag(np.diag(L)))
    assert W[0, 1] == 1 and W[1, 2] == 1 and W[2, 3] == 1 and W[0, 3] == 0
    np.testing.assert_allclose(L.sum(axis=1), 0)
    Ln = knn_laplacian(X, 2, laplacian="normalized")
    np.testing.assert_allclose(np.diag(Ln), 1)
    assert np.all(np.linalg.eigvalsh(Ln) > -1e-12)


# --------------------------------------------------------------------------- errors, warnings
@pytest.mark.parametrize("cls", [LabelledSVM, TSVM, CCCPTSVM, LapSVM])
def test_input_errors_name_the_argument(cls):
    X, _, ys = _moons(0, n=40, per=3)
    with pytest.raises(ValueError, match="C1"):
        cls(C1=-1.0).fit(X, ys)
    with pytest.raises(ValueError, match="tol"):
        cls(tol=0.0).fit(X, ys)
    with pytest.raises(ValueError, match="sigma"):
        cls(kernel="gaussian", sigma="wide").fit(X, ys)
    with pytest.raises(ValueError, match="one class only"):
        cls().fit(X, np.where(ys == 1, -1, ys))
    with pytest.raises(ValueError, match="y has length"):
        cls().fit(X, ys[:-1])
    with pytest.raises(ValueError, match="kernel"):
        cls(kernel="cubic").fit(X, ys)
    if "C2" in cls().get_params():
        with pytest.raises(ValueError, match="C2"):
            cls(C2=-0.1).fit(X, ys)


def test_solver_errors_name_the_argument():
    Xl, yl, Xu, _ = _split(0)
    with pytest.raises(ValueError, match="C_star"):
        tsvm(Xl, yl, Xu, C_star=0.0)
    with pytest.raises(ValueError, match="X_u has 1 features"):
        cccp_tsvm(Xl, yl, Xu[:, :1])
    with pytest.raises(ValueError, match="gamma_A"):
        lapsvm(Xl, yl, Xu, gamma_A=0.0, gamma_I=1.0)
    with pytest.raises(ValueError, match="n_neighbors"):
        knn_laplacian(Xl, Xl.shape[0])
    with pytest.raises(ValueError, match="y_l contains a single class"):
        lapsvm(Xl, np.ones(len(yl)), Xu, gamma_A=1.0, gamma_I=1.0)
    with pytest.raises(ValueError, match="weights"):
        LapSVM(weights="gauss").fit(*_moons(0, n=40)[::2])


@pytest.mark.parametrize("est", [TSVM(C2=1.0, max_iter=2, **KW),
                                 CCCPTSVM(C2=1.0, max_iter=1, **KW)],
                         ids=["TSVM", "CCCPTSVM"])
def test_iteration_cap_warns(est):
    from sklearn.exceptions import ConvergenceWarning

    X, _, ys = _moons(1, n=150, per=2)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        est.fit(X, ys)
    assert not est.converged_
