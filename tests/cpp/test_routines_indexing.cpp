// Advanced indexing and the index routines of the C++ API against values
// worked out with NumPy 2.
#include <gtest/gtest.h>

#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

using I = std::vector<int64_t>;
using D = std::vector<double>;

Array i64(std::initializer_list<int64_t> v) { return asarray(std::vector<int64_t>(v)); }
Array grid(int64_t rows, int64_t cols) { return arange(rows * cols).reshape({rows, cols}); }

}  // namespace

TEST(RoutinesIndexing, IntegerArrayTakesRows) {
  Array b = getitem(grid(3, 4), {i64({2, 0, -1})});
  EXPECT_EQ(b.shape(), (Shape{3, 4}));
  EXPECT_EQ(b.to_vector<int64_t>(), (I{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11}));
}

TEST(RoutinesIndexing, AdjacentIndexArraysReplaceTheirAxesInPlace) {
  // a[:, [1, 0], [2, 3]] of a (2, 3, 4) array: shape (2, 2).
  Array a = arange(24).reshape({2, 3, 4});
  Array b = getitem(a, {all(), i64({1, 0}), i64({2, 3})});
  EXPECT_EQ(b.shape(), (Shape{2, 2}));
  EXPECT_EQ(b.to_vector<int64_t>(), (I{6, 3, 18, 15}));
}

TEST(RoutinesIndexing, SeparatedIndexArraysGoFirst) {
  // a[[0, 1], :, [2, 3]]: the slice separates them, so (2, 3).
  Array a = arange(24).reshape({2, 3, 4});
  Array b = getitem(a, {i64({0, 1}), all(), i64({2, 3})});
  EXPECT_EQ(b.shape(), (Shape{2, 3}));
  EXPECT_EQ(b.to_vector<int64_t>(), (I{2, 6, 10, 15, 19, 23}));
  // An integer counts as an index array: a[0, :, [1, 2]] has shape (2, 3).
  EXPECT_EQ(getitem(a, {0, all(), i64({1, 2})}).shape(), (Shape{2, 3}));
}

TEST(RoutinesIndexing, IndexArraysBroadcast) {
  Array rows = i64({0, 2}).reshape({2, 1});
  Array b = getitem(grid(3, 4), {rows, i64({1, 3})});
  EXPECT_EQ(b.shape(), (Shape{2, 2}));
  EXPECT_EQ(b.to_vector<int64_t>(), (I{1, 3, 9, 11}));
  EXPECT_THROW(getitem(grid(3, 4), {i64({0, 1}), i64({0, 1, 2})}), IndexError);
}

TEST(RoutinesIndexing, OutOfBoundsIndexRaises) {
  EXPECT_THROW(getitem(grid(3, 4), {i64({0, 3})}), IndexError);
  EXPECT_THROW(getitem(grid(3, 4), {all(), i64({-5})}), IndexError);
  EXPECT_THROW(setitem(grid(3, 4), {i64({7})}, Scalar(1)), IndexError);
}

TEST(RoutinesIndexing, BooleanMaskSelectsInCOrder) {
  Array a = grid(3, 4);
  Array m = greater(remainder(a, 3), 1);  // 2, 5, 8, 11
  Array b = getitem(a, {m});
  EXPECT_EQ(b.to_vector<int64_t>(), (I{2, 5, 8, 11}));
  // A mask over the first axis only.
  Array rows = asarray<bool>({true, false, true});
  EXPECT_EQ(getitem(a, {rows}).shape(), (Shape{2, 4}));
  EXPECT_THROW(getitem(a, {asarray<bool>({true, false})}), IndexError);
}

TEST(RoutinesIndexing, BooleanScalarAddsAnAxis) {
  Array a = grid(3, 4);
  EXPECT_EQ(getitem(a, {true}).shape(), (Shape{1, 3, 4}));
  EXPECT_EQ(getitem(a, {false}).shape(), (Shape{0, 3, 4}));
  EXPECT_EQ(getitem(a, {all(), true, i64({1, 2})}).shape(), (Shape{3, 2}));
}

TEST(RoutinesIndexing, MaskAssignmentWithAScalar) {
  Array a = arange(-3, 3);
  setitem(a, {less(a, -1)}, Scalar(0));
  EXPECT_EQ(a.to_vector<int64_t>(), (I{0, 0, -1, 0, 1, 2}));
}

TEST(RoutinesIndexing, AssignmentBroadcastsTheValue) {
  Array a = zeros({3, 4}, Dtype::kFloat64);
  setitem(a, {i64({0, 2})}, asarray<double>({1, 2, 3, 4}));
  EXPECT_EQ(a.to_vector<double>(), (D{1, 2, 3, 4, 0, 0, 0, 0, 1, 2, 3, 4}));
  EXPECT_THROW(setitem(a, {i64({0, 2})}, asarray<double>({1, 2, 3})), ValueError);
}

TEST(RoutinesIndexing, RepeatedIndicesLastWriteWins) {
  Array a = zeros({3}, Dtype::kInt64);
  setitem(a, {i64({1, 1, 1})}, i64({5, 6, 7}));
  EXPECT_EQ(a.to_vector<int64_t>(), (I{0, 7, 0}));
}

TEST(RoutinesIndexing, ScatterAddAccumulatesRepeats) {
  Array a = zeros({3}, Dtype::kFloat32);
  scatter_add(a, {i64({0, 2, 0, 0})}, asarray<float>({1, 2, 3, 4}));
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{8, 0, 2}));
  Array g = zeros({3, 2}, Dtype::kInt8);
  scatter_add(g, {i64({1, 1})}, ones({2, 2}, Dtype::kInt8));
  EXPECT_EQ(g.to_vector<int64_t>(), (I{0, 0, 2, 2, 0, 0}));
  EXPECT_THROW(scatter_add(zeros({3}, Dtype::kInt64), {i64({0})}, asarray<double>({1.5})), TypeError);  // same_kind
}

