// NumPy's order statistics: median, quantile, percentile and their
// NaN-ignoring variants.
//
//   kumo::Array m = kumo::median(a);                                 //
//   flattened kumo::Array q = kumo::quantile(a, qs, 0,
//   kumo::QuantileOptions().method("hazen")); kumo::Array p =
//   kumo::percentile(a, qs, kumo::Axes::all(),
//   kumo::QuantileOptions().keepdims(true));
//
// The reduced axes are moved last and every slice is partially ordered
// (std::nth_element on the values, NaN last) on the host, as the sorting
// routines are; the selected values go back to the array's device, where the
// interpolation runs as NumPy's ufunc expressions, so result dtypes and
// rounding are NumPy's.
#pragma once
#include <optional>
#include <string>

#include "core/array.h"
#include "routines/reduction.h"

namespace kumo {

// The keyword arguments of quantile/percentile/median.
class QuantileOptions {
 public:
  // One of NumPy's 13 methods ("linear" by default).
  QuantileOptions& method(std::string m) {
    method_ = std::move(m);
    return *this;
  }
  QuantileOptions& out(const Array& a) {
    out_ = a;
    return *this;
  }
  QuantileOptions& keepdims(bool k = true) {
    keepdims_ = k;
    return *this;
  }
  // Ignored: the input is never modified (NumPy allows either).
  QuantileOptions& overwrite_input(bool o = true) {
    overwrite_ = o;
    return *this;
  }
  // Weights of the data (method "inverted_cdf" only): a's shape, or the shape
  // of the reduced axes.
  QuantileOptions& weights(const Array& w) {
    weights_ = w;
    return *this;
  }
  // q was a Python int or float: the result keeps a floating input's dtype (NEP
  // 50).
  QuantileOptions& weak_q(bool w = true) {
    weak_q_ = w;
    return *this;
  }

  const std::string& method() const { return method_; }
  const Array& out() const { return out_; }
  bool keepdims() const { return keepdims_; }
  bool overwrite_input() const { return overwrite_; }
  const std::optional<Array>& weights() const { return weights_; }
  bool weak_q() const { return weak_q_; }

 private:
  std::string method_ = "linear";
  Array out_;
  bool keepdims_ = false;
  bool overwrite_ = false;
  std::optional<Array> weights_;
  bool weak_q_ = false;
};

// numpy.quantile: q in [0, 1], a scalar or an array of at most 2 dimensions;
// the result has shape q.shape + the shape without the reduced axes.
Array quantile(const Array& a, const Array& q, const Axes& axes = {}, const QuantileOptions& options = {});
// numpy.percentile: q in [0, 100].
Array percentile(const Array& a, const Array& q, const Axes& axes = {}, const QuantileOptions& options = {});
// numpy.median: the mean of the middle one or two values (mean's dtype).
Array median(const Array& a, const Axes& axes = {}, const QuantileOptions& options = {});

// The same ignoring NaN; an all-NaN slice gives NaN.
Array nanquantile(const Array& a, const Array& q, const Axes& axes = {}, const QuantileOptions& options = {});
Array nanpercentile(const Array& a, const Array& q, const Axes& axes = {}, const QuantileOptions& options = {});
Array nanmedian(const Array& a, const Axes& axes = {}, const QuantileOptions& options = {});

// The path arrays off the host take (any device works, so tests run it on
// the host): slices sorted on the device, positions from the per-slice
// counts of non-NaN values (one number per slice to the host), neighbours
// gathered on the device. `percent` takes q in [0, 100]; skip_nan gives the
// nan* variants. No weights (those take the host path).
Array quantile_by_sort(const Array& a, const Array& q, const Axes& axes, const QuantileOptions& options, bool percent,
                       bool skip_nan);
Array median_by_sort(const Array& a, const Axes& axes, const QuantileOptions& options, bool skip_nan);

}  // namespace kumo
