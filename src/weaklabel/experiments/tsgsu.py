"""Protocols of the TSGSU paper (Shi, Gu, Li, Deng & Huang, "Triply stochastic gradient
method for large-scale nonlinear similar unlabeled classification", Machine Learning 2021).

Public functions, the same as in the other papers' modules: :func:`config`, :func:`run`
(every (data set, trial) task), :func:`run_sensitivity` (the step-size sensitivity part,
issue #16: it explains cells and never changes a table), :func:`tables` (Tables 4-5
analogues), :func:`claims` (the paper's claims tested on our numbers, the claims table in
the common schema of :mod:`weaklabel.claims`), :func:`claim_readings` (the timing and
memory claims against this run's readings, for the report only), :func:`comparison` (with
the cause of every claim that does not hold, from :func:`causes_evidence`),
:func:`crosscheck`, :func:`metrics` and the figure builders. None of them writes a file;
the notebook ``notebooks/tsgsu.ipynb`` does.

The published tables and figures of the paper are not available in any text we have (only
their captions), so nothing here is compared with a published number (and no per-table
tolerance can be derived from a published table): the replication is judged on the paper's
claims, each turned into a test computed from our results, with its threshold declared in
``params.yaml`` (``tsgsu.tolerances``). A claim whose outcome depends on a degenerate
result (a fit predicting one class for every test point, a method or data set not run, a
correction that never acted) is inconclusive; the timing and memory claims are not decided
in ``claims.csv`` (their readings vary between runs) but in the report, from this run's
readings.

Protocol (declared here and in ``params.yaml``, section ``tsgsu``, before any result)
----------------------------------------------------------------------------------
Section 5 of the paper: 5000 similar pairs and ``n_U`` in {10 000, 100 000} unlabelled
points drawn according to the class prior, ``n_U / 3`` test points from the rest, 10
trials; the Gaussian kernel ``exp(-sigma ||x - y||^2)`` (our ``gamma``) on the benchmark
sets and the dot-product kernel ``(sigma_1 <x, y>)^sigma_2`` on the high-dimensional ones;
``lambda`` and ``sigma`` in [2^-7, 2^7] by 5-fold cross-validation (similar pairs and
unlabelled points each split in 5); TSGSU and CUU with batches of 1000 similar and 1000
unlabelled points, 100 iterations, 1000 random features, the squared loss and the
absolute-value correction; the true class prior. Where the paper is silent, or too costly
for two cores, ours:

- **Data** (:data:`weaklabel.data.su.SU_BENCHMARKS`): none of the paper's data sets is
  offline; each row of Tables 4-5 runs on a declared substitute (seeded generators of
  published benchmark recipes and the largest sets of the data layer), named next to every
  result. The SU sample of each trial follows the paper's recipe
  (:func:`weaklabel.data.su.make_su_data`, seed ``seed + trial``).
- **Random features**: 1000 frequencies per iteration (a 2000-dimensional cos/sin block
  for the Gaussian kernel), regenerated from the iteration's seed.
- **Steps**: ``eta_t = eta0 / sqrt(t)`` with ``eta0`` from ``params.yaml`` (the paper
  "adjusts the initial step size" without giving it), selected with ``lambda``; how much
  the choice matters is measured apart (:func:`run_sensitivity`).
- **Selection**: the SU zero-one risk (Bao et al. 2018) of the held-out folds, minimised,
  over the grids of ``params.yaml`` (a coarse subset of the paper's 15 x 15), once per
  (data set, method) on a subsample of trial 0's training data (``cv_pairs`` pairs,
  ``cv_unlabelled`` unlabelled points) and used in every trial: cost, declared. CUU(All)
  uses the setting selected for CUU(2000) (the same model on more centres).
- **Nonlinear SUSL / SUDH**: the paper's kernel basis on all training points needs an
  ``n x n`` system (20 000 at ``n_U = 10 000``: 8 minutes per fit and 5 GB on this
  machine); the default runs them on ``susl_centres`` / ``sudh_centres`` random centres
  (declared in the column name), the ``large`` profile on all points.
- **Timing**: one thread per process; the time of TSGSU in the accuracy-versus-time
  figures is the paper's algorithm (``mode="faithful"``: each minibatch's ``f`` replayed
  from the seeds); the cached mode gives the same iterates faster and is used elsewhere.
"""

from __future__ import annotations

import copy
import functools
import time
import tracemalloc
import warnings

import numpy as np
import pandas as pd

from .._validation import check_names
from ..executor import run_tasks

#: Table 4 rows (Gaussian kernel) and Table 5 rows (dot-product kernel), as in the paper
TABLE4_SETS = ("Acoustic", "Combined", "Covtype", "Poker", "Year")
TABLE5_SETS = ("Sim", "Svhn", "Mnist8m")
#: the columns of Tables 4-5 (CUU is CUU(All)); CUU(2000) is an extra column in Table 4
METHODS = ("SUDH(Linear)", "SUDH(Nonlinear)", "SUSL(Linear)", "SUSL(Nonlinear)", "CUU",
           "CUU(2000)", "TSGSU")
KERNEL_METHODS = ("SUDH(Nonlinear)", "SUSL(Nonlinear)", "CUU", "CUU(2000)", "TSGSU")

DEFAULTS = {
    "seed": 0,
    "n_pairs": 5000, "n_unlabelled": 10000, "n_trials": 10, "table5_trials": 10,
    "table4_sets": list(TABLE4_SETS), "table5_sets": list(TABLE5_SETS),
    "methods": list(METHODS),
    # TSGSU / CUU (the paper's constants)
    "n_iter": 100, "batch": 1000, "n_features": 1000, "schedule": "inv_sqrt",
    # initial steps searched (the paper tunes them without giving values): TSGSU's eta0;
    # CUU's as multiples of its automatic 1 / L step
    "tsgsu_eta0_grid": [1.0, 4.0, 16.0], "cuu_eta0_mult_grid": [1.0, 4.0, 16.0],
    "cuu_centres": 2000,
    # CUU(All) runs in the first cuu_all_trials trials only (None: every trial); cost: its
    # 2000 x n kernel block per iteration is half the trial time at n_U = 10 000
    "cuu_all_trials": None,
    # nonlinear SUSL / SUDH basis: None = all training points (the paper)
    "susl_centres": 2000, "sudh_centres": 500,
    # SUDH is a QP (cvxpy): skipped above this many unlabelled points or features (the
    # paper: > 5000 s at n_U = 10 000; here 548 s for one linear fit on Sim's 20 958
    # sparse features)
    "sudh_max_unlabelled": 10000, "sudh_max_features": 1000,
    # SUDH(Nonlinear) fitted on this many of the unlabelled points (None: all)
    "sudh_nonlinear_unlabelled": 2000,
    # selection (declared): coarse grids, CV on a subsample of trial 0
    "cv_folds": 5, "cv_pairs": 1000, "cv_unlabelled": 2000,
    "lam_grid": [2.0 ** -7, 2.0 ** -4, 2.0 ** -1],
    "gamma_grid": [2.0 ** -7, 2.0 ** -5, 2.0 ** -3, 2.0 ** -1],
    "poly_scale_grid": [1.0, 0.1, 0.01, 0.001], "poly_degree_grid": [1, 3, 5],
    "poly_features": "tensorsketch",
    # accuracy-versus-time curves: iterations at which the test accuracy is recorded
    "checkpoints": [1, 2, 3, 5, 7, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100],
    # TSGSU in the paper's (faithful, O(T^2)) mode for the timing figures: these trials of
    # these sets (the cached mode gives the same model; cost)
    "timing_trials": 1, "timing_sets": ["Covtype"],
    # Fig. 2 / Fig. 4: the n_U = 100 000 setting
    "large_unlabelled": 100000, "large_sets": ["Covtype"], "large_trials": 1,
    "large_methods": ["CUU", "CUU(2000)", "TSGSU"],
    # Fig. 3: TSGSU with and without the correction
    "ablation_sets": ["Combined", "Covtype"], "ablation_trials": 3,
    # memory of TSGSU against n_U (faithful mode, fewer iterations)
    "memory_unlabelled": [10000, 30000, 100000], "memory_iter": 20,
    # the O(1/sqrt(T)) check on a synthetic problem with exact kernels
    "rate": {"n_pairs": 100, "n_unlabelled": 200, "batch": 20,
             "Ts": [25, 50, 100, 200, 400, 800, 1600, 3200],
             "theta": 0.5, "lam": 0.0625, "gamma": 0.5, "reps": 3},
    # evidence of the causes (weaklabel.causes): the claims on Tables 4-5, Figs 2-3 are
    # also decided on the first n trials, n in trial_counts below the trials run (no new
    # run); the step-size sensitivity (run_sensitivity) refits TSGSU and CUU at every step
    # of their grids on the first step_trials trials of Table 4
    "sensitivity": {"trial_counts": [2, 3, 5, 10], "step_trials": 1},
    # declared before the run
    "tolerances": {"most_cases": 0.5, "about_one_point": 1.0, "rate_slope": -0.4,
                   "lemma1_slope": 1.6,
                   "timing_min_seconds": 1.0, "timing_ratio": 1.25, "memory_ratio": 1.5},
}

_RNG_TAG = {"select": 101, "trial": 0}


def config(params: dict | None = None) -> dict:
    """Protocol settings: :data:`DEFAULTS` overridden by ``params`` (``params.yaml``
    section ``tsgsu`` for one profile); an unknown key is an error, and so is an unknown
    data-set name (:func:`check_params`)."""
    params = dict(params or {})
    unknown = sorted(set(params) - set(DEFAULTS) - {"profile"})
    if unknown:
        raise ValueError(f"unknown tsgsu parameter(s) {unknown}; known: {sorted(DEFAULTS)}.")
    cfg = copy.deepcopy(DEFAULTS)
    for k, v in params.items():
        if isinstance(v, dict) and isinstance(cfg.get(k), dict):
            cfg[k].update(v)
        else:
            cfg[k] = v
    bad = sorted(set(cfg["methods"]) - set(METHODS))
    if bad:
        raise ValueError(f"unknown method(s) {bad}; known: {list(METHODS)}.")
    check_params(cfg)  # a misspelt data-set name is an error, not a row dropped
    return cfg


def check_params(cfg: dict) -> None:
    """Reject a data-set name outside the protocol before anything runs (cheap: nothing is
    loaded): ``table4_sets`` name rows of :data:`TABLE4_SETS`, ``table5_sets`` rows of
    :data:`TABLE5_SETS` (:func:`kernel_of` picks the kernel by that table), and
    ``timing_sets``, ``large_sets``, ``ablation_sets`` rows of either. ``cfg``:
    :func:`config`'s output (or its input)."""
    known = {"table4_sets": TABLE4_SETS, "table5_sets": TABLE5_SETS,
             "timing_sets": TABLE4_SETS + TABLE5_SETS, "large_sets": TABLE4_SETS + TABLE5_SETS,
             "ablation_sets": TABLE4_SETS + TABLE5_SETS}
    for key, names in known.items():
        if key in cfg:
            check_names(cfg[key], names, key)


# --------------------------------------------------------------------------- data
def spec(name: str):
    """The declared substitute of one of the paper's data sets (its
    :class:`~weaklabel.data.su.SUBenchmark`), by the paper's name (e.g. ``"Covtype"``)."""
    from ..data.su import SU_BENCHMARKS
    key = name.lower()
    if key not in SU_BENCHMARKS:
        known = sorted(b.paper_name for b in SU_BENCHMARKS.values())
        raise ValueError(f"dataset must be one of {known}, got {name!r}.")
    return SU_BENCHMARKS[key]


def substitute(name: str) -> str:
    """The substitute's name for one of the paper's data sets (``"missing"`` if none)."""
    return spec(name).substitute or "missing"


def kernel_of(name: str) -> str:
    """``"rbf"`` for Table 4's rows, ``"poly"`` (the dot-product kernel) for Table 5's."""
    return "poly" if name in TABLE5_SETS else "rbf"


def trial_data(name: str, trial: int, cfg: dict, *, n_unlabelled: int | None = None):
    """The SU sample of one trial (pairs, unlabelled, test) of one data set."""
    from ..data.su import load_su_benchmark, make_su_data
    n_u = int(cfg["n_unlabelled"] if n_unlabelled is None else n_unlabelled)
    need = 2 * int(cfg["n_pairs"]) + n_u + n_u // 3
    X, y, twin, _spec = load_su_benchmark(name.lower(), min_points=need,
                                          random_state=int(cfg["seed"]))
    return make_su_data(X, y, n_pairs=int(cfg["n_pairs"]), n_unlabelled=n_u,
                        twin_group=twin, random_state=int(cfg["seed"]) + 1000 * n_u // 10000
                        + int(trial))


def _subsample(data, n_pairs: int, n_u: int, rng):
    """A subsample of a trial's training data: ``n_pairs`` whole pairs, ``n_u`` points."""
    n_p = data.XS.shape[0] // 2
    pairs = np.sort(rng.choice(n_p, min(n_pairs, n_p), replace=False))
    s_idx = np.ravel(np.column_stack([2 * pairs, 2 * pairs + 1]))
    u_idx = np.sort(rng.choice(data.XU.shape[0], min(n_u, data.XU.shape[0]), replace=False))
    return data.XS[s_idx], data.XU[u_idx]


def _folds(n_pairs: int, n_u: int, k: int, rng):
    """The paper's CV split: pairs and unlabelled points each in ``k`` parts."""
    p = np.array_split(rng.permutation(n_pairs), k)
    u = np.array_split(rng.permutation(n_u), k)
    out = []
    for i in range(k):
        sv = np.ravel(np.column_stack([2 * p[i], 2 * p[i] + 1]))
        st = np.setdiff1d(np.arange(2 * n_pairs), sv)
        uv = u[i]
        ut = np.setdiff1d(np.arange(n_u), uv)
        out.append((st, sv, ut, uv))
    return out


# --------------------------------------------------------------------------- methods
ITERATIVE = ("CUU", "CUU(2000)", "TSGSU")


def kernel_grid(kernel: str, cfg: dict) -> list[dict]:
    """The kernel parameters searched: ``gamma`` (Gaussian) or ``(scale, degree)``."""
    if kernel == "rbf":
        return [{"gamma": float(g)} for g in cfg["gamma_grid"]]
    return [{"scale": float(s), "degree": int(d)} for s in cfg["poly_scale_grid"]
            for d in cfg["poly_degree_grid"]]


def _hp_grid(method: str, kernel: str, cfg: dict, kparams: dict | None) -> list[dict]:
    """Stage-2 grid of one method: ``lam`` (and the step ``eta0`` of the iterative
    methods) at the kernel parameters ``kparams`` chosen in stage 1; SUSL(Nonlinear), the
    stage-1 method, searches the kernel parameters too."""
    lams = [float(v) for v in cfg["lam_grid"]]
    if method in ("SUSL(Linear)", "SUDH(Linear)"):
        return [{"lam": v} for v in lams]
    kgrid = kernel_grid(kernel, cfg) if kparams is None else [dict(kparams)]
    if method == "TSGSU":
        # eta_1 lam < 1 is required (the step would flip the sign of f otherwise)
        return [{**k, "lam": v, "eta0": float(e)} for k in kgrid for v in lams
                for e in cfg["tsgsu_eta0_grid"] if float(e) * v < 1.0]
    if method in ("CUU", "CUU(2000)"):
        return [{**k, "lam": v, "eta0_mult": float(e)} for k in kgrid for v in lams
                for e in cfg["cuu_eta0_mult_grid"]]
    return [{**k, "lam": v} for k in kgrid for v in lams]


def _kw(hp: dict, kernel: str) -> dict:
    if kernel == "rbf":
        return {"kernel": "rbf", "gamma": hp.get("gamma", 1.0), "degree": 1, "scale": 1.0}
    return {"kernel": "poly", "gamma": 1.0, "degree": hp.get("degree", 1),
            "scale": hp.get("scale", 1.0)}


