"""Exports of a package discovered from its submodules, imported on first use.

A package whose ``__init__.py`` calls :func:`install` holds no list of what its submodules
define: ``from weaklabel.models import DoubleHingePU`` finds, without importing anything,
the one public submodule whose ``__all__`` names ``DoubleHingePU`` (read from the source
with :mod:`ast`), imports that submodule only, and returns the name. Adding a submodule
(a new paper's ``models/<paper>.py``) therefore edits no ``__init__.py``, and importing one
paper's estimator does not import the others'.

Rules (the same ones :mod:`weaklabel._deps` uses to compute a stage's dependencies):

- public submodules: what :func:`pkgutil.iter_modules` finds in the package directory, minus
  names starting with ``_``;
- a submodule's exports: its ``__all__`` (a list or tuple of string literals); a submodule
  without ``__all__`` exports its public top-level classes, functions and assigned names
  (not the names it imports);
- a name exported by two submodules is an error (:class:`AmbiguousExportError`, raised on
  access, naming both submodules); it is left out of ``__all__`` and ``dir()``;
- a submodule that exports its own name (``solvers/usmo.py`` exports the function
  ``usmo``): the package attribute is the exported object, not the submodule, whatever the
  import order (``from weaklabel.solvers import usmo`` is the function, as it was when
  ``__init__`` imported it eagerly). The submodule itself stays importable by its full name
  (``from weaklabel.solvers.usmo import bias_interval``).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
import types
from pathlib import Path

__all__ = ["AmbiguousExportError", "export_map", "install", "module_exports", "owner",
           "public_submodules"]


class AmbiguousExportError(ImportError):
    """A name is exported by more than one submodule of a package."""


def _literal_names(node: ast.AST) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]
    return None


def module_exports(path: str | Path) -> tuple[str, ...]:
    """Public names of the module whose source is ``path`` (see the module docstring)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))
    declared: list[str] | None = None
    defined: list[str] = []
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.append(node.name)
        elif isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets = [node.target]
        for t in targets:
            if not isinstance(t, ast.Name):
                continue
            if t.id == "__all__":
                names = _literal_names(node.value)
                if names is None:
                    raise ValueError(f"{path}: __all__ must be a list or tuple of string "
                                     "literals (it is read without importing the module).")
                declared = (declared or []) + names if isinstance(node, ast.AugAssign) \
                    else names
            else:
                defined.append(t.id)
    names = declared if declared is not None else [n for n in defined if not n.startswith("_")]
    return tuple(dict.fromkeys(names))


def public_submodules(package_dir: str | Path) -> dict[str, Path]:
    """``{name: source file}`` of the public submodules (and subpackages) of a package."""
    package_dir = Path(package_dir)
    out = {}
    for info in pkgutil.iter_modules([str(package_dir)]):
        if info.name.startswith("_"):
            continue
        f = package_dir / info.name / "__init__.py" if info.ispkg else \
            package_dir / f"{info.name}.py"
        if f.is_file():
            out[info.name] = f
    return dict(sorted(out.items()))


_CACHE: dict[str, tuple[tuple, dict[str, tuple[str, ...]]]] = {}


def export_map(package_dir: str | Path) -> dict[str, tuple[str, ...]]:
    """``{name: (submodules exporting it, ...)}`` for one package directory. Cached; the cache
    is refreshed when a submodule appears, disappears or changes (its mtime)."""
    subs = public_submodules(package_dir)
    key = tuple((n, f.stat().st_mtime_ns) for n, f in subs.items())
    hit = _CACHE.get(str(package_dir))
    if hit is not None and hit[0] == key:
        return hit[1]
    owners: dict[str, list[str]] = {}
    for name, f in subs.items():
        for export in module_exports(f):
            owners.setdefault(export, []).append(name)
    result = {k: tuple(v) for k, v in sorted(owners.items())}
    _CACHE[str(package_dir)] = (key, result)
    return result


def owner(package_dir: str | Path, name: str, package: str = "") -> str | None:
    """The submodule of the package that exports ``name`` (``None``: none does).

    Raises :class:`AmbiguousExportError` when two submodules export it."""
    subs = export_map(package_dir).get(name, ())
    if len(subs) > 1:
        pkg = package or str(package_dir)
        raise AmbiguousExportError(
            f"{name!r} is exported by several submodules of {pkg}: "
            + ", ".join(f"{pkg}.{s}" for s in subs)
            + f"; import it from the one you mean (from {pkg}.{subs[0]} import {name}).",
            name=pkg)
    return subs[0] if subs else None


def _unambiguous(package_dir) -> list[str]:
    return [k for k, v in export_map(package_dir).items() if len(v) == 1]


class _LazyPackage(types.ModuleType):
    """Module type of a package that called :func:`install`."""

    def _dir(self) -> Path:
        return Path(self.__path__[0])

    def __getattr__(self, name: str):
        if name == "__all__":
            return _unambiguous(self._dir())
        if name.startswith("__"):
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        sub = owner(self._dir(), name, self.__name__)
        if sub is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{self.__name__}.{sub}"), name)
        types.ModuleType.__setattr__(self, name, value)
        return value

    def __dir__(self):
        return sorted(set(self.__dict__) | set(_unambiguous(self._dir())))

    def __setattr__(self, name: str, value) -> None:
        # the import system binds a submodule to its parent once the submodule has run; a
        # submodule that exports its own name leaves the exported object there instead
        if (isinstance(value, types.ModuleType)
                and value.__name__ == f"{self.__name__}.{name}"
                and export_map(self._dir()).get(name) == (name,) and hasattr(value, name)):
            value = getattr(value, name)
        types.ModuleType.__setattr__(self, name, value)


def install(package: str) -> None:
    """Give the package ``package`` (call it as ``install(__name__)`` from its
    ``__init__.py``) the lazy exports described in the module docstring."""
    module = sys.modules[package]
    if not hasattr(module, "__path__"):
        raise TypeError(f"{package} is not a package.")
    module.__class__ = _LazyPackage
