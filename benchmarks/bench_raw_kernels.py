"""Raw CUDA C++ kernels on the CPU (kumo.RawKernel through the CUDA-dialect
emulator) against kumo's built-in kernels and NumPy.

    python benchmarks/bench_raw_kernels.py [--repeat N]

1. saxpy y = a*x + y on 10^7 float32: a barrier-free RawKernel vs kumo's
   built-in elementwise (multiply(a, x, out=t); add(t, y, out=y) and an
   ElementwiseKernel doing it in one pass).  Target: within 1.25x.
2. A shared-memory block reduction (__shfl_down_sync + __syncthreads, fibers)
   over 10^7 float32 vs numpy.sum.  Target: within 5x.
3. The tiled 16x16 SGEMM example on 512x512: GFLOP/s.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _sidebyside import case  # noqa: E402

import kumo  # noqa: E402

SAXPY = r"""
extern "C" __global__ void saxpy(float a, const float* __restrict__ x, float* __restrict__ y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""

REDUCE = r"""
extern "C" __global__ void block_sum(const float* x, float* partial, long long n) {
  __shared__ float warp_sums[32];
  float v = 0.0f;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    v += x[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}
"""

# The same reduction with each block summing one contiguous chunk (threads
# stride by blockDim inside it: coalesced on a GPU, cache-resident for the
# fibers of one block on a CPU core).
CHUNK_REDUCE = r"""
extern "C" __global__ void chunk_sum(const float* x, float* partial, long long n, int per_thread) {
  __shared__ float warp_sums[32];
  long long chunk = (long long)blockDim.x * per_thread;
  long long begin = (long long)blockIdx.x * chunk, end = begin + chunk < n ? begin + chunk : n;
  float v = 0.0f;
  for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) v += x[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}
"""

SGEMM = r"""
#define TILE 16
extern "C" __global__ void sgemm(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    As[threadIdx.y][threadIdx.x] = (row < m && t + threadIdx.x < k) ? A[row * k + t + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < n && t + threadIdx.y < k) ? B[(t + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) acc += As[threadIdx.y][i] * Bs[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = acc;
}
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=20)
    args = p.parse_args()
    r = args.repeat
    n = 10 ** 7
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    kx, ky = kumo.asarray(x), kumo.asarray(y)
    a = np.float32(1.0001)

    print("1. saxpy, 10^7 float32 (kumo built-in as the reference column)")
    raw = kumo.RawKernel(SAXPY, "saxpy")
    threads = 256
    grid = ((n + threads - 1) // threads,)
    ek = kumo.ElementwiseKernel("T a, T x", "T y", "y = a * x + y", "saxpy_ek")
    tmp = kumo.empty_like(kx)

    def builtin():
        kumo.multiply(a, kx, out=tmp)
        kumo.add(tmp, ky, out=ky)

    case("built-in multiply+add (ref) vs RawKernel", builtin, lambda: raw(grid, (threads,), (a, kx, ky, n)), r)
    case("ElementwiseKernel (ref) vs RawKernel", lambda: ek(a, kx, ky), lambda: raw(grid, (threads,), (a, kx, ky, n)),
         r)
    case("numpy a*x+y (ref) vs RawKernel", lambda: np.add(a * x, y, out=y),
         lambda: raw(grid, (threads,), (a, kx, ky, n)), r)

    print("2. block reduction (__shfl_down_sync, __syncthreads) over 10^7 float32")
    # On the CPU every __shfl_down_sync / __syncthreads is a fiber switch per
    # CUDA thread, and the fibers of a block run one after another: a
    # GPU-style grid-stride loop over the whole array makes each fiber touch
    # one float per cache line of all of it. Few threads, each summing many
    # elements of its block's contiguous chunk, suit the CPU.
    red = kumo.RawKernel(REDUCE, "block_sum")
    chunked = kumo.RawKernel(CHUNK_REDUCE, "chunk_sum")
    want = float(x.astype(np.float64).sum())
    configs = [("grid-stride, 1024 blocks x 256", red, 1024, 256, None),
               ("chunked, 64 threads x 1024 items", chunked, None, 64, 1024)]
    for label, kern, blocks, threads, per in configs:
        if blocks is None:
            blocks = (n + threads * per - 1) // (threads * per)
        partial = kumo.zeros(blocks, dtype="float32")
        extra = () if per is None else (np.int32(per),)

        def raw_sum(kern=kern, blocks=blocks, threads=threads, partial=partial, extra=extra):
            kern((blocks,), (threads,), (kx, partial, n) + extra)
            return kumo.sum(partial)

        got = float(raw_sum())
        assert abs(got - want) <= 1e-3 * max(1.0, abs(want)), (got, want)
        case("numpy.sum vs RawKernel " + label, lambda: np.sum(x), raw_sum, r, width=58)

    print("3. tiled SGEMM 512x512 (16x16 tiles, shared memory)")
    m = 512
    A = rng.standard_normal((m, m)).astype(np.float32)
    B = rng.standard_normal((m, m)).astype(np.float32)
    kA, kB, kC = kumo.asarray(A), kumo.asarray(B), kumo.zeros((m, m), dtype="float32")
    sg = kumo.RawModule(code=SGEMM).get_function("sgemm")
    g = ((m + 15) // 16, (m + 15) // 16)
    sg(g, (16, 16), (kA, kB, kC, m, m, m))
    np.testing.assert_allclose(kumo.asnumpy(kC), A @ B, rtol=1e-3, atol=1e-3)
    best = float("inf")
    for _ in range(max(3, r // 4)):
        t0 = time.perf_counter()
        sg(g, (16, 16), (kA, kB, kC, m, m, m))
        best = min(best, time.perf_counter() - t0)
    tn = min(timeit_once(lambda: A @ B) for _ in range(max(3, r // 4)))
    flops = 2.0 * m ** 3
    print("RawModule sgemm 512^3: %.2f ms = %.2f GFLOP/s   (numpy matmul/BLAS: %.2f ms = %.1f GFLOP/s)" %
          (best * 1e3, flops / best / 1e9, tn * 1e3, flops / tn / 1e9))


def timeit_once(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
