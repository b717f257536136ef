"""The TSGSU protocol module (``weaklabel.experiments.tsgsu``) on small hand-made inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel.causes import CAUSE_COLUMNS
from weaklabel.compare import COLUMNS, VERDICTS
from weaklabel.experiments import tsgsu as E


def test_config_rejects_unknown_keys_and_methods():
    with pytest.raises(ValueError, match="unknown tsgsu parameter"):
        E.config({"n_trail": 3})
    with pytest.raises(ValueError, match="unknown method"):
        E.config({"methods": ["SVM"]})
    cfg = E.config({"rate": {"reps": 1}})
    assert cfg["rate"]["reps"] == 1 and cfg["rate"]["Ts"] == E.DEFAULTS["rate"]["Ts"]


def test_folds_keep_pairs_whole_and_cover_everything():
    folds = E._folds(10, 23, 5, np.random.default_rng(0))
    seen_s, seen_u = [], []
    for st, sv, ut, uv in folds:
        assert np.all(sv[::2] % 2 == 0) and np.all(sv[1::2] == sv[::2] + 1)
        assert not set(st) & set(sv) and not set(ut) & set(uv)
        seen_s += list(sv)
        seen_u += list(uv)
    assert sorted(seen_s) == list(range(20)) and sorted(seen_u) == list(range(23))


def test_step_grid_respects_eta_lambda_below_one():
    cfg = E.config({"lam_grid": [0.01, 0.5], "tsgsu_eta0_grid": [1.0, 4.0]})
    grid = E._hp_grid("TSGSU", "rbf", cfg, {"gamma": 0.1})
    assert all(g["eta0"] * g["lam"] < 1 for g in grid)
    assert {(g["lam"], g["eta0"]) for g in grid} == {(0.01, 1.0), (0.01, 4.0), (0.5, 1.0)}
    assert all(g["gamma"] == 0.1 for g in grid)
    assert len(E._hp_grid("SUSL(Nonlinear)", "rbf", cfg, None)) == 2 * len(cfg["gamma_grid"])
    assert E._hp_grid("SUDH(Linear)", "rbf", cfg, {"gamma": 1.0}) == [{"lam": 0.01},
                                                                     {"lam": 0.5}]


def test_not_run_reason():
    cfg = E.config({})
    assert E.not_run_reason("SUDH(Linear)", 10000, 20958, cfg).startswith("not run")
    assert E.not_run_reason("SUDH(Linear)", 100000, 10, cfg).startswith("not run")
    assert E.not_run_reason("SUSL(Linear)", 100000, 20958, cfg) is None


def _raw():
    rows = []
    acc = {"SUSL(Linear)": 0.70, "SUSL(Nonlinear)": 0.80, "SUDH(Linear)": 0.71,
           "SUDH(Nonlinear)": 0.79, "CUU": 0.85, "CUU(2000)": 0.84, "TSGSU": 0.86}
    for d in ("Combined", "Covtype"):
        for t in range(2):
            for m, a in acc.items():
                rows.append({"dataset": d, "trial": t, "method": m, "correction": "abs",
                             "accuracy": a + 0.01 * t, "seconds": 1.0 if m != "TSGSU" else 5.0,
                             "mode": "faithful" if (m == "TSGSU" and t == 0) else "cached",
                             "status": "ok"})
    return pd.DataFrame(rows)


def test_claims_and_comparison_from_hand_made_results():
    cfg = E.config({"table4_sets": ["Combined", "Covtype"], "table5_sets": []})
    raw = _raw()
    abl = pd.concat([raw[raw.method == "TSGSU"],
                     raw[raw.method == "TSGSU"].assign(correction="none",
                                                       accuracy=lambda d: d.accuracy - 0.1)])
    mem = pd.DataFrame({"n_unlabelled": [1000, 10000], "n_train": [1300, 10300],
                        "peak_mb": [15.0, 15.2], "data_mb": [1, 10],
                        "susl_all_gram_gb": [0.01, 90.0]})
    rate = pd.DataFrame({"correction": ["abs"] * 3 + ["none"] * 3, "rep": 0,
                         "T": [10, 100, 1000] * 2,
                         "mean_sq_grad": [1.0, 0.3, 0.1, 1.0, 0.3, 0.1]})
    lem = pd.DataFrame({"theta": [1.0, 0.5, 1.0, 0.5], "features_per_iteration": [10, 10, 100, 100],
                        "seeds": 3, "mean_sq_gap": [4e-2, 1e-2, 4e-3, 1.5e-3]})
    cl = E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg, lem).set_index("claim")
    assert cl.loc["1b", "holds"] is False and "2.00 with 10" in cl.loc["1b", "evidence"]
    assert E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg).set_index("claim").loc[
        "1b", "holds"] is None
    assert cl.loc["2a", "holds"] and cl.loc["2b", "holds"]       # kernel > linear; CUU, TSGSU best
    assert cl.loc["3a", "holds"]                                   # CUU 1 s < TSGSU 5 s
    assert cl.loc["5", "holds"] and cl.loc["10", "holds"] and cl.loc["4a", "holds"]
    assert cl.loc["1", "holds"]                                    # slope -0.5
    for c in ("4b", "4c", "4d", "6b"):                             # no n_U = 100 000 runs
        assert cl.loc[c, "holds"] is None
    assert cl.loc["6b", "evidence"].startswith("not run in this profile")
    comp = E.comparison(raw, cl.reset_index(), cfg)
    assert list(comp.columns) == COLUMNS + CAUSE_COLUMNS and set(comp.verdict) <= set(VERDICTS)
    assert (comp[comp.verdict == "differs"].cause != "").all()
    claims = comp[comp.artifact.str.startswith("Claim")]
    assert len(claims) == len(cl)
    # a claim that holds on a declared substitute is shown, not counted as a match
    assert set(claims[claims.reproduced == 1.0].verdict) == {"match", "not_comparable"}
    untested = claims[claims.reproduced.isna()]
    assert (untested.verdict == "not_run").all()
    assert untested.note.str.contains("not tested").all()
    cells = comp[~comp.artifact.str.startswith("Claim")]
    assert (cells.verdict == "not_published").all()
    tsg = cells[(cells.row == "Combined") & (cells.column == "TSGSU")]
    assert tsg.reproduced.iloc[0] == pytest.approx(86.5)


def test_large_run_claims_from_hand_made_curves():
    """Claims 4b-4d (Fig. 2) and 6b (Fig. 4) read the n_U = 100 000 curves."""
    cfg = E.config({"table4_sets": ["Combined"], "table5_sets": ["Sim"]})
    curves = {"TSGSU": ([2.0, 10.0, 20.0], [0.80, 0.86, 0.865], 20.0, 0.865),
              "CUU": ([30.0, 200.0, 400.0], [0.70, 0.80, 0.86], 400.0, 0.86),
              "CUU(2000)": ([5.0, 8.0, 12.0], [0.60, 0.84, 0.85], 12.0, 0.85)}
    large = pd.DataFrame([{"dataset": d, "trial": 0, "method": m, "accuracy": acc,
                           "seconds": secs, "curve_time": ct, "curve_acc": ca}
                          for d in ("Combined", "Sim")
                          for m, (ct, ca, secs, acc) in curves.items()])
    mem = pd.DataFrame({"n_unlabelled": [1000, 100000], "n_train": [1300, 110000],
                        "peak_mb": [15.0, 15.2], "data_mb": [1, 10],
                        "susl_all_gram_gb": [0.01, 90.0]})
    cl = E.claims(_raw(), large, pd.DataFrame(), mem, pd.DataFrame(), cfg).set_index("claim")
    assert cl.loc["4b", "holds"]            # TSGSU within a point after 10 s, CUU(All) 400 s
    assert cl.loc["4c", "holds"] is False   # CUU(2000) within a point after 8 s
    assert cl.loc["4d", "holds"]            # first model: 2 s against 5 s and 30 s
    assert cl.loc["6b", "holds"]            # sooner than CUU(All); CUU(2000) quicker, worse
    assert "Sim" in cl.loc["6b", "evidence"] and "Combined" not in cl.loc["6b", "evidence"]


def test_cuu_all_in_the_first_trials_only_and_marked_in_the_table():
    cfg = E.config({"cuu_all_trials": 1, "methods": ["CUU"], "n_pairs": 50,
                    "n_unlabelled": 100})
    row, = E.run_trial("Combined", 1, cfg, settings={})  # skipped before any fit
    assert row["status"].startswith("not run: CUU(All) in the first 1 trial")
    assert np.isnan(row["accuracy"])
    raw = _raw()
    raw.loc[(raw.method == "CUU") & (raw.trial == 1), "accuracy"] = np.nan
    w = E.wide(E.table(raw, ["Combined"]))
    assert w.loc["Combined", "CUU"] == "85.0 (1 trial)"
    assert w.loc["Combined", "TSGSU"] == "86.5 ± 0.5"
