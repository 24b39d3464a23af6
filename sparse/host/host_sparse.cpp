// The host SparseBackend: the kernels of kumo::sparse on all cores.
//
// Work over rows is cut into parts of about equal (rows + stored entries),
// a few per thread, so a matrix with a few dense rows still keeps every
// thread busy; SpMV/SpMM run one part per pool task. Kernels are templates
// over the value type V and the index type I (int32 or int64), selected once
// per call from the arrays' dtypes.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "sparse/host/host_common.h"
#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {
using namespace host_detail;  // NOLINT: the helpers of every host sparse kernel

namespace {

// Rows longer than this are sorted with std::stable_sort; shorter ones
// (nearly all in practice) with an insertion sort that needs no scratch.
constexpr int64_t kInsertionSortMax = 32;

// Sorts one row (idx, val)[0..len) by index, stably.
template <class V, class I>
void sort_row(I* idx, V* val, int64_t len, std::vector<int64_t>& perm, std::vector<I>& idx_tmp,
              Buffer<V>& val_tmp) {
  if (len <= kInsertionSortMax) {
    for (int64_t j = 1; j < len; ++j) {
      const I key = idx[j];
      if (idx[j - 1] <= key) continue;
      const V v = val[j];
      int64_t m = j;
      while (m > 0 && idx[m - 1] > key) {
        idx[m] = idx[m - 1];
        val[m] = val[m - 1];
        --m;
      }
      idx[m] = key;
      val[m] = v;
    }
    return;
  }
  bool sorted = true;
  for (int64_t j = 1; j < len && sorted; ++j) sorted = idx[j - 1] <= idx[j];
  if (sorted) return;
  perm.resize(static_cast<size_t>(len));
  std::iota(perm.begin(), perm.end(), int64_t{0});
  std::stable_sort(perm.begin(), perm.end(), [idx](int64_t x, int64_t y) { return idx[x] < idx[y]; });
  idx_tmp.assign(idx, idx + len);
  val_tmp.assign(val, val + len);
  for (int64_t j = 0; j < len; ++j) {
    idx[j] = idx_tmp[static_cast<size_t>(perm[j])];
    val[j] = static_cast<V>(val_tmp[static_cast<size_t>(perm[j])]);
  }
}

// Rows [start[r], start[r+1]) of (idx, val), owned scratch, are sorted and,
// when `sum`, their duplicates merged; returns the compressed matrix.
template <class V, class I>
Compressed finish_rows(Array idx_arr, Array val_arr, Array start_arr, int64_t n_major, int64_t n_minor, bool sum) {
  I* idx = ptr<I>(idx_arr);
  V* val = ptr<V>(val_arr);
  I* start = ptr<I>(start_arr);
  const Dtype index_dtype = idx_arr.dtype();
  Array counts_arr = alloc(sum ? n_major : 0, index_dtype);
  I* counts = ptr<I>(counts_arr);
  std::atomic<bool> any_duplicate{false};
  const std::vector<int64_t> parts = row_parts(start, n_major);
  for_parts(parts, [&](int64_t r0, int64_t r1) {
    std::vector<int64_t> perm;
    std::vector<I> idx_tmp;
    Buffer<V> val_tmp;
    bool dup = false;
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = start[r], len = static_cast<int64_t>(start[r + 1]) - b;
      sort_row(idx + b, val + b, len, perm, idx_tmp, val_tmp);
      if (!sum) continue;
      // Merge runs of one index in place; the row shrinks to `out` entries.
      int64_t out = 0;
      for (int64_t j = 0; j < len; ++j) {
        if (out > 0 && idx[b + out - 1] == idx[b + j]) {
          val[b + out - 1] = add(val[b + out - 1], val[b + j]);
        } else {
          idx[b + out] = idx[b + j];
          val[b + out] = val[b + j];
          ++out;
        }
      }
      counts[r] = static_cast<I>(out);
      dup = dup || out != len;
    }
    if (dup) any_duplicate.store(true, std::memory_order_relaxed);
  });
  if (!sum || !any_duplicate.load()) return Compressed{val_arr, idx_arr, start_arr, n_major, n_minor};
  Array indptr_arr = alloc(n_major + 1, index_dtype);
  I* indptr = ptr<I>(indptr_arr);
  prefix_sum(counts, n_major, indptr);
  const int64_t nnz = indptr[n_major];
  Array out_idx = alloc(nnz, index_dtype), out_val = alloc(nnz, val_arr.dtype());
  I* oi = ptr<I>(out_idx);
  V* ov = ptr<V>(out_val);
  for_parts(row_parts(indptr, n_major), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t from = start[r], to = indptr[r], len = static_cast<int64_t>(indptr[r + 1]) - to;
      std::copy(idx + from, idx + from + len, oi + to);
      std::copy(val + from, val + from + len, ov + to);
    }
  });
  return Compressed{out_val, out_idx, indptr_arr, n_major, n_minor};
}

