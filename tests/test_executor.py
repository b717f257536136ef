"""weaklabel.executor: task order, configuration, progress, isolation, and the same grids
(USMO Tables III-IV, MCLS repetitions, smoke profile) on the local and the Dask backend."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from weaklabel import executor as X
from weaklabel.executor import ENV_VARS, executor_config, run_tasks, validate
from weaklabel.reproducibility import THREAD_ENV

REPO = Path(__file__).resolve().parents[1]
LOKY = {"backend": "loky", "address": None, "n_jobs": 2}


# --------------------------------------------------------------------------- task functions
# module level: worker processes import them (this file's directory is on their sys.path)
def sleepy(i, delay=0.0):
    time.sleep(delay)
    return i, time.perf_counter(), os.getpid()


def waits_for(i, flag, writer=1, after=0.0, timeout=60.0):
    """Task 0 waits until task `writer` has written `flag`, then sleeps `after` seconds: the
    completion order is forced, not left to timing."""
    flag = Path(flag)
    if i == writer:
        # the stamp is taken before the flag exists: task 0 cannot stamp an earlier time,
        # however the two processes are scheduled
        stamp = time.perf_counter()
        flag.write_text("done")
        return i, stamp, os.getpid()
    if i == 0:
        end = time.monotonic() + timeout
        while not flag.exists() and time.monotonic() < end:
            time.sleep(0.005)
        time.sleep(after)
    return i, time.perf_counter(), os.getpid()


def total(a, *, scale=1.0):
    return float(np.sum(a)) * scale


def thread_env(i):
    return i, os.getpid(), {k: os.environ.get(k) for k in THREAD_ENV}


def fails_on_two(i):
    if i == 2:
        raise KeyError("task two failed")
    return i


@pytest.fixture(autouse=True)
def _no_env_override(monkeypatch):
    for var in ENV_VARS.values():
        monkeypatch.delenv(var, raising=False)


# --------------------------------------------------------------------------- configuration
def test_validate_fills_defaults_and_names_the_bad_key():
    assert validate(None) == X.DEFAULTS
    assert validate({"backend": "dask"}) == {"backend": "dask", "address": None, "n_jobs": 2}
    with pytest.raises(ValueError, match=r"executor\.backend must be one of \('loky', 'dask'\)"):
        validate({"backend": "spark"})
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match=r"executor\.n_jobs must be a positive integer"):
            validate({"n_jobs": bad})
    with pytest.raises(ValueError, match=r"executor\.address must include the protocol"):
        validate({"backend": "dask", "address": "host:8786"})
    with pytest.raises(ValueError, match=r"executor\.address must be null"):
        validate({"backend": "dask", "address": 8786})
    with pytest.raises(ValueError, match=r"unknown key\(s\) \['workers'\]"):
        validate({"workers": 4})
    with pytest.raises(ValueError, match="executor must be a mapping"):
        validate("dask")


def test_executor_config_reads_params_then_environment(tmp_path, monkeypatch):
    (tmp_path / "params.yaml").write_text("profile: smoke\n")
    assert executor_config(tmp_path) == X.DEFAULTS
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(
        {"executor": {"backend": "dask", "address": "tcp://10.0.0.1:8786", "n_jobs": 8}}))
    assert executor_config(tmp_path) == {"backend": "dask", "address": "tcp://10.0.0.1:8786",
                                         "n_jobs": 8}
    monkeypatch.setenv("WEAKLABEL_EXECUTOR_BACKEND", "loky")
    monkeypatch.setenv("WEAKLABEL_EXECUTOR_ADDRESS", "null")
    monkeypatch.setenv("WEAKLABEL_N_JOBS", "3")
    assert executor_config(tmp_path) == {"backend": "loky", "address": None, "n_jobs": 3}
    monkeypatch.setenv("WEAKLABEL_N_JOBS", "many")
    with pytest.raises(ValueError, match="WEAKLABEL_N_JOBS must be an integer"):
        executor_config(tmp_path)
    monkeypatch.setenv("WEAKLABEL_N_JOBS", "2")
    monkeypatch.setenv("WEAKLABEL_EXECUTOR_BACKEND", "threads")
    with pytest.raises(ValueError, match=r"executor\.backend must be one of"):
        executor_config(tmp_path)
    (tmp_path / "params.yaml").write_text("executor: dask\n")
    with pytest.raises(ValueError, match="params.yaml: executor must be a mapping"):
        executor_config(tmp_path)


def test_repository_params_executor_is_not_a_result_parameter():
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    validate(params["executor"])
    for section in ("usmo", "mcls"):
        assert "n_jobs" not in params[section]
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    for name, stage in stages.items():
        keys = [p if isinstance(p, str) else next(iter(p)) for p in stage.get("params", [])]
        assert not any(k.split(".")[0] == "executor" for k in keys), name
    # params per key (python -m weaklabel.pipeline deps), the profile's sub-mapping included
    assert {"profile", "usmo.lambdas", "usmo.${profile}"} <= set(stages["usmo"]["params"])
    assert {"profile", "mcls.Cs", "mcls.${profile}"} <= set(stages["mcls"]["params"])


def test_describe():
    assert X.describe(LOKY) == "loky: 2 local worker processes"
    assert "LocalCluster of 3" in X.describe({"backend": "dask", "n_jobs": 3})


# --------------------------------------------------------------------------- loky backend
def test_results_in_task_order_whatever_the_completion_order(tmp_path):
    # task 0 cannot finish before task 1 has run on the other worker (no timing race)
    flag = str(tmp_path / "task1.done")
    res = run_tasks(waits_for, [(i, flag) for i in range(6)], executor=LOKY, progress=False)
    assert [r[0] for r in res] == list(range(6))
    assert res[1][1] < res[0][1]  # they did complete out of order
    # mappings of keyword arguments, shared keyword arguments, single arguments
    assert run_tasks(total, [{"a": np.ones(3)}, {"a": np.ones(4)}], kwargs={"scale": 2.0},
                     executor=LOKY, progress=False) == [6.0, 8.0]
    assert run_tasks(fails_on_two, [0, 1], executor={"n_jobs": 1}, progress=False) == [0, 1]
    assert run_tasks(total, [], executor=LOKY) == []
    with pytest.raises(ValueError, match=r"both set \['scale'\]"):
        run_tasks(total, [{"a": 1, "scale": 1}], kwargs={"scale": 2}, executor=LOKY)


def test_a_failing_task_raises_its_exception():
    with pytest.raises(KeyError, match="task two failed"):
        run_tasks(fails_on_two, range(4), executor=LOKY, progress=False)


def test_progress_streams_as_tasks_finish(monkeypatch, capsys, tmp_path):
    stamps = []

    class Bar:
        def __init__(self, total, desc, progress):
            self.total = total

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n):
            stamps.append(time.perf_counter())

    # task 0 ends 1 s after task 3 has run: the quick tasks are counted while it runs
    flag = str(tmp_path / "task3.done")
    tasks = [(i, flag, 3, 1.0) for i in range(4)]
    monkeypatch.setattr(X, "_progress", Bar)
    run_tasks(waits_for, tasks, executor=LOKY)
    assert len(stamps) == 4
    # three tasks were counted while the first one was still running
    assert stamps[-1] - stamps[0] > 0.8
    monkeypatch.undo()
    run_tasks(sleepy, [(i, 0.0) for i in (1, 2, 3)], executor=LOKY, desc="three quick tasks")
    err = capsys.readouterr().err
    assert "three quick tasks" in err and "3/3" in err


def test_isolate_runs_every_task_in_a_fresh_process(monkeypatch):
    for k in THREAD_ENV:
        monkeypatch.delenv(k, raising=False)
    res = run_tasks(thread_env, [(i,) for i in range(3)], executor=LOKY, isolate=True,
                    progress=False)
    pids = [r[1] for r in res]
    assert [r[0] for r in res] == [0, 1, 2]
    assert len(set(pids)) == 3 and os.getpid() not in pids
    # one BLAS/OpenMP/numba thread in the workers; the caller's environment is unchanged
    assert all(r[2] == THREAD_ENV for r in res)
    assert not set(THREAD_ENV) & set(os.environ)
    with pytest.raises(KeyError, match="task two failed"):
        run_tasks(fails_on_two, range(3), executor=LOKY, isolate=True, progress=False)


# --------------------------------------------------------------------------- dask backend
@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=":0") as c:
        yield {"backend": "dask", "address": c.scheduler_address, "n_jobs": 2}


def test_dask_order_scatter_isolation(cluster):
    from dask.distributed import Client

    tasks = [(i, 0.08 * (6 - i)) for i in range(6)]
    assert [r[0] for r in run_tasks(sleepy, tasks, executor=cluster, progress=False)] == \
        list(range(6))
    big = np.ones(300_000)  # 2.4 MB: scattered once, shared by both tasks
    assert run_tasks(total, [(big,), (big,)], kwargs={"scale": 0.5}, executor=cluster,
                     progress=False) == [150_000.0, 150_000.0]
    with Client(cluster["address"]) as client:
        workers = set(client.run(os.getpid).values())
    res = run_tasks(thread_env, [(i,) for i in range(3)], executor=cluster, isolate=True,
                    progress=False)
    pids = [r[1] for r in res]
    assert [r[0] for r in res] == [0, 1, 2]
    assert len(set(pids)) == 3 and not set(pids) & workers
    assert all(r[2] == THREAD_ENV for r in res)
    for isolate in (False, True):
        with pytest.raises(KeyError, match="task two failed"):
            run_tasks(fails_on_two, range(4), executor=cluster, isolate=isolate,
                      progress=False)
    assert "2 workers, 2 threads" in X.describe(cluster)


def test_dask_local_cluster_started_and_closed_by_run_tasks():
    ex = {"backend": "dask", "address": None, "n_jobs": 1}
    assert run_tasks(fails_on_two, [0, 1], executor=ex, progress=False) == [0, 1]


def _volatile():
    try:
        from weaklabel.reproducibility import VOLATILE
    except ImportError:  # pragma: no cover - the list of timing columns lives there
        VOLATILE = {"seconds", "select_seconds", "solver_seconds", "reference_seconds"}
    return VOLATILE


def _assert_same(a: pd.DataFrame, b: pd.DataFrame):
    drop = [c for c in a.columns if c in _volatile()]
    assert len(a) > 0
    pd.testing.assert_frame_equal(a.drop(columns=drop), b.drop(columns=drop), check_exact=True)


@pytest.mark.slow  # 40-100 s (cvxpy cross-checks in every task); make test keeps the MCLS
# grid's loky-vs-Dask comparison and the generic scatter / retry / order tests
def test_usmo_tables_identical_on_loky_and_dask(cluster):
    from weaklabel.experiments import usmo
    from weaklabel.pipeline import load_params

    # the smoke grid cut to one data set and one lambda: still 2 tasks (one per kernel) that
    # share the scattered data set, enough to exercise scatter and the order of the results
    cfg = usmo.config({**load_params("usmo", "smoke", root=REPO), "datasets": ["Heart"],
                       "lambdas": [0.1]})
    local = usmo.run(cfg, executor=LOKY, progress=False)
    dask = usmo.run(cfg, executor=cluster, progress=False)
    assert set(local) == set(dask) == {"scores", "crosscheck", "ablations"}
    assert len(local["scores"]) == (len(cfg["datasets"]) * 2 * len(cfg["lambdas"])
                                    * len(usmo.METHODS) * 2)
    for key in local:
        _assert_same(local[key], dask[key])


def test_mcls_tables_identical_on_loky_and_dask(cluster):
    from weaklabel.experiments import mcls
    from weaklabel.pipeline import load_params

    cfg = mcls.config(load_params("mcls", "smoke", root=REPO))
    local = mcls.run(cfg, executor=LOKY, progress=False)
    dask = mcls.run(cfg, executor=cluster, progress=False)
    assert set(local) == set(dask) == {"t1", "main", "t4"}
    for key in local:
        _assert_same(local[key], dask[key])
