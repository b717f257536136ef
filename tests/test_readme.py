"""The README's "Usage" section runs as written.

Every fenced ``python`` block under ``## Usage`` in ``README.md`` is executed in a fresh
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


def usage_blocks() -> list[str]:
    """The ``python`` code blocks of the README's "## Usage" section, in order."""
    text = README.read_text()
    m = re.search(r"^## Usage\n(.*?)(?=^## )", text, flags=re.S | re.M)
    assert m, "README.md has no '## Usage' section"
    return re.findall(r"^```python\n(.*?)^```", m.group(1), flags=re.S | re.M)


# The example uses the estimator API of the same issue: the `prior` parameter and the PU
# scorers of `weaklabel.metrics`. Until both are in the package the example cannot run.
API_READY = (importlib.util.find_spec("weaklabel.metrics") is not None
             and "prior" in inspect.signature(DoubleHingePU).parameters)


def test_readme_has_runnable_usage_blocks():
    blocks = usage_blocks()
    assert len(blocks) >= 2
    code = "\n".join(blocks)
    for needle in ("GridSearchCV", "weaklabel.metrics", ".predict(", ".score(", "load("):
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
