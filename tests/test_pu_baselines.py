"""uPU, nnPU and the biased SVM (weaklabel.models.pu).

Bounds fixed before the first run: on the separable problem (two Gaussian blobs 6 standard
deviations apart) every estimator reaches accuracy >= 0.95; nnPU's training estimate of the
negative-class risk ends >= -0.02 (the overshoot of at most a few Adam steps, beta = 0).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from weaklabel._validation import ConvergenceWarning
from weaklabel.models import NNPU, UPU, BiasedSVM


def _pu(n, shift, seed=0, prior=0.4, label_rate=0.3):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < prior, 1, -1)
    X = rng.standard_normal((n, 2)) + shift * (y[:, None] > 0)
    s = ((y > 0) & (rng.random(n) < label_rate)).astype(int)
    prior_u = float(np.sum((y > 0) & (s == 0)) / np.sum(s == 0))
    return X, y, s, prior_u


def test_nnpu_keeps_the_negative_risk_from_going_below_zero_where_upu_does_not():
    X, _, s, pu = _pu(300, 1.5)
    kw = dict(prior=pu, kernel="gaussian", sigma=0.3, lam=1e-6, max_iter=600, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        u = UPU(**kw).fit(X, s)
        n = NNPU(**kw).fit(X, s)
    assert u.negative_risk_ < -0.02            # uPU overfits: its estimate goes negative
    assert n.n_corrections_ > 0                # the correction fired
    assert n.negative_risk_ >= -0.02
    assert n.history_[-50:, 1].min() >= -0.02  # and stays there to the end


def test_nnpu_is_upu_while_the_negative_risk_stays_non_negative():
    X, _, s, pu = _pu(600, 1.5)
    u = UPU(prior=pu).fit(X, s)
    n = NNPU(prior=pu).fit(X, s)
    assert u.history_[:, 1].min() >= 0 and n.n_corrections_ == 0
    np.testing.assert_array_equal(n.coef_, u.coef_)
    assert n.intercept_ == u.intercept_


@pytest.mark.parametrize("est", [UPU(), NNPU(), NNPU(kernel="gaussian", random_state=0),
                                 BiasedSVM()], ids=["upu", "nnpu", "nnpu-kernel", "biased"])
def test_accuracy_on_a_separable_pu_problem(est):
    X, y, s, pu = _pu(400, 6.0, seed=1)
    if "prior" in est.get_params():
        est.set_params(prior=pu)
    Xt, yt, _, _ = _pu(400, 6.0, seed=2)
    with warnings.catch_warnings():  # separable: the linear risk keeps falling as |w| grows
        warnings.simplefilter("ignore", ConvergenceWarning)
        assert est.fit(X, s).score(Xt, yt) >= 0.95


@pytest.mark.parametrize("est, name", [
    (NNPU(prior=0.3, kernel="quadratic"), "kernel"), (NNPU(prior=0.3, gamma=2.0), "gamma"),
    (NNPU(prior=0.3, beta=-1.0), "beta"), (UPU(prior=None), "prior"),
    (UPU(prior=0.3, lam=-1.0), "lam"), (UPU(prior=0.3, max_iter=0), "max_iter"),
    (UPU(prior=0.3, kernel="gaussian", n_basis=0), "n_basis"),
    (BiasedSVM(pos_weight=-1.0), "pos_weight"), (BiasedSVM(pos_weight="auto"), "pos_weight"),
    (BiasedSVM(C=0.0), "C"), (BiasedSVM(max_iter=0), "max_iter")])
def test_bad_parameters_are_errors_naming_them(est, name):
    X, _, s, _ = _pu(40, 3.0)
    with pytest.raises(ValueError, match=name):
        est.fit(X, s)


def test_convergence_warning_at_max_iter_and_not_on_a_default_fit():
    X, _, s, pu = _pu(200, 3.0)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        m = NNPU(prior=pu, max_iter=3).fit(X, s)
    assert not m.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert NNPU(prior=pu).fit(X, s).converged_
