"""The kernel-row cache shared by every kernel solver (weaklabel.kernels, LIBSVM's Cache)."""

import importlib

import numpy as np
import pytest

from weaklabel import kernels as K
from weaklabel.kernels import (
    AUTO_CACHE_MB,
    KernelRowCache,
    cache_budget,
    check_cache_mb,
    rc_get,
    rc_new,
    rc_swap,
)
from weaklabel.solvers.smo import cache_matvec, label_kernel_dual, smo


def _points(n=12, d=3, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


def _mb(rows, n, item=8):
    """A budget of exactly ``rows`` whole rows of length ``n``."""
    return rows * n * item / 2**20


# --------------------------------------------------------------------------- counts
def test_hits_misses_and_evictions_when_the_budget_is_short():
    X = _points()
    n = len(X)
    cache = KernelRowCache(X, kernel="gaussian", cache_mb=_mb(3, n))
    assert cache.n_slots == 3 and not cache.holds_all_rows
    full = K.gram(X, kernel="gaussian")
    for i in [0, 1, 2, 0, 3, 4, 0, 1]:
        np.testing.assert_allclose(cache.row(i), full[i], atol=1e-15)
    # 0,1,2 computed; 0 hit; 3 evicts 1 (LRU), 4 evicts 2; 0 hit; 1 evicts 3
    assert cache.misses == 6 and cache.hits == 2 and cache.evictions == 3
    assert cache.held_bytes <= cache.nbytes == 3 * n * 8
    assert np.count_nonzero(cache.lengths) == 3


def test_no_eviction_when_every_row_fits():
    X = _points()
    n = len(X)
    cache = KernelRowCache(X, kernel="gaussian", cache_mb=_mb(n, n))
    assert cache.holds_all_rows
    for i in [0, 1, 2, 0, 3, 4, 0, 1] + list(range(n)):
        cache.row(i)
    assert cache.evictions == 0 and cache.misses == n


# --------------------------------------------------------------------------- full scans
def test_a_full_scan_reads_cached_rows_and_evicts_nothing():
    X = _points()
    n = len(X)
    full = K.gram(X, kernel="gaussian")
    cache = KernelRowCache(X, kernel="gaussian", cache_mb=_mb(3, n))
    for i in (5, 6, 7):  # the budget is full
        cache.row(i)
    v = np.random.default_rng(1).normal(size=n)
    out = cache_matvec(cache, v)
    st = cache.stats()
    assert st["evictions"] == 0 and st["scan_hits"] == 3 and st["scan_misses"] == n - 3
    assert sorted(np.flatnonzero(cache.lengths)) == [5, 6, 7]  # the same rows stay cached
    np.testing.assert_allclose(out, full @ v, rtol=1e-12, atol=1e-12)
    # a scan stores the missing rows where the budget has room, still without evicting
    roomy = KernelRowCache(X, kernel="gaussian", cache_mb=_mb(5, n))
    roomy.row(0)
    roomy.matvec(v)
    assert roomy.evictions == 0 and np.count_nonzero(roomy.lengths) == 5


# --------------------------------------------------------------------------- row lengths
def test_rows_have_the_length_asked_for_and_swaps_follow_the_active_set():
    n = 6
    cs = rc_new(n, 4 * n, np.empty((0, 0)))  # budget of 24 values, rows on demand
    rows, length, st = cs[0], cs[1], cs[4]
    assert rc_get(2, 4, cs) == 0  # nothing held: the caller fills 0..3
    rows[2][:4] = [10.0, 11.0, 12.0, 13.0]
    assert length[2] == 4 and rows[2].shape[0] == 4  # a place of the active length only
    assert st[K._FREE] == 4 * n - 4
    rc_swap(1, 3, cs)  # both columns held: swapped
    np.testing.assert_array_equal(rows[2][:4], [10.0, 13.0, 12.0, 11.0])
    rc_swap(2, 5, cs)  # column 5 not held: the row keeps its first 2 values
    assert length[2] == 2
    assert rc_get(2, n, cs) == 2  # extended: the caller fills 2..5 only
    assert rows[2].shape[0] == n and rows[2][1] == 13.0


def test_smo_rows_after_shrinking_are_shorter_than_n():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4))
    y = np.where(X[:, 0] + rng.normal(size=200) > 0, 1.0, -1.0)  # overlapping classes
    r = smo(X, y, 100.0, "gaussian", eps=1e-4, cache_mb=_mb(20, 200))
    assert r.n_iter > 2 * len(y)  # the solver shrank (every min(n, 1000) iterations)
    # rows computed over the active set hold fewer than n values
    assert r.info["kernel_values_computed"] < r.kernel_rows_computed * len(y)
    assert r.info["cache_evictions"] > 0
    nos = smo(X, y, 100.0, "gaussian", eps=1e-4, shrinking=False, cache_mb=_mb(20, 200))
    assert nos.info["kernel_values_computed"] == nos.kernel_rows_computed * len(y)


