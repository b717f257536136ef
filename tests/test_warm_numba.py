"""tools/warm_numba.py (run by `make install`) warms every estimator the tests know."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import numpy as np
import pytest
from test_sklearn_conformance import ESTIMATOR_CLASSES, MIL_CLASSES

from weaklabel._inventory import discover, family

_SPEC = importlib.util.spec_from_file_location(
    "warm_numba", Path(__file__).resolve().parents[1] / "tools" / "warm_numba.py")
warm = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(warm)


def test_discovery_of_all_is_the_suites_estimators_and_nothing_else():
    # the warm-up fits discover(); the suite tests discover("sklearn") and discover("mil")
    names = [c.__name__ for c in discover()]
    assert sorted(c.__name__ for c in ESTIMATOR_CLASSES + MIL_CLASSES) == names
    with pytest.raises(ValueError, match="kind"):
        discover("clusterers")


def test_warm_has_a_problem_of_its_family_for_every_estimator():
    for cls in discover():
        est = cls(prior=0.7) if "prior" in inspect.signature(cls).parameters else cls()
        X, t = warm._problem(est)
        assert len(X) >= 16, cls.__name__
        if family(est) == "clustering":
            assert t is None
        else:
            assert len(t) == len(X), cls.__name__


def test_family_refuses_a_class_of_no_family():
    with pytest.raises(TypeError, match="no weak-label family"):
        family(object)


def test_warm_variants_are_read_only_and_float32():
    X = np.ones((4, 2))
    kinds = dict(warm._variants(X))
    assert kinds["float64"].flags.writeable and not kinds["read-only"].flags.writeable
    assert kinds["float32"].dtype == np.float32
    bags = dict(warm._variants([np.ones((2, 2))]))
    assert not bags["read-only"][0].flags.writeable
