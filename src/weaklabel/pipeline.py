"""Pipeline helpers used by ``dvc.yaml`` (``python -m weaklabel.pipeline ...``).

- ``run NOTEBOOK``: execute ``notebooks/NOTEBOOK.ipynb`` with papermill (kernel
  ``python3``, ``-p profile <profile>``, thread counts of
  :data:`weaklabel.reproducibility.THREAD_ENV` where unset) into
  ``reports/NOTEBOOK.ipynb``, strip run-specific
  metadata (timestamps, durations) so that the committed report changes only when results
  change, and export ``reports/NOTEBOOK.html``. Both files are written atomically.
- ``summary``: aggregate ``results/*/comparison.csv`` and ``crosscheck.csv`` into
  ``results/summary.md`` and copy it into ``README.md`` between the summary markers; write
  ``reports/index.html``, the front page of the results: per paper of
  :data:`weaklabel.papers.PAPERS` its title and citation, replication class, claim counts,
  published cells by verdict per part, and per part (stage) its report, CSVs and figures
  with their provenance sidecars; the solver certification in a section of its own.
- Every report's HTML links back to the index and is made readable
  (:func:`readable_html`, :func:`one_parameters_cell`, :data:`KERNEL_SETUP`).
- ``params``: :func:`load_params` reads one paper's section for the active profile.
- ``restore STAGE``: put back the outputs that a killed stage kept aside
  (:mod:`weaklabel.stagerun`; every stage runs as a transaction that measures itself).
- ``deps [--check | --write]``: each stage's ``weaklabel`` modules and ``params.yaml`` keys,
  computed from its imports, checked against or written into ``dvc.yaml``
  (:mod:`weaklabel._deps`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

import yaml

from ._io import atomic_path, write_text
from .provenance import PROFILE_ENV, STAGE_ENV
from .reproducibility import apply_thread_env

PROFILES = ("smoke", "default", "large")
#: subcommands that maintain ``dvc.yaml`` and that no stage runs: loaded by module name, so
#: that they are not among the modules a stage imports (its dependencies in ``dvc.yaml``)
TOOLS = {"deps": "weaklabel._deps"}
README_BEGIN = "<!-- summary:begin -->"
README_END = "<!-- summary:end -->"


def repo_root(start: str | Path | None = None) -> Path:
    """The directory holding ``params.yaml`` (searching upwards from ``start`` or cwd)."""
    p = Path(start or os.getcwd()).resolve()
    for q in (p, *p.parents):
        if (q / "params.yaml").is_file():
            return q
    raise FileNotFoundError(f"no params.yaml found above {p}; run from the repository.")


def read_yaml(path: str | Path):
    """A YAML file read with the safe loader (libyaml's C version when it is installed:
    the same documents, parsed several times faster)."""
    return yaml.load(Path(path).read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load_params(section: str, profile: str | None = None, root: str | Path | None = None):
    """Parameters of ``section`` for ``profile``.

    ``params.yaml`` holds, per section, shared keys plus one sub-mapping per profile;
    the profile's keys override the shared ones. ``profile=None`` uses the file's
    ``profile`` key.
    """
    root = repo_root(root)
    params = read_yaml(root / "params.yaml")
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
        if cell.get("outputs"):
            # progress bars and warnings belong to the terminal that runs the pipeline, never
            # to the report
            cell["outputs"] = [o for o in cell["outputs"] if not (
                o.get("output_type") == "stream" and o.get("name") == "stderr")]
    return nb


#: cells tagged so are moved, with their outputs, right after the title cell
SUMMARY_TAG = "summary"
#: the input (code) of cells tagged so is removed from the HTML; their outputs stay
HIDE_INPUT_TAGS = ("hide-input", "remove-input", "summary")
#: cells tagged so are removed from the HTML entirely
REMOVE_CELL_TAGS = ("remove-cell",)
#: MathJax 3 (SVG output, one file) vendored next to the reports, so formulas render offline
MATHJAX_URL = "_static/mathjax/tex-svg.js"
_MATHJAX_BLOCK = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->",
                            re.S)
_REQUIREJS = re.compile(r'<script src="https://cdnjs[^"]*require[^"]*"></script>\n?')
_MATHJAX3 = (
    "<script>window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']], "
    "displayMath: [['$$', '$$'], ['\\\\[', '\\\\]']], processEscapes: true, "
    "tags: 'ams'}, svg: {fontCache: 'global'}};</script>\n"
    '<script id="MathJax-script" async src="{url}"></script>')
#: the lab template styles stderr outputs; the reports store none (clean_notebook strips
#: them), so its rule is dead weight that reads as a stderr output (:func:`_drop_css_rules`)
_STDERR_MIME = "vnd.jupyter.stderr"


def _drop_css_rules(html: str, needle: str) -> str:
    """``html`` without every CSS rule whose selector contains ``needle`` (linear scan)."""
    out, pos = [], 0
    while (i := html.find(needle, pos)) >= 0:
        start = html.rfind("}", 0, i) + 1  # end of the previous rule (or of <style>)
        start = max(start, html.rfind(">", 0, i) + 1)
        end = html.find("}", i)
        if end < 0 or "{" not in html[i:end]:  # not a selector: keep it
            out.append(html[pos:i + len(needle)])
            pos = i + len(needle)
            continue
        out.append(html[pos:start] + "\n")
        pos = end + 1
    out.append(html[pos:])
    return "".join(out)


def _tags(cell: dict) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _source(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def verdict_summary(comp, csv: str, what: str = "published cells") -> str:
    """Markdown: the counts of :func:`weaklabel.compare.headline` for a ``comparison.csv``
    frame, with a relative link to the full CSV (``csv``, relative to ``reports/``)."""
    from .compare import headline

    h = headline(comp)
    rate = "" if not h["compared"] else f" ({100 * h['agree'] / h['compared']:.0f} %)"
    parts = [f"**{h['agree']}** of **{h['compared']}** compared cells agree{rate}"]
    if h["differs"]:
        n_unexp = (int((comp["cause"].astype(object).fillna("").astype(str)
                        == "unexplained").sum())
                   if "cause" in comp else 0)
        parts.append(f"**{h['differs']}** differ in all, the uninformative cells included "
                     f"(**{n_unexp}** with no cause the rules of `weaklabel.causes` can "
                     "measure: `unexplained`)")
    if h["degenerate"]:
        parts.append(f"**{h['degenerate']}** compared cells rest on runs whose fit predicted "
                     "one class for every test point (column `one_class_share`)")
    apart = [(h["uninformative"], "where the trivial predictor is also within tolerance"),
             (h["by_construction"], "set by the protocol"),
             (h["not_comparable"], "on other data than the paper's"),
             (h["not_run"], "not run"), (h["not_published"], "not published")]
    parts += [f"**{n}** {why}" for n, why in apart if n]
    return (f"**{h['cells']} {what}**: " + "; ".join(parts)
            + f" (every cell with its tolerance, verdict and cause: [{Path(csv).name}]({csv})).")


def size_summary(comp) -> str:
    """Markdown for a report: per table (artifact), the size of the differences over its
    compared, informative cells (as :func:`size_rows`; :func:`weaklabel.compare.difference_size`):
    cells, mean and median ``|delta|`` and median ``|delta| / tolerance``; one sentence when
    nothing was compared."""
    from .compare import difference_size

    if "uninformative" in comp:
        comp = comp[~comp["uninformative"].astype(bool)]
    d = difference_size(comp)
    if d.empty:
        return "No cell was compared, so there is no size of differences to report.\n"
    lines = ["| table | compared cells | mean abs. delta | median abs. delta | "
             "median abs. delta / tolerance |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {r.artifact} | {r.cells} | {r.mean_abs_delta:.3g} | "
              f"{r.median_abs_delta:.3g} | {r.median_delta_over_tolerance:.3g} |"
              for r in d.itertuples(index=False)]
    return "\n".join(lines) + "\n"


def notebook_title(nb: dict) -> str:
    """The text of the notebook's first level-1 heading (Markdown emphasis removed)."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        for line in _source(cell).splitlines():
            if line.startswith("# "):
                return re.sub(r"[*_`]", "", line[2:]).strip()
    return "weaklabel report"


