# MIReAD Explorer — `make run` and `make test` are the two commands; `make bench` runs the benchmarks.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501
# 127.0.0.1: this machine only. ADDRESS=0.0.0.0 serves every network the machine is on (README, "Serving to a network")
ADDRESS ?= 127.0.0.1
WORKSPACE ?= workspace
export MIREAD_WORKSPACE ?= $(WORKSPACE)
export HF_HUB_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM ?= false

.PHONY: install run demo lint test test-fast test-e2e test-slow soak bench chromium clean frontend

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

install: $(VENV)/.installed

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; }

demo: install
	@echo "[make run] preparing the demo corpus: import, embed, map (cached after the first run)"
	$(PY) -m core demo --embed --map umap

run: demo
	@echo "[make run] MIReAD Explorer is ready: open http://$(ADDRESS):$(PORT) (Ctrl+C stops it)"
	$(PY) -m streamlit run app.py --server.address $(ADDRESS) --server.port $(PORT) --server.headless true \
	  --server.fileWatcherType none

lint: install
	$(VENV)/bin/ruff check .

test: install chromium lint
	$(PY) -m pytest -q -m "not slow" --durations=25 tests

test-fast: install
	$(PY) -m pytest -q -m "not slow and not e2e" tests

test-e2e: install chromium
	$(PY) -m pytest -q -m e2e tests/e2e

test-slow: install chromium
	$(PY) -m pytest -q -m slow tests --deselect tests/reliability/test_soak.py

soak: install
	$(PY) -m pytest -q -m slow tests/reliability/test_soak.py

bench: install
	$(PY) benchmarks/run_all.py

# the map's WebGL component: needs Node 20 and npm (the bundle is committed, so run and test need neither)
frontend:
	cd frontend/map && npm ci --no-audit --no-fund && npm run build

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
