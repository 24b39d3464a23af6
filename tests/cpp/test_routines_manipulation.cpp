// The manipulation, joining, where and clip routines of the public C++ API
// against NumPy 2's values, dtypes, views and errors.
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

Array i64(std::initializer_list<int64_t> v) { return asarray(std::vector<int64_t>(v)); }
Array f64(std::initializer_list<double> v) { return asarray(std::vector<double>(v)); }
IndexItem all() { return IndexItem::slice(std::nullopt, std::nullopt, 1); }
IndexItem reversed() { return IndexItem::slice(std::nullopt, std::nullopt, -1); }

}  // namespace

// ---- shapes and axes ----

TEST(RoutinesManipulation, ReshapeViewsAndCopies) {
  Array a = arange(6);
  Array r = reshape(a, {2, -1});
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_TRUE(r.shares_memory_with(a));
  EXPECT_EQ(reshape(a, {3, 2}, Order::kF).to_vector<int64_t>(), (I{0, 3, 1, 4, 2, 5}));
  EXPECT_FALSE(reshape(a, {2, 3}, Order::kC, true).shares_memory_with(a));
  // A transposed array cannot be reshaped C-wise without a copy.
  Array t = r.transpose();
  EXPECT_THROW(reshape(t, {6}, Order::kC, false), ValueError);
  Array flat = reshape(t, {6});
  EXPECT_FALSE(flat.shares_memory_with(a));
  EXPECT_EQ(flat.to_vector<int64_t>(), (I{0, 3, 1, 4, 2, 5}));
  EXPECT_THROW(reshape(a, {4}), ValueError);
  EXPECT_THROW(reshape(a, {-1, -1}), ValueError);
  EXPECT_EQ(reshape(arange(1), Shape{}).ndim(), 0);
}

