"""Compile on first use (weaklabel._numba): importing the package compiles nothing; numba's
cache goes to a user cache folder, never under src/, unless the user chose one; the first
compilation in a process says so once, as a log record (never a warning: the experiments
count a fit's warnings into their results)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import types
from pathlib import Path

from weaklabel import _numba

REPO = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, os, sys
import weaklabel
from weaklabel import kernels, models  # every estimator module (numba imported)
import numba
from numba.core.registry import CPUDispatcher
compiled = sorted(f"{m}.{n}" for m, mod in list(sys.modules.items())
                  if m.startswith("weaklabel") and mod is not None
                  for n, f in vars(mod).items()
                  if isinstance(f, CPUDispatcher) and f.signatures)
before = dict(env=os.environ.get("NUMBA_CACHE_DIR"), config=numba.config.CACHE_DIR,
              compiled=compiled)
if "--fit" in sys.argv:
    import numpy as np
    X = np.arange(6.0).reshape(3, 2)
    kernels.gram(X, X, "gaussian", sigma=1.0)
    kernels.gram(X, X, "linear")
print(json.dumps(before))
"""


def _probe(tmp_path, env_extra: dict, *args) -> tuple[dict, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(HOME=str(tmp_path / "home"), PYTHONPATH=str(REPO / "src"), **env_extra)
    r = subprocess.run([sys.executable, "-c", PROBE, *args], env=env, cwd=tmp_path,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


def test_import_compiles_nothing_and_the_cache_goes_to_the_user_folder(tmp_path):
    before = {p for p in (REPO / "src").rglob("*.nb[ic]")}
    got, err = _probe(tmp_path, {}, "--fit")
    cache = tmp_path / "home" / ".cache" / "weaklabel" / "numba"
    assert got["compiled"] == []  # import weaklabel, kernels, models: nothing compiled
    assert got["env"] == got["config"] == str(cache)
    # the first compilation said so once, naming the folder; it wrote there, not in src/
    assert err.count("compiling numba code on first use") == 1, err
    assert str(cache) in err
    assert any(cache.rglob("*.nbi"))
    assert {p for p in (REPO / "src").rglob("*.nb[ic]")} == before
    # a second process loads the cache: it compiles nothing and says nothing
    _, err2 = _probe(tmp_path, {}, "--fit")
    assert "compiling numba code" not in err2, err2


def test_a_user_numba_cache_dir_is_kept(tmp_path, monkeypatch):
    mine = str(tmp_path / "mine")
    got, _ = _probe(tmp_path, {"NUMBA_CACHE_DIR": mine})
    assert got["env"] == got["config"] == mine
    # in this process too: configure_cache keeps it, and only fills an empty one
    monkeypatch.setenv("NUMBA_CACHE_DIR", mine)
    assert _numba.configure_cache() == mine
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setitem(sys.modules, "numba.core.config",
                        types.SimpleNamespace(CACHE_DIR=mine))
    want = str(tmp_path / "xdg" / "weaklabel" / "numba")
    assert _numba.configure_cache() == want == os.environ["NUMBA_CACHE_DIR"]
    assert sys.modules["numba.core.config"].CACHE_DIR == mine  # numba's own setting kept


def _event(module: str):
    def f():
        pass

    f.__module__ = module
    return types.SimpleNamespace(data={"dispatcher": types.SimpleNamespace(py_func=f)})


def test_the_notice_is_said_once_and_only_for_the_package(monkeypatch, caplog):
    monkeypatch.setitem(_numba._state, "said", False)
    with caplog.at_level(logging.INFO, logger=_numba.LOGGER.name):
        _numba._notice(_event("numba.np.arraymath"))  # must not fire: not ours
        assert not caplog.records
        _numba._notice(_event("weaklabel.solvers.smo"))
        _numba._notice(_event("weaklabel.kernels"))
    assert len(caplog.records) == 1
    assert "(weaklabel.solvers.smo._event.<locals>.f " in caplog.records[0].getMessage()


def test_the_notice_is_no_warning(monkeypatch):
    import warnings

    monkeypatch.setitem(_numba._state, "said", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _numba._notice(_event("weaklabel.kernels"))
    assert caught == []
