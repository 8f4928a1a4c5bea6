# duiyi: every target creates .venv with pip when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PORT   ?= 8000

AXE    := node_modules/axe-core/axe.min.js

.PHONY: run test test-fast lint bench event-day fuzz install install-axe system-packages services clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,server]'
	touch $(STAMP)

install: $(STAMP)

# Debian packages the tests use (chromium, gnugo, nginx, a JDK, npm, PostgreSQL, Redis, fonts):
# installed when missing as root, else one line naming the apt-get command to run.
system-packages:
	@bash scripts/system-packages.sh test

# The local PostgreSQL and Redis of the scale-path tests, started when they are not running.
services: system-packages
	@bash scripts/services.sh

# axe-core (npm) for the accessibility test of the browser UI (tests/web/test_quality.py)
$(AXE):
	npm install --no-save --no-package-lock --no-audit --no-fund axe-core@4

install-axe: $(AXE)

# The main job: the web server on an embedded SQLite database (var/duiyi.sqlite3), with a demo
# event; its keys are written to var/demo-keys.json.
run: $(STAMP)
	$(BIN)/duiyi serve --demo --port $(PORT) --database sqlite:///var/duiyi.sqlite3

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test: system-packages services lint $(AXE)
	$(BIN)/pytest -n 2 -q

test-fast: $(STAMP)
	$(BIN)/pytest -q -m "not slow"

# every benchmark script, one after another (the helpers of bench/cluster.py are not benchmarks)
bench: $(STAMP)
	@for f in bench/*.py; do case $$f in bench/fuzz_api.py|bench/minimal_server.py|bench/profile_summary.py|bench/event_day.py) continue;; esac; \
	  echo "== $$f"; $(BIN)/python $$f || exit 1; done

# The event day (issue 33): nginx + 3 processes + PostgreSQL + Redis, a Go and a Gomoku Swiss
# played by bots through faults; OUT/figures.json and OUT/report.html (not part of `make bench`)
PLAYERS ?= 1000
ROUNDS  ?= 7
OUT     ?= var/event-day
event-day: $(STAMP)
	$(BIN)/python bench/event_day.py --players $(PLAYERS) --rounds $(ROUNDS) --faults --out $(OUT)

# A longer unseeded schemathesis run over the whole API (not part of `make test`):
# EXAMPLES per operation, a new seed each run (SEED=... repeats one).
EXAMPLES ?= 100
fuzz: $(STAMP)
	$(BIN)/python bench/fuzz_api.py --examples $(EXAMPLES) $(if $(SEED),--seed $(SEED))

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
