"""The package's estimators, found by walking ``weaklabel.models``, with a small problem of
each one's weak-label family, and a clock of numba's compilation time.

Shared by the install warm-up (``tools/warm_numba.py``) and the tests that run every public
estimator (scikit-learn conformance, hostile inputs): a new estimator is covered by all of
them without being listed anywhere. Not used by the pipeline.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import time

import numpy as np

__all__ = ["CompileClock", "discover", "family", "family_problem", "mil_problem",
           "weak_target"]


def discover(kind: str = "all") -> list[type]:
    """Public, concrete estimator classes defined in ``weaklabel.models``, sorted by name.

    ``kind``: ``"sklearn"`` (``BaseEstimator`` subclasses), ``"mil"`` (the multi-instance
    estimators: the bag-parameter protocol and ``fit(bags, y)``), or ``"all"`` (both).
    """
    if kind not in ("all", "sklearn", "mil"):
        raise ValueError(f"kind must be 'all', 'sklearn' or 'mil', got {kind!r}.")
    from sklearn.base import BaseEstimator

    import weaklabel.models as pkg
    from weaklabel.models.mil import _ParamsProtocol

    modules = [pkg] + [importlib.import_module(m.name)
                       for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
    found = {}
    for mod in modules:
        for name, cls in inspect.getmembers(mod, inspect.isclass):
            if (name.startswith("_") or not cls.__module__.startswith("weaklabel.")
                    or inspect.isabstract(cls)):
                continue
            sk = issubclass(cls, BaseEstimator)
            mil = (issubclass(cls, _ParamsProtocol)
                   and list(inspect.signature(cls.fit).parameters)[1:3] == ["bags", "y"])
            if (kind == "sklearn" and sk) or (kind == "mil" and mil) or (
                    kind == "all" and (sk or mil)):
                found[name] = cls
    return [found[k] for k in sorted(found)]


def family(est) -> str:
    """``"pu"``, ``"ssl"``, ``"su"``, ``"clustering"`` or ``"mil"`` (class or instance)."""
    from sklearn.base import ClusterMixin

    from weaklabel.models._base import PUClassifier, SemiSupervisedClassifier
    from weaklabel.models.mil import _ParamsProtocol
    from weaklabel.models.su import SUClassifier

    cls = est if isinstance(est, type) else type(est)
    for base, name in ((PUClassifier, "pu"), (SemiSupervisedClassifier, "ssl"),
                       (SUClassifier, "su"), (ClusterMixin, "clustering"),
                       (_ParamsProtocol, "mil")):
        if issubclass(cls, base):
            return name
    raise TypeError(f"{cls.__name__} belongs to no weak-label family.")


def weak_target(fam: str, y: np.ndarray) -> np.ndarray | None:
    """The weak target of family ``fam`` for true labels ``y`` (+1 / -1, alternating):
    PU, half of the positives labelled (1) and the rest unlabelled (0); semi-supervised,
    the first 10 rows labelled 0 / 1 and -1 for unlabelled; SU, 1 for the first 20 rows
    (10 similar pairs of consecutive rows, see :func:`family_problem`); clustering, None."""
    n = y.size
    if fam == "pu":
        s = np.zeros(n, dtype=int)
        s[np.flatnonzero(y > 0)[::2]] = 1
        return s
    if fam == "ssl":
        t = np.full(n, -1)
        t[:10] = (y[:10] > 0).astype(int)
        return t
    if fam == "su":
        t = np.zeros(n, dtype=int)
        t[:20] = 1
        return t
    if fam == "clustering":
        return None
    raise ValueError(f"family must be 'pu', 'ssl', 'su' or 'clustering', got {fam!r}.")


def family_problem(fam: str, n: int = 40, d: int = 3, seed: int = 0, shift: float = 4.0):
    """``(X, y, target)``: two Gaussian blobs, ``y`` +1 / -1 alternating, and the weak target
    of ``fam`` (:func:`weak_target`). For SU the rows are ordered so that rows ``2i`` and
    ``2i + 1`` (``i < 10``) share their class."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    X = rng.standard_normal((n, d)) + shift * (y[:, None] > 0)
    if fam == "su":
        pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
        order = np.r_[pos[:10], neg[:10], pos[10:], neg[10:]]
        X, y = X[order], y[order]
    return X, y, weak_target(fam, y)


def mil_problem(n_bags: int = 16, m: int = 3, d: int = 3, seed: int = 0,
                shift: float = 5.0):
    """``(bags, y)``: every other bag positive (1), its first instance the key one (its first
    feature shifted by ``shift``)."""
    rng = np.random.default_rng(seed)
    bags = []
    for i in range(n_bags):
        b = rng.normal(size=(m, d))
        if i % 2 == 0:
            b[0, 0] += shift
        bags.append(b)
    return bags, (np.arange(n_bags) % 2 == 0).astype(int)


class CompileClock:
    """Seconds and count of numba's outermost compilations in this process, from numba's
    ``numba:compile`` event (nested compilations are counted once, in their outermost)."""

    def __init__(self):
        self.total, self.count, self._depth, self._t0 = 0.0, 0, 0, 0.0

    def install(self) -> CompileClock:
        from numba.core import event

        clock = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                if clock._depth == 0:
                    clock._t0 = time.perf_counter()
                clock._depth += 1

            def on_end(self, ev):
                clock._depth -= 1
                if clock._depth == 0:
                    clock.total += time.perf_counter() - clock._t0
                    clock.count += 1

        event.register("numba:compile", _Listener())
        return self

    def now(self) -> float:
        """Compile seconds so far, an ongoing compilation included."""
        running = time.perf_counter() - self._t0 if self._depth else 0.0
        return self.total + running
