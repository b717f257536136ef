"""WellSVM clustering against GMMC: time ratio on the same problems, measured in one run.

Li, Tsang, Kwok and Zhou (JMLR 2013, Section 5.3, Fig. 7) report that WellSVM clustering is
about 10 times faster than GMMC (Valizadegan & Jin 2007, an SDP) on average. Here both run
on the same problems: seeded subsamples of N points (N = 60, 100, 131, 200) of three UCI sets
of the clustering stage (Echocardiogram: all 131 points at N = 131; Heart-statlog and
Australian), preprocessed as the stage does (min-max scaling and centring,
``weaklabel.experiments._wellsvm_uci.preprocess``), Gaussian kernel of width sqrt(gamma)
(the paper's rule, ``sigma="gamma"``), C = 1 and the balance ``beta = 0.03 N`` for both.
WellSVM is ``WellSVMClustering`` (label generation on the SMO core, 20 alignment draws);
GMMC is ``weaklabel.models.clustering.GMMC`` (its SDP by cvxpy + SCS). One fit each (GMMC
takes tens of seconds); the ratio is GMMC's time over WellSVM's, and the clustering accuracy
of both is reported so that a reader sees that the two solved the task.

Usage: ``WEAKLABEL_DATA_MIRROR=../shared/datasets python benchmarks/wellsvm/bench_clustering.py``;
writes ``results_clustering.csv`` and ``results_clustering.md`` next to this file.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from weaklabel.experiments._wellsvm_uci import load_dataset, preprocess
from weaklabel.models.clustering import GMMC
from weaklabel.models.wellsvm_weak import WellSVMClustering
from weaklabel.solvers.mmc import clustering_accuracy
from weaklabel.solvers.wellsvm import clustering_beta

HERE = Path(__file__).resolve().parent

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_meta.py
from _meta import run_meta, write_meta  # noqa: E402


def problem(name: str, n: int, seed: int = 0):
    X, y = load_dataset(name)
    if n < X.shape[0]:
        idx = np.sort(np.random.default_rng(seed).choice(X.shape[0], size=n, replace=False))
        X, y = X[idx], y[idx]
    Xp, _ = preprocess(X, X[:1])
    return Xp, y


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sets", default="Echocardiogram,Heart-statlog,Australian")
    ap.add_argument("--sizes", default="60,100,131,200")
    ap.add_argument("--C", type=float, default=1.0)
    args = ap.parse_args(argv)
    WellSVMClustering(C=1.0, random_state=0).fit(np.random.default_rng(0).normal(size=(20, 2)))
    rows = []
    for name in args.sets.split(","):
        n_all = load_dataset(name)[0].shape[0]
        for n in sorted({min(int(v), n_all) for v in args.sizes.split(",")}):
            X, y = problem(name, n)
            beta = clustering_beta(X.shape[0], 0.03)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.perf_counter()
                w = WellSVMClustering(sigma="gamma", C=args.C, beta=beta,
                                      random_state=0).fit(X)
                t_w = time.perf_counter() - t0
                t0 = time.perf_counter()
                g = GMMC(sigma="gamma", C=args.C, beta=beta, max_n=10_000,
                         time_limit=3600.0).fit(X)
                t_g = time.perf_counter() - t0
            row = {"dataset": name, "n": X.shape[0], "wellsvm_s": t_w, "gmmc_s": t_g,
                   "gmmc_over_wellsvm": t_g / t_w,
                   "wellsvm_accuracy": clustering_accuracy(y, w.labels_),
                   "gmmc_accuracy": clustering_accuracy(y, g.labels_) if g.ran_ else np.nan,
                   "gmmc_status": "solved" if g.ran_ else str(g.result_.status),
                   "wellsvm_iterations": w.n_iter_}
            print(row, flush=True)
            rows.append(row)
    df = pd.DataFrame(rows)
    df.to_csv(HERE / "results_clustering.csv", index=False, float_format="%.6g")
    write_meta(HERE / "results_clustering_meta.json", run_meta(extra={"args": vars(args)}))
    ok = df[df.gmmc_status == "solved"]
    geo = float(np.exp(np.log(ok.gmmc_over_wellsvm).mean())) if len(ok) else np.nan
    by_n = ok.groupby("n").gmmc_over_wellsvm.apply(lambda r: float(np.exp(np.log(r).mean())))
    md = [f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, one thread; load average at the end "
          f"{os.getloadavg()[0]:.2f}. One fit per method and problem, same run.", "",
          df.to_markdown(index=False, floatfmt=".4g"), "",
          f"WellSVM's speed-up over GMMC (GMMC seconds / WellSVM seconds), geometric mean over "
          f"the {len(ok)} problems GMMC solved: **{geo:.3g}x** (the paper: about 10x). By N: "
          + ", ".join(f"N = {n}: {v:.3g}x" for n, v in by_n.items()) + "."]
    (HERE / "results_clustering.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
