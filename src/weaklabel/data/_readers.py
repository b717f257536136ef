"""File readers, one per registry ``parser`` key, with every known per-file defect fixed.

A reader takes the dict of local paths returned by :func:`weaklabel.data.fetch` (registry
file name -> path) plus reader options, and returns a :class:`Parsed` record with the raw
labels as stored in the file. :func:`weaklabel.data.load` turns it into a ``Dataset``.

Defects of the mirrored files (``../shared/datasets/README.md``) fixed here:

- ``statlog-shuttle``: line 1 of ``shuttle.trn`` reads ``0 21 77 ...``; the true first value
  is 50 (three independent copies agree), so ``X[0, 0] = 50`` after loading.
- ``uci-new-thyroid``, ``uci-waveform``, ``uci-ionosphere``, ``statlog-heart``,
  ``uci-haberman``: the mirror added one header line, which is skipped.
- ``libsvm-a9a``: read with ``n_features=123`` (the test file carries one explicit
  ``123:0`` token; the training file would otherwise also be fine, the LIBSVM original is not).
- ``uci-echocardiogram``: ``?`` marks missing values; the label column is a choice
  (``label="still-alive"`` or ``"alive-at-1"``), and missing feature values are imputed
  with the column mean (``missing="mean"``) or the rows dropped (``missing="drop"``).
- ``uci-haberman``, ``uci-german``: one-hot encoding reproduces WellSVM's 14 and 59 columns.
"""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.io
import scipy.sparse as sp

from weaklabel._validation import check_choice

Paths = dict[str, Path]


@dataclass
class Parsed:
    """What a reader returns: features, raw labels and any predefined structure."""

    X: Any
    y_raw: np.ndarray
    feature_names: list[str] | None = None
    X_test: Any = None
    y_raw_test: np.ndarray | None = None
    splits: dict[str, np.ndarray] | None = None
    meta: dict[str, Any] = field(default_factory=dict)


def _no_options(name: str, opts: dict[str, Any]) -> None:
    if opts:
        raise TypeError(f"dataset {name!r} takes no loader options, got {sorted(opts)!r}.")


def _open_bytes(path: Path) -> io.BufferedIOBase:
    """Open a file for binary reading, transparently gunzipping it (gzip magic sniffed)."""
    with open(path, "rb") as fh:
        magic = fh.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rb")
    return open(path, "rb")


def _path(paths: Paths, name: str) -> Path:
    return Path(paths[name])


def _onehot(df: pd.DataFrame, categorical: list[Any]) -> tuple[np.ndarray, list[str]]:
    """Expand ``categorical`` columns in place: k levels -> k indicator columns, except
    binary attributes, which stay one 0/1 column (indicator of the second sorted level)."""
    cols: list[np.ndarray] = []
    names: list[str] = []
    for c in df.columns:
        v = df[c]
        if c in categorical:
            levels = sorted(pd.unique(v).tolist(), key=str)
            if len(levels) == 2:
                cols.append((v == levels[1]).to_numpy(np.float64))
                names.append(f"{c}={levels[1]}")
            else:
                for lev in levels:
                    cols.append((v == lev).to_numpy(np.float64))
                    names.append(f"{c}={lev}")
        else:
            cols.append(v.to_numpy(np.float64))
            names.append(str(c))
    return np.column_stack(cols), names


def _ordinal(df: pd.DataFrame, categorical: list[Any]) -> tuple[np.ndarray, list[str]]:
    """Replace each categorical column by the 0-based code of its sorted levels."""
    out = df.copy()
    for c in categorical:
        levels = sorted(pd.unique(df[c]).tolist(), key=str)
        out[c] = df[c].map({lev: i for i, lev in enumerate(levels)})
    return out.to_numpy(np.float64), [str(c) for c in df.columns]


# --------------------------------------------------------------------------- .mat / .RData


