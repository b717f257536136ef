"""weaklabel.prior: Elkan & Noto's class-prior estimator e1 on PU data with a known prior.

Tolerance, fixed before any run: the estimate of the prior of the unlabelled rows is within
0.05 of its true value at n = 10000, label frequency c = 0.5 and classes 6 standard
deviations apart (overlap Phi(-3) = 0.13 %, so e1's assumption g = c on the positives nearly
holds). Reason: by the delta method, ``d prior / d c = -n_l / (c^2 n_u)`` is at most 1.7 in
magnitude here (prior 0.6) and the standard error of ``c`` (a proportion fitted on >= 1600
positives, averaged over >= 200 held-out ones) about 0.01, so the standard error of the
estimate is at most about 0.015-0.02; 0.05 is about 3 of them, with a little room for the
misfit of a logistic model to a probability that levels off at c.

The first run with this tolerance: the default logistic e1 passed on the single-set data
(priors 0.2, 0.4, 0.6) and failed on a case-control sample (0.374 for 0.308; recorded as a
strict xfail, the bias of e1 the module docstring describes). The formulas are then checked
on their own, at the same tolerance, with the true posterior Pr[s = 1 | x] as ``g``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.dummy import DummyClassifier
from sklearn.svm import LinearSVC

from weaklabel.prior import PriorEstimate, estimate_prior

TOL = 0.05
C_LABEL = 0.5


def _single_set(n, prior, seed, shift=3.0, c=C_LABEL, d=2):
    """One data set; each positive labelled with probability c (single training set)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prior
    X = rng.normal(size=(n, d))
    X[:, 0] += np.where(y, shift, -shift)
    s = (y & (rng.random(n) < c)).astype(int)
    return X, s, y


def _truth(s, y):
    """(positive share of the unlabelled rows, positive share of all rows)."""
    u = s == 0
    return float(y[u].mean()), float(y.mean())


@pytest.mark.parametrize("prior", [0.2, 0.4, 0.6])
def test_single_training_set_priors(prior):
    X, s, y = _single_set(10_000, prior, seed=int(prior * 100))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no clipping warning on a well-posed problem
        est = estimate_prior(X, s, random_state=0)
    pi_u, pi_all = _truth(s, y)
    assert isinstance(est, PriorEstimate) and est.method == "elkan-noto-e1"
    assert abs(est.prior - pi_u) <= TOL, (est, pi_u)
    assert abs(est.prior_all - pi_all) <= TOL, (est, pi_all)
    assert abs(est.c - C_LABEL) <= TOL, est
    assert not est.clipped and est.prior == est.prior_raw and float(est) == est.prior
    # the two formulas are tied: prior_all = (n_l + prior n_u) / n
    n = est.n_labelled + est.n_unlabelled
    assert est.prior_all == pytest.approx((est.n_labelled + est.prior * est.n_unlabelled) / n)


class _TruePosterior(ClassifierMixin, BaseEstimator):
    """``g(x) = Pr[s = 1 | x]`` of the generating process (classes N(+-shift e_1, I)).

    ``mode="single"``: ``c Pr[y = +1 | x]`` at population prior ``prior``;
    ``mode="case-control"``: ``n_l p(x|+) / (n_l p(x|+) + n_u p(x))`` with
    ``ratio = n_l / n_u``. With it, e1's only error is sampling: it checks the formulas.
    """

    def __init__(self, mode="single", prior=0.4, c=C_LABEL, ratio=1.0, shift=3.0):
        self.mode, self.prior, self.c, self.ratio, self.shift = mode, prior, c, ratio, shift

    def fit(self, X, s):
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X):
        r = np.exp(np.clip(2.0 * self.shift * np.asarray(X)[:, 0], -700, 700))  # p+/p-
        marg = self.prior * r + 1.0 - self.prior  # p(x) / p(x|-)
        if self.mode == "single":
            g = self.c * self.prior * r / marg
        else:
            g = self.ratio * r / (self.ratio * r + marg)
        return np.column_stack([1.0 - g, g])


def _case_control(n_l, n_u, prior, seed, shift=3.0):
    rng = np.random.default_rng(seed)
    yu = rng.random(n_u) < prior
    Xu = rng.normal(size=(n_u, 2))
    Xu[:, 0] += np.where(yu, shift, -shift)
    Xl = rng.normal(size=(n_l, 2))
    Xl[:, 0] += shift
    X = np.vstack([Xl, Xu])
    s = np.r_[np.ones(n_l, int), np.zeros(n_u, int)]
    return X, s, yu


@pytest.mark.parametrize("prior", [0.2, 0.4, 0.6])
@pytest.mark.parametrize("c", [0.3, 0.5])
def test_formula_single_set_with_the_true_posterior(prior, c):
    X, s, y = _single_set(10_000, prior, seed=11, c=c)
    est = estimate_prior(X, s, estimator=_TruePosterior("single", prior, c), random_state=0)
    pi_u, pi_all = _truth(s, y)
    assert abs(est.prior - pi_u) <= TOL and abs(est.prior_all - pi_all) <= TOL, (est, pi_u)


