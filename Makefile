# Everything runs in .venv, made here from pyproject.toml: on a fresh machine
# `make test` and `make bench` are the whole set-up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-all lint type check clean venv bench check-regression bench-scale

venv: $(STAMP)

# Re-install whenever pyproject.toml is newer than the last install.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev,distributed]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-all: $(STAMP)
	$(BIN)/python -m pytest -q -m ''

lint: $(STAMP)
	$(BIN)/ruff check algorithms harness tests
	$(BIN)/ruff format --check algorithms harness tests

type: $(STAMP)
	$(BIN)/mypy

check: test lint type

# 'hanoi moves blocks 28 --binary' against the C reference bench/c/hanoi_ref.c (needs a C compiler).
.PHONY: bench-c
bench-c: $(STAMP)
	$(BIN)/python -m harness.cref 28

# The full benchmark: regenerates results/ (and results/quick/, the CI baseline); about 5 minutes.
bench: $(STAMP)
	$(BIN)/hanoi bench --out results

# A quick benchmark compared with the committed quick baseline (times relative to 'recursive').
check-regression: $(STAMP)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(BIN)/hanoi bench --quick --out "$$tmp/quick" && \
	$(BIN)/hanoi compare results/quick "$$tmp/quick"

# Chunked verification's speed-up: bitwise at n = 26 alone, with --workers 1 and 2 (a few minutes).
bench-scale: $(STAMP)
	$(BIN)/python -m harness.bench_scale --name bitwise --n 26 --workers 2 --repeat 2

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .benchmarks build dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
