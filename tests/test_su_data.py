"""SU data layer: benchmark generators, doubling, SU trial draws, CV folds, substitutes and
the loaders of the original sets (Shi et al. 2021; Bao et al. 2018)."""

from __future__ import annotations

import bz2

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import needs_mirror

from weaklabel.data.external import EXTERNAL_SETS, load_external
from weaklabel.data.generators import breiman_waveform, ringnorm, sparse_text, twonorm
from weaklabel.data.su import (
    PROTOCOL_MIN_POINTS,
    SU_BENCHMARKS,
    SUData,
    double_dataset,
    load_su_benchmark,
    make_su_data,
    su_cv_folds,
)

# --------------------------------------------------------------------------- generators


@pytest.mark.parametrize("fn, kw, prior, d", [
    (breiman_waveform, {}, 1 / 3, 21),
    (breiman_waveform, {"positive_class": 2}, 1 / 3, 21),
    (twonorm, {"positive_prior": 0.3}, 0.3, 20),
    (ringnorm, {"positive_prior": 0.3, "d": 7}, 0.3, 7),
    (twonorm, {}, 0.5, 20),
])
def test_generator_shapes_priors_determinism(fn, kw, prior, d):
    X, y = fn(40000, random_state=3, **kw)
    assert X.shape == (40000, d) and X.dtype == np.float64 and y.dtype == np.float64
    assert set(np.unique(y)) == {-1.0, 1.0}
    assert abs((y > 0).mean() - prior) < 4 * np.sqrt(prior * (1 - prior) / 40000)
    X2, y2 = fn(40000, random_state=3, **kw)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    X3, _ = fn(40000, random_state=4, **kw)
    assert not np.array_equal(X, X3)


def test_waveform_class_means_follow_breiman():
    X, y = breiman_waveform(60000, positive_class=1, random_state=0)
    m = X[y > 0].mean(axis=0)
    # class 1 = u h1 + (1 - u) h3: mean 0.5 (h1 + h3), flat at 4 between the peaks 7 and 11
    np.testing.assert_allclose(m[[6, 8, 10]], 4.0, atol=0.06)
    np.testing.assert_allclose(m[[0, 20]], 0.0, atol=0.06)
    assert X[y < 0].mean(axis=0)[14] > 2.5  # the other classes use h2 (peak 15)


def test_twonorm_ringnorm_moments():
    X, y = twonorm(50000, d=4, positive_prior=0.3, random_state=0)
    np.testing.assert_allclose(X[y > 0].mean(0), 1.0, atol=0.05)  # a = 2 / sqrt(4)
    np.testing.assert_allclose(X[y < 0].mean(0), -1.0, atol=0.05)
    X, y = ringnorm(50000, d=4, positive_prior=0.3, random_state=0)
    np.testing.assert_allclose(X[y > 0].std(0), 2.0, atol=0.05)
    np.testing.assert_allclose(X[y < 0].mean(0), 0.5, atol=0.05)  # a = 1 / sqrt(4)
    np.testing.assert_allclose(X[y < 0].std(0), 1.0, atol=0.05)


def test_sparse_text_csr_properties():
    X, y = sparse_text(3000, d=5000, nnz_per_row=30, positive_prior=0.3, random_state=5)
    assert sp.isspmatrix_csr(X) and X.shape == (3000, 5000) and X.dtype == np.float64
    assert X.has_sorted_indices
    for i in range(0, 3000, 97):
        row = X.indices[X.indptr[i]:X.indptr[i + 1]]
        assert np.all(np.diff(row) > 0)  # sorted, no duplicates
    assert np.all(X.data > 0)  # no explicit zeros
    assert np.all(np.diff(X.indptr) <= 30) and np.all(np.diff(X.indptr) >= 1)
    np.testing.assert_allclose(np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel()), 1.0)
    assert abs((y > 0).mean() - 0.3) < 0.04
    X2, y2 = sparse_text(3000, d=5000, nnz_per_row=30, positive_prior=0.3, random_state=5)
    assert (X != X2).nnz == 0 and np.array_equal(y, y2)


