"""The numba SMO core (``weaklabel.solvers.smo``) against LIBSVM and the cvxpy reference.

Problem: the C-SVM dual on Adult (LIBSVM a9a, 123 binary features), n random rows, C = 1,
linear and Gaussian (sigma = 1, i.e. gamma = 0.5) kernels, stopping tolerance 1e-3 for
both SMO solvers (LIBSVM's default). LIBSVM is scikit-learn's ``SVC`` computing its own
kernel rows, with and without shrinking; the reference is cvxpy + Clarabel on the dense dual
(only up to ``--qp-max`` rows). Both SMO solvers get the same cache size in MB
(``--cache-mb``, default 200: our ``cache_mb``, scikit-learn's ``cache_size``); our rows
are stored as ``--cache-dtype`` (float64 by default; LIBSVM stores float32).

Kernel evaluations: ours are counted by the row cache (``smo_kernel_values``, with the rows
computed, ``smo_rows``, and the rows evicted, ``smo_evictions``); scikit-learn's LIBSVM does
not expose its count, so ``libsvm_kernel_values`` is left empty and only its iteration count
(``SVC.n_iter_``) is recorded.

Each timing is the best of at least three fits in one process, repeated until the fits of
that solver have taken ``--min-seconds`` (default 1 s) in all (so a 20 ms problem is timed 50
times, as ``timeit`` does: one slow fit on a shared machine does not decide a ratio), after a
warm-up fit (loading numba's compiled code). Ratios are ``other / ours`` measured in the same
run.

Label-kernel case (WellSVM's inner problems, ``label_kernel_dual``): Adult, Gaussian kernel,
two label vectors (the true labels and a copy with 10 % flipped), ``mu = (0.7, 0.3)``; the
``box`` problem (C = 1) and the ``simplex`` problem (``d_i = 1``) at tolerance 1e-3, against
the cvxpy reference (up to ``--qp-max`` rows) and, for ``simplex``, LIBSVM's one-class SVM on
the precomputed ``Q`` (``nu = 1/n``, the same problem; the time to form ``Q`` is reported
apart). Written to ``results_label_kernel.csv`` / ``.md``.

Usage: ``WEAKLABEL_DATA_MIRROR=../shared/datasets python benchmarks/smo/bench_smo.py``;
writes ``results.csv`` and ``results.md`` next to this file.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.svm import SVC, OneClassSVM

from weaklabel.experiments.usmo import large_pool
from weaklabel.kernels import gram, make_kernel
from weaklabel.reference import svm_dual_qp
from weaklabel.reference.smo import label_kernel_dual_reference, label_kernel_matrix
from weaklabel.solvers.smo import KernelRowCache, label_kernel_dual, svc_dual

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_meta.py
from _meta import load_line, run_meta, write_meta  # noqa: E402


def best_timed(fn, repeat: int = 3, min_seconds: float = 1.0):
    """``(smallest wall time, last result)`` over at least ``repeat`` calls of ``fn``,
    continued until the calls have taken ``min_seconds`` in all (at most 1000 calls)."""
    best, out, total, k = np.inf, None, 0.0, 0
    while k < repeat or (total < min_seconds and k < 1000):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best, total, k = min(best, dt), total + dt, k + 1
    return best, out


MIN_SECONDS = 1.0


def dual_objective(X, y, a, k, block: int = 2000) -> float:
    """``1/2 a'Qa - 1'a`` with ``Q = yy' o K``, ``K`` formed ``block`` rows at a time."""
    v = a * y
    Qa = np.concatenate([y[s:s + block] * (gram(X[s:s + block], X, kernel=k) @ v)
                         for s in range(0, X.shape[0], block)])
    return float(0.5 * a @ Qa - a.sum())