template <class V, class I>
Compressed compress_typed(const Array& major_arr, const Array& minor_arr, const Array& data_arr, int64_t n_major,
                          int64_t n_minor, bool sum) {
  const I* major = ptr<I>(major_arr);
  const I* minor = ptr<I>(minor_arr);
  const V* data = ptr<V>(data_arr);
  const int64_t nnz = data_arr.size();
  const Dtype index_dtype = major_arr.dtype();
  // A stable counting sort by major index. Each chunk of entries counts its
  // rows in a histogram of its own (no atomics, and the placement keeps
  // entry order, so sums of duplicates are deterministic); a chunk per
  // thread, but no more chunks than entries per row, or the histograms would
  // cost more than the entries.
  int64_t chunks = 1;
  if (nnz >= kGrain)
    chunks = std::max<int64_t>(1, std::min<int64_t>(host_num_threads(), nnz / std::max<int64_t>(n_major, 1)));
  std::vector<std::vector<I>> hist(static_cast<size_t>(chunks));
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      std::vector<I>& h = hist[static_cast<size_t>(c)];
      h.assign(static_cast<size_t>(n_major), 0);
      const int64_t k0 = nnz * c / chunks, k1 = nnz * (c + 1) / chunks;
      for (int64_t k = k0; k < k1; ++k) ++h[static_cast<size_t>(major[k])];
    }
  });
  Array counts_arr = alloc(n_major, index_dtype);
  I* counts = ptr<I>(counts_arr);
  // Per row: each chunk's offset within the row, and the row's length.
  parallel_for(n_major, kGrain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      I run = 0;
      for (auto& h : hist) {
        const I n = h[static_cast<size_t>(r)];
        h[static_cast<size_t>(r)] = run;
        run = static_cast<I>(run + n);
      }
      counts[r] = run;
    }
  });
  Array start_arr = alloc(n_major + 1, index_dtype);
  I* start = ptr<I>(start_arr);
  prefix_sum(counts, n_major, start);
  // Each chunk's next position in every row, so the scatter below reads one
  // array at random instead of two.
  parallel_for(n_major, kGrain, [&](int64_t r0, int64_t r1) {
    for (auto& h : hist)
      for (int64_t r = r0; r < r1; ++r) h[static_cast<size_t>(r)] = static_cast<I>(h[static_cast<size_t>(r)] + start[r]);
  });
  Array idx_arr = alloc(nnz, index_dtype), val_arr = alloc(nnz, data_arr.dtype());
  I* idx = ptr<I>(idx_arr);
  V* val = ptr<V>(val_arr);
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      I* h = hist[static_cast<size_t>(c)].data();
      const int64_t k0 = nnz * c / chunks, k1 = nnz * (c + 1) / chunks;
      for (int64_t k = k0; k < k1; ++k) {
        const int64_t pos = h[major[k]]++;
        idx[pos] = minor[k];
        val[pos] = data[k];
      }
    }
  });
  hist.clear();
  return finish_rows<V, I>(idx_arr, val_arr, start_arr, n_major, n_minor, sum);
}

template <class V, class I>
Compressed copy_and_finish(const Compressed& a, bool sum) {
  const int64_t nnz = a.data.size();
  Array idx = alloc(nnz, a.indices.dtype()), val = alloc(nnz, a.data.dtype());
  Array start = alloc(a.n_major + 1, a.indptr.dtype());
  // An empty array's storage may be a null pointer, which memcpy must not get
  // even for zero bytes (UBSan reports it as undefined behaviour).
  const auto copy = [](Array& to, const Array& from) {
    if (to.nbytes() > 0) std::memcpy(to.data(), from.data(), static_cast<size_t>(to.nbytes()));
  };
  copy(idx, a.indices);
  copy(val, a.data);
  copy(start, a.indptr);
  return finish_rows<V, I>(idx, val, start, a.n_major, a.n_minor, sum);
}

