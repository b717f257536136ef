"""Numpy references for TSGSU (Shi et al. 2021) on small problems.

- :func:`tsgsu_exact_kernel`: the exact-kernel iterate ``h_t`` of Shi et al. 2021,
  Eq. (22), with the same minibatches and steps as :func:`weaklabel.solvers.tsgsu.tsgsu`
  but exact kernel values instead of random features (Lemma 1 compares ``f_T`` with it).
- :func:`su_kernel_minimiser`: the exact minimiser of the uncorrected squared-loss SU
  objective (Shi et al. 2021, Eq. (7), i.e. Bao et al. 2018) plus ``lam/2 ||f||_H^2`` in the
  RKHS, by the representer theorem, in closed form (numpy) or with cvxpy.
- :func:`tsgsu_iteration_numpy` / :func:`tsgsu_numpy`: a pure-numpy transcription of one
  TSGSU iteration (Eqs. (8), (25), (26)) and of the whole run, to check the numba solver.
"""

from __future__ import annotations

from dataclasses import dataclass

import cvxpy as cp
import numpy as np

from .._validation import check_choice, check_matrix, check_positive, check_prior
from ..solvers.tsgsu import random_feature_block, tsgsu_batches, tsgsu_seed

__all__ = ["SUKernelMinimiser", "TSGSUExactKernel", "su_kernel_minimiser", "tsgsu_exact_kernel",
           "tsgsu_iteration_numpy", "tsgsu_kernel_matrix", "tsgsu_numpy"]


def tsgsu_kernel_matrix(A, B, *, kernel="rbf", gamma=1.0, degree=2, scale=1.0):
    """Exact kernel ``exp(-gamma ||a - b||^2)`` or ``(scale <a, b>)^degree`` between rows."""
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    check_choice(kernel, "kernel", ("rbf", "poly"))
    if kernel == "rbf":
        sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T
        return np.exp(-gamma * np.maximum(sq, 0.0))
    return (scale * (A @ B.T)) ** degree


# --------------------------------------------------------------------------- one iteration
def _losses(loss):
    if loss == "squared":
        return (lambda z, y: 0.25 * (y * z - 1.0) ** 2,
                lambda z, y: 0.5 * y * (y * z - 1.0))

    def l_dh(z, y):
        return np.maximum(-y * z, np.maximum(0.0, 0.5 - 0.5 * y * z))

    def dl_dh(z, y):
        u = y * z
        return y * np.where(u < -1.0, -1.0, np.where(u < 1.0, -0.5, 0.0))

    return l_dh, dl_dh


def tsgsu_iteration_numpy(phi_S, phi_U, f_S, f_U, prior, *, eta, loss="squared",
                          correction="abs"):
    """One TSGSU coefficient ``alpha_t`` (Shi et al. 2021, Eq. (25)), written out in numpy.

    ``phi_S`` (b_S, D), ``phi_U`` (b_U, D): block ``t``'s features of the minibatch;
    ``f_S``, ``f_U``: ``f_t`` there. Returns ``(alpha_t, R_+, R_-)``.
    """
    l, dl = _losses(loss)
    pp = prior
    pm = 1.0 - pp
    ps = pp**2 + pm**2
    den = 2.0 * pp - 1.0
    r_pos = (ps * np.mean(l(f_S, 1.0)) - pm * np.mean(l(f_U, 1.0))) / den
    r_neg = (pp * np.mean(l(f_U, -1.0)) - ps * np.mean(l(f_S, -1.0))) / den
    if correction == "abs":
        d1, d2 = np.sign(r_pos) or 1.0, np.sign(r_neg) or 1.0
    elif correction == "relu":
        d1, d2 = float(r_pos > 0), float(r_neg > 0)
    else:
        d1 = d2 = 1.0
    # Eq. (25): the minibatch means of l'(f, +-1) phi(x)
    gS_pos = (dl(f_S, 1.0)[:, None] * phi_S).mean(0)
    gS_neg = (dl(f_S, -1.0)[:, None] * phi_S).mean(0)
    gU_pos = (dl(f_U, 1.0)[:, None] * phi_U).mean(0)
    gU_neg = (dl(f_U, -1.0)[:, None] * phi_U).mean(0)
    grad = (d1 * (ps * gS_pos - pm * gU_pos) + d2 * (pp * gU_neg - ps * gS_neg)) / den
    return -eta * grad, float(r_pos), float(r_neg)


def _etas(eta0, n_iter, schedule):
    t = np.arange(1, n_iter + 1, dtype=float)
    return eta0 / np.sqrt(t) if schedule == "inv_sqrt" else np.full(n_iter, eta0 / np.sqrt(n_iter))