def fit_method(method: str, XS, XU, prior: float, hp: dict, kernel: str, cfg: dict, *,
               seed: int, mode: str = "cached", correction: str = "abs"):
    """Fit one method; returns ``(predict_fn(X, n_iter=None) -> f, seconds, history)``.

    ``history`` is ``None`` for the closed-form / QP methods and a dict with per-iteration
    cumulative training ``time`` for TSGSU and CUU (their ``predict_fn`` takes the iteration
    at which to evaluate the model)."""
    from ..solvers import su as S
    kw = _kw(hp, kernel)
    lam = float(hp["lam"])
    if method in ("TSGSU",):
        from ..solvers.tsgsu import tsgsu
        t0 = time.perf_counter()
        res = tsgsu(XS, XU, prior, lam=lam, kernel=kw["kernel"], gamma=kw["gamma"],
                    degree=kw["degree"], scale=kw["scale"],
                    features="rff" if kernel == "rbf" else cfg["poly_features"],
                    n_iter=int(cfg["n_iter"]), batch_s=int(cfg["batch"]),
                    batch_u=int(cfg["batch"]), n_features=int(cfg["n_features"]),
                    eta0=float(hp["eta0"]), schedule=cfg["schedule"],
                    loss="squared",
                    correction=correction, mode=mode, random_state=seed)
        secs = time.perf_counter() - t0
        return res, secs, {"time": np.asarray(res.time, dtype=float)}
    if method in ("CUU", "CUU(2000)"):
        n_tr = XS.shape[0] + XU.shape[0]
        # CUU(2000) on fewer than 2000 points (the selection subsample) uses them all
        centres = "all" if (method == "CUU" or int(cfg["cuu_centres"]) >= n_tr) \
            else int(cfg["cuu_centres"])
        t0 = time.perf_counter()
        eta0 = "auto"
        if "eta0_mult" in hp:  # a multiple of the automatic step (one iteration finds it)
            eta0 = float(hp["eta0_mult"]) * S.cuu(
                XS, XU, prior, lam=lam, kernel=kw["kernel"], gamma=kw["gamma"],
                degree=kw["degree"], scale=kw["scale"], centers=centres, n_iter=1,
                batch_s=int(cfg["batch"]), batch_u=int(cfg["batch"]), eta0="auto",
                random_state=seed).eta0
        res = S.cuu(XS, XU, prior, lam=lam, kernel=kw["kernel"], gamma=kw["gamma"],
                    degree=kw["degree"], scale=kw["scale"], centers=centres,
                    n_iter=int(cfg["n_iter"]), batch_s=int(cfg["batch"]),
                    batch_u=int(cfg["batch"]), eta0=eta0,
                    schedule=cfg["schedule"], correction=correction,
                    checkpoints=[int(c) for c in cfg["checkpoints"]], random_state=seed)
        secs = time.perf_counter() - t0
        return res, secs, {"time": np.asarray(res.times, dtype=float)}
    linear = method.endswith("(Linear)")
    n_c = cfg["susl_centres"] if method.startswith("SUSL") else cfg["sudh_centres"]
    cap = cfg["sudh_nonlinear_unlabelled"]
    if method == "SUDH(Nonlinear)" and cap is not None and XU.shape[0] > int(cap):
        # the QP's size grows with n_U (one slack and one dense basis row per point)
        keep = np.sort(np.random.default_rng(seed).choice(XU.shape[0], int(cap),
                                                          replace=False))
        XU = XU[keep]
    t0 = time.perf_counter()
    if linear:
        bkw = {"kind": "linear", "centers": None}
    else:
        allX = np.vstack([_dense(XS), _dense(XU)])
        if n_c is not None and int(n_c) < allX.shape[0]:
            idx = np.random.default_rng(seed).choice(allX.shape[0], int(n_c), replace=False)
            allX = allX[np.sort(idx)]
        bkw = {"kind": kw["kernel"], "centers": allX, "gamma": kw["gamma"],
               "degree": kw["degree"], "scale": kw["scale"]}
    PsiS, PsiU = S.su_basis(XS, **bkw), S.su_basis(XU, **bkw)
    if method.startswith("SUSL"):
        theta = S.susl_fit(PsiS, PsiU, prior, lam)
    else:
        theta = S.sudh_fit(PsiS, PsiU, prior, lam)
    secs = time.perf_counter() - t0
    return _BasisModel(theta, bkw), secs, None


def not_run_reason(method: str, n_unlabelled: int, n_features: int, cfg: dict) -> str | None:
    """Why a method is not run at this size (declared limits of ``params.yaml``), or None."""
    if method.startswith("SUDH"):
        if n_unlabelled > int(cfg["sudh_max_unlabelled"]):
            return f"not run: n_U > {cfg['sudh_max_unlabelled']} (QP too large)"
        if n_features > int(cfg["sudh_max_features"]):
            return f"not run: {n_features} features > {cfg['sudh_max_features']} (QP too large)"
    return None


def _dense(X):
    return X.toarray() if hasattr(X, "toarray") else np.asarray(X)


class _BasisModel:
    """``f(x) = theta' psi(x)`` of SUSL / SUDH, evaluated in row blocks."""

    def __init__(self, theta, bkw):
        self.theta, self.bkw = np.asarray(theta, dtype=float), bkw

    def decision_function(self, X, n_iter=None):
        from ..solvers.su import su_basis
        out = np.empty(X.shape[0])
        for a in range(0, X.shape[0], 4096):
            out[a:a + 4096] = su_basis(X[a:a + 4096], **self.bkw) @ self.theta
        return out


def _accuracy(f, y) -> float:
    pred = np.where(np.asarray(f) >= 0, 1, -1)
    return float(np.mean(pred == np.asarray(y)))


def _one_class(f) -> bool:
    """Whether the decision values ``f`` predict one class for every point (``sign`` with
    ties to +1, as :func:`_accuracy` scores them): a degenerate fit."""
    pos = np.asarray(f) >= 0
    return bool(pos.all() or not pos.any())


def _trivial(y) -> float:
    """Accuracy of the trivial predictor (the majority class of ``y``)."""
    y = np.asarray(y)
    return float(max(np.mean(y == 1), np.mean(y != 1)))


def _negative_risk_iters(model) -> int | None:
    """TSGSU: the iterations whose minibatch partial risk ``R_+`` or ``R_-`` (Eq. 8) was
    negative, where the absolute-value correction changes the step (``delta' = -1``); None
    for the other methods. With none, the corrected iterates are the uncorrected ones."""
    rp, rn = getattr(model, "risk_pos", None), getattr(model, "risk_neg", None)
    if rp is None or rn is None:
        return None
    return int(np.sum(np.minimum(np.asarray(rp, float), np.asarray(rn, float)) < 0))


# --------------------------------------------------------------------------- selection
def _cv_data(name: str, cfg: dict):
    data = trial_data(name, 0, cfg)
    rng = np.random.default_rng([int(cfg["seed"]), _RNG_TAG["select"]])
    XS, XU = _subsample(data, int(cfg["cv_pairs"]), int(cfg["cv_unlabelled"]), rng)
    folds = _folds(XS.shape[0] // 2, XU.shape[0], int(cfg["cv_folds"]), rng)
    return data.prior, XS, XU, folds


def cv_risk(method: str, name: str, hp: dict, cfg: dict, cv=None) -> float:
    """Mean SU zero-one risk of the held-out folds (the selection criterion)."""
    from ..solvers.su import su_zero_one_risk
    prior, XS, XU, folds = _cv_data(name, cfg) if cv is None else cv
    r = []
    for st, sv, ut, uv in folds:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                model, _, _ = fit_method(method, XS[st], XU[ut], prior, hp, kernel_of(name),
                                         cfg, seed=int(cfg["seed"]))
            except FloatingPointError:  # a step that diverges loses
                return float("inf")
            fs, fu = model.decision_function(XS[sv]), model.decision_function(XU[uv])
        if not (np.all(np.isfinite(fs)) and np.all(np.isfinite(fu))):
            return float("inf")
        r.append(su_zero_one_risk(fs, fu, prior))
    return float(np.mean(r))


def select_task(name: str, method: str, cfg: dict, kparams: dict | None = None) -> dict:
    """Cross-validated setting of one (data set, method) over its grid (ties: the first in
    grid order). Stage 1 (``method = "SUSL(Nonlinear)"``, ``kparams`` None) searches the
    kernel parameters and ``lam``; stage 2 the other methods' ``lam`` (and initial step) at
    the stage-1 kernel parameters."""
    cv = _cv_data(name, cfg)
    fit_as = "CUU(2000)" if method == "CUU" else method
    grid = _hp_grid(fit_as, kernel_of(name), cfg, kparams)
    t0 = time.perf_counter()
    risks = [cv_risk(fit_as, name, hp, cfg, cv) for hp in grid]
    best = int(np.argmin(risks))
    return {"dataset": name, "method": method, **grid[best], "cv_risk": risks[best],
            "n_grid": len(grid), "seconds": time.perf_counter() - t0}


def select(sets, cfg: dict, *, executor=None, progress: bool = True) -> dict:
    """Both selection stages through the executor; ``{(data set, method): setting}``."""
    methods = list(cfg["methods"])
    stage1 = run_tasks(select_task, [(d, "SUSL(Nonlinear)") for d in sets],
                       executor=executor, kwargs={"cfg": cfg},
                       desc="TSGSU selection (kernel)", progress=progress)
    settings = {(r["dataset"], r["method"]): r for r in stage1}
    kp = {r["dataset"]: {k: r[k] for k in ("gamma", "scale", "degree") if k in r}
          for r in stage1}
    width = {d: trial_data(d, 0, cfg).XU.shape[1] for d in sets}
    tasks = [{"name": d, "method": m, "kparams": None if m.endswith("(Linear)") else kp[d]}
             for d in sets for m in methods if m not in ("SUSL(Nonlinear)", "CUU")
             and not_run_reason(m, int(cfg["n_unlabelled"]), width[d], cfg) is None]
    for r in run_tasks(select_task, tasks, executor=executor, kwargs={"cfg": cfg},
                       desc="TSGSU selection (lambda, step)", progress=progress):
        settings[(r["dataset"], r["method"])] = r
    for d in sets:  # CUU(All) uses CUU(2000)'s setting (declared)
        if (d, "CUU(2000)") in settings:
            settings[(d, "CUU")] = {**settings[(d, "CUU(2000)")], "method": "CUU",
                                    "seconds": 0.0}
    return settings


# --------------------------------------------------------------------------- trials
def run_trial(name: str, trial: int, cfg: dict, settings: dict, *,
              n_unlabelled: int | None = None, methods=None, correction: str = "abs",
              curves: bool = True) -> list[dict]:
    """Every method on one trial; one row per method with accuracy, seconds and (for the
    iterative methods) the accuracy-versus-time curve."""
    kernel = kernel_of(name)
    data = trial_data(name, trial, cfg, n_unlabelled=n_unlabelled)
    n_u = data.XU.shape[0]
    seed = int(cfg["seed"]) * 7919 + int(trial)
    rows = []
    for method in (methods or cfg["methods"]):
        base = {"dataset": name, "trial": int(trial), "n_unlabelled": n_u, "method": method,
                "correction": correction, "prior": float(data.prior)}
        why = not_run_reason(method, n_u, data.XU.shape[1], cfg)
        k_all = cfg.get("cuu_all_trials")
        if why is None and method == "CUU" and k_all is not None and trial >= int(k_all):
            why = f"not run: CUU(All) in the first {int(k_all)} trial(s) of this profile (cost)"
        if why:
            rows.append({**base, "accuracy": np.nan, "seconds": np.nan, "status": why})
            continue
        hp = settings[(name, method)]
        mode = "faithful" if (method == "TSGSU" and trial < int(cfg["timing_trials"])
                              and name in cfg["timing_sets"]) else "cached"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model, secs, hist = fit_method(method, data.XS, data.XU, data.prior, hp, kernel,
                                           cfg, seed=seed, mode=mode, correction=correction)
        row = {**base, "seconds": secs, "mode": mode, "status": "ok",
               **{k: v for k, v in hp.items()
                  if k in ("lam", "gamma", "scale", "degree", "eta0", "eta0_mult")}}
        F = None
        if hist is not None and curves:
            cps = [c for c in cfg["checkpoints"] if c <= int(cfg["n_iter"])]
            F = model.decision_path(data.X_test, cps)
            row["curve_iter"] = cps
            row["curve_time"] = [float(hist["time"][c - 1]) for c in cps]
            row["curve_acc"] = [_accuracy(f, data.y_test) for f in F]
        # the final model's accuracy: the last checkpoint when it is the last iteration
        # (the same model, evaluated once), else its own pass over the test set
        final = F[-1] if F is not None and cps[-1] == int(cfg["n_iter"]) else \
            model.decision_function(data.X_test)
        row["accuracy"] = _accuracy(final, data.y_test)
        # degenerate fits: the final model (and each checkpoint) predicting one class for
        # every test point, beside the majority-class accuracy a trivial predictor reaches
        row["one_class"] = _one_class(final)
        row["trivial"] = _trivial(data.y_test)
        if F is not None:
            row["curve_one_class"] = [_one_class(f) for f in F]
        neg = _negative_risk_iters(model)
        if neg is not None:
            row["negative_risk_iters"] = neg
        rows.append(row)
    return rows


def available(name: str) -> bool:
    """Whether the data layer has a substitute for this data set."""
    return spec(name).loader is not None


def run(cfg: dict, *, executor=None, progress: bool = True):
    """Selection, then every (data set, trial) of Tables 4-5; returns ``(raw, sel)``.
    A data set without a substitute gets rows with status "missing"."""
    sets = list(cfg["table4_sets"]) + list(cfg["table5_sets"])
    ok = [d for d in sets if available(d)]
    settings = select(ok, cfg, executor=executor, progress=progress)
    n_t = {d: int(cfg["table5_trials"] if d in TABLE5_SETS else cfg["n_trials"]) for d in ok}
    tasks = [(d, t) for t in range(max(n_t.values(), default=0)) for d in ok if t < n_t[d]]
    # the dot-product (Table 5) sets' tasks are the longest: they run first, so that the
    # workers' last tasks are short ones; the results keep the order of ``tasks``
    first = sorted(range(len(tasks)), key=lambda i: tasks[i][0] not in TABLE5_SETS)
    done = run_tasks(run_trial, [tasks[i] for i in first], executor=executor,
                     kwargs={"cfg": cfg, "settings": settings},
                     desc="TSGSU trials", progress=progress)
    parts = [None] * len(tasks)
    for i, p in zip(first, done):
        parts[i] = p
    rows = [r for p in parts for r in p]
    for d in sets:
        if not available(d):
            rows += [{"dataset": d, "trial": 0, "n_unlabelled": int(cfg["n_unlabelled"]),
                      "method": m, "correction": "abs", "accuracy": np.nan,
                      "seconds": np.nan, "status": "missing: no offline substitute"}
                     for m in cfg["methods"]]
    sel = pd.DataFrame(list(settings.values()))
    return pd.DataFrame(rows), sel


def _large_tasks(cfg: dict) -> list[dict]:
    # one task per (data set, trial, method): the methods of a trial run side by side
    big = {**cfg, "timing_sets": list(cfg["large_sets"]),
           "timing_trials": int(cfg["large_trials"])}
    return [{"name": d, "trial": t, "methods": [m], "cfg": big,
             "n_unlabelled": int(cfg["large_unlabelled"])}
            for t in range(int(cfg["large_trials"])) for d in cfg["large_sets"]
            for m in cfg["large_methods"]]


def _ablation_tasks(cfg: dict, raw: pd.DataFrame):
    n_t = min(int(cfg["ablation_trials"]), int(cfg["n_trials"]))
    sets = [d for d in cfg["ablation_sets"] if d in set(raw["dataset"]) and available(d)]
    tasks = [{"name": d, "trial": t, "correction": "none", "methods": ["TSGSU"],
              "cfg": {**cfg, "timing_trials": 0}} for d in sets for t in range(n_t)]
    return tasks, sets, n_t


def _ablation_frame(raw, parts, sets, n_t) -> pd.DataFrame:
    ours = raw[(raw["method"] == "TSGSU") & raw["dataset"].isin(sets) & (raw["trial"] < n_t)]
    return pd.concat([ours, pd.DataFrame([r for p in parts for r in p])], ignore_index=True)


def _settings(sel: pd.DataFrame) -> dict:
    return {(r["dataset"], r["method"]): r for r in sel.to_dict("records")}


def run_large(cfg: dict, sel: pd.DataFrame, *, executor=None, progress: bool = True):
    """The ``n_U = 100 000`` setting (Fig. 2 / Fig. 4 analogues). TSGSU runs the paper's
    algorithm (faithful mode: its cost does not depend on ``n_U``) in every trial."""
    parts = run_tasks(run_trial, _large_tasks(cfg), executor=executor,
                      kwargs={"settings": _settings(sel)},
                      desc="TSGSU n_U = 100 000", progress=progress)
    return pd.DataFrame([r for p in parts for r in p])


def run_ablation(cfg: dict, sel: pd.DataFrame, raw: pd.DataFrame, *, executor=None,
                 progress: bool = True) -> pd.DataFrame:
    """Fig. 3: TSGSU without any correction on the ablation sets and trials, beside the
    corrected runs of the same trials in ``raw`` (same data, seeds and settings)."""
    tasks, sets, n_t = _ablation_tasks(cfg, raw)
    parts = run_tasks(run_trial, tasks, executor=executor,
                      kwargs={"settings": _settings(sel)},
                      desc="TSGSU correction ablation", progress=progress)
    return _ablation_frame(raw, parts, sets, n_t)


def run_large_and_ablation(cfg: dict, sel: pd.DataFrame, raw: pd.DataFrame, *,
                           executor=None, progress: bool = True):
    """:func:`run_large` and :func:`run_ablation` in one pass of the executor (the
    ablation's short fits fill the worker that the long ``n_U = 100 000`` CUU(All) fit
    leaves idle); returns ``(large, ablation)``, the same frames as the two functions."""
    big = _large_tasks(cfg)
    abl, sets, n_t = _ablation_tasks(cfg, raw)
    parts = run_tasks(run_trial, big + abl, executor=executor,
                      kwargs={"settings": _settings(sel)},
                      desc="TSGSU n_U = 100 000 and correction ablation", progress=progress)
    large = pd.DataFrame([r for p in parts[:len(big)] for r in p])
    return large, _ablation_frame(raw, parts[len(big):], sets, n_t)


# --------------------------------------------------------------------------- step sensitivity
#: The step-size choices the paper leaves open (its "adjusts the initial step size in TSGSU
#: and CUU", no values): ``parameter -> (grid key of the config, key of the setting, the
#: methods it sets)``. CUU(All) uses CUU(2000)'s setting, so one CUU parameter sets both.
STEP_PARAMETERS = {
    "tsgsu_eta0": ("tsgsu_eta0_grid", "eta0", ("TSGSU",)),
    "cuu_eta0_mult": ("cuu_eta0_mult_grid", "eta0_mult", ("CUU", "CUU(2000)")),
}
#: The claims of :data:`PER_TRIAL_CLAIMS` decided from Table 4's TSGSU / CUU accuracies
#: (2b: both above SUSL / SUDH; 7: TSGSU within a point of the best), which the step-size
#: sensitivity decides again. Claim 5 compares TSGSU with its uncorrected runs (at the
#: selected step only), claims 6 and 11 read Table 5 and claim 9 the n_U = 100 000 runs:
#: the sensitivity does not touch them.
STEP_CLAIMS = ("2b", "7")
#: the longest fits first (load balance; the results keep their own order)
_STEP_ORDER = {"CUU": 0, "TSGSU": 1, "CUU(2000)": 2}
#: the choice label of the protocol's own (cross-validated) step in the causes' evidence
SELECTED_CHOICE = "selected by CV"


def _step_trials(cfg: dict) -> int:
    """``cfg["sensitivity"]["step_trials"]``, checked: a positive integer."""
    n = cfg.get("sensitivity", {}).get("step_trials")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) < 1:
        raise ValueError("cfg['sensitivity']['step_trials'] must be a positive integer (the "
                         f"number of Table 4 trials the step-size sensitivity runs), got {n!r}.")
    return int(n)


