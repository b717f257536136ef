"""Classification from similar pairs and unlabelled data (SU learning): the estimators.

Input convention (:class:`SUClassifier`) -- ``fit(X, s)``
    ``s = 1`` marks a point of a similar pair (two points known to share their unknown
    class), ``s = 0`` an unlabelled point. The pairs are given flattened: the rows with
    ``s = 1`` are the ``2 n_S`` points of the ``n_S`` pairs (pair ``i`` is the ``2i``-th and
    ``2i+1``-th of them). No estimator here uses the pair structure after flattening (Shi et
    al. 2021, Eq. (7); Bao et al. 2018): the similar points are treated as i.i.d. draws from
    ``p~_S = (pi_+^2 p_+ + pi_-^2 p_-) / pi_S``. Both values of ``s`` must occur.
    Predictions are the latent class ``+1`` / ``-1`` (``classes_ = [-1, 1]``); ``score(X,
    y)`` is the accuracy against true labels in ``{-1, +1}``, ``{0, 1}`` or bool. To select
    hyperparameters from ``(X, s)`` alone use :func:`weaklabel.solvers.su.su_zero_one_risk`
    (the SU zero-one risk of held-out similar and unlabelled points, to be minimised).

The class prior ``prior`` = Pr[y = +1] is required (the experiments of the paper use the
true prior; :func:`weaklabel.solvers.su.estimate_su_prior` estimates it). The SU risk is
undefined at ``prior = 0.5``: every term carries the factor ``1 / (2 prior - 1)``.

Estimators: :class:`TSGSU` (Shi et al. 2021, triply stochastic gradients with random
features), :class:`SUSL` (Bao et al. 2018, squared loss, closed form), :class:`SUDH` (Bao et
al. 2018, double-hinge loss, a QP), :class:`CUU` (Lu et al. 2020, the corrected risk by
stochastic gradients on kernel centres).

Names shared with the other estimators (README, "Estimators: one vocabulary"): ``prior``,
``lam`` (the lambda / 2 ||f||^2 penalty, larger is smoother), ``kernel``, ``sigma`` (Gaussian
width, ``k = exp(-||x - y||^2 / (2 sigma^2))``; the papers' ``exp(-sigma ||x - y||^2)`` is
``gamma = 1 / (2 sigma^2)`` here), ``degree``, ``coef0``, ``max_iter``, ``verbose``,
``random_state``. ``scale`` multiplies the inner product of the polynomial kernel,
``(scale <x, y> + coef0)^degree``: the TSGSU paper's dot-product kernel
``(sigma_1 <x, y>)^sigma_2`` is ``scale = sigma_1``, ``degree = sigma_2``, ``coef0 = 0``.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import scipy.sparse as sp

from .._validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_matrix,
    check_positive,
    check_target_given,
    check_vector,
)
from ._base import (
    KernelParamsMixin,
    PUClassifier,
    WeakLabelClassifier,
    check_dense_memory,
    require_prior,
)

_ONE_CLASS_HINT = ("the prior, the regularisation lam or the kernel width sigma probably do "
                   "not suit the data (an SU risk with the wrong prior, or a lam far above the "
                   "scale of the loss, gives a constant classifier).")


def _diverged(objective, what: str, owner: str, max_iter: int, f=None):
    """``(diverged, message)``: the stochastic objective ``objective`` (one value per
    iteration) ended non-finite or above 100 times ``max(its first value, 1)``, or the
    decision values ``f`` are not finite."""
    obj = np.asarray(objective, dtype=np.float64)
    bad = obj.size and (not np.all(np.isfinite(obj)) or obj[-1] > 100.0 * max(obj[0], 1.0))
    if f is not None and not np.all(np.isfinite(f)):
        bad = True
    if not bad:
        return False, ""
    return True, (f"{owner} diverged: its {what} went from {obj[0]:.3g} at the first iteration "
                  f"to {obj[-1]:.3g} after max_iter={max_iter} iterations (converged_=False); "
                  "lower eta0 (eta0='auto' takes a step from the curvature of the first "
                  "batch) or raise lam.")

__all__ = ["CUU", "SUDH", "SUSL", "TSGSU", "SUClassifier", "check_su_indicator"]

_BLOCK = 2048  # rows per block in decision_function


def check_su_indicator(s, name: str = "s", *, n: int | None = None) -> np.ndarray:
    """SU indicator ``s``: 1 = point of a similar pair, 0 = unlabelled (bool array).

    Both values must occur, and at least two similar points (one pair).
    """
    a = check_vector(check_target_given(s, name), name, n=n)
    vals = np.unique(a)
    if not set(vals.tolist()) <= {0.0, 1.0}:
        shown = vals[:5].tolist()
        if not np.all(vals == np.round(vals)):
            got = f"got continuous (non-integer) values {shown}"
        elif vals.size > 2:
            got = (f"got {vals.size} distinct values {shown}. Only binary classification is "
                   "supported")
        else:
            got = f"got values {shown}"
        raise ValueError(
            f"{name} must be a 0/1 indicator (1 = point of a similar pair, 0 = unlabelled), "
            f"{got}.")
    if np.sum(a == 1) < 2:
        one = " (it holds one class only)" if not np.any(a == 1) else ""
        raise ValueError(f"{name} marks {int(np.sum(a == 1))} similar point(s){one}: SU "
                         "learning needs at least one similar pair (two rows with s = 1).")
    if not np.any(a == 0):
        raise ValueError(f"{name} has no unlabelled samples (no entry equal to 0): it holds "
                         "one class only, and SU learning needs similar pairs (1) and "
                         "unlabelled samples (0).")
    return a.astype(bool)


def check_su_prior(prior, owner: str = "") -> float:
    """The required class prior of an SU estimator, in (0, 1) and not 0.5."""
    p = require_prior(prior, "prior", owner)
    if abs(2.0 * p - 1.0) < 1e-9:
        raise ValueError(
            "prior = 0.5 is not allowed: the SU risk is undefined there (every term has the "
            "factor 1 / (2 prior - 1), Bao et al. 2018), and similar pairs carry no "
            "information about which cluster is positive.")
    return p


class SUClassifier(WeakLabelClassifier):
    """Base of the SU estimators: ``fit(X, s)`` with ``s`` = 1 similar / 0 unlabelled.

    See the module docstring for the convention.
    """

    classes_ = np.array([-1, 1])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # The estimators predict the latent class, not s: the accuracy against s that the
        # generic checks compute is not a measure of these estimators.
        tags.classifier_tags.poor_score = True
        return tags

    def _validate_su(self, X, s, *, sparse: bool = False):
        """``(X, s)`` -> ``(XS, XU)``; float64, C-contiguous (CSR kept when ``sparse``)."""
        self._check_random_state()
        if sparse and sp.issparse(X):
            X = sp.csr_matrix(X, dtype=np.float64)
            if X.shape[0] < 3:
                raise ValueError(f"X must have at least 3 rows, got {X.shape[0]}.")
            if not np.all(np.isfinite(X.data)):
                raise ValueError("X contains NaN or infinity.")
        else:
            X = check_matrix(X, "X", min_rows=3)
        s = check_su_indicator(s, "s", n=X.shape[0])
        return X[np.flatnonzero(s)], X[np.flatnonzero(~s)], X

    # the latent-class accuracy of the PU estimators: same label codings, same errors
    score = PUClassifier.score

    def _check_fitted(self, XU):
        """End of fit: finite scores and more than one predicted class on the unlabelled
        rows (:func:`weaklabel.models._base.check_fitted_scores`; the first 2000 of them,
        which bounds the cost of the stochastic models' decision function)."""
        self._warn_if_one_class(self.decision_function(XU[:2000]), _ONE_CLASS_HINT,
                                stacklevel=4)

    def _common(self):
        prior = check_su_prior(self.prior, type(self).__name__)
        lam = check_positive(self.lam, "lam")
        check_choice(self.kernel, "kernel", {"linear", "gaussian", "rbf", "polynomial", "poly"})
        return prior, lam

    def _kernel_args(self, *parts):
        """``(kernel name for the solvers, gamma, degree, scale, coef0)``; sets ``sigma_``."""
        kernel = self.kernel
        if kernel in ("gaussian", "rbf"):
            dense = [p.toarray() if sp.issparse(p) else p for p in parts]
            self.sigma_ = KernelParamsMixin._resolve_sigma(self, *dense)
            return "rbf", 1.0 / (2.0 * self.sigma_ ** 2), 1, 1.0, 0.0
        self.sigma_ = None
        if kernel in ("polynomial", "poly"):
            return ("poly", 1.0, check_int(self.degree, "degree", minimum=1),
                    check_positive(self.scale, "scale"),
                    check_positive(self.coef0, "coef0", allow_zero=True))
        return "linear", 1.0, 1, 1.0, 0.0


def _augment(X, scale: float, coef0: float):
    """Append the constant ``sqrt(coef0 / scale)`` so that ``(scale <x, y> + coef0)^p`` is
    ``(scale <x~, y~>)^p`` on the augmented rows (dense or CSR)."""
    if coef0 == 0.0:
        return X
    c = np.sqrt(coef0 / scale)
    if sp.issparse(X):
        return sp.hstack([X, sp.csr_matrix(np.full((X.shape[0], 1), c))], format="csr")
    return np.hstack([X, np.full((X.shape[0], 1), c)])


class TSGSU(KernelParamsMixin, SUClassifier):
    """TSGSU (Shi et al. 2021): the consistently corrected SU risk minimised in the RKHS by
    triply stochastic functional gradients (similar points, unlabelled points and random
    features sampled at every iteration).

    The model is ``f(x) = sum_t alpha_t' phi_t(x)`` with ``phi_t`` the random-feature map of
    iteration ``t``, regenerated from its seed (no feature matrix and no training point is
    stored). Solver: :func:`weaklabel.solvers.tsgsu.tsgsu`.

    Parameters
    ----------
    prior : float
        Class prior Pr[y = +1], in (0, 1), not 0.5; required.
    lam : float, default=2**-7
        Weight of ``lam / 2 ||f||_H^2`` (the paper's lambda).
    kernel : {"gaussian", "polynomial"}, default="gaussian"
        Gaussian: random Fourier features; polynomial: ``(scale <x, y> + coef0)^degree`` by
        ``features`` (Random Maclaurin or TensorSketch).
    sigma : float or "scale", default="scale"
        Gaussian width (``gamma = 1 / (2 sigma^2)``); the width used is ``sigma_``.
    degree : int, default=2
    scale : float, default=1.0
    coef0 : float, default=0.0
    features : {"auto", "rff", "maclaurin", "tensorsketch"}, default="auto"
    n_features : int, default=1000
        Random frequencies per iteration (the paper's 1000).
    batch_size : int, default=1000
        Similar points and unlabelled points per iteration (1000 each in the paper).
    max_iter : int, default=100
        Iterations ``T`` (the paper's 100).
    eta0 : float, default=1.0
        Initial step; ``eta_t = eta0 / sqrt(t)`` (``schedule="inv_sqrt"``) or
        ``eta0 / sqrt(T)`` (``"const"``, Theorem 1's ``theta / sqrt(T)``).
    schedule : {"inv_sqrt", "const"}, default="inv_sqrt"
    loss : {"squared", "double_hinge"}, default="squared"
    correction : {"abs", "relu", "none"}, default="abs"
        The consistent correction ``delta`` of Eq. (8) (the paper uses ``abs``).
    mode : {"auto", "cached", "faithful", "lazy"}, default="auto"
        ``"auto"`` runs cached while it computes no more row-block products than the
        faithful mode, ``(n_S + n_U) T <= (b_S + b_U) T (T-1) / 2``, else lazy (faithful
        for ``features="tensorsketch"``): its cost is bounded by the paper's mode's, which
        does not grow with n (:func:`weaklabel.solvers.tsgsu.tsgsu_mode`; ``result_.mode``
        records the mode run). ``"faithful"`` recomputes ``f`` on each minibatch by
        replaying every earlier feature block (the paper's O(T^2) algorithm, memory
        independent of n);
        ``"cached"`` keeps ``f`` on every training point up to date after each iteration
        (O(n) work per iteration: its time grows with n); ``"lazy"`` keeps ``f`` on the
        training points but updates a point only when a minibatch draws it (work per
        iteration at most ``2 batch_size (t - 1)`` row-block products whatever n, and never
        more than either other mode; features ``"rff"`` or ``"maclaurin"`` only). The same
        iterates up to rounding (see :func:`weaklabel.solvers.tsgsu.tsgsu`).
    random_state : int, Generator or None, default=None
    verbose : bool, default=False

    Attributes
    ----------
    result_ : TSGSUResult
        The solver's result (coefficients, seeds, per-iteration times and risks).
    n_iter_ : int
    converged_ : bool
        True unless the run diverged: a fixed number of iterations, no stopping test, but a
        minibatch objective that ends non-finite or above 100 times ``max(its first value,
        1)`` sets False and warns ``ConvergenceWarning`` (lower ``eta0``).
    sigma_ : float or None
    n_features_in_ : int
    """

    def __init__(self, prior=None, lam=2.0 ** -7, kernel="gaussian", sigma="scale", *,
                 degree=2, scale=1.0, coef0=0.0, features="auto", n_features=1000,
                 batch_size=1000, max_iter=100, eta0=1.0, schedule="inv_sqrt",
                 loss="squared", correction="abs", mode="auto", random_state=None,
                 verbose=False):
        self.prior = prior
        self.lam = lam
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.scale = scale
        self.coef0 = coef0
        self.features = features
        self.n_features = n_features
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.eta0 = eta0
        self.schedule = schedule
        self.loss = loss
        self.correction = correction
        self.mode = mode
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, s):
        """Fit on ``(X, s)`` (``s`` = 1 similar-pair point, 0 unlabelled); returns self."""
        from ..solvers.tsgsu import tsgsu
        prior, lam = self._common()
        if self.kernel == "linear":
            raise ValueError("kernel='linear' is not a random-feature kernel: use SUSL or "
                             "SUDH with kernel='linear', or kernel='gaussian'/'polynomial'.")
        XS, XU, X = self._validate_su(X, s, sparse=True)
        name, gamma, degree, scale, coef0 = self._kernel_args(XS, XU)
        XS, XU = _augment(XS, scale, coef0), _augment(XU, scale, coef0)
        b = check_int(self.batch_size, "batch_size", minimum=1)
        res = tsgsu(XS, XU, prior, lam=lam, kernel=name, gamma=gamma, degree=degree,
                    scale=scale, features=self.features,
                    n_iter=check_int(self.max_iter, "max_iter", minimum=1),
                    batch_s=b, batch_u=b,
                    n_features=check_int(self.n_features, "n_features", minimum=1),
                    eta0=check_positive(self.eta0, "eta0"), schedule=self.schedule,
                    loss=self.loss, correction=self.correction, mode=self.mode,
                    random_state=self.random_state, verbose=bool(self.verbose))
        self.result_ = res
        self._aug = (scale, coef0)
        self.n_iter_ = int(res.n_iter_)
        self.n_features_in_ = X.shape[1]
        XU0 = X[np.flatnonzero(~check_su_indicator(s, "s", n=X.shape[0]))]
        diverged, msg = _diverged(res.objective, "minibatch objective", "TSGSU",
                                  self.n_iter_)
        self.converged_ = not diverged
        if diverged:
            warnings.warn(msg, ConvergenceWarning, stacklevel=2)
        self._check_fitted(XU0)
        return self

    def _check_X_sparse(self, X):
        from sklearn.utils.validation import check_is_fitted
        check_is_fitted(self)
        if sp.issparse(X):
            X = sp.csr_matrix(X, dtype=np.float64)
            if X.shape[1] != self.n_features_in_:
                raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} "
                                 f"is expecting {self.n_features_in_} features as input.")
            return X
        return self._check_X(X)

    def decision_function(self, X):
        """``f(x) = sum_t alpha_t' phi_t(x)``, replaying the seeds (Algorithm 2)."""
        X = self._check_X_sparse(X)
        return self.result_.decision_function(_augment(X, *self._aug))