def tsgsu_numpy(XS, XU, prior, *, lam, kernel="rbf", gamma=1.0, degree=2, scale=1.0,
                features="auto", n_iter=10, batch_s=50, batch_u=50, n_features=20, eta0=1.0,
                schedule="inv_sqrt", loss="squared", correction="abs", random_state=0):
    """The whole TSGSU run in numpy (Algorithm 1 with the prediction of Algorithm 2 by full
    replay and eager decay of the earlier ``alpha``). Returns ``(coef, decayed)``: the raw
    ``alpha_t`` rows (as :attr:`TSGSUResult.coef`) and the final decayed coefficients."""
    XS, XU = check_matrix(XS, "XS"), check_matrix(XU, "XU")
    seed = tsgsu_seed(random_state)
    eta = _etas(eta0, n_iter, schedule)
    kw = dict(kernel=kernel, gamma=gamma, degree=degree, scale=scale, features=features,
              n_features=n_features, seed=seed)
    raw, decayed = [], []
    for t, (iS, iU) in enumerate(
            tsgsu_batches(XS.shape[0], XU.shape[0], batch_s, batch_u, n_iter, seed), start=1):
        fS, fU = np.zeros(iS.size), np.zeros(iU.size)
        for i, a in enumerate(decayed, start=1):
            fS += random_feature_block(XS[iS], i, **kw) @ a
            fU += random_feature_block(XU[iU], i, **kw) @ a
        alpha, _, _ = tsgsu_iteration_numpy(
            random_feature_block(XS[iS], t, **kw), random_feature_block(XU[iU], t, **kw),
            fS, fU, prior, eta=eta[t - 1], loss=loss, correction=correction)
        decayed = [(1.0 - eta[t - 1] * lam) * a for a in decayed]  # Eq. (26)
        decayed.append(alpha)
        raw.append(alpha)
    return np.array(raw), np.array(decayed)


# --------------------------------------------------------------------------- exact kernel
@dataclass(repr=False)
class TSGSUExactKernel:
    """The exact-kernel iterate ``h_{T+1} = sum_i beta_i k(c_i, .)`` (Shi et al. 2021,
    Eq. (22)), with every minibatch point of every iteration as a centre."""

    centers: np.ndarray
    beta: np.ndarray
    kernel: str
    gamma: float
    degree: int
    scale: float
    risk_pos: np.ndarray
    risk_neg: np.ndarray

    def __repr__(self) -> str:
        return f"TSGSUExactKernel(n_centers={self.beta.size}, kernel={self.kernel!r})"

    def decision_function(self, X):
        K = tsgsu_kernel_matrix(X, self.centers, kernel=self.kernel, gamma=self.gamma,
                                degree=self.degree, scale=self.scale)
        return K @ self.beta


def tsgsu_exact_kernel(XS, XU, prior, *, lam, kernel="rbf", gamma=1.0, degree=2, scale=1.0,
                       n_iter=20, batch_s=50, batch_u=50, eta0=1.0, schedule="inv_sqrt",
                       loss="squared", correction="abs", random_state=0) -> TSGSUExactKernel:
    """Exact-kernel TSGSU iterate ``h_t`` (Shi et al. 2021, Eq. (22)).

    Same minibatches (:func:`weaklabel.solvers.tsgsu.tsgsu_batches`) and steps as
    :func:`weaklabel.solvers.tsgsu.tsgsu` with the same ``random_state``; the stochastic
    gradient ``xi_t`` of Eq. (18) uses ``k(x, .)`` instead of ``phi_t(x) phi_t(.)``, and the
    earlier coefficients decay by ``1 - eta_t lam``.
    """
    XS, XU = check_matrix(XS, "XS"), check_matrix(XU, "XU", n_features=XS.shape[1])
    prior = check_prior(prior, "prior")
    lam = check_positive(lam, "lam")
    seed = tsgsu_seed(random_state)
    eta = _etas(eta0, n_iter, schedule)
    kk = dict(kernel=kernel, gamma=gamma, degree=degree, scale=scale)
    centers = np.zeros((0, XS.shape[1]))
    beta = np.zeros(0)
    rps, rms = [], []
    # identity features: tsgsu_iteration_numpy with phi = I gives -eta_t times the weights
    # of k(x_i, .) in xi_t (Eq. (18) with minibatch means)
    for t, (iS, iU) in enumerate(
            tsgsu_batches(XS.shape[0], XU.shape[0], batch_s, batch_u, n_iter, seed), start=1):
        Xb = np.vstack([XS[iS], XU[iU]])
        fb = tsgsu_kernel_matrix(Xb, centers, **kk) @ beta if beta.size else np.zeros(len(Xb))
        bS = iS.size
        eye = np.eye(Xb.shape[0])
        a, rp, rm = tsgsu_iteration_numpy(eye[:bS], eye[bS:], fb[:bS], fb[bS:], prior,
                                          eta=eta[t - 1], loss=loss, correction=correction)
        beta = np.concatenate([(1.0 - eta[t - 1] * lam) * beta, a])
        centers = np.vstack([centers, Xb])
        rps.append(rp)
        rms.append(rm)
    return TSGSUExactKernel(centers=centers, beta=beta, risk_pos=np.array(rps),
                            risk_neg=np.array(rms), **kk)


