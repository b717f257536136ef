"""SVMlin baseline (Sindhwani & Keerthi 2006): L2-SVM-MFN and deterministic annealing."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from weaklabel.data.generators import sparse_text
from weaklabel.solvers.svmlin import l2svm_mfn, svmlin_da, svmlin_decision


@pytest.fixture(scope="module")
def text():
    return sparse_text(1500, d=2000, nnz_per_row=40, positive_prior=0.5, random_state=3)


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_mfn_equals_linearsvc(text, C):
    X, y = text
    r = l2svm_mfn(X, y, C, tol=1e-9)
    m = LinearSVC(C=C, loss="squared_hinge", fit_intercept=False, tol=1e-10,
                  max_iter=200000).fit(X, y)
    w = m.coef_[0]
    ref = 0.5 * w @ w + C * np.sum(np.maximum(0, 1 - y * (X @ w)) ** 2)
    assert r.converged
    assert abs(r.objective - ref) <= 1e-6 * ref


def test_mfn_weighted_costs_and_zero_cost_rows(text):
    X, y = text
    c = np.where(np.arange(X.shape[0]) % 3 == 0, 0.0, 2.0)
    r = l2svm_mfn(X, y, c, tol=1e-9)
    keep = c > 0
    r2 = l2svm_mfn(X[keep], y[keep], 2.0, tol=1e-9)
    assert r.objective == pytest.approx(r2.objective, rel=1e-8)
    np.testing.assert_allclose(r.w, r2.w, atol=1e-6)


def test_da_objective_decreases_and_learns(text):
    X, y = text
    Xl, yl, Xu, yu = X[:30], y[:30], X[30:], y[30:]
    res = svmlin_da(Xl, yl, Xu, 1.0, 0.1)
    assert res.finished and res.converged
    assert len(res.temperatures) > 3
    assert all(np.diff(res.temperatures) < 0)
    for path in res.objective_path:  # J_T is non-increasing at every temperature
        assert np.all(np.diff(path) <= 1e-9 * max(1.0, abs(path[0])))
    assert abs(res.p.mean() - np.mean(yl > 0)) < 1e-6  # the balance constraint
    acc = np.mean(np.where(svmlin_decision(res, Xu) >= 0, 1, -1) == yu)
    sup = np.mean(np.where(Xu @ l2svm_mfn(Xl, yl, 1.0).w >= 0, 1, -1) == yu)
    assert acc > 0.8
    assert acc >= sup - 0.02


def test_da_two_cluster_toy():
    rng = np.random.default_rng(0)
    n, d = 200, 50
    X = sp.random(n, d, density=0.1, random_state=1, format="csr")
    y = np.r_[np.ones(n // 2), -np.ones(n // 2)]
    X = sp.hstack([X, sp.csr_matrix(np.c_[(y > 0) * 1.0, (y < 0) * 1.0])], format="csr")
    lab = np.r_[0, 1, n - 2, n - 1]
    unl = np.setdiff1d(np.arange(n), lab)
    res = svmlin_da(X[lab], y[lab], X[unl], 1.0, 1.0)
    assert np.mean(res.labels == y[unl]) == 1.0
    del rng


def test_da_time_limit_marks_unfinished(text):
    X, y = text
    res = svmlin_da(X[:30], y[:30], X[30:], 1.0, 0.1, time_limit=1e-6)
    assert not res.finished and not res.converged


@pytest.mark.parametrize("kw, match", [({"C1": 0.0}, "C1"), ({"r": 1.5}, "r"),
                                       ({"R": 1.0}, "R"), ({"T0": -1.0}, "T0")])
def test_da_bad_input(text, kw, match):
    X, y = text
    with pytest.raises(ValueError, match=match):
        svmlin_da(X[:30], y[:30], X[30:60], **kw)


def test_mfn_bad_input(text):
    X, y = text
    with pytest.raises(ValueError, match="y"):
        l2svm_mfn(X, np.zeros(X.shape[0]))
    with pytest.raises(ValueError, match="C"):
        l2svm_mfn(X, y, -1.0)
    with pytest.raises(ValueError, match="X_l and X_u"):
        svmlin_da(X[:30], y[:30], X[30:, :10])
