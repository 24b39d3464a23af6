#!/usr/bin/env bash
# Sets up, builds, and runs every test:
#   0. the architecture checks: C++ includes follow the layers
#      (scripts/check_layers.py), python/kumo's imports form no circle
#      (scripts/check_imports.py);
#   1. one Release build (scripts/setup.sh with KUMO_BUILD_TESTS=1) that is both
#      the installed Python package and the C++ library's GoogleTests (ctest)
#      and examples, in the build tree pip keeps (build/<wheel tag>/);
#   2. the C++ library and its tests under AddressSanitizer and
#      UndefinedBehaviorSanitizer, in build/asan/;
#   3. pytest against the installed package (every function compared with NumPy),
#      with every generated kernel also compiled for CUDA by NVRTC (KUMO_VERIFY_CUDA=1);
#   4. the differential campaign: random calls of every public operation on
#      every array layout, compared with NumPy in worker processes (tests/differential),
#      also once with Python loading the AddressSanitizer/UBSan library;
#   5. the kumo.sparse tests again on the portable sparse backend, which CUDA arrays use.
# Each stage prints its time, and the end a table of them.
# JOBS sets the parallelism (default: all cores); PYTHON the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
JOBS=${JOBS:-$(nproc)}

stage_names=()
stage_seconds=()
stage_start=0
begin_stage() {
  echo "[test] $1"
  stage_names+=("$1")
  stage_start=$(date +%s)
}
end_stage() {
  local s=$(( $(date +%s) - stage_start ))
  stage_seconds+=("$s")
  echo "[time] ${stage_names[-1]}: ${s} s"
}
print_stage_times() {
  echo "[time] stage times:"
  local i total=0
  for i in "${!stage_seconds[@]}"; do
    printf '[time]   %6d s  %s\n' "${stage_seconds[$i]}" "${stage_names[$i]}"
    total=$(( total + stage_seconds[i] ))
  done
  printf '[time]   %6d s  total\n' "$total"
}
trap print_stage_times EXIT

# ctest prints two lines per test; show failures (with their output) and the
# summary, count the skipped tests (those that need a GPU) and keep the whole
# output in <build dir>/ctest.log.
run_ctest() {
  ctest --test-dir "$1" -j"$JOBS" --output-on-failure "${@:2}" 2>&1 | tee "$1/ctest.log" | awk -v logfile="$1/ctest.log" '
    /^ *Start +[0-9]+: |Passed +[0-9.]+ sec$|\*\*\*Skipped +[0-9.]+ sec$|^Internal ctest|^Test project/ { next }
    /^The following tests did not run:/ { in_skipped = 1; next }
    in_skipped && /^\t/ { skipped++; next }
    { in_skipped = 0; print }
    END { if (skipped) printf "%d tests skipped (see %s)\n", skipped, logfile }'
}

# The architecture's rules, before anything compiles: C++ includes follow
# the layers of CMakeLists.txt (the build runs this check too; here it fails
# in a second, with every offending include), and python/kumo's module-level
# imports form no cycle and do not import the top-level package back.
begin_stage "architecture checks (C++ layers, Python import graph)"
$PY scripts/check_layers.py
$PY scripts/check_imports.py
end_stage

begin_stage "setup and the Release build (Python package, C++ tests and examples)"
KUMO_BUILD_TESTS=1 bash scripts/setup.sh
command -v ccache >/dev/null 2>&1 && ccache --show-stats 2>/dev/null | grep -E '^ *(Hits|Misses|Cacheable calls)' || true
end_stage
# The tree pip just built (build/<wheel tag>/, see pyproject.toml): the
# newest that scikit-build-core configured.
release_tree=$(dirname "$(ls -t $(grep -l '^SKBUILD:' build/*/CMakeCache.txt) | head -n 1)")

begin_stage "ctest (Release, $release_tree)"
run_ctest "$release_tree"
"$release_tree"/example_basic >/dev/null
end_stage

