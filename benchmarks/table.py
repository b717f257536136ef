"""Build ``benchmarks/README.md``: one table of ours against the best peer, from every
benchmark's committed results.

Each results file ``benchmarks/<name>/<stem>.csv`` has an adapter (:data:`ADAPTERS`, matched
by path pattern; a file without one is an error, not a silent gap) that turns its rows into
rows of one table:

- **ours**: the package's solver and its time;
- **best peer**: among the other solvers *in the same file* (so: the same run) that the
  adapter counts as peers — the same problem or the same task on the same data, and, where
  the file records it, an answer that qualifies (a solved status, a reached target) — the
  fastest one. The ``answers`` column says how close the answers are, or that the peer
  solves another problem (LIBSVM's C-SVM next to USMO, another semi-supervised method next
  to WellSVM). A supervised fit on the labelled points alone is a baseline of the
  experiment, not a peer (:data:`SUPERVISED_BASELINES`);
- **reference**: cvxpy + Clarabel (the certification twin), in its own ratio column;
- the run's machine, load and threads, from ``<stem>_meta.json`` (written by
  ``benchmarks/_meta.py``), else from the ``Machine: ...`` line at the top of ``<stem>.md``
  (or a ``machine`` column of the csv), else ``"not recorded"``.

A ratio is ``ours / other``: below 1, ours is faster. An adapter raises ``ValueError``
naming the file and the column when a column it needs is missing.

Usage (from the repository root)::

    python benchmarks/table.py            # writes benchmarks/README.md
    python benchmarks/table.py --check    # exit 1 when benchmarks/README.md is stale
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import math
import os
import re
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent
NOT_RECORDED = "not recorded"
NO_PEER = "no peer in this benchmark"
NO_REFERENCE = "—"
REFERENCE = "cvxpy+Clarabel"
#: supervised fits on the labelled points only: baselines, not peers
SUPERVISED_BASELINES = ("SVM (labelled only)", "linear SVM (labelled only)")
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "NUMBA_NUM_THREADS")
COLUMNS = ["benchmark", "problem", "ours", "ours (s)", "best peer", "peer (s)",
           "ours / peer", "ours / reference", "memory ours / peer", "answers", "machine",
           "load", "threads"]


# --------------------------------------------------------------------------- helpers
def _require(df: pd.DataFrame, cols, path: Path) -> None:
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"{path}: column {c!r} is missing; the table needs it "
                             f"(columns there: {', '.join(map(str, df.columns))}).")


def _num(v) -> float:
    """``v`` as a float; NaN for an empty cell or text."""
    try:
        x = float(v)
    except (TypeError, ValueError):
        return math.nan
    return x


def _ok(v) -> bool:
    return math.isfinite(_num(v)) and _num(v) > 0


def _get(r, col, default=math.nan):
    return r[col] if col in r.index else default


def _s(x) -> str:
    x = _num(x)
    return "—" if not math.isfinite(x) else f"{x:.3g}"


def _sci(x) -> str:
    x = _num(x)
    return "—" if not math.isfinite(x) else f"{x:.1e}"


def _truthy(v) -> bool:
    if isinstance(v, str):
        return v.strip().lower() in ("true", "1", "yes")
    return bool(v) and not (isinstance(v, float) and math.isnan(v))


def peer(name: str, seconds, memory=math.nan, answer: str = "") -> dict:
    """A candidate peer of one row: its name, time (s), memory (MB) and how its answer
    compares with ours."""
    return {"name": name, "seconds": _num(seconds), "memory": _num(memory), "answer": answer}


def row(problem: str, ours: str, seconds, *, peers=(), reference_s=None, memory=math.nan,
        check: str = "", note: str = "") -> dict:
    """One table row before the choice of the best peer. ``reference_s``: the reference's
    time, ``None`` when the file has no reference, NaN when it is in the problem but not
    timed; ``check``: ours against the reference; ``note``: anything else the row needs."""
    return {"problem": problem, "ours": ours, "seconds": _num(seconds), "memory": _num(memory),
            "peers": list(peers), "reference_s": reference_s, "check": check, "note": note}


def best_peer(peers) -> dict | None:
    """The fastest candidate with a measured time (> 0), or ``None``."""
    timed = [p for p in peers if _ok(p["seconds"])]
    return min(timed, key=lambda p: p["seconds"]) if timed else None


def finish(r: dict) -> dict:
    """The printed cells of one row: the best peer and the ratios."""
    b = best_peer(r["peers"])
    ours_ok = _ok(r["seconds"])
    if b is None:
        peer_name, peer_s, ratio, mem = NO_PEER, "—", "—", "—"
        answers = []
    else:
        peer_name, peer_s = b["name"], _s(b["seconds"])
        ratio = _s(r["seconds"] / b["seconds"]) if ours_ok else "—"
        mem = (_s(r["memory"] / b["memory"]) if _ok(r["memory"]) and _ok(b["memory"])
               else NOT_RECORDED)
        answers = [b["answer"]] if b["answer"] else []
    ref = r["reference_s"]
    if ref is None:
        ref_cell = NO_REFERENCE
    elif not _ok(ref):
        ref_cell = f"{REFERENCE} time {NOT_RECORDED}"
    else:
        ref_cell = (f"{_s(r['seconds'] / _num(ref)) if ours_ok else '—'} "
                    f"({REFERENCE} {_s(ref)} s)")
    answers += [t for t in (r["check"], r["note"]) if t]
    return {"problem": r["problem"], "ours": r["ours"], "ours (s)": _s(r["seconds"]),
            "best peer": peer_name, "peer (s)": peer_s, "ours / peer": ratio,
            "ours / reference": ref_cell, "memory ours / peer": mem,
            "answers": "; ".join(answers) or "—"}


# --------------------------------------------------------------------------- adapters
def convergence(df: pd.DataFrame, path: Path) -> list[dict]:
    """``convergence/results.csv``: per solver and variant, the time of the first run that
    met the solver's stopping rule (``converged``), else of the largest budget. No peer;
    the cvxpy optimum is in the file, its time is not."""
    _require(df, ["solver", "variant", "problem", "budget_name", "budget", "seconds",
                  "converged", "plotted", "rel_gap", "f_rel_dist"], path)
    out = []
    for (solver, variant), g in df.groupby(["solver", "variant"], sort=False):
        conv = g[g["converged"].map(_truthy)]
        r = conv.iloc[0] if len(conv) else g.iloc[-1]
        measure = str(r["plotted"])
        value = _sci(r[measure]) if measure in r.index else "—"
        what = ("relative gap to the cvxpy optimum" if measure == "rel_gap"
                else "||f - f*|| / ||f*||" if measure == "f_rel_dist" else measure)
        budget = f"{r['budget_name']} = {int(_num(r['budget']))}"
        check = (f"stopping rule met at {budget}; {what} {value}" if len(conv)
                 else f"no stopping rule met; at {budget}: {what} {value}")
        out.append(row(str(r["problem"]), f"{solver}, {variant}", r["seconds"],
                       reference_s=math.nan, check=check))
    return out


def linear(df: pd.DataFrame, path: Path) -> list[dict]:
    """``linear/results.csv``: part ``time`` against LIBLINEAR; parts ``memory`` and
    ``label_kernel`` (the linear path against our own kernel path) have no peer."""
    _require(df, ["part", "problem", "n"], path)
    out = []
    for _, r in df.iterrows():
        part = r["part"]
        if part == "time":
            _require(df, ["d", "C", "loss", "bias", "ours_s", "liblinear_s",
                          "objective_rel_diff"], path)
            out.append(row(
                f"{r['problem']} ({int(r['n'])} × {int(r['d'])}), C = {r['C']:g}, "
                f"{r['loss']} loss, bias {r['bias']}", "linear_svm_dual_cd", r["ours_s"],
                peers=[peer("LIBLINEAR (scikit-learn LinearSVC)", r["liblinear_s"],
                            answer=f"primal objectives differ by {_sci(r['objective_rel_diff'])}"
                                   " (relative), both at tolerance 0.1")]))
        elif part == "memory":
            _require(df, ["solver", "T", "seconds", "peak_bytes", "epochs"], path)
            out.append(row(
                f"{r['problem']}, n = {int(r['n'])}, T = {int(r['T'])}, "
                f"{int(r['epochs'])} epochs (capped)", str(r["solver"]), r["seconds"],
                note=f"memory benchmark: peak traced {_num(r['peak_bytes']) / 1e6:.1f} MB"))
        elif part == "label_kernel":
            _require(df, ["T", "ours_s", "kernel_s", "objective_rel_diff"], path)
            note = ("our kernel path (label_kernel_dual) not run at this n"
                    if not _ok(r["kernel_s"]) else
                    f"our kernel path (label_kernel_dual) {_s(r['kernel_s'])} s, objectives "
                    f"differ by {_sci(r['objective_rel_diff'])} (relative)")
            out.append(row(f"{r['problem']}, n = {int(r['n'])}, T = {int(r['T'])} "
                           "(WellSVM's inner dual)", "linear_label_kernel_dual", r["ours_s"],
                           note=note))
        else:
            raise ValueError(f"{path}: column 'part' has the value {part!r}, which the table "
                             "does not know (time, memory, label_kernel).")
    return out


def linear_scaling(df: pd.DataFrame, path: Path) -> list[dict]:
    """``linear/scaling.csv``: linear WellSVM at the paper's largest size; the baseline is a
    peer when it is not a supervised fit on the labelled points (k-means in clustering)."""
    _require(df, ["task", "n_instances", "wellsvm_seconds", "peak_rss_mb", "baseline",
                  "baseline_seconds", "wellsvm_accuracy", "baseline_accuracy"], path)
    out = []
    for _, r in df.iterrows():
        base = str(r["baseline"])
        acc = (f"accuracy ours {_num(r['wellsvm_accuracy']):.3f}, {base} "
               f"{_num(r['baseline_accuracy']):.3f}")
        peers = ([] if base in SUPERVISED_BASELINES else
                 [peer(base, r["baseline_seconds"], answer=acc)])
        note = f"peak RSS {_num(r['peak_rss_mb']):.0f} MB"
        if base in SUPERVISED_BASELINES:
            note += f"; {acc} (baseline {_s(r['baseline_seconds'])} s)"
        out.append(row(f"RCV1 substitute, {r['task']}, {int(r['n_instances'])} points",
                       "linear WellSVM", r["wellsvm_seconds"], peers=peers, note=note))
    return out


def mcls(df: pd.DataFrame, path: Path) -> list[dict]:
    """``mcls/results.csv``: each timed row is one of ours. For one LS-SVC solve at an n, the
    peers are the non-cvxpy solvers of that n (the dense solve of the same (n+1) system) and
    cvxpy is the reference of the row whose time includes the factorisation; a whole MCLS
    run has its dense re-solve as peer. ``mcls_iterations`` rows go into the note of the
    ``mcls_run`` row of their n."""
    _require(df, ["benchmark", "n", "ours_seconds", "other", "other_seconds", "note"], path)
    known = ("lssvc_solve", "mcls_run", "mcls_iterations")
    for b in df["benchmark"]:
        if b not in known:
            raise ValueError(f"{path}: column 'benchmark' has the value {b!r}, which the table "
                             f"does not know ({', '.join(known)}).")
    iters = {int(r["n"]): str(r["note"]) for _, r in df.iterrows()
             if r["benchmark"] == "mcls_iterations"}

    def is_ref(other) -> bool:
        return "cvxpy" in str(other).lower()

    out = []
    for _, r in df[df["benchmark"] != "mcls_iterations"].iterrows():
        b, n = r["benchmark"], int(r["n"])
        note = "" if pd.isna(r["note"]) else str(r["note"])
        group = df[(df["benchmark"] == b) & (df["n"] == r["n"])]
        peers = [peer(str(p["other"]), p["other_seconds"],
                      answer=(f"{p['note']}" if b == "mcls_run" and not pd.isna(p["note"])
                              else "solves the same (n+1) linear system"))
                 for _, p in group.iterrows() if not is_ref(p["other"])]
        if b == "mcls_run":
            it = (f"iterations: {iters[n]}" if n in iters and iters[n] not in note else "")
            out.append(row(f"banana, n = {n}, a whole MCLS run", "MCLS, factor once",
                           r["ours_seconds"], peers=peers, note=it))
        elif is_ref(r["other"]):
            out.append(row(f"banana, n = {n}, one LS-SVC solve from scratch",
                           "LS-SVC, factor + solve", r["ours_seconds"], peers=peers,
                           reference_s=r["other_seconds"], note=note))
        else:
            out.append(row(f"banana, n = {n}, one LS-SVC solve for new labels",
                           "LS-SVC, reused Cholesky factor", r["ours_seconds"], peers=peers,
                           note=note))
    return out


def smo_csvm(df: pd.DataFrame, path: Path) -> list[dict]:
    """``smo/results*.csv`` (C-SVM): ours against scikit-learn's LIBSVM at the same settings,
    with shrinking and, when the file has those columns, without."""
    _require(df, ["kernel", "n", "smo_s", "libsvm_s"], path)
    out = []
    for _, r in df.iterrows():
        problem = f"Adult, {r['kernel']}, n = {int(r['n'])}"
        if "cache_mb" in r.index and _ok(r["cache_mb"]):
            problem += f", cache {_num(r['cache_mb']):g} MB"
            if "cache_dtype" in r.index and isinstance(r["cache_dtype"], str):
                problem += f" ({r['cache_dtype']})"
        g = _num(_get(r, "libsvm_rel_gap"))
        answer = (f"LIBSVM's objective vs ours: rel. gap {_sci(g)}" if math.isfinite(g)
                  else "same problem and tolerance; LIBSVM's objective not compared here")
        gq = _num(_get(r, "rel_gap"))
        check = f"ours vs {REFERENCE}: rel. gap {_sci(gq)}" if math.isfinite(gq) else ""
        qp = _get(r, "qp_s", None)
        qp = None if "qp_s" not in r.index else (qp if _ok(qp) else None)
        runs = [("shrinking", "smo_s", "libsvm_s")]
        if {"smo_no_shrinking_s", "libsvm_no_shrinking_s"} <= set(r.index) and (
                _ok(r["smo_no_shrinking_s"]) or _ok(r["libsvm_no_shrinking_s"])):
            runs.append(("no shrinking", "smo_no_shrinking_s", "libsvm_no_shrinking_s"))
        for label, ours_col, lib_col in runs:
            out.append(row(f"{problem}, {label}", "SMO core (smo)", r[ours_col],
                           peers=[peer(f"LIBSVM (scikit-learn SVC), {label}", r[lib_col],
                                       answer=answer)],
                           reference_s=qp, check=check))
    return out


def smo_label_kernel(df: pd.DataFrame, path: Path) -> list[dict]:
    """``smo/results_label_kernel.csv``: WellSVM's inner duals; the one-class SVM on a
    formed Q is a peer for the ``simplex`` problem."""
    _require(df, ["problem", "n", "ours_s", "qp_s", "rel_gap"], path)
    out = []
    for _, r in df.iterrows():
        peers = []
        if "oneclass_s" in r.index and _ok(r["oneclass_s"]):
            peers.append(peer(
                "One-class SVM (LIBSVM) on a formed Q", r["oneclass_s"],
                answer=f"objectives differ by {_sci(_get(r, 'oneclass_rel_gap'))} (relative); "
                       f"forming Q ({_s(_get(r, 'form_Q_s'))} s) not counted"))
        out.append(row(f"Adult, Gaussian, T = 2, {r['problem']} problem, n = {int(r['n'])}",
                       "label_kernel_dual (fresh cache)", r["ours_s"], peers=peers,
                       reference_s=r["qp_s"] if _ok(r["qp_s"]) else None,
                       check=f"ours vs {REFERENCE}: rel. gap {_sci(r['rel_gap'])}"))
    return out


def tsgsu(df: pd.DataFrame, path: Path) -> list[dict]:
    """``tsgsu/results.csv``: time to the target test accuracy (``results.md``); peers: the
    other methods at the same n_U that reached it."""
    _require(df, ["method", "n_unlabelled", "seconds_to_target", "final_accuracy",
                  "status"], path)
    md = path.with_suffix(".md")
    m = re.search(r"Target accuracy:\s*([0-9.]+)", md.read_text()) if md.is_file() else None
    target = m.group(1).rstrip(".") if m else "the target"
    out = []
    for n_u, g in df.groupby("n_unlabelled", sort=False):
        ours = g[g["method"] == "TSGSU"]
        if ours.empty:
            raise ValueError(f"{path}: column 'method' has no 'TSGSU' row at n_unlabelled = "
                             f"{n_u}.")
        o = ours.iloc[0]
        peers = [peer(str(p["method"]), p["seconds_to_target"], _get(p, "peak_traced_mb"),
                      answer=f"final test accuracy ours {_num(o['final_accuracy']):.3f}, "
                             f"{p['method']} {_num(p['final_accuracy']):.3f}")
                 for _, p in g.iterrows()
                 if p["method"] != "TSGSU" and p["status"] == "ok"
                 and _ok(p["seconds_to_target"])]
        note = "" if _ok(o["seconds_to_target"]) else f"TSGSU did not reach {target}"
        out.append(row(f"waveform SU, n_U = {int(n_u)}, time to test accuracy {target}",
                       "TSGSU (faithful mode)", o["seconds_to_target"], peers=peers,
                       memory=_get(o, "peak_traced_mb"), note=note))
    return out


def tsgsu_modes(df: pd.DataFrame, path: Path) -> list[dict]:
    """``tsgsu/results_modes.csv``: TSGSU's default mode (``auto``) against its other modes
    at growing n_U, CPU seconds of 100 iterations; the peers are the same algorithm's other
    modes (the same iterates up to rounding), ``faithful`` being the paper's."""
    _require(df, ["mode", "mode_run", "n_u", "cpu_s", "f_rows"], path)
    out = []
    for n_u, g in df.groupby("n_u", sort=False):
        ours = g[g["mode"] == "auto"]
        if ours.empty:
            raise ValueError(f"{path}: column 'mode' has no 'auto' row at n_u = {n_u}.")
        o = ours.iloc[0]
        peers = [peer(f"TSGSU mode={p['mode']}" + (" (the paper's)" if p["mode"] == "faithful"
                                                  else ""), p["cpu_s"],
                      answer=f"{int(p['f_rows']):,} row-block products, ours "
                             f"{int(o['f_rows']):,}")
                 for _, p in g.iterrows() if p["mode"] != "auto"]
        out.append(row(f"waveform SU, n_U = {int(n_u)}, 100 iterations (CPU s)",
                       f"TSGSU default (auto: ran {o['mode_run']})", o["cpu_s"], peers=peers))
    return out


