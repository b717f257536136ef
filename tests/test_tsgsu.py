"""TSGSU (Shi et al. 2021): random features, the numba solver and its numpy references."""

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from weaklabel.reference.tsgsu import (
    su_kernel_minimiser,
    tsgsu_exact_kernel,
    tsgsu_iteration_numpy,
    tsgsu_kernel_matrix,
    tsgsu_numpy,
)
from weaklabel.solvers.tsgsu import (
    TSGSUDivergenceError,
    random_feature_block,
    tsgsu,
    tsgsu_point_weights,
)


def su_sample(n_pairs, n_u, prior, rng, d=2, n_test=0):
    """Two Gaussians at +-2 (unit variance) as in Bao et al. 2018: flattened similar
    pairs, unlabelled points and a labelled test set."""
    ps = prior**2 / (prior**2 + (1 - prior) ** 2)
    n_pos = rng.binomial(n_pairs, ps)
    ys = np.r_[np.ones(2 * n_pos), -np.ones(2 * (n_pairs - n_pos))]
    yu = np.where(rng.random(n_u) < prior, 1.0, -1.0)
    yt = np.where(rng.random(n_test) < prior, 1.0, -1.0)
    XS = rng.normal(size=(ys.size, d)) + 2 * ys[:, None]
    XU = rng.normal(size=(n_u, d)) + 2 * yu[:, None]
    Xt = rng.normal(size=(n_test, d)) + 2 * yt[:, None]
    return XS, XU, Xt, yt


@pytest.fixture(scope="module")
def small():
    XS, XU, _, _ = su_sample(15, 30, 0.7, np.random.default_rng(1))
    return XS, XU


# --------------------------------------------------------------------------- random features
@pytest.mark.parametrize("kernel,features", [("rbf", "rff"), ("poly", "maclaurin"),
                                             ("poly", "tensorsketch")])
def test_random_features_unbiased(kernel, features):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 5))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    kw = dict(kernel=kernel, gamma=0.7, degree=3 if kernel == "poly" else 2, scale=1.3,
              features=features, n_features=64, seed=5)
    K = tsgsu_kernel_matrix(X, X, kernel=kernel, gamma=0.7, degree=kw["degree"], scale=1.3)
    n_blocks = 300
    acc = np.zeros_like(K)
    for t in range(1, n_blocks + 1):
        phi = random_feature_block(X, t, **kw)
        acc += phi @ phi.T
    est = acc / n_blocks
    assert np.abs(est - K).max() < 0.06 * max(1.0, np.abs(K).max())
    # one block is noisy: the average is a real improvement
    phi = random_feature_block(X, 1, **kw)
    assert np.abs(est - K).max() < np.abs(phi @ phi.T - K).max()


@pytest.mark.parametrize("kernel,features", [("rbf", "rff"), ("poly", "maclaurin"),
                                             ("poly", "tensorsketch")])
def test_random_features_sparse_equals_dense_and_regenerate(kernel, features):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(7, 30)) * (rng.random((7, 30)) < 0.2)
    kw = dict(kernel=kernel, gamma=0.3, degree=2, features=features, n_features=16, seed=9)
    dense = random_feature_block(X, 4, **kw)
    sparse = random_feature_block(sp.csr_matrix(X), 4, **kw)
    np.testing.assert_allclose(sparse, dense, atol=1e-12)
    np.testing.assert_array_equal(random_feature_block(X, 4, **kw), dense)  # from (seed, t)
    assert not np.allclose(random_feature_block(X, 5, **kw), dense)
    assert dense.shape == (7, 32 if features == "rff" else 16)


