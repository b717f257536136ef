"""TSGSU: triply stochastic gradient descent for kernel SU classification (Shi et al. 2021).

Similar-unlabelled (SU) learning (Bao et al. 2018) with the consistent risk correction of
Lu et al. 2020, optimised in the RKHS by functional stochastic gradients with random
features, as in doubly stochastic gradients (Dai et al. 2014).

Data. ``XS`` holds the ``2 n_S`` points of the similar pairs, flattened (Shi et al. 2021,
Eq. (7): the pair structure is not used), ``XU`` the unlabelled points, ``prior`` the class
prior ``pi_+ != 1/2``. With ``pi_- = 1 - pi_+``, ``pi_S = pi_+^2 + pi_-^2`` and
``c = 1 / (2 pi_+ - 1)`` the corrected empirical risk is (Shi et al. 2021, Eq. (8))::

    R_+ = c ( pi_S mean_S l(f, +1) - pi_- mean_U l(f, +1) )
    R_- = c ( pi_+ mean_U l(f, -1) - pi_S mean_S l(f, -1) )
    J(f) = lam/2 ||f||_H^2 + delta(R_+) + delta(R_-)                     (Eq. (9))

with ``delta`` = ``|.|`` (``correction="abs"``, the paper's experiments), ``max(0, .)``
(``"relu"``) or the identity (``"none"``: the uncorrected SU risk, Eq. (7)). The losses are
the squared loss ``l(z, y) = (zy - 1)^2 / 4`` and the double hinge
``l(z, y) = max(-zy, max(0, 1/2 - zy/2))`` (Bao et al. 2018).

Iteration ``t = 1..T`` (Shi et al. 2021, Section 4, Algorithms 1-2, Eqs. (22)-(26)):

1. minibatches ``B_S`` (``batch_s`` points of ``XS``) and ``B_U`` (``batch_u`` of ``XU``),
   drawn without replacement by a generator seeded from ``random_state`` (the whole set when
   the batch is at least its size);
2. random-feature block ``phi_t`` regenerated from ``(seed, t)`` alone
   (:func:`random_feature_block`);
3. ``f_t`` on the minibatch: by replaying the blocks ``1..t-1`` from their seeds
   (``mode="faithful"``, Algorithm 2, ``O(T^2)`` work, memory independent of ``n``), read
   from a cache of ``f`` on every training point updated after every iteration
   (``mode="cached"``, ``O(n)`` work per iteration), or read from a cache brought up to
   date only on the points a minibatch draws (``mode="lazy"``: a point drawn at ``t``
   after its previous draw at ``p`` replays blocks ``p+1..t-1``; at most ``(b_S + b_U)
   (t - 1)`` row-block products per iteration whatever ``n``, and never more than the
   cached mode's). The three give the same iterates up to rounding; the lazy mode's row
   arithmetic does not depend on which other rows share a call, so it equals an update of
   every point after every iteration with that arithmetic bit for bit (tested);
4. minibatch risks ``R_+``, ``R_-`` and ``delta'`` at them (``sign`` with ``sign(0) = 1``,
   ``1[R > 0]`` or 1);
5. ``alpha_t = -eta_t sum_{x in B} w(x) phi_t(x)`` (Eq. (25)) with the per-point weights
   of :func:`tsgsu_point_weights`;
6. ``alpha_j <- (1 - eta_t lam) alpha_j`` for ``j < t`` (Eq. (26)), done lazily: the raw
   ``alpha_t`` are stored with the cumulative log decay ``L_t = sum_{j<=t} log(1 - eta_j
   lam)``, so the model after ``t`` iterations is
   ``f_{t+1}(x) = sum_{i<=t} exp(L_t - L_i) alpha_i' phi_i(x)`` for any ``t``.

Steps: ``schedule="inv_sqrt"`` gives ``eta_t = eta0 / sqrt(t)``; ``"const"`` gives
``eta_t = eta0 / sqrt(T)`` (``theta / sqrt(T)`` of Shi et al. 2021, Theorem 1). ``eta_t lam``
must stay below 1.

Kernels and their random features (one block = ``n_features`` = ``m`` draws):

- ``kernel="rbf"``: ``k(x, x') = exp(-gamma ||x - x'||^2)`` (the paper's ``sigma`` is
  ``gamma``); random Fourier features (Rahimi & Recht 2008; Shi et al. 2021, Eq. (13))
  ``omega ~ N(0, 2 gamma I_d)``, ``phi(x) = [cos(W x), sin(W x)] / sqrt(m)``: ``2 m`` columns.
- ``kernel="poly"``: ``k(x, x') = (scale <x, x'>)^degree`` (the paper's dot-product kernel,
  ``sigma_1 = scale``, ``sigma_2 = degree``; Shi et al. 2021, Section 6.2), with
  ``features="maclaurin"`` (Kar & Karnick 2012: ``phi_j(x) = sqrt(scale^degree / m)
  prod_k <r_jk, x>`` with Rademacher ``r_jk``) or ``features="tensorsketch"`` (Pham & Pagh
  2013: ``degree`` count sketches combined by FFT, scaled by ``sqrt(scale^degree)``); ``m``
  columns. Both accept ``scipy.sparse`` CSR input without densifying it.

All three maps are unbiased: ``E[phi(x) . phi(x')] = k(x, x')``.
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field

import numba as nb
import numpy as np
import scipy.sparse as sp

from .._validation import check_choice, check_int, check_positive, check_prior

__all__ = ["TSGSUResult", "TSGSUDivergenceError", "maclaurin_features", "random_feature_block",
           "rff_features", "tensorsketch_features", "tsgsu", "tsgsu_batches",
           "tsgsu_mode", "tsgsu_point_weights", "tsgsu_risk_terms", "tsgsu_seed"]

_KERNELS = ("rbf", "poly")
_FEATURES = ("auto", "rff", "maclaurin", "tensorsketch")
_LOSSES = ("squared", "double_hinge")
_CORRECTIONS = ("abs", "relu", "none")
_MODES = ("auto", "cached", "faithful", "lazy")
_LAZY_FEATURES = ("rff", "maclaurin")


def tsgsu_mode(n_s: int, n_u: int, batch_s: int, batch_u: int, n_iter: int,
               features: str = "rff") -> str:
    """The mode ``mode="auto"`` runs: ``"cached"`` while its row-block products
    ``(n_S + n_U) T`` are at most the paper's (faithful) mode's ``(b_S + b_U) T (T-1) / 2``
    (batches clipped to the set sizes), else ``"lazy"`` (never more products than the
    faithful mode), or ``"faithful"`` for features the lazy mode does not support. So the
    default's product count is bounded by the faithful mode's, which does not depend on
    ``n``: at the estimator's defaults (batches 1000 + 1000, T = 100) the switch is at
    ``n_S + n_U`` = 99 000."""
    b = min(batch_s, n_s) + min(batch_u, n_u)
    if (n_s + n_u) * n_iter <= b * n_iter * (n_iter - 1) // 2:
        return "cached"
    return "lazy" if features in _LAZY_FEATURES else "faithful"
_LAZY_BLOCK_BYTES = 64 * 2**20  # regenerated blocks kept by the lazy cache (LRU)
_SCHEDULES = ("inv_sqrt", "const")
_ROWS = 4096  # rows per chunk when evaluating on many points
_RFF_ROWS = 256  # rows per random-Fourier projection (2 MB at m = 1000: stays in cache)
_RADEMACHER_CHUNK = 256  # Rademacher rows converted to float at a time (Maclaurin)


class TSGSUDivergenceError(FloatingPointError, ValueError):
    """The TSGSU iterates became non-finite (the step size ``eta0`` is too large)."""


# --------------------------------------------------------------------------- validation
def _check_data(X, name: str, *, n_features: int | None = None):
    """``X`` as C-contiguous float64 or as float64 CSR (sparse input stays sparse)."""
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array of shape (n_samples, n_features).")
    if sp.issparse(X):
        A = sp.csr_matrix(X, dtype=np.float64)
        A.sum_duplicates()
        vals = A.data
    else:
        try:
            A = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be numeric (array-like of floats): {exc}") from None
        if A.ndim != 2:
            raise ValueError(
                f"{name} must be 2-D (n_samples, n_features), got shape {A.shape}.")
        A = np.ascontiguousarray(A)
        vals = A
    if A.shape[0] == 0:
        raise ValueError(f"{name} is empty (0 rows); at least one sample is required.")
    if A.shape[1] == 0:
        raise ValueError(f"{name} has 0 features (shape={A.shape}); at least 1 is required.")
    if not np.all(np.isfinite(vals)):
        bad = int(np.sum(~np.isfinite(vals)))
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s); impute or drop them.")
    if n_features is not None and A.shape[1] != n_features:
        raise ValueError(
            f"{name} has {A.shape[1]} features but {n_features} were expected (the number of "
            "features of XS / of the training data).")
    return A


def _check_kernel(kernel, features, gamma, degree, scale):
    check_choice(kernel, "kernel", _KERNELS)
    check_choice(features, "features", _FEATURES)
    if features == "auto":
        features = "rff" if kernel == "rbf" else "tensorsketch"
    if kernel == "rbf" and features != "rff":
        raise ValueError(
            f"features={features!r} approximates the dot-product kernel; with kernel='rbf' "
            "use features='rff' (or 'auto').")
    if kernel == "poly" and features == "rff":
        raise ValueError(
            "features='rff' approximates the Gaussian kernel; with kernel='poly' use "
            "features='maclaurin' or 'tensorsketch' (or 'auto').")
    gamma = check_positive(gamma, "gamma")
    degree = check_int(degree, "degree", minimum=1)
    scale = check_positive(scale, "scale")
    return features, gamma, degree, scale


def tsgsu_seed(random_state) -> int:
    """The base seed (a non-negative int) of a run from ``random_state`` (None, int or
    ``numpy.random.Generator``)."""
    if random_state is None:
        return int(np.random.SeedSequence().entropy % (2**63))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2**63))
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if int(random_state) < 0:
            raise ValueError(f"random_state must be >= 0, got {random_state}.")
        return int(random_state)
    raise TypeError(
        "random_state must be None, a non-negative int or a numpy Generator, got "
        f"{type(random_state).__name__}.")


# --------------------------------------------------------------------------- feature maps
def _n_columns(features: str, n_features: int) -> int:
    return 2 * n_features if features == "rff" else n_features


def _draw_block(features, t, seed, d, m, gamma, degree):
    """Parameters of block ``t``, regenerated from ``(seed, t)`` alone."""
    rng = np.random.default_rng([int(seed), int(t)])
    if features == "rff":
        return rng.normal(0.0, math.sqrt(2.0 * gamma), size=(m, d))
    if features == "maclaurin":  # int8 Rademacher matrices, one per factor
        return [(rng.integers(0, 2, size=(m, d), dtype=np.int8) * 2 - 1).astype(np.int8)
                for _ in range(degree)]
    # tensorsketch: per factor a hash d -> [0, m) and a sign d -> {-1, +1}
    out = []
    for _ in range(degree):
        h = rng.integers(0, m, size=d)
        s = rng.integers(0, 2, size=d) * 2.0 - 1.0
        out.append(sp.csr_matrix((s, (np.arange(d), h)), shape=(d, m)))
    return out


def _project(X, W):
    """``X W'`` as a C-contiguous dense array (``X`` dense or CSR)."""
    return np.ascontiguousarray(np.asarray(X @ W.T, dtype=np.float64))


