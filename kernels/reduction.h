// Reduction kernel launch (CuPy's ReductionKernel model) over any set of axes.
#pragma once
#include <vector>

#include "core/array.h"
#include "kernels/codegen.h"
#include "kernels/spec.h"

namespace kumo {
namespace kernels {

// From this many input bytes on, host reductions split over the threads;
// below, the calling thread reduces alone. Measured on a 2-core machine
// once the pool's threads poll between kernels (and the caller never waits
// for one still asleep): 1e6-element sums and maxima (4-8 MB) run 1.5-2.5x
// faster on two threads than on one, the data staying in the last-level
// cache, whose bandwidth one core does not use up.
inline constexpr int64_t kReductionParallelBytes = int64_t(1) << 20;

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
