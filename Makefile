# SVM Lab — developer tasks.
#   make run    start the Streamlit app on http://localhost:$(PORT)
#   make serve  N app processes behind HAProxy on http://localhost:$(PORT) (N=2; deploy/serve.py)
#   make test   ruff, make js, the whole pytest suite (installs deps and Debian chromium if needed),
#               then the engine's book and agreement tests without numba's compiler
#   make test-fast  ruff, make js, every test but the browser ones (engine, unit, AppTest pages),
#               in $(JOBS) processes (JOBS=2)
#   make js     the browser code's lint (eslint) and unit tests (node --test tests/js)
#   make bench  run every benchmarks/bench_*.py; their output goes to benchmarks/RESULTS.md
#   make lint   ruff only
#   make clean  remove caches and install stamps (make distclean also removes .venv, node_modules)
#
# Install stamps: $(VENV)/requirements.stamp and $(VENV)/requirements-test.stamp are touched
# after a successful pip install; pip runs again only when a requirements file is newer than
# its stamp (or the stamp is missing, e.g. after `make clean`). npm ci runs again when
# package.json or package-lock.json is newer than $(NPM_STAMP) (or node_modules is missing).

SHELL   := /bin/bash
PYTHON  ?= python3
VENV    ?= .venv
PORT    ?= 8501
ADDRESS ?= localhost
N       ?= 2

BIN        := $(VENV)/bin
RUN_STAMP  := $(VENV)/requirements.stamp
TEST_STAMP := $(VENV)/requirements-test.stamp
PIP        := $(BIN)/python -m pip --disable-pip-version-check
NPM_STAMP  := node_modules/.package-lock.json

export PIP_NO_INPUT := 1
# Python may write its bytecode here even where the environment says not to: pytest's
# rewritten test modules are then compiled once, not on every run (8 s of each test-fast)
unexport PYTHONDONTWRITEBYTECODE
# the tests without a browser run in this many processes (pytest-xdist); 1 runs them in one
JOBS    ?= 2

.PHONY: run serve test test-fast pytest-no-browser test-nojit lint js precompile bench \
	chromium haproxy postgresql node \
	clean distclean venv deps test-deps

run: $(RUN_STAMP)
	$(BIN)/python -m svm_engine.precompile
	$(BIN)/streamlit run app.py --server.headless true \
		--server.port $(PORT) --server.address $(ADDRESS)

serve: $(RUN_STAMP) haproxy
	$(BIN)/python deploy/serve.py -n $(N) --port $(PORT) --address $(ADDRESS)

# precompile first: after an edit of svm_engine/ the compiled code is made once, here, not by
# every fit worker the tests start (within their budgets)
test: $(TEST_STAMP) chromium haproxy postgresql js
	$(BIN)/ruff check .
	$(BIN)/python -m svm_engine.precompile
	$(BIN)/python -m pytest -q -n $(JOBS) -m "not browser"
	$(BIN)/python -m pytest -q -m browser
	$(MAKE) --no-print-directory test-nojit

# make js beside the precompile and then beside pytest (each prints when it is done): the
# tests wait for the compiled code, not for node
test-fast: $(TEST_STAMP) $(NPM_STAMP)
	$(BIN)/ruff check .
	@$(MAKE) --no-print-directory -j2 --output-sync=target js pytest-no-browser

pytest-no-browser: precompile
	$(BIN)/python -m pytest -q -n $(JOBS) -m "not browser"

# The compiled code is checked (numba's cache loaded: ~1 s) only when an engine source or the
# install is newer than the last check. The stamp sits in numba's cache, so that removing the
# cache (make clean, NUMBA_CACHE_DIR emptied) removes it too.
ENGINE_SOURCES := $(shell find svm_engine -name '*.py' -not -path '*/__pycache__/*')
PRECOMPILED    := $(or $(NUMBA_CACHE_DIR),svm_engine/__pycache__)/svmlab-precompiled.stamp
precompile: $(PRECOMPILED)
$(PRECOMPILED): $(RUN_STAMP) $(ENGINE_SOURCES)
	$(BIN)/python -m svm_engine.precompile
	@mkdir -p $(@D) && touch $@

