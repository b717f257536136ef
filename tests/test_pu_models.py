"""DoubleHingePU: USMO, the reference QP and Init* behind one scikit-learn estimator."""

import numpy as np
import pytest
from sklearn.base import clone

from weaklabel.models import DoubleHingePU, RampPU


def _toy(rng, p=15, n_pos=30, n_neg=45, d=3):
    Xp = rng.normal(1.0, 1.0, (p, d))
    Xu = np.vstack([rng.normal(1.0, 1.0, (n_pos, d)), rng.normal(-1.0, 1.0, (n_neg, d))])
    return np.vstack([Xp, Xu]), np.r_[np.ones(p), np.zeros(n_pos + n_neg)], Xu


@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("lam", [1e-3, 1e-1])
def test_usmo_and_qp_give_the_same_classifier(rng, kernel, lam):
    X, s, Xu = _toy(rng)
    u = DoubleHingePU(kernel=kernel, lam=lam, pi=0.4, tau=1e-7).fit(X, s)
    q = DoubleHingePU(kernel=kernel, lam=lam, pi=0.4, solver="qp").fit(X, s)
    fu, fq = u.decision_function(Xu), q.decision_function(Xu)
    assert np.max(np.abs(fu - fq)) < 1e-3 * max(1.0, np.abs(fq).max())
    safe = np.abs(fq) > 1e-6
    np.testing.assert_array_equal(u.predict(Xu)[safe], q.predict(Xu)[safe])
    assert set(np.unique(u.predict(Xu))) <= {-1, 1}
    assert u.result_.converged and u.fit_seconds_ > 0


def test_init_star_is_the_starting_point(rng):
    X, s, Xu = _toy(rng)
    i = DoubleHingePU(kernel="gaussian", lam=1e-2, pi=0.4, solver="init").fit(X, s)
    u = DoubleHingePU(kernel="gaussian", lam=1e-2, pi=0.4).fit(X, s)
    np.testing.assert_allclose(i.sigma_, u.result_.init_sigma)
    assert i.intercept_ == pytest.approx(u.result_.init_beta)
    assert np.sum(i.sigma_) == pytest.approx(i.c1_ * 15)


def test_sklearn_api(rng):
    X, s, Xu = _toy(rng)
    m = DoubleHingePU(kernel="linear", lam=0.05, pi=0.4)
    c = clone(m)
    assert c.get_params()["lam"] == 0.05
    assert m.fit(X, s) is m
    assert m.n_features_in_ == 3 and hasattr(m, "intercept_")
    y = np.r_[np.ones(15), np.ones(30), -np.ones(45)]
    assert 0.5 < m.score(X, y) <= 1.0


@pytest.mark.parametrize("kwargs,match", [
    ({"pi": 0.0}, "pi must lie strictly between 0 and 1"),
    ({"pi": 1.0}, "pi must lie strictly between 0 and 1"),
    ({"lam": 0.0}, "lam must be finite and > 0"),
    ({"lam": -1.0}, "lam must be finite and > 0"),
    ({"solver": "cvx"}, "solver must be one of"),
    ({"kernel": "laplace"}, "kernel must be one of"),
    ({"kernel": "gaussian", "sigma": 0.0}, "sigma must be finite and > 0"),
])
def test_bad_parameters(rng, kwargs, match):
    X, s, _ = _toy(rng)
    with pytest.raises(ValueError, match=match):
        DoubleHingePU(**kwargs).fit(X, s)


@pytest.mark.parametrize("Est", [DoubleHingePU, RampPU])
@pytest.mark.parametrize("kwargs,match", [
    ({"pi": 1.2}, "pi must lie strictly between 0 and 1"),
    ({"lam": 0.0}, "lam must be finite and > 0"),
])
def test_bad_parameters_both_estimators(rng, Est, kwargs, match):
    X, s, _ = _toy(rng)
    with pytest.raises(ValueError, match=match):
        Est(**kwargs).fit(X, s)


@pytest.mark.parametrize("Est", [DoubleHingePU, RampPU])
def test_bad_data(rng, Est):
    X, s, _ = _toy(rng)
    with pytest.raises(ValueError, match="no labelled positives"):
        Est().fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="no unlabelled samples"):
        Est().fit(X, np.ones(len(X)))
    Xb = X.copy()
    Xb[3, 1] = np.inf
    with pytest.raises(ValueError, match="X contains 1 NaN or infinite"):
        Est().fit(Xb, s)
    with pytest.raises(ValueError, match="s has length"):
        Est().fit(X, s[:-1])
    m = Est().fit(X, s)
    with pytest.raises(ValueError, match=f"X has 2 features, but {Est.__name__} is expecting 3"):
        m.decision_function(X[:, :2])
