// Tests for kernels/prelude/kumo_prelude.h (the kernel prelude), host build.
//
// References are computed independently of the prelude's algorithms: brute
// force nearest-value search for float16 rounding, wide (__int128 / double)
// arithmetic for integer semantics, std::complex (glibc) and long double for
// complex math, and values printed by NumPy 2 on x86-64 for the NumPy-specific
// edge cases.  The tests live in the global namespace on purpose: that is
// where generated kernels call the math functions unqualified.
#include "kernels/prelude/kumo_prelude.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace {

using kumo::complex;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kPi = 3.14159265358979323846;

uint32_t fbits(float x) { uint32_t u; std::memcpy(&u, &x, 4); return u; }
uint64_t dbits(double x) { uint64_t u; std::memcpy(&u, &x, 8); return u; }
float from_fbits(uint32_t u) { float x; std::memcpy(&x, &u, 4); return x; }
double from_dbits(uint64_t u) { double x; std::memcpy(&x, &u, 8); return x; }
float16 H(uint16_t b) { return float16::from_bits(b); }

// Same value and sign (NaN matches any NaN).
bool same_d(double a, double b) { return (std::isnan(a) && std::isnan(b)) || dbits(a) == dbits(b); }
bool same_f(float a, float b) { return (std::isnan(a) && std::isnan(b)) || fbits(a) == fbits(b); }
bool same_h(float16 a, float16 b) { return (kumo::isnan(a) && kumo::isnan(b)) || a.bits == b.bits; }

// ---------------------------------------------------------------------------
// Independent float16 reference: decode by formula, round by nearest search.
// ---------------------------------------------------------------------------
double ref_half_value(uint16_t b) {
  const int s = b >> 15, e = (b >> 10) & 31, m = b & 1023;
  double v;
  if (e == 31) v = m ? kNaN : kInf;
  else if (e == 0) v = std::ldexp((double)m, -24);
  else v = std::ldexp((double)(1024 + m), e - 25);
  return s ? -v : v;
}

// All finite non-negative half values, ascending (bits 0x0000..0x7bff).
const std::vector<double>& half_table() {
  static const std::vector<double> t = [] {
    std::vector<double> v;
    for (uint32_t b = 0; b <= 0x7bff; b++) v.push_back(ref_half_value((uint16_t)b));
    return v;
  }();
  return t;
}

// Round a double to the nearest half, ties to the even bit pattern.
uint16_t ref_round_to_half(double v) {
  if (std::isnan(v)) return 0x7e00;
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (a >= 65520.0) return sign | 0x7c00;  // 65504 + half an ulp (65504 is odd): to inf
  const auto& t = half_table();
  const size_t hi = std::lower_bound(t.begin(), t.end(), a) - t.begin();
  if (hi < t.size() && t[hi] == a) return sign | (uint16_t)hi;
  const size_t lo = hi - 1;  // a > 0 here since t[0] == 0
  if (hi == t.size()) return sign | (uint16_t)lo;  // (65504, 65520)
  const double dlo = a - t[lo], dhi = t[hi] - a;  // exact: both near a
  if (dlo < dhi) return sign | (uint16_t)lo;
  if (dhi < dlo) return sign | (uint16_t)hi;
  return sign | (uint16_t)((lo % 2 == 0) ? lo : hi);
}

}  // namespace

// ===========================================================================
// Types and names
// ===========================================================================
static_assert(sizeof(float16) == 2 && alignof(float16) == 2, "float16 layout");
static_assert(std::is_trivially_copyable<float16>::value && std::is_standard_layout<float16>::value, "float16 traits");
static_assert(std::is_trivially_default_constructible<float16>::value, "float16 usable in __shared__");
static_assert(sizeof(complex64) == 8 && alignof(complex64) == 4, "complex64 layout == numpy / std::complex");
static_assert(sizeof(complex128) == 16 && alignof(complex128) == 8, "complex128 layout == numpy / std::complex");
static_assert(std::is_trivially_copyable<complex128>::value && std::is_standard_layout<complex128>::value, "complex traits");
static_assert(std::is_same<complex64, kumo::complex<float>>::value && std::is_same<complex128, kumo::complex<double>>::value, "names");
static_assert(std::is_same<int64_t, ::int64_t>::value && sizeof(int64_t) == 8 && sizeof(uint8_t) == 1, "ints");
// Unqualified math picks the right overload for every element type.
static_assert(std::is_same<decltype(sin(1.0f)), float>::value, "sin(float) is float");
static_assert(std::is_same<decltype(sqrt(1.0)), double>::value, "");
static_assert(std::is_same<decltype(sin(std::declval<float16>())), float16>::value, "");
static_assert(std::is_same<decltype(sin(std::declval<complex64>())), complex64>::value, "");
static_assert(std::is_same<decltype(abs(std::declval<complex128>())), double>::value, "");
static_assert(std::is_same<decltype(arcsin(1.0f)), float>::value, "");
static_assert(std::is_same<decltype(arctan2(1.0, 2.0)), double>::value, "");
static_assert(std::is_same<decltype(kumo::absolute(std::declval<complex64>())), float>::value, "");
static_assert(std::is_same<decltype(kumo::true_divide(1, 2)), double>::value, "");
static_assert(std::is_same<decltype(std::declval<float16>() + 1), float16>::value, "half + int literal stays half");
static_assert(std::is_same<decltype(std::declval<float16>() + 1.0f), float>::value, "");
static_assert(std::is_same<decltype(std::declval<float16>() * 1.0), double>::value, "");
static_assert(std::is_same<decltype(std::declval<complex64>() * std::declval<complex128>()), complex128>::value, "");

TEST(PreludeTypes, ComplexLayoutMatchesStd) {
  std::complex<double> s(1.5, -2.25);
  complex128 k;
  std::memcpy(&k, &s, sizeof k);
  EXPECT_EQ(k.re, 1.5);
  EXPECT_EQ(k.imag(), -2.25);
  const complex64 f(3.0f, 4.0f);
  float raw[2];
  std::memcpy(raw, &f, sizeof f);
  EXPECT_EQ(raw[0], 3.0f);
  EXPECT_EQ(raw[1], 4.0f);
}

