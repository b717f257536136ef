"""Multi-instance baselines of the ROI experiment of Li, Tsang, Kwok and Zhou (JMLR 2013,
Sec. 5.2, Table 10), on plain arrays.

A multi-instance training set is given as the stacked instances ``X`` (N, d), the bag
boundaries ``bag_ptr`` (bag ``i`` holds rows ``bag_ptr[i]:bag_ptr[i + 1]``) and the bag
labels ``bag_y`` in ``{-1, +1}`` (:func:`stack_mil_bags` builds them from a list of bags).

- :func:`instance_mi_svm` -- mi-SVM (Andrews, Tsochantaridis and Hofmann 2003): the labels of
  the instances of positive bags are re-estimated from the SVM's sign, at least one positive
  per positive bag, until they no longer change.
- :func:`witness_mi_svm` -- MI-SVM (Andrews et al. 2003): one witness per positive bag (the
  instance of largest score), negative bags by all their instances, until the witnesses no
  longer change; the first SVM uses the positive bags' centroids in feature space.
- :func:`mi_kernel_gram` / :func:`mi_kernel_svm` -- the multi-instance set kernel of Gartner,
  Flach, Kowalczyk and Smola (2002), ``k(B, B') = sum_ij k(x_i, x'_j)^p``, normalised, and a
  C-SVM on the bags.
- :func:`diverse_density` -- DD (Maron and Ratan 1998; Maron and Lozano-Perez 1998): the
  noisy-or diverse density maximised over the target point and per-feature scales by L-BFGS-B,
  from several starts at instances of positive bags.
- :func:`em_dd` -- EM-DD (Zhang and Goldman 2002): E-step = the most likely instance of each
  bag, M-step = the single-instance diverse density maximised by L-BFGS-B; several starts.

Every SVM is the C-SVM with bias solved by the package's SMO core
(:func:`weaklabel.solvers.smo.smo`, precomputed Gram matrix), with the costs of Li et al. 2013
Eq. (23): ``C1`` on the positive bags (mi-SVM: on every instance of a positive bag) and ``C2``
on the negative bags / instances.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numba as nb
import numpy as np
from scipy.optimize import minimize

from .._validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_labels_pm1,
    check_matrix,
    check_positive,
    warn_not_converged,
)
from ..kernels import gram, make_kernel
from .smo import smo

__all__ = [
    "DiverseDensityResult",
    "MISVMResult",
    "MIKernelResult",
    "check_mil_bag_ptr",
    "dd_negative_log_likelihood",
    "default_dd_scales",
    "diverse_density",
    "em_dd",
    "instance_mi_svm",
    "mi_kernel_gram",
    "mi_kernel_instance_contributions",
    "mi_kernel_self",
    "mi_kernel_svm",
    "stack_mil_bags",
    "witness_mi_svm",
]

_D_MIN, _D_MAX = 1e-10, 700.0
_LOG2 = math.log(2.0)


# --------------------------------------------------------------------------- input
def _real_bag(b, name: str) -> np.ndarray:
    """One bag as a float64 array; complex or non-numeric entries raise naming ``name``
    (``np.asarray(b, dtype=float)`` would silently drop an imaginary part)."""
    a = b.toarray() if hasattr(b, "toarray") else b
    try:
        a = np.asarray(a)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a numeric (m_i, d) array: {exc}") from None
    if np.iscomplexobj(a):
        raise ValueError(f"{name} is complex. Complex data not supported; pass real values.")
    try:
        return a.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a numeric (m_i, d) array: {exc}") from None


def stack_mil_bags(bags, name: str = "bags", *, n_features: int | None = None):
    """A list of bags -> ``(X, bag_ptr)``: the stacked instances and the bag boundaries.

    Parameters
    ----------
    bags : sequence of array-like of shape (m_i, d)
        At least one bag; every bag has at least one instance and the same ``d`` (a 1-D
        array is read as a bag of ``m_i`` one-feature instances only if ``d`` is 1).
    name : str
        Argument name used in the error messages.
    n_features : int, optional
        Required ``d`` (the number of features seen in fit).

    Returns
    -------
    X : ndarray of shape (N, d), float64, C-contiguous
    bag_ptr : ndarray of shape (n_bags + 1,), int64
        Bag ``i`` is ``X[bag_ptr[i]:bag_ptr[i + 1]]``.

    Raises
    ------
    ValueError
        No bag, a bag with no instance, bags with different feature counts, NaN / inf,
        complex values, a single 2-D array instead of a list of bags.
    """
    if bags is None:
        raise ValueError(f"{name} is None; pass a list of (m_i, d) arrays, one per bag.")
    if isinstance(bags, np.ndarray) and bags.ndim == 2:
        raise ValueError(f"{name} must be a list of (m_i, d) arrays, one per bag, got a single "
                         f"2-D array of shape {bags.shape}; wrap it as [{name}] for one bag.")
    try:
        seq = list(bags)
    except TypeError:
        raise TypeError(f"{name} must be a list of (m_i, d) arrays, one per bag, got "
                        f"{type(bags).__name__}.") from None
    if not seq:
        raise ValueError(f"{name} is empty; pass at least one bag (a (m_i, d) array).")
    arrays = []
    d = n_features
    for i, b in enumerate(seq):
        a = _real_bag(b, f"{name}[{i}]")
        if a.ndim == 1 and a.size and (d == 1):
            a = a.reshape(-1, 1)
        if a.ndim != 2:
            raise ValueError(f"{name}[{i}] must be a 2-D (m_i, d) array of instances, got shape "
                             f"{a.shape}.")
        if a.shape[0] == 0:
            raise ValueError(f"{name}[{i}] has no instances (shape {a.shape}); every bag needs "
                             "at least one instance.")
        if d is None:
            d = a.shape[1]
        if a.shape[1] != d:
            what = ("the number of features seen in fit" if n_features is not None
                    else f"{name}[0] has {d}")
            raise ValueError(f"{name}[{i}] has {a.shape[1]} features but {d} were expected "
                             f"({what}); every instance needs the same features.")
        arrays.append(a)
    X = check_matrix(np.vstack(arrays), name)
    bag_ptr = np.zeros(len(arrays) + 1, dtype=np.int64)
    bag_ptr[1:] = np.cumsum([a.shape[0] for a in arrays])
    return X, bag_ptr


def check_mil_bag_ptr(bag_ptr, n_instances: int, name: str = "bag_ptr") -> np.ndarray:
    """``bag_ptr`` as int64, starting at 0, strictly increasing, ending at ``n_instances``."""
    p = np.asarray(bag_ptr)
    if p.ndim != 1 or p.shape[0] < 2 or p.dtype.kind not in "iu":
        raise ValueError(f"{name} must be a 1-D integer array of n_bags + 1 >= 2 boundaries, "
                         f"got {p.dtype} of shape {p.shape}.")
    p = p.astype(np.int64)
    if p[0] != 0 or p[-1] != n_instances:
        raise ValueError(f"{name} must start at 0 and end at the number of instances "
                         f"{n_instances}, got {p[0]} ... {p[-1]}.")
    if np.any(np.diff(p) <= 0):
        raise ValueError(f"{name} must be strictly increasing (every bag needs an instance).")
    return p


def _check_problem(X, bag_ptr, bag_y):
    X = check_matrix(X, "X")
    ptr = check_mil_bag_ptr(bag_ptr, X.shape[0])
    y = check_labels_pm1(bag_y, "bag_y", n=ptr.shape[0] - 1)
    if not (np.any(y > 0) and np.any(y < 0)):
        raise ValueError("bag_y must hold both positive and negative bags.")
    return X, ptr, y


def _bag_of(ptr):
    return np.repeat(np.arange(ptr.shape[0] - 1), np.diff(ptr))


def _segment_argmax(v, ptr):
    """Index (into ``v``) of the largest entry of each segment (first one on ties)."""
    out = np.empty(ptr.shape[0] - 1, dtype=np.int64)
    for i in range(out.shape[0]):
        out[i] = ptr[i] + int(np.argmax(v[ptr[i]:ptr[i + 1]]))
    return out


def _costs(C1, C2):
    return check_positive(C1, "C1"), check_positive(C2, "C2")


def _svm(K, y, C, tol):
    """C-SVM with bias on the precomputed Gram matrix ``K``; ``(alpha * y, rho, result)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        res = smo(0.5 * (K + K.T), y, C=C, kernel="precomputed", eps=tol)
    for w in caught:
        warnings.warn(str(w.message), w.category, stacklevel=4)
    return res.alpha * y, res.rho, res


