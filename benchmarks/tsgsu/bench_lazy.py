"""TSGSU's cost against ``n_U`` in each of its modes, one process, one thread: ``auto`` (the
default: cached while that computes no more row-block products than the paper's mode, else
lazy), ``cached`` (``f`` on every training point, updated after every iteration), ``lazy``
(``f`` brought up to date only on the points a minibatch draws) and ``faithful`` (the
paper's Algorithm 2: every earlier block replayed on each minibatch).

Problem: as ``bench_tsgsu.py`` (Breiman's waveform, standardised, 5000 similar pairs,
``n_U`` unlabelled points), Gaussian kernel ``gamma = 2^-3``, ``lam = 2^-7``, ``eta0 = 1``
and the estimator's defaults: 100 iterations, batches of 1000 + 1000, 1000 random
frequencies. Per (mode, n_U): the training time the solver records (``time[-1]``), the
process CPU seconds of the fit and the row-block products computed for ``f`` on the
training points (``info["f_rows"]``).

Usage: ``python benchmarks/tsgsu/bench_lazy.py [--sizes 10000 100000 300000]
[--modes auto cached lazy faithful] [--out benchmarks/tsgsu/results_modes.csv]``; prints
one CSV line per fit and writes the table (``mode_run``: the mode ``auto`` ran) and its
``<stem>_meta.json`` (machine, load, threads) when done.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # benchmarks/_meta.py
from _meta import run_meta, write_meta  # noqa: E402


def _data(n_u: int, seed: int = 0):
    from weaklabel.data.generators import breiman_waveform
    from weaklabel.data.su import make_su_data
    n = int(1.4 * (10000 + n_u + n_u // 3))
    X, y = breiman_waveform(n, positive_class=0, random_state=seed)
    X = (X - X.mean(0)) / X.std(0)
    return make_su_data(X, y, n_pairs=5000, n_unlabelled=n_u, random_state=seed)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000, 300000])
    ap.add_argument("--modes", nargs="+", default=["auto", "cached", "lazy", "faithful"])
    ap.add_argument("--n-iter", type=int, default=100)
    ap.add_argument("--out", type=Path, default=HERE / "results_modes.csv")
    args = ap.parse_args()
    import pandas as pd

    from weaklabel.solvers.tsgsu import tsgsu
    threads = {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                               "NUMBA_NUM_THREADS")}
    print(f"# load at start {os.getloadavg()[0]:.2f}; threads {threads}", flush=True)
    print("mode,mode_run,n_u,n_s_points,train_s,cpu_s,f_rows,load1", flush=True)
    rows = []
    for n_u in args.sizes:
        d = _data(n_u)
        for mode in args.modes:
            tsgsu(d.XS[:50], d.XU[:50], d.prior, lam=2.0 ** -7, gamma=2.0 ** -3, n_iter=2,
                  batch_s=10, batch_u=10, n_features=10, mode=mode, random_state=0)
            c0 = time.process_time()
            r = tsgsu(d.XS, d.XU, d.prior, lam=2.0 ** -7, gamma=2.0 ** -3, eta0=1.0,
                      n_iter=args.n_iter, batch_s=1000, batch_u=1000, n_features=1000,
                      mode=mode, random_state=0)
            cpu = time.process_time() - c0
            rows.append({"mode": mode, "mode_run": r.mode, "n_u": n_u,
                         "n_s_points": d.XS.shape[0], "train_s": round(r.time[-1], 3),
                         "cpu_s": round(cpu, 3), "f_rows": int(r.info["f_rows"]),
                         "load1": round(os.getloadavg()[0], 2)})
            print(",".join(str(v) for v in rows[-1].values()), flush=True)
    tmp = args.out.with_suffix(".tmp")
    pd.DataFrame(rows).to_csv(tmp, index=False)
    os.replace(tmp, args.out)
    write_meta(args.out.with_name(args.out.stem + "_meta.json"),
               run_meta(extra={"args": {k: str(v) for k, v in vars(args).items()}}))


if __name__ == "__main__":
    main()
