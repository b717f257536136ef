"""SVMlin baseline: L2-SVM-MFN and the deterministic-annealing S3VM (Sindhwani & Keerthi 2006).

Written from the descriptions in Sindhwani and Keerthi, "Large scale semi-supervised linear
SVMs", SIGIR 2006 (Sections 2-3), and Keerthi and DeCoste, "A modified finite Newton method
for fast solution of large scale linear SVMs", JMLR 2005; the baseline of Li, Tsang, Kwok and
Zhou, JMLR 2013, Section 5.1.2 (Figs. 3-4).

L2-SVM-MFN (:func:`l2svm_mfn`) minimises the squared-hinge primal, written here in the
scikit-learn / LIBLINEAR cost form (no bias)::

    f(w) = 1/2 |w|^2 + sum_i C_i max(0, 1 - y_i w'x_i)^2.

Each iteration takes the active set ``j = {i : y_i w'x_i < 1}``, solves the regularised
least-squares problem on it, ``(I + 2 X_j' C_j X_j) w_bar = 2 X_j' C_j y_j``, by conjugate
gradient on the normal equations (CGLS; only products with ``X`` and ``X'``, warm-started
from ``w``), then an exact line search on the piecewise-quadratic ``f(w + t (w_bar - w))``
(sorted breakpoints). It stops when the gradient norm falls below ``tol`` times its value
at ``w = 0``. Cost per CG step: ``O(nnz(X_j))``.

Deterministic annealing (:func:`svmlin_da`; Sindhwani & Keerthi 2006, Section 3) replaces
the unknown labels of the ``u`` unlabelled points by probabilities ``p_j`` of the label +1
and minimises, for a decreasing temperature ``T``::

    J_T(w, p) = 1/2 |w|^2 + C1 sum_L l(y_i o_i) + C2 sum_U [p_j l(o_j) + (1 - p_j) l(-o_j)]
                + T C2 sum_U [p_j log p_j + (1 - p_j) log(1 - p_j)],
    s.t. (1/u) sum_U p_j = r,

with ``l(z) = max(0, 1 - z)^2``, ``o = Xw`` and ``r`` the positive fraction (default: that
of the labels). At fixed ``T`` it alternates (a) the ``w``-step, an L2-SVM-MFN on the
labelled points plus every unlabelled point twice (label +1 with cost ``C2 p_j``, label -1
with cost ``C2 (1 - p_j)``), warm-started; (b) the ``p``-step in closed form,
``p_j = 1 / (1 + exp((l(o_j) - l(-o_j) + nu) / T))`` with ``nu`` found by bisection so that
the mean is ``r``. Both steps decrease ``J_T`` (block coordinate descent on a function
convex in each block); the alternation stops when the KL divergence between successive
``p`` is below ``kl_tol`` (per point). ``T`` starts at ``T0`` and is divided by ``R`` until
it falls below ``T_min`` or the labels ``sign(p - 1/2)`` stop changing (Sindhwani &
Keerthi's outer rule: the entropy of ``p`` below ``entropy_tol``).

Cost form: with ``lambda = 1/(2 C)`` SVMlin's ``lambda/2 |w|^2 + 1/2 sum l`` is this
objective divided by ``2 C``; the paper's ``lambda_u / u`` weight of the unlabelled loss is
``C2`` here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .._validation import check_int, check_positive, check_vector, warn_not_converged

__all__ = ["MFNResult", "SVMlinResult", "l2svm_mfn", "svmlin_da", "svmlin_decision"]


def _csr(X, name: str = "X") -> sp.csr_matrix:
    if X is None:
        raise ValueError(f"{name} is None; pass a 2-D array or a scipy.sparse matrix.")
    A = sp.csr_matrix(X, dtype=np.float64) if not sp.issparse(X) else X.tocsr()
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(f"{name} must be a non-empty 2-D matrix, got shape {A.shape}.")
    if A.dtype != np.float64:
        A = A.astype(np.float64)
    if not np.all(np.isfinite(A.data)):
        raise ValueError(f"{name} contains NaN or infinite values; impute or drop them first.")
    return A


def _costs(C, n: int, name: str) -> np.ndarray:
    if np.ndim(C) == 0:
        return np.full(n, check_positive(C, name, allow_zero=True))
    c = check_vector(C, name, n=n)
    if np.any(c < 0):
        raise ValueError(f"{name} must hold values >= 0, got min {c.min():.6g}.")
    return c.copy()


def _pm1(y, n: int, name: str = "y") -> np.ndarray:
    v = check_vector(y, name, n=n)
    if not np.all(np.abs(v) == 1):
        raise ValueError(f"{name} must hold labels +1 / -1.")
    return v


@dataclass(repr=False)
class MFNResult:
    """Result of :func:`l2svm_mfn`.

    Attributes
    ----------
    w : array (d,)
    objective : float
        ``1/2 |w|^2 + sum_i C_i max(0, 1 - y_i w'x_i)^2``.
    n_iter : int
        Newton (active-set) iterations.
    cg_iter : int
        Total CG steps.
    converged : bool
    grad_norm : float
        Final gradient norm relative to the one at ``w = 0``.
    seconds : float
    """

    w: np.ndarray
    objective: float
    n_iter: int
    cg_iter: int
    converged: bool
    grad_norm: float
    seconds: float = 0.0

    def __repr__(self) -> str:
        return (f"MFNResult(objective={self.objective:.10g}, n_iter={self.n_iter}, "
                f"cg_iter={self.cg_iter}, converged={self.converged})")


def _objective(w, o, y, c):
    m = np.maximum(0.0, 1.0 - y * o)
    return 0.5 * float(w @ w) + float(c @ (m * m))


def _gradient(X, w, o, y, c):
    m = np.maximum(0.0, 1.0 - y * o)
    return w - 2.0 * (X.T @ (c * y * m))


def _cgls(X, y, c, w0, tol, max_cg):
    """``(I + 2 X' C X) w = 2 X' C y`` by CG from ``w0`` (rows with ``c = 0`` drop out)."""
    w = w0.copy()
    r = 2.0 * (X.T @ (c * (y - X @ w))) - w
    z = r.copy()
    rr = float(r @ r)
    r0 = np.sqrt(rr)
    it = 0
    while it < max_cg and np.sqrt(rr) > tol * max(r0, 1e-300):
        q = X @ z
        Az = z + 2.0 * (X.T @ (c * q))
        g = rr / float(z @ Az)
        w += g * z
        r -= g * Az
        rr_new = float(r @ r)
        z = r + (rr_new / rr) * z
        rr = rr_new
        it += 1
    return w, it


def _line_search(w, d, o, delta, y, c):
    """Exact minimiser ``t >= 0`` of ``f(w + t d)`` (``o = Xw``, ``delta = Xd``).

    ``phi'(t) = w'd + t d'd - sum_{active(t)} 2 c_i s_i (m_i - t s_i)`` with ``m_i = 1 -
    y_i o_i`` and ``s_i = y_i delta_i``; point ``i`` is active while ``m_i - t s_i > 0``.
    ``phi'`` is increasing and piecewise linear: walk the breakpoints ``m_i / s_i``.
    """
    m = 1.0 - y * o
    s = y * delta
    cc = 2.0 * c
    act = (m > 0) | ((m == 0) & (s < 0))
    A = float(d @ d) + float(cc[act] @ (s[act] * s[act]))
    B = float(w @ d) - float(cc[act] @ (s[act] * m[act]))
    with np.errstate(divide="ignore", invalid="ignore"):
        tb = np.where(s != 0, m / s, np.inf)
    cand = np.flatnonzero((tb > 0) & np.isfinite(tb) & (c > 0))
    order = cand[np.argsort(tb[cand], kind="stable")]
    for i in order:
        t_star = -B / A if A > 0 else np.inf
        if t_star <= tb[i]:
            return max(t_star, 0.0)
        # crossing the breakpoint of point i: it leaves (s > 0, was active) or enters
        if act[i]:
            A -= cc[i] * s[i] * s[i]
            B += cc[i] * s[i] * m[i]
            act[i] = False
        else:
            A += cc[i] * s[i] * s[i]
            B -= cc[i] * s[i] * m[i]
            act[i] = True
    return max(-B / A, 0.0) if A > 0 else 1.0


def l2svm_mfn(X, y, C=1.0, *, w0=None, tol: float = 1e-6, cg_tol: float = 1e-6,
              max_iter: int = 100, max_cg: int = 1000, _check: bool = True) -> MFNResult:
    """L2-SVM-MFN: the squared-hinge linear SVM by the modified finite Newton method.

    Keerthi & DeCoste 2005, the inner solver of SVMlin (Sindhwani & Keerthi 2006, Section 2);
    see the module docstring. The objective (no bias) is scikit-learn's ``LinearSVC(loss=
    "squared_hinge", fit_intercept=False)``.

    Parameters
    ----------
    X : scipy.sparse matrix or array (n, d)
    y : array (n,) of +1 / -1
    C : float or array (n,)
        Costs ``C_i >= 0`` (a point with ``C_i = 0`` has no effect).
    w0 : array (d,), optional
        Warm start (default 0).
    tol : float
        Stop when ``|grad f(w)| <= tol |grad f(0)|``.
    cg_tol : float
        Relative residual of each CGLS solve.
    max_iter, max_cg : int
        Caps on the Newton iterations and on the CG steps per solve (a
        ``ConvergenceWarning`` at ``max_iter``).

    Returns
    -------
    MFNResult
    """
    t0 = time.perf_counter()
    if _check:
        X = _csr(X)
        n, d = X.shape
        y = _pm1(y, n)
        c = _costs(C, n, "C")
        tol = check_positive(tol, "tol")
        cg_tol = check_positive(cg_tol, "cg_tol")
        max_iter = check_int(max_iter, "max_iter", minimum=1)
        max_cg = check_int(max_cg, "max_cg", minimum=1)
        w = np.zeros(d) if w0 is None else check_vector(w0, "w0", n=d).copy()
    else:
        n, d = X.shape
        c = np.broadcast_to(np.asarray(C, dtype=np.float64), (n,))
        w = np.zeros(d) if w0 is None else np.array(w0, dtype=np.float64)
    g0 = float(np.linalg.norm(2.0 * (X.T @ (c * y))))
    g0 = max(g0, 1e-300)
    o = X @ w
    cg_total = 0
    converged = False
    gn = np.inf
    it = 0
    for it in range(1, max_iter + 1):
        gn = float(np.linalg.norm(_gradient(X, w, o, y, c))) / g0
        if gn <= tol:
            converged = True
            it -= 1
            break
        act = (y * o < 1.0) & (c > 0)
        ca = np.where(act, c, 0.0)
        w_bar, k = _cgls(X, y, ca, w, cg_tol, max_cg)
        cg_total += k
        dvec = w_bar - w
        delta = X @ dvec
        t = _line_search(w, dvec, o, delta, y, c)
        w = w + t * dvec
        o = o + t * delta
    else:
        gn = float(np.linalg.norm(_gradient(X, w, o, y, c))) / g0
        converged = gn <= tol
        if not converged:
            warn_not_converged("l2svm_mfn", max_iter, gn, what="relative gradient norm")
    return MFNResult(w=w, objective=_objective(w, o, y, c), n_iter=int(it),
                     cg_iter=int(cg_total), converged=bool(converged), grad_norm=float(gn),
                     seconds=time.perf_counter() - t0)


# --------------------------------------------------------------------------- DA
@dataclass(repr=False)
class SVMlinResult:
    """Result of :func:`svmlin_da`.

    Attributes
    ----------
    w : array (d,)
        ``f(x) = w'x`` (no bias).
    p : array (u,)
        Final probabilities of +1 of the unlabelled points.
    labels : array (u,)
        ``sign(p - 1/2)`` (+1 at ``p = 1/2``).
    temperatures : list of float
        The temperatures visited.
    objective_path : list of list of float
        ``J_T`` after every ``w``- and ``p``-step, one list per temperature
        (non-increasing within a list).
    objective : float
        The final ``J_T``.
    finished : bool
        False when ``time_limit`` stopped the annealing.
    converged : bool
        The annealing reached its stopping rule (not the time cap nor ``max_alternations``).
    n_mfn : int
        ``w``-steps (MFN solves).
    seconds : float
    info : dict
    """

    w: np.ndarray
    p: np.ndarray
    labels: np.ndarray
    temperatures: list
    objective_path: list
    objective: float
    finished: bool
    converged: bool
    n_mfn: int
    seconds: float
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"SVMlinResult(u={self.p.shape[0]}, n_T={len(self.temperatures)}, "
                f"objective={self.objective:.8g}, finished={self.finished})")


def _l2(z):
    m = np.maximum(0.0, 1.0 - z)
    return m * m


def _neg_entropy(p):
    q = np.clip(p, 1e-300, 1.0)
    q1 = np.clip(1.0 - p, 1e-300, 1.0)
    return p * np.log(q) + (1.0 - p) * np.log(q1)


def _p_step(g, T, r):
    """``p_j = 1 / (1 + exp((g_j + nu) / T))`` with ``mean p = r`` (bisection on ``nu``)."""
    def p_of(nu):
        z = np.clip((g + nu) / T, -700.0, 700.0)
        return 1.0 / (1.0 + np.exp(z))

    lo, hi = -np.max(g) - 50.0 * T - 1.0, -np.min(g) + 50.0 * T + 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if p_of(mid).mean() > r:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, abs(mid)):
            break
    return p_of(0.5 * (lo + hi))


def _kl(p, q):
    a = np.clip(p, 1e-12, 1 - 1e-12)
    b = np.clip(q, 1e-12, 1 - 1e-12)
    return float(np.mean(a * np.log(a / b) + (1 - a) * np.log((1 - a) / (1 - b))))


def svmlin_decision(result: SVMlinResult, X) -> np.ndarray:
    """``f(x) = w'x`` for the rows of ``X``."""
    return _csr(X) @ result.w


def svmlin_da(X_l, y_l, X_u, C1=1.0, C2=1.0, *, r=None, T0: float = 10.0, R: float = 1.5,
              T_min: float = 1e-4, entropy_tol: float = 1e-6, kl_tol: float = 1e-6,
              max_alternations: int = 30, mfn_tol: float = 1e-4, time_limit=None
              ) -> SVMlinResult:
    """The deterministic-annealing S3VM of SVMlin (Sindhwani & Keerthi 2006, Section 3).

    Parameters
    ----------
    X_l : scipy.sparse matrix or array (l, d)
    y_l : array (l,) of +1 / -1
    X_u : scipy.sparse matrix or array (u, d)
    C1, C2 : float
        Costs of the labelled and of the unlabelled squared hinge (module docstring).
    r : float, optional
        Positive fraction among the unlabelled points, in (0, 1) (default: that of ``y_l``).
    T0, R, T_min : float
        Initial temperature, annealing factor (``T <- T / R``), final temperature.
    entropy_tol : float
        Stop the annealing when the mean binary entropy of ``p`` falls below it.
    kl_tol : float
        Stop the alternation at one temperature when the mean KL divergence between
        successive ``p`` is below it.
    max_alternations : int
        Cap on the alternations per temperature.
    mfn_tol : float
        Relative gradient tolerance of every MFN solve.
    time_limit : float, optional
        Seconds; beyond it the annealing stops after the current step and the result has
        ``finished=False`` (the "did not finish" of Li et al. 2013, Fig. 4).

    Returns
    -------
    SVMlinResult
    """
    t_start = time.perf_counter()
    Xl, Xu = _csr(X_l, "X_l"), _csr(X_u, "X_u")
    if Xl.shape[1] != Xu.shape[1]:
        raise ValueError(f"X_l and X_u must have the same number of columns, got "
                         f"{Xl.shape[1]} and {Xu.shape[1]}.")
    yl = _pm1(y_l, Xl.shape[0], "y_l")
    if not (np.any(yl > 0) and np.any(yl < 0)):
        raise ValueError("y_l must contain both classes (+1 and -1).")
    C1 = check_positive(C1, "C1")
    C2 = check_positive(C2, "C2")
    r = float(np.mean(yl > 0)) if r is None else check_positive(r, "r")
    if not 0 < r < 1:
        raise ValueError(f"r must lie in (0, 1), got {r}.")
    T0 = check_positive(T0, "T0")
    R = check_positive(R, "R")
    if R <= 1:
        raise ValueError(f"R must be > 1, got {R}.")
    T_min = check_positive(T_min, "T_min")
    max_alternations = check_int(max_alternations, "max_alternations", minimum=1)
    if time_limit is not None:
        time_limit = check_positive(time_limit, "time_limit")
    l, u = Xl.shape[0], Xu.shape[0]
    Xa = sp.vstack([Xl, Xu, Xu], format="csr")
    ya = np.concatenate([yl, np.ones(u), -np.ones(u)])
    p = np.full(u, r)
    w = l2svm_mfn(Xl, yl, C1, tol=mfn_tol, _check=False).w
    n_mfn = 1

    def J(w, ou, p, T):
        lab = C1 * float(_l2(yl * (Xl @ w)).sum())
        unl = C2 * float(p @ _l2(ou) + (1 - p) @ _l2(-ou))
        return 0.5 * float(w @ w) + lab + unl + T * C2 * float(_neg_entropy(p).sum())

    temps, paths = [], []
    T = T0
    finished, converged = True, False
    labels_prev = None
    out_of_time = False
    while True:
        temps.append(T)
        path = []
        for _ in range(max_alternations):
            c = np.concatenate([np.full(l, C1), C2 * p, C2 * (1 - p)])
            w = l2svm_mfn(Xa, ya, c, w0=w, tol=mfn_tol, _check=False).w
            n_mfn += 1
            ou = Xu @ w
            path.append(J(w, ou, p, T))
            p_new = _p_step(_l2(ou) - _l2(-ou), T, r)
            kl = _kl(p_new, p)
            p = p_new
            path.append(J(w, ou, p, T))
            if time_limit is not None and time.perf_counter() - t_start > time_limit:
                out_of_time = True
                break
            if kl < kl_tol:
                break
        paths.append(path)
        if out_of_time:
            finished = False
            break
        labels = np.where(p >= 0.5, 1.0, -1.0)
        ent = -float(np.mean(_neg_entropy(p))) / np.log(2.0)
        if ent < entropy_tol or T / R < T_min or (
                labels_prev is not None and np.array_equal(labels, labels_prev)
                and ent < 1e-2):
            converged = True
            break
        labels_prev = labels
        T /= R
    return SVMlinResult(w=w, p=p, labels=np.where(p >= 0.5, 1.0, -1.0), temperatures=temps,
                        objective_path=paths, objective=paths[-1][-1], finished=finished,
                        converged=converged, n_mfn=n_mfn,
                        seconds=time.perf_counter() - t_start,
                        info={"r": r, "C1": C1, "C2": C2, "T0": T0, "R": R, "T_min": T_min})
