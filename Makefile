# Two entry points (see README): `make reproduce` and `make test`.
# Both create .venv from scratch when it is missing, install the package from the lock
# (requirements.lock: every dependency pinned, with hashes), and are idempotent.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LOCK   := requirements.lock
UV_VERSION := 0.13.9

# The pipeline runs offline and quietly.
export DVC_NO_ANALYTICS := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache
# Bit-identical re-runs: one BLAS/OpenMP/numba thread per process (the grids run 2 worker
# processes); weaklabel.pipeline.run_notebook sets the same for the kernel when unset.
export OMP_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
export NUMBA_NUM_THREADS ?= 1
# Datasets: look in ../shared/datasets (a local mirror) before any download.
ifneq ($(wildcard ../shared/datasets/manifest.json),)
export WEAKLABEL_DATA_MIRROR ?= $(abspath ../shared/datasets)
endif

.PHONY: reproduce test test-all lint install lock verify-repro clean-venv bench bench-table

install: $(STAMP)

# Installs exactly the lock (hash-checked, no resolver), then the package itself without deps,
# then compiles the package's numba code into $(NUMBA_CACHE_DIR) once (tools/warm_numba.py), so
# first fits, the tests and the stages load it instead of compiling it.
$(STAMP): $(LOCK) pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check
	$(BIN)/python tools/warm_numba.py
	@touch $(STAMP)

# Re-resolve pyproject.toml into requirements.lock (+ environment.yml), keeping the locked
# versions that pyproject.toml still allows. UPGRADE=1: newest allowed releases;
# UPGRADE_PACKAGES="numpy scipy": only those.
lock:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/python tools/lock.py $(if $(UPGRADE),--upgrade) \
		$(foreach p,$(UPGRADE_PACKAGES),--upgrade-package $(p))

# REPRO_FLAGS=-f re-runs every stage (e.g. after `make lock` moved a release).
reproduce: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/dvc repro $(REPRO_FLAGS)

# At most 5 minutes on a 2-core machine (pytest's count), one pytest-xdist worker per core
# (TEST_JOBS=0: all in one process); the 15 slowest tests are listed so that a test that grows past
# 20 s shows. `make test-all` adds the `slow` tests.
TEST_JOBS ?= auto
PYTEST := $(BIN)/python -m pytest -q -n $(TEST_JOBS) --durations=15
test: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(PYTEST) -m "not slow"

test-all: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(PYTEST)

# Run the whole pipeline twice (`dvc repro -f`, two temporary copies of the working tree)
# and compare results/ cell by cell, timing and memory columns masked. PROFILE=smoke for a
# short run (default: the profile in params.yaml). KEEP=1 keeps the copies.
verify-repro: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m weaklabel.reproducibility verify \
		$(if $(PROFILE),--profile $(PROFILE)) $(if $(KEEP),--keep)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools

# `make bench` runs every benchmark script (benchmarks/<name>/*.py) with its own default
# arguments, one after another, one thread each (the exports above; the same data mirror),
# then writes benchmarks/README.md, the table of ours against the best peer: hours on a 2-core
# machine. `make bench-table` only rebuilds benchmarks/README.md from the committed results.
BENCH_SCRIPTS := $(sort $(wildcard benchmarks/*/*.py))
# the SMO core against LIBSVM with the same cache in MB and float32 rows (results_cache.*)
SMO_EQUAL_CACHE := --sizes 1000,3000,10000,30000 --qp-max 1000 --cache-mb 200 \
	--cache-dtype float32 --no-shrinking-runs --no-label-kernel --out results_cache
bench: $(STAMP)
	@set -e; for script in $(BENCH_SCRIPTS); do \
		echo "== $$script"; PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python $$script; \
	done
	$(BIN)/python benchmarks/smo/bench_smo.py $(SMO_EQUAL_CACHE)
	$(BIN)/python benchmarks/table.py

bench-table: $(STAMP)
	$(BIN)/python benchmarks/table.py

clean-venv:
	rm -rf $(VENV)