# --------------------------------------------------------------------------- mi-SVM / MI-SVM
@dataclass(eq=False)
class MISVMResult:
    """Instance-level SVM of mi-SVM / MI-SVM: ``f(x) = sum_j coef[j] k(X[j], x) - rho``.

    Attributes
    ----------
    coef : ndarray (N,)
        Expansion coefficients over the training instances (0 off the support).
    rho : float
        Bias (``f = ... - rho``).
    instance_labels : ndarray (N,)
        mi-SVM: the final +1/-1 instance labels. MI-SVM: +1 at the witnesses, -1 elsewhere.
    witnesses : ndarray (n_positive_bags,)
        Row of ``X`` taken as the key instance of each positive bag (argmax of ``f``).
    n_iter : int
        Alternations (SVM solves).
    converged : bool
        The labels / witnesses stopped changing before ``max_iter``.
    changes : list of int
        Number of labels / witnesses changed after each SVM solve.
    seconds : float
    """

    coef: np.ndarray
    rho: float
    instance_labels: np.ndarray
    witnesses: np.ndarray
    n_iter: int
    converged: bool
    changes: list = field(default_factory=list)
    seconds: float = 0.0


def _gram_and_kernel(X, kernel):
    k = make_kernel(kernel)
    return gram(X, X, k), k


