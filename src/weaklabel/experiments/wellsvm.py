"""Protocols of the WellSVM paper, semi-supervised part (Li, Tsang, Kwok, Zhou, JMLR 2013).

Public functions, the same in every paper's module: :func:`config` (the protocol settings),
:func:`run` (every (data set, repetition) task, raw rows), :func:`tables` (Tables 2-4),
:func:`comparison` (every published cell next to ours), :func:`claims` (the paper's claims
on our numbers), :func:`metrics` (headline numbers) and :func:`figures`. None of them
writes a file; the writers are named as such and called by ``notebooks/wellsvm.ipynb``.

Protocol (declared here and in ``params.yaml`` before any result)
----------------------------------------------------------------
Section 5.1.1 of the paper: 16 UCI sets, 75 % / 25 % random train / test split, 5 %, 10 %
and 15 % of the data labelled, the rest of the training part unlabelled, inductive test
accuracy, 30 repetitions, ``C1 = 1``, ``C2`` in {0.001, ..., 1}, a linear or Gaussian
kernel with ``sigma`` in {0.25, 0.5, 1, 2, 4} sqrt(gamma) (gamma: mean squared distance
between all instance pairs), all selected by 5-fold cross-validated accuracy; WellSVM
starts from the labelled-only SVM and uses epsilon = thr = 1e-6. Where the paper is silent
or too costly for a laptop, ours (every value in ``params.yaml``, section ``wellsvm``):

- **Data**: the 16 sets of Table 1 as the data layer has them (:data:`DATASETS`; 12 are
  the LAMDA copies shipped with the USMO code, Haberman and German one-hot encoded to the
  paper's 14 and 59 columns, Echocardiogram 131 rows of 132). Features min-max scaled to
  [0, 1] and centred with training-part statistics (WellSVM has no offset: Section 2).
- **Split**: per repetition a stratified 75/25 split (seed ``seed + rep``); the labelled
  set is a stratified ``label_pct`` % of the training part (at least ``min_per_class``
  per class), nested across the three percentages within a repetition.
- **Hyperparameters**: ``C1 = 1``; ``(kernel, C2)`` chosen per (data set, percentage,
  method) by ``n_folds``-fold cross-validated accuracy on the labelled training points of
  the first ``select_reps`` repetitions (folds stratified; each fold trains on the other
  labelled points plus every unlabelled one; the accuracies of those repetitions are
  averaged), over the grid ``kernels`` x ``C2`` of ``params.yaml`` (a subset of the
  paper's 42 settings), and used in every repetition: selecting in every repetition, as
  the paper presumably does, costs ``n_reps / select_reps`` times more (declared for cost;
  ``select_per_rep: true``, the ``large`` profile, selects in every repetition over the
  paper's whole grid with 5 folds, as the paper does).
  Ties go to the first setting in grid order. With fewer than ``n_folds`` labelled
  points in a class the folds shrink to that count, and below 2 the declared default
  ``default_setting`` is used. Sets whose training part exceeds ``select_max_train`` use
  ``default_setting`` without selection (cost; declared, and flagged ``selected = False``
  in ``raw.csv``), and only ``large_set_reps`` repetitions when that is set (a WellSVM fit
  on Krvskp or Sick takes 20-30 s).
- **Repetitions**: ``n_reps`` (the paper: 30).
- **Methods**: SVM (labelled points only, with bias), TSVM (Joachims 1999), LapSVM
  (Belkin et al. 2006), USVM (CCCP-TSVM, Collobert et al. 2006) and WellSVM
  (``variant="paper"``: the hinge dual without offset of Eq. (14), MKLGL on the working
  set, the sorting oracle of Eq. (22)); the authors' code's variant
  (``variant="reference"``) runs as an extra column ``WellSVM (code)``.
- **Statistics**: win/tie/loss by a paired t-test at 95 % (:mod:`weaklabel.stats`), ranks
  as in Demsar (2006) from the mean accuracies, Friedman test.
- **Causes of the differing cells** (:func:`causes_evidence`, rules of
  :mod:`weaklabel.causes`): the spread over the repetitions (data-set cells, per-repetition
  ranks and averages; the paper's ``±`` beside it), the repetition counts
  ``sensitivity.rep_counts`` (the mean had the protocol stopped after the first ``n``
  repetitions; no new run) and the WellSVM variant (the paper's Eq. (14) against the
  authors' code, both run) as protocol choices, the data layer's declared substitutes and
  the documented baseline differences :data:`BASELINE_NOTES`.
"""

from __future__ import annotations

import copy
import time
import warnings

import numpy as np
import pandas as pd

from .._validation import check_names
from ..data import load
from ..executor import run_tasks
from ._wellsvm_uci import DATASETS, load_dataset, preprocess

#: the methods of Tables 2-4, in the paper's column order, and the extra column
METHODS = ("SVM", "TSVM", "LapSVM", "USVM", "WellSVM")
EXTRA = ("WellSVM (code)",)
TABLES = {5: "Table 2", 10: "Table 3", 15: "Table 4"}
#: Fig. 2's data sets (Sick is one of them)
FIG2_SETS = ("Haberman", "Spectf", "Australian", "German", "Sick")
#: baselines whose implementation differs documentably from the paper's description
#: (method -> reason), shown in the report; a note is not a measurement, so it is no cause
#: of a difference
BASELINE_NOTES = {
    "TSVM": "this package's TSVM (Joachims 1999 label switching on its own SMO core, "
            "weaklabel.models.ssl.TSVM), not SVMlight as in the paper",
    "LapSVM": "kNN graph with k = lapsvm_neighbors fixed (heat weights, unnormalised "
              "Laplacian), not selected from the paper's k in {3, 5, 7, 9}; C2 weighs the "
              "graph term (weaklabel.models.ssl.LapSVM)",
    "USVM": "this package's CCCP-TSVM (Collobert et al. 2006, ramp s = -0.3, on its own SMO "
            "core, weaklabel.models.ssl.CCCPTSVM), not the UniverSVM library",
}

DEFAULTS = {
    "seed": 0, "datasets": [d[0] for d in DATASETS], "label_pcts": [5, 10, 15],
    "n_reps": 10, "select_reps": 1, "select_per_rep": False, "min_per_class": 1,
    "n_folds": 3,
    # a kernel is "linear" or a multiple of sqrt(gamma) for the Gaussian width
    "kernels": ["linear", 1.0], "C2": [0.01, 0.1, 1.0], "C1": 1.0,
    "default_setting": {"kernel": 1.0, "C2": 0.1}, "select_max_train": 2000,
    "large_set_reps": None,
    "methods": list(METHODS) + list(EXTRA),
    "wellsvm_tol": 1e-3, "wellsvm_max_iter": 50,
    "lapsvm_neighbors": 5,
    # declared before the run: a mean accuracy cell, an average, a rank, a count
    "tolerances": {"cell": 0.05, "avg": 0.03, "rank": 1.0, "count": 3, "error": 5.0},
    "fig2": {"label_pct": 10, "C2": 0.1, "kernel": 1.0, "datasets": list(FIG2_SETS)},
    "golden_splits": None,   # RSSL diabetes splits of the golden check (None: all 30)
    # Tables 6-7 (experiments._wellsvm_tables67): splits run per set, {} = its defaults
    "tables67": {},
    # causes of the differing cells: repetition counts whose means are compared (the first
    # n repetitions of the run; a count above a cell's repetitions is skipped for it); the
    # setting sensitivity (run_sensitivity): the methods of setting_methods fitted at every
    # (kernel, C2) of the grid on the first setting_reps repetitions (0: not run)
    "sensitivity": {"rep_counts": [5, 10, 30], "setting_methods": ["WellSVM"],
                    "setting_reps": 1},
}


def config(params: dict | None = None) -> dict:
    """Protocol settings: :data:`DEFAULTS` overridden by ``params`` (``params.yaml``
    section ``wellsvm`` for one profile); an unknown key is an error."""
    params = dict(params or {})
    unknown = sorted(set(params) - set(DEFAULTS) - {"profile"})
    if unknown:
        raise ValueError(f"unknown wellsvm parameter(s) {unknown}; known: {sorted(DEFAULTS)}.")
    cfg = copy.deepcopy(DEFAULTS)
    cfg.update(params)
    check_params(cfg)
    sens = cfg["sensitivity"]
    check_rep_counts(sens)
    unknown = sorted(set(sens) - {"rep_counts", "setting_methods", "setting_reps"})
    if unknown:
        raise ValueError(f"unknown sensitivity parameter(s) {unknown}; known: "
                         "['rep_counts', 'setting_methods', 'setting_reps'].")
    n = sens.get("setting_reps", 0)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError("sensitivity.setting_reps must be a non-negative integer, got "
                         f"{n!r}.")
    bad = sorted(set(sens.get("setting_methods", [])) - set(METHODS + EXTRA))
    if bad:
        raise ValueError(f"sensitivity.setting_methods {bad} unknown; known: "
                         f"{list(METHODS + EXTRA)}.")
    return cfg


