"""The methods stage: "Which method should I use?" (issue 31).

Every method of the four papers against the methods a researcher would use instead, on the
papers' real data sets of the registry, with hyperparameters selected on the training split
alone from the weak labels, beside the oracle selection with the true labels.

Settings
--------
``PU``
    Labelled positives and unlabelled rows, ``fit(X, s)``. Methods: the package's
    DoubleHingePU (USMO), RampPU, MCLS, ILUISVM, NBBSVM, PNB, GaussianNBPU, uPU / nnPU
    (:mod:`weaklabel.models.pu`; kernel and linear models), the biased SVM, pulearn's
    Elkan-Noto (logistic) and bagging PU (SVCs) where pulearn is installed (else their rows
    say ``not run: pulearn not installable``). Lower bound: an SVC of labelled against
    unlabelled rows with equal costs (the labelled points alone are one class, so "a
    supervised model on the labelled points only" is this naive classifier); upper bound:
    an SVC fitted on the true labels of the training split.
``SSL``
    Labelled points of both classes and unlabelled rows, ``fit(X, y)`` with ``-1`` for an
    unlabelled row. Methods: WellSVM (both variants), TSVM, CCCPTSVM, LapSVM; scikit-learn's
    SelfTrainingClassifier (an SVC), LabelSpreading, LabelPropagation. Lower bound: the SVC
    of the labelled points (:class:`weaklabel.models.ssl.LabelledSVM`); upper bound: the SVC
    with every true label of the training split.
``SU``
    Similar pairs and unlabelled rows (:func:`weaklabel.data.su_split`), ``fit(X, s)``.
    Methods: TSGSU, SUSL, SUDH, CUU. Upper bound as above; no lower bound (SU data carry no
    class label, so there is no supervised model of "the labelled points").

Protocol (every number declared in ``params.yaml``, section ``methods``, before the run)
-------------------------------------------------------------------------------------------
* Data: per setting the registry sets ``<setting>.datasets``; features standardised with
  the training split's mean and standard deviation. Per (data set, level, split) a
  stratified train/test split (``test_size``) and, inside the training split, the weak
  labels: PU, the fraction ``level`` of the training positives labelled; SSL, ``level`` %
  of the training rows labelled (stratified, at least one per class); SU, ``level`` similar
  pairs per 100 training rows and 70 % of the remaining training rows unlabelled (the
  margin leaves room for :func:`weaklabel.data.su_split`'s binomial class counts; where a
  small set still lacks the rows of one class, 10 % fewer unlabelled rows per attempt, each
  attempt drawn from its own seeded stream).
* Grids: ``<setting>.grids`` gives each method its settings as equal-length lists (zipped,
  not crossed); every method with hyperparameters has exactly ``grid_size`` settings; a
  method without (``{}``) is fitted once. Gaussian kernels use the width ``"scale"``
  (scikit-learn's ``gamma="scale"``) for every method.
* Selection on the training split only, by ``n_folds``-fold cross-validation:
  PU, proxy accuracy (:func:`weaklabel.metrics.pu_proxy_accuracy` at the prior of the run),
  proxy AUC (:func:`weaklabel.metrics.pu_proxy_auc`), Lee & Liu's recall^2 / Pr[f = +1]
  (:func:`weaklabel.metrics.lee_liu_criterion`) and minus the unbiased PU zero-one risk
  (:func:`weaklabel.metrics.pu_unbiased_risk` at the prior of the run) of the held-out
  fold's ``(X, s)``, each a selection mode of its own;
  SSL, the accuracy on the held-out fold's labelled points (their labels hidden in the fit);
  SU, minus the SU zero-one risk (:func:`weaklabel.solvers.su.su_zero_one_risk`) of the
  held-out pairs and unlabelled rows. Oracle: the setting whose fit on the whole training
  split has the highest accuracy on the training split's unlabelled rows against their true
  labels (labels the user does not have; never the test rows). The chosen setting's fit on
  the whole training split is scored on the test rows.
* Prior (PU, SU): every run twice, with the true class prior and with the estimated one
  (PU: ``prior="estimate"`` of the estimators, Elkan & Noto's e1, and the same estimator on
  the training split for the proxy accuracy; SU:
  :func:`weaklabel.solvers.su.estimate_su_prior`).
* One-class predictions (every test row the same class) are flagged in ``one_class``.

Outputs: :func:`run` returns the raw records; :func:`summary_table`,
:func:`statistics`, :func:`win_tie_loss_table`, :func:`answer` and :func:`pareto_front`
turn them into the stage's tables and its answer in words.
"""

from __future__ import annotations

import copy
import time
import warnings

import numpy as np
import pandas as pd

from ..data import load
from ..executor import run_tasks

__all__ = ["DEFAULTS", "SETTINGS", "PULEARN_NOT_RUN", "analyse", "answer", "answer_markdown",
           "cd_figure", "check_params", "config", "metrics", "time_accuracy_figure",
           "pareto_front", "pulearn_available", "run", "run_task", "section", "statistics",
           "summary_table", "tasks", "win_tie_loss_table"]

SETTINGS = ("PU", "SSL", "SU")
PULEARN_NOT_RUN = "not run: pulearn not installable"
#: selection modes per setting: the weak-label criteria, then the oracle
SELECTIONS = {"PU": ("proxy_accuracy", "proxy_auc", "recall2", "pu_risk", "oracle"),
              "SSL": ("cv_labelled", "oracle"), "SU": ("su_risk", "oracle")}