template <class V, class I>
Compressed eliminate_zeros_typed(const Compressed& a) {
  const I* ip = ptr<I>(a.indptr);
  const I* ix = ptr<I>(a.indices);
  const V* dv = ptr<V>(a.data);
  const int64_t n = a.n_major;
  Array counts_arr = alloc(n, a.indptr.dtype());
  I* counts = ptr<I>(counts_arr);
  const std::vector<int64_t> parts = row_parts(ip, n);
  for_parts(parts, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      I c = 0;
      for (int64_t k = ip[r]; k < ip[r + 1]; ++k) c = static_cast<I>(c + (dv[k] != V(0)));
      counts[r] = c;
    }
  });
  Array indptr_arr = alloc(n + 1, a.indptr.dtype());
  I* op = ptr<I>(indptr_arr);
  prefix_sum(counts, n, op);
  const int64_t nnz = op[n];
  Array idx_arr = alloc(nnz, a.indices.dtype()), val_arr = alloc(nnz, a.data.dtype());
  I* oi = ptr<I>(idx_arr);
  V* ov = ptr<V>(val_arr);
  for_parts(parts, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t o = op[r];
      for (int64_t k = ip[r]; k < ip[r + 1]; ++k) {
        if (dv[k] != V(0)) {
          oi[o] = ix[k];
          ov[o] = dv[k];
          ++o;
        }
      }
    }
  });
  return Compressed{val_arr, idx_arr, indptr_arr, a.n_major, a.n_minor};
}

template <class V, class I>
void dense_nonzero_typed(const Array& dense, Dtype index_dtype, Array* row_out, Array* col_out, Array* data_out) {
  const int64_t rows = dense.shape()[0], cols = dense.shape()[1];
  const V* d = ptr<V>(dense);
  Array counts_arr = alloc(rows, index_dtype);
  I* counts = ptr<I>(counts_arr);
  const int64_t row_grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(cols, 1));
  parallel_for(rows, row_grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t c = 0;
      for (int64_t j = 0; j < cols; ++j) c += d[r * cols + j] != V(0);
      counts[r] = static_cast<I>(c);
    }
  });
  Array start_arr = alloc(rows + 1, index_dtype);
  I* start = ptr<I>(start_arr);
  prefix_sum(counts, rows, start);
  const int64_t nnz = start[rows];
  *row_out = alloc(nnz, index_dtype);
  *col_out = alloc(nnz, index_dtype);
  *data_out = alloc(nnz, dense.dtype());
  I* ro = ptr<I>(*row_out);
  I* co = ptr<I>(*col_out);
  V* vo = ptr<V>(*data_out);
  parallel_for(rows, row_grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t o = start[r];
      for (int64_t j = 0; j < cols; ++j) {
        const V v = d[r * cols + j];
        if (v != V(0)) {
          ro[o] = static_cast<I>(r);
          co[o] = static_cast<I>(j);
          vo[o] = v;
          ++o;
        }
      }
    }
  });
}

template <class V, class I>
Array todense_typed(const Compressed& a, bool transposed) {
  const I* ip = ptr<I>(a.indptr);
  const I* ix = ptr<I>(a.indices);
  const V* dv = ptr<V>(a.data);
  const int64_t n = a.n_major, m = a.n_minor;
  Array out = transposed ? Array::empty(Shape{m, n}, a.data.dtype(), host_device())
                         : Array::empty(Shape{n, m}, a.data.dtype(), host_device());
  V* o = ptr<V>(out);
  const int64_t total = n * m;
  parallel_for(total, kGrain * 8, [&](int64_t b, int64_t e) { std::fill(o + b, o + e, V(0)); });
  // Row r writes row r of the result, or column r when transposed: either
  // way parts of rows touch disjoint elements.
  for_parts(row_parts(ip, n), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      for (int64_t k = ip[r]; k < ip[r + 1]; ++k) {
        V& dst = transposed ? o[static_cast<int64_t>(ix[k]) * n + r] : o[r * m + ix[k]];
        dst = add(dst, dv[k]);
      }
    }
  });
  return out;
}

