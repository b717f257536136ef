"""Where numba caches the package's compiled code, and the one notice that it compiles.

The solvers are numba functions compiled on their first call (``cache=True``): importing
the package compiles nothing; the first fit compiles what it calls and stores it in numba's
cache, so that later processes load it instead.

:func:`configure_cache` (run by ``import weaklabel``, before anything imports numba) sets
``NUMBA_CACHE_DIR`` to :func:`default_cache_dir` when the user has not set it: without
it, numba writes its cache next to the source files, that is under ``src/`` in an editable
install. A ``NUMBA_CACHE_DIR`` set by the user is kept.

:func:`install_notice` (run when :mod:`weaklabel.kernels` imports numba) makes the first
compilation of a ``weaklabel`` function in a process say so once: a message of the logger
``weaklabel.compile`` (:data:`LOGGER`) naming the function and the cache folder, shown on
stderr by Python's default logging. A log record and not a warning, on purpose: the
experiments count the warnings a fit raises into their results (``warnings`` columns), and
those counts must not depend on whether numba's cache was warm. Loading from the cache
compiles nothing and says nothing. Silence it with
``logging.getLogger("weaklabel.compile").setLevel(logging.ERROR)``.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

__all__ = ["LOGGER", "CACHE_ENV", "default_cache_dir", "configure_cache", "cache_dir",
           "install_notice"]

CACHE_ENV = "NUMBA_CACHE_DIR"
#: the logger of the compilation notice
LOGGER = logging.getLogger("weaklabel.compile")


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/weaklabel/numba`` (``~/.cache/weaklabel/numba`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "weaklabel" / "numba"


def configure_cache() -> str:
    """Set ``NUMBA_CACHE_DIR`` to :func:`default_cache_dir` unless the user set it (also in
    numba's configuration when numba was imported first); returns the folder in use."""
    if os.environ.get(CACHE_ENV):
        return os.environ[CACHE_ENV]
    path = str(default_cache_dir())
    os.environ[CACHE_ENV] = path
    config = getattr(sys.modules.get("numba.core.config"), "CACHE_DIR", None)
    if "numba.core.config" in sys.modules and not config:
        sys.modules["numba.core.config"].CACHE_DIR = path
    return path


def cache_dir() -> str:
    """The folder numba caches compiled code in for this process."""
    config = sys.modules.get("numba.core.config")
    return (getattr(config, "CACHE_DIR", "") or os.environ.get(CACHE_ENV)
            or "__pycache__ folders next to the package's source files")


_state = {"installed": False, "said": False}


def _notice(event) -> None:
    if _state["said"]:
        return
    disp = (getattr(event, "data", None) or {}).get("dispatcher")
    func = getattr(disp, "py_func", None)
    module = getattr(func, "__module__", "") or ""
    if not module.startswith("weaklabel"):
        return
    _state["said"] = True
    # WARNING level: Python's default logging shows it (it is a notice, not a problem)
    LOGGER.warning(
        "weaklabel: compiling numba code on first use (%s.%s and what it calls); the "
        "compiled code is cached in %s and later runs load it instead of compiling.",
        module, func.__qualname__, cache_dir())


def install_notice() -> None:
    """Register the numba listener of :func:`_notice` once per process."""
    if _state["installed"]:
        return
    from numba.core import event

    class _Listener(event.Listener):
        def on_start(self, ev):
            _notice(ev)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Listener())
    _state["installed"] = True
