"""Shared test fixtures.

The dataset mirror of the tests is ``$WEAKLABEL_DATA_MIRROR`` when it is set (its first
directory holding ``manifest.json``), else ``../shared/datasets`` next to the repository when
it exists (as the Makefile sets it). Tests that need it skip, saying why, when there is none.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "datasets"


def _find_mirror() -> Path | None:
    env = os.environ.get("WEAKLABEL_DATA_MIRROR")
    if env is not None:
        dirs = [Path(p).expanduser() for p in env.split(os.pathsep) if p.strip()]
    else:
        dirs = [SHARED_DATA]
    return next((d for d in dirs if (d / "manifest.json").is_file()), None)


DATA_MIRROR = _find_mirror()
NO_MIRROR_REASON = (
    "no dataset mirror: WEAKLABEL_DATA_MIRROR names no directory holding manifest.json"
    if "WEAKLABEL_DATA_MIRROR" in os.environ else
    "no dataset mirror: WEAKLABEL_DATA_MIRROR is unset and ../shared/datasets (next to the "
    "repository) does not exist; set WEAKLABEL_DATA_MIRROR to the directory of manifest.json"
)
needs_mirror = pytest.mark.skipif(DATA_MIRROR is None, reason=NO_MIRROR_REASON)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture
def data_mirror() -> Path:
    """The dataset mirror directory; skips the test (with the reason) when there is none."""
    if DATA_MIRROR is None:
        pytest.skip(NO_MIRROR_REASON)
    return DATA_MIRROR


@pytest.fixture(scope="session", autouse=True)
def _data_mirror():
    """Point the data layer at the mirror found above when the environment names none."""
    if DATA_MIRROR is not None and "WEAKLABEL_DATA_MIRROR" not in os.environ:
        os.environ["WEAKLABEL_DATA_MIRROR"] = str(DATA_MIRROR)
    yield


def stale_deps(stage: str) -> list[str]:
    """The file deps of ``stage`` in ``dvc.lock`` whose md5 changed since its last run (the
    stage is out of date: ``dvc status`` lists it). Tests that recompute committed results
    with the current code skip, naming the stage to re-run, when this is not empty."""
    import hashlib

    import yaml

    lock = yaml.safe_load((REPO / "dvc.lock").read_text())["stages"].get(stage, {})
    changed = []
    for d in lock.get("deps", []):
        p = REPO / d["path"]
        if "md5" in d and p.is_file() and not d["md5"].endswith(".dir"):
            if hashlib.md5(p.read_bytes()).hexdigest() != d["md5"]:
                changed.append(d["path"])
    return changed


def skip_if_stale(stage: str) -> None:
    """Skip the calling test when ``stage`` is out of date (:func:`stale_deps`)."""
    changed = stale_deps(stage)
    if changed:
        pytest.skip(f"stage {stage} is out of date ({len(changed)} deps changed since its "
                    f"last run, e.g. {changed[0]}): `dvc repro -s {stage}`")


#: single parametrized cases longer than 20 s in a fresh-clone `make test` on the 2-core
#: machine (pytest --durations), marked slow here because their parameter lists are
#: generated (scikit-learn's checks) or shared; `make test-all` runs them
SLOW_CASES = (
    "tests/test_mil.py::test_baseline_learns_toy_and_locates_key[mi-SVM]",       # 34.8 s
    "tests/test_sklearn_conformance.py::test_sklearn_checks"
    "[GMMC(tol=0.001)-check_positive_only_tag_during_fit]",                       # 30.0 s
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid in SLOW_CASES:
            item.add_marker(pytest.mark.slow)
