// Miscellaneous logic and math routines (routines/math_extra.h): compositions
// of ufuncs where NumPy's own definition is one (so dtypes and rounding follow
// it), generated kernels where an element needs a loop or a search.
#include "routines/math_extra.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>

#include "core/errors.h"
#include "core/fp_errors.h"
#include "kernels/elementwise.h"
#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/indexing.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"
#include "routines/sorting.h"

namespace kumo {

namespace {

// a[..., item, ...] with `item` on `axis` (a basic view).
Array along(const Array& a, int axis, const IndexItem& item) {
  std::vector<IndexItem> items(static_cast<size_t>(a.ndim()), all());
  items[static_cast<size_t>(axis)] = item;
  return a.index(items);
}

Array along(const Array& a, int axis, std::optional<int64_t> start, std::optional<int64_t> stop) {
  return along(a, axis, slice(start, stop));
}

// A 0-d array holding `v` on `device` (scalar parameters of kernels, which
// must not be baked into the source or each value would compile a kernel).
Array scalar_array(double v, Device& device) { return full(Shape{}, Scalar(v), Dtype::kFloat64, Order::kC, device); }
Array scalar_array_i64(int64_t v, Device& device) { return full(Shape{}, Scalar(v), Dtype::kInt64, Order::kC, device); }

double as_double(const kernels::ScalarValue& v) {
  if (v.kind == WeakScalar::kBool) return v.b ? 1.0 : 0.0;
  if (v.kind == WeakScalar::kInt) return v.is_uint ? static_cast<double>(v.u) : static_cast<double>(v.i);
  return v.f;
}

bool is_int_or_bool(Dtype d) { return d == Dtype::kBool || is_integer(d); }

}  // namespace

// ---- classification ------------------------------------------------------------------------------

namespace {
Array signed_inf(const Array& x, bool negative) {
  if (is_complex(x.dtype()))
    throw TypeError(std::string("This operation is not supported for ") + dtype_name(x.dtype()) +
                    " values because it would be ambiguous.");
  Array sb = signbit(x);
  return logical_and(isinf(x), negative ? sb : logical_not(sb));
}
}  // namespace

Array isposinf(const Array& x) { return signed_inf(x, false); }
Array isneginf(const Array& x) { return signed_inf(x, true); }

Array iscomplex(const Array& x) {
  if (is_complex(x.dtype())) return not_equal(x.imag_view(), Scalar(0));
  return zeros(x.shape(), Dtype::kBool, Order::kC, x.device());
}

Array isreal(const Array& x) {
  if (is_complex(x.dtype())) return equal(x.imag_view(), Scalar(0));
  return ones(x.shape(), Dtype::kBool, Order::kC, x.device());
}

// ---- special functions ---------------------------------------------------------------------------

Array sinc(const Array& x) {
  // NumPy's definition: y = pi * x, with zeros replaced by a tiny value so
  // that sin(y) / y is 1 there (eps of a float dtype, 1e-20 otherwise).
  Array y = multiply(Scalar(3.141592653589793), x);
  double tiny = 1e-20;
  if (y.dtype() == Dtype::kFloat16) tiny = 0.0009765625;
  if (y.dtype() == Dtype::kFloat32) tiny = 1.1920928955078125e-07;
  if (y.dtype() == Dtype::kFloat64) tiny = 2.220446049250313e-16;
  y = where(not_equal(y, Scalar(0)), y, Scalar(tiny));
  return divide(sin(y), y);
}

namespace {
// Cephes' Chebyshev coefficients for exp(-x) I0(x) on [0, 8] (A) and for
// exp(-x) sqrt(x) I0(x) on (8, inf) (B), evaluated by Clenshaw's recurrence.
const char* const kI0Preamble = R"(
KUMO_FN double kumo_chbevl(double x, const double* c, int n) {
  double b0 = c[0], b1 = 0.0, b2 = 0.0;
  for (int k = 1; k < n; ++k) { b2 = b1; b1 = b0; b0 = x * b1 - b2 + c[k]; }
  return 0.5 * (b0 - b2);
}
KUMO_FN double kumo_i0(double x) {
  const double A[30] = {-4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16,
    1.715391285555133e-15, -1.1685332877993451e-14, 7.676185498604936e-14, -4.856446783111929e-13,
    2.95505266312964e-12, -1.726826291441556e-11, 9.675809035373237e-11, -5.189795601635263e-10,
    2.6598237246823866e-09, -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07,
    1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05,
    0.00018850288509584165, -0.0005763755745385824, 0.0016394756169413357, -0.004324309995050576,
    0.010546460394594998, -0.02373741480589947, 0.04930528423967071, -0.09490109704804764,
    0.17162090152220877, -0.3046826723431984, 0.6767952744094761};
  const double B[25] = {-7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17,
    3.461222867697461e-17, -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15,
    3.8116806693526224e-15, -9.554846698828307e-15, -4.150569347287222e-14, 1.54008621752141e-14,
    3.8527783827421426e-13, 7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
    -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10, 3.3962320257083865e-09,
    2.266668990498178e-08, 2.0489185894690638e-07, 2.8913705208347567e-06, 6.889758346916825e-05,
    0.0033691164782556943, 0.8044904110141088};
  x = fabs(x);
  if (x <= 8.0) return exp(x) * kumo_chbevl(x / 2.0 - 2.0, A, 30);
  return exp(x) * kumo_chbevl(32.0 / x - 2.0, B, 25) / sqrt(x);
}
// NumPy evaluates exp(|x|) in x's own dtype, where it overflows past
// log_max: the result is inf, and the product below raises the overflow flag.
KUMO_FN double kumo_i0_in(double x, double log_max) {
  const double ax = fabs(x);
  if (ax > log_max && ax <= 1.7976931348623157e308) return ax * 1.0e308;
  return kumo_i0(x);
}
)";
}  // namespace