TEST(RoutinesManipulation, Ravel) {
  Array a = arange(6).reshape({2, 3});
  EXPECT_TRUE(ravel(a).shares_memory_with(a));
  EXPECT_EQ(ravel(a, Order::kF).to_vector<int64_t>(), (I{0, 3, 1, 4, 2, 5}));
  Array neg = a.index({reversed(), reversed()});
  EXPECT_EQ(ravel(neg).to_vector<int64_t>(), (I{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(ravel(a.transpose(), Order::kK).to_vector<int64_t>(), (I{0, 1, 2, 3, 4, 5}));
}

TEST(RoutinesManipulation, TransposeSwapaxesMoveaxis) {
  Array a = arange(24).reshape({2, 3, 4});
  EXPECT_EQ(transpose(a).shape(), (Shape{4, 3, 2}));
  Array p = transpose(a, {1, 2, 0});
  EXPECT_EQ(p.shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(p.strides(), (Strides{32, 8, 96}));
  EXPECT_TRUE(p.shares_memory_with(a));
  EXPECT_THROW(transpose(a, {0, 1}), ValueError);
  EXPECT_THROW(transpose(a, {0, 1, 1}), ValueError);
  EXPECT_EQ(swapaxes(a, 0, -1).shape(), (Shape{4, 3, 2}));
  EXPECT_THROW(swapaxes(a, 0, 3), AxisError);
  EXPECT_EQ(moveaxis(a, 0, -1).shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(moveaxis(a, -1, 0).shape(), (Shape{4, 2, 3}));
  EXPECT_EQ(moveaxis(a, {0, 1}, {-1, -2}).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(moveaxis(a, {0, 2}, {2, 0}).strides(), (Strides{8, 32, 96}));
  // NumPy's exceptions and their messages.
  try {
    moveaxis(a, 3, 0);
    FAIL();
  } catch (const AxisError& e) {
    EXPECT_STREQ(e.what(), "source: axis 3 is out of bounds for array of dimension 3");
  }
  EXPECT_THROW(moveaxis(a, 0, -4), AxisError);
  EXPECT_THROW(moveaxis(a, {0, 0}, {0, 1}), ValueError);
  EXPECT_THROW(moveaxis(a, {0, 1}, {1, 1}), ValueError);
  EXPECT_THROW(moveaxis(a, {0}, {0, 1}), ValueError);
}

TEST(RoutinesManipulation, SqueezeAndExpandDims) {
  Array a = arange(6).reshape({1, 2, 1, 3});
  EXPECT_EQ(squeeze(a).shape(), (Shape{2, 3}));
  EXPECT_EQ(squeeze(a, {-2}).shape(), (Shape{1, 2, 3}));
  EXPECT_THROW(squeeze(a, {1}), ValueError);
  EXPECT_THROW(squeeze(a, {4}), AxisError);
  EXPECT_EQ(squeeze(arange(1).reshape({1, 1})).ndim(), 0);
  Array b = arange(6).reshape({2, 3});
  EXPECT_EQ(expand_dims(b, 0).shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(expand_dims(b, -1).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(expand_dims(b, {0, 3}).shape(), (Shape{1, 2, 3, 1}));
  EXPECT_EQ(expand_dims(b, {0, -1}).shape(), (Shape{1, 2, 3, 1}));
  EXPECT_TRUE(expand_dims(b, 1).shares_memory_with(b));
  EXPECT_THROW(expand_dims(b, 3), AxisError);
  try {
    expand_dims(b, {0, 0});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "repeated axis");
  }
  EXPECT_EQ(expand_dims(scalar_array(1.0), 0).shape(), (Shape{1}));
}

TEST(RoutinesManipulation, BroadcastToAndArrays) {
  Array a = i64({1, 2, 3});
  Array b = broadcast_to(a, {2, 3});
  EXPECT_EQ(b.strides(), (Strides{0, 8}));
  EXPECT_FALSE(b.writeable());
  EXPECT_EQ(b.to_vector<int64_t>(), (I{1, 2, 3, 1, 2, 3}));
  EXPECT_THROW(broadcast_to(a, {4}), ValueError);
  EXPECT_THROW(broadcast_to(a, Shape{}), ValueError);
  EXPECT_THROW(broadcast_to(a, {-1, 3}), ValueError);
  EXPECT_EQ(broadcast_to(scalar_array(5), {2}).to_vector<int>(), (std::vector<int>{5, 5}));
  std::vector<Array> r = broadcast_arrays({a, arange(2).reshape({2, 1}), scalar_array(1.5)});
  ASSERT_EQ(r.size(), 3u);
  for (const Array& x : r) EXPECT_EQ(x.shape(), (Shape{2, 3}));
  EXPECT_EQ(r[1].to_vector<int64_t>(), (I{0, 0, 0, 1, 1, 1}));
  EXPECT_THROW(broadcast_arrays({a, arange(2)}), ValueError);
}

// ---- joining ----

TEST(RoutinesManipulation, Concatenate) {
  Array a = arange(6).reshape({2, 3});
  Array b = arange(3).reshape({1, 3});
  Array c = concatenate({a, b}, 0);
  EXPECT_EQ(c.shape(), (Shape{3, 3}));
  EXPECT_EQ(c.to_vector<int64_t>(), (I{0, 1, 2, 3, 4, 5, 0, 1, 2}));
  EXPECT_EQ(concatenate({a, a}, -1).to_vector<int64_t>(), (I{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  Array flat = concatenate({a, b}, std::nullopt);
  EXPECT_EQ(flat.shape(), (Shape{9}));
  // Promotion, a dtype, negative strides and an empty input.
  Array f = f64({0.5});
  EXPECT_EQ(concatenate({i64({1}), f}).dtype(), Dtype::kFloat64);
  EXPECT_EQ(concatenate({f, f}, 0, Dtype::kFloat32).dtype(), Dtype::kFloat32);
  Array rev = arange(3).index({reversed()});
  EXPECT_EQ(concatenate({rev, arange(0), rev}).to_vector<int64_t>(), (I{2, 1, 0, 2, 1, 0}));
}

TEST(RoutinesManipulation, ConcatenateLayoutFollowsInputs) {
  Array a = arange(64, Dtype::kFloat32).reshape({4, 4, 4});
  Array t = a.transpose();
  Array r = concatenate({t, t}, 1);
  EXPECT_EQ(r.shape(), (Shape{4, 8, 4}));
  EXPECT_EQ(r.strides(), (Strides{4, 16, 128}));  // as numpy.concatenate((a.T, a.T), axis=1)
  EXPECT_TRUE(concatenate({a, a}, 0).c_contiguous());
}

TEST(RoutinesManipulation, ConcatenateOutAndCasting) {
  Array a = arange(3);
  Array out = zeros({6}, Dtype::kFloat64);
  Array r = concatenate({a, a}, 0, out);
  EXPECT_TRUE(r.shares_memory_with(out));
  EXPECT_EQ(out.to_vector<double>(), (D{0, 1, 2, 0, 1, 2}));
  EXPECT_THROW(concatenate({a, a}, 0, zeros({5})), ValueError);
  EXPECT_THROW(concatenate({a, a}, 0, zeros({2, 3})), ValueError);
  // same_kind forbids float -> int; unsafe allows it.
  Array f = f64({1.5, 2.5});
  EXPECT_THROW(concatenate({f, f}, 0, Dtype::kInt64), CastingError);
  EXPECT_EQ(concatenate({f, f}, 0, JoinOptions(Dtype::kInt64).with_casting(Casting::kUnsafe)).to_vector<int64_t>(),
            (I{1, 2, 1, 2}));
  EXPECT_THROW(concatenate({f, f}, 0, zeros({4}, Dtype::kInt64)), CastingError);
  JoinOptions both(zeros({4}));
  both.dtype = Dtype::kFloat64;
  EXPECT_THROW(concatenate({f, f}, 0, both), TypeError);
}

TEST(RoutinesManipulation, ConcatenateErrors) {
  Array a = arange(6).reshape({2, 3});
  EXPECT_THROW(concatenate({}), ValueError);
  EXPECT_THROW(concatenate({scalar_array(1), scalar_array(2)}), ValueError);
  EXPECT_THROW(concatenate({a, a}, 2), AxisError);
  try {
    concatenate({a, arange(3)});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "all the input arrays must have same number of dimensions, but the array at index 0 has 2 "
                 "dimension(s) and the array at index 1 has 1 dimension(s)");
  }
  try {
    concatenate({a, zeros({3, 3})}, 1);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "all the input array dimensions except for the concatenation axis must match exactly, but along "
                 "dimension 0, the array at index 0 has size 2 and the array at index 1 has size 3");
  }
}

TEST(RoutinesManipulation, Stack) {
  Array a = i64({1, 2}), b = i64({3, 4});
  Array s0 = stack({a, b});
  EXPECT_EQ(s0.shape(), (Shape{2, 2}));
  EXPECT_EQ(s0.to_vector<int64_t>(), (I{1, 2, 3, 4}));
  Array s1 = stack({a, b}, -1);
  EXPECT_EQ(s1.to_vector<int64_t>(), (I{1, 3, 2, 4}));
  EXPECT_EQ(stack({scalar_array(1.0), scalar_array(2.0)}).shape(), (Shape{2}));
  Array out = empty({2, 2}, Dtype::kFloat32);
  stack({a, b}, 1, out);
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{1, 3, 2, 4}));
  EXPECT_THROW(stack({}), ValueError);
  EXPECT_THROW(stack({a, i64({1, 2, 3})}), ValueError);
  EXPECT_THROW(stack({a, b}, 2), AxisError);
}

// ---- where ----

TEST(RoutinesManipulation, WhereSelects) {
  Array c = asarray(std::vector<bool>{true, false, true});
  Array w = where(c, i64({1, 2, 3}), i64({-1, -2, -3}));
  EXPECT_EQ(w.to_vector<int64_t>(), (I{1, -2, 3}));
  // Broadcasting condition, x and y together.
  Array x = arange(6).reshape({2, 3});
  Array y = i64({-1, -2}).reshape({2, 1});
  EXPECT_EQ(where(c, x, y).to_vector<int64_t>(), (I{0, -1, 2, 3, -2, 5}));
  EXPECT_THROW(where(c, arange(4), arange(3)), ValueError);
  // A non-bool condition counts non-zero elements as true.
  EXPECT_EQ(where(f64({0.0, 2.0, -0.5}), 1, 0).to_vector<int64_t>(), (I{0, 1, 1}));
  // A 0-d condition, and negative strides.
  EXPECT_EQ(where(scalar_array(false), x, -1.0).to_vector<double>(), D(6, -1.0));
  Array rev = arange(3).index({reversed()});
  EXPECT_EQ(where(c, rev, 9).to_vector<int64_t>(), (I{2, 9, 0}));
}

TEST(RoutinesManipulation, WherePromotion) {
  Array c = asarray(std::vector<bool>{true, false});
  Array i8 = asarray(std::vector<int8_t>{1, 2});
  Array u8 = asarray(std::vector<uint8_t>{3, 4});
  Array f32 = asarray(std::vector<float>{1, 2});
  EXPECT_EQ(where(c, i8, u8).dtype(), Dtype::kInt16);
  EXPECT_EQ(where(c, i8, f32).dtype(), Dtype::kFloat32);
  EXPECT_EQ(where(c, asarray(std::vector<int64_t>{1, 2}), asarray(std::vector<uint64_t>{1, 2})).dtype(),
            Dtype::kFloat64);
  // Weak C++ numbers keep the array's dtype (NEP 50).
  EXPECT_EQ(where(c, i8, 1).dtype(), Dtype::kInt8);
  EXPECT_EQ(where(c, 2, i8).dtype(), Dtype::kInt8);
  EXPECT_EQ(where(c, f32, 0.5).dtype(), Dtype::kFloat32);
  EXPECT_EQ(where(c, i8, 0.5).dtype(), Dtype::kFloat64);
  // Two lone numbers take their default dtypes.
  EXPECT_EQ(where(c, 1, 2).dtype(), Dtype::kInt64);
  EXPECT_EQ(where(c, 1, 2.0).dtype(), Dtype::kFloat64);
  EXPECT_EQ(where(c, 1, 2.0).to_vector<double>(), (D{1.0, 2.0}));
  // An int out of the array's range wraps as numpy.where does.
  EXPECT_EQ(where(c, i8, 1000).to_vector<int>(), (std::vector<int>{1, -24}));
}

TEST(RoutinesManipulation, WhereOneArgumentIsNonzero) {
  Array n = i64({0, 1, 0, 2, 0, 3}).reshape({2, 3});
  std::vector<Array> idx = where(n);
  ASSERT_EQ(idx.size(), 2u);
  EXPECT_EQ(idx[0].dtype(), Dtype::kInt64);
  EXPECT_EQ(idx[0].to_vector<int64_t>(), (I{0, 1, 1}));
  EXPECT_EQ(idx[1].to_vector<int64_t>(), (I{1, 0, 2}));
  // Non-contiguous input: the transpose.
  std::vector<Array> t = where(n.transpose());
  EXPECT_EQ(t[0].to_vector<int64_t>(), (I{0, 1, 2}));
  EXPECT_EQ(t[1].to_vector<int64_t>(), (I{1, 0, 1}));
  EXPECT_EQ(where(zeros({0, 3}))[0].size(), 0);
  EXPECT_THROW(where(scalar_array(1)), ValueError);
}

// ---- clip ----

TEST(RoutinesManipulation, ClipScalars) {
  Array a = i64({-3, 0, 5, 9});
  EXPECT_EQ(clip(a, 0, 5).to_vector<int64_t>(), (I{0, 0, 5, 5}));
  EXPECT_EQ(clip(a, 0, 5).dtype(), Dtype::kInt64);
  EXPECT_EQ(clip(a, std::nullopt, 1).to_vector<int64_t>(), (I{-3, 0, 1, 1}));
  EXPECT_EQ(clip(a, 1, std::nullopt).to_vector<int64_t>(), (I{1, 1, 5, 9}));
  // min > max gives max everywhere.
  EXPECT_EQ(clip(a, 5, 1).to_vector<int64_t>(), (I{1, 1, 1, 1}));
  // No bounds: a copy.
  Array c = clip(a, std::nullopt, std::nullopt);
  EXPECT_FALSE(c.shares_memory_with(a));
  EXPECT_EQ(c.to_vector<int64_t>(), (I{-3, 0, 5, 9}));
}

TEST(RoutinesManipulation, ClipDtypes) {
  Array i8 = asarray(std::vector<int8_t>{1, -5, 100});
  // Weak ints keep int8; ones beyond its range are clamped, not an error.
  Array r = clip(i8, -1000, 1000);
  EXPECT_EQ(r.dtype(), Dtype::kInt8);
  EXPECT_EQ(r.to_vector<int>(), (std::vector<int>{1, -5, 100}));
  EXPECT_EQ(clip(asarray(std::vector<uint8_t>{0, 7}), -1, 5).to_vector<int>(), (std::vector<int>{0, 5}));
  // A float bound promotes an int array to float64.
  Array p = clip(i8, 0, 1.5);
  EXPECT_EQ(p.dtype(), Dtype::kFloat64);
  EXPECT_EQ(p.to_vector<double>(), (D{1.0, 0.0, 1.5}));
  // A strong (array) bound takes part in the promotion.
  EXPECT_EQ(clip(i8, scalar_array(0.0f), 3).dtype(), Dtype::kFloat32);
  Array f = asarray(std::vector<float>{0.5f, 2.0f});
  EXPECT_EQ(clip(f, 0, 1).dtype(), Dtype::kFloat32);
}

TEST(RoutinesManipulation, ClipArraysNanAndOut) {
  Array a = arange(6, Dtype::kFloat64).reshape({2, 3});
  Array lo = f64({1, 0, 4});
  Array hi = f64({2, 3}).reshape({2, 1});
  EXPECT_EQ(clip(a, lo, hi).to_vector<double>(), (D{1, 1, 2, 3, 3, 3}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> r = clip(f64({nan, 0.5, 7}), 0, 1).to_vector<double>();
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], 0.5);
  EXPECT_EQ(r[2], 1.0);
  EXPECT_TRUE(std::isnan(clip(f64({0.5}), nan, 1).to_vector<double>()[0]));
  Array out = empty({2, 3});
  Array got = clip(a, 1, 4, out);
  EXPECT_TRUE(got.shares_memory_with(out));
  EXPECT_EQ(out.to_vector<double>(), (D{1, 1, 2, 3, 4, 4}));
  EXPECT_THROW(clip(a, 0, 1, zeros({2, 3}, Dtype::kInt64)), CastingError);
  // Negative strides in the input.
  Array rev = arange(4).index({reversed()});
  EXPECT_EQ(clip(rev, 1, 2).to_vector<int64_t>(), (I{2, 2, 1, 1}));
}

TEST(RoutinesManipulation, RepeatElementsAndSlices) {
  EXPECT_EQ(repeat(i64({1, 2, 3}), 2).to_vector<int64_t>(), (I{1, 1, 2, 2, 3, 3}));
  Array m = arange(6).reshape({2, 3});
  Array r = repeat(m, i64({0, 2, 1}), 1);  // column 0 dropped, column 1 twice
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(r.to_vector<int64_t>(), (I{1, 1, 2, 4, 4, 5}));
  EXPECT_EQ(repeat(m, 0).size(), 0);
  EXPECT_THROW(repeat(m, -1), ValueError);
  EXPECT_THROW(repeat(m, i64({1, 2}), 1), ValueError);
}