@pytest.mark.parametrize("prior", [0.2, 0.4, 0.6])
def test_formula_case_control_with_the_true_posterior(prior):
    """Labelled positives drawn apart from an unlabelled sample of the marginal."""
    n_l, n_u = 1000, 5000
    X, s, yu = _case_control(n_l, n_u, prior, seed=7)
    g = _TruePosterior("case-control", prior, ratio=n_l / n_u)
    est = estimate_prior(X, s, estimator=g, random_state=1)
    assert abs(est.prior - yu.mean()) <= TOL, (est, yu.mean())


@pytest.mark.xfail(strict=True, reason=(
    "measured: the default logistic e1 gives 0.374 for a true 0.308 (c = 0.348 for "
    "n_l / (n_l + n_u pi) = 0.394): a logistic g cannot level off at c, so c comes out low "
    "and the prior high (the bias the module docstring describes); beyond TOL here"))
def test_case_control_sample_default_logistic():
    X, s, yu = _case_control(1000, 5000, 0.3, seed=7)
    est = estimate_prior(X, s, random_state=1)
    assert abs(est.prior - yu.mean()) <= TOL, (est, yu.mean())


def test_overlapping_classes_overestimate():
    """e1's assumption fails (means 1 sd apart): the prior comes out too high, beyond TOL."""
    X, s, y = _single_set(10_000, 0.4, seed=3, shift=0.5)
    est = estimate_prior(X, s, random_state=0)
    pi_u, _ = _truth(s, y)
    assert est.prior - pi_u > TOL, (est, pi_u)


def test_seeded_and_estimator_is_cloned():
    X, s, _ = _single_set(2000, 0.4, seed=5)
    a = estimate_prior(X, s, random_state=3)
    b = estimate_prior(X, s, random_state=np.random.default_rng(3))
    assert a == b
    from sklearn.linear_model import LogisticRegression
    lr = LogisticRegression()
    estimate_prior(X, s, estimator=lr, random_state=3)
    assert not hasattr(lr, "coef_")  # the given estimator is not fitted in place
    assert a.n_holdout_labelled == round(0.2 * a.n_labelled)


@pytest.mark.parametrize("constant, side", [(0, "high"), (1, "low")])
def test_clipping_warns(constant, side):
    X, s, _ = _single_set(500, 0.4, seed=6)
    dummy = DummyClassifier(strategy="constant", constant=constant)
    with pytest.warns(UserWarning, match="outside \\(0, 1\\); clipped"):
        est = estimate_prior(X, s, estimator=dummy, random_state=0)
    assert est.clipped and 0.0 < est.prior < 1.0
    n_u = est.n_unlabelled
    assert est.prior == (n_u / (n_u + 1.0) if side == "high" else 1.0 / (n_u + 1))


def test_errors_name_the_argument():
    X, s, y = _single_set(200, 0.4, seed=8)
    with pytest.raises(ValueError, match="s must be a 0/1 indicator"):
        estimate_prior(X, np.where(y, 1, -1))
    with pytest.raises(ValueError, match="s has length 199"):
        estimate_prior(X, s[:-1])
    with pytest.raises(ValueError, match="X must be 2-D"):
        estimate_prior(X[:, 0], s)
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match="holdout must lie strictly between 0 and 1"):
            estimate_prior(X, s, holdout=bad)
    with pytest.raises(TypeError, match="holdout must be a real number"):
        estimate_prior(X, s, holdout=True)
    with pytest.raises(TypeError, match="estimator must be a scikit-learn classifier"):
        estimate_prior(X, s, estimator=LinearSVC())
    with pytest.raises(TypeError, match="random_state must be"):
        estimate_prior(X, s, random_state="seed")

    class Renamed(ClassifierMixin, BaseEstimator):
        def fit(self, X, s):
            self.classes_ = np.array(["unlabelled", "labelled"])
            return self

        def predict_proba(self, X):
            return np.full((len(X), 2), 0.5)

    with pytest.raises(ValueError, match="estimator's classes_ are"):
        estimate_prior(X, s, estimator=Renamed())
    one = np.zeros_like(s)
    one[np.flatnonzero(s)[0]] = 1
    with pytest.raises(ValueError, match="s has 1 labelled positive"):
        estimate_prior(X, one)
    # not fired: the same data with valid arguments, two labelled positives
    two = one.copy()
    two[np.flatnonzero(s)[1]] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert estimate_prior(X, two, holdout=0.5, random_state=0).n_holdout_labelled == 1
    assert 0.0 < estimate_prior(X, s, holdout=0.3, random_state=0).prior < 1.0
