# wirecore: the two commands a user needs are `make demo` and `make test`.
# Both install what they need first (scripts/setup.sh: Debian packages when root, and
# .venv with the pinned Python packages of requirements.txt).
SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
JOBS  ?= 2
PYTEST := $(PY) -m pytest -n $(JOBS) --dist loadgroup

.PHONY: help setup demo test test-long lint bench bitstream clean

help:
	@echo "make demo      - bring up the virtual board; ARP, ping, UDP echo and registers over IPbus"
	@echo "                 from Linux, the figures, a pcap; tear down (needs root)"
	@echo "make test      - every test: ruff, lint, synthesis, unit, fuzz, system (tests that"
	@echo "                 need a TAP skip without root)"
	@echo "make test-long - the volume runs left out of make test (longer fuzz runs, repeated"
	@echo "                 sweeps: no case that make test does not cover)"
	@echo "make bench     - run the benchmarks, figures to bench/results/*.json"
	@echo "make bitstream BOARD=colorlight_i9 - the board's bitstream (yosys, nextpnr-ecp5,"
	@echo "                 ecppack); fails on a timing failure (nexys_video: yosys synth_xilinx only)"
	@echo "make lint      - Verilator --lint-only -Wall on every RTL file, ruff on Python"
	@echo "make setup     - only install what the others need"
	@echo "make clean     - remove build products"

setup:
	@scripts/setup.sh

demo: setup
	@$(VENV)/bin/wirecore demo

test: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PYTEST) -m "not long" tests

test-long: setup
	$(PYTEST) -m long tests

lint: setup
	$(PY) -m pytest -n $(JOBS) tests/test_lint.py
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

bench: setup
	$(PY) -m bench.run_all

BOARD ?= colorlight_i9
bitstream: setup
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(PY) -m syn.board $(BOARD)

clean:
	rm -rf build sim_build .pytest_cache
