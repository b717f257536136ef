"""Every view of a paper's claims is generated from its ``results/<stage>/claims.csv``: the
stage's ``metrics.json``, its report, ``reports/index.html``, ``results/summary.md`` and the
README (``tests/test_readme_blocks.py``) show the same counts."""

import json
import re

import pytest
from conftest import REPO, skip_if_stale

from weaklabel.claims import (
    PAPER_STAGES,
    claims_markdown,
    claims_metrics,
    paper_verdicts,
    read_claims,
    verdicts_markdown,
)

STAGES = [s for stages in PAPER_STAGES.values() for s in stages]


@pytest.mark.parametrize("stage", STAGES)
def test_stage_views_equal_its_claims_table(stage):
    skip_if_stale(stage)
    cl = read_claims(REPO / "results" / stage / "claims.csv")
    m = claims_metrics(cl)
    metrics = json.loads((REPO / "results" / stage / "metrics.json").read_text())
    assert metrics["claims"] == m
    head = claims_markdown(cl).split("\n", 1)[0]
    report = (REPO / "reports" / f"{stage}.ipynb").read_text()
    assert json.dumps(head, ensure_ascii=False)[1:-1] in report, (
        f"reports/{stage}.ipynb lacks {head!r}")


def test_summary_and_index_equal_the_claims_tables():
    for stage in STAGES + ["summary"]:
        skip_if_stale(stage)
    rows = paper_verdicts(REPO)
    assert all(r["ok"] for r in rows), [r["class_reason"] for r in rows if not r["ok"]]
    assert verdicts_markdown(rows) in (REPO / "results" / "summary.md").read_text()
    index = (REPO / "reports" / "index.html").read_text()
    for r in rows:
        counts = "".join(f"<td>{int(r[k])}</td>" for k in
                         ("total", "holds", "does_not_hold", "inconclusive", "not_tested"))
        assert re.search(re.escape(counts) + r'<td title="[^"]*">(<b>)?'
                         + re.escape(r["replication_class"]), index), (r["paper"], r["stage"])