Array i0(const Array& x) {
  if (is_complex(x.dtype())) throw TypeError("i0 not supported for complex values");
  static auto spec = kernels::ElementwiseSpec::create(
      "kumo_i0", "T x", "T y",
      "y = kumo_cast<T>(kumo_i0_in((double)x, sizeof(T) == 2 ? 11.0898664884 : sizeof(T) == 4 ? 88.7228391117 "
      ": 1.0e300))",
      kI0Preamble);
  Array in = is_floating(x.dtype()) ? x : x.astype(Dtype::kFloat64);
  take_fp_flags();
  Array y = kernels::call_elementwise(*spec, {in}, {Array()})[0];
  // NumPy's warnings: "overflow encountered in exp" (above), and "invalid
  // value encountered in divide" for an infinite x (inf / sqrt(inf)). The
  // CPU also flags invalid for the comparisons with a NaN x: not reported.
  const int flags = take_fp_flags();
  const bool infinite_x = (flags & kFpInvalid) && any(isinf(in)).item<bool>();
  take_fp_flags();
  report_fp_errors(flags & kFpOverflow, "exp");
  if (infinite_x) report_fp_errors(kFpInvalid, "divide");
  return y;
}

Array nan_to_num(const Array& x, bool copy, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  Array r = copy ? x.copy() : x;
  if (!is_inexact(x.dtype())) return r;
  if (!r.writeable()) throw ValueError("assignment destination is read-only");
  Dtype real = real_dtype(x.dtype());
  double big = real == Dtype::kFloat16   ? 65504.0
               : real == Dtype::kFloat32 ? static_cast<double>(std::numeric_limits<float>::max())
                                         : std::numeric_limits<double>::max();
  // The replacement values travel as raw 0-d float64 arrays and are cast to
  // the element type in the kernel (a huge value becomes inf in float16, as
  // NumPy's copyto makes it).
  static auto spec =
      kernels::ElementwiseSpec::create("kumo_nan_to_num", "raw float64 nv, raw float64 pv, raw float64 mv", "T y",
                                       "if (kumo::isnan(y)) y = kumo_cast<T>(nv[0]);\n"
                                       "else if (kumo::isinf(y)) y = kumo_cast<T>(y > T(0) ? pv[0] : mv[0]);");
  Device& dev = r.device();
  Array nv = scalar_array(nan, dev), pv = scalar_array(posinf.value_or(big), dev),
        mv = scalar_array(neginf.value_or(-big), dev);
  if (r.size() == 0) return r;
  if (is_complex(x.dtype())) {
    kernels::call_elementwise(*spec, {nv, pv, mv}, {r.real_view()});
    kernels::call_elementwise(*spec, {nv, pv, mv}, {r.imag_view()});
  } else {
    kernels::call_elementwise(*spec, {nv, pv, mv}, {r});
  }
  return r;
}

// ---- calculus ------------------------------------------------------------------------------------

Array diff1(const Array& a, int64_t axis) {
  if (a.ndim() == 0) throw ValueError("diff requires input that is at least one dimensional");
  int ax = normalize_axis(axis, a.ndim());
  Array hi = along(a, ax, 1, std::nullopt), lo = along(a, ax, std::nullopt, -1);
  return a.dtype() == Dtype::kBool ? not_equal(hi, lo) : subtract(hi, lo);
}

namespace {

// A spacing of gradient: a weak Python-like number or an array (0-d: a
// NumPy scalar, 1-d: coordinates).
struct Step {
  bool weak = false;
  kernels::ScalarValue value;
  Array array;
};

Array div_step(const Array& x, const Step& d) { return d.weak ? divide(x, Scalar(d.value)) : divide(x, d.array); }

// c / d for a number c: weak arithmetic stays a C++ number, as Python's does.
Step coef_over(double c, const Step& d) {
  Step s;
  if (d.weak) {
    s.weak = true;
    s.value = Scalar(c / as_double(d.value)).value();
  } else {
    s.array = divide(Scalar(c), d.array);
  }
  return s;
}

Array mul_step(const Step& c, const Array& x) { return c.weak ? multiply(Scalar(c.value), x) : multiply(c.array, x); }

}  // namespace

