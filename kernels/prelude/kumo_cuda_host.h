// Host emulation of the CUDA C++ dialect. The host kernel compiler reads this
// header before a user's CUDA source (translated by
// kernels/host/cuda_emulation.cpp), so that the same kernel text that NVRTC
// compiles for the GPU also compiles with the system C++ compiler and runs on
// the CPU: a grid's blocks run in parallel on Kumo's thread pool, the threads
// of a block run either as a plain loop (kernels without barriers or warp
// operations) or as fibers scheduled by libkumo (see KumoEmuRuntime below).
//
// Per-thread state (threadIdx, blockIdx, ...) and __shared__ memory are
// per-OS-thread globals: an OS thread runs one block at a time and every fiber
// of a block runs on that OS thread, so they behave as CUDA's per-block state.
// In loop mode the kernels themselves see the built-ins as locals passed in by
// the thread loop (__KumoBuiltins, near the end), which lets that loop vectorise.
#pragma once
#include <math.h>
#include <stdint.h>
#include <stdio.h>  // device printf
#include <stdlib.h>
#include <string.h>

#include <cmath>
#include <tuple>
#include <type_traits>
#include <utility>

// ---- Qualifiers -------------------------------------------------------------
// Kernels and device functions are hidden so that they inline into the thread
// loop (-fPIC would otherwise keep calls to them interposable); device
// variables (written __kumo_var by the translator) stay exported for dlsym.
#define __global__ __attribute__((visibility("hidden")))
#define __device__ __attribute__((visibility("hidden")))
#define __kumo_var
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __constant__
#define __managed__
#define __shared__ thread_local
// A GNU attribute, not alignas: CUDA code writes `__shared__ __align__(16) T x[]`,
// where a standard attribute may not stand among the decl-specifiers.
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __CUDA_ARCH__ 800
#define __KUMO_CUDA_HOST_EMULATION__ 1
#ifndef CUDART_INF_F
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_NAN __builtin_nan("")
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#endif

// ---- Vector types -----------------------------------------------------------
#define KUMO_VEC1(T, N, A)                                          \
  struct alignas(A) N##1 {                                          \
    T x;                                                            \
  };                                                                \
  struct alignas(A * 2) N##2 {                                      \
    T x, y;                                                         \
  };                                                                \
  struct N##3 {                                                     \
    T x, y, z;                                                      \
  };                                                                \
  struct alignas(A * 4 > 16 ? 16 : A * 4) N##4 {                    \
    T x, y, z, w;                                                   \
  };                                                                \
  inline N##1 make_##N##1(T x) { return N##1 {x}; }                 \
  inline N##2 make_##N##2(T x, T y) { return N##2 {x, y}; }         \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3 {x, y, z}; } \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4 {x, y, z, w}; }
KUMO_VEC1(signed char, char, 1)
KUMO_VEC1(unsigned char, uchar, 1)
KUMO_VEC1(short, short, 2)
KUMO_VEC1(unsigned short, ushort, 2)
KUMO_VEC1(int, int, 4)
KUMO_VEC1(unsigned int, uint, 4)
KUMO_VEC1(long, long, 8)
KUMO_VEC1(unsigned long, ulong, 8)
KUMO_VEC1(long long, longlong, 8)
KUMO_VEC1(unsigned long long, ulonglong, 8)
KUMO_VEC1(float, float, 4)
KUMO_VEC1(double, double, 8)
#undef KUMO_VEC1

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ---- The runtime interface (implemented in libkumo, kernels/host/cuda_emulation.cpp) ----
// Keep in sync with the definitions there.
struct KumoEmuBlockJob {
  uint32_t nthreads;
  uint32_t block_dim[3];
  void (*thread_main)(void* closure, uint32_t tid, void* blk);
  void* closure;
};
struct KumoEmuRuntime {
  uint32_t version;
  // Runs the threads of one block as fibers; returns when all have exited.
  // Throws (inside libkumo) on deadlock.
  void (*run_block)(const KumoEmuBlockJob* job);
  void (*sync_block)(void* blk);
  // Barrier that also counts non-zero predicates; *participants gets the number of threads that arrived.
  int (*sync_block_count)(void* blk, int pred, int* participants);
  // Warp barrier of the lanes in `mask`, exchanging one 64-bit word per lane:
  // returns the 32 words of this warp for this operation.
  const uint64_t* (*warp_exchange)(void* blk, uint64_t value, uint32_t mask);
};
// What launch_emulated passes to an entry: the EmulatedLaunch followed by the runtime.
struct KumoEmuLaunch {
  uint32_t grid[3];
  uint32_t block[3];
  uint64_t dynamic_shared_bytes;
  void** params;
  const KumoEmuRuntime* runtime;
};

struct KumoEmuThreadState {
  char* dyn_smem;
  const KumoEmuRuntime* rt;
  void* blk;
};
static thread_local uint3 threadIdx;
static thread_local uint3 blockIdx;
static thread_local dim3 blockDim;
static thread_local dim3 gridDim;
static thread_local KumoEmuThreadState __kumo_ts;
static constexpr int warpSize = 32;

inline unsigned __kumo_linear_tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned __kumo_lane() { return __kumo_linear_tid() & 31u; }
// Lanes that exist in this thread's warp (the last warp of a block may be partial).
inline unsigned __kumo_warp_lanes() {
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  unsigned base = __kumo_linear_tid() & ~31u;
  unsigned k = n - base >= 32 ? 32 : n - base;
  return k == 32 ? 0xffffffffu : ((1u << k) - 1u);
}

