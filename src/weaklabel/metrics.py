"""Model selection for PU learning on ``(X, s)`` alone: criteria and scikit-learn scorers.

``score`` of every estimator needs the true class labels, which PU data does not have; and
``GridSearchCV(est, grid).fit(X, s)`` with the default scoring compares ``+1`` / ``-1``
predictions with the PU indicator ``s`` (a meaningless number that picks bad models). The
scorers below take ``(estimator, X, s)`` with ``s = 1`` for a labelled positive and
``s = 0`` for an unlabelled row, so they work as ``scoring=`` of ``cross_val_score`` and
``GridSearchCV`` on ``(X, s)``; higher is better for every scorer.

:func:`lee_liu_criterion`, :func:`pu_recall2_scorer`
    ``recall^2 / Pr[f(x) = +1]`` of Lee & Liu (ICML 2003): ``recall`` over the labelled
    positives, ``Pr`` over all rows. It is proportional to ``precision * recall / Pr[y=+1]``
    under the SCAR assumption, so it ranks models as their F1-like product would, without
    the class prior. Used by :class:`weaklabel.models.NBBSVM` to select its costs.
:func:`pu_unbiased_risk`, :func:`make_pu_risk_scorer`
    The unbiased PU risk of du Plessis, Niu & Sugiyama (NIPS 2014, ICML 2015),
    ``R(f) = prior E_P[l(f)] - prior E_P[l(-f)] + E_U[l(-f)]``, an unbiased estimate of the
    misclassification risk ``prior E_+[l(f)] + (1 - prior) E_-[l(-f)]`` at the class prior
    ``prior``, with the zero-one loss (an estimate of the error rate) or the sigmoid loss
    ``l(z) = 1 / (1 + exp(z))`` (smooth, fewer ties). The unlabelled rows (``s = 0``) are
    taken as a sample of the marginal distribution, as in the objective of
    :class:`weaklabel.models.DoubleHingePU`. Lower is better, so the scorer returns ``-R``.

Why not ``pulearn`` (PyPI, 0.2.0, read for this module): its ``lee_liu_score`` is the same
formula on thresholded predictions, and its ``pu_unbiased_risk`` supports only the logistic
loss on *probability* scores in (0, 1), whereas the estimators here output margins
(``decision_function``) without probabilities, and model selection wants the zero-one or
sigmoid loss on the margin. Depending on it would add a locked dependency (and ``six``) to
the environment of every stage for two formulas of a few lines each.
"""

from __future__ import annotations

import numpy as np

from ._validation import check_prior, check_pu_indicator, check_vector

__all__ = [
    "PURiskScorer",
    "lee_liu_criterion",
    "pu_recall2_scorer",
    "make_pu_risk_scorer",
    "pu_unbiased_risk",
]

_LOSSES = ("zero-one", "sigmoid")


def lee_liu_criterion(s, pred) -> float:
    """``recall^2 / Pr[f = +1]`` of Lee & Liu (2003) from the PU indicator and predictions.

    Parameters
    ----------
    s : array-like of shape (n,)
        PU indicator (1 / True = labelled positive, 0 = unlabelled).
    pred : array-like of shape (n,)
        Predicted classes: bool (True = +1) or labels in ``{-1, +1}`` / ``{0, 1}``.

    Returns
    -------
    float
        ``recall^2 / Pr[pred = +1]`` with ``recall`` the share of labelled positives predicted
        positive and ``Pr`` over all rows; 0 when nothing is predicted positive; ``nan``
        when ``s`` has no labelled positive.
    """
    s = np.asarray(s).astype(bool)
    pred = np.asarray(pred)
    if pred.dtype != bool:
        pred = pred > 0
    if not s.any():
        return float("nan")
    rec = pred[s].mean()
    pr = pred.mean()
    return float(rec * rec / pr if pr > 0 else 0.0)


def pu_recall2_scorer(estimator, X, s) -> float:
    """Scorer ``(estimator, X, s) -> recall^2 / Pr[f = +1]`` (higher is better).

    ``scoring=pu_recall2_scorer`` in ``cross_val_score`` / ``GridSearchCV`` on ``(X, s)``.
    Needs no class prior.
    """
    s = check_pu_indicator(s, "s")
    return lee_liu_criterion(s, np.asarray(estimator.predict(X)) > 0)


def _losses(f, loss):
    """``(l(f), l(-f))``: the loss of calling a row positive / negative, margin ``f``."""
    if loss == "zero-one":
        # predict() says +1 where f >= 0: a positive is misclassified where f < 0, a
        # negative where f >= 0
        return (f < 0).astype(np.float64), (f >= 0).astype(np.float64)
    if loss == "sigmoid":
        return 1.0 / (1.0 + np.exp(f)), 1.0 / (1.0 + np.exp(-f))
    raise ValueError(f"loss must be one of {list(_LOSSES)}, got {loss!r}.")


def pu_unbiased_risk(s, f, prior, loss: str = "zero-one") -> float:
    """The unbiased PU risk ``prior E_P[l(f)] - prior E_P[l(-f)] + E_U[l(-f)]``.

    Parameters
    ----------
    s : array-like of shape (n,)
        PU indicator (1 = labelled positive, 0 = unlabelled); both values must occur.
    f : array-like of shape (n,)
        Margins ``decision_function(X)`` (``>= 0`` is the positive class).
    prior : float
        Class prior ``Pr[y = +1]`` of the unlabelled rows, in (0, 1).
    loss : {"zero-one", "sigmoid"}, default="zero-one"
        ``zero-one``: the estimate of the error rate; ``sigmoid``: ``1 / (1 + exp(z))``.

    Returns
    -------
    float
        The risk estimate (lower is better; it can be slightly negative on small samples).
    """
    s = check_pu_indicator(s, "s")
    f = check_vector(f, "f", n=s.shape[0])
    prior = check_prior(prior, "prior")
    lp, ln = _losses(f, loss)
    return float(prior * lp[s].mean() - prior * ln[s].mean() + ln[~s].mean())


class PURiskScorer:
    """Scorer ``(estimator, X, s) -> -pu_unbiased_risk`` (higher is better).

    Parameters
    ----------
    prior : float or None, default=None
        Class prior; ``None`` takes the ``prior`` parameter of the scored estimator (an
        error if it has none or it is not set).
    loss : {"zero-one", "sigmoid"}, default="zero-one"
    """

    def __init__(self, prior=None, loss: str = "zero-one"):
        if loss not in _LOSSES:
            raise ValueError(f"loss must be one of {list(_LOSSES)}, got {loss!r}.")
        self.prior = None if prior is None else check_prior(prior, "prior")
        self.loss = loss

    def __call__(self, estimator, X, s) -> float:
        prior = self.prior
        if prior is None:
            prior = estimator.get_params().get("prior")
            if prior is None:
                raise ValueError(
                    f"the PU risk scorer needs a class prior: pass "
                    f"make_pu_risk_scorer(prior=...) or set {type(estimator).__name__}'s "
                    "prior.")
        return -pu_unbiased_risk(s, estimator.decision_function(X), prior, self.loss)

    def __repr__(self):
        return f"make_pu_risk_scorer(prior={self.prior!r}, loss={self.loss!r})"


def make_pu_risk_scorer(prior=None, loss: str = "zero-one") -> PURiskScorer:
    """A scorer of the negative unbiased PU risk, for ``scoring=`` on ``(X, s)``.

    ``prior=None`` takes the scored estimator's own ``prior`` (see :class:`PURiskScorer`).
    """
    return PURiskScorer(prior, loss)