class _KernelBasisSU(KernelParamsMixin, SUClassifier):
    """Shared part of SUSL / SUDH: a linear model on a basis (linear or kernel centres)."""

    def _basis_fit(self, X, s):
        from ..solvers.su import su_basis
        prior, lam = self._common()
        XS, XU, X = self._validate_su(X, s)
        name, gamma, degree, scale, coef0 = self._kernel_args(XS, XU)
        if name == "linear":
            centers = None
        else:
            XS, XU = _augment(XS, scale, coef0), _augment(XU, scale, coef0)
            allX = np.vstack([XS, XU])
            nc = self.n_centers
            if nc is None:
                centers = allX
            else:
                nc = check_int(nc, "n_centers", minimum=1)
                rng = np.random.default_rng(self.random_state)
                idx = np.sort(rng.choice(allX.shape[0], min(nc, allX.shape[0]), replace=False))
                centers = allX[idx]
        if centers is not None:  # the n x m basis and the m x m system
            m = centers.shape[0]
            check_dense_memory(
                XS.shape[0] + XU.shape[0] + m, 1, n_cols=m, owner=type(self).__name__,
                avoid=f"Set n_centers (e.g. n_centers=2000) to use fewer than the {m} kernel "
                      "centres.")
        kw = dict(kind=name, centers=centers, gamma=gamma, degree=degree, scale=scale)
        self._basis_kw = kw
        self._aug = (scale, coef0) if name != "linear" else (1.0, 0.0)
        PsiS, PsiU = su_basis(XS, **kw), su_basis(XU, **kw)
        self.centers_ = centers
        self.n_features_in_ = X.shape[1]
        return prior, lam, PsiS, PsiU

    def decision_function(self, X):
        """``f(x) = coef_' psi(x)`` (``psi``: ``[x, 1]`` or ``[k(x, c_j)]_j, 1``)."""
        from ..solvers.su import su_basis
        X = self._check_X(X)
        out = np.empty(X.shape[0])
        X = _augment(X, *self._aug)
        for a in range(0, X.shape[0], _BLOCK):
            out[a:a + _BLOCK] = su_basis(X[a:a + _BLOCK], **self._basis_kw) @ self.coef_
        return out