TEST(PreludeTypes, Limits) {
  EXPECT_EQ(kumo::limits<int8_t>::lowest(), -128);
  EXPECT_EQ(kumo::limits<int8_t>::max(), 127);
  EXPECT_EQ(kumo::limits<uint16_t>::max(), 65535);
  EXPECT_EQ(kumo::limits<int64_t>::lowest(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(kumo::limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ((float)kumo::limits<float16>::max(), 65504.0f);
  EXPECT_EQ(kumo::limits<float>::lowest(), -std::numeric_limits<float>::max());
  EXPECT_TRUE(std::isinf(kumo::limits<double>::infinity()));
  EXPECT_TRUE(kumo::isnan(kumo::limits<float16>::quiet_NaN()));
  EXPECT_EQ(kumo::limits<double>::denorm_min(), std::numeric_limits<double>::denorm_min());
}

// ===========================================================================
// float16
// ===========================================================================
TEST(PreludeFloat16, AllBitPatternsRoundTripThroughFloatAndDouble) {
  for (uint32_t b = 0; b < 65536; b++) {
    const float16 h = H((uint16_t)b);
    const float f = h;
    const double ref = ref_half_value((uint16_t)b);
    if (std::isnan(ref)) {
      ASSERT_TRUE(std::isnan(f)) << b;
      ASSERT_EQ(std::signbit(f), (b & 0x8000) != 0) << b;
      ASSERT_TRUE(kumo::isnan(float16(f))) << b;
    } else {
      ASSERT_EQ(dbits((double)f), dbits(ref)) << b;  // exact, sign of zero included
    }
    ASSERT_EQ(float16(f).bits, b) << "float round trip " << b;  // NaN payloads survive too
    if (!std::isnan(ref)) {
      ASSERT_EQ(float16((double)f).bits, b) << "double round trip " << b;
    } else {
      ASSERT_TRUE(kumo::isnan(float16((double)f))) << b;  // (float->double quiets signalling NaNs)
    }
    ASSERT_EQ(kumo::isnan(h), std::isnan(ref));
    ASSERT_EQ(kumo::isinf(h), std::isinf(ref));
    ASSERT_EQ(kumo::isfinite(h), std::isfinite(ref));
    ASSERT_EQ(kumo::signbit(h), (b & 0x8000) != 0);
  }
}

TEST(PreludeFloat16, FloatToHalfMatchesNearestSearch) {
  // Every 97th float across the whole half range (normal, subnormal, overflow
  // boundary), both signs, plus random bit patterns and all exact midpoints.
  std::vector<float> xs;
  for (uint32_t u = 0x32f00000u; u < 0x47810000u; u += 97) { xs.push_back(from_fbits(u)); xs.push_back(-from_fbits(u)); }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300000; i++) xs.push_back(from_fbits((uint32_t)rng()));
  const auto& t = half_table();
  for (size_t i = 0; i + 1 < t.size(); i++) {
    const float mid = (float)((t[i] + t[i + 1]) / 2);  // exact in float (needs <= 12 bits)
    xs.push_back(mid); xs.push_back(-mid);
    xs.push_back(std::nextafter(mid, 0.0f)); xs.push_back(std::nextafter(mid, 1e9f));
  }
  for (float x : xs) {
    const uint16_t want = ref_round_to_half(x);
    const uint16_t got = float16(x).bits;
    if (std::isnan(x)) { ASSERT_TRUE(kumo::isnan(H(got))) << x; continue; }
    ASSERT_EQ(got, want) << "x=" << x << " bits 0x" << std::hex << fbits(x);
  }
}

TEST(PreludeFloat16, DoubleToHalfIsCorrectlyRounded) {
  std::vector<double> xs;
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> sh(-80, -6);
  const auto& t = half_table();
  for (int i = 0; i < 400000; i++) {  // near half values and midpoints, tiny offsets
    const size_t k = rng() % (t.size() - 1);
    const double base = (rng() & 1) ? t[k] : (t[k] + t[k + 1]) / 2;
    const double off = std::ldexp((double)(int64_t)(rng() % 2001) - 1000.0, sh(rng)) * std::max(base, 6e-8);
    xs.push_back((rng() & 1) ? base + off : -(base + off));
  }
  for (int i = 0; i < 100000; i++) xs.push_back(from_dbits(rng()));
  for (double x : xs) {
    if (std::isnan(x)) continue;
    ASSERT_EQ(float16(x).bits, ref_round_to_half(x)) << "x=" << x;
  }
  // Cases where rounding through float first would give a different answer.
  const double v1 = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);  // just above a tie
  EXPECT_EQ(float16(v1).bits, 0x3c01);
  EXPECT_EQ(float16((float)v1).bits, 0x3c00);  // double rounding would lose it
  const double v2 = std::ldexp(1.0, -25) + std::ldexp(1.0, -60);  // just above half the min subnormal
  EXPECT_EQ(float16(v2).bits, 0x0001);
  EXPECT_EQ(float16((float)v2).bits, 0x0000);
  const double v3 = 65520.0 - std::ldexp(1.0, -30);  // just below the overflow threshold
  EXPECT_EQ(float16(v3).bits, 0x7bff);
  EXPECT_EQ(float16((float)v3).bits, 0x7c00);
  EXPECT_EQ(kumo::cast<float16>(v1).bits, 0x3c01);
  EXPECT_EQ(kumo::cast<float16>(complex128(v3, 1.0)).bits, 0x7bff);
}

TEST(PreludeFloat16, TiesToEven) {
  EXPECT_EQ((float)float16(2049.0f), 2048.0f);
  EXPECT_EQ((float)float16(2051.0f), 2052.0f);
  EXPECT_EQ((float)float16(2050.0f), 2050.0f);
  EXPECT_EQ((float)float16(-2051.0f), -2052.0f);
  EXPECT_EQ(float16(1.0f + std::ldexp(1.0f, -11)).bits, 0x3c00);
  EXPECT_EQ(float16(1.0f + 3 * std::ldexp(1.0f, -11)).bits, 0x3c02);
  EXPECT_EQ(float16(65519.0f).bits, 0x7bff);
  EXPECT_EQ(float16(65520.0f).bits, 0x7c00);
  EXPECT_EQ(float16(-65520.0).bits, 0xfc00);
  EXPECT_EQ(float16(std::ldexp(1.0f, -25)).bits, 0x0000);          // tie -> 0
  EXPECT_EQ(float16(3 * std::ldexp(1.0f, -25)).bits, 0x0002);      // tie -> 2
  EXPECT_EQ(float16(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25)).bits, 0x0400);
  EXPECT_EQ(float16(-0.0f).bits, 0x8000);
  EXPECT_EQ(float16(1e-8f).bits, 0x0000);
  EXPECT_EQ(float16((float)kInf).bits, 0x7c00);
  EXPECT_TRUE(kumo::isnan(float16((float)kNaN)));
  EXPECT_TRUE(kumo::isnan(float16(kNaN)));
  EXPECT_EQ(float16(from_fbits(0x7f800001u)).bits, 0x7c01);       // NaN whose payload is all low bits stays NaN
}

TEST(PreludeFloat16, FromIntegers) {
  EXPECT_EQ(float16((int64_t)70000).bits, 0x7c00);
  EXPECT_EQ(float16((int64_t)-70000).bits, 0xfc00);
  EXPECT_EQ((float)float16(65519), 65504.0f);
  EXPECT_EQ((float)float16(2049), 2048.0f);
  EXPECT_EQ((float)float16((int16_t)-2051), -2052.0f);
  EXPECT_EQ(float16(std::numeric_limits<uint64_t>::max()).bits, 0x7c00);
  EXPECT_EQ(float16(std::numeric_limits<int64_t>::min()).bits, 0xfc00);
  EXPECT_EQ(kumo::cast<float16>((int64_t)65520).bits, 0x7c00);
  EXPECT_EQ(kumo::cast<float16>(true).bits, 0x3c00);
}

TEST(PreludeFloat16, ArithmeticIsFloatRoundedBack) {
  std::mt19937 rng(3);
  for (int i = 0; i < 200000; i++) {
    const float16 a = H((uint16_t)rng()), b = H((uint16_t)rng());
    const float fa = a, fb = b;
    ASSERT_TRUE(same_h(a + b, float16(fa + fb)));
    ASSERT_TRUE(same_h(a - b, float16(fa - fb)));
    ASSERT_TRUE(same_h(a * b, float16(fa * fb)));
    ASSERT_TRUE(same_h(a / b, float16(fa / fb)));
    ASSERT_EQ(a < b, fa < fb);
    ASSERT_EQ(a == b, fa == fb);
    ASSERT_EQ(a >= b, fa >= fb);
    ASSERT_EQ(a != b, fa != fb);
  }
  EXPECT_EQ((float16(1.0f) / float16(3.0f)).bits, 0x3555);
  EXPECT_EQ((-H(0x3c00)).bits, 0xbc00);
  EXPECT_EQ((-H(0x7e00)).bits, 0xfe00);
  float16 h = 1.5f;
  h += 1;
  h *= float16(2.0f);
  EXPECT_EQ((float)h, 5.0f);
  EXPECT_TRUE(H(0x7e00) != H(0x7e00));
  EXPECT_FALSE(H(0x7e00) == 0);
  EXPECT_TRUE(float16(0.0f) == float16(-0.0f));
}

// ===========================================================================
// Integer division family (Python semantics, never trapping)
// ===========================================================================
template <class T>
void check_int_div(T a, T b) {
  __int128 q, r, f;
  if (b == 0) {
    q = r = f = 0;
  } else {
    const __int128 A = a, B = b;
    q = A / B;                               // truncating, no overflow in 128 bits
    f = A - q * B;                           // C fmod
    if (f != 0 && ((f < 0) != (B < 0))) q -= 1;
    r = A - q * B;
  }
  const T wq = (T)(uint64_t)(unsigned __int128)q;  // wrap to T (MIN // -1 -> MIN)
  ASSERT_EQ(kumo::floor_divide(a, b), wq) << +a << " // " << +b;
  ASSERT_EQ(kumo::remainder(a, b), (T)r) << +a << " % " << +b;
  ASSERT_EQ(kumo::fmod(a, b), (T)f) << "fmod " << +a << ", " << +b;
  T dq, dr;
  kumo::divmod(a, b, dq, dr);
  ASSERT_EQ(dq, wq);
  ASSERT_EQ(dr, (T)r);
}

TEST(PreludeIntegerDivision, AllInt8AndUint8PairsAgainstFloorReference) {
  for (int a = -128; a < 128; a++) {
    for (int b = -128; b < 128; b++) {
      // A second, floating-point reference for the 8-bit case.
      const int8_t A = (int8_t)a, B = (int8_t)b;
      int q = 0, r = 0;
      if (b != 0) { q = (int)std::floor((double)a / (double)b); r = a - q * b; }
      ASSERT_EQ(kumo::floor_divide(A, B), (int8_t)(uint8_t)q) << a << "//" << b;
      ASSERT_EQ(kumo::remainder(A, B), (int8_t)r) << a << "%" << b;
      check_int_div<int8_t>(A, B);
    }
  }
  for (int a = 0; a < 256; a++)
    for (int b = 0; b < 256; b++) check_int_div<uint8_t>((uint8_t)a, (uint8_t)b);
}

