"""scikit-learn style estimators: the methods and baselines of each paper."""

from .pu import DoubleHingePU, RampPU

__all__ = ["DoubleHingePU", "RampPU"]
