"""cvxpy reference of the LS-SVC problem solved by :mod:`weaklabel.solvers.lssvm`.

Two independent formulations of Eq. (2) of the MCLS paper (Section 2.2)::

    min_{w, b}  1/2 ||w||^2 + C sum_i (y_i - w' phi(x_i) - b)^2

- :func:`lssvc_reference` ``form="dual"``: the equality-constrained dual QP
  ``min 1/2 alpha'(K + I/(2C)) alpha - y'alpha  s.t.  1'alpha = 0``; ``b`` is the multiplier
  of the equality constraint.
- ``form="primal"``: the primal least squares with an explicit feature map ``Phi`` with
  ``Phi Phi' = K`` (from an eigendecomposition), ``alpha = 2 C xi`` recovered from the KKT
  conditions.

Both are solved by Clarabel with tight tolerances, so they agree with the linear-system
solver to about 1e-9 relative on well-conditioned problems.
"""

from __future__ import annotations

import time

import cvxpy as cp
import numpy as np

from .._validation import check_positive

__all__ = ["lssvc_reference"]

_TIGHT = {"tol_gap_abs": 1e-13, "tol_gap_rel": 1e-13, "tol_feas": 1e-13,
          "tol_ktratio": 1e-10, "max_iter": 500}


def lssvc_reference(K, y, C=1.0, *, form: str = "dual", solver: str = "CLARABEL"):
    """Solve the LS-SVC problem with cvxpy.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Symmetric PSD kernel matrix.
    y : ndarray of shape (n,)
        Labels (+1/-1; any reals are accepted, the problem is a least-squares fit).
    C : float
        Cost of the squared slacks (Eq. (2) convention).
    form : {"dual", "primal"}
        Which formulation (module docstring).
    solver : str
        cvxpy solver name.

    Returns
    -------
    dict
        ``alpha``, ``b``, ``objective`` (the primal objective of Eq. (2)), ``seconds``,
        ``status``.
    """
    K = np.asarray(K, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64).ravel()
    C = check_positive(C, "C")
    if form not in ("dual", "primal"):
        raise ValueError(f"form must be 'dual' or 'primal', got {form!r}.")
    n = K.shape[0]
    K = 0.5 * (K + K.T)
    opts = _TIGHT if solver == "CLARABEL" else {}
    t0 = time.perf_counter()
    if form == "dual":
        H = K + np.eye(n) / (2.0 * C)
        a = cp.Variable(n)
        con = [cp.sum(a) == 0]
        prob = cp.Problem(cp.Minimize(0.5 * cp.quad_form(a, cp.psd_wrap(H)) - y @ a), con)
        prob.solve(solver=solver, **opts)
        alpha = np.asarray(a.value, dtype=np.float64)
        b = float(np.asarray(con[0].dual_value).ravel()[0])
        # sign convention: Lagrangian f + nu (1'alpha); stationarity H alpha - y + nu 1 = 0
    else:
        lam, V = np.linalg.eigh(K)
        keep = lam > 1e-12 * max(1.0, lam.max())
        Phi = V[:, keep] * np.sqrt(lam[keep])
        w = cp.Variable(Phi.shape[1])
        bb = cp.Variable()
        obj = 0.5 * cp.sum_squares(w) + C * cp.sum_squares(y - Phi @ w - bb)
        prob = cp.Problem(cp.Minimize(obj))
        prob.solve(solver=solver, **opts)
        b = float(bb.value)
        alpha = 2.0 * C * (y - Phi @ w.value - b)
    seconds = time.perf_counter() - t0
    if prob.status not in (cp.OPTIMAL,):
        raise RuntimeError(f"cvxpy reference for the LS-SVC ended with status {prob.status!r}.")
    Ka = K @ alpha
    xi = y - Ka - b
    objective = float(0.5 * alpha @ Ka + C * xi @ xi)
    return {"alpha": alpha, "b": b, "objective": objective, "seconds": seconds,
            "status": prob.status}
