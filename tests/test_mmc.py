"""Clustering baselines of Li et al. 2013, Table 11: KM(-r), KKM(-r), NC, IterSVR(-r), CPMMC,
GMMC (solvers/mmc.py, reference/mmc.py, models/clustering.py)."""

import warnings

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs

from weaklabel.kernels import gram
from weaklabel.models.clustering import (
    CPMMC,
    GMMC,
    AlignedKMeans,
    IterSVR,
    KernelKMeans,
    normalized_cut_labels,
)
from weaklabel.reference.mmc import gmmc_sdp, mmc_label_value
from weaklabel.solvers.mmc import (
    alignment_init,
    clustering_accuracy,
    cpmmc,
    iter_svr,
    kernel_feature_map,
    kernel_kmeans,
)


def blobs(n=60, sep=4.0, seed=0):
    X, y = make_blobs(n, centers=[[-sep, 0.0], [sep, 0.0]], random_state=seed)
    return X, np.where(y == 0, 1.0, -1.0)


# --------------------------------------------------------------------------- helpers
def test_clustering_accuracy_is_invariant_to_the_swap_and_the_coding():
    y = np.array([1, 1, -1, -1, 1])
    assert clustering_accuracy(y, y) == 1.0
    assert clustering_accuracy(y, -y) == 1.0
    assert clustering_accuracy(y, (y < 0).astype(int)) == 1.0
    assert clustering_accuracy(y, [1, 1, 1, 1, 1]) == pytest.approx(0.6)
    assert clustering_accuracy(y, [1, -1, -1, -1, 1]) == pytest.approx(0.8)


def test_alignment_init_is_balanced_and_the_best_of_its_draws():
    X, _ = blobs(41)
    K = gram(X, X, "linear")
    y = alignment_init(K, n_draws=20, random_state=3)
    assert set(np.unique(y)) == {-1.0, 1.0} and y.sum() == 1.0
    rng = np.random.default_rng(3)
    best = -np.inf
    for _ in range(20):
        z = -np.ones(41)
        z[rng.permutation(41)[:21]] = 1.0
        best = max(best, z @ K @ z)
    assert y @ K @ y == pytest.approx(best)


# --------------------------------------------------------------------------- KKM / KM
@pytest.mark.parametrize("seed", range(3))
def test_kernel_kmeans_linear_equals_sklearn_kmeans_from_the_same_init(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 3))
    X[:30] += 1.5
    y0 = np.where(rng.random(80) < 0.5, 1.0, -1.0)
    r = kernel_kmeans(gram(X, X, "linear"), y0)
    centers = np.vstack([X[y0 > 0].mean(axis=0), X[y0 < 0].mean(axis=0)])
    km = KMeans(2, init=centers, n_init=1, algorithm="lloyd", tol=0.0).fit(X)
    np.testing.assert_array_equal(r.labels, np.where(km.labels_ == 0, 1.0, -1.0))
    assert r.objective == pytest.approx(km.inertia_, rel=1e-9)
    assert r.converged and np.all(np.diff(r.objective_path) <= 1e-9)


# --------------------------------------------------------------------------- every method
def _fits(X):
    n = X.shape[0]
    return {
        "KM-r": AlignedKMeans(random_state=0).fit(X).labels_,
        "KKM": KernelKMeans("gaussian", 2.0, random_state=0).fit(X).labels_,
        "KKM-r": KernelKMeans("gaussian", 2.0, init="alignment", random_state=0).fit(X).labels_,
        "NC": normalized_cut_labels(X, 2.0, random_state=0),
        "IterSVR": IterSVR("linear", C=1.0, random_state=0).fit(X).labels_,
        "IterSVR-r": IterSVR("gaussian", 2.0, init="alignment", random_state=0).fit(X).labels_,
        "CPMMC": CPMMC("linear", C=1.0, random_state=0).fit(X).labels_,
        "CPMMC-rbf": CPMMC("gaussian", 2.0, C=10.0, beta=0.1 * n,
                           random_state=0).fit(X).labels_,
        "GMMC": GMMC("gaussian", 2.0).fit(X).labels_,
    }


