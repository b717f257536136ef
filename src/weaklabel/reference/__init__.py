"""cvxpy reference formulations of the package's optimisation problems (cross-checks)."""

from .qp import QPResult, ReferenceSolverError, make_psd, solve_qp, svm_dual_qp

__all__ = ["QPResult", "ReferenceSolverError", "make_psd", "solve_qp", "svm_dual_qp"]
