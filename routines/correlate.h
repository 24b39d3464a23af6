// NumPy's 1-D correlation and convolution:
//
//   kumo::Array c = kumo::correlate(a, v, "full");      // sum_n a[n+k] * conj(v[n])
//   kumo::Array k = kumo::convolve(a, v);               // "full" by default
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

}  // namespace kumo
