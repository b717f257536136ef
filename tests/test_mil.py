"""Multi-instance baselines of the ROI experiment (Li et al. 2013, Sec. 5.2), the ROI metric
(Eqs. (39)-(40), Fig. 6) and the declared ROI substitute data set."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import check_grad

from weaklabel.kernels import gram
from weaklabel.models.mil import (
    EMDD,
    MISVM,
    DiverseDensity,
    MIKernelSVM,
    MiSVM,
    roi_success_rate,
    roi_successes_at_k,
)
from weaklabel.solvers.mil import (
    dd_negative_log_likelihood,
    default_dd_scales,
    diverse_density,
    em_dd,
    instance_mi_svm,
    mi_kernel_gram,
    stack_mil_bags,
    witness_mi_svm,
)
from weaklabel.solvers.smo import smo


def _toy(n_bags=30, m=5, d=3, seed=0):
    """Bags of N(0, I) instances; every other bag is positive and holds one key instance
    from N(4 e_1, 0.3^2 I)."""
    rng = np.random.default_rng(seed)
    bags, y, key = [], [], []
    for i in range(n_bags):
        b = rng.normal(size=(m, d))
        k = -1
        if i % 2 == 0:
            k = int(rng.integers(m))
            b[k] = 0.3 * rng.normal(size=d)
            b[k, 0] += 4.0
        bags.append(b)
        y.append(int(i % 2 == 0))
        key.append(k)
    return bags, np.array(y), np.array(key)


ESTIMATORS = [
    lambda: MiSVM(C1=1.0, C2=1.0),
    lambda: MISVM(C1=10.0, C2=10.0),
    lambda: MIKernelSVM(C1=10.0, C2=10.0),
    lambda: DiverseDensity(n_starts=10, random_state=0),
    lambda: EMDD(n_starts=10, random_state=0),
]
NAMES = ["mi-SVM", "MI-SVM", "MI-Kernel", "DD", "EM-DD"]


@pytest.fixture(scope="module")
def toy():
    return _toy(seed=0), _toy(seed=1)


@pytest.mark.parametrize("make", ESTIMATORS, ids=NAMES)
def test_baseline_learns_toy_and_locates_key(make, toy):
    (bags, y, _), (tb, ty, tk) = toy
    est = make().fit(bags, y)
    assert np.mean(est.predict(tb) == ty) >= 0.9
    loc = est.locate(tb)
    assert loc.dtype == np.int64 and loc.shape == (len(tb),)
    assert np.mean(loc[ty == 1] == tk[ty == 1]) >= 0.9
    scores = est.instance_scores(tb)
    assert [s.shape[0] for s in scores] == [b.shape[0] for b in tb]
    assert np.array_equal(loc, [int(np.argmax(s)) for s in scores])
    masks = [np.arange(b.shape[0]) == k for b, k in zip(tb, tk)]
    r = roi_success_rate(est.decision_function(tb), loc, masks, ty)
    assert r["success_rate"] >= 0.85


def test_mi_svm_keeps_a_positive_per_positive_bag(toy):
    (bags, y, _), _ = toy
    X, ptr = stack_mil_bags(bags)
    res = instance_mi_svm(X, ptr, y, 1.0, 1.0, "gaussian")
    assert res.converged and res.changes[-1] == 0
    for i in np.flatnonzero(y == 1):
        assert np.any(res.instance_labels[ptr[i]:ptr[i + 1]] > 0)
    for i in np.flatnonzero(y == 0):
        assert np.all(res.instance_labels[ptr[i]:ptr[i + 1]] < 0)
    res2 = witness_mi_svm(X, ptr, y, 1.0, 1.0, "gaussian")
    assert res2.converged and res2.witnesses.shape == (int(y.sum()),)
    assert np.all((res2.witnesses >= ptr[:-1][y == 1]) & (res2.witnesses < ptr[1:][y == 1]))


def test_mi_kernel_single_instance_equals_plain_svm():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=40) > 0, 1, 0)
    bags = [x[None, :] for x in X]
    sigma, p, C = 1.3, 2.0, 5.0
    est = MIKernelSVM(C1=C, C2=C, sigma=sigma, power=p, tol=1e-8).fit(bags, y)
    # k^p of the Gaussian kernel of width sigma is the Gaussian kernel of width sigma/sqrt(p)
    K = gram(X, X, "gaussian", sigma=sigma / np.sqrt(p))
    ypm = np.where(y == 1, 1.0, -1.0)
    res = smo(K, ypm, C=C, kernel="precomputed", eps=1e-8)
    Xt = rng.normal(size=(15, 3))
    f_ref = gram(Xt, X, "gaussian", sigma=sigma / np.sqrt(p)) @ (res.alpha * ypm) - res.rho
    f = est.decision_function([x[None, :] for x in Xt])
    np.testing.assert_allclose(f, f_ref, atol=1e-6)
    # linear kernel squared with the feature-space normalisation
    Kb = mi_kernel_gram(X, np.arange(41), kernel="linear", power=2.0)
    G = (X @ X.T) ** 2
    nrm = np.sqrt(np.diag(G))
    np.testing.assert_allclose(Kb, G / nrm[:, None] / nrm[None, :], rtol=1e-12)


def test_mi_kernel_set_kernel_sums_and_normalises():
    rng = np.random.default_rng(0)
    bags = [rng.normal(size=(m, 2)) for m in (1, 3, 2)]
    X, ptr = stack_mil_bags(bags)
    raw = mi_kernel_gram(X, ptr, kernel="gaussian", normalization="none", power=1.5)
    for a in range(3):
        for b in range(3):
            assert np.isclose(raw[a, b], (gram(bags[a], bags[b], "gaussian") ** 1.5).sum())
    size = mi_kernel_gram(X, ptr, kernel="gaussian", normalization="size", power=1.5)
    m = np.diff(ptr)
    np.testing.assert_allclose(size, raw / np.outer(m, m))
    sq = mi_kernel_gram(X, ptr, kernel="gaussian", power=1.5)
    np.testing.assert_allclose(np.diag(sq), 1.0)
    cross = mi_kernel_gram(X, ptr, X[:4], ptr[:3], kernel="gaussian", power=1.5)
    np.testing.assert_allclose(cross, sq[:, :2])


def test_dd_objective_equals_the_noisy_or_formula():
    """The numba pass equals the noisy-or diverse density written out with numpy (product
    form, no log tricks) and its gradient by central differences, over a range of scales
    from near to far instances (the product form stays finite there), with one and several
    instances per bag."""
    rng = np.random.default_rng(5)
    for sizes in ([1] * 9, [3, 1, 4, 2, 5, 2]):
        ptr = np.r_[0, np.cumsum(sizes)].astype(np.int64)
        X = rng.normal(size=(ptr[-1], 3))
        yb = np.where(np.arange(len(sizes)) % 2 == 0, 1.0, -1.0)
        for scale in (1e-3, 0.3, 1.0):
            p = np.r_[X[0] + 0.05, np.full(3, scale)]
            D = ((X - p[:3]) ** 2) @ p[3:]
            prods = np.array([np.prod(1.0 - np.exp(-D[ptr[b]:ptr[b + 1]]))
                              for b in range(len(sizes))])
            want = -np.sum(np.log(np.where(yb > 0, 1.0 - prods, prods)))
            v, g = dd_negative_log_likelihood(p, X, ptr, yb)
            assert np.isclose(v, want, rtol=1e-8)
            h = 1e-6 * np.maximum(1.0, np.abs(p))
            num = [(dd_negative_log_likelihood(p + h[i] * np.eye(6)[i], X, ptr, yb)[0]
                    - dd_negative_log_likelihood(p - h[i] * np.eye(6)[i], X, ptr, yb)[0])
                   / (2 * h[i]) for i in range(6)]
            np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-6 * max(1.0, abs(v)))


def test_dd_gradient_and_optimum_not_worse_than_start(toy):
    (bags, y, _), _ = toy
    X, ptr = stack_mil_bags(bags)
    ypm = np.where(y == 1, 1.0, -1.0)
    x0 = np.r_[X[0] + 0.1, default_dd_scales(X)]
    err = check_grad(lambda q: dd_negative_log_likelihood(q, X, ptr, ypm)[0],
                     lambda q: dd_negative_log_likelihood(q, X, ptr, ypm)[1], x0)
    assert err < 1e-4 * max(1.0, np.linalg.norm(dd_negative_log_likelihood(x0, X, ptr, ypm)[1]))
    res = diverse_density(X, ptr, y, n_starts=6, random_state=0)
    assert res.objective <= res.start_objective
    assert np.all(res.objectives >= res.objective)
    v, _ = dd_negative_log_likelihood(np.r_[res.target, res.scales], X, ptr, ypm)
    assert np.isclose(v, res.objective)
    # every start is an instance of a positive bag, spread over the positive bags
    pos_rows = np.concatenate([np.arange(ptr[i], ptr[i + 1]) for i in np.flatnonzero(y)])
    assert np.all(np.isin(res.starts, pos_rows)) and res.starts.shape == (6,)
    assert np.all(res.scales >= 0)
    r2 = em_dd(X, ptr, y, n_starts=6, random_state=0)
    assert r2.objective <= r2.start_objective
    assert np.isclose(r2.target[0], 4.0, atol=0.6)


def test_dd_noisy_or_by_hand():
    X = np.array([[0.0], [1.0], [2.0]])
    ptr = np.array([0, 2, 3])
    y = np.array([1.0, -1.0])
    t, w = 0.5, 2.0
    D = w * (X[:, 0] - t) ** 2
    pr = np.exp(-D)
    expected = -np.log(1 - (1 - pr[0]) * (1 - pr[1])) - np.log(1 - pr[2])
    v, _ = dd_negative_log_likelihood(np.array([t, w]), X, ptr, y)
    assert np.isclose(v, expected)


def test_roi_metric_hand_made():
    scores = np.array([2.0, 1.0, -1.0, 0.5, 3.0, -2.0])
    located = np.array([0, 1, 0, 2, 1, 0])
    masks = [np.array([1, 0], bool), np.array([1, 0], bool), np.array([1, 1], bool),
             np.array([0, 0, 1], bool), np.array([0, 1], bool), np.array([1], bool)]
    relevant = np.array([1, 1, 1, 0, 0, 1])
    # predicted relevant: 0, 1, 3, 4 -> 4; relevant: 0, 1, 2, 5 -> 4
    # successes: relevant & predicted & hit -> bag 0 only (bag 1 misses; 3, 4 irrelevant)
    r = roi_success_rate(scores, located, masks, relevant)
    assert r["successes"] == 1 and r["n_relevant"] == 4 and r["n_predicted"] == 4
    assert r["relevant_rate"] == 0.25 and r["roi_rate"] == 0.25
    assert r["success_rate"] == 2 * 1 / (4 + 4)
    # harmonic mean of (39) and (40) in general
    r = roi_success_rate([1.0, 1.0, 1.0, -1.0], [0, 0, 0, 0],
                         [[True], [True], [False], [True]], [True, True, False, True])
    h = 2 * r["relevant_rate"] * r["roi_rate"] / (r["relevant_rate"] + r["roi_rate"])
    assert np.isclose(r["success_rate"], h)
    # Fig. 6: ranking 4, 0, 1, 3, 2, 5; hits (masks only) 1, 1, 0, 1, 1, 1 in that order
    assert roi_successes_at_k(scores, located, masks, [1, 2, 3, 4, 6]).tolist() == [1, 2, 2, 3,
                                                                                    5]
    # with relevance: bag 4 and 3 are not relevant
    assert roi_successes_at_k(scores, located, masks, [1, 2, 6], relevant).tolist() == [0, 1,
                                                                                       3]
    with pytest.raises(ValueError, match="located"):
        roi_success_rate(scores, located[:3], masks, relevant)
    with pytest.raises(ValueError, match="located\\[1\\]"):
        roi_success_rate(scores, [0, 5, 0, 0, 0, 0], masks, relevant)
    with pytest.raises(ValueError, match="roi_masks"):
        roi_success_rate(scores, located, masks[:2], relevant)
    with pytest.raises(ValueError, match="relevant"):
        roi_success_rate(scores, located, masks, relevant[:2])
    with pytest.raises(ValueError, match="ks"):
        roi_successes_at_k(scores, located, masks, [7])


# --------------------------------------------------------------------------- the generator
@pytest.fixture(scope="module")
def roi_data():
    from weaklabel.data.mil import make_roi_bags

    return make_roi_bags(n_per_concept=30, random_state=7)


def test_generator_deterministic_and_shapes(roi_data):
    from weaklabel.data.mil import make_roi_bags

    a = make_roi_bags(n_per_concept=3, random_state=11)
    b = make_roi_bags(n_per_concept=3, random_state=11)
    c = make_roi_bags(n_per_concept=3, random_state=12)
    assert all(np.array_equal(u, v) for u, v in zip(a.bags, b.bags))
    assert all(np.array_equal(u, v) for u, v in zip(a.roi_masks, b.roi_masks))
    assert np.array_equal(a.images, b.images)
    assert not np.array_equal(a.images, c.images)
    d = roi_data
    assert len(d) == 150 and d.images.shape == (150, 80, 80)
    assert all(bg.shape == (25, 21) and np.all(np.isfinite(bg)) for bg in d.bags)
    assert np.array_equal(np.bincount(d.concept), [30] * 5)
    assert "COREL" in d.recipe and "cai-coil20" in d.recipe


def test_generator_rois_vary_like_table9(roi_data):
    d = roi_data
    k = d.rois_per_image()
    assert np.all(k >= 1)
    assert all(m.dtype == bool and m.any() for m in d.roi_masks)
    mean = np.array([k[d.concept == c].mean() for c in range(5)])
    # Table 9 order: firework > mountain > castle > waterfall > sunset (~1 on 25 cells)
    names = d.concept_names
    order = [names.index(n) for n in ("firework", "mountain", "castle", "waterfall", "sunset")]
    assert np.all(np.diff(mean[order]) < 0)
    assert mean[names.index("sunset")] < 1.5
    np.testing.assert_allclose(mean, d.expected_rois, rtol=0.25)


def test_generator_roi_patches_show_the_target(roi_data):
    # the ROI patches of a concept are closer to each other than to the background
    d = roi_data
    c = 1
    idx = np.flatnonzero(d.concept == c)
    roi = np.vstack([d.bags[i][d.roi_masks[i]] for i in idx])
    bg = np.vstack([d.bags[i][~d.roi_masks[i]] for i in idx])
    centre = roi.mean(axis=0)
    assert np.median(np.linalg.norm(roi - centre, axis=1)) < np.median(
        np.linalg.norm(bg - centre, axis=1))


def test_roi_splits_protocol():
    from weaklabel.data.mil import roi_splits

    concept = np.repeat(np.arange(5), 100)
    splits = roi_splits(concept, random_state=0)
    assert len(splits) == 10
    for tr, te in splits:
        assert np.array_equal(np.bincount(concept[tr]), [10] * 5)
        assert np.array_equal(np.bincount(concept[te]), [90] * 5)
        assert np.intersect1d(tr, te).size == 0 and tr.size + te.size == 500
    assert not np.array_equal(splits[0][0], splits[1][0])
    again = roi_splits(concept, random_state=0)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(splits, again))
    with pytest.raises(ValueError, match="n_train_per_concept"):
        roi_splits(concept, n_train_per_concept=100)


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("make", ESTIMATORS, ids=NAMES)
def test_bad_input(make, toy):
    (bags, y, _), _ = toy
    est = make()
    with pytest.raises(ValueError, match="bags is empty"):
        est.fit([], [])
    with pytest.raises(ValueError, match=r"bags\[1\] has no instances"):
        est.fit([bags[0], np.empty((0, 3)), bags[2]], [1, 0, 1])
    with pytest.raises(ValueError, match=r"bags\[2\] has 2 features"):
        est.fit([bags[0], bags[1], bags[2][:, :2]], [1, 0, 1])
    with pytest.raises(ValueError, match="y must hold one label per bag"):
        est.fit(bags, y[:-1])
    with pytest.raises(ValueError, match="y must contain both"):
        est.fit(bags[:1], [1])


def test_bad_input_after_fit_and_solvers(toy):
    (bags, y, _), _ = toy
    est = MISVM().fit(bags, y)
    with pytest.raises(ValueError, match=r"bags\[0\] has 2 features but 3"):
        est.decision_function([bags[0][:, :2]])
    X, ptr = stack_mil_bags(bags)
    with pytest.raises(ValueError, match="bag_ptr"):
        instance_mi_svm(X, ptr[::-1], y)
    with pytest.raises(ValueError, match="bag_y"):
        witness_mi_svm(X, ptr, y[:-1])
    with pytest.raises(ValueError, match="normalization"):
        mi_kernel_gram(X, ptr, normalization="max")
    with pytest.raises(ValueError, match="threshold"):
        DiverseDensity(threshold=2.0).fit(bags, y)


def test_parameter_protocol_and_model_selection(toy):
    from sklearn.base import BaseEstimator, clone
    from sklearn.model_selection import GridSearchCV

    (bags, y, _), _ = toy
    est = MISVM(C1=4.0)
    assert not isinstance(est, BaseEstimator)  # bags, not (n_samples, n_features) arrays
    assert clone(est).get_params() == est.get_params() and repr(est) == "MISVM(C1=4.0)"
    with pytest.raises(ValueError, match="Invalid parameter 'C3'"):
        est.set_params(C3=1.0)
    g = GridSearchCV(MISVM(), {"C2": [1.0, 10.0]}, cv=3).fit(bags, y)
    assert g.best_score_ >= 0.9 and g.best_estimator_.score(bags, y) >= 0.9


@pytest.mark.parametrize("solver", [instance_mi_svm, witness_mi_svm])
def test_alternation_cap_warns(solver, toy):
    from weaklabel._validation import ConvergenceWarning

    (bags, y, _), _ = toy
    X, ptr = stack_mil_bags(bags)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        res = solver(X, ptr, y, 10.0, 10.0, "gaussian", max_iter=1)
    assert not res.converged and res.n_iter == 1
