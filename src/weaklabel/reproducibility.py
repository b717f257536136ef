"""Bit-identical re-runs of the pipeline: what may differ between two runs, and a check.

Two runs of ``dvc repro`` on the same inputs and the same environment (``requirements.lock``)
must write the same ``results/`` byte for byte, except for the wall-clock times and memory
readings declared in :data:`VOLATILE`, the one place that says which result columns (CSV)
and keys (JSON, at any depth) may differ.

What is compared (:func:`compare_trees`): ``results/**/*.csv``, ``*.json`` and ``*.md``, as
text, cell by cell (CSV), value by value (JSON) or line by line (Markdown), with the
:data:`VOLATILE` columns and keys masked. What is not compared, and why:

- ``reports/`` (executed notebooks and their HTML): their text carries timings, progress
  bars and plots of timings. Every number in them is read from ``results/``.
- ``figures/``: several plot timings or memory (``scaling_time``, ``scaling_memory``,
  ``fig1_per_pass``); the numbers behind each figure are in ``results/``. Each figure's
  provenance sidecar (``<name>.json``, :mod:`weaklabel.provenance`) keeps what differs
  between two runs of the same inputs (the git commit) in its ``run`` block, masked like
  that of ``metrics.json``, so the sidecars compare equal under :func:`compare_json`.
- ``benchmarks/``: not pipeline outputs, and entirely timings.

``python -m weaklabel.reproducibility verify [--profile smoke]`` (``make verify-repro``) runs
``dvc repro -f`` in two fresh temporary copies of the working tree and compares their
results; ``... compare DIR_A DIR_B`` compares two existing trees. Both exit non-zero on any
difference and print every differing file and cell.

Thread counts: :data:`THREAD_ENV` (one BLAS/OpenMP/numba thread per process; the grids run
2 worker processes) is exported by the Makefile and set by
:func:`weaklabel.pipeline.run_notebook` for the notebook kernel when unset, so that no
result depends on how a reduction was split across threads.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: result columns (CSV) and keys (JSON, at any depth) holding wall-clock times or memory
#: readings: the only values allowed to differ between two runs.
VOLATILE = frozenset({
    "seconds",            # usmo: scores_*, ablations, scaling, pass_trace; mcls: raw_main
    "select_seconds",     # mcls: raw_main (hyperparameter selection)
    "solver_seconds",     # */crosscheck*.csv
    "reference_seconds",  # */crosscheck*.csv
    "warmup_seconds",     # usmo: scaling
    "peak_mb",            # usmo: scaling (resident-set high-water mark)
    "runtime_seconds",    # mcls: metrics.json
    "seconds_smo",        # usmo: ramp_paths (RampPU fit, SMO steps)
    "seconds_qp",         # usmo: ramp_paths (RampPU fit, cvxpy steps)
    "fit_seconds",        # estimators' fit_seconds_, wherever a table records it
    "init_seconds",       # USMO result: initialisation time (pass-trace summaries)
    "solve_seconds",      # USMO result: solve time (pass-trace summaries)
    "golden_seconds_mean",  # wellsvm: metrics.json (mean fit time of the golden check)
    "run",                # every metrics.json: the stage's own cost (weaklabel.stagerun)
})

#: thread counts that make BLAS, OpenMP and numba results independent of the machine
THREAD_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "NUMBA_NUM_THREADS": "1"}

#: the compared part of a result tree
RESULTS_DIR = "results"
COMPARED_SUFFIXES = (".csv", ".json", ".md")
#: pipeline outputs regenerated (never copied) in a fresh copy
OUTPUT_DIRS = ("results", "reports", "figures")


@dataclass(frozen=True)
class Difference:
    """One differing file or cell: ``path`` relative to the tree, ``where`` in the file."""

    path: str
    where: str
    a: str = ""
    b: str = ""

    def __str__(self) -> str:
        if not self.a and not self.b:
            return f"{self.path}: {self.where}"
        return f"{self.path}: {self.where}: {self.a!r} != {self.b!r}"


def apply_thread_env(env: dict | None = None) -> dict:
    """Set :data:`THREAD_ENV` in ``env`` (default ``os.environ``) where unset; returns it."""
    env = os.environ if env is None else env
    for k, v in THREAD_ENV.items():
        env.setdefault(k, v)
    return env


def _files(root: Path) -> set[str]:
    base = root / RESULTS_DIR
    if not base.is_dir():
        return set()
    return {p.relative_to(root).as_posix() for p in base.rglob("*")
            if p.is_file() and p.suffix in COMPARED_SUFFIXES}


def compare_csv(a: Path, b: Path, rel: str, volatile: Iterable[str] = VOLATILE):
    """Cell-by-cell text comparison; columns named in ``volatile`` are masked."""
    volatile = set(volatile)
    with open(a, newline="") as fa, open(b, newline="") as fb:
        ra, rb = list(csv.reader(fa)), list(csv.reader(fb))
    if not ra or not rb:
        return [] if ra == rb else [Difference(rel, "one file is empty")]
    if ra[0] != rb[0]:
        return [Difference(rel, "header", ",".join(ra[0]), ",".join(rb[0]))]
    header = ra[0]
    keep = [j for j, c in enumerate(header) if c not in volatile]
    out = []
    if len(ra) != len(rb):
        out.append(Difference(rel, "number of rows", str(len(ra) - 1), str(len(rb) - 1)))
    for i, (x, y) in enumerate(zip(ra[1:], rb[1:]), start=1):
        if len(x) != len(y):
            out.append(Difference(rel, f"row {i}: number of cells", str(len(x)), str(len(y))))
            continue
        for j in keep:
            if j < len(x) and x[j] != y[j]:
                out.append(Difference(rel, f"row {i}, column {header[j]!r}", x[j], y[j]))
    return out


def _json_diff(x, y, rel: str, where: str, volatile: set[str], out: list) -> None:
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y), key=str):
            if k in volatile:
                continue
            if k not in x or k not in y:
                out.append(Difference(rel, f"key {where}{k}: only in "
                                           f"{'the first' if k in x else 'the second'}"))
            else:
                _json_diff(x[k], y[k], rel, f"{where}{k}/", volatile, out)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y)):
            _json_diff(u, v, rel, f"{where}{i}/", volatile, out)
    else:
        sx, sy = json.dumps(x, sort_keys=True), json.dumps(y, sort_keys=True)
        if sx != sy:  # exact: floats compared by their shortest repr
            out.append(Difference(rel, f"key {where.rstrip('/') or '(root)'}", sx, sy))


def compare_json(a: Path, b: Path, rel: str, volatile: Iterable[str] = VOLATILE):
    """Value-by-value comparison; keys named in ``volatile`` are masked at any depth."""
    out: list[Difference] = []
    _json_diff(json.loads(Path(a).read_text()), json.loads(Path(b).read_text()), rel, "",
               set(volatile), out)
    return out


def compare_text(a: Path, b: Path, rel: str):
    """Line-by-line comparison (Markdown: no timings there)."""
    la, lb = Path(a).read_text().splitlines(), Path(b).read_text().splitlines()
    out = [Difference(rel, f"line {i}", x, y)
           for i, (x, y) in enumerate(zip(la, lb), start=1) if x != y]
    if len(la) != len(lb):
        out.append(Difference(rel, "number of lines", str(len(la)), str(len(lb))))
    return out


class NothingCompared(ValueError):
    """A comparison that could not compare anything (a missing or empty tree)."""


def compare_trees(a: str | Path, b: str | Path,
                  volatile: Iterable[str] = VOLATILE) -> list[Difference]:
    """Every difference between ``a/results`` and ``b/results`` (see module docstring).

    Raises :class:`NothingCompared` when either tree has no ``results/`` directory or when
    the two hold no compared file at all: a check that compared nothing must not pass."""
    a, b = Path(a), Path(b)
    for root in (a, b):
        if not (root / RESULTS_DIR).is_dir():
            raise NothingCompared(f"{root / RESULTS_DIR} is not a directory: nothing to "
                                  "compare (give two trees that hold a results/ folder).")
    fa, fb = _files(a), _files(b)
    if not fa and not fb:
        raise NothingCompared(f"neither {a / RESULTS_DIR} nor {b / RESULTS_DIR} holds a "
                              f"{'/'.join(COMPARED_SUFFIXES)} file: nothing was compared.")
    out = [Difference(rel, f"only in {a if rel in fa else b}") for rel in sorted(fa ^ fb)]
    for rel in sorted(fa & fb):
        pa, pb = a / rel, b / rel
        if pa.read_bytes() == pb.read_bytes():
            continue
        if rel.endswith(".csv"):
            out += compare_csv(pa, pb, rel, volatile)
        elif rel.endswith(".json"):
            out += compare_json(pa, pb, rel, volatile)
        else:
            out += compare_text(pa, pb, rel)
    return out


def format_differences(diffs: list[Difference], limit: int | None = None) -> str:
    """One line per difference, grouped by file with a count per file."""
    if not diffs:
        return "no differences"
    lines, by_file = [], {}
    for d in diffs:
        by_file.setdefault(d.path, []).append(d)
    for path, ds in by_file.items():
        lines.append(f"{path}: {len(ds)} difference(s)")
        shown = ds if limit is None else ds[:limit]
        lines += [f"  {d.where}: {d.a!r} != {d.b!r}" if (d.a or d.b) else f"  {d.where}"
                  for d in shown]
        if len(shown) < len(ds):
            lines.append(f"  ... and {len(ds) - len(shown)} more")
    return "\n".join(lines)


# --------------------------------------------------------------------------- running twice
def pipeline_env(work: str | Path | None = None, base: dict | None = None) -> dict:
    """Environment for ``git``/``dvc`` in a copy: this interpreter's bin first on PATH and,
    given ``work``, the copy's own ``src`` first on PYTHONPATH (the pipeline and the notebook
    kernels then import the copy's package, not the editable install's)."""
    bindir = str(Path(sys.executable).parent)
    env = dict(os.environ if base is None else base)
    env.update(PATH=bindir + os.pathsep + env.get("PATH", ""), DVC_NO_ANALYTICS="1",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    if work is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(Path(work).resolve() / "src")] + ([env["PYTHONPATH"]]
                                                   if env.get("PYTHONPATH") else []))
    return apply_thread_env(env)


def _run(cmd, cwd, env) -> str:
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed in {cwd}:\n"
                           f"{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return r.stdout


def copy_worktree(src: str | Path, dst: str | Path, profile: str | None = None,
                  env: dict | None = None) -> Path:
    """Copy the working tree of ``src`` (tracked and untracked files, not ignored ones: it
    sees uncommitted work) to ``dst`` without pipeline outputs or ``dvc.lock``, optionally
    set ``profile`` in its ``params.yaml``, and make it a one-commit git repository."""
    import yaml

    src, dst = Path(src), Path(dst)
    env = pipeline_env() if env is None else env
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=src,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    for f in files:
        if f.split("/", 1)[0] in OUTPUT_DIRS or f == "dvc.lock":
            continue  # pipeline outputs must be regenerated, not copied
        p = src / f
        if p.is_file():
            (dst / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, dst / f)
    if profile is not None:
        params = yaml.safe_load((dst / "params.yaml").read_text())
        params["profile"] = profile
        (dst / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    _run(["git", "init", "-q"], dst, env)
    _run(["git", "add", "-A"], dst, env)
    _run(["git", "commit", "-qm", "snapshot"], dst, env)
    return dst


def run_pipeline(work: str | Path, force: bool = True, env: dict | None = None) -> float:
    """``dvc repro [-f]`` in ``work``; returns the wall time in seconds."""
    env = pipeline_env(work) if env is None else env
    t0 = time.perf_counter()
    _run([sys.executable, "-m", "dvc", "repro"] + (["-f"] if force else []), work, env)
    return time.perf_counter() - t0


def check_complete_run(work: str | Path, env: dict | None = None) -> list[str]:
    """What is wrong with a finished ``dvc repro`` in ``work``: a stage ``dvc status`` does not
    call up to date, a declared output (``outs`` / ``metrics``) that was not produced, a
    summary without a table. Empty when the run is complete."""
    import yaml

    work = Path(work)
    env = pipeline_env(work) if env is None else env
    problems = []
    status = _run([sys.executable, "-m", "dvc", "status"], work, env)
    if "up to date" not in status.lower():
        problems.append(f"dvc status after the run:\n{status}")
    stages = yaml.safe_load((work / "dvc.yaml").read_text())["stages"]
    for name, stage in stages.items():
        for out in stage.get("outs", []) + stage.get("metrics", []):
            out = out if isinstance(out, str) else next(iter(out))
            if not (work / out).exists():
                problems.append(f"stage {name}: {out} was not produced")
    summary = work / RESULTS_DIR / "summary.md"
    if not summary.is_file() or summary.read_text().count("|") <= 10:
        problems.append(f"{summary} holds no summary table")
    return problems


def stage_costs_line(work: str | Path) -> str:
    """``stage wall/CPU`` of every stage that wrote a ``run`` block, and the total."""
    from .costs import stage_runs

    rows = [r for r in stage_runs(Path(work)) if r.get("wall_seconds") is not None]
    parts = [f"{r['stage']} {r['wall_seconds']:.0f} s" for r in rows]
    total = sum(r["wall_seconds"] for r in rows)
    return f"{', '.join(parts)}; total {total:.0f} s wall"


def verify(profile: str | None = None, root: str | Path | None = None, keep: bool = False,
           workdir: str | Path | None = None) -> list[Difference]:
    """Run the pipeline twice in fresh copies of ``root`` and compare their results.

    The copies live at one path, one after the other (the first is moved aside once it has
    run), so the second run finds the numba cache the first one compiled into
    ``NUMBA_CACHE_DIR``: the comparison also shows that cached and freshly compiled code
    give the same numbers. After the first run, :func:`check_complete_run` must find nothing
    wrong (RuntimeError otherwise)."""
    from .pipeline import repo_root

    root = repo_root(root)
    base = Path(tempfile.mkdtemp(prefix="weaklabel-repro-", dir=workdir))
    try:
        runs = []
        for name in ("first", "second"):
            work = copy_worktree(root, base / "work", profile)
            print(f"[verify-repro] {name} run: dvc repro -f in {work}", flush=True)
            secs = run_pipeline(work)
            print(f"[verify-repro] {name} run took {secs:.0f} s ({stage_costs_line(work)})",
                  flush=True)
            if name == "first":
                problems = check_complete_run(work)
                if problems:
                    raise RuntimeError("the first run is incomplete:\n" + "\n".join(problems))
            done = base / name
            work.rename(done)
            runs.append(done)
        return compare_trees(*runs)
    finally:
        if keep:
            print(f"[verify-repro] copies kept in {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)


def main(argv=None) -> int:
    from .pipeline import PROFILES

    ap = argparse.ArgumentParser(prog="python -m weaklabel.reproducibility",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("verify", help="run the pipeline twice and compare the results")
    v.add_argument("--profile", choices=PROFILES, help="default: params.yaml's profile")
    v.add_argument("--keep", action="store_true", help="keep the two temporary copies")
    c = sub.add_parser("compare", help="compare the results/ of two trees")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "verify":
            diffs = verify(args.profile, keep=args.keep)
        else:
            diffs = compare_trees(args.a, args.b)
    except (NothingCompared, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(format_differences(diffs))
    masked = ", ".join(sorted(VOLATILE))
    print(f"{'DIFFERENT' if diffs else 'IDENTICAL'} (masked columns/keys: {masked})")
    return 1 if diffs else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