// ---- Barriers, fences ---------------------------------------------------------
// Each call switches fibers; the fiber-local copy restores threadIdx afterwards.
// The memory clobbers stop the compiler from keeping __shared__ values (static
// thread-locals whose address never escapes) in registers across the switch.
#define __KUMO_CLOBBER() __asm__ __volatile__("" ::: "memory")
inline void __syncthreads() {
  uint3 me = threadIdx;
  __KUMO_CLOBBER();
  __kumo_ts.rt->sync_block(__kumo_ts.blk);
  __KUMO_CLOBBER();
  threadIdx = me;
}
inline int __syncthreads_count(int pred) {
  uint3 me = threadIdx;
  int n = 0;
  __KUMO_CLOBBER();
  int c = __kumo_ts.rt->sync_block_count(__kumo_ts.blk, pred != 0, &n);
  __KUMO_CLOBBER();
  threadIdx = me;
  return c;
}
inline int __syncthreads_and(int pred) {
  uint3 me = threadIdx;
  int n = 0;
  __KUMO_CLOBBER();
  int c = __kumo_ts.rt->sync_block_count(__kumo_ts.blk, pred != 0, &n);
  __KUMO_CLOBBER();
  threadIdx = me;
  return c == n;
}
inline int __syncthreads_or(int pred) { return __syncthreads_count(pred) != 0; }
inline const uint64_t* __kumo_warp_xchg(uint64_t v, unsigned mask) {
  uint3 me = threadIdx;
  __KUMO_CLOBBER();
  const uint64_t* r = __kumo_ts.rt->warp_exchange(__kumo_ts.blk, v, mask);
  __KUMO_CLOBBER();
  threadIdx = me;
  return r;
}
inline void __syncwarp(unsigned mask = 0xffffffffu) { __kumo_warp_xchg(0, mask); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline unsigned __activemask() { return __kumo_warp_lanes(); }

// ---- Warp intrinsics (converged warps) ------------------------------------------
template <typename T>
inline uint64_t __kumo_pack(T v) {
  static_assert(sizeof(T) <= 8, "warp shuffles move at most 8 bytes");
  uint64_t w = 0;
  memcpy(&w, &v, sizeof(T));
  return w;
}
template <typename T>
inline T __kumo_unpack(uint64_t w) {
  T v;
  memcpy(&v, &w, sizeof(T));
  return v;
}
template <typename T>
inline T __shfl_sync(unsigned mask, T var, int src, int width = 32) {
  const uint64_t* row = __kumo_warp_xchg(__kumo_pack(var), mask);
  unsigned lane = __kumo_lane();
  unsigned s = (lane & ~unsigned(width - 1)) | (unsigned(src) & unsigned(width - 1));
  return __kumo_unpack<T>(row[s & 31u]);
}
template <typename T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32) {
  const uint64_t* row = __kumo_warp_xchg(__kumo_pack(var), mask);
  unsigned lane = __kumo_lane();
  if ((lane & unsigned(width - 1)) < delta) return var;
  return __kumo_unpack<T>(row[(lane - delta) & 31u]);
}
template <typename T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32) {
  const uint64_t* row = __kumo_warp_xchg(__kumo_pack(var), mask);
  unsigned lane = __kumo_lane();
  if ((lane & unsigned(width - 1)) + delta >= unsigned(width)) return var;
  return __kumo_unpack<T>(row[(lane + delta) & 31u]);
}
template <typename T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32) {
  const uint64_t* row = __kumo_warp_xchg(__kumo_pack(var), mask);
  unsigned lane = __kumo_lane();
  unsigned s = lane ^ unsigned(lane_mask);
  // Lanes of a later group of `width` are out of reach: the own value is returned.
  if ((s & ~unsigned(width - 1)) > (lane & ~unsigned(width - 1))) return var;
  return __kumo_unpack<T>(row[s & 31u]);
}
inline unsigned __ballot_sync(unsigned mask, int pred) {
  const uint64_t* row = __kumo_warp_xchg(pred != 0, mask);
  unsigned live = mask & __kumo_warp_lanes(), r = 0;
  for (unsigned i = 0; i < 32; ++i)
    if (((live >> i) & 1u) && row[i]) r |= 1u << i;
  return r;
}
inline int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
inline int __all_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) == (mask & __kumo_warp_lanes()); }
inline int __uni_sync(unsigned mask, int pred) {
  unsigned b = __ballot_sync(mask, pred);
  return b == 0 || b == (mask & __kumo_warp_lanes());
}
template <typename T>
inline unsigned __match_any_sync(unsigned mask, T value) {
  uint64_t mine = __kumo_pack(value);
  const uint64_t* row = __kumo_warp_xchg(mine, mask);
  unsigned live = mask & __kumo_warp_lanes(), r = 0;
  for (unsigned i = 0; i < 32; ++i)
    if (((live >> i) & 1u) && row[i] == mine) r |= 1u << i;
  return r;
}
template <typename T>
inline unsigned __match_all_sync(unsigned mask, T value, int* pred) {
  unsigned live = mask & __kumo_warp_lanes();
  unsigned m = __match_any_sync(mask, value);
  *pred = m == live;
  return m == live ? live : 0u;
}
#define KUMO_WARP_REDUCE(NAME, T, INIT, OP)                        \
  inline T NAME(unsigned mask, T value) {                          \
    const uint64_t* row = __kumo_warp_xchg((uint64_t)value, mask); \
    unsigned live = mask & __kumo_warp_lanes();                    \
    T r = INIT;                                                    \
    for (unsigned i = 0; i < 32; ++i)                              \
      if ((live >> i) & 1u) {                                      \
        T v = (T)row[i];                                           \
        r = OP;                                                    \
      }                                                            \
    return r;                                                      \
  }
KUMO_WARP_REDUCE(__reduce_add_sync, unsigned, 0u, r + v)
KUMO_WARP_REDUCE(__reduce_add_sync, int, 0, (int)((unsigned)r + (unsigned)v))
KUMO_WARP_REDUCE(__reduce_min_sync, unsigned, 0xffffffffu, v < r ? v : r)
KUMO_WARP_REDUCE(__reduce_min_sync, int, 0x7fffffff, v < r ? v : r)
KUMO_WARP_REDUCE(__reduce_max_sync, unsigned, 0u, v > r ? v : r)
KUMO_WARP_REDUCE(__reduce_max_sync, int, (int)0x80000000, v > r ? v : r)
KUMO_WARP_REDUCE(__reduce_and_sync, unsigned, 0xffffffffu, r& v)
KUMO_WARP_REDUCE(__reduce_or_sync, unsigned, 0u, r | v)
KUMO_WARP_REDUCE(__reduce_xor_sync, unsigned, 0u, r ^ v)
#undef KUMO_WARP_REDUCE

