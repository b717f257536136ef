import numpy as np
import pandas as pd
import pytest

from weaklabel import compare
from weaklabel.compare import COLUMNS, build_comparison, verdict


@pytest.fixture
def pub():
    return pd.DataFrame({
        "paper": "usmo", "artifact": "Table X", "row": ["a", "a", "b", "b"],
        "column": ["m1", "m2", "m1", "m2"], "value": [50.0, 60.0, np.nan, 70.0],
        "spread": np.nan, "note": "",
    })


def test_verdict_rules():
    assert verdict(76.4, 76.43, 1.0) == "match"
    assert verdict(76.4, 76.46, 0.1) == "within_tolerance"
    assert verdict(76.4, 78.0, 1.0) == "differs"
    assert verdict(np.nan, 1.0, 1.0) == "not_published"
    assert verdict(10.0, np.nan, 1.0) == "not_run"


def test_build_comparison_columns_and_verdicts(pub, tmp_path):
    rep = pd.DataFrame({"artifact": "Table X", "row": ["a", "a", "b"],
                        "column": ["m1", "m2", "m1"], "reproduced": [50.04, 62.0, 3.0]})
    out = build_comparison(rep, "usmo", tolerance=1.0, published=pub)
    assert list(out.columns) == COLUMNS
    got = dict(zip(zip(out["row"], out["column"]), out["verdict"]))
    assert got == {("a", "m1"): "match", ("a", "m2"): "differs",
                   ("b", "m1"): "not_published", ("b", "m2"): "not_run"}
    assert out.loc[(out.row == "b") & (out.column == "m2"), "note"].item() == "not reproduced"
    assert out.loc[(out.row == "a") & (out.column == "m2"), "delta"].item() == pytest.approx(2.0)
    path = tmp_path / "results" / "comparison.csv"
    with pytest.raises(ValueError, match="exactly the columns"):
        compare.write_comparison(out, path)  # no causes: refused
    compare.write_comparison(compare.assign_causes(out), path)
    back = pd.read_csv(path)
    assert list(back.columns) == COLUMNS + compare.CAUSE_COLUMNS and len(back) == 4
    assert set(back.loc[back.verdict == "differs", "cause"]) == {"unexplained"}
    assert compare.summarize(out).loc["Table X", "differs"] == 1
    assert compare.summarize(out).loc["Table X", "not_run"] == 1


def test_two_scorings_of_one_table(pub):
    rep = pd.DataFrame({"artifact": ["T (a)", "T (b)"], "row": "a", "column": "m1",
                        "reproduced": [50.0, 10.0], "tolerance": [0.5, 0.5]})
    out = build_comparison(rep, "usmo", published=pub,
                           artifact_map={"T (a)": "Table X", "T (b)": "Table X"})
    assert len(out) == 8
    assert set(out["artifact"]) == {"T (a)", "T (b)"}


def test_errors(pub):
    with pytest.raises(ValueError, match="columns"):
        build_comparison(pd.DataFrame({"x": [1]}), "usmo", published=pub)
    rep = pd.DataFrame({"artifact": "Table X", "row": "a", "column": "m1", "reproduced": [1.0]})
    with pytest.raises(ValueError, match="tolerance"):
        build_comparison(rep, "usmo", published=pub)
    with pytest.raises(ValueError, match="paper must be one of"):
        from weaklabel.published import load

        load("nope")
    bad = pd.DataFrame({c: [] for c in COLUMNS[:-1]})
    with pytest.raises(ValueError, match="exactly the columns"):
        compare.write_comparison(bad, "x.csv")


def test_write_comparison_checks_the_causes(pub, tmp_path):
    rep = pd.DataFrame({"artifact": "Table X", "row": ["a", "a"], "column": ["m1", "m2"],
                        "reproduced": [50.0, 62.0]})
    out = compare.assign_causes(build_comparison(rep, "usmo", tolerance=1.0, published=pub))
    path = tmp_path / "c.csv"
    d = out.verdict == "differs"
    for bad, msg in ((out.assign(cause=out.cause.where(~d, "")), "without a cause"),
                     (out.assign(cause=out.cause.where(d, "scoring")), "only differs rows"),
                     (out.assign(cause=out.cause.where(~d, "luck")), "unknown causes")):
        with pytest.raises(ValueError, match=msg):
            compare.write_comparison(bad, path)
    assert not path.exists()
    assert list(compare.CAUSES)[-1] == "unexplained"  # the vocabulary, read through compare


