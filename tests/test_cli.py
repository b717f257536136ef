"""Every command-line entry point fails loudly on bad input: a non-zero exit and a message,
never a silent success. (Each entry point's own behaviour is tested beside its module; here
is the failure path of all of them, found by looking for ``__main__`` blocks, so that a new
one cannot be added without a failure path.)"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _entry_points() -> list[Path]:
    files = []
    for base in ("src/weaklabel", "benchmarks", "tools"):
        for f in sorted((REPO / base).rglob("*.py")):
            if 'if __name__ == "__main__"' in f.read_text():
                files.append(f)
    return files


ENTRY_POINTS = _entry_points()
#: a bad invocation of each, and a fragment of the message it must print
BAD = {
    "src/weaklabel/pipeline.py": (["run", "usmo", "--profile", "bogus"], "not a profile"),
    "src/weaklabel/reproducibility.py": (["compare", "/nonexistent1", "/nonexistent2"],
                                         "nothing to compare"),
    "src/weaklabel/stagerun.py": (["watch"], "usage"),
    "src/weaklabel/data/__main__.py": (["fetch", "no-such-dataset"], "no-such-dataset"),
    "src/weaklabel/data/_make_registry.py": ([], "usage"),
    "src/weaklabel/_deps.py": (["--no-such-option"], "unrecognized arguments"),
}
DEFAULT_BAD = (["--no-such-option"], "unrecognized arguments")


def test_every_entry_point_is_listed():
    rels = {f.relative_to(REPO).as_posix() for f in ENTRY_POINTS}
    assert set(BAD) <= rels
    assert len(rels) >= 15, sorted(rels)


@pytest.mark.parametrize("path", ENTRY_POINTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_bad_invocation_exits_non_zero_with_a_message(path, capsys, monkeypatch):
    rel = path.relative_to(REPO).as_posix()
    argv, message = BAD.get(rel, DEFAULT_BAD)
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(sys, "argv", [str(path), *argv])
    if rel.startswith("src/"):
        mod = importlib.import_module(".".join(path.relative_to(REPO / "src").with_suffix(
            "").parts))
    else:
        spec = importlib.util.spec_from_file_location(f"_entry_{path.stem}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    main = mod.main
    takes_argv = bool(inspect.signature(main).parameters)
    try:
        code = main(argv) if takes_argv else main()
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    assert code not in (0, None), f"{rel} {argv} exited 0"
    assert message in out.out + out.err, out.out + out.err
