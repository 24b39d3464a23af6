// numpy's miscellaneous logic and math routines with NumPy 2.4's semantics:
// classification (isposinf, iscomplex, ...), special functions (sinc, i0),
// nan_to_num, calculus (gradient, ediff1d, trapezoid, interp, unwrap),
// window functions, bit routines (bitwise_count, packbits, unpackbits,
// byteswap) and memory-overlap queries.
//
//   kumo::Array g = kumo::gradient(f, {kumo::Scalar(0.5)})[0];
//   kumo::Array w = kumo::kaiser(64, 8.6);
//   kumo::Array p = kumo::packbits(bits, 1, "little");
//
// Elementwise work runs as generated kernels (or compositions of ufuncs) on
// the array's device. Errors are NumPy's exception types and messages.
#pragma once
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "routines/elementwise.h"
#include "routines/scalar.h"

namespace kumo {

// ---- classification ----
// x == +inf / x == -inf as bool; TypeError for complex input, as NumPy.
Array isposinf(const Array& x);
Array isneginf(const Array& x);
// imag(x) != 0 / imag(x) == 0, as bool (real dtypes: all false / all true).
Array iscomplex(const Array& x);
Array isreal(const Array& x);

// ---- special functions ----
// sin(pi x) / (pi x), 1 at x == 0; the dtype is that of pi * x (ints and
// bool give float64).
Array sinc(const Array& x);
// The modified Bessel function of the first kind, order 0 (Cephes'
// Chebyshev expansions); floats keep their dtype, others give float64.
// TypeError for complex input.
Array i0(const Array& x);
// NaN -> `nan`, +inf -> `posinf` (default: the dtype's largest value),
// -inf -> `neginf` (default: its lowest); real and imaginary parts of complex
// values apart. Integer and bool arrays are returned as they are (copied when
// `copy`). With copy=false an inexact array is changed in place and returned.
Array nan_to_num(const Array& x, bool copy = true, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                 std::optional<double> neginf = std::nullopt);

// ---- calculus ----
// numpy.gradient: one array per axis in `axes` (all axes when nullopt).
// `spacing` is empty (unit spacing), one scalar for every axis, or one entry
// per axis: a scalar step or a 1-d array of coordinates (possibly
// non-uniform). Central differences inside, one-sided differences of
// `edge_order` (1 or 2) at the ends. Integer input is differentiated in
// float64.
std::vector<Array> gradient(const Array& f, const std::vector<Operand>& spacing = {},
                            const std::optional<std::vector<int64_t>>& axes = std::nullopt, int64_t edge_order = 1);
// numpy.ediff1d: differences of the flattened array, with `to_begin` and
// `to_end` (undefined: none) before and after; they must cast to the input's
// dtype under same_kind (TypeError otherwise).
Array ediff1d(const Array& ary, const Array& to_end = Array(), const Array& to_begin = Array());
// numpy.trapezoid: the integral of y along `axis` by the trapezoidal rule,
// with sample points `x` (undefined: spacing `dx`).
Array trapezoid(const Array& y, const Array& x, const Operand& dx, int64_t axis = -1);
inline Array trapezoid(const Array& y, double dx = 1.0, int64_t axis = -1) {
  return trapezoid(y, Array(), Operand(Scalar(dx).value()), axis);
}
// numpy.interp: piecewise-linear interpolation of (xp, fp) at x, float64
// (complex128 for complex fp). `left`/`right` (default fp[0]/fp[-1]) are used
// below/above xp; with `period` the points are periodic and left/right unused.
Array interp(const Array& x, const Array& xp, const Array& fp, std::optional<std::complex<double>> left = std::nullopt,
             std::optional<std::complex<double>> right = std::nullopt, std::optional<double> period = std::nullopt);
// numpy.unwrap: removes jumps larger than `discont` (default period/2) along
// `axis` by adding multiples of `period`.
Array unwrap(const Array& p, std::optional<Scalar> discont = std::nullopt, int64_t axis = -1,
             Scalar period = 6.283185307179586);
// numpy.diff of order 1 along `axis` (not_equal for bool, as NumPy).
Array diff1(const Array& a, int64_t axis = -1);

// ---- window functions (float64, M points; none for M < 1) ----
Array bartlett(double M, Device& device = current_device());
Array blackman(double M, Device& device = current_device());
Array hamming(double M, Device& device = current_device());
Array hanning(double M, Device& device = current_device());
Array kaiser(double M, double beta, Device& device = current_device());

// ---- bits ----
// The number of 1 bits in |x| as uint8 (integers and bool; TypeError
// otherwise).
Array bitwise_count(const Array& x);
// Packs the truth of each element into the bits of uint8s along `axis`
// (the flattened array without one), the first element in the highest bit
// for "big" bitorder, the lowest for "little"; the last byte is padded with 0.
Array packbits(const Array& a, std::optional<int64_t> axis = std::nullopt, const std::string& bitorder = "big");
// The inverse on a uint8 array: 8 elements of 0/1 per byte along `axis`;
// `count` keeps that many (negative: drops -count from the end; larger pads
// with 0).
Array unpackbits(const Array& a, std::optional<int64_t> axis = std::nullopt,
                 std::optional<int64_t> count = std::nullopt, const std::string& bitorder = "big");
// ndarray.byteswap: each element with its bytes reversed (complex: each part
// apart). With `inplace` the array itself is changed and returned.
Array byteswap(const Array& a, bool inplace = false);

// ---- memory overlap ----
// Whether the bytes of a and b overlap: nullopt when more than `max_work`
// candidate solutions would have to be tried (max_work < 0: no limit,
// 0: only the address ranges are compared).
std::optional<bool> memory_overlap(const Array& a, const Array& b, int64_t max_work = -1);
// numpy.shares_memory (exact by default) and numpy.may_share_memory (address
// ranges by default); RuntimeError when max_work is exceeded.
bool shares_memory(const Array& a, const Array& b, int64_t max_work = -1);
bool may_share_memory(const Array& a, const Array& b, int64_t max_work = 0);

}  // namespace kumo
