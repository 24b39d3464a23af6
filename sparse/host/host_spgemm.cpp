// Host SpGEMM: C = A @ B for A and B compressed over rows, on all cores.
//
// Gustavson's row-by-row product in one numeric pass: row i of C is the sum
// of the rows of B picked by row i of A, accumulated in a dense row of
// length n_minor per thread (a marker array says which places the current
// row has touched, so nothing is cleared between rows). The touched columns
// are sorted, so the result is canonical, and sums that cancel to zero are
// dropped, as SciPy's product drops them. Rows are split into parts of about
// equal multiply-adds (not entries: a row of A pointing at long rows of B
// costs more), which threads claim one at a time.
#include <algorithm>
#include <vector>

#include "sparse/host/host_common.h"

namespace kumo {
namespace sparse {
namespace host_detail {

namespace {

template <class V, class I>
Compressed spgemm_typed(const Compressed& a, const Compressed& b) {
  const I* ap = ptr<I>(a.indptr);
  const I* ai = ptr<I>(a.indices);
  const V* ad = ptr<V>(a.data);
  const I* bp = ptr<I>(b.indptr);
  const I* bi = ptr<I>(b.indices);
  const V* bd = ptr<V>(b.data);
  const int64_t n = a.n_major, m = b.n_minor;
  // Multiply-adds of each row, as a running sum for row_parts (which adds
  // the row count, so empty rows still weigh a little).
  std::vector<int64_t> work(static_cast<size_t>(n + 1), 0);
  parallel_for(n, kGrain / 8, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t w = 0;
      for (int64_t k = ap[r]; k < ap[r + 1]; ++k) w += static_cast<int64_t>(bp[ai[k] + 1]) - bp[ai[k]];
      work[static_cast<size_t>(r + 1)] = w;
    }
  });
  for (int64_t r = 0; r < n; ++r) work[static_cast<size_t>(r + 1)] += work[static_cast<size_t>(r)];
  using Acc = typename Buffer<V>::value_type;
  const auto make_worker = [&]() {
    // mark[j] is the last row that touched column j (or -1).
    return [mark = std::vector<int64_t>(static_cast<size_t>(m), -1), acc = Buffer<V>(static_cast<size_t>(m)),
            cols = std::vector<I>(), &ap, &ai, &ad, &bp, &bi, &bd](int64_t r, RowSink<V, I>& sink) mutable {
      cols.clear();
      for (int64_t k = ap[r]; k < ap[r + 1]; ++k) {
        const V av = ad[k];
        const I row_b = ai[k];
        for (int64_t q = bp[row_b]; q < bp[row_b + 1]; ++q) {
          const I j = bi[q];
          const V prod = mul(av, bd[q]);
          if (mark[static_cast<size_t>(j)] != r) {
            mark[static_cast<size_t>(j)] = r;
            acc[static_cast<size_t>(j)] = static_cast<Acc>(prod);
            cols.push_back(j);
          } else {
            acc[static_cast<size_t>(j)] = static_cast<Acc>(add(static_cast<V>(acc[static_cast<size_t>(j)]), prod));
          }
        }
      }
      std::sort(cols.begin(), cols.end());
      for (const I j : cols) {
        const V v = static_cast<V>(acc[static_cast<size_t>(j)]);
        if (v != V(0)) sink.push(j, v);
      }
    };
  };
  return build_rows<V, I>(row_parts(work.data(), n), n, m, a.data.dtype(), a.indices.dtype(), make_worker);
}

}  // namespace

Compressed host_spgemm(const Compressed& a, const Compressed& b) {
  return typed(a, [&](auto tv, auto ti) {
    return spgemm_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, b);
  });
}

}  // namespace host_detail
}  // namespace sparse
}  // namespace kumo
