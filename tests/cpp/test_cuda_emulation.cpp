// The CUDA host emulator: CUDA C++ sources are translated, compiled by the host
// compiler and launched on the thread pool; results are compared with plain C++.
// Several kernels share a module to keep the number of compiles small.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>

#include <chrono>
#include <cmath>
#include <cstdio>
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
  EXPECT_NE(m.src.source.find("__kumo_run_loop<&saxpy, false>"), std::string::npos);  // no fibers
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

namespace {

const char* kMisc = R"CUDA(
#include <cuda_fp16.h>
#include <cuComplex.h>
#include <thrust/complex.h>

__device__ int counter;
__constant__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};

// Atomics from every thread of many concurrent blocks.
extern "C" __global__ void atomics(float* f, double* d, __half* h, unsigned long long* u, int* imax, unsigned* inc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(f, 1.0f);
  atomicAdd(d, 0.5);
  atomicAdd(h, __float2half(1.0f));
  atomicAdd(u, 3ull);
  atomicMax(imax, i);
  atomicInc(inc, 9u);
  atomicAdd(&counter, 1);
}

extern "C" __global__ void read_globals(float* out) { out[threadIdx.x] = table[threadIdx.x] + counter; }

template <typename T, int N>
__global__ void scale(T* x, T s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < N; ++k) x[i] *= s;
}

// Intrinsics, math, half, complex and vector types, one result each.
extern "C" __global__ void intrinsics(double* out) {
  int k = 0;
  out[k++] = __popc(0xf0f0u);
  out[k++] = __clz(1);
  out[k++] = __ffs(8);
  out[k++] = __brev(1u);
  out[k++] = __byte_perm(0x11223344u, 0x55667788u, 0x7531u);
  out[k++] = __funnelshift_l(0x80000000u, 1u, 1u);
  out[k++] = __umulhi(0xffffffffu, 2u);
  out[k++] = __sad(3, 10, 1u);
  out[k++] = min(3, 7) + max(2.5f, 1.0f);
  out[k++] = rsqrtf(4.0f);
  float s, c;
  sincosf(0.5f, &s, &c);
  out[k++] = s * s + c * c;
  out[k++] = __float2int_rn(2.5f) + __float2int_rn(3.5f);
  out[k++] = __int_as_float(0x3f800000);
  out[k++] = __half2float(__hadd(__float2half(1.5f), __float2half(2.25f)));
  cuFloatComplex z = cuCmulf(make_cuFloatComplex(1, 2), make_cuFloatComplex(3, 4));
  out[k++] = cuCrealf(z) * 100 + cuCimagf(z);
  out[k++] = cuCabs(make_cuDoubleComplex(3, 4));
  thrust::complex<double> w = thrust::complex<double>(1, 1) * thrust::complex<double>(2, -1);
  out[k++] = w.real() * 10 + w.imag();
  float4 v = make_float4(1, 2, 3, 4);
  out[k++] = v.x + v.y * v.z + v.w + sizeof(float4) + alignof(double2);
  out[k++] = normcdff(0.0f);
  out[k++] = erfcinvf(1.0f);
  out[k++] = exp10f(2.0f);
  out[k++] = __saturatef(1.5f) + __saturatef(-1.0f);
}
)CUDA";

const Module& misc() {
  static Module m = build(kMisc, {"atomics", "read_globals", "scale<float, 3>", "scale<int, 2>", "intrinsics"});
  return m;
}

}  // namespace

TEST(CudaEmulation, AtomicsOnEveryType) {
  float f = 0;
  double d = 0;
  uint16_t h = 0;  // __half 0.0
  unsigned long long u = 0;
  int imax = -1;
  unsigned inc = 0;
  const int nb = 40, nt = 64, n = nb * nt;  // 2560 threads
  int* counter = static_cast<int*>(misc().mod->symbol("counter"));
  *counter = 0;
  launch(misc().entry("atomics"), {nb}, {nt}, 0, &f, &d, reinterpret_cast<void*>(&h), &u, &imax, &inc);
  EXPECT_EQ(f, static_cast<float>(n));
  EXPECT_EQ(d, 0.5 * n);
  EXPECT_EQ(h, 0x6800);  // 2048: there half's spacing is 2 and 2048 + 1 rounds back to even
  EXPECT_EQ(u, 3ull * n);
  EXPECT_EQ(imax, n - 1);
  EXPECT_EQ(inc, static_cast<unsigned>(n % 10));
  EXPECT_EQ(*counter, n);
}

