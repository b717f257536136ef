"""PU baselines a researcher would use instead of the papers' methods: the unbiased and the
non-negative PU risk, and the biased SVM.

- :class:`UPU` -- minimises the unbiased PU risk of du Plessis, Niu & Sugiyama (NIPS 2014,
  ICML 2015) with the sigmoid loss;
- :class:`NNPU` -- minimises the non-negative PU risk of Kiryo, Niu, du Plessis & Sugiyama
  (NIPS 2017), whose estimate of the negative-class risk is kept from going below zero;
- :class:`BiasedSVM` -- the "biased SVM" of Liu, Dai, Li, Lee & Yu (ICDM 2003): a C-SVM
  that treats every unlabelled row as a negative, with a larger cost on the labelled
  positives (scikit-learn's ``SVC`` with class weights).

Input convention (the whole package): ``fit(X, s)`` with ``s = 1`` for a labelled positive
and ``s = 0`` for an unlabelled row; predictions are ``+1`` / ``-1``.

The risks (``pi`` = ``prior``, the positive share of the unlabelled rows; ``l(z) = 1 / (1 +
exp(z))`` the sigmoid loss of the margin ``z``; ``E_P`` a mean over the labelled positives,
``E_U`` over the unlabelled rows)::

    R_p^+(f) = pi E_P[l(f)]                     positive-class risk
    R_n^-(f) = E_U[l(-f)] - pi E_P[l(-f)]       estimate of the negative-class risk
    uPU:   R_p^+ + R_n^-                        (unbiased; R_n^- can go below 0)
    nnPU:  R_p^+ + max(0, R_n^-)                (Kiryo et al., Eq. (6))

``R_n^-`` estimates ``(1 - pi) E_-[l(-f)] >= 0``; a flexible model drives the unbiased
estimate below zero on the training rows (it overfits the labelled positives), which is what
nnPU prevents. Both estimators share one optimiser (Adam, Kingma & Ba 2015, on the whole
training set at every step, as Kiryo et al. train with Adam): uPU steps along the gradient
of its risk; nnPU follows Kiryo et al.'s Algorithm 1 with a single batch: where ``R_n^- >=
-beta`` it steps along the gradient of the uPU risk, otherwise along the gradient of
``-R_n^-`` with the step size multiplied by ``gamma``. While ``R_n^-`` stays at or above
``-beta``, nnPU therefore takes exactly uPU's steps and returns uPU's model.

Models: ``kernel="linear"``, ``f(x) = <w, x> + b`` (linear in the features); a Gaussian or
polynomial kernel, ``f(x) = sum_j alpha_j k(x, c_j) + b`` over ``n_basis`` centres ``c_j``
drawn (without replacement, by ``random_state``) from the training rows (all rows when there
are at most ``n_basis``). The
regulariser is ``lam ||w||^2`` (linear) or ``lam alpha' K_cc alpha`` (the RKHS norm of the
kernel expansion); the bias is not penalised.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from scipy.special import expit
from sklearn.svm import SVC

from .._validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_positive,
)
from ..kernels import gram
from ._base import KernelParamsMixin, PUClassifier
from ._prior import check_pu_prior, fit_pu_prior

__all__ = ["NNPU", "UPU", "BiasedSVM"]

_ONE_CLASS_HINT = (
    "the regularisation lam, the kernel width sigma or the prior probably does not suit "
    "the data (select them with a scorer of weaklabel.metrics).")
_BETA1, _BETA2, _EPS = 0.9, 0.999, 1e-8  # Adam's constants (Kingma & Ba 2015)


def _sigmoid_loss(z):
    """``l(z) = 1 / (1 + exp(z))`` and its derivative ``-l(z) (1 - l(z))``."""
    v = expit(-z)
    return v, -v * (1.0 - v)


class _PURiskClassifier(KernelParamsMixin, PUClassifier):
    """Shared fit of :class:`UPU` and :class:`NNPU` (see the module docstring)."""

    _nonnegative = False

    def _beta_gamma(self):
        return 0.0, 1.0

    def _features(self, X):
        if self.centres_ is None:
            return X
        return gram(X, self.centres_, self.kernel_)

    def _fit(self, X, s):
        prior = check_pu_prior(self.prior, type(self).__name__)
        lam = check_positive(self.lam, "lam", allow_zero=True)
        lr = check_positive(self.learning_rate, "learning_rate")
        max_iter = check_int(self.max_iter, "max_iter", minimum=1)
        tol = check_positive(self.tol, "tol", allow_zero=True)
        n_no_change = check_int(self.n_iter_no_change, "n_iter_no_change", minimum=1)
        beta, gamma = self._beta_gamma()
        X, s = self._validate_pu(X, s)
        prior = fit_pu_prior(self, prior, X, s)
        rng = np.random.default_rng(self.random_state)
        n_basis = check_int(self.n_basis, "n_basis", minimum=1)
        k = self._kernel(X)
        if k.name != "linear":
            self.kernel_ = k
            idx = np.arange(X.shape[0]) if X.shape[0] <= n_basis else np.sort(
                rng.choice(X.shape[0], n_basis, replace=False))
            self.centres_ = np.ascontiguousarray(X[idx])
            Kcc = gram(self.centres_, self.centres_, self.kernel_)
        else:
            self.kernel_, self.centres_ = None, None
            Kcc = None
        Phi = self._features(X)
        PhiP, PhiU = Phi[s], Phi[~s]
        m = Phi.shape[1]
        theta = np.zeros(m + 1)  # weights, then the bias
        mom, vel = np.zeros(m + 1), np.zeros(m + 1)

        def penalty(w):
            if Kcc is None:
                return float(w @ w), 2.0 * w
            Kw = Kcc @ w
            return float(w @ Kw), 2.0 * Kw

        def evaluate(th):
            w, b = th[:m], th[m]
            fP, fU = PhiP @ w + b, PhiU @ w + b
            lpp, dpp = _sigmoid_loss(fP)
            lpn, dpn = _sigmoid_loss(-fP)
            lun, dun = _sigmoid_loss(-fU)
            r_pos = prior * float(np.mean(lpp))
            r_neg = float(np.mean(lun)) - prior * float(np.mean(lpn))
            # derivatives w.r.t. f of each row: d l(f)/df = dpp, d l(-f)/df = -dpn / -dun
            dpos = prior * dpp / fP.size
            dnegP = prior * dpn / fP.size
            dnegU = -dun / fU.size
            g_pos = np.r_[PhiP.T @ dpos, dpos.sum()]
            g_neg = np.r_[PhiP.T @ dnegP + PhiU.T @ dnegU, dnegP.sum() + dnegU.sum()]
            pen, g_pen = penalty(w)
            return r_pos, r_neg, g_pos, g_neg, lam * pen, np.r_[lam * g_pen, 0.0]

        t0 = time.perf_counter()
        history = []
        best, stall, converged, n_corrections = np.inf, 0, False, 0
        for it in range(1, max_iter + 1):
            r_pos, r_neg, g_pos, g_neg, pen, g_pen = evaluate(theta)
            obj = r_pos + (max(0.0, r_neg) if self._nonnegative else r_neg) + pen
            history.append((r_pos, r_neg, obj))
            if self._nonnegative and r_neg < -beta:
                grad, step = -g_neg + g_pen, lr * gamma
                n_corrections += 1
            else:
                grad, step = g_pos + g_neg + g_pen, lr
            mom = _BETA1 * mom + (1.0 - _BETA1) * grad
            vel = _BETA2 * vel + (1.0 - _BETA2) * grad * grad
            mh = mom / (1.0 - _BETA1 ** it)
            vh = vel / (1.0 - _BETA2 ** it)
            theta = theta - step * mh / (np.sqrt(vh) + _EPS)
            if self.verbose and (it == 1 or it % 100 == 0):
                print(f"{type(self).__name__}: iteration {it}: objective {obj:.6g}, "
                      f"R_p^+ {r_pos:.4g}, R_n^- {r_neg:.4g}")
            if obj < best - tol:
                best, stall = obj, 0
            else:
                stall += 1
                if stall >= n_no_change:
                    converged = True
                    break
        r_pos, r_neg, _, _, pen, _ = evaluate(theta)
        obj = r_pos + (max(0.0, r_neg) if self._nonnegative else r_neg) + pen
        history.append((r_pos, r_neg, obj))
        self.fit_seconds_ = time.perf_counter() - t0
        if not converged:
            warnings.warn(
                f"{type(self).__name__} did not converge: the objective still decreased by "
                f"more than tol={tol:g} within the last n_iter_no_change={n_no_change} of "
                f"max_iter={max_iter} iterations; increase max_iter or learning_rate.",
                ConvergenceWarning, stacklevel=3)
        self.coef_, self.intercept_ = theta[:m].copy(), float(theta[m])
        self.n_iter_, self.converged_ = it, converged
        self.history_ = np.asarray(history)
        self.positive_risk_, self.negative_risk_, self.objective_ = r_pos, r_neg, obj
        self.n_corrections_ = n_corrections
        self.n_features_in_ = X.shape[1]
        if self.verbose:
            print(f"{type(self).__name__}: {it} iterations in {self.fit_seconds_:.3g} s, "
                  f"R_p^+ {r_pos:.4g}, R_n^- {r_neg:.4g}, converged={converged}")
        self._warn_if_one_class(PhiU @ self.coef_ + self.intercept_, _ONE_CLASS_HINT)
        return self


    def fit(self, X, s):
        """Fit on ``X`` with the PU indicator ``s`` (1 = labelled positive, 0 = unlabelled).

        Returns
        -------
        self
        """
        return self._fit(X, s)

    def decision_function(self, X):
        """``f(x)`` of the fitted model (see ``kernel``)."""
        X = self._check_X(X)
        return self._features(X) @ self.coef_ + self.intercept_


_COMMON_PARAMS = """
    prior : float or "estimate", required
        Class prior ``pi``: the positive share of the unlabelled rows, in (0, 1). ``None``
        raises ``ValueError`` (no silent default). ``"estimate"``: estimated at fit by
        Elkan & Noto's e1 (:func:`weaklabel.models._prior.fit_pu_prior`).
    kernel : {"linear", "gaussian", "polynomial"}, default="linear"
        ``"linear"``: the linear model ``f(x) = <w, x> + b``; otherwise a kernel expansion
        over ``n_basis`` centres (``"rbf"`` / ``"poly"`` are aliases).
    sigma : float or "scale", default="scale"
        Gaussian width, ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))``; ``"scale"``:
        ``sqrt(n_features * X.var() / 2)`` (scikit-learn's ``gamma="scale"``).
    degree : int, default=3
        Degree of the polynomial kernel ``(<x, y> + coef0)^degree``.
    coef0 : float, default=1.0
        Offset of the polynomial kernel.
    n_basis : int, default=200
        Centres of the kernel expansion (a random subsample of the training rows).
    lam : float, default=1e-3
        Weight ``>= 0`` of the regulariser (``||w||^2`` or ``alpha' K_cc alpha``).
    learning_rate : float, default=0.05
        Adam's step size.
    max_iter : int, default=1000
        Cap on the optimiser's steps (each on the whole training set).
    tol : float, default=1e-5
        The fit stops when the objective has not decreased by more than ``tol`` for
        ``n_iter_no_change`` consecutive steps.
    n_iter_no_change : int, default=20
        See ``tol``.
    random_state : int, Generator or None, default=None
        Draws the centres of the kernel expansion (unused by the linear model).
    verbose : bool, default=False
        Print the objective and both risks every 100 steps and a summary."""

_COMMON_ATTRIBUTES = """
    coef_ : ndarray of shape (n_features,) or (n_centres,)
        ``w`` (linear) or ``alpha`` (kernel).
    intercept_ : float
        The bias ``b``.
    centres_ : ndarray of shape (n_centres, n_features) or None
        Centres of the kernel expansion (``None`` for the linear model).
    sigma_ : float or None
        The Gaussian width used (``None`` for the other kernels).
    prior_ : float
        The class prior used (``prior``, or its estimate with ``prior="estimate"``).
    prior_estimate_ : PriorEstimate or None
        The estimate of ``prior="estimate"`` (:func:`weaklabel.prior.estimate_prior`).
    positive_risk_, negative_risk_ : float
        ``R_p^+`` and ``R_n^-`` on the training rows at the returned model.
    objective_ : float
        The minimised objective at the returned model (risk plus regulariser).
    history_ : ndarray of shape (n_iter_ + 1, 3)
        ``(R_p^+, R_n^-, objective)`` before every step and at the returned model.
    n_iter_ : int
        Optimiser steps taken.
    converged_ : bool
        Whether the ``tol`` / ``n_iter_no_change`` rule stopped the fit before ``max_iter``.
    fit_seconds_ : float
        Wall time of the optimisation.
    n_features_in_ : int
        Number of features seen in fit.

    Warns
    -----
    ConvergenceWarning
        The fit stopped at ``max_iter`` with the objective still decreasing.
    OneClassPredictionWarning
        Every unlabelled training row gets the same predicted class."""


class UPU(_PURiskClassifier):
    __doc__ = f"""Unbiased PU risk minimisation (du Plessis et al. 2014/2015), sigmoid loss.

    Minimises ``R_p^+ + R_n^- + lam * regulariser`` (module docstring) by Adam on the whole
    training set.

    Parameters
    ----------{_COMMON_PARAMS}

    Attributes
    ----------{_COMMON_ATTRIBUTES}
    """

    def __init__(self, prior=None, *, kernel="linear", sigma="scale",
                 degree=3, coef0=1.0, n_basis=200, lam=1e-3, learning_rate=0.05,
                 max_iter=1000, tol=1e-5, n_iter_no_change=20, random_state=None,
                 verbose=False):
        self.prior = prior
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.n_basis = n_basis
        self.lam = lam
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state
        self.verbose = verbose


class NNPU(_PURiskClassifier):
    __doc__ = f"""Non-negative PU risk minimisation (Kiryo et al., NIPS 2017), sigmoid loss.

    Minimises ``R_p^+ + max(0, R_n^-) + lam * regulariser`` by Kiryo et al.'s Algorithm 1
    on one batch (the whole training set) with Adam: a step along the gradient of the uPU
    objective where ``R_n^- >= -beta``, otherwise a step along the gradient of ``-R_n^-``
    (plus the regulariser's) with the step size times ``gamma``. While ``R_n^-`` stays at or
    above ``-beta`` the fit is identical to :class:`UPU`'s.

    Parameters
    ----------{_COMMON_PARAMS}
    beta : float, default=0.0
        Threshold ``beta >= 0`` below ``0`` that ``R_n^-`` may reach before the correction
        (Kiryo et al.'s beta).
    gamma : float, default=1.0
        Discount ``0 < gamma <= 1`` of the step size of a correction step.

    Attributes
    ----------{_COMMON_ATTRIBUTES}
    n_corrections_ : int
        Steps taken along ``-R_n^-`` (where ``R_n^- < -beta``).
    """

    _nonnegative = True

    def __init__(self, prior=None, *, kernel="linear", sigma="scale",
                 degree=3, coef0=1.0, n_basis=200, lam=1e-3, beta=0.0, gamma=1.0,
                 learning_rate=0.05, max_iter=1000, tol=1e-5, n_iter_no_change=20,
                 random_state=None, verbose=False):
        self.prior = prior
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.n_basis = n_basis
        self.lam = lam
        self.beta = beta
        self.gamma = gamma
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.random_state = random_state
        self.verbose = verbose

    def _beta_gamma(self):
        beta = check_positive(self.beta, "beta", allow_zero=True)
        gamma = check_positive(self.gamma, "gamma")
        if gamma > 1.0:
            raise ValueError(f"gamma must lie in (0, 1] (the discount of a correction step's "
                             f"size), got {self.gamma}.")
        return beta, gamma


class BiasedSVM(KernelParamsMixin, PUClassifier):
    """Biased SVM (Liu et al., ICDM 2003): a C-SVM of labelled (+1) against unlabelled (-1).

    Every unlabelled row is treated as a negative; the labelled positives get the cost
    ``C * pos_weight`` and the unlabelled rows ``C``, so that a positive hidden among the
    unlabelled rows may sit on the positive side at a small price. Needs no class prior.
    Solved by scikit-learn's ``SVC`` (libsvm).

    Parameters
    ----------
    C : float, default=1.0
        Cost of an unlabelled row.
    pos_weight : float or "balanced", default="balanced"
        Cost multiplier ``> 0`` of a labelled positive; ``"balanced"`` = ``n_unlabelled /
        n_labelled``.
    kernel : {"gaussian", "linear", "polynomial"}, default="gaussian"
        ``"rbf"`` / ``"poly"`` are aliases.
    sigma : float or "scale", default="scale"
        Gaussian width, ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))`` (libsvm's ``gamma =
        1 / (2 sigma^2)``); ``"scale"``: ``sqrt(n_features * X.var() / 2)``.
    degree : int, default=3
        Degree of the polynomial kernel ``(<x, y> + coef0)^degree``.
    coef0 : float, default=1.0
        Offset of the polynomial kernel.
    tol : float, default=1e-3
        libsvm's stopping tolerance.
    max_iter : int, default=-1
        libsvm's iteration cap (-1: none); libsvm's ``ConvergenceWarning`` is passed on.
    verbose : bool, default=False
        Print a one-line summary of the fit.

    Attributes
    ----------
    svc_ : sklearn.svm.SVC
        The fitted SVM (labels ``-1`` unlabelled, ``+1`` labelled).
    pos_weight_ : float
        The cost multiplier used.
    sigma_ : float or None
        The Gaussian width used.
    n_iter_ : int
        libsvm's iterations.
    converged_ : bool
        Whether libsvm stopped before ``max_iter``.
    fit_seconds_ : float
        Wall time of libsvm.
    n_features_in_ : int
        Number of features seen in fit.

    Warns
    -----
    OneClassPredictionWarning
        Every unlabelled training row gets the same predicted class.
    """

    def __init__(self, C=1.0, *, pos_weight="balanced", kernel="gaussian", sigma="scale",
                 degree=3, coef0=1.0, tol=1e-3, max_iter=-1, verbose=False):
        self.C = C
        self.pos_weight = pos_weight
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose

    def fit(self, X, s):
        """Fit on ``X`` with the PU indicator ``s`` (1 = labelled positive, 0 = unlabelled)."""
        C = check_positive(self.C, "C")
        tol = check_positive(self.tol, "tol")
        if isinstance(self.max_iter, bool) or not isinstance(self.max_iter, (int, np.integer)) \
                or (self.max_iter < 1 and self.max_iter != -1):
            raise ValueError(f"max_iter must be a positive integer or -1 (no cap), got "
                             f"{self.max_iter!r}.")
        X, s = self._validate_pu(X, s)
        n_l, n_u = int(s.sum()), int((~s).sum())
        if isinstance(self.pos_weight, str):
            check_choice(self.pos_weight, "pos_weight", {"balanced"})
            pw = n_u / n_l
        else:
            pw = check_positive(self.pos_weight, "pos_weight")
        k = self._kernel(X)
        if k.name == "gaussian":
            svc = SVC(C=C, kernel="rbf", gamma=k.gamma, tol=tol, max_iter=self.max_iter)
        elif k.name == "polynomial":
            svc = SVC(C=C, kernel="poly", gamma=1.0, degree=int(k.degree), coef0=k.coef0,
                      tol=tol, max_iter=self.max_iter)
        else:
            svc = SVC(C=C, kernel="linear", tol=tol, max_iter=self.max_iter)
        svc.set_params(class_weight={1: pw, -1: 1.0})
        t0 = time.perf_counter()
        svc.fit(X, np.where(s, 1, -1))
        self.fit_seconds_ = time.perf_counter() - t0
        self.svc_, self.pos_weight_ = svc, float(pw)
        self.n_iter_ = int(np.asarray(svc.n_iter_).ravel()[0])
        self.converged_ = bool(self.max_iter == -1 or self.n_iter_ < self.max_iter)
        self.n_features_in_ = X.shape[1]
        if self.verbose:
            print(f"BiasedSVM: {int(svc.n_support_.sum())} support vectors, pos_weight "
                  f"{pw:.4g}, fitted in {self.fit_seconds_:.3g} s")
        self._warn_if_one_class(svc.decision_function(X[~s]),
                                "C, pos_weight or sigma probably does not suit the data.")
        return self

    def decision_function(self, X):
        """libsvm's decision value (``>= 0``: predicted +1)."""
        X = self._check_X(X)
        return self.svc_.decision_function(X)
