"""Tests of the seeded split generators in weaklabel.data.splits (no data files needed)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weaklabel.data import mil_bags, pu_split, ssl_split, su_split
from weaklabel.data.splits import check_random_state


def _labels(n_pos: int, n_neg: int, seed: int = 0) -> np.ndarray:
    y = np.r_[np.ones(n_pos), -np.ones(n_neg)]
    return np.random.default_rng(seed).permutation(y)


def _disjoint(*parts: np.ndarray) -> bool:
    allrows = np.concatenate([np.ravel(p) for p in parts])
    return len(np.unique(allrows)) == len(allrows)


# --------------------------------------------------------------------------- PU

# USMO Table II and Section 6 (the authors' demo.m): N, positives, pi used, p = floor(0.2 pi N)
USMO_TABLE = [
    ("australian", 690, 383, 0.56, 77), ("clean1", 476, 207, 0.44, 41),
    ("diabetes", 768, 268, 0.35, 53), ("heart", 270, 120, 0.44, 23),
    ("heart-statlog", 270, 120, 0.44, 23), ("house", 232, 108, 0.47, 21),
    ("house-votes", 435, 267, 0.61, 53), ("ionosphere", 351, 225, 0.64, 44),
    ("isolet", 600, 300, 0.50, 60), ("krvskp", 3196, 1527, 0.48, 306),
    ("liverDisorders", 345, 200, 0.58, 40), ("spectf", 349, 254, 0.73, 50),
]


@pytest.mark.parametrize(("name", "n", "n_pos", "pi", "p"), USMO_TABLE)
def test_pu_usmo_rule_reproduces_table(name, n, n_pos, pi, p):
    y = _labels(n_pos, n - n_pos)
    s = pu_split(y, pi=pi, rule="usmo", random_state=1)
    assert len(s.labelled) == p
    assert len(s.unlabelled) == n - p
    assert int((y[s.unlabelled] > 0).sum()) == n_pos - p
    assert np.all(y[s.labelled] == 1)
    assert _disjoint(s.labelled, s.unlabelled)
    np.testing.assert_array_equal(np.sort(np.r_[s.labelled, s.unlabelled]), np.arange(n))
    assert np.all(np.diff(s.unlabelled) > 0)  # original row order
    assert len(s.test) == 0


def test_pu_fraction_rule_and_indicator():
    y = _labels(101, 200)
    s = pu_split(y, labelled_fraction=0.3, rule="fraction", random_state=0)
    assert len(s.labelled) == 30  # round(0.3 * 101) = round(30.3)
    assert np.all(y[s.labelled] == 1)
    np.testing.assert_array_equal(s.train, np.r_[s.labelled, s.unlabelled])
    assert s.s.sum() == 30 and len(s.s) == 301
    y01 = np.where(y > 0, 1, 0)
    s01 = pu_split(y01, labelled_fraction=0.3, rule="fraction", random_state=0)
    np.testing.assert_array_equal(s01.labelled, s.labelled)  # 1/0 labels accepted too


def test_pu_test_size():
    y = _labels(300, 700)
    s = pu_split(y, pi=0.3, test_size=0.25, random_state=3)
    assert len(s.test) == 250
    assert len(s.labelled) == math.floor(0.2 * 0.3 * 750)
    assert _disjoint(s.labelled, s.unlabelled, s.test)
    assert len(s.labelled) + len(s.unlabelled) + len(s.test) == 1000
    assert len(pu_split(y, pi=0.3, test_size=100, random_state=3).test) == 100


def test_pu_determinism():
    y = _labels(200, 300)
    a = pu_split(y, pi=0.4, random_state=7)
    b = pu_split(y, pi=0.4, random_state=7)
    c = pu_split(y, pi=0.4, random_state=8)
    np.testing.assert_array_equal(a.labelled, b.labelled)
    np.testing.assert_array_equal(a.unlabelled, b.unlabelled)
    assert not np.array_equal(a.labelled, c.labelled)
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    np.testing.assert_array_equal(pu_split(y, pi=0.4, random_state=g1).labelled,
                                  pu_split(y, pi=0.4, random_state=g2).labelled)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"rule": "usmo"}, ValueError, "pi"),
        ({"pi": 1.5}, ValueError, "pi"),
        ({"pi": 0.0}, ValueError, "pi"),
        ({"pi": "0.5"}, TypeError, "pi"),
        ({"pi": 0.5, "rule": "random"}, ValueError, "rule"),
        ({"rule": "fraction"}, ValueError, "labelled_fraction"),
        ({"rule": "fraction", "labelled_fraction": 1.5}, ValueError, "labelled_fraction"),
        ({"rule": "fraction", "labelled_fraction": 0.2, "pi": 0.5}, ValueError, "pi"),
        ({"pi": 0.01}, ValueError, "no positive"),
        ({"pi": 0.5, "test_size": 1.2}, ValueError, "test_size"),
        ({"pi": 0.5, "random_state": "seed"}, TypeError, "random_state"),
    ],
)
def test_pu_bad_input(kwargs, exc, match):
    y = _labels(20, 30)
    with pytest.raises(exc, match=match):
        pu_split(y, **kwargs)


def test_pu_bad_labels():
    with pytest.raises(ValueError, match="y must hold"):
        pu_split(np.array([0, 1, 2, 1]), pi=0.5)
    with pytest.raises(ValueError, match="1-D"):
        pu_split(np.ones((3, 3)), pi=0.5)
    with pytest.raises(ValueError, match="only"):
        pu_split(_labels(5, 100), labelled_fraction=1.0, pi=0.9)


@settings(max_examples=40, deadline=None)
@given(n_pos=st.integers(1, 60), n_neg=st.integers(0, 60), frac=st.floats(0.05, 1.0),
       seed=st.integers(0, 2**31))
def test_pu_fraction_property(n_pos, n_neg, frac, seed):
    y = _labels(n_pos, n_neg, seed)
    k = math.floor(frac * n_pos + 0.5)
    if k < 1:
        with pytest.raises(ValueError):
            pu_split(y, labelled_fraction=frac, rule="fraction", random_state=seed)
        return
    s = pu_split(y, labelled_fraction=frac, rule="fraction", random_state=seed)
    assert len(s.labelled) == k and np.all(y[s.labelled] == 1)
    np.testing.assert_array_equal(np.sort(np.r_[s.labelled, s.unlabelled]),
                                  np.arange(n_pos + n_neg))


# --------------------------------------------------------------------------- SSL


def test_ssl_counts_stratified_disjoint():
    y = np.repeat([0, 1, 2], [500, 300, 200])
    s = ssl_split(y, n_labelled=100, test_size=0.2, random_state=0)
    assert len(s.test) == 200 and len(s.labelled) == 100 and len(s.unlabelled) == 700
    assert _disjoint(s.labelled, s.unlabelled, s.test)
    np.testing.assert_array_equal(np.bincount(y[s.test]), [100, 60, 40])
    np.testing.assert_array_equal(np.bincount(y[s.labelled]), [50, 30, 20])
    s2 = ssl_split(y, labelled_fraction=0.1, random_state=0)
    assert len(s2.labelled) == 100 and len(s2.test) == 0


def test_ssl_at_least_one_labelled_per_class():
    y = np.r_[np.zeros(980), np.ones(15), np.full(5, 2)].astype(int)
    s = ssl_split(y, n_labelled=3, random_state=0)
    np.testing.assert_array_equal(np.bincount(y[s.labelled], minlength=3), [1, 1, 1])
    s = ssl_split(y, n_labelled=10, test_size=100, random_state=1)
    assert np.all(np.bincount(y[s.labelled], minlength=3) >= 1)


def test_ssl_determinism():
    y = np.repeat(["a", "b"], [60, 40])
    a = ssl_split(y, n_labelled=10, test_size=20, random_state=11)
    b = ssl_split(y, n_labelled=10, test_size=20, random_state=11)
    c = ssl_split(y, n_labelled=10, test_size=20, random_state=12)
    for f in ("labelled", "unlabelled", "test"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    assert not np.array_equal(a.labelled, c.labelled)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({}, "exactly one"),
        ({"n_labelled": 5, "labelled_fraction": 0.1}, "exactly one"),
        ({"n_labelled": 1}, "number of classes"),
        ({"n_labelled": 100}, "no unlabelled"),
        ({"labelled_fraction": 1.0}, "labelled_fraction"),
        ({"n_labelled": 5, "test_size": 1.5}, "test_size"),
    ],
)
def test_ssl_bad_input(kwargs, match):
    y = np.repeat([0, 1], [50, 50])
    with pytest.raises(ValueError, match=match):
        ssl_split(y, **kwargs)
    with pytest.raises(ValueError, match="single class"):
        ssl_split(np.zeros(10), n_labelled=2)


# --------------------------------------------------------------------------- SU


def test_su_pairs_unlabelled_test():
    y = _labels(3000, 2000)
    s = su_split(y, n_pairs=500, n_unlabelled=1200, random_state=0)
    assert s.pairs.shape == (500, 2)
    assert np.all(y[s.pairs[:, 0]] == y[s.pairs[:, 1]])  # similar = same class
    assert len(s.unlabelled) == 1200 and len(s.test) == 400  # n_test = n_U // 3
    assert _disjoint(s.pairs, s.unlabelled, s.test)
    assert s.similar.shape == (1000,)
    assert s.pi == pytest.approx(0.6)


def test_su_class_proportions():
    """Positive-pair share ~ pi^2/(pi^2+(1-pi)^2); unlabelled positive share ~ pi."""
    y = _labels(6000, 4000)
    pi = 0.6
    theta = pi**2 / (pi**2 + (1 - pi) ** 2)
    pair_pos, unl_pos = [], []
    for seed in range(20):
        s = su_split(y, n_pairs=400, n_unlabelled=1000, n_test=0, random_state=seed)
        pair_pos.append(np.mean(y[s.pairs[:, 0]] > 0))
        unl_pos.append(np.mean(y[s.unlabelled] > 0))
    # sd of the mean of 20 binomial proportions: ~0.005 (pairs), ~0.0035 (unlabelled)
    assert np.mean(pair_pos) == pytest.approx(theta, abs=0.02)
    assert np.mean(unl_pos) == pytest.approx(pi, abs=0.015)
    s = su_split(y, n_pairs=400, n_unlabelled=1000, pi=0.3, random_state=0)
    assert s.pi == 0.3


def test_su_determinism():
    y = _labels(500, 500)
    a = su_split(y, n_pairs=50, n_unlabelled=200, random_state=4)
    b = su_split(y, n_pairs=50, n_unlabelled=200, random_state=4)
    c = su_split(y, n_pairs=50, n_unlabelled=200, random_state=5)
    np.testing.assert_array_equal(a.pairs, b.pairs)
    np.testing.assert_array_equal(a.unlabelled, b.unlabelled)
    np.testing.assert_array_equal(a.test, b.test)
    assert not np.array_equal(a.pairs, c.pairs)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"n_pairs": 0, "n_unlabelled": 10}, ValueError, "n_pairs"),
        ({"n_pairs": 5, "n_unlabelled": 0}, ValueError, "n_unlabelled"),
        ({"n_pairs": 5.0, "n_unlabelled": 10}, TypeError, "n_pairs"),
        ({"n_pairs": 5, "n_unlabelled": 10, "pi": 1.0}, ValueError, "pi"),
        ({"n_pairs": 50, "n_unlabelled": 10}, ValueError, "exceeds"),
        ({"n_pairs": 5, "n_unlabelled": 10, "n_test": -1}, ValueError, "n_test"),
    ],
)
def test_su_bad_input(kwargs, exc, match):
    y = _labels(40, 40)
    with pytest.raises(exc, match=match):
        su_split(y, **kwargs)


def test_su_not_enough_of_one_class():
    y = _labels(4, 200)
    with pytest.raises(ValueError, match="not enough"):
        su_split(y, n_pairs=60, n_unlabelled=10, pi=0.9, random_state=0)


# --------------------------------------------------------------------------- MIL


def test_mil_random_bags_follow_the_rule():
    y = _labels(100, 900)
    b = mil_bags(y, bag_size=8, n_bags=100, random_state=0)
    assert b.bags.shape == (100, 8) and _disjoint(b.bags)
    np.testing.assert_array_equal(b.instance_labels, y[b.bags])
    np.testing.assert_array_equal(b.bag_labels, np.where((y[b.bags] > 0).any(axis=1), 1, -1))
    assert b.membership.shape == b.instances.shape == (800,)
    np.testing.assert_array_equal(b.instances[b.membership == 3], b.bags[3])


def test_mil_witness_rate():
    y = _labels(300, 700)
    b = mil_bags(y, bag_size=10, n_bags=60, witness_rate=0.2, positive_bag_fraction=0.25,
                 random_state=1)
    n_pos_in_bag = (y[b.bags] > 0).sum(axis=1)
    np.testing.assert_array_equal(b.bag_labels, np.r_[np.ones(15), -np.ones(45)])
    np.testing.assert_array_equal(n_pos_in_bag, np.r_[np.full(15, 2), np.zeros(45)])
    assert _disjoint(b.bags)
    tiny = mil_bags(y, bag_size=10, n_bags=4, witness_rate=0.01, random_state=1)
    assert (y[tiny.bags[:2]] > 0).sum(axis=1).tolist() == [1, 1]  # at least one witness


def test_mil_determinism():
    y = _labels(100, 400)
    a = mil_bags(y, bag_size=5, n_bags=50, witness_rate=0.4, random_state=2)
    b = mil_bags(y, bag_size=5, n_bags=50, witness_rate=0.4, random_state=2)
    c = mil_bags(y, bag_size=5, n_bags=50, witness_rate=0.4, random_state=3)
    np.testing.assert_array_equal(a.bags, b.bags)
    assert not np.array_equal(a.bags, c.bags)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"bag_size": 0, "n_bags": 5}, "bag_size"),
        ({"bag_size": 5, "n_bags": 0}, "n_bags"),
        ({"bag_size": 50, "n_bags": 50}, "exceeds"),
        ({"bag_size": 5, "n_bags": 5, "witness_rate": 0.0}, "witness_rate"),
        ({"bag_size": 5, "n_bags": 5, "witness_rate": 0.5, "positive_bag_fraction": 2.0},
         "positive_bag_fraction"),
        ({"bag_size": 10, "n_bags": 20, "witness_rate": 1.0}, "positive"),
    ],
)
def test_mil_bad_input(kwargs, match):
    y = _labels(50, 150)
    with pytest.raises(ValueError, match=match):
        mil_bags(y, **kwargs)


def test_check_random_state():
    g = np.random.default_rng(0)
    assert check_random_state(g) is g
    assert isinstance(check_random_state(None), np.random.Generator)
    with pytest.raises(ValueError, match="random_state"):
        check_random_state(-1)
    with pytest.raises(TypeError, match="random_state"):
        check_random_state(np.random.RandomState(0))