// ---- Cache-hinted loads and stores, clocks ------------------------------------
template <typename T>
inline T __ldg(const T* p) {
  return *p;
}
template <typename T>
inline T __ldcg(const T* p) {
  return *p;
}
template <typename T>
inline T __ldca(const T* p) {
  return *p;
}
template <typename T>
inline T __ldcs(const T* p) {
  return *p;
}
template <typename T>
inline T __ldlu(const T* p) {
  return *p;
}
template <typename T>
inline T __ldcv(const T* p) {
  return *p;
}
template <typename T>
inline void __stcg(T* p, T v) {
  *p = v;
}
template <typename T>
inline void __stcs(T* p, T v) {
  *p = v;
}
template <typename T>
inline void __stwb(T* p, T v) {
  *p = v;
}
template <typename T>
inline void __stwt(T* p, T v) {
  *p = v;
}
inline long long clock64() {
  unsigned lo, hi;
#if defined(__x86_64__)
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
#else
  lo = hi = 0;
#endif
  return (long long)(((unsigned long long)hi << 32) | lo);
}
inline void __nanosleep(unsigned) {}

// ---- Bit intrinsics ----------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
  return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)((v << (shift & 31u)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)((v << (shift > 32 ? 32 : shift)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)(v >> (shift & 31u));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)(v >> (shift > 32 ? 32 : shift));
}
inline int __mul24(int x, int y) { return (int)((long long)((x << 8) >> 8) * (long long)((y << 8) >> 8)); }
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x * y) >> 32); }
inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
inline unsigned __sad(int x, int y, unsigned z) { return z + (unsigned)(x > y ? x - y : y - x); }
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return z + (x > y ? x - y : y - x); }
inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y) >> 1); }
inline unsigned __urhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y + 1) >> 1); }

// ---- min / max overloads of the CUDA math library ----------------------------------
#define KUMO_MINMAX(T)                             \
  inline T min(T a, T b) { return b < a ? b : a; } \
  inline T max(T a, T b) { return a < b ? b : a; }
KUMO_MINMAX(int)
KUMO_MINMAX(unsigned int)
KUMO_MINMAX(long)
KUMO_MINMAX(unsigned long)
KUMO_MINMAX(long long)
KUMO_MINMAX(unsigned long long)
#undef KUMO_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
// Mixed argument types: CUDA promotes as the usual arithmetic conversions do.
template <typename A, typename B,
          typename = std::enable_if_t<!std::is_same<A, B>::value && std::is_arithmetic<A>::value &&
                                      std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> min(A a, B b) {
  return min(std::common_type_t<A, B>(a), std::common_type_t<A, B>(b));
}
template <typename A, typename B,
          typename = std::enable_if_t<!std::is_same<A, B>::value && std::is_arithmetic<A>::value &&
                                      std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> max(A a, B b) {
  return max(std::common_type_t<A, B>(a), std::common_type_t<A, B>(b));
}
inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a < b ? b : a; }

// ---- Device math: CUDA's extra functions and intrinsics -----------------------------
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return expf(x * 2.302585092994046f); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) { *s = sinf(x), *c = cosf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline double __dsqrt_rn(double x) { return sqrt(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __saturatef(float x) { return x != x ? 0.0f : (x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x)); }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline void sincosf(float x, float* s, float* c) { *s = sinf(x), *c = cosf(x); }
inline void sincos(double x, double* s, double* c) { *s = sin(x), *c = cos(x); }
inline float sinpif(float x) { return sinf(3.14159265358979323846f * x); }
inline float cospif(float x) { return cosf(3.14159265358979323846f * x); }
inline double sinpi(double x) { return sin(3.14159265358979323846 * x); }
inline double cospi(double x) { return cos(3.14159265358979323846 * x); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x), *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x), *c = cospi(x); }
inline float exp10f(float x) { return powf(10.0f, x); }
inline double exp10(double x) { return pow(10.0, x); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * 0.70710678118654752f); }
inline double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752); }
// Inverse error functions by Newton steps on erf (host emulation favours accuracy over speed).
inline double erfinv(double y) {
  if (y <= -1.0) return y == -1.0 ? -__builtin_huge_val() : __builtin_nan("");
  if (y >= 1.0) return y == 1.0 ? __builtin_huge_val() : __builtin_nan("");
  if (y != y) return y;
  double w = -log((1.0 - y) * (1.0 + y)), x;
  if (w < 5.0) {
    w -= 2.5;
    x = 2.81022636e-08;
    x = 3.43273939e-07 + x * w;
    x = -3.5233877e-06 + x * w;
    x = -4.39150654e-06 + x * w;
    x = 0.00021858087 + x * w;
    x = -0.00125372503 + x * w;
    x = -0.00417768164 + x * w;
    x = 0.246640727 + x * w;
    x = 1.50140941 + x * w;
  } else {
    w = sqrt(w) - 3.0;
    x = -0.000200214257;
    x = 0.000100950558 + x * w;
    x = 0.00134934322 + x * w;
    x = -0.00367342844 + x * w;
    x = 0.00573950773 + x * w;
    x = -0.0076224613 + x * w;
    x = 0.00943887047 + x * w;
    x = 1.00167406 + x * w;
    x = 2.83297682 + x * w;
  }
  x *= y;
  for (int i = 0; i < 2; ++i) x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
  return x;
}
inline float erfinvf(float y) { return (float)erfinv((double)y); }
inline double erfcinv(double y) {
  if (y <= 0.0) return y == 0.0 ? __builtin_huge_val() : __builtin_nan("");
  if (y >= 2.0) return y == 2.0 ? -__builtin_huge_val() : __builtin_nan("");
  double x = erfinv(1.0 - y);
  // Refine on erfc itself for small y, where 1 - y loses digits.
  for (int i = 0; i < 3 && y < 0.5; ++i) x += (erfc(x) - y) / (1.1283791670955126 * exp(-x * x));
  return x;
}
inline float erfcinvf(float y) { return (float)erfcinv((double)y); }
inline double normcdfinv(double p) { return -1.4142135623730951 * erfcinv(2.0 * p); }
inline float normcdfinvf(float p) { return (float)normcdfinv((double)p); }
inline float fdividef(float x, float y) { return x / y; }
inline double fdivide(double x, double y) { return x / y; }
#define KUMO_RN(NAME, T, EXPR)                  \
  inline T NAME##_rn(T x, T y) { return EXPR; } \
  inline T NAME##_rz(T x, T y) { return EXPR; } \
  inline T NAME##_ru(T x, T y) { return EXPR; } \
  inline T NAME##_rd(T x, T y) { return EXPR; }
