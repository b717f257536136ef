"""MCLS and its baselines (weaklabel.models.mcls), their initial labels
(weaklabel.models._mcls_labels) and the MCLS protocol (weaklabel.experiments.mcls)."""

import warnings

import numpy as np
import pandas as pd
import pytest

from weaklabel.experiments import mcls as E
from weaklabel.models._mcls_labels import ilu_labels, nb_labels
from weaklabel.models.mcls import (
    ILUISVM,
    MCLS,
    NBBSVM,
    PNB,
    GaussianNBPU,
)

#: run the grid in this process (joblib runs n_jobs=1 sequentially), so that the test sees
#: what a task does to the process (e.g. to the warning filters)
IN_PROCESS = {"backend": "loky", "n_jobs": 1}


@pytest.fixture(scope="module")
def toy():
    X, y = E.make_toy(400, random_state=0)
    rng = np.random.default_rng(0)
    pos = np.flatnonzero(y > 0)
    s = np.zeros(400, dtype=int)
    s[rng.choice(pos, size=40, replace=False)] = 1
    Xte, yte = E.make_toy(1000, random_state=1)
    return X, y, s, Xte, yte


def test_toy_recipe():
    X, y = E.make_toy(400, random_state=3)
    assert X.shape == (400, 2) and np.mean(y > 0) == 0.5


def test_mcls_fits_toy(toy):
    X, y, s, Xte, yte = toy
    m = MCLS(0.5, sigma=0.5, C=1.0, random_state=0)
    assert m.fit(X, s) is m
    assert m.converged_ or m.stop_reason_ == "cycle"
    assert m.n_iter_ <= m.max_iter
    assert m.score(Xte, yte) > 0.9
    # the class-balance step keeps about r positives and the labelled positives positive
    frac = np.mean(m.labels_ > 0)
    assert 0.45 <= frac <= 0.56
    assert np.all(m.labels_[s == 1] == 1)
    assert set(np.unique(m.predict(Xte))) <= {-1, 1}
    assert m.decision_function(Xte).shape == (1000,)


def test_mcls_reused_factor_same_result(toy):
    from weaklabel.kernels import gram
    from weaklabel.solvers.lssvm import LSSVCFactor

    X, y, s, Xte, yte = toy
    K = gram(X, X, "gaussian", sigma=0.5)
    a = MCLS(0.5, sigma=0.5, C=1.0, random_state=0).fit(X, s)
    b = MCLS(0.5, sigma=0.5, C=1.0, random_state=0).fit(X, s, K=K, factor=LSSVCFactor(K, 1.0))
    assert np.array_equal(a.labels_, b.labels_)
    np.testing.assert_allclose(a.decision_function(Xte), b.decision_function(Xte), atol=1e-10)


def test_initialisations_and_baselines(toy):
    X, y, s, Xte, yte = toy
    U = s == 0
    yi = ilu_labels(X, s, 0.5, sigma=0.5, random_state=0)
    yn = nb_labels(X, s)
    assert np.all(yi[s == 1] == 1) and np.all(yn[s == 1] == 1)
    assert np.mean(yi[U] == y[U]) > 0.7
    for est in (ILUISVM(0.5, sigma=0.5, random_state=0), NBBSVM(sigma=0.5, random_state=0),
                PNB(0.5), GaussianNBPU(), MCLS(0.5, sigma=0.5, init="nb")):
        assert est.fit(X, s) is est
        acc = est.score(Xte, yte)
        assert 0.4 <= acc <= 1.0


