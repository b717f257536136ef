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
    with pytest.raises(ValueError, match="exactly the columns"):
        compare.write_comparison(out, path)  # no causes: refused
    compare.write_comparison(compare.assign_causes(out), path)
    back = pd.read_csv(path)
    assert list(back.columns) == COLUMNS + compare.CAUSE_COLUMNS and len(back) == 4
    assert set(back.loc[back.verdict == "differs", "cause"]) == {"unexplained"}
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
