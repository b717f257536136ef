"""Warnings of the package's estimators (``from weaklabel.models import ...``).

Non-convergence is scikit-learn's ``sklearn.exceptions.ConvergenceWarning``; the warnings
below are the package's own.
"""

from __future__ import annotations

__all__ = ["OneClassPredictionWarning"]


class OneClassPredictionWarning(UserWarning):
    """A fitted estimator predicts the same class for every unlabelled training point.

    Usually a sign of a kernel width or a regularisation that does not suit the data (a
    Gaussian width much smaller than the distances between points makes the Gram matrix
    nearly the identity, and the decision function nearly constant away from the training
    points); see the estimator's ``sigma`` / ``lam`` / ``C``. Silence it with
    ``warnings.simplefilter("ignore", OneClassPredictionWarning)`` where a constant
    predictor is expected.
    """
