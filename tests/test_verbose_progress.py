"""``verbose`` of the clustering and multi-instance estimators: ``verbose=True`` prints
progress, and the fitted model is bit-identical to ``verbose=False`` (which prints nothing)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from weaklabel._inventory import family_problem, mil_problem
from weaklabel.models.clustering import CPMMC, GMMC, AlignedKMeans, IterSVR, KernelKMeans
from weaklabel.models.mil import EMDD, MISVM, DiverseDensity, MiSVM


def _blobs(n=30, seed=0):
    return family_problem("clustering", n, d=2, seed=seed, shift=2.5)[0]


def _bags(n_bags=8, m=3, d=2, seed=0):
    return mil_problem(n_bags, m, d, seed, shift=4.0)


CLUSTERING = [
    KernelKMeans(n_init=2, random_state=0),
    AlignedKMeans(random_state=0),
    IterSVR(random_state=0),
    CPMMC(random_state=0, max_iter=3),
    GMMC(),
]
MIL = [
    MiSVM(max_iter=5),
    MISVM(max_iter=5),
    DiverseDensity(n_starts=3, max_iter=30, random_state=0),
    EMDD(n_starts=3, max_em_iter=3, max_iter=30, random_state=0),
]


def _fitted_state(est):
    """Every fitted attribute (trailing underscore) except wall times and result objects
    (which hold wall times); the result objects' other fields are compared separately."""
    out = {}
    for k, v in vars(est).items():
        if not k.endswith("_") or k.startswith("_") or "seconds" in k:
            continue
        if dataclasses.is_dataclass(v):
            for f in dataclasses.fields(v):
                if f.name != "seconds":
                    out[f"{k}.{f.name}"] = getattr(v, f.name)
        else:
            out[k] = v
    return out


def _same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
    if isinstance(a, float) and np.isnan(a):
        return isinstance(b, float) and np.isnan(b)
    if hasattr(a, "__dict__") and not isinstance(a, type):  # e.g. a Kernel object
        return type(a) is type(b) and _same(vars(a), vars(b))
    return a == b


def _check(est, args, capfd):
    assert est.get_params()["verbose"] is False
    quiet = type(est)(**{**est.get_params(), "verbose": False}).fit(*args)
    assert capfd.readouterr().out == ""
    loud = type(est)(**{**est.get_params(), "verbose": True}).fit(*args)
    out = capfd.readouterr().out
    assert out.strip(), f"{type(est).__name__}(verbose=True) printed nothing"
    a, b = _fitted_state(quiet), _fitted_state(loud)
    assert a.keys() == b.keys()
    for k in a:
        assert _same(a[k], b[k]), f"{type(est).__name__}.{k} differs with verbose=True"


@pytest.mark.parametrize("est", CLUSTERING, ids=lambda e: type(e).__name__)
def test_clustering_verbose_prints_and_changes_nothing(est, capfd):
    _check(est, (_blobs(20 if isinstance(est, GMMC) else 30),), capfd)


@pytest.mark.filterwarnings("ignore::weaklabel.models.exceptions.OneClassPredictionWarning")
@pytest.mark.parametrize("est", MIL, ids=lambda e: type(e).__name__)
def test_mil_verbose_prints_and_changes_nothing(est, capfd):
    _check(est, _bags(), capfd)


def test_verbose_documented():
    for est in CLUSTERING + MIL:
        assert "verbose : bool, default=False" in type(est).__doc__, type(est).__name__
