// The creation routines of the public C++ API against the values, dtypes,
// layouts and errors NumPy 2 gives for the same calls.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

using D = std::vector<double>;
using I = std::vector<int64_t>;

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << i;
    else EXPECT_NEAR(got[i], want[i], tol) << i;
  }
}

}  // namespace

TEST(RoutinesCreation, ZerosOnesEmpty) {
  Array z = zeros({2, 3}, Dtype::kFloat32);
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  EXPECT_EQ(z.dtype(), Dtype::kFloat32);
  EXPECT_EQ(z.to_vector<float>(), std::vector<float>(6, 0.0f));
  Array o = ones(4, Dtype::kInt8);
  EXPECT_EQ(o.shape(), (Shape{4}));
  EXPECT_EQ(o.to_vector<int>(), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(zeros({2, 3}).dtype(), Dtype::kFloat64);
  Array f = ones({2, 3}, Dtype::kFloat64, Order::kF);
  EXPECT_TRUE(f.f_contiguous());
  EXPECT_FALSE(f.c_contiguous());
  EXPECT_EQ(empty({0, 3}).size(), 0);
  Array s = ones(Shape{}, Dtype::kComplex64);  // 0-d
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.item<std::complex<float>>(), std::complex<float>(1, 0));
  EXPECT_EQ(zeros(3, Dtype::kBool).to_vector<bool>(), (std::vector<bool>{false, false, false}));
}

TEST(RoutinesCreation, ShapeAndOrderErrors) {
  EXPECT_THROW(zeros({2, -1}), ValueError);
  EXPECT_THROW(empty({2}, Dtype::kFloat64, Order::kK), ValueError);
  EXPECT_THROW(ones({2}, Dtype::kFloat64, Order::kA), ValueError);
}

TEST(RoutinesCreation, FullInfersTheFillValuesDtype) {
  EXPECT_EQ(full({2}, 7).dtype(), Dtype::kInt64);
  EXPECT_EQ(full({2}, 7).to_vector<int64_t>(), (I{7, 7}));
  EXPECT_EQ(full({2}, 1.5).dtype(), Dtype::kFloat64);
  EXPECT_EQ(full({2}, true).dtype(), Dtype::kBool);
  EXPECT_EQ(full({2}, std::complex<double>(1, 2)).dtype(), Dtype::kComplex128);
  EXPECT_EQ(full({1}, uint64_t{1} << 63).dtype(), Dtype::kUInt64);
  Array f = full({2, 2}, 2.5f, Dtype::kFloat32);
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{2.5f, 2.5f, 2.5f, 2.5f}));
  // A float into an integer dtype converts (numpy.full copies unsafely).
  EXPECT_EQ(full({2}, 2.7, Dtype::kInt32).to_vector<int>(), (std::vector<int>{2, 2}));
  // An integer that does not fit the dtype is NumPy 2's OverflowError.
  EXPECT_THROW(full({2}, 1000, Dtype::kInt8), OverflowError);
  EXPECT_THROW(full({2}, -1, Dtype::kUInt8), OverflowError);
}

