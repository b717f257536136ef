"""weaklabel.models.usmo: DoubleHingePU (USMO, the reference QP and Init* behind one
scikit-learn estimator) and RampPU."""

import numpy as np
import pytest
from sklearn.base import clone

import weaklabel.models
from weaklabel.kernels import gram
from weaklabel.models.usmo import DoubleHingePU, RampPU


def _toy(rng, p=15, n_pos=30, n_neg=45, d=3):
    Xp = rng.normal(1.0, 1.0, (p, d))
    Xu = np.vstack([rng.normal(1.0, 1.0, (n_pos, d)), rng.normal(-1.0, 1.0, (n_neg, d))])
    return np.vstack([Xp, Xu]), np.r_[np.ones(p), np.zeros(n_pos + n_neg)], Xu


@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("lam", [1e-3, 1e-1])
def test_usmo_and_qp_give_the_same_classifier(rng, kernel, lam):
    X, s, Xu = _toy(rng)
    u = DoubleHingePU(kernel=kernel, lam=lam, prior=0.4, tol=1e-7).fit(X, s)
    q = DoubleHingePU(kernel=kernel, lam=lam, prior=0.4, solver="qp").fit(X, s)
    fu, fq = u.decision_function(Xu), q.decision_function(Xu)
    assert np.max(np.abs(fu - fq)) < 1e-3 * max(1.0, np.abs(fq).max())
    safe = np.abs(fq) > 1e-6
    np.testing.assert_array_equal(u.predict(Xu)[safe], q.predict(Xu)[safe])
    assert set(np.unique(u.predict(Xu))) <= {-1, 1}
    assert u.result_.converged
    # the fit's time is the solver's: its initialisation and its passes
    r = u.result_
    assert r.init_seconds + r.solve_seconds <= u.fit_seconds_ < r.init_seconds + r.solve_seconds + 1


def test_init_star_is_the_starting_point(rng):
    X, s, Xu = _toy(rng)
    i = DoubleHingePU(kernel="gaussian", sigma=1.0, lam=1e-2, prior=0.4, solver="init").fit(X, s)
    u = DoubleHingePU(kernel="gaussian", sigma=1.0, lam=1e-2, prior=0.4).fit(X, s)
    np.testing.assert_allclose(i.dual_, u.result_.init_dual)
    assert i.intercept_ == pytest.approx(u.result_.init_beta)
    assert np.sum(i.dual_) == pytest.approx(i.c1_ * 15)


@pytest.mark.parametrize("solver", ["usmo", "qp", "init"])
def test_dual_coef_is_the_kernel_expansion(rng, solver):
    """``dual_coef_`` weighs ``k(x, x_i)`` over the training points, positives first, as
    RampPU's does: ``c1_`` for each positive, ``-dual_`` for the unlabelled samples."""
    X, s, Xu = _toy(rng)
    m = DoubleHingePU(kernel="gaussian", sigma=1.0, lam=1e-2, prior=0.4, solver=solver).fit(X, s)
    assert m.dual_.shape == (75,) and m.dual_.min() >= -1e-7
    np.testing.assert_array_equal(m.dual_coef_, np.r_[np.full(15, m.c1_), -m.dual_])
    Z = rng.normal(size=(7, 3))
    f = gram(Z, np.vstack([m.Xp_, m.Xu_]), kernel=m.kernel_) @ m.dual_coef_ + m.intercept_
    np.testing.assert_allclose(m.decision_function(Z), f, atol=1e-9)
    r = RampPU(kernel="gaussian", sigma=1.0, lam=1e-2, prior=0.4).fit(X, s)
    assert r.dual_coef_.shape == m.dual_coef_.shape


def test_the_package_exports_the_estimators():
    assert weaklabel.models.DoubleHingePU is DoubleHingePU
    assert weaklabel.models.RampPU is RampPU


def test_sklearn_api(rng):
    X, s, Xu = _toy(rng)
    m = DoubleHingePU(kernel="linear", lam=0.05, prior=0.4)
    c = clone(m)
    assert c.get_params()["lam"] == 0.05
    assert m.fit(X, s) is m
    assert m.n_features_in_ == 3 and hasattr(m, "intercept_")
    y = np.r_[np.ones(15), np.ones(30), -np.ones(45)]
    assert 0.5 < m.score(X, y) <= 1.0