TEST(CudaEmulation, DeviceGlobalsThroughDlsym) {
  void* table = misc().mod->symbol("table");
  Dl_info info;
  ElfW(Sym)* sym = nullptr;
  ASSERT_NE(dladdr1(table, &info, reinterpret_cast<void**>(&sym), RTLD_DL_SYMENT), 0);
  ASSERT_NE(sym, nullptr);
  EXPECT_EQ(sym->st_size, 4 * sizeof(float));
  int* counter = static_cast<int*>(misc().mod->symbol("counter"));
  *counter = 10;
  static_cast<float*>(table)[3] = -1.0f;  // written by the host as cudaMemcpyToSymbol would
  std::vector<float> out(4);
  launch(misc().entry("read_globals"), {1}, {4}, 0, out.data());
  EXPECT_EQ(out, (std::vector<float>{11.5f, 12.5f, 13.5f, 9.0f}));
}

TEST(CudaEmulation, TemplateKernelsThroughExpressions) {
  std::vector<float> xf(64, 1.0f);
  std::vector<int> xi(64, 3);
  launch(misc().entry("scale<float, 3>"), {2}, {32}, 0, xf.data(), 2.0f);
  launch(misc().entry("scale<int, 2>"), {2}, {32}, 0, xi.data(), -3);
  for (float v : xf) ASSERT_EQ(v, 8.0f);
  for (int v : xi) ASSERT_EQ(v, 27);
  // Without expressions, template kernels get no entry.
  EXPECT_EQ(translate_cuda_for_host(kMisc, {}, {}).entries.size(), 3u);
}

TEST(CudaEmulation, IntrinsicsMathHalfComplexVectors) {
  std::vector<double> out(22, -999);
  launch(misc().entry("intrinsics"), {1}, {1}, 0, out.data());
  const double ref[] = {8,    31,        4, 2147483648.0, 0x55771133u,         3,   1, 8,   5.5, 0.5, 1, 6, 1,
                        3.75, -500 + 10, 5, 31,           1 + 6 + 4 + 16 + 16, 0.5, 0, 100, 1};
  for (size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], ref[i], 1e-5) << "result " << i;
}

