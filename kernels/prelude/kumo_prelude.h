// kumo_prelude.h -- the shared prelude prepended to every generated Kumo kernel.
//
// One self-contained header that compiles
//   (a) as host C++17 with g++ (-O3 -march=native -fPIC -shared), including only
//       <cstdint> <cmath> <cstring> <climits> <cfloat>, and
//   (b) under NVRTC (-std=c++17 -default-device, no include paths, so no
//       standard headers at all), and under nvcc.
//
// It provides the element types (fixed-width ints, float16, complex64/128),
// NumPy astype semantics (kumo::cast / kumo_cast), math functions callable
// unqualified for every element type, and NumPy ufunc helpers (kumo::xxx)
// whose results match NumPy 2 (x86-64 builds) bit for bit where that is
// practical.  Notes for users of this header:
//   * Do not compile kernels with -ffast-math / --use_fast_math: NaN tests and
//     the error-free transforms used by the accurate complex functions rely on
//     IEEE semantics.  Host kernels: -std=c++17 (ISO mode => -ffp-contract=off);
//     -fno-math-errno and -fwrapv are safe and recommended.
//   * Calls such as sin(x) work unqualified for float/double (global overloads)
//     and for float16/complex (argument-dependent lookup finds kumo::sin).
//     Do not write `using namespace kumo;` at global scope: kumo re-declares
//     the real overloads and the calls would become ambiguous.
//   * Everything is header-only and inline; nothing here has external state.
//
// Index (global names):  int8_t..uint64_t, float16, complex64, complex128,
//   kumo_cast<To>(x); sin cos tan asin acos atan sinh cosh tanh asinh acosh
//   atanh exp exp2 expm1 log log2 log10 log1p sqrt cbrt fabs floor ceil trunc
//   rint nearbyint round atan2 hypot fmod copysign nextafter ldexp frexp modf
//   pow isnan isinf isfinite signbit abs (real: float/double/float16; complex
//   where NumPy has it), arcsin arccos arctan arcsinh arccosh arctanh arctan2;
//   host only: min/max like CUDA's.
// namespace kumo:  float16, complex<T>, limits<T>, cast<To>(x), the math
//   above (+ integer overloads), real imag conj arg norm polar, and the ufunc
//   helpers true_divide floor_divide remainder fmod divmod power float_power
//   negative positive absolute sign conjugate reciprocal square maximum
//   minimum fmax fmin gcd lcm heaviside logaddexp logaddexp2 deg2rad radians
//   rad2deg degrees spacing left_shift right_shift invert bitwise_and/or/xor
//   logical_and/or/xor/not angle real imag; vexpf, vlogf, vlog (vectorisable
//   host expf, logf, log).
#ifndef KUMO_PRELUDE_H_
#define KUMO_PRELUDE_H_

// ===========================================================================
// 0. Platform layer
// ===========================================================================
#if defined(__CUDACC_RTC__)
// NVRTC: no headers at all.  The CUDA math functions (sinf, sin, ...) and
// their float overloads are builtins in the global namespace.
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#define KUMO_FN __host__ __device__ __forceinline__
#define KUMO_INL __host__ __device__ inline
#elif defined(__CUDACC__)
// nvcc (host + device passes): CUDA's headers already put the float
// overloads of the math functions in the global namespace.
#include <cstdint>
#include <cmath>
#define KUMO_FN __host__ __device__ __forceinline__
#define KUMO_INL __host__ __device__ inline
#else
// Plain host C++.  <cstdint> first so that the libstdc++ configuration is
// known; then skip libstdc++'s C++17 special-math header (bits/specfun.h,
// ~0.1 s of parsing per kernel, i.e. most of <cmath>'s cost).  Nothing in a
// kernel uses std::beta/std::riemann_zeta; define KUMO_PRELUDE_WITH_SPECFUN
// to keep them.
#include <cstdint>
#if defined(__GLIBCXX__) && !defined(KUMO_PRELUDE_WITH_SPECFUN) && !defined(_GLIBCXX_BITS_SPECFUN_H)
#define _GLIBCXX_BITS_SPECFUN_H 1
#define KUMO_PRELUDE_SKIPPED_SPECFUN_ 1
#endif
#include <cmath>
#include <cstring>
#include <climits>
#include <cfloat>
#define KUMO_FN inline __attribute__((always_inline))
#define KUMO_INL inline
// Float and double overloads in the global namespace, so that sin(1.0f) is
// the float function (as it is under CUDA).
using std::sin; using std::cos; using std::tan; using std::asin; using std::acos;
using std::atan; using std::sinh; using std::cosh; using std::tanh; using std::asinh;
using std::acosh; using std::atanh; using std::exp; using std::exp2; using std::expm1;
using std::log; using std::log2; using std::log10; using std::log1p; using std::sqrt;
using std::cbrt; using std::fabs; using std::floor; using std::ceil; using std::trunc;
using std::rint; using std::nearbyint; using std::round; using std::atan2;
using std::hypot; using std::fmod; using std::copysign; using std::nextafter;
using std::ldexp; using std::frexp; using std::modf; using std::pow; using std::fma;
using std::fmax; using std::fmin; using std::abs; using std::isnan; using std::isinf;
using std::isfinite; using std::signbit;
// CUDA provides min/max overloads in the global namespace; mirror the
// same-type ones so that user snippets written for CUDA compile on the host.
// The CUDA host emulator (a generated kernel's CUDA source run on the CPU)
// already declares them as CUDA does.
#if !defined(__KUMO_CUDA_HOST_EMULATION__)
#define KUMO_HOST_MINMAX_(T)                                               \
  KUMO_FN T min(T a, T b) { return b < a ? b : a; }                        \
  KUMO_FN T max(T a, T b) { return a < b ? b : a; }
KUMO_HOST_MINMAX_(int) KUMO_HOST_MINMAX_(unsigned int)
KUMO_HOST_MINMAX_(long) KUMO_HOST_MINMAX_(unsigned long)
KUMO_HOST_MINMAX_(long long) KUMO_HOST_MINMAX_(unsigned long long)
#undef KUMO_HOST_MINMAX_
KUMO_FN float min(float a, float b) { return std::fmin(a, b); }
KUMO_FN float max(float a, float b) { return std::fmax(a, b); }
KUMO_FN double min(double a, double b) { return std::fmin(a, b); }
KUMO_FN double max(double a, double b) { return std::fmax(a, b); }
#endif  // !__KUMO_CUDA_HOST_EMULATION__
#endif

namespace kumo {
struct float16;
template <class T> struct complex;

// ===========================================================================
// 1. Minimal type traits (no <type_traits> under NVRTC)
// ===========================================================================
namespace detail {
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
template <class A, class B> struct is_same { enum : bool { value = false }; };
template <class A> struct is_same<A, A> { enum : bool { value = true }; };
template <bool B, class T, class F> struct conditional { typedef T type; };
template <class T, class F> struct conditional<false, T, F> { typedef F type; };
template <class T> struct remove_cv { typedef T type; };
template <class T> struct remove_cv<const T> { typedef T type; };
template <class T> struct remove_cv<volatile T> { typedef T type; };
template <class T> struct remove_cv<const volatile T> { typedef T type; };

// Integer types (bool excluded).  U = unsigned type of the same width.
template <class T> struct int_info {
  enum : bool { value = false };
  enum : bool { is_signed = false };
};
#define KUMO_INT_INFO_(T, UT)                                               \
  template <> struct int_info<T> {                                          \
    enum : bool { value = true };                                     \
    typedef UT U;                                                           \
    enum : bool { is_signed = ((T)-1 < (T)0) };                       \
    enum : int { bits = int(sizeof(T) * 8) };                         \
  };
KUMO_INT_INFO_(char, unsigned char)
KUMO_INT_INFO_(signed char, unsigned char)
KUMO_INT_INFO_(unsigned char, unsigned char)
KUMO_INT_INFO_(short, unsigned short)
KUMO_INT_INFO_(unsigned short, unsigned short)
KUMO_INT_INFO_(int, unsigned int)
KUMO_INT_INFO_(unsigned int, unsigned int)
KUMO_INT_INFO_(long, unsigned long)
KUMO_INT_INFO_(unsigned long, unsigned long)
KUMO_INT_INFO_(long long, unsigned long long)
KUMO_INT_INFO_(unsigned long long, unsigned long long)
#undef KUMO_INT_INFO_

template <class T> struct is_int { enum : bool { value = int_info<T>::value }; };
template <class T> struct is_bool { enum : bool { value = is_same<T, bool>::value }; };
template <class T> struct is_float {  // float or double (native floating types)
  enum : bool { value = is_same<T, float>::value || is_same<T, double>::value };
};
template <class T> struct is_half { enum : bool { value = is_same<T, float16>::value }; };
template <class T> struct is_complex { enum : bool { value = false }; };
template <class T> struct is_complex<complex<T>> { enum : bool { value = true }; };
// Built-in arithmetic types: bool, integers, float, double.
template <class T> struct is_arith {
  enum : bool { value = is_int<T>::value || is_bool<T>::value || is_float<T>::value };
};
template <class T> struct is_int_or_bool {
  enum : bool { value = is_int<T>::value || is_bool<T>::value };
};
template <class T> struct is_signed_int {
  enum : bool { value = int_info<T>::value && int_info<T>::is_signed };
};
// Unsigned type wide enough that products do not go through (signed) int
// promotion: multiplying two uint16 as int can overflow, which is UB.
template <class T> struct mul_type {
  typedef typename conditional<(sizeof(T) <= 4), unsigned int, unsigned long long>::type type;
};

// x < 0 without "pointless comparison" warnings for unsigned types.
template <class T> KUMO_FN constexpr bool is_neg(T x) {
  if constexpr (int_info<T>::is_signed) return x < T(0); else return false;
}

// ---------------------------------------------------------------------------
// Bit casts (memcpy on the host compiles to a register move)
// ---------------------------------------------------------------------------
KUMO_FN uint32_t f2u(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  uint32_t u; __builtin_memcpy(&u, &x, sizeof u); return u;
#endif
}
KUMO_FN float u2f(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x; __builtin_memcpy(&x, &u, sizeof x); return x;
#endif
}
KUMO_FN uint64_t d2u(double x) {
#if defined(__CUDA_ARCH__)
  return (uint64_t)__double_as_longlong(x);
#else
  uint64_t u; __builtin_memcpy(&u, &x, sizeof u); return u;
#endif
}
KUMO_FN double u2d(uint64_t u) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double((long long)u);
#else
  double x; __builtin_memcpy(&x, &u, sizeof x); return x;
#endif
}

// ---------------------------------------------------------------------------
// IEEE binary16 <-> binary32/binary64, exact bit arithmetic, round to nearest
// even.  NaNs keep their sign and top payload bits and stay NaN (as NumPy's
// npy_floatbits_to_halfbits does); the host and device paths are the same code.
// ---------------------------------------------------------------------------
// NumPy's floating-point status for results the hardware does not flag
// (an integer division by zero, a software float16 conversion that
// overflows): on the host an operation that sets the flag; CUDA has no
// status flags.
KUMO_FN void raise_fp_divide() {
#if !defined(__CUDA_ARCH__)
  volatile float zero = 0.0f;
  volatile float r = 1.0f / zero;
  (void)r;
#endif
}
KUMO_FN void raise_fp_invalid() {
#if !defined(__CUDA_ARCH__)
  volatile float inf = __builtin_inff();
  volatile float r = inf - inf;
  (void)r;
#endif
}
KUMO_FN void raise_fp_overflow() {
#if !defined(__CUDA_ARCH__)
  volatile float big = 3.0e38f;
  volatile float r = big * big;
  (void)r;
#endif
}

KUMO_FN uint16_t float_to_half_bits(float f) {
  const uint32_t x = f2u(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) {                      // inf or NaN
    if (a == 0x7f800000u) return (uint16_t)(sign | 0x7c00u);
    uint32_t m = (a >> 13) & 0x3ffu;
    if (m == 0) m = 1;                         // payload lost in the low bits: stay NaN
    return (uint16_t)(sign | 0x7c00u | m);
  }
  if (a >= 0x477ff000u) {  // >= 65520 rounds to inf
    raise_fp_overflow();
    return (uint16_t)(sign | 0x7c00u);
  }
  if (a < 0x38800000u) {                       // below 2^-14: half subnormal or zero
    if (a <= 0x33000000u) return (uint16_t)sign;           // <= 2^-25: ties to even -> 0
    const uint32_t e = a >> 23;                // 102..112
    const uint32_t mant = (a & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - e;           // value / 2^-24 = mant >> shift
    uint32_t m = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (m & 1u))) ++m;  // may carry into the normal range: correct
    return (uint16_t)(sign | m);
  }
  // Normal: round the 13 dropped bits to nearest even, then rebias 127 -> 15.
  const uint32_t r = a + 0xfffu + ((a >> 13) & 1u);
  return (uint16_t)(sign | ((r - (112u << 23)) >> 13));
}

