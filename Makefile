# Two commands do all the set-up: `make demo` and `make test`. Each builds its own virtualenv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install demo test test-fast lint format bench bench-large clean

# The package alone (what the demo runs on), then the development tools on top of it.
$(BIN)/.installed-package: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(BIN)/.installed: $(BIN)/.installed-package
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(BIN)/.installed

demo: $(BIN)/.installed-package  ## ingest the shipped sample conversation and answer questions, offline
	$(BIN)/ramem demo

test: install  ## the whole test suite (offline), without the speed measurements (-m perf)
	$(BIN)/python -m pytest -q -m "not perf"

test-fast: install
	$(BIN)/python -m pytest -q -m "not slow and not reliability"

lint: install
	$(BIN)/ruff check ramem_integrations tests examples
	$(BIN)/ruff format --check ramem_integrations tests examples
	$(BIN)/mypy ramem_integrations

format: install
	$(BIN)/ruff check --fix ramem_integrations tests examples
	$(BIN)/ruff format ramem_integrations tests examples

DATA ?= ../shared/data/locomo-dev.json

bench: install  ## performance suite (under 15 min on 2 cores); skips when $(DATA) is absent
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run_all.py --data $(DATA)

bench-large: install  ## the 1M-memory scale run
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run_all.py --data $(DATA) --large

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
