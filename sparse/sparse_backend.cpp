#include "sparse/sparse_backend.h"

#include <string>

#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "sparse/portable_sparse.h"

namespace kumo {
namespace sparse {

SparseBackend& sparse_backend(const Device& device, const char* call) {
  if (device.type() == DeviceType::kCPU) return portable_sparse_on_host() ? portable_sparse_backend() : host_sparse_backend();
  if (device.type() == DeviceType::kCUDA) {
    if (CudaPlugin* plugin = cuda_plugin()) {
      if (SparseBackend* backend = plugin->sparse()) return *backend;
    }
  }
  throw DeviceError(std::string(call) + ": kumo.sparse has no backend for " + device.name() +
                    " in this build; move the arrays to the host (to_device(\"cpu\"))");
}

int64_t SparseBackend::solve_qr(const Compressed&, const Array&, double, const Array&) {
  throw DeviceError("kumo.sparse.linalg.spsolve: the " + name() + " sparse backend has no device solver");
}

}  // namespace sparse
}  // namespace kumo