// double -> half in one correct rounding (not via float: that would round twice).
KUMO_FN uint16_t double_to_half_bits(double d) {
  const uint64_t x = d2u(d);
  const uint32_t sign = (uint32_t)(x >> 48) & 0x8000u;
  const uint64_t a = x & 0x7fffffffffffffffull;
  if (a >= 0x7ff0000000000000ull) {
    if (a == 0x7ff0000000000000ull) return (uint16_t)(sign | 0x7c00u);
    uint32_t m = (uint32_t)(a >> 42) & 0x3ffu;
    if (m == 0) m = 1;
    return (uint16_t)(sign | 0x7c00u | m);
  }
  if (a >= 0x40effe0000000000ull) return (uint16_t)(sign | 0x7c00u);  // >= 65520
  if (a < 0x3f10000000000000ull) {             // below 2^-14
    if (a <= 0x3e60000000000000ull) return (uint16_t)sign;            // <= 2^-25
    const uint32_t e = (uint32_t)(a >> 52);    // 999..1008
    const uint64_t mant = (a & 0xfffffffffffffull) | 0x10000000000000ull;
    const uint32_t shift = 1051u - e;          // 43..52
    uint64_t m = mant >> shift;
    const uint64_t rem = mant & ((1ull << shift) - 1ull);
    const uint64_t halfway = 1ull << (shift - 1u);
    if (rem > halfway || (rem == halfway && (m & 1u))) ++m;
    return (uint16_t)(sign | (uint32_t)m);
  }
  const uint64_t r = a + 0x1ffffffffffull + ((a >> 42) & 1u);
  return (uint16_t)(sign | (uint32_t)((r - (1008ull << 52)) >> 42));
}

KUMO_FN float half_bits_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu;
  const uint32_t m = h & 0x3ffu;
  if (e == 0x1fu) return u2f(sign | 0x7f800000u | (m << 13));   // inf / NaN (payload kept)
  if (e == 0) {                                // zero or subnormal: m * 2^-24, exact
    const float v = (float)m * 5.9604644775390625e-8f;
    return u2f(sign | f2u(v));
  }
  return u2f(sign | ((e + 112u) << 23) | (m << 13));
}
}  // namespace detail

// ===========================================================================
// 2. float16: IEEE binary16 storage; arithmetic is done in float and rounded
//    back (what NumPy does for float16).
// ===========================================================================
struct float16 {
  uint16_t bits;  // raw IEEE binary16 bits (the host may memcpy into this)

  float16() = default;
  KUMO_FN float16(float f) : bits(detail::float_to_half_bits(f)) {}
  KUMO_FN float16(double d) : bits(detail::double_to_half_bits(d)) {}
  // Integers: exact in float up to 2^24 > 65520, so int -> float -> half rounds once.
  template <class T, detail::enable_if_t<detail::is_int_or_bool<T>::value, int> = 0>
  KUMO_FN float16(T v) : bits(detail::float_to_half_bits((float)v)) {}
  KUMO_FN operator float() const { return detail::half_bits_to_float(bits); }
  static KUMO_FN float16 from_bits(uint16_t b) { float16 h; h.bits = b; return h; }

  template <class T> KUMO_FN float16& operator+=(const T& o) { *this = float16((float)*this + o); return *this; }
  template <class T> KUMO_FN float16& operator-=(const T& o) { *this = float16((float)*this - o); return *this; }
  template <class T> KUMO_FN float16& operator*=(const T& o) { *this = float16((float)*this * o); return *this; }
  template <class T> KUMO_FN float16& operator/=(const T& o) { *this = float16((float)*this / o); return *this; }
};
static_assert(sizeof(float16) == 2, "float16 must be 2 bytes");

KUMO_FN float16 operator-(float16 a) { return float16::from_bits((uint16_t)(a.bits ^ 0x8000u)); }
KUMO_FN float16 operator+(float16 a) { return a; }

// half (op) half -> half; half (op) integer -> half (a literal stays half, like
// NEP 50's weak Python int); half (op) float -> float; half (op) double -> double.
#define KUMO_HALF_ARITH_(OP)                                                          \
  KUMO_FN float16 operator OP(float16 a, float16 b) { return float16((float)a OP (float)b); } \
  KUMO_FN float operator OP(float16 a, float b) { return (float)a OP b; }                \
  KUMO_FN float operator OP(float a, float16 b) { return a OP (float)b; }                \
  KUMO_FN double operator OP(float16 a, double b) { return (double)(float)a OP b; }      \
  KUMO_FN double operator OP(double a, float16 b) { return a OP (double)(float)b; }      \
  template <class T, detail::enable_if_t<detail::is_int_or_bool<T>::value, int> = 0>    \
  KUMO_FN float16 operator OP(float16 a, T b) { return float16((float)a OP (float)b); } \
  template <class T, detail::enable_if_t<detail::is_int_or_bool<T>::value, int> = 0>    \
  KUMO_FN float16 operator OP(T a, float16 b) { return float16((float)a OP (float)b); }
KUMO_HALF_ARITH_(+) KUMO_HALF_ARITH_(-) KUMO_HALF_ARITH_(*) KUMO_HALF_ARITH_(/)
#undef KUMO_HALF_ARITH_

#define KUMO_HALF_CMP_(OP)                                                             \
  KUMO_FN bool operator OP(float16 a, float16 b) { return (float)a OP (float)b; }       \
  KUMO_FN bool operator OP(float16 a, float b) { return (float)a OP b; }                \
  KUMO_FN bool operator OP(float a, float16 b) { return a OP (float)b; }                \
  KUMO_FN bool operator OP(float16 a, double b) { return (double)(float)a OP b; }       \
  KUMO_FN bool operator OP(double a, float16 b) { return a OP (double)(float)b; }       \
  template <class T, detail::enable_if_t<detail::is_int_or_bool<T>::value, int> = 0>     \
  KUMO_FN bool operator OP(float16 a, T b) { return (double)(float)a OP (double)b; }    \
  template <class T, detail::enable_if_t<detail::is_int_or_bool<T>::value, int> = 0>     \
  KUMO_FN bool operator OP(T a, float16 b) { return (double)a OP (double)(float)b; }
KUMO_HALF_CMP_(==) KUMO_HALF_CMP_(!=) KUMO_HALF_CMP_(<) KUMO_HALF_CMP_(<=)
KUMO_HALF_CMP_(>) KUMO_HALF_CMP_(>=)
#undef KUMO_HALF_CMP_

// ===========================================================================
// 3. Numeric limits (kumo::limits<T>), usable on the device
// ===========================================================================
template <class T, class Enable = void> struct limits;
template <class T> struct limits<T, detail::enable_if_t<detail::is_int<T>::value>> {
  typedef typename detail::int_info<T>::U U;
  enum : bool { is_integer = true };
  enum : bool { is_signed = detail::int_info<T>::is_signed };
  enum : int { digits = detail::int_info<T>::bits - (is_signed ? 1 : 0) };
  static KUMO_FN constexpr T max() { return is_signed ? T(U(~U(0)) >> 1) : T(~U(0)); }
  static KUMO_FN constexpr T lowest() { return is_signed ? T(-max() - 1) : T(0); }
  static KUMO_FN constexpr T min() { return lowest(); }
};
template <> struct limits<bool> {
  enum : bool { is_integer = true };
  enum : bool { is_signed = false };
  enum : int { digits = 1 };
  static KUMO_FN constexpr bool max() { return true; }
  static KUMO_FN constexpr bool lowest() { return false; }
  static KUMO_FN constexpr bool min() { return false; }
};
template <> struct limits<float> {
  enum : bool { is_integer = false };
  enum : bool { is_signed = true };
  enum : int { digits = 24 };
  static KUMO_FN constexpr float max() { return 3.40282346638528859811704183484516925e+38f; }
  static KUMO_FN constexpr float lowest() { return -3.40282346638528859811704183484516925e+38f; }
  static KUMO_FN constexpr float min() { return 1.17549435082228750796873653722224568e-38f; }
  static KUMO_FN constexpr float epsilon() { return 1.1920928955078125e-07f; }
  static KUMO_FN float denorm_min() { return detail::u2f(1u); }
  static KUMO_FN float infinity() { return detail::u2f(0x7f800000u); }
  static KUMO_FN float quiet_NaN() { return detail::u2f(0x7fc00000u); }
};
template <> struct limits<double> {
  enum : bool { is_integer = false };
  enum : bool { is_signed = true };
  enum : int { digits = 53 };
  static KUMO_FN constexpr double max() { return 1.79769313486231570814527423731704357e+308; }
  static KUMO_FN constexpr double lowest() { return -1.79769313486231570814527423731704357e+308; }
  static KUMO_FN constexpr double min() { return 2.22507385850720138309023271733240406e-308; }
  static KUMO_FN constexpr double epsilon() { return 2.22044604925031308084726333618164062e-16; }
  static KUMO_FN double denorm_min() { return detail::u2d(1ull); }
  static KUMO_FN double infinity() { return detail::u2d(0x7ff0000000000000ull); }
  static KUMO_FN double quiet_NaN() { return detail::u2d(0x7ff8000000000000ull); }
};
template <> struct limits<float16> {
  enum : bool { is_integer = false };
  enum : bool { is_signed = true };
  enum : int { digits = 11 };
  static KUMO_FN float16 max() { return float16::from_bits(0x7bffu); }
  static KUMO_FN float16 lowest() { return float16::from_bits(0xfbffu); }
  static KUMO_FN float16 min() { return float16::from_bits(0x0400u); }
  static KUMO_FN float16 epsilon() { return float16::from_bits(0x1400u); }
  static KUMO_FN float16 denorm_min() { return float16::from_bits(0x0001u); }
  static KUMO_FN float16 infinity() { return float16::from_bits(0x7c00u); }
  static KUMO_FN float16 quiet_NaN() { return float16::from_bits(0x7e00u); }
};

