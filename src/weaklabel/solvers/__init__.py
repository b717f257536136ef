"""Solvers on plain arrays (numba, numpy or scipy; no scikit-learn estimators here).

One submodule per solver (``solvers/<paper>.py``, and the shared ``smo``, ``lssvm``,
``ramp``). Every name in a submodule's ``__all__`` is importable from here
(``from weaklabel.solvers import usmo, USMOResult``); the submodule is imported on first use
(:mod:`weaklabel._exports`), so this file lists no paper. A submodule that exports its own
name gives the package attribute that object: ``weaklabel.solvers.usmo`` is the function
:func:`weaklabel.solvers.usmo.usmo` (and ``weaklabel.solvers.smo`` the function ``smo``).
"""

from .._exports import install as _install

_install(__name__)
