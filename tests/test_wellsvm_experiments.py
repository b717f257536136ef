"""The WellSVM semi-supervised protocol (weaklabel.experiments.wellsvm) on synthetic rows."""

import numpy as np
import pandas as pd
import pytest

from weaklabel.experiments import wellsvm as E
from weaklabel.experiments import wellsvm_fig1 as F1


def test_config_rejects_unknown_keys_and_datasets():
    with pytest.raises(ValueError, match="unknown wellsvm parameter"):
        E.config({"n_rep": 3})
    with pytest.raises(ValueError, match="unknown dataset"):
        E.config({"datasets": ["Heart", "Nope"]})
    assert E.config({"profile": "smoke"})["n_reps"] == E.DEFAULTS["n_reps"]


def test_split_is_stratified_nested_and_seeded():
    y = np.r_[np.zeros(300, int), np.ones(100, int)]
    cfg = E.config({})
    tr, te, lab = E.split(y, 0, cfg)
    assert len(te) == 100 and len(np.intersect1d(tr, te)) == 0
    assert abs(np.mean(y[te]) - 0.25) < 0.02
    assert [len(lab[p]) for p in (5, 10, 15)] == [20, 40, 60]
    assert set(lab[5]) <= set(lab[10]) <= set(lab[15]) <= set(tr)
    for p in (5, 10, 15):
        assert set(np.unique(y[lab[p]])) == {0, 1}
    tr2, te2, lab2 = E.split(y, 0, cfg)
    assert np.array_equal(te, te2) and np.array_equal(lab[10], lab2[10])
    assert not np.array_equal(E.split(y, 1, cfg)[1], te)


def test_gamma_is_the_mean_squared_distance_over_all_pairs():
    X = np.random.default_rng(0).normal(size=(30, 4))
    D2 = ((X[:, None] - X[None]) ** 2).sum(-1)
    assert E.gamma_of(X) == pytest.approx(D2.mean(), rel=1e-12)


def test_preprocess_uses_training_statistics():
    rng = np.random.default_rng(1)
    A, B = rng.uniform(2, 5, size=(50, 3)), rng.uniform(2, 5, size=(10, 3))
    A2, B2 = E.preprocess(A, B)
    np.testing.assert_allclose(A2.mean(axis=0), 0.0, atol=1e-12)
    assert np.all(A2.max(axis=0) - A2.min(axis=0) <= 1 + 1e-12)


def _raw(means, reps=5, seed=0):
    """Synthetic raw rows: per (dataset, method) accuracies around the given means."""
    rng = np.random.default_rng(seed)
    rows = []
    for ds, by_method in means.items():
        for rep in range(reps):
            noise = rng.normal(0, 0.01)
            for m, mu in by_method.items():
                rows.append({"dataset": ds, "rep": rep, "label_pct": 5, "method": m,
                             "accuracy": mu + noise + rng.normal(0, 0.002),
                             "seconds": 0.1, "converged": True})
    return pd.DataFrame(rows)


def test_table_ranks_and_win_tie_loss():
    means = {"Heart": {"SVM": 0.70, "TSVM": 0.75, "LapSVM": 0.73, "USVM": 0.76,
                       "WellSVM": 0.77},
             "House": {"SVM": 0.90, "TSVM": 0.80, "LapSVM": 0.90, "USVM": 0.90,
                       "WellSVM": 0.95}}
    t = E.table(_raw(means), 5)
    heart = t[t.dataset == "Heart"].set_index("method")
    assert heart.loc["WellSVM", "rank"] == 1 and heart.loc["SVM", "rank"] == 5
    # SVM loses to WellSVM on both sets (paired t-test), wins against TSVM on House
    assert heart.loc["WellSVM", "wtl_vs_svm"] == "0/0/1"
    house = t[t.dataset == "House"].set_index("method")
    assert house.loc["TSVM", "wtl_vs_svm"] == "1/0/0"
    s = E.summary_rows(t).set_index("method")
    assert (s.loc["WellSVM", ["win", "tie", "loss"]] == [0, 0, 2]).all()
    assert s.loc["WellSVM", "avg_rank"] == 1.0


