"""Every public estimator of ``weaklabel.models`` against bad and unusual input.

Each case ends in one class of outcome, asserted here: a clear error that names the
argument, or a sound answer (finite decision values, two predicted classes on two separated
blobs, or a ``OneClassPredictionWarning`` saying it predicts one), never a silent wrong
answer. The estimators are discovered as in ``test_sklearn_conformance`` (the
``BaseEstimator`` classes and the multi-instance classes), so a new estimator is covered
automatically. Every fit runs under a time limit (:func:`_time_limit`); the cases that need
more time than the default suite allows are marked ``slow``.

A case an estimator does not pass yet is listed in :data:`KNOWN_DEFECTS` with what it does
instead; strict xfail makes a fixed defect fail the run until it is removed from the list.

The last part re-tries the defects of the issue "No silent wrong answers from any estimator"
at the sizes it measured them (200 rows), each with a test where the new check must not
fire.
"""

from __future__ import annotations

import re
import signal
import time
import warnings
from contextlib import contextmanager

import numpy as np
import pytest
from sklearn.base import ClusterMixin, clone
from sklearn.exceptions import ConvergenceWarning
from test_sklearn_conformance import ESTIMATORS, MIL_ESTIMATORS

from weaklabel._inventory import CompileClock, family, family_problem, mil_problem
from weaklabel.models._base import (
    check_dense_memory,
    check_semisupervised_target,
)
from weaklabel.models.exceptions import OneClassPredictionWarning

#: seconds one fit may take in this module, numba's compilation excluded (a case over it
#: fails, it does not hang; a guard against hangs, generous for a loaded machine)
TIME_LIMIT = 60.0


_COMPILE = CompileClock().install()


def _fit_seconds(t0: float, c0: float) -> float:
    """Seconds since ``perf_counter() == t0`` outside numba's compilation (``c0``: the
    compile clock then)."""
    return (time.perf_counter() - t0) - (_COMPILE.now() - c0)


@contextmanager
def _time_limit(seconds: float = TIME_LIMIT):
    """Raise ``TimeoutError`` in the main thread once the case has run ``seconds`` outside
    numba's compilation (SIGALRM, re-armed by the compile time spent meanwhile; it
    interrupts at the next Python instruction, so a solver's compiled loop ends first: every
    such loop is bounded by its own iteration cap)."""
    t0, c0 = time.perf_counter(), _COMPILE.now()

    def handler(signum, frame):
        spent = (time.perf_counter() - t0) - (_COMPILE.now() - c0)
        if spent < seconds:
            signal.setitimer(signal.ITIMER_REAL, seconds - spent)
            return
        raise TimeoutError(f"case took longer than {seconds} s (numba compilation excluded)")

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


_family = family


def _id(est):
    return type(est).__name__


def _blobs(n=40, seed=0, shift=4.0):
    return family_problem("clustering", n, seed=seed, shift=shift)[:2]


def _data(fam, n=40):
    return family_problem(fam, n)


def _fit(est, X, t):
    return est.fit(X) if t is None else est.fit(X, t)


# --------------------------------------------------------------------------- error cases
def _nan(fam):
    X, _, t = _data(fam)
    X[3, 1] = np.nan
    return X, t


def _inf(fam):
    X, _, t = _data(fam)
    X[5, 0] = np.inf
    return X, t


def _huge(fam):
    X, _, t = _data(fam)
    return X * 1e300, t


def _empty(fam):
    X, _, t = _data(fam)
    return X[:0], None if t is None else t[:0]


def _three_d(fam):
    X, _, t = _data(fam)
    return X.reshape(X.shape[0], X.shape[1], 1), t


def _strings(fam):
    X, _, t = _data(fam)
    return X.astype(str).astype(object) + "x", t


def _complex(fam):
    X, _, t = _data(fam)
    return X + 1j, t


