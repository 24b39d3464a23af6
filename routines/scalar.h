// kumo::Scalar: a C++ number taking part in an operation as a NEP 50 "weak"
// operand, as a Python scalar does in NumPy 2: its kind (bool, integer,
// floating, complex) counts, its C++ width does not, so `a * 2.0` keeps a
// float32 array float32 and `a + 1` keeps int8 int8.
#pragma once
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/ufunc.h"

namespace kumo {

class Scalar {
 public:
  Scalar(bool v) {  // NOLINT: implicit, a number is a scalar operand
    v_.kind = WeakScalar::kBool;
    v_.b = v;
    v_.i = v;
    v_.f = v;
    v_.c = v_.f;
  }
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) {  // NOLINT
    v_.kind = WeakScalar::kInt;
    if constexpr (std::is_unsigned_v<T>) {
      if (static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        v_.is_uint = true;
        v_.u = static_cast<uint64_t>(v);
        v_.f = static_cast<double>(v_.u);
        v_.c = v_.f;
        return;
      }
    }
    v_.i = static_cast<int64_t>(v);
    v_.f = static_cast<double>(v_.i);
    v_.c = v_.f;
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) {  // NOLINT
    v_.kind = WeakScalar::kFloat;
    v_.f = static_cast<double>(v);
    v_.c = v_.f;
  }
  template <class T>
  Scalar(std::complex<T> v) {  // NOLINT
    v_.kind = WeakScalar::kComplex;
    v_.c = std::complex<double>(v.real(), v.imag());
    v_.f = v_.c.real();
  }
  explicit Scalar(const kernels::ScalarValue& v) : v_(v) {}

  WeakScalar kind() const { return v_.kind; }
  const kernels::ScalarValue& value() const { return v_; }
  operator kernels::UfuncOperand() const { return kernels::UfuncOperand(v_); }  // NOLINT

 private:
  kernels::ScalarValue v_;
};

}  // namespace kumo
