"""USMO (weaklabel.solvers.usmo) against the cvxpy references of the dual (6) and primal (5).

Relative gap: ``|a - b| / max(1, |b|)`` with ``b`` the reference value.
Equation and section numbers are the USMO paper's (TPAMI PDF numbering).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from weaklabel._validation import ConvergenceWarning
from weaklabel.kernels import gram, make_kernel
from weaklabel.reference.usmo import (
    usmo_dual_reference,
    usmo_kkt_violation,
    usmo_primal_objective,
    usmo_primal_reference,
)
from weaklabel.solvers import USMOResult, usmo, usmo_decision_function
from weaklabel.solvers.usmo import bias_interval, dual_objective, take_step

TAU = 1e-6
GAP = 1e-6


def rel_gap(a, b):
    return abs(a - b) / max(1.0, abs(b))


def pu_problem(seed, p=12, n=40, d=2, pi=0.4, duplicates=0):
    rng = np.random.default_rng(seed)
    Xp = rng.normal(size=(p, d)) + 1.0
    n_pos = int(round(pi * n))
    Xu = np.vstack([rng.normal(size=(n_pos, d)) + 1.0, rng.normal(size=(n - n_pos, d)) - 1.0])
    if duplicates:
        Xu[:duplicates] = Xu[duplicates:2 * duplicates]
    return Xp, Xu


def kern(name):
    return make_kernel("gaussian", sigma=1.0) if name == "gaussian" else make_kernel("linear")


def check_against_reference(Xp, Xu, k, lam, pi, init, tau=TAU):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        res = usmo(Xp, Xu, k, lam, pi, tau=tau, init=init)
    ref = usmo_dual_reference(Xp, Xu, k, lam, pi)
    p = Xp.shape[0]
    assert isinstance(res, USMOResult)
    assert res.converged
    assert rel_gap(res.dual_objective, ref.objective) <= GAP
    # feasibility of the final point
    assert abs(res.dual.sum() - res.c1 * p) <= 1e-9 * max(1.0, res.c1 * p)
    assert res.dual.min() >= 0.0 and res.dual.max() <= res.c2
    np.testing.assert_allclose(res.delta, 2 * np.minimum(res.dual, res.c2 - res.dual))
    assert res.kkt_violation <= tau
    # the cached outputs are exact, and the reported objective is the value of (6)
    Kuu, Kup1 = gram(Xu, kernel=k), gram(Xu, Xp, kernel=k).sum(axis=1)
    np.testing.assert_allclose(res.F, res.c1 * Kup1 - Kuu @ res.dual, atol=1e-8 * max(1, res.c2))
    assert rel_gap(res.dual_objective, dual_objective(res.dual, Kuu, Kup1, res.c1, res.c2)) \
        <= 1e-10
    return res, ref


# --------------------------------------------------------------------------- parity with cvxpy
@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("lam", [1e-4, 1e-3, 1e-2, 1e-1])
@pytest.mark.parametrize("init", ["ocsvm", "trivial"])
def test_dual_matches_reference(kernel, lam, init):
    Xp, Xu = pu_problem(int(lam * 1e4) + len(kernel), p=12, n=40)
    check_against_reference(Xp, Xu, kern(kernel), lam, 0.4, init)


@pytest.mark.parametrize("seed", range(6))
def test_random_problems_match_reference(seed):
    rng = np.random.default_rng(100 + seed)
    p, n, d = int(rng.integers(1, 15)), int(rng.integers(5, 50)), int(rng.integers(1, 4))
    pi, lam = rng.uniform(0.1, 0.9), 10 ** rng.uniform(-4, -1)
    Xp, Xu = pu_problem(seed, p=p, n=n, d=d, pi=pi)
    for name in ("linear", "gaussian"):
        check_against_reference(Xp, Xu, kern(name), lam, pi, ["ocsvm", "trivial"][seed % 2])


@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("init", ["ocsvm", "trivial"])
@pytest.mark.parametrize("case", ["duplicates", "n3", "n4", "p1", "n1", "rank1", "lattice"])
def test_degenerate_problems(kernel, init, case):
    lam, pi = 1e-2, 0.4
    if case == "duplicates":  # eta = 0 for many pairs, one unlabelled copy of a positive
        Xp, Xu = pu_problem(1, n=30, duplicates=10)
        Xu[-1] = Xp[0]
    elif case == "n3":
        Xp, Xu = pu_problem(2, p=4, n=3)
    elif case == "n4":
        Xp, Xu = pu_problem(3, p=3, n=4)
        lam = 1e-3
    elif case == "p1":
        Xp, Xu = pu_problem(4, p=1, n=25)
    elif case == "n1":
        Xp, Xu = pu_problem(5, p=3, n=1)
    elif case == "rank1":  # 1-D data: the linear kernel matrix has rank one
        Xp, Xu = pu_problem(6, p=5, n=30, d=1)
        lam = 1e-4
    else:  # integer lattice: many exact ties and duplicates
        Xp, Xu = pu_problem(7, p=6, n=30)
        Xp, Xu = np.round(Xp), np.round(Xu)
    check_against_reference(Xp, Xu, kern(kernel), lam, pi, init)


def test_extreme_priors_and_explicit_start():
    Xp, Xu = pu_problem(8, n=30)
    k = kern("gaussian")
    for pi in (0.02, 0.98):
        check_against_reference(Xp, Xu, k, 1e-2, pi, "ocsvm")
    c1p, n = 0.5 / (2 * 1e-2), Xu.shape[0]
    dual0 = np.zeros(n)
    dual0[:25] = c1p / 25  # feasible: c1 p / 25 <= c2 = 1 / (2 lam n)
    res = usmo(Xp, Xu, k, 1e-2, 0.5, tau=TAU, dual0=dual0)
    ref = usmo_dual_reference(Xp, Xu, k, 1e-2, 0.5)
    np.testing.assert_array_equal(res.init_dual, dual0)
    assert rel_gap(res.dual_objective, ref.objective) <= GAP


# --------------------------------------------------------------------------- duality and bias
@pytest.mark.parametrize("kernel", ["linear", "gaussian"])
@pytest.mark.parametrize("lam", [1e-3, 1e-1])
def test_strong_duality_with_primal(kernel, lam):
    Xp, Xu = pu_problem(11, p=10, n=35)
    k = kern(kernel)
    res = usmo(Xp, Xu, k, lam, 0.4, tau=TAU)
    p = Xp.shape[0]
    K = gram(np.vstack([Xp, Xu]), kernel=k)
    const = 0.5 * res.c1 ** 2 * K[:p, :p].sum()
    alpha = np.r_[np.full(p, res.alpha_p), -res.dual]  # Eq. (7)
    assert abs(alpha.sum()) <= 1e-9 * max(1.0, res.c1 * p)
    primal_at_usmo = usmo_primal_objective(K, p, res.c1, res.c2, alpha, res.beta)
    expected = -res.dual_objective - const
    assert rel_gap(primal_at_usmo, expected) <= GAP  # beta from (16) is primal optimal
    prim = usmo_primal_reference(Xp, Xu, k, lam, 0.4)
    assert rel_gap(prim.objective, expected) <= GAP
    # (5) is (4) / (2 lam): R_emp + lam ||f||^2 = 2 lam (5)
    f = K @ alpha + res.beta
    fu, fp = f[p:], f[:p]
    remp = -0.4 / p * fp.sum() + np.mean(np.maximum(0, np.maximum(fu, 0.5 * (1 + fu))))
    assert rel_gap(remp + lam * alpha @ K @ alpha, 2 * lam * primal_at_usmo) <= 1e-9


def test_reference_bias_sign_matches_eq16():
    Xp, Xu = pu_problem(12, p=10, n=40)
    k = kern("gaussian")
    res = usmo(Xp, Xu, k, 1e-2, 0.4, tau=1e-8)
    ref = usmo_dual_reference(Xp, Xu, k, 1e-2, 0.4)
    assert res.n_nonbound > 0  # (16) is an average, unique beta
    assert ref.beta == pytest.approx(res.beta, abs=1e-4)
    assert ref.beta == pytest.approx(-ref.y_eq)
    # reference KKT check on the interior-point solution
    assert usmo_kkt_violation(ref.dual, ref.F, ref.c2, bound_tol=1e-5) <= 1e-4


def test_non_unique_bias_interval_when_every_sample_is_at_a_bound():
    # K ~ I (narrow Gaussian) and pi = 1/2: every unlabelled output lies inside (-1, 1), every
    # dual_u = c2/2, and the primal (5) is flat in beta over the KKT interval (the situation
    # of Isolet with the Gaussian kernel in Table IV).
    rng = np.random.default_rng(3)
    Xp, Xu = rng.normal(size=(6, 5)), rng.normal(size=(30, 5))
    k = make_kernel("gaussian", sigma=0.05)
    res = usmo(Xp, Xu, k, 1e-2, 0.5, tau=1e-8)
    ref = usmo_dual_reference(Xp, Xu, k, 1e-2, 0.5)
    np.testing.assert_allclose(res.dual, res.c2 / 2)
    lo, hi = bias_interval(res.dual, res.F, res.c2)
    assert hi - lo > 0.5
    assert res.beta == pytest.approx(0.5 * (lo + hi))       # USMO: the midpoint
    assert lo - 1e-6 <= ref.beta <= hi + 1e-6               # Clarabel: somewhere inside
    p = Xp.shape[0]
    K = gram(np.vstack([Xp, Xu]), kernel=k)
    alpha = np.r_[np.full(p, res.alpha_p), -res.dual]
    vals = [usmo_primal_objective(K, p, res.c1, res.c2, alpha, b) for b in (lo, res.beta, hi)]
    assert max(vals) - min(vals) <= 1e-9 * max(1.0, abs(vals[0]))
    outside = usmo_primal_objective(K, p, res.c1, res.c2, alpha, hi + 0.1)
    assert outside > vals[0] + 1e-6


def test_bias_interval_is_a_point_with_non_bound_samples():
    Xp, Xu = pu_problem(12, p=10, n=40)
    res = usmo(Xp, Xu, kern("gaussian"), 1e-2, 0.4, tau=1e-8)
    assert res.n_nonbound > 0
    lo, hi = bias_interval(res.dual, res.F, res.c2, tol=1e-6)
    assert abs(hi - lo) <= 1e-5 and lo - 1e-5 <= res.beta <= hi + 1e-5


def test_decision_function_and_init_classifier():
    Xp, Xu = pu_problem(13, p=8, n=30, d=3)
    X = np.random.default_rng(0).normal(size=(17, 3))
    for name in ("linear", "gaussian"):
        k = kern(name)
        res = usmo(Xp, Xu, k, 1e-2, 0.4)
        dense = (res.c1 * gram(X, Xp, kernel=k).sum(axis=1) - gram(X, Xu, kernel=k) @ res.dual
                 + res.beta)
        np.testing.assert_allclose(usmo_decision_function(res, Xp, Xu, X, k), dense, atol=1e-9)
        np.testing.assert_allclose(usmo_decision_function(res, Xp, Xu, Xu, k), res.F + res.beta,
                                   atol=1e-8)
        init = usmo_decision_function(res, Xp, Xu, X, k, init=True)
        dense0 = (res.c1 * gram(X, Xp, kernel=k).sum(axis=1)
                  - gram(X, Xu, kernel=k) @ res.init_dual + res.init_beta)
        np.testing.assert_allclose(init, dense0, atol=1e-9)


# --------------------------------------------------------------------------- initialisation
@pytest.mark.parametrize("n", [1, 3, 8, 40, 200])
@pytest.mark.parametrize("pi", [0.05, 0.5, 0.95])
def test_initial_points_exactly_feasible(n, pi):
    Xp, Xu = pu_problem(14, p=6, n=n, pi=pi)
    lam = 1e-2
    for init in ("ocsvm", "trivial"):
        res = usmo(Xp, Xu, kern("gaussian"), lam, pi, init=init, max_passes=0)
        c1p = pi / (2 * lam)
        s = res.init_dual
        assert abs(s.sum() - c1p) <= 1e-12 * max(1.0, c1p)
        assert s.min() >= 0.0 and s.max() <= res.c2
        assert res.passes == 0 and np.array_equal(res.dual, s)
        assert np.isfinite(res.init_beta) and res.init_beta == res.beta


def test_ocsvm_init_has_the_five_groups():
    Xp, Xu = pu_problem(15, p=20, n=300)
    res = usmo(Xp, Xu, kern("gaussian"), 1e-2, 0.4, max_passes=0)
    s, c2 = res.init_dual, res.c2
    assert np.any(s == 0) and np.any(s == c2) and np.any(s == c2 / 2)
    assert np.any((s > 0) & (s < c2 / 2)) and np.any((s > c2 / 2) & (s < c2))


# --------------------------------------------------------------------------- stopping rules
def test_paper_rule_stops_suboptimally_complete_rule_does_not():
    # Section 4.2: the incomplete rule (13) misses the D3-D3 violation
    Xp, Xu = pu_problem(0, p=15, n=46, pi=16 / 46)
    k = kern("linear")
    paper = usmo(Xp, Xu, k, 1e-2, 0.4, tau=TAU, stopping="paper")
    complete = usmo(Xp, Xu, k, 1e-2, 0.4, tau=TAU)
    ref = usmo_dual_reference(Xp, Xu, k, 1e-2, 0.4)
    assert paper.converged and paper.stopping == "paper"
    assert paper.kkt_violation > 1e-2  # positive complete-rule violation at the paper's stop
    assert rel_gap(paper.dual_objective, ref.objective) > 10 * GAP  # suboptimal stop
    assert complete.converged and complete.kkt_violation <= TAU
    assert rel_gap(complete.dual_objective, ref.objective) <= GAP


@pytest.mark.parametrize("seed", range(8))
def test_complete_rule_never_stops_early_and_paper_rule_is_consistent(seed):
    Xp, Xu = pu_problem(seed, p=10, n=30)
    for name in ("linear", "gaussian"):
        k = kern(name)
        c = usmo(Xp, Xu, k, 1e-2, 0.4, tau=TAU)
        assert c.converged and c.kkt_violation <= TAU
        p = usmo(Xp, Xu, k, 1e-2, 0.4, tau=TAU, stopping="paper")
        assert p.converged
        assert p.dual_objective >= c.dual_objective - 1e-9 * max(1, abs(c.dual_objective))


def test_pass_structure_and_trace():
    Xp, Xu = pu_problem(16, p=15, n=200)
    res = usmo(Xp, Xu, kern("gaussian"), 1e-2, 0.4, tau=1e-4)
    tr = res.trace
    assert res.passes == len(tr["seconds"]) == len(tr["kind"]) == len(tr["n_changed"])
    assert res.passes % 2 == 1  # whole, non-bound, ..., whole
    np.testing.assert_array_equal(tr["kind"], np.arange(res.passes) % 2 == 0)
    assert tr["kind"][-1] == 1 and tr["n_changed"][-1] == 0
    assert tr["n_changed"].sum() == res.pair_updates
    assert np.all(np.diff(tr["dual_objective"]) <= 1e-12 * max(1, abs(res.dual_objective)))
    assert tr["dual_objective"][-1] == pytest.approx(res.dual_objective)
    off = usmo(Xp, Xu, kern("gaussian"), 1e-2, 0.4, tau=1e-4, record_trace=False)
    assert len(off.trace["seconds"]) == 0 and off.passes == res.passes


# --------------------------------------------------------------------------- kernel-row cache
def test_row_cache_is_used_and_tiny_cache_gives_same_answer():
    Xp, Xu = pu_problem(17, p=10, n=150)
    k = kern("gaussian")
    big = usmo(Xp, Xu, k, 1e-2, 0.4, tau=1e-6)
    n = Xu.shape[0]
    assert big.info["cache_slots"] == n
    # the budget holds K_UU: filled once at the start, then every request is a hit
    assert big.kernel_rows_computed == n
    assert big.cache_hits >= 2 * big.pair_updates
    tiny = usmo(Xp, Xu, k, 1e-2, 0.4, tau=1e-6, cache_mb=1e-6)  # two rows, on demand
    assert tiny.info["cache_slots"] == 2
    assert tiny.kernel_rows_computed > big.kernel_rows_computed
    # same optimum (the two paths compute F with different rounding)
    assert rel_gap(tiny.dual_objective, big.dual_objective) <= 1e-9
    np.testing.assert_allclose(tiny.F, big.F, atol=1e-5)
    assert tiny.beta == pytest.approx(big.beta, abs=1e-5)


@pytest.mark.parametrize("kernel", ["gaussian", "linear", "polynomial"])
def test_cache_fill_all_equals_rows_on_demand(kernel):
    from weaklabel.kernels import KernelRowCache

    X = np.random.default_rng(4).normal(size=(40, 3))
    full = KernelRowCache(X, kernel=kernel, cache_mb=1.0)
    assert full.holds_all_rows
    K = full.fill_all().copy()
    np.testing.assert_allclose(K, gram(X, kernel=kernel), rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(K, K.T)  # exactly symmetric (BLAS path included)
    assert full.misses == 40 and np.all(full.lengths == 40)
    np.testing.assert_array_equal(full.row(7), K[7])  # a hit, no recomputation
    assert full.misses == 40
    small = KernelRowCache(X, kernel=kernel, cache_mb=1e-6)
    assert not small.holds_all_rows
    with pytest.raises(ValueError, match="cache_mb"):
        small.fill_all()


# --------------------------------------------------------------------------- the analytic step
def test_take_step_matches_brute_force_on_the_segment():
    rng = np.random.default_rng(18)
    c2 = 1.0
    h = lambda s: -np.minimum(s, c2 - s)
    for trial in range(400):
        si, sj = rng.choice([0.0, 0.5, 1.0, rng.uniform(), rng.uniform()], size=2)
        Fi, Fj = rng.normal(scale=2.0, size=2)
        if trial % 4 == 0:  # eta = 0 (duplicate points)
            kii = kjj = kij = rng.uniform(0.5, 2.0)
        else:
            A = rng.normal(size=(2, 3))
            kii, kjj, kij = A[0] @ A[0], A[1] @ A[1], A[0] @ A[1]
        eta = kii + kjj - 2 * kij
        a = si + sj
        lo, hi = max(0.0, a - c2), min(c2, a)
        t = np.linspace(lo - sj, hi - sj, 20001)
        phi = (Fi - Fj) * t + 0.5 * eta * t ** 2 + h(si - t) + h(sj + t) - h(si) - h(sj)
        ok, ni, nj = take_step(si, sj, Fi, Fj, kii, kjj, kij, c2)
        assert 0.0 <= ni <= c2 and 0.0 <= nj <= c2
        assert ni + nj == pytest.approx(a, abs=1e-14)
        tt = nj - sj
        got = (Fi - Fj) * tt + 0.5 * eta * tt ** 2 + h(ni) + h(nj) - h(si) - h(sj)
        if ok:
            assert got < 0.0
            assert got <= phi.min() + 1e-9
        else:
            assert (ni, nj) == (si, sj)
            assert phi.min() >= -1e-9


# --------------------------------------------------------------------------- input validation
@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"Xp": np.empty((0, 2))}, "Xp"),
        ({"Xu": np.empty((0, 2))}, "Xu"),
        ({"pi": 0.0}, "pi"),
        ({"pi": 1.0}, "pi"),
        ({"pi": 1.5}, "pi"),
        ({"lam": 0.0}, "lam"),
        ({"lam": -1.0}, "lam"),
        ({"tau": 0.0}, "tau"),
        ({"tau": -1e-3}, "tau"),
        ({"Xu": np.ones((5, 3))}, "Xu"),
        ({"Xp": np.array([[np.nan, 1.0]])}, "Xp"),
        ({"Xu": np.array([[np.inf, 1.0], [0.0, 1.0]])}, "Xu"),
        ({"stopping": "lazy"}, "stopping"),
        ({"init": "zeros"}, "init"),
        ({"cache_mb": 0.0}, "cache_mb"),
        ({"max_passes": -1}, "max_passes"),
        ({"dual0": np.ones(3)}, "dual0"),
        ({"dual0": np.full(10, 1e9)}, "dual0"),
        ({"kernel": "cubic"}, "kernel"),
    ],
)
def test_bad_inputs_raise_value_error_naming_the_argument(kwargs, name):
    Xp, Xu = pu_problem(19, p=4, n=10)
    args = {"Xp": Xp, "Xu": Xu, "kernel": "linear", "lam": 1e-2, "pi": 0.4}
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        usmo(**args)


def test_max_passes_warns_convergence_warning():
    Xp, Xu = pu_problem(20, p=10, n=120)
    with pytest.warns(ConvergenceWarning,
                      match="usmo stopped at max_passes=1 .*increase max_passes or loosen tau"):
        res = usmo(Xp, Xu, kern("gaussian"), 1e-3, 0.4, tau=1e-8, max_passes=1)
    assert not res.converged and res.passes == 1
    assert res.kkt_violation > 1e-8
    assert abs(res.dual.sum() - res.c1 * Xp.shape[0]) <= 1e-9 * max(1, res.c1 * Xp.shape[0])