namespace {

// The CompileError message of translating `src`, or "" if it translated.
std::string translate_error(const std::string& src) {
  try {
    translate_cuda_for_host(src, {}, {});
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in: " << text;
}

}  // namespace

TEST(CudaEmulation, InlineAsmIsRejectedWithItsLine) {
  std::string e =
      translate_error("__global__ void k(int* x) {\n  int v;\n  asm volatile(\"mov.u32 %0, 1;\" : \"=r\"(v));\n}\n");
  expect_contains(e, "inline PTX assembly");
  expect_contains(e, "line 3");
  e = translate_error("__global__ void k(int* x) {\n  asm(\"exit;\");\n}\n");
  expect_contains(e, "line 2");
  // Words in comments and strings do not count.
  EXPECT_EQ(translate_error("// asm(\"x\") and tex2D(t, 1, 2)\n__global__ void k(const char* s) { }\n"), "");
}

TEST(CudaEmulation, TexturesAndSurfacesAreRejected) {
  std::string e =
      translate_error("__global__ void k(cudaTextureObject_t t, float* y) {\n  y[0] = tex1Dfetch<float>(t, 0);\n}\n");
  expect_contains(e, "texture");
  expect_contains(e, "line 1");  // the first offending word: the parameter's type
  e = translate_error("texture<float, 1> tex;\n__global__ void k(float* y) { }\n");
  expect_contains(e, "texture");
  e = translate_error("__global__ void k(cudaSurfaceObject_t s) {\n\n  surf2Dwrite(1.0f, s, 0, 0);\n}\n");
  expect_contains(e, "surface");
}

TEST(CudaEmulation, DynamicParallelismIsRejected) {
  std::string e = translate_error(
      "__global__ void child(int* x) { x[0] = 1; }\n__global__ void parent(int* x) {\n  child<<<1, 1>>>(x);\n}\n");
  expect_contains(e, "dynamic parallelism");
  expect_contains(e, "line 3");
}

TEST(CudaEmulation, CompileErrorsShowTheUsersLine) {
  const std::string src = "__global__ void k(float* x) {\n  int i = threadIdx.x;\n  x[i] = undefined_name * 2;\n}\n";
  try {
    get_host_module(translate_cuda_for_host(src, {}, {}).source);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    expect_contains(e.what(), "kernel.cu:3:");
    expect_contains(e.what(), "undefined_name");
  }
}

TEST(CudaEmulation, OptionsDefineMacros) {
  Module m = build("__global__ void k(int* x) { x[threadIdx.x] = VALUE + FLAG; }\n", {},
                   {"-DVALUE=40", "--std=c++17", "-DFLAG", "-arch=sm_80"});
  std::vector<int> x(2);
  launch(m.entry("k"), {1}, {2}, 0, x.data());
  EXPECT_EQ(x, (std::vector<int>{41, 41}));
}

TEST(CudaEmulation, BadLaunchDimensionsRaise) {
  HostRangeFn f = barriers().entry("block_sum");
  float dummy = 0;
  int n = 0;
  EXPECT_THROW(launch(f, {0}, {32}, 0, &dummy, &dummy, n), ValueError);
  EXPECT_THROW(launch(f, {1}, {0}, 0, &dummy, &dummy, n), ValueError);
  EXPECT_THROW(launch(f, {1}, {1025}, 0, &dummy, &dummy, n), ValueError);
  EXPECT_THROW(launch(f, {1}, {32, 32, 2}, 0, &dummy, &dummy, n), ValueError);
  EXPECT_THROW(launch(f, {1}, {1, 1, 65}, 0, &dummy, &dummy, n), ValueError);
  EXPECT_THROW(launch(f, {1, 65536}, {32}, 0, &dummy, &dummy, n), ValueError);
  EXPECT_THROW(launch(f, {1}, {32}, 48 * 1024 + 1, &dummy, &dummy, n), ValueError);
  try {
    launch(f, {1}, {2048}, 0, &dummy, &dummy, n);
  } catch (const ValueError& e) {
    expect_contains(e.what(), "1024");
  }
}

namespace {

const char* kDivergent = R"CUDA(
// Threads that returned count as arrived: the barrier does not hang.
extern "C" __global__ void early_exit(int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t >= 40) return;
  s[t] = t;
  __syncthreads();
  out[t] = s[39 - t];
}
// Half a warp waits at a shuffle, the other half at __syncthreads: a deadlock.
extern "C" __global__ void mixed(int* out) {
  int t = threadIdx.x;
  if (t < 16) out[t] = __shfl_sync(0xffffffff, t, 0);
  else __syncthreads();
}
// Many blocks of 256 threads, each with barriers (the speed sanity check).
extern "C" __global__ void many(const float* x, float* out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = x[blockIdx.x * 256 + t];
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
)CUDA";

const Module& divergent() {
  static Module m = build(kDivergent);
  return m;
}

}  // namespace

TEST(CudaEmulation, ExitedThreadsCountAsArrived) {
  std::vector<int> out(64, -1);
  launch(divergent().entry("early_exit"), {1}, {64}, 0, out.data());
  for (int t = 0; t < 64; ++t) ASSERT_EQ(out[t], t < 40 ? 39 - t : -1) << t;
}

TEST(CudaEmulation, DivergentBarriersRaiseInsteadOfHanging) {
  std::vector<int> out(64, -1);
  try {
    launch(divergent().entry("mixed"), {2}, {32}, 0, out.data());
    FAIL() << "expected a RuntimeError";
  } catch (const RuntimeError& e) {
    expect_contains(e.what(), "deadlock");
  }
  // The runtime recovers: the next launch on the same threads works.
  launch(divergent().entry("early_exit"), {1}, {64}, 0, out.data());
  EXPECT_EQ(out[0], 39);
}

