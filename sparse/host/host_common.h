// Helpers shared by the host sparse kernels (sparse/host/*.cpp; not
// installed API): dtype dispatch, scratch buffers, and the split of rows
// into parts of about equal work run on the thread pool.
#pragma once
#include <algorithm>
#include <atomic>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/array.h"
#include "core/dtype_visit.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {
namespace host_detail {


// Below this much work a kernel runs on the calling thread.
constexpr int64_t kGrain = 1 << 15;

template <class T>
using Tag = TypeTag<T>;

template <class F>
decltype(auto) visit_value(Dtype d, F&& f) {
  return visit_dtype(d, f, [d] { throw TypeError(std::string("kumo.sparse: no host kernels for dtype ") + dtype_name(d)); });
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

template <class V>
struct IsComplex : std::false_type {};
template <class T>
struct IsComplex<std::complex<T>> : std::true_type {};
template <class V>
inline constexpr bool is_complex_v = IsComplex<V>::value;

// x < y in NumPy's order: complex numbers by real part, then imaginary part.
template <class V>
bool lex_less(V x, V y) {
  if constexpr (is_complex_v<V>) return x.real() < y.real() || (x.real() == y.real() && x.imag() < y.imag());
  else return x < y;
}

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
// f(Tag<V>, Tag<I>) for a's value and index types.
template <class F>
decltype(auto) typed(const Compressed& a, F&& f) {
  return visit_value(a.data.dtype(), [&](auto tv) {
    return visit_index(a.indices.dtype(), [&](auto ti) { return f(tv, ti); });
  });
}


// The growing rows of a kernel whose row lengths are known only once the
// rows are computed (SpGEMM, column selection, insertion): each part of
// rows appends to a sink of its own, and the sinks are then copied into one
// compressed matrix.
template <class V, class I>
struct RowSink {
  std::vector<I> idx;
  Buffer<V> val;
  void push(I i, V v) {
    idx.push_back(i);
    val.push_back(v);
  }
};

// Runs the rows of every part through a worker made once per thread by
// make_worker() (its scratch lives as long as the thread's share of the
// work): worker(r, sink) appends row r. Returns the compressed matrix of
// n_major rows, with index dtype `index_dtype` or int64 when its nnz needs it.
// `bound`, when given, is a running sum over rows of an upper bound on their
// lengths: each sink reserves that much (at most kReserveMax entries), so
// the common case grows no buffer.
constexpr int64_t kReserveMax = int64_t{1} << 20;

template <class V, class I, class MakeWorker>
Compressed build_rows(const std::vector<int64_t>& parts, int64_t n_major, int64_t n_minor, Dtype value_dtype,
                      Dtype index_dtype, const MakeWorker& make_worker, const int64_t* bound = nullptr) {
  const int64_t n_parts = static_cast<int64_t>(parts.size()) - 1;
  std::vector<RowSink<V, I>> sinks(static_cast<size_t>(n_parts));
  std::vector<int64_t> indptr(static_cast<size_t>(n_major + 1), 0);
  std::atomic<int64_t> next{0};
  const auto run = [&]() {
    auto worker = make_worker();
    for (int64_t p = next.fetch_add(1, std::memory_order_relaxed); p < n_parts;
         p = next.fetch_add(1, std::memory_order_relaxed)) {
      RowSink<V, I>& sink = sinks[static_cast<size_t>(p)];
      if (bound) {
        const size_t want = static_cast<size_t>(std::min(bound[parts[p + 1]] - bound[parts[p]], kReserveMax));
        sink.idx.reserve(want);
        sink.val.reserve(want);
      }
      for (int64_t r = parts[p]; r < parts[p + 1]; ++r) {
        const size_t before = sink.idx.size();
        worker(r, sink);
        indptr[static_cast<size_t>(r + 1)] = static_cast<int64_t>(sink.idx.size() - before);
      }
    }
  };
  if (n_parts <= 1) {
    run();
  } else {
    parallel_for(std::min<int64_t>(n_parts, host_num_threads()), 1, [&](int64_t lo, int64_t hi) {
      for (int64_t t = lo; t < hi; ++t) run();
    });
  }
  for (int64_t r = 0; r < n_major; ++r) indptr[static_cast<size_t>(r + 1)] += indptr[static_cast<size_t>(r)];
  const int64_t nnz = indptr[static_cast<size_t>(n_major)];
  const Dtype out_index =
      index_dtype == Dtype::kInt32 && nnz > std::numeric_limits<int32_t>::max() ? Dtype::kInt64 : index_dtype;
  return visit_index(out_index, [&](auto to) {
    using O = typename decltype(to)::type;
    Array ip_arr = alloc(n_major + 1, out_index), ix_arr = alloc(nnz, out_index), v_arr = alloc(nnz, value_dtype);
    O* ip = ptr<O>(ip_arr);
    O* ix = ptr<O>(ix_arr);
    V* vv = ptr<V>(v_arr);
    for (int64_t r = 0; r <= n_major; ++r) ip[r] = static_cast<O>(indptr[static_cast<size_t>(r)]);
    parallel_for(n_parts, 1, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const RowSink<V, I>& sink = sinks[static_cast<size_t>(p)];
        const int64_t at = indptr[static_cast<size_t>(parts[p])];
        std::copy(sink.idx.begin(), sink.idx.end(), ix + at);
        std::copy(sink.val.begin(), sink.val.end(), vv + at);
      }
    });
    return Compressed{v_arr, ix_arr, ip_arr, n_major, n_minor};
  });
}

// The host kernels of the backend's later calls (sparse_backend.h), one
// file each: SpGEMM (host_spgemm.cpp), row/column selection and element
// access (host_indexing.cpp), row reductions (host_reductions.cpp).
Compressed host_spgemm(const Compressed& a, const Compressed& b);
Compressed host_take_major(const Compressed& a, const Array& rows);
Compressed host_take_minor(const Compressed& a, const Array& cols);
Array host_gather(const Compressed& a, const Array& rows, const Array& cols);
Compressed host_set_entries(const Compressed& a, const Array& rows, const Array& cols, const Array& values);
Array host_reduce_major(const Compressed& a, RowReduce op, bool explicit_only);
// The DIA and BSR kernels (host_dia_bsr.cpp).
Compressed dia_to_csr(const Array& data, const Array& offsets, int64_t rows, int64_t cols, Dtype index_dtype);
Array dia_spmm(const Array& data, const Array& offsets, int64_t rows, int64_t cols, const Array& x);
Array bsr_spmm(const Compressed& blocks, const Array& x);
Compressed bsr_to_csr(const Compressed& blocks);
int64_t count_blocks(const Compressed& a, int64_t r, int64_t c);
Compressed csr_to_bsr(const Compressed& a, int64_t r, int64_t c);

}  // namespace host_detail
}  // namespace sparse
}  // namespace kumo