def test_pnb_hand_example():
    # one binary-like feature: 2 bins; P all in bin 1, U half/half
    X = np.array([[1.0], [1.0], [1.0], [1.0], [0.0], [0.0], [1.0], [1.0]])
    s = np.array([1, 1, 0, 0, 0, 0, 0, 0])
    m = PNB(0.5, n_bins=2).fit(X, s)
    n, L, U = 8, 2, 6
    p = (0.5 * n - L) / U  # r_U = 1/3
    assert m.p_u_ == pytest.approx(p)
    # bins: edge at the median (1.0) -> codes 0 for 0.0, 1 for 1.0 (searchsorted right)
    pp = np.array([0 + 1, 2 + 1]) / (L + 2)
    cu = np.array([2, 4])
    pn = (1 + np.maximum(0, cu - pp * p * U)) / (2 + (1 - p) * U)
    pn /= pn.sum()
    np.testing.assert_allclose(np.exp(m.log_pos_[0]), pp)
    np.testing.assert_allclose(np.exp(m.log_neg_[0]), pn)
    f = m.decision_function(np.array([[0.0], [1.0]]))
    np.testing.assert_allclose(f, np.log(pp / pn))  # prior r = 0.5 -> log-odds 0


@pytest.mark.parametrize("r", [0.0, 1.0, -0.2, 1.5])
def test_bad_r(toy, r):
    X, y, s, *_ = toy
    with pytest.raises(ValueError, match="prior must"):
        MCLS(r).fit(X, s)
    with pytest.raises(ValueError, match="prior must"):
        ILUISVM(r).fit(X, s)
    with pytest.raises(ValueError, match="prior must"):
        PNB(r).fit(X, s)


def test_no_labelled_positives(toy):
    X, y, s, *_ = toy
    with pytest.raises(ValueError, match="s has no labelled positives"):
        MCLS(0.5).fit(X, np.zeros(400))
    with pytest.raises(ValueError, match="labelled_fraction"):
        from weaklabel.data import pu_split

        pu_split(y, labelled_fraction=0.0, rule="fraction", test_size=0.3, random_state=0)


def test_nan_and_sigma(toy):
    X, y, s, *_ = toy
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match="X contains"):
        MCLS(0.5).fit(Xn, s)
    Xi = X.copy()
    Xi[0, 0] = np.inf
    with pytest.raises(ValueError, match="X contains"):
        NBBSVM().fit(Xi, s)
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError, match="sigma"):
            MCLS(0.5, sigma=bad).fit(X, s)
        with pytest.raises(ValueError, match="sigma"):
            ILUISVM(0.5, sigma=bad).fit(X, s)
    with pytest.raises(ValueError, match="prior_pool"):
        MCLS(0.5, prior_pool="x").fit(X, s)
    m = MCLS(0.5, sigma=0.5).fit(X, s)
    with pytest.raises(ValueError, match="X has 3 features"):
        m.predict(np.zeros((2, 3)))


def test_iteration_cap_warns(toy):
    X, y, s, *_ = toy
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m = MCLS(0.5, sigma=0.3, C=100.0, max_iter=1, init="nb").fit(X, s)
    if m.stop_reason_ == "max_iter":
        assert any(issubclass(x.category, ConvergenceWarning) for x in w)


def test_config_rejects_unknown_settings():
    assert E.config({"n_reps": 2, "profile": "smoke"})["n_reps"] == 2
    with pytest.raises(ValueError, match="unknown MCLS settings \\['n_jobs'\\]"):
        E.config({"n_reps": 1, "n_jobs": 1})


def test_protocol_one_repetition(monkeypatch, data_mirror):
    monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(data_mirror))
    cfg = E.config({"datasets": ["thyroid"], "n_reps": 1, "l_pcts": [20],
                    "r_offsets": [0.0, 0.05], "sigma_mults": [1.0], "Cs": [1.0]})
    filters = list(warnings.filters)
    raw = E.run(cfg, executor=IN_PROCESS, progress=False)
    assert warnings.filters == filters  # the task's warning filter is scoped
    tabs = E.tables(raw)
    assert list(tabs) == ["table1", "table2", "table3", "table4"]
    t1 = tabs["table1"]
    assert t1.loc[0, "N"] == 215 and t1.loc[0, "TR"] == 143 and t1.loc[0, "TS"] == 72
    rep = E.reproduced_cells(raw, cfg["tolerances"])
    pub = E.published_frame()
    keys = set(zip(pub.artifact, pub.row, pub.column, strict=True))
    assert set(zip(rep.artifact, rep.row, rep.column, strict=True)) <= keys
    assert {"r", "r+0.05"} <= set(rep[rep.artifact == "Table 4"].column)
    comp = E.comparison(raw, cfg["tolerances"])
    assert len(comp) == len(pub)
    # every raw row says whether its fit predicted one class; the comparison carries it
    for key in ("t1", "main", "t4"):
        assert raw[key]["one_class"].map(type).eq(bool).all()
    run_cells = comp[(comp.row == "thyroid") & comp.artifact.isin(["Table 2", "Table 3"])
                     & comp.reproduced.notna()]
    assert len(run_cells) and run_cells.one_class_share.between(0, 1).all()
    from weaklabel.claims import check_claims

    cl = check_claims(E.claims(raw, cfg))
    row = cl.set_index("claim").loc["T2-better-all-sets"]
    assert row["verdict"] == "inconclusive" and "table: banana, thyroid, heart" in row["note"]
    assert E.summary_numbers(raw)["mean_by_method_L"]["MCLS"].keys() == {20}
    figs = E.figures(raw, pub=pub)
    assert list(figs) == ["table4_r_sweep"]
    import matplotlib.pyplot as plt

    plt.close("all")


