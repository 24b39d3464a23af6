// Host kernels of the DIA and BSR formats: conversions to and from CSR and
// products with dense operands, on all cores. Work is split over rows (DIA)
// or block rows (BSR), so every thread writes its own rows of the result.
#include <algorithm>
#include <numeric>
#include <vector>

#include "sparse/host/host_common.h"
#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {
namespace host_detail {
namespace {

// Calls fn(first, end) for `threads` contiguous ranges of [0, n) at most,
// one per pool task, so each task can keep one scratch buffer for its range.
template <class Fn>
void for_ranges(int64_t n, int64_t work, const Fn& fn) {
  const int64_t tasks = work < kGrain ? 1 : std::min<int64_t>(host_num_threads(), std::max<int64_t>(n, 1));
  if (tasks <= 1) {
    fn(int64_t{0}, n);
    return;
  }
  parallel_for(tasks, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) fn(n * t / tasks, n * (t + 1) / tasks);
  });
}

// The diagonals' order by offset, so rows come out sorted by column.
std::vector<int64_t> offset_order(const int64_t* off, int64_t n) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::sort(order.begin(), order.end(), [off](int64_t a, int64_t b) { return off[a] < off[b]; });
  return order;
}

template <class V, class I>
Compressed dia_to_csr_typed(const Array& data_arr, const Array& offsets_arr, int64_t rows, int64_t cols,
                            Dtype index_dtype) {
  const V* data = ptr<V>(data_arr);
  const int64_t* off = ptr<int64_t>(offsets_arr);
  const int64_t nd = data_arr.shape()[0], len = data_arr.shape()[1];
  const int64_t width = std::min(cols, len);  // columns that hold matrix entries
  const std::vector<int64_t> order = offset_order(off, nd);
  // Visits the stored nonzeros of row i in column order: emit(column, value).
  const auto visit_row = [&](int64_t i, auto&& emit) {
    for (int64_t d : order) {
      const int64_t j = i + off[d];
      if (j < 0 || j >= width) continue;
      const V v = data[d * len + j];
      if (v != V(0)) emit(j, v);
    }
  };
  Array counts_arr = alloc(rows, index_dtype);
  I* counts = ptr<I>(counts_arr);
  const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(nd, 1));
  parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      I c = 0;
      visit_row(i, [&](int64_t, V) { ++c; });
      counts[i] = c;
    }
  });
  Array indptr_arr = alloc(rows + 1, index_dtype);
  I* indptr = ptr<I>(indptr_arr);
  prefix_sum(counts, rows, indptr);
  const int64_t nnz = indptr[rows];
  Array idx_arr = alloc(nnz, index_dtype), val_arr = alloc(nnz, data_arr.dtype());
  I* idx = ptr<I>(idx_arr);
  V* val = ptr<V>(val_arr);
  parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      int64_t o = indptr[i];
      visit_row(i, [&](int64_t j, V v) {
        idx[o] = static_cast<I>(j);
        val[o] = v;
        ++o;
      });
    }
  });
  return Compressed{val_arr, idx_arr, indptr_arr, rows, cols};
}

template <class V>
Array dia_spmm_typed(const Array& data_arr, const Array& offsets_arr, int64_t rows, int64_t cols, const Array& x) {
  const V* data = ptr<V>(data_arr);
  const int64_t* off = ptr<int64_t>(offsets_arr);
  const V* xv = ptr<V>(x);
  const int64_t nd = data_arr.shape()[0], len = data_arr.shape()[1], p = x.shape()[1];
  const int64_t width = std::min(cols, len);
  Array y = Array::empty(Shape{rows, p}, data_arr.dtype(), host_device());
  V* yv = ptr<V>(y);
  // Rows in blocks; each block runs over the diagonals, which keeps a
  // block's rows of y in cache while the diagonals stream by.
  const int64_t grain = std::max<int64_t>(64, kGrain / std::max<int64_t>(nd * p, 1));
  parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
    std::fill(yv + r0 * p, yv + r1 * p, V(0));
    for (int64_t d = 0; d < nd; ++d) {
      const int64_t k = off[d];
      // Rows i with 0 <= i + k < width.
      const int64_t lo = std::max(r0, -k), hi = std::min(r1, width - k);
      const V* dd = data + d * len;
      if (p == 1) {  // SpMV: a straight, vectorisable pass along the diagonal
        for (int64_t i = lo; i < hi; ++i) yv[i] = add(yv[i], mul(dd[i + k], xv[i + k]));
        continue;
      }
      for (int64_t i = lo; i < hi; ++i) {
        const V a = dd[i + k];
        const V* xr = xv + (i + k) * p;
        V* yr = yv + i * p;
        for (int64_t j = 0; j < p; ++j) yr[j] = add(yr[j], mul(a, xr[j]));
      }
    }
  });
  return y;
}