class SUSL(_KernelBasisSU):
    """SU classification with the squared loss (Bao et al. 2018, "SU-SL"): the unbiased SU
    risk of Eq. (7) plus ``lam / 2 ||theta||^2`` minimised in closed form.

    ``f(x) = theta' psi(x)`` with ``psi(x) = [x, 1]`` (``kernel="linear"``) or ``[k(x, c_1),
    ..., k(x, c_m), 1]`` over kernel centres: all training points (``n_centers=None``, the
    paper's nonlinear baseline) or ``n_centers`` drawn at random.

    Memory: the dense ``n x m`` basis and the ``m x m`` system, ``8 (n m + m^2)`` bytes
    (6.4 GB at n = m = 20 000 with the default ``n_centers=None``) and time O(m^3); ``fit``
    raises ``MemoryError`` naming the size and ``n_centers`` before allocating them when
    they exceed the memory available.

    Parameters
    ----------
    prior : float
        Required; in (0, 1), not 0.5.
    lam : float, default=2**-7
    kernel : {"linear", "gaussian", "polynomial"}, default="gaussian"
    sigma : float or "scale", default="scale"
    degree : int, default=2
    scale : float, default=1.0
    coef0 : float, default=0.0
    n_centers : int or None, default=None
    random_state : int, Generator or None, default=None
        Draws the centres when ``n_centers`` is set.

    Attributes
    ----------
    coef_ : ndarray
        ``theta`` (the last entry is the bias).
    intercept_ : float
        ``theta[-1]``.
    centers_ : ndarray or None
    sigma_ : float or None
    n_features_in_ : int
    """

    def __init__(self, prior=None, lam=2.0 ** -7, kernel="gaussian", sigma="scale", *,
                 degree=2, scale=1.0, coef0=0.0, n_centers=None, random_state=None):
        self.prior = prior
        self.lam = lam
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.scale = scale
        self.coef0 = coef0
        self.n_centers = n_centers
        self.random_state = random_state

    def fit(self, X, s):
        """Fit on ``(X, s)``; returns self."""
        from ..solvers.su import susl_fit
        prior, lam, PsiS, PsiU = self._basis_fit(X, s)
        self.coef_ = np.asarray(susl_fit(PsiS, PsiU, prior, lam), dtype=np.float64)
        self.intercept_ = float(self.coef_[-1])
        self._warn_if_one_class(PsiU @ self.coef_, _ONE_CLASS_HINT)
        return self