# --------------------------------------------------------------------------- minimiser
@dataclass(repr=False)
class SUKernelMinimiser:
    """Minimiser ``f = sum_j beta_j k(x_j, .)`` over the ``2 n_S + n_U`` training points
    (``XS`` rows first). ``f_train`` are its values there."""

    beta: np.ndarray
    f_train: np.ndarray
    centers: np.ndarray
    kernel: str
    gamma: float
    degree: int
    scale: float
    objective: float
    method: str

    def __repr__(self) -> str:
        return f"SUKernelMinimiser(method={self.method!r}, objective={self.objective:.8g})"

    def decision_function(self, X):
        K = tsgsu_kernel_matrix(X, self.centers, kernel=self.kernel, gamma=self.gamma,
                                degree=self.degree, scale=self.scale)
        return K @ self.beta


def _su_objective(fS, fU, prior, lam, sqnorm):
    den = 2.0 * prior - 1.0
    ps = prior**2 + (1.0 - prior) ** 2
    return float(-ps * np.mean(fS) / den + np.mean(0.25 * (fU**2 + 1.0) + fU / (2.0 * den))
                 + 0.5 * lam * sqnorm)


def su_kernel_minimiser(XS, XU, prior, lam, gamma=1.0, *, kernel="rbf", degree=2, scale=1.0,
                        method="closed") -> SUKernelMinimiser:
    """Exact minimiser of the uncorrected squared-loss SU objective in the RKHS.

    ``J(f) = pi_S/(2 n_S) sum_S L_S(f) + 1/n_U sum_U L_U(f) + lam/2 ||f||_H^2`` (Shi et al.
    2021, Eq. (7); Bao et al. 2018) with ``L_S(z) = -z/(2 pi_+ - 1)`` and
    ``L_U(z) = (z^2 + 1)/4 + z / (2 (2 pi_+ - 1))``.

    ``method="closed"``: by the representer theorem ``f = sum_j beta_j k(x_j, .)`` and the
    stationarity condition ``K (lam beta + g) = 0`` with ``g`` the loss derivatives gives
    ``beta_S = pi_S / (2 n_S lam (2 pi_+ - 1))`` on every S point and
    ``(lam I + K_UU / (2 n_U)) beta_U = -(1/(2 n_U)) (K_US beta_S + 1/(2 pi_+ - 1))``.
    ``method="cvxpy"``: the convex problem in ``w`` with ``f = L w``, ``K = L L'``
    (``||f||_H^2 = ||w||^2``), solved by cvxpy (Clarabel); ``beta`` is recovered from ``w``.
    """
    XS, XU = check_matrix(XS, "XS"), check_matrix(XU, "XU", n_features=XS.shape[1])
    prior = check_prior(prior, "prior")
    lam = check_positive(lam, "lam")
    check_choice(method, "method", ("closed", "cvxpy"))
    kk = dict(kernel=kernel, gamma=gamma, degree=degree, scale=scale)
    C = np.vstack([XS, XU])
    nS, nU = XS.shape[0], XU.shape[0]
    K = tsgsu_kernel_matrix(C, C, **kk)
    den = 2.0 * prior - 1.0
    ps = prior**2 + (1.0 - prior) ** 2
    if method == "closed":
        bS = np.full(nS, ps / (nS * lam * den))
        KUU, KUS = K[nS:, nS:], K[nS:, :nS]
        rhs = -(KUS @ bS + 1.0 / den) / (2.0 * nU)
        bU = np.linalg.solve(lam * np.eye(nU) + KUU / (2.0 * nU), rhs)
        beta = np.concatenate([bS, bU])
    else:
        s, V = np.linalg.eigh(0.5 * (K + K.T))
        keep = s > 1e-10 * max(1.0, s.max())
        L = V[:, keep] * np.sqrt(s[keep])
        w = cp.Variable(L.shape[1])
        f = L @ w
        obj = (-ps / (den * nS)) * cp.sum(f[:nS]) + \
            (0.25 / nU) * cp.sum_squares(f[nS:]) + (1.0 / (2.0 * den * nU)) * cp.sum(f[nS:]) + \
            0.25 + 0.5 * lam * cp.sum_squares(w)
        prob = cp.Problem(cp.Minimize(obj))
        prob.solve(solver=cp.CLARABEL)
        if prob.status != cp.OPTIMAL:
            raise RuntimeError(f"cvxpy returned status {prob.status!r}.")
        beta = V[:, keep] @ (w.value / np.sqrt(s[keep]))
    f_train = K @ beta
    sqnorm = float(beta @ K @ beta)
    return SUKernelMinimiser(beta=beta, f_train=f_train, centers=C,
                             objective=_su_objective(f_train[:nS], f_train[nS:], prior, lam,
                                                     sqnorm), method=method, **kk)
