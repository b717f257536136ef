"""Numbers formatted for reading (``weaklabel.textfmt``): ``1e-4`` and not ``0.000100``."""

import math

import numpy as np
import pandas as pd
import pytest

from weaklabel import textfmt as tf


@pytest.mark.parametrize("x, text", [
    (1e-4, "1e-4"), (0.0001, "1e-4"), (2.5e-6, "2.5e-6"), (0.002, "0.002"), (0.01, "0.01"),
    (0.1, "0.1"), (1.0, "1"), (3, "3"), (np.int64(12), "12"), (np.float64(0.5), "0.5"),
    (12.345, "12.3"), (1234.5, "1230"), (2.5e6, "2.5e6"), (100000.0, "1e5"), (-1e-4, "-1e-4"),
    (0.0, "0"), (None, "–"), (math.nan, "–"), (math.inf, "∞"), (-math.inf, "−∞"),
    (0.00099999, "0.001"), (0.00012345, "1.23e-4"),
])
def test_num(x, text):
    assert tf.num(x) == text


def test_num_significant_digits():
    assert tf.num(2 / 3, sig=2) == "0.67"
    assert tf.num(2 / 3, sig=5) == "0.66667"
    assert tf.num(1.23456e-5, sig=2) == "1.2e-5"
    # the rule does fire: the plain formats print what the reports must not show
    assert f"{1e-4:f}" == "0.000100" and tf.num(1e-4) != f"{1e-4:f}"


@pytest.mark.parametrize("bad", ["0.1", True, [1.0], object()])
def test_num_rejects_non_numbers_naming_the_argument(bad):
    with pytest.raises(TypeError, match="x must be a real number"):
        tf.num(bad)


@pytest.mark.parametrize("sig", [0, -1, 2.5, True])
def test_num_rejects_bad_sig(sig):
    with pytest.raises(ValueError, match="sig must be a positive integer"):
        tf.num(1.0, sig=sig)


def test_seq_and_value():
    assert tf.seq([1e-4, 1e-3, 1e-2, 1e-1]) == "1e-4, 1e-3, 1e-2, 1e-1"  # one notation
    assert tf.seq([0.001, 0.01, 0.1]) == "0.001, 0.01, 0.1"  # none needs scientific
    assert tf.seq([250, 500, 2.5e-5]) == "250, 500, 2.5e-5"  # integers stay integers
    assert tf.seq((1, "scale")) == "1, scale"
    assert tf.value(None) == "none" and tf.value(None, none="all") == "all"
    assert tf.value(True) == "yes" and tf.value(False) == "no"
    assert tf.value([]) == "(empty)"
    assert tf.value({"a": 0.0001, "b": [1, 2]}) == "a: 1e-4; b: 1, 2"
    assert tf.value("complete") == "complete"
    with pytest.raises(TypeError, match="values must be a list or tuple"):
        tf.seq("1, 2")


def test_param_table():
    t = tf.param_table({"lam": 1e-4, "seeds": 10, "datasets": None, "grid": [100, 2000]},
                       ["lam", "datasets", "grid"], none="all", labels={"lam": "λ"})
    assert isinstance(t, pd.DataFrame) and t.index.name == "parameter"
    assert list(t.index) == ["λ", "datasets", "grid"]
    assert list(t["value"]) == ["1e-4", "all", "100, 2000"]
    assert list(tf.param_table({"a": 1}).index) == ["a"]
    with pytest.raises(KeyError, match=r"keys \['nope'\] are not in params"):
        tf.param_table({"a": 1}, ["nope"])
    with pytest.raises(TypeError, match="params must be a mapping"):
        tf.param_table([("a", 1)])


def test_format_index_in_a_styler():
    df = pd.DataFrame([[61.25, 70.0]], columns=pd.Index([0.0001, 0.1], name="lam"))
    html = df.style.format("{:.1f}").format_index(tf.format_index, axis=1).to_html()
    assert "1e-4" in html and "0.000100" not in html
    assert tf.format_index("Table III") == "Table III"