template <class V, class I>
Array diagonal_typed(const Compressed& a, int64_t k) {
  const I* ip = ptr<I>(a.indptr);
  const I* ix = ptr<I>(a.indices);
  const V* dv = ptr<V>(a.data);
  const int64_t len = k >= 0 ? std::min(a.n_major, a.n_minor - k) : std::min(a.n_major + k, a.n_minor);
  Array out = alloc(std::max<int64_t>(len, 0), a.data.dtype());
  V* o = ptr<V>(out);
  parallel_for(std::max<int64_t>(len, 0), kGrain / 16, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t r = k >= 0 ? i : i - k, c = r + k;
      V s = V(0);
      for (int64_t q = ip[r]; q < ip[r + 1]; ++q)
        if (ix[q] == c) s = add(s, dv[q]);
      o[i] = s;
    }
  });
  return out;
}

template <class V, class I>
Array spmm_typed(const Compressed& a, const Array& x, bool transposed) {
  const I* ip = ptr<I>(a.indptr);
  const I* ix = ptr<I>(a.indices);
  const V* dv = ptr<V>(a.data);
  const V* xv = ptr<V>(x);
  const int64_t n = a.n_major, m = a.n_minor, p = x.shape()[1];
  const std::vector<int64_t> parts = row_parts(ip, n);
  if (!transposed) {
    Array y = Array::empty(Shape{n, p}, a.data.dtype(), host_device());
    V* yv = ptr<V>(y);
    for_parts(parts, [&](int64_t r0, int64_t r1) {
      // x is read at random places; the loads are issued kPrefetch entries
      // ahead so their cache misses overlap (the part's last entries are
      // not prefetched).
      const int64_t k_end = ip[r1];
      if (p == 1) {
        constexpr int64_t kPrefetch = 64;
        for (int64_t r = r0; r < r1; ++r) {
          V s = V(0);
          for (int64_t k = ip[r]; k < ip[r + 1]; ++k) {
            if (k + kPrefetch < k_end) __builtin_prefetch(xv + ix[k + kPrefetch]);
            s = add(s, mul(dv[k], xv[ix[k]]));
          }
          yv[r] = s;
        }
        return;
      }
      // A row of x per entry: prefetch the whole row two entries ahead.
      const int64_t row_bytes = p * static_cast<int64_t>(sizeof(V));
      for (int64_t r = r0; r < r1; ++r) {
        V* yr = yv + r * p;
        std::fill(yr, yr + p, V(0));
        for (int64_t k = ip[r]; k < ip[r + 1]; ++k) {
          if (k + 2 < k_end) {
            const char* ahead = reinterpret_cast<const char*>(xv + static_cast<int64_t>(ix[k + 2]) * p);
            for (int64_t b = 0; b < row_bytes; b += 64) __builtin_prefetch(ahead + b);
          }
          const V v = dv[k];
          const V* xr = xv + static_cast<int64_t>(ix[k]) * p;
          for (int64_t j = 0; j < p; ++j) yr[j] = add(yr[j], mul(v, xr[j]));
        }
      }
    });
    return y;
  }
  // y = A^T x scatters into rows of y: each group of parts accumulates into
  // a private copy, summed at the end. At most as many copies as entries
  // per output row, so the copies never cost more than the product.
  Array y = Array::empty(Shape{m, p}, a.data.dtype(), host_device());
  V* yv = ptr<V>(y);
  const int64_t nnz = ip[n];
  int64_t copies = 1;
  if (nnz + n >= kGrain)
    copies = std::max<int64_t>(1, std::min<int64_t>(host_num_threads(), nnz / std::max<int64_t>(m, 1)));
  const auto scatter = [&](V* dst, int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const V* xr = xv + r * p;
      for (int64_t k = ip[r]; k < ip[r + 1]; ++k) {
        V* yr = dst + static_cast<int64_t>(ix[k]) * p;
        const V v = dv[k];
        for (int64_t j = 0; j < p; ++j) yr[j] = add(yr[j], mul(v, xr[j]));
      }
    }
  };
  if (copies == 1) {
    std::fill(yv, yv + m * p, V(0));
    scatter(yv, 0, n);
    return y;
  }
  // `copies` groups of rows of about equal work.
  std::vector<int64_t> groups(static_cast<size_t>(copies + 1), n);
  groups[0] = 0;
  for (int64_t c = 1, r = 0; c < copies; ++c) {
    const int64_t target = (nnz + n) * c / copies;
    while (r < n && static_cast<int64_t>(ip[r]) + r < target) ++r;
    groups[static_cast<size_t>(c)] = r;
  }
  const int64_t ng = static_cast<int64_t>(groups.size()) - 1;
  std::vector<Buffer<V>> priv(static_cast<size_t>(ng));
  parallel_for(ng, 1, [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
      priv[static_cast<size_t>(g)].assign(static_cast<size_t>(m * p), 0);
      scatter(reinterpret_cast<V*>(priv[static_cast<size_t>(g)].data()), groups[g], groups[g + 1]);
    }
  });
  parallel_for(m * p, kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      V s = V(0);
      for (auto& buf : priv) s = add(s, static_cast<V>(buf[static_cast<size_t>(i)]));
      yv[i] = s;
    }
  });
  return y;
}

