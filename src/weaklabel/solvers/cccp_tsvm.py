"""CCCP transductive SVM ("UniverSVM"; Collobert, Sinz, Weston and Bottou, JMLR 7 2006,
"Large scale transductive SVMs") on the SMO core.

Objective (Collobert et al. 2006, Eqs. (4)-(6)). Each unlabelled point ``x_j`` is entered
twice, once with label ``+1`` and once with ``-1`` (indices ``l+1..l+2u``), and::

    J^s(w, b) = 1/2 ||w||^2 + C sum_{i<=l} H_1(y_i f(x_i))
                + C* sum_{i=l+1}^{l+2u} R_s(y_i f(x_i)),

``H_a(z) = max(0, a - z)``, ``R_s = H_1 - H_s`` (the symmetric ramp loss of the unlabelled
points, ``s = -0.3`` as in the paper), subject to the balancing constraint (their Eq. (8))::

    1/u sum_{j in U} f(x_j) = 1/l sum_{i in L} y_i =: rho_0.

CCCP (their Algorithm 2). ``J^s = J_vex + J_cav`` with ``J_cav = -C* sum_{i>l} H_s(y_i f_i)``;
each step replaces ``J_cav`` by its tangent at the current ``f``, i.e. adds
``sum_i beta_i y_i f(x_i)`` with ``beta_i = C*`` if ``y_i f(x_i) < s`` (and ``i > l``), else
``0``, solves the convex problem, and stops when ``beta`` no longer changes. The first
``f`` is the C-SVM on the labelled points.

Dual of one step (derived here; it is Collobert et al.'s Eq. (11)). With the primal
``min 1/2||w||^2 + sum_{i>=1} c_i xi_i + sum_i beta_i y_i (w.phi_i + b)`` subject to
``y_i (w.phi_i + b) >= 1 - xi_i``, ``xi_i >= 0`` and ``w.phi_0 + b = rho_0`` with
``phi_0 = 1/u sum_{j in U} phi(x_j)`` (the balancing constraint), the Lagrangian with
multipliers ``a_i >= 0`` (margins), ``mu_i >= 0`` (``xi_i >= 0``) and ``lambda_0`` (free,
balance) is stationary when::

    w = sum_{i>=1} (a_i - beta_i) y_i phi_i + lambda_0 phi_0,
    sum_{i>=1} (a_i - beta_i) y_i + lambda_0 = 0,      a_i + mu_i = c_i.

With the signed variables ``alpha_i = y_i (a_i - beta_i)`` (``i >= 1``) and ``alpha_0 =
lambda_0`` -- the multiplier of an extra example ``x_0`` whose feature vector is ``phi_0``, so
``k(x_0, x) = 1/u sum_{j in U} k(x_j, x)`` -- the dual is::

    min_alpha  1/2 alpha' K alpha - zeta' alpha   s.t.  1'alpha = 0,
               -beta_i <= y_i alpha_i <= c_i - beta_i  (i >= 1),  alpha_0 free,

``zeta_0 = rho_0``, ``zeta_i = y_i``, and ``f(x) = sum_{i>=0} alpha_i k(x_i, x) + b``, ``b``
the multiplier of ``1'alpha = 0``; the balancing constraint gives
``b = rho_0 - sum_i alpha_i k(x_0, x_i)``.

Change of variables to :func:`weaklabel.solvers.smo.smo` (``min 1/2 a'Qa + p'a``,
``y'a = y'a0``, ``0 <= a <= C``, ``Q = yy' * K``): ``a_i = y_i alpha_i + beta_i`` with the
signs ``y_0 = +1`` and the shift ``beta_0 = M = sum_{i>=1} c_i``. Since ``|alpha_i| <= c_i``
and ``alpha_0 = -sum_{i>=1} alpha_i``, ``|alpha_0| <= M``, so the box ``0 <= a_0 <= 2M`` is
never active and ``alpha_0`` is free in effect. Then ``alpha = y (a - beta)`` and::

    1/2 alpha'K alpha - zeta'alpha = 1/2 a'Qa - a'(Q beta) - e'a + const,
    e_0 = rho_0, e_i = 1 (i >= 1);     1'alpha = 0  <=>  y'a = y'beta.

So each step is ``smo`` with ``p = -Q beta - e``, boxes ``C_i = c_i`` (``C_0 = 2M``) and the
feasible start ``a0 = beta`` (or the previous step's ``alpha`` mapped to ``a`` and made
feasible), on the extended kernel matrix of ``[x_0; X_l; X_u; X_u]``. ``alpha_0`` is free, so
SMO's ``rho`` is ``-b``; the bias is taken from the balancing constraint (equal at the
optimum, exact balance for any tolerance).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .._validation import (
    check_int,
    check_labels_pm1,
    check_matrix,
    check_positive,
    check_vector,
    warn_not_converged,
)
from ..kernels import check_cache_mb, gram, make_kernel
from .lapsvm import _GramSMO
from .ramp import feasible_start
from .smo import SMOResult, smo, smo_decision_function, svc_dual

__all__ = ["CCCPStep", "CCCPTSVMResult", "cccp_step", "cccp_tsvm", "extended_kernel"]


def extended_kernel(K, l: int):
    """Kernel matrix of ``[x_0; X_l; X_u (+1 copy); X_u (-1 copy)]`` from the Gram matrix
    ``K`` of ``[X_l; X_u]`` (``x_0`` the mean of ``U`` in feature space)."""
    K = np.asarray(K, dtype=float)
    n = K.shape[0]
    idx = np.r_[np.arange(n), np.arange(l, n)]
    m = K[:, l:].mean(axis=1)
    E = np.empty((idx.size + 1, idx.size + 1))
    E[1:, 1:] = K[np.ix_(idx, idx)]
    E[0, 1:] = E[1:, 0] = m[idx]
    E[0, 0] = K[l:, l:].mean()
    return E


@dataclass(repr=False)
class CCCPStep:
    """Solution of one convex CCCP step (:func:`cccp_step`).

    Attributes
    ----------
    alpha : array (1 + l + 2u,)
        The signed dual variables ``alpha`` of the step (``alpha_0`` first).
    bias : float
        ``b = rho_0 - sum_i alpha_i k(x_0, x_i)``.
    g : array (1 + l + 2u,)
        ``K alpha``: ``f = g + bias`` on the extended points.
    objective : float
        ``1/2 alpha'K alpha - zeta'alpha`` (the step's dual, minimised).
    n_iter, kkt_violation, converged
        Of the SMO run.
    """

    alpha: np.ndarray
    bias: float
    g: np.ndarray
    objective: float
    n_iter: int
    kkt_violation: float
    converged: bool

    def __repr__(self) -> str:
        return (f"CCCPStep(n={self.alpha.shape[0]}, objective={self.objective:.10g}, "
                f"bias={self.bias:.6g}, n_iter={self.n_iter})")


def cccp_step(K_ext, y_ext, c, beta, rho0, *, alpha0=None, eps=1e-3, max_iter=None,
              solver=None) -> CCCPStep:
    """One CCCP step of Collobert et al. (2006) on the extended problem (module docstring).

    Parameters
    ----------
    K_ext : array (m, m)
        :func:`extended_kernel` (index 0 is ``x_0``).
    y_ext : array (m,)
        Signs; ``y_ext[0] = +1``.
    c : array (m - 1,)
        Costs of the points ``1..m-1`` (``C`` on ``L``, ``C*`` on the copies).
    beta : array (m - 1,)
        The CCCP tangent weights (``0`` or ``c_i``) of the points ``1..m-1``.
    rho0 : float
        Right-hand side of the balancing constraint.
    alpha0 : array (m,), optional
        Signed warm start (e.g. the previous step's ``alpha``); made feasible.
    eps, max_iter
        SMO tolerance and cap.
    solver : internal, optional
        A prepared ``_GramSMO`` on ``K_ext`` (reused across steps).
    """
    K_ext = check_matrix(K_ext, "K_ext", min_rows=2)
    mdim = K_ext.shape[0]
    y = check_labels_pm1(y_ext, "y_ext", n=mdim)
    c = check_vector(c, "c", n=mdim - 1)
    beta = check_vector(beta, "beta", n=mdim - 1)
    M = float(c.sum())
    cv = np.r_[2.0 * M, c]
    bv = np.r_[M, beta]
    e = np.r_[float(rho0), np.ones(mdim - 1)]
    p = -y * (K_ext @ (y * bv)) - e
    target = float(y @ bv)
    if alpha0 is None:
        a0 = bv.copy()
    else:
        a0 = feasible_start(y * check_vector(alpha0, "alpha0", n=mdim) + bv, y, cv, target)
    sv = _GramSMO(K_ext) if solver is None else solver
    res = sv.solve(y, cv, p=p, alpha0=a0, eps=eps, max_iter=max_iter)
    alpha = y * (res.alpha - bv)
    g = K_ext @ alpha
    bias = float(rho0) - float(g[0])
    zeta = np.r_[float(rho0), y[1:]]
    obj = 0.5 * float(alpha @ g) - float(zeta @ alpha)
    return CCCPStep(alpha=alpha, bias=bias, g=g, objective=obj, n_iter=res.n_iter,
                    kkt_violation=res.kkt_violation, converged=res.converged)


@dataclass(repr=False)
class CCCPTSVMResult:
    """Solution of :func:`cccp_tsvm`.

    Attributes
    ----------
    coef : array (l+u,)
        ``f(x) = sum_i coef_i k(x_i, x) + bias`` over ``[X_l; X_u]`` (the two copies of each
        unlabelled point and ``x_0`` folded in).
    bias : float
    alpha : array (1 + l + 2u,)
        The last step's signed dual variables on the extended problem.
    objective : float
        ``J^s`` at the solution.
    objectives : list of float
        ``J^s`` at the labelled-only start (which need not satisfy the balancing constraint)
        and after each CCCP step; non-increasing from the first step on, up to the SMO
        tolerance (CCCP's descent property).
    n_iter : int
        CCCP steps.
    converged : bool
        ``beta`` unchanged by the last step; False also when a step stopped at SMO's update
        cap (``info["smo_failed"]``; the loop stops there).
    seconds : float
    info : dict
        ``kernel``, ``s``, ``rho0``, ``smo_iterations``.
    """

    coef: np.ndarray
    bias: float
    alpha: np.ndarray
    objective: float
    objectives: list
    n_iter: int
    converged: bool
    seconds: float
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"CCCPTSVMResult(n={self.coef.shape[0]}, objective={self.objective:.10g}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


def _ramp_objective(alpha, g, bias, y_ext, c, l, s):
    f = g[1:] + bias
    z = y_ext[1:] * f
    loss = np.maximum(0.0, 1.0 - z)
    loss[l:] -= np.maximum(0.0, s - z[l:])
    return 0.5 * float(alpha @ g) + float(c @ loss)


class _CachedGramSMO(_GramSMO):
    """:class:`~weaklabel.solvers.lapsvm._GramSMO` whose solves use a row cache of
    ``cache_mb`` MB (``None``: the automatic size of :func:`weaklabel.kernels.cache_budget`)."""

    def __init__(self, K, cache_mb=None):
        super().__init__(K)
        self.cache_mb = check_cache_mb(cache_mb)

    def solve(self, y, C, *, p=None, alpha0=None, eps=1e-3, max_iter=None) -> SMOResult:
        return smo(self.K, y, C, "precomputed", p=p, alpha0=alpha0, eps=eps,
                   max_iter=max_iter, cache_mb=self.cache_mb)


def cccp_tsvm(X_l, y_l, X_u, *, C=1.0, C_star=0.1, kernel="linear", s=-0.3, rho0=None,
              eps=1e-3, max_iter=50, verbose=False, cache_mb=None) -> CCCPTSVMResult:
    """CCCP-TSVM of Collobert et al. (2006), Algorithm 2; see the module docstring.

    Parameters
    ----------
    X_l, y_l : labelled points and labels (+1 / -1; 0 / 1 accepted).
    X_u : array (u, d)
        Unlabelled points (at least one).
    C, C_star : float
        Costs of the labelled hinge and of the unlabelled ramp (the WellSVM paper's ``C1``,
        ``C2``).
    kernel : str or Kernel
    s : float
        Ramp parameter, ``-1 < s <= 0`` (the paper's ``s = -0.3``).
    rho0 : float, optional
        Target mean of ``f`` on ``U``; default ``1/l sum y_i`` (Collobert et al., Eq. (8)).
    eps : float
        SMO tolerance of each step.
    max_iter : int
        Cap on CCCP steps.
    verbose : bool
        One line per step.
    cache_mb : float, None or "auto"
        Kernel-row cache of every SMO solve (:func:`weaklabel.solvers.smo.smo`); ``None``:
        all of ``Q`` when it needs at most 1024 MB, else 1024 MB. Changes the time only.

    Warns
    -----
    ConvergenceWarning
        When ``max_iter`` steps are done and ``beta`` still changes.

    Notes
    -----
    Memory: the dense extended kernel matrix, ``(1 + l + 2u)^2`` floats.
    """
    X_l = check_matrix(X_l, "X_l", min_rows=2)
    y_l = check_labels_pm1(y_l, "y_l", n=X_l.shape[0])
    X_u = check_matrix(X_u, "X_u", min_rows=1, n_features=X_l.shape[1])
    C = check_positive(C, "C")
    C_star = check_positive(C_star, "C_star")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    s = float(s)
    if not -1.0 < s <= 0.0:
        raise ValueError(f"s must satisfy -1 < s <= 0, got {s}.")
    k = make_kernel(kernel)
    l, u = X_l.shape[0], X_u.shape[0]
    rho0 = float(np.mean(y_l)) if rho0 is None else float(rho0)
    t0 = time.perf_counter()
    X = np.vstack([X_l, X_u])
    K_ext = extended_kernel(gram(X, X, k), l)
    y_ext = np.r_[1.0, y_l, np.ones(u), -np.ones(u)]
    c = np.r_[np.full(l, C), np.full(2 * u, C_star)]
    # start: the C-SVM on the labelled points
    s0 = svc_dual(X_l, y_l, C, k, eps=eps, cache_mb=cache_mb)
    f_u = smo_decision_function(s0, X_l, y_l, X_u)
    alpha = np.zeros(1 + l + 2 * u)
    alpha[1:l + 1] = y_l * s0.alpha
    g0 = K_ext @ alpha
    f_ext = np.r_[0.0, np.zeros(l), f_u, f_u]
    objectives = [_ramp_objective(alpha, g0, -s0.rho, y_ext, c, l, s)]
    z = y_ext[1:] * f_ext[1:]
    beta = np.where((np.arange(l + 2 * u) >= l) & (z < s), c, 0.0)
    solver = _CachedGramSMO(K_ext, cache_mb)
    converged = False
    smo_it = 0
    step = None
    n_iter = 0
    smo_failed = not s0.converged
    for n_iter in range(1, max_iter + 1):
        step = cccp_step(K_ext, y_ext, c, beta, rho0, alpha0=alpha, eps=eps, solver=solver)
        smo_it += step.n_iter
        alpha = step.alpha
        if not step.converged:  # a step stopped at SMO's update cap: stop there
            smo_failed = True
            objectives.append(_ramp_objective(alpha, step.g, step.bias, y_ext, c, l, s))
            break
        objectives.append(_ramp_objective(alpha, step.g, step.bias, y_ext, c, l, s))
        z = y_ext[1:] * (step.g[1:] + step.bias)
        new_beta = np.where((np.arange(l + 2 * u) >= l) & (z < s), c, 0.0)
        if verbose:
            print(f"CCCPTSVM: step {n_iter} J={objectives[-1]:.8g} "
                  f"changed={int(np.sum(new_beta != beta))}")
        if np.array_equal(new_beta, beta):
            converged = True
            break
        beta = new_beta
    seconds = time.perf_counter() - t0
    if smo_failed:
        converged = False
    elif not converged:
        warn_not_converged("cccp_tsvm", max_iter, float(np.sum(new_beta != beta)),
                           what="number of changed CCCP weights", tol_param=None)
    coef = np.r_[alpha[1:l + 1], alpha[l + 1:l + 1 + u] + alpha[l + 1 + u:] + alpha[0] / u]
    return CCCPTSVMResult(coef=coef, bias=step.bias, alpha=alpha, objective=objectives[-1],
                          objectives=objectives, n_iter=n_iter, converged=converged,
                          seconds=seconds,
                          info={"kernel": k, "s": s, "rho0": rho0, "smo_iterations": smo_it,
                                "smo_failed": smo_failed,
                                "smo_kkt_violation": float(step.kkt_violation)})
