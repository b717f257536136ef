"""Reproduced-vs-published comparison (``comparison.csv``) and solver cross-checks.

:func:`build_comparison` joins our numbers with the published cells and writes one row per
published cell with the columns

``paper, artifact, row, column, published, reproduced, delta, tolerance, verdict, note``.

Verdicts
--------
Three verdicts for a comparable cell of a learned model (the *headline* cells):

``match``
    our number, rounded to the paper's printed precision (``decimals``), equals the
    published number;
``within_tolerance``
    ``|delta| <= tolerance`` (the tolerance is declared before the run);
``differs``
    otherwise.

Three verdicts counted apart everywhere, never as agreement:

``not_run``
    we have no number for a published cell (method not implemented, a size cap); the
    ``note`` says why;
``not_comparable``
    our number comes from other data than the paper's (a synthetic or a material
    substitute set): shown, with its delta, but not compared (:func:`classify`);
``by_construction``
    the protocol sets the value (a data-set statistic, a count the generator sets, a
    constant predictor's score): checked, and left ``differs`` when it disagrees, but an
    agreement is ``by_construction``, not ``match`` (:func:`classify`).

``not_published`` marks a row for which the paper prints no number.

A comparable cell is also ``uninformative`` (column of that name) when the trivial
predictor's value (``trivial``: majority class, all-positive) lies within the cell's
tolerance of the published number: agreement there cannot tell a learned model from the
trivial one. :func:`headline` counts agreement over the comparable, informative cells only.

Causes
------
Every ``differs`` row also says why, in the columns :data:`CAUSE_COLUMNS`
(``reproduced_std, n_runs, published_std, cause, explained_value, evidence``) that
:func:`weaklabel.causes.assign_causes` appends. The closed vocabulary :data:`CAUSES` (one
line of definition per cause) and its rules live in :mod:`weaklabel.causes` and are
re-exported here; :func:`write_comparison` refuses a frame whose ``differs`` rows lack a
cause or whose causes are outside the vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from . import published as _published
from ._io import write_csv

COLUMNS = ["paper", "artifact", "row", "column", "published", "reproduced", "delta",
           "tolerance", "verdict", "note", "trivial", "uninformative", "one_class_share"]
#: every verdict, in reading order (module docstring)
VERDICTS = ("match", "within_tolerance", "differs", "not_run", "not_comparable",
            "by_construction", "not_published")
#: the verdicts of a comparable cell of a learned model; only these enter the headline
COMPARED = ("match", "within_tolerance", "differs")
#: the verdicts that count as agreement (on an informative cell)
AGREE = ("match", "within_tolerance")
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
        return "not_run"
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
                "tolerance": tol, "verdict": v, "note": note, "trivial": np.nan,
                "uninformative": False, "one_class_share": np.nan,
            })
    return pd.DataFrame(rows, columns=COLUMNS)


def summarize(comparison: pd.DataFrame) -> pd.DataFrame:
    """Counts of each verdict per artifact (every verdict of :data:`VERDICTS` a column)."""
    t = pd.crosstab(comparison["artifact"], comparison["verdict"])
    for v in VERDICTS:
        if v not in t.columns:
            t[v] = 0
    return t[list(VERDICTS)]


def _keyed(table, name: str):
    """A rule ``row -> reason`` from a mapping (keys: a row label, matched without regard to
    case; ``(artifact, row)``; ``(artifact, "*")``; the most specific wins) or a callable
    taking the comparison row and returning a reason (empty or None: not this row)."""
    if callable(table):
        return lambda r: str(table(r) or "")
    if not isinstance(table, Mapping):
        raise TypeError(f"{name} must be a mapping or a callable, got {type(table).__name__}.")
    t = {((k[0], str(k[1]).casefold()) if isinstance(k, tuple) else str(k).casefold()): str(v)
         for k, v in dict(table).items()}

    def rule(r):
        for k in ((r["artifact"], str(r["row"]).casefold()), (r["artifact"], "*"),
                  str(r["row"]).casefold()):
            if k in t:
                return t[k]
        return ""
    return rule


def _join_note(reason: str, note) -> str:
    note = note if isinstance(note, str) else ""
    return reason if not note else f"{reason}; {note}"


def _per_cell(comp: pd.DataFrame, values, name: str) -> np.ndarray:
    """A number per row of ``comp`` from a callable ``row -> value`` or a frame keyed by
    ``artifact, row, column`` with the column ``name`` (NaN where absent)."""
    if callable(values):
        return np.asarray([float(values(r)) for _, r in comp.iterrows()], dtype=float)
    need = {"artifact", "row", "column", name}
    if not isinstance(values, pd.DataFrame) or not need <= set(values.columns):
        raise ValueError(f"{name} must be a callable or a DataFrame with columns "
                         f"{sorted(need)}.")
    if values.duplicated(_KEY).any():
        raise ValueError(f"{name} has duplicated cells.")
    look = {tuple(map(str, k)): float(v) for k, v in
            zip(values[_KEY].itertuples(index=False), values[name])}
    return np.asarray([look.get((str(a), str(r), str(c)), np.nan)
                       for a, r, c in zip(comp["artifact"], comp["row"], comp["column"])],
                      dtype=float)


def classify(comp: pd.DataFrame, *, substitutes=None, by_construction=None,
             trivial=None, one_class=None) -> pd.DataFrame:
    """A copy of ``comp`` (:func:`build_comparison`) with the verdicts that are not
    agreement set, and the trivial predictor's value.

    Parameters
    ----------
    comp : DataFrame
        A comparison.
    substitutes : mapping or callable, optional
        Cells computed on other data than the paper's (a synthetic set, a *material*
        substitute): ``row -> reason`` (matched without regard to case),
        ``(artifact, row) -> reason``, ``(artifact, "*") -> reason``, or a callable
        ``row -> reason``. A matched cell with a number becomes ``not_comparable``; its
        number and delta stay, the reason goes first in ``note``. An immaterial difference
        (a dropped constant attribute, one row fewer) is not a substitute: leave it out.
    by_construction : mapping or callable, optional
        Cells whose value the protocol sets (same forms). A matched ``match`` or
        ``within_tolerance`` cell becomes ``by_construction``; a matched ``differs`` cell
        stays ``differs`` (the protocol did not set what it should have), with the reason
        in ``note``.
    trivial : DataFrame or callable, optional
        The trivial predictor's value per cell: ``artifact, row, column, trivial`` or a
        callable ``row -> value`` (NaN: unknown). Fills ``trivial`` and sets
        ``uninformative`` on comparable cells (:data:`COMPARED`) where it lies within the
        cell's tolerance of the published number.
    one_class : DataFrame or callable, optional
        The share of the cell's runs whose fit predicted one class for every test point:
        ``artifact, row, column, one_class_share`` or a callable ``row -> share`` (NaN: not
        recorded). Fills ``one_class_share``; a cell with a positive share rests on
        degenerate fits, which reports mark and claims treat as inconclusive.

    Numbers, deltas and tolerances are never changed; ``not_published`` and ``not_run`` rows
    keep their verdict.
    """
    missing = [c for c in COLUMNS if c not in comp.columns]
    if missing:
        raise ValueError(f"comp lacks columns {missing}; pass build_comparison's frame.")
    out = comp.copy()
    verdicts, notes = out["verdict"].tolist(), out["note"].tolist()
    if substitutes is not None:
        rule = _keyed(substitutes, "substitutes")
        for i, (_, r) in enumerate(out.iterrows()):
            why = rule(r)
            if why and verdicts[i] in COMPARED:
                verdicts[i], notes[i] = "not_comparable", _join_note(f"other data: {why}",
                                                                     notes[i])
    if by_construction is not None:
        rule = _keyed(by_construction, "by_construction")
        for i, (_, r) in enumerate(out.iterrows()):
            why = rule(r)
            if why and verdicts[i] in COMPARED:
                if verdicts[i] in AGREE:
                    verdicts[i] = "by_construction"
                notes[i] = _join_note(f"set by the protocol: {why}", notes[i])
    out["verdict"], out["note"] = verdicts, notes
    if trivial is not None:
        out["trivial"] = _per_cell(out, trivial, "trivial")
    if one_class is not None:
        out["one_class_share"] = _per_cell(out, one_class, "one_class_share")
    pub, tol, tr = (out[c].to_numpy(dtype=float) for c in ("published", "tolerance", "trivial"))
    with np.errstate(invalid="ignore"):
        near = np.abs(tr - pub) <= tol
    out["uninformative"] = out["verdict"].isin(COMPARED).to_numpy() & near
    return out


def headline(comp: pd.DataFrame) -> dict:
    """The counts every view reports for a comparison.

    ``cells`` (rows with a published number), one count per verdict, ``uninformative``
    (comparable cells where the trivial predictor is within tolerance), ``compared``
    (comparable, informative cells), ``degenerate`` (of those, cells with a run that
    predicted one class, ``one_class_share > 0``), ``agree`` (of those, ``match`` or
    ``within_tolerance``), ``disagree`` (of those, ``differs``) and ``agree_rate``
    (``agree / compared``, NaN when nothing was compared).
    """
    v = comp["verdict"].astype(str)
    unin = comp["uninformative"].astype(bool) if "uninformative" in comp else v != v
    comparable = v.isin(COMPARED) & ~unin
    out = {"cells": int((v != "not_published").sum())}
    out.update({k: int((v == k).sum()) for k in VERDICTS})
    out["uninformative"] = int((v.isin(COMPARED) & unin).sum())
    share = (comp["one_class_share"].astype(float) if "one_class_share" in comp
             else pd.Series(np.nan, index=comp.index))
    out["degenerate"] = int((comparable & (share > 0)).sum())
    out["compared"] = int(comparable.sum())
    out["agree"] = int((comparable & v.isin(AGREE)).sum())
    out["disagree"] = out["compared"] - out["agree"]
    out["agree_rate"] = out["agree"] / out["compared"] if out["compared"] else float("nan")
    return out


def one_scoring(comp: pd.DataFrame, scoring: str = "correct") -> pd.DataFrame:
    """The rows of one scoring of a comparison that scores a table two ways (the scoring is
    named in the artifact, e.g. ``"Table III (correct scoring)"``), so that no published
    cell is counted twice; ``comp`` itself when no artifact names ``scoring``."""
    if "artifact" not in comp:
        return comp
    sc = comp["artifact"].astype(str).str.extract(r"\((\w+) scoring\)$")[0]
    return comp[sc == scoring] if (sc == scoring).any() else comp


def difference_size(comp: pd.DataFrame) -> pd.DataFrame:
    """Per artifact, over its comparable cells (:data:`COMPARED`): ``cells``, mean and
    median ``|delta|``, and median ``|delta| / tolerance`` (how many tolerances apart the
    typical cell is)."""
    c = comp[comp["verdict"].isin(COMPARED) & comp["delta"].notna()].copy()
    c["_abs"] = c["delta"].abs()
    with np.errstate(divide="ignore", invalid="ignore"):
        c["_rel"] = c["_abs"] / c["tolerance"]
    g = c.groupby("artifact", sort=True)
    return pd.DataFrame({"cells": g.size(), "mean_abs_delta": g["_abs"].mean(),
                         "median_abs_delta": g["_abs"].median(),
                         "median_delta_over_tolerance": g["_rel"].median()}).reset_index()


def write_comparison(comparison: pd.DataFrame, path) -> None:
    """Write ``comparison.csv`` atomically, after checking its columns, verdicts and causes.

    The frame has :data:`COLUMNS` then :data:`CAUSE_COLUMNS` (as
    :func:`weaklabel.causes.assign_causes` returns it); every ``differs`` row has a cause
    and a reproduced number, every cause is one of :data:`CAUSES`, only ``differs`` rows
    carry one, a measured cause's ``explained_value`` is within the row's tolerance of the
    published number, and ``within_spread`` rests on at least ``MIN_RUNS`` runs.
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
    if (differs & comparison["reproduced"].isna()).any():
        raise ValueError("differs rows without a reproduced number: their verdict is not_run.")
    from .causes import MEASURED, MIN_RUNS

    measured = cause.map(lambda v: any(c in MEASURED for c in v.split(";")))
    gap = (comparison["explained_value"] - comparison["published"]).abs()
    bad = measured & ~(gap <= comparison["tolerance"])
    if bad.any():
        first = comparison.loc[bad, _KEY].head(3).values.tolist()
        raise ValueError(f"rows whose measured cause has no explained_value within the "
                         f"tolerance of the published number, e.g. {first}.")
    spread = cause.str.contains("within_spread") & ~(comparison["n_runs"] >= MIN_RUNS)
    if spread.any():
        raise ValueError(f"within_spread rests on fewer than {MIN_RUNS} runs in "
                         f"{int(spread.sum())} rows.")
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
