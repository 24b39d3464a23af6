#pragma once
// numpy.cov and numpy.corrcoef (NumPy's arguments and result dtypes):
//
//   kumo::Array s = kumo::cov(x);                       // rows are variables
//   kumo::Array r = kumo::corrcoef(x);
#include <optional>

#include "core/array.h"

namespace kumo {

// numpy.cov: the covariance matrix of the variables in the rows of m (and
// y) (columns when !rowvar), normalised by N - ddof (ddof defaults to
// bias ? 0 : 1), with frequency and/or analytic weights; squeezed.
Array cov(const Array& m, const std::optional<Array>& y = std::nullopt, bool rowvar = true, bool bias = false,
          std::optional<int64_t> ddof = std::nullopt, const std::optional<Array>& fweights = std::nullopt,
          const std::optional<Array>& aweights = std::nullopt, std::optional<Dtype> dtype = std::nullopt);
// numpy.corrcoef: the covariance normalised by the standard deviations, clipped to [-1, 1].
Array corrcoef(const Array& x, const std::optional<Array>& y = std::nullopt, bool rowvar = true,
               std::optional<Dtype> dtype = std::nullopt);

}  // namespace kumo
