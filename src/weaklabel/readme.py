"""The README's result prose, generated from ``results/`` (numbers are never typed).

``python -m weaklabel.readme`` (the ``summary`` stage of ``dvc.yaml``) runs
:func:`weaklabel.pipeline.summary` (``results/summary.md``, the README's summary block and
``reports/index.html``) and then rewrites every README block between
``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` for which :data:`BLOCKS` has a writer:
``usmo-brief``, ``mcls-brief``, ``wellsvm-brief`` and ``tsgsu-brief``. A block whose
results are missing is left as it is. It also writes ``docs/costs.md`` and the README's
``costs`` block from the stages' ``run`` blocks (:mod:`weaklabel.costs`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ._io import write_text
from .claims import claims_metrics, read_claims
from .costs import COSTS, costs_markdown, readme_lines, stage_runs
from .pipeline import repo_root, summary

__all__ = ["usmo_brief", "mcls_brief", "wellsvm_brief", "tsgsu_brief", "methods_answer",
           "BLOCKS", "PAPERS",
           "papers_block", "render", "main"]


def _read_csv(path):
    import pandas as pd

    return pd.read_csv(path)


def usmo_brief(results: Path) -> str:
    """The bullet list "USMO in brief", from ``results/usmo``."""
    m = json.loads((results / "metrics.json").read_text())
    ab = _read_csv(results / "ablations.csv")
    pap = ab[(ab.stopping == "paper") & (ab.init == "ocsvm")]
    com = ab[(ab.stopping == "complete") & (ab.init == "ocsvm")]
    sf = _read_csv(results / "scores_fixed_split.csv")
    r6 = sf[(sf.method == "[6]") & (sf.scoring == "correct")]
    n_problems = len(com)
    return (
        f"- **Certified solver.** On all {n_problems} Table III/IV problems USMO's dual "
        "objective equals the cvxpy/Clarabel reference to a worst relative gap of "
        f"{m['worst_rel_gap_default_tau']:.1e} at the authors' τ = 2e-3 and "
        f"{m['worst_rel_gap_tight_tau']:.1e} at τ = 1e-6 (`results/usmo/crosscheck.csv`). The "
        "paper's stopping rule (13) misses a KKT condition; with it, "
        f"{int((pap.rel_gap > 1e-4).sum())} of {len(pap)} problems stop with a relative gap "
        f"above 1e-4 (worst {pap.rel_gap.max():.1e}); with the complete rule, "
        f"{int((com.rel_gap > 1e-4).sum())} (worst {com.rel_gap.max():.1e}).\n"
        f"- **Constant-predictor cells:** {m['constant_cells_matched']} of "
        f"{m['constant_cells']} (both scorings) agree with the published numbers; the split "
        "rule, π and the metric set them, so they count as `by_construction`, not as "
        "agreement.\n"
        "- **Which scoring produced the published tables.** The released demo scores "
        "predictions on all of X against the labels of the unlabelled set (misaligned). That "
        "scoring is much closer to the published cells (mean |Δ| "
        f"{m['mean_abs_delta_demo2']:.1f} F-points) than the correct one "
        f"({m['mean_abs_delta_correct']:.1f}): the published non-constant cells very likely "
        "measure the misaligned comparison. Our conclusions use the correct scoring.\n"
        "- **Ramp-loss baseline [6].** Its CCCP steps run on the SMO core; "
        f"{int((r6.warnings > 0).sum())} of {len(r6)} fixed-split ramp fits stopped at the "
        "CCCP cap (`results/usmo/ramp_paths.csv` compares the SMO and cvxpy paths).\n"
    )


def mcls_brief(results: Path) -> str:
    """The bullet list "MCLS in brief", from ``results/mcls``."""
    m = json.loads((results / "metrics.json").read_text())
    comp = _read_csv(results / "comparison.csv")
    t1 = comp[(comp.artifact == "Table 1") & (comp.column == "ATS(%)")]
    t4 = _read_csv(results / "table4.csv")
    peaks = t4.loc[t4.groupby("dataset")["mean"].idxmax()]
    offs = sorted({f"r {o:+.2f}" for o in peaks.r_offset})
    centred = int((peaks.r_offset == 0).sum())
    return (
        "- The LS-SVC solver factorises the label-independent matrix once per (kernel, C) and "
        "reuses it across every MCLS label update: largest relative gap to the cvxpy "
        f"reference {m['crosscheck_max_rel_gap']:.1e}, and "
        f"{'identical' if m['reuse_same_labels'] else 'different'} labels to a dense "
        "re-solve (`results/mcls/crosscheck.csv`).\n"
        f"- Table 1's supervised reference is within ±{t1.tolerance.max():g} points (the "
        f"declared tolerance) on {int((t1.delta.abs() <= t1.tolerance).sum())} of {len(t1)} "
        "datasets.\n"
        f"- Mean margin of MCLS over the best baseline in Table 2: "
        f"{m['mcls_margin_mean']:+.2f} points. "
        f"Table 4's accuracy peaks at the true r on {centred} of {len(peaks)} sets (peaks at "
        f"{', '.join(offs)}).\n"
        + _claims_line("mcls", results)
        + "- Hyperparameters are chosen by a protocol declared in the notebook that uses only "
        "labelled and unlabelled training data.\n"
    )


def _claims_line(stage: str, results: Path) -> str:
    """One bullet: the stage's claim counts and each claim's id and verdict."""
    cl = _claims_or_none(results)
    if cl is None:
        return (f"- **Claims:** `results/{stage}/claims.csv` is not in the common schema yet; "
                f"re-run the stage (`dvc repro -s {stage}`).\n")
    c = claims_metrics(cl)
    each = "; ".join(f"{r.claim} {r.verdict.replace('_', ' ')}" for r in cl.itertuples())
    return (f"- **Claims:** {c['holds']} of {c['total']} hold on our numbers, "
            f"{c['does_not_hold']} do not, {c['inconclusive']} inconclusive, "
            f"{c['not_tested']} not tested ({each}; tests and thresholds in "
            f"`results/{stage}/claims.csv`).\n")


def _claims_or_none(results: Path):
    """The stage's claims table (:func:`weaklabel.claims.read_claims`), or None when it is
    missing or in an older schema (the block then says to re-run the stage)."""
    try:
        return read_claims(results / "claims.csv")
    except (FileNotFoundError, ValueError):
        return None


def wellsvm_brief(results: Path) -> str:
    """The bullet list "WellSVM in brief", from ``results/wellsvm``."""
    m = json.loads((results / "metrics.json").read_text())
    cl = _claims_or_none(results)
    lines = [
        "- **Certified.** The SMO core on label kernels, the three sorting oracles and the "
        "MLKL step of Eq. (15) agree with cvxpy / brute force to a worst relative gap of "
        f"{m['crosscheck_max_rel_gap']:.1e} (`results/wellsvm/crosscheck.csv`); "
        f"{m.get('algorithm_checks_passed', 0)} of {m.get('algorithm_checks', 0)} "
        "algorithm checks pass (Propositions 4-5, Theorems 1-2).\n"]
    if "golden_split1_correct" in m:
        lines.append(
            "- **The authors' code reproduced.** On RSSL's diabetes split 1, "
            "`variant=\"reference\"` gets "
            f"{m['golden_split1_correct']} of {m['golden_n_test']} test points right (the "
            f"authors' code: 151); over all {m['golden_splits']} splits "
            f"{m['golden_accuracy_mean']:.3f} ± {m['golden_accuracy_std']:.3f}, "
            f"{m['golden_seconds_mean']:.2f} s per fit.\n")
    for name, pct in (("table2", 5), ("table3", 10), ("table4", 15)):
        path = results / f"{name}.csv"
        if not path.is_file():
            continue
        t = _read_csv(path)
        by = t.groupby("method", sort=False)["mean"].mean().to_dict()
        best = max(by, key=by.get)
        lines.append(
            f"- **{pct} % labelled** (Table {int(name[-1])}; test accuracy averaged over the "
            f"{t.dataset.nunique()} data sets): "
            + ", ".join(f"{k} {v:.3f}" for k, v in by.items())
            + f"; best: {best}.\n")
    c = claims_metrics(cl) if cl is not None else None
    if c is None:
        lines.append("- **Claims:** `results/wellsvm/claims.csv` is not in the common schema "
                     "yet; re-run the stage (`dvc repro -s wellsvm`).\n")
        return "".join(lines)
    lines.append(f"- **Claims of the semi-supervised part:** {c['holds']} of {c['total']} hold "
                 f"on our numbers, {c['does_not_hold']} do not, {c['inconclusive']} "
                 f"inconclusive, {c['not_tested']} not tested (each with its test in "
                 "`results/wellsvm/claims.csv` and the report).\n")
    return "".join(lines)


def tsgsu_brief(results: Path) -> str:
    """The bullet list "TSGSU in brief", from ``results/tsgsu``."""
    m = json.loads((results / "metrics.json").read_text())
    cl = _claims_or_none(results)
    if cl is None:
        return ("- `results/tsgsu/claims.csv` is not in the common schema yet; re-run the "
                "stage (`dvc repro -s tsgsu`).\n")
    c = claims_metrics(cl)
    lines = [
        "- **No published numbers to match.** The paper's tables survive as captions only; "
        "every table and figure is rebuilt on declared substitute data and each of the "
        f"paper's {c['total']} claims is tested on our results: **{c['holds']} hold, "
        f"{c['does_not_hold']} do not**, {c['inconclusive']} inconclusive, "
        f"{c['not_tested']} not tested in this profile (`results/tsgsu/claims.csv`).\n",
        "- **Certified.** SU-SL's closed form and SU-DH's QP against direct cvxpy "
        "minimisations of the SU risk, the exact-kernel SU minimiser, TSGSU against a numpy "
        "transcription and its two modes against each other: worst relative gap "
        f"{m['crosscheck_worst_rel_gap']:.1e} (`results/tsgsu/crosscheck.csv`).\n"]
    for name, art in (("table4", "Table 4, Gaussian kernel"),
                      ("table5", "Table 5, dot-product kernel")):
        path = results / f"{name}.csv"
        if not path.is_file():
            continue
        t = _read_csv(path).dropna(subset=["mean"])
        if t.empty:
            continue
        by = t.groupby("method", sort=False)["mean"].mean().to_dict()
        lines.append(
            f"- **{art}** (test accuracy %, averaged over {t.dataset.nunique()} substitute "
            "sets): " + ", ".join(f"{k} {v:.1f}" for k, v in by.items()) + ".\n")
    if m.get("peak_mb") is not None:
        lines.append("- **Memory.** TSGSU's peak traced memory stays at "
                     f"{m['peak_mb']:.0f} MB or less up to the largest n_U run "
                     "(`results/tsgsu/memory.csv`).\n")
    failed = cl[cl["verdict"] == "does_not_hold"]
    if len(failed):
        lines.append("- **Claims that do not hold here:** "
                     + "; ".join(f"{r.claim} ({r.source})" for r in failed.itertuples())
                     + ".\n")
    return "".join(lines)


#: the papers' table of the README: (stage, paper, part); a paper's parts share its row text
PAPERS = (
    ("usmo", "Sansone, De Natale, Zhou — *Efficient Training for Positive Unlabeled "
             "Learning*, TPAMI 2019", "Tables III-IV, Figs 1-7"),
    ("mcls", "Chaudhari, Shevade — *Learning from Positive and Unlabelled Examples Using "
             "Maximum Margin Clustering*, 2012", "Tables 1-4, Figs 1-2"),
    ("wellsvm", "Li, Tsang, Kwok, Zhou — *Convex and Scalable Weakly Labeled SVMs*, JMLR "
                "2013", "semi-supervised: Tables 2-4, 6-7, Figs 1-2"),
    ("wellsvm_clustering", "", "clustering: Tables 8, 11, Fig. 7"),
    ("wellsvm_mil", "", "multi-instance: Tables 9-10, Figs 5-6"),
    ("wellsvm_linear", "", "large-scale linear: Table 5, Figs 3-4, 8-9"),
    ("tsgsu", "Shi et al. — *Triply stochastic gradient method for large-scale nonlinear "
              "similar unlabeled classification*, MLJ 2021", "Tables 4-5, Figs 1-4 (claims)"),
)


def papers_block(root: Path) -> str:
    """The README's table of the papers: for each stage, what its comparison counts
    (:func:`weaklabel.compare.headline`), what its claims table says and, on each paper's
    first row, the paper-level class (:func:`weaklabel.claims.paper_verdicts`), from
    ``results/<stage>/``. A stage whose files are missing says so."""
    import pandas as pd

    from .claims import PAPER_STAGES, paper_verdicts
    from .compare import headline, one_scoring

    verdicts = paper_verdicts(root)
    by_stage = {v["stage"]: v for v in verdicts if v["stage"]}
    by_paper = {v["paper"]: v for v in verdicts if v["level"] == "paper"}
    first = {stages[0]: paper for paper, stages in PAPER_STAGES.items()}
    lines = ["| paper | part | published cells compared: agree | counted apart | claims "
             "hold / decided (undecided) | replication class |", "|---|---|---|---|---|---|"]
    for stage, paper, part in PAPERS:
        d = root / "results" / stage
        comp = d / "comparison.csv"
        cells, apart = "not run yet", ""
        if comp.is_file():
            # a table scored two ways (the authors' and the correct scoring) counts once,
            # under the correct scoring
            h = headline(one_scoring(pd.read_csv(comp)))
            cells = (f"{h['agree']} of {h['compared']}" if h["compared"]
                     else "none comparable")
            apart = ", ".join(f"{h[k]} {label}" for k, label in (
                ("by_construction", "set by the protocol"),
                ("not_comparable", "on other data"), ("not_run", "not run"),
                ("uninformative", "trivially reached")) if h.get(k))
        v = by_stage.get(stage)
        if v is None or not v["ok"]:
            claims = "no claims table in the common schema yet"
        else:
            decided = v["holds"] + v["does_not_hold"]
            claims = (f"{v['holds']} / {decided} "
                      f"({v['inconclusive'] + v['not_tested']})")
        cls = ""
        if stage in first:
            pv = by_paper[first[stage]]
            cls = f"**{pv['replication_class']}**"
        lines.append(f"| {paper or '〃'} | `{stage}`: {part} | {cells} | {apart or '–'} | "
                     f"{claims} | {cls or '〃'} |")
    return ("\n".join(lines) + "\n\nGenerated by the `summary` stage from "
            "`results/*/comparison.csv` and `results/*/claims.csv`; what the counts mean: "
            "[docs/causes.md](docs/causes.md); the classes (a paper's over all its parts): "
            "[docs/replication-classes.md](docs/replication-classes.md).\n")


def methods_answer(results: Path) -> str:
    """The README's "Which method should I use?" block: the answer in words the methods
    stage generated from its numbers (``results/methods/answer.md``), without its heading,
    and where the tables and figures are."""
    text = (results / "answer.md").read_text()
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("## ")).strip()
    return (body + "\n\nTables (mean ± std, Friedman test, win/tie/loss, weak-label against "
            "oracle selection, true against estimated prior): `results/methods/`; "
            "critical-difference diagrams and accuracy against fit time: `figures/methods/`; "
            "the protocol: `reports/methods.html`.\n")


#: README block name -> (results folder, writer)
BLOCKS = {"usmo-brief": ("usmo", usmo_brief), "mcls-brief": ("mcls", mcls_brief),
          "wellsvm-brief": ("wellsvm", wellsvm_brief), "tsgsu-brief": ("tsgsu", tsgsu_brief),
          "methods-answer": ("methods", methods_answer)}


def render(text: str, root: Path) -> str:
    """``text`` with every known block rewritten from ``root/results`` (and the ``papers``
    block from :func:`papers_block`)."""
    begin, end = "<!-- papers:begin -->", "<!-- papers:end -->"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{begin}\n{papers_block(root)}{end}{tail}"
    for name, (folder, writer) in BLOCKS.items():
        begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
        results = root / "results" / folder
        if begin not in text or end not in text or not (results / "metrics.json").is_file():
            continue
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{begin}\n{writer(results)}{end}{tail}"
    return text


def cost_rows(root: Path) -> list[dict]:
    """:func:`weaklabel.costs.stage_runs`, a stage that reads no profile (``data``) counted
    with the profile of ``params.yaml``: it runs as part of that profile's pipeline."""
    from .pipeline import read_yaml

    profile = read_yaml(root / "params.yaml").get("profile", "default")
    return [dict(r, profile=r.get("profile") or profile) if r.get("wall_seconds") is not None
            else r for r in stage_runs(root)]


def render_costs(text: str, root: Path) -> str:
    """``text`` with the ``costs`` block (one line per profile, :mod:`weaklabel.costs`)
    rewritten from the stages' ``run`` blocks (:func:`cost_rows`)."""
    begin, end = "<!-- costs:begin -->", "<!-- costs:end -->"
    if begin not in text or end not in text:
        return text
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{readme_lines(cost_rows(root))}{end}{tail}"


def write_costs(root: Path) -> Path:
    """``docs/costs.md`` from :func:`cost_rows`."""
    return write_text(costs_markdown(cost_rows(root)), root / COSTS)


def main(argv=None) -> int:
    import argparse

    from .stagerun import StageRun, stage_of_command

    argparse.ArgumentParser(prog="python -m weaklabel.readme", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter
                            ).parse_args(argv)
    root = repo_root()
    stage = stage_of_command(["python", "-m", "weaklabel.readme"], root)
    with StageRun(stage, root):
        sys.stdout.write(summary(root))
        write_costs(root)
        readme = root / "README.md"
        if readme.is_file():
            old = readme.read_text()
            new = render_costs(render(old, root), root)
            if new != old:
                write_text(new, readme)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