# --------------------------------------------------------------------------- gradient pieces
@pytest.mark.parametrize("prior", [0.7, 0.3])
def test_squared_loss_uncorrected_point_weights(prior):
    rng = np.random.default_rng(3)
    fS, fU = rng.normal(size=9), rng.normal(size=11)
    wS, wU, _, _ = tsgsu_point_weights(fS, fU, prior, loss="squared", correction="none")
    ps = prior**2 + (1 - prior) ** 2
    np.testing.assert_allclose(wS * 9, -ps / (2 * prior - 1), rtol=1e-13)
    np.testing.assert_allclose(wU * 11, fU / 2 + 1 / (2 * (2 * prior - 1)), rtol=1e-12)


@pytest.mark.parametrize("loss", ["squared", "double_hinge"])
@pytest.mark.parametrize("correction", ["abs", "relu", "none"])
def test_point_weights_match_numpy_transcription(loss, correction):
    rng = np.random.default_rng(4)
    fS, fU = rng.normal(size=8) * 2, rng.normal(size=6) * 2
    phiS, phiU = rng.normal(size=(8, 5)), rng.normal(size=(6, 5))
    wS, wU, rp, rm = tsgsu_point_weights(fS, fU, 0.65, loss=loss, correction=correction)
    alpha, rp2, rm2 = tsgsu_iteration_numpy(phiS, phiU, fS, fU, 0.65, eta=0.3, loss=loss,
                                            correction=correction)
    assert (rp, rm) == pytest.approx((rp2, rm2), abs=1e-14)
    np.testing.assert_allclose(-0.3 * (phiS.T @ wS + phiU.T @ wU), alpha, atol=1e-13)


# --------------------------------------------------------------------------- solver
@pytest.mark.parametrize("features", ["rff", "tensorsketch"])
def test_numba_run_matches_numpy_transcription(small, features):
    XS, XU = small
    kw = dict(lam=0.05, kernel="rbf" if features == "rff" else "poly", gamma=0.5, scale=0.2,
              n_iter=6, batch_s=10, batch_u=12, n_features=12, eta0=0.8, random_state=3,
              correction="abs")
    r = tsgsu(XS, XU, 0.7, **kw)
    coef, decayed = tsgsu_numpy(XS, XU, 0.7, **kw)
    assert np.abs(coef).max() < 10  # a tame run: the tolerance below is absolute
    np.testing.assert_allclose(r.coef, coef, atol=1e-12, rtol=0)
    w = r.block_weights(r.n_iter_)
    np.testing.assert_allclose(r.coef * w[:, None], decayed, atol=1e-12, rtol=0)


@pytest.mark.parametrize("kernel,features", [("rbf", "rff"), ("poly", "maclaurin")])
def test_faithful_and_cached_modes_agree(kernel, features):
    XS, XU, Xt, _ = su_sample(40, 120, 0.7, np.random.default_rng(5), d=3, n_test=50)
    kw = dict(lam=0.01, kernel=kernel, features=features, gamma=0.4, scale=0.1, degree=2,
              n_iter=12, batch_s=30, batch_u=40, n_features=40, eta0=1.0, random_state=11,
              X_eval=Xt, checkpoints=[0, 3, 12])
    a = tsgsu(XS, XU, 0.7, mode="cached", **kw)
    b = tsgsu(XS, XU, 0.7, mode="faithful", **kw)
    assert np.abs(a.coef).max() < 100  # a tame run: the tolerance below is absolute
    np.testing.assert_allclose(a.coef, b.coef, atol=1e-10, rtol=0)
    np.testing.assert_allclose(a.risk_pos, b.risk_pos, atol=1e-10)
    np.testing.assert_allclose(a.eval_path, b.eval_path, atol=1e-10)
    path = a.decision_path(Xt, [0, 3, 12])
    np.testing.assert_allclose(path, a.eval_path, atol=1e-10)
    np.testing.assert_array_equal(path[0], 0.0)
    np.testing.assert_allclose(a.decision_function(Xt, n_iter=3), path[1], atol=1e-12)
    assert np.all(np.diff(a.time) >= 0) and a.time[-1] > 0
    assert a.objective.shape == (12,) and np.all(np.isfinite(a.objective))


