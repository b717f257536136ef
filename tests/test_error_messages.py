"""Bad hyperparameters get an error naming the estimator's own argument (issue "No silent
wrong answers", its misleading errors): never a solver's internal name (``eps``, ``k``),
a leaked ``TypeError: unhashable type`` or ``IndexError``, or numpy's seed messages.

Each rule has cases where it must fire and cases where it must not. The must-not cases stop
cheaply: the estimator gets a valid value of the parameter under test and an invalid
target or size, so the error it raises must name that other argument (proof that the value
under test passed its check) without running a fit.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from weaklabel._validation import (
    ConvergenceWarning,
    check_choice,
    check_random_state,
    warn_not_converged,
)
from weaklabel.models import (
    CCCPTSVM,
    CPMMC,
    CUU,
    EMDD,
    GMMC,
    ILUISVM,
    MCLS,
    NBBSVM,
    SUSL,
    TSGSU,
    AlignedKMeans,
    DiverseDensity,
    DoubleHingePU,
    IterSVR,
    KernelKMeans,
    LapSVM,
    RampPU,
    WellSVM,
    WellSVMClustering,
    WellSVMMIL,
)
from weaklabel.models.wellsvm import reissue_wellsvm_warnings


def _X(n=12, d=2, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d))


def _s_all_unlabelled(n=12):
    return np.zeros(n, dtype=int)


def _bags():
    rng = np.random.default_rng(0)
    bags = [rng.standard_normal((2, 2)) for _ in range(4)]
    return bags, np.array([1, 0, 1, 0])


def _fit(est):
    """Fit ``est`` on data of its family; an estimator that gets past its parameter checks
    meets a target of one kind only (PU / SU: all unlabelled) or too few rows (clustering:
    one row), so the call always raises."""
    if isinstance(est, (DiverseDensity, EMDD)):
        bags, y = _bags()
        return est.fit(bags, np.zeros_like(y))  # one class of bags: an error naming y
    if isinstance(est, (KernelKMeans, AlignedKMeans, IterSVR, CPMMC, GMMC,
                        WellSVMClustering)):
        return est.fit(_X(1))
    if isinstance(est, LapSVM):
        return est.fit(_X(), np.full(12, -1))
    return est.fit(_X(), _s_all_unlabelled())


def _fit_valid(est):
    """Fit ``est`` on valid data of its family (for a bad value that is checked late)."""
    X = _X()
    if isinstance(est, (KernelKMeans, IterSVR)):
        return est.fit(X)
    if isinstance(est, LapSVM):
        return est.fit(X, np.r_[0, 1, 0, 1, np.full(8, -1)])
    return est.fit(X, np.r_[1, 1, 1, 1, np.zeros(8, dtype=int)])


def _other_error(est, name):
    """``est`` raises, and not about ``name``."""
    with pytest.raises((ValueError, TypeError)) as info:
        _fit(est)
    assert name not in str(info.value), str(info.value)


# ------------------------------------------------------------------ choices: unhashable
CHOICE_CASES = [
    (KernelKMeans, {}, "init"),
    (IterSVR, {}, "init"),
    (DoubleHingePU, {"prior": 0.5}, "solver"),
    (DoubleHingePU, {"prior": 0.5}, "init"),
    (DoubleHingePU, {"prior": 0.5}, "stopping"),
    (RampPU, {"prior": 0.5}, "solver"),
    (CUU, {"prior": 0.6}, "schedule"),
    (CUU, {"prior": 0.6}, "correction"),
    (SUSL, {"prior": 0.6}, "kernel"),
    (MCLS, {"prior": 0.5}, "prior_pool"),
    (MCLS, {"prior": 0.5}, "init"),
    (LapSVM, {}, "laplacian"),
    (LapSVM, {}, "weights"),
]


@pytest.mark.parametrize("cls, kw, name", CHOICE_CASES,
                         ids=[f"{c.__name__}-{n}" for c, _, n in CHOICE_CASES])
def test_a_list_for_a_choice_names_the_parameter(cls, kw, name):
    # before: TypeError: unhashable type: 'list'
    with pytest.raises(ValueError, match=rf"^{name} must be one of .*got \[-1\.0\]"):
        _fit_valid(cls(**kw, **{name: [-1.0]}))


def test_check_choice_fires_on_unhashable_and_foreign_values_only():
    assert check_choice("a", "mode", {"a", "b"}) == "a"
    for bad in (["a"], {"a": 1}, "c", None):
        with pytest.raises(ValueError, match="^mode must be one of"):
            check_choice(bad, "mode", {"a", "b"})


# ------------------------------------------------------------------ own names, not solvers'
@pytest.mark.parametrize("value", [-1, 0, float("nan"), float("inf"), "bogus", True])
def test_gmmc_tol_is_named_tol(value):
    # before: "eps must be finite and > 0" (the SCS argument of gmmc_sdp)
    with pytest.raises((ValueError, TypeError), match=r"^tol must be") as info:
        GMMC(tol=value).fit(_X(6))
    assert "eps" not in str(info.value)


def test_gmmc_valid_tol_passes_its_check():
    with pytest.raises(ValueError, match="max_n"):  # stops before the SDP
        GMMC(tol=1e-4, max_n=5).fit(_X(6))


@pytest.mark.parametrize("cls", [MCLS, ILUISVM])
@pytest.mark.parametrize("value", [-1, 0, 1.5, "bogus", float("nan"), True])
def test_n_clusters_is_named_n_clusters(cls, value):
    # before: "k must be >= 1" / "k must be an integer" (ilu_labels' argument)
    with pytest.raises((ValueError, TypeError), match=r"^n_clusters must be"):
        _fit(cls(prior=0.5, n_clusters=value))


@pytest.mark.parametrize("cls", [MCLS, ILUISVM])
def test_valid_n_clusters_passes_its_check(cls):
    _other_error(cls(prior=0.5, n_clusters=3), "n_clusters")


# ------------------------------------------------------------------ NBBSVM
@pytest.mark.parametrize("name", ["C_plus_grid", "ratio_grid"])
@pytest.mark.parametrize("value", ["bogus", ("a", 1.0), (1.0, None)])
def test_nbbsvm_grid_of_non_numbers_names_the_grid(name, value):
    # before ("bogus"): ValueError: could not convert string to float: 'b'
    with pytest.raises((ValueError, TypeError), match=rf"^{name} must be"):
        _fit(NBBSVM(**{name: value}))


@pytest.mark.parametrize("value", [(1.0, 10.0), [0.5], np.array([1.0, 2.0]), (np.float32(1),)])
def test_nbbsvm_valid_grids_pass_their_check(value):
    _other_error(NBBSVM(C_plus_grid=value, ratio_grid=value), "grid")


@pytest.mark.parametrize("value", [-1, 0, 1, 1.5, float("nan"), float("inf"), "bogus", (),
                                   [-1.0], True])
def test_nbbsvm_val_fraction_outside_0_1_names_it(value):
    # before: "negative dimensions are not allowed", "Cannot take a larger sample than
    # population", "cannot convert float NaN to integer", ...; 0, 1 and True were accepted
    # (no hold-out, or no training rows: the first grid point silently)
    with pytest.raises((ValueError, TypeError), match=r"^val_fraction must"):
        _fit(NBBSVM(val_fraction=value))


@pytest.mark.parametrize("value", [0.3, 0.05, 0.95])
def test_nbbsvm_valid_val_fraction_passes_its_check(value):
    _other_error(NBBSVM(val_fraction=value), "val_fraction")


# ------------------------------------------------------------------ random_state
SEEDED = [
    (KernelKMeans, {}), (AlignedKMeans, {}), (IterSVR, {}), (CPMMC, {}),
    (WellSVMClustering, {}), (MCLS, {"prior": 0.5}), (ILUISVM, {"prior": 0.5}),
    (NBBSVM, {}), (DoubleHingePU, {"prior": 0.5}), (CUU, {"prior": 0.6}),
    (TSGSU, {"prior": 0.6}), (DiverseDensity, {}), (EMDD, {}),
]
BAD_SEEDS = [-1, 1.5, "bogus", float("nan"), [-1.0], True]


@pytest.mark.parametrize("cls, kw", SEEDED, ids=[c.__name__ for c, _ in SEEDED])
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_bad_random_state_names_random_state(cls, kw, seed):
    # before: numpy's "expected non-negative integer", "SeedSequence expects int or
    # sequence of ints for entropy not 1.5", "seed must be integer"; True was accepted
    with pytest.raises((ValueError, TypeError), match=r"^random_state must be"):
        _fit(cls(**kw, random_state=seed))


@pytest.mark.parametrize("cls, kw", SEEDED, ids=[c.__name__ for c, _ in SEEDED])
def test_valid_random_state_passes_its_check(cls, kw):
    for seed in (None, 0, 2**40, np.random.default_rng(0)):
        _other_error(cls(**kw, random_state=seed), "random_state")


def test_check_random_state_leaves_a_generator_untouched():
    rng = np.random.default_rng(0)
    state = rng.bit_generator.state
    assert check_random_state(rng) is rng
    assert rng.bit_generator.state == state
    assert check_random_state(np.int64(3)) == 3
    assert check_random_state([1, 2]) == [1, 2]


# ------------------------------------------------------------------ CCCPTSVM's ramp s
@pytest.mark.parametrize("value", ["bogus", (), [-1.0], True, None])
def test_cccptsvm_ramp_s_of_a_wrong_type_names_s(value):
    # before: "could not convert string to float: 'bogus'", "float() argument must be a
    # string or a real number, not 'tuple'"; True was read as 1.0
    with pytest.raises(TypeError, match=r"^s \(the ramp parameter\) must be a real"):
        CCCPTSVM(s=value).fit(_X(), np.full(12, -1))


@pytest.mark.parametrize("value", [-1, 0.5, float("nan"), float("inf")])
def test_cccptsvm_ramp_s_outside_its_range_names_s(value):
    with pytest.raises(ValueError, match=r"^s \(the ramp parameter\) must satisfy"):
        CCCPTSVM(s=value).fit(_X(), np.full(12, -1))


@pytest.mark.parametrize("value", [-0.3, 0, -0.999, np.float32(-0.5)])
def test_cccptsvm_valid_ramp_s_passes_its_check(value):
    with pytest.raises(ValueError) as info:  # all unlabelled: an error naming y
        CCCPTSVM(s=value).fit(_X(), np.full(12, -1))
    assert "ramp" not in str(info.value), str(info.value)


# ------------------------------------------------------------------ WellSVM family warnings
_SOLVER_NAMES = re.compile(r"\b(max_outer|mkl_max_iter|mkl_tol|inner_eps|eps|thr)\b")


def _solver_warning(solver, cap, param, tol_param, what="relative label violation"):
    """The text a WellSVM solver emits (recorded from the solvers' own helper)."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        warn_not_converged(solver, cap, 0.5, what=what, param=param, tol_param=tol_param)
    return rec


def _reissued(caught, max_iter=3):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        failed = reissue_wellsvm_warnings(caught, "WellSVM", max_iter, stacklevel=2)
    return failed, [str(w.message) for w in rec]


@pytest.mark.parametrize("solver, param, tol_param, expect", [
    ("wellsvm", "max_outer", "eps", "label-generation loop stopped at max_iter=3"),
    ("wellsvm_mil", "max_outer", "eps", "label-generation loop stopped at max_iter=3"),
    ("wellsvm (MLKL)", "mkl_max_iter", "mkl_tol", "multiple-label-kernel (MLKL) solve"),
    ("label_kernel_dual", "max_iter", "eps", "an inner SVM solve stopped"),
    ("smo", "max_iter", "eps", "an inner SVM solve stopped"),
])
def test_wellsvm_warnings_are_reissued_in_the_estimators_words(solver, param, tol_param,
                                                               expect):
    # before (label_kernel_dual / smo): "the label-generation loop stopped at max_iter=3
    # outer iterations", which is not what stopped
    failed, msgs = _reissued(_solver_warning(solver, 10**7, param, tol_param))
    assert failed and len(msgs) == 1 and expect in msgs[0], msgs
    assert not _SOLVER_NAMES.search(msgs[0]), msgs[0]


def test_wellsvm_prop_check_warning_names_no_solver_argument():
    w = warnings.WarningMessage(RuntimeWarning(
        "wellsvm: 2 Prop. 4 check(s) failed (a label reported violated does not increase "
        "y'Hy); the inner solutions may be inaccurate, lower inner_eps."), RuntimeWarning,
        "solver.py", 1)
    failed, msgs = _reissued([w])
    assert failed and "2 Prop. 4 check(s) failed" in msgs[0]
    assert not _SOLVER_NAMES.search(msgs[0]), msgs[0]


def test_other_warnings_pass_through_unchanged():
    w = warnings.WarningMessage(UserWarning("max_outer is mentioned here"), UserWarning,
                                "solver.py", 1)
    failed, msgs = _reissued([w])
    assert not failed and msgs == ["max_outer is mentioned here"]


def _wellsvm_data(n=40):
    rng = np.random.default_rng(0)
    y = np.where(np.arange(n) % 2 == 0, 1, 0)
    X = rng.standard_normal((n, 2)) + 2.0 * y[:, None]
    ys = y.copy()
    ys[4:] = -1
    return X, ys


def _wellsvm_bags():
    rng = np.random.default_rng(0)
    bags = []
    for i in range(10):
        b = rng.standard_normal((3, 2))
        if i % 2 == 0:
            b[0, 0] += 4.0
        bags.append(b)
    return bags, (np.arange(10) % 2 == 0).astype(int)


@pytest.mark.parametrize("make", [
    lambda: (WellSVM(kernel="linear", max_iter=1), _wellsvm_data()),
    # the reference variant stopped at its cap with converged_=False and no warning
    lambda: (WellSVM(variant="reference", max_iter=1), _wellsvm_data()),
    lambda: (WellSVMClustering(max_iter=1, random_state=0), (_wellsvm_data()[0],)),
    lambda: (WellSVMMIL(max_iter=1), _wellsvm_bags()),
], ids=["WellSVM", "WellSVM-reference", "WellSVMClustering", "WellSVMMIL"])
def test_wellsvm_family_cap_warning_names_max_iter_at_the_users_line(make):
    est, args = make()
    with pytest.warns(ConvergenceWarning) as rec:
        est.fit(*args)
    ours = [w for w in rec if issubclass(w.category, ConvergenceWarning)]
    assert any("max_iter=1" in str(w.message) for w in ours), [str(w.message) for w in ours]
    for w in ours:
        assert not _SOLVER_NAMES.search(str(w.message)), str(w.message)
        assert w.filename == __file__, w.filename
    assert est.converged_ is False


@pytest.mark.parametrize("make", [
    lambda: (WellSVM(kernel="linear"), _wellsvm_data()),
    lambda: (WellSVMMIL(), _wellsvm_bags()),
    lambda: (WellSVM(variant="reference"), _wellsvm_data()),
], ids=["WellSVM", "WellSVMMIL", "WellSVM-reference"])
def test_wellsvm_family_default_cap_does_not_warn_here(make):
    est, args = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est.fit(*args)
    assert est.converged_ is True


def _two_blobs(seed):
    from sklearn.datasets import make_blobs
    return make_blobs(80, centers=[[-3.0, 0.0], [3.0, 0.0]], random_state=seed)[0]


def test_wellsvm_clustering_intermediate_mlkl_cap_does_not_warn():
    # two 40-point blobs: with the defaults, one intermediate MLKL solve of this draw stops
    # at its 100-iteration cap; the next solve starts from it and the last one closes its
    # gap, so the returned solution is certified and nothing is wrong (it warned before)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = WellSVMClustering(random_state=10).fit(_two_blobs(1))
    info = est.result_.result.info
    assert info["mkl_capped"] >= 1, info        # the case the rule must not fire on
    assert est.converged_ is True


def test_wellsvm_last_mlkl_solve_at_its_cap_warns():
    from weaklabel.solvers.wellsvm import wellsvm_clustering
    with pytest.warns(ConvergenceWarning, match="mkl_max_iter=1"):
        r = wellsvm_clustering(_two_blobs(1), 1.0, "gaussian", random_state=10,
                               mkl_max_iter=1)
    assert r.result.info["mkl_capped"] >= 1


def test_cpmmc_inaccurate_qp_warns_in_its_own_words():
    from sklearn.datasets import make_blobs

    from weaklabel.models import CPMMC
    X = make_blobs(200, centers=[[-2.0, 0.0], [2.0, 0.0]], random_state=0)[0] * 1e8
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        est = CPMMC(random_state=0).fit(X)
    msgs = [str(w.message) for w in rec]
    assert est.result_.info["inaccurate_qps"] >= 1, msgs
    assert not any("solver settings" in m for m in msgs), msgs     # cvxpy's advice
    ours = [w for w in rec if "reduced accuracy" in str(w.message)]
    assert len(ours) == 1 and "cp_tol" in str(ours[0].message), msgs
    assert ours[0].filename == __file__, ours[0].filename


def test_cpmmc_accurate_qps_do_not_warn():
    from weaklabel.models import CPMMC
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = CPMMC(random_state=0).fit(_two_blobs(0))
    assert est.result_.info["inaccurate_qps"] == 0