// numpy.maximum (want_max) or numpy.minimum: the first NaN wins; complex
// numbers by real part, then imaginary part.
template <class V>
inline V extreme(V x, V y, bool want_max) {
  if constexpr (is_complex_v<V>) {
    if (std::isnan(x.real()) || std::isnan(x.imag())) return x;
    if (std::isnan(y.real()) || std::isnan(y.imag())) return y;
    return lex_less(y, x) == want_max ? x : y;
  } else {
    if constexpr (std::is_floating_point_v<V>) {
      if (std::isnan(x)) return x;
      if (std::isnan(y)) return y;
    }
    return want_max ? (x < y ? y : x) : (y < x ? y : x);
  }
}

template <class V>
inline V apply(BinaryOp op, V x, V y) {
  switch (op) {
    case BinaryOp::kAdd: return static_cast<V>(x + y);
    case BinaryOp::kSubtract: return static_cast<V>(x - y);
    case BinaryOp::kMaximum: return extreme(x, y, true);
    case BinaryOp::kMinimum: return extreme(x, y, false);
    case BinaryOp::kNotEqual: return V(x != y);
    case BinaryOp::kLess: return V(lex_less(x, y));
    case BinaryOp::kGreater: return V(lex_less(y, x));
    default: return mul(x, y);
  }
}

template <class V, class I>
Compressed binop_typed(const Compressed& a, const Compressed& b, BinaryOp op) {
  const I* ap = ptr<I>(a.indptr);
  const I* ai = ptr<I>(a.indices);
  const V* ad = ptr<V>(a.data);
  const I* bp = ptr<I>(b.indptr);
  const I* bi = ptr<I>(b.indices);
  const V* bd = ptr<V>(b.data);
  const int64_t n = a.n_major;
  const V zero = V(0);
  // Visits the results of row r in index order: emit(index, value).
  const auto merge_row = [&](int64_t r, auto&& emit) {
    int64_t i = ap[r], j = bp[r];
    const int64_t ie = ap[r + 1], je = bp[r + 1];
    while (i < ie || j < je) {
      if (j >= je || (i < ie && ai[i] < bi[j])) {
        if (op != BinaryOp::kMultiply) emit(ai[i], apply(op, ad[i], zero));
        ++i;
      } else if (i >= ie || bi[j] < ai[i]) {
        if (op != BinaryOp::kMultiply) emit(bi[j], apply(op, zero, bd[j]));
        ++j;
      } else {
        emit(ai[i], apply(op, ad[i], bd[j]));
        ++i;
        ++j;
      }
    }
  };
  // Parts balanced over both operands' entries: the sum of their indptrs.
  // (int64: the two counts together may pass int32 when each fits.)
  std::vector<int64_t> work(static_cast<size_t>(n + 1));
  for (int64_t r = 0; r <= n; ++r) work[static_cast<size_t>(r)] = static_cast<int64_t>(ap[r]) + bp[r];
  const std::vector<int64_t> parts = row_parts(work.data(), n);
  Array counts_arr = alloc(n, a.indptr.dtype());
  I* counts = ptr<I>(counts_arr);
  for_parts(parts, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      I c = 0;
      merge_row(r, [&](I, V v) { c = static_cast<I>(c + (v != zero)); });
      counts[r] = c;
    }
  });
  Array indptr_arr = alloc(n + 1, a.indptr.dtype());
  I* op_ptr = ptr<I>(indptr_arr);
  prefix_sum(counts, n, op_ptr);
  const int64_t nnz = op_ptr[n];
  Array idx_arr = alloc(nnz, a.indices.dtype()), val_arr = alloc(nnz, a.data.dtype());
  I* oi = ptr<I>(idx_arr);
  V* ov = ptr<V>(val_arr);
  for_parts(parts, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t o = op_ptr[r];
      merge_row(r, [&](I c, V v) {
        if (v != zero) {
          oi[o] = c;
          ov[o] = v;
          ++o;
        }
      });
    }
  });
  return Compressed{val_arr, idx_arr, indptr_arr, a.n_major, a.n_minor};
}

