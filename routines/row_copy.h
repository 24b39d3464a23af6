// Internal: copying between arrays whose rows are contiguous but not
// adjacent (the middle of a padded array, a slab of a concatenation).
#pragma once
#include "core/array.h"

namespace kumo {
namespace detail {

// dst[...] = src[...] for arrays of one shape (src broadcastable, any
// dtypes: anything but the case below goes through Array::copy_to). On the
// host, when both have the same dtype and view as (rows, cols) with
// contiguous rows, each row is copied by a unit-stride loop, which the
// compiler vectorizes; the generic strided loop cannot assume unit strides.
void copy_rows(const Array& src, const Array& dst);

}  // namespace detail
}  // namespace kumo