def instance_mi_svm(X, bag_ptr, bag_y, C1=1.0, C2=1.0, kernel="gaussian", *, max_iter=50,
                    tol=1e-3, verbose=False) -> MISVMResult:
    """mi-SVM (Andrews, Tsochantaridis and Hofmann 2003, Sec. 2, the mi-SVM heuristic).

    The instances of negative bags are -1; those of positive bags start at +1. Each round
    trains a C-SVM with bias on every instance (costs ``C1`` on the instances of positive bags,
    ``C2`` on those of negative bags), relabels the instances of positive bags by
    ``sign f(x)`` and, in a positive bag with no positive left, sets its instance of largest
    ``f`` to +1. It stops when no label changes.

    Parameters
    ----------
    X : array (N, d)
        Stacked instances.
    bag_ptr : int array (n_bags + 1,)
        Bag boundaries (see :func:`stack_mil_bags`).
    bag_y : array (n_bags,)
        Bag labels, +1/-1 or 1/0; both must occur.
    C1, C2 : float
        Costs of the positive-bag and negative-bag instances (Li et al. 2013, Eq. (23)).
    kernel : str or Kernel
        Instance kernel (:func:`weaklabel.kernels.make_kernel`).
    max_iter : int
        Cap on SVM solves (``ConvergenceWarning`` when reached with labels still changing).
    tol : float
        SMO stopping tolerance.
    verbose : bool, default=False
        Print one line per SVM solve (the number of labels that changed).

    Returns
    -------
    MISVMResult
    """
    t0 = time.perf_counter()
    X, ptr, by = _check_problem(X, bag_ptr, bag_y)
    C1, C2 = _costs(C1, C2)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_positive(tol, "tol")
    K, _ = _gram_and_kernel(X, kernel)
    bag = _bag_of(ptr)
    in_pos = by[bag] > 0
    y = np.where(in_pos, 1.0, -1.0)
    C = np.where(in_pos, C1, C2)
    pos_bags = np.flatnonzero(by > 0)
    changes, converged = [], False
    coef, rho = np.zeros(X.shape[0]), 0.0
    for it in range(1, max_iter + 1):
        coef, rho, _ = _svm(K, y, C, tol)
        f = K @ coef - rho
        new = np.where(in_pos, np.where(f > 0, 1.0, -1.0), -1.0)
        for i in pos_bags:
            s, e = ptr[i], ptr[i + 1]
            if not np.any(new[s:e] > 0):
                new[s + int(np.argmax(f[s:e]))] = 1.0
        n_changed = int(np.sum(new != y))
        changes.append(n_changed)
        if verbose:
            print(f"instance_mi_svm: SVM solve {it}: {n_changed} instance labels changed")
        y = new
        if n_changed == 0:
            converged = True
            break
    if not converged:
        warn_not_converged("instance_mi_svm", max_iter, changes[-1],
                           what="number of changed instance labels", tol_param=None)
        coef, rho, _ = _svm(K, y, C, tol)
    f = K @ coef - rho
    wit = _segment_argmax(f, ptr)[pos_bags]
    return MISVMResult(coef=coef, rho=float(rho), instance_labels=y, witnesses=wit,
                       n_iter=len(changes),
                       converged=converged, changes=changes,
                       seconds=time.perf_counter() - t0)


