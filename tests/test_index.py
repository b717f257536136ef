"""reports/index.html: one page to browse the results; every link resolves."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest

from weaklabel import pipeline

REPO = Path(__file__).resolve().parents[1]


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src"):
                self.links.append((tag, k, v))
            elif k == "id":
                self.ids.add(v)


def _check_links(page: str, reports: Path) -> _Links:
    """Every href/src is relative and names an existing file relative to ``reports``;
    every ``#anchor`` exists on the page."""
    p = _Links()
    p.feed(page)
    assert p.links
    for tag, attr, value in p.links:
        parts = urlsplit(value)
        assert not parts.scheme and not parts.netloc, f"<{tag} {attr}={value!r}> is not local"
        if not parts.path:
            assert parts.fragment in p.ids, f"<{tag} {attr}={value!r}>: no such anchor"
            continue
        target = (reports / unquote(parts.path)).resolve()
        assert target.is_file(), f"<{tag} {attr}={value!r}> does not resolve to a file"
    for needle in ("<link", "<script", "@import", "url("):
        assert needle not in page  # self-contained: no external style sheet, script, font
    return p


def _png(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG\r\n\x1a\n")  # a thumbnail only needs the file to exist


@pytest.fixture
def tree(tmp_path):
    """A small repository tree: two papers (one with a numbered notebook), figures in a
    sub-folder and with a space in the name, a results folder without comparison."""
    root = tmp_path / "repo"
    (root / "results" / "data").mkdir(parents=True)
    (root / "results" / "data" / "datasets.csv").write_text("dataset\nx\n")
    (root / "params.yaml").write_text("profile: smoke\n")
    pa = root / "results" / "alpha"
    pa.mkdir()
    pd.DataFrame({"verdict": ["match", "match", "differs", "within_tolerance"],
                  "cause": ["", "", "unexplained", ""]}).to_csv(pa / "comparison.csv",
                                                                index=False)
    pd.DataFrame({"rel_gap": [1e-9, 3e-7]}).to_csv(pa / "crosscheck.csv", index=False)
    pb = root / "results" / "beta"
    pb.mkdir()
    pd.DataFrame({"rel_gap": [2e-12]}).to_csv(pb / "crosscheck.csv", index=False)
    (root / "reports").mkdir()
    (root / "reports" / "alpha.html").write_text("<html></html>")
    (root / "reports" / "00_beta.html").write_text("<html></html>")
    _png(root / "figures" / "alpha" / "fig 1.png")
    _png(root / "figures" / "alpha" / "sub" / "fig2.png")
    (root / "figures" / "alpha" / "fig1.pdf").write_bytes(b"%PDF")
    _png(root / "figures" / "beta" / "b.png")
    return root


def test_summary_writes_the_index_and_every_link_resolves(tree):
    md = pipeline.summary(tree)
    index = tree / "reports" / "index.html"
    page = index.read_text()
    links = _check_links(page, index.parent)
    hrefs = {v for _, a, v in links.links if a == "href"}
    srcs = {v for _, a, v in links.links if a == "src"}
    assert {"alpha.html", "00_beta.html", "../results/alpha/comparison.csv",
            "../results/alpha/crosscheck.csv", "../results/beta/crosscheck.csv"} <= hrefs
    # a thumbnail (240 px, linking to the full image) of every png, none of the pdf
    pngs = {"../figures/alpha/fig%201.png", "../figures/alpha/sub/fig2.png",
            "../figures/beta/b.png"}
    assert srcs == pngs and pngs <= hrefs
    assert page.count('width="240"') == 3 and "fig1.pdf" not in page
    # grouped by paper: beta's figure comes after beta's heading, alpha's before it
    assert page.index("alpha/sub/fig2.png") < page.index('id="beta"') < page.index("beta/b.png")
    # the summary table carries the numbers of results/summary.md
    assert md == (tree / "results" / "summary.md").read_text()
    for row in (r for r in md.splitlines() if r.startswith("| alpha") or r.startswith("| beta")):
        cells = [c.strip() for c in row.strip("|").split("|")]
        tds = "".join(f"<td>{c}</td>" for c in cells[1:])
        assert tds in page, row
    # columns: published, compared, agree, differ, of which unexplained, of which with
    # one-class fits, uninformative, set by the protocol, on other data, not run,
    # cross-checks, worst gap
    assert "| alpha | – | 4 | 4 | 3 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 2 | 3.0e-07 |" in md
    assert "data" not in {g for g in pipeline._index_groups(tree)}


def test_index_of_the_repository_results_resolves():
    # the committed results, figures and reports (read only: nothing is written)
    page = pipeline.index_html(REPO)
    _check_links(page, REPO / "reports")
    for png in (REPO / "figures").rglob("*.png"):
        assert png.relative_to(REPO / "figures").as_posix() in page


def test_index_without_reports_or_figures(tmp_path):
    root = tmp_path / "bare"
    shutil.copytree(REPO / "results", root / "results",
                    ignore=shutil.ignore_patterns("*.json", "*.md"))
    (root / "params.yaml").write_text("profile: smoke\n")
    pipeline.write_index(root)
    _check_links((root / "reports" / "index.html").read_text(), root / "reports")


def test_a_cell_scored_two_ways_is_counted_once_per_scoring(tmp_path):
    import pandas as pd

    d = tmp_path / "results" / "p"
    d.mkdir(parents=True)
    (tmp_path / "params.yaml").write_text("profile: smoke\n")
    rows = [{"artifact": f"Table I ({sc} scoring)", "row": "r", "column": "c", "verdict": v}
            for sc, v in (("correct", "match"), ("demo2", "differs"))]
    pd.DataFrame(rows).to_csv(d / "comparison.csv", index=False)
    out = pipeline.summary_rows(tmp_path)
    assert [(r["scoring"], r["cells"], r["agree"], r["disagree"]) for r in out] == [
        ("correct", 1, 1, 0), ("demo2", 1, 0, 1)]
    # written before causes were assigned: the unexplained count is a dash, not a zero
    assert {r["unexplained"] for r in out} == {"–"}
    pd.DataFrame(rows).assign(cause=["", "unexplained"]).to_csv(d / "comparison.csv",
                                                                  index=False)
    out = pipeline.summary_rows(tmp_path)
    assert [r["unexplained"] for r in out] == [0, 1]


def _section(page: str, ident: str) -> str:
    """The HTML of the <section> with id ``ident`` (sections of one level do not nest in
    one another except a paper's parts, which close before their paper)."""
    start = page.index(f'id="{ident}"')
    start = page.rindex("<section", 0, start)
    depth, pos = 0, start
    while True:
        nxt_open = page.find("<section", pos + 1)
        nxt_close = page.find("</section>", pos + 1)
        if nxt_open != -1 and nxt_open < nxt_close:
            depth, pos = depth + 1, nxt_open
        elif depth:
            depth, pos = depth - 1, nxt_close
        else:
            return page[start:nxt_close + len("</section>")]


def test_the_index_is_the_front_page_of_each_paper():
    """Per paper of weaklabel.papers.PAPERS: one section with its title and citation, the
    paper-level class and claim counts equal to the claims tables (paper_verdicts), each of
    its stages as a part of it; the solver certification is its own section, not a paper."""
    import html

    from weaklabel.claims import paper_verdicts
    from weaklabel.papers import CERTIFICATION, PAPERS

    page = pipeline.index_html(REPO)
    verdicts = paper_verdicts(REPO)
    for p in PAPERS:
        sec = _section(page, f"paper-{p.key}")
        for text in (p.title, p.authors, str(p.year), p.venue):
            assert html.escape(text) in sec, (p.name, text)
        v = next(r for r in verdicts if r["paper"] == p.name and r["level"] == "paper")
        assert (f'Replication class: <b class="class">{html.escape(v["replication_class"])}'
                "</b>") in sec
        if v["total"] or v["ok"]:
            assert (f"<b>{v['total']}</b> claims: {v['holds']} hold, {v['does_not_hold']} do "
                    f"not hold, {v['inconclusive']} inconclusive, {v['not_tested']} not "
                    "tested") in sec
        else:  # no claims table yet: said so, no count of zero claims
            assert "No claims table in the common schema yet" in sec and "<b>0</b>" not in sec
        for stage in p.stages:
            part = _section(page, stage)
            assert part in sec, (p.name, stage)
            report = REPO / "reports" / f"{stage}.html"
            if report.is_file():
                assert f'href="{stage}.html"' in part
            for f in ("claims.csv", "comparison.csv"):
                if (REPO / "results" / stage / f).is_file():
                    assert f'href="../results/{stage}/{f}"' in part
            for png in sorted((REPO / "figures" / stage).glob("*.png")):
                assert f'src="../figures/{stage}/{png.name}"' in part
    cert = _section(page, "certification")
    for stage, _ in CERTIFICATION:
        assert f'id="{stage}"' in cert
        assert not any(f'id="{stage}"' in _section(page, f"paper-{p.key}") for p in PAPERS)
    assert 'href="00_solvers.html"' in cert
    # WellSVM's four stages: one paper section, no other section for them; a section of
    # its own only for a stage of no paper and no certification (the methods comparison)
    assert page.count('<section class="paper"') == len(PAPERS)
    import re

    from weaklabel.papers import paper_of_stage
    others = re.findall(r'<section class="other" id="([^"]+)"', page)
    assert all(paper_of_stage(s) is None and s not in dict(CERTIFICATION) for s in others), \
        others
    if (REPO / "results" / "methods").is_dir():
        assert others == ["methods"]


def test_the_cells_by_verdict_equal_the_comparison(tree):
    """A paper's part shows the counts of compare.headline on its comparison.csv."""
    from weaklabel.papers import PAPERS

    stage = PAPERS[0].stages[0]
    d = tree / "results" / stage
    d.mkdir()
    rows = [("match", False), ("within_tolerance", False), ("differs", False),
            ("differs", True), ("not_run", False), ("not_published", False)]
    pd.DataFrame({"artifact": ["Table 1"] * len(rows), "verdict": [v for v, _ in rows],
                  "uninformative": [u for _, u in rows]}).to_csv(d / "comparison.csv",
                                                                  index=False)
    page = pipeline.index_html(tree)
    sec = _section(pipeline.index_html(tree), f"paper-{PAPERS[0].key}")
    # cells with a number 5; match 1, within 1, differs 2, trivially reached 1, protocol 0,
    # other data 0, not run 1, without a number 1
    assert ("<td>5</td><td>1</td><td>1</td><td>2</td><td>1</td><td>0</td><td>0</td>"
            "<td>1</td><td>1</td>") in sec
    _check_links(page, tree / "reports")


def test_a_figure_links_its_provenance_sidecar(tree):
    (tree / "figures" / "alpha" / "fig 1.json").write_text("{}")
    page = pipeline.index_html(tree)
    assert '<a href="../figures/alpha/fig%201.json">provenance</a>' in page
    # must not fire: a figure without a sidecar gets no provenance link
    assert "sub/fig2.json" not in page
    _check_links(page, tree / "reports")
