"""TSGSU's cost against ``n_U`` in its cached mode (``f`` on every training point, updated
after every iteration) and its lazy mode (``f`` brought up to date only on the points a
minibatch draws), one process, one thread.

Problem: as ``bench_tsgsu.py`` (Breiman's waveform, standardised, 5000 similar pairs,
``n_U`` unlabelled points), Gaussian kernel ``gamma = 2^-3``, ``lam = 2^-7``, ``eta0 = 1``
and the estimator's defaults: 100 iterations, batches of 1000 + 1000, 1000 random
frequencies. Per (mode, n_U): the training time the solver records (``time[-1]``), the
process CPU seconds of the fit and the row-block products computed for ``f`` on the
training points (``info["f_rows"]``).

Usage: ``python benchmarks/tsgsu/bench_lazy.py [--sizes 10000 30000 100000]
[--modes cached lazy]``; prints one CSV line per fit (append it to a file yourself).
"""

from __future__ import annotations

import argparse
import os
import time


def _data(n_u: int, seed: int = 0):
    from weaklabel.data.generators import breiman_waveform
    from weaklabel.data.su import make_su_data
    n = int(1.4 * (10000 + n_u + n_u // 3))
    X, y = breiman_waveform(n, positive_class=0, random_state=seed)
    X = (X - X.mean(0)) / X.std(0)
    return make_su_data(X, y, n_pairs=5000, n_unlabelled=n_u, random_state=seed)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10000, 30000, 100000])
    ap.add_argument("--modes", nargs="+", default=["cached", "lazy"])
    ap.add_argument("--n-iter", type=int, default=100)
    args = ap.parse_args()
    from weaklabel.solvers.tsgsu import tsgsu
    threads = {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                               "NUMBA_NUM_THREADS")}
    print(f"# load at start {os.getloadavg()[0]:.2f}; threads {threads}", flush=True)
    print("mode,n_u,n_s_points,train_s,cpu_s,f_rows,load1", flush=True)
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
            print(f"{mode},{n_u},{d.XS.shape[0]},{r.time[-1]:.2f},{cpu:.2f},"
                  f"{r.info['f_rows']},{os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