def _plain(text: str) -> str:
    """Heading text as rendered: Markdown emphasis, code marks and escapes removed."""
    return re.sub(r"\\(.)", r"\1", re.sub(r"\*\*|(?<!\\)[*`]", "", text)).strip()


def heading_anchor(text: str) -> str:
    """The id nbconvert's lab template gives a Markdown heading (its ``add_anchor``): the
    rendered text with spaces as ``-``, URL-quoted except for the characters valid in a
    fragment."""
    from urllib.parse import quote

    return quote(_plain(text).replace(" ", "-"), safe="?/:@!$&'()*+,;=")


def _headings(nb: dict) -> list[tuple[int, str]]:
    out = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        fence = False
        for line in _source(cell).splitlines():
            if line.lstrip().startswith("```"):
                fence = not fence
            m = None if fence else re.match(r"^(#{2,3})\s+(.+?)\s*#*\s*$", line)
            if m:
                out.append((len(m.group(1)), m.group(2)))
    return out


def contents_cell(nb: dict) -> dict:
    """A Markdown cell listing every level-2 and level-3 heading, each linked to its anchor
    (an HTML list, so that the link is the anchor's exact id)."""
    import html

    items, depth = [], 2
    for level, text in _headings(nb):
        while depth < level:
            items.append("<ul>")
            depth += 1
        while depth > level:
            items.append("</ul>")
            depth -= 1
        items.append(f'<li><a href="#{html.escape(heading_anchor(text))}">'
                     f"{html.escape(_plain(text), quote=False)}</a></li>")
    items += ["</ul>"] * (depth - 2)
    src = "## Contents\n\n<ul class=\"contents\">\n" + "\n".join(items) + "\n</ul>"
    return {"cell_type": "markdown", "id": "contents", "metadata": {"tags": ["contents"]},
            "source": src}


def postprocess_notebook(nb: dict) -> dict:
    """The executed notebook as a reader sees it: :func:`clean_notebook`, then the cells
    tagged :data:`SUMMARY_TAG` (computed at the end of the run) moved with their outputs
    right after the title cell, then a linked table of contents (:func:`contents_cell`)."""
    nb = clean_notebook(nb)
    cells = [c for c in nb.get("cells", []) if "contents" not in _tags(c)]
    summary = [c for c in cells if SUMMARY_TAG in _tags(c)]
    rest = [c for c in cells if SUMMARY_TAG not in _tags(c)]
    head = 1 if rest and rest[0].get("cell_type") == "markdown" else 0
    if head:
        # the title cell may hold whole sections: the summary goes right after its
        # introduction, before its first level-2 heading
        lines = _source(rest[0]).splitlines(keepends=True)
        cut = next((i for i, ln in enumerate(lines) if i and ln.startswith("## ")), None)
        if cut is not None:
            first = {**rest[0], "source": "".join(lines[:cut]).rstrip("\n")}
            body = {**rest[0], "id": f"{rest[0].get('id', 'title')}-body",
                    "metadata": dict(rest[0].get("metadata", {})),
                    "source": "".join(lines[cut:])}
            rest = [first, body, *rest[1:]]
    body = {**nb, "cells": rest}
    nb["cells"] = rest[:head] + summary + [contents_cell(body)] + rest[head:]
    return nb


#: the tag papermill gives the cell it injects with the run's parameters
INJECTED_TAG = "injected-parameters"
#: the link back to the front page of the results that every report carries
BACK_LINK = ('<nav class="weaklabel-back"><a href="index.html">&larr; All papers: the front '
             "page of the results (reports/index.html)</a></nav>")
