"""The clustering experiments of Li et al. 2013 (Section 5.3: Table 11, Fig. 7; Table 8):
configuration errors, selection, claims and the comparison on hand-made frames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import REPO

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
    # the hand-set Table 11 cell tolerance is gone: it is derived from the published table
    ({"tolerances": {"cell": 0.05}}, "unknown tolerances key"),
    ({"tolerances": {"count": 0}}, "tolerances.count"),
    ({"order": {"Table 11": ["WellSVM"]}}, r"order\['Table 11'\]"),
    ({"order": {"Table 11": ["WellSVM", "WellSVM"]}}, r"order\['Table 11'\]"),
    ({"order": {"Table 11": ["WellSVM", "SVM"]}}, r"order\['Table 11'\] names \['SVM'\]"),
    ({"order": {"Table 12": ["WellSVM", "GMMC"]}}, "order must map exactly"),
    ({"decimals": {"Table 11": -1}}, r"decimals\['Table 11'\]"),
    ({"decimals": {"Table 9": 2}}, "decimals must map exactly"),
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
    from weaklabel.claims import COLUMNS, check_claims

    raw = _frame().assign(dataset=lambda d: d.dataset.map({"A": "House", "B": "Heart"}))
    cfg = _cfg(datasets=["House", "Heart"], methods=["KM", "KKM", "GMMC", "IterSVR",
                                                      "WellSVM"])
    tabs = E.clustering_tables(raw, cfg)
    assert list(tabs["oracle"].index) == ["House", "Heart"]
    assert np.isnan(tabs["oracle"].loc["Heart", "GMMC"])
    times = E.fig7_times(raw)
    sp = E.speedup_over_gmmc(times)
    assert list(sp.dataset) == ["House"] and sp.speedup.iloc[0] == pytest.approx(30.0)
    cl = E.clustering_claims(raw, tabs, cfg)
    assert list(cl.columns) == COLUMNS
    check_claims(cl)
    cl = cl.set_index("claim")
    assert cl.loc["C1", "verdict"] == "not_tested"            # too few sets to test
    assert "fewer than 8" in cl.loc["C1", "note"]
    assert "best on 2 of 2" in cl.loc["C1", "ours"]
    assert cl.loc["C2", "verdict"] == "holds"
    # wall-clock claims: not tested in claims.csv, no times recorded there
    for c in ("C3", "C4", "C5"):
        assert cl.loc[c, "verdict"] == "not_tested" and cl.loc[c, "ours"] == ""
        assert cl.loc[c, "note"] == E.TIMING_NOTE and cl.loc[c, "threshold"]
    assert cl.loc["C6", "verdict"] == "not_tested"            # Australian not run
    assert cl.loc["C7", "verdict"] == "not_tested"            # no Table 8 row in raw
    tm = E.clustering_timing(times, cfg).set_index("claim")
    assert "30.0x" in tm.loc["C4", "times_of_this_run"]
    assert "fastest on 2 of 2" in tm.loc["C3", "times_of_this_run"]   # IterSVR on both
    assert "verdict" not in tm.columns and "holds" not in tm.columns
    long = E.fig7_long(times)
    assert list(long.columns) == ["dataset", "method", "seconds"]
    assert len(long) == times.notna().sum().sum()


SETS8 = ["House", "Heart", "Heart-statlog", "Haberman", "LiverDisorders", "Spectf",
         "Ionosphere", "Australian"]


def _eight(one_class=None, wellsvm=0.9):
    """One setting per (set, method) on 8 sets: WellSVM best everywhere (``wellsvm``),
    GMMC on the first set only; ``one_class``: {(set, method): share} of runs with one
    cluster (0 elsewhere)."""
    rows = []
    for d in SETS8:
        for m, acc, C in (("KM", 0.6, np.nan), ("GMMC", 0.5, 1.0), ("WellSVM", wellsvm, 1.0)):
            ran = not (m == "GMMC" and d != SETS8[0])
            rows.append({"dataset": d, "method": m, "kernel": "linear", "C": C, "n": 100,
                         "accuracy": acc if ran else np.nan, "score": 0.1, "seconds": 1.0,
                         "fit_seconds": 1.0, "ran": ran, "converged": True, "note": "",
                         "majority_share": 0.55,
                         "one_class_share": (one_class or {}).get((d, m), 0.0)
                         if ran else np.nan})
    return pd.DataFrame(rows)


def test_claims_on_one_cluster_runs_are_inconclusive():
    from weaklabel.claims import check_claims

    cfg = _cfg(datasets=SETS8, methods=["KM", "GMMC", "WellSVM"], table8=False)
    raw = _eight()
    cl = check_claims(E.clustering_claims(raw, E.clustering_tables(raw, cfg), cfg))
    cl = cl.set_index("claim")
    # must not fire: no one-cluster run, every claim decided
    assert cl.loc["C1", "verdict"] == "holds" and "best on 8 of 8" in cl.loc["C1", "ours"]
    assert cl.loc["C2", "verdict"] == "holds" and cl.loc["C6", "verdict"] == "holds"
    assert cl.loc["C7", "verdict"] == "not_tested"            # table8: false
    # must fire: a run that put every point in one cluster under a compared cell
    raw = _eight({("House", "GMMC"): 0.5, ("Australian", "KM"): 1.0})
    cl = E.clustering_claims(raw, E.clustering_tables(raw, cfg), cfg).set_index("claim")
    for c in ("C1", "C2", "C6"):
        assert cl.loc[c, "verdict"] == "inconclusive", c
        assert "one cluster" in cl.loc[c, "note"]
    assert "House: GMMC" in cl.loc["C2", "note"] and "Australian: KM" in cl.loc["C6", "note"]
    # a raw frame without the column (older raw.csv) records no one-cluster run
    raw = _eight().drop(columns=["one_class_share", "majority_share"])
    cl = E.clustering_claims(raw, E.clustering_tables(raw, cfg), cfg).set_index("claim")
    assert cl.loc["C1", "verdict"] == "holds"
    # the declared thresholds decide: WellSVM below KM everywhere
    raw = _eight(wellsvm=0.55)
    cl = E.clustering_claims(raw, E.clustering_tables(raw, cfg), cfg).set_index("claim")
    assert cl.loc["C1", "verdict"] == "does_not_hold"
    assert cl.loc["C6", "verdict"] == "does_not_hold"


def test_table8_parity_claim_is_inconclusive():
    raw = pd.concat([_eight(), pd.DataFrame([{
        "dataset": "T8:HWD 1-7", "method": "WellSVM", "kernel": "1.0", "C": 1.0, "n": 400,
        "accuracy": 0.97, "score": 0.1, "seconds": 1.0, "fit_seconds": 1.0, "ran": True,
        "converged": True, "note": "", "majority_share": 0.5, "one_class_share": 0.0}])],
        ignore_index=True)
    cfg = _cfg(datasets=SETS8, methods=["KM", "GMMC", "WellSVM"], table8_sets=["HWD 1-7"])
    cl = E.clustering_claims(raw, E.clustering_tables(raw, cfg), cfg).set_index("claim")
    assert cl.loc["C7", "verdict"] == "inconclusive"
    assert "3.0 %" in cl.loc["C7", "ours"] and "MMC 3.2 %" in cl.loc["C7", "ours"]
    assert "not run" in cl.loc["C7", "note"] and "substitutes" in cl.loc["C7", "note"]


def test_derived_tolerances_from_the_published_table():
    from weaklabel import published
    from weaklabel.cellstats import derived_tolerance
    from weaklabel.pipeline import load_params

    cfg = E.wellsvm_clustering_config(load_params("wellsvm_clustering", "default", root=REPO))
    assert cfg["order"] == {"Table 11": ["WellSVM", "GMMC"]}      # params.yaml's order
    t = published.load("wellsvm", "Table 11")
    wide = t.pivot(index="row", columns="column", values="value").astype(float)
    want = derived_tolerance(wide, ["WellSVM", "GMMC"], decimals=2)
    tols = E.clustering_tolerances(cfg)
    assert tols["Table 11"] == pytest.approx(want)
    # half the median of |WellSVM - GMMC| over the 14 sets where GMMC has a number
    assert want == pytest.approx(0.5 * 0.115)
    assert tols["Table 8"] == cfg["tolerances"]["error"] == 5.0   # no order: declared
    d = E.tolerance_derivation(cfg).set_index("table")
    assert d.loc["Table 11", "tolerance"] == pytest.approx(
        max(d.loc["Table 11", "half_median_gap"], d.loc["Table 11", "precision_floor"]))
    assert "GMMC is not as good as WellSVM" in d.loc["Table 11", "source"]
    # another declared order gives another tolerance, from the same published table
    other = _cfg(order={"Table 11": ["WellSVM", "KM"]})
    assert E.clustering_tolerances(other)["Table 11"] == pytest.approx(
        derived_tolerance(wide, ["WellSVM", "KM"], decimals=2))


def test_trivial_and_one_class_in_the_comparison():
    cfg = _cfg(datasets=SETS8, methods=["KM", "GMMC", "WellSVM"], table8=False)
    raw = _eight({("Heart", "KM"): 0.5})
    raw.loc[raw.dataset == "Haberman", "majority_share"] = 0.735   # Haberman's KM: 0.6
    comp = E.clustering_comparison(raw, E.clustering_tables(raw, cfg), cfg)
    t11 = comp[comp.artifact == "Table 11"].set_index(["row", "column"])
    tol = E.clustering_tolerances(cfg)["Table 11"]
    assert (t11.tolerance.dropna() == tol).all() and t11.tolerance.notna().sum() == 8 * 3
    # WellSVM's 0.74 on Haberman is what one cluster scores (0.735): uninformative
    assert t11.loc[("Haberman", "WellSVM"), "trivial"] == pytest.approx(0.735)
    assert bool(t11.loc[("Haberman", "WellSVM"), "uninformative"])
    assert not bool(t11.loc[("House", "WellSVM"), "uninformative"])   # 0.93 vs 0.55
    assert t11.loc[("Heart", "KM"), "one_class_share"] == 0.5
    assert t11.loc[("House", "KM"), "one_class_share"] == 0.0
    marked = E.mark_one_class(E.clustering_tables(raw, cfg)["oracle"], comp, "Table 11")
    assert marked.loc["Heart", "KM"] == "0.60 †" and marked.loc["House", "KM"] == "0.60"
    assert marked.loc["Heart", "GMMC"] == "–"
    with pytest.raises(ValueError, match="one_class_share"):
        E.mark_one_class(marked, comp.drop(columns="one_class_share"), "Table 11")


def test_task_records_majority_and_one_cluster_share(monkeypatch):
    y = E.load_clustering_set("House")[1]

    def fit(method, setting, X, frac, cfg, seed):     # seed 0: one cluster, else two
        lab = np.zeros(len(X), dtype=int) if seed == 0 else (y > 0).astype(int)
        return lab, 0.0, True, True, ""

    monkeypatch.setattr(E, "_fit_once", fit)
    cfg = _cfg(datasets=["House"], n_runs=2)
    r = E.run_clustering_task("House", "KM", {"kernel": "linear", "C": None}, cfg)
    maj = max(np.mean(y > 0), np.mean(y <= 0))
    assert r["majority_share"] == pytest.approx(maj)
    assert r["one_class_share"] == 0.5 and r["n_runs"] == 2     # fires on run 0 only
    assert r["accuracy"] == pytest.approx((maj + 1.0) / 2)      # one cluster scores maj
    r = E.run_clustering_task("House", "WellSVM", {"kernel": "linear", "C": 1.0},
                              dict(cfg, seed=1))                # one run, two clusters
    assert r["one_class_share"] == 0.0


def test_metrics_carry_the_claims_block():
    cfg = _cfg(datasets=SETS8, methods=["KM", "GMMC", "WellSVM"], table8=False)
    raw = _eight()
    tabs = E.clustering_tables(raw, cfg)
    cl = E.clustering_claims(raw, tabs, cfg)
    comp = E.clustering_comparison(raw, tabs, cfg)
    m = E.clustering_metrics(raw, tabs, cl, comp, pd.DataFrame({"rel_gap": [0.0]}),
                             runtime_seconds=1.0, profile="smoke", cfg=cfg)
    assert m["claims"]["total"] == len(cl) and m["claims"]["holds"] == 3
    assert m["claims"]["not_tested"] == 4                     # C3-C5, C7
    assert not {"claims_hold", "claims_fail", "claims_not_tested"} & set(m)
    assert m["derived_tolerances"]["Table 11"] == pytest.approx(0.0575)


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
    assert (t11.tolerance.dropna() == E.clustering_tolerances(cfg)["Table 11"]).all()
    t8 = comp[comp.artifact == "Table 8"].set_index("column")
    assert (t8.tolerance == 5.0).all()
    assert t8.loc["HWD 1-7", "reproduced"] == pytest.approx(3.0)
    assert t8.loc["HWD 1-7", "verdict"] == "not_comparable"  # 2.7 published, other data
    assert t8.loc["HWD 1-7", "delta"] == pytest.approx(0.3)
    assert "Australian" not in t8.index      # its Table 11 set did not run


def test_published_table11_shape():
    pub = E.published_table11()
    assert pub.shape == (16, 10)
    assert pub.loc["Australian", "WellSVM"] == pytest.approx(0.82)
    assert np.isnan(pub.loc["Krvskp", "GMMC"])