def test_sparse_text_is_learnable():
    from sklearn.linear_model import LogisticRegression

    X, y = sparse_text(6000, d=3000, label_noise=0.0, random_state=0)
    clf = LogisticRegression(C=10.0, max_iter=500).fit(X[:4000], y[:4000])
    assert clf.score(X[4000:], y[4000:]) > 0.85


@pytest.mark.parametrize("kw, match", [
    ({"n_samples": 0}, "n_samples"),
    ({"n_samples": 10, "label_noise": 0.5}, "label_noise"),
    ({"n_samples": 10, "positive_prior": 0.03}, "positive_prior"),
    ({"n_samples": 10, "d": 1}, "d"),
    ({"n_samples": 10, "informative_fraction": 1.5}, "informative_fraction"),
])
def test_sparse_text_bad_arguments(kw, match):
    with pytest.raises(ValueError, match=match):
        sparse_text(**kw)


def test_generator_bad_arguments():
    with pytest.raises(ValueError, match="positive_class"):
        breiman_waveform(10, positive_class=3)
    with pytest.raises(ValueError, match="positive_prior"):
        twonorm(10, positive_prior=1.0)
    with pytest.raises(ValueError, match="noise"):
        breiman_waveform(10, noise=-1.0)
    with pytest.raises(TypeError, match="n_samples"):
        ringnorm(10.5)


# --------------------------------------------------------------------------- doubling


def test_double_dataset_dense():
    X, y = twonorm(1000, positive_prior=0.3, random_state=0)
    X2, y2, g = double_dataset(X, y, times=3, random_state=1)
    assert X2.shape == (3000, 20) and y2.shape == (3000,)
    np.testing.assert_array_equal(g, np.tile(np.arange(1000), 3))
    np.testing.assert_array_equal(X2[:1000], X)
    np.testing.assert_array_equal(y2, np.tile(y, 3))
    np.testing.assert_array_equal(X2[1000:, 1:], np.vstack([X[:, 1:]] * 2))
    diff = X2[1000:, 0] - np.tile(X[:, 0], 2)
    assert np.all(diff != 0)
    np.testing.assert_allclose(diff.std(), 0.01 * X[:, 0].std(), rtol=0.1)
    X3, _, _ = double_dataset(X, y, times=3, random_state=1)
    np.testing.assert_array_equal(X2, X3)


def test_double_dataset_sparse():
    X, y = sparse_text(500, d=300, random_state=0)
    X2, y2, g = double_dataset(X, y, feature=4, random_state=0)
    assert sp.isspmatrix_csr(X2) and X2.shape == (1000, 300) and X2.has_sorted_indices
    assert (X2[:500] != X).nnz == 0
    D = (X2[500:] - X).toarray()
    assert np.all(D[:, 4] != 0) and np.all(D[:, np.arange(300) != 4] == 0)


def test_double_dataset_errors():
    X = np.c_[np.zeros(10), np.arange(10.0)]
    y = np.r_[np.ones(3), -np.ones(7)]
    with pytest.raises(ValueError, match="constant"):
        double_dataset(X, y)
    with pytest.raises(ValueError, match="feature"):
        double_dataset(X, y, feature=2)
    with pytest.raises(ValueError, match="times"):
        double_dataset(X, y, times=0, feature=1)
    with pytest.raises(ValueError, match="length"):
        double_dataset(X, y[:5], feature=1)
    X1, y1, g1 = double_dataset(X, y, times=1)
    assert X1.shape == (10, 2) and np.array_equal(g1, np.arange(10))


# --------------------------------------------------------------------------- SU data


@pytest.fixture(scope="module")
def pool():
    return twonorm(60000, positive_prior=0.3, random_state=11)


