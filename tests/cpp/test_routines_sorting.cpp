// sort, argsort, partition, lexsort, searchsorted and unique of the public C++
// API: NumPy's order (NaN last, -0.0 == 0.0, complex), stability, the radix
// path of long arrays against std::stable_sort, and NumPy's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "kumo/kumo.h"
#include "routines/sort_keys.h"

using namespace kumo;

namespace {

using D = std::vector<double>;
using I = std::vector<int64_t>;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Array i64(std::initializer_list<int64_t> v) { return asarray(std::vector<int64_t>(v)); }
Array f64(std::initializer_list<double> v) { return asarray(std::vector<double>(v)); }

// Bitwise equality, so NaN positions and the sign of zeros are checked too.
void expect_same_bits(const D& got, const D& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(std::memcmp(&got[i], &want[i], sizeof(double)), 0) << "at " << i << ": " << got[i] << " vs " << want[i];
  }
}

}  // namespace

TEST(RoutinesSorting, SortPutsNanLastAndKeepsSignedZeros) {
  Array a = f64({3.0, kNan, -kInf, -0.0, 0.0, kInf, -1.5, kNan, 0.0, -0.0});
  expect_same_bits(sort(a).to_vector<double>(), D{-kInf, -1.5, -0.0, 0.0, 0.0, -0.0, 3.0, kInf, kNan, kNan});
  EXPECT_EQ(argsort(a).to_vector<int64_t>(), (I{2, 6, 3, 4, 8, 9, 0, 5, 1, 7}));
}

