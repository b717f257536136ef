"""Provenance sidecars: beside every saved figure, what made it.

:func:`weaklabel.plots.save` writes ``figures/<stage>/<name>.json`` beside
``<name>.png`` / ``<name>.pdf`` (atomically, :mod:`weaklabel._io`)::

    {"figure": "<name>",
     "files": {"<name>.png": "<sha256>", "<name>.pdf": "<sha256>"},
     "stage": "<stage>", "profile": "<profile>",
     "params": {"<section>": {<the section's values for the profile>}},
     "inputs": {"<path>": "<sha256>", ...},
     "run": {"commit": "<git commit>", "dirty": false}}

``params`` holds the ``params.yaml`` sections the stage declares in ``dvc.yaml``, with the
values of the run's profile (:func:`weaklabel.pipeline.load_params`); ``inputs`` the sha256
of every file the stage depends on in ``dvc.yaml`` (its notebook, its data, the package
modules it imports) and of the result files the figure was drawn from when the caller names
them. The git commit (and whether the stage's inputs differ from it) changes between two
runs of the same inputs, so it sits in the ``run`` block, which the bit-identical re-run
comparison masks (:data:`weaklabel.reproducibility.VOLATILE`), as in ``metrics.json``.

The stage and profile come from :data:`STAGE_ENV` and :data:`PROFILE_ENV`, which
:func:`weaklabel.pipeline.run_notebook` sets for the notebook's kernel; outside the pipeline
the stage is the figure's folder and the profile the ``profile`` key of ``params.yaml``.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

__all__ = ["STAGE_ENV", "PROFILE_ENV", "RUN_BLOCK", "SIDECAR_SUFFIX", "sha256_path",
           "stage_inputs", "stage_params", "git_state", "figure_provenance", "write_sidecar",
           "sidecar_path"]

#: environment variables naming the running stage and its profile
STAGE_ENV = "WEAKLABEL_STAGE"
PROFILE_ENV = "WEAKLABEL_PROFILE"
#: the sidecar's block of values that differ between two runs of the same inputs
RUN_BLOCK = "run"
SIDECAR_SUFFIX = ".json"


def sidecar_path(figure) -> Path:
    """``figures/<stage>/<name>.json`` for a figure saved as ``<name>.png`` (or without
    suffix)."""
    return Path(figure).with_suffix(SIDECAR_SUFFIX)


def sha256_path(path) -> str:
    """sha256 of a file, or of a folder (its files' relative paths and contents, sorted)."""
    path = Path(path)
    h = hashlib.sha256()
    if path.is_dir():
        for f in sorted(p for p in path.rglob("*") if p.is_file()):
            h.update(f.relative_to(path).as_posix().encode() + b"\0")
            h.update(sha256_path(f).encode())
        return h.hexdigest()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _stage_spec(stage: str, root: Path) -> dict:
    from .pipeline import read_yaml

    f = root / "dvc.yaml"
    return (read_yaml(f).get("stages", {}).get(stage, {}) if f.is_file() else {}) or {}


def stage_inputs(stage: str, root, extra: Iterable = ()) -> dict[str, str]:
    """``{path: sha256}`` of the stage's ``dvc.yaml`` deps that exist and of ``extra``
    (paths relative to ``root`` or absolute inside it), sorted by path."""
    root = Path(root)
    paths = [d if isinstance(d, str) else next(iter(d))
             for d in _stage_spec(stage, root).get("deps", [])]
    out = {}
    for p in [*paths, *extra]:
        q = Path(p) if Path(p).is_absolute() else root / p
        if q.exists():
            try:
                rel = q.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                rel = str(q)
            out[rel] = sha256_path(q)
    return dict(sorted(out.items()))


def stage_params(stage: str, profile: str | None, root) -> dict:
    """``{section: values}`` for every ``params.yaml`` section the stage declares in
    ``dvc.yaml`` (else the section named like the stage), with ``profile``'s values."""
    from .pipeline import load_params, read_yaml

    root = Path(root)
    if not (root / "params.yaml").is_file():
        return {}
    declared = [k if isinstance(k, str) else next(iter(k))
                for k in _stage_spec(stage, root).get("params", [])]
    sections = list(dict.fromkeys(k.split(".", 1)[0] for k in declared if "." in k))
    available = read_yaml(root / "params.yaml") or {}
    if not sections and isinstance(available.get(stage), dict):
        sections = [stage]
    return {s: load_params(s, profile, root) for s in sections
            if isinstance(available.get(s), dict)}


def git_state(root, paths: Iterable[str] = ()) -> dict:
    """``{"commit": HEAD, "dirty": whether any of paths differs from it}``; None for what
    git cannot tell (no git, not a repository)."""
    def git(*args):
        try:
            r = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                               timeout=30)
        except (OSError, subprocess.SubprocessError):
            return None
        return r.stdout if r.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    paths = list(paths)
    status = git("status", "--porcelain", "--untracked-files=no", "--", *paths) if paths \
        else None
    return {"commit": commit.strip() if commit else None,
            "dirty": None if status is None else bool(status.strip())}


def figure_provenance(files: Iterable, stage: str, profile: str | None = None,
                      root=None, inputs: Iterable = ()) -> dict:
    """The sidecar of a figure saved as ``files`` (module docstring). ``root`` is the
    repository (default: the one above the current directory); without one, ``params``,
    ``inputs`` and ``run`` are empty."""
    from .pipeline import read_yaml, repo_root

    files = [Path(f) for f in files]
    stage = os.environ.get(STAGE_ENV) or stage
    try:
        root = repo_root(root)
    except FileNotFoundError:
        root = None
    if profile is None:
        profile = os.environ.get(PROFILE_ENV) or (
            (read_yaml(root / "params.yaml") or {}).get("profile") if root else None)
    out = {"figure": files[0].stem if files else "",
           "files": {f.name: sha256_path(f) for f in files if f.is_file()},
           "stage": stage, "profile": profile}
    if root is None:
        return {**out, "params": {}, "inputs": {}, RUN_BLOCK: {}}
    ins = stage_inputs(stage, root, inputs)
    return {**out, "params": stage_params(stage, profile, root), "inputs": ins,
            RUN_BLOCK: git_state(root, ins)}


def write_sidecar(files: Iterable, stage: str, profile: str | None = None, root=None,
                  inputs: Iterable = ()) -> Path:
    """Write :func:`figure_provenance` beside the figure (:func:`sidecar_path`),
    atomically; returns its path."""
    from ._io import write_json

    files = [Path(f) for f in files]
    if not files:
        raise ValueError("a sidecar describes a saved figure: no file given.")
    return write_json(figure_provenance(files, stage, profile, root, inputs),
                      sidecar_path(files[0]))
