"""Classification from similar pairs and unlabelled data (SU learning): risks, SUSL, SUDH,
CUU and class-prior estimation.

Setting (Bao et al. 2018; Shi et al. 2021, Sec. 2). Similar pairs share an unknown label;
flattened, the ``2 n_S`` similar points follow ``p~_S = (pi_+^2 p_+ + pi_-^2 p_-) / pi_S``
with ``pi_S = pi_+^2 + pi_-^2`` (Shi et al. 2021, Eq. (5) with the squares restored), the
unlabelled points follow ``p = pi_+ p_+ + pi_- p_-``. With ``c = 1 / (2 pi_+ - 1)``::

    L_S(z) = c (l(z, +1) - l(z, -1)),   L_U(z) = c (-pi_- l(z, +1) + pi_+ l(z, -1))
    R_SU(f) = pi_S mean_S L_S(f(x~)) + mean_U L_U(f(x))            (Shi et al. 2021, Eq. (7))

and its split into the two partial risks of Lu et al. 2020 (Shi et al. 2021, Eq. (8))::

    R_+ = c (pi_S mean_S l(f, +1) - pi_- mean_U l(f, +1))   (expectation pi_+ E_+ l(f, +1))
    R_- = c (pi_+ mean_U l(f, -1) - pi_S mean_S l(f, -1))   (expectation pi_- E_- l(f, -1))

``R_+ + R_- = R_SU`` for every loss. The consistent correction replaces the sum by
``delta(R_+) + delta(R_-)`` with ``delta = |.|`` (used in the experiments of Shi et al.
2021) or ``max(0, .)``. Every coefficient is signed: for ``pi_+ < 1/2`` the formulas hold
as written with ``c < 0``; ``pi_+ = 1/2`` leaves ``c`` undefined (similar pairs then carry no
information on which cluster is positive) and is rejected.

Losses (both satisfy the linear-odd condition ``l(z, +1) - l(z, -1) = -z`` that makes Eq. (7)
convex, Bao et al. 2018):

- squared ``l(z, t) = (t z - 1)^2 / 4``;
- double hinge ``l(z, t) = max(-t z, max(0, 1/2 - t z / 2))``.

Baselines
---------
- :func:`susl_fit`: SU-SL (Bao et al. 2018), squared loss, ``f = theta' psi(x)``, closed form.
- :func:`sudh_fit`: SU-DH (Bao et al. 2018), double-hinge loss, a convex QP solved with cvxpy
  (the paper uses cvxopt). The QP is written from ``L_U(z) = l(z, -1) + pi_- c z`` with one
  slack per unlabelled point; the two-slack QP of the authors' public code, whose slacks
  carry negative costs, is unbounded below and is not used.
- :func:`cuu`: CUU (Lu et al. 2020) with a kernel basis on random (or all) training points
  and minibatch SGD on the corrected risk, as run by Shi et al. 2021 (Sec. 5).
- :func:`estimate_su_prior`: class prior from ``pi_S`` by kernel mixture-proportion estimation
  (Bao et al. 2018; Shi et al. 2021, Sec. 2.5; the KM2 estimator of Ramaswamy, Scott &
  Tewari 2016).
"""

from __future__ import annotations

import numbers
import time
import warnings
from dataclasses import dataclass, field

import numba as nb
import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from .._validation import (
    ConvergenceWarning,
    check_choice,
    check_int,
    check_matrix,
    check_positive,
    check_vector,
)

__all__ = [
    "CUUResult",
    "SUDHSolverError",
    "SUPriorEstimate",
    "cuu",
    "estimate_su_prior",
    "su_basis",
    "su_class_weights",
    "su_kernel_block",
    "su_loss",
    "su_objective",
    "su_partial_risks",
    "su_risk",
    "su_zero_one_risk",
    "sudh_fit",
    "susl_fit",
]

_LOSSES = {"squared", "double_hinge"}
_CORRECTIONS = {"none", "abs", "relu"}
_BLOCK = 2048


def _osqp_polish_key() -> str:
    try:
        from importlib.metadata import version
        return "polishing" if int(version("osqp").split(".")[0]) >= 1 else "polish"
    except Exception:  # pragma: no cover - osqp missing or odd version string
        return "polish"


_OSQP_POLISH = _osqp_polish_key()


class SUDHSolverError(RuntimeError):
    """The convex solver of :func:`sudh_fit` did not return an optimal solution."""


# --------------------------------------------------------------------------- risks
def _check_su_prior(prior, name: str = "prior") -> float:
    if isinstance(prior, bool) or not isinstance(prior, numbers.Real):
        raise TypeError(f"{name} must be a real number in (0, 1), got {type(prior).__name__}.")
    p = float(prior)
    if not np.isfinite(p) or not (0.0 < p < 1.0):
        raise ValueError(f"{name} (the class prior pi_+) must lie strictly between 0 and 1, "
                         f"got {prior}.")
    if abs(2.0 * p - 1.0) < 1e-12:
        raise ValueError(
            f"{name} = 0.5 is not allowed: the SU risk has the factor 1/(2 pi_+ - 1), which is "
            "undefined at pi_+ = 0.5 (similar pairs are then equally likely to be positive or "
            "negative, so they cannot tell the classes apart). Use a prior != 0.5.")
    return p


def su_class_weights(prior):
    """``(pi_S, pi_-, 1 / (2 pi_+ - 1))`` for the class prior ``pi_+ = prior``.

    ``pi_S = pi_+^2 + pi_-^2`` is the probability that two independent points share a label
    (Shi et al. 2021, Eq. (2)). Raises ``ValueError`` unless ``0 < prior < 1`` and
    ``prior != 0.5``.
    """
    p = _check_su_prior(prior)
    q = 1.0 - p
    return p * p + q * q, q, 1.0 / (2.0 * p - 1.0)


def su_loss(z, t, loss: str = "squared"):
    """Margin loss ``l(z, t)`` for labels ``t`` in {-1, +1} (arrays broadcast).

    ``"squared"``: ``(t z - 1)^2 / 4``; ``"double_hinge"``: ``max(-t z, max(0, (1 - t z)/2))``
    (Bao et al. 2018; Shi et al. 2021, Sec. 2).
    """
    check_choice(loss, "loss", _LOSSES)
    m = np.asarray(t, dtype=np.float64) * np.asarray(z, dtype=np.float64)
    if loss == "squared":
        return 0.25 * (m - 1.0) ** 2
    return np.maximum(-m, np.maximum(0.0, 0.5 - 0.5 * m))


def _check_scores(f, name):
    a = check_vector(f, name)
    if a.shape[0] == 0:
        raise ValueError(f"{name} is empty; SU risks need at least one "
                         f"{'similar' if name == 'f_s' else 'unlabelled'} point.")
    return a


