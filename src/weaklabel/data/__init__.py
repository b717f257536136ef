"""Datasets: registry, checksum-verified fetching, loaders and seeded split generators.

Quick start::

    from weaklabel.data import load, list_datasets, pu_split
    ds = load("usmo-australian")                  # Dataset(X (690, 42), y in {+1, -1})
    split = pu_split(ds.y, pi=ds.meta["usmo_pi"], rule="usmo", random_state=0)

Where the files come from
-------------------------
The registry (``registry.json``, package data generated from the shared data manifest by
:mod:`weaklabel.data._make_registry`) names every file with its sha256 and a pinned
upstream URL. :func:`fetch` looks a file up in the cache (``$WEAKLABEL_DATA_DIR``, default
``pooch.os_cache("weaklabel")``), then in each mirror directory of
``$WEAKLABEL_DATA_MIRROR`` (colon-separated, ``<mirror>/<dataset>/<file>``), then downloads
it (unless ``$WEAKLABEL_DATA_OFFLINE=1``). The sha256 is checked when a file enters the
cache and every time a cached file is used; a mismatch raises :class:`ChecksumError`
naming the file and both hashes. ``python -m weaklabel.data list | fetch NAME...|--all |
verify [NAME...]`` is the command-line interface: ``list`` shows which datasets are cached,
``verify`` tells files not fetched yet from corrupt ones. Cached files get mode 0644.

Label convention (the one place it is written down)
---------------------------------------------------
``Dataset.y`` of a **binary** dataset is float64 ``+1`` / ``-1``; ``+1`` is the positive
class of the paper that uses the set, recorded in the registry as ``meta["positive"]``
(the raw label values mapped to ``+1``) with the reason in ``meta["positive_reason"]``:

- ``usmo-*``: ``labels == 1`` (USMO's positive class); ``meta["usmo_pi"]`` is the class
  prior USMO hard-codes (e.g. 0.56 for australian), the ``pi`` of :func:`pu_split`;
- ``raetsch-*``, ``lamda-sick``, ``chapelle08-g50c``/``-text``, ``rssl-diabetes``,
  ``libsvm-a9a``: the file's own ``+1``;
- ``delve-ringnorm``: class 0, the N(0, 4I) "ring" class (MCLS's positive);
- ``uci-ionosphere``: ``g``; ``statlog-heart``: 2 (disease present);
  ``uci-bank-additional``: ``yes``;
- ``uci-haberman``: 2 (died), ``uci-german``: 2 (bad credit), ``uci-echocardiogram``: 1
  (alive): the papers name no positive class, so the minority / event class is ``+1``.

A **multi-class** dataset (``uci-new-thyroid``, ``uci-waveform``, ``chapelle08-uspst``,
``cai-coil20``, ``openml-mfeat-pixel``, ``statlog-shuttle``, ``mnist``) keeps its original
integer class codes in ``y``; :func:`one_vs_rest` makes a ``+1`` / ``-1`` problem, e.g.
MCLS's thyroid is ``one_vs_rest(load("uci-new-thyroid").y, [2, 3])`` and its waveform
``one_vs_rest(load("uci-waveform").y, 1)``. ``Dataset.y_raw`` always holds the labels as
stored in the file. PU splits use the package-wide ``(X, s)`` form: ``s = 1`` labelled
positive, ``s = 0`` unlabelled (:attr:`PUSplit.s`).
"""

from weaklabel.data._fetch import (
    ChecksumError,
    DataFileNotFoundError,
    VerifyReport,
    VerifyResult,
    cache_dir,
    dataset_info,
    fetch,
    list_datasets,
    mirror_dirs,
    verify,
)
from weaklabel.data.loaders import Dataset, load, one_vs_rest
from weaklabel.data.splits import (
    MILBags,
    PUSplit,
    SSLSplit,
    SUSplit,
    mil_bags,
    pu_split,
    ssl_split,
    su_split,
)

__all__ = [
    "ChecksumError",
    "DataFileNotFoundError",
    "Dataset",
    "MILBags",
    "PUSplit",
    "SSLSplit",
    "SUSplit",
    "VerifyReport",
    "VerifyResult",
    "cache_dir",
    "dataset_info",
    "fetch",
    "list_datasets",
    "load",
    "mil_bags",
    "mirror_dirs",
    "one_vs_rest",
    "pu_split",
    "ssl_split",
    "su_split",
    "verify",
]
