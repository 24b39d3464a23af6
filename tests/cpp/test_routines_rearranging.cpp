// flip, roll, rot90, resize, append, insert, delete, trim_zeros and vander
// (routines/rearranging.h) through the public C++ API, against NumPy 2.4.
#include <gtest/gtest.h>

#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {
using I = std::vector<int64_t>;
using D = std::vector<double>;
}  // namespace

TEST(RoutinesRearranging, FlipIsAView) {
  Array a = arange(6).reshape({2, 3});
  Array f = flip(a, 1);
  EXPECT_TRUE(f.shares_memory_with(a));
  EXPECT_EQ(f.to_vector<int64_t>(), (I{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(flip(a).to_vector<int64_t>(), (I{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(flipud(a).to_vector<int64_t>(), (I{3, 4, 5, 0, 1, 2}));
  EXPECT_THROW(flip(a, 2), AxisError);
  EXPECT_THROW(flip(a, std::vector<int64_t>{0, -2}), ValueError);
  EXPECT_THROW(fliplr(arange(3)), ValueError);
}

TEST(RoutinesRearranging, Roll) {
  Array a = arange(6).reshape({2, 3});
  EXPECT_EQ(roll(a, 1).to_vector<int64_t>(), (I{5, 0, 1, 2, 3, 4}));
  EXPECT_EQ(roll(a, -1, 1).to_vector<int64_t>(), (I{1, 2, 0, 4, 5, 3}));
  EXPECT_EQ(roll(a, {1, 1}, std::vector<int64_t>{0, 1}).to_vector<int64_t>(), (I{5, 3, 4, 2, 0, 1}));
  EXPECT_THROW(roll(a, {1, 2, 3}, std::vector<int64_t>{0, 1}), ValueError);
}

TEST(RoutinesRearranging, Rot90) {
  Array a = arange(6).reshape({2, 3});
  Array r = rot90(a);
  EXPECT_EQ(r.shape(), (Shape{3, 2}));
  EXPECT_EQ(r.to_vector<int64_t>(), (I{2, 5, 1, 4, 0, 3}));
  EXPECT_TRUE(r.shares_memory_with(a));
  EXPECT_EQ(rot90(a, -1).to_vector<int64_t>(), (I{3, 0, 4, 1, 5, 2}));
  EXPECT_THROW(rot90(a, 1, {0, 0}), ValueError);
  EXPECT_THROW(rot90(a, 1, {0, 2}), ValueError);
}

TEST(RoutinesRearranging, ResizeAndAppend) {
  Array a = arange(3);
  EXPECT_EQ(resize(a, {2, 4}).to_vector<int64_t>(), (I{0, 1, 2, 0, 1, 2, 0, 1}));
  EXPECT_EQ(resize(arange(0), {2}).to_vector<int64_t>(), (I{0, 0}));
  EXPECT_THROW(resize(a, {-1}), ValueError);
  Array b = append(arange(4).reshape({2, 2}), arange(2));
  EXPECT_EQ(b.to_vector<int64_t>(), (I{0, 1, 2, 3, 0, 1}));
}

TEST(RoutinesRearranging, InsertAndDelete) {
  Array a = arange(5);
  Array v = full(Shape{}, Scalar(9), Dtype::kInt64);
  EXPECT_EQ(insert(a, 2, v).to_vector<int64_t>(), (I{0, 1, 9, 2, 3, 4}));
  EXPECT_EQ(insert(a, asarray<int64_t>({4, 0, 4}), v).to_vector<int64_t>(), (I{9, 0, 1, 2, 3, 9, 9, 4}));
  EXPECT_EQ(insert(a, kumo::slice(std::nullopt, std::nullopt, 2), v).to_vector<int64_t>(), (I{9, 0, 1, 9, 2, 3, 9, 4}));
  EXPECT_THROW(insert(a, 7, v), IndexError);
  EXPECT_EQ(delete_(a, -1).to_vector<int64_t>(), (I{0, 1, 2, 3}));
  EXPECT_EQ(delete_(a, kumo::slice(std::nullopt, std::nullopt, 2)).to_vector<int64_t>(), (I{1, 3}));
  EXPECT_EQ(delete_(a, asarray<int64_t>({0, 3, 3})).to_vector<int64_t>(), (I{1, 2, 4}));
  EXPECT_EQ(delete_(arange(6).reshape({2, 3}), 1, 1).to_vector<int64_t>(), (I{0, 2, 3, 5}));
  EXPECT_THROW(delete_(a, 5), IndexError);
}

TEST(RoutinesRearranging, TrimZerosAndVander) {
  Array a = asarray<int64_t>({0, 0, 3, 0, 4, 0});
  Array t = trim_zeros(a);
  EXPECT_TRUE(t.shares_memory_with(a));
  EXPECT_EQ(t.to_vector<int64_t>(), (I{3, 0, 4}));
  EXPECT_EQ(trim_zeros(a, "b").to_vector<int64_t>(), (I{0, 0, 3, 0, 4}));
  EXPECT_EQ(trim_zeros(zeros(Shape{3})).size(), 0);
  EXPECT_THROW(trim_zeros(a, "x"), ValueError);
  Array v = vander(asarray<double>({1, 2, 3}), 3);
  EXPECT_EQ(v.to_vector<double>(), (D{1, 1, 1, 4, 2, 1, 9, 3, 1}));
  EXPECT_EQ(vander(asarray<int32_t>({2}), 3, true).dtype(), Dtype::kInt64);
  EXPECT_THROW(vander(zeros(Shape{2, 2})), ValueError);
}
