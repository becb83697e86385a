# Two commands on a fresh machine: `make run` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SCENARIO ?= scenarios/base.yaml
# The flags reports/base/ was made with, used by `make run` and `make report` alike, so that
# either regenerates the committed report unchanged but for run.json's timings
# (tests/product/test_install.py). Outputs go to ./reports/<name>/ of the directory make runs in.
BASE_FLAGS := --verify-compensation

.PHONY: run test test-quick bench profile count report lint format docs golden clean setup screenshots serve model

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/simsym run $(SCENARIO) $(BASE_FLAGS)

# The suite in TEST_WORKERS processes (pytest-xdist), a test file to a worker at a time: most
# tests use one core, and the machines it runs on have two. TEST_WORKERS=0 runs it in one.
# The files go out in the order tests/conftest.py gives (those with slow tests first), not
# xdist's (most tests first), which left the bounds-checked and soak tests to the end on one
# worker while the other sat idle.
TEST_WORKERS ?= 2
PYTEST := $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

test: $(STAMP)
	$(PYTEST)

test-quick: $(STAMP)
	$(PYTEST) -m "not slow"

bench: $(STAMP)
	$(BIN)/simsym bench --million

# Where the compiled engine spends its time, per numba function (needs Debian's linux-perf).
profile: $(STAMP)
	$(BIN)/python tools/profile_kernels.py $(SCENARIO)

# Exact instructions per search and per game, under valgrind (Debian's valgrind): a kernel
# change judged without the machine's timing noise (tools/count_instructions.py).
count: $(STAMP)
	$(BIN)/python tools/count_instructions.py

# The learned player's generations shipped in the package (family `learned`: the newest):
# expert iteration (generations 1 and 2, reports/train-base/), then generation 2 refined by
# direct search on its weights (generation 3, reports/train-refine/; 23 to 37 minutes on two
# cores); docs/strategies.md, "Generations".
model: $(STAMP)
	$(BIN)/simsym train scenarios/train-base.yaml --out reports/train-base --force
	$(BIN)/simsym train scenarios/train-refine.yaml --out reports/train-refine --force
	rm -f simsym/learned/generations/generation-*.json
	cp reports/train-base/generations/generation-*.json \
	  reports/train-refine/generations/generation-*.json simsym/learned/generations/

serve: $(STAMP)
	$(BIN)/simsym serve $(SCENARIO)

# The workbench screenshots of docs/workbench.md, taken by its browser test.
screenshots: $(STAMP)
	SIMSYM_SCREENSHOTS=docs/img $(BIN)/python -m pytest -q tests/product/test_workbench_e2e.py \
	  -k browser

docs: $(STAMP)
	$(BIN)/simsym options --markdown > docs/rule-options.md

clean:
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# The move-by-move logs of a few fixed-seed games, diffed by tests/engines/test_golden.py:
# GOLDEN's games (SCENARIO:GAME) at the fast judge's table, in SCENARIO-gameGAME.txt, and
# GOLDEN_STRONG's at the strong judge's, in SCENARIO-strong-gameGAME.txt. A scenario that names
# its own `strategies:` plays them under either.
GOLDEN := base:0 base:1 mixed-rotate:0 mixed-rotate:1 mixed-rotate:2 mixed-rotate:3 players-2:5 no-trading:3
GOLDEN_STRONG := base:0 base:1
golden_logs = for spec in $(1); do sc=$${spec%%:*}; g=$${spec\#\#*:}; \
	  f=tests/engines/golden/$$sc$(3)-game$$g.txt; \
	  $(BIN)/simsym log scenarios/$$sc.yaml --game $$g --judge $(2) > $$f; echo $$f; done
golden: $(STAMP)
	@$(call golden_logs,$(GOLDEN),fast,)
	@$(call golden_logs,$(GOLDEN_STRONG),strong,-strong)

# Regenerate the balance report of every scenario in scenarios/ into reports/<name>/
# (scenarios with a `sweep:` get reports/<name>-sweep/ instead, with a `ladder:`
# reports/<name>-ladder/, with a `tune:` reports/<name>-tune/; Python-class strategies run
# in the reference engine with the compiled search). REPORTS picks the scenario files.
# Played chunks are cached in .cache/chunks (simsym/run/cache.py): base-lookahead runs in
# blocks of 500 games, the strength sweep's, so the sweep's lookahead table reuses its games.
# Each command ends by writing inputs.json beside its report (simsym/cli/report_inputs.py: the
# scenario's files, the flags, the game code's hash).
REPORT_FLAGS ?= -q --force
REPORTS ?= scenarios/*.yaml
# Each scenario's report command, `simsym $$args` (empty for the training spec), handed to $(1).
report_each = set -e; for f in $(REPORTS); do \
	  name=$$(basename $$f .yaml); \
	  if grep -q "family: python" $$f; then \
	    args="run $$f $(REPORT_FLAGS) --engine python --search numba"; \
	  elif grep -q "^sweep:" $$f; then \
	    args="sweep $$f -q"; \
	  elif grep -q "^ladder:" $$f; then \
	    args="ladder $$f -q"; \
	  elif grep -q "^tune:" $$f; then \
	    args="tune $$f -q --force"; \
	  elif grep -q "^train:" $$f; then \
	    args=""; \
	  else \
	    args="run $$f $(REPORT_FLAGS)$$(case $$name in base) echo " $(BASE_FLAGS)";; esac)"; \
	    args="$$args$$(case $$name in base-lookahead) echo " --chunk-size 500";; esac)"; \
	  fi; \
	  $(1); \
	done
report_run = echo "== $$name"; if [ -n "$$args" ]; then $(BIN)/simsym $$args; \
	  else echo "(the learned player's training: make model)"; fi
report: export SIMSYM_CACHE = $(CURDIR)/.cache/chunks
report: $(STAMP)
	@$(call report_each,$(report_run))

# Only the reports whose inputs changed since they were made: a report whose inputs.json
# matches the scenario's files, the flags and the game code now is skipped (`make report`
# regenerates every one). PLAN=1 prints instead the balance workflow's jobs (OLD=DIR: the
# base branch's checkout, for the scenarios a pull request changed) and the code hash;
# the scenarios with a searching table are left for later unless SEARCH=1.
.PHONY: report-changed
report_inputs = $(BIN)/python -m simsym.cli.report_inputs \
	$(if $(PLAN),plan $(if $(OLD),--old $(OLD)) $(if $(SEARCH),--search-tables),run $(BIN)/simsym)
report-changed: export SIMSYM_CACHE = $(CURDIR)/.cache/chunks
report-changed: $(STAMP)
	@($(call report_each,[ -z "$$args" ] || echo "$$args")) | $(report_inputs)
