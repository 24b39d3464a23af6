// The reduction and statistics routines of the public C++ API against the
// values, dtypes and errors NumPy gives.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

Array f64(std::vector<double> v, const Shape& s) { return asarray(v, s); }
Array f64(std::vector<double> v) { return asarray(v); }
// 0..5 as a (2, 3) float64 array.
Array a23() { return f64({0, 1, 2, 3, 4, 5}, {2, 3}); }
std::vector<double> d(const Array& a) { return a.astype(Dtype::kFloat64).to_vector<double>(); }
std::vector<int64_t> l(const Array& a) { return a.astype(Dtype::kInt64).to_vector<int64_t>(); }

}  // namespace

TEST(RoutinesReduction, SumOverAxes) {
  Array a = a23();
  EXPECT_EQ(d(sum(a)), (std::vector<double>{15}));
  EXPECT_EQ(sum(a).ndim(), 0);
  EXPECT_EQ(d(sum(a, 0)), (std::vector<double>{3, 5, 7}));
  EXPECT_EQ(d(sum(a, 1)), (std::vector<double>{3, 12}));
  EXPECT_EQ(d(sum(a, -1)), (std::vector<double>{3, 12}));
  EXPECT_EQ(d(sum(a, {0, 1})), (std::vector<double>{15}));
  Array k = sum(a, 1, ReduceOptions().keepdims(true));
  EXPECT_EQ(k.shape(), (Shape{2, 1}));
  // An empty axis list reduces nothing.
  EXPECT_EQ(sum(a, std::vector<int64_t>{}).shape(), (Shape{2, 3}));
}

TEST(RoutinesReduction, AccumulationDtypes) {
  Array i8 = asarray(std::vector<int8_t>{100, 100, 100});
  Array s = sum(i8);
  EXPECT_EQ(s.dtype(), Dtype::kInt64);
  EXPECT_EQ(s.item<int64_t>(), 300);  // no wrap at 127
  EXPECT_EQ(sum(asarray(std::vector<uint16_t>{1, 2})).dtype(), Dtype::kUInt64);
  EXPECT_EQ(sum(asarray(std::vector<bool>{true, true, false})).dtype(), Dtype::kInt64);
  EXPECT_EQ(sum(asarray(std::vector<bool>{true, true, false})).item<int64_t>(), 2);
  EXPECT_EQ(prod(asarray(std::vector<int32_t>{1 << 20, 1 << 20})).item<int64_t>(), int64_t(1) << 40);
  EXPECT_EQ(sum(asarray(std::vector<float>{1, 2})).dtype(), Dtype::kFloat32);
  EXPECT_EQ(sum(i8, Axes::all(), ReduceOptions().dtype(Dtype::kInt8)).dtype(), Dtype::kInt8);
  EXPECT_EQ(mean(asarray(std::vector<int32_t>{1, 2})).dtype(), Dtype::kFloat64);
  EXPECT_DOUBLE_EQ(mean(asarray(std::vector<int32_t>{1, 2})).item<double>(), 1.5);
  // max keeps the input dtype
  EXPECT_EQ(max(i8).dtype(), Dtype::kInt8);
}

TEST(RoutinesReduction, Float16MeanAccumulatesInFloat32) {
  // 4096 ones and 4096 * 2^-11: in float16 arithmetic 2048 + 1 == 2048 would stall.
  Array h = asarray(std::vector<float>(10000, 1.0f)).astype(Dtype::kFloat16);
  Array m = mean(h);
  EXPECT_EQ(m.dtype(), Dtype::kFloat16);
  EXPECT_DOUBLE_EQ(d(m)[0], 1.0);
}

TEST(RoutinesReduction, AxisErrors) {
  Array a = a23();
  EXPECT_THROW(sum(a, 2), AxisError);
  EXPECT_THROW(sum(a, -3), AxisError);
  EXPECT_THROW(sum(a, {0, 0}), ValueError);
  EXPECT_THROW(sum(a, {1, -1}), ValueError);
  EXPECT_THROW(argmax(a, 5), AxisError);
  EXPECT_THROW(cumsum(a, 2), AxisError);
}