template <class V, class I>
Array bsr_spmm_typed(const Compressed& b, const Array& x) {
  const I* ip = ptr<I>(b.indptr);
  const I* ix = ptr<I>(b.indices);
  const V* dv = ptr<V>(b.data);
  const V* xv = ptr<V>(x);
  const int64_t R = b.data.shape()[1], C = b.data.shape()[2], p = x.shape()[1];
  Array y = Array::empty(Shape{b.n_major * R, p}, b.data.dtype(), host_device());
  V* yv = ptr<V>(y);
  for_parts(row_parts(ip, b.n_major), [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
      V* yb = yv + g * R * p;
      std::fill(yb, yb + R * p, V(0));
      for (int64_t k = ip[g]; k < ip[g + 1]; ++k) {
        const V* blk = dv + k * R * C;
        const V* xb = xv + static_cast<int64_t>(ix[k]) * C * p;
        for (int64_t r = 0; r < R; ++r) {
          V* yr = yb + r * p;
          for (int64_t c = 0; c < C; ++c) {
            const V a = blk[r * C + c];
            const V* xr = xb + c * p;
            for (int64_t j = 0; j < p; ++j) yr[j] = add(yr[j], mul(a, xr[j]));
          }
        }
      }
    }
  });
  return y;
}

template <class V, class I>
Compressed bsr_to_csr_typed(const Compressed& b) {
  const I* ip = ptr<I>(b.indptr);
  const I* ix = ptr<I>(b.indices);
  const V* dv = ptr<V>(b.data);
  const int64_t R = b.data.shape()[1], C = b.data.shape()[2], n = b.n_major;
  const Dtype index_dtype = b.indices.dtype();
  const int64_t nnz = static_cast<int64_t>(ip[n]) * R * C;
  Array indptr_arr = alloc(n * R + 1, index_dtype);
  Array idx_arr = alloc(nnz, index_dtype), val_arr = alloc(nnz, b.data.dtype());
  I* op = ptr<I>(indptr_arr);
  I* oi = ptr<I>(idx_arr);
  V* ov = ptr<V>(val_arr);
  op[n * R] = static_cast<I>(nnz);
  // Row r of block row g starts after the earlier block rows' entries and
  // r rows of this block row's (blocks * C entries each).
  for_parts(row_parts(ip, n), [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
      const int64_t k0 = ip[g], nb = static_cast<int64_t>(ip[g + 1]) - k0;
      for (int64_t r = 0; r < R; ++r) {
        int64_t o = k0 * R * C + r * nb * C;
        op[g * R + r] = static_cast<I>(o);
        for (int64_t k = k0; k < k0 + nb; ++k) {
          const V* row = dv + k * R * C + r * C;
          const int64_t col0 = static_cast<int64_t>(ix[k]) * C;
          for (int64_t c = 0; c < C; ++c, ++o) {
            oi[o] = static_cast<I>(col0 + c);
            ov[o] = row[c];
          }
        }
      }
    }
  });
  return Compressed{val_arr, idx_arr, indptr_arr, n * R, b.n_minor * C};
}

// Per block row of the CSR matrix a: visit(block row, block column, row in
// block, column in block, entry) for every stored entry, with `first` true
// at a block column's first entry in that block row. `mark` is the task's
// scratch over block columns.
template <class I, class Fn>
void visit_blocks(const Compressed& a, int64_t R, int64_t C, int64_t g0, int64_t g1, std::vector<int64_t>& mark,
                  const Fn& fn) {
  const I* ip = ptr<I>(a.indptr);
  const I* ix = ptr<I>(a.indices);
  mark.assign(static_cast<size_t>((a.n_minor + C - 1) / C), -1);
  for (int64_t g = g0; g < g1; ++g)
    for (int64_t i = g * R; i < std::min((g + 1) * R, a.n_major); ++i)
      for (int64_t k = ip[i]; k < ip[i + 1]; ++k) {
        const int64_t bc = static_cast<int64_t>(ix[k]) / C;
        const bool first = mark[static_cast<size_t>(bc)] != g;
        mark[static_cast<size_t>(bc)] = g;
        fn(g, bc, i - g * R, static_cast<int64_t>(ix[k]) - bc * C, k, first);
      }
}

