# Everything runs in .venv, made here from pyproject.toml: on a fresh machine
# `make test` and `make bench` are the whole set-up.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The wheel is tested as a user installs it: built, installed into a fresh venv, run from outside the checkout.
WHEEL_DIR := build/dist
WHEEL_VENV := build/wheel-venv

.PHONY: venv valgrind chromium test test-all lint type check docs clean bench check-regression bench-scale bench-c wheel test-wheel

venv: $(STAMP)

# Re-install whenever pyproject.toml or the experiments' requirements (the peers) are newer than the last install.
$(STAMP): pyproject.toml benchmarks/requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r benchmarks/requirements.txt
	$(BIN)/python -m pip install --quiet -e '.[test,dev,distributed,docs]'
	@# setuptools finds the two source roots through an import hook, which costs every Python process
	@# (each test's children) about 17 ms. A .pth that names the folders imports the same, more cheaply,
	@# and editors and static analysers read it too.
	@pth=$$(ls $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/__editable__.hanoi_harness-*.pth) && \
	  printf '%s\n' "$(CURDIR)/harness" "$(CURDIR)/algorithms" > "$$pth"
	touch $(STAMP)

# Instruction counts (hanoi bench, make check-regression and a test) run under valgrind. When it is missing,
# it is installed if it can be: Debian's package, as root or through sudo without a password. Otherwise this
# says why and what to run; the counts are then reported unavailable, with the reason, never left out.
VALGRIND_MISSING := make: valgrind is missing and
VALGRIND_UNTIL := until it is installed, instruction counts are reported unavailable
valgrind:
	@if command -v valgrind >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "$(VALGRIND_MISSING) there is no apt-get here: install it with the system's package manager; $(VALGRIND_UNTIL)" >&2; \
	else \
	  if [ "$$(id -u)" = 0 ]; then as=; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as="sudo"; \
	  else echo "$(VALGRIND_MISSING) this user cannot install it (not root, no password-less sudo): run 'sudo apt-get install valgrind'; $(VALGRIND_UNTIL)" >&2; exit 0; fi; \
	  echo "make: installing valgrind (apt-get install valgrind)" >&2; \
	  $$as apt-get update -qq && $$as env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null \
	    || echo "$(VALGRIND_MISSING) 'apt-get install valgrind' failed (see above); $(VALGRIND_UNTIL)" >&2; \
	fi

# The HTML report (results/index.html) is tested in a real browser: Debian's headless Chromium, driven through its
# chromedriver (tests/bench/test_page.py). Installed as valgrind is: as root or through sudo without a password;
# otherwise this says why and what to run, and the test says so too (in CI, where it can be had, it fails).
CHROMIUM_MISSING := make: chromium or chromedriver is missing and
CHROMIUM_UNTIL := until both are installed, the test of the HTML report in a browser cannot run
chromium:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "$(CHROMIUM_MISSING) there is no apt-get here: install them with the system's package manager; $(CHROMIUM_UNTIL)" >&2; \
	else \
	  if [ "$$(id -u)" = 0 ]; then as=; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as="sudo"; \
	  else echo "$(CHROMIUM_MISSING) this user cannot install them (not root, no password-less sudo): run 'sudo apt-get install chromium chromium-driver'; $(CHROMIUM_UNTIL)" >&2; exit 0; fi; \
	  echo "make: installing chromium (apt-get install chromium chromium-driver)" >&2; \
	  $$as apt-get update -qq && $$as env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null \
	    || echo "$(CHROMIUM_MISSING) 'apt-get install chromium chromium-driver' failed (see above); $(CHROMIUM_UNTIL)" >&2; \
	fi

# Line and branch coverage of the package in the test processes (the settings are in pyproject.toml): after the
# tests, a summary of the modules not wholly covered, with their missing lines. The tests run on every core
# (pytest-xdist: 206 s instead of 452 s on 2 loaded cores), but for the few marked 'serial', which send a signal
# to the test process itself and run after, in one process; the total is judged after those (fail_under).
XDIST := -n auto --dist worksteal
# The tests and benchmarks start hundreds of Python children: the package is compiled once here, so that none
# of them compiles it again (PYTHONDONTWRITEBYTECODE, set on some machines, would make each one do it, and
# inflate every start-up measured).
COMPILE := $(BIN)/python -m compileall -q -j 0 harness algorithms
# The files that hold 'serial' tests: the second run collects these alone, not the whole suite again.
SERIAL := $(shell grep -rl --include='*.py' 'mark\.serial' tests | sort)

test: $(STAMP) valgrind chromium
	rm -rf build/coverage && mkdir -p build/coverage
	$(COMPILE) >/dev/null
	$(BIN)/python -m pytest -q $(XDIST) -m 'not slow and not serial' --cov --cov-report= --cov-fail-under=0
	$(BIN)/python -m pytest -q -m 'serial and not slow' --cov --cov-append --cov-report=term-missing:skip-covered $(SERIAL)