def _step_methods(cfg: dict) -> tuple[str, ...]:
    """``cfg["sensitivity"]["methods"]``, checked: the methods the step-size sensitivity
    refits (a subset of those :data:`STEP_PARAMETERS` names; absent: all of them)."""
    known = tuple(m for _, _, ms in STEP_PARAMETERS.values() for m in ms)
    ms = cfg.get("sensitivity", {}).get("methods")
    if ms is None:
        return known
    if isinstance(ms, str) or not isinstance(ms, (list, tuple)) or not ms \
            or any(m not in known for m in ms):
        raise ValueError(f"cfg['sensitivity']['methods'] must be a non-empty list of "
                         f"{list(known)}, got {ms!r}.")
    return tuple(ms)


def step_fit(name: str, trial: int, method: str, hp: dict, cfg: dict) -> dict:
    """One fit of the step-size sensitivity: ``method`` with the setting ``hp`` on trial
    ``trial`` of ``name``, scored on the trial's test points exactly as :func:`run_trial`
    scores it (same data, seed and final model), always in the cached mode (the faithful
    mode gives the same iterates, only slower). Returns ``accuracy``, ``seconds`` and
    ``status``: ``"ok"``, or ``"diverged"`` (accuracy NaN) when the step makes the solver
    raise a ``FloatingPointError`` or the final decision values are not finite."""
    data = trial_data(name, trial, cfg)
    seed = int(cfg["seed"]) * 7919 + int(trial)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model, secs, hist = fit_method(method, data.XS, data.XU, data.prior, hp,
                                           kernel_of(name), cfg, seed=seed, mode="cached")
    except FloatingPointError:
        return {"accuracy": np.nan, "seconds": np.nan, "status": "diverged"}
    cps = [c for c in cfg["checkpoints"] if c <= int(cfg["n_iter"])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if hist is not None and cps and cps[-1] == int(cfg["n_iter"]):
            final = model.decision_path(data.X_test, cps)[-1]  # as run_trial scores it
        else:
            final = model.decision_function(data.X_test)
    if not np.all(np.isfinite(final)):
        return {"accuracy": np.nan, "seconds": secs, "status": "diverged"}
    return {"accuracy": _accuracy(final, data.y_test), "seconds": secs, "status": "ok",
            "one_class": _one_class(final)}


def run_sensitivity(cfg: dict, sel: pd.DataFrame, raw: pd.DataFrame, *, executor=None,
                    progress: bool = True) -> pd.DataFrame:
    """The step-size sensitivity part (issue #16), declared in ``params.yaml``
    (``tsgsu.sensitivity.step_trials``) before it runs.

    TSGSU refitted with each ``eta0`` of ``tsgsu_eta0_grid``, CUU(2000) and CUU(All) with
    each ``eta0_mult`` of ``cuu_eta0_mult_grid``, every other setting (``lam``, kernel) at
    the main run's selection ``sel``, on the first ``step_trials`` trials of every Table 4
    data set (the Gaussian cells the accuracy claims read), one executor task per fit; only
    the methods of ``sensitivity.methods`` where given (the default profile leaves out
    CUU(All), whose refits took about 70 % of this part's fit time). The
    protocol's own (selected) step is among the choices and is not refitted: its row is the
    main run's fit in ``raw`` (status ``"main run"``; :func:`step_fit` at that step gives
    the same accuracy, tested). A TSGSU step with ``eta0 * lam >= 1`` is skipped, as
    in the selection grid (:func:`_hp_grid`); a fit the main run did not make (``raw``'s
    status is not ``"ok"``: CUU(All) beyond ``cuu_all_trials``, a data set without a
    substitute) is not made. A step that diverges gives a NaN accuracy (status
    ``"diverged"``), not an error.

    Parameters
    ----------
    cfg : dict
        The protocol (:func:`config`).
    sel, raw : DataFrame
        :func:`run`'s selection and per-fit results.
    executor, progress
        As in :func:`run`.

    Returns
    -------
    DataFrame, one row per fit (``sensitivity.csv``): ``dataset, trial, method, parameter,
    choice`` (the step: ``eta0``, or the multiple of CUU's automatic step), ``selected``
    (the main run's step), ``lam, accuracy, seconds, status`` and ``one_class`` (the fit
    predicts one class for every test point; empty when it diverged). It explains cells:
    the tables keep the protocol's numbers.

    Raises
    ------
    ValueError
        ``step_trials`` not a positive integer, ``methods`` not a list of the methods
        :data:`STEP_PARAMETERS` names, or ``sel`` / ``raw`` lacking columns.
    TypeError
        ``sel`` or ``raw`` not a DataFrame.
    """
    n = min(_step_trials(cfg), int(cfg["n_trials"]))
    for name, df, need in (("sel", sel, ("dataset", "method", "lam")),
                           ("raw", raw, ("dataset", "trial", "method", "status"))):
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"{name} must be the DataFrame run() returns, got "
                            f"{type(df).__name__}.")
        miss = [c for c in need if c not in df.columns]
        if miss:
            raise ValueError(f"{name} lacks columns {miss}; pass the frame run() returns.")
    refit = _step_methods(cfg)
    settings = _settings(sel)
    done = raw[raw["status"] == "ok"]
    if "correction" in done:
        done = done[done["correction"] == "abs"]
    one = done["one_class"] if "one_class" in done else pd.Series(np.nan, index=done.index)
    main = {(d, int(t), m): (float(a), float(s_), o) for d, t, m, a, s_, o in zip(
        done["dataset"], done["trial"], done["method"], done["accuracy"], done["seconds"],
        one)}
    tasks, meta, own = [], [], []
    for d in cfg["table4_sets"]:
        for t in range(n):
            for parameter, (grid, key, methods) in STEP_PARAMETERS.items():
                for m in methods:
                    if m not in cfg["methods"] or m not in refit \
                            or (d, t, m) not in main or (d, m) not in settings:
                        continue
                    hp = settings[(d, m)]
                    lam, chosen = float(hp["lam"]), float(hp[key])
                    for v in (float(e) for e in cfg[grid]):
                        if key == "eta0" and v * lam >= 1.0:  # as in _hp_grid
                            continue
                        row = {"dataset": d, "trial": t, "method": m, "parameter": parameter,
                               "choice": v, "selected": bool(np.isclose(v, chosen)),
                               "lam": lam}
                        if row["selected"]:  # the protocol's own step: the main run's fit
                            acc, secs, oc = main[(d, t, m)]
                            own.append({**row, "accuracy": acc, "seconds": secs,
                                        "status": "main run", "one_class": oc})
                            continue
                        tasks.append({"name": d, "trial": t, "method": m,
                                      "hp": {**hp, key: v}})
                        meta.append(row)
    order = sorted(range(len(tasks)), key=lambda i: _STEP_ORDER.get(tasks[i]["method"], 9))
    res = run_tasks(step_fit, [tasks[i] for i in order], executor=executor,
                    kwargs={"cfg": cfg}, desc="TSGSU sensitivity (step size)",
                    progress=progress)
    out = [None] * len(tasks)
    for i, r in zip(order, res):
        out[i] = {**meta[i], **r}
    cols = ["dataset", "trial", "method", "parameter", "choice", "selected", "lam",
            "accuracy", "seconds", "status", "one_class"]
    df = pd.DataFrame(own + out, columns=cols)
    return df.sort_values(["dataset", "trial", "parameter", "method", "choice"],
                          kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------- certification
def _small_su(prior: float, n_pairs: int, n_u: int, seed: int, d: int = 4):
    from ..data.generators import twonorm
    from ..data.su import make_su_data
    X, y = twonorm(6 * (2 * n_pairs + n_u), d=d, positive_prior=prior, random_state=seed)
    return make_su_data(X, y, n_pairs=n_pairs, n_unlabelled=n_u, n_test=20,
                        random_state=seed)


def _num_grad(fun, theta, h=1e-6):
    g = np.empty_like(theta)
    for i in range(theta.size):
        e = np.zeros_like(theta)
        e[i] = h
        g[i] = (fun(theta + e) - fun(theta - e)) / (2 * h)
    return g


def _objective_at(theta, *, PsiS, PsiU, prior, lam):
    from ..solvers.su import su_objective
    return su_objective(theta, PsiS, PsiU, prior, lam, loss="squared")


def _train_risk(res, XS, XU, prior) -> float:
    """The uncorrected squared-loss SU risk of a TSGSU model on its training points."""
    from ..solvers.su import su_risk
    return su_risk(res.decision_function(XS), res.decision_function(XU), prior, "squared",
                   "none")


def crosscheck(cfg: dict, seed: int = 0) -> list[dict]:
    """Every solver against an independent reference on small problems (priors 0.7 and
    0.3): SU-SL's closed form and SU-DH's QP against direct cvxpy minimisations of the SU
    risk (linear and Gaussian bases); the exact-kernel SU minimiser in closed form against
    cvxpy; TSGSU in numba against the numpy transcription of Algorithms 1-2, and its
    faithful mode against its cached mode (``objective``: the uncorrected SU objective of
    the final model on the training points; ``max_kkt_violation``: the largest coefficient
    difference). For SU-SL ``max_kkt_violation`` is the gradient norm of the objective at
    the solution; SU-DH's objective is not differentiable (NaN)."""
    from ..compare import crosscheck_record
    from ..reference.su import sudh_reference, susl_reference
    from ..reference.tsgsu import su_kernel_minimiser, tsgsu_numpy
    from ..solvers import su as S
    from ..solvers.tsgsu import tsgsu
    out = []
    for prior in (0.7, 0.3):
        data = _small_su(prior, 40, 80, seed)
        XS, XU, pr = data.XS, data.XU, float(data.prior)
        n = XS.shape[0] + XU.shape[0]
        for basis in ("linear", "rbf"):
            bkw = {"kind": "linear", "centers": None} if basis == "linear" else \
                {"kind": "rbf", "centers": np.vstack([XS, XU])[::4], "gamma": 0.25}
            PsiS, PsiU = S.su_basis(XS, **bkw), S.su_basis(XU, **bkw)
            lam = 0.05
            for name, fit, ref, loss in (("SUSL", S.susl_fit, susl_reference, "squared"),
                                         ("SUDH", S.sudh_fit, sudh_reference, "double_hinge")):
                t0 = time.perf_counter()
                th = fit(PsiS, PsiU, pr, lam)
                ts = time.perf_counter() - t0
                r = ref(PsiS, PsiU, pr, lam)
                obj = S.su_objective(th, PsiS, PsiU, pr, lam, loss=loss)
                kkt = float(np.abs(_num_grad(functools.partial(
                    _objective_at, PsiS=PsiS, PsiU=PsiU, prior=pr, lam=lam),
                    np.asarray(th, float))).max()) if loss == "squared" else float("nan")
                out.append(crosscheck_record(
                    f"{name} {basis} basis, prior {pr:.2f}", f"solvers.su.{fit.__name__}",
                    f"reference.su.{ref.__name__} (cvxpy)", n, obj, r.objective, kkt, ts,
                    r.seconds))
        t0 = time.perf_counter()
        a = su_kernel_minimiser(XS, XU, pr, 0.1, 0.5)
        ts = time.perf_counter() - t0
        t0 = time.perf_counter()
        b = su_kernel_minimiser(XS, XU, pr, 0.1, 0.5, method="cvxpy")
        out.append(crosscheck_record(
            f"exact-kernel SU minimiser, prior {pr:.2f}", "reference.tsgsu (closed form)",
            "reference.tsgsu (cvxpy)", n, a.objective, b.objective,
            float(np.abs(a.f_train - b.f_train).max()), ts, time.perf_counter() - t0))
        kw = dict(lam=0.05, gamma=0.5, n_iter=15, batch_s=20, batch_u=30, n_features=30,
                  eta0=1.0, random_state=seed)
        t0 = time.perf_counter()
        r1 = tsgsu(XS, XU, pr, mode="cached", **kw)
        t1 = time.perf_counter() - t0
        t0 = time.perf_counter()
        raw, _ = tsgsu_numpy(XS, XU, pr, **kw)
        t2 = time.perf_counter() - t0
        r2 = tsgsu(XS, XU, pr, mode="faithful", **kw)
        jn = _train_risk(r1, XS, XU, pr)
        c1 = r1.coef.copy()
        r1.coef = raw  # the numpy transcription's coefficients in the same model
        out.append(crosscheck_record(
            f"TSGSU iterations (RFF), prior {pr:.2f}", "solvers.tsgsu.tsgsu (numba, cached)",
            "reference.tsgsu.tsgsu_numpy", n, jn, _train_risk(r1, XS, XU, pr),
            float(np.abs(c1 - raw).max()), t1, t2))
        out.append(crosscheck_record(
            f"TSGSU faithful vs cached mode, prior {pr:.2f}", "tsgsu(mode='faithful')",
            "tsgsu(mode='cached')", n, _train_risk(r2, XS, XU, pr), jn,
            float(np.abs(r2.coef - c1).max()), float(r2.time[-1]), t1))
    return out


def lemma1_check(cfg: dict, ms=(10, 100, 1000), thetas=(1.0, 0.5, 0.25),
                 seeds=(0, 1, 2)) -> pd.DataFrame:
    """Lemma 1: the mean squared gap between TSGSU's iterate ``f_T`` (random features,
    ``m`` frequencies per iteration) and the exact-kernel iterate ``h_T`` (same minibatches
    and steps) on the training points, with the lemma's constant steps
    ``eta_t = theta / sqrt(T)`` (``schedule="const"``), for each ``theta`` and ``m``.
    The lemma bounds the gap by ``B^2`` proportional to ``theta^2``."""
    from ..reference.tsgsu import tsgsu_exact_kernel
    from ..solvers.tsgsu import tsgsu
    data = _small_su(0.7, 30, 60, 1)
    X = np.vstack([data.XS, data.XU])
    kw = dict(lam=0.1, gamma=0.5, n_iter=30, batch_s=10, batch_u=10, schedule="const")
    rows = []
    for theta in thetas:
        for m in ms:
            g = []
            for s in seeds:
                f = tsgsu(data.XS, data.XU, data.prior, n_features=m, random_state=s,
                          eta0=theta, mode="cached", **kw)
                h = tsgsu_exact_kernel(data.XS, data.XU, data.prior, random_state=s,
                                       eta0=theta, **kw)
                g.append(float(np.mean((f.decision_function(X) - h.decision_function(X))
                                       ** 2)))
            rows.append({"theta": float(theta), "features_per_iteration": m,
                         "seeds": len(seeds), "mean_sq_gap": float(np.mean(g))})
    return pd.DataFrame(rows)


def lemma1_slopes(lem: pd.DataFrame) -> dict:
    """Log-log slope of the mean squared gap against ``theta``, per number of features."""
    out = {}
    for m, sub in lem.groupby("features_per_iteration"):
        if sub["theta"].nunique() >= 2 and (sub["mean_sq_gap"] > 0).all():
            out[int(m)] = float(np.polyfit(np.log(sub["theta"]), np.log(sub["mean_sq_gap"]),
                                           1)[0])
    return out


# --------------------------------------------------------------------------- memory
def memory_task(n_u: int, cfg: dict) -> dict:
    """Peak traced memory (tracemalloc) of one faithful TSGSU fit on the first of the
    ``large_sets``, excluding the data (allocated before tracing starts)."""
    from ..solvers.tsgsu import tsgsu
    data = trial_data(cfg["large_sets"][0], 0, cfg, n_unlabelled=n_u)
    tracemalloc.start()
    t0 = time.perf_counter()
    tsgsu(data.XS, data.XU, data.prior, lam=2.0 ** -7, kernel="rbf", gamma=2.0 ** -5,
          n_iter=int(cfg["memory_iter"]), batch_s=int(cfg["batch"]),
          batch_u=int(cfg["batch"]), n_features=int(cfg["n_features"]),
          eta0=1.0, mode="faithful", random_state=0)
    secs = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    n_train = data.XS.shape[0] + data.XU.shape[0]
    return {"n_unlabelled": n_u, "n_train": n_train, "T": int(cfg["memory_iter"]),
            "peak_mb": peak / 2 ** 20, "seconds": secs,
            "data_mb": (data.XS.nbytes + data.XU.nbytes) / 2 ** 20,
            # what the baselines would need at this size (8 bytes per entry)
            "susl_all_gram_gb": 8.0 * n_train ** 2 / 2 ** 30,
            "cuu_all_batch_mb": 8.0 * 2 * int(cfg["batch"]) * n_train / 2 ** 20}


def memory_table(cfg: dict, *, executor=None, progress: bool = True) -> pd.DataFrame:
    rows = run_tasks(memory_task, [int(n) for n in cfg["memory_unlabelled"]],
                     executor={"backend": "loky", "n_jobs": 1}, kwargs={"cfg": cfg},
                     desc="TSGSU memory", progress=progress, isolate=True)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- rate check
def _su_grad_coeffs(fS, fU, prior, correction):
    """Per-point coefficients of the functional gradient of Eq. (8) (squared loss) at the
    full-sample partial risks."""
    pm, ps = 1.0 - prior, prior ** 2 + (1.0 - prior) ** 2
    c = 1.0 / (2.0 * prior - 1.0)
    lp = lambda z: 0.25 * (z - 1.0) ** 2  # noqa: E731  l(z, +1)
    lm = lambda z: 0.25 * (z + 1.0) ** 2  # noqa: E731  l(z, -1)
    Rp = c * (ps * lp(fS).mean() - pm * lp(fU).mean())
    Rm = c * (prior * lm(fU).mean() - ps * lm(fS).mean())
    if correction == "abs":
        d1, d2 = (1.0 if Rp >= 0 else -1.0), (1.0 if Rm >= 0 else -1.0)
    else:
        d1 = d2 = 1.0
    gS = c * (d1 * ps * 0.5 * (fS - 1.0) - d2 * ps * 0.5 * (fS + 1.0)) / fS.size
    gU = c * (-d1 * pm * 0.5 * (fU - 1.0) + d2 * prior * 0.5 * (fU + 1.0)) / fU.size
    return gS, gU


def rate_check(cfg: dict) -> pd.DataFrame:
    """The O(1/sqrt(T)) rate of Theorem 1 on a synthetic problem with exact kernels.

    The exact-kernel iterate ``h_t`` of Eq. (22) with the constant step ``theta/sqrt(T)``
    and minibatches of ``batch`` similar and ``batch`` unlabelled points (the correction's
    ``delta'`` taken at the minibatch partial risks, as in Algorithm 1); its full-sample
    gradient norm ``||grad J(h_t)||_H^2 = g' K g`` (``g``: the gradient's expansion
    coefficients) averaged over ``t = 1..T``, for several ``T``, seeds and both the
    absolute-value correction (the non-convex objective TSGSU minimises) and no correction
    (the convex SU risk)."""
    from ..data.generators import twonorm
    from ..data.su import make_su_data
    from ..kernels import gram, make_kernel
    rc = cfg["rate"]
    n_p, n_u, b = int(rc["n_pairs"]), int(rc["n_unlabelled"]), int(rc["batch"])
    X, y = twonorm(4 * (2 * n_p + n_u), d=2, positive_prior=0.3, random_state=0)
    data = make_su_data(X, y, n_pairs=n_p, n_unlabelled=n_u, n_test=10, random_state=0)
    P = np.vstack([data.XS, data.XU])
    nS = data.XS.shape[0]
    K = gram(P, P, make_kernel("gaussian", gamma=float(rc["gamma"])))
    lam, prior = float(rc["lam"]), float(data.prior)
    rows = []
    for correction in ("abs", "none"):
        for rep in range(int(rc["reps"])):
            for T in rc["Ts"]:
                T = int(T)
                eta = float(rc["theta"]) / np.sqrt(T)
                rng = np.random.default_rng([rep, T])
                a = np.zeros(P.shape[0])  # h = sum_i a_i k(p_i, .)
                acc = 0.0
                for _ in range(T):
                    f = K @ a
                    gS, gU = _su_grad_coeffs(f[:nS], f[nS:], prior, correction)
                    g = lam * a + np.r_[gS, gU]
                    acc += float(g @ K @ g)
                    i = rng.choice(nS, min(b, nS), replace=False)
                    j = nS + rng.choice(P.shape[0] - nS, min(b, P.shape[0] - nS),
                                        replace=False)
                    sgS, sgU = _su_grad_coeffs(f[i], f[j], prior, correction)
                    a *= (1.0 - eta * lam)
                    a[i] -= eta * sgS
                    a[j] -= eta * sgU
                rows.append({"correction": correction, "rep": rep, "T": T,
                             "mean_sq_grad": acc / T})
    return pd.DataFrame(rows)


def rate_slope(rate: pd.DataFrame, correction: str = "abs") -> float:
    """Least-squares slope of log(mean squared gradient norm) against log T."""
    if "correction" in rate:
        rate = rate[rate["correction"] == correction]
    g = rate.groupby("T")["mean_sq_grad"].mean()
    return float(np.polyfit(np.log(g.index.values.astype(float)), np.log(g.values), 1)[0])



def curves_frame(raw: pd.DataFrame) -> pd.DataFrame:
    """The accuracy-versus-time curves of ``raw`` in long format (one row per checkpoint)."""
    rows = []
    if "curve_iter" not in raw:
        return pd.DataFrame(columns=["dataset", "n_unlabelled", "trial", "method",
                                     "correction", "mode", "iteration", "seconds", "accuracy"])
    for r in raw.itertuples():
        if isinstance(r.curve_iter, list):
            for it, t, a in zip(r.curve_iter, r.curve_time, r.curve_acc):
                rows.append({"dataset": r.dataset, "n_unlabelled": r.n_unlabelled,
                             "trial": r.trial, "method": r.method, "correction": r.correction,
                             "mode": r.mode, "iteration": it, "seconds": t, "accuracy": a})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- tables
def _share(a: pd.Series) -> float:
    """Share of True among the recorded (not NaN) flags of ``a``; NaN when none is."""
    a = a.dropna()
    return float(a.astype(bool).mean()) if len(a) else np.nan


def table(raw: pd.DataFrame, sets) -> pd.DataFrame:
    """Accuracy (%) mean and std over trials per (data set, method); long format, with
    ``one_class_share`` (the share of the trials whose fit predicted one class for every
    test point; NaN when not recorded) and ``trivial`` (the majority-class accuracy, %)."""
    sub = raw[raw["dataset"].isin(list(sets)) & (raw["correction"] == "abs")]
    g = sub.groupby(["dataset", "method"], sort=False)
    out = g["accuracy"].agg(mean=lambda a: 100 * np.nanmean(a) if a.notna().any() else np.nan,
                            std=lambda a: 100 * np.nanstd(a) if a.notna().any() else np.nan,
                            n_trials=lambda a: int(a.notna().sum()))
    out["seconds"] = g["seconds"].mean()
    out["one_class_share"] = g["one_class"].agg(_share) if "one_class" in sub else np.nan
    out["trivial"] = 100 * g["trivial"].mean() if "trivial" in sub else np.nan
    return out.reset_index()


#: the marker :func:`wide` puts on a cell resting on fits that predicted one class
ONE_CLASS_MARK = "†"


def wide(t: pd.DataFrame, methods=METHODS) -> pd.DataFrame:
    """``mean ± std`` per data set (rows, with the substitute) and method (columns); a cell
    with a trial whose fit predicted one class for every test point ends in
    :data:`ONE_CLASS_MARK` and the count of such trials."""
    cells = {}
    full = t.groupby("dataset")["n_trials"].transform("max")  # trials of the row's best
    share = t["one_class_share"] if "one_class_share" in t else pd.Series(np.nan, t.index)
    for r, n_max, sh in zip(t.itertuples(), full, share):
        txt = "–" if not np.isfinite(r.mean) else f"{r.mean:.1f} ± {r.std:.1f}"
        if np.isfinite(r.mean) and r.n_trials < n_max:  # fewer trials than its row
            txt = (f"{r.mean:.1f} (1 trial)" if r.n_trials == 1
                   else f"{txt} ({r.n_trials} trials)")
        if np.isfinite(r.mean) and np.isfinite(sh) and sh > 0:
            txt += f" {ONE_CLASS_MARK}{int(round(sh * r.n_trials))}/{r.n_trials}"
        cells.setdefault(r.dataset, {})[r.method] = txt
    df = pd.DataFrame(cells).T
    df = df[[m for m in methods if m in df.columns]]
    df.insert(0, "substitute", [substitute(d) for d in df.index])
    df.index.name = "dataset"
    return df


def tables(raw: pd.DataFrame, cfg: dict) -> dict:
    return {"Table 4": table(raw, cfg["table4_sets"]),
            "Table 5": table(raw, cfg["table5_sets"])}


def _m(t, d, m):
    r = t[(t["dataset"] == d) & (t["method"] == m)]
    return float(r["mean"].iloc[0]) if len(r) and np.isfinite(r["mean"].iloc[0]) else np.nan


def _first_time(row) -> float:
    """Training time of the first checkpointed iterate of an iterative method's curve."""
    t = row.get("curve_time") if hasattr(row, "get") else None
    return float(t[0]) if isinstance(t, list) and len(t) else np.nan


def _time_to_final(row, points: float = 1.0) -> float:
    """Training time at which a curve first comes within ``points`` of its final accuracy."""
    acc = 100 * np.asarray(row["curve_acc"], dtype=float)
    tim = np.asarray(row["curve_time"], dtype=float)
    ok = np.flatnonzero(acc >= acc[-1] - points)
    return float(tim[ok[0]]) if ok.size else float(tim[-1])


# --------------------------------------------------------------------------- claims
#: RAM of the paper's machine (Section 5: "80 GB"): claim 4a's threshold
PAPER_RAM_GB = 80.0
#: the paper's large setting (Section 5: n_U = 100 000), the size claim 4a is about
PAPER_LARGE_UNLABELLED = 100000
#: the note of every claim decided by wall-clock times: ``not_tested`` in ``claims.csv``
TIMING_NOTE = ("wall-clock claim: decided from this run's times in the report's timing "
               "table; not recorded in results/ because times vary between runs")
#: the same for the claim decided by measured memory
MEMORY_NOTE = ("memory claim: decided from this run's peak memory in the report's timing "
               "table; not recorded in results/ because the readings vary between runs")
#: the kinds of claim decided in ``claims.csv``; the others (``timing``, ``memory``) rest
#: on readings that vary between runs and are decided in the report only
DECIDED_KINDS = ("theory", "accuracy", "arithmetic")

#: Every claim of the paper tested here, in the order of ``claims.csv``:
#: ``id -> (source, text, kind)``. ``text`` quotes the paper (Section 5, its experiments,
#: unless the source says otherwise); ``kind`` is one of :data:`DECIDED_KINDS`,
#: ``"timing"`` or ``"memory"``.
CLAIMS = {
    "1": ("Theorem 1, Remark 2; Section 1",
          '"our TSGSU can converge to the stationary point at the rate O(1/sqrt(T)) after T '
          'iterations for the non-convex SU problem"', "theory"),
    "1b": ("Lemma 1, Remark 1",
           "for a fixed step size theta/sqrt(T), 0 < theta <= 1, "
           "E|f_{T+1}(x) - h_{T+1}(x)|^2 <= B^2_{1,T+1}, a constant times theta^2: \"we can "
           'easily bound the error caused by randomly sampled random features by a constant '
           'value"', "theory"),
    "2a": ("Section 5, Table 4",
           '"all the results of the non-linear model are higher than those of the linear '
           'model"', "accuracy"),
    "2b": ("Section 5, Table 4",
           '"CUU and TSGSU have higher results in most cases than SUDH and SUSL when using '
           'the Gaussian kernel"', "accuracy"),
    "3a": ("Section 5, Fig. 1",
           '"CUU is faster than our TSGSU in the small set" (n_U = 10 000)', "timing"),
    "3b": ("Section 5, Fig. 1",
           '"the results of SUDH(Linear) and SUDH(Nonlinear) are missing since they need more '
           'than 5,000 seconds" (n_U = 10 000)', "timing"),
    "4a": ("Section 5, Fig. 2",
           '"the results of SUSL and SUDH are all missing. This is because that they need '
           'more than O(n^2) space" (n_U = 100 000, 80 GB machine)', "arithmetic"),
    "4b": ("Section 5, Fig. 2",
           '"our method has a faster convergence rate than that of CUU(All) in these '
           'large-scale datasets" (n_U = 100 000)', "timing"),
    "4c": ("Section 5, Fig. 2",
           '"our method has a faster convergence rate than CUU(2000) and CUU(All)" '
           "(n_U = 100 000)", "timing"),
    "4d": ("Section 5, Fig. 2",
           '"our method can generate the model faster than CUU(2000) and CUU(All)" '
           "(n_U = 100 000)", "timing"),
    "5": ("Section 5, Fig. 3",
          '"without using the absolution function, there is a reduction in the test '
          'accuracy" (Combined and Covtype)', "accuracy"),
    "6": ("Section 5, Table 5",
          '"compared with SUSL and CUU with dot product kernel, the results of our method are '
          'still the best in most cases"', "accuracy"),
    "6b": ("Section 5, Fig. 4",
           'on the large subset with the dot-product kernel "SUSL and SUDH is out of the '
           'memory", "our method has a faster convergence rate than that of CUU (All)", and '
           'CUU(2000) "has a smaller training time than our method but a lower test '
           'accuracy"', "timing"),
    "11": ("Section 5, Table 5 and Fig. 4",
           '"our method can be used in other kernel functions"', "accuracy"),
    "7": ("Section 5 (its conclusion), Tables 4-5",
          '"TSGSU is superior to other existing SU classification algorithms with kernels in '
          'terms of efficiency and scalability while retaining similar generalization '
          'performance"', "accuracy"),
    "8": ("Section 5, Fig. 1",
          '"since SUSL is not an iterative method, our method can generate the model '
          'faster"', "timing"),
    "9": ("Section 5, Fig. 2",
          '"our method has 1% higher accuracy than that of CUU(2000) in most cases" '
          "(n_U = 100 000)", "accuracy"),
    "10": ("Section 1 (contributions), Section 4",
           '"our method highly reduces computational complexity and space complexity"',
           "memory"),
    "12": ("Section 1, Theorem 1",
           '"The standard DSG needs the convexity assumption of the objective function ... '
           'our convergence rate is more general": the rate holds on the non-convex '
           "(corrected) objective", "theory"),
}


def claim_tests(cfg: dict) -> dict:
    """``id -> (test, threshold)`` for every claim of :data:`CLAIMS`: how our numbers decide
    it and its threshold, from the declared ``tolerances`` of the config (``params.yaml``,
    where each has its reason from the paper) and :data:`PAPER_RAM_GB`. Reads no result."""
    tol = cfg["tolerances"]

    def most(unit):
        return (f"more than {tol['most_cases']:.0%} of the {unit} (tolerances.most_cases: "
                "the paper's \"in most cases\", a majority)")

    noise = (f"times compared only when the slower is at least {tol['timing_min_seconds']:g} s "
             f"and {tol['timing_ratio']:g} times the faster (tolerances.timing_min_seconds, "
             "timing_ratio: timing noise otherwise)")
    rate = (f"slope <= {tol['rate_slope']:g} (tolerances.rate_slope: 80 % of the slope -1/2 "
            "of O(1/sqrt(T)))")
    return {
        "1": ("log-log slope of the average squared gradient norm (1/T) sum_t "
              "||grad J(h_t)||^2 against T: exact-kernel iterates with minibatches, constant "
              "step theta/sqrt(T), absolute-value correction, synthetic SU data", rate),
        "1b": ("log-log slope against theta of the mean squared gap between the "
               "random-feature and the exact-kernel iterate on the training points (same "
               "samples, constant steps theta/sqrt(T)), for each number of random features "
               "per iteration",
               f"every slope >= {tol['lemma1_slope']:g} (tolerances.lemma1_slope: 80 % of "
               "Lemma 1's theta^2)"),
        "2a": ("on each Table 4 set, mean test accuracy of SUSL(Nonlinear) against "
               "SUSL(Linear) and of SUDH(Nonlinear) against SUDH(Linear)",
               'every pair, nonlinear above linear (the paper\'s "all the results")'),
        "2b": ("per Table 4 set: the lower of CUU's and TSGSU's mean accuracies above the "
               "higher of SUSL(Nonlinear)'s and SUDH(Nonlinear)'s", most("sets")),
        "3a": ("mean training time of CUU(All) below TSGSU's (the paper's algorithm, faithful "
               "mode) on the timing sets", f"{most('sets')}; {noise}"),
        "3b": ("SUDH(Linear)'s mean fit time above the slowest other method's",
               noise),
        "4a": ("memory of the n x n Gram matrix of the kernel basis on all 2 n_S + n_U "
               "training points at the largest n_U of the memory table (8 bytes per entry), "
               f"when that n_U reaches the paper's {PAPER_LARGE_UNLABELLED}",
               f"> {PAPER_RAM_GB:g} GB (Section 5: the paper's machine has 80 GB)"),
        "4b": ("per n_U = 100 000 run: training time at which TSGSU's test accuracy comes "
               "within 1 point of its final accuracy, below CUU(All)'s",
               f"{most('runs')}; {noise}"),
        "4c": ("as 4b, against CUU(2000)", f"{most('runs')}; {noise}"),
        "4d": ("per n_U = 100 000 run: time of TSGSU's first iterate below the first iterate "
               "of CUU(2000) and of CUU(All)", f"{most('runs')}; {noise}"),
        "5": ("per ablation set: mean test accuracy of TSGSU with the absolute-value "
              "correction above TSGSU without correction (same data, seeds and settings)",
              "every set (the paper's two sets)"),
        "6": ("per Table 5 set: TSGSU's mean accuracy at least the highest of the methods "
              "run", most("sets")),
        "6b": ("per n_U = 100 000 dot-product run: the Gram matrix above the RAM (4a), TSGSU "
               "within 1 point of its final accuracy sooner than CUU(All), CUU(2000) faster "
               "than TSGSU and less accurate", f"{most('runs')}; {noise}"),
        "11": ("per Table 5 set: TSGSU's mean accuracy (dot-product random features) above "
               "the higher of the linear models' (SUSL(Linear), SUDH(Linear))",
               most("sets")),
        "7": ("per set of Tables 4-5: TSGSU's mean accuracy within "
              f"{tol['about_one_point']:g} point of the highest method's",
              f"{most('sets')}; within {tol['about_one_point']:g} point (tolerances."
              "about_one_point: the paper's \"similar generalization performance\", read at "
              "the 1 % scale of its Fig. 2 statement)"),
        "8": ("time of TSGSU's first iterate (faithful mode) below SUSL(Nonlinear)'s fit "
              "time on the timing sets", f"{most('sets')}; {noise}"),
        "9": ("per n_U = 100 000 run (set, trial): TSGSU's final test accuracy above "
              "CUU(2000)'s", most("runs")),
        "10": ("peak traced memory of one TSGSU fit (faithful mode) at the largest n_U of the "
               "memory table against the smallest",
               f"ratio below {tol['memory_ratio']:g} (tolerances.memory_ratio)"),
        "12": ("the slope of claim 1's run, on the absolute-value corrected (non-convex) "
               "objective", rate),
    }


def _item(label: str, value, bad: str | None = None) -> dict:
    """One comparison a claim is decided over (a data set, a pair, a run): ``value`` True /
    False (None: nothing to compare) and ``bad``, why it rests on a degenerate result."""
    return {"label": label, "value": None if value is None else bool(value),
            "bad": bad or None}


def over_items(items: list[dict], rule: str, share: float = 0.5):
    """Decide a claim over its items (:func:`_item`): ``rule`` ``"all"`` (every item) or
    ``"most"`` (more than ``share`` of them).

    An item whose comparison rests on a degenerate result (its ``bad``: a fit that predicts
    one class for every test point, a method or data set not run, a correction that never
    acted) is left out, and the claim is decided only when its verdict is the same whatever
    those items would give (all true, all false); otherwise the claim rests on them.

    Returns
    -------
    holds : bool or None
        The verdict over the items left (None when none is left, or when no item has a
        number at all: the claim was not tested).
    degenerate : bool
        The verdict depends on the degenerate items.
    counts : str
        ``"k of n"`` over the items left.
    """
    if rule not in ("all", "most"):
        raise ValueError(f"rule must be 'all' or 'most', got {rule!r}.")
    known = [bool(i["value"]) for i in items if not i["bad"]]
    n_bad = len(items) - len(known)

    def verdict(vals):
        if not vals:
            return None
        k = sum(vals)
        return k == len(vals) if rule == "all" else k > share * len(vals)

    counts = f"{sum(known)} of {len(known)}"
    if not any(i["value"] is not None for i in items):
        return None, False, counts
    lo, hi = verdict(known + [False] * n_bad), verdict(known + [True] * n_bad)
    if lo == hi:
        return lo, False, counts
    return verdict(known), True, counts


def _left_out(items: list[dict]) -> str:
    bad = [f"{i['label']} ({i['bad']})" for i in items if i["bad"]]
    return "; ".join(bad)


def _cell(t: pd.DataFrame, d: str, m: str):
    """``(mean accuracy %, why degenerate or None)`` of one cell of :func:`table`."""
    r = t[(t["dataset"] == d) & (t["method"] == m)]
    if not len(r) or not np.isfinite(r["mean"].iloc[0]):
        return np.nan, f"{m} not run"
    mean, n = float(r["mean"].iloc[0]), int(r["n_trials"].iloc[0])
    sh = float(r["one_class_share"].iloc[0]) if "one_class_share" in r else np.nan
    if np.isfinite(sh) and sh > 0:
        return mean, f"{m} predicts one class in {int(round(sh * n))} of {n} trials"
    return mean, None


def _best(cells: dict):
    """``(method, mean, why)`` of the highest finite cell of ``{method: (mean, why)}``;
    ``(None, nan, "no method run")`` when none has a number."""
    fin = {m: v for m, v in cells.items() if np.isfinite(v[0])}
    if not fin:
        return None, np.nan, "no method run"
    m = max(fin, key=lambda k: fin[k][0])
    return m, fin[m][0], fin[m][1]


def _join(*why) -> str | None:
    out = "; ".join(w for w in why if w)
    return out or None


def _run_one_class(row) -> bool:
    v = row.get("one_class") if hasattr(row, "get") else None
    return bool(v) if v is not None and not (isinstance(v, float) and np.isnan(v)) else False


def _curve_one_class(row) -> bool:
    """A curve every checkpoint of which predicts one class for every test point."""
    v = row.get("curve_one_class") if hasattr(row, "get") else None
    return bool(isinstance(v, list) and len(v) and all(v))


def claim_records(raw: pd.DataFrame, large: pd.DataFrame, ablation: pd.DataFrame,
                  memory: pd.DataFrame, rate: pd.DataFrame, cfg: dict,
                  lemma: pd.DataFrame | None = None) -> list[dict]:
    """Every claim of :data:`CLAIMS` tested on our results, before its verdict: one dict per
    claim with ``claim, source, text, kind, test, threshold`` (:func:`claim_tests`),
    ``holds`` (True / False / None), ``degenerate`` (the outcome rests on a degenerate
    result, named in ``why``), ``ours`` (the numbers, no wall-clock reading), ``why`` and,
    for timing and memory claims, ``readings`` (this run's seconds / MB) and ``outcome``
    (what this run's readings say). :func:`claims` turns them into the claims table,
    :func:`claim_readings` into the report's timing table."""
    tol = cfg["tolerances"]
    tests = claim_tests(cfg)
    t4 = table(raw, cfg["table4_sets"])
    t5 = table(raw, cfg["table5_sets"])
    methods = [m for m in METHODS if m in cfg["methods"]]
    recs = {}

    def add(cid, holds, ours, *, degenerate=False, why="", readings="", outcome=""):
        source, text, kind = CLAIMS[cid]
        test, threshold = tests[cid]
        recs[cid] = {"claim": cid, "source": source, "text": text, "kind": kind,
                     "test": test, "threshold": threshold,
                     "holds": None if holds is None else bool(holds),
                     "degenerate": bool(degenerate), "ours": ours, "why": why,
                     "readings": readings, "outcome": outcome}

    def add_items(cid, items, rule, what):
        h, deg, cnt = over_items(items, rule, tol["most_cases"])
        shown = "; ".join(i["label"] for i in items if i["value"] is not None and not i["bad"])
        left = _left_out(items)
        ours = f"{what} on {cnt}" + (f": {shown}" if shown else "")
        if deg:
            why = f"the verdict depends on degenerate results, left out: {left}"
        elif h is None:
            why = "not run in this profile" + (f": {left}" if left else "")
        elif left:
            why = f"decided without degenerate results, which cannot change it: {left}"
        else:
            why = ""
        add(cid, h, ours, degenerate=deg, why=why)

    def faster(a, b):
        """Whether time ``a`` is below time ``b``; None inside the timing noise."""
        if not (np.isfinite(a) and np.isfinite(b)):
            return None
        if max(a, b) < tol["timing_min_seconds"] or \
                max(a, b) < tol["timing_ratio"] * min(a, b):
            return None
        return bool(a < b)

    def add_timing(cid, flags, n_all, what, readings, *, degenerate_curves="",
                   not_run=""):
        """A timing claim: not decided in claims.csv; this run's readings and outcome."""
        h, _, cnt = over_items([_item("", f) for f in flags], "most", tol["most_cases"])
        noise = n_all - len(flags)
        if not n_all:
            outcome = "not run"
        else:
            said = ("consistent with the claim" if h else "not consistent with the claim"
                    if h is False else "undecided (timing noise)")
            outcome = (f"{what} on {cnt}" + (f" ({noise} within the timing noise)"
                                             if noise else "") + f": {said}")
        if not n_all and not not_run:
            not_run = "not run in this profile"
        why = not_run or (f"{TIMING_NOTE}; this run's comparison also rests on degenerate "
                          f"results: {degenerate_curves}" if degenerate_curves else TIMING_NOTE)
        add(cid, None, "", why=why, readings=readings, outcome=outcome)

    # 1, 12. Theorem 1: the rate, on the non-convex (corrected) objective
    slope = rate_slope(rate, "abs") if len(rate) else np.nan
    slope_none = rate_slope(rate, "none") if len(rate) and "none" in set(rate["correction"]) \
        else np.nan
    ok = np.isfinite(slope)
    add("1", slope <= tol["rate_slope"] if ok else None,
        f"slope {slope:.2f} (on the uncorrected, convex risk: {slope_none:.2f})" if ok else "",
        why="" if ok else "not run in this profile")
    add("12", slope <= tol["rate_slope"] if ok else None,
        f"slope {slope:.2f} with the correction (non-convex) against {slope_none:.2f} "
        "without it (convex)" if ok else "", why="" if ok else "not run in this profile")
    # 1b. Lemma 1
    sl = lemma1_slopes(lemma) if lemma is not None and len(lemma) else {}
    add("1b", all(v >= tol["lemma1_slope"] for v in sl.values()) if sl else None,
        ("slopes " + ", ".join(f"{v:.2f} with {m} features per iteration"
                               for m, v in sl.items())
         + " (theta in " + ", ".join(f"{t:g}" for t in sorted(set(lemma["theta"])))
         + f"; largest mean squared gap {lemma['mean_sq_gap'].max():.2e})") if sl else "",
        why="" if sl else "not run in this profile")
    # 2a. kernel above linear, every pair
    items = []
    for d in cfg["table4_sets"]:
        for fam in ("SUSL", "SUDH"):
            nl, li = f"{fam}(Nonlinear)", f"{fam}(Linear)"
            if nl not in methods or li not in methods:
                continue
            (a, wa), (b, wb) = _cell(t4, d, nl), _cell(t4, d, li)
            both = np.isfinite(a) and np.isfinite(b)
            items.append(_item(f"{d} {fam} {a:.1f} vs {b:.1f}" if both else f"{d} {fam}",
                               a > b if both else None, _join(wa, wb)))
    add_items("2a", items, "all", "nonlinear above linear")
    # 2b. CUU and TSGSU above SUSL / SUDH (Gaussian)
    items = []
    for d in cfg["table4_sets"]:
        (c, wc), (s, ws) = _cell(t4, d, "CUU"), _cell(t4, d, "TSGSU")
        bm, b, wb = _best({m: _cell(t4, d, m) for m in ("SUSL(Nonlinear)", "SUDH(Nonlinear)")
                           if m in methods})
        fin = np.isfinite(c) and np.isfinite(s) and np.isfinite(b)
        items.append(_item(f"{d} CUU {c:.1f}, TSGSU {s:.1f} vs {bm} {b:.1f}" if fin else d,
                           min(c, s) > b if fin else None, _join(wc, ws, wb)))
    add_items("2b", items, "most", "both CUU and TSGSU above the better of SUSL/SUDH "
              "(nonlinear)")
    # 3a, 3b, 8. scalability at n_U = 10 000 (wall clock)
    flags, ev, n_all = [], [], 0
    for d in [x for x in cfg["table4_sets"] if x in cfg["timing_sets"]]:
        s = raw[(raw["dataset"] == d) & (raw["method"] == "TSGSU") & (raw["mode"] == "faithful")] \
            if "mode" in raw else raw.iloc[:0]
        c = raw[(raw["dataset"] == d) & (raw["method"] == "CUU") & (raw["trial"] < len(s))] \
            if len(s) else raw.iloc[:0]
        if len(s) and len(c) and c["seconds"].notna().any():
            n_all += 1
            v = faster(c["seconds"].mean(), s["seconds"].mean())
            ev.append(f"{d}: CUU(All) {c['seconds'].mean():.1f} s, TSGSU "
                      f"{s['seconds'].mean():.1f} s")
            if v is not None:
                flags.append(v)
    add_timing("3a", flags, n_all, "CUU(All) faster than TSGSU", "; ".join(ev))
    sd = raw[raw["method"] == "SUDH(Linear)"]["seconds"].mean()
    others = raw[~raw["method"].str.startswith("SUDH")].groupby("method")["seconds"].mean()
    others = others.dropna()
    v = faster(others.max(), sd) if len(others) and np.isfinite(sd) else None
    add_timing("3b", [] if v is None else [v], int(len(others) > 0 and np.isfinite(sd)),
               "SUDH(Linear) slower than every other method",
               f"SUDH(Linear) {sd:.1f} s; slowest other method "
               + (f"{others.idxmax()} {others.max():.1f} s" if len(others) else "–"))
    flags, ev, n_all = [], [], 0
    for d in [x for x in cfg["table4_sets"] if x in cfg["timing_sets"]]:
        s = raw[(raw["dataset"] == d) & (raw["method"] == "TSGSU") & (raw["mode"] == "faithful")] \
            if "mode" in raw else raw.iloc[:0]
        q = raw[(raw["dataset"] == d) & (raw["method"] == "SUSL(Nonlinear)")]
        if len(s) and len(q) and "curve_time" in s and isinstance(s["curve_time"].iloc[0], list):
            n_all += 1
            first = float(s["curve_time"].iloc[0][0])
            v = faster(first, q["seconds"].mean())
            if v is not None:
                flags.append(v)
            ev.append(f"{d}: TSGSU's first iterate {first:.2f} s, SUSL(Nonlinear) "
                      f"{q['seconds'].mean():.2f} s")
    add_timing("8", flags, n_all, "TSGSU's first iterate earlier than SUSL(Nonlinear)'s fit",
               "; ".join(ev))
    # 4a. out of memory at n_U = 100 000 (arithmetic)
    need = memory["susl_all_gram_gb"].max() if len(memory) else np.nan
    top = int(memory["n_unlabelled"].max()) if len(memory) else 0
    ours = (f"{need:.0f} GB at n = {int(memory['n_train'].max())} training points "
            f"(n_U = {top})") if np.isfinite(need) else ""
    if np.isfinite(need) and top >= PAPER_LARGE_UNLABELLED:
        add("4a", bool(need > PAPER_RAM_GB), ours)
    else:  # the claim is about the paper's n_U = 100 000: a smaller table does not test it
        add("4a", None, ours, why=f"not run in this profile: the memory table stops at "
            f"n_U = {top}, below the paper's {PAPER_LARGE_UNLABELLED}")
    # 4b, 4c, 4d, 6b. n_U = 100 000 (wall clock)
    runs = []
    if len(large):
        for (d, t), sub in large.groupby(["dataset", "trial"], sort=True):
            sub = sub.set_index("method")
            if {"TSGSU", "CUU", "CUU(2000)"} <= set(sub.index):
                runs.append((d, t, sub))

    r4 = [(d, t, sub) for d, t, sub in runs if d in cfg["table4_sets"]]
    r5 = [(d, t, sub) for d, t, sub in runs if d in cfg["table5_sets"]]
    ev, flags_b, flags_c, flags_d, deg_b, deg_c = [], [], [], [], [], []
    for d, t, sub in r4:
        tt = {m: _time_to_final(sub.loc[m]) for m in ("TSGSU", "CUU", "CUU(2000)")}
        first = {m: _first_time(sub.loc[m]) for m in ("TSGSU", "CUU", "CUU(2000)")}
        for flags, m in ((flags_b, "CUU"), (flags_c, "CUU(2000)")):
            v = faster(tt["TSGSU"], tt[m])
            if v is not None:
                flags.append(v)
        w = [faster(first["TSGSU"], first[m]) for m in ("CUU", "CUU(2000)")]
        if None not in w:
            flags_d.append(all(w))
        ev.append(f"{d} (trial {t}): within 1 point of the final accuracy after "
                  + ", ".join(f"{m} {x:.1f} s" for m, x in tt.items())
                  + "; first model after " + ", ".join(f"{m} {x:.2f} s"
                                                       for m, x in first.items()))
        for lst, ms in ((deg_b, ("TSGSU", "CUU")), (deg_c, ("TSGSU", "CUU(2000)"))):
            lst += [f"{d} (trial {t}): {m}'s curve predicts one class at every checkpoint"
                    for m in ms if _curve_one_class(sub.loc[m])]
    not_run = "" if r4 else ("not run in this profile: no n_U = 100 000 run on a Table 4 "
                             "set")
    add_timing("4b", flags_b, len(r4), "TSGSU within 1 point of its final accuracy sooner "
               "than CUU(All)", "; ".join(ev), degenerate_curves="; ".join(deg_b),
               not_run=not_run)
    add_timing("4c", flags_c, len(r4), "TSGSU within 1 point of its final accuracy sooner "
               "than CUU(2000)", "; ".join(ev), degenerate_curves="; ".join(deg_c),
               not_run=not_run)
    add_timing("4d", flags_d, len(r4), "TSGSU's first iterate earlier than both CUUs'",
               "; ".join(ev), not_run=not_run)
    flags, ev, deg = [], [], []
    for d, t, sub in r5:
        conv = faster(_time_to_final(sub.loc["TSGSU"]), _time_to_final(sub.loc["CUU"]))
        quick = faster(sub.loc["CUU(2000)", "seconds"], sub.loc["TSGSU", "seconds"])
        less = sub.loc["CUU(2000)", "accuracy"] < sub.loc["TSGSU", "accuracy"]
        if conv is not None and quick is not None:
            flags.append(conv and quick and bool(less) and bool(need > PAPER_RAM_GB))
        ev.append(f"{d} (trial {t}): TSGSU sooner than CUU(All) {conv}, CUU(2000) faster "
                  f"{quick}, CUU(2000) less accurate {bool(less)}")
        deg += [f"{d} (trial {t}): {m}'s curve predicts one class at every checkpoint"
                for m in ("TSGSU", "CUU", "CUU(2000)") if _curve_one_class(sub.loc[m])]
    add_timing("6b", flags, len(r5), "all four parts hold", "; ".join(ev),
               degenerate_curves="; ".join(deg),
               not_run="" if r5 else "not run in this profile: no n_U = 100 000 run on a "
               "dot-product set (`large_sets` of the `large` profile adds Sim)")
    # 5. the correction (Fig. 3)
    items = []
    has_abl = len(ablation) > 0
    for d in cfg["ablation_sets"]:
        if not has_abl:
            items.append(_item(d, None, "not run"))
            continue
        a = ablation[(ablation["dataset"] == d) & (ablation["correction"] == "abs")]
        n = ablation[(ablation["dataset"] == d) & (ablation["correction"] == "none")]
        if not (len(a) and len(n)) or a["accuracy"].isna().all() or n["accuracy"].isna().all():
            items.append(_item(d, None, "not run"))
            continue
        ma, mn = 100 * a["accuracy"].mean(), 100 * n["accuracy"].mean()
        runs_ = pd.concat([a, n])
        k1 = sum(_run_one_class(r) for _, r in runs_.iterrows())
        bad = f"{k1} of {len(runs_)} runs predict one class" if k1 else None
        if "negative_risk_iters" in a and a["negative_risk_iters"].notna().all() \
                and (a["negative_risk_iters"] == 0).all():
            bad = _join(bad, "no iteration of the corrected runs met a negative partial risk, "
                             "so the correction never acted and both arms are the same "
                             "iterates")
        items.append(_item(f"{d}: {ma:.1f} (abs) vs {mn:.1f} (none)", ma > mn, bad))
    add_items("5", items, "all", "corrected above uncorrected")
    # 6, 11. the dot-product kernel (Table 5)
    items6, items11 = [], []
    for d in cfg["table5_sets"]:
        cells = {m: _cell(t5, d, m) for m in methods}
        s, ws = cells.get("TSGSU", (np.nan, "TSGSU not run"))
        bm, b, wb = _best(cells)
        ok = np.isfinite(s)
        items6.append(_item(f"{d} TSGSU {s:.1f}, best {bm} {b:.1f}" if ok else d,
                            s >= b if ok else None,
                            _join(ws, wb if bm != "TSGSU" else None)))
        lm, lb, wl = _best({m: v for m, v in cells.items() if m.endswith("(Linear)")})
        ok = np.isfinite(s) and np.isfinite(lb)
        items11.append(_item(f"{d} TSGSU {s:.1f} vs {lm} {lb:.1f}" if ok else d,
                             s > lb if ok else None,
                             _join(ws, wl if lm is not None else "no linear model run")))
    add_items("6", items6, "most", "TSGSU the best")
    add_items("11", items11, "most", "TSGSU above both linear models")
    # 7. similar generalisation: within about_one_point of the best
    items = []
    for tt, sets in ((t4, cfg["table4_sets"]), (t5, cfg["table5_sets"])):
        for d in sets:
            cells = {m: _cell(tt, d, m) for m in methods}
            s, ws = cells.get("TSGSU", (np.nan, "TSGSU not run"))
            bm, b, wb = _best(cells)
            ok = np.isfinite(s)
            items.append(_item(f"{d} TSGSU {s:.1f}, best {bm} {b:.1f}" if ok else d,
                               s >= b - tol["about_one_point"] if ok else None,
                               _join(ws, wb if bm != "TSGSU" else None)))
    add_items("7", items, "most", f"TSGSU within {tol['about_one_point']:g} point of the best")
    # 9. above CUU(2000) at n_U = 100 000
    items = []
    if len(large):
        for (d, t), sub in large.groupby(["dataset", "trial"], sort=True):
            sub = sub.set_index("method")
            if {"TSGSU", "CUU(2000)"} <= set(sub.index):
                x = 100 * (sub.loc["TSGSU", "accuracy"] - sub.loc["CUU(2000)", "accuracy"])
                bad = _join(*(f"{m} predicts one class" for m in ("TSGSU", "CUU(2000)")
                              if _run_one_class(sub.loc[m])))
                items.append(_item(f"{d} (trial {t}) {x:+.1f} points", x > 0, bad))
    add_items("9", items, "most", "TSGSU above CUU(2000)")
    # 10. memory flat in n_U (measured)
    if len(memory) >= 2:
        m0, m1 = memory.iloc[0], memory.iloc[-1]
        ratio = float(m1["peak_mb"] / m0["peak_mb"])
        said = "consistent with the claim" if ratio < tol["memory_ratio"] else \
            "not consistent with the claim"
        add("10", None, "", why=MEMORY_NOTE,
            readings=f"{m0['peak_mb']:.1f} MB at n_U = {int(m0['n_unlabelled'])}, "
                     f"{m1['peak_mb']:.1f} MB at n_U = {int(m1['n_unlabelled'])} "
                     f"(data x{m1['n_train'] / m0['n_train']:.1f})",
            outcome=f"ratio {ratio:.2f}: {said}")
    else:
        add("10", None, "", why="not run in this profile: fewer than two sizes in the "
                                "memory table", outcome="not run")
    return [recs[c] for c in CLAIMS]


def claims(raw: pd.DataFrame, large: pd.DataFrame, ablation: pd.DataFrame,
           memory: pd.DataFrame, rate: pd.DataFrame, cfg: dict,
           lemma: pd.DataFrame | None = None) -> pd.DataFrame:
    """The claims table (``claims.csv``) in the common schema of :mod:`weaklabel.claims`:
    one row per claim of :data:`CLAIMS` with ``claim, text, source, test, threshold, ours,
    verdict, note``.

    The verdict is :func:`weaklabel.claims.decide` of the test's outcome
    (:func:`claim_records`): ``inconclusive`` when the outcome depends on a degenerate
    result (:func:`over_items`: a fit predicting one class for every test point, a method
    or data set not run, a correction that never acted), named in ``note``;
    ``not_tested`` when the test was not run in this profile, and for every timing and
    memory claim (:data:`TIMING_NOTE`, :data:`MEMORY_NOTE`: their readings vary between
    runs and are shown by :func:`claim_readings` in the report). No wall-clock reading is
    in the table: two runs give the same file."""
    from ..claims import COLUMNS, decide
    rows = []
    for r in claim_records(raw, large, ablation, memory, rate, cfg, lemma):
        tested = r["kind"] in DECIDED_KINDS and r["holds"] is not None
        verdict = decide(r["holds"], degenerate=r["degenerate"],
                         tested=tested or r["degenerate"])
        rows.append({"claim": r["claim"], "text": r["text"], "source": r["source"],
                     "test": r["test"], "threshold": r["threshold"],
                     "ours": r["ours"] if r["kind"] in DECIDED_KINDS else "",
                     "verdict": verdict, "note": r["why"]})
    return pd.DataFrame(rows, columns=COLUMNS)


def claim_readings(raw: pd.DataFrame, large: pd.DataFrame, ablation: pd.DataFrame,
                   memory: pd.DataFrame, rate: pd.DataFrame, cfg: dict,
                   lemma: pd.DataFrame | None = None) -> pd.DataFrame:
    """The report's timing table: the timing and memory claims (``not_tested`` in
    ``claims.csv``) with this run's readings and what they say under the declared rule
    (``test``, ``threshold``); never written to ``results/``."""
    rows = [{"claim": r["claim"], "source": r["source"], "text": r["text"],
             "test": r["test"], "threshold": r["threshold"],
             "this run's readings": r["readings"], "in this run": r["outcome"]}
            for r in claim_records(raw, large, ablation, memory, rate, cfg, lemma)
            if r["kind"] not in DECIDED_KINDS]
    return pd.DataFrame(rows, columns=["claim", "source", "text", "test", "threshold",
                                       "this run's readings", "in this run"])


def _holds_value(verdict) -> float:
    """1.0 / 0.0 for a decided verdict, NaN for inconclusive or not tested."""
    return {"holds": 1.0, "does_not_hold": 0.0}.get(str(verdict), np.nan)


def _claim_key(claim) -> tuple[str, str, str]:
    """The comparison cell ``(artifact, row, column)`` of one row of :func:`claims`."""
    return f"Claim {claim.claim} ({claim.source})", claim.text, "holds"


def comparison(raw: pd.DataFrame, cl: pd.DataFrame, cfg: dict, *,
               large: pd.DataFrame | None = None, ablation: pd.DataFrame | None = None,
               memory: pd.DataFrame | None = None, rate: pd.DataFrame | None = None,
               lemma: pd.DataFrame | None = None,
               sensitivity: pd.DataFrame | None = None) -> pd.DataFrame:
    """``comparison.csv``: every Table 4-5 cell (no published number: ``not_published``,
    our mean accuracy next to it, the substitute in the note, the share of its trials whose
    fit predicted one class in ``one_class_share`` and the majority-class accuracy in
    ``trivial``) and every claim of the claims table ``cl`` (the paper asserts it:
    ``published`` = 1; ``reproduced`` = 1 when its verdict in ``cl`` is ``holds``, 0 when
    ``does_not_hold``, empty and verdict ``not_run`` when ``inconclusive`` or
    ``not_tested``, with ``cl``'s note), with the causes of every ``differs`` row
    (:func:`weaklabel.causes.assign_causes` on the evidence of :func:`causes_evidence`).
    No cell has a tolerance: the paper prints no table cell to compare with.

    Parameters
    ----------
    raw, cl, cfg
        The results of :func:`run`, the claims table of :func:`claims` (common schema) and
        the protocol (:func:`config`).
    large, ablation, memory, rate, lemma : DataFrame, optional
        The other inputs of :func:`claims` (:func:`run_large_and_ablation`,
        :func:`memory_table`, :func:`rate_check`, :func:`lemma1_check`). They add evidence
        (the per-trial and per-repetition versions of the claims); without them the causes
        rest on less evidence, never on other numbers.
    sensitivity : DataFrame, optional
        :func:`run_sensitivity` (the step-size sensitivity part): the claims of
        :data:`STEP_CLAIMS` decided again at each step (evidence only; the tables and the
        claims keep the protocol's numbers).

    Returns
    -------
    DataFrame with :data:`weaklabel.compare.COLUMNS` then
    :data:`weaklabel.causes.CAUSE_COLUMNS`.
    """
    from .. import published
    from ..causes import assign_causes
    from ..compare import COLUMNS, classify
    _check_claims_frame(cl)
    pub = published.load("tsgsu")
    tabs = tables(raw, cfg)
    rows = []
    for r in pub.itertuples():
        t = tabs.get(r.artifact)
        cell = t[(t["dataset"] == r.row) & (t["method"] == r.column)] if t is not None \
            else pd.DataFrame()
        val = _m(t, r.row, r.column) if t is not None else np.nan
        sub = substitute(r.row)
        note = (f"no published number; ours on {sub}"
                + (f", {int(cell['n_trials'].iloc[0])} trials" if len(cell) else ", not run"))

        def first(col, cell=cell):
            return float(cell[col].iloc[0]) if len(cell) and col in cell else np.nan

        rows.append({"paper": "tsgsu", "artifact": r.artifact, "row": r.row,
                     "column": r.column, "published": np.nan, "reproduced": val,
                     "delta": np.nan, "tolerance": np.nan, "verdict": "not_published",
                     "note": note, "trivial": first("trivial"), "uninformative": False,
                     "one_class_share": first("one_class_share")})
    for c in cl.itertuples():
        rep = _holds_value(c.verdict)
        artifact, row, column = _claim_key(c)
        note = c.note if isinstance(c.note, str) else ""
        rows.append({"paper": "tsgsu", "artifact": artifact,
                     "row": row, "column": column, "published": 1.0,
                     "reproduced": rep, "delta": rep - 1.0 if np.isfinite(rep) else np.nan,
                     "tolerance": 0.0,
                     "verdict": ("match" if rep == 1.0 else "differs" if rep == 0.0
                                 else "not_run"),
                     "note": (f"holds: {c.ours}" if rep == 1.0 else
                              f"does not hold: {c.ours}" if rep == 0.0 else
                              f"{str(c.verdict).replace('_', ' ')} in claims.csv: {note}"),
                     "trivial": np.nan, "uninformative": False, "one_class_share": np.nan})
    comp = classify(pd.DataFrame(rows, columns=COLUMNS),
                    substitutes=claim_substitutes(cl, cfg))
    return assign_causes(comp, **causes_evidence(
        cl, cfg, raw=raw, large=large, ablation=ablation, memory=memory, rate=rate,
        lemma=lemma, sensitivity=sensitivity))


def _check_claims_frame(cl) -> None:
    """``cl`` must be the claims table of :func:`claims` (TypeError / ValueError naming
    ``cl`` otherwise)."""
    if not isinstance(cl, pd.DataFrame):
        raise TypeError(f"cl must be the claims DataFrame, got {type(cl).__name__}.")
    need = [c for c in ("claim", "source", "text", "ours", "verdict", "note")
            if c not in cl.columns]
    if need:
        raise ValueError(f"cl lacks columns {need}; pass the frame claims() returns.")


# --------------------------------------------------------------------------- causes
#: The data sets each claim of :func:`claims` is evaluated on, declared once, as keys of
#: the config: an entry that is a key names the list ``cfg[key]``, a tuple of keys their
#: intersection, and the entries of a claim are united. ``"memory_sets"`` is the first of
#: ``large_sets`` (:func:`memory_task`). The claims on synthetic data (Theorem 1, Lemma 1)
#: and claim 4a (the size of an n x n Gram matrix, whatever the data) have none.
CLAIM_SETS = {
    "1": (), "1b": (), "12": (), "4a": (),
    "2a": ("table4_sets",), "2b": ("table4_sets",),
    "3a": (("timing_sets", "table4_sets"),), "8": (("timing_sets", "table4_sets"),),
    "3b": ("table4_sets", "table5_sets"),
    "4b": ("large_sets",), "9": ("large_sets",),
    "4c": (("large_sets", "table4_sets"),), "4d": (("large_sets", "table4_sets"),),
    "5": (("ablation_sets", "table4_sets"), ("ablation_sets", "table5_sets")),
    "6": ("table5_sets",), "11": ("table5_sets",), "7": ("table4_sets", "table5_sets"),
    "6b": (("large_sets", "table5_sets"),),
    "10": ("memory_sets",),
}
#: The claims whose verdict rests on test accuracies over trials (Tables 4-5, the Fig. 3
#: ablation, the final accuracies of Fig. 2): each has a per-trial version, the same test on
#: one trial's results (:func:`claims` on that trial), whose spread over trials and whose
#: change with the number of trials are evidence (:func:`causes_evidence`). The timing
#: claims rest on trial 0 alone (the paper's algorithm is timed there) and have none.
PER_TRIAL_CLAIMS = ("2a", "2b", "5", "6", "7", "9", "11")
#: The claims whose verdict is the slope of the rate check (:func:`rate_check`), which has a
#: per-repetition version (the slope of one repetition's curve).
PER_REP_CLAIMS = ("1", "12")

#: Documented differences between our baselines and the paper's description of them (the
#: module docstring, ``params.yaml`` and the notebook's protocol table), one line per
#: method; ``{key}`` is the config's value (None: ``all``). A note applies to a run only
#: when its method is run and, if it names config keys (:data:`_NOTE_KEYS`), one of them is
#: not None (None restores the paper's description). The comparison's claim rows have the
#: column ``holds``, not a method, so these notes reach only rows whose column is a method.
BASELINE_NOTES = {
    "SUSL(Nonlinear)": "kernel basis on {susl_centres} of the training points drawn at "
                       "random, not on all of them as in the paper (its n x n system: cost)",
    "SUDH(Nonlinear)": "kernel basis on {sudh_centres} of the training points and the QP on "
                       "{sudh_nonlinear_unlabelled} of the unlabelled points, drawn at random, "
                       "not on all of them as in the paper (cost)",
    "CUU": "CUU(All) uses the setting selected for CUU(2000) (the same model on more "
           "centres), not a selection of its own (cost)",
}
_NOTE_KEYS = {"SUSL(Nonlinear)": ("susl_centres",),
              "SUDH(Nonlinear)": ("sudh_centres", "sudh_nonlinear_unlabelled"), "CUU": ()}


def claim_sets(claim: str, cfg: dict) -> list[str]:
    """The data sets (the paper's names) claim ``claim`` is evaluated on under ``cfg``
    (:data:`CLAIM_SETS`), in the config's order.

    Raises
    ------
    ValueError
        When ``claim`` is not declared in :data:`CLAIM_SETS`.
    """
    if str(claim) not in CLAIM_SETS:
        raise ValueError(f"claim {claim!r} is not declared in CLAIM_SETS (declare the data "
                         f"sets it is evaluated on); declared: {sorted(CLAIM_SETS)}.")

    def listed(key):
        if key == "memory_sets":
            return list(cfg["large_sets"])[:1]
        if key not in cfg:
            raise ValueError(f"CLAIM_SETS names the config key {key!r}, which cfg lacks.")
        return list(cfg[key])

    out = []
    for entry in CLAIM_SETS[str(claim)]:
        keys = (entry,) if isinstance(entry, str) else tuple(entry)
        names = listed(keys[0])
        for k in keys[1:]:
            names = [n for n in names if n in listed(k)]
        out += [n for n in names if n not in out]
    return out


def claim_substitutes(cl: pd.DataFrame, cfg: dict) -> dict:
    """The ``substitutes`` of :func:`weaklabel.compare.classify` (``not_comparable``):
    ``{(claim artifact, "*") -> reason}`` for every claim evaluated on at least one declared
    substitute (:data:`weaklabel.data.su.SU_BENCHMARKS`), the sets from :func:`claim_sets`.
    The reason names each substitute, and the declared-missing sets (not evaluated)."""
    out = {}
    for c in cl.itertuples():
        names = claim_sets(c.claim, cfg)
        subs = [f"{n} -> {spec(n).substitute}" for n in names if spec(n).substitute]
        if not subs:
            continue
        missing = [n for n in names if not spec(n).substitute]
        out[(_claim_key(c)[0], "*")] = (
            "evaluated on substitutes: " + ", ".join(subs)
            + (f" ({', '.join(missing)}: declared missing, not evaluated)" if missing else ""))
    return out


def baseline_notes(cfg: dict) -> dict:
    """``{method -> reason}`` of :data:`BASELINE_NOTES` that apply under ``cfg``, for the
    report (a note is not a measurement, so it is no cause of a difference)."""
    out = {}
    for m, text in BASELINE_NOTES.items():
        keys = _NOTE_KEYS[m]
        if m not in cfg["methods"] or (keys and all(cfg[k] is None for k in keys)):
            continue
        out[m] = text.format(**{k: "all" if cfg[k] is None else cfg[k] for k in keys})
    return out


def _frame(x) -> pd.DataFrame:
    return pd.DataFrame() if x is None else x


def _by_trial(df: pd.DataFrame, keep) -> pd.DataFrame:
    return df[keep(df["trial"])] if len(df) and "trial" in df else df


def _same(a: float, b: float) -> bool:
    """Two 1.0 / 0.0 / NaN verdicts are the same (NaN: not tested, equals NaN)."""
    return bool((np.isnan(a) and np.isnan(b)) or a == b)


def _claims_on(raw, large, ablation, memory, rate, cfg, lemma, keep) -> dict:
    """``{claim -> 1.0 / 0.0 / NaN}`` of :func:`claims` on the trials ``keep`` selects
    (NaN: inconclusive or not tested on those trials)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = claims(_by_trial(raw, keep), _by_trial(large, keep), _by_trial(ablation, keep),
                   memory, rate, cfg, lemma)
    return {r.claim: _holds_value(r.verdict) for r in c.itertuples()}


def _with_accuracies(raw: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``raw`` whose accuracy of each (data set, trial, method) of ``rows`` is
    ``rows``' accuracy (the corrected runs; the other rows unchanged), and whose
    ``one_class`` flag is ``rows``' where ``rows`` has one (unknown, NaN, where it has
    none: the flag of the main run's fit says nothing of a fit at another step)."""
    out = raw.copy()
    idx = out.reset_index(drop=True).index
    out.index = idx
    corr = out["correction"] == "abs" if "correction" in out else pd.Series(True, index=idx)
    if "one_class" in out:
        out["one_class"] = out["one_class"].astype(object)
    has = "one_class" in rows.columns
    for r in rows.itertuples():
        hit = ((out["dataset"] == r.dataset) & (out["trial"] == r.trial)
               & (out["method"] == r.method) & corr)
        out.loc[hit, "accuracy"] = float(r.accuracy)
        if "one_class" in out or has:
            out.loc[hit, "one_class"] = r.one_class if has else np.nan
    return out


def _step_sensitivity(step, cell, sensitivity, raw, large, ablation, memory, cfg) -> list:
    """The ``tsgsu_eta0`` / ``cuu_eta0_mult`` rows of :func:`causes_evidence`'s ``sens``:
    the claims ``step`` on the trials of ``sensitivity``, at the selected steps (``raw``)
    and with every Table 4 accuracy of the parameter's methods at one step."""
    sv = sensitivity[sensitivity["dataset"].isin(list(cfg["table4_sets"]))]
    ts = sorted({int(t) for t in sv["trial"]})
    if not ts:
        return []
    on = (f"first {len(ts)} trials" if ts == list(range(len(ts)))
          else "trials " + ", ".join(map(str, ts)))

    def keep(s, ts=frozenset(ts)):
        return s.isin(ts)

    rows = []
    for parameter, g in sv.groupby("parameter", sort=False):
        key = STEP_PARAMETERS[str(parameter)][1]
        v = _claims_on(raw, large, ablation, memory, pd.DataFrame(), cfg, None, keep)
        rows += [{**cell(c), "value": v[c], "choice": f"{SELECTED_CHOICE} ({on})",
                  "parameter": str(parameter)} for c in step]
        for choice, gc in g.groupby("choice", sort=True):
            v = _claims_on(_with_accuracies(raw, gc), large, ablation, memory,
                           pd.DataFrame(), cfg, None, keep)
            rows += [{**cell(c), "value": v[c], "choice": f"{key}={float(choice):g} ({on})",
                      "parameter": str(parameter)} for c in step]
    return rows


def causes_evidence(cl: pd.DataFrame, cfg: dict, *, raw: pd.DataFrame | None = None,
                    large: pd.DataFrame | None = None, ablation: pd.DataFrame | None = None,
                    memory: pd.DataFrame | None = None, rate: pd.DataFrame | None = None,
                    lemma: pd.DataFrame | None = None,
                    sensitivity: pd.DataFrame | None = None) -> dict:
    """The keyword arguments of :func:`weaklabel.causes.assign_causes` for the comparison
    of :func:`comparison`, from results the stage computes (the main run and its
    sensitivity part, :func:`run_sensitivity`).

    Parameters
    ----------
    cl : DataFrame
        :func:`claims`, the claims table (common schema: ``claim, text, source, ...,
        verdict``); a claim is 1 when its verdict is ``holds``, 0 when ``does_not_hold``.
    cfg : dict
        The protocol (:func:`config`), the profile the results were computed with.
    raw, large, ablation, memory, rate, lemma : DataFrame, optional
        The inputs :func:`claims` was computed from; a missing one gives less evidence.
    sensitivity : DataFrame, optional
        :func:`run_sensitivity`: Table 4 accuracies of TSGSU, CUU(2000) and CUU(All) at each
        step of their grids on the first trials (needs ``raw``).

    Returns
    -------
    dict with the keys that have evidence, of:

    - ``spread``: for the claims of :data:`PER_TRIAL_CLAIMS`, the claim's 0/1 verdict on
      each trial alone (:func:`claims` on that trial's rows of ``raw``, ``large`` and
      ``ablation``), and for :data:`PER_REP_CLAIMS` the verdict on each repetition of the
      rate check; :func:`weaklabel.causes.spread_from_runs` over the trials (repetitions)
      where the verdict is defined (statistic ``single``: the paper states each claim once);
    - ``sens``: long form for :func:`weaklabel.causes.protocol_choice` (the trial count is
      spread, not a choice): claim 1b's verdict with each
      number of random features per iteration of the Lemma 1 check (parameter
      ``features_per_iteration``); and, from ``sensitivity``, the verdict of each claim of
      :data:`STEP_CLAIMS` on the trials the sensitivity ran, with every Table 4 accuracy of
      TSGSU (parameter ``tsgsu_eta0``), or of CUU(2000) and CUU(All) (``cuu_eta0_mult``),
      replaced by its accuracy at one step of the grid (choice ``eta0=<v>`` /
      ``eta0_mult=<v>``, the same step on every data set; a data set where the step is
      skipped, ``eta0 * lam >= 1``, keeps its selected step), beside the verdict at the
      selected steps (choice ``selected by CV``, the protocol's own; ``raw`` as it is).

    Notes
    -----
    The per-trial evidence of a claim is used only when :func:`claims` on all the trials of
    ``raw``, ``large`` and ``ablation`` gives the claim's own verdict in ``cl`` (the inputs
    are those the claim was computed from). A step that diverged leaves a NaN accuracy in
    the claim's inputs (that data set's cell not run at that step). The ``lam`` and kernel
    grids give no sensitivity: the selection (``selection.csv``) keeps only the chosen
    setting of each (data set, method) and no fit is made at the other ones.

    Raises
    ------
    TypeError
        An input that is not a DataFrame (``sensitivity`` included).
    ValueError
        ``cl`` or ``sensitivity`` lacking columns, a ``sensitivity`` parameter not in
        :data:`STEP_PARAMETERS`, bad ``trial_counts``, an undeclared claim.
    """
    from ..causes import choice_sensitivity, spread_from_runs
    _check_claims_frame(cl)
    for name, df in (("raw", raw), ("large", large), ("ablation", ablation),
                     ("memory", memory), ("rate", rate), ("lemma", lemma),
                     ("sensitivity", sensitivity)):
        if df is not None and not isinstance(df, pd.DataFrame):
            raise TypeError(f"{name} must be a DataFrame or None, got {type(df).__name__}.")
    if sensitivity is not None:
        need = [c for c in ("dataset", "trial", "method", "parameter", "choice", "accuracy")
                if c not in sensitivity.columns]
        if need:
            raise ValueError(f"sensitivity lacks columns {need}; pass the frame "
                             "run_sensitivity() returns.")
        bad = sorted(set(sensitivity["parameter"].astype(str)) - set(STEP_PARAMETERS))
        if bad:
            raise ValueError(f"sensitivity has unknown parameters {bad}; known: "
                             f"{sorted(STEP_PARAMETERS)}.")
    counts = cfg.get("sensitivity", {}).get("trial_counts", [])
    if any(int(n) != n or int(n) < 1 for n in counts):
        raise ValueError("cfg['sensitivity']['trial_counts'] must hold positive integers, "
                         f"got {counts!r}.")
    keys = {str(c.claim): _claim_key(c) for c in cl.itertuples()}
    holds = {str(c.claim): _holds_value(c.verdict) for c in cl.itertuples()}
    for c in keys:
        claim_sets(c, cfg)  # every claim declared
    out = {}
    large, ablation, memory, rate = map(_frame, (large, ablation, memory, rate))
    per_trial = [c for c in PER_TRIAL_CLAIMS if c in keys]
    frames = [df for df in (raw, large, ablation) if df is not None and len(df)
              and "trial" in df]
    trials = sorted({int(t) for df in frames for t in df["trial"].dropna()})
    if raw is None or not len(raw) or not trials:
        per_trial = []
    else:  # the mapping check: all trials together give the claim's own verdict
        v_all = _claims_on(raw, large, ablation, memory, pd.DataFrame(), cfg, None,
                           lambda s: s == s)
        per_trial = [c for c in per_trial if _same(v_all.get(c, np.nan), holds[c])]

    def cell(c):
        return dict(zip(["artifact", "row", "column"], keys[c]))

    # spread: the claim's verdict trial by trial (repetition by repetition)
    runs = []
    if per_trial:
        for t in trials:
            v = _claims_on(raw, large, ablation, memory, pd.DataFrame(), cfg, None,
                           lambda s, t=t: s == t)
            runs += [{**cell(c), "value": v[c], "run": t} for c in per_trial
                     if np.isfinite(v.get(c, np.nan))]
    per_rep = [c for c in PER_REP_CLAIMS if c in keys]
    if len(rate) and per_rep and {"rep", "correction"} <= set(rate.columns):
        thr = cfg["tolerances"]["rate_slope"]
        for rep, sub in rate.groupby("rep"):
            if sub.loc[sub["correction"] == "abs", "T"].nunique() >= 2:
                ok = float(rate_slope(sub, "abs") <= thr)
                runs += [{**cell(c), "value": ok, "run": int(rep)} for c in per_rep]
    if runs:
        out["spread"] = spread_from_runs(pd.DataFrame(runs), "value", run="run",
                                         statistic="single")

    # sens: the step sizes; claim 1b per number of random features
    sens = []
    step = [c for c in STEP_CLAIMS if c in per_trial]
    if step and sensitivity is not None and len(sensitivity):
        sens += _step_sensitivity(step, cell, sensitivity, raw, large, ablation, memory, cfg)
    if lemma is not None and len(lemma) and "1b" in keys:
        slopes = lemma1_slopes(lemma)
        if len(slopes) >= 2:
            sens += [{**cell("1b"), "value": float(s >= cfg["tolerances"]["lemma1_slope"]),
                      "choice": f"m={m}", "parameter": "features_per_iteration"}
                     for m, s in slopes.items()]
    if sens:
        s = pd.DataFrame(sens)
        out["sens"] = pd.concat([choice_sensitivity(g, "value", choice="choice", parameter=p)
                                 for p, g in s.groupby("parameter", sort=False)],
                                ignore_index=True)
    return out


# --------------------------------------------------------------------------- figures
COLORS = {"TSGSU": "C3", "CUU": "C0", "CUU(2000)": "C2", "SUSL(Linear)": "C7",
          "SUSL(Nonlinear)": "C1", "SUDH(Linear)": "C5", "SUDH(Nonlinear)": "C4"}


#: why a TSGSU figure has no published values to overlay (the digest of the paper)
NO_PUBLISHED = "no published numbers: the paper's source text has no figure or table contents"


def plot_curves(raw: pd.DataFrame, sets, title: str):
    """Test accuracy against training time (Figs 1, 2, 4): curves of the iterative methods
    (trial 0; TSGSU in the paper's algorithm), the other methods as points, and the
    majority-class accuracy (what a fit predicting one class reaches) as a dotted line. A
    fit that predicted one class for every test point (column ``one_class``) gets the grey
    hatched ring of :func:`weaklabel.plots.mark_one_class` on its final point. A data set
    without any fit (no substitute) gets no panel; the title names it. The paper's
    figures have no numbers to overlay (:data:`NO_PUBLISHED`): the title says so."""
    import matplotlib.pyplot as plt

    from .. import plots

    ran = set(raw.loc[raw["status"] == "ok", "dataset"]) if "status" in raw \
        else set(raw["dataset"])
    absent = [d for d in sets if d not in ran]
    sets = [d for d in sets if d in ran]
    n = max(1, len(sets))
    ncols = min(3, n)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(max(4.6 * ncols, 7.5),
                                                    3.6 * nrows + 0.5), squeeze=False)
    reason = ("the fit predicted one class for every test point (`one_class` of the run); "
              "its accuracy is that class's share of the test set")
    for ax, d in zip(axes.ravel(), sets):
        sub = raw[(raw["dataset"] == d) & (raw["trial"] == raw["trial"].min())]
        for r in sub.itertuples():
            if r.status != "ok":
                continue
            if isinstance(getattr(r, "curve_time", None), list):
                ax.plot(r.curve_time, 100 * np.asarray(r.curve_acc), marker=".", ms=3,
                        color=COLORS.get(r.method), label=r.method)
                x_end = r.curve_time[-1]
            else:
                ax.plot([r.seconds], [100 * r.accuracy], "s", ms=6,
                        color=COLORS.get(r.method), label=r.method)
                x_end = r.seconds
            if "one_class" in sub:
                oc = r.one_class
                plots.mark_one_class(ax, [x_end], [100 * r.accuracy],
                                     [bool(oc) if oc == oc and oc is not None else None],
                                     reason=reason)
        if "trivial" in sub and sub["trivial"].notna().any():
            ax.axhline(100 * float(sub["trivial"].dropna().iloc[0]), ls=":", lw=0.9,
                       color="k", label="majority class (one-class fit)")
        ax.set_xscale("log")
        ax.set_title(f"{d} ({substitute(d)})", fontsize=9)
        ax.set_xlabel("training time (s)")
        ax.set_ylabel("test accuracy (%)")
        lo = ax.get_ylim()[0]
        ax.set_ylim(max(0.0, lo), 100.0)
        ax.grid(alpha=0.3)
    for ax in axes.ravel()[len(sets):]:
        ax.axis("off")
    h, lab = plots.legend_handles(fig)
    ncol = max(1, min(3 if n == 1 else 5, len(lab)))
    fig.legend(h, lab, loc="lower center", ncol=ncol, fontsize=8, frameon=False)
    if absent:
        title += "\nnot run (no offline substitute): " + ", ".join(absent)
    fig.suptitle(title + f"\n{NO_PUBLISHED}", fontsize=10)
    rows_legend = int(np.ceil(len(lab) / ncol)) if ncol else 0
    height = fig.get_size_inches()[1]
    fig.tight_layout(rect=(0, (0.1 + 0.25 * rows_legend) / height, 1, 1))  # and the suptitle
    return fig