@pytest.mark.parametrize("prior,correction", [(0.7, "abs"), (0.3, "abs"), (0.7, "none"),
                                              (0.3, "none")])
def test_separable_gaussians_accuracy(prior, correction):
    XS, XU, Xt, yt = su_sample(200, 400, prior, np.random.default_rng(1), n_test=1000)
    r = tsgsu(XS, XU, prior, lam=0.01, gamma=0.1, n_iter=60, batch_s=200, batch_u=200,
              n_features=100, eta0=1.0, correction=correction, random_state=1)
    acc = np.mean(r.predict(Xt) == yt)
    assert acc > 0.9


def test_lemma1_gap_shrinks_with_more_features(small):
    XS, XU = small
    X = np.vstack([XS, XU])
    kw = dict(lam=0.1, gamma=0.5, n_iter=30, batch_s=10, batch_u=10, eta0=1.0)
    gaps = []
    for m in (10, 100, 1000):
        g = [np.sqrt(np.mean((tsgsu(XS, XU, 0.7, n_features=m, random_state=s, **kw)
                              .decision_function(X)
                              - tsgsu_exact_kernel(XS, XU, 0.7, random_state=s, **kw)
                              .decision_function(X)) ** 2)) for s in range(4)]
        gaps.append(np.mean(g))
    assert gaps[2] < gaps[1] < gaps[0]
    assert gaps[2] < 0.5 * gaps[0]


def test_su_kernel_minimiser_closed_form_matches_cvxpy(small):
    XS, XU = small
    for prior in (0.7, 0.3):
        a = su_kernel_minimiser(XS, XU, prior, 0.1, 0.5)
        b = su_kernel_minimiser(XS, XU, prior, 0.1, 0.5, method="cvxpy")
        np.testing.assert_allclose(a.f_train, b.f_train, atol=1e-6)
        assert a.objective == pytest.approx(b.objective, abs=1e-7)
        assert a.objective <= b.objective + 1e-9


def test_tsgsu_uncorrected_full_batch_approaches_minimiser(small):
    XS, XU = small
    ref = su_kernel_minimiser(XS, XU, 0.7, 0.1, 0.5)
    r = tsgsu(XS, XU, 0.7, lam=0.1, gamma=0.5, n_iter=300, batch_s=100, batch_u=100,
              n_features=200, eta0=3.0, correction="none", random_state=0)
    f = r.decision_function(np.vstack([XS, XU]))
    assert np.corrcoef(f, ref.f_train)[0, 1] > 0.999
    assert np.linalg.norm(f - ref.f_train) / np.linalg.norm(ref.f_train) < 0.05


def test_faithful_memory_does_not_grow_with_n_u():
    rng = np.random.default_rng(7)
    XS = rng.normal(size=(400, 5))
    kw = dict(lam=0.01, n_iter=5, batch_s=200, batch_u=200, n_features=100, mode="faithful",
              random_state=0)
    tsgsu(XS, XS, 0.7, **kw)  # warm-up: numba compilation / cache loading is traced too
    peaks = {}
    for n_u in (2000, 20000):
        XU = rng.normal(size=(n_u, 5))
        tracemalloc.start()
        tsgsu(XS, XU, 0.7, **kw)
        peaks[n_u] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    # the minibatch replay holds O(b m) floats, nothing of size n_U
    assert peaks[20000] <= 1.02 * peaks[2000]
    assert peaks[2000] < 2_000_000