def test_write_comparison_refuses_causes_that_do_not_reach_the_paper(pub, tmp_path):
    rep = pd.DataFrame({"artifact": "Table X", "row": ["a", "a"], "column": ["m1", "m2"],
                        "reproduced": [50.0, 70.0]})
    comp = build_comparison(rep, "usmo", tolerance=1.0, published=pub)
    alt = rep.assign(reproduced=[50.0, 60.5])
    out = compare.assign_causes(comp, alt=alt)
    i = out.index[(out.row == "a") & (out.column == "m2")][0]
    assert out.loc[i, "cause"] == "scoring" and out.loc[i, "explained_value"] == 60.5
    path = tmp_path / "c.csv"
    compare.write_comparison(out, path)
    # a measured cause whose value is not within tolerance of the paper: refused
    bad = out.copy()
    bad.loc[i, "explained_value"] = 65.0
    with pytest.raises(ValueError, match="explained_value"):
        compare.write_comparison(bad, path)
    bad = out.copy()
    bad.loc[i, ["cause", "n_runs"]] = ["within_spread", 3]
    with pytest.raises(ValueError, match="fewer than 5 runs"):
        compare.write_comparison(bad, path)
    bad = out.copy()
    bad.loc[i, "reproduced"] = np.nan
    with pytest.raises(ValueError, match="not_run"):
        compare.write_comparison(bad, path)


def _frame(cells):
    """A comparison from (artifact, row, column, published, reproduced, tolerance)."""
    rows = [{"paper": "p", "artifact": a, "row": r, "column": c, "published": p,
             "reproduced": x, "delta": x - p, "tolerance": t, "verdict": verdict(p, x, t),
             "note": "", "trivial": np.nan, "uninformative": False}
            for a, r, c, p, x, t in cells]
    return pd.DataFrame(rows, columns=COLUMNS)


def test_classify_substitutes_only_the_cells_it_names():
    comp = _frame([("T1", "Heart", "M", 70.0, 80.0, 5.0), ("T1", "Sick", "M", 70.0, 71.0, 5.0),
                   ("T2", "heart", "M", 70.0, 70.0, 5.0), ("T3", "x", "M", 70.0, np.nan, 5.0),
                   ("T4", "y", "M", 70.0, 90.0, 5.0)])
    out = compare.classify(comp, substitutes={"Heart": "other rows", ("T4", "*"): "synthetic"})
    assert out["verdict"].tolist() == ["not_comparable", "within_tolerance", "not_comparable",
                                       "not_run", "not_comparable"]
    assert out.at[0, "note"] == "other data: other rows"
    assert out["reproduced"].tolist()[:3] == [80.0, 71.0, 70.0]  # numbers stay
    same = compare.classify(comp, substitutes={})  # names nothing: changes nothing
    pd.testing.assert_frame_equal(same, comp)
    with pytest.raises(TypeError, match="substitutes must be"):
        compare.classify(comp, substitutes=["Heart"])


def test_classify_by_construction_never_counts_as_agreement_and_keeps_a_disagreement():
    comp = _frame([("T1", "N", "size", 100.0, 100.0, 0.0), ("T1", "r", "size", 100.0, 90.0, 0.0),
                   ("T1", "acc", "M", 70.0, 70.0, 1.0)])
    out = compare.classify(comp, by_construction=lambda r: "split rule"
                           if r["column"] == "size" else "")
    assert out["verdict"].tolist() == ["by_construction", "differs", "match"]
    assert out.at[1, "note"] == "set by the protocol: split rule"
    h = compare.headline(out)
    assert h["agree"] == 1 and h["compared"] == 2 and h["by_construction"] == 1


def test_classify_marks_a_cell_the_trivial_predictor_also_reaches():
    comp = _frame([("T", "a", "M", 67.0, 68.0, 5.0), ("T", "b", "M", 80.0, 81.0, 5.0),
                   ("T", "c", "M", 80.0, 60.0, 5.0), ("T", "d", "M", 80.0, 81.0, 5.0)])
    triv = pd.DataFrame({"artifact": "T", "row": ["a", "b", "c"], "column": "M",
                         "trivial": [69.0, 60.0, 78.0]})
    out = compare.classify(comp, trivial=triv)
    # a: majority rate 69 within 5 of 67: agreement says nothing; b: 60 is far; d: unknown
    assert out["uninformative"].tolist() == [True, False, True, False]
    assert np.isnan(out.at[3, "trivial"])
    h = compare.headline(out)
    assert (h["compared"], h["agree"], h["disagree"], h["uninformative"]) == (2, 2, 0, 2)
    assert h["agree_rate"] == 1.0
    with pytest.raises(ValueError, match="trivial must be"):
        compare.classify(comp, trivial=triv.drop(columns="trivial"))