def test_make_su_data_sizes_priors_disjoint(pool):
    X, y = pool
    shares_S, shares_U, shares_T = [], [], []
    for seed in range(8):
        D = make_su_data(X, y, random_state=seed)
        assert isinstance(D, SUData)
        assert D.XS.shape == (10000, 20) and D.XU.shape == (10000, 20)
        assert D.X_test.shape == (3333, 20) and D.y_test.shape == (3333,)
        assert D.n_pairs == 5000 and D.pairs.shape == (5000, 2)
        np.testing.assert_array_equal(D.yS[0::2], D.yS[1::2])  # pairs share a label
        idx = np.concatenate([D.index_S, D.index_U, D.index_test])
        assert np.unique(idx).size == idx.size == 23333  # S, U, test disjoint
        np.testing.assert_array_equal(D.XS, X[D.index_S])
        np.testing.assert_array_equal(D.yU, y[D.index_U])
        assert D.prior == pytest.approx((y > 0).mean())
        shares_S.append((D.yS > 0).mean())
        shares_U.append((D.yU > 0).mean())
        shares_T.append((D.y_test > 0).mean())
    p = (y > 0).mean()
    theta = p**2 / (p**2 + (1 - p) ** 2)
    assert D.class_prior_pairs == pytest.approx(theta)
    assert abs(np.mean(shares_S) - theta) < 3 * np.sqrt(theta * (1 - theta) / 5000 / 8)
    assert abs(np.mean(shares_U) - p) < 3 * np.sqrt(p * (1 - p) / 10000 / 8)
    assert abs(np.mean(shares_T) - p) < 3 * np.sqrt(p * (1 - p) / 3333 / 8)


