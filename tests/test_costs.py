"""docs/costs.md and the README's cost lines come from the stages' run blocks, never typed."""

from __future__ import annotations

import json
from pathlib import Path

from weaklabel import costs, readme

REPO = Path(__file__).resolve().parents[1]

DVC_YAML = """\
stages:
  a:
    cmd: x
    metrics:
      - results/a/metrics.json:
          cache: false
  b:
    cmd: y
    metrics:
      - results/b/metrics.json
  c:
    cmd: z
  summary:
    cmd: s
    metrics:
      - results/summary/metrics.json
"""


def _block(wall, cpu, peak, profile="default", finished="2026-11-27T10:00:00Z"):
    return {"wall_seconds": wall, "cpu_seconds": cpu, "peak_rss_mb": peak, "profile": profile,
            "cpu_model": "Test CPU", "cpu_count": 2, "finished": finished}


def _repo(tmp_path):
    (tmp_path / "dvc.yaml").write_text(DVC_YAML)
    for name, block in (("a", _block(30.0, 50.0, 300.0)),
                        ("b", _block(5400.0, 10000.0, 1200.0, finished="2026-11-27T12:00:00Z")),
                        ("summary", _block(1.0, 1.0, 90.0))):
        (tmp_path / "results" / name).mkdir(parents=True)
        (tmp_path / "results" / name / "metrics.json").write_text(json.dumps({"run": block}))
    return tmp_path


def test_the_table_and_the_totals_come_from_the_run_blocks(tmp_path):
    rows = costs.stage_runs(_repo(tmp_path))
    assert [r["stage"] for r in rows] == ["a", "b", "c"]  # the writer is not listed
    md = costs.costs_markdown(rows)
    assert "| a | default | 30 s | 50 s | 300 |" in md
    assert "| b | default | 90.0 min | 166.7 min | 1200 |" in md
    assert "| c | not measured |" in md
    assert "2 of 3 stages measured, **90.5 min wall**" in md
    assert "Not measured yet" in md and "c." in md
    line = costs.readme_lines(rows)
    assert line.startswith("- `default`: 90.5 min wall for 2 of 3 stages (Test CPU, 2 cores")


def test_profiles_are_totalled_apart(tmp_path):
    root = _repo(tmp_path)
    p = root / "results" / "a" / "metrics.json"
    p.write_text(json.dumps({"run": _block(30.0, 50.0, 300.0, profile="smoke")}))
    lines = costs.readme_lines(costs.stage_runs(root)).splitlines()
    assert [ln.split(":")[0] for ln in lines] == ["- `default`", "- `smoke`"]


def test_no_run_block_says_so(tmp_path):
    (tmp_path / "dvc.yaml").write_text(DVC_YAML)
    rows = costs.stage_runs(tmp_path)
    assert "no stage has measured itself yet" in costs.readme_lines(rows)
    assert costs.totals(rows) == {}


def test_a_stage_without_profile_counts_with_the_pipelines(tmp_path):
    root = _repo(tmp_path)
    (root / "params.yaml").write_text("profile: default\n")
    p = root / "results" / "a" / "metrics.json"
    p.write_text(json.dumps({"run": _block(30.0, 50.0, 300.0, profile=None)}))
    assert costs.totals(costs.stage_runs(root)).keys() == {"none", "default"}
    assert readme.cost_rows(root)[0]["profile"] == "default"
    assert readme.cost_rows(root)[2] == {"stage": "c"}  # not measured stays unmeasured


def test_committed_costs_page_and_readme_lines_are_current():
    rows = readme.cost_rows(REPO)
    assert (REPO / costs.COSTS).read_text() == costs.costs_markdown(rows), (
        "docs/costs.md is stale: run `dvc repro -s summary` (python -m weaklabel.readme)")
    text = (REPO / "README.md").read_text()
    assert "<!-- costs:begin -->" in text
    assert readme.render_costs(text, REPO) == text, "README cost lines are stale"