Compressed finish(const Compressed& a, bool sum) {
  return typed(a, [&](auto tv, auto ti) {
    return copy_and_finish<typename decltype(tv)::type, typename decltype(ti)::type>(a, sum);
  });
}

class HostSparseBackend final : public SparseBackend {
 public:
  std::string name() const override { return "kumo host sparse"; }

  std::pair<int64_t, int64_t> min_max(const Array& index) override {
    return visit_index(index.dtype(), [&](auto t) {
      using I = typename decltype(t)::type;
      const I* v = ptr<I>(index);
      const int64_t n = index.size();
      if (n == 0) return std::pair<int64_t, int64_t>{0, -1};
      std::mutex mu;
      int64_t lo = v[0], hi = v[0];
      parallel_for(n, kGrain, [&](int64_t b, int64_t e) {
        I l = v[b], h = v[b];
        for (int64_t i = b; i < e; ++i) {
          l = std::min(l, v[i]);
          h = std::max(h, v[i]);
        }
        std::lock_guard<std::mutex> lock(mu);
        lo = std::min<int64_t>(lo, l);
        hi = std::max<int64_t>(hi, h);
      });
      return std::pair<int64_t, int64_t>{lo, hi};
    });
  }

  int64_t first_decrease(const Array& indptr) override {
    return visit_index(indptr.dtype(), [&](auto t) {
      using I = typename decltype(t)::type;
      const I* v = ptr<I>(indptr);
      for (int64_t i = 0; i + 1 < indptr.size(); ++i)
        if (v[i + 1] < v[i]) return i;
      return int64_t{-1};
    });
  }

  IndexOrder index_order(const Compressed& a) override {
    return visit_index(a.indices.dtype(), [&](auto t) {
      using I = typename decltype(t)::type;
      const I* ip = ptr<I>(a.indptr);
      const I* ix = ptr<I>(a.indices);
      std::atomic<bool> unsorted{false}, duplicate{false};
      for_parts(row_parts(ip, a.n_major), [&](int64_t r0, int64_t r1) {
        bool u = false, d = false;
        for (int64_t r = r0; r < r1 && !u; ++r)
          for (int64_t k = static_cast<int64_t>(ip[r]) + 1; k < ip[r + 1]; ++k) {
            u = u || ix[k] < ix[k - 1];
            d = d || ix[k] == ix[k - 1];
          }
        if (u) unsorted.store(true, std::memory_order_relaxed);
        if (d) duplicate.store(true, std::memory_order_relaxed);
      });
      IndexOrder o;
      o.sorted = !unsorted.load();
      o.canonical = o.sorted && !duplicate.load();
      return o;
    });
  }

  Compressed compress(const Array& major, const Array& minor, const Array& data, int64_t n_major, int64_t n_minor,
                      bool sum_duplicates, Dtype index_dtype) override {
    const Array mj = major.dtype() == index_dtype ? major : major.astype(index_dtype);
    const Array mn = minor.dtype() == index_dtype ? minor : minor.astype(index_dtype);
    return visit_value(data.dtype(), [&](auto tv) {
      using V = typename decltype(tv)::type;
      return visit_index(index_dtype, [&](auto ti) {
        using I = typename decltype(ti)::type;
        return compress_typed<V, I>(mj, mn, data, n_major, n_minor, sum_duplicates);
      });
    });
  }

