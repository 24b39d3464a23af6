// NumPy's correlation routines and the Array API's cumulative functions:
//
//   kumo::Array c = kumo::correlate(a, v, "full");      // sum_n a[n+k] * conj(v[n])
//   kumo::Array k = kumo::convolve(a, v);               // "full" by default
//   kumo::Array s = kumo::cov(x);                       // rows are variables
//   kumo::Array r = kumo::corrcoef(x);
//   kumo::Array t = kumo::cumulative_sum(x, 0, std::nullopt, Array(), true);
#pragma once
#include <optional>
#include <string>

#include "core/array.h"

namespace kumo {

// numpy.correlate of two non-empty 1-D arrays (mode "valid", "same" or
// "full"); the second is conjugated. Result dtype: the two promoted.
Array correlate(const Array& a, const Array& v, const std::string& mode = "valid");
// numpy.convolve: the correlation with v reversed (no conjugation).
Array convolve(const Array& a, const Array& v, const std::string& mode = "full");

// numpy.cov: the covariance matrix of the variables in the rows of m (and
// y) (columns when !rowvar), normalised by N - ddof (ddof defaults to
// bias ? 0 : 1), with frequency and/or analytic weights; squeezed.
Array cov(const Array& m, const std::optional<Array>& y = std::nullopt, bool rowvar = true, bool bias = false,
          std::optional<int64_t> ddof = std::nullopt, const std::optional<Array>& fweights = std::nullopt,
          const std::optional<Array>& aweights = std::nullopt, std::optional<Dtype> dtype = std::nullopt);
// numpy.corrcoef: the covariance normalised by the standard deviations, clipped to [-1, 1].
Array corrcoef(const Array& x, const std::optional<Array>& y = std::nullopt, bool rowvar = true,
               std::optional<Dtype> dtype = std::nullopt);

// numpy.cumulative_sum / cumulative_prod (Array API): like cumsum/cumprod,
// but the axis is required for more than one dimension, and include_initial
// puts the identity (0 or 1) first, making the axis one longer.
Array cumulative_sum(const Array& x, std::optional<int64_t> axis = std::nullopt,
                     std::optional<Dtype> dtype = std::nullopt, const Array& out = Array(),
                     bool include_initial = false);
Array cumulative_prod(const Array& x, std::optional<int64_t> axis = std::nullopt,
                      std::optional<Dtype> dtype = std::nullopt, const Array& out = Array(),
                      bool include_initial = false);

}  // namespace kumo
