"""WellSVM (Li et al. 2013): oracles, MLKL, Algorithm 2 and Theorem 1 on tiny problems."""

import functools
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_moons

from weaklabel._validation import ConvergenceWarning
from weaklabel.kernels import gram, make_kernel
from weaklabel.reference.wellsvm import (
    brute_force_argmax,
    brute_force_bags,
    enumerate_band_labels,
    enumerate_ssl_labels,
    mlkl_reference,
    p_mip,
    p_sdp,
    p_wellsvm,
)
from weaklabel.solvers.smo import svc_dual
from weaklabel.solvers.wellsvm import (
    KernelRowCache,
    bag_argmax_oracle,
    band_oracle,
    gamma_width,
    mlkl,
    sort_oracle_ssl,
    ssl_n_pos,
    violated_label,
    wellsvm,
    wellsvm_decision_function,
)


def _ssl_problem(n=200, n_lab=16, seed=0, noise=0.15):
    X, yt = make_moons(n, noise=noise, random_state=seed)
    yt = 2.0 * yt - 1.0
    rng = np.random.default_rng(seed)
    lab = np.concatenate([rng.choice(np.flatnonzero(yt == c), n_lab // 2, replace=False)
                          for c in (-1.0, 1.0)])
    y = np.zeros(n)
    y[lab] = yt[lab]
    return X, y, yt


# --------------------------------------------------------------------------- kernel width
def test_gamma_width_is_root_mean_squared_distance_over_all_pairs():
    X = np.random.default_rng(0).normal(size=(25, 4))
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    assert gamma_width(X) == pytest.approx(np.sqrt(D2.mean()), rel=1e-12)
    assert gamma_width(X, 0.5) == pytest.approx(0.5 * np.sqrt(D2.mean()), rel=1e-12)
    with pytest.raises(ValueError, match="ratio"):
        gamma_width(X, -1.0)


# --------------------------------------------------------------------------- oracles
@pytest.mark.parametrize("seed", range(6))
def test_ssl_oracle_is_exact(seed):
    rng = np.random.default_rng(seed)
    n, l = 16, 5
    u = n - l
    mask = np.zeros(n, dtype=bool)
    mask[rng.choice(n, l, replace=False)] = True
    y_l = np.where(rng.random(l) < 0.5, 1.0, -1.0)
    y_l[0], y_l[1] = 1.0, -1.0
    r = rng.normal(size=n)
    if seed % 2:  # ties and zeros (a_i = 0 gives r_i = 0)
        r = np.round(r, 0) * (rng.random(n) < 0.7)
    for n_pos in (0, ssl_n_pos(u, y_l), u // 2, u):
        y = sort_oracle_ssl(r, rng.normal(size=n), y_l, mask, n_pos)
        B = enumerate_ssl_labels(y_l, mask, n_pos)
        _, best = brute_force_argmax(r, B)
        assert r @ y == pytest.approx(best, abs=1e-12)
        assert np.array_equal(y[mask], y_l) and np.sum(y[~mask] > 0) == n_pos


def test_ssl_oracle_breaks_ties_by_the_secondary_key():
    mask = np.array([True, True, False, False, False, False])
    r = np.zeros(6)
    f = np.array([0.0, 0.0, -1.0, 3.0, 2.0, -5.0])
    y = sort_oracle_ssl(r, f, [1.0, -1.0], mask, 2)
    assert y.tolist() == [1, -1, -1, 1, 1, -1]
    assert sort_oracle_ssl(r, None, [1.0, -1.0], mask, 2).tolist() == [1, -1, 1, 1, -1, -1]


def test_balance_rounding():
    y_l = np.array([1, 1, -1, -1, -1.0])  # pi_L = 0.4
    assert ssl_n_pos(11, y_l, "paper") == 11 - 7  # n_- = ceil(6.6) = 7
    assert ssl_n_pos(11, y_l, "reference") == 5  # n_+ = ceil(4.4)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n", [11, 12])
def test_band_oracle_is_exact(seed, n):
    rng = np.random.default_rng(seed)
    r = rng.normal(size=n) + (0.5 if seed % 3 == 0 else 0.0)
    if seed % 2:
        r = np.round(r)
    for beta in (1, 2, 3, 5, n):
        if n % 2 == 0 and beta == 1:
            beta = 0
        y = band_oracle(r, beta)
        _, best = brute_force_argmax(r, enumerate_band_labels(n, beta))
        assert abs(y.sum()) <= beta
        assert r @ y == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_bag_oracle_is_exact(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 4, size=5)
    ptr = np.concatenate([[0], np.cumsum(sizes)])
    r = rng.normal(size=ptr[-1])
    d = bag_argmax_oracle(r, ptr)
    _, best = brute_force_bags(r, ptr)
    assert r @ d == pytest.approx(best)
    assert all(d[ptr[b]:ptr[b + 1]].sum() == 1 for b in range(5))
    # a constant bag keeps its previous key instance
    r2 = r.copy()
    r2[ptr[0]:ptr[1]] = 0.0
    prev = np.zeros_like(d)
    for b in range(5):
        prev[ptr[b + 1] - 1] = 1.0
    assert bag_argmax_oracle(r2, ptr, prev)[ptr[1] - 1] == 1.0


# --------------------------------------------------------------------------- MLKL
@pytest.mark.parametrize("problem", ["box", "simplex"])
@pytest.mark.parametrize("T", [2, 4])
def test_mlkl_matches_cvxpy(problem, T):
    rng = np.random.default_rng(T)
    n = 30
    X = rng.normal(size=(n, 3))
    k = make_kernel("gaussian", sigma=1.5)
    K = gram(X, kernel=k)
    C = np.where(np.arange(n) < 8, 1.0, 0.3)
    Y = np.where(rng.random((T, n)) < 0.5, 1.0, -1.0)
    diag = 1.0 / C if problem == "simplex" else None
    ref = mlkl_reference(K, Y, C, problem=problem, diag=diag)
    r = mlkl(KernelRowCache(X, kernel=k), Y, C, problem=problem, diag=diag, tol=1e-7,
             max_iter=5000, inner_eps=1e-9, change_tol=0.0)
    assert r.converged
    assert abs(r.objective - ref.objective) <= 1e-4 * abs(ref.objective)
    assert r.lower <= ref.objective + 1e-6 * abs(ref.objective) <= r.objective + 2e-6 * abs(
        ref.objective)
    np.testing.assert_allclose(r.mu, ref.mu, atol=5e-3)


# --------------------------------------------------------------------------- violated label
def test_violated_label_prop4_and_ascent():
    X, y, _ = _ssl_problem(80, 8, seed=3)
    k = make_kernel("gaussian", sigma=gamma_width(X))
    cache = KernelRowCache(X, kernel=k)
    mask = y != 0
    n_pos = ssl_n_pos(int((~mask).sum()), y[mask])
    oracle = functools.partial(sort_oracle_ssl, y_l=y[mask], labelled_mask=mask, n_pos=n_pos)
    rng = np.random.default_rng(0)
    for _ in range(10):
        alpha = rng.random(80) * (rng.random(80) < 0.6)
        W = np.array([sort_oracle_ssl(rng.normal(size=80), None, y[mask], mask, n_pos)
                      for _ in range(3)])
        vl = violated_label(alpha, cache, W, lambda r, f: oracle(r, f), eps=0.0)
        Z = W * alpha
        K = gram(X, kernel=k)
        assert vl.working_max == pytest.approx(np.max(np.einsum("ti,ij,tj->t", Z, K, Z)))
        assert vl.prop4["holds"]
        if vl.prop4["premise"]:
            assert vl.prop4["gain"] > 0 and vl.violated
        if vl.violated:
            ay = alpha * vl.y
            assert ay @ K @ ay == pytest.approx(vl.value)
            assert vl.value > vl.working_max


# --------------------------------------------------------------------------- Algorithm 2
def test_paper_variant_prop4_and_monotone_objective():
    X, y, _ = _ssl_problem(120, 12, seed=1)
    k = make_kernel("gaussian", sigma=gamma_width(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # the outer cap is reached
        r = wellsvm(X, y, 1.0, 0.1, k, variant="paper", eps=1e-4, thr=0.0, max_outer=6,
                    mkl_tol=1e-8, mkl_max_iter=3000, inner_eps=1e-9)
    path = np.array(r.objective_path)
    assert len(path) == 7
    # Theorem 2: p^(t) non-increasing (up to the MLKL tolerance)
    assert np.all(np.diff(path) <= 1e-6 * np.abs(path[:-1]))
    assert all(c["holds"] for c in r.prop4_checks)
    assert all(c["increase"] for c in r.prop4_checks if c["added"])
    assert r.labels.shape == (len(path), 120) and r.mu.shape == (len(path),)
    assert r.mu.sum() == pytest.approx(1.0) and np.all(r.mu >= 0)
    assert np.all(r.labels[:, y != 0] == y[y != 0])
    assert r.n_outer == len(path) - 1 and len(r.n_inner) == len(path)
    # every label satisfies the balance constraint of Prop. 5
    npos = ssl_n_pos(int(np.sum(y == 0)), y[y != 0], "paper")
    assert np.all(np.sum(r.labels[:, y == 0] > 0, axis=1) == npos)


def test_paper_variant_initial_labels_are_the_thresholded_svm():
    X, y, _ = _ssl_problem(100, 10, seed=2)
    k = make_kernel("gaussian", sigma=gamma_width(X))
    with pytest.warns(ConvergenceWarning, match="max_outer=1"):
        r = wellsvm(X, y, 1.0, 0.1, k, variant="paper", max_outer=1)
    mask = y != 0
    s = svc_dual(X[mask], y[mask], 1.0, k, eps=1e-5)
    f = gram(X, X[mask], k) @ (s.alpha * y[mask]) - s.rho
    y0 = sort_oracle_ssl(f, f, y[mask], mask, r.info["n_pos"])
    np.testing.assert_array_equal(r.labels[0], y0)
    np.testing.assert_array_equal(r.info["init_labels"], y0)


@pytest.mark.parametrize("variant", ["paper", "reference"])
def test_both_variants_beat_chance_and_predict_by_the_formula(variant):
    X, y, yt = _ssl_problem(200, 16, seed=0)
    k = make_kernel("gaussian", sigma=0.5 * gamma_width(X))
    r = wellsvm(X, y, 1.0, 0.1, k, variant=variant, random_state=0)
    Xt, ytt = make_moons(200, noise=0.15, random_state=7)
    f = wellsvm_decision_function(r, X, Xt)
    assert np.mean(np.where(f >= 0, 1, -1) == 2 * ytt - 1) > 0.75
    # f(x) = sum_i alpha_i (sum_t mu_t y_ti) k(x_i, x), computed explicitly
    Kt = gram(Xt, X, kernel=k)
    explicit = np.array([sum(r.alpha[i] * sum(r.mu[t] * r.labels[t, i]
                                              for t in range(r.mu.size)) * Kt[j, i]
                             for i in range(X.shape[0])) for j in range(5)])
    np.testing.assert_allclose(f[:5], explicit, rtol=1e-10, atol=1e-12)
    assert r.variant == variant and r.seconds > 0 and len(r.objective_path) >= 1
    if variant == "reference":
        assert np.all(np.diff(r.objective_path) <= 0)  # fval grows by >= 0.1 % per step
        assert r.info["chosen"] in ("svm", "relaxation")
        np.testing.assert_allclose(r.alpha.sum(), 1.0)
        # every label vector is +-1 (the R port's 0 for non-top entries is not replicated)
        for Y in (r.labels, r.info["working_set"], r.info["init_labels"][None],
                  r.info["relaxed_labels"][None]):
            assert set(np.unique(Y)) == {-1.0, 1.0}
        npos = ssl_n_pos(int(np.sum(y == 0)), y[y != 0], "reference")
        assert np.sum(r.labels[0, y == 0] > 0) == npos


def test_precomputed_kernel_gives_the_same_fit():
    X, y, _ = _ssl_problem(80, 10, seed=4)
    k = make_kernel("gaussian", sigma=gamma_width(X))
    K = gram(X, kernel=k)
    a = wellsvm(X, y, 1.0, 0.1, k)
    b = wellsvm(K, y, 1.0, 0.1, "precomputed")
    np.testing.assert_array_equal(a.labels, b.labels)
    np.testing.assert_allclose(a.alpha, b.alpha, atol=1e-6)
    np.testing.assert_allclose(wellsvm_decision_function(b, None, K[:7]),
                               wellsvm_decision_function(a, X, X[:7]), atol=1e-6)


def test_reference_variant_is_seeded():
    X, y, _ = _ssl_problem(80, 10, seed=5)
    k = make_kernel("gaussian", sigma=gamma_width(X))
    a = wellsvm(X, y, kernel=k, variant="reference", random_state=3)
    b = wellsvm(X, y, kernel=k, variant="reference", random_state=3)
    np.testing.assert_array_equal(a.labels, b.labels)
    np.testing.assert_array_equal(a.alpha, b.alpha)


# --------------------------------------------------------------------------- Theorem 1
def test_theorem1_ordering_ssl():
    rng = np.random.default_rng(0)
    n, l = 12, 4
    X = np.vstack([rng.normal(-1, 1, size=(n // 2, 2)), rng.normal(1, 1, size=(n // 2, 2))])
    K = gram(X, kernel=make_kernel("gaussian", sigma=1.0))
    mask = np.zeros(n, dtype=bool)
    mask[[0, 1, 6, 7]] = True
    y_l = np.array([-1.0, -1.0, 1.0, 1.0])
    npos = ssl_n_pos(n - l, y_l)
    C = np.where(mask, 1.0, 0.5)
    B = enumerate_ssl_labels(y_l, mask, npos)
    mip, _ = p_mip(K, B, C)
    well, work = p_wellsvm(K, B, C)
    sdp = p_sdp(K, C, form="ssl", y_l=y_l, labelled_mask=mask, n_pos=npos)
    assert sdp <= well * (1 + 1e-5) and well <= mip * (1 + 1e-6)
    # the numba cutting plane with the heuristic oracle reaches p_WellSVM or stays above it
    yv = np.zeros(n)
    yv[mask] = y_l
    r = wellsvm(K, yv, 1.0, 0.5, "precomputed", eps=0.0, thr=0.0, mkl_tol=1e-8,
                mkl_max_iter=3000, inner_eps=1e-10)
    assert r.objective_path[-1] >= well * (1 - 1e-5)


def test_theorem1_ordering_clustering():
    rng = np.random.default_rng(1)
    n = 8
    X = np.vstack([rng.normal(-1, 1, size=(n // 2, 2)), rng.normal(1, 1, size=(n // 2, 2))])
    K = gram(X, kernel=make_kernel("gaussian", sigma=1.0))
    B = enumerate_band_labels(n, 2, up_to_sign=True)
    mip, _ = p_mip(K, B, 1.0)
    well, _ = p_wellsvm(K, B, 1.0)
    sdp = p_sdp(K, 1.0, form="clustering", beta=2)
    assert sdp <= well * (1 + 1e-5) and well <= mip * (1 + 1e-6)


# --------------------------------------------------------------------------- errors
def test_bad_inputs_raise_naming_the_argument():
    X, y, _ = _ssl_problem(40, 6, seed=0)
    with pytest.raises(ValueError, match="variant"):
        wellsvm(X, y, variant="nope")
    with pytest.raises(ValueError, match="C2"):
        wellsvm(X, y, C2=0.0)
    with pytest.raises(ValueError, match="C1"):
        wellsvm(X, y, C1=-1.0)
    with pytest.raises(ValueError, match="y must"):
        wellsvm(X, np.where(y == 0, 2.0, y))
    with pytest.raises(ValueError, match="both classes"):
        wellsvm(X, np.where(y < 0, 0.0, y))
    with pytest.raises(ValueError, match="y has length"):
        wellsvm(X, y[:-1])
    with pytest.raises(ValueError, match="X must be a square"):
        wellsvm(X, y, kernel="precomputed")
    with pytest.raises(ValueError, match="max_outer"):
        wellsvm(X, y, max_outer=0)
    with pytest.raises(ValueError, match="n_pos"):
        sort_oracle_ssl(np.zeros(4), None, [1.0], np.array([1, 0, 0, 0], bool), 5)
    with pytest.raises(ValueError, match="labelled_mask"):
        sort_oracle_ssl(np.zeros(4), None, [1.0], np.array([1, 0], bool), 1)
    with pytest.raises(ValueError, match="bag_ptr"):
        bag_argmax_oracle(np.zeros(4), [0, 2, 2, 4])
    with pytest.raises(ValueError, match="beta"):
        band_oracle(np.zeros(5), 0)


def test_outer_cap_warns():
    X, y, _ = _ssl_problem(100, 10, seed=6)
    k = make_kernel("gaussian", sigma=0.5 * gamma_width(X))
    with pytest.warns(ConvergenceWarning, match="max_outer"):
        r = wellsvm(X, y, 1.0, 1.0, k, eps=0.0, thr=0.0, max_outer=1)
    assert not r.converged and r.n_outer == 1


# --------------------------------------------------------------------------- golden (slow)
@pytest.mark.slow
def test_rssl_diabetes_split1_reference_variant():
    from weaklabel.data import load
    d = load("rssl-diabetes")
    sp = d.splits
    lab, unl, te = sp["labelled"][0], sp["unlabelled"][0], sp["test"][0]
    X = np.vstack([d.X[lab], d.X[unl]])
    y = np.concatenate([np.where(d.y[lab] > 0, 1.0, -1.0), np.zeros(unl.size)])
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    k = make_kernel("gaussian", gamma=1.0 / D2.mean())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = wellsvm(X, y, 1.0, 0.1, k, variant="reference", random_state=0)
    f = wellsvm_decision_function(r, X, d.X[te])
    acc = np.mean(np.where(f >= 0, 1.0, -1.0) == np.where(d.y[te] > 0, 1.0, -1.0))
    # RSSL / LAMDA MATLAB: 0.7864583 (151 / 192), reproduced exactly with the default inner
    # tolerance 1e-5 (150 / 192 at LIBSVM's 1e-3); one test point is allowed for the inner
    # solver and the random initialisation (a no-op in the R port)
    assert abs(acc - 0.7864583) <= 1.5 / 192, acc  # measured: 151 / 192
