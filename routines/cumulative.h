#pragma once
// The Array API's cumulative_sum and cumulative_prod:
//
//   kumo::Array t = kumo::cumulative_sum(x, 0, std::nullopt, Array(), true);
#include <optional>

#include "core/array.h"

namespace kumo {

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
