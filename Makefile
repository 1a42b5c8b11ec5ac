# gpu-advisor: `make run` sets up and opens the chat; `make test` sets up and runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

export GRADIO_ANALYTICS_ENABLED := False
export ANONYMIZED_TELEMETRY := False
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup run test lint browser bench eval vectors clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	# torch first, pinned to the CPU build, so nothing pulls a multi-GB CUDA build
	$(PY) -m pip install --quiet --disable-pip-version-check torch==2.13.0
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[all,dev]'
	touch $(STAMP)

setup: $(STAMP)

# Headless Chromium for the browser test, from the system's packages (never a downloaded browser).
browser:
	@if command -v chromium >/dev/null 2>&1 && [ -d /usr/share/fonts/truetype/noto ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; \
	else echo "chromium not installed and no root: the browser test will skip"; exit 0; fi; \
	$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null \
	  || echo "could not install chromium: the browser test will skip"

run: setup
	$(VENV)/bin/gpu-advisor index
	$(VENV)/bin/gpu-advisor chat

test: setup browser
	$(PY) -m pytest

lint: setup
	$(VENV)/bin/ruff check assistant tools tests
	$(VENV)/bin/ruff format --check assistant tools tests
	$(VENV)/bin/mypy assistant

eval: setup
	$(PY) tools/eval_retrieval.py
	$(PY) tools/eval_answers.py

# Precomputed vectors (package data) for what the code embeds: run after changing the corpus, the
# offline model's examples or the embedding model; tests/install says when they are stale.
vectors: setup
	$(PY) tools/build_vectors.py

bench: setup
	$(PY) tools/bench_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
