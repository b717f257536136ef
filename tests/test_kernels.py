import numpy as np
import pytest
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from weaklabel import kernels as K


@pytest.fixture
def data(rng):
    return rng.normal(size=(40, 7)), rng.normal(size=(25, 7))


def test_linear_matches_sklearn(data):
    A, B = data
    np.testing.assert_allclose(K.gram(A, B, "linear"), linear_kernel(A, B), rtol=0, atol=1e-12)


@pytest.mark.parametrize("sigma", [0.3, 1.0, 4.0])
def test_gaussian_sigma_and_gamma_match_sklearn(data, sigma):
    A, B = data
    gamma = 1.0 / (2 * sigma**2)
    ref = rbf_kernel(A, B, gamma=gamma)
    np.testing.assert_allclose(K.gram(A, B, "gaussian", sigma=sigma), ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(K.gram(A, B, "gaussian", gamma=gamma), ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(K.gram(A, B, "rbf", gamma=gamma), ref, rtol=0, atol=1e-12)
    assert K.make_kernel("gaussian", sigma=sigma).sigma == pytest.approx(sigma)


@pytest.mark.parametrize("degree,coef0,gamma", [(2, 1.0, 0.5), (3, 0.0, 1.0), (1, 2.0, 0.1)])
def test_polynomial_matches_sklearn(data, degree, coef0, gamma):
    A, B = data
    ref = polynomial_kernel(A, B, degree=degree, gamma=gamma, coef0=coef0)
    got = K.gram(A, B, "polynomial", degree=degree, gamma=gamma, coef0=coef0)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


def test_gram_symmetric_default_and_row(data):
    A, _ = data
    G = K.gram(A, kernel="gaussian", sigma=2.0)
    np.testing.assert_array_equal(G, G.T)
    np.testing.assert_allclose(K.kernel_row(A[3], A, "gaussian", sigma=2.0), G[3], atol=1e-15)
    k = K.make_kernel("gaussian", sigma=2.0)
    np.testing.assert_allclose(K.kernel_diag(A, k.code, k.params), np.ones(len(A)))
    np.testing.assert_allclose(K.kernel_rowsum(A, A[:5], k.code, k.params, 0.5),
                               0.5 * G[:, :5].sum(1), atol=1e-12)
    np.testing.assert_allclose(k(A), G)


def test_row_cache_lru_budget_and_values(data):
    A, _ = data
    k = K.make_kernel("gaussian", sigma=1.5)
    full = K.gram(A, kernel=k)
    budget_rows = 5
    cache = K.KernelRowCache(A, kernel=k, cache_mb=budget_rows * 8 * len(A) / 2**20)
    assert cache.n_slots == budget_rows
    assert cache.nbytes == budget_rows * 8 * len(A)
    order = [0, 1, 2, 0, 3, 4, 5, 0, 6, 1]
    for i in order:
        np.testing.assert_allclose(cache.row(i), full[i], atol=1e-15)
    # rows 0,1,2,3,4 computed; 0 re-hit twice (kept alive by use); 5 evicts LRU=1; 6 evicts 2;
    # 1 is then recomputed
    assert cache.misses == 8
    assert cache.hits == len(order) - 8


def test_row_cache_rectangular(data):
    A, B = data
    cache = K.KernelRowCache(A, B, kernel="linear", cache_mb=1)
    np.testing.assert_allclose(cache.row(7), A[7] @ B.T, atol=1e-12)
    with pytest.raises(IndexError, match="row index"):
        cache.row(40)


@pytest.mark.parametrize("kwargs,match", [
    ({"kernel": "laplace"}, "kernel"),
    ({"kernel": "gaussian", "sigma": 0.0}, "sigma"),
    ({"kernel": "gaussian", "sigma": -1.0}, "sigma"),
    ({"kernel": "gaussian", "gamma": 0.0}, "gamma"),
    ({"kernel": "gaussian", "sigma": 1.0, "gamma": 1.0}, "sigma or gamma"),
    ({"kernel": "polynomial", "degree": 0}, "degree"),
])
def test_bad_kernel_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        K.make_kernel(**kwargs)


def test_bad_inputs(data):
    A, B = data
    bad = A.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="A contains 1 NaN"):
        K.gram(bad)
    with pytest.raises(ValueError, match="B has 3 features"):
        K.gram(A, B[:, :3])
    with pytest.raises(ValueError, match="2-D"):
        K.gram(A[0])
    with pytest.raises(ValueError, match="cache_mb"):
        K.KernelRowCache(A, cache_mb=0)
    with pytest.raises(TypeError, match="kernel"):
        K.make_kernel(3)
