"""Measuring fits: wall time, peak memory, and a clean heap before each reading.

Shared by every paper's scaling runs and by the benchmarks:

- :func:`measure_fit`: one fit, its seconds and its peak extra memory (resident-set
  high-water mark on Linux, ``tracemalloc`` elsewhere);
- :func:`measure_warm_fit`: the same after a warm-up fit on a small subset, which pays a new
  process's one-off costs (numba's compiled code, cvxpy's first canonicalisation);
- :func:`best_of`: the best wall time of a few repeats of one call;
- :func:`release_free_heap` and :func:`rss_kb`: the pieces of a memory reading.
"""

from __future__ import annotations

import time
import tracemalloc
import warnings

import numpy as np

__all__ = ["best_of", "measure_fit", "measure_warm_fit", "release_free_heap", "rss_kb"]


def rss_kb(field: str = "VmRSS") -> int | None:
    """A memory field of ``/proc/self/status`` in kB (``VmRSS``: the resident set now,
    ``VmHWM``: its high-water mark); ``None`` when the file or the field is missing (not
    Linux)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:  # pragma: no cover - not Linux
        return None
    return None


def release_free_heap() -> None:
    """Collect garbage and hand free heap pages back to the OS (glibc ``malloc_trim``), so
    that the resident set before a fit is its live memory only. Without it, pages that an
    earlier step freed (loading a dataset, say) stay resident, the fit reuses them, and its
    growth of the resident set under-counts its peak (seen: 0.2 MB instead of 34 MB)."""
    import gc

    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        pass


def measure_fit(est, X, s) -> tuple[float, float]:
    """Fit ``est`` and return (seconds, peak extra memory in MB).

    On Linux the peak is the resident-set high-water mark (``VmHWM``, reset through
    ``/proc/self/clear_refs``) minus the resident set before the fit, taken after free heap
    pages were returned to the OS, so memory allocated by compiled code (numba, the Clarabel
    solver) is counted. Elsewhere it falls back to ``tracemalloc`` (Python/numpy allocations
    only). Run it in a fresh process per fit (the USMO scaling runs do) so that earlier fits
    do not hide later peaks.
    """
    release_free_heap()
    base = rss_kb("VmRSS")
    reset = False
    if base is not None:
        try:
            with open("/proc/self/clear_refs", "w") as fh:
                fh.write("5")
            reset = True
        except OSError:  # pragma: no cover
            reset = False
    if not reset:
        tracemalloc.start()
    t0 = time.perf_counter()
    est.fit(X, s)
    seconds = time.perf_counter() - t0
    if reset:
        peak_mb = max(0, rss_kb("VmHWM") - base) / 1024
    else:  # pragma: no cover
        peak_mb = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return seconds, peak_mb


def measure_warm_fit(make, X, s, *, n_warm=30) -> tuple[object, float, float, float]:
    """Warm up, then :func:`measure_fit`: returns ``(estimator, seconds, peak_mb, warm_s)``.

    ``make()`` builds a fresh estimator. It is first fitted on ``n_warm`` rows with
    ``s = 1`` and ``n_warm`` rows with ``s = 0`` (or fewer), which pays the one-off costs of
    a new process (loading numba's compiled code, cvxpy's first canonicalisation); that
    time is returned as ``warm_s`` and not charged to the measured fit.
    """
    s = np.asarray(s)
    lab, unl = np.flatnonzero(s > 0)[:n_warm], np.flatnonzero(s <= 0)[:n_warm]
    w = np.r_[lab, unl]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warm_s, _ = measure_fit(make(), X[w], s[w])
        est = make()
        seconds, peak_mb = measure_fit(est, X, s)
    return est, seconds, peak_mb, warm_s


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    """Call ``fn()`` ``repeat`` times; return (the smallest wall time in seconds, the last
    result)."""
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out