template <class I>
std::vector<int64_t> blocks_per_row(const Compressed& a, int64_t R, int64_t C) {
  const int64_t n_brows = (a.n_major + R - 1) / R;
  std::vector<int64_t> counts(static_cast<size_t>(n_brows), 0);
  for_ranges(n_brows, a.indices.size() + a.n_major, [&](int64_t g0, int64_t g1) {
    std::vector<int64_t> mark;
    visit_blocks<I>(a, R, C, g0, g1, mark, [&](int64_t g, int64_t, int64_t, int64_t, int64_t, bool first) {
      counts[static_cast<size_t>(g)] += first;
    });
  });
  return counts;
}

template <class V, class I>
Compressed csr_to_bsr_typed(const Compressed& a, int64_t R, int64_t C) {
  const V* dv = ptr<V>(a.data);
  const int64_t n_brows = a.n_major / R;
  const std::vector<int64_t> counts = blocks_per_row<I>(a, R, C);
  const Dtype index_dtype = a.indices.dtype();
  Array indptr_arr = alloc(n_brows + 1, index_dtype);
  I* bp = ptr<I>(indptr_arr);
  int64_t run = 0;
  for (int64_t g = 0; g < n_brows; ++g) {
    bp[g] = static_cast<I>(run);
    run += counts[static_cast<size_t>(g)];
  }
  bp[n_brows] = static_cast<I>(run);
  Array idx_arr = alloc(run, index_dtype);
  Array data_arr = Array::empty(Shape{run, R, C}, a.data.dtype(), host_device());
  I* bi = ptr<I>(idx_arr);
  V* bd = ptr<V>(data_arr);
  std::fill(bd, bd + run * R * C, V(0));
  for_ranges(n_brows, a.indices.size() + a.n_major, [&](int64_t g0, int64_t g1) {
    std::vector<int64_t> mark, slot(static_cast<size_t>((a.n_minor + C - 1) / C), 0);
    std::vector<int64_t> next(static_cast<size_t>(g1 - g0), 0);
    visit_blocks<I>(a, R, C, g0, g1, mark, [&](int64_t g, int64_t bc, int64_t r, int64_t c, int64_t k, bool first) {
      int64_t& s = slot[static_cast<size_t>(bc)];
      if (first) {
        s = static_cast<int64_t>(bp[g]) + next[static_cast<size_t>(g - g0)]++;
        bi[s] = static_cast<I>(bc);
      }
      V& dst = bd[(s * R + r) * C + c];
      dst = add(dst, dv[k]);
    });
  });
  return Compressed{data_arr, idx_arr, indptr_arr, n_brows, a.n_minor / C};
}

}  // namespace

Compressed dia_to_csr(const Array& data, const Array& offsets, int64_t rows, int64_t cols, Dtype index_dtype) {
  return visit_value(data.dtype(), [&](auto tv) {
    return visit_index(index_dtype, [&](auto ti) {
      return dia_to_csr_typed<typename decltype(tv)::type, typename decltype(ti)::type>(data, offsets, rows, cols,
                                                                                        index_dtype);
    });
  });
}

Array dia_spmm(const Array& data, const Array& offsets, int64_t rows, int64_t cols, const Array& x) {
  return visit_value(
      data.dtype(), [&](auto tv) { return dia_spmm_typed<typename decltype(tv)::type>(data, offsets, rows, cols, x); });
}

Array bsr_spmm(const Compressed& blocks, const Array& x) {
  return typed(blocks, [&](auto tv, auto ti) {
    return bsr_spmm_typed<typename decltype(tv)::type, typename decltype(ti)::type>(blocks, x);
  });
}

Compressed bsr_to_csr(const Compressed& blocks) {
  return typed(blocks, [&](auto tv, auto ti) {
    return bsr_to_csr_typed<typename decltype(tv)::type, typename decltype(ti)::type>(blocks);
  });
}

int64_t count_blocks(const Compressed& a, int64_t r, int64_t c) {
  return visit_index(a.indices.dtype(), [&](auto ti) {
    const std::vector<int64_t> counts = blocks_per_row<typename decltype(ti)::type>(a, r, c);
    return std::accumulate(counts.begin(), counts.end(), int64_t{0});
  });
}

Compressed csr_to_bsr(const Compressed& a, int64_t r, int64_t c) {
  return typed(a, [&](auto tv, auto ti) {
    return csr_to_bsr_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, r, c);
  });
}

}  // namespace host_detail
}  // namespace sparse
}  // namespace kumo