#: the selection and prior of the answer in words: what a user without labels can do
USER_SELECTION = {"PU": "proxy_accuracy", "SSL": "cv_labelled", "SU": "su_risk"}
USER_PRIOR = {"PU": "estimated", "SSL": "none", "SU": "estimated"}
BOUNDS = ("Lower bound", "Upper bound")
#: fewer (data set, level) cells than this and the answer says the test has little power
FEW_CELLS = 11
PULEARN_METHODS = ("Elkan-Noto (pulearn)", "Bagging PU (pulearn)")

DEFAULTS = {"seed": 0, "settings": list(SETTINGS), "test_size": 0.25, "n_folds": 3,
            "n_splits": 10, "alpha": 0.05, "cd_alpha": 0.10, "grid_size": 4,
            "grid_limit": None}
_KEYS = ("datasets", "levels", "methods", "grids", "fixed")


def section(cfg: dict, setting: str) -> dict:
    """The keys ``<setting>_datasets``, ``_levels``, ``_methods``, ``_grids`` and ``_fixed``
    of ``cfg`` (flat, so that a profile overrides one of them), without the prefix, with
    every grid cut to its first ``grid_limit`` settings when that is set."""
    pre = setting.lower() + "_"
    sec = {k: cfg.get(pre + k) for k in _KEYS}
    sec["fixed"] = sec["fixed"] or {}
    lim = cfg.get("grid_limit")
    if lim is not None:
        sec["grids"] = {m: {k: list(v)[:int(lim)] for k, v in (g or {}).items()}
                        for m, g in (sec["grids"] or {}).items()}
    return sec


def config(params: dict | None = None) -> dict:
    """The stage's parameters: :data:`DEFAULTS` updated by ``params`` (the ``methods``
    section of ``params.yaml`` for a profile), checked by :func:`check_params`."""
    cfg = copy.deepcopy(DEFAULTS)
    cfg.update(copy.deepcopy(params or {}))
    check_params(cfg)
    return cfg


def check_params(cfg: dict) -> None:
    """Errors naming the parameter: unknown setting, a grid whose lists differ in length or
    whose size is not ``grid_size``, a method without a grid."""
    gs = int(cfg["grid_size"])
    unknown = [s for s in cfg["settings"] if s not in SETTINGS]
    if unknown:
        raise ValueError(f"settings: unknown {unknown}; known: {list(SETTINGS)}.")
    for setting in cfg["settings"]:
        pre = setting.lower() + "_"
        for key in _KEYS[:4]:
            if not cfg.get(pre + key):
                raise ValueError(f"methods: {pre + key} is missing or empty.")
        grids = cfg[pre + "grids"]
        for m in cfg[pre + "methods"]:
            if m not in grids:
                raise ValueError(f"{pre}grids has no entry for {m!r} (give {{}} for a "
                                 "method without hyperparameters).")
            g = grids[m] or {}
            sizes = {len(v) for v in g.values()}
            if g and sizes != {gs}:
                raise ValueError(
                    f"{pre}grids[{m!r}] has settings of sizes {sorted(sizes)}; every grid "
                    f"has grid_size={gs} settings (the same size for every method).")


def _settings(grid: dict) -> list[dict]:
    g = grid or {}
    if not g:
        return [{}]
    n = len(next(iter(g.values())))
    return [{k: v[i] for k, v in g.items()} for i in range(n)]


def pulearn_available() -> bool:
    """Whether ``import pulearn`` works (its methods are run only then)."""
    try:
        import pulearn  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- estimators
class _PulearnPU:
    """A pulearn classifier in the package's PU convention (``fit(X, s)``, +1 / -1)."""

    def __init__(self, kind: str, C: float, seed: int):
        self.kind, self.C, self.seed = kind, C, seed

    def fit(self, X, s):
        from pulearn import BaggingPuClassifier, ElkanotoPuClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.svm import SVC

        s = np.asarray(s).astype(int)
        if self.kind == "elkanoto":
            # pulearn draws its hold-out (20 % of all rows) at random and stops when it holds
            # no labelled positive, which small training folds often meet; each retry draws
            # another hold-out (at most 10, then the error stands and is recorded)
            for attempt in range(10):
                self.est_ = ElkanotoPuClassifier(LogisticRegression(C=self.C, max_iter=1000),
                                                 hold_out_ratio=0.2,
                                                 random_state=self.seed + 7919 * attempt)
                try:
                    self.est_.fit(X, s)
                    break
                except ValueError as exc:
                    if "No positive examples" not in str(exc) or attempt == 9:
                        raise
        else:  # Mordelet & Vert: each bag draws as many unlabelled rows as are labelled
            self.est_ = BaggingPuClassifier(SVC(C=self.C, gamma="scale"), n_estimators=10,
                                            max_samples=int(s.sum()),
                                            random_state=self.seed)
            self.est_.fit(X, s)
        return self

    def decision_function(self, X):
        p = np.asarray(self.est_.predict_proba(X))
        return p[:, -1] - 0.5

    def predict(self, X):
        return np.where(self.decision_function(X) >= 0, 1, -1)


class _SklearnSSL:
    """scikit-learn's semi-supervised classifiers in the package's SSL convention."""

    def __init__(self, kind: str, params: dict, seed: int):
        self.kind, self.params, self.seed = kind, params, seed

    def fit(self, X, y):
        from sklearn.semi_supervised import (
            LabelPropagation,
            LabelSpreading,
            SelfTrainingClassifier,
        )
        from sklearn.svm import SVC

        gamma = 1.0 / (X.shape[1] * X.var()) if X.var() > 0 else 1.0
        if self.kind == "self_training":
            self.est_ = SelfTrainingClassifier(
                SVC(C=self.params["C"], gamma="scale", probability=True,
                    random_state=self.seed))
        elif self.kind == "spreading":
            self.est_ = LabelSpreading(kernel="rbf", gamma=gamma, alpha=self.params["alpha"],
                                       max_iter=1000)
        else:
            self.est_ = LabelPropagation(kernel="rbf", gamma=gamma * self.params["gamma_mult"],
                                         max_iter=1000)
        self.est_.fit(X, y)
        return self

    def decision_function(self, X):
        return np.asarray(self.est_.predict_proba(X))[:, 1] - 0.5

    def predict(self, X):
        return (self.decision_function(X) >= 0).astype(int)