def witness_mi_svm(X, bag_ptr, bag_y, C1=1.0, C2=1.0, kernel="gaussian", *, max_iter=50,
                   tol=1e-3, verbose=False) -> MISVMResult:
    """MI-SVM (Andrews, Tsochantaridis and Hofmann 2003, Sec. 3, the MI-SVM heuristic).

    Each positive bag is represented by one point, each negative instance by itself (Li et
    al. 2013, Eq. (23)-(24) with the key instance fixed). The first SVM uses the centroid of
    each positive bag in feature space (``phi``-mean, kernel rows averaged), as Andrews et al.
    initialise; each later one the witness, the instance of the bag with the largest ``f``.
    It stops when no witness changes. Costs: ``C1`` per positive bag, ``C2`` per negative
    instance.

    Parameters and returns as :func:`instance_mi_svm`.
    """
    t0 = time.perf_counter()
    X, ptr, by = _check_problem(X, bag_ptr, bag_y)
    C1, C2 = _costs(C1, C2)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_positive(tol, "tol")
    K, _ = _gram_and_kernel(X, kernel)
    N = X.shape[0]
    bag = _bag_of(ptr)
    pos_bags = np.flatnonzero(by > 0)
    neg_inst = np.flatnonzero(by[bag] < 0)
    p = pos_bags.shape[0]
    # S maps the SVM's training points to instances: rows 0..p-1 positive-bag representatives
    S = np.zeros((p + neg_inst.shape[0], N))
    for r, i in enumerate(pos_bags):
        S[r, ptr[i]:ptr[i + 1]] = 1.0 / (ptr[i + 1] - ptr[i])
    S[p + np.arange(neg_inst.shape[0]), neg_inst] = 1.0
    y = np.r_[np.ones(p), -np.ones(neg_inst.shape[0])]
    C = np.r_[np.full(p, C1), np.full(neg_inst.shape[0], C2)]
    witness = np.full(p, -1, dtype=np.int64)
    changes, converged = [], False
    coef = np.zeros(N)
    rho = 0.0
    for it in range(1, max_iter + 1):
        KS = K @ S.T
        ay, rho, _ = _svm(S @ KS, y, C, tol)
        coef = S.T @ ay
        f = KS @ ay - rho
        new = _segment_argmax(f, ptr)[pos_bags]
        n_changed = int(np.sum(new != witness))
        changes.append(n_changed)
        if verbose:
            print(f"witness_mi_svm: SVM solve {it}: {n_changed} witnesses changed")
        witness = new
        S[:p] = 0.0
        S[np.arange(p), witness] = 1.0
        if n_changed == 0:
            converged = True
            break
    if not converged:
        warn_not_converged("witness_mi_svm", max_iter, changes[-1],
                           what="number of changed witnesses", tol_param=None)
        ay, rho, _ = _svm(S @ (K @ S.T), y, C, tol)  # the SVM of the final witnesses
        coef = S.T @ ay
    labels = -np.ones(N)
    labels[witness] = 1.0
    return MISVMResult(coef=coef, rho=float(rho), instance_labels=labels, witnesses=witness,
                       n_iter=len(changes), converged=converged, changes=changes,
                       seconds=time.perf_counter() - t0)


# --------------------------------------------------------------------------- MI-Kernel
def _instance_kernel_power(A, B, kernel, power):
    return gram(A, B, make_kernel(kernel)) ** power


def _bag_block_sums(G, ptr_a, ptr_b):
    """``out[a, b] = sum of G over the rows of bag a and the columns of bag b``."""
    R = np.add.reduceat(G, ptr_a[:-1], axis=0)
    return np.add.reduceat(R, ptr_b[:-1], axis=1)


def mi_kernel_self(X, bag_ptr, kernel="gaussian", power=1.0) -> np.ndarray:
    """``k_set(B_i, B_i) = sum_jl k(x_ij, x_il)^p`` for every bag (block diagonal sums)."""
    ptr = np.asarray(bag_ptr, dtype=np.int64)
    out = np.empty(ptr.shape[0] - 1)
    for i in range(out.shape[0]):
        Xi = X[ptr[i]:ptr[i + 1]]
        out[i] = _instance_kernel_power(Xi, Xi, kernel, power).sum()
    return out


def _set_norm(self_k, sizes, normalization):
    if normalization == "sqrt":
        return np.sqrt(np.maximum(self_k, 1e-300))
    if normalization == "size":
        return sizes.astype(np.float64)
    return np.ones_like(self_k)


