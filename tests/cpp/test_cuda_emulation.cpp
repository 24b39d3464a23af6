// The CUDA host emulator: CUDA C++ sources are translated, compiled by the host
// compiler and launched on the thread pool; results are compared with plain C++.
// Several kernels share a module to keep the number of compiles small.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "core/errors.h"
#include "kernels/host/cuda_emulation.h"
#include "kernels/kernel_cache.h"

using namespace kumo;
using namespace kumo::kernels;

namespace {

struct Module {
  EmulatedModuleSource src;
  std::shared_ptr<HostModule> mod;
  HostRangeFn entry(const std::string& expr) const {
    for (auto& e : src.entries)
      if (e.first == expr) return reinterpret_cast<HostRangeFn>(mod->symbol(e.second.c_str()));
    throw std::runtime_error("no entry " + expr);
  }
};

Module build(const std::string& cuda, const std::vector<std::string>& exprs = {},
             const std::vector<std::string>& options = {}) {
  Module m;
  m.src = translate_cuda_for_host(cuda, exprs, options);
  m.mod = get_host_module(m.src.source);
  return m;
}

struct D3 {
  uint32_t x = 1, y = 1, z = 1;
};

// Launches with cuLaunchKernel-style arguments: params[i] is argument i's address.
template <typename... A>
void launch(HostRangeFn f, D3 grid, D3 block, uint64_t smem, A... args) {
  void* params[sizeof...(A) + 1] = {static_cast<void*>(&args)...};
  EmulatedLaunch l{{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, smem, params};
  launch_emulated(f, l);
}

const char* kBasic = R"CUDA(
#include <cuda_runtime.h>
#include <cstdint>
// saxpy: no barrier, runs as a plain loop
extern "C" __global__ void saxpy(float a, const float* __restrict__ x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void __launch_bounds__(256) index3d(int* out) {
  int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int nthreads = blockDim.x * blockDim.y * blockDim.z;
  out[bx * nthreads + tx] = bx * 1000 + tx;
}
)CUDA";

}  // namespace

TEST(CudaEmulation, SaxpyWithoutBarriers) {
  Module m = build(kBasic);
  ASSERT_EQ(m.src.entries.size(), 2u);
  EXPECT_EQ(m.src.source.find("__kumo_run_fibers(&saxpy"), std::string::npos);
  const int n = 1000;
  std::vector<float> x(n), y(n), ref(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 1.0f - i, ref[i] = 2.0f * x[i] + y[i];
  launch(m.entry("saxpy"), {(n + 127) / 128}, {128}, 0, 2.0f, x.data(), y.data(), n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], ref[i]) << i;
}

TEST(CudaEmulation, MultiDimensionalGridsAndBlocks) {
  Module m = build(kBasic);
  D3 grid{3, 2, 2}, block{4, 3, 2};
  const int nb = 12, nt = 24;
  std::vector<int> out(nb * nt, -1);
  launch(m.entry("index3d"), grid, block, 0, out.data());
  for (int b = 0; b < nb; ++b)
    for (int t = 0; t < nt; ++t) ASSERT_EQ(out[b * nt + t], b * 1000 + t);
}

namespace {

const char* kBarriers = R"CUDA(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Tree reduction in static shared memory.
extern "C" __global__ void block_sum(const float* x, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__device__ float warp_sum(float v) {
  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffff, v, d);
  return v;
}
// Warp shuffles, then the warps' partial sums through shared memory.
extern "C" __global__ void shfl_sum(const float* x, float* out, int n) {
  __shared__ float partial[32];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  float v = warp_sum(i < n ? x[i] : 0.0f);
  if ((t & 31) == 0) partial[t >> 5] = v;
  __syncthreads();
  if (t < 32) {
    v = t < (blockDim.x + 31) / 32 ? partial[t] : 0.0f;
    v = warp_sum(v);
    if (t == 0) out[blockIdx.x] = v;
  }
}

// 16-bin histogram in shared memory with shared atomics.
extern "C" __global__ void histogram(const unsigned char* x, unsigned* bins, int n) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[x[i] & 15], 1u);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// Hillis-Steele inclusive scan of one block in dynamic shared memory (double buffer).
extern "C" __global__ void block_scan(const int* x, int* y, int n) {
  extern __shared__ __align__(16) int buf[];
  int t = threadIdx.x;
  int* a = buf;
  int* b = buf + blockDim.x;
  a[t] = t < n ? x[t] : 0;
  __syncthreads();
  for (int d = 1; d < blockDim.x; d <<= 1) {
    b[t] = t >= d ? a[t] + a[t - d] : a[t];
    __syncthreads();
    int* tmp = a; a = b; b = tmp;
  }
  if (t < n) y[t] = a[t];
}

// Predicates across the block and the warp.
extern "C" __global__ void votes(const int* x, int* out) {
  int t = threadIdx.x;
  int p = x[t] > 0;
  int c = __syncthreads_count(p);
  int all = __syncthreads_and(p);
  int any = __syncthreads_or(p);
  unsigned bal = __ballot_sync(0xffffffff, p);
  int wany = __any_sync(0xffffffff, p), wall = __all_sync(0xffffffff, p);
  out[t * 6 + 0] = c; out[t * 6 + 1] = all; out[t * 6 + 2] = any;
  out[t * 6 + 3] = (int)bal; out[t * 6 + 4] = wany; out[t * 6 + 5] = wall;
}

// Butterfly: every lane ends with the warp's sum.
extern "C" __global__ void butterfly(const int* x, int* out) {
  int v = x[threadIdx.x];
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
  out[threadIdx.x] = v;
}

// Cooperative groups: tiles of 8 reduce with shfl_down.
extern "C" __global__ void tile_sum(const int* x, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  int v = x[block.thread_rank()];
  for (int d = tile.size() / 2; d > 0; d >>= 1) v += tile.shfl_down(v, d);
  block.sync();
  if (tile.thread_rank() == 0) out[block.thread_rank() / 8] = v;
}
)CUDA";