# numba is optional (svm_engine/jit.py): the book's numbers, the solvers' agreement and the
# kernels' bit-equal values (near and far from the origin) with every compiled function run as
# plain Python. Left out by their marker: the two iris fits at C = 1000 whose SGA runs take
# half a minute each in Python (tests/test_engine_book.py, slow_without_jit).
NOJIT_TESTS := tests/test_engine_book.py tests/test_engine_random.py tests/test_kernels.py \
	tests/test_smo_pair.py tests/test_engine_numba_optional.py tests/test_step_player_kernel.py \
	tests/test_engine_polish_fast.py tests/test_engine_polish_fold.py \
	tests/test_engine_warm_working_set.py
test-nojit: $(TEST_STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -m "not browser and not slow_without_jit" \
		$(NOJIT_TESTS)

# The browser modules (ui/browser/*.js): eslint (eslint.config.js) and the unit tests of what
# needs no DOM (tests/js/*.test.mjs, node's own test runner); Playwright tests the rest.
# eslint keeps its results in .eslintcache (a file is linted again when its content, the
# config or eslint changes) and runs from node_modules/.bin (npx would add half a second).
js: $(NPM_STAMP)
	node_modules/.bin/eslint --cache --cache-strategy content --cache-location .eslintcache \
		ui/browser tests/js eslint.config.js
	node --test --test-reporter=spec tests/js/*.test.mjs

lint: $(TEST_STAMP)
	$(BIN)/ruff check .

bench: $(TEST_STAMP)
	$(BIN)/python benchmarks/results.py

venv: $(BIN)/python
deps: $(RUN_STAMP)
test-deps: $(TEST_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): requirements.txt | $(BIN)/python
	$(PIP) install -r requirements.txt
	touch $@

$(TEST_STAMP): requirements.txt requirements-test.txt | $(BIN)/python
	$(PIP) install -r requirements-test.txt
	touch $(RUN_STAMP) $@

# eslint as package-lock.json pins it (npm's registry; nothing is fetched at run time)
$(NPM_STAMP): package.json package-lock.json | node
	npm ci --no-audit --no-fund
	touch $@

# Debian packages the tests need, installed with apt when missing (as root, or with sudo -n):
# $(call apt_need,PACKAGE,a shell test that is true when it is there,what fails without it)
define apt_need
	@if ! { $(2); }; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; \
		elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; \
		else echo "warning: $(1) is missing and we are not root (no sudo);" \
			"$(3). Install it with: apt-get install $(1)" >&2; exit 0; fi; \
		echo "installing Debian $(1)"; \
		$$SUDO apt-get update && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y $(1); \
	fi
endef

# Playwright tests drive Debian's chromium (/usr/bin/chromium), not a downloaded browser.
chromium:
	$(call apt_need,chromium,[ -x /usr/bin/chromium ],browser tests will fail)

# make js runs eslint and the unit tests with node and npm (Debian's, when missing).
node:
	$(call apt_need,nodejs npm,command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1,make js (eslint and the JavaScript unit tests) will fail)

# The class recipe (deploy/serve.py, make serve) and its browser test run Debian's haproxy.
haproxy:
	$(call apt_need,haproxy,command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ],make serve and its test will fail)

# The store's tests run against PostgreSQL too (tests/postgres_server.py starts a throw-away
# server as the postgres user); any installed version will do, the newest is used.
postgresql:
	$(call apt_need,postgresql,compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null,the store's PostgreSQL tests will fail (SVMLAB_SKIP_POSTGRES=1 skips them))

clean:
	rm -rf .pytest_cache .ruff_cache .eslintcache .hypothesis build dist *.egg-info \
		benchmarks/out benchmarks/output benchmarks/results \
		test-results playwright-report
	rm -f $(RUN_STAMP) $(TEST_STAMP)
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) node_modules