std::vector<Array> gradient(const Array& f_in, const std::vector<Operand>& spacing,
                            const std::optional<std::vector<int64_t>>& axes_in, int64_t edge_order) {
  const int N = f_in.ndim();
  std::vector<int> axes;
  if (axes_in) {
    for (int64_t a : *axes_in) {
      int ax = normalize_axis(a, N);
      if (std::find(axes.begin(), axes.end(), ax) != axes.end()) throw ValueError("repeated axis");
      axes.push_back(ax);
    }
  } else {
    for (int k = 0; k < N; ++k) axes.push_back(k);
  }
  const size_t len_axes = axes.size();
  auto to_step = [](const Operand& o) {
    Step s;
    if (o.is_scalar) {
      s.weak = true;
      s.value = o.scalar;
    } else {
      s.array = o.array();
    }
    return s;
  };
  auto is_scalar_like = [](const Operand& o) { return o.is_scalar || o.array().ndim() == 0; };

  std::vector<Step> dx;
  if (spacing.empty()) {
    Step one;
    one.weak = true;
    one.value = Scalar(1.0).value();
    dx.assign(len_axes, one);
  } else if (spacing.size() == 1 && is_scalar_like(spacing[0])) {
    dx.assign(len_axes, to_step(spacing[0]));
  } else if (spacing.size() == len_axes) {
    for (size_t k = 0; k < len_axes; ++k) {
      Step s = to_step(spacing[k]);
      if (!s.weak && s.array.ndim() != 0) {
        Array d = s.array;
        if (d.ndim() != 1) throw ValueError("distances must be either scalars or 1d");
        if (d.shape()[0] != f_in.shape()[static_cast<size_t>(axes[k])])
          throw ValueError(
              "when 1d, distances must match the length of the "
              "corresponding dimension");
        if (is_integer(d.dtype())) d = d.astype(Dtype::kFloat64);
        Array diffx = diff1(d, 0);
        // Evenly spaced coordinates take the uniform formulas with their one
        // step (a decision on the data: a single bool comes to the host).
        if (diffx.size() > 0 && all(equal(diffx, diffx.index({IndexItem(0)}))).item<bool>())
          s.array = diffx.index({IndexItem(0)});
        else
          s.array = diffx;
      }
      dx.push_back(s);
    }
  } else {
    throw TypeError("invalid number of arguments");
  }
  if (edge_order > 2) throw ValueError("'edge_order' greater than 2 not supported");

  Array f = f_in;
  Dtype otype = f.dtype();
  if (is_integer(otype)) {
    f = f.astype(Dtype::kFloat64);
    otype = Dtype::kFloat64;
  }

  std::vector<Array> outs;
  for (size_t k = 0; k < len_axes; ++k) {
    const int axis = axes[k];
    const Step& ax_dx = dx[k];
    if (f.shape()[static_cast<size_t>(axis)] < edge_order + 1)
      throw ValueError(
          "Shape of array too small to calculate a numerical "
          "gradient, at least (edge_order + 1) elements are "
          "required.");
    Array out = Array::empty(f.shape(), otype, f.device());
    const bool uniform = ax_dx.weak || ax_dx.array.ndim() == 0;
    auto put = [&](const IndexItem& where, const Array& v) { copyto(along(out, axis, where), v); };
    auto fs = [&](std::optional<int64_t> a, std::optional<int64_t> b) { return along(f, axis, a, b); };
    auto fi = [&](int64_t i) { return along(f, axis, IndexItem(i)); };

    // Interior: second-order central differences.
    if (uniform) {
      Step two = ax_dx.weak ? Step{true, Scalar(2.0 * as_double(ax_dx.value)).value(), Array()}
                            : Step{false, {}, multiply(Scalar(2.0), ax_dx.array)};
      put(slice(1, -1), div_step(subtract(fs(2, std::nullopt), fs(std::nullopt, -2)), two));
    } else {
      Array dx1 = ax_dx.array.index({slice(0, -1)}), dx2 = ax_dx.array.index({slice(1, std::nullopt)});
      Array a = negative(divide(dx2, multiply(dx1, add(dx1, dx2))));
      Array b = divide(subtract(dx2, dx1), multiply(dx1, dx2));
      Array c = divide(dx1, multiply(dx2, add(dx1, dx2)));
      Shape shape(static_cast<size_t>(N), 1);
      shape[static_cast<size_t>(axis)] = a.shape()[0];
      a = a.reshape(shape), b = b.reshape(shape), c = c.reshape(shape);
      put(slice(1, -1),
          add(add(multiply(a, fs(std::nullopt, -2)), multiply(b, fs(1, -1))), multiply(c, fs(2, std::nullopt))));
    }

    if (edge_order == 1) {
      Step d0 = ax_dx, dn = ax_dx;
      if (!uniform) {
        d0.array = ax_dx.array.index({IndexItem(0)});
        dn.array = ax_dx.array.index({IndexItem(-1)});
      }
      put(IndexItem(0), div_step(subtract(fi(1), fi(0)), d0));
      put(IndexItem(-1), div_step(subtract(fi(-1), fi(-2)), dn));
    } else {
      Step a, b, c;
      if (uniform) {
        a = coef_over(-1.5, ax_dx), b = coef_over(2.0, ax_dx), c = coef_over(-0.5, ax_dx);
      } else {
        Array dx1 = ax_dx.array.index({IndexItem(0)}), dx2 = ax_dx.array.index({IndexItem(1)});
        a.array = negative(divide(add(multiply(Scalar(2.0), dx1), dx2), multiply(dx1, add(dx1, dx2))));
        b.array = divide(add(dx1, dx2), multiply(dx1, dx2));
        c.array = negative(divide(dx1, multiply(dx2, add(dx1, dx2))));
      }
      put(IndexItem(0), add(add(mul_step(a, fi(0)), mul_step(b, fi(1))), mul_step(c, fi(2))));
      if (uniform) {
        a = coef_over(0.5, ax_dx), b = coef_over(-2.0, ax_dx), c = coef_over(1.5, ax_dx);
      } else {
        Array dx1 = ax_dx.array.index({IndexItem(-2)}), dx2 = ax_dx.array.index({IndexItem(-1)});
        a.array = divide(dx2, multiply(dx1, add(dx1, dx2)));
        b.array = negative(divide(add(dx2, dx1), multiply(dx1, dx2)));
        c.array = divide(add(multiply(Scalar(2.0), dx2), dx1), multiply(dx2, add(dx1, dx2)));
      }
      put(IndexItem(-1), add(add(mul_step(a, fi(-3)), mul_step(b, fi(-2))), mul_step(c, fi(-1))));
    }
    outs.push_back(out);
  }
  return outs;
}

