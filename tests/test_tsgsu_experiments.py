"""The TSGSU protocol module (``weaklabel.experiments.tsgsu``) on small hand-made inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

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
    cl = E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg).set_index("claim")
    assert cl.loc["2a", "holds"] and cl.loc["2b", "holds"]       # kernel > linear; CUU, TSGSU best
    assert cl.loc["3a", "holds"]                                   # CUU 1 s < TSGSU 5 s
    assert cl.loc["5", "holds"] and cl.loc["10", "holds"] and cl.loc["4a", "holds"]
    assert cl.loc["1", "holds"]                                    # slope -0.5
    assert cl.loc["4b", "holds"] is None                           # no n_U = 100 000 runs
    comp = E.comparison(raw, cl.reset_index(), cfg)
    assert list(comp.columns) == COLUMNS and set(comp.verdict) <= set(VERDICTS)
    claims = comp[comp.artifact.str.startswith("Claim")]
    assert len(claims) == len(cl)
    assert set(claims[claims.reproduced == 1.0].verdict) == {"match"}
    assert claims[claims.reproduced.isna()].note.str.startswith("not tested").all()
    cells = comp[~comp.artifact.str.startswith("Claim")]
    assert (cells.verdict == "not_published").all()
    tsg = cells[(cells.row == "Combined") & (cells.column == "TSGSU")]
    assert tsg.reproduced.iloc[0] == pytest.approx(86.5)
