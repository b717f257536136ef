"""What a benchmark run was measured on: machine, versions, thread settings and load.

Every benchmark script writes, beside each results file ``<stem>.csv``, a ``<stem>_meta.json``
made by :func:`run_meta` and written by :func:`write_meta`; ``benchmarks/table.py`` reads it
for the machine, load and thread columns of ``benchmarks/README.md``.

The load average at the start of a run is taken when this module is first imported (the
scripts import it at their top, before any work), and again, with the UTC time, whenever
:func:`run_meta` is called (at the end of the run). :func:`mark_start` takes the start
again, for a script that starts its measurements later.

Use from a script in ``benchmarks/<name>/``::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from _meta import run_meta, write_meta  # noqa: E402

    ...  # the benchmark; results written to HERE / "results.csv"
    write_meta(HERE / "results_meta.json", run_meta(extra={"args": vars(args)}))
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

#: the thread settings recorded ("unset" when the variable is not in the environment)
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "NUMBA_NUM_THREADS")
#: the distributions whose versions are recorded
PACKAGES = ("numpy", "scipy", "numba", "scikit-learn")
_REPO = Path(__file__).resolve().parents[1]


def _utc() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _loadavg() -> list[float] | str:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except (AttributeError, OSError):  # not every platform has it
        return "not available"


#: the start of the run: UTC time and load average when this module was imported
START: dict = {"utc": _utc(), "loadavg": _loadavg()}


def mark_start() -> dict:
    """Take the start of the run (UTC time, load average) again, now; returns it."""
    START.update(utc=_utc(), loadavg=_loadavg())
    return dict(START)


def cpu_model(cpuinfo: str | Path = "/proc/cpuinfo") -> str:
    """The first ``model name`` of ``cpuinfo`` (Linux), else ``platform.processor()``, else
    ``"not available"``."""
    try:
        for line in Path(cpuinfo).read_text(errors="replace").splitlines():
            key, sep, value = line.partition(":")
            if sep and key.strip() == "model name" and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or "not available"


def git_commit(repo: str | Path = _REPO) -> dict:
    """``{"commit": <sha or "not available">, "dirty": <bool or None>}`` of ``repo``."""
    try:
        sha = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                             capture_output=True, text=True, timeout=10).stdout.strip()
        status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain",
                                 "--untracked-files=no"], check=True, capture_output=True,
                                text=True, timeout=30).stdout
        return {"commit": sha, "dirty": bool(status.strip())}
    except (OSError, subprocess.SubprocessError):
        return {"commit": "not available", "dirty": None}


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def run_meta(extra: dict | None = None) -> dict:
    """The run's record, taken now: UTC time, git commit, machine (``platform.machine()``,
    the CPU model, ``os.cpu_count()``), Python and package versions, the thread variables
    (``"unset"`` when unset), the load average now (``loadavg``, the 1-, 5- and 15-minute
    averages) and at the start (``loadavg_start``, see :data:`START`). ``extra`` (a dict)
    is merged in last, so it may add keys or replace any of these."""
    if extra is not None and not isinstance(extra, dict):
        raise TypeError(f"extra must be a dict or None, got {type(extra).__name__}.")
    meta = {
        "started_utc": START["utc"],
        "utc": _utc(),
        **git_commit(),
        "machine": platform.machine() or "not available",
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "versions": {p: _version(p) for p in PACKAGES},
        "threads": {v: os.environ.get(v, "unset") for v in THREAD_VARS},
        "loadavg_start": START["loadavg"],
        "loadavg": _loadavg(),
        "argv": list(sys.argv),
    }
    meta.update(extra or {})
    return meta


def load_line(meta: dict) -> str:
    """``"load average A at the start, B at the end"`` (1-minute averages) of a
    :func:`run_meta` record, for the header line of a results ``.md``."""
    def one(v):
        return f"{v[0]:.2f}" if isinstance(v, list) else str(v)
    return (f"load average {one(meta['loadavg_start'])} at the start, "
            f"{one(meta['loadavg'])} at the end")


def repo_relative(obj, repo: str | Path = _REPO):
    """``obj`` with every string or path that points inside ``repo`` written relative to it
    (in dicts, lists and tuples too), so that a committed record names no local folder."""
    if isinstance(obj, dict):
        return {k: repo_relative(v, repo) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [repo_relative(v, repo) for v in obj]
    if isinstance(obj, str | Path):
        text, root = str(obj), str(Path(repo).resolve())
        if text == root:
            return "."
        if text.startswith(root + os.sep):
            return Path(text).relative_to(root).as_posix()
        return obj if isinstance(obj, str) else text
    return obj


def write_meta(path: str | Path, meta: dict) -> Path:
    """Write ``meta`` as JSON to ``path`` atomically (a temporary file in the same folder,
    then ``os.replace``): a reader never sees half a file. Paths inside the repository are
    written relative to it (:func:`repo_relative`); values JSON cannot hold (numpy scalars)
    are written as their ``str``. Returns the path."""
    if not isinstance(meta, dict):
        raise TypeError(f"meta must be a dict (from run_meta), got {type(meta).__name__}.")
    path = Path(path)
    text = json.dumps(repo_relative(meta), indent=1, default=str, ensure_ascii=False) + "\n"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
