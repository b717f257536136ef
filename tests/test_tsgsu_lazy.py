"""TSGSU's lazy cache (``mode="lazy"``): the iterates of an update of every point after
every iteration with the same row-by-row arithmetic, bit for bit, at a cost per iteration
that does not depend on the number of training points."""

import importlib

import numpy as np
import pytest
import scipy.sparse as sp

from weaklabel.solvers.tsgsu import tsgsu, tsgsu_batches

T = importlib.import_module("weaklabel.solvers.tsgsu")


def _data(n_s, n_u, seed=0, d=4):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n_s, d)), rng.normal(size=(n_u, d)) + 0.5


def _eager(monkeypatch, *args, **kw):
    """The same run with every point brought up to date at every iteration."""
    with monkeypatch.context() as mp:
        mp.setattr(T, "_LazyCache", T._EagerRowCache)
        return tsgsu(*args, mode="lazy", **kw)


@pytest.mark.parametrize("features,sparse", [("rff", False), ("rff", True),
                                             ("maclaurin", False), ("maclaurin", True)])
def test_lazy_bit_identical_to_eager_update(monkeypatch, features, sparse):
    XS, XU = _data(30, 90, seed=1)
    if sparse:
        XS, XU = (sp.csr_matrix(X * (np.abs(X) > 0.6)) for X in (XS, XU))
    kernel = "rbf" if features == "rff" else "poly"
    # batches drawing a third of the points (often redrawn) and 2-3 points (mostly never)
    for seed, (bs, bu) in [(0, (10, 30)), (5, (2, 3)), (9, (2, 3))]:
        kw = dict(lam=0.02, kernel=kernel, features=features, gamma=0.4, scale=0.5,
                  n_iter=9, batch_s=bs, batch_u=bu, n_features=6, eta0=1.0,
                  random_state=seed)
        a = tsgsu(XS, XU, 0.7, mode="lazy", **kw)
        b = _eager(monkeypatch, XS, XU, 0.7, **kw)
        for name in ("coef", "risk_pos", "risk_neg", "objective", "log_decay"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
        assert a.info["f_rows"] < b.info["f_rows"] == 120 * 8
        # the BLAS-blocked cached mode: the same iterates up to rounding
        c = tsgsu(XS, XU, 0.7, mode="cached", **kw)
        np.testing.assert_allclose(a.coef, c.coef, rtol=0, atol=1e-12)


def _lazy_rows(n_s, n_u, bs, bu, n_iter, seed):
    """Row-block products the lazy cache must make: a point drawn at ``t`` after its last
    draw at ``p`` (0: never) needs blocks ``p+1 .. t-1``."""
    last = [np.zeros(n_s, dtype=int), np.zeros(n_u, dtype=int)]
    total = 0
    for t, idxs in enumerate(tsgsu_batches(n_s, n_u, bs, bu, n_iter, seed), start=1):
        for k, idx in enumerate(idxs):
            total += int(np.sum(t - 1 - last[k][idx]))
            last[k][idx] = t - 1
    return total


def test_lazy_work_per_iteration_does_not_grow_with_n():
    bs, bu, n_iter = 4, 6, 8
    bound = (bs + bu) * n_iter * (n_iter - 1) // 2  # each drawn point replays <= t-1 blocks
    kw = dict(lam=0.02, gamma=0.4, n_iter=n_iter, batch_s=bs, batch_u=bu, n_features=5,
              random_state=2)
    rows = {}
    for n_u in (200, 2000):
        XS, XU = _data(20 * n_u // 200, n_u, seed=3)
        lazy = tsgsu(XS, XU, 0.7, mode="lazy", **kw).info["f_rows"]
        eager = tsgsu(XS, XU, 0.7, mode="cached", **kw).info["f_rows"]
        assert lazy == _lazy_rows(XS.shape[0], n_u, bs, bu, n_iter, 2)
        assert eager == (XS.shape[0] + n_u) * n_iter
        rows[n_u] = lazy, eager
    # the rule "work bounded independently of n": holds for the lazy cache at both sizes,
    # fails for the update of every point at the larger one
    assert rows[200][0] <= bound and rows[2000][0] <= bound
    assert rows[2000][1] > bound
    assert rows[2000][1] == 10 * rows[200][1]


def test_lazy_block_cache_budget(monkeypatch):
    XS, XU = _data(20, 60, seed=4)
    kw = dict(lam=0.02, gamma=0.4, n_iter=7, batch_s=3, batch_u=3, n_features=5,
              random_state=1)
    seen = []
    real = T._LazyCache

    class Spy(real):
        def refresh(self, t, idxs):
            out = super().refresh(t, idxs)
            seen.append(len(self.blocks))
            return out

    monkeypatch.setattr(T, "_LazyCache", Spy)
    a = tsgsu(XS, XU, 0.7, mode="lazy", **kw)
    assert max(seen) == 6  # default budget: every regenerated block is kept
    one = 4 * 5 * 8  # bytes of one block (d = 4, m = 5, float64)
    monkeypatch.setattr(T, "_LAZY_BLOCK_BYTES", 2 * one)
    seen.clear()
    b = tsgsu(XS, XU, 0.7, mode="lazy", **kw)
    assert max(seen) == 2  # over budget: least recently used blocks dropped, regenerated
    np.testing.assert_array_equal(a.coef, b.coef)


def test_rowwise_sincos_fallback_is_per_row():
    """A row whose projections exceed the fast sin/cos range uses libm; its neighbours in
    the same call keep the fast path, as when computed alone."""
    rng = np.random.default_rng(0)
    m = 40
    P = rng.normal(size=(1, 2, m))
    X = np.array([[1.0, 0.5], [3e6, 1.0]])
    a, f0 = rng.normal(size=2 * m), np.array([0.3, -0.2])
    f = f0.copy()
    T._rows_dense(X, np.array([0, 1]), P, a, 0.2, 0.9, f, True)
    for i, z in enumerate((0.0 + X[:, :1] * P[0, 0]) + X[:, 1:] * P[0, 1]):  # in order
        c, s = T._sincos_array(z)  # fast path iff max |z| <= 5e5
        assert (np.abs(z).max() > T._SINCOS_MAX) == (i == 1)
        acc1 = acc2 = 0.0
        for j in range(m):
            acc1 += a[j] * c[j]
            acc2 += a[m + j] * s[j]
        assert f[i] == 0.9 * f0[i] + 0.2 * (acc1 + acc2)
        alone = f0[i:i + 1].copy()
        T._rows_dense(X[i:i + 1], np.array([0]), P, a, 0.2, 0.9, alone, True)
        assert alone[0] == f[i]


def test_lazy_refuses_tensorsketch_naming_features():
    XS, XU = _data(10, 10)
    with pytest.raises(ValueError, match="features"):
        tsgsu(XS, XU, 0.7, lam=0.1, kernel="poly", features="tensorsketch", mode="lazy",
              n_iter=2, batch_s=2, batch_u=2, n_features=4, random_state=0)
    r = tsgsu(XS, XU, 0.7, lam=0.1, kernel="poly", features="maclaurin", mode="lazy",
              n_iter=2, batch_s=2, batch_u=2, n_features=4, random_state=0)
    assert r.mode == "lazy" and r.coef.shape == (2, 4)


# ----------------------------------------------------------------- mode="auto" (the default)
def test_auto_mode_rule_fires_at_the_faithful_count_and_not_below():
    # estimator defaults: batches 1000 + 1000, T = 100 -> faithful count 2000 * 100 * 99 / 2
    # = 9.9 M row-block products; cached computes (n_S + n_U) * 100
    assert T.tsgsu_mode(10000, 89000, 1000, 1000, 100) == "cached"   # 9.9 M: not above
    assert T.tsgsu_mode(10000, 89001, 1000, 1000, 100) == "lazy"     # one row more
    assert T.tsgsu_mode(10000, 89001, 1000, 1000, 100, "maclaurin") == "lazy"
    assert T.tsgsu_mode(10000, 89001, 1000, 1000, 100, "tensorsketch") == "faithful"
    # batches larger than the sets are clipped: a whole-set batch makes cached cheaper
    assert T.tsgsu_mode(50, 60, 1000, 1000, 3) == "cached"
    assert T.tsgsu_mode(50, 60, 10, 10, 3) == "lazy"                 # 330 > 60
    assert T.tsgsu_mode(50, 60, 10, 10, 1) == "lazy"                 # faithful: 0 products


@pytest.mark.parametrize("bs,bu,expect", [(30, 90, "cached"), (2, 3, "lazy")])
def test_auto_mode_runs_the_mode_it_names(bs, bu, expect):
    XS, XU = _data(30, 90, seed=3)
    kw = dict(lam=0.02, gamma=0.4, n_iter=9, batch_s=bs, batch_u=bu, n_features=6,
              eta0=1.0, random_state=4)
    a = tsgsu(XS, XU, 0.7, **kw)              # the default is "auto"
    b = tsgsu(XS, XU, 0.7, mode=expect, **kw)
    assert a.mode == expect
    np.testing.assert_array_equal(a.coef, b.coef)
    assert a.info["f_rows"] == b.info["f_rows"]


def test_estimator_default_mode_is_auto():
    from weaklabel.models import TSGSU
    assert TSGSU(prior=0.7).get_params()["mode"] == "auto"
