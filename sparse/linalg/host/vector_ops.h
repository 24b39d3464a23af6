// Vector kernels of the Krylov solvers on vectors of T (float, double,
// complex<float>, complex<double>): loops on all host cores for host
// vectors, and for vectors on a CUDA device (or host vectors while the
// portable sparse path is on, which tests the CUDA path without a GPU) the
// same updates as generated kernels (sparse/linalg/fused_vector_kernel.h)
// and reductions through kumo's routines. A Vec knows which: its host
// pointer `p` is null when it runs the kernels.
//
// Reductions are deterministic: the vector is cut into fixed blocks of
// kBlock elements (independent of the thread count), each block's partial
// sum is kept, and the partials are added in block order, so a solve gives
// the same bits on one thread or many. The fused kernels exist because a
// solver iteration is memory-bound: x += a p; r -= a q; |r|^2 in one pass
// reads each vector once instead of three times.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/array.h"
#include "core/host/thread_pool.h"
#include "linalg/products.h"
#include "routines/elementwise.h"
#include "routines/reduction.h"
#include "sparse/linalg/fused_vector_kernel.h"

namespace kumo {
namespace sparse {
namespace linalg {
namespace host {

template <class T>
struct RealOf {
  using type = T;
};
template <class T>
struct RealOf<std::complex<T>> {
  using type = T;
};
template <class T>
using Real = typename RealOf<T>::type;

template <class T>
constexpr bool kIsComplex = !std::is_same_v<T, Real<T>>;

template <class T>
inline T conj_of(T v) {
  if constexpr (kIsComplex<T>) return std::conj(v);
  else return v;
}
template <class T>
inline Real<T> abs2(T v) {
  if constexpr (kIsComplex<T>) return v.real() * v.real() + v.imag() * v.imag();
  else return v * v;
}

constexpr int64_t kBlock = 1 << 14;

// Sum over blocks of f(begin, end) -> Acc, in block order.
template <class Acc, class F>
Acc block_sum(int64_t n, const F& f) {
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  if (blocks <= 1) return n > 0 ? f(int64_t{0}, n) : Acc(0);
  std::vector<Acc> part(static_cast<size_t>(blocks));
  parallel_for(blocks, 2, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) part[static_cast<size_t>(b)] = f(b * kBlock, std::min(n, (b + 1) * kBlock));
  });
  Acc s(0);
  for (const Acc& v : part) s += v;
  return s;
}

// f(begin, end) over [0, n) on all cores.
template <class F>
void blocks_for(int64_t n, const F& f) {
  parallel_for(n, kBlock, [&](int64_t b, int64_t e) { f(b, e); });
}

// A contiguous vector of T that owns its Array; `p` is its host data when
// the host loops serve it, else null.
template <class T>
struct Vec {
  Array array;
  T* p = nullptr;
  int64_t n = 0;

  Vec() = default;
  explicit Vec(const Array& a)
      : array(a), p(host_vector_loops(a.device()) ? reinterpret_cast<T*>(a.data()) : nullptr), n(a.size()) {}
  T& operator[](int64_t i) const { return p[i]; }
  bool on_host_loops() const { return p != nullptr || (n == 0 && host_vector_loops(array.device())); }
};

// `scalars` as a 1-d array of dtype `dtype` on the host (the kernel's `s`).
template <class T>
Array scalar_array(std::initializer_list<T> scalars, Dtype dtype) {
  Array s = Array::empty(Shape{static_cast<int64_t>(scalars.size())}, dtype, host_device());
  std::copy(scalars.begin(), scalars.end(), reinterpret_cast<T*>(s.data()));
  return s;
}

// One update over equally long vectors: `host(i)` for each element on all
// cores when the host loops serve them, else `kernel` (the same statements
// in kernel code, the scalars as s[0], s[1], ...). `out` are the vectors the
// update writes, `in` those it only reads.
template <class T, class HostBody>
void fused(const FusedVectorKernel& kernel, std::initializer_list<T> scalars, std::initializer_list<Vec<T>> in,
           std::initializer_list<Vec<T>> out, const HostBody& host) {
  const Vec<T>& first = *out.begin();
  if (first.on_host_loops()) {
    parallel_for(first.n, kBlock, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) host(i);
    });
    return;
  }
  std::vector<Array> ins, outs;
  for (const Vec<T>& v : in) ins.push_back(v.array);
  for (const Vec<T>& v : out) outs.push_back(v.array);
  run_fused_vector_kernel(kernel, scalar_array(scalars, first.array.dtype()), ins, outs);
}