def check_params(cfg: dict) -> None:
    """Reject a data-set name the protocol cannot load, before anything runs (cheap: nothing
    is loaded): ``datasets`` and ``fig2.datasets`` name sets of :data:`DATASETS`
    (:func:`load_dataset`), ``tables67.splits.table6`` / ``.table7`` are keyed by sets of
    :data:`~weaklabel.experiments._wellsvm_tables67.TABLE6_SETS` / ``TABLE7_SETS``.
    ``cfg``: :func:`config`'s output or its input (:func:`config` calls it)."""
    from ._wellsvm_tables67 import TABLE6_SETS, TABLE7_SETS

    known = [d[0] for d in DATASETS]
    if "datasets" in cfg:
        check_names(cfg["datasets"], known, "datasets")
    fig2 = cfg.get("fig2")
    if isinstance(fig2, dict) and "datasets" in fig2:
        check_names(fig2["datasets"], known, "fig2.datasets")
    t67 = cfg.get("tables67")
    splits = t67.get("splits") if isinstance(t67, dict) else None
    if isinstance(splits, dict):
        for table, sets in (("table6", TABLE6_SETS), ("table7", TABLE7_SETS)):
            if table in splits:
                check_names(splits[table], sets, f"tables67.splits.{table}")


def check_rep_counts(sensitivity) -> list[int]:
    """The declared ``sensitivity.rep_counts`` (a non-empty list of positive integers), or
    a ValueError naming the argument."""
    counts = sensitivity.get("rep_counts") if isinstance(sensitivity, dict) else None
    if (not isinstance(counts, (list, tuple)) or not counts
            or any(isinstance(c, bool) or not isinstance(c, int) or c < 1 for c in counts)):
        raise ValueError("sensitivity must be a mapping with rep_counts, a non-empty list of "
                         f"positive integers; got {sensitivity!r}.")
    return sorted(set(counts))


# --------------------------------------------------------------------------- data
def split(y, rep: int, cfg: dict):
    """``(train, test, labelled)`` indices of one repetition: a stratified 75/25 split and,
    per label percentage, the labelled training indices (nested: the 5 % set is inside the
    10 % set ...). Labelled counts are ``round(pct/100 * n)`` over all ``n`` points (the
    paper: "5 % ... of all the labeled data"), at least ``min_per_class`` per class."""
    from sklearn.model_selection import train_test_split

    rng = np.random.default_rng(int(cfg["seed"]) + 1000 * rep)
    idx = np.arange(len(y))
    tr, te = train_test_split(idx, test_size=0.25, stratify=y,
                              random_state=int(rng.integers(2**31 - 1)))
    tr = np.sort(tr)
    # one random order per class inside the training part; a percentage takes prefixes
    order = {c: rng.permutation(tr[y[tr] == c]) for c in (0, 1)}
    labelled = {}
    for pct in sorted(cfg["label_pcts"]):
        n_lab = max(int(round(pct / 100 * len(y))), 2 * int(cfg["min_per_class"]))
        frac = np.mean(y[tr] == 1)
        n1 = int(np.clip(round(n_lab * frac), cfg["min_per_class"],
                         len(order[1]) - 1))
        n0 = int(np.clip(n_lab - n1, cfg["min_per_class"], len(order[0]) - 1))
        labelled[pct] = np.sort(np.r_[order[0][:n0], order[1][:n1]])
    return tr, np.sort(te), labelled


def gamma_of(X) -> float:
    """The paper's gamma: the mean squared distance over all ordered pairs of rows
    (diagonal included) = 2 mean ||x||^2 - 2 ||mean x||^2, in O(n d)."""
    X = np.asarray(X, dtype=np.float64)
    return float(2.0 * np.mean(np.sum(X * X, axis=1)) - 2.0 * np.sum(X.mean(axis=0) ** 2))


# --------------------------------------------------------------------------- methods
def make_estimator(method: str, kernel, C2: float, gamma: float, cfg: dict, seed: int = 0):
    """The estimator of ``method`` at one grid setting; ``kernel`` is ``"linear"`` or the
    multiple of ``sqrt(gamma)`` that gives the Gaussian width."""
    from ..models.ssl import CCCPTSVM, TSVM, LabelledSVM, LapSVM
    from ..models.wellsvm import WellSVM

    if kernel == "linear":
        kp = {"kernel": "linear"}
    else:
        kp = {"kernel": "gaussian", "sigma": float(kernel) * float(np.sqrt(gamma))}
    C1 = float(cfg["C1"])
    if method == "SVM":
        return LabelledSVM(C1=C1, **kp)
    if method == "TSVM":
        return TSVM(C1=C1, C2=C2, **kp)
    if method == "USVM":
        return CCCPTSVM(C1=C1, C2=C2, **kp)
    if method == "LapSVM":
        return LapSVM(C1=C1, C2=C2, n_neighbors=int(cfg["lapsvm_neighbors"]), **kp)
    if method.startswith("WellSVM"):
        variant = "reference" if method == "WellSVM (code)" else "paper"
        return WellSVM(C1=C1, C2=C2, variant=variant, tol=float(cfg["wellsvm_tol"]),
                       max_iter=int(cfg["wellsvm_max_iter"]), random_state=seed, **kp)
    raise ValueError(f"method must be one of {METHODS + EXTRA}, got {method!r}.")


def _grid(method: str, cfg: dict):
    kernels = list(cfg["kernels"])
    if method == "SVM":  # C2 weighs the unlabelled points: the labelled-only SVM has none
        return [(k, float(cfg["default_setting"]["C2"])) for k in kernels]
    return [(k, float(c)) for k in kernels for c in cfg["C2"]]


def _fit_predict(method, setting, X, y_semi, Xeval, gamma, cfg, seed):
    est = make_estimator(method, setting[0], setting[1], gamma, cfg, seed)
    t0 = time.perf_counter()
    est.fit(X, y_semi)
    sec = time.perf_counter() - t0
    return est, est.predict(Xeval), sec


def _cv_accuracy(method, setting, X, y, lab, gamma, cfg, k, seed):
    """``k``-fold CV accuracy on the labelled points ``lab`` (each fold trains on the other
    labelled points and every unlabelled point of ``X``)."""
    from sklearn.model_selection import StratifiedKFold

    skf = StratifiedKFold(k, shuffle=True, random_state=seed)
    accs = []
    for a, b in skf.split(lab, y[lab]):
        ys = np.full(X.shape[0], -1)
        ys[lab[a]] = y[lab[a]]
        try:
            _, pred, _ = _fit_predict(method, setting, X, ys, X[lab[b]], gamma, cfg, 0)
            accs.append(np.mean(pred == y[lab[b]]))
        except ValueError:  # a fold without one of the classes among its labels
            accs.append(0.0)
    return float(np.mean(accs))


def _prepared(name: str, rep: int, cfg: dict):
    """``(Xtr, ytr, Xte, yte, gamma, {pct: labelled positions in the training part})``."""
    X, y = load_dataset(name)
    tr, te, labelled = split(y, rep, cfg)
    Xtr, Xte = preprocess(X[tr], X[te])
    pos = {v: i for i, v in enumerate(tr)}
    lab = {p: np.array([pos[i] for i in idx]) for p, idx in labelled.items()}
    return Xtr, y[tr], Xte, y[te], gamma_of(Xtr), lab


def select_task(name: str, pct: int, method: str, cfg: dict, rep: int | None = None) -> dict:
    """The selected ``(kernel, C2)`` of one (data set, percentage, method): the best mean
    CV accuracy over the first ``select_reps`` repetitions (see the module docstring), or
    over repetition ``rep`` alone (``select_per_rep``, the paper's protocol)."""
    default = (cfg["default_setting"]["kernel"], float(cfg["default_setting"]["C2"]))
    grid = _grid(method, cfg)
    t0 = time.perf_counter()
    reps = range(int(cfg["select_reps"])) if rep is None else [rep]
    preps = [_prepared(name, r, cfg) for r in reps]
    ks = [int(min(int(cfg["n_folds"]), np.bincount(p[1][p[5][pct]], minlength=2).min()))
          for p in preps]
    out = {"dataset": name, "label_pct": pct, "method": method,
           "rep": -1 if rep is None else rep}
    too_big = (cfg["select_max_train"] is not None
               and preps[0][0].shape[0] > int(cfg["select_max_train"]))
    if len(grid) == 1 or min(ks) < 2 or too_big:
        setting = default if method != "SVM" else grid[0]
        return {**out, "kernel": setting[0], "C2": setting[1], "selected": False,
                "cv_accuracy": float("nan"), "select_seconds": time.perf_counter() - t0}
    best, best_acc = None, -1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for setting in grid:
            acc = float(np.mean([
                _cv_accuracy(method, setting, p[0], p[1], p[5][pct], p[4], cfg, k,
                             int(cfg["seed"]) + r)
                for r, p, k in zip(reps, preps, ks, strict=True)]))
            if acc > best_acc:
                best, best_acc = setting, acc
    return {**out, "kernel": best[0], "C2": best[1], "selected": True,
            "cv_accuracy": best_acc, "select_seconds": time.perf_counter() - t0}


