// The public C++ API as a user meets it: indexing, assignment through views,
// printing, and the exceptions.
#include <gtest/gtest.h>

#include <sstream>

#include "kumo/kumo.h"

using namespace kumo;

TEST(RoutinesApi, IndexingReturnsViews) {
  Array a = asarray({0, 1, 2, 3, 4, 5}, {2, 3});
  EXPECT_EQ(a(1).to_vector<int>(), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(a(1, 2).item<int>(), 5);
  EXPECT_EQ(a(-1, -1).item<int>(), 5);
  EXPECT_EQ(a(all(), 1).to_vector<int>(), (std::vector<int>{1, 4}));
  EXPECT_EQ(a(ellipsis, slice(none, none, -1)).to_vector<int>(), (std::vector<int>{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(a(newaxis, slice(0, 1)).shape(), (Shape{1, 1, 3}));
  EXPECT_TRUE(a(slice(0, 1)).shares_memory_with(a));
  EXPECT_THROW(a(2), IndexError);
  EXPECT_THROW(a(0, 0, 0), IndexError);
  EXPECT_THROW(a(slice(0, 1, 0)), ValueError);
}

TEST(RoutinesApi, AssignmentThroughViews) {
  Array a = asarray({0.0, 1.0, 2.0, 3.0}, {2, 2});
  fill(a(0), 7);
  copyto(a(1), asarray({5.5, 6.5}));
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{7, 7, 5.5, 6.5}));
  Array i = asarray(std::vector<int8_t>{1, 2});
  EXPECT_THROW(fill(i, 1000), OverflowError);
  EXPECT_THROW(copyto(i, asarray({1.5, 2.5})), TypeError);
  copyto(i, asarray({1.5, 2.5}), Casting::kUnsafe);
  EXPECT_EQ(i.to_vector<int>(), (std::vector<int>{1, 2}));
  copyto(i, asarray(std::vector<int8_t>{9, 9}), Casting::kSameKind, asarray(std::vector<bool>{false, true}));
  EXPECT_EQ(i.to_vector<int>(), (std::vector<int>{1, 9}));
  EXPECT_THROW(fill(a.broadcast_to(Shape{3, 2, 2}), 1), ValueError);  // broadcast views are read-only
}

TEST(RoutinesApi, PrintsLikeNumpyRepr) {
  std::ostringstream os;
  os << asarray({0.0f, 1.5f, 2.0f, 3.0f}, {2, 2});
  EXPECT_EQ(os.str(), "array([[0. , 1.5],\n       [2. , 3. ]], dtype=float32)");
  EXPECT_EQ(array_repr(asarray(std::vector<int64_t>{1, -10})), "array([  1, -10])");
  EXPECT_EQ(array_repr(asarray(std::vector<bool>{true, false})), "array([ True, False])");
  EXPECT_EQ(array_repr(scalar_array(2.5)), "array(2.5)");
  EXPECT_EQ(array_repr(asarray({1e-5, 1.0})), "array([1.e-05, 1.e+00])");
  EXPECT_EQ(array_repr(asarray(std::vector<std::complex<double>>{{1, 2}, {3, -1.5}})), "array([1.+2.j , 3.-1.5j])");
  EXPECT_EQ(array_str(asarray({1, 2, 3})), "[1 2 3]");
}
