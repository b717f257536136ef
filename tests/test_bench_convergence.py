"""The helpers of ``benchmarks/convergence/bench_convergence.py``: the relative gap, the
budget grid, the stopping rule of the grid, and one tiny SMO curve against the reference."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "_bench_convergence", REPO / "benchmarks" / "convergence" / "bench_convergence.py")
bc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bc)


def test_relative_gap_is_signed_and_relative():
    assert bc.relative_gap(-0.9, -1.0) == pytest.approx(0.1)
    assert bc.relative_gap(-1.1, -1.0) == pytest.approx(-0.1)  # below the optimum
    assert bc.relative_gap(3.0, 2.0) == pytest.approx(0.5)
    np.testing.assert_allclose(bc.relative_gap(np.array([2.0, 4.0]), 2.0), [0.0, 1.0])
    assert np.isnan(bc.relative_gap(1.0, 0.0))
    assert np.isnan(bc.relative_gap(1.0, np.nan))


def test_budgets_double_up_to_the_cap():
    assert bc.budgets(0, 5) == [0, 1, 2, 4, 5]
    assert bc.budgets(1, 8) == [1, 2, 4, 8]
    assert bc.budgets(1, 1) == [1]
    for start, cap in ((-1, 4), (3, 2), (0, 0)):
        with pytest.raises(ValueError, match="start"):
            bc.budgets(start, cap)


def _fake_solver(stops_at):
    """A 'solver' whose objective is 2^-k after k iterations and that stops by itself
    after ``stops_at`` iterations (converged only then)."""
    def solve(b):
        k = min(b, stops_at)
        return k

    def evaluate(k):
        return {"objective": 1.0 + 2.0 ** -k, "converged": k == stops_at, "n_iter": k}
    return solve, evaluate


def test_grid_stops_at_convergence_or_when_the_budget_is_not_used():
    solve, evaluate = _fake_solver(5)
    rows = bc.run_curve(solve, evaluate, bc.budgets(1, 64), repeat=1, short=0.0)
    assert [r["budget"] for r in rows] == [1, 2, 4, 8]  # 8 returned after 5 iterations
    assert rows[-1]["converged"] and not rows[-2]["converged"]
    # a solver that stops before its budget without reporting convergence (a stall)
    rows = bc.run_curve(lambda b: min(b, 3),
                        lambda k: {"objective": 1.0, "converged": False, "n_iter": k},
                        bc.budgets(1, 64), repeat=1, short=0.0)
    assert [r["budget"] for r in rows] == [1, 2, 4]
    # the rule does not fire while every budget is used, nor when switched off (TSGSU)
    solve, evaluate = _fake_solver(10 ** 6)
    rows = bc.run_curve(solve, evaluate, bc.budgets(1, 64), repeat=1, short=0.0)
    assert [r["budget"] for r in rows] == [1, 2, 4, 8, 16, 32, 64]
    rows = bc.run_curve(lambda b: b, lambda k: {"objective": 1.0, "converged": True,
                                                "n_iter": 0}, [1, 2, 4], repeat=1,
                        short=0.0, stop_when_converged=False)
    assert len(rows) == 3


def test_timed_repeats_only_short_calls():
    calls = []
    sec, cpu, n, out = bc.timed(lambda: calls.append(1) or len(calls), repeat=4, short=10.0)
    assert n == 4 and out == 4 and sec >= 0.0 and cpu >= 0.0
    calls.clear()
    sec, cpu, n, out = bc.timed(lambda: calls.append(1) or len(calls), repeat=4, short=0.0)
    assert n == 1 and out == 1


def test_tiny_smo_curve_reaches_the_reference_optimum():
    from weaklabel.experiments.solvers import random_svm_problem, svm_dual_objective
    from weaklabel.kernels import gram, make_kernel
    from weaklabel.reference import svm_dual_qp
    from weaklabel.solvers.smo import smo

    X, y = random_svm_problem(40, 3, np.random.default_rng(0))
    k = make_kernel("gaussian", sigma=1.0)
    K = gram(X, kernel=k)
    opt = svm_dual_qp(K, y, 1.0).objective
    rows = bc.run_curve(lambda b: smo(X, y, 1.0, k, eps=1e-9, max_iter=b),
                        lambda r: {"objective": svm_dual_objective(K, y, r.alpha),
                                   "converged": r.converged, "n_iter": r.n_iter},
                        bc.budgets(1, 10_000), repeat=1, short=0.0)
    gaps = [bc.relative_gap(r["objective"], opt) for r in rows]
    assert rows[-1]["converged"] and len(rows) >= 3
    assert gaps[0] > 1e-2 and abs(gaps[-1]) <= 1e-6


def test_only_keeps_the_rows_of_the_solvers_not_run_again(tmp_path):
    rows = [{c: np.nan for c in bc.COLUMNS} | {"solver": bc.SOLVERS[k], "budget": 1}
            for k in ("smo", "tsgsu")]
    pd.DataFrame(rows).to_csv(tmp_path / "results.csv", index=False)
    (tmp_path / "results_meta.json").write_text(json.dumps({"runs": [
        {"only": ["smo", "tsgsu"], "commit": "a"}, {"only": ["tsgsu"], "commit": "b"}]}))
    kept, runs = bc.keep_other_solvers(tmp_path, ["tsgsu"])
    assert list(kept["solver"]) == [bc.SOLVERS["smo"]]  # kept
    assert [r["commit"] for r in runs] == ["a"]  # the tsgsu-only run is superseded
    kept, runs = bc.keep_other_solvers(tmp_path, list(bc.SOLVERS))
    assert len(kept) == 0 and runs == []  # everything is measured again
    kept, runs = bc.keep_other_solvers(tmp_path / "none", ["smo"])  # nothing there yet
    assert len(kept) == 0 and runs == []