TEST(CudaEmulation, ManyBlocksLaunch) {
  const int nb = 10000;
  std::vector<float> x(nb * 256), out(nb, 0.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 4);
  auto t0 = std::chrono::steady_clock::now();
  launch(divergent().entry("many"), {nb}, {256}, 0, x.data(), out.data());
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  for (int b = 0; b < nb; ++b) ASSERT_EQ(out[b], 384.0f) << b;
  std::printf("[ info ] 10^4 blocks x 256 threads x 9 barriers: %.1f ms\n", ms);
}

TEST(CudaEmulation, PrecompiledHeaderCanBeTurnedOff) {
  setenv("KUMO_CUDA_HOST_PCH", "0", 1);
  EmulatedModuleSource off = translate_cuda_for_host(kBasic, {}, {});
  unsetenv("KUMO_CUDA_HOST_PCH");
  EXPECT_EQ(off.source.compare(0, cuda_host_header_source().size(), cuda_host_header_source()), 0);
  // With it (the default), the module includes the header whose .gch sits beside it, or pastes
  // the text where the cache directory cannot hold one; either way the same entries come out.
  EmulatedModuleSource on = translate_cuda_for_host(kBasic, {}, {});
  EXPECT_EQ(on.entries, off.entries);
}

TEST(CudaEmulation, CupyComplexLdgPrintfAndBraceInitialisedGlobals) {
  Module m = build(R"CUDA(#include <cupy/complex.cuh>
__device__ int offsets[2]{5, 7};
extern "C" __global__ void k(const complex<float>* z, float* out) {
  int i = threadIdx.x;
  complex<float> w = __ldg(&z[i]) * complex<float>(0, 1);
  out[i] = w.real() + w.imag() + offsets[i];
  if (i == 99) printf("unreachable\n");
}
)CUDA");
  EXPECT_NE(m.mod->symbol("offsets"), nullptr);
  struct C {
    float re, im;
  };
  std::vector<C> z = {{1, 2}, {3, 4}};
  std::vector<float> out(2);
  launch(m.entry("k"), {1}, {2}, 0, reinterpret_cast<void*>(z.data()), out.data());
  EXPECT_EQ(out, (std::vector<float>{-2 + 1 + 5, -4 + 3 + 7}));
}

TEST(CudaEmulation, WarpReduceMatchAndShflUpWithWidth) {
  Module m = build(R"CUDA(
extern "C" __global__ void k(int* out) {
  unsigned lane = threadIdx.x & 31;
  int v = 1;
  // Inclusive scan within groups of 8 lanes.
  for (int d = 1; d < 8; d <<= 1) {
    int u = __shfl_up_sync(0xffffffff, v, d, 8);
    if ((lane & 7) >= d) v += u;
  }
  out[threadIdx.x * 3 + 0] = v;
  out[threadIdx.x * 3 + 1] = __reduce_add_sync(0xffffffff, (unsigned)lane);
  out[threadIdx.x * 3 + 2] = (int)__match_any_sync(0xffffffff, lane % 4);
}
)CUDA");
  std::vector<int> out(32 * 3);
  launch(m.entry("k"), {1}, {32}, 0, out.data());
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(out[l * 3 + 0], l % 8 + 1) << l;
    EXPECT_EQ(out[l * 3 + 1], 496) << l;
    EXPECT_EQ(static_cast<unsigned>(out[l * 3 + 2]), 0x11111111u << (l % 4)) << l;
  }
}

TEST(CudaEmulation, RaisedDynamicSharedMemoryLimit) {
  HostRangeFn f = barriers().entry("block_scan");
  std::vector<int> x(64, 1), y(64, 0);
  int n = 64;
  int* xp = x.data();
  int* yp = y.data();
  void* params[] = {&xp, &yp, &n};
  EmulatedLaunch l{{1, 1, 1}, {64, 1, 1}, 100 * 1024, params};
  EXPECT_THROW(launch_emulated(f, l), ValueError);
  launch_emulated(f, l, 100 * 1024);
  EXPECT_EQ(y[63], 64);
}

