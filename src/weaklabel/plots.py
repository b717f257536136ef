"""Matplotlib helpers shared by the notebooks: one style, atomic saving with provenance."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np

from ._io import save_figure
from .provenance import write_sidecar

STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 110,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "lines.linewidth": 1.8,
    "lines.markersize": 5,
    "savefig.dpi": 150,
    "pdf.fonttype": 42,
    "svg.hashsalt": "weaklabel",
}

#: one colour per method, consistent across figures
METHOD_COLORS = {
    "USMO": "#1f77b4", "QP [7]": "#d62728", "ramp [6]": "#2ca02c", "Init*": "#7f7f7f",
    "LIBSVM": "#9467bd", "MCLS": "#1f77b4", "ILU+ISVM": "#ff7f0e", "NB+BSVM": "#2ca02c",
    "PNB": "#d62728", "NB": "#8c564b",
}


def _compact(v: float, _pos=None) -> str:
    """Tick label without scientific notation: 0.05, 2, 500, 2k, 10k."""
    if v >= 1000 and v % 1000 == 0:
        return f"{v / 1000:g}k"
    return f"{v:g}"


def log_axis(ax, axis: str = "x", ticks=None) -> None:
    """Log scale with readable labels: ticks at 1, 2, 5 x 10^k (or at ``ticks``), written
    as plain numbers; minor ticks unlabelled, so that labels never overlap."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter

    a = ax.xaxis if axis == "x" else ax.yaxis
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    a.set_major_locator(FixedLocator(list(ticks)) if ticks is not None
                        else LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    a.set_major_formatter(FuncFormatter(_compact))
    a.set_minor_formatter(NullFormatter())


def use_style() -> None:
    """Apply the repository's figure style."""
    matplotlib.rcParams.update(STYLE)


def figure_path(paper: str, name: str, root: str | Path = "figures") -> Path:
    """``figures/<paper>/<name>`` (without suffix)."""
    return Path(root) / paper / name


def save(fig, paper: str, name: str, root: str | Path = "figures",
         formats=("png", "pdf"), inputs=()) -> list[Path]:
    """Save ``fig`` as ``figures/<paper>/<name>.{png,pdf}`` atomically, with its provenance
    sidecar ``<name>.json`` (:mod:`weaklabel.provenance`: stage, profile, parameters, commit,
    sha256 of the stage's inputs and of ``inputs``, the result files it was drawn from).
    Returns the figure files."""
    paths = save_figure(fig, figure_path(paper, name, root), formats=formats)
    write_sidecar(paths, paper, inputs=inputs)
    return paths


# --------------------------------------------------------------------------- published values
#: how a published number is drawn in every figure: black, hollow, dashed; its legend label
#: names the paper ("paper", "paper (Table 4)", ...)
PAPER_STYLE = {"color": "k", "ls": "--", "lw": 1.0, "marker": "D", "markerfacecolor": "none",
               "markersize": 6, "zorder": 4}
PAPER_PREFIX = "paper"
#: the ``gid`` of every artist drawn by :func:`overlay_published` / :func:`overlay_bound`
PUBLISHED_GID = "published"


def _finite_xy(x, y):
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length, got {x.size} and {y.size}.")
    ok = np.isfinite(x) & np.isfinite(y)
    return x[ok], y[ok]


def overlay_published(ax, x, y, *, label: str = PAPER_PREFIX, line: bool = True, **style):
    """Draw published values on ``ax`` in :data:`PAPER_STYLE` (hollow black markers, a
    dashed line when ``line``), tagged :data:`PUBLISHED_GID` for :func:`published_artists`;
    the legend label must contain ``"paper"``. Points without a finite value are skipped;
    with none left nothing is drawn and ``None`` is returned, else the line artist."""
    if PAPER_PREFIX not in str(label):
        raise ValueError(f"label must contain {PAPER_PREFIX!r}, got {label!r}.")
    x, y = _finite_xy(x, y)
    if not x.size:
        return None
    kw = {**PAPER_STYLE, **style}
    if not line:
        kw["ls"] = "none"
    (h,) = ax.plot(x, y, label=label, **kw)
    h.set_gid(PUBLISHED_GID)
    return h


def overlay_bound(ax, value: float, *, axis: str = "y", label: str = PAPER_PREFIX):
    """A bound the paper prints ("fewer than 25 iterations") as a dashed black reference
    line across ``ax`` (``axis="y"``: horizontal at ``value``; ``"x"``: vertical), labelled
    like :func:`overlay_published`. Returns the line."""
    if axis not in ("x", "y"):
        raise ValueError(f"axis must be 'x' or 'y', got {axis!r}.")
    if PAPER_PREFIX not in str(label):
        raise ValueError(f"label must contain {PAPER_PREFIX!r}, got {label!r}.")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"value must be finite, got {value!r}.")
    line = ax.axhline if axis == "y" else ax.axvline
    h = line(v, color="k", ls="--", lw=0.9, label=label, zorder=2)
    h.set_gid(PUBLISHED_GID)
    return h