template <class T>
Vec<T> new_vec(int64_t n, Dtype dtype, Device& device) {
  return Vec<T>(Array::empty(Shape{n}, dtype, device));
}
// A new vector of like's length, dtype and device.
template <class T>
Vec<T> new_vec(const Vec<T>& like) {
  return new_vec<T>(like.n, like.array.dtype(), like.array.device());
}
template <class T>
void fill_zero(const Vec<T>& v) {
  fused<T>({"kumo_krylov_zero", "", "T v", "v = T(0)"}, {T(0)}, {}, {v}, [&](int64_t i) { v.p[i] = T(0); });
}
template <class T>
Vec<T> zeros_vec(int64_t n, Dtype dtype, Device& device) {
  Vec<T> v = new_vec<T>(n, dtype, device);
  fill_zero(v);
  return v;
}
template <class T>
Vec<T> zeros_vec(const Vec<T>& like) {
  return zeros_vec<T>(like.n, like.array.dtype(), like.array.device());
}
// dst = src.
template <class T>
void assign(const Vec<T>& dst, const Vec<T>& src) {
  fused<T>({"kumo_krylov_assign", "T src", "T dst", "dst = src"}, {T(0)}, {src}, {dst},
           [&](int64_t i) { dst.p[i] = src.p[i]; });
}
template <class T>
Vec<T> copy_vec(const Vec<T>& x) {
  Vec<T> v = new_vec(x);
  assign(v, x);
  return v;
}

// sum conj(x_i) y_i (numpy.vdot; numpy.dot for real T).
template <class T>
T dot(const Vec<T>& x, const Vec<T>& y) {
  if (!x.on_host_loops()) return ::kumo::vdot(x.array, y.array).template item<T>();
  return block_sum<T>(x.n, [&](int64_t b, int64_t e) {
    T s(0);
    for (int64_t i = b; i < e; ++i) s += conj_of(x.p[i]) * y.p[i];
    return s;
  });
}
// sum x_i y_i without conjugation (numpy.inner).
template <class T>
T dotu(const Vec<T>& x, const Vec<T>& y) {
  if (!x.on_host_loops()) return ::kumo::dot(x.array, y.array).template item<T>();
  return block_sum<T>(x.n, [&](int64_t b, int64_t e) {
    T s(0);
    for (int64_t i = b; i < e; ++i) s += x.p[i] * y.p[i];
    return s;
  });
}

// The 2-norm, scaled by the largest magnitude so that neither overflow nor
// underflow loses it (as BLAS nrm2 and numpy.linalg.norm).
template <class T>
Real<T> nrm2(const Vec<T>& x) {
  using R = Real<T>;
  if (!x.on_host_loops()) {
    // The plain sum of squares; rescaled by the largest magnitude only when
    // it over- or underflowed, as on the host.
    const double ss = std::abs(::kumo::vdot(x.array, x.array).template item<std::complex<double>>());
    if (std::isfinite(ss) && (ss > std::numeric_limits<R>::min() * 1e10 || ss == 0)) return static_cast<R>(std::sqrt(ss));
    const double scale = kumo::max(kumo::absolute(x.array)).template item<double>();
    if (scale == 0 || !std::isfinite(scale)) return static_cast<R>(scale);
    Array scaled = kumo::divide(x.array, scale);
    return static_cast<R>(scale * std::sqrt(std::abs(::kumo::vdot(scaled, scaled).template item<std::complex<double>>())));
  }
  // Sum of squares in double for float vectors; the plain sum first, and a
  // scaled second pass only when it over- or underflowed.
  using Acc = std::conditional_t<std::is_same_v<R, float>, double, R>;
  const Acc ss = block_sum<Acc>(x.n, [&](int64_t b, int64_t e) {
    Acc s = 0;
    for (int64_t i = b; i < e; ++i) s += static_cast<Acc>(abs2(x.p[i]));
    return s;
  });
  if (std::isfinite(ss) && (ss > std::numeric_limits<Acc>::min() * 1e10 || ss == 0)) return static_cast<R>(std::sqrt(ss));
  R scale = 0;
  for (int64_t i = 0; i < x.n; ++i) scale = std::max(scale, std::abs(x.p[i]));
  if (scale == 0 || !std::isfinite(scale)) return scale;
  const Acc s2 = block_sum<Acc>(x.n, [&](int64_t b, int64_t e) {
    Acc s = 0;
    for (int64_t i = b; i < e; ++i) s += static_cast<Acc>(abs2(x.p[i] / scale));
    return s;
  });
  return static_cast<R>(scale * std::sqrt(s2));
}
// |x|^2.
template <class T>
double sumsq(const Vec<T>& x) {
  const double r = static_cast<double>(nrm2(x));
  return r * r;
}