def read_usmo_mat(paths: Paths, name: str, **opts: Any) -> Parsed:
    """emsansone/USMO ``.mat``: ``X`` (N x d) and ``labels`` (N x 1, 1 = positive)."""
    _no_options(name, opts)
    m = scipy.io.loadmat(next(iter(paths.values())))
    return Parsed(np.asarray(m["X"], dtype=np.float64), np.asarray(m["labels"]).ravel())


def read_data_target_mat(paths: Paths, name: str, **opts: Any) -> Parsed:
    """Rätsch / LAMDA ``.mat``: ``data`` (N x d) and ``target`` (N x 1, +1/-1)."""
    _no_options(name, opts)
    m = scipy.io.loadmat(next(iter(paths.values())))
    return Parsed(np.asarray(m["data"], dtype=np.float64), np.asarray(m["target"]).ravel())


def read_chapelle_mat(paths: Paths, name: str, **opts: Any) -> Parsed:
    """Chapelle et al. 2008 ``.mat``: ``X``, ``y`` and the 10 splits ``idxLabs``/``idxUnls``
    (1-based in the file; returned 0-based as ``splits["labelled"]``/``["unlabelled"]``)."""
    _no_options(name, opts)
    m = scipy.io.loadmat(next(iter(paths.values())))
    X = m["X"]
    X = sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X) else np.asarray(X, np.float64)
    splits = {
        "labelled": np.asarray(m["idxLabs"], dtype=np.int64) - 1,
        "unlabelled": np.asarray(m["idxUnls"], dtype=np.int64) - 1,
    }
    return Parsed(X, np.asarray(m["y"]).ravel(), splits=splits)


def read_cai_mat(paths: Paths, name: str, **opts: Any) -> Parsed:
    """Deng Cai ``.mat``: ``fea`` (N x d) and ``gnd`` (N x 1 class codes)."""
    _no_options(name, opts)
    m = scipy.io.loadmat(next(iter(paths.values())))
    return Parsed(np.asarray(m["fea"], dtype=np.float64), np.asarray(m["gnd"]).ravel())


def read_rssl_rdata(paths: Paths, name: str, **opts: Any) -> Parsed:
    """RSSL ``diabetes.RData``: list with ``data``, ``target`` (-1/+1) and 30 splits
    ``idxLabs``/``idxUnls``/``idxTest`` (1-based; returned 0-based)."""
    import rdata

    _no_options(name, opts)
    obj = rdata.conversion.convert(rdata.parser.parse_file(next(iter(paths.values()))))
    d = {str(k): v for k, v in obj["diabetes"].items()}
    splits = {
        key: np.asarray(d[src], dtype=np.float64).astype(np.int64) - 1
        for key, src in (("labelled", "idxLabs"), ("unlabelled", "idxUnls"), ("test", "idxTest"))
    }
    return Parsed(np.asarray(d["data"], dtype=np.float64), np.asarray(d["target"]).ravel(),
                  splits=splits)


# --------------------------------------------------------------------------- text formats


def read_delve(paths: Paths, name: str, **opts: Any) -> Parsed:
    """DELVE ``Dataset.data.gz``: whitespace text, 20 inputs then the class 0/1."""
    _no_options(name, opts)
    with _open_bytes(_path(paths, "Dataset.data.gz")) as fh:
        A = np.loadtxt(fh, dtype=np.float64)
    return Parsed(A[:, :-1], A[:, -1].astype(np.int64))


def _read_headed_csv(path: Path, sep: str = ",") -> pd.DataFrame:
    # header=None + skiprows=1: the first line is the header the mirror added.
    return pd.read_csv(path, sep=sep, header=None, skiprows=1)


def read_uci_new_thyroid(paths: Paths, name: str, **opts: Any) -> Parsed:
    """``new-thyroid.data``: mirror header line skipped; class (1/2/3) first, 5 features."""
    _no_options(name, opts)
    df = _read_headed_csv(_path(paths, "new-thyroid.data"))
    names = ["T3-resin", "Thyroxin", "T3", "TSH", "DiffTSH"]
    return Parsed(df.iloc[:, 1:].to_numpy(np.float64), df.iloc[:, 0].to_numpy(np.int64), names)