TEST(RoutinesReduction, ZeroDimensionalInputs) {
  Array z = asarray(std::vector<double>{7}, Shape{});
  EXPECT_EQ(d(sum(z)), (std::vector<double>{7}));
  // ufunc.reduce accepts axis 0 / -1 on a 0-d array (NumPy's legacy rule) ...
  EXPECT_EQ(d(reduce(builtin_ufunc("add"), z, 0)), (std::vector<double>{7}));
  EXPECT_EQ(d(reduce(builtin_ufunc("add"), z, -1)), (std::vector<double>{7}));
  // ... and so do the reductions built on it, but not a list of axes, nor mean.
  EXPECT_THROW(reduce(builtin_ufunc("add"), z, {0}), AxisError);
  EXPECT_EQ(d(sum(z, 0)), (std::vector<double>{7}));
  EXPECT_EQ(d(max(z, -1)), (std::vector<double>{7}));
  EXPECT_THROW(mean(z, 0), AxisError);
  EXPECT_THROW(var(z, 0), AxisError);
  EXPECT_EQ(argmax(z).item<int64_t>(), 0);
  EXPECT_EQ(argmax(z, 0).item<int64_t>(), 0);
  EXPECT_EQ(d(cumsum(z)), (std::vector<double>{7}));
  EXPECT_THROW(accumulate(builtin_ufunc("add"), z), TypeError);
}

