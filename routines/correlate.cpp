// correlate, convolve, cov, corrcoef, cumulative_sum and cumulative_prod (see correlate.h).
#include "routines/correlate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/warnings.h"
#include "kernels/elementwise.h"
#include "linalg/products.h"
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

Dtype float_result(Dtype d) { return promote_types(d, Dtype::kFloat64); }

// X as a 2-D array of `dtype` (numpy.array(m, ndmin=2, dtype=...)).
Array ndmin2(const Array& m, Dtype dtype) {
  Array x = m.astype(dtype, Order::kK, false);
  return x.ndim() < 2 ? x.reshape(Shape{1, x.size()}) : x;
}

Array cumulative(const Array& x0, std::optional<int64_t> axis, std::optional<Dtype> dtype, const Array& out,
                 bool include_initial, bool is_sum) {
  Array x = x0.ndim() == 0 ? x0.reshape(Shape{1}) : x0;
  if (!axis) {
    if (x.ndim() >= 2) {
      throw ValueError("For arrays which have more than one dimension ``axis`` argument is required.");
    }
    axis = 0;
  }
  const int64_t nd = x.ndim();
  if (*axis < -nd || *axis >= nd) {
    throw AxisError("axis " + std::to_string(*axis) + " is out of bounds for array of dimension " + std::to_string(nd));
  }
  const int64_t ax = *axis < 0 ? *axis + nd : *axis;
  ReduceOptions o;
  if (dtype) o.dtype(*dtype);
  auto scan = [&](const ReduceOptions& ro) { return is_sum ? cumsum(x, ax, ro) : cumprod(x, ax, ro); };
  if (!include_initial) {
    if (out.defined()) o.out(out);
    return scan(o);
  }
  std::vector<IndexItem> rest(nd, IndexItem::slice(std::nullopt, std::nullopt, 1));
  if (out.defined()) {
    Shape want = x.shape();
    want[static_cast<int>(ax)] += 1;
    if (out.shape() != want) {
      throw ValueError("output parameter for reduction operation " + std::string(is_sum ? "add" : "multiply") +
                       " has the wrong shape");
    }
    rest[ax] = IndexItem::slice(1, std::nullopt, 1);
    o.out(out.index(rest));
    scan(o);
    rest[ax] = IndexItem::integer(0);
    full(out.index(rest).shape(), Scalar(int64_t(is_sum ? 0 : 1)), out.dtype(), Order::kC, out.device())
        .copy_to(out.index(rest));
    return out;
  }
  Array res = scan(o);
  Shape first = res.shape();
  first[static_cast<int>(ax)] = 1;
  Array init = full(first, Scalar(int64_t(is_sum ? 0 : 1)), res.dtype(), Order::kC, res.device());
  return concatenate({init, res}, ax);
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

Array cov(const Array& m, const std::optional<Array>& y, bool rowvar, bool bias, std::optional<int64_t> ddof,
          const std::optional<Array>& fweights, const std::optional<Array>& aweights, std::optional<Dtype> dtype) {
  if (m.ndim() > 2) throw ValueError("m has more than 2 dimensions");
  if (y && y->ndim() > 2) throw ValueError("y has more than 2 dimensions");
  Dtype dt = dtype ? *dtype : (y ? float_result(promote_types(m.dtype(), y->dtype())) : float_result(m.dtype()));
  Array X = ndmin2(m, dt);
  if (!rowvar && m.ndim() != 1) X = X.transpose();
  if (X.shape()[0] == 0) return zeros(Shape{0, 0}, Dtype::kFloat64, Order::kC, m.device());
  if (y) {
    Array Y = ndmin2(*y, dt);
    if (!rowvar && Y.shape()[0] != 1) Y = Y.transpose();
    X = concatenate({X, Y}, 0);
  }
  const int64_t dd = ddof ? *ddof : (bias ? 0 : 1);
  const int64_t nobs = X.shape()[1];
  std::optional<Array> w;
  if (fweights) {
    Array f = fweights->astype(Dtype::kFloat64, Order::kK, false);
    if (!all(equal(f, rint(f))).item<bool>()) throw TypeError("fweights must be integer");
    if (f.ndim() > 1) throw Error("cannot handle multidimensional fweights");
    if (f.ndim() == 0 || f.shape()[0] != nobs) throw Error("incompatible numbers of samples and fweights");
    if (any(less(f, Scalar(0))).item<bool>()) throw ValueError("fweights cannot be negative");
    w = f;
  }
  std::optional<Array> aw;
  if (aweights) {
    Array a = aweights->astype(Dtype::kFloat64, Order::kK, false);
    if (a.ndim() > 1) throw Error("cannot handle multidimensional aweights");
    if (a.ndim() == 0 || a.shape()[0] != nobs) throw Error("incompatible numbers of samples and aweights");
    if (any(less(a, Scalar(0))).item<bool>()) throw ValueError("aweights cannot be negative");
    aw = a;
    w = w ? multiply(*w, a) : a;
  }
  Array avg;
  double w_sum, fact;
  if (!w) {
    avg = mean(X, 1);
    w_sum = static_cast<double>(nobs);
    fact = static_cast<double>(nobs - dd);
  } else {
    const Dtype rd = promote_types(dt, Dtype::kFloat64);
    Array scl = sum(*w, {}, ReduceOptions().dtype(rd));
    w_sum = scl.astype(Dtype::kFloat64).item<double>();
    if (w_sum == 0.0) throw ZeroDivisionError("Weights sum to zero, can't be normalized");
    avg = divide(sum(multiply(X, w->reshape(Shape{1, nobs}), UfuncOptions().dtype(rd)), 1), scl)
              .astype(dt, Order::kK, false);
    if (dd == 0) {
      fact = w_sum;
    } else if (!aw) {
      fact = w_sum - dd;
    } else {
      fact = w_sum - dd * sum(multiply(*w, *aw)).item<double>() / w_sum;
    }
  }
  if (fact <= 0) {
    warn("Degrees of freedom <= 0 for slice");  // then divides by zero, as NumPy
    fact = 0.0;
  }
  Array Xc = subtract(X, avg.reshape(Shape{X.shape()[0], 1})).astype(dt, Order::kK, false);
  Array XT = w ? multiply(Xc, w->reshape(Shape{1, nobs})).astype(dt, Order::kK, false).transpose() : Xc.transpose();
  Array c = dot(Xc, conjugate(XT));
  // NumPy multiplies by 1 / fact (a float64 number) in place.
  Array r = full(Shape{}, Scalar(1.0 / fact), Dtype::kFloat64, Order::kC, c.device());
  if (fact == 0)
    r = full(Shape{}, Scalar(std::numeric_limits<double>::infinity()), Dtype::kFloat64, Order::kC, c.device());
  c = multiply(c, r).astype(c.dtype(), Order::kK, false);
  return c.squeeze();
}

Array corrcoef(const Array& x, const std::optional<Array>& y, bool rowvar, std::optional<Dtype> dtype) {
  Array c = cov(x, y, rowvar, false, std::nullopt, std::nullopt, std::nullopt, dtype);
  if (c.ndim() == 0) return divide(c, c);
  if (c.ndim() != 2) return divide(c, c);
  Array d = c.diagonal(0, 0, 1);
  Array sd = sqrt(is_complex(d.dtype()) ? d.real_view() : d);
  const int64_t k = sd.size();
  c = divide(c, sd.reshape(Shape{k, 1}));
  c = divide(c, sd.reshape(Shape{1, k}));
  if (is_complex(c.dtype())) {
    Array re = clip(c.real_view(), -1.0, 1.0);
    Array im = clip(c.imag_view(), -1.0, 1.0);
    re.copy_to(c.real_view());
    im.copy_to(c.imag_view());
    return c;
  }
  return clip(c, -1.0, 1.0);
}

Array cumulative_sum(const Array& x, std::optional<int64_t> axis, std::optional<Dtype> dtype, const Array& out,
                     bool include_initial) {
  return cumulative(x, axis, dtype, out, include_initial, true);
}

Array cumulative_prod(const Array& x, std::optional<int64_t> axis, std::optional<Dtype> dtype, const Array& out,
                      bool include_initial) {
  return cumulative(x, axis, dtype, out, include_initial, false);
}

}  // namespace kumo