def run_repetition(name: str, rep: int, cfg: dict, settings: dict) -> list[dict]:
    """Every (percentage, method) of one (data set, repetition) at the selected settings
    (``settings[(name, pct, method)]``, rows of :func:`select_task`): fit, test accuracy,
    time, iterations. Returns raw rows."""
    from ..models.exceptions import OneClassPredictionWarning

    Xtr, ytr, Xte, yte, gamma, labs = _prepared(name, rep, cfg)
    rows = []
    for pct in sorted(cfg["label_pcts"]):
        lab = labs[pct]
        ys = np.full(len(ytr), -1)
        ys[lab] = ytr[lab]
        for method in cfg["methods"]:
            sel = settings.get((name, pct, method, rep)) or settings[(name, pct, method, -1)]
            setting = (sel["kernel"], float(sel["C2"]))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                est, pred, sec = _fit_predict(method, setting, Xtr, ys, Xte, gamma, cfg,
                                              int(cfg["seed"]) + rep)
            conv = [w for w in caught if "ConvergenceWarning" in type(w.message).__name__
                    or "converge" in str(w.message).lower()]
            one = [w for w in caught if isinstance(w.message, OneClassPredictionWarning)]
            rows.append({
                "dataset": name, "rep": rep, "label_pct": pct, "n_train": len(ytr),
                "n_labelled": len(lab), "n_test": len(yte), "method": method,
                "kernel": "linear" if setting[0] == "linear" else f"{setting[0]:g} sqrt(gamma)",
                "sigma": (float("nan") if setting[0] == "linear"
                          else float(setting[0]) * float(np.sqrt(gamma))),
                "C2": setting[1], "selected": bool(sel["selected"]),
                "cv_accuracy": sel["cv_accuracy"],
                "accuracy": float(np.mean(pred == yte)), "seconds": sec,
                "n_iter": float(getattr(est, "n_iter_", np.nan)),
                "converged": bool(getattr(est, "converged_", True)),
                "warnings_convergence": len(conv), "warnings_one_class": len(one),
            })
    return rows


def run(cfg: dict, *, executor=None, progress: bool = True):
    """Selection, then every (data set, repetition), through the executor; returns
    ``(raw rows, selection rows)``."""
    sizes = {d: load_dataset(d)[0].shape[0] for d in cfg["datasets"]}
    per_rep = range(int(cfg["n_reps"])) if cfg["select_per_rep"] else [None]
    sel_tasks = [(d, p, m, cfg, r) for d in cfg["datasets"] for p in cfg["label_pcts"]
                 for m in cfg["methods"] for r in per_rep]
    sel_tasks.sort(key=lambda t: -sizes[t[0]])
    sel = run_tasks(select_task, sel_tasks, executor=executor,
                    desc="WellSVM SSL selection", progress=progress)
    settings = {(r["dataset"], r["label_pct"], r["method"], r["rep"]): r for r in sel}
    tasks = [(d, rep) for d in cfg["datasets"] for rep in range(n_reps_of(d, cfg))]
    tasks.sort(key=lambda t: -sizes[t[0]])  # largest first for load balance
    parts = run_tasks(run_repetition, tasks, executor=executor,
                      kwargs={"cfg": cfg, "settings": settings},
                      desc="WellSVM SSL splits", progress=progress)
    df = pd.DataFrame([r for p in parts for r in p])
    order = {d: i for i, d in enumerate(cfg["datasets"])}
    morder = {m: i for i, m in enumerate(cfg["methods"])}
    return (df.assign(_d=df.dataset.map(order), _m=df.method.map(morder))
            .sort_values(["_d", "rep", "label_pct", "_m"]).drop(columns=["_d", "_m"])
            .reset_index(drop=True)), _selection_frame(sel, cfg)


def _setting_label(kernel, C2: float) -> str:
    k = "linear" if kernel == "linear" else f"{float(kernel):g} sqrt(gamma)"
    return f"{k}, C2={float(C2):g}"


def setting_task(name: str, rep: int, pct: int, method: str, setting: tuple,
                 cfg: dict) -> dict:
    """One fit of the setting sensitivity: ``method`` at ``setting = (kernel, C2)`` on
    repetition ``rep`` of ``name`` with ``pct`` % labels, fitted and scored exactly as
    :func:`run_repetition` does (same split, preprocessing and seed)."""
    Xtr, ytr, Xte, yte, gamma, labs = _prepared(name, rep, cfg)
    lab = labs[pct]
    ys = np.full(len(ytr), -1)
    ys[lab] = ytr[lab]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est, pred, sec = _fit_predict(method, setting, Xtr, ys, Xte, gamma, cfg,
                                      int(cfg["seed"]) + rep)
    return {"accuracy": float(np.mean(pred == yte)), "seconds": sec,
            "converged": bool(getattr(est, "converged_", True))}


def run_sensitivity(cfg: dict, raw: pd.DataFrame, *, executor=None,
                    progress: bool = True) -> pd.DataFrame:
    """The setting sensitivity (issue #16; declared in ``params.yaml``,
    ``wellsvm.sensitivity``): the paper selects ``(kernel, C2)`` by 5-fold CV in every
    repetition over a finer grid; we select once, on a coarse grid, by 3-fold CV. Each
    method of ``setting_methods`` is fitted at every setting of its grid (:func:`_grid`) on
    the first ``setting_reps`` repetitions of every data set whose setting was selected
    (the sets above ``select_max_train`` use the declared default and are left out), every
    label percentage. The selected setting's row is the main run's fit in ``raw`` (status
    ``"main run"``, not refitted). Returns the rows of ``sensitivity.csv``; they explain
    cells and never change a table's number."""
    if not isinstance(raw, pd.DataFrame):
        raise ValueError(f"raw must be the DataFrame of run(), got {type(raw).__name__}.")
    scfg = cfg["sensitivity"]
    n = int(scfg.get("setting_reps", 0))
    methods = [m for m in scfg.get("setting_methods", []) if m in cfg["methods"]]
    cols = ["dataset", "rep", "label_pct", "method", "choice", "selected", "accuracy",
            "seconds", "converged", "status"]
    own, tasks, meta = [], [], []
    for d in cfg["datasets"]:
        for rep in range(min(n, n_reps_of(d, cfg))):
            for pct in cfg["label_pcts"]:
                for m in methods:
                    main = raw[(raw.dataset == d) & (raw.rep == rep) & (raw.label_pct == pct)
                               & (raw.method == m)]
                    if main.empty or not bool(main.selected.iloc[0]):
                        continue
                    r = main.iloc[0]
                    chosen = _setting_label("linear" if r.kernel == "linear"
                                            else float(str(r.kernel).split()[0]), r.C2)
                    for setting in _grid(m, cfg):
                        label = _setting_label(*setting)
                        row = {"dataset": d, "rep": rep, "label_pct": pct, "method": m,
                               "choice": label, "selected": label == chosen}
                        if row["selected"]:
                            own.append({**row, "accuracy": float(r.accuracy),
                                        "seconds": float(r.seconds),
                                        "converged": bool(r.converged), "status": "main run"})
                            continue
                        tasks.append((d, rep, pct, m, setting))
                        meta.append(row)
    sizes = {d: load_dataset(d)[0].shape[0] for d in {t[0] for t in tasks}}
    order = sorted(range(len(tasks)), key=lambda i: -sizes[tasks[i][0]])
    res = run_tasks(setting_task, [tasks[i] for i in order], executor=executor,
                    kwargs={"cfg": cfg}, desc="WellSVM SSL setting sensitivity",
                    progress=progress)
    fitted = [None] * len(tasks)
    for i, r in zip(order, res):
        fitted[i] = {**meta[i], **r, "status": "ok"}
    out = pd.DataFrame(own + fitted, columns=cols)
    return out.sort_values(["dataset", "rep", "label_pct", "method", "choice"],
                           kind="stable").reset_index(drop=True)


def n_reps_of(name: str, cfg: dict) -> int:
    """Repetitions of one data set: ``n_reps``, or ``large_set_reps`` for the sets whose
    training part exceeds ``select_max_train`` (Krvskp, Sick; declared for cost)."""
    n = int(cfg["n_reps"])
    if cfg.get("large_set_reps") is None or cfg["select_max_train"] is None:
        return n
    n_train = int(np.ceil(0.75 * load_dataset(name)[0].shape[0]))
    return min(n, int(cfg["large_set_reps"])) if n_train > int(cfg["select_max_train"]) else n


def _selection_frame(sel, cfg) -> pd.DataFrame:
    df = pd.DataFrame(sel)
    order = {d: i for i, d in enumerate(cfg["datasets"])}
    morder = {m: i for i, m in enumerate(cfg["methods"])}
    df["kernel"] = ["linear" if k == "linear" else f"{float(k):g} sqrt(gamma)"
                    for k in df["kernel"]]
    return (df.assign(_d=df.dataset.map(order), _m=df.method.map(morder))
            .sort_values(["_d", "label_pct", "_m", "rep"]).drop(columns=["_d", "_m"])
            .reset_index(drop=True))


# --------------------------------------------------------------------------- tables
def table(raw: pd.DataFrame, pct: int) -> pd.DataFrame:
    """One of Tables 2-4 (long form): mean, std and n of the test accuracy per (data set,
    method), the Demsar rank of each method per data set (from the means, over the
    paper's five methods), and ``wtl_vs_svm``: SVM's win / tie / loss against the method
    by a paired t-test at 95 % over the repetitions."""
    from ..stats import win_tie_loss

    d = raw[raw.label_pct == pct]
    g = d.groupby(["dataset", "method"], sort=False)["accuracy"]
    t = g.agg(mean="mean", std=lambda v: v.std(ddof=1) if len(v) > 1 else 0.0,
              n="size").reset_index()
    wide = t.pivot(index="dataset", columns="method", values="mean")
    core = [m for m in METHODS if m in wide.columns]
    ranks = wide[core].apply(lambda row: pd.Series(_row_ranks(row.values), index=core),
                             axis=1)
    t["rank"] = [ranks.loc[ds, m] if m in core else np.nan
                 for ds, m in zip(t.dataset, t.method, strict=True)]
    wtl = []
    for ds, m in zip(t.dataset, t.method, strict=True):
        if m == "SVM" or "SVM" not in wide.columns:
            wtl.append("")
            continue
        a = d[(d.dataset == ds) & (d.method == "SVM")].sort_values("rep").accuracy.values
        b = d[(d.dataset == ds) & (d.method == m)].sort_values("rep").accuracy.values
        if len(a) == len(b) and len(a) > 1:
            r = win_tie_loss([a], [b])
            wtl.append(f"{r.win}/{r.tie}/{r.loss}")
        else:
            wtl.append("")
    t["wtl_vs_svm"] = wtl
    return t


