"""Data-set names in ``params.yaml`` checked before a stage runs: every experiments module's
``check_params`` (the call of :func:`weaklabel.pipeline.check_stage_params`, after the
module's ``config`` where it has one) accepts the committed parameters of every profile and
rejects a name its protocol cannot load, naming the key, the name and the known ones."""

from __future__ import annotations

import copy
import functools
import importlib
import re
from pathlib import Path

import pytest
import yaml

from weaklabel._validation import check_names
from weaklabel.pipeline import PROFILES, load_params

REPO = Path(__file__).resolve().parents[1]
SECTIONS = ("usmo", "mcls", "wellsvm", "tsgsu", "wellsvm_clustering", "wellsvm_mil",
            "wellsvm_linear")
#: every params.yaml key naming data sets, per section (a nested key as a path); a list of
#: names, or a mapping keyed by names
NAME_KEYS = {
    "usmo": ["datasets", "datasets_baselines_seeds", "scaling_sets"],
    "mcls": ["datasets", "t4_sets"],
    "wellsvm": ["datasets", "fig2.datasets", "tables67.splits.table6",
                "tables67.splits.table7"],
    "tsgsu": ["table4_sets", "table5_sets", "timing_sets", "large_sets", "ablation_sets"],
    "wellsvm_clustering": ["datasets", "table8_sets"],
    "wellsvm_mil": ["concepts"],
    "wellsvm_linear": ["datasets", "table5_n_points", "fig_n_points", "cluster_n_points"],
}
BAD = "no-such-set"


@pytest.fixture(scope="module", autouse=True)
def _libyaml():
    """params.yaml parsed by libyaml's safe loader (the same loader, in C) when PyYAML has
    it: 21 parses by the pure-Python one take about 2 s."""
    if not hasattr(yaml, "CSafeLoader"):
        yield
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(yaml, "safe_load", lambda s: yaml.load(s, Loader=yaml.CSafeLoader))
        yield


@functools.cache
def _params(section: str, profile: str) -> dict:
    return load_params(section, profile, root=REPO)


def _check(section: str, cfg: dict) -> None:
    """What check_stage_params runs on the section: ``config`` when the module has one,
    then ``check_params``."""
    mod = importlib.import_module(f"weaklabel.experiments.{section}")
    if hasattr(mod, "config"):
        cfg = mod.config(cfg)
    mod.check_params(cfg)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("section", SECTIONS)
def test_the_committed_params_pass(section, profile):
    _check(section, copy.deepcopy(_params(section, profile)))


def _with_bad_name(cfg: dict, path: str) -> dict:
    """A copy of ``cfg`` whose key ``path`` names :data:`BAD` (in place of its first name,
    or as its only name when it holds none)."""
    cfg = copy.deepcopy(cfg)
    *parents, last = path.split(".")
    node = cfg
    for part in parents:
        node = node.setdefault(part, {})
    old = node.get(last)
    if isinstance(old, dict) and old:
        first = next(iter(old))
        node[last] = {(BAD if k == first else k): v for k, v in old.items()}
    elif isinstance(old, list) and old:
        node[last] = [BAD, *old[1:]]
    else:
        node[last] = [BAD]
    return cfg


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("section, key", [(s, k) for s, keys in NAME_KEYS.items()
                                          for k in keys])
def test_an_unknown_name_is_rejected_naming_the_key(section, key, profile):
    cfg = _with_bad_name(_params(section, profile), key)
    with pytest.raises(ValueError) as err:
        _check(section, cfg)
    msg = str(err.value)
    assert f"{key}:" in msg and repr(BAD) in msg and "known: " in msg, msg


def test_every_name_key_of_params_yaml_is_checked():
    """A key of params.yaml that looks like it names data sets is in :data:`NAME_KEYS`."""
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    pattern = re.compile(r"(^|_)(data)?sets(_|$)|concepts|_n_points$|^table[67]$")
    found = set()

    def walk(node, path):
        for k, v in node.items():
            p = path if k in PROFILES and not path else [*path, str(k)]
            if pattern.search(str(k)):
                found.add(".".join(p))
            elif isinstance(v, dict):
                walk(v, p)

    for section in SECTIONS:
        walk(params[section], [])
        declared = set(NAME_KEYS[section])
        assert found <= declared, (section, sorted(found - declared))
        found.clear()


def test_mcls_message_names_the_key_and_the_set():
    """The message test_pipeline expects from `pipeline run mcls` (before the prefix
    check_stage_params adds)."""
    from weaklabel.experiments import mcls

    cfg = {**_params("mcls", "smoke"), "datasets": [BAD]}
    with pytest.raises(ValueError, match=r"^datasets: unknown dataset 'no-such-set'.*"
                                         r"known: banana, heart, ionosphere, pima"):
        mcls.check_params(mcls.config(cfg))


def test_none_passes_only_where_the_protocol_allows_it():
    from weaklabel.experiments import mcls, usmo

    usmo.check_params(usmo.config({"datasets": None, "datasets_baselines_seeds": None}))
    with pytest.raises(ValueError, match="scaling_sets is None"):
        usmo.check_params({"scaling_sets": None})
    with pytest.raises(ValueError, match="t4_sets is None"):
        mcls.check_params({"t4_sets": None})


def test_check_names():
    assert check_names(["a"], ("a", "b"), "sets") == ["a"]
    assert check_names({"b": 1}, {"a": 0, "b": 1}, "sizes") == ["b"]
    assert check_names(None, ("a",), "sets", allow_none=True) is None
    with pytest.raises(ValueError, match=r"^sets: unknown datasets 'x', 'y', not datasets "
                                         r"of this protocol; known: a, b\.$"):
        check_names(["x", "a", "y"], ("b", "a"), "sets")
    with pytest.raises(ValueError, match=r"^c: unknown concept 'z', not a concept"):
        check_names(["z"], ("castle",), "c", what="concept")
    with pytest.raises(TypeError, match="sets must be a list of dataset names, got str"):
        check_names("a", ("a",), "sets")
    with pytest.raises(TypeError, match="got int"):
        check_names(3, ("a",), "sets")
