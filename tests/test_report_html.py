"""The reports' HTML made readable (weaklabel.pipeline.readable_html, one_parameters_cell,
figures_cell, export_html): a link back to the front page, missing values as a dash, long
cells wrapped, the parameters cell once, every figure with its provenance sidecar; each rule
leaves a page it does not concern unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import skip_if_stale

from weaklabel import pipeline

REPO = Path(__file__).resolve().parents[1]

PAGE = """<!DOCTYPE html>
<html><head><title>t</title></head>
<body class="jp-Notebook" data-jp-theme-light="true">
<table class="dataframe"><tbody>
<tr><th>0</th><td>1.5</td><td>{a}</td><td>{b}</td><td>{c}</td></tr>
</tbody></table>
</body></html>
"""


def _parts(html: str) -> tuple[str, str]:
    head, body = html.split("<body", 1)
    return head, body


def test_missing_values_become_a_dash_with_the_value_named():
    html = pipeline.readable_html(PAGE.format(a="NaN", b="&lt;NA&gt;", c="NaT"))
    assert "<td>NaN</td>" not in html and "&lt;NA&gt;</td>" not in html
    assert html.count('class="missing"') == 3
    assert 'title="no value: the table holds &lt;NA&gt;"' in html
    assert "<td>1.5</td>" in html


def test_a_page_without_missing_values_keeps_its_cells():
    # must not fire: words that contain NaN, a NaN inside a longer text, a number
    page = PAGE.format(a="Nancy", b="NaN or 3", c="0.0")
    html = pipeline.readable_html(page)
    assert 'class="missing"' not in html
    for cell in ("<td>Nancy</td>", "<td>NaN or 3</td>", "<td>0.0</td>", "<td>1.5</td>"):
        assert cell in html
    # apart from the back link and the style, the page is the same
    stripped = html.replace(pipeline.BACK_LINK + "\n", "").replace(
        pipeline.REPORT_CSS + "\n", "")
    assert stripped == page


def test_the_back_link_comes_first_in_the_body_and_once():
    html = pipeline.readable_html(PAGE.format(a="x", b="y", c="z"))
    _, body = _parts(html)
    assert body.split(">", 1)[1].lstrip().startswith(pipeline.BACK_LINK)
    assert 'href="index.html"' in pipeline.BACK_LINK
    again = pipeline.readable_html(html)
    assert again == html and again.count(pipeline.BACK_LINK) == 1


def test_long_text_cells_are_wrapped_and_left_aligned_short_ones_untouched():
    evidence = "|delta| 11.78 > tolerance 5 (checked: within_spread, prior, split rule)"
    html = pipeline.readable_html(PAGE.format(a=evidence, b="66.1", c="x"))
    assert f'<td class="long">{evidence}</td>' in html
    assert "<td>66.1</td>" in html and "<td>x</td>" in html
    assert "max-width" in pipeline.REPORT_CSS and "..." not in html


def _cell(src, tags=(), kind="code"):
    return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": src,
            **({"outputs": [], "execution_count": None} if kind == "code" else {})}


def test_the_parameters_cell_shown_once():
    nb = {"cells": [_cell("# T", kind="markdown"), _cell('profile = "default"',
                                                        ["parameters"]),
                    _cell('# Parameters\nprofile = "smoke"\n', ["injected-parameters"]),
                    _cell("x = 1")]}
    out = pipeline.one_parameters_cell(nb)
    assert "remove-cell" in out["cells"][1]["metadata"]["tags"]
    assert "remove-cell" not in out["cells"][2]["metadata"]["tags"]
    assert all("remove-cell" not in c["metadata"]["tags"] for c in out["cells"][2:])


@pytest.mark.parametrize("defaults,injected", [
    ('profile = "default"\nn = 3', 'profile = "smoke"'),  # n is not overridden
    ('profile = "default"\nprint(profile)', 'profile = "smoke"'),  # not only assignments
    ('profile = "default"', None),  # not run by papermill: nothing injected
])
def test_a_parameters_cell_the_injected_one_does_not_replace_is_kept(defaults, injected):
    cells = [_cell(defaults, ["parameters"])]
    if injected is not None:
        cells.append(_cell(injected, ["injected-parameters"]))
    out = pipeline.one_parameters_cell({"cells": cells})
    assert all("remove-cell" not in c["metadata"]["tags"] for c in out["cells"])


def test_export_shows_parameters_once_missing_as_dash_and_links_back():
    table = ("<table><tbody><tr><td>NaN</td><td>2</td></tr></tbody></table>")
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
          "cells": [_cell("# A report", kind="markdown"),
                    _cell('profile = "default"', ["parameters"]),
                    _cell('# Parameters\nprofile = "smoke"\n', ["injected-parameters"]),
                    dict(_cell("t"), outputs=[{"output_type": "display_data", "metadata": {},
                                               "data": {"text/html": table,
                                                        "text/plain": "t"}}])]}
    for i, c in enumerate(nb["cells"]):
        c["id"] = f"c{i}"
    html = pipeline.export_html(nb)
    assert html.count(pipeline.BACK_LINK) == 1
    assert "&quot;default&quot;" not in html and "smoke" in html
    assert "<td>NaN</td>" not in html and 'class="missing"' in html


def test_figures_cell_links_every_figure_and_its_sidecar(tmp_path):
    d = tmp_path / "figures" / "st"
    d.mkdir(parents=True)
    for f in ("a.png", "a.pdf", "a.json", "b.png"):
        (d / f).write_bytes(b"x")
    cell = pipeline.figures_cell("st", tmp_path)
    src = cell["source"]
    assert src.startswith("## Figures and their provenance")
    assert "[png](../figures/st/a.png)" in src and "[pdf](../figures/st/a.pdf)" in src
    assert "[provenance](../figures/st/a.json)" in src
    b = next(line for line in src.splitlines() if line.startswith("- `b`"))
    assert "provenance" not in b and "pdf" not in b  # only links to files that exist
    assert pipeline.figures_cell("none", tmp_path) is None


def test_the_report_kernel_never_cuts_a_cell():
    args = pipeline.kernel_arguments()
    assert all(a.startswith("--IPKernelApp.exec_lines=") for a in args)
    assert any("display.max_colwidth', None" in a for a in args)


REPORTS = sorted(p for p in (REPO / "reports").glob("*.html") if p.name != "index.html")


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: p.name)
def test_every_committed_report_links_back_to_the_index(report):
    skip_if_stale(pipeline._section_of(report.stem))
    assert pipeline.BACK_LINK in report.read_text()