const Module& barriers() {
  static Module m = build(kBarriers);
  return m;
}

}  // namespace

TEST(CudaEmulation, SharedMemoryReductionWithSyncthreads) {
  const int n = 256 * 37 + 11, nb = 38;
  std::vector<float> x(n), out(nb, -1.0f);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7);
  launch(barriers().entry("block_sum"), {nb}, {256}, 0, x.data(), out.data(), n);
  for (int b = 0; b < nb; ++b) {
    float ref = 0;
    for (int i = b * 256; i < std::min(n, (b + 1) * 256); ++i) ref += x[i];
    ASSERT_EQ(out[b], ref) << b;
  }
}

TEST(CudaEmulation, WarpShuffleReduction) {
  const int n = 1000, nb = 5;  // 200 threads: the last warp is partial
  std::vector<float> x(n), out(nb, -1.0f);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 5);
  launch(barriers().entry("shfl_sum"), {nb}, {200}, 0, x.data(), out.data(), n);
  for (int b = 0; b < nb; ++b) {
    float ref = 0;
    for (int i = b * 200; i < (b + 1) * 200; ++i) ref += x[i];
    ASSERT_EQ(out[b], ref) << b;
  }
}

TEST(CudaEmulation, HistogramWithSharedAtomics) {
  const int n = 100000;
  std::vector<unsigned char> x(n);
  std::vector<unsigned> bins(16, 0), ref(16, 0);
  for (int i = 0; i < n; ++i) x[i] = static_cast<unsigned char>((i * 31) ^ (i >> 3)), ++ref[x[i] & 15];
  launch(barriers().entry("histogram"), {64}, {128}, 0, x.data(), bins.data(), n);
  EXPECT_EQ(bins, ref);
}

TEST(CudaEmulation, InclusiveScanInDynamicSharedMemory) {
  const int n = 500;
  std::vector<int> x(n), y(n, 0), ref(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 7) % 11 - 5;
  std::partial_sum(x.begin(), x.end(), ref.begin());
  launch(barriers().entry("block_scan"), {1}, {512}, 2 * 512 * sizeof(int), x.data(), y.data(), n);
  EXPECT_EQ(y, ref);
}

TEST(CudaEmulation, BlockAndWarpVotes) {
  const int nt = 64;
  std::vector<int> x(nt), out(nt * 6, -1);
  for (int i = 0; i < nt; ++i) x[i] = (i % 3 == 0) ? 1 : 0;
  x[32 + 5] = 1;
  for (int i = 32; i < 64; ++i) x[i] = 1;  // the second warp is all true
  launch(barriers().entry("votes"), {1}, {nt}, 0, x.data(), out.data());
  int count = 0;
  for (int v : x) count += v;
  unsigned bal0 = 0;
  for (int i = 0; i < 32; ++i) bal0 |= (x[i] ? 1u : 0u) << i;
  for (int t = 0; t < nt; ++t) {
    ASSERT_EQ(out[t * 6 + 0], count);
    ASSERT_EQ(out[t * 6 + 1], 0);
    ASSERT_EQ(out[t * 6 + 2], 1);
    ASSERT_EQ(static_cast<unsigned>(out[t * 6 + 3]), t < 32 ? bal0 : 0xffffffffu);
    ASSERT_EQ(out[t * 6 + 4], 1);
    ASSERT_EQ(out[t * 6 + 5], t < 32 ? 0 : 1);
  }
}

TEST(CudaEmulation, ShflXorButterfly) {
  std::vector<int> x(64), out(64, 0);
  for (int i = 0; i < 64; ++i) x[i] = i * i;
  launch(barriers().entry("butterfly"), {1}, {64}, 0, x.data(), out.data());
  int s0 = 0, s1 = 0;
  for (int i = 0; i < 32; ++i) s0 += x[i], s1 += x[32 + i];
  for (int i = 0; i < 64; ++i) ASSERT_EQ(out[i], i < 32 ? s0 : s1) << i;
}

TEST(CudaEmulation, CooperativeGroupsTiledPartition) {
  std::vector<int> x(128), out(16, 0);
  for (int i = 0; i < 128; ++i) x[i] = i;
  launch(barriers().entry("tile_sum"), {1}, {128}, 0, x.data(), out.data());
  for (int t = 0; t < 16; ++t) ASSERT_EQ(out[t], 8 * 8 * t + 28) << t;
}
