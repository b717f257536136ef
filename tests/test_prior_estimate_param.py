"""``prior="estimate"`` on the PU estimators that take a class prior."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from weaklabel.models import ILUISVM, MCLS, NNPU, PNB, UPU, DoubleHingePU, RampPU
from weaklabel.prior import PriorEstimate, estimate_prior

# (estimator, the share its prior means): "unlabelled" -> PriorEstimate.prior, "all" ->
# PriorEstimate.prior_all
CASES = [(DoubleHingePU(kernel="gaussian", random_state=0), "unlabelled"),
         (RampPU(kernel="gaussian"), "unlabelled"), (UPU(random_state=1), "unlabelled"),
         (NNPU(random_state=3), "unlabelled"),
         (MCLS(n_clusters=3, max_iter=20, random_state=0), "all"),
         (MCLS(n_clusters=3, max_iter=20, prior_pool="U", random_state=0), "unlabelled"),
         (ILUISVM(n_clusters=3, max_iter=5, random_state=0), "all"), (PNB(), "all")]
IDS = ["DoubleHingePU", "RampPU", "UPU", "NNPU", "MCLS", "MCLS-U", "ILUISVM", "PNB"]


def _data(n=80, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.4, 1, -1)
    X = rng.standard_normal((n, 2)) + 4.0 * (y[:, None] > 0)
    s = ((y > 0) & (rng.random(n) < 0.5)).astype(int)
    return X, s


def _fit(est, X, s):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, s)


@pytest.mark.parametrize("est, share", CASES, ids=IDS)
def test_estimate_runs_elkan_noto_and_reports_it(est, share):
    X, s = _data()
    m = _fit(est.set_params(prior="estimate"), X, s)
    seed = getattr(est, "random_state", 0)
    ref = estimate_prior(X, s, random_state=seed)
    assert isinstance(m.prior_estimate_, PriorEstimate)
    assert m.prior_estimate_ == ref
    want = ref.prior if share == "unlabelled" else ref.prior_all
    assert m.prior_ == pytest.approx(want, rel=0, abs=0)


@pytest.mark.parametrize("est, share", CASES, ids=IDS)
def test_a_given_prior_is_kept_and_nothing_is_estimated(est, share):
    X, s = _data()
    m = _fit(est.set_params(prior=0.35), X, s)
    assert m.prior_ == 0.35 and m.prior_estimate_ is None


@pytest.mark.parametrize("est", [c[0] for c in CASES[:1]] + [PNB()], ids=["DoubleHingePU",
                                                                            "PNB"])
def test_another_string_is_an_error_naming_prior_and_estimate(est):
    X, s = _data()
    with pytest.raises(ValueError, match="prior must be a number in \\(0, 1\\) or 'estimate'"):
        est.set_params(prior="guess").fit(X, s)