def mi_kernel_gram(X, bag_ptr, X2=None, bag_ptr2=None, kernel="gaussian", *, power=1.0,
                   normalization="sqrt") -> np.ndarray:
    """Multi-instance set kernel (Gartner, Flach, Kowalczyk and Smola 2002, Sec. 4).

    ``k_set(B, B') = sum_{i, j} k(x_i, x'_j)^p``, normalised as

    - ``"sqrt"``: ``k_set(B, B') / sqrt(k_set(B, B) k_set(B', B'))`` (normalisation in the
      feature space, Gartner et al.'s choice for their experiments);
    - ``"size"``: ``k_set(B, B') / (|B| |B'|)`` (averaging);
    - ``"none"``.

    ``k^p`` of a positive definite kernel is positive definite for integer ``p``; for the
    Gaussian kernel any ``p > 0`` (it is the Gaussian kernel with ``gamma p``).

    Parameters
    ----------
    X, bag_ptr : stacked instances and bag boundaries of the row bags.
    X2, bag_ptr2 : optional, those of the column bags (default: the row bags).
    kernel : str or Kernel
    power : float > 0
    normalization : {"sqrt", "size", "none"}

    Returns
    -------
    ndarray (n_bags, n_bags2)
    """
    X = check_matrix(X, "X")
    ptr = check_mil_bag_ptr(bag_ptr, X.shape[0])
    power = check_positive(power, "power")
    check_choice(normalization, "normalization", {"sqrt", "size", "none"})
    same = X2 is None
    if same:
        X2, ptr2 = X, ptr
    else:
        X2 = check_matrix(X2, "X2", n_features=X.shape[1])
        ptr2 = check_mil_bag_ptr(bag_ptr2, X2.shape[0], "bag_ptr2")
    G = _bag_block_sums(_instance_kernel_power(X, X2, kernel, power), ptr, ptr2)
    if normalization == "none":
        return G
    if same:
        s1 = s2 = np.diag(G).copy()
    else:
        s1 = mi_kernel_self(X, ptr, kernel, power)
        s2 = mi_kernel_self(X2, ptr2, kernel, power)
    n1 = _set_norm(s1, np.diff(ptr), normalization)
    n2 = _set_norm(s2, np.diff(ptr2), normalization)
    return G / n1[:, None] / n2[None, :]


@dataclass(eq=False)
class MIKernelResult:
    """C-SVM on bags with the set kernel: ``f(B) = sum_s coef[s] k_set(B_s, B) - rho``.

    ``coef`` is ``alpha * y`` per training bag, ``bag_norms`` the normalisers of the
    training bags (``sqrt(k_set(B, B))``, ``|B|`` or 1), ``n_iter`` the SMO updates.
    """

    coef: np.ndarray
    rho: float
    bag_norms: np.ndarray
    n_iter: int
    seconds: float = 0.0


def mi_kernel_svm(X, bag_ptr, bag_y, C1=1.0, C2=1.0, kernel="gaussian", *, power=1.0,
                  normalization="sqrt", tol=1e-3) -> MIKernelResult:
    """C-SVM with bias on bags with :func:`mi_kernel_gram` (Gartner et al. 2002), solved by
    the SMO core; cost ``C1`` on positive bags, ``C2`` on negative ones."""
    t0 = time.perf_counter()
    X, ptr, by = _check_problem(X, bag_ptr, bag_y)
    C1, C2 = _costs(C1, C2)
    tol = check_positive(tol, "tol")
    check_choice(normalization, "normalization", {"sqrt", "size", "none"})
    power = check_positive(power, "power")
    G = _bag_block_sums(_instance_kernel_power(X, X, kernel, power), ptr, ptr)
    norms = _set_norm(np.diag(G).copy(), np.diff(ptr), normalization)
    Kb = G / norms[:, None] / norms[None, :]
    ay, rho, res = _svm(Kb, by, np.where(by > 0, C1, C2), tol)
    return MIKernelResult(coef=ay, rho=float(rho), bag_norms=norms, n_iter=res.n_iter,
                          seconds=time.perf_counter() - t0)


