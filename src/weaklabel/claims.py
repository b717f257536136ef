"""One claims table per paper and the paper-level replication class.

``results/<stage>/claims.csv`` has the same columns for every stage (:data:`COLUMNS`):

``claim``
    a short id (``C1``, ``2b`` ...), unique in the file;
``text``
    the claim as the paper states it;
``source``
    where the paper states it (section, table or figure);
``test``, ``threshold``
    how our numbers decide it and the threshold, both declared before the run;
``ours``
    the numbers that decide it (empty when not tested);
``verdict``
    one of :data:`VERDICTS`;
``note``
    why, when the verdict is ``inconclusive`` or ``not_tested``.

:func:`decide` turns a test's outcome into a verdict (a comparison with a degenerate result
is ``inconclusive``, never ``holds``); :func:`check_claims` validates a table before it is
written; :func:`claim_counts` is the one place every view (report, index, README,
``metrics.json``) reads the counts from; :func:`replication_class` is the paper-level class
declared in ``docs/replication-classes.md``, with the thresholds of :data:`CLASS_RULES`.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["COLUMNS", "VERDICTS", "CLASSES", "CLASS_RULES", "decide", "check_claims",
           "claim_counts", "replication_class"]

COLUMNS = ["claim", "text", "source", "test", "threshold", "ours", "verdict", "note"]
VERDICTS = ("holds", "does_not_hold", "inconclusive", "not_tested")
CLASSES = ("replicated", "partly replicated", "not replicated", "not assessable")
#: thresholds of :func:`replication_class` (docs/replication-classes.md), declared before
#: any stage used them
CLASS_RULES = {"min_decided": 3, "replicated": 0.8, "partly": 0.4}


def decide(holds: bool | None, *, degenerate: bool = False, tested: bool = True) -> str:
    """The verdict of one claim: ``not_tested`` when the test was not run, ``inconclusive``
    when its outcome is unknown (``holds`` is None) or rests on a comparison with a
    degenerate result (a fit that predicts one class, a constant curve), else ``holds`` /
    ``does_not_hold``."""
    if not tested:
        return "not_tested"
    if holds is None or degenerate:
        return "inconclusive"
    return "holds" if bool(holds) else "does_not_hold"


def check_claims(df: pd.DataFrame, name: str = "claims") -> pd.DataFrame:
    """``df`` if it is a valid claims table (module docstring), else a ValueError naming the
    problem: missing columns, duplicate ids, a verdict outside :data:`VERDICTS`, a decided
    claim without its test, threshold or numbers, an undecided one without a note."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(df).__name__}.")
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks columns {missing}; a claims table has {COLUMNS}.")
    dup = df["claim"][df["claim"].duplicated()].tolist()
    if dup:
        raise ValueError(f"{name}: claim ids {dup} occur more than once.")
    bad = sorted(set(df["verdict"]) - set(VERDICTS))
    if bad:
        raise ValueError(f"{name}: verdicts {bad} are not in {VERDICTS}.")

    def empty(col):
        return df[col].isna() | (df[col].astype(str).str.strip() == "")

    decided = df["verdict"].isin(("holds", "does_not_hold"))
    for col in ("test", "threshold", "ours"):
        ids = df.loc[decided & empty(col), "claim"].tolist()
        if ids:
            raise ValueError(f"{name}: claims {ids} are decided but have no {col!r}.")
    ids = df.loc[~decided & empty("note"), "claim"].tolist()
    if ids:
        raise ValueError(f"{name}: claims {ids} are inconclusive or not tested without a "
                         "note saying why.")
    return df


def claim_counts(df: pd.DataFrame) -> dict[str, int]:
    """``{verdict: count}`` for every verdict of :data:`VERDICTS` (zeros included)."""
    check_claims(df)
    vc = df["verdict"].value_counts()
    return {v: int(vc.get(v, 0)) for v in VERDICTS}


def replication_class(df: pd.DataFrame, rules: dict | None = None) -> tuple[str, str]:
    """The paper-level class and the sentence that justifies it.

    Of the claims decided (``holds`` or ``does_not_hold``): ``replicated`` when at least
    ``rules["replicated"]`` of them hold, ``partly replicated`` when at least
    ``rules["partly"]``, else ``not replicated``; ``not assessable`` when fewer than
    ``rules["min_decided"]`` claims are decided, or when the undecided claims (inconclusive
    or not tested) outnumber the decided ones."""
    r = {**CLASS_RULES, **(rules or {})}
    c = claim_counts(df)
    decided = c["holds"] + c["does_not_hold"]
    undecided = c["inconclusive"] + c["not_tested"]
    counts = (f"{c['holds']} of {decided} decided claims hold ({undecided} inconclusive or "
              "not tested)")
    if decided < r["min_decided"] or undecided > decided:
        return "not assessable", counts
    share = c["holds"] / decided
    if share >= r["replicated"]:
        return "replicated", counts
    if share >= r["partly"]:
        return "partly replicated", counts
    return "not replicated", counts
