#include "kernels/kernel_arguments.h"

#include "core/device.h"
#include "kernels/elementwise.h"

namespace kumo {
namespace kernels {

std::vector<Array> kernel_arguments(const std::vector<ParamSpec>& params, const std::vector<KernelArgument>& args,
                                    const TypeBindings& forced, TypeBindings* bindings) {
  const size_t count = args.size();
  std::vector<Array> arrays(count);
  std::vector<const Array*> ptrs(count, nullptr);
  Device* device = nullptr;
  for (size_t i = 0; i < count; ++i) {
    if (args[i].scalar || !args[i].array.defined()) continue;
    arrays[i] = args[i].array;
    ptrs[i] = &arrays[i];
    if (device == nullptr) device = &arrays[i].device();
  }
  *bindings = bind_generic_types(params, ptrs, forced);
  if (device == nullptr) device = &current_device();
  for (size_t i = 0; i < count; ++i) {
    if (!args[i].scalar) continue;
    const ScalarValue& v = *args[i].scalar;
    const ParamSpec& p = params[i];
    Dtype d = default_dtype(v.kind);
    if (!p.is_generic) {
      d = p.dtype;
    } else {
      bool found = false;
      for (const auto& kv : *bindings) {
        if (kv.first == p.type_name) {
          d = kv.second;
          found = true;
        }
      }
      if (!found) bindings->emplace_back(p.type_name, d);
    }
    arrays[i] = scalar_to_array(v, d, *device);
  }
  return arrays;
}

}  // namespace kernels
}  // namespace kumo