def su_partial_risks(f_s, f_u, prior, loss: str = "squared"):
    """The partial risks ``(R_+, R_-)`` of Shi et al. 2021, Eq. (8) (Lu et al. 2020).

    Parameters
    ----------
    f_s : array (n_s,)
        Scores of the flattened similar points (both points of every pair).
    f_u : array (n_u,)
        Scores of the unlabelled points.
    prior : float
        Class prior ``pi_+`` in (0, 1), not 0.5.
    loss : {"squared", "double_hinge"}

    Returns
    -------
    (float, float)
        ``R_+ = c (pi_S mean_S l(f,+1) - pi_- mean_U l(f,+1))`` and
        ``R_- = c (pi_+ mean_U l(f,-1) - pi_S mean_S l(f,-1))``, ``c = 1/(2 pi_+ - 1)``.
    """
    pi_s, pi_m, c = su_class_weights(prior)
    pi_p = 1.0 - pi_m
    fs = _check_scores(f_s, "f_s")
    fu = _check_scores(f_u, "f_u")
    check_choice(loss, "loss", _LOSSES)
    r_p = c * (pi_s * su_loss(fs, 1.0, loss).mean() - pi_m * su_loss(fu, 1.0, loss).mean())
    r_m = c * (pi_p * su_loss(fu, -1.0, loss).mean() - pi_s * su_loss(fs, -1.0, loss).mean())
    return float(r_p), float(r_m)


def _correct(r, correction):
    if correction == "abs":
        return abs(r)
    if correction == "relu":
        return max(0.0, r)
    return r


def su_risk(f_s, f_u, prior, loss: str = "squared", correction: str = "none") -> float:
    """Empirical SU risk.

    ``correction="none"``: Eq. (7) of Shi et al. 2021 (Bao et al. 2018), equal to
    ``R_+ + R_-``. ``"abs"`` / ``"relu"``: the corrected risk of Eq. (8),
    ``delta(R_+) + delta(R_-)`` with ``delta = |.|`` or ``max(0, .)`` (Lu et al. 2020).
    """
    check_choice(correction, "correction", _CORRECTIONS)
    r_p, r_m = su_partial_risks(f_s, f_u, prior, loss)
    return float(_correct(r_p, correction) + _correct(r_m, correction))


def su_zero_one_risk(f_s, f_u, prior) -> float:
    """SU zero-one risk, the validation criterion of Bao et al. 2018 (to be MINIMISED).

    With ``l01(z, t) = (1 - sign(t z)) / 2`` and ``sign(0) = +1`` (ties predicted positive),
    ``L_S = -sign(z) c`` and ``L_U = 1/2 + sign(z) c / 2``, ``c = 1/(2 pi_+ - 1)``. It is an
    unbiased estimate of the misclassification rate: about 0 for a perfect classifier, and it
    can be slightly negative on a finite sample.
    """
    pi_s, _, c = su_class_weights(prior)
    s_s = np.where(_check_scores(f_s, "f_s") >= 0.0, 1.0, -1.0)
    s_u = np.where(_check_scores(f_u, "f_u") >= 0.0, 1.0, -1.0)
    return float(-pi_s * c * s_s.mean() + 0.5 + 0.5 * c * s_u.mean())


def su_objective(theta, PsiS, PsiU, prior, lam, loss: str = "squared",
                 correction: str = "none") -> float:
    """``su_risk(PsiS theta, PsiU theta) + lam/2 ||theta||^2``, the objective that
    :func:`susl_fit` (squared loss) and :func:`sudh_fit` (double hinge) minimise."""
    lam = check_positive(lam, "lam", allow_zero=True)
    theta = np.asarray(theta, dtype=np.float64).ravel()
    f_s = np.asarray(PsiS @ theta).ravel()
    f_u = np.asarray(PsiU @ theta).ravel()
    return su_risk(f_s, f_u, prior, loss, correction) + 0.5 * lam * float(theta @ theta)


# --------------------------------------------------------------------------- bases
def _check_data(X, name, *, n_features=None, allow_sparse=True):
    if allow_sparse and sp.issparse(X):
        A = sp.csr_matrix(X, dtype=np.float64)
        if A.shape[0] < 1:
            raise ValueError(f"{name} has 0 rows; at least 1 required.")
        if A.shape[1] == 0:
            raise ValueError(f"{name} has 0 feature(s) while a minimum of 1 is required.")
        if not np.all(np.isfinite(A.data)):
            raise ValueError(f"{name} contains NaN or infinite value(s); impute or drop them "
                             "first.")
        if n_features is not None and A.shape[1] != n_features:
            raise ValueError(f"{name} has {A.shape[1]} features but {n_features} were expected "
                             "(the number of features of the other argument).")
        return A
    return check_matrix(X, name, n_features=n_features)