TEST(CudaEmulation, BarriersHiddenInOptionsOrLocalHeadersSelectFibers) {
  const std::string src = "__global__ void k(int* x) { SYNC; x[0] = 1; }\n";
  EXPECT_NE(translate_cuda_for_host(src, {}, {"-DSYNC=__syncthreads()"}).source.find("__kumo_run_fibers<&k >"),
            std::string::npos);
  EXPECT_NE(translate_cuda_for_host("#include \"mine.cuh\"\n" + src, {}, {}).source.find("__kumo_run_fibers<&k >"),
            std::string::npos);
  EXPECT_NE(translate_cuda_for_host(src, {}, {"-DSYNC=0"}).source.find("__kumo_run_loop<&k, false>"), std::string::npos);
}

TEST(CudaEmulation, BarrierInALoopModeKernelRaises) {
  // The barrier comes from a function-like macro the translator's word scan does not match.
  Module m = build("#define CAT(a, b) a##b\n__global__ void k(int* x) { CAT(__sync, threads)(); x[0] = 1; }\n");
  ASSERT_NE(m.src.source.find("__kumo_run_loop<&k, false>"), std::string::npos);
  int x = 0;
  EXPECT_THROW(launch(m.entry("k"), {1}, {4}, 0, &x), RuntimeError);
}

// ---- Loop mode with the built-ins as values (the vectorised thread loop) ----------------
namespace {

const char* kLoopBuiltins = R"CUDA(
extern "C" __global__ void saxpy_i(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void saxpy_ll(float a, const float* __restrict__ x, float* __restrict__ y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
// Each thread reads what the previous one wrote when out == in + 1.
extern "C" __global__ void shift_add(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1;
}
extern "C" __global__ void add2d(const float* a, const float* b, float* c, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) c[row * cols + col] = a[row * cols + col] + 2.0f * b[row * cols + col];
}
extern "C" __global__ void no_params(void /* nothing */) {}
extern "C" __global__ void own_block_dim(int* out);
extern "C" __global__ void own_block_dim(int* out) {
  int blockDim = 7;  // a kernel may shadow a built-in
  out[threadIdx.x] = blockDim + threadIdx.x;
}
extern "C" __global__ void block_ids(int* out) { out[blockIdx.x] = blockIdx.x + gridDim.x; }
)CUDA";

const Module& loop_builtins() {
  static const Module m = build(kLoopBuiltins);
  return m;
}

}  // namespace

TEST(CudaEmulation, LoopModePassesBuiltinsAsValues) {
  const Module& m = loop_builtins();
  EXPECT_NE(m.src.source.find("saxpy_i(__KumoBuiltins __kumo_bi, float a"), std::string::npos);
  EXPECT_NE(m.src.source.find("__kumo_run_loop<&saxpy_i, false>"), std::string::npos);
  EXPECT_NE(m.src.source.find("no_params(__KumoBuiltins __kumo_bi"), std::string::npos);
  // A tail block (n not a multiple of the block), both index widths.
  for (int n : {1, 100, 1000, 4099}) {
    std::vector<float> x(n), y(n), y2, ref(n);
    for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 1.0f - i, ref[i] = 2.0f * x[i] + y[i];
    y2 = y;
    std::vector<float> guard(y);
    guard.resize(n + 64, -5.0f);  // elements past n must stay untouched
    launch(m.entry("saxpy_i"), {(uint32_t)(n + 127) / 128}, {128}, 0, 2.0f, x.data(), guard.data(), n);
    launch(m.entry("saxpy_ll"), {(uint32_t)(n + 255) / 256}, {256}, 0, 2.0f, x.data(), y2.data(), (long long)n);
    for (int i = 0; i < n; ++i) ASSERT_EQ(guard[i], ref[i]) << n << " " << i;
    for (int i = n; i < n + 64; ++i) ASSERT_EQ(guard[i], -5.0f) << n << " " << i;
    for (int i = 0; i < n; ++i) ASSERT_EQ(y2[i], ref[i]) << n << " " << i;
  }
}

TEST(CudaEmulation, LoopModeAliasingPointersKeepThreadOrder) {
  const Module& m = loop_builtins();
  const int n = 1000;
  // x == y: y = 2y + y.
  std::vector<float> y(n);
  for (int i = 0; i < n; ++i) y[i] = float(i);
  launch(m.entry("saxpy_i"), {8}, {128}, 0, 2.0f, y.data(), y.data(), n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], 3.0f * i) << i;
  // out == in + 1: threads run in order, each reads its predecessor's result.
  std::vector<int> v(n + 1, 100);
  v[0] = 0;
  launch(m.entry("shift_add"), {8}, {128}, 0, v.data(), v.data() + 1, n);
  for (int i = 0; i <= n; ++i) ASSERT_EQ(v[i], i) << i;
}

