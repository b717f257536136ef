"""Proxy accuracy and proxy AUC of weaklabel.metrics: unbiasedness, selection, errors.

Unbiasedness is checked on many draws of a PU sample from two 1-D Gaussians with a fixed
classifier, where the true accuracy and AUC are known in closed form: the mean over the
draws must be within 4 standard errors (of that mean, from the draws) of the truth, and a
wrong prior (or the uncorrected proxy AUC) must be further than 4 standard errors away.
Model selection: the acceptance bound of issue 31, within 2 points of the oracle.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV
from sklearn.naive_bayes import GaussianNB

from weaklabel.metrics import (
    make_pu_accuracy_scorer,
    pu_auc_scorer,
    pu_corrected_auc,
    pu_proxy_accuracy,
    pu_proxy_auc,
)
from weaklabel.models import DoubleHingePU, GaussianNBPU

PI = 0.3          # class prior of the unlabelled rows
MU = 1.0          # classes N(+MU, 1) and N(-MU, 1)
T = 0.3           # the fixed classifier: +1 where x >= T
R = 400           # draws
N_L, N_U = 50, 200


def _draws(seed, r=R):
    """``r`` case-control PU samples: N_L labelled positives, N_U rows of the marginal."""
    rng = np.random.default_rng(seed)
    xl = rng.normal(MU, 1.0, size=(r, N_L))
    yu = rng.random((r, N_U)) < PI
    xu = rng.normal(size=(r, N_U)) + np.where(yu, MU, -MU)
    s = np.r_[np.ones(N_L, int), np.zeros(N_U, int)]
    return np.hstack([xl, xu]), s


def _within(values, truth, k=4.0):
    values = np.asarray(values)
    se = values.std(ddof=1) / np.sqrt(values.size)
    return abs(values.mean() - truth) <= k * se, values.mean(), se


TPR = norm.cdf(MU - T)
TNR = norm.cdf(T + MU)
ACC = PI * TPR + (1 - PI) * TNR
AUC = norm.cdf(2 * MU / np.sqrt(2))


def test_proxy_accuracy_is_unbiased():
    X, s = _draws(0)
    proxy = [pu_proxy_accuracy(s, x >= T, PI) for x in X]
    ok, mean, se = _within(proxy, ACC)
    assert ok, (mean, ACC, se)


def test_proxy_accuracy_with_a_wrong_prior_is_biased():
    """Bias ``(prior - pi)(2 TPR - 1)``: seen beyond 4 standard errors, of the derived size."""
    X, s = _draws(1)
    wrong = PI + 0.2
    proxy = [pu_proxy_accuracy(s, x >= T, wrong) for x in X]
    ok, mean, se = _within(proxy, ACC)
    assert not ok, (mean, ACC, se)
    assert _within(proxy, ACC + 0.2 * (2 * TPR - 1))[0]


def test_proxy_auc_and_its_correction():
    X, s = _draws(2)
    pu = np.array([pu_proxy_auc(s, x) for x in X])
    corr = np.array([pu_corrected_auc(s, x, PI) for x in X])
    assert _within(pu, PI / 2 + (1 - PI) * AUC)[0], (pu.mean(), AUC)
    assert _within(corr, AUC)[0], (corr.mean(), AUC)
    # must not agree: the uncorrected proxy is not the true AUC, nor the correction at a
    # wrong prior
    assert not _within(pu, AUC)[0]
    wrong = np.array([pu_corrected_auc(s, x, PI + 0.2) for x in X[:100]])
    assert not _within(wrong, AUC)[0]


def test_exact_values():
    s = np.array([1, 1, 0, 0, 0, 0])
    pred = np.array([1, -1, 1, -1, -1, -1])
    # TPR_L = 1/2, NR_U = 3/4: 2 * 0.2 * 0.5 + 0.75 - 0.2
    assert pu_proxy_accuracy(s, pred, 0.2) == pytest.approx(0.75)
    assert pu_proxy_accuracy(s, pred > 0, 0.2) == pu_proxy_accuracy(s, (pred > 0) * 1, 0.2)
    f = np.array([3.0, 0.0, 1.0, 0.0, -1.0, -2.0])
    assert pu_proxy_auc(s, f) == pytest.approx(roc_auc_score(s, f))
    # pairs (L, U): 3 beats all 4; 0 beats 2, ties 1, loses 1 -> (4 + 2.5) / 8
    assert pu_proxy_auc(s, f) == pytest.approx(6.5 / 8)
    assert pu_corrected_auc(s, f, 0.5) == pytest.approx((6.5 / 8 - 0.25) / 0.5)


def _problem(n, seed, prior=0.4, d=4):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < prior, 1, -1)
    X = rng.normal(size=(n, d))
    X[:, 0] += np.where(y > 0, 1.2, -1.2)
    X[:, 1] += 0.8 * np.sin(2 * X[:, 0])
    return X, y


GRID = {"sigma": [0.1, 0.3, 1.0, 3.0, 10.0], "lam": [1e-3, 1e-2, 1e-1]}
PRIOR = 0.4


@pytest.fixture(scope="module")
def selection_problem():
    """Case-control PU sample (150 labelled positives, 450 unlabelled at prior 0.4) and
    every grid point's true accuracy and AUC on 2000 held-out rows of the marginal."""
    Xu, _ = _problem(450, 0)
    Xp_all, yp = _problem(800, 1)
    Xl = Xp_all[yp > 0][:150]
    X = np.vstack([Xl, Xu])
    s = np.r_[np.ones(len(Xl), int), np.zeros(len(Xu), int)]
    Xt, yt = _problem(2000, 2)
    acc, auc = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in itertools.product(GRID["sigma"], GRID["lam"]):
            m = DoubleHingePU(kernel="gaussian", sigma=k[0], lam=k[1], prior=PRIOR).fit(X, s)
            acc[k] = m.score(Xt, yt)
            auc[k] = roc_auc_score(yt, m.decision_function(Xt))
    return X, s, acc, auc