KUMO_RN(__fadd, float, x + y)
KUMO_RN(__fsub, float, x - y)
KUMO_RN(__fmul, float, x* y)
KUMO_RN(__fdiv, float, x / y)
KUMO_RN(__dadd, double, x + y)
KUMO_RN(__dsub, double, x - y)
KUMO_RN(__dmul, double, x* y)
KUMO_RN(__ddiv, double, x / y)
#undef KUMO_RN
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline float __fmaf_rz(float x, float y, float z) { return fmaf(x, y, z); }
inline float __fmaf_ru(float x, float y, float z) { return fmaf(x, y, z); }
inline float __fmaf_rd(float x, float y, float z) { return fmaf(x, y, z); }
inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
// Conversions: _rn rounds to nearest even, _rz truncates, _ru/_rd round up/down.
#define KUMO_CVT(FROM, TO, NAME)                                       \
  inline TO __##NAME##_rn(FROM x) { return (TO)nearbyint((double)x); } \
  inline TO __##NAME##_rz(FROM x) { return (TO)x; }                    \
  inline TO __##NAME##_ru(FROM x) { return (TO)ceil((double)x); }      \
  inline TO __##NAME##_rd(FROM x) { return (TO)floor((double)x); }
KUMO_CVT(float, int, float2int)
KUMO_CVT(float, unsigned, float2uint)
KUMO_CVT(float, long long, float2ll)
KUMO_CVT(float, unsigned long long, float2ull)
KUMO_CVT(double, int, double2int)
KUMO_CVT(double, unsigned, double2uint)
KUMO_CVT(double, long long, double2ll)
KUMO_CVT(double, unsigned long long, double2ull)
#undef KUMO_CVT
inline float __int2float_rn(int x) { return (float)x; }
inline float __uint2float_rn(unsigned x) { return (float)x; }
inline float __ll2float_rn(long long x) { return (float)x; }
inline float __ull2float_rn(unsigned long long x) { return (float)x; }
inline double __int2double_rn(int x) { return (double)x; }
inline double __uint2double_rn(unsigned x) { return (double)x; }
inline double __ll2double_rn(long long x) { return (double)x; }
inline double __ull2double_rn(unsigned long long x) { return (double)x; }
inline float __double2float_rn(double x) { return (float)x; }
inline float __double2float_rz(double x) { return (float)x; }
inline float __int_as_float(int x) { return __kumo_unpack<float>((uint64_t)(uint32_t)x); }
inline int __float_as_int(float x) { return (int)(uint32_t)__kumo_pack(x); }
inline float __uint_as_float(unsigned x) { return __kumo_unpack<float>((uint64_t)x); }
inline unsigned __float_as_uint(float x) { return (uint32_t)__kumo_pack(x); }
inline double __longlong_as_double(long long x) { return __kumo_unpack<double>((uint64_t)x); }
inline long long __double_as_longlong(double x) { return (long long)__kumo_pack(x); }
inline int __double2hiint(double x) { return (int)(__kumo_pack(x) >> 32); }
inline int __double2loint(double x) { return (int)(uint32_t)__kumo_pack(x); }
inline double __hiloint2double(int hi, int lo) {
  return __kumo_unpack<double>(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
}

// ---- Atomics: real atomics, since blocks run concurrently -----------------------------
#define KUMO_ATOMIC_INT(T)                                                                                  \
  inline T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }                      \
  inline T atomicSub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); }                      \
  inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }                    \
  inline T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); }                      \
  inline T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }                        \
  inline T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); }                      \
  inline T atomicCAS(T* p, T cmp, T v) {                                                                    \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);                     \
    return cmp;                                                                                             \
  }                                                                                                         \
  inline T atomicMin(T* p, T v) {                                                                           \
    T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                                           \
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                                                       \
    return old;                                                                                             \
  }                                                                                                         \
  inline T atomicMax(T* p, T v) {                                                                           \
    T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                                           \
    while (v > old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                                                       \
    return old;                                                                                             \
  }
KUMO_ATOMIC_INT(int)
KUMO_ATOMIC_INT(unsigned int)
KUMO_ATOMIC_INT(unsigned long long)
KUMO_ATOMIC_INT(long long)
#undef KUMO_ATOMIC_INT
// atomicInc/atomicDec wrap at `limit` as CUDA's do.
inline unsigned atomicInc(unsigned* p, unsigned limit) {
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (
      !__atomic_compare_exchange_n(p, &old, old >= limit ? 0u : old + 1u, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, (old == 0u || old > limit) ? limit : old - 1u, true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
  return old;
}
// Floating-point atomics: a compare-and-swap loop on the bit pattern.
template <typename F, typename U, typename Op>
inline F __kumo_atomic_float(F* p, Op op) {
  U* up = reinterpret_cast<U*>(p);
  U old = __atomic_load_n(up, __ATOMIC_RELAXED);
  for (;;) {
    F f;
    memcpy(&f, &old, sizeof(F));
    F n = op(f);
    U nu;
    memcpy(&nu, &n, sizeof(F));
    if (__atomic_compare_exchange_n(up, &old, nu, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return f;
  }
}
inline float atomicAdd(float* p, float v) {
  return __kumo_atomic_float<float, uint32_t>(p, [v](float f) { return f + v; });
}
inline double atomicAdd(double* p, double v) {
  return __kumo_atomic_float<double, uint64_t>(p, [v](double f) { return f + v; });
}
inline float atomicSub(float* p, float v) {
  return __kumo_atomic_float<float, uint32_t>(p, [v](float f) { return f - v; });
}
inline float atomicExch(float* p, float v) {
  return __kumo_unpack<float>(
      __atomic_exchange_n(reinterpret_cast<uint32_t*>(p), (uint32_t)__kumo_pack(v), __ATOMIC_RELAXED));
}
inline float atomicMin(float* p, float v) {
  return __kumo_atomic_float<float, uint32_t>(p, [v](float f) { return fminf(f, v); });
}
inline float atomicMax(float* p, float v) {
  return __kumo_atomic_float<float, uint32_t>(p, [v](float f) { return fmaxf(f, v); });
}
inline double atomicMin(double* p, double v) {
  return __kumo_atomic_float<double, uint64_t>(p, [v](double f) { return fmin(f, v); });
}
inline double atomicMax(double* p, double v) {
  return __kumo_atomic_float<double, uint64_t>(p, [v](double f) { return fmax(f, v); });
}
// Block/system-scoped variants are the same operation here.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS
#define atomicExch_block atomicExch
#define atomicExch_system atomicExch

// ---- Half precision ---------------------------------------------------------------
struct __half {
  unsigned short __x;
  __half() = default;
  __half(float f) { set((_Float16)f); }
  __half(double f) { set((_Float16)f); }
  __half(int f) { set((_Float16)f); }
  __half(unsigned f) { set((_Float16)f); }
  __half(long long f) { set((_Float16)f); }
  __half(unsigned long long f) { set((_Float16)f); }
  operator float() const { return (float)get(); }
  _Float16 get() const {
    _Float16 h;
    memcpy(&h, &__x, 2);
    return h;
  }
  void set(_Float16 h) { memcpy(&__x, &h, 2); }
  __half& operator+=(__half o) { return *this = __half(float(*this) + float(o)); }
  __half& operator-=(__half o) { return *this = __half(float(*this) - float(o)); }
  __half& operator*=(__half o) { return *this = __half(float(*this) * float(o)); }
  __half& operator/=(__half o) { return *this = __half(float(*this) / float(o)); }
};
typedef __half half;
struct alignas(4) __half2 {
  __half x, y;
};
typedef __half2 half2;
struct __half_raw {
  unsigned short x;
};
inline __half operator+(__half a, __half b) { return __half(float(a) + float(b)); }
inline __half operator-(__half a, __half b) { return __half(float(a) - float(b)); }
inline __half operator*(__half a, __half b) { return __half(float(a) * float(b)); }
inline __half operator/(__half a, __half b) { return __half(float(a) / float(b)); }
inline __half operator-(__half a) {
  __half r = a;
  r.__x ^= 0x8000;
  return r;
}
inline bool operator==(__half a, __half b) { return float(a) == float(b); }
inline bool operator!=(__half a, __half b) { return float(a) != float(b); }
inline bool operator<(__half a, __half b) { return float(a) < float(b); }
inline bool operator>(__half a, __half b) { return float(a) > float(b); }
inline bool operator<=(__half a, __half b) { return float(a) <= float(b); }
inline bool operator>=(__half a, __half b) { return float(a) >= float(b); }
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double f) { return __half(f); }
inline float __half2float(__half h) { return float(h); }
inline __half __int2half_rn(int i) { return __half(i); }
inline int __half2int_rz(__half h) { return (int)float(h); }
inline int __half2int_rn(__half h) { return (int)nearbyintf(float(h)); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __ushort_as_half(unsigned short x) {
  __half h;
  h.__x = x;
  return h;
}
inline short __half_as_short(__half h) { return (short)h.__x; }
inline __half __short_as_half(short x) { return __ushort_as_half((unsigned short)x); }
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hneg(__half a) { return -a; }
inline __half __habs(__half a) {
  a.__x &= 0x7fff;
  return a;
}
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf(float(a), float(b), float(c))); }
inline __half __hmax(__half a, __half b) { return __half(fmaxf(float(a), float(b))); }
inline __half __hmin(__half a, __half b) { return __half(fminf(float(a), float(b))); }
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hne(__half a, __half b) { return a != b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline bool __hisnan(__half a) { return float(a) != float(a); }
inline bool __hisinf(__half a) { return (a.__x & 0x7fff) == 0x7c00; }
inline __half hsqrt(__half a) { return __half(sqrtf(float(a))); }
inline __half hexp(__half a) { return __half(expf(float(a))); }
inline __half hlog(__half a) { return __half(logf(float(a))); }
inline __half hsin(__half a) { return __half(sinf(float(a))); }
inline __half hcos(__half a) { return __half(cosf(float(a))); }
inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf(float(a))); }
inline __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 make_half2(__half a, __half b) { return __half2{a, b}; }
inline __half2 __float2half2_rn(float f) { return __half2{__half(f), __half(f)}; }
inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
inline __half2 __half2half2(__half a) { return __half2{a, a}; }
inline float2 __half22float2(__half2 h) { return float2{float(h.x), float(h.y)}; }
inline __half2 __float22half2_rn(float2 f) { return __half2{__half(f.x), __half(f.y)}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline float __low2float(__half2 h) { return float(h.x); }
inline float __high2float(__half2 h) { return float(h.y); }
inline __half2 __hadd2(__half2 a, __half2 b) { return __half2{a.x + b.x, a.y + b.y}; }
inline __half2 __hsub2(__half2 a, __half2 b) { return __half2{a.x - b.x, a.y - b.y}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return __half2{a.x * b.x, a.y * b.y}; }
inline __half2 __h2div(__half2 a, __half2 b) { return __half2{a.x / b.x, a.y / b.y}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}
inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
inline __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
inline __half atomicAdd(__half* p, __half v) {
  unsigned short* up = &p->__x;
  unsigned short old = __atomic_load_n(up, __ATOMIC_RELAXED);
  for (;;) {
    unsigned short n = (__ushort_as_half(old) + v).__x;
    if (__atomic_compare_exchange_n(up, &old, n, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return __ushort_as_half(old);
  }
}
inline __half2 atomicAdd(__half2* p, __half2 v) {
  uint32_t* up = reinterpret_cast<uint32_t*>(p);
  uint32_t old = __atomic_load_n(up, __ATOMIC_RELAXED);
  for (;;) {
    __half2 o;
    memcpy(&o, &old, 4);
    __half2 n = o + v;
    uint32_t nu;
    memcpy(&nu, &n, 4);
    if (__atomic_compare_exchange_n(up, &old, nu, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return o;
  }
}

// ---- cuComplex.h ---------------------------------------------------------------------
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
inline float cuCrealf(cuFloatComplex z) { return z.x; }
inline float cuCimagf(cuFloatComplex z) { return z.y; }
inline cuFloatComplex make_cuFloatComplex(float r, float i) { return cuFloatComplex{r, i}; }
inline cuFloatComplex make_cuComplex(float r, float i) { return cuFloatComplex{r, i}; }
inline cuFloatComplex cuConjf(cuFloatComplex z) { return cuFloatComplex{z.x, -z.y}; }
inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return cuFloatComplex{a.x + b.x, a.y + b.y}; }
inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return cuFloatComplex{a.x - b.x, a.y - b.y}; }
inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) {
  return cuFloatComplex{a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
inline cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) {
  // Scaled division, as cuComplex.h does, to avoid overflow in |b|^2.
  float s = fabsf(b.x) + fabsf(b.y), oos = 1.0f / s;
  float ars = a.x * oos, ais = a.y * oos, brs = b.x * oos, bis = b.y * oos;
  float q = 1.0f / (brs * brs + bis * bis);
  return cuFloatComplex{(ars * brs + ais * bis) * q, (ais * brs - ars * bis) * q};
}
inline float cuCabsf(cuFloatComplex z) { return hypotf(z.x, z.y); }
inline cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) {
  return cuCaddf(cuCmulf(x, y), d);
}
inline double cuCreal(cuDoubleComplex z) { return z.x; }
inline double cuCimag(cuDoubleComplex z) { return z.y; }
inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { return cuDoubleComplex{r, i}; }
inline cuDoubleComplex cuConj(cuDoubleComplex z) { return cuDoubleComplex{z.x, -z.y}; }
inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return cuDoubleComplex{a.x + b.x, a.y + b.y}; }
inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return cuDoubleComplex{a.x - b.x, a.y - b.y}; }
inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) {
  return cuDoubleComplex{a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
inline cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) {
  double s = fabs(b.x) + fabs(b.y), oos = 1.0 / s;
  double ars = a.x * oos, ais = a.y * oos, brs = b.x * oos, bis = b.y * oos;
  double q = 1.0 / (brs * brs + bis * bis);
  return cuDoubleComplex{(ars * brs + ais * bis) * q, (ais * brs - ars * bis) * q};
}
inline double cuCabs(cuDoubleComplex z) { return hypot(z.x, z.y); }
inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  return cuCadd(cuCmul(x, y), d);
}
inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex z) { return cuDoubleComplex{z.x, z.y}; }
inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex z) { return cuFloatComplex{(float)z.x, (float)z.y}; }