def _apply_block(X, features, params, m, degree, scale):
    """Dense features ``(n, D)`` of a non-RFF block (``rff`` is handled by the numba
    kernels on the projections ``Z = X W'``)."""
    n = X.shape[0]
    if features == "rff":
        Z = _project(X, params)
        c, s = _sincos_array(Z.ravel())
        return np.hstack([c.reshape(Z.shape), s.reshape(Z.shape)]) / math.sqrt(m)
    if features == "maclaurin":
        out = np.ones((n, m))
        for R in params:
            for lo in range(0, m, _RADEMACHER_CHUNK):
                Rc = R[lo:lo + _RADEMACHER_CHUNK].astype(np.float64)
                out[:, lo:lo + _RADEMACHER_CHUNK] *= _project(X, Rc)
        out *= math.sqrt(scale**degree / m)
        return out
    prod = None
    for S in params:
        C = X @ S  # count sketch (n, m)
        C = C.toarray() if sp.issparse(C) else np.asarray(C, dtype=np.float64)
        F = np.fft.rfft(C, axis=1)
        prod = F if prod is None else prod * F
    out = np.fft.irfft(prod, n=m, axis=1)
    out *= math.sqrt(scale**degree)
    return np.ascontiguousarray(out)


def rff_features(X, W):
    """Random Fourier features ``[cos(X W'), sin(X W')] / sqrt(m)`` (Shi et al. 2021,
    Eq. (13), normalised by ``1/sqrt(m)``) for frequencies ``W`` of shape ``(m, d)``."""
    X = _check_data(X, "X")
    W = np.asarray(W, dtype=np.float64)
    if W.ndim != 2 or W.shape[1] != X.shape[1]:
        raise ValueError(f"W must have shape (m, {X.shape[1]}), got {W.shape}.")
    return _apply_block(X, "rff", W, W.shape[0], 1, 1.0)


