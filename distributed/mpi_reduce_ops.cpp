// MPI datatypes and reductions for kumo's dtypes. MPI has no float16 and its
// MPI_MAX/MPI_MIN on floating types do not propagate NaN the way
// numpy.maximum/minimum do, so those are user-defined operations here.
#include <complex>
#include <cmath>
#include <cstdint>
#include <mutex>

#include "distributed/mpi_communicator.h"
#include "kernels/prelude/kumo_prelude.h"

namespace kumo {
namespace distributed {
namespace {

using Half = uint16_t;

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return std::isnan(v.real()) || std::isnan(v.imag());
}

// numpy.maximum's order: a NaN wins; complex numbers compare lexicographically.
template <class T>
bool greater(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return a > b;
  else return a.real() > b.real() || (a.real() == b.real() && a.imag() > b.imag());
}

template <class T, bool kMax>
void extremum(void* in, void* inout, int* len, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *len; ++i) {
    if (is_nan(b[i])) continue;
    if (is_nan(a[i]) || (kMax ? greater(a[i], b[i]) : greater(b[i], a[i]))) b[i] = a[i];
  }
}

// float16 arithmetic is float arithmetic rounded back (NumPy's float16 loops).
void half_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  const Half* a = static_cast<const Half*>(in);
  Half* b = static_cast<Half*>(inout);
  for (int i = 0; i < *len; ++i)
    b[i] = kumo::detail::float_to_half_bits(kumo::detail::half_bits_to_float(a[i]) + kumo::detail::half_bits_to_float(b[i]));
}

template <bool kMax>
void half_extremum(void* in, void* inout, int* len, MPI_Datatype*) {
  const Half* a = static_cast<const Half*>(in);
  Half* b = static_cast<Half*>(inout);
  for (int i = 0; i < *len; ++i) {
    const float x = kumo::detail::half_bits_to_float(a[i]), y = kumo::detail::half_bits_to_float(b[i]);
    if (std::isnan(y)) continue;
    if (std::isnan(x) || (kMax ? x > y : x < y)) b[i] = a[i];
  }
}

struct UserOps {
  MPI_Op half_sum, half_max, half_min;
  MPI_Op f32_max, f32_min, f64_max, f64_min, c64_max, c64_min, c128_max, c128_min;
};

const UserOps& user_ops() {
  static UserOps ops;
  static std::once_flag once;
  std::call_once(once, [] {
    auto make = [](MPI_User_function* fn) {
      MPI_Op op;
      MPI_Op_create(fn, /*commute=*/1, &op);
      return op;
    };
    ops.half_sum = make(&half_sum);
    ops.half_max = make(&half_extremum<true>);
    ops.half_min = make(&half_extremum<false>);
    ops.f32_max = make(&extremum<float, true>);
    ops.f32_min = make(&extremum<float, false>);
    ops.f64_max = make(&extremum<double, true>);
    ops.f64_min = make(&extremum<double, false>);
    ops.c64_max = make(&extremum<std::complex<float>, true>);
    ops.c64_min = make(&extremum<std::complex<float>, false>);
    ops.c128_max = make(&extremum<std::complex<double>, true>);
    ops.c128_min = make(&extremum<std::complex<double>, false>);
  });
  return ops;
}

}  // namespace

MPI_Datatype mpi_datatype(Dtype dtype) {
  switch (dtype) {
    case Dtype::kBool: return MPI_C_BOOL;
    case Dtype::kInt8: return MPI_INT8_T;
    case Dtype::kInt16: return MPI_INT16_T;
    case Dtype::kInt32: return MPI_INT32_T;
    case Dtype::kInt64: return MPI_INT64_T;
    case Dtype::kUInt8: return MPI_UINT8_T;
    case Dtype::kUInt16: return MPI_UINT16_T;
    case Dtype::kUInt32: return MPI_UINT32_T;
    case Dtype::kUInt64: return MPI_UINT64_T;
    case Dtype::kFloat16: return MPI_UINT16_T;
    case Dtype::kFloat32: return MPI_FLOAT;
    case Dtype::kFloat64: return MPI_DOUBLE;
    case Dtype::kComplex64: return MPI_C_FLOAT_COMPLEX;
    case Dtype::kComplex128: return MPI_C_DOUBLE_COMPLEX;
  }
  throw TypeError("kumo.distributed: unsupported dtype");
}

MPI_Op mpi_reduce_op(ReduceOp op, Dtype dtype) {
  const bool sum = op == ReduceOp::kSum || op == ReduceOp::kMean;
  const bool max = op == ReduceOp::kMax;
  const UserOps& u = user_ops();
  switch (dtype) {
    case Dtype::kBool:  // numpy.add/maximum on bools is "or", minimum is "and"
      return op == ReduceOp::kMin ? MPI_LAND : MPI_LOR;
    case Dtype::kFloat16: return sum ? u.half_sum : max ? u.half_max : u.half_min;
    case Dtype::kFloat32: return sum ? MPI_SUM : max ? u.f32_max : u.f32_min;
    case Dtype::kFloat64: return sum ? MPI_SUM : max ? u.f64_max : u.f64_min;
    case Dtype::kComplex64: return sum ? MPI_SUM : max ? u.c64_max : u.c64_min;
    case Dtype::kComplex128: return sum ? MPI_SUM : max ? u.c128_max : u.c128_min;
    default: return sum ? MPI_SUM : max ? MPI_MAX : MPI_MIN;  // integers
  }
}

}  // namespace distributed
}  // namespace kumo
