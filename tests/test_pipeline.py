"""The whole DVC pipeline runs in the `smoke` profile in a temporary copy of the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def _run(cmd, cwd, env):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def test_dvc_repro_smoke(tmp_path):
    # copy the working tree (tracked + untracked, not ignored): a temporary clone that also
    # sees uncommitted work, so the test checks what is on disk
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.split()
    work = tmp_path / "repo"
    for f in files:
        src = REPO / f
        if src.is_file():
            dst = work / f
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    # pipeline outputs must be regenerated, not copied
    for d in ("results", "reports", "figures"):
        shutil.rmtree(work / d, ignore_errors=True)
    (work / "dvc.lock").unlink(missing_ok=True)
    params = yaml.safe_load((work / "params.yaml").read_text())
    params["profile"] = "smoke"
    (work / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    bindir = str(Path(sys.executable).parent)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
               DVC_NO_ANALYTICS="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    _run(["git", "init", "-q"], work, env)
    _run(["git", "add", "-A"], work, env)
    _run(["git", "commit", "-qm", "snapshot"], work, env)
    dvc = [sys.executable, "-m", "dvc"]
    _run(dvc + ["repro"], work, env)
    status = _run(dvc + ["status"], work, env)
    assert "up to date" in status.lower(), status
    stages = yaml.safe_load((work / "dvc.yaml").read_text())["stages"]
    for stage in stages.values():
        for out in stage.get("outs", []) + stage.get("metrics", []):
            name = out if isinstance(out, str) else next(iter(out))
            assert (work / name).exists(), f"{name} was not produced"
    assert (work / "results" / "summary.md").read_text().count("|") > 10


def test_environment_line_names_the_versions_that_move_numbers():
    from weaklabel.pipeline import VERSIONED, environment_line

    line = environment_line()
    assert line.startswith("Python ")
    for name in VERSIONED:
        assert f"{name} " in line