def maclaurin_features(X, *, degree=2, scale=1.0, n_features=100, seed=0):
    """Random Maclaurin features of ``(scale <x, x'>)^degree`` (Kar & Karnick 2012), one
    block drawn from ``seed``; ``X`` dense or CSR; returns ``(n, n_features)``."""
    X = _check_data(X, "X")
    degree = check_int(degree, "degree", minimum=1)
    scale = check_positive(scale, "scale")
    m = check_int(n_features, "n_features", minimum=1)
    params = _draw_block("maclaurin", 0, seed, X.shape[1], m, 1.0, degree)
    return _apply_block(X, "maclaurin", params, m, degree, scale)


def tensorsketch_features(X, *, degree=2, scale=1.0, n_features=100, seed=0):
    """TensorSketch features of ``(scale <x, x'>)^degree`` (Pham & Pagh 2013), one block
    drawn from ``seed``; ``X`` dense or CSR; returns ``(n, n_features)``."""
    X = _check_data(X, "X")
    degree = check_int(degree, "degree", minimum=1)
    scale = check_positive(scale, "scale")
    m = check_int(n_features, "n_features", minimum=1)
    params = _draw_block("tensorsketch", 0, seed, X.shape[1], m, 1.0, degree)
    return _apply_block(X, "tensorsketch", params, m, degree, scale)


def random_feature_block(X, t, *, kernel="rbf", gamma=1.0, degree=2, scale=1.0,
                         features="auto", n_features=1000, seed=0):
    """Features ``phi_t(X)`` of block ``t``, regenerated from ``(seed, t)`` alone.

    Parameters
    ----------
    X : array or CSR matrix (n, d)
    t : int
        Block (iteration) index; the map is drawn from ``np.random.default_rng([seed, t])``.
    kernel, gamma, degree, scale, features
        As in :func:`tsgsu`.
    n_features : int
        ``m``: frequencies (``rff``, giving ``2 m`` columns) or columns (``maclaurin``,
        ``tensorsketch``).
    seed : int

    Returns
    -------
    array (n, D)
        ``E[phi_t(x) . phi_t(x')] = k(x, x')`` over the draw of block ``t``.
    """
    X = _check_data(X, "X")
    features, gamma, degree, scale = _check_kernel(kernel, features, gamma, degree, scale)
    m = check_int(n_features, "n_features", minimum=1)
    t = check_int(t, "t", minimum=0)
    params = _draw_block(features, t, tsgsu_seed(seed), X.shape[1], m, gamma, degree)
    return _apply_block(X, features, params, m, degree, scale)


# --------------------------------------------------------------------------- numba kernels
# cos and sin of the random-feature projections dominate TSGSU's cost (``n m`` pairs per
# block). ``_sincos_row`` evaluates both in one branch-free loop that LLVM vectorises: Cody
# and Waite's reduction ``r = z - k pi/2`` with ``pi/2`` split in three parts (the first with
# 33 significant bits, so ``k * _PIO2_1`` is exact for ``|k| < 2^20``), then the Taylor
# polynomials of sin and cos on ``|r| <= pi/4`` (truncation below 5e-17) and the quadrant
# ``k mod 4``. The absolute error against libm is within 2.3e-16 (tested); projections beyond
# ``_SINCOS_MAX`` fall back to libm.
_PIO2_1 = 1.57079632673412561417e+00
_PIO2_2 = 6.07710050630396597660e-11
_PIO2_3 = 2.02226624871116645580e-21
_TWO_OVER_PI = 6.36619772367581382433e-01
_SINCOS_MAX = 5.0e5
_S1, _S2, _S3, _S4, _S5, _S6, _S7 = (-1.0 / 6.0, 1.0 / 120.0, -1.0 / 5040.0, 1.0 / 362880.0,
                                     -1.0 / 39916800.0, 1.0 / 6227020800.0,
                                     -1.0 / 1307674368000.0)
_C2, _C3, _C4, _C5, _C6, _C7, _C8 = (1.0 / 24.0, -1.0 / 720.0, 1.0 / 40320.0,
                                     -1.0 / 3628800.0, 1.0 / 479001600.0,
                                     -1.0 / 87178291200.0, 1.0 / 20922789888000.0)


@nb.njit(cache=True, nogil=True, fastmath={"contract", "nnan", "ninf", "nsz"})
def _sincos_row(z, c, s):
    """``c = cos(z)``, ``s = sin(z)`` for ``|z| <= _SINCOS_MAX`` (vectorised)."""
    for j in range(z.shape[0]):
        x = z[j]
        k = np.round(x * _TWO_OVER_PI)
        r = ((x - k * _PIO2_1) - k * _PIO2_2) - k * _PIO2_3
        r2 = r * r
        sp = r + r * r2 * (_S1 + r2 * (_S2 + r2 * (_S3 + r2 * (_S4 + r2 * (
            _S5 + r2 * (_S6 + r2 * _S7))))))
        cp = 1.0 - 0.5 * r2 + r2 * r2 * (_C2 + r2 * (_C3 + r2 * (_C4 + r2 * (_C5 + r2 * (
            _C6 + r2 * (_C7 + r2 * _C8))))))
        q = np.int64(k) & 3
        odd = q & 1
        sv = odd * cp + (1 - odd) * sp
        cv = odd * sp + (1 - odd) * cp
        s[j] = (1.0 - 2.0 * (q >> 1)) * sv
        c[j] = (1.0 - 2.0 * ((q ^ (q >> 1)) & 1)) * cv


@nb.njit(cache=True, nogil=True)
def _sincos_libm(z, c, s):
    for j in range(z.shape[0]):
        c[j] = np.cos(z[j])
        s[j] = np.sin(z[j])


def _sincos_array(z):
    """``(cos(z), sin(z))`` of a 1-D float array with the vectorised kernel TSGSU uses
    (libm beyond ``|z| > 5e5``)."""
    z = np.ascontiguousarray(z, dtype=np.float64)
    if z.ndim != 1:
        raise ValueError(f"z must be 1-D, got shape {z.shape}.")
    c, s = np.empty_like(z), np.empty_like(z)
    if z.size:
        (_sincos_libm if np.abs(z).max() > _SINCOS_MAX else _sincos_row)(z, c, s)
    return c, s


@nb.njit(cache=True, nogil=True)
def _rff_dot(Z, a, scale, rho, out, fast):
    """``out[i] = rho out[i] + scale sum_j (a_j cos Z_ij + a_{m+j} sin Z_ij)``."""
    n, m = Z.shape
    c, s = np.empty(m), np.empty(m)
    a1, a2 = a[:m].copy(), a[m:].copy()
    for i in range(n):
        if fast:
            _sincos_row(Z[i], c, s)
        else:
            _sincos_libm(Z[i], c, s)
        out[i] = rho * out[i] + scale * (np.dot(a1, c) + np.dot(a2, s))


