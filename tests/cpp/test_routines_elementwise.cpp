// The elementwise routines and operators of the public C++ API against
// values NumPy gives, with NEP 50 weak C++ scalars, out=/dtype=/where=, and
// NumPy's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

Array f32(std::initializer_list<float> v) { return asarray(std::vector<float>(v)); }
Array i64(std::initializer_list<int64_t> v) { return asarray(std::vector<int64_t>(v)); }

}  // namespace

TEST(RoutinesElementwise, EveryTableRowHasAFunction) {
  std::set<std::string> declared;
#define KUMO_NAME(n) declared.insert(#n);
  KUMO_UNARY_UFUNCS(KUMO_NAME)
  KUMO_BINARY_UFUNCS(KUMO_NAME)
  KUMO_TWO_OUTPUT_UFUNCS(KUMO_NAME)
#undef KUMO_NAME
  std::set<std::string> table;
  for (const UfuncRow& r : ufunc_rows()) table.insert(r.name);
  EXPECT_EQ(declared, table);
}

TEST(RoutinesElementwise, WeakScalarsKeepTheArrayDtype) {
  Array a = f32({1, 2, 3});
  EXPECT_EQ((a * 2.0).dtype(), Dtype::kFloat32);
  EXPECT_EQ((a + 1).dtype(), Dtype::kFloat32);
  Array b = asarray(std::vector<int8_t>{1, 2, 3});
  EXPECT_EQ((b + 1).dtype(), Dtype::kInt8);
  EXPECT_EQ((b * 2.5).dtype(), Dtype::kFloat64);
  EXPECT_EQ((b + std::complex<double>(1, 1)).dtype(), Dtype::kComplex128);
  EXPECT_EQ((a * 2.0).to_vector<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ((10 - b).to_vector<int>(), (std::vector<int>{9, 8, 7}));
}

TEST(RoutinesElementwise, StrongPromotion) {
  Array a = f32({1, 2});
  Array b = i64({3, 4});
  EXPECT_EQ((a + b).dtype(), Dtype::kFloat64);
  EXPECT_EQ((b / b).dtype(), Dtype::kFloat64);  // true division of integers
  EXPECT_EQ((b == b).dtype(), Dtype::kBool);
}

TEST(RoutinesElementwise, IntegerOverflowOfAScalarIsOverflowError) {
  Array b = asarray(std::vector<int8_t>{1, 2});
  EXPECT_THROW(b + 1000, OverflowError);
}

TEST(RoutinesElementwise, NegativeIntegerPowerIsValueError) {
  Array b = i64({1, 2});
  EXPECT_THROW(power(b, -1), ValueError);
  EXPECT_THROW(power(b, i64({1, -1})), ValueError);
  EXPECT_EQ(power(b, 2).to_vector<int64_t>(), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(power(b.astype(Dtype::kFloat64), -1).to_vector<double>(), (std::vector<double>{1, 0.5}));
}

TEST(RoutinesElementwise, ComparisonWithOutOfRangeIntIsExact) {
  Array b = asarray(std::vector<uint8_t>{0, 255});
  EXPECT_EQ((b < 1000).to_vector<bool>(), (std::vector<bool>{true, true}));
  EXPECT_EQ((b == -1).to_vector<bool>(), (std::vector<bool>{false, false}));
  EXPECT_EQ((1000 > b).to_vector<bool>(), (std::vector<bool>{true, true}));
  EXPECT_EQ((b >= -5).to_vector<bool>(), (std::vector<bool>{true, true}));
}

TEST(RoutinesElementwise, TrueDivideByHugeIntIsFloat) {
  Array b = asarray(std::vector<int8_t>{100});
  EXPECT_DOUBLE_EQ(divide(b, 1000).item<double>(), 0.1);
}

TEST(RoutinesElementwise, FloatLoopsPickPerInput) {
  Array u = asarray(std::vector<uint8_t>{3});
  Array s = asarray(std::vector<int8_t>{4});
  EXPECT_EQ(hypot(u, s).dtype(), Dtype::kFloat16);  // NumPy: float16, not float32
  EXPECT_EQ(arctan2(u, u).dtype(), Dtype::kFloat16);
  EXPECT_EQ(hypot(i64({3}), 4).dtype(), Dtype::kFloat64);
}

TEST(RoutinesElementwise, BooleanSubtractIsTypeError) {
  Array t = asarray(std::vector<bool>{true, false});
  EXPECT_THROW(t - t, TypeError);
  EXPECT_THROW(-t, TypeError);
  EXPECT_EQ((~t).to_vector<bool>(), (std::vector<bool>{false, true}));
}

TEST(RoutinesElementwise, OutDtypeCastingWhere) {
  Array a = f32({1, 4, 9});
  Array out = Array::empty(Shape{3}, Dtype::kFloat64, a.device());
  Array r = sqrt(a, out);
  EXPECT_TRUE(r.shares_memory_with(out));
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(sqrt(a, Dtype::kFloat64).dtype(), Dtype::kFloat64);
  Array iout = Array::empty(Shape{3}, Dtype::kInt32, a.device());
  EXPECT_THROW(sqrt(a, iout), CastingError);
  sqrt(a, UfuncOptions().out(iout).casting(Casting::kUnsafe));
  EXPECT_EQ(iout.to_vector<int>(), (std::vector<int>{1, 2, 3}));
  Array base = f32({-1, -1, -1});
  add(a, 1, UfuncOptions().out(base).where(asarray(std::vector<bool>{true, false, true})));
  EXPECT_EQ(base.to_vector<float>(), (std::vector<float>{2, -1, 10}));
}

TEST(RoutinesElementwise, CompoundOperatorsWriteInPlace) {
  Array a = f32({1, 2});
  Array same = a;
  a += 1;
  a *= f32({2, 3});
  EXPECT_TRUE(same.shares_memory_with(a));
  EXPECT_EQ(same.to_vector<float>(), (std::vector<float>{4, 9}));
  Array i = i64({1, 2});
  EXPECT_THROW(i /= 2, CastingError);  // float64 result into int64, same_kind
}

TEST(RoutinesElementwise, BroadcastingAndTwoOutputs) {
  Array col = asarray(std::vector<int64_t>{7, 8}, {2, 1});
  Array row = i64({2, 3, 5});
  Array s = col + row;
  EXPECT_EQ(s.shape(), (Shape{2, 3}));
  auto [q, r] = divmod(col, row);
  EXPECT_EQ(q.to_vector<int64_t>(), (std::vector<int64_t>{3, 2, 1, 4, 2, 1}));
  EXPECT_EQ(r.to_vector<int64_t>(), (std::vector<int64_t>{1, 1, 2, 0, 2, 3}));
  auto [m, e] = frexp(f32({8}));
  EXPECT_EQ(m.item<float>(), 0.5f);
  EXPECT_EQ(e.item<int>(), 4);
}

TEST(RoutinesElementwise, CallByNameAndAliases) {
  Array a = f32({-2, 3});
  EXPECT_EQ(call_ufunc("abs", {a})[0].to_vector<float>(), (std::vector<float>{2, 3}));
  EXPECT_EQ(abs(a).to_vector<float>(), (std::vector<float>{2, 3}));
  EXPECT_THROW(call_ufunc("no_such_ufunc", {a}), ValueError);
  EXPECT_THROW(call_ufunc("add", {a}), TypeError);
}

TEST(RoutinesInterop, VectorsRoundTrip) {
  Array a = asarray({1.5, 2.5, 3.5, 4.5}, {2, 2});
  EXPECT_EQ(a.shape(), (Shape{2, 2}));
  EXPECT_EQ(a.dtype(), Dtype::kFloat64);
  EXPECT_EQ(a.transpose().to_vector<double>(), (std::vector<double>{1.5, 3.5, 2.5, 4.5}));
  EXPECT_EQ(a.to_vector<int>(), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_THROW(asarray(std::vector<float>{1, 2, 3}, {2, 2}), ValueError);
  EXPECT_THROW(a.item<double>(), ValueError);
  EXPECT_EQ(scalar_array(7).item<int>(), 7);
}

TEST(RoutinesElementwise, OperandRefersToLvaluesAndOwnsTemporaries) {
  Array a = f32({1, 2, 3});
  kernels::UfuncOperand borrowed(a);
  EXPECT_EQ(&borrowed.array(), &a);
  kernels::UfuncOperand owned(a.copy());
  EXPECT_NE(&owned.array(), &a);
  kernels::UfuncOperand copy = owned;  // a copy owns its own Array
  EXPECT_NE(&copy.array(), &owned.array());
  EXPECT_EQ(copy.array().to_vector<float>(), (std::vector<float>{1, 2, 3}));
  copy.set_array(f32({4}));
  EXPECT_FALSE(copy.is_scalar);
  EXPECT_EQ(copy.array().to_vector<float>(), std::vector<float>{4});
  EXPECT_EQ(owned.array().to_vector<float>(), (std::vector<float>{1, 2, 3}));
}
