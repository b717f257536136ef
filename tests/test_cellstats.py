"""The statistic per published cell (weaklabel.cellstats): each rule fires where it must and
not where it must not."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel.cellstats import (
    MIN_RUNS,
    TooFewRuns,
    derived_tolerance,
    mean_band,
    one_class_share,
    rank_of_means_band,
    single_run_band,
    uninformative,
)

RUNS = np.array([0.70, 0.74, 0.72, 0.78, 0.76, 0.71, 0.75, 0.73, 0.77, 0.74])  # sd ~0.026


def test_a_published_mean_outside_two_standard_errors_is_outside_the_mean_band():
    """The point of the mean band: 0.78 is inside mean +- 2 sd of single runs (the old, too
    wide band) but far outside mean +- 2 standard errors of a mean over 10 runs."""
    mb, sb = mean_band(RUNS), single_run_band(RUNS)
    assert sb.contains(0.78) and not mb.contains(0.78)
    assert mb.contains(float(RUNS.mean()))
    se = RUNS.std(ddof=1) / np.sqrt(RUNS.size)
    assert mb.high - mb.center == pytest.approx(2 * se)
    assert sb.high - sb.center == pytest.approx(2 * RUNS.std(ddof=1))


def test_the_papers_own_spread_widens_the_mean_band_by_its_standard_error():
    narrow = mean_band(RUNS)
    wide = mean_band(RUNS, published_pm=0.05, published_reps=10)
    se2 = RUNS.var(ddof=1) / RUNS.size + 0.05 ** 2 / 10
    assert wide.high - wide.center == pytest.approx(2 * np.sqrt(se2))
    assert wide.high > narrow.high
    with pytest.raises(ValueError, match="published_reps is required"):
        mean_band(RUNS, published_pm=0.05)


@pytest.mark.parametrize("fn", [mean_band, single_run_band])
def test_no_band_from_fewer_than_five_runs(fn):
    with pytest.raises(TooFewRuns, match=f"at least {MIN_RUNS}"):
        fn(RUNS[:MIN_RUNS - 1])
    fn(RUNS[:MIN_RUNS])  # five is enough
    with pytest.raises(ValueError, match="NaN"):
        fn(np.r_[RUNS, np.nan])


def test_rank_of_means_separates_clear_orders_and_covers_ties():
    rng = np.random.default_rng(0)
    n = 30
    runs = pd.DataFrame({"A": 0.80 + 0.01 * rng.standard_normal(n),
                         "B": 0.70 + 0.01 * rng.standard_normal(n),
                         "C": 0.60 + 0.01 * rng.standard_normal(n),
                         "D": 0.75 + 0.05 * rng.standard_normal(n),
                         "E": 0.75 + 0.05 * rng.standard_normal(n)})
    a = rank_of_means_band(runs, "A")
    assert (a.center, a.low, a.high) == (1.0, 1.0, 1.0)
    assert not a.contains(2.0)  # must not fire: A is clearly first
    c = rank_of_means_band(runs, "C")
    assert c.low == c.high == 5.0 and not c.contains(4.0)
    d = rank_of_means_band(runs, "D")  # D and E are tied in distribution: both 2 and 3
    assert d.contains(2.0) and d.contains(3.0) and not d.contains(1.0) and not d.contains(5.0)
    lower = rank_of_means_band(-runs, "C", higher_is_better=False)
    assert lower.center == 5.0
    with pytest.raises(TooFewRuns):
        rank_of_means_band(runs.head(4), "A")
    with pytest.raises(ValueError, match="not a column"):
        rank_of_means_band(runs, "Z")


def test_rank_band_is_seeded():
    rng = np.random.default_rng(1)
    runs = pd.DataFrame(rng.random((8, 4)), columns=list("abcd"))
    assert rank_of_means_band(runs, "b", random_state=3) == rank_of_means_band(
        runs, "b", random_state=3)


def test_derived_tolerance_is_half_the_median_gap_with_floors():
    pub = pd.DataFrame({"WellSVM": [0.80, 0.75, 0.90], "SVM": [0.78, 0.70, 0.89],
                        "TSVM": [0.70, 0.60, 0.80]})
    # gaps WellSVM-SVM: 0.02, 0.05, 0.01 -> median 0.02 -> tolerance 0.01
    assert derived_tolerance(pub, ["WellSVM", "SVM"], decimals=3) == pytest.approx(0.01)
    # gaps over the three methods: .02 .08 .05 .10 .01 .09 -> median 0.065 -> 0.0325
    assert derived_tolerance(pub, ["WellSVM", "SVM", "TSVM"], decimals=3) == pytest.approx(
        0.0325)
    # never narrower than one printed unit, nor than the paper's own +-
    assert derived_tolerance(pub, ["WellSVM", "SVM"], decimals=1) == pytest.approx(0.1)
    pm = pd.DataFrame({"WellSVM": [0.03, 0.04, 0.05], "SVM": [0.03, 0.03, 0.02]})
    assert derived_tolerance(pub, ["WellSVM", "SVM"], decimals=3,
                             published_pm=pm) == pytest.approx(0.03)
    with pytest.raises(ValueError, match="at least two"):
        derived_tolerance(pub, ["SVM"], decimals=3)
    with pytest.raises(ValueError, match="not columns"):
        derived_tolerance(pub, ["SVM", "LapSVM"], decimals=3)


def test_uninformative_fires_only_when_the_trivial_predictor_would_agree():
    assert uninformative(published=0.69, tolerance=0.05, trivial=0.67)
    assert not uninformative(published=0.85, tolerance=0.05, trivial=0.67)  # must not fire
    assert not uninformative(published=0.85, tolerance=0.05, trivial=np.nan)
    with pytest.raises(ValueError, match="tolerance"):
        uninformative(0.5, -1.0, 0.5)


def test_one_class_share():
    runs = [np.array([1, 1, 1]), np.array([1, -1, 1]), np.array([-1, -1]), np.array([0, 1])]
    assert one_class_share(runs) == 0.5
    assert one_class_share([np.array([1, -1])]) == 0.0  # must not fire
    with pytest.raises(ValueError, match="empty"):
        one_class_share([np.array([])])
    with pytest.raises(ValueError, match="empty"):
        one_class_share([])
