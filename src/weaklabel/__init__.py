"""weaklabel: certified numba solvers for kernel machines that learn from weakly labelled data.

Sub-packages (imports go one way, top to bottom):

- :mod:`weaklabel.kernels`    numba kernels, Gram blocks, LRU kernel-row cache
- :mod:`weaklabel.solvers`    numba solvers on plain arrays
- :mod:`weaklabel.reference`  cvxpy formulations of the same problems (cross-checks)
- :mod:`weaklabel.models`     scikit-learn style estimators
- :mod:`weaklabel.metrics`    PU criteria and scorers for model selection on ``(X, s)``
- :mod:`weaklabel.data`       dataset registry, checksum-verified fetching, loaders, splits
- :mod:`weaklabel.experiments` one protocol module per paper
- :mod:`weaklabel.published`  the papers' published numbers
- :mod:`weaklabel.compare`    reproduced-vs-published comparison

Label conventions (used everywhere): classes are ``+1`` / ``-1``. PU input is either
``(X_pos, X_unl)`` or ``(X, s)`` with ``s = 1`` for a labelled positive and ``s = 0`` for
an unlabelled sample.


Compiled code: importing the package compiles nothing; the first fit compiles the numba
functions it calls, says so once (logger ``weaklabel.compile``) and caches them in
``NUMBA_CACHE_DIR``, by default ``~/.cache/weaklabel/numba`` (never under ``src/``; a
``NUMBA_CACHE_DIR`` you set is kept): :mod:`weaklabel._numba`.
"""

from ._numba import configure_cache as _configure_cache

_configure_cache()  # before any module of the package imports numba

__version__ = "0.1.0"
