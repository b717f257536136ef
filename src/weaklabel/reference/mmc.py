"""GMMC: an ``N``-variable SDP relaxation of maximum margin clustering (cvxpy + SCS).

Valizadegan & Jin 2007 ("Generalized maximum margin clustering and unsupervised kernel
learning") reduce the SDP of maximum margin clustering from ``N^2`` to ``N`` variables; Li
et al. 2013 (Section 5.3, Table 11) use it as the "GMMC" baseline and report "-" where it
does not finish. The original text was not available to us, so the relaxation solved here
is derived in this docstring from the same idea (a congruence by ``diag(y)``); it is a
*GMMC-style* relaxation, not a transcription of their program.

Derivation. For labels ``y in {-1, +1}^N`` the bias-free SVM value (Li et al. 2013, Eq. (33))
is ``p(y) = max_{0 <= a <= C} 1'a - 1/2 a'(K o yy')a``. Dualising the box (multipliers
``u, v >= 0`` of ``a <= C``, ``a >= 0``) and using ``K o yy' = D K D``, ``D = diag(y)``,
``D^2 = I``::

    p(y) = min_{u, v >= 0}  1/2 z'K^{-1}z + C 1'u,   z = D(1 + v - u).

Every such ``z`` has ``z_i^2 >= (1 - u_i)_+^2``. Replacing ``zz'`` by any ``Z >= 0`` (psd) with
``Z_ii >= (1 - u_i)^2``, ``0 <= u <= 1`` gives a convex problem whose value is ``<= p(y)`` for
every ``y``; its Lagrange dual has only ``N`` variables ``g`` (one per diagonal constraint)::

    max_{g >= 0}  sum_i h(g_i)   s.t.  diag(g) <= 1/2 K^{-1}  (Loewner order),
    h(g) = min_{0 <= u <= 1} C u + g (1 - u)^2 = g - max(g - C/2, 0)^2 / g

(``h(g) = g`` up to ``C/2``, then ``C - C^2 / (4 g)``; concave, written with a rotated
second-order cone). ``Z`` is the multiplier of the linear
matrix inequality; the labels are rounded from its leading eigenvector with the class
balance ``|1'y| <= beta`` enforced by sorting (:func:`weaklabel.solvers.wellsvm.band_oracle`).

Declared choices: ``K`` is centred (``HKH``, as the preprocessing of Xu et al. 2005 that
removes the bias; without it the one-cluster labelling has the best margin) and a ridge
``ridge * mean(diag K) * I`` makes it invertible (the same ``K`` enters :func:`mmc_label_value`,
so the bound ``relaxation <= p(y)`` holds exactly for the regularised problem); the
balance constraint acts in the rounding only, not in the SDP.

Cost: the matrix inequality couples all ``N`` variables densely (``N^3`` coefficients), so
time and memory grow fast. Measured with SCS at ``eps = 1e-5`` on random subsets of
Australian (Gaussian kernel, one thread, shared 2-core machine): N = 100: 3 s, 200: 50 s,
220: 79 s, 250: 148 s, 300: 370 s (2.9 GB resident). Hence ``max_n = 300`` by default.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import cvxpy as cp
import numpy as np

from .._validation import check_int, check_matrix, check_positive, check_vector
from ..solvers.wellsvm import band_oracle
from .qp import ReferenceSolverError

__all__ = ["GMMCResult", "gmmc_kernel", "gmmc_sdp", "mmc_label_value"]


@dataclass
class GMMCResult:
    """Result of :func:`gmmc_sdp`.

    Attributes
    ----------
    ran : bool
        False when ``N > max_n`` or the solver hit its time limit (the paper's "-").
    labels : array (N,) of +1 / -1, or None
        The rounded labelling.
    relaxation_value : float
        The SDP optimum (a lower bound of ``min_y p(y)``); ``nan`` when not run.
    g : array (N,) or None
        The dual variables of the SDP.
    Z : array (N, N) or None
        The multiplier of the matrix inequality (the relaxed ``zz'``).
    kernel : array (N, N) or None
        The centred, regularised Gram matrix the relaxation used.
    status : str
        cvxpy status, ``"not run (N > max_n)"`` or the time-limit status.
    seconds : float
    """

    ran: bool
    labels: np.ndarray | None
    relaxation_value: float
    g: np.ndarray | None
    Z: np.ndarray | None
    kernel: np.ndarray | None
    status: str
    seconds: float
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        n = None if self.labels is None else self.labels.shape[0]
        return (f"GMMCResult(ran={self.ran}, N={n}, relaxation_value="
                f"{self.relaxation_value:.6g}, status={self.status!r}, "
                f"seconds={self.seconds:.3g})")


def gmmc_kernel(K, *, ridge: float = 1e-3, center: bool = True) -> np.ndarray:
    """The Gram matrix of the relaxation: ``HKH`` (when ``center``) plus
    ``ridge * mean(diag) * I``."""
    K = check_matrix(K, "K", min_rows=2)
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be a square (N, N) Gram matrix, got shape {K.shape}.")
    ridge = check_positive(ridge, "ridge")
    K = 0.5 * (K + K.T)
    if center:
        K = K - K.mean(axis=0)[None, :] - K.mean(axis=1)[:, None] + K.mean()
    scale = float(np.mean(np.diag(K)))
    return K + ridge * (scale if scale > 0 else 1.0) * np.eye(K.shape[0])


def mmc_label_value(K, y, C=1.0, *, solver: str = "CLARABEL") -> float:
    """``p(y) = max_{0 <= a <= C} 1'a - 1/2 a'(K o yy')a`` (Li et al. 2013, Eq. (33)), by cvxpy."""
    K = check_matrix(K, "K", min_rows=1)
    n = K.shape[0]
    y = check_vector(y, "y", n=n)
    C = check_positive(C, "C")
    w, V = np.linalg.eigh(0.5 * (K + K.T))
    R = (V * np.sqrt(np.clip(w, 0.0, None))).T
    a = cp.Variable(n)
    prob = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares(R @ cp.multiply(y, a))),
                      [a >= 0, a <= C])
    prob.solve(solver=solver)
    if prob.status not in (cp.OPTIMAL,):
        raise ReferenceSolverError(f"mmc_label_value: solver status {prob.status}.")
    return float(prob.value)


def gmmc_sdp(K, C=1.0, *, beta: float, ridge: float = 1e-3, center: bool = True,
             max_n: int = 300, time_limit: float | None = 600.0, eps: float = 1e-5,
             max_iters: int = 100_000, verbose: bool = False) -> GMMCResult:
    """Solve the GMMC-style SDP (module docstring) with SCS and round its solution.

    Parameters
    ----------
    K : array (N, N)
        Gram matrix of the data.
    C : float, default=1.0
        SVM cost (Li et al. 2013 grid: 0.1 ... 100).
    beta : float
        Balance bound of the rounding, in ``[0, N]``.
    ridge : float, default=1e-3
        Relative ridge of :func:`gmmc_kernel`.
    center : bool, default=True
        Centre ``K`` first (:func:`gmmc_kernel`).
    max_n : int, default=300
        Larger problems are not attempted: the result has ``ran=False`` (the "-" of Table 11).
    time_limit : float or None, default=600
        SCS wall-time limit in seconds; a run stopped by it returns ``ran=False``.
    eps : float, default=1e-5
        SCS absolute and relative tolerance.
    max_iters : int, default=100000
        SCS iteration cap.
    verbose : bool, default=False
        Passed to cvxpy's ``solve``: cvxpy's compilation summary and SCS's iteration log
        (written by SCS to the process's standard output).
    """
    from ..solvers.mmc import check_beta

    K = check_matrix(K, "K", min_rows=2)
    n = K.shape[0]
    C = check_positive(C, "C")
    beta = check_beta(beta, n)
    max_n = check_int(max_n, "max_n", minimum=2)
    eps = check_positive(eps, "eps")
    t0 = time.perf_counter()
    if n > max_n:
        return GMMCResult(ran=False, labels=None, relaxation_value=float("nan"), g=None, Z=None,
                          kernel=None, status=f"not run (N={n} > max_n={max_n})",
                          seconds=0.0)
    Kr = gmmc_kernel(K, ridge=ridge, center=center)
    # diag(g) <= 1/2 K^{-1}  <=>  R' diag(g) R <= 1/2 I with K = RR' (a congruence by R;
    # well conditioned, unlike K^{-1} itself); the multiplier W of this form gives Z = RWR'.
    w, V = np.linalg.eigh(Kr)
    R = V * np.sqrt(np.clip(w, 0.0, None))
    # h(g) = g - max(g - C/2, 0)^2 / g: the epigraph t_i g_i >= s_i^2, s_i >= g_i - C/2, 0
    g = cp.Variable(n, nonneg=True)
    s = cp.Variable(n, nonneg=True)
    t = cp.Variable(n, nonneg=True)
    M = R.T @ cp.diag(g) @ R
    lmi = 0.5 * np.eye(n) - 0.5 * (M + M.T) >> 0
    cons = [lmi, s >= g - 0.5 * C, cp.SOC(t + g, cp.vstack([2.0 * s, t - g]), axis=0)]
    prob = cp.Problem(cp.Maximize(cp.sum(g) - cp.sum(t)), cons)
    opts = {"eps_abs": eps, "eps_rel": eps, "max_iters": check_int(max_iters, "max_iters",
                                                                    minimum=1)}
    if time_limit is not None:
        opts["time_limit_secs"] = check_positive(time_limit, "time_limit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            prob.solve(solver="SCS", verbose=bool(verbose), **opts)
        except cp.error.SolverError as exc:
            raise ReferenceSolverError(f"gmmc_sdp: SCS failed: {exc}") from None
    seconds = time.perf_counter() - t0
    timed_out = time_limit is not None and seconds >= 0.98 * time_limit
    if g.value is None or prob.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) or timed_out:
        return GMMCResult(ran=False, labels=None, relaxation_value=float("nan"), g=None,
                          Z=None, kernel=Kr, status=f"{prob.status} (time limit or failure)",
                          seconds=seconds)
    W = np.asarray(lmi.dual_value)
    Z = R @ (0.5 * (W + W.T)) @ R.T
    ev, EV = np.linalg.eigh(Z)
    labels = band_oracle(EV[:, -1], beta)
    return GMMCResult(ran=True, labels=labels, relaxation_value=float(prob.value),
                      g=np.asarray(g.value).ravel(), Z=Z, kernel=Kr, status=prob.status,
                      seconds=seconds, info={"Z_eigenvalues": ev[::-1][:5]})