TEST(PreludeIntegerDivision, RandomWideIntegersAndEdges) {
  std::mt19937_64 rng(5);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T mn = std::numeric_limits<T>::min(), mx = std::numeric_limits<T>::max();
    std::vector<T> edge = {mn, (T)(mn + 1), mx, (T)(mx - 1), 0, 1, 2, 3, 7, (T)-1, (T)-2, (T)-3, (T)-7};
    for (T a : edge) for (T b : edge) check_int_div<T>(a, b);
    for (int i = 0; i < 200000; i++) {
      const T a = (T)rng();
      T b = (T)rng();
      if (i % 3 == 0) b = (T)((int64_t)(rng() % 41) - 20);
      check_int_div<T>(a, b);
      check_int_div<T>(a, (T)0);
    }
  };
  run(int16_t()); run(uint16_t()); run(int32_t()); run(uint32_t()); run(int64_t()); run(uint64_t());
  EXPECT_EQ(kumo::floor_divide(INT64_MIN, (int64_t)-1), INT64_MIN);
  EXPECT_EQ(kumo::remainder(INT64_MIN, (int64_t)-1), 0);
  EXPECT_EQ(kumo::fmod(INT32_MIN, (int32_t)-1), 0);
  EXPECT_EQ(kumo::floor_divide((int32_t)7, (int32_t)0), 0);
  EXPECT_EQ(kumo::remainder((int32_t)7, (int32_t)0), 0);
  EXPECT_EQ(kumo::floor_divide((int32_t)-7, (int32_t)2), -4);
  EXPECT_EQ(kumo::remainder((int32_t)-7, (int32_t)2), 1);
  EXPECT_EQ(kumo::remainder((int32_t)7, (int32_t)-2), -1);
  EXPECT_EQ(kumo::fmod((int32_t)-7, (int32_t)2), -1);
  EXPECT_EQ(kumo::true_divide((int64_t)1, (int64_t)0), kInf);
}

// ===========================================================================
// Float floor_divide / remainder / divmod
// ===========================================================================
TEST(PreludeFloatDivision, NumpyTable) {
  // a, b, np.floor_divide(a, b), np.remainder(a, b)  (NumPy 2.4, float64)
  struct Row { double a, b, q, r; };
  const Row rows[] = {
      {0.0, 0.0, kNaN, kNaN},       {0.0, -1.0, -0.0, -0.0},     {-0.0, 1.0, -0.0, 0.0},
      {-0.0, -1.0, 0.0, -0.0},      {0.0, kInf, 0.0, 0.0},       {0.0, -kInf, -0.0, -0.0},
      {1.0, 0.0, kInf, kNaN},       {1.0, -0.0, -kInf, kNaN},    {-1.0, 0.0, -kInf, kNaN},
      {1.0, -1.0, -1.0, -0.0},      {-1.0, 1.0, -1.0, 0.0},      {1.0, 2.5, 0.0, 1.0},
      {1.0, -2.5, -1.0, -1.5},      {-1.0, 2.5, -1.0, 1.5},      {-1.0, -2.5, 0.0, -1.0},
      {1.0, kInf, 0.0, 1.0},        {1.0, -kInf, -1.0, -kInf},   {-1.0, kInf, -1.0, kInf},
      {-1.0, -kInf, 0.0, -1.0},     {2.5, -1.0, -3.0, -0.5},     {-2.5, 1.0, -3.0, 0.5},
      {5.0, -2.5, -2.0, -0.0},      {-5.0, 2.5, -2.0, 0.0},      {kInf, 1.0, kNaN, kNaN},
      {kInf, 0.0, kInf, kNaN},      {-kInf, -0.0, kInf, kNaN},   {kNaN, 1.0, kNaN, kNaN},
      {1.0, kNaN, kNaN, kNaN},      {1e300, 1e-300, kInf, 4.891554850853602e-301},
      {1.0, 1e-300, 9.999999999999999e+299, 8.963186528039712e-301},
      {-1.0, 1e+300, -1.0, 1e+300}, {1e-300, -5.0, -1.0, -5.0},
  };
  for (const Row& r : rows) {
    EXPECT_TRUE(same_d(kumo::floor_divide(r.a, r.b), r.q)) << r.a << " // " << r.b << " = " << kumo::floor_divide(r.a, r.b);
    EXPECT_TRUE(same_d(kumo::remainder(r.a, r.b), r.r)) << r.a << " % " << r.b << " = " << kumo::remainder(r.a, r.b);
    double q, m;
    kumo::divmod(r.a, r.b, q, m);
    EXPECT_TRUE(same_d(q, r.q) && same_d(m, r.r));
    const float fa = (float)r.a, fb = (float)r.b;  // same sign rules in float32 where representable
    if (std::fabs(r.a) < 1e30 && std::fabs(r.b) < 1e30 && std::fabs(r.b) > 1e-30 && std::fabs(r.a) > 1e-30) {
      EXPECT_TRUE(same_f(kumo::remainder(fa, fb), (float)r.r)) << fa << " % " << fb;
      EXPECT_TRUE(same_f(kumo::floor_divide(fa, fb), (float)r.q)) << fa << " // " << fb;
    }
  }
  EXPECT_EQ((float)kumo::floor_divide(float16(7.0f), float16(-2.0f)), -4.0f);
  EXPECT_EQ((float)kumo::remainder(float16(7.0f), float16(-2.0f)), -1.0f);
  EXPECT_TRUE(kumo::signbit(kumo::remainder(float16(4.0f), float16(-2.0f))));
}

TEST(PreludeFloatDivision, RandomSignAndConsistencyRules) {
  std::mt19937_64 rng(9);
  std::normal_distribution<double> nd;
  for (int i = 0; i < 300000; i++) {
    const double a = nd(rng) * std::ldexp(1.0, (int)(rng() % 40) - 20);
    double b = nd(rng) * std::ldexp(1.0, (int)(rng() % 40) - 20);
    if (i % 4 == 0) b = std::trunc(b * 8) + 1;
    if (b == 0) continue;
    const double q = kumo::floor_divide(a, b), r = kumo::remainder(a, b);
    ASSERT_EQ(q, std::floor(q));
    ASSERT_TRUE(r == 0 ? std::signbit(r) == std::signbit(b) : (r < 0) == (b < 0)) << a << " " << b;
    ASSERT_LE(std::fabs(r), std::fabs(b));
    const double fq = std::floor(a / b);
    if (std::fabs(a / b - std::nearbyint(a / b)) > 1e-9 * std::max(1.0, std::fabs(a / b))) {
      ASSERT_EQ(q, fq) << a << " " << b;
    }
    // a == q*b + r up to rounding of the product
    ASSERT_NEAR(q * b + r, a, 8 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(a), std::fabs(q * b)));
  }
}

// ===========================================================================
// Shifts and bitwise
// ===========================================================================
TEST(PreludeShifts, Int8ExhaustiveIncludingLargeAndNegativeCounts) {
  for (int a = -128; a < 128; a++) {
    for (int s = -128; s < 128; s++) {
      const int8_t A = (int8_t)a, S = (int8_t)s;
      int8_t wl, wr;
      if (s < 0 || s >= 8) { wl = 0; wr = a < 0 ? -1 : 0; }
      else {
        wl = (int8_t)(uint8_t)(((int64_t)a * ((int64_t)1 << s)) & 0xff);
        wr = (int8_t)std::floor((double)a / (double)(1 << s));
      }
      ASSERT_EQ(kumo::left_shift(A, S), wl) << a << " << " << s;
      ASSERT_EQ(kumo::right_shift(A, S), wr) << a << " >> " << s;
    }
  }
  for (int a = 0; a < 256; a++) {
    for (int s = 0; s < 256; s++) {
      const uint8_t A = (uint8_t)a, S = (uint8_t)s;
      ASSERT_EQ(kumo::left_shift(A, S), s >= 8 ? 0 : (uint8_t)((a << s) & 0xff));
      ASSERT_EQ(kumo::right_shift(A, S), s >= 8 ? 0 : (uint8_t)(a >> s));
    }
  }
}

