"""SU learning (Bao et al. 2018; Shi et al. 2021): risks, SU-SL, SU-DH, CUU, class prior."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

import weaklabel.solvers.su as su_solvers
from weaklabel.reference.su import sudh_certificate, sudh_reference, susl_reference
from weaklabel.solvers.su import (
    SUDHSolverError,
    cuu,
    estimate_su_prior,
    su_basis,
    su_class_weights,
    su_loss,
    su_objective,
    su_partial_risks,
    su_risk,
    su_zero_one_risk,
    sudh_fit,
    susl_fit,
)


def su_sample(n_pairs, n_u, prior, *, d=2, mean=2.0, seed=0):
    """Two-Gaussian SU data (means +-mean in every coordinate, unit variance), as in the
    synthetic experiments of Bao et al. 2018: pairs positive with prob. pi_+^2 / pi_S."""
    rng = np.random.default_rng(seed)
    pi_s = prior ** 2 + (1 - prior) ** 2
    y_pair = np.where(rng.random(n_pairs) < prior ** 2 / pi_s, 1.0, -1.0)
    y_s = np.repeat(y_pair, 2)
    XS = rng.standard_normal((2 * n_pairs, d)) + mean * y_s[:, None]
    y_u = np.where(rng.random(n_u) < prior, 1.0, -1.0)
    XU = rng.standard_normal((n_u, d)) + mean * y_u[:, None]
    return XS, XU, y_s, y_u


def rel_gap(a, b):
    return abs(a - b) / max(1.0, abs(b))


# --------------------------------------------------------------------------- risks
@pytest.mark.parametrize("loss", ["squared", "double_hinge"])
def test_linear_odd_identity(loss):
    z = np.linspace(-5, 5, 201)
    np.testing.assert_allclose(su_loss(z, 1, loss) - su_loss(z, -1, loss), -z, atol=1e-12)


def test_loss_values():
    assert su_loss(1.0, 1, "squared") == 0.0
    assert su_loss(-1.0, 1, "squared") == 1.0
    assert su_loss(2.0, 1, "double_hinge") == 0.0
    assert su_loss(0.0, 1, "double_hinge") == 0.5
    assert su_loss(-3.0, 1, "double_hinge") == 3.0


def test_class_weights():
    pi_s, pi_m, c = su_class_weights(0.7)
    assert pi_s == pytest.approx(0.58) and pi_m == pytest.approx(0.3)
    assert c == pytest.approx(2.5)
    assert su_class_weights(0.3)[2] == pytest.approx(-2.5)


@pytest.mark.parametrize("prior", [0.7, 0.3])
@pytest.mark.parametrize("loss", ["squared", "double_hinge"])
def test_partial_risks_sum_to_eq7(prior, loss):
    rng = np.random.default_rng(1)
    fs, fu = rng.normal(size=40), rng.normal(size=70)
    pi_s, pi_m, c = su_class_weights(prior)
    L_S = c * (su_loss(fs, 1, loss) - su_loss(fs, -1, loss))
    L_U = c * (-pi_m * su_loss(fu, 1, loss) + prior * su_loss(fu, -1, loss))
    eq7 = pi_s * L_S.mean() + L_U.mean()
    r_p, r_m = su_partial_risks(fs, fu, prior, loss)
    assert r_p + r_m == pytest.approx(eq7, abs=1e-12)
    assert su_risk(fs, fu, prior, loss) == pytest.approx(eq7, abs=1e-12)
    assert su_risk(fs, fu, prior, loss, "abs") == pytest.approx(abs(r_p) + abs(r_m))
    assert su_risk(fs, fu, prior, loss, "relu") == pytest.approx(max(r_p, 0) + max(r_m, 0))


@pytest.mark.parametrize("prior", [0.7, 0.3])
def test_zero_one_risk_perfect_classifier(prior):
    XS, XU, y_s, y_u = su_sample(20000, 40000, prior, d=1, mean=50.0, seed=2)
    r = su_zero_one_risk(XS[:, 0], XU[:, 0], prior)
    assert abs(r) < 0.02
    # the wrong sign is maximally bad and a constant classifier has risk min(pi_+, pi_-)
    assert su_zero_one_risk(-XS[:, 0], -XU[:, 0], prior) > 0.95
    const = su_zero_one_risk(np.ones(len(XS)), np.ones(len(XU)), prior)
    assert const == pytest.approx(1 - prior, abs=0.02)


def test_zero_one_risk_unbiased_for_noisy_classifier():
    prior = 0.7
    XS, XU, y_s, y_u = su_sample(20000, 40000, prior, d=1, mean=1.0, seed=3)
    true_err = np.mean(np.where(XU[:, 0] >= 0, 1, -1) != y_u)
    assert su_zero_one_risk(XS[:, 0], XU[:, 0], prior) == pytest.approx(true_err, abs=0.02)


# --------------------------------------------------------------------------- SUSL / SUDH
def _bases(prior, kind, seed=4):
    XS, XU, _, _ = su_sample(25, 50, prior, d=3, seed=seed)
    C = np.vstack([XS, XU])
    return su_basis(XS, kind, C, gamma=0.3), su_basis(XU, kind, C, gamma=0.3)


@pytest.mark.parametrize("prior", [0.7, 0.3])
@pytest.mark.parametrize("kind", ["linear", "rbf"])
def test_susl_closed_form_matches_reference(prior, kind):
    PS, PU = _bases(prior, kind)
    lam = 0.05
    theta = susl_fit(PS, PU, prior, lam)
    ref = susl_reference(PS, PU, prior, lam)
    obj = su_objective(theta, PS, PU, prior, lam)
    assert rel_gap(obj, ref.objective) <= 1e-6
    np.testing.assert_allclose(theta, ref.theta, atol=1e-5)
    # gradient of the objective vanishes (finite differences on a few coordinates)
    for j in range(3):
        e = np.zeros_like(theta)
        e[j] = 1e-6
        g = (su_objective(theta + e, PS, PU, prior, lam)
             - su_objective(theta - e, PS, PU, prior, lam)) / 2e-6
        assert abs(g) < 1e-6


@pytest.mark.parametrize("prior", [0.7, 0.3])
@pytest.mark.parametrize("kind", ["linear", "rbf"])
def test_sudh_qp_matches_reference(prior, kind):
    PS, PU = _bases(prior, kind)
    lam = 0.05
    theta = sudh_fit(PS, PU, prior, lam)
    ref = sudh_reference(PS, PU, prior, lam)
    obj = su_objective(theta, PS, PU, prior, lam, loss="double_hinge")
    assert rel_gap(obj, ref.objective) <= 1e-6
    # the objective is lam-strongly convex: ||theta - theta*||^2 <= 2 (F(theta) - F*) / lam,
    # and the certified gap bounds F(theta) - F* for each of the two solutions
    bound = sum(np.sqrt(2.0 * sudh_certificate(t, PS, PU, prior, lam).gap / lam)
                for t in (theta, ref.theta))
    assert np.linalg.norm(theta - ref.theta) <= bound + 1e-12
    theta_osqp = sudh_fit(PS, PU, prior, lam, solver="OSQP")
    assert rel_gap(su_objective(theta_osqp, PS, PU, prior, lam, loss="double_hinge"),
                   ref.objective) <= 1e-6


@pytest.mark.filterwarnings("ignore:Solution may be inaccurate")
def test_sudh_solver_failure_is_reported():
    PS, PU = _bases(0.7, "linear")
    with pytest.raises(SUDHSolverError, match="OSQP"):
        sudh_fit(PS, PU, 0.7, 0.05, solver="OSQP", solver_options={"max_iter": 1})


# SU-DH at the smallest lambda of the grid of Bao et al.'s code ({1e-1, 1e-4, 1e-7}). The
# QP in theta itself was ill conditioned there (||theta|| ~ 1/lam when the empirical risk is
# unbounded below): on the two problems below it stopped 1.95e-2 and 1.9e-4 (relative) above
# the optimum with status "optimal". They are the problems of _bases(prior, kind, seed).
LAM_MIN = 1e-7
HARD = [(0.3, "linear", 1), (0.7, "rbf", 0)]
TOL = 1e-6  # the relative objective tolerance of test_sudh_qp_matches_reference


def _unscaled(prior, PS, PU, lam):
    """The QP as solved before the rescaling (s = 1: theta itself)."""
    pi_s, pi_m, c = su_class_weights(prior)
    q = c * (-pi_s * np.asarray(PS).mean(axis=0) + pi_m * np.asarray(PU).mean(axis=0))
    theta, _, _ = su_solvers._sudh_qp(PU, q, lam, 1.0, "CLARABEL", {}, False)
    return theta


@pytest.mark.parametrize("prior, kind, seed", HARD)
def test_sudh_certified_at_the_smallest_lambda(prior, kind, seed):
    PS, PU = _bases(prior, kind, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        theta, info = sudh_fit(PS, PU, prior, LAM_MIN, full_output=True)
    assert info["rel_gap"] <= TOL
    # the independent certificate (closed form, no cvxpy): duality gap and stationarity
    cert = sudh_certificate(theta, PS, PU, prior, LAM_MIN)
    obj = su_objective(theta, PS, PU, prior, LAM_MIN, loss="double_hinge")
    assert cert.primal == pytest.approx(obj, rel=1e-12)
    assert cert.rel_gap <= TOL and cert.kkt_violation <= TOL
    # and no worse than the cvxpy reference (which bounds the optimum from above)
    ref = sudh_reference(PS, PU, prior, LAM_MIN)
    assert obj <= ref.objective + TOL * max(1.0, abs(ref.objective))


@pytest.mark.parametrize("prior, kind, seed", HARD)
def test_sudh_certificate_rejects_the_unscaled_qp(prior, kind, seed):
    """Must fire: the certificate and the reference both see the old solution's gap."""
    PS, PU = _bases(prior, kind, seed)
    theta = _unscaled(prior, PS, PU, LAM_MIN)
    cert = sudh_certificate(theta, PS, PU, prior, LAM_MIN)
    assert cert.rel_gap > TOL
    ref = sudh_reference(PS, PU, prior, LAM_MIN)
    obj = su_objective(theta, PS, PU, prior, LAM_MIN, loss="double_hinge")
    assert obj > ref.objective + TOL * abs(ref.objective)