def mi_kernel_instance_contributions(result: MIKernelResult, X_train, bag_ptr_train, X,
                                     bag_ptr, kernel="gaussian", *, power=1.0,
                                     normalization="sqrt"):
    """Share of each instance of the new bags in the bag decision value.

    ``c_j = sum_s coef_s sum_{i in B_s} k(x_si, x_j)^p / (norm_s norm_B)`` for ``x_j`` in
    ``B``, so that ``f(B) = sum_{j in B} c_j - rho``. Returns ``(c, f)``: ``c`` (N,) and the
    bag decision values ``f`` (n_bags,).
    """
    sv_bags = np.flatnonzero(result.coef != 0)
    ptr_t = np.asarray(bag_ptr_train, dtype=np.int64)
    ptr = np.asarray(bag_ptr, dtype=np.int64)
    rows = np.concatenate([np.arange(ptr_t[s], ptr_t[s + 1]) for s in sv_bags]) \
        if sv_bags.size else np.zeros(0, dtype=np.int64)
    w = np.repeat(result.coef[sv_bags] / result.bag_norms[sv_bags],
                  np.diff(ptr_t)[sv_bags]) if sv_bags.size else np.zeros(0)
    c = np.zeros(X.shape[0])
    block = 4096
    for s in range(0, X.shape[0], block):
        if rows.size:
            c[s:s + block] = _instance_kernel_power(X[s:s + block], X_train[rows], kernel,
                                                    power) @ w
    if normalization == "sqrt":
        norm = np.sqrt(np.maximum(mi_kernel_self(X, ptr, kernel, power), 1e-300))
    elif normalization == "size":
        norm = np.diff(ptr).astype(np.float64)
    else:
        norm = np.ones(ptr.shape[0] - 1)
    c /= np.repeat(norm, np.diff(ptr))
    f = np.add.reduceat(c, ptr[:-1]) - result.rho
    return c, f


# --------------------------------------------------------------------------- DD / EM-DD
@nb.njit(cache=True, inline="always")
def _log1mexp_and_slope(D):
    """``(log(1 - exp(-D)), 1 / expm1(D))`` for ``D > 0``, accurate at both ends, with one
    exponential: below ``log 2`` from ``e = expm1(-D)`` (``1 - exp(-D) = -e``,
    ``1 / expm1(D) = -(1 + e) / e``), above from ``q = exp(-D)`` (``log1p(-q)``,
    ``q / (1 - q)``)."""
    if D < _LOG2:
        e = math.expm1(-D)
        return math.log(-e), -(1.0 + e) / e
    q = math.exp(-D)
    return math.log1p(-q), q / (1.0 - q)


@nb.njit(cache=True, nogil=True)
def _dd_nll_core(params, X, bag_ptr, bag_y, grad):
    """Value of :func:`dd_negative_log_likelihood`; its gradient is written to ``grad``.
    One pass over the bags: ``D_j``, ``S_b``, then the bag's share of the gradient."""
    n, d = X.shape
    nbags = bag_ptr.shape[0] - 1
    slope = np.empty(n)
    gt = np.zeros(d)
    for k in range(2 * d):
        grad[k] = 0.0
    value = 0.0
    for b in range(nbags):
        S = 0.0
        for j in range(bag_ptr[b], bag_ptr[b + 1]):
            D = 0.0
            for k in range(d):
                df = X[j, k] - params[k]
                D += params[d + k] * (df * df)
            L, slope[j] = _log1mexp_and_slope(min(max(D, _D_MIN), _D_MAX))
            S += L  # log(1 - Pr(x_j in concept))
        if bag_y[b] > 0:
            value -= math.log(max(-math.expm1(S), 1e-300))
            dS = 1.0 / math.expm1(-min(S, -1e-300))
        else:
            value -= S
            dS = -1.0
        for j in range(bag_ptr[b], bag_ptr[b + 1]):
            gD = dS * slope[j]  # d value / d D_j
            for k in range(d):
                df = X[j, k] - params[k]
                gt[k] += gD * df
                grad[d + k] += gD * (df * df)
    for k in range(d):
        grad[k] = -2.0 * params[d + k] * gt[k]
    return value


def dd_negative_log_likelihood(params, X, bag_ptr, bag_y):
    """Minus the log noisy-or diverse density and its gradient (Maron and Ratan 1998).

    ``params = [t (d), w (d)]``: the target point and the per-feature weights (squared
    scales, ``w >= 0``). ``Pr(x in concept) = exp(-D(x))`` with
    ``D(x) = sum_k w_k (x_k - t_k)^2``; ``Pr(t | B+) = 1 - prod_j (1 - exp(-D_j))`` and
    ``Pr(t | B-) = prod_j (1 - exp(-D_j))``; the value is
    ``-sum_+ log Pr(t | B+) - sum_- log Pr(t | B-)``. ``D`` is clipped to
    ``[1e-10, 700]`` (its gradient is kept) so that an instance at the target or far from it
    gives finite values. With one instance per bag this is EM-DD's single-instance diverse
    density (Zhang and Goldman 2002): ``D`` for a positive bag, ``-log(1 - exp(-D))`` for a
    negative one. Computed in one numba pass (``X`` C-contiguous float64, ``bag_ptr`` int64,
    as :func:`stack_mil_bags` gives them).

    Returns
    -------
    value : float
    grad : ndarray (2 d,)
    """
    grad = np.empty(params.shape[0])
    value = _dd_nll_core(np.ascontiguousarray(params, dtype=np.float64),
                         np.ascontiguousarray(X, dtype=np.float64),
                         np.ascontiguousarray(bag_ptr, dtype=np.int64),
                         np.ascontiguousarray(bag_y, dtype=np.float64), grad)
    return float(value), grad


