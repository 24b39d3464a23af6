// Every built-in ufunc as a C++ function with NumPy's semantics:
//
//   kumo::Array y = kumo::exp(x);
//   kumo::add(a, 2.0, out);                               // out= (same_kind casting)
//   kumo::add(a, b, kumo::UfuncOptions().dtype(kumo::Dtype::kFloat64));
//   auto [q, r] = kumo::divmod(a, 7);
//
// Binary ufuncs take arrays or C++ numbers (kumo::Scalar, NEP 50 weak
// operands) on either side. Errors are NumPy's: kumo::TypeError
// (CastingError) when no loop fits, kumo::ValueError for negative integer
// powers, kumo::OverflowError for a number out of an integer array's range.
#pragma once
#include <array>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/array.h"
#include "routines/scalar.h"
#include "routines/ufunc_table.h"

namespace kumo {

using Operand = kernels::UfuncOperand;

// The keyword arguments of a ufunc call: out=, dtype=, casting=, where=.
// An Array or a Dtype converts to options (out= and dtype= respectively).
class UfuncOptions {
 public:
  UfuncOptions() = default;
  UfuncOptions(const Array& out) : out0_(out), n_outputs_(1) {}  // NOLINT: kumo::add(a, b, out)
  UfuncOptions(Dtype dtype) : dtype_(dtype) {}        // NOLINT: kumo::sqrt(a, Dtype::kFloat32)

  UfuncOptions& out(const Array& a) {
    out0_ = a;
    more_.clear();
    n_outputs_ = 1;
    return *this;
  }
  // One entry per output; undefined entries are allocated.
  UfuncOptions& out(std::vector<Array> outs);
  UfuncOptions& dtype(Dtype d) {
    dtype_ = d;
    return *this;
  }
  UfuncOptions& casting(Casting c) {
    casting_ = c;
    return *this;
  }
  // Only where the mask is true is the result stored (into out=, or into
  // uninitialised new memory elsewhere, as in NumPy).
  UfuncOptions& where(const Array& mask) {
    where_ = mask;
    return *this;
  }

  int n_outputs() const { return n_outputs_; }
  const Array& output(int i) const { return i == 0 ? out0_ : more_[i - 1]; }

  // The default options, shared (the default arguments below use it, so a
  // plain call builds no options object).
  static const UfuncOptions& none();
  std::optional<Dtype> dtype() const { return dtype_; }
  Casting casting() const { return casting_; }
  const Array& where() const { return where_; }

 private:
  // The first output inline (a single out= must not allocate), the others
  // (two-output ufuncs) in a vector.
  Array out0_;
  std::vector<Array> more_;
  int n_outputs_ = 0;
  std::optional<Dtype> dtype_;
  Casting casting_ = Casting::kSameKind;
  Array where_;
};

// Calls a ufunc (built-in or not) with NumPy's semantics; one array per output.
std::vector<Array> call_ufunc(const kernels::Ufunc& ufunc, const std::vector<Operand>& inputs,
                              const UfuncOptions& options = UfuncOptions::none());
// The same without containers: `outputs` has ufunc.nout() entries, which
// receive the results.
void call_ufunc_into(const kernels::Ufunc& ufunc, const Operand* inputs, int n_inputs, Array* outputs,
                     const UfuncOptions& options = UfuncOptions::none());
// Reports the floating-point errors of a finished ufunc call (NumPy's
// errstate, core/fp_errors.h): the flags its kernels raised, except an
// "invalid" that only NaN operands caused (the CPU flags every ordered
// comparison with a NaN; NumPy reports invalid only for a NaN made from
// numbers). `where`: the call's mask, or undefined.
//
// An output that is also an input (out=a, a %= b) has overwritten the NaNs
// the check looks for, so whether such inputs held a NaN is read before the
// call (aliased_input_nan) and handed to the report.
enum class AliasedNan : uint8_t { kNone, kNoNan, kNan };
AliasedNan aliased_input_nan(const kernels::Ufunc& ufunc, const Operand* inputs, int n_inputs, const Array* outputs);
void report_ufunc_fp_errors(const kernels::Ufunc& ufunc, const Operand* inputs, int n_inputs, const Array* outputs,
                            const Array& where, AliasedNan before = AliasedNan::kNone);
// The same for a reduction ("overflow encountered in reduce").
void report_reduction_fp_errors(const char* operation, const Array& input, const Array& result);
// The same for a built-in ufunc by name or alias ("add", "abs", ...).
std::vector<Array> call_ufunc(std::string_view name, const std::vector<Operand>& inputs,
                              const UfuncOptions& options = UfuncOptions::none());

// The ufuncs with one input and one output.
#define KUMO_UNARY_UFUNCS(X)                                                                                  \
  X(negative) X(positive) X(absolute) X(fabs) X(sign) X(conjugate) X(reciprocal) X(square) X(sqrt) X(cbrt)   \
  X(exp) X(exp2) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sin) X(cos) X(tan) X(arcsin) X(arccos) X(arctan) \
  X(sinh) X(cosh) X(tanh) X(arcsinh) X(arccosh) X(arctanh) X(degrees) X(rad2deg) X(radians) X(deg2rad)        \
  X(rint) X(floor) X(ceil) X(trunc) X(isnan) X(isinf) X(isfinite) X(signbit) X(spacing) X(logical_not)        \
  X(invert)
