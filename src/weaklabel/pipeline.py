"""Pipeline helpers used by ``dvc.yaml`` (``python -m weaklabel.pipeline ...``).

- ``run NOTEBOOK``: execute ``notebooks/NOTEBOOK.ipynb`` with papermill (kernel
  ``python3``, ``-p profile <profile>``) into ``reports/NOTEBOOK.ipynb``, strip run-specific
  metadata (timestamps, durations) so that the committed report changes only when results
  change, and export ``reports/NOTEBOOK.html``. Both files are written atomically.
- ``summary``: aggregate ``results/*/comparison.csv`` and ``crosscheck.csv`` into
  ``results/summary.md`` and copy it into ``README.md`` between the summary markers.
- ``params``: :func:`load_params` reads one paper's section for the active profile.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import yaml

from ._io import atomic_path, write_text

PROFILES = ("smoke", "default", "large")
README_BEGIN = "<!-- summary:begin -->"
README_END = "<!-- summary:end -->"


def repo_root(start: str | Path | None = None) -> Path:
    """The directory holding ``params.yaml`` (searching upwards from ``start`` or cwd)."""
    p = Path(start or os.getcwd()).resolve()
    for q in (p, *p.parents):
        if (q / "params.yaml").is_file():
            return q
    raise FileNotFoundError(f"no params.yaml found above {p}; run from the repository.")


def load_params(section: str, profile: str | None = None, root: str | Path | None = None):
    """Parameters of ``section`` for ``profile``.

    ``params.yaml`` holds, per section, shared keys plus one sub-mapping per profile;
    the profile's keys override the shared ones. ``profile=None`` uses the file's
    ``profile`` key.
    """
    root = repo_root(root)
    params = yaml.safe_load((root / "params.yaml").read_text())
    profile = profile or params.get("profile", "default")
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}.")
    if section not in params:
        raise ValueError(f"params.yaml has no section {section!r}; known: {sorted(params)}.")
    sec = dict(params[section])
    out = {k: v for k, v in sec.items() if k not in PROFILES}
    over = sec.get(profile)
    if over is None and profile == "large":
        over = sec.get("default", {})
    out.update(over or {})
    out["profile"] = profile
    return out


def clean_notebook(nb: dict) -> dict:
    """Remove run-specific metadata (papermill timings, execution timestamps)."""
    pm = nb.get("metadata", {}).get("papermill", {})
    for k in ("start_time", "end_time", "duration", "input_path", "output_path",
              "environment_variables", "exception"):
        pm.pop(k, None)
    nb.get("metadata", {}).pop("widgets", None)
    for cell in nb.get("cells", []):
        md = cell.get("metadata", {})
        md.pop("execution", None)
        p = md.get("papermill")
        if isinstance(p, dict):
            for k in ("start_time", "end_time", "duration", "status", "exception"):
                p.pop(k, None)
    return nb


def run_notebook(name: str, profile: str | None = None, root: str | Path | None = None) -> Path:
    """Execute one notebook into ``reports/`` (see module docstring)."""
    import nbformat
    import papermill as pm
    from nbconvert import HTMLExporter

    root = repo_root(root)
    if profile is None:
        profile = yaml.safe_load((root / "params.yaml").read_text()).get("profile", "default")
    src = root / "notebooks" / f"{name}.ipynb"
    if not src.is_file():
        raise FileNotFoundError(f"notebook {src} does not exist.")
    out = root / "reports" / f"{name}.ipynb"
    with atomic_path(out) as tmp:
        pm.execute_notebook(str(src), str(tmp), parameters={"profile": profile},
                            kernel_name="python3", cwd=str(root), progress_bar=True,
                            log_output=False)
        nb = json.loads(tmp.read_text())
        tmp.write_text(json.dumps(clean_notebook(nb), indent=1, ensure_ascii=False) + "\n")
    nbnode = nbformat.read(str(out), as_version=4)
    html, _ = HTMLExporter(template_name="lab").from_notebook_node(nbnode)
    write_text(html, out.with_suffix(".html"))
    return out


def datasets_report(root: str | Path | None = None) -> Path:
    """Verify every registered dataset (sha256), load it, and write ``results/data/datasets.csv``.

    Raises on the first checksum mismatch or missing file (the error names the file).
    """
    import pandas as pd

    from . import data

    root = repo_root(root)
    rows = []
    for name in data.list_datasets():
        paths = data.fetch(name)
        ds = data.load(name)
        y = getattr(ds, "y", None)
        counts = {} if y is None else pd.Series(y).value_counts().sort_index().to_dict()
        rows.append({"dataset": name, "files": len(paths), "rows": int(ds.X.shape[0]),
                     "features": int(ds.X.shape[1]),
                     "class_counts": " ".join(f"{k}:{v}" for k, v in counts.items())})
    out = root / "results" / "data" / "datasets.csv"
    from ._io import write_csv

    write_csv(pd.DataFrame(rows), out)
    return out


#: packages whose versions can move the numbers (solvers, linear algebra, estimators)
VERSIONED = ("numpy", "scipy", "scikit-learn", "numba", "cvxpy", "clarabel", "pandas")


def environment_line() -> str:
    """``Python 3.11.7, numpy 2.4.6, ...``: what produced the results (a fresh install picks
    the newest releases that ``pyproject.toml`` allows, and a degenerate problem can flip
    with a solver release)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"Python {platform.python_version()}"]
    for name in VERSIONED:
        try:
            parts.append(f"{name} {version(name)}")
        except PackageNotFoundError:  # pragma: no cover - all are dependencies
            parts.append(f"{name} (not installed)")
    return ", ".join(parts)


