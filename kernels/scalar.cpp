// Conversion of Python scalars into array elements. Uses the kernel prelude
// on the host so scalars convert exactly as elements do inside kernels
// (float16 rounding, complex -> real, ...).
#include <climits>
#include <cmath>
#include <cstring>
#include <string>

#include "core/errors.h"
#include "core/fp_errors.h"
#include "kernels/prelude/kumo_prelude.h"
#include "kernels/scalar_assign.h"
#include "kernels/ufunc.h"

namespace kumo {
namespace kernels {

namespace {

template <class T>
void put(void* dst, T v) {
  std::memcpy(dst, &v, sizeof(T));
}

template <class To, class From>
void put_cast(void* dst, From v) {
  put<To>(dst, kumo_cast<To>(v));
}

template <class From>
void store_as(Dtype d, From v, void* dst) {
  switch (d) {
    case Dtype::kBool: put_cast<bool>(dst, v); break;
    case Dtype::kInt8: put_cast<int8_t>(dst, v); break;
    case Dtype::kUInt8: put_cast<uint8_t>(dst, v); break;
    case Dtype::kInt16: put_cast<int16_t>(dst, v); break;
    case Dtype::kUInt16: put_cast<uint16_t>(dst, v); break;
    case Dtype::kInt32: put_cast<int32_t>(dst, v); break;
    case Dtype::kUInt32: put_cast<uint32_t>(dst, v); break;
    case Dtype::kInt64: put_cast<int64_t>(dst, v); break;
    case Dtype::kUInt64: put_cast<uint64_t>(dst, v); break;
    case Dtype::kFloat16: put_cast<float16>(dst, v); break;
    case Dtype::kFloat32: put_cast<float>(dst, v); break;
    case Dtype::kFloat64: put_cast<double>(dst, v); break;
    case Dtype::kComplex64: put_cast<complex64>(dst, v); break;
    case Dtype::kComplex128: put_cast<complex128>(dst, v); break;
  }
}

bool int_fits(const ScalarValue& v, Dtype d) {
  if (v.huge) return false;
  struct Range {
    long double lo, hi;
  };
  long double x = v.is_uint ? static_cast<long double>(v.u) : static_cast<long double>(v.i);
  switch (d) {
    case Dtype::kInt8: return x >= SCHAR_MIN && x <= SCHAR_MAX;
    case Dtype::kUInt8: return x >= 0 && x <= UCHAR_MAX;
    case Dtype::kInt16: return x >= SHRT_MIN && x <= SHRT_MAX;
    case Dtype::kUInt16: return x >= 0 && x <= USHRT_MAX;
    case Dtype::kInt32: return x >= INT_MIN && x <= INT_MAX;
    case Dtype::kUInt32: return x >= 0 && x <= UINT_MAX;
    case Dtype::kInt64: return !v.is_uint;
    case Dtype::kUInt64: return v.is_uint || v.i >= 0;
    default: return true;
  }
}

// NumPy's "overflow encountered in cast": a finite Python number that
// became inf in a float16/float32/complex64 element (the conversion is a
// plain C++ one here, so no CPU flag tells).
void report_cast_overflow(const ScalarValue& v, Dtype dtype, const void* dst) {
  double in = 0;
  bool became_inf = false;
  switch (dtype) {
    case Dtype::kFloat16: {
      uint16_t bits;
      std::memcpy(&bits, dst, 2);
      became_inf = (bits & 0x7FFF) == 0x7C00;
      break;
    }
    case Dtype::kFloat32:
    case Dtype::kComplex64: {
      float f[2];
      std::memcpy(f, dst, dtype == Dtype::kFloat32 ? 4 : 8);
      became_inf = std::isinf(f[0]) || (dtype == Dtype::kComplex64 && std::isinf(f[1]));
      break;
    }
    default: return;
  }
  if (!became_inf) return;
  switch (v.kind) {
    case WeakScalar::kFloat: in = v.f; break;
    case WeakScalar::kComplex: in = std::isinf(v.c.real()) || std::isinf(v.c.imag()) ? INFINITY : 0.0; break;
    default: in = 0.0; break;  // an integer is finite
  }
  if (!std::isinf(in)) report_fp_errors(kFpOverflow, "cast");
}

}  // namespace

static void store_scalar_value(const ScalarValue& v, Dtype dtype, void* dst);

void store_scalar(const ScalarValue& v, Dtype dtype, void* dst) {
  store_scalar_value(v, dtype, dst);
  if (v.kind != WeakScalar::kBool) report_cast_overflow(v, dtype, dst);
}

static void store_scalar_value(const ScalarValue& v, Dtype dtype, void* dst) {
  switch (v.kind) {
    case WeakScalar::kBool:
      store_as(dtype, v.b, dst);
      return;
    case WeakScalar::kInt:
      if (is_integer(dtype)) {
        if (!int_fits(v, dtype)) {
          std::string text = v.huge ? "value" : (v.is_uint ? std::to_string(v.u) : std::to_string(v.i));
          throw OverflowError("Python integer " + text + " out of bounds for " + dtype_name(dtype));
        }
        if (v.is_uint) store_as(dtype, v.u, dst);
        else store_as(dtype, v.i, dst);
      } else if (dtype == Dtype::kBool) {
        store_as(dtype, v.huge || v.is_uint || v.i != 0, dst);
      } else if (v.is_uint) {
        store_as(dtype, v.u, dst);
      } else if (v.huge) {
        store_as(dtype, v.f, dst);
      } else {
        store_as(dtype, v.i, dst);
      }
      return;
    case WeakScalar::kFloat:
      store_as(dtype, v.f, dst);
      return;
    case WeakScalar::kComplex:
      // NumPy converts the Python complex with float()/int(), which refuse it.
      if (!is_complex(dtype) && dtype != Dtype::kBool)
        throw TypeError(is_integer(dtype)
                            ? "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
                            : "float() argument must be a string or a real number, not 'complex'");
      store_as(dtype, complex128(v.c.real(), v.c.imag()), dst);
      return;
  }
}

bool weak_fits_kind(WeakScalar s, Dtype d) {
  DtypeKind k = kind(d);
  switch (s) {
    case WeakScalar::kBool: return true;
    case WeakScalar::kInt: return k != DtypeKind::kBool;
    case WeakScalar::kFloat: return k == DtypeKind::kFloat || k == DtypeKind::kComplex;
    case WeakScalar::kComplex: return k == DtypeKind::kComplex;
  }
  return false;
}

ScalarValue assigned_scalar(const ScalarValue& v, Dtype dtype) {
  if (v.kind != WeakScalar::kFloat || !is_integer(dtype)) return v;
  if (std::isnan(v.f)) throw ValueError("cannot convert float NaN to integer");
  if (std::isinf(v.f)) throw OverflowError("cannot convert float infinity to integer");
  const double t = std::trunc(v.f);
  constexpr double k2to63 = 9223372036854775808.0, k2to64 = 18446744073709551616.0;
  if (t < -k2to63 || t >= k2to64) throw OverflowError("Python int too large to convert to C long");
  ScalarValue r;
  r.kind = WeakScalar::kInt;
  r.f = t;
  if (t >= k2to63) {
    r.is_uint = true;
    r.u = static_cast<uint64_t>(t);
  } else {
    r.i = static_cast<int64_t>(t);
  }
  return r;
}

namespace {

// A scalar's bytes held in its Memory object: a weak scalar operand on the
// host then costs one small allocation instead of a trip through the pool.
class InlineScalarMemory final : public Memory {
 public:
  explicit InlineScalarMemory(Device* device) : Memory(storage_, sizeof(storage_), device) {}

 private:
  alignas(16) unsigned char storage_[16];  // the widest dtype, complex128
};

}  // namespace

Array scalar_to_array(const ScalarValue& v, Dtype dtype, Device& device) {
  if (&device == &host_device()) {
    Array a(std::make_shared<InlineScalarMemory>(&device), 0, Shape{}, Strides{}, dtype);
    store_scalar(v, dtype, a.data());
    return a;
  }
  Array a = Array::empty(Shape{}, dtype, host_device());
  store_scalar(v, dtype, a.data());
  if (&device != &host_device()) return a.to_device(device);
  return a;
}

}  // namespace kernels
}  // namespace kumo
