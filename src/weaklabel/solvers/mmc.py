"""Two-cluster baselines of the clustering study of Li et al. 2013 (Section 5.3, Table 11).

All solvers cluster ``N`` points into two groups labelled ``+1`` / ``-1``; the error
measure is :func:`clustering_accuracy` (the better of the two cluster-to-class matchings,
Xu et al. 2005, as used by Li et al. 2013, Section 5.3).

- :func:`alignment_init`: the initial labelling of Li et al. 2013, Section 5.3.1 -- the
  best kernel alignment ``y'Ky`` among ``n_draws`` random balanced labellings. It is the
  start of the "-r" variants (KM-r, KKM-r, IterSVR-r).
- :func:`kernel_kmeans`: Lloyd's iterations of k-means in the feature space of a Gram
  matrix (KKM), from a given labelling or two random seed points.
- :func:`iter_svr`: IterSVR of Zhang, Tsang & Kwok 2007 ("Maximum margin clustering made
  practical"): alternate a support vector regression with a bias on the current labels and
  a re-labelling by the sign of ``f`` under the class-balance constraint ``|1'y| <= beta``
  (by sorting, :func:`weaklabel.solvers.wellsvm.band_oracle`). Declared choices: the
  regression is the epsilon-insensitive SVR solved by this package's SMO core (the doubled
  LIBSVM formulation, :func:`weaklabel.solvers.smo.smo`); ``epsilon = 0`` (the default) is
  the Laplacian (L1) loss. The published paper was not available to us; the loss and the
  stopping rule (labels unchanged, or ``max_iter``) are our reading of its description.
- :func:`cpmmc`: the cutting-plane maximum margin clustering of Zhao, Wang & Zhang 2008
  (SDM 2008), two clusters. Problem::

      min_{w, b}  1/2 ||w||^2 + (C / N) sum_i max(0, 1 - |w'phi_i + b|)
      s.t.        -l <= sum_i (w'phi_i + b) <= l,

  solved by CCCP (the concave part ``-|f_i|`` is linearised at the current signs
  ``s_i = sign f_i``) and, inside each CCCP round, by the cutting plane over the
  single-slack constraints ``(1/N) sum_i c_i s_i f_i >= (1/N) sum_i c_i - xi``,
  ``c in {0, 1}^N`` (the most violated ``c`` has ``c_i = 1`` where ``s_i f_i < 1``).
  Declared simplifications: ``phi`` is an explicit finite feature map (the inputs for the
  linear kernel; for another kernel the leading eigenvectors of the Gram matrix, or a
  Nystrom map on random landmarks when ``N`` is large, :func:`kernel_feature_map`); the
  working-set QPs are solved in the primal with cvxpy + Clarabel; the first CCCP round is
  linearised at a given labelling (default :func:`alignment_init`) instead of at a
  hyperplane.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .._validation import (
    check_int,
    check_matrix,
    check_positive,
    check_vector,
    warn_not_converged,
)
from ..kernels import gram, make_kernel
from .smo import smo
from .wellsvm import band_oracle

__all__ = ["ClusteringResult", "alignment_init", "check_beta", "clustering_accuracy",
           "cpmmc", "iter_svr", "kernel_feature_map", "kernel_kmeans"]


@dataclass
class ClusteringResult:
    """Result of the clustering solvers of this module.

    Attributes
    ----------
    labels : array (N,) of +1.0 / -1.0
        The clustering.
    objective : float
        The solver's final objective (KKM: within-cluster sum of squares in feature space;
        IterSVR: the SMO objective of the last regression; CPMMC: the MMC objective of the
        module docstring).
    n_iter : int
        Outer iterations (Lloyd steps, regress/re-label rounds, CCCP rounds).
    converged : bool
        Whether the stopping rule held before the iteration cap.
    objective_path : list of float
        The objective after each outer iteration.
    decision : array (N,) or None
        ``f(x_i)`` on the training points (IterSVR, CPMMC).
    seconds : float
        Wall time.
    info : dict
        Solver details (cutting-plane counts, feature dimension, ...).
    """

    labels: np.ndarray
    objective: float
    n_iter: int
    converged: bool
    objective_path: list = field(default_factory=list)
    decision: np.ndarray | None = None
    seconds: float = 0.0
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"ClusteringResult(N={self.labels.shape[0]}, objective={self.objective:.6g}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


# --------------------------------------------------------------------------- helpers
def clustering_accuracy(y_true, y_pred) -> float:
    """Accuracy of a two-cluster labelling: the better of the two cluster-to-class matchings.

    ``y_true`` and ``y_pred`` may use any two values each (e.g. 0/1 or -1/+1); the first
    sorted value of each is matched to the first or to the second value of the other,
    whichever agrees more (Li et al. 2013, Section 5.3, following Xu et al. 2005).
    """
    yt = np.asarray(y_true)
    yp = np.asarray(y_pred)
    if yt.ndim != 1 or yp.ndim != 1:
        raise ValueError(f"y_true and y_pred must be 1-D, got shapes {yt.shape}, {yp.shape}.")
    if yt.shape != yp.shape:
        raise ValueError(f"y_true and y_pred have different lengths {yt.size} and {yp.size}.")
    if yt.size == 0:
        raise ValueError("y_true is empty.")
    for name, a in (("y_true", yt), ("y_pred", yp)):
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise ValueError(f"{name} contains NaN or infinite values.")
        if np.unique(a).size > 2:
            raise ValueError(f"{name} has {np.unique(a).size} distinct values; two clusters "
                             "(two values) at most.")
    t = yt == np.unique(yt)[0]
    p = yp == np.unique(yp)[0]
    agree = float(np.mean(t == p))
    return max(agree, 1.0 - agree)


def check_beta(beta, n: int, name: str = "beta", *, labels: bool = True) -> float:
    """The class-balance bound ``beta`` of ``|1'y| <= beta``: a number in ``[0, N]``.

    With ``labels`` (a bound on a sum of +-1 labels) an odd ``N`` needs ``beta >= 1``.
    """
    b = check_positive(beta, name, allow_zero=True)
    if b > n:
        raise ValueError(f"{name} must lie in [0, N] = [0, {n}], got {beta}.")
    if labels and n % 2 == 1 and b < 1:
        raise ValueError(f"{name}={beta} admits no labelling of an odd number N={n} of points "
                         "(|1'y| is odd); use beta >= 1.")
    return b


def _check_gram(K, name: str = "K"):
    K = check_matrix(K, name, min_rows=2)
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square (N, N) Gram matrix, got shape {K.shape}.")
    return K


def _check_init(y0, n: int, name: str = "y0"):
    y = check_vector(y0, name, n=n)
    if not np.all(np.abs(y) == 1.0):
        raise ValueError(f"{name} must hold labels +1 / -1.")
    return y


def alignment_init(K, n_draws: int = 20, random_state=None) -> np.ndarray:
    """The best-aligned of ``n_draws`` random balanced labellings (Li et al. 2013, 5.3.1).

    Each draw is a random permutation whose first ``ceil(N/2)`` points get +1; the draw
    maximising the kernel alignment ``<K, yy'>_F / (||K||_F ||yy'||_F) = y'Ky / (N ||K||_F)``
    (equivalently ``y'Ky``) is returned. The first maximiser wins ties.

    Parameters
    ----------
    K : array (N, N)
        Gram matrix.
    n_draws : int, default=20
    random_state : int, Generator or None

    Returns
    -------
    y : array (N,) of +1.0 / -1.0
    """
    K = _check_gram(K)
    n_draws = check_int(n_draws, "n_draws", minimum=1)
    rng = np.random.default_rng(random_state)
    n = K.shape[0]
    Y = -np.ones((n, n_draws))
    half = (n + 1) // 2
    for t in range(n_draws):
        Y[rng.permutation(n)[:half], t] = 1.0
    scores = np.einsum("it,it->t", Y, K @ Y)
    return Y[:, int(np.argmax(scores))].copy()


# --------------------------------------------------------------------------- kernel k-means
def _kkm_distances(K, diag, y):
    """Squared feature-space distances (N, 2) of every point to the two cluster means
    (column 0: cluster +1, column 1: cluster -1); ``inf`` for an empty cluster."""
    D = np.empty((K.shape[0], 2))
    for c, lab in enumerate((1.0, -1.0)):
        m = y == lab
        nc = int(m.sum())
        if nc == 0:
            D[:, c] = np.inf
            continue
        ks = K[:, m].sum(axis=1)
        D[:, c] = diag - 2.0 * ks / nc + ks[m].sum() / (nc * nc)
    return D


def kernel_kmeans(K, y0=None, *, max_iter: int = 300, random_state=None,
                  verbose: bool = False) -> ClusteringResult:
    """Two-cluster kernel k-means (KKM): Lloyd's iterations on a Gram matrix.

    Each step assigns every point to the nearer cluster mean in feature space,
    ``||phi_i - m_c||^2 = K_ii - (2/|c|) sum_{j in c} K_ij + (1/|c|^2) sum_{j,l in c} K_jl``
    (ties go to the cluster +1), until the labelling stops changing. With the linear
    kernel ``K = XX'`` this is k-means (Lloyd) on ``X``.

    Parameters
    ----------
    K : array (N, N)
        Gram matrix.
    y0 : array (N,) of +1 / -1, optional
        Initial labelling (KKM-r: :func:`alignment_init`). Default: two distinct random
        points seed the clusters (the first assignment is to the nearer seed).
    max_iter : int, default=300
    random_state : int, Generator or None
        Seeds the random seed points.
    verbose : bool, default=False
        Print one line per Lloyd step (the within-cluster sum of squares and the number of
        labels that changed).

    Returns
    -------
    ClusteringResult
        ``objective`` is the within-cluster sum of squares in feature space.
    """
    K = _check_gram(K)
    n = K.shape[0]
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    t0 = time.perf_counter()
    diag = np.diag(K).copy()
    if y0 is None:
        rng = np.random.default_rng(random_state)
        i, j = rng.choice(n, size=2, replace=False)
        d_i = diag - 2.0 * K[:, i] + K[i, i]
        d_j = diag - 2.0 * K[:, j] + K[j, j]
        y = np.where(d_i <= d_j, 1.0, -1.0)
    else:
        y = _check_init(y0, n).copy()
    path = []
    converged = False
    for it in range(1, max_iter + 1):
        D = _kkm_distances(K, diag, y)
        y_new = np.where(D[:, 0] <= D[:, 1], 1.0, -1.0)
        path.append(float(np.sum(np.where(y_new > 0, D[:, 0], D[:, 1]))))
        if verbose:
            print(f"kernel_kmeans: step {it}: within-cluster sum of squares {path[-1]:.8g}, "
                  f"{int(np.sum(y_new != y))} labels changed")
        if np.array_equal(y_new, y):
            converged = True
            break
        y = y_new
    if not converged:
        warn_not_converged("kernel_kmeans", max_iter, float(np.sum(y_new != y)),
                           what="label changes", tol_param=None)
        y = y_new
    D = _kkm_distances(K, diag, y)
    obj = float(np.sum(np.where(y > 0, D[:, 0], D[:, 1])))
    return ClusteringResult(labels=y, objective=obj, n_iter=len(path), converged=converged,
                            objective_path=path, seconds=time.perf_counter() - t0)


# --------------------------------------------------------------------------- IterSVR
def iter_svr(X, C=1.0, kernel="linear", *, beta: float, epsilon: float = 0.0, y0=None,
             max_iter: int = 50, svr_eps: float = 1e-3, random_state=None,
             verbose: bool = False) -> ClusteringResult:
    """IterSVR (Zhang, Tsang & Kwok 2007): alternate SVR fits and balanced re-labelling.

    Round ``t``: fit ``f(x) = sum_i (a_i - a*_i) k(x_i, x) + b`` by epsilon-insensitive SVR
    (cost ``C``) to the current labels ``y``; then ``y <- sign f`` with the class balance
    ``|1'y| <= beta`` enforced by sorting ``f`` (the ``ceil((N - beta)/2)`` smallest values
    get -1 and the as many largest +1, :func:`weaklabel.solvers.wellsvm.band_oracle`).
    Stop when the labels do not change.

    Parameters
    ----------
    X : array (N, d)
    C : float, default=1.0
        SVR cost (Li et al. 2013 grid: 0.1, 0.5, 1, 5, 10, 100).
    kernel : str or Kernel
        See :func:`weaklabel.kernels.make_kernel`.
    beta : float
        Balance bound in ``[0, N]`` (Li et al. 2013: ``0.03 N`` balanced, ``0.3 N``
        imbalanced data, following Zhang et al. 2007).
    epsilon : float, default=0.0
        Width of the insensitive zone; 0 is the Laplacian loss ``|y_i - f(x_i)|``.
    y0 : array (N,) of +1 / -1, optional
        Initial labels (IterSVR-r: :func:`alignment_init`). Default: a random balanced
        labelling drawn from ``random_state``.
    max_iter : int, default=50
        Cap on the regress/re-label rounds.
    svr_eps : float, default=1e-3
        Stopping tolerance of the SMO solver.
    random_state : int, Generator or None
    verbose : bool, default=False
        Print one line per regress/re-label round.

    Returns
    -------
    ClusteringResult
        ``decision`` is ``f`` on the training points of the last round; ``objective`` the
        last SVR dual objective (SMO's minimisation form).
    """
    X = check_matrix(X, "X", min_rows=2)
    n = X.shape[0]
    C = check_positive(C, "C")
    beta = check_beta(beta, n)
    epsilon = check_positive(epsilon, "epsilon", allow_zero=True)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    k = make_kernel(kernel)
    t0 = time.perf_counter()
    if y0 is None:
        rng = np.random.default_rng(random_state)
        y = -np.ones(n)
        y[rng.permutation(n)[: (n + 1) // 2]] = 1.0
    else:
        y = _check_init(y0, n).copy()
    K = gram(X, X, k)
    X2 = np.ascontiguousarray(np.vstack([X, X]))
    sgn = np.concatenate([np.ones(n), -np.ones(n)])
    alpha = None
    path = []
    converged = False
    f = np.zeros(n)
    for it in range(1, max_iter + 1):
        # epsilon-SVR as LIBSVM's doubled problem: p = [eps - y; eps + y], signs [+1; -1]
        p = np.concatenate([epsilon - y, epsilon + y])
        res = smo(X2, sgn, C, k, p=p, alpha0=alpha, eps=svr_eps)
        alpha = res.alpha
        coef = alpha[:n] - alpha[n:]
        f = K @ coef - res.rho
        path.append(float(res.objective))
        y_new = band_oracle(f, beta)
        if verbose:
            print(f"iter_svr: round {it}: SVR objective {path[-1]:.8g}, "
                  f"{int(np.sum(y_new != y))} labels changed")
        if np.array_equal(y_new, y):
            converged = True
            break
        y = y_new
        alpha = None  # the old start is not feasible for new labels in general; restart
    if not converged:
        warn_not_converged("iter_svr", max_iter, float(np.sum(y_new != y)),
                           what="label changes", tol_param=None)
        y = y_new
    return ClusteringResult(labels=y, objective=path[-1], n_iter=len(path), converged=converged,
                            objective_path=path, decision=f,
                            seconds=time.perf_counter() - t0,
                            info={"kernel": k, "epsilon": epsilon, "beta": beta})


# --------------------------------------------------------------------------- CPMMC
def kernel_feature_map(X, kernel="linear", *, n_components: int = 200,
                       exact_max: int = 1000, tol: float = 1e-8,
                       random_state=None) -> np.ndarray:
    """An explicit feature map ``Phi`` (N, m) with ``Phi Phi' ~= K`` (the CPMMC input).

    - linear kernel: ``Phi = X`` (exact);
    - other kernels, ``N <= exact_max``: the eigen-decomposition of the Gram matrix, the
      ``n_components`` largest eigenvalues above ``tol * max eigenvalue``, ``Phi = V
      sqrt(Lambda)`` (the best rank-``m`` approximation of ``K``);
    - ``N > exact_max``: the Nystrom map on ``n_components`` random landmarks ``L``,
      ``Phi = K_{N,L} U Lambda^{-1/2}`` with ``K_{L,L} = U Lambda U'``.
    """
    X = check_matrix(X, "X", min_rows=2)
    k = make_kernel(kernel)
    n_components = check_int(n_components, "n_components", minimum=1)
    exact_max = check_int(exact_max, "exact_max", minimum=0)
    if k.name == "linear":
        return X.copy()
    n = X.shape[0]
    if n <= exact_max:
        w, V = np.linalg.eigh(gram(X, X, k))
        keep = np.argsort(w)[::-1][:n_components]
        keep = keep[w[keep] > tol * max(w.max(), 0.0)]
        return V[:, keep] * np.sqrt(w[keep])
    rng = np.random.default_rng(random_state)
    land = np.sort(rng.choice(n, size=min(n_components, n), replace=False))
    w, U = np.linalg.eigh(gram(X[land], X[land], k))
    keep = w > tol * max(w.max(), 0.0)
    return gram(X, X[land], k) @ (U[:, keep] / np.sqrt(w[keep]))


def _mmc_objective(Phi, w, b, C):
    f = Phi @ w + b
    return float(0.5 * w @ w + C * np.mean(np.maximum(0.0, 1.0 - np.abs(f)))), f


def _cp_round(Phi, s, C, beta, tol, max_planes, solver):
    """One CCCP round: ``min 1/2||w||^2 + C xi`` over the single-slack cuts with signs
    ``s``, and the balance; returns ``(w, b, planes, converged)``."""
    import cvxpy as cp

    n, m = Phi.shape
    colsum = Phi.sum(axis=0)
    A_rows, g_rows, h_rows = [], [], []
    w = np.zeros(m)
    b = 0.0
    xi = 0.0
    inaccurate = 0
    for planes in range(1, max_planes + 1):
        f = Phi @ w + b
        c = (s * f < 1.0).astype(np.float64)
        viol = float(np.mean(c * (1.0 - s * f)))
        if planes > 1 and viol <= xi + tol:
            return w, b, planes - 1, True, inaccurate
        A_rows.append((c * s) @ Phi / n)
        g_rows.append(float(np.mean(c * s)))
        h_rows.append(float(np.mean(c)))
        wv = cp.Variable(m)
        bv = cp.Variable()
        xv = cp.Variable(nonneg=True)
        A = np.array(A_rows)
        cons = [A @ wv + np.array(g_rows) * bv + xv >= np.array(h_rows),
                cp.abs(colsum @ wv + n * bv) <= beta]
        prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(wv) + C * xv), cons)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prob.solve(solver=solver)
        for wr in caught:
            # cvxpy's own advice ("adjusting the solver settings") names none of ours:
            # the inaccuracy is counted here and reported once by cpmmc
            if not str(wr.message).startswith("Solution may be inaccurate"):
                warnings.warn_explicit(wr.message, wr.category, wr.filename, wr.lineno)
        if wv.value is None:
            raise RuntimeError(f"cpmmc: working-set QP failed with status {prob.status} "
                               f"(solver {solver}); standardise X or loosen cp_tol.")
        inaccurate += prob.status != "optimal"
        w = np.asarray(wv.value).ravel()
        b = float(bv.value)
        xi = float(xv.value)
    f = Phi @ w + b
    viol = float(np.mean(np.maximum(0.0, 1.0 - s * f)))
    return w, b, max_planes, viol <= xi + tol, inaccurate


def cpmmc(X, C=1.0, kernel="linear", *, beta: float, y0=None, n_components: int = 200,
          exact_max: int = 1000, cp_tol: float = 1e-2, tol: float = 1e-3,
          max_iter: int = 30, max_planes: int = 100, solver: str = "CLARABEL",
          features=None, random_state=None, verbose: bool = False) -> ClusteringResult:
    """CPMMC (Zhao, Wang & Zhang 2008): CCCP + cutting-plane maximum margin clustering.

    See the module docstring for the problem and the declared simplifications.

    Parameters
    ----------
    X : array (N, d)
    C : float, default=1.0
        Cost of the averaged hinge term (Li et al. 2013 grid: 0.1 ... 100).
    kernel : str or Kernel
    beta : float
        The balance bound ``l`` of ``|sum_i f(x_i)| <= l``, in ``[0, N]``.
    y0 : array (N,) of +1 / -1, optional
        The signs of the first CCCP linearisation; default :func:`alignment_init` on the
        Gram matrix of the feature map (20 draws, ``random_state``).
    n_components, exact_max : int
        Passed to :func:`kernel_feature_map`.
    cp_tol : float, default=1e-2
        Cutting-plane tolerance: a round ends when the most violated cut exceeds the
        slack by at most ``cp_tol``.
    tol : float, default=1e-3
        CCCP stops when the objective decreases by less than ``tol`` (relative) or the
        signs stop changing.
    max_iter : int, default=30
        Cap on CCCP rounds.
    max_planes : int, default=100
        Cap on cuts per round.
    solver : str, default="CLARABEL"
        cvxpy solver of the working-set QPs.
    features : array (N, m), optional
        A precomputed feature map (then ``kernel`` is ignored).
    random_state : int, Generator or None
    verbose : bool, default=False
        Print one line per CCCP round (cuts, objective, signs changed).

    Returns
    -------
    ClusteringResult
        ``objective_path`` holds the MMC objective after every CCCP round (CCCP makes it
        non-increasing up to the cutting-plane tolerance); ``info`` has ``planes`` (cuts
        per round), ``n_features``, ``w``, ``b`` and ``inaccurate_qps`` (working-set QPs
        the QP solver solved only to reduced accuracy).

    Warns
    -----
    ConvergenceWarning
        At ``max_iter``; or once when the QP solver returned ``optimal_inaccurate`` for
        any working-set QP (cvxpy's own warning, which names none of these parameters,
        is replaced by it).
    """
    X = check_matrix(X, "X", min_rows=2)
    n = X.shape[0]
    C = check_positive(C, "C")
    beta = check_beta(beta, n, labels=False)
    cp_tol = check_positive(cp_tol, "cp_tol")
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    max_planes = check_int(max_planes, "max_planes", minimum=1)
    t0 = time.perf_counter()
    if features is None:
        Phi = kernel_feature_map(X, kernel, n_components=n_components, exact_max=exact_max,
                                 random_state=random_state)
    else:
        Phi = check_matrix(features, "features", min_rows=n)
        if Phi.shape[0] != n:
            raise ValueError(f"features must have N={n} rows, got {Phi.shape[0]}.")
    s = alignment_init(Phi @ Phi.T, 20, random_state) if y0 is None else _check_init(y0, n)
    path, planes = [], []
    n_inaccurate = n_qps = 0
    converged = False
    prev = math.inf
    w = np.zeros(Phi.shape[1])
    b = 0.0
    f = np.zeros(n)
    for it in range(1, max_iter + 1):
        w, b, npl, _, bad = _cp_round(Phi, s, C, beta, cp_tol, max_planes, solver)
        planes.append(npl)
        n_inaccurate += bad
        n_qps += npl
        obj, f = _mmc_objective(Phi, w, b, C)
        path.append(obj)
        s_new = np.where(f >= 0, 1.0, -1.0)
        if verbose:
            print(f"cpmmc: CCCP round {it}: {npl} cuts, objective {obj:.8g}, "
                  f"{int(np.sum(s_new != s))} signs changed")
        if np.array_equal(s_new, s) or (math.isfinite(prev)
                                         and prev - obj <= tol * max(1.0, abs(prev))):
            converged = True
            s = s_new
            break
        s = s_new
        prev = obj
    if not converged:
        warn_not_converged("cpmmc", max_iter, prev - path[-1], what="objective decrease",
                           tol_param="tol")
    if n_inaccurate:
        warnings.warn(
            f"cpmmc: the QP solver {solver} solved {n_inaccurate} of the {n_qps} "
            "working-set QPs only to reduced accuracy (status 'optimal_inaccurate'); the "
            "cuts and the clustering may be inexact. Standardise X, or loosen cp_tol.",
            ConvergenceWarning, stacklevel=3)
    labels = np.where(f >= 0, 1.0, -1.0)
    return ClusteringResult(labels=labels, objective=path[-1], n_iter=len(path),
                            converged=converged, objective_path=path, decision=f,
                            seconds=time.perf_counter() - t0,
                            info={"planes": planes, "n_features": Phi.shape[1], "w": w,
                                  "b": b, "solver": solver, "beta": beta,
                                  "inaccurate_qps": n_inaccurate})