TEST(PreludeShifts, WideTypesAtAndBeyondTheWidth) {
  EXPECT_EQ(kumo::left_shift((int32_t)1, (int32_t)31), INT32_MIN);
  EXPECT_EQ(kumo::left_shift((int32_t)1, (int32_t)32), 0);
  EXPECT_EQ(kumo::left_shift((int32_t)1, (int32_t)33), 0);
  EXPECT_EQ(kumo::left_shift((int32_t)1, (int32_t)-1), 0);
  EXPECT_EQ(kumo::right_shift((int32_t)-5, (int32_t)32), -1);
  EXPECT_EQ(kumo::right_shift((int32_t)-5, (int32_t)-1), -1);
  EXPECT_EQ(kumo::right_shift((int32_t)5, (int32_t)-1), 0);
  EXPECT_EQ(kumo::right_shift((int32_t)-5, (int32_t)1), -3);
  EXPECT_EQ(kumo::left_shift((int64_t)3, (int64_t)62), (int64_t)0xC000000000000000ull);
  EXPECT_EQ(kumo::left_shift((int64_t)1, (int64_t)64), 0);
  EXPECT_EQ(kumo::left_shift((int64_t)1, INT64_MIN), 0);
  EXPECT_EQ(kumo::right_shift((int64_t)-1, (int64_t)100), -1);
  EXPECT_EQ(kumo::right_shift(INT64_MIN, (int64_t)63), -1);
  EXPECT_EQ(kumo::left_shift((uint64_t)1, (uint64_t)63), 1ull << 63);
  EXPECT_EQ(kumo::left_shift((uint64_t)1, (uint64_t)64), 0u);
  EXPECT_EQ(kumo::right_shift(~(uint64_t)0, (uint64_t)64), 0u);
  EXPECT_EQ(kumo::left_shift((uint16_t)0xffff, (uint16_t)15), 0x8000);
  EXPECT_EQ(kumo::left_shift((int64_t)1, (int8_t)-1), 0);  // mixed count type
  EXPECT_EQ(kumo::invert((int8_t)0), -1);
  EXPECT_EQ(kumo::invert((uint8_t)0), 255);
  EXPECT_EQ(kumo::invert(true), false);
  EXPECT_EQ(kumo::bitwise_and(true, false), false);
  EXPECT_EQ(kumo::bitwise_xor((uint16_t)0xff00, (uint16_t)0x0ff0), 0xf0f0);
}

// ===========================================================================
// Complex math against std::complex (glibc)
// ===========================================================================
namespace {
template <class T>
double rel_err(const complex<T>& got, const std::complex<double>& want) {
  const double dr = (double)got.re - want.real(), di = (double)got.im - want.imag();
  return std::hypot(dr, di) / std::abs(want);
}
std::vector<std::complex<double>> complex_points(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> lr(std::log(1e-4), std::log(1e4)), ang(-kPi, kPi);
  std::normal_distribution<double> nd;
  std::vector<std::complex<double>> v;
  for (int i = 0; i < n; i++) v.push_back(std::polar(std::exp(lr(rng)), ang(rng)));
  for (int i = 0; i < n; i++) v.push_back({nd(rng), nd(rng)});
  for (int i = 0; i < n / 10; i++) v.push_back(std::polar(1.0 + nd(rng) * 1e-9, ang(rng)));  // near |z| = 1
  for (int i = 0; i < n / 10; i++) v.push_back({1.0 + nd(rng) * 1e-6, nd(rng) * 1e-6});       // near z = 1
  for (int i = 0; i < n / 10; i++) v.push_back({-1.0 + nd(rng) * 1e-6, nd(rng) * 1e-6});      // near z = -1
  for (int i = 0; i < n / 10; i++) v.push_back({nd(rng) * 1e-3, 1.0 + nd(rng) * 1e-6});       // near z = i
  return v;
}
enum Fn { kExp, kLog, kSqrt, kSin, kCos, kTan, kSinh, kCosh, kTanh, kAsin, kAcos, kAtan, kAsinh, kAcosh, kAtanh, kNumFn };
const char* fn_name[] = {"exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh"};
template <class C> C apply_kumo(int f, const C& z) {  // unqualified calls: ADL as in a kernel
  switch (f) {
    case kExp: return exp(z); case kLog: return log(z); case kSqrt: return sqrt(z);
    case kSin: return sin(z); case kCos: return cos(z); case kTan: return tan(z);
    case kSinh: return sinh(z); case kCosh: return cosh(z); case kTanh: return tanh(z);
    case kAsin: return arcsin(z); case kAcos: return arccos(z); case kAtan: return arctan(z);
    case kAsinh: return arcsinh(z); case kAcosh: return arccosh(z); default: return arctanh(z);
  }
}
std::complex<double> apply_std(int f, const std::complex<double>& z) {
  switch (f) {
    case kExp: return std::exp(z); case kLog: return std::log(z); case kSqrt: return std::sqrt(z);
    case kSin: return std::sin(z); case kCos: return std::cos(z); case kTan: return std::tan(z);
    case kSinh: return std::sinh(z); case kCosh: return std::cosh(z); case kTanh: return std::tanh(z);
    case kAsin: return std::asin(z); case kAcos: return std::acos(z); case kAtan: return std::atan(z);
    case kAsinh: return std::asinh(z); case kAcosh: return std::acosh(z); default: return std::atanh(z);
  }
}
}  // namespace

TEST(PreludeComplexMath, Complex128MatchesStdComplex) {
  const auto pts = complex_points(21, 20000);
  for (int f = 0; f < kNumFn; f++) {
    double worst = 0;
    for (const auto& z : pts) {
      const std::complex<double> w = apply_std(f, z);
      if (!std::isfinite(w.real()) || !std::isfinite(w.imag())) continue;
      const complex128 g = apply_kumo(f, complex128(z.real(), z.imag()));
      if (w == 0.0) { ASSERT_EQ(abs(g), 0.0) << fn_name[f] << " z=" << z; continue; }
      const double e = rel_err(g, w);
      worst = std::max(worst, e);
      ASSERT_LT(e, 1e-14) << fn_name[f] << " z=" << z;
    }
    RecordProperty(std::string("worst_") + fn_name[f], std::to_string(worst));
  }
}

TEST(PreludeComplexMath, Complex64MatchesStdComplexAtFloatInputs) {
  const auto pts = complex_points(22, 20000);
  for (int f = 0; f < kNumFn; f++) {
    for (const auto& z0 : pts) {
      const complex64 z((float)z0.real(), (float)z0.imag());
      const std::complex<double> w = apply_std(f, std::complex<double>(z.re, z.im));
      if (!std::isfinite(w.real()) || !std::isfinite(w.imag()) || std::abs(w) > 1e37 || std::abs(w) < 1e-30) continue;
      ASSERT_LT(rel_err(apply_kumo(f, z), w), 2e-6) << fn_name[f] << " z=" << z.re << "," << z.im;
    }
  }
}

TEST(PreludeComplexMath, DerivedFunctionsAgainstLongDouble) {
  typedef std::complex<long double> L;
  const long double ln2 = 0.693147180559945309417232121458176568L;
  for (const auto& z0 : complex_points(23, 20000)) {
    const complex128 z(z0.real(), z0.imag());
    const L zl(z0.real(), z0.imag());
    auto cmp = [&](const complex128& got, const L& want, const char* what, double tol) {
      const std::complex<double> w((double)want.real(), (double)want.imag());
      if (std::isfinite(w.real()) && std::isfinite(w.imag()) && std::abs(w) > 1e-300) {
        EXPECT_LT(rel_err(got, w), tol) << what << " z=" << z0;
      }
    };
    cmp(log2(z), std::log(zl) / ln2, "log2", 1e-14);
    cmp(log10(z), std::log(zl) / std::log(10.0L), "log10", 1e-14);
    // exp2: the phase y*ln2 is rounded once (as in NumPy): error grows with |y|.
    cmp(exp2(z), std::exp(zl * ln2), "exp2", 1e-14 + 3e-16 * std::fabs(z0.imag()));
    if (std::abs(z0) > 1e-3 && std::abs(z0) < 600) {  // long double exp(z) - 1 is accurate there
      cmp(expm1(z), std::exp(zl) - 1.0L, "expm1", 1e-14);
      cmp(log1p(z), std::log(1.0L + zl), "log1p", 1e-14);
    }
    cmp(kumo::power(z, complex128(0.75, -0.5)), std::pow(zl, L(0.75L, -0.5L)), "pow", 1e-14);
  }
  // Tiny arguments keep full relative accuracy (NumPy's own complex log1p does not).
  std::mt19937_64 rng(24);
  std::uniform_real_distribution<double> lr(std::log(1e-12), std::log(1e-3)), ang(-kPi, kPi);
  for (int i = 0; i < 20000; i++) {
    const std::complex<double> z0 = std::polar(std::exp(lr(rng)), ang(rng));
    const long double x = z0.real(), y = z0.imag();
    const L ref(0.5L * std::log1p(2 * x + x * x + y * y), std::atan2(y, 1.0L + x));
    const complex128 g = log1p(complex128(z0.real(), z0.imag()));
    ASSERT_NEAR(g.re, (double)ref.real(), 4e-16 * std::fabs((double)ref.real())) << z0;
    ASSERT_NEAR(g.im, (double)ref.imag(), 4e-16 * std::fabs((double)ref.imag())) << z0;
    const complex64 gf = log1p(complex64((float)z0.real(), (float)z0.imag()));
    const long double xf = (float)z0.real(), yf = (float)z0.imag();
    const long double rf = 0.5L * std::log1p(2 * xf + xf * xf + yf * yf);
    ASSERT_NEAR(gf.re, (double)rf, 3e-7 * std::fabs((double)rf) + 1e-45) << z0;
  }
  const complex128 t = log1p(complex128(1e-20, 1e-20));
  EXPECT_DOUBLE_EQ(t.re, 1e-20);
  EXPECT_DOUBLE_EQ(t.im, 1e-20);
  const complex128 e = expm1(complex128(1e-20, 1e-20));
  EXPECT_DOUBLE_EQ(e.re, 1e-20);
  EXPECT_DOUBLE_EQ(e.im, 1e-20);
}

