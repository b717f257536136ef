"""WellSVM (Li, Tsang, Kwok & Zhou, JMLR 2013): the label-generation cutting plane for SSL.

The weakly labelled SVM is the mixed-integer program ``min_{y in B} max_{a in A} G(a, y)``
(Eq. (3)); WellSVM swaps min and max (Eq. (4)), which by Prop. 1 is the multiple
label-kernel learning (MLKL) problem, Eq. (6) / Eq. (15)::

    min_{mu in simplex} max_{a in A}  sum_t mu_t G(a, y_t),

one base kernel ``K o y_t y_t'`` per label vector ``y_t`` of ``B``. Algorithm 2 keeps a
working set ``C`` of label vectors, solves the MLKL over ``C`` and adds a violated label
found by sorting (Eq. (22), Prop. 5) until no label is violated.

Two inner duals (Li et al. 2013, Assumption 1 and its two examples)::

    hinge box ("paper"):  G = 1'a - 1/2 a'(K o yy')a,          0 <= a_i <= C_i
    mu-SVM   ("reference"): G = -1/2 a'((K o yy') + D)a,       a >= 0, 1'a = 1,
                          D = diag(1/C_i)

with ``C_i = C1`` on the labelled and ``C2`` on the unlabelled points. Both have the form
``G(a, y) = -1/2 (a o y)' K (a o y) + g(a)`` with ``g`` independent of ``y``, so every
oracle below works on ``H = K o aa'`` alone.

Contents
--------
oracles (one module, three label sets)
    :func:`sort_oracle_ssl` (SSL balance set, Eq. (22) / Prop. 5),
    :func:`band_oracle` (clustering, ``|1'y| <= beta``, Eqs. (37)-(38)),
    :func:`bag_argmax_oracle` (MIL key instances, Eq. (31)).
:func:`violated_label`
    ``y_bar = argmax_{y in C} y'Hy``, the oracle on ``r = H y_bar``, then the monotone
    ascent ``y <- argmax_{y in B} y'H y_prev`` while ``y'Hy`` increases; Prop. 4 checked.
:func:`mlkl`
    Eq. (15) over a working set by the MKLGL alternation (Xu et al. 2010): the inner dual
    with fixed ``mu``, then ``mu_t <- mu_t sqrt(a'(K o y_t y_t')a)``, normalised.
:func:`wellsvm`
    Algorithm 2 in the variant ``"paper"`` (the equations of the paper) or
    ``"reference"`` (what the authors' SSL code does: the mu-SVM dual, a two-kernel
    theta-mixture, post-selection and re-optimisation).
:func:`gamma_width`, :func:`wellsvm_decision_function`.

The inner solver (``label_kernel_dual``, ``KernelRowCache``, ``label_kernel_quadratic``,
``cache_matvec``) is imported on a single line below.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from .._validation import (
    check_choice,
    check_int,
    check_matrix,
    check_positive,
    check_vector,
    warn_not_converged,
)
from ..kernels import gram, kernel_diag, make_kernel
from .smo import KernelRowCache, cache_matvec, label_kernel_dual, label_kernel_quadratic

__all__ = ["MLKLResult", "ViolatedLabel", "WellSVMClusteringResult", "WellSVMMILResult",
           "WellSVMResult", "bag_argmax_oracle", "band_oracle", "clustering_beta",
           "gamma_width", "label_generation", "mlkl", "sort_oracle_ssl", "ssl_n_pos",
           "violated_label", "wellsvm", "wellsvm_clustering", "wellsvm_decision_function",
           "wellsvm_mil", "wellsvm_mil_decision_function"]


# --------------------------------------------------------------------------- kernel width
def gamma_width(X, ratio: float = 1.0) -> float:
    """Gaussian width ``sigma = ratio * sqrt(gamma)`` of Li et al. 2013, Section 5.1.1.

    ``gamma`` is the mean squared Euclidean distance over all ``N^2`` ordered pairs of rows
    of ``X``, the diagonal included (``(1/N^2) sum_ij ||x_i - x_j||^2 = 2 mean ||x_i||^2 -
    2 ||mean x||^2``); the paper's grid is ``ratio in {0.25, 0.5, 1, 2, 4}`` with the kernel
    ``exp(-||x - x'||^2 / (2 sigma^2))``. Returns 1 when all rows coincide.
    """
    X = check_matrix(X, "X")
    ratio = check_positive(ratio, "ratio")
    m = X.mean(axis=0)
    g = 2.0 * float(np.mean(np.einsum("ij,ij->i", X, X))) - 2.0 * float(m @ m)
    return ratio * math.sqrt(g) if g > 0 else ratio


# --------------------------------------------------------------------------- oracles
def ssl_n_pos(n_unlabelled: int, y_l, rounding: str = "paper") -> int:
    """Positives among the unlabelled entries under the balance constraint (Joachims 1999).

    ``rounding="paper"``: Prop. 5 of Li et al. 2013, ``n_- = ceil(u (1 - pi_L))`` negatives
    and ``n_+ = u - n_-``; ``"reference"``: the authors' code, ``n_+ = ceil(u pi_L)``.
    ``pi_L`` is the positive fraction of the labels ``y_l`` (+1 / -1).
    """
    u = check_int(n_unlabelled, "n_unlabelled", minimum=0)
    y_l = check_vector(y_l, "y_l")
    if y_l.size == 0:
        raise ValueError("y_l is empty; the balance constraint needs labelled points.")
    pi = float(np.mean(y_l > 0))
    check_choice(rounding, "rounding", {"paper", "reference"})
    if rounding == "paper":
        return u - int(math.ceil(u * (1.0 - pi) - 1e-12))
    return int(math.ceil(u * pi - 1e-12))


def sort_oracle_ssl(r, f_tie, y_l, labelled_mask, n_pos: int) -> np.ndarray:
    """``argmax r'y`` over the SSL label set, Eq. (22) of Li et al. 2013 (Prop. 5).

    The set is ``{y : y_L = y_l, y_U in {-1, +1}^u, exactly n_pos positives in y_U}``; the
    unlabelled entries are sorted by ``r`` (decreasing) and the top ``n_pos`` get +1.

    Parameters
    ----------
    r : array (N,)
        Linear term (``r = H y_bar``, ``H = K o aa'``).
    f_tie : array (N,) or None
        Secondary sort key for ties of ``r`` (e.g. ``f_y_bar(x_i)``, which keeps the labels
        of points with ``a_i = 0`` meaningful); ``None``: ties keep the index order.
    y_l : array (l,)
        The labels (+1 / -1) of the labelled entries, in the order of ``labelled_mask``.
    labelled_mask : bool array (N,)
    n_pos : int
        Positives among the ``u = N - l`` unlabelled entries (:func:`ssl_n_pos`).

    Returns
    -------
    y : array (N,) of +1.0 / -1.0
    """
    r = check_vector(r, "r")
    n = r.shape[0]
    mask = np.asarray(labelled_mask, dtype=bool)
    if mask.shape != (n,):
        raise ValueError(f"labelled_mask must have shape ({n},), got {mask.shape}.")
    y_l = check_vector(y_l, "y_l", n=int(mask.sum()))
    if not np.all(np.abs(y_l) == 1):
        raise ValueError("y_l must hold labels +1 / -1.")
    unl = np.flatnonzero(~mask)
    n_pos = check_int(n_pos, "n_pos", minimum=0)
    if n_pos > unl.size:
        raise ValueError(f"n_pos={n_pos} exceeds the {unl.size} unlabelled entries.")
    tie = np.zeros(n) if f_tie is None else check_vector(f_tie, "f_tie", n=n)
    y = np.empty(n)
    y[mask] = y_l
    # lexsort: last key primary; stable, so full ties keep the index order
    order = np.lexsort((-tie[unl], -r[unl]))
    yu = -np.ones(unl.size)
    yu[order[:n_pos]] = 1.0
    y[unl] = yu
    return y


def band_oracle(r, beta: float, f_tie=None) -> np.ndarray:
    """``argmax r'y`` over ``{y in {-1, +1}^N : |1'y| <= beta}`` (clustering, Eqs. (37)-(38)).

    Sort ``r`` ascending: the first ``k = ceil((N - beta) / 2)`` entries get -1, the last
    ``k`` get +1, the middle band gets ``sign(r_i)`` (+1 for ``r_i = 0``); any middle
    assignment satisfies the constraint, so this is exact. ``f_tie`` breaks ties of ``r``.
    """
    r = check_vector(r, "r")
    n = r.shape[0]
    beta = check_positive(beta, "beta", allow_zero=True)
    if n % 2 == 1 and beta < 1:
        raise ValueError(f"beta={beta} admits no labelling of an odd number N={n} of points "
                         "(|1'y| is odd); use beta >= 1.")
    tie = np.zeros(n) if f_tie is None else check_vector(f_tie, "f_tie", n=n)
    k = max(0, int(math.ceil((n - beta) / 2.0 - 1e-12)))
    order = np.lexsort((tie, r))  # ascending by r, then by tie
    y = np.where(r >= 0, 1.0, -1.0)
    y[order[:k]] = -1.0
    y[order[n - k:]] = 1.0
    return y


def bag_argmax_oracle(r, bag_ptr, d_prev=None) -> np.ndarray:
    """``argmax r'd`` over one key instance per bag (MIL, Eq. (31) of Li et al. 2013).

    Bag ``b`` holds the entries ``bag_ptr[b]:bag_ptr[b+1]`` of ``r`` (index-pointer array,
    ``bag_ptr[0] = 0``, ``bag_ptr[-1] = len(r)``); its key instance is its largest ``r``
    (first one on ties). With ``d_prev``, a bag whose ``r`` is constant (e.g. ``a_i = 0``)
    keeps its previous key instance.

    Returns
    -------
    d : array (len(r),) of 0.0 / 1.0 with exactly one 1 per bag.
    """
    r = check_vector(r, "r")
    ptr = np.asarray(bag_ptr)
    if ptr.ndim != 1 or ptr.size < 2 or ptr[0] != 0 or ptr[-1] != r.shape[0] or np.any(
            np.diff(ptr) < 1):
        raise ValueError("bag_ptr must be an increasing index-pointer array starting at 0 and "
                         f"ending at len(r)={r.shape[0]}, every bag non-empty.")
    prev = None if d_prev is None else check_vector(d_prev, "d_prev", n=r.shape[0])
    d = np.zeros(r.shape[0])
    for b in range(ptr.size - 1):
        s, e = int(ptr[b]), int(ptr[b + 1])
        seg = r[s:e]
        if prev is not None and np.ptp(seg) == 0 and prev[s:e].sum() == 1:
            d[s:e] = prev[s:e]
        else:
            d[s + int(np.argmax(seg))] = 1.0
    return d


# --------------------------------------------------------------------------- violated label
@dataclass(repr=False)
class ViolatedLabel:
    """Result of :func:`violated_label`.

    Attributes
    ----------
    y : array (N,)
        The label found (the last accepted ascent step).
    value : float
        ``y'Hy`` with ``H = K o aa'``.
    working_max : float
        ``max_{y in C} y'Hy``.
    y_bar_index : int
        Index in the working set of ``y_bar``.
    n_ascent : int
        Accepted ascent steps (0: the first oracle answer did not increase ``y'Hy``).
    violated : bool
        ``value > (1 + eps) * working_max``.
    prop4 : dict
        The Prop. 4 check of the first oracle step: ``premise`` (``y_bar'H y* >
        y_bar'H y_bar``), ``gain`` (``y*'Hy* - y_bar'Hy_bar``), ``holds`` (premise implies a
        positive gain).
    """

    y: np.ndarray
    value: float
    working_max: float
    y_bar_index: int
    n_ascent: int
    violated: bool
    prop4: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"ViolatedLabel(value={self.value:.6g}, working_max={self.working_max:.6g}, "
                f"n_ascent={self.n_ascent}, violated={self.violated})")


def violated_label(alpha, cache, working_set, oracle, *, eps: float = 1e-3,
                   max_ascent: int = 100, use_tie: bool = True) -> ViolatedLabel:
    """A violated label for the MLKL solution ``alpha`` (Li et al. 2013, Section 4.1.3).

    ``y_bar = argmax_{y in C} y'Hy`` (``H = K o aa'``), then ``y* = oracle(r, f)`` with
    ``f = K (a o y_bar)`` and ``r = a o f = H y_bar`` (Eq. (21)), repeated from the new label
    (``y <- argmax_{y in B} y'H y_prev``) while ``y'Hy`` strictly increases: a monotone
    ascent, each accepted step violated by Prop. 4. The label is reported violated when
    ``y*'Hy* > (1 + eps) max_C y'Hy``, i.e. ``G(a, y*) < min_C G(a, y)`` by a relative
    margin (``G = -1/2 y'Hy + g(a)`` for both duals).

    Parameters
    ----------
    alpha : array (N,)
    cache : KernelRowCache
        Provides ``matvec(v) = K v``.
    working_set : array (T, N)
        Label vectors of ``C`` (rows).
    oracle : callable ``oracle(r, f) -> y``
        Exact maximiser of ``r'y`` over the label set ``B`` (e.g. a ``functools.partial`` of
        :func:`sort_oracle_ssl` taking ``r`` and ``f_tie``).
    eps : float
        Relative violation threshold (>= 0).
    max_ascent : int
        Cap on the ascent steps.
    use_tie : bool
        Pass ``f`` as the tie key to the oracle (``False`` passes ``None``).

    Returns
    -------
    ViolatedLabel
    """
    a = check_vector(alpha, "alpha")
    Y = np.atleast_2d(np.asarray(working_set, dtype=np.float64))
    if Y.shape[1] != a.shape[0]:
        raise ValueError(f"working_set must have {a.shape[0]} columns, got {Y.shape}.")
    eps = check_positive(eps, "eps", allow_zero=True)
    max_ascent = check_int(max_ascent, "max_ascent", minimum=1)
    q = label_kernel_quadratic(cache, Y, a)
    t_bar = int(np.argmax(q))
    working_max = float(q[t_bar])
    y_prev = Y[t_bar].copy()
    v_prev = working_max
    f = cache_matvec(cache, a * y_prev)
    prop4 = {}
    n_ascent = 0
    for step in range(max_ascent):
        r = a * f
        y = np.asarray(oracle(r, f if use_tie else None), dtype=np.float64)
        f_new = cache_matvec(cache, a * y)
        v = float((a * y) @ f_new)
        if step == 0:
            lin_new, lin_old = float(r @ y), float(r @ y_prev)
            scale = max(abs(lin_old), abs(v_prev), 1e-300)
            premise = lin_new > lin_old + 1e-12 * scale
            gain = v - v_prev
            prop4 = {"premise": bool(premise), "linear_new": lin_new, "linear_bar": lin_old,
                     "gain": gain, "holds": bool((not premise) or gain > -1e-10 * scale)}
        if v > v_prev * (1.0 + 1e-12) + 1e-300:
            y_prev, v_prev, f = y, v, f_new
            n_ascent += 1
        else:
            break
    violated = bool(n_ascent > 0 and v_prev > (1.0 + eps) * working_max)
    return ViolatedLabel(y=y_prev, value=v_prev, working_max=working_max, y_bar_index=t_bar,
                         n_ascent=n_ascent, violated=violated, prop4=prop4)


# --------------------------------------------------------------------------- MLKL
@dataclass(repr=False)
class MLKLResult:
    """Result of :func:`mlkl`.

    Attributes
    ----------
    alpha : array (N,)
    mu : array (T,)
    objective : float
        ``max_a sum_t mu_t G(a, y_t)`` at the final ``mu`` (an upper bound of the MLKL
        optimum ``p``, exact at convergence).
    lower : float
        ``min_t G(alpha, y_t)``, a lower bound of ``p``.
    gap : float
        ``objective - lower`` (>= 0 up to the inner tolerance).
    n_iter : int
        MKLGL iterations (inner dual solves).
    converged : bool
    history : list of float
        ``objective`` after each inner solve.
    inner_iter : int
        Total inner-solver iterations.
    stop_reason : str
        ``"gap"``, ``"change"`` (relative decrease below ``change_tol``), ``"single"`` (one
        label) or ``"max_iter"``.
    """

    alpha: np.ndarray
    mu: np.ndarray
    objective: float
    lower: float
    gap: float
    n_iter: int
    converged: bool
    history: list = field(default_factory=list)
    inner_iter: int = 0
    stop_reason: str = "max_iter"

    def __repr__(self) -> str:
        return (f"MLKLResult(T={self.mu.shape[0]}, objective={self.objective:.10g}, "
                f"gap={self.gap:.3g}, n_iter={self.n_iter}, converged={self.converged})")


def _g_parts(problem, alpha, diag):
    """``g(a)`` of ``G(a, y) = -1/2 (a o y)'K(a o y) + g(a)``."""
    if problem == "box":
        return float(alpha.sum())
    return -0.5 * float(alpha @ (diag * alpha)) if diag is not None else 0.0


def mlkl(cache, labels, C=1.0, *, problem: str = "box", diag=None, mu0=None, alpha0=None,
         tol: float = 1e-3, max_iter: int = 100, inner_eps: float = 1e-4,
         inner_max_iter=None, X=None, kernel="linear", change_tol=None) -> MLKLResult:
    """Eq. (15) of Li et al. 2013 over a working set, by MKLGL (Xu et al. 2010).

    ``min_{mu in simplex} max_a sum_t mu_t G(a, y_t)``: alternate (a) the inner dual with
    fixed ``mu`` on ``Q = K o (sum_t mu_t y_t y_t') (+ D)`` (``label_kernel_dual``,
    warm-started), and (b) the closed form ``mu_t <- mu_t sqrt(a'(K o y_t y_t')a)``,
    normalised (``||w_t|| = mu_t sqrt(...)``; the paper's Eq. (17) swaps ``sqrt(mu_t)`` and
    ``1/sqrt(mu_t)``, the update here is derived from the primal Eq. (16)).

    Stopping: the certified relative gap ``(J(mu) - min_t G(a, y_t)) / max(|J|, 1e-12) <=
    tol``, where ``J(mu) = max_a sum_t mu_t G(a, y_t)`` is an upper and ``min_t G(a, y_t)``
    a lower bound of the optimum (Prop. 1: the MLKL optimum equals ``max_a min_t G``); or
    the relative decrease of ``J`` over one iteration below ``change_tol`` (default
    ``tol / 100``; the gap closes slowly when some ``mu_t`` tend to 0 while ``J`` has
    converged); or ``max_iter`` inner solves (the paper reports fewer than 100).

    Parameters
    ----------
    cache : KernelRowCache
    labels : array (T, N)
    C : float or array (N,)
        Box bounds (``problem="box"``); ignored for the simplex.
    problem : {"box", "simplex"}
        Hinge dual without offset, or the mu-SVM (``diag`` = ``1/C_i``).
    diag : array (N,), optional
        ``D`` of the mu-SVM.
    mu0, alpha0 : warm starts (``mu0`` default uniform).
    tol, max_iter : stopping rule (see above).
    inner_eps : float
        Tolerance of the inner dual.
    inner_max_iter : int, optional
        Iteration cap of each inner solve.
    X, kernel : the data and kernel of ``cache``, forwarded to the inner solver.
    change_tol : float, optional
        Relative-decrease stopping rule (see above); 0 disables it.

    Returns
    -------
    MLKLResult
        ``converged`` is True when the gap or the decrease rule stopped the iteration
        (``info``-free: ``gap`` tells which).
    """
    Y = np.atleast_2d(np.asarray(labels, dtype=np.float64))
    T, n = Y.shape
    check_choice(problem, "problem", {"box", "simplex"})
    tol = check_positive(tol, "tol", allow_zero=True)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    if mu0 is None:
        mu = np.full(T, 1.0 / T)
    else:
        mu = check_vector(mu0, "mu0", n=T).copy()
        if np.any(mu < 0) or mu.sum() <= 0:
            raise ValueError("mu0 must be >= 0 with a positive sum.")
        mu /= mu.sum()
    change_tol = tol / 100.0 if change_tol is None else check_positive(
        change_tol, "change_tol", allow_zero=True)
    dvec = None if diag is None else check_vector(diag, "diag", n=n)
    a = alpha0
    history = []
    inner = 0
    converged = False
    stop = "max_iter"
    obj = lower = np.inf
    for _ in range(max_iter):
        res = label_kernel_dual(X, Y, mu, C, kernel, problem=problem, diag=dvec, alpha0=a,
                                eps=inner_eps, cache=cache, max_iter=inner_max_iter)
        a = res.alpha
        inner += res.n_iter
        obj = -res.objective
        history.append(obj)
        q = np.maximum(label_kernel_quadratic(cache, Y, a), 0.0)
        g = _g_parts(problem, a, dvec)
        lower = g - 0.5 * float(q.max())
        scale = max(abs(obj), 1e-12)
        if T == 1:
            converged, stop = True, "single"
        elif obj - lower <= tol * scale:
            converged, stop = True, "gap"
        elif len(history) > 1 and history[-2] - obj < change_tol * scale:
            converged, stop = True, "change"
        w = mu * np.sqrt(q)
        if converged or w.sum() <= 0:
            converged = True
            stop = stop if stop != "max_iter" else "gap"
            break
        mu = w / w.sum()
    return MLKLResult(alpha=a, mu=mu, objective=float(obj), lower=float(lower),
                      gap=float(max(obj - lower, 0.0)), n_iter=len(history),
                      converged=converged,
                      history=history, inner_iter=inner, stop_reason=stop)


# --------------------------------------------------------------------------- WellSVM
@dataclass(repr=False)
class WellSVMResult:
    """Result of :func:`wellsvm`.

    The decision function is ``f(x) = sum_i alpha_i (sum_t mu_t labels[t, i]) k(x_i, x)``
    (no bias; Li et al. 2013, Section 4.1.2), for both variants (the reference variant's
    final model has one label vector with weight 1).

    Attributes
    ----------
    alpha : array (N,)
    mu : array (T,)
    labels : array (T, N)
        The working set ``C`` (rows), in the order the labels were added.
    objective_path : list of float
        The MLKL optimum ``p^(t)`` after each outer iteration (Eq. (15); the mu-SVM value
        ``-1/2 a'Qa`` for the reference variant, the quantity of Fig. 2). Non-increasing
        (Theorem 2) up to the MLKL tolerance.
    n_outer : int
        Outer (label-generation) iterations, i.e. MLKL solves after the first.
    n_inner : list of int
        MKL iterations (inner dual solves) of each MLKL solve.
    converged : bool
        Stopped by the violation test or the objective-decrease threshold.
    prop4_checks : list of dict
        One Prop. 4 check per oracle call (see :class:`ViolatedLabel`), plus ``added`` and
        ``value > working_max`` of the added label.
    seconds : float
    variant : str
    info : dict
        Variant-specific details (initial labels, stop reason, timings, ...).
    """

    alpha: np.ndarray
    mu: np.ndarray
    labels: np.ndarray
    objective_path: list
    n_outer: int
    n_inner: list
    converged: bool
    prop4_checks: list
    seconds: float
    variant: str
    info: dict = field(default_factory=dict)

    @property
    def coef(self) -> np.ndarray:
        """Expansion coefficients ``alpha_i sum_t mu_t labels[t, i]``."""
        return self.alpha * (self.mu @ self.labels)

    def __repr__(self) -> str:
        return (f"WellSVMResult(variant={self.variant!r}, N={self.alpha.shape[0]}, "
                f"T={self.mu.shape[0]}, n_outer={self.n_outer}, converged={self.converged}, "
                f"objective={self.objective_path[-1] if self.objective_path else None!r})")


def _parse_target(y, n):
    y = check_vector(y, "y", n=n)
    if not set(np.unique(y).tolist()) <= {-1.0, 0.0, 1.0}:
        raise ValueError("y must hold +1 / -1 for labelled points and 0 for unlabelled ones.")
    mask = y != 0
    if not (np.any(y == 1) and np.any(y == -1)):
        raise ValueError("y must contain labelled points of both classes (+1 and -1).")
    return y, mask


def _svm_init(X, kernel, cache, y, mask, C1):
    """Decision values of a C-SVM (with bias, cost ``C1``) trained on the labelled points."""
    lab = np.flatnonzero(mask)
    if isinstance(kernel, str) and kernel == "precomputed":
        from sklearn.svm import SVC
        K = X
        svc = SVC(C=C1, kernel="precomputed", tol=1e-5).fit(K[np.ix_(lab, lab)], y[lab])
        return svc.decision_function(K[:, lab]) * (1.0 if svc.classes_[1] > 0 else -1.0)
    from .smo import svc_dual
    res = svc_dual(X[lab], y[lab], C1, kernel, eps=1e-5)
    coef = res.alpha * y[lab]
    return gram(X, X[lab], kernel) @ coef - res.rho


def wellsvm(X, y, C1=1.0, C2=0.1, kernel="linear", *, variant: str = "paper",
            eps: float = 1e-3, thr: float = 1e-3, max_outer=None, mkl_tol=None,
            mkl_max_iter=None, inner_eps=None, random_state=None, n_init_draws: int = 20,
            cache_mb=None, verbose: bool = False, cache_dtype="float64") -> WellSVMResult:
    """WellSVM for semi-supervised learning (Li et al. 2013, Algorithm 2).

    Parameters
    ----------
    X : array (N, d), or (N, N) Gram matrix with ``kernel="precomputed"``
    y : array (N,)
        +1 / -1 for labelled points, 0 for unlabelled ones; both classes must be labelled.
    C1, C2 : float
        Costs of the labelled and of the unlabelled points (Eq. (13)).
    kernel : str, Kernel or "precomputed"
        See :func:`weaklabel.kernels.make_kernel`.
    variant : {"paper", "reference"}
        ``"paper"``: the paper's equations. Hinge box dual without offset (``0 <= a_i <=
        C1`` on L, ``C2`` on U); full MKLGL over the working set (:func:`mlkl`, relative gap
        ``mkl_tol`` default 1e-3, ``mkl_max_iter`` default 100); initial labels: a C-SVM
        trained on the labelled points, its decision values on U thresholded with ``n_- =
        ceil(u (1 - pi_L))`` negatives (Prop. 5); violated labels by sorting with the tie
        key ``f_y_bar``; stop when no label is violated by the relative ``eps`` (see
        :func:`violated_label`) or when the relative decrease of the MLKL objective
        ``(p^(t-1) - p^(t)) / |p^(t-1)|`` is below ``thr``; ``max_outer`` default 50. The
        paper's ``eps = thr = 1e-6`` do not say absolute or relative; the relative 1e-3
        used here is what the authors' code uses.

        ``"reference"``: what the authors' SSL code does (the LAMDA MATLAB code, as ported
        to R in RSSL): the mu-SVM simplex dual with ``D = diag(1/C1 on L, 1/C2 on U)``;
        ``n_+ = ceil(u pi_L)``; initial label: the best kernel alignment ``y'Ky`` of
        ``n_init_draws`` random labellings (seeded by ``random_state``), each refined by
        the ascent with ``a = 1``; each new label enters a two-kernel theta-mixture (old
        combination, new label) started at (0.9, 0.1), MKLGL steps while the objective
        ``1/2 a'Qa`` grows by more than 0.1 % (at most 10); outer stop when it grows by less
        than 0.1 % or no label is violated by 0.1 % (at most ``max_outer``, default 20);
        the relaxed solution's sign on U (weights > 0.01), re-thresholded, competes with the
        thresholded labelled-only C-SVM by the larger single-label objective; up to 10
        re-optimisation rounds (train on the labels, re-threshold U by the sign of
        ``sum_i a_i y_i k(x_i, .)``) follow. The R port's bug (0 instead of -1 for the
        non-top unlabelled entries) is not replicated.
    eps, thr : float
        Relative violation threshold and relative objective-decrease threshold (paper
        variant; the reference variant uses its fixed 1e-3).
    max_outer : int, optional
        Cap on the outer iterations (default 50 paper / 20 reference).
    mkl_tol, mkl_max_iter : MLKL stopping rule (paper variant).
    inner_eps : float, optional
        Tolerance of the inner dual (default 1e-5 for both variants). The authors' code
        calls LIBSVM at its default 1e-3; on the RSSL diabetes split 1 this module gives
        150 / 192 test points at 1e-3 and 151 / 192 (the published 0.7864583) at 1e-4 and
        below, i.e. the limit of an exact inner solve.
    random_state : int, Generator or None
        Seeds the random initial labellings of the reference variant.
    n_init_draws : int
        Random initial labellings of the reference variant (20 in the authors' code).
    cache_mb : float, None or "auto"
        Budget in MB of the kernel-row cache shared by the inner solver and the full ``K v``
        scans of the label steps (scans read cached rows without evicting them). Default
        ``None``: all of ``K`` when it needs at most 1024 MB, else 1024 MB
        (:func:`weaklabel.kernels.cache_budget`). The budget changes the time, never the
        iterates.
    verbose : bool
        Print one line per outer iteration.
    cache_dtype : {"float64", "float32"}
        Storage of the cached rows of ``K`` (``"float32"``: LIBSVM's ``Qfloat``, twice the
        rows in the same budget; the iterates then use ``K`` rounded to float32).

    Returns
    -------
    WellSVMResult

    Warns
    -----
    ConvergenceWarning
        The outer loop stopped at ``max_outer`` (paper variant), or an MLKL solve stopped at
        ``mkl_max_iter`` with its gap above ``mkl_tol``.
    RuntimeWarning
        A Prop. 4 check failed (numerically impossible for an exact oracle).
    """
    t0 = time.perf_counter()
    check_choice(variant, "variant", {"paper", "reference"})
    precomputed = isinstance(kernel, str) and kernel == "precomputed"
    if precomputed:
        X = check_matrix(X, "X", min_rows=2)
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"X must be a square Gram matrix with kernel='precomputed', got "
                             f"shape {X.shape}.")
        kern = "precomputed"
    else:
        X = check_matrix(X, "X", min_rows=2)
        kern = make_kernel(kernel)
    n = X.shape[0]
    y, mask = _parse_target(y, n)
    C1 = check_positive(C1, "C1")
    C2 = check_positive(C2, "C2")
    eps = check_positive(eps, "eps", allow_zero=True)
    thr = check_positive(thr, "thr", allow_zero=True)
    n_init_draws = check_int(n_init_draws, "n_init_draws", minimum=1)
    if max_outer is not None:
        max_outer = check_int(max_outer, "max_outer", minimum=1)
    if mkl_tol is not None:
        check_positive(mkl_tol, "mkl_tol", allow_zero=True)
    if mkl_max_iter is not None:
        check_int(mkl_max_iter, "mkl_max_iter", minimum=1)
    if inner_eps is not None:
        check_positive(inner_eps, "inner_eps")
    t_k = time.perf_counter()
    cache = KernelRowCache(X, kernel=kern, cache_mb=cache_mb, cache_dtype=cache_dtype)
    seconds_kernel = time.perf_counter() - t_k
    Cvec = np.where(mask, C1, C2)
    run = _run_paper if variant == "paper" else _run_reference
    res = run(X, y, mask, kern, cache, Cvec, eps=eps, thr=thr, max_outer=max_outer,
              mkl_tol=mkl_tol, mkl_max_iter=mkl_max_iter, inner_eps=inner_eps,
              random_state=random_state, n_init_draws=n_init_draws, verbose=verbose)
    res.seconds = time.perf_counter() - t0
    res.info["seconds_kernel"] = seconds_kernel
    res.info["kernel"] = kern
    res.info["C1"], res.info["C2"] = C1, C2
    failed = [c for c in res.prop4_checks if not c.get("holds", True)]
    if failed:
        warnings.warn(f"wellsvm: {len(failed)} Prop. 4 check(s) failed (a label reported "
                      "violated does not increase y'Hy); the inner solutions may be "
                      "inaccurate, lower inner_eps.", RuntimeWarning, stacklevel=2)
    return res


# --------------------------------------------------------------------------- the shared loop
def _same_up_to_sign(labels, y) -> bool:
    """``y`` or ``-y`` is a row of ``labels`` (they give the same label kernel)."""
    Y = np.asarray(labels)
    return bool(np.any(np.all(Y == y, axis=1)) or np.any(np.all(Y == -y, axis=1)))


def label_generation(cache, y0, C, oracle, *, X=None, kernel="linear", eps: float = 1e-3,
                     thr: float = 1e-3, max_outer: int = 50, mkl_tol: float = 1e-3,
                     mkl_max_iter: int = 100, inner_eps: float = 1e-5,
                     sign_symmetric: bool = False, solve=None, find_violated=None,
                     name: str = "wellsvm", variant: str = "paper", verbose: bool = False,
                     verbose_name=None, stacklevel: int = 3) -> WellSVMResult:
    """The label-generation cutting plane of Li et al. 2013 (Algorithm 1; Algorithms 2, 3 and
    4 are this loop with the SSL, MIL and clustering label sets).

    ``C = {y0}``; solve the MLKL over ``C`` (Eq. (15) / (28) / (36)); find a violated label
    (``violated_label`` with ``oracle``: ``y_bar = argmax_C y'Hy``, then the exact linear
    maximiser over ``B`` and the monotone ascent, Prop. 4 checked); stop when none is
    violated by the relative ``eps``, or when the relative decrease of the MLKL objective
    ``(p^(t-1) - p^(t)) / |p^(t-1)|`` is below ``thr``, or after ``max_outer`` additions.
    A new label enters the warm-started MLKL with weight 0.1, the old weights scaled by 0.9.

    Parameters
    ----------
    cache : KernelRowCache or None
        Rows of ``K`` on the training points (unused, may be None, when both ``solve`` and
        ``find_violated`` are given).
    y0 : array (N,)
        Initial label vector (the first member of the working set; for MIL the key-instance
        indicator ``d``).
    C : float or array (N,)
        Box costs of the hinge dual without offset, ``0 <= a_i <= C_i``.
    oracle : callable ``oracle(r, f) -> y``
        Exact maximiser of ``r'y`` over the label set (see :func:`violated_label`).
    X, kernel : the data and kernel of ``cache`` (forwarded to the inner solver).
    eps, thr, max_outer : stopping rules (above).
    mkl_tol, mkl_max_iter, inner_eps : MLKL settings (:func:`mlkl`).
    sign_symmetric : bool
        The label set is closed under ``y -> -y`` (clustering): a generated label equal to
        a member of ``C`` up to sign is not added (it gives the same base kernel).
    solve : callable ``solve(labels, mu0, alpha0) -> MLKLResult``, optional
        Replaces :func:`mlkl` (MIL, whose base kernels are not ``K o yy'``).
    find_violated : callable ``find_violated(alpha, labels) -> ViolatedLabel``, optional
        Replaces :func:`violated_label` with ``oracle`` (``oracle`` is then unused).
    name : str
        Solver name in the warnings.
    variant : str
        Stored in the result.
    verbose : bool
        One line per outer iteration, prefixed by ``verbose_name`` (default ``name``).
    stacklevel : int
        Of the convergence warnings (3: the caller of this function).

    Returns
    -------
    WellSVMResult
        ``info`` holds ``stop_reason``, ``mkl_gap``, ``seconds_oracle``, ``eps``, ``thr``,
        ``mkl_tol``, ``inner_eps``, ``n_duplicates`` (labels refused as sign duplicates) and
        ``mkl_capped`` (MLKL solves that stopped at ``mkl_max_iter``, the last included).

    Warns
    -----
    ConvergenceWarning
        At ``max_outer``, or when the last MLKL solve (the one whose solution is returned)
        stopped at ``mkl_max_iter``.
    """
    if solve is None:
        def solve(labels, mu0, alpha0):
            return mlkl(cache, labels, C, problem="box", mu0=mu0, alpha0=alpha0, tol=mkl_tol,
                        max_iter=mkl_max_iter, inner_eps=inner_eps, X=X, kernel=kernel)
    if find_violated is None:
        def find_violated(alpha, labels):
            return violated_label(alpha, cache, labels, oracle, eps=eps)
    prefix = name if verbose_name is None else verbose_name
    labels = [np.asarray(y0, dtype=np.float64)]
    res = solve(np.array(labels), None, None)
    path = [res.objective]
    n_inner = [res.n_iter]
    checks = []
    mkl_capped = int(not res.converged)
    converged = False
    stop = "max_outer"
    n_outer = 0
    n_dup = 0
    seconds_oracle = 0.0
    while n_outer < max_outer:
        t_o = time.perf_counter()
        vl = find_violated(res.alpha, np.array(labels))
        seconds_oracle += time.perf_counter() - t_o
        chk = dict(vl.prop4, added=vl.violated, increase=vl.value > vl.working_max,
                   value=vl.value, working_max=vl.working_max)
        if vl.violated and not chk["increase"]:
            chk["holds"] = False
        if sign_symmetric and vl.violated and _same_up_to_sign(labels, vl.y):
            chk["added"], chk["duplicate"] = False, True
            n_dup += 1
        checks.append(chk)
        if not chk["added"]:
            converged, stop = True, "no violated label"
            break
        n_outer += 1
        # warm start: the new label enters with weight 0.1 (the theta-mixture start of the
        # authors' code), the old weights scaled by 0.9
        mu0 = np.append(0.9 * res.mu, 0.1)
        labels.append(vl.y)
        prev = res.objective
        res = solve(np.array(labels), mu0, res.alpha)
        mkl_capped += not res.converged
        path.append(res.objective)
        n_inner.append(res.n_iter)
        if verbose:
            print(f"{prefix}: outer {n_outer}: |C| = {len(labels)}, objective "
                  f"{res.objective:.8g}, MKL iterations {res.n_iter}")
        if (prev - res.objective) < thr * max(abs(prev), 1e-12):
            converged, stop = True, "objective decrease below thr"
            break
    if not converged:
        warn_not_converged(name, max_outer, checks[-1]["value"] / max(
            checks[-1]["working_max"], 1e-300) - 1.0, what="relative label violation",
            param="max_outer", tol_param="eps", stacklevel=stacklevel)
    # an intermediate MLKL solve stopped at its cap only yields a less exact cutting plane
    # (the next solve starts from it); the returned solution is the last solve's
    if not res.converged:
        warn_not_converged(f"{name} (MLKL)", mkl_max_iter, res.gap,
                           what="MLKL duality gap", param="mkl_max_iter", tol_param="mkl_tol",
                           stacklevel=stacklevel)
    return WellSVMResult(alpha=res.alpha, mu=res.mu, labels=np.array(labels),
                         objective_path=path, n_outer=n_outer, n_inner=n_inner,
                         converged=converged, prop4_checks=checks, seconds=0.0,
                         variant=variant,
                         info={"stop_reason": stop, "mkl_gap": res.gap,
                               "seconds_oracle": seconds_oracle, "eps": eps, "thr": thr,
                               "mkl_tol": mkl_tol, "inner_eps": inner_eps,
                               "n_duplicates": n_dup, "mkl_capped": mkl_capped})


def _ssl_oracle(mask, y, n_pos, use_tie=True):
    y_l = y[mask]

    def oracle(r, f):
        return sort_oracle_ssl(r, f if use_tie else None, y_l, mask, n_pos)
    return oracle


def _run_paper(X, y, mask, kern, cache, Cvec, *, eps, thr, max_outer, mkl_tol, mkl_max_iter,
               inner_eps, verbose, **_):
    max_outer = 50 if max_outer is None else max_outer
    mkl_tol = 1e-3 if mkl_tol is None else mkl_tol
    mkl_max_iter = 100 if mkl_max_iter is None else mkl_max_iter
    inner_eps = 1e-5 if inner_eps is None else inner_eps
    u = int((~mask).sum())
    n_pos = ssl_n_pos(u, y[mask], "paper")
    oracle = _ssl_oracle(mask, y, n_pos)
    t_init = time.perf_counter()
    f0 = _svm_init(X, kern, cache, y, mask, float(Cvec[mask][0]))
    y0 = sort_oracle_ssl(f0, f0, y[mask], mask, n_pos)
    seconds_init = time.perf_counter() - t_init
    res = label_generation(cache, y0, Cvec, oracle, X=X, kernel=kern, eps=eps, thr=thr,
                           max_outer=max_outer, mkl_tol=mkl_tol, mkl_max_iter=mkl_max_iter,
                           inner_eps=inner_eps, name="wellsvm", verbose=verbose,
                           verbose_name="wellsvm[paper]", stacklevel=5)
    info = {"stop_reason": res.info["stop_reason"], "init_labels": y0, "n_pos": n_pos,
            "mkl_gap": res.info["mkl_gap"], "seconds_init": seconds_init}
    info.update({k: v for k, v in res.info.items() if k not in info})
    res.info = info
    return res


def _ref_threshold(f_u, n_pos):
    """The authors' ``threshold``: the top ``n_pos`` of ``f_u`` get +1 (stable order)."""
    out = -np.ones(f_u.shape[0])
    out[np.argsort(-f_u, kind="stable")[:n_pos]] = 1.0
    return out


def _ref_ascent(alpha, cache, y_start, oracle):
    """The authors' ascent from ``y_start``: ``(y, (a o y)'K(a o y))``.

    One kernel product per step: ``K (a o y)`` both scores the new label and gives the next
    step's ``f`` (the authors' code computes it twice; the arithmetic is the same)."""
    g = cache_matvec(cache, alpha * y_start)
    v = float((alpha * y_start) @ g)
    cur = y_start
    while True:
        y = oracle(alpha * g, None)
        gn = cache_matvec(cache, alpha * y)
        vn = float((alpha * y) @ gn)
        if vn > v:
            v, cur, g = vn, y, gn
        else:
            return cur, v


def _run_reference(X, y, mask, kern, cache, Cvec, *, max_outer, inner_eps, random_state,
                   n_init_draws, verbose, **_):
    max_outer = 20 if max_outer is None else max_outer
    inner_eps = 1e-5 if inner_eps is None else inner_eps
    n = y.shape[0]
    unl = np.flatnonzero(~mask)
    u = unl.size
    n_pos = ssl_n_pos(u, y[mask], "reference")
    oracle = _ssl_oracle(mask, y, n_pos, use_tie=False)
    diag = 1.0 / Cvec
    ones = np.ones(n)

    def solve(labels, mu, a0=None):
        r = label_kernel_dual(X, labels, mu, 1.0, kern, problem="simplex", diag=diag, alpha0=a0,
                              eps=inner_eps, cache=cache)
        return r.alpha, r.objective  # objective = 1/2 a'Qa (fval of the authors' code)

    # labelled-only C-SVM, thresholded on U
    t_init = time.perf_counter()
    f0 = _svm_init(X, kern, cache, y, mask, float(Cvec[mask][0]))
    y_svm = y.copy()
    y_svm[unl] = _ref_threshold(f0[unl], n_pos)
    a_svm, obj1 = solve(y_svm[None], [1.0])
    # random partial labellings refined by the ascent with a = 1
    rng = np.random.default_rng(random_state)
    nr = int(math.floor(u * float(np.mean(y[mask] > 0))))
    best_v, y1 = -np.inf, None
    for _ in range(n_init_draws):
        t = y.copy()
        t[unl] = -1.0
        t[unl[rng.permutation(u)[:nr]]] = 1.0
        yt, v = _ref_ascent(ones, cache, t, oracle)
        if v > best_v:
            best_v, y1 = v, yt
    seconds_init = time.perf_counter() - t_init
    # label generation with the two-kernel theta-mixture
    working = [y1]
    w = np.array([1.0])          # global weights of the working set
    beta_cur = np.array([1.0])
    best = -np.inf
    path, n_inner, checks = [], [], []
    alpha = None
    it = 1
    stop = "max_outer"
    converged = False
    while it <= max_outer:
        Y = np.array(working)
        if len(working) == 1:
            a_m, obj = solve(Y, [1.0])
            mk_it = 1
        else:
            beta = beta_cur.copy()
            a_prev = None
            best_m = -np.inf
            for mk_it in range(1, 11):
                mu = np.append(w * beta[0], beta[1])
                a_m, obj = solve(Y, mu, a_prev)
                a_prev = a_m
                if mk_it > 1 and obj < 1.001 * best_m:
                    break
                best_m = obj
                q = np.maximum(label_kernel_quadratic(cache, Y, a_m), 0.0)
                val = beta * np.sqrt(np.array([w @ q[:-1], q[-1]]))
                beta = val / val.sum()
            beta_cur = beta
        n_inner.append(mk_it)
        if obj < 1.001 * best:
            converged, stop = True, "objective increase below 0.1%"
            working.pop()   # the authors' code keeps the previous model
            break
        if len(working) > 1:
            w = np.append(w * beta_cur[0], beta_cur[1])
        best = obj
        path.append(-obj)
        alpha = a_m
        if verbose:
            print(f"wellsvm[reference]: outer {it}: |C| = {len(working)}, objective "
                  f"{-obj:.8g}, MKL iterations {mk_it}")
        active = np.flatnonzero(w != 0)
        vl = violated_label(alpha, cache, Y[active], oracle, eps=1e-3, use_tie=False)
        chk = dict(vl.prop4, added=vl.violated, increase=vl.value > vl.working_max,
                   value=vl.value, working_max=vl.working_max)
        checks.append(chk)
        if not vl.violated:
            converged, stop = True, "no violated label"
            break
        if it == max_outer - 1:
            stop = "max_outer"
            break
        working.append(vl.y)
        beta_cur = np.array([0.9, 0.1])
        it += 1
    if not converged:
        viol = (checks[-1]["value"] / max(checks[-1]["working_max"], 1e-300) - 1.0
                if checks else float("nan"))
        warn_not_converged("wellsvm[reference]", max_outer, viol,
                           what="relative label violation", param="max_outer",
                           tol_param=None, stacklevel=5)
    labels_ws = np.array(working[:w.shape[0]])
    # relaxed solution on U, re-thresholded
    coef = alpha * (np.where(w > 1e-2, w, 0.0) @ labels_ws)
    f_rel = cache_matvec(cache, coef)
    yy1 = y.copy()
    yy1[unl] = _ref_threshold(f_rel[unl], n_pos)
    a_rel, obj2 = solve(yy1[None], [1.0])
    if obj1 >= obj2:
        a_sel, y_init, chosen = a_svm, y_svm, "svm"
    else:
        a_sel, y_init, chosen = a_rel, yy1, "relaxation"
    # re-optimisation rounds
    newy = y.copy()
    newy[unl] = _ref_threshold(cache_matvec(cache, a_sel * y_init)[unl], n_pos)
    rounds = 1
    while rounds <= 10 and not np.array_equal(newy, y_init):
        y_init = newy
        a_sel, _ = solve(y_init[None], [1.0])
        newy = y.copy()
        newy[unl] = _ref_threshold(cache_matvec(cache, a_sel * y_init)[unl], n_pos)
        rounds += 1
    return WellSVMResult(alpha=a_sel, mu=np.array([1.0]), labels=newy[None],
                         objective_path=path, n_outer=len(path) - 1 if path else 0,
                         n_inner=n_inner, converged=converged, prop4_checks=checks,
                         seconds=0.0, variant="reference",
                         info={"stop_reason": stop, "n_pos": n_pos, "init_labels": y1,
                               "svm_labels": y_svm, "relaxed_labels": yy1,
                               "relaxed_alpha": alpha, "relaxed_mu": w,
                               "working_set": labels_ws, "obj_svm": obj1,
                               "obj_relaxed": obj2, "chosen": chosen,
                               "reopt_rounds": rounds, "seconds_init": seconds_init,
                               "inner_eps": inner_eps})


def wellsvm_decision_function(result: WellSVMResult, X_train, X, kernel=None) -> np.ndarray:
    """``f(x) = sum_i alpha_i (sum_t mu_t y_ti) k(x_i, x)`` (no bias).

    ``kernel`` defaults to the kernel of the fit; with ``"precomputed"`` pass ``X`` as the
    ``(m, N)`` kernel block between the new points and the training points.
    """
    kern = result.info.get("kernel") if kernel is None else kernel
    coef = result.coef
    if isinstance(kern, str) and kern == "precomputed":
        Kx = check_matrix(X, "X", min_rows=0)
        if Kx.shape[1] != coef.shape[0]:
            raise ValueError(f"X must have {coef.shape[0]} columns (training points) with "
                             f"kernel='precomputed', got {Kx.shape[1]}.")
        return Kx @ coef
    X_train = check_matrix(X_train, "X_train")
    X = check_matrix(X, "X", min_rows=0, n_features=X_train.shape[1])
    sv = np.flatnonzero(coef != 0)
    return gram(X, X_train[sv], make_kernel(kern)) @ coef[sv]


# --------------------------------------------------------------------------- clustering
def clustering_beta(n: int, fraction: float) -> float:
    """The balance bound ``beta`` of clustering from a fraction of ``N`` (Li et al. 2013,
    Section 5.3: ``beta = 0.03 N`` for balanced and ``0.3 N`` for imbalanced data).

    Returns ``fraction * n``, raised to 1 when ``n`` is odd and ``fraction * n < 1`` (no
    labelling of an odd number of points has ``1'y = 0``).
    """
    n = check_int(n, "n", minimum=1)
    fraction = check_positive(fraction, "beta_fraction", allow_zero=True)
    if fraction > 1:
        raise ValueError(f"beta_fraction must lie in [0, 1], got {fraction}.")
    beta = fraction * n
    return 1.0 if (n % 2 == 1 and beta < 1) else beta


@dataclass(repr=False)
class WellSVMClusteringResult:
    """Result of :func:`wellsvm_clustering`.

    Attributes
    ----------
    result : WellSVMResult
        The label-generation run (working set, ``mu``, ``alpha``, objective path, Prop. 4
        checks); ``result.coef`` gives ``f(x) = sum_i coef_i k(x_i, x)``.
    assignment : array (N,) of +1 / -1
        Cluster of every training point: ``sign f(x_i)`` (``f >= 0`` is +1), re-balanced by
        sorting when ``|1'y| > beta`` (the band oracle on ``f``: the largest ``f`` keep +1).
    decision : array (N,)
        ``f(x_i)`` on the training points.
    beta : float
    selection_score : float
        Label-free model-selection score, lower is better: the final MLKL objective ``p``
        (the relaxation's optimum, Eq. (35); ``0 <= p <= C N`` by Assumption 1) divided by
        ``C N``, i.e. the regularised hinge risk per point in units of the cost. It does not
        look at class labels; like the objective itself it favours large ``C`` somewhat.
    radius_margin : float
        ``R^2 ||w||^2 / N`` with ``R^2 = max_i k(x_i, x_i)`` and ``||w||^2 = sum_t mu_t
        (a o y_t)'K(a o y_t)`` (invariant to a rescaling of the kernel), a second label-free
        score (lower is better).
    init_labels : array (N,)
    seconds : float
    """

    result: WellSVMResult
    assignment: np.ndarray
    decision: np.ndarray
    beta: float
    selection_score: float
    radius_margin: float
    init_labels: np.ndarray
    seconds: float

    def __repr__(self) -> str:
        return (f"WellSVMClusteringResult(N={self.assignment.shape[0]}, beta={self.beta:g}, "
                f"sizes=({int(np.sum(self.assignment > 0))}, "
                f"{int(np.sum(self.assignment < 0))}), score={self.selection_score:.6g})")


def _kernel_diagonal(X, kern):
    """``k(x_i, x_i)`` for every row (the diagonal of a precomputed Gram matrix)."""
    if isinstance(kern, str) and kern == "precomputed":
        return np.diag(X).copy()
    return kernel_diag(X, kern.code, kern.params)


def _balanced_draws(n, n_draws, rng):
    """``n_draws`` random balanced labellings (a random permutation, the first ``floor(n/2)``
    get +1)."""
    out = -np.ones((n_draws, n))
    for t in range(n_draws):
        out[t, rng.permutation(n)[:n // 2]] = 1.0
    return out


def wellsvm_clustering(X, C=1.0, kernel="linear", beta=None, *, beta_fraction: float = 0.03,
                       n_init_draws: int = 20, random_state=None, eps: float = 1e-3,
                       thr: float = 1e-3, max_outer: int = 50, mkl_tol: float = 1e-3,
                       mkl_max_iter: int = 100, inner_eps: float = 1e-5,
                       cache_mb=None, verbose: bool = False, cache_dtype="float64"
                       ) -> WellSVMClusteringResult:
    """WellSVM for maximum-margin clustering (Li et al. 2013, Section 4.3, Algorithm 4).

    ``min_{y in B} min_w 1/2||w||^2 + C sum_i xi_i`` with ``B = {y in {-1,+1}^N : |1'y| <=
    beta}`` (Eq. (32)), relaxed to the MLKL Eq. (35) and solved by :func:`label_generation`
    with the hinge dual without offset ``0 <= a_i <= C`` (one cost; the paper's ``C_1`` in
    Eq. (34) is read as that cost) and the band oracle of Eqs. (37)-(38)
    (:func:`band_oracle`, tie key ``f_y_bar``). ``y`` and ``-y`` give the same base kernel:
    a generated label equal to a working label up to sign is never added.

    Initialisation (Section 5.3.1): ``n_init_draws`` random balanced labellings (a random
    permutation, the first ``floor(N/2)`` points +1; seeded by ``random_state``), the one of
    largest kernel alignment ``y'Ky / (N ||K||_F)`` (the largest ``y'Ky``) is the first
    working label.

    Cluster assignment (not stated in the paper; declared here): ``sign f(x_i)`` with ``f(x)
    = sum_i alpha_i (sum_t mu_t y_ti) k(x_i, x)``, re-balanced by sorting when ``|1'y| >
    beta`` (:func:`band_oracle` applied to ``f``).

    Parameters
    ----------
    X : array (N, d), or (N, N) Gram matrix with ``kernel="precomputed"``
    C : float
        The cost (the paper's grid: 0.1, 0.5, 1, 5, 10, 100).
    kernel : str, Kernel or "precomputed"
    beta : float, optional
        Balance bound, ``0 <= beta <= N`` (a count). Default: :func:`clustering_beta` of
        ``beta_fraction``.
    beta_fraction : float
        ``beta / N`` when ``beta`` is None (0.03 balanced, 0.3 imbalanced in the paper).
    n_init_draws : int
    random_state : int, Generator or None
    eps, thr, max_outer, mkl_tol, mkl_max_iter, inner_eps : see :func:`label_generation`.
    cache_mb, cache_dtype : the kernel-row cache, as :func:`wellsvm`.
    verbose : bool

    Returns
    -------
    WellSVMClusteringResult

    Raises
    ------
    ValueError
        ``beta`` outside ``[0, N]``, or ``beta < 1`` with ``N`` odd; ``X`` with fewer than
        2 rows.
    """
    t0 = time.perf_counter()
    if isinstance(kernel, str) and kernel == "precomputed":
        X = check_matrix(X, "X", min_rows=2)
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"X must be a square Gram matrix with kernel='precomputed', got "
                             f"shape {X.shape}.")
        kern = "precomputed"
    else:
        X = check_matrix(X, "X", min_rows=2)
        kern = make_kernel(kernel)
    n = X.shape[0]
    C = check_positive(C, "C")
    if beta is None:
        beta = clustering_beta(n, beta_fraction)
    beta = check_positive(beta, "beta", allow_zero=True)
    if beta > n:
        raise ValueError(f"beta must lie in [0, N] = [0, {n}], got {beta}.")
    if n % 2 == 1 and beta < 1:
        raise ValueError(f"beta={beta} admits no labelling of an odd number N={n} of points "
                         "(|1'y| is odd); use beta >= 1.")
    n_init_draws = check_int(n_init_draws, "n_init_draws", minimum=1)
    max_outer = check_int(max_outer, "max_outer", minimum=1)
    eps = check_positive(eps, "eps", allow_zero=True)
    thr = check_positive(thr, "thr", allow_zero=True)
    cache = KernelRowCache(X, kernel=kern, cache_mb=cache_mb, cache_dtype=cache_dtype)
    rng = np.random.default_rng(random_state)
    draws = _balanced_draws(n, n_init_draws, rng)
    align = np.einsum("ti,it->t", draws, cache.matvec(draws.T))
    y0 = draws[int(np.argmax(align))].copy()

    def oracle(r, f):
        return band_oracle(r, beta, f)

    res = label_generation(cache, y0, C, oracle, X=X, kernel=kern, eps=eps, thr=thr,
                           max_outer=max_outer, mkl_tol=mkl_tol, mkl_max_iter=mkl_max_iter,
                           inner_eps=inner_eps, sign_symmetric=True,
                           name="wellsvm_clustering", variant="clustering", verbose=verbose,
                           stacklevel=4)
    res.info.update(kernel=kern, C=C, beta=beta, init_labels=y0,
                    init_alignment=float(align.max()))
    f = cache_matvec(cache, res.coef)
    assignment = np.where(f >= 0, 1.0, -1.0)
    if abs(assignment.sum()) > beta:
        assignment = band_oracle(f, beta)
    q = np.maximum(label_kernel_quadratic(cache, res.labels, res.alpha), 0.0)
    w2 = float(res.mu @ q)
    r2 = float(np.max(_kernel_diagonal(X, kern)))
    res.seconds = time.perf_counter() - t0
    return WellSVMClusteringResult(result=res, assignment=assignment, decision=f, beta=beta,
                                   selection_score=float(res.objective_path[-1]) / (C * n),
                                   radius_margin=r2 * w2 / n, init_labels=y0,
                                   seconds=res.seconds)


# --------------------------------------------------------------------------- MIL
def _check_bags(instances, bag_ptr, bag_y):
    """``(X, ptr, y)`` validated: ``ptr`` an increasing index-pointer array covering the rows
    of ``X`` with non-empty bags, ``y`` +1 / -1 (or 1 / 0) per bag, both classes present."""
    X = check_matrix(instances, "instances")
    ptr = np.asarray(bag_ptr)
    if ptr.ndim != 1 or ptr.size < 2 or not np.issubdtype(ptr.dtype, np.integer):
        raise ValueError("bag_ptr must be a 1-D integer index-pointer array of length "
                         "n_bags + 1 (bag b holds the rows bag_ptr[b]:bag_ptr[b+1]).")
    if ptr[0] != 0 or ptr[-1] != X.shape[0]:
        raise ValueError(f"bag_ptr must start at 0 and end at the number of instances "
                         f"{X.shape[0]} (cover every instance), got {ptr[0]} ... {ptr[-1]}.")
    if np.any(np.diff(ptr) < 1):
        raise ValueError("bag_ptr must be strictly increasing: every bag needs at least one "
                         "instance (empty bag found).")
    y = check_vector(bag_y, "bag_y", n=ptr.size - 1)
    vals = set(np.unique(y).tolist())
    if vals <= {0.0, 1.0} and 0.0 in vals:
        y = np.where(y > 0, 1.0, -1.0)
    elif not vals <= {-1.0, 1.0}:
        raise ValueError(f"bag_y must hold bag labels +1 / -1 (or 1 / 0), got values "
                         f"{sorted(vals)[:5]}.")
    if not (np.any(y > 0) and np.any(y < 0)):
        raise ValueError("bag_y must contain at least one positive and one negative bag "
                         "(zero bags of a class).")
    return X, ptr.astype(np.int64), y


class _MILKernels:
    """The base kernels of Li et al. 2013, Eq. (26): ``K^d = K[idx_d, idx_d]`` with ``idx_d``
    the key instances of the positive bags followed by every negative instance."""

    def __init__(self, K, pos_inst, pos_ptr, neg_inst):
        self.K = K
        self.pos_inst = pos_inst          # global indices of the positive-bag instances
        self.pos_ptr = pos_ptr            # bag pointer into pos_inst
        self.neg_inst = neg_inst
        self.p = pos_ptr.size - 1
        self.bag_of = np.repeat(np.arange(self.p), np.diff(pos_ptr))

    def idx(self, d):
        return np.concatenate([self.pos_inst[d > 0.5], self.neg_inst])

    def coef(self, alpha, d):
        """Instance coefficients ``c`` with ``f_d(x) = sum_j c_j k(x_j, x)``."""
        c = np.zeros(self.K.shape[0])
        c[self.pos_inst[d > 0.5]] = alpha[:self.p]
        c[self.neg_inst] = -alpha[self.p:]
        return c

    def value(self, alpha, d):
        """``||sum_i a_i psi_i^d - sum_s a_s phi(x_s)||^2 = (a o y)'K^d(a o y)``."""
        c = self.coef(alpha, d)
        nz = np.flatnonzero(c)
        return float(c[nz] @ self.K[np.ix_(nz, nz)] @ c[nz])


def _mil_mlkl(mk, D, C, yhat, mu0, alpha0, *, tol, max_iter, inner_eps):
    """Eq. (28) of Li et al. 2013 by MKLGL (the alternation of :func:`mlkl`) on the base
    kernels ``K^{d_t} o yy'`` formed explicitly (``q x q``)."""
    T = D.shape[0]
    mu = np.full(T, 1.0 / T) if mu0 is None else np.asarray(mu0, float) / np.sum(mu0)
    idx = [mk.idx(d) for d in D]
    a = alpha0
    history, inner = [], 0
    converged, stop = False, "max_iter"
    obj = lower = np.inf
    change_tol = tol / 100.0
    for _ in range(max_iter):
        P = sum(m * mk.K[np.ix_(ix, ix)] for m, ix in zip(mu, idx))
        pc = KernelRowCache(P, kernel="precomputed")
        res = label_kernel_dual(None, yhat[None], [1.0], C, problem="box", alpha0=a,
                                eps=inner_eps, cache=pc)
        a = res.alpha
        inner += res.n_iter
        obj = -res.objective
        history.append(obj)
        q = np.array([max(mk.value(a, d), 0.0) for d in D])
        lower = float(a.sum()) - 0.5 * float(q.max())
        scale = max(abs(obj), 1e-12)
        if T == 1:
            converged, stop = True, "single"
        elif obj - lower <= tol * scale:
            converged, stop = True, "gap"
        elif len(history) > 1 and history[-2] - obj < change_tol * scale:
            converged, stop = True, "change"
        w = mu * np.sqrt(q)
        if converged or w.sum() <= 0:
            converged = True
            stop = stop if stop != "max_iter" else "gap"
            break
        mu = w / w.sum()
    return MLKLResult(alpha=a, mu=mu, objective=float(obj), lower=float(lower),
                      gap=float(max(obj - lower, 0.0)), n_iter=len(history),
                      converged=converged, history=history, inner_iter=inner,
                      stop_reason=stop)


def _mil_violated(mk, alpha, D, *, eps, max_ascent=100):
    """Li et al. 2013, Section 4.2: ``d_bar = argmax_C d'Hd + tau'd``, then Eq. (31) (the
    per-bag argmax of ``r = H d_bar + tau/2``, ``r_v = a_bag(v) f_d_bar(x_v)``) repeated while
    the value grows; Prop. 6 is checked on the first step."""
    vals = np.array([mk.value(alpha, d) for d in D])
    t_bar = int(np.argmax(vals))
    working_max = float(vals[t_bar])
    d_prev, v_prev = D[t_bar].copy(), working_max
    prop = {}
    n_ascent = 0
    a_bag = alpha[:mk.p][mk.bag_of]
    for step in range(max_ascent):
        f = mk.K[mk.pos_inst] @ mk.coef(alpha, d_prev)
        r = a_bag * f
        d = bag_argmax_oracle(r, mk.pos_ptr, d_prev)
        v = mk.value(alpha, d)
        if step == 0:
            lin_new, lin_old = float(r @ d), float(r @ d_prev)
            scale = max(abs(lin_old), abs(v_prev), 1e-300)
            premise = lin_new > lin_old + 1e-12 * scale
            gain = v - v_prev
            prop = {"premise": bool(premise), "linear_new": lin_new, "linear_bar": lin_old,
                    "gain": gain, "holds": bool((not premise) or gain > -1e-10 * scale)}
        if v > v_prev * (1.0 + 1e-12) + 1e-300:
            d_prev, v_prev = d, v
            n_ascent += 1
        else:
            break
    violated = bool(n_ascent > 0 and v_prev > (1.0 + eps) * working_max)
    return ViolatedLabel(y=d_prev, value=v_prev, working_max=working_max, y_bar_index=t_bar,
                         n_ascent=n_ascent, violated=violated, prop4=prop)


@dataclass(repr=False)
class WellSVMMILResult:
    """Result of :func:`wellsvm_mil` (bags in the caller's order).

    Attributes
    ----------
    result : WellSVMResult
        The label-generation run: ``alpha`` (``q = p + n_negative_instances``: one per
        positive bag, then one per negative instance), ``mu``, ``labels`` (the key-instance
        indicators ``d_t`` over the positive-bag instances, rows), objective path and the
        Prop. 6 checks (``prop4_checks``, same fields). Its ``coef`` property does not apply
        (``alpha`` and ``labels`` live on different index sets): use :attr:`coef`.
    coef : array (N,)
        Instance coefficients: ``f(x) = sum_j coef_j k(x_j, x)`` (Li et al. 2013, Section
        4.2: ``w_t = mu_t (sum_i a_i psi_i^{d_t} - sum_s a_s phi(x_s))``).
    instance_scores : array (N,)
        ``f`` on the training instances.
    bag_scores : array (n_bags,)
        ``max_j f(x_ij)``.
    roi : array (n_bags,) of int
        Index inside each bag of its highest-scoring instance (the located ROI).
    key_instances : array (n_positive_bags,) of int
        Key instance (index inside the bag) of each positive bag in the highest-``mu``
        label of the working set.
    init_keys : array (n_positive_bags,) of int
    positive_bags : array of int
        Indices of the positive bags (caller's order).
    seconds : float
    """

    result: WellSVMResult
    coef: np.ndarray
    instance_scores: np.ndarray
    bag_scores: np.ndarray
    roi: np.ndarray
    key_instances: np.ndarray
    init_keys: np.ndarray
    positive_bags: np.ndarray
    seconds: float
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"WellSVMMILResult(n_bags={self.bag_scores.shape[0]}, "
                f"T={self.result.mu.shape[0]}, n_outer={self.result.n_outer}, "
                f"converged={self.result.converged})")


def wellsvm_mil(instances, bag_ptr, bag_y, C1=1.0, C2=1.0, kernel="linear", *,
                eps: float = 1e-3, thr: float = 1e-3, max_outer: int = 50,
                mkl_tol: float = 1e-3, mkl_max_iter: int = 100, inner_eps: float = 1e-5,
                verbose: bool = False) -> WellSVMMILResult:
    """WellSVM for multi-instance learning / ROI location (Li et al. 2013, Section 4.2,
    Algorithm 3).

    One key instance per positive bag (``d in Delta``), one constraint and slack per
    negative instance (Eq. (24)); dual Eq. (25) with ``0 <= a_i <= C1`` on the positive
    bags and ``0 <= a_s <= C2`` on the negative instances; the relaxation Eq. (27) is solved
    by :func:`label_generation` whose MLKL (Eq. (28), MKLGL) works on the base kernels
    ``K^{d_t}`` of Eq. (26), and whose violated ``d`` is the per-bag argmax of Eq. (31)
    (:func:`bag_argmax_oracle`, a bag with ``a_i = 0`` keeps its key) followed by the same
    monotone ascent as SSL; Prop. 6 is checked at every oracle call and recorded.

    Bags may come in any order (the paper puts the positive bags first; the positive bags
    are taken in the caller's order internally). Initialisation (not given in the paper;
    declared here): a C-SVM with bias (cost ``C1``) trained on the input-space means of the
    positive bags (+1) against every negative instance (-1); each positive bag's key
    instance is its instance of largest decision value.

    Parameters
    ----------
    instances : array (N, d)
        Every instance, bag after bag.
    bag_ptr : int array (n_bags + 1,)
        Bag ``b`` holds ``instances[bag_ptr[b]:bag_ptr[b+1]]``; ``bag_ptr[0] = 0``,
        ``bag_ptr[-1] = N``, strictly increasing.
    bag_y : array (n_bags,)
        +1 / -1 (or 1 / 0); both classes must occur.
    C1, C2 : float
        Costs of the positive bags and of the negative instances (Eq. (23)).
    kernel : str or Kernel
    eps, thr, max_outer, mkl_tol, mkl_max_iter, inner_eps, verbose : see
        :func:`label_generation`.

    Returns
    -------
    WellSVMMILResult

    Raises
    ------
    ValueError
        Empty bags, ``bag_ptr`` not increasing or not covering the instances, bags of one
        class only, bad ``bag_y`` values or costs.
    """
    t0 = time.perf_counter()
    X, ptr, y = _check_bags(instances, bag_ptr, bag_y)
    C1 = check_positive(C1, "C1")
    C2 = check_positive(C2, "C2")
    max_outer = check_int(max_outer, "max_outer", minimum=1)
    kern = make_kernel(kernel)
    K = gram(X, kernel=kern)
    pos_bags = np.flatnonzero(y > 0)
    neg_bags = np.flatnonzero(y < 0)
    sizes = np.diff(ptr)
    pos_inst = np.concatenate([np.arange(ptr[b], ptr[b + 1]) for b in pos_bags])
    neg_inst = np.concatenate([np.arange(ptr[b], ptr[b + 1]) for b in neg_bags])
    pos_ptr = np.concatenate([[0], np.cumsum(sizes[pos_bags])]).astype(np.int64)
    mk = _MILKernels(K, pos_inst, pos_ptr, neg_inst)
    p = pos_bags.size
    q = p + neg_inst.size
    Cvec = np.where(np.arange(q) < p, C1, C2)
    yhat = np.where(np.arange(q) < p, 1.0, -1.0)
    # initial key instances: SVM on positive-bag means vs negative instances
    from .smo import svc_dual
    means = np.array([X[ptr[b]:ptr[b + 1]].mean(axis=0) for b in pos_bags])
    Xi = np.vstack([means, X[neg_inst]])
    yi = np.concatenate([np.ones(p), -np.ones(neg_inst.size)])
    s = svc_dual(Xi, yi, C1, kern, eps=1e-5)
    f_init = gram(X[pos_inst], Xi, kern) @ (s.alpha * yi) - s.rho
    d0 = bag_argmax_oracle(f_init, pos_ptr)

    def solve(D, mu0, alpha0):
        return _mil_mlkl(mk, D, Cvec, yhat, mu0, alpha0, tol=mkl_tol, max_iter=mkl_max_iter,
                         inner_eps=inner_eps)

    def find_violated(alpha, D):
        return _mil_violated(mk, alpha, D, eps=eps)

    res = label_generation(None, d0, Cvec, None, eps=eps, thr=thr, max_outer=max_outer,
                           mkl_tol=mkl_tol, mkl_max_iter=mkl_max_iter, inner_eps=inner_eps,
                           solve=solve, find_violated=find_violated, name="wellsvm_mil",
                           variant="mil", verbose=verbose, stacklevel=4)
    coef = np.zeros(X.shape[0])
    for m, d in zip(res.mu, res.labels):
        coef += m * mk.coef(res.alpha, d)
    fx = K @ coef
    bag_scores = np.array([fx[ptr[b]:ptr[b + 1]].max() for b in range(sizes.size)])
    roi = np.array([int(np.argmax(fx[ptr[b]:ptr[b + 1]])) for b in range(sizes.size)])
    top = res.labels[int(np.argmax(res.mu))]
    keys = np.array([int(np.argmax(top[pos_ptr[i]:pos_ptr[i + 1]])) for i in range(p)])
    init_keys = np.array([int(np.argmax(d0[pos_ptr[i]:pos_ptr[i + 1]])) for i in range(p)])
    res.info.update(kernel=kern, C1=C1, C2=C2)
    res.seconds = time.perf_counter() - t0
    failed = [c for c in res.prop4_checks if not c.get("holds", True)]
    if failed:
        warnings.warn(f"wellsvm_mil: {len(failed)} Prop. 6 check(s) failed (a key-instance "
                      "assignment reported violated does not increase the objective); lower "
                      "inner_eps.", RuntimeWarning, stacklevel=2)
    return WellSVMMILResult(result=res, coef=coef, instance_scores=fx, bag_scores=bag_scores,
                            roi=roi, key_instances=keys, init_keys=init_keys,
                            positive_bags=pos_bags, seconds=res.seconds,
                            info={"X": X, "kernel": kern})


def wellsvm_mil_decision_function(result: WellSVMMILResult, X) -> np.ndarray:
    """``f(x) = sum_j coef_j k(x_j, x)`` for instances ``X`` (each instance a bag; Li et al.
    2013, Section 4.2); a bag's score is the max over its instances."""
    Xtr = result.info["X"]
    X = check_matrix(X, "X", min_rows=0, n_features=Xtr.shape[1])
    sv = np.flatnonzero(result.coef != 0)
    return gram(X, Xtr[sv], result.info["kernel"]) @ result.coef[sv]