@dataclass(eq=False)
class DiverseDensityResult:
    """Result of :func:`diverse_density` / :func:`em_dd`.

    Attributes
    ----------
    target : ndarray (d,)
        The concept point ``t``.
    scales : ndarray (d,)
        Per-feature weights ``w`` (``D(x) = sum_k w_k (x_k - t_k)^2``).
    objective : float
        Minus the log diverse density at the result (noisy-or for DD; the single-instance
        form at the final selection for EM-DD).
    start_objective : float
        The same at the start that led to the result (the start's instance, weights ``w0``).
    starts : ndarray
        Rows of ``X`` used as starts.
    objectives : ndarray
        Final objective of every start.
    n_iter : int
        L-BFGS-B iterations (DD) or EM iterations (EM-DD) of the chosen start.
    seconds : float
    """

    target: np.ndarray
    scales: np.ndarray
    objective: float
    start_objective: float
    starts: np.ndarray
    objectives: np.ndarray
    n_iter: int
    seconds: float = 0.0


def default_dd_scales(X) -> np.ndarray:
    """Initial weights ``w_k = 1 / (d var_k)`` (1 for a constant feature): then the expected
    ``D`` between two random instances is about 2 (a declared choice; Maron and Ratan start
    from unit scales on their normalised features)."""
    v = X.var(axis=0)
    return np.where(v > 0, 1.0 / (X.shape[1] * np.where(v > 0, v, 1.0)), 1.0)


def _starts(X, ptr, by, n_starts, rng):
    bag = _bag_of(ptr)
    cand = np.flatnonzero(by[bag] > 0)
    if n_starts is None or n_starts >= cand.shape[0]:
        return cand
    # spread over the positive bags: a seeded permutation inside each bag, then round robin
    per_bag = [rng.permutation(np.arange(ptr[i], ptr[i + 1])) for i in np.flatnonzero(by > 0)]
    order = []
    depth = 0
    while len(order) < n_starts:
        for pb in per_bag:
            if depth < pb.shape[0]:
                order.append(pb[depth])
        depth += 1
    return np.sort(np.asarray(order[:n_starts], dtype=np.int64))


def _lbfgs(fun, x0, d, args, max_iter, tol):
    bounds = [(None, None)] * d + [(0.0, None)] * d
    r = minimize(fun, x0, args=args, jac=True, method="L-BFGS-B", bounds=bounds,
                 options={"maxiter": max_iter, "gtol": tol, "ftol": tol * 1e-3})
    return r


def diverse_density(X, bag_ptr, bag_y, *, n_starts=None, scales0=None, max_iter=200,
                    tol=1e-6, random_state=None, verbose=False) -> DiverseDensityResult:
    """DD (Maron and Ratan 1998): maximise the noisy-or diverse density by L-BFGS-B.

    The variables are the target ``t`` and the per-feature weights ``w >= 0``
    (:func:`dd_negative_log_likelihood`). Each start puts ``t`` at an instance of a positive
    bag and ``w`` at ``scales0`` (default :func:`default_dd_scales`). Maron and Ratan start
    from every instance of every positive bag; ``n_starts`` (declared subset) keeps that
    many, spread evenly over the positive bags (a seeded permutation inside each bag, taken
    round robin). The result is the start with the largest diverse density.

    Parameters
    ----------
    X, bag_ptr, bag_y : the multi-instance problem (see :func:`instance_mi_svm`).
    n_starts : int, optional
        Number of starts (default: all instances of the positive bags).
    scales0 : array (d,), optional
    max_iter : int
        L-BFGS-B iterations per start.
    tol : float
        L-BFGS-B projected-gradient tolerance.
    random_state : int, Generator or None
        Seed of the start subset.
    verbose : bool, default=False
        Print one line per start (its L-BFGS-B iterations and final objective).
    """
    t0 = time.perf_counter()
    X, ptr, by = _check_problem(X, bag_ptr, bag_y)
    d = X.shape[1]
    w0 = default_dd_scales(X) if scales0 is None else np.asarray(scales0, dtype=np.float64)
    if w0.shape != (d,) or np.any(w0 < 0):
        raise ValueError(f"scales0 must be {d} non-negative weights, got shape {w0.shape}.")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_positive(tol, "tol")
    if n_starts is not None:
        n_starts = check_int(n_starts, "n_starts", minimum=1)
    starts = _starts(X, ptr, by, n_starts, np.random.default_rng(random_state))
    best, objs = None, np.empty(starts.shape[0])
    for s_i, s in enumerate(starts):
        x0 = np.r_[X[s], w0]
        v0, _ = dd_negative_log_likelihood(x0, X, ptr, by)
        r = _lbfgs(dd_negative_log_likelihood, x0, d, (X, ptr, by), max_iter, tol)
        objs[s_i] = r.fun
        if verbose:
            print(f"diverse_density: start {s_i + 1} of {starts.shape[0]} (instance {s}): "
                  f"{int(r.nit)} L-BFGS-B iterations, -log DD {float(r.fun):.8g}")
        if best is None or r.fun < best[0]:
            best = (float(r.fun), r.x.copy(), float(v0), int(r.nit))
    value, x, v0, nit = best
    return DiverseDensityResult(target=x[:d].copy(), scales=x[d:].copy(), objective=value,
                                start_objective=v0, starts=starts, objectives=objs,
                                n_iter=nit, seconds=time.perf_counter() - t0)


