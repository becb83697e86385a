# Two commands on a fresh machine: `make run` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SCENARIO ?= scenarios/base.yaml

.PHONY: run test test-quick bench report lint format docs golden clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/simsym run $(SCENARIO)

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-quick: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

bench: $(STAMP)
	$(BIN)/simsym bench --million

docs: $(STAMP)
	$(BIN)/simsym options --markdown > docs/rule-options.md

clean:
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# The move-by-move logs of a few fixed-seed games, diffed by tests/test_golden.py.
GOLDEN := base:0 base:1 mixed-rotate:0 mixed-rotate:1 mixed-rotate:2 mixed-rotate:3 players-2:5 no-trading:3
golden: $(STAMP)
	@for spec in $(GOLDEN); do sc=$${spec%%:*}; g=$${spec##*:}; \
	  $(BIN)/simsym log scenarios/$$sc.yaml --game $$g > tests/golden/$$sc-game$$g.txt; \
	  echo "tests/golden/$$sc-game$$g.txt"; done

# Regenerate the balance report of every scenario in scenarios/ into reports/<name>/
# (scenarios with a `sweep:` get reports/<name>-sweep/ instead, with a `ladder:`
# reports/<name>-ladder/, with a `tune:` reports/<name>-tune/; Python-class strategies run
# in the reference engine with the compiled search).
REPORT_FLAGS ?= -q --force
report: $(STAMP)
	@set -e; for f in scenarios/*.yaml; do \
	  name=$$(basename $$f .yaml); echo "== $$name"; \
	  if grep -q "family: python" $$f; then \
	    $(BIN)/simsym run $$f $(REPORT_FLAGS) --engine python --search numba; \
	  elif grep -q "^sweep:" $$f; then \
	    $(BIN)/simsym sweep $$f -q; \
	  elif grep -q "^ladder:" $$f; then \
	    $(BIN)/simsym ladder $$f -q; \
	  elif grep -q "^tune:" $$f; then \
	    $(BIN)/simsym tune $$f -q --force; \
	  else \
	    $(BIN)/simsym run $$f $(REPORT_FLAGS) $$( [ $$name = base ] && echo --verify-compensation ); \
	  fi; \
	done