def read_uci_waveform(paths: Paths, name: str, **opts: Any) -> Parsed:
    """``waveform.data``: mirror header line skipped; 21 features, class 0/1/2 last."""
    _no_options(name, opts)
    df = _read_headed_csv(_path(paths, "waveform.data"))
    return Parsed(df.iloc[:, :-1].to_numpy(np.float64), df.iloc[:, -1].to_numpy(np.int64))


def read_uci_ionosphere(paths: Paths, name: str, **opts: Any) -> Parsed:
    """``ionosphere.data``: mirror header line skipped; 34 attributes, class g/b last."""
    _no_options(name, opts)
    df = _read_headed_csv(_path(paths, "ionosphere.data"))
    y = np.asarray(df.iloc[:, -1].astype(str).to_numpy(), dtype=object)
    return Parsed(df.iloc[:, :-1].to_numpy(np.float64), y)


def read_statlog_heart(paths: Paths, name: str, **opts: Any) -> Parsed:
    """``heart.dat``: mirror header line skipped; 13 attributes, class 1/2 last."""
    _no_options(name, opts)
    df = _read_headed_csv(_path(paths, "heart.dat"), sep=r"\s+")
    return Parsed(df.iloc[:, :-1].to_numpy(np.float64), df.iloc[:, -1].to_numpy(np.int64))


def read_uci_haberman(paths: Paths, name: str, *, onehot: bool = True) -> Parsed:
    """Haberman survival: mirror header line skipped.

    ``onehot=True`` (default) gives WellSVM's 14 columns: age, positive axillary nodes,
    and one indicator per distinct operation year (12 years); ``onehot=False`` the raw
    3 columns (age, year, nodes).
    """
    df = _read_headed_csv(_path(paths, "habermans-survival.txt"))
    df.columns = ["age", "year", "nodes", "class"]
    y = df.pop("class").to_numpy(np.int64)
    if not onehot:
        return Parsed(df.to_numpy(np.float64), y, ["age", "year", "nodes"],
                      meta={"encoding": "raw"})
    X, names = _onehot(df[["age", "nodes", "year"]], ["year"])
    return Parsed(X, y, names, meta={"encoding": "onehot (year)"})


_GERMAN_NUMERIC = {1, 4, 7, 10, 12, 15, 17}  # 0-based columns of the 7 numeric attributes


def read_uci_german(paths: Paths, name: str, *, encoding: str = "onehot") -> Parsed:
    """Statlog German credit ``german.data`` (20 attributes, class 1 good / 2 bad).

    ``encoding="onehot"`` (default): the 13 categorical attributes one-hot encoded, binary
    ones kept as one 0/1 column, plus the 7 numeric ones = 59 columns (WellSVM Table 1).
    ``encoding="ordinal"``: each categorical attribute replaced by the code of its sorted
    A-level (20 columns). ``encoding="numeric"``: UCI's own ``german.data-numeric``
    (24 columns).
    """
    check_choice(encoding, "encoding", {"onehot", "ordinal", "numeric"})
    if encoding == "numeric":
        A = np.loadtxt(_path(paths, "german.data-numeric"), dtype=np.float64)
        return Parsed(A[:, :-1], A[:, -1].astype(np.int64), meta={"encoding": "numeric"})
    df = pd.read_csv(_path(paths, "german.data"), sep=" ", header=None)
    y = df.pop(20).to_numpy(np.int64)
    df.columns = [f"A{i + 1}" for i in range(20)]
    cat = [f"A{i + 1}" for i in range(20) if i not in _GERMAN_NUMERIC]
    X, names = (_onehot if encoding == "onehot" else _ordinal)(df, cat)
    return Parsed(X, y, names, meta={"encoding": encoding})


