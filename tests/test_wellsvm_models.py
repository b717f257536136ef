"""The WellSVM estimator (Li et al. 2013) on the semi-supervised convention."""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_moons
from sklearn.exceptions import NotFittedError
from sklearn.utils import get_tags
from sklearn.utils.estimator_checks import check_estimators_data_not_an_array

from weaklabel.kernels import gram, make_kernel
from weaklabel.models import WellSVM
from weaklabel.models._base import UNLABELLED, scale_sigma
from weaklabel.solvers.wellsvm import gamma_width, wellsvm


def _data(n=160, n_lab=16, seed=0):
    X, y = make_moons(n, noise=0.15, random_state=seed)
    rng = np.random.default_rng(seed)
    lab = np.concatenate([rng.choice(np.flatnonzero(y == c), n_lab // 2, replace=False)
                          for c in (0, 1)])
    y_ssl = np.full(n, UNLABELLED)
    y_ssl[lab] = y[lab]
    return X, y_ssl, y


@pytest.mark.parametrize("variant", ["paper", "reference"])
def test_fit_predict_score(variant):
    X, y_ssl, y = _data()
    m = WellSVM(sigma="gamma", sigma_ratio=0.5, variant=variant, random_state=0).fit(X, y_ssl)
    pred = m.predict(X)
    assert set(np.unique(pred)) <= {0, 1}
    np.testing.assert_array_equal(pred, (m.decision_function(X) >= 0).astype(int))
    Xt, yt = make_moons(300, noise=0.15, random_state=9)
    assert m.score(Xt, yt) > 0.75
    assert m.intercept_ == 0.0 and isinstance(m.intercept_, float)
    assert m.dual_coef_.shape == (X.shape[0],)
    assert m.label_sets_.shape == (m.mu_.size, X.shape[0])
    assert isinstance(m.n_iter_, int) and isinstance(m.converged_, bool)
    assert len(m.objective_path_) >= 1
    lab = y_ssl != UNLABELLED
    np.testing.assert_array_equal(m.transduction_[lab], y_ssl[lab])
    np.testing.assert_array_equal(m.transduction_[~lab], pred[~lab])
    # decision function = the solver's formula
    k = make_kernel("gaussian", sigma=m.sigma_)
    np.testing.assert_allclose(m.decision_function(Xt[:9]), gram(Xt[:9], X, k) @ (
        m.alpha_ * (m.mu_ @ m.label_sets_)), atol=1e-10)


def test_matches_the_solver_and_the_sigma_rules():
    X, y_ssl, _ = _data(100, 10, seed=1)
    m = WellSVM(sigma="gamma", sigma_ratio=2.0).fit(X, y_ssl)
    assert m.sigma_ == pytest.approx(2.0 * gamma_width(X))
    ys = np.where(y_ssl == UNLABELLED, 0.0, 2.0 * y_ssl - 1.0)
    r = wellsvm(X, ys, 1.0, 0.1, make_kernel("gaussian", sigma=m.sigma_))
    np.testing.assert_allclose(m.dual_coef_, r.coef)
    assert WellSVM().fit(X, y_ssl).sigma_ == pytest.approx(scale_sigma(X))
    assert WellSVM(sigma=0.7).fit(X, y_ssl).sigma_ == 0.7
    assert WellSVM(kernel="linear").fit(X, y_ssl).sigma_ is None
    assert WellSVM(kernel="poly", degree=2).fit(X, y_ssl).sigma_ is None


def test_all_labelled_is_a_plain_fit():
    X, _, y = _data(60, 10, seed=2)
    m = WellSVM(C2=1.0).fit(X, y)
    assert m.score(X, y) > 0.8 and m.converged_


def test_errors():
    X, y_ssl, _ = _data(60, 10)
    with pytest.raises(NotFittedError):
        WellSVM().predict(X)
    for kw, name in [({"C1": 0}, "C1"), ({"C2": -1.0}, "C2"), ({"variant": "x"}, "variant"),
                     ({"sigma": "auto"}, "sigma"), ({"sigma": -1.0}, "sigma"),
                     ({"max_iter": 0}, "max_iter"), ({"tol": -1.0}, "tol"),
                     ({"kernel": "cosine"}, "kernel"),
                     ({"sigma": "gamma", "sigma_ratio": 0.0}, "sigma_ratio")]:
        with pytest.raises(ValueError, match=name):
            WellSVM(**kw).fit(X, y_ssl)
    with pytest.raises(ValueError, match="one class only"):
        WellSVM().fit(X, np.where(y_ssl == 1, UNLABELLED, y_ssl))
    with pytest.raises(ValueError, match="recode a -1/\\+1 labelling"):
        WellSVM().fit(X, np.where(y_ssl == 0, UNLABELLED, y_ssl) * 1 + 0 * (y_ssl == 0))
    m = WellSVM().fit(X, y_ssl)
    with pytest.raises(ValueError, match="X has 1 features, but WellSVM is expecting"):
        m.predict(X[:, :1])


def test_tags_and_signature():
    tags = get_tags(WellSVM())
    assert tags.target_tags.unlabelled_marker == UNLABELLED
    assert not tags.target_tags.pu_indicator and not tags.classifier_tags.multi_class
    np.testing.assert_array_equal(WellSVM.classes_, [0, 1])


def test_verbose_prints_progress(capsys):
    X, y_ssl, _ = _data(80, 10)
    WellSVM(verbose=True).fit(X, y_ssl)
    assert "wellsvm" in capsys.readouterr().out


def test_reference_variant_is_seeded():
    X, y_ssl, _ = _data(80, 10, seed=3)
    a = WellSVM(variant="reference", random_state=1).fit(X, y_ssl)
    b = clone(a).fit(X, y_ssl)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)


# The generic checks that pass targets other than {0, 1}, rerun with a valid target.
def test_dtypes_and_one_feature_and_not_an_array():
    X, y_ssl, _ = _data(60, 10)
    X32 = (X - X.min()).astype(np.float32)
    for Xd in (X32, X32.astype(np.int64), X32.astype(np.int32)):
        m = WellSVM().fit(Xd, y_ssl)
        m.predict(Xd)
    assert WellSVM().fit(X[:, :1], y_ssl).predict(X[:, :1]).shape == (60,)
    for obj_type in ("NotAnArray", "PandasDataframe"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_estimators_data_not_an_array("WellSVM", WellSVM(), X, y_ssl, obj_type)


def test_bad_input_is_named():
    """No labelled point, one class labelled, NaN / inf, C <= 0: clear errors."""
    from weaklabel.models import CCCPTSVM, TSVM, LabelledSVM, LapSVM

    X, y_ssl, _ = _data(60, 10)
    for Est in (WellSVM, TSVM, CCCPTSVM, LapSVM, LabelledSVM):
        with pytest.raises(ValueError, match="labelled|class"):
            Est().fit(X, np.full(len(y_ssl), UNLABELLED))
        with pytest.raises(ValueError, match="one class only"):
            Est().fit(X, np.where(y_ssl == 1, UNLABELLED, y_ssl))
        for bad in (np.nan, np.inf):
            Xb = X.copy()
            Xb[3, 0] = bad
            with pytest.raises(ValueError, match="X"):
                Est().fit(Xb, y_ssl)
        with pytest.raises(ValueError, match="C1"):
            Est(C1=0.0).fit(X, y_ssl)
    # no unlabelled point: a supervised fit (the balance constraint is then void)
    m = WellSVM().fit(X, np.where(y_ssl == UNLABELLED, 0, y_ssl))
    assert m.converged_