  Compressed sort_indices(const Compressed& a) override { return finish(a, false); }
  Compressed sum_duplicates(const Compressed& a) override { return finish(a, true); }

  Compressed eliminate_zeros(const Compressed& a) override {
    return typed(a, [&](auto tv, auto ti) {
      return eliminate_zeros_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a);
    });
  }

  Array expand_major(const Array& indptr, int64_t nnz) override {
    return visit_index(indptr.dtype(), [&](auto t) {
      using I = typename decltype(t)::type;
      const I* ip = ptr<I>(indptr);
      Array out = alloc(nnz, indptr.dtype());
      I* o = ptr<I>(out);
      for_parts(row_parts(ip, indptr.size() - 1), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) std::fill(o + ip[r], o + ip[r + 1], static_cast<I>(r));
      });
      return out;
    });
  }

  void dense_nonzero(const Array& dense, Dtype index_dtype, Array* row, Array* col, Array* data) override {
    visit_value(dense.dtype(), [&](auto tv) {
      using V = typename decltype(tv)::type;
      visit_index(index_dtype, [&](auto ti) {
        dense_nonzero_typed<V, typename decltype(ti)::type>(dense, index_dtype, row, col, data);
      });
    });
  }

  Array todense(const Compressed& a, bool transposed) override {
    return typed(a, [&](auto tv, auto ti) {
      return todense_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, transposed);
    });
  }

  Array diagonal(const Compressed& a, int64_t k) override {
    return typed(a, [&](auto tv, auto ti) {
      return diagonal_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, k);
    });
  }

  Array spmm(const Compressed& a, const Array& x, bool transposed) override {
    return typed(a, [&](auto tv, auto ti) {
      return spmm_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, x, transposed);
    });
  }

  Compressed binop(const Compressed& a, const Compressed& b, BinaryOp op) override {
    return typed(a, [&](auto tv, auto ti) {
      return binop_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, b, op);
    });
  }

  // ---- sparse products, indexing and row reductions (their own files) ----
  Compressed spgemm(const Compressed& a, const Compressed& b) override { return host_spgemm(a, b); }
  Compressed take_major(const Compressed& a, const Array& rows) override { return host_take_major(a, rows); }
  Compressed take_minor(const Compressed& a, const Array& cols) override { return host_take_minor(a, cols); }
  Array gather(const Compressed& a, const Array& rows, const Array& cols) override {
    return host_gather(a, rows, cols);
  }
  Compressed set_entries(const Compressed& a, const Array& rows, const Array& cols, const Array& values) override {
    return host_set_entries(a, rows, cols, values);
  }
  Array reduce_major(const Compressed& a, RowReduce op, bool explicit_only) override {
    return host_reduce_major(a, op, explicit_only);
  }

  // ---- DIA and BSR (sparse/host/host_dia_bsr.cpp) ----
  Compressed dia_to_csr(const Array& data, const Array& offsets, int64_t rows, int64_t cols,
                        Dtype index_dtype) override {
    return host_detail::dia_to_csr(data, offsets, rows, cols, index_dtype);
  }
  Array dia_spmm(const Array& data, const Array& offsets, int64_t rows, int64_t cols, const Array& x) override {
    return host_detail::dia_spmm(data, offsets, rows, cols, x);
  }
  Array bsr_spmm(const Compressed& blocks, const Array& x) override { return host_detail::bsr_spmm(blocks, x); }
  Compressed bsr_to_csr(const Compressed& blocks) override { return host_detail::bsr_to_csr(blocks); }
  int64_t count_blocks(const Compressed& a, int64_t r, int64_t c) override {
    return host_detail::count_blocks(a, r, c);
  }
  Compressed csr_to_bsr(const Compressed& a, int64_t r, int64_t c) override {
    return host_detail::csr_to_bsr(a, r, c);
  }

};

}  // namespace

SparseBackend& host_sparse_backend() {
  static HostSparseBackend backend;
  return backend;
}

}  // namespace sparse
}  // namespace kumo