_ECHO_COLUMNS = ["survival", "still-alive", "age-at-heart-attack", "pericardial-effusion",
                 "fractional-shortening", "epss", "lvdd", "wall-motion-score",
                 "wall-motion-index", "mult", "name", "group", "alive-at-1"]
_ECHO_FEATURES = _ECHO_COLUMNS[2:10]


def read_uci_echocardiogram(paths: Paths, name: str, *, label: str = "still-alive",
                            missing: str = "mean") -> Parsed:
    """UCI echocardiogram (131 rows in every public copy; the UCI text says 132).

    Features: the 8 clinical columns age-at-heart-attack .. mult (WellSVM's d = 8); the
    columns survival, still-alive, name, group and alive-at-1 are excluded.

    Parameters
    ----------
    label : {"still-alive", "alive-at-1"}
        WellSVM does not say which column it used. ``"still-alive"`` (default) has no missing
        value (0: 88, 1: 43, all 131 rows). ``"alive-at-1"`` is the UCI-recommended target
        (0: 50, 1: 24); its 57 rows with a missing label are dropped.
    missing : {"mean", "drop"}
        ``?`` marks missing feature values: ``"mean"`` (default) imputes the column mean of
        the kept rows, ``"drop"`` drops rows with any missing feature.
    """
    check_choice(label, "label", {"still-alive", "alive-at-1"})
    check_choice(missing, "missing", {"mean", "drop"})
    df = pd.read_csv(_path(paths, "echocardiogram.data"), header=None, na_values="?")
    df.columns = _ECHO_COLUMNS
    df = df[df[label].notna()]
    F = df[_ECHO_FEATURES].astype(np.float64)
    n_missing = int(F.isna().to_numpy().sum())
    if missing == "drop":
        keep = F.notna().all(axis=1)
        F, df = F[keep], df[keep]
    else:
        F = F.fillna(F.mean())
    meta = {"label": label, "missing": missing, "n_missing_values": n_missing}
    return Parsed(F.to_numpy(np.float64), df[label].to_numpy(np.int64), list(_ECHO_FEATURES),
                  meta=meta)


def read_statlog_shuttle(paths: Paths, name: str, **opts: Any) -> Parsed:
    """Statlog shuttle: ``shuttle.trn`` (43500 rows) as ``X``, ``shuttle.tst`` as ``X_test``.

    Fixes the mirror's line-1 defect: ``X[0, 0] = 50`` (the file reads 0).
    """
    _no_options(name, opts)
    with _open_bytes(_path(paths, "shuttle.trn.gz")) as fh:
        trn = np.loadtxt(fh, dtype=np.float64)
    tst = np.loadtxt(_path(paths, "shuttle.tst"), dtype=np.float64)
    X = trn[:, :-1].copy()
    fixed = X[0, 0] == 0
    X[0, 0] = 50.0
    return Parsed(X, trn[:, -1].astype(np.int64), X_test=tst[:, :-1],
                  y_raw_test=tst[:, -1].astype(np.int64),
                  meta={"fixed_line1_first_value": bool(fixed)})


def read_libsvm_a9a(paths: Paths, name: str, **opts: Any) -> Parsed:
    """LIBSVM a9a (train) and a9a.t (test), always with ``n_features=123``."""
    from sklearn.datasets import load_svmlight_file

    _no_options(name, opts)
    out = []
    for fname in ("a9a.gz", "a9a.t.gz"):
        with _open_bytes(_path(paths, fname)) as fh:
            X, y = load_svmlight_file(fh, n_features=123, dtype=np.float64)
        out.append((sp.csr_matrix(X), y.astype(np.int64)))
    (X, y), (Xt, yt) = out
    return Parsed(X, y, X_test=Xt, y_raw_test=yt)