def test_mcls_names_and_warning_location(toy):
    """One vocabulary: prior, bias_overshoot (not tol), intercept_ / dual_coef_; the cap
    warning points at the caller's line."""
    X, y, s, *_ = toy
    from sklearn.exceptions import ConvergenceWarning

    from weaklabel.kernels import gram

    params = MCLS().get_params()
    assert params["prior"] is None and "tol" not in params and params["bias_overshoot"] == 0.05
    with pytest.raises(ValueError, match="MCLS: prior is required"):
        MCLS().fit(X, s)
    m = MCLS(0.5, sigma=0.5).fit(X, s)
    np.testing.assert_allclose(m.decision_function(X),
                               gram(X, X, "gaussian", sigma=0.5) @ m.dual_coef_ + m.intercept_,
                               rtol=1e-7, atol=1e-12)  # near 0: BLAS order moves the last bits
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m = MCLS(0.5, sigma=0.3, C=100.0, max_iter=1, init="nb").fit(X, s)
    caps = [x for x in w if issubclass(x.category, ConvergenceWarning)]
    if m.stop_reason_ == "max_iter":
        assert caps and all(x.filename == __file__ for x in caps)
        assert "MCLS stopped at max_iter=1" in str(caps[0].message)


@pytest.mark.parametrize("cls", ["MCLS", "ILUISVM", "NBBSVM"])
def test_mcls_family_kernels(cls):
    """The MCLS-family estimators take the shared kernel parameters (linear, polynomial
    with degree / coef0); the default is the paper's Gaussian and equals it spelt out."""
    import weaklabel.models as M

    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(1.0, 1.0, (60, 3)), rng.normal(-1.0, 1.0, (60, 3))]
    s = np.zeros(120, int)
    s[:25] = 1
    Est = getattr(M, cls)
    kw = {} if cls == "NBBSVM" else {"prior": 0.5}
    base = Est(random_state=0, **kw).fit(X, s)
    gauss = Est(kernel="gaussian", random_state=0, **kw).fit(X, s)
    assert np.array_equal(base.decision_function(X), gauss.decision_function(X))
    assert base.sigma_ > 0
    for kernel, extra in (("linear", {}), ("polynomial", {"degree": 2, "coef0": 0.5})):
        est = Est(kernel=kernel, random_state=0, **extra, **kw).fit(X, s)
        assert est.sigma_ is None
        f = est.decision_function(X)
        assert f.shape == (120,) and np.all(np.isfinite(f))
    with pytest.raises(ValueError, match="kernel"):
        Est(kernel="cosine", **kw).fit(X, s)


