"""Dry run of weaklabel.causes on the committed results (issue #16): no new runs.

Reads every ``results/<paper>/comparison.csv`` and the committed result frames that give a
spread over runs, builds the evidence each rule needs where the mapping to the published
cells is clear, applies :func:`weaklabel.causes.assign_causes` and prints, per paper, the
verdict x cause counts, how many ``differs`` rows stay ``unexplained`` and how many of them
had a spread estimate. Nothing is written.

Usage (from the repository root)::

    PYTHONPATH=src python tools/causes_dryrun.py [--unexplained N]

Evidence derived here (what exists today):

- usmo: spread of ``f1_majority`` over the split seeds of ``scores_seeds.csv`` (both
  scorings; ``Avg.`` from seeds that cover all 12 sets); the authors' scoring from the
  ``(demo2 scoring)`` artifacts of the comparison itself; no substitute data (the authors'
  own files);
- mcls: mean / std / n of ``table1.csv`` (ATS) and ``table2-4.csv``; no declared substitute;
- wellsvm: the per-repetition accuracies of ``raw.csv`` (Tables 2-4, data set cells) and
  the per-split errors of ``tables67_raw.csv`` (Tables 6-7); the paper's ``±`` as
  ``published_std``; substitutes from the registry's MISMATCH notes and the declared
  missing data of Tables 6-7;
- tsgsu: claims only (no published numbers in Tables 4-5); substitutes of the data sets
  each claim is evaluated on (``SU_BENCHMARKS``);
- no paper has a sensitivity run yet (``protocol_choice``) or a machine-readable list of
  documented baseline differences (``baseline_implementation``).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pandas as pd

from weaklabel import published
from weaklabel.causes import (
    assign_causes,
    cause_summary,
    paired_alternative,
    registry_substitutes,
    spread_from_runs,
    unexplained_cells,
)

REPO = Path(__file__).resolve().parents[1]
RES = REPO / "results"


def _read(paper: str, name: str) -> pd.DataFrame:
    return pd.read_csv(RES / paper / name, keep_default_na=True)


def _comparison(paper: str) -> pd.DataFrame:
    c = pd.read_csv(RES / paper / "comparison.csv",
                    dtype={k: str for k in ("paper", "artifact", "row", "column", "verdict",
                                            "note")})
    c["note"] = c["note"].fillna("")
    return c


# --------------------------------------------------------------------------- usmo
def usmo() -> tuple[pd.DataFrame, dict]:
    from weaklabel.experiments.usmo import SMALL_SETS

    comp = _comparison("usmo")
    seeds = _read("usmo", "scores_seeds.csv")
    seeds["artifact"] = seeds["table"] + " (" + seeds["scoring"] + " scoring)"
    seeds["row"] = seeds["dataset"]
    seeds["column"] = seeds["method"] + ", λ=" + seeds["lam"].map(lambda v: f"{v:g}")
    runs = seeds[["artifact", "row", "column", "seed", "f1_majority"]]
    # Avg.: the mean over the 12 sets of one seed, for the seeds that cover all 12
    g = seeds.groupby(["artifact", "column", "seed"])
    avg = g["f1_majority"].mean()[g["dataset"].nunique() == len(SMALL_SETS)].reset_index()
    runs = pd.concat([runs, avg.assign(row="Avg.")], ignore_index=True)
    spread = spread_from_runs(runs, "f1_majority", run="seed")
    pairs = {f"{t} (correct scoring)": f"{t} (demo2 scoring)" for t in ("Table III", "Table IV")}
    alt = paired_alternative(comp, pairs)
    subs = registry_substitutes({n: r for n, r, _ in SMALL_SETS}, paper="USMO")
    # the paper's "Avg. ±" is the spread across the 12 data sets, not over runs: not used
    return comp, {"spread": spread, "alt": alt, "substitutes": subs}


# --------------------------------------------------------------------------- mcls
def mcls() -> tuple[pd.DataFrame, dict]:
    comp = _comparison("mcls")
    parts = []
    t1 = _read("mcls", "table1.csv")
    parts.append(pd.DataFrame({"artifact": "Table 1", "row": t1.dataset, "column": "ATS(%)",
                               "reproduced_mean": t1.ATS, "reproduced_std": t1.ATS_std,
                               "n_runs": t1.reps}))
    for art, f in (("Table 2", "table2.csv"), ("Table 3", "table3.csv")):
        t = _read("mcls", f)
        parts.append(pd.DataFrame({
            "artifact": art, "row": t.dataset,
            "column": t.method + ", L=" + t.L_pct.astype(int).astype(str) + "%",
            "reproduced_mean": t["mean"], "reproduced_std": t["std"], "n_runs": t["n"]}))
    t4 = _read("mcls", "table4.csv")
    lab = t4.r_offset.map(lambda o: "r" if o == 0 else f"r{o:+g}")
    parts.append(pd.DataFrame({"artifact": "Table 4", "row": t4.dataset, "column": lab,
                               "reproduced_mean": t4["mean"], "reproduced_std": t4["std"],
                               "n_runs": t4["n"]}))
    spread = pd.concat(parts, ignore_index=True)
    spread = spread.drop_duplicates(["artifact", "row", "column"])  # Table 2 repeats NB per L
    from weaklabel.experiments.mcls import DATASETS

    subs = registry_substitutes({d[0]: d[1] for d in DATASETS}, paper="MCLS")
    return comp, {"spread": spread, "substitutes": subs}


# --------------------------------------------------------------------------- wellsvm
def wellsvm() -> tuple[pd.DataFrame, dict]:
    from weaklabel.experiments._wellsvm_tables67 import MISSING_DATA
    from weaklabel.experiments.wellsvm import DATASETS, TABLES

    comp = _comparison("wellsvm")
    raw = _read("wellsvm", "raw.csv")
    raw = raw[raw.label_pct.isin(TABLES)]
    rows = {(a, r.casefold()): r for a, r in zip(comp.artifact, comp.row)}
    art = raw.label_pct.map(TABLES)
    runs = pd.DataFrame({"artifact": art,
                         "row": [rows.get((a, d.casefold()), d) for a, d in zip(art, raw.dataset)],
                         "column": raw.method, "rep": raw.rep, "accuracy": raw.accuracy})
    r67 = _read("wellsvm", "tables67_raw.csv")
    t6 = r67[r67.table == "table6"]
    t7 = r67[r67.table == "table7"]
    runs = pd.concat([runs,
                      pd.DataFrame({"artifact": "Table 6", "row": t6.method, "column": t6.dataset,
                                    "rep": t6.split, "accuracy": t6.error_pct}),
                      pd.DataFrame({"artifact": "Table 7", "row": t7.dataset, "column": t7.method,
                                    "rep": t7.split, "accuracy": t7.error_pct})],
                     ignore_index=True)
    spread = spread_from_runs(runs, "accuracy", run="rep")
    pub = published.load("wellsvm")[["artifact", "row", "column", "spread"]]
    spread = spread.merge(pub.rename(columns={"spread": "published_std"}),
                          on=["artifact", "row", "column"], how="left")
    subs = registry_substitutes(dict(DATASETS), paper="WellSVM")
    subs.update({("Table 7", k): v for k, v in MISSING_DATA.items()
                 if v.startswith("substitute")})
    return comp, {"spread": spread, "substitutes": subs}


# --------------------------------------------------------------------------- tsgsu
def tsgsu() -> tuple[pd.DataFrame, dict]:
    from weaklabel.data.su import SU_BENCHMARKS
    from weaklabel.experiments.tsgsu import DEFAULTS

    comp = _comparison("tsgsu")
    by_name = {b.paper_name: b for b in SU_BENCHMARKS.values()}

    def reason(names):
        bs = [by_name[n] for n in names if n in by_name and by_name[n].substitute]
        return "; ".join(f"{b.paper_name} -> {b.substitute}" for b in bs)

    sets = {"Table 4": DEFAULTS["table4_sets"], "Table 5": DEFAULTS["table5_sets"],
            "Fig. 1": DEFAULTS["timing_sets"], "Fig. 2": DEFAULTS["large_sets"],
            "Fig. 3": DEFAULTS["ablation_sets"]}
    subs = {}
    for a in comp.artifact.unique():
        names = [n for src, ns in sets.items() if re.search(re.escape(src) + r"\b", a)
                 for n in ns]
        if "Tables 4-5" in a:
            names = sets["Table 4"] + sets["Table 5"]
        if names and reason(names):
            subs[(a, "*")] = "evaluated on substitutes: " + reason(names)
    return comp, {"substitutes": subs}


PAPERS = {"usmo": usmo, "mcls": mcls, "wellsvm": wellsvm, "tsgsu": tsgsu}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--unexplained", type=int, default=0,
                    help="print this many unexplained cells per paper")
    args = ap.parse_args(argv)
    pd.set_option("display.width", 200)
    pd.set_option("display.max_colwidth", 90)
    totals = []
    for paper, build in PAPERS.items():
        comp, ev = build()
        out = assign_causes(comp, **ev)
        differs = out.verdict == "differs"
        spread_ok = differs & out.n_runs.fillna(0).ge(2).to_numpy()
        unexp = out.cause == "unexplained"
        if "spread" in ev:  # does the mapping find our own numbers? (mean over the same runs)
            sp = ev["spread"].merge(comp, on=["artifact", "row", "column"])
            same = np.isclose(sp.reproduced_mean, sp.reproduced, rtol=0, atol=1e-3)
            print(f"-- {paper}: spread rows matched to cells: {len(sp)} of {len(ev['spread'])};"
                  f" mean over runs equal to the cell's reproduced (to 1e-3): {int(same.sum())};"
                  f" published_std given: {int(out.published_std.notna().sum())}")
        print(f"== {paper}: {len(out)} cells, {int(differs.sum())} differs, "
              f"{int(unexp.sum())} unexplained; differs with a spread (n_runs >= 2): "
              f"{int(spread_ok.sum())}; evidence given: {', '.join(sorted(ev))}")
        t = cause_summary(out)
        print(t.loc[:, (t != 0).any(axis=0)].to_string())
        per_art = out[differs].assign(unexplained=unexp[differs]).groupby("artifact").agg(
            differs=("verdict", "size"), unexplained=("unexplained", "sum"),
            with_spread=("n_runs", lambda s: int(s.fillna(0).ge(2).sum())))
        print(per_art.to_string())
        print("cause combinations of the differs rows: "
              + ", ".join(f"{k} {v}" for k, v in out[differs].cause.value_counts().items()))
        if args.unexplained:
            print(unexplained_cells(out).head(args.unexplained).to_string(index=False))
        print()
        totals.append({"paper": paper, "cells": len(out), "differs": int(differs.sum()),
                       "unexplained": int(unexp.sum()),
                       "explained": int(differs.sum() - unexp.sum())})
    print(pd.DataFrame(totals).to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
