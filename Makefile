# Two entry points for a fresh machine: `make ladder` (the main job) and
# `make test` (the whole test suite; `make test-fast` leaves out the slow
# tests). Each creates its own virtual environment.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv test-packages kit-packages kits test test-fast ladder bench balance balance-gnadenlos exploitability proto clean

# The bot SDK distribution (sdk/python/) first: the project depends on it
# and it is not on PyPI.
$(STAMP): pyproject.toml setup.py sdk/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ./sdk/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# Debian's packages, installed as root when missing (the first run takes a
# minute or two), each checked by name (.ci/debian-packages: dpkg's status,
# never a command test, which a package once installed by hand would pass).
# What the tests drive as a person would: headless Chromium for the browser
# tests (tests/browser_support.py) and tmux for the terminal view
# (tests/test_play_screen.py).
TEST_PACKAGES := chromium chromium-driver tmux
# The starter kits' toolchains (examples/, tests/test_starter_kits.py):
# Node.js with npm (npm added unless nodejs carries its own, as NodeSource's
# does), and C++ on Debian's gRPC: examples/cpp/Makefile runs protoc with
# grpc_cpp_plugin on proto/ and google/protobuf/struct.proto (which
# libprotobuf-dev has, and libgrpc++-dev does not pull in), then g++ with
# `pkg-config grpc++ protobuf`. tests/test_debian_packages.py checks this
# list against the files those builds use.
KIT_PACKAGES := nodejs g++ make pkg-config libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc

# Everything `make test` needs, in one apt call.
test-packages:
	@.ci/debian-packages install $(KIT_PACKAGES) $(TEST_PACKAGES)

kit-packages:
	@.ci/debian-packages install $(KIT_PACKAGES)

# Builds the starter kits as their READMEs say: the JavaScript kit's
# node_modules/ (npm ci, again when its lock changes), the C++ kit's ./bot
# (its own Makefile: protoc on its proto/, then g++). The Python kit needs
# only the bot SDK, which the virtualenv has.
JS_KIT := examples/javascript
kits: kit-packages $(JS_KIT)/node_modules/.kit-built
	$(MAKE) -j2 -C examples/cpp

$(JS_KIT)/node_modules/.kit-built: $(JS_KIT)/package.json $(JS_KIT)/package-lock.json
	cd $(JS_KIT) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Two gates before the tests: mypy (pyproject.toml: strict on the engines, the protocol and the SDKs)
# and lint-imports (pyproject.toml's import contracts: the layers of docs/architecture.md, no circles).
test: $(STAMP) test-packages kits
	$(BIN)/python -m mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n 2 -q

# The same gates and every test not marked slow (pyproject.toml's markers: browsers, real ladders and
# services, kit builds): a few minutes on 2 cores, for the edit-test loop; `make test` is the whole suite.
test-fast: $(STAMP) test-packages
	$(BIN)/python -m mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n 2 -q -m "not slow"

ladder: $(STAMP)
	$(BIN)/referee ladder

bench: $(STAMP)
	$(BIN)/python -m bench

balance: $(STAMP)
	$(BIN)/python -m bench.balance_study

# docs/balance-gnadenlos.md: the reviewer's two fixes measured (issue 20); about an hour of CPU
balance-gnadenlos: $(STAMP)
	nice -n 10 $(BIN)/python -m bench.balance_gnadenlos --jobs 2

# docs/exploitability.png and .json: the built-in bots and the trained kit measured over the wire
# (referee exploitability), beside CFR's curve; about an hour, most of it the MCTS bot's thinking
exploitability: $(STAMP)
	nice -n 10 $(BIN)/python -m bench.exploitability_table

# The generated Python code (sdk/python/botsdk/pb/), and the kits' copies of
# the packages a bot needs: each kit carries its own, so that a copy of its
# folder builds anywhere (tests/test_starter_kits.py checks that they match).
BOT_PROTOS := tournament gnadenlos saboteur leduc
KITS_WITH_PROTOS := examples/javascript examples/cpp
proto: $(STAMP)
	$(BIN)/python -m referee.protocol.generate
	for kit in $(KITS_WITH_PROTOS); do \
		rm -rf $$kit/proto && mkdir $$kit/proto && for p in $(BOT_PROTOS); do cp -r proto/$$p $$kit/proto/; done; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