#: a table cell holding only a missing value as pandas or numpy print it
_MISSING_CELL = re.compile(r"(<td(?:\s[^>]*)?>)\s*(NaN|nan|&lt;NA&gt;|NaT|None)\s*(</td>)")
#: what a missing cell shows instead (its title says what the table held)
_DASH = '<span class="missing" title="no value: the table holds {}">&ndash;</span>'
#: pandas' display settings in the kernel of a report: full cell text, never cut with an
#: ellipsis (the HTML wraps long cells instead: :data:`REPORT_CSS`)
KERNEL_SETUP = ("import pandas as _weaklabel_pd",
                "_weaklabel_pd.set_option('display.max_colwidth', None)",
                "del _weaklabel_pd")
#: the reports' own style: the back link, long table cells wrapped at a readable width and
#: left aligned, missing values as a grey dash
REPORT_CSS = """<style>
nav.weaklabel-back { font-family: var(--jp-ui-font-family, sans-serif); font-size: 0.95em;
  padding: 8px 20px; border-bottom: 1px solid #ddd; background: #f6f6f4; }
.jp-RenderedHTMLCommon td { max-width: 34em; overflow-wrap: break-word; }
.jp-RenderedHTMLCommon td.long { text-align: left; }
.jp-RenderedHTMLCommon span.missing { color: #888; }
</style>"""
#: a cell this long is text, not a number: left aligned (:func:`readable_html`)
LONG_CELL = 40
_LONG_CELL = re.compile(r"<td>([^<]{" + str(LONG_CELL) + r",})</td>")


def _assigned_names(src: str) -> set[str] | None:
    """The names a parameters cell assigns at top level, or None when it does anything
    else (then it is not merely the parameters' defaults)."""
    import ast

    try:
        tree = ast.parse(src)
    except SyntaxError:
        return None
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            names |= {t.id for t in node.targets}
        elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            names.add(node.target.id)
        else:
            return None
    return names


def one_parameters_cell(nb: dict) -> dict:
    """``nb`` with its ``parameters`` cell tagged ``remove-cell`` when papermill's
    :data:`INJECTED_TAG` cell assigns every name it assigns: the report then shows the
    parameters once, with the values that ran. A parameters cell that does more than assign,
    or assigns a name the injected cell does not, is kept."""
    cells = nb.get("cells", [])
    injected = [c for c in cells if INJECTED_TAG in _tags(c)]
    if not injected:
        return nb
    ran = set().union(*[_assigned_names(_source(c)) or set() for c in injected])
    for c in cells:
        if "parameters" not in _tags(c) or INJECTED_TAG in _tags(c):
            continue
        names = _assigned_names(_source(c))
        if names is not None and names <= ran:
            md = c.setdefault("metadata", {})
            md["tags"] = _tags(c) + [t for t in REMOVE_CELL_TAGS if t not in _tags(c)]
    return nb


def readable_html(html: str) -> str:
    """A report's HTML made readable: the back link to ``index.html`` (:data:`BACK_LINK`)
    first in the body, a table cell holding only NaN / ``<NA>`` / NaT / None shown as a dash
    whose title names the value, text cells of :data:`LONG_CELL` characters or more left
    aligned and wrapped (:data:`REPORT_CSS`). A page already processed is unchanged."""
    if BACK_LINK not in html:
        html = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + "\n" + BACK_LINK, html,
                      count=1)
    if REPORT_CSS not in html:
        html = html.replace("</head>", REPORT_CSS + "\n</head>", 1)
    html = _MISSING_CELL.sub(lambda m: m.group(1) + _DASH.format(m.group(2)) + m.group(3),
                             html)
    return _LONG_CELL.sub(lambda m: f'<td class="long">{m.group(1)}</td>', html)


def export_html(nb: dict) -> str:
    """HTML of an executed notebook (nbconvert's lab template): the input of code cells
    tagged :data:`HIDE_INPUT_TAGS` removed (Markdown cells always shown), the parameters
    shown once (:func:`one_parameters_cell`), the page titled by the notebook's first
    heading, MathJax loaded from :data:`MATHJAX_URL` (relative to ``reports/``) instead of a
    CDN, and made readable (:func:`readable_html`)."""
    import copy

    import nbformat
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import TagRemovePreprocessor

    nb = one_parameters_cell(copy.deepcopy(nb))
    for cell in nb.get("cells", []):
        # a Markdown cell's input is its text: a hide tag (e.g. the summary's) never hides it
        if cell.get("cell_type") == "markdown" and set(_tags(cell)) & set(HIDE_INPUT_TAGS):
            meta = cell.setdefault("metadata", {})
            meta["tags"] = [t for t in _tags(cell) if t not in HIDE_INPUT_TAGS]
    node = nbformat.from_dict(nb)
    exporter = HTMLExporter(template_name="lab")
    exporter.register_preprocessor(
        TagRemovePreprocessor(remove_input_tags=set(HIDE_INPUT_TAGS),
                              remove_cell_tags=set(REMOVE_CELL_TAGS), enabled=True),
        enabled=True)
    html, _ = exporter.from_notebook_node(
        node, resources={"metadata": {"name": notebook_title(nb)}})
    mj = _MATHJAX3.replace("{url}", MATHJAX_URL)
    html = _MATHJAX_BLOCK.sub(lambda _m: mj, html, count=1)
    html = _drop_css_rules(html, _STDERR_MIME)
    # require.js (for interactive widgets, which the reports do not hold) is a CDN load too
    return readable_html(_REQUIREJS.sub("", html))


