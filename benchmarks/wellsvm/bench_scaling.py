"""WellSVM at growing n on Adult: time per fit, memory, and the kernel-row cache's work.

Problem: n random rows of Adult (LIBSVM a9a, 123 binary features, min-max scaled as
``weaklabel.experiments.usmo.large_pool``), 10 % of them labelled (random), C1 = 1,
C2 = 0.1, Gaussian kernel with the paper's width ``sigma = sqrt(gamma)``
(:func:`weaklabel.solvers.wellsvm.gamma_width`, ratio 1), the solver
:func:`weaklabel.solvers.wellsvm.wellsvm` with its defaults. Each (variant, n) is one fit
in a fresh process (so that the peak resident memory, ``ru_maxrss``, is that fit's, numba's
compiled code loaded from its cache beforehand by a fit on 200 rows), with the cache budget
``--cache-mb`` (default ``all``: a budget that holds all of K at each n; ``auto``: the
package's automatic size, all of K when it needs at most 1024 MB; or a number) and storage
``--cache-dtype``. Recorded: wall time, peak memory, the cache budget, rows computed,
requests and full scans served from the cache, rows evicted, kernel values computed.

Usage::

    WEAKLABEL_DATA_MIRROR=../shared/datasets python benchmarks/wellsvm/bench_scaling.py \\
        --sizes 2000,5000,10000 --variants reference,paper

Writes ``results_scaling.csv`` / ``.md`` next to this file (``--out`` changes the stem).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_meta.py
from _meta import load_line, run_meta, write_meta  # noqa: E402


def one_fit(variant: str, n: int, cache_mb, cache_dtype: str, seed: int) -> dict:
    import importlib
    import resource
    import time

    import numpy as np

    from weaklabel.experiments.usmo import large_pool
    from weaklabel.kernels import make_kernel

    ws = importlib.import_module("weaklabel.solvers.wellsvm")  # the module, not the function

    X, y, *_ = large_pool("libsvm-a9a", positive=1, seed=0)
    rng = np.random.default_rng(seed)
    warm = rng.choice(len(y), size=200, replace=False)  # load the compiled code
    yl = np.where(rng.random(200) < 0.1, y[warm], 0.0)
    yl[:2] = [1.0, -1.0]
    ws.wellsvm(X[warm], yl, 1.0, 0.1, make_kernel("gaussian", sigma=ws.gamma_width(X[warm])),
               variant=variant, cache_dtype=cache_dtype)
    idx = rng.choice(len(y), size=n, replace=False)
    Xn, yn = np.ascontiguousarray(X[idx]), y[idx]
    lab = rng.random(n) < 0.1
    lab[np.flatnonzero(yn > 0)[0]] = lab[np.flatnonzero(yn < 0)[0]] = True
    ys = np.where(lab, yn, 0.0)
    k = make_kernel("gaussian", sigma=ws.gamma_width(Xn))
    caches = []
    orig = ws.KernelRowCache

    def keep(*a, **kw):
        c = orig(*a, **kw)
        caches.append(c)
        return c

    ws.KernelRowCache = keep
    t0 = time.perf_counter()
    if cache_mb == "all":  # every row of K, with 1 MB to spare
        cache_mb = n * n * np.dtype(cache_dtype).itemsize / 2.0**20 + 1.0
    res = ws.wellsvm(Xn, ys, 1.0, 0.1, k, variant=variant, cache_mb=cache_mb,
                     cache_dtype=cache_dtype)
    seconds = time.perf_counter() - t0
    ws.KernelRowCache = orig
    c = caches[-1]
    st = c.stats()
    f = ws.wellsvm_decision_function(res, Xn, Xn[~lab])
    return {"variant": variant, "n": n, "seconds": seconds,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
            "cache_mb": c.budget_mb, "cache_dtype": np.dtype(c.dtype).name,
            "holds_all_rows": c.holds_all_rows, "rows_computed": c.misses,
            "hits": c.hits, "scans": st["scans"], "scan_hits": st["scan_hits"],
            "evictions": st["evictions"], "kernel_values": st["kernel_values"],
            "n_outer": res.n_outer, "unlabelled_accuracy":
                float(np.mean(np.where(f >= 0, 1.0, -1.0) == yn[~lab]))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="10000,20000")
    ap.add_argument("--variants", default="reference,paper")
    ap.add_argument("--cache-mb", default="all",
                    help="MB, 'auto' (the package's size) or 'all' (all of K; the default)")
    ap.add_argument("--cache-dtype", default="float64", choices=["float64", "float32"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="results_scaling")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    mb = args.cache_mb if args.cache_mb in ("auto", "all") else float(args.cache_mb)
    if args.one is not None:  # child process: one fit, JSON on stdout
        variant, n = args.one.split(":")
        print(json.dumps(one_fit(variant, int(n), mb, args.cache_dtype, args.seed)))
        return 0
    import pandas as pd

    rows = []
    for variant in args.variants.split(","):
        for n in [int(v) for v in args.sizes.split(",")]:
            cmd = [sys.executable, __file__, "--one", f"{variant}:{n}", "--cache-dtype",
                   args.cache_dtype, "--seed", str(args.seed)]
            if mb is not None:
                cmd += ["--cache-mb", str(mb)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            row = json.loads(out.strip().splitlines()[-1])
            rows.append(row)
            print(row, flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(HERE / f"{args.out}.csv", index=False, float_format="%.6g")
    meta = run_meta(extra={"args": vars(args)})
    write_meta(HERE / f"{args.out}_meta.json", meta)
    threads = meta["threads"]
    md = [f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; threads {threads}; one fit per process; "
          f"{load_line(meta)}.", "",
          df.to_markdown(index=False, floatfmt=".4g")]
    (HERE / f"{args.out}.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