ERROR_CASES = {  # case -> (make, a word the message must contain)
    "nan_in_X": (_nan, "X"),
    "inf_in_X": (_inf, "X"),
    "1e300_scale_X": (_huge, "X"),
    "empty_X": (_empty, "X"),
    "3d_X": (_three_d, "X"),
    "strings_in_X": (_strings, "X"),
    "complex_X": (_complex, "X"),
}


def _length_mismatch(fam):
    X, _, t = _data(fam)
    return X, t[:-3]


def _all_unlabelled(fam):
    X, _, t = _data(fam)
    return X, (np.zeros_like(t) if fam in ("pu", "su") else np.full_like(t, -1))


def _foreign_labels(fam):
    X, _, t = _data(fam)
    return X, t + 5


TARGET_ERROR_CASES = {
    "length_mismatch": (_length_mismatch, None),
    "all_unlabelled": (_all_unlabelled, None),
    "foreign_label_set": (_foreign_labels, None),
}

#: (estimator, case) -> what it does instead (known remaining defects)
KNOWN_DEFECTS: dict[tuple[str, str], str] = {}


def _cases(table, families=("pu", "ssl", "su", "clustering")):
    out = []
    for est in ESTIMATORS:
        fam = _family(est)
        if fam not in families:
            continue
        for case in table:
            marks = []
            why = KNOWN_DEFECTS.get((_id(est), case))
            if why:
                marks.append(pytest.mark.xfail(strict=True, reason=why))
            out.append(pytest.param(est, case, id=f"{_id(est)}-{case}", marks=marks))
    return out


@pytest.mark.parametrize("est, case", _cases(ERROR_CASES))
def test_bad_X_is_a_clear_error(est, case):
    make, name = ERROR_CASES[case]
    X, t = make(_family(est))
    with pytest.raises((ValueError, TypeError)) as info, _time_limit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _fit(clone(est), X, t)
    assert name in str(info.value), f"the message does not name {name!r}: {info.value}"


@pytest.mark.parametrize("est, case", _cases(TARGET_ERROR_CASES, ("pu", "ssl", "su")))
def test_bad_target_is_a_clear_error(est, case):
    make, _ = TARGET_ERROR_CASES[case]
    X, t = make(_family(est))
    with pytest.raises((ValueError, TypeError)) as info, _time_limit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _fit(clone(est), X, t)
    target = "y" if _family(est) == "ssl" else "s"
    assert re.search(rf"\b{target}\b", str(info.value)), (
        f"the message does not name {target!r}: {info.value}")


# --------------------------------------------------------------------------- sound cases
def _check_sound(est, X, y, t):
    """Fit, then: finite decision values, the right number of features required at
    predict, and two predicted classes on two separated blobs or a warning saying one."""
    t0, c0 = time.perf_counter(), _COMPILE.now()
    with warnings.catch_warnings(record=True) as caught, _time_limit():
        warnings.simplefilter("always")
        m = _fit(clone(est), X, t)
    assert _fit_seconds(t0, c0) < TIME_LIMIT
    pred = m.labels_ if isinstance(est, ClusterMixin) else m.predict(X)
    assert len(pred) == X.shape[0]
    if hasattr(m, "decision_function") and not isinstance(est, ClusterMixin):
        f = np.asarray(m.decision_function(X), dtype=float)
        assert np.all(np.isfinite(f)), "decision values are not finite"
    warned = any(issubclass(w.category, OneClassPredictionWarning) for w in caught)
    assert np.unique(pred).size == 2 or warned, (
        f"one class predicted on two separated blobs without a warning: {np.unique(pred)}")
    if not isinstance(est, ClusterMixin):
        with pytest.raises(ValueError, match="features"):
            m.predict(X[:, :-1])
    return m, caught


def _scaled(v):
    def make(fam):
        X, y, t = _data(fam)
        return X * np.asarray(v)[None, :], y, t
    return make


def _float32(fam):
    X, y, t = _data(fam)
    return X.astype(np.float32), y, t


def _duplicated(fam):
    X, y, t = _data(fam)
    return (np.vstack([X, X]), np.r_[y, y], None if t is None else np.r_[t, t])


