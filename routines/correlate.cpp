// correlate, convolve, cov, corrcoef, cumulative_sum and cumulative_prod (see correlate.h).
#include "routines/correlate.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.h"
#include "kernels/elementwise.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {

namespace {

// c[k] = sum_j a[k - (m - 1) + j] * conj?(v[j]) over the j that stay inside
// a: every lag of the full correlation, one output element each. Sums run in
// T (float16 in float, bool as an integer count whose truth is the result).
const char* const kCorrPreamble = R"(
template <class T> struct kumo_corr_acc { typedef T type; };
template <> struct kumo_corr_acc<bool> { typedef int64_t type; };
template <> struct kumo_corr_acc<kumo::float16> { typedef float type; };
template <class T> KUMO_FN T kumo_corr_conj(const T& x, bool c) { return x; }
template <class F> KUMO_FN kumo::complex<F> kumo_corr_conj(const kumo::complex<F>& x, bool c) {
  return c ? kumo::complex<F>(x.re, -x.im) : x;
}
)";

const kernels::ElementwiseSpec& corr_spec() {
  static auto s = kernels::ElementwiseSpec::create(
      "kumo_correlate_full", "raw T a, raw T v, int64 n, int64 m, int32 cj", "T c",
      "typedef typename kumo_corr_acc<T>::type Acc; const int64_t l = i - (m - 1);"
      "const int64_t j0 = l < 0 ? -l : 0; const int64_t j1 = n - l < m ? n - l : m;"
      "const T* ap = a.data(); const T* vp = v.data(); Acc acc = Acc(0);"
      "for (int64_t j = j0; j < j1; ++j) acc += (Acc)(ap[l + j] * kumo_corr_conj(vp[j], cj != 0));"
      "c = (T)acc",
      kCorrPreamble);
  return *s;
}

Array vector_1d(const Array& x) {
  if (x.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (x.ndim() > 1) throw ValueError("object too deep for desired array");
  return x;
}

// The full correlation of two non-empty 1-D arrays, cut to `mode`.
Array correlate_mode(const Array& a0, const Array& v0, const std::string& mode, bool conj) {
  if (mode != "valid" && mode != "same" && mode != "full") {
    throw ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode");
  }
  const Dtype dt = promote_types(a0.dtype(), v0.dtype());
  Array a = a0.astype(dt, Order::kC, !a0.c_contiguous());
  Array v = v0.astype(dt, Order::kC, !v0.c_contiguous());
  const int64_t n = a.size(), m = v.size();
  Device& dev = a.device();
  auto i64 = [&](int64_t x) { return full(Shape{}, Scalar(x), Dtype::kInt64, Order::kC, dev); };
  Array c = Array::empty(Shape{n + m - 1}, dt, dev);
  kernels::call_elementwise(
      corr_spec(), {a, v, i64(n), i64(m), full(Shape{}, Scalar(int64_t(conj)), Dtype::kInt32, Order::kC, dev)}, {c});
  if (mode == "full") return c;
  // NumPy computes with the longer array first and reverses when it swapped,
  // which decides where an odd "same" window sits.
  const int64_t s = std::min(n, m);
  int64_t off, len;
  if (mode == "valid") {
    off = s - 1;
    len = std::max(n, m) - s + 1;
  } else {
    off = n >= m ? (s - 1) / 2 : (s - 1) - (s - 1) / 2;
    len = std::max(n, m);
  }
  return c.index({IndexItem::slice(off, off + len, 1)});
}


}  // namespace

Array correlate(const Array& a, const Array& v, const std::string& mode) {
  vector_1d(a);
  vector_1d(v);
  if (a.size() == 0) throw ValueError("first array argument cannot be empty");
  if (v.size() == 0) throw ValueError("second array argument cannot be empty");
  return correlate_mode(a, v, mode, true);
}

Array convolve(const Array& a0, const Array& v0, const std::string& mode) {
  vector_1d(a0);
  vector_1d(v0);
  if (a0.size() == 0) throw ValueError("a cannot be empty");
  if (v0.size() == 0) throw ValueError("v cannot be empty");
  const bool swap = v0.size() > a0.size();
  const Array& a = swap ? v0 : a0;
  const Array& v = swap ? a0 : v0;
  return correlate_mode(a, v.index({IndexItem::slice(std::nullopt, std::nullopt, -1)}), mode, false);
}

}  // namespace kumo
