// The logic and math routines of routines/math_extra.h through the public C++
// API: values of small known cases, dtypes, and NumPy's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

using D = std::vector<double>;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Array f64(std::initializer_list<double> v) { return asarray(std::vector<double>(v)); }
Array i64(std::initializer_list<int64_t> v) { return asarray(std::vector<int64_t>(v)); }

void expect_near(const D& got, const D& want, double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

}  // namespace

TEST(RoutinesMathExtra, SignedInfinitiesAndComplexParts) {
  Array x = f64({1.0, kInf, -kInf, kNan});
  EXPECT_EQ(isposinf(x).to_vector<bool>(), (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(isneginf(x).to_vector<bool>(), (std::vector<bool>{false, false, true, false}));
  EXPECT_THROW(isposinf(x.astype(Dtype::kComplex128)), TypeError);
  Array c = asarray(std::vector<std::complex<double>>{{1, 0}, {1, 2}});
  EXPECT_EQ(iscomplex(c).to_vector<bool>(), (std::vector<bool>{false, true}));
  EXPECT_EQ(isreal(x).to_vector<bool>(), (std::vector<bool>{true, true, true, true}));
}

TEST(RoutinesMathExtra, SincI0AndNanToNum) {
  expect_near(sinc(f64({0.0, 0.5, 1.0})).to_vector<double>(), {1.0, 2.0 / M_PI, 0.0}, 1e-15);
  Array r = i0(i64({0, 1}));
  EXPECT_EQ(r.dtype(), Dtype::kFloat64);
  expect_near(r.to_vector<double>(), {1.0, 1.2660658777520082});
  EXPECT_THROW(i0(f64({1.0}).astype(Dtype::kComplex64)), TypeError);
  expect_near(nan_to_num(f64({kNan, kInf, -kInf, 2.0}), true, -1.0, 9.0).to_vector<double>(),
              {-1.0, 9.0, -std::numeric_limits<double>::max(), 2.0});
}

TEST(RoutinesMathExtra, GradientUniformAndCoordinates) {
  Array f = f64({1, 2, 4, 7, 11});
  expect_near(gradient(f)[0].to_vector<double>(), {1.0, 1.5, 2.5, 3.5, 4.0});
  expect_near(gradient(f, {Scalar(2.0)}, std::nullopt, 2)[0].to_vector<double>(), {0.25, 0.75, 1.25, 1.75, 2.25});
  Array x = f64({0, 1, 1.5, 3.5, 4});
  std::vector<Array> g = gradient(f, {Operand(x)});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_NEAR(g[0].to_vector<double>()[0], 1.0, 1e-12);
  EXPECT_THROW(gradient(f, {}, std::nullopt, 3), ValueError);
  EXPECT_THROW(gradient(f64({1.0})), ValueError);
}

TEST(RoutinesMathExtra, Ediff1dTrapezoidInterpUnwrap) {
  EXPECT_EQ(ediff1d(i64({1, 2, 4, 7}), i64({9}), i64({0})).to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 2, 3, 9}));
  EXPECT_THROW(ediff1d(i64({1, 2}), f64({1.5})), TypeError);
  EXPECT_NEAR(trapezoid(f64({1, 2, 3})).item<double>(), 4.0, 1e-15);
  EXPECT_NEAR(trapezoid(f64({1, 2, 3}), f64({0, 1, 3}), Operand(Scalar(1.0).value())).item<double>(), 6.5, 1e-15);
  expect_near(interp(f64({-1, 0.5, 5}), f64({0, 1, 2}), f64({0, 10, 20})).to_vector<double>(), {0, 5, 20});
  EXPECT_THROW(interp(f64({1}), f64({}), f64({})), ValueError);
  expect_near(unwrap(f64({0, 3, 6.5})).to_vector<double>(), {0, 3, 6.5 - 2 * M_PI});
}

TEST(RoutinesMathExtra, Windows) {
  expect_near(bartlett(5).to_vector<double>(), {0, 0.5, 1, 0.5, 0});
  expect_near(hanning(3).to_vector<double>(), {0, 1, 0});
  expect_near(hamming(1).to_vector<double>(), {1});
  EXPECT_EQ(blackman(0).size(), 0);
  expect_near(kaiser(3, 0.0).to_vector<double>(), {1, 1, 1});
}

TEST(RoutinesMathExtra, BitsRoundTrip) {
  Array bits = asarray(std::vector<uint8_t>{1, 0, 1, 1, 0, 0, 0, 0, 1});
  Array packed = packbits(bits);
  EXPECT_EQ(packed.to_vector<uint8_t>(), (std::vector<uint8_t>{0xB0, 0x80}));
  EXPECT_EQ(packbits(bits, 0, "little").to_vector<uint8_t>(), (std::vector<uint8_t>{0x0D, 0x01}));
  EXPECT_EQ(unpackbits(packed, std::nullopt, 9).to_vector<uint8_t>(), bits.to_vector<uint8_t>());
  EXPECT_THROW(packbits(f64({1.0})), TypeError);
  EXPECT_THROW(unpackbits(i64({1})), TypeError);
  EXPECT_EQ(bitwise_count(i64({-1, 7})).to_vector<uint8_t>(), (std::vector<uint8_t>{1, 3}));
  Array v = asarray(std::vector<int32_t>{1});
  EXPECT_EQ(byteswap(v).to_vector<int32_t>(), (std::vector<int32_t>{0x01000000}));
}

TEST(RoutinesMathExtra, MemoryOverlap) {
  Array a = zeros(Shape{20});
  Array even = a.index({slice(0, std::nullopt, 2)}), odd = a.index({slice(1, std::nullopt, 2)});
  EXPECT_FALSE(shares_memory(even, odd));
  EXPECT_TRUE(may_share_memory(even, odd));
  EXPECT_TRUE(shares_memory(a, odd));
  EXPECT_FALSE(shares_memory(a, zeros(Shape{20})));
  EXPECT_FALSE(
      memory_overlap(zeros(Shape{40, 40}).index({all(), slice(0, std::nullopt, 2)}), zeros(Shape{3}), 1).value());
}