def usmo(df: pd.DataFrame, path: Path) -> list[dict]:
    """``usmo/results.csv``: per kernel, n and source, USMO against cvxpy (the reference)
    and the other methods (LIBSVM's C-SVM of the same size is a speed anchor on another
    problem)."""
    _require(df, ["method", "kernel", "n", "source", "seconds"], path)
    out = []
    for (kernel, n, source), g in df.groupby(["kernel", "n", "source"], sort=False):
        ours = g[g["method"] == "USMO"]
        if ours.empty:
            raise ValueError(f"{path}: column 'method' has no 'USMO' row for kernel "
                             f"{kernel}, n = {n}, source {source}.")
        o = ours.iloc[0]
        ref = g[g["method"] == REFERENCE]
        ref_s = ref.iloc[0]["seconds"] if len(ref) and _ok(ref.iloc[0]["seconds"]) else None
        check = ""
        if ref_s is not None and "objective" in g.columns:
            a, b = _num(o["objective"]), _num(ref.iloc[0]["objective"])
            if math.isfinite(a) and math.isfinite(b) and b != 0:
                check = (f"ours vs {REFERENCE}: recorded objectives differ by "
                         f"{_sci((a - b) / abs(b))} (relative)")
        peers = []
        for _, p in g[~g["method"].isin(["USMO", REFERENCE])].iterrows():
            ans = ("a C-SVM of the same size (positives vs unlabelled): a speed anchor, not "
                   "the same problem" if str(p["method"]).startswith("LIBSVM C-SVM")
                   else "answer not compared in this file")
            peers.append(peer(str(p["method"]), p["seconds"], _get(p, "peak_mb"), answer=ans))
        note = ""
        if "error" in o.index and isinstance(o["error"], str) and o["error"]:
            note = f"USMO failed: {o['error']}"
        out.append(row(f"{source}, {kernel}, n = {int(n)}", "USMO", o["seconds"],
                       peers=peers, reference_s=ref_s, memory=_get(o, "peak_mb"),
                       check=check, note=note))
    return out


