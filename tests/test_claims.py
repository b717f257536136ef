"""The claims table and the paper-level class (weaklabel.claims)."""

from __future__ import annotations

import pandas as pd
import pytest

from weaklabel.claims import (
    CLASS_RULES,
    COLUMNS,
    check_claims,
    claim_counts,
    decide,
    replication_class,
)


def _claims(verdicts):
    rows = []
    for i, v in enumerate(verdicts):
        decided = v in ("holds", "does_not_hold")
        rows.append({"claim": f"C{i}", "text": f"claim {i}", "source": "Table 2",
                     "test": "mean(A) > mean(B)" if decided else "",
                     "threshold": "0" if decided else "",
                     "ours": "0.81 vs 0.79" if decided else "",
                     "verdict": v, "note": "" if decided else "a reason"})
    return pd.DataFrame(rows, columns=COLUMNS)


def test_decide():
    assert decide(True) == "holds" and decide(False) == "does_not_hold"
    assert decide(True, degenerate=True) == "inconclusive"  # never holds on a degenerate fit
    assert decide(None) == "inconclusive"
    assert decide(True, tested=False) == "not_tested"


def test_check_claims_names_each_problem():
    good = _claims(["holds", "does_not_hold", "not_tested"])
    assert check_claims(good) is good
    with pytest.raises(ValueError, match="lacks columns"):
        check_claims(good.drop(columns="source"))
    with pytest.raises(ValueError, match="more than once"):
        check_claims(pd.concat([good, good.head(1)]))
    bad = good.copy()
    bad.loc[0, "verdict"] = "maybe"
    with pytest.raises(ValueError, match="not in"):
        check_claims(bad)
    bad = good.copy()
    bad.loc[0, "threshold"] = ""
    with pytest.raises(ValueError, match="no 'threshold'"):
        check_claims(bad)
    bad = good.copy()
    bad.loc[2, "note"] = ""
    with pytest.raises(ValueError, match="without a note"):
        check_claims(bad)
    with pytest.raises(TypeError):
        check_claims([1, 2])


def test_counts_have_every_verdict():
    assert claim_counts(_claims(["holds", "holds", "inconclusive"])) == {
        "holds": 2, "does_not_hold": 0, "inconclusive": 1, "not_tested": 0}


@pytest.mark.parametrize("verdicts, cls", [
    (["holds"] * 4 + ["does_not_hold"], "replicated"),              # 0.8
    (["holds"] * 3 + ["does_not_hold"] * 2, "partly replicated"),   # 0.6
    (["holds"] * 2 + ["does_not_hold"] * 3, "partly replicated"),   # 0.4
    (["holds"] + ["does_not_hold"] * 4, "not replicated"),          # 0.2
    (["holds"] * 2, "not assessable"),                               # fewer than 3 decided
    (["holds"] * 3 + ["inconclusive"] * 2 + ["not_tested"] * 2, "not assessable"),
    (["holds"] * 4 + ["inconclusive"] * 2, "replicated"),           # undecided do not count
])
def test_replication_class(verdicts, cls):
    got, why = replication_class(_claims(verdicts))
    assert got == cls, why
    assert "decided claims hold" in why


def test_class_rules_are_the_declared_ones():
    assert CLASS_RULES == {"min_decided": 3, "replicated": 0.8, "partly": 0.4}
    assert replication_class(_claims(["holds"] * 3 + ["does_not_hold"] * 2),
                             {"replicated": 0.6})[0] == "replicated"


def test_write_and_read_claims_round_trip(tmp_path):
    from weaklabel.claims import read_claims, write_claims

    df = _claims(["holds", "not_tested"]).assign(extra=1)[["extra"] + COLUMNS]
    out = write_claims(df, tmp_path / "claims.csv")
    assert list(out.columns) == COLUMNS
    back = read_claims(tmp_path / "claims.csv")
    assert list(back.columns) == COLUMNS and back["verdict"].tolist() == ["holds", "not_tested"]
    bad = df.assign(verdict=["holds", "maybe"])
    with pytest.raises(ValueError, match="maybe"):
        write_claims(bad, tmp_path / "bad.csv")
    assert not (tmp_path / "bad.csv").exists()


def test_read_claims_refuses_a_legacy_schema_and_a_missing_file(tmp_path):
    from weaklabel.claims import read_claims

    d = tmp_path / "results" / "tsgsu"
    d.mkdir(parents=True)
    pd.DataFrame({"claim": ["1"], "holds": [True]}).to_csv(d / "claims.csv", index=False)
    with pytest.raises(ValueError, match="dvc repro -s tsgsu"):
        read_claims(d / "claims.csv")
    with pytest.raises(FileNotFoundError, match="dvc repro -s mcls"):
        read_claims(tmp_path / "results" / "mcls" / "claims.csv")


def test_claims_metrics_and_markdown_agree():
    from weaklabel.claims import claims_markdown, claims_metrics

    df = _claims(["holds", "holds", "does_not_hold", "inconclusive"])
    df.loc[0, "text"] = "A | B"
    m = claims_metrics(df)
    assert m == {"total": 4, "holds": 2, "does_not_hold": 1, "inconclusive": 1,
                 "not_tested": 0, "replication_class": "partly replicated",
                 "class_reason": m["class_reason"]}
    md = claims_markdown(df)
    assert md.startswith("**4 claims: 2 hold, 1 do not hold, 1 inconclusive, 0 not tested.**")
    assert "A \\| B" in md and md.count("\n| C") == 4


def test_paper_verdicts_pool_a_papers_parts_and_name_a_missing_part(tmp_path):
    from weaklabel.claims import paper_verdicts, verdicts_markdown

    for stage, v in (("wellsvm", ["holds", "holds"]), ("wellsvm_clustering", ["holds"]),
                     ("wellsvm_mil", ["does_not_hold"]), ("usmo", ["holds"] * 3)):
        d = tmp_path / "results" / stage
        d.mkdir(parents=True)
        _claims(v).to_csv(d / "claims.csv", index=False)
    rows = {(r["paper"], r["stage"]): r for r in paper_verdicts(tmp_path)}
    assert rows[("USMO", "usmo")]["replication_class"] == "replicated"
    assert rows[("USMO", "usmo")]["level"] == "paper"
    w = rows[("WellSVM", "")]
    # wellsvm_linear has no table: the paper is not assessable, and says why
    assert not w["ok"] and w["replication_class"] == "not assessable"
    assert "wellsvm_linear" in w["class_reason"] and w["total"] == 4 and w["holds"] == 3
    assert rows[("WellSVM", "wellsvm_mil")]["does_not_hold"] == 1
    assert rows[("MCLS", "mcls")]["replication_class"] == "not assessable"
    md = verdicts_markdown(list(rows.values()))
    assert "| USMO | `usmo` | 3 | 3 | 0 | 0 | 0 | **replicated** |" in md
    assert "| 〃 | `wellsvm_mil` | 1 | 0 | 1 | 0 | 0 | not assessable |" in md