TEST(RoutinesIndexing, NonzeroGivesOneArrayPerAxis) {
  Array a = asarray<double>({0, 1, 0, 2, 3, 0}, {2, 3});
  std::vector<Array> nz = nonzero(a);
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(nz[0].to_vector<int64_t>(), (I{0, 1, 1}));
  EXPECT_EQ(nz[1].to_vector<int64_t>(), (I{1, 0, 1}));
  EXPECT_EQ(argwhere(a).shape(), (Shape{3, 2}));
  EXPECT_EQ(flatnonzero(a).to_vector<int64_t>(), (I{1, 3, 4}));
  EXPECT_THROW(nonzero(scalar_array(1.0)), ValueError);
}

TEST(RoutinesIndexing, NonzeroOfALargeStridedMask) {
  // Larger than one compaction chunk, reversed, and not contiguous.
  const int64_t n = 300000;
  Array a = remainder(arange(n), 7).reshape({n / 2, 2})(kumo::slice(std::nullopt, std::nullopt, -1), 0);
  Array m = equal(a, 0);
  std::vector<Array> nz = nonzero(m);
  const std::vector<int64_t> got = nz[0].to_vector<int64_t>();
  const std::vector<bool> mask = m.to_vector<bool>();
  std::vector<int64_t> want;
  for (size_t k = 0; k < mask.size(); ++k)
    if (mask[k]) want.push_back(static_cast<int64_t>(k));
  EXPECT_EQ(got, want);
  EXPECT_EQ(getitem(a, {m}).size(), static_cast<int64_t>(want.size()));
}

TEST(RoutinesIndexing, TakeWithModes) {
  Array a = asarray<double>({10, 20, 30});
  EXPECT_EQ(take(a, i64({2, -1, 0})).to_vector<double>(), (D{30, 30, 10}));
  EXPECT_EQ(take(a, i64({4, -4}), std::nullopt, IndexMode::kWrap).to_vector<double>(), (D{20, 30}));
  EXPECT_EQ(take(a, i64({4, -4}), std::nullopt, IndexMode::kClip).to_vector<double>(), (D{30, 10}));
  EXPECT_THROW(take(a, i64({3})), IndexError);
  Array t = take(grid(3, 4), i64({3, 0}), 1);
  EXPECT_EQ(t.shape(), (Shape{3, 2}));
  EXPECT_EQ(t.to_vector<int64_t>(), (I{3, 0, 7, 4, 11, 8}));
  EXPECT_THROW(take(a, asarray<double>({1.0})), TypeError);
}

TEST(RoutinesIndexing, PutCyclesValuesAndWritesStridedArrays) {
  Array a = zeros({3, 4}, Dtype::kInt64);
  Array v = a(all(), kumo::slice(std::nullopt, std::nullopt, 2));  // (3, 2), strided
  put(v, i64({0, 3, 5}), i64({7, 8}));
  EXPECT_EQ(a.to_vector<int64_t>(), (I{7, 0, 0, 0, 0, 0, 8, 0, 0, 0, 7, 0}));
  EXPECT_THROW(put(a, i64({12}), i64({1})), IndexError);
}

TEST(RoutinesIndexing, AlongAxis) {
  Array a = asarray<double>({3, 1, 2, 9, 7, 8}, {2, 3});
  Array idx = asarray<int64_t>({1, 2, 0, 1, 2, 0}, {2, 3});
  EXPECT_EQ(take_along_axis(a, idx, 1).to_vector<double>(), (D{1, 2, 3, 7, 8, 9}));
  put_along_axis(a, asarray<int64_t>({0, 0}, {2, 1}), asarray<double>({-1, -2}, {2, 1}), 1);
  EXPECT_EQ(a.to_vector<double>(), (D{-1, 1, 2, -2, 7, 8}));
}

TEST(RoutinesIndexing, CompressPutmaskPlace) {
  Array a = grid(2, 3);
  EXPECT_EQ(compress(asarray<bool>({false, true, true}), a, 1).to_vector<int64_t>(), (I{1, 2, 4, 5}));
  Array b = arange(6);
  putmask(b, greater(b, 2), i64({-1, -2}));
  EXPECT_EQ(b.to_vector<int64_t>(), (I{0, 1, 2, -2, -1, -2}));
  Array c = arange(6);
  place(c, greater(c, 2), i64({-1, -2}));
  EXPECT_EQ(c.to_vector<int64_t>(), (I{0, 1, 2, -1, -2, -1}));
}

TEST(RoutinesIndexing, UfuncAtAppliesOncePerOccurrence) {
  Array a = asarray<double>({1, 2, 3});
  Scalar two(2.0);
  kernels::UfuncOperand b = two;
  ufunc_at(builtin_ufunc("multiply"), a, {i64({0, 0, 2})}, &b);
  EXPECT_EQ(a.to_vector<double>(), (D{4, 2, 6}));
  ufunc_at(builtin_ufunc("negative"), a, {i64({1, 1, 1})});
  EXPECT_EQ(a.to_vector<double>(), (D{4, -2, 6}));
  // Computed in the loop's type, truncated back into int64 as NumPy's.
  Array n = i64({1, 5});
  kernels::UfuncOperand half(asarray<double>({-0.5, -0.75}));
  ufunc_at(builtin_ufunc("add"), n, {i64({0, 0})}, &half);
  EXPECT_EQ(n.to_vector<int64_t>(), (I{0, 5}));
  EXPECT_THROW(ufunc_at(builtin_ufunc("multiply"), a, {i64({0})}), ValueError);
}