def _sq_norms(A):
    if sp.issparse(A):
        return np.asarray(A.multiply(A).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", A, A)


def _dense(M):
    return M.toarray() if sp.issparse(M) else np.asarray(M)


_TILE = 64  # rows of a kernel block formed at a time when a buffer is given


@nb.njit(cache=True, nogil=True)
def _csr_cscT_dense(xp, xi, xv, cp, ci, cv, out):  # pragma: no cover - numba
    """``out = X C'`` for CSR ``X`` (n, d) and ``C`` given by columns (CSC, (m, d)): each
    row of ``X`` adds ``x_ik C[:, k]`` for its non-zeros ``k`` into a dense output row, so
    the work is the number of (row, centre, shared feature) triples and no sparse product
    is built (a 2000 x 20 000 block of the sparse-text substitute: 2.5e8 triples)."""
    for i in range(out.shape[0]):
        row = out[i]
        row[:] = 0.0
        for a in range(xp[i], xp[i + 1]):
            k = xi[a]
            v = xv[a]
            for b in range(cp[k], cp[k + 1]):
                row[ci[b]] += v * cv[b]
    return out


def _sparse_gram(X, C):
    """Dense ``X C'`` of two sparse matrices (see :func:`_csr_cscT_dense`)."""
    X = sp.csr_matrix(X)
    Cc = sp.csc_matrix(C)
    out = np.empty((X.shape[0], Cc.shape[0]))
    return _csr_cscT_dense(X.indptr.astype(np.int64), X.indices.astype(np.int64),
                           X.data.astype(np.float64), Cc.indptr.astype(np.int64),
                           Cc.indices.astype(np.int64), Cc.data.astype(np.float64), out)


def su_kernel_block(X, C, kind: str = "rbf", *, gamma: float = 1.0, degree: int = 2,
                    scale: float = 1.0, c_sq=None, out=None):
    """Kernel block ``K[i, j] = k(X[i], C[j])`` computed with one BLAS product.

    ``"rbf"``: ``exp(-gamma ||x - c||^2)`` (the Gaussian kernel of Shi et al. 2021, whose
    ``sigma`` is ``gamma`` here); ``"poly"``: the dot-product kernel ``(scale <x, c>)^degree``
    (Shi et al. 2021, Sec. 5). ``X`` and ``C`` may be scipy sparse. ``c_sq`` optionally
    passes the precomputed ``||C[j]||^2``. ``out``: an optional C-contiguous float64 buffer of
    shape ``(n, m)`` that receives the block (for dense ``X`` and ``C``; an iterative caller
    reuses it instead of mapping fresh pages for every block).
    """
    if out is not None and not (sp.issparse(X) or sp.issparse(C)) and kind == "rbf":
        # -gamma ||x - c||^2 = <[2 gamma x, -gamma ||x||^2, 1], [c, 1, -gamma ||c||^2]>: one
        # product per tile of rows, clamped at 0 and exponentiated while the tile is cached
        if c_sq is None:
            c_sq = _sq_norms(C)
        n = X.shape[0]
        Xa = np.empty((n, X.shape[1] + 2))
        Xa[:, :-2] = X
        Xa[:, :-2] *= 2.0 * gamma
        Xa[:, -2] = -gamma * _sq_norms(X)
        Xa[:, -1] = 1.0
        Ca = np.empty((C.shape[0], C.shape[1] + 2))
        Ca[:, :-2] = C
        Ca[:, -2] = 1.0
        Ca[:, -1] = -gamma * c_sq
        for lo in range(0, n, _TILE):
            T = out[lo:lo + _TILE]
            np.matmul(Xa[lo:lo + _TILE], Ca.T, out=T)
            np.minimum(T, 0.0, out=T)
            np.exp(T, out=T)
        return out
    if out is not None and not (sp.issparse(X) or sp.issparse(C)):
        G = np.matmul(X, C.T, out=out)
    elif sp.issparse(X) and sp.issparse(C):
        G = _sparse_gram(X, C)  # the product of two sparse matrices is dense here
    else:
        G = _dense(X @ C.T)
    if kind == "poly":
        G *= scale
        return G ** degree if degree != 1 else G
    x_sq = _sq_norms(X)
    if c_sq is None:
        c_sq = _sq_norms(C)
    G *= -2.0
    G += x_sq[:, None]
    G += c_sq[None, :]
    np.maximum(G, 0.0, out=G)
    G *= -gamma
    return np.exp(G, out=G)


def _kernel_params(kind, gamma, degree, scale, kinds):
    check_choice(kind, "kind" if "linear" in kinds else "kernel", kinds)
    if kind == "rbf":
        gamma = check_positive(gamma, "gamma")
    if kind == "poly":
        degree = check_int(degree, "degree", minimum=1)
        scale = check_positive(scale, "scale")
    return gamma, degree, scale


def su_basis(X, kind: str = "linear", centers=None, *, gamma: float = 1.0, degree: int = 2,
             scale: float = 1.0, bias: bool = True):
    """Basis matrix ``Psi`` of the linear-in-parameters model ``f(x) = theta' psi(x)`` of
    SU-SL / SU-DH (Bao et al. 2018).

    Parameters
    ----------
    X : array or scipy sparse matrix (n, d)
    kind : {"linear", "rbf", "poly"}
        ``"linear"``: ``psi(x) = [x, 1]`` (sparse in, sparse out). ``"rbf"``:
        ``[exp(-gamma ||x - c_j||^2)]_j``; ``"poly"``: ``[(scale <x, c_j>)^degree]_j``, each
        followed by a bias column when ``bias``.
    centers : array or sparse (m, d)
        Kernel centres (required for the kernel bases; Shi et al. 2021 use all training
        points, similar and unlabelled).
    gamma, degree, scale : kernel parameters.
    bias : bool
        Append a column of ones.

    Returns
    -------
    ndarray or scipy.sparse.csr_matrix, shape (n, d + bias) or (n, m + bias)
    """
    gamma, degree, scale = _kernel_params(kind, gamma, degree, scale,
                                          {"linear", "rbf", "poly"})
    A = _check_data(X, "X")
    if kind == "linear":
        if not bias:
            return A
        if sp.issparse(A):
            return sp.hstack([A, np.ones((A.shape[0], 1))], format="csr")
        return np.hstack([A, np.ones((A.shape[0], 1))])
    if centers is None:
        raise ValueError(f"centers is required for the {kind!r} basis (an array of kernel "
                         "centres, e.g. all training points).")
    C = _check_data(centers, "centers", n_features=A.shape[1])
    out = np.empty((A.shape[0], C.shape[0] + int(bool(bias))))
    c_sq = _sq_norms(C)
    for s in range(0, A.shape[0], _BLOCK):
        out[s:s + _BLOCK, :C.shape[0]] = su_kernel_block(A[s:s + _BLOCK], C, kind, gamma=gamma,
                                                         degree=degree, scale=scale, c_sq=c_sq)
    if bias:
        out[:, -1] = 1.0
    return out


def _check_psi(PsiS, PsiU):
    S = _check_data(PsiS, "PsiS")
    U = _check_data(PsiU, "PsiU", n_features=S.shape[1])
    return S, U


def _col_mean(A):
    return np.asarray(A.mean(axis=0)).ravel()


# --------------------------------------------------------------------------- SU-SL
def susl_fit(PsiS, PsiU, prior, lam):
    """SU-SL (Bao et al. 2018): squared-loss SU risk (Shi et al. 2021, Eq. (7)) plus
    ``lam/2 ||theta||^2``, minimised in closed form.

    Setting the gradient to zero gives::

        (2 pi_+ - 1) (PsiU' PsiU / n_U + 2 lam I) theta = 2 pi_S mean(PsiS) - mean(PsiU)

    (only the unlabelled points enter the Gram matrix; the objective is strictly convex for
    every ``pi_+ != 1/2``). When the basis is wider than ``n_U`` (kernel bases over all
    training points) the equivalent ``n_U x n_U`` system of the Woodbury identity is solved
    instead: ``(A'A/n + 2 lam I)^{-1} b = (b - A' (2 lam n I + A A')^{-1} A b) / (2 lam)``.

    Parameters
    ----------
    PsiS : array or sparse (n_s, p)
        Basis of the flattened similar points (:func:`su_basis`).
    PsiU : array or sparse (n_u, p)
        Basis of the unlabelled points.
    prior : float
        ``pi_+`` in (0, 1), not 0.5.
    lam : float
        Regularisation ``> 0``.

    Returns
    -------
    theta : ndarray (p,)
    """
    pi_s, _, c = su_class_weights(prior)
    lam = check_positive(lam, "lam")
    S, U = _check_psi(PsiS, PsiU)
    n_u, p = U.shape
    b = (2.0 * pi_s * _col_mean(S) - _col_mean(U)) * c
    if p <= n_u:
        M = _dense(U.T @ U) / n_u
        M[np.diag_indices_from(M)] += 2.0 * lam
        return sla.solve(M, b, assume_a="pos", overwrite_a=True, check_finite=False)
    M = _dense(U @ U.T)
    M[np.diag_indices_from(M)] += 2.0 * lam * n_u
    w = sla.solve(M, np.asarray(U @ b).ravel(), assume_a="pos", overwrite_a=True,
                  check_finite=False)
    return (b - np.asarray(U.T @ w).ravel()) / (2.0 * lam)


# --------------------------------------------------------------------------- SU-DH
def _h_minus(z):
    """``l(z, -1) = max(0, z, (1 + z) / 2)`` of the double hinge."""
    return np.maximum(np.maximum(0.0, z), 0.5 + 0.5 * z)


def _sudh_gap(theta, g, U, q, lam):
    """``(F(theta), D(g))``: the SU-DH objective ``lam/2 |theta|^2 + q'theta + mean h(U theta)``
    and the dual objective ``-|q + U'g/n|^2 / (2 lam) + mean min(g, 1 - g)`` at ``g`` in
    ``[0, 1]^n`` (``h(z) = max_{g in [0,1]} g z + min(g, 1 - g)``), a lower bound on
    ``min F`` by weak duality."""
    n = U.shape[0]
    primal = float(0.5 * lam * theta @ theta + q @ theta + _h_minus(U @ theta).mean())
    r = q + np.asarray(U.T @ g).ravel() / n
    dual = float(-(r @ r) / (2.0 * lam) + np.minimum(g, 1.0 - g).mean())
    return primal, dual


def _sudh_qp(U, q, lam, s, solver, opts, verbose):
    """The SU-DH QP in the variables ``phi = theta / s`` (and ``eta = xi / s``,
    ``w = z / s``), its objective divided by ``s``; returns ``(theta, g)`` with ``g`` the dual
    point read from the multipliers of the two hinge constraints."""
    import cvxpy as cp

    n_u, p = U.shape
    phi = cp.Variable(p)
    eta = cp.Variable(n_u)
    # w = PsiU phi as a variable of its own: PsiU enters the conic problem once, not once
    # per constraint that uses it (half the solver time on a dense 2000 x 500 basis)
    w = cp.Variable(n_u)
    c_lin = eta >= w
    c_mid = eta >= 0.5 / s + 0.5 * w
    cons = [w == U @ phi, eta >= 0, c_lin, c_mid]
    prob = cp.Problem(cp.Minimize(0.5 * lam * s * cp.sum_squares(phi) + q @ phi
                                  + cp.sum(eta) / n_u), cons)
    try:
        prob.solve(solver=solver, verbose=verbose, **opts)
    except cp.error.SolverError as exc:
        return None, None, f"failed: {exc}"
    if prob.status != cp.OPTIMAL or phi.value is None:
        return None, None, f"returned status {prob.status!r} (not optimal)"
    theta = s * np.asarray(phi.value, dtype=np.float64)
    # stationarity in eta: mu_0 + mu_lin + mu_mid = 1/n; g = n (mu_lin + mu_mid / 2)
    g = n_u * (np.asarray(c_lin.dual_value, dtype=np.float64).ravel()
               + 0.5 * np.asarray(c_mid.dual_value, dtype=np.float64).ravel())
    return theta, np.clip(g, 0.0, 1.0), ""


def sudh_fit(PsiS, PsiU, prior, lam, solver: str = "CLARABEL", *, solver_options=None,
             verbose: bool = False, tol: float = 1e-6, full_output: bool = False):
    """SU-DH (Bao et al. 2018): double-hinge SU risk plus ``lam/2 ||theta||^2`` as a QP.

    With ``l(z, -1) = max(0, z, (1 + z)/2)`` and ``L_U(z) = l(z, -1) + pi_- c z``::

        min_{theta, z, xi}  lam/2 theta'theta + q'theta + mean(xi)
        s.t.  z = PsiU theta,  xi >= 0,  xi >= z,  xi >= 1/2 + z / 2,
        q = -pi_S c mean(PsiS) + pi_- c mean(PsiU),   c = 1/(2 pi_+ - 1),

    solved with cvxpy (the paper solves it with cvxopt). At the optimum each ``xi_i`` equals
    ``l(f(x_i), -1)``, so the objective equals :func:`su_objective` with
    ``loss="double_hinge"``.

    Scaling. The empirical SU risk is often unbounded below (it can be negative), and then
    ``||theta||`` grows like ``1 / lam``: at ``lam = 1e-7`` (the smallest of the grid of Bao
    et al.) the QP above has a quadratic term of ``1e-7`` against a solution of ``1e6`` to
    ``1e7``, and interior-point solvers stop early or fail. The QP is therefore solved in
    ``phi = theta / s`` (``xi``, ``z`` likewise, objective divided by ``s``)::

        min  lam s/2 phi'phi + q'phi + mean(eta)   s.t.  eta >= 0, eta >= w,
             eta >= 1/(2 s) + w/2,  w = PsiU phi,

    first with ``s = max(1, lam^(-1/2))`` (between the scale of a bounded risk, ``s = 1``,
    and that of an unbounded one, ``s = 1/lam``). Every solution is certified by the duality
    gap ``F(theta) - D(g)`` (``D`` the dual objective at the solver's multipliers ``g``, a
    lower bound on the optimum), relative to ``max(1, |F(theta)|)``; above ``tol`` the QP is
    solved again with ``s = max(1, rms(theta))`` (the solution's own size) and the better
    certified solution is kept.

    Parameters
    ----------
    PsiS, PsiU : arrays or sparse (n_s, p), (n_u, p)
    prior : float
    lam : float
    solver : {"CLARABEL", "OSQP"}
    solver_options : dict, optional
        Passed to ``problem.solve``; OSQP defaults to ``eps_abs = eps_rel = 1e-9``,
        ``max_iter = 200000``, polishing on (``polishing`` in OSQP >= 1, ``polish`` before).
    tol : float, default=1e-6
        Relative duality gap accepted without a warning.
    full_output : bool, default=False
        Also return a dict with ``rel_gap`` (the certified relative duality gap), ``tol``,
        ``scale`` (the ``s`` of the kept solution) and ``solves`` (QPs solved, 1 or 2).

    Returns
    -------
    theta : ndarray (p,)
        (``(theta, info)`` when ``full_output``.)

    Raises
    ------
    SUDHSolverError
        The solver failed or returned a status other than optimal (at both scalings).

    Warns
    -----
    ConvergenceWarning
        The best solution's relative duality gap exceeds ``tol`` (the message names ``lam``
        and the gap).
    """
    pi_s, pi_m, c = su_class_weights(prior)
    lam = check_positive(lam, "lam")
    tol = check_positive(tol, "tol")
    check_choice(solver, "solver", {"CLARABEL", "OSQP"})
    S, U = _check_psi(PsiS, PsiU)
    q = c * (-pi_s * _col_mean(S) + pi_m * _col_mean(U))
    opts = dict(solver_options or {})
    if solver == "OSQP":
        opts = {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iter": 200000, _OSQP_POLISH: True,
                **opts}
    best, why, scales = None, "", []
    s = max(1.0, lam ** -0.5)
    for _ in range(2):
        scales.append(s)
        theta, g, why_now = _sudh_qp(U, q, lam, s, solver, opts, verbose)
        if theta is None:
            why = why or why_now
            # no solution to take the size from: the scale of an unbounded risk (quadratic
            # term lam s = 1), or theta itself when that is the scale just tried
            s = max(1.0, 1.0 / lam) if s != max(1.0, 1.0 / lam) else 1.0
            continue
        primal, dual = _sudh_gap(theta, g, U, q, lam)
        rel = max(primal - dual, 0.0) / max(1.0, abs(primal))
        if best is None or rel < best[1]:
            best = (theta, rel, s)
        if rel <= tol:
            break
        s = max(1.0, float(np.sqrt(np.mean(theta ** 2))))
    if best is None:
        other = "OSQP" if solver == "CLARABEL" else "CLARABEL"
        raise SUDHSolverError(
            f"sudh_fit: solver {solver} {why} at lam={lam:g} (tried the scalings s = "
            f"{', '.join(f'{v:.3g}' for v in scales)} of theta); try solver={other!r}, a "
            "larger lam or rescaled features.")
    theta, rel, s = best
    if rel > tol:
        other = "OSQP" if solver == "CLARABEL" else "CLARABEL"
        warnings.warn(
            f"sudh_fit: at lam={lam:g} the best solution found by {solver} is certified only "
            f"to a relative duality gap of {rel:.3g} (above tol={tol:g}); it may be "
            f"suboptimal. Try solver={other!r} or a larger lam.", ConvergenceWarning,
            stacklevel=2)
    if full_output:
        return theta, {"rel_gap": rel, "tol": tol, "scale": s, "solves": len(scales)}
    return theta


# --------------------------------------------------------------------------- CUU
@dataclass(repr=False)
class CUUResult:
    """Result of :func:`cuu`: ``f(x) = sum_j beta_j k(x, c_j)`` (no bias).

    Attributes
    ----------
    beta : ndarray (m,)
        Final coefficients.
    centers : ndarray or sparse (m, d)
    center_index : ndarray (m,) or None
        Rows of ``vstack([XS, XU])`` used as centres (None when centres were given).
    kernel, gamma, degree, scale : kernel of the basis.
    eta0 : float
        The initial step size used (resolved when ``"auto"``).
    times : ndarray (n_iter,)
        Cumulative training time (s) after each iteration (set-up, including drawing the
        centres, counts in the first entry; checkpoint copies are excluded).
    batch_risks : ndarray (n_iter, 2)
        Minibatch partial risks ``(R_+, R_-)`` at the start of each iteration.
    batch_objective : ndarray (n_iter,)
        Minibatch corrected risk plus ``lam/2 ||beta||^2`` at the start of each iteration.
    checkpoints : dict[int, ndarray]
        ``beta`` after iteration ``t`` for every requested ``t`` (and ``n_iter``).
    """

    beta: np.ndarray
    centers: object
    center_index: np.ndarray | None
    kernel: str
    gamma: float
    degree: int
    scale: float
    prior: float
    lam: float
    correction: str
    eta0: float
    n_iter: int
    times: np.ndarray
    batch_risks: np.ndarray
    batch_objective: np.ndarray
    checkpoints: dict = field(default_factory=dict)

    @property
    def n_centers(self) -> int:
        return int(self.centers.shape[0])

    def coef_at(self, n_iter=None) -> np.ndarray:
        """``beta`` after ``n_iter`` iterations (must be a checkpoint; None = final)."""
        if n_iter is None or int(n_iter) == self.n_iter:
            return self.beta
        if int(n_iter) not in self.checkpoints:
            raise ValueError(f"n_iter={n_iter} is not a stored checkpoint; available: "
                             f"{sorted(self.checkpoints)}.")
        return self.checkpoints[int(n_iter)]

    def decision_function(self, X, n_iter=None) -> np.ndarray:
        """``f(X)`` after ``n_iter`` iterations, evaluated in row blocks of 2048."""
        beta = self.coef_at(n_iter)
        A = _check_data(X, "X", n_features=self.centers.shape[1])
        c_sq = _sq_norms(self.centers)
        out = np.empty(A.shape[0])
        for s in range(0, A.shape[0], _BLOCK):
            K = su_kernel_block(A[s:s + _BLOCK], self.centers, self.kernel, gamma=self.gamma,
                                degree=self.degree, scale=self.scale, c_sq=c_sq)
            out[s:s + _BLOCK] = K @ beta
        return out

    def decision_path(self, X, iters) -> np.ndarray:
        """Decision values after each iteration count in ``iters`` (stored checkpoints),
        shape ``(len(iters), n)``: every kernel block is computed once for all of them."""
        B = np.column_stack([self.coef_at(t) for t in iters])
        A = _check_data(X, "X", n_features=self.centers.shape[1])
        c_sq = _sq_norms(self.centers)
        out = np.empty((B.shape[1], A.shape[0]))
        for s in range(0, A.shape[0], _BLOCK):
            K = su_kernel_block(A[s:s + _BLOCK], self.centers, self.kernel, gamma=self.gamma,
                                degree=self.degree, scale=self.scale, c_sq=c_sq)
            out[:, s:s + _BLOCK] = (K @ B).T
        return out

    def predict(self, X, n_iter=None) -> np.ndarray:
        """Labels in {-1, +1} (``f = 0`` predicted +1)."""
        return np.where(self.decision_function(X, n_iter) >= 0.0, 1.0, -1.0)


def _rows(A, idx):
    return A[idx]


def _vstack(A, B):
    if sp.issparse(A) or sp.issparse(B):
        return sp.vstack([sp.csr_matrix(A), sp.csr_matrix(B)], format="csr")
    return np.vstack([A, B])


def _top_eig_gram(K, rng, n_power=30):
    """Largest eigenvalue of ``K' K`` by power iteration."""
    v = rng.standard_normal(K.shape[1])
    ev = 0.0
    for _ in range(n_power):
        w = K.T @ (K @ v)
        ev = float(np.linalg.norm(w))
        if ev == 0.0:
            return 0.0
        v = w / ev
    return ev


def _delta_prime(r, correction):
    if correction == "abs":
        return 1.0 if r >= 0.0 else -1.0
    if correction == "relu":
        return 1.0 if r > 0.0 else 0.0
    return 1.0


def cuu(XS, XU, prior, *, lam, kernel: str = "rbf", gamma: float = 1.0, degree: int = 2,
        scale: float = 1.0, centers=2000, n_iter: int = 100, batch_s: int = 1000,
        batch_u: int = 1000, eta0="auto", schedule: str = "inv_sqrt",
        correction: str = "abs", checkpoints=None, random_state=None) -> CUUResult:
    """CUU (Lu et al. 2020) for SU data, as used as a baseline by Shi et al. 2021.

    Model ``f(x) = sum_j beta_j k(x, c_j)``; objective the corrected risk of Shi et al. 2021,
    Eq. (8), with the squared loss, plus ``lam/2 ||beta||^2`` (weight decay). Each iteration
    draws ``batch_s`` similar and ``batch_u`` unlabelled points (without replacement within
    the batch), computes their kernel rows against the centres (memory
    ``O((batch_s + batch_u) m)``; the ``n x n`` matrix is never formed), evaluates the
    minibatch partial risks ``R_+, R_-`` and steps along::

        grad = lam beta + c delta'(R_+) (pi_S mean_S[l'(f,+1) k] - pi_- mean_U[l'(f,+1) k])
                        + c delta'(R_-) (pi_+ mean_U[l'(f,-1) k] - pi_S mean_S[l'(f,-1) k])

    with ``l'(z, +1) = (z - 1)/2``, ``l'(z, -1) = (z + 1)/2``, ``c = 1/(2 pi_+ - 1)``,
    ``delta' = sign`` (``sign(0) = 1``) for ``"abs"``, ``1[R > 0]`` for ``"relu"``, 1 for
    ``"none"``. Step ``eta_t = eta0 / sqrt(t)`` (``"inv_sqrt"``) or ``eta0`` (``"const"``).
    ``beta`` starts at 0.

    The step acts on ``beta`` (not on ``f`` in the RKHS), so its stable range shrinks as the
    number of centres grows: with 200 Gaussian centres ``eta0 = 1`` already diverges.
    ``eta0="auto"`` (default) sets ``eta0 = 1 / L`` with ``L = lambda_max(Ku' Ku) /
    (2 batch_u) + lam``, the curvature of the uncorrected squared-loss risk (``L_U'' = 1/2``)
    on the first unlabelled minibatch, from 30 power iterations (counted in the training
    time). This step is safe but conservative for wide kernels, whose top eigenvector is
    the near-constant direction: on a 20-D two-Gaussian problem (n_S = 5000 pairs,
    n_U = 10^4, ``gamma = 1/40``) 100 iterations with the ``"auto"`` step still predicted
    every point positive, while 4x that step reached 0.89 accuracy and ~7x diverged. Tune
    ``eta0`` (e.g. 1, 2, 4, 8 times the ``"auto"`` value, read from ``CUUResult.eta0``), as
    Shi et al. 2021 tuned the initial step size.

    Parameters
    ----------
    XS : array or sparse (n_s, d)
        Flattened similar points (both points of every pair).
    XU : array or sparse (n_u, d)
        Unlabelled points.
    prior : float
        ``pi_+`` in (0, 1), not 0.5.
    lam : float
        Weight decay ``> 0``.
    kernel : {"rbf", "poly"}
        ``exp(-gamma ||x - c||^2)`` or ``(scale <x, c>)^degree``.
    centers : int, "all" or array (m, d)
        Number of centres drawn without replacement from ``vstack([XS, XU])`` (CUU(2000)),
        all of those points (CUU(All)), or explicit centres.
    n_iter, batch_s, batch_u : iterations and minibatch sizes (capped at n_s, n_u).
    eta0 : float or "auto"
    schedule : {"inv_sqrt", "const"}
    correction : {"abs", "relu", "none"}
    checkpoints : iterable of int, optional
        Iterations (1..n_iter) after which ``beta`` is stored.
    random_state : int, Generator or None

    Returns
    -------
    CUUResult
    """
    t0 = time.perf_counter()
    pi_s, pi_m, c = su_class_weights(prior)
    pi_p = 1.0 - pi_m
    lam = check_positive(lam, "lam")
    gamma, degree, scale = _kernel_params(kernel, gamma, degree, scale, {"rbf", "poly"})
    n_iter = check_int(n_iter, "n_iter", minimum=1)
    batch_s = check_int(batch_s, "batch_s", minimum=1)
    batch_u = check_int(batch_u, "batch_u", minimum=1)
    if not (isinstance(eta0, str) and eta0 == "auto"):
        eta0 = check_positive(eta0, "eta0")
    check_choice(schedule, "schedule", {"inv_sqrt", "const"})
    check_choice(correction, "correction", _CORRECTIONS)
    S = _check_data(XS, "XS")
    U = _check_data(XU, "XU", n_features=S.shape[1])
    n_s, n_u = S.shape[0], U.shape[0]
    ckpts = set()
    if checkpoints is not None:
        for t in checkpoints:
            t = check_int(t, "checkpoints", minimum=1)
            if t > n_iter:
                raise ValueError(f"checkpoints holds {t} > n_iter={n_iter}.")
            ckpts.add(t)
    rng = np.random.default_rng(random_state)
    center_index = None
    if isinstance(centers, str):
        if centers != "all":
            raise ValueError(f"centers must be an int, 'all' or an array, got {centers!r}.")
        C = _vstack(S, U)
    elif isinstance(centers, numbers.Integral) and not isinstance(centers, bool):
        m = check_int(centers, "centers", minimum=1)
        if m > n_s + n_u:
            raise ValueError(f"centers={m} exceeds the {n_s + n_u} training points; use "
                             "centers='all' or a smaller number.")
        center_index = np.sort(rng.choice(n_s + n_u, size=m, replace=False))
        in_s = center_index[center_index < n_s]
        in_u = center_index[center_index >= n_s] - n_s
        C = _vstack(_rows(S, in_s), _rows(U, in_u))
    else:
        if centers is None or isinstance(centers, bool):
            raise ValueError("centers must be an int, 'all' or an array of centres.")
        C = _check_data(centers, "centers", n_features=S.shape[1])
    c_sq = _sq_norms(C)
    m = C.shape[0]
    bs, bu = min(batch_s, n_s), min(batch_u, n_u)
    beta = np.zeros(m)
    times = np.empty(n_iter)
    risks = np.empty((n_iter, 2))
    objective = np.empty(n_iter)
    stored = {}
    paused = 0.0
    # the minibatch kernel blocks, computed into buffers reused by every iteration
    buf_s = None if sp.issparse(S) or sp.issparse(C) else np.empty((bs, m))
    buf_u = None if sp.issparse(U) or sp.issparse(C) else np.empty((bu, m))
    for t in range(1, n_iter + 1):
        i_s = rng.choice(n_s, size=bs, replace=False) if bs < n_s else np.arange(n_s)
        i_u = rng.choice(n_u, size=bu, replace=False) if bu < n_u else np.arange(n_u)
        Ks = su_kernel_block(_rows(S, i_s), C, kernel, gamma=gamma, degree=degree,
                             scale=scale, c_sq=c_sq, out=buf_s)
        Ku = su_kernel_block(_rows(U, i_u), C, kernel, gamma=gamma, degree=degree,
                             scale=scale, c_sq=c_sq, out=buf_u)
        if t == 1 and isinstance(eta0, str):
            eta0 = 1.0 / (_top_eig_gram(Ku, rng) / (2.0 * bu) + lam)
        fs = Ks @ beta
        fu = Ku @ beta
        # squared loss l(z, t) = (tz - 1)^2/4, Shi et al. 2021, Eq. (8)
        lsp, lsm = 0.25 * (fs - 1.0) ** 2, 0.25 * (fs + 1.0) ** 2
        lup, lum = 0.25 * (fu - 1.0) ** 2, 0.25 * (fu + 1.0) ** 2
        r_p = c * (pi_s * lsp.mean() - pi_m * lup.mean())
        r_m = c * (pi_p * lum.mean() - pi_s * lsm.mean())
        risks[t - 1] = r_p, r_m
        objective[t - 1] = (_correct(r_p, correction) + _correct(r_m, correction)
                            + 0.5 * lam * float(beta @ beta))
        d1, d2 = _delta_prime(r_p, correction), _delta_prime(r_m, correction)
        # per-point weights of the kernel rows in the gradient
        w_s = (c * pi_s / bs) * (d1 * 0.5 * (fs - 1.0) - d2 * 0.5 * (fs + 1.0))
        w_u = (c / bu) * (-d1 * pi_m * 0.5 * (fu - 1.0) + d2 * pi_p * 0.5 * (fu + 1.0))
        grad = Ks.T @ w_s
        grad += Ku.T @ w_u
        grad += lam * beta
        eta = eta0 / np.sqrt(t) if schedule == "inv_sqrt" else eta0
        beta -= eta * grad
        times[t - 1] = time.perf_counter() - t0 - paused
        if t in ckpts and t != n_iter:
            tp = time.perf_counter()
            stored[t] = beta.copy()
            paused += time.perf_counter() - tp
    stored[n_iter] = beta.copy()
    return CUUResult(beta=beta, centers=C, center_index=center_index, kernel=kernel,
                     gamma=gamma, degree=degree, scale=scale, prior=float(prior), lam=lam,
                     correction=correction, eta0=float(eta0), n_iter=n_iter, times=times,
                     batch_risks=risks, batch_objective=objective, checkpoints=stored)


# --------------------------------------------------------------------------- class prior
@dataclass(repr=False)
class SUPriorEstimate:
    """Result of :func:`estimate_su_prior`.

    Attributes
    ----------
    prior : float
        Estimated ``pi_+`` (``max(pi_+, pi_-)``, or its complement when
        ``positive_is_minority``).
    pi_s : float
        Estimated ``pi_S = pi_+^2 + pi_-^2`` (in [1/2, 1]).
    method : str
    gamma : float
        Gaussian kernel parameter used.
    ratio : float or None
        ``method="embedding"``: the estimate of ``(2 pi_+ - 1)^2`` (clipped to [0, 1]).
    lambdas, distances, slopes : ndarray or None
        MPE methods: the grid of ``lambda``, the RKHS distances ``d(lambda)`` and their
        finite-difference slopes.
    threshold : float or None
        MPE methods: the absolute threshold ``threshold * ||mu_mix - mu_comp||`` applied to
        the distances (``"value"``) or to the slopes (``"gradient"``).
    """

    prior: float
    pi_s: float
    method: str
    gamma: float
    ratio: float | None = None
    lambdas: np.ndarray | None = None
    distances: np.ndarray | None = None
    slopes: np.ndarray | None = None
    threshold: float | None = None


def _median_gamma(Z, gamma, n_ref=1000):
    if gamma is not None:
        return check_positive(gamma, "gamma")
    R = Z[:n_ref]
    sq = _sq_norms(R)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (R @ R.T), 0.0)
    med = float(np.median(D2[np.triu_indices_from(D2, k=1)])) if R.shape[0] > 1 else 0.0
    return 1.0 / med if med > 0 else 1.0