class _SVCUpper:
    """An SVC (Gaussian, ``gamma="scale"``) on true labels: the upper bound."""

    def __init__(self, C: float):
        self.C = C

    def fit(self, X, y):
        from sklearn.svm import SVC

        self.est_ = SVC(C=self.C, gamma="scale").fit(X, y)
        return self

    def decision_function(self, X):
        return self.est_.decision_function(X)

    def predict(self, X):
        return self.est_.predict(X)


def make_estimator(setting: str, method: str, params: dict, prior, seed: int):
    """The estimator of ``method`` at one grid setting; ``prior`` is the class prior the
    method is given (``"estimate"``, a float, or for PU a pair ``(share of the unlabelled
    rows, share of all rows)`` of which each method takes the one its ``prior`` means)."""
    from ..models import mcls as mc
    from ..models import pu as pum
    from ..models import ssl, su
    from ..models import usmo as us
    from ..models.wellsvm import WellSVM

    p = dict(params)
    if setting == "PU":
        pu_u, pu_all = (prior, prior) if isinstance(prior, str) else prior
        gk = {"kernel": "gaussian", "sigma": "scale"}
        table = {
            "DoubleHingePU": lambda: us.DoubleHingePU(prior=pu_u, random_state=seed, **gk, **p),
            "RampPU": lambda: us.RampPU(prior=pu_u, **gk, **p),
            "MCLS": lambda: mc.MCLS(prior=pu_all, random_state=seed, **p),
            "ILUISVM": lambda: mc.ILUISVM(prior=pu_all, random_state=seed, **p),
            "NBBSVM": lambda: mc.NBBSVM(**p),
            "PNB": lambda: mc.PNB(prior=pu_all, **p),
            "GaussianNBPU": lambda: mc.GaussianNBPU(**p),
            "uPU (kernel)": lambda: pum.UPU(prior=pu_u, random_state=seed, **gk, **p),
            "nnPU (kernel)": lambda: pum.NNPU(prior=pu_u, random_state=seed, **gk, **p),
            "nnPU (linear)": lambda: pum.NNPU(prior=pu_u, kernel="linear", **p),
            "Biased SVM": lambda: pum.BiasedSVM(**p),
            "Elkan-Noto (pulearn)": lambda: _PulearnPU("elkanoto", p["C"], seed),
            "Bagging PU (pulearn)": lambda: _PulearnPU("bagging", p["C"], seed),
            "Lower bound": lambda: pum.BiasedSVM(pos_weight=1.0, **p),
            "Upper bound": lambda: _SVCUpper(**p),
        }
    elif setting == "SSL":
        gk = {"kernel": "gaussian", "sigma": "scale"}
        table = {
            "WellSVM": lambda: WellSVM(variant="paper", random_state=seed, **gk, **p),
            "WellSVM (code)": lambda: WellSVM(variant="reference", random_state=seed, **gk,
                                              **p),
            "TSVM": lambda: ssl.TSVM(**gk, **p),
            "CCCPTSVM": lambda: ssl.CCCPTSVM(**gk, **p),
            "LapSVM": lambda: ssl.LapSVM(**gk, **p),
            "SelfTraining (sklearn)": lambda: _SklearnSSL("self_training", p, seed),
            "LabelSpreading (sklearn)": lambda: _SklearnSSL("spreading", p, seed),
            "LabelPropagation (sklearn)": lambda: _SklearnSSL("propagation", p, seed),
            "Lower bound": lambda: ssl.LabelledSVM(**gk, **p),
            "Upper bound": lambda: _SVCUpper(**p),
        }
    else:
        gk = {"kernel": "gaussian", "sigma": "scale"}
        table = {
            "TSGSU": lambda: su.TSGSU(prior=prior, random_state=seed, **gk, **p),
            "SUSL": lambda: su.SUSL(prior=prior, random_state=seed, **gk, **p),
            "SUDH": lambda: su.SUDH(prior=prior, random_state=seed, **gk, **p),
            "CUU": lambda: su.CUU(prior=prior, random_state=seed, **gk, **p),
            "Upper bound": lambda: _SVCUpper(**p),
        }
    if method not in table:
        raise ValueError(f"method must be one of {sorted(table)} for {setting}, got "
                         f"{method!r}.")
    est = table[method]()
    # every estimator that draws random numbers draws them from the split's seed (a
    # random_state left at None would make two runs of the stage differ)
    if hasattr(est, "get_params") and "random_state" in est.get_params(deep=False):
        est.set_params(random_state=seed)
    return est


# --------------------------------------------------------------------------- data
def _standardise(Xtr, Xte):
    mu, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    return (Xtr - mu) / sd, (Xte - mu) / sd


def _load(name: str):
    ds = load(name)
    X = np.asarray(ds.X.toarray() if hasattr(ds.X, "toarray") else ds.X, dtype=np.float64)
    return X, np.where(np.asarray(ds.y) > 0, 1, -1)


