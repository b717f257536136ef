"""Each DVC stage declares exactly the `weaklabel` modules it imports and the params it reads
(`python -m weaklabel.pipeline deps`), and a new paper's files leave every stage clean."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from weaklabel import _deps
from weaklabel.reproducibility import pipeline_env

REPO = Path(__file__).resolve().parents[1]
STAGES = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
PLANS = _deps.plan_stages(REPO, STAGES)


def test_dvc_yaml_agrees_with_the_imports():
    """`deps --check` without the runtime part (that is the next test, per stage)."""
    diffs = _deps.check(REPO, runtime=False)
    assert not diffs, ("dvc.yaml disagrees with the imports (python -m weaklabel.pipeline deps "
                       f"--write):\n{json.dumps(diffs, indent=1)}")


@pytest.mark.parametrize("stage", sorted(PLANS))
def test_static_closure_covers_a_fresh_interpreter(stage):
    """Every `weaklabel` module that a fresh interpreter loads when it imports the stage's
    entry module and runs its notebook's imports is in the static closure."""
    assert _deps.runtime_outside(REPO, PLANS[stage]) == []


def test_every_src_dep_is_a_file_and_every_stage_is_planned():
    for name, st in STAGES.items():
        for d in st.get("deps", []):
            if d.startswith("src/"):
                assert (REPO / d).is_file(), f"{name}: {d} is not a file"
    # every stage that runs a weaklabel module is computed, none is skipped silently
    runs = {n for n, st in STAGES.items() if "-m weaklabel." in st["cmd"]}
    assert runs == set(PLANS)


def test_stage_closures_hold_their_paper_only():
    """A paper stage depends on its own paper's modules, not on another paper's."""
    usmo, mcls = set(PLANS["usmo"].files), set(PLANS["mcls"].files)
    assert "src/weaklabel/models/mcls.py" not in usmo
    assert "src/weaklabel/solvers/mcls.py" not in usmo
    assert "src/weaklabel/experiments/mcls.py" not in usmo
    assert "src/weaklabel/solvers/usmo.py" not in mcls
    assert "src/weaklabel/experiments/usmo.py" not in mcls
    assert "src/weaklabel/_deps.py" not in usmo | mcls  # the tool itself is no stage's dep
    assert "src/weaklabel/data/registry.json" in usmo  # package data the data layer reads


def test_params_per_key():
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    for name, plan in PLANS.items():
        for p in plan.params:
            assert not p.startswith("executor"), (name, p)
            assert p.rsplit(".", 1)[-1] not in _deps.NON_RESULT_KEYS, (name, p)
    assert "usmo.lambdas" in PLANS["usmo"].params
    assert "usmo.${profile}" in PLANS["usmo"].params
    assert PLANS["summary"].params == [] and PLANS["data"].params == []
    # DVC resolves `<section>.${profile}`: every section defines every profile
    from weaklabel.pipeline import PROFILES

    for sec in ("solvers", "usmo", "mcls"):
        assert all(isinstance(params[sec].get(p), dict) for p in PROFILES), sec


def test_function_level_and_attribute_imports_are_followed(tmp_path):
    g = _deps.ImportGraph(REPO / "src")
    src = ("import weaklabel.models as M\n"
           "def f():\n"
           "    from weaklabel.solvers import usmo\n"
           "    return M.MCLS, usmo\n")
    mods = g.imports_of_source(src)
    assert {"weaklabel.models", "weaklabel.models.mcls", "weaklabel.solvers",
            "weaklabel.solvers.usmo"} <= mods
    assert "weaklabel.models.usmo" not in mods
    # a lazy package passed on as an object may import any of its submodules
    mods = g.imports_of_source("from weaklabel import models\nprint(dir(models))\n")
    assert {"weaklabel.models.mcls", "weaklabel.models.usmo"} <= mods


def test_rewrite_replaces_folders_and_keeps_other_entries():
    text = (REPO / "dvc.yaml").read_text()
    broken = text.replace("      - src/weaklabel/experiments/usmo.py\n",
                          "      # a hand-written comment\n      - src/weaklabel/models\n", 1)
    assert broken != text
    stages = yaml.safe_load(broken)["stages"]
    assert _deps.stage_differences(stages, PLANS)  # the folder and the missing file
    fixed = _deps.rewrite_dvc_yaml(broken, PLANS)
    assert fixed == text
    assert _deps.rewrite_dvc_yaml(text, PLANS) == text  # idempotent


