"""requirements.lock agrees with pyproject.toml, environment.yml and the installed packages."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from weaklabel.pipeline import VERSIONED

REPO = Path(__file__).resolve().parents[1]
LOCK = REPO / "requirements.lock"
RUN_MAKE_LOCK = "run `make lock` (and commit requirements.lock and environment.yml)"


def _tools_lock():
    spec = importlib.util.spec_from_file_location("_weaklabel_tools_lock",
                                                  REPO / "tools" / "lock.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


lock = _tools_lock()


def _pyproject_requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    # the self-references (weaklabel[reference] in pipeline, all) are the package itself
    return [Requirement(r) for r in reqs if Requirement(r).name != project["name"]]


def _target_environment() -> dict:
    """The lock's target: CPython 3.11 on Linux x86_64."""
    env = default_environment()
    env.update(python_version="3.11", python_full_version="3.11.0", sys_platform="linux",
               platform_system="Linux", platform_machine="x86_64", os_name="posix",
               implementation_name="cpython", platform_python_implementation="CPython")
    return env


def test_lock_records_the_current_pyproject_dependencies():
    recorded = lock.recorded_digest(LOCK)
    assert recorded is not None, f"{LOCK.name} has no '{lock.DIGEST_PREFIX.strip()}' line: " \
                                 f"{RUN_MAKE_LOCK}."
    assert recorded == lock.pyproject_digest(REPO / "pyproject.toml"), (
        f"pyproject.toml's dependencies changed since {LOCK.name} was made: {RUN_MAKE_LOCK}.")


def test_every_pyproject_requirement_is_pinned_in_the_lock_within_its_specifier():
    pins = lock.read_pins(LOCK)
    env = _target_environment()
    problems = []
    for req in _pyproject_requirements():
        if req.marker is not None and not req.marker.evaluate(env):
            continue
        name = canonicalize_name(req.name)
        if name not in pins:
            problems.append(f"{req} is not in {LOCK.name}")
        elif not req.specifier.contains(pins[name], prereleases=True):
            problems.append(f"{req} is not satisfied by the lock's {name}=={pins[name]}")
    assert not problems, "; ".join(problems) + f": {RUN_MAKE_LOCK}."


def test_every_lock_entry_is_pinned_with_hashes():
    text = LOCK.read_text()
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 1)[1])
    unhashed = [b.split()[0] for b in blocks if "==" in b.split("\n", 1)[0]
                and "--hash=sha256:" not in b]
    assert not unhashed, f"entries without hashes: {unhashed}: {RUN_MAKE_LOCK}."
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            assert re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[^\]]*\])?==\S+ \\$", line), line


def test_environment_yml_pins_equal_the_lock():
    env_pins = lock.read_pins(REPO / "environment.yml")
    lock_pins = lock.read_pins(LOCK)
    assert env_pins == lock_pins, (
        "environment.yml is generated from the lock and differs from it "
        f"(only in environment.yml: {sorted(set(env_pins.items()) - set(lock_pins.items()))}; "
        f"only in the lock: {sorted(set(lock_pins.items()) - set(env_pins.items()))}): "
        f"{RUN_MAKE_LOCK}.")
    assert "python=3.11" in (REPO / "environment.yml").read_text()


def test_environment_yml_is_what_make_lock_writes():
    assert (REPO / "environment.yml").read_text() == lock.environment_yml(
        lock.read_pins(LOCK)), f"environment.yml was edited by hand: {RUN_MAKE_LOCK}."


def test_installed_numerical_packages_are_the_locked_versions():
    # make test installs from the lock: a mismatch means an environment that can move the
    # numbers (a different solver or BLAS release), not a flaky test
    pins = lock.read_pins(LOCK)
    problems = []
    for name in VERSIONED:
        locked = pins.get(canonicalize_name(name))
        assert locked is not None, f"{name} (weaklabel.pipeline.VERSIONED) is not in the lock"
        try:
            installed = version(name)
        except PackageNotFoundError:
            installed = "not installed"
        if installed != locked:
            problems.append(f"{name} {installed} installed, {locked} locked")
    assert not problems, ("; ".join(problems) + ": install the lock (`make install`, or "
                          "`pip install --require-hashes --no-deps -r requirements.lock`).")


def test_lock_pins_the_versions_that_produced_the_committed_results():
    summary = (REPO / "results" / "summary.md").read_text()
    line = next((x for x in summary.splitlines() if x.startswith("Environment of")), None)
    if line is None:
        pytest.skip("results/summary.md has no environment line")
    # "..., numpy 2.4.6, scipy 1.17.1, ..., pandas 3.1.1."
    made_with = {canonicalize_name(n): v.rstrip(".")
                 for n, v in re.findall(r"([A-Za-z][A-Za-z0-9._-]*) (\d[^,\s]*)", line)}
    pins = lock.read_pins(LOCK)
    problems = []
    for name in VERSIONED:
        used = made_with.get(canonicalize_name(name))
        if used != pins.get(canonicalize_name(name)):
            problems.append(f"results/ were made with {name} {used}, the lock pins "
                            f"{pins.get(canonicalize_name(name))}")
    assert not problems, ("; ".join(problems) + ": after moving a release on purpose, re-run "
                          "the pipeline (`make reproduce REPRO_FLAGS=-f`) and review "
                          "`git diff results/`.")
    assert re.search(r"Python 3\.11\.", line), line
