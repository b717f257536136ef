"""Convergence curves of the certified solvers: relative objective gap to the cvxpy/Clarabel
optimum against wall time (issue 30, deliverable 5), drawn as benchopt draws them.

No solver has a callback. As benchopt does, each solver is run again and again with a
growing iteration budget (``max_iter`` or ``max_passes`` or ``n_iter`` = 0 or 1, 2, 4, 8, ...,
until the solver reports convergence or the budget reaches its cap), each run is timed from
the call to the return (``time.perf_counter``; the best of ``--repeat`` calls when one call
takes less than ``--short`` seconds), and the objective of the returned solution is computed
afterwards, outside the timed call, by the package function the solver's certification in
``tests/`` uses:

* SMO core: ``weaklabel.experiments.solvers.svm_dual_objective(K, y, alpha)`` (the C-SVM
  dual ``1/2 a'Qa - 1'a``; ``tests/test_smo.py``); optimum ``weaklabel.reference.svm_dual_qp``.
* USMO: ``weaklabel.solvers.usmo.dual_objective`` (the dual (6);
  ``tests/test_usmo_solver.py``); optimum ``weaklabel.reference.usmo_dual_reference``.
* label-kernel simplex: ``1/2 a'Qa`` with ``Q = weaklabel.reference.smo.label_kernel_matrix``
  (the reference QP's objective ``1/2 a'Qa + q'a`` with ``q = 0``, as
  ``tests/test_smo_label_kernel.py`` checks it); optimum
  ``weaklabel.reference.smo.label_kernel_dual_reference(problem="simplex")``.
* TSGSU: its iterate is a sum of random features, which is not in the RKHS on which the
  reference's objective (``weaklabel.reference.tsgsu._su_objective``: the uncorrected
  squared-loss SU objective, Eq. (7), plus ``lam/2 ||f||_H^2``) is defined, so no objective
  gap exists for it. Plotted instead: the measure its certification
  (``tests/test_tsgsu.py``) uses, ``f_rel_dist = ||f_T - f*|| / ||f*||`` on the training
  points, with ``f*`` from ``su_kernel_minimiser(method="cvxpy")``. ``results.csv`` also
  holds ``_su_objective`` at ``f_T`` with the solver's own norm (the coefficient norm in the
  concatenated random-feature space, as ``TSGSUResult.objective``) and its ``rel_gap``: it
  goes below the optimum, so that norm is not ``||f_T||_H`` and that column is no gap.

Every optimum is solved by cvxpy + Clarabel with tolerances tightened to 1e-10
(``CLARABEL_TIGHT``; Clarabel's defaults are 1e-8).

The plotted quantity (column ``plotted``) is ``rel_gap = (objective - optimum) / |optimum|``
(signed in ``results.csv``; its absolute value on the log axis, points below the optimum
drawn hollow), for TSGSU ``f_rel_dist``.

Problems (seeded; the same every run):

* SMO core: C-SVM dual on Adult (LIBSVM a9a, min-max scaled pool of
  ``weaklabel.experiments.usmo.large_pool``), ``--n`` random rows, Gaussian kernel
  ``sigma = 1``, ``C = 1``; ``smo``'s stopping tolerance ``eps = 1e-9`` and ``max_iter`` grown;
  variants: shrinking on / off.
* USMO: Adult, 100 labelled positives and ``--n`` unlabelled rows (random), Gaussian
  ``sigma = 1``, ``lam = 0.01``, ``pi`` = the positive fraction of the unlabelled rows;
  ``tau = 1e-8``, ``max_passes`` grown from 0 (the initial point); variants: the OCSVM
  initialisation (the default) and the trivial one.
* label kernel (WellSVM's inner ``simplex`` problem, ``label_kernel_dual``): Adult ``--n``
  rows, Gaussian ``sigma = 1``, two label vectors (the true labels and a copy with 10 %
  flipped), ``mu = (0.7, 0.3)``, ``diag = 1`` (as ``benchmarks/smo``); ``eps = 1e-9``,
  ``max_iter`` grown; variants: kernel rows cached in float64 (default) / float32.
* TSGSU: Breiman's waveform (class 0 against the rest, standardised, the pipeline's
  substitute for Acoustic), ``make_su_data`` with 100 similar pairs and 200 unlabelled
  points (400 training points), Gaussian ``gamma = 2^-3``, ``lam = 2^-7``, squared loss
  without correction (the objective the reference minimises), ``eta0 = 4``, 100 random
  frequencies per iteration, ``n_iter`` grown (no stopping rule: a fixed budget);
  variants: full batch (every point in every iteration) in ``mode="cached"`` and
  ``mode="faithful"`` (the same iterates, Algorithm 2's replay), and minibatches of
  50 + 50 (cached).

Each solver is called once on its problem before its runs are timed (numba's compiled code
loaded; never timed). ``ConvergenceWarning`` of the capped runs is silenced.

Writes ``results.csv``, ``results_meta.json`` (machine, load averages before / after,
thread settings, commit, arguments), ``convergence.png`` (wall time, ``seconds``) and
``convergence_cpu.png`` (CPU time of the process, ``cpu_seconds``) next to this file;
``--plot-only`` redraws the figures from the first two.

Usage (from the repository root, one thread)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1 \\
    WEAKLABEL_DATA_MIRROR=../shared/datasets python benchmarks/convergence/bench_convergence.py
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from weaklabel._validation import ConvergenceWarning

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/_meta.py
from _meta import mark_start, run_meta, write_meta  # noqa: E402

HERE = Path(__file__).resolve().parent
# Clarabel's defaults are 1e-8; the optimum is taken tighter
CLARABEL_TIGHT = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}
COLUMNS = ["solver", "variant", "problem", "n", "budget_name", "budget", "seconds",
           "cpu_seconds", "repeats", "objective", "optimum", "rel_gap", "converged", "n_iter",
           "kkt_violation", "f_rel_dist", "plotted"]


# --------------------------------------------------------------------------- helpers
def relative_gap(objective, optimum):
    """``(objective - optimum) / |optimum|`` (signed; NaN when ``optimum`` is 0 or not
    finite)."""
    obj = np.asarray(objective, dtype=float)
    opt = float(optimum)
    if not np.isfinite(opt) or opt == 0.0:
        return np.full(obj.shape, np.nan) if obj.ndim else float("nan")
    g = (obj - opt) / abs(opt)
    return g if obj.ndim else float(g)


def budgets(start: int, cap: int):
    """0 (when ``start`` is 0), then 1, 2, 4, ... up to ``cap`` (always included)."""
    if start < 0 or cap < max(start, 1):
        raise ValueError(f"budgets need 0 <= start <= cap and cap >= 1, got start={start}, "
                         f"cap={cap}.")
    out = [0] if start == 0 else []
    b = max(start, 1)
    while b < cap:
        out.append(b)
        b *= 2
    out.append(cap)
    return out


def timed(fn, repeat: int, short: float):
    """``(seconds, cpu_seconds, calls, result)``: one call; when it took less than ``short``
    seconds, ``repeat`` calls in all. ``seconds`` is the smallest wall time
    (``time.perf_counter``), ``cpu_seconds`` the smallest CPU time of this process
    (``time.process_time``; one thread, so the time the call ran rather than waited)."""
    best, best_cpu, calls, out = np.inf, np.inf, 0, None
    while calls == 0 or (best < short and calls < repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
        calls += 1
    return best, best_cpu, calls, out


def run_curve(solve, evaluate, grid, *, repeat=3, short=0.5, stop_when_converged=True):
    """Run ``solve(budget)`` for each budget of ``grid`` and evaluate each result.

    ``evaluate(result)`` returns a dict with at least ``objective``, ``converged`` and
    ``n_iter``. When ``stop_when_converged``, the grid stops after the first run that
    reports ``converged`` or that stopped before using its budget (``n_iter < budget``:
    the solver ended on its own, so a larger budget returns the same point). Returns a
    list of dicts (``budget``, ``seconds``, ``cpu_seconds``, ``repeats`` and the
    evaluation)."""
    rows = []
    for b in grid:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            sec, cpu, calls, res = timed(lambda b=b: solve(b), repeat, short)
        ev = evaluate(res)
        rows.append({"budget": int(b), "seconds": sec, "cpu_seconds": cpu, "repeats": calls,
                     **ev})
        if stop_when_converged and (ev["converged"] or ev["n_iter"] < b):
            break
    return rows


def warm(fn, *args, **kwargs) -> None:
    """One untimed call ``fn(*args, **kwargs)`` (numba's compiled code loaded) before a
    solver's timed runs, its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fn(*args, **kwargs)


SOLVERS = {"smo": "SMO core (smo)", "usmo": "USMO (usmo)",
           "label_kernel": "label-kernel simplex (label_kernel_dual)",
           "tsgsu": "TSGSU (tsgsu)"}


def _runs(path: Path) -> list:
    """The runs recorded in ``results_meta.json`` (a single run's dict is one run)."""
    if not path.is_file():
        return []
    m = json.loads(path.read_text())
    return m["runs"] if "runs" in m else [dict(m, only=m.get("args", {}).get(
        "only", list(SOLVERS)))]


def keep_other_solvers(out: Path, only) -> tuple[pd.DataFrame, list]:
    """Rows of ``out/results.csv`` and runs of ``out/results_meta.json`` of the solvers
    that are not in ``only`` (those are measured again)."""
    names = {SOLVERS[k] for k in only}
    path = out / "results.csv"
    kept = pd.read_csv(path) if path.is_file() else pd.DataFrame(columns=COLUMNS)
    kept = kept[~kept["solver"].isin(names)]
    runs = [r for r in _runs(out / "results_meta.json") if set(r["only"]) - set(only)]
    for c in COLUMNS:
        if c not in kept:
            kept[c] = np.nan
    return kept[COLUMNS], runs


def git_commit() -> str:
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=HERE,
                               capture_output=True, text=True, check=True).stdout.strip()
        return sha + (" (src modified)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# --------------------------------------------------------------------------- problems
def adult_rows(n: int, seed: int):
    from weaklabel.experiments.usmo import large_pool
    X, y, *_ = large_pool("libsvm-a9a", positive=1, seed=0)
    idx = np.random.default_rng(seed).choice(X.shape[0], size=n, replace=False)
    return X[idx], y[idx]


def bench_smo(n, seed, cap, repeat, short, log):
    from weaklabel.experiments.solvers import svm_dual_objective
    from weaklabel.kernels import gram, make_kernel
    from weaklabel.reference import svm_dual_qp
    from weaklabel.solvers.smo import smo

    X, y = adult_rows(n, seed)
    k = make_kernel("gaussian", sigma=1.0)
    K = gram(X, kernel=k)
    C = 1.0
    t0 = time.perf_counter()
    ref = svm_dual_qp(K, y, C, **CLARABEL_TIGHT)
    log(f"SMO reference: objective {ref.objective:.12g} in {time.perf_counter() - t0:.1f} s")
    problem = f"C-SVM dual, Adult n={n}, Gaussian sigma=1, C=1"
    rows = []
    for variant, shrink in (("shrinking", True), ("no shrinking", False)):
        warm(smo, X[:50], y[:50], C, k, eps=1e-9, shrinking=shrink)

        def solve(b, shrink=shrink):
            return smo(X, y, C, k, eps=1e-9, shrinking=shrink, max_iter=b)

        def evaluate(r):
            return {"objective": svm_dual_objective(K, y, r.alpha), "converged": r.converged,
                    "n_iter": r.n_iter, "kkt_violation": r.kkt_violation}

        for row in run_curve(solve, evaluate, budgets(1, cap), repeat=repeat, short=short):
            rows.append({"solver": "SMO core (smo)", "variant": variant,
                         "plotted": "rel_gap", "problem": problem,
                         "n": n, "budget_name": "max_iter", "optimum": ref.objective, **row})
    return rows


def bench_usmo(n, seed, cap, repeat, short, log):
    from weaklabel.experiments.usmo import large_pool
    from weaklabel.kernels import gram, make_kernel
    from weaklabel.reference.usmo import usmo_dual_reference
    from weaklabel.solvers.usmo import dual_objective, usmo

    X, y, *_ = large_pool("libsvm-a9a", positive=1, seed=0)
    rng = np.random.default_rng(seed)
    pos = rng.choice(np.flatnonzero(y > 0), size=100, replace=False)
    rest = np.setdiff1d(np.arange(X.shape[0]), pos)
    unl = rng.choice(rest, size=n, replace=False)
    Xp, Xu = X[pos], X[unl]
    pi = float(np.mean(y[unl] > 0))
    k = make_kernel("gaussian", sigma=1.0)
    lam = 0.01
    t0 = time.perf_counter()
    ref = usmo_dual_reference(Xp, Xu, k, lam, pi, **CLARABEL_TIGHT)
    log(f"USMO reference: objective {ref.objective:.12g} in {time.perf_counter() - t0:.1f} s")
    Kuu, Kup1 = gram(Xu, kernel=k), gram(Xu, Xp, kernel=k).sum(axis=1)
    problem = f"PU dual (6), Adult 100 positives + n={n} unlabelled (pi={pi:.3f}), " \
              "Gaussian sigma=1, lam=0.01"
    rows = []
    for variant, init in (("OCSVM init", "ocsvm"), ("trivial init", "trivial")):
        warm(usmo, Xp[:20], Xu[:40], k, lam, pi, tau=1e-8, init=init)

        def solve(b, init=init):
            return usmo(Xp, Xu, k, lam, pi, tau=1e-8, init=init, max_passes=b,
                        record_trace=False)

        def evaluate(r):
            return {"objective": dual_objective(r.dual, Kuu, Kup1, r.c1, r.c2),
                    "converged": r.converged, "n_iter": r.passes,
                    "kkt_violation": r.kkt_violation}

        for row in run_curve(solve, evaluate, budgets(0, cap), repeat=repeat, short=short):
            rows.append({"solver": "USMO (usmo)", "variant": variant,
                         "plotted": "rel_gap", "problem": problem,
                         "n": n, "budget_name": "max_passes", "optimum": ref.objective,
                         **row})
    return rows


def bench_label_kernel(n, seed, cap, repeat, short, log):
    from weaklabel.kernels import gram, make_kernel
    from weaklabel.reference.smo import label_kernel_dual_reference, label_kernel_matrix
    from weaklabel.solvers.smo import label_kernel_dual

    X, y = adult_rows(n, seed + 1)
    rng = np.random.default_rng(seed)
    z2 = y.copy()
    flip = rng.choice(n, size=n // 10, replace=False)
    z2[flip] = -z2[flip]
    Z = np.vstack([y, z2])
    mu = np.array([0.7, 0.3])
    k = make_kernel("gaussian", sigma=1.0)
    K = gram(X, kernel=k)
    t0 = time.perf_counter()
    ref = label_kernel_dual_reference(K, Z, mu, problem="simplex", diag=1.0, **CLARABEL_TIGHT)
    log(f"label-kernel reference: objective {ref.objective:.12g} in "
        f"{time.perf_counter() - t0:.1f} s")
    Q = label_kernel_matrix(K, Z, mu, 1.0)
    problem = f"label-kernel simplex dual, Adult n={n}, Gaussian sigma=1, T=2, " \
              "mu=(0.7,0.3), diag=1"
    rows = []
    for variant, dt in (("rows float64", "float64"), ("rows float32", "float32")):
        warm(label_kernel_dual, X[:50], Z[:, :50], mu, kernel=k, problem="simplex", diag=1.0,
             eps=1e-9, cache_dtype=dt)

        def solve(b, dt=dt):
            return label_kernel_dual(X, Z, mu, kernel=k, problem="simplex", diag=1.0,
                                     eps=1e-9, max_iter=b, cache_dtype=dt)

        def evaluate(r):
            # the reference QP's objective 1/2 a'Qa + q'a with q = 0 (solve_qp)
            return {"objective": float(0.5 * r.alpha @ Q @ r.alpha),
                    "converged": r.converged, "n_iter": r.n_iter,
                    "kkt_violation": r.kkt_violation}

        for row in run_curve(solve, evaluate, budgets(1, cap), repeat=repeat, short=short):
            rows.append({"solver": "label-kernel simplex (label_kernel_dual)", "plotted": "rel_gap",
                         "variant": variant, "problem": problem, "n": n,
                         "budget_name": "max_iter", "optimum": ref.objective, **row})
    return rows


def bench_tsgsu(seed, cap, cap_faithful, repeat, short, log):
    from weaklabel.data.generators import breiman_waveform
    from weaklabel.data.su import make_su_data
    from weaklabel.reference.tsgsu import _su_objective, su_kernel_minimiser
    from weaklabel.solvers.tsgsu import tsgsu

    Xw, yw = breiman_waveform(3000, positive_class=0, random_state=seed)
    Xw = (Xw - Xw.mean(0)) / Xw.std(0)
    d = make_su_data(Xw, yw, n_pairs=100, n_unlabelled=200, n_test=0, random_state=seed)
    XS, XU, prior = d.XS, d.XU, d.prior
    nS = XS.shape[0]
    gamma, lam = 2.0 ** -3, 2.0 ** -7
    t0 = time.perf_counter()
    ref = su_kernel_minimiser(XS, XU, prior, lam, gamma, method="cvxpy")
    closed = su_kernel_minimiser(XS, XU, prior, lam, gamma, method="closed")
    log(f"TSGSU reference (cvxpy): objective {ref.objective:.12g} in "
        f"{time.perf_counter() - t0:.1f} s (closed form {closed.objective:.12g})")
    Xtr = np.vstack([XS, XU])
    fnorm = np.linalg.norm(ref.f_train)
    problem = (f"SU squared loss (uncorrected), waveform, 2n_S={nS} + n_U={XU.shape[0]}, "
               f"Gaussian gamma=2^-3, lam=2^-7, prior={prior:.3f}")
    kw = dict(lam=lam, gamma=gamma, n_features=100, eta0=4.0, loss="squared",
              correction="none", random_state=0)
    full = max(nS, XU.shape[0])
    rows = []
    for variant, mode, batch, vcap in (("full batch, cached", "cached", full, cap),
                                       ("full batch, faithful", "faithful", full, cap_faithful),
                                       ("batch 50+50, cached", "cached", 50, cap)):
        warm(tsgsu, XS, XU, prior, n_iter=2, batch_s=batch, batch_u=batch, mode=mode, **kw)

        def solve(b, mode=mode, batch=batch):
            return tsgsu(XS, XU, prior, n_iter=b, batch_s=batch, batch_u=batch, mode=mode,
                         **kw)

        def evaluate(r):
            f = r.decision_function(Xtr)
            w = r.block_weights(r.n_iter_)
            sq = float(np.sum((w[:, None] * r.coef) ** 2))
            return {"objective": _su_objective(f[:nS], f[nS:], prior, lam, sq),
                    "converged": False, "n_iter": r.n_iter_, "kkt_violation": np.nan,
                    "f_rel_dist": float(np.linalg.norm(f - ref.f_train) / fnorm)}

        for row in run_curve(solve, evaluate, budgets(1, vcap), repeat=repeat, short=short,
                             stop_when_converged=False):
            rows.append({"solver": "TSGSU (tsgsu)", "variant": variant,
                         "plotted": "f_rel_dist", "problem": problem,
                         "n": Xtr.shape[0], "budget_name": "n_iter",
                         "optimum": ref.objective, **row})
    return rows


# --------------------------------------------------------------------------- figure
YLABEL = {"rel_gap": "|objective - optimum| / |optimum|",
          "f_rel_dist": "||f_T - f*|| / ||f*|| on the training points"}


def plot(df: pd.DataFrame, path: Path, meta: dict, time_col: str = "seconds") -> None:
    """One panel per solver: the column named by ``plotted`` (absolute value, log scale;
    hollow markers where it is negative) against ``time_col`` (log scale), one curve per
    variant, a marker at every measured run."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    solvers = list(dict.fromkeys(df["solver"]))
    fig, axes = plt.subplots(2, 2, figsize=(11, 8.5))
    markers = "os^Dv"
    for ax, s in zip(axes.ravel(), solvers):
        sub = df[df["solver"] == s]
        col = sub["plotted"].iloc[0]
        for i, (v, g) in enumerate(sub.groupby("variant", sort=False)):
            g = g.sort_values("budget")
            val = g[col].to_numpy(dtype=float)
            t = g[time_col].to_numpy(dtype=float)
            y = np.abs(val)
            y = np.where(y > 0, y, np.nan)
            line, = ax.plot(t, y, "-", lw=1.2, label=v)
            neg = val < 0
            ax.plot(t[~neg], y[~neg], markers[i % 5], color=line.get_color(), ms=5)
            if neg.any():
                ax.plot(t[neg], y[neg], markers[i % 5], color=line.get_color(), ms=5,
                        mfc="none")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(s + "\n" + textwrap.fill(sub["problem"].iloc[0], 70), fontsize=8.5)
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(("wall time" if time_col == "seconds" else "CPU time") +
                      " of the run (s), log scale")
        ax.set_ylabel(YLABEL[col])
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, loc="upper right")
    for ax in axes.ravel()[len(solvers):]:
        ax.set_visible(False)
    runs = meta["runs"]
    loads = [r[k][0] for r in runs for k in ("loadavg_before", "loadavg_after") if k in r]
    commits = ", ".join(sorted({r["commit"][:7] for r in runs}))
    fig.suptitle("Distance to the cvxpy/Clarabel optimum against "
                 + ("wall" if time_col == "seconds" else "CPU") + " time (hollow: below "
                 f"it); 1-min load average {min(loads):.1f}-{max(loads):.1f} on "
                 f"{runs[0]['cpu_count']} cores (a pipeline run), one thread, commit "
                 f"{commits}", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_all(df: pd.DataFrame, out: Path, meta: dict) -> None:
    plot(df, out / "convergence.png", meta, "seconds")
    plot(df, out / "convergence_cpu.png", meta, "cpu_seconds")


# --------------------------------------------------------------------------- main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=400, help="points of the SMO, USMO and "
                    "label-kernel problems (default 400)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--short", type=float, default=0.5,
                    help="runs shorter than this (s) are repeated --repeat times")
    ap.add_argument("--tsgsu-cap", type=int, default=512)
    ap.add_argument("--tsgsu-faithful-cap", type=int, default=32)
    ap.add_argument("--plot-only", action="store_true",
                    help="redraw convergence.png from results.csv and results_meta.json")
    ap.add_argument("--only", nargs="+", choices=list(SOLVERS), default=list(SOLVERS),
                    help="run these solvers only; the rows of the others already in "
                    "results.csv are kept (results_meta.json then lists one run per call)")
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)

    if args.plot_only:
        plot_all(pd.read_csv(args.out / "results.csv"), args.out,
                 {"runs": _runs(args.out / "results_meta.json")})
        return 0

    def log(msg):
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)

    start = mark_start()  # machine, versions, threads, commit, load (benchmarks/_meta.py)
    meta = run_meta(extra={
        "commit": git_commit(), "loadavg_before": start["loadavg"],
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}})
    t_start = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)
    kept, runs = keep_other_solvers(args.out, args.only)
    meta["only"] = list(args.only)
    runs.append(meta)
    rows = []
    cap = 10_000_000  # the solvers' own default cap at this n; the grid ends far earlier

    def write():  # after every solver, so that a long run keeps what it measured
        df = pd.DataFrame(rows)
        df["rel_gap"] = [relative_gap(o, p) for o, p in zip(df["objective"], df["optimum"])]
        for c in COLUMNS:
            if c not in df:
                df[c] = np.nan
        df = pd.concat([kept, df[COLUMNS]], ignore_index=True) if len(kept) else df[COLUMNS]
        order = {name: i for i, name in enumerate(SOLVERS.values())}
        df = df.sort_values("solver", key=lambda c: c.map(order), kind="stable")
        now = run_meta()
        meta["loadavg_after"] = meta["loadavg"] = now["loadavg"]
        meta["finished_utc"] = meta["utc"] = now["utc"]
        meta["total_seconds"] = round(time.perf_counter() - t_start, 1)
        df.to_csv(args.out / "results.csv", index=False, float_format="%.10g")
        write_meta(args.out / "results_meta.json", {"runs": runs})
        return df

    if "smo" in args.only:
        rows += bench_smo(args.n, args.seed, cap, args.repeat, args.short, log)
        write()
        log("SMO done")
    if "usmo" in args.only:
        rows += bench_usmo(args.n, args.seed, 100_000, args.repeat, args.short, log)
        write()
        log("USMO done")
    if "label_kernel" in args.only:
        rows += bench_label_kernel(args.n, args.seed, cap, args.repeat, args.short, log)
        write()
        log("label kernel done")
    if "tsgsu" in args.only:
        rows += bench_tsgsu(args.seed, args.tsgsu_cap, args.tsgsu_faithful_cap, args.repeat,
                            args.short, log)
        log("TSGSU done")
    df = write()
    plot_all(df, args.out, {"runs": runs})
    log(f"wrote {args.out / 'results.csv'} ({len(df)} rows), convergence.png; "
        f"{meta['total_seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