def plot_ablation(ablation: pd.DataFrame, cfg: dict):
    """Fig. 3: TSGSU with and without the correction, accuracy against iterations (mean
    over the ablation trials). A panel whose two runs give the same accuracy at every
    checkpoint in every trial (:func:`weaklabel.plots.identical_curves`) is marked
    ``identical curves`` (:func:`weaklabel.plots.mark_identical`), with the reason the runs
    record: no negative partial risk (``negative_risk_iters``) means the correction never
    acted."""
    import matplotlib.pyplot as plt

    from .. import plots

    sets = list(dict.fromkeys(ablation["dataset"]))
    fig, axes = plt.subplots(1, max(1, len(sets)), figsize=(4.6 * max(1, len(sets)), 3.9),
                             squeeze=False)
    for ax, d in zip(axes.ravel(), sets):
        runs = {}
        for corr, ls in (("abs", "-"), ("none", "--")):
            sub = ablation[(ablation["dataset"] == d) & (ablation["correction"] == corr)]
            if not len(sub):
                continue
            sub = sub.sort_values("trial") if "trial" in sub else sub
            runs[corr] = sub
            acc = 100 * np.mean(np.vstack(sub["curve_acc"].tolist()), axis=0)
            ax.plot(sub["curve_iter"].iloc[0], acc, ls, color="C3" if corr == "abs" else "C7",
                    label="absolute-value correction" if corr == "abs" else "no correction")
        ax.set_title(f"{d} ({substitute(d)})", fontsize=9)
        ax.set_xlabel("iteration")
        ax.set_ylabel("test accuracy (%)")
        ax.set_ylim(max(0.0, ax.get_ylim()[0]), 100.0)
        ax.grid(alpha=0.3)
        a = runs.get("abs")
        never = (a is not None and "negative_risk_iters" in a and len(a)
                 and a["negative_risk_iters"].notna().all()
                 and (a["negative_risk_iters"] == 0).all())
        if len(runs) == 2 and len(runs["abs"]) == len(runs["none"]):
            same = [plots.identical_curves(x, y) for x, y in
                    zip(runs["abs"]["curve_acc"], runs["none"]["curve_acc"])]
            if all(same):
                why = (f"{d}: the runs with and without the correction give the same test "
                       f"accuracy at every checkpoint in all {len(same)} trial(s)")
                if never:
                    why += (" -- no partial risk was ever negative in the corrected runs "
                            "(`negative_risk_iters` = 0), so the correction never acted")
                plots.mark_identical(ax, reason=why)
        ax.legend(*plots.legend_handles(ax), fontsize=8, loc="lower right")
    fig.suptitle(f"Fig. 3 analogue: TSGSU with and without the correction "
                 f"(n_U = {cfg['n_unlabelled']}, mean over {cfg['ablation_trials']} trials)"
                 f"\n{NO_PUBLISHED}", fontsize=10)
    fig.tight_layout()
    return fig