TEST(PreludeComplexMath, BranchCutsAndSpecialValues) {
  auto near = [](const complex128& g, double re, double im) {
    EXPECT_NEAR(g.re, re, 1e-15 * std::max(1.0, std::fabs(re)));
    EXPECT_NEAR(g.im, im, 1e-15 * std::max(1.0, std::fabs(im)));
    EXPECT_EQ(std::signbit(g.im), std::signbit(im)) << g.re << "," << g.im;
  };
  const double acosh2 = 1.3169578969248167;
  near(sqrt(complex128(-4.0, 0.0)), 0, 2);
  near(sqrt(complex128(-4.0, -0.0)), 0, -2);
  near(log(complex128(-1.0, 0.0)), 0, kPi);
  near(log(complex128(-1.0, -0.0)), 0, -kPi);
  near(arcsin(complex128(2.0, 0.0)), kPi / 2, acosh2);
  near(arcsin(complex128(2.0, -0.0)), kPi / 2, -acosh2);
  near(arccos(complex128(2.0, 0.0)), 0, -acosh2);
  near(arccos(complex128(2.0, -0.0)), 0, acosh2);
  near(arctanh(complex128(2.0, 0.0)), 0.5493061443340549, kPi / 2);
  near(arctanh(complex128(2.0, -0.0)), 0.5493061443340549, -kPi / 2);
  near(arccosh(complex128(0.5, 0.0)), 0, 1.0471975511965979);
  near(arccosh(complex128(0.5, -0.0)), 0, -1.0471975511965979);
  near(arccosh(complex128(-2.0, 0.0)), acosh2, kPi);
  near(arcsinh(complex128(0.0, 2.0)), acosh2, kPi / 2);
  near(arctan(complex128(0.0, 2.0)), kPi / 2, 0.5493061443340549);
  const complex128 l0 = log(complex128(0.0, 0.0));
  EXPECT_TRUE(std::isinf(l0.re) && l0.re < 0 && l0.im == 0);
  const complex128 a1 = arctanh(complex128(1.0, 0.0));
  EXPECT_TRUE(std::isinf(a1.re) && a1.im == 0);
  // Huge and tiny arguments: no spurious overflow / underflow.
  const complex128 ex = exp(complex128(800.0, 1e-300));
  EXPECT_TRUE(std::isinf(ex.re));
  EXPECT_NEAR(ex.im, 2.7263745721125666e47, 1e33);
  near(sqrt(complex128(1e308, 1e308)), 1.0986841134678100e154, 4.5508986056222734e153);
  near(sqrt(complex128(4e-320, 0.0)), 1.9999888671516979e-160, 0.0);  // subnormal input
  near(log(complex128(1.5e308, 1.5e308)), 709.94824734055421, kPi / 4);
  near(arcsin(complex128(1e300, 1e300)), kPi / 4, 691.81524866905362);

  // The whole special-value grid: never traps, and NaN/inf/finite structure
  // and signs of infinities match glibc (which NumPy uses) for every function.
  const double sv[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, kInf, -kInf, kNaN, 1e300, -1e300, 1e-300};
  auto cls = [](double v) { return std::isnan(v) ? 0 : std::isinf(v) ? (v > 0 ? 1 : 2) : 3; };
  for (double a : sv) {
    for (double b : sv) {
      for (int f = 0; f < kNumFn; f++) {
        const complex128 g = apply_kumo(f, complex128(a, b));
        const std::complex<double> w = apply_std(f, {a, b});
        EXPECT_EQ(cls(g.re), cls(w.real())) << fn_name[f] << "(" << a << "," << b << ") re " << g.re << " vs " << w.real();
        EXPECT_EQ(cls(g.im), cls(w.imag())) << fn_name[f] << "(" << a << "," << b << ") im " << g.im << " vs " << w.imag();
      }
      const complex128 z(a, b);  // these have no glibc counterpart; just must not trap
      volatile double sink = expm1(z).re + log1p(z).re + exp2(z).im + log2(z).im + log10(z).re +
                             kumo::sign(z).re + kumo::power(z, z).re + kumo::reciprocal(z).im + abs(z);
      (void)sink;
    }
  }
}

TEST(PreludeComplexMath, ArithmeticAndPower) {
  const complex128 a(2.0, 3.0), b(-1.5, 0.25);
  const std::complex<double> sa(2.0, 3.0), sb(-1.5, 0.25);
  EXPECT_LT(rel_err(a * b, sa * sb), 1e-16);
  EXPECT_LT(rel_err(a / b, sa / sb), 4e-16);
  EXPECT_LT(rel_err(1.0 / b, 1.0 / sb), 4e-16);
  EXPECT_LT(rel_err(kumo::reciprocal(b), 1.0 / sb), 4e-16);
  // Smith's algorithm keeps huge/tiny divisions finite.
  const complex128 big = complex128(1e300, 1e300) / complex128(1e300, 1e300);
  EXPECT_NEAR(big.re, 1.0, 1e-15);
  EXPECT_NEAR(big.im, 0.0, 1e-15);
  const complex128 d0 = complex128(1.0, 1.0) / complex128(0.0, 0.0);
  EXPECT_TRUE(std::isinf(d0.re) && std::isinf(d0.im));
  const complex128 r0 = kumo::reciprocal(complex128(0.0, 0.0));  // NumPy: nan+nanj
  EXPECT_TRUE(std::isnan(r0.re) && std::isnan(r0.im));
  EXPECT_EQ(kumo::power(a, complex128(2.0, 0.0)), complex128(-5.0, 12.0));  // exact, by multiplication
  EXPECT_EQ(kumo::power(a, complex128(0.0, 0.0)), complex128(1.0, 0.0));
  EXPECT_EQ(kumo::power(complex128(0.0, 0.0), complex128(2.0, 0.0)), complex128(0.0, 0.0));
  EXPECT_TRUE(kumo::isnan(kumo::power(complex128(0.0, 0.0), complex128(-1.0, 0.0))));
  EXPECT_TRUE(kumo::isnan(kumo::power(complex128(0.0, 0.0), complex128(0.0, 1.0))));
  EXPECT_LT(rel_err(kumo::power(a, complex128(-3.0, 0.0)), std::pow(sa, -3.0)), 1e-15);
  EXPECT_LT(rel_err(kumo::power(a, complex128(0.5, 1.5)), std::pow(sa, std::complex<double>(0.5, 1.5))), 1e-15);
  EXPECT_LT(rel_err(kumo::float_power(complex64(2.0f, 3.0f), 2.5), std::pow(sa, 2.5)), 1e-15);
  EXPECT_EQ(abs(complex128(3.0, 4.0)), 5.0);
  EXPECT_EQ(kumo::absolute(complex64(3.0f, -4.0f)), 5.0f);
  EXPECT_EQ(kumo::conjugate(a), complex128(2.0, -3.0));
  EXPECT_EQ(kumo::angle(complex128(0.0, 1.0)), kPi / 2);
  EXPECT_EQ(a + 1, complex128(3.0, 3.0));
  EXPECT_EQ(2.0 * a, complex128(4.0, 6.0));
  EXPECT_EQ(complex64(1.0f, 2.0f) * complex128(2.0, 0.0), complex128(2.0, 4.0));
  EXPECT_EQ(complex64(1.0f, 2.0f) + float16(0.5f), complex64(1.5f, 2.0f));
  complex64 c = float16(2.0f);
  c *= complex64(0.0f, 1.0f);
  EXPECT_EQ(c, complex64(0.0f, 2.0f));
}

// ===========================================================================
// Ordering, maximum/minimum, rint, sign
// ===========================================================================
TEST(PreludeComplexOrdering, LexicographicWithNaNFalse) {
  typedef complex128 C;
  EXPECT_TRUE(C(1, 2) < C(1, 3));
  EXPECT_TRUE(C(1, 5) < C(2, 0));
  EXPECT_TRUE(C(2, 0) > C(1, 5));
  EXPECT_TRUE(C(1, 2) <= C(1, 2));
  EXPECT_TRUE(C(1, 2) >= C(1, 2));
  EXPECT_FALSE(C(1, 3) < C(1, 2));
  EXPECT_FALSE(C(-1, 9) > C(0, -9));
  // NumPy: any NaN involved -> False (also for a decided real part).
  EXPECT_FALSE(C(1, kNaN) < C(2, 0));
  EXPECT_FALSE(C(1, 0) < C(1, kNaN));
  EXPECT_FALSE(C(kNaN, 0) < C(2, 0));
  EXPECT_FALSE(C(1, 0) < C(2, kNaN));
  EXPECT_FALSE(C(3, kNaN) > C(2, 0));
  EXPECT_FALSE(C(1, kNaN) == C(1, kNaN));
  EXPECT_TRUE(C(1, kNaN) != C(1, kNaN));
  EXPECT_TRUE(C(1, 0) == 1.0);
}