def test_sparse_input_and_other_losses(small):
    XS, XU = small
    kw = dict(lam=0.05, kernel="poly", degree=2, scale=0.2, n_iter=5, batch_s=10, batch_u=12,
              n_features=16, eta0=0.5, random_state=2)
    for features in ("tensorsketch", "maclaurin"):
        a = tsgsu(XS, XU, 0.7, features=features, **kw)
        b = tsgsu(sp.csr_matrix(XS), sp.csr_matrix(XU), 0.7, features=features,
                  mode="faithful", **kw)
        np.testing.assert_allclose(a.coef, b.coef, atol=1e-10)
        np.testing.assert_allclose(b.decision_function(sp.csr_matrix(XU)),
                                   a.decision_function(XU), atol=1e-10)
    for loss in ("squared", "double_hinge"):
        for correction in ("abs", "relu", "none"):
            r = tsgsu(XS, XU, 0.3, lam=0.01, gamma=0.5, n_iter=5, batch_s=10, batch_u=10,
                      n_features=8, loss=loss, correction=correction, schedule="const",
                      random_state=0)
            assert np.all(np.isfinite(r.coef)) and r.n_iter_ == 5
            np.testing.assert_allclose(r.eta, 1.0 / np.sqrt(5))


# --------------------------------------------------------------------------- bad input
def test_bad_input_names_the_argument(small):
    XS, XU = small
    good = dict(lam=0.1, n_iter=2, batch_s=5, batch_u=5, n_features=4, random_state=0)
    cases = [
        (dict(XU=XU[:, :1]), "XU"),
        (dict(XS=XS[:0]), "XS"),
        (dict(XU=XU[:0]), "XU"),
        (dict(prior=1.2), "prior"),
        (dict(prior=0.0), "prior"),
        (dict(prior=0.5), "prior"),
        (dict(lam=0.0), "lam"),
        (dict(lam=-1.0), "lam"),
        (dict(kernel="laplace"), "kernel"),
        (dict(correction="square"), "correction"),
        (dict(mode="eager"), "mode"),
        (dict(loss="hinge"), "loss"),
        (dict(schedule="exp"), "schedule"),
        (dict(features="rff", kernel="poly"), "features"),
        (dict(eta0=20.0, lam=0.1), "eta0"),
    ]
    for over, name in cases:
        args = dict(XS=XS, XU=XU, prior=0.7, **good)
        args.update(over)
        with pytest.raises(ValueError, match=name):
            tsgsu(args.pop("XS"), args.pop("XU"), args.pop("prior"), **args)
    for bad in (np.nan, np.inf):
        Xb = XS.copy()
        Xb[0, 0] = bad
        with pytest.raises(ValueError, match="XS"):
            tsgsu(Xb, XU, 0.7, **good)
        Xb = XU.copy()
        Xb[1, 1] = bad
        with pytest.raises(ValueError, match="XU"):
            tsgsu(XS, Xb, 0.7, **good)
    with pytest.raises(ValueError, match="0.5"):
        tsgsu(XS, XU, 0.5, **good)


def test_divergence_raises_naming_eta0(small):
    XS, XU = small
    with pytest.raises(TSGSUDivergenceError, match="eta0"):
        tsgsu(XS * 50, XU * 50, 0.7, lam=1e-8, kernel="poly", degree=3, eta0=1e4,
              n_iter=100, batch_s=10, batch_u=10, n_features=8, random_state=0)


def test_vectorised_sincos_matches_libm():
    """The branch-free sin/cos of the random-Fourier kernels (Cody-Waite reduction and
    Taylor polynomials) agrees with libm to 2 ulp of 1 over the range projections take, and
    falls back to libm beyond it."""
    from weaklabel.solvers.tsgsu import _sincos_array
    rng = np.random.default_rng(0)
    z = np.concatenate([rng.normal(size=20000) * 30.0, rng.uniform(-5e5, 5e5, 20000),
                        np.linspace(-7.0, 7.0, 20001), np.pi / 4 * np.arange(-40, 41),
                        [0.0, -0.0, 1e-300, 3e6, -7e7]])
    c, s = _sincos_array(z)
    assert np.abs(c - np.cos(z)).max() <= 4.5e-16
    assert np.abs(s - np.sin(z)).max() <= 4.5e-16
    with pytest.raises(ValueError, match="z must be 1-D"):
        _sincos_array(np.zeros((2, 2)))