def test_every_method_separates_two_well_separated_blobs():
    X, y = blobs(60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no convergence warning on an easy problem
        got = _fits(X)
    for name, lab in got.items():
        assert set(np.unique(lab)) <= ({-1, 1} if name == "NC" else {0, 1}), name
        assert clustering_accuracy(y, lab) == 1.0, name


# --------------------------------------------------------------------------- IterSVR
@pytest.mark.parametrize("beta", [0.0, 4.0, 20.0])
def test_iter_svr_labels_respect_the_balance_constraint(beta):
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(45, 2)) + [3.0, 0.0], rng.normal(size=(15, 2))])
    r = iter_svr(X, 1.0, "gaussian", beta=beta, random_state=2)
    assert abs(r.labels.sum()) <= beta
    assert set(np.unique(r.labels)) <= {-1.0, 1.0}
    assert r.decision.shape == (60,)


# --------------------------------------------------------------------------- CPMMC
def test_cpmmc_objective_decreases_over_cccp_rounds():
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(size=(50, 2)) + [2.0, 0.0], rng.normal(size=(50, 2)) - [2.0, 0.0]])
    y0 = np.where(rng.random(100) < 0.5, 1.0, -1.0)  # a bad start: several CCCP rounds
    C, cp_tol = 10.0, 1e-3
    r = cpmmc(X, C, "linear", beta=3.0, y0=y0, cp_tol=cp_tol, tol=1e-6)
    path = np.array(r.objective_path)
    assert len(path) >= 3
    assert np.all(np.diff(path) <= C * cp_tol + 1e-7)
    assert path[-1] < path[0]
    f = r.decision
    assert abs(f.sum()) <= 3.0 + 1e-5


def test_feature_map_reproduces_the_gram_matrix():
    X, _ = blobs(40)
    Phi = kernel_feature_map(X, "gaussian", n_components=40)
    np.testing.assert_allclose(Phi @ Phi.T, gram(X, X, "gaussian"), atol=1e-6)
    Phi = kernel_feature_map(X, "gaussian", n_components=40, exact_max=10, random_state=0)
    np.testing.assert_allclose(Phi @ Phi.T, gram(X, X, "gaussian"), atol=1e-6)


# --------------------------------------------------------------------------- GMMC
@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
def test_gmmc_relaxation_is_below_the_rounded_labelling(kernel):
    rng = np.random.default_rng(7)
    X = rng.normal(size=(20, 2))
    X[:10] += 1.0
    K = gram(X, X, kernel)
    for C in (0.5, 5.0):
        r = gmmc_sdp(K, C, beta=2.0)
        assert r.ran and abs(r.labels.sum()) <= 2.0
        p_round = mmc_label_value(r.kernel, r.labels, C)
        assert r.relaxation_value <= p_round + 1e-4 * max(1.0, p_round)
        # and below p(y) of any labelling, e.g. a random one
        z = np.where(rng.random(20) < 0.5, 1.0, -1.0)
        assert r.relaxation_value <= mmc_label_value(r.kernel, z, C) + 1e-4


def test_gmmc_returns_not_run_beyond_max_n():
    X, _ = blobs(30)
    r = gmmc_sdp(gram(X, X, "linear"), 1.0, beta=1.0, max_n=20)
    assert not r.ran and r.labels is None and "not run" in r.status
    with pytest.raises(ValueError, match=r"X has n = 30 rows, more than max_n=20"):
        GMMC("linear", max_n=20).fit(X)


# --------------------------------------------------------------------------- bad input
def test_bad_input_names_the_argument():
    X, _ = blobs(20)
    with pytest.raises(ValueError, match="X"):
        KernelKMeans().fit(X[:1])
    with pytest.raises(ValueError, match="X"):
        iter_svr(X[:1], beta=0.0)
    Xn = X.copy()
    Xn[3, 1] = np.nan
    for est in (KernelKMeans(), IterSVR(), CPMMC(), GMMC(), AlignedKMeans()):
        with pytest.raises(ValueError, match="NaN"):
            est.fit(Xn)
    for beta in (-1.0, 21.0):
        with pytest.raises(ValueError, match="beta"):
            iter_svr(X, beta=beta)
        with pytest.raises(ValueError, match="beta"):
            cpmmc(X, beta=beta)
        with pytest.raises(ValueError, match="beta"):
            gmmc_sdp(gram(X, X), beta=beta)
        with pytest.raises(ValueError, match="beta"):
            IterSVR(beta=beta).fit(X)
    with pytest.raises(ValueError, match="K"):
        alignment_init(np.ones((3, 4)))
    with pytest.raises(ValueError, match="y0"):
        kernel_kmeans(gram(X, X), np.zeros(20))
    with pytest.raises(ValueError, match="init"):
        KernelKMeans(init="kmeans++").fit(X)
    with pytest.raises(ValueError, match="y_true"):
        clustering_accuracy([1, 2, 3], [1, 1, 1])