def test_sudh_certificate_bounds_the_suboptimality():
    """At lam = 0.05 (well conditioned): ~0 at the optimum; for a perturbed theta the gap is
    at least the true excess over the reference optimum and the KKT violation is positive."""
    prior, lam = 0.7, 0.05
    PS, PU = _bases(prior, "rbf")
    theta = sudh_fit(PS, PU, prior, lam)
    ref = sudh_reference(PS, PU, prior, lam)
    assert sudh_certificate(theta, PS, PU, prior, lam).rel_gap <= TOL
    bad = theta + 0.05 * np.random.default_rng(0).standard_normal(theta.shape)
    cert = sudh_certificate(bad, PS, PU, prior, lam)
    excess = su_objective(bad, PS, PU, prior, lam, loss="double_hinge") - ref.objective
    assert excess > 0 and cert.gap >= excess - 1e-8 and cert.kkt_violation > 1e-3


def test_sudh_warns_naming_lam_when_not_certified():
    """Must fire: a solver stopped early (tolerances 1e-1) returns an uncertified solution;
    must not fire: the default tolerances at the same lambda."""
    prior, kind, seed = HARD[0]
    PS, PU = _bases(prior, kind, seed)
    loose = {"tol_gap_abs": 1e-1, "tol_gap_rel": 1e-1, "tol_feas": 1e-1}
    with pytest.warns(ConvergenceWarning, match=r"at lam=1e-07 .*relative duality gap"):
        sudh_fit(PS, PU, prior, LAM_MIN, solver_options=loose)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        sudh_fit(PS, PU, prior, LAM_MIN)


