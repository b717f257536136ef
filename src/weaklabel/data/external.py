"""Loaders for the ORIGINAL data sets of Shi et al. 2021 (TSGSU), for a user who has the files.

None of these files is offline here (they are 10 MB to 19 GB), so the replication runs on the
declared substitutes of :data:`weaklabel.data.su.SU_BENCHMARKS`. With the files,
``load_external(name)`` returns a binarised :class:`weaklabel.data.Dataset` that can replace
a substitute (scale it as the substitute's ``preprocessing`` says, then use
:func:`weaklabel.data.su.make_su_data`).

File location: ``path`` (a file, or a directory holding the expected file names), else
``$WEAKLABEL_EXTERNAL_DATA/<file name>``. LIBSVM-format files are read with
:func:`sklearn.datasets.load_svmlight_file` (``.bz2`` / ``.gz`` are decompressed on the fly).

Binarisations (the paper says "we choose a single label to be positive and the rest labels
to be negative" without naming the label, except Svhn "0-4 vs 5-9"; our choices keep the
prior away from 1/2, where the SU risk of Bao et al. 2018 is unstable):

========== ======================================= ====================================
name       file(s)                                 positive (+1)
========== ======================================= ====================================
acoustic   acoustic_scale (+ acoustic_scale.t)     class 1 (class 3 has ~52 %: avoided)
combined   combined_scale (+ combined_scale.t)     class 1
covtype    covtype.data.gz (UCI CSV)               class 1 (~36.5 %; class 2 ~48.8 %)
poker      poker-hand-testing.data (+ training)    class 1, one pair (~42 %; 0 ~50 %)
year       YearPredictionMSD.txt (UCI CSV)         year < 1996 (threshold: our choice)
real-sim   real-sim.bz2 (LIBSVM)                   the file's +1 (~30.8 %)
svhn       train_32x32.mat (+ test_32x32.mat)      digits 0-4 (label 10 is digit 0)
mnist8m    mnist8m.bz2 (LIBSVM; ``max_rows``)      digit 0
========== ======================================= ====================================

The class shares quoted are public facts about these files, not checked here (no files).
"""

from __future__ import annotations

import io
import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from weaklabel._validation import check_int
from weaklabel.data.loaders import Dataset

__all__ = ["EXTERNAL_SETS", "ExternalSet", "external_data_dir", "load_external"]

ENV_VAR = "WEAKLABEL_EXTERNAL_DATA"


@dataclass(frozen=True)
class ExternalSet:
    """How one original set is read and binarised.

    Attributes
    ----------
    name : str
    paper_name : str
        Name in Shi et al. 2021.
    files : tuple of str
        The required file (first) and optional companions appended when present (a test
        part).
    fmt : str
        ``"libsvm"``, ``"csv-last"`` (label in the last column), ``"csv-first"`` (target in
        the first column) or ``"svhn-mat"``.
    positive : str
        The binarisation, in words.
    n_features : int or None
        Width of LIBSVM-format files (fixed so that parts agree).
    source : str
        Where the file is published.
    """

    name: str
    paper_name: str
    files: tuple[str, ...]
    fmt: str
    positive: str
    n_features: int | None
    source: str


#: Year threshold of the Year binarisation (positive = released before it). The paper does
#: not say how it binarised the regression target; this is our declared choice.
YEAR_THRESHOLD = 1996

