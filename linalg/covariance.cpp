// numpy.cov and numpy.corrcoef: the product of the centred (and weighted)
// observations with their conjugate transpose, so they sit above the
// products in linalg/ rather than beside the statistics of routines/.
#include "linalg/covariance.h"

#include <limits>

#include "core/errors.h"
#include "core/warnings.h"
#include "linalg/products.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {

namespace {

Dtype float_result(Dtype d) { return promote_types(d, Dtype::kFloat64); }

// X as a 2-D array of `dtype` (numpy.array(m, ndmin=2, dtype=...)).
Array ndmin2(const Array& m, Dtype dtype) {
  Array x = m.astype(dtype, Order::kK, false);
  return x.ndim() < 2 ? x.reshape(Shape{1, x.size()}) : x;
}

}  // namespace

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

}  // namespace kumo
