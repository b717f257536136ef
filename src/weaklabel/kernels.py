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
One row cache serves every kernel solver (LIBSVM's ``Cache``, written anew): rows of a kernel
matrix are kept within a memory budget (MB) and the least recently used rows are evicted to
make room. A row's place has the length asked for, so that the SMO core, which keeps the
columns of the active set first (:func:`rc_swap`, LIBSVM's ``swap_index``), stores rows of
the active length after shrinking and extends them later. Rows are stored in float64 or,
on request, float32 (LIBSVM's ``Qfloat``). Full scans (``K v``) read the cached rows without
evicting any (:func:`cache_scan_row`). ``cache_mb=None`` sizes the cache automatically
(:func:`cache_budget`: all of the matrix when it fits in :data:`AUTO_CACHE_MB` MB).
Solvers never need the full Gram matrix; memory is ``budget + O(n)``. The numba core works
on the state tuple of the cache (:func:`rc_new`) so it can be called from inside other numba
solvers; :class:`KernelRowCache` is its Python face.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np
from numba.typed import List

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


# --------------------------------------------------------------------------- the row cache
#: ``cache_mb=None`` (automatic size): the whole kernel matrix when it needs at most this many
#: MB, otherwise a budget of this many MB (the fallback equals the limit: a smaller fallback
#: would only add misses on problems just above the limit).
AUTO_CACHE_MB = 1024.0

# Counters of a cache state (``st``): free and total budget (values), whether every row has
# a place in one block, row requests (get), requests that computed (part of) a row, full scans
# of a row, the scans served from the cache, the scans that computed the row, kernel values
# computed, rows evicted.
_FREE, _BUDGET, _BLOCK, _GETS, _GET_MISSES, _SCANS, _SCAN_HITS, _SCAN_MISSES, _VALUES, \
    _EVICTIONS = range(10)


@nb.njit(cache=True, nogil=True, inline="always")
def _rc_unlink(i, prev, nxt):
    p = prev[i]
    q = nxt[i]
    nxt[p] = q
    prev[q] = p
    prev[i] = -1
    nxt[i] = -1


@nb.njit(cache=True, nogil=True, inline="always")
def _rc_link_mru(i, prev, nxt):
    h = prev.shape[0] - 1
    p = prev[h]
    nxt[p] = i
    prev[i] = p
    nxt[i] = h
    prev[h] = i


@nb.njit(cache=True, nogil=True)
def rc_new(n_rows, budget_values, block):
    """State ``(rows, length, prev, nxt, st)`` of an empty row cache of ``n_rows`` rows.

    ``rows[i]`` holds the cached values of row ``i`` (capacity ``rows[i].shape[0]``, 0 when
    the row has no place), ``length[i]`` how many leading values are valid, ``prev``/``nxt``
    the LRU list of the rows that have a place (sentinel ``n_rows``; ``nxt[sentinel]`` is the
    least recently used row), ``st`` the counters. ``budget_values`` is the budget in values
    (of the rows' dtype). When ``block`` has ``n_rows`` rows (the budget holds all of them),
    row ``i`` is ``block[i]`` and nothing is ever evicted; otherwise ``block`` only gives the
    dtype and rows get a place of their length on demand, the least recently used rows making
    room (LIBSVM's ``Cache``).
    """
    rows = List()
    length = np.zeros(n_rows, dtype=np.int64)
    prev = -np.ones(n_rows + 1, dtype=np.int64)
    nxt = -np.ones(n_rows + 1, dtype=np.int64)
    prev[n_rows] = n_rows
    nxt[n_rows] = n_rows
    st = np.zeros(10, dtype=np.int64)
    st[_BUDGET] = budget_values
    if block.shape[0] == n_rows and n_rows > 0:
        for i in range(n_rows):
            rows.append(block[i])
        st[_BLOCK] = 1
        st[_FREE] = budget_values - n_rows * block.shape[1]
    else:
        e = np.empty(0, dtype=block.dtype)
        for _ in range(n_rows):
            rows.append(e)
        st[_FREE] = budget_values
    return (rows, length, prev, nxt, st)


@nb.njit(cache=True, nogil=True)
def _rc_drop(j, cs):
    """Evict row ``j``: its place returns to the budget."""
    rows, length, prev, nxt, st = cs
    _rc_unlink(j, prev, nxt)
    st[_FREE] += rows[j].shape[0]
    rows[j] = np.empty(0, dtype=rows[j].dtype)
    length[j] = 0
    st[_EVICTIONS] += 1


@nb.njit(cache=True, nogil=True)
def rc_get(i, need, cs):
    """Make row ``i`` hold at least ``need`` leading values; return how many it held.

    LIBSVM's ``Cache::get_data``: the row becomes the most recently used; when its place is
    shorter than ``need`` the least recently used rows are evicted until the budget has room
    and the place is enlarged (the values held are kept). The caller computes the values
    from the returned count up to ``need`` (none when the count is ``>= need``).
    """
    rows, length, prev, nxt, st = cs
    st[_GETS] += 1
    h = prev.shape[0] - 1
    if nxt[i] >= 0:
        _rc_unlink(i, prev, nxt)
    have = length[i]
    if have < need:
        st[_GET_MISSES] += 1
        old = rows[i]
        cap = old.shape[0]
        if cap < need:
            more = need - cap
            while st[_FREE] < more and nxt[h] != h:  # the LRU rows make room (never i)
                _rc_drop(nxt[h], cs)
            r = np.empty(need, dtype=old.dtype)
            for t in range(have):
                r[t] = old[t]
            rows[i] = r
            st[_FREE] -= more
        length[i] = need
    _rc_link_mru(i, prev, nxt)
    return have


@nb.njit(cache=True, nogil=True)
def rc_swap(a, b, cs):
    """Exchange the columns ``a < b`` of every cached row (LIBSVM's ``Cache::swap_index``):
    a row that holds both is swapped; a row that holds ``a`` but not ``b`` is cut to its
    first ``a`` values (its place is kept for a later extension)."""
    rows, length, prev, nxt, st = cs
    h = prev.shape[0] - 1
    r = nxt[h]
    while r != h:
        m = length[r]
        if m > b:
            row = rows[r]
            v = row[a]
            row[a] = row[b]
            row[b] = v
        elif m > a:
            length[r] = a
        r = nxt[r]


@nb.njit(cache=True, nogil=True)
def rc_swap_many(pairs, m, cs):
    """:func:`rc_swap` for the exchanges ``pairs[:m]`` in order, each cached row visited once
    (same result as one :func:`rc_swap` per pair, without walking the rows per pair)."""
    if m == 0:
        return
    rows, length, prev, nxt, st = cs
    lo = pairs[0, 0]
    for q in range(1, m):
        lo = min(lo, pairs[q, 0])
    h = prev.shape[0] - 1
    r = nxt[h]
    while r != h:
        L = length[r]
        if L > lo:
            row = rows[r]
            for q in range(m):
                a = pairs[q, 0]
                b = pairs[q, 1]
                if L > b:
                    v = row[a]
                    row[a] = row[b]
                    row[b] = v
                elif L > a:
                    L = a
            length[r] = L
        r = nxt[r]


@nb.njit(cache=True, nogil=True)
def cache_get_row(i, R, C, code, params, cs):
    """Row ``k(R[i], C)`` of a row cache whose rows are whole (no swapped columns): from the
    cache, or computed into it (LRU eviction when the budget is full)."""
    n = C.shape[0]
    start = rc_get(i, n, cs)
    row = cs[0][i]
    if start < n:  # rows of such a cache are empty or whole: the whole row is computed
        kernel_row_into(R[i], C, code, params, row)
        cs[4][_VALUES] += n
    return row


@nb.njit(cache=True, nogil=True)
def cache_scan_row(i, R, code, params, cs, scratch):
    """Row ``i`` of the square matrix ``k(R, R)`` for a full scan (e.g. ``K v``).

    A cached row is read without becoming the most recently used; a missing row is stored
    when the budget has room without evicting anything, else computed into ``scratch`` (of
    the cache's dtype, so that the values are the same either way). A scan therefore never
    evicts: rows kept for the solver's working set stay cached.
    """
    rows, length, prev, nxt, st = cs
    n = R.shape[0]
    st[_SCANS] += 1
    if length[i] >= n:
        st[_SCAN_HITS] += 1
        return rows[i]
    st[_SCAN_MISSES] += 1
    st[_VALUES] += n
    cap = rows[i].shape[0]
    if cap >= n or st[_FREE] >= n - cap:
        if cap < n:
            rows[i] = np.empty(n, dtype=scratch.dtype)
            st[_FREE] -= n - cap
        row = rows[i]
        kernel_row_into(R[i], R, code, params, row)
        length[i] = n
        if nxt[i] < 0:
            _rc_link_mru(i, prev, nxt)
        return row
    kernel_row_into(R[i], R, code, params, scratch)
    return scratch


@nb.njit(cache=True, nogil=True, fastmath=_FM)
def cache_fill_all(C, code, params, block):
    """``block[i, j] = k(C[i], C[j])`` by symmetry (n(n+1)/2 kernel values)."""
    n = C.shape[0]
    for i in range(n):
        block[i, i] = kernel_value(C[i], C[i], code, params)
        for j in range(i + 1, n):
            v = kernel_value(C[i], C[j], code, params)
            block[i, j] = v
            block[j, i] = v


@nb.njit(cache=True, nogil=True)
def _rc_mark_all(n, cs, values):
    """Bookkeeping of a block cache whose rows ``0..n-1`` have all been computed."""
    rows, length, prev, nxt, st = cs
    for i in range(n):
        if nxt[i] >= 0:
            _rc_unlink(i, prev, nxt)
        length[i] = rows[i].shape[0]
        _rc_link_mru(i, prev, nxt)
    st[_GETS] += n
    st[_GET_MISSES] += n
    st[_VALUES] += values


@nb.njit(cache=True, nogil=True)
def cache_matmat(V, R, code, params, cs):
    """``K @ V`` with ``K = k(R, R)`` symmetric: ``sum_i K[i] V[i]`` over the rows ``i`` of
    ``V`` that are not zero, each row a scan of the cache (:func:`cache_scan_row`)."""
    n, m = V.shape
    out = np.zeros((n, m))
    scratch = np.empty(n, dtype=cs[0][0].dtype) if n > 0 else np.empty(0, dtype=cs[0][0].dtype)
    for i in range(n):
        nz = False
        for c in range(m):
            if V[i, c] != 0.0:
                nz = True
        if not nz:
            continue
        row = cache_scan_row(i, R, code, params, cs, scratch)
        for j in range(n):
            rj = row[j]
            for c in range(m):
                out[j, c] += rj * V[i, c]
    return out


def _cache_dtype(cache_dtype):
    """``np.float64`` or ``np.float32`` from ``cache_dtype``."""
    try:
        dt = None if cache_dtype is None else np.dtype(cache_dtype)
    except TypeError:
        dt = None
    if dt is None or isinstance(cache_dtype, bool) or dt not in (np.dtype(np.float64),
                                                                 np.dtype(np.float32)):
        raise ValueError(f"cache_dtype must be 'float64' or 'float32', got {cache_dtype!r}.")
    return dt.type


def check_cache_mb(cache_mb):
    """``cache_mb`` of a solver or estimator: ``None`` (automatic size; ``"auto"`` is the
    same) or a finite number of MB ``> 0``; anything else raises an error naming it."""
    if cache_mb is None or (isinstance(cache_mb, str) and cache_mb == "auto"):
        return None
    if isinstance(cache_mb, str):
        raise ValueError(f"cache_mb must be a positive number of MB, None or 'auto', got "
                         f"{cache_mb!r}.")
    return check_positive(cache_mb, "cache_mb")


def cache_budget(cache_mb, n_rows: int, n_cols: int, cache_dtype=np.float64):
    """Budget of a row cache, in values of ``cache_dtype``, and in MB.

    ``cache_mb=None`` (or ``"auto"``): all of the ``n_rows x n_cols`` matrix when it needs
    at most :data:`AUTO_CACHE_MB` MB, else :data:`AUTO_CACHE_MB` MB. A given ``cache_mb``
    must be a positive number (MB, LIBSVM's ``-m``). At least two whole rows are always
    kept (as LIBSVM), whatever the budget.
    """
    item = np.dtype(_cache_dtype(cache_dtype)).itemsize
    full = int(n_rows) * int(n_cols)
    cache_mb = check_cache_mb(cache_mb)
    if cache_mb is None:
        values = min(full, int(AUTO_CACHE_MB * 2**20) // item)
    else:
        values = int(cache_mb * 2**20 // item)
    values = max(values, 2 * int(n_cols))
    return values, values * item / 2**20


class KernelRowCache:
    """LRU cache of kernel rows ``k(R[i], C[:])`` within a memory budget (LIBSVM's ``Cache``).

    The same bookkeeping (:func:`rc_get`, :func:`rc_swap`) serves the SMO core, whose rows
    have the length of the active set after shrinking; the rows of this class are whole.

    Parameters
    ----------
    R, C : arrays (n_rows, d), (n_cols, d)
        Row and column points (``C = R`` for a square kernel matrix).
    kernel : Kernel or str
        Or "precomputed": ``R`` is then the (n, n) Gram matrix, used in place (no copy,
        no row ever computed, ``cache_mb`` and ``cache_dtype`` ignored).
    cache_mb : float, None or "auto"
        Memory budget for the cached rows, in MB (LIBSVM's ``-m``). ``None``/``"auto"``
        (default): all of the kernel matrix when it needs at most ``AUTO_CACHE_MB`` = 1024 MB,
        else 1024 MB (:func:`cache_budget`). At least two rows are always kept.
    cache_dtype : {"float64", "float32"}
        Storage of the rows. ``"float32"`` (LIBSVM's ``Qfloat``) holds twice as many rows;
        the values are the float64 kernel values rounded to float32.

    Attributes
    ----------
    n_slots : whole rows that fit in the budget.
    hits, misses, evictions : cache statistics (requests and scans served from the cache,
        rows computed, rows evicted); ``kernel_values_computed``.
    """

    def __init__(self, R, C=None, kernel="linear", cache_mb=None, cache_dtype="float64"):
        self.kernel = make_kernel_or_precomputed(kernel)
        self.R = check_matrix(R, "R")
        self.C = self.R if C is None else check_matrix(C, "C", n_features=self.R.shape[1])
        n_rows, n_cols = self.R.shape[0], self.C.shape[0]
        if self.kernel.code == PRECOMPUTED:
            # R is the Gram matrix: every row is already there, none is ever computed
            if C is not None or self.R.shape[0] != self.R.shape[1]:
                raise ValueError("kernel='precomputed' needs R to be the square (n, n) Gram "
                                 f"matrix and no C, got R of shape {self.R.shape}.")
            self.dtype = np.float64
            self.n_slots = n_rows
            self.budget_mb = self.R.nbytes / 2**20
            self.block = self.R
            self.state = rc_new(n_rows, n_rows * n_rows, self.R)
            _rc_mark_all(n_rows, self.state, 0)
            st = self.state[4]
            st[_GETS] = st[_GET_MISSES] = 0
            return
        self.dtype = _cache_dtype(cache_dtype)
        values, self.budget_mb = cache_budget(cache_mb, n_rows, n_cols, self.dtype)
        self.n_slots = int(min(n_rows, values // max(n_cols, 1)))
        if values >= n_rows * n_cols:
            self.block = np.empty((n_rows, n_cols), dtype=self.dtype)
        else:
            self.block = None
        self.state = rc_new(n_rows, values, self.block if self.block is not None
                            else np.empty((0, 0), dtype=self.dtype))

    def row(self, i: int) -> np.ndarray:
        """Row ``k(R[i], C)`` (a view into the cache: copy it if you keep it)."""
        if not 0 <= i < self.R.shape[0]:
            raise IndexError(f"row index i={i} out of range [0, {self.R.shape[0]}).")
        return cache_get_row(i, self.R, self.C, self.kernel.code, self.kernel.params,
                             self.state)

    @property
    def holds_all_rows(self) -> bool:
        """True when the budget holds the whole square kernel matrix (``C`` is ``R``)."""
        return self.C is self.R and self.block is not None

    def fill_all(self) -> np.ndarray:
        """Compute every row at once (symmetric, half the kernel values); needs
        :attr:`holds_all_rows`. Returns the ``(n, n)`` block of the filled rows."""
        if self.kernel.code == PRECOMPUTED:
            return self.R
        if not self.holds_all_rows:
            raise ValueError("fill_all: the cache budget does not hold every row of a square "
                             "kernel matrix; raise cache_mb or use row().")
        k = self.kernel
        n = self.R.shape[0]
        if k.code == LINEAR:
            # one BLAS product (about 2x faster than the loop at n = 3000, d = 123), then
            # the cache's bookkeeping; symmetric by construction of the product
            if self.dtype is np.float64:
                np.matmul(self.R, self.R.T, out=self.block)
            else:
                self.block[:] = self.R @ self.R.T
            _rc_mark_all(n, self.state, n * n)
        else:
            cache_fill_all(self.R, k.code, k.params, self.block)
            _rc_mark_all(n, self.state, n * (n + 1) // 2)
        return self.block

    def matvec(self, v) -> np.ndarray:
        """``K @ v`` for the square kernel matrix ``K = k(R, R)``, from the cached rows.

        ``K`` is symmetric, so ``K v = sum_i v_i K[i]``: only the rows of the non-zero
        entries of ``v`` are used (a sparse ``v``, e.g. a dual vector, touches few rows).
        ``v`` may also be an ``(n, m)`` matrix (``K @ V``). A full scan: cached rows are read
        without being refreshed, missing rows are stored only where the budget has room
        (:func:`cache_scan_row`); nothing is evicted.
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
        out = cache_matmat(V2, self.R, k.code, k.params, self.state)
        return out[:, 0] if one else out

    @property
    def lengths(self) -> np.ndarray:
        """Number of values held for every row (0: not cached)."""
        return self.state[1]

    @property
    def misses(self) -> int:
        """Rows computed (by requests and by scans, stored or not)."""
        st = self.state[4]
        return int(st[_GET_MISSES] + st[_SCAN_MISSES])

    @property
    def hits(self) -> int:
        """Row requests and scans served from the cache."""
        st = self.state[4]
        return int(st[_GETS] - st[_GET_MISSES] + st[_SCAN_HITS])

    @property
    def evictions(self) -> int:
        return int(self.state[4][_EVICTIONS])

    @property
    def kernel_values_computed(self) -> int:
        return int(self.state[4][_VALUES])

    @property
    def nbytes(self) -> int:
        """The budget in bytes (the most the rows may hold)."""
        return int(self.state[4][_BUDGET] * np.dtype(self.dtype).itemsize)

    @property
    def held_bytes(self) -> int:
        """Bytes the rows hold now."""
        st = self.state[4]
        return int((st[_BUDGET] - st[_FREE]) * np.dtype(self.dtype).itemsize)

    def stats(self) -> dict:
        """Counters: ``gets``, ``get_misses``, ``scans``, ``scan_hits``, ``scan_misses``,
        ``kernel_values``, ``evictions``."""
        st = self.state[4]
        return {"gets": int(st[_GETS]), "get_misses": int(st[_GET_MISSES]),
                "scans": int(st[_SCANS]), "scan_hits": int(st[_SCAN_HITS]),
                "scan_misses": int(st[_SCAN_MISSES]), "kernel_values": int(st[_VALUES]),
                "evictions": int(st[_EVICTIONS])}


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