def test_susl_woodbury_branch_and_sparse_input():
    prior, lam = 0.7, 0.1
    XS, XU, _, _ = su_sample(30, 40, prior, d=60, mean=0.3, seed=5)   # p = 61 > n_U = 40
    PS, PU = su_basis(XS), su_basis(XU)
    theta = susl_fit(PS, PU, prior, lam)
    ref = susl_reference(PS, PU, prior, lam)
    assert rel_gap(su_objective(theta, PS, PU, prior, lam), ref.objective) <= 1e-6
    PSs, PUs = su_basis(sp.csr_matrix(XS)), su_basis(sp.csr_matrix(XU))
    assert sp.issparse(PSs)
    np.testing.assert_allclose(susl_fit(PSs, PUs, prior, lam), theta, atol=1e-10)
    # direct branch (p <= n_U) with a sparse basis
    PS2, PU2 = su_basis(sp.csr_matrix(XS[:, :5])), su_basis(sp.csr_matrix(XU[:, :5]))
    np.testing.assert_allclose(susl_fit(PS2, PU2, prior, lam),
                               susl_fit(PS2.toarray(), PU2.toarray(), prior, lam), atol=1e-10)


def test_basis_kinds():
    rng = np.random.default_rng(6)
    X, C = rng.normal(size=(7, 3)), rng.normal(size=(4, 3))
    P = su_basis(X, "rbf", C, gamma=0.7)
    d2 = ((X[:, None, :] - C[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(P[:, :4], np.exp(-0.7 * d2), atol=1e-12)
    assert np.all(P[:, 4] == 1.0)
    Q = su_basis(sp.csr_matrix(X), "poly", C, degree=3, scale=0.5, bias=False)
    np.testing.assert_allclose(Q, (0.5 * X @ C.T) ** 3, atol=1e-12)
    assert su_basis(X, "linear", bias=False).shape == (7, 3)


# --------------------------------------------------------------------------- CUU
@pytest.mark.parametrize("prior", [0.7, 0.3])
def test_cuu_accuracy_and_objective(prior):
    XS, XU, _, _ = su_sample(300, 600, prior, d=2, seed=7)
    _, Xt, _, yt = su_sample(1, 2000, prior, d=2, seed=8)     # test points follow p(x)
    r = cuu(XS, XU, prior, lam=1e-3, gamma=0.25, centers=200, n_iter=100, batch_s=200,
            batch_u=200, checkpoints=[1, 50], random_state=0)
    assert np.mean(r.predict(Xt) == yt) > 0.9
    assert r.n_centers == 200 and r.times.shape == (100,)
    assert np.all(np.diff(r.times) >= 0)

    def objective(k):
        f_s, f_u = r.decision_function(XS, k), r.decision_function(XU, k)
        beta = r.coef_at(k)
        return su_risk(f_s, f_u, prior, correction="abs") + 0.5 * r.lam * beta @ beta

    start = su_risk(np.zeros(len(XS)), np.zeros(len(XU)), prior, correction="abs")
    assert r.batch_objective[0] == pytest.approx(start)
    assert objective(100) < 0.5 * start
    assert objective(50) < start
    assert r.batch_objective[50:].mean() < r.batch_objective[:10].mean()
    np.testing.assert_allclose(r.coef_at(1), r.checkpoints[1])
    with pytest.raises(ValueError, match="checkpoint"):
        r.decision_function(Xt, n_iter=7)


def test_cuu_all_centres_and_reproducible():
    XS, XU, _, _ = su_sample(6, 10, 0.7, d=2, seed=9)
    r = cuu(XS, XU, 0.7, lam=0.01, centers="all", n_iter=5, batch_s=4, batch_u=4,
            random_state=1)
    assert r.n_centers == 22
    np.testing.assert_array_equal(r.centers, np.vstack([XS, XU]))
    r2 = cuu(XS, XU, 0.7, lam=0.01, centers="all", n_iter=5, batch_s=4, batch_u=4,
             random_state=1)
    np.testing.assert_array_equal(r.beta, r2.beta)
    r3 = cuu(XS, XU, 0.7, lam=0.01, centers=22, n_iter=2, random_state=1)
    assert sorted(r3.center_index.tolist()) == list(range(22))
    rp = cuu(XS, XU, 0.7, lam=0.01, kernel="poly", degree=2, scale=0.5, centers=XU[:3],
             n_iter=3, eta0=0.01, schedule="const", correction="none")
    np.testing.assert_allclose(rp.decision_function(XS[:2]),
                               ((0.5 * XS[:2] @ XU[:3].T) ** 2) @ rp.beta)


# --------------------------------------------------------------------------- prior
@pytest.mark.parametrize("prior", [0.7, 0.8, 0.3])
def test_estimate_prior_recovers_truth(prior):
    XS, XU, _, _ = su_sample(1000, 2000, prior, d=2, seed=10)
    est = estimate_su_prior(XS, XU, positive_is_minority=prior < 0.5, random_state=0)
    assert abs(est.prior - prior) < 0.1
    assert est.pi_s == pytest.approx(prior ** 2 + (1 - prior) ** 2, abs=0.08)
    other = estimate_su_prior(XS, XU, positive_is_minority=prior >= 0.5, random_state=0)
    assert other.prior == pytest.approx(1 - est.prior)


def test_estimate_prior_mpe_variant_runs():
    XS, XU, _, _ = su_sample(300, 600, 0.8, d=2, seed=11)
    est = estimate_su_prior(XS, XU, method="value", n_max=200, n_grid=21, n_steps=150,
                            random_state=0)
    assert 0.5 <= est.prior <= 1.0 and est.distances.shape == (21,)
    assert est.distances[0] == pytest.approx(0.0, abs=1e-6)
    assert np.all(np.diff(est.distances) > -1e-6)        # d(lambda) is non-decreasing


# --------------------------------------------------------------------------- errors
def test_bad_prior():
    f = np.zeros(3)
    with pytest.raises(ValueError, match=r"prior.*0\.5.*undefined"):
        su_risk(f, f, 0.5)
    for bad in (0.0, 1.0, -0.2, 1.5, np.nan):
        with pytest.raises(ValueError, match="prior"):
            su_class_weights(bad)
    with pytest.raises(ValueError, match="prior"):
        susl_fit(np.ones((3, 2)), np.ones((3, 2)), 0.5, 1.0)


def test_bad_inputs():
    rng = np.random.default_rng(12)
    XS, XU = rng.normal(size=(6, 2)), rng.normal(size=(8, 2))
    with pytest.raises(ValueError, match="f_s"):
        su_risk(np.array([]), np.zeros(3), 0.7)
    with pytest.raises(ValueError, match="f_u"):
        su_zero_one_risk(np.zeros(3), np.array([]), 0.7)
    with pytest.raises(ValueError, match="f_s"):
        su_risk(np.array([np.nan]), np.zeros(3), 0.7)
    with pytest.raises(ValueError, match="loss"):
        su_risk(np.zeros(2), np.zeros(2), 0.7, loss="hinge")
    with pytest.raises(ValueError, match="correction"):
        su_risk(np.zeros(2), np.zeros(2), 0.7, correction="clip")
    with pytest.raises(ValueError, match="PsiU"):
        susl_fit(np.ones((3, 2)), np.ones((3, 4)), 0.7, 1.0)
    with pytest.raises(ValueError, match="lam"):
        susl_fit(np.ones((3, 2)), np.ones((3, 2)), 0.7, 0.0)
    with pytest.raises(ValueError, match="lam"):
        sudh_fit(np.ones((3, 2)), np.ones((3, 2)), 0.7, -1.0)
    with pytest.raises(ValueError, match="solver"):
        sudh_fit(np.ones((3, 2)), np.ones((3, 2)), 0.7, 1.0, solver="ECOS")
    with pytest.raises(ValueError, match="XU"):
        cuu(XS, rng.normal(size=(8, 3)), 0.7, lam=1.0)
    with pytest.raises(ValueError, match="XS"):
        cuu(np.empty((0, 2)), XU, 0.7, lam=1.0)
    with pytest.raises(ValueError, match="XU"):
        cuu(XS, np.empty((0, 2)), 0.7, lam=1.0)
    with pytest.raises(ValueError, match="XS"):
        cuu(np.vstack([XS, [[np.inf, 0]]]), XU, 0.7, lam=1.0)
    with pytest.raises(ValueError, match="lam"):
        cuu(XS, XU, 0.7, lam=0.0)
    with pytest.raises(ValueError, match="prior"):
        cuu(XS, XU, 0.5, lam=1.0)
    with pytest.raises(ValueError, match="centers"):
        cuu(XS, XU, 0.7, lam=1.0, centers=100)
    with pytest.raises(ValueError, match="centers"):
        cuu(XS, XU, 0.7, lam=1.0, centers="some")
    with pytest.raises(ValueError, match="centers"):
        cuu(XS, XU, 0.7, lam=1.0, centers=np.ones((4, 5)))
    with pytest.raises(ValueError, match="centers"):
        cuu(XS, XU, 0.7, lam=1.0, centers=0)
    with pytest.raises(ValueError, match="kernel"):
        cuu(XS, XU, 0.7, lam=1.0, kernel="linear")
    with pytest.raises(ValueError, match="checkpoints"):
        cuu(XS, XU, 0.7, lam=1.0, n_iter=3, checkpoints=[5])
    with pytest.raises(ValueError, match="centers"):
        su_basis(XS, "rbf")
    with pytest.raises(ValueError, match="centers"):
        su_basis(XS, "rbf", np.ones((3, 4)))
    with pytest.raises(ValueError, match="X"):
        su_basis(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="XS"):
        estimate_su_prior(XS[:5], XU)
    with pytest.raises(ValueError, match="XU"):
        estimate_su_prior(XS, rng.normal(size=(8, 3)))


def test_su_kernel_block_buffer_matches_plain_product():
    """The tiled, buffered Gaussian block (used inside CUU's iterations) equals the plain
    one; the buffer is filled in place and returned."""
    from weaklabel.solvers.su import su_kernel_block
    rng = np.random.default_rng(3)
    X, C = rng.normal(size=(150, 5)), rng.normal(size=(40, 5)) * 2.0
    buf = np.empty((150, 40))
    K = su_kernel_block(X, C, "rbf", gamma=0.3, out=buf)
    assert K is buf
    d2 = ((X[:, None, :] - C[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(K, np.exp(-0.3 * d2), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(su_kernel_block(X, C, "poly", degree=2, scale=0.5,
                                               out=np.empty((150, 40))),
                               (0.5 * X @ C.T) ** 2)


def test_cuu_decision_path_equals_checkpoint_evaluations():
    XS, XU, _, _ = su_sample(30, 60, 0.7, d=3, seed=4)
    Xt = XU[:25] + 0.1
    r = cuu(XS, XU, 0.7, lam=0.01, centers=20, n_iter=6, batch_s=10, batch_u=10,
            checkpoints=[2, 4], random_state=0)
    P = r.decision_path(Xt, [2, 4, 6])
    for row, t in zip(P, [2, 4, 6]):
        np.testing.assert_allclose(row, r.decision_function(Xt, n_iter=t), atol=1e-13)
