"""The TSGSU protocol module (``weaklabel.experiments.tsgsu``) on small hand-made inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel.causes import CAUSE_COLUMNS
from weaklabel.claims import COLUMNS as CLAIM_COLUMNS
from weaklabel.claims import check_claims, claims_metrics
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


def _small_inputs():
    cfg = E.config({"table4_sets": ["Combined", "Covtype"], "table5_sets": []})
    raw = _raw()
    abl = pd.concat([raw[raw.method == "TSGSU"],
                     raw[raw.method == "TSGSU"].assign(correction="none",
                                                       accuracy=lambda d: d.accuracy - 0.1)])
    mem = pd.DataFrame({"n_unlabelled": [1000, 100000], "n_train": [1300, 110300],
                        "peak_mb": [15.0, 15.2], "data_mb": [1, 10],
                        "susl_all_gram_gb": [0.01, 90.0]})
    rate = pd.DataFrame({"correction": ["abs"] * 3 + ["none"] * 3, "rep": 0,
                         "T": [10, 100, 1000] * 2,
                         "mean_sq_grad": [1.0, 0.3, 0.1, 1.0, 0.3, 0.1]})
    lem = pd.DataFrame({"theta": [1.0, 0.5, 1.0, 0.5], "features_per_iteration": [10, 10, 100, 100],
                        "seeds": 3, "mean_sq_gap": [4e-2, 1e-2, 4e-3, 1.5e-3]})
    return cfg, raw, abl, mem, rate, lem


def test_claims_and_comparison_from_hand_made_results():
    cfg, raw, abl, mem, rate, lem = _small_inputs()
    cl = E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg, lem)
    assert list(cl.columns) == CLAIM_COLUMNS and check_claims(cl) is cl
    assert list(cl.claim) == list(E.CLAIMS)
    v = cl.set_index("claim")
    assert v.loc["1b", "verdict"] == "does_not_hold" and "2.00 with 10" in v.loc["1b", "ours"]
    assert E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg).set_index("claim").loc[
        "1b", "verdict"] == "not_tested"
    for c in ("2a", "2b", "5", "4a", "1", "7"):   # kernel > linear; CUU, TSGSU best; slope -0.5
        assert v.loc[c, "verdict"] == "holds", c
    # timing and memory claims: never decided in claims.csv, no reading in it
    for c in ("3a", "3b", "8", "4b", "4c", "4d", "6b", "10"):
        assert v.loc[c, "verdict"] == "not_tested" and v.loc[c, "ours"] == "", c
    assert v.loc["3a", "note"] == E.TIMING_NOTE and v.loc["10", "note"] == E.MEMORY_NOTE
    assert v.loc["4b", "note"].startswith("not run in this profile")   # no n_U = 100 000 run
    assert v.loc["6b", "note"].startswith("not run in this profile")
    assert not cl[["ours", "note"]].apply(lambda c: c.str.contains(r"\d s\b|MB")).any().any()
    # this run's readings go to the report's table, with what they say
    rd = E.claim_readings(raw, pd.DataFrame(), abl, mem, rate, cfg, lem).set_index("claim")
    assert set(rd.index) == {c for c, (_, _, k) in E.CLAIMS.items() if k in ("timing", "memory")}
    assert "CUU(All) 1.0 s, TSGSU 5.0 s" in rd.loc["3a", "this run's readings"]
    assert rd.loc["3a", "in this run"].endswith("consistent with the claim")
    assert "15.2 MB" in rd.loc["10", "this run's readings"]
    comp = E.comparison(raw, cl, cfg)
    assert list(comp.columns) == COLUMNS + CAUSE_COLUMNS and set(comp.verdict) <= set(VERDICTS)
    assert (comp[comp.verdict == "differs"].cause != "").all()
    claims = comp[comp.artifact.str.startswith("Claim")]
    assert len(claims) == len(cl)
    # a claim that holds on a declared substitute is shown, not counted as a match
    assert set(claims[claims.reproduced == 1.0].verdict) == {"match", "not_comparable"}
    untested = claims[claims.reproduced.isna()]
    assert (untested.verdict == "not_run").all()
    assert untested.note.str.startswith("not tested in claims.csv").all()
    cells = comp[~comp.artifact.str.startswith("Claim")]
    assert (cells.verdict == "not_published").all()
    assert cells.tolerance.isna().all()            # no published cell: no tolerance at all
    tsg = cells[(cells.row == "Combined") & (cells.column == "TSGSU")]
    assert tsg.reproduced.iloc[0] == pytest.approx(86.5)


def _one_class(raw, method, datasets, trials=(0, 1)):
    out = raw.copy()
    out["one_class"] = False
    hit = out.method.eq(method) & out.dataset.isin(datasets) & out.trial.isin(trials)
    out.loc[hit, "one_class"] = True
    return out


def test_a_claim_resting_on_one_class_fits_is_inconclusive():
    cfg, raw, abl, mem, rate, lem = _small_inputs()
    # must not fire: one-class flags recorded, all false
    cl = E.claims(_one_class(raw, "CUU", []), pd.DataFrame(), abl, mem, rate, cfg, lem)
    assert cl.set_index("claim").loc["2b", "verdict"] == "holds"
    # must fire: CUU predicts one class on both sets: claim 2b rests on it
    cl = E.claims(_one_class(raw, "CUU", ["Combined", "Covtype"]), pd.DataFrame(), abl, mem,
                  rate, cfg, lem).set_index("claim")
    assert cl.loc["2b", "verdict"] == "inconclusive"
    assert "CUU predicts one class in 2 of 2 trials" in cl.loc["2b", "note"]
    # claim 2a reads no CUU cell: unchanged
    assert cl.loc["2a", "verdict"] == "holds"
    # claim 2a ("every pair") rests on the one pair with a one-class fit ...
    cl = E.claims(_one_class(raw, "SUSL(Linear)", ["Covtype"]), pd.DataFrame(), abl, mem,
                  rate, cfg, lem).set_index("claim")
    assert cl.loc["2a", "verdict"] == "inconclusive"
    # ... but a degenerate item that cannot change the verdict leaves the claim decided
    raw2 = _one_class(raw, "SUSL(Linear)", ["Covtype"])
    raw2.loc[(raw2.dataset == "Combined") & (raw2.method == "SUSL(Nonlinear)"), "accuracy"] = 0.5
    cl = E.claims(raw2, pd.DataFrame(), abl, mem, rate, cfg, lem).set_index("claim")
    assert cl.loc["2a", "verdict"] == "does_not_hold"       # Combined fails on its own
    assert cl.loc["2a", "note"].startswith("decided without degenerate results")


def test_comparison_cells_carry_the_one_class_share_and_the_trivial_accuracy():
    cfg, raw, abl, mem, rate, lem = _small_inputs()
    raw = _one_class(raw, "CUU", ["Combined"], trials=(0,)).assign(trivial=0.7)
    cl = E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg, lem)
    comp = E.comparison(raw, cl, cfg).set_index(["artifact", "row", "column"])
    assert comp.loc[("Table 4", "Combined", "CUU"), "one_class_share"] == 0.5
    assert comp.loc[("Table 4", "Combined", "TSGSU"), "one_class_share"] == 0.0
    assert comp.loc[("Table 4", "Combined", "TSGSU"), "trivial"] == pytest.approx(70.0)
    assert np.isnan(comp.loc[("Table 5", "Sim", "TSGSU"), "one_class_share"])  # not run


def test_over_items_decides_only_what_the_degenerate_items_cannot_change():
    ok, no, bad = E._item("a", True), E._item("b", False), E._item("c", True, "one class")
    assert E.over_items([ok, ok, ok], "most") == (True, False, "3 of 3")
    assert E.over_items([ok, ok, bad], "most") == (True, False, "2 of 2")       # 2 of 3 anyway
    assert E.over_items([ok, no, bad], "most") == (False, True, "1 of 2")       # fires
    assert E.over_items([no, bad], "all") == (False, False, "0 of 1")           # fails anyway
    assert E.over_items([ok, bad], "all") == (True, True, "1 of 1")             # fires
    assert E.over_items([], "all") == (None, False, "0 of 0")                   # not tested
    assert E.over_items([E._item("d", None, "not run")], "all") == (None, False, "0 of 0")
    assert E.over_items([bad, bad], "most")[1] is True                          # ran, degenerate
    with pytest.raises(ValueError, match="rule"):
        E.over_items([ok], "some")


def test_the_correction_claim_is_inconclusive_when_the_correction_never_acted():
    cfg, raw, abl, mem, rate, lem = _small_inputs()
    # must not fire: the corrected runs met negative partial risks
    acted = abl.assign(negative_risk_iters=3)
    cl = E.claims(raw, pd.DataFrame(), acted, mem, rate, cfg, lem).set_index("claim")
    assert cl.loc["5", "verdict"] == "holds"
    # must fire: no negative partial risk in any corrected run: both arms are one model
    never = abl.assign(negative_risk_iters=0)
    same = never.assign(accuracy=lambda d: d.groupby(["dataset", "trial"]).accuracy
                        .transform("max"))
    cl = E.claims(raw, pd.DataFrame(), same, mem, rate, cfg, lem).set_index("claim")
    assert cl.loc["5", "verdict"] == "inconclusive"
    assert "the correction never acted" in cl.loc["5", "note"]


def test_large_run_claims_from_hand_made_curves():
    """Claim 9 (Fig. 2) reads the n_U = 100 000 final accuracies; claims 4b-4d (Fig. 2)
    and 6b (Fig. 4) their curves' times, in the report only."""
    cfg = E.config({"table4_sets": ["Combined"], "table5_sets": ["Sim"]})
    curves = {"TSGSU": ([2.0, 10.0, 20.0], [0.80, 0.86, 0.865], 20.0, 0.865),
              "CUU": ([30.0, 200.0, 400.0], [0.70, 0.80, 0.86], 400.0, 0.86),
              "CUU(2000)": ([5.0, 8.0, 12.0], [0.60, 0.84, 0.85], 12.0, 0.85)}
    large = pd.DataFrame([{"dataset": d, "trial": 0, "method": m, "accuracy": acc,
                           "seconds": secs, "curve_time": ct, "curve_acc": ca,
                           "one_class": False, "curve_one_class": [False] * 3}
                          for d in ("Combined", "Sim")
                          for m, (ct, ca, secs, acc) in curves.items()])
    mem = pd.DataFrame({"n_unlabelled": [1000, 100000], "n_train": [1300, 110000],
                        "peak_mb": [15.0, 15.2], "data_mb": [1, 10],
                        "susl_all_gram_gb": [0.01, 90.0]})
    cl = E.claims(_raw(), large, pd.DataFrame(), mem, pd.DataFrame(), cfg).set_index("claim")
    assert cl.loc["9", "verdict"] == "holds"           # +1.5 points in both runs
    for c in ("4b", "4c", "4d", "6b"):
        assert cl.loc[c, "verdict"] == "not_tested" and cl.loc[c, "note"] == E.TIMING_NOTE
    rd = E.claim_readings(_raw(), large, pd.DataFrame(), mem, pd.DataFrame(), cfg)\
        .set_index("claim")["in this run"]
    assert rd["4b"].endswith(": consistent with the claim")      # 10 s against 400 s
    assert rd["4c"].endswith(": not consistent with the claim")  # CUU(2000) within after 8 s
    assert rd["4d"].endswith(": consistent with the claim")      # 2 s against 5 s and 30 s
    assert rd["6b"].endswith(": consistent with the claim") and rd["6b"].startswith(
        "all four parts hold on 1 of 1")
    # must fire: CUU(2000) predicting one class makes claim 9 rest on it, and its flat
    # curve is named beside the timing claims that read it
    flat = large.copy()
    cuu2 = flat.method == "CUU(2000)"
    flat.loc[cuu2, "one_class"] = True
    flat.loc[cuu2, "curve_one_class"] = pd.Series([[True] * 3] * int(cuu2.sum()),
                                                  index=flat.index[cuu2])
    cl = E.claims(_raw(), flat, pd.DataFrame(), mem, pd.DataFrame(), cfg).set_index("claim")
    assert cl.loc["9", "verdict"] == "inconclusive"
    assert "CUU(2000) predicts one class" in cl.loc["9", "note"]
    assert cl.loc["4c", "note"].startswith(E.TIMING_NOTE + "; this run's comparison also")
    assert "CUU(2000)'s curve predicts one class" in cl.loc["4c", "note"]
    assert cl.loc["4b", "note"] == E.TIMING_NOTE          # CUU(All)'s curve is not flat


