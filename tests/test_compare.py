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
    assert verdict(10.0, np.nan, 1.0) == "differs"


def test_build_comparison_columns_and_verdicts(pub, tmp_path):
    rep = pd.DataFrame({"artifact": "Table X", "row": ["a", "a", "b"],
                        "column": ["m1", "m2", "m1"], "reproduced": [50.04, 62.0, 3.0]})
    out = build_comparison(rep, "usmo", tolerance=1.0, published=pub)
    assert list(out.columns) == COLUMNS
    got = dict(zip(zip(out["row"], out["column"]), out["verdict"]))
    assert got == {("a", "m1"): "match", ("a", "m2"): "differs",
                   ("b", "m1"): "not_published", ("b", "m2"): "differs"}
    assert out.loc[(out.row == "b") & (out.column == "m2"), "note"].item() == "not reproduced"
    assert out.loc[(out.row == "a") & (out.column == "m2"), "delta"].item() == pytest.approx(2.0)
    path = tmp_path / "results" / "comparison.csv"
    compare.write_comparison(out, path)
    back = pd.read_csv(path)
    assert list(back.columns) == COLUMNS and len(back) == 4
    assert compare.summarize(out).loc["Table X", "differs"] == 2


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


def test_crosscheck_writer(tmp_path):
    rec = compare.crosscheck_record("p", "s", "r", 10, 1.0, 1.0 + 1e-9, 1e-7, 0.1, 0.2)
    assert rec["rel_gap"] == pytest.approx(1e-9)
    df = compare.write_crosscheck([rec], tmp_path / "c.csv")
    assert list(df.columns) == compare.CROSSCHECK_COLUMNS