Array ediff1d(const Array& ary_in, const Array& to_end, const Array& to_begin) {
  Array ary = ary_in.ravel();
  const Dtype dt = ary.dtype();
  auto check = [&](const Array& v, const char* name) {
    if (!v.defined()) return Array();
    if (!can_cast(v.dtype(), dt, Casting::kSameKind))
      throw TypeError(std::string("dtype of `") + name +
                      "` must be compatible with input `ary` under the `same_kind` rule.");
    return v.ravel();
  };
  Array b = check(to_begin, "to_begin"), e = check(to_end, "to_end");
  const int64_t lb = b.defined() ? b.size() : 0, le = e.defined() ? e.size() : 0;
  const int64_t ld = std::max<int64_t>(ary.size() - 1, 0);
  Array result = Array::empty(Shape{lb + ld + le}, dt, ary.device());
  if (lb) copyto(result.index({slice(0, lb)}), b);
  if (le) copyto(result.index({slice(lb + ld, std::nullopt)}), e);
  // The subtraction writes into the result (bool raises NumPy's TypeError).
  subtract(ary.index({slice(1, std::nullopt)}), ary.index({slice(std::nullopt, -1)}),
           UfuncOptions(result.index({slice(lb, lb + ld)})));
  return result;
}

Array trapezoid(const Array& y, const Array& x, const Operand& dx, int64_t axis) {
  const int nd = y.ndim();
  if (axis >= nd || axis < -nd) throw IndexError("list assignment index out of range");
  const int ax = static_cast<int>(axis < 0 ? axis + nd : axis);
  Array terms;
  if (x.defined()) {
    Array d;
    if (x.ndim() == 1) {
      d = diff1(x, 0);
      Shape shape(static_cast<size_t>(nd), 1);
      shape[static_cast<size_t>(ax)] = d.shape()[0];
      d = d.reshape(shape);
    } else {
      d = diff1(x, axis);
    }
    // NumPy multiplies before halving: d * (y[1:] + y[:-1]) / 2.0.
    terms = divide(multiply(d, add(along(y, ax, 1, std::nullopt), along(y, ax, std::nullopt, -1))), Scalar(2.0));
  } else if (dx.is_scalar) {
    terms = divide(multiply(Scalar(dx.scalar), add(along(y, ax, 1, std::nullopt), along(y, ax, std::nullopt, -1))),
                   Scalar(2.0));
  } else {
    terms =
        divide(multiply(dx.array(), add(along(y, ax, 1, std::nullopt), along(y, ax, std::nullopt, -1))), Scalar(2.0));
  }
  return reduce(builtin_ufunc("add"), terms, ax);
}

namespace {
// NumPy's interpolation rule for one real part: the last xp[j] <= x by
// binary search; at or beyond the ends left/right or fp[-1]; when the slope
// formula gives NaN (infinite fp), the formula from the right point, then
// fp[j] when both neighbours are equal.
const char* const kInterpPreamble = R"(
KUMO_FN int64_t kumo_interp_index(const KumoRawArray<double>& xp, int64_t n, double x) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + ((hi - lo) >> 1);
    if (x >= xp.at(mid)) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}
KUMO_FN double kumo_interp_part(double x, double x0, double x1, double y0, double y1) {
  double slope = (y1 - y0) / (x1 - x0);
  double r = slope * (x - x0) + y0;
  if (kumo::isnan(r)) {
    r = slope * (x - x1) + y1;
    if (kumo::isnan(r) && y0 == y1) r = y0;
  }
  return r;
}
)";
}  // namespace

