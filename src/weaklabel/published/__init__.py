"""The papers' published numbers, as CSV package data.

One file per paper, ``<paper>.csv`` (the paper's id: ``usmo.csv``, ``mcls.csv``, ...; a new
paper adds its file and nothing else), with columns
``paper, artifact, row, column, value, spread, note``: ``row``/``column`` are the cell's
labels as printed in the paper, ``value`` the printed number (empty when the paper gives
none), ``spread`` the printed ``±`` part.
"""

from __future__ import annotations

from importlib import resources

import pandas as pd

COLUMNS = ["paper", "artifact", "row", "column", "value", "spread", "note"]


def available() -> list[str]:
    """Papers whose published numbers ship with the package: the stems of its ``*.csv``
    files, sorted."""
    root = resources.files(__package__)
    return sorted(f.name[:-4] for f in root.iterdir() if f.name.endswith(".csv") and f.is_file())


#: the papers whose published numbers ship with the package (:func:`available`)
PAPERS = tuple(available())


def load(paper: str, artifact: str | None = None) -> pd.DataFrame:
    """Published cells of ``paper`` (optionally one ``artifact``, e.g. ``"Table III"``)."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {PAPERS}, got {paper!r}.")
    f = resources.files(__package__).joinpath(f"{paper}.csv")
    if not f.is_file():
        raise FileNotFoundError(f"no published numbers for paper {paper!r} ({f.name} missing).")
    with f.open("r", encoding="utf-8") as fh:
        df = pd.read_csv(fh, dtype={"row": str, "column": str, "note": str,
                                    "artifact": str, "paper": str})
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{f.name} lacks columns {missing}.")
    df["note"] = df["note"].fillna("")
    if artifact is not None:
        if artifact not in set(df["artifact"]):
            raise ValueError(
                f"artifact {artifact!r} not in {paper}; known: {sorted(set(df['artifact']))}."
            )
        df = df[df["artifact"] == artifact].reset_index(drop=True)
    return df