def summary(root: str | Path | None = None) -> str:
    """Write ``results/summary.md`` and refresh the README block; returns the markdown."""
    import pandas as pd

    root = repo_root(root)
    lines = ["| paper | published cells | match | within tolerance | differs | not published |"
             " solver cross-checks | worst rel. gap |",
             "|---|---|---|---|---|---|---|---|"]
    for d in sorted(p for p in (root / "results").iterdir() if p.is_dir()):
        comp, cc = d / "comparison.csv", d / "crosscheck.csv"
        if not comp.is_file() and not cc.is_file():
            continue
        counts = {"match": 0, "within_tolerance": 0, "differs": 0, "not_published": 0}
        n = 0
        if comp.is_file():
            c = pd.read_csv(comp)
            n = len(c)
            counts.update(c["verdict"].value_counts().to_dict())
        ncc, worst = 0, float("nan")
        if cc.is_file():
            x = pd.read_csv(cc)
            ncc, worst = len(x), float(x["rel_gap"].max()) if len(x) else float("nan")
        lines.append(f"| {d.name} | {n} | {counts['match']} | {counts['within_tolerance']} | "
                     f"{counts['differs']} | {counts['not_published']} | {ncc} | {worst:.1e} |")
    md = ("Generated by `dvc repro` (stage `summary`) from `results/*/comparison.csv` and "
          "`results/*/crosscheck.csv`.\n\n" + "\n".join(lines) + "\n\n"
          f"Environment of the `dvc repro` that wrote this summary: {environment_line()}.\n")
    write_text(md, root / "results" / "summary.md")
    readme = root / "README.md"
    if readme.is_file():
        text = readme.read_text()
        if README_BEGIN in text and README_END in text:
            head, rest = text.split(README_BEGIN, 1)
            _, tail = rest.split(README_END, 1)
            write_text(f"{head}{README_BEGIN}\n{md}{README_END}{tail}", readme)
    return md


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m weaklabel.pipeline", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="execute notebooks/NAME.ipynb into reports/")
    r.add_argument("name")
    r.add_argument("--profile", choices=PROFILES)
    sub.add_parser("summary", help="write results/summary.md and the README block")
    sub.add_parser("data", help="verify and load every dataset; write results/data/datasets.csv")
    args = ap.parse_args(argv)
    if args.cmd == "run":
        print(run_notebook(args.name, args.profile))
    elif args.cmd == "data":
        print(datasets_report())
    else:
        sys.stdout.write(summary())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
