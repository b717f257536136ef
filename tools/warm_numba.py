"""Compile and cache the package's numba code once, at install (``make install``).

Every public estimator of ``weaklabel.models`` (discovered, so a new one is covered) is
fitted with its defaults on a small problem of its family, with writable, read-only and
float32 inputs (numba compiles one specialisation per array type; the last two only when
the first compiled something), and asked for ``decision_function`` and ``predict``. The
compiled code lands in ``NUMBA_CACHE_DIR`` (the Makefile sets it to ``.numba_cache``), so a
user's first fit, the tests and the stages load it instead of compiling. Prints what it
compiled and how long that took; an estimator that fails here is reported and skipped (the
tests say why), it does not fail the install.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import sys
import time
import warnings

import numpy as np


class _CompileTimer:
    """Seconds in numba's outermost compilations, counted by numba's compile event."""

    def __init__(self):
        from numba.core import event

        self.seconds, self.count, self._depth, self._t0 = 0.0, 0, 0, 0.0
        timer = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                if timer._depth == 0:
                    timer._t0 = time.perf_counter()
                timer._depth += 1

            def on_end(self, ev):
                timer._depth -= 1
                if timer._depth == 0:
                    timer.seconds += time.perf_counter() - timer._t0
                    timer.count += 1

        event.register("numba:compile", _Listener())


def _estimators():
    from sklearn.base import BaseEstimator

    import weaklabel.models as pkg
    from weaklabel.models.mil import _ParamsProtocol

    found = {}
    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        mod = importlib.import_module(m.name)
        for name, cls in inspect.getmembers(mod, inspect.isclass):
            if (name.startswith("_") or not cls.__module__.startswith("weaklabel.")
                    or inspect.isabstract(cls)):
                continue
            if issubclass(cls, (BaseEstimator, _ParamsProtocol)):
                found[name] = cls
    return [found[k] for k in sorted(found)]


def _problem(est, rng):
    """(X or bags, weak target or None) for the family of ``est``."""
    from sklearn.base import ClusterMixin

    from weaklabel.models._base import PUClassifier, SemiSupervisedClassifier
    from weaklabel.models.mil import _ParamsProtocol
    from weaklabel.models.su import SUClassifier

    n = 40
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    X = rng.standard_normal((n, 3)) + 4.0 * (y[:, None] > 0)
    if isinstance(est, _ParamsProtocol) and not isinstance(est, ClusterMixin):
        bags = [rng.standard_normal((3, 3)) + (5.0 if i % 2 == 0 else 0.0) * np.eye(3)[0]
                for i in range(16)]
        return bags, (np.arange(16) % 2 == 0).astype(int)
    if isinstance(est, PUClassifier):
        s = np.zeros(n, dtype=int)
        s[np.flatnonzero(y > 0)[::2]] = 1
        return X, s
    if isinstance(est, SemiSupervisedClassifier):
        t = np.full(n, -1)
        t[:10] = (y[:10] > 0).astype(int)
        return X, t
    if isinstance(est, SUClassifier):
        order = np.r_[np.flatnonzero(y > 0)[:10], np.flatnonzero(y < 0)[:10],
                      np.flatnonzero(y > 0)[10:], np.flatnonzero(y < 0)[10:]]
        t = np.zeros(n, dtype=int)
        t[:20] = 1
        return X[order], t
    if isinstance(est, ClusterMixin):
        return X, None
    raise TypeError(type(est).__name__)


def _variants(X):
    """The input as writable float64, read-only float64 and float32."""
    if isinstance(X, list):
        ro = [b.copy() for b in X]
        for b in ro:
            b.setflags(write=False)
        return [("float64", X), ("read-only", ro), ("float32", [b.astype(np.float32) for b in X])]
    ro = X.copy()
    ro.setflags(write=False)
    return [("float64", X), ("read-only", ro), ("float32", X.astype(np.float32))]


def main(argv: list[str] | None = None) -> int:
    import argparse

    argparse.ArgumentParser(
        description="Compile the package's numba code into NUMBA_CACHE_DIR (make install)."
    ).parse_args(argv)
    print(f"warm_numba: compiling into NUMBA_CACHE_DIR={os.environ.get('NUMBA_CACHE_DIR')}",
          flush=True)
    timer = _CompileTimer()
    t_start = time.perf_counter()
    failed = []
    classes = _estimators()
    for i, cls in enumerate(classes, 1):
        before, t0 = timer.seconds, time.perf_counter()
        # the PU and SU estimators need the class prior (not identifiable from the data;
        # 0.5 is refused by the SU risk, whose terms divide by 2 prior - 1)
        has_prior = "prior" in inspect.signature(cls).parameters
        est = cls(prior=0.7) if has_prior else cls()
        rng = np.random.default_rng(0)
        X, t = _problem(est, rng)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for k, (_, Xv) in enumerate(_variants(X)):
                    if k and timer.seconds == before:
                        break  # its float64 fit compiled nothing: no numba of its own
                    m = est.fit(Xv) if t is None else est.fit(Xv, t)
                    for method in ("decision_function", "predict"):
                        if hasattr(m, method) and t is not None:
                            getattr(m, method)(Xv)
        except Exception as exc:  # reported, not fatal: the test suite says why
            failed.append(f"{cls.__name__}: {type(exc).__name__}: {str(exc)[:120]}")
        print(f"  [{i:2d}/{len(classes)}] {cls.__name__:<22s} {time.perf_counter() - t0:6.1f} s"
              f" ({timer.seconds - before:5.1f} s compiling)", flush=True)
    # the SMO cores with a float32 kernel-row cache (cache_dtype="float32"): a
    # specialisation no estimator default reaches
    before, t0 = timer.seconds, time.perf_counter()
    try:
        from weaklabel.solvers.smo import label_kernel_dual, smo

        rng = np.random.default_rng(0)
        X = rng.normal(size=(30, 3))
        y = np.where(np.arange(30) % 2 == 0, 1.0, -1.0)
        for kernel in ("gaussian", "linear"):
            smo(X, y, 1.0, kernel, cache_dtype="float32")
            label_kernel_dual(X, np.stack([y, -y]), [0.5, 0.5], 1.0, kernel,
                              cache_dtype="float32")
    except Exception as exc:  # reported, not fatal
        failed.append(f"float32 cache: {type(exc).__name__}: {str(exc)[:120]}")
    print(f"  [float32 cache] smo, label_kernel_dual {time.perf_counter() - t0:6.1f} s"
          f" ({timer.seconds - before:5.1f} s compiling)", flush=True)
    print(f"warm_numba: {timer.count} compilations, {timer.seconds:.1f} s compiling, "
          f"{time.perf_counter() - t_start:.1f} s in all", flush=True)
    for line in failed:
        print(f"warm_numba: skipped {line}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
