#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/array.h"
#include "core/errors.h"

using namespace kumo;

namespace {

Array iota_f64(const Shape& shape) {
  Array a = Array::empty(shape, Dtype::kFloat64, host_device());
  double* p = reinterpret_cast<double*>(a.data());
  for (int64_t i = 0; i < a.size(); ++i) p[i] = static_cast<double>(i);
  return a;
}

double at(const Array& a, std::initializer_list<int64_t> idx) {
  int64_t off = 0;
  int k = 0;
  for (int64_t i : idx) off += i * a.strides()[k++];
  return *reinterpret_cast<const double*>(a.data() + off);
}

}  // namespace

TEST(Array, EmptyIsCOrF) {
  Array c = Array::empty(Shape{2, 3}, Dtype::kFloat32, host_device());
  EXPECT_TRUE(c.c_contiguous());
  EXPECT_EQ(c.strides(), (Strides{12, 4}));
  Array f = Array::empty(Shape{2, 3}, Dtype::kFloat32, host_device(), Order::kF);
  EXPECT_TRUE(f.f_contiguous());
  EXPECT_FALSE(f.c_contiguous());
  EXPECT_THROW(Array::empty(Shape{-1}, Dtype::kFloat32, host_device()), ValueError);
}

TEST(Array, SlicingSharesMemoryWithSteps) {
  Array a = iota_f64(Shape{4, 5});
  Array v = a.index({IndexItem::slice(std::nullopt, std::nullopt, -1), IndexItem::slice(1, 5, 2)});
  EXPECT_TRUE(v.shares_memory_with(a));
  EXPECT_EQ(v.shape(), (Shape{4, 2}));
  EXPECT_EQ(v.strides(), (Strides{-40, 16}));
  EXPECT_EQ(at(v, {0, 0}), 16.0);
  EXPECT_EQ(at(v, {3, 1}), 3.0);
}

TEST(Array, IntegerIndexDropsAxisAndChecksBounds) {
  Array a = iota_f64(Shape{3, 4});
  Array row = a.index({IndexItem::integer(-1)});
  EXPECT_EQ(row.shape(), (Shape{4}));
  EXPECT_EQ(at(row, {0}), 8.0);
  EXPECT_THROW(a.index({IndexItem::integer(3)}), IndexError);
  EXPECT_THROW(a.index({IndexItem::integer(0), IndexItem::integer(0), IndexItem::integer(0)}), IndexError);
}

TEST(Array, NewAxisAndEllipsis) {
  Array a = iota_f64(Shape{2, 3});
  Array v = a.index({IndexItem::ellipsis(), IndexItem::new_axis()});
  EXPECT_EQ(v.shape(), (Shape{2, 3, 1}));
}

TEST(Array, ReshapeIsAViewWhenStridesAllow) {
  Array a = iota_f64(Shape{2, 6});
  auto v = a.reshape_view(Shape{3, -1});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->shape(), (Shape{3, 4}));
  // A transposed array cannot be flattened in C order without a copy.
  EXPECT_FALSE(a.transpose().reshape_view(Shape{12}).has_value());
  Array c = a.transpose().reshape(Shape{12});
  EXPECT_FALSE(c.shares_memory_with(a));
  EXPECT_EQ(at(c, {1}), 6.0);
  EXPECT_THROW(a.reshape(Shape{5, -1}), ValueError);
}

TEST(Array, ReshapeOfStridedSplitsAxes) {
  Array a = iota_f64(Shape{4, 6});
  Array v = a.index({IndexItem::slice(std::nullopt, std::nullopt, 1), IndexItem::slice(std::nullopt, std::nullopt, 2)});
  auto r = v.reshape_view(Shape{2, 2, 3});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(at(*r, {1, 1, 2}), at(v, {3, 2}));
}

TEST(Array, BroadcastToIsReadOnly) {
  Array a = iota_f64(Shape{1, 3});
  Array b = a.broadcast_to(Shape{4, 3});
  EXPECT_EQ(b.strides(), (Strides{0, 8}));
  EXPECT_FALSE(b.writeable());
  EXPECT_THROW(a.copy_to(b), ValueError);
  EXPECT_THROW(a.broadcast_to(Shape{3, 2}), ValueError);
}

TEST(Array, SqueezeAndExpandDims) {
  Array a = iota_f64(Shape{1, 3, 1});
  EXPECT_EQ(a.squeeze().shape(), (Shape{3}));
  EXPECT_EQ(a.squeeze({0}).shape(), (Shape{3, 1}));
  EXPECT_THROW(a.squeeze({1}), ValueError);
  EXPECT_EQ(a.expand_dims({0, -1}).shape(), (Shape{1, 1, 3, 1, 1}));
}

TEST(Array, AstypeHonoursOrder) {
  Array a = iota_f64(Shape{2, 3}).transpose();  // F-contiguous (3, 2)
  Array k = a.astype(Dtype::kFloat32, Order::kK);
  EXPECT_TRUE(k.f_contiguous());
  Array c = a.astype(Dtype::kFloat32, Order::kC);
  EXPECT_TRUE(c.c_contiguous());
  float v;
  std::memcpy(&v, c.data() + c.strides()[0] * 2 + c.strides()[1], 4);
  EXPECT_EQ(v, 5.0f);
  EXPECT_TRUE(a.astype(Dtype::kFloat64, Order::kK, false).shares_memory_with(a));
}

TEST(Array, CopyOfNegativeStrides) {
  Array a = iota_f64(Shape{5});
  Array r = a.index({IndexItem::slice(std::nullopt, std::nullopt, -2)}).copy(Order::kC);
  EXPECT_EQ(r.shape(), (Shape{3}));
  EXPECT_EQ(at(r, {0}), 4.0);
  EXPECT_EQ(at(r, {2}), 0.0);
}

TEST(Array, ViewAsOtherDtype) {
  Array a = iota_f64(Shape{2, 2});
  Array v = a.view_as(Dtype::kFloat32);
  EXPECT_EQ(v.shape(), (Shape{2, 4}));
  EXPECT_THROW(a.transpose().view_as(Dtype::kFloat32), ValueError);
}

TEST(Array, DiagonalView) {
  Array a = iota_f64(Shape{3, 4});
  Array d = a.diagonal(1, 0, 1);
  EXPECT_EQ(d.shape(), (Shape{3}));
  EXPECT_EQ(at(d, {2}), 11.0);
}