SOUND_CASES = {
    "plain": lambda fam: _data(fam),
    "float32": _float32,
    "all_features_scaled_1e-6": _scaled([1e-6] * 3),
    "duplicated_rows": _duplicated,
}
#: slower estimators: their sound cases other than "plain" run under -m slow
SLOW_ESTIMATORS = {"GMMC", "SUDH", "WellSVMClustering", "MCLS", "ILUISVM"}


def _sound_cases():
    out = []
    for est in ESTIMATORS:
        for case in SOUND_CASES:
            marks = []
            why = KNOWN_DEFECTS.get((_id(est), case))
            if why:
                marks.append(pytest.mark.xfail(strict=True, reason=why))
            if case != "plain" and _id(est) in SLOW_ESTIMATORS:
                marks.append(pytest.mark.slow)
            out.append(pytest.param(est, case, id=f"{_id(est)}-{case}", marks=marks))
    return out


@pytest.mark.parametrize("est, case", _sound_cases())
def test_unusual_but_valid_input_gets_a_sound_answer(est, case):
    X, y, t = SOUND_CASES[case](_family(est))
    _check_sound(est, X, y, t)


@pytest.mark.parametrize("est", [
    pytest.param(e, id=_id(e), marks=[pytest.mark.slow] if _id(e) in SLOW_ESTIMATORS else [])
    for e in ESTIMATORS])
def test_one_feature_scaled_1e6_is_an_answer_or_a_clear_error(est):
    """A feature on a 1e6 scale: a sound answer, or a ValueError naming X (the SMO fits
    with a linear kernel, whose tolerance is unreachable there) -- never a hang."""
    X, y, t = _scaled([1e6, 1.0, 1.0])(_family(est))
    try:
        _check_sound(est, X, y, t)
    except ValueError as exc:
        assert "X" in str(exc) and "Standardise X" in str(exc), str(exc)


# --------------------------------------------------------------------------- MIL
_mil_data = mil_problem


def _mil_bad(case):
    bags, y = _mil_data()
    if case == "single_2d_array":
        return np.vstack(bags), np.r_[y, y, y]
    if case == "complex_bag":
        return [b + 0.5j for b in bags], y
    if case == "mixed_width":
        return [bags[0][:, :2]] + bags[1:], y
    if case == "nan_in_bag":
        bags[2] = bags[2].copy()
        bags[2][0, 0] = np.nan
        return bags, y
    if case == "1e300_bag":
        return [b * 1e300 for b in bags], y
    if case == "3d_bag":
        return [b[:, :, None] for b in bags], y
    raise KeyError(case)


MIL_ERROR_CASES = ("single_2d_array", "complex_bag", "mixed_width", "nan_in_bag",
                   "1e300_bag", "3d_bag")


@pytest.mark.parametrize("case", MIL_ERROR_CASES)
@pytest.mark.parametrize("est", MIL_ESTIMATORS, ids=_id)
def test_mil_bad_bags_are_a_clear_error(est, case):
    bags, y = _mil_bad(case)
    with pytest.raises((ValueError, TypeError), match="bags") as info, _time_limit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clone(est).fit(bags, y)
    assert str(info.value)


#: multi-instance estimators with many restarts: their sound case runs under -m slow
SLOW_MIL = {"DiverseDensity", "EMDD"}


@pytest.mark.parametrize("est", [
    pytest.param(e, id=_id(e), marks=[pytest.mark.slow] if _id(e) in SLOW_MIL else [])
    for e in MIL_ESTIMATORS])
def test_mil_plain_bags_get_a_sound_answer(est):
    bags, y = _mil_data()
    with warnings.catch_warnings(record=True) as caught, _time_limit():
        warnings.simplefilter("always")
        m = clone(est).fit(bags, y)
    f = np.asarray(m.decision_function(bags), dtype=float)
    assert np.all(np.isfinite(f))
    warned = any(issubclass(w.category, OneClassPredictionWarning) for w in caught)
    assert np.unique(m.predict(bags)).size == 2 or warned