namespace detail {
// Per-precision constants for the generic float/double algorithms.
template <class T> struct fc;
template <> struct fc<float> {
  static KUMO_FN constexpr float pi() { return 3.14159265358979323846f; }
  static KUMO_FN constexpr float pi_2() { return 1.57079632679489661923f; }
  static KUMO_FN constexpr float ln2() { return 0.693147180559945309417f; }
  static KUMO_FN constexpr float log2e() { return 1.44269504088896340736f; }
  static KUMO_FN constexpr float log10e() { return 0.434294481903251827651f; }
  static KUMO_FN constexpr float eps() { return 1.1920928955078125e-07f; }
  static KUMO_FN constexpr float big() { return 8388608.0f; }           // 1/eps
  static KUMO_FN constexpr float tanh_cut() { return 11.0f; }           // tanh(x) == 1 beyond
  static KUMO_FN constexpr float exp_ovf() { return 88.0f; }            // exp(x) may overflow beyond
  static KUMO_FN constexpr float exp2_ovf() { return 127.0f; }
  static KUMO_FN constexpr float max() { return limits<float>::max(); }
  static KUMO_FN constexpr float tiny() { return 1.0842021724855044e-19f; }  // sqrt(min normal)
};
template <> struct fc<double> {
  static KUMO_FN constexpr double pi() { return 3.14159265358979323846; }
  static KUMO_FN constexpr double pi_2() { return 1.57079632679489661923; }
  static KUMO_FN constexpr double ln2() { return 0.693147180559945309417; }
  static KUMO_FN constexpr double log2e() { return 1.44269504088896340736; }
  static KUMO_FN constexpr double log10e() { return 0.434294481903251827651; }
  static KUMO_FN constexpr double eps() { return 2.22044604925031308084726333618164062e-16; }
  static KUMO_FN constexpr double big() { return 4503599627370496.0; }  // 1/eps
  static KUMO_FN constexpr double tanh_cut() { return 22.0; }
  static KUMO_FN constexpr double exp_ovf() { return 709.0; }
  static KUMO_FN constexpr double exp2_ovf() { return 1023.0; }
  static KUMO_FN constexpr double max() { return limits<double>::max(); }
  static KUMO_FN constexpr double tiny() { return 1.4916681462400413e-154; }
};
}  // namespace detail

// ===========================================================================
// 4. Real math in namespace kumo.  Each function has float, double, float16
//    (computed in float and rounded back, as NumPy's half loops do) and
//    integer (-> double) overloads; complex overloads follow in section 6.
//    Outside kumo, call them unqualified: float/double hit the global
//    overloads, float16/complex are found by argument-dependent lookup.
// ===========================================================================
namespace detail {
template <class T> struct is_real_scalar {  // ints, bool, float, double, float16
  enum : bool { value = is_arith<T>::value || is_half<T>::value };
};
}  // namespace detail

#define KUMO_INTARG_ template <class T, detail::enable_if_t<detail::is_int_or_bool<T>::value, int> = 0>
#define KUMO_UNARY_(NAME, FF, DF)                                                    \
  KUMO_FN float NAME(float x) { return ::FF(x); }                                    \
  KUMO_FN double NAME(double x) { return ::DF(x); }                                  \
  KUMO_FN float16 NAME(float16 x) { return float16(::FF((float)x)); }                \
  KUMO_INTARG_ KUMO_FN double NAME(T x) { return ::DF((double)x); }
KUMO_UNARY_(sin, sinf, sin) KUMO_UNARY_(cos, cosf, cos) KUMO_UNARY_(tan, tanf, tan)
KUMO_UNARY_(asin, asinf, asin) KUMO_UNARY_(acos, acosf, acos) KUMO_UNARY_(atan, atanf, atan)
KUMO_UNARY_(sinh, sinhf, sinh) KUMO_UNARY_(cosh, coshf, cosh) KUMO_UNARY_(tanh, tanhf, tanh)
KUMO_UNARY_(asinh, asinhf, asinh) KUMO_UNARY_(acosh, acoshf, acosh) KUMO_UNARY_(atanh, atanhf, atanh)
KUMO_UNARY_(exp, expf, exp) KUMO_UNARY_(exp2, exp2f, exp2) KUMO_UNARY_(expm1, expm1f, expm1)
KUMO_UNARY_(log, logf, log) KUMO_UNARY_(log2, log2f, log2) KUMO_UNARY_(log10, log10f, log10)
KUMO_UNARY_(log1p, log1pf, log1p) KUMO_UNARY_(sqrt, sqrtf, sqrt) KUMO_UNARY_(cbrt, cbrtf, cbrt)
#undef KUMO_UNARY_

// Rounding functions: exact in float for half inputs; identity on integers
// (NumPy 2 keeps the integer dtype for floor/ceil/trunc).  rint rounds half to
// even (default IEEE rounding mode).
#define KUMO_ROUNDING_(NAME, FF, DF)                                                 \
  KUMO_FN float NAME(float x) { return ::FF(x); }                                    \
  KUMO_FN double NAME(double x) { return ::DF(x); }                                  \
  KUMO_FN float16 NAME(float16 x) { return float16(::FF((float)x)); }                \
  KUMO_INTARG_ KUMO_FN T NAME(T x) { return x; }
KUMO_ROUNDING_(floor, floorf, floor) KUMO_ROUNDING_(ceil, ceilf, ceil)
KUMO_ROUNDING_(trunc, truncf, trunc) KUMO_ROUNDING_(rint, rintf, rint)
KUMO_ROUNDING_(nearbyint, nearbyintf, nearbyint) KUMO_ROUNDING_(round, roundf, round)
#undef KUMO_ROUNDING_

KUMO_FN float fabs(float x) { return ::fabsf(x); }
KUMO_FN double fabs(double x) { return ::fabs(x); }
KUMO_FN float16 fabs(float16 x) { return float16::from_bits((uint16_t)(x.bits & 0x7fffu)); }
KUMO_INTARG_ KUMO_FN double fabs(T x) { return ::fabs((double)x); }

// Binary real functions; mixed or integer arguments go through double.
#define KUMO_BINARY_(NAME, FF, DF)                                                   \
  KUMO_FN float NAME(float a, float b) { return ::FF(a, b); }                        \
  KUMO_FN double NAME(double a, double b) { return ::DF(a, b); }                     \
  KUMO_FN float16 NAME(float16 a, float16 b) { return float16(::FF((float)a, (float)b)); } \
  template <class A, class B,                                                        \
            detail::enable_if_t<detail::is_arith<A>::value && detail::is_arith<B>::value && \
                                !(detail::is_same<A, B>::value && detail::is_float<A>::value), int> = 0> \
  KUMO_FN double NAME(A a, B b) { return ::DF((double)a, (double)b); }
KUMO_BINARY_(atan2, atan2f, atan2) KUMO_BINARY_(hypot, hypotf, hypot)
KUMO_BINARY_(pow, powf, pow)
#undef KUMO_BINARY_

KUMO_FN float copysign(float a, float b) { return ::copysignf(a, b); }
KUMO_FN double copysign(double a, double b) { return ::copysign(a, b); }
KUMO_FN float16 copysign(float16 a, float16 b) {
  return float16::from_bits((uint16_t)((a.bits & 0x7fffu) | (b.bits & 0x8000u)));
}

KUMO_FN float fma(float a, float b, float c) { return ::fmaf(a, b, c); }
KUMO_FN double fma(double a, double b, double c) { return ::fma(a, b, c); }

// Classification.  Integers: never NaN/inf.
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
KUMO_FN bool isnan(float x) { return ::isnan(x); }
KUMO_FN bool isnan(double x) { return ::isnan(x); }
KUMO_FN bool isinf(float x) { return ::isinf(x); }
KUMO_FN bool isinf(double x) { return ::isinf(x); }
KUMO_FN bool isfinite(float x) { return ::isfinite(x); }
KUMO_FN bool isfinite(double x) { return ::isfinite(x); }
KUMO_FN bool signbit(float x) { return ::signbit(x); }
KUMO_FN bool signbit(double x) { return ::signbit(x); }
#else
KUMO_FN bool isnan(float x) { return __builtin_isnan(x); }
KUMO_FN bool isnan(double x) { return __builtin_isnan(x); }
KUMO_FN bool isinf(float x) { return __builtin_isinf(x); }
KUMO_FN bool isinf(double x) { return __builtin_isinf(x); }
KUMO_FN bool isfinite(float x) { return __builtin_isfinite(x); }
KUMO_FN bool isfinite(double x) { return __builtin_isfinite(x); }
KUMO_FN bool signbit(float x) { return __builtin_signbit(x); }
KUMO_FN bool signbit(double x) { return __builtin_signbit(x); }
#endif
KUMO_FN bool isnan(float16 x) { return (x.bits & 0x7fffu) > 0x7c00u; }
KUMO_FN bool isinf(float16 x) { return (x.bits & 0x7fffu) == 0x7c00u; }
KUMO_FN bool isfinite(float16 x) { return (x.bits & 0x7c00u) != 0x7c00u; }
KUMO_FN bool signbit(float16 x) { return (x.bits & 0x8000u) != 0; }
KUMO_INTARG_ KUMO_FN bool isnan(T) { return false; }
KUMO_INTARG_ KUMO_FN bool isinf(T) { return false; }
KUMO_INTARG_ KUMO_FN bool isfinite(T) { return true; }
KUMO_INTARG_ KUMO_FN bool signbit(T x) { return detail::is_neg(x); }

// nextafter: C semantics for float/double (NumPy calls C).  float16 follows
// NumPy's npy_half_nextafter: if x == y it returns x (not y).
KUMO_FN float nextafter(float a, float b) { return ::nextafterf(a, b); }
KUMO_FN double nextafter(double a, double b) { return ::nextafter(a, b); }
KUMO_FN float16 nextafter(float16 x, float16 y) {
  if (isnan(x) || isnan(y)) return limits<float16>::quiet_NaN();
  const float fx = (float)x, fy = (float)y;
  if (fx == fy) return x;
  if ((x.bits & 0x7fffu) == 0) return float16::from_bits((uint16_t)((y.bits & 0x8000u) | 1u));
  // Moving away from zero increments the magnitude bits, towards zero decrements.
  const bool away = (fy > fx) == ((x.bits & 0x8000u) == 0);
  return float16::from_bits((uint16_t)(away ? x.bits + 1u : x.bits - 1u));
}

// ldexp / frexp / modf with C signatures.
KUMO_FN float ldexp(float x, int e) { return ::ldexpf(x, e); }
KUMO_FN double ldexp(double x, int e) { return ::ldexp(x, e); }
KUMO_FN float16 ldexp(float16 x, int e) { return float16(::ldexpf((float)x, e)); }
// Any integer exponent type: clamp (beyond +-100000 every result saturates anyway).
template <class X, class E,
          detail::enable_if_t<(detail::is_float<X>::value || detail::is_half<X>::value) &&
                              detail::is_int<E>::value && !detail::is_same<E, int>::value, int> = 0>
KUMO_FN X ldexp(X x, E e) {
  const long long le = (long long)e;
  const int ie = le > 100000 ? 100000 : (le < -100000 ? -100000 : (int)le);
  return ldexp(x, ie);
}
KUMO_FN float frexp(float x, int* e) { return ::frexpf(x, e); }
KUMO_FN double frexp(double x, int* e) { return ::frexp(x, e); }
KUMO_FN float16 frexp(float16 x, int* e) { return float16(::frexpf((float)x, e)); }
KUMO_FN float modf(float x, float* ip) { return ::modff(x, ip); }
KUMO_FN double modf(double x, double* ip) { return ::modf(x, ip); }
KUMO_FN float16 modf(float16 x, float16* ip) {
  float fi; const float fr = ::modff((float)x, &fi);
  *ip = float16(fi); return float16(fr);
}

