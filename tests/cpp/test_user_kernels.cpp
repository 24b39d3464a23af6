// routines/user_kernels.h: CuPy's ElementwiseKernel and ReductionKernel
// called from C++ like functions.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kumo/kumo.h"

namespace kumo {
namespace {

Array arange_f32(int64_t n) { return arange(0.0, static_cast<double>(n), 1.0, Dtype::kFloat32); }

TEST(UserKernels, ElementwiseAllocatesItsOutputOfTheBoundType) {
  ElementwiseKernel square("T x", "T y", "y = x * x", "user_square");
  Array y = square(arange_f32(5));
  EXPECT_EQ(y.dtype(), Dtype::kFloat32);
  EXPECT_EQ(y.shape(), Shape({5}));
  EXPECT_FLOAT_EQ(y.index({IndexItem::integer(3)}).item<float>(), 9.0f);
}

TEST(UserKernels, ElementwiseWritesIntoAGivenOutput) {
  ElementwiseKernel square("T x", "T y", "y = x * x", "user_square");
  Array out = zeros(Shape{4}, Dtype::kFloat32);
  square(arange_f32(4), out);
  EXPECT_FLOAT_EQ(out.index({IndexItem::integer(2)}).item<float>(), 4.0f);
}

TEST(UserKernels, ANumberTakesTheTypeTheArraysBind) {
  ElementwiseKernel axpy("T a, T x, T y", "T z", "z = a * x + y", "user_axpy");
  Array z = axpy(2.0, arange_f32(3), ones(Shape{3}, Dtype::kFloat32));
  EXPECT_EQ(z.dtype(), Dtype::kFloat32);
  EXPECT_FLOAT_EQ(z.index({IndexItem::integer(2)}).item<float>(), 5.0f);
}

TEST(UserKernels, BroadcastsItsInputs) {
  ElementwiseKernel add("T x, T y", "T z", "z = x + y", "user_add");
  Array z = add(arange_f32(3).reshape(Shape{3, 1}), arange_f32(2));
  EXPECT_EQ(z.shape(), Shape({3, 2}));
  EXPECT_FLOAT_EQ(z.index({IndexItem::integer(2), IndexItem::integer(1)}).item<float>(), 3.0f);
}

TEST(UserKernels, SeveralOutputsComeFromCall) {
  ElementwiseKernel divmod_kernel("T x, T y", "T q, T r", "q = x / y; r = x % y", "user_divmod");
  std::vector<Array> qr = divmod_kernel.call({arange(0, 7, 1, Dtype::kInt64), 3});
  ASSERT_EQ(qr.size(), 2u);
  EXPECT_EQ(qr[0].index({IndexItem::integer(6)}).item<int64_t>(), 2);
  EXPECT_EQ(qr[1].index({IndexItem::integer(5)}).item<int64_t>(), 2);
}

TEST(UserKernels, WrongArgumentCountIsATypeError) {
  ElementwiseKernel add("T x, T y", "T z", "z = x + y", "user_add");
  EXPECT_THROW(add(arange_f32(3)), TypeError);
}

TEST(UserKernels, AGivenOutputOfAnotherConcreteTypeIsATypeError) {
  ElementwiseKernel to_f64("T x", "float64 y", "y = x", "user_to_f64");
  Array out = zeros(Shape{3}, Dtype::kFloat32);
  EXPECT_THROW(to_f64(arange_f32(3), out), TypeError);
}

TEST(UserKernels, ReductionOverEveryAxisAndOverOne) {
  ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "user_l2norm");
  Array a = arange(0.0, 6.0, 1.0, Dtype::kFloat64).reshape(Shape{2, 3});
  EXPECT_DOUBLE_EQ(l2(a).item<double>(), std::sqrt(55.0));
  Array rows = l2.reduce({a}, Axes(1)).front();
  EXPECT_EQ(rows.shape(), Shape({2}));
  EXPECT_DOUBLE_EQ(rows.index({IndexItem::integer(0)}).item<double>(), std::sqrt(5.0));
}

TEST(UserKernels, ReductionWithoutIdentityRefusesAnEmptyAxis) {
  ReductionKernel maxk("T x", "T y", "x", "max(a, b)", "y = a", std::nullopt, "user_max");
  EXPECT_THROW(maxk(zeros(Shape{0}, Dtype::kFloat64)), ValueError);
}

}  // namespace
}  // namespace kumo
