"""tools/warm_numba.py (run by `make install`) warms every estimator the tests know."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
from test_sklearn_conformance import ESTIMATOR_CLASSES, MIL_CLASSES

_SPEC = importlib.util.spec_from_file_location(
    "warm_numba", Path(__file__).resolve().parents[1] / "tools" / "warm_numba.py")
warm = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(warm)


def test_warm_discovers_every_estimator_of_the_suite():
    names = {c.__name__ for c in warm._estimators()}
    assert {c.__name__ for c in ESTIMATOR_CLASSES + MIL_CLASSES} <= names


def test_warm_variants_are_read_only_and_float32():
    X = np.ones((4, 2))
    kinds = dict(warm._variants(X))
    assert kinds["float64"].flags.writeable and not kinds["read-only"].flags.writeable
    assert kinds["float32"].dtype == np.float32
    bags = dict(warm._variants([np.ones((2, 2))]))
    assert not bags["read-only"][0].flags.writeable
