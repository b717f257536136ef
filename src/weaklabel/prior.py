"""Class-prior estimation from PU data ``(X, s)``: Elkan & Noto (KDD 2008), estimator e1.

Every PU estimator of the package needs the class prior ``prior`` and has no default
(:func:`weaklabel.models._base.require_prior`). :func:`estimate_prior` estimates it with the
first estimator of Elkan & Noto, "Learning classifiers from only positive and unlabeled
data" (KDD 2008): fit a probabilistic classifier ``g(x) ~ Pr[s = 1 | x]`` of labelled vs
unlabelled on part of the data, take ``c = mean g(x)`` over the held-out labelled
positives (their ``e1``) and turn ``c`` into the prior.

Which prior. The PU estimators here treat the unlabelled rows as a sample of the marginal
``pi p(x | y=+1) + (1 - pi) p(x | y=-1)`` and the labelled rows as a sample of the positive
class ("case-control" sampling; the objective ``pi/p sum_P ... + 1/n sum_U ...`` of
:class:`weaklabel.models.DoubleHingePU`, Eq. (4) of the USMO paper; its digest: "Unlabeled
set drawn from the marginal"), so their ``prior`` is the positive share ``pi`` of the
*unlabelled* rows. :attr:`PriorEstimate.prior` estimates that share; the same formula
holds in both sampling settings:

- case-control: ``n_l`` labelled positives and ``n_u`` unlabelled rows from the marginal.
  In the pooled sample ``Pr[s = 1 | x] = n_l p(x|+) / (n_l p(x|+) + n_u p(x))``; where
  ``p(x|-) = 0`` (the assumption of e1: ``g`` equals ``c`` on the positives) this is
  ``c = n_l / (n_l + n_u pi)``, so ``pi = n_l (1 - c) / (c n_u)``;
- single training set (SCAR): each positive of one data set is labelled with probability
  ``c = Pr[s = 1 | y = +1]`` (Elkan & Noto's ``c``); then ``n_l ~ c N_+`` and the
  unlabelled positives number ``N_+ - n_l ~ n_l (1 - c) / c``, so their share of the
  ``n_u`` unlabelled rows is again ``n_l (1 - c) / (c n_u)``.

:attr:`PriorEstimate.prior_all` is Elkan & Noto's ``Pr[y = +1] = n_l / (c n)`` over all
``n = n_l + n_u`` rows (the positive share of the whole data set in the single-set setting;
``(n_l + pi n_u) / n`` in the case-control one). The USMO experiments pass the whole data
set's positive share (``prior_all``'s target), not the share of the unlabelled rows.

Bias. ``e1`` assumes ``g(x) = c`` on every positive, i.e. the classes do not overlap and
``g`` is calibrated. Where they overlap, ``g`` is below ``c`` on part of the positives, so
``c`` is underestimated and the prior overestimated. A logistic ``g`` (the default) also
cannot level off at ``c`` on the positives: on two Gaussian classes 6 standard deviations
apart, in 12 runs (case-control with prior 0.3 and n = 6000, single set with prior 0.4,
c = 0.3 / 0.5 and n = 10000; different seeds), its estimates of the prior of the
unlabelled rows were 0.006 to 0.066 above the truth.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression

from ._validation import check_matrix, check_pu_indicator, check_random_state

__all__ = ["PriorEstimate", "estimate_prior"]


@dataclass(frozen=True)
class PriorEstimate:
    """Result of :func:`estimate_prior`; ``float(result)`` is :attr:`prior`.

    Attributes
    ----------
    prior : float
        Estimated class prior of the unlabelled rows, ``n_l (1 - c) / (c n_u)``, clipped
        into ``[1 / (n_u + 1), n_u / (n_u + 1)]`` (the value to pass as ``prior=``).
    prior_raw : float
        The same before clipping (``inf`` when ``c = 0``).
    prior_all : float
        Elkan & Noto's ``n_l / (c n)``: the positive share of all ``n`` rows, not clipped.
    c : float
        Estimated label frequency ``Pr[s = 1 | y = +1]``: mean of ``g`` on the held-out
        labelled positives (e1).
    n_labelled, n_unlabelled : int
        ``n_l`` and ``n_u`` of ``(X, s)``.
    n_holdout_labelled : int
        Labelled positives ``c`` was averaged over.
    clipped : bool
        Whether ``prior`` differs from ``prior_raw``.
    method : str
        ``"elkan-noto-e1"``.
    """

    prior: float
    prior_raw: float
    prior_all: float
    c: float
    n_labelled: int
    n_unlabelled: int
    n_holdout_labelled: int
    clipped: bool
    method: str = "elkan-noto-e1"

    def __float__(self) -> float:
        return float(self.prior)


def _check_holdout(holdout) -> float:
    if isinstance(holdout, bool) or not isinstance(holdout, numbers.Real):
        raise TypeError(
            f"holdout must be a real number in (0, 1) (the share of rows held out to "
            f"estimate c), got {type(holdout).__name__}.")
    h = float(holdout)
    if not (0.0 < h < 1.0):
        raise ValueError(
            f"holdout must lie strictly between 0 and 1 (the share of rows held out to "
            f"estimate c), got {holdout}.")
    return h


def _split(s, holdout, rng):
    """Stratified split: ``holdout`` of the labelled and of the unlabelled rows held out."""
    hold = np.zeros(s.shape[0], dtype=bool)
    for value in (True, False):
        idx = np.flatnonzero(s == value)
        k = int(round(holdout * idx.size))
        if value:
            k = min(max(k, 1), idx.size - 1)  # >= 1 to average over, >= 1 left to fit
        else:
            k = min(k, idx.size - 1)  # >= 1 unlabelled row left to fit
        hold[rng.permutation(idx)[:k]] = True
    return hold


def estimate_prior(X, s, *, estimator=None, holdout=0.2, random_state=None) -> PriorEstimate:
    """Class prior of PU data by Elkan & Noto's estimator e1 (see the module docstring).

    Parameters
    ----------
    X : array-like of shape (n, d)
    s : array-like of shape (n,)
        PU indicator (1 = labelled positive, 0 = unlabelled); at least 2 labelled positives
        (one to fit ``g``, one to average it over).
    estimator : scikit-learn classifier with ``predict_proba`` or None, default=None
        The classifier ``g`` of ``s`` (cloned, fitted on the rows not held out). ``None``:
        ``LogisticRegression(max_iter=1000)``. e1 needs calibrated probabilities.
    holdout : float, default=0.2
        Share of the labelled and of the unlabelled rows held out (stratified by ``s``);
        ``c`` is the mean of ``g`` over the held-out labelled positives.
    random_state : int, numpy Generator or None, default=None
        Seed of the split.

    Returns
    -------
    PriorEstimate
        ``.prior`` (the prior of the unlabelled rows, for ``prior=``), ``.c``,
        ``.prior_all`` and the counts. A warning is issued when the raw estimate falls
        outside (0, 1) and is clipped.
    """
    X = check_matrix(X, "X", min_rows=3)
    s = check_pu_indicator(s, "s", n=X.shape[0])
    holdout = _check_holdout(holdout)
    rng = np.random.default_rng(check_random_state(random_state))
    if estimator is None:
        estimator = LogisticRegression(max_iter=1000)
    if not (hasattr(estimator, "fit") and hasattr(estimator, "predict_proba")):
        raise TypeError(
            f"estimator must be a scikit-learn classifier with fit and predict_proba "
            f"(calibrated probabilities of s = 1), got {type(estimator).__name__}.")
    n_l = int(s.sum())
    n_u = int(s.size - n_l)
    if n_l < 2:
        raise ValueError(
            f"s has {n_l} labelled positive(s): estimate_prior needs at least 2, one to fit "
            "the classifier of s and one held out to estimate c.")
    hold = _split(s, holdout, rng)
    g = clone(estimator).fit(X[~hold], s[~hold].astype(int))
    classes = list(getattr(g, "classes_", [0, 1]))
    if 1 not in classes:
        raise ValueError(
            f"estimator's classes_ are {classes}: it must be fitted on the 0/1 indicator s.")
    proba = np.asarray(g.predict_proba(X[hold & s]))[:, classes.index(1)]
    c = float(np.mean(proba))
    if c > 0:
        prior_raw = n_l * (1.0 - c) / (c * n_u)
        prior_all = n_l / (c * (n_l + n_u))
    else:
        prior_raw = prior_all = float("inf")
    lo, hi = 1.0 / (n_u + 1), n_u / (n_u + 1.0)
    prior = float(min(max(prior_raw, lo), hi))
    clipped = prior != prior_raw
    if clipped:
        warnings.warn(
            f"estimate_prior: the Elkan-Noto estimate c = {c:.4g} gives a prior of the "
            f"unlabelled rows of {prior_raw:.4g}, outside (0, 1); clipped to {prior:.4g}. "
            "The classifier of s is not calibrated on the labelled positives, or s is not "
            "a random sample of the positives.", UserWarning, stacklevel=2)
    return PriorEstimate(prior=prior, prior_raw=float(prior_raw), prior_all=float(prior_all),
                         c=c, n_labelled=n_l, n_unlabelled=n_u,
                         n_holdout_labelled=int((hold & s).sum()), clipped=bool(clipped))
