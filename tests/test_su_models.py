"""The SU estimators of ``weaklabel.models.su`` with a valid SU target (the generic
scikit-learn checks that assume class labels are declared expected failures in
``test_sklearn_conformance.py``; these tests rerun what they cover)."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from weaklabel.data.generators import twonorm
from weaklabel.data.su import make_su_data
from weaklabel.models.su import CUU, SUDH, SUSL, TSGSU, check_su_indicator

FAST = [
    TSGSU(prior=0.3, n_features=50, batch_size=60, max_iter=30, eta0=4.0, random_state=0),
    CUU(prior=0.3, n_centers=60, batch_size=60, max_iter=30, eta0=1.0, random_state=0),
    SUSL(prior=0.3, lam=0.01),
    SUSL(prior=0.3, lam=0.01, kernel="linear"),
    SUDH(prior=0.3, lam=0.01, kernel="linear"),
]


def _su(seed=0, n_pairs=60, n_u=120):
    X, y = twonorm(2000, d=3, positive_prior=0.3, random_state=seed)
    d = make_su_data(X, y, n_pairs=n_pairs, n_unlabelled=n_u, n_test=300, random_state=seed)
    Xf, s = d.to_xy()
    return Xf, s, d


def _fit(est, X, s):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return clone(est).fit(X, s)


@pytest.mark.parametrize("est", FAST, ids=lambda e: f"{type(e).__name__}-{e.kernel}")
def test_fit_predict_score_on_su_data(est):
    X, s, d = _su()
    m = _fit(est, X.tolist(), s.tolist())
    pred, f = m.predict(d.X_test), m.decision_function(d.X_test)
    np.testing.assert_array_equal(pred, np.where(f >= 0, 1, -1))
    assert set(np.unique(pred)) <= {-1, 1}
    acc = m.score(d.X_test, d.y_test)
    assert acc == m.score(d.X_test, (d.y_test > 0).astype(int)) == np.mean(pred == d.y_test)
    assert acc > 0.8  # twonorm at d = 3 is easy
    with pytest.raises(ValueError, match="features"):
        m.predict(d.X_test[:, :2])
    with pytest.raises(NotFittedError):
        clone(est).predict(d.X_test)


@pytest.mark.parametrize("est", FAST, ids=lambda e: f"{type(e).__name__}-{e.kernel}")
def test_dtypes_and_prior(est):
    X, s, d = _su()
    for Xd in (X.astype(np.float32), (10 * X).astype(np.int64)):
        _fit(est, Xd, s).predict(Xd)
    assert type(est)().prior is None
    with pytest.raises(ValueError, match="prior is required"):
        _fit(clone(est).set_params(prior=None), X, s)
    with pytest.raises(ValueError, match="0.5 is not allowed"):
        _fit(clone(est).set_params(prior=0.5), X, s)
    with pytest.raises(ValueError, match="between 0 and 1"):
        _fit(clone(est).set_params(prior=1.2), X, s)


def test_su_indicator_errors():
    with pytest.raises(ValueError, match="0/1 indicator"):
        check_su_indicator([0, 1, 2])
    with pytest.raises(ValueError, match="at least one similar pair"):
        check_su_indicator([0, 0, 1])
    with pytest.raises(ValueError, match="no unlabelled samples"):
        check_su_indicator([1, 1, 1])
    with pytest.raises(ValueError, match="requires y to be passed|s"):
        check_su_indicator(None)


def test_sparse_input_and_sigma():
    X, s, d = _su()
    m = _fit(FAST[0], sp.csr_matrix(X), s)
    np.testing.assert_allclose(m.decision_function(sp.csr_matrix(d.X_test)),
                               m.decision_function(d.X_test), atol=1e-10)
    assert m.sigma_ == pytest.approx(np.sqrt(X.shape[1] * X.var() / 2))
    p = _fit(TSGSU(prior=0.3, kernel="poly", degree=2, coef0=1.0, n_features=32,
                   batch_size=60, max_iter=5, random_state=0), X, s)
    assert p.sigma_ is None and np.all(np.isfinite(p.decision_function(d.X_test)))


def test_verbose_and_linear_refused(capsys):
    X, s, _ = _su()
    _fit(clone(FAST[1]).set_params(verbose=True), X, s)
    assert "CUU" in capsys.readouterr().out
    with pytest.raises(ValueError, match="kernel='linear'"):
        _fit(clone(FAST[0]).set_params(kernel="linear"), X, s)


def test_sudh_at_the_smallest_lambda_is_certified_or_warns(monkeypatch):
    """SUDH at lam = 1e-7 (the smallest value of the grid of Bao et al.'s code) on the SU
    problem of tests/test_su.py's first hard case: certified by its duality gap and no
    warning. Must fire: with the QP solved in theta itself (s = 1, as before the rescaling)
    the gap is 2e-2 and fit warns naming lam, at the caller's line."""
    import weaklabel.solvers.su as S
    from weaklabel.reference.su import sudh_certificate

    rng = np.random.default_rng(1)  # su_sample(25, 50, 0.3, d=3, seed=1) of tests/test_su.py
    y_pair = np.where(rng.random(25) < 0.09 / 0.58, 1.0, -1.0)
    XS = rng.standard_normal((50, 3)) + 2.0 * np.repeat(y_pair, 2)[:, None]
    y_u = np.where(rng.random(50) < 0.3, 1.0, -1.0)
    XU = rng.standard_normal((50, 3)) + 2.0 * y_u[:, None]
    X, s = np.vstack([XS, XU]), np.r_[np.ones(50), np.zeros(50)]
    est = SUDH(prior=0.3, lam=1e-7, kernel="linear")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est.fit(X, s)
    assert est.duality_gap_ <= 1e-6
    ones = np.ones((len(X), 1))
    cert = sudh_certificate(est.coef_, np.hstack([XS, ones[:50]]), np.hstack([XU, ones[50:]]),
                            0.3, 1e-7)
    assert cert.rel_gap <= 1e-6

    qp = S._sudh_qp
    monkeypatch.setattr(S, "_sudh_qp", lambda U, q, lam, sc, *a: qp(U, q, lam, 1.0, *a))
    with pytest.warns(ConvergenceWarning, match=r"SUDH: at lam=1e-07 .*duality gap") as rec:
        est.fit(X, s)
    assert est.duality_gap_ > 1e-6
    assert [w.filename for w in rec if w.category is ConvergenceWarning] == [__file__]


def test_sudh_verbose_prints_its_solve(capsys):
    X, s, _ = _su(n_pairs=20, n_u=40)
    _fit(SUDH(prior=0.3, lam=0.01, kernel="linear", verbose=True), X, s)
    assert re.search(r"SUDH: [12] QP solve\(s\) by CLARABEL", capsys.readouterr().out)
    _fit(SUDH(prior=0.3, lam=0.01, kernel="linear"), X, s)
    assert "SUDH" not in capsys.readouterr().out
