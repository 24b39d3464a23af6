#!/usr/bin/env bash
# Sets up Kumo and runs the main example (Black-Scholes, side by side with NumPy).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd examples && ${PYTHON:-python3} black_scholes.py "$@"
