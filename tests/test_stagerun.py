"""A stage run is a transaction that measures itself (weaklabel.stagerun), on a toy repository:
outputs survive a failure, a SIGTERM and a SIGKILL; a success writes the run block."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from weaklabel import stagerun as S
from weaklabel.pipeline import main as pipeline_main

DVC_YAML = """\
stages:
  toy:
    cmd: python -m weaklabel.pipeline run toy --profile ${profile}
    outs:
      - results/toy/table.csv:
          cache: false
          persist: true
      - figures/toy:
          cache: false
          persist: true
    metrics:
      - results/toy/metrics.json:
          cache: false
          persist: true
"""


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "dvc.yaml").write_text(DVC_YAML)
    (tmp_path / "params.yaml").write_text("profile: smoke\n")
    (tmp_path / "results" / "toy").mkdir(parents=True)
    (tmp_path / "results" / "toy" / "table.csv").write_text("a\n1\n")
    (tmp_path / "results" / "toy" / "metrics.json").write_text('{"acc": 0.5}\n')
    (tmp_path / "figures" / "toy").mkdir(parents=True)
    (tmp_path / "figures" / "toy" / "f.png").write_bytes(b"png-old")
    return tmp_path


def _state(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for d in ("results", "figures") for p in (root / d).rglob("*") if p.is_file()}


def _write_new_outputs(root: Path) -> None:
    (root / "results" / "toy" / "table.csv").write_text("a\n2\n")
    (root / "figures" / "toy" / "g.png").write_bytes(b"png-new")
    (root / "figures" / "toy" / "f.png").unlink()
    (root / "results" / "toy" / ".table.csv.abc.partial.csv").write_text("half")


def test_success_writes_the_run_block_and_drops_the_copy(repo):
    with S.StageRun("toy", repo, profile="smoke", quiet=True):
        _write_new_outputs(repo)
        (repo / "results" / "toy" / ".table.csv.abc.partial.csv").unlink()
        (repo / "results" / "toy" / "metrics.json").write_text('{"acc": 0.5}\n')
        x = sum(i * i for i in range(200_000))  # some CPU
    assert x > 0
    m = json.loads((repo / "results" / "toy" / "metrics.json").read_text())
    assert m["acc"] == 0.5
    run = m["run"]
    assert set(run) == {"wall_seconds", "cpu_seconds", "peak_rss_mb", "profile", "cpu_model",
                        "cpu_count", "finished"}
    assert run["profile"] == "smoke" and run["cpu_count"] == os.cpu_count()
    assert run["wall_seconds"] >= 0 and run["cpu_seconds"] > 0 and run["peak_rss_mb"] > 10
    assert not S.backup_dir("toy", repo).exists()
    assert (repo / "figures" / "toy" / "g.png").is_file()


def test_an_exception_puts_the_previous_outputs_back_and_ends_children(repo):
    before = _state(repo)
    child = None
    with pytest.raises(RuntimeError, match="boom"):
        with S.StageRun("toy", repo, quiet=True):
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                                     start_new_session=True)
            _write_new_outputs(repo)
            raise RuntimeError("boom")
    assert _state(repo) == before  # new file removed, deleted one back, partial file gone
    child.wait(timeout=10)  # it would sleep 60 s: killed (psutil reaped it, hence no code)
    assert not psutil.pid_exists(child.pid)
    assert not S.backup_dir("toy", repo).exists()


def test_an_output_that_did_not_exist_before_is_removed_on_failure(repo):
    (repo / "results" / "toy" / "metrics.json").unlink()
    before = _state(repo)
    with pytest.raises(KeyboardInterrupt):
        with S.StageRun("toy", repo, quiet=True):
            (repo / "results" / "toy" / "metrics.json").write_text("{}")
            raise KeyboardInterrupt
    assert _state(repo) == before


STAGE_SCRIPT = textwrap.dedent("""
    import subprocess, sys, time
    from pathlib import Path
    from weaklabel.stagerun import StageRun
    root = Path(sys.argv[1])
    with StageRun("toy", root, quiet=True):
        # like the notebook kernel: its own session, so a process-group kill misses it
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                                 start_new_session=True)
        (root / "child.pid").write_text(str(child.pid))
        (root / "results" / "toy" / "table.csv").write_text("a\\n2\\n")
        (root / "results" / "toy" / ".table.csv.x.partial.csv").write_text("half")
        (root / "figures" / "toy" / "new.png").write_bytes(b"new")
        (root / "started").write_text("1")
        time.sleep(120)
