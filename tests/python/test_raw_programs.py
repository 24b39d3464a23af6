"""User programs written as raw CUDA C++ and run on the CPU: tiled SGEMM with
shared memory, a warp-shuffle block reduction, a shared-memory histogram, a
block prefix scan and a templated kernel, each compared with NumPy."""
import numpy as np
import pytest

import kumo

SGEMM_SRC = r'''
#define TILE 16
// C = A (m x k) @ B (k x n), row-major; one 16x16 tile of C per block.
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
'''

REDUCE_SRC = r'''
// Each block sums blockDim.x * 4 elements: a grid-stride load, warp
// reductions with __shfl_down_sync, then warp 0 reduces the warp sums.
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
'''

HIST_SRC = r'''
// 256-bin histogram of bytes: per-block bins in shared memory, merged with global atomics.
extern "C" __global__ void histogram(const unsigned char* data, long long n, unsigned int* bins) {
  __shared__ unsigned int local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    if (local[i]) atomicAdd(&bins[i], local[i]);
}
'''

SCAN_SRC = r'''
// Inclusive scan of each block's segment (Hillis-Steele in shared memory),
// block totals written to sums; a second kernel adds the scanned totals.
extern "C" __global__ void scan_blocks(const int* x, int* y, int* sums, int n) {
  extern __shared__ int buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? x[i] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int t = threadIdx.x >= off ? buf[threadIdx.x - off] : 0;
    __syncthreads();
    buf[threadIdx.x] += t;
    __syncthreads();
  }
  if (i < n) y[i] = buf[threadIdx.x];
  if (threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = buf[threadIdx.x];
}
extern "C" __global__ void add_offsets(int* y, const int* scanned_sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) y[i] += scanned_sums[blockIdx.x - 1];
}
'''

TEMPLATE_SRC = r'''
// y = alpha * x^P elementwise, for any arithmetic T and compile-time power P.
template <typename T, int P>
__global__ void scaled_power(const T* x, T* y, T alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T v = (T)1;
  for (int p = 0; p < P; ++p) v *= x[i];
  y[i] = alpha * v;
}
'''


@pytest.fixture(scope="module")
def sgemm():
    return kumo.RawModule(code=SGEMM_SRC).get_function("sgemm")


@pytest.mark.parametrize("m,n,k", [(16, 16, 16), (33, 17, 50), (1, 70, 3), (64, 1, 64), (100, 45, 31)])
def test_tiled_sgemm(sgemm, m, n, k):
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = kumo.zeros((m, n), dtype="float32")
    sgemm(((n + 15) // 16, (m + 15) // 16), (16, 16), (kumo.asarray(a), kumo.asarray(b), c, m, n, k))
    np.testing.assert_allclose(kumo.asnumpy(c), a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n", [1, 31, 1000, 65536 + 7])
@pytest.mark.parametrize("threads", [64, 256])
def test_block_reduction_with_shfl_down(n, threads):
    k = kumo.RawKernel(REDUCE_SRC, "block_sum")
    x = np.random.default_rng(n).random(n).astype(np.float32)
    blocks = min(64, (n + threads - 1) // threads)
    partial = kumo.zeros(blocks, dtype="float32")
    k((blocks,), (threads,), (kumo.asarray(x), partial, n))
    np.testing.assert_allclose(float(kumo.asnumpy(partial).sum()), float(x.astype(np.float64).sum()), rtol=1e-4)


@pytest.mark.parametrize("n", [0, 5, 10000, 300001])
def test_shared_memory_histogram(n):
    k = kumo.RawKernel(HIST_SRC, "histogram")
    data = np.random.default_rng(n).integers(0, 256, n).astype(np.uint8)
    bins = kumo.zeros(256, dtype="uint32")
    k((32,), (128,), (kumo.asarray(data), n, bins))
    np.testing.assert_array_equal(kumo.asnumpy(bins), np.bincount(data, minlength=256))


@pytest.mark.parametrize("n,threads", [(1, 32), (100, 32), (1000, 128), (4096, 256)])
def test_prefix_scan_with_syncthreads(n, threads):
    mod = kumo.RawModule(code=SCAN_SRC)
    x = np.random.default_rng(n).integers(-50, 50, n).astype(np.int32)
    blocks = (n + threads - 1) // threads
    y = kumo.zeros(n, dtype="int32")
    sums = kumo.zeros(blocks, dtype="int32")
    mod.get_function("scan_blocks")((blocks,), (threads,), (kumo.asarray(x), y, sums, np.int32(n)),
                                    shared_mem=threads * 4)
    scanned = kumo.cumsum(sums).astype("int32")
    mod.get_function("add_offsets")((blocks,), (threads,), (y, scanned, np.int32(n)))
    np.testing.assert_array_equal(kumo.asnumpy(y), np.cumsum(x, dtype=np.int32))


@pytest.mark.parametrize("expr,dtype,power", [("scaled_power<float, 2>", np.float32, 2),
                                              ("scaled_power<double, 3>", np.float64, 3),
                                              ("scaled_power<int, 4>", np.int32, 4),
                                              ("scaled_power<long long, 1>", np.int64, 1)])
def test_templated_kernel_through_name_expressions(expr, dtype, power):
    exprs = ["scaled_power<float, 2>", "scaled_power<double, 3>", "scaled_power<int, 4>", "scaled_power<long long, 1>"]
    mod = kumo.RawModule(code=TEMPLATE_SRC, name_expressions=exprs)
    x = np.arange(-5, 45).astype(dtype)
    y = kumo.zeros(50, dtype=dtype)
    mod.get_function(expr)((2,), (32,), (kumo.asarray(x), y, dtype(3), np.int32(50)))
    np.testing.assert_allclose(kumo.asnumpy(y), dtype(3) * x ** power, rtol=1e-6)
