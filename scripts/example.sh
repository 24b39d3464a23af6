#!/usr/bin/env bash
# Sets up Kumo (a no-op rebuild when nothing changed) and runs the main
# example: Black-Scholes, side by side with NumPy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "[example] python examples/black_scholes.py"
cd examples && ${PYTHON:-python3} black_scholes.py "$@"
