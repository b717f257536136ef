import numpy as np
import pytest

from weaklabel import _validation as v
from weaklabel._io import write_csv, write_json


def test_check_matrix_errors():
    with pytest.raises(ValueError, match="X contains 1 NaN"):
        v.check_matrix([[1.0, np.nan]])
    with pytest.raises(ValueError, match="Xu contains 1 NaN or infinite"):
        v.check_matrix([[1.0, np.inf]], "Xu")
    with pytest.raises(ValueError, match="X must be 2-D"):
        v.check_matrix([1.0, 2.0])
    with pytest.raises(ValueError, match="Xp has 0 rows"):
        v.check_matrix(np.zeros((0, 3)), "Xp")
    with pytest.raises(ValueError, match="has 2 features but 3"):
        v.check_matrix(np.zeros((2, 2)), n_features=3)
    with pytest.raises(TypeError, match="numeric"):
        v.check_matrix([["a", "b"]])


def test_prior_positive_indicator():
    assert v.check_prior(0.3) == 0.3
    for bad in (0.0, 1.0, -0.2, 1.5, float("nan")):
        with pytest.raises(ValueError, match="pi must lie strictly between 0 and 1"):
            v.check_prior(bad)
    with pytest.raises(TypeError, match="pi"):
        v.check_prior("0.5")
    with pytest.raises(ValueError, match="lam must be finite and > 0"):
        v.check_positive(0.0, "lam")
    with pytest.raises(ValueError, match="no labelled positives"):
        v.check_pu_indicator([0, 0, 0])
    with pytest.raises(ValueError, match="no unlabelled"):
        v.check_pu_indicator([1, 1])
    with pytest.raises(ValueError, match="0/1 indicator"):
        v.check_pu_indicator([0, 2])
    np.testing.assert_array_equal(v.check_labels_pm1([0, 1, 1]), [-1, 1, 1])
    with pytest.raises(ValueError, match=r"\{-1, \+1\}, \{0, 1\} or bool"):
        v.check_labels_pm1([0, 1, 2])


def test_atomic_writes_leave_nothing_half(tmp_path):
    import pandas as pd

    class Boom:
        def to_csv(self, path, **kw):
            open(path, "w").write("partial")
            raise RuntimeError("boom")

    target = tmp_path / "out.csv"
    with pytest.raises(RuntimeError):
        write_csv(Boom(), target)
    assert not target.exists() and list(tmp_path.iterdir()) == []
    write_csv(pd.DataFrame({"a": [1]}), target)
    assert target.read_text() == "a\n1\n"
    write_json({"b": 1.0}, tmp_path / "m.json")
    assert (tmp_path / "m.json").read_text().startswith("{")


def test_atomic_write_has_normal_permissions(tmp_path):
    import os

    p = write_json({"a": 1}, tmp_path / "x.json")
    umask = os.umask(0)
    os.umask(umask)
    assert (p.stat().st_mode & 0o777) == (0o666 & ~umask)