def wellsvm_ssl(df: pd.DataFrame, path: Path) -> list[dict]:
    """``wellsvm/results.csv``: each WellSVM variant against the other semi-supervised
    methods fitted on the same problem (other models; the labelled-only SVM is a
    baseline)."""
    _require(df, ["problem", "n_train", "n_labelled", "method", "fit_s", "test_correct",
                  "n_test"], path)
    out = []
    for prob, g in df.groupby("problem", sort=False):
        first = g.iloc[0]
        problem = f"{prob}, {int(first['n_train'])} train rows ({int(first['n_labelled'])} "\
                  "labelled)"
        others = g[~g["method"].str.startswith("WellSVM")
                   & ~g["method"].isin(SUPERVISED_BASELINES)]
        for _, o in g[g["method"].str.startswith("WellSVM")].iterrows():
            peers = [peer(str(p["method"]), p["fit_s"],
                          answer=f"another model; test points correct: ours "
                                 f"{int(o['test_correct'])}, {p['method']} "
                                 f"{int(p['test_correct'])} of {int(o['n_test'])}")
                     for _, p in others.iterrows()]
            out.append(row(problem, str(o["method"]), o["fit_s"], peers=peers))
    return out


def wellsvm_clustering(df: pd.DataFrame, path: Path) -> list[dict]:
    """``wellsvm/results_clustering.csv``: WellSVM clustering against GMMC (a peer when its
    SDP was solved)."""
    _require(df, ["dataset", "n", "wellsvm_s", "gmmc_s", "gmmc_status", "wellsvm_accuracy",
                  "gmmc_accuracy"], path)
    out = []
    for _, r in df.iterrows():
        solved = str(r["gmmc_status"]) == "solved"
        acc = (f"clustering accuracy ours {_num(r['wellsvm_accuracy']):.3f}, GMMC "
               f"{_num(r['gmmc_accuracy']):.3f}")
        peers = [peer("GMMC (SDP, cvxpy + SCS)", r["gmmc_s"], answer=acc)] if solved else []
        out.append(row(f"{r['dataset']}, n = {int(r['n'])}", "WellSVMClustering",
                       r["wellsvm_s"], peers=peers,
                       note="" if solved else f"GMMC status {r['gmmc_status']}"))
    return out