# --------------------------------------------------------------------------- a new paper
NEW_PAPER = {
    "src/weaklabel/solvers/newpaper.py": '''"""New paper: its solver."""
import numpy as np

__all__ = ["newpaper_solve"]


def newpaper_solve(K, y):
    return np.linalg.solve(K + np.eye(len(y)), y)
''',
    "src/weaklabel/reference/newpaper.py": '''"""New paper: its reference."""
import numpy as np

__all__ = ["newpaper_reference"]


def newpaper_reference(K, y):
    return np.linalg.lstsq(K + np.eye(len(y)), y, rcond=None)[0]
''',
    "src/weaklabel/models/newpaper.py": '''"""New paper: its estimator."""
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from ..solvers.newpaper import newpaper_solve

__all__ = ["NewPaperClassifier"]


class NewPaperClassifier(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        self.X_ = np.asarray(X, float)
        self.coef_ = newpaper_solve(self.X_ @ self.X_.T, np.asarray(y, float))
        return self

    def predict(self, X):
        return np.sign(np.asarray(X, float) @ self.X_.T @ self.coef_)
''',
    "src/weaklabel/experiments/newpaper.py": '''"""New paper: its protocol."""
from ..models.newpaper import NewPaperClassifier
from ..reference.newpaper import newpaper_reference


def run(X, y):
    return NewPaperClassifier().fit(X, y), newpaper_reference(X @ X.T, y)
''',
    "src/weaklabel/published/newpaper.csv":
        "paper,artifact,row,column,value,spread,note\nnewpaper,Table 1,a,b,1.0,,\n",
}


def _copy_repository(dst: Path, env: dict) -> Path:
    """The working tree (tracked and untracked files, not ignored ones; with its results and
    dvc.lock) as a one-commit git repository."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    for f in files:
        if (REPO / f).is_file():
            (dst / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / f, dst / f)
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "copy"]):
        subprocess.run(cmd, cwd=dst, env=env, check=True, capture_output=True)
    return dst


def _dvc(work: Path, env: dict, *args: str) -> str:
    r = subprocess.run([sys.executable, "-m", "dvc", *args], cwd=work, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, f"dvc {' '.join(args)}:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    return r.stdout


def _dvc_status(work: Path, env: dict) -> dict:
    out = _dvc(work, env, "status", "--json").strip()
    return json.loads(out.splitlines()[-1] if out else "{}")


def _record_current_state(work: Path, env: dict) -> None:
    """`dvc commit -f`: dvc.lock of the copy records its deps and outs as they are, so that
    every stage starts clean without running anything (an output this working tree has not
    produced yet is created empty first: only the deps matter here)."""
    for st in STAGES.values():
        for out in st.get("outs", []) + st.get("metrics", []):
            p = work / (out if isinstance(out, str) else next(iter(out)))
            if not p.exists():
                if p.suffix:
                    p.parent.mkdir(parents=True, exist_ok=True)
                    p.write_text("")
                else:
                    p.mkdir(parents=True)
    _dvc(work, env, "commit", "-f", "-q")


@pytest.mark.slow  # about 30 s: a git clone, dvc commit and dvc status (make test-all)
def test_a_new_paper_leaves_every_existing_stage_clean(tmp_path):
    """Adding a paper's solver, reference, model, experiment and published CSV, with its
    estimator importable from `weaklabel.models`, leaves `dvc status` clean for every
    existing stage, and changes no stage's computed deps or params."""
    work = tmp_path / "repo"
    env = pipeline_env(work)
    _copy_repository(work, env)
    _record_current_state(work, env)
    before = _dvc_status(work, env)
    assert before == {}, before
    plans_before = _deps.plan_stages(work)

    for rel, text in NEW_PAPER.items():
        (work / rel).write_text(text)
    probe = ("from weaklabel.models import NewPaperClassifier\n"
             "from weaklabel.solvers import newpaper_solve, usmo\n"
             "from weaklabel.reference import newpaper_reference, solve_qp\n"
             "from weaklabel.models import DoubleHingePU, MCLS\n"
             "from weaklabel.experiments import newpaper\n"
             "import weaklabel.published as P\n"
             "import numpy as np\n"
             "X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1]]); y = np.array([1.0, -1, 1])\n"
             "print(NewPaperClassifier().fit(X, y).predict(X).tolist(), callable(usmo),\n"
             "      'newpaper' in P.PAPERS, len(P.load('newpaper')))\n")
    r = subprocess.run([sys.executable, "-c", probe], cwd=work, env=env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[1.0,", "-1.0,", "1.0]", "True", "True", "1"]

    after = _dvc_status(work, env)
    assert after == {}, after
    plans_after = _deps.plan_stages(work)
    for stage, plan in plans_before.items():
        assert plans_after[stage].files == plan.files, stage
        assert plans_after[stage].params == plan.params, stage
    # and the copy's dvc.yaml still agrees with the imports
    assert _deps.check(work, runtime=False) == {}
