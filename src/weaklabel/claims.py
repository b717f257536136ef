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

from .papers import PAPERS as _PAPERS

__all__ = ["COLUMNS", "VERDICTS", "CLASSES", "CLASS_RULES", "decide", "check_claims",
           "claims_metrics", "write_claims", "claims_markdown", "PAPER_STAGES",
           "read_claims", "paper_verdicts", "verdicts_markdown",
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


def claims_metrics(df: pd.DataFrame) -> dict:
    """The block a stage puts in its ``metrics.json`` under ``"claims"``: the count per
    verdict (:func:`claim_counts`), ``total``, and the paper-level class
    (:func:`replication_class`) with its reason."""
    c = claim_counts(df)
    cls, why = replication_class(df)
    return {"total": int(len(df)), **c, "replication_class": cls, "class_reason": why}


def write_claims(df: pd.DataFrame, path) -> pd.DataFrame:
    """Check ``df`` (:func:`check_claims`) and write it atomically to ``path`` with exactly
    :data:`COLUMNS`, in that order; returns the frame written."""
    from ._io import write_csv

    out = check_claims(df, name=str(path))[COLUMNS].reset_index(drop=True)
    write_csv(out, path)
    return out


def claims_markdown(df: pd.DataFrame) -> str:
    """Markdown for a report: one sentence with the counts and the paper-level class, then
    the table (id, claim, where, verdict, our numbers, test and threshold, note)."""
    m = claims_metrics(df)
    head = (f"**{m['total']} claims: {m['holds']} hold, {m['does_not_hold']} do not hold, "
            f"{m['inconclusive']} inconclusive, {m['not_tested']} not tested.** "
            f"Paper-level class: **{m['replication_class']}** ({m['class_reason']}; "
            "rules in `docs/replication-classes.md`).\n\n")

    def cell(x):
        s = "" if x is None or (isinstance(x, float) and x != x) else str(x)
        return s.replace("|", "\\|").replace("\n", " ")

    lines = ["| id | claim | where | verdict | ours | test (threshold) | note |",
             "|---|---|---|---|---|---|---|"]
    for r in df.itertuples(index=False):
        test = cell(r.test) + (f" ({cell(r.threshold)})" if cell(r.threshold) else "")
        lines.append(f"| {cell(r.claim)} | {cell(r.text)} | {cell(r.source)} | "
                     f"**{cell(r.verdict).replace('_', ' ')}** | {cell(r.ours)} | {test} | "
                     f"{cell(r.note)} |")
    return head + "\n".join(lines) + "\n"


#: the papers and the stages whose claims tables make up each paper's verdict (from the
#: table of the papers, :data:`weaklabel.papers.PAPERS`)
PAPER_STAGES = {p.name: p.stages for p in _PAPERS}


def read_claims(path) -> pd.DataFrame:
    """``results/<stage>/claims.csv`` checked (:func:`check_claims`); a missing file or a
    table in another schema is an error naming the file and the stage to re-run."""
    from pathlib import Path

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} does not exist; run the stage "
                                f"(dvc repro -s {path.parent.name}).")
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path} is not in the common claims schema (lacks {missing}); "
                         f"re-run the stage: dvc repro -s {path.parent.name}.")
    return check_claims(df, name=str(path))


def paper_verdicts(root) -> list[dict]:
    """One row per paper of :data:`PAPER_STAGES` (``level`` "paper") and, for a paper of
    several stages, one per stage (``level`` "stage"): ``paper``, ``stage`` (empty on the
    row of a paper of several stages), the counts per verdict, ``total``,
    ``replication_class`` and ``class_reason``. A paper's class is that of the union of its
    stages' claims; a stage whose table is missing or in another schema makes its row and
    its paper's row ``not assessable``, with the reason, and ``ok`` False."""
    from pathlib import Path

    rows = []
    for paper, stages in PAPER_STAGES.items():
        frames, stage_rows, problems = [], [], []
        for s in stages:
            try:
                df = read_claims(Path(root) / "results" / s / "claims.csv")
            except (FileNotFoundError, ValueError) as e:
                problems.append(s)
                stage_rows.append({"paper": paper, "stage": s, "total": 0,
                                   **dict.fromkeys(VERDICTS, 0),
                                   "replication_class": "not assessable",
                                   "class_reason": str(e), "ok": False})
                continue
            frames.append(df)
            stage_rows.append({"paper": paper, "stage": s, **claims_metrics(df), "ok": True})
        if frames:
            allc = pd.concat(frames, ignore_index=True)
            allc["claim"] = range(len(allc))  # ids are unique per stage only
            top = {"paper": paper, "stage": "", **claims_metrics(allc)}
            top["total"] = int(len(allc))
        else:
            top = {"paper": paper, "stage": "", "total": 0, **dict.fromkeys(VERDICTS, 0),
                   "replication_class": "not assessable", "class_reason": "no claims table"}
        if problems:
            top["replication_class"] = "not assessable"
            top["class_reason"] = (f"claims of {', '.join(problems)} missing or in another "
                                   "schema; " + top["class_reason"])
        top["ok"] = not problems
        if len(stages) == 1:
            top["stage"] = stages[0]
        rows.append({**top, "level": "paper"})
        if len(stages) > 1:
            rows += [{**r, "level": "stage"} for r in stage_rows]
    return rows


def verdicts_markdown(rows: list[dict]) -> str:
    """The table of :func:`paper_verdicts` in Markdown (README, ``results/summary.md``)."""
    lines = ["| paper | stage | claims | hold | do not hold | inconclusive | not tested | "
             "replication class |", "|---|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        top = r["level"] == "paper"
        part = f"`{r['stage']}`" if r["stage"] else "all parts"
        cls = r["replication_class"]
        lines.append(f"| {r['paper'] if top else '〃'} | {part} | {r['total']} | "
                     f"{r['holds']} | {r['does_not_hold']} | {r['inconclusive']} | "
                     f"{r['not_tested']} | {'**' + cls + '**' if top else cls} |")
    return "\n".join(lines) + "\n"
