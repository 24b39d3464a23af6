// Text of arrays as NumPy prints them: repr ("array([1., 2.], dtype=float32)")
// and str ("[1. 2.]"), with NumPy's default print options (precision 8,
// line width 75, summarisation above 1000 elements with 3 edge items).
#pragma once
#include <ostream>
#include <string>

#include "core/array.h"

namespace kumo {

std::string array_repr(const Array& a);
std::string array_str(const Array& a);
// Writes array_repr(a).
std::ostream& operator<<(std::ostream& os, const Array& a);
// The shortest scientific text ("1.5e-07") of `v` that reads back as the
// same value of the float `dtype` (float16/32/64, or a complex part's).
std::string shortest_scientific(double v, Dtype dtype);

}  // namespace kumo