TEST(CudaEmulation, LoopModeTwoDimensionalBlocks) {
  const Module& m = loop_builtins();
  const int rows = 37, cols = 53;
  std::vector<float> a(rows * cols), b(rows * cols), c(rows * cols, -1.0f);
  for (int i = 0; i < rows * cols; ++i) a[i] = float(i), b[i] = float(3 * i % 17);
  launch(m.entry("add2d"), {4, 3}, {16, 16}, 0, a.data(), b.data(), c.data(), rows, cols);
  for (int i = 0; i < rows * cols; ++i) ASSERT_EQ(c[i], a[i] + 2.0f * b[i]) << i;
}

TEST(CudaEmulation, LoopModeShadowedBuiltinAndEmptyParameters) {
  const Module& m = loop_builtins();
  std::vector<int> out(32, -1);
  launch(m.entry("own_block_dim"), {1}, {32}, 0, out.data());
  for (int t = 0; t < 32; ++t) ASSERT_EQ(out[t], 7 + t);
  launch(m.entry("no_params"), {2}, {4}, 0);
}

TEST(CudaEmulation, LoopModeGridBeyondTwoToTheTwenty) {
  // More than 2^20 blocks along x: the loop without the narrowed block index.
  const Module& m = loop_builtins();
  const uint32_t g = (1u << 20) + 3;
  std::vector<int> out(g, -1);
  launch(m.entry("block_ids"), {g}, {1}, 0, out.data());
  for (uint32_t b = 0; b < g; ++b) ASSERT_EQ(out[b], int(b + g)) << b;
  const int n = int(g) + 1;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  launch(m.entry("saxpy_i"), {g + 1}, {1}, 0, 3.0f, x.data(), y.data(), n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], 5.0f) << i;
}

TEST(CudaEmulation, LoopModeDeviceFunctionReadingThreadIdx) {
  // The device function reads the thread-local threadIdx: it is stored for every thread.
  Module m = build(R"CUDA(
__device__ int lane_id() { return threadIdx.x + blockDim.x * threadIdx.y; }
__device__ int block_base() { return blockIdx.x * blockDim.x * blockDim.y; }
__global__ void k(int* out, int n) {
  int i = block_base() + lane_id();
  if (i < n) out[i] = i * 3 + (int)threadIdx.y;
}
)CUDA");
  ASSERT_NE(m.src.source.find("__kumo_run_loop<&k, true>"), std::string::npos);
  const int n = 150;
  std::vector<int> out(n + 10, -1);
  launch(m.entry("k"), {3}, {8, 8}, 0, out.data(), n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], i * 3 + (i % 64) / 8) << i;
  for (int i = n; i < n + 10; ++i) ASSERT_EQ(out[i], -1);
}

TEST(CudaEmulation, LoopModeFallsBackForLambdasAndMacroKernels) {
  // A captureless lambda cannot read a local threadIdx: the module keeps the thread-local loop.
  Module m = build(R"CUDA(
__global__ void k(int* out) {
  auto f = [](int v) { return v + (int)threadIdx.x; };
  out[threadIdx.x] = f(10);
}
)CUDA");
  EXPECT_EQ(m.src.source.find("__kumo_bi"), std::string::npos);
  ASSERT_NE(m.src.source.find("__kumo_run_loop<&k, true>"), std::string::npos);
  std::vector<int> out(16, -1);
  launch(m.entry("k"), {1}, {16}, 0, out.data());
  for (int t = 0; t < 16; ++t) ASSERT_EQ(out[t], 10 + t);
  const std::string macro = "#define KERNEL(name) __global__ void name(int* out)\nKERNEL(k) { out[threadIdx.x] = 1; }\n";
  EXPECT_EQ(translate_cuda_for_host(macro, {}, {}).source.find("__kumo_bi"), std::string::npos);
}
