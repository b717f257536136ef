# Two entry points (see README): `make reproduce` and `make test`.
# Both create .venv from scratch when it is missing, install the package, and are idempotent.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# The pipeline runs offline and quietly.
export DVC_NO_ANALYTICS := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache
# Datasets: look in ../shared/datasets (a local mirror) before any download.
ifneq ($(wildcard ../shared/datasets/manifest.json),)
export WEAKLABEL_DATA_MIRROR ?= $(abspath ../shared/datasets)
endif

.PHONY: reproduce test lint install clean-venv

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

reproduce: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/dvc repro

test: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -m "not slow" -q

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

clean-venv:
	rm -rf $(VENV)