@nb.njit(cache=True, nogil=True)
def _rff_tdot(Z, w, scale, out, fast):
    """``out = scale [cos(Z)' w, sin(Z)' w]`` (the transpose of :func:`_rff_dot`)."""
    n, m = Z.shape
    c, s = np.empty(m), np.empty(m)
    for j in range(2 * m):
        out[j] = 0.0
    for i in range(n):
        wi = w[i]
        if wi == 0.0:
            continue
        if fast:
            _sincos_row(Z[i], c, s)
        else:
            _sincos_libm(Z[i], c, s)
        for j in range(m):
            out[j] += wi * c[j]
            out[m + j] += wi * s[j]
    for j in range(2 * m):
        out[j] *= scale


@nb.njit(cache=True, nogil=True)
def _row_finish(prod, a, scale, rho, fi, rff, c, s):
    """``rho fi + phi a`` for one row from its projection product ``prod`` (length ``m``):
    ``phi = [cos, sin](prod) scale`` (``rff``; libm when ``max |prod| > _SINCOS_MAX``) or
    ``phi = prod scale``. Sums run in index order: the result depends on this row alone."""
    m = prod.shape[0]
    if rff:
        big = False
        for j in range(m):
            if abs(prod[j]) > _SINCOS_MAX:
                big = True
        if big:
            _sincos_libm(prod, c, s)
        else:
            _sincos_row(prod, c, s)
        acc1 = 0.0
        acc2 = 0.0
        for j in range(m):
            acc1 += a[j] * c[j]
            acc2 += a[m + j] * s[j]
        return rho * fi + scale * (acc1 + acc2)
    acc = 0.0
    for j in range(m):
        acc += (prod[j] * scale) * a[j]
    return rho * fi + acc


@nb.njit(cache=True, nogil=True)
def _rows_dense(X, rows, P, a, scale, rho, f, rff):
    """``f[i] = rho f[i] + phi(X[i]) a`` for ``i`` in ``rows``, one row at a time (the
    projections ``z_q = X[i] P[q]`` accumulate over features in order, ``phi`` as in
    :func:`_row_finish`): a row's result does not depend on the other rows of the call."""
    deg, d, m = P.shape
    z, prod, c, s = np.empty(m), np.empty(m), np.empty(m), np.empty(m)
    for r in range(rows.shape[0]):
        i = rows[r]
        for q in range(deg):
            for j in range(m):
                z[j] = 0.0
            for k in range(d):
                xk = X[i, k]
                for j in range(m):
                    z[j] += xk * P[q, k, j]
            if q == 0:
                prod[:] = z
            else:
                for j in range(m):
                    prod[j] *= z[j]
        f[i] = _row_finish(prod, a, scale, rho, f[i], rff, c, s)


@nb.njit(cache=True, nogil=True)
def _rows_csr(indptr, indices, data, rows, P, a, scale, rho, f, rff):
    """:func:`_rows_dense` for CSR rows (stored entries in their stored order)."""
    deg, d, m = P.shape
    z, prod, c, s = np.empty(m), np.empty(m), np.empty(m), np.empty(m)
    for r in range(rows.shape[0]):
        i = rows[r]
        for q in range(deg):
            for j in range(m):
                z[j] = 0.0
            for p in range(indptr[i], indptr[i + 1]):
                xk = data[p]
                k = indices[p]
                for j in range(m):
                    z[j] += xk * P[q, k, j]
            if q == 0:
                prod[:] = z
            else:
                for j in range(m):
                    prod[j] *= z[j]
        f[i] = _row_finish(prod, a, scale, rho, f[i], rff, c, s)


def _fast(Z):
    return Z.size == 0 or np.abs(Z).max() <= _SINCOS_MAX


class _Block:
    """Block ``t``'s map applied to rows of ``X``: ``dot`` (``phi a``) and ``tdot``
    (``phi' w``)."""

    def __init__(self, features, t, seed, d, m, gamma, degree, scale):
        self.features, self.m, self.degree, self.scale = features, m, degree, scale
        self.params = _draw_block(features, t, seed, d, m, gamma, degree)
        self.D = _n_columns(features, m)

    def dot_into(self, X, a, out, rho=1.0):
        """``out = rho out + phi(X) a``."""
        if self.features == "rff":  # row chunks whose projections stay in cache
            for lo in range(0, X.shape[0], _RFF_ROWS):
                hi = min(X.shape[0], lo + _RFF_ROWS)
                Z = _project(X[lo:hi], self.params)
                _rff_dot(Z, a, 1.0 / math.sqrt(self.m), rho, out[lo:hi], _fast(Z))
        else:
            out *= rho
            out += _apply_block(X, self.features, self.params, self.m, self.degree,
                                self.scale) @ a
        return out

    def tdot(self, X, w):
        if self.features == "rff":
            g = np.zeros(self.D)
            part = np.empty(self.D)
            for lo in range(0, X.shape[0], _RFF_ROWS):
                hi = min(X.shape[0], lo + _RFF_ROWS)
                Z = _project(X[lo:hi], self.params)
                _rff_tdot(Z, w[lo:hi], 1.0 / math.sqrt(self.m), part, _fast(Z))
                g += part
            return g
        return _apply_block(X, self.features, self.params, self.m, self.degree,
                            self.scale).T @ w


class _RowBlock:
    """Block ``t``'s map for the lazy cache (``rff`` and ``maclaurin``): its projection
    matrices stacked as ``P`` of shape ``(factors, d, m)`` (float64 frequencies or int8
    Rademacher signs), applied row by row (:func:`_rows_dense`, :func:`_rows_csr`)."""

    def __init__(self, features, t, seed, d, m, gamma, degree, scale):
        params = _draw_block(features, t, seed, d, m, gamma, degree)
        self.rff = features == "rff"
        if self.rff:
            self.P = np.ascontiguousarray(params.T)[None]
            self.scale = 1.0 / math.sqrt(m)
        else:
            self.P = np.ascontiguousarray(np.stack([R.T for R in params]))
            self.scale = math.sqrt(scale**degree / m)
        self.nbytes = self.P.nbytes

    def apply(self, X, rows, a, rho, f):
        """``f[i] = rho f[i] + phi(X[i]) a`` for ``i`` in ``rows`` (row-wise)."""
        if sp.issparse(X):
            _rows_csr(X.indptr, X.indices, X.data, rows, self.P, a, self.scale, rho, f,
                      self.rff)
        else:
            _rows_dense(X, rows, self.P, a, self.scale, rho, f, self.rff)


