"""Lazy package exports (weaklabel._exports): discovered from the submodules' `__all__`,
imported on first use, ambiguity an error, a submodule exporting its own name shadowed."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from weaklabel._exports import AmbiguousExportError, module_exports

REPO = Path(__file__).resolve().parents[1]


def _package(root: Path, name: str, files: dict[str, str]) -> None:
    pkg = root / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from weaklabel._exports import install as _install\n\n_install(__name__)\n")
    for f, text in files.items():
        (pkg / f).write_text(textwrap.dedent(text))


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    _package(tmp_path, "wl_fake_pkg", {
        "a.py": '__all__ = ["X", "A"]\nX = "a.X"\nA = "a.A"\n',
        "b.py": '__all__ = ("X", "b")\nX = "b.X"\ndef b():\n    return "b.b"\n',
        "c.py": "import os\nfrom math import pi\n\nclass C:\n    pass\n\n"
                "def _private():\n    pass\n\nK = 1\n",
        "_hidden.py": '__all__ = ["H"]\nH = 1\n',
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "wl_fake_pkg"
    for m in [m for m in sys.modules if m.startswith("wl_fake_pkg")]:
        del sys.modules[m]


def test_exports_are_discovered_and_imported_on_use(fake_package):
    pkg = importlib.import_module(fake_package)
    assert not any(m.startswith(f"{fake_package}.") for m in sys.modules)
    assert pkg.__all__ == ["A", "C", "K", "b"]  # X is ambiguous; _hidden is private
    assert set(pkg.__all__) <= set(dir(pkg)) and "X" not in dir(pkg)
    from wl_fake_pkg import A
    assert A == "a.A"
    assert f"{fake_package}.a" in sys.modules and f"{fake_package}.c" not in sys.modules
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        pkg.nope  # noqa: B018
    with pytest.raises(AttributeError):
        pkg.H  # noqa: B018  (a private submodule exports nothing)


def test_an_ambiguous_name_is_an_error_naming_both_submodules(fake_package):
    with pytest.raises(AmbiguousExportError, match=r"wl_fake_pkg\.a, wl_fake_pkg\.b"):
        from wl_fake_pkg import X  # noqa: F401
    from wl_fake_pkg.b import X
    assert X == "b.X"


def test_a_submodule_exporting_its_own_name_is_shadowed_in_any_import_order(fake_package):
    importlib.import_module("wl_fake_pkg.b")  # first: the import system binds it to the package
    from wl_fake_pkg import b
    assert callable(b) and b() == "b.b"
    assert sys.modules["wl_fake_pkg.b"].X == "b.X"  # the submodule stays importable


def test_a_new_submodule_is_found_without_editing_init(fake_package, tmp_path):
    pkg = importlib.import_module(fake_package)
    assert "N" not in pkg.__all__
    (tmp_path / fake_package / "n.py").write_text('__all__ = ["N"]\nN = 7\n')
    importlib.invalidate_caches()
    from wl_fake_pkg import N
    assert N == 7


def test_module_exports_without_all_are_the_defined_public_names(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import os\nfrom x import y\nclass P: pass\ndef q(): pass\nR = 1\n_s = 2\n")
    assert module_exports(f) == ("P", "q", "R")
    f.write_text("__all__ = ['q']\n__all__ += ['R']\ndef q(): pass\nR = 1\n")
    assert module_exports(f) == ("q", "R")
    f.write_text("__all__ = [n for n in 'ab']\n")
    with pytest.raises(ValueError, match="string literals"):
        module_exports(f)


def test_the_package_api_is_unchanged():
    import weaklabel.solvers
    from weaklabel.models import DoubleHingePU, GaussianNBPU, RampPU  # noqa: F401
    from weaklabel.reference import solve_qp, svm_dual_qp, usmo_dual_reference  # noqa: F401
    from weaklabel.solvers import USMOResult, mcls_loop, usmo, usmo_decision_function  # noqa

    assert usmo is sys.modules["weaklabel.solvers.usmo"].usmo  # the function, as before
    assert weaklabel.solvers.usmo is usmo


def test_importing_one_estimator_imports_one_paper():
    code = ("import sys\nfrom weaklabel.models import DoubleHingePU\n"
            "print(sorted(m for m in sys.modules if m.startswith('weaklabel.')))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(REPO / "src")}, check=True)
    loaded = r.stdout
    assert "weaklabel.models.usmo" in loaded
    assert "weaklabel.models.mcls" not in loaded and "weaklabel.solvers.mcls" not in loaded