# --------------------------------------------------------------------------- same iterates
@pytest.mark.parametrize("kernel", ["gaussian", "linear"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_tiny_and_huge_caches_give_identical_solutions(kernel, dtype):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 5))
    y = np.where(rng.random(200) < 0.5, 1.0, -1.0)
    big = smo(X, y, 2.0, kernel, eps=1e-4, cache_mb=100.0, cache_dtype=dtype)
    tiny = smo(X, y, 2.0, kernel, eps=1e-4, cache_mb=1e-6, cache_dtype=dtype)
    assert tiny.info["cache_slots"] == 2 and big.info["cache_slots"] == 200
    assert tiny.n_iter == big.n_iter
    np.testing.assert_array_equal(tiny.alpha, big.alpha)
    np.testing.assert_array_equal(tiny.gradient, big.gradient)
    Z = np.stack([y, np.where(rng.random(200) < 0.5, 1.0, -1.0)])
    a = label_kernel_dual(X, Z, [0.6, 0.4], 1.0, kernel, eps=1e-4, cache_mb=100.0,
                          cache_dtype=dtype)
    b = label_kernel_dual(X, Z, [0.6, 0.4], 1.0, kernel, eps=1e-4, cache_mb=1e-6,
                          cache_dtype=dtype)
    assert a.n_iter == b.n_iter
    np.testing.assert_array_equal(a.alpha, b.alpha)


@pytest.mark.parametrize("problem", ["box", "simplex"])
@pytest.mark.parametrize("T", [1, 3])
def test_label_kernel_rows_by_sign_pattern_give_identical_solutions(monkeypatch, problem, T):
    """Rows of M by sign pattern (O(n) per row of Q) and the O(n T) rows: same iterates."""
    smo_mod = importlib.import_module("weaklabel.solvers.smo")  # the module, not smo()

    rng = np.random.default_rng(11)
    X = rng.normal(size=(120, 4))
    Z = np.where(rng.random((T, 120)) < 0.5, 1.0, -1.0)
    mu = rng.random(T) + 0.1
    kw = dict(problem=problem, eps=1e-6, row_cache_mb=1e-6,
              diag=0.5 if problem == "simplex" else None)
    pat, Mv = smo_mod._lk_patterns(smo_mod._label_matrix(Z, 120), mu)
    assert Mv.shape == (2 ** T, 120)          # the pattern path is taken
    fast = label_kernel_dual(X, Z, mu, 1.0, "gaussian", **kw)
    monkeypatch.setattr(smo_mod, "_LK_PATTERN_MB", 0.0)
    pat, Mv = smo_mod._lk_patterns(smo_mod._label_matrix(Z, 120), mu)
    assert Mv.shape == (0, 120)               # ... and here it is not
    slow = label_kernel_dual(X, Z, mu, 1.0, "gaussian", **kw)
    assert fast.n_iter == slow.n_iter
    np.testing.assert_array_equal(fast.alpha, slow.alpha)
    np.testing.assert_array_equal(fast.gradient, slow.gradient)


def test_label_patterns_fall_back_when_they_are_as_many_as_half_the_points():
    smo_mod = importlib.import_module("weaklabel.solvers.smo")  # the module, not smo()

    rng = np.random.default_rng(3)
    Z = np.where(rng.random((30, 8)) < 0.5, 1.0, -1.0)   # 8 labels, 30 points: ~30 patterns
    assert smo_mod._lk_patterns(Z, np.ones(8))[1].shape[0] == 0
    assert smo_mod._lk_patterns(Z[:, :2], np.ones(2))[1].shape[0] == 4


