# The two commands: `make demo` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.installed-core
STAMP := $(VENV)/.installed

.PHONY: demo test browser warmup lint bench lean clean

# plies and what it needs to run: all the demo installs (the first run's cost: README.md)
$(CORE): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(CORE)

# and the test extras (pytest, ruff, ray, playwright, ...)
$(STAMP): $(CORE)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(CORE)
	$(BIN)/plies demo --html demo-review.html

# the tests run on every core, a test file a worker (each worker compiles what it needs and
# numba's cache shares it: a warm-up step first was slower, 19.1 min against 17.6 in session 45)
test: $(STAMP) browser
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/python -m pytest -q -n auto --dist loadfile --durations=30

# Chromium for the HTML report's browser test: installed where we can (root with apt-get);
# elsewhere that one test is skipped and says why.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	    { apt-get install -y -q chromium >/dev/null 2>&1 || \
	      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }; }; } || \
	  echo "note: no Chromium; the HTML report's browser test will be skipped"

warmup: $(CORE)
	$(BIN)/plies warmup

# the lean brain's kernels compiled ahead of time beside plies.gomoku.aot (docs/pbrain.md);
# wheels get them from hatch_build.py
lean: $(CORE)
	$(BIN)/python -m plies.gomoku.aot build src/plies/gomoku

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

bench: $(CORE)
	$(BIN)/plies bench gomoku

clean:
	rm -rf $(VENV) build dist .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
