"""``prior="estimate"`` for the PU estimators: check the parameter before the data are seen,
and at fit take the class prior as given or estimate it (:func:`weaklabel.prior.estimate_prior`).

Kept apart from :mod:`weaklabel.models._base` on purpose: only the PU estimators import it,
so the stages of the other settings do not depend on it.
"""

from __future__ import annotations

from ._base import require_prior

__all__ = ["PRIOR_ESTIMATE", "check_pu_prior", "fit_pu_prior"]


#: The value of ``prior`` that makes a PU estimator estimate the class prior at fit.
PRIOR_ESTIMATE = "estimate"


def check_pu_prior(prior, owner: str):
    """``prior`` of a PU estimator before the data are seen: a number in (0, 1) (returned as
    a float) or ``"estimate"`` (returned as is); ``None`` and other strings are errors
    naming ``prior`` (:func:`require_prior`)."""
    if isinstance(prior, str):
        if prior == PRIOR_ESTIMATE:
            return prior
        raise ValueError(f"{owner}: prior must be a number in (0, 1) or 'estimate', got "
                         f"{prior!r}.")
    return require_prior(prior, "prior", owner)


def fit_pu_prior(est, prior, X, s, *, share: str = "unlabelled") -> float:
    """The class prior of this fit; sets ``est.prior_`` and ``est.prior_estimate_``.

    ``prior`` is what :func:`check_pu_prior` returned. A number is used as given
    (``prior_estimate_ = None``). ``"estimate"`` runs
    :func:`weaklabel.prior.estimate_prior` (Elkan & Noto's e1 with its default logistic
    classifier of ``s``; the held-out split drawn with the estimator's ``random_state``
    where it has one, else with seed 0) on ``(X, s)``, stores its
    :class:`~weaklabel.prior.PriorEstimate` in ``prior_estimate_`` and takes from it the
    share the estimator's ``prior`` means: ``share="unlabelled"``, the positive share of the
    unlabelled rows (``.prior``: the PU-risk estimators, whose objective treats the
    unlabelled rows as a sample of the marginal); ``share="all"``, the positive share of all
    training rows (``.prior_all``, clipped into ``[1/(n+1), n/(n+1)]``: the class-balance
    ratio ``r`` of the MCLS paper's estimators).
    """
    if share not in ("unlabelled", "all"):
        raise ValueError(f"share must be 'unlabelled' or 'all', got {share!r}.")
    if isinstance(prior, str):
        from ..prior import estimate_prior

        seed = getattr(est, "random_state", 0)
        r = estimate_prior(X, s, random_state=seed)
        if share == "unlabelled":
            value = r.prior
        else:
            n = r.n_labelled + r.n_unlabelled
            value = min(max(r.prior_all, 1.0 / (n + 1)), n / (n + 1.0))
        est.prior_estimate_ = r
    else:
        value, est.prior_estimate_ = prior, None
    est.prior_ = float(value)
    return est.prior_