// ---- Cooperative groups (block and warp tiles) ----------------------------------------
namespace cooperative_groups {
class thread_block {
 public:
  void sync() const { __syncthreads(); }
  unsigned thread_rank() const { return __kumo_linear_tid(); }
  unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  unsigned num_threads() const { return size(); }
  dim3 group_index() const { return dim3(blockIdx); }
  dim3 thread_index() const { return dim3(threadIdx); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block(); }
inline void sync(const thread_block& g) { g.sync(); }
// A tile of `n` consecutive threads of a warp (n a power of two, <= 32).
class thread_group {
 public:
  explicit thread_group(unsigned n) : n_(n) {}
  unsigned size() const { return n_; }
  unsigned num_threads() const { return n_; }
  unsigned thread_rank() const { return __kumo_lane() & (n_ - 1); }
  unsigned meta_group_rank() const { return __kumo_linear_tid() / n_; }
  unsigned meta_group_size() const { return (blockDim.x * blockDim.y * blockDim.z + n_ - 1) / n_; }
  unsigned tile_mask() const {
    unsigned base = __kumo_lane() & ~(n_ - 1);
    return n_ >= 32 ? 0xffffffffu : (((1u << n_) - 1u) << base);
  }
  void sync() const { __syncwarp(tile_mask()); }
  template <typename T>
  T shfl(T v, int src) const {
    return __shfl_sync(tile_mask(), v, src, n_);
  }
  template <typename T>
  T shfl_down(T v, unsigned d) const {
    return __shfl_down_sync(tile_mask(), v, d, n_);
  }
  template <typename T>
  T shfl_up(T v, unsigned d) const {
    return __shfl_up_sync(tile_mask(), v, d, n_);
  }
  template <typename T>
  T shfl_xor(T v, int m) const {
    return __shfl_xor_sync(tile_mask(), v, m, n_);
  }
  unsigned ballot(int pred) const {
    unsigned base = __kumo_lane() & ~(n_ - 1);
    return (__ballot_sync(tile_mask(), pred) & tile_mask()) >> (n_ >= 32 ? 0 : base);
  }
  int any(int pred) const { return ballot(pred) != 0; }
  int all(int pred) const { return ballot(pred) == (n_ >= 32 ? __kumo_warp_lanes() : (1u << n_) - 1u); }

