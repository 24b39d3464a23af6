// Element types and NumPy 2 type promotion (including NEP 50 weak scalars).
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace kumo {

// Ordered as NumPy's type numbers for the numeric types.
enum class Dtype : uint8_t {
  kBool = 0,
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kComplex64,
  kComplex128,
};
constexpr int kNumDtypes = 14;

// 'b' bool, 'u' unsigned, 'i' signed, 'f' float, 'c' complex (NumPy's dtype.kind).
enum class DtypeKind : uint8_t { kBool = 0, kUnsigned = 1, kSigned = 2, kFloat = 3, kComplex = 4 };

enum class Casting : uint8_t { kNo, kEquiv, kSafe, kSameKind, kUnsafe };

// Kind of a Python scalar taking part in promotion as a "weak" operand.
enum class WeakScalar : uint8_t { kBool, kInt, kFloat, kComplex };

// Inline: asked on every array operation, often several times.
constexpr size_t itemsize(Dtype dtype) {
  constexpr unsigned char kSizes[kNumDtypes] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8, 8, 16};
  return kSizes[static_cast<int>(dtype)];
}
DtypeKind kind(Dtype dtype);
char kind_char(Dtype dtype);          // NumPy's dtype.kind letter
char type_char(Dtype dtype);          // NumPy's dtype.char ('?', 'b', 'B', 'h', ... 'D')
const char* dtype_name(Dtype dtype);  // "float32"
std::string dtype_repr(Dtype dtype);  // "dtype('float32')", as NumPy's messages write it
const char* kernel_type_name(Dtype dtype);  // the prelude's C type name ("float", "complex64")
bool is_integer(Dtype dtype);         // signed or unsigned (not bool)
bool is_floating(Dtype dtype);        // float16/32/64
bool is_complex(Dtype dtype);
bool is_inexact(Dtype dtype);

// Parses a NumPy dtype name or type character ("float32", "f4", "f", "int", "complex").
// Throws TypeError for anything else.
Dtype dtype_from_name(const std::string& name);
bool try_dtype_from_name(const std::string& name, Dtype* out);

// numpy.promote_types. Always defined for the numeric types.
Dtype promote_types(Dtype a, Dtype b);
// numpy.can_cast(from, to, casting) for dtypes.
bool can_cast(Dtype from, Dtype to, Casting casting);
const char* casting_name(Casting casting);
Casting casting_from_name(const std::string& name);

// numpy.result_type over strong dtypes (arrays, NumPy scalars) and weak
// Python scalars (NEP 50). At least one argument must be given.
Dtype result_type(const std::vector<Dtype>& strong, const std::vector<WeakScalar>& weak);

// The dtype a weak Python scalar takes next to an operand of dtype `other`
// (e.g. Python float next to int8 -> float64, next to float16 -> float16).
Dtype weak_scalar_dtype(WeakScalar scalar, Dtype other);
// The dtype of a lone Python scalar (int -> int64, float -> float64 ...).
Dtype default_dtype(WeakScalar scalar);

// The real dtype of a complex one (complex64 -> float32), identity otherwise.
Dtype real_dtype(Dtype dtype);
// The complex dtype holding a real one (float32 -> complex64, float64/ints -> complex128).
Dtype complex_dtype(Dtype dtype);

// The dtype of a C++ element type: dtype_of<float>() == Dtype::kFloat32.
// (float16 has no standard C++ type; convert through float.)
template <class T>
constexpr Dtype dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return Dtype::kBool;
  else if constexpr (std::is_same_v<T, float>) return Dtype::kFloat32;
  else if constexpr (std::is_same_v<T, double>) return Dtype::kFloat64;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return Dtype::kComplex64;
  else if constexpr (std::is_same_v<T, std::complex<double>>) return Dtype::kComplex128;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    static_assert(sizeof(T) <= 8, "no kumo dtype for this integer type");
    return sizeof(T) == 1 ? Dtype::kInt8 : sizeof(T) == 2 ? Dtype::kInt16 : sizeof(T) == 4 ? Dtype::kInt32
                                                                                            : Dtype::kInt64;
  } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
    static_assert(sizeof(T) <= 8, "no kumo dtype for this integer type");
    return sizeof(T) == 1 ? Dtype::kUInt8 : sizeof(T) == 2 ? Dtype::kUInt16 : sizeof(T) == 4 ? Dtype::kUInt32
                                                                                             : Dtype::kUInt64;
  } else {
    static_assert(std::is_arithmetic_v<T>, "no kumo dtype for this C++ type");
    return Dtype::kFloat64;
  }
}

}  // namespace kumo
