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
