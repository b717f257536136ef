"""Registry look-up and checksum-verified fetching of dataset files.

A file is looked up in this order (also described in the README, section "Data"):

1. the local cache, ``$WEAKLABEL_DATA_DIR`` or, when unset, ``pooch.os_cache("weaklabel")``;
   the file lives at ``<cache>/<dataset>/<file>``;
2. each directory of ``$WEAKLABEL_DATA_MIRROR`` (colon-separated), at
   ``<mirror>/<dataset>/<file>``: the file is copied into the cache by :func:`pooch.retrieve`
   with a downloader that copies from the mirror;
3. the pinned upstream URL, downloaded by :func:`pooch.retrieve` (skipped when
   ``download=False`` or ``$WEAKLABEL_DATA_OFFLINE=1``).

The sha256 is checked whenever a file enters the cache (by pooch) **and** every time a
cached file is used: a cached file whose hash does not match is an error
(:class:`ChecksumError`), never silently re-used nor silently replaced.

Gzip-stored text files (``a9a.gz`` ...) are plain text upstream; a download caches the
plain file under its upstream name, verified against the upstream sha256 (see
:mod:`weaklabel.data._make_registry`). Readers accept either form.
"""

from __future__ import annotations

import difflib
import json
import logging
import os
import shutil
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pooch

__all__ = [
    "ChecksumError",
    "DataFileNotFoundError",
    "VerifyReport",
    "VerifyResult",
    "cache_dir",
    "dataset_info",
    "fetch",
    "is_cached",
    "list_datasets",
    "mirror_dirs",
    "verify",
]

ENV_CACHE = "WEAKLABEL_DATA_DIR"
ENV_MIRROR = "WEAKLABEL_DATA_MIRROR"
ENV_OFFLINE = "WEAKLABEL_DATA_OFFLINE"
CACHE_FILE_MODE = 0o644
CLI = "python -m weaklabel.data"


class ChecksumError(ValueError):
    """A file's sha256 differs from the registry: names the file and both hashes."""


class DataFileNotFoundError(FileNotFoundError):
    """A registered file is in no cache, no mirror, and could not be downloaded."""


@cache
def _registry() -> dict[str, dict[str, Any]]:
    text = resources.files("weaklabel.data").joinpath("registry.json").read_text()
    return json.loads(text)["datasets"]


def list_datasets() -> list[str]:
    """Names of every registered dataset, sorted.

    Returns
    -------
    list of str
        Registry names, e.g. ``"usmo-australian"``; pass one to :func:`load` or :func:`fetch`.
    """
    return sorted(_registry())


def dataset_info(name: str) -> dict[str, Any]:
    """The registry record of one dataset (a copy).

    Parameters
    ----------
    name : str
        Registry name.

    Returns
    -------
    dict
        Keys ``name, description, files, parser, task, positive, positive_reason, usmo_pi,
        verified, canonical_source, license, used_by, status, notes``.

    Raises
    ------
    ValueError
        If ``name`` is not registered; the message lists close matches.
    """
    reg = _registry()
    if not isinstance(name, str) or name not in reg:
        close = difflib.get_close_matches(str(name), list(reg), n=5, cutoff=0.5)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise ValueError(
            f"name={name!r} is not a registered dataset.{hint} "
            "Run `python -m weaklabel.data list` for all names."
        )
    return json.loads(json.dumps(reg[name]))


def cache_dir() -> Path:
    """The cache root: ``$WEAKLABEL_DATA_DIR`` or ``pooch.os_cache("weaklabel")``."""
    env = os.environ.get(ENV_CACHE)
    return Path(env).expanduser() if env else Path(pooch.os_cache("weaklabel"))


def mirror_dirs() -> list[Path]:
    """The mirror directories of ``$WEAKLABEL_DATA_MIRROR`` (colon-separated), in order."""
    env = os.environ.get(ENV_MIRROR, "")
    return [Path(p).expanduser() for p in env.split(os.pathsep) if p.strip()]


def _offline() -> bool:
    return os.environ.get(ENV_OFFLINE, "").strip().lower() in {"1", "true", "yes"}


def _sha256(path: Path) -> str:
    return pooch.file_hash(str(path), alg="sha256")


def _check_cached(path: Path, expected: str, dataset: str) -> None:
    actual = _sha256(path)
    if actual != expected:
        raise ChecksumError(
            f"{dataset}/{path.name}: sha256 mismatch of the cached file {path}: expected "
            f"{expected}, got {actual}. The file is corrupted or was replaced; delete it, "
            f"then run `python -m weaklabel.data fetch {dataset}` for a fresh copy."
        )


class _MirrorCopy:
    """A pooch downloader that copies a file from a local mirror directory."""

    def __init__(self, source: Path) -> None:
        self.source = source

    def __call__(self, url: str, output_file: Any, pooch_obj: Any) -> None:
        if hasattr(output_file, "write"):
            with open(self.source, "rb") as src:
                shutil.copyfileobj(src, output_file)
        else:
            shutil.copyfile(self.source, output_file)