class _LazyCache:
    """``f`` on the training sets, each point brought up to date only when drawn.

    Point ``i`` of set ``k`` holds ``f[k][i]`` current up to iteration ``last[k][i]``; before
    iteration ``t`` uses it, blocks ``last+1 .. t-1`` are applied to it in order, each as
    ``f <- rho_s f + phi_s(x) alpha_s`` (the cached mode's update, row by row), so every
    point sees the sequence of operations of an update of all points after every iteration,
    without the points that are not drawn. Each needed block is regenerated from its seed
    once per iteration (an LRU of ``_LAZY_BLOCK_BYTES`` keeps recent ones). Work per
    iteration: ``sum_i (t - 1 - last_i)`` row-block products over the minibatch's points, at
    most ``(b_S + b_U)(t - 1)`` whatever ``n``; ``rows`` counts them.
    """

    def __init__(self, sets, features, seed, d, m, gamma, degree, scale, coef, rho):
        self.sets = sets
        self.f = [np.zeros(X.shape[0]) for X in sets]
        self.last = [np.zeros(X.shape[0], dtype=np.int64) for X in sets]
        self.spec = (features, seed, d, m, gamma, degree, scale)
        self.coef, self.rho = coef, rho
        self.blocks: dict[int, _RowBlock] = {}
        self.nbytes = 0
        self.rows = 0

    def _block(self, s):
        blk = self.blocks.pop(s, None)
        if blk is None:
            features, seed, d, m, gamma, degree, scale = self.spec
            blk = _RowBlock(features, s, seed, d, m, gamma, degree, scale)
            self.nbytes += blk.nbytes
            while self.blocks and self.nbytes > _LAZY_BLOCK_BYTES:
                self.nbytes -= self.blocks.pop(next(iter(self.blocks))).nbytes
        self.blocks[s] = blk  # most recently used last
        return blk

    def refresh(self, t, idxs):
        """Bring ``f[k][idxs[k]]`` (distinct indices per set) up to iteration ``t - 1``;
        returns their values concatenated."""
        stale, first = [], t
        for k, idx in enumerate(idxs):
            last = self.last[k][idx]
            order = np.argsort(last, kind="stable")
            stale.append((idx[order], last[order]))
            if idx.size:
                first = min(first, int(last[order[0]]) + 1)
        for s in range(first, t):
            blk = None
            for k, (rows, last) in enumerate(stale):
                n_s = int(np.searchsorted(last, s))  # points current only up to < s
                if n_s:
                    if blk is None:
                        blk = self._block(s)
                    blk.apply(self.sets[k], rows[:n_s], self.coef[s - 1], self.rho[s - 1],
                              self.f[k])
                    self.rows += n_s
        for k, idx in enumerate(idxs):
            self.last[k][idx] = t - 1
        return np.concatenate([self.f[k][idx] for k, idx in enumerate(idxs)])


class _EagerRowCache(_LazyCache):
    """Reference for tests: :class:`_LazyCache`'s arithmetic with every point brought up to
    date at every iteration (the cached mode's schedule, ``O(n)`` per iteration)."""

    def refresh(self, t, idxs):
        super().refresh(t, [np.arange(X.shape[0]) for X in self.sets])
        return np.concatenate([self.f[k][idx] for k, idx in enumerate(idxs)])


def _warm_rows(X, features):
    """Load / compile the lazy cache's kernel for this input type outside the timed loop."""
    P = np.zeros((1, X.shape[1], 1), dtype=np.float64 if features == "rff" else np.int8)
    rows, a, f = np.zeros(1, dtype=np.int64), np.zeros(2), np.zeros(1)
    if sp.issparse(X):
        _rows_csr(X.indptr, X.indices, X.data, rows, P, a, 1.0, 1.0, f, features == "rff")
    else:
        _rows_dense(X, rows, P, a, 1.0, 1.0, f, features == "rff")


def _rows(X, idx):
    return X[idx]


def _stack(A, B):
    if sp.issparse(A):
        return sp.vstack([A, B], format="csr")
    return np.concatenate([A, B], axis=0)


# --------------------------------------------------------------------------- SU risk pieces
def _loss(z, y, loss):
    if loss == "squared":
        return 0.25 * (y * z - 1.0) ** 2
    u = y * z
    return np.maximum(-u, np.maximum(0.0, 0.5 - 0.5 * u))


def _dloss(z, y, loss):
    """Derivative of ``l(z, y)`` in ``z`` (a subgradient at the double hinge's kinks)."""
    if loss == "squared":
        return 0.5 * (y * z - 1.0) * y
    u = y * z
    du = np.where(u < -1.0, -1.0, np.where(u < 1.0, -0.5, 0.0))
    return du * y


def _delta(r, correction):
    if correction == "abs":
        return abs(r)
    if correction == "relu":
        return max(0.0, r)
    return r


def _ddelta(r, correction):
    if correction == "abs":
        return 1.0 if r >= 0.0 else -1.0  # sign with sign(0) = 1
    if correction == "relu":
        return 1.0 if r > 0.0 else 0.0
    return 1.0


def tsgsu_risk_terms(fS, fU, prior, *, loss="squared"):
    """Minibatch partial risks ``(R_+, R_-)`` of Shi et al. 2021, Eq. (8), at the decision
    values ``fS`` (similar-pair points) and ``fU`` (unlabelled points)."""
    fS, fU = np.asarray(fS, dtype=float), np.asarray(fU, dtype=float)
    pp = float(prior)
    pm = 1.0 - pp
    ps = pp * pp + pm * pm
    c = 1.0 / (2.0 * pp - 1.0)
    rp = c * (ps * _loss(fS, 1.0, loss).mean() - pm * _loss(fU, 1.0, loss).mean())
    rm = c * (pp * _loss(fU, -1.0, loss).mean() - ps * _loss(fS, -1.0, loss).mean())
    return float(rp), float(rm)


