"""Atomic file writing: nothing is written half, so a file on disk is always a whole result."""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

#: part of every temporary name of :func:`atomic_path`
TEMP_MARK = ".partial"


@contextmanager
def atomic_path(path, suffix: str | None = None):
    """Yield a temporary path beside ``path``; rename it onto ``path`` on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # ".<name>.<random>.partial<suffix>": hidden, git-ignored (".*.partial*"), and removed by
    # weaklabel.stagerun when a stage is killed mid-write; the suffix keeps the format that
    # writers infer from the name
    fd, tmp = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=TEMP_MARK + (suffix or path.suffix), dir=path.parent
    )
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the usual file mode
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_csv(df, path, **kwargs) -> Path:
    """Write a DataFrame to CSV atomically (index off unless asked)."""
    kwargs.setdefault("index", False)
    with atomic_path(path) as tmp:
        df.to_csv(tmp, **kwargs)
    return Path(path)


def write_json(obj, path) -> Path:
    """Write JSON atomically, keys sorted, 2-space indent."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True, default=float) + "\n")
    return Path(path)


def write_text(text: str, path) -> Path:
    """Write text atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text)
    return Path(path)


#: drop timestamps so that re-running a notebook changes a figure only when it changes
_METADATA = {"pdf": {"CreationDate": None, "ModDate": None}, "svg": {"Date": None},
             "png": {"Software": None}}


def save_figure(fig, path, formats=("png", "pdf"), dpi: int = 150) -> list[Path]:
    """Save a matplotlib figure atomically in each format; returns the paths."""
    out = []
    base = Path(path).with_suffix("")
    for fmt in formats:
        p = base.with_suffix("." + fmt)
        with atomic_path(p) as tmp:
            fig.savefig(tmp, format=fmt, dpi=dpi, bbox_inches="tight",
                        metadata=_METADATA.get(fmt))
        out.append(p)
    return out