TEST(PreludeMaxMin, NaNRules) {
  const double n = kNaN;
  EXPECT_TRUE(std::isnan(kumo::maximum(n, 1.0)));
  EXPECT_TRUE(std::isnan(kumo::maximum(1.0, n)));
  EXPECT_TRUE(std::isnan(kumo::minimum(n, 1.0)));
  EXPECT_TRUE(std::isnan(kumo::minimum(1.0, n)));
  EXPECT_EQ(kumo::fmax(n, 1.0), 1.0);
  EXPECT_EQ(kumo::fmax(1.0, n), 1.0);
  EXPECT_EQ(kumo::fmin(n, -1.0), -1.0);
  EXPECT_TRUE(std::isnan(kumo::fmax(n, n)));
  EXPECT_EQ(kumo::maximum(2.0f, 3.0f), 3.0f);
  EXPECT_EQ(kumo::minimum(2.0f, 3.0f), 2.0f);
  // The first NaN operand is the one returned (payload preserved).
  const double n1 = from_dbits(0x7ff8000000000001ull), n2 = from_dbits(0x7ff8000000000002ull);
  EXPECT_EQ(dbits(kumo::maximum(n1, n2)), dbits(n1));
  EXPECT_EQ(dbits(kumo::minimum(n2, n1)), dbits(n2));
  // Signed-zero ties follow NumPy's contiguous loops on x86-64.
  EXPECT_FALSE(std::signbit(kumo::maximum(-0.0, 0.0)));
  EXPECT_TRUE(std::signbit(kumo::maximum(0.0, -0.0)));
  EXPECT_FALSE(std::signbit(kumo::fmax(-0.0f, 0.0f)));
  EXPECT_TRUE(kumo::signbit(kumo::maximum(float16(-0.0f), float16(0.0f))));
  // float16
  const float16 hn = H(0x7e00), h1 = 1.0f;
  EXPECT_TRUE(kumo::isnan(kumo::maximum(hn, h1)));
  EXPECT_TRUE(kumo::isnan(kumo::minimum(h1, hn)));
  EXPECT_EQ((float)kumo::fmax(hn, h1), 1.0f);
  EXPECT_EQ((float)kumo::fmin(h1, hn), 1.0f);
  // complex: lexicographic, NaN in either part propagates / is ignored
  typedef complex128 C;
  EXPECT_EQ(kumo::maximum(C(1, 5), C(2, 0)), C(2, 0));
  EXPECT_EQ(kumo::minimum(C(1, 5), C(1, 4)), C(1, 4));
  EXPECT_TRUE(std::isnan(kumo::maximum(C(1, n), C(2, 0)).im));
  EXPECT_TRUE(std::isnan(kumo::maximum(C(2, 0), C(1, n)).im));
  EXPECT_TRUE(std::isnan(kumo::minimum(C(n, 0), C(2, 0)).re));
  EXPECT_EQ(kumo::fmax(C(1, n), C(2, 0)), C(2, 0));
  EXPECT_EQ(kumo::fmax(C(2, 0), C(n, 1)), C(2, 0));
  EXPECT_EQ(kumo::fmin(C(n, 0), C(-3, 1)), C(-3, 1));
  // integers and bool
  EXPECT_EQ(kumo::maximum((int8_t)-128, (int8_t)127), 127);
  EXPECT_EQ(kumo::fmin((uint64_t)5, (uint64_t)3), 3u);
  EXPECT_EQ(kumo::maximum(true, false), true);
}

TEST(PreludeRounding, RintIsHalfToEven) {
  const double in[] = {0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 1e300, 4503599627370497.0, 2.5000000001};
  const double out[] = {0.0, 2.0, 2.0, 4.0, -0.0, -2.0, -2.0, 1e300, 4503599627370497.0, 3.0};
  for (int i = 0; i < 10; i++) {
    EXPECT_TRUE(same_d(rint(in[i]), out[i])) << in[i];
    EXPECT_TRUE(same_d(kumo::rint(in[i]), out[i])) << in[i];
    if (i < 7) {
      EXPECT_TRUE(same_f(rint((float)in[i]), (float)out[i])) << in[i];
      EXPECT_TRUE(same_h(rint(float16(in[i])), float16(out[i]))) << in[i];
    }
  }
  EXPECT_EQ(kumo::floor((int32_t)-7), -7);  // integers: identity (NumPy 2 keeps the dtype)
  EXPECT_EQ((float)floor(float16(-2.5f)), -3.0f);
  EXPECT_EQ((float)ceil(float16(-2.5f)), -2.0f);
  EXPECT_EQ((float)trunc(float16(-2.5f)), -2.0f);
}

TEST(PreludeSign, AllTypes) {
  EXPECT_TRUE(std::isnan(kumo::sign(kNaN)));
  EXPECT_TRUE(same_d(kumo::sign(-0.0), 0.0));  // +0.0, as NumPy
  EXPECT_EQ(kumo::sign(-kInf), -1.0);
  EXPECT_EQ(kumo::sign(3.5f), 1.0f);
  EXPECT_EQ(kumo::sign((int8_t)-128), -1);
  EXPECT_EQ(kumo::sign((uint8_t)200), 1);
  EXPECT_EQ(kumo::sign((uint8_t)0), 0);
  EXPECT_TRUE(kumo::isnan(kumo::sign(H(0x7e00))));
  EXPECT_EQ((float)kumo::sign(float16(-7.0f)), -1.0f);
  typedef complex128 C;
  auto eq = [](const C& a, const C& b) { return same_d(a.re, b.re) && same_d(a.im, b.im); };
  EXPECT_TRUE(eq(kumo::sign(C(3, -4)), C(0.6, -0.8)));
  EXPECT_TRUE(eq(kumo::sign(C(kInf, 1)), C(1, 0)));
  EXPECT_TRUE(eq(kumo::sign(C(1, -kInf)), C(0, -1)));
  EXPECT_TRUE(eq(kumo::sign(C(-kInf, 2)), C(-1, 0)));
  EXPECT_TRUE(eq(kumo::sign(C(kInf, kInf)), C(kNaN, kNaN)));
  EXPECT_TRUE(eq(kumo::sign(C(kNaN, 0)), C(kNaN, kNaN)));
  EXPECT_TRUE(eq(kumo::sign(C(0, 0)), C(0, 0)));
  EXPECT_TRUE(eq(kumo::sign(C(-0.0, 0)), C(0, 0)));
}

