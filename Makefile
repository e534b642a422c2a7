# wirecore: the two commands a user needs are `make demo` and `make test`.
# Both install what they need (Debian packages when root, .venv with pinned Python packages).
SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
JOBS  ?= 2

.PHONY: all setup demo test lint bench syn clean help

help:
	@echo "make demo   - bring up the virtual board and show ping, UDP, TCP, registers and figures"
	@echo "make test   - run every test (lint, synthesis, unit, system)"
	@echo "make bench  - run the benchmarks, figures to bench/results/*.json"
	@echo "make lint   - Verilator --lint-only -Wall on every RTL file, ruff on Python"
	@echo "make clean  - remove build products"

setup:
	@scripts/setup.sh

demo: setup
	@$(VENV)/bin/wirecore demo

test: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest -n $(JOBS) --dist loadgroup tests

lint: setup
	$(PY) -m pytest -n $(JOBS) tests/test_lint.py
	$(PY) -m ruff check .

bench: setup
	$(PY) -m bench.run_all

clean:
	rm -rf build sim_build .pytest_cache
