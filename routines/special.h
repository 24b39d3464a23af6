// Special functions (scipy.special's erf, erfc, erfinv, gammaln, digamma,
// polygamma) as generated elementwise kernels, so they run on the arrays'
// device (host threads or CUDA) and back kumo.autograd's erf, lgamma, ...
//
//   kumo::Array y = kumo::special::erf(x);
//   kumo::Array t = kumo::special::polygamma(kumo::asarray(1), x);  // trigamma
//
// Result dtypes are SciPy's: float32 stays float32, every other real dtype
// computes in float64 (erfinv keeps bool, 8/16-bit integers and float16 in
// float32, as SciPy's loop selection does). Complex input is a TypeError.
// Values at poles and outside the domain are SciPy's (inf, -inf or nan).
#pragma once
#include "core/array.h"

namespace kumo {
namespace special {

// The error function 2/sqrt(pi) * integral_0^x exp(-t^2) dt.
Array erf(const Array& x);
// 1 - erf(x), accurate where erf(x) is close to 1.
Array erfc(const Array& x);
// The inverse of erf on [-1, 1] (+-inf at +-1, nan outside).
Array erfinv(const Array& x);
// log|Gamma(x)| (inf at the non-positive integers).
Array gammaln(const Array& x);
// The digamma function psi = Gamma'/Gamma (nan at the negative integers,
// -inf at +0 and inf at -0, as SciPy).
Array digamma(const Array& x);
// The n-th derivative of digamma, broadcasting n against x; nan where n is
// negative or not an integer. n = 0 is digamma.
Array polygamma(const Array& n, const Array& x);

}  // namespace special
}  // namespace kumo