def _row_ranks(means):
    from ..stats import rank_table

    return np.asarray(rank_table(np.asarray(means, dtype=float)[None, :])).ravel()


def summary_rows(t: pd.DataFrame, methods=METHODS) -> pd.DataFrame:
    """The three summary rows of a table: SVM's win/tie/loss counts against each method
    (over the data sets), the average accuracy and the average rank."""
    rows = []
    for m in methods:
        s = t[t.method == m]
        if not len(s):
            continue
        if m != "SVM":
            w = [tuple(int(x) for x in v.split("/")) for v in s.wtl_vs_svm if v]
            win = sum(1 for x in w if x[0] == 1)
            loss = sum(1 for x in w if x[2] == 1)
            tie = len(w) - win - loss
        else:
            win = tie = loss = np.nan
        rows.append({"method": m, "win": win, "tie": tie, "loss": loss,
                     "avg_acc": s["mean"].mean(), "avg_rank": s["rank"].mean()})
    return pd.DataFrame(rows)


def tables(raw: pd.DataFrame, cfg: dict) -> dict:
    """``{"table2": ..., "table3": ..., "table4": ...}`` for the percentages that ran."""
    return {TABLES[p].lower().replace(" ", ""): table(raw, p) for p in cfg["label_pcts"]
            if p in TABLES}


def published_frame() -> pd.DataFrame:
    from .. import published

    return published.load("wellsvm")


def _pub_row_name(pub: pd.DataFrame, artifact: str, name: str) -> str:
    """The published row label of a data set in ``artifact`` (Table 4 prints lower case)."""
    rows = set(pub[pub.artifact == artifact].row)
    if name in rows:
        return name
    low = {r.lower(): r for r in rows}
    return low.get(name.lower(), name)


