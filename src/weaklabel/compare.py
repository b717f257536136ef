"""Reproduced-vs-published comparison (``comparison.csv``) and solver cross-checks.

:func:`build_comparison` joins our numbers with the published cells and writes one row per
published cell with the columns

``paper, artifact, row, column, published, reproduced, delta, tolerance, verdict, note``.

Verdicts
--------
``match``
    our number, rounded to the paper's printed precision (``decimals``), equals the
    published number;
``within_tolerance``
    ``|delta| <= tolerance`` (the tolerance is declared before the run);
``differs``
    otherwise, or when we have no number for a published cell (``reproduced`` empty);
``not_published``
    the paper prints no number for this cell.

Causes (issue #16)
------------------
Every ``differs`` row also says why, in the columns :data:`CAUSE_COLUMNS`
(``reproduced_std, n_runs, published_std, cause, evidence``) that
:func:`weaklabel.causes.assign_causes` appends. The closed vocabulary :data:`CAUSES` (one
line of definition per cause) and its rules live in :mod:`weaklabel.causes` and are
re-exported here; :func:`write_comparison` refuses a frame whose ``differs`` rows lack a
cause or whose causes are outside the vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from . import published as _published
from ._io import write_csv

COLUMNS = ["paper", "artifact", "row", "column", "published", "reproduced", "delta",
           "tolerance", "verdict", "note"]
VERDICTS = ("match", "within_tolerance", "differs", "not_published")
_KEY = ["artifact", "row", "column"]
#: re-exported from :mod:`weaklabel.causes` on first use (that module imports this one)
_CAUSE_EXPORTS = ("CAUSES", "CAUSE_COLUMNS", "assign_causes", "cause_summary",
                  "unexplained_cells")


def __getattr__(name: str):  # PEP 562: the vocabulary, declared once, read through here
    if name in _CAUSE_EXPORTS:
        from . import causes

        return getattr(causes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def verdict(published: float, reproduced: float, tolerance: float, decimals: int = 1) -> str:
    """Verdict for one cell (see module docstring)."""
    if published is None or not np.isfinite(published):
        return "not_published"
    if reproduced is None or not np.isfinite(reproduced):
        return "differs"
    if round(float(reproduced), decimals) == round(float(published), decimals):
        return "match"
    if np.isfinite(tolerance) and abs(float(reproduced) - float(published)) <= float(tolerance):
        return "within_tolerance"
    return "differs"


def build_comparison(reproduced: pd.DataFrame, paper: str, *,
                     tolerance: float | Callable[[pd.Series], float] | None = None,
                     published: pd.DataFrame | None = None, decimals: int = 1,
                     artifacts: list[str] | None = None,
                     artifact_map: dict[str, str] | None = None) -> pd.DataFrame:
    """Build the comparison table.

    Parameters
    ----------
    reproduced : DataFrame
        Columns ``artifact, row, column, reproduced`` and optionally ``tolerance`` and
        ``note``. Row and column labels must be spelled as in the published CSV.
    paper : str
        Paper id (``usmo``, ``mcls``, ``wellsvm``, ``tsgsu``).
    tolerance : float or callable, optional
        Declared tolerance when ``reproduced`` has no ``tolerance`` column; a callable
        receives the published row and returns the tolerance.
    published : DataFrame, optional
        Published cells (default: :func:`weaklabel.published.load`).
    artifacts : list of str, optional
        Restrict to these published artifacts (default: those present in ``reproduced``).
    artifact_map : dict, optional
        Map our artifact names to published ones, e.g. to compare the same published
        table under two scorings: ``{"Table III (demo2 scoring)": "Table III"}``.

    Returns
    -------
    DataFrame with :data:`COLUMNS`, one row per (our artifact, published cell).
    """
    need = {"artifact", "row", "column", "reproduced"}
    if not need <= set(reproduced.columns):
        raise ValueError(f"reproduced must have columns {sorted(need)}, "
                         f"got {list(reproduced.columns)}.")
    pub = _published.load(paper) if published is None else published
    rep = reproduced.copy()
    rep["_pub_artifact"] = rep["artifact"].map(lambda a: (artifact_map or {}).get(a, a))
    if rep.duplicated(_KEY).any():
        dup = rep[rep.duplicated(_KEY, keep=False)][_KEY].head(3).values.tolist()
        raise ValueError(f"reproduced has duplicated cells, e.g. {dup}.")
    wanted = artifacts if artifacts is not None else sorted(set(rep["_pub_artifact"]))
    rows = []
    for our_art in sorted(set(rep["artifact"])):
        sub = rep[rep["artifact"] == our_art]
        pub_art = sub["_pub_artifact"].iloc[0]
        if pub_art not in wanted:
            continue
        cells = pub[pub["artifact"] == pub_art]
        if cells.empty:
            raise ValueError(f"no published cells for artifact {pub_art!r} of {paper}.")
        lookup = {(r, c): i for i, (r, c) in enumerate(zip(sub["row"], sub["column"]))}
        for _, cell in cells.iterrows():
            i = lookup.get((cell["row"], cell["column"]))
            ours = sub.iloc[i] if i is not None else None
            val = float(ours["reproduced"]) if ours is not None else np.nan
            if ours is not None and "tolerance" in sub.columns and pd.notna(ours["tolerance"]):
                tol = float(ours["tolerance"])
            elif callable(tolerance):
                tol = float(tolerance(cell))
            elif tolerance is not None:
                tol = float(tolerance)
            elif ours is None:
                tol = np.nan  # a cell we did not reproduce has no declared tolerance
            else:
                raise ValueError("no tolerance declared: pass tolerance= or a tolerance column.")
            pv = float(cell["value"]) if pd.notna(cell["value"]) else np.nan
            v = verdict(pv, val, tol, decimals)
            note = ""
            if ours is not None and "note" in sub.columns and isinstance(ours["note"], str):
                note = ours["note"]
            if ours is None:
                note = note or "not reproduced"
            rows.append({
                "paper": paper, "artifact": our_art, "row": cell["row"],
                "column": cell["column"], "published": pv, "reproduced": val,
                "delta": val - pv if np.isfinite(pv) and np.isfinite(val) else np.nan,
                "tolerance": tol, "verdict": v, "note": note,
            })
    return pd.DataFrame(rows, columns=COLUMNS)


def summarize(comparison: pd.DataFrame) -> pd.DataFrame:
    """Counts of each verdict per artifact."""
    t = pd.crosstab(comparison["artifact"], comparison["verdict"])
    for v in VERDICTS:
        if v not in t.columns:
            t[v] = 0
    return t[list(VERDICTS)]


def write_comparison(comparison: pd.DataFrame, path) -> None:
    """Write ``comparison.csv`` atomically, after checking its columns, verdicts and causes.

    The frame has :data:`COLUMNS` then :data:`CAUSE_COLUMNS` (as
    :func:`weaklabel.causes.assign_causes` returns it); every ``differs`` row has a cause,
    every cause is one of :data:`CAUSES`, and only ``differs`` rows carry one.
    """
    from .causes import CAUSE_COLUMNS, CAUSES

    if list(comparison.columns) != COLUMNS + CAUSE_COLUMNS:
        raise ValueError(f"comparison must have exactly the columns {COLUMNS + CAUSE_COLUMNS} "
                         "(build_comparison, then weaklabel.causes.assign_causes); got "
                         f"{list(comparison.columns)}.")
    bad = set(comparison["verdict"]) - set(VERDICTS)
    if bad:
        raise ValueError(f"unknown verdicts {sorted(bad)}.")
    cause = comparison["cause"].fillna("").astype(str)
    differs = comparison["verdict"] == "differs"
    if (differs & (cause == "")).any():
        first = comparison.loc[differs & (cause == ""), _KEY].head(3).values.tolist()
        raise ValueError(f"differs rows without a cause, e.g. {first}.")
    if (~differs & (cause != "")).any():
        raise ValueError("only differs rows carry a cause.")
    unknown = {c for v in cause for c in v.split(";") if c} - set(CAUSES)
    if unknown:
        raise ValueError(f"unknown causes {sorted(unknown)}; the vocabulary is {list(CAUSES)}.")
    write_csv(comparison, path, float_format="%.6g")


# --------------------------------------------------------------------------- crosscheck.csv
CROSSCHECK_COLUMNS = ["problem", "solver", "reference", "n", "objective",
                      "reference_objective", "rel_gap", "max_kkt_violation",
                      "solver_seconds", "reference_seconds"]


def rel_gap(objective: float, reference_objective: float) -> float:
    """Relative objective gap ``|a - b| / max(1, |b|)`` used in every crosscheck."""
    return abs(float(objective) - float(reference_objective)) / max(1.0, abs(reference_objective))


def crosscheck_record(problem: str, solver: str, reference: str, n: int, objective: float,
                      reference_objective: float, max_kkt_violation: float,
                      solver_seconds: float, reference_seconds: float) -> dict:
    """One row of ``crosscheck.csv``: a package solver against its cvxpy reference."""
    return {
        "problem": problem, "solver": solver, "reference": reference, "n": int(n),
        "objective": float(objective), "reference_objective": float(reference_objective),
        "rel_gap": rel_gap(objective, reference_objective),
        "max_kkt_violation": float(max_kkt_violation),
        "solver_seconds": float(solver_seconds), "reference_seconds": float(reference_seconds),
    }


def write_crosscheck(records, path) -> pd.DataFrame:
    """Write ``crosscheck.csv`` atomically from a list of :func:`crosscheck_record` dicts."""
    df = pd.DataFrame(list(records), columns=CROSSCHECK_COLUMNS)
    write_csv(df, path, float_format="%.6g")
    return df
