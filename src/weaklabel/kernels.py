"""Numba kernels, Gram blocks and an LRU kernel-row cache (LIBSVM style).

Kernels (one definition for every paper)
---------------------------------------
- ``linear``:      k(x, y) = <x, y>
- ``gaussian``:    k(x, y) = exp(-||x - y||^2 / (2 sigma^2)); give ``sigma`` or, equivalently,
                   ``gamma = 1 / (2 sigma^2)`` (scikit-learn's ``rbf`` convention).
- ``polynomial``:  k(x, y) = (gamma <x, y> + coef0) ** degree

A kernel is described by a :class:`Kernel` (name + parameters). Solvers receive the
kernel as the integer ``code`` and the float array ``params = [gamma, coef0, degree]`` so
that they stay plain numba functions on arrays.

The row cache
-------------
:class:`KernelRowCache` keeps rows ``k(R[i], C[:])`` of a kernel matrix in a fixed
memory budget (MB) and evicts the least recently used row, as LIBSVM's ``Cache`` does.
Solvers never need the full Gram matrix; memory is ``budget + O(n)``. The numba core
(:func:`cache_get_row`) works on the cache's arrays so it can be called from inside
other numba solvers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from ._numba import install_notice
from ._validation import check_choice, check_int, check_matrix, check_positive

install_notice()  # the first compilation of a weaklabel function says so, once

LINEAR, GAUSSIAN, POLYNOMIAL = 0, 1, 2
#: code of a precomputed kernel: the "points" are the rows of the Gram matrix itself and the
#: kernel row ``i`` is row ``i`` of that matrix (only solvers that say so accept it).
PRECOMPUTED = 3
_CODES = {"linear": LINEAR, "gaussian": GAUSSIAN, "rbf": GAUSSIAN, "polynomial": POLYNOMIAL,
          "poly": POLYNOMIAL}


@dataclass(frozen=True)
class Kernel:
    """A kernel and its parameters. Build it with :func:`make_kernel`."""

    name: str
    gamma: float = 1.0
    coef0: float = 0.0
    degree: float = 1.0

    @property
    def code(self) -> int:
        if self.name == "precomputed":
            return PRECOMPUTED
        return _CODES[self.name]

    @property
    def params(self) -> np.ndarray:
        return np.array([self.gamma, self.coef0, self.degree], dtype=np.float64)

    @property
    def sigma(self) -> float:
        """Gaussian width ``sigma = 1/sqrt(2 gamma)`` (only meaningful for ``gaussian``)."""
        return float(np.sqrt(1.0 / (2.0 * self.gamma)))

    def __call__(self, A, B=None) -> np.ndarray:
        return gram(A, B, self)


def make_kernel(kernel="gaussian", *, sigma=None, gamma=None, degree=3, coef0=1.0) -> Kernel:
    """Build a :class:`Kernel`.

    Parameters
    ----------
    kernel : {"linear", "gaussian", "polynomial"} or Kernel
        ``"rbf"`` and ``"poly"`` are accepted as aliases.
    sigma : float, optional
        Gaussian width, ``k = exp(-||x-y||^2 / (2 sigma^2))``. Default 1 when neither
        ``sigma`` nor ``gamma`` is given.
    gamma : float, optional
        ``1/(2 sigma^2)`` for the Gaussian kernel; the scale of ``<x, y>`` for polynomial
        (default 1).
    degree, coef0 : polynomial degree and offset.
    """
    if isinstance(kernel, Kernel):
        return kernel
    if not isinstance(kernel, str):
        raise TypeError(f"kernel must be a string or a Kernel, got {type(kernel).__name__}.")
    check_choice(kernel, "kernel", set(_CODES))
    name = {"rbf": "gaussian", "poly": "polynomial"}.get(kernel, kernel)
    if name == "linear":
        return Kernel("linear")
    if name == "gaussian":
        if sigma is not None and gamma is not None:
            raise ValueError("give either sigma or gamma for the gaussian kernel, not both.")
        if gamma is None:
            s = 1.0 if sigma is None else check_positive(sigma, "sigma")
            gamma = 1.0 / (2.0 * s * s)
        return Kernel("gaussian", gamma=check_positive(gamma, "gamma"))
    g = 1.0 if gamma is None else check_positive(gamma, "gamma")
    d = check_int(degree, "degree", minimum=1)
    return Kernel("polynomial", gamma=g, coef0=float(coef0), degree=float(d))


def make_kernel_or_precomputed(kernel) -> Kernel:
    """:func:`make_kernel`, or ``Kernel("precomputed")`` for ``kernel="precomputed"``.

    For the solvers that accept a precomputed Gram matrix in place of the points.
    """
    if isinstance(kernel, str) and kernel == "precomputed":
        return Kernel("precomputed")
    return make_kernel(kernel)


# --------------------------------------------------------------------------- numba core
#: numba fastmath flags of the kernel loops: reassociation and fused multiply-add only, so
#: that the sums vectorise (results move by a few ulps); NaN/inf semantics are kept.
_FM = {"reassoc", "contract"}

@nb.njit(cache=True, nogil=True, inline="always", fastmath=_FM)
def kernel_value(a, b, code, params):
    """k(a, b) for 1-D arrays ``a``, ``b``."""
    if code == GAUSSIAN:
        s = 0.0
        for t in range(a.shape[0]):
            d = a[t] - b[t]
            s += d * d
        return np.exp(-params[0] * s)
    s = 0.0
    for t in range(a.shape[0]):
        s += a[t] * b[t]
    if code == LINEAR:
        return s
    return (params[0] * s + params[1]) ** params[2]


@nb.njit(cache=True, nogil=True, fastmath=_FM)
def kernel_row_into(x, C, code, params, out):
    """out[j] = k(x, C[j]) for every row of ``C``."""
    for j in range(C.shape[0]):
        out[j] = kernel_value(x, C[j], code, params)


@nb.njit(cache=True, nogil=True, fastmath=_FM)
def gram_block(A, B, code, params):
    """K[i, j] = k(A[i], B[j])."""
    K = np.empty((A.shape[0], B.shape[0]))
    for i in range(A.shape[0]):
        kernel_row_into(A[i], B, code, params, K[i])
    return K


@nb.njit(cache=True, nogil=True, fastmath=_FM)
def kernel_diag(A, code, params):
    """d[i] = k(A[i], A[i])."""
    d = np.empty(A.shape[0])
    for i in range(A.shape[0]):
        d[i] = kernel_value(A[i], A[i], code, params)
    return d


@nb.njit(cache=True, nogil=True, fastmath=_FM)
def kernel_rowsum(A, B, code, params, weight):
    """s[i] = weight * sum_j k(A[i], B[j]) without forming the block."""
    s = np.empty(A.shape[0])
    for i in range(A.shape[0]):
        acc = 0.0
        for j in range(B.shape[0]):
            acc += kernel_value(A[i], B[j], code, params)
        s[i] = weight * acc
    return s


@nb.njit(cache=True, nogil=True)
def cache_evict_lru(slot_of, row_of, stamp):
    """The least recently used slot of a row cache, emptied: its row (if any) is unlinked
    from ``slot_of``. Empty slots have ``stamp`` -1, so they are used first. The caller fills
    the slot and sets ``row_of``, ``slot_of`` and ``stamp``."""
    s = 0
    best = stamp[0]
    for t in range(1, stamp.shape[0]):
        if stamp[t] < best:
            best = stamp[t]
            s = t
    old = row_of[s]
    if old >= 0:
        slot_of[old] = -1
        row_of[s] = -1
    return s


@nb.njit(cache=True, nogil=True, fastmath=_FM)
def cache_get_row(i, R, C, code, params, data, slot_of, row_of, stamp, clock):
    """Return the slot holding row ``k(R[i], C)`` (computing it, LRU eviction, if absent).

    ``data`` (n_slots x len(C)) holds rows; ``slot_of[i]`` is the slot of row i or -1;
    ``row_of[s]`` the row in slot s or -1; ``stamp[s]`` its last use; ``clock[0]`` the
    use counter, ``clock[1]`` the number of misses (kernel rows computed).
    """
    clock[0] += 1
    s = slot_of[i]
    if s >= 0:
        stamp[s] = clock[0]
        return s
    s = cache_evict_lru(slot_of, row_of, stamp)
    kernel_row_into(R[i], C, code, params, data[s])
    row_of[s] = i
    slot_of[i] = s
    stamp[s] = clock[0]
    clock[1] += 1
    return s


@nb.njit(cache=True, nogil=True, fastmath=_FM)
def cache_fill_all(C, code, params, data, slot_of, row_of, stamp, clock):
    """Fill a cache that holds every row of the square kernel matrix ``k(C, C)``.

    Uses the symmetry: n(n+1)/2 kernel values instead of n^2. Row ``i`` goes to slot ``i``;
    all rows count as computed (``clock[1] += n``). Requires ``data.shape[0] >= n``.
    """
    n = C.shape[0]
    for i in range(n):
        data[i, i] = kernel_value(C[i], C[i], code, params)
        for j in range(i + 1, n):
            v = kernel_value(C[i], C[j], code, params)
            data[i, j] = v
            data[j, i] = v
    _cache_mark_all(n, slot_of, row_of, stamp, clock)


@nb.njit(cache=True, nogil=True)
def _cache_mark_all(n, slot_of, row_of, stamp, clock):
    """Bookkeeping of a cache whose slots ``0..n-1`` hold rows ``0..n-1``, all computed."""
    for s in range(row_of.shape[0]):
        row_of[s] = -1
        stamp[s] = -1
    for i in range(n):
        slot_of[i] = i
        row_of[i] = i
        clock[0] += 1
        stamp[i] = clock[0]
    clock[1] += n


@nb.njit(cache=True, nogil=True)
def cache_matmat(V, R, code, params, data, slot_of, row_of, stamp, clock):
    """``K @ V`` with ``K = k(R, R)`` symmetric: ``sum_i K[i] V[i]`` over the rows ``i`` of
    ``V`` that are not zero, each row taken from the cache (:func:`cache_get_row`)."""
    n, m = V.shape
    out = np.zeros((n, m))
    for i in range(n):
        nz = False
        for c in range(m):
            if V[i, c] != 0.0:
                nz = True
        if not nz:
            continue
        row = data[cache_get_row(i, R, R, code, params, data, slot_of, row_of, stamp, clock)]
        for j in range(n):
            rj = row[j]
            for c in range(m):
                out[j, c] += rj * V[i, c]
    return out


class KernelRowCache:
    """LRU cache of kernel rows ``k(R[i], C[:])`` within a memory budget.

    Parameters
    ----------
    R, C : arrays (n_rows, d), (n_cols, d)
        Row and column points (``C = R`` for a square kernel matrix).
    kernel : Kernel or str
        Or "precomputed": ``R`` is then the (n, n) Gram matrix, used in place (no copy,
        no row ever computed).
    cache_mb : float
        Memory budget for the cached rows, in MB (LIBSVM's ``-m``; default 100).
        At least two rows are always kept.

    Attributes
    ----------
    n_slots : rows that fit in the budget.
    hits, misses : cache statistics.
    """

    def __init__(self, R, C=None, kernel="linear", cache_mb: float = 100.0):
        self.kernel = make_kernel_or_precomputed(kernel)
        self.R = check_matrix(R, "R")
        self.C = self.R if C is None else check_matrix(C, "C", n_features=self.R.shape[1])
        cache_mb = check_positive(cache_mb, "cache_mb")
        n_cols = self.C.shape[0]
        self.clock = np.zeros(2, dtype=np.int64)
        if self.kernel.code == PRECOMPUTED:
            # R is the Gram matrix: every row is already there, none is ever computed
            if C is not None or self.R.shape[0] != self.R.shape[1]:
                raise ValueError("kernel='precomputed' needs R to be the square (n, n) Gram "
                                 f"matrix and no C, got R of shape {self.R.shape}.")
            n = self.R.shape[0]
            self.n_slots = n
            self.data = self.R
            self.slot_of = np.arange(n, dtype=np.int64)
            self.row_of = np.arange(n, dtype=np.int64)
            self.stamp = np.zeros(n, dtype=np.int64)
            return
        self.n_slots = int(max(2, min(self.R.shape[0], cache_mb * 2**20 // (8 * n_cols))))
        self.data = np.empty((self.n_slots, n_cols))
        self.slot_of = -np.ones(self.R.shape[0], dtype=np.int64)
        self.row_of = -np.ones(self.n_slots, dtype=np.int64)
        self.stamp = -np.ones(self.n_slots, dtype=np.int64)

    def row(self, i: int) -> np.ndarray:
        """Row ``k(R[i], C)`` (a view into the cache: copy it if you keep it)."""
        if not 0 <= i < self.R.shape[0]:
            raise IndexError(f"row index i={i} out of range [0, {self.R.shape[0]}).")
        s = cache_get_row(i, self.R, self.C, self.kernel.code, self.kernel.params, self.data,
                          self.slot_of, self.row_of, self.stamp, self.clock)
        return self.data[s]

    @property
    def holds_all_rows(self) -> bool:
        """True when the budget holds the whole square kernel matrix (``C`` is ``R``)."""
        return self.C is self.R and self.n_slots >= self.R.shape[0]

    def fill_all(self) -> np.ndarray:
        """Compute every row at once (symmetric, half the kernel values); needs
        :attr:`holds_all_rows`. Returns the ``(n, n)`` view of the filled rows."""
        if self.kernel.code == PRECOMPUTED:
            return self.data
        if not self.holds_all_rows:
            raise ValueError("fill_all: the cache budget does not hold every row of a square "
                             "kernel matrix; raise cache_mb or use row().")
        k = self.kernel
        n = self.R.shape[0]
        if k.code == LINEAR:
            # one BLAS product (about 2x faster than the loop at n = 3000, d = 123), then
            # the cache's bookkeeping; symmetric by construction of the product
            np.matmul(self.R, self.R.T, out=self.data[:n])
            _cache_mark_all(n, self.slot_of, self.row_of, self.stamp, self.clock)
        else:
            cache_fill_all(self.R, k.code, k.params, self.data, self.slot_of, self.row_of,
                           self.stamp, self.clock)
        return self.data[:n]

    def matvec(self, v) -> np.ndarray:
        """``K @ v`` for the square kernel matrix ``K = k(R, R)``, from the cached rows.

        ``K`` is symmetric, so ``K v = sum_i v_i K[i]``: only the rows of the non-zero
        entries of ``v`` are used (a sparse ``v``, e.g. a dual vector, touches few rows).
        ``v`` may also be an ``(n, m)`` matrix (``K @ V``).
        """
        if self.C is not self.R:
            raise ValueError("matvec needs a square kernel matrix (a cache built without C).")
        V = np.asarray(v, dtype=np.float64)
        one = V.ndim == 1
        V2 = np.ascontiguousarray(V.reshape(V.shape[0], -1))
        if V2.shape[0] != self.R.shape[0] or V.ndim > 2:
            raise ValueError(f"v must have {self.R.shape[0]} rows, got shape {V.shape}.")
        if not np.all(np.isfinite(V2)):
            raise ValueError("v contains NaN or infinite values.")
        k = self.kernel
        out = cache_matmat(V2, self.R, k.code, k.params, self.data, self.slot_of, self.row_of,
                           self.stamp, self.clock)
        return out[:, 0] if one else out

    @property
    def misses(self) -> int:
        return int(self.clock[1])

    @property
    def hits(self) -> int:
        return int(self.clock[0] - self.clock[1])

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes)


# --------------------------------------------------------------------------- public API
def gram(A, B=None, kernel="linear", **kernel_params) -> np.ndarray:
    """Gram block ``K[i, j] = k(A[i], B[j])`` (``B = A`` when omitted).

    ``kernel`` is a :class:`Kernel` or a name passed to :func:`make_kernel` together with
    ``kernel_params`` (``sigma``, ``gamma``, ``degree``, ``coef0``).
    """
    k = make_kernel(kernel, **kernel_params)
    A = check_matrix(A, "A")
    B = A if B is None else check_matrix(B, "B", n_features=A.shape[1])
    return gram_block(A, B, k.code, k.params)


def kernel_row(x, B, kernel="linear", **kernel_params) -> np.ndarray:
    """Single row ``k(x, B[j])`` for a point ``x`` of shape (d,)."""
    k = make_kernel(kernel, **kernel_params)
    B = check_matrix(B, "B")
    x = np.ascontiguousarray(np.asarray(x, dtype=np.float64).ravel())
    if x.shape[0] != B.shape[1]:
        raise ValueError(f"x has {x.shape[0]} features but B has {B.shape[1]}.")
    if not np.all(np.isfinite(x)):
        raise ValueError("x contains NaN or infinite values.")
    out = np.empty(B.shape[0])
    kernel_row_into(x, B, k.code, k.params, out)
    return out
