"""WellSVM (Li et al. 2013) beyond SSL: the one label-generation loop of Algorithms 2-4,
clustering (Section 4.3) and multi-instance learning (Section 4.2)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_blobs, make_moons

from weaklabel._validation import ConvergenceWarning
from weaklabel.kernels import KernelRowCache, gram, make_kernel
from weaklabel.models.wellsvm_weak import WellSVMClustering, WellSVMMIL
from weaklabel.reference.wellsvm import (
    box_dual_values,
    brute_force_argmax,
    brute_force_bags,
    enumerate_band_labels,
    p_mip_batched,
    p_sdp,
    p_wellsvm,
    single_label_value,
)
from weaklabel.solvers.wellsvm import (
    bag_argmax_oracle,
    band_oracle,
    clustering_beta,
    gamma_width,
    label_generation,
    sort_oracle_ssl,
    ssl_n_pos,
    wellsvm,
    wellsvm_clustering,
    wellsvm_mil,
    wellsvm_mil_decision_function,
)

FIXTURE = Path(__file__).parent / "data" / "wellsvm_ssl_prerefactor.npz"


# --------------------------------------------------------------------------- bitwise SSL
def _ssl_problem(n, n_lab, seed, noise=0.2):
    X, yt = make_moons(n, noise=noise, random_state=seed)
    yt = 2.0 * yt - 1.0
    rng = np.random.default_rng(seed)
    lab = np.concatenate([rng.choice(np.flatnonzero(yt == c), n_lab // 2, replace=False)
                          for c in (-1.0, 1.0)])
    y = np.zeros(n)
    y[lab] = yt[lab]
    return X, y


def _ssl_runs():
    """The SSL fits whose arrays the fixture stores (made before the loop was shared)."""
    out = {}
    cases = [("p0", 70, 8, 0, "gaussian", "paper", {}),
             ("p1", 60, 6, 1, "linear", "paper", {"eps": 0.0, "thr": 0.0, "max_outer": 3}),
             ("p2", 80, 10, 2, "gaussian", "paper", {"mkl_tol": 1e-6, "inner_eps": 1e-8}),
             ("r0", 70, 8, 3, "gaussian", "reference", {"random_state": 0}),
             ("r1", 60, 6, 4, "linear", "reference", {"random_state": 1})]
    for name, n, n_lab, seed, kname, variant, kw in cases:
        X, y = _ssl_problem(n, n_lab, seed)
        k = make_kernel("gaussian", sigma=gamma_width(X)) if kname == "gaussian" else "linear"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            r = wellsvm(X, y, 1.0, 0.3, k, variant=variant, **kw)
        out[f"{name}_alpha"] = r.alpha
        out[f"{name}_mu"] = r.mu
        out[f"{name}_labels"] = r.labels
        out[f"{name}_path"] = np.asarray(r.objective_path, dtype=np.float64)
        out[f"{name}_n_inner"] = np.asarray(r.n_inner, dtype=np.int64)
        out[f"{name}_n_outer"] = np.asarray(r.n_outer)
        out[f"{name}_converged"] = np.asarray(r.converged)
        vals = [c["value"] for c in r.prop4_checks]
        out[f"{name}_check_values"] = np.asarray(vals, dtype=np.float64)
    return out


def test_ssl_is_identical_to_the_code_before_the_shared_loop():
    """The SSL results (paper and reference variants) equal the arrays stored by the
    implementation that preceded :func:`label_generation` (tests/data fixture): labels,
    counts and every integer exactly; floats bit for bit on the machine that stored them,
    and within 1e-12 relative on another CPU (the fastmath kernels and the BLAS reductions
    may round the last bit differently: 2.5e-16 relative seen on an AMD EPYC)."""
    stored = np.load(FIXTURE)
    now = _ssl_runs()
    assert set(stored.files) == set(now)
    for key in stored.files:
        a, b = stored[key], now[key]
        assert a.shape == b.shape and a.dtype == b.dtype, key
        if a.dtype.kind == "f":
            np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-15, err_msg=key)
        else:
            assert np.array_equal(a, b), key


def test_label_generation_with_the_sort_oracle_is_the_ssl_paper_loop():
    """Algorithm 2 is the shared loop with the SSL sort oracle: calling it directly from the
    same initial label gives the same working set, weights and objectives."""
    X, y = _ssl_problem(60, 6, 1)
    mask = y != 0
    r = wellsvm(X, y, 1.0, 0.3, "linear", eps=1e-3, thr=1e-3)
    n_pos = ssl_n_pos(int((~mask).sum()), y[mask])
    cache = KernelRowCache(X, kernel=make_kernel("linear"))
    direct = label_generation(
        cache, r.info["init_labels"], np.where(mask, 1.0, 0.3),
        lambda rr, f: sort_oracle_ssl(rr, f, y[mask], mask, n_pos), X=X,
        kernel=make_kernel("linear"))
    assert np.array_equal(direct.labels, r.labels) and np.array_equal(direct.mu, r.mu)
    assert direct.objective_path == r.objective_path


# --------------------------------------------------------------------------- clustering
def _blobs(n=40, seed=0, sep=3.0):
    X, y = make_blobs(n, centers=[[-sep, 0.0], [sep, 0.0]], cluster_std=1.0,
                      random_state=seed)
    return X - X.mean(axis=0), 2.0 * y - 1.0


def _swap_acc(a, y):
    acc = float(np.mean(np.sign(a) == np.sign(y)))
    return max(acc, 1.0 - acc)


@pytest.mark.parametrize("n", [13, 14])
def test_band_oracle_exact_against_brute_force_on_a_clustering_run(n):
    X, _ = _blobs(n, seed=n)
    k = make_kernel("gaussian", sigma=gamma_width(X))
    K = gram(X, kernel=k)
    beta = clustering_beta(n, 0.2)
    r = wellsvm_clustering(X, 1.0, k, beta, random_state=0, max_outer=3)
    B = enumerate_band_labels(n, beta)
    a = r.result.alpha
    for y_bar in r.result.labels:
        f = K @ (a * y_bar)
        rr = a * f
        y = band_oracle(rr, beta, f)
        _, best = brute_force_argmax(rr, B)
        assert abs(y.sum()) <= beta
        assert rr @ y == pytest.approx(best, abs=1e-12)


def test_clustering_objective_non_increasing_and_prop4():
    X, _ = _blobs(60, seed=2, sep=1.5)
    k = make_kernel("gaussian", sigma=0.5 * gamma_width(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = wellsvm_clustering(X, 1.0, k, 4, random_state=1, eps=1e-5, thr=0.0,
                               max_outer=8, mkl_tol=1e-8, mkl_max_iter=3000, inner_eps=1e-9)
    path = np.array(r.result.objective_path)
    assert len(path) >= 3
    # Theorem 2: p^(t) non-increasing (up to the MLKL tolerance)
    assert np.all(np.diff(path) <= 1e-6 * np.abs(path[:-1]))
    assert all(c["holds"] for c in r.result.prop4_checks)
    assert all(c["increase"] for c in r.result.prop4_checks if c["added"])
    L = r.result.labels
    assert np.all(np.abs(L.sum(axis=1)) <= 4)
    # no two working labels equal up to sign
    G = np.abs(L @ L.T) == L.shape[1]
    assert np.array_equal(G, np.eye(L.shape[0], dtype=bool))
    # the assignment is sign f, re-balanced
    assert abs(r.assignment.sum()) <= 4
    f = r.decision
    assert np.all(f[r.assignment > 0].min() >= f[r.assignment < 0].max())


def test_clustering_tightness_sdp_wellsvm_mip():
    """Theorem 1 for clustering on N = 12: p_SDP <= p_WellSVM <= p_MIP; the numba loop with
    the band oracle ends at or above p_WellSVM (a working-set MLKL optimum)."""
    rng = np.random.default_rng(1)
    n = 12
    X = np.vstack([rng.normal(-1, 1, size=(n // 2, 2)), rng.normal(1, 1, size=(n // 2, 2))])
    K = gram(X, kernel=make_kernel("gaussian", sigma=1.0))
    B = enumerate_band_labels(n, 2, up_to_sign=True)
    mip, _ = p_mip_batched(K, B, 1.0)
    well, _ = p_wellsvm(K, B, 1.0)
    sdp = p_sdp(K, 1.0, form="clustering", beta=2)
    assert sdp <= well * (1 + 1e-5) and well <= mip * (1 + 1e-6)
    r = wellsvm_clustering(K, 1.0, "precomputed", 2, random_state=0, eps=0.0, thr=0.0,
                           mkl_tol=1e-8, mkl_max_iter=3000, inner_eps=1e-10)
    assert r.result.objective_path[-1] >= well * (1 - 1e-5)
    assert r.result.objective_path[-1] <= r.result.objective_path[0]


def test_box_dual_values_match_cvxpy():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(9, 2))
    K = gram(X, kernel=make_kernel("gaussian", sigma=1.0))
    B = enumerate_band_labels(9, 1)[::40]
    C = np.linspace(0.3, 2.0, 9)
    v = box_dual_values(K, B, C)
    ref = [single_label_value(K, y, C) for y in B]
    np.testing.assert_allclose(v, ref, rtol=1e-6, atol=1e-7)


def test_clustering_initialisation_is_the_best_alignment_and_seeded():
    X, _ = _blobs(30, seed=4)
    a = wellsvm_clustering(X, 1.0, "linear", 2, random_state=5, n_init_draws=7, max_outer=1)
    b = wellsvm_clustering(X, 1.0, "linear", 2, random_state=5, n_init_draws=7, max_outer=1)
    np.testing.assert_array_equal(a.init_labels, b.init_labels)
    np.testing.assert_array_equal(a.assignment, b.assignment)
    rng = np.random.default_rng(5)
    K = X @ X.T
    draws = []
    for _ in range(7):
        y = -np.ones(30)
        y[rng.permutation(30)[:15]] = 1.0
        draws.append(y)
    best = max(draws, key=lambda y: y @ K @ y)
    np.testing.assert_array_equal(a.init_labels, best)
    assert 0.0 <= a.selection_score <= 1.0 and a.radius_margin >= 0.0


def test_clustering_bad_input_and_degenerate_data():
    X, _ = _blobs(20)
    for beta in (-1.0, 21.0):
        with pytest.raises(ValueError, match="beta"):
            wellsvm_clustering(X, 1.0, "linear", beta)
    with pytest.raises(ValueError, match="beta"):
        wellsvm_clustering(X[:13], 1.0, "linear", 0.5)
    with pytest.raises(ValueError, match="beta_fraction"):
        clustering_beta(20, 1.5)
    with pytest.raises(ValueError, match="C"):
        wellsvm_clustering(X, 0.0)
    with pytest.raises(ValueError, match="X"):
        wellsvm_clustering(X[:1])
    assert clustering_beta(13, 0.03) == 1.0 and clustering_beta(100, 0.03) == pytest.approx(3)
    # a single cluster's worth of data: identical points give a valid (balanced) result
    same = np.ones((10, 3))
    for k in ("linear", make_kernel("gaussian", sigma=1.0)):
        r = wellsvm_clustering(same, 1.0, k, 0, random_state=0)
        assert abs(r.assignment.sum()) == 0 and np.all(np.isfinite(r.decision))
    m = WellSVMClustering(kernel="gaussian").fit(same)
    assert set(m.labels_) <= {0, 1}


def test_wellsvm_clustering_estimator_separates_two_blobs():
    X, y = _blobs(80, seed=7)
    for kernel in ("linear", "gaussian"):
        m = WellSVMClustering(kernel=kernel, C=1.0, random_state=0)
        lab = m.fit_predict(X)
        assert _swap_acc(2.0 * lab - 1.0, y) == 1.0
        np.testing.assert_array_equal(lab, m.labels_)
        np.testing.assert_array_equal(m.predict(X), (m.decision_function(X) >= 0).astype(int))
        assert m.n_iter_ >= 1 and isinstance(m.converged_, bool) and m.intercept_ == 0.0
    m2 = clone(m).set_params(beta_fraction=0.3, sigma="gamma", sigma_ratio=0.5)
    assert m2.get_params()["beta_fraction"] == 0.3 and not hasattr(m2, "labels_")
    assert _swap_acc(2.0 * m2.fit(X).labels_ - 1.0, y) == 1.0
    assert m2.beta_ == pytest.approx(24.0)
    with pytest.raises(ValueError, match="beta"):
        WellSVMClustering(beta=100).fit(X)
    with pytest.raises(ValueError, match="kernel"):
        WellSVMClustering(kernel="nope").fit(X)
    with pytest.raises(ValueError, match="Invalid parameter"):
        m.set_params(gamma=1.0)


# --------------------------------------------------------------------------- MIL
def _mil_toy(n_bags=24, seed=0, shift=4.0, order="mixed"):
    rng = np.random.default_rng(seed)
    bags, ys, keys = [], [], []
    for b in range(n_bags):
        m = int(rng.integers(2, 6))
        B = rng.normal(0.0, 1.0, size=(m, 2))
        pos = (b % 3 != 0) if order == "mixed" else (b < 2 * n_bags // 3)
        k = -1
        if pos:
            k = int(rng.integers(m))
            B[k] += shift
        bags.append(B)
        ys.append(1 if pos else 0)
        keys.append(k)
    return bags, np.array(ys), np.array(keys)


def _flat(bags):
    return np.vstack(bags), np.concatenate([[0], np.cumsum([len(b) for b in bags])])


def test_mil_oracle_exact_prop6_and_monotone():
    bags, ys, _ = _mil_toy(9, seed=1)
    X, ptr = _flat(bags)
    k = make_kernel("gaussian", sigma=gamma_width(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r = wellsvm_mil(X, ptr, ys, 1.0, 1.0, k, eps=0.0, thr=0.0, max_outer=6,
                        mkl_tol=1e-8, mkl_max_iter=2000, inner_eps=1e-9)
    res = r.result
    path = np.array(res.objective_path)
    assert np.all(np.diff(path) <= 1e-6 * np.abs(path[:-1]))      # Theorem 2
    assert res.prop4_checks and all(c["holds"] for c in res.prop4_checks)   # Prop. 6
    assert all(c["increase"] for c in res.prop4_checks if c["added"])
    # the per-bag oracle of Eq. (31) is exact over Delta on these tiny bags
    K = gram(X, kernel=k)
    pos = r.positive_bags
    pos_inst = np.concatenate([np.arange(ptr[b], ptr[b + 1]) for b in pos])
    pos_ptr = np.concatenate([[0], np.cumsum([ptr[b + 1] - ptr[b] for b in pos])])
    for d in res.labels:
        coef = np.zeros(X.shape[0])
        coef[pos_inst[d > 0]] = res.alpha[:pos.size]
        neg = np.flatnonzero(np.repeat(ys, np.diff(ptr)) == 0)
        coef[neg] = -res.alpha[pos.size:]
        rr = np.repeat(res.alpha[:pos.size], np.diff(pos_ptr)) * (K[pos_inst] @ coef)
        dd = bag_argmax_oracle(rr, pos_ptr)
        _, best = brute_force_bags(rr, pos_ptr)
        assert rr @ dd == pytest.approx(best, abs=1e-12)
    # every label is one key instance per positive bag
    assert np.all(np.add.reduceat(res.labels, pos_ptr[:-1], axis=1) == 1)


def test_mil_locates_the_key_instances_in_any_bag_order():
    bags, ys, keys = _mil_toy(24, seed=0)
    X, ptr = _flat(bags)
    k = make_kernel("gaussian", sigma=0.5 * gamma_width(X))
    r = wellsvm_mil(X, ptr, ys, 1.0, 1.0, k)
    pos = np.flatnonzero(ys == 1)
    np.testing.assert_array_equal(r.roi[pos], keys[pos])
    np.testing.assert_array_equal(r.key_instances, keys[pos])
    assert np.all((r.bag_scores >= 0) == (ys == 1))
    np.testing.assert_allclose(wellsvm_mil_decision_function(r, X), r.instance_scores,
                               atol=1e-10)
    # positive bags first (the paper's order) gives the same model up to the bag order
    perm = np.concatenate([pos, np.flatnonzero(ys == 0)])
    X2, ptr2 = _flat([bags[i] for i in perm])
    r2 = wellsvm_mil(X2, ptr2, ys[perm], 1.0, 1.0, k)
    np.testing.assert_array_equal(r2.roi, r.roi[perm])
    np.testing.assert_allclose(r2.bag_scores, r.bag_scores[perm], rtol=1e-6, atol=1e-8)


def test_mil_bad_input_names_the_argument():
    bags, ys, _ = _mil_toy(6, seed=2)
    X, ptr = _flat(bags)
    with pytest.raises(ValueError, match="bag_ptr"):
        wellsvm_mil(X, np.r_[ptr[:2], ptr[1], ptr[2:]], np.r_[ys[:1], 0, ys[1:]])  # empty bag
    with pytest.raises(ValueError, match="bag_ptr"):
        wellsvm_mil(X, ptr[::-1], ys)                                       # not increasing
    with pytest.raises(ValueError, match="bag_ptr"):
        wellsvm_mil(X, ptr[:-1], ys[:-1])                                   # not covering
    with pytest.raises(ValueError, match="bag_ptr"):
        wellsvm_mil(X, ptr.astype(float), ys)
    with pytest.raises(ValueError, match="bag_y"):
        wellsvm_mil(X, ptr, np.ones(ys.size))                               # no negative bag
    with pytest.raises(ValueError, match="bag_y"):
        wellsvm_mil(X, ptr, np.zeros(ys.size))                              # no positive bag
    with pytest.raises(ValueError, match="bag_y"):
        wellsvm_mil(X, ptr, ys[:-1])
    with pytest.raises(ValueError, match="C2"):
        wellsvm_mil(X, ptr, ys, 1.0, -1.0)


def test_wellsvm_mil_estimator():
    bags, ys, keys = _mil_toy(24, seed=0)
    m = WellSVMMIL(kernel="gaussian", sigma="gamma", sigma_ratio=0.5).fit(bags, ys)
    pos = np.flatnonzero(ys == 1)
    np.testing.assert_array_equal(m.locate(bags)[pos], keys[pos])
    np.testing.assert_array_equal(m.predict(bags), ys)
    inst = m.predict_instances(bags)
    np.testing.assert_allclose(m.decision_function(bags), [f.max() for f in inst])
    m2 = clone(m).fit(bags, 2 * ys - 1)
    np.testing.assert_array_equal(m2.predict(bags), 2 * ys - 1)
    np.testing.assert_allclose(m2.decision_function(bags), m.decision_function(bags))
    new_bags, new_y, new_keys = _mil_toy(9, seed=11)
    assert np.mean(m.predict(new_bags) == new_y) >= 8 / 9
    with pytest.raises(ValueError, match="empty bag"):
        WellSVMMIL().fit(bags[:-1] + [np.zeros((0, 2))], ys)
    with pytest.raises(ValueError, match="one class"):
        WellSVMMIL().fit(bags, np.ones(ys.size, dtype=int))
    with pytest.raises(ValueError, match="y has"):
        WellSVMMIL().fit(bags, ys[:-1])
    with pytest.raises(ValueError, match="bags"):
        WellSVMMIL().fit([], [])
    with pytest.raises(ValueError, match="features"):
        m.predict([np.zeros((2, 3))])
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        WellSVMMIL().predict(bags)


if __name__ == "__main__":  # regenerate the fixture (only from the pre-refactor code)
    np.savez(FIXTURE, **_ssl_runs())