// ===========================================================================
// kumo::cast (astype)
// ===========================================================================
TEST(PreludeCast, FloatToIntMatchesNumpyOnX86) {
  // np.array(vals).astype(T) for float64 input, NumPy 2.4 on x86-64.
  const double v[] = {300.7, -300.7, -1.5, kNaN, kInf, -kInf, 1e19, -1e19, 3e9, -3e9,
                      128.0, 255.9, 65536.5, 9223372036854775808.0, 18446744073709551616.0, 1.8e19, 40000.5, -40000.5};
  const int64_t i8[] = {44, -44, -1, 0, 0, 0, 0, 0, 0, 0, -128, -1, 0, 0, 0, 0, 64, -64};
  const int64_t u8[] = {44, 212, 255, 0, 0, 0, 0, 0, 0, 0, 128, 255, 0, 0, 0, 0, 64, 192};
  const int64_t i16[] = {300, -300, -1, 0, 0, 0, 0, 0, 0, 0, 128, 255, 0, 0, 0, 0, -25536, 25536};
  const int64_t u16[] = {300, 65236, 65535, 0, 0, 0, 0, 0, 0, 0, 128, 255, 0, 0, 0, 0, 40000, 25536};
  const int64_t m32 = INT32_MIN;
  const int64_t i32[] = {300, -300, -1, m32, m32, m32, m32, m32, m32, m32, 128, 255, 65536, m32, m32, m32, 40000, -40000};
  const uint64_t u32[] = {300, 4294966996u, 4294967295u, 2147483648u, 0, 2147483648u, 0, 2147483648u, 3000000000u,
                          2147483648u, 128, 255, 65536, 0, 0, 0, 40000, 4294927296u};
  const int64_t m64 = INT64_MIN;
  const int64_t i64[] = {300, -300, -1, m64, m64, m64, m64, m64, 3000000000, -3000000000, 128, 255, 65536, m64, m64, m64, 40000, -40000};
  const uint64_t u64[] = {300, 18446744073709551316ull, 18446744073709551615ull, 9223372036854775808ull, 0,
                          9223372036854775808ull, 10000000000000000000ull, 9223372036854775808ull, 3000000000ull,
                          18446744070709551616ull, 128, 255, 65536, 9223372036854775808ull, 0, 18000000000000000000ull,
                          40000, 18446744073709511616ull};
  for (int i = 0; i < 18; i++) {
    EXPECT_EQ(kumo::cast<int8_t>(v[i]), i8[i]) << v[i];
    EXPECT_EQ(kumo::cast<uint8_t>(v[i]), u8[i]) << v[i];
    EXPECT_EQ(kumo::cast<int16_t>(v[i]), i16[i]) << v[i];
    EXPECT_EQ(kumo::cast<uint16_t>(v[i]), u16[i]) << v[i];
    EXPECT_EQ(kumo::cast<int32_t>(v[i]), i32[i]) << v[i];
    EXPECT_EQ(kumo::cast<uint32_t>(v[i]), u32[i]) << v[i];
    EXPECT_EQ(kumo::cast<int64_t>(v[i]), i64[i]) << v[i];
    EXPECT_EQ(kumo::cast<uint64_t>(v[i]), u64[i]) << v[i];
    EXPECT_TRUE(kumo::cast<bool>(v[i]));
    EXPECT_EQ(kumo_cast<int32_t>((float)v[i]), kumo::cast<int32_t>((double)(float)v[i]));
  }
  EXPECT_EQ(kumo_cast<uint8_t>(300.7), 44);
  // float16 sources: NumPy's half path gives 0 for uint32 of NaN / -inf.
  EXPECT_EQ(kumo::cast<uint32_t>(H(0x7e00)), 0u);
  EXPECT_EQ(kumo::cast<uint32_t>(H(0xfc00)), 0u);
  EXPECT_EQ(kumo::cast<int32_t>(H(0x7c00)), INT32_MIN);
  EXPECT_EQ(kumo::cast<uint64_t>(H(0xfc00)), 9223372036854775808ull);
  EXPECT_EQ(kumo::cast<int16_t>(float16(-2.5f)), -2);
  EXPECT_EQ(kumo::cast<uint16_t>(float16(65504.0f)), 65504);
}

TEST(PreludeCast, ComplexBoolHalfAndWrapping) {
  EXPECT_FALSE(kumo::cast<bool>(complex128(0.0, 0.0)));
  EXPECT_FALSE(kumo::cast<bool>(complex128(-0.0, -0.0)));
  EXPECT_TRUE(kumo::cast<bool>(complex128(0.0, 1e-300)));
  EXPECT_TRUE(kumo::cast<bool>(complex64(kNaN, 0.0)));
  EXPECT_FALSE(kumo::cast<bool>(-0.0));
  EXPECT_TRUE(kumo::cast<bool>(kNaN));
  EXPECT_FALSE(kumo::cast<bool>(float16(-0.0f)));
  EXPECT_TRUE(kumo::cast<bool>(H(0x0001)));
  EXPECT_EQ(kumo::cast<complex64>(true), complex64(1.0f, 0.0f));
  EXPECT_EQ(kumo::cast<complex128>((int64_t)-3), complex128(-3.0, 0.0));
  EXPECT_EQ(kumo::cast<complex64>(float16(1.5f)), complex64(1.5f, 0.0f));
  EXPECT_EQ(kumo::cast<double>(complex128(2.5, 7.0)), 2.5);
  EXPECT_EQ(kumo::cast<uint8_t>(complex128(300.7, 1.0)), 44);
  EXPECT_EQ((float)kumo::cast<float16>(complex64(0.1f, 3.0f)), (float)float16(0.1f));
  EXPECT_EQ(kumo::cast<complex64>(complex128(1.0 / 3.0, -2.0)), complex64(1.0f / 3.0f, -2.0f));
  EXPECT_EQ(kumo::cast<double>(float16(0.1f)), (double)(float)float16(0.1f));
  EXPECT_EQ(kumo::cast<int8_t>(true), 1);
  EXPECT_EQ(kumo::cast<float>(false), 0.0f);
  EXPECT_EQ(kumo::cast<int8_t>((int32_t)300), 44);
  EXPECT_EQ(kumo::cast<uint8_t>((int64_t)-1), 255);
  EXPECT_EQ(kumo::cast<int64_t>(std::numeric_limits<uint64_t>::max()), -1);
  EXPECT_EQ(kumo::cast<float>((int64_t)16777217), 16777216.0f);
  EXPECT_EQ(kumo::cast<double>(std::numeric_limits<uint64_t>::max()), 18446744073709551616.0);
}

// ===========================================================================
// Other ufunc helpers
// ===========================================================================
TEST(PreludeUfuncs, IntegerPowerAbsGcdLcmReciprocalSquare) {
  EXPECT_EQ(kumo::power((int8_t)3, (int8_t)5), -13);           // 243 wraps
  EXPECT_EQ(kumo::power((int8_t)2, (int8_t)7), -128);
  EXPECT_EQ(kumo::power((int8_t)2, (int8_t)8), 0);
  EXPECT_EQ(kumo::power((uint16_t)255, (uint16_t)3), (uint16_t)(255u * 255u * 255u));
  uint64_t ref = 1;
  for (int i = 0; i < 40; i++) ref *= 3;
  EXPECT_EQ(kumo::power((int64_t)3, (int64_t)40), (int64_t)ref);
  EXPECT_EQ(kumo::power((uint64_t)3, (uint64_t)40), ref);
  EXPECT_EQ(kumo::power((int32_t)0, (int32_t)0), 1);
  EXPECT_EQ(kumo::power((int32_t)-2, (int32_t)3), -8);
  EXPECT_EQ(kumo::power((int32_t)1, (int32_t)-3), 1);          // negative exponents: caller's
  EXPECT_EQ(kumo::power((int32_t)-1, (int32_t)-3), -1);        // problem, but no trap
  EXPECT_EQ(kumo::power((int32_t)-1, (int32_t)-2), 1);
  EXPECT_EQ(kumo::power((int32_t)2, (int32_t)-1), 0);
  EXPECT_EQ(kumo::power((int32_t)0, (int32_t)-1), 0);
  EXPECT_EQ(kumo::power(2.0f, 0.5f), std::sqrt(2.0f));
  EXPECT_EQ((float)kumo::power(float16(2.0f), float16(10.0f)), 1024.0f);
  EXPECT_EQ(kumo::float_power((int32_t)2, (int32_t)-1), 0.5);

  EXPECT_EQ(kumo::absolute((int8_t)-128), -128);
  EXPECT_EQ(kumo::absolute(INT64_MIN), INT64_MIN);
  EXPECT_EQ(kumo::absolute((int16_t)-5), 5);
  EXPECT_EQ(kumo::negative((int8_t)-128), -128);
  EXPECT_EQ(kumo::negative((uint8_t)1), 255);
  EXPECT_EQ(kumo::abs((int32_t)-3), 3);
  EXPECT_EQ(kumo::absolute(-2.5), 2.5);
  EXPECT_EQ(kumo::absolute(H(0xfe00)).bits, 0x7e00);

  EXPECT_EQ(kumo::gcd(INT64_MIN, (int64_t)0), INT64_MIN);
  EXPECT_EQ(kumo::gcd((int8_t)-128, (int8_t)-128), -128);
  EXPECT_EQ(kumo::lcm((int8_t)-128, (int8_t)3), -128);
  EXPECT_EQ(kumo::lcm((int16_t)100, (int16_t)1000), 1000);
  EXPECT_EQ(kumo::gcd((int32_t)12, (int32_t)-18), 6);
  EXPECT_EQ(kumo::lcm((int32_t)-4, (int32_t)6), 12);
  EXPECT_EQ(kumo::gcd((uint32_t)0, (uint32_t)0), 0u);
  EXPECT_EQ(kumo::lcm((int32_t)0, (int32_t)5), 0);

  // NumPy computes 1.0/x and casts back: 1/0 is the cast of +inf.
  EXPECT_EQ(kumo::reciprocal((int8_t)0), 0);
  EXPECT_EQ(kumo::reciprocal((int32_t)0), INT32_MIN);
  EXPECT_EQ(kumo::reciprocal((int64_t)0), INT64_MIN);
  EXPECT_EQ(kumo::reciprocal((uint8_t)0), 0);
  EXPECT_EQ(kumo::reciprocal((uint64_t)0), 0u);
  EXPECT_EQ(kumo::reciprocal((int32_t)1), 1);
  EXPECT_EQ(kumo::reciprocal((int32_t)-1), -1);
  EXPECT_EQ(kumo::reciprocal((int32_t)2), 0);
  EXPECT_EQ(kumo::reciprocal((int32_t)-2), 0);
  EXPECT_EQ(kumo::reciprocal(4.0f), 0.25f);

  EXPECT_EQ(kumo::square((int32_t)65536), 0);
  EXPECT_EQ(kumo::square((int8_t)16), 0);
  EXPECT_EQ(kumo::square((uint16_t)255), 65025);
  EXPECT_EQ(kumo::square((int16_t)200), -25536);
  EXPECT_EQ(kumo::square(INT64_MIN), 0);
}

