#!/usr/bin/env bash
# The main job: sets Kumo up (a no-op rebuild when nothing changed) and
# trains a small CNN on scikit-learn's handwritten digits with
# kumo.autograd (links, Adam, a trainer with a progress bar, log, plots and
# snapshots in result/). Arguments go to the script, e.g. --resume.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "[train] python examples/train_digits.py $*"
${PYTHON:-python3} examples/train_digits.py "$@"