// C fmod for floats (== NumPy fmod); the integer and float16 versions are in
// section 8 with the other ufunc helpers.
KUMO_FN float fmod(float a, float b) { return ::fmodf(a, b); }
KUMO_FN double fmod(double a, double b) { return ::fmod(a, b); }
KUMO_FN float16 fmod(float16 a, float16 b) { return float16(::fmodf((float)a, (float)b)); }

// NumPy ufunc names that are not C names.
#define KUMO_ALIAS1_(ALIAS, NAME) \
  template <class T> KUMO_FN auto ALIAS(const T& x) -> decltype(NAME(x)) { return NAME(x); }
KUMO_ALIAS1_(arcsin, asin) KUMO_ALIAS1_(arccos, acos) KUMO_ALIAS1_(arctan, atan)
KUMO_ALIAS1_(arcsinh, asinh) KUMO_ALIAS1_(arccosh, acosh) KUMO_ALIAS1_(arctanh, atanh)
#undef KUMO_ALIAS1_
template <class A, class B>
KUMO_FN auto arctan2(const A& a, const B& b) -> decltype(atan2(a, b)) { return atan2(a, b); }

// ===========================================================================
// 5. complex<T>: layout {T re, im} (== std::complex, NumPy complex64/128),
//    alignment alignof(T) like NumPy (so 8-byte-aligned complex128 views work).
// ===========================================================================
namespace detail {
// Products and sums that the compiler must not fuse into FMAs (the error-free
// transforms below need each operation rounded exactly once).
KUMO_FN float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
KUMO_FN double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
KUMO_FN float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
KUMO_FN double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
}  // namespace detail

