"""Seeded split generators for the four weak-label settings (PU, SSL, SU, MIL).

Every function takes ``random_state`` (an int seed, a :class:`numpy.random.Generator`, or
None for fresh entropy) and returns row indices into the ``y`` it was given, as int64
arrays. The same seed gives identical indices. Index arrays other than pairs and bags are
sorted (original row order), so a split does not reorder the data.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from weaklabel._validation import check_choice, check_int, check_prior

__all__ = [
    "MILBags",
    "PUSplit",
    "SSLSplit",
    "SUSplit",
    "check_random_state",
    "mil_bags",
    "pu_split",
    "ssl_split",
    "su_split",
]

_EMPTY = np.empty(0, dtype=np.int64)


def check_random_state(random_state: Any) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` for an int seed, a Generator or None."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None or (isinstance(random_state, numbers.Integral)
                                and not isinstance(random_state, bool)):
        if random_state is not None and int(random_state) < 0:
            raise ValueError(f"random_state must be a non-negative int, got {random_state}.")
        return np.random.default_rng(random_state)
    raise TypeError(
        "random_state must be an int seed, a numpy.random.Generator or None, "
        f"got {type(random_state).__name__}."
    )


def _labels(y: Any, name: str = "y") -> np.ndarray:
    a = np.asarray(y)
    if a.ndim == 2 and 1 in a.shape:
        a = a.ravel()
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {a.shape}.")
    if a.shape[0] == 0:
        raise ValueError(f"{name} is empty.")
    return a


def _pm1(y: Any, name: str = "y") -> np.ndarray:
    """Boolean positive mask of +1/-1 (or 1/0) labels."""
    a = _labels(y, name)
    try:
        vals = set(np.unique(a.astype(np.float64)).tolist())
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold +1/-1 labels; use one_vs_rest() first.") from None
    if not (vals <= {-1.0, 1.0} or vals <= {0.0, 1.0}):
        raise ValueError(
            f"{name} must hold +1/-1 labels (or 1/0), got values {sorted(vals)[:5]}; "
            "binarise multi-class labels with weaklabel.data.one_vs_rest()."
        )
    return a.astype(np.float64) > 0


def _n_from_size(size: Any, n: int, name: str) -> int:
    """``size`` as a count out of ``n``: a float in [0, 1) is a fraction (rounded half up),
    an int is a count."""
    if size is None:
        return 0
    if isinstance(size, bool):
        raise TypeError(f"{name} must be a fraction in [0, 1) or an int count, got bool.")
    if isinstance(size, numbers.Integral):
        k = int(size)
    elif isinstance(size, numbers.Real):
        if not 0.0 <= float(size) < 1.0:
            raise ValueError(f"{name} as a fraction must lie in [0, 1), got {size}.")
        k = int(math.floor(float(size) * n + 0.5))
    else:
        raise TypeError(f"{name} must be a fraction in [0, 1) or an int count, "
                        f"got {type(size).__name__}.")
    if not 0 <= k < n:
        raise ValueError(f"{name}={size} selects {k} of {n} rows; it must leave rows to train on.")
    return k


def _stratified_counts(counts: np.ndarray, k: int) -> np.ndarray:
    """Split ``k`` over classes proportionally to ``counts`` (largest remainder)."""
    n = counts.sum()
    exact = k * counts / n
    alloc = np.floor(exact).astype(np.int64)
    rest = k - alloc.sum()
    order = np.argsort(-(exact - alloc), kind="stable")
    alloc[order[:rest]] += 1
    return np.minimum(alloc, counts)


def _stratified_draw(rng: np.random.Generator, y: np.ndarray, pool: np.ndarray, k: int,
                     *, min_per_class: int = 0) -> np.ndarray:
    """Draw ``k`` rows of ``pool``, stratified by ``y``; at least ``min_per_class`` per class."""
    classes, inv = np.unique(y[pool], return_inverse=True)
    counts = np.bincount(inv, minlength=len(classes))
    alloc = _stratified_counts(counts, k)
    if min_per_class:
        for j in np.flatnonzero(alloc < min_per_class):
            need = min_per_class - alloc[j]
            alloc[j] += need
            for _ in range(need):  # take back from the largest allocation
                donors = np.flatnonzero(alloc > min_per_class)
                alloc[donors[np.argmax(alloc[donors])]] -= 1
    chosen = [rng.choice(pool[inv == j], size=int(a), replace=False)
              for j, a in enumerate(alloc) if a > 0]
    return np.sort(np.concatenate(chosen)) if chosen else _EMPTY.copy()


# --------------------------------------------------------------------------- PU


@dataclass(frozen=True)
class PUSplit:
    """A positive-unlabelled split.

    Attributes
    ----------
    labelled : ndarray of int64
        Rows of the labelled positives (sorted).
    unlabelled : ndarray of int64
        Rows of the unlabelled set: the remaining positives and all negatives of the
        training part, in the original row order.
    test : ndarray of int64
        Held-out rows (empty unless ``test_size`` was given), sorted.
    """

    labelled: np.ndarray
    unlabelled: np.ndarray
    test: np.ndarray

    @property
    def train(self) -> np.ndarray:
        """Training rows: ``labelled`` then ``unlabelled``."""
        return np.concatenate([self.labelled, self.unlabelled])

    @property
    def s(self) -> np.ndarray:
        """PU indicator aligned with :attr:`train`: 1 = labelled positive, 0 = unlabelled."""
        return np.concatenate([np.ones(len(self.labelled), dtype=np.int64),
                               np.zeros(len(self.unlabelled), dtype=np.int64)])


def pu_split(y: Any, *, labelled_fraction: float | None = None, pi: float | None = None,
             rule: str = "usmo", test_size: float | int | None = None,
             random_state: Any = None) -> PUSplit:
    """Split +1/-1 labels into labelled positives, unlabelled rows and an optional test set.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True labels, ``+1`` positive and ``-1`` (or 0) negative.
    labelled_fraction : float, optional
        ``rule="fraction"``: the fraction of the training positives that is labelled,
        ``round(labelled_fraction * n_pos)`` rows (half rounded up), in (0, 1].
        ``rule="usmo"``: the factor 0.2 of the USMO rule (default 0.2).
    pi : float, optional
        ``rule="usmo"`` only (required): the class prior used by USMO (``meta["usmo_pi"]``
        of a ``usmo-*`` dataset; e.g. 0.56 for australian).
    rule : {"usmo", "fraction"}
        ``"usmo"`` (USMO paper, Section 6, Tables III-IV: 20% of the
        positives labelled; the authors' ``demo.m``): the training positives are put in
        random order and the first ``p = floor(0.2 * pi * N)`` are labelled, ``N`` the
        number of training rows (australian: N=690, pi=0.56 -> p=77). ``"fraction"``: as
        described for ``labelled_fraction``.
    test_size : float or int, optional
        Rows held out *before* the PU split, drawn uniformly at random: a fraction in
        [0, 1) (rounded half up) or a count.
    random_state : int, numpy.random.Generator or None

    Returns
    -------
    PUSplit
        ``labelled``, ``unlabelled`` (original row order) and ``test`` index arrays;
        ``split.train`` and ``split.s`` give the package-wide ``(X, s)`` form
        (see :mod:`weaklabel.data`).
    """
    pos = _pm1(y)
    n = pos.shape[0]
    check_choice(rule, "rule", {"usmo", "fraction"})
    rng = check_random_state(random_state)
    n_test = _n_from_size(test_size, n, "test_size")
    if rule == "usmo":
        if pi is None:
            raise ValueError("pi is required with rule='usmo' (p = floor(0.2 * pi * N)); "
                             "pass the class prior, e.g. pi=0.56 for usmo-australian.")
        pi = check_prior(pi, "pi")
        factor = 0.2 if labelled_fraction is None else labelled_fraction
        if isinstance(factor, bool) or not isinstance(factor, numbers.Real) or not (
                0.0 < float(factor) <= 1.0):
            raise ValueError(f"labelled_fraction must lie in (0, 1], got {labelled_fraction!r}.")
    else:
        if pi is not None:
            raise ValueError("pi is only used by rule='usmo'; drop it or use rule='usmo'.")
        if labelled_fraction is None:
            raise ValueError("labelled_fraction is required with rule='fraction'.")
        if isinstance(labelled_fraction, bool) or not isinstance(
                labelled_fraction, numbers.Real) or not 0.0 < float(labelled_fraction) <= 1.0:
            raise ValueError(f"labelled_fraction must lie in (0, 1], got {labelled_fraction!r}.")

    rows = np.arange(n)
    test = np.sort(rng.choice(n, size=n_test, replace=False)) if n_test else _EMPTY.copy()
    train = np.setdiff1d(rows, test)
    train_pos = train[pos[train]]
    if rule == "usmo":
        n_lab = int(math.floor(float(factor) * pi * len(train) + 1e-9))
    else:
        n_lab = int(math.floor(float(labelled_fraction) * len(train_pos) + 0.5))
    if n_lab < 1:
        raise ValueError(
            f"the split labels no positive (p = {n_lab} of {len(train_pos)} training "
            "positives); increase labelled_fraction or pi, or use more data."
        )
    if n_lab > len(train_pos):
        raise ValueError(
            f"the split asks for {n_lab} labelled positives but the training part has only "
            f"{len(train_pos)}; lower labelled_fraction or pi."
        )
    order = rng.permutation(train_pos)
    labelled = np.sort(order[:n_lab])
    unlabelled = np.setdiff1d(train, labelled)
    return PUSplit(labelled.astype(np.int64), unlabelled.astype(np.int64), test.astype(np.int64))


# --------------------------------------------------------------------------- SSL


@dataclass(frozen=True)
class SSLSplit:
    """A semi-supervised split: ``labelled``, ``unlabelled`` and ``test`` rows (sorted)."""

    labelled: np.ndarray
    unlabelled: np.ndarray
    test: np.ndarray


def ssl_split(y: Any, *, n_labelled: int | None = None, labelled_fraction: float | None = None,
              test_size: float | int | None = None, random_state: Any = None) -> SSLSplit:
    """Stratified labelled / unlabelled / test split with at least one labelled row per class.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels (binary or multi-class, any codes).
    n_labelled : int, optional
        Number of labelled rows (give this or ``labelled_fraction``).
    labelled_fraction : float, optional
        Fraction in (0, 1) of the non-test rows that is labelled (rounded half up).
    test_size : float or int, optional
        Test rows, stratified: a fraction in [0, 1) (rounded half up) or a count.
        Default: no test set.
    random_state : int, numpy.random.Generator or None

    Returns
    -------
    SSLSplit
        Class proportions of each part follow ``y`` (largest-remainder rounding); every
        class has at least one labelled row.
    """
    a = _labels(y)
    n = a.shape[0]
    if (n_labelled is None) == (labelled_fraction is None):
        raise ValueError("give exactly one of n_labelled and labelled_fraction.")
    rng = check_random_state(random_state)
    n_classes = len(np.unique(a))
    if n_classes < 2:
        raise ValueError("y has a single class; an SSL split needs at least two classes.")
    n_test = _n_from_size(test_size, n, "test_size")
    rows = np.arange(n)
    test = _stratified_draw(rng, a, rows, n_test) if n_test else _EMPTY.copy()
    pool = np.setdiff1d(rows, test)
    if labelled_fraction is not None:
        if isinstance(labelled_fraction, bool) or not isinstance(
                labelled_fraction, numbers.Real) or not 0.0 < float(labelled_fraction) < 1.0:
            raise ValueError(f"labelled_fraction must lie in (0, 1), got {labelled_fraction!r}.")
        k = int(math.floor(float(labelled_fraction) * len(pool) + 0.5))
    else:
        k = check_int(n_labelled, "n_labelled", minimum=1)
    pool_classes = len(np.unique(a[pool]))
    if pool_classes < n_classes:
        raise ValueError("the test set took every row of some class; lower test_size.")
    if k < n_classes:
        raise ValueError(f"n_labelled={k} is below the number of classes ({n_classes}); "
                         "at least one labelled row per class is required.")
    if k >= len(pool):
        raise ValueError(f"n_labelled={k} leaves no unlabelled row out of {len(pool)}.")
    labelled = _stratified_draw(rng, a, pool, k, min_per_class=1)
    unlabelled = np.setdiff1d(pool, labelled)
    return SSLSplit(labelled.astype(np.int64), unlabelled.astype(np.int64), test.astype(np.int64))


# --------------------------------------------------------------------------- SU


@dataclass(frozen=True)
class SUSplit:
    """A similar-unlabelled split (Bao et al. 2018; TSGSU, Shi et al. 2021, Section 6, "Datasets").

    Attributes
    ----------
    pairs : ndarray of int64, shape (n_pairs, 2)
        Similar pairs: both rows of a pair have the same class.
    unlabelled : ndarray of int64
        Unlabelled rows (sorted).
    test : ndarray of int64
        Test rows (sorted).
    pi : float
        The class prior used to draw the sample.
    """

    pairs: np.ndarray
    unlabelled: np.ndarray
    test: np.ndarray
    pi: float

    @property
    def similar(self) -> np.ndarray:
        """The pairs flattened into ``2 * n_pairs`` rows (the point-wise SU risk uses these)."""
        return self.pairs.ravel()


def su_split(y: Any, *, n_pairs: int, n_unlabelled: int, n_test: int | None = None,
             pi: float | None = None, random_state: Any = None) -> SUSplit:
    """Draw similar pairs, unlabelled rows and test rows (all disjoint) from a labelled pool.

    The recipe of TSGSU Section 6 ("Datasets"), completed as Bao et al.'s generator:

    1. ``pi`` = the pool's positive fraction unless given.
    2. ``n_pos_pairs ~ Binomial(n_pairs, pi^2 / (pi^2 + (1 - pi)^2))``; the rest are
       negative pairs.
    3. ``2 * n_pos_pairs`` distinct positives and ``2 * n_neg_pairs`` distinct negatives are
       drawn without replacement and paired in draw order.
    4. From the remaining rows, ``n_U+ ~ Binomial(n_unlabelled, pi)`` positives and
       ``n_unlabelled - n_U+`` negatives form the unlabelled set.
    5. From what remains, ``n_test`` rows (default ``floor(n_unlabelled / 3)``) are drawn
       uniformly (natural prior).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True +1/-1 labels of the pool.
    n_pairs, n_unlabelled : int
        Number of similar pairs (``2 * n_pairs`` rows) and of unlabelled rows (>= 1).
    n_test : int, optional
        Number of test rows; default ``n_unlabelled // 3``; 0 for none.
    pi : float, optional
        Class prior in (0, 1) used for the draws; default the pool's positive fraction.
    random_state : int, numpy.random.Generator or None

    Returns
    -------
    SUSplit

    Raises
    ------
    ValueError
        If the pool has too few positives or negatives for the draws.
    """
    pos = _pm1(y)
    n = pos.shape[0]
    n_pairs = check_int(n_pairs, "n_pairs", minimum=1)
    n_unlabelled = check_int(n_unlabelled, "n_unlabelled", minimum=1)
    n_test = n_unlabelled // 3 if n_test is None else check_int(n_test, "n_test", minimum=0)
    if pi is None:
        pi = float(pos.mean())
        if not 0.0 < pi < 1.0:
            raise ValueError("y has a single class; the SU split needs both classes.")
    else:
        pi = check_prior(pi, "pi")
    if 2 * n_pairs + n_unlabelled + n_test > n:
        raise ValueError(
            f"2*n_pairs + n_unlabelled + n_test = {2 * n_pairs + n_unlabelled + n_test} "
            f"exceeds the {n} rows of y; lower n_pairs, n_unlabelled or n_test."
        )
    rng = check_random_state(random_state)
    p_pos_pair = pi**2 / (pi**2 + (1.0 - pi) ** 2)
    n_pos_pairs = int(rng.binomial(n_pairs, p_pos_pair))
    n_neg_pairs = n_pairs - n_pos_pairs
    pos_rows, neg_rows = np.flatnonzero(pos), np.flatnonzero(~pos)
    if 2 * n_pos_pairs > len(pos_rows) or 2 * n_neg_pairs > len(neg_rows):
        raise ValueError(
            f"not enough rows for {n_pos_pairs} positive and {n_neg_pairs} negative pairs "
            f"({len(pos_rows)} positives, {len(neg_rows)} negatives); lower n_pairs."
        )
    sp_rows = rng.choice(pos_rows, size=2 * n_pos_pairs, replace=False)
    sn_rows = rng.choice(neg_rows, size=2 * n_neg_pairs, replace=False)
    pairs = np.concatenate([sp_rows.reshape(-1, 2), sn_rows.reshape(-1, 2)]).astype(np.int64)
    pairs = pairs[rng.permutation(n_pairs)]
    pos_left = np.setdiff1d(pos_rows, sp_rows)
    neg_left = np.setdiff1d(neg_rows, sn_rows)
    n_u_pos = int(rng.binomial(n_unlabelled, pi))
    n_u_neg = n_unlabelled - n_u_pos
    if n_u_pos > len(pos_left) or n_u_neg > len(neg_left):
        raise ValueError(
            f"not enough rows left for {n_u_pos} positive and {n_u_neg} negative unlabelled "
            f"rows ({len(pos_left)} / {len(neg_left)} left); lower n_unlabelled or n_pairs."
        )
    unl = np.concatenate([rng.choice(pos_left, size=n_u_pos, replace=False),
                          rng.choice(neg_left, size=n_u_neg, replace=False)])
    rest = np.setdiff1d(np.arange(n), np.concatenate([pairs.ravel(), unl]))
    if n_test > len(rest):
        raise ValueError(f"n_test={n_test} exceeds the {len(rest)} rows left; lower it.")
    test = rng.choice(rest, size=n_test, replace=False)
    return SUSplit(pairs, np.sort(unl).astype(np.int64), np.sort(test).astype(np.int64), pi)


# --------------------------------------------------------------------------- MIL


@dataclass(frozen=True)
class MILBags:
    """Multiple-instance bags built from labelled instances.

    Attributes
    ----------
    bags : ndarray of int64, shape (n_bags, bag_size)
        Row indices of each bag's instances; every row is used at most once.
    bag_labels : ndarray of float64, shape (n_bags,)
        ``+1`` if the bag holds at least one positive instance, else ``-1``.
    instance_labels : ndarray of float64, shape (n_bags, bag_size)
        The true +1/-1 label of every instance (for evaluation only).
    """

    bags: np.ndarray
    bag_labels: np.ndarray
    instance_labels: np.ndarray

    @property
    def instances(self) -> np.ndarray:
        """All instance rows, bag by bag (``bags.ravel()``)."""
        return self.bags.ravel()

    @property
    def membership(self) -> np.ndarray:
        """Bag number of each entry of :attr:`instances`."""
        return np.repeat(np.arange(self.bags.shape[0]), self.bags.shape[1])


def mil_bags(y: Any, *, bag_size: int, n_bags: int, witness_rate: float | None = None,
             positive_bag_fraction: float = 0.5, random_state: Any = None) -> MILBags:
    """Group instances into bags; a bag is positive iff it holds at least one positive.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Instance labels, +1/-1 (or 1/0).
    bag_size : int
        Instances per bag (>= 1).
    n_bags : int
        Number of bags (>= 1); ``n_bags * bag_size`` rows are used, each at most once.
    witness_rate : float, optional
        Controlled composition: ``round(positive_bag_fraction * n_bags)`` positive bags
        (listed first), each with ``max(1, round(witness_rate * bag_size))`` positive
        instances, and negative bags with negatives only. When None (default), instances
        are drawn uniformly at random and each bag is labelled by the rule above.
    positive_bag_fraction : float, default 0.5
        Fraction of positive bags, used only with ``witness_rate``.
    random_state : int, numpy.random.Generator or None

    Returns
    -------
    MILBags
    """
    pos = _pm1(y)
    n = pos.shape[0]
    bag_size = check_int(bag_size, "bag_size", minimum=1)
    n_bags = check_int(n_bags, "n_bags", minimum=1)
    if n_bags * bag_size > n:
        raise ValueError(f"n_bags * bag_size = {n_bags * bag_size} exceeds the {n} rows of y.")
    rng = check_random_state(random_state)
    if witness_rate is None:
        bags = rng.choice(n, size=n_bags * bag_size, replace=False).reshape(n_bags, bag_size)
    else:
        if isinstance(witness_rate, bool) or not isinstance(witness_rate, numbers.Real) or not (
                0.0 < float(witness_rate) <= 1.0):
            raise ValueError(f"witness_rate must lie in (0, 1], got {witness_rate!r}.")
        if isinstance(positive_bag_fraction, bool) or not isinstance(
                positive_bag_fraction, numbers.Real) or not 0.0 <= positive_bag_fraction <= 1.0:
            raise ValueError("positive_bag_fraction must lie in [0, 1], "
                             f"got {positive_bag_fraction!r}.")
        n_pos_bags = int(math.floor(positive_bag_fraction * n_bags + 0.5))
        k = max(1, int(math.floor(float(witness_rate) * bag_size + 0.5)))
        need_pos = n_pos_bags * k
        need_neg = n_pos_bags * (bag_size - k) + (n_bags - n_pos_bags) * bag_size
        pos_rows, neg_rows = np.flatnonzero(pos), np.flatnonzero(~pos)
        if need_pos > len(pos_rows) or need_neg > len(neg_rows):
            raise ValueError(
                f"the bags need {need_pos} positive and {need_neg} negative instances but y "
                f"has {len(pos_rows)} / {len(neg_rows)}; lower n_bags, bag_size or "
                "witness_rate."
            )
        p = rng.choice(pos_rows, size=need_pos, replace=False)
        q = rng.choice(neg_rows, size=need_neg, replace=False)
        n_fill = n_pos_bags * (bag_size - k)
        pos_bags = np.concatenate([p.reshape(n_pos_bags, k),
                                   q[:n_fill].reshape(n_pos_bags, bag_size - k)], axis=1)
        neg_bags = q[n_fill:].reshape(n_bags - n_pos_bags, bag_size)
        bags = np.concatenate([pos_bags, neg_bags])
        bags = np.take_along_axis(bags, rng.permuted(
            np.tile(np.arange(bag_size), (n_bags, 1)), axis=1), axis=1)
    bags = bags.astype(np.int64)
    inst = np.where(pos[bags], 1.0, -1.0)
    labels = np.where(inst.max(axis=1) > 0, 1.0, -1.0)
    return MILBags(bags, labels, inst)
