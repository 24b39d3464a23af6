#pragma once
// The arguments of a user kernel call (ElementwiseKernel, ReductionKernel):
// arrays bind the generic type names, scalars become 0-d arrays of the type
// their parameter has or binds (CuPy's rule: a scalar binds a generic name
// only when no array does, then to its default dtype), and a missing output
// is allocated by the call.
#include <optional>
#include <vector>

#include "core/array.h"
#include "kernels/spec.h"
#include "kernels/ufunc.h"

namespace kumo {
namespace kernels {

struct KernelArgument {
  Array array;                        // undefined for a scalar or a missing output
  std::optional<ScalarValue> scalar;  // a number given for the parameter
};

// The arrays for `params[0, args.size())` (scalars made 0-d arrays on the
// arrays' device, or the current one); `bindings` receives every bound
// generic name, `forced` first.
std::vector<Array> kernel_arguments(const std::vector<ParamSpec>& params, const std::vector<KernelArgument>& args,
                                    const TypeBindings& forced, TypeBindings* bindings);

}  // namespace kernels
}  // namespace kumo