Array interp(const Array& x_in, const Array& xp_in, const Array& fp_in, std::optional<std::complex<double>> left,
             std::optional<std::complex<double>> right, std::optional<double> period) {
  const bool cplx = is_complex(fp_in.dtype());
  const Dtype ftype = cplx ? Dtype::kComplex128 : Dtype::kFloat64;
  Array x = x_in.astype(Dtype::kFloat64, Order::kK, false);
  Array xp = xp_in.astype(Dtype::kFloat64, Order::kK, false);
  Array fp = fp_in.astype(ftype, Order::kK, false);
  if (period) {
    if (*period == 0) throw ValueError("period must be a non-zero value");
    const double p = std::fabs(*period);
    left.reset();
    right.reset();
    if (xp.ndim() != 1 || fp.ndim() != 1) throw ValueError("Data points must be 1-D sequences");
    if (xp.shape()[0] != fp.shape()[0]) throw ValueError("fp and xp are not of the same length");
    x = remainder(x, Scalar(p));
    xp = remainder(xp, Scalar(p));
    Array order = argsort(xp);
    xp = take(xp, order);
    fp = take(fp, order);
    xp = concatenate(
        {subtract(xp.index({slice(-1, std::nullopt)}), Scalar(p)), xp, add(xp.index({slice(0, 1)}), Scalar(p))});
    fp = concatenate({fp.index({slice(-1, std::nullopt)}), fp, fp.index({slice(0, 1)})});
  }
  for (const Array* a : {&xp, &fp}) {
    if (a->ndim() > 1) throw ValueError("object too deep for desired array");
    if (a->ndim() < 1) throw ValueError("object of too small depth for desired array");
  }
  const int64_t n = xp.shape()[0];
  if (n == 0) throw ValueError("array of sample points is empty");
  if (fp.shape()[0] != n) throw ValueError("fp and xp are not of the same length.");
  Device& dev = x.device();
  // The ends: the left/right values, else fp[0] and fp[-1] (read on the
  // device).
  auto end_value = [&](const std::optional<std::complex<double>>& v, int64_t idx) {
    if (!v.has_value()) return fp.index({IndexItem(idx)}).copy();
    const std::complex<double> c = v.value_or(std::complex<double>());
    return full(Shape{}, cplx ? Scalar(c) : Scalar(c.real()), ftype, Order::kC, dev);
  };
  Array lv = end_value(left, 0), rv = end_value(right, -1);
  Array nn = scalar_array_i64(n, dev);
  if (!cplx) {
    static auto spec =
        kernels::ElementwiseSpec::create("kumo_interp",
                                         "float64 x, raw float64 xp, raw float64 fp, raw float64 lv, raw "
                                         "float64 rv, raw int64 nn",
                                         "float64 y",
                                         "const int64_t n = nn[0];\n"
                                         "if (kumo::isnan(x)) { y = x; }\n"
                                         "else if (x < xp.at(0)) { y = lv[0]; }\n"
                                         "else if (x > xp.at(n - 1)) { y = rv[0]; }\n"
                                         "else {\n"
                                         "  int64_t j = kumo_interp_index(xp, n, x);\n"
                                         "  if (j >= n - 1 || xp.at(j) == x) y = fp.at(j);\n"
                                         "  else y = kumo_interp_part(x, xp.at(j), xp.at(j + 1), fp.at(j), "
                                         "fp.at(j + 1));\n"
                                         "}",
                                         kInterpPreamble);
    return kernels::call_elementwise(*spec, {x, xp, fp, lv, rv, nn}, {Array()})[0];
  }
  static auto spec =
      kernels::ElementwiseSpec::create("kumo_interp_complex",
                                       "float64 x, raw float64 xp, raw complex128 fp, raw complex128 lv, raw "
                                       "complex128 rv, "
                                       "raw int64 nn",
                                       "complex128 y",
                                       "const int64_t n = nn[0];\n"
                                       "if (kumo::isnan(x)) { y = complex128(x, 0.0); }\n"
                                       "else if (x < xp.at(0)) { y = lv[0]; }\n"
                                       "else if (x > xp.at(n - 1)) { y = rv[0]; }\n"
                                       "else {\n"
                                       "  int64_t j = kumo_interp_index(xp, n, x);\n"
                                       "  if (j >= n - 1 || xp.at(j) == x) { y = fp.at(j); }\n"
                                       "  else {\n"
                                       "    const complex128 a = fp.at(j), b = fp.at(j + 1);\n"
                                       "    y = complex128(kumo_interp_part(x, xp.at(j), xp.at(j + 1), "
                                       "a.real(), b.real()),\n"
                                       "                   kumo_interp_part(x, xp.at(j), xp.at(j + 1), "
                                       "a.imag(), b.imag()));\n"
                                       "  }\n"
                                       "}",
                                       kInterpPreamble);
  return kernels::call_elementwise(*spec, {x, xp, fp, lv, rv, nn}, {Array()})[0];
}

Array unwrap(const Array& p, std::optional<Scalar> discont, int64_t axis, Scalar period) {
  Array dd = diff1(p, axis);
  const int ax = normalize_axis(axis, p.ndim());
  const kernels::ScalarValue& pv = period.value();
  const Dtype dtype = result_type({dd.dtype()}, {pv.kind});
  const Scalar disc = discont ? *discont : Scalar(as_double(pv) / 2.0);
  Scalar high(0.0), low(0.0);
  bool ambiguous = true;
  if (is_int_or_bool(dtype)) {
    // Python's divmod(period, 2) on an integer period.
    int64_t per = pv.kind == WeakScalar::kBool ? (pv.b ? 1 : 0) : pv.i;
    int64_t q = per / 2, r = per % 2;
    if (r < 0) r += 2, q -= 1;
    high = Scalar(q), low = Scalar(-q);
    ambiguous = r == 0;
  } else {
    high = Scalar(as_double(pv) / 2.0), low = Scalar(-(as_double(pv) / 2.0));
  }
  Array ddmod = add(remainder(subtract(dd, low), period), low);
  if (ambiguous) ddmod = where(logical_and(equal(ddmod, low), greater(dd, Scalar(0))), Operand(high), Operand(ddmod));
  Array ph = subtract(ddmod, dd);
  ph = where(less(absolute(dd), disc), Operand(Scalar(0)), Operand(ph));
  Array up = p.astype(dtype);
  if (p.size() > 0 && p.shape()[static_cast<size_t>(ax)] > 1)
    copyto(along(up, ax, 1, std::nullopt), add(along(p, ax, 1, std::nullopt), cumsum(ph, ax)), Casting::kUnsafe);
  return up;
}