def wellsvm_inner(df: pd.DataFrame, path: Path) -> list[dict]:
    """``wellsvm/results_inner.csv``: the µ-SVM (simplex) solver against LIBSVM's one-class
    SVM on the formed Q."""
    _require(df, ["n", "T", "eps", "ours_s", "oneclass_s", "rel_gap"], path)
    out = []
    for _, r in df.iterrows():
        extra = ""
        if "oneclass_plus_K_Q_s" in r.index and _ok(r["oneclass_plus_K_Q_s"]):
            extra = f" (with them the peer takes {_s(r['oneclass_plus_K_Q_s'])} s)"
        out.append(row(
            f"Krvskp µ-SVM, n = {int(r['n'])}, T = {int(r['T'])}, tolerance {_num(r['eps']):g}",
            "label_kernel_dual simplex (fresh cache)", r["ours_s"],
            peers=[peer("One-class SVM (LIBSVM) on a formed Q", r["oneclass_s"],
                        answer=f"objectives differ by {_sci(r['rel_gap'])} (relative); "
                               f"computing K and forming Q not counted{extra}")]))
    return out


def wellsvm_scaling(df: pd.DataFrame, path: Path) -> list[dict]:
    """``wellsvm/results_scaling*.csv``: WellSVM alone at growing n (no peer)."""
    _require(df, ["variant", "n", "seconds"], path)
    out = []
    for _, r in df.iterrows():
        parts = []
        if _ok(_get(r, "peak_rss_mb")):
            parts.append(f"peak RSS {_num(r['peak_rss_mb']):.0f} MB")
        if _ok(_get(r, "cache_mb")):
            parts.append(f"cache {_num(r['cache_mb']):.0f} MB {_get(r, 'cache_dtype', '')}"
                         .rstrip())
        if math.isfinite(_num(_get(r, "unlabelled_accuracy"))):
            parts.append(f"unlabelled accuracy {_num(r['unlabelled_accuracy']):.3f}")
        out.append(row(f"Adult, Gaussian, n = {int(r['n'])}", f"WellSVM ({r['variant']})",
                       r["seconds"], note="; ".join(parts)))
    return out


