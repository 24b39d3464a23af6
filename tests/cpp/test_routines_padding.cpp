// numpy.pad's modes (routines/padding.h) through the public C++ API.
#include <gtest/gtest.h>

#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {
using I = std::vector<int64_t>;
using D = std::vector<double>;
}  // namespace

TEST(RoutinesPadding, ConstantAndEdge) {
  Array a = asarray<int64_t>({1, 2, 3});
  PadOptions o;
  o.constant_values = {{Scalar(-1), Scalar(7)}};
  EXPECT_EQ(pad(a, {{2, 1}}, PadMode::kConstant, o).to_vector<int64_t>(), (I{-1, -1, 1, 2, 3, 7}));
  EXPECT_EQ(pad(a, {{1, 2}}, PadMode::kEdge).to_vector<int64_t>(), (I{1, 1, 2, 3, 3, 3}));
  Array b = arange(4).reshape({2, 2});
  Array p = pad(b, {{1, 1}}, PadMode::kConstant);
  EXPECT_EQ(p.shape(), (Shape{4, 4}));
  EXPECT_EQ(p.to_vector<int64_t>(), (I{0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 3, 0, 0, 0, 0, 0}));
}

TEST(RoutinesPadding, ReflectSymmetricWrap) {
  Array a = asarray<int64_t>({1, 2, 3});
  EXPECT_EQ(pad(a, {{2, 2}}, PadMode::kReflect).to_vector<int64_t>(), (I{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(pad(a, {{2, 2}}, PadMode::kSymmetric).to_vector<int64_t>(), (I{2, 1, 1, 2, 3, 3, 2}));
  EXPECT_EQ(pad(a, {{4, 1}}, PadMode::kWrap).to_vector<int64_t>(), (I{3, 1, 2, 3, 1, 2, 3, 1}));
  PadOptions odd;
  odd.reflect_odd = true;
  EXPECT_EQ(pad(a, {{2, 0}}, PadMode::kReflect, odd).to_vector<int64_t>(), (I{-1, 0, 1, 2, 3}));
  // Pads longer than the data repeat the reflection.
  EXPECT_EQ(pad(a, {{5, 0}}, PadMode::kReflect).to_vector<int64_t>(), (I{2, 1, 2, 3, 2, 1, 2, 3}));
}

TEST(RoutinesPadding, StatisticsAndRamp) {
  Array a = asarray<double>({1, 2, 6});
  EXPECT_EQ(pad(a, {{1, 1}}, PadMode::kMaximum).to_vector<double>(), (D{6, 1, 2, 6, 6}));
  EXPECT_EQ(pad(a, {{1, 1}}, PadMode::kMean).to_vector<double>(), (D{3, 1, 2, 6, 3}));
  EXPECT_EQ(pad(a, {{1, 1}}, PadMode::kMedian).to_vector<double>(), (D{2, 1, 2, 6, 2}));
  PadOptions o;
  o.stat_length = {{1, 2}};
  EXPECT_EQ(pad(a, {{1, 1}}, PadMode::kMinimum, o).to_vector<double>(), (D{1, 1, 2, 6, 2}));
  PadOptions r;
  r.end_values = {{Scalar(0), Scalar(0)}};
  EXPECT_EQ(pad(a, {{2, 0}}, PadMode::kLinearRamp, r).to_vector<double>(), (D{0, 0.5, 1, 2, 6}));
}

TEST(RoutinesPadding, Errors) {
  Array a = arange(3);
  EXPECT_THROW(pad(a, {{-1, 0}}), ValueError);
  PadOptions o;
  o.stat_length = {{0, 0}};
  EXPECT_THROW(pad(a, {{1, 1}}, PadMode::kMaximum, o), ValueError);
  EXPECT_THROW(pad(zeros(Shape{0}), {{1, 1}}, PadMode::kEdge), ValueError);
  EXPECT_THROW(pad_mode_from_string("bogus"), ValueError);
  EXPECT_EQ(pad(zeros(Shape{0}), {{1, 1}}).size(), 2);
}

TEST(RoutinesPadding, LongRowsCopiedRowByRow) {
  // Rows of 64+ elements take the row-by-row copy of the middle (and of
  // concatenate's slabs); reversed rows of the input must still be honoured.
  Array a = arange(3 * 100).reshape({3, 100});
  Array r = a(kumo::slice(std::nullopt, std::nullopt, -1));
  Array p = pad(r, {{1, 1}, {2, 2}}, PadMode::kEdge);
  EXPECT_EQ(p.shape(), (Shape{5, 104}));
  EXPECT_EQ(p(0, 2).item<int64_t>(), 200);
  EXPECT_EQ(p(3, 103).item<int64_t>(), 99);
  Array c = concatenate({a, r}, 1);
  EXPECT_EQ(c(0, 100).item<int64_t>(), 200);
  EXPECT_EQ(c(2, 199).item<int64_t>(), 99);
}