def test_the_memory_claim_needs_the_papers_size():
    cfg, raw, abl, mem, rate, lem = _small_inputs()
    assert E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg, lem).set_index(
        "claim").loc["4a", "verdict"] == "holds"                  # must not fire: 100 000
    small = mem.assign(n_unlabelled=[1000, 4000], n_train=[1300, 4300],
                       susl_all_gram_gb=[0.01, 0.14])
    r = E.claims(raw, pd.DataFrame(), abl, small, rate, cfg, lem).set_index("claim").loc["4a"]
    assert r.verdict == "not_tested" and "below the paper's 100000" in r.note   # must fire


def test_metrics_carry_the_claims_block_and_no_legacy_counts():
    cfg, raw, abl, mem, rate, lem = _small_inputs()
    cl = E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg, lem)
    xc = pd.DataFrame({"rel_gap": [1e-9]})
    m = E.metrics(raw, cl, xc, mem, runtime_seconds=1.0, profile="smoke")
    assert m["claims"] == claims_metrics(cl)
    assert not {"claims_hold", "claims_fail", "claims_not_tested"} & set(m)


def test_comparison_rejects_a_legacy_claims_frame():
    cfg, raw, abl, mem, rate, lem = _small_inputs()
    legacy = pd.DataFrame({"claim": ["1"], "artifact": ["Theorem 1"], "statement": ["a"],
                           "holds": [True]})
    with pytest.raises(ValueError, match="cl lacks"):
        E.comparison(raw, legacy, cfg)
    with pytest.raises(TypeError, match="cl must"):
        E.comparison(raw, legacy.to_dict(), cfg)


def test_no_per_table_tolerance_without_published_cells():
    """The paper prints no cell of Tables 4-5: no order, no derived tolerance, no cell
    tolerance key in the config; the thresholds are the claims'."""
    from weaklabel import published
    pub = published.load("tsgsu")
    assert pub["value"].isna().all()
    assert not {"order", "decimals", "tolerance"} & set(E.DEFAULTS)
    assert set(E.DEFAULTS["tolerances"]) == {"most_cases", "about_one_point", "rate_slope",
                                             "lemma1_slope", "timing_min_seconds",
                                             "timing_ratio", "memory_ratio"}


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
    # one-class fits are marked (must fire), and only they (must not fire)
    t = E.table(_one_class(raw, "TSGSU", ["Combined"], trials=(1,)), ["Combined"])
    w = E.wide(t)
    assert w.loc["Combined", "TSGSU"] == f"86.5 ± 0.5 {E.ONE_CLASS_MARK}1/2"
    assert E.ONE_CLASS_MARK not in w.loc["Combined", "SUSL(Linear)"]
    assert t.set_index("method").loc["TSGSU", "one_class_share"] == 0.5