def read_arff(paths: Paths, name: str, **opts: Any) -> Parsed:
    """OpenML ARFF (gzip-stored here) with liac-arff; the last attribute is the class."""
    import arff

    _no_options(name, opts)
    path = next(iter(paths.values()))
    with _open_bytes(path) as fh:
        obj = arff.load(io.TextIOWrapper(fh, encoding="utf-8"))
    data = obj["data"]
    attrs = [a[0] for a in obj["attributes"]]
    X = np.array([[float(v) for v in row[:-1]] for row in data], dtype=np.float64)
    y = np.array([int(row[-1]) for row in data], dtype=np.int64)
    return Parsed(X, y, attrs[:-1])


_BANK_MEMBER = "bank-additional/bank-additional-full.csv"


def read_bank_zip(paths: Paths, name: str, *, encoding: str = "onehot") -> Parsed:
    """UCI bank marketing ``bank-additional-full.csv`` (41188 rows, ``;``-separated) from the zip.

    ``encoding="onehot"`` (default): the 10 categorical inputs one-hot encoded (``unknown``
    is a level of its own; binary attributes kept as one 0/1 column) plus the 10 numeric
    ones = 62 columns. ``encoding="ordinal"``: categorical inputs replaced by the code of
    their sorted level (20 columns). The ``duration`` input is kept (UCI advises dropping it
    for realistic prediction; USMO does not say).
    """
    check_choice(encoding, "encoding", {"onehot", "ordinal"})
    with zipfile.ZipFile(next(iter(paths.values()))) as z, z.open(_BANK_MEMBER) as fh:
        df = pd.read_csv(fh, sep=";")
    y = np.asarray(df.pop("y").astype(str).to_numpy(), dtype=object)
    cat = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    X, names = (_onehot if encoding == "onehot" else _ordinal)(df, cat)
    return Parsed(X, y, names, meta={"encoding": encoding})


def _read_idx(path: Path) -> np.ndarray:
    with _open_bytes(path) as fh:
        raw = fh.read()
    if raw[:2] != b"\x00\x00" or raw[2] != 0x08:
        raise ValueError(f"{path.name}: not an unsigned-byte IDX file")
    ndim = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim))
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


def read_mnist_idx(paths: Paths, name: str, **opts: Any) -> Parsed:
    """MNIST IDX files. The 60000 training images are not available anywhere we checked,
    so ``X`` is the 10000 x 784 test set (uint8 pixels as float64, 0..255) with its labels,
    and the 60000 training labels are in ``meta["train_labels"]``."""
    _no_options(name, opts)
    images = _read_idx(_path(paths, "t10k-images-idx3-ubyte.gz"))
    labels = _read_idx(_path(paths, "t10k-labels-idx1-ubyte.gz")).astype(np.int64)
    train_labels = _read_idx(_path(paths, "train-labels-idx1-ubyte.gz")).astype(np.int64)
    X = images.reshape(images.shape[0], -1).astype(np.float64)
    return Parsed(X, labels, meta={"subset": "t10k (test set)", "train_labels": train_labels,
                                   "train_images": "not available"})


READERS: dict[str, Callable[..., Parsed]] = {
    "usmo_mat": read_usmo_mat,
    "data_target_mat": read_data_target_mat,
    "chapelle_mat": read_chapelle_mat,
    "cai_mat": read_cai_mat,
    "rssl_rdata": read_rssl_rdata,
    "delve": read_delve,
    "uci_new_thyroid": read_uci_new_thyroid,
    "uci_waveform": read_uci_waveform,
    "uci_ionosphere": read_uci_ionosphere,
    "statlog_heart": read_statlog_heart,
    "uci_haberman": read_uci_haberman,
    "uci_german": read_uci_german,
    "uci_echocardiogram": read_uci_echocardiogram,
    "statlog_shuttle": read_statlog_shuttle,
    "libsvm_a9a": read_libsvm_a9a,
    "arff": read_arff,
    "bank_zip": read_bank_zip,
    "mnist_idx": read_mnist_idx,
}