class SUDH(_KernelBasisSU):
    """SU classification with the double-hinge loss (Bao et al. 2018, "SU-DH"): the convex
    QP of the unbiased SU risk (Eq. (7)) plus ``lam / 2 ||theta||^2``, solved by cvxpy.

    Same model and parameters as :class:`SUSL`, plus ``solver`` (``"CLARABEL"`` or
    ``"OSQP"``) and ``verbose``. The QP has ``m + 1 + n_U`` variables and ``3 n_U`` constraints.

    Memory and time: the dense ``n x m`` basis (``8 n m`` bytes) and the QP's copies of it
    in cvxpy and the solver, several times more (with the default ``n_centers=None``,
    m = n: 200 MB for the basis alone at n = 5000). ``fit`` raises ``MemoryError`` naming
    the size and ``n_centers`` when the basis alone exceeds the memory available; set
    ``n_centers`` for large n.

    Every solution is certified by its duality gap (:func:`weaklabel.solvers.su.sudh_fit`
    solves a rescaled QP, well conditioned down to ``lam = 1e-7``, the smallest value of the
    grid of Bao et al.): ``duality_gap_`` holds the relative gap, and ``fit`` warns
    ``ConvergenceWarning`` naming ``lam`` when it exceeds 1e-6. ``verbose=True`` prints the
    solver's own progress and a summary line.
    """

    def __init__(self, prior=None, lam=2.0 ** -7, kernel="gaussian", sigma="scale", *,
                 degree=2, scale=1.0, coef0=0.0, n_centers=None, solver="CLARABEL",
                 random_state=None, verbose=False):
        self.prior = prior
        self.lam = lam
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.scale = scale
        self.coef0 = coef0
        self.n_centers = n_centers
        self.solver = solver
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, s):
        """Fit on ``(X, s)``; returns self."""
        from ..solvers.su import sudh_fit
        check_choice(self.solver, "solver", {"CLARABEL", "OSQP"})
        prior, lam, PsiS, PsiU = self._basis_fit(X, s)
        with warnings.catch_warnings():  # re-issued below, at the caller's line
            warnings.simplefilter("ignore", ConvergenceWarning)
            theta, info = sudh_fit(PsiS, PsiU, prior, lam, solver=self.solver,
                                   verbose=bool(self.verbose), full_output=True)
        if self.verbose:
            print(f"SUDH: {info['solves']} QP solve(s) by {self.solver}, scale s = "
                  f"{info['scale']:.3g}, relative duality gap {info['rel_gap']:.3g}")
        self.coef_ = np.asarray(theta, dtype=np.float64)
        self.duality_gap_ = float(info["rel_gap"])
        if self.duality_gap_ > info["tol"]:
            other = "OSQP" if self.solver == "CLARABEL" else "CLARABEL"
            warnings.warn(
                f"SUDH: at lam={lam:g} the solution of solver={self.solver!r} is certified "
                f"only to a relative duality gap of {self.duality_gap_:.3g} (above "
                f"{info['tol']:g}); it may be suboptimal. Try solver={other!r} or a larger "
                "lam.", ConvergenceWarning, stacklevel=2)
        self.intercept_ = float(self.coef_[-1])
        self._warn_if_one_class(PsiU @ self.coef_, _ONE_CLASS_HINT)
        return self


