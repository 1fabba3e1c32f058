# Two entry points for a fresh machine: `make ladder` (the main job) and
# `make test` (the whole test suite). Each creates its own virtual environment.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv test-packages test ladder bench balance proto clean

# The bot SDK distribution (sdk/python/) first: the project depends on it
# and it is not on PyPI.
$(STAMP): pyproject.toml sdk/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ./sdk/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# What the tests drive as a person would: headless Chromium for the browser
# tests (tests/browser_support.py) and tmux for the terminal view
# (tests/test_play_screen.py). Debian's packages, installed as root when
# missing (the first run takes a minute).
test-packages:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ] || [ ! -x /usr/bin/tmux ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver tmux; \
	fi

# mypy is a gate (pyproject.toml: strict on the engines, the protocol and the SDKs)
test: $(STAMP) test-packages
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n 2 -q

ladder: $(STAMP)
	$(BIN)/referee ladder

bench: $(STAMP)
	$(BIN)/python -m bench

balance: $(STAMP)
	$(BIN)/python -m bench.balance_study

proto: $(STAMP)
	$(BIN)/python -m referee.protocol.generate

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