// ---- windows -------------------------------------------------------------------------------------

namespace {
// The window formulas of NumPy over n = 1-M, 3-M, ..., M-1 (kaiser: 0..M-1),
// evaluated in the same order of operations.
const kernels::ElementwiseSpec& window_spec(int which) {
  static const char* const ops[] = {"y = n <= 0 ? 1.0 + n / (M - 1.0) : 1.0 - n / (M - 1.0);",
                                    "y = 0.42 + 0.5 * cos(3.141592653589793 * n / (M - 1.0)) + "
                                    "0.08 * cos(6.283185307179586 * n / (M - 1.0));",
                                    "y = 0.54 + 0.46 * cos(3.141592653589793 * n / (M - 1.0));",
                                    "y = 0.5 + 0.5 * cos(3.141592653589793 * n / (M - 1.0));",
                                    "const double alpha = (M - 1.0) / 2.0; const double t = (n - alpha) / "
                                    "alpha;\n"
                                    "y = kumo_i0(beta * sqrt(1.0 - t * t)) / kumo_i0(beta);"};
  static const char* const names[] = {"kumo_bartlett", "kumo_blackman", "kumo_hamming", "kumo_hanning", "kumo_kaiser"};
  static std::shared_ptr<kernels::ElementwiseSpec> specs[5];
  static std::once_flag once[5];
  std::call_once(once[which], [&] {
    std::string nexpr = which == 4 ? "(double)i" : "(1.0 - M) + 2.0 * (double)i";
    specs[which] =
        kernels::ElementwiseSpec::create(names[which], "raw float64 Mv, raw float64 bv", "float64 y",
                                         "const double M = Mv[0], beta = bv[0];\n(void)beta;\nconst double n "
                                         "= " +
                                             nexpr + ";\n" + ops[which],
                                         which == 4 ? kI0Preamble : "");
  });
  return *specs[which];
}

Array run_window(int which, double M, double beta, Device& device) {
  if (M == 1) return ones(Shape{1}, Dtype::kFloat64, Order::kC, device);
  const bool from_zero = which == 4;
  if (!from_zero && M < 1) return Array::empty(Shape{0}, Dtype::kFloat64, device);
  const double start = from_zero ? 0.0 : 1.0 - M, step = from_zero ? 1.0 : 2.0;
  const int64_t len = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((M - start) / step)));
  Array out = Array::empty(Shape{len}, Dtype::kFloat64, device);
  if (len == 0) return out;
  kernels::call_elementwise(window_spec(which), {scalar_array(M, device), scalar_array(beta, device)}, {out});
  return out;
}
}  // namespace

Array bartlett(double M, Device& device) { return run_window(0, M, 0.0, device); }
Array blackman(double M, Device& device) { return run_window(1, M, 0.0, device); }
Array hamming(double M, Device& device) { return run_window(2, M, 0.0, device); }
Array hanning(double M, Device& device) { return run_window(3, M, 0.0, device); }
Array kaiser(double M, double beta, Device& device) { return run_window(4, M, beta, device); }

// ---- bits ----------------------------------------------------------------------------------------

namespace {
const char* const kBitsPreamble = R"(
KUMO_FN unsigned kumo_popcount64(uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ULL);
  v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
  v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return (unsigned)((v * 0x0101010101010101ULL) >> 56);
}
KUMO_FN uint16_t kumo_bswap(uint16_t v) { return (uint16_t)((v >> 8) | (v << 8)); }
KUMO_FN uint32_t kumo_bswap(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}
KUMO_FN uint64_t kumo_bswap(uint64_t v) {
  return ((uint64_t)kumo_bswap((uint32_t)v) << 32) | (uint64_t)kumo_bswap((uint32_t)(v >> 32));
}
)";

bool check_bitorder(const std::string& bitorder) {
  if (bitorder != "big" && bitorder != "little") throw ValueError("'order' must be either 'little' or 'big'");
  return bitorder == "little";
}
}  // namespace

Array bitwise_count(const Array& x) {
  if (!is_int_or_bool(x.dtype()))
    throw TypeError(
        "ufunc 'bitwise_count' not supported for the input types, "
        "and the inputs could not be safely coerced to any "
        "supported types according to the casting rule ''safe''");
  static auto spec =
      kernels::ElementwiseSpec::create("kumo_bitwise_count", "T x", "uint8 y",
                                       "const int64_t s = (int64_t)x;\n"
                                       "y = (uint8_t)kumo_popcount64(x < T(0) ? (uint64_t)0 - (uint64_t)s : "
                                       "(uint64_t)x);",
                                       kBitsPreamble);
  return kernels::call_elementwise(*spec, {x}, {Array()})[0];
}

namespace {
// Row offsets (rows x 1) and positions along a row (1 x cols) as int64 arrays
// that broadcast to the output: the kernels then find their element without
// dividing the flat index (a 64-bit division per element costs more than the
// work itself).
std::pair<Array, Array> row_and_column(int64_t rows, int64_t row_stride, int64_t cols, int64_t col_step, Device& dev) {
  Array ro = row_stride == 0
                 ? zeros(Shape{rows}, Dtype::kInt64, Order::kC, dev)
                 : arange(Scalar(int64_t{0}), Scalar(rows * row_stride), Scalar(row_stride), Dtype::kInt64, dev);
  Array co = arange(Scalar(int64_t{0}), Scalar(cols * col_step), Scalar(col_step), Dtype::kInt64, dev);
  return {ro.reshape(Shape{rows, 1}), co.reshape(Shape{1, cols})};
}
}  // namespace

