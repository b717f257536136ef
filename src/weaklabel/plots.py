"""Matplotlib helpers shared by the notebooks: one style, atomic saving with provenance."""

from __future__ import annotations

from pathlib import Path

import matplotlib

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
