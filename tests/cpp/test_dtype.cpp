#include <gtest/gtest.h>

#include "core/dtype.h"
#include "core/errors.h"

using namespace kumo;

TEST(Dtype, ItemsizesAndNames) {
  EXPECT_EQ(itemsize(Dtype::kBool), 1u);
  EXPECT_EQ(itemsize(Dtype::kFloat16), 2u);
  EXPECT_EQ(itemsize(Dtype::kComplex128), 16u);
  EXPECT_STREQ(dtype_name(Dtype::kUInt32), "uint32");
  EXPECT_EQ(type_char(Dtype::kComplex64), 'F');
  EXPECT_EQ(kind_char(Dtype::kUInt8), 'u');
}

TEST(Dtype, ParsesNamesAndCharacters) {
  EXPECT_EQ(dtype_from_name("f4"), Dtype::kFloat32);
  EXPECT_EQ(dtype_from_name("float"), Dtype::kFloat64);
  EXPECT_EQ(dtype_from_name("<i8"), Dtype::kInt64);
  EXPECT_EQ(dtype_from_name("?"), Dtype::kBool);
  EXPECT_THROW(dtype_from_name("object"), TypeError);
}

TEST(Dtype, PromotionFollowsNumpy2) {
  EXPECT_EQ(promote_types(Dtype::kInt8, Dtype::kUInt8), Dtype::kInt16);
  EXPECT_EQ(promote_types(Dtype::kInt64, Dtype::kUInt64), Dtype::kFloat64);
  EXPECT_EQ(promote_types(Dtype::kUInt32, Dtype::kInt32), Dtype::kInt64);
  EXPECT_EQ(promote_types(Dtype::kInt16, Dtype::kFloat16), Dtype::kFloat32);
  EXPECT_EQ(promote_types(Dtype::kInt8, Dtype::kFloat16), Dtype::kFloat16);
  EXPECT_EQ(promote_types(Dtype::kFloat64, Dtype::kComplex64), Dtype::kComplex128);
  EXPECT_EQ(promote_types(Dtype::kInt32, Dtype::kComplex64), Dtype::kComplex128);
  EXPECT_EQ(promote_types(Dtype::kBool, Dtype::kBool), Dtype::kBool);
}

TEST(Dtype, PromotionIsSymmetric) {
  for (int i = 0; i < kNumDtypes; ++i)
    for (int j = 0; j < kNumDtypes; ++j)
      EXPECT_EQ(promote_types(static_cast<Dtype>(i), static_cast<Dtype>(j)),
                promote_types(static_cast<Dtype>(j), static_cast<Dtype>(i)));
}

TEST(Dtype, WeakScalarsFollowNep50) {
  EXPECT_EQ(result_type({Dtype::kInt8}, {WeakScalar::kInt}), Dtype::kInt8);
  EXPECT_EQ(result_type({Dtype::kFloat32}, {WeakScalar::kFloat}), Dtype::kFloat32);
  EXPECT_EQ(result_type({Dtype::kInt8}, {WeakScalar::kFloat}), Dtype::kFloat64);
  EXPECT_EQ(result_type({Dtype::kFloat16}, {WeakScalar::kComplex}), Dtype::kComplex64);
  EXPECT_EQ(result_type({Dtype::kBool}, {WeakScalar::kInt}), Dtype::kInt64);
  EXPECT_EQ(result_type({}, {WeakScalar::kInt, WeakScalar::kFloat}), Dtype::kFloat64);
  EXPECT_THROW(result_type({}, {}), ValueError);
}

TEST(Dtype, CanCastRules) {
  EXPECT_TRUE(can_cast(Dtype::kInt8, Dtype::kInt16, Casting::kSafe));
  EXPECT_FALSE(can_cast(Dtype::kInt16, Dtype::kInt8, Casting::kSafe));
  EXPECT_TRUE(can_cast(Dtype::kInt16, Dtype::kInt8, Casting::kSameKind));
  EXPECT_FALSE(can_cast(Dtype::kInt8, Dtype::kUInt8, Casting::kSameKind));
  EXPECT_TRUE(can_cast(Dtype::kUInt64, Dtype::kInt8, Casting::kSameKind));
  EXPECT_FALSE(can_cast(Dtype::kFloat64, Dtype::kInt64, Casting::kSameKind));
  EXPECT_TRUE(can_cast(Dtype::kFloat64, Dtype::kInt64, Casting::kUnsafe));
  EXPECT_FALSE(can_cast(Dtype::kFloat32, Dtype::kFloat64, Casting::kNo));
}
