"""``benchmarks/table.py`` (one table of ours against the best peer) and
``benchmarks/_meta.py`` (the run's machine, load and threads): every adapter on its committed
results, the ratio and the choice of the peer, the errors, the run's record, and the committed
``benchmarks/README.md`` being what the committed results give."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "benchmarks"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses and the like look the module up
    spec.loader.exec_module(mod)
    return mod


tb = _load("_bench_table", BENCH / "table.py")
meta = _load("_bench_meta", BENCH / "_meta.py")


def _csv(folder: Path, name: str, rows: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


# --------------------------------------------------------------------------- committed files
def test_every_committed_results_file_gives_rows_and_every_adapter_is_used():
    files = tb.results_files(BENCH)
    assert len(files) >= 12
    used = set()
    for csv in files:
        rows, info = tb.table_rows(csv, BENCH)
        assert len(rows) >= 1, csv
        assert all(set(tb.COLUMNS) <= set(r) for r in rows)
        used.add(tb.adapter_for(csv.relative_to(BENCH).as_posix()))
    # linear/scaling.csv is not committed yet: its adapter is tested below
    assert used | {tb.linear_scaling} == {fn for _, fn in tb.ADAPTERS}


def test_committed_readme_is_what_the_committed_results_give():
    assert (BENCH / "README.md").read_text(encoding="utf-8") == tb.render(BENCH), (
        "benchmarks/README.md is stale: run `make bench-table` (python benchmarks/table.py)")


def test_make_bench_runs_only_scripts():
    # `make bench` runs every benchmarks/<name>/*.py: each must be a script
    for path in BENCH.glob("*/*.py"):
        assert 'if __name__ == "__main__"' in path.read_text(), path


# --------------------------------------------------------------------------- ratios and peers
def test_ratio_is_ours_over_the_fastest_peer(tmp_path):
    path = _csv(tmp_path / "smo", "results.csv",
                [{"kernel": "linear", "n": 100, "smo_s": 0.2, "libsvm_s": 0.4}])
    rows, _ = tb.table_rows(path, tmp_path)
    assert rows[0]["ours / peer"] == "0.5" and rows[0]["peer (s)"] == "0.4"
    assert rows[0]["ours / reference"] == tb.NO_REFERENCE  # no qp_s column
    # two peers: the faster one is chosen; the reference gets its own ratio
    path = _csv(tmp_path / "usmo", "results.csv", [
        {"method": "USMO", "kernel": "linear", "n": 10, "source": "a", "seconds": 0.3},
        {"method": "LIBSVM C-SVM", "kernel": "linear", "n": 10, "source": "a", "seconds": 0.6},
        {"method": "other", "kernel": "linear", "n": 10, "source": "a", "seconds": 0.15},
        {"method": "cvxpy+Clarabel", "kernel": "linear", "n": 10, "source": "a",
         "seconds": 3.0}])
    r = tb.table_rows(path, tmp_path)[0][0]
    assert (r["best peer"], r["ours / peer"]) == ("other", "2")
    assert r["ours / reference"].startswith("0.1 ")


def test_a_file_without_a_peer_says_so(tmp_path):
    path = _csv(tmp_path / "wellsvm", "results_scaling.csv",
                [{"variant": "reference", "n": 1000, "seconds": 5.0}])
    r = tb.table_rows(path, tmp_path)[0][0]
    assert r["best peer"] == tb.NO_PEER and r["ours / peer"] == "—" and r["ours (s)"] == "5"
    # a peer without a time (not run) is no peer either
    path = _csv(tmp_path / "smo", "results.csv",
                [{"kernel": "linear", "n": 100, "smo_s": 0.2, "libsvm_s": float("nan")}])
    assert tb.table_rows(path, tmp_path)[0][0]["best peer"] == tb.NO_PEER


def test_labelled_only_baseline_is_not_a_peer(tmp_path):
    path = _csv(tmp_path / "linear", "scaling.csv", [
        {"task": t, "n_instances": 100, "wellsvm_seconds": 2.0, "peak_rss_mb": 10,
         "baseline": b, "baseline_seconds": 1.0, "wellsvm_accuracy": 0.9,
         "baseline_accuracy": 0.8}
        for t, b in (("ssl", "linear SVM (labelled only)"), ("clustering", "k-means (1 run)"))])
    ssl, clu = tb.table_rows(path, tmp_path)[0]
    assert ssl["best peer"] == tb.NO_PEER
    assert clu["best peer"] == "k-means (1 run)" and clu["ours / peer"] == "2"


# --------------------------------------------------------------------------- errors
def test_missing_column_raises_naming_file_and_column(tmp_path):
    path = _csv(tmp_path / "smo", "results.csv", [{"kernel": "linear", "n": 100, "smo_s": 0.2}])
    with pytest.raises(ValueError, match=r"results\.csv: column 'libsvm_s' is missing"):
        tb.table_rows(path, tmp_path)


def test_unknown_values_and_files_raise(tmp_path):
    path = _csv(tmp_path / "linear", "results.csv", [{"part": "new", "problem": "p", "n": 1}])
    with pytest.raises(ValueError, match="'part' has the value 'new'"):
        tb.table_rows(path, tmp_path)
    with pytest.raises(ValueError, match="benchmarks/foo/results.csv has no adapter"):
        tb.adapter_for("foo/results.csv")
    assert tb.adapter_for("smo/results_cache.csv") is tb.smo_csvm


# --------------------------------------------------------------------------- the run's record
def test_missing_record_gives_not_recorded(tmp_path):
    path = _csv(tmp_path / "wellsvm", "results_scaling.csv",
                [{"variant": "paper", "n": 10, "seconds": 1.0}])
    r = tb.table_rows(path, tmp_path)[0][0]
    assert (r["machine"], r["load"], r["threads"]) == (tb.NOT_RECORDED,) * 3


def test_meta_json_is_read_before_the_md_line(tmp_path, monkeypatch):
    path = _csv(tmp_path / "wellsvm", "results_scaling.csv",
                [{"variant": "paper", "n": 10, "seconds": 1.0}])
    path.with_suffix(".md").write_text("Machine: arm64, 8 cores, Python 3.12.1; load average "
                                       "at the end 0.50.\n")
    r = tb.table_rows(path, tmp_path)[0][0]  # the .md line
    assert r["machine"] == "arm64, 8 CPUs, Python 3.12.1" and r["load"] == "0.50 at end"
    assert r["threads"] == tb.NOT_RECORDED
    for v in tb.THREAD_VARS:
        monkeypatch.setenv(v, "1")
    m = meta.run_meta(extra={"loadavg_start": [1.5, 1, 1], "loadavg": [2.25, 1, 1]})
    meta.write_meta(path.with_name("results_scaling_meta.json"), m)
    r = tb.table_rows(path, tmp_path)[0][0]  # the json wins
    assert r["load"] == "1.50 → 2.25" and r["threads"].startswith("1 (OMP")
    assert f"{m['cpu_count']} CPUs" in r["machine"]


def test_md_line_threads_and_load():
    info = tb.meta_from_md("Machine: x86_64, 2 cores, Python 3.11.7; threads {'OMP_NUM_THREADS':"
                           " '1', 'NUMBA_NUM_THREADS': '2'}; load average at the end 4.60.")
    assert info["threads"] == ("OMP=1, OPENBLAS=not recorded, MKL=not recorded, NUMBA=2")
    assert info["load"] == "4.60 at end"
    info = tb.meta_from_md("Machine: x86_64, 2 cores (load average 1.9 at the start), Python "
                           "3.11.7, one thread per process.")
    assert (info["load"], info["threads"]) == ("1.9 at start", "one thread per process")
    assert tb.meta_from_md("| a | b |\n") is None


def test_run_meta_records_threads_versions_and_load(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    m = meta.run_meta(extra={"args": {"n": 3}})
    assert m["threads"]["OMP_NUM_THREADS"] == "1" and m["threads"]["MKL_NUM_THREADS"] == "unset"
    assert set(m["versions"]) == {"numpy", "scipy", "numba", "scikit-learn"}
    assert m["versions"]["numpy"] != "not installed" and m["args"] == {"n": 3}
    assert len(m["loadavg"]) == 3 and len(m["loadavg_start"]) == 3
    assert m["utc"].endswith("Z") and m["cpu_count"] >= 1
    with pytest.raises(TypeError, match="extra"):
        meta.run_meta(extra=[1])


def test_cpu_model_from_cpuinfo(tmp_path):
    f = tmp_path / "cpuinfo"
    f.write_text("processor\t: 0\nmodel name\t: Some CPU 3000\n")
    assert meta.cpu_model(f) == "Some CPU 3000"
    assert meta.cpu_model(tmp_path / "none") != "Some CPU 3000"  # no file: another source


def test_write_meta_is_atomic_json(tmp_path):
    path = meta.write_meta(tmp_path / "r_meta.json", {"a": Path("x"), "b": [1, 2]})
    assert json.loads(path.read_text()) == {"a": "x", "b": [1, 2]}
    assert [p.name for p in tmp_path.iterdir()] == ["r_meta.json"]  # no temporary file left
    with pytest.raises(TypeError, match="meta"):
        meta.write_meta(tmp_path / "x.json", [1])


def test_write_meta_writes_paths_in_the_repository_relative(tmp_path):
    inside = meta._REPO / "benchmarks" / "smo"
    m = {"args": {"out": inside, "script": str(inside / "bench_smo.py")},
         "argv": [str(meta._REPO), "--x"], "other": str(tmp_path)}
    got = json.loads(meta.write_meta(tmp_path / "m.json", m).read_text())
    assert got["args"] == {"out": "benchmarks/smo", "script": "benchmarks/smo/bench_smo.py"}
    assert got["argv"] == [".", "--x"]
    assert got["other"] == str(tmp_path)  # outside the repository: unchanged
