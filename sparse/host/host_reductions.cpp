// Host row reductions of canonical compressed matrices that count the
// implicit zeros of each row: max/min (NaN-propagating, as numpy.maximum,
// or NaN-ignoring, as numpy.fmax) and argmax/argmin, one row per element of
// the result, in parallel over parts of rows.
#include <cmath>
#include <string>
#include <vector>

#include "sparse/host/host_common.h"

namespace kumo {
namespace sparse {
namespace host_detail {

namespace {

template <class V>
bool is_nan(V v) {
  if constexpr (is_complex_v<V>) return std::isnan(v.real()) || std::isnan(v.imag());
  else if constexpr (std::is_floating_point_v<V>) return std::isnan(v);
  else return false;
}

// x beats y for a max (min when !want_max): NaN beats everything when
// propagating (the first NaN wins), loses to everything when ignoring.
template <class V>
bool beats(V x, V y, bool want_max, bool nan_wins) {
  if (is_nan(x) || is_nan(y)) return nan_wins ? is_nan(x) && !is_nan(y) : !is_nan(x) && is_nan(y);
  return want_max ? lex_less(y, x) : lex_less(x, y);
}

template <class V, class I>
Array reduce_major_typed(const Compressed& a, RowReduce op, bool explicit_only) {
  const I* ap = ptr<I>(a.indptr);
  const I* ai = ptr<I>(a.indices);
  const V* ad = ptr<V>(a.data);
  const int64_t n = a.n_major, m = a.n_minor;
  const bool arg = op == RowReduce::kArgMax || op == RowReduce::kArgMin;
  const bool want_max = op == RowReduce::kMax || op == RowReduce::kNanMax || op == RowReduce::kArgMax;
  const bool nan_wins = op != RowReduce::kNanMax && op != RowReduce::kNanMin;
  Array out = alloc(n, arg ? Dtype::kInt64 : a.data.dtype());
  for_parts(row_parts(ap, n), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = ap[r], e = ap[r + 1];
      // The best stored entry (the first of equals).
      int64_t best = -1;
      for (int64_t q = b; q < e; ++q)
        if (best < 0 || beats(ad[q], ad[best], want_max, nan_wins)) best = q;
      // Only stored entries compete when explicit_only (an empty row gives 0).
      const bool full = explicit_only || e - b == m;
      if (!arg) {
        V v = best < 0 ? V(0) : ad[best];  // an empty row is all zeros
        if (!full && beats(V(0), v, want_max, nan_wins)) v = V(0);
        ptr<V>(out)[r] = v;
        continue;
      }
      // The first column without a stored entry (rows are sorted).
      int64_t missing = 0;
      for (int64_t q = b; q < e && ai[q] == missing; ++q) ++missing;
      int64_t at = 0;
      if (best < 0) {
        at = 0;
      } else if (full || (want_max ? lex_less(V(0), ad[best]) : lex_less(ad[best], V(0)))) {
        at = ai[best];
      } else if (ad[best] == V(0)) {
        at = std::min<int64_t>(ai[best], missing);
      } else {
        // An implicit zero beats the stored ones (or they are NaN, where
        // SciPy's rule also picks the zero).
        at = missing;
      }
      ptr<int64_t>(out)[r] = at;
    }
  });
  return out;
}

}  // namespace

Array host_reduce_major(const Compressed& a, RowReduce op, bool explicit_only) {
  return typed(a, [&](auto tv, auto ti) {
    return reduce_major_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, op, explicit_only);
  });
}

}  // namespace host_detail
}  // namespace sparse
}  // namespace kumo
