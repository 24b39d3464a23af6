// Host kernels behind sparse indexing (sparse/indexing.h): whole rows by
// index, columns by index (with repeats), single entries, and assignment of
// entries with insertion of the missing ones. All run over parts of rows on
// the thread pool.
#include <algorithm>
#include <numeric>
#include <vector>

#include "sparse/host/host_common.h"

namespace kumo {
namespace sparse {
namespace host_detail {

namespace {

template <class V, class I>
Compressed take_major_typed(const Compressed& a, const Array& rows_arr) {
  const I* ap = ptr<I>(a.indptr);
  const I* ai = ptr<I>(a.indices);
  const V* ad = ptr<V>(a.data);
  const int64_t* rows = ptr<int64_t>(rows_arr);
  const int64_t n = rows_arr.size();
  // Entries of the result's rows as a running sum, for the copy's offsets
  // and the split into parts.
  std::vector<int64_t> start(static_cast<size_t>(n + 1), 0);
  for (int64_t r = 0; r < n; ++r)
    start[static_cast<size_t>(r + 1)] = start[static_cast<size_t>(r)] + ap[rows[r] + 1] - ap[rows[r]];
  const int64_t nnz = start[static_cast<size_t>(n)];
  const Dtype out_index =
      a.indices.dtype() == Dtype::kInt32 && nnz > std::numeric_limits<int32_t>::max() ? Dtype::kInt64
                                                                                       : a.indices.dtype();
  return visit_index(out_index, [&](auto to) {
    using O = typename decltype(to)::type;
    Array ip_arr = alloc(n + 1, out_index), ix_arr = alloc(nnz, out_index), v_arr = alloc(nnz, a.data.dtype());
    O* ip = ptr<O>(ip_arr);
    O* ix = ptr<O>(ix_arr);
    V* vv = ptr<V>(v_arr);
    for (int64_t r = 0; r <= n; ++r) ip[r] = static_cast<O>(start[static_cast<size_t>(r)]);
    for_parts(row_parts(start.data(), n), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t from = ap[rows[r]], len = static_cast<int64_t>(ap[rows[r] + 1]) - from;
        std::copy(ai + from, ai + from + len, ix + start[static_cast<size_t>(r)]);
        std::copy(ad + from, ad + from + len, vv + start[static_cast<size_t>(r)]);
      }
    });
    return Compressed{v_arr, ix_arr, ip_arr, n, a.n_minor};
  });
}

template <class V, class I>
Compressed take_minor_typed(const Compressed& a, const Array& cols_arr) {
  const I* ap = ptr<I>(a.indptr);
  const I* ai = ptr<I>(a.indices);
  const V* ad = ptr<V>(a.data);
  const int64_t* cols = ptr<int64_t>(cols_arr);
  const int64_t m = a.n_minor, p = cols_arr.size();
  // For every column j of a, the result's columns that copy it, ascending:
  // targets[first[j] : first[j + 1]] (a stable counting sort of cols).
  std::vector<int64_t> first(static_cast<size_t>(m + 1), 0), targets(static_cast<size_t>(p));
  for (int64_t q = 0; q < p; ++q) ++first[static_cast<size_t>(cols[q] + 1)];
  for (int64_t j = 0; j < m; ++j) first[static_cast<size_t>(j + 1)] += first[static_cast<size_t>(j)];
  {
    std::vector<int64_t> fill(first.begin(), first.end() - 1);
    for (int64_t q = 0; q < p; ++q) targets[static_cast<size_t>(fill[static_cast<size_t>(cols[q])]++)] = q;
  }
  const auto make_worker = [&]() {
    return [&](int64_t r, RowSink<V, I>& sink) {
      for (int64_t k = ap[r]; k < ap[r + 1]; ++k) {
        const I j = ai[k];
        for (int64_t t = first[static_cast<size_t>(j)]; t < first[static_cast<size_t>(j) + 1]; ++t)
          sink.push(static_cast<I>(targets[static_cast<size_t>(t)]), ad[k]);
      }
    };
  };
  // The result's index dtype must hold p as well as a's sizes.
  const Dtype index_dtype = p > std::numeric_limits<int32_t>::max() ? Dtype::kInt64 : a.indices.dtype();
  if (index_dtype != a.indices.dtype()) {
    Compressed wide{a.data, a.indices.astype(Dtype::kInt64), a.indptr.astype(Dtype::kInt64), a.n_major, a.n_minor};
    return take_minor_typed<V, int64_t>(wide, cols_arr);
  }
  return build_rows<V, I>(row_parts(ap, a.n_major), a.n_major, p, a.data.dtype(), index_dtype, make_worker);
}

template <class V, class I>
Array gather_typed(const Compressed& a, const Array& rows_arr, const Array& cols_arr) {
  const I* ap = ptr<I>(a.indptr);
  const I* ai = ptr<I>(a.indices);
  const V* ad = ptr<V>(a.data);
  const int64_t* rows = ptr<int64_t>(rows_arr);
  const int64_t* cols = ptr<int64_t>(cols_arr);
  const int64_t n = rows_arr.size();
  Array out = alloc(n, a.data.dtype());
  V* o = ptr<V>(out);
  parallel_for(n, kGrain / 16, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      V s = V(0);
      for (int64_t q = ap[rows[k]]; q < ap[rows[k] + 1]; ++q)
        if (ai[q] == cols[k]) s = add(s, ad[q]);
      o[k] = s;
    }
  });
  return out;
}

