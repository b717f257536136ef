"""Shared pieces of the PU estimators: input handling and kernel parameters."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import check_matrix, check_prior, check_pu_indicator
from ..kernels import make_kernel


def split_pu(X, s):
    """``(X, s)`` with ``s = 1`` labelled positive / ``0`` unlabelled -> ``(Xp, Xu)``.

    Row order inside each part is kept (``Xu`` is ``X[s == 0]`` in the original order).
    """
    X = check_matrix(X, "X")
    s = check_pu_indicator(s, "s" if not isinstance(s, str) else s, n=X.shape[0])
    return np.ascontiguousarray(X[s]), np.ascontiguousarray(X[~s])


class PUClassifierMixin(ClassifierMixin):
    """``predict`` = sign of ``decision_function`` (0 maps to +1, as in the USMO code);
    ``score`` = accuracy on +1/-1 labels."""

    classes_ = np.array([-1, 1])

    def predict(self, X):
        f = self.decision_function(X)
        return np.where(f >= 0, 1, -1)

    def _kernel(self):
        if self.kernel == "gaussian" or self.kernel == "rbf":
            return make_kernel("gaussian", sigma=self.sigma)
        return make_kernel(self.kernel)

    def _check_X(self, X):
        check_is_fitted(self, "n_features_in_")
        return check_matrix(X, "X", n_features=self.n_features_in_)

    def _check_common(self):
        check_prior(self.pi, "pi")


__all__ = ["BaseEstimator", "PUClassifierMixin", "split_pu"]
