#!/usr/bin/env bash
# A long differential campaign of kumo against NumPy (docs/differential.md):
#   bash scripts/fuzz.sh --calls N --seed S [--jobs J] [--ops PATTERN] [--report FILE]
# prints the summary (calls, matches, crashes, hangs, mismatches by class and
# by op); every mismatch with a one-line reproducer goes to the report file
# (default differential-S.txt). Exits 1 when a mismatch no known defect covers.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
calls=20000 seed=$(( RANDOM * 32768 + RANDOM )) jobs=$(nproc) rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --calls) calls=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done
report=differential-$seed.txt
for a in "${rest[@]}"; do [ "$a" = --report ] && report=; done
exec $PY -m tests.differential.runner --calls "$calls" --seed "$seed" --jobs "$jobs" \
  ${report:+--report "$report"} "${rest[@]}"
