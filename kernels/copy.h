// Casting copy between arrays of the same shape (the engine of astype,
// copy, and assignment).
#pragma once
#include "core/array.h"

namespace kumo {
namespace kernels {

// dst[...] = src[...] with NumPy's unsafe casting; shapes must match.
void copy_cast(const Array& src, const Array& dst);
// dst[...] = value for a host scalar already converted to dst's dtype bytes.
void fill_bytes(const Array& dst, const void* value);

}  // namespace kernels
}  // namespace kumo
