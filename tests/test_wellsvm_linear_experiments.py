"""The large-scale linear experiments of Li et al. 2013 (Section 5.1.2: Table 5, Figs. 3-4;
Section 5.3: Figs. 8-9) on tiny substitutes: configuration errors, one task of each grid,
the summaries, claims and the comparison contract."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel.causes import CAUSE_COLUMNS
from weaklabel.compare import COLUMNS
from weaklabel.experiments import wellsvm_linear as E


def _cfg(**kw):
    base = {"table5_n_points": {"real-sim": 800, "rcv1": 800}, "labelled": [25],
            "n_reps": 2, "C2_grid": [0.1], "cv_folds": 2,
            "fig_n_points": {"real-sim": 1200, "rcv1": 1200}, "fractions": [0.1, 0.75],
            "fig_reps": 1, "svmlin_max_n": 500, "svmlin_time_limit": 60.0,
            "cluster_n_points": {"real-sim": 400, "rcv1": 400}, "rates": [0.5, 1.0],
            "n_subsamples": 1, "kmeans_runs": 2, "max_outer": 5,
            "crosscheck": {"n": 30, "n_text": 300}}
    base.update(kw)
    return E.wellsvm_linear_config(base)


@pytest.mark.parametrize("params, match", [
    ({"nope": 1}, "unknown wellsvm_linear parameter"),
    ({"datasets": ["news20"]}, "unknown dataset"),
    ({"n_reps": 0}, "n_reps"),
    ({"cv_folds": 1}, "cv_folds"),
    ({"C2_grid": [0.0]}, "C2_grid"),
    ({"fractions": [0.8]}, "fractions"),
    ({"rates": [1.5]}, "rates"),
    ({"cluster_C": 0.0}, "cluster_C"),
])
def test_config_errors_name_the_key(params, match):
    with pytest.raises(ValueError, match=match):
        E.wellsvm_linear_config(params)


def test_config_defaults_and_profile_key():
    cfg = E.wellsvm_linear_config({"profile": "smoke", "tolerances": {"cell": 0.1}})
    assert cfg["n_reps"] == 30 and cfg["tolerances"]["cell"] == 0.1
    assert "profile" not in cfg


def test_substitute_is_deterministic_and_checked():
    Xa, ya = E.load_linear_set("rcv1", 300)
    E._generated.cache_clear()
    Xb, yb = E.load_linear_set("rcv1", 300)
    assert (Xa != Xb).nnz == 0 and np.array_equal(ya, yb)
    assert abs(np.mean(ya > 0) - E.LINEAR_SETS["rcv1"]["positive_prior"]) < 0.1
    with pytest.raises(ValueError, match="dataset"):
        E.load_linear_set("news20", 10)


def test_one_task_of_each_grid_and_the_summaries():
    cfg = _cfg()
    r5 = [E.run_table5_task("rcv1", 25, rep, cfg) for rep in range(2)]
    raw5 = pd.DataFrame(r5)
    assert raw5.n_train.iloc[0] == 600 and raw5.n_test.iloc[0] == 200
    assert raw5.svm_accuracy.between(0, 1).all() and raw5.wellsvm_accuracy.between(0, 1).all()
    t5 = E.table5_summary(raw5, cfg)
    assert len(t5) == 1 and t5.n_reps.iloc[0] == 2
    r34 = pd.DataFrame([E.run_fig34_task("real-sim", f, 0, cfg) for f in (0.1, 0.75)])
    assert r34.svmlin_status.tolist() == ["finished", "not run: N > svmlin_max_n = 500"]
    assert np.isnan(r34.svmlin_accuracy.iloc[1])
    f34 = E.fig34_summary(r34)
    t34 = E.times_summary(r34, ["dataset", "fraction"], "n_train")
    assert set(t34.method) == {"SVM", "SVMlin", "WellSVM"}
    assert not any(c.endswith("_seconds") for c in E.strip_times(r34).columns)
    r89 = pd.DataFrame([E.run_fig89_task("rcv1", r, 0, cfg) for r in (0.5, 1.0)])
    assert r89.n.tolist() == [200, 400]
    f89 = E.fig89_summary(r89)
    t89 = E.times_summary(r89, ["dataset", "rate"], "n")
    cl = E.linear_claims(t5, f34, f89, cfg, t34, t89)
    assert set(cl.claim) >= {"L1", "L1b", "L2", "L3", "L4", "L5", "L6", "L7"}
    assert set(cl.kind) == {"accuracy", "timing"}
    comp = E.linear_comparison(t5, cfg)
    assert list(comp.columns) == COLUMNS + CAUSE_COLUMNS and len(comp) == 2
    assert comp.note.str.contains("substitute: sparse_text").all()
    m = E.linear_metrics(t5, f34, f89, cl[cl.kind == "accuracy"], comp,
                         pd.DataFrame({"rel_gap": [0.0]}), runtime_seconds=1.0,
                         profile="smoke")
    assert m["table5_cells"] == 1


def test_claims_on_a_hand_made_frame():
    cfg = _cfg()
    t5 = pd.DataFrame({"dataset": ["a", "a"], "labelled": [25, 50], "n_reps": [5, 5],
                       "svm_mean": [0.7, 0.8], "svm_std": [0.01, 0.01],
                       "wellsvm_mean": [0.8, 0.85], "wellsvm_std": [0.01, 0.01],
                       "p_value": [0.001, 0.2], "wellsvm_better": [True, False],
                       "C2_mode": [0.1, 0.1]})
    f34 = pd.DataFrame({"dataset": ["a", "a"], "fraction": [0.1, 0.5], "n_train": [100, 1000],
                        "svm_accuracy": [0.7, 0.7], "svmlin_accuracy": [0.6, 0.65],
                        "wellsvm_accuracy": [0.8, 0.9], "svmlin_finished": [1, 1]})
    t34 = pd.DataFrame({"dataset": ["a"] * 4, "fraction": [0.1, 0.1, 0.5, 0.5],
                        "method": ["SVMlin", "WellSVM"] * 2, "n_train": [100, 100, 1000, 1000],
                        "seconds": [1.0, 0.5, 100.0, 5.0]})
    f89 = pd.DataFrame({"dataset": ["a", "a"], "rate": [0.5, 1.0], "n": [100, 200],
                        "wellsvm_accuracy": [0.9, 0.9], "kmeans_accuracy": [0.8, 0.95]})
    cl = E.linear_claims(t5, f34, f89, cfg, t34, None).set_index("claim")
    assert cl.loc["L1", "holds"] == False  # noqa: E712
    assert cl.loc["L1b", "holds"] == True  # noqa: E712
    assert cl.loc["L2", "holds"] == True  # noqa: E712
    assert cl.loc["L3", "holds"] == True  # noqa: E712  (ratio 2 -> 20)
    assert cl.loc["L5", "holds"] == True  # noqa: E712  (slope log(10)/log(10) = 1)
    assert "L7" not in cl.index  # no clustering timings given
    assert E.loglog_slope([10, 100], [1, 100]) == pytest.approx(2.0)
    assert np.isnan(E.loglog_slope([10], [1]))
