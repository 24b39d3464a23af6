#include "routines/special.h"

#include <memory>
#include <string>

#include "core/errors.h"
#include "kernels/elementwise.h"

namespace kumo {
namespace special {
namespace {

// Device functions shared by the kernels, all in double precision (the
// float32 kernels round the double result once, as SciPy's float loops do).
// Valid host C++ and CUDA C++: erf, erfc, lgamma and tgamma are C99/CUDA
// math functions; erfinv, digamma and the Hurwitz zeta are written here.
const char* const kSpecialPreamble = R"(
#define KUMO_SP_PI 3.141592653589793238462643
KUMO_FN double kumo_sp_inf() { return kumo::limits<double>::infinity(); }
KUMO_FN double kumo_sp_nan() { return kumo::limits<double>::quiet_NaN(); }
KUMO_FN double kumo_sp_erf(double x) { return ::erf(x); }
KUMO_FN double kumo_sp_erfc(double x) { return ::erfc(x); }
// Near the zeros at 1 and 2 the library lgamma loses relative accuracy;
// there the series lgamma(1 + e) = -gamma e + sum_k (-1)^k zeta(k) e^k / k
// (and lgamma(2 + e) = lgamma(1 + e) + log1p(e)) is used instead.
KUMO_FN double kumo_sp_lgamma1p(double e) {
  const double z[28] = {1.6449340668482264, 1.2020569031595942, 1.0823232337111381, 1.03692775514337,
    1.0173430619844492, 1.008349277381923, 1.0040773561979444, 1.0020083928260821, 1.000994575127818,
    1.0004941886041194, 1.000246086553308, 1.0001227133475785, 1.0000612481350588, 1.000030588236307,
    1.0000152822594086, 1.0000076371976379, 1.000003817293265, 1.0000019082127165, 1.0000009539620338,
    1.0000004769329869, 1.0000002384505027, 1.000000119219926, 1.000000059608189, 1.0000000298035034,
    1.0000000149015549, 1.0000000074507118, 1.000000003725334, 1.0000000018626598};
  double sum = 0.0;
  for (int k = 29; k >= 2; --k) sum = sum * -e + z[k - 2] / k;  // Horner in -e
  return e * (-0.5772156649015329 + e * sum);
}
KUMO_FN double kumo_sp_gammaln(double x) {
  if (isinf(x)) return x;  // SciPy gives -inf at -inf
  if (fabs(x - 1.0) < 0.2) return kumo_sp_lgamma1p(x - 1.0);
  if (fabs(x - 2.0) < 0.2) return kumo_sp_lgamma1p(x - 2.0) + log1p(x - 2.0);
  return ::lgamma(x);
}
// Giles' single-precision approximation ("Approximating the erfinv
// function", 2010) as the start, then Halley steps on erf (|x| <= 0.5) or
// Newton steps on log erfc (so that 1 - |x| near 0 keeps its precision).
KUMO_FN double kumo_sp_erfinv(double x) {
  if (isnan(x) || x < -1.0 || x > 1.0) return kumo_sp_nan();
  if (x == 1.0) return kumo_sp_inf();
  if (x == -1.0) return -kumo_sp_inf();
  if (x == 0.0) return x;
  double w = -log((1.0 - x) * (1.0 + x)), p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08; p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w; p = 0.00021858087 + p * w; p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w; p = 0.246640727 + p * w; p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3.0;
    p = -0.000200214257; p = 0.000100950558 + p * w; p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w; p = 0.00573950773 + p * w; p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w; p = 1.00167406 + p * w; p = 2.83297682 + p * w;
  }
  double ax = fabs(x), y = fabs(p * x);
  if (ax <= 0.5) {
    for (int it = 0; it < 3; ++it) {
      double f = ::erf(y) - ax;
      y -= f / (1.1283791670955126 * exp(-y * y) + y * f);
    }
  } else {
    // Newton on log(erfc(y)) = log(1 - ax), nearly linear in the tail
    // (1 - ax is exact here).
    const double target = log(1.0 - ax);
    for (int it = 0; it < 8; ++it) {
      double e = ::erfc(y);
      if (!(e > 0.0)) break;
      double step = (log(e) - target) * e / (1.1283791670955126 * exp(-y * y));
      y += step;
      if (fabs(step) <= 1e-17 * y) break;
    }
  }
  return x < 0 ? -y : y;
}
// psi(x): the reflection psi(1 - x) - pi / tan(pi x) for x < 0, the
// recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic
// series ln x - 1/(2x) - sum B_2k / (2k x^2k).
KUMO_FN double kumo_sp_digamma(double x) {
  if (isnan(x)) return x;
  if (x == 0.0) return signbit(x) ? kumo_sp_inf() : -kumo_sp_inf();
  if (isinf(x)) return x > 0 ? x : kumo_sp_nan();
  if (fabs(x - 1.4616321449683622) < 0.1) {
    // Near the positive root x0 the recurrence below is only absolutely
    // accurate; the Taylor series sum_k (-1)^(k+1) zeta(k+1, x0) (x - x0)^k
    // (x0 in two doubles) keeps the relative accuracy.
    const double c[19] = {0.9676722454476212,     -0.4427631689835921,    0.258499760955651,
                          -0.16394270544240652,   0.10782405069126237,    -0.07219956125645471,
                          0.04880428816414311,    -0.03316112647484736,   0.022597648232218104,
                          -0.01542476590494896,   0.010538791616612175,   -0.007204534386356869,
                          0.004926781395729853,   -0.003369801655439328,  0.002305126326734928,
                          -0.0015769367714301972, 0.0010788252019162967,  -0.0007380709389960052,
                          0.000504953265834602};
    const double d = (x - 1.4616321449683622) - 9.549995429965697e-17;
    double sum = c[18];
    for (int k = 17; k >= 0; --k) sum = sum * d + c[k];
    return sum * d;
  }
  double r = 0.0;
  if (x < 0.0) {
    if (x == floor(x)) return kumo_sp_nan();
    double f = x - rint(x);  // tan has period pi: the exact reduction to [-1/2, 1/2] keeps accuracy
    r = -KUMO_SP_PI / tan(KUMO_SP_PI * f);
    x = 1.0 - x;
  }
  while (x < 10.0) {
    r -= 1.0 / x;
    x += 1.0;
  }
  double z = 1.0 / (x * x);
  double s = z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132 -
             z * (691.0 / 32760 - z / 12.0))))));
  return r + log(x) - 0.5 / x - s;
}
// Hurwitz zeta(s, q) for s > 1: a direct sum until q + N >= 12 + s, then
// Euler-Maclaurin's tail with B_2j / (2j)! (j = 1..14). An integer s also
// allows negative q (the terms are then real); q a non-positive integer is a
// pole.
KUMO_FN double kumo_sp_zeta(double s, double q) {
  if (isnan(s) || isnan(q)) return kumo_sp_nan();
  if (q <= 0.0 && q == floor(q)) return kumo_sp_inf();
  if (q < 0.0 && s != floor(s)) return kumo_sp_nan();
  const double c[14] = {0.08333333333333333, -0.001388888888888889, 3.306878306878307e-05,
                        -8.267195767195768e-07, 2.08767569878681e-08, -5.284190138687493e-10,
                        1.3382536530684679e-11, -3.3896802963225827e-13, 8.586062056277845e-15,
                        -2.174868698558062e-16, 5.5090028283602295e-18, -1.3954464685812522e-19,
                        3.534707039629467e-21, -8.953517427037546e-23};
  double sum = 0.0, a = q;
  // At most a million direct terms, so that no input makes the kernel hang
  // (a hugely negative q is then nan; a huge s needs only a few terms anyway).
  for (int k = 0; a < 12.0 + s; ++k) {
    if (k == 1000000) {
      if (a <= 0.0) return kumo_sp_nan();
      break;
    }
    const double t = pow(a, -s);
    sum += t;
    a += 1.0;
    if (a > 1.0 && t * (a / (s - 1.0) + 1.0) <= 1e-18 * fabs(sum)) return sum;  // the rest is negligible
  }
  if (isinf(a)) return sum;
  double t = pow(a, -s);
  sum += pow(a, 1.0 - s) / (s - 1.0) + 0.5 * t;  // not a * t: t may underflow where this does not
  double fac = s * t / a;  // s (s+1) ... (s+2j-2) a^(-s-2j+1) for j = 1
  for (int j = 0; j < 14; ++j) {
    double term = c[j] * fac;
    sum += term;
    if (fabs(term) <= 1e-17 * fabs(sum)) break;
    fac *= (s + 2.0 * j + 1.0) * (s + 2.0 * j + 2.0) / (a * a);
  }
  return sum;
}
// psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for integers n >= 1.
KUMO_FN double kumo_sp_polygamma(double n, double x) {
  if (isnan(n) || isnan(x)) return kumo_sp_nan();
  if (n < 0.0 || n != floor(n)) return kumo_sp_nan();
  if (n == 0.0) return kumo_sp_digamma(x);
  double sign = fmod(n, 2.0) == 0.0 ? -1.0 : 1.0;
  return sign * tgamma(n + 1.0) * kumo_sp_zeta(n + 1.0, x);
}
)";

