"""The 16 UCI data sets of WellSVM's Table 1 (Li, Tsang, Kwok & Zhou, JMLR 2013), their
loader and the paper's preprocessing, shared by the semi-supervised
(:mod:`weaklabel.experiments.wellsvm`) and clustering
(:mod:`weaklabel.experiments.wellsvm_clustering`) experiments, so that neither stage depends
on the other's protocol code.
"""

from __future__ import annotations

import numpy as np

from ..data import load

__all__ = ["DATASETS", "load_dataset", "preprocess"]

#: (name as in the paper's Table 2, registry name)
DATASETS = [
    ("Echocardiogram", "uci-echocardiogram"), ("House", "usmo-house"),
    ("Heart", "usmo-heart"), ("Heart-statlog", "usmo-heart-statlog"),
    ("Haberman", "uci-haberman"), ("LiverDisorders", "usmo-liverDisorders"),
    ("Spectf", "usmo-spectf"), ("Ionosphere", "usmo-ionosphere"),
    ("House-votes", "usmo-house-votes"), ("Clean1", "usmo-clean1"),
    ("Isolet", "usmo-isolet"), ("Australian", "usmo-australian"),
    ("Diabetes", "usmo-diabetes"), ("German", "uci-german"), ("Krvskp", "usmo-krvskp"),
    ("Sick", "lamda-sick"),
]


def load_dataset(name: str):
    """``(X, y)`` of one data set: raw features, labels in {0, 1} (1 = the data layer's
    positive class)."""
    spec = dict(DATASETS)
    if name not in spec:
        raise ValueError(f"dataset must be one of {sorted(spec)}, got {name!r}.")
    ds = load(spec[name])
    return np.asarray(ds.X, dtype=np.float64), (np.asarray(ds.y) > 0).astype(int)


def preprocess(Xtr, Xte):
    """Min-max scale to [0, 1] and centre, both with training-part statistics."""
    lo, hi = Xtr.min(axis=0), Xtr.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    A, B = (Xtr - lo) / span, (Xte - lo) / span
    mu = A.mean(axis=0)
    return A - mu, B - mu
