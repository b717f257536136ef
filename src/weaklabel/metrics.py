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
:func:`pu_proxy_accuracy`, :func:`make_pu_accuracy_scorer`
    Proxy accuracy ``2 prior TPR_L + NR_U - prior``: an unbiased estimate of the accuracy
    on the distribution of the unlabelled rows from ``(X, s)`` and the class prior (the
    derivation is in :func:`pu_proxy_accuracy`). The recent PU benchmarks select with
    ``2 prior TPR_L + NR_U``, which ranks models identically (the constant ``-prior`` is
    dropped there).
:func:`pu_proxy_auc`, :func:`pu_corrected_auc`, :func:`pu_auc_scorer`
    Proxy AUC: the AUC of the scores of the labelled positives against the unlabelled rows;
    under SCAR it is ``prior / 2 + (1 - prior) AUC`` (``AUC`` against the true labels), an
    increasing function of the true AUC, so it ranks models as the true AUC would without
    the prior; :func:`pu_corrected_auc` inverts the relation when the prior is known. It
    judges the ranking only, not the threshold of ``predict``: on the synthetic problem of
    tests/test_metrics_pu_selection.py it chose a DoubleHingePU of true AUC 0.952 (best of
    the grid 0.954) whose accuracy was 0.60 (best 0.88).

Setting of every criterion here: the labelled positives are a sample of the positive class
(SCAR), the unlabelled rows a sample of the marginal ``prior p(x | y=+1) + (1 - prior)
p(x | y=-1)`` ("case-control"), ``prior`` being the positive share of the *unlabelled*
rows. When ``s`` comes from labelling a random fraction of the positives of one data set
("single training set"), the unlabelled rows are such a sample with the positive share
``(n_pos - n_labelled) / n_unlabelled``, lower than the data set's positive share; that is
the prior to pass (:func:`weaklabel.prior.estimate_prior` estimates it as ``.prior``).

Why not ``pulearn`` (PyPI, 0.2.0, read for this module): its ``lee_liu_score`` is the same
formula on thresholded predictions, and its ``pu_unbiased_risk`` supports only the logistic
loss on *probability* scores in (0, 1), whereas the estimators here output margins
(``decision_function``) without probabilities, and model selection wants the zero-one or
sigmoid loss on the margin. Depending on it would add a locked dependency (and ``six``) to
the environment of every stage for two formulas of a few lines each.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from ._validation import check_prior, check_pu_indicator, check_vector

