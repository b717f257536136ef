"""pytest plugin: every kernel-row cache stores float32 rows (LIBSVM's ``Qfloat``).

Runs the solver certification tests with the float32 cache::

    PYTHONPATH=src:tests python -m pytest -p _float32_cache tests/test_smo.py ...

Tests that compare with saved float64 results bit for bit are expected to fail in this mode.
"""

import numpy as np

import weaklabel.kernels as _kernels
import weaklabel.solvers.smo as _smo

_orig = _kernels._cache_dtype


def _float32(cache_dtype):
    _orig(cache_dtype)  # still refuse bad values
    return np.float32


_kernels._cache_dtype = _float32
_smo._cache_dtype = _float32