 private:
  unsigned n_;
};
template <unsigned N>
class thread_block_tile : public thread_group {
 public:
  thread_block_tile() : thread_group(N) {}
  static constexpr unsigned size() { return N; }
  static constexpr unsigned num_threads() { return N; }
};
template <unsigned N>
inline thread_block_tile<N> tiled_partition(const thread_block&) {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "tile sizes are powers of two up to 32");
  return thread_block_tile<N>();
}
inline thread_group tiled_partition(const thread_block&, unsigned n) { return thread_group(n); }
inline thread_group tiled_partition(const thread_group&, unsigned n) { return thread_group(n); }
inline void sync(const thread_group& g) { g.sync(); }
template <typename T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <typename T>
struct less {
  T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T>
struct greater {
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <typename T>
struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <typename T>
struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <typename T>
struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};
// cg::reduce over a warp tile: every thread gets the result.
template <typename T, typename Op>
inline T reduce(const thread_group& g, T v, Op op) {
  for (unsigned d = 1; d < g.size(); d <<= 1) v = op(v, g.shfl_xor(v, d));
  return v;
}
}  // namespace cooperative_groups

// ---- thrust::complex ----------------------------------------------------------------
namespace thrust {
template <typename T>
struct complex {
  T re, im;
  complex(T r = T(), T i = T()) : re(r), im(i) {}
  template <typename U>
  complex(const complex<U>& o) : re(T(o.real())), im(T(o.imag())) {}
  T real() const { return re; }
  T imag() const { return im; }
  void real(T r) { re = r; }
  void imag(T i) { im = i; }
  complex& operator+=(const complex& o) { return re += o.re, im += o.im, *this; }
  complex& operator-=(const complex& o) { return re -= o.re, im -= o.im, *this; }
  complex& operator*=(const complex& o) { return *this = *this * o; }
  complex& operator/=(const complex& o) { return *this = *this / o; }
  friend complex operator+(complex a, complex b) { return complex(a.re + b.re, a.im + b.im); }
  friend complex operator-(complex a, complex b) { return complex(a.re - b.re, a.im - b.im); }
  friend complex operator-(complex a) { return complex(-a.re, -a.im); }
  friend complex operator*(complex a, complex b) {
    return complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  friend complex operator/(complex a, complex b) {
    T s = std::abs(b.re) + std::abs(b.im);
    T ar = a.re / s, ai = a.im / s, br = b.re / s, bi = b.im / s;
    T q = br * br + bi * bi;
    return complex((ar * br + ai * bi) / q, (ai * br - ar * bi) / q);
  }
  friend complex operator*(complex a, T b) { return complex(a.re * b, a.im * b); }
  friend complex operator*(T a, complex b) { return complex(a * b.re, a * b.im); }
  friend complex operator/(complex a, T b) { return complex(a.re / b, a.im / b); }
  friend complex operator+(complex a, T b) { return complex(a.re + b, a.im); }
  friend complex operator-(complex a, T b) { return complex(a.re - b, a.im); }
  friend bool operator==(complex a, complex b) { return a.re == b.re && a.im == b.im; }
  friend bool operator!=(complex a, complex b) { return !(a == b); }
};
template <typename T>
T abs(const complex<T>& z) {
  return std::hypot(z.real(), z.imag());
}
template <typename T>
T arg(const complex<T>& z) {
  return std::atan2(z.imag(), z.real());
}
template <typename T>
T norm(const complex<T>& z) {
  return z.real() * z.real() + z.imag() * z.imag();
}
template <typename T>
complex<T> conj(const complex<T>& z) {
  return complex<T>(z.real(), -z.imag());
}
template <typename T>
complex<T> exp(const complex<T>& z) {
  T e = std::exp(z.real());
  return complex<T>(e * std::cos(z.imag()), e * std::sin(z.imag()));
}
template <typename T>
complex<T> log(const complex<T>& z) {
  return complex<T>(std::log(abs(z)), arg(z));
}
template <typename T>
complex<T> polar(T r, T t = T()) {
  return complex<T>(r * std::cos(t), r * std::sin(t));
}
template <typename T>
complex<T> sqrt(const complex<T>& z) {
  T r = abs(z);
  T a = std::sqrt((r + std::abs(z.real())) / 2);
  if (a == T(0)) return complex<T>(0, z.imag());
  if (z.real() >= 0) return complex<T>(a, z.imag() / (2 * a));
  return complex<T>(std::abs(z.imag()) / (2 * a), std::copysign(a, z.imag()));
}
template <typename T>
complex<T> sin(const complex<T>& z) {
  return complex<T>(std::sin(z.real()) * std::cosh(z.imag()), std::cos(z.real()) * std::sinh(z.imag()));
}
template <typename T>
complex<T> cos(const complex<T>& z) {
  return complex<T>(std::cos(z.real()) * std::cosh(z.imag()), -std::sin(z.real()) * std::sinh(z.imag()));
}
template <typename T>
complex<T> pow(const complex<T>& z, const complex<T>& w) {
  if (z.real() == 0 && z.imag() == 0) return complex<T>(0, 0);
  return exp(w * log(z));
}
}  // namespace thrust

// ---- Launch plumbing used by the generated entries ----------------------------------
// Dynamic shared memory: one 16-byte aligned buffer per OS thread, grown on demand.
struct __KumoDynSmem {
  char* p = nullptr;
  uint64_t cap = 0;
  ~__KumoDynSmem() { free(p); }
  char* get(uint64_t n) {
    if (n > cap) {
      free(p);
      p = static_cast<char*>(aligned_alloc(16, (n + 15) & ~uint64_t(15)));
      cap = p ? n : 0;
    }
    return p;
  }
};
static thread_local __KumoDynSmem __kumo_dyn_buffer;
inline char* __kumo_dyn_smem() { return __kumo_ts.dyn_smem; }
template <typename... A>
constexpr size_t __kumo_arity(void (*)(A...)) {
  return sizeof...(A);
}

// Calls the kernel F with its arguments unpacked from cuLaunchKernel-style params.
// F is a template argument so that the kernel inlines into the thread loop.
template <auto F, typename... A, size_t... I>
__forceinline__ void __kumo_invoke(void (*)(A...), void** params, std::index_sequence<I...>) {
  F(*static_cast<std::remove_cv_t<std::remove_reference_t<A>>*>(params[I])...);
}
template <auto F>
__forceinline__ void __kumo_call(void** params) {
  __kumo_invoke<F>(F, params, std::make_index_sequence<__kumo_arity(F)>());
}
inline void __kumo_begin_block(const KumoEmuLaunch* L, int64_t b) {
  uint64_t gx = L->grid[0], gy = L->grid[1];
  blockIdx = uint3{(unsigned)(b % gx), (unsigned)((b / gx) % gy), (unsigned)(b / (gx * gy))};
}
// Barrier-free kernels: the threads of a block are a plain loop. This form is
// for kernels the translator could not give the built-ins parameter (below):
// they read threadIdx from the thread-local, stored for every thread.
template <auto F>
__attribute__((visibility("hidden"))) void __kumo_run_loop_tls(const void* launch, int64_t b0, int64_t b1) {
  const KumoEmuLaunch* L = static_cast<const KumoEmuLaunch*>(launch);
  gridDim = dim3(L->grid[0], L->grid[1], L->grid[2]);
  blockDim = dim3(L->block[0], L->block[1], L->block[2]);
  __kumo_ts.dyn_smem = __kumo_dyn_buffer.get(L->dynamic_shared_bytes ? L->dynamic_shared_bytes : 16);
  // A barrier reached here (hidden from the translator) raises instead of crashing.
  __kumo_ts.rt = L->runtime;
  __kumo_ts.blk = nullptr;
  const unsigned bx = L->block[0], by = L->block[1], bz = L->block[2];
  void** params = L->params;
  for (int64_t b = b0; b < b1; ++b) {
    __kumo_begin_block(L, b);
    for (unsigned z = 0; z < bz; ++z)
      for (unsigned y = 0; y < by; ++y)
        for (unsigned x = 0; x < bx; ++x) {
          threadIdx = uint3{x, y, z};
          __kumo_call<F>(params);
        }
  }
}

// Loop mode with the built-ins as values. The translator gives every __global__
// function a leading parameter `__KumoBuiltins __kumo_bi` and opens its body with
// __KUMO_LOOP_BUILTINS, locals that shadow the thread-locals of the same names.
// After inlining, threadIdx.x is the loop counter itself rather than a store to
// and a load from a thread-local in every iteration, so that the thread loop of
// an elementwise kernel is a counted loop over x that the compiler vectorises
// (the `i < n` guard becomes masked loads and stores, possible aliasing between
// the kernel's pointers a runtime check). Device functions still read the
// thread-locals: blockIdx, blockDim and gridDim are stored per block, threadIdx
// per thread only when the translator saw a read of it outside the kernel bodies.
struct __KumoBuiltins {
  uint3 t;
  uint3 b;
  dim3 bd;
  dim3 gd;
};
#define __KUMO_LOOP_BUILTINS                                             \
  const uint3 threadIdx = __kumo_bi.t, blockIdx = __kumo_bi.b;          \
  const dim3 blockDim = __kumo_bi.bd, gridDim = __kumo_bi.gd;           \
  (void)threadIdx, (void)blockIdx, (void)blockDim, (void)gridDim;
template <typename... A>
constexpr bool __kumo_takes_builtins(void (*)(__KumoBuiltins, A...)) {
  return true;
}
template <typename... A>
constexpr bool __kumo_takes_builtins(void (*)(A...)) {
  return false;
}
template <typename T>
using __kumo_arg_t = std::remove_cv_t<std::remove_reference_t<T>>;
// Narrow: the grid's x extent is at most 2^20 blocks. Then blockIdx.x and
// blockDim.x are passed through an empty asm (which hides their values from
// range analysis, so the masks below are kept) and masked to 20 and 11 bits,
// which changes nothing here but bounds them for the compiler: it then proves
// that `blockIdx.x * blockDim.x + threadIdx.x` stays below 2^31, so that an int
// index (which wraps under -fwrapv) is still an affine induction variable.
template <auto F, bool TidTls, bool Narrow, typename... A, size_t... I>
__forceinline__ void __kumo_loop_blocks(const KumoEmuLaunch* L, int64_t b0, int64_t b1, void (*)(__KumoBuiltins, A...),
                                        std::index_sequence<I...>) {
  // The arguments are read once per launch into locals: read from the packed
  // parameters, they would be reloaded for every thread, as any store through a
  // kernel pointer might change them (they are values to the kernel, so this is
  // the same).
  const std::tuple<__kumo_arg_t<A>...> args{*static_cast<__kumo_arg_t<A>*>(L->params[I])...};
  __KumoBuiltins bi;
  bi.gd = gridDim;
  bi.bd = blockDim;
  unsigned bx = L->block[0];
  if (Narrow) {
    __asm__("" : "+r"(bx));
    bx &= 0x7ffu;
    bi.bd.x = bx;
  }
  const unsigned by = L->block[1], bz = L->block[2];
  for (int64_t b = b0; b < b1; ++b) {
    __kumo_begin_block(L, b);
    bi.b = blockIdx;
    if (Narrow) {
      unsigned v = bi.b.x;
      __asm__("" : "+r"(v));
      bi.b.x = v & 0xfffffu;
    }
    for (unsigned z = 0; z < bz; ++z)
      for (unsigned y = 0; y < by; ++y)
        for (unsigned x = 0; x < bx; ++x) {
          bi.t = uint3{x, y, z};
          if (TidTls) threadIdx = bi.t;
          F(bi, std::get<I>(args)...);
        }
  }
}
// TidTls: also store threadIdx to the thread-local for every thread (the safe default).
template <auto F, bool TidTls = true>
__attribute__((visibility("hidden"))) void __kumo_run_loop(const void* launch, int64_t b0, int64_t b1) {
  if constexpr (!__kumo_takes_builtins(F)) {
    __kumo_run_loop_tls<F>(launch, b0, b1);
  } else {
    const KumoEmuLaunch* L = static_cast<const KumoEmuLaunch*>(launch);
    gridDim = dim3(L->grid[0], L->grid[1], L->grid[2]);
    blockDim = dim3(L->block[0], L->block[1], L->block[2]);
    __kumo_ts.dyn_smem = __kumo_dyn_buffer.get(L->dynamic_shared_bytes ? L->dynamic_shared_bytes : 16);
    // A barrier reached here (hidden from the translator) raises instead of crashing.
    __kumo_ts.rt = L->runtime;
    __kumo_ts.blk = nullptr;
    constexpr auto seq = std::make_index_sequence<__kumo_arity(F) - 1>();
    if (L->grid[0] <= (1u << 20))
      __kumo_loop_blocks<F, TidTls, true>(L, b0, b1, F, seq);
    else
      __kumo_loop_blocks<F, TidTls, false>(L, b0, b1, F, seq);
  }
}
template <auto F>
struct __KumoFiberClosure {
  static void thread_main(void* params, uint32_t tid, void* blk) {
    __kumo_ts.blk = blk;
    unsigned bx = blockDim.x, by = blockDim.y;
    threadIdx = uint3{tid % bx, (tid / bx) % by, tid / (bx * by)};
    __kumo_call<F>(static_cast<void**>(params));
  }
};
// Kernels with barriers or warp operations: the threads of a block are fibers.
template <auto F>
__attribute__((visibility("hidden"))) void __kumo_run_fibers(const void* launch, int64_t b0, int64_t b1) {
  const KumoEmuLaunch* L = static_cast<const KumoEmuLaunch*>(launch);
  gridDim = dim3(L->grid[0], L->grid[1], L->grid[2]);
  blockDim = dim3(L->block[0], L->block[1], L->block[2]);
  __kumo_ts.rt = L->runtime;
  __kumo_ts.dyn_smem = __kumo_dyn_buffer.get(L->dynamic_shared_bytes ? L->dynamic_shared_bytes : 16);
  KumoEmuBlockJob job{L->block[0] * L->block[1] * L->block[2],
                      {L->block[0], L->block[1], L->block[2]},
                      &__KumoFiberClosure<F>::thread_main,
                      L->params};
  for (int64_t b = b0; b < b1; ++b) {
    __kumo_begin_block(L, b);
    L->runtime->run_block(&job);
  }
}