def _scaled_d(X, t, w):
    diff = X - t
    return (diff * diff) @ w


def em_dd(X, bag_ptr, bag_y, *, n_starts=None, scales0=None, max_em_iter=30, max_iter=200,
          tol=1e-6, random_state=None, verbose=False) -> DiverseDensityResult:
    """EM-DD (Zhang and Goldman 2002).

    From a start ``h = (t, w)`` (an instance of a positive bag, weights ``scales0``): the
    E-step takes in each bag the instance most likely in the concept (smallest ``D``); the
    M-step maximises the single-instance diverse density of these instances by L-BFGS-B from
    the current ``h``. The loop stops when the objective (minus the log single-instance
    diverse density at the new selection) no longer decreases by more than ``tol`` relative,
    or after ``max_em_iter`` rounds. Of all starts (as :func:`diverse_density`; default all
    instances of positive bags) the one with the lowest final objective is kept (declared:
    Zhang and Goldman pick among their starts by the training error; we use the objective
    EM-DD optimises). ``verbose=True`` prints one line per start (its EM rounds and final
    objective).
    """
    t0 = time.perf_counter()
    X, ptr, by = _check_problem(X, bag_ptr, bag_y)
    d = X.shape[1]
    nb_ = ptr.shape[0] - 1
    w0 = default_dd_scales(X) if scales0 is None else np.asarray(scales0, dtype=np.float64)
    if w0.shape != (d,) or np.any(w0 < 0):
        raise ValueError(f"scales0 must be {d} non-negative weights, got shape {w0.shape}.")
    max_em_iter = check_int(max_em_iter, "max_em_iter", minimum=1)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_positive(tol, "tol")
    if n_starts is not None:
        n_starts = check_int(n_starts, "n_starts", minimum=1)
    starts = _starts(X, ptr, by, n_starts, np.random.default_rng(random_state))
    single = np.arange(nb_ + 1, dtype=np.int64)
    best, objs = None, np.empty(starts.shape[0])
    for s_i, s in enumerate(starts):
        h = np.r_[X[s], w0]
        prev = np.inf
        v_start = None
        it = 0
        for _ in range(max_em_iter):
            sel = _segment_argmax(-_scaled_d(X, h[:d], h[d:]), ptr)
            Xs = np.ascontiguousarray(X[sel])
            v_sel, _ = dd_negative_log_likelihood(h, Xs, single, by)
            if v_start is None:
                v_start = v_sel
            if v_sel >= prev - tol * max(1.0, abs(prev)):
                break
            r = _lbfgs(dd_negative_log_likelihood, h, d, (Xs, single, by), max_iter, tol)
            h, prev = r.x, float(r.fun)
            it += 1
        objs[s_i] = prev
        if verbose:
            print(f"em_dd: start {s_i + 1} of {starts.shape[0]} (instance {s}): {it} EM "
                  f"rounds, objective {prev:.8g}")
        if best is None or prev < best[0]:
            best = (prev, h.copy(), float(v_start), it)
    value, h, v0, nit = best
    return DiverseDensityResult(target=h[:d].copy(), scales=h[d:].copy(), objective=value,
                                start_objective=v0, starts=starts, objectives=objs,
                                n_iter=nit, seconds=time.perf_counter() - t0)

