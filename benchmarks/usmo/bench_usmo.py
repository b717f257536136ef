"""USMO speed and memory, as ratios measured in one run (issue 3, item 6).

For each n (unlabelled samples, 100 labelled positives, Adult = LIBSVM a9a, lambda = 0.01,
Gaussian sigma = 1 and linear kernels):

- USMO (numba) vs the cvxpy + Clarabel reference on the same dual (6): time and peak memory;
- USMO vs scikit-learn ``SVC`` (LIBSVM) on a C-SVM of the same size (positives +1 vs
  unlabelled -1, C = 1, same kernel), the speed anchor;
- USMO alone at n = 50 000, 100 000 and 200 000 (synthetic 20-d Gaussian mixture; Adult has
  fewer rows) for the memory target (issue 30: 200 000 within 1 GB), with the growth exponent
  of time in n (least-squares slope of log time on log n over these sizes).

Each fit runs in a fresh process, sequentially (no other fit competes for the cores), after a
warm-up fit of the same method on 60 rows in that process (reported as ``warmup_seconds``:
loading numba's compiled code, cvxpy's first call); its peak memory is the resident-set
high-water mark above the process's resident set before the fit, taken after free heap pages
were returned to the OS (``weaklabel.measure.measure_warm_fit``).

Usage: ``python benchmarks/usmo/bench_usmo.py [--quick] [--big-sizes 50000,100000,200000]``;
writes ``results.csv`` and ``results.md`` next to this file.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import platform
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_meta.py
from _meta import load_line, run_meta, write_meta  # noqa: E402


def _one(method, kernel, n, seed=0, source="adult"):
    from sklearn.svm import SVC

    from weaklabel.experiments.usmo import large_pool
    from weaklabel.measure import measure_warm_fit
    from weaklabel.models.usmo import DoubleHingePU

    rng = np.random.default_rng(seed)
    if source == "adult":
        X, y, *_ = large_pool("libsvm-a9a", positive=1, seed=seed)
    else:  # synthetic mixture, pi = 0.4
        m = n + 1000
        y = np.where(rng.random(m) < 0.4, 1.0, -1.0)
        X = rng.normal(size=(m, 20)) + 0.7 * y[:, None]
    pos = np.flatnonzero(y > 0)
    lab = rng.choice(pos, size=100, replace=False)
    rest = np.setdiff1d(np.arange(len(y)), lab)
    unl = rng.choice(rest, size=n, replace=False)
    Xtr = np.vstack([X[lab], X[unl]])
    s = np.r_[np.ones(100), np.zeros(n)]
    pi = float(np.mean(y > 0))

    def make():
        if method == "LIBSVM C-SVM":
            return SVC(C=1.0, kernel="rbf" if kernel == "gaussian" else "linear", gamma=0.5,
                       cache_size=200)
        return DoubleHingePU(kernel=kernel, sigma=1.0, lam=0.01, prior=pi,
                             solver="qp" if method == "cvxpy+Clarabel" else "usmo")

    # a warm-up fit on 30 positives + 30 unlabelled rows pays the one-off costs (loading
    # numba's compiled code, cvxpy's first canonicalisation); it is timed separately
    est, secs, peak, warm = measure_warm_fit(make, Xtr, s)
    if method == "LIBSVM C-SVM":
        extra = {"n_support": int(est.n_support_.sum())}
    else:
        r = est.result_
        extra = {"objective": float(getattr(r, "dual_objective", getattr(r, "objective", np.nan)))}
        if method == "USMO":
            extra.update(passes=r.passes, pair_updates=r.pair_updates,
                         kernel_rows=r.kernel_rows_computed)
    return {"method": method, "kernel": kernel, "n": n, "source": source, "seconds": secs,
            "peak_mb": peak, "warmup_seconds": warm, **extra}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="small sizes only (a smoke run)")
    ap.add_argument("--big-sizes", default="50000,100000,200000",
                    help="sizes of the USMO-alone runs on synthetic data (comma-separated)")
    args = ap.parse_args(argv)
    sizes = [500, 1000] if args.quick else [500, 1000, 2000, 3000]
    bigs = [5000] if args.quick else [int(v) for v in args.big_sizes.split(",")]
    tasks = []
    for kernel in ("linear", "gaussian"):
        for n in sizes:
            for m in ("USMO", "cvxpy+Clarabel", "LIBSVM C-SVM"):
                tasks.append((m, kernel, n, 0, "adult"))
        for big in bigs:
            tasks.append(("USMO", kernel, big, 0, "synthetic"))
    rows = []
    ctx = mp.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=ctx, max_tasks_per_child=1) as ex:
        for t in tasks:
            try:
                rows.append(ex.submit(_one, *t).result())
            except Exception as exc:  # a solver that runs out of memory is a result too
                rows.append({"method": t[0], "kernel": t[1], "n": t[2], "source": t[4],
                             "error": repr(exc)[:200]})
            print(rows[-1], file=sys.stderr, flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(HERE / "results.csv", index=False, float_format="%.6g")
    meta = run_meta(extra={"args": vars(args)})
    write_meta(HERE / "results_meta.json", meta)
    t = df[df.source == "adult"].pivot_table(index=["kernel", "n"], columns="method",
                                             values=["seconds", "peak_mb"])
    out = pd.DataFrame({
        "USMO s": t[("seconds", "USMO")],
        "QP s": t[("seconds", "cvxpy+Clarabel")],
        "LIBSVM s": t[("seconds", "LIBSVM C-SVM")],
        "QP / USMO time": t[("seconds", "cvxpy+Clarabel")] / t[("seconds", "USMO")],
        "USMO / LIBSVM time": t[("seconds", "USMO")] / t[("seconds", "LIBSVM C-SVM")],
        "USMO MB": t[("peak_mb", "USMO")],
        "QP MB": t[("peak_mb", "cvxpy+Clarabel")],
        "QP / USMO memory": t[("peak_mb", "cvxpy+Clarabel")] / t[("peak_mb", "USMO")].clip(1),
    })
    bigrows = df[df.source == "synthetic"]
    slopes = []
    for kernel, g in bigrows.dropna(subset=["seconds"]).groupby("kernel"):
        if len(g) >= 2:
            b = np.polyfit(np.log(g["n"].astype(float)), np.log(g["seconds"]), 1)[0]
            slopes.append(f"{kernel} n^{b:.2f} over n = {', '.join(str(v) for v in g['n'])}")
    threads = meta["threads"]
    md = [f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; threads {threads}; one fit at a time, each in a "
          f"fresh process after a warm-up fit on 60 rows; {load_line(meta)}.", "",
          out.round(3).to_markdown(), "",
          "USMO at large n (synthetic 20-d mixture, 100 positives; peak MB above the "
          "process's resident set before the fit):", "",
          bigrows[["kernel", "n", "seconds", "peak_mb", "passes", "pair_updates"]]
          .round(2).to_markdown(index=False), "",
          "Growth of time in n: " + ("; ".join(slopes) if slopes else "fewer than 2 sizes") + "."]
    (HERE / "results.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