// SciPy's result dtype: float32 stays, everything real else is float64 ...
Dtype float_result(const Array& x, const char* name) {
  if (is_complex(x.dtype()) || !(is_floating(x.dtype()) || is_integer(x.dtype()) || x.dtype() == Dtype::kBool))
    throw TypeError(std::string("ufunc '") + name + "' not supported for the input types");
  return x.dtype() == Dtype::kFloat32 ? Dtype::kFloat32 : Dtype::kFloat64;
}

// ... except where the function has a float32 loop that small types cast to
// safely (erfinv): bool, 8/16-bit integers and float16 compute in float32.
Dtype small_float_result(const Array& x, const char* name) {
  Dtype d = float_result(x, name);
  switch (x.dtype()) {
    case Dtype::kBool:
    case Dtype::kInt8:
    case Dtype::kUInt8:
    case Dtype::kInt16:
    case Dtype::kUInt16:
    case Dtype::kFloat16:
      return Dtype::kFloat32;
    default:
      return d;
  }
}

std::shared_ptr<kernels::ElementwiseSpec> unary_spec(const char* kernel, const char* fn) {
  return kernels::ElementwiseSpec::create(kernel, "T x", "T y", std::string("y = (T)") + fn + "((double)x)",
                                          kSpecialPreamble);
}