#: (path pattern relative to benchmarks/, adapter); the first match wins
ADAPTERS = [
    ("convergence/results.csv", convergence),
    ("linear/results.csv", linear),
    ("linear/scaling.csv", linear_scaling),
    ("mcls/results.csv", mcls),
    ("smo/results_label_kernel.csv", smo_label_kernel),
    ("smo/results*.csv", smo_csvm),
    ("tsgsu/results_modes.csv", tsgsu_modes),
    ("tsgsu/results.csv", tsgsu),
    ("usmo/results.csv", usmo),
    ("wellsvm/results_clustering.csv", wellsvm_clustering),
    ("wellsvm/results_inner.csv", wellsvm_inner),
    ("wellsvm/results_scaling*.csv", wellsvm_scaling),
    ("wellsvm/results.csv", wellsvm_ssl),
]


def adapter_for(rel: str):
    for pattern, fn in ADAPTERS:
        if fnmatch.fnmatchcase(rel, pattern):
            return fn
    raise ValueError(f"benchmarks/{rel} has no adapter in benchmarks/table.py (ADAPTERS); "
                     "add one so that its rows are in the table.")


def results_files(root: Path = ROOT) -> list[Path]:
    """Every results table: ``<name>/results*.csv`` and ``<name>/scaling*.csv``."""
    files = set(root.glob("*/results*.csv")) | set(root.glob("*/scaling*.csv"))
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


