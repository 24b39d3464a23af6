// Helpers shared by the reduction routines (routines/reduction.cpp,
// routines/statistics.cpp); not part of the public API.
#pragma once
#include <string>
#include <vector>

#include "routines/reduction.h"

namespace kumo {
namespace detail {

// NumPy's accumulation dtype of add/multiply reductions.
Dtype sum_dtype(Dtype d);
// Sorted non-negative axes; AxisError / ValueError (duplicates) as NumPy.
std::vector<int> normalize_reduce_axes(const Axes& axes, int ndim, bool legacy_0d);
Shape reduced_shape(const Shape& shape, const std::vector<int>& axes, bool keepdims);
int64_t reduced_count(const Shape& shape, const std::vector<int>& axes);
// A new array of `shape` holding v converted to dtype.
Array filled(const Shape& shape, const Scalar& v, Dtype dtype, Device& device);
// where(mask, x, y) for x and y of one dtype (the result has x's dtype).
Array select(const Array& mask, const Array& x, const Array& y);
// Returns res, or copies it into out (same shape required) and returns out.
Array finish(const Array& res, const Array& out, const std::string& name);

}  // namespace detail
}  // namespace kumo
