#!/usr/bin/env bash
# Installs what Kumo needs to build and test on a fresh Debian machine with
# the CUDA toolkit (GPU optional), then builds and installs the package.
#
# The CMake build is kept in build/<wheel tag>/ (see pyproject.toml), so a
# second run recompiles only what changed. PYTHON selects the interpreter
# (default python3); use a virtual environment's python to keep the install
# out of the system's site-packages.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1

need_apt=()
command -v c++ >/dev/null 2>&1 || need_apt+=(g++)
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
[ -f /usr/include/gtest/gtest.h ] || need_apt+=(libgtest-dev)
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)  # .npz deflate (savez_compressed)
[ -f /usr/include/hwy/contrib/sort/vqsort.h ] || need_apt+=(libhwy-dev)
[ -f /usr/include/oneapi/dnnl/dnnl.hpp ] || need_apt+=(libdnnl-dev)  # host convolutions (oneDNN)
[ -f /usr/include/boost/context/detail/fcontext.hpp ] || need_apt+=(libboost-context-dev)  # CUDA host emulator fibers
# kumo.distributed: MPI (mpiexec and the headers/library the C++ layer binds)
{ command -v mpiexec && command -v mpicc; } >/dev/null 2>&1 || need_apt+=(openmpi-bin libopenmpi-dev)
[ -f /usr/include/superlu/slu_ddefs.h ] || need_apt+=(libsuperlu-dev)  # sparse LU (kumo.sparse.linalg splu, spsolve)
command -v ccache >/dev/null 2>&1 || need_apt+=(ccache)  # compiler cache (~/.cache/ccache): rebuilds compile only what changed
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "[setup] apt-get install ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

PY=${PYTHON:-python3}
echo "[setup] pip install build and test requirements"
$PY -m pip install -q "numpy>=2.0" "pybind11>=2.12" "scikit-build-core>=0.10" \
  "scipy-openblas32>=0.3.27" ninja "pytest>=7" "pytest-xdist>=3" "hypothesis>=6" "scipy>=1.11" \
  "scikit-learn>=1.3" "Pillow>=10" "h5py>=3.8" "matplotlib>=3.7"  # digits, images, HDF5, plots

# KUMO_BUILD_TESTS=1 (scripts/test.sh): the same Release tree also builds the
# GoogleTests and the C++ examples, so ctest runs where the wheel was built
# and no source is compiled twice.
config=()
if [ "${KUMO_BUILD_TESTS:-0}" = 1 ]; then
  config+=(-C cmake.define.KUMO_BUILD_TESTS=ON -C cmake.define.KUMO_BUILD_EXAMPLES=ON)
fi
echo "[setup] build and install kumo (C++ core, Python extension, CUDA plugin when the toolkit is found)"
# pip -v passes the build's output through; only its progress lines
# ("[12/47] Building CXX object ...") are shown, the whole log is kept.
mkdir -p build
log=build/pip-install.log
set +e
$PY -m pip install -v --no-build-isolation "${config[@]}" . 2>&1 | tee "$log" |
  grep --line-buffered -E '^ *\[[0-9]+/[0-9]+\] |ninja: no work to do|^Successfully installed'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "[setup] building kumo failed; the end of $log:"
  tail -n 60 "$log"
  exit "$status"
fi