template <class V, class I>
Compressed set_entries_typed(const Compressed& a, const Array& rows_arr, const Array& cols_arr,
                             const Array& values_arr) {
  const I* ap = ptr<I>(a.indptr);
  const I* ai = ptr<I>(a.indices);
  const V* ad = ptr<V>(a.data);
  const int64_t* rows = ptr<int64_t>(rows_arr);
  const int64_t* cols = ptr<int64_t>(cols_arr);
  const V* values = ptr<V>(values_arr);
  const int64_t n = a.n_major, t = rows_arr.size();
  // The targets grouped by row, in their given order (stable counting sort).
  std::vector<int64_t> first(static_cast<size_t>(n + 1), 0), order(static_cast<size_t>(t));
  for (int64_t k = 0; k < t; ++k) ++first[static_cast<size_t>(rows[k] + 1)];
  for (int64_t r = 0; r < n; ++r) first[static_cast<size_t>(r + 1)] += first[static_cast<size_t>(r)];
  {
    std::vector<int64_t> fill(first.begin(), first.end() - 1);
    for (int64_t k = 0; k < t; ++k) order[static_cast<size_t>(fill[static_cast<size_t>(rows[k])]++)] = k;
  }
  // Work per row: its entries and its targets.
  std::vector<int64_t> work(static_cast<size_t>(n + 1));
  for (int64_t r = 0; r <= n; ++r) work[static_cast<size_t>(r)] = static_cast<int64_t>(ap[r]) + first[static_cast<size_t>(r)];
  const auto make_worker = [&]() {
    return [&, row_targets = std::vector<int64_t>()](int64_t r, RowSink<V, I>& sink) mutable {
      const int64_t t0 = first[static_cast<size_t>(r)], t1 = first[static_cast<size_t>(r) + 1];
      if (t0 == t1) {
        for (int64_t q = ap[r]; q < ap[r + 1]; ++q) sink.push(ai[q], ad[q]);
        return;
      }
      // This row's targets by column, the later of equal columns last.
      row_targets.assign(order.begin() + t0, order.begin() + t1);
      std::stable_sort(row_targets.begin(), row_targets.end(),
                       [&](int64_t x, int64_t y) { return cols[x] < cols[y]; });
      int64_t q = ap[r];
      const int64_t q_end = ap[r + 1];
      for (size_t s = 0; s < row_targets.size(); ++s) {
        const int64_t k = row_targets[s];
        if (s + 1 < row_targets.size() && cols[row_targets[s + 1]] == cols[k]) continue;  // a later one wins
        for (; q < q_end && ai[q] < cols[k]; ++q) sink.push(ai[q], ad[q]);
        sink.push(static_cast<I>(cols[k]), values[k]);
        if (q < q_end && ai[q] == cols[k]) ++q;
      }
      for (; q < q_end; ++q) sink.push(ai[q], ad[q]);
    };
  };
  return build_rows<V, I>(row_parts(work.data(), n), n, a.n_minor, a.data.dtype(), a.indices.dtype(), make_worker);
}

}  // namespace

Compressed host_take_major(const Compressed& a, const Array& rows) {
  return typed(a, [&](auto tv, auto ti) {
    return take_major_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, rows);
  });
}

Compressed host_take_minor(const Compressed& a, const Array& cols) {
  return typed(a, [&](auto tv, auto ti) {
    return take_minor_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, cols);
  });
}

Array host_gather(const Compressed& a, const Array& rows, const Array& cols) {
  return typed(a, [&](auto tv, auto ti) {
    return gather_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, rows, cols);
  });
}

Compressed host_set_entries(const Compressed& a, const Array& rows, const Array& cols, const Array& values) {
  return typed(a, [&](auto tv, auto ti) {
    return set_entries_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, rows, cols, values);
  });
}

}  // namespace host_detail
}  // namespace sparse
}  // namespace kumo