test-all: $(STAMP) valgrind chromium
	$(COMPILE) >/dev/null
	$(BIN)/python -m pytest -q -m ''

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy --strict on both packages and tests/, straight on the tree (the settings are in pyproject.toml), then on the
# documentation's configuration and extension, which are no package.
type: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy docs/conf.py docs/_ext

check: test lint type

# The documentation, from docs/ into build/docs/html: Sphinx with every warning an error (--keep-going lists them
# all first), the API pages generated afresh from the docstrings and the command-line page from the parser; then
# tests/docs: every '>>>' example of the pages and of the README run as a doctest, and every command, option,
# make target, module and path they name checked against the code (make test runs these too).
docs: $(STAMP)
	rm -rf docs/reference/generated build/docs
	$(BIN)/sphinx-build -q -E -W --keep-going -b html docs build/docs/html
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/docs docs/_ext

# setuptools builds in build/lib and build/bdist.*, and packs whatever is there: a module since removed
# (scale.py, now the package scale/) would ship beside its replacement, so they are emptied first.
wheel: $(STAMP)
	rm -rf $(WHEEL_DIR) build/lib build/bdist.* && $(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir $(WHEEL_DIR) .

# The wheel in a fresh venv: every command from a directory outside the checkout (.ci/smoke), then the
# test suite (but tests/benchmarks: the experiments are not in the wheel, nor are the peers they need) and the
# package's doctests against the installed files.
test-wheel: wheel valgrind chromium
	rm -rf $(WHEEL_VENV) && $(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install --quiet "$$(ls $(WHEEL_DIR)/*.whl)[test,distributed]"
	.ci/smoke $(WHEEL_VENV)/bin
	$(WHEEL_VENV)/bin/python -m pytest -q -p no:cacheprovider $(XDIST) -m 'not slow and not serial' --ignore=tests/benchmarks --ignore=benchmarks
	$(WHEEL_VENV)/bin/python -m pytest -q -p no:cacheprovider -m 'serial and not slow' --ignore=tests/benchmarks --ignore=benchmarks $(SERIAL)
	cd "$$(mktemp -d)" && $(CURDIR)/$(WHEEL_VENV)/bin/python -m pytest -q -p no:cacheprovider \
	  --doctest-modules -o doctest_optionflags=NORMALIZE_WHITESPACE --pyargs hanoi_harness hanoi_algorithms

# 'hanoi moves blocks 28 --binary' against the C reference benchmarks/c/hanoi_ref.c (needs a C compiler).
bench-c: $(STAMP)
	$(BIN)/python -m benchmarks.cref 28

# The full benchmark: regenerates results/ (index.html, the report, beside README.md, the tables and the plots; and
# results/quick/, the CI baseline). Then the project's own experiments (benchmarks/) add their pages to it:
# results/peers/ and peers.md (other packages' solvers against ours), startup.md and cref.md. 37 minutes on 2 idle
# cores (17 of them the peers), about as long shared. Chromium comes with it, to check index.html in 'make test'.
bench: $(STAMP) valgrind chromium
	$(COMPILE) >/dev/null
	$(BIN)/hanoi bench --out results
	$(BIN)/python -m benchmarks.peers --out results
	$(BIN)/python -m benchmarks.startup --out results
	$(BIN)/python -m benchmarks.cref 28 --out results

# The regression gate: a quick benchmark (about 30 s, 50 s under load) compared with the committed quick
# baseline by hanoi compare: exit 1 naming the algorithm and the metric when instructions per move or a
# tracemalloc peak grew by more than 1%, an algorithm now fails its check, or a time relative to 'recursive'
# is called slower beyond 50%; exit 3 when the counts could not be compared (no valgrind: never a silent
# pass); exit 2 for a baseline that does not read. The run stays in build/check-regression/ for a CI to
# keep: quick/ (its report), junit.xml and summary.md (appended to $$GITHUB_STEP_SUMMARY when set).
GATE_DIR := build/check-regression
check-regression: $(STAMP) valgrind
	@$(COMPILE) >/dev/null
	@rm -rf $(GATE_DIR) && mkdir -p $(GATE_DIR) && \
	$(BIN)/hanoi bench --quick --out $(GATE_DIR)/quick && \
	$(BIN)/hanoi compare results/quick $(GATE_DIR)/quick --junit $(GATE_DIR)/junit.xml \
	  --markdown $(GATE_DIR)/summary.md; status=$$?; \
	if [ -n "$${GITHUB_STEP_SUMMARY:-}" ] && [ -f $(GATE_DIR)/summary.md ]; then cat $(GATE_DIR)/summary.md >> "$$GITHUB_STEP_SUMMARY"; fi; \
	echo "make: the gate's run is in $(GATE_DIR)/ (the report: $(GATE_DIR)/quick/index.html)"; exit $$status

# Chunked verification's speed-up: bitwise at n = 26 alone, with --workers 1 and 2 (a few minutes).
bench-scale: $(STAMP)
	$(BIN)/python -m benchmarks.scaling --name bitwise --n 26 --workers 2 --repeat 2

clean:
	rm -rf $(VENV) build docs/reference/generated .pytest_cache .mypy_cache .ruff_cache .hypothesis .benchmarks dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
