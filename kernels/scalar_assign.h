// How a Python number assigned into an array element is converted (NumPy's
// setitem rule, which differs from the casts of ufuncs, copyto and full).
#pragma once
#include "core/dtype.h"
#include "kernels/ufunc.h"

namespace kumo {
namespace kernels {

// The value NumPy stores for `a[i] = v`, `a.fill(v)`, `put` and a
// reduction's `initial=`: a Python float going into an integer dtype goes
// through int() first (truncated; ValueError for NaN, OverflowError for
// inf and for values no 64-bit integer holds), so store_scalar's range
// check then applies to it as to a Python int (a[0] = -1.5 on uint8 is
// OverflowError, not 255). Other values are returned unchanged.
ScalarValue assigned_scalar(const ScalarValue& v, Dtype dtype);

}  // namespace kernels
}  // namespace kumo