EXTERNAL_SETS: dict[str, ExternalSet] = {
    "acoustic": ExternalSet(
        "acoustic", "Acoustic", ("acoustic_scale", "acoustic_scale.t"), "libsvm",
        "class 1 vs classes 2, 3", 50,
        "LIBSVM multi-class page (SensIT Vehicle, acoustic), Duarte & Hu 2004"),
    "combined": ExternalSet(
        "combined", "Combined", ("combined_scale", "combined_scale.t"), "libsvm",
        "class 1 vs classes 2, 3", 100,
        "LIBSVM multi-class page (SensIT Vehicle, combined), Duarte & Hu 2004"),
    "covtype": ExternalSet(
        "covtype", "Covtype", ("covtype.data.gz",), "csv-last",
        "class 1 (spruce/fir) vs classes 2-7", None, "UCI Covertype"),
    "poker": ExternalSet(
        "poker", "Poker", ("poker-hand-testing.data", "poker-hand-training-true.data"),
        "csv-last", "class 1 (one pair) vs classes 0, 2-9", None, "UCI Poker Hand"),
    "year": ExternalSet(
        "year", "Year", ("YearPredictionMSD.txt",), "csv-first",
        f"year < {YEAR_THRESHOLD} vs year >= {YEAR_THRESHOLD}", None,
        "UCI YearPredictionMSD (Bertin-Mahieux et al. 2011)"),
    "real-sim": ExternalSet(
        "real-sim", "Sim", ("real-sim.bz2",), "libsvm", "the file's +1", 20958,
        "LIBSVM binary page (real-sim, McCallum)"),
    "svhn": ExternalSet(
        "svhn", "Svhn", ("train_32x32.mat", "test_32x32.mat"), "svhn-mat",
        "digits 0-4 vs 5-9 (the paper's split)", None,
        "Stanford SVHN format 2 (Netzer et al. 2011)"),
    "mnist8m": ExternalSet(
        "mnist8m", "Mnist8m", ("mnist8m.bz2",), "libsvm", "digit 0 vs digits 1-9", 784,
        "LIBSVM multi-class page (mnist8m, Loosli et al. 2007)"),
}


def external_data_dir() -> Path | None:
    """``$WEAKLABEL_EXTERNAL_DATA`` as a path, or None when unset or empty."""
    env = os.environ.get(ENV_VAR, "").strip()
    return Path(env).expanduser() if env else None


def _resolve(spec: ExternalSet, path: Any) -> list[Path]:
    if path is not None:
        p = Path(path).expanduser()
        if p.is_file():
            return [p]
        if not p.is_dir():
            raise FileNotFoundError(
                f"{spec.name}: path {str(p)!r} does not exist; pass the file "
                f"{spec.files[0]!r} or a directory holding it.")
        base = p
    else:
        base = external_data_dir()
        if base is None:
            raise FileNotFoundError(
                f"{spec.name}: no path given and ${ENV_VAR} is not set; expected the file "
                f"{spec.files[0]!r} ({spec.source}) in ${ENV_VAR} or at path=.")
    first = base / spec.files[0]
    if not first.is_file():
        raise FileNotFoundError(
            f"{spec.name}: expected file {str(first)!r} ({spec.source}) is absent; put it "
            f"in the directory ${ENV_VAR} names (now {str(base)!r}) or pass path=.")
    return [first] + [base / f for f in spec.files[1:] if (base / f).is_file()]


def _read_libsvm(path: Path, n_features: int | None, max_rows: int | None):
    from sklearn.datasets import load_svmlight_file

    kw: dict[str, Any] = {"dtype": np.float64}
    if n_features is not None:
        kw["n_features"] = n_features
    if max_rows is None:
        X, y = load_svmlight_file(str(path), **kw)
    else:
        import bz2
        import gzip

        opener = {".bz2": bz2.open, ".gz": gzip.open}.get(path.suffix, open)
        with opener(path, "rb") as fh:
            head = b"".join(itertools.islice(fh, max_rows))
        X, y = load_svmlight_file(io.BytesIO(head), **kw)
    return sp.csr_matrix(X), np.asarray(y)


def _read_csv(path: Path, max_rows: int | None) -> np.ndarray:
    import pandas as pd

    return pd.read_csv(path, header=None, nrows=max_rows).to_numpy(dtype=np.float64)


def _read_svhn(path: Path, max_rows: int | None):
    from scipy.io import loadmat

    m = loadmat(str(path))
    X = np.moveaxis(m["X"], -1, 0)  # (32, 32, 3, N) -> (N, 32, 32, 3)
    y = m["y"].ravel().astype(np.int64)
    if max_rows is not None:
        X, y = X[:max_rows], y[:max_rows]
    y = np.where(y == 10, 0, y)  # SVHN stores digit 0 as label 10
    return X.reshape(X.shape[0], -1).astype(np.float64), y


