"""Linear WellSVM at the paper's largest size: the claim "< 1000 s on > 500 000 instances".

Li, Tsang, Kwok and Zhou (JMLR 2013) report, for RCV1 (677 399 points, 47 236 features),
that linear WellSVM takes less than 1000 s with more than 500 000 training instances in
semi-supervised learning (Section 5.1.2, Fig. 4: 75 % of the data for training, 50 of them
labelled) and on all 677 399 points in clustering (Section 5.3, Fig. 9). RCV1 is not
offline: this script runs the same two tasks on the pipeline's declared RCV1 substitute
(``weaklabel.experiments.wellsvm_linear.LINEAR_SETS["rcv1"]``, the seeded sparse generator
``weaklabel.data.generators.sparse_text``: 20 000 features, 50 words per row) at sizes up
to 677 399 points, with the settings of the ``wellsvm_linear`` stage's ``large`` profile
(``params.yaml``; C1 = 1, C2 = 0.1, the label-generation cap and tolerances):

- SSL: ``run_fig34_task`` at training fraction 0.75 (SVMlin is not run at these sizes);
- clustering: ``run_fig89_task`` at sampling rate 1 (k-means: one run).

Each (task, size) runs in a fresh Python process, so that the peak resident memory
(``ru_maxrss``, which includes the data, the generator and numba's runtime) is that of this
fit alone; wall times are the task's own ``*_seconds`` (data generation excluded, reported
apart). Writes ``scaling.csv`` and ``scaling.md`` next to this file after every finished
(task, size), merged with the rows already there.

Usage: ``python benchmarks/linear/scaling.py [--sizes 84675,169350,338700,677399]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_meta.py
from _meta import run_meta, write_meta  # noqa: E402

HERE = Path(__file__).resolve().parent
CLAIM_SECONDS = 1000.0
CLAIM_N = 500_000

_CHILD = r"""
import json, resource, sys, time
from weaklabel.experiments import wellsvm_linear as L
from weaklabel.pipeline import load_params
task, n = sys.argv[1], int(sys.argv[2])
cfg = L.wellsvm_linear_config(load_params("wellsvm_linear", "large"))
cfg.update({"fig_n_points": {"rcv1": n}, "cluster_n_points": {"rcv1": n},
            "svmlin_max_n": 0, "kmeans_runs": 1})
t0 = time.perf_counter()
L.load_linear_set("rcv1", n)
gen = time.perf_counter() - t0
if task == "ssl":
    row = L.run_fig34_task("rcv1", 0.75, 0, cfg)
    out = {"n_instances": row["n_train"], "wellsvm_seconds": row["wellsvm_seconds"],
           "baseline": "linear SVM (labelled only)", "baseline_seconds": row["svm_seconds"],
           "wellsvm_accuracy": row["wellsvm_accuracy"],
           "baseline_accuracy": row["svm_accuracy"]}
else:
    row = L.run_fig89_task("rcv1", 1.0, 0, cfg)
    out = {"n_instances": row["n"], "wellsvm_seconds": row["wellsvm_seconds"],
           "baseline": "k-means (1 run)", "baseline_seconds": row["kmeans_seconds"],
           "wellsvm_accuracy": row["wellsvm_accuracy"],
           "baseline_accuracy": row["kmeans_accuracy"], "n_outer": row["n_outer"]}
out.update({"task": task, "n_points": n, "generate_seconds": gen,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0})
print("RESULT " + json.dumps(out))
"""


def run_one(task: str, n: int) -> dict:
    env = dict(os.environ)
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
              "NUMBA_NUM_THREADS"):
        env.setdefault(k, "1")
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", _CHILD, task, str(n)], capture_output=True,
                       text=True, env=env, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"{task} at n={n} failed:\n{p.stderr[-2000:]}")
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    out = json.loads(line[len("RESULT "):])
    out["process_seconds"] = time.perf_counter() - t0
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="84675,169350,338700,677399",
                    help="total points of the substitute (SSL trains on 75 %%)")
    ap.add_argument("--tasks", default="ssl,clustering")
    args = ap.parse_args(argv)
    for task in args.tasks.split(","):
        for n in [int(v) for v in args.sizes.split(",")]:
            r = run_one(task, n)
            print(f"{task:10s} n={r['n_instances']:>7d}  WellSVM {r['wellsvm_seconds']:8.1f} s  "
                  f"peak RSS {r['peak_rss_mb']:7.0f} MB  accuracy "
                  f"{r['wellsvm_accuracy']:.3f} ({r['baseline']}: "
                  f"{r['baseline_accuracy']:.3f})", flush=True)
            write_tables(r)
    return 0


def _replace(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)  # never a half-written table


def write_tables(row: dict) -> pd.DataFrame:
    """Merge one finished (task, size) into ``scaling.csv`` / ``scaling.md`` (a row of the
    same task and size is replaced), so that separate runs of ``--tasks ssl`` and
    ``--tasks clustering`` build one table and a stopped run keeps what finished."""
    row = {**row, "date": time.strftime("%Y-%m-%d"),
           "load_average": round(os.getloadavg()[0], 2)}
    path = HERE / "scaling.csv"
    df = pd.read_csv(path) if path.exists() else pd.DataFrame()
    if not df.empty:
        df = df[~((df["task"] == row["task"]) & (df["n_points"] == row["n_points"]))]
    df = pd.concat([df, pd.DataFrame([row])], ignore_index=True)
    df = df.sort_values(["task", "n_points"]).reset_index(drop=True)
    df["claim_holds"] = (df["n_instances"] <= CLAIM_N) | (df["wellsvm_seconds"] < CLAIM_SECONDS)
    _replace(path, df.to_csv(index=False, float_format="%.6g"))
    cols = ["task", "n_instances", "generate_seconds", "wellsvm_seconds", "peak_rss_mb",
            "wellsvm_accuracy", "baseline", "baseline_seconds", "baseline_accuracy", "date",
            "load_average"]
    big = df[df["n_instances"] > CLAIM_N]
    verdict = ("holds" if len(big) and bool((big["wellsvm_seconds"] < CLAIM_SECONDS).all())
               else ("not tested (no size above 500 000)" if big.empty else "does not hold"))
    md = [f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, one thread; `load_average` is the 1-minute load "
          "when the row finished.", "",
          df[[c for c in cols if c in df]].to_markdown(index=False, floatfmt=".4g"), "",
          f"Claim (Li et al. 2013, Secs. 5.1.2 and 5.3): WellSVM takes < {CLAIM_SECONDS:g} s "
          f"with > {CLAIM_N:,} instances: **{verdict}** on this machine for the tasks above, "
          "on the declared RCV1 substitute."]
    _replace(HERE / "scaling.md", "\n".join(md) + "\n")
    # the record of this run (rows of earlier runs kept in the table have their own date and
    # load_average columns)
    write_meta(HERE / "scaling_meta.json",
               run_meta(extra={"last_row": {"task": row["task"], "n_points": row["n_points"]}}))
    print("\n".join(md))
    return df


if __name__ == "__main__":
    raise SystemExit(main())
