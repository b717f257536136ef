"""The linear path (``weaklabel.solvers.linear``) against LIBLINEAR, and its memory against N.

(a) Time: ``linear_svm_dual_cd`` against scikit-learn's ``LinearSVC`` (LIBLINEAR's dual
coordinate descent, ``dual=True``) on the same problem, the hinge loss (L1) and the squared
hinge (L2), stopping tolerance 0.1 for both (LIBLINEAR's default; both use the
projected-gradient range ``max PG - min PG``), without and with the bias feature
(``intercept_scaling=1``). Problems: Adult (LIBSVM a9a, 32 561 x 123, CSR, C = 1) and a
seeded sparse random problem (50 000 x 20 000, 50 non-zeros per row, labels from a random
hyperplane with 5 % flipped, C = 0.1: at C = 1 and n = 100 000 one hinge fit takes about
400 epochs and 18 s for either solver, too long for three repeats of eight fits). Each
time is the best of 3 fits after a warm-up fit; the primal objective of both solutions is
reported (``1/2 |w|^2 + 1/2 b^2 + C sum loss``).

(b) Memory: peak traced memory (``tracemalloc``; numpy allocations, ``X`` itself excluded
since it exists before the call) of ``linear_svm_dual_cd`` and ``linear_label_kernel_dual``
(T = 5 label vectors, WellSVM's inner problem) on seeded sparse data, N = 50k, 100k, 200k,
500k, d = 20 000, 50 non-zeros per row, capped at 5 epochs (the memory does not depend on
the number of epochs); the wall time per epoch is reported as well.

(c) WellSVM's inner problem on a9a, the linear path against the kernel path:
``linear_label_kernel_dual`` on CSR rows against ``weaklabel.solvers.smo.label_kernel_dual``
(kernel "linear", a fresh 200 MB row cache per fit; only up to n = 4000, at n = 8000 one
fit took 102 s in a trial run) on n random rows of a9a, T = 3 label
vectors (the labels and two copies with 10 % flipped), ``mu = (0.5, 0.3, 0.2)``, C = 1,
tolerance 1e-3 for both (ours: the projected-gradient range; theirs: the largest violation).
Best of 3; the dual objectives ``1/2 a'Qa - 1'a`` are reported.

Usage: ``WEAKLABEL_DATA_MIRROR=/work/shared/datasets python benchmarks/linear/run.py``;
writes ``results.csv`` next to this file and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import tracemalloc
import warnings
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from weaklabel._validation import ConvergenceWarning
from weaklabel.data import load
from weaklabel.measure import best_of
from weaklabel.solvers.linear import linear_label_kernel_dual, linear_svm_dual_cd
from weaklabel.solvers.smo import label_kernel_dual

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_meta.py
from _meta import run_meta, write_meta  # noqa: E402

HERE = Path(__file__).resolve().parent


def sparse_rows(n: int, d: int, k: int, seed: int):
    """CSR ``(n, d)`` with exactly ``k`` distinct sorted column indices per row (int32) and
    N(0, 1) values, and labels from a random hyperplane with 5 % flipped."""
    rng = np.random.default_rng(seed)
    gaps = rng.integers(1, d // k + 1, size=(n, k), dtype=np.int64)
    cols = np.cumsum(gaps, axis=1)  # strictly increasing, < d + 1
    cols += rng.integers(0, d, size=(n, 1))
    cols %= d
    cols.sort(axis=1)
    X = sp.csr_matrix((rng.standard_normal(n * k), cols.ravel().astype(np.int32),
                       np.arange(0, n * k + 1, k, dtype=np.int32)), shape=(n, d))
    del cols, gaps
    w = rng.standard_normal(d)
    y = np.where(X @ w > 0, 1.0, -1.0)
    flip = rng.random(n) < 0.05
    y[flip] *= -1.0
    return X, y


def primal(X, y, C, w, b, loss):
    h = np.maximum(0.0, 1.0 - y * (X @ w + b))
    return 0.5 * (w @ w + b * b) + C * float(np.sum(h if loss == "l1" else h * h))


def time_rows(name, X, y, C, repeat):
    rows = []
    for loss, skl_loss in (("l1", "hinge"), ("l2", "squared_hinge")):
        for bias in (False, True):
            t_ours, r = best_of(partial(linear_svm_dual_cd, X, y, C, loss=loss, bias=bias,
                                        tol=0.1, random_state=0), repeat)
            svc = LinearSVC(C=C, loss=skl_loss, dual=True, fit_intercept=bias,
                            intercept_scaling=1.0, tol=0.1, max_iter=1000, random_state=0)
            t_ll, m = best_of(partial(svc.fit, X, y), repeat)
            b_ll = float(m.intercept_[0]) if bias else 0.0
            p_ll = primal(X, y, C, m.coef_.ravel(), b_ll, loss)
            rows.append({"part": "time", "problem": name, "n": X.shape[0], "d": X.shape[1],
                         "nnz": X.nnz, "C": C, "loss": loss, "bias": bias,
                         "ours_s": t_ours, "liblinear_s": t_ll, "ratio": t_ours / t_ll,
                         "ours_objective": r.objective, "liblinear_objective": p_ll,
                         "objective_rel_diff": (r.objective - p_ll) / abs(p_ll),
                         "ours_epochs": r.n_iter, "liblinear_epochs": int(m.n_iter_),
                         "ours_converged": r.converged})
            print(f"  {name} {loss} bias={bias}: ours {t_ours:.3f} s, LIBLINEAR {t_ll:.3f} s,"
                  f" objectives {r.objective:.6f} / {p_ll:.6f}", flush=True)
    return rows


def peak(fn):
    tracemalloc.start()
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        out = fn()
    sec = time.perf_counter() - t0
    pk = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return pk, sec, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="50000,100000,200000,500000")
    ap.add_argument("--d", type=int, default=20_000)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--T", type=int, default=5)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--random-n", type=int, default=50_000)
    ap.add_argument("--random-C", type=float, default=0.1)
    ap.add_argument("--lk-sizes", default="1000,2000,4000,32561")
    ap.add_argument("--lk-kernel-max", type=int, default=4000)
    args = ap.parse_args(argv)
    t_start = time.perf_counter()
    ds = load("libsvm-a9a", sparse=True)
    A = ds.X
    # LIBLINEAR (scikit-learn) takes 32-bit indices only
    A = sp.csr_matrix((A.data, A.indices.astype(np.int32), A.indptr.astype(np.int32)),
                      shape=A.shape)
    ya = np.asarray(ds.y, dtype=np.float64)
    linear_svm_dual_cd(A[:200], ya[:200], 1.0)  # warm-up (compiled code loaded)
    linear_label_kernel_dual(A[:200], np.vstack([ya[:200]] * 2), [0.5, 0.5], 1.0)
    rows = time_rows("a9a", A, ya, 1.0, args.repeat)
    Xr, yr = sparse_rows(args.random_n, args.d, args.k, seed=1)
    rows += time_rows("sparse random", Xr, yr, args.random_C, args.repeat)
    del Xr, yr
    rng = np.random.default_rng(2)
    for n in [int(v) for v in args.sizes.split(",")]:
        X, y = sparse_rows(n, args.d, args.k, seed=n)
        Y = np.tile(y, (args.T, 1))
        Y[1:][rng.random((args.T - 1, n)) < 0.1] *= -1.0
        mu = np.full(args.T, 1.0 / args.T)
        x_bytes = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
        for solver, fn in (
                ("linear_svm_dual_cd", partial(linear_svm_dual_cd, X, y, 1.0, tol=0.1,
                                               max_iter=args.epochs, random_state=0)),
                ("linear_label_kernel_dual", partial(linear_label_kernel_dual, X, Y, mu, 1.0,
                                                     tol=0.1, max_iter=args.epochs,
                                                     random_state=0))):
            pk, sec, r = peak(fn)
            rows.append({"part": "memory", "problem": f"sparse random, k={args.k}",
                         "n": n, "d": args.d, "nnz": X.nnz, "solver": solver,
                         "T": 1 if solver == "linear_svm_dual_cd" else args.T,
                         "peak_bytes": pk, "peak_bytes_per_row": pk / n,
                         "X_bytes": x_bytes, "gram_bytes": 8.0 * n * n,
                         "seconds": sec, "core_seconds": r.seconds, "epochs": r.n_iter,
                         "core_s_per_epoch": r.seconds / r.n_iter})
            print(f"  memory {solver} n={n}: peak {pk / 1e6:.1f} MB ({pk / n:.1f} B/row), "
                  f"X {x_bytes / 1e6:.0f} MB, {r.seconds / r.n_iter:.3f} s/epoch", flush=True)
        del X, y, Y, fn
    ya_rng = np.random.default_rng(3)
    for n in [int(v) for v in args.lk_sizes.split(",")]:
        idx = ya_rng.choice(A.shape[0], size=n, replace=False)
        An, yn = A[idx], ya[idx]
        Yn = np.vstack([yn, yn, yn])
        Yn[1:][ya_rng.random((2, n)) < 0.1] *= -1.0
        mu3 = np.array([0.5, 0.3, 0.2])
        Ad = An.toarray()
        t_lin, r_lin = best_of(partial(linear_label_kernel_dual, An, Yn, mu3, 1.0, tol=1e-3,
                                       max_iter=100_000), args.repeat)
        if n <= args.lk_kernel_max:
            t_ker, r_ker = best_of(partial(label_kernel_dual, Ad, Yn, mu3, 1.0, "linear",
                                           eps=1e-3), args.repeat)
            k_obj, k_it = r_ker.objective, r_ker.n_iter
        else:
            t_ker = k_obj = k_it = np.nan
        rows.append({"part": "label_kernel", "problem": "a9a", "n": n, "d": A.shape[1],
                     "nnz": An.nnz, "T": 3, "ours_s": t_lin, "kernel_s": t_ker,
                     "ratio": t_lin / t_ker, "ours_objective": r_lin.objective,
                     "kernel_objective": k_obj,
                     "objective_rel_diff": (r_lin.objective - k_obj) / abs(k_obj),
                     "ours_epochs": r_lin.n_iter, "kernel_iterations": k_it})
        print(f"  label kernel a9a n={n}: linear {t_lin:.3f} s, kernel {t_ker:.3f} s, "
              f"objectives {r_lin.objective:.6f} / {k_obj:.6f}", flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(HERE / "results.csv", index=False)
    total = time.perf_counter() - t_start
    write_meta(HERE / "results_meta.json",
               run_meta(extra={"args": vars(args), "total_seconds": round(total, 1)}))
    print(f"\nwhole script {total:.0f} s; {platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    tm = df[df.part == "time"]
    print("\n| problem | C | loss | bias | ours | LIBLINEAR | ours / LIBLINEAR | objective ours |"
          " objective LIBLINEAR | epochs ours / LIBLINEAR |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in tm.itertuples():
        print(f"| {r.problem} | {r.C:g} | {r.loss} | {r.bias} | {r.ours_s:.3f} s | "
              f"{r.liblinear_s:.3f} s | {r.ratio:.2f}x | {r.ours_objective:.6f} | "
              f"{r.liblinear_objective:.6f} | "
              f"{int(r.ours_epochs)} / {int(r.liblinear_epochs)} |")
    mm = df[df.part == "memory"]
    print("\n| solver | N | nnz | peak traced | bytes per row | X (CSR) | N x N float64 |"
          " s per epoch |")
    print("|---|---|---|---|---|---|---|---|")
    for r in mm.itertuples():
        print(f"| {r.solver} (T={int(r.T)}) | {r.n:,} | {r.nnz:,} | {r.peak_bytes / 1e6:.1f} MB | "
              f"{r.peak_bytes_per_row:.1f} | {r.X_bytes / 1e6:.0f} MB | "
              f"{r.gram_bytes / 1e9:.0f} GB | {r.core_s_per_epoch:.3f} |")
    lk = df[df.part == "label_kernel"]
    print("\n| n | linear path | kernel path | linear / kernel | objective linear |"
          " objective kernel | relative difference | epochs / kernel iterations |")
    print("|---|---|---|---|---|---|---|---|")
    for r in lk.itertuples():
        if np.isnan(r.kernel_s):
            print(f"| {r.n:,} | {r.ours_s:.3f} s | — | — | {r.ours_objective:.6f} | — | — | "
                  f"{int(r.ours_epochs)} / — |")
            continue
        print(f"| {r.n:,} | {r.ours_s:.3f} s | {r.kernel_s:.3f} s | {r.ratio:.3f}x | "
              f"{r.ours_objective:.6f} | {r.kernel_objective:.6f} | "
              f"{r.objective_rel_diff:.1e} | {int(r.ours_epochs)} / "
              f"{int(r.kernel_iterations)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
