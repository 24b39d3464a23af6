// The C++ API of routines/histogram.h, routines/quantile.h,
// routines/correlate.h, routines/cumulative.h and linalg/covariance.h: a few known answers (the Python suite compares every
// routine with NumPy in depth).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

using D = std::vector<double>;
using I = std::vector<int64_t>;

Array i64(std::initializer_list<int64_t> v) { return asarray(std::vector<int64_t>(v)); }
Array f64(std::initializer_list<double> v) { return asarray(std::vector<double>(v)); }

}  // namespace

TEST(RoutinesStatistics2, Bincount) {
  EXPECT_EQ(bincount(i64({0, 1, 1, 3})).to_vector<int64_t>(), (I{1, 2, 0, 1}));
  EXPECT_EQ(bincount(i64({2}), std::nullopt, 5).to_vector<int64_t>(), (I{0, 0, 1, 0, 0}));
  EXPECT_EQ(bincount(i64({0, 0, 2}), f64({0.5, 1.0, 2.0})).to_vector<double>(), (D{1.5, 0.0, 2.0}));
  EXPECT_THROW(bincount(i64({-1})), ValueError);
  EXPECT_THROW(bincount(f64({1.0})), TypeError);
}

TEST(RoutinesStatistics2, DigitizeIncreasingAndDecreasing) {
  EXPECT_EQ(digitize(f64({0.5, 1.0, 3.5}), f64({1.0, 2.0, 3.0})).to_vector<int64_t>(), (I{0, 1, 3}));
  EXPECT_EQ(digitize(f64({0.5, 1.0, 3.5}), f64({1.0, 2.0, 3.0}), true).to_vector<int64_t>(), (I{0, 0, 3}));
  EXPECT_EQ(digitize(f64({0.5, 2.5}), f64({3.0, 2.0, 1.0})).to_vector<int64_t>(), (I{3, 1}));
  EXPECT_THROW(digitize(f64({1.0}), f64({1.0, 3.0, 2.0})), ValueError);
}

TEST(RoutinesStatistics2, Histogram) {
  auto [h, e] = histogram(f64({0, 1, 1, 2, 3, 4}), HistogramBins::count(4));
  EXPECT_EQ(h.to_vector<int64_t>(), (I{1, 2, 1, 2}));
  EXPECT_EQ(e.to_vector<double>(), (D{0, 1, 2, 3, 4}));
  auto [h2, e2] = histogram(f64({0, 1, 1, 2, 3, 4}), HistogramBins::from_edges(f64({0, 2, 4})));
  EXPECT_EQ(h2.to_vector<int64_t>(), (I{3, 3}));
  EXPECT_EQ(histogram_bin_edges(f64({0, 1, 2, 3}), HistogramBins::estimator("sturges")).size(), 4);
  auto [hd, edges] = histogramdd(f64({0, 0, 1, 1}).reshape(Shape{2, 2}), {HistogramBins::count(2)});
  EXPECT_EQ(hd.shape(), (Shape{2, 2}));
  EXPECT_EQ(edges.size(), 2u);
  EXPECT_THROW(histogram(f64({1}), HistogramBins::count(0)), ValueError);
}

TEST(RoutinesStatistics2, OrderStatistics) {
  Array a = f64({3, 1, 4, 1, 5});
  EXPECT_EQ(median(a).item<double>(), 3.0);
  EXPECT_EQ(quantile(a, f64({0.25})).to_vector<double>(), (D{1.0}));
  EXPECT_EQ(percentile(a, f64({50}), Axes::all(), QuantileOptions().method("lower")).to_vector<double>(), (D{3.0}));
  EXPECT_TRUE(std::isnan(median(f64({1, NAN})).item<double>()));
  EXPECT_EQ(nanmedian(f64({1, NAN, 3})).item<double>(), 2.0);
  EXPECT_THROW(quantile(a, f64({2.0})), ValueError);
  EXPECT_THROW(quantile(a, f64({0.5}), Axes::all(), QuantileOptions().method("nope")), ValueError);
}

TEST(RoutinesStatistics2, CorrelationsAndCumulative) {
  EXPECT_EQ(correlate(f64({1, 2, 3}), f64({0, 1}), "full").to_vector<double>(), (D{1, 2, 3, 0}));
  EXPECT_EQ(convolve(f64({1, 2, 3}), f64({0, 1})).to_vector<double>(), (D{0, 1, 2, 3}));
  EXPECT_THROW(correlate(f64({}), f64({1})), ValueError);
  EXPECT_NEAR(cov(f64({1, 2, 3})).item<double>(), 1.0, 1e-12);
  EXPECT_NEAR(corrcoef(f64({1, 2, 3}), f64({2, 4, 7})).to_vector<double>()[0], 1.0, 1e-12);
  EXPECT_EQ(cumulative_sum(i64({1, 2, 3}), std::nullopt, std::nullopt, Array(), true).to_vector<int64_t>(),
            (I{0, 1, 3, 6}));
  EXPECT_THROW(cumulative_prod(f64({1, 2}).reshape(Shape{1, 2})), ValueError);
}
