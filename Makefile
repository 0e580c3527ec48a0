# Everything runs in .venv, made here from pyproject.toml: on a fresh machine
# `make test` and `make bench` are the whole set-up.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# mypy names modules by their folders; this tree of links shows it harness/ and algorithms/ under the
# names they install as (hanoi_harness, hanoi_harness.algorithms).
TYPECHECK := build/typecheck
# The wheel is tested as a user installs it: built, installed into a fresh venv, run from outside the checkout.
WHEEL_DIR := build/dist
WHEEL_VENV := build/wheel-venv

.PHONY: venv test test-all lint type check clean bench check-regression bench-scale bench-c wheel test-wheel

venv: $(STAMP)

# Re-install whenever pyproject.toml or setup.py is newer than the last install.
$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev,distributed]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-all: $(STAMP)
	$(BIN)/python -m pytest -q -m ''

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy --strict on the package, tests/ and conftest.py (the settings are in pyproject.toml).
type: $(STAMP)
	rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)/hanoi_harness
	ln -s $(CURDIR)/harness/* $(TYPECHECK)/hanoi_harness/ && ln -s $(CURDIR)/algorithms $(TYPECHECK)/hanoi_harness/
	set -o pipefail; $(BIN)/mypy | \
	  sed -e 's#^$(TYPECHECK)/hanoi_harness/algorithms/#algorithms/#' -e 's#^$(TYPECHECK)/hanoi_harness/#harness/#'

check: test lint type

# setuptools builds in build/lib and build/bdist.*, and packs whatever is there: a module since removed
# (scale.py, now the package scale/) would ship beside its replacement, so they are emptied first.
wheel: $(STAMP)
	rm -rf $(WHEEL_DIR) build/lib build/bdist.* && $(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir $(WHEEL_DIR) .

# The wheel in a fresh venv: every command from a directory outside the checkout (.ci/smoke), then the
# test suite and the package's doctests against the installed files.
test-wheel: wheel
	rm -rf $(WHEEL_VENV) && $(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install --quiet "$$(ls $(WHEEL_DIR)/*.whl)[test,distributed]"
	.ci/smoke $(WHEEL_VENV)/bin
	$(WHEEL_VENV)/bin/python -m pytest -q -p no:cacheprovider
	cd "$$(mktemp -d)" && $(CURDIR)/$(WHEEL_VENV)/bin/python -m pytest -q -p no:cacheprovider \
	  --doctest-modules -o doctest_optionflags=NORMALIZE_WHITESPACE --pyargs hanoi_harness

# 'hanoi moves blocks 28 --binary' against the C reference harness/bench/c/hanoi_ref.c (needs a C compiler).
bench-c: $(STAMP)
	$(BIN)/python -m hanoi_harness.bench.cref 28

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
	$(BIN)/python -m hanoi_harness.bench.scaling --name bitwise --n 26 --workers 2 --repeat 2

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis .benchmarks dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