# --------------------------------------------------------------------------- the defects
def _ssl200(scale=(1.0, 1.0, 1.0)):
    X, y = _blobs(200, shift=3.0)
    t = np.full(200, -1)
    t[:20] = (y[:20] > 0).astype(int)
    return X * np.asarray(scale), (y > 0).astype(int), t


@pytest.mark.parametrize("name", ["TSVM", "CCCPTSVM", "LabelledSVM", "WellSVM"])
def test_linear_smo_fit_on_a_1e6_feature_is_a_clear_error_in_bounded_time(name):
    """The issue: TSVM gave no answer in 900 s, CCCPTSVM took 91 s and inverted its
    predictions, WellSVM (linear) reported converged_=True at accuracy 0.075."""
    import weaklabel.models as M

    X, _, t = _ssl200((1e6, 1.0, 1.0))
    t0, c0 = time.perf_counter(), _COMPILE.now()
    with pytest.raises(ValueError, match=r"X is too badly scaled .* Standardise X"), \
            _time_limit():
        getattr(M, name)(kernel="linear").fit(X, t)
    assert _fit_seconds(t0, c0) < 10.0


@pytest.mark.parametrize("name", ["TSVM", "CCCPTSVM", "LabelledSVM", "WellSVM"])
def test_linear_smo_fit_on_scaled_data_does_not_fire(name):
    """Must not fire: clean, well-scaled two-class data fits, converges, both classes."""
    import weaklabel.models as M

    X, yt, t = _ssl200()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at all on this data
        with _time_limit():
            m = getattr(M, name)(kernel="linear").fit(X, t)
    assert m.converged_ is True
    assert np.unique(m.predict(X)).size == 2


def test_ramppu_1e6_feature_is_a_clear_error_and_clean_data_converges():
    from weaklabel.models import RampPU

    X, y = _blobs(200, shift=3.0)
    s = np.zeros(200, dtype=int)
    s[np.flatnonzero(y > 0)[::2]] = 1
    with pytest.raises(ValueError, match=r"tol=1e-06"), _time_limit():
        RampPU(prior=0.5).fit(X * np.r_[1e6, 1, 1], s)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = RampPU(prior=0.5).fit(X, s)
    assert m.converged_ is True and np.mean(m.predict(X) == y) > 0.9


def test_ramppu_warning_names_its_own_parameters():
    from weaklabel.models import RampPU

    X, y = _blobs(200, shift=3.0)
    s = np.zeros(200, dtype=int)
    s[np.flatnonzero(y > 0)[::2]] = 1
    with pytest.warns(ConvergenceWarning, match="max_iter=1") as rec:
        m = RampPU(prior=0.5, max_iter=1).fit(X, s)
    assert not m.converged_
    for w in rec:
        assert not re.search(r"\beps\b", str(w.message))
        assert w.filename == __file__  # stacklevel: the user's line


