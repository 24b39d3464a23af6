// Writing into arrays (and views of them): numpy.copyto and ndarray.fill.
//
//   kumo::copyto(a(kumo::slice(0, 2)), b);   // a[0:2] = b
//   kumo::fill(a(kumo::ellipsis, 0), 1.5);   // a[..., 0] = 1.5
#pragma once
#include "core/array.h"
#include "routines/scalar.h"

namespace kumo {

// Copies `src` into `dst` with broadcasting, under `casting` (TypeError when
// the cast is not allowed) and only where `where` holds when it is given.
void copyto(const Array& dst, const Array& src, Casting casting = Casting::kSameKind, const Array& where = Array());
// Sets every element of `dst` to `value` (OverflowError for an integer out of
// the dtype's range, as NumPy 2).
void fill(const Array& dst, Scalar value);

}  // namespace kumo
