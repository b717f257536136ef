"""The linear path (dual coordinate descent on CSR) against LIBLINEAR, cvxpy and the kernel
solvers of WellSVM (Hsieh et al. 2008; Li et al. 2013, Section 4.1.2 and footnote 3)."""

import tracemalloc
import warnings
from functools import partial

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import needs_mirror
from sklearn.svm import LinearSVC

from weaklabel._validation import ConvergenceWarning
from weaklabel.kernels import KernelRowCache
from weaklabel.reference.linear import linear_svm_dual_value, linear_svm_primal_qp
from weaklabel.solvers.linear import (
    linear_label_kernel_dual,
    linear_label_quadratic,
    linear_mlkl,
    linear_oracle_scores,
    linear_svm_dual_cd,
    linear_violated_label,
)
from weaklabel.solvers.smo import label_kernel_dual, label_kernel_quadratic
from weaklabel.solvers.wellsvm import (
    band_oracle,
    mlkl,
    sort_oracle_ssl,
    ssl_n_pos,
    violated_label,
)


def rel(a, b):
    return abs(a - b) / max(1.0, abs(b))


def sparse_problem(n=160, d=25, density=0.25, seed=0, noise=0.3):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, random_state=seed, format="csr",
                  data_rvs=lambda k: rng.normal(size=k))
    # no empty rows
    empty = np.flatnonzero(np.diff(X.indptr) == 0)
    if empty.size:
        X = X.tolil()
        for i in empty:
            X[i, i % d] = 1.0
        X = X.tocsr()
    w = rng.normal(size=d)
    y = np.where(X @ w + noise * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


def primal(X, y, C, w, b, loss):
    h = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return 0.5 * (w @ w + b * b) + float(np.sum(C * (h if loss == "l1" else h * h)))


@pytest.mark.parametrize("loss", ["l1", "l2"])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("C", [0.1, 2.0])
def test_matches_liblinear_and_cvxpy(loss, bias, C):
    X, y = sparse_problem(seed=1)
    r = linear_svm_dual_cd(X, y, C, loss=loss, bias=bias, tol=1e-9, max_iter=200_000,
                           random_state=0)
    assert r.converged
    # primal objective recomputed from w, and the duality gap
    assert rel(r.objective, primal(X, y, C, r.w, r.intercept, loss)) < 1e-12
    assert 0 <= r.gap <= 1e-6 * abs(r.objective)
    assert rel(r.dual_objective, linear_svm_dual_value(X, y, r.alpha, C, loss=loss,
                                                       bias=bias)) < 1e-10
    skl = LinearSVC(C=C, loss="hinge" if loss == "l1" else "squared_hinge", dual=True,
                    fit_intercept=bias, intercept_scaling=1.0, tol=1e-10,
                    max_iter=2_000_000).fit(X, y)
    b_skl = float(skl.intercept_[0]) if bias else 0.0
    p_skl = primal(X, y, C, skl.coef_.ravel(), b_skl, loss)
    assert rel(r.objective, p_skl) < 1e-6
    qp = linear_svm_primal_qp(X, y, C, loss=loss, bias=bias)
    assert rel(r.objective, qp["objective"]) < 1e-6
    assert np.allclose(r.w, qp["w"], atol=1e-3)


def test_per_sample_costs_match_cvxpy():
    X, y = sparse_problem(n=120, seed=2)
    C = np.where(np.arange(120) < 30, 1.0, 0.05)  # C1 on "labelled", C2 on "unlabelled"
    for loss in ("l1", "l2"):
        r = linear_svm_dual_cd(X, y, C, loss=loss, tol=1e-9, max_iter=200_000)
        qp = linear_svm_primal_qp(X, y, C, loss=loss)
        assert rel(r.objective, qp["objective"]) < 1e-6
        if loss == "l1":
            assert np.all(r.alpha <= C + 1e-15)


def test_dense_csr_unsorted_explicit_zeros_give_same_result():
    X, y = sparse_problem(n=100, d=15, seed=3)
    ref = linear_svm_dual_cd(X, y, 1.0, tol=1e-6, random_state=5)
    # unsorted indices, explicit zeros, and an entry split into a duplicate pair of halves
    # (summed back exactly)
    rows = []
    for i in range(X.shape[0]):
        s, e = X.indptr[i], X.indptr[i + 1]
        idx, val = list(X.indices[s:e][::-1]), list(X.data[s:e][::-1])
        val[0] *= 0.5
        idx += [int((i * 7) % 15), idx[0]]
        val += [0.0, val[0]]
        rows.append((idx, val))
    indptr = np.cumsum([0] + [len(r[0]) for r in rows])
    Xu = sp.csr_matrix((np.concatenate([r[1] for r in rows]),
                        np.concatenate([r[0] for r in rows]).astype(np.int32), indptr),
                       shape=X.shape)
    assert not Xu.has_sorted_indices
    data_before = Xu.data.copy()
    for Xv in (X.toarray(), Xu, X.tocsc(), X.tocoo()):
        r = linear_svm_dual_cd(Xv, y, 1.0, tol=1e-6, random_state=5)
        np.testing.assert_array_equal(r.alpha, ref.alpha)
        np.testing.assert_array_equal(r.w, ref.w)
    np.testing.assert_array_equal(Xu.data, data_before)  # the input is not modified


def test_shrinking_warm_start_and_warning():
    X, y = sparse_problem(n=200, seed=4)
    a = linear_svm_dual_cd(X, y, 1.0, tol=1e-8, max_iter=100_000, shrinking=True,
                           random_state=0)
    b = linear_svm_dual_cd(X, y, 1.0, tol=1e-8, max_iter=100_000, shrinking=False,
                           random_state=0)
    assert rel(a.objective, b.objective) < 1e-8
    warm = linear_svm_dual_cd(X, y, 1.0, tol=1e-8, alpha0=a.alpha, random_state=0)
    assert warm.n_iter <= 10 and rel(warm.objective, a.objective) < 1e-8
    warm_w = linear_svm_dual_cd(X, y, 1.0, tol=1e-8, alpha0=a.alpha, w0=a.w,
                                random_state=0)
    np.testing.assert_allclose(warm_w.alpha, warm.alpha, atol=1e-12)
    with pytest.warns(ConvergenceWarning, match="linear_svm_dual_cd"):
        r = linear_svm_dual_cd(X, y, 10.0, tol=1e-12, max_iter=2)
    assert not r.converged and r.n_iter == 2


def label_problem(n=90, d=6, T=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y0 = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    Y = np.tile(y0, (T, 1))
    for t in range(1, T):
        flip = rng.random(n) < 0.2
        Y[t, flip] *= -1
    return X, Y, rng


@pytest.mark.parametrize("with_diag", [False, True])
def test_label_kernel_dual_matches_kernel_solver(with_diag):
    X, Y, rng = label_problem(seed=6)
    n = X.shape[0]
    mu = np.array([0.5, 0.3, 0.2])
    C = np.where(np.arange(n) < 20, 1.0, 0.3)
    diag = rng.uniform(0.1, 1.0, size=n) if with_diag else None
    lin = linear_label_kernel_dual(sp.csr_matrix(X), Y, mu, C, diag=diag, tol=1e-9,
                                   max_iter=100_000)
    ker = label_kernel_dual(X, Y, mu, C, "linear", diag=diag, eps=1e-10)
    assert lin.converged
    assert rel(lin.objective, ker.objective) < 1e-6
    # V holds v_t = sum_i a_i y_ti x_i
    np.testing.assert_allclose(lin.w, (lin.alpha * Y) @ X, atol=1e-10)


def test_linear_mlkl_matches_mlkl():
    X, Y, _ = label_problem(n=80, seed=7)
    C = np.where(np.arange(80) < 20, 1.0, 0.1)
    cache = KernelRowCache(X, kernel="linear")
    ker = mlkl(cache, Y, C, X=X, tol=1e-7, max_iter=300, inner_eps=1e-10)
    lin = linear_mlkl(sp.csr_matrix(X), Y, C, tol=1e-7, max_iter=300, inner_tol=1e-10,
                      inner_max_iter=100_000)
    assert rel(lin.objective, ker.objective) < 1e-6
    assert rel(lin.lower, ker.lower) < 1e-5
    np.testing.assert_allclose(lin.mu, ker.mu, atol=1e-6)
    single = linear_mlkl(X, Y[:1], C, inner_tol=1e-8)
    assert single.stop_reason == "single" and single.n_iter == 1


def test_oracle_scores_match_kernel_version_and_oracles():
    X, Y, rng = label_problem(n=70, seed=8)
    n = X.shape[0]
    alpha = rng.uniform(0, 1, size=n) * (rng.random(n) < 0.6)
    cache = KernelRowCache(X, kernel="linear")
    for labels, mu in ((Y[1], None), (Y, np.array([0.2, 0.5, 0.3]))):
        ycomb = np.atleast_2d(labels).T @ (np.ones(1) if mu is None else mu)
        f_ker = cache.matvec(alpha * ycomb)
        r, f = linear_oracle_scores(sp.csr_matrix(X), alpha, labels, mu, return_decision=True)
        np.testing.assert_allclose(f, f_ker, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(r, alpha * f_ker, rtol=1e-10, atol=1e-10)
    r_ker = alpha * cache.matvec(alpha * Y[1])
    r_lin, f_lin = linear_oracle_scores(X, alpha, Y[1], return_decision=True)
    mask = np.arange(n) < 10
    a = sort_oracle_ssl(r_lin, f_lin, Y[1][mask], mask, 30)
    b = sort_oracle_ssl(r_ker, cache.matvec(alpha * Y[1]), Y[1][mask], mask, 30)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(band_oracle(r_lin, 0.1 * n), band_oracle(r_ker, 0.1 * n))


def test_label_kernel_with_one_label_is_the_plain_svm():
    X, y = sparse_problem(n=120, seed=10)
    C = np.where(np.arange(120) < 40, 1.0, 0.2)
    svm = linear_svm_dual_cd(X, y, C, tol=1e-9, max_iter=100_000, random_state=3)
    lk = linear_label_kernel_dual(X, y, 1.0, C, tol=1e-9, max_iter=100_000, random_state=3)
    np.testing.assert_array_equal(lk.alpha, svm.alpha)
    assert rel(-lk.objective, svm.dual_objective) < 1e-12
    # the squared hinge is the label kernel with D = 1/(2C) and no upper bound active
    l2 = linear_svm_dual_cd(X, y, 0.5, loss="l2", tol=1e-9, max_iter=100_000)
    lk2 = linear_label_kernel_dual(X, y, 1.0, 1e6, diag=1.0, tol=1e-9, max_iter=100_000)
    assert rel(-lk2.objective, l2.dual_objective) < 1e-8


def test_violated_label_search_matches_kernel_version():
    X, Y, rng = label_problem(n=80, seed=11)
    n = X.shape[0]
    cache = KernelRowCache(X, kernel="linear")
    alpha = linear_label_kernel_dual(X, Y, [0.5, 0.3, 0.2], 0.5, tol=1e-6).alpha
    np.testing.assert_allclose(linear_label_quadratic(sp.csr_matrix(X), alpha, Y),
                               label_kernel_quadratic(cache, Y, alpha), rtol=1e-10)
    mask = np.arange(n) < 15
    ssl = partial(sort_oracle_ssl, y_l=Y[0][mask], labelled_mask=mask,
                  n_pos=ssl_n_pos(n - 15, Y[0][mask]))

    def band(r, f):
        return band_oracle(r, 0.1 * n, f)

    for oracle in (ssl, band):
        lin = linear_violated_label(sp.csr_matrix(X), alpha, Y, oracle)
        ker = violated_label(alpha, cache, Y, oracle)
        np.testing.assert_array_equal(lin.y, ker.y)
        assert lin.n_ascent == ker.n_ascent and lin.violated == ker.violated
        assert rel(lin.value, ker.value) < 1e-10 and lin.prop4["holds"]


@needs_mirror
@pytest.mark.slow
def test_a9a_tight_tolerance_against_liblinear():
    from weaklabel.data import load

    ds = load("libsvm-a9a", sparse=True)
    X = ds.X[:3000]
    X = sp.csr_matrix((X.data, X.indices.astype(np.int32), X.indptr.astype(np.int32)),
                      shape=X.shape)
    y = np.asarray(ds.y[:3000], dtype=np.float64)
    for loss, skl in (("l1", "hinge"), ("l2", "squared_hinge")):
        for bias in (False, True):
            r = linear_svm_dual_cd(X, y, 1.0, loss=loss, bias=bias, tol=1e-7,
                                   max_iter=1_000_000, random_state=0)
            m = LinearSVC(C=1.0, loss=skl, dual=True, fit_intercept=bias, tol=1e-7,
                          max_iter=1_000_000, random_state=0).fit(X, y)
            b = float(m.intercept_[0]) if bias else 0.0
            assert r.converged
            assert rel(r.objective, primal(X, y, 1.0, m.coef_.ravel(), b, loss)) < 1e-6


def test_memory_linear_in_nnz_no_gram():
    rng = np.random.default_rng(9)
    n, d = 20_000, 2_000
    X = sp.random(n, d, density=0.01, random_state=9, format="csr",
                  data_rvs=lambda k: rng.normal(size=k))
    X = X[np.diff(X.indptr) > 0]
    n = X.shape[0]
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    Y = np.vstack([y, -y, y])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        # compiled code loaded (or compiled) before tracing
        linear_svm_dual_cd(X[:50], y[:50], 1.0, max_iter=2)
        linear_label_kernel_dual(X[:50], Y[:, :50], [0.5, 0.3, 0.2], 1.0, max_iter=2)
    tracemalloc.start()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        linear_svm_dual_cd(X, y, 1.0, max_iter=3)
        linear_label_kernel_dual(X, Y, [0.5, 0.3, 0.2], 1.0, max_iter=3)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # O(n + T d) working memory: far below one n x n float64 matrix (3.2 GB)
    assert peak < 8 * (20 * n + 10 * d) + 2_000_000


@pytest.mark.parametrize("call, match", [
    (lambda X, y: linear_svm_dual_cd(X, y, 0.0), "C"),
    (lambda X, y: linear_svm_dual_cd(X, y, -1.0), "C"),
    (lambda X, y: linear_svm_dual_cd(X, y, np.r_[np.ones(9), 0.0]), "C"),
    (lambda X, y: linear_svm_dual_cd(X, y[:5], 1.0), "y"),
    (lambda X, y: linear_svm_dual_cd(X, y, np.ones(4)), "C"),
    (lambda X, y: linear_svm_dual_cd(X, np.where(y > 0, 1.0, 0.0), 1.0), "y"),
    (lambda X, y: linear_svm_dual_cd(X, y, 1.0, loss="log"), "loss"),
    (lambda X, y: linear_svm_dual_cd(X, y, 1.0, alpha0=-np.ones(10)), "alpha0"),
    (lambda X, y: linear_svm_dual_cd(X, y, 1.0, w0=np.zeros(4)), "w0"),
    (lambda X, y: linear_label_kernel_dual(X, np.vstack([y, y])[:, :7], [0.5, 0.5]),
     "labels"),
    (lambda X, y: linear_label_kernel_dual(X, np.vstack([y, 2 * y]), [0.5, 0.5]),
     "labels"),
    (lambda X, y: linear_label_kernel_dual(X, np.vstack([y, y]), [0.5]), "mu"),
    (lambda X, y: linear_label_kernel_dual(X, np.vstack([y, y]), [0.5, 0.5], 0.0), "C"),
    (lambda X, y: linear_mlkl(X, np.vstack([y, y]), -2.0), "C"),
    (lambda X, y: linear_oracle_scores(X, np.ones(3), y), "alpha"),
])
def test_bad_input(call, match):
    rng = np.random.default_rng(0)
    X = sp.csr_matrix(rng.normal(size=(10, 4)))
    y = np.where(np.arange(10) % 2, 1.0, -1.0)
    with pytest.raises(ValueError, match=match):
        call(X, y)


def test_bad_X():
    y = np.where(np.arange(10) % 2, 1.0, -1.0)
    X = sp.csr_matrix(np.random.default_rng(1).normal(size=(10, 4)))
    Xnan = X.copy()
    Xnan.data[3] = np.nan
    with pytest.raises(ValueError, match="X contains 1 NaN"):
        linear_svm_dual_cd(Xnan, y)
    with pytest.raises(ValueError, match="X contains"):
        linear_svm_dual_cd(Xnan.toarray(), y)
    Xe = X.tolil()
    Xe[4, :] = 0
    Xe = Xe.tocsr()
    with pytest.raises(ValueError, match="X has 1 all-zero row"):
        linear_svm_dual_cd(Xe, y)
    with pytest.raises(ValueError, match="X has 1 all-zero row"):
        linear_label_kernel_dual(Xe, y, 1.0)
    # explicit zeros only: still an empty row
    Xz = sp.csr_matrix((np.zeros(1), np.zeros(1, dtype=np.int32), np.r_[0, 1]), shape=(1, 3))
    with pytest.raises(ValueError, match="all-zero row"):
        linear_svm_dual_cd(Xz, [1.0])
    # with the bias feature the row is not empty
    assert linear_svm_dual_cd(Xe, y, bias=True, tol=1e-6).converged
    with pytest.raises(ValueError, match="X is None"):
        linear_svm_dual_cd(None, y)
