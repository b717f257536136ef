"""The executed reports a reader opens: no stderr, a title naming the paper, a summary and a
linked contents list, no machine paths; checked on a small synthetic notebook run through
``run_notebook``'s post-processing and on the HTML files in ``reports/``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from weaklabel import pipeline

ROOT = Path(__file__).resolve().parents[1]
REPORTS = sorted((ROOT / "reports").glob("*.html"))
PAPER_REPORTS = [p for p in REPORTS if p.name != "index.html"]
MACHINE_PATHS = re.compile(r"/(work|root|tmp|home)/")


def _md(src, tags=None, cid="m"):
    return {"cell_type": "markdown", "id": cid, "metadata": {"tags": tags or []},
            "source": src}


def _code(src, outputs, tags=None, cid="c"):
    return {"cell_type": "code", "id": cid, "metadata": {"tags": tags or []},
            "execution_count": 1, "source": src, "outputs": outputs}


def _stream(name, text):
    return {"output_type": "stream", "name": name, "text": text}


def _markdown_out(text):
    return {"output_type": "display_data", "metadata": {},
            "data": {"text/markdown": text, "text/plain": "<Markdown>"}}


@pytest.fixture
def synthetic():
    return {
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"},
                     "language_info": {"name": "python"},
                     "papermill": {"start_time": "x", "duration": 1.0}},
        "cells": [
            _md("# Toy — *A Paper on Things* (Someone, 2020)\n\nIntro with $x^2$.\n\n"
                "## Background\n\nMore.", cid="t"),
            _code("profile = 'smoke'", [], tags=["parameters"], cid="p"),
            _md("## Protocol\n\ntext\n\n### Details (a, b)\n\n### λ = 0.01 — *ramp* [6]",
                cid="h1"),
            _code("run()", [_stream("stderr", "100%|####| 3/3 [00:01<00:00]\n"),
                            _stream("stdout", "done\n")], cid="r"),
            _md("## Results", cid="h2"),
            _code("display(Markdown(conclusion))", [_markdown_out("The claim **holds**.")],
                  tags=["hide-input"], cid="k"),
            _code("display(Markdown(summary))", [_markdown_out("SUMMARY: 3 match, 1 differs")],
                  tags=["summary"], cid="s"),
        ],
    }


def test_postprocess_moves_summary_and_adds_contents(synthetic):
    nb = pipeline.postprocess_notebook(synthetic)
    ids = [c["id"] for c in nb["cells"]]
    assert ids[:4] == ["t", "s", "contents", "t-body"]  # the title cell split at its first ##
    assert "Background" not in nb["cells"][0]["source"]
    assert nb["cells"][3]["source"].startswith("## Background")
    assert "start_time" not in nb["metadata"]["papermill"]
    toc = nb["cells"][2]["source"]
    assert '<a href="#Protocol">Protocol</a>' in toc
    assert '<a href="#Results">Results</a>' in toc
    assert '<a href="#Details-(a,-b)">' in toc
    # idempotent: a second pass neither duplicates the contents nor moves anything else
    again = pipeline.postprocess_notebook(nb)
    assert [c["id"] for c in again["cells"]] == ids


def test_postprocess_strips_stderr(synthetic):
    nb = pipeline.postprocess_notebook(synthetic)
    outs = [o for c in nb["cells"] for o in c.get("outputs", [])]
    assert not [o for o in outs if o.get("name") == "stderr"]
    assert [o for o in outs if o.get("name") == "stdout"]


def test_export_html(synthetic):
    html = pipeline.export_html(pipeline.postprocess_notebook(synthetic))
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "A Paper on Things" in title
    assert "100%|" not in html                      # no progress bar
    assert "display(Markdown(conclusion))" not in html  # hidden input
    assert "The claim" in html                      # its output stays
    assert "display(Markdown(summary))" not in html
    assert html.index("SUMMARY: 3 match") < html.index('id="Protocol"')
    # every contents link resolves to a heading id
    for href in re.findall(r'<li><a href="#([^"]+)"', html):
        assert f'id="{href}"' in html, href
    assert "libs/mathjax" not in html and "require.min.js" not in html
    assert pipeline.MATHJAX_URL in html
    assert not MACHINE_PATHS.search(html)


def test_vendored_mathjax_present():
    js = ROOT / "reports" / pipeline.MATHJAX_URL
    assert js.is_file() and js.stat().st_size > 100_000


def _text_without_scripts(html: str) -> str:
    return re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)


@pytest.mark.parametrize("path", PAPER_REPORTS, ids=lambda p: p.name)
def test_report_html(path):
    html = path.read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()
    assert title and title != "Notebook" and not title.startswith(path.stem + ".")
    assert 'data-mime-type="application/vnd.jupyter.stderr"' not in html
    assert "vnd.jupyter.stderr" not in html  # not even the template's style rule for it
    assert 'id="Contents"' in html, "no contents list"
    assert re.search(r'id="Summary[^"]*"', html), "no summary"
    # the summary is short: at most about two screens of visible text before the contents
    a, b = html.index('id="Summary'), html.index('id="Contents"')
    assert a < b
    visible = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html[a:b]))
    assert len(visible) < 8_000, f"summary of {len(visible)} characters"
    assert "cdnjs.cloudflare.com/ajax/libs/mathjax" not in html
    assert not MACHINE_PATHS.search(_text_without_scripts(html))


@pytest.mark.parametrize("path", [p.with_suffix(".ipynb") for p in PAPER_REPORTS],
                         ids=lambda p: p.name)
def test_report_notebook_has_no_stderr(path):
    import json

    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            assert not (o.get("output_type") == "stream" and o.get("name") == "stderr")


def _scaling_frame():
    import numpy as np
    import pandas as pd

    rows = []
    for d in ("A", "B"):
        for k in ("linear", "gaussian"):
            for m in ("USMO", "QP [7]", "ramp [6]"):
                for n in (100, 200):
                    rows.append({"dataset": d, "kernel": k, "method": m, "n_unlabelled": n,
                                 "sigma_rule": "1 (paper)", "test_f1_positive": 0.0,
                                 "seconds": 0.1 * n})
            if k == "gaussian":
                for n in (100, 200):
                    rows.append({"dataset": d, "kernel": k, "method": "USMO",
                                 "n_unlabelled": n, "sigma_rule": "scale",
                                 "test_f1_positive": float(np.float64(n) / 4),
                                 "seconds": 0.1 * n})
    return pd.DataFrame(rows)


def test_scaling_figure_axes_and_legend():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from weaklabel.experiments import usmo as ex

    fig = ex.plot_scaling(_scaling_frame(), "test_f1_positive", "F1 (%)", logy=False,
                          percent=True)
    try:
        for ax in fig.axes:
            assert ax.get_ylim() == (0.0, 100.0)
        labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
        assert any("σ = scale" in t for t in labels)
        for t in labels:  # a method's name, never a bibliography number alone
            assert not re.fullmatch(r"\W*\[\d+\]\W*", t)
            assert re.search(r"[A-Za-z]{3,}", t)
        assert "λ = 0.01" in fig._suptitle.get_text()
    finally:
        plt.close(fig)


def test_scale_sigma_is_sklearn_gamma_scale():
    import numpy as np

    from weaklabel.models._base import scale_sigma

    X = np.random.default_rng(0).random((50, 7))
    gamma = 1.0 / (X.shape[1] * X.var())
    assert np.isclose(1.0 / (2 * scale_sigma(X) ** 2), gamma)


def test_drop_css_rules_removes_only_the_rules_naming_the_needle():
    from weaklabel.pipeline import _drop_css_rules

    html = ("<style>\n.a { x: 1; }\n\n.b[data='vnd.jupyter.stderr'] {\n  y: 2;\n}\n"
            ".c { z: 3; }\n</style><p>vnd.jupyter.stderr in text</p>")
    out = _drop_css_rules(html, "vnd.jupyter.stderr")
    assert ".a { x: 1; }" in out and ".c { z: 3; }" in out and "y: 2" not in out
    assert "<p>vnd.jupyter.stderr in text</p>" in out  # text, not a selector: kept


def test_export_html_shows_a_tagged_markdown_cell_and_hides_a_tagged_code_input(synthetic):
    """A hide tag hides a code cell's input; a Markdown cell's input is its text, so a
    Markdown summary heading tagged ``summary`` is shown (it was hidden once)."""
    nb = pipeline.postprocess_notebook(synthetic)
    nb["cells"].insert(1, {"cell_type": "markdown", "id": "summary-md",
                           "metadata": {"tags": ["summary"]},
                           "source": "## Summary\n\nWhat this run found."})
    html = pipeline.export_html(nb)
    assert 'id="Summary"' in html and "What this run found." in html
    assert "display(Markdown(summary))" not in html  # the tagged code cell's input: hidden
