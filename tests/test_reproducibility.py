"""The comparison of two result trees behind `make verify-repro`."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from weaklabel.reproducibility import (
    THREAD_ENV,
    VOLATILE,
    apply_thread_env,
    compare_trees,
    format_differences,
    main,
)

REPO = Path(__file__).resolve().parents[1]
TIMING_LIKE = re.compile(r"second|time|elapsed|duration|_mb$|memory|_ms$", re.I)
#: result columns whose names look like readings but hold sizes computed from the data
#: (array sizes, arithmetic), identical in every run: (file, column) -> what they hold
COMPUTED_SIZES = {
    ("memory.csv", "data_mb"): "tsgsu: nbytes of the training arrays",
    ("memory.csv", "cuu_all_batch_mb"): "tsgsu: 8 bytes x batch x centres, arithmetic",
}


def _tree(root: Path, *, acc="81.5", seconds="0.12", runtime=3.0, md="| a | 1 |\n"):
    (root / "results" / "p").mkdir(parents=True)
    (root / "results" / "p" / "t.csv").write_text(
        f"dataset,acc,seconds\nheart,{acc},{seconds}\nhouse,90.0,0.3\n")
    (root / "results" / "p" / "metrics.json").write_text(json.dumps(
        {"n": 3, "runtime_seconds": runtime, "nested": {"peak_mb": runtime, "x": [1, 2.5]}}))
    (root / "results" / "summary.md").write_text(md)
    return root


def test_timing_columns_and_keys_are_masked(tmp_path):
    a = _tree(tmp_path / "a")
    b = _tree(tmp_path / "b", seconds="0.9", runtime=7.0)
    assert compare_trees(a, b) == []


def test_every_differing_cell_key_line_and_file_is_reported(tmp_path):
    a = _tree(tmp_path / "a")
    b = _tree(tmp_path / "b", acc="81.50000000000001", md="| a | 2 |\n")
    (b / "results" / "p" / "extra.csv").write_text("x\n1\n")
    m = json.loads((b / "results" / "p" / "metrics.json").read_text())
    m["nested"]["x"][1] = 2.5000001
    (b / "results" / "p" / "metrics.json").write_text(json.dumps(m))
    diffs = compare_trees(a, b)
    where = {(d.path, d.where) for d in diffs}
    assert ("results/p/t.csv", "row 1, column 'acc'") in where
    assert ("results/p/metrics.json", "key nested/x/1") in where
    assert ("results/summary.md", "line 1") in where
    assert any(d.path == "results/p/extra.csv" and "only in" in d.where for d in diffs)
    assert len(diffs) == 4
    text = format_differences(diffs)
    assert "81.50000000000001" in text and "results/p/extra.csv" in text


def test_row_count_and_header_changes_are_differences(tmp_path):
    a = _tree(tmp_path / "a")
    b = _tree(tmp_path / "b")
    p = b / "results" / "p" / "t.csv"
    p.write_text(p.read_text() + "pima,70.0,0.1\n")
    assert [d.where for d in compare_trees(a, b)] == ["number of rows"]
    p.write_text("dataset,accuracy,seconds\nheart,81.5,0.12\nhouse,90.0,0.3\n")
    assert [d.where for d in compare_trees(a, b)] == ["header"]


def test_cli_compare_exit_code(tmp_path, capsys):
    a = _tree(tmp_path / "a")
    b = _tree(tmp_path / "b", acc="80.0")
    assert main(["compare", str(a), str(a)]) == 0
    assert main(["compare", str(a), str(b)]) == 1
    assert "row 1, column 'acc'" in capsys.readouterr().out


def test_every_timing_like_result_column_is_declared_volatile():
    # a new timing or memory column must be declared in VOLATILE, or verify-repro fails
    names = set()
    for p in (REPO / "results").rglob("*.csv"):
        with open(p, newline="") as f:
            names |= {(p.name, c) for c in next(csv.reader(f), [])}
    for p in (REPO / "results").rglob("*.json"):
        def keys(o):
            if isinstance(o, dict):
                for k, v in o.items():
                    yield k
                    if k not in VOLATILE:  # a volatile key masks everything below it
                        yield from keys(v)
            elif isinstance(o, list):
                for v in o:
                    yield from keys(v)
        names |= {(p.name, k) for k in keys(json.loads(p.read_text()))}
    undeclared = sorted((f, c) for f, c in names if TIMING_LIKE.search(c) and c not in VOLATILE
                        and (f, c) not in COMPUTED_SIZES)
    assert not undeclared, f"declare these in weaklabel.reproducibility.VOLATILE: {undeclared}"


def test_thread_env_is_set_only_where_unset():
    env = {"OMP_NUM_THREADS": "2"}
    apply_thread_env(env)
    assert env["OMP_NUM_THREADS"] == "2"
    assert all(env[k] == v for k, v in THREAD_ENV.items() if k != "OMP_NUM_THREADS")
    assert set(THREAD_ENV) == {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                               "NUMBA_NUM_THREADS"}


def test_a_comparison_that_compares_nothing_fails(tmp_path, capsys):
    """A missing tree, a tree without results/ and two empty results/ are errors (exit 2),
    never IDENTICAL: a check that compared zero files must not pass."""
    import pytest

    from weaklabel.reproducibility import NothingCompared

    a = _tree(tmp_path / "a")
    assert main(["compare", str(tmp_path / "nonexistent1"), str(tmp_path / "nonexistent2")]) == 2
    assert "nonexistent1" in capsys.readouterr().err
    assert main(["compare", str(a), str(tmp_path / "nonexistent")]) == 2
    (tmp_path / "e1" / "results").mkdir(parents=True)
    (tmp_path / "e2" / "results").mkdir(parents=True)
    with pytest.raises(NothingCompared, match="nothing was compared"):
        compare_trees(tmp_path / "e1", tmp_path / "e2")
    assert main(["compare", str(tmp_path / "e1"), str(tmp_path / "e2")]) == 2
    out = capsys.readouterr()
    assert "IDENTICAL" not in out.out and "nothing was compared" in out.err
    # one empty side against a full one is a difference, not an error
    assert main(["compare", str(a), str(tmp_path / "e1")]) == 1


def test_the_run_block_is_volatile(tmp_path):
    a = _tree(tmp_path / "a")
    b = _tree(tmp_path / "b")
    for root, wall in ((a, 3.0), (b, 9.0)):
        p = root / "results" / "p" / "metrics.json"
        m = json.loads(p.read_text())
        m["run"] = {"wall_seconds": wall, "finished": f"2026-01-0{int(wall)}T00:00:00Z"}
        p.write_text(json.dumps(m))
    assert compare_trees(a, b) == []


def test_check_complete_run_names_a_missing_output(tmp_path, monkeypatch):
    from weaklabel import reproducibility as R

    (tmp_path / "dvc.yaml").write_text(
        "stages:\n  s:\n    cmd: x\n    outs:\n      - results/p/t.csv:\n          cache: false\n"
        "    metrics:\n      - results/p/metrics.json\n")
    (tmp_path / "results" / "p").mkdir(parents=True)
    (tmp_path / "results" / "p" / "t.csv").write_text("a\n1\n")
    monkeypatch.setattr(R, "_run", lambda cmd, cwd, env: "Data and pipelines are up to date.")
    problems = R.check_complete_run(tmp_path, env={})
    assert any("results/p/metrics.json was not produced" in p for p in problems)
    assert any("summary" in p for p in problems)
    monkeypatch.setattr(R, "_run", lambda cmd, cwd, env: "s:\n  changed outs")
    assert any("dvc status" in p for p in R.check_complete_run(tmp_path, env={}))
