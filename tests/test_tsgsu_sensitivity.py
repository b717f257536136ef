"""The step-size sensitivity part of the TSGSU stage (``run_sensitivity``) and the evidence
it gives the causes (``causes_evidence(..., sensitivity=...)``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_tsgsu_causes import SMALL, _art, _cell, _inputs

from weaklabel.causes import protocol_choice
from weaklabel.experiments import tsgsu as E

IN_PROCESS = {"backend": "loky", "n_jobs": 1}
#: a tiny Table 4 run: one set, one trial, the three iterative methods; TSGSU's main fit in
#: the paper's (faithful) mode, as in the timing trial of the real runs
TINY = {"n_pairs": 50, "n_unlabelled": 120, "n_iter": 5, "batch": 20, "n_features": 20,
        "cuu_centres": 60, "checkpoints": [1, 3, 5], "table4_sets": ["Combined"],
        "table5_sets": [], "methods": ["CUU", "CUU(2000)", "TSGSU"], "n_trials": 1,
        "timing_sets": ["Combined"], "timing_trials": 1,
        "tsgsu_eta0_grid": [1.0, 4.0, 16.0], "cuu_eta0_mult_grid": [1.0, 4.0],
        "sensitivity": {"trial_counts": [1], "step_trials": 2}}


def _tiny_run():
    cfg = E.config(TINY)
    base = {"dataset": "Combined", "gamma": 0.125, "lam": 0.0625}
    sel = pd.DataFrame([{**base, "method": "TSGSU", "eta0": 4.0},
                        {**base, "method": "CUU(2000)", "eta0_mult": 1.0},
                        {**base, "method": "CUU", "eta0_mult": 1.0}])
    raw = pd.DataFrame(E.run_trial("Combined", 0, cfg, E._settings(sel)))
    return cfg, sel, raw


def test_selected_step_reproduces_the_main_run_and_skips_eta_lambda_above_one():
    cfg, sel, raw = _tiny_run()
    assert raw.set_index("method").loc["TSGSU", "mode"] == "faithful"
    sens = E.run_sensitivity(cfg, sel, raw, executor=IN_PROCESS, progress=False)
    assert list(sens.columns) == ["dataset", "trial", "method", "parameter", "choice",
                                  "selected", "lam", "accuracy", "seconds", "status",
                                  "one_class"]
    # every fit records whether it predicts one class, and the majority-class accuracy;
    # TSGSU its iterations with a negative partial risk (where the correction acts)
    r = raw.set_index("method")
    assert r["one_class"].map(lambda v: isinstance(v, (bool, np.bool_))).all()
    assert ((r["trivial"] >= 0.5) & (r["trivial"] <= 1.0)).all()
    assert r.loc["TSGSU", "negative_risk_iters"] >= 0
    assert np.isnan(r.loc["CUU", "negative_risk_iters"])
    assert all(len(v) == len(cfg["checkpoints"]) for v in r["curve_one_class"])
    assert sens["one_class"].map(lambda v: isinstance(v, (bool, np.bool_))).all()
    assert set(sens.trial) == {0}                          # step_trials capped at n_trials
    got = {(r.method, r.choice) for r in sens.itertuples()}
    # eta0 = 16 with lam = 1/16: eta0 * lam = 1, skipped as in the selection grid
    assert got == {("TSGSU", 1.0), ("TSGSU", 4.0), ("CUU", 1.0), ("CUU", 4.0),
                   ("CUU(2000)", 1.0), ("CUU(2000)", 4.0)}
    assert set(sens.loc[sens.method == "TSGSU", "parameter"]) == {"tsgsu_eta0"}
    assert set(sens.loc[sens.method != "TSGSU", "parameter"]) == {"cuu_eta0_mult"}
    chosen = sens[sens.selected]
    assert sorted(chosen.method) == ["CUU", "CUU(2000)", "TSGSU"]
    assert (chosen.status == "main run").all() and (sens[~sens.selected].status == "ok").all()
    # sensitivity.methods restricts the refits to the methods named (the default profile's
    # cost cut); the others are neither refitted nor listed
    only = {**cfg, "sensitivity": {**cfg["sensitivity"], "methods": ["TSGSU", "CUU(2000)"]}}
    part = E.run_sensitivity(only, sel, raw, executor=IN_PROCESS, progress=False)
    assert set(part.method) == {"TSGSU", "CUU(2000)"}
    pd.testing.assert_frame_equal(  # the same fits (their timings aside)
        part.drop(columns="seconds").reset_index(drop=True),
        sens[sens.method != "CUU"].drop(columns="seconds").reset_index(drop=True))
    main = raw.set_index("method")["accuracy"]
    for r in chosen.itertuples():                          # the main run's fit, not refitted
        assert r.accuracy == main[r.method], r.method
        # and a refit at the selected step gives exactly that number (TSGSU's main fit is
        # in the faithful mode, step_fit's in the cached one)
        hp = {**E._settings(sel)[("Combined", r.method)]}
        refit = E.step_fit("Combined", 0, r.method, hp, cfg)
        assert refit["status"] == "ok" and refit["accuracy"] == main[r.method], r.method


def test_a_diverging_step_gives_nan_not_an_error(monkeypatch):
    cfg, sel, raw = _tiny_run()
    real = E.fit_method

    def fit(method, *a, **kw):
        if method == "TSGSU" and a[3]["eta0"] == 1.0:
            raise FloatingPointError("diverged")
        return real(method, *a, **kw)

    monkeypatch.setattr(E, "fit_method", fit)
    sens = E.run_sensitivity({**cfg, "methods": ["TSGSU"]}, sel, raw, executor=IN_PROCESS,
                             progress=False).set_index("choice")
    assert sens.loc[1.0, "status"] == "diverged" and np.isnan(sens.loc[1.0, "accuracy"])
    assert sens.loc[4.0, "status"] == "main run" and sens.loc[4.0, "selected"]


def _step_frame(acc_by_choice, method="TSGSU", parameter="tsgsu_eta0", selected=4.0):
    return pd.DataFrame([{"dataset": d, "trial": 0, "method": method, "parameter": parameter,
                          "choice": c, "selected": c == selected, "accuracy": a,
                          "seconds": 1.0, "status": "ok"}
                         for d in ("Combined", "Covtype") for c, a in acc_by_choice.items()])


def test_a_claim_that_flips_with_the_step_gets_protocol_choice():
    """Claims 2b and 7 fail on the main run (TSGSU below SUSL(Nonlinear)); TSGSU's accuracy
    at eta0 = 16 on trial 0 would make both hold: a protocol_choice cause with parameter
    tsgsu_eta0. The CUU step moves nothing: no cause from it."""
    cfg = E.config(SMALL)
    raw, abl, mem, rate, lem = _inputs()
    raw.loc[raw.method == "TSGSU", "accuracy"] = 0.78
    cl = E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg, lem)
    own = cl.set_index("claim").verdict
    assert own["2b"] == "does_not_hold" and own["7"] == "does_not_hold"
    sv = pd.concat([_step_frame({1.0: 0.77, 4.0: 0.78, 16.0: 0.90}),
                    _step_frame({1.0: 0.85, 4.0: 0.85}, "CUU", "cuu_eta0_mult", 1.0)],
                   ignore_index=True)
    ev = E.causes_evidence(cl, cfg, raw=raw, ablation=abl, memory=mem, rate=rate, lemma=lem,
                           sensitivity=sv)
    sens = ev["sens"]
    step = sens[sens.parameter == "tsgsu_eta0"]
    assert set(step.artifact) == {_art("2b"), _art("7")}
    v = step[step.artifact == _art("2b")].set_index("choice")["reproduced"]
    assert v.to_dict() == {"selected by CV (first 1 trials)": 0.0,
                           "eta0=1 (first 1 trials)": 0.0, "eta0=4 (first 1 trials)": 0.0,
                           "eta0=16 (first 1 trials)": 1.0}
    cuu = sens[sens.parameter == "cuu_eta0_mult"]
    assert set(cuu.choice) == {"selected by CV (first 1 trials)",
                               "eta0_mult=1 (first 1 trials)", "eta0_mult=4 (first 1 trials)"}
    assert (cuu.reproduced == 0.0).all()                   # TSGSU still below: no flip
    comp = E.comparison(raw, cl, cfg, ablation=abl, memory=mem, rate=rate, lemma=lem,
                        sensitivity=sv)
    for c in ("2b", "7"):   # evaluated on declared substitutes: shown, not compared
        r = _cell(comp, c)
        assert r.verdict == "not_comparable" and r.cause == ""
    # the rule itself: the step eta0=16 makes claim 2b hold, so it explains the claim
    pc = protocol_choice(comp, step)
    sel = comp.artifact == _art("2b")
    assert pc.loc[sel, "holds"].all() and (pc.loc[sel, "value"] == 1.0).all()
    assert pc.loc[sel, "evidence"].str.contains("eta0=16").all()
    # must not fire: CUU's steps never make claim 2b hold
    assert not protocol_choice(comp, cuu).loc[sel, "holds"].any()


def test_the_step_evidence_needs_a_claim_that_reproduces():
    cfg = E.config(SMALL)
    raw, abl, mem, rate, lem = _inputs()
    cl = E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg, lem)
    cl.loc[cl.claim == "2b", "verdict"] = "does_not_hold"   # not what these results give
    ev = E.causes_evidence(cl, cfg, raw=raw, ablation=abl, memory=mem, rate=rate,
                           lemma=lem, sensitivity=_step_frame({1.0: 0.5, 4.0: 0.86}))
    s = ev["sens"]
    assert not s[s.parameter == "tsgsu_eta0"].artifact.str.startswith("Claim 2b").any()
    assert s[s.parameter == "tsgsu_eta0"].artifact.str.startswith("Claim 7").any()


def test_bad_sensitivity_inputs_name_the_argument():
    cfg = E.config(SMALL)
    raw, abl, mem, rate, lem = _inputs()
    cl = E.claims(raw, pd.DataFrame(), abl, mem, rate, cfg, lem)
    with pytest.raises(TypeError, match="sensitivity must"):
        E.causes_evidence(cl, cfg, raw=raw, sensitivity=_step_frame({1.0: 0.5}).to_dict())
    with pytest.raises(TypeError, match="sensitivity must"):
        E.comparison(raw, cl, cfg, sensitivity=[1, 2])
    with pytest.raises(ValueError, match="sensitivity lacks"):
        E.causes_evidence(cl, cfg, raw=raw,
                          sensitivity=_step_frame({1.0: 0.5}).drop(columns="choice"))
    with pytest.raises(ValueError, match="unknown parameters"):
        E.causes_evidence(cl, cfg, raw=raw,
                          sensitivity=_step_frame({1.0: 0.5}).assign(parameter="lam"))
    sel = pd.DataFrame({"dataset": ["Combined"], "method": ["TSGSU"], "lam": [0.1]})
    for bad in (0, -1, 1.5, "1", True, None):
        c = E.config({**SMALL, "sensitivity": {"trial_counts": [1], "step_trials": bad}})
        with pytest.raises(ValueError, match="step_trials"):
            E.run_sensitivity(c, sel, raw, executor=IN_PROCESS, progress=False)
    for bad in ([], "TSGSU", ["SUSL(Linear)"], ["TSGSU", "nope"]):
        c = E.config({**SMALL, "sensitivity": {"trial_counts": [1], "step_trials": 1,
                                               "methods": bad}})
        with pytest.raises(ValueError, match=r"\['sensitivity'\]\['methods'\]"):
            E.run_sensitivity(c, sel, raw, executor=IN_PROCESS, progress=False)
    with pytest.raises(TypeError, match="sel must"):
        E.run_sensitivity(cfg, sel.to_dict(), raw, executor=IN_PROCESS, progress=False)
    with pytest.raises(ValueError, match="raw lacks"):
        E.run_sensitivity(cfg, sel, raw.drop(columns="status"), executor=IN_PROCESS,
                          progress=False)
