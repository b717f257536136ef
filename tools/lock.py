"""Write ``requirements.lock`` and ``environment.yml`` from ``pyproject.toml`` (``make lock``).

The lock pins every transitive dependency of ``pyproject.toml``'s ``dependencies`` and all
its extras (``reference``, ``pipeline``, ``dask``, ``dev``), with sha256 hashes, for
CPython 3.11 on Linux x86_64 (manylinux_2_28), the platform that produced the committed
results. It is resolved by ``uv pip compile`` against
PyPI. Versions already in the lock are kept as long as ``pyproject.toml`` allows them (uv
reads the existing output file as preferences); releases move only on purpose::

    make lock                          # add/remove what pyproject.toml asks, keep other pins
    make lock UPGRADE=1                # newest allowed release of everything
    make lock UPGRADE_PACKAGES="numpy scipy"

Its header records a sha256 of pyproject's dependency lists (``tests/test_lock.py`` fails
when they change without ``make lock``). ``environment.yml`` (the conda route) is written
from the lock's pins. Standard library only: runs before the package is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = "requirements.lock"
ENVIRONMENT = "environment.yml"
PYTHON_VERSION = "3.11"
PYTHON_PLATFORM = "x86_64-manylinux_2_28"
INDEX_URL = "https://pypi.org/simple"
DIGEST_PREFIX = "# pyproject-dependencies-sha256: "
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


def pyproject_digest(pyproject: str | Path = ROOT / "pyproject.toml") -> str:
    """sha256 of ``requires-python``, ``dependencies`` and every extra (order-free)."""
    project = tomllib.loads(Path(pyproject).read_text())["project"]
    extras = project.get("optional-dependencies", {})
    payload = {
        "requires-python": project.get("requires-python"),
        "dependencies": sorted(project.get("dependencies", [])),
        "extras": {k: sorted(v) for k, v in sorted(extras.items())},
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def recorded_digest(lock: str | Path = ROOT / LOCK) -> str | None:
    """The pyproject digest written in the lock's header (None when it has none)."""
    for line in Path(lock).read_text().splitlines():
        if line.startswith(DIGEST_PREFIX):
            return line[len(DIGEST_PREFIX):].split()[0]
    return None


def canonical(name: str) -> str:
    """PEP 503 name: lower case, runs of ``-_.`` as one ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(path: str | Path) -> dict[str, str]:
    """``{canonical name: version}`` of every ``name==version`` line of a requirements file
    (``requirements.lock``) or of a YAML list item (``environment.yml``'s pip section)."""
    pins = {}
    for line in Path(path).read_text().splitlines():
        m = _PIN.match(line.strip().removeprefix("- ").strip())
        if m:
            pins[canonical(m.group(1))] = m.group(2)
    return pins


def environment_yml(pins: dict[str, str]) -> str:
    lines = [
        f"# Conda route. Generated from {LOCK} by `make lock` (tools/lock.py): do not edit.",
        "# Same versions as the lock; `make install` also checks the lock's hashes.",
        "name: weaklabel",
        "channels:",
        "  - conda-forge",
        "dependencies:",
        f"  - python={PYTHON_VERSION}",
        "  - pip",
        "  - pip:",
        *(f"      - {name}=={version}" for name, version in sorted(pins.items())),
        "      - -e .[all]",
    ]
    return "\n".join(lines) + "\n"


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` unless ``path`` already holds it (keeps the mtime that the Makefile's
    venv stamp depends on)."""
    if path.is_file() and path.read_text() == text:
        return False
    path.write_text(text)
    return True


def compile_lock(upgrade: bool = False, upgrade_packages=(), uv: str | None = None) -> bool:
    """Resolve into ``requirements.lock``; returns whether the file changed."""
    uv = uv or shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    lock = ROOT / LOCK
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / LOCK
        if lock.is_file():
            # uv keeps the versions pinned in its output file (and would keep their hashes
            # too: drop them, so that every hash is read afresh from the index)
            out.write_text("".join(
                re.sub(r"\s*\\$", "", x) + "\n" for x in lock.read_text().splitlines()
                if not x.lstrip().startswith("--hash=")))
        cmd = [uv, "pip", "compile", "pyproject.toml", "--all-extras", "--generate-hashes",
               "--python-version", PYTHON_VERSION, "--python-platform", PYTHON_PLATFORM,
               "--index-url", INDEX_URL, "--custom-compile-command", "make lock",
               "--quiet", "-o", str(out)]
        if upgrade:
            cmd.append("--upgrade")
        for name in upgrade_packages:
            cmd += ["--upgrade-package", name]
        subprocess.run(cmd, cwd=ROOT, check=True)
        lines = [x for x in out.read_text().splitlines() if not x.startswith(DIGEST_PREFIX)]
    # record what the lock was made from, right below uv's header comment
    at = next((i for i, x in enumerate(lines) if not x.startswith("#")), len(lines))
    lines.insert(at, f"{DIGEST_PREFIX}{pyproject_digest(ROOT / 'pyproject.toml')}")
    return write_if_changed(lock, "\n".join(lines) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--upgrade", action="store_true", help="newest allowed releases")
    ap.add_argument("--upgrade-package", action="append", default=[], metavar="NAME")
    ap.add_argument("--environment-only", action="store_true",
                    help=f"only rewrite {ENVIRONMENT} from the existing lock")
    args = ap.parse_args(argv)
    changed = False if args.environment_only else compile_lock(args.upgrade,
                                                               args.upgrade_package)
    pins = read_pins(ROOT / LOCK)
    env_changed = write_if_changed(ROOT / ENVIRONMENT, environment_yml(pins))
    print(f"{LOCK}: {len(pins)} pinned packages, {'updated' if changed else 'unchanged'}; "
          f"{ENVIRONMENT} {'updated' if env_changed else 'unchanged'}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