# --------------------------------------------------------------------------- the run's record
def _threads(threads: dict) -> str:
    """One line for the thread variables: a missing key was not recorded, a ``None`` value
    (as ``os.environ.get`` returns it) was unset."""
    vals = {v: (NOT_RECORDED if v not in threads else
                "unset" if threads[v] is None else str(threads[v])) for v in THREAD_VARS}
    if len(set(vals.values())) == 1:
        return f"{next(iter(vals.values()))} (OMP, OPENBLAS, MKL, NUMBA)"
    return ", ".join(f"{k.split('_')[0]}={v}" for k, v in vals.items())


def _load_pair(start, end) -> str:
    def one(v):
        return f"{_num(v[0]):.2f}" if isinstance(v, list | tuple) and v else None
    a, b = one(start), one(end)
    if a and b:
        return f"{a} → {b}"
    return f"{a} at start" if a else (f"{b} at end" if b else NOT_RECORDED)


def meta_from_json(path: Path) -> dict:
    """Machine, load, threads and date of ``<stem>_meta.json`` (one run, or ``{"runs":
    [...]}`` for a file measured by several runs)."""
    m = json.loads(path.read_text())
    runs = m["runs"] if isinstance(m, dict) and "runs" in m else [m]
    if not runs:
        return {"machine": NOT_RECORDED, "load": NOT_RECORDED, "threads": NOT_RECORDED,
                "date": NOT_RECORDED, "source": path.name}
    machines, loads, threads, dates = [], [], [], []
    for r in runs:
        parts = [r.get("machine") or ""]
        cpu = r.get("cpu_model") or r.get("processor") or ""
        if cpu and cpu != "not available":
            parts.append(cpu)
        if r.get("cpu_count"):
            parts.append(f"{r['cpu_count']} CPUs")
        if r.get("python"):
            parts.append(f"Python {r['python']}")
        machines.append(", ".join(p for p in parts if p) or NOT_RECORDED)
        loads.append(_load_pair(r.get("loadavg_start", r.get("loadavg_before")),
                                r.get("loadavg", r.get("loadavg_after"))))
        threads.append(_threads(r["threads"]) if isinstance(r.get("threads"), dict)
                       else NOT_RECORDED)
        d = r.get("utc", r.get("finished_utc", r.get("started_utc")))
        dates.append(str(d)[:16].replace("T", " ") + " UTC" if d else NOT_RECORDED)

    def join(xs):
        return " / ".join(dict.fromkeys(xs))
    return {"machine": join(machines), "load": " / ".join(loads), "threads": join(threads),
            "date": join(dates), "source": path.name}


