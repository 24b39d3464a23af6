// Vector kernels of the Krylov solvers on host vectors of T (float, double,
// complex<float>, complex<double>), on all cores.
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

// A contiguous host vector of T that owns its Array.
template <class T>
struct Vec {
  Array array;
  T* p = nullptr;
  int64_t n = 0;

  Vec() = default;
  explicit Vec(const Array& a) : array(a), p(reinterpret_cast<T*>(a.data())), n(a.size()) {}
  T& operator[](int64_t i) const { return p[i]; }
};

template <class T>
Vec<T> new_vec(int64_t n, Dtype dtype) {
  return Vec<T>(Array::empty(Shape{n}, dtype, host_device()));
}
template <class T>
Vec<T> zeros_vec(int64_t n, Dtype dtype) {
  Vec<T> v = new_vec<T>(n, dtype);
  blocks_for(n, [&](int64_t b, int64_t e) { std::fill(v.p + b, v.p + e, T(0)); });
  return v;
}
template <class T>
Vec<T> copy_vec(const Vec<T>& x) {
  Vec<T> v = new_vec<T>(x.n, x.array.dtype());
  blocks_for(x.n, [&](int64_t b, int64_t e) { std::copy(x.p + b, x.p + e, v.p + b); });
  return v;
}
template <class T>
void assign(const Vec<T>& dst, const Vec<T>& src) {
  blocks_for(dst.n, [&](int64_t b, int64_t e) { std::copy(src.p + b, src.p + e, dst.p + b); });
}

// sum conj(x_i) y_i (numpy.vdot; numpy.dot for real T).
template <class T>
T dot(const Vec<T>& x, const Vec<T>& y) {
  return block_sum<T>(x.n, [&](int64_t b, int64_t e) {
    T s(0);
    for (int64_t i = b; i < e; ++i) s += conj_of(x.p[i]) * y.p[i];
    return s;
  });
}
// sum x_i y_i without conjugation (numpy.inner).
template <class T>
T dotu(const Vec<T>& x, const Vec<T>& y) {
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

// y += a x.
template <class T>
void axpy(T a, const Vec<T>& x, const Vec<T>& y) {
  blocks_for(y.n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) y.p[i] += a * x.p[i];
  });
}
// y = x + a y.
template <class T>
void xpay(const Vec<T>& x, T a, const Vec<T>& y) {
  blocks_for(y.n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) y.p[i] = x.p[i] + a * y.p[i];
  });
}
// x *= a.
template <class T>
void scal(T a, const Vec<T>& x) {
  blocks_for(x.n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) x.p[i] *= a;
  });
}
// out = x - y.
template <class T>
void sub(const Vec<T>& x, const Vec<T>& y, const Vec<T>& out) {
  blocks_for(out.n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) out.p[i] = x.p[i] - y.p[i];
  });
}
// Whether any element is nonzero.
template <class T>
bool any_nonzero(const Vec<T>& x) {
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