def figures_cell(stage: str, root: str | Path) -> dict | None:
    """A Markdown cell "Figures and their provenance": every figure of ``figures/<stage>/``
    (its PNG, PDF and provenance sidecar, :mod:`weaklabel.provenance`), linked relative to
    ``reports/``; None when the stage saved no figure."""
    from urllib.parse import quote

    folder = Path(root) / "figures" / stage
    pngs = sorted(folder.rglob("*.png")) if folder.is_dir() else []
    if not pngs:
        return None
    lines = ["## Figures and their provenance", "",
             "Every figure this report saved, with the sidecar that records what made it: "
             "stage, profile, parameters, git commit and the sha256 of its inputs.", ""]
    for f in pngs:
        rel = f.relative_to(Path(root)).as_posix()
        links = [f"[{f.suffix[1:]}](../{quote(rel)})"] + [
            f"[{label}](../{quote(q.relative_to(Path(root)).as_posix())})"
            for q, label in ((f.with_suffix(".pdf"), "pdf"),
                             (f.with_suffix(".json"), "provenance"))
            if q.is_file()]
        lines.append(f"- `{f.relative_to(folder).with_suffix('').as_posix()}`: "
                     + ", ".join(links))
    return {"cell_type": "markdown", "id": "figures-provenance",
            "metadata": {"tags": ["figures"]}, "source": "\n".join(lines) + "\n"}


def kernel_arguments() -> list[str]:
    """The report kernel's command-line options: :data:`KERNEL_SETUP` run at its start,
    before the notebook's first cell (nothing of it appears in the report)."""
    return [f"--IPKernelApp.exec_lines={line}" for line in KERNEL_SETUP]


def run_notebook(name: str, profile: str | None = None, root: str | Path | None = None) -> Path:
    """Execute one notebook into ``reports/`` (see module docstring)."""
    import nbformat
    import papermill as pm

    root = repo_root(root)
    if profile is None:
        profile = yaml.safe_load((root / "params.yaml").read_text()).get("profile", "default")
    src = root / "notebooks" / f"{name}.ipynb"
    if not src.is_file():
        raise FileNotFoundError(f"notebook {src} does not exist.")
    out = root / "reports" / f"{name}.ipynb"
    # the kernel is a subprocess: it inherits these (one BLAS/OpenMP/numba thread per
    # process unless the caller chose otherwise; see weaklabel.reproducibility)
    apply_thread_env()
    # the stage and profile a figure's provenance sidecar names (weaklabel.provenance)
    before = {k: os.environ.get(k) for k in (STAGE_ENV, PROFILE_ENV)}
    os.environ[STAGE_ENV], os.environ[PROFILE_ENV] = _section_of(name), profile
    try:
        with atomic_path(out) as tmp:
            pm.execute_notebook(str(src), str(tmp), parameters={"profile": profile},
                                kernel_name="python3", cwd=str(root), progress_bar=True,
                                log_output=False, extra_arguments=kernel_arguments())
            nb = json.loads(tmp.read_text())
            cell = figures_cell(_section_of(name), root)
            if cell is not None:
                nb["cells"].append(cell)
            nb = postprocess_notebook(nb)
            tmp.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    write_text(export_html(nbformat.read(str(out), as_version=4)), out.with_suffix(".html"))
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
    with a solver release). A package of :data:`VERSIONED` that is not installed is written
    ``NAME NOT INSTALLED``, never with a version."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"Python {platform.python_version()}"]
    for name in VERSIONED:
        try:
            parts.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            parts.append(f"{name} NOT INSTALLED")
    return ", ".join(parts)


#: the columns of the summary table: (key of :func:`summary_rows`, header)
SUMMARY_COLUMNS = (("paper", "paper"), ("scoring", "scoring"),
                   ("cells", "published cells"), ("compared", "compared"),
                   ("agree", "agree (match or within tolerance)"), ("disagree", "differ"),
                   ("unexplained", "of which unexplained"),
                   ("degenerate", "of which with one-class fits"),
                   ("uninformative", "trivial predictor also within tolerance"),
                   ("by_construction", "set by the protocol"),
                   ("not_comparable", "on other data"), ("not_run", "not run"),
                   ("crosschecks", "solver cross-checks"),
                   ("worst_rel_gap", "worst rel. gap"))
SUMMARY_NOTE = ("Generated by `dvc repro` (stage `summary`) from `results/*/comparison.csv` and "
                "`results/*/crosscheck.csv`. *Compared* counts the cells of a learned model "
                "on the paper's data where the trivial predictor is not itself within "
                "tolerance; only those decide agreement. Cells set by the protocol, on other "
                "data, or not run are counted apart (docs/replication-classes.md).")


def summary_rows(root: str | Path | None = None) -> list[dict]:
    """One row per ``results/<paper>/`` holding a ``comparison.csv`` or ``crosscheck.csv``:
    the verdict counts of the published cells and the solver cross-checks."""
    import pandas as pd

    root = repo_root(root)
    rows = []
    from .compare import headline

    for d in sorted(p for p in (root / "results").iterdir() if p.is_dir()):
        comp, cc = d / "comparison.csv", d / "crosscheck.csv"
        if not comp.is_file() and not cc.is_file():
            continue
        ncc, worst = 0, float("nan")
        if cc.is_file():
            x = pd.read_csv(cc)
            ncc, worst = len(x), float(x["rel_gap"].max()) if len(x) else float("nan")
        # a paper scored two ways lists every published cell once per scoring (the scoring is
        # named in the artifact, e.g. "Table III (correct scoring)"): one row per scoring, so
        # that no cell is counted twice in a row
        groups = [("", None)]
        if comp.is_file():
            c = pd.read_csv(comp)
            art = c["artifact"] if "artifact" in c else pd.Series([""] * len(c), dtype=str)
            sc = art.astype(str).str.extract(r"\((\w+) scoring\)$")[0].fillna("")
            groups = [(k, c[sc == k]) for k in sorted(sc.unique())]
        for i, (scoring, g) in enumerate(groups):
            h = headline(g) if g is not None else dict.fromkeys(
                ("cells", "compared", "agree", "disagree", "degenerate", "uninformative",
                 "by_construction",
                 "not_comparable", "not_run"), 0)
            # differences whose computed cause is "unexplained" (weaklabel.causes); "–"
            # for a comparison written before causes were assigned
            if g is None or "cause" not in g:
                unexp = "–"
            else:
                unexp = int((g["cause"].astype(object).fillna("").astype(str)
                             == "unexplained").sum())
            rows.append({"paper": d.name, "scoring": scoring or "–",
                         **{k: h[k] for k, _ in SUMMARY_COLUMNS if k in h},
                         "unexplained": unexp,
                         "crosschecks": ncc if i == 0 else "",
                         "worst_rel_gap": worst if i == 0 else ""})
    return rows