def meta_from_md(text: str) -> dict | None:
    """Machine, load and threads from a ``Machine: ...`` line (the results .md header), or
    ``None`` when there is no such line."""
    line = next((ln for ln in text.splitlines() if ln.startswith("Machine:")), None)
    if line is None:
        return None
    m = re.match(r"Machine:\s*([^,;(]+?),\s*(\d+)\s*cores", line)
    machine = f"{m.group(1).strip()}, {m.group(2)} CPUs" if m else NOT_RECORDED
    py = re.search(r"Python\s+([0-9][0-9.]*[0-9])", line)
    if py and m:
        machine += f", Python {py.group(1)}"
    loads = [f"{v}{' at ' + (w1 or w2) if (w1 or w2) else ''}" for w1, v, w2 in re.findall(
        r"load average\s*(?:at the (start|end)\s*)?"
        r"(\d+(?:\.\d+)?(?:\s*[-–]\s*\d+(?:\.\d+)?)?)(?:\s*at the (start|end))?", line)]
    threads = NOT_RECORDED
    d = re.search(r"threads\s*(\{[^}]*\})", line)
    if d:
        try:
            threads = _threads(ast.literal_eval(d.group(1)))
        except (ValueError, SyntaxError):
            threads = d.group(1)
    else:
        t = (re.search(r"((?:OMP|OPENBLAS|MKL|NUMBA)[A-Z_/]*\s*=\s*\d+)", line)
             or re.search(r"(one thread[^;.,)]*)", line))
        if t:
            threads = t.group(1).strip()
    return {"machine": machine, "load": "; ".join(loads) or NOT_RECORDED, "threads": threads,
            "date": NOT_RECORDED}


def run_info(csv: Path, df: pd.DataFrame | None = None) -> dict:
    """The run's machine, load, threads and date, and where they were read."""
    meta = csv.with_name(f"{csv.stem}_meta.json")
    if meta.is_file():
        return meta_from_json(meta)
    md = csv.with_suffix(".md")
    if md.is_file():
        info = meta_from_md(md.read_text())
        if info is not None:
            return {**info, "source": f"{md.name} (first line)"}
    if df is not None and "machine" in df.columns and df["machine"].notna().any():
        return {"machine": " / ".join(dict.fromkeys(df["machine"].dropna().astype(str))),
                "load": NOT_RECORDED, "threads": NOT_RECORDED, "date": NOT_RECORDED,
                "source": f"{csv.name} (column machine)"}
    return {"machine": NOT_RECORDED, "load": NOT_RECORDED, "threads": NOT_RECORDED,
            "date": NOT_RECORDED, "source": NOT_RECORDED}


