// NumPy's counting routines: bincount, digitize, histogram,
// histogram_bin_edges and histogramdd.
//
//   kumo::Array c = kumo::bincount(x);                                   //
//   counts of 0..max(x) auto [h, edges] = kumo::histogram(a,
//   kumo::HistogramBins::count(100)); auto [h2, e2] = kumo::histogram(a,
//   kumo::HistogramBins::estimator("fd")); kumo::Array i = kumo::digitize(x,
//   bins);                             // bin of each x
//
// Counting runs on the array's device: on the host each thread counts into a
// private histogram (one row per chunk of the data) and the rows are summed;
// on a GPU every element adds to the one histogram atomically. Only the size
// of a result that depends on the data (bincount's max, an estimator's number
// of bins, the range taken from the data) is read back to the host.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/array.h"

namespace kumo {

// numpy.bincount: how often each value 0..max(x) occurs in the 1-D
// non-negative integer array x (int64), or the sum of `weights` (float64) at
// each value; at least `minlength` bins.
Array bincount(const Array& x, const std::optional<Array>& weights = std::nullopt, int64_t minlength = 0);

// numpy.digitize: for each x, the index of the bin of the 1-D monotonic
// (increasing or decreasing) `bins` it falls in; `right` puts values equal
// to an edge into the bin on its left.
Array digitize(const Array& x, const Array& bins, bool right = false);

// The `bins` argument of the histogram routines: a number of equal bins, the
// name of an estimator of that number ("auto", "fd", "doane", "scott",
// "stone", "rice", "sturges", "sqrt"), or the bin edges (1-D, increasing).
struct HistogramBins {
  std::optional<int64_t> n;
  std::optional<std::string> name;
  Array edges;
  static HistogramBins count(int64_t n) { return {n, std::nullopt, Array()}; }
  static HistogramBins estimator(std::string name) { return {std::nullopt, std::move(name), Array()}; }
  static HistogramBins from_edges(const Array& e) { return {std::nullopt, std::nullopt, e}; }
};

// The lower and upper edge of a histogram (numpy's range=(lo, hi)).
using HistogramRange = std::optional<std::pair<double, double>>;

// numpy.histogram_bin_edges: the edges histogram() would use.
Array histogram_bin_edges(const Array& a, const HistogramBins& bins = HistogramBins::count(10),
                          const HistogramRange& range = std::nullopt,
                          const std::optional<Array>& weights = std::nullopt);

// numpy.histogram over the flattened array: the counts (int64, or the sums of
// the weights in their dtype; float64 densities when `density`) and the edges.
std::pair<Array, Array> histogram(const Array& a, const HistogramBins& bins = HistogramBins::count(10),
                                  const HistogramRange& range = std::nullopt, bool density = false,
                                  const std::optional<Array>& weights = std::nullopt);

// numpy.histogramdd of an (N, D) sample (a 1-D sample is (N, 1)): `bins` and
// `ranges` hold one entry per dimension, or one entry for all of them. The
// result is float64.
std::pair<Array, std::vector<Array>> histogramdd(const Array& sample, const std::vector<HistogramBins>& bins,
                                                 const std::vector<HistogramRange>& ranges = {}, bool density = false,
                                                 const std::optional<Array>& weights = std::nullopt);

}  // namespace kumo
