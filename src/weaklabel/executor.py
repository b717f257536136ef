"""One executor for every experiment grid: local processes (joblib/loky) or a Dask cluster.

Every grid of the experiment modules (a list of independent tasks: one (data set, kernel,
lambda) problem, one (data set, repetition), one scaling fit) goes through
:func:`run_tasks`. Where the tasks run is configuration, not a result parameter: the
results are returned in task order whatever the backend and the completion order, and
each task is a pure function of its arguments, so the numbers do not depend on it.

Configuration (a mapping, see :func:`validate`)::

    backend: loky      # loky: local worker processes (joblib) | dask: a Dask cluster
    address: null      # dask only: scheduler address "tcp://host:8786";
                       #   null = a LocalCluster of n_jobs single-threaded worker processes,
                       #   started and closed by run_tasks
    n_jobs: 2          # loky: worker processes; dask with address null: workers

:func:`executor_config` reads the top-level ``executor:`` mapping of ``params.yaml``; the
environment variables ``WEAKLABEL_EXECUTOR_BACKEND``, ``WEAKLABEL_EXECUTOR_ADDRESS`` (an
empty value or ``null`` means no address) and ``WEAKLABEL_N_JOBS`` override it, e.g.
``WEAKLABEL_EXECUTOR_BACKEND=dask WEAKLABEL_EXECUTOR_ADDRESS=tcp://host:8786 dvc repro -f
usmo``.

Scheduling, retries after a lost worker and data transfer are the backend's: joblib
memory-maps large arrays for its workers; on Dask, large array arguments are scattered
once (``Client.scatter``) and shared by the tasks that use them.

Thread counts: the worker processes that :func:`run_tasks` starts (loky workers, isolated
processes, a LocalCluster's workers) get :data:`weaklabel.reproducibility.THREAD_ENV` (one
BLAS/OpenMP/numba thread) wherever the caller's environment leaves those variables unset,
so that no result depends on how a reduction was split across threads. Workers of an
external Dask cluster should be started with the same variables (Dask's nanny already sets
``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS`` and ``MKL_NUM_THREADS`` to 1).

``isolate=True`` runs every task in a fresh Python process (the USMO scaling runs measure
the peak memory of one fit per process). Locally: a ``ProcessPoolExecutor`` with the
``spawn`` start method and ``max_tasks_per_child=1``. On Dask, the task runs in a fresh
interpreter started by the worker (``subprocess``; a Dask worker is a daemonic process and
``multiprocessing`` refuses to start children from it), which unpickles the call, runs it
and pickles the result back.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .reproducibility import THREAD_ENV, apply_thread_env

BACKENDS = ("loky", "dask")
#: the configuration used when ``params.yaml`` has no ``executor`` section
DEFAULTS: dict[str, Any] = {"backend": "loky", "address": None, "n_jobs": 2}
#: environment variables that override ``params.yaml`` (key -> variable)
ENV_VARS = {"backend": "WEAKLABEL_EXECUTOR_BACKEND", "address": "WEAKLABEL_EXECUTOR_ADDRESS",
            "n_jobs": "WEAKLABEL_N_JOBS"}
#: on Dask, numpy arrays at least this large (bytes) are scattered once instead of being
#: embedded in every task that uses them
SCATTER_BYTES = 1 << 20


# --------------------------------------------------------------------------- configuration
def validate(config: Mapping | None) -> dict:
    """A complete, checked executor configuration: :data:`DEFAULTS` updated by ``config``.

    Raises ``ValueError`` naming the offending key (``executor.backend`` must be one of
    ...). ``address`` is ignored by the ``loky`` backend.
    """
    if config is None:
        config = {}
    if not isinstance(config, Mapping):
        raise ValueError(f"executor must be a mapping with keys {sorted(DEFAULTS)}, got "
                         f"{type(config).__name__}.")
    unknown = sorted(set(config) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"executor has unknown key(s) {unknown}; known: {sorted(DEFAULTS)}.")
    cfg = {**DEFAULTS, **config}
    if cfg["backend"] not in BACKENDS:
        raise ValueError(f"executor.backend must be one of {BACKENDS}, got {cfg['backend']!r}.")
    n = cfg["n_jobs"]
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"executor.n_jobs must be a positive integer, got {n!r}.")
    addr = cfg["address"]
    if addr is not None and (not isinstance(addr, str) or not addr.strip()):
        raise ValueError("executor.address must be null or a scheduler address such as "
                         f"'tcp://host:8786', got {addr!r}.")
    if cfg["backend"] == "dask" and addr is not None and "://" not in addr:
        raise ValueError("executor.address must include the protocol, e.g. "
                         f"'tcp://{addr}', got {addr!r}.")
    return cfg


def executor_config(root: str | Path | None = None) -> dict:
    """The executor configuration: ``params.yaml``'s top-level ``executor`` mapping
    (:data:`DEFAULTS` when the file or the section is missing), overridden by the
    environment variables of :data:`ENV_VARS`, validated."""
    import yaml

    from .pipeline import repo_root

    cfg: dict = {}
    try:
        params = yaml.safe_load((repo_root(root) / "params.yaml").read_text()) or {}
    except FileNotFoundError:
        params = {}
    sec = params.get("executor")
    if sec is not None:
        if not isinstance(sec, Mapping):
            raise ValueError(f"params.yaml: executor must be a mapping, got {sec!r}.")
        cfg.update(sec)
    env = {k: os.environ[v] for k, v in ENV_VARS.items() if v in os.environ}
    if "backend" in env:
        cfg["backend"] = env["backend"].strip()
    if "address" in env:
        a = env["address"].strip()
        cfg["address"] = None if a.lower() in ("", "null", "none") else a
    if "n_jobs" in env:
        try:
            cfg["n_jobs"] = int(env["n_jobs"])
        except ValueError:
            raise ValueError(f"{ENV_VARS['n_jobs']} must be an integer, got "
                             f"{env['n_jobs']!r}.") from None
    return validate(cfg)


def _resolve(executor: Mapping | None) -> dict:
    return executor_config() if executor is None else validate(executor)


def describe(executor: Mapping | None = None) -> str:
    """One line saying where the grids run, with the number of workers, e.g.
    ``loky: 2 local worker processes``. For a Dask scheduler address it connects to the
    scheduler to count the workers."""
    cfg = _resolve(executor)
    if cfg["backend"] == "loky":
        return f"loky: {cfg['n_jobs']} local worker process{'es' * (cfg['n_jobs'] > 1)}"
    if cfg["address"] is None:
        return f"dask: a LocalCluster of {cfg['n_jobs']} single-threaded worker processes"
    from dask.distributed import Client

    try:
        with Client(cfg["address"], timeout=10) as client:
            workers = client.scheduler_info().get("workers", {})
            threads = sum(w.get("nthreads", 0) for w in workers.values())
        return f"dask: the cluster at {cfg['address']} ({len(workers)} workers, {threads} threads)"
    except OSError:
        return f"dask: the cluster at {cfg['address']} (scheduler not reachable now)"


# --------------------------------------------------------------------------- task calls
def _split(task) -> tuple[tuple, dict]:
    if isinstance(task, Mapping):
        return (), dict(task)
    if isinstance(task, (tuple, list)):
        return tuple(task), {}
    return (task,), {}


def _call(i: int, fn: Callable, args: tuple, kwargs: dict):
    return i, fn(*args, **kwargs)


def _call_isolated(i: int, fn: Callable, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)`` in a fresh Python interpreter (on a Dask worker)."""
    import cloudpickle

    with tempfile.TemporaryDirectory(prefix="weaklabel-task-") as tmp:
        src, dst = Path(tmp) / "call.pkl", Path(tmp) / "result.pkl"
        # the child gets the worker's sys.path, as multiprocessing's spawn does
        src.write_bytes(pickle.dumps((list(sys.path), cloudpickle.dumps((fn, args, kwargs)))))
        code = ("import sys; from weaklabel.executor import _run_pickled; "
                "_run_pickled(sys.argv[1], sys.argv[2])")
        proc = subprocess.run([sys.executable, "-c", code, str(src), str(dst)],
                              env=apply_thread_env(dict(os.environ)),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if not dst.is_file():
            tail = proc.stderr.decode(errors="replace")[-3000:]
            raise RuntimeError(f"task {i} ({getattr(fn, '__name__', fn)}): its process exited "
                               f"with code {proc.returncode} without a result:\n{tail}")
        status, value = pickle.loads(dst.read_bytes())
    if status == "error":
        raise value
    return i, value


def _run_pickled(src: str, dst: str) -> None:
    """Child side of :func:`_call_isolated`: run the pickled call, pickle the outcome."""
    import cloudpickle

    sys_path, call = pickle.loads(Path(src).read_bytes())
    sys.path[:] = sys_path
    fn, args, kwargs = pickle.loads(call)
    try:
        out = ("ok", fn(*args, **kwargs))
    except BaseException as e:  # noqa: BLE001 - every failure goes back to the caller
        err = e
        try:
            pickle.loads(cloudpickle.dumps(e))
        except Exception:  # noqa: BLE001 - an exception that does not pickle
            err = RuntimeError(f"{type(e).__name__}: {e}")
        err.add_note("in the isolated task process:\n" + traceback.format_exc())
        out = ("error", err)
    Path(dst).write_bytes(cloudpickle.dumps(out))


# --------------------------------------------------------------------------- backends
@contextmanager
def _thread_env():
    """:data:`THREAD_ENV` in ``os.environ`` where unset, while the workers start (they
    inherit it); restored afterwards."""
    added = {k: v for k, v in THREAD_ENV.items() if k not in os.environ}
    os.environ.update(added)
    try:
        yield
    finally:
        for k in added:
            os.environ.pop(k, None)


def _progress(total: int, desc: str, progress: bool):
    from tqdm import tqdm

    # inside a notebook kernel, the process's own stderr: the terminal running the pipeline,
    # never a cell output of the report
    kernel = "ipykernel" in sys.modules and sys.__stderr__ is not None
    return tqdm(total=total, desc=desc, file=sys.__stderr__ if kernel else sys.stderr,
                disable=not progress)


def _run_loky(calls, n_jobs, bar, isolate):
    results: dict[int, Any] = {}
    if isolate:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # one fresh process per task, so that each peak-memory reading is its own
        with ProcessPoolExecutor(max_workers=n_jobs, mp_context=mp.get_context("spawn"),
                                 max_tasks_per_child=1) as ex:
            futs = [ex.submit(_call, i, fn, a, kw) for i, fn, a, kw in calls]
            try:
                for f in as_completed(futs):
                    i, r = f.result()
                    results[i] = r
                    bar.update(1)
            except BaseException:
                for f in futs:  # the pending ones; the running ones finish
                    f.cancel()
                raise
        return results
    from joblib import Parallel, delayed

    gen = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered")(
        delayed(_call)(i, fn, a, kw) for i, fn, a, kw in calls)
    for i, r in gen:
        results[i] = r
        bar.update(1)
    return results


