"""Seeded synthetic data generators (pure functions; no files).

:func:`two_moons` draws the classic "two moons" problem: two interleaving half circles,
one per class, used as the hard cluster-assumption case of semi-supervised SVM benchmarks
(e.g. the 200-point set of Chapelle, Sindhwani & Keerthi 2008, whose original file is not
available; see :func:`two_moons`).
"""

from __future__ import annotations

import numpy as np

from weaklabel._validation import check_int, check_positive

__all__ = ["two_moons"]


def two_moons(n_samples: int = 200, *, noise: float = 0.1, radius: float = 1.0,
              random_state=None) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaving half circles ("two moons") in 2-D.

    Class ``+1``: the upper half circle of radius ``radius`` centred at ``(0, 0)``; class
    ``-1``: the lower half circle centred at ``(radius, radius / 2)``. Angles are drawn
    uniformly on ``[0, pi]`` and isotropic Gaussian noise of standard deviation ``noise`` is
    added to both coordinates. The two classes get ``n_samples // 2`` and
    ``n_samples - n_samples // 2`` points; rows are returned class ``+1`` first, then class
    ``-1`` (shuffle if the order matters).

    Parameters
    ----------
    n_samples : int, default=200
        Number of points (at least 2).
    noise : float, default=0.1
        Standard deviation of the Gaussian noise (0 for points exactly on the arcs).
    radius : float, default=1.0
        Radius of both half circles.
    random_state : int, numpy Generator or None
        Seed of the angles and the noise.

    Returns
    -------
    X : ndarray of shape (n_samples, 2), float64
    y : ndarray of shape (n_samples,), float64
        ``+1`` / ``-1``.

    Raises
    ------
    ValueError
        ``n_samples < 2``, a negative ``noise`` or a non-positive ``radius``.
    """
    n = check_int(n_samples, "n_samples", minimum=2)
    noise = check_positive(noise, "noise", allow_zero=True)
    r = check_positive(radius, "radius")
    rng = np.random.default_rng(random_state)
    n_pos = n // 2
    n_neg = n - n_pos
    t_pos = rng.uniform(0.0, np.pi, n_pos)
    t_neg = rng.uniform(0.0, np.pi, n_neg)
    upper = np.column_stack([r * np.cos(t_pos), r * np.sin(t_pos)])
    lower = np.column_stack([r - r * np.cos(t_neg), r / 2.0 - r * np.sin(t_neg)])
    X = np.vstack([upper, lower]) + noise * rng.standard_normal((n, 2))
    y = np.r_[np.ones(n_pos), -np.ones(n_neg)]
    return X, y
