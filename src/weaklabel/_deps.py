"""Each DVC stage's ``weaklabel`` modules and ``params.yaml`` keys, computed, checked, written.

``python -m weaklabel.pipeline deps [--check | --write] [--no-runtime]``

For every stage of ``dvc.yaml`` whose command is ``python -m weaklabel.<module> ...``:

- **modules** (``deps``): the ``src/weaklabel/**/*.py`` files the command can execute. The
  closure starts from the command's module and, for ``python -m weaklabel.pipeline run NAME``,
  from every import in the code cells of ``notebooks/NAME.ipynb``; it follows every
  ``weaklabel`` import of every module reached, the imports inside functions included (the
  package imports lazily inside functions), resolves relative imports, resolves ``from
  <package> import <name>`` of a lazy package (:mod:`weaklabel._exports`) to the submodule
  that exports the name, and adds the ``__init__.py`` of every package on the way (Python
  runs them). The static closure is checked against a fresh interpreter that runs the
  entry's imports: every ``weaklabel`` module that interpreter loads must be in the closure.
- **package data** (``deps``): the files of :data:`PACKAGE_DATA` of the modules reached, and
  for a ``run NAME`` stage the paper's published numbers ``src/weaklabel/published/NAME.csv``
  when the file exists.
- **params**: ``profile``, then for each ``params.yaml`` section the stage reads (the literal
  arguments of ``load_params("<section>", ...)`` in the notebook and the modules reached) one
  ``<section>.<key>`` per shared key except :data:`NON_RESULT_KEYS`, and the active profile's
  sub-mapping ``<section>.${profile}`` (DVC resolves ``${profile}`` from ``params.yaml``;
  every section therefore defines every profile of
  :data:`weaklabel.pipeline.PROFILES`, a ``large`` that repeats ``default`` as a YAML alias).
  :data:`NON_RESULT_SECTIONS` (the executor) are never stage parameters.

``--write`` rewrites, per stage, the ``src/weaklabel/`` entries of ``deps`` (folders become
files) and the ``params`` list, and keeps every other entry (notebook, results it reads, ...)
with its comments; ``--check`` exits 1 and prints, per stage, the missing and extra entries.
Without an option the computed lists are printed. The runtime comparison (a fresh
interpreter per stage, a few seconds each) is skipped with ``--no-runtime``.

This module is a maintenance tool that no stage runs: :mod:`weaklabel.pipeline` loads it by
name (:data:`weaklabel.pipeline.TOOLS`), so that it is not among the stages' dependencies.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import _exports

PACKAGE = "weaklabel"
#: ``params.yaml`` keys that cannot change a result (in any section): never stage params
NON_RESULT_KEYS = frozenset({"n_jobs"})
#: ``params.yaml`` sections that cannot change a result: never stage params
NON_RESULT_SECTIONS = frozenset({"executor"})
#: package data read by a module (module -> files relative to the repository root)
PACKAGE_DATA = {
    "weaklabel.data._fetch": ("src/weaklabel/data/registry.json",),
}
#: the entries of ``deps`` this tool owns
MANAGED_PREFIX = "src/weaklabel/"
GENERATED_NOTE = "generated: python -m weaklabel.pipeline deps --write"


# --------------------------------------------------------------------------- import graph
class ImportGraph:
    """Static ``weaklabel`` imports of the sources under ``src``."""

    def __init__(self, src: str | Path):
        self.src = Path(src)
        self._imports: dict[str, set[str]] = {}

    # -- modules and files
    def file_of(self, module: str) -> Path | None:
        p = self.src.joinpath(*module.split("."))
        if (p / "__init__.py").is_file():
            return p / "__init__.py"
        if p.with_suffix(".py").is_file():
            return p.with_suffix(".py")
        return None

    def is_package(self, module: str) -> bool:
        f = self.file_of(module)
        return f is not None and f.name == "__init__.py"

    def is_lazy(self, package: str) -> bool:
        """Whether the package's ``__init__`` installs :mod:`weaklabel._exports`."""
        if not self.is_package(package):
            return False
        for node in ast.walk(ast.parse(self.file_of(package).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("_exports"):
                return True
        return False

    def relpath(self, module: str, root: Path) -> str:
        return self.file_of(module).resolve().relative_to(root.resolve()).as_posix()

    # -- the imports of one module
    def _base(self, node: ast.ImportFrom, module: str | None, is_pkg: bool) -> str | None:
        if node.level == 0:
            return node.module
        if module is None:
            return None  # a relative import outside the package (notebook): not ours
        parts = module.split(".") if is_pkg else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        return ".".join(parts + ([node.module] if node.module else []))

    def _resolve_name(self, package: str, name: str) -> set[str]:
        """Modules executed by ``from package import name``, beyond ``package`` itself."""
        sub = f"{package}.{name}"
        if self.file_of(sub) is not None:
            return {sub}
        if self.is_lazy(package):
            d = self.file_of(package).parent
            if name == "*":
                return {f"{package}.{s}" for s in _exports.public_submodules(d)}
            o = _exports.owner(d, name, package)
            if o is not None:
                return {f"{package}.{o}"}
        return set()

    def imports_of_source(self, source: str, module: str | None = None,
                          is_pkg: bool = False, filename: str = "<source>") -> set[str]:
        """``weaklabel`` modules imported anywhere in ``source`` (functions included)."""
        tree, nodes = _parsed(source, filename)
        out: set[str] = set()
        lazy_names: dict[str, str] = {}  # local name -> lazy package bound to it
        for node in nodes:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == PACKAGE or a.name.startswith(PACKAGE + "."):
                        out.add(a.name)
                        bound = a.asname or a.name.split(".")[0]
                        target = a.name if a.asname else a.name.split(".")[0]
                        if self.is_package(target):
                            lazy_names[bound] = target
            elif isinstance(node, ast.ImportFrom):
                base = self._base(node, module, is_pkg)
                if base is None or not (base == PACKAGE or base.startswith(PACKAGE + ".")):
                    continue
                out.add(base)
                for a in node.names:
                    mods = self._resolve_name(base, a.name)
                    out |= mods
                    sub = f"{base}.{a.name}"
                    if sub in mods and self.is_package(sub):
                        lazy_names[a.asname or a.name] = sub
        if lazy_names:
            out |= self._attribute_imports(nodes, lazy_names)
        return out

    def _attribute_imports(self, nodes, names: dict[str, str]) -> set[str]:
        """Attribute access on a bound package (``models.DoubleHingePU``,
        ``weaklabel.models.MCLS``) imports the exporting submodule of a lazy package; any other
        use of a bound lazy package (passed on, ``getattr``) may import all its submodules."""
        out: set[str] = set()
        inside: set[int] = set()
        for node in nodes:
            if not isinstance(node, ast.Attribute):
                continue
            chain, v = [node.attr], node.value
            while isinstance(v, ast.Attribute):
                chain.append(v.attr)
                v = v.value
            if not isinstance(v, ast.Name) or v.id not in names:
                continue
            inside.add(id(v))
            pkg = names[v.id]
            for attr in reversed(chain):  # walk a.b.c through packages
                if not self.is_package(pkg):
                    break
                mods = self._resolve_name(pkg, attr)
                out |= mods
                if not mods:
                    break
                pkg = next(iter(mods))
        for node in nodes:
            if (isinstance(node, ast.Name) and node.id in names and id(node) not in inside
                    and isinstance(node.ctx, ast.Load) and self.is_lazy(names[node.id])):
                d = self.file_of(names[node.id]).parent
                out |= {f"{names[node.id]}.{s}" for s in _exports.public_submodules(d)}
        return out

    def imports(self, module: str) -> set[str]:
        if module not in self._imports:
            f = self.file_of(module)
            self._imports[module] = set() if f is None else self.imports_of_source(
                f.read_text(encoding="utf-8"), module, self.is_package(module), str(f))
        return self._imports[module]

    def closure(self, entries) -> set[str]:
        """Every module reachable from ``entries``, with the packages containing them."""
        seen: set[str] = set()
        todo = list(entries)
        while todo:
            m = todo.pop()
            if m in seen or self.file_of(m) is None:
                continue
            seen.add(m)
            parts = m.split(".")
            todo += [".".join(parts[:i]) for i in range(1, len(parts))]
            todo += sorted(self.imports(m))
        return seen


# --------------------------------------------------------------------------- notebooks
_MAGIC = re.compile(r"^\s*[%!]")


def notebook_source(path: str | Path) -> str:
    """The code cells of a notebook, IPython magics and shell lines dropped."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    cells = []
    for c in nb.get("cells", []):
        if c.get("cell_type") != "code":
            continue
        src = c["source"] if isinstance(c["source"], str) else "".join(c["source"])
        cells.append("\n".join(ln for ln in src.splitlines() if not _MAGIC.match(ln)))
    return "\n\n".join(cells) + "\n"


def import_statements(source: str) -> list[str]:
    """Every ``weaklabel`` import statement of ``source`` (at any depth), as code."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(
                a.name.split(".")[0] == PACKAGE for a in node.names):
            out.append(ast.unparse(node))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (
                node.module or "").split(".")[0] == PACKAGE:
            out.append(ast.unparse(node))
    return out


@functools.lru_cache(maxsize=1024)
def _parsed(source: str, filename: str) -> tuple[ast.AST, tuple[ast.AST, ...]]:
    """The syntax tree of ``source`` and every node of it (parsed once per text)."""
    tree = ast.parse(source, filename=filename)
    return tree, tuple(ast.walk(tree))


def load_params_sections(source: str) -> set[str]:
    """The literal first arguments of ``load_params(...)`` calls in ``source``."""
    return set(_load_params_sections(source))


@functools.lru_cache(maxsize=512)
def _load_params_sections(source: str) -> frozenset[str]:
    out = set()
    for node in _parsed(source, "<source>")[1]:
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name == "load_params" and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                out.add(node.args[0].value)
    return frozenset(out)


# --------------------------------------------------------------------------- stages
@dataclass
class StagePlan:
    """What one stage depends on, computed."""

    name: str
    entries: list[str]                # modules the command imports (entry points)
    notebook: str | None = None        # notebooks/NAME.ipynb for ``run NAME``
    imports: list[str] = field(default_factory=list)  # the notebook's import statements
    modules: set[str] = field(default_factory=set)
    files: list[str] = field(default_factory=list)    # src/weaklabel/** entries of deps
    params: list[str] = field(default_factory=list)


def parse_command(cmd: str) -> tuple[str, list[str]] | None:
    """``("weaklabel.pipeline", ["run", "usmo", ...])`` for ``python -m weaklabel.pipeline run
    usmo ...``; ``None`` for a command that does not run a ``weaklabel`` module."""
    try:
        argv = shlex.split(cmd)
    except ValueError:
        return None
    if "-m" not in argv[:-1] or not re.fullmatch(r"python[0-9.]*", Path(argv[0]).name):
        return None
    i = argv.index("-m")
    module = argv[i + 1]
    if module.split(".")[0] != PACKAGE:
        return None
    return module, argv[i + 2:]


def plan_stages(root: str | Path, stages: dict | None = None) -> dict[str, StagePlan]:
    """The computed deps and params of every stage that runs a ``weaklabel`` module."""
    from .pipeline import PROFILES, TOOLS

    root = Path(root)
    graph = ImportGraph(root / "src")
    if stages is None:
        stages = yaml.safe_load((root / "dvc.yaml").read_text())["stages"]
    params_yaml = yaml.safe_load((root / "params.yaml").read_text())
    plans = {}
    for name, st in stages.items():
        cmd = st.get("cmd")
        parsed = parse_command(cmd if isinstance(cmd, str) else "")
        if parsed is None:
            continue
        module, args = parsed
        if module == f"{PACKAGE}.pipeline" and args and args[0] in TOOLS:
            raise ValueError(f"stage {name}: `{args[0]}` is a maintenance tool, not a stage.")
        entry = f"{module}.__main__" if graph.is_package(module) else module
        plan = StagePlan(name, [entry])
        source = ""
        if module == f"{PACKAGE}.pipeline" and len(args) >= 2 and args[0] == "run":
            plan.notebook = f"notebooks/{args[1]}.ipynb"
            source = notebook_source(root / plan.notebook)
            plan.imports = import_statements(source)
            extra = graph.imports_of_source(source, filename=plan.notebook)
        else:
            extra = set()
        plan.modules = graph.closure([entry, *extra])
        files = {graph.relpath(m, root) for m in plan.modules}
        for m in plan.modules:
            files |= set(PACKAGE_DATA.get(m, ()))
        if plan.notebook is not None:
            paper = Path(plan.notebook).stem
            csv = f"src/weaklabel/published/{paper}.csv"
            if f"{PACKAGE}.published" in plan.modules and (root / csv).is_file():
                files.add(csv)
        plan.files = sorted(files)
        sections = load_params_sections(source)
        for m in sorted(plan.modules):
            sections |= load_params_sections(graph.file_of(m).read_text(encoding="utf-8"))
        plan.params = stage_params(params_yaml, sorted(sections), PROFILES, name)
        plans[name] = plan
    return plans


def stage_params(params: dict, sections: list[str], profiles, stage: str = "") -> list[str]:
    """``profile``, ``<section>.<key>`` per result key, ``<section>.${profile}``."""
    if not sections:
        return []
    out = ["profile"]
    for sec in sections:
        if sec in NON_RESULT_SECTIONS:
            raise ValueError(f"stage {stage}: section {sec!r} cannot change a result and is "
                             "not a stage parameter.")
        body = params.get(sec)
        if not isinstance(body, dict):
            raise ValueError(f"stage {stage}: params.yaml has no section {sec!r}.")
        missing = [p for p in profiles if not isinstance(body.get(p), dict)]
        if missing:
            raise ValueError(
                f"params.yaml: section {sec!r} has no sub-mapping for profile(s) {missing}; "
                f"each stage tracks `{sec}.${{profile}}`, so every profile needs one (a "
                f"profile that repeats another: `large: *{sec}_default`, with "
                f"`default: &{sec}_default`).")
        for p in profiles:
            bad = NON_RESULT_KEYS & set(body[p])
            if bad:
                raise ValueError(f"params.yaml: {sec}.{p} holds {sorted(bad)}, which cannot "
                                 "change a result; keep such keys out of the profile "
                                 "sub-mappings (they are tracked whole).")
        out += [f"{sec}.{k}" for k in body if k not in profiles and k not in NON_RESULT_KEYS]
        out.append(f"{sec}.${{profile}}")
    return out


# --------------------------------------------------------------------------- runtime view
_PROBE = """
import json, sys
{imports}
print(json.dumps({{m: getattr(mod, "__file__", None) for m, mod in sorted(sys.modules.items())
                  if m == "weaklabel" or m.startswith("weaklabel.")}}))
"""


def runtime_modules(root: str | Path, plan: StagePlan, python: str | None = None) -> dict:
    """``{module: file}`` of the ``weaklabel`` modules a fresh interpreter loads when it
    imports the stage's entry module and runs the notebook's import statements."""
    root = Path(root)
    entry = plan.entries[0]
    lines = [f"import {entry}"] + plan.imports
    code = _PROBE.format(imports="\n".join(lines))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str((root / "src").resolve())]
                                        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("MPLBACKEND", "Agg")
    r = subprocess.run([python or sys.executable, "-c", code], cwd=root, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"stage {plan.name}: importing its entry points failed:\n{r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def runtime_outside(root: str | Path, plan: StagePlan, python: str | None = None) -> list[str]:
    """Modules a fresh interpreter loads for the stage that the static closure lacks."""
    root = Path(root).resolve()
    src = root / "src"
    out = []
    for m, f in runtime_modules(root, plan, python).items():
        if m in plan.modules:
            continue
        if f is None or not Path(f).resolve().is_relative_to(src):
            out.append(f"{m} (loaded from {f}, not from {src})")
        else:
            out.append(m)
    return sorted(out)


# --------------------------------------------------------------------------- dvc.yaml
def _as_path(entry) -> str:
    return entry if isinstance(entry, str) else next(iter(entry))


def _managed(entry) -> bool:
    return _as_path(entry).startswith(MANAGED_PREFIX)


def stage_differences(stages: dict, plans: dict[str, StagePlan]) -> dict[str, list[str]]:
    """Per stage, the lines of a human-readable difference (empty: agrees)."""
    out = {}
    for name, plan in plans.items():
        st = stages[name]
        deps = [_as_path(d) for d in st.get("deps", []) or []]
        declared = [d for d in deps if _managed(d)]
        lines = []
        folders = [d for d in declared if not d.endswith((".py", ".json", ".csv"))
                   and "." not in Path(d).name]
        if folders:
            lines.append(f"folders (list files): {', '.join(folders)}")
        missing = sorted(set(plan.files) - set(declared))
        extra = sorted(set(declared) - set(plan.files) - set(folders))
        if missing:
            lines.append(f"missing deps: {', '.join(missing)}")
        if extra:
            lines.append(f"extra deps: {', '.join(extra)}")
        if plan.notebook and plan.notebook not in deps:
            lines.append(f"missing deps: {plan.notebook}")
        params = [_as_path(p) for p in st.get("params", []) or []]
        if params != plan.params:
            pm = [p for p in plan.params if p not in params]
            pe = [p for p in params if p not in plan.params]
            lines.append("params differ: "
                         + (f"missing {', '.join(pm)}; " if pm else "")
                         + (f"extra {', '.join(pe)}; " if pe else "")
                         + (f"order: {plan.params}" if not pm and not pe else ""))
        if lines:
            out[name] = lines
    return out


def _stage_span(lines: list[str], name: str) -> tuple[int, int]:
    start = next((i for i, ln in enumerate(lines) if ln.rstrip() == f"  {name}:"), None)
    if start is None:
        raise ValueError(f"dvc.yaml: stage {name!r} not found at indent 2 (block style).")
    end = start + 1
    while end < len(lines) and not re.match(r"^ {0,2}\S", lines[end]):
        end += 1
    return start, end


def _key_span(lines: list[str], lo: int, hi: int, key: str) -> tuple[int, int] | None:
    k = next((i for i in range(lo, hi) if lines[i].rstrip() == f"    {key}:"), None)
    if k is None:
        return None
    end = k + 1
    while end < hi and (not lines[end].strip() or re.match(r"^ {6,}\S", lines[end])):
        end += 1
    while end > k + 1 and not lines[end - 1].strip():
        end -= 1  # trailing blank lines belong to what follows
    return k, end


def _render_deps(block: list[str], files: list[str], notebook: str | None) -> list[str]:
    """The new item lines of a ``deps`` block: unmanaged items keep their place and the
    comments above them; the managed items are replaced by ``files``, where the first one
    was (after the notebook if there was none)."""
    groups: list[tuple[list[str], str | None]] = []  # (lines, path of the item)
    pending: list[str] = []
    for ln in block:
        s = ln.strip()
        if s.startswith("- "):
            groups.append((pending + [ln], s[2:].strip().strip("'\"")))
            pending = []
        elif s.startswith("#") or not s:
            pending.append(ln)
        else:  # a nested line of the previous item
            groups[-1][0].append(ln)
    kept: list[list[str]] = []
    insert_at = None
    paths = [p for _, p in groups]
    if notebook and notebook not in paths:
        kept.append([f"      - {notebook}"])
    for g, p in groups:
        if p is not None and p.startswith(MANAGED_PREFIX):
            if insert_at is None:
                insert_at = len(kept)
            continue
        kept.append(g)
    if insert_at is None:
        insert_at = next((i + 1 for i, g in enumerate(kept)
                          if any(notebook and notebook in ln for ln in g)), 0)
    generated = [f"      # {GENERATED_NOTE}"] + [f"      - {f}" for f in files]
    out: list[str] = []
    for g in kept[:insert_at]:
        out += g
    out += generated
    for g in kept[insert_at:]:
        out += g
    out += pending
    return out


def rewrite_dvc_yaml(text: str, plans: dict[str, StagePlan]) -> str:
    """``dvc.yaml``'s text with each planned stage's managed deps and its params replaced."""
    lines = text.splitlines()
    for name, plan in plans.items():
        lo, hi = _stage_span(lines, name)
        span = _key_span(lines, lo, hi, "deps")
        if span is None:
            raise ValueError(f"dvc.yaml: stage {name!r} has no `deps:` block.")
        k, end = span
        lines[k + 1:end] = _render_deps(lines[k + 1:end], plan.files, plan.notebook)
        lo, hi = _stage_span(lines, name)
        span = _key_span(lines, lo, hi, "params")
        new = ["    params:"] + [f"      - {p}" for p in plan.params] if plan.params else []
        if span is not None:
            lines[span[0]:span[1]] = new
        elif new:
            _, dend = _key_span(lines, lo, hi, "deps")
            lines[dend:dend] = new
    out = "\n".join(lines) + "\n"
    # the result must say exactly what was planned
    stages = yaml.safe_load(out)["stages"]
    diffs = stage_differences(stages, plans)
    if diffs:
        raise RuntimeError(f"rewriting dvc.yaml went wrong: {diffs}")
    return out


# --------------------------------------------------------------------------- command line
def check(root: str | Path, runtime: bool = True, python: str | None = None) -> dict:
    """``{stage: [difference, ...]}`` between ``dvc.yaml`` and the computed lists, plus the
    modules a fresh interpreter loads that the static closure lacks (empty: all agree)."""
    root = Path(root)
    stages = yaml.safe_load((root / "dvc.yaml").read_text())["stages"]
    plans = plan_stages(root, stages)
    diffs = stage_differences(stages, plans)
    if runtime:
        for name, plan in plans.items():
            outside = runtime_outside(root, plan, python)
            if outside:
                diffs.setdefault(name, []).append(
                    "loaded at import but not in the static closure: " + ", ".join(outside))
    return diffs


def main(argv=None) -> int:
    from ._io import write_text
    from .pipeline import repo_root

    ap = argparse.ArgumentParser(prog="python -m weaklabel.pipeline deps",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="exit 1 when dvc.yaml disagrees with the computed lists")
    mode.add_argument("--write", action="store_true",
                      help="rewrite the src/weaklabel/ deps and the params of each stage")
    ap.add_argument("--no-runtime", action="store_true",
                    help="skip the fresh-interpreter comparison")
    args = ap.parse_args(argv)
    root = repo_root()
    if args.check:
        diffs = check(root, runtime=not args.no_runtime)
        for name, lines in diffs.items():
            print(f"{name}:")
            for ln in lines:
                print(f"  {ln}")
        if diffs:
            print("dvc.yaml is out of date: python -m weaklabel.pipeline deps --write")
            return 1
        print("dvc.yaml: every stage's deps and params agree with its imports.")
        return 0
    plans = plan_stages(root)
    if not args.no_runtime:
        bad = {n: runtime_outside(root, p) for n, p in plans.items()}
        bad = {n: v for n, v in bad.items() if v}
        if bad:
            for n, v in bad.items():
                print(f"{n}: loaded at import but not in the static closure: {', '.join(v)}")
            return 1
    if args.write:
        path = root / "dvc.yaml"
        text = path.read_text()
        new = rewrite_dvc_yaml(text, plans)
        if new != text:
            write_text(new, path)
            print(f"rewrote {path}")
        else:
            print(f"{path} is up to date")
        return 0
    for name, plan in plans.items():
        print(f"{name}:")
        print("  deps:\n" + "\n".join(f"    {f}" for f in plan.files))
        print("  params:\n" + "\n".join(f"    {p}" for p in plan.params))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
