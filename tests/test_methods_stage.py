"""The methods stage's protocol pieces (weaklabel.experiments.methods), on synthetic records:
no fit, no data set."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel.experiments import methods as E


def test_pareto_front_drops_dominated_points_only():
    t = [1.0, 2.0, 0.5, 3.0, 2.0]
    s = [0.8, 0.9, 0.7, 0.85, 0.9]
    # (3.0, 0.85) is beaten by (2.0, 0.9) on both axes; the rest trade time for accuracy
    np.testing.assert_array_equal(E.pareto_front(t, s), [True, True, True, False, True])
    with pytest.raises(ValueError, match="times and scores"):
        E.pareto_front([1.0], [0.5, 0.6])


def _cfg(**over):
    cfg = {"settings": ["PU"], "grid_size": 2, "pu_datasets": ["a"], "pu_levels": [0.5],
           "pu_methods": ["A", "B"], "pu_grids": {"A": {"lam": [1, 2]}, "B": {}}}
    cfg.update(over)
    return E.config(cfg)


def test_grids_must_have_the_same_size_for_every_method():
    assert _cfg()["grid_size"] == 2                       # a grid of 2 and a method without
    with pytest.raises(ValueError, match=r"pu_grids\['A'\].*grid_size=2"):
        _cfg(pu_grids={"A": {"lam": [1, 2, 3]}, "B": {}})
    with pytest.raises(ValueError, match="pu_grids has no entry for 'B'"):
        _cfg(pu_grids={"A": {"lam": [1, 2]}})
    with pytest.raises(ValueError, match="settings: unknown"):
        _cfg(settings=["XY"])


def _raw(acc_a, acc_b, acc_c, times=(0.1, 1.0, 0.01)):
    rows = []
    for cell in range(len(acc_a)):
        for split in range(3):
            for m, acc, t in zip("ABC", (acc_a, acc_b, acc_c), times):
                rows.append({"setting": "PU", "dataset": f"d{cell}", "level": 0.5,
                             "split": split, "prior_mode": "estimated", "method": m,
                             "selection": "proxy_accuracy", "status": "ok",
                             "test_accuracy": acc[cell] + 0.001 * split,
                             "fit_seconds": t, "one_class": m == "C" and split == 0})
    return pd.DataFrame(rows)


def test_answer_names_the_methods_within_the_critical_difference_and_the_fastest():
    cfg = {"cd_alpha": 0.10}
    # A always best, B always second, C always last over 12 cells: Friedman rejects; C is
    # 2 ranks behind A, beyond the CD of 3 methods on 12 cells (about 0.86)
    n = 12
    raw = _raw([0.9] * n, [0.85] * n, [0.6] * n)
    st = E.statistics(raw, "PU", "proxy_accuracy", "estimated", cfg)
    tm = E.time_accuracy(raw, "PU", "proxy_accuracy", "estimated")
    a = E.answer(st, tm, "PU", alpha=0.05)
    assert a["best"] == "A" and "C" not in a["indistinguishable"]
    assert a["fastest"] in a["indistinguishable"]
    # no difference: alternating winners, Friedman does not reject, every method is tied
    alt = [0.9 if i % 3 == 0 else 0.8 for i in range(n)]
    raw = _raw(alt, [0.8 if i % 3 == 0 else (0.9 if i % 3 == 1 else 0.7) for i in range(n)],
               [0.7 if i % 3 != 2 else 0.95 for i in range(n)])
    st = E.statistics(raw, "PU", "proxy_accuracy", "estimated", cfg)
    tm = E.time_accuracy(raw, "PU", "proxy_accuracy", "estimated")
    a = E.answer(st, tm, "PU", alpha=0.05)
    assert sorted(a["indistinguishable"]) == ["A", "B", "C"] and a["fastest"] == "C"
    assert "Only" not in a["text"]                      # 12 cells: no warning


def test_answer_warns_when_the_cells_are_too_few_for_the_friedman_test():
    cfg = {"cd_alpha": 0.10}
    for n, warned in ((2, True), (10, True), (11, False)):
        raw = _raw([0.9] * n, [0.85] * n, [0.6] * n)
        st = E.statistics(raw, "PU", "proxy_accuracy", "estimated", cfg)
        a = E.answer(st, E.time_accuracy(raw, "PU", "proxy_accuracy", "estimated"), "PU",
                     alpha=0.05)
        assert (f"Only {n} cells" in a["text"]) is warned, (n, a["text"])


def test_table_shows_not_run_methods_and_flags_one_class_cells():
    raw = _raw([0.9], [0.8], [0.7])
    raw = pd.concat([raw, pd.DataFrame([{"setting": "PU", "dataset": "d0", "level": 0.5,
                                         "split": 0, "prior_mode": "estimated",
                                         "method": "Bagging PU (pulearn)",
                                         "selection": "proxy_accuracy",
                                         "status": E.PULEARN_NOT_RUN}])])
    tab = E.summary_table(raw, "PU", "proxy_accuracy", "estimated")
    assert tab.loc[("d0", 0.5), "Bagging PU (pulearn)"] == E.PULEARN_NOT_RUN
    assert tab.loc[("d0", 0.5), "C"].endswith("*") and not tab.loc[("d0", 0.5), "A"].endswith("*")
    # a method with a missing cell is not ranked, and says so
    st = E.statistics(raw, "PU", "proxy_accuracy", "estimated", {"cd_alpha": 0.1})
    assert "Bagging PU (pulearn)" not in st["means"].columns


def test_the_upper_bound_is_drawn_but_not_on_the_users_pareto_front():
    raw = _raw([0.8], [0.7], [0.95], times=(0.1, 0.05, 0.01))
    raw["method"] = raw.method.replace({"C": "Upper bound"})
    tm = E.time_accuracy(raw, "PU", "proxy_accuracy", "estimated").set_index("method")
    # the upper bound is fastest and best: it would dominate both; without it A and B trade
    assert not tm.loc["Upper bound", "pareto"]
    assert tm.loc["A", "pareto"] and tm.loc["B", "pareto"]


@pytest.mark.slow
def test_one_pu_task_end_to_end_on_a_registry_set():
    """One PU task of the smoke profile with two cheap methods and the pulearn guard: every
    prior mode and selection has a record, selection never sees the test rows (the oracle
    reads the training split's unlabelled rows), and the pulearn rows say why they did not
    run where pulearn is missing."""
    from weaklabel.pipeline import load_params

    cfg = E.config(load_params("methods", "smoke"))
    cfg["pu_methods"] = ["GaussianNBPU", "Biased SVM", "Bagging PU (pulearn)"]
    df = pd.DataFrame(E.run_task("PU", "usmo-heart", 0.5, 0, cfg))
    assert set(df.prior_mode) == {"true", "estimated"}
    assert set(df.selection) == {"proxy_accuracy", "proxy_auc", "oracle"}
    ok = df[df.status == "ok"]
    assert set(ok.method) >= {"GaussianNBPU", "Biased SVM"}
    assert ok.test_accuracy.between(0, 1).all() and (ok.prior_estimated > 0).all()
    bag = df[df.method == "Bagging PU (pulearn)"]
    assert (bag.status == "ok").all() if E.pulearn_available() else \
        (bag.status == E.PULEARN_NOT_RUN).all()


def test_every_estimator_with_a_random_state_gets_the_split_seed():
    from weaklabel.pipeline import load_params
    cfg = E.config(load_params("methods", "smoke"))
    for setting in E.SETTINGS:
        for method in E.section(cfg, setting)["methods"]:
            grid = E.section(cfg, setting)["grids"][method]
            params = {k: v[0] for k, v in grid.items()}
            prior = ((0.3, 0.4) if setting == "PU" else 0.3)
            est = E.make_estimator(setting, method, params, prior, seed=7)
            if hasattr(est, "get_params") and "random_state" in est.get_params(deep=False):
                assert est.get_params()["random_state"] == 7, (setting, method)


def test_su_split_lowers_the_unlabelled_rows_only_when_a_class_runs_short(monkeypatch):
    from weaklabel.pipeline import load_params
    cfg = E.config(load_params("methods", "smoke"))
    rng = np.random.default_rng(0)
    # 200 rows: balanced with 20 pairs per 100 rows (room enough); 62 positives with 40
    # pairs per 100 rows (the pairs leave too few rows of one class for the first draw)
    for n_pos, level, shrinks in ((100, 20, False), (62, 40, True)):
        y = np.r_[np.ones(n_pos), -np.ones(200 - n_pos)].astype(int)
        X = rng.normal(size=(200, 3))
        monkeypatch.setattr(E, "_load", lambda name, X=X, y=y: (X, y))
        d = E.make_split("SU", "toy", level, 0, cfg)
        n_pairs = int(d["weak"].sum()) // 2
        full = int(0.7 * (150 - 2 * n_pairs))                     # 150 training rows
        n_u = int((d["weak"] == 0).sum())
        assert (n_u < full) is shrinks, (n_pos, n_u, full)
        assert n_u > 0


def test_elkan_noto_draws_another_hold_out_when_pulearns_holds_no_positive():
    pytest.importorskip("pulearn")
    from pulearn import ElkanotoPuClassifier
    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 3))
    s = np.zeros(100, dtype=int)
    s[:3] = 1                    # 3 labelled of 100: pulearn's 20-row hold-out often has none
    failed = 0
    for seed in range(10):
        try:
            ElkanotoPuClassifier(LogisticRegression(), hold_out_ratio=0.2,
                                 random_state=seed).fit(X, s)
        except ValueError:
            failed += 1
        E._PulearnPU("elkanoto", 1.0, seed).fit(X, s)     # never fails here
    assert failed > 0            # the case the retry is for does occur
    with pytest.raises(ValueError):                      # other errors are not retried
        E._PulearnPU("elkanoto", 1.0, 0).fit(X[:, :0], s)