// The ufuncs with two inputs and one output.
#define KUMO_BINARY_UFUNCS(X)                                                                                 \
  X(add) X(subtract) X(multiply) X(divide) X(floor_divide) X(remainder) X(fmod) X(power) X(float_power)      \
  X(heaviside) X(gcd) X(lcm) X(logaddexp) X(logaddexp2) X(arctan2) X(hypot) X(copysign) X(nextafter)          \
  X(ldexp) X(maximum) X(minimum) X(fmax) X(fmin) X(equal) X(not_equal) X(less) X(less_equal) X(greater)       \
  X(greater_equal) X(logical_and) X(logical_or) X(logical_xor) X(bitwise_and) X(bitwise_or) X(bitwise_xor)   \
  X(left_shift) X(right_shift)
// The ufuncs with two outputs: divmod (two inputs), frexp and modf (one).
#define KUMO_TWO_OUTPUT_UFUNCS(X) X(divmod) X(frexp) X(modf)

#define KUMO_DECLARE_UNARY_UFUNC(name) Array name(const Array& x, const UfuncOptions& options = UfuncOptions::none());
#define KUMO_DECLARE_BINARY_UFUNC(name)                                      \
  Array name(const Array& x, const Array& y, const UfuncOptions& options = UfuncOptions::none()); \
  Array name(const Array& x, Scalar y, const UfuncOptions& options = UfuncOptions::none());       \
  Array name(Scalar x, const Array& y, const UfuncOptions& options = UfuncOptions::none());
KUMO_UNARY_UFUNCS(KUMO_DECLARE_UNARY_UFUNC)
KUMO_BINARY_UFUNCS(KUMO_DECLARE_BINARY_UFUNC)
#undef KUMO_DECLARE_UNARY_UFUNC
#undef KUMO_DECLARE_BINARY_UFUNC

std::pair<Array, Array> divmod(const Array& x, const Array& y, const UfuncOptions& options = UfuncOptions::none());
std::pair<Array, Array> divmod(const Array& x, Scalar y, const UfuncOptions& options = UfuncOptions::none());
std::pair<Array, Array> divmod(Scalar x, const Array& y, const UfuncOptions& options = UfuncOptions::none());
std::pair<Array, Array> frexp(const Array& x, const UfuncOptions& options = UfuncOptions::none());
std::pair<Array, Array> modf(const Array& x, const UfuncOptions& options = UfuncOptions::none());

// NumPy's other names for the same ufuncs.
inline Array abs(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return absolute(x, o); }
inline Array conj(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return conjugate(x, o); }
inline Array bitwise_not(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return invert(x, o); }
inline Array acos(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return arccos(x, o); }
inline Array asin(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return arcsin(x, o); }
inline Array atan(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return arctan(x, o); }
inline Array acosh(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return arccosh(x, o); }
inline Array asinh(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return arcsinh(x, o); }
inline Array atanh(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return arctanh(x, o); }
#define KUMO_BINARY_UFUNC_ALIAS(alias, target)                                                            \
  inline Array alias(const Array& x, const Array& y, const UfuncOptions& o = UfuncOptions::none()) { return target(x, y, o); } \
  inline Array alias(const Array& x, Scalar y, const UfuncOptions& o = UfuncOptions::none()) { return target(x, y, o); }      \
  inline Array alias(Scalar x, const Array& y, const UfuncOptions& o = UfuncOptions::none()) { return target(x, y, o); }
KUMO_BINARY_UFUNC_ALIAS(true_divide, divide)
KUMO_BINARY_UFUNC_ALIAS(mod, remainder)
KUMO_BINARY_UFUNC_ALIAS(pow, power)
KUMO_BINARY_UFUNC_ALIAS(atan2, arctan2)
KUMO_BINARY_UFUNC_ALIAS(bitwise_left_shift, left_shift)
KUMO_BINARY_UFUNC_ALIAS(bitwise_right_shift, right_shift)
#undef KUMO_BINARY_UFUNC_ALIAS
inline Array bitwise_invert(const Array& x, const UfuncOptions& o = UfuncOptions::none()) { return invert(x, o); }

}  // namespace kumo