// y += a x.
template <class T>
void axpy(T a, const Vec<T>& x, const Vec<T>& y) {
  fused<T>({"kumo_krylov_axpy", "T x", "T y", "y += s[0] * x"}, {a}, {x}, {y}, [&](int64_t i) { y.p[i] += a * x.p[i]; });
}
// y = x + a y.
template <class T>
void xpay(const Vec<T>& x, T a, const Vec<T>& y) {
  fused<T>({"kumo_krylov_xpay", "T x", "T y", "y = x + s[0] * y"}, {a}, {x}, {y},
           [&](int64_t i) { y.p[i] = x.p[i] + a * y.p[i]; });
}
// out = a x.
template <class T>
void scaled(T a, const Vec<T>& x, const Vec<T>& out) {
  fused<T>({"kumo_krylov_scaled", "T x", "T out", "out = s[0] * x"}, {a}, {x}, {out},
           [&](int64_t i) { out.p[i] = a * x.p[i]; });
}
// x *= a.
template <class T>
void scal(T a, const Vec<T>& x) {
  fused<T>({"kumo_krylov_scal", "", "T x", "x *= s[0]"}, {a}, {}, {x}, [&](int64_t i) { x.p[i] *= a; });
}
// out = x - y.
template <class T>
void sub(const Vec<T>& x, const Vec<T>& y, const Vec<T>& out) {
  fused<T>({"kumo_krylov_sub", "T x, T y", "T out", "out = x - y"}, {T(0)}, {x, y}, {out},
           [&](int64_t i) { out.p[i] = x.p[i] - y.p[i]; });
}
// Whether any element is nonzero.
template <class T>
bool any_nonzero(const Vec<T>& x) {
  if (!x.on_host_loops()) return kumo::any(x.array).template item<bool>();
  return block_sum<int64_t>(x.n, [&](int64_t b, int64_t e) {
           for (int64_t i = b; i < e; ++i)
             if (x.p[i] != T(0)) return int64_t{1};
           return int64_t{0};
         }) > 0;
}

// x += a p; r -= a q; returns |r|^2 (the residual update of CG).
template <class T>
Real<T> update_xr(T a, const Vec<T>& p, const Vec<T>& q, const Vec<T>& x, const Vec<T>& r) {
  using R = Real<T>;
  if (!x.on_host_loops()) {
    fused<T>({"kumo_cg_update_xr", "T p, T q", "T x, T r", "x += s[0] * p; r -= s[0] * q"}, {a}, {p, q}, {x, r},
             [](int64_t) {});
    return static_cast<R>(sumsq(r));
  }
  return block_sum<R>(x.n, [&](int64_t b, int64_t e) {
    R s = 0;
    for (int64_t i = b; i < e; ++i) {
      x.p[i] += a * p.p[i];
      const T ri = r.p[i] - a * q.p[i];
      r.p[i] = ri;
      s += abs2(ri);
    }
    return s;
  });
}

}  // namespace host
}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
