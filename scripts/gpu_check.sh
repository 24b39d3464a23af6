#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, for a machine with one GPU and many
# cores (sized to finish in under 8 minutes on 16 cores):
#   1. setup and the Release build with all cores (scripts/setup.sh);
#   2. the C++ tests that run CUDA code (plugin, NVRTC loading, cuBLAS and
#      cuSOLVER linalg, CUB sorts, cuDNN, cuRAND device generators, fused
#      optimizers, raw modules);
#   3. pytest with arrays on the GPU (KUMO_DEVICE=cuda) over a subset that
#      touches every CUDA library kumo uses: cuBLAS, cuSOLVER, cuSPARSE,
#      cuRAND, cuFFT, cuDNN, CUB and NCCL with one rank;
#   4. a few GPU timings (matmul, a reduction, an FFT, a sort).
# Prints one summary table; the exit status is non-zero when a step failed.
# Logs are kept in build/gpu_check/.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
JOBS=${JOBS:-$(nproc)}
logs=build/gpu_check
mkdir -p "$logs"
names=() statuses=() seconds=()
step() {
  local name=$1 log="$logs/$(echo "$1" | tr -c 'A-Za-z0-9\n' '_').log"
  shift
  echo "[gpu_check] $name"
  local start=$(date +%s) status=PASS
  "$@" >"$log" 2>&1 || status=FAIL
  names+=("$name") statuses+=("$status") seconds+=($(( $(date +%s) - start )))
  tail -n 3 "$log"
}

step "nvidia-smi" nvidia-smi -L
export CMAKE_BUILD_PARALLEL_LEVEL=$JOBS
step "setup and Release build ($JOBS jobs)" env KUMO_BUILD_TESTS=1 bash scripts/setup.sh
release_tree=$(dirname "$(ls -t $(grep -l '^SKBUILD:' build/*/CMakeCache.txt) | head -n 1)")
step "ctest: CUDA, cuBLAS/cuSOLVER, CUB, cuDNN, cuRAND, raw modules" \
  ctest --test-dir "$release_tree" -j"$JOBS" --output-on-failure \
  -R 'Cuda|Cub|Cudnn|RandomDevice|OptimizersCuda|RawModuleCuda|Nvrtc'
# Each worker process holds a CUDA context: eight share the GPU well.
gpu_tests=(test_device.py test_products.py test_linalg_solve.py test_linalg_decomp.py
           test_sparse_formats.py test_sparse_arithmetic.py test_sparse_linalg_isolve.py
           test_random_core.py test_random_continuous.py test_fft.py test_cudnn.py test_autograd_conv.py
           test_sorting.py test_unique_composed.py test_ufuncs.py test_reductions.py test_advanced_indexing.py
           test_elementwise_kernel.py test_raw_kernels.py test_fusion.py test_optimizers.py
           test_distributed_nccl.py test_dlpack.py)
existing=()
for t in "${gpu_tests[@]}"; do [ -f "tests/python/$t" ] && existing+=("$t"); done
step "pytest on the GPU (KUMO_DEVICE=cuda, ${#existing[@]} files)" \
  env KUMO_DEVICE=cuda bash -c "cd tests/python && $PY -m pytest -q -n 8 -p no:cacheprovider -x ${existing[*]}"
step "GPU timings" env KUMO_DEVICE=cuda $PY - <<'PYEOF'
import time
import numpy
import kumo

assert kumo.get_device().type == "cuda", kumo.get_device()


def best(fn, repeat=5):
    fn()
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


a = kumo.random.rand(4096, 4096).astype("float32")
x = kumo.random.rand(10**8)
z = kumo.random.rand(2**22)
s = kumo.random.rand(10**7)
# A host read of one element waits for the work before it.
print("matmul 4096^2 float32: %.2f ms" % (best(lambda: float((a @ a)[0, 0])) * 1e3))
print("sum of 1e8 float64:    %.2f ms" % (best(lambda: float(x.sum())) * 1e3))
print("fft of 2^22 float64:   %.2f ms" % (best(lambda: float(kumo.fft.fft(z)[0].real)) * 1e3))
print("sort of 1e7 float64:   %.2f ms" % (best(lambda: float(kumo.sort(s)[0])) * 1e3))
numpy.testing.assert_allclose(kumo.asnumpy((a @ a)[:4, :4]), kumo.asnumpy(a[:4]) @ kumo.asnumpy(a[:, :4]), rtol=1e-3)
PYEOF

echo "[gpu_check] summary:"
failed=0
for i in "${!names[@]}"; do
  printf '[gpu_check]   %-5s %5d s  %s\n' "${statuses[$i]}" "${seconds[$i]}" "${names[$i]}"
  [ "${statuses[$i]}" = PASS ] || failed=1
done
echo "[gpu_check] logs: $logs/"
exit $failed