def make_split(setting: str, name: str, level, split: int, cfg: dict) -> dict:
    """One (data set, level, split): standardised ``Xtr, Xte``, true labels ``ytr, yte``
    (+1 / -1) and the weak target ``weak`` of the setting, and ``rows_u`` (the training
    rows whose label the methods do not see)."""
    from sklearn.model_selection import train_test_split

    X, y = _load(name)
    seed = int(cfg["seed"]) + 1000 * split + 7 * SETTINGS.index(setting)
    rng = np.random.default_rng(seed)
    tr, te = train_test_split(np.arange(y.size), test_size=float(cfg["test_size"]),
                              stratify=y, random_state=int(rng.integers(2**31 - 1)))
    tr, te = np.sort(tr), np.sort(te)
    ytr = y[tr]
    if setting == "PU":
        pos = np.flatnonzero(ytr > 0)
        k = max(2, int(round(float(level) * pos.size)))
        lab = rng.choice(pos, k, replace=False)
        weak = np.zeros(tr.size, dtype=int)
        weak[lab] = 1
        order = np.arange(tr.size)
    elif setting == "SSL":
        n_lab = max(2, int(round(float(level) / 100.0 * tr.size)))
        weak = np.full(tr.size, -1)
        n1 = int(np.clip(round(n_lab * np.mean(ytr > 0)), 1, np.sum(ytr > 0) - 1))
        n0 = max(1, n_lab - n1)
        for c, kk in ((1, n1), (-1, n0)):
            idx = rng.choice(np.flatnonzero(ytr == c), kk, replace=False)
            weak[idx] = int(c > 0)
        order = np.arange(tr.size)
    else:
        from ..data import su_split

        n_pairs = max(2, int(round(float(level) / 100.0 * tr.size)))
        n_u = int(0.7 * (tr.size - 2 * n_pairs))  # room for su_split's binomial draws
        sp = None
        for attempt in range(20):
            # a small set can lack the rows of one class that the binomial draws ask for:
            # fewer unlabelled rows (10 % fewer per attempt), each attempt its own stream
            try:
                sp = su_split(ytr, n_pairs=n_pairs, n_unlabelled=n_u, n_test=0,
                              random_state=np.random.default_rng([seed, attempt]))
                break
            except ValueError:
                n_u = int(0.9 * n_u)
        if sp is None:
            raise ValueError(f"{name}: no SU split with {n_pairs} pairs and at least "
                             f"{n_u} unlabelled rows after 20 attempts.")
        order = np.r_[sp.similar, sp.unlabelled]
        weak = np.r_[np.ones(sp.similar.size, dtype=int), np.zeros(sp.unlabelled.size,
                                                                    dtype=int)]
    Xtr, Xte = _standardise(X[tr][order], X[te])
    return {"Xtr": Xtr, "Xte": Xte, "ytr": ytr[order], "yte": y[te], "weak": weak,
            "rows_u": (weak == 0) if setting != "SSL" else (weak == -1)}


