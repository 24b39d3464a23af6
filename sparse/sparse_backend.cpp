#include "sparse/sparse_backend.h"

#include <string>

#include "core/backend_registry.h"
#include "core/errors.h"
#include "sparse/portable_sparse.h"

namespace kumo {
namespace sparse {

namespace {

// The host has two backends (SuperLU/OpenMP loops, and the portable kernels
// that run the CUDA backend's source on the host); the switch is read on
// every lookup.
const BackendRegistration host_registration(Capability::kSparse, DeviceType::kCPU, []() -> void* {
  return portable_sparse_on_host() ? &portable_sparse_backend() : &host_sparse_backend();
});

}  // namespace

SparseBackend& sparse_backend(const Device& device, const char* call) {
  if (SparseBackend* backend = find_backend<SparseBackend>(device.type())) return *backend;
  throw DeviceError(std::string(call) + ": kumo.sparse has no backend for " + device.name() +
                    " in this build; move the arrays to the host (to_device(\"cpu\"))");
}

int64_t SparseBackend::solve_qr(const Compressed&, const Array&, double, const Array&) {
  throw DeviceError("kumo.sparse.linalg.spsolve: the " + name() + " sparse backend has no device solver");
}

}  // namespace sparse
}  // namespace kumo