def overlay_range(ax, lo: float, hi: float, *, axis: str = "y", label: str = PAPER_PREFIX):
    """A range the paper gives (e.g. the extent of a published figure's axis, when its
    values cannot be read) as a light grey band across ``ax``, labelled and tagged like
    :func:`overlay_published`. Returns the band."""
    if axis not in ("x", "y"):
        raise ValueError(f"axis must be 'x' or 'y', got {axis!r}.")
    if PAPER_PREFIX not in str(label):
        raise ValueError(f"label must contain {PAPER_PREFIX!r}, got {label!r}.")
    lo, hi = float(lo), float(hi)
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"lo and hi must be finite with lo < hi, got {lo!r} and {hi!r}.")
    span = ax.axhspan if axis == "y" else ax.axvspan
    h = span(lo, hi, facecolor="k", alpha=0.07, edgecolor="k", ls="--", lw=0.6, label=label,
             zorder=1)
    h.set_gid(PUBLISHED_GID)
    return h


def overlay_note(ax, text: str, *, x: float = 0.01, y: float = 0.99, **kw):
    """A published number that has no place on the axes (an average ratio, a claim without
    per-point values) written in the panel, tagged like :func:`overlay_published`; ``text``
    must contain ``"paper"``. ``x, y`` in axes coordinates. Returns the text artist."""
    if PAPER_PREFIX not in str(text):
        raise ValueError(f"text must contain {PAPER_PREFIX!r}, got {text!r}.")
    style = {"ha": "left", "va": "top", "fontsize": 9,
             "bbox": {"boxstyle": "round", "fc": "white", "ec": "k", "ls": "--", "lw": 0.8}}
    h = ax.text(x, y, text, transform=ax.transAxes, **{**style, **kw})
    h.set_gid(PUBLISHED_GID)
    return h


def published_artists(fig) -> list:
    """The artists of ``fig`` that draw published values (``gid`` :data:`PUBLISHED_GID`,
    set by the ``overlay_*`` functions): what the tests count."""
    return [a for ax in fig.axes
            for a in list(ax.lines) + list(ax.collections) + list(ax.patches) + list(ax.texts)
            if a.get_gid() == PUBLISHED_GID]


# --------------------------------------------------------------------------- degenerate runs
#: legend label of a point whose fit predicted one class for every test point
ONE_CLASS_LABEL = "one-class prediction"
#: legend label of two curves equal at every point
IDENTICAL_LABEL = "identical curves"
#: how a degenerate point is marked: a grey hatched ring drawn over the data marker
DEGENERATE_STYLE = {"s": 100, "facecolors": "none", "edgecolors": "0.3", "hatch": "////",
                    "linewidths": 1.0, "zorder": 6, "clip_on": False}


def degenerate_mask(evidence) -> np.ndarray:
    """Boolean mask from the evidence a stage records per point: a flag (``one_class``), a
    count (``warnings_one_class``, ``one_class_runs``) or a share (``one_class_share``) --
    ``True`` where it is positive; missing values (NaN, None) are ``False`` (nothing
    recorded, nothing marked)."""
    a = np.asarray(evidence, dtype=object).ravel()
    out = np.zeros(a.size, dtype=bool)
    for i, v in enumerate(a):
        if v is None or isinstance(v, str):
            if isinstance(v, str):
                raise ValueError(f"evidence must be flags, counts or shares, got {v!r}.")
            continue
        f = float(v)
        if f < 0:
            raise ValueError(f"evidence must not be negative, got {v!r}.")
        out[i] = np.isfinite(f) and f > 0
    return out


def _register(fig, label: str, count: int, reason: str) -> None:
    marks = fig.__dict__.setdefault("_weaklabel_marks", {})
    m = marks.setdefault(label, {"count": 0, "reasons": []})
    m["count"] += int(count)
    if reason and reason not in m["reasons"]:
        m["reasons"].append(reason)


