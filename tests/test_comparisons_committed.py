"""Issue #16 on the committed results: every ``differs`` row of every
``results/*/comparison.csv`` carries a cause from the closed vocabulary, and only those rows
do (read only: nothing is run)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from weaklabel.compare import CAUSE_COLUMNS, CAUSES, COLUMNS

REPO = Path(__file__).resolve().parents[1]
COMPARISONS = sorted((REPO / "results").glob("*/comparison.csv"))


@pytest.mark.parametrize("path", COMPARISONS, ids=[p.parent.name for p in COMPARISONS])
def test_every_differing_cell_has_a_cause(path):
    c = pd.read_csv(path, keep_default_na=False, na_values=[""])
    assert list(c.columns) == COLUMNS + CAUSE_COLUMNS, (
        f"{path.parent.name}: written before causes were assigned; re-run its stage")
    differs = c["verdict"] == "differs"
    cause = c["cause"].fillna("").astype(str)
    assert not (differs & (cause == "")).any()
    assert not (~differs & (cause != "")).any()
    used = {x for v in cause for x in v.split(";") if x}
    assert used <= set(CAUSES)
    # every cause comes with its evidence, one text per cause
    ev = c["evidence"].fillna("").astype(str)
    assert all(len(e.split(";")) >= len(k.split(";")) for k, e in zip(cause[differs],
                                                                         ev[differs]))
