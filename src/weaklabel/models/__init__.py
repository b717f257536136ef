"""scikit-learn style estimators: the methods and baselines of each paper."""

from .mcls import ILUISVM, MCLS, NBBSVM, PNB, GaussianNBPU
from .pu import DoubleHingePU, RampPU

__all__ = ["MCLS", "ILUISVM", "NBBSVM", "PNB", "GaussianNBPU", "DoubleHingePU", "RampPU"]