def test_headline_counts_every_verdict_and_difference_size():
    comp = _frame([("T", "a", "M", 10.0, 10.0, 1.0), ("T", "b", "M", 10.0, 13.0, 1.0),
                   ("T", "c", "M", 10.0, np.nan, 1.0), ("U", "a", "M", 10.0, 11.0, 2.0)])
    h = compare.headline(comp)
    assert (h["cells"], h["match"], h["within_tolerance"], h["differs"], h["not_run"]) == (
        4, 1, 1, 1, 1)
    assert h["compared"] == 3 and h["agree"] == 2 and h["agree_rate"] == pytest.approx(2 / 3)
    size = compare.difference_size(comp).set_index("artifact")
    assert size.at["T", "cells"] == 2 and size.at["T", "mean_abs_delta"] == 1.5
    assert size.at["T", "median_delta_over_tolerance"] == 1.5
    assert size.at["U", "median_delta_over_tolerance"] == 0.5
    assert h["degenerate"] == 0
    shares = comp[["artifact", "row", "column"]].assign(one_class_share=[0.0, 0.4, 1.0, np.nan])
    out = compare.classify(comp, one_class=shares)
    assert out["one_class_share"].tolist()[:3] == [0.0, 0.4, 1.0]
    assert compare.headline(out)["degenerate"] == 1  # the not_run cell is not compared
    empty = compare.headline(comp.iloc[:0])
    assert empty["compared"] == 0 and np.isnan(empty["agree_rate"])


def test_crosscheck_writer(tmp_path):
    rec = compare.crosscheck_record("p", "s", "r", 10, 1.0, 1.0 + 1e-9, 1e-7, 0.1, 0.2)
    assert rec["rel_gap"] == pytest.approx(1e-9)
    df = compare.write_crosscheck([rec], tmp_path / "c.csv")
    assert list(df.columns) == compare.CROSSCHECK_COLUMNS


# --------------------------------------------------------------------------- crosscheck.csv
def test_crosscheck_record_columns_and_rel_gap():
    rec = compare.crosscheck_record("p", "s", "r", 10.0, -250.0, -200.0, 1e-7, 0.1, 0.2)
    assert list(rec) == compare.CROSSCHECK_COLUMNS
    assert rec["rel_gap"] == pytest.approx(50.0 / 200.0)  # relative to the reference value
    assert compare.rel_gap(0.3, 0.1) == pytest.approx(0.2)  # max(1, |b|) below 1
    assert isinstance(rec["n"], int) and rec["n"] == 10


def test_write_crosscheck_writes_exactly_the_crosscheck_columns(tmp_path):
    a = compare.crosscheck_record("p1", "s", "r", 10, 1.0, 1.0 + 1e-9, 1e-7, 0.1, 0.2)
    b = compare.crosscheck_record("p2", "s", "r", 20, 123.456789012, 123.4567, 0.0, 1.5, 2.5)
    b["prediction_disagreements"] = 3  # extra keys (crosscheck_details.csv) are left out
    path = tmp_path / "results" / "crosscheck.csv"
    df = compare.write_crosscheck([a, b], path)
    assert list(df.columns) == compare.CROSSCHECK_COLUMNS
    lines = path.read_text().splitlines()
    assert lines[0] == ",".join(compare.CROSSCHECK_COLUMNS)
    # one row per record, in order, floats with 6 significant digits
    assert lines[2].split(",")[:6] == ["p2", "s", "r", "20", "123.457", "123.457"]
    back = pd.read_csv(path)
    assert back["problem"].tolist() == ["p1", "p2"]
    assert back["rel_gap"].tolist() == pytest.approx([1e-9, 0.000089012 / 123.4567], rel=1e-5)
    assert sorted(p.name for p in path.parent.iterdir()) == ["crosscheck.csv"]


def test_write_crosscheck_of_no_records_writes_the_header(tmp_path):
    df = compare.write_crosscheck([], tmp_path / "c.csv")
    assert df.empty
    assert (tmp_path / "c.csv").read_text().strip() == ",".join(compare.CROSSCHECK_COLUMNS)


def test_write_crosscheck_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "crosscheck.csv"
    path.write_text("previous run\n")

    def fail(self, target, **kwargs):
        with open(target, "w") as fh:
            fh.write("problem,solver\nhalf")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", fail)
    rec = compare.crosscheck_record("p", "s", "r", 10, 1.0, 1.0, 0.0, 0.1, 0.2)
    with pytest.raises(OSError, match="disk full"):
        compare.write_crosscheck([rec], path)
    assert path.read_text() == "previous run\n"
    assert [p.name for p in tmp_path.iterdir()] == ["crosscheck.csv"]
