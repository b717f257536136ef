"""The reference-QP pattern on a C-SVM dual (notebook ``00_solvers``).

Two SMO solvers, the package's numba :func:`weaklabel.solvers.smo.svc_dual` (LIBSVM's
algorithm: WSS2, row cache, shrinking) and scikit-learn's LIBSVM ``SVC`` itself, and the
cvxpy reference solve the same C-SVM dual; we compare objective values and the KKT
violation of each solution. Every paper's solver is certified the same way in its own
notebook.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from sklearn.svm import SVC

from .._validation import check_positive
from ..compare import crosscheck_record
from ..kernels import gram, make_kernel
from ..reference import svm_dual_qp
from ..solvers.smo import svc_dual


def svm_dual_objective(K, y, a) -> float:
    """``1/2 a' Q a - 1' a`` with ``Q = yy' * K``."""
    v = a * y
    return float(0.5 * v @ K @ v - a.sum())


def svm_dual_kkt_violation(K, y, a, C: float, bound_tol: float = 1e-6) -> float:
    """LIBSVM's maximal violation ``m(a) - M(a)`` (>= 0; 0 at the optimum).

    A multiplier within ``bound_tol * C`` of 0 or C counts as at the bound, so that
    interior-point solutions (never exactly at a bound) are judged fairly.
    """
    g = (y * (K @ (a * y))) - 1.0  # gradient of the dual
    minus_yg = -y * g
    eps = bound_tol * C
    up = ((y > 0) & (a < C - eps)) | ((y < 0) & (a > eps))
    low = ((y > 0) & (a > eps)) | ((y < 0) & (a < C - eps))
    if not up.any() or not low.any():
        return 0.0
    return float(max(0.0, minus_yg[up].max() - minus_yg[low].min()))


def random_svm_problem(n: int, d: int, rng: np.random.Generator, *, duplicates: int = 0):
    """Two overlapping Gaussian classes, optionally with duplicated points."""
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.8 * y[:, None]
    if duplicates:
        idx = rng.choice(n, size=duplicates, replace=False)
        X[idx] = X[(idx + 1) % n]
        y[idx] = y[(idx + 1) % n]
    return X, y


def svc_crosscheck(sizes=(50, 200), Cs=(0.1, 1.0, 10.0), kernels=("linear", "gaussian"),
                   d: int = 5, seed: int = 0, tol: float = 1e-8) -> pd.DataFrame:
    """The numba SMO and LIBSVM (``SVC``) against the cvxpy reference on random C-SVM duals.

    Both SMO solvers stop at the same tolerance ``tol`` on LIBSVM's maximal violation. Returns
    two crosscheck rows per problem, one per solver, sharing one reference solve (see
    :data:`weaklabel.compare.CROSSCHECK_COLUMNS`).
    """
    rng = np.random.default_rng(seed)
    rows = []
    svc_dual(np.array([[0.0], [1.0]]), np.array([1.0, -1.0]))  # load the compiled code once
    for n in sizes:
        for kname in kernels:
            for C in Cs:
                C = check_positive(C, "C")
                X, y = random_svm_problem(n, d, rng, duplicates=n // 20)
                k = make_kernel(kname, sigma=np.sqrt(d)) if kname == "gaussian" \
                    else make_kernel(kname)
                K = gram(X, kernel=k)
                ref = svm_dual_qp(K, y, C)
                name = f"csvm-{kname}-n{n}-C{C:g}"
                t0 = time.perf_counter()
                ours = svc_dual(X, y, C, k, eps=tol)
                t_ours = time.perf_counter() - t0
                rows.append(crosscheck_record(
                    name, "weaklabel SMO (numba)", "cvxpy+Clarabel", n, ours.objective,
                    ref.objective, svm_dual_kkt_violation(K, y, ours.alpha, C), t_ours,
                    ref.seconds))
                t0 = time.perf_counter()
                svc = SVC(C=C, kernel="precomputed", tol=tol, max_iter=-1).fit(K, y)
                t_svc = time.perf_counter() - t0
                a = np.zeros(n)
                a[svc.support_] = np.abs(svc.dual_coef_.ravel())
                rows.append(crosscheck_record(
                    name, "sklearn.SVC (LIBSVM)", "cvxpy+Clarabel", n,
                    svm_dual_objective(K, y, a), ref.objective,
                    svm_dual_kkt_violation(K, y, a, C), t_svc, ref.seconds))
    return pd.DataFrame(rows)