TEST(RoutinesReduction, EmptyInputs) {
  Array e = f64({}, {0, 3});
  EXPECT_EQ(d(sum(e)), (std::vector<double>{0}));
  EXPECT_EQ(d(prod(e)), (std::vector<double>{1}));
  EXPECT_EQ(d(sum(e, 0)), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(sum(e, 1).shape(), (Shape{0}));
  EXPECT_TRUE(all(e).item<bool>());
  EXPECT_FALSE(any(e).item<bool>());
  EXPECT_THROW(max(e), ValueError);
  EXPECT_THROW(max(e, 0), ValueError);
  EXPECT_EQ(max(e, 1).shape(), (Shape{0}));  // nothing to reduce per output, no outputs
  EXPECT_THROW(argmax(e), ValueError);
  EXPECT_THROW(argmin(e, 0), ValueError);
  EXPECT_EQ(argmax(e, 1).shape(), (Shape{0}));
  EXPECT_DOUBLE_EQ(max(e, Axes::all(), ReduceOptions().initial(-5.0)).item<double>(), -5.0);
  EXPECT_TRUE(std::isnan(mean(e).item<double>()));
  EXPECT_EQ(cumsum(e).shape(), (Shape{0}));
}

TEST(RoutinesReduction, WhereAndInitial) {
  Array a = a23();
  Array mask = asarray(std::vector<bool>{true, false, true});
  EXPECT_EQ(d(sum(a, 1, ReduceOptions().where(mask))), (std::vector<double>{2, 8}));
  // initial is added once, not once per masked-out element
  EXPECT_EQ(d(sum(a, 1, ReduceOptions().where(mask).initial(10))), (std::vector<double>{12, 18}));
  EXPECT_EQ(d(max(a, 1, ReduceOptions().initial(4.5))), (std::vector<double>{4.5, 5}));
  EXPECT_EQ(d(max(a, 1, ReduceOptions().where(mask).initial(-1))), (std::vector<double>{2, 5}));
  EXPECT_THROW(max(a, 1, ReduceOptions().where(mask)), ValueError);  // no identity, no initial
  EXPECT_EQ(d(mean(a, 1, ReduceOptions().where(mask))), (std::vector<double>{1, 4}));
  EXPECT_EQ(d(var(a, 1, VarOptions().where(mask))), (std::vector<double>{1, 1}));
}

TEST(RoutinesReduction, OutAndDtype) {
  Array a = a23();
  Array out = Array::empty(Shape{3}, Dtype::kFloat32, a.device());
  Array r = sum(a, 0, ReduceOptions().out(out));
  EXPECT_TRUE(r.shares_memory_with(out));
  EXPECT_EQ(d(out), (std::vector<double>{3, 5, 7}));
  Array wrong = Array::empty(Shape{2}, Dtype::kFloat64, a.device());
  EXPECT_THROW(sum(a, 0, ReduceOptions().out(wrong)), ValueError);
  Array o2 = Array::empty(Shape{2}, Dtype::kInt64, a.device());
  argmax(a, 1, ReduceOptions().out(o2));
  EXPECT_EQ(l(o2), (std::vector<int64_t>{2, 2}));
}

TEST(RoutinesReduction, UfuncReduce) {
  Array a = a23();
  const BuiltinUfunc& sub = builtin_ufunc("subtract");
  EXPECT_EQ(d(reduce(sub, a)), (std::vector<double>{-3, -3, -3}));  // default axis 0
  EXPECT_EQ(d(reduce(sub, a, 1)), (std::vector<double>{-3, -6}));
  EXPECT_THROW(reduce(sub, a, Axes::all()), ValueError);  // not reorderable
  EXPECT_THROW(reduce(sub, a, {0, 1}), ValueError);
  // maximum has no identity but reorders freely
  EXPECT_EQ(d(reduce(builtin_ufunc("maximum"), a, Axes::all())), (std::vector<double>{5}));
  EXPECT_THROW(reduce(builtin_ufunc("sqrt"), a), ValueError);  // not binary
  // logical reductions run in bool
  Array r = reduce(builtin_ufunc("logical_and"), a, 1);
  EXPECT_EQ(r.dtype(), Dtype::kBool);
  EXPECT_EQ(l(r), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(reduce(builtin_ufunc("multiply"), asarray(std::vector<int8_t>{2, 3})).dtype(), Dtype::kInt64);
  EXPECT_THROW(reduce(builtin_ufunc("minimum"), f64({})), ValueError);
  EXPECT_EQ(d(reduce(builtin_ufunc("hypot"), f64({-3}))), (std::vector<double>{3}));
}

TEST(RoutinesReduction, UfuncAccumulate) {
  Array a = a23();
  EXPECT_EQ(d(accumulate(builtin_ufunc("add"), a)), (std::vector<double>{0, 1, 2, 3, 5, 7}));
  EXPECT_EQ(d(accumulate(builtin_ufunc("add"), a, 1)), (std::vector<double>{0, 1, 3, 3, 7, 12}));
  EXPECT_EQ(d(accumulate(builtin_ufunc("maximum"), f64({1, 3, 2, 5}))), (std::vector<double>{1, 3, 3, 5}));
  EXPECT_EQ(accumulate(builtin_ufunc("add"), asarray(std::vector<int8_t>{100, 100})).dtype(), Dtype::kInt64);
  EXPECT_THROW(accumulate(builtin_ufunc("add"), a, 2), AxisError);
}

TEST(RoutinesReduction, Extrema) {
  Array a = f64({3, 1, 4, 1, 5, 9, 2, 6}, {2, 4});
  EXPECT_DOUBLE_EQ(max(a).item<double>(), 9);
  EXPECT_DOUBLE_EQ(amin(a).item<double>(), 1);
  EXPECT_EQ(d(max(a, 0)), (std::vector<double>{5, 9, 4, 6}));
  EXPECT_EQ(d(min(a, 1)), (std::vector<double>{1, 2}));
  EXPECT_EQ(d(ptp(a, 1)), (std::vector<double>{3, 7}));
  EXPECT_THROW(ptp(asarray(std::vector<bool>{true, false})), TypeError);
  // NaN propagates through max/min and is ignored by nanmax/nanmin
  Array n = f64({1, kNaN, 3});
  EXPECT_TRUE(std::isnan(max(n).item<double>()));
  EXPECT_TRUE(std::isnan(min(n).item<double>()));
  EXPECT_DOUBLE_EQ(nanmax(n).item<double>(), 3);
  EXPECT_DOUBLE_EQ(nanmin(n).item<double>(), 1);
}

TEST(RoutinesReduction, ArgExtrema) {
  Array a = f64({3, 9, 4, 9, 5, 1, 2, 1}, {2, 4});
  EXPECT_EQ(argmax(a).item<int64_t>(), 1);  // the first of the ties
  EXPECT_EQ(argmin(a).item<int64_t>(), 5);
  EXPECT_EQ(l(argmax(a, 0)), (std::vector<int64_t>{1, 0, 0, 0}));
  EXPECT_EQ(l(argmax(a, 1)), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(l(argmin(a, -1)), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(argmax(a, 1, ReduceOptions().keepdims(true)).shape(), (Shape{2, 1}));
  EXPECT_EQ(argmax(a, std::nullopt, ReduceOptions().keepdims(true)).shape(), (Shape{1, 1}));
  EXPECT_EQ(argmax(a).dtype(), Dtype::kInt64);
  // The first NaN wins.
  Array n = f64({1, kNaN, 7, kNaN});
  EXPECT_EQ(argmax(n).item<int64_t>(), 1);
  EXPECT_EQ(argmin(n).item<int64_t>(), 1);
  EXPECT_EQ(nanargmax(n).item<int64_t>(), 2);
  EXPECT_EQ(nanargmin(n).item<int64_t>(), 0);
  EXPECT_THROW(nanargmax(f64({kNaN, kNaN})), ValueError);
  // Transposed input: the flat index is in C order of the logical array.
  Array t = a.transpose();  // (4, 2): [[3,5],[9,1],[4,2],[9,1]]
  EXPECT_EQ(argmax(t).item<int64_t>(), 2);
  EXPECT_EQ(l(argmax(t, 0)), (std::vector<int64_t>{1, 0}));
  // Integers and a long run (vectorized and threaded paths).
  std::vector<int32_t> big(300000, 1);
  big[123457] = 8;
  big[223457] = 8;
  EXPECT_EQ(argmax(asarray(big)).item<int64_t>(), 123457);
  EXPECT_EQ(argmin(asarray(big)).item<int64_t>(), 0);
}

TEST(RoutinesReduction, AllAnyCountNonzero) {
  Array a = f64({0, 1, 2, 0, 0, 0}, {2, 3});
  EXPECT_FALSE(all(a).item<bool>());
  EXPECT_TRUE(any(a).item<bool>());
  EXPECT_EQ(l(any(a, 1)), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(all(a, 0).dtype(), Dtype::kBool);
  EXPECT_EQ(count_nonzero(a).item<int64_t>(), 2);
  EXPECT_EQ(l(count_nonzero(a, 0)), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(count_nonzero(a, 1, true).shape(), (Shape{2, 1}));
}

TEST(RoutinesReduction, MeanVarStd) {
  Array a = f64({1, 2, 3, 4, 6, 8}, {2, 3});
  EXPECT_DOUBLE_EQ(mean(a).item<double>(), 4);
  EXPECT_EQ(d(mean(a, 1)), (std::vector<double>{2, 6}));
  EXPECT_EQ(mean(a, {0, 1}, ReduceOptions().keepdims(true)).shape(), (Shape{1, 1}));
  EXPECT_EQ(d(var(a, 1)), (std::vector<double>{2.0 / 3, 8.0 / 3}));
  EXPECT_EQ(d(var(a, 1, VarOptions().ddof(1))), (std::vector<double>{1, 4}));
  EXPECT_EQ(d(var(a, 1, VarOptions().correction(1))), (std::vector<double>{1, 4}));
  EXPECT_THROW(var(a, 1, VarOptions().ddof(1).correction(1)), ValueError);
  EXPECT_EQ(d(kumo::std(a, 1, VarOptions().ddof(1))), (std::vector<double>{1, 2}));
  EXPECT_EQ(var(asarray(std::vector<int32_t>{1, 2})).dtype(), Dtype::kFloat64);
  EXPECT_EQ(var(asarray(std::vector<float>{1, 2})).dtype(), Dtype::kFloat32);
  // complex: |x - mean|^2, a real result
  Array c = asarray(std::vector<std::complex<double>>{{1, 1}, {-1, -1}});
  Array vc = var(c);
  EXPECT_EQ(vc.dtype(), Dtype::kFloat64);
  EXPECT_DOUBLE_EQ(vc.item<double>(), 2);
  // ddof beyond the count gives inf/nan, not an error
  EXPECT_TRUE(std::isinf(var(f64({1, 2}), Axes::all(), VarOptions().ddof(2)).item<double>()));
  // accuracy: a large offset does not cancel catastrophically (two passes)
  Array big = f64({1e9 + 1, 1e9 + 2, 1e9 + 3});
  EXPECT_NEAR(var(big).item<double>(), 2.0 / 3, 1e-6);
}

TEST(RoutinesReduction, NanVariants) {
  Array a = f64({1, kNaN, 3, kNaN, kNaN, kNaN}, {2, 3});
  EXPECT_DOUBLE_EQ(nansum(a).item<double>(), 4);
  EXPECT_EQ(d(nansum(a, 1)), (std::vector<double>{4, 0}));
  EXPECT_DOUBLE_EQ(nanprod(a).item<double>(), 3);
  std::vector<double> m = d(nanmean(a, 1));
  EXPECT_DOUBLE_EQ(m[0], 2);
  EXPECT_TRUE(std::isnan(m[1]));
  std::vector<double> v = d(nanvar(a, 1));
  EXPECT_DOUBLE_EQ(v[0], 1);
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_DOUBLE_EQ(d(nanstd(a, 1, VarOptions().ddof(1)))[0], std::sqrt(2.0));
  EXPECT_EQ(d(nancumsum(f64({1, kNaN, 2}))), (std::vector<double>{1, 1, 3}));
  EXPECT_EQ(d(nancumprod(f64({2, kNaN, 3}))), (std::vector<double>{2, 2, 6}));
  // integers: the plain routines
  Array i = asarray(std::vector<int32_t>{1, 2, 3});
  EXPECT_EQ(nansum(i).item<int64_t>(), 6);
  EXPECT_DOUBLE_EQ(nanmean(i).item<double>(), 2);
}

TEST(RoutinesReduction, Scans) {
  Array a = a23();
  EXPECT_EQ(d(cumsum(a)), (std::vector<double>{0, 1, 3, 6, 10, 15}));
  EXPECT_EQ(cumsum(a).shape(), (Shape{6}));
  EXPECT_EQ(d(cumsum(a, 0)), (std::vector<double>{0, 1, 2, 3, 5, 7}));
  EXPECT_EQ(d(cumprod(f64({1, 2, 3, 4}))), (std::vector<double>{1, 2, 6, 24}));
  EXPECT_EQ(cumsum(asarray(std::vector<bool>{true, true})).dtype(), Dtype::kInt64);
  EXPECT_EQ(cumsum(a, 1, ReduceOptions().dtype(Dtype::kInt32)).dtype(), Dtype::kInt32);
}

TEST(RoutinesReduction, StridedAndBroadcastInputs) {
  // A reversed view and a broadcast view reduce like their copies.
  Array a = f64({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4});
  Array rev = a.index({IndexItem::slice(std::nullopt, std::nullopt, 1), IndexItem::slice(std::nullopt, std::nullopt, -1)});
  EXPECT_EQ(l(argmax(rev, 1)), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(d(sum(rev, 0)), (std::vector<double>{12, 10, 8, 6}));
  Array b = f64({1, 2, 3}).broadcast_to(Shape{4, 3});
  EXPECT_EQ(d(sum(b, 0)), (std::vector<double>{4, 8, 12}));
  EXPECT_EQ(d(var(b, 0)), (std::vector<double>{0, 0, 0}));
  // Long rows and columns exercise the vectorized and threaded kernels.
  std::vector<double> big(2000 * 300);
  for (size_t k = 0; k < big.size(); ++k) big[k] = static_cast<double>(k % 7);
  Array g = asarray(big, Shape{2000, 300});
  double total = 0;
  for (double v : big) total += v;
  EXPECT_DOUBLE_EQ(sum(g).item<double>(), total);
  EXPECT_DOUBLE_EQ(d(sum(sum(g, 0)))[0], total);
  // column c holds (300 r + c) % 7 (300 % 7 == 6): the first 6 of column 0 is in row 1
  EXPECT_EQ(l(argmax(g, 0))[0], 1);
  EXPECT_EQ(l(argmax(g, 0))[1], 2);
  EXPECT_EQ(l(argmax(g, 1))[0], 6);
  EXPECT_EQ(l(argmax(g, 1))[1], 0);
  EXPECT_EQ(argmax(g).item<int64_t>(), 6);
  EXPECT_EQ(argmin(g).item<int64_t>(), 0);
  EXPECT_NEAR(d(mean(g, 1))[0], d(sum(g, 1))[0] / 300, 1e-12);
}

TEST(RoutinesReduction, ArgExtremaOfLongArraysInBlocks) {
  // Long flat arrays are searched block by block; the tail after the last
  // full block, ties across blocks and NaN must still give NumPy's index.
  const int64_t n = 4096 * 5 + 100;
  std::vector<double> v(n, 0.0);
  v[5000] = 3;
  v[9000] = 3;  // a later tie
  EXPECT_EQ(argmax(f64(v)).item<int64_t>(), 5000);
  v[n - 10] = 4;  // strictly larger in the tail
  EXPECT_EQ(argmax(f64(v)).item<int64_t>(), n - 10);
  v[n - 5] = kNaN;  // NaN in the tail only
  EXPECT_EQ(argmax(f64(v)).item<int64_t>(), n - 5);
  EXPECT_EQ(argmin(f64(v)).item<int64_t>(), n - 5);
  v[7000] = kNaN;  // an earlier NaN in the head wins
  EXPECT_EQ(argmax(f64(v)).item<int64_t>(), 7000);
  std::vector<int64_t> w(n, 5);
  w[n - 1] = 5;
  w[12345] = -1;
  w[20000] = -1;
  EXPECT_EQ(argmin(asarray(w)).item<int64_t>(), 12345);
  EXPECT_EQ(argmax(asarray(w)).item<int64_t>(), 0);
}
