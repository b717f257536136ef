"""The clustering experiments of Li et al. 2013 (Section 5.3: Table 11, Fig. 7; Table 8):
configuration errors, selection, claims and the comparison on hand-made frames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel.experiments import wellsvm_clustering as E


def _raw(rows):
    cols = ["dataset", "method", "kernel", "C", "n", "accuracy", "score", "seconds", "ran",
            "converged", "note"]
    df = pd.DataFrame(rows, columns=cols)
    df["fit_seconds"] = df.seconds
    return df


def _cfg(**kw):
    base = {"datasets": ["Echocardiogram", "House"], "C_grid": [1.0, 10.0],
            "kernels": ["linear", 1.0], "table8_sets": ["HWD 1-7", "Australian"]}
    base.update(kw)
    return E.wellsvm_clustering_config(base)


@pytest.mark.parametrize("params, match", [
    ({"nope": 1}, "unknown wellsvm_clustering parameter"),
    ({"datasets": ["Iris"]}, "unknown dataset"),
    ({"methods": ["KM", "DBSCAN"]}, "unknown method"),
    ({"table8_sets": ["HWD 4-9"]}, "unknown table8_sets"),
    ({"C_grid": [0.0, 1.0]}, "C_grid"),
    ({"kernels": ["poly"]}, "kernels"),
    ({"n_runs": 0}, "n_runs"),
    ({"gmmc_max_n": 1.5}, "gmmc_max_n"),
    ({"imbalance_threshold": 0.7}, "imbalance_threshold"),
])
def test_config_errors_name_the_key(params, match):
    with pytest.raises(ValueError, match=match):
        E.wellsvm_clustering_config(params)


def test_config_defaults_and_profile_key():
    cfg = E.wellsvm_clustering_config({"profile": "smoke", "crosscheck": {"tight_n": 10}})
    assert cfg["C_grid"] == [0.1, 0.5, 1.0, 5.0, 10.0, 100.0]
    assert cfg["crosscheck"]["tight_n"] == 10 and cfg["crosscheck"]["gmmc_n"] == 40
    assert "profile" not in cfg


def test_grid_shapes_and_big_sets():
    cfg = _cfg(big_n=500, big_kernels=["linear"], big_C_grid=[1.0])
    assert E.clustering_grid("KM", 100, cfg) == [{"kernel": "linear", "C": None}]
    assert E.clustering_grid("NC", 100, cfg) == [{"kernel": 1.0, "C": None}]
    assert len(E.clustering_grid("WellSVM", 100, cfg)) == 4
    assert E.clustering_grid("WellSVM", 600, cfg) == [{"kernel": "linear", "C": 1.0}]
    with pytest.raises(ValueError, match="method"):
        E.clustering_grid("SVM", 10, cfg)


def test_beta_rule_and_loader_errors():
    cfg = _cfg()
    assert E.beta_fraction_of(np.r_[np.ones(30), np.zeros(70)], cfg) == 0.3
    assert E.beta_fraction_of(np.r_[np.ones(40), np.zeros(60)], cfg) == 0.03
    with pytest.raises(ValueError, match="dataset"):
        E.load_clustering_set("Iris")
    with pytest.raises(ValueError, match="Table 8"):
        E.load_clustering_set("T8:HWD 4-9")


def _frame():
    rows = []
    acc = {"A": {"KM": 0.6, "KKM": 0.7, "GMMC": 0.65, "IterSVR": 0.5, "WellSVM": 0.8},
           "B": {"KM": 0.9, "KKM": 0.85, "GMMC": np.nan, "IterSVR": 0.9, "WellSVM": 0.9}}
    secs = {"KM": 0.01, "KKM": 0.02, "GMMC": 30.0, "IterSVR": 0.005, "WellSVM": 1.0}
    for d in ("A", "B"):
        for m in ("KM", "KKM", "GMMC", "IterSVR", "WellSVM"):
            if m == "KM":
                rows.append((d, m, "linear", np.nan, 100, acc[d][m], 1.0, secs[m], True,
                             True, ""))
                continue
            for k, C, da, sc in (("linear", 1.0, -0.1, 0.2), ("1.0", 1.0, 0.0, 0.5)):
                C = np.nan if m == "KKM" else C
                ran = not (m == "GMMC" and d == "B")
                rows.append((d, m, k, C, 100, acc[d][m] + da if ran else np.nan,
                             sc if m != "IterSVR" else np.nan, secs[m], ran, True,
                             "" if ran else "not run: N > gmmc_max_n"))
    return _raw(rows)


def test_oracle_and_label_free_selection():
    raw = _frame()
    cfg = _cfg(methods=["KM", "KKM", "GMMC", "IterSVR", "WellSVM"])
    orc = E.select_settings(raw, cfg, "oracle").set_index(["dataset", "method"])
    assert orc.loc[("A", "WellSVM"), "kernel"] == "1.0"      # best accuracy
    lf = E.select_settings(raw, cfg, "label_free").set_index(["dataset", "method"])
    assert lf.loc[("A", "WellSVM"), "kernel"] == "linear"     # smallest score
    assert lf.loc[("A", "WellSVM"), "accuracy"] == pytest.approx(0.7)
    # IterSVR: no criterion, the declared default setting (Gaussian 1.0, C = 1)
    assert lf.loc[("A", "IterSVR"), "kernel"] == "1.0"
    assert "default" in lf.loc[("A", "IterSVR"), "selection"]
    assert ("B", "GMMC") not in lf.index                      # not run
    with pytest.raises(ValueError, match="how"):
        E.select_settings(raw, cfg, "cv")


def test_best_counts_with_ties():
    w = pd.DataFrame({"KM": [0.6, 0.9, 0.7], "WellSVM": [0.8, 0.9, 0.6]},
                     index=["A", "B", "C"])
    b = E.best_counts(w)
    assert b == {"best": 2, "of": 3, "not_best": ["C"]}


def test_claims_and_speedup_on_a_hand_made_frame():
    raw = _frame().assign(dataset=lambda d: d.dataset.map({"A": "House", "B": "Heart"}))
    cfg = _cfg(datasets=["House", "Heart"], methods=["KM", "KKM", "GMMC", "IterSVR",
                                                      "WellSVM"])
    tabs = E.clustering_tables(raw, cfg)
    assert list(tabs["oracle"].index) == ["House", "Heart"]
    assert np.isnan(tabs["oracle"].loc["Heart", "GMMC"])
    times = E.fig7_times(raw)
    sp = E.speedup_over_gmmc(times)
    assert list(sp.dataset) == ["House"] and sp.speedup.iloc[0] == pytest.approx(30.0)
    cl = E.clustering_claims(tabs, times, cfg).set_index("claim")
    assert cl.loc["C1", "holds"] is None                      # too few sets to test
    assert "best on 2 of 2" in cl.loc["C1", "evidence"]
    assert cl.loc["C2", "holds"] == True  # noqa: E712
    assert cl.loc["C3", "holds"] == True  # noqa: E712 (IterSVR fastest on both)
    assert cl.loc["C4", "holds"] == True  # noqa: E712
    assert "30.0x" in cl.loc["C4", "evidence"]
    assert set(cl.kind) == {"accuracy", "timing"}
    assert (cl.loc[["C3", "C4", "C5"], "kind"] == "timing").all()
    long = E.fig7_long(times)
    assert list(long.columns) == ["dataset", "method", "seconds"]
    assert len(long) == times.notna().sum().sum()


def test_comparison_contract_on_a_hand_made_frame():
    from weaklabel.causes import CAUSE_COLUMNS
    from weaklabel.compare import COLUMNS

    raw = _frame().assign(dataset=lambda d: d.dataset.map({"A": "House", "B": "Sick"}))
    raw = pd.concat([raw, _raw([("T8:HWD 1-7", "WellSVM", "1.0", 1.0, 400, 0.97, 0.1, 1.0,
                                 True, True, "")])], ignore_index=True)
    cfg = _cfg(datasets=["House", "Sick"])
    tabs = E.clustering_tables(raw, cfg)
    comp = E.clustering_comparison(raw, tabs, cfg)
    assert list(comp.columns) == COLUMNS + CAUSE_COLUMNS
    t11 = comp[comp.artifact == "Table 11"].set_index(["row", "column"])
    assert len(t11) == 160                                    # every published cell
    assert t11.loc[("House", "WellSVM"), "reproduced"] == pytest.approx(0.8)
    assert t11.loc[("House", "WellSVM"), "verdict"] == "differs"       # 0.93 published
    assert t11.loc[("House", "KM"), "verdict"] == "differs"            # 0.6 vs 0.89
    assert t11.loc[("Heart", "KM"), "note"] == "not reproduced"         # not in this run
    # Sick's GMMC is "-" in the paper
    assert t11.loc[("Sick", "GMMC"), "verdict"] == "not_published"
    t8 = comp[comp.artifact == "Table 8"].set_index("column")
    assert t8.loc["HWD 1-7", "reproduced"] == pytest.approx(3.0)
    assert t8.loc["HWD 1-7", "verdict"] == "not_comparable"  # 2.7 published, other data
    assert t8.loc["HWD 1-7", "delta"] == pytest.approx(0.3)
    assert "Australian" not in t8.index      # its Table 11 set did not run


def test_published_table11_shape():
    pub = E.published_table11()
    assert pub.shape == (16, 10)
    assert pub.loc["Australian", "WellSVM"] == pytest.approx(0.82)
    assert np.isnan(pub.loc["Krvskp", "GMMC"])