def test_every_dataset_has_a_published_row_in_every_table():
    pub = E.published_frame()
    for art in E.TABLES.values():
        rows = set(pub[pub.artifact == art].row)
        for name, _ in E.DATASETS:
            assert E._pub_row_name(pub, art, name) in rows, (art, name)


def test_comparison_on_synthetic_rows():
    means = {name: {m: 0.8 for m in E.METHODS} for name, _ in E.DATASETS}
    cfg = E.config({"label_pcts": [5]})
    comp = E.comparison(_raw(means, reps=3), cfg)
    assert set(comp.artifact) == {"Table 2"}
    acc = comp[(comp.column == "WellSVM") & ~comp.row.str.contains("ave|win")]
    assert len(acc) == 16 and acc.reproduced.notna().all()
    assert set(comp.verdict) <= {"match", "within_tolerance", "differs", "not_published"}


def test_fig1_relative_pairs_times_with_wellsvm():
    """Fig. 1: each fit's time over WellSVM's on the same (data set, repetition, label %),
    geometric mean over the pairs."""
    rows = []
    for d, f in (("a", 1.0), ("b", 4.0)):
        for m, t in (("WellSVM", 2.0), ("TSVM", 8.0), ("SVM", 0.5)):
            rows.append({"dataset": d, "rep": 0, "label_pct": 5, "method": m,
                         "seconds": t * f})
    rows.append({"dataset": "a", "rep": 0, "label_pct": 5, "method": "USVM",
                 "seconds": 1.0})
    rows.append({"dataset": "b", "rep": 0, "label_pct": 5, "method": "USVM",
                 "seconds": 32.0})
    rel = F1.fig1_relative(pd.DataFrame(rows)).set_index("method")
    assert rel.loc["WellSVM", "ratio_geomean"] == pytest.approx(1.0)
    assert rel.loc["TSVM", "ratio_geomean"] == pytest.approx(4.0)
    assert rel.loc["SVM", "ratio_geomean"] == pytest.approx(0.25)
    assert rel.loc["USVM", "ratio_geomean"] == pytest.approx(2.0 ** 0.5)  # (1/2 * 32/8)^(1/2)
    assert rel.loc["USVM", "n_fits"] == 2
    with pytest.raises(ValueError, match="reference"):
        F1.fig1_relative(pd.DataFrame(rows), reference="LapSVM")


def test_figure_claims_on_a_hand_made_frame():
    """Fig. 1's speed ranking and the LapSVM comparison (declared factor), Fig. 2's
    iteration bound, each decided from the frame."""
    rows = []
    for d in ("a", "b"):
        for m, t, it in (("WellSVM", 2.0, 5), ("TSVM", 8.0, 3), ("USVM", 0.5, 2),
                         ("LapSVM", 3.0, 9), ("SVM", 0.1, 1)):
            rows.append({"dataset": d, "rep": 0, "label_pct": 5, "method": m, "seconds": t,
                         "n_iter": it if d == "a" else 30 * (m == "WellSVM") or it})
    raw = pd.DataFrame(rows)
    sp = {r["claim"].split(": ", 1)[1]: r["verdict"] for r in F1.speed_claims(raw)}
    assert sp["TSVM is the slowest S3VM"] == "holds"
    assert sp["USVM is the fastest S3VM"] == "holds"
    lap = [v for k, v in sp.items() if "LapSVM" in k]
    assert lap == ["holds"]  # 3 / 2 = 1.5 is within the factor 2
    it = F1.iteration_claims(raw)
    assert len(it) == 1 and it[0]["verdict"] == "does not hold"  # dataset b: 30 >= 25
    assert "30 (b, 5 %)" in it[0]["ours"]
    assert F1.iteration_claims(raw[raw.dataset == "a"])[0]["verdict"] == "holds"