def _prior_from_pi_s(pi_s, positive_is_minority):
    hi = 0.5 * (np.sqrt(max(2.0 * pi_s - 1.0, 0.0)) + 1.0)
    return float(1.0 - hi if positive_is_minority else hi)


def _embedding_prior(XS, XU, n_max, gamma, positive_is_minority, rng):
    pairs = _as_pairs(XS)
    d = pairs.shape[1] // 2
    U = _check_data(XU, "XU", n_features=d, allow_sparse=False)
    if U.shape[0] < 2:
        raise ValueError("XU needs at least 2 rows.")
    if pairs.shape[0] < 2:
        raise ValueError("XS needs at least 2 similar pairs (4 rows).")
    n_pairs = max(2, n_max // 2)
    if pairs.shape[0] > n_pairs:
        pairs = pairs[rng.choice(pairs.shape[0], n_pairs, replace=False)]
    if U.shape[0] > n_max:
        U = U[rng.choice(U.shape[0], n_max, replace=False)]
    S = pairs.reshape(-1, d)               # rows 2i, 2i+1 form pair i
    gamma = _median_gamma(np.vstack([S[: n_max // 2], U[: n_max // 2]]), gamma)
    ns, nu = S.shape[0], U.shape[0]
    Kss = su_kernel_block(S, S, "rbf", gamma=gamma)
    ev, od = np.arange(0, ns, 2), np.arange(1, ns, 2)
    pair_term = float(Kss[ev, od].mean())                  # E_pairs k(x, x^)
    excl = np.trace(Kss) + 2.0 * Kss[ev, od].sum()
    mu_ss = (Kss.sum() - excl) / (ns * ns - 2 * ns)       # ||mu_S||^2 (U-statistic)
    del Kss
    Kuu = su_kernel_block(U, U, "rbf", gamma=gamma)
    mu_uu = (Kuu.sum() - np.trace(Kuu)) / (nu * (nu - 1))
    del Kuu
    mu_su = float(su_kernel_block(S, U, "rbf", gamma=gamma).mean())
    num = mu_ss - 2.0 * mu_su + mu_uu
    den = pair_term - mu_ss
    ratio = float(np.clip(num / den, 0.0, 1.0)) if den > 0 else 0.0
    pi_s = 0.5 * (1.0 + ratio)
    return SUPriorEstimate(prior=_prior_from_pi_s(pi_s, positive_is_minority), pi_s=pi_s,
                           method="embedding", gamma=float(gamma), ratio=ratio)


def _project_simplex(v):
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    k = np.arange(1, v.shape[0] + 1)
    rho = np.nonzero(u - css / k > 0)[0][-1]
    return np.maximum(v - css[rho] / (rho + 1.0), 0.0)


def _hull_distance(Kmm, b, const, alpha0, L, n_steps):
    """``min_{alpha in simplex} alpha' Kmm alpha - 2 alpha' b + const`` by FISTA."""
    a = alpha0.copy()
    y = a.copy()
    tk = 1.0
    for _ in range(n_steps):
        g = 2.0 * (Kmm @ y - b)
        a_new = _project_simplex(y - g / L)
        t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * tk * tk))
        y = a_new + ((tk - 1.0) / t_new) * (a_new - a)
        a, tk = a_new, t_new
    val = float(a @ (Kmm @ a) - 2.0 * (a @ b) + const)
    return np.sqrt(max(val, 0.0)), a


def _as_pairs(XS):
    A = np.asarray(XS.toarray() if sp.issparse(XS) else XS)
    if A.ndim == 3:
        if A.shape[1] != 2:
            raise ValueError(f"XS given as pairs must have shape (n_pairs, 2, d), got {A.shape}.")
        A = A.reshape(-1, A.shape[2])
    A = check_matrix(A, "XS")
    if A.shape[0] % 2:
        raise ValueError(f"XS has {A.shape[0]} rows; with space='pairs' it must hold the "
                         "flattened pairs (x_1, x^_1, x_2, x^_2, ...), an even number of rows.")
    return A.reshape(A.shape[0] // 2, 2 * A.shape[1])


def estimate_su_prior(XS, XU, *, method: str = "embedding", space: str = "pairs",
                      threshold=None, n_max: int = 2000, gamma=None, lambda_max: float = 3.0,
                      n_grid: int = 41, n_steps: int = 300, positive_is_minority: bool = False,
                      random_state=None) -> SUPriorEstimate:
    """Class prior of SU data from ``pi_S`` (Bao et al. 2018; Shi et al. 2021, Sec. 2.5).

    ``method="embedding"`` (default): a closed-form kernel-mean-embedding estimator that
    uses the pair structure. Write ``mu_+``, ``mu_-`` for the kernel mean embeddings of the
    class conditionals and ``t = pi_+^2 / pi_S`` for the positive share of the flattened
    similar points (Shi et al. 2021, Eq. (5) with squares). Then ``mu_S = t mu_+ +
    (1 - t) mu_-``, ``mu_U = pi_+ mu_+ + pi_- mu_-`` and, the two points of a similar pair
    sharing their label (Eq. (2)), ``E_pairs k(x, x^) = t ||mu_+||^2 + (1 - t) ||mu_-||^2``.
    Since ``t - pi_+ = pi_+ pi_- (2 pi_+ - 1) / pi_S`` and ``t (1 - t) = pi_+^2 pi_-^2 /
    pi_S^2``, this gives (our derivation from those equations; it holds for any kernel
    with ``mu_+ != mu_-``, e.g. any characteristic kernel, and needs no irreducibility)::

        (2 pi_+ - 1)^2 = 2 pi_S - 1 = ||mu_S - mu_U||^2 / (E_pairs k(x, x^) - ||mu_S||^2).

    The inner products are estimated by U-statistics on at most ``n_max`` similar points
    (``n_max / 2`` pairs) and ``n_max`` unlabelled points with a Gaussian kernel (the
    terms of a point with itself and with its pair partner are left out of
    ``||mu_S||^2``); the ratio is clipped to [0, 1].

    ``method="value"`` / ``"gradient"``: mixture-proportion estimation. Two independent
    unlabelled points satisfy ``p(x) p(x') = pi_S p_S(x, x') + pi_D p_D(x, x')`` (Shi et al.
    2021, Eq. (10)), so ``pi_S`` is the proportion of the similar-pair distribution
    (component) in the distribution of independent unlabelled pairs (mixture). It is
    estimated with the kernel-embedding distance of Ramaswamy, Scott & Tewari 2016
    (written here from the paper's definitions): with Gaussian-kernel mean embeddings
    ``mu_mix``, ``mu_comp`` of the two samples and ``C`` the convex hull of the embedded
    mixture points,

        d(lambda) = min_{w in C} || lambda mu_mix + (1 - lambda) mu_comp - w ||,

    which is ~0 for ``lambda <= 1 / kappa*`` (``kappa*`` the mixture proportion) and grows
    beyond, with slope at most ``D = ||mu_mix - mu_comp||``. ``d`` is computed on a grid of
    ``lambda`` in ``[1, lambda_max]`` (projection onto the hull by accelerated projected
    gradient on the simplex, warm started), and ``lambda_hat`` is

    - ``method="value"`` (their KM1, value thresholding): the first ``lambda`` with
      ``d(lambda) >= threshold * D`` (linear interpolation between grid points; default
      ``threshold = 0.01``);
    - ``method="gradient"`` (their KM2, gradient thresholding): the first grid point where
      the finite-difference slope of ``d`` exceeds ``threshold * D`` (default 0.1).

    With finite samples the kink of ``d`` at ``1 / kappa*`` is smoothed, so these rules are
    heuristics whose thresholds depend on the dimension and sample size (calibrated on
    2-D two-Gaussian samples of 300-400 points; they overestimate ``pi_S`` in higher
    dimension). ``pi_S = 1 / lambda_hat`` is clipped to [1/2, 1]. The MPE methods subsample
    at most ``min(n_max, 400)`` points per sample (cost ``O(n^2)`` per projection step).

    In every method ``pi_+ = (sqrt(2 pi_S - 1) + 1) / 2``. This inverts
    ``2 pi_S - 1 = (2 pi_+ - 1)^2`` and therefore returns ``max(pi_+, pi_-)``: SU data cannot
    tell which class is the larger one. Pass ``positive_is_minority=True`` to get
    ``min(pi_+, pi_-)`` (e.g. one-vs-rest positives). Near ``pi_S = 1/2`` the square root
    makes the prior estimate sensitive to errors in ``pi_S`` (priors close to 0.5 are poorly
    estimated).

    ``space="pairs"`` (default; MPE methods only) runs the estimator on pairs ``[x, x']``
    in ``R^{2d}``, where Eq. (10) holds: mixture = random pairs of distinct unlabelled
    points, component = the similar pairs. ``space="points"`` uses the flattened similar
    points as the component and the unlabelled points as the mixture. That variant is
    biased: ``p = pi_+ p_+ + pi_- p_-`` contains ``p~_S = (pi_+^2 p_+ + pi_-^2 p_-) / pi_S``
    in proportion up to ``pi_S / max(pi_+, pi_-)`` (not ``pi_S``) when the classes are
    separable, so it overestimates ``pi_S``; it is kept for comparison only.

    Parameters
    ----------
    XS : array (2 n_S, d) or (n_S, 2, d)
        Similar points, flattened pair by pair (rows ``2i`` and ``2i+1`` form pair ``i``).
    XU : array (n_u, d)
    method : {"embedding", "value", "gradient"}
    space : {"pairs", "points"}
    threshold : float, optional
        Fraction of ``D`` (MPE methods, see above).
    n_max : int
        Subsample size (see above).
    gamma : float, optional
        Gaussian kernel ``exp(-gamma ||a - b||^2)``; default ``1 / median`` squared distance.
    lambda_max, n_grid : the grid of ``lambda`` in ``[1, lambda_max]``.
    n_steps : projected-gradient steps per grid point.
    positive_is_minority : bool
    random_state : int, Generator or None

    Returns
    -------
    SUPriorEstimate
    """
    check_choice(space, "space", {"pairs", "points"})
    n_max = check_int(n_max, "n_max", minimum=2)
    n_grid = check_int(n_grid, "n_grid", minimum=3)
    n_steps = check_int(n_steps, "n_steps", minimum=1)
    lambda_max = check_positive(lambda_max, "lambda_max")
    if lambda_max <= 1.0:
        raise ValueError(f"lambda_max must be > 1, got {lambda_max}.")
    check_choice(method, "method", {"embedding", "value", "gradient"})
    if threshold is None:
        threshold = 0.01 if method == "value" else 0.1
    threshold = check_positive(threshold, "threshold")
    if threshold >= 1.0:
        raise ValueError(f"threshold must lie in (0, 1) (a fraction of ||mu_mix - mu_comp||), "
                         f"got {threshold}.")
    rng = np.random.default_rng(random_state)
    if method == "embedding":
        return _embedding_prior(XS, XU, n_max, gamma, positive_is_minority, rng)
    n_max = min(n_max, 400)
    if space == "pairs":
        comp = _as_pairs(XS)
        U = _check_data(XU, "XU", n_features=comp.shape[1] // 2, allow_sparse=False)
        if U.shape[0] < 2:
            raise ValueError("XU needs at least 2 rows to form unlabelled pairs.")
        n_mix = min(n_max, U.shape[0] // 2)
        perm = rng.permutation(U.shape[0])[:2 * n_mix]
        mix = np.hstack([U[perm[:n_mix]], U[perm[n_mix:]]])
    else:
        comp = _check_data(np.asarray(XS.toarray() if sp.issparse(XS) else XS), "XS",
                           allow_sparse=False)
        mix = _check_data(XU, "XU", n_features=comp.shape[1], allow_sparse=False)
    if comp.shape[0] > n_max:
        comp = comp[rng.choice(comp.shape[0], n_max, replace=False)]
    if mix.shape[0] > n_max:
        mix = mix[rng.choice(mix.shape[0], n_max, replace=False)]
    Z = np.vstack([mix, comp])
    nf, nh = mix.shape[0], comp.shape[0]
    gamma = _median_gamma(Z, gamma)
    K = su_kernel_block(Z, Z, "rbf", gamma=gamma)
    Kmm = K[:nf, :nf]
    uf = np.full(nf, 1.0 / nf)
    uh = np.full(nh, 1.0 / nh)
    kf = K[:nf, :nf] @ uf       # <phi(x_i), mu_mix>, i in mixture
    kh = K[:nf, nf:] @ uh       # <phi(x_i), mu_comp>
    ff = float(uf @ K[:nf, :nf] @ uf)
    hh = float(uh @ K[nf:, nf:] @ uh)
    fh = float(uf @ K[:nf, nf:] @ uh)
    dist_fh = np.sqrt(max(ff + hh - 2.0 * fh, 0.0))
    L = 2.0 * float(np.linalg.eigvalsh(Kmm)[-1])
    lambdas = np.linspace(1.0, lambda_max, n_grid)
    dists = np.empty(n_grid)
    alpha = uf.copy()
    for k, lam_k in enumerate(lambdas):
        b = lam_k * kf + (1.0 - lam_k) * kh
        const = lam_k ** 2 * ff + (1.0 - lam_k) ** 2 * hh + 2.0 * lam_k * (1.0 - lam_k) * fh
        dists[k], alpha = _hull_distance(Kmm, b, const, alpha, L, n_steps)
    step = lambdas[1] - lambdas[0]
    slopes = np.diff(dists) / step
    level = threshold * dist_fh
    if method == "value":
        above = np.nonzero(dists >= level)[0]
        if above.size == 0:
            lam_hat = lambdas[-1]
        elif above[0] == 0:
            lam_hat = lambdas[0]
        else:
            k = above[0]
            frac = (level - dists[k - 1]) / max(dists[k] - dists[k - 1], 1e-300)
            lam_hat = lambdas[k - 1] + frac * step
    else:
        above = np.nonzero(slopes >= level)[0]
        lam_hat = lambdas[above[0]] if above.size else lambdas[-1]
    pi_s = float(np.clip(1.0 / lam_hat, 0.5, 1.0))
    prior = _prior_from_pi_s(pi_s, positive_is_minority)
    return SUPriorEstimate(prior=float(prior), pi_s=pi_s, method=method, gamma=float(gamma),
                           lambdas=lambdas, distances=dists, slopes=slopes,
                           threshold=float(level))