def size_rows(root: str | Path | None = None) -> list[dict]:
    """Per ``results/<paper>/comparison.csv`` and artifact, the size of the differences
    over the compared cells (:func:`weaklabel.compare.difference_size`)."""
    import pandas as pd

    from .compare import difference_size

    rows = []
    for comp in sorted(repo_root(root).glob("results/*/comparison.csv")):
        c = pd.read_csv(comp)
        if not {"artifact", "verdict", "delta", "tolerance"} <= set(c.columns):
            continue
        if "uninformative" in c:
            c = c[~c["uninformative"].astype(bool)]
        for r in difference_size(c).itertuples():
            rows.append({"paper": comp.parent.name, "artifact": r.artifact, "cells": r.cells,
                         "mean_abs_delta": r.mean_abs_delta,
                         "median_abs_delta": r.median_abs_delta,
                         "median_delta_over_tolerance": r.median_delta_over_tolerance})
    return rows


def size_markdown(rows: list[dict]) -> str:
    """The table of :func:`size_rows` in Markdown."""
    lines = ["| paper | artifact | compared cells | mean abs. delta | median abs. delta | "
             "median abs. delta / tolerance |", "|---|---|---|---|---|---|"]
    lines += [f"| {r['paper']} | {r['artifact']} | {r['cells']} | {r['mean_abs_delta']:.3g} | "
              f"{r['median_abs_delta']:.3g} | {r['median_delta_over_tolerance']:.3g} |"
              for r in rows]
    return "\n".join(lines)


def _cell(key: str, value) -> str:
    return f"{value:.1e}" if key == "worst_rel_gap" and value != "" else str(value)


def summary(root: str | Path | None = None) -> str:
    """Write ``results/summary.md``, refresh the README block and write
    ``reports/index.html`` (:func:`write_index`); returns the markdown."""
    root = repo_root(root)
    rows = summary_rows(root)
    env = environment_line()
    lines = ["| " + " | ".join(h for _, h in SUMMARY_COLUMNS) + " |",
             "|" + "---|" * len(SUMMARY_COLUMNS)]
    lines += ["| " + " | ".join(_cell(k, r[k]) for k, _ in SUMMARY_COLUMNS) + " |"
              for r in rows]
    md = (SUMMARY_NOTE + "\n\n" + "\n".join(lines) + "\n\n"
          f"Environment of the `dvc repro` that wrote this summary: {env}.\n")
    sizes = ("\n## Size of the differences\n\nOver the compared cells (comparable, "
             "informative) of each table: how far ours are from the published numbers.\n\n"
             + size_markdown(size_rows(root)) + "\n")
    from .claims import paper_verdicts, verdicts_markdown

    verdicts = paper_verdicts(root)
    claims_md = ("\n## Claims and replication class\n\nFrom `results/*/claims.csv` (one row per "
                 "claim of the paper, its test and threshold declared before the run); the "
                 "class of each paper by the rules of `docs/replication-classes.md`.\n\n"
                 + verdicts_markdown(verdicts))
    sizes += claims_md
    write_text(md + sizes, root / "results" / "summary.md")
    readme = root / "README.md"
    if readme.is_file():
        text = readme.read_text()
        if README_BEGIN in text and README_END in text:
            head, rest = text.split(README_BEGIN, 1)
            _, tail = rest.split(README_END, 1)
            write_text(f"{head}{README_BEGIN}\n{md}{README_END}{tail}", readme)
    write_index(root, rows=rows, env=env, verdicts=verdicts)
    return md + sizes


# --------------------------------------------------------------------------- reports/index.html
INDEX = "reports/index.html"
_INDEX_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial,
       sans-serif; margin: 0; color: #1d1d1d; background: #f6f6f4; line-height: 1.45; }