Array packbits(const Array& a, std::optional<int64_t> axis, const std::string& bitorder) {
  if (!is_int_or_bool(a.dtype())) throw TypeError("Expected an input array of integer or boolean data type");
  const bool little = check_bitorder(bitorder);
  Array work = axis ? moveaxis(a, normalize_axis(*axis, a.ndim()), -1) : a.ravel();
  if (work.ndim() == 0) work = work.reshape(Shape{1});
  work = work.copy(Order::kC);  // rows of the packed axis, contiguous for the kernel's reads
  Shape shape = work.shape();
  const int64_t n = shape.back(), nb = (n + 7) / 8, rows = n ? work.size() / n : 0;
  shape.back() = nb;
  Array out = Array::empty(shape, Dtype::kUInt8, a.device());
  if (out.size() > 0) {
    static auto spec = kernels::ElementwiseSpec::create(
        "kumo_packbits", "raw T x, int64 ro, int64 jo, raw int64 nv, raw bool lv", "uint8 y",
        "const int64_t n = nv[0];\n"
        "const T* p = x.data() + ro + jo;\n"
        "const int m = (int)(n - jo < 8 ? n - jo : 8);\n"
        "const bool little = lv[0];\n"
        "unsigned v = 0;\n"
        "for (int k = 0; k < m; ++k) v |= (unsigned)(p[k] != T(0)) << (little ? k : 7 - k);\n"
        "y = (uint8_t)v;");
    Device& dev = a.device();
    auto [ro, jo] = row_and_column(rows, n, nb, 8, dev);
    kernels::call_elementwise(
        *spec, {work, ro, jo, scalar_array_i64(n, dev), full(Shape{}, Scalar(little), Dtype::kBool, Order::kC, dev)},
        {out.reshape(Shape{rows, nb})});
  }
  return axis ? moveaxis(out, -1, normalize_axis(*axis, a.ndim())) : out;
}

Array unpackbits(const Array& a, std::optional<int64_t> axis, std::optional<int64_t> count,
                 const std::string& bitorder) {
  if (a.dtype() != Dtype::kUInt8) throw TypeError("Expected an input array of unsigned byte data type");
  const bool little = check_bitorder(bitorder);
  Array src = a.ndim() == 0 ? a.reshape(Shape{1}) : a;
  int ax = 0;
  Array work;
  if (axis) {
    ax = normalize_axis(*axis, src.ndim());
    work = moveaxis(src, ax, -1);
  } else {
    work = src.ravel();
  }
  work = work.copy(Order::kC);
  Shape shape = work.shape();
  const int64_t n = shape.back();
  int64_t m = n * 8;
  if (count) {
    if (*count < 0 && -*count > n * 8) throw ValueError("-count larger than number of elements");
    m = *count >= 0 ? *count : n * 8 + *count;
  }
  // Rows of the input; with n == 0 the row count comes from the other axes.
  int64_t rows = 1;
  for (int d = 0; d + 1 < static_cast<int>(shape.size()); ++d) rows *= shape[static_cast<size_t>(d)];
  shape.back() = m;
  // Bits past the input (count > 8 n) are zeros; the kernel writes the rest.
  Array out =
      m > 8 * n ? zeros(shape, Dtype::kUInt8, Order::kC, a.device()) : Array::empty(shape, Dtype::kUInt8, a.device());
  if (out.size() > 0 && work.size() > 0) {
    // One kernel element per input byte writes its (up to) 8 bits, so the
    // per-element bookkeeping is paid once per byte rather than once per bit.
    static auto spec = kernels::ElementwiseSpec::create(
        "kumo_unpackbits", "uint8 x, int64 ro, int64 jo, raw int64 mv, raw bool lv", "raw uint8 y",
        "const int64_t m = mv[0];\n"
        "const bool little = lv[0];\n"
        "const int cnt = (int)(m - jo < 8 ? m - jo : 8);\n"
        "const unsigned byte = x;\n"
        "uint8_t* q = y.data() + ro + jo;\n"
        "for (int k = 0; k < cnt; ++k) q[k] = (uint8_t)((byte >> (little ? k : 7 - k)) & 1u);");
    Device& dev = a.device();
    auto [ro, jo] = row_and_column(rows, m, n, 8, dev);
    kernels::call_elementwise(*spec,
                              {work.reshape(Shape{rows, n}), ro, jo, scalar_array_i64(m, dev),
                               full(Shape{}, Scalar(little), Dtype::kBool, Order::kC, dev)},
                              {out});
  }
  return axis ? moveaxis(out, -1, ax) : out;
}

