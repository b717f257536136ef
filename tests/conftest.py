"""Shared test fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "datasets"


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture(scope="session", autouse=True)
def _data_mirror():
    """Point the data layer at ../shared/datasets when it exists (as the Makefile does)."""
    if SHARED_DATA.is_dir() and "WEAKLABEL_DATA_MIRROR" not in os.environ:
        os.environ["WEAKLABEL_DATA_MIRROR"] = str(SHARED_DATA)
    yield