def best_of(fn):
    """The timing rule of this script (module docstring)."""
    return best_timed(fn, 3, MIN_SECONDS)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="1000,2000,4000,8000")
    ap.add_argument("--qp-max", type=int, default=2000)
    ap.add_argument("--lk-sizes", default="1000,2000")
    ap.add_argument("--min-seconds", type=float, default=1.0)
    ap.add_argument("--cache-mb", type=float, default=200.0,
                    help="cache size in MB for both SMO solvers (ours and LIBSVM)")
    ap.add_argument("--cache-dtype", default="float64", choices=["float64", "float32"],
                    help="storage of our cached rows")
    ap.add_argument("--kernels", default="linear,gaussian")
    ap.add_argument("--no-shrinking-runs", action="store_true",
                    help="skip the timings without shrinking")
    ap.add_argument("--out", default="results",
                    help="file stem of the C-SVM results (default results -> results.csv)")
    ap.add_argument("--no-label-kernel", action="store_true")
    args = ap.parse_args(argv)
    mb, dt = args.cache_mb, args.cache_dtype
    global MIN_SECONDS
    MIN_SECONDS = args.min_seconds
    X, y, *_ = large_pool("libsvm-a9a", positive=1, seed=0)
    rng = np.random.default_rng(0)
    svc_dual(X[:20], np.where(np.arange(20) % 2, 1.0, -1.0))  # warm-up
    rows = []
    for kname in args.kernels.split(","):
        k = make_kernel(kname, sigma=1.0)
        sk = {"kernel": "linear"} if kname == "linear" else {"kernel": "rbf", "gamma": k.gamma}
        for n in [int(v) for v in args.sizes.split(",")]:
            idx = rng.choice(len(y), size=n, replace=False)
            Xn, yn = X[idx], y[idx]
            t_ours, ours = best_of(lambda Xn=Xn, yn=yn, k=k: svc_dual(
                Xn, yn, 1.0, k, eps=1e-3, cache_mb=mb, cache_dtype=dt))
            t_lib, lib = best_of(lambda Xn=Xn, yn=yn, sk=sk: SVC(C=1.0, tol=1e-3, cache_size=mb,
                                                                 **sk).fit(Xn, yn))
            row = {"kernel": kname, "n": n, "cache_mb": mb, "cache_dtype": dt, "smo_s": t_ours,
                   "libsvm_s": t_lib, "smo_iterations": ours.n_iter,
                   "libsvm_iterations": int(np.sum(lib.n_iter_)),
                   "smo_rows": ours.kernel_rows_computed,
                   "smo_kernel_values": ours.info["kernel_values_computed"],
                   "smo_evictions": ours.info["cache_evictions"],
                   "libsvm_kernel_values": np.nan,  # not exposed by scikit-learn
                   "libsvm_over_smo": t_lib / t_ours}
            if not args.no_shrinking_runs:
                row["smo_no_shrinking_s"], _ = best_of(lambda Xn=Xn, yn=yn, k=k: svc_dual(
                    Xn, yn, 1.0, k, eps=1e-3, shrinking=False, cache_mb=mb, cache_dtype=dt))
                row["libsvm_no_shrinking_s"], _ = best_of(
                    lambda Xn=Xn, yn=yn, sk=sk: SVC(C=1.0, tol=1e-3, cache_size=mb,
                                                    shrinking=False, **sk).fit(Xn, yn))
            # the same optimum: LIBSVM's dual objective against ours
            a = np.zeros(n)
            a[lib.support_] = np.abs(lib.dual_coef_.ravel())
            lib_obj = dual_objective(Xn, yn, a, k)
            row["libsvm_rel_gap"] = abs(ours.objective - lib_obj) / max(1.0, abs(lib_obj))
            if n <= args.qp_max:
                t0 = time.perf_counter()
                ref = svm_dual_qp(gram(Xn, kernel=k), yn, 1.0)
                row["qp_s"] = time.perf_counter() - t0
                row["qp_over_smo"] = row["qp_s"] / t_ours
                row["rel_gap"] = abs(ours.objective - ref.objective) / max(1, abs(ref.objective))
            rows.append(row)
            print(row, flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(HERE / f"{args.out}.csv", index=False, float_format="%.6g")
    meta = run_meta(extra={"args": vars(args)})
    write_meta(HERE / f"{args.out}_meta.json", meta)
    threads = meta["threads"]
    md = [f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; threads {threads}; cache {mb:g} MB for both "
          f"(ours stored as {dt}); best of at least 3 fits per solver (repeated until "
          f"{args.min_seconds:g} s of fits), one process; {load_line(meta)}.", "",
          df.to_markdown(index=False, floatfmt=".4g")]
    (HERE / f"{args.out}.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    if not args.no_label_kernel:
        label_kernel_case(X, y, rng, [int(v) for v in args.lk_sizes.split(",")], args.qp_max,
                          mb)
    return 0


def label_kernel_case(X, y, rng, sizes, qp_max, cache_mb=200.0):
    k = make_kernel("gaussian", sigma=1.0)
    mu = np.array([0.7, 0.3])
    rows = []
    for n in sizes:
        idx = rng.choice(len(y), size=n, replace=False)
        Xn, yn = X[idx], y[idx]
        z2 = np.where(rng.random(n) < 0.1, -yn, yn)
        Z = np.vstack([yn, z2])
        for problem in ("box", "simplex"):
            kw = {"diag": 1.0} if problem == "simplex" else {}
            C = np.inf if problem == "simplex" else 1.0
            t_ours, ours = best_of(lambda Xn=Xn, Z=Z, kw=kw, C=C, problem=problem:
                                   label_kernel_dual(Xn, Z, mu, C, k, problem=problem,
                                                     eps=1e-3, cache_mb=cache_mb, **kw))
            # the same call again on a cache that already holds K's rows (mu changed)
            cache = KernelRowCache(Xn, kernel=k, cache_mb=cache_mb)
            label_kernel_dual(Xn, Z, mu[::-1], C, problem=problem, eps=1e-3, cache=cache,
                              **kw)
            t_warm, warm = best_of(lambda Xn=Xn, Z=Z, cache=cache, kw=kw, C=C, problem=problem:
                                   label_kernel_dual(Xn, Z, mu, C, problem=problem, eps=1e-3,
                                                     cache=cache, **kw))
            row = {"problem": problem, "n": n, "ours_s": t_ours, "ours_iterations": ours.n_iter,
                   "ours_rows": ours.kernel_rows_computed, "ours_reused_cache_s": t_warm,
                   "reused_cache_rows": warm.kernel_rows_computed}
            t0 = time.perf_counter()
            Q = label_kernel_matrix(gram(Xn, kernel=k), Z, mu, kw.get("diag"))
            row["form_Q_s"] = time.perf_counter() - t0
            if problem == "simplex":
                t_oc, oc = best_of(lambda Q=Q, n=n: OneClassSVM(kernel="precomputed", nu=1.0 / n,
                                                           tol=1e-3, cache_size=cache_mb).fit(Q))
                a = np.zeros(n)
                a[oc.support_] = oc.dual_coef_.ravel()
                a /= a.sum()  # LIBSVM scales the one-class dual by nu n = 1
                row["oneclass_s"] = t_oc
                row["oneclass_over_ours"] = t_oc / t_ours
                row["oneclass_rel_gap"] = abs(ours.objective - 0.5 * a @ Q @ a) / max(
                    1.0, abs(ours.objective))
            if n <= qp_max:
                t0 = time.perf_counter()
                ref = label_kernel_dual_reference(gram(Xn, kernel=k), Z, mu, C,
                                                  problem=problem, **kw)
                row["qp_s"] = time.perf_counter() - t0
                row["qp_over_ours"] = row["qp_s"] / t_ours
                row["rel_gap"] = abs(ours.objective - ref.objective) / max(1.0,
                                                                            abs(ref.objective))
            rows.append(row)
            print(row, flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(HERE / "results_label_kernel.csv", index=False, float_format="%.6g")
    write_meta(HERE / "results_label_kernel_meta.json",
               run_meta(extra={"sizes": sizes, "qp_max": qp_max, "cache_mb": cache_mb}))
    md = df.to_markdown(index=False, floatfmt=".4g")
    (HERE / "results_label_kernel.md").write_text(md + "\n")
    print(md)


if __name__ == "__main__":
    raise SystemExit(main())
