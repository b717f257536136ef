"""Metric, scoring and baseline pieces of the USMO protocol (no solver timing here)."""

import sys

import numpy as np
import pytest

from weaklabel.data import pu_split
from weaklabel.experiments.usmo import (
    SMALL_SETS,
    f1_majority,
    f1_positive,
    load_small,
    measure_fit,
    measure_warm_fit,
    score,
)
from weaklabel.models import RampPU


def test_f1_majority_is_performance_m():
    y = np.array([1, 1, -1, -1, -1])
    # majority class is -1: F1 of the negatives
    assert f1_majority(y, -np.ones(5)) == pytest.approx(100 * 2 * 0.6 / 1.6)
    assert f1_majority(y, np.ones(5)) == 0.0  # NaN -> 0
    # ties go to the negative class (#zeros >= #ones in the authors' code)
    yt = np.array([1, -1])
    assert f1_majority(yt, np.array([-1, -1])) == pytest.approx(100 * 2 * 0.5 / 1.5)
    assert f1_positive(y, np.ones(5)) == pytest.approx(100 * 2 * 0.4 / 1.4)


@pytest.mark.parametrize("name,dataset,pi,p,n,const,value", [
    # digest section 4.3 table: constant predictors give these published cells
    ("Diabetes", "usmo-diabetes", 0.35, 53, 715, -1, 82.3),
    ("Clean1", "usmo-clean1", 0.44, 41, 435, -1, 76.4),
    ("Australian", "usmo-australian", 0.56, 77, 613, 1, 0.0),
    ("Spectf", "usmo-spectf", 0.73, 50, 299, 1, 81.1),
    ("Krvskp", "usmo-krvskp", 0.48, 306, 2890, -1, 73.2),
])
def test_constant_predictor_cells_follow_from_split(name, dataset, pi, p, n, const, value):
    X, y = load_small(dataset)
    split = pu_split(y, pi=pi, rule="usmo", random_state=0)
    assert (len(split.labelled), len(split.unlabelled)) == (p, n)

    class Const:
        def predict(self, Z):
            return np.full(len(Z), const)

    for scoring in ("correct", "demo2"):
        fm, _ = score(Const(), X, y, split, scoring)
        assert round(fm, 1) == value


def test_demo2_scoring_misaligns():
    X, y = load_small("usmo-heart")
    split = pu_split(y, pi=0.44, rule="usmo", random_state=0)

    class Oracle:  # predicts the true label of every row of X
        def predict(self, Z):
            rows = [np.flatnonzero((X == z).all(1))[0] for z in Z]
            return y[rows]

    fm_correct, fp_correct = score(Oracle(), X, y, split, "correct")
    fm_demo2, _ = score(Oracle(), X, y, split, "demo2")
    assert fm_correct == 100.0 and fp_correct == 100.0
    assert fm_demo2 < 100.0
    with pytest.raises(ValueError, match="scoring"):
        score(Oracle(), X, y, split, "other")


def test_small_sets_registry():
    assert len(SMALL_SETS) == 12


def _toy(rng, p=20, n_pos=30, n_neg=50):
    Xp = rng.normal(1.0, 1.0, (p, 2))
    Xu = np.vstack([rng.normal(1.0, 1.0, (n_pos, 2)), rng.normal(-1.0, 1.0, (n_neg, 2))])
    yu = np.r_[np.ones(n_pos), -np.ones(n_neg)]
    return np.vstack([Xp, Xu]), np.r_[np.ones(p), np.zeros(n_pos + n_neg)], Xu, yu


@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
def test_ramp_cccp_decreases_objective_and_classifies(rng, kernel):
    X, s, Xu, yu = _toy(rng)
    m = RampPU(kernel=kernel, lam=1e-2, pi=0.4).fit(X, s)
    assert np.all(np.diff(m.history_) <= 1e-7)
    assert (m.predict(Xu) == yu).mean() > 0.75
    assert m.decision_function(Xu).shape == (len(Xu),)



class _SmallChunks:
    """A fit that allocates 40 MB in 40 kB arrays (below malloc's mmap threshold)."""

    def fit(self, X, s):
        self.parts_ = [np.ones(5000) for _ in range(1000)]
        return self


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resident-set reading")
def test_measure_fit_counts_memory_that_reuses_freed_heap_pages():
    # pages freed before the fit (as after loading a dataset) must not hide the fit's peak
    # 80 MB of small arrays, then a live one above them (so that malloc cannot trim the
    # heap's top by itself), then the 80 MB are freed: their pages stay resident
    junk = [np.ones(5000) for _ in range(2000)]
    pin = np.ones(5000)
    del junk
    _, peak_mb = measure_fit(_SmallChunks(), None, None)
    assert peak_mb >= 30  # without returning free pages to the OS this reads about 0
    assert pin.sum() == 5000


def test_measure_warm_fit_warms_up_on_a_small_subset():
    seen = []

    class Rec:
        def fit(self, X, s):
            seen.append(len(s))
            return self

    X = np.zeros((500, 2))
    s = np.r_[np.ones(100), np.zeros(400)]
    est, seconds, _, warm = measure_warm_fit(Rec, X, s)
    assert seen == [60, 500] and isinstance(est, Rec) and seconds >= 0 and warm >= 0
