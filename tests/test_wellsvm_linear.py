"""The linear-path WellSVM (solvers.linear) against the kernel path (solvers.wellsvm) with a
linear kernel on small dense problems: same working sets, same objective path."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from weaklabel.solvers.linear import wellsvm_linear_clustering, wellsvm_linear_ssl
from weaklabel.solvers.wellsvm import wellsvm, wellsvm_clustering

TIGHT = dict(eps=1e-3, thr=1e-3, mkl_tol=1e-7, mkl_max_iter=2000)


def _problem(n=60, seed=1):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(-1, 1.5, (n // 2, 4)), rng.normal(1, 1.5, (n // 2, 4))])
    X[:, 1] += 1.0
    yt = np.r_[-np.ones(n // 2), np.ones(n // 2)]
    y = np.zeros(n)
    idx = np.r_[0:3, n // 2:n // 2 + 3]
    y[idx] = yt[idx]
    return X, y, yt


def test_ssl_linear_path_equals_kernel_path():
    X, y, _ = _problem()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = wellsvm(X, y, 1.0, 0.5, "linear", inner_eps=1e-9, **TIGHT)
        b = wellsvm_linear_ssl(sp.csr_matrix(X), y, 1.0, 0.5, inner_tol=1e-9,
                               inner_max_iter=100000, **TIGHT)
    assert a.n_outer >= 3  # labels were generated
    np.testing.assert_array_equal(a.info["init_labels"], b.info["init_labels"])
    np.testing.assert_array_equal(a.labels, b.labels)
    np.testing.assert_allclose(b.objective_path, a.objective_path, rtol=1e-6)
    # the primal weights give the kernel path's decision values
    np.testing.assert_allclose(X @ b.info["w"], X @ (X.T @ a.coef), rtol=1e-4, atol=1e-6)


def test_clustering_linear_path_equals_kernel_path():
    X, _, yt = _problem(40, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = wellsvm_clustering(X, 0.1, "linear", random_state=0, inner_eps=1e-9, **TIGHT)
        b = wellsvm_linear_clustering(X, 0.1, random_state=0, inner_tol=1e-9,
                                      inner_max_iter=100000, **TIGHT)
    np.testing.assert_array_equal(a.init_labels, b.init_labels)
    np.testing.assert_array_equal(a.result.labels, b.result.labels)
    np.testing.assert_allclose(b.result.objective_path, a.result.objective_path, rtol=1e-6)
    np.testing.assert_array_equal(a.assignment, b.assignment)
    assert b.selection_score == pytest.approx(a.selection_score, rel=1e-6)
    assert b.radius_margin == pytest.approx(a.radius_margin, rel=1e-4)


def test_linear_init_and_sparse_text():
    from weaklabel.data.generators import sparse_text

    X, yt = sparse_text(1500, d=1000, nnz_per_row=40, positive_prior=0.5, separation=3.0,
                        random_state=0)
    rng = np.random.default_rng(0)
    lab = rng.choice(1500, 40, replace=False)
    y = np.zeros(1500)
    y[lab] = yt[lab]
    res = wellsvm_linear_ssl(X, y, 1.0, 0.01, init="linear", max_outer=10)
    unl = y == 0
    acc = np.mean(np.where(X[unl] @ res.info["w"] >= 0, 1, -1) == yt[unl])
    assert acc > 0.75
    path = np.array(res.objective_path)
    assert np.all(np.diff(path) <= 1e-3 * abs(path[0]))  # Theorem 2, up to the MKL tolerance


@pytest.mark.parametrize("kw, match", [({"C1": 0.0}, "C1"), ({"C2": -1.0}, "C2"),
                                       ({"init": "x"}, "init")])
def test_ssl_bad_input(kw, match):
    X, y, _ = _problem()
    with pytest.raises(ValueError, match=match):
        wellsvm_linear_ssl(X, y, **kw)


def test_ssl_needs_both_classes_and_clustering_beta():
    X, y, _ = _problem()
    with pytest.raises(ValueError, match="both classes"):
        wellsvm_linear_ssl(X, np.where(y > 0, 1.0, 0.0))
    with pytest.raises(ValueError, match="beta"):
        wellsvm_linear_clustering(X, 1.0, beta=1000)