@pytest.mark.parametrize("scoring, target", [
    (make_pu_accuracy_scorer(PRIOR), "acc"), (make_pu_accuracy_scorer(), "acc"),
    (pu_auc_scorer, "auc")], ids=["proxy_accuracy", "proxy_accuracy_estimator_prior",
                                  "proxy_auc"])
def test_grid_search_within_two_points_of_the_oracle(selection_problem, scoring, target):
    """The chosen model's true accuracy (AUC for the proxy AUC) is within 0.02 of the best."""
    X, s, acc, auc = selection_problem
    truth = acc if target == "acc" else auc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = GridSearchCV(DoubleHingePU(kernel="gaussian", prior=PRIOR), GRID, scoring=scoring,
                         cv=3).fit(X, s)
    chosen = truth[(g.best_params_["sigma"], g.best_params_["lam"])]
    assert max(truth.values()) - chosen <= 0.02, (g.best_params_, chosen, max(truth.values()))


def test_auc_scorer_uses_predict_proba_without_decision_function():
    X, s = _draws(3, r=1)
    X = X.reshape(-1, 1)
    m = GaussianNB().fit(X, s)
    assert not hasattr(m, "decision_function")
    assert pu_auc_scorer(m, X, s) == pytest.approx(roc_auc_score(s, m.predict_proba(X)[:, 1]))


def test_errors_name_the_argument():
    s = np.array([1, 1, 0, 0, 0, 0])
    pred = np.array([1, -1, 1, -1, -1, -1])
    with pytest.raises(ValueError, match="s must be a 0/1 indicator"):
        pu_proxy_accuracy(np.where(s > 0, 1, -1), pred, 0.3)
    with pytest.raises(ValueError, match="s has no labelled positives"):
        pu_proxy_auc(np.zeros(6), pred)
    with pytest.raises(ValueError, match="pred must hold predicted classes"):
        pu_proxy_accuracy(s, pred * 0.5, 0.3)
    with pytest.raises(ValueError, match="pred has length 5"):
        pu_proxy_accuracy(s, pred[:5], 0.3)
    with pytest.raises(ValueError, match="scores has length 5"):
        pu_proxy_auc(s, pred[:5])
    with pytest.raises(ValueError, match="scores contains NaN"):
        pu_proxy_auc(s, np.r_[np.nan, pred[1:]])
    for bad in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match="prior must lie strictly between 0 and 1"):
            pu_proxy_accuracy(s, pred, bad)
        with pytest.raises(ValueError, match="prior must lie strictly between 0 and 1"):
            pu_corrected_auc(s, pred, bad)
        with pytest.raises(ValueError, match="prior must lie strictly between 0 and 1"):
            make_pu_accuracy_scorer(bad)
    X = np.r_[np.linspace(1, 2, 20), np.linspace(-1, 1.5, 40)].reshape(-1, 1)
    s60 = np.r_[np.ones(20, int), np.zeros(40, int)]
    m = GaussianNBPU().fit(X, s60)
    with pytest.raises(ValueError, match="proxy accuracy scorer needs a class prior"):
        make_pu_accuracy_scorer()(m, X, s60)

    class NoScores:
        def predict(self, X):
            return np.ones(len(X))

    with pytest.raises(TypeError, match="estimator NoScores has neither"):
        pu_auc_scorer(NoScores(), X, s60)
    # not fired: valid inputs
    assert np.isfinite(make_pu_accuracy_scorer(0.3)(m, X, s60))
    assert 0.0 <= pu_auc_scorer(m, X, s60) <= 1.0
    assert pu_proxy_accuracy(s.astype(bool), pred, 0.3) == pu_proxy_accuracy(s, pred, 0.3)