TEST(RoutinesCreation, FullWithAnArrayBroadcasts) {
  Array row = arange(3);
  Array f = full({2, 3}, row);
  EXPECT_EQ(f.dtype(), Dtype::kInt64);
  EXPECT_EQ(f.to_vector<int64_t>(), (I{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(full({2, 3}, row, Dtype::kFloat32).dtype(), Dtype::kFloat32);
  EXPECT_THROW(full({2, 4}, row), ValueError);
}

TEST(RoutinesCreation, LikeKeepsDtypeAndLayout) {
  Array a = arange(6, Dtype::kInt16).reshape({2, 3});
  Array z = zeros_like(a);
  EXPECT_EQ(z.dtype(), Dtype::kInt16);
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  EXPECT_EQ(z.to_vector<int>(), std::vector<int>(6, 0));
  // Order K follows a transposed (F-ordered) prototype; C does not.
  Array t = a.transpose();
  EXPECT_TRUE(ones_like(t).f_contiguous());
  EXPECT_TRUE(ones_like(t, std::nullopt, Order::kC).c_contiguous());
  EXPECT_TRUE(empty_like(t, std::nullopt, Order::kA).f_contiguous());
  // K keeps the stride order of a permuted 3-d prototype.
  Array p = arange(24).reshape({2, 3, 4}).transpose({1, 2, 0});
  Array e = empty_like(p);
  EXPECT_EQ(e.strides(), (Strides{32, 8, 96}));
  // dtype and shape overrides.
  Array f = full_like(a, 2.5, Dtype::kFloat32, Order::kK, Shape{4});
  EXPECT_EQ(f.shape(), (Shape{4}));
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{2.5f, 2.5f, 2.5f, 2.5f}));
  // The fill value takes the prototype's dtype: 2.5 into int16 truncates.
  EXPECT_EQ(full_like(a, 2.5).to_vector<int>(), std::vector<int>(6, 2));
  EXPECT_TRUE(zeros_like(t, std::nullopt, Order::kK, Shape{3, 5}).f_contiguous());
  Array g = full_like(a, arange(3, Dtype::kInt16) * 2);
  EXPECT_EQ(g.to_vector<int>(), (std::vector<int>{0, 2, 4, 0, 2, 4}));
}

TEST(RoutinesCreation, CopyAndAstype) {
  Array a = arange(6).reshape({2, 3});
  Array r = a.index({IndexItem::slice(std::nullopt, std::nullopt, -1)});  // negative stride
  Array c = copy(r);
  EXPECT_FALSE(c.shares_memory_with(r));
  EXPECT_EQ(c.to_vector<int64_t>(), (I{3, 4, 5, 0, 1, 2}));
  EXPECT_TRUE(copy(a.transpose(), Order::kF).f_contiguous());
  Array f = astype(a, Dtype::kFloat32);
  EXPECT_EQ(f.dtype(), Dtype::kFloat32);
  EXPECT_TRUE(astype(a, Dtype::kInt64, Casting::kSafe, false).shares_memory_with(a));
  EXPECT_FALSE(astype(a, Dtype::kInt64).shares_memory_with(a));
  EXPECT_THROW(astype(a, Dtype::kInt8, Casting::kSafe), TypeError);
  EXPECT_THROW(astype(f, Dtype::kInt32, Casting::kSameKind), TypeError);
  EXPECT_NO_THROW(astype(f, Dtype::kFloat16, Casting::kSameKind));
}

TEST(RoutinesCreation, ArangeIntegers) {
  Array a = arange(5);
  EXPECT_EQ(a.dtype(), Dtype::kInt64);
  EXPECT_EQ(a.to_vector<int64_t>(), (I{0, 1, 2, 3, 4}));
  EXPECT_EQ(arange(2, 12, 3).to_vector<int64_t>(), (I{2, 5, 8, 11}));
  EXPECT_EQ(arange(5, -5, -2, Dtype::kInt8).to_vector<int>(), (std::vector<int>{5, 3, 1, -1, -3}));
  EXPECT_EQ(arange(10, 0).size(), 0);      // empty, not an error
  EXPECT_EQ(arange(0, 10, -1).size(), 0);
  EXPECT_EQ(arange(-3).size(), 0);
  EXPECT_EQ(arange(6, Dtype::kFloat32).dtype(), Dtype::kFloat32);
  EXPECT_EQ(arange(true).dtype(), Dtype::kInt64);  // a bool counts as an int
}

TEST(RoutinesCreation, ArangeFloats) {
  Array a = arange(0.0, 1.0, 0.1);
  EXPECT_EQ(a.dtype(), Dtype::kFloat64);
  ASSERT_EQ(a.size(), 10);  // ceil((1 - 0) / 0.1)
  expect_near(a.to_vector<double>(), D{0, .1, .2, .3, .4, .5, .6, .7, .8, .9});
  EXPECT_EQ(arange(1, 2, 0.3).size(), 4);  // any float argument gives float64
  EXPECT_EQ(arange(1, 2, 0.3).dtype(), Dtype::kFloat64);
  EXPECT_EQ(arange(0.5).to_vector<double>(), (D{0.0}));
  EXPECT_EQ(arange(3.0, 0.0, -1.5).to_vector<double>(), (D{3.0, 1.5}));
  // Integer dtype: the first two values are converted and their difference
  // is the step, so 1.0, 1.3 -> 1, 1 and every value is 1 (as NumPy).
  EXPECT_EQ(arange(1.0, 2.0, 0.3, Dtype::kInt64).to_vector<int64_t>(), (I{1, 1, 1, 1}));
  EXPECT_EQ(arange(0.0, 5.0, 1.5, Dtype::kInt32).to_vector<int>(), (std::vector<int>{0, 1, 2, 3}));
}

TEST(RoutinesCreation, ArangeErrors) {
  EXPECT_THROW(arange(0, 10, 0), ZeroDivisionError);
  EXPECT_THROW(arange(0.0, 1.0, 0.0), ZeroDivisionError);
  EXPECT_THROW(arange(3, Dtype::kBool), TypeError);
  EXPECT_EQ(arange(2, Dtype::kBool).to_vector<bool>(), (std::vector<bool>{false, true}));
  // Complex arguments: NumPy's length rule (the smaller of the real and
  // imaginary ceilings), and a real dtype refuses them.
  EXPECT_EQ(arange(std::complex<double>(3, 0)).size(), 0);
  EXPECT_EQ(arange(Scalar(0), Scalar(std::complex<double>(2, 2)), Scalar(0.5)).size(), 4);
  EXPECT_THROW(arange(Scalar(0), Scalar(std::complex<double>(2, 2)), Scalar(0.5), Dtype::kFloat64), TypeError);
  EXPECT_THROW(arange(std::numeric_limits<double>::quiet_NaN()), ValueError);
  EXPECT_THROW(arange(0.0, std::numeric_limits<double>::infinity()), ValueError);
}

TEST(RoutinesCreation, Linspace) {
  Array a = linspace(-1.0, 3.0, 5);
  EXPECT_EQ(a.dtype(), Dtype::kFloat64);
  expect_near(a.to_vector<double>(), D{-1, 0, 1, 2, 3});
  expect_near(linspace(0, 1, 4, false).to_vector<double>(), D{0, .25, .5, .75});
  EXPECT_EQ(linspace(0, 1, 0).size(), 0);
  EXPECT_EQ(linspace(2, 5, 1).to_vector<double>(), (D{2}));
  EXPECT_EQ(linspace(0, 1, 50).size(), 50);
  // The last sample is stop exactly, not start + 49 * step.
  EXPECT_EQ(linspace(0.0, 0.3, 50).to_vector<double>().back(), 0.3);
  EXPECT_THROW(linspace(0, 1, -1), ValueError);
}

TEST(RoutinesCreation, LinspaceDtypes) {
  // NumPy 2 floors toward -inf for integer dtypes.
  EXPECT_EQ(linspace(0, 10, 5, true, Dtype::kInt64).to_vector<int64_t>(), (I{0, 2, 5, 7, 10}));
  EXPECT_EQ(linspace(-1, -5, 4, true, Dtype::kInt8).to_vector<int>(), (std::vector<int>{-1, -3, -4, -5}));
  EXPECT_EQ(linspace(0, 1, 3, true, Dtype::kFloat16).dtype(), Dtype::kFloat16);
  // float32 bounds stay float32 (the float(num) NumPy adds is weak).
  Array lo = scalar_array(0.0f), hi = scalar_array(1.0f);
  EXPECT_EQ(linspace(lo, hi, 3).dtype(), Dtype::kFloat32);
  EXPECT_EQ(linspace(scalar_array<int32_t>(0), scalar_array<int32_t>(4), 3).dtype(), Dtype::kFloat64);
}

TEST(RoutinesCreation, LinspaceArrayBoundsAndAxis) {
  Array lo = asarray(std::vector<double>{0, 10});
  Array hi = asarray(std::vector<double>{1, 20});
  Array y = linspace(lo, hi, 3);
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  expect_near(y.to_vector<double>(), D{0, 10, .5, 15, 1, 20});
  Array z = linspace(lo, hi, 3, true, std::nullopt, -1);
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  expect_near(z.to_vector<double>(), D{0, .5, 1, 10, 15, 20});
  EXPECT_THROW(linspace(lo, hi, 3, true, std::nullopt, 2), AxisError);
}

TEST(RoutinesCreation, LinspaceStep) {
  auto [y, step] = linspace_with_step(0.0, 1.0, 5);
  EXPECT_EQ(step.ndim(), 0);
  EXPECT_DOUBLE_EQ(step.item<double>(), 0.25);
  auto [y1, step1] = linspace_with_step(0.0, 1.0, 1);
  EXPECT_TRUE(std::isnan(step1.item<double>()));
  EXPECT_EQ(y1.to_vector<double>(), (D{0.0}));
  auto [y0, step0] = linspace_with_step(0.0, 1.0, 4, false);
  EXPECT_DOUBLE_EQ(step0.item<double>(), 0.25);
}

TEST(RoutinesCreation, EyeAndIdentity) {
  EXPECT_EQ(eye(3).to_vector<double>(), (D{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(eye(2, 3, 1).to_vector<double>(), (D{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(eye(3, 2, -1).to_vector<double>(), (D{0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(eye(2, std::nullopt, 5).to_vector<double>(), (D{0, 0, 0, 0}));  // diagonal outside: zeros
  EXPECT_EQ(eye(2, std::nullopt, -2).to_vector<double>(), (D{0, 0, 0, 0}));
  EXPECT_EQ(eye(0).shape(), (Shape{0, 0}));
  Array f = eye(3, 4, 0, Dtype::kInt32, Order::kF);
  EXPECT_TRUE(f.f_contiguous());
  EXPECT_EQ(f.dtype(), Dtype::kInt32);
  EXPECT_EQ(f.to_vector<int>(), (std::vector<int>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}));
  Array i = identity(2, Dtype::kBool);
  EXPECT_EQ(i.to_vector<bool>(), (std::vector<bool>{true, false, false, true}));
  EXPECT_THROW(eye(-1), ValueError);
}