Array unary(const kernels::ElementwiseSpec& spec, const Array& x, Dtype result) {
  Array in = x.dtype() == result ? x : x.astype(result);
  return kernels::call_elementwise(spec, {in}, {Array()})[0];
}

}  // namespace

Array erf(const Array& x) {
  static auto spec = unary_spec("kumo_special_erf", "kumo_sp_erf");
  return unary(*spec, x, float_result(x, "erf"));
}

Array erfc(const Array& x) {
  static auto spec = unary_spec("kumo_special_erfc", "kumo_sp_erfc");
  return unary(*spec, x, float_result(x, "erfc"));
}

Array erfinv(const Array& x) {
  static auto spec = unary_spec("kumo_special_erfinv", "kumo_sp_erfinv");
  return unary(*spec, x, small_float_result(x, "erfinv"));
}

Array gammaln(const Array& x) {
  static auto spec = unary_spec("kumo_special_gammaln", "kumo_sp_gammaln");
  return unary(*spec, x, float_result(x, "gammaln"));
}

Array digamma(const Array& x) {
  static auto spec = unary_spec("kumo_special_digamma", "kumo_sp_digamma");
  return unary(*spec, x, float_result(x, "psi"));
}

Array polygamma(const Array& n, const Array& x) {
  float_result(n, "polygamma");
  // SciPy computes (-1)^(n+1) n! zeta(n+1, x): single precision only when n
  // itself is float32 and x fits float32.
  Dtype small = small_float_result(x, "polygamma");
  Dtype result = n.dtype() == Dtype::kFloat32 && small == Dtype::kFloat32 ? Dtype::kFloat32 : Dtype::kFloat64;
  static auto spec = kernels::ElementwiseSpec::create(
      "kumo_special_polygamma", "T n, T x", "T y", "y = (T)kumo_sp_polygamma((double)n, (double)x)", kSpecialPreamble);
  Array nn = n.dtype() == result ? n : n.astype(result);
  Array xx = x.dtype() == result ? x : x.astype(result);
  return kernels::call_elementwise(*spec, {nn, xx}, {Array()})[0];
}

}  // namespace special
}  // namespace kumo