def test_float32_rows_stay_within_the_rounding_bound_of_float64():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(250, 4))
    y = np.where(X[:, 1] + 0.5 * rng.normal(size=250) > 0, 1.0, -1.0)
    C, eps = 1.0, 1e-5
    r64 = smo(X, y, C, "gaussian", eps=eps)
    r32 = smo(X, y, C, "gaussian", eps=eps, cache_dtype="float32")
    assert r32.info["cache_dtype"] == "float32" and r32.converged
    Q = np.outer(y, y) * K.gram(X, kernel="gaussian")

    def f(a):
        return 0.5 * a @ Q @ a - a.sum()

    # float32 solves Q + E with |E_ij| <= 2^-24 |Q_ij| <= 2^-24 (Gaussian kernel): the two
    # optima differ by at most max over both solutions of |a'Ea| / 2 <= 2^-25 (sum a)^2,
    # plus the stopping slack of each solve (duality gap <= eps * sum C)
    s = max(r64.alpha.sum(), r32.alpha.sum())
    bound = 2.0**-24 * s * s + 2.0 * eps * C * len(y)
    assert abs(f(r32.alpha) - f(r64.alpha)) <= bound


# --------------------------------------------------------------------------- sizing
def test_automatic_size_holds_all_of_k_when_it_fits():
    values, mb = cache_budget(None, 1000, 1000)
    assert values == 1000 * 1000 and mb == pytest.approx(8e6 / 2**20)
    assert KernelRowCache(_points(40), kernel="linear").holds_all_rows
    # above the limit: the limit (float64 and float32)
    n = 20_000
    values, mb = cache_budget("auto", n, n)
    assert values < n * n and mb == pytest.approx(AUTO_CACHE_MB)
    values32, _ = cache_budget(None, n, n, "float32")
    assert values32 == 2 * values
    # a given budget is kept, with at least two whole rows
    assert cache_budget(1.0, 10, 10)[0] == 2**20 // 8
    assert cache_budget(1e-9, 10, 10)[0] == 20


@pytest.mark.parametrize("bad,err", [(0, ValueError), (-1.0, ValueError),
                                     (float("nan"), ValueError), ("big", ValueError),
                                     (True, TypeError), ([1.0], TypeError)])
def test_bad_cache_mb_is_refused_naming_it(bad, err):
    with pytest.raises(err, match="cache_mb"):
        check_cache_mb(bad)
    with pytest.raises(err, match="cache_mb"):
        KernelRowCache(_points(), cache_mb=bad)
    with pytest.raises(err, match="cache_mb"):
        smo(_points(), np.r_[np.ones(6), -np.ones(6)], cache_mb=bad)


@pytest.mark.parametrize("good", [None, "auto", 0.5, 200])
def test_good_cache_mb_is_accepted(good):
    assert check_cache_mb(good) == (None if good in (None, "auto") else float(good))


@pytest.mark.parametrize("bad", ["float16", "int64", None, True])
def test_bad_cache_dtype_is_refused_naming_it(bad):
    with pytest.raises(ValueError, match="cache_dtype"):
        KernelRowCache(_points(), cache_dtype=bad)


@pytest.mark.parametrize("name", ["WellSVM", "WellSVMClustering", "TSVM", "CCCPTSVM",
                                  "LabelledSVM", "RampPU", "DoubleHingePU"])
def test_estimators_take_cache_mb_and_refuse_a_bad_one(name):
    import weaklabel.models as M

    est = getattr(M, name)()
    assert "cache_mb" in est.get_params()
    est.set_params(cache_mb=-5.0)
    X = _points(20, 2)
    if name == "WellSVMClustering":
        args = (X,)
    elif name in ("RampPU", "DoubleHingePU"):
        args = (X, np.r_[np.ones(5), np.zeros(15)].astype(int))
    else:
        args = (X, np.r_[[0, 1] * 3, -np.ones(14)].astype(int))
    with pytest.raises(ValueError, match="cache_mb"):
        est.fit(*args)
