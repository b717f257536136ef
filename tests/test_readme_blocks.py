"""The README's result prose is generated from results/ (weaklabel.readme), never typed."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from weaklabel import readme

REPO = Path(__file__).resolve().parents[1]


def test_committed_readme_blocks_are_current():
    text = (REPO / "README.md").read_text()
    for name in readme.BLOCKS:
        assert f"<!-- {name}:begin -->" in text and f"<!-- {name}:end -->" in text, name
    assert readme.render(text, REPO) == text, (
        "README result prose is stale: run `dvc repro summary` (python -m weaklabel.readme)")


def test_usmo_brief_prints_the_results(tmp_path):
    d = tmp_path / "results" / "usmo"
    d.mkdir(parents=True)
    (d / "metrics.json").write_text(json.dumps({
        "worst_rel_gap_default_tau": 1.23e-5, "worst_rel_gap_tight_tau": 4.56e-9,
        "constant_cells_matched": 3, "constant_cells": 4, "mean_abs_delta_demo2": 7.25,
        "mean_abs_delta_correct": 9.75}))
    pd.DataFrame({"stopping": ["paper", "paper", "complete", "complete"],
                  "init": ["ocsvm"] * 4, "rel_gap": [2e-4, 1e-6, 1e-7, 3e-7]}).to_csv(
        d / "ablations.csv", index=False)
    pd.DataFrame({"method": ["[6]", "[6]"], "scoring": ["correct", "correct"],
                  "warnings": [1, 0]}).to_csv(d / "scores_fixed_split.csv", index=False)
    text = "a\n<!-- usmo-brief:begin -->\nold 99\n<!-- usmo-brief:end -->\nb\n"
    out = readme.render(text, tmp_path)
    assert "old 99" not in out and out.startswith("a\n") and out.endswith("b\n")
    for s in ("1.2e-05", "4.6e-09", "1 of 2 problems", "3 of 4", "7.2 F-points", "(9.8)",
              "1 of 2 fixed-split ramp fits"):
        assert s in out, s


def test_blocks_without_results_are_left_alone(tmp_path):
    text = "<!-- mcls-brief:begin -->\nkept\n<!-- mcls-brief:end -->\n"
    assert readme.render(text, tmp_path) == text


def test_wellsvm_brief_prints_the_results(tmp_path):
    d = tmp_path / "results" / "wellsvm"
    d.mkdir(parents=True)
    (d / "metrics.json").write_text(json.dumps({
        "crosscheck_max_rel_gap": 3.21e-7, "algorithm_checks": 6,
        "algorithm_checks_passed": 6, "golden_split1_correct": 151, "golden_n_test": 192,
        "golden_splits": 30, "golden_accuracy_mean": 0.7512, "golden_accuracy_std": 0.0234,
        "golden_seconds_mean": 0.41,
        "mean_accuracy": {"5%": {"SVM": 0.7, "WellSVM": 0.75}}}))
    _claims(["holds", "does_not_hold"]).to_csv(d / "claims.csv", index=False)
    pd.DataFrame({"dataset": ["A", "A", "B", "B"], "method": ["SVM", "WellSVM"] * 2,
                  "mean": [0.6, 0.7, 0.8, 0.8]}).to_csv(d / "table2.csv", index=False)
    text = "<!-- wellsvm-brief:begin -->\nold\n<!-- wellsvm-brief:end -->\n"
    out = readme.render(text, tmp_path)
    for s in ("3.2e-07", "6 of 6", "151 of 192", "0.751 ± 0.023", "SVM 0.700, WellSVM 0.750",
              "best: WellSVM", "1 of 2 hold", "5 % labelled** (Table 2", "the 2 data sets"):
        assert s in out, s


def test_papers_block_counts_comparisons_and_claims(tmp_path):
    d = tmp_path / "results" / "usmo"
    d.mkdir(parents=True)
    rows = [("Table III (correct scoring)", "match", False),
            ("Table III (correct scoring)", "differs", False),
            ("Table III (correct scoring)", "by_construction", False),
            ("Table III (correct scoring)", "within_tolerance", True),
            ("Table III (demo2 scoring)", "match", False)]
    pd.DataFrame({"artifact": [a for a, _, _ in rows], "verdict": [v for _, v, _ in rows],
                  "uninformative": [u for _, _, u in rows]}).to_csv(d / "comparison.csv",
                                                                      index=False)
    t = tmp_path / "results" / "tsgsu"
    t.mkdir(parents=True)
    _claims(["holds", "does_not_hold", "not_tested"]).to_csv(t / "claims.csv", index=False)
    m = tmp_path / "results" / "mcls"
    m.mkdir(parents=True)
    # a legacy schema is not read as claims
    pd.DataFrame({"holds": [True, False]}).to_csv(m / "claims.csv", index=False)
    block = readme.papers_block(tmp_path)
    usmo = next(r for r in block.splitlines() if "`usmo`" in r)
    # the correct scoring only: 1 of 2 compared agree; apart: 1 set by the protocol and
    # 1 trivially reached; no claims table
    assert "| 1 of 2 |" in usmo and "1 set by the protocol" in usmo
    assert "1 trivially reached" in usmo and "no claims table in the common schema" in usmo
    assert "not assessable" in usmo
    tsgsu = next(r for r in block.splitlines() if "`tsgsu`" in r)
    # 2 decided < 3 (docs/replication-classes.md): not assessable
    assert "not run yet" in tsgsu and "| 1 / 2 (1) |" in tsgsu and "not assessable" in tsgsu
    mcls = next(r for r in block.splitlines() if "`mcls`" in r)
    assert "not run yet" in mcls and "no claims table in the common schema" in mcls
    clus = next(r for r in block.splitlines() if "`wellsvm_clustering`" in r)
    assert clus.endswith("| 〃 |")


def test_papers_block_shows_the_class_of_a_paper_over_its_parts(tmp_path):
    for stage, verdicts in (("wellsvm", ["holds"] * 3), ("wellsvm_clustering", ["holds"]),
                            ("wellsvm_mil", ["does_not_hold"]),
                            ("wellsvm_linear", ["holds", "inconclusive"])):
        d = tmp_path / "results" / stage
        d.mkdir(parents=True)
        _claims(verdicts).to_csv(d / "claims.csv", index=False)
    block = readme.papers_block(tmp_path)
    row = next(r for r in block.splitlines() if "`wellsvm`" in r)
    # over all parts: 5 of 6 decided hold (0.83 >= 0.8), 1 undecided
    assert "| 3 / 3 (0) | **replicated** |" in row
    mil = next(r for r in block.splitlines() if "`wellsvm_mil`" in r)
    assert "| 0 / 1 (0) | 〃 |" in mil


def _claims(verdicts):
    n = len(verdicts)
    decided = [v in ("holds", "does_not_hold") for v in verdicts]
    return pd.DataFrame({"claim": [f"C{i}" for i in range(n)], "text": ["t"] * n,
                         "source": ["Table 2"] * n,
                         "test": ["a > b" if d else "" for d in decided],
                         "threshold": ["0" if d else "" for d in decided],
                         "ours": ["1 vs 0" if d else "" for d in decided],
                         "verdict": verdicts, "note": ["" if d else "why" for d in decided]})


def test_claims_line_lists_each_claim_or_says_to_re_run(tmp_path):
    d = tmp_path / "results" / "mcls"
    d.mkdir(parents=True)
    pd.DataFrame({"holds": [True]}).to_csv(d / "claims.csv", index=False)
    assert "dvc repro -s mcls" in readme._claims_line("mcls", d)
    _claims(["holds", "not_tested"]).to_csv(d / "claims.csv", index=False)
    line = readme._claims_line("mcls", d)
    assert "1 of 2 hold" in line and "C0 holds; C1 not tested" in line


def test_methods_answer_is_the_stage_answer_without_its_heading(tmp_path):
    from weaklabel.experiments.methods import answer_markdown
    d = tmp_path / "results" / "methods"
    d.mkdir(parents=True)
    answers = {"PU": {"text": "PU (3 cells, 4 methods): best average rank A (1.20)."}}
    cfg = {"alpha": 0.05, "cd_alpha": 0.1, "settings": ["PU", "SSL"]}
    (d / "answer.md").write_text(answer_markdown(answers, cfg))
    (d / "metrics.json").write_text("{}")
    text = "a\n<!-- methods-answer:begin -->\nNot run yet\n<!-- methods-answer:end -->\nb\n"
    out = readme.render(text, tmp_path)
    assert "Not run yet" not in out and "## Which method" not in out
    assert "- PU (3 cells, 4 methods): best average rank A (1.20)." in out
    assert "- SSL: no result in this run." in out          # a setting without an answer
    # no metrics.json (the stage has not run): the block is left alone
    (d / "metrics.json").unlink()
    assert readme.render(text, tmp_path) == text