def _scatter_large(client, value, cache: dict):
    """``value``, or a future of it when it is a large numpy array (scattered once)."""
    import numpy as np

    if isinstance(value, np.ndarray) and value.nbytes >= SCATTER_BYTES:
        key = id(value)
        if key not in cache:
            cache[key] = (value, client.scatter(value, hash=False))
        return cache[key][1]
    if isinstance(value, tuple):
        return tuple(_scatter_large(client, v, cache) for v in value)
    if isinstance(value, list):
        return [_scatter_large(client, v, cache) for v in value]
    if isinstance(value, dict):
        return {k: _scatter_large(client, v, cache) for k, v in value.items()}
    return value


def _run_dask(calls, cfg, bar, isolate):
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if cfg["address"] is None:
        cluster = LocalCluster(n_workers=cfg["n_jobs"], threads_per_worker=1, processes=True,
                               dashboard_address=":0")
    try:
        with Client(cluster if cluster is not None else cfg["address"]) as client:
            cache: dict = {}
            wrapper = _call_isolated if isolate else _call
            futs = {}
            for i, fn, a, kw in calls:
                a, kw = _scatter_large(client, (a, kw), cache)
                futs[client.submit(wrapper, i, fn, a, kw, pure=False,
                                   key=f"{getattr(fn, '__name__', 'task')}-{i}-"
                                       f"{os.urandom(4).hex()}")] = i
            results: dict[int, Any] = {}
            try:
                for f in as_completed(futs):
                    i, r = f.result()
                    results[i] = r
                    bar.update(1)
            except BaseException:
                client.cancel(list(futs))  # the cluster stops working on this grid
                raise
            return results
    finally:
        if cluster is not None:
            cluster.close()