template <class T> struct complex {
  typedef T value_type;
  T re, im;

  complex() = default;  // trivial, so complex can live in __shared__ arrays
  KUMO_FN constexpr complex(const T& r, const T& i = T(0)) : re(r), im(i) {}
  template <class U, detail::enable_if_t<detail::is_real_scalar<U>::value && !detail::is_same<U, T>::value, int> = 0>
  KUMO_FN constexpr complex(const U& r) : re(T(r)), im(T(0)) {}
  template <class U> KUMO_FN constexpr complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}

  KUMO_FN constexpr T real() const { return re; }
  KUMO_FN constexpr T imag() const { return im; }
  KUMO_FN void real(T v) { re = v; }
  KUMO_FN void imag(T v) { im = v; }

  // Arithmetic (hidden friends: found by ADL, allow conversions of the other side).
  friend KUMO_FN complex operator+(const complex& a, const complex& b) { return complex(a.re + b.re, a.im + b.im); }
  friend KUMO_FN complex operator+(const complex& a, const T& b) { return complex(a.re + b, a.im); }
  friend KUMO_FN complex operator+(const T& a, const complex& b) { return complex(a + b.re, b.im); }
  friend KUMO_FN complex operator-(const complex& a, const complex& b) { return complex(a.re - b.re, a.im - b.im); }
  friend KUMO_FN complex operator-(const complex& a, const T& b) { return complex(a.re - b, a.im); }
  friend KUMO_FN complex operator-(const T& a, const complex& b) { return complex(a - b.re, -b.im); }
  friend KUMO_FN complex operator*(const complex& a, const complex& b) {
    return complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  friend KUMO_FN complex operator*(const complex& a, const T& b) { return complex(a.re * b, a.im * b); }
  friend KUMO_FN complex operator*(const T& a, const complex& b) { return complex(a * b.re, a * b.im); }
  friend KUMO_FN complex operator/(const complex& a, const complex& b) { return div_(a, b); }
  friend KUMO_FN complex operator/(const complex& a, const T& b) { return complex(a.re / b, a.im / b); }
  friend KUMO_FN complex operator/(const T& a, const complex& b) { return div_(complex(a, T(0)), b); }
  friend KUMO_FN complex operator-(const complex& a) { return complex(-a.re, -a.im); }
  friend KUMO_FN complex operator+(const complex& a) { return a; }

  friend KUMO_FN bool operator==(const complex& a, const complex& b) { return a.re == b.re && a.im == b.im; }
  friend KUMO_FN bool operator==(const complex& a, const T& b) { return a.re == b && a.im == T(0); }
  friend KUMO_FN bool operator==(const T& a, const complex& b) { return a == b.re && T(0) == b.im; }
  friend KUMO_FN bool operator!=(const complex& a, const complex& b) { return !(a == b); }
  friend KUMO_FN bool operator!=(const complex& a, const T& b) { return !(a == b); }
  friend KUMO_FN bool operator!=(const T& a, const complex& b) { return !(a == b); }
  // NumPy's lexicographic order: by real part, then imaginary part; any NaN
  // involved makes the comparison false (NumPy's CLT/CLE/CGT/CGE).
  friend KUMO_FN bool operator<(const complex& a, const complex& b) {
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
  }
  friend KUMO_FN bool operator<=(const complex& a, const complex& b) {
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
  }
  friend KUMO_FN bool operator>(const complex& a, const complex& b) {
    return (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im > b.im);
  }
  friend KUMO_FN bool operator>=(const complex& a, const complex& b) {
    return (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im >= b.im);
  }

  template <class U> KUMO_FN complex& operator+=(const U& o) { *this = *this + o; return *this; }
  template <class U> KUMO_FN complex& operator-=(const U& o) { *this = *this - o; return *this; }
  template <class U> KUMO_FN complex& operator*=(const U& o) { *this = *this * o; return *this; }
  template <class U> KUMO_FN complex& operator/=(const U& o) { *this = *this / o; return *this; }

 private:
  // Smith's algorithm: scale by the larger component of the divisor so that
  // nothing overflows or underflows needlessly.  Division by 0 gives the
  // component-wise x/0 (inf or nan), as NumPy does.
  static KUMO_FN complex div_(const complex& a, const complex& b) {
    const T abr = fabs(b.re), abi = fabs(b.im);
    if (abr >= abi) {
      if (abr == T(0) && abi == T(0)) return complex(a.re / abr, a.im / abr);
      const T rat = b.im / b.re;
      const T scl = T(1) / (b.re + b.im * rat);
      return complex((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    const T rat = b.re / b.im;
    const T scl = T(1) / (b.im + b.re * rat);
    return complex((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
  }
};

typedef complex<float> complex64;
typedef complex<double> complex128;

// complex64 (op) complex128 -> complex128 (the hidden friends would be ambiguous).
#define KUMO_CMIX_(OP)                                                                   \
  KUMO_FN complex128 operator OP(const complex64& a, const complex128& b) { return complex128(a) OP b; } \
  KUMO_FN complex128 operator OP(const complex128& a, const complex64& b) { return a OP complex128(b); }
KUMO_CMIX_(+) KUMO_CMIX_(-) KUMO_CMIX_(*) KUMO_CMIX_(/)
#undef KUMO_CMIX_
// complex (op) float16: the half goes to T first (else ambiguous conversions).
#define KUMO_CHALF_(OP)                                                                  \
  template <class T> KUMO_FN complex<T> operator OP(const complex<T>& a, float16 b) { return a OP T((float)b); } \
  template <class T> KUMO_FN complex<T> operator OP(float16 a, const complex<T>& b) { return T((float)a) OP b; }
KUMO_CHALF_(+) KUMO_CHALF_(-) KUMO_CHALF_(*) KUMO_CHALF_(/)
#undef KUMO_CHALF_
KUMO_FN bool operator==(const complex64& a, const complex128& b) { return complex128(a) == b; }
KUMO_FN bool operator==(const complex128& a, const complex64& b) { return a == complex128(b); }
KUMO_FN bool operator!=(const complex64& a, const complex128& b) { return complex128(a) != b; }
KUMO_FN bool operator!=(const complex128& a, const complex64& b) { return a != complex128(b); }

// ===========================================================================
// 6. Complex math.  Principal branches and branch cuts as C99 / NumPy; the
//    inverse functions follow Hull, Fairgrieve & Tang (ACM TOMS 23(3), 1997)
//    and Kahan ("Branch cuts for complex elementary functions", 1987) for
//    accuracy near the branch points and at large/small arguments.
// ===========================================================================
template <class T> KUMO_FN T real(const complex<T>& z) { return z.re; }
template <class T> KUMO_FN T imag(const complex<T>& z) { return z.im; }
template <class T> KUMO_FN complex<T> conj(const complex<T>& z) { return complex<T>(z.re, -z.im); }
template <class T> KUMO_FN T abs(const complex<T>& z) { return hypot(z.re, z.im); }
template <class T> KUMO_FN T arg(const complex<T>& z) { return atan2(z.im, z.re); }
template <class T> KUMO_FN T norm(const complex<T>& z) { return z.re * z.re + z.im * z.im; }
template <class T> KUMO_FN complex<T> polar(const T& r, const T& t) { return complex<T>(r * cos(t), r * sin(t)); }
template <class T> KUMO_FN bool isnan(const complex<T>& z) { return isnan(z.re) || isnan(z.im); }
template <class T> KUMO_FN bool isinf(const complex<T>& z) { return isinf(z.re) || isinf(z.im); }
template <class T> KUMO_FN bool isfinite(const complex<T>& z) { return isfinite(z.re) && isfinite(z.im); }

namespace detail {
// s + err == a + b exactly (Knuth's TwoSum).
template <class T> KUMO_FN void two_sum(T a, T b, T& s, T& err) {
  s = add_rn(a, b);
  const T bb = add_rn(s, -a);
  err = add_rn(add_rn(a, -add_rn(s, -bb)), add_rn(b, -bb));
}
// x*x + y*y - 1, accurate even when x^2 + y^2 is close to 1 (products split
// exactly with fma, sums with TwoSum).
template <class T> KUMO_FN T x2py2m1(T x, T y) {
  const T p1 = mul_rn(x, x), e1 = fma(x, x, -p1);
  const T p2 = mul_rn(y, y), e2 = fma(y, y, -p2);
  T s0, r0, s1, r1;
  two_sum(p1, T(-1), s0, r0);
  two_sum(s0, p2, s1, r1);
  return add_rn(s1, ((r0 + r1) + (e1 + e2)));
}
// a * exp(x) without spurious overflow when exp(x) alone would overflow
// (x up to ~2 * log(max)).
template <class T> KUMO_FN T scaled_exp_mul(T x, T a) {
  if (x > detail::fc<T>::exp_ovf()) { const T h = exp(T(0.5) * x); return (a * h) * h; }
  return a * exp(x);
}
}  // namespace detail

template <class T> KUMO_INL complex<T> exp(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(exp(x), y);
  if (isinf(x)) {
    if (x > T(0)) {
      if (!isfinite(y)) return complex<T>(x, y - y);         // (inf, nan)
      return complex<T>(x * cos(y), x * sin(y));
    }
    if (!isfinite(y)) return complex<T>(T(0), T(0));
    return complex<T>(T(0) * cos(y), T(0) * sin(y));
  }
  if (!isfinite(y) || isnan(x)) return complex<T>(y - y + x, y - y + x);  // nan, nan
  return complex<T>(detail::scaled_exp_mul(x, cos(y)), detail::scaled_exp_mul(x, sin(y)));
}

template <class T> KUMO_INL complex<T> log(const complex<T>& z) {
  const T x = z.re, y = z.im;
  const T im = atan2(y, x);
  T ax = fabs(x), ay = fabs(y);
  if (isinf(ax) || isinf(ay)) return complex<T>(limits<T>::infinity(), im);
  if (isnan(ax) || isnan(ay)) return complex<T>(ax + ay, im);
  if (ax < ay) { const T t = ax; ax = ay; ay = t; }
  if (ax == T(0)) return complex<T>(-limits<T>::infinity(), im);
  T re;
  if (ax > detail::fc<T>::max() * T(0.25)) {
    re = log(hypot(ax * T(0.5), ay * T(0.5))) + detail::fc<T>::ln2();
  } else {
    const T h = hypot(ax, ay);
    if (h > T(0.70703125) && h < T(1.4140625)) {
      re = T(0.5) * log1p(detail::x2py2m1(ax, ay));       // |z| near 1: no cancellation
    } else {
      re = log(h);
    }
  }
  return complex<T>(re, im);
}

template <class T> KUMO_INL complex<T> sqrt(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (x == T(0) && y == T(0)) return complex<T>(T(0), y);
  if (isinf(y)) return complex<T>(limits<T>::infinity(), y);
  if (isnan(x)) return complex<T>(x, x);
  if (isinf(x)) {
    if (x > T(0)) return complex<T>(x, isnan(y) ? y : copysign(T(0), y));
    return complex<T>(isnan(y) ? y : T(0), copysign(limits<T>::infinity(), y));
  }
  if (isnan(y)) return complex<T>(y, y);
  T ax = fabs(x), ay = fabs(y), s = T(1);
  if (ax > detail::fc<T>::max() * T(0.25) || ay > detail::fc<T>::max() * T(0.25)) {
    ax *= T(0.25); ay *= T(0.25); s = T(2);                 // sqrt(z) = 2 sqrt(z/4)
  } else if (ax < detail::fc<T>::tiny() && ay < detail::fc<T>::tiny()) {
    const T up = detail::fc<T>::big() * detail::fc<T>::big();               // 2^(2k): exact scaling
    ax *= up; ay *= up; s = T(1) / detail::fc<T>::big();
  }
  const T t = sqrt(T(0.5) * (ax + hypot(ax, ay)));          // > 0, no cancellation
  const T u = ay / (T(2) * t);
  if (x >= T(0)) return complex<T>(s * t, copysign(s * u, y));
  return complex<T>(s * u, copysign(s * t, y));
}

template <class T> KUMO_INL complex<T> sinh(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(sinh(x), y);
  if (!isfinite(y)) {
    if (x == T(0)) return complex<T>(x, y - y);
    if (isinf(x)) return complex<T>(x * x, y - y);
    return complex<T>(y - y, y - y);
  }
  const T ax = fabs(x);
  if (ax > detail::fc<T>::exp_ovf()) {                               // sinh ~ cosh ~ exp(|x|)/2
    const T c = detail::scaled_exp_mul(ax, T(0.5) * cos(y));
    const T s = detail::scaled_exp_mul(ax, T(0.5) * sin(y));
    return complex<T>(copysign(T(1), x) * c, s);
  }
  return complex<T>(sinh(x) * cos(y), cosh(x) * sin(y));
}

template <class T> KUMO_INL complex<T> cosh(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(cosh(x), copysign(T(0), x) * y);
  if (!isfinite(y)) {
    if (x == T(0)) return complex<T>(y - y, T(0));
    if (isinf(x)) return complex<T>(x * x, y - y);
    return complex<T>(y - y, y - y);
  }
  const T ax = fabs(x);
  if (ax > detail::fc<T>::exp_ovf()) {
    const T c = detail::scaled_exp_mul(ax, T(0.5) * cos(y));
    const T s = detail::scaled_exp_mul(ax, T(0.5) * sin(y));
    return complex<T>(c, copysign(T(1), x) * s);
  }
  return complex<T>(cosh(x) * cos(y), sinh(x) * sin(y));
}

// Kahan's formulation: with t = tan(y), b = 1 + t^2, s = sinh(x),
// r = sqrt(1 + s^2): tanh(z) = (b r s + i t) / (1 + b s^2).  Accurate near
// the poles (x ~ 0, y ~ pi/2) where the textbook formula cancels.
template <class T> KUMO_INL complex<T> tanh(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(tanh(x), y);
  if (isinf(x)) return complex<T>(copysign(T(1), x), isfinite(y) ? copysign(T(0), sin(y) * cos(y)) : copysign(T(0), y));
  if (!isfinite(y)) return complex<T>(x == T(0) ? x : y - y, y - y);
  if (isnan(x)) return complex<T>(x, x);
  if (fabs(x) > detail::fc<T>::tanh_cut()) {
    return complex<T>(copysign(T(1), x), T(4) * sin(y) * cos(y) * exp(T(-2) * fabs(x)));
  }
  const T t = tan(y);
  const T b = T(1) + t * t;
  const T s = sinh(x);
  const T r = sqrt(T(1) + s * s);
  const T d = T(1) + b * s * s;
  return complex<T>((b * r * s) / d, t / d);
}

// sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz).
template <class T> KUMO_INL complex<T> sin(const complex<T>& z) {
  if (isinf(z.im) && !isfinite(z.re)) return complex<T>(z.re - z.re, limits<T>::infinity());
  const complex<T> w = sinh(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}
template <class T> KUMO_INL complex<T> cos(const complex<T>& z) { return cosh(complex<T>(-z.im, z.re)); }
template <class T> KUMO_INL complex<T> tan(const complex<T>& z) {
  const complex<T> w = tanh(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}

namespace detail {
// Hull et al.'s arcsine/arccosine kernel for x, y >= 0: returns the real parts
// of asin and acos and the common |imaginary part|.
template <class T> KUMO_INL void asin_acos_kernel(T x, T y, T& re_asin, T& re_acos, T& im) {
  const T big = detail::fc<T>::big();
  if (x > big || y > big) {                    // asin z ~ -i log(2iz)
    re_asin = atan2(x, y);
    re_acos = atan2(y, x);
    im = log(hypot(x * T(0.5), y * T(0.5))) + T(2) * detail::fc<T>::ln2();
    return;
  }
  if (isnan(x) || isnan(y)) {
    re_asin = re_acos = im = x + y;
    if (x == T(0)) { re_asin = x; re_acos = fc<T>::pi_2(); }  // asin(0 + i nan) = 0 + i nan
    return;
  }
  const T r = hypot(x + T(1), y), s = hypot(x - T(1), y);
  const T A = T(0.5) * (r + s);
  const T B = x / A;
  const T yy = y * y;
  if (B <= T(0.6417)) {
    re_asin = asin(B); re_acos = acos(B);
  } else {
    T t;                                       // t = sqrt(A^2 - x^2) without cancellation
    if (x <= T(1)) t = sqrt(T(0.5) * (A + x) * (yy / (r + (x + T(1))) + (s + (T(1) - x))));
    else t = y * sqrt(T(0.5) * ((A + x) / (r + (x + T(1))) + (A + x) / (s + (x - T(1)))));
    re_asin = atan(x / t); re_acos = atan(t / x);
  }
  if (x < T(1) && y < detail::fc<T>::eps() * (T(1) - x)) {
    im = y / sqrt((T(1) - x) * (T(1) + x));    // y tiny: y^2 terms would underflow
  } else if (A <= T(1.5)) {
    T am1;                                     // A - 1 without cancellation
    if (x < T(1)) am1 = T(0.5) * (yy / (r + (x + T(1))) + yy / (s + (T(1) - x)));
    else am1 = T(0.5) * (yy / (r + (x + T(1))) + (s + (x - T(1))));
    im = log1p(am1 + sqrt(am1 * (A + T(1))));
  } else {
    im = log(A + sqrt(A * A - T(1)));
  }
}
// atanh for x, y >= 0.
template <class T> KUMO_INL complex<T> atanh_kernel(T x, T y) {
  const T big = detail::fc<T>::big();
  if (isinf(x) || isinf(y)) return complex<T>(T(0), isnan(y) ? y : detail::fc<T>::pi_2());
  if (isnan(x) || isnan(y)) return complex<T>(x == T(0) ? x : x + y, x + y);
  if (x > big || y > big) {                    // atanh z ~ 1/z
    const T h = hypot(x, y);
    return complex<T>((x / h) / h, detail::fc<T>::pi_2());
  }
  T re;
  if (x == T(1) && y < detail::fc<T>::tiny()) {
    re = T(0.5) * (detail::fc<T>::ln2() - log(y));     // (1-x)^2 + y^2 would underflow
  } else {
    const T omx = T(1) - x;
    re = T(0.25) * log1p(T(4) * x / (omx * omx + y * y));
  }
  const T im = T(0.5) * atan2(T(2) * y, T(0) - x2py2m1(x, y));
  return complex<T>(re, im);
}
}  // namespace detail

template <class T> KUMO_INL complex<T> asin(const complex<T>& z) {
  T ra, rc, im;
  detail::asin_acos_kernel(fabs(z.re), fabs(z.im), ra, rc, im);
  return complex<T>(copysign(ra, z.re), copysign(im, z.im));
}
template <class T> KUMO_INL complex<T> acos(const complex<T>& z) {
  T ra, rc, im;
  detail::asin_acos_kernel(fabs(z.re), fabs(z.im), ra, rc, im);
  return complex<T>(signbit(z.re) ? detail::fc<T>::pi() - rc : rc, copysign(im, -z.im));
}
template <class T> KUMO_INL complex<T> asinh(const complex<T>& z) {   // asinh z = -i asin(iz)
  const complex<T> w = asin(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}
template <class T> KUMO_INL complex<T> acosh(const complex<T>& z) {   // acosh z = +-i acos z, Re >= 0
  const complex<T> w = acos(z);
  return complex<T>(fabs(w.im), copysign(w.re, z.im));
}
template <class T> KUMO_INL complex<T> atanh(const complex<T>& z) {
  const complex<T> w = detail::atanh_kernel(fabs(z.re), fabs(z.im));
  return complex<T>(copysign(w.re, z.re), copysign(w.im, z.im));
}
template <class T> KUMO_INL complex<T> atan(const complex<T>& z) {    // atan z = -i atanh(iz)
  const complex<T> w = atanh(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}

// log1p with Re = log1p(2x + x^2 + y^2)/2 summed exactly, so that tiny z keeps
// full relative accuracy (NumPy's own formula loses it).
template <class T> KUMO_INL complex<T> log1p(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y) || fabs(x) > detail::fc<T>::big() || fabs(y) > detail::fc<T>::big())
    return log(complex<T>(T(1) + x, y));
  const T p1 = detail::mul_rn(x, x), e1 = fma(x, x, -p1);
  const T p2 = detail::mul_rn(y, y), e2 = fma(y, y, -p2);
  T s0, r0, s1, r1;
  detail::two_sum(T(2) * x, p1, s0, r0);
  detail::two_sum(s0, p2, s1, r1);
  const T u = detail::add_rn(s1, (r0 + r1) + (e1 + e2));   // |1+z|^2 - 1
  const T im = atan2(y, T(1) + x);
  if (u > T(-0.5)) return complex<T>(T(0.5) * log1p(u), im);
  return complex<T>(log(hypot(T(1) + x, y)), im);          // 1+x is exact here
}

// expm1 as NumPy: Re = expm1(x) cos y - 2 sin^2(y/2), Im = exp(x) sin y.
template <class T> KUMO_INL complex<T> expm1(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(expm1(x), y);
  if (x > detail::fc<T>::exp_ovf()) { const complex<T> e = exp(z); return complex<T>(e.re - T(1), e.im); }
  const T h = sin(T(0.5) * y);
  return complex<T>(expm1(x) * cos(y) - T(2) * h * h, exp(x) * sin(y));
}

// exp2: |2^z| from the real exp2 (exact scaling, more accurate than NumPy's
// exp(z ln2)); the phase y ln2 is rounded once, as in NumPy.
template <class T> KUMO_INL complex<T> exp2(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (y == T(0)) return complex<T>(exp2(x), y);
  if (isfinite(y) && x < detail::fc<T>::exp2_ovf()) {       // also false for NaN x
    const T r = exp2(x), t = y * detail::fc<T>::ln2();
    return complex<T>(r * cos(t), r * sin(t));
  }
  return exp(complex<T>(x * detail::fc<T>::ln2(), y * detail::fc<T>::ln2()));
}
template <class T> KUMO_INL complex<T> log2(const complex<T>& z) {
  const complex<T> w = log(z);
  return complex<T>(w.re * detail::fc<T>::log2e(), w.im * detail::fc<T>::log2e());
}
template <class T> KUMO_INL complex<T> log10(const complex<T>& z) {
  const complex<T> w = log(z);
  return complex<T>(w.re * detail::fc<T>::log10e(), w.im * detail::fc<T>::log10e());
}

// power: a**0 = 1; 0**b = 0 for Re(b) > 0 (NumPy 2) else nan; small integer exponents
// (|n| < 100) by repeated squaring as NumPy does (exact for z**2 etc.);
// otherwise exp(b log a).
template <class T> KUMO_INL complex<T> pow(const complex<T>& a, const complex<T>& b) {
  if (b.re == T(0) && b.im == T(0)) return complex<T>(T(1), T(0));
  if (a.re == T(0) && a.im == T(0)) {
    if (b.re > T(0)) return complex<T>(T(0), T(0));
    return complex<T>(limits<T>::quiet_NaN(), limits<T>::quiet_NaN());
  }
  if (b.im == T(0) && b.re > T(-100) && b.re < T(100)) {
    const int n = (int)b.re;
    if ((T)n == b.re) {
      unsigned m = (unsigned)(n < 0 ? -n : n);
      complex<T> base = a, acc(T(1), T(0));
      bool have = false;
      for (;;) {
        if (m & 1u) { acc = have ? acc * base : base; have = true; }
        m >>= 1;
        if (!m) break;
        base = base * base;
      }
      if (n < 0) return complex<T>(T(1), T(0)) / acc;
      return acc;
    }
  }
  return exp(b * log(a));
}
template <class T> KUMO_INL complex<T> pow(const complex<T>& a, const T& b) { return pow(a, complex<T>(b, T(0))); }
template <class T> KUMO_INL complex<T> pow(const T& a, const complex<T>& b) { return pow(complex<T>(a, T(0)), b); }

// ===========================================================================
// 7. kumo::cast<To>(x): NumPy astype (casting='unsafe') semantics.
//    * anything -> bool: x != 0 (complex: re != 0 || im != 0; NaN -> true)
//    * bool -> number: 0 / 1;  real -> complex: imag = 0;  complex -> real:
//      the real part (then cast);  complex128 <-> complex64 componentwise
//    * float16 <-> anything through float/double; double -> float16 and
//      complex128 -> float16 round once, correctly
//    * int -> int wraps modulo 2^bits
//    * float -> int truncates toward zero.  Out of range / NaN / inf never
//      trap and never hit undefined behaviour; the result is what NumPy gives
//      on x86-64 (which is what cvttsd2si produces):
//        int64:  value if in [-2^63, 2^63), else INT64_MIN
//        uint64: value if in [0, 2^64); wrapped int64 value if in [-2^63, 0);
//                0 if >= 2^64 (incl. +inf); 2^63 for NaN and below -2^63
//        int32:  value if in range, else INT32_MIN
//        uint32: value (wrapped) if in [-2^31, 2^32); 0 if >= 2^32;
//                2^31 for NaN and below -2^31 (from float16: 0 for NaN/-inf)
//        8/16-bit (signed or unsigned): the int32 result, wrapped
//      e.g. 300.7 -> uint8 = 44, -1.5 -> uint8 = 255, NaN -> int8 = 0.
// ===========================================================================
namespace detail {
KUMO_FN long long f2i64(double v) {
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (long long)v
                                                                      : (long long)(0x8000000000000000ull);
}
KUMO_FN int f2i32(double v) {
  return (v > -2147483649.0 && v < 2147483648.0) ? (int)v : (int)0x80000000u;
}
KUMO_FN unsigned long long f2u64(double v) {
  if (v >= 9223372036854775808.0) {
    if (v < 18446744073709551616.0)
      return (unsigned long long)(long long)(v - 9223372036854775808.0) + 0x8000000000000000ull;
    return 0ull;
  }
  if (v >= -9223372036854775808.0) return (unsigned long long)(long long)v;
  return 0x8000000000000000ull;                // NaN, < -2^63
}
KUMO_FN unsigned f2u32(double v) {
  if (v > -2147483649.0 && v < 4294967296.0) return (unsigned)(long long)v;
  return v >= 4294967296.0 ? 0u : 0x80000000u;  // NaN, < -2^31
}
// from_half: NumPy converts float16 through a different (scalar) path; the
// only visible difference is uint32 of NaN / -inf (0 instead of 2^31).
template <class To, bool from_half = false> KUMO_FN To float_to_int(double v) {
  if constexpr (sizeof(To) == 8) {
    if constexpr (int_info<To>::is_signed) return (To)f2i64(v);
    else return (To)f2u64(v);
  } else if constexpr (sizeof(To) == 4) {
    if constexpr (int_info<To>::is_signed) return (To)f2i32(v);
    else if constexpr (from_half) return (To)(unsigned long long)f2i64(v);
    else return (To)f2u32(v);
  } else {
    return (To)(unsigned)f2i32(v);
  }
}
template <class T> KUMO_FN bool truth(const T& x) { return x != T(0); }
KUMO_FN bool truth(bool x) { return x; }
KUMO_FN bool truth(float16 x) { return (x.bits & 0x7fffu) != 0; }
template <class T> KUMO_FN bool truth(const complex<T>& z) { return z.re != T(0) || z.im != T(0); }
}  // namespace detail

template <class To, class From> KUMO_FN To cast(const From& x) {
  using detail::is_same; using detail::is_bool; using detail::is_int; using detail::is_float;
  using detail::is_half; using detail::is_complex;
  if constexpr (is_same<To, From>::value) {
    return x;
  } else if constexpr (is_bool<To>::value) {
    return detail::truth(x);
  } else if constexpr (is_bool<From>::value) {
    return To(x ? 1 : 0);
  } else if constexpr (is_complex<From>::value) {
    if constexpr (is_complex<To>::value)
      return To(cast<typename To::value_type>(x.re), cast<typename To::value_type>(x.im));
    else
      return cast<To>(x.re);
  } else if constexpr (is_complex<To>::value) {
    return To(cast<typename To::value_type>(x), typename To::value_type(0));
  } else if constexpr (is_half<To>::value) {
    if constexpr (is_same<From, double>::value) return float16(x);
    else return float16((float)x);             // float exact; ints exact below 2^24
  } else if constexpr (is_half<From>::value) {
    if constexpr (is_int<To>::value) return detail::float_to_int<To, true>((double)(float)x);
    else return cast<To>((float)x);
  } else if constexpr (is_int<To>::value && is_float<From>::value) {
    return detail::float_to_int<To>((double)x);
  } else {
    return (To)x;                              // int<->int (wraps), int->float, float<->double
  }
}

// ===========================================================================
// 8. NumPy ufunc helpers: out = kumo::name(in...)
// ===========================================================================
namespace detail {
template <class T> KUMO_FN constexpr bool neg_one_(T b) {
  if constexpr (int_info<T>::is_signed) return b == T(-1); else return false;
}
// Python-style float divmod (NumPy's npy_divmod): the remainder takes the
// divisor's sign, the quotient is snapped to the integer consistent with it.
template <class T> KUMO_FN T fdivmod(T a, T b, T& mod) {
  T m = fmod(a, b);
  if (b == T(0)) { mod = m; return a / b; }   // x//0 = +-inf or nan; x%0 = nan
  T div = (a - m) / b;
  if (m != T(0)) {
    if ((b < T(0)) != (m < T(0))) { m += b; div -= T(1); }
  } else {
    m = copysign(T(0), b);
  }
  T fl;
  if (div != T(0)) {
    fl = floor(div);
    if (div - fl > T(0.5)) fl += T(1);
  } else {
    fl = copysign(T(0), a / b);
  }
  mod = m;
  return fl;
}
}  // namespace detail

#define KUMO_IF_INT_(T, R) template <class T> KUMO_FN detail::enable_if_t<detail::is_int<T>::value, R>
#define KUMO_IF_FLT_(T, R) template <class T> KUMO_FN detail::enable_if_t<detail::is_float<T>::value, R>

// --- division family -------------------------------------------------------
// Integers: Python semantics, x // 0 == x % 0 == 0, MIN // -1 == MIN (wraps),
// MIN % -1 == 0 -- none of these reach the (trapping) hardware divide.
KUMO_IF_INT_(T, T) floor_divide(T a, T b) {
  typedef typename detail::int_info<T>::U U;
  if (b == T(0)) {
    detail::raise_fp_divide();  // NumPy warns "divide by zero"
    return T(0);
  }
  if (detail::neg_one_(b)) {
    if constexpr (detail::int_info<T>::is_signed) {
      // MIN // -1 wraps: NumPy warns "overflow"
      if (a == T(U(1) << (detail::int_info<T>::bits - 1))) detail::raise_fp_overflow();
    }
    return T(U(0) - U(a));
  }
  if constexpr (detail::int_info<T>::is_signed) {
    T q = T(a / b);
    if (T(a % b) != T(0) && ((a < T(0)) != (b < T(0)))) --q;
    return q;
  } else {
    return T(a / b);
  }
}
KUMO_IF_INT_(T, T) remainder(T a, T b) {
  if (b == T(0)) detail::raise_fp_divide();
  if (b == T(0) || detail::neg_one_(b)) return T(0);
  T r = T(a % b);
  if constexpr (detail::int_info<T>::is_signed) {
    if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = T(r + b);
  }
  return r;
}
// C-style (truncated) remainder for integers, sign of the dividend.
KUMO_IF_INT_(T, T) fmod(T a, T b) {
  if (b == T(0)) detail::raise_fp_divide();
  if (b == T(0) || detail::neg_one_(b)) return T(0);
  return T(a % b);
}
KUMO_IF_INT_(T, void) divmod(T a, T b, T& q, T& r) { q = floor_divide(a, b); r = remainder(a, b); }
KUMO_IF_INT_(T, double) true_divide(T a, T b) { return (double)a / (double)b; }

KUMO_IF_FLT_(T, T) floor_divide(T a, T b) { T m; return detail::fdivmod(a, b, m); }
KUMO_IF_FLT_(T, T) remainder(T a, T b) { T m; detail::fdivmod(a, b, m); return m; }
KUMO_IF_FLT_(T, void) divmod(T a, T b, T& q, T& r) { q = detail::fdivmod(a, b, r); }
KUMO_IF_FLT_(T, T) true_divide(T a, T b) { return a / b; }
KUMO_FN float16 floor_divide(float16 a, float16 b) { float m; return float16(detail::fdivmod((float)a, (float)b, m)); }
KUMO_FN float16 remainder(float16 a, float16 b) { float m; detail::fdivmod((float)a, (float)b, m); return float16(m); }
KUMO_FN void divmod(float16 a, float16 b, float16& q, float16& r) {
  float m; q = float16(detail::fdivmod((float)a, (float)b, m)); r = float16(m);
}
KUMO_FN float16 true_divide(float16 a, float16 b) { return a / b; }
template <class T> KUMO_FN complex<T> true_divide(const complex<T>& a, const complex<T>& b) { return a / b; }

// --- power -----------------------------------------------------------------
// Integers: exponentiation by squaring, wrapping modulo 2^bits.  A negative
// exponent (NumPy raises ValueError) gives 1 for base 1, +-1 for base -1, else 0.
KUMO_IF_INT_(T, T) power(T base, T e) {
  typedef typename detail::mul_type<T>::type M;
  if constexpr (detail::int_info<T>::is_signed) {
    if (e < T(0)) {
      if (base == T(1)) return T(1);
      if (base == T(-1)) return (e & T(1)) ? T(-1) : T(1);
      return T(0);
    }
  }
  M r = 1, b = (M)(typename detail::int_info<T>::U)base;
  unsigned long long n = (unsigned long long)e;
  while (n) {
    if (n & 1ull) r = r * b;
    b = b * b;
    n >>= 1;
  }
  return T(r);
}
KUMO_IF_FLT_(T, T) power(T a, T b) { return pow(a, b); }
KUMO_FN float16 power(float16 a, float16 b) { return float16(::powf((float)a, (float)b)); }
template <class T> KUMO_FN complex<T> power(const complex<T>& a, const complex<T>& b) { return pow(a, b); }
// float_power: always float64 / complex128.
template <class A, class B, detail::enable_if_t<detail::is_real_scalar<A>::value && detail::is_real_scalar<B>::value, int> = 0>
KUMO_FN double float_power(const A& a, const B& b) { return ::pow(cast<double>(a), cast<double>(b)); }
template <class A, class B, detail::enable_if_t<detail::is_complex<A>::value || detail::is_complex<B>::value, int> = 0>
KUMO_FN complex128 float_power(const A& a, const B& b) { return pow(cast<complex128>(a), cast<complex128>(b)); }

// --- sign-ish unary ---------------------------------------------------------
KUMO_IF_INT_(T, T) negative(T x) { typedef typename detail::int_info<T>::U U; return T(U(0) - U(x)); }
KUMO_IF_FLT_(T, T) negative(T x) { return -x; }
KUMO_FN float16 negative(float16 x) { return -x; }
template <class T> KUMO_FN complex<T> negative(const complex<T>& z) { return -z; }
template <class T> KUMO_FN T positive(const T& x) { return x; }

KUMO_IF_INT_(T, T) absolute(T x) {
  typedef typename detail::int_info<T>::U U;
  if constexpr (detail::int_info<T>::is_signed) return x < T(0) ? T(U(0) - U(x)) : x;  // MIN wraps to MIN
  else return x;
}
KUMO_IF_FLT_(T, T) absolute(T x) { return fabs(x); }
KUMO_FN float16 absolute(float16 x) { return fabs(x); }
template <class T> KUMO_FN T absolute(const complex<T>& z) { return hypot(z.re, z.im); }
KUMO_FN bool absolute(bool x) { return x; }
// kumo::abs for real types (the complex one is above); integers wrap like absolute.
KUMO_FN float abs(float x) { return ::fabsf(x); }
KUMO_FN double abs(double x) { return ::fabs(x); }
KUMO_FN float16 abs(float16 x) { return fabs(x); }
KUMO_IF_INT_(T, T) abs(T x) { return absolute(x); }

KUMO_IF_INT_(T, T) sign(T x) {
  if constexpr (detail::int_info<T>::is_signed) return T((x > T(0)) - (x < T(0)));
  else return T(x > T(0) ? 1 : 0);
}
// NaN -> NaN; sign(-0.0) == +0.0 as NumPy.
KUMO_IF_FLT_(T, T) sign(T x) { return x > T(0) ? T(1) : (x < T(0) ? T(-1) : (x == T(0) ? T(0) : x)); }
KUMO_FN float16 sign(float16 x) { return float16(sign((float)x)); }
// NumPy 2: z / |z|, 0 for 0; infinite z -> its direction; NaN (or two infinite
// parts) -> nan+nanj.
template <class T> KUMO_INL complex<T> sign(const complex<T>& z) {
  const T a = hypot(z.re, z.im);
  const T nan = limits<T>::quiet_NaN();
  if (isnan(a)) return complex<T>(nan, nan);
  if (isinf(a)) {
    if (isinf(z.re)) {
      if (isinf(z.im)) return complex<T>(nan, nan);
      return complex<T>(copysign(T(1), z.re), T(0));
    }
    return complex<T>(T(0), copysign(T(1), z.im));
  }
  if (a == T(0)) return complex<T>(T(0), T(0));
  return complex<T>(z.re / a, z.im / a);
}

template <class T> KUMO_FN T conjugate(const T& x) { return x; }
template <class T> KUMO_FN complex<T> conjugate(const complex<T>& z) { return complex<T>(z.re, -z.im); }

// reciprocal: for integers NumPy computes 1.0/x and casts back, so 1/0 is
// the cast of +inf: INT32_MIN / INT64_MIN for 32/64-bit signed, 0 otherwise.
KUMO_IF_INT_(T, T) reciprocal(T x) {
  if (x == T(0)) {
    // NumPy's 1.0 / 0 warns "divide by zero", and the cast of inf to T "invalid".
    detail::raise_fp_divide();
    detail::raise_fp_invalid();
    return cast<T>(limits<double>::infinity());
  }
  if (x == T(1)) return T(1);
  if (detail::neg_one_(x)) return T(-1);
  return T(0);
}
KUMO_IF_FLT_(T, T) reciprocal(T x) { return T(1) / x; }
KUMO_FN float16 reciprocal(float16 x) { return float16(1.0f / (float)x); }
template <class T> KUMO_FN complex<T> reciprocal(const complex<T>& z) {
  // NumPy's formulation (Smith); 1/0 -> nan+nanj as NumPy.
  if (fabs(z.im) <= fabs(z.re)) {
    const T r = z.im / z.re, d = z.re + z.im * r;
    return complex<T>(T(1) / d, -r / d);
  }
  const T r = z.re / z.im, d = z.re * r + z.im;
  return complex<T>(r / d, T(-1) / d);
}

KUMO_IF_INT_(T, T) square(T x) {
  typedef typename detail::mul_type<T>::type M;
  const M m = (M)(typename detail::int_info<T>::U)x;
  return T(m * m);
}
KUMO_IF_FLT_(T, T) square(T x) { return x * x; }
KUMO_FN float16 square(float16 x) { return x * x; }
template <class T> KUMO_FN complex<T> square(const complex<T>& z) { return z * z; }

// --- maximum / minimum / fmax / fmin ------------------------------------------
// maximum/minimum propagate NaN (the first NaN operand is returned);
// fmax/fmin ignore a NaN operand.  Ties (only visible as +-0) return the
// second operand for float/double and the first for float16 -- what NumPy's
// contiguous loops do on x86-64 (its short/strided scalar loops may differ).
KUMO_IF_INT_(T, T) maximum(T a, T b) { return a > b ? a : b; }
KUMO_IF_INT_(T, T) minimum(T a, T b) { return a < b ? a : b; }
KUMO_IF_INT_(T, T) fmax(T a, T b) { return a > b ? a : b; }
KUMO_IF_INT_(T, T) fmin(T a, T b) { return a < b ? a : b; }
KUMO_FN bool maximum(bool a, bool b) { return a || b; }
KUMO_FN bool minimum(bool a, bool b) { return a && b; }
KUMO_FN bool fmax(bool a, bool b) { return a || b; }
KUMO_FN bool fmin(bool a, bool b) { return a && b; }
KUMO_IF_FLT_(T, T) maximum(T a, T b) { return (a > b || isnan(a)) ? a : b; }
KUMO_IF_FLT_(T, T) minimum(T a, T b) { return (a < b || isnan(a)) ? a : b; }
KUMO_IF_FLT_(T, T) fmax(T a, T b) { return (a > b || isnan(b)) ? a : b; }
KUMO_IF_FLT_(T, T) fmin(T a, T b) { return (a < b || isnan(b)) ? a : b; }
KUMO_FN float16 maximum(float16 a, float16 b) { return ((float)a >= (float)b || isnan(a)) ? a : b; }
KUMO_FN float16 minimum(float16 a, float16 b) { return ((float)a <= (float)b || isnan(a)) ? a : b; }
KUMO_FN float16 fmax(float16 a, float16 b) { return ((float)a >= (float)b || isnan(b)) ? a : b; }
KUMO_FN float16 fmin(float16 a, float16 b) { return ((float)a <= (float)b || isnan(b)) ? a : b; }
// Complex: lexicographic; a NaN in either part of an operand propagates
// (maximum/minimum) or is ignored (fmax/fmin).
template <class T> KUMO_FN complex<T> maximum(const complex<T>& a, const complex<T>& b) {
  return (isnan(a) || a >= b) ? a : b;
}
template <class T> KUMO_FN complex<T> minimum(const complex<T>& a, const complex<T>& b) {
  return (isnan(a) || a <= b) ? a : b;
}
template <class T> KUMO_FN complex<T> fmax(const complex<T>& a, const complex<T>& b) {
  return (isnan(b) || a >= b) ? a : b;
}
template <class T> KUMO_FN complex<T> fmin(const complex<T>& a, const complex<T>& b) {
  return (isnan(b) || a <= b) ? a : b;
}

// --- integer number theory ----------------------------------------------------
// gcd/lcm of the absolute values, computed unsigned (|MIN| wraps back to MIN,
// as NumPy: gcd(INT64_MIN, 0) == INT64_MIN).
KUMO_IF_INT_(T, T) gcd(T a, T b) {
  typedef typename detail::int_info<T>::U U;
  U x = (U)absolute(a), y = (U)absolute(b);
  while (y != U(0)) { const U t = U(x % y); x = y; y = t; }
  return T(x);
}
KUMO_IF_INT_(T, T) lcm(T a, T b) {
  typedef typename detail::int_info<T>::U U;
  typedef typename detail::mul_type<T>::type M;
  const U g = (U)gcd(a, b);
  if (g == U(0)) return T(0);
  const U x = (U)absolute(a), y = (U)absolute(b);
  return T((M)U(x / g) * (M)y);
}

// --- float helpers -------------------------------------------------------------
KUMO_IF_FLT_(T, T) heaviside(T x, T h0) {
  if (isnan(x)) return x;
  if (x == T(0)) return h0;
  return x < T(0) ? T(0) : T(1);
}
KUMO_FN float16 heaviside(float16 x, float16 h0) {
  if (isnan(x)) return x;
  if ((float)x == 0.0f) return h0;
  return float16((float)x < 0.0f ? 0.0f : 1.0f);
}
KUMO_IF_FLT_(T, T) logaddexp(T x, T y) {
  if (x == y) return x + detail::fc<T>::ln2();   // also handles equal infinities
  const T d = x - y;
  if (d > T(0)) return x + log1p(exp(-d));
  if (d <= T(0)) return y + log1p(exp(d));
  return d;                                     // NaN
}
KUMO_IF_FLT_(T, T) logaddexp2(T x, T y) {
  if (x == y) return x + T(1);
  const T d = x - y;
  if (d > T(0)) return fma(log1p(exp2(-d)), detail::fc<T>::log2e(), x);
  if (d <= T(0)) return fma(log1p(exp2(d)), detail::fc<T>::log2e(), y);
  return d;
}
KUMO_FN float16 logaddexp(float16 x, float16 y) { return float16(logaddexp((float)x, (float)y)); }
KUMO_FN float16 logaddexp2(float16 x, float16 y) { return float16(logaddexp2((float)x, (float)y)); }

KUMO_IF_FLT_(T, T) deg2rad(T x) { return x * (detail::fc<T>::pi() / T(180)); }
KUMO_IF_FLT_(T, T) rad2deg(T x) { return x * (T(180) / detail::fc<T>::pi()); }
KUMO_FN float16 deg2rad(float16 x) { return float16(deg2rad((float)x)); }
KUMO_FN float16 rad2deg(float16 x) { return float16(rad2deg((float)x)); }
KUMO_IF_INT_(T, double) deg2rad(T x) { return deg2rad((double)x); }
KUMO_IF_INT_(T, double) rad2deg(T x) { return rad2deg((double)x); }
template <class T> KUMO_FN auto radians(const T& x) -> decltype(deg2rad(x)) { return deg2rad(x); }
template <class T> KUMO_FN auto degrees(const T& x) -> decltype(rad2deg(x)) { return rad2deg(x); }

// spacing: distance to the next representable value away from zero (signed
// like x); spacing(+-0) = +denorm_min; inf/nan -> nan.  float16 follows
// NumPy's npy_half_spacing: nextafter(x, +inf) - x (always >= 0).
KUMO_FN float spacing(float x) {
  if (!isfinite(x)) return limits<float>::quiet_NaN();
  if (x == 0.0f) return limits<float>::denorm_min();
  return detail::u2f(detail::f2u(x) + 1u) - x;
}
KUMO_FN double spacing(double x) {
  if (!isfinite(x)) return limits<double>::quiet_NaN();
  if (x == 0.0) return limits<double>::denorm_min();
  return detail::u2d(detail::d2u(x) + 1ull) - x;
}
KUMO_FN float16 spacing(float16 x) {
  if (!isfinite(x)) return limits<float16>::quiet_NaN();
  const float16 n = nextafter(x, limits<float16>::infinity());
  return float16((float)n - (float)x);           // exact
}

// --- shifts and bitwise ------------------------------------------------------------
// Shift counts >= the bit width, or negative (NumPy casts the count to an
// unsigned size), shift everything out: 0, or -1 for a negative value shifted
// right.  Done without the hardware's count masking / C++ UB.
template <class T, class S>
KUMO_FN detail::enable_if_t<detail::is_int<T>::value && detail::is_int<S>::value, T> left_shift(T a, S b) {
  typedef typename detail::int_info<T>::U U;
  if (detail::is_neg(b) || (unsigned long long)b >= (unsigned long long)detail::int_info<T>::bits) return T(0);
  return T((typename detail::mul_type<T>::type)(U)a << (unsigned)b);
}
template <class T, class S>
KUMO_FN detail::enable_if_t<detail::is_int<T>::value && detail::is_int<S>::value, T> right_shift(T a, S b) {
  if (detail::is_neg(b) || (unsigned long long)b >= (unsigned long long)detail::int_info<T>::bits)
    return detail::is_neg(a) ? T(-1) : T(0);
  return T(a >> (unsigned)b);                     // arithmetic for signed (gcc, nvcc)
}
KUMO_IF_INT_(T, T) invert(T x) { return T(~x); }
KUMO_FN bool invert(bool x) { return !x; }
template <class T> KUMO_FN T bitwise_and(T a, T b) { return T(a & b); }
template <class T> KUMO_FN T bitwise_or(T a, T b) { return T(a | b); }
template <class T> KUMO_FN T bitwise_xor(T a, T b) { return T(a ^ b); }
template <class A, class B> KUMO_FN bool logical_and(const A& a, const B& b) { return detail::truth(a) && detail::truth(b); }
template <class A, class B> KUMO_FN bool logical_or(const A& a, const B& b) { return detail::truth(a) || detail::truth(b); }
template <class A, class B> KUMO_FN bool logical_xor(const A& a, const B& b) { return detail::truth(a) != detail::truth(b); }
template <class A> KUMO_FN bool logical_not(const A& a) { return !detail::truth(a); }

// --- complex-part helpers ---------------------------------------------------------
// angle(x) = atan2(imag, real); for real x that is 0 or pi (pi for -0.0 too).
template <class T> KUMO_FN T angle(const complex<T>& z) { return atan2(z.im, z.re); }
KUMO_IF_FLT_(T, T) angle(T x) { return atan2(T(0), x); }
KUMO_FN float16 angle(float16 x) { return float16(::atan2f(0.0f, (float)x)); }
KUMO_IF_INT_(T, double) angle(T x) { return ::atan2(0.0, (double)x); }
template <class T> KUMO_FN T real(const T& x) { return x; }
template <class T> KUMO_FN T imag(const T&) { return T(0); }

#undef KUMO_IF_INT_
#undef KUMO_IF_FLT_
#undef KUMO_INTARG_
}  // namespace kumo

// ===========================================================================
// 9. Global names
// ===========================================================================
using kumo::float16;
using kumo::complex64;
using kumo::complex128;
using kumo::arcsin; using kumo::arccos; using kumo::arctan; using kumo::arcsinh;
using kumo::arccosh; using kumo::arctanh; using kumo::arctan2;
template <class To, class From> KUMO_FN To kumo_cast(const From& x) { return kumo::cast<To>(x); }

// ===========================================================================
// 10. Vectorizable float32 exp for host loops
// ===========================================================================
// libm's expf is an opaque call that stops loop vectorization; this one is
// branch-free (range reduction by ln2, Cephes' degree-6 polynomial, 2^n
// applied in two steps so subnormal results are right), within 1 ulp on
// normal results. On CUDA the builtin expf is already fast.
namespace kumo {
KUMO_FN float vexpf(float x) {
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
  return ::expf(x);
#else
  const float log2e = 1.44269504088896341f;
  const float c1 = 0.693359375f, c2 = -2.12194440e-4f;
  const float hi = 88.7228394f, lo = -103.972084f;
  float xc = x > hi ? hi : x;
  xc = xc < lo ? lo : xc;
  const float magic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  const float fn = (xc * log2e + magic) - magic;
  float r = xc - fn * c1;
  r = r - fn * c2;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int32_t n = static_cast<int32_t>(fn);
  const int32_t n1 = n >> 1, n2 = n - n1;
  const float s1 = detail::u2f((uint32_t)(n1 + 127) << 23);
  const float s2 = detail::u2f((uint32_t)(n2 + 127) << 23);
  float y = p * s1 * s2;
  // inf made by an overflowing product in the lanes past hi only, so exp
  // reports "overflow" as libm's expf does.
  // (The operand depends on x, else the compiler folds it to a constant.)
  const float big = x > hi ? x * 3.4e36f : 1.0f;
  y = x > hi ? big * big : y;
  y = x < lo ? 0.0f : y;
  return x != x ? x : y;
#endif
}
}  // namespace kumo

// Branch-free float32 natural logarithm for the host, so that the loop
// vectorizes (the C library's logf is a call per element): x = m * 2^e with
// m in [sqrt(1/2), sqrt(2)), log(m) = f - f^2/2 + f^3 P(f) for f = m - 1 (a
// minimax polynomial, Cephes' coefficients), and e * log(2) added in two
// parts so the sum stays exact; within 1 ulp on this range. Subnormal inputs
// are scaled by 2^23 first. On CUDA the builtin logf is already fast.
namespace kumo {
namespace detail {
// log's results where the reduction does not apply, as selects (not
// branches) so the loops around vlogf and vlog still vectorize.
// -inf and NaN are made by the operations that raise NumPy's flags (a
// division by zero, inf * 0) in the lanes that need them only, so log(0)
// reports "divide by zero" and log(-1) "invalid value" as libm's log does.
template <class T>
KUMO_FN T log_special_values(T x, T reduced) {
  T r = x == limits<T>::infinity() ? x : reduced;
  // (The operands depend on x, else the compiler folds them to constants.)
  const T neg_inf = T(-1) / (x == T(0) ? x * x : T(1));
  r = x == T(0) ? neg_inf : r;
  const T nan = (x < T(0) ? x * T(0) : T(1)) * limits<T>::infinity();
  r = x < T(0) ? nan : r;
  return x != x ? x : r;
}
}  // namespace detail

KUMO_FN float vlogf(float x) {
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
  return ::logf(x);
#else
  const bool subnormal = x < 1.17549435e-38f;  // also 0 and negatives, replaced below
  const float xs = subnormal ? x * 8388608.0f : x;
  const uint32_t u = detail::f2u(xs);
  int32_t e = static_cast<int32_t>((u >> 23) & 0xffu) - 127 - (subnormal ? 23 : 0);
  float m = detail::u2f((u & 0x007fffffu) | 0x3f800000u);  // [1, 2)
  const bool high = m > 1.41421356f;
  m = high ? m * 0.5f : m;
  e = high ? e + 1 : e;
  const float f = m - 1.0f;  // exact
  const float z = f * f;
  float p = 7.0376836292e-2f;
  p = p * f - 1.1514610310e-1f;
  p = p * f + 1.1676998740e-1f;
  p = p * f - 1.2420140846e-1f;
  p = p * f + 1.4249322787e-1f;
  p = p * f - 1.6668057665e-1f;
  p = p * f + 2.0000714765e-1f;
  p = p * f - 2.4999993993e-1f;
  p = p * f + 3.3333331174e-1f;
  const float fe = static_cast<float>(e);
  float y = f * z * p;
  y = y + fe * -2.12194440e-4f;
  y = y - 0.5f * z;
  float r = f + y;
  r = r + fe * 0.693359375f;
  return detail::log_special_values(x, r);
#endif
}
}  // namespace kumo

// Branch-free float64 natural logarithm for the host (vectorizes where the C
// library's log is a call per element). x = 2^e * (1 + f) with 1 + f in
// [sqrt(1/2), sqrt(2)); with s = f / (2 + f), log(1 + f) = 2 atanh(s) =
// f - f^2/2 + s (f^2/2 + R(s^2)), R a minimax polynomial (fdlibm's published
// coefficients), and e * log(2) added in a high part exact in double and a
// low part: within 1 ulp. Subnormal inputs are scaled by 2^54 first. On CUDA
// the builtin log is used.
namespace kumo {
KUMO_FN double vlog(double x) {
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
  return ::log(x);
#else
  const bool subnormal = x < 2.2250738585072014e-308;  // also 0 and negatives, replaced below
  const double xs = subnormal ? x * 18014398509481984.0 : x;  // 2^54
  const uint64_t u = detail::d2u(xs);
  // The exponent as a double, made from the bits (2^52 + bits - 2^52 - bias):
  // AVX2 has no int64-to-double conversion, which would stop vectorization.
  double de = detail::u2d((u >> 52) | 0x4330000000000000ull) - 4503599627371519.0;
  de = subnormal ? de - 54.0 : de;
  double m = detail::u2d((u & 0x000fffffffffffffull) | 0x3ff0000000000000ull);  // [1, 2)
  const bool high = m > 1.4142135623730951;
  m = high ? m * 0.5 : m;
  de = high ? de + 1.0 : de;
  const double f = m - 1.0;  // exact
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double w = z * z;
  const double odd = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
  const double even = z * (6.666666666666735130e-01 +
                           w * (2.857142874366239149e-01 + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
  const double r = odd + even;
  const double half_f2 = 0.5 * f * f;
  double y = de * 6.93147180369123816490e-01 - ((half_f2 - (s * (half_f2 + r) + de * 1.90821492927058770002e-10)) - f);
  return detail::log_special_values(x, y);
#endif
}
}  // namespace kumo

#endif  // KUMO_PRELUDE_H_
