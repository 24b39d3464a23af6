#!/usr/bin/env bash
# Installs what Kumo needs to build and test on a fresh Debian machine with
# the CUDA toolkit (GPU optional), then builds and installs the package.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v c++ >/dev/null 2>&1 || need_apt+=(g++)
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
[ -f /usr/include/gtest/gtest.h ] || need_apt+=(libgtest-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "[setup] apt-get install ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

PY=${PYTHON:-python3}
echo "[setup] pip install build and test requirements"
$PY -m pip install -q --disable-pip-version-check "numpy>=2.0" "pybind11>=2.12" "scikit-build-core>=0.10" \
  "scipy-openblas32>=0.3.27" ninja "pytest>=7" "pytest-xdist>=3" "hypothesis>=6" "scipy>=1.11"
echo "[setup] pip install . (builds the C++ core, the extension and the CUDA plugin when the toolkit is found)"
$PY -m pip install -q --disable-pip-version-check --no-build-isolation .
