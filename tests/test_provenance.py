"""Provenance sidecars (weaklabel.provenance): every figure saved by weaklabel.plots.save has
``<name>.json`` beside it naming its stage, profile, parameters, commit and input checksums;
the commit sits in the ``run`` block that the bit-identical re-run comparison masks."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import yaml  # noqa: E402

from weaklabel import plots, provenance  # noqa: E402
from weaklabel.reproducibility import compare_json  # noqa: E402

REPO = Path(__file__).resolve().parents[1]

DVC = """stages:
  toy:
    cmd: python -m weaklabel.pipeline run toy
    deps:
      - notebooks/toy.ipynb
      - results/data/datasets.csv
      - results/missing.csv
    params:
      - profile
      - toy.seed
      - toy.${profile}
"""


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A small repository: params.yaml with a section per profile, dvc.yaml declaring the
    stage's deps and params, one commit; the current directory is its root."""
    root = tmp_path / "repo"
    (root / "notebooks").mkdir(parents=True)
    (root / "notebooks" / "toy.ipynb").write_text("{}\n")
    (root / "results" / "data").mkdir(parents=True)
    (root / "results" / "data" / "datasets.csv").write_text("dataset\nx\n")
    (root / "results" / "toy").mkdir()
    (root / "results" / "toy" / "curve.csv").write_text("x,y\n1,2\n")
    (root / "params.yaml").write_text(yaml.safe_dump(
        {"profile": "smoke", "toy": {"seed": 3, "n": 10, "smoke": {"n": 2},
                                     "default": {"n": 5}}}))
    (root / "dvc.yaml").write_text(DVC)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "one"]):
        subprocess.run(["git", *cmd], cwd=root, check=True, capture_output=True)
    monkeypatch.chdir(root)
    monkeypatch.delenv(provenance.STAGE_ENV, raising=False)
    monkeypatch.delenv(provenance.PROFILE_ENV, raising=False)
    return root


@pytest.fixture
def fig():
    f, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [1, 0])
    yield f
    plt.close(f)


def test_save_writes_a_sidecar_naming_stage_profile_params_commit_and_inputs(repo, fig):
    paths = plots.save(fig, "toy", "curve", inputs=["results/toy/curve.csv"])
    side = repo / "figures" / "toy" / "curve.json"
    assert sorted(p.name for p in side.parent.iterdir()) == ["curve.json", "curve.pdf",
                                                            "curve.png"]
    s = json.loads(side.read_text())
    assert s["figure"] == "curve" and s["stage"] == "toy" and s["profile"] == "smoke"
    assert s["files"] == {p.name: _sha(p) for p in paths}
    # the section's values for the run's profile (the profile's keys override the shared)
    assert s["params"] == {"toy": {"seed": 3, "n": 2, "profile": "smoke"}}
    # every existing dep of the stage and the named result file, with their sha256; a dep
    # that does not exist is left out
    want = ["notebooks/toy.ipynb", "results/data/datasets.csv", "results/toy/curve.csv"]
    assert list(s["inputs"]) == want
    assert s["inputs"] == {p: _sha(repo / p) for p in want}
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True,
                          text=True, check=True).stdout.strip()
    # the figures written since are not inputs: only the inputs decide "dirty"
    assert s["run"] == {"commit": head, "dirty": False}


def test_the_pipeline_environment_names_stage_and_profile(repo, fig, monkeypatch):
    monkeypatch.setenv(provenance.STAGE_ENV, "toy")
    monkeypatch.setenv(provenance.PROFILE_ENV, "default")
    plots.save(fig, "toy", "g", formats=("png",))
    s = json.loads((repo / "figures" / "toy" / "g.json").read_text())
    assert s["profile"] == "default" and s["params"]["toy"]["n"] == 5


def test_an_edited_input_marks_the_run_dirty(repo, fig):
    plots.save(fig, "toy", "a", formats=("png",))
    assert json.loads((repo / "figures" / "toy" / "a.json").read_text())["run"]["dirty"] \
        is False
    (repo / "notebooks" / "toy.ipynb").write_text('{"edited": 1}\n')
    plots.save(fig, "toy", "a", formats=("png",))
    s = json.loads((repo / "figures" / "toy" / "a.json").read_text())
    assert s["run"]["dirty"] is True
    assert s["inputs"]["notebooks/toy.ipynb"] == _sha(repo / "notebooks" / "toy.ipynb")


def test_two_runs_differ_only_in_the_masked_run_block(repo, fig, tmp_path):
    plots.save(fig, "toy", "a", formats=("png",))
    side = repo / "figures" / "toy" / "a.json"
    first = json.loads(side.read_text())
    second = dict(first, run={"commit": "0" * 40, "dirty": True})
    other = tmp_path / "other.json"
    other.write_text(json.dumps(second))
    assert compare_json(side, other, "figures/toy/a.json") == []
    # must not fire: a parameter that differs is a difference
    other.write_text(json.dumps(dict(second, params={"toy": {"seed": 4}})))
    assert compare_json(side, other, "figures/toy/a.json")


def test_outside_a_repository_the_sidecar_names_what_it_knows(tmp_path, fig, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(provenance.STAGE_ENV, raising=False)
    monkeypatch.delenv(provenance.PROFILE_ENV, raising=False)
    plots.save(fig, "p", "f", root=tmp_path / "figs", formats=("png",))
    s = json.loads((tmp_path / "figs" / "p" / "f.json").read_text())
    assert s["stage"] == "p" and s["profile"] is None
    assert s["params"] == {} and s["inputs"] == {} and s["run"] == {}


def _outs(spec: dict) -> list[str]:
    return [o if isinstance(o, str) else next(iter(o)) for o in spec.get("outs", [])]


def test_dvc_declares_every_figure_sidecar():
    """A stage that lists its figures one by one lists their sidecars too; a stage whose
    figures folder is one output covers them."""
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    checked = 0
    for name, spec in stages.items():
        outs = _outs(spec)
        for o in outs:
            if o.startswith("figures/") and o.endswith(".png"):
                side = o[:-4] + ".json"
                covered = side in outs or any(side.startswith(d.rstrip("/") + "/")
                                              for d in outs)
                assert covered, f"stage {name}: {side} is not an output"
                checked += 1
    assert checked
