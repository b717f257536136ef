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

import inspect
import os
import sys
import time
import warnings

import numpy as np

from weaklabel._inventory import CompileClock, discover, family, family_problem, mil_problem


def _problem(est):
    """(X or bags, weak target or None) for the family of ``est``."""
    fam = family(est)
    if fam == "mil":
        return mil_problem()
    X, _, t = family_problem(fam)
    return X, t


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
    timer = CompileClock().install()
    t_start = time.perf_counter()
    failed = []
    classes = discover()
    for i, cls in enumerate(classes, 1):
        before, t0 = timer.total, time.perf_counter()
        # the PU and SU estimators need the class prior (not identifiable from the data;
        # 0.5 is refused by the SU risk, whose terms divide by 2 prior - 1)
        has_prior = "prior" in inspect.signature(cls).parameters
        est = cls(prior=0.7) if has_prior else cls()
        X, t = _problem(est)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for k, (_, Xv) in enumerate(_variants(X)):
                    if k and timer.total == before:
                        break  # its float64 fit compiled nothing: no numba of its own
                    m = est.fit(Xv) if t is None else est.fit(Xv, t)
                    for method in ("decision_function", "predict"):
                        if hasattr(m, method) and t is not None:
                            getattr(m, method)(Xv)
        except Exception as exc:  # reported, not fatal: the test suite says why
            failed.append(f"{cls.__name__}: {type(exc).__name__}: {str(exc)[:120]}")
        print(f"  [{i:2d}/{len(classes)}] {cls.__name__:<22s} {time.perf_counter() - t0:6.1f} s"
              f" ({timer.total - before:5.1f} s compiling)", flush=True)
    # the SMO cores with a float32 kernel-row cache (cache_dtype="float32"): a
    # specialisation no estimator default reaches
    before, t0 = timer.total, time.perf_counter()
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
          f" ({timer.total - before:5.1f} s compiling)", flush=True)
    print(f"warm_numba: {timer.count} compilations, {timer.total:.1f} s compiling, "
          f"{time.perf_counter() - t_start:.1f} s in all", flush=True)
    for line in failed:
        print(f"warm_numba: skipped {line}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