def reproduced_cells(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """Our value of every published cell of Tables 2-4 we reproduce (artifact, row,
    column, reproduced, tolerance)."""
    pub = published_frame()
    tol = cfg["tolerances"]
    out = []
    for pct, art in TABLES.items():
        if pct not in cfg["label_pcts"]:
            continue
        t = table(raw, pct)
        for _, r in t[t.method.isin(METHODS)].iterrows():
            row = _pub_row_name(pub, art, r.dataset)
            out.append((art, row, r.method, r["mean"], tol["cell"]))
            out.append((art, row, f"{r.method}, rank", r["rank"], tol["rank"]))
        s = summary_rows(t)
        for _, r in s.iterrows():
            avg_row = "ave. acc." if art == "Table 2" else "avg. acc."
            rank_row = "ave. rank" if art == "Table 2" else "avg. rank"
            out.append((art, avg_row, r.method, r.avg_acc, tol["avg"]))
            out.append((art, rank_row, r.method, r.avg_rank, tol["rank"]))
            if r.method != "SVM":
                for k in ("win", "tie", "loss"):
                    out.append((art, "SVM: win/tie/loss", f"{r.method}, {k}", r[k],
                                tol["count"]))
    return pd.DataFrame(out, columns=["artifact", "row", "column", "reproduced", "tolerance"])


def comparison(raw: pd.DataFrame, cfg: dict, rows67: pd.DataFrame | None = None,
               sensitivity: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every published cell of Tables 2-4 next to ours, with a verdict (accuracies at 2
    decimals as printed, ranks and counts as numbers), and the cells of Tables 6-7 that we
    reproduce (``rows67`` from :func:`tables67`; test errors in %, 1 decimal; the cells we
    cannot reproduce are listed by :func:`missing67`, not here). Every ``differs`` row has
    a cause computed by the rules of :mod:`weaklabel.causes` from :func:`causes_evidence`
    (columns :data:`weaklabel.causes.CAUSE_COLUMNS`; ``sensitivity``: the rows of
    :func:`run_sensitivity`, optional)."""
    from ..causes import assign_causes
    from ..compare import build_comparison, classify

    rep = reproduced_cells(raw, cfg)
    arts = [TABLES[p] for p in cfg["label_pcts"] if p in TABLES]
    out = [build_comparison(rep, "wellsvm", artifacts=arts, decimals=2)]
    if rows67 is not None and len(rows67):
        from ._wellsvm_tables67 import reproduced_cells as cells67

        c = cells67(rows67).assign(tolerance=float(cfg["tolerances"]["error"]))
        c67 = build_comparison(c, "wellsvm", artifacts=sorted(set(c.artifact)), decimals=1)
        out.append(c67[c67.reproduced.notna()])
    comp = classify(pd.concat(out, ignore_index=True), substitutes=substitutes(),
                    trivial=majority_accuracy(sorted(set(raw.dataset)), arts),
                    one_class=one_class_shares(raw))
    return assign_causes(comp, **causes_evidence(raw, cfg, rows67, sensitivity))


def one_class_shares(raw: pd.DataFrame) -> pd.DataFrame:
    """Per accuracy cell of Tables 2-4, the share of its repetitions whose fit warned that it
    predicted one class (``warnings_one_class > 0`` in ``raw``); columns ``artifact, row,
    column, one_class_share`` (:func:`weaklabel.compare.classify`). Empty when ``raw`` does
    not record the warning."""
    cols = ["artifact", "row", "column", "one_class_share"]
    if "warnings_one_class" not in raw.columns:
        return pd.DataFrame(columns=cols)
    pub = published_frame()
    d = raw[raw.label_pct.isin(list(TABLES)) & raw.method.isin(METHODS)]
    g = (d.assign(one=d.warnings_one_class.fillna(0) > 0)
         .groupby(["label_pct", "dataset", "method"]).one.mean().reset_index())
    art = g.label_pct.map(TABLES)
    return pd.DataFrame({"artifact": art.values,
                         "row": [_pub_row_name(pub, a, x) for a, x in zip(art, g.dataset)],
                         "column": g.method.values, "one_class_share": g.one.values})[cols]


def majority_accuracy(datasets, artifacts) -> pd.DataFrame:
    """The trivial predictor's value of the accuracy cells of Tables 2-4: the share of each
    data set's majority class (the accuracy of predicting it everywhere, the test splits
    being random draws of the set), for every method's column, and its mean over the sets
    in the average-accuracy row when every set of the table is there. Columns ``artifact,
    row, column, trivial`` (:func:`weaklabel.compare.classify`)."""
    pub = published_frame()
    share = {}
    for d in datasets:
        _, y = load_dataset(d)
        share[d] = float(max(y.mean(), 1 - y.mean()))
    rows = []
    for art in artifacts:
        names = {d: _pub_row_name(pub, art, d) for d in share}
        rows += [(art, names[d], m, v) for d, v in share.items() for m in METHODS]
        if len(share) == len(DATASETS):
            avg_row = "ave. acc." if art == "Table 2" else "avg. acc."
            rows += [(art, avg_row, m, float(np.mean(list(share.values())))) for m in METHODS]
    return pd.DataFrame(rows, columns=["artifact", "row", "column", "trivial"])


def substitutes() -> dict:
    """The cells computed on other data than the paper's (``not_comparable``): the
    registry's material mismatches for :data:`DATASETS` and the declared substitutes of
    Table 7 (:data:`weaklabel.experiments._wellsvm_tables67.MISSING_DATA`)."""
    from ..causes import registry_substitutes
    from ._wellsvm_tables67 import MISSING_DATA

    subs = registry_substitutes(dict(DATASETS), paper="WellSVM")
    subs.update({("Table 7", k): v for k, v in MISSING_DATA.items()
                 if v.startswith("substitute")})
    return subs


# --------------------------------------------------------------------------- causes
_KEY = ["artifact", "row", "column"]


def runs_long(raw: pd.DataFrame, cfg: dict, rows67: pd.DataFrame | None = None
              ) -> pd.DataFrame:
    """Per-run numbers of every comparison cell that has runs, in long form
    (``artifact, row, column, run, value``): the test accuracy of each repetition in
    Tables 2-4 (rows named as published), the per-repetition Demsar rank among the paper's
    five methods (``"<method>, rank"``), the per-repetition average accuracy and average
    rank over the data sets (only the repetitions that every data set of the run has), and
    the test error (%) of each split in Tables 6-7. The win/tie/loss counts come from a
    t-test over all repetitions and have no per-repetition value."""
    pub = published_frame()
    parts = []
    for pct, art in TABLES.items():
        if pct not in cfg["label_pcts"]:
            continue
        d = raw[(raw.label_pct == pct) & raw.method.isin(METHODS)]
        if d.empty:
            continue
        names = {ds: _pub_row_name(pub, art, ds) for ds in d.dataset.unique()}
        parts.append(pd.DataFrame({"artifact": art, "row": d.dataset.map(names),
                                   "column": d.method, "run": d.rep.astype(int),
                                   "value": d.accuracy.astype(float)}))
        wide = d.pivot_table(index=["dataset", "rep"], columns="method", values="accuracy")
        core = [m for m in METHODS if m in wide.columns]
        wide = wide[core].dropna()
        if wide.empty:
            continue
        ranks = pd.DataFrame([_row_ranks(v) for v in wide.values], index=wide.index,
                             columns=pd.Index(core, name="method"))
        rk = ranks.stack().rename("value").reset_index()
        parts.append(pd.DataFrame({"artifact": art, "row": rk.dataset.map(names),
                                   "column": rk.method + ", rank", "run": rk.rep.astype(int),
                                   "value": rk.value.astype(float)}))
        n_sets = d.dataset.nunique()
        covered = wide.reset_index().groupby("rep").dataset.nunique()
        reps = covered.index[covered == n_sets]
        if len(reps):
            avg_row = "ave. acc." if art == "Table 2" else "avg. acc."
            rank_row = "ave. rank" if art == "Table 2" else "avg. rank"
            for frame, row in ((wide, avg_row), (ranks, rank_row)):
                f = frame[frame.index.get_level_values("rep").isin(reps)]
                m = f.groupby(level="rep").mean().stack().rename("value").reset_index()
                parts.append(pd.DataFrame({"artifact": art, "row": row, "column": m.method,
                                           "run": m.rep.astype(int),
                                           "value": m.value.astype(float)}))
    if rows67 is not None and len(rows67):
        for table, art in (("table6", "Table 6"), ("table7", "Table 7")):
            t = rows67[rows67.table == table]
            if t.empty:
                continue
            row, col = (t.method, t.dataset) if table == "table6" else (t.dataset, t.method)
            parts.append(pd.DataFrame({"artifact": art, "row": row.values,
                                       "column": col.values, "run": t.split.astype(int).values,
                                       "value": t.error_pct.astype(float).values}))
    cols = ["artifact", "row", "column", "run", "value"]
    return (pd.concat(parts, ignore_index=True)[cols] if parts
            else pd.DataFrame(columns=cols))


def _variant_swapped(frame: pd.DataFrame) -> pd.DataFrame | None:
    """``frame`` with the authors' code variant in place of WellSVM (None without both)."""
    have = set(frame.method)
    if not {"WellSVM", "WellSVM (code)"} <= have:
        return None
    f = frame[frame.method != "WellSVM"]
    return f.assign(method=f.method.replace({"WellSVM (code)": "WellSVM"}))


def causes_evidence(raw: pd.DataFrame, cfg: dict, rows67: pd.DataFrame | None = None,
                    sensitivity: pd.DataFrame | None = None) -> dict:
    """The keyword arguments of :func:`weaklabel.causes.assign_causes` for
    :func:`comparison`, from the stage's results (the main run and, if given, the setting
    sensitivity of :func:`run_sensitivity`).

    Parameters
    ----------
    raw : DataFrame
        The per-fit rows of :func:`run` (``dataset, rep, label_pct, method, accuracy``).
    cfg : dict
        :func:`config`; ``sensitivity.rep_counts`` gives the repetition counts.
    rows67 : DataFrame, optional
        The rows of :func:`tables67` (``table, dataset, method, split, error_pct``).
    sensitivity : DataFrame, optional
        The rows of :func:`run_sensitivity`.

    Returns
    -------
    dict with

    - ``spread``: per cell of :func:`runs_long`, mean, std (ddof = 1) and number of runs,
      with the statistic the paper prints: ``mean`` for the accuracies and average accuracy
      of Tables 2-4 (means over the paper's 30 repetitions, its ``±`` as
      ``published_std``) and the errors of Tables 6-7 (means over the splits); ``rank`` for
      a data set's rank cell, the band being the bootstrap interval of the rank of the
      method's mean (:func:`weaklabel.cellstats.rank_of_means_band`, repetitions resampled
      jointly for the five methods). The average-rank and win/tie/loss rows get no band
      (a band from per-repetition ranks would be the wrong statistic);
    - ``sens``: the WellSVM variant (``parameter = "WellSVM variant"``: every cell with the
      paper's variant and with the authors' code variant, both run as the columns
      ``WellSVM`` and ``WellSVM (code)``) and, with ``sensitivity``, the setting
      (``parameter = "kernel, C2"``: each data-set cell's mean test accuracy over the
      sensitivity's repetitions at every grid setting, the selected one among them). The
      repetition count is spread, not a choice.

    No baseline has a second implementation run on the same splits
    (:data:`BASELINE_NOTES` are notes), so ``baseline_implementation`` is not run.
    """
    from ..causes import choice_sensitivity, spread_from_runs
    from ..cellstats import MIN_RUNS, rank_of_means_band
    from ._wellsvm_tables67 import reproduced_cells as cells67

    if not isinstance(raw, pd.DataFrame):
        raise ValueError(f"raw must be the DataFrame of run(), got {type(raw).__name__}.")
    runs = runs_long(raw, cfg, rows67)
    ranked = runs.column.str.endswith(", rank") | runs.row.isin(["ave. rank", "avg. rank"])
    spread = spread_from_runs(runs[~ranked], "value", run="run", statistic="mean")
    pub = published_frame()[_KEY + ["spread"]].rename(columns={"spread": "published_std"})
    spread = spread.merge(pub, on=_KEY, how="left").assign(
        published_reps=lambda f: np.where(f.artifact.isin(list(TABLES.values())), 30, np.nan))
    # a data set's rank: the bootstrap band of the rank of the method's mean
    bands, pubr = [], published_frame()
    for pct, art in TABLES.items():
        d = raw[(raw.label_pct == pct) & raw.method.isin(METHODS)]
        for ds, g in d.groupby("dataset"):
            wide = g.pivot_table(index="rep", columns="method", values="accuracy")
            wide = wide[[m for m in METHODS if m in wide.columns]].dropna()
            if wide.shape[1] < 2 or len(wide) < MIN_RUNS:
                continue
            for m in wide.columns:
                b = rank_of_means_band(wide, m)
                bands.append({"artifact": art, "row": _pub_row_name(pubr, art, ds),
                              "column": f"{m}, rank", "statistic": "rank",
                              "reproduced_mean": b.center, "reproduced_std": np.nan,
                              "n_runs": b.n_runs, "band_low": b.low, "band_high": b.high})
    if bands:
        spread = pd.concat([spread, pd.DataFrame(bands)], ignore_index=True)

    sens = []
    # the WellSVM variant: the paper's (Eq. (14)) and the authors' code's, both run
    variant = []
    swapped = _variant_swapped(raw)
    if swapped is not None:
        for name, frame in (("paper (Eq. 14)", raw), ("authors' code", swapped)):
            variant.append(reproduced_cells(frame, cfg).assign(variant=name))
    if rows67 is not None and len(rows67):
        sw67 = _variant_swapped(rows67)
        if sw67 is not None:
            for name, frame in (("paper (Eq. 14)", rows67), ("authors' code", sw67)):
                c = cells67(frame)
                wells = ((c.artifact == "Table 6") & (c.row == "WellSVM")) | \
                    ((c.artifact == "Table 7") & (c.column == "WellSVM"))
                variant.append(c[wells].assign(variant=name))
    if variant:
        v = pd.concat(variant, ignore_index=True).dropna(subset=["reproduced"])
        sens.append(choice_sensitivity(v, "reproduced", choice="variant",
                                       parameter="WellSVM variant"))
    if sensitivity is not None:
        if not isinstance(sensitivity, pd.DataFrame):
            raise TypeError("sensitivity must be run_sensitivity's DataFrame or None, got "
                            f"{type(sensitivity).__name__}.")
        need = [c for c in ("dataset", "label_pct", "method", "choice", "accuracy")
                if c not in sensitivity.columns]
        if need:
            raise ValueError(f"sensitivity lacks columns {need}; pass run_sensitivity's "
                             "frame.")
        s = sensitivity[sensitivity.label_pct.isin(list(TABLES))
                        & sensitivity.accuracy.notna()]
        if len(s):
            art = s.label_pct.map(TABLES)
            rows = [_pub_row_name(pubr, a, d) for a, d in zip(art, s.dataset)]
            long = pd.DataFrame({"artifact": art.values, "row": rows,
                                 "column": s.method.values, "choice": s.choice.values,
                                 "value": s.accuracy.astype(float).values})
            sens.append(choice_sensitivity(long, "value", choice="choice",
                                           parameter="kernel, C2"))
    sens = pd.concat([s for s in sens if len(s)], ignore_index=True) if any(
        len(s) for s in sens) else None
    return {"spread": spread, "sens": sens}


def tables67(cfg: dict, *, executor=None, progress: bool = True) -> pd.DataFrame:
    """Long rows of Tables 6-7 (:func:`weaklabel.experiments._wellsvm_tables67.tables67_rows`)
    with the splits of ``cfg["tables67"]``."""
    from ._wellsvm_tables67 import config as config67
    from ._wellsvm_tables67 import tables67_rows

    return tables67_rows(config67(cfg["tables67"]), executor=executor, progress=progress)


def missing67(rows67: pd.DataFrame) -> pd.DataFrame:
    """The published cells of Tables 6-7 we do not reproduce, each with its reason."""
    from ._wellsvm_tables67 import MISSING, missing_data
    from ._wellsvm_tables67 import reproduced_cells as cells67

    pub = published_frame()
    pub = pub[pub.artifact.isin(["Table 6", "Table 7"])]
    have = set()
    if len(rows67):
        c = cells67(rows67)
        have = set(zip(c.artifact, c.row, c.column, strict=True))
    gone = missing_data()
    rows = []
    for _, r in pub.iterrows():
        if (r.artifact, r.row, r.column) in have:
            continue
        method, ds = (r.row, r.column) if r.artifact == "Table 6" else (r.column, r.row)
        why = MISSING.get(method) or (gone.get(ds) if ds in gone and ds not in
                                      ("2moons", "coil20") else None)
        why = why or "not run in this profile (cost; the `large` profile runs every split)"
        rows.append({"artifact": r.artifact, "method": method, "data set": ds,
                     "published": r.value, "reason": why})
    return pd.DataFrame(rows)


def side_by_side67(rows67: pd.DataFrame) -> dict:
    """Tables 6 and 7 as printed (test error %), ours and the paper's, keyed by table."""
    from ._wellsvm_tables67 import reproduced_cells as cells67

    pub = published_frame()
    out = {}
    c = cells67(rows67) if len(rows67) else pd.DataFrame(columns=["artifact", "row",
                                                                    "column", "reproduced"])
    for art in ("Table 6", "Table 7"):
        p = pub[pub.artifact == art].pivot(index="row", columns="column", values="value")
        o = c[c.artifact == art]
        if not len(o):
            continue
        o = o.pivot(index="row", columns="column", values="reproduced")
        o.index = [f"{i} (ours)" for i in o.index]
        p.index = [f"{i} (paper)" for i in p.index]
        both = pd.concat([o, p]).sort_index()
        out[art] = both[[col for col in p.columns if col in both.columns]]
    return out


def claims(raw: pd.DataFrame, cfg: dict) -> list[dict]:
    """The paper's claims for Tables 2-4 (Section 5.1.1), each with our evidence and a
    verdict (``holds`` / ``does not hold``)."""
    from ..stats import bonferroni_dunn_cd, friedman_test

    pub_avg = {5: 0.778, 10: 0.807, 15: 0.811}
    out = []
    for pct, art in TABLES.items():
        if pct not in cfg["label_pcts"]:
            continue
        t = table(raw, pct)
        s = summary_rows(t).set_index("method")
        best = s.avg_acc.idxmax()
        net = {m: int(s.loc[m, "loss"] - s.loc[m, "win"]) for m in s.index if m != "SVM"}
        out.append({
            "claim": f"{art} ({pct} % labelled): WellSVM has the best average accuracy "
                     f"(paper: {pub_avg[pct]:.3f})",
            "ours": f"best: {best} {s.avg_acc.max():.3f}; WellSVM "
                    f"{s.avg_acc.get('WellSVM', np.nan):.3f}",
            "verdict": "holds" if best == "WellSVM" else "does not hold"})
        if net:
            bestnet = max(net, key=net.get)
            out.append({
                "claim": f"{art}: WellSVM has the best net wins against SVM "
                         "(paper: +4 / +7 / +3 at 5 / 10 / 15 %)",
                "ours": ", ".join(f"{m} {v:+d}" for m, v in net.items()),
                "verdict": "holds" if (net.get("WellSVM", -99) >= net[bestnet]
                                       and net.get("WellSVM", 0) > 0)
                else "does not hold"})
        wide = t[t.method.isin(METHODS)].pivot(index="dataset", columns="method",
                                               values="mean")
        cols = [m for m in METHODS if m in wide]
        if len(cols) >= 3 and wide.shape[0] >= 3 and "SVM" in cols:
            fr = friedman_test(wide[cols].values)
            cd = bonferroni_dunn_cd(len(cols), wide.shape[0], alpha=0.10)
            rk = dict(zip(cols, fr.ranks, strict=True))
            better = [m for m in cols if m != "SVM" and rk["SVM"] - rk[m] > cd]
            paper = {5: ["USVM", "WellSVM"], 10: ["WellSVM"], 15: []}[pct]
            out.append({
                "claim": f"{art}: significantly better than SVM (Friedman test, "
                         f"Bonferroni-Dunn at 90 %): paper {', '.join(paper) or 'none'}",
                "ours": (f"Friedman chi2 = {fr.chi2:.2f} (p = {fr.pvalue:.3g}); critical "
                         f"difference {cd:.2f}; rank of SVM minus rank: "
                         + ", ".join(f"{m} {rk['SVM'] - rk[m]:+.2f}" for m in cols
                                     if m != "SVM")
                         + f"; significant: {', '.join(better) or 'none'}"),
                "verdict": "holds" if sorted(better) == sorted(paper) else "does not hold"})
    return out


# --------------------------------------------------------------------------- figures
def fig2_runs(cfg: dict, *, rep: int = 0) -> pd.DataFrame:
    """Fig. 2: the objective of WellSVM per label-generation iteration on the Fig. 2 data
    sets (declared setting ``fig2``), both variants; one row per (data set, variant,
    iteration)."""
    from ..models.wellsvm import WellSVM

    f2 = cfg["fig2"]
    rows = []
    for name in f2.get("datasets", FIG2_SETS):
        X, y = load_dataset(name)
        c2 = dict(cfg, label_pcts=[f2["label_pct"]])
        tr, te, labelled = split(y, rep, c2)
        Xtr, _ = preprocess(X[tr], X[te])
        gamma = gamma_of(Xtr)
        pos = {v: i for i, v in enumerate(tr)}
        lab = np.array([pos[i] for i in labelled[f2["label_pct"]]])
        ys = np.full(len(tr), -1)
        ys[lab] = y[tr][lab]
        for variant in ("paper", "reference"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = WellSVM(C1=float(cfg["C1"]), C2=float(f2["C2"]), kernel="gaussian",
                              sigma=float(f2["kernel"]) * np.sqrt(gamma), variant=variant,
                              tol=float(cfg["wellsvm_tol"]),
                              max_iter=int(cfg["wellsvm_max_iter"]), random_state=0)
                est.fit(Xtr, ys)
            for it, obj in enumerate(est.objective_path_):
                rows.append({"dataset": name, "variant": variant, "iteration": it,
                             "objective": float(obj)})
    return pd.DataFrame(rows)


def plot_fig2(f2: pd.DataFrame):
    """Fig. 2 analogue: objective per iteration, one panel per variant."""
    import matplotlib.pyplot as plt

    variants = list(dict.fromkeys(f2.variant))
    fig, axes = plt.subplots(1, len(variants), figsize=(5.2 * len(variants), 3.6),
                             squeeze=False)
    title = {"paper": "variant \"paper\": hinge dual without offset (Eq. 14)",
             "reference": "variant \"reference\": the authors' code (µ-SVM)"}
    for ax, v in zip(axes.ravel(), variants, strict=True):
        for name, g in f2[f2.variant == v].groupby("dataset", sort=False):
            ax.plot(g.iteration, g.objective, marker="o", ms=3, label=name)
        ax.set_title(title.get(v, v), fontsize=9)
        ax.set_xlabel("label-generation iteration")
        ax.set_ylabel("objective of Eq. (15) at the iteration")
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_fig1(raw: pd.DataFrame):
    """Fig. 1 analogue: mean fit time (s) per method and label percentage, over every data
    set and repetition (selection time excluded), log scale."""
    import matplotlib.pyplot as plt

    from .. import plots

    g = raw.groupby(["label_pct", "method"], sort=False).seconds.mean().unstack("method")
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    x = np.arange(len(g.index))
    w = 0.8 / max(len(g.columns), 1)
    for i, m in enumerate(g.columns):
        ax.bar(x + i * w - 0.4 + w / 2, g[m].values, width=w, label=m)
    ax.set_xticks(x, [f"{p} % labelled" for p in g.index])
    plots.log_axis(ax, "y")
    ax.set_ylabel("mean fit time (s)")
    ax.set_title("Fig. 1 analogue: CPU time per fit, mean over data sets and repetitions",
                 fontsize=10)
    ax.legend(fontsize=8, ncol=3)
    fig.tight_layout()
    return fig


def metrics(raw, comp, crosscheck_df, *, runtime_seconds: float, profile: str,
            gold: pd.DataFrame | None = None, checks: pd.DataFrame | None = None) -> dict:
    """Headline numbers for ``metrics.json``."""
    verd = comp["verdict"].value_counts().to_dict()
    avg = raw.groupby(["label_pct", "method"]).accuracy.mean()
    extra = {}
    if gold is not None and len(gold):
        extra.update({"golden_split1_correct": int(gold.correct.iloc[0]),
                      "golden_n_test": int(gold.n_test.iloc[0]),
                      "golden_splits": int(len(gold)),
                      "golden_accuracy_mean": float(gold.accuracy.mean()),
                      "golden_accuracy_std": float(gold.accuracy.std(ddof=1))
                      if len(gold) > 1 else 0.0,
                      "golden_seconds_mean": float(gold.seconds.mean())})
    if checks is not None:
        extra.update({"algorithm_checks": int(len(checks)),
                      "algorithm_checks_passed": int(checks.passed.sum())})
    return {**extra,
        "profile": profile, "runtime_seconds": float(runtime_seconds),
        "n_fits": int(len(raw)),
        "mean_accuracy": {f"{p}%": {m: float(v) for (pp, m), v in avg.items() if pp == p}
                          for p in sorted(raw.label_pct.unique())},
        "nonconverged_fits": int((~raw.converged).sum()),
        "verdicts": {k: int(v) for k, v in verd.items()},
        "crosscheck_max_rel_gap": float(crosscheck_df["rel_gap"].max()),
    }


# --------------------------------------------------------------------------- certification
def _toy(n, d=2, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) < n // 2, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 1.2 * y[:, None]
    return X, y


def crosscheck(cfg: dict, *, seed: int = 0) -> list[dict]:
    """The solvers of this stage against cvxpy on small problems (``crosscheck.csv`` rows):

    - the SMO core on a label kernel (:func:`weaklabel.solvers.smo.label_kernel_dual`), both
      problem types, against :func:`weaklabel.reference.smo.label_kernel_dual_reference`;
    - the MLKL step of Eq. (15) (MKLGL, :func:`weaklabel.solvers.wellsvm.mlkl`) against one
      convex program (:func:`weaklabel.reference.wellsvm.mlkl_reference`), both variants;
    - one CCCP step of USVM (:func:`weaklabel.solvers.cccp_tsvm.cccp_step`) is certified in
      the tests (``tests/test_ssl_baselines.py``).
    """
    from ..compare import crosscheck_record
    from ..kernels import gram
    from ..reference.smo import (
        box_dual_kkt_violation,
        label_kernel_dual_reference,
        label_kernel_matrix,
        simplex_dual_kkt_violation,
    )
    from ..reference.wellsvm import mlkl_reference
    from ..solvers.smo import KernelRowCache, label_kernel_dual
    from ..solvers.wellsvm import mlkl

    rng = np.random.default_rng(seed)
    out = []
    for n, T in ((30, 1), (40, 3)):
        X, y = _toy(n, seed=seed + n)
        K = gram(X, X, "gaussian", sigma=1.0)
        labels = np.vstack([y] + [np.where(rng.random(n) < 0.5, 1.0, -1.0)
                                  for _ in range(T - 1)])
        mu = rng.dirichlet(np.ones(T))
        C = np.where(np.arange(n) < n // 4, 1.0, 0.1)
        for problem in ("box", "simplex"):
            diag = 1.0 / C if problem == "simplex" else None
            t0 = time.perf_counter()
            r = label_kernel_dual(X, labels, mu, C, "gaussian", problem=problem, diag=diag,
                                  eps=1e-9)  # Gaussian of width 1, as K
            ts = time.perf_counter() - t0
            ref = label_kernel_dual_reference(K, labels, mu, C, problem=problem, diag=diag)
            Q = label_kernel_matrix(K, labels, mu, diag)
            kkt = (box_dual_kkt_violation(Q, r.alpha, C) if problem == "box"
                   else simplex_dual_kkt_violation(Q, r.alpha))
            out.append(crosscheck_record(
                f"label-kernel dual ({problem}), Gaussian, n={n}, T={T}",
                "smo.label_kernel_dual", "cvxpy (Clarabel)", n, r.objective, ref.objective,
                kkt, ts, ref.seconds))
    out += _oracle_crosschecks(rng)
    for n, T in ((24, 2), (36, 4)):
        X, y = _toy(n, seed=seed + 100 + n)
        K = gram(X, X, "gaussian", sigma=1.0)
        labels = np.vstack([y] + [np.where(rng.random(n) < 0.5, 1.0, -1.0)
                                  for _ in range(T - 1)])
        C = np.where(np.arange(n) < n // 4, 1.0, 0.1)
        for problem in ("box", "simplex"):
            diag = 1.0 / C if problem == "simplex" else None
            cache = KernelRowCache(X, kernel="gaussian", cache_mb=50.0)
            t0 = time.perf_counter()
            m = mlkl(cache, labels, C, problem=problem, diag=diag, tol=1e-7, max_iter=2000,
                     inner_eps=1e-9, X=X, kernel="gaussian")
            ts = time.perf_counter() - t0
            ref = mlkl_reference(K, labels, C, problem=problem, diag=diag)
            out.append(crosscheck_record(
                f"MLKL of Eq. (15) ({problem}), Gaussian, n={n}, T={T}", "wellsvm.mlkl",
                "cvxpy epigraph (Clarabel)", n, m.objective, ref.objective, m.gap, ts,
                ref.seconds))
    return out


def _oracle_crosschecks(rng, n_random: int = 50) -> list[dict]:
    """The three sorting oracles against brute force over the label set, as crosscheck rows:
    ``objective`` = the worst oracle value ``r'y*`` relative to the brute-force maximum over
    ``n_random`` random ``r`` (``rel_gap`` is then the worst relative shortfall)."""
    from ..compare import crosscheck_record
    from ..reference.wellsvm import (
        brute_force_argmax,
        brute_force_bags,
        enumerate_band_labels,
        enumerate_ssl_labels,
    )
    from ..solvers.wellsvm import bag_argmax_oracle, band_oracle, sort_oracle_ssl, ssl_n_pos

    def one(name, draw):
        worst, worst_pair, ts, tr = -1.0, (0.0, 0.0), 0.0, 0.0
        for _ in range(n_random):
            r, oracle, brute = draw()
            t0 = time.perf_counter()
            v = oracle(r)
            t1 = time.perf_counter()
            b = brute(r)
            t2 = time.perf_counter()
            ts, tr = ts + t1 - t0, tr + t2 - t1
            gap = abs(v - b) / max(1.0, abs(b))
            if gap > worst:
                worst, worst_pair = gap, (v, b)
        return crosscheck_record(name, "wellsvm oracle", "brute force over the label set",
                                 12, worst_pair[0], worst_pair[1], 0.0, ts, tr)

    def ssl():
        n, l = 12, 4
        mask = np.zeros(n, dtype=bool)
        mask[rng.choice(n, l, replace=False)] = True
        y_l = np.where(rng.random(l) < 0.5, 1.0, -1.0)
        y_l[:2] = [1.0, -1.0]
        npos = ssl_n_pos(n - l, y_l)
        B = enumerate_ssl_labels(y_l, mask, npos)
        return (rng.normal(size=n),
                lambda r: float(r @ sort_oracle_ssl(r, r, y_l, mask, npos)),
                lambda r: brute_force_argmax(r, B)[1])

    band_set = enumerate_band_labels(12, 2)

    def band():
        return (rng.normal(size=12), lambda r: float(r @ band_oracle(r, 2)),
                lambda r: brute_force_argmax(r, band_set)[1])

    ptr = np.array([0, 3, 5, 8, 9, 12])

    def bags():
        return (rng.normal(size=12), lambda r: float(r @ bag_argmax_oracle(r, ptr)),
                lambda r: brute_force_bags(r, ptr)[1])

    return [one(f"SSL sorting oracle, Eq. (22), N = 12, u = 8 ({n_random} random r)", ssl),
            one(f"clustering band oracle, Eqs. (37)-(38), N = 12, beta = 2 ({n_random} "
                "random r)", band),
            one(f"MIL per-bag argmax, Eq. (31), 5 bags, 12 instances ({n_random} random r)",
                bags)]


def algorithm_checks(cfg: dict, *, seed: int = 0, n_random: int = 50) -> pd.DataFrame:
    """The paper's propositions checked on small problems, one row per check:

    - the three sorting oracles (Eq. (22) SSL balance, Eqs. (37)-(38) clustering band,
      Eq. (31) per-bag argmax) against brute force over the label set, ``n_random`` random
      ``r`` each (u <= 12);
    - Proposition 4 at every label WellSVM adds, and Theorem 2's non-increasing objective,
      on a two-moons problem (variant ``"paper"``, tight MKL tolerance);
    - Theorem 1's ordering ``p_SDP <= p_WellSVM <= p_MIP`` (SSL form, N = 12; SDP with
      cvxpy, MIP by enumeration, WellSVM by the cutting plane with the exact oracle).
    """
    from sklearn.datasets import make_moons

    from ..kernels import gram, make_kernel
    from ..reference.wellsvm import (
        brute_force_argmax,
        brute_force_bags,
        enumerate_band_labels,
        enumerate_ssl_labels,
        p_mip,
        p_sdp,
        p_wellsvm,
    )
    from ..solvers.wellsvm import (
        bag_argmax_oracle,
        band_oracle,
        gamma_width,
        sort_oracle_ssl,
        ssl_n_pos,
        wellsvm,
    )

    rng = np.random.default_rng(seed)
    rows = []

    def add(check, detail, passed):
        rows.append({"check": check, "detail": detail, "passed": bool(passed)})

    ok = 0
    for _ in range(n_random):
        n, l = 12, 4
        mask = np.zeros(n, dtype=bool)
        mask[rng.choice(n, l, replace=False)] = True
        y_l = np.where(rng.random(l) < 0.5, 1.0, -1.0)
        y_l[:2] = [1.0, -1.0]
        npos = ssl_n_pos(n - l, y_l)
        r = rng.normal(size=n)
        y = sort_oracle_ssl(r, r, y_l, mask, npos)
        _, best = brute_force_argmax(r, enumerate_ssl_labels(y_l, mask, npos))
        ok += abs(float(r @ y) - best) <= 1e-12 * max(1.0, abs(best))
    add("Eq. (22) / Prop. 5: SSL sorting oracle = brute force",
        f"{ok} of {n_random} random r (N = 12, u = 8)", ok == n_random)
    ok = 0
    for _ in range(n_random):
        n, beta = 12, 2
        r = rng.normal(size=n)
        y = band_oracle(r, beta)
        _, best = brute_force_argmax(r, enumerate_band_labels(n, beta))
        ok += abs(float(r @ y) - best) <= 1e-12 * max(1.0, abs(best))
    add("Eqs. (37)-(38): clustering band oracle = brute force",
        f"{ok} of {n_random} random r (N = 12, beta = 2)", ok == n_random)
    ok = 0
    for _ in range(n_random):
        sizes = rng.integers(1, 4, size=4)
        ptr = np.r_[0, np.cumsum(sizes)]
        r = rng.normal(size=int(ptr[-1]))
        d = bag_argmax_oracle(r, ptr)
        _, best = brute_force_bags(r, ptr)
        ok += abs(float(r @ d) - best) <= 1e-12 * max(1.0, abs(best))
    add("Eq. (31): per-bag argmax oracle = brute force",
        f"{ok} of {n_random} random r (4 bags of 1-3 instances)", ok == n_random)

    X, yt = make_moons(160, noise=0.15, random_state=seed)
    yt = 2.0 * yt - 1.0
    lab = np.concatenate([rng.choice(np.flatnonzero(yt == c), 6, replace=False)
                          for c in (-1.0, 1.0)])
    yv = np.zeros(len(yt))
    yv[lab] = yt[lab]
    k = make_kernel("gaussian", sigma=0.5 * gamma_width(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = wellsvm(X, yv, 1.0, 0.1, k, variant="paper", mkl_tol=1e-7, inner_eps=1e-8)
    added = [c for c in res.prop4_checks if c.get("added")]
    add("Prop. 4: every added label is violated (y*'Hy* > max over the working set)",
        f"{sum(c['holds'] and c['increase'] for c in added)} of {len(added)} added labels "
        "(two moons, N = 160, 12 labelled)",
        all(c["holds"] and c["increase"] for c in added))
    path = np.asarray(res.objective_path)
    rise = float(np.max(np.diff(path) / np.maximum(np.abs(path[:-1]), 1e-12))) \
        if len(path) > 1 else 0.0
    add("Theorem 2: objective non-increasing over outer iterations",
        f"{len(path)} iterations, largest relative increase {max(rise, 0.0):.1e} "
        "(MKL tolerance 1e-7)", rise <= 1e-5)

    n, l = 12, 4
    Xs = np.vstack([rng.normal(-1, 1, size=(n // 2, 2)), rng.normal(1, 1, size=(n // 2, 2))])
    K = gram(Xs, kernel=make_kernel("gaussian", sigma=1.0))
    mask = np.zeros(n, dtype=bool)
    mask[[0, 1, 6, 7]] = True
    y_l = np.array([-1.0, -1.0, 1.0, 1.0])
    npos = ssl_n_pos(n - l, y_l)
    C = np.where(mask, 1.0, 0.5)
    B = enumerate_ssl_labels(y_l, mask, npos)
    mip, _ = p_mip(K, B, C)
    well, _ = p_wellsvm(K, B, C)
    sdp = p_sdp(K, C, form="ssl", y_l=y_l, labelled_mask=mask, n_pos=npos)
    add("Theorem 1: p_SDP <= p_WellSVM <= p_MIP",
        f"{sdp:.6f} <= {well:.6f} <= {mip:.6f} (SSL form, N = 12, {len(B)} labelings)",
        sdp <= well * (1 + 1e-5) and well <= mip * (1 + 1e-6))
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- report views
def side_by_side(raw: pd.DataFrame, pub: pd.DataFrame, pct: int) -> pd.DataFrame:
    """One table of the paper, wide: per data set a row ``ours`` (mean ± std (rank)) and a
    row ``paper``; columns are the methods (the extra ``WellSVM (code)`` has no paper row)."""
    art = TABLES[pct]
    t = table(raw, pct)
    t["cell"] = [f"{m:.3f} ± {s:.3f}" + (f" ({r:g})" if np.isfinite(r) else "")
                 for m, s, r in zip(t["mean"], t["std"], t["rank"], strict=True)]
    ours = t.pivot(index="dataset", columns="method", values="cell")
    p = pub[pub.artifact == art]
    rows = []
    for ds in ours.index:
        row = _pub_row_name(pub, art, ds)
        rows.append(pd.Series({m: _pub_cell(p, row, m) for m in ours.columns},
                              name=(ds, "paper")))
    paper = pd.DataFrame(rows)
    ours.index = pd.MultiIndex.from_tuples([(d, "ours") for d in ours.index])
    out = pd.concat([ours, paper])
    order = [d for d in dict.fromkeys(raw.dataset)]
    out = out.reindex(pd.MultiIndex.from_tuples([(d, s) for d in order
                                                 for s in ("ours", "paper")]))
    cols = [m for m in list(METHODS) + list(EXTRA) if m in out.columns]
    return out[cols].fillna("")


def _pub_cell(p, row, method):
    v = p[(p.row == row) & (p.column == method)]
    if not len(v):
        return ""
    rk = p[(p.row == row) & (p.column == f"{method}, rank")]
    sp = v.spread.iloc[0]
    txt = f"{v.value.iloc[0]:.2f}" + (f" ± {sp:.2f}" if pd.notna(sp) else "")
    return txt + (f" ({rk.value.iloc[0]:g})" if len(rk) else "")


def summary_side_by_side(raw: pd.DataFrame, pub: pd.DataFrame, pct: int) -> pd.DataFrame:
    """The summary rows (SVM's win/tie/loss against each method, average accuracy, average
    rank): ours next to the paper's."""
    art = TABLES[pct]
    s = summary_rows(table(raw, pct)).set_index("method")
    p = pub[pub.artifact == art]
    out = {}
    for m in s.index:
        def pv(row, col):
            v = p[(p.row == row) & (p.column == col)].value
            return float(v.iloc[0]) if len(v) else np.nan
        acc_row = "ave. acc." if art == "Table 2" else "avg. acc."
        rank_row = "ave. rank" if art == "Table 2" else "avg. rank"
        wtl = ("–" if m == "SVM" else
               f"{s.loc[m, 'win']:.0f}/{s.loc[m, 'tie']:.0f}/{s.loc[m, 'loss']:.0f}")
        pw = ("–" if m == "SVM" else "/".join(
            f"{pv('SVM: win/tie/loss', f'{m}, {k}'):.0f}" for k in ("win", "tie", "loss")))
        out[m] = {"SVM: win/tie/loss, ours": wtl, "paper": pw,
                  "avg. acc., ours": f"{s.loc[m, 'avg_acc']:.3f}",
                  "paper ": f"{pv(acc_row, m):.3f}",
                  "avg. rank, ours": f"{s.loc[m, 'avg_rank']:.3f}",
                  "paper  ": f"{pv(rank_row, m):.4f}"}
    return pd.DataFrame(out).T


def selection_summary(raw: pd.DataFrame) -> pd.DataFrame:
    """Per method: how often each (kernel, C2) was chosen, the share of fits that used the
    declared default (no selection), and WellSVM's iteration counts."""
    g = raw.assign(setting=raw.kernel + ", C2 = " + raw.C2.map(lambda v: f"{v:g}"))
    tab = g.pivot_table(index="method", columns="setting", values="accuracy",
                        aggfunc="size", fill_value=0)
    tab["default (not selected)"] = g.groupby("method").selected.apply(lambda v: int((~v).sum()))
    it = g.groupby("method").n_iter.median()
    tab["median n_iter_"] = it
    return tab.reindex([m for m in list(METHODS) + list(EXTRA) if m in tab.index])


def nonconverged_note(raw: pd.DataFrame) -> str:
    """Markdown: fits that stopped at an iteration cap, per method, and the cells they
    feed."""
    bad = raw[~raw.converged]
    if not len(bad):
        return "Every fit of Tables 2–4 stopped before its iteration cap."
    parts = []
    for m, g in bad.groupby("method", sort=False):
        cells = g.groupby(["dataset", "label_pct"]).ngroups
        parts.append(f"**{m}**: {len(g)} of {int((raw.method == m).sum())} fits, in "
                     f"{cells} table cells")
    return ("Fits that stopped at their iteration cap (the last model is scored): "
            + "; ".join(parts) + ".")


def rssl_golden(cfg: dict | None = None, *, splits=None) -> pd.DataFrame:
    """The golden check against the authors' code: RSSL's ``diabetes`` splits (data layer
    ``rssl-diabetes``: 86 labelled, 490 unlabelled, 192 test points per split) with the
    authors' defaults C1 = 1, C2 = 0.1 and their kernel ``exp(-||x - x'||^2 / dbar^2)``
    (``dbar^2`` the mean squared distance over the training and unlabelled points, i.e.
    Gaussian ``gamma = 1 / dbar^2``), ``variant="reference"``; one row per split with the
    test accuracy and the number of correct test points (the R port of the authors' MATLAB
    code gives 151 of 192 on split 1)."""
    from ..kernels import make_kernel
    from ..solvers.wellsvm import wellsvm, wellsvm_decision_function

    ds = load("rssl-diabetes")
    sp = ds.splits
    n_splits = sp["labelled"].shape[0]
    if splits is None and cfg is not None and cfg.get("golden_splits") is not None:
        splits = range(min(int(cfg["golden_splits"]), n_splits))
    rows = []
    for i in range(n_splits) if splits is None else splits:
        lab, unl, te = sp["labelled"][i], sp["unlabelled"][i], sp["test"][i]
        X = np.vstack([ds.X[lab], ds.X[unl]])
        y = np.concatenate([np.where(ds.y[lab] > 0, 1.0, -1.0), np.zeros(unl.size)])
        k = make_kernel("gaussian", gamma=1.0 / gamma_of(X))
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = wellsvm(X, y, 1.0, 0.1, k, variant="reference", random_state=0)
        sec = time.perf_counter() - t0
        f = wellsvm_decision_function(r, X, ds.X[te])
        ok = int(np.sum(np.where(f >= 0, 1.0, -1.0) == np.where(ds.y[te] > 0, 1.0, -1.0)))
        rows.append({"split": i + 1, "n_test": int(te.size), "correct": ok,
                     "accuracy": ok / te.size, "seconds": sec, "n_outer": r.n_outer})
    return pd.DataFrame(rows)
