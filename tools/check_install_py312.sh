#!/usr/bin/env bash
# The install test (tests/install/test_install_colab.py) with a Python 3.12 fresh environment, as
# Colab has. Run by hand, never in CI: on 3.12, `pip install torch==2.13.0` downloads the multi-GB
# CUDA build (only a 3.11 CPU wheel may be at hand), which takes as long as the network allows.
#
#     tools/check_install_py312.sh [PATH_TO_PYTHON3.12]
#
# Drives the test from the checkout's .venv (make setup; DEV_PYTHON=... for another); the fresh
# environment is 3.12.
set -euo pipefail
cd "$(dirname "$0")/.."
PY312="${1:-$(command -v python3.12 || true)}"
if [ -z "$PY312" ] || ! "$PY312" -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then
  echo "usage: $0 PATH_TO_PYTHON3.12 (no python3.12 found on PATH)" >&2
  exit 2
fi
echo "fresh environment: $("$PY312" --version) at $PY312" >&2
started=$(date +%s)
GPU_ADVISOR_INSTALL_PYTHON="$PY312" "${DEV_PYTHON:-.venv/bin/python}" -m pytest tests/install/test_install_colab.py \
  -q -p no:cacheprovider --timeout 5400 "${@:2}"
echo "passed on $("$PY312" --version) in $(( $(date +%s) - started )) s" >&2
