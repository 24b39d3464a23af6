// Elementwise kernel launch: broadcasting, dimension squashing, kernel
// lookup (fast in-memory key, then the source-keyed cache), and launch on
// the host thread pool or as a CUDA grid.
#pragma once
#include <vector>

#include "core/array.h"
#include "kernels/codegen.h"
#include "kernels/spec.h"

namespace kumo {
namespace kernels {

// Launches `spec` with concrete types. `args` holds inputs then outputs,
// all defined, on one device; non-raw inputs are broadcast to the output
// shape. `size` (>= 0) gives the iteration size when every argument is raw.
void launch_elementwise(const ElementwiseSpec& spec, const ElementwiseSignature& sig, const std::vector<Array>& args,
                        int64_t size = -1);
// The same over `n` arrays given by pointer (no container needed).
void launch_elementwise(const ElementwiseSpec& spec, const ElementwiseSignature& sig, const Array* const* args,
                        size_t n, int64_t size = -1);

// A user-level call: binds generic types from the inputs (or `forced`),
// allocates outputs that are not given (undefined Array), broadcasts and
// launches. Returns the outputs.
std::vector<Array> call_elementwise(const ElementwiseSpec& spec, const std::vector<Array>& inputs,
                                    std::vector<Array> outputs, const TypeBindings& forced = {}, int64_t size = -1);

// Binds generic names from arrays given for parameters; throws TypeError on
// conflicts or when a generic output type cannot be inferred.
TypeBindings bind_generic_types(const std::vector<ParamSpec>& params, const std::vector<const Array*>& arrays,
                                const TypeBindings& forced);

// Checks the input count and binds every generic name from the arrays given
// for the parameters (inputs, then outputs; undefined outputs bind nothing).
TypeBindings bind_kernel_types(const std::string& kernel, const std::vector<ParamSpec>& in_params,
                               const std::vector<ParamSpec>& out_params, const std::vector<Array>& inputs,
                               const std::vector<Array>& outputs, const TypeBindings& forced);
// The dtype of a parameter under the bindings; TypeError if its generic name is unbound.
Dtype bound_dtype(const std::string& kernel, const ParamSpec& param, const TypeBindings& bindings);

}  // namespace kernels
}  // namespace kumo
