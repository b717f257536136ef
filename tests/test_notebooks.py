"""Source notebooks are committed without outputs; each has a `parameters` cell with `profile`."""

import json
import re
from pathlib import Path

import pytest
import yaml

from weaklabel.pipeline import clean_notebook, load_params

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def test_one_notebook_per_run_stage():
    """Every ``pipeline run NAME`` stage of dvc.yaml has ``notebooks/NAME.ipynb`` and every
    notebook is run by exactly one stage."""
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    run = [m.group(1) for s in stages.values()
           for m in [re.search(r"weaklabel\.pipeline run (\S+)", s.get("cmd", ""))] if m]
    assert len(run) == len(set(run)), f"a notebook is run by two stages: {sorted(run)}"
    assert {"00_solvers", "usmo", "mcls"} <= set(run)
    assert {p.stem for p in NOTEBOOKS} == set(run)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_no_outputs(path):
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            assert not cell.get("outputs"), f"{path.name} cell {i} has outputs; strip them"
            assert cell.get("execution_count") is None, f"{path.name} cell {i} has a count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_code_compiles_without_warnings(path):
    """Every code cell compiles with warnings as errors: an executed report must hold no
    stderr, and e.g. a LaTeX ``\\s`` in a non-raw f-string warns (and ``\\r`` in one silently
    becomes a carriage return)."""
    import warnings
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        src = "\n".join(line for line in src.splitlines()
                        if not line.lstrip().startswith(("%", "!")))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(src, f"{path.name}[cell {i}]", "exec")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_parameters_cell(path):
    nb = json.loads(path.read_text())
    tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1 and "profile" in "".join(tagged[0]["source"])


def test_params_profiles():
    for profile in ("smoke", "default", "large"):
        p = load_params("solvers", profile, root=REPO)
        assert p["profile"] == profile and p["sizes"]
    with pytest.raises(ValueError, match="profile must be one of"):
        load_params("solvers", "huge", root=REPO)
    with pytest.raises(ValueError, match="no section"):
        load_params("nope", "smoke", root=REPO)


def test_clean_notebook_strips_timings():
    nb = {"metadata": {"papermill": {"start_time": "t", "duration": 1.0, "parameters": {}}},
          "cells": [{"metadata": {"execution": {"iopub": 1},
                                  "papermill": {"duration": 2.0, "status": "completed"}}}]}
    out = clean_notebook(nb)
    assert out["metadata"]["papermill"] == {"parameters": {}}
    assert out["cells"][0]["metadata"] == {"papermill": {}}


# --------------------------------------------------------------------------- documentation
# The method, the protocol and the deviations are markdown written in the notebook (readable
# in notebooks/ without running it); code cells compute and show. A ``Markdown(...)`` call of
# a code cell may carry a short generated line (the numbers of a run, a table's caption), not
# prose: at most this many characters of literal text end up in its argument.
MAX_GENERATED_PROSE = 300
#: an f-string field left in a plain string literal: printed as is, e.g. "{metrics['x']:.3f}"
_FIELD = re.compile(r"\{[A-Za-z_]\w*(?:\[[^\]]+\]|\.\w+)+(?::[^}]*)?\}|\{[A-Za-z_]\w*:[^}]*\}")


def _code_sources(nb: dict) -> list[tuple[str, str]]:
    out = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            src = "".join(cell["source"])
            src = "\n".join(line for line in src.splitlines()
                            if not line.lstrip().startswith(("%", "!")))
            out.append((cell.get("id", str(i)), src))
    return out