# The library, the CUDA plugin's host code, the tests, and the kernels the
# tests compile at run time (KUMO_HOST_CXX) are all instrumented;
# -fno-sanitize-recover makes undefined behaviour fail the test. -O0: with
# the sanitizers, -O1 took 2.3 times the compiler's CPU time (pocketfft's
# and the sparse kernels' templates 5-12 times) for a ctest pass that ran
# only a little faster. kumo.distributed is not built: no C++ test uses it
# (its tests are the Python suite's, over MPI). --as-needed: Debian's GCC links with it by
# default except when a sanitizer is on, and without it the plugin would
# require the CUDA driver library libcuda.so.1 and not load on a machine
# without a driver. nvcc's device code (the CUB sorts), which no machine here
# runs, gets the Release tree's flags: with ccache it is then the Release
# tree's objects again instead of a second nvcc compile. The Python bindings
# (_core, used by the differential campaign below) keep AddressSanitizer but
# not UBSan: with it, pybind11's templates took 16.6 s of compiler time per
# binding file instead of 11.1 s (40 files), and the undefined behaviour UBSan
# finds is in the C++ routines, which stay fully instrumented. The tree sits at
# the Release tree's depth (build/asan/) because ccache hashes paths
# relative to the build directory (CMakeLists.txt).
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
begin_stage "AddressSanitizer/UBSan build"
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKUMO_WITH_MPI=OFF \
  -DKUMO_BUILD_PYTHON=ON -Dpybind11_DIR="$($PY -m pybind11 --cmakedir)" -DPython_EXECUTABLE="$(command -v "$PY")" \
  -DCMAKE_CXX_FLAGS="-O0 $san" -DKUMO_BINDINGS_COMPILE_OPTIONS="-fno-sanitize=undefined" \
  -DCMAKE_CUDA_FLAGS_DEBUG="-O3 -DNDEBUG" \
  -DCMAKE_EXE_LINKER_FLAGS="$san -Wl,--as-needed" -DCMAKE_SHARED_LINKER_FLAGS="$san -Wl,--as-needed" \
  -DCMAKE_MODULE_LINKER_FLAGS="$san -Wl,--as-needed" >/dev/null