def tsgsu_point_weights(fS, fU, prior, *, loss="squared", correction="abs"):
    """Per-point weights of the minibatch functional gradient (Shi et al. 2021, Eq. (25)).

    The gradient of the minibatch risk is ``sum_i wS_i k(xS_i, .) + sum_j wU_j k(xU_j, .)``,
    so ``alpha_t = -eta_t (phi_t(B_S)' wS + phi_t(B_U)' wU)``. With ``c = 1/(2 pi_+ - 1)``
    and ``d1 = delta'(R_+)``, ``d2 = delta'(R_-)``::

        wS_i = c pi_S (d1 l'(fS_i, +1) - d2 l'(fS_i, -1)) / b_S
        wU_j = c (d2 pi_+ l'(fU_j, -1) - d1 pi_- l'(fU_j, +1)) / b_U

    For the squared loss without correction this is ``wS_i b_S = -pi_S / (2 pi_+ - 1)`` and
    ``wU_j b_U = fU_j / 2 + 1 / (2 (2 pi_+ - 1))``: the derivatives of ``pi_S L_S`` and
    ``L_U`` of Shi et al. 2021, Eq. (7).

    Returns
    -------
    wS, wU : arrays
    r_pos, r_neg : float
        The minibatch partial risks ``R_+``, ``R_-`` (Eq. (8)).
    """
    fS, fU = np.asarray(fS, dtype=float), np.asarray(fU, dtype=float)
    pp = float(prior)
    pm = 1.0 - pp
    ps = pp * pp + pm * pm
    c = 1.0 / (2.0 * pp - 1.0)
    rp, rm = tsgsu_risk_terms(fS, fU, prior, loss=loss)
    d1, d2 = _ddelta(rp, correction), _ddelta(rm, correction)
    wS = (c * ps / fS.shape[0]) * (d1 * _dloss(fS, 1.0, loss) - d2 * _dloss(fS, -1.0, loss))
    wU = (c / fU.shape[0]) * (d2 * pp * _dloss(fU, -1.0, loss)
                              - d1 * pm * _dloss(fU, 1.0, loss))
    return wS, wU, rp, rm


# --------------------------------------------------------------------------- sampling
def _floyd(rng, n: int, b: int) -> np.ndarray:
    """``b`` distinct indices of ``range(n)`` in ``O(b)`` memory (Floyd's algorithm)."""
    if b >= n:
        return np.arange(n)
    r = rng.integers(0, np.arange(n - b + 1, n + 1))
    chosen: set[int] = set()
    out = np.empty(b, dtype=np.int64)
    for k, j in enumerate(range(n - b, n)):
        v = int(r[k])
        if v in chosen:
            v = j
        chosen.add(v)
        out[k] = v
    return out


def tsgsu_batches(n_s: int, n_u: int, batch_s: int, batch_u: int, n_iter: int, seed: int):
    """Yield the minibatch indices ``(idx_S, idx_U)`` of iterations ``1..n_iter``.

    Drawn without replacement (the whole set when the batch is at least its size) by
    ``np.random.default_rng([seed, 0, 1])``, a stream distinct from the feature blocks'.
    """
    rng = np.random.default_rng([int(seed), 0, 1])
    for _ in range(n_iter):
        yield _floyd(rng, n_s, batch_s), _floyd(rng, n_u, batch_u)


# --------------------------------------------------------------------------- result
@dataclass(repr=False)
class TSGSUResult:
    """A trained TSGSU model (Shi et al. 2021): raw block coefficients and decay products.

    After ``t`` iterations the model is
    ``f(x) = sum_{i<=t} exp(log_decay[t] - log_decay[i]) coef[i-1]' phi_i(x)``, where
    ``phi_i`` is regenerated from ``(seed, i)`` (:func:`random_feature_block`).

    Attributes
    ----------
    coef : array (T, D)
        ``alpha_t`` as computed at iteration ``t`` (before later decays).
    log_decay : array (T + 1,)
        ``log_decay[t] = sum_{j<=t} log(1 - eta_j lam)``; ``log_decay[0] = 0``.
    seed, kernel, features, gamma, degree, scale, n_features, n_features_in
        What regenerates the feature maps.
    eta : array (T,)
        Step sizes.
    time, risk_pos, risk_neg, objective : arrays (T,)
        Cumulative training seconds after each iteration (evaluation excluded); minibatch
        ``R_+``, ``R_-`` at ``f_t`` and the regularised objective estimate
        ``lam/2 ||f_t||^2 + delta(R_+) + delta(R_-)`` (``||f_t||`` is the norm of its
        coefficient vector in the concatenated random-feature space).
    n_iter_ : int
    eval_path : array (len(checkpoints), n_eval) or None
        Decision values on ``X_eval`` at ``checkpoints`` (when ``X_eval`` was given).
    checkpoints : array of int or None
    info : dict
        The run's settings (prior, loss, correction, schedule, eta0, batch sizes) and
        ``f_rows``: row-block products computed for ``f`` on the training points (cached:
        ``(n_S + n_U) T``; lazy: one per block a drawn point missed; faithful: the replays).
    """

    coef: np.ndarray
    log_decay: np.ndarray
    seed: int
    kernel: str
    features: str
    gamma: float
    degree: int
    scale: float
    n_features: int
    n_features_in: int
    eta: np.ndarray
    lam: float
    time: np.ndarray
    risk_pos: np.ndarray
    risk_neg: np.ndarray
    objective: np.ndarray
    mode: str
    n_iter_: int
    eval_path: np.ndarray | None = None
    checkpoints: np.ndarray | None = None
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"TSGSUResult(kernel={self.kernel!r}, features={self.features!r}, "
                f"n_iter_={self.n_iter_}, D={self.coef.shape[1]}, mode={self.mode!r}, "
                f"seconds={self.time[-1] if self.time.size else 0.0:.3g})")

    @property
    def decay(self) -> np.ndarray:
        """Cumulative decay products ``prod_{j<=t} (1 - eta_j lam)``, ``t = 0..T``."""
        return np.exp(self.log_decay)

    def block_weights(self, t: int) -> np.ndarray:
        """Factors ``exp(L_t - L_i)`` of blocks ``i = 1..t`` in the model after ``t``
        iterations."""
        return np.exp(self.log_decay[t] - self.log_decay[1:t + 1])

    def _block(self, i: int) -> _Block:
        return _Block(self.features, i, self.seed, self.n_features_in, self.n_features,
                      self.gamma, self.degree, self.scale)

    def _check_iters(self, iters):
        arr = np.atleast_1d(np.asarray(iters))
        if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError("iters must be a non-empty 1-D sequence of integers.")
        if arr.min() < 0 or arr.max() > self.n_iter_:
            raise ValueError(f"iters must lie in [0, {self.n_iter_}], got {arr.tolist()}.")
        return arr.astype(np.int64)

    def decision_path(self, X, iters) -> np.ndarray:
        """Decision values after each iteration count in ``iters``, shape
        ``(len(iters), n)``, in one pass over the feature blocks (rows in chunks)."""
        X = _check_data(X, "X", n_features=self.n_features_in)
        iters = self._check_iters(iters)
        n = X.shape[0]
        out = np.zeros((iters.size, n))
        tmax = int(iters.max())
        g = np.empty(min(n, _ROWS))
        for i in range(1, tmax + 1):
            blk = self._block(i)
            later = np.nonzero(iters >= i)[0]
            w = np.exp(self.log_decay[iters[later]] - self.log_decay[i])
            a = self.coef[i - 1]
            for lo in range(0, n, _ROWS):
                hi = min(n, lo + _ROWS)
                gg = g[:hi - lo]
                gg[:] = 0.0
                blk.dot_into(X[lo:hi], a, gg)
                out[later, lo:hi] += w[:, None] * gg[None, :]
        return out

    def decision_function(self, X, n_iter: int | None = None) -> np.ndarray:
        """``f(X)`` of the model after ``n_iter`` iterations (default: all), replaying the
        blocks from their seeds (Shi et al. 2021, Algorithm 2) in chunks of rows."""
        t = self.n_iter_ if n_iter is None else check_int(n_iter, "n_iter", minimum=0)
        return self.decision_path(X, [t])[0]

    def predict(self, X, n_iter: int | None = None) -> np.ndarray:
        """``sign(f(X))`` with ties to +1."""
        return np.where(self.decision_function(X, n_iter) >= 0.0, 1.0, -1.0)


