"""cvxpy reference formulations of the package's optimisation problems (cross-checks)."""

from .lssvm import lssvc_reference
from .qp import QPResult, ReferenceSolverError, make_psd, solve_qp, svm_dual_qp
from .usmo import (
    usmo_dual_reference,
    usmo_kkt_violation,
    usmo_primal_objective,
    usmo_primal_reference,
)

__all__ = ["lssvc_reference", "QPResult", "ReferenceSolverError", "make_psd", "solve_qp",
           "svm_dual_qp",
           "usmo_dual_reference", "usmo_kkt_violation", "usmo_primal_objective",
           "usmo_primal_reference"]
