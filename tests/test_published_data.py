"""Tests for the published-number CSVs in ``src/weaklabel/published/``.

Every CSV has the header ``paper,artifact,row,column,value,spread,note``; one line per
published table cell. ``value`` is the number as printed (no % sign), ``spread`` the printed
``±`` part, ``note`` a short remark (e.g. a typo in the paper). An empty
``value`` means the cell is blank / "-" / not reported, and ``note`` says why.

Label patterns (``row`` / ``column``):

USMO (Sansone et al., TPAMI 2019)
  * Table II: row = dataset as printed; column = ``# Instances`` | ``# Features``.
  * Table III (linear) / Table IV (Gaussian): row = dataset as printed, plus ``Avg.``;
    column = ``<method>, λ=<lambda>`` with method in ``Init*``, ``[6]``, ``[7]``, ``USMO``
    and lambda printed as ``0.0001``, ``0.001``, ``0.01``, ``0.1``. The ``Avg.`` cells carry
    the ``±`` standard deviation in ``spread``.

MCLS (Chaudhari & Shevade, ICONIP 2012)
  * Table 1: row = dataset; column = ``N`` | ``TR`` | ``TS`` | ``r`` | ``ATS(%)`` (as printed).
  * Table 2: row = dataset; column = ``<method>, L=<10|15|20|25>%`` with method in ``MCLS``,
    ``ILU + ISVM``, ``NB + BSVM``, ``PNB`` (as printed; no 5% column in the paper).
  * Table 3: row = dataset; column = ``<ILU|NB>, L=<5|10|15|20|25>%``.
  * Table 4: row = dataset; column = the printed r header with ASCII signs: ``r``, ``r-0.15``,
    ``r-0.1``, ``r-0.05``, ``r+0.05``, ``r+0.1``, ``r+0.15`` (L is not printed; 20% inferred).

WellSVM (Li, Tsang, Kwok & Zhou, JMLR 2013)
  * Table 1: row = dataset as printed (incl. the misspellings ``Heart-stalog``,
    ``LiveDiscorders``); column = ``# Instances`` | ``# Features`` (thousands separators dropped).
  * Tables 2-4 (SSL, 5/10/15% labels): row = dataset as printed (Table 4 is lower-case);
    column = ``<method>`` for ``mean ± std`` (value, spread) and ``<method>, rank`` for the
    rank in parentheses; method in ``SVM``, ``TSVM``, ``LapSVM``, ``USVM``, ``WellSVM``.
    Summary rows as printed: ``SVM: win/tie/loss`` with columns ``<method>, win|tie|loss``
    (the printed ``a/b/c`` split in three; the SVM column itself is blank), and
    ``ave. acc.``/``ave. rank`` (Table 2) or ``avg. acc.``/``avg. rank`` (Tables 3, 4).
  * Table 5: row = ``<data>, <method>`` (``real-sim, SVM`` ...); column = number of labeled
    examples ``25`` | ``50`` | ``100`` | ``150`` | ``200``.
  * Tables 6, 8: row = method, column = data set (as printed). Table 7: row = data set,
    column = method as printed (``∇S3VM``, ``∇DA``, ...). Table 9: row = concept, column =
    ``#images`` | ``average #ROIs per image``. Table 10: row = method (group labels dropped),
    column = concept. Table 11: row = data set, column = method with the two-line header
    joined (``GMMC``, ``IterSVR``, ``IterSVR-r``, ``CPMMC``, ``WellSVM``).

TSGSU (Shi et al., MLJ 2021)
  * The available text has no table cells (captions only). ``tsgsu.csv`` holds placeholder
    cells with an empty value and a note for the two results tables, labels taken from the
    text: Table 4 rows ``Acoustic``, ``Combined``, ``Covtype``, ``Poker``, ``Year`` (the sixth
    data set is never named); Table 5 rows ``Sim``, ``Svhn``, ``Mnist8m``; columns
    ``SUDH(Linear)``, ``SUDH(Nonlinear)``, ``SUSL(Linear)``, ``SUSL(Nonlinear)``, ``CUU``,
    (Table 5 only) ``CUU(2000)``, ``TSGSU``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

PUBLISHED = Path(__file__).resolve().parents[1] / "src/weaklabel/published"
HEADER = ["paper", "artifact", "row", "column", "value", "spread", "note"]
KEY = ["paper", "artifact", "row", "column"]
PAPERS = ["usmo", "mcls", "wellsvm", "tsgsu"]


def _read(paper: str) -> pd.DataFrame:
    path = PUBLISHED / f"{paper}.csv"
    if not path.exists():
        pytest.skip(f"{path.name} not written yet")
    return pd.read_csv(
        path,
        dtype={"paper": str, "artifact": str, "row": str, "column": str, "note": str},
        keep_default_na=False,
        na_values={"value": [""], "spread": [""]},
        encoding="utf-8",
    )


def _cell(df: pd.DataFrame, artifact: str, row: str, column: str) -> pd.Series:
    sel = df[(df["artifact"] == artifact) & (df["row"] == row) & (df["column"] == column)]
    assert len(sel) == 1, f"expected exactly one cell for {artifact!r} {row!r} {column!r}"
    return sel.iloc[0]


# --------------------------------------------------------------------------- generic checks


@pytest.mark.parametrize("paper", PAPERS)
def test_header(paper: str) -> None:
    path = PUBLISHED / f"{paper}.csv"
    if not path.exists():
        pytest.skip(f"{path.name} not written yet")
    with path.open(encoding="utf-8") as fh:
        first = fh.readline().rstrip("\r\n")
    assert first == ",".join(HEADER)
    assert list(_read(paper).columns) == HEADER


@pytest.mark.parametrize("paper", PAPERS)
def test_keys_unique_and_paper_column(paper: str) -> None:
    df = _read(paper)
    assert len(df) > 0
    assert (df["paper"] == paper).all()
    dup = df[df.duplicated(KEY, keep=False)]
    assert dup.empty, dup[KEY].to_string()
    for col in ["artifact", "row", "column"]:
        assert (df[col].str.strip() != "").all()
        assert (df[col] == df[col].str.strip()).all()


@pytest.mark.parametrize("paper", PAPERS)
def test_values_numeric_and_blank_cells_explained(paper: str) -> None:
    df = _read(paper)
    assert pd.api.types.is_float_dtype(df["value"]) or pd.api.types.is_integer_dtype(df["value"])
    assert pd.api.types.is_numeric_dtype(df["spread"])
    blank = df[df["value"].isna()]
    assert (blank["note"].str.strip() != "").all(), blank[KEY].to_string()
    # a spread never appears without a value, and is non-negative
    assert not (df["value"].isna() & df["spread"].notna()).any()
    assert (df["spread"].dropna() >= 0).all()


# --------------------------------------------------------------------------- USMO

USMO_DATASETS = [
    "Australian", "Clean1", "Diabetes", "Heart", "Heart-statlog", "House", "House-votes",
    "Ionosphere", "Isolet", "Krvskp", "Liverdisorders", "Spectf",
]  # fmt: skip
USMO_METHODS = ["Init*", "[6]", "[7]", "USMO"]
USMO_LAMBDAS = ["0.0001", "0.001", "0.01", "0.1"]
USMO_COLUMNS = [f"{m}, λ={lam}" for lam in USMO_LAMBDAS for m in USMO_METHODS]


@pytest.fixture(scope="module")
def usmo() -> pd.DataFrame:
    return _read("usmo")


def test_usmo_artifacts(usmo: pd.DataFrame) -> None:
    assert set(usmo["artifact"]) == {"Table II", "Table III", "Table IV"}
    t2 = usmo[usmo["artifact"] == "Table II"]
    assert len(t2) == 17 * 2
    assert set(t2["column"]) == {"# Instances", "# Features"}
    assert set(USMO_DATASETS) <= set(t2["row"])


@pytest.mark.parametrize("artifact", ["Table III", "Table IV"])
def test_usmo_table_shape(usmo: pd.DataFrame, artifact: str) -> None:
    t = usmo[usmo["artifact"] == artifact]
    body = t[t["row"] != "Avg."]
    avg = t[t["row"] == "Avg."]
    assert len(body) == 12 * 4 * 4 == 192
    assert set(body["row"]) == set(USMO_DATASETS)
    assert set(body["column"]) == set(USMO_COLUMNS)
    assert body["value"].notna().all()
    assert body["spread"].isna().all()
    assert len(avg) == 16
    assert set(avg["column"]) == set(USMO_COLUMNS)
    assert avg["value"].notna().all() and avg["spread"].notna().all()
    assert len(t) == 208
    assert ((t["value"] >= 0) & (t["value"] <= 100)).all()


@pytest.mark.parametrize("artifact", ["Table III", "Table IV"])
def test_usmo_avg_row_is_mean_of_datasets(usmo: pd.DataFrame, artifact: str) -> None:
    t = usmo[usmo["artifact"] == artifact]
    body = t[t["row"] != "Avg."].pivot(index="row", columns="column", values="value")
    avg = t[t["row"] == "Avg."].set_index("column")
    for col in USMO_COLUMNS:
        mean = body[col].mean()
        sd = body[col].std(ddof=1)  # "±" is the sample std across the 12 sets
        assert abs(mean - avg.loc[col, "value"]) <= 0.1 + 1e-9, (artifact, col, mean)
        assert abs(sd - avg.loc[col, "spread"]) <= 0.1 + 1e-9, (artifact, col, sd)


USMO_SPOT = [
    # (artifact, row, column, value, spread)
    ("Table III", "Avg.", "USMO, λ=0.0001", 67.6, 11.3),
    ("Table III", "Avg.", "[7], λ=0.1", 74.6, 9.9),
    ("Table III", "Avg.", "Init*, λ=0.1", 62.7, 24.9),
    ("Table IV", "Avg.", "[7], λ=0.001", 69.2, 9.2),
    ("Table IV", "Avg.", "[6], λ=0.0001", 62.3, 15.2),
    ("Table IV", "Avg.", "USMO, λ=0.01", 68.4, 9.6),
    # cells equal to a constant predictor's F-measure
    ("Table IV", "Clean1", "USMO, λ=0.1", 76.4, None),
    ("Table IV", "Australian", "[7], λ=0.1", 0.0, None),
    ("Table IV", "Diabetes", "[6], λ=0.1", 82.3, None),
    ("Table IV", "Krvskp", "USMO, λ=0.01", 73.2, None),
    ("Table IV", "Isolet", "Init*", None, None),  # Isolet Init* = 0.0 at every λ
    ("Table III", "Diabetes", "USMO, λ=0.1", 82.3, None),
    ("Table III", "Spectf", "[7], λ=0.1", 81.1, None),
    ("Table III", "Liverdisorders", "USMO, λ=0.01", 68.8, None),
    # the largest USMO-vs-[7] differences of Tables III-IV
    ("Table IV", "House", "[7], λ=0.01", 56.8, None),
    ("Table IV", "House", "USMO, λ=0.01", 54.2, None),
    ("Table III", "Isolet", "[7], λ=0.0001", 91.8, None),
    ("Table III", "Isolet", "USMO, λ=0.0001", 93.7, None),
    ("Table III", "Clean1", "[7], λ=0.1", 77.9, None),
    ("Table III", "Clean1", "USMO, λ=0.1", 75.6, None),
    ("Table III", "Diabetes", "Init*, λ=0.1", 6.5, None),
    ("Table IV", "Diabetes", "Init*, λ=0.1", 0.0, None),
]


@pytest.mark.parametrize(("artifact", "row", "column", "value", "spread"), USMO_SPOT)
def test_usmo_spot_checks(usmo, artifact, row, column, value, spread) -> None:
    if column == "Init*" and value is None:
        for lam in USMO_LAMBDAS:
            assert _cell(usmo, artifact, row, f"Init*, λ={lam}")["value"] == 0.0
        return
    cell = _cell(usmo, artifact, row, column)
    assert cell["value"] == pytest.approx(value)
    if spread is None:
        assert pd.isna(cell["spread"])
    else:
        assert cell["spread"] == pytest.approx(spread)


def test_usmo_table2(usmo: pd.DataFrame) -> None:
    assert _cell(usmo, "Table II", "Krvskp", "# Instances")["value"] == 3196
    assert _cell(usmo, "Table II", "Clean1", "# Features")["value"] == 166
    assert _cell(usmo, "Table II", "Adult", "# Instances")["value"] == 32562
    assert _cell(usmo, "Table II", "Poker-hand", "# Instances")["value"] == 1000000
    assert _cell(usmo, "Table II", "Mnist", "# Features")["value"] == 784
    assert _cell(usmo, "Table II", "Statlog (shuttle)", "# Instances")["value"] == 43500


# --------------------------------------------------------------------------- MCLS

MCLS_DATASETS = ["banana", "thyroid", "heart", "pima", "waveform", "ringnorm", "ionosphere"]
MCLS_T2_METHODS = ["MCLS", "ILU + ISVM", "NB + BSVM", "PNB"]


@pytest.fixture(scope="module")
def mcls() -> pd.DataFrame:
    return _read("mcls")


def test_mcls_shapes(mcls: pd.DataFrame) -> None:
    counts = mcls.groupby("artifact").size().to_dict()
    assert counts == {
        "Table 1": 7 * 5,
        "Table 2": 7 * 4 * 4,
        "Table 3": 7 * 5 * 2,
        "Table 4": 4 * 7,
    }
    t2 = mcls[mcls["artifact"] == "Table 2"]
    assert set(t2["row"]) == set(MCLS_DATASETS)
    assert set(t2["column"]) == {f"{m}, L={L}%" for m in MCLS_T2_METHODS for L in (10, 15, 20, 25)}
    t3 = mcls[mcls["artifact"] == "Table 3"]
    assert set(t3["column"]) == {f"{m}, L={L}%" for m in ("ILU", "NB") for L in (5, 10, 15, 20, 25)}
    t4 = mcls[mcls["artifact"] == "Table 4"]
    assert set(t4["row"]) == {"banana", "pima", "heart", "thyroid"}
    assert mcls["value"].notna().all() and mcls["spread"].isna().all()


def test_mcls_table4_r_column_equals_table2_mcls_at_20pct(mcls: pd.DataFrame) -> None:
    for ds in ["banana", "pima", "heart", "thyroid"]:
        assert (
            _cell(mcls, "Table 4", ds, "r")["value"]
            == _cell(mcls, "Table 2", ds, "MCLS, L=20%")["value"]
        )


def test_mcls_table1_tr_ts_sum_to_n(mcls: pd.DataFrame) -> None:
    t1 = mcls[mcls["artifact"] == "Table 1"].pivot(index="row", columns="column", values="value")
    assert (t1["TR"] + t1["TS"] == t1["N"]).all()


def test_mcls_table2_means(mcls: pd.DataFrame) -> None:
    # Table 2 of the MCLS paper: column means over its 7 data sets
    t2 = mcls[mcls["artifact"] == "Table 2"].groupby("column")["value"].mean()
    expected = {
        "MCLS, L=10%": 79.41, "ILU + ISVM, L=10%": 75.24, "NB + BSVM, L=10%": 74.34,
        "PNB, L=10%": 70.26, "MCLS, L=25%": 86.61, "NB + BSVM, L=25%": 82.59,
        "PNB, L=20%": 75.50, "ILU + ISVM, L=15%": 76.81,
    }  # fmt: skip
    for col, val in expected.items():
        assert t2[col] == pytest.approx(val, abs=0.006), col


MCLS_SPOT = [
    ("Table 1", "banana", "N", 5300),
    ("Table 1", "thyroid", "r", 0.3),
    ("Table 1", "heart", "ATS(%)", 83.22),
    ("Table 1", "ionosphere", "ATS(%)", 96.583),
    ("Table 1", "ringnorm", "TS", 2466),
    ("Table 2", "banana", "MCLS, L=10%", 80.9),
    ("Table 2", "thyroid", "ILU + ISVM, L=10%", 84.2),
    ("Table 2", "thyroid", "ILU + ISVM, L=15%", 87.3),
    ("Table 2", "ionosphere", "MCLS, L=15%", 88.0),
    ("Table 2", "pima", "PNB, L=25%", 69.9),
    ("Table 2", "waveform", "NB + BSVM, L=20%", 70.9),
    ("Table 3", "thyroid", "NB, L=5%", 58.6),
    ("Table 3", "waveform", "NB, L=25%", 79.7),
    ("Table 3", "waveform", "ILU, L=25%", 77.3),
    ("Table 3", "ringnorm", "ILU, L=5%", 90.0),
    ("Table 4", "heart", "r+0.15", 68.8),
    ("Table 4", "banana", "r-0.15", 79.7),
    ("Table 4", "thyroid", "r+0.05", 88.8),
]


@pytest.mark.parametrize(("artifact", "row", "column", "value"), MCLS_SPOT)
def test_mcls_spot_checks(mcls, artifact, row, column, value) -> None:
    assert _cell(mcls, artifact, row, column)["value"] == pytest.approx(value)


# --------------------------------------------------------------------------- WellSVM

WELLSVM_SSL_METHODS = ["SVM", "TSVM", "LapSVM", "USVM", "WellSVM"]
WELLSVM_SSL_TABLES = ["Table 2", "Table 3", "Table 4"]
WELLSVM_SUMMARY_ROWS = {"SVM: win/tie/loss", "ave. acc.", "ave. rank", "avg. acc.", "avg. rank"}


@pytest.fixture(scope="module")
def wellsvm() -> pd.DataFrame:
    return _read("wellsvm")


def _ssl_body(df: pd.DataFrame, artifact: str) -> pd.DataFrame:
    t = df[df["artifact"] == artifact]
    return t[~t["row"].isin(WELLSVM_SUMMARY_ROWS)]


def test_wellsvm_shapes(wellsvm: pd.DataFrame) -> None:
    counts = wellsvm.groupby("artifact").size().to_dict()
    assert counts == {
        "Table 1": 18 * 2,
        "Table 2": 16 * 5 * 2 + 1 + 4 * 3 + 2 * 5,
        "Table 3": 16 * 5 * 2 + 1 + 4 * 3 + 2 * 5,
        "Table 4": 16 * 5 * 2 + 1 + 4 * 3 + 2 * 5,
        "Table 5": 4 * 5,
        "Table 6": 3 * 7,
        "Table 7": 5 * 9,
        "Table 8": 2 * 6,
        "Table 9": 5 * 2,
        "Table 10": 7 * 5,
        "Table 11": 16 * 10,
    }
    # the only blank cells: SVM's own win/tie/loss, BB beyond 2moons, GMMC on Krvskp/Sick
    blank = wellsvm[wellsvm["value"].isna()]
    assert len(blank) == 3 + 4 + 2
    assert set(blank["artifact"]) == {"Table 2", "Table 3", "Table 4", "Table 7", "Table 11"}


@pytest.mark.parametrize("artifact", WELLSVM_SSL_TABLES)
def test_wellsvm_ssl_tables_internal_consistency(wellsvm: pd.DataFrame, artifact: str) -> None:
    body = _ssl_body(wellsvm, artifact)
    acc = body[body["column"].isin(WELLSVM_SSL_METHODS)]
    rank = body[body["column"].str.endswith(", rank")]
    assert len(acc) == len(rank) == 80
    assert acc["spread"].notna().all() and rank["spread"].isna().all()
    # Demšar ranks of 5 methods sum to 15 on every data set, and follow the printed accuracies;
    # the one exception is as printed in the paper (Table 4, heart: a 4-way tie printed as 3,
    # not 3.5) and carries a note
    sums = rank.groupby("row")["value"].sum()
    odd = {"heart"} if artifact == "Table 4" else set()
    assert set(sums[sums != 15].index) == odd
    for row in odd:
        assert sums[row] == 13
        r = rank[rank["row"] == row]
        assert (r[r["value"] == 3]["note"].str.contains("3.5")).all()
    acc_w = acc.pivot(index="row", columns="column", values="value")[WELLSVM_SSL_METHODS]
    rank_w = rank.pivot(index="row", columns="column", values="value")
    rank_w = rank_w[[f"{m}, rank" for m in WELLSVM_SSL_METHODS]]
    recomputed = acc_w.rank(axis=1, ascending=False, method="average")
    mismatch = (recomputed.to_numpy() != rank_w.loc[acc_w.index].to_numpy()).any(axis=1)
    assert set(acc_w.index[mismatch]) == odd
    t = wellsvm[wellsvm["artifact"] == artifact]
    acc_row = t[t["row"].str.endswith("acc.")].set_index("column")["value"]
    rank_row = t[t["row"].str.endswith("rank")].set_index("column")["value"]
    for m in WELLSVM_SSL_METHODS:
        # every ave. rank recomputes exactly, ave. acc. within 0.002
        r = rank[rank["column"] == f"{m}, rank"]["value"].mean()
        assert r == pytest.approx(rank_row[m], abs=5e-5), (artifact, m)
        a = acc[acc["column"] == m]["value"].mean()
        assert abs(a - acc_row[m]) <= 0.002 + 1e-9, (artifact, m, a)
    wtl = t[t["row"] == "SVM: win/tie/loss"]
    for m in WELLSVM_SSL_METHODS[1:]:
        parts = wtl[wtl["column"].str.startswith(f"{m}, ")]
        assert len(parts) == 3
        assert parts["value"].sum() == 16


def test_wellsvm_table11_wellsvm_best_on_13_of_16(wellsvm: pd.DataFrame) -> None:
    t = wellsvm[wellsvm["artifact"] == "Table 11"].pivot(
        index="row", columns="column", values="value"
    )
    best = t.max(axis=1, skipna=True)
    assert int((t["WellSVM"] >= best).sum()) == 13


WELLSVM_SPOT = [
    ("Table 1", "Krvskp", "# Instances", 3196, None),
    ("Table 1", "rcv1", "# Instances", 677399, None),
    ("Table 1", "real-sim", "# Features", 20958, None),
    ("Table 1", "Heart-stalog", "# Features", 13, None),
    ("Table 2", "Echocardiogram", "LapSVM", 0.64, 0.22),
    ("Table 2", "Heart", "WellSVM, rank", 1, None),
    ("Table 2", "ave. acc.", "WellSVM", 0.778, None),
    ("Table 2", "ave. rank", "USVM", 2.2188, None),
    ("Table 2", "SVM: win/tie/loss", "WellSVM, loss", 7, None),
    ("Table 3", "Isolet", "TSVM", 1.00, 0.01),
    ("Table 3", "avg. acc.", "WellSVM", 0.807, None),
    ("Table 3", "avg. rank", "WellSVM", 2.1563, None),
    ("Table 4", "echocardiogram", "USVM", 0.85, 0.0),
    ("Table 4", "spectf", "LapSVM", 0.6, 0.1),
    ("Table 4", "avg. acc.", "WellSVM", 0.811, None),
    ("Table 5", "real-sim, WellSVM", "25", 0.81, 0.08),
    ("Table 5", "rcv1, WellSVM", "50", 0.9, 0.02),
    ("Table 6", "WellSVM", "Text", 33.70, None),
    ("Table 6", "TSVM", "g241c", 24.71, None),
    ("Table 7", "2moons", "BB", 0.0, None),
    ("Table 7", "coil20", "∇DA", 18.9, None),
    ("Table 8", "MMC", "Diabetes", 35.6, None),
    ("Table 8", "WellSVM", "Flare", 28.9, None),
    ("Table 9", "sunset", "average #ROIs per image", 2.32, None),
    ("Table 10", "WellSVM", "firework", 0.68, 0.17),
    ("Table 10", "MI-SVM", "waterfall", 0.06, 0.02),
    ("Table 11", "Australian", "WellSVM", 0.82, None),
    ("Table 11", "Clean1", "GMMC", 0.66, None),
]


@pytest.mark.parametrize(("artifact", "row", "column", "value", "spread"), WELLSVM_SPOT)
def test_wellsvm_spot_checks(wellsvm, artifact, row, column, value, spread) -> None:
    cell = _cell(wellsvm, artifact, row, column)
    assert cell["value"] == pytest.approx(value)
    if spread is None:
        assert pd.isna(cell["spread"])
    else:
        assert cell["spread"] == pytest.approx(spread)


@pytest.mark.parametrize(
    ("artifact", "row", "column"),
    [
        ("Table 7", "g50c", "BB"),
        ("Table 7", "coil20", "BB"),
        ("Table 11", "Krvskp", "GMMC"),
        ("Table 11", "Sick", "GMMC"),
        ("Table 2", "SVM: win/tie/loss", "SVM"),
    ],
)
def test_wellsvm_blank_cells(wellsvm, artifact, row, column) -> None:
    cell = _cell(wellsvm, artifact, row, column)
    assert pd.isna(cell["value"]) and cell["note"]


# --------------------------------------------------------------------------- TSGSU


@pytest.fixture(scope="module")
def tsgsu() -> pd.DataFrame:
    return _read("tsgsu")


def test_tsgsu_no_published_cells_available(tsgsu: pd.DataFrame) -> None:
    # The only available text of the paper has the table captions but no table cells
    # of Tables 4-5: every cell is a placeholder with an empty value and a note. When a copy
    # with the tables is obtained, fill the values and replace this test by spot checks.
    assert tsgsu.groupby("artifact").size().to_dict() == {"Table 4": 5 * 6, "Table 5": 3 * 7}
    assert tsgsu["value"].isna().all() and tsgsu["spread"].isna().all()
    assert tsgsu["note"].str.contains("not transcribable").all()
    assert set(tsgsu[tsgsu["artifact"] == "Table 4"]["row"]) == {
        "Acoustic", "Combined", "Covtype", "Poker", "Year",
    }  # fmt: skip
    assert set(tsgsu[tsgsu["artifact"] == "Table 5"]["row"]) == {"Sim", "Svhn", "Mnist8m"}
    assert "TSGSU" in set(tsgsu["column"]) and "CUU(2000)" in set(tsgsu["column"])


# --------------------------------------------------------------------------- package loader


@pytest.mark.parametrize("paper", PAPERS)
def test_package_loader_reads_labels_intact(paper: str) -> None:
    """weaklabel.published.load uses pandas' default NA parsing: no label may turn into NaN."""
    published = pytest.importorskip("weaklabel.published")
    if paper not in published.available():
        pytest.skip(f"{paper}.csv not written yet")
    df = published.load(paper)
    ours = _read(paper)
    assert len(df) == len(ours)
    for col in ["artifact", "row", "column"]:
        assert df[col].notna().all()
        assert (df[col].astype(str).values == ours[col].values).all()
    assert ((df["value"].isna()) == (ours["value"].isna())).all()
