"""Numba solvers on plain arrays (no scikit-learn estimators here).

- :func:`usmo`: USMO for kernel PU learning with the double hinge loss (Sansone et al. 2019).
"""

from .usmo import USMOResult, usmo, usmo_decision_function

__all__ = ["USMOResult", "usmo", "usmo_decision_function"]