# --------------------------------------------------------------------------- causes (#16)
def _raw_for(pub, shift, reps=10, spread=0.0):
    """A raw dict whose every Table 2 MCLS / Table 3 ILU cell is the published value plus
    ``shift``, alternating +- ``spread`` over the repetitions."""
    main = []
    for _, c in pub[pub.artifact.isin(["Table 2", "Table 3"])].iterrows():
        method, L = c["column"].split(", L=")
        if method not in ("MCLS", "ILU"):
            continue
        kind = "test" if c["artifact"] == "Table 2" else "labels_U"
        for rep in range(reps):
            main.append({"dataset": c["row"], "rep": rep, "L_pct": int(L.rstrip("%")),
                         "method": method, "kind": kind, "sigma": 1.0, "C": 1.0,
                         "acc": c["value"] + shift + (spread if rep % 2 else -spread)})
    return {"main": pd.DataFrame(main), "t1": pd.DataFrame(columns=["dataset", "rep", "ATS"]),
            "t4": pd.DataFrame()}


def _mcls_comp(raw, tol):
    from weaklabel.compare import build_comparison

    rows = [{"artifact": a, "row": r, "column": c, "reproduced": v, "tolerance": tol}
            for a, r, c, v in raw["main"].assign(
                artifact=np.where(raw["main"].kind == "test", "Table 2", "Table 3"),
                column=raw["main"].method + ", L=" + raw["main"].L_pct.astype(str) + "%")
            .groupby(["artifact", "dataset", "column"]).acc.mean().reset_index().values]
    return build_comparison(pd.DataFrame(rows), "mcls", artifacts=["Table 2", "Table 3"])


def test_causes_spread_compares_means_with_the_standard_error():
    cfg = E.config()
    pub = E.published_frame()
    # 6 off, std 4.2 over 10 reps: inside 2 std of single runs, but the paper prints means,
    # and 6 is outside 2 standard errors (2.7): the spread must not explain it
    raw = _raw_for(pub, 6.0, spread=4.0)
    out = E.comparison_with_causes(_mcls_comp(raw, 4.0), raw, cfg)
    d = out[(out.verdict == "differs") & out.reproduced.notna()]
    assert len(d) and (d.cause == "unexplained").all()
    assert (d.n_runs == 10).all() and np.allclose(d.reproduced_std, np.std([-4, 4] * 5, ddof=1))
    assert d.evidence.str.contains("s.e. of a difference of means").all()
    # 2 off with tolerance 1: inside 2 standard errors
    raw2 = _raw_for(pub, 2.0, spread=4.0)
    out2 = E.comparison_with_causes(_mcls_comp(raw2, 1.0), raw2, cfg)
    d2 = out2[out2.verdict == "differs"]
    assert len(d2) and (d2.cause == "within_spread").all()


def test_causes_sigma_sensitivity_explains_only_when_a_choice_reaches_the_paper():
    cfg = E.config()
    pub = E.published_frame().set_index(["artifact", "row", "column"])["value"]
    raw = _raw_for(E.published_frame(), 6.0)
    comp = _mcls_comp(raw, 4.0)

    def sens_at(offsets):
        rows = []
        for _, c in raw["main"][raw["main"].method == "MCLS"].drop_duplicates(
                ["dataset", "L_pct"]).iterrows():
            p = pub[("Table 2", c.dataset, f"MCLS, L={c.L_pct}%")]
            for m, off in offsets:
                rows.append({"dataset": c.dataset, "rep": 0, "L_pct": c.L_pct,
                             "parameter": "sigma", "choice": f"sigma={m:g} sqrt(d)",
                             "selected": m == 1.0, "method": "MCLS", "kind": "test",
                             "acc": p + off})
        return pd.DataFrame(rows)

    out = E.comparison_with_causes(comp, raw, cfg, sens_at([(0.5, 0.5), (1.0, 6.0)]))
    d = out[(out.verdict == "differs") & out.reproduced.notna()]
    mc = d[d.column.str.startswith("MCLS")]
    assert len(mc) and (mc.cause == "protocol_choice").all()
    assert np.allclose(mc.explained_value - mc.published, 0.5)
    assert mc.evidence.str.contains("nearest choice sigma=0.5 sqrt").all()
    assert (d[d.column.str.startswith("ILU")].cause == "unexplained").all()
    # must not fire: the cells move by 10 across sigma, but away from the paper
    far = E.comparison_with_causes(comp, raw, cfg, sens_at([(0.5, 16.0), (1.0, 6.0)]))
    assert (far.loc[far.verdict == "differs", "cause"] == "unexplained").all()