TEST(RoutinesSorting, AxesFlattenAndErrors) {
  Array a = reshape(i64({5, 1, 4, 2, 0, 3}), {2, 3});
  EXPECT_EQ(sort(a).to_vector<int64_t>(), (I{1, 4, 5, 0, 2, 3}));
  EXPECT_EQ(sort(a, 0).to_vector<int64_t>(), (I{2, 0, 3, 5, 1, 4}));
  EXPECT_EQ(sort(a, std::nullopt).to_vector<int64_t>(), (I{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(argsort(a, 0).to_vector<int64_t>(), (I{1, 1, 1, 0, 0, 0}));
  EXPECT_TRUE(sort(a, 0).c_contiguous());
  EXPECT_THROW(sort(a, 2), AxisError);
  EXPECT_THROW(sort(asarray(std::vector<double>{1.0}).reshape(Shape{}), -1), AxisError);
  EXPECT_EQ(argsort(asarray(std::vector<double>{1.0}).reshape(Shape{})).to_vector<int64_t>(), (I{0}));
  EXPECT_THROW(sort(a, -1, std::string("bogus")), ValueError);
  EXPECT_THROW(sort(a, -1, std::string("stable"), true), ValueError);
  EXPECT_EQ(sort(a, -1, std::string("mergesort")).to_vector<int64_t>(), (I{1, 4, 5, 0, 2, 3}));
}

TEST(RoutinesSorting, NegativeStridesAndEmpty) {
  Array a = i64({1, 9, 3, 7, 5});
  Array rev = a(slice(std::nullopt, std::nullopt, -2));  // 5, 3, 1
  EXPECT_EQ(sort(rev).to_vector<int64_t>(), (I{1, 3, 5}));
  EXPECT_EQ(argsort(rev).to_vector<int64_t>(), (I{2, 1, 0}));
  Array e = Array::empty(Shape{0, 3}, Dtype::kFloat32, host_device());
  EXPECT_EQ(sort(e, 0).shape(), (Shape{0, 3}));
  EXPECT_EQ(argsort(e).dtype(), Dtype::kInt64);
}

// Long arrays take the radix path (split over threads); compare every dtype
// width with std::stable_sort on the same values.
TEST(RoutinesSorting, RadixPathMatchesStableSort) {
  std::mt19937_64 rng(7);
  const int64_t n = 300000;
  std::vector<int64_t> v(n);
  for (auto& x : v) x = static_cast<int64_t>(rng() % 1000) - 500;  // many ties
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return v[i] < v[j]; });
  for (Dtype d : {Dtype::kInt16, Dtype::kInt32, Dtype::kInt64, Dtype::kFloat32, Dtype::kFloat64}) {
    Array a = asarray(v).astype(d);
    EXPECT_EQ(argsort(a).to_vector<int64_t>(), order) << dtype_name(d);
    std::vector<int64_t> sorted_v = sort(a).astype(Dtype::kInt64).to_vector<int64_t>();
    EXPECT_TRUE(std::is_sorted(sorted_v.begin(), sorted_v.end())) << dtype_name(d);
    EXPECT_EQ(sorted_v.front(), -500);
  }
}

TEST(RoutinesSorting, ComplexOrder) {
  using C = std::complex<double>;
  Array a = asarray(std::vector<C>{{kNan, 0}, {1, kNan}, {2, 0}, {1, 1}, {1, -1}, {kNan, kNan}, {0, 5}});
  std::vector<C> s = sort(a).to_vector<C>();
  EXPECT_EQ(s[0], C(0, 5));
  EXPECT_EQ(s[1], C(1, -1));
  EXPECT_EQ(s[2], C(1, 1));
  EXPECT_EQ(s[3], C(2, 0));
  EXPECT_TRUE(std::isnan(s[4].imag()) && s[4].real() == 1);
  EXPECT_TRUE(std::isnan(s[5].real()) && s[5].imag() == 0);
  EXPECT_EQ(sort_complex(i64({3, 1})).dtype(), Dtype::kComplex128);
}

TEST(RoutinesSorting, PartitionProperty) {
  Array a = f64({9, kNan, 1, 7, 3, 3, 8, 0, 2});
  Array p = partition(a, {4});
  D v = p.to_vector<double>();
  EXPECT_EQ(v[4], 3.0);
  for (int i = 0; i < 4; ++i) EXPECT_LE(v[i], 3.0);
  for (int i = 5; i < 9; ++i) EXPECT_TRUE(std::isnan(v[i]) || v[i] >= 3.0);
  I idx = argpartition(a, {-1, 0}).to_vector<int64_t>();
  EXPECT_EQ(idx.front(), 7);
  EXPECT_EQ(idx.back(), 1);  // NaN is the largest
  EXPECT_THROW(partition(a, {9}), ValueError);
}

TEST(RoutinesSorting, Lexsort) {
  Array surname = i64({2, 1, 2, 1});
  Array first = f64({0.5, 0.1, 0.2, 0.3});
  EXPECT_EQ(lexsort({first, surname}).to_vector<int64_t>(), (I{1, 3, 2, 0}));
  EXPECT_THROW(lexsort({first, i64({1})}), ValueError);
  EXPECT_THROW(lexsort({}), TypeError);
}

TEST(RoutinesSorting, Searchsorted) {
  Array a = f64({1, 2, 2, 3, kNan});
  Array v = f64({2, 0, 5, kNan});
  EXPECT_EQ(searchsorted(a, v).to_vector<int64_t>(), (I{1, 0, 4, 4}));
  EXPECT_EQ(searchsorted(a, v, "right").to_vector<int64_t>(), (I{3, 0, 4, 5}));
  Array unsorted = i64({30, 10, 20});
  EXPECT_EQ(searchsorted(unsorted, i64({15, 25}), "left", i64({1, 2, 0})).to_vector<int64_t>(), (I{1, 2}));
  EXPECT_THROW(searchsorted(a, v, "middle"), ValueError);
  EXPECT_THROW(searchsorted(a, v, "left", i64({0})), ValueError);
  EXPECT_THROW(searchsorted(a, v, "left", f64({0, 1, 2, 3, 4})), TypeError);
  EXPECT_THROW(searchsorted(reshape(a, {5, 1}), v), ValueError);
}

TEST(RoutinesSorting, UniqueWithEverything) {
  Array a = reshape(f64({3, kNan, 1, 3, kNan, 1}), {2, 3});
  UniqueResult r = unique(a, true, true, true);
  D values = r.values.to_vector<double>();
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0], 1.0);
  EXPECT_EQ(values[1], 3.0);
  EXPECT_TRUE(std::isnan(values[2]));
  EXPECT_EQ(r.index->to_vector<int64_t>(), (I{2, 0, 1}));
  EXPECT_EQ(r.inverse->shape(), (Shape{2, 3}));
  EXPECT_EQ(r.inverse->to_vector<int64_t>(), (I{1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(r.counts->to_vector<int64_t>(), (I{2, 2, 2}));
  EXPECT_EQ(unique(a, false, false, false, false).values.size(), 4);
  EXPECT_EQ(unique(i64({})).values.size(), 0);
}

// The keys-only radix sort is the host sort of wide keys when Highway's
// vqsort is not built in; check it directly on one and two threads.
template <class U>
void check_radix_keys_only(int threads) {
  std::mt19937_64 rng(11);
  std::vector<U> keys(200000);
  for (auto& k : keys) k = static_cast<U>(rng() >> (rng() % 48));  // digits of varied spread
  std::vector<U> want = keys, scratch(keys.size());
  std::sort(want.begin(), want.end());
  sort_detail::radix_sort<U, uint32_t>(keys.data(), scratch.data(), nullptr, nullptr, keys.size(), false, threads);
  EXPECT_EQ(keys, want) << sizeof(U) << " bytes, " << threads << " threads";
}

TEST(RoutinesSorting, RadixKeysOnlyMatchesStdSort) {
  for (int threads : {1, 2}) {
    check_radix_keys_only<uint16_t>(threads);
    check_radix_keys_only<uint32_t>(threads);
    check_radix_keys_only<uint64_t>(threads);
  }
}

TEST(RoutinesSorting, SortInPlaceSortsRowsWhereTheyLie) {
  // int8 and int16 rows take the counting sort; the array itself is sorted.
  std::mt19937 rng(7);
  for (Dtype d : {Dtype::kInt8, Dtype::kUInt8, Dtype::kInt16, Dtype::kInt32}) {
    std::vector<int64_t> v(3 * 70000);
    for (auto& x : v) x = static_cast<int64_t>(rng() % 200) - 100;
    Array a = asarray(v, Shape{3, 70000}).astype(d);
    const void* where = a.data();
    sort_in_place(a);
    EXPECT_EQ(a.data(), where);
    std::vector<int64_t> got = a.astype(Dtype::kInt64).to_vector<int64_t>();
    for (int r = 0; r < 3; ++r) {
      std::vector<int64_t> want(v.begin() + r * 70000, v.begin() + (r + 1) * 70000);
      if (d == Dtype::kUInt8)
        for (auto& x : want) x = static_cast<uint8_t>(x);
      std::sort(want.begin(), want.end());
      EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin() + r * 70000)) << dtype_name(d) << " row " << r;
    }
  }
}

TEST(RoutinesSorting, SortInPlaceOfViewsAndOtherAxesWritesBack) {
  Array a = f64({3, 1, 2, 6, 5, 4});
  sort_in_place(a.reshape(Shape{2, 3}), 0);
  expect_same_bits(a.to_vector<double>(), {3, 1, 2, 6, 5, 4});
  sort_in_place(a.reshape(Shape{2, 3}), 1);
  expect_same_bits(a.to_vector<double>(), {1, 2, 3, 4, 5, 6});
  Array b = i64({5, 0, 4, 0, 3, 0});
  sort_in_place(b(slice(0, 6, 2)));
  EXPECT_EQ(b.to_vector<int64_t>(), (I{3, 0, 4, 0, 5, 0}));
  EXPECT_THROW(sort_in_place(broadcast_to(i64({1, 2}), Shape{2, 2})), ValueError);
  EXPECT_THROW(sort_in_place(i64({1})(0)), AxisError);
}
