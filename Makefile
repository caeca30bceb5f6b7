# Every target sets itself up: a fresh clone needs only Python, pip, Node and npm.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: gen-skills check test test-fast lint bench readme clean setup

setup: $(STAMP) node_modules/.package-lock.json

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

gen-skills: setup
	$(BIN)/pygen gen

check: setup
	$(BIN)/pygen check

lint: setup
	$(BIN)/ruff check pygen tests bench
	$(BIN)/mypy
	node_modules/.bin/eslint js eslint.config.cjs

# The whole suite, one worker per core; a module's tests stay on one worker (shared fixtures).
test: setup lint
	$(BIN)/pytest -q -n auto --dist loadfile
	$(BIN)/pygen check --quiet
	$(BIN)/pygen check --quiet --verify-memo

# The quick loop while working (under 3 minutes, ~300 CPU s, on 2 cores): everything but the
# tests marked slow (packaging end-to-end, extract, gen, check and init over the whole fixture
# corpus, a test costing 2 s or more alone, every case but the first of a `matrix` test);
# `make test` runs them all.
test-fast: setup
	$(BIN)/pytest -q -n auto --dist loadfile -m "not slow"

bench: setup
	$(BIN)/python -m bench

readme: setup
	$(BIN)/python -m pygen.clidoc

clean:
	rm -rf $(VENV) node_modules .pygen-cache
