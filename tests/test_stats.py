"""weaklabel.stats: win/tie/loss, Demsar ranks, Friedman test, Bonferroni-Dunn CD.

Hand-checked small examples, and the published Tables 2-4 of Li et al. 2013 (WellSVM):
their per-row ranks recompute from their printed means (except the one row the paper
misprints), and their average ranks give the Friedman statistic quoted for Table 2.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weaklabel import published
from weaklabel.stats import (
    average_ranks,
    bonferroni_dunn_cd,
    friedman_test,
    rank_table,
    win_tie_loss,
)

METHODS = ["SVM", "TSVM", "LapSVM", "USVM", "WellSVM"]


def _published(table):
    df = published.load("wellsvm", table)
    df = df[df["column"].isin(METHODS + [f"{m}, rank" for m in METHODS])]
    df = df[~df["row"].str.contains("win/tie/loss|ave|avg", case=False)]
    wide = df.pivot(index="row", columns="column", values="value").astype(float)
    rows = list(dict.fromkeys(df["row"]))  # the paper's row order
    wide = wide.loc[rows]
    return wide[METHODS], wide[[f"{m}, rank" for m in METHODS]].set_axis(METHODS, axis=1)


# --------------------------------------------------------------------------- ranks
def test_rank_table_hand_example():
    M = np.array([[0.9, 0.8, 0.8, 0.7],
                  [0.5, 0.6, 0.7, 0.8],
                  [0.7, 0.7, 0.7, 0.7]])
    R = rank_table(M)
    np.testing.assert_array_equal(R, [[1, 2.5, 2.5, 4], [4, 3, 2, 1], [2.5, 2.5, 2.5, 2.5]])
    np.testing.assert_allclose(average_ranks(M), [7.5 / 3, 8 / 3, 7 / 3, 7.5 / 3])
    np.testing.assert_array_equal(rank_table(M, higher_is_better=False)[1], [1, 2, 3, 4])
    assert average_ranks(M).sum() == pytest.approx(3 * 10 / 3)  # k(k+1)/2 per row


def test_ranks_of_a_dataframe_keep_labels():
    df = pd.DataFrame([[0.9, 0.8], [0.6, 0.7]], index=["a", "b"], columns=["X", "Y"])
    r = average_ranks(df)
    assert list(r.index) == ["X", "Y"] and r["X"] == 1.5


@pytest.mark.parametrize("table", ["Table 2", "Table 3", "Table 4"])
def test_published_row_ranks_recompute_from_the_published_means(table):
    means, ranks = _published(table)
    assert means.shape == (16, 5)
    mine = rank_table(means)
    bad = [r for r in means.index if not np.allclose(mine.loc[r], ranks.loc[r])]
    # Table 4's heart row is printed (3, 3, 1, 3, 3); tie-averaging gives 3.5 for the four
    # tied methods (its printed ranks sum to 13, not 15).
    assert bad == (["heart"] if table == "Table 4" else [])
    if table == "Table 4":
        np.testing.assert_array_equal(mine.loc["heart"], [3.5, 3.5, 1, 3.5, 3.5])


def test_published_average_ranks_of_table_2():
    means, _ = _published("Table 2")
    np.testing.assert_allclose(average_ranks(means),
                               [3.2188, 2.8125, 4.2813, 2.2188, 2.4688], atol=1e-4)


# --------------------------------------------------------------------------- Friedman, CD
def test_friedman_hand_example():
    # N = 4 data sets, k = 3 methods, always ranked 1, 2, 3: R = (1, 2, 3)
    M = np.array([[3.0, 2.0, 1.0]] * 4)
    res = friedman_test(M)
    # chi2 = 12*4/(3*4) * (1 + 4 + 9 - 3*16/4) = 4 * 2 = 8
    assert res.chi2 == pytest.approx(8.0)
    assert res.pvalue == pytest.approx(np.exp(-8.0 / 2))  # chi2 with 2 df: sf = exp(-x/2)
    assert res.F == np.inf and res.pvalue_F == 0.0  # perfect agreement
    same = friedman_test(np.ones((5, 4)))
    assert same.chi2 == 0.0 and same.pvalue == pytest.approx(1.0) and same.F == 0.0


def test_friedman_on_table_2_from_the_published_ranks():
    means, _ = _published("Table 2")
    res = friedman_test(means)
    # by hand from the printed average ranks (3.21875, 2.8125, 4.28125, 2.21875, 2.46875):
    # 12*16/(5*6) * (47.6171875 - 45) = 16.75
    assert res.chi2 == pytest.approx(16.75)
    assert res.n_datasets == 16 and res.n_methods == 5
    # Iman-Davenport: (N-1) chi2 / (N (k-1) - chi2)
    assert res.F == pytest.approx(15 * res.chi2 / (64 - res.chi2))
    assert res.pvalue < 0.01


def test_bonferroni_dunn_cd():
    # Demsar 2006, Table 5(b): q_0.10 = 1.645 (k=2), 2.241 (k=5)
    assert bonferroni_dunn_cd(2, 1, 0.10) == pytest.approx(1.645 * 1.0, abs=1e-3)
    assert bonferroni_dunn_cd(5, 16, 0.10) == pytest.approx(2.241 * np.sqrt(30 / 96), abs=1e-3)
    assert bonferroni_dunn_cd(5, 16, 0.10) == pytest.approx(1.25, abs=0.01)
    assert bonferroni_dunn_cd(5, 16, 0.05) > bonferroni_dunn_cd(5, 16, 0.10)
    with pytest.raises(ValueError, match="n_methods"):
        bonferroni_dunn_cd(1, 16)
    with pytest.raises(ValueError, match="alpha"):
        bonferroni_dunn_cd(5, 16, 1.5)


# --------------------------------------------------------------------------- win/tie/loss
def test_win_tie_loss_hand_example():
    rng = np.random.default_rng(0)
    base = rng.normal(0.8, 0.02, size=30)
    a = [base + 0.05, base, base - 0.05, base + rng.normal(0, 0.02, 30), base]
    b = [base, base, base, base, base + 0.001 * rng.normal(size=30)]
    res = win_tie_loss(a, b)
    assert res.outcomes[:3] == ["win", "tie", "loss"]
    assert res.outcomes[4] == "tie"
    assert (res.win, res.tie, res.loss) == (1 + (res.outcomes[3] == "win"),
                                            res.outcomes.count("tie"),
                                            1 + (res.outcomes[3] == "loss"))
    assert str(res) == f"{res.win}/{res.tie}/{res.loss}"
    # the counts are from the first method's point of view
    rev = win_tie_loss(b, a)
    assert (rev.win, rev.tie, rev.loss) == (res.loss, res.tie, res.win)


def test_win_tie_loss_against_scipy_pvalue():
    from scipy.stats import ttest_rel

    a = np.array([0.80, 0.82, 0.79, 0.85, 0.81])
    b = np.array([0.78, 0.80, 0.80, 0.80, 0.79])
    p = ttest_rel(a, b).pvalue
    res = win_tie_loss([a], [b], alpha=0.05)
    assert res.pvalues[0] == pytest.approx(p)
    assert res.outcomes == ["win" if p < 0.05 else "tie"]
    assert win_tie_loss([a], [b], alpha=0.5).outcomes == ["win"]  # p ~ 0.13


def test_win_tie_loss_input_errors():
    with pytest.raises(ValueError, match="a_runs has 1 data sets but b_runs has 2"):
        win_tie_loss([[1, 2]], [[1, 2], [3, 4]])
    with pytest.raises(ValueError, match="paired"):
        win_tie_loss([[1, 2, 3]], [[1, 2]])
    with pytest.raises(ValueError, match=r"a_runs\[0\] has 1 run"):
        win_tie_loss([[1]], [[1]])
    with pytest.raises(ValueError, match="alpha"):
        win_tie_loss([[1, 2]], [[1, 2]], alpha=2.0)
    with pytest.raises(ValueError, match="means_table must be 2-D"):
        average_ranks([1, 2, 3])
