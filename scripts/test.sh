#!/usr/bin/env bash
# Sets up, builds, and runs every test: GoogleTest (ctest) for the C++ core
# and pytest (compared with NumPy) for Python, with every generated kernel
# also compiled for CUDA by NVRTC (KUMO_VERIFY_CUDA=1).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
bash scripts/setup.sh

echo "[test] C++ build and ctest"
cmake -S . -B build-tests -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -Dpybind11_DIR="$($PY -m pybind11 --cmakedir)" -DKUMO_BUILD_PYTHON=OFF >/dev/null
cmake --build build-tests -j"$(nproc)"
(cd build-tests && ctest --output-on-failure -j"$(nproc)")
./build-tests/example_basic

echo "[test] pytest"
cd tests/python  # import the installed package, not the source tree
KUMO_VERIFY_CUDA=${KUMO_VERIFY_CUDA:-1} $PY -m pytest -q -n "$(nproc)" -p no:cacheprovider .
