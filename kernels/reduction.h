// Reduction kernel launch (CuPy's ReductionKernel model) over any set of axes.
#pragma once
#include <vector>

#include "core/array.h"
#include "kernels/codegen.h"
#include "kernels/spec.h"

namespace kumo {
namespace kernels {

// Reduces `inputs` (broadcast together) over `axes` (normalized, sorted)
// into `outputs`, whose shape is the input shape without the reduced axes.
void launch_reduction(const ReductionSpec& spec, const ReductionSignature& sig, const std::vector<Array>& inputs,
                      const std::vector<Array>& outputs, const std::vector<int>& axes);

// User-level call: binds types, allocates outputs (shape with or without
// kept dims), launches. `axes` empty with all_axes=true reduces everything.
std::vector<Array> call_reduction(const ReductionSpec& spec, const std::vector<Array>& inputs,
                                  std::vector<Array> outputs, const std::vector<int64_t>& axes, bool all_axes,
                                  bool keepdims, const TypeBindings& forced = {});

}  // namespace kernels
}  // namespace kumo
