"""The package installs without the pipeline: a wheel built from this checkout, installed
into a fresh virtual environment with no extras (numpy, scipy, scikit-learn and numba from
the package index), imports every estimator and runs the README's usage blocks that use only
estimators (``tests/test_readme.py`` runs all of them in the full environment). Slow (it
downloads and installs the numerical core): ``make test-all``."""

from __future__ import annotations

import subprocess
import sys
import venv

import pytest
from conftest import REPO
from test_readme import usage_blocks

pytestmark = pytest.mark.slow

#: blocks that need an extra: the data registry (``[pipeline]``) or cvxpy (``[reference]``)
NEEDS_EXTRA = ("weaklabel.data", "SUDH(", "CPMMC(")


def test_wheel_installs_without_extras_and_runs_the_estimator_blocks(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(dist), str(REPO)], check=True)
    wheel = next(dist.glob("weaklabel-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = str(env_dir / "bin" / "python")
    subprocess.run([py, "-m", "pip", "install", "-q", str(wheel)], check=True)
    probe = ("import sys, weaklabel.models as M\n"
             "names = [n for n in M.__all__]\n"
             "[getattr(M, n) for n in names]\n"
             "extra = sorted({'cvxpy', 'pandas', 'matplotlib', 'dvc', 'papermill', 'dask'}\n"
             "               & {m.split('.')[0] for m in sys.modules})\n"
             "print(len(names), extra)\n")
    out = subprocess.run([py, "-c", probe], check=True, capture_output=True, text=True,
                         cwd=tmp_path).stdout
    assert out.strip().endswith("[]"), out
    ran = 0
    for i, code in enumerate(usage_blocks()):
        if any(x in code for x in NEEDS_EXTRA):
            continue
        r = subprocess.run([py, "-c", code], capture_output=True, text=True, cwd=tmp_path)
        assert r.returncode == 0, f"usage block {i} without extras:\n{r.stderr[-2000:]}"
        assert r.stdout.strip()
        ran += 1
    assert ran >= 2