def run_tasks(fn: Callable, tasks: Sequence, *, executor: Mapping | None = None,
              kwargs: Mapping | None = None, desc: str = "tasks", progress: bool = True,
              isolate: bool = False) -> list:
    """``[fn(*task, **kwargs) for task in tasks]``, run on the configured backend.

    Parameters
    ----------
    fn : a picklable function (module level: the workers import it).
    tasks : each task is a tuple or list of positional arguments, a mapping of keyword
        arguments, or a single argument.
    executor : a configuration mapping (see :func:`validate`); ``None`` reads
        :func:`executor_config` (``params.yaml`` and the environment).
    kwargs : keyword arguments passed to every call.
    desc, progress : the tqdm progress bar (on stderr), updated as each task finishes.
    isolate : run each task in a fresh process (module docstring).

    Returns the results in task order, whatever the completion order. The first task
    that raises stops the run and its exception propagates.
    """
    cfg = _resolve(executor)
    tasks = list(tasks)
    common = dict(kwargs or {})
    calls = []
    for i, t in enumerate(tasks):
        a, kw = _split(t)
        clash = set(kw) & set(common)
        if clash:
            raise ValueError(f"task {i} and kwargs both set {sorted(clash)}.")
        calls.append((i, fn, a, {**common, **kw}))
    if not calls:
        return []
    with _progress(len(calls), desc, progress) as bar, _thread_env():
        if cfg["backend"] == "loky":
            results = _run_loky(calls, cfg["n_jobs"], bar, isolate)
        else:
            results = _run_dask(calls, cfg, bar, isolate)
    return [results[i] for i in range(len(calls))]