""")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_killed_stage_leaves_the_previous_outputs_and_no_process(repo, sig):
    before = _state(repo)
    p = subprocess.Popen([sys.executable, "-c", STAGE_SCRIPT, str(repo)],
                         start_new_session=True)
    deadline = time.time() + 30
    while not (repo / "started").exists():
        assert time.time() < deadline and p.poll() is None, "the toy stage did not start"
        time.sleep(0.05)
    child = psutil.Process(int((repo / "child.pid").read_text()))
    time.sleep(2 * S.SAMPLE_SECONDS + 0.2)  # the watchdog has seen the child
    os.killpg(p.pid, sig)
    p.wait(timeout=20)
    deadline = time.time() + 20
    while (S.backup_dir("toy", repo) / S.MARKER).exists() and time.time() < deadline:
        time.sleep(0.05)
    assert _state(repo) == before
    psutil.wait_procs([child], timeout=10)
    assert not child.is_running()


def test_a_copy_left_by_a_killed_run_is_restored_first_and_by_the_cli(repo, capsys,
                                                                    monkeypatch):
    before = _state(repo)
    S.save_outputs("toy", ["results/toy/table.csv", "figures/toy",
                           "results/toy/metrics.json"], repo)
    _write_new_outputs(repo)  # what a killed run left
    # the next run starts from the previous outputs, and keeps them aside again
    with pytest.raises(RuntimeError):
        with S.StageRun("toy", repo, quiet=True):
            assert _state(repo) == before
            (repo / "results" / "toy" / "table.csv").write_text("partial")
            raise RuntimeError
    assert _state(repo) == before
    # and by hand
    S.save_outputs("toy", ["results/toy/table.csv"], repo)
    (repo / "results" / "toy" / "table.csv").write_text("partial")
    monkeypatch.chdir(repo)
    assert pipeline_main(["restore", "toy"]) == 0
    assert _state(repo) == before
    assert pipeline_main(["restore", "toy"]) == 2  # nothing left to restore
    assert "nothing to restore" in capsys.readouterr().err
    assert S.interrupted_stages(repo) == []


def test_restore_refuses_while_the_stage_is_running(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    S.save_outputs("toy", ["results/toy/table.csv"], repo)
    marker = S.backup_dir("toy", repo) / S.MARKER
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)",
                             "weaklabel.pipeline", "run", "toy"])
    try:
        marker.write_text(f"{live.pid}\n")
        assert S.running_pid("toy", repo) == live.pid
        assert pipeline_main(["restore", "toy"]) == 2
        assert "still running (process" in capsys.readouterr().err
    finally:
        live.kill()
        live.wait()
    # the run is gone: restoring is allowed again
    assert S.running_pid("toy", repo) is None
    assert pipeline_main(["restore", "toy"]) == 0


def test_bad_stage_and_profile_are_errors_naming_them(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    with pytest.raises(ValueError, match="stage must be one of"):
        S.stage_outputs("nope", repo)
    assert pipeline_main(["run", "toy", "--profile", "bogus"]) == 2
    assert "'bogus' is not a profile" in capsys.readouterr().err
    (repo / "params.yaml").write_text("profile: bogus\n")
    assert pipeline_main(["run", "toy"]) == 2
    assert "params.yaml key `profile`" in capsys.readouterr().err
    assert pipeline_main(["run", "not-a-notebook", "--profile", "smoke"]) == 2
    assert "no stage of dvc.yaml runs" in capsys.readouterr().err
    assert not S.backup_dir("toy", repo).exists()
    assert S.main(["watch"]) == 2


def test_an_output_the_run_did_not_write_fails_the_stage(repo):
    """DVC keeps outputs in place (persist), so a stage that forgets one must not pass it off
    as new: the stage fails, naming it, and the previous outputs come back."""
    time.sleep(0.1)
    before = _state(repo)
    with pytest.raises(S.StageOutputError, match="results/toy/table.csv"):
        with S.StageRun("toy", repo, quiet=True):
            (repo / "figures" / "toy" / "g.png").write_bytes(b"png-new")
    assert _state(repo) == before


def test_stale_files_of_an_output_folder_are_removed_on_success(repo):
    time.sleep(0.1)  # the fixture's files are older than the run
    with S.StageRun("toy", repo, quiet=True):
        (repo / "results" / "toy" / "table.csv").write_text("a\n3\n")
        (repo / "figures" / "toy" / "g.png").write_bytes(b"png-new")
    assert sorted(p.name for p in (repo / "figures" / "toy").iterdir()) == ["g.png"]
    (repo / "results" / "toy" / "table.csv").unlink()
    before = _state(repo)
    with pytest.raises(S.StageOutputError, match="figures/toy"):  # nothing new in the folder
        with S.StageRun("toy", repo, quiet=True):
            (repo / "results" / "toy" / "table.csv").write_text("a\n4\n")
    assert _state(repo) == before
