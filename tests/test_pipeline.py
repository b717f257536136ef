"""The whole DVC pipeline runs twice in the `smoke` profile, in temporary copies of the
repository, and the two runs agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from weaklabel.reproducibility import (
    compare_trees,
    copy_worktree,
    format_differences,
    pipeline_env,
    run_pipeline,
)

REPO = Path(__file__).resolve().parents[1]


def _run(cmd, cwd, env):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def test_dvc_repro_smoke(tmp_path):
    """The smoke pipeline runs twice, each time in a fresh copy of the working tree (tracked +
    untracked, not ignored: it sees uncommitted work, so the test checks what is on disk),
    and the second run's results equal the first's bit for bit, timing and memory columns
    masked (what `make verify-repro` does)."""
    runs = []
    for name in ("first", "second"):
        work = copy_worktree(REPO, tmp_path / name, profile="smoke")
        env = pipeline_env(work)
        run_pipeline(work, force=True, env=env)
        runs.append(work)
        if name == "first":
            status = _run([sys.executable, "-m", "dvc", "status"], work, env)
            assert "up to date" in status.lower(), status
            stages = yaml.safe_load((work / "dvc.yaml").read_text())["stages"]
            for stage in stages.values():
                for out in stage.get("outs", []) + stage.get("metrics", []):
                    out = out if isinstance(out, str) else next(iter(out))
                    assert (work / out).exists(), f"{out} was not produced"
            assert (work / "results" / "summary.md").read_text().count("|") > 10
    diffs = compare_trees(*runs)
    assert not diffs, "two smoke runs differ:\n" + format_differences(diffs, limit=20)


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