__all__ = [
    "PUAccuracyScorer",
    "PURiskScorer",
    "lee_liu_criterion",
    "make_pu_accuracy_scorer",
    "make_pu_risk_scorer",
    "pu_auc_scorer",
    "pu_corrected_auc",
    "pu_proxy_accuracy",
    "pu_proxy_auc",
    "pu_recall2_scorer",
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


def _scorer_prior(prior, estimator, what: str, maker: str) -> float:
    """The scorer's own prior, else the scored estimator's ``prior`` parameter."""
    if prior is not None:
        return prior
    own = estimator.get_params().get("prior") if hasattr(estimator, "get_params") else None
    if own is None:
        raise ValueError(
            f"the {what} scorer needs a class prior: pass {maker}(prior=...) or set "
            f"{type(estimator).__name__}'s prior.")
    return check_prior(own, "prior")


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
        prior = _scorer_prior(self.prior, estimator, "PU risk", "make_pu_risk_scorer")
        return -pu_unbiased_risk(s, estimator.decision_function(X), prior, self.loss)

    def __repr__(self):
        return f"make_pu_risk_scorer(prior={self.prior!r}, loss={self.loss!r})"


def make_pu_risk_scorer(prior=None, loss: str = "zero-one") -> PURiskScorer:
    """A scorer of the negative unbiased PU risk, for ``scoring=`` on ``(X, s)``.

    ``prior=None`` takes the scored estimator's own ``prior`` (see :class:`PURiskScorer`).
    """
    return PURiskScorer(prior, loss)


def _as_pred(pred, name: str, n: int):
    """Predicted classes as bool (True = +1) from bool, ``{-1, +1}`` or ``{0, 1}``."""
    a = np.asarray(pred)
    if a.dtype == bool:
        a = check_vector(a, name, n=n, dtype=bool)
        return a
    a = check_vector(a, name, n=n)
    vals = set(np.unique(a).tolist())
    if not (vals <= {-1.0, 1.0} or vals <= {0.0, 1.0}):
        raise ValueError(
            f"{name} must hold predicted classes (bool, {{-1, +1}} or {{0, 1}}), got values "
            f"{sorted(vals)[:5]}; pass predict(X), not decision_function(X).")
    return a > 0


def pu_proxy_accuracy(s, pred, prior) -> float:
    """Unbiased estimate of the accuracy from the PU indicator, predictions and class prior.

    Derivation (SCAR, case-control; see the module docstring for the setting). Let
    ``TPR = Pr[f = +1 | y = +1]``, ``TNR = Pr[f = -1 | y = -1]`` and ``pi`` the class prior
    of the unlabelled rows, which are a sample of ``pi p(x | +1) + (1 - pi) p(x | -1)``. The
    accuracy on that distribution is ``acc = pi TPR + (1 - pi) TNR``. Two rates are
    observable on ``(X, s)``:

    - ``TPR_L``, the share of labelled positives predicted ``+1``: the labelled positives
      are a sample of ``p(x | +1)``, so ``E[TPR_L] = TPR``;
    - ``NR_U``, the share of unlabelled rows predicted ``-1``:
      ``E[NR_U] = pi (1 - TPR) + (1 - pi) TNR``.

    Hence ``(1 - pi) TNR = E[NR_U] - pi + pi TPR`` and

    ``acc = pi TPR + (1 - pi) TNR = 2 pi TPR + E[NR_U] - pi``,

    so ``2 pi TPR_L + NR_U - pi`` is an unbiased estimate of ``acc`` (a linear combination
    of two unbiased sample means). It is not a rate: on a finite sample it can fall
    outside [0, 1]. A wrong ``prior`` biases it by ``(prior - pi) (2 TPR - 1)``.

    Parameters
    ----------
    s : array-like of shape (n,)
        PU indicator (1 = labelled positive, 0 = unlabelled); both values must occur.
    pred : array-like of shape (n,)
        Predicted classes: bool (True = +1) or labels in ``{-1, +1}`` / ``{0, 1}``.
    prior : float
        Class prior ``Pr[y = +1]`` of the unlabelled rows, in (0, 1).

    Returns
    -------
    float
        The estimate of the accuracy (higher is better).
    """
    s = check_pu_indicator(s, "s")
    pred = _as_pred(pred, "pred", s.shape[0])
    prior = check_prior(prior, "prior")
    tpr_l = float(pred[s].mean())
    nr_u = float((~pred[~s]).mean())
    return 2.0 * prior * tpr_l + nr_u - prior


class PUAccuracyScorer:
    """Scorer ``(estimator, X, s) -> pu_proxy_accuracy`` (higher is better).

    Parameters
    ----------
    prior : float or None, default=None
        Class prior of the unlabelled rows; ``None`` takes the ``prior`` parameter of the
        scored estimator (an error if it has none or it is not set).
    """

    def __init__(self, prior=None):
        self.prior = None if prior is None else check_prior(prior, "prior")

    def __call__(self, estimator, X, s) -> float:
        prior = _scorer_prior(self.prior, estimator, "proxy accuracy",
                              "make_pu_accuracy_scorer")
        return pu_proxy_accuracy(s, np.asarray(estimator.predict(X)) > 0, prior)

    def __repr__(self):
        return f"make_pu_accuracy_scorer(prior={self.prior!r})"


def make_pu_accuracy_scorer(prior=None) -> PUAccuracyScorer:
    """A scorer of the proxy accuracy, for ``scoring=`` on ``(X, s)``.

    ``prior=None`` takes the scored estimator's own ``prior`` (see
    :class:`PUAccuracyScorer`).
    """
    return PUAccuracyScorer(prior)


def pu_proxy_auc(s, scores) -> float:
    """AUC of the scores of the labelled positives against the unlabelled rows.

    ``AUC_PU = Pr[g(x_L) > g(x_U)] + Pr[g(x_L) = g(x_U)] / 2`` for a labelled positive
    ``x_L`` and an unlabelled row ``x_U`` (the Mann-Whitney statistic from mid-ranks, ties
    counted half; equal to :func:`sklearn.metrics.roc_auc_score` of ``s``).

    Relation to the true AUC (SCAR, case-control; ``pi`` the class prior of the unlabelled
    rows). ``x_U`` is a positive with probability ``pi`` and a negative otherwise, so

    ``AUC_PU = pi A(P, P) + (1 - pi) A(P, N)``,

    with ``A(P, N) = AUC`` the true AUC and ``A(P, P)`` the AUC of two independent draws of
    the positive class, which is exactly ``1/2`` (by symmetry, ties counted half). Hence
    ``AUC_PU = pi / 2 + (1 - pi) AUC``: increasing in the true AUC for every ``pi < 1``, so
    it ranks score functions as the true AUC does without the prior (as expected values;
    the sample estimate of ``AUC_PU`` is unbiased). Jain, White & Radivojac, "Recovering
    true classifier performance in positive-unlabeled learning" (AAAI 2017), correct the
    ROC curve and its AUC with the class prior in this way; the derivation above is ours.

    Parameters
    ----------
    s : array-like of shape (n,)
        PU indicator (1 = labelled positive, 0 = unlabelled); both values must occur.
    scores : array-like of shape (n,)
        Real scores, higher = more positive (``decision_function(X)`` or the positive-class
        probability).

    Returns
    -------
    float
        ``AUC_PU`` in [0, 1].
    """
    s = check_pu_indicator(s, "s")
    scores = check_vector(scores, "scores", n=s.shape[0])
    n_l = int(s.sum())
    n_u = s.shape[0] - n_l
    rank_sum = float(rankdata(scores)[s].sum())
    return (rank_sum - n_l * (n_l + 1) / 2.0) / (n_l * n_u)


def pu_corrected_auc(s, scores, prior) -> float:
    """Estimate of the true AUC: ``(AUC_PU - prior / 2) / (1 - prior)``.

    Inverts ``AUC_PU = prior / 2 + (1 - prior) AUC`` (:func:`pu_proxy_auc`); unbiased at
    the true class prior of the unlabelled rows, not clipped (it can leave [0, 1] on a
    small sample). For model selection it ranks as :func:`pu_proxy_auc`.

    Parameters
    ----------
    s, scores : see :func:`pu_proxy_auc`.
    prior : float
        Class prior ``Pr[y = +1]`` of the unlabelled rows, in (0, 1).
    """
    prior = check_prior(prior, "prior")
    return (pu_proxy_auc(s, scores) - prior / 2.0) / (1.0 - prior)


def _scores(estimator, X):
    """``decision_function(X)``, else the positive-class column of ``predict_proba(X)``."""
    if hasattr(estimator, "decision_function"):
        return np.asarray(estimator.decision_function(X))
    if hasattr(estimator, "predict_proba"):
        proba = np.asarray(estimator.predict_proba(X))
        return proba[:, -1]
    raise TypeError(
        f"estimator {type(estimator).__name__} has neither decision_function nor "
        "predict_proba: the proxy AUC needs real-valued scores.")


def pu_auc_scorer(estimator, X, s) -> float:
    """Scorer ``(estimator, X, s) -> pu_proxy_auc`` (higher is better).

    ``scoring=pu_auc_scorer`` in ``cross_val_score`` / ``GridSearchCV`` on ``(X, s)``. Needs
    no class prior. Scores with ``decision_function``, else ``predict_proba[:, -1]``.
    """
    return pu_proxy_auc(s, _scores(estimator, X))