def plot_memory(memory: pd.DataFrame):
    """TSGSU's peak memory against n_U, beside the memory of the baselines' kernel
    matrices at the same size."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.2, 3.6))
    ax.plot(memory["n_unlabelled"], memory["peak_mb"], "o-", color="C3",
            label="TSGSU, peak traced memory (measured)")
    ax.plot(memory["n_unlabelled"], memory["data_mb"], "s--", color="C7",
            label="the training data itself")
    ax.plot(memory["n_unlabelled"], 1024 * memory["susl_all_gram_gb"], "^:", color="C1",
            label="SUSL/SUDH basis Gram matrix (8 n² bytes)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("unlabelled points n_U")
    ax.set_ylabel("memory (MB)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    ax.set_title("Memory against n_U (5000 pairs; ours, no paper figure)", fontsize=10)
    fig.tight_layout()
    return fig


def plot_rate(rate: pd.DataFrame):
    """The O(1/sqrt(T)) check: mean squared gradient norm against T, log-log, with the
    correction (the objective TSGSU minimises) and without (the convex SU risk)."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.6, 3.8))
    for corr, color, label in (("abs", "C3", "absolute-value correction"),
                               ("none", "C7", "no correction (convex)")):
        sub = rate[rate["correction"] == corr]
        g = sub.groupby("T")["mean_sq_grad"].agg(["mean", "std"])
        ax.errorbar(g.index, g["mean"], yerr=g["std"].fillna(0.0), fmt="o-", color=color,
                    ms=4, label=f"{label}: slope {rate_slope(rate, corr):.2f}")
    g = rate[rate["correction"] == "abs"].groupby("T")["mean_sq_grad"].mean()
    T = g.index.values.astype(float)
    ax.plot(T, g.iloc[0] * np.sqrt(T[0] / T), "k:", label="slope -1/2 (Theorem 1)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations T (constant step theta / sqrt(T))")
    ax.set_ylabel("(1/T) sum_t ||grad J(h_t)||²")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    ax.set_title("Theorem 1 check: exact-kernel iterates, synthetic SU data\n(ours, no paper "
                 "figure; the slope -1/2 is the theorem's rate)", fontsize=10)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- metrics
def metrics(raw, cl, xc, memory, *, runtime_seconds: float, profile: str) -> dict:
    """``metrics.json``: the claims block of :func:`weaklabel.claims.claims_metrics` (from
    the claims table ``cl``, the one source of every claim count), the worst solver gap,
    TSGSU's mean accuracy, and this run's readings (``peak_mb``, ``runtime_seconds``)."""
    from ..claims import claims_metrics
    return {
        "profile": profile,
        "claims": claims_metrics(cl),
        "crosscheck_worst_rel_gap": float(xc["rel_gap"].max()) if len(xc) else None,
        "tsgsu_mean_accuracy": float(raw[(raw["method"] == "TSGSU")
                                         & (raw["correction"] == "abs")]["accuracy"].mean()),
        # masked by the reproducibility check (weaklabel.reproducibility.VOLATILE)
        "peak_mb": float(memory["peak_mb"].max()) if len(memory) else None,
        "runtime_seconds": float(runtime_seconds),
    }