@pytest.mark.parametrize("kwargs,match", [
    ({"prior": 0.0}, "prior must lie strictly between 0 and 1"),
    ({"prior": 1.0}, "prior must lie strictly between 0 and 1"),
    ({"prior": None}, "prior is required"),
    ({"lam": 0.0}, "lam must be finite and > 0"),
    ({"lam": -1.0}, "lam must be finite and > 0"),
    ({"solver": "cvx"}, "solver must be one of"),
    ({"kernel": "laplace"}, "kernel must be one of"),
    ({"kernel": "gaussian", "sigma": 0.0}, "sigma must be finite and > 0"),
])
def test_bad_parameters(rng, kwargs, match):
    X, s, _ = _toy(rng)
    with pytest.raises(ValueError, match=match):
        DoubleHingePU(**{"prior": 0.4, **kwargs}).fit(X, s)


@pytest.mark.parametrize("Est", [DoubleHingePU, RampPU])
@pytest.mark.parametrize("kwargs,match", [
    ({"prior": 1.2}, "prior must lie strictly between 0 and 1"),
    ({"prior": None}, "prior is required"),
    ({"lam": 0.0}, "lam must be finite and > 0"),
])
def test_bad_parameters_both_estimators(rng, Est, kwargs, match):
    X, s, _ = _toy(rng)
    with pytest.raises(ValueError, match=match):
        Est(**{"prior": 0.4, **kwargs}).fit(X, s)


@pytest.mark.parametrize("Est", [DoubleHingePU, RampPU])
def test_bad_data(rng, Est):
    X, s, _ = _toy(rng)
    with pytest.raises(ValueError, match="no labelled positives"):
        Est(prior=0.4).fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="no unlabelled samples"):
        Est(prior=0.4).fit(X, np.ones(len(X)))
    Xb = X.copy()
    Xb[3, 1] = np.inf
    with pytest.raises(ValueError, match="X contains 1 NaN or infinite"):
        Est(prior=0.4).fit(Xb, s)
    with pytest.raises(ValueError, match="s has length"):
        Est(prior=0.4).fit(X, s[:-1])
    m = Est(prior=0.4).fit(X, s)
    with pytest.raises(ValueError, match=f"X has 2 features, but {Est.__name__} is expecting 3"):
        m.decision_function(X[:, :2])


# --------------------------------------------------------------------------- no silent traps
def _standardised_10d(n=300, seed=0):
    """The issue's trap: standardised 10-d data, where sigma = 1 makes the Gaussian Gram
    matrix nearly the identity."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.4, 1, -1)
    X = rng.normal(size=(n, 10))
    X[:, :3] += np.where(y > 0, 1.0, -1.0)[:, None]
    X = (X - X.mean(0)) / X.std(0)
    s = ((y > 0) & (rng.random(n) < 0.3)).astype(int)
    return X, y, s


def test_sigma_scale_is_the_default_and_the_papers_sigma_warns_one_class():
    from weaklabel.models import OneClassPredictionWarning

    X, y, s = _standardised_10d()
    m = DoubleHingePU(kernel="gaussian", prior=0.4).fit(X, s)
    assert m.sigma == "scale"
    assert m.sigma_ == pytest.approx(np.sqrt(X.shape[1] * X.var() / 2))
    assert m.score(X, y) > 0.9
    with pytest.warns(OneClassPredictionWarning, match=r"DoubleHingePU predicts -1 for every "
                      r"one of the \d+ unlabelled training points; .*sigma.*lam") as rec:
        DoubleHingePU(kernel="gaussian", sigma=1.0, prior=0.4).fit(X, s)
    assert rec[0].filename == __file__  # points at the line that called fit
    assert issubclass(OneClassPredictionWarning, UserWarning)
    lin = DoubleHingePU(kernel="linear", prior=0.4).fit(X, s)
    assert lin.sigma_ is None


def test_convergence_warnings_name_the_real_parameters_at_the_callers_line(rng):
    from sklearn.exceptions import ConvergenceWarning

    X, y, s = _standardised_10d()
    with pytest.warns(ConvergenceWarning, match=r"DoubleHingePU\(solver='usmo'\) did not "
                      r"converge: stopped at max_iter=1 passes, with remaining KKT violation "
                      r"[0-9.e+-]+ > tol=0.002; increase max_iter or loosen tol") as rec:
        m = DoubleHingePU(kernel="gaussian", prior=0.4, max_iter=1).fit(X, s)
    assert [w.filename for w in rec] == [__file__]
    assert m.n_iter_ == 1 and not m.converged_
    assert "tau" not in str(rec[0].message) and "max_passes" not in str(rec[0].message)
    with pytest.warns(ConvergenceWarning, match=r"RampPU\(solver='smo'\) did not converge: "
                      r"CCCP stopped at max_iter=1 steps with \d+ points") as rec:
        RampPU(kernel="linear", lam=1e-4, prior=0.4, max_iter=1).fit(X, s)
    assert rec[0].filename == __file__
    assert "tol" not in str(rec[0].message)
