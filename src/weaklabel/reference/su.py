"""Independent cvxpy formulations of the SU-SL and SU-DH objectives (Bao et al. 2018).

Both minimise the empirical SU risk of Shi et al. 2021, Eq. (7), plus ``lam/2 ||theta||^2``
over a linear-in-parameters model ``f = Psi theta``, written directly from the losses
rather than from the closed form / QP of :mod:`weaklabel.solvers.su`:

- :func:`susl_reference`: squared loss ``l(z, t) = (t z - 1)^2 / 4``. Each loss is a
  quadratic polynomial in ``z``; the composite losses
  ``L_S = (l(., +1) - l(., -1)) / (2 pi_+ - 1)`` and
  ``L_U = (-pi_- l(., +1) + pi_+ l(., -1)) / (2 pi_+ - 1)`` are formed by combining the
  polynomial coefficients, and the objective is handed to cvxpy as
  ``a2 ||z||^2 + a1' z + a0`` per set (cvxpy cannot certify a difference of convex
  quadratics, so the combination is done on coefficients; a negative ``z^2`` coefficient
  would make the problem non-convex and raises).
- :func:`sudh_reference`: double-hinge loss written with ``cp.maximum`` and no slack
  variables. By the linear-odd identity ``l(z, +1) - l(z, -1) = -z`` the composite losses
  are ``L_S(z) = -z / (2 pi_+ - 1)`` and ``L_U(z) = l(z, +1) + pi_+ z / (2 pi_+ - 1)`` (the
  ``+1`` form; the solver's QP uses the ``-1`` form).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cvxpy as cp
import numpy as np
from scipy.optimize import lsq_linear

from .._validation import check_positive
from ..solvers.su import _check_psi, _dense, su_class_weights
from .qp import ReferenceSolverError

__all__ = ["SUDHCertificate", "SUReferenceResult", "sudh_certificate", "susl_reference",
           "sudh_reference"]


@dataclass
class SUReferenceResult:
    """Solution of :func:`susl_reference` / :func:`sudh_reference`.

    ``objective`` is the full objective value (Eq. (7) plus ``lam/2 ||theta||^2``, constants
    included), comparable with :func:`weaklabel.solvers.su.su_objective`.
    """

    theta: np.ndarray
    objective: float
    status: str
    seconds: float
    solver: str


def _solve(prob, theta, solver, name):
    t0 = time.perf_counter()
    try:
        prob.solve(solver=solver)
    except cp.error.SolverError as exc:
        raise ReferenceSolverError(f"{name}: solver {solver} failed: {exc}") from None
    if prob.status != cp.OPTIMAL or theta.value is None:
        raise ReferenceSolverError(f"{name}: solver {solver} returned status {prob.status!r}.")
    return SUReferenceResult(theta=np.asarray(theta.value, dtype=np.float64),
                             objective=float(prob.value), status=prob.status,
                             seconds=time.perf_counter() - t0, solver=solver)


def _squared_loss_coeffs(t: float) -> np.ndarray:
    """Coefficients ``(a2, a1, a0)`` of ``l(z, t) = (t z - 1)^2 / 4`` for ``t = +-1``."""
    return np.array([0.25 * t * t, -0.5 * t, 0.25])


def susl_reference(PsiS, PsiU, prior, lam, solver: str = "CLARABEL") -> SUReferenceResult:
    """Squared-loss SU risk (Shi et al. 2021, Eq. (7)) + ``lam/2 ||theta||^2`` in cvxpy."""
    pi_s, pi_m, c = su_class_weights(prior)
    pi_p = 1.0 - pi_m
    lam = check_positive(lam, "lam")
    S, U = _check_psi(PsiS, PsiU)
    S, U = _dense(S), _dense(U)
    lp, lm = _squared_loss_coeffs(1.0), _squared_loss_coeffs(-1.0)
    coef_s = pi_s * c * (lp - lm) / S.shape[0]             # pi_S mean_S L_S
    coef_u = c * (-pi_m * lp + pi_p * lm) / U.shape[0]     # mean_U L_U
    theta = cp.Variable(S.shape[1])
    obj = 0.5 * lam * cp.sum_squares(theta)
    for coef, P in ((coef_s, S), (coef_u, U)):
        z = P @ theta
        if coef[0] < -1e-12:
            raise ValueError("negative curvature: the SU-SL objective is not convex.")
        if coef[0] > 1e-12:
            obj = obj + coef[0] * cp.sum_squares(z)
        obj = obj + coef[1] * cp.sum(z) + coef[2] * P.shape[0]
    return _solve(cp.Problem(cp.Minimize(obj)), theta, solver, "susl_reference")


def sudh_reference(PsiS, PsiU, prior, lam, solver: str = "CLARABEL") -> SUReferenceResult:
    """Double-hinge SU risk (Shi et al. 2021, Eq. (7)) + ``lam/2 ||theta||^2`` in cvxpy,
    with ``l(z, +1) = max(-z, max(0, 1/2 - z/2))`` written with ``cp.maximum``."""
    pi_s, pi_m, c = su_class_weights(prior)
    pi_p = 1.0 - pi_m
    lam = check_positive(lam, "lam")
    S, U = _check_psi(PsiS, PsiU)
    S, U = _dense(S), _dense(U)
    theta = cp.Variable(S.shape[1])
    zs, zu = S @ theta, U @ theta
    l_plus_u = cp.maximum(-zu, cp.maximum(0.0, 0.5 - 0.5 * zu))
    risk_s = pi_s * cp.sum(-c * zs) / S.shape[0]
    risk_u = cp.sum(l_plus_u + pi_p * c * zu) / U.shape[0]
    obj = risk_s + risk_u + 0.5 * lam * cp.sum_squares(theta)
    return _solve(cp.Problem(cp.Minimize(obj)), theta, solver, "sudh_reference")


@dataclass
class SUDHCertificate:
    """Optimality certificate of a SU-DH solution (:func:`sudh_certificate`).

    ``primal`` is the objective at ``theta``; ``dual`` a dual objective at a feasible dual
    point, a lower bound on the optimum by weak duality, so ``gap = primal - dual`` bounds
    the suboptimality of ``theta`` from above with no solver involved. ``rel_gap`` is
    ``gap / max(1, |primal|)``. ``kkt_violation`` is ``max_j |lam theta + q + U'g / n_U|_j``
    for that dual point ``g`` (stationarity; 0 at the optimum).
    """

    primal: float
    dual: float
    gap: float
    rel_gap: float
    kkt_violation: float


def _h_minus(z):
    """``l(z, -1) = max(0, z, (1 + z) / 2)`` (double hinge)."""
    return np.maximum(np.maximum(0.0, z), 0.5 + 0.5 * z)


def sudh_certificate(theta, PsiS, PsiU, prior, lam, *, kink_tols=None) -> SUDHCertificate:
    """Duality-gap certificate of ``theta`` for the SU-DH objective
    ``F(theta) = lam/2 ||theta||^2 + q'theta + mean_i h(u_i'theta)`` (the objective of
    :func:`sudh_reference`, written in the ``-1`` form of :func:`weaklabel.solvers.su.sudh_fit`:
    ``q = c (pi_- mean(PsiU) - pi_S mean(PsiS))``, ``h(z) = l(z, -1)``), in closed form and
    without cvxpy.

    ``h(z) = max_{g in [0, 1]} (g z + min(g, 1 - g))``, so for every ``g`` in ``[0, 1]^n_U``::

        D(g) = -||q + U'g / n_U||^2 / (2 lam) + mean_i min(g_i, 1 - g_i)  <=  min F.

    ``g`` is taken from ``theta``: ``g_i = h'(z_i)`` (0, 1/2 or 1) away from the kinks
    ``z = -1`` and ``z = 1``; for the points within ``t`` of a kink it ranges over the
    subdifferential (``[0, 1/2]`` or ``[1/2, 1]``) and is chosen by bounded least squares
    (scipy's ``lsq_linear``) to make ``lam theta + q + U'g / n_U`` small. Every ``t`` in
    ``kink_tols`` (default ``0`` and ``10^-k max(1, max|z|)`` for ``k = 12, 10, ..., 2``)
    gives a valid bound; the smallest gap is reported.
    """
    pi_s, pi_m, c = su_class_weights(prior)
    lam = check_positive(lam, "lam")
    S, U = _check_psi(PsiS, PsiU)
    S, U = _dense(S), _dense(U)
    th = np.asarray(theta, dtype=np.float64).ravel()
    if th.shape[0] != U.shape[1]:
        raise ValueError(f"theta has {th.shape[0]} entries but the basis has {U.shape[1]} "
                         "columns.")
    n = U.shape[0]
    q = c * (pi_m * U.mean(axis=0) - pi_s * S.mean(axis=0))
    z = U @ th
    primal = float(0.5 * lam * th @ th + q @ th + _h_minus(z).mean())
    if kink_tols is None:
        zs = max(1.0, float(np.abs(z).max()))
        kink_tols = [0.0] + [10.0 ** -k * zs for k in (12, 10, 8, 6, 4, 2)]
    best = None
    for t in kink_tols:
        # the subgradients of h over [z - t, z + t]: slopes 0, 1/2, 1 left of, between and
        # right of the kinks -1 and 1
        lo = np.where(z - t > 1.0, 1.0, np.where(z - t > -1.0, 0.5, 0.0))
        hi = np.where(z + t < -1.0, 0.0, np.where(z + t < 1.0, 0.5, 1.0))
        free = hi > lo
        g = lo.copy()
        base = lam * th + q + U.T @ g / n
        if free.any():
            A = U[free].T / n
            sol = lsq_linear(A, -base, bounds=(lo[free] * 0.0, hi[free] - lo[free]),
                             method="bvls", tol=1e-14)
            g[free] = lo[free] + np.clip(sol.x, 0.0, hi[free] - lo[free])
        r = q + U.T @ g / n
        dual = float(-(r @ r) / (2.0 * lam) + np.minimum(g, 1.0 - g).mean())
        kkt = float(np.abs(lam * th + r).max())
        if best is None or primal - dual < best[0] - best[1]:
            best = (primal, dual, kkt)
    primal, dual, kkt = best
    gap = max(primal - dual, 0.0)
    return SUDHCertificate(primal=primal, dual=dual, gap=gap,
                           rel_gap=gap / max(1.0, abs(primal)), kkt_violation=kkt)