cmake --build build/asan -j"$JOBS"
end_stage
begin_stage "C++ tests (AddressSanitizer/UBSan, $((2 * JOBS)) shards)"
(
  # allocator_may_return_null: the allocator tests ask for impossible sizes to
  # reach the out-of-memory path, which needs a null pointer, not an abort.
  # protect_shadow_gap=0: on a GPU machine the CUDA driver maps memory where
  # ASan would otherwise reserve its shadow gap. LeakSanitizer runs at the
  # exit of every shard; it needs no suppressions: the third-party libraries
  # the tests load (OpenBLAS, the static CUDA runtime, NVRTC, cuRAND's host
  # generators) leave nothing unreachable. intercept_tls_get_addr=0: GCC's
  # sanitizer runtime (up to GCC 13) takes a dynamic TLS block of a dlopen'ed
  # module (the generated kernels) whose address happens to sit at a
  # particular offset in its page for a glibc 2.19 header and reads a
  # garbage range from the words before it; LeakSanitizer then scanned
  # hundreds of GB (a minute at a process's exit) or its tracer crashed
  # ("Tracer caught signal 11"). Dynamic TLS then goes unscanned; no test
  # keeps heap memory reachable only from there. Kernels built with the
  # sanitizers are cached apart from the others: the compiler command is part
  # of the key.
  export ASAN_OPTIONS="allocator_may_return_null=1:protect_shadow_gap=0:detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0"
  export UBSAN_OPTIONS="print_stacktrace=1"
  export KUMO_HOST_CXX="${KUMO_HOST_CXX:-c++} $san"
  # The GoogleTests run in a few processes (GoogleTest's sharding), not one
  # per test as ctest does: an instrumented process costs 0.2 s to start and
  # more to warm (the kernel modules it loads, the pools), and ctest spent
  # 223 s where the shards take about 60. The Release pass above runs every
  # test in a process of its own, so a test that passes only after another
  # still fails there. The downstream test (ctest's other test) links an
  # uninstrumented program against the installed, here instrumented,
  # libkumo, which ASan cannot run; it runs in the release pass.
  shards=$((2 * JOBS))
  rm -f build/asan/gtest-shard-*.log build/asan/gtest-failed-shards
  seq 0 $((shards - 1)) | xargs -P "$JOBS" -I{} sh -c \
    "GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX={} timeout 1800 build/asan/kumo_cpp_tests --gtest_brief=1 >build/asan/gtest-shard-{}.log 2>&1 || echo {} >>build/asan/gtest-failed-shards" \
    || true
  passed=$(cat build/asan/gtest-shard-*.log | sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\./\1/p' | awk '{s += $1} END {print s + 0}')
  skipped=$(cat build/asan/gtest-shard-*.log | sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\?[.,].*/\1/p' | awk '{s += $1} END {print s + 0}')
  echo "$passed tests passed, $skipped skipped (they need a GPU), in $shards shards (logs: build/asan/gtest-shard-*.log)"
  if [ -s build/asan/gtest-failed-shards ]; then
    for k in $(sort -n build/asan/gtest-failed-shards); do
      echo "[test] shard $k failed:"
      grep -vE ': Skipped$|^no CUDA device|^\[  SKIPPED \] ' "build/asan/gtest-shard-$k.log" | tail -n 200
    done
    exit 1
  fi
  ./build/asan/example_basic >/dev/null
)
end_stage

# A slice of the differential campaign with Python loading the instrumented
# library (build/asan's _core and libkumo in a package of their own), so an
# out-of-bounds read in the C++ routines is an error instead of a wrong
# answer. libasan goes first, and libstdc++ with it (Python does not link it;
# ASan's exception interceptor needs it loaded at start). Leak checking is
# off: the interpreter itself keeps memory to the end. The generated kernels
# here are the ordinary ones (instrumenting each would compile hundreds of
# them again); the C++ tests above run instrumented kernels.
begin_stage "differential campaign on the AddressSanitizer/UBSan library"
rm -rf build/asan/python && mkdir -p build/asan/python && cp -r python/kumo build/asan/python/
cp build/asan/_core*.so build/asan/libkumo.so build/asan/python/kumo/
[ -f build/asan/libkumo_cuda.so ] && cp build/asan/libkumo_cuda.so build/asan/python/kumo/
PYTHONPATH="$PWD/build/asan/python" \
  LD_PRELOAD="$(c++ -print-file-name=libasan.so) $(c++ -print-file-name=libstdc++.so)" \
  ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:protect_shadow_gap=0" UBSAN_OPTIONS="print_stacktrace=1" \
  KUMO_DIFF_CALLS=${KUMO_ASAN_DIFF_CALLS:-10000} $PY -m pytest -q -p no:cacheprovider tests/differential
end_stage

cd tests/python  # import the installed package, not the source tree
# The workers share the on-disk kernel cache: a kernel one of them is
# compiling is waited for, not compiled again, by the others
# (kernels/kernel_cache.cpp). --durations: the slowest tests, in the log.
begin_stage "pytest"
KUMO_VERIFY_CUDA=${KUMO_VERIFY_CUDA:-1} $PY -m pytest -q -n "$JOBS" -p no:cacheprovider --durations=30 .
end_stage
# Every public operation on every layout (negative strides, broadcast,
# offset views, 0-d, empty) against NumPy, in worker processes that may
# crash (tests/differential, docs/differential.md): a fixed seed and a fresh
# one (printed), about 2 x 70 s at most.
begin_stage "differential campaign (kumo vs NumPy, seeds 20240611 and a fresh one)"
$PY -m pytest -q -p no:cacheprovider ../differential
end_stage
begin_stage "pytest of kumo.sparse on the portable backend (the code CUDA arrays run)"
KUMO_SPARSE_BACKEND=portable $PY -m pytest -q -n "$JOBS" -p no:cacheprovider --durations=10 test_sparse_*.py
end_stage
