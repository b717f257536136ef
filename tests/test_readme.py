"""The README's "Usage" section and docs/usage.md run as written.

Every fenced ``python`` block under ``## Usage`` in ``README.md``, and every one of
``docs/usage.md`` (the estimator families beyond PU learning), is executed in a fresh
namespace, on synthetic data or (for the block that loads a registered dataset) on the dataset
mirror of ``conftest.py`` with a temporary cache.
"""

from __future__ import annotations

import importlib.util
import inspect
import re

import pytest
from conftest import DATA_MIRROR, NO_MIRROR_REASON, REPO

from weaklabel.models import DoubleHingePU

README = REPO / "README.md"
USAGE_DOC = REPO / "docs" / "usage.md"


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def usage_blocks() -> list[str]:
    """The ``python`` code blocks of the README's "## Usage" section, then of
    docs/usage.md, in order."""
    text = README.read_text()
    m = re.search(r"^## Usage\n(.*?)(?=^## )", text, flags=re.S | re.M)
    assert m, "README.md has no '## Usage' section"
    return _python_blocks(m.group(1)) + _python_blocks(USAGE_DOC.read_text())


# The example uses the estimator API of the same issue: the `prior` parameter and the PU
# scorers of `weaklabel.metrics`. Until both are in the package the example cannot run.
API_READY = (importlib.util.find_spec("weaklabel.metrics") is not None
             and "prior" in inspect.signature(DoubleHingePU).parameters)


def test_readme_has_runnable_usage_blocks():
    blocks = usage_blocks()
    assert len(blocks) >= 2
    code = "\n".join(blocks)
    for needle in ("GridSearchCV", "weaklabel.metrics", ".predict(", ".score(", "load(",
                   "WellSVM", "TSGSU"):
        assert needle in code


@pytest.mark.xfail(not API_READY, strict=False,
                   reason="README example written against the renamed API (DoubleHingePU(prior=)"
                          ", weaklabel.metrics scorers), not in the package yet")
@pytest.mark.parametrize("index", range(len(usage_blocks())))
def test_readme_usage_block_runs(index, monkeypatch, tmp_path, capsys):
    code = usage_blocks()[index]
    if "weaklabel.data" in code:
        if DATA_MIRROR is None:
            pytest.skip(NO_MIRROR_REASON)
        monkeypatch.setenv("WEAKLABEL_DATA_DIR", str(tmp_path))  # never the user's cache
        monkeypatch.setenv("WEAKLABEL_DATA_MIRROR", str(DATA_MIRROR))
        monkeypatch.setenv("WEAKLABEL_DATA_OFFLINE", "1")
    exec(compile(code, f"README.md usage block {index}", "exec"), {"__name__": "__readme__"})
    assert capsys.readouterr().out.strip()  # every block prints what it shows


def test_relative_links_of_the_readme_and_docs_resolve():
    """Every relative link of README.md and docs/*.md names a file of the repository."""
    broken = []
    for page in [README, *sorted((REPO / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(REPO)} -> {target}")
    assert not broken, broken
    assert len(README.read_text().splitlines()) <= 250, "README.md grew past 250 lines"
