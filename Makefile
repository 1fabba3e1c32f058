# Two entry points for a fresh machine: `make ladder` (the main job) and
# `make test` (the whole test suite). Each creates its own virtual environment.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv test-packages kit-packages kits test ladder bench balance balance-gnadenlos proto clean

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
test-packages: kit-packages
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ] || [ ! -x /usr/bin/tmux ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver tmux; \
	fi

# The starter kits' toolchains (examples/, tests/test_starter_kits.py): Node.js
# with npm, and C++ with Debian's gRPC (libgrpc++-dev, protobuf-compiler-grpc),
# installed as root when missing. npm only when node lacks it (NodeSource's
# nodejs carries its own and conflicts with Debian's npm).
kit-packages:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null || ! command -v g++ >/dev/null \
			|| ! command -v grpc_cpp_plugin >/dev/null || ! pkg-config --exists grpc++ 2>/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$$(command -v node >/dev/null || echo nodejs) $$(command -v npm >/dev/null || echo npm) \
			g++ make pkg-config libgrpc++-dev protobuf-compiler-grpc; \
	fi

# Builds the starter kits as their READMEs say: the JavaScript kit's
# node_modules/ and proto/ (npm ci, again when its lock or the protos change),
# the C++ kit's ./bot (its own Makefile: protoc from proto/, then g++). The
# Python kit needs only the bot SDK, which the virtualenv has.
JS_KIT := examples/javascript
kits: kit-packages $(JS_KIT)/node_modules/.kit-built
	$(MAKE) -j2 -C examples/cpp

$(JS_KIT)/node_modules/.kit-built: $(JS_KIT)/package.json $(JS_KIT)/package-lock.json $(wildcard proto/*/v1/*.proto)
	cd $(JS_KIT) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# mypy is a gate (pyproject.toml: strict on the engines, the protocol and the SDKs)
test: $(STAMP) test-packages kits
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n 2 -q

ladder: $(STAMP)
	$(BIN)/referee ladder

bench: $(STAMP)
	$(BIN)/python -m bench

balance: $(STAMP)
	$(BIN)/python -m bench.balance_study

# docs/balance-gnadenlos.md: the reviewer's two fixes measured (issue 20); about an hour of CPU
balance-gnadenlos: $(STAMP)
	nice -n 10 $(BIN)/python -m bench.balance_gnadenlos --jobs 2

proto: $(STAMP)
	$(BIN)/python -m referee.protocol.generate

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
