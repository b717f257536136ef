"""The cause vocabulary and its rules (weaklabel.causes) on small hand-made comparisons.

Every rule has a case where it must fire and cases where it must not: a cause that cannot
fail explains nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel.causes import (
    CAUSE_COLUMNS,
    CAUSES,
    MEASURED,
    UNTOUCHED_COLUMNS,
    assign_causes,
    baseline_implementation,
    cause_summary,
    paired_alternative,
    protocol_choice,
    scoring,
    spread_from_runs,
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
                     "tolerance": tol, "verdict": verdict(pub, rep, tol), "note": "",
                     "trivial": np.nan, "uninformative": False})
    return pd.DataFrame(rows, columns=COLUMNS)


def _spread(comp, means, stds, ns, statistic="single"):
    s = comp[["artifact", "row", "column"]].copy()
    s["statistic"] = statistic
    s["reproduced_mean"], s["reproduced_std"], s["n_runs"] = means, stds, ns
    return s


def test_vocabulary_is_ordered_and_ends_with_unexplained():
    assert list(CAUSES) == ["within_spread", "scoring", "protocol_choice",
                            "baseline_implementation", "unexplained"]
    assert set(MEASURED) == {"scoring", "protocol_choice", "baseline_implementation"}
    assert all(isinstance(v, str) and v and "\n" not in v for v in CAUSES.values())
    with pytest.raises(TypeError):
        CAUSES["new"] = "x"  # closed


# --------------------------------------------------------------------------- within_spread
def test_within_spread_single_runs_fires_inside_and_not_outside():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0), ("b", "M", 70.0, 80.0, 5.0)])
    r = within_spread(comp, _spread(comp, [76.0, 76.0], [3.0, 2.0], [10, 10]))
    # 70 in 76 +- 6; 70 outside 76 +- 4
    assert r["holds"].tolist() == [True, False]
    assert "[70, 82]" in r.at[0, "evidence"] and "n_runs=10" in r.at[0, "evidence"]
    assert r["value"].isna().all()  # a band explains, not a value


def test_within_spread_of_a_mean_uses_the_standard_error_not_single_runs():
    # 30 runs, std 3: single runs give 76 +- 6, the mean 76 +- 1.1; 70 is outside the latter
    comp = _comp([("a", "M", 70.0, 80.0, 5.0)])
    assert within_spread(comp, _spread(comp, [76.0], [3.0], [30]))["holds"].item()
    mean = within_spread(comp, _spread(comp, [76.0], [3.0], [30], statistic="mean"))
    assert not mean["holds"].item() and "s.e." in mean.at[0, "evidence"]
    # the paper's own ± over its repetitions widens the band: sqrt(9/30 + 100/4) = 5.03
    s = _spread(comp, [76.0], [3.0], [30], statistic="mean").assign(
        published_std=10.0, published_reps=4)
    assert within_spread(comp, s)["holds"].item()


def test_within_spread_never_from_fewer_than_five_runs():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0), ("b", "M", 70.0, 80.0, 5.0)])
    r = within_spread(comp, _spread(comp, [70.0, 70.0], [10.0, np.nan], [4, 1]))
    assert not r["holds"].any()
    assert r.at[0, "evidence"].startswith("n_runs=4: no spread from fewer than 5 runs")
    # a cell absent from spread has no spread either
    r2 = within_spread(comp, _spread(comp, [70.0, 70.0], [10.0, 10.0], [5, 5]).iloc[:1])
    assert r2["holds"].tolist() == [True, False]


def test_within_spread_of_a_rank_reads_the_given_band():
    comp = _comp([("a", "M, rank", 2.0, 4.0, 0.5), ("b", "M, rank", 1.0, 4.0, 0.5)])
    s = _spread(comp, [4.0, 4.0], [np.nan, np.nan], [30, 30], statistic="rank").assign(
        band_low=[1.5, 3.0], band_high=[4.5, 5.0])
    assert within_spread(comp, s)["holds"].tolist() == [True, False]
    with pytest.raises(ValueError, match="statistics"):
        within_spread(comp, s.assign(statistic="median"))


# --------------------------------------------------------------------------- scoring
def test_scoring_holds_only_when_the_authors_scoring_is_within_tolerance():
    comp = _comp([("a", "M", 60.0, 70.0, 5.0), ("b", "M", 60.0, 70.0, 5.0),
                  ("c", "M", 60.0, 70.0, 5.0)])
    alt = comp[["artifact", "row", "column"]].assign(reproduced=[61.0, 50.0, np.nan])
    r = scoring(comp, alt)
    # a: the authors' scoring lands within 5; b: also off (nearer or not, no cause); c: none
    assert r["holds"].tolist() == [True, False, False]
    assert r["value"].tolist()[:2] == [61.0, 50.0]
    assert "authors' scoring 61" in r.at[0, "evidence"]


def test_paired_alternative_renames_the_authors_artifact():
    ours = _comp([("a", "M", 60.0, 70.0, 5.0)], artifact="Table III (correct scoring)")
    theirs = _comp([("a", "M", 60.0, 61.0, 5.0)], artifact="Table III (demo2 scoring)")
    comp = pd.concat([ours, theirs], ignore_index=True)
    alt = paired_alternative(comp, {"Table III (correct scoring)": "Table III (demo2 scoring)"})
    assert alt[["artifact", "reproduced"]].values.tolist() == [
        ["Table III (correct scoring)", 61.0]]
    assert scoring(comp, alt)["holds"].tolist() == [True, False]
    with pytest.raises(ValueError, match="pairs names artifact"):
        paired_alternative(comp, {"Table III (correct scoring)": "Table IV"})


# --------------------------------------------------------------------------- protocol_choice
def _sens(rows, choices, values, parameter="sigma"):
    return pd.DataFrame({"artifact": "Table 2", "row": rows, "column": "M",
                         "parameter": parameter, "choice": choices, "reproduced": values})


def test_protocol_choice_needs_a_choice_within_tolerance_of_the_paper():
    comp = _comp([("a", "M", 60.0, 70.0, 5.0), ("b", "M", 60.0, 70.0, 5.0),
                  ("c", "M", 60.0, 70.0, 5.0)])
    sens = _sens(["a"] * 3 + ["b"] * 3 + ["c"], ["0.5", "1", "2", "0.5", "1", "2", "1"],
                 [70.0, 64.0, 58.0, 70.0, 80.0, 90.0, 60.0])
    r = protocol_choice(comp, sens)
    # a: sigma=2 gives 58, within 5 of 60; b: the cell moves by 20 across the choices but
    # never towards the paper (the old range rule fired here; sigma=0.5 is the protocol's own
    # number and explains nothing); c: one choice only
    assert r["holds"].tolist() == [True, False, False]
    assert r.at[0, "value"] == 58.0 and "sigma=2 gives 58" in r.at[0, "evidence"]
    assert r.at[1, "value"] == 80.0 and not r.at[1, "holds"]
    assert r.at[2, "evidence"] == "no open choice with two or more declared values"
    out = assign_causes(comp, sens=sens)
    assert out["reproduced"].tolist() == comp["reproduced"].tolist()  # never replaced
    assert out.at[0, "explained_value"] == 58.0 and out.at[1, "cause"] == "unexplained"


def test_protocol_choice_the_protocols_own_choice_explains_nothing():
    # the cell differs by a hair more than the tolerance; the protocol's own choice, computed
    # a second way, lands a hair inside: no cause
    comp = _comp([("a", "M", 60.0, 63.00000001, 3.0)])
    assert comp.at[0, "verdict"] == "differs"
    r = protocol_choice(comp, _sens(["a", "a"], ["own", "other"], [63.0, 70.0]))
    assert not r.at[0, "holds"] and r.at[0, "value"] == 70.0


@pytest.mark.parametrize("parameter", ["split seed", "repetitions", "seed", "first n trials",
                                       "Splits"])
def test_a_seed_or_a_repetition_count_is_never_a_choice(parameter):
    comp = _comp([("a", "M", 60.0, 70.0, 5.0)])
    with pytest.raises(ValueError, match="spread"):
        protocol_choice(comp, _sens(["a", "a"], ["0", "1"], [60.0, 70.0], parameter))


# --------------------------------------------------------------------------- baseline
def test_baseline_implementation_needs_a_second_implementation_that_lands_near():
    comp = _comp([("a", "[6]", 60.0, 70.0, 5.0), ("b", "[6]", 60.0, 70.0, 5.0),
                  ("c", "[6]", 60.0, 70.0, 5.0)])
    second = comp[["artifact", "row", "column"]].assign(
        reproduced=[62.0, 71.0, np.nan], implementation="library X")
    r = baseline_implementation(comp, second)
    assert r["holds"].tolist() == [True, False, False]
    assert r.at[0, "evidence"].startswith("library X gives 62")
    assert r.at[2, "evidence"] == "no second implementation"
    with pytest.raises(ValueError, match="implementation"):
        baseline_implementation(comp, second.drop(columns="implementation"))
    with pytest.raises(TypeError):  # a written note is not a measurement
        assign_causes(comp, documented={"[6]": "ramp loss by CCCP"})


# --------------------------------------------------------------------------- assignment
def test_assign_causes_orders_joins_and_names_the_explained_value():
    comp = _comp([("a", "[6]", 70.0, 80.0, 5.0)])
    spread = _spread(comp, [76.0], [3.0], [10])
    alt = comp[["artifact", "row", "column"]].assign(reproduced=[72.0])
    second = alt.assign(reproduced=[69.0], implementation="lib")
    out = assign_causes(comp, second=second, alt=alt, spread=spread)
    assert out.at[0, "cause"] == "within_spread;scoring;baseline_implementation"
    assert out.at[0, "explained_value"] == 72.0  # the first measured cause that holds
    ev = out.at[0, "evidence"].split(";")
    assert len(ev) == 3 and ev[0].startswith("within_spread: published 70 in")
    assert out.at[0, "reproduced_std"] == 3.0 and out.at[0, "n_runs"] == 10


def test_every_differs_row_gets_a_cause_and_nothing_else_changes():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0), ("b", "M", 70.0, 72.0, 5.0),
                  ("c", "M", 70.0, 70.04, 5.0), ("d", "M", 70.0, 50.0, 5.0)])
    comp.loc[4] = ["p", "Table 2", "e", "M", np.nan, 3.0, np.nan, 5.0, "not_published", "",
                   np.nan, False, np.nan]
    comp.loc[5] = ["p", "Table 2", "f", "M", 70.0, np.nan, np.nan, 5.0, "not_run", "", np.nan,
                   False, np.nan]
    spread = _spread(comp, [78.0] * 6, [1.0] * 6, [5] * 6).assign(published_std=0.5)
    out = assign_causes(comp, spread=spread)
    assert list(out.columns) == COLUMNS + CAUSE_COLUMNS
    pd.testing.assert_frame_equal(out[UNTOUCHED_COLUMNS], comp[UNTOUCHED_COLUMNS])
    differs = out["verdict"] == "differs"
    assert differs.sum() == 2 and (out.loc[differs, "cause"] == "unexplained").all()
    assert (out.loc[~differs, "cause"] == "").all() and (out.loc[~differs, "evidence"] == "").all()
    assert out.at[0, "evidence"].startswith("|delta| 10 > tolerance 5;within_spread: "
                                            "published 70 outside")
    assert out["published_std"].tolist() == [0.5] * 6
    bare = assign_causes(comp)  # no measurement at all: still a cause
    assert (bare.loc[differs, "cause"] == "unexplained").all()
    assert bare["n_runs"].isna().all() and bare.at[0, "evidence"].endswith(
        "(no measurement given)")


def test_summary_and_unexplained_cells():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0), ("b", "M", 70.0, 80.0, 5.0),
                  ("c", "M", 70.0, 72.0, 5.0)])
    out = assign_causes(comp, spread=_spread(comp, [76.0, 90.0, 76.0], [3.0] * 3, [10] * 3))
    t = cause_summary(out)
    assert t.loc["differs", "cells"] == 2 and t.loc["within_tolerance", "cells"] == 1
    assert t.loc["differs", "within_spread"] == 1 and t.loc["differs", "unexplained"] == 1
    assert list(t.columns) == ["cells", *CAUSES]
    u = unexplained_cells(out)
    assert u["row"].tolist() == ["b"] and "evidence" in u.columns


def test_spread_from_runs():
    runs = pd.DataFrame({"artifact": "T", "row": ["a", "a", "a", "b"], "column": "M",
                         "acc": [1.0, 2.0, 3.0, 5.0], "rep": [0, 1, 2, 0]})
    s = spread_from_runs(runs, "acc", run="rep", statistic="mean").set_index("row")
    assert s.at["a", "reproduced_mean"] == 2.0 and s.at["a", "reproduced_std"] == 1.0
    assert s.at["a", "n_runs"] == 3 and s.at["b", "n_runs"] == 1
    assert np.isnan(s.at["b", "reproduced_std"]) and set(s["statistic"]) == {"mean"}
    with pytest.raises(ValueError, match="statistic must be"):
        spread_from_runs(runs, "acc", run="rep", statistic="rank")


def test_bad_input_names_the_argument():
    comp = _comp([("a", "M", 70.0, 80.0, 5.0)])
    with pytest.raises(ValueError, match="spread lacks columns"):
        within_spread(comp, comp)
    with pytest.raises(ValueError, match="comp lacks columns"):
        assign_causes(comp.drop(columns="note"))
    dup = _spread(pd.concat([comp, comp]), [1.0, 1.0], [1.0, 1.0], [5, 5])
    with pytest.raises(ValueError, match="spread has duplicated cells"):
        within_spread(comp, dup)
    with pytest.raises(ValueError, match="sens lacks columns"):
        protocol_choice(comp, _sens(["a"], ["1"], [1.0]).drop(columns="parameter"))
    with pytest.raises(ValueError, match="already has a column 'reproduced_std'"):
        assign_causes(assign_causes(comp))


def test_registry_substitutes_reads_only_material_mismatches():
    from weaklabel.causes import registry_substitutes

    names = {"Echocardiogram": "uci-echocardiogram", "Ionosphere": "usmo-ionosphere",
             "Heart": "usmo-heart", "2moons": None}
    # one row fewer and a dropped constant attribute change nothing material
    assert registry_substitutes(names, paper="WellSVM") == {}
    subs = registry_substitutes(names, paper="WellSVM", marker="MISMATCH")
    assert sorted(subs) == ["Echocardiogram", "Ionosphere"]
    assert registry_substitutes(names, paper="USMO", marker="MISMATCH") == {}
    with pytest.raises(ValueError, match="paper must be"):
        registry_substitutes(names, paper="")