def _candidates(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """(file name, sha256) pairs under which a registry file may be stored."""
    out = [(rec["name"], rec["sha256"])]
    if rec.get("original"):
        out.append((rec["original"]["name"], rec["original"]["sha256"]))
    return out


def _retrieve(url: str, sha: str, fname: str, path: Path, downloader: Any,
              dataset: str, source: str) -> Path:
    logger = pooch.get_logger()
    level = logger.level
    if isinstance(downloader, _MirrorCopy):  # a local copy is not worth an INFO line
        logger.setLevel(logging.WARNING)
    try:
        out = pooch.retrieve(url, known_hash=f"sha256:{sha}", fname=fname, path=path,
                             downloader=downloader, progressbar=False)
    except ValueError as exc:
        if "hash" not in str(exc):
            raise
        raise ChecksumError(
            f"{dataset}/{fname}: sha256 mismatch of {source}: expected {sha}; {exc}"
        ) from None
    finally:
        logger.setLevel(level)
    out = Path(out)
    _make_readable(out)
    return out


def _make_readable(path: Path) -> None:
    """Give a cached file mode 0644: pooch writes through a private (0600) temporary file,
    and a shared cache must be readable by every user of the machine."""
    try:
        os.chmod(path, CACHE_FILE_MODE)
    except OSError:  # pragma: no cover - a file of another owner in a shared cache
        pass


def _fetch_file(dataset: str, rec: dict[str, Any], *, download: bool) -> Path:
    """Return the cached path of one registry file, fetching it if needed."""
    dest = cache_dir() / dataset
    # 1. the cache (stored name first, then the plain upstream name)
    for fname, sha in _candidates(rec):
        cached = dest / fname
        if cached.is_file():
            _check_cached(cached, sha, dataset)
            return cached
    # 2. mirrors
    looked = [str(dest)]
    for mirror in mirror_dirs():
        for fname, sha in _candidates(rec):
            src = mirror / dataset / fname
            looked.append(str(src))
            if src.is_file():
                return _retrieve(f"mirror://{src}", sha, fname, dest, _MirrorCopy(src),
                                 dataset, f"mirror file {src}")
    # 3. upstream
    url = rec.get("url")
    if url and download and not _offline():
        fname, sha = _candidates(rec)[-1]  # the upstream bytes (plain file when gz-stored)
        try:
            return _retrieve(url, sha, fname, dest, None, dataset, f"download {url}")
        except ChecksumError:
            raise
        except Exception as exc:  # network errors of requests/pooch
            raise DataFileNotFoundError(
                f"{dataset}/{rec['name']}: not in the cache or any mirror, and the download "
                f"from {url} failed ({type(exc).__name__}: {exc}). Looked in: "
                f"{', '.join(looked)}. Set {ENV_MIRROR} to a directory holding "
                f"<dataset>/<file>, then run `{CLI} fetch {dataset}`."
            ) from exc
    why = ("downloads are disabled" if (not download or _offline())
           else "no upstream URL is registered")
    raise DataFileNotFoundError(
        f"{dataset}/{rec['name']}: not in the cache or any mirror, and {why}. Looked in: "
        f"{', '.join(looked)}. Set {ENV_MIRROR} to a directory holding <dataset>/<file>, "
        f"then run `{CLI} fetch {dataset}`."
    )


def fetch(name: str, *, download: bool = True) -> dict[str, Path]:
    """Make every file of a dataset available locally and return the paths.

    Parameters
    ----------
    name : str
        Registry name (see :func:`list_datasets`).
    download : bool, default True
        Allow downloading from the upstream URL when neither the cache nor a mirror has the
        file. ``$WEAKLABEL_DATA_OFFLINE=1`` disables downloads as well.

    Returns
    -------
    dict of str to pathlib.Path
        Registry file name -> verified path in the cache. For a gzip-stored text file
        fetched from upstream the path is the plain upstream file (readers accept both).

    Raises
    ------
    ValueError
        Unknown ``name`` (with close matches).
    DataFileNotFoundError
        A file is in no cache and no mirror and cannot be downloaded.
    ChecksumError
        A cached, mirrored or downloaded file has the wrong sha256.
    """
    info = dataset_info(name)
    return {rec["name"]: _fetch_file(name, rec, download=download) for rec in info["files"]}


def is_cached(name: str) -> tuple[int, int]:
    """How many files of a dataset are in the cache (not checked), out of how many.

    Parameters
    ----------
    name : str
        Registry name.

    Returns
    -------
    (int, int)
        ``(cached, total)`` file counts; the sha256 is checked by :func:`verify`.
    """
    files = dataset_info(name)["files"]
    root = cache_dir() / name
    n = sum(any((root / fname).is_file() for fname, _ in _candidates(rec)) for rec in files)
    return n, len(files)


VERIFY_STATUSES = ("ok", "corrupt", "not fetched")


@dataclass(frozen=True)
class VerifyResult:
    """The check of one registered file, over all its local copies (cache and mirrors).

    ``status`` is ``"ok"`` (at least one copy, every copy matches), ``"corrupt"`` (a copy's
    sha256 differs from the registry: ``path`` and ``actual`` name the first such copy) or
    ``"not fetched"`` (no copy in the cache or any mirror).
    """

    dataset: str
    file: str
    path: str | None
    status: str  # one of VERIFY_STATUSES
    expected: str
    actual: str | None = None
    copies: tuple[str, ...] = ()  # every local copy checked

    @property
    def ok(self) -> bool:
        """True when the file has a copy and every copy's sha256 matches."""
        return self.status == "ok"

    def __str__(self) -> str:
        key = f"{self.dataset}/{self.file}"
        if self.status == "ok":
            where = "; ".join(self.copies)
            n = len(self.copies)
            return f"ok           {key}  ({n} cop{'y' if n == 1 else 'ies'}: {where})"
        if self.status == "not fetched":
            return (f"not fetched  {key}  (no copy in the cache or a mirror yet; run "
                    f"`{CLI} fetch {self.dataset}`)")
        return (f"CORRUPT      {key}  sha256 mismatch of {self.path}: expected "
                f"{self.expected}, got {self.actual}; delete that copy, then run "
                f"`{CLI} fetch {self.dataset}`")


@dataclass(frozen=True)
class VerifyReport:
    """All results of :func:`verify`, one per registered file; falsy when any file failed."""

    results: tuple[VerifyResult, ...]

    @property
    def failures(self) -> list[VerifyResult]:
        """Files that are corrupt or not fetched yet."""
        return [r for r in self.results if not r.ok]

    @property
    def corrupt(self) -> list[VerifyResult]:
        """Files with a copy whose sha256 differs from the registry."""
        return [r for r in self.results if r.status == "corrupt"]

    @property
    def not_fetched(self) -> list[VerifyResult]:
        """Files with no copy in the cache or any mirror."""
        return [r for r in self.results if r.status == "not fetched"]

    @property
    def ok(self) -> bool:
        """True when every file has at least one copy and every copy matches."""
        return not self.failures

    def __bool__(self) -> bool:
        return self.ok

    def summary(self) -> str:
        """One line counting files (not copies): ok, not fetched yet, corrupt."""
        n = len(self.results)
        return (f"{n} file{'' if n == 1 else 's'}: {n - len(self.failures)} ok, "
                f"{len(self.not_fetched)} not fetched yet, {len(self.corrupt)} corrupt")

    def __str__(self) -> str:
        return "\n".join([str(r) for r in self.results] + [self.summary()])


def verify(names: list[str] | str | None = None, *, fetch_missing: bool = False,
           raise_on_error: bool = False) -> VerifyReport:
    """Check the sha256 of every local copy (cache and every mirror) of registered files.

    Parameters
    ----------
    names : str or list of str, optional
        Datasets to check; all registered datasets when None.
    fetch_missing : bool, default False
        Fetch (copy from a mirror or download) files that have no local copy first.
    raise_on_error : bool, default False
        Raise :class:`ChecksumError` naming every corrupt file, or
        :class:`DataFileNotFoundError` when files are only missing, instead of only
        reporting.

    Returns
    -------
    VerifyReport
        One :class:`VerifyResult` per registered file: ``"ok"``, ``"corrupt"`` (naming the
        copy) or ``"not fetched"``. ``str(report)`` is a printable table whose last line
        counts files; ``report.failures`` the failures.
    """
    if names is None:
        names = list_datasets()
    elif isinstance(names, str):
        names = [names]
    results: list[VerifyResult] = []
    for name in names:
        info = dataset_info(name)
        for rec in info["files"]:
            if fetch_missing:
                try:
                    _fetch_file(name, rec, download=True)
                except (DataFileNotFoundError, ChecksumError):
                    pass  # reported below
            copies: list[str] = []
            bad: tuple[str, str, str, str] | None = None  # file, path, expected, actual
            for root in [cache_dir(), *mirror_dirs()]:
                for fname, sha in _candidates(rec):
                    p = root / name / fname
                    if p.is_file():
                        copies.append(str(p))
                        actual = _sha256(p)
                        if actual != sha and bad is None:
                            bad = (fname, str(p), sha, actual)
            if bad is not None:
                results.append(VerifyResult(name, bad[0], bad[1], "corrupt", bad[2], bad[3],
                                            tuple(copies)))
            elif copies:
                results.append(VerifyResult(name, rec["name"], copies[0], "ok", rec["sha256"],
                                            rec["sha256"], tuple(copies)))
            else:
                results.append(VerifyResult(name, rec["name"], None, "not fetched",
                                            rec["sha256"]))
    report = VerifyReport(tuple(results))
    if raise_on_error and report.corrupt:
        raise ChecksumError("verification failed:\n" + "\n".join(map(str, report.corrupt)))
    if raise_on_error and report.not_fetched:
        raise DataFileNotFoundError(
            "verification failed:\n" + "\n".join(map(str, report.not_fetched)))
    return report
