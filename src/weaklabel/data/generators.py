"""Seeded generators of published benchmark recipes, any number of samples.

Pure, vectorised functions ``(n_samples, *, ..., random_state) -> (X, y)`` with float64
``X`` and ``y`` in ``{+1, -1}`` (float64). They stand in for benchmark sets that are not
available offline, at whatever size an experiment needs (e.g. the 143 333-point pools of
the ``n_U = 100 000`` protocol of Shi et al. 2021):

- :func:`breiman_waveform`: the three-class waveform problem of Breiman et al. 1984
  (CART book), one class positive;
- :func:`twonorm`, :func:`ringnorm`: the two-Gaussian problems of Breiman 1996 ("Bias,
  variance and arcing classifiers"), with the class prior as a parameter because the SU
  risk of Bao et al. 2018 is undefined at prior 1/2;
- :func:`sparse_text`: a bag-of-words, tf-idf-style sparse two-class problem (scipy CSR),
  a stand-in for high-dimensional sparse text sets such as real-sim (Table 5 of Shi et al.
  2021) and for the large-scale sparse experiments of Li et al. 2013 (WellSVM).

Every function draws from ``numpy.random.default_rng(random_state)`` in a fixed order, so
one seed gives one data set.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from weaklabel._validation import check_int, check_positive, check_prior
from weaklabel.data.splits import check_random_state

__all__ = ["breiman_waveform", "ringnorm", "sparse_text", "twonorm"]

_WAVE_FEATURES = 21


def _base_waves() -> np.ndarray:
    """The three triangular base waves of Breiman et al. 1984 over 21 positions (rows h1, h2,
    h3): height 6, half-width 6, peaks at positions 7, 15 and 11 (1-based)."""
    i = np.arange(_WAVE_FEATURES, dtype=np.float64)
    return np.stack([np.maximum(6.0 - np.abs(i - c), 0.0) for c in (6.0, 14.0, 10.0)])


def breiman_waveform(n_samples: int, *, noise: float = 1.0, positive_class: int = 0,
                     random_state=None) -> tuple[np.ndarray, np.ndarray]:
    """Breiman et al. 1984 waveform data (21 features, 3 classes), one class positive.

    Each point picks a class uniformly (prior 1/3 each), ``u ~ U(0, 1)`` and
    ``eps ~ N(0, noise^2 I)``; with the base waves ``h1, h2, h3`` (triangles of height 6
    peaking at positions 7, 15 and 11 of 21):

    - class 0: ``x = u h1 + (1 - u) h2 + eps``;
    - class 1: ``x = u h1 + (1 - u) h3 + eps``;
    - class 2: ``x = u h2 + (1 - u) h3 + eps``.

    This is the recipe behind the UCI "waveform" file (its class means match, e.g. the
    ``uci-waveform`` registry set). ``y = +1`` for ``positive_class``, so the positive prior
    is about 1/3.

    Parameters
    ----------
    n_samples : int
        Number of points (>= 1).
    noise : float, default=1.0
        Standard deviation of the additive Gaussian noise (Breiman's value is 1).
    positive_class : {0, 1, 2}, default=0
        The class mapped to ``+1``; the two others are ``-1``.
    random_state : int, numpy Generator or None

    Returns
    -------
    X : ndarray of shape (n_samples, 21), float64
    y : ndarray of shape (n_samples,), float64
        ``+1`` / ``-1``.

    Raises
    ------
    ValueError
        ``n_samples < 1``, negative ``noise`` or ``positive_class`` not in {0, 1, 2}.
    """
    n = check_int(n_samples, "n_samples", minimum=1)
    noise = check_positive(noise, "noise", allow_zero=True)
    pc = check_int(positive_class, "positive_class", minimum=0)
    if pc > 2:
        raise ValueError(f"positive_class must be 0, 1 or 2, got {positive_class}.")
    rng = check_random_state(random_state)
    h = _base_waves()
    first = np.array([0, 0, 1])
    second = np.array([1, 2, 2])
    cls = rng.integers(0, 3, size=n)
    u = rng.random(n)[:, None]
    X = u * h[first[cls]]
    X += (1.0 - u) * h[second[cls]]
    X += noise * rng.standard_normal((n, _WAVE_FEATURES))
    y = np.where(cls == pc, 1.0, -1.0)
    return X, y


def _two_class_labels(rng: np.random.Generator, n: int, prior: float) -> np.ndarray:
    return rng.random(n) < prior


def twonorm(n_samples: int, *, d: int = 20, positive_prior: float = 0.5,
            random_state=None) -> tuple[np.ndarray, np.ndarray]:
    """Breiman 1996 "twonorm": ``N(+a, I)`` (class ``+1``) vs ``N(-a, I)`` (class ``-1``).

    ``a = (2 / sqrt(d)) * (1, ..., 1)``; the Bayes rule is linear (``sign(sum x)``) with
    error ``Phi(-2)`` ~ 2.3 % whatever ``d``. Breiman's classes are balanced
    (``positive_prior = 0.5``); SU experiments need an unbalanced pool (the SU risk of Bao et
    al. 2018 divides by ``2 pi - 1``), so the prior is a parameter.

    Parameters
    ----------
    n_samples : int
        Number of points (>= 1).
    d : int, default=20
        Dimension (Breiman: 20).
    positive_prior : float, default=0.5
        Probability of class ``+1`` (each label is an independent draw).
    random_state : int, numpy Generator or None

    Returns
    -------
    X : ndarray of shape (n_samples, d), float64
    y : ndarray of shape (n_samples,), float64
    """
    n = check_int(n_samples, "n_samples", minimum=1)
    d = check_int(d, "d", minimum=1)
    prior = check_prior(positive_prior, "positive_prior")
    rng = check_random_state(random_state)
    pos = _two_class_labels(rng, n, prior)
    a = 2.0 / np.sqrt(d)
    X = rng.standard_normal((n, d))
    X += np.where(pos, a, -a)[:, None]
    return X, np.where(pos, 1.0, -1.0)


def ringnorm(n_samples: int, *, d: int = 20, positive_prior: float = 0.5,
             random_state=None) -> tuple[np.ndarray, np.ndarray]:
    """Breiman 1996 "ringnorm": ``N(0, 4 I)`` (class ``+1``) vs ``N(a, I)`` (class ``-1``).

    ``a = (1 / sqrt(d)) * (1, ..., 1)``. The Bayes rule is quadratic, so kernel methods beat
    linear ones by a wide margin. Class ``+1`` is the wide "ring" class, as in the
    ``delve-ringnorm`` registry set (class 0 of DELVE). Breiman's classes are balanced; the
    prior is a parameter because the SU risk of Bao et al. 2018 is undefined at 1/2.

    Parameters
    ----------
    n_samples : int
        Number of points (>= 1).
    d : int, default=20
        Dimension (Breiman: 20).
    positive_prior : float, default=0.5
        Probability of class ``+1``.
    random_state : int, numpy Generator or None

    Returns
    -------
    X : ndarray of shape (n_samples, d), float64
    y : ndarray of shape (n_samples,), float64
    """
    n = check_int(n_samples, "n_samples", minimum=1)
    d = check_int(d, "d", minimum=1)
    prior = check_prior(positive_prior, "positive_prior")
    rng = check_random_state(random_state)
    pos = _two_class_labels(rng, n, prior)
    X = rng.standard_normal((n, d))
    X *= np.where(pos, 2.0, 1.0)[:, None]
    X += np.where(pos, 0.0, 1.0 / np.sqrt(d))[:, None]
    return X, np.where(pos, 1.0, -1.0)


_TEXT_CHUNK = 65536


def _text_vocabulary(rng: np.random.Generator, d: int, zipf_exponent: float,
                     informative_fraction: float, separation: float):
    """Word distributions of the two classes and the idf weights of :func:`sparse_text`."""
    ranks = rng.permutation(d)  # word j has frequency rank ranks[j]
    base = (ranks + 1.0) ** -zipf_exponent
    base /= base.sum()
    n_inf = int(round(informative_fraction * d))
    sign = np.zeros(d)
    if n_inf:
        inf = rng.choice(d, size=n_inf, replace=False)
        sign[inf] = rng.choice(np.array([-1.0, 1.0]), size=n_inf)
    p_pos = base * np.exp(0.5 * separation * sign)
    p_neg = base * np.exp(-0.5 * separation * sign)
    p_pos /= p_pos.sum()
    p_neg /= p_neg.sum()
    return p_pos, p_neg


def sparse_text(n_samples: int, *, d: int = 20000, nnz_per_row: int = 50,
                positive_prior: float = 0.3, label_noise: float = 0.05,
                zipf_exponent: float = 1.0, informative_fraction: float = 0.2,
                separation: float = 1.5, random_state=None) -> tuple[sp.csr_matrix, np.ndarray]:
    """A seeded sparse high-dimensional two-class problem in bag-of-words style.

    Recipe (all drawn from one seed):

    1. Vocabulary of ``d`` words with Zipf frequencies ``p_j ~ rank_j^(-zipf_exponent)``
       (ranks a random permutation of the word ids). A random ``informative_fraction`` of
       the words gets a class sign ``s_j = +-1`` (0 for the rest); the class word
       distributions are ``p_j^(+-) ~ p_j exp(+-separation s_j / 2)``.
    2. Each row draws its true class with prior ``pi'``, then ``nnz_per_row`` words (with
       replacement) from its class distribution; repeated words add up to a count.
    3. Entries are ``(1 + log count) * idf_j`` with the population idf
       ``idf_j = 1 + log(1 / P(word j occurs in a row))`` (computed from the generator's
       distributions, so a row does not depend on ``n_samples``); rows are L2-normalised.
    4. Labels are flipped with probability ``label_noise``. ``pi'`` is chosen so that the
       returned labels have prior ``positive_prior``:
       ``pi' = (positive_prior - label_noise) / (1 - 2 label_noise)``.

    Memory is linear in the number of stored entries (rows are built in chunks); a row has
    at most ``nnz_per_row`` stored entries (fewer when a word repeats).

    Parameters
    ----------
    n_samples : int
        Number of rows (>= 1).
    d : int, default=20000
        Vocabulary size (number of columns, >= 2).
    nnz_per_row : int, default=50
        Word draws per row (>= 1).
    positive_prior : float, default=0.3
        Prior of the returned ``+1`` labels, strictly between ``label_noise`` and
        ``1 - label_noise``.
    label_noise : float, default=0.05
        Probability of flipping a label, in [0, 0.5).
    zipf_exponent : float, default=1.0
        Exponent of the Zipf word frequencies.
    informative_fraction : float, default=0.2
        Share of the vocabulary whose frequency depends on the class, in [0, 1].
    separation : float, default=1.5
        Log-ratio of an informative word's frequency between the two classes.
    random_state : int, numpy Generator or None

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n_samples, d), float64
        Sorted column indices, no explicit zeros, rows of unit L2 norm.
    y : ndarray of shape (n_samples,), float64
        ``+1`` / ``-1`` (after the label noise).

    Raises
    ------
    ValueError
        A bad argument (named in the message).
    """
    n = check_int(n_samples, "n_samples", minimum=1)
    d = check_int(d, "d", minimum=2)
    k = check_int(nnz_per_row, "nnz_per_row", minimum=1)
    eta = check_positive(label_noise, "label_noise", allow_zero=True)
    if eta >= 0.5:
        raise ValueError(f"label_noise must lie in [0, 0.5), got {label_noise}.")
    prior = check_prior(positive_prior, "positive_prior")
    if not eta < prior < 1.0 - eta:
        raise ValueError(
            f"positive_prior must lie strictly between label_noise={eta} and "
            f"1 - label_noise={1.0 - eta}, got {positive_prior}.")
    zipf = check_positive(zipf_exponent, "zipf_exponent", allow_zero=True)
    frac = check_positive(informative_fraction, "informative_fraction", allow_zero=True)
    if frac > 1.0:
        raise ValueError(f"informative_fraction must lie in [0, 1], got {informative_fraction}.")
    sep = check_positive(separation, "separation", allow_zero=True)
    true_prior = (prior - eta) / (1.0 - 2.0 * eta)
    rng = check_random_state(random_state)
    p_pos, p_neg = _text_vocabulary(rng, d, zipf, frac, sep)
    occur = true_prior * -np.expm1(k * np.log1p(-p_pos)) \
        + (1.0 - true_prior) * -np.expm1(k * np.log1p(-p_neg))
    idf = 1.0 - np.log(np.maximum(occur, 1e-300))
    cdf = (np.cumsum(p_pos), np.cumsum(p_neg))
    for c in cdf:
        c[-1] = 1.0

    pos = rng.random(n) < true_prior
    flip = rng.random(n) < eta
    y = np.where(pos ^ flip, 1.0, -1.0)

    indptr = np.zeros(n + 1, dtype=np.int64)
    parts_idx: list[np.ndarray] = []
    parts_val: list[np.ndarray] = []
    for start in range(0, n, _TEXT_CHUNK):
        stop = min(start + _TEXT_CHUNK, n)
        m = stop - start
        u = rng.random((m, k))
        words = np.empty((m, k), dtype=np.int64)
        cp = pos[start:stop]
        words[cp] = np.searchsorted(cdf[0], u[cp], side="right")
        words[~cp] = np.searchsorted(cdf[1], u[~cp], side="right")
        np.minimum(words, d - 1, out=words)
        keys = (np.arange(m, dtype=np.int64)[:, None] * d + words).ravel()
        keys, counts = np.unique(keys, return_counts=True)
        rows = keys // d
        cols = keys - rows * d
        vals = (1.0 + np.log(counts)) * idf[cols]
        norms = np.sqrt(np.bincount(rows, weights=vals * vals, minlength=m))
        vals /= norms[rows]
        indptr[start + 1: stop + 1] = np.cumsum(np.bincount(rows, minlength=m))
        indptr[start + 1: stop + 1] += indptr[start]
        parts_idx.append(cols.astype(np.int32))
        parts_val.append(vals)
    indices = np.concatenate(parts_idx)
    data = np.concatenate(parts_val)
    if indptr[-1] <= np.iinfo(np.int32).max:
        indptr = indptr.astype(np.int32)
    X = sp.csr_matrix((data, indices, indptr), shape=(n, d))
    X.has_sorted_indices = True
    return X, y
