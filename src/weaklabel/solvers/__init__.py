"""Numba solvers on plain arrays (no scikit-learn estimators here).

- :func:`usmo`: USMO for kernel PU learning with the double hinge loss (Sansone et al. 2019).
- :mod:`weaklabel.solvers.lssvm`: LS-SVC as a factorised linear system (MCLS, Chaudhari and
  Shevade 2012).
"""

from .lssvm import KernelEigen, LSSVCFactor, mcls_loop
from .usmo import USMOResult, usmo, usmo_decision_function

__all__ = ["LSSVCFactor", "KernelEigen", "mcls_loop", "USMOResult", "usmo",
           "usmo_decision_function"]
