"""The numba SMO core (``weaklabel.solvers.smo``) against LIBSVM and the cvxpy reference.

Problem: the C-SVM dual on Adult (LIBSVM a9a, 123 binary features), n random rows, C = 1,
linear and Gaussian (sigma = 1, i.e. gamma = 0.5) kernels, stopping tolerance 1e-3 for
both SMO solvers (LIBSVM's default). LIBSVM is scikit-learn's ``SVC`` computing its own
kernel rows (``cache_size=200`` MB, as our row cache), with and without shrinking; the
reference is cvxpy + Clarabel on the dense dual (only up to ``--qp-max`` rows).

Each timing is the best of three fits in one process (``weaklabel.measure.best_of``), after a
warm-up fit (loading numba's compiled code). Ratios are ``other / ours`` measured in the same run.

Usage: ``WEAKLABEL_DATA_MIRROR=../shared/datasets python benchmarks/smo/bench_smo.py``;
writes ``results.csv`` and ``results.md`` next to this file.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.svm import SVC

from weaklabel.experiments.usmo import large_pool
from weaklabel.kernels import gram, make_kernel
from weaklabel.measure import best_of
from weaklabel.reference import svm_dual_qp
from weaklabel.solvers.smo import svc_dual

HERE = Path(__file__).resolve().parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="1000,2000,4000,8000")
    ap.add_argument("--qp-max", type=int, default=2000)
    args = ap.parse_args(argv)
    X, y, *_ = large_pool("libsvm-a9a", positive=1, seed=0)
    rng = np.random.default_rng(0)
    svc_dual(X[:20], np.where(np.arange(20) % 2, 1.0, -1.0))  # warm-up
    rows = []
    for kname in ("linear", "gaussian"):
        k = make_kernel(kname, sigma=1.0)
        sk = {"kernel": "linear"} if kname == "linear" else {"kernel": "rbf", "gamma": k.gamma}
        for n in [int(v) for v in args.sizes.split(",")]:
            idx = rng.choice(len(y), size=n, replace=False)
            Xn, yn = X[idx], y[idx]
            t_ours, ours = best_of(lambda Xn=Xn, yn=yn, k=k: svc_dual(Xn, yn, 1.0, k, eps=1e-3))
            t_noshr, _ = best_of(lambda Xn=Xn, yn=yn, k=k: svc_dual(Xn, yn, 1.0, k, eps=1e-3,
                                                                    shrinking=False))
            t_lib, _ = best_of(lambda Xn=Xn, yn=yn, sk=sk: SVC(C=1.0, tol=1e-3, cache_size=200,
                                                               **sk).fit(Xn, yn))
            t_lib_ns, _ = best_of(lambda Xn=Xn, yn=yn, sk=sk: SVC(C=1.0, tol=1e-3,
                                                                  cache_size=200,
                                                                  shrinking=False,
                                                                  **sk).fit(Xn, yn))
            row = {"kernel": kname, "n": n, "smo_s": t_ours, "smo_no_shrinking_s": t_noshr,
                   "libsvm_s": t_lib, "libsvm_no_shrinking_s": t_lib_ns,
                   "smo_iterations": ours.n_iter, "smo_rows": ours.kernel_rows_computed,
                   "libsvm_over_smo": t_lib / t_ours}
            if n <= args.qp_max:
                t0 = time.perf_counter()
                ref = svm_dual_qp(gram(Xn, kernel=k), yn, 1.0)
                row["qp_s"] = time.perf_counter() - t0
                row["qp_over_smo"] = row["qp_s"] / t_ours
                row["rel_gap"] = abs(ours.objective - ref.objective) / max(1, abs(ref.objective))
            rows.append(row)
            print(row, flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(HERE / "results.csv", index=False, float_format="%.6g")
    md = [f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; best of 3 fits per solver, one process.", "",
          df.round(4).to_markdown(index=False)]
    (HERE / "results.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