def _literal_text(node, assigns: dict, seen: frozenset = frozenset()) -> int:
    """Characters of literal text that end up in the string ``node`` evaluates to: string
    constants and the literal parts of f-strings, through ``+``, conditional expressions,
    ``str.join`` / ``str.format`` and names assigned anywhere in the notebook (a name's
    assignments all count); a value computed by a function counts nothing."""
    import ast

    def lit(n):
        return _literal_text(n, assigns, seen)

    if isinstance(node, ast.Constant):
        return len(node.value) if isinstance(node.value, str) else 0
    if isinstance(node, ast.JoinedStr):
        return sum(lit(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return lit(node.value)
    if isinstance(node, ast.BinOp):
        return lit(node.left) + lit(node.right)
    if isinstance(node, ast.IfExp):
        return lit(node.body) + lit(node.orelse)
    if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
        return lit(node.elt)
    if isinstance(node, (ast.List, ast.Tuple)):
        return sum(lit(e) for e in node.elts)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("join", "format")):
        return lit(node.func.value) + sum(lit(a) for a in node.args)
    if isinstance(node, ast.Name) and node.id in assigns and node.id not in seen:
        return sum(_literal_text(v, assigns, seen | {node.id}) for v in assigns[node.id])
    return 0


def _markdown_calls(sources: list[tuple[str, str]]):
    """``(cell id, call node, assignments)`` for every ``Markdown(...)`` call of the code
    cells; the assignments are the notebook's, by name (a notebook shares one namespace)."""
    import ast

    trees = [(cid, ast.parse(src)) for cid, src in sources]
    assigns: dict = {}
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        assigns.setdefault(t.id, []).append(node.value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                assigns.setdefault(node.target.id, []).append(node.value)
    for cid, tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
            if name == "Markdown":
                yield cid, node, assigns


def generated_prose(nb: dict, limit: int = MAX_GENERATED_PROSE) -> list[tuple[str, int]]:
    """``(cell id, characters)`` of every ``Markdown(...)`` call whose argument carries more
    than ``limit`` characters of literal text (:func:`_literal_text`)."""
    return [(cid, n) for cid, call, assigns in _markdown_calls(_code_sources(nb))
            if (n := _literal_text(call.args[0], assigns)) > limit]


def unrendered_fields(nb: dict) -> list[tuple[str, str]]:
    """``(cell id, text)`` of the f-string fields a reader would see unrendered: in a plain
    string literal inside a ``Markdown(...)`` argument, or ``P[...]`` / ``cfg[...]`` in a
    markdown cell."""
    import ast

    out = []
    for cid, call, _ in _markdown_calls(_code_sources(nb)):
        # a plain literal next to an f-string is a part of it in the syntax tree, and is
        # printed as written: a field there is unrendered (an f-string's own literal text
        # holds one only as ``{{...}}``, which no report needs)
        fmt = {id(n.func.value) for n in ast.walk(call.args[0]) if isinstance(n, ast.Call)
               and isinstance(n.func, ast.Attribute) and n.func.attr == "format"}
        for n in ast.walk(call.args[0]):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in fmt:
                out += [(cid, m.group(0)) for m in _FIELD.finditer(n.value)]
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown":
            text = "".join(cell["source"])
            out += [(cell.get("id", str(i)), m.group(0))
                    for m in re.finditer(r"\b(?:P|cfg)\[[^\]]*\]", text)]
    return out


def _nb(*cells) -> dict:
    return {"cells": [{"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": src}
                      for i, (kind, src) in enumerate(cells)]}


def test_generated_prose_rule_fires_and_passes():
    prose = "The protocol draws the splits at random and " * 10  # 440 characters
    # prose in an f-string of a Markdown call: fires
    nb = _nb(("code", f'display(Markdown(f"{prose} seed {{P[\'seed\']}}."))'))
    assert [cid for cid, _ in generated_prose(nb)] == ["c0"]
    # the same prose in a variable of another cell, joined to a number: fires
    nb = _nb(("code", f'text = "{prose}"'),
             ("code", 'display(Markdown(text + f" {n} fits."))'))
    assert [cid for cid, _ in generated_prose(nb)] == ["c1"]
    # conditional prose and prose joined over rows count too
    nb = _nb(("code", f'display(Markdown("; ".join(f"{{k}}: {prose[:200]}" for k in d)'
                      f' + ("{prose[:150]}" if ok else "")))'))
    assert generated_prose(nb)
    # a short generated line of a run's numbers, a library's markdown, prose in markdown: pass
    nb = _nb(("markdown", prose * 3),
             ("code", 'display(Markdown(f"{len(raw)} tasks in **{t_run:.0f} s** on '
                      '{describe(EXEC)}."))'),
             ("code", 'display(Markdown(claims_markdown(cl)))'),
             ("code", 'display(Markdown(f"{n_refits} refits with β = {seq(fr)} N."))'))
    assert generated_prose(nb) == []


def test_unrendered_field_rule_fires_and_passes():
    fires = _nb(("code", 'display(Markdown(f"{a:.1f} vs " "k-means {metrics[\'b\']:.3f}."))'),
                ("markdown", 'one split (seed `P["seed"]`), `cfg["n_reps"]` repetitions'))
    assert [cid for cid, _ in unrendered_fields(fires)] == ["c0", "c1", "c1"]
    passes = _nb(("code", 'display(Markdown(f"k-means {metrics[\'b\']:.3f}; $\\\\mathrm{{recall}}$"'
                          ' + "{p[x]:.1f} of {n}".format(p={"x": 1}, n=2)))'),
                 ("markdown", "the seed `seed` of the parameter table; $\\frac{P}{2}$"))
    assert unrendered_fields(passes) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_prose_is_markdown(path):
    """Code cells compute and show: no ``Markdown(...)`` call writes prose, and no reader
    sees an unrendered field."""
    nb = json.loads(path.read_text())
    assert generated_prose(nb) == [], (
        f"{path.name}: prose generated in code (cell id, characters of literal text); write "
        "it in a markdown cell and show the run's numbers in a table under it")
    assert unrendered_fields(nb) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_states_its_length_budget(path):
    """The title cell states the report's length budget in screens and links the stage's
    results, where the full tables are."""
    nb = json.loads(path.read_text())
    title = "".join(nb["cells"][0]["source"])
    intro = title.split("\n## ", 1)[0]  # the part that stays above the summary
    m = re.search(r"at most (\d+) screens", intro)
    assert m and 1 <= int(m.group(1)) <= 25, f"{path.name}: no length budget in its title cell"
    assert re.search(r"\]\(\.\./results/[a-z_]+/", intro), f"{path.name}: no link to results/"