# --------------------------------------------------------------------------- one task
def _folds(setting: str, weak, k: int, rng):
    """Held-out index sets of the ``k`` folds on the training split (weak labels only)."""
    from sklearn.model_selection import StratifiedKFold

    n = weak.size
    if setting == "SSL":
        lab = np.flatnonzero(weak >= 0)
        ylab = weak[lab]
        kk = min(k, int(np.min(np.bincount(ylab, minlength=2))))
        if kk < 2:
            return []
        skf = StratifiedKFold(kk, shuffle=True, random_state=int(rng.integers(2**31 - 1)))
        return [lab[v] for _, v in skf.split(lab, ylab)]
    if setting == "SU":  # pairs stay whole: fold the pairs and the unlabelled rows
        n_s = int(weak.sum())
        pairs = rng.permutation(n_s // 2)
        unl = rng.permutation(np.arange(n_s, n))
        out = []
        for i in range(k):
            ps = pairs[i::k]
            out.append(np.sort(np.r_[2 * ps, 2 * ps + 1, unl[i::k]]))
        return out
    skf = StratifiedKFold(k, shuffle=True, random_state=int(rng.integers(2**31 - 1)))
    return [v for _, v in skf.split(np.zeros(n), weak)]


def _weak_for_fit(setting: str, method: str, d: dict, rows):
    """Target of a fit on training rows ``rows``: the weak labels, the true ones for the
    upper bound."""
    if method == "Upper bound":
        return d["ytr"][rows]
    return d["weak"][rows]


def _criteria(setting, est, X, weak, prior_sel):
    """Weak-label criteria of a fitted estimator on held-out training rows (higher is
    better)."""
    from ..metrics import (
        lee_liu_criterion,
        pu_proxy_accuracy,
        pu_proxy_auc,
        pu_unbiased_risk,
    )

    f = np.asarray(est.decision_function(X), dtype=float)
    if setting == "PU":
        if weak.min() == weak.max():
            return {}
        return {"proxy_accuracy": pu_proxy_accuracy(weak, f >= 0, prior_sel),
                "proxy_auc": pu_proxy_auc(weak, f),
                "recall2": lee_liu_criterion(weak, f >= 0),
                "pu_risk": -pu_unbiased_risk(weak, f, prior_sel)}
    if setting == "SSL":
        return {"cv_labelled": float(np.mean((f >= 0).astype(int) == weak))}
    from ..solvers.su import su_zero_one_risk

    s = weak.astype(bool)
    if s.all() or (~s).all():
        return {}
    return {"su_risk": -su_zero_one_risk(f[s], f[~s], prior_sel)}


def _fit(setting, method, params, prior, seed, X, t, fixed=None):
    est = make_estimator(setting, method, {**(fixed or {}), **params}, prior, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        est.fit(X, t)
        return est, time.perf_counter() - t0


def _ssl_fit_target(t, method):
    """The package / scikit-learn SSL target: classes 0/1, -1 unlabelled (the upper bound's
    true labels as 0/1)."""
    if method == "Upper bound":
        return (t > 0).astype(int)
    return t


def run_task(setting: str, name: str, level, split: int, cfg: dict) -> list[dict]:
    """Every method, prior mode and selection of one (setting, data set, level, split)."""
    d = make_split(setting, name, level, split, cfg)
    sec = section(cfg, setting)
    rng = np.random.default_rng(int(cfg["seed"]) + 31 * split + 1)
    folds = _folds(setting, d["weak"], int(cfg["n_folds"]), rng)
    n = d["weak"].size
    ytr, weak = d["ytr"], d["weak"]
    base = {"setting": setting, "dataset": name, "level": level, "split": split}
    # the class priors of this split
    if setting == "PU":
        u = weak == 0
        true_u = float(np.mean(ytr[u] > 0))
        true_all = float(np.mean(ytr > 0))
        from ..prior import estimate_prior

        est_u = float(estimate_prior(d["Xtr"], weak, random_state=split).prior)
        modes = {"true": ((true_u, true_all), true_u), "estimated": ("estimate", est_u)}
        priors = {"true": true_u, "estimated": est_u}
    elif setting == "SU":
        from ..solvers.su import estimate_su_prior

        s = weak.astype(bool)
        true_p = float(np.mean(ytr > 0))
        try:
            # SU data identify the prior up to pi <-> 1 - pi: the side of 0.5 is taken as
            # known (which class is the minority), the value estimated
            est_p = float(estimate_su_prior(d["Xtr"][s], d["Xtr"][~s],
                                            positive_is_minority=true_p < 0.5,
                                            random_state=split).prior)
        except Exception:  # noqa: BLE001 - recorded, the run goes on with the true prior
            est_p = float("nan")
        modes = {"true": (true_p, true_p)}
        if np.isfinite(est_p) and abs(est_p - 0.5) > 1e-3:
            modes["estimated"] = (est_p, est_p)
        priors = {"true": true_p, "estimated": est_p}
    else:
        modes = {"none": (None, None)}
        priors = {"none": float("nan")}
    have_pulearn = pulearn_available()
    records = []
    for mode, (prior_fit, prior_sel) in modes.items():
        for method in sec["methods"]:
            rec0 = {**base, "prior_mode": mode, "method": method,
                    "prior_used": priors[mode], "prior_true": priors.get("true", np.nan),
                    "prior_estimated": priors.get("estimated", np.nan)}
            if method in PULEARN_METHODS and not have_pulearn:
                records += [{**rec0, "selection": sel, "status": PULEARN_NOT_RUN}
                            for sel in SELECTIONS[setting]]
                continue
            grid = _settings(sec["grids"][method])
            fixed = dict(sec["fixed"].get(method) or {})
            pf = prior_fit
            try:
                cv = {sel: np.zeros(len(grid)) for sel in SELECTIONS[setting][:-1]}
                for fold in folds:
                    keep = np.ones(n, dtype=bool)
                    keep[fold] = False
                    for gi, params in enumerate(grid):
                        if setting == "SSL":
                            t = weak.copy()
                            t[fold] = -1
                            if method == "Upper bound":
                                t = (ytr > 0).astype(int)
                                t[fold] = -1  # unused rows: fit on the others
                                rows = keep
                                est, _ = _fit(setting, method, params, pf, split,
                                              d["Xtr"][rows], t[rows], fixed)
                            else:
                                est, _ = _fit(setting, method, params, pf, split,
                                              d["Xtr"], t, fixed)
                            held = weak[fold]
                        else:
                            est, _ = _fit(setting, method, params, pf, split, d["Xtr"][keep],
                                          _weak_for_fit(setting, method, d, keep), fixed)
                            held = weak[fold]
                        for k, v in _criteria(setting, est, d["Xtr"][fold], held,
                                              prior_sel).items():
                            cv[k][gi] += v / max(len(folds), 1)
                full = []
                for params in grid:
                    t = _weak_for_fit(setting, method, d, np.ones(n, dtype=bool))
                    if setting == "SSL":
                        t = _ssl_fit_target(t, method)
                    est, sec_fit = _fit(setting, method, params, pf, split, d["Xtr"], t,
                                        fixed)
                    f_te = np.asarray(est.decision_function(d["Xte"]), dtype=float)
                    f_u = np.asarray(est.decision_function(d["Xtr"][d["rows_u"]]),
                                     dtype=float)
                    full.append({"test_accuracy": float(np.mean(np.where(f_te >= 0, 1, -1)
                                                                == d["yte"])),
                                 "oracle": float(np.mean(np.where(f_u >= 0, 1, -1)
                                                         == ytr[d["rows_u"]])),
                                 "one_class": bool(np.all(f_te >= 0) or np.all(f_te < 0)),
                                 "fit_seconds": sec_fit,
                                 "prior_fit": float(getattr(est, "prior_", np.nan))})
                for sel in SELECTIONS[setting]:
                    if sel == "oracle":
                        scores = np.array([r["oracle"] for r in full])
                    elif folds:
                        scores = cv[sel]
                    else:  # no fold possible (too few labelled points): first setting
                        scores = np.zeros(len(grid))
                    gi = int(np.argmax(scores))
                    records.append({**rec0, "selection": sel, "status": "ok",
                                    "setting_index": gi, "params": repr(grid[gi]),
                                    "criterion": float(scores[gi]), **full[gi]})
            except Exception as exc:  # noqa: BLE001 - a failing method is a result, recorded
                records += [{**rec0, "selection": sel,
                             "status": f"error: {type(exc).__name__}: {str(exc)[:200]}"}
                            for sel in SELECTIONS[setting]]
    return records


def tasks(cfg: dict) -> list[dict]:
    """One task per (setting, data set, level, split) of the profile."""
    out = []
    for setting in cfg["settings"]:
        sec = section(cfg, setting)
        n_splits = int(cfg["n_splits"])
        for name in sec["datasets"]:
            for level in sec["levels"]:
                for split in range(n_splits):
                    out.append({"setting": setting, "name": name, "level": level,
                                "split": split})
    return out


def run(cfg: dict, *, executor=None, progress: bool = True) -> pd.DataFrame:
    """The raw records of every task (one row per setting, data set, level, split, prior
    mode, method and selection)."""
    res = run_tasks(run_task, tasks(cfg), executor=executor, kwargs={"cfg": cfg},
                    desc="methods", progress=progress)
    return pd.DataFrame([r for rr in res for r in rr])


# --------------------------------------------------------------------------- analysis
def _ok(raw: pd.DataFrame) -> pd.DataFrame:
    return raw[raw.status == "ok"]


def summary_table(raw: pd.DataFrame, setting: str, selection: str, prior_mode: str
                  ) -> pd.DataFrame:
    """Mean ± std of the test accuracy over splits, one row per (data set, level), one
    column per method; a method not run carries its status; ``*`` marks a cell with a
    one-class prediction in at least one split."""
    sub = raw[(raw.setting == setting) & (raw.selection == selection)
              & (raw.prior_mode == prior_mode)]
    rows = {}
    for (ds, lvl, m), g in sub.groupby(["dataset", "level", "method"], sort=False):
        ok = g[g.status == "ok"]
        if ok.empty:
            cell = g.status.iloc[0]
        else:
            a = ok.test_accuracy.to_numpy()
            star = "*" if ok.one_class.astype(bool).any() else ""
            cell = f"{a.mean():.3f} ± {a.std(ddof=1) if a.size > 1 else 0.0:.3f}{star}"
            if len(ok) < len(g):
                cell += f" ({len(ok)}/{len(g)} splits)"
        rows.setdefault((ds, lvl), {})[m] = cell
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.names = ["dataset", "level"]
    return out


def _means(raw, setting, selection, prior_mode, exclude=("Upper bound",)):
    """(data set, level) x method means of the test accuracy; methods with a missing cell
    dropped (returned as the second value)."""
    sub = _ok(raw[(raw.setting == setting) & (raw.selection == selection)
                  & (raw.prior_mode == prior_mode) & ~raw.method.isin(exclude)])
    M = sub.pivot_table(index=["dataset", "level"], columns="method",
                        values="test_accuracy", aggfunc="mean")
    full = sub.groupby(["dataset", "level", "method"]).size().unstack()
    n_splits = sub.groupby(["dataset", "level"]).split.nunique()
    incomplete = [m for m in M.columns if M[m].isna().any()
                  or (full[m].reindex(M.index) < n_splits.reindex(M.index)).any()]
    return M.drop(columns=incomplete), incomplete


def statistics(raw: pd.DataFrame, setting: str, selection: str, prior_mode: str,
               cfg: dict) -> dict:
    """Average ranks, the Friedman test and the Bonferroni-Dunn critical difference (the
    best-ranked method as control) over the (data set, level) cells."""
    from ..stats import average_ranks, bonferroni_dunn_cd, friedman_test

    M, dropped = _means(raw, setting, selection, prior_mode)
    out = {"means": M, "dropped": dropped, "n_cells": int(len(M)), "ranks": None,
           "friedman": None, "cd": float("nan")}
    if M.shape[1] < 2 or len(M) < 2:
        return out
    out["ranks"] = average_ranks(M).sort_values()
    out["friedman"] = friedman_test(M)
    out["cd"] = float(bonferroni_dunn_cd(M.shape[1], len(M), alpha=float(cfg["cd_alpha"])))
    return out


def win_tie_loss_table(raw: pd.DataFrame, setting: str, selection: str, prior_mode: str,
                       reference: str, alpha: float = 0.05) -> pd.DataFrame:
    """Win / tie / loss of every method against ``reference`` over the (data set, level)
    cells, by a paired t-test over the splits (:func:`weaklabel.stats.win_tie_loss`)."""
    from ..stats import win_tie_loss

    sub = _ok(raw[(raw.setting == setting) & (raw.selection == selection)
                  & (raw.prior_mode == prior_mode)])
    cells = sub.groupby(["dataset", "level"])
    rows = []
    for m in sub.method.unique():
        if m == reference:
            continue
        a_runs, b_runs = [], []
        for _, g in cells:
            a = g[g.method == m].set_index("split").test_accuracy
            b = g[g.method == reference].set_index("split").test_accuracy
            common = a.index.intersection(b.index)
            if len(common) >= 2:
                a_runs.append(a[common].to_numpy())
                b_runs.append(b[common].to_numpy())
        if not a_runs:
            continue
        w = win_tie_loss(a_runs, b_runs, alpha=alpha)
        rows.append({"method": m, "against": reference, "win": w.win, "tie": w.tie,
                     "loss": w.loss})
    return pd.DataFrame(rows)


def pareto_front(times, scores) -> np.ndarray:
    """Boolean mask of the points no other point beats on both axes (lower time, higher
    score; a point equal on one axis and better on the other dominates)."""
    t = np.asarray(times, dtype=float)
    s = np.asarray(scores, dtype=float)
    if t.shape != s.shape:
        raise ValueError(f"times and scores must have the same shape, got {t.shape} and "
                         f"{s.shape}.")
    keep = np.ones(t.size, dtype=bool)
    for i in range(t.size):
        dom = (t <= t[i]) & (s >= s[i]) & ((t < t[i]) | (s > s[i]))
        keep[i] = not dom.any()
    return keep


def time_accuracy(raw: pd.DataFrame, setting: str, selection: str, prior_mode: str
                  ) -> pd.DataFrame:
    """Per method: mean test accuracy, median fit seconds (of the selected setting's fit on
    the whole training split), share of one-class runs, and whether it is on the Pareto
    front of the methods a user can run (the upper bound is not on it)."""
    sub = _ok(raw[(raw.setting == setting) & (raw.selection == selection)
                  & (raw.prior_mode == prior_mode)])
    g = sub.groupby("method").agg(accuracy=("test_accuracy", "mean"),
                                  fit_seconds=("fit_seconds", "median"),
                                  one_class_share=("one_class", "mean"),
                                  runs=("test_accuracy", "size")).reset_index()
    # the front of what a user can run: the upper bound (every true label) is left out
    g["pareto"] = False
    user = g.method != "Upper bound"
    if user.any():
        g.loc[user, "pareto"] = pareto_front(g.fit_seconds[user], g.accuracy[user])
    return g


def answer(stats_: dict, timing: pd.DataFrame, setting: str, alpha: float) -> dict:
    """The answer in words from the numbers: the methods whose average rank is within the
    critical difference of the best (Bonferroni-Dunn, the best as control) when the
    Friedman test rejects equal ranks at ``alpha``, else every ranked method; and the
    fastest of them (median fit time). The text holds no time: ``results/`` must be the same
    in two runs (:mod:`weaklabel.reproducibility`), and the times are only in columns that
    comparison masks; the name of the fastest comes from measured times, so two methods
    whose times are close may swap between runs."""
    ranks = stats_.get("ranks")
    if ranks is None or len(ranks) < 2:
        return {"setting": setting, "text": f"{setting}: too few complete methods or "
                "cells to rank.", "best": None, "indistinguishable": [], "fastest": None}
    best = ranks.index[0]
    fr = stats_["friedman"]
    if fr.pvalue < alpha:
        tied = [m for m in ranks.index if ranks[m] - ranks[best] <= stats_["cd"]]
        how = (f"the Friedman test rejects equal ranks (p = {fr.pvalue:.2g}); within the "
               f"critical difference {stats_['cd']:.2f} of the best average rank")
    else:
        tied = list(ranks.index)
        how = (f"the Friedman test does not reject equal ranks (p = {fr.pvalue:.2g}), so "
               "no ranked method is distinguishable from the best")
    t = timing.set_index("method").fit_seconds.reindex(tied)
    fastest = t.idxmin() if t.notna().any() else None
    text = (f"{setting} ({stats_['n_cells']} data set x level cells, {len(ranks)} methods): "
            f"best average rank {best} ({ranks[best]:.2f}); {how}: "
            f"{', '.join(tied)}. Fastest of them (median fit time, in "
            f"`time_accuracy.csv`): {fastest}.")
    if stats_["n_cells"] < FEW_CELLS:
        text += (f" Only {stats_['n_cells']} cells (Demsar 2006 asks for more than "
                 f"{FEW_CELLS - 1} for the Friedman test's chi-square approximation): the test "
                 "separates few methods here, and methods not separated may still differ.")
    if stats_["dropped"]:
        text += f" Not ranked (missing cells): {', '.join(stats_['dropped'])}."
    return {"setting": setting, "text": text, "best": best, "indistinguishable": tied,
            "fastest": fastest}


# --------------------------------------------------------------------------- figures
def cd_figure(stats_: dict, title: str):
    """Critical-difference diagram (Demsar 2006): the average ranks on one axis (1 = best,
    left) and a bar of length CD from the best rank; methods within it are not
    distinguishable from the best by the Bonferroni-Dunn test."""
    import matplotlib.pyplot as plt

    ranks = stats_["ranks"]
    if ranks is None:  # fewer than 2 cells or methods: nothing to rank, said in the figure
        fig, ax = plt.subplots(figsize=(7.5, 1.6))
        ax.axis("off")
        ax.text(0.5, 0.5, f"{title}\nnot ranked: {stats_['n_cells']} (data set, level) "
                f"cell(s) and {stats_['means'].shape[1]} complete method(s); ranks need at "
                "least 2 of each", ha="center", va="center", fontsize=9)
        return fig
    fig, ax = plt.subplots(figsize=(7.5, 0.35 * len(ranks) + 1.4))
    k = len(ranks)
    y = np.arange(k)[::-1]
    ax.scatter(ranks.to_numpy(), y, color="k", zorder=3)
    for yi, (m, r) in zip(y, ranks.items()):
        ax.annotate(f"{m} ({r:.2f})", (r, yi), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=8)
    cd = stats_["cd"]
    best = float(ranks.iloc[0])
    ax.axvspan(best, best + cd, color="tab:blue", alpha=0.15,
               label=f"within CD = {cd:.2f} of the best")
    ax.set_xlim(0.5, k + 0.5 + 2.5)
    ax.set_ylim(-0.7, k - 0.3)
    ax.set_yticks([])
    ax.set_xlabel("average rank over (data set, level) cells (1 = best)")
    fr = stats_["friedman"]
    ax.set_title(f"{title}\nFriedman p = {fr.pvalue:.2g}, {stats_['n_cells']} cells",
                 fontsize=9)
    # the top row is the best (leftmost) rank, so the upper right corner holds no label
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    return fig


def time_accuracy_figure(timing: pd.DataFrame, title: str):
    """Mean test accuracy against the median fit time (log scale) per method, the Pareto
    front of the methods a user can run (not the upper bound) as a line; a method with
    one-class predictions in any run drawn as a cross."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    g = timing.sort_values("fit_seconds")
    one = g.one_class_share > 0
    ax.scatter(g.fit_seconds[~one], g.accuracy[~one], color="tab:blue", zorder=3)
    if one.any():
        ax.scatter(g.fit_seconds[one], g.accuracy[one], color="tab:red", marker="x",
                   zorder=3, label="one-class predictions in some runs")
    front = g[g.pareto.astype(bool)]
    ax.plot(front.fit_seconds, front.accuracy, color="tab:green", lw=1,
            label="Pareto front (without the upper bound)")
    for _, r in g.iterrows():
        ax.annotate(r["method"], (r.fit_seconds, r.accuracy), xytext=(4, 3),
                    textcoords="offset points", fontsize=7)
    from .. import plots

    ax.set_xscale("log")
    plots.log_axis(ax, "x")
    ax.set_xlabel("median fit time of the selected setting (s)")
    ax.set_ylabel("mean test accuracy")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- outputs
def analyse(raw: pd.DataFrame, cfg: dict) -> dict:
    """Every table of the stage from the raw records: ``tables`` (long: one row per setting,
    selection, prior mode, data set, level and method, the mean ± std cell),
    ``statistics`` (average ranks, Friedman p, CD), ``win_tie_loss`` (against the best
    average rank of the user's combination), ``time_accuracy``, ``selection_gap`` (oracle
    minus weak selection, mean test accuracy per method) and ``answers`` (per setting, from
    :func:`answer` on the user's combination: weak selection, estimated prior)."""
    tables, stats_rows, wtl, timing_rows, gaps, answers, per = [], [], [], [], [], {}, {}
    alpha = float(cfg["alpha"])
    for setting in cfg["settings"]:
        sub = raw[raw.setting == setting]
        if sub.empty:
            continue
        for (sel, mode), _ in sub.groupby(["selection", "prior_mode"]):
            tab = summary_table(raw, setting, sel, mode).stack().rename("cell").reset_index()
            tables.append(tab.rename(columns={"level_2": "method"}).assign(
                setting=setting, selection=sel, prior_mode=mode))
            st = statistics(raw, setting, sel, mode, cfg)
            if st["ranks"] is not None:
                for m, r in st["ranks"].items():
                    stats_rows.append({"setting": setting, "selection": sel,
                                       "prior_mode": mode, "method": m, "avg_rank": r,
                                       "friedman_p": st["friedman"].pvalue, "cd": st["cd"],
                                       "n_cells": st["n_cells"]})
            tm = time_accuracy(raw, setting, sel, mode)
            timing_rows.append(tm.assign(setting=setting, selection=sel, prior_mode=mode))
            per[(setting, sel, mode)] = (st, tm)
        user = (setting, USER_SELECTION[setting], USER_PRIOR[setting])
        if user in per:
            st, tm = per[user]
            answers[setting] = answer(st, tm, setting, alpha)
            if answers[setting]["best"] is not None:
                wtl.append(win_tie_loss_table(raw, *user, answers[setting]["best"],
                                              alpha).assign(setting=setting,
                                                            selection=user[1],
                                                            prior_mode=user[2]))
        ok = _ok(sub)
        m = ok.groupby(["prior_mode", "method", "selection"]).test_accuracy.mean().unstack()
        for sel in SELECTIONS[setting][:-1]:
            if sel in m and "oracle" in m:
                gaps.append((m["oracle"] - m[sel]).rename("oracle_minus_weak").reset_index()
                            .assign(setting=setting, selection=sel,
                                    weak=m[sel].to_numpy(), oracle=m["oracle"].to_numpy()))
    cat = (lambda fr: pd.concat(fr, ignore_index=True) if fr else pd.DataFrame())
    return {"tables": cat(tables), "statistics": pd.DataFrame(stats_rows),
            "win_tie_loss": cat(wtl), "time_accuracy": cat(timing_rows),
            "selection_gap": cat(gaps), "answers": answers, "per": per}


def answer_markdown(answers: dict, cfg: dict) -> str:
    """The "Which method should I use?" section, generated from the numbers."""
    lines = ["## Which method should I use?", "",
             "Generated from `results/methods/` (selection from the weak labels only; the "
             "estimated class prior where the setting has one; the upper bound, which needs "
             "every true label, is not ranked). Methods are indistinguishable from the best "
             f"when the Friedman test (alpha = {cfg['alpha']}) does not reject equal ranks, or "
             "when their average rank is within the Bonferroni-Dunn critical difference "
             f"(alpha = {cfg['cd_alpha']}) of the best.", ""]
    for setting in cfg["settings"]:
        a = answers.get(setting)
        lines.append(f"- {a['text']}" if a else f"- {setting}: no result in this run.")
    return "\n".join(lines) + "\n"


def metrics(raw: pd.DataFrame, answers: dict) -> dict:
    """``metrics.json``: per setting the best method, how many are indistinguishable from
    it, the fastest of them, and counts of runs."""
    out = {"runs": int(len(raw)), "runs_ok": int((raw.status == "ok").sum()),
           "one_class_runs": int(raw.get("one_class", pd.Series(dtype=bool)).fillna(False)
                                 .astype(bool).sum())}
    for s, a in answers.items():
        out[s] = {"best": a["best"], "n_indistinguishable": len(a["indistinguishable"]),
                  "fastest_indistinguishable": a["fastest"]}
    return out
