"""Why a cell differs: a closed vocabulary of causes and the rules that assign them.

A row of ``comparison.csv`` (:mod:`weaklabel.compare`) with the verdict ``differs`` says
that our number and the paper's disagree by more than the declared tolerance. This module
says why, from evidence the code computes, never from text typed per cell:

- :data:`CAUSES`: the vocabulary, an ordered mapping ``name -> one-line definition``;
- one rule per cause (:func:`within_spread`, :func:`scoring`, :func:`protocol_choice`,
  :func:`substitute_data`, :func:`baseline_implementation`): a pure function of the
  comparison frame and the evidence it needs, returning per row ``holds`` (bool) and
  ``evidence`` (a short text with the number that supports it);
- :func:`assign_causes`: runs every rule whose evidence is given and adds the columns
  :data:`CAUSE_COLUMNS` (``reproduced_std, n_runs, published_std, cause, evidence``);
  every ``differs`` row gets at least one cause (``unexplained`` when no rule holds), the
  other rows keep an empty cause, and the columns ``published, reproduced, delta,
  tolerance, verdict`` are left exactly as they were (checked);
- :func:`cause_summary` (verdict x cause counts) and :func:`unexplained_cells`.

Order of the vocabulary
-----------------------
Most specific first: first the causes whose evidence is a number we measured that
accounts for the difference (run-to-run spread, the authors' scoring, the range over a
protocol choice the paper leaves open), then the causes that are declared facts about the
inputs (a substitute data set, a documented baseline difference) without measuring how much
of the gap they account for, and last ``unexplained``. A cell carrying several causes
lists them, and their evidence, in this order, joined by ``";"``.

Evidence frames
---------------
Every evidence frame is keyed by the comparison's cell key ``artifact, row, column`` (plus
``paper`` when both frames have that column); a key that occurs twice is an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
import pandas as pd

from .compare import COLUMNS as _COMPARISON_COLUMNS
from .compare import verdict as _verdict

__all__ = ["CAUSES", "CAUSE_COLUMNS", "UNTOUCHED_COLUMNS", "within_spread", "scoring",
           "protocol_choice", "substitute_data", "baseline_implementation", "assign_causes",
           "cause_summary", "unexplained_cells", "paired_alternative", "spread_from_runs",
           "repetition_sensitivity", "choice_sensitivity", "registry_substitutes"]

#: the closed vocabulary, most specific first (see the module docstring)
CAUSES: Mapping[str, str] = MappingProxyType({
    "within_spread": "the published value lies inside our mean +- 2 std over the protocol's "
                     "repetitions or seeds: the difference is run-to-run noise",
    "scoring": "the cell is within tolerance under the scoring the authors' released code "
               "uses and not under the correct one",
    "protocol_choice": "the paper leaves a choice open and a declared sensitivity run moves "
                       "the cell by more than the tolerance across reasonable choices",
    "substitute_data": "the data set differs from the paper's (a substitute, a different "
                       "size or encoding), as the data layer declares",
    "baseline_implementation": "a documented difference between our (or the library's) "
                               "implementation of a baseline and the paper's description",
    "unexplained": "none of the other causes holds (an honest answer, not a failure)",
})
#: the columns :func:`assign_causes` adds, in this order, after the comparison's own
CAUSE_COLUMNS = ["reproduced_std", "n_runs", "published_std", "cause", "evidence"]
#: the comparison's columns that no rule may change
UNTOUCHED_COLUMNS = ["paper", "artifact", "row", "column", "published", "reproduced", "delta",
                     "tolerance", "verdict", "note"]
_KEY = ["artifact", "row", "column"]
_SEP = ";"


# --------------------------------------------------------------------------- helpers
def _fmt(x: float) -> str:
    """A number in evidence text: 4 significant digits, ``nan`` when missing."""
    return "nan" if x is None or not np.isfinite(x) else f"{float(x):.4g}"


def _check_frame(df, name: str, need) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(df).__name__}.")
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks columns {missing}; it has {list(df.columns)}.")
    return df


def _check_comparison(comp) -> pd.DataFrame:
    return _check_frame(comp, "comp", _COMPARISON_COLUMNS)


def _check_mapping(table, name: str) -> None:
    if not isinstance(table, Mapping):
        raise TypeError(f"{name} must be a mapping key -> reason, got {type(table).__name__}.")


def _key_cols(comp: pd.DataFrame, other: pd.DataFrame) -> list[str]:
    return (["paper"] if "paper" in comp.columns and "paper" in other.columns else []) + _KEY


def _lookup(comp: pd.DataFrame, frame: pd.DataFrame, name: str, cols: list[str]
            ) -> pd.DataFrame:
    """``frame[cols]`` aligned on the rows of ``comp`` by the cell key (NaN where absent)."""
    key = _key_cols(comp, frame)
    dup = frame.duplicated(key, keep=False)
    if dup.any():
        ex = frame.loc[dup, key].head(2).values.tolist()
        raise ValueError(f"{name} has duplicated cells (key {key}), e.g. {ex}; give one row "
                         "per cell.")
    right = frame[key + cols].copy()
    for k in key:
        right[k] = right[k].astype(str)
    left = comp[key].astype(str).reset_index(drop=True)
    merged = left.merge(right, on=key, how="left", validate="many_to_one")
    merged.index = comp.index
    return merged[cols]


def _result(comp: pd.DataFrame, holds, evidence) -> pd.DataFrame:
    return pd.DataFrame({"holds": np.asarray(holds, dtype=bool),
                         "evidence": pd.Series(list(evidence), dtype=object).to_numpy()},
                        index=comp.index)


def _method(column: str) -> str:
    """The method part of a column label: ``"[6], λ=0.0001"`` -> ``"[6]"``."""
    return str(column).split(", ")[0]


# --------------------------------------------------------------------------- rules
def within_spread(comp: pd.DataFrame, spread: pd.DataFrame, *, k: float = 2.0
                  ) -> pd.DataFrame:
    """Rule ``within_spread``: the published value lies in ``mean +- k std`` of our runs.

    Parameters
    ----------
    comp : DataFrame
        A comparison (:data:`weaklabel.compare.COLUMNS`).
    spread : DataFrame
        One row per cell: ``artifact, row, column, reproduced_mean, reproduced_std,
        n_runs`` (and optionally ``published_std``, not used by the rule). ``reproduced_std``
        is the sample standard deviation (ddof = 1) over the protocol's repetitions or
        seeds.
    k : float, default 2
        Half-width of the band in standard deviations (the issue's 2).

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds`` (bool) and ``evidence`` (str).

    Notes
    -----
    A cell with ``n_runs < 2`` (or no row in ``spread``, or a NaN std) has no spread
    estimate: the rule does not hold for it, whatever its values; the evidence says
    ``"n_runs=1: no spread"``. A zero std with ``n_runs >= 2`` is a real spread of zero:
    the rule holds only when the published value equals the mean.
    """
    _check_comparison(comp)
    _check_frame(spread, "spread", _KEY + ["reproduced_mean", "reproduced_std", "n_runs"])
    if not np.isfinite(k) or k <= 0:
        raise ValueError(f"k must be a positive number of standard deviations, got {k!r}.")
    s = _lookup(comp, spread, "spread", ["reproduced_mean", "reproduced_std", "n_runs"])
    holds, ev = [], []
    for pub, m, sd, n in zip(comp["published"], s["reproduced_mean"], s["reproduced_std"],
                             s["n_runs"]):
        n_ok = pd.notna(n) and n >= 2 and np.isfinite(sd)
        if not n_ok:
            holds.append(False)
            ev.append(f"n_runs={int(n) if pd.notna(n) else 0}: no spread")
            continue
        lo, hi = m - k * sd, m + k * sd
        h = bool(np.isfinite(pub) and lo <= pub <= hi)
        holds.append(h)
        ev.append(f"published {_fmt(pub)} {'in' if h else 'outside'} mean {_fmt(m)} +- "
                  f"{k:g} std {_fmt(sd)} = [{_fmt(lo)}, {_fmt(hi)}] (n_runs={int(n)})")
    return _result(comp, holds, ev)


def scoring(comp: pd.DataFrame, alt: pd.DataFrame, *, decimals: int = 1) -> pd.DataFrame:
    """Rule ``scoring``: within tolerance under the authors' scoring, not under ours.

    Parameters
    ----------
    comp : DataFrame
        A comparison; the rows scored the correct way.
    alt : DataFrame
        ``artifact, row, column, reproduced``: the same cells (same keys as in ``comp``)
        scored as the authors' released code scores them. :func:`paired_alternative` builds
        it from a comparison that holds both scorings under two artifact names (USMO:
        ``"Table III (correct scoring)"`` and ``"Table III (demo2 scoring)"``).
    decimals : int, default 1
        The printed precision used by :func:`weaklabel.compare.verdict` (a match when the
        rounded numbers agree).

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds`` and ``evidence``: holds when the
    alternative's verdict against the published value and the cell's tolerance is
    ``match`` or ``within_tolerance`` while the cell's own verdict is ``differs``.
    """
    _check_comparison(comp)
    _check_frame(alt, "alt", _KEY + ["reproduced"])
    a = _lookup(comp, alt, "alt", ["reproduced"])["reproduced"]
    holds, ev = [], []
    for pub, ours, tol, v, other in zip(comp["published"], comp["reproduced"],
                                        comp["tolerance"], comp["verdict"], a):
        if pd.isna(other):
            holds.append(False)
            ev.append("no alternative-scoring number")
            continue
        va = _verdict(pub, float(other), tol, decimals)
        h = bool(v == "differs" and va in ("match", "within_tolerance"))
        holds.append(h)
        ev.append(f"authors' scoring {_fmt(other)} (|delta| {_fmt(abs(other - pub))}) vs ours "
                  f"{_fmt(ours)} (|delta| {_fmt(abs(ours - pub))}), tolerance {_fmt(tol)}")
    return _result(comp, holds, ev)


def protocol_choice(comp: pd.DataFrame, sens: pd.DataFrame) -> pd.DataFrame:
    """Rule ``protocol_choice``: the cell moves by more than its tolerance across the
    declared choices of a sensitivity run.

    Parameters
    ----------
    comp : DataFrame
        A comparison.
    sens : DataFrame
        Long form, one row per (cell, choice): ``artifact, row, column, choice,
        reproduced``, and optionally ``parameter`` (what is varied, e.g. ``"sigma"``).
        The choices are those declared in ``params.yaml`` before the run, the declared
        protocol's own choice among them.

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds`` and ``evidence``. Each ``parameter`` is
    taken on its own (the other parameters at the declared protocol's choice), and the one
    that moves the cell most is reported. Holds when that parameter has at least two
    choices and ``max - min`` of their numbers exceeds the cell's tolerance;
    the evidence is the range and where the published value falls. The rule only explains:
    the comparison's ``reproduced`` (the declared protocol's number) is never replaced, and
    no choice is preferred for being nearer the paper.
    """
    _check_comparison(comp)
    _check_frame(sens, "sens", _KEY + ["choice", "reproduced"])
    key = _key_cols(comp, sens)
    sens = sens if "parameter" in sens.columns else sens.assign(parameter="")
    rows = []
    for cell, g in sens.groupby(key + ["parameter"], sort=False):
        g = g.assign(reproduced=g["reproduced"].astype(float))
        g = g[np.isfinite(g["reproduced"])]
        if g.empty:
            continue
        i_lo, i_hi = g["reproduced"].idxmin(), g["reproduced"].idxmax()
        rows.append(dict(zip(key, cell[:-1]), _n=g["choice"].nunique(),
                         _lo=float(g.at[i_lo, "reproduced"]), _hi=float(g.at[i_hi, "reproduced"]),
                         _clo=str(g.at[i_lo, "choice"]), _chi=str(g.at[i_hi, "choice"]),
                         _what=(str(cell[-1]) + " " if cell[-1] else "")))
    agg = pd.DataFrame(rows, columns=key + ["_n", "_lo", "_hi", "_clo", "_chi", "_what"])
    # one parameter per cell: the one whose choices move the cell most (ties: first declared)
    if not agg.empty:
        agg = (agg.assign(_two=agg["_n"] >= 2, _rng=agg["_hi"] - agg["_lo"])
               .sort_values(["_two", "_rng"], ascending=False, kind="stable")
               .drop_duplicates(key).drop(columns=["_two", "_rng"]))
    r = _lookup(comp, agg, "sens", ["_n", "_lo", "_hi", "_clo", "_chi", "_what"])
    holds, ev = [], []
    for pub, tol, n, lo, hi, clo, chi, what in zip(comp["published"], comp["tolerance"], r["_n"],
                                                   r["_lo"], r["_hi"], r["_clo"], r["_chi"],
                                                   r["_what"]):
        if pd.isna(n) or n < 2:
            holds.append(False)
            ev.append("no sensitivity run" if pd.isna(n) else "one choice only")
            continue
        rng = hi - lo
        h = bool(np.isfinite(tol) and rng > tol)
        where = ("inside" if np.isfinite(pub) and lo <= pub <= hi else "outside")
        holds.append(h)
        ev.append(f"range {_fmt(rng)} over {int(n)} {what}choices [{_fmt(lo)} ({clo}), "
                  f"{_fmt(hi)} ({chi})] vs tolerance {_fmt(tol)}; published {_fmt(pub)} "
                  f"{where} the range")
    return _result(comp, holds, ev)


def _declared(comp: pd.DataFrame, table: Mapping, name: str, label) -> tuple[list, list]:
    """Match ``table`` keys against every row; ``label(row)`` gives the candidate keys."""
    _check_mapping(table, name)
    holds, ev = [], []
    for _, r in comp.iterrows():
        reasons = [str(table[k]) for k in label(r) if k in table]
        holds.append(bool(reasons))
        ev.append(reasons[0] if reasons else "")
    return holds, ev


def substitute_data(comp: pd.DataFrame, substitutes: Mapping) -> pd.DataFrame:
    """Rule ``substitute_data``: the cell's data set is a declared substitute.

    Parameters
    ----------
    comp : DataFrame
        A comparison.
    substitutes : mapping
        ``row -> reason`` (the row label is the data set; matched without regard to case, so
        ``"Heart"`` also covers Table 4's ``"heart"``), or ``(artifact, row) -> reason`` for
        one artifact only, or ``(artifact, "*") -> reason`` for every row of an artifact (a
        claim evaluated on substitutes). The reasons come from the data layer (registry
        notes, :data:`weaklabel.data.SU_BENCHMARKS`, a module's declared missing data); see
        :func:`registry_substitutes`.

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds`` and ``evidence`` (the declared reason;
    the most specific key wins: ``(artifact, row)``, then ``(artifact, "*")``, then row).
    """
    _check_comparison(comp)
    _check_mapping(substitutes, "substitutes")
    table = {((k[0], str(k[1]).casefold()) if isinstance(k, tuple) else str(k).casefold()): v
             for k, v in dict(substitutes).items()}
    holds, ev = _declared(comp, table, "substitutes",
                          lambda r: [(r["artifact"], str(r["row"]).casefold()),
                                     (r["artifact"], "*"), str(r["row"]).casefold()])
    return _result(comp, holds, ev)


def baseline_implementation(comp: pd.DataFrame, documented: Mapping) -> pd.DataFrame:
    """Rule ``baseline_implementation``: a documented difference in a baseline's
    implementation.

    Parameters
    ----------
    comp : DataFrame
        A comparison.
    documented : mapping
        ``(artifact, column) -> reason`` or ``column -> reason``, where ``column`` is either
        the full column label or its method part before the first ``", "`` (``"[6]"``
        covers ``"[6], λ=0.0001"``; ``"LapSVM"`` covers ``"LapSVM, rank"``). The reasons
        are written where the baseline is implemented (its module or the experiments
        module), once per method, never per cell.

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds`` and ``evidence`` (the documented reason;
    the most specific key wins).
    """
    _check_comparison(comp)
    _check_mapping(documented, "documented")
    holds, ev = _declared(comp, dict(documented), "documented",
                          lambda r: [(r["artifact"], r["column"]),
                                     (r["artifact"], _method(r["column"])),
                                     r["column"], _method(r["column"])])
    return _result(comp, holds, ev)


# --------------------------------------------------------------------------- assignment
def assign_causes(comp: pd.DataFrame, *, spread: pd.DataFrame | None = None,
                  alt: pd.DataFrame | None = None, sens: pd.DataFrame | None = None,
                  substitutes: Mapping | None = None, documented: Mapping | None = None,
                  decimals: int = 1) -> pd.DataFrame:
    """A copy of ``comp`` with the columns :data:`CAUSE_COLUMNS` added.

    Parameters
    ----------
    comp : DataFrame
        A comparison (:func:`weaklabel.compare.build_comparison`).
    spread : DataFrame, optional
        For :func:`within_spread`; also fills ``reproduced_std``, ``n_runs`` and
        ``published_std`` (when it has that column) for every row it covers.
    alt : DataFrame, optional
        For :func:`scoring`.
    sens : DataFrame, optional
        For :func:`protocol_choice`.
    substitutes : mapping, optional
        For :func:`substitute_data`.
    documented : mapping, optional
        For :func:`baseline_implementation`.
    decimals : int, default 1
        Printed precision, for :func:`scoring`.

    Returns
    -------
    DataFrame: the comparison's columns, unchanged, then ``reproduced_std``, ``n_runs``,
    ``published_std`` (NaN where unknown), ``cause`` and ``evidence``. On a ``differs`` row,
    ``cause`` lists every rule that holds, in :data:`CAUSES` order, joined by ``";"``,
    or ``unexplained`` when none does; ``evidence`` lists their evidence in the same order
    (for ``unexplained``: ``|delta|`` against the tolerance and the rules that had evidence
    for the cell). Other rows have an empty ``cause`` and ``evidence``. A rule whose
    evidence is not given is not run.
    """
    _check_comparison(comp)
    bad = set(comp["verdict"]) - {"match", "within_tolerance", "differs", "not_published"}
    if bad:
        raise ValueError(f"comp has unknown verdicts {sorted(bad)}.")
    before = comp[UNTOUCHED_COLUMNS].copy()
    out = comp.copy()
    for c in CAUSE_COLUMNS:
        if c in out.columns:
            raise ValueError(f"comp already has a column {c!r}; pass the comparison as "
                             "build_comparison returns it.")

    if spread is not None:
        extra = ["published_std"] if "published_std" in spread.columns else []
        _check_frame(spread, "spread", _KEY + ["reproduced_mean", "reproduced_std", "n_runs"])
        s = _lookup(comp, spread, "spread", ["reproduced_std", "n_runs"] + extra)
        out["reproduced_std"] = s["reproduced_std"].astype(float)
        out["n_runs"] = s["n_runs"].astype("Int64")
        out["published_std"] = s["published_std"].astype(float) if extra else np.nan
    else:
        out["reproduced_std"] = np.nan
        out["n_runs"] = pd.array([pd.NA] * len(out), dtype="Int64")
        out["published_std"] = np.nan

    results: dict[str, pd.DataFrame] = {}
    if spread is not None:
        results["within_spread"] = within_spread(comp, spread)
    if alt is not None:
        results["scoring"] = scoring(comp, alt, decimals=decimals)
    if sens is not None:
        results["protocol_choice"] = protocol_choice(comp, sens)
    if substitutes is not None:
        results["substitute_data"] = substitute_data(comp, substitutes)
    if documented is not None:
        results["baseline_implementation"] = baseline_implementation(comp, documented)

    causes, evidence = [], []
    for i, r in comp.iterrows():
        if r["verdict"] != "differs":
            causes.append("")
            evidence.append("")
            continue
        held = [c for c in CAUSES if c in results and results[c].at[i, "holds"]]
        if held:
            causes.append(_SEP.join(held))
            evidence.append(_SEP.join(results[c].at[i, "evidence"].replace(_SEP, ",")
                                      for c in held))
        else:
            causes.append("unexplained")
            gap = ("no reproduced number" if pd.isna(r["reproduced"])
                   else f"|delta| {_fmt(abs(r['delta']))} > tolerance {_fmt(r['tolerance'])}")
            checked = [c for c in CAUSES if c in results]
            evidence.append(gap + (f" (checked: {', '.join(checked)})" if checked
                                   else " (no evidence given)"))
    out["cause"] = causes
    out["evidence"] = evidence
    out = out[list(comp.columns) + CAUSE_COLUMNS]

    # the rules explain; they never change a number, a tolerance or a verdict
    try:
        pd.testing.assert_frame_equal(out[UNTOUCHED_COLUMNS], before)
    except AssertionError as exc:  # pragma: no cover - a bug in this module
        raise AssertionError(f"assign_causes changed the comparison's columns: {exc}") from None
    if ((out["verdict"] == "differs") & (out["cause"] == "")).any():  # pragma: no cover
        raise AssertionError("a differs row was left without a cause.")
    return out


def cause_summary(comp: pd.DataFrame) -> pd.DataFrame:
    """Verdict x cause counts of a comparison with causes (:func:`assign_causes`).

    Rows: the verdicts present; columns: ``cells`` (rows with that verdict), then one
    column per cause in :data:`CAUSES` order counting the rows that carry it (a row with
    two causes counts in both, so the cause columns can add up to more than ``cells``).
    """
    _check_frame(comp, "comp", ["verdict", "cause"])
    verdicts = [v for v in ("match", "within_tolerance", "differs", "not_published")
                if v in set(comp["verdict"])]
    t = pd.DataFrame(0, index=pd.Index(verdicts, name="verdict"),
                     columns=["cells", *CAUSES])
    for v, g in comp.groupby("verdict"):
        t.at[v, "cells"] = len(g)
        for c in g["cause"].fillna(""):
            for name in filter(None, str(c).split(_SEP)):
                if name not in CAUSES:
                    raise ValueError(f"comp has an unknown cause {name!r}; known: "
                                     f"{list(CAUSES)}.")
                t.at[v, name] += 1
    return t


def unexplained_cells(comp: pd.DataFrame) -> pd.DataFrame:
    """The rows of a comparison with causes whose cause is ``unexplained``, with the
    cell's numbers and the evidence."""
    _check_frame(comp, "comp", ["cause", "evidence"] + _KEY)
    cols = [c for c in ["paper", *_KEY, "published", "reproduced", "delta", "tolerance",
                        "reproduced_std", "n_runs", "evidence"] if c in comp.columns]
    return comp.loc[comp["cause"] == "unexplained", cols]


# --------------------------------------------------------------------------- evidence builders
def paired_alternative(comp: pd.DataFrame, pairs: Mapping[str, str]) -> pd.DataFrame:
    """The ``alt`` frame of :func:`scoring` from a comparison holding both scorings.

    ``pairs`` maps the artifact scored correctly to the artifact holding the same cells under
    the authors' scoring, e.g. ``{"Table III (correct scoring)": "Table III (demo2
    scoring)"}``. Returns ``artifact, row, column, reproduced`` (+ ``paper``) with the
    alternative's numbers under the correct artifact's name.
    """
    _check_comparison(comp)
    parts = []
    for ours, theirs in dict(pairs).items():
        for a in (ours, theirs):
            if a not in set(comp["artifact"]):
                raise ValueError(f"pairs names artifact {a!r}, which comp lacks; it has "
                                 f"{sorted(set(comp['artifact']))}.")
        g = comp.loc[comp["artifact"] == theirs, ["paper", *_KEY, "reproduced"]].copy()
        g["artifact"] = ours
        parts.append(g)
    return (pd.concat(parts, ignore_index=True) if parts
            else pd.DataFrame(columns=["paper", *_KEY, "reproduced"]))


def spread_from_runs(runs: pd.DataFrame, value: str, *, run: str) -> pd.DataFrame:
    """The ``spread`` frame of :func:`within_spread` from long-form per-run numbers.

    ``runs`` has ``artifact, row, column``, the column ``value`` and a run identifier
    ``run`` (repetition or seed); returns per cell ``reproduced_mean``, ``reproduced_std``
    (ddof = 1; NaN for a single run) and ``n_runs`` (distinct runs).
    """
    _check_frame(runs, "runs", _KEY + [value, run])
    key = (["paper"] if "paper" in runs.columns else []) + _KEY
    g = runs.groupby(key, sort=False)
    return pd.DataFrame({"reproduced_mean": g[value].mean(),
                         "reproduced_std": g[value].std(ddof=1),
                         "n_runs": g[run].nunique()}).reset_index()


def repetition_sensitivity(runs: pd.DataFrame, value: str, *, run: str,
                           counts) -> pd.DataFrame:
    """The ``sens`` frame of :func:`protocol_choice` for the repetition count.

    For each declared count ``n`` in ``counts``, the cell's mean over its first ``n`` runs
    (in the order of ``run``); a count larger than a cell's number of runs is skipped for
    that cell. The declared protocol's own count (all runs) should be among ``counts``.
    No new run is made: this asks how far the mean moves had the protocol stopped earlier.

    Returns long form ``artifact, row, column`` (+ ``paper``), ``parameter``
    (``"repetitions"``), ``choice`` (``"n=<n>"``), ``reproduced``.
    """
    _check_frame(runs, "runs", _KEY + [value, run])
    counts = sorted({int(c) for c in counts})
    if not counts or counts[0] < 1:
        raise ValueError(f"counts must be positive integers, got {counts}.")
    key = (["paper"] if "paper" in runs.columns else []) + _KEY
    rows = []
    for cell, g in runs.sort_values(run, kind="stable").groupby(key, sort=False):
        ids = list(dict.fromkeys(g[run]))
        for n in counts:
            if n > len(ids):
                continue
            v = g.loc[g[run].isin(ids[:n]), value].astype(float).mean()
            rows.append(dict(zip(key, cell), parameter="repetitions", choice=f"n={n}",
                             reproduced=v))
    return pd.DataFrame(rows, columns=key + ["parameter", "choice", "reproduced"])


def choice_sensitivity(runs: pd.DataFrame, value: str, *, choice: str,
                       parameter: str) -> pd.DataFrame:
    """The ``sens`` frame of :func:`protocol_choice` from per-choice numbers in long form.

    ``runs`` has ``artifact, row, column``, the number ``value`` and the declared choice in
    the column ``choice`` (a split seed, a kernel-width multiple, ...); several rows of one
    cell and choice are averaged. Returns ``artifact, row, column`` (+ ``paper``),
    ``parameter``, ``choice`` (as text), ``reproduced``.
    """
    _check_frame(runs, "runs", _KEY + [value, choice])
    if not isinstance(parameter, str) or not parameter:
        raise ValueError(f"parameter must be a non-empty string, got {parameter!r}.")
    key = (["paper"] if "paper" in runs.columns else []) + _KEY
    g = runs.assign(_c=runs[choice].astype(str)).groupby(key + ["_c"], sort=False)[value]
    out = g.mean().reset_index().rename(columns={"_c": "choice", value: "reproduced"})
    out.insert(len(key), "parameter", parameter)
    return out[key + ["parameter", "choice", "reproduced"]]


def registry_substitutes(datasets: Mapping[str, str | None], *, paper: str,
                         marker: str = "MISMATCH") -> dict[str, str]:
    """``row -> reason`` for :func:`substitute_data` from the data registry.

    Parameters
    ----------
    datasets : mapping
        A data set's name in the paper's tables -> its registry name (the ``DATASETS``
        lists of the experiments modules); None (a generated set) is skipped.
    paper : str
        The paper's name as the registry notes spell it (``"WellSVM"``, ``"MCLS"``,
        ``"USMO"``): a note counts for this paper only when it names it (the same file can
        match one paper's description and not another's).
    marker : str, default ``"MISMATCH"``
        The registry's word, at the start of a note, for a size or encoding that differs
        from what a paper states.

    Returns
    -------
    dict: ``row -> "<registry name>: <note>"`` for every data set with such a note.
    """
    from .data import dataset_info  # the data layer is imported only when asked

    if not isinstance(paper, str) or not paper:
        raise ValueError(f"paper must be a non-empty string such as 'WellSVM', got {paper!r}.")
    out = {}
    for row, name in dict(datasets).items():
        if name is None:
            continue
        notes = [str(n) for n in dataset_info(name).get("notes", [])
                 if str(n).startswith(marker) and paper.casefold() in str(n).casefold()]
        if notes:
            out[row] = f"{name}: {notes[0]}"
    return out
