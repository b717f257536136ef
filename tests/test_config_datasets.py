"""Every stage's ``config`` refuses a data-set name its protocol cannot load (issue #28: a
misspelt name in ``params.yaml`` was dropped silently from the USMO grid), naming the key
and the known names, and accepts the names ``params.yaml`` gives for every profile.

``tests/test_check_params.py`` checks the same names through ``check_params`` (what the
pipeline runs before a stage); here the function a notebook or a user calls, ``config``,
must refuse them on its own."""

from __future__ import annotations

import copy
import functools
import importlib
from pathlib import Path

import pytest
import yaml

from weaklabel.pipeline import PROFILES, load_params

REPO = Path(__file__).resolve().parents[1]
#: each stage's config function, and every key of its params.yaml section that names data
#: sets (a nested key as a path)
STAGES = {
    "usmo": ("config", ["datasets", "datasets_baselines_seeds", "scaling_sets"]),
    "mcls": ("config", ["datasets", "t4_sets"]),
    "wellsvm": ("config", ["datasets", "fig2.datasets", "tables67.splits.table6",
                           "tables67.splits.table7"]),
    "wellsvm_clustering": ("wellsvm_clustering_config", ["datasets", "table8_sets"]),
    "wellsvm_mil": ("wellsvm_mil_config", ["concepts"]),
    "wellsvm_linear": ("wellsvm_linear_config", ["datasets", "table5_n_points",
                                                 "fig_n_points", "cluster_n_points"]),
    "tsgsu": ("config", ["table4_sets", "table5_sets", "timing_sets", "large_sets",
                         "ablation_sets"]),
}
BAD = "bogusset"


@pytest.fixture(scope="module", autouse=True)
def _libyaml():
    """params.yaml parsed by libyaml's safe loader when PyYAML has it (faster)."""
    if not hasattr(yaml, "CSafeLoader"):
        yield
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(yaml, "safe_load", lambda s: yaml.load(s, Loader=yaml.CSafeLoader))
        yield


@functools.cache
def _params(stage: str, profile: str) -> dict:
    return load_params(stage, profile, root=REPO)


def _config(stage: str):
    return getattr(importlib.import_module(f"weaklabel.experiments.{stage}"), STAGES[stage][0])


def _with_bad_name(cfg: dict, path: str) -> dict:
    """A copy of ``cfg`` whose key ``path`` holds :data:`BAD` beside its names (a list: one
    more entry; a mapping keyed by names: one more key)."""
    cfg = copy.deepcopy(cfg)
    *parents, last = path.split(".")
    node = cfg
    for part in parents:
        node = node.setdefault(part, {})
    old = node.get(last)
    if isinstance(old, dict) and old:
        node[last] = {**old, BAD: next(iter(old.values()))}
    elif isinstance(old, list) and old:
        node[last] = [*old, BAD]
    else:
        node[last] = [BAD]
    return cfg


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("stage", sorted(STAGES))
def test_config_accepts_the_names_of_params_yaml(stage, profile):
    cfg = _config(stage)(copy.deepcopy(_params(stage, profile)))
    assert isinstance(cfg, dict)


@pytest.mark.parametrize("stage, key", [(s, k) for s, (_, keys) in STAGES.items()
                                        for k in keys])
def test_config_refuses_an_unknown_name_naming_the_key(stage, key):
    cfg = _with_bad_name(_params(stage, "default"), key)
    with pytest.raises(ValueError) as err:
        _config(stage)(cfg)
    msg = str(err.value)
    assert key in msg and "unknown" in msg and BAD in msg and "known: " in msg, msg


def test_the_usmo_case_of_the_issue():
    from weaklabel.experiments import usmo

    with pytest.raises(ValueError, match=r"^datasets: unknown dataset 'bogusset'.*known: "
                                         r".*Australian"):
        usmo.config({"datasets": ["Australian", "bogusset"]})
    assert usmo.config({"datasets": ["Australian"]})["datasets"] == ["Australian"]
