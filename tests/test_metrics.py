"""weaklabel.metrics: PU criteria and scorers that select models on (X, s) alone."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, cross_val_score

from weaklabel.metrics import (
    lee_liu_criterion,
    make_pu_risk_scorer,
    pu_recall2_scorer,
    pu_unbiased_risk,
)
from weaklabel.models import DoubleHingePU, GaussianNBPU

PRIOR = 0.4
GRID = {"sigma": [0.1, 0.3, 1.0, 3.0, 10.0], "lam": [1e-3, 1e-2, 1e-1]}


def _problem(n, seed, prior=PRIOR, d=4):
    """Two classes, shifted along feature 0 and bent along feature 1 (labels +1 / -1)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < prior, 1, -1)
    X = rng.normal(size=(n, d))
    X[:, 0] += np.where(y > 0, 1.2, -1.2)
    X[:, 1] += 0.8 * np.sin(2 * X[:, 0])
    return X, y


@pytest.fixture(scope="module")
def pu_problem():
    X, y = _problem(600, 0)
    Xt, yt = _problem(2000, 1)  # held-out labelled data: the true accuracies
    s = ((y > 0) & (np.random.default_rng(2).random(y.size) < 0.3)).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        acc = {k: DoubleHingePU(kernel="gaussian", sigma=k[0], lam=k[1], prior=PRIOR)
               .fit(X, s).score(Xt, yt)
               for k in itertools.product(GRID["sigma"], GRID["lam"])}
    return X, s, y, acc


@pytest.mark.parametrize("scoring", [pu_recall2_scorer, make_pu_risk_scorer(PRIOR),
                                     make_pu_risk_scorer()],
                         ids=["pu_recall2", "pu_risk_01", "pu_risk_01_estimator_prior"])
def test_grid_search_on_x_s_picks_a_good_model(pu_problem, scoring):
    X, s, _, acc = pu_problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = GridSearchCV(DoubleHingePU(kernel="gaussian", prior=PRIOR), GRID, scoring=scoring,
                         cv=3).fit(X, s)
    chosen = acc[(g.best_params_["sigma"], g.best_params_["lam"])]
    assert max(acc.values()) - chosen <= 0.02, (g.best_params_, chosen, max(acc.values()))


def test_cross_val_score_on_x_s(pu_problem):
    X, s, _, _ = pu_problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sc = cross_val_score(DoubleHingePU(kernel="gaussian", sigma=3.0, prior=PRIOR), X, s,
                             scoring=make_pu_risk_scorer(loss="sigmoid"), cv=3)
    assert sc.shape == (3,) and np.all(np.isfinite(sc)) and np.all(sc < 0.5)


def test_unbiased_risk_estimates_the_error_rate(pu_problem):
    """The zero-one PU risk on (X, s) is close to the error against the true labels."""
    X, s, y, _ = pu_problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = DoubleHingePU(kernel="gaussian", sigma=3.0, lam=1e-2, prior=PRIOR).fit(X, s)
    f = m.decision_function(X)
    U = s == 0
    # the risk uses U as a sample of the marginal: compare with the error on U at U's prior
    prior_u = float(np.mean(y[U] > 0))
    risk = pu_unbiased_risk(s, f, prior_u)
    err_u = float(np.mean(np.where(f[U] >= 0, 1, -1) != y[U]))
    assert abs(risk - err_u) < 0.05
    # pure algebra: risk = prior E_P[f<0] - prior E_P[f>=0] + E_U[f>=0]
    P = s == 1
    expect = prior_u * np.mean(f[P] < 0) - prior_u * np.mean(f[P] >= 0) + np.mean(f[U] >= 0)
    assert risk == pytest.approx(expect)
    sig = pu_unbiased_risk(s, f, prior_u, loss="sigmoid")
    assert 0.0 < sig < 1.0


def test_lee_liu_criterion():
    s = np.array([1, 1, 0, 0, 0, 0, 0, 0])
    pred = np.array([1, -1, 1, -1, -1, -1, -1, -1])
    # recall 1/2, Pr[f=+1] = 2/8
    assert lee_liu_criterion(s, pred) == pytest.approx(0.25 / 0.25)
    assert lee_liu_criterion(s, pred > 0) == lee_liu_criterion(s.astype(bool), pred)
    assert lee_liu_criterion(s, -np.ones(8)) == 0.0
    assert np.isnan(lee_liu_criterion(np.zeros(8), pred))


def test_scorer_errors():
    X, y = _problem(60, 3)
    s = (y > 0).astype(int)
    m = GaussianNBPU().fit(X, s)
    with pytest.raises(ValueError, match="needs a class prior"):
        make_pu_risk_scorer()(m, X, s)
    with pytest.raises(ValueError, match="loss must be one of"):
        make_pu_risk_scorer(0.3, loss="hinge")
    with pytest.raises(ValueError, match="prior must lie strictly between 0 and 1"):
        make_pu_risk_scorer(1.5)
    with pytest.raises(ValueError, match="s must be a 0/1 indicator"):
        pu_recall2_scorer(m, X, y)  # true labels are not a PU indicator
    assert make_pu_risk_scorer(0.3)(m, X, s) <= 1.0
