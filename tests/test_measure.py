"""weaklabel.measure: fit timing, peak memory and the heap release before a reading."""

import sys
import time

import numpy as np
import pytest

from weaklabel.measure import best_of, measure_fit, measure_warm_fit, release_free_heap, rss_kb

LINUX = sys.platform.startswith("linux")


class _SmallChunks:
    """A fit that allocates 40 MB in 40 kB arrays (below malloc's mmap threshold)."""

    def fit(self, X, s):
        self.parts_ = [np.ones(5000) for _ in range(1000)]
        return self


@pytest.mark.skipif(not LINUX, reason="resident-set reading")
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


class _Sleeper:
    """A fit that takes 1 ms per row of ``s``."""

    def fit(self, X, s):
        time.sleep(1e-3 * len(s))
        self.n_ = len(s)
        return self


def test_measure_fit_times_the_fit_only():
    t0 = time.perf_counter()
    seconds, peak_mb = measure_fit(_Sleeper(), None, np.zeros(80))
    wall = time.perf_counter() - t0
    assert 0.08 <= seconds <= wall
    assert 0.0 <= peak_mb < 50  # sleeping allocates (almost) nothing


def test_measure_warm_fit_warms_up_on_a_small_subset():
    seen = []

    class Rec(_Sleeper):
        def fit(self, X, s):
            seen.append((len(s), int(np.sum(s > 0))))
            return super().fit(X, s)

    X = np.zeros((500, 2))
    s = np.r_[np.ones(100), np.zeros(400)]
    est, seconds, _, warm = measure_warm_fit(Rec, X, s)
    # 30 labelled + 30 unlabelled rows first, then the whole set on a fresh estimator
    assert seen == [(60, 30), (500, 100)]
    assert isinstance(est, Rec) and est.n_ == 500
    # the warm-up (60 ms) is not charged to the measured fit (500 ms)
    assert 0.06 <= warm < 0.5 <= seconds


def test_measure_warm_fit_with_few_rows_of_a_kind():
    seen = []

    class Rec:
        def fit(self, X, s):
            seen.append(len(s))
            return self

    measure_warm_fit(Rec, np.zeros((12, 1)), np.r_[np.ones(2), np.zeros(10)], n_warm=5)
    assert seen == [7, 12]


def test_best_of_returns_the_fastest_call_and_the_last_result():
    calls = []

    def fn():
        calls.append(None)
        time.sleep(0.05 if len(calls) == 1 else 0.01)
        return len(calls)

    seconds, out = best_of(fn, repeat=3)
    assert out == 3 and len(calls) == 3
    assert 0.01 <= seconds < 0.05


@pytest.mark.skipif(not LINUX, reason="/proc/self/status")
def test_rss_fields():
    rss, hwm = rss_kb("VmRSS"), rss_kb("VmHWM")
    assert isinstance(rss, int) and 0 < rss <= hwm
    assert rss_kb("NoSuchField") is None


@pytest.mark.skipif(not LINUX, reason="resident-set reading")
def test_release_free_heap_returns_freed_pages():
    junk = [np.ones(5000) for _ in range(2000)]  # 80 MB in small blocks
    pin = np.ones(5000)  # keeps the heap's top in use
    del junk
    before = rss_kb("VmRSS")
    release_free_heap()
    assert before - rss_kb("VmRSS") > 30 * 1024
    assert pin.sum() == 5000