class CUU(KernelParamsMixin, SUClassifier):
    """CUU (Lu et al. 2020) for SU data: the consistently corrected risk (Eq. (8) of Shi et
    al. 2021) with the squared loss, minimised by minibatch stochastic gradients over the
    coefficients of ``f(x) = sum_j beta_j k(x, c_j)`` on kernel centres.

    Parameters
    ----------
    prior : float
        Required; in (0, 1), not 0.5.
    lam : float, default=2**-7
        Weight decay ``lam / 2 ||beta||^2``.
    kernel : {"gaussian", "polynomial"}, default="gaussian"
    sigma : float or "scale", default="scale"
    degree : int, default=2
    scale : float, default=1.0
    coef0 : float, default=0.0
    n_centers : int or "all", default=2000
        Centres drawn from the training points ("CUU(2000)" in the paper; all of them when
        there are fewer) or all of them ("CUU(All)").
    batch_size : int, default=1000
    max_iter : int, default=100
    eta0 : float or "auto", default="auto"
        Initial step; ``"auto"``: ``1 / L`` from the curvature of the first batch (see
        :func:`weaklabel.solvers.su.cuu`; conservative for wide kernels, tune it).
    schedule : {"inv_sqrt", "const"}, default="inv_sqrt"
    correction : {"abs", "relu", "none"}, default="abs"
    random_state : int, Generator or None, default=None
    verbose : bool, default=False

    Attributes
    ----------
    result_ : CUUResult
    dual_coef_ : ndarray
        ``beta``.
    intercept_ : float
        0.0 (no bias).
    centers_ : ndarray
    n_iter_ : int
    converged_ : bool
        True unless the run diverged: a fixed number of iterations, but a minibatch objective
        that ends non-finite or above 100 times ``max(its first value, 1)`` sets False and
        warns ``ConvergenceWarning`` (lower ``eta0``).
    sigma_ : float or None
    n_features_in_ : int
    """

    def __init__(self, prior=None, lam=2.0 ** -7, kernel="gaussian", sigma="scale", *,
                 degree=2, scale=1.0, coef0=0.0, n_centers=2000, batch_size=1000,
                 max_iter=100, eta0="auto", schedule="inv_sqrt", correction="abs",
                 random_state=None, verbose=False):
        self.prior = prior
        self.lam = lam
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.scale = scale
        self.coef0 = coef0
        self.n_centers = n_centers
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.eta0 = eta0
        self.schedule = schedule
        self.correction = correction
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, s):
        """Fit on ``(X, s)``; returns self."""
        from ..solvers.su import cuu
        prior, lam = self._common()
        if self.kernel == "linear":
            raise ValueError("kernel='linear' is not supported by CUU: use SUSL or SUDH with "
                             "kernel='linear', or kernel='gaussian'/'polynomial'.")
        nc = self.n_centers
        if not (isinstance(nc, str) and nc == "all"):
            if not isinstance(nc, numbers.Integral) or isinstance(nc, bool):
                raise ValueError(f"n_centers must be a positive integer or 'all', got {nc!r}.")
            nc = check_int(nc, "n_centers", minimum=1)
        eta0 = self.eta0
        if not (isinstance(eta0, str) and eta0 == "auto"):
            eta0 = check_positive(eta0, "eta0")
        XS, XU, X = self._validate_su(X, s)
        XU0 = XU
        if nc != "all" and nc >= X.shape[0]:
            nc = "all"
        name, gamma, degree, scale, coef0 = self._kernel_args(XS, XU)
        XS, XU = _augment(XS, scale, coef0), _augment(XU, scale, coef0)
        b = check_int(self.batch_size, "batch_size", minimum=1)
        n_iter = check_int(self.max_iter, "max_iter", minimum=1)
        res = cuu(XS, XU, prior, lam=lam, kernel=name, gamma=gamma, degree=degree,
                  scale=scale, centers=nc, n_iter=n_iter, batch_s=b, batch_u=b, eta0=eta0,
                  schedule=self.schedule, correction=self.correction,
                  random_state=self.random_state)
        if self.verbose:
            print(f"CUU: {n_iter} iterations, {len(res.beta)} centres, eta0 = {res.eta0:.3g}")
        self.result_ = res
        self.dual_coef_ = np.asarray(res.beta, dtype=np.float64)
        self.intercept_ = 0.0
        self.centers_ = res.centers
        self._aug = (scale, coef0)
        self.n_iter_ = n_iter
        self.n_features_in_ = X.shape[1]
        diverged, msg = _diverged(res.batch_objective, "minibatch objective", "CUU", n_iter,
                                  f=self.dual_coef_)
        self.converged_ = not diverged
        if diverged:
            warnings.warn(msg, ConvergenceWarning, stacklevel=2)
        self._check_fitted(XU0)
        return self

    def decision_function(self, X):
        """``f(x) = sum_j dual_coef_j k(x, c_j)``."""
        X = self._check_X(X)
        return self.result_.decision_function(_augment(X, *self._aug))