def test_make_su_data_determinism_and_to_xy(pool):
    X, y = pool
    a = make_su_data(X, y, n_pairs=300, n_unlabelled=900, n_test=100, random_state=7)
    b = make_su_data(X, y, n_pairs=300, n_unlabelled=900, n_test=100, random_state=7)
    c = make_su_data(X, y, n_pairs=300, n_unlabelled=900, n_test=100, random_state=8)
    for f in ("index_S", "index_U", "index_test"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    assert not np.array_equal(a.index_S, c.index_S)
    Z, s = a.to_xy()
    assert Z.shape == (1500, 20) and s.shape == (1500,)
    np.testing.assert_array_equal(s, np.r_[np.ones(600), np.zeros(900)])
    np.testing.assert_array_equal(Z[:600], a.XS)
    np.testing.assert_array_equal(Z[600:], a.XU)
    assert "n_pairs=300" in repr(a)


def test_uniform_test_draw_is_the_literal_rest(pool):
    X, y = pool
    D = make_su_data(X[:23333], y[:23333], test_draw="uniform", random_state=0)
    idx = np.concatenate([D.index_S, D.index_U, D.index_test])
    assert np.array_equal(np.sort(idx), np.arange(23333))  # the whole pool is used


def test_make_su_data_twin_groups_stay_together():
    X, y = ringnorm(9000, positive_prior=0.25, random_state=2)
    X2, y2, g = double_dataset(X, y, times=3, random_state=3)
    D = make_su_data(X2, y2, n_pairs=3000, n_unlabelled=6000, twin_group=g, random_state=4)
    parts = [set(g[i].tolist()) for i in (D.index_S, D.index_U, D.index_test)]
    assert not parts[0] & parts[1] and not parts[0] & parts[2] and not parts[1] & parts[2]
    idx = np.concatenate([D.index_S, D.index_U, D.index_test])
    assert np.unique(idx).size == idx.size == 6000 + 6000 + 2000
    np.testing.assert_array_equal(D.yS[0::2], D.yS[1::2])
    D2 = make_su_data(X2, y2, n_pairs=3000, n_unlabelled=6000, twin_group=g, random_state=4)
    np.testing.assert_array_equal(D.index_test, D2.index_test)


def test_make_su_data_sparse():
    X, y = sparse_text(2000, d=500, random_state=0)
    D = make_su_data(X, y, n_pairs=200, n_unlabelled=600, random_state=0)
    assert sp.issparse(D.XS) and D.XS.shape == (400, 500) and D.X_test.shape[0] == 200
    Z, s = D.to_xy()
    assert sp.issparse(Z) and Z.shape == (1000, 500) and s.sum() == 400


def test_make_su_data_errors(pool):
    X, y = pool
    with pytest.raises(ValueError, match=r"2\*n_pairs \+ n_unlabelled \+ n_test = .*= 23333"):
        make_su_data(X[:20000], y[:20000])
    Xb, yb = twonorm(30000, positive_prior=0.5, random_state=0)
    with pytest.raises(ValueError, match="within 0.05 of 0.5"):
        make_su_data(Xb, yb)
    with pytest.raises(ValueError, match="n_pairs"):
        make_su_data(X, y, n_pairs=0)
    with pytest.raises(ValueError, match="length"):
        make_su_data(X, y[:-1])
    with pytest.raises(ValueError, match=r"\+1/-1"):
        make_su_data(X, np.where(y > 0, 2, 3))
    with pytest.raises(ValueError, match="test_draw"):
        make_su_data(X, y, test_draw="natural")
    with pytest.raises(ValueError, match="twin_group"):
        make_su_data(X, y, twin_group=np.zeros(10, dtype=int))
    with pytest.raises(ValueError, match="mixes positive and negative"):
        make_su_data(X, y, twin_group=np.arange(X.shape[0]) // 2)
    # enough points in total but too few of the majority class: the pairs over-sample it
    yr = -np.ones(30000)
    yr[:21000] = 1.0
    with pytest.raises(ValueError, match="not enough positive.*over-sample"):
        make_su_data(X[:30000], yr, n_pairs=10000, n_unlabelled=10000, n_test=0,
                     random_state=0)


# --------------------------------------------------------------------------- CV folds


def test_su_cv_folds():
    folds = su_cv_folds(103, 251, n_folds=5, random_state=0)
    n = 2 * 103 + 251
    assert len(folds) == 5
    vals = np.concatenate([v for _, v in folds])
    np.testing.assert_array_equal(np.sort(vals), np.arange(n))
    for tr, va in folds:
        assert np.intersect1d(tr, va).size == 0 and tr.size + va.size == n
        s_val = va[va < 206]
        assert np.array_equal(np.unique(s_val // 2).size * 2, s_val.size)  # whole pairs
        assert s_val.size // 2 in (20, 21) and (va >= 206).sum() in (50, 51)
    again = su_cv_folds(103, 251, n_folds=5, random_state=0)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(folds, again))
    with pytest.raises(ValueError, match="n_folds"):
        su_cv_folds(10, 10, n_folds=1)
    with pytest.raises(ValueError, match="n_pairs"):
        su_cv_folds(3, 10, n_folds=5)


# --------------------------------------------------------------------------- benchmarks


def test_su_benchmarks_table_declared():
    paper = {"Acoustic", "Combined", "Covtype", "Poker", "Year", "Sim", "Svhn", "Mnist8m"}
    assert paper <= {s.paper_name for s in SU_BENCHMARKS.values()}
    assert PROTOCOL_MIN_POINTS == {10000: 23333, 100000: 143333}
    for spec in SU_BENCHMARKS.values():
        assert spec.reason and spec.preprocessing and spec.doubling and spec.positive
        assert spec.table in ("Table 4", "Table 5")
        if spec.source == "missing":
            assert spec.loader is None and spec.substitute is None
        else:
            assert callable(spec.loader) and abs(spec.prior - 0.5) >= 0.05
        if spec.external is not None:
            assert spec.external in EXTERNAL_SETS
    with pytest.raises(ValueError, match="Svhn has no substitute"):
        load_su_benchmark("svhn")
    with pytest.raises(ValueError, match="name must be one of"):
        load_su_benchmark("covtype8m")


@pytest.mark.parametrize("name", ["acoustic", "combined", "year", "sim"])
def test_generator_benchmarks(name):
    X, y, twin, spec = load_su_benchmark(name, min_points=23333, random_state=0)
    assert X.shape[0] == 29167 and twin is None and spec.source == "generator"
    assert abs((y > 0).mean() - spec.prior) < 0.02
    D = make_su_data(X, y, random_state=0)
    assert D.XU.shape[0] == 10000


@needs_mirror
@pytest.mark.parametrize("name", ["covtype", "poker", "sixth", "mnist8m"])
def test_registry_benchmarks(name):
    spec = SU_BENCHMARKS[name]
    X, y, twin, _ = load_su_benchmark(name, random_state=0)
    assert X.shape[0] >= 23333 and (y > 0).mean() == pytest.approx(spec.prior, abs=1e-9)
    if name == "mnist8m":
        assert twin is not None and X.shape == (30000, 784)
        np.testing.assert_allclose(np.linalg.norm(X[:10000], axis=1), 1.0)
        D = make_su_data(X, y, twin_group=twin, random_state=0)
        parts = [set(twin[i].tolist()) for i in (D.index_S, D.index_U, D.index_test)]
        assert not parts[0] & parts[2] and not parts[1] & parts[2]
    else:
        assert twin is None
        assert X.min() >= -1.0 and X.max() <= 1.0
    big = 143333
    if name == "covtype":
        Xb, yb, tb, _ = load_su_benchmark(name, min_points=big, random_state=0)
        assert Xb.shape[0] == 4 * 58000 and tb is not None
        D = make_su_data(Xb, yb, n_unlabelled=100000, twin_group=tb, random_state=0)
        assert D.X_test.shape[0] == 33333


# --------------------------------------------------------------------------- external


def test_load_external_missing_file(tmp_path, monkeypatch):
    monkeypatch.delenv("WEAKLABEL_EXTERNAL_DATA", raising=False)
    with pytest.raises(FileNotFoundError, match="WEAKLABEL_EXTERNAL_DATA.*covtype.data.gz|"
                                                "covtype.data.gz.*WEAKLABEL_EXTERNAL_DATA"):
        load_external("covtype")
    monkeypatch.setenv("WEAKLABEL_EXTERNAL_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="train_32x32.mat"):
        load_external("svhn")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_external("real-sim", tmp_path / "nope")
    with pytest.raises(ValueError, match="name must be one of"):
        load_external("rcv1")


def test_load_external_libsvm_and_csv(tmp_path, monkeypatch):
    (tmp_path / "real-sim").write_text("1 1:0.5 3:1\n-1 2:0.25\n-1 20958:1\n")
    ds = load_external("real-sim", tmp_path / "real-sim")
    assert sp.issparse(ds.X) and ds.X.shape == (3, 20958)
    np.testing.assert_array_equal(ds.y, [1.0, -1.0, -1.0])
    assert ds.meta["prior"] == pytest.approx(1 / 3)
    text = b"0 1:3 784:1\n5 2:1\n0 3:1\n"
    (tmp_path / "mnist8m.bz2").write_bytes(bz2.compress(text))
    monkeypatch.setenv("WEAKLABEL_EXTERNAL_DATA", str(tmp_path))
    ds = load_external("mnist8m", max_rows=2)
    assert ds.X.shape == (2, 784)
    np.testing.assert_array_equal(ds.y_raw, [0, 5])
    np.testing.assert_array_equal(ds.y, [1.0, -1.0])
    (tmp_path / "poker-hand-testing.data").write_text("1,1,1,13,2,4,2,3,1,12,0\n"
                                                      "3,12,3,2,3,11,4,5,2,5,1\n")
    (tmp_path / "poker-hand-training-true.data").write_text("1,10,1,11,1,13,1,12,1,1,9\n")
    ds = load_external("poker")
    assert ds.X.shape == (3, 10)
    np.testing.assert_array_equal(ds.y, [-1.0, 1.0, -1.0])


def test_load_external_svhn_and_year(tmp_path):
    from scipy.io import savemat

    rng = np.random.default_rng(0)
    X = rng.integers(0, 256, size=(32, 32, 3, 4)).astype(np.uint8)
    savemat(tmp_path / "train_32x32.mat", {"X": X, "y": np.array([[10], [4], [5], [9]])})
    ds = load_external("svhn", tmp_path)
    assert ds.X.shape == (4, 3072) and ds.X.dtype == np.float64
    np.testing.assert_array_equal(ds.y_raw, [0, 4, 5, 9])  # label 10 is digit 0
    np.testing.assert_array_equal(ds.y, [1.0, 1.0, -1.0, -1.0])
    np.testing.assert_array_equal(ds.X[1], np.moveaxis(X, -1, 0)[1].ravel())
    (tmp_path / "YearPredictionMSD.txt").write_text("2001,0.5,1.5\n1990,2.0,3.0\n")
    ds = load_external("year", tmp_path)
    np.testing.assert_array_equal(ds.X, [[0.5, 1.5], [2.0, 3.0]])
    np.testing.assert_array_equal(ds.y, [-1.0, 1.0])
