// Helpers of the host sparse kernels (not installed API): dtype dispatch,
// raw pointers, work partition over rows and prefix sums, shared by the
// files of sparse/host/.
#pragma once
#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "core/array.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"

namespace kumo {
namespace sparse {
namespace host_detail {

// Below this much work a kernel runs on the calling thread.
constexpr int64_t kGrain = 1 << 15;

template <class T>
struct Tag {
  using type = T;
};

template <class F>
decltype(auto) visit_value(Dtype d, F&& f) {
  switch (d) {
    case Dtype::kBool: return f(Tag<bool>{});
    case Dtype::kInt8: return f(Tag<int8_t>{});
    case Dtype::kUInt8: return f(Tag<uint8_t>{});
    case Dtype::kInt16: return f(Tag<int16_t>{});
    case Dtype::kUInt16: return f(Tag<uint16_t>{});
    case Dtype::kInt32: return f(Tag<int32_t>{});
    case Dtype::kUInt32: return f(Tag<uint32_t>{});
    case Dtype::kInt64: return f(Tag<int64_t>{});
    case Dtype::kUInt64: return f(Tag<uint64_t>{});
    case Dtype::kFloat32: return f(Tag<float>{});
    case Dtype::kFloat64: return f(Tag<double>{});
    case Dtype::kComplex64: return f(Tag<std::complex<float>>{});
    case Dtype::kComplex128: return f(Tag<std::complex<double>>{});
    default: break;
  }
  throw TypeError(std::string("kumo.sparse: no host kernels for dtype ") + dtype_name(d));
}

template <class F>
decltype(auto) visit_index(Dtype d, F&& f) {
  if (d == Dtype::kInt32) return f(Tag<int32_t>{});
  if (d == Dtype::kInt64) return f(Tag<int64_t>{});
  throw TypeError(std::string("kumo.sparse: index arrays must be int32 or int64, not ") + dtype_name(d));
}

// Scratch storage for values (std::vector<bool> has no contiguous storage).
template <class V>
using Buffer = std::vector<std::conditional_t<std::is_same_v<V, bool>, uint8_t, V>>;

template <class T>
T* ptr(const Array& a) {
  return reinterpret_cast<T*>(a.data());
}

inline Array alloc(int64_t n, Dtype dtype) { return Array::empty(Shape{n}, dtype, host_device()); }

// a + b and a * b in V's arithmetic; bool is logical (NumPy's bool add).
template <class V>
inline V add(V a, V b) {
  if constexpr (std::is_same_v<V, bool>) return a || b;
  else return static_cast<V>(a + b);
}
template <class V>
inline V mul(V a, V b) {
  if constexpr (std::is_same_v<V, bool>) return a && b;
  else return static_cast<V>(a * b);
}

// Boundaries of parts of rows [0, n) with about equal rows + entries each.
template <class I>
std::vector<int64_t> row_parts(const I* indptr, int64_t n) {
  const int64_t total = static_cast<int64_t>(indptr[n]) + n;
  int64_t parts = 1;
  if (total >= kGrain) parts = std::min<int64_t>(int64_t{host_num_threads()} * 16, total / (kGrain / 4));
  parts = std::max<int64_t>(1, std::min(parts, n));
  std::vector<int64_t> b(static_cast<size_t>(parts + 1), 0);
  b[parts] = n;
  for (int64_t p = 1; p < parts; ++p) {
    const int64_t target = total * p / parts;
    // The first row r with indptr[r] + r >= target (monotone in r).
    int64_t lo = b[p - 1], hi = n;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (static_cast<int64_t>(indptr[mid]) + mid < target) lo = mid + 1;
      else hi = mid;
    }
    b[p] = lo;
  }
  return b;
}

// Runs fn(first row, end row) for every part. Threads claim parts one at a
// time, so a thread the OS takes away for a while (other processes on the
// cores) holds up only the part it is in, not a fixed share of them.
template <class Fn>
void for_parts(const std::vector<int64_t>& b, const Fn& fn) {
  const int64_t parts = static_cast<int64_t>(b.size()) - 1;
  if (parts == 1) {
    fn(b[0], b[1]);
    return;
  }
  std::atomic<int64_t> next{0};
  parallel_for(std::min<int64_t>(parts, host_num_threads()), 1, [&](int64_t lo, int64_t hi) {
    for (int64_t t = lo; t < hi; ++t)
      for (int64_t p = next.fetch_add(1, std::memory_order_relaxed); p < parts;
           p = next.fetch_add(1, std::memory_order_relaxed))
        fn(b[p], b[p + 1]);
  });
}

// Exclusive prefix sum of counts[0..n) into indptr[0..n] (serial: one
// streaming pass, far cheaper than the kernels around it).
template <class I>
void prefix_sum(const I* counts, int64_t n, I* indptr) {
  int64_t run = 0;
  for (int64_t i = 0; i < n; ++i) {
    indptr[i] = static_cast<I>(run);
    run += counts[i];
  }
  indptr[n] = static_cast<I>(run);
}

}  // namespace host_detail
}  // namespace sparse
}  // namespace kumo

// The DIA and BSR kernels (sparse/host/host_dia_bsr.cpp), behind the host
// backend's virtuals of the same names (sparse/sparse_backend.h).
namespace kumo {
namespace sparse {
struct Compressed;
namespace host_detail {
Compressed dia_to_csr(const Array& data, const Array& offsets, int64_t rows, int64_t cols, Dtype index_dtype);
Array dia_spmm(const Array& data, const Array& offsets, int64_t rows, int64_t cols, const Array& x);
Array bsr_spmm(const Compressed& blocks, const Array& x);
Compressed bsr_to_csr(const Compressed& blocks);
int64_t count_blocks(const Compressed& a, int64_t r, int64_t c);
Compressed csr_to_bsr(const Compressed& a, int64_t r, int64_t c);
}  // namespace host_detail
}  // namespace sparse
}  // namespace kumo