def mark_one_class(ax, x, y, evidence, *, label: str = ONE_CLASS_LABEL, reason: str = ""):
    """Mark on ``ax`` every point ``(x, y)`` whose ``evidence`` (:func:`degenerate_mask`)
    says its fit predicted one class: a grey hatched ring (:data:`DEGENERATE_STYLE`) with
    one legend entry ``label``. ``reason`` (the column it was read from, what it means)
    goes into :func:`marks_caption`. Returns the number of points marked."""
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    m = degenerate_mask(evidence)
    if not (x.size == y.size == m.size):
        raise ValueError(f"x, y and evidence must have the same length, got {x.size}, "
                         f"{y.size} and {m.size}.")
    m &= np.isfinite(x) & np.isfinite(y)
    if not m.any():
        return 0
    seen = any(c.get_label() == label for c in ax.collections)
    ax.scatter(x[m], y[m], label="_nolegend_" if seen else label, **DEGENERATE_STYLE)
    _register(ax.figure, label, int(m.sum()), reason)
    return int(m.sum())


def identical_curves(a, b) -> bool:
    """Whether two curves (arrays, or sequences of per-run arrays) are equal at every point:
    same shape and the same values, NaN equal to NaN. No tolerance: an accuracy is a count
    over a test set, so two runs either give the same number or they do not."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape or a.size == 0:
        return False
    return bool(np.array_equal(a, b, equal_nan=True))


def mark_identical(ax, *, label: str = IDENTICAL_LABEL, reason: str = ""):
    """Say on ``ax`` that its curves are identical (:func:`identical_curves`): a legend
    entry ``label`` (a grey hatched patch) and a note in the panel; ``reason`` goes into
    :func:`marks_caption`. Returns the legend handle."""
    from matplotlib.patches import Patch

    h = Patch(facecolor="none", edgecolor="0.35", hatch="/////", label=label)  # legend only
    ax.text(0.02, 0.97, label, transform=ax.transAxes, ha="left", va="top", fontsize=8,
            color="0.2", bbox={"boxstyle": "round", "fc": "white", "ec": "0.35",
                               "alpha": 0.9})
    handles = ax.__dict__.setdefault("_weaklabel_extra_handles", [])
    handles.append(h)
    _register(ax.figure, label, 1, reason)
    return h


def legend_handles(ax_or_fig) -> tuple[list, list]:
    """Legend handles and labels of an axis or of every axis of a figure, each label once,
    including the proxy entries of :func:`mark_identical`."""
    from matplotlib.figure import Figure

    axes = ax_or_fig.axes if isinstance(ax_or_fig, Figure) else [ax_or_fig]
    out = {}
    for ax in axes:
        h, lab = ax.get_legend_handles_labels()
        for hh, ll in zip(h, lab):
            out.setdefault(ll, hh)
        for hh in ax.__dict__.get("_weaklabel_extra_handles", []):
            out.setdefault(hh.get_label(), hh)
    return list(out.values()), list(out)


def marks(fig) -> dict:
    """What :func:`mark_one_class` and :func:`mark_identical` marked on ``fig``:
    ``{label: {"count": int, "reasons": [str]}}`` (empty when nothing was marked)."""
    return {k: {"count": v["count"], "reasons": list(v["reasons"])}
            for k, v in fig.__dict__.get("_weaklabel_marks", {}).items()}


def marks_caption(fig) -> str:
    """A caption sentence per kind of mark on ``fig`` (markdown; empty when none): what the
    grey hatched mark means, how many points or panels carry it, and the reasons given."""
    parts = []
    for label, m in marks(fig).items():
        unit = "panel" if label == IDENTICAL_LABEL else "point"
        n = m["count"]
        what = (f"**{label}** (grey hatched, {n} {unit}{'s' if n != 1 else ''})")
        why = "; ".join(m["reasons"])
        parts.append(what + (": " + why if why else "") + ".")
    return " ".join(parts)


def figure_caption(fig) -> str:
    """The generated part of a figure's caption (markdown; empty when there is nothing to
    say): the published values drawn on it (:func:`published_artists`, by their labels) and
    the degenerate runs marked on it (:func:`marks_caption`)."""
    seen = []
    for a in published_artists(fig):
        t = a.get_text() if hasattr(a, "get_text") else a.get_label()
        t = " ".join(str(t).split())
        if t and not t.startswith("_") and t not in seen:
            seen.append(t)
    parts = []
    if seen:
        parts.append("In black (dashed line, hollow marker, grey band or boxed note): the "
                     "paper's numbers -- " + "; ".join(seen) + ".")
    m = marks_caption(fig)
    if m:
        parts.append("Marked: " + m)
    return " ".join(parts)
