#pragma once
// The one dispatch from a Dtype to the C++ element type, for the code that
// works on raw elements (host loops, library backends):
//
//   visit_dtype(a.dtype(), [&](auto tag) {
//     using T = typename decltype(tag)::type;   // int8_t, ..., std::complex<double>
//     ...
//   });
//
// float16 has no C++ arithmetic type on the host, so no visit takes it; code
// that handles float16 converts through float32 first. A dtype outside the
// visit's set calls `unsupported` (which must throw), or throws TypeError.
#include <complex>
#include <cstdint>
#include <string>

#include "core/dtype.h"
#include "core/errors.h"

namespace kumo {

template <class T>
struct TypeTag {
  using type = T;
};

namespace dtype_visit_detail {
[[noreturn]] inline void unsupported_dtype(Dtype d) {
  throw TypeError(std::string("unsupported dtype ") + dtype_name(d));
}
struct DefaultUnsupported {
  Dtype dtype;
  [[noreturn]] void operator()() const { unsupported_dtype(dtype); }
};
}  // namespace dtype_visit_detail

// float32, float64, complex64 and complex128: the four types of BLAS and
// LAPACK (and the Krylov solvers), f(TypeTag<float>{}) ... f(TypeTag<std::complex<double>>{}).
template <class F, class Unsupported>
decltype(auto) visit_inexact_dtype(Dtype d, F&& f, Unsupported&& unsupported) {
  switch (d) {
    case Dtype::kFloat32: return f(TypeTag<float>{});
    case Dtype::kFloat64: return f(TypeTag<double>{});
    case Dtype::kComplex64: return f(TypeTag<std::complex<float>>{});
    case Dtype::kComplex128: return f(TypeTag<std::complex<double>>{});
    default: break;
  }
  unsupported();
  dtype_visit_detail::unsupported_dtype(d);  // `unsupported` returned
}

// The real dtypes (bool, the integers, float32, float64).
template <class F, class Unsupported>
decltype(auto) visit_real_dtype(Dtype d, F&& f, Unsupported&& unsupported) {
  switch (d) {
    case Dtype::kBool: return f(TypeTag<bool>{});
    case Dtype::kInt8: return f(TypeTag<int8_t>{});
    case Dtype::kUInt8: return f(TypeTag<uint8_t>{});
    case Dtype::kInt16: return f(TypeTag<int16_t>{});
    case Dtype::kUInt16: return f(TypeTag<uint16_t>{});
    case Dtype::kInt32: return f(TypeTag<int32_t>{});
    case Dtype::kUInt32: return f(TypeTag<uint32_t>{});
    case Dtype::kInt64: return f(TypeTag<int64_t>{});
    case Dtype::kUInt64: return f(TypeTag<uint64_t>{});
    case Dtype::kFloat32: return f(TypeTag<float>{});
    case Dtype::kFloat64: return f(TypeTag<double>{});
    default: break;
  }
  unsupported();
  dtype_visit_detail::unsupported_dtype(d);
}

// Every dtype but float16: the real ones and complex64/complex128.
template <class F, class Unsupported>
decltype(auto) visit_dtype(Dtype d, F&& f, Unsupported&& unsupported) {
  if (d == Dtype::kComplex64) return f(TypeTag<std::complex<float>>{});
  if (d == Dtype::kComplex128) return f(TypeTag<std::complex<double>>{});
  return visit_real_dtype(d, f, unsupported);
}

template <class F>
decltype(auto) visit_dtype(Dtype d, F&& f) {
  return visit_dtype(d, f, dtype_visit_detail::DefaultUnsupported{d});
}
template <class F>
decltype(auto) visit_real_dtype(Dtype d, F&& f) {
  return visit_real_dtype(d, f, dtype_visit_detail::DefaultUnsupported{d});
}
template <class F>
decltype(auto) visit_inexact_dtype(Dtype d, F&& f) {
  return visit_inexact_dtype(d, f, dtype_visit_detail::DefaultUnsupported{d});
}

}  // namespace kumo