def test_doublehinge_max_iter_0_warns_and_a_normal_fit_does_not():
    from weaklabel.models import DoubleHingePU

    X, y = _blobs(200, shift=3.0)
    s = np.zeros(200, dtype=int)
    s[np.flatnonzero(y > 0)[::2]] = 1
    with pytest.warns(ConvergenceWarning, match="max_iter=0") as rec:
        m = DoubleHingePU(prior=0.5, max_iter=0).fit(X, s)
    assert not m.converged_ and rec[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = DoubleHingePU(prior=0.5).fit(X, s)
    assert m.converged_ is True


def _su200(seed):
    X, y = _blobs(200, seed=seed, shift=3.0)
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
    order = np.r_[pos[:20], neg[:20], pos[20:], neg[20:]]
    s = np.zeros(200, dtype=int)
    s[:40] = 1
    return X[order], y[order], s


def test_cuu_default_step_is_auto_and_divergence_is_reported():
    """The issue: CUU with eta0=1.0 reached decision values of 1e9-1e97 with
    converged_=True; its docstring declared eta0='auto'."""
    from weaklabel.models import CUU

    assert CUU().eta0 == "auto"
    X, _, s = _su200(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OneClassPredictionWarning)
        warnings.simplefilter("error", ConvergenceWarning)  # must not fire
        m = CUU(prior=0.6, random_state=0).fit(X, s)
    assert m.converged_ is True and np.max(np.abs(m.decision_function(X))) < 1e3
    with pytest.warns(ConvergenceWarning, match="CUU diverged.*lower eta0") as rec:
        m = CUU(prior=0.6, eta0=1.0, random_state=0).fit(X, s)
    assert m.converged_ is False
    assert any(w.filename == __file__ for w in rec)


def test_one_class_warning_for_su_estimators_and_not_on_a_sound_fit():
    from weaklabel.models import SUSL

    X, _, s = _su200(1)
    with pytest.warns(OneClassPredictionWarning, match="SUSL predicts"):
        SUSL(prior=0.6, lam=100.0).fit(X, s)
    with warnings.catch_warnings():
        warnings.simplefilter("error", OneClassPredictionWarning)
        SUSL(prior=0.7).fit(X, s)


def test_gmmc_above_max_n_is_an_error_naming_max_n():
    from weaklabel.models import GMMC

    X, _ = _blobs(31)
    with pytest.raises(ValueError, match=r"n = 31 rows, more than max_n=30"):
        GMMC(max_n=30).fit(X)


def test_one_cluster_warning_and_not_on_two_blobs():
    from weaklabel.models import KernelKMeans

    X, _ = _blobs(40, shift=8.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", OneClassPredictionWarning)
        m = KernelKMeans(random_state=0).fit(X)
    assert np.unique(m.labels_).size == 2


def test_svmlight_labels_are_refused_naming_the_convention():
    X, y = _blobs(200, shift=3.0)
    t = np.zeros(200, dtype=int)
    t[:20] = y[:20]  # +1 / -1 labelled, 0 unlabelled
    with pytest.raises(ValueError, match=r"SVM-light.*-1 marks an unlabelled sample"):
        check_semisupervised_target(t)
    from weaklabel.models import WellSVM
    with pytest.raises(ValueError, match="SVM-light"):
        WellSVM().fit(X, t)
    # must not fire: the scikit-learn convention, unlabelled the majority
    ok = np.full(200, -1)
    ok[:20] = (y[:20] > 0).astype(int)
    check_semisupervised_target(ok)
    # nor on a fully labelled target with class 0 the majority and no -1
    check_semisupervised_target(np.r_[np.zeros(150, int), np.ones(50, int)])


def test_dense_memory_check_names_n_and_bytes_and_passes_small_n():
    with pytest.raises(MemoryError, match=r"n = 20000 training rows \(3200000000 bytes\)"):
        check_dense_memory(20_000, 1, owner="X", avoid="Use n_centers.", available=2**30)
    assert check_dense_memory(200, 1, owner="X", available=2**30) == 320_000


def test_magnitude_check_does_not_fire_on_large_but_safe_values():
    from weaklabel.models import LabelledSVM

    X, yt, t = _ssl200()
    m = LabelledSVM(kernel="gaussian").fit(X * 1e100, t)
    assert np.all(np.isfinite(m.decision_function(X * 1e100)))


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_time_limit_fires_on_a_long_case():
    with pytest.raises(TimeoutError, match="longer than 0.2 s"), _time_limit(0.2):
        _busy(1.0)


def test_time_limit_does_not_count_numba_compilation(monkeypatch):
    # the whole case is compilation (the clock says so): the limit must not fire
    base = time.perf_counter()
    monkeypatch.setattr(_COMPILE, "now", lambda: time.perf_counter() - base)
    with _time_limit(0.2):
        _busy(0.7)


def test_compile_clock_counts_a_real_compilation():
    import numba

    before = _COMPILE.now()

    @numba.njit(cache=False)
    def _fresh(x):
        return x + 1

    assert _fresh(1) == 2
    assert _COMPILE.now() > before
