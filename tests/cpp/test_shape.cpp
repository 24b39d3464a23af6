#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/shape.h"

using namespace kumo;

TEST(Shape, SizeAndStrides) {
  Shape s{2, 3, 4};
  EXPECT_EQ(shape_size(s), 24);
  EXPECT_EQ(shape_size(Shape{}), 1);
  EXPECT_EQ(c_strides(s, 4), (Strides{48, 16, 4}));
  EXPECT_EQ(f_strides(s, 4), (Strides{4, 8, 24}));
}

TEST(Shape, ContiguityIgnoresUnitAxesAndEmpty) {
  EXPECT_TRUE(is_c_contiguous(Shape{3, 1, 4}, Strides{16, 999, 4}, 4));
  EXPECT_FALSE(is_c_contiguous(Shape{3, 4}, Strides{4, 12}, 4));
  EXPECT_TRUE(is_f_contiguous(Shape{3, 4}, Strides{4, 12}, 4));
  EXPECT_TRUE(is_c_contiguous(Shape{0, 4}, Strides{123, -7}, 4));
}

TEST(Shape, Broadcasting) {
  EXPECT_EQ(broadcast_shapes({Shape{3, 1}, Shape{4}}), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes({Shape{}, Shape{2, 2}}), (Shape{2, 2}));
  EXPECT_EQ(broadcast_shapes({Shape{0}, Shape{1}}), (Shape{0}));
  EXPECT_THROW(broadcast_shapes({Shape{2, 3}, Shape{4}}), ValueError);
  EXPECT_EQ(broadcast_strides(Shape{1, 4}, Strides{16, 4}, Shape{3, 4}), (Strides{0, 4}));
}

TEST(Shape, BroadcastErrorNamesShapes) {
  try {
    broadcast_shapes({Shape{2, 3}, Shape{4}});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(2, 3) (4,)"), std::string::npos);
  }
}

TEST(Shape, AxisNormalization) {
  EXPECT_EQ(normalize_axis(-1, 3), 2);
  EXPECT_THROW(normalize_axis(3, 3), AxisError);
  EXPECT_THROW(normalize_axes({0, -3}, 3), ValueError);
  EXPECT_THROW(Dims(kMaxNdim + 1), ValueError);
}
