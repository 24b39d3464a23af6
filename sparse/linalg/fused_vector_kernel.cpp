#include "sparse/linalg/fused_vector_kernel.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "kernels/elementwise.h"
#include "kernels/spec.h"
#include "sparse/portable_sparse.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace {

// One spec per kernel, made on first use and kept for the program: the
// spec's id keys the compiled kernels in the cache.
const kernels::ElementwiseSpec& spec_of(const FusedVectorKernel& k) {
  static auto* specs = new std::map<std::string, std::shared_ptr<kernels::ElementwiseSpec>>();
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto& spec = (*specs)[k.name];
  if (!spec) {
    const std::string in = k.in_params[0] ? std::string(k.in_params) + ", raw T s" : std::string("raw T s");
    spec = kernels::ElementwiseSpec::create(k.name, in, k.out_params, k.operation);
  }
  return *spec;
}

}  // namespace

void run_fused_vector_kernel(const FusedVectorKernel& kernel, const Array& scalars, const std::vector<Array>& in,
                             const std::vector<Array>& out) {
  std::vector<Array> inputs = in;
  inputs.push_back(&scalars.device() == &out.at(0).device() ? scalars : scalars.to_device(out[0].device()));
  kernels::call_elementwise(spec_of(kernel), inputs, out);
}

bool host_vector_loops(const Device& device) {
  return device.type() == DeviceType::kCPU && !portable_sparse_on_host();
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