Array byteswap(const Array& a, bool inplace) {
  if (inplace && !a.writeable()) throw ValueError("assignment destination is read-only");
  Array out = inplace ? a : a.copy();
  const int64_t part = is_complex(a.dtype()) ? a.itemsize() / 2 : a.itemsize();
  if (part == 1 || out.size() == 0) return out;
  const Dtype word = part == 2 ? Dtype::kUInt16 : part == 4 ? Dtype::kUInt32 : Dtype::kUInt64;
  static auto spec = kernels::ElementwiseSpec::create("kumo_byteswap", "", "T y", "y = kumo_bswap(y);", kBitsPreamble);
  auto swap = [&](const Array& v) { kernels::call_elementwise(*spec, {}, {v.view_as(word)}); };
  if (is_complex(a.dtype())) {
    swap(out.real_view());
    swap(out.imag_view());
  } else {
    swap(out);
  }
  return out;
}

// ---- memory overlap ------------------------------------------------------------------------------

namespace {
// One array as a set of byte positions: low + sum(c_k x_k), 0 <= x_k <= u_k,
// each element covering `itemsize` bytes from there.
struct Extent {
  int64_t low = 0, high = 0;  // [low, high) covers every byte
  int64_t itemsize = 1;
  std::vector<std::pair<int64_t, int64_t>> terms;  // (|stride|, count - 1)
};

Extent extent_of(const Array& a) {
  Extent e;
  e.itemsize = a.itemsize();
  int64_t base = reinterpret_cast<int64_t>(a.data());
  int64_t span = 0;
  for (int k = 0; k < a.ndim(); ++k) {
    const int64_t n = a.shape()[static_cast<size_t>(k)], s = a.strides()[static_cast<size_t>(k)];
    if (n <= 1 || s == 0) continue;
    if (s < 0) base += s * (n - 1);
    span += std::llabs(s) * (n - 1);
    e.terms.emplace_back(std::llabs(s), n - 1);
  }
  e.low = base;
  e.high = base + span + e.itemsize;
  return e;
}

// Depth-first search for sum(c_k x_k) in [lo, hi] with the terms sorted by
// decreasing coefficient; each level visits only the values that can still
// reach the interval. `work` counts visited candidates against `budget`.
struct Search {
  const std::vector<std::pair<int64_t, int64_t>>& terms;
  std::vector<int64_t> suffix;  // suffix[k] = max of the terms from k on
  int64_t budget, work = 0;
  bool too_hard = false;

  bool run(size_t k, int64_t lo, int64_t hi) {
    if (hi < 0 || lo > suffix[k]) return false;
    if (k == terms.size()) return lo <= 0;
    const int64_t c = terms[k].first, u = terms[k].second, rest = suffix[k + 1];
    // c * x must lie in [lo - rest, hi].
    const int64_t need = lo - rest;
    int64_t x0 = need <= 0 ? 0 : (need + c - 1) / c;
    int64_t x1 = std::min(u, hi / c);
    if (k + 1 == terms.size()) {
      int64_t x = std::max<int64_t>(x0, lo <= 0 ? 0 : (lo + c - 1) / c);
      return x <= x1 && c * x <= hi;
    }
    for (int64_t x = x1; x >= x0; --x) {
      if (budget >= 0 && ++work > budget) {
        too_hard = true;
        return false;
      }
      if (run(k + 1, lo - c * x, hi - c * x)) return true;
      if (too_hard) return false;
    }
    return false;
  }
};
}  // namespace

std::optional<bool> memory_overlap(const Array& a, const Array& b, int64_t max_work) {
  if (a.size() == 0 || b.size() == 0) return false;
  if (&a.device() != &b.device()) return false;  // separate memories, whatever the addresses
  Extent ea = extent_of(a), eb = extent_of(b);
  if (ea.high <= eb.low || eb.high <= ea.low) return false;
  if (max_work == 0) return true;
  // Positions pa = ea.low + sum(ca xa), pb = eb.low + sum(cb yb) overlap when
  // -(ia - 1) <= pa - pb <= ib - 1. With yb' = ub - yb every coefficient is
  // positive: sum(ca xa) + sum(cb yb') in [L, U].
  std::vector<std::pair<int64_t, int64_t>> terms = ea.terms;
  int64_t shift = 0;
  for (auto [c, u] : eb.terms) {
    terms.emplace_back(c, u);
    shift += c * u;
  }
  const int64_t L = eb.low - ea.low - (ea.itemsize - 1) + shift, U = eb.low - ea.low + (eb.itemsize - 1) + shift;
  // Every reachable sum is a multiple of the strides' gcd: a cheap exact
  // answer for interleaved views such as a[::2] and a[1::2].
  int64_t g = 0;
  for (auto [c, u] : terms) g = std::gcd(g, c);
  if (g > 1 && U >= 0) {
    const int64_t first = L <= 0 ? 0 : (L + g - 1) / g * g;
    if (first > U) return false;
  }
  std::sort(terms.begin(), terms.end(), [](auto& p, auto& q) { return p.first > q.first; });
  Search s{terms, std::vector<int64_t>(terms.size() + 1, 0), max_work};
  for (size_t k = terms.size(); k-- > 0;) s.suffix[k] = s.suffix[k + 1] + terms[k].first * terms[k].second;
  bool found = s.run(0, L, U);
  if (s.too_hard) return std::nullopt;
  return found;
}

bool shares_memory(const Array& a, const Array& b, int64_t max_work) {
  std::optional<bool> r = memory_overlap(a, b, max_work);
  if (!r) throw RuntimeError("Exceeded max_work");
  return *r;
}

bool may_share_memory(const Array& a, const Array& b, int64_t max_work) { return shares_memory(a, b, max_work); }

}  // namespace kumo
