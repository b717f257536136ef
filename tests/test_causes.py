"""The cause vocabulary and its rules (weaklabel.causes) on small hand-made comparisons."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel.causes import (
    CAUSE_COLUMNS,
    CAUSES,
    UNTOUCHED_COLUMNS,
    assign_causes,
    baseline_implementation,
    cause_summary,
    paired_alternative,
    protocol_choice,
    scoring,
    spread_from_runs,
    substitute_data,
    unexplained_cells,
    within_spread,
)
from weaklabel.compare import COLUMNS, verdict


def _comp(cells, artifact="Table 2", paper="p"):
    """A comparison from (row, column, published, reproduced, tolerance) tuples."""
    rows = []
    for row, col, pub, rep, tol in cells:
        rows.append({"paper": paper, "artifact": artifact, "row": row, "column": col,
                     "published": pub, "reproduced": rep, "delta": rep - pub,
                     "tolerance": tol, "verdict": verdict(pub, rep, tol), "note": ""})
    return pd.DataFrame(rows, columns=COLUMNS)


def _spread(comp, means, stds, ns):
    s = comp[["artifact", "row", "column"]].copy()
    s["reproduced_mean"], s["reproduced_std"], s["n_runs"] = means, stds, ns
    return s


def test_vocabulary_is_ordered_and_ends_with_unexplained():
    assert list(CAUSES)[:5] == ["within_spread", "scoring", "protocol_choice",
                                "substitute_data", "baseline_implementation"]
    assert list(CAUSES)[-1] == "unexplained"
    assert all(isinstance(v, str) and v and "\n" not in v for v in CAUSES.values())
    with pytest.raises(TypeError):
        CAUSES["new"] = "x"  # closed


def test_within_spread_inside_outside_and_too_few_runs():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0), ("b", "M", 70.0, 80.0, 5.0),
                  ("c", "M", 70.0, 80.0, 5.0), ("d", "M", 70.0, 80.0, 5.0)])
    spread = _spread(comp, [76.0, 76.0, 70.0, 70.0], [3.0, 2.0, np.nan, 0.0], [10, 10, 1, 3])
    r = within_spread(comp, spread)
    # 70 in 76 +- 6; 70 outside 76 +- 4; one run: no spread; zero std, equal mean: holds
    assert r["holds"].tolist() == [True, False, False, True]
    assert "[70, 82]" in r.at[0, "evidence"] and "n_runs=10" in r.at[0, "evidence"]
    assert "outside" in r.at[1, "evidence"]
    assert r.at[2, "evidence"] == "n_runs=1: no spread"
    # a cell absent from spread has no spread either
    r2 = within_spread(comp, spread.iloc[:1])
    assert r2["holds"].tolist() == [True, False, False, False]
    assert r2.at[3, "evidence"] == "n_runs=0: no spread"


def test_scoring_holds_only_when_the_authors_scoring_alone_is_within_tolerance():
    comp = _comp([("a", "M", 60.0, 70.0, 5.0), ("b", "M", 60.0, 70.0, 5.0),
                  ("c", "M", 60.0, 62.0, 5.0)])
    alt = comp[["artifact", "row", "column"]].assign(reproduced=[61.0, 50.0, 60.0])
    r = scoring(comp, alt)
    # a: alt within, ours not -> holds; b: alt also off; c: ours already within tolerance
    assert r["holds"].tolist() == [True, False, False]
    assert "authors' scoring 61" in r.at[0, "evidence"]


def test_paired_alternative_renames_the_authors_artifact():
    ours = _comp([("a", "M", 60.0, 70.0, 5.0)], artifact="Table III (correct scoring)")
    theirs = _comp([("a", "M", 60.0, 61.0, 5.0)], artifact="Table III (demo2 scoring)")
    comp = pd.concat([ours, theirs], ignore_index=True)
    alt = paired_alternative(comp, {"Table III (correct scoring)": "Table III (demo2 scoring)"})
    assert alt[["artifact", "reproduced"]].values.tolist() == [
        ["Table III (correct scoring)", 61.0]]
    r = scoring(comp, alt)
    assert r["holds"].tolist() == [True, False]
    with pytest.raises(ValueError, match="pairs names artifact"):
        paired_alternative(comp, {"Table III (correct scoring)": "Table IV"})


def test_protocol_choice_range_against_tolerance():
    comp = _comp([("a", "M", 60.0, 70.0, 5.0), ("b", "M", 60.0, 70.0, 5.0),
                  ("c", "M", 60.0, 70.0, 5.0)])
    sens = pd.DataFrame({
        "artifact": "Table 2", "row": ["a"] * 3 + ["b"] * 3 + ["c"],
        "column": "M", "parameter": "sigma",
        "choice": ["0.5", "1", "2", "0.5", "1", "2", "1"],
        "reproduced": [70.0, 64.0, 58.0, 70.0, 68.0, 71.0, 70.0]})
    r = protocol_choice(comp, sens)
    assert r["holds"].tolist() == [True, False, False]
    assert r.at[0, "evidence"].startswith("range 12 over 3 sigma choices [58 (2), 70 (0.5)]")
    assert "published 60 inside" in r.at[0, "evidence"]
    assert r.at[2, "evidence"] == "one choice only"
    out = assign_causes(comp, sens=sens)
    assert out["reproduced"].tolist() == comp["reproduced"].tolist()  # never replaced


def test_substitute_data_keys_and_case():
    comp = pd.concat([_comp([("Heart", "M", 60.0, 70.0, 5.0), ("Sick", "M", 60.0, 70.0, 5.0)]),
                      _comp([("heart", "M", 60.0, 70.0, 5.0)], artifact="Table 4"),
                      _comp([("claim text", "holds", 1.0, 0.0, 0.0)], artifact="Claim 2")],
                     ignore_index=True)
    r = substitute_data(comp, {"Heart": "131 of 132 rows", ("Claim 2", "*"): "on substitutes",
                               ("Table 2", "Sick"): "other encoding"})
    assert r["holds"].tolist() == [True, True, True, True]
    assert r["evidence"].tolist() == ["131 of 132 rows", "other encoding", "131 of 132 rows",
                                      "on substitutes"]
    assert not substitute_data(comp, {})["holds"].any()


def test_baseline_implementation_matches_method_or_artifact_column():
    comp = _comp([("a", "[6], λ=0.0001", 60.0, 70.0, 5.0), ("a", "LapSVM, rank", 1.0, 3.0, 1.0),
                  ("a", "USMO, λ=0.0001", 60.0, 70.0, 5.0)])
    r = baseline_implementation(comp, {"[6]": "ramp loss by CCCP",
                                       ("Table 2", "LapSVM, rank"): "graph built differently"})
    assert r["holds"].tolist() == [True, True, False]
    assert r.at[0, "evidence"] == "ramp loss by CCCP"


def test_assign_causes_orders_and_joins_several_causes():
    comp = _comp([("a", "[6]", 70.0, 80.0, 5.0)])
    spread = _spread(comp, [76.0], [3.0], [10])
    alt = comp[["artifact", "row", "column"]].assign(reproduced=[72.0])
    out = assign_causes(comp, documented={"[6]": "doc"}, substitutes={"a": "sub"},
                        alt=alt, spread=spread)
    assert out.at[0, "cause"] == "within_spread;scoring;substitute_data;baseline_implementation"
    ev = out.at[0, "evidence"].split(";")
    assert len(ev) == 4 and ev[0].startswith("published 70 in") and ev[2:] == ["sub", "doc"]
    assert out.at[0, "reproduced_std"] == 3.0 and out.at[0, "n_runs"] == 10


def test_every_differs_row_gets_a_cause_and_nothing_else_changes():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0), ("b", "M", 70.0, 72.0, 5.0),
                  ("c", "M", 70.0, 70.04, 5.0), ("d", "M", 70.0, 50.0, 5.0)])
    comp.loc[4] = ["p", "Table 2", "e", "M", np.nan, 3.0, np.nan, 5.0, "not_published", ""]
    spread = _spread(comp, [78.0] * 5, [1.0] * 5, [5] * 5).assign(published_std=0.5)
    out = assign_causes(comp, spread=spread, substitutes={"zzz": "unused"})
    assert list(out.columns) == COLUMNS + CAUSE_COLUMNS
    pd.testing.assert_frame_equal(out[UNTOUCHED_COLUMNS], comp[UNTOUCHED_COLUMNS])
    differs = out["verdict"] == "differs"
    assert differs.sum() == 2 and (out.loc[differs, "cause"] != "").all()
    assert (out.loc[~differs, "cause"] == "").all() and (out.loc[~differs, "evidence"] == "").all()
    assert out.loc[differs, "cause"].tolist() == ["unexplained", "unexplained"]
    assert out.at[0, "evidence"] == ("|delta| 10 > tolerance 5 "
                                     "(checked: within_spread, substitute_data)")
    assert out["published_std"].tolist() == [0.5] * 5
    # no evidence at all: still a cause
    bare = assign_causes(comp)
    assert (bare.loc[differs, "cause"] == "unexplained").all()
    assert bare["n_runs"].isna().all() and bare.at[0, "evidence"].endswith("(no evidence given)")


def test_summary_and_unexplained_cells():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0), ("b", "M", 70.0, 80.0, 5.0),
                  ("c", "M", 70.0, 72.0, 5.0)])
    out = assign_causes(comp, substitutes={"a": "sub"},
                        spread=_spread(comp, [76.0] * 3, [3.0] * 3, [10] * 3))
    t = cause_summary(out)
    assert t.loc["differs", "cells"] == 2 and t.loc["within_tolerance", "cells"] == 1
    assert t.loc["differs", "within_spread"] == 2 and t.loc["differs", "substitute_data"] == 1
    assert t.loc["differs", "unexplained"] == 0 and list(t.columns) == ["cells", *CAUSES]
    out2 = assign_causes(comp)
    u = unexplained_cells(out2)
    assert u["row"].tolist() == ["a", "b"] and "evidence" in u.columns


def test_spread_from_runs():
    runs = pd.DataFrame({"artifact": "T", "row": ["a", "a", "a", "b"], "column": "M",
                         "acc": [1.0, 2.0, 3.0, 5.0], "rep": [0, 1, 2, 0]})
    s = spread_from_runs(runs, "acc", run="rep").set_index("row")
    assert s.at["a", "reproduced_mean"] == 2.0 and s.at["a", "reproduced_std"] == 1.0
    assert s.at["a", "n_runs"] == 3 and s.at["b", "n_runs"] == 1
    assert np.isnan(s.at["b", "reproduced_std"])


def test_bad_input_names_the_argument():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0)])
    with pytest.raises(ValueError, match="spread lacks columns"):
        within_spread(comp, comp)
    with pytest.raises(ValueError, match="comp lacks columns"):
        assign_causes(comp.drop(columns="note"))
    dup = _spread(pd.concat([comp, comp]), [1.0, 1.0], [1.0, 1.0], [2, 2])
    with pytest.raises(ValueError, match="spread has duplicated cells"):
        within_spread(comp, dup)
    with pytest.raises(TypeError, match="substitutes must be a mapping"):
        substitute_data(comp, ["a"])
    with pytest.raises(ValueError, match="already has a column 'reproduced_std'"):
        assign_causes(assign_causes(comp))


def test_registry_substitutes_reads_the_papers_mismatch_notes():
    from weaklabel.causes import registry_substitutes

    names = {"Echocardiogram": "uci-echocardiogram", "Ionosphere": "usmo-ionosphere",
             "Heart": "usmo-heart", "2moons": None}
    subs = registry_substitutes(names, paper="WellSVM")
    assert sorted(subs) == ["Echocardiogram", "Ionosphere"]
    assert subs["Ionosphere"].startswith("usmo-ionosphere: MISMATCH")
    assert registry_substitutes(names, paper="USMO") == {}  # the notes are about WellSVM
    with pytest.raises(ValueError, match="paper must be"):
        registry_substitutes(names, paper="")