def _binarise(name: str, y_raw: np.ndarray) -> np.ndarray:
    if name in ("acoustic", "combined", "covtype", "poker"):
        pos = y_raw == 1
    elif name == "year":
        pos = y_raw < YEAR_THRESHOLD
    elif name == "real-sim":
        pos = y_raw > 0
    elif name == "svhn":
        pos = y_raw <= 4
    else:  # mnist8m
        pos = y_raw == 0
    return np.where(pos, 1.0, -1.0)


def load_external(name: str, path: Any = None, *, max_rows: int | None = None,
                  sparse: bool | None = None) -> Dataset:
    """Read an original data set of Shi et al. 2021 and binarise it as declared.

    Parameters
    ----------
    name : str
        A key of :data:`EXTERNAL_SETS`: ``acoustic``, ``combined``, ``covtype``, ``poker``,
        ``year``, ``real-sim``, ``svhn``, ``mnist8m``.
    path : str or Path, optional
        The file itself (only it is read) or a directory holding the expected file names
        (the optional companion, e.g. the ``.t`` test part, is appended when present).
        Default: ``$WEAKLABEL_EXTERNAL_DATA``.
    max_rows : int, optional
        Read at most this many rows of each file (e.g. a 143 333-row head of mnist8m).
    sparse : bool, optional
        Keep LIBSVM-format data as CSR (default True for ``real-sim`` and ``mnist8m``,
        False otherwise).

    Returns
    -------
    Dataset
        ``X`` float64, ``y`` ``+1`` / ``-1`` per the declared binarisation, ``y_raw`` the
        file's labels (the year for Year), ``meta`` with ``positive``, ``prior``,
        ``paths``, ``source``.

    Raises
    ------
    ValueError
        Unknown ``name`` or bad ``max_rows``.
    FileNotFoundError
        The file is absent; the message names the expected file and ``$WEAKLABEL_EXTERNAL_DATA``.
    """
    if name not in EXTERNAL_SETS:
        raise ValueError(f"name must be one of {sorted(EXTERNAL_SETS)!r}, got {name!r}.")
    if max_rows is not None:
        max_rows = check_int(max_rows, "max_rows", minimum=1)
    spec = EXTERNAL_SETS[name]
    paths = _resolve(spec, path)
    if sparse is None:
        sparse = name in ("real-sim", "mnist8m")
    Xs, ys = [], []
    for p in paths:
        if spec.fmt == "libsvm":
            X, y = _read_libsvm(p, spec.n_features, max_rows)
            if not sparse:
                X = X.toarray()
        elif spec.fmt == "svhn-mat":
            X, y = _read_svhn(p, max_rows)
        else:
            A = _read_csv(p, max_rows)
            if spec.fmt == "csv-last":
                X, y = A[:, :-1], A[:, -1]
            else:
                X, y = A[:, 1:], A[:, 0]
        Xs.append(X)
        ys.append(np.asarray(y))
    if sp.issparse(Xs[0]):
        X = sp.vstack(Xs, format="csr")
        X.sort_indices()
    else:
        X = np.ascontiguousarray(np.vstack(Xs), dtype=np.float64)
    y_raw = np.concatenate(ys)
    if y_raw.dtype.kind == "f" and np.all(y_raw == np.round(y_raw)):
        y_raw = y_raw.astype(np.int64)
    y = _binarise(name, y_raw)
    meta = {"task": "binary", "positive": spec.positive, "prior": float(np.mean(y > 0)),
            "paths": [str(p) for p in paths], "source": spec.source,
            "paper_name": spec.paper_name, "max_rows": max_rows,
            "classes": sorted(np.unique(y_raw).tolist())}
    return Dataset(name=f"external-{name}", X=X, y=y, y_raw=y_raw, meta=meta)
