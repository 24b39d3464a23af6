// How a Python number meets an array element: converted by assignment
// (NumPy's setitem rule, which differs from the casts of ufuncs, copyto and
// full), and whether it fits a loop type without a cast (NEP 50).
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

// Whether a Python number of this kind goes into an element of type `d`
// without a cast (NEP 50: an int into any number type, a float into
// floating and complex, a bool anywhere): the ufunc loop search's test.
bool weak_fits_kind(WeakScalar s, Dtype d);

}  // namespace kernels
}  // namespace kumo