# --------------------------------------------------------------------------- solver
def _step_sizes(eta0, lam, n_iter, schedule):
    t = np.arange(1, n_iter + 1, dtype=float)
    eta = eta0 / np.sqrt(t) if schedule == "inv_sqrt" else np.full(n_iter, eta0 / math.sqrt(n_iter))
    if np.max(eta) * lam >= 1.0:
        raise ValueError(
            f"eta0={eta0} with lam={lam} gives eta_t * lam = {np.max(eta) * lam:.4g} >= 1 "
            f"(schedule={schedule!r}); the decay factor 1 - eta_t lam must stay positive: "
            "lower eta0 or lam.")
    return eta


def _diverged(t, eta0):
    return TSGSUDivergenceError(
        f"TSGSU diverged at iteration {t}: non-finite coefficients or decision values; the "
        f"step size is too large, lower eta0 (got eta0={eta0}).")


def tsgsu(XS, XU, prior, *, lam, kernel="rbf", gamma=1.0, degree=2, scale=1.0,
          features="auto", n_iter=100, batch_s=1000, batch_u=1000, n_features=1000, eta0=1.0,
          schedule="inv_sqrt", loss="squared", correction="abs", mode="auto",
          random_state=None, checkpoints=None, X_eval=None, verbose=False) -> TSGSUResult:
    """Train TSGSU (Shi et al. 2021, Algorithm 1) on similar-pair and unlabelled points.

    Parameters
    ----------
    XS : array or CSR matrix (2 n_S, d)
        The points of the similar pairs, flattened (the pair structure is not used).
    XU : array or CSR matrix (n_U, d)
        Unlabelled points.
    prior : float
        ``pi_+`` in (0, 1), not 1/2 (the SU risk divides by ``2 pi_+ - 1``).
    lam : float
        Regulariser ``lam/2 ||f||_H^2`` (> 0).
    kernel : {"rbf", "poly"}
        ``exp(-gamma ||x - x'||^2)`` or ``(scale <x, x'>)^degree``.
    gamma, degree, scale : float, int, float
    features : {"auto", "rff", "maclaurin", "tensorsketch"}
        ``"auto"``: ``rff`` for ``rbf``, ``tensorsketch`` for ``poly``.
    n_iter : int
        ``T`` iterations (a fixed budget: no convergence test).
    batch_s, batch_u : int
        Minibatch sizes (the whole set when at least its size).
    n_features : int
        ``m`` per block (frequencies for ``rff``: ``2 m`` columns).
    eta0 : float
        Step scale; ``eta_t = eta0/sqrt(t)`` (``"inv_sqrt"``) or ``eta0/sqrt(T)``
        (``"const"``). ``eta_t lam < 1`` is required.
    schedule : {"inv_sqrt", "const"}
    loss : {"squared", "double_hinge"}
    correction : {"abs", "relu", "none"}
        ``delta`` of Eq. (8); ``"none"`` minimises the uncorrected SU risk (Eq. (7)).
    mode : {"auto", "cached", "faithful", "lazy"}
        ``"auto"``: the mode :func:`tsgsu_mode` picks from the sizes (cached while it
        computes no more products than the faithful mode, then lazy; recorded in
        ``result.mode``). ``"faithful"``: ``f`` on the minibatch by replaying all earlier
        blocks (Algorithm 2,
        ``(b_S + b_U) T^2 / 2`` row-block products, memory independent of ``n``);
        ``"cached"``: ``f`` kept on all of ``XS``, ``XU`` (and ``X_eval``) and updated each
        iteration (``(n_S + n_U) T`` row-block products, growing with ``n``); ``"lazy"``
        (``features`` ``"rff"`` or ``"maclaurin"``): ``f`` kept on ``XS``, ``XU`` but
        brought up to date only on the drawn points, by replaying the blocks each missed
        (never more products than either other mode; the bound ``(b_S + b_U) T (T-1) / 2``
        does not depend on ``n``; ``O(n)`` memory for ``f`` and the iteration it is current
        at). The same iterates up to rounding (the cached mode's BLAS calls round a row
        differently depending on the rows beside it, so the lazy mode uses row-by-row
        kernels of its own). ``info["f_rows"]`` counts the row-block products.
    random_state : None, int or Generator
        Base seed: minibatches from ``(seed, 0, 1)``, feature block ``t`` from ``(seed, t)``.
    checkpoints : sequence of int, optional
        Iteration counts at which decision values on ``X_eval`` are recorded (default
        ``1..T``); needs ``X_eval``.
    X_eval : array or CSR matrix, optional
        Evaluation points (e.g. a test set). In cached and lazy modes their decision values
        are updated each iteration (time excluded from the training time); in faithful mode
        they are computed after training with :meth:`TSGSUResult.decision_path`.
    verbose : bool
        Print one line per iteration.

    Returns
    -------
    TSGSUResult
    """
    XS = _check_data(XS, "XS")
    XU = _check_data(XU, "XU", n_features=XS.shape[1])
    prior = check_prior(prior, "prior")
    if abs(2.0 * prior - 1.0) < 1e-12:
        raise ValueError(
            "prior must differ from 0.5: the SU risk is undefined at pi_+ = 0.5, since its "
            "weights 1/(2 pi_+ - 1) diverge (similar pairs carry no label information then).")
    lam = check_positive(lam, "lam")
    features, gamma, degree, scale = _check_kernel(kernel, features, gamma, degree, scale)
    check_choice(mode, "mode", _MODES)
    if mode == "auto":
        mode = tsgsu_mode(XS.shape[0], XU.shape[0], check_int(batch_s, "batch_s", minimum=1),
                          check_int(batch_u, "batch_u", minimum=1),
                          check_int(n_iter, "n_iter", minimum=1), features)
    if mode == "lazy" and features not in _LAZY_FEATURES:
        raise ValueError(
            f"mode='lazy' supports features in {_LAZY_FEATURES}, got features={features!r} "
            "(its FFT has no row-by-row path here): use mode='cached' or 'faithful', or "
            "features='maclaurin'.")
    n_iter = check_int(n_iter, "n_iter", minimum=1)
    batch_s = check_int(batch_s, "batch_s", minimum=1)
    batch_u = check_int(batch_u, "batch_u", minimum=1)
    m = check_int(n_features, "n_features", minimum=1)
    eta0 = check_positive(eta0, "eta0")
    check_choice(schedule, "schedule", _SCHEDULES)
    check_choice(loss, "loss", _LOSSES)
    check_choice(correction, "correction", _CORRECTIONS)
    check_choice(mode, "mode", _MODES)
    seed = tsgsu_seed(random_state)
    eta = _step_sizes(eta0, lam, n_iter, schedule)
    if X_eval is not None:
        X_eval = _check_data(X_eval, "X_eval", n_features=XS.shape[1])
    if checkpoints is not None:
        if X_eval is None:
            raise ValueError("checkpoints needs X_eval (the points to evaluate).")
        ck = np.atleast_1d(np.asarray(checkpoints))
        if ck.ndim != 1 or ck.size == 0 or not np.issubdtype(ck.dtype, np.integer) or \
                ck.min() < 0 or ck.max() > n_iter:
            raise ValueError(
                f"checkpoints must be integers in [0, n_iter={n_iter}], got {checkpoints!r}.")
        ck = ck.astype(np.int64)
    else:
        ck = np.arange(1, n_iter + 1) if X_eval is not None else None

    d = XS.shape[1]
    D = _n_columns(features, m)
    nS, nU = XS.shape[0], XU.shape[0]
    coef = np.zeros((n_iter, D))
    log_decay = np.zeros(n_iter + 1)
    hist_t, hist_rp, hist_rm, hist_obj = (np.zeros(n_iter) for _ in range(4))
    sqnorm = 0.0  # squared feature-space norm of f_t
    lazy = mode == "lazy"
    cached = mode == "cached" or lazy  # both keep f on the training points
    rho_all = 1.0 - eta * lam
    if lazy:
        fcache = _LazyCache((XS, XU), features, seed, d, m, gamma, degree, scale, coef,
                            rho_all)
        _warm_rows(XS, features)
        _warm_rows(XU, features)
    f_rows = 0  # row-block products computed for f on the training points
    if cached:
        if not lazy:
            cS, cU = np.zeros(nS), np.zeros(nU)
        cE = np.zeros(X_eval.shape[0]) if X_eval is not None else None
        # checkpoints at 0 keep the zero function
        eval_path = np.zeros((ck.size, X_eval.shape[0])) if X_eval is not None else None
    if features == "rff":  # load / compile the numba kernels outside the timed loop
        _rff_dot(np.zeros((1, 1)), np.zeros(2), 1.0, 1.0, np.zeros(1), True)
        _rff_tdot(np.zeros((1, 1)), np.zeros(1), 1.0, np.zeros(2), True)
    excluded = 0.0
    start = time.perf_counter()
    batches = tsgsu_batches(nS, nU, batch_s, batch_u, n_iter, seed)
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(1, n_iter + 1):
            iS, iU = next(batches)
            XSb, XUb = _rows(XS, iS), _rows(XU, iU)
            bS = iS.shape[0]
            if lazy:
                fb = fcache.refresh(t, (iS, iU))
            elif cached:
                fb = np.concatenate([cS[iS], cU[iU]])
            else:  # Algorithm 2: replay blocks 1..t-1 on the minibatch
                Xb = _stack(XSb, XUb)
                fb = np.zeros(Xb.shape[0])
                f_rows += Xb.shape[0] * (t - 1)
                for i in range(1, t):
                    blk = _Block(features, i, seed, d, m, gamma, degree, scale)
                    blk.dot_into(Xb, coef[i - 1] * math.exp(log_decay[t - 1] - log_decay[i]),
                                 fb)
            if not np.all(np.isfinite(fb)):
                raise _diverged(t, eta0)
            wS, wU, rp, rm = tsgsu_point_weights(fb[:bS], fb[bS:], prior, loss=loss,
                                                 correction=correction)
            blk = _Block(features, t, seed, d, m, gamma, degree, scale)
            if cached:
                Xb = _stack(XSb, XUb)
            alpha = -eta[t - 1] * blk.tdot(Xb, np.concatenate([wS, wU]))
            if not np.all(np.isfinite(alpha)):
                raise _diverged(t, eta0)
            rho = 1.0 - eta[t - 1] * lam
            coef[t - 1] = alpha
            hist_obj[t - 1] = 0.5 * lam * sqnorm + _delta(rp, correction) + \
                _delta(rm, correction)
            hist_rp[t - 1], hist_rm[t - 1] = rp, rm
            sqnorm = rho * rho * sqnorm + float(alpha @ alpha)
            log_decay[t] = log_decay[t - 1] + math.log(rho)
            if cached and not lazy:
                f_rows += nS + nU
                for X, cache in ((XS, cS), (XU, cU)):
                    for lo in range(0, X.shape[0], _ROWS):
                        hi = min(X.shape[0], lo + _ROWS)
                        sub = cache[lo:hi]
                        blk.dot_into(X[lo:hi], alpha, sub, rho)
            if cached and cE is not None:
                t0 = time.perf_counter()
                for lo in range(0, X_eval.shape[0], _ROWS):
                    hi = min(X_eval.shape[0], lo + _ROWS)
                    blk.dot_into(X_eval[lo:hi], alpha, cE[lo:hi], rho)
                hit = np.nonzero(ck == t)[0]
                if hit.size:
                    eval_path[hit] = cE
                excluded += time.perf_counter() - t0
            hist_t[t - 1] = time.perf_counter() - start - excluded
            if verbose:
                print(f"TSGSU it {t:4d}  eta={eta[t - 1]:.3g}  R+={rp:+.5f}  R-={rm:+.5f}  "
                      f"obj={hist_obj[t - 1]:.5f}  {hist_t[t - 1]:.2f}s")
    res = TSGSUResult(coef=coef, log_decay=log_decay, seed=seed, kernel=kernel,
                      features=features, gamma=gamma, degree=degree, scale=scale,
                      n_features=m, n_features_in=d, eta=eta, lam=lam, time=hist_t,
                      risk_pos=hist_rp, risk_neg=hist_rm, objective=hist_obj, mode=mode,
                      n_iter_=n_iter, checkpoints=ck,
                      info={"prior": prior, "loss": loss, "correction": correction,
                            "schedule": schedule, "eta0": eta0, "batch_s": batch_s,
                            "batch_u": batch_u,
                            "f_rows": fcache.rows if lazy else f_rows})
    if X_eval is not None:
        res.eval_path = eval_path if cached else res.decision_path(X_eval, ck)
    return res
