"""Benchmark of the LS-SVC solver and of MCLS (writes benchmarks/mcls/results.csv).

For n in SIZES (rows of the standardised banana data set, L = 20 % of the positives):

- ``lssvc_solve``: one LS-SVC solve for a new label vector with the reused Cholesky factor,
  against a naive dense solve of the (n+1) system (``numpy.linalg.solve``) and against the
  cvxpy reference (dual QP, Clarabel; only up to ``CVXPY_MAX``);
- ``mcls_run``: a whole MCLS run from the same ILU labels: factor once + O(n^2) iterations,
  against re-solving the full system from scratch at every iteration;
- ``mcls_iterations``: iterations to convergence.

Ratios are ``other / ours`` measured in the same run. Usage::

    WEAKLABEL_DATA_MIRROR=../shared/datasets python benchmarks/mcls/bench_mcls.py
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from weaklabel.experiments.mcls import load_dataset, standardize
from weaklabel.kernels import gram
from weaklabel.measure import best_of
from weaklabel.models._mcls_labels import ilu_labels
from weaklabel.reference.lssvm import lssvc_reference
from weaklabel.solvers.lssvm import LSSVCFactor, dense_solve
from weaklabel.solvers.mcls import mcls_loop

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_meta.py
from _meta import run_meta, write_meta  # noqa: E402

SIZES = [int(v) for v in os.environ.get("BENCH_SIZES", "500,1000,2000,5000").split(",")]
CVXPY_MAX = int(os.environ.get("BENCH_CVXPY_MAX", "5000"))
SIGMA, C, R_EPS = 0.7, 1.0, 0.05


class DenseEveryIteration:
    """Factor-free LS-SVC: the (n+1) system is solved from scratch for every label vector."""

    def __init__(self, K, C):
        self.K, self.C, self.n = K, C, K.shape[0]
        self.dinv = np.full(self.n, 1 / (2 * C))

    def solve(self, y):
        return dense_solve(self.K, y, self.C)

    def scores(self, y, a, b):
        return self.K @ a


def main(argv=None) -> int:
    import argparse

    argparse.ArgumentParser(description=__doc__).parse_args(argv)  # no options; --help
    X, y, _ = load_dataset("banana")
    rng = np.random.default_rng(0)
    r = float(np.mean(y > 0))
    rows = []
    Kw = gram(X[:200], X[:200], "gaussian", sigma=SIGMA)  # warm-up (imports, BLAS threads)
    LSSVCFactor(Kw, C).solve(np.ones(200))
    dense_solve(Kw, np.ones(200), C)
    for n in SIZES:
        idx = rng.choice(X.shape[0], size=n, replace=False)
        Xn, _ = standardize(X[idx], X[idx[:1]])
        yn = y[idx]
        pos = np.flatnonzero(yn > 0)
        s = np.zeros(n, bool)
        s[rng.choice(pos, size=int(round(0.2 * pos.size)), replace=False)] = True
        K = gram(Xn, Xn, "gaussian", sigma=SIGMA)
        t_fac, fac = best_of(lambda K=K: LSSVCFactor(K, C), repeat=1)
        ylab = np.where(rng.random(n) < r, 1.0, -1.0)
        t_solve, _ = best_of(lambda fac=fac, ylab=ylab: fac.solve(ylab))
        t_dense, _ = best_of(lambda K=K, ylab=ylab: dense_solve(K, ylab, C), repeat=1)
        rows.append({"benchmark": "lssvc_solve", "n": n, "ours_seconds": t_solve,
                     "other": "dense (n+1) solve", "other_seconds": t_dense,
                     "ratio": t_dense / t_solve, "note": f"factorisation once: {t_fac:.3f} s"})
        if n <= CVXPY_MAX:
            ref = lssvc_reference(K, ylab, C, form="dual")
            rows.append({"benchmark": "lssvc_solve", "n": n, "ours_seconds": t_solve + t_fac,
                         "other": "cvxpy dual QP (Clarabel)", "other_seconds": ref["seconds"],
                         "ratio": ref["seconds"] / (t_solve + t_fac),
                         "note": "ours includes the factorisation"})
        y0 = ilu_labels(Xn, s, r, sigma=SIGMA, K=K, random_state=0)
        t0 = time.perf_counter()
        fast = mcls_loop(LSSVCFactor(K, C), y0, s, r, eps=R_EPS)
        t_fast = time.perf_counter() - t0
        t0 = time.perf_counter()
        slow = mcls_loop(DenseEveryIteration(K, C), y0, s, r, eps=R_EPS)
        t_slow = time.perf_counter() - t0
        same = bool(np.array_equal(fast.labels, slow.labels))
        rows.append({"benchmark": "mcls_run", "n": n, "ours_seconds": t_fast,
                     "other": "dense re-solve per iteration", "other_seconds": t_slow,
                     "ratio": t_slow / t_fast,
                     "note": f"{fast.n_iter} iterations ({fast.stop_reason}); same labels: {same}"})
        rows.append({"benchmark": "mcls_iterations", "n": n, "ours_seconds": np.nan,
                     "other": "", "other_seconds": np.nan, "ratio": np.nan,
                     "note": f"{fast.n_iter} ({fast.stop_reason})"})
        print(rows[-2], flush=True)
    df = pd.DataFrame(rows)
    df["machine"] = f"{platform.machine()} {os.cpu_count()} cpu, {platform.python_version()}"
    out = Path(__file__).with_name("results.csv")
    df.to_csv(out, index=False, float_format="%.4g")
    write_meta(out.with_name("results_meta.json"), run_meta(extra={
        "sizes": SIZES, "cvxpy_max": CVXPY_MAX}))
    print(df.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
