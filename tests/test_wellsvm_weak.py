"""WellSVM (Li et al. 2013) beyond SSL: the one label-generation loop of Algorithms 2-4,
clustering (Section 4.3) and multi-instance learning (Section 4.2)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_moons

from weaklabel._validation import ConvergenceWarning
from weaklabel.kernels import make_kernel
from weaklabel.solvers.wellsvm import gamma_width, wellsvm

FIXTURE = Path(__file__).parent / "data" / "wellsvm_ssl_prerefactor.npz"


# --------------------------------------------------------------------------- bitwise SSL
def _ssl_problem(n, n_lab, seed, noise=0.2):
    X, yt = make_moons(n, noise=noise, random_state=seed)
    yt = 2.0 * yt - 1.0
    rng = np.random.default_rng(seed)
    lab = np.concatenate([rng.choice(np.flatnonzero(yt == c), n_lab // 2, replace=False)
                          for c in (-1.0, 1.0)])
    y = np.zeros(n)
    y[lab] = yt[lab]
    return X, y


def _ssl_runs():
    """The SSL fits whose arrays the fixture stores (made before the loop was shared)."""
    out = {}
    cases = [("p0", 70, 8, 0, "gaussian", "paper", {}),
             ("p1", 60, 6, 1, "linear", "paper", {"eps": 0.0, "thr": 0.0, "max_outer": 3}),
             ("p2", 80, 10, 2, "gaussian", "paper", {"mkl_tol": 1e-6, "inner_eps": 1e-8}),
             ("r0", 70, 8, 3, "gaussian", "reference", {"random_state": 0}),
             ("r1", 60, 6, 4, "linear", "reference", {"random_state": 1})]
    for name, n, n_lab, seed, kname, variant, kw in cases:
        X, y = _ssl_problem(n, n_lab, seed)
        k = make_kernel("gaussian", sigma=gamma_width(X)) if kname == "gaussian" else "linear"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            r = wellsvm(X, y, 1.0, 0.3, k, variant=variant, **kw)
        out[f"{name}_alpha"] = r.alpha
        out[f"{name}_mu"] = r.mu
        out[f"{name}_labels"] = r.labels
        out[f"{name}_path"] = np.asarray(r.objective_path, dtype=np.float64)
        out[f"{name}_n_inner"] = np.asarray(r.n_inner, dtype=np.int64)
        out[f"{name}_n_outer"] = np.asarray(r.n_outer)
        out[f"{name}_converged"] = np.asarray(r.converged)
        vals = [c["value"] for c in r.prop4_checks]
        out[f"{name}_check_values"] = np.asarray(vals, dtype=np.float64)
    return out


def test_ssl_is_bitwise_identical_to_the_code_before_the_shared_loop():
    """The SSL results (paper and reference variants) equal, bit for bit, arrays stored by
    the implementation that preceded :func:`label_generation` (tests/data fixture)."""
    stored = np.load(FIXTURE)
    now = _ssl_runs()
    assert set(stored.files) == set(now)
    for key in stored.files:
        a, b = stored[key], now[key]
        assert a.shape == b.shape and a.dtype == b.dtype, key
        assert np.array_equal(a, b), key


if __name__ == "__main__":  # regenerate the fixture (only from the pre-refactor code)
    np.savez(FIXTURE, **_ssl_runs())
