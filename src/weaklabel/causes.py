"""Why a cell differs: a closed vocabulary of causes and the rules that assign them.

A row of ``comparison.csv`` (:mod:`weaklabel.compare`) with the verdict ``differs`` says
that our number and the paper's disagree by more than the declared tolerance, on the
paper's data, for a learned model (other data is ``not_comparable``, a missing number
``not_run``: neither is a ``differs``). This module says why, from numbers the code
computes, never from text typed per cell:

- :data:`CAUSES`: the vocabulary, an ordered mapping ``name -> one-line definition``;
- one rule per cause (:func:`within_spread`, :func:`scoring`, :func:`protocol_choice`,
  :func:`baseline_implementation`): a pure function of the comparison frame and the
  measurement it needs, returning per row ``holds`` (bool), ``value`` (the number that
  explains the cell, NaN for a band) and ``evidence`` (a short text with the numbers);
- :func:`assign_causes`: runs every rule whose measurement is given and adds the columns
  :data:`CAUSE_COLUMNS`; every ``differs`` row gets at least one cause (``unexplained``
  when no rule holds), the other rows keep an empty cause, and the comparison's own columns
  are left exactly as they were (checked);
- :func:`cause_summary` (verdict x cause counts) and :func:`unexplained_cells`.

Every cause can fail
--------------------
A *measured* cause (:data:`MEASURED`: ``scoring``, ``protocol_choice``,
``baseline_implementation``) names the value that explains the cell (``explained_value``:
the cell under the authors' scoring, under an open choice of the paper, under a second
implementation of the baseline) and holds only when that value is within the cell's
tolerance of the published number. ``within_spread`` holds only when the published value
lies in the band of the right statistic (:mod:`weaklabel.cellstats`: a mean against our
mean's standard error, a single split against single runs, a rank against the bootstrap
rank of means), estimated from at least :data:`MIN_RUNS` runs. A seed or a repetition count
is spread, never a ``protocol_choice`` (:data:`NOT_A_CHOICE`). A documented difference of
a baseline without a second implementation measured on the same splits, or a data set that
differs immaterially, is no cause: such cells are ``unexplained``, and counted.

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

from .cellstats import MIN_RUNS
from .compare import COLUMNS as _COMPARISON_COLUMNS

__all__ = ["CAUSES", "CAUSE_COLUMNS", "MEASURED", "MIN_RUNS", "NOT_A_CHOICE",
           "UNTOUCHED_COLUMNS", "within_spread", "scoring", "protocol_choice",
           "baseline_implementation", "assign_causes", "cause_summary", "unexplained_cells",
           "paired_alternative", "spread_from_runs", "choice_sensitivity",
           "registry_substitutes"]

#: the closed vocabulary, most specific first (see the module docstring)
CAUSES: Mapping[str, str] = MappingProxyType({
    "within_spread": "the published value lies in the band of our runs for the statistic the "
                     "paper reports (a mean: our mean +- 2 standard errors of the difference "
                     "of means; a single split: +- 2 std of single runs; a rank: the "
                     "bootstrap interval of the rank of means), from at least 5 runs",
    "scoring": "under the scoring the authors' released code uses, the cell is within "
               "tolerance of the published number (explained_value)",
    "protocol_choice": "the paper leaves a choice open, and one declared choice puts the cell "
                       "within tolerance of the published number (explained_value); a seed "
                       "or a repetition count is spread, not a choice",
    "baseline_implementation": "a second implementation of the baseline (a library's, the "
                               "authors', or a more literal one), run on the same splits, is "
                               "within tolerance of the published number (explained_value)",
    "unexplained": "none of the other causes holds (an honest answer, not a failure)",
})
#: the causes that name the value explaining the cell
MEASURED = ("scoring", "protocol_choice", "baseline_implementation")
#: parameter names (case-insensitive, any word) that are spread, never an open choice
NOT_A_CHOICE = ("seed", "seeds", "split", "splits", "repetition", "repetitions", "rep",
                "reps", "run", "runs", "trial", "trials")
#: the columns :func:`assign_causes` adds, in this order, after the comparison's own
CAUSE_COLUMNS = ["reproduced_std", "n_runs", "published_std", "cause", "explained_value",
                 "evidence"]
#: the comparison's columns that no rule may change
UNTOUCHED_COLUMNS = list(_COMPARISON_COLUMNS)
_STATISTICS = ("mean", "single", "rank")
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


def _result(comp: pd.DataFrame, holds, values, evidence) -> pd.DataFrame:
    return pd.DataFrame({"holds": np.asarray(holds, dtype=bool),
                         "value": np.asarray(values, dtype=float),
                         "evidence": pd.Series(list(evidence), dtype=object).to_numpy()},
                        index=comp.index)


# --------------------------------------------------------------------------- rules
def _within(value, pub, tol) -> bool:
    return bool(np.isfinite(value) and np.isfinite(pub) and np.isfinite(tol)
                and abs(value - pub) <= tol)


def within_spread(comp: pd.DataFrame, spread: pd.DataFrame, *, k: float = 2.0
                  ) -> pd.DataFrame:
    """Rule ``within_spread``: the published value lies in the band of the statistic the
    paper reports.

    Parameters
    ----------
    comp : DataFrame
        A comparison (:data:`weaklabel.compare.COLUMNS`).
    spread : DataFrame
        One row per cell: ``artifact, row, column, statistic, reproduced_mean,
        reproduced_std, n_runs``, optionally ``published_std`` and ``published_reps``
        (the paper's printed ``±`` and its number of repetitions), and for ranks
        ``band_low, band_high``. ``statistic`` says what the paper printed:

        ``mean``
            a mean over repetitions: band ``mean +- k * sqrt(s^2/n + pm^2/R)`` (our standard
            error, and the paper's where it prints ``±`` over ``R`` repetitions);
        ``single``
            one split: band ``mean +- k * s`` (single runs);
        ``rank``
            a rank of means: the band is given (``band_low, band_high``, e.g.
            :func:`weaklabel.cellstats.rank_of_means_band`).

        ``reproduced_std`` is the sample standard deviation (ddof = 1).
    k : float, default 2

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds``, ``value`` (NaN: a band explains, not a
    value) and ``evidence``. A cell with fewer than :data:`MIN_RUNS` runs has no band.
    """
    _check_comparison(comp)
    _check_frame(spread, "spread", _KEY + ["statistic", "reproduced_mean", "reproduced_std",
                                           "n_runs"])
    if not np.isfinite(k) or k <= 0:
        raise ValueError(f"k must be a positive number of standard deviations, got {k!r}.")
    bad = sorted(set(spread["statistic"].astype(str)) - set(_STATISTICS))
    if bad:
        raise ValueError(f"spread has statistics {bad}; each cell's statistic is one of "
                         f"{_STATISTICS}.")
    opt = [c for c in ("published_std", "published_reps", "band_low", "band_high")
           if c in spread.columns]
    s = _lookup(comp, spread, "spread", ["statistic", "reproduced_mean", "reproduced_std",
                                         "n_runs"] + opt)
    for c in ("published_std", "published_reps", "band_low", "band_high"):
        if c not in s.columns:
            s[c] = np.nan
    holds, ev = [], []
    for pub, (_, r) in zip(comp["published"], s.iterrows()):
        n, stat, m, sd = r["n_runs"], r["statistic"], r["reproduced_mean"], r["reproduced_std"]
        if pd.isna(n) or n < MIN_RUNS or pd.isna(stat):
            holds.append(False)
            ev.append(f"n_runs={int(n) if pd.notna(n) else 0}: no spread from fewer than "
                      f"{MIN_RUNS} runs")
            continue
        if stat == "rank":
            lo, hi = float(r["band_low"]), float(r["band_high"])
            what = "bootstrap rank of means"
        elif not np.isfinite(sd):
            holds.append(False)
            ev.append(f"n_runs={int(n)}: no standard deviation")
            continue
        elif stat == "mean":
            var = sd ** 2 / n
            pm, reps = r["published_std"], r["published_reps"]
            if np.isfinite(pm) and np.isfinite(reps) and reps > 0:
                var += pm ** 2 / reps
            half = k * float(np.sqrt(var))
            lo, hi, what = m - half, m + half, f"mean +- {k:g} s.e. of a difference of means"
        else:
            lo, hi, what = m - k * sd, m + k * sd, f"single runs, mean +- {k:g} std"
        h = bool(np.isfinite(pub) and np.isfinite(lo) and lo <= pub <= hi)
        holds.append(h)
        ev.append(f"published {_fmt(pub)} {'in' if h else 'outside'} [{_fmt(lo)}, {_fmt(hi)}] "
                  f"({what}; n_runs={int(n)})")
    return _result(comp, holds, [np.nan] * len(holds), ev)


def scoring(comp: pd.DataFrame, alt: pd.DataFrame) -> pd.DataFrame:
    """Rule ``scoring``: under the authors' scoring the cell is within its tolerance of the
    published number.

    Parameters
    ----------
    comp : DataFrame
        A comparison; the rows scored the correct way.
    alt : DataFrame
        ``artifact, row, column, reproduced``: the same cells scored as the authors'
        released code scores them (:func:`paired_alternative` builds it from a comparison
        that holds both scorings under two artifact names).

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds``, ``value`` (the authors'-scoring number)
    and ``evidence``.
    """
    _check_comparison(comp)
    _check_frame(alt, "alt", _KEY + ["reproduced"])
    a = _lookup(comp, alt, "alt", ["reproduced"])["reproduced"].astype(float)
    holds, vals, ev = [], [], []
    for pub, ours, tol, other in zip(comp["published"], comp["reproduced"], comp["tolerance"],
                                     a):
        vals.append(other)
        if not np.isfinite(other):
            holds.append(False)
            ev.append("no alternative-scoring number")
            continue
        holds.append(_within(other, pub, tol))
        ev.append(f"authors' scoring {_fmt(other)} (|delta| {_fmt(abs(other - pub))}) vs ours "
                  f"{_fmt(ours)} (|delta| {_fmt(abs(ours - pub))}), tolerance {_fmt(tol)}")
    return _result(comp, holds, vals, ev)


def _check_parameters(sens: pd.DataFrame) -> None:
    import re

    for p in sorted(set(sens["parameter"].astype(str))):
        words = set(re.findall(r"[a-z]+", p.casefold()))
        if not p.strip():
            raise ValueError("sens has a row without a parameter: name the open choice of "
                             "the paper each row varies.")
        if words & set(NOT_A_CHOICE):
            raise ValueError(f"sens varies {p!r}: a seed, split or repetition count is spread "
                             "(within_spread), never a protocol_choice.")


def protocol_choice(comp: pd.DataFrame, sens: pd.DataFrame) -> pd.DataFrame:
    """Rule ``protocol_choice``: one declared choice of an open point of the paper puts the
    cell within its tolerance of the published number.

    Parameters
    ----------
    comp : DataFrame
        A comparison.
    sens : DataFrame
        Long form, one row per (cell, choice): ``artifact, row, column, parameter, choice,
        reproduced``. ``parameter`` names the open point (e.g. ``"sigma"``, ``"prior"``);
        seeds, splits and repetition counts are refused (:data:`NOT_A_CHOICE`). The
        choices are those declared in ``params.yaml`` before the run.

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds``, ``value`` (the choice's number nearest
    the published one, over all parameters, each varied on its own; a choice that gives the
    cell's own number is the protocol's and explains nothing) and ``evidence``. The
    rule only explains: the comparison's ``reproduced`` (the declared protocol's number) is
    never replaced.
    """
    _check_comparison(comp)
    _check_frame(sens, "sens", _KEY + ["parameter", "choice", "reproduced"])
    _check_parameters(sens)
    key = _key_cols(comp, sens)
    sens = sens.assign(reproduced=sens["reproduced"].astype(float))
    sens = sens[np.isfinite(sens["reproduced"])]
    ref = (_lookup(sens, comp.assign(_pub=comp["published"], _ours=comp["reproduced"]),
                   "comp", ["_pub", "_ours"]) if len(sens)
           else pd.DataFrame({"_pub": [], "_ours": []}, dtype=float))
    sens = sens.assign(_dist=(sens["reproduced"] - ref["_pub"]).abs())
    n_choices = sens.groupby(key + ["parameter"])["choice"].transform("nunique")
    # the protocol's own choice gives the cell's own number: it explains nothing
    own = np.isclose(sens["reproduced"].to_numpy(float), ref["_ours"].to_numpy(float),
                     rtol=1e-9, atol=1e-9)
    sens = sens[(n_choices >= 2).to_numpy() & ~own]
    best = (sens.sort_values("_dist", kind="stable").drop_duplicates(key)
            if len(sens) else sens.assign())
    r = _lookup(comp, best, "sens", ["parameter", "choice", "reproduced"])
    holds, vals, ev = [], [], []
    for pub_v, tol, p, c, v in zip(comp["published"], comp["tolerance"], r["parameter"],
                                   r["choice"], r["reproduced"]):
        if pd.isna(p):
            holds.append(False)
            vals.append(np.nan)
            ev.append("no open choice with two or more declared values")
            continue
        h = _within(v, pub_v, tol)
        holds.append(h)
        vals.append(float(v))
        label = str(c) if str(c).startswith(str(p)) else f"{p}={c}"
        ev.append(f"nearest choice {label} gives {_fmt(v)} (|delta| {_fmt(abs(v - pub_v))}) "
                  f"vs tolerance {_fmt(tol)}")
    return _result(comp, holds, vals, ev)


def baseline_implementation(comp: pd.DataFrame, second: pd.DataFrame) -> pd.DataFrame:
    """Rule ``baseline_implementation``: a second implementation of the baseline, run on the
    same splits, is within the cell's tolerance of the published number.

    Parameters
    ----------
    comp : DataFrame
        A comparison.
    second : DataFrame
        ``artifact, row, column, reproduced, implementation``: the baseline's cells as the
        second implementation (a library's, the authors' code, a more literal variant)
        computes them on the same splits. A written note about the implementation is not a
        measurement and is no cause.

    Returns
    -------
    DataFrame indexed like ``comp`` with ``holds``, ``value`` (the second implementation's
    number) and ``evidence``.
    """
    _check_comparison(comp)
    _check_frame(second, "second", _KEY + ["reproduced", "implementation"])
    r = _lookup(comp, second, "second", ["reproduced", "implementation"])
    holds, vals, ev = [], [], []
    for pub, tol, v, impl in zip(comp["published"], comp["tolerance"],
                                 r["reproduced"].astype(float), r["implementation"]):
        vals.append(v)
        if not np.isfinite(v):
            holds.append(False)
            ev.append("no second implementation")
            continue
        holds.append(_within(v, pub, tol))
        ev.append(f"{impl} gives {_fmt(v)} (|delta| {_fmt(abs(v - pub))}) vs tolerance "
                  f"{_fmt(tol)}")
    return _result(comp, holds, vals, ev)


# --------------------------------------------------------------------------- assignment
def assign_causes(comp: pd.DataFrame, *, spread: pd.DataFrame | None = None,
                  alt: pd.DataFrame | None = None, sens: pd.DataFrame | None = None,
                  second: pd.DataFrame | None = None) -> pd.DataFrame:
    """A copy of ``comp`` with the columns :data:`CAUSE_COLUMNS` added.

    Parameters
    ----------
    comp : DataFrame
        A comparison (:func:`weaklabel.compare.build_comparison`, then
        :func:`weaklabel.compare.classify`).
    spread : DataFrame, optional
        For :func:`within_spread`; also fills ``reproduced_std``, ``n_runs`` and
        ``published_std`` (when it has that column) for every row it covers.
    alt : DataFrame, optional
        For :func:`scoring`.
    sens : DataFrame, optional
        For :func:`protocol_choice`.
    second : DataFrame, optional
        For :func:`baseline_implementation`.

    Returns
    -------
    DataFrame: the comparison's columns, unchanged, then ``reproduced_std``, ``n_runs``,
    ``published_std`` (NaN where unknown), ``cause``, ``explained_value`` and ``evidence``.
    On a ``differs`` row, ``cause`` lists every rule that holds, in :data:`CAUSES` order,
    joined by ``";"``, or ``unexplained`` when none does; ``explained_value`` is the value of
    the first measured cause that holds (NaN otherwise); ``evidence`` lists the evidence of
    every rule that was run, held or not. Other rows have an empty ``cause`` and
    ``evidence``. A rule whose measurement is not given is not run.
    """
    from .compare import VERDICTS

    _check_comparison(comp)
    bad = set(comp["verdict"]) - set(VERDICTS)
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
        results["scoring"] = scoring(comp, alt)
    if sens is not None:
        results["protocol_choice"] = protocol_choice(comp, sens)
    if second is not None:
        results["baseline_implementation"] = baseline_implementation(comp, second)

    causes, values, evidence = [], [], []
    for i, r in comp.iterrows():
        if r["verdict"] != "differs":
            causes.append("")
            values.append(np.nan)
            evidence.append("")
            continue
        held = [c for c in CAUSES if c in results and results[c].at[i, "holds"]]
        ran = [c for c in CAUSES if c in results]
        texts = [f"{c}: " + str(results[c].at[i, "evidence"]).replace(_SEP, ",") for c in ran]
        gap = f"|delta| {_fmt(abs(r['delta']))} > tolerance {_fmt(r['tolerance'])}"
        if held:
            causes.append(_SEP.join(held))
            v = [results[c].at[i, "value"] for c in held if c in MEASURED]
            values.append(float(v[0]) if v else np.nan)
            # the evidence of the causes that hold first, in the vocabulary's order
            texts = ([t for c, t in zip(ran, texts) if c in held]
                     + [t for c, t in zip(ran, texts) if c not in held])
            evidence.append(_SEP.join(texts))
        else:
            causes.append("unexplained")
            values.append(np.nan)
            evidence.append(_SEP.join([gap] + texts) if texts
                            else gap + " (no measurement given)")
    out["cause"] = causes
    out["explained_value"] = np.asarray(values, dtype=float)
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
    from .compare import VERDICTS

    _check_frame(comp, "comp", ["verdict", "cause"])
    verdicts = [v for v in VERDICTS if v in set(comp["verdict"])]
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


def spread_from_runs(runs: pd.DataFrame, value: str, *, run: str, statistic: str
                     ) -> pd.DataFrame:
    """The ``spread`` frame of :func:`within_spread` from long-form per-run numbers.

    ``runs`` has ``artifact, row, column``, the column ``value`` and a run identifier
    ``run`` (repetition or seed); ``statistic`` is what the paper printed for these cells
    (``"mean"`` over repetitions or one ``"single"`` split; a column of that name in
    ``runs`` overrides it per cell). Returns per cell ``statistic``, ``reproduced_mean``,
    ``reproduced_std`` (ddof = 1; NaN for a single run) and ``n_runs`` (distinct runs).
    """
    _check_frame(runs, "runs", _KEY + [value, run])
    if statistic not in ("mean", "single"):
        raise ValueError(f"statistic must be 'mean' or 'single' (a rank band comes from "
                         f"weaklabel.cellstats.rank_of_means_band), got {statistic!r}.")
    key = (["paper"] if "paper" in runs.columns else []) + _KEY
    g = runs.groupby(key, sort=False)
    out = pd.DataFrame({"reproduced_mean": g[value].mean(),
                        "reproduced_std": g[value].std(ddof=1),
                        "n_runs": g[run].nunique()}).reset_index()
    out.insert(len(key), "statistic", g["statistic"].first().to_numpy()
               if "statistic" in runs.columns else statistic)
    return out


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
                         marker: str = "MISMATCH (material)") -> dict[str, str]:
    """``row -> reason`` for :func:`weaklabel.compare.classify` (``substitutes``) from the
    data registry: the sets whose registry file differs *materially* from the paper's.

    Parameters
    ----------
    datasets : mapping
        A data set's name in the paper's tables -> its registry name (the ``DATASETS``
        lists of the experiments modules); None (a generated set) is skipped.
    paper : str
        The paper's name as the registry notes spell it (``"WellSVM"``, ``"MCLS"``,
        ``"USMO"``): a note counts for this paper only when it names it (the same file can
        match one paper's description and not another's).
    marker : str, default ``"MISMATCH (material)"``
        The registry's words, at the start of a note, for a file that differs from the
        paper's in a way that changes the numbers (other rows, other features). A note
        that starts with ``"MISMATCH"`` alone records an immaterial difference (a constant
        attribute dropped, one row fewer): no substitute.

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