main { max-width: 1320px; margin: 0 auto; padding: 20px 32px 48px; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
code { background: #ecece8; padding: 0 3px; border-radius: 3px; }
table { border-collapse: collapse; margin: 10px 0; background: #fff; }
th, td { border: 1px solid #cfcfca; padding: 4px 12px; text-align: right; }
th { background: #ebebe6; }
th:first-child, td:first-child { text-align: left; }
nav a { margin-right: 14px; }
section.paper, section.certification, section.other { background: #fff;
  border: 1px solid #dcdcd6; border-radius: 6px; padding: 6px 22px 18px; margin: 22px 0; }
section.part { border-top: 1px solid #e4e4df; margin-top: 14px; }
p.cite { margin-top: -0.4em; color: #333; }
.thumbs { display: flex; flex-wrap: wrap; gap: 18px; }
figure { margin: 0; width: 240px; }
figure img { width: 240px; height: auto; border: 1px solid #dcdcd6; background: #fff; }
figcaption { font-size: 0.8em; overflow-wrap: anywhere; }
.note { color: #555; font-size: 0.9em; }
"""

#: the labelled tables of a stage's results, in the order the index lists them
_INDEX_TABLES = {"claims.csv": "the paper's claims, tested on our numbers",
                 "comparison.csv": "published vs reproduced, cell by cell",
                 "crosscheck.csv": "solver vs reference QP"}
#: the columns of a paper's cells-by-verdict table: (key of compare.headline, header)
_CELL_COLUMNS = (("match", "match"), ("within_tolerance", "within tolerance"),
                 ("differs", "differs"), ("uninformative", "of these, trivially reached"),
                 ("by_construction", "set by the protocol"),
                 ("not_comparable", "on other data"), ("not_run", "not run"),
                 ("not_published", "in the paper without a number"))


def _index_groups(root: Path) -> dict[str, dict]:
    """Per stage: its executed notebook(s), its claims/comparison/crosscheck tables, every
    other CSV of ``results/<stage>/`` and its figures (``figures/<stage>/**.png``)."""
    groups: dict[str, dict] = {}

    def group(name):
        return groups.setdefault(name, {"reports": [], "tables": [], "csvs": [],
                                        "figures": []})

    for d in sorted(p for p in (root / "results").iterdir() if p.is_dir()):
        for f in _INDEX_TABLES:
            if (d / f).is_file():
                group(d.name)["tables"].append(d / f)
    reports = root / "reports"
    for f in sorted(reports.glob("*.html")) if reports.is_dir() else []:
        if f.name == Path(INDEX).name:
            continue
        group(_section_of(f.stem))["reports"].append(f)
    figures = root / "figures"
    for f in sorted(figures.rglob("*.png")) if figures.is_dir() else []:
        parts = f.relative_to(figures).parts
        group(parts[0] if len(parts) > 1 else "other")["figures"].append(f)
    for name, g in groups.items():
        d = root / "results" / name
        g["csvs"] = sorted(f for f in d.glob("*.csv") if f.name not in _INDEX_TABLES)
    return dict(sorted(groups.items()))


def stage_cells(root: Path, stage: str) -> dict | None:
    """The published cells of ``results/<stage>/comparison.csv`` by verdict
    (:func:`weaklabel.compare.headline`; a table scored two ways counts once, under the
    correct scoring: :func:`weaklabel.compare.one_scoring`), or None without the file."""
    import pandas as pd

    from .compare import headline, one_scoring

    path = Path(root) / "results" / stage / "comparison.csv"
    if not path.is_file():
        return None
    return headline(one_scoring(pd.read_csv(path)))


def index_html(root: str | Path | None = None, rows: list[dict] | None = None,
               env: str | None = None, verdicts: list[dict] | None = None) -> str:
    """The HTML of ``reports/index.html``, the front page of the results: the table of the
    papers' claims and classes, the summary table (the numbers of ``results/summary.md``),
    then one section per paper of :data:`weaklabel.papers.PAPERS` (title, citation, class,
    claims counts, published cells by verdict per part, and per part its report, CSVs and
    figures with their provenance sidecars), one for the solver certification
    (:data:`weaklabel.papers.CERTIFICATION`) and one per other stage with results.
    Self-contained: inline style, relative links only."""
    import html
    from urllib.parse import quote

    from .papers import CERTIFICATION, PAPERS

    root = repo_root(root)
    rows = summary_rows(root) if rows is None else rows
    env = environment_line() if env is None else env
    if verdicts is None:
        from .claims import paper_verdicts

        verdicts = paper_verdicts(root)
    base = root / Path(INDEX).parent
    esc = html.escape

    def href(path: Path) -> str:
        return esc(quote(Path(os.path.relpath(path, base)).as_posix()))

    def code(text: str) -> str:  # the markdown note's `code` spans
        parts = esc(text).split("`")
        return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))

    def reason(v: dict) -> str:  # the class's reason, paths relative to the repository
        return str(v["class_reason"]).replace(str(root) + os.sep, "")

    groups = _index_groups(root)
    papers = list(PAPERS)
    paper_ids = {p.name: f"paper-{p.key}" for p in papers}
    cert = [s for s, _ in CERTIFICATION if s in groups]
    known = {s for p in papers for s in p.stages} | {s for s, _ in CERTIFICATION}
    others = [g for g in groups if g not in known]
    md = root / "results" / "summary.md"
    same = (f' The same table is in <a href="{href(md)}">results/summary.md</a>.'
            if md.is_file() else "")
    nav = ([f'<a href="#{esc(paper_ids[p.name])}">{esc(p.name)}</a>' for p in papers]
           + ['<a href="#certification">solver certification</a>' if cert else ""]
           + [f'<a href="#{esc(g)}">{esc(g)}</a>' for g in others])
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<title>weaklabel: published vs reproduced</title>",
           f"<style>{_INDEX_CSS}</style>", "</head>", "<body>", "<main>",
           "<h1>weaklabel: published vs reproduced</h1>",
           '<p class="note">The front page of the results: per paper, whether its claims hold '
           "on our numbers, its published cells against ours, and its reports, tables and "
           "figures (each with a provenance sidecar: stage, profile, parameters, commit, "
           "input checksums).</p>",
           "<nav>" + " ".join(n for n in nav if n) + "</nav>",
           "<h2>Does each paper replicate?</h2>",
           '<p class="note">From each stage\'s <code>results/&lt;stage&gt;/claims.csv</code>: '
           "the paper's claims, each tested on our numbers with a test and threshold declared "
           "before the run; the class by the rules of docs/replication-classes.md.</p>",
           '<table class="claims">', "<thead><tr><th>paper</th><th>stage</th><th>claims</th>"
           "<th>hold</th><th>do not hold</th><th>inconclusive</th><th>not tested</th>"
           "<th>replication class</th></tr></thead>", "<tbody>"]
    for v in verdicts:
        top = v["level"] == "paper"
        stage = v["stage"] or "all parts"
        link = (f'<a href="#{esc(v["stage"])}">{esc(stage)}</a>' if v["stage"] in groups
                else esc(stage))
        name = (f'<a href="#{esc(paper_ids[v["paper"]])}">{esc(v["paper"])}</a>'
                if v["paper"] in paper_ids else esc(v["paper"]))
        cls = esc(v["replication_class"])
        out.append(f"<tr><td>{name if top else '〃'}</td><td>{link}</td>"
                   + "".join(f"<td>{int(v[k])}</td>" for k in
                             ("total", "holds", "does_not_hold", "inconclusive", "not_tested"))
                   + f'<td title="{esc(reason(v))}">'
                   + (f"<b>{cls}</b>" if top else cls) + "</td></tr>")
    out += ["</tbody>", "</table>",
            "<h2>Published cells against ours</h2>",
            f'<p class="note">{code(SUMMARY_NOTE)}{same}</p>',
            "<table>", "<thead><tr>"
            + "".join(f"<th>{esc(h)}</th>" for _, h in SUMMARY_COLUMNS) + "</tr></thead>",
            "<tbody>"]
    for r in rows:
        cells = []
        for k, _ in SUMMARY_COLUMNS:
            v = esc(_cell(k, r[k]))
            cells.append(f'<td><a href="#{esc(r[k])}">{v}</a></td>'
                         if k == "paper" and r[k] in groups else f"<td>{v}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out += ["</tbody>", "</table>",
            f'<p class="note">Environment of the <code>dvc repro</code> that wrote this '
            f"page: {esc(env)}.</p>"]

    def counts(v: dict) -> str:
        if not v["total"] and not v.get("ok", True):
            return "No claims table in the common schema yet (the stage has to re-run)"
        return (f"<b>{v['total']}</b> claims: {v['holds']} hold, {v['does_not_hold']} do not "
                f"hold, {v['inconclusive']} inconclusive, {v['not_tested']} not tested")

    def files(name: str, level: str = "h3") -> list[str]:
        """A stage's report, tables, other CSVs and figures (with their sidecars)."""
        g = groups.get(name)
        if g is None:
            return [f'<p class="note">No report, table or figure of <code>{esc(name)}</code> '
                    "yet: the stage has not run.</p>"]
        lines = ["<ul>"]
        for f in g["reports"]:
            lines.append(f'<li>report: <a href="{href(f)}">{esc(f.name)}</a></li>')
        for f in g["tables"]:
            lines.append(f'<li>{_INDEX_TABLES[f.name]}: <a href="{href(f)}">'
                         f"{esc(f.relative_to(root).as_posix())}</a></li>")
        if g["csvs"]:
            lines.append(f"<li>all tables of <code>results/{esc(name)}/</code>: "
                         + ", ".join(f'<a href="{href(f)}">{esc(f.name)}</a>'
                                     for f in g["csvs"]) + "</li>")
        lines.append("</ul>")
        if g["figures"]:
            lines.append('<div class="thumbs">')
            for f in g["figures"]:
                rel = f.relative_to(root / "figures").as_posix()
                extra = [f'<a href="{href(q)}">{label}</a>' for q, label in (
                    (f.with_suffix(".pdf"), "pdf"), (f.with_suffix(".json"), "provenance"))
                    if q.is_file()]
                out_links = (" (" + ", ".join(extra) + ")") if extra else ""
                lines.append(f'<figure><a href="{href(f)}"><img src="{href(f)}" width="240" '
                             f'alt="{esc(rel)}" loading="lazy"></a>'
                             f"<figcaption>{esc(rel)}{out_links}</figcaption></figure>")
            lines.append("</div>")
        return lines

    by_stage = {v["stage"]: v for v in verdicts if v["stage"]}
    by_paper = {v["paper"]: v for v in verdicts if v["level"] == "paper"}
    for p in papers:
        out += [f'<section class="paper" id="{esc(paper_ids[p.name])}">',
                f"<h2>{esc(p.name)}: <i>{esc(p.title)}</i></h2>",
                f'<p class="cite">{esc(p.authors)} ({p.year}). <i>{esc(p.title)}</i>. '
                f"{esc(p.venue)}.</p>"]
        v = by_paper.get(p.name)
        if v is not None:
            out.append(f'<p>Replication class: <b class="class">'
                       f'{esc(v["replication_class"])}</b> ({esc(reason(v))}). '
                       f"{counts(v)}.</p>")
        out += ['<table class="cells">', "<thead><tr><th>part</th><th>claims: hold / do not "
                "hold / inconclusive / not tested</th><th>class of the part</th>"
                "<th>cells with a published number</th>"
                + "".join(f"<th>{esc(h)}</th>" for _, h in _CELL_COLUMNS)
                + "</tr></thead>", "<tbody>"]
        for stage, part in p.parts:
            sv = by_stage.get(stage)
            cl = (f"{sv['holds']} / {sv['does_not_hold']} / {sv['inconclusive']} / "
                  f"{sv['not_tested']}" if sv is not None and sv.get("ok", True) else
                  f'<span title="{esc(reason(sv)) if sv else ""}">no claims table '
                  "in the common schema yet</span>")
            pcls = "–" if sv is None else esc(sv["replication_class"])
            h = stage_cells(root, stage)
            cells = ("".join("<td>–</td>" for _ in range(len(_CELL_COLUMNS) + 1))
                     if h is None else f"<td>{h['cells']}</td>"
                     + "".join(f"<td>{h[k]}</td>" for k, _ in _CELL_COLUMNS))
            out.append(f'<tr><td><a href="#{esc(stage)}">{esc(stage)}</a>: {esc(part)}</td>'
                       f"<td>{cl}</td><td>{pcls}</td>{cells}</tr>")
        out += ["</tbody>", "</table>",
                '<p class="note">Published cells by verdict (a table scored two ways counts '
                "once, under the correct scoring); <i>trivially reached</i> counts the "
                "matching or differing cells where the trivial predictor is also within "
                "tolerance; what each verdict means: docs/causes.md.</p>"]
        for stage, part in p.parts:
            out += [f'<section class="part" id="{esc(stage)}">',
                    f"<h3><code>{esc(stage)}</code>: {esc(part)}</h3>"]
            if len(p.parts) > 1 and stage in by_stage:
                out.append(f"<p>{counts(by_stage[stage])} "
                           f"({esc(by_stage[stage]['replication_class'])} for this part).</p>")
            out += files(stage) + ["</section>"]
        out.append("</section>")
    if cert:
        out += ['<section class="certification" id="certification">',
                "<h2>Solver certification</h2>",
                '<p class="note">Not a paper: a package solver against a cvxpy reference '
                "on the same problem (relative objective gap, KKT violation).</p>"]
        for stage, what in CERTIFICATION:
            if stage in groups:
                out += [f'<section class="part" id="{esc(stage)}">',
                        f"<h3><code>{esc(stage)}</code>: {esc(what)}</h3>", *files(stage),
                        "</section>"]
        out.append("</section>")
    for name in others:
        out += [f'<section class="other" id="{esc(name)}">', f"<h2>{esc(name)}</h2>"]
        for v in verdicts:
            if v["stage"] == name:
                out.append(f"<p>{counts(v)}; replication class: "
                           f"<b>{esc(v['replication_class'])}</b>.</p>")
        out += files(name) + ["</section>"]
    out += ["</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def write_index(root: str | Path | None = None, rows: list[dict] | None = None,
                env: str | None = None, verdicts: list[dict] | None = None) -> Path:
    """Write ``reports/index.html`` (:func:`index_html`) atomically; returns its path."""
    root = repo_root(root)
    return write_text(index_html(root, rows, env, verdicts), root / INDEX)


def check_profile(profile: str | None, root: str | Path | None = None) -> str:
    """The profile to run: ``profile`` or ``params.yaml``'s ``profile`` key, checked against
    :data:`PROFILES` before a stage touches anything (the error names the key)."""
    root = repo_root(root)
    where = "--profile (under dvc repro: the params.yaml key `profile`)"
    if profile is None:
        profile = yaml.safe_load((root / "params.yaml").read_text()).get("profile", "default")
        where = "params.yaml key `profile`"
    if profile not in PROFILES:
        raise ValueError(f"{where}: {profile!r} is not a profile; use one of "
                         f"{', '.join(PROFILES)}.")
    return profile


def _section_of(name: str) -> str:
    """``params.yaml`` section of a notebook (``00_solvers`` -> ``solvers``)."""
    return name.split("_", 1)[1] if name[:2].isdigit() and "_" in name else name


def check_stage_params(stage: str, profile: str, root: str | Path | None = None) -> None:
    """Reject a stage's invalid parameters before it runs, naming the ``params.yaml`` key:
    every key the stage declares in ``dvc.yaml`` must exist, and the section must pass its
    experiments module's ``config`` (unknown keys) and ``check_params`` (e.g. data-set
    names), where the module defines them."""
    import importlib
    import importlib.util

    root = repo_root(root)
    params = yaml.safe_load((root / "params.yaml").read_text())
    spec = yaml.safe_load((root / "dvc.yaml").read_text())["stages"][stage]
    for key in spec.get("params", []):
        key = key if isinstance(key, str) else next(iter(key))
        key = key.replace("${profile}", profile)
        node = params
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                raise ValueError(f"params.yaml: key {key!r} (declared by stage {stage!r} in "
                                 f"dvc.yaml for profile {profile!r}) is missing.")
            node = node[part]
    section = _section_of(stage)
    mod_name = f"weaklabel.experiments.{section}"
    if section not in params or importlib.util.find_spec(mod_name) is None:
        return
    mod = importlib.import_module(mod_name)
    cfg = load_params(section, profile, root)
    try:
        if hasattr(mod, "config"):
            cfg = mod.config(cfg)
        if hasattr(mod, "check_params"):
            mod.check_params(cfg)
    except (ValueError, TypeError, KeyError) as e:
        raise ValueError(f"params.yaml section {section!r} (profile {profile!r}): {e}") from e


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in TOOLS:
        import importlib

        return importlib.import_module(TOOLS[argv[0]]).main(argv[1:])
    ap = argparse.ArgumentParser(prog="python -m weaklabel.pipeline", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="execute notebooks/NAME.ipynb into reports/")
    r.add_argument("name")
    r.add_argument("--profile", help=f"one of {', '.join(PROFILES)} (default: params.yaml)")
    sub.add_parser("summary", help="write results/summary.md, the README block and "
                   "reports/index.html")
    sub.add_parser("data", help="verify and load every dataset; write results/data/datasets.csv")
    sub.add_parser("deps", help="each stage's modules and params from its imports: "
                   "--check, --write (python -m weaklabel.pipeline deps --help)")
    rs = sub.add_parser("restore", help="put back the outputs a killed stage kept in "
                        ".weaklabel_cache/stages/STAGE")
    rs.add_argument("stage")
    args = ap.parse_args(argv)
    from .stagerun import StageRun, restore_outputs, stage_of_command

    root = repo_root()
    try:
        if args.cmd == "restore":
            from .stagerun import running_pid

            pid = running_pid(args.stage, root)
            if pid is not None:
                raise ValueError(f"stage {args.stage} is still running (process {pid}); stop "
                                 "it first (its outputs are put back when it ends).")
            restored = restore_outputs(args.stage, root)
            print(f"stage {args.stage}: {len(restored)} output path(s) restored.")
            return 0
        if args.cmd == "run":
            profile = check_profile(args.profile, root)
            stage = stage_of_command(["python", "-m", "weaklabel.pipeline", "run", args.name],
                                     root)
            check_stage_params(stage, profile, root)
            with StageRun(stage, root, profile):
                print(run_notebook(args.name, profile))
        elif args.cmd == "data":
            stage = stage_of_command(["python", "-m", "weaklabel.pipeline", "data"], root)
            with StageRun(stage, root, check_profile(None, root)):
                print(datasets_report())
        else:
            sys.stdout.write(summary())
    except (ValueError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
