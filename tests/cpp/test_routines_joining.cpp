// The splitting, tiling and stacking routines of routines/joining.h through
// the public C++ API: NumPy 2.4's pieces, shapes, views and errors.
#include <gtest/gtest.h>

#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {
using I = std::vector<int64_t>;
}  // namespace

TEST(RoutinesJoining, ArraySplitSectionsAndPoints) {
  Array a = arange(7);
  std::vector<Array> p = array_split(a, 3);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].to_vector<int64_t>(), (I{0, 1, 2}));
  EXPECT_EQ(p[1].to_vector<int64_t>(), (I{3, 4}));
  EXPECT_EQ(p[2].to_vector<int64_t>(), (I{5, 6}));
  EXPECT_TRUE(p[1].shares_memory_with(a));  // pieces are views
  std::vector<Array> q = split(a, std::vector<int64_t>{2, -1, 10});
  ASSERT_EQ(q.size(), 4u);
  EXPECT_EQ(q[1].to_vector<int64_t>(), (I{2, 3, 4, 5}));
  EXPECT_EQ(q[3].size(), 0);
}

TEST(RoutinesJoining, SplitErrors) {
  Array a = arange(6);
  EXPECT_THROW(split(a, 4), ValueError);  // not an equal division
  EXPECT_THROW(split(a, 0), ZeroDivisionError);
  EXPECT_THROW(array_split(a, 0), ValueError);
  EXPECT_THROW(split(a, 2, 1), IndexError);  // NumPy reads ary.shape[axis]
  EXPECT_THROW(vsplit(a, 2), ValueError);
  EXPECT_THROW(unstack(a(0)), ValueError);
}

TEST(RoutinesJoining, DirectionalSplitsAndUnstack) {
  Array a = arange(24).reshape({2, 3, 4});
  EXPECT_EQ(hsplit(a, 3)[1].shape(), (Shape{2, 1, 4}));
  EXPECT_EQ(vsplit(a, 2)[0].shape(), (Shape{1, 3, 4}));
  EXPECT_EQ(dsplit(a, std::vector<int64_t>{1})[1].shape(), (Shape{2, 3, 3}));
  std::vector<Array> u = unstack(a, -1);
  ASSERT_EQ(u.size(), 4u);
  EXPECT_EQ(u[1].shape(), (Shape{2, 3}));
  EXPECT_EQ(u[1].to_vector<int64_t>(), (I{1, 5, 9, 13, 17, 21}));
}

TEST(RoutinesJoining, Tile) {
  Array a = arange(3);
  Array t = tile(a, {2, 2});
  EXPECT_EQ(t.shape(), (Shape{2, 6}));
  EXPECT_EQ(t.to_vector<int64_t>(), (I{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}));
  Array b = arange(4).reshape({2, 2});
  EXPECT_EQ(tile(b, {2}).to_vector<int64_t>(), (I{0, 1, 0, 1, 2, 3, 2, 3}));
  Array c = tile(a, {1});
  EXPECT_FALSE(c.shares_memory_with(a));  // always a copy
  EXPECT_EQ(tile(a, {0}).size(), 0);
  EXPECT_THROW(tile(a, {-1}), ValueError);
}

TEST(RoutinesJoining, StackingHelpers) {
  Array a = arange(3), b = arange(3, 6);
  EXPECT_EQ(dstack({a, b}).shape(), (Shape{1, 3, 2}));
  Array c = column_stack({a, b});
  EXPECT_EQ(c.shape(), (Shape{3, 2}));
  EXPECT_EQ(c.to_vector<int64_t>(), (I{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(vstack({a, b}).shape(), (Shape{2, 3}));
  EXPECT_EQ(hstack({a, b}).shape(), (Shape{6}));
  EXPECT_EQ(vstack({a, b}, Dtype::kFloat32).dtype(), Dtype::kFloat32);
}
