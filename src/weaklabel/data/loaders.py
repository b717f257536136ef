"""``load(name)``: a registered dataset as a :class:`Dataset` (label convention in the
package docstring of :mod:`weaklabel.data`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from weaklabel.data._fetch import dataset_info, fetch
from weaklabel.data._readers import READERS, Parsed

__all__ = ["Dataset", "load", "one_vs_rest"]


@dataclass(eq=False)
class Dataset:
    """A loaded dataset.

    Attributes
    ----------
    name : str
        Registry name.
    X : ndarray of shape (n_samples, n_features), float64
        Features (a ``scipy.sparse.csr_matrix`` only when ``load(..., sparse=True)`` and the
        source is sparse).
    y : ndarray of shape (n_samples,)
        Binary problems: float64 ``+1`` / ``-1`` (``+1`` = ``meta["positive"]``).
        Multi-class problems: the original integer class codes.
    y_raw : ndarray of shape (n_samples,)
        The labels exactly as stored in the file (for binary problems too).
    meta : dict
        Registry facts and loader details: ``task``, ``positive`` (raw labels mapped to +1),
        ``positive_reason``, ``classes``, ``prior`` (fraction of +1, binary only),
        ``usmo_pi`` (the prior USMO hard-codes, or None), ``feature_names`` (or None),
        ``options`` (the loader options used), ``paths``, ``description``, ``notes`` ...
    X_test, y_test, y_raw_test : optional
        A predefined test set (shuttle, a9a), same conventions as ``X``/``y``/``y_raw``.
    splits : dict of str to ndarray, optional
        Predefined split indices, 0-based, one row per split: ``"labelled"``,
        ``"unlabelled"`` (and ``"test"`` for rssl-diabetes). Chapelle et al. 2008 sets have
        10 splits, rssl-diabetes 30.
    """

    name: str
    X: Any
    y: np.ndarray
    y_raw: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)
    X_test: Any = None
    y_test: np.ndarray | None = None
    y_raw_test: np.ndarray | None = None
    splits: dict[str, np.ndarray] | None = None

    @property
    def shape(self) -> tuple[int, int]:
        """``X.shape``."""
        return tuple(self.X.shape)

    def __repr__(self) -> str:
        test = "" if self.X_test is None else f", X_test={tuple(self.X_test.shape)}"
        return (f"Dataset(name={self.name!r}, X={tuple(self.X.shape)}, "
                f"task={self.meta.get('task')!r}{test})")


def one_vs_rest(y: Iterable[Any], cls: Any) -> np.ndarray:
    """Binarise class codes: ``+1`` where ``y`` is ``cls`` (or any of ``cls``), else ``-1``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class codes, e.g. ``Dataset.y`` of a multi-class dataset.
    cls : scalar or sequence of scalars
        The positive class, or several classes that together form the positive class
        (e.g. ``one_vs_rest(load("uci-new-thyroid").y, [2, 3])``).

    Returns
    -------
    ndarray of shape (n_samples,), float64
        ``+1`` / ``-1`` labels.

    Raises
    ------
    ValueError
        If a class in ``cls`` does not occur in ``y``, or ``y`` is not 1-D.
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {y.shape}.")
    classes = list(cls) if isinstance(cls, list | tuple | set | np.ndarray) else [cls]
    if not classes:
        raise ValueError("cls is empty; pass a class code or a non-empty list of codes.")
    present = set(np.unique(y).tolist())
    missing = [c for c in classes if c not in present]
    if missing:
        raise ValueError(
            f"cls={missing!r} does not occur in y; classes present: {sorted(present, key=str)!r}."
        )
    return np.where(np.isin(y, np.asarray(classes, dtype=y.dtype)), 1.0, -1.0)


def _finish_X(X: Any, sparse: bool) -> Any:
    if sp.issparse(X):
        return sp.csr_matrix(X, dtype=np.float64) if sparse else X.toarray().astype(np.float64)
    return np.ascontiguousarray(X, dtype=np.float64)


def load(name: str, *, sparse: bool = False, download: bool = True, **options: Any) -> Dataset:
    """Load a registered dataset (fetching and sha256-checking its files first).

    Parameters
    ----------
    name : str
        Registry name (see :func:`weaklabel.data.list_datasets`).
    sparse : bool, default False
        Keep sparse sources (``chapelle08-text``, ``libsvm-a9a``) as CSR matrices instead of
        dense float64 arrays.
    download : bool, default True
        Allow downloading files that are in no cache and no mirror.
    **options
        Reader options of some datasets:

        - ``uci-haberman``: ``onehot=True`` (14 columns) or False (raw 3);
        - ``uci-german``: ``encoding="onehot"`` (59) / ``"ordinal"`` (20) / ``"numeric"`` (24);
        - ``uci-bank-additional``: ``encoding="onehot"`` (62) / ``"ordinal"`` (20);
        - ``uci-echocardiogram``: ``label="still-alive"`` / ``"alive-at-1"`` and
          ``missing="mean"`` / ``"drop"``.

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        Unknown name (with close matches) or a bad option value.
    TypeError
        An option the dataset does not take.
    weaklabel.data.DataFileNotFoundError, weaklabel.data.ChecksumError
        See :func:`weaklabel.data.fetch`.
    """
    info = dataset_info(name)
    paths = fetch(name, download=download)
    parsed: Parsed = READERS[info["parser"]](paths, name, **options)
    X = _finish_X(parsed.X, sparse)
    y_raw = np.asarray(parsed.y_raw).ravel()
    if X.shape[0] != y_raw.shape[0]:
        raise RuntimeError(f"{name}: {X.shape[0]} rows of X but {y_raw.shape[0]} labels")
    positive = info["positive"]
    binary = info["task"] == "binary"

    def encode(raw: np.ndarray) -> np.ndarray:
        if binary:
            return np.where(np.isin(raw, np.asarray(positive, dtype=raw.dtype)), 1.0, -1.0)
        return raw.astype(np.int64)

    y = encode(y_raw)
    meta: dict[str, Any] = {
        "description": info["description"],
        "task": info["task"],
        "positive": positive,
        "positive_reason": info["positive_reason"],
        "classes": sorted(np.unique(y_raw).tolist(), key=str),
        "prior": float(np.mean(y > 0)) if binary else None,
        "usmo_pi": info["usmo_pi"],
        "feature_names": parsed.feature_names,
        "options": dict(options, sparse=sparse),
        "paths": {k: str(v) for k, v in paths.items()},
        "status": info["status"],
        "canonical_source": info["canonical_source"],
        "license": info["license"],
        "notes": info["notes"],
    }
    meta.update(parsed.meta)
    ds = Dataset(name=name, X=X, y=y, y_raw=y_raw, meta=meta, splits=parsed.splits)
    if parsed.X_test is not None:
        ds.X_test = _finish_X(parsed.X_test, sparse)
        ds.y_raw_test = np.asarray(parsed.y_raw_test).ravel()
        ds.y_test = encode(ds.y_raw_test)
    return ds