# --------------------------------------------------------------------------- the page
def table_rows(csv: Path, root: Path = ROOT) -> tuple[list[dict], dict]:
    """The printed rows of one results file and its run's record."""
    rel = csv.relative_to(root).as_posix()
    fn = adapter_for(rel)
    df = pd.read_csv(csv)
    info = run_info(csv, df)
    name = rel.split("/")[0]
    bench = f"[{name}]({name}/README.md) `{csv.name}`"
    rows = []
    for r in fn(df, csv):
        cells = {"benchmark": bench, **finish(r),
                 **{k: info[k] for k in ("machine", "load", "threads")}}
        rows.append(cells)
    return rows, info


def _cell(v) -> str:
    return str(v).replace("|", "\\|").replace("\n", " ")


def markdown_table(rows: list[dict]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cell(r[c]) for c in COLUMNS) + " |" for r in rows]
    return "\n".join(lines)


INTRO = """\
# Benchmarks: ours against the best peer

<!-- generated by benchmarks/table.py from the committed results; do not edit by hand -->

One row per problem of every benchmark's results file (`<name>/results*.csv`), side by side:

- **ours**: the package's solver and its time in seconds (each benchmark's README says how
  it was timed: best of several fits, one fit, time to a target accuracy, ...).
- **best peer**: the fastest *other* solver in the same results file that the benchmark ran
  on the same problem or the same task; the column **answers** says how its answer compares
  with ours (the same optimum to a relative gap, or another problem, such as LIBSVM's C-SVM
  next to USMO, or another model, such as TSVM next to WellSVM). "no peer in this benchmark"
  when the file has none. A supervised fit on the labelled points alone is a baseline, not a
  peer. cvxpy + Clarabel, the reference that certifies our solvers, has its own column.
- **ours / peer**, **ours / reference**: our time divided by theirs; **a ratio below 1 means
  ours is faster**. **memory ours / peer**: the same for peak memory, where the file records
  it for both. "—": no such solver, or not run at that size, in that file.
- **A ratio is only measured within one run**: both times come from the same run of the same
  script on the same machine. Rows come from different runs, days, machines and loads, so
  compare within a row, not across rows.
- **machine, load, threads**: of the run that wrote the file, from `<stem>_meta.json`
  (written by `benchmarks/_meta.py`; load = 1-minute load average at the start → at the end
  of the run), else from the `Machine:` line of `<stem>.md`, else "not recorded".

Regenerate: `make bench` runs every benchmark script with its default arguments (hours on
a 2-core machine), then `benchmarks/table.py`; `make bench-table` only rebuilds this page
from the committed results (`python benchmarks/table.py`; `--check` fails when it is stale).
"""


def render(root: Path = ROOT) -> str:
    """The text of ``benchmarks/README.md`` from the results files under ``root``."""
    files = results_files(root)
    all_rows, infos = [], []
    for csv in files:
        rows, info = table_rows(csv, root)
        all_rows += rows
        infos.append((csv, info))
    out = [INTRO, markdown_table(all_rows), "", "## The benchmarks", ""]
    for name in sorted({c.relative_to(root).parts[0] for c in files}):
        scripts = sorted(p.name for p in (root / name).glob("*.py"))
        out.append(f"- [{name}]({name}/README.md): "
                   f"{', '.join(f'`{s}`' for s in scripts) or 'no script'}")
        for csv, info in infos:
            if csv.parent.name != name:
                continue
            src = "" if info["source"] == NOT_RECORDED else f" (from {info['source']})"
            out.append(f"  - `{csv.name}`: machine {info['machine']}; load {info['load']}; "
                       f"threads {info['threads']}; run {info['date']}{src}")
    return "\n".join(out) + "\n"


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="the benchmarks folder")
    ap.add_argument("--out", type=Path, default=None,
                    help="the page to write (default: <root>/README.md)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when the page differs from what it would be")
    args = ap.parse_args(argv)
    out = args.out or args.root / "README.md"
    text = render(args.root)
    if args.check:
        same = out.is_file() and out.read_text(encoding="utf-8") == text
        print(f"{out}: {'up to date' if same else 'STALE: run python benchmarks/table.py'}")
        return 0 if same else 1
    write_atomic(out, text)
    print(f"wrote {out} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
