"""Source notebooks are committed without outputs; each has a `parameters` cell with `profile`."""

import json
import re
from pathlib import Path

import pytest
import yaml

from weaklabel.pipeline import clean_notebook, load_params

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def test_one_notebook_per_run_stage():
    """Every ``pipeline run NAME`` stage of dvc.yaml has ``notebooks/NAME.ipynb`` and every
    notebook is run by exactly one stage."""
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    run = [m.group(1) for s in stages.values()
           for m in [re.search(r"weaklabel\.pipeline run (\S+)", s.get("cmd", ""))] if m]
    assert len(run) == len(set(run)), f"a notebook is run by two stages: {sorted(run)}"
    assert {"00_solvers", "usmo", "mcls"} <= set(run)
    assert {p.stem for p in NOTEBOOKS} == set(run)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_no_outputs(path):
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            assert not cell.get("outputs"), f"{path.name} cell {i} has outputs; strip them"
            assert cell.get("execution_count") is None, f"{path.name} cell {i} has a count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_code_compiles_without_warnings(path):
    """Every code cell compiles with warnings as errors: an executed report must hold no
    stderr, and e.g. a LaTeX ``\\s`` in a non-raw f-string warns (and ``\\r`` in one silently
    becomes a carriage return)."""
    import warnings
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        src = "\n".join(line for line in src.splitlines()
                        if not line.lstrip().startswith(("%", "!")))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(src, f"{path.name}[cell {i}]", "exec")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_parameters_cell(path):
    nb = json.loads(path.read_text())
    tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1 and "profile" in "".join(tagged[0]["source"])


def test_params_profiles():
    for profile in ("smoke", "default", "large"):
        p = load_params("solvers", profile, root=REPO)
        assert p["profile"] == profile and p["sizes"]
    with pytest.raises(ValueError, match="profile must be one of"):
        load_params("solvers", "huge", root=REPO)
    with pytest.raises(ValueError, match="no section"):
        load_params("nope", "smoke", root=REPO)


def test_clean_notebook_strips_timings():
    nb = {"metadata": {"papermill": {"start_time": "t", "duration": 1.0, "parameters": {}}},
          "cells": [{"metadata": {"execution": {"iopub": 1},
                                  "papermill": {"duration": 2.0, "status": "completed"}}}]}
    out = clean_notebook(nb)
    assert out["metadata"]["papermill"] == {"parameters": {}}
    assert out["cells"][0]["metadata"] == {"papermill": {}}
