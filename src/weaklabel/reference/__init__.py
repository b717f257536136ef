"""cvxpy reference formulations of the package's optimisation problems (cross-checks).

One submodule per problem (``reference/<paper>.py``, and the generic ``qp``). Every name in a
submodule's ``__all__`` is importable from here (``from weaklabel.reference import
solve_qp``); the submodule is imported on first use (:mod:`weaklabel._exports`), so this file
lists no paper.
"""

from .._exports import install as _install

_install(__name__)