TEST(PreludeUfuncs, FloatHelpers) {
  EXPECT_TRUE(std::isnan(kumo::heaviside(kNaN, 0.5)));
  EXPECT_EQ(kumo::heaviside(0.0, 0.5), 0.5);
  EXPECT_EQ(kumo::heaviside(-0.0, 0.5), 0.5);
  EXPECT_EQ(kumo::heaviside(-1.0, 0.5), 0.0);
  EXPECT_EQ(kumo::heaviside(2.0f, 0.5f), 1.0f);
  EXPECT_EQ((float)kumo::heaviside(float16(0.0f), float16(0.25f)), 0.25f);
  EXPECT_EQ(kumo::logaddexp(kInf, kInf), kInf);
  EXPECT_EQ(kumo::logaddexp(-kInf, -kInf), -kInf);
  EXPECT_TRUE(std::isnan(kumo::logaddexp(kNaN, 1.0)));
  EXPECT_EQ(kumo::logaddexp2(3.0, 3.0), 4.0);
  EXPECT_NEAR(kumo::logaddexp(1.0, 2.0), std::log(std::exp(1.0) + std::exp(2.0)), 1e-15);
  EXPECT_NEAR(kumo::logaddexp2(-1000.0, -1001.0), -1000.0 + std::log2(1.5), 1e-12);
  EXPECT_EQ(kumo::logaddexp(1000.0, -kInf), 1000.0);
  EXPECT_EQ(kumo::deg2rad(180.0), kPi);
  EXPECT_EQ(kumo::rad2deg(kPi), 180.0);
  EXPECT_EQ(kumo::radians(90.0f), (float)(kPi / 2));
  EXPECT_EQ(kumo::degrees((int32_t)0), 0.0);
  // spacing
  EXPECT_EQ(kumo::spacing(1.0), std::ldexp(1.0, -52));
  EXPECT_EQ(kumo::spacing(-1.0), -std::ldexp(1.0, -52));
  EXPECT_EQ(kumo::spacing(0.0), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(kumo::spacing(-0.0), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(kumo::spacing(1.0f), std::ldexp(1.0f, -23));
  EXPECT_TRUE(std::isnan(kumo::spacing(kInf)));
  EXPECT_TRUE(std::isinf(kumo::spacing(std::numeric_limits<double>::max())));
  EXPECT_EQ((float)kumo::spacing(float16(1.0f)), std::ldexp(1.0f, -10));
  EXPECT_EQ((float)kumo::spacing(float16(-1.0f)), std::ldexp(1.0f, -11));  // NumPy's half spacing is >= 0
  EXPECT_EQ((float)kumo::spacing(float16(-65504.0f)), 32.0f);
  EXPECT_TRUE(kumo::isinf(kumo::spacing(float16(65504.0f))));
  EXPECT_TRUE(kumo::isnan(kumo::spacing(H(0xfc00))));
  // nextafter (float16 follows npy_half_nextafter: x == y returns x)
  EXPECT_EQ(nextafter(float16(0.0f), float16(-0.0f)).bits, 0x0000);
  EXPECT_EQ(nextafter(float16(-0.0f), float16(0.0f)).bits, 0x8000);
  EXPECT_EQ(nextafter(float16(0.0f), float16(1.0f)).bits, 0x0001);
  EXPECT_EQ(nextafter(float16(0.0f), float16(-1.0f)).bits, 0x8001);
  EXPECT_EQ(nextafter(float16(65504.0f), H(0x7c00)).bits, 0x7c00);
  EXPECT_EQ(nextafter(H(0x7c00), float16(0.0f)).bits, 0x7bff);
  EXPECT_EQ(nextafter(float16(-1.0f), float16(0.0f)).bits, 0xbbff);
  EXPECT_EQ(nextafter(float16(1.0f), float16(2.0f)).bits, 0x3c01);
  EXPECT_TRUE(kumo::isnan(nextafter(H(0x7e00), float16(1.0f))));
  EXPECT_EQ(nextafter(1.0, 2.0), 1.0 + std::ldexp(1.0, -52));
  // ldexp / frexp / modf / copysign on float16
  int e = 0;
  EXPECT_EQ((float)frexp(float16(3.0f), &e), 0.75f);
  EXPECT_EQ(e, 2);
  float16 ip;
  EXPECT_EQ((float)modf(float16(-2.5f), &ip), -0.5f);
  EXPECT_EQ((float)ip, -2.0f);
  EXPECT_TRUE(kumo::isinf(ldexp(float16(3.0f), 100)));
  EXPECT_EQ((float)ldexp(float16(3.0f), -2), 0.75f);
  EXPECT_EQ(kumo::ldexp(1.0, (int64_t)1 << 40), kInf);  // wide exponents are clamped, not truncated
  EXPECT_EQ(kumo::ldexp(1.0, -((int64_t)1 << 40)), 0.0);
  EXPECT_EQ(copysign(float16(2.0f), float16(-0.0f)).bits, 0xc000);
  // angle / real / imag / conjugate of real numbers
  EXPECT_EQ(kumo::angle(-1.0), kPi);
  EXPECT_EQ(kumo::angle(-0.0), kPi);
  EXPECT_EQ(kumo::angle(0.0), 0.0);
  EXPECT_EQ(kumo::angle((int8_t)-1), kPi);
  EXPECT_EQ(kumo::real(2.5), 2.5);
  EXPECT_EQ(kumo::imag(2.5f), 0.0f);
  EXPECT_EQ(kumo::real(complex64(1.0f, 2.0f)), 1.0f);
  EXPECT_EQ(kumo::imag(complex64(1.0f, 2.0f)), 2.0f);
  EXPECT_EQ(kumo::conjugate((int32_t)5), 5);
  // true_divide
  EXPECT_EQ(kumo::true_divide((int8_t)1, (int8_t)4), 0.25);
  EXPECT_EQ((float)kumo::true_divide(float16(1.0f), float16(4.0f)), 0.25f);
}

TEST(PreludeUfuncs, LogicalTruthOfEveryType) {
  EXPECT_TRUE(kumo::logical_and(complex64(0.0f, 1.0f), 2));
  EXPECT_FALSE(kumo::logical_and(complex64(0.0f, 0.0f), 2));
  EXPECT_TRUE(kumo::logical_or(float16(0.0f), kNaN));
  EXPECT_FALSE(kumo::logical_or(float16(-0.0f), 0.0));
  EXPECT_TRUE(kumo::logical_xor((uint8_t)3, false));
  EXPECT_TRUE(kumo::logical_not(H(0x8000)));
  EXPECT_FALSE(kumo::logical_not(H(0x7e00)));
}

TEST(PreludeUfuncs, RealMathOverloadsForEveryFloatType) {
  // float16 math is the float function rounded back, as NumPy's half loops do.
  for (uint32_t b = 0; b < 65536; b += 7) {
    const float16 h = H((uint16_t)b);
    const float f = h;
    ASSERT_TRUE(same_h(sin(h), float16(std::sin(f))));
    ASSERT_TRUE(same_h(exp(h), float16(std::exp(f))));
    ASSERT_TRUE(same_h(sqrt(h), float16(std::sqrt(f))));
    ASSERT_TRUE(same_h(log1p(h), float16(std::log1p(f))));
    ASSERT_TRUE(same_h(arctan2(h, float16(0.5f)), float16(std::atan2(f, 0.5f))));
    ASSERT_TRUE(same_h(hypot(h, h), float16(std::hypot(f, f))));
    ASSERT_TRUE(same_h(fmod(h, float16(3.0f)), float16(std::fmod(f, 3.0f))));
    ASSERT_TRUE(same_h(fabs(h), float16(std::fabs(f))));
  }
  EXPECT_DOUBLE_EQ(arccosh(2.0), std::acosh(2.0));  // (GCC may fold the std:: side exactly)
  EXPECT_FLOAT_EQ(arcsinh(2.0f), std::asinh(2.0f));
  EXPECT_DOUBLE_EQ(arctanh(0.5), std::atanh(0.5));
  EXPECT_EQ(cbrt(-27.0), -3.0);
  EXPECT_EQ(kumo::exp2((int32_t)3), 8.0);  // integers go through double
  EXPECT_EQ(kumo::isnan((int32_t)3), false);
  EXPECT_EQ(kumo::isfinite((uint8_t)3), true);
  EXPECT_TRUE(kumo::isinf(complex128(kInf, kNaN)));
  EXPECT_TRUE(kumo::isnan(complex128(kInf, kNaN)));
  EXPECT_FALSE(kumo::isfinite(complex64(1.0f, (float)kInf)));
}
