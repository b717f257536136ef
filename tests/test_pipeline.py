"""The pipeline's failure paths, on a copy of the repository in the `smoke` profile: a bad
parameter is rejected before anything is touched, and a killed stage leaves its committed
outputs in place. (The whole smoke pipeline run twice and compared is `make verify-repro
PROFILE=smoke`, which `.ci/run` runs after `make test`.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import yaml

from weaklabel.reproducibility import copy_worktree, pipeline_env

REPO = Path(__file__).resolve().parents[1]
STAGE = "solvers"  # the cheapest notebook stage


def _outputs(work: Path) -> dict[str, bytes]:
    """Every file under results/, reports/ and figures/ with its bytes."""
    return {p.relative_to(work).as_posix(): p.read_bytes()
            for d in ("results", "reports", "figures") for p in (work / d).rglob("*")
            if p.is_file()}


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A copy of the working tree in the smoke profile with the committed outputs in place."""
    work = copy_worktree(REPO, tmp_path_factory.mktemp("clone") / "repo", profile="smoke")
    files = subprocess.run(["git", "ls-files", "results", "reports", "figures"], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    for f in files:
        (work / f).parent.mkdir(parents=True, exist_ok=True)
        (work / f).write_bytes((REPO / f).read_bytes())
    assert files, "no committed outputs to protect"
    return work


def _set_profile(work: Path, profile: str) -> None:
    params = yaml.safe_load((work / "params.yaml").read_text())
    params["profile"] = profile
    (work / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))


def test_a_bad_profile_touches_nothing_and_names_the_key(work):
    """`profile: bogus`, then the whole `dvc repro`: DVC stops at the first stage that tracks
    `<section>.${profile}` ("Parameters 'solvers.bogus' are missing"), the stage command
    itself names the `profile` key; no file of results/, reports/ or figures/ changes."""
    before = _outputs(work)
    _set_profile(work, "bogus")
    try:
        r = subprocess.run([sys.executable, "-m", "dvc", "repro"], cwd=work,
                           env=pipeline_env(work), capture_output=True, text=True)
        cmd = subprocess.run([sys.executable, "-m", "weaklabel.pipeline", "run", "00_solvers"],
                             cwd=work, env=pipeline_env(work), capture_output=True, text=True)
    finally:
        _set_profile(work, "smoke")
    assert r.returncode != 0
    assert "bogus" in r.stdout + r.stderr
    assert cmd.returncode == 2 and "params.yaml key `profile`" in cmd.stderr, cmd.stderr
    after = _outputs(work)
    # the data stage (no profile) may run first in the copy, which has no dvc.lock: it
    # rewrites its own metrics.json with a new run block; nothing else changes
    volatile = {"results/data/metrics.json"}
    assert {k: v for k, v in after.items() if k not in volatile} == {
        k: v for k, v in before.items() if k not in volatile}


def test_an_unknown_dataset_is_rejected_before_the_stage_runs(work, monkeypatch, capsys):
    """`params.yaml` names a data set the protocol does not know: the stage command stops
    before it touches an output, and the message names the key. (The command's `main` runs
    in this process, in the copy, to spare a fresh interpreter's imports.)"""
    from weaklabel.pipeline import main

    params = yaml.safe_load((work / "params.yaml").read_text())
    old = params["mcls"]["smoke"].get("datasets")
    params["mcls"]["smoke"]["datasets"] = ["no-such-set"]
    (work / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    before = _outputs(work)
    monkeypatch.chdir(work)
    try:
        code = main(["run", "mcls"])
    finally:
        params["mcls"]["smoke"]["datasets"] = old
        if old is None:
            del params["mcls"]["smoke"]["datasets"]
        (work / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    err = capsys.readouterr().err
    assert code == 2, err
    assert "datasets" in err and "no-such-set" in err
    assert not (work / ".weaklabel_cache" / "stages" / "mcls").exists()
    assert _outputs(work) == before


def test_sigkill_of_a_running_stage_keeps_the_previous_outputs(work):
    """`dvc repro -s solvers` is killed (SIGKILL to its whole process group) once the stage
    has started its notebook kernel: the watchdog ends the kernel (its own session, out of
    reach of the group kill), puts the previous outputs back and leaves no temporary file."""
    before = _outputs(work)
    marker = work / ".weaklabel_cache" / "stages" / STAGE / "RUNNING"
    env = pipeline_env(work)
    p = subprocess.Popen([sys.executable, "-m", "dvc", "repro", "-s", "-f", STAGE], cwd=work,
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    kernels: list[psutil.Process] = []
    deadline = time.time() + 90
    while time.time() < deadline and not kernels:
        assert p.poll() is None, p.stdout.read().decode()
        if marker.is_file():
            kernels = [c for c in psutil.Process(p.pid).children(recursive=True)
                       if "ipykernel" in " ".join(c.cmdline())]
        time.sleep(0.2)
    assert kernels, "the stage did not start its kernel within 90 s"
    time.sleep(1.0)  # let the notebook start writing
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    deadline = time.time() + 30
    while time.time() < deadline and marker.exists():
        time.sleep(0.2)
    assert not marker.exists(), "the watchdog did not restore the outputs"
    psutil.wait_procs(kernels, timeout=10)
    assert not any(k.is_running() for k in kernels), "the kernel outlived its stage"
    after = _outputs(work)
    assert after == before
    leftovers = [f for f in after if ".partial" in f]
    assert not leftovers
    log = marker.parent.parent / f"{STAGE}.killed.log"
    assert "previous outputs put back" in log.read_text()


def test_environment_line_names_the_versions_that_move_numbers(monkeypatch):
    import importlib.metadata as md
    import platform

    from weaklabel.pipeline import VERSIONED, environment_line

    real = md.version
    assert environment_line().split(", ") == (
        [f"Python {platform.python_version()}"] + [f"{n} {real(n)}" for n in VERSIONED])

    def version(name):  # scipy is missing
        if name == "scipy":
            raise md.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(md, "version", version)
    parts = environment_line().split(", ")
    assert parts[1 + VERSIONED.index("scipy")] == "scipy NOT INSTALLED"
    assert parts[1 + VERSIONED.index("numpy")] == f"numpy {real('numpy')}"
