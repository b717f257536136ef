"""cvxpy reference of the linear SVM primal (the problem of ``solvers/linear.py``).

``min_{w, b} 1/2 (|w|^2 + b^2) + sum_i C_i loss(y_i (w'x_i + b))`` with the hinge
(``"l1"``) or the squared hinge (``"l2"``), the bias regularised as the weight of an
appended constant feature (Hsieh et al. 2008; LIBLINEAR ``-B 1``), and the matching dual
value ``1'a - 1/2 |sum_i a_i y_i x_i|^2 - 1/2 sum_i D_ii a_i^2`` at a given ``a``.
"""

from __future__ import annotations

import time

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from .._validation import check_choice, check_matrix, check_vector
from .qp import ReferenceSolverError

__all__ = ["linear_svm_dual_value", "linear_svm_primal_qp"]


def _dense(X):
    return check_matrix(X.toarray() if sp.issparse(X) else X, "X")


def linear_svm_primal_qp(X, y, C=1.0, *, loss: str = "l1", bias: bool = False,
                         solver: str = "CLARABEL") -> dict:
    """Solve the linear SVM primal with cvxpy (small problems; ``X`` made dense).

    Returns
    -------
    dict
        ``w`` (d,), ``intercept``, ``objective``, ``seconds``, ``status``.
    """
    check_choice(loss, "loss", {"l1", "l2"})
    A = _dense(X)
    n, d = A.shape
    yv = check_vector(y, "y", n=n)
    Cv = np.full(n, float(C)) if np.ndim(C) == 0 else check_vector(C, "C", n=n)
    w = cp.Variable(d)
    b = cp.Variable()
    xi = cp.Variable(n)
    cons = [xi >= 0, cp.multiply(yv, A @ w + (b if bias else 0.0)) >= 1 - xi]
    reg = 0.5 * cp.sum_squares(w) + (0.5 * cp.square(b) if bias else 0.0)
    pen = Cv @ xi if loss == "l1" else cp.sum(cp.multiply(Cv, cp.square(xi)))
    prob = cp.Problem(cp.Minimize(reg + pen), cons)
    t0 = time.perf_counter()
    prob.solve(solver=solver)
    seconds = time.perf_counter() - t0
    if prob.status != cp.OPTIMAL:
        raise ReferenceSolverError(f"linear SVM primal: cvxpy status {prob.status}.")
    wv = np.asarray(w.value, dtype=np.float64)
    bv = float(b.value) if bias else 0.0
    marg = yv * (A @ wv + bv)
    h = np.maximum(0.0, 1.0 - marg)
    obj = 0.5 * (wv @ wv + bv * bv) + float(Cv @ (h if loss == "l1" else h * h))
    return {"w": wv, "intercept": bv, "objective": float(obj), "seconds": seconds,
            "status": prob.status}


def linear_svm_dual_value(X, y, alpha, C=1.0, *, loss: str = "l1", bias: bool = False
                          ) -> float:
    """Dual objective ``1'a - 1/2 |sum_i a_i y_i x~_i|^2 - 1/2 sum_i D_ii a_i^2`` (``x~_i``
    with the constant 1 appended when ``bias``; ``D_ii = 1/(2 C_i)`` for ``"l2"``), computed
    densely."""
    check_choice(loss, "loss", {"l1", "l2"})
    A = _dense(X)
    n = A.shape[0]
    yv = check_vector(y, "y", n=n)
    a = check_vector(alpha, "alpha", n=n)
    Cv = np.full(n, float(C)) if np.ndim(C) == 0 else check_vector(C, "C", n=n)
    if bias:
        A = np.hstack([A, np.ones((n, 1))])
    w = A.T @ (a * yv)
    dterm = 0.0 if loss == "l1" else float((0.5 / Cv) @ (a * a))
    return float(a.sum() - 0.5 * w @ w - 0.5 * dterm)
