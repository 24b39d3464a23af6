// Device-agnostic part of the random backend: kind names and access to the
// cuRAND implementation in the CUDA plugin.
#include "random/random_backend.h"

#include "core/backend_registry.h"
#include "core/errors.h"

namespace kumo {

const char* random_kind_name(RandomKind kind) {
  switch (kind) {
    case RandomKind::kPhilox4x32_10:
      return "philox4x32_10";
    case RandomKind::kXorwow:
      return "xorwow";
    case RandomKind::kMrg32k3a:
      return "mrg32k3a";
  }
  return "unknown";
}

RandomKind random_kind_from_name(const std::string& name) {
  if (name == "philox4x32_10") return RandomKind::kPhilox4x32_10;
  if (name == "xorwow") return RandomKind::kXorwow;
  if (name == "mrg32k3a") return RandomKind::kMrg32k3a;
  throw ValueError("unknown random generator kind '" + name + "' (expected philox4x32_10, xorwow or mrg32k3a)");
}

RandomBackend& random_backend() {
  // Host generators come from cuRAND too, so even CPU arrays use the
  // plugin's backend (registered for CUDA devices).
  if (RandomBackend* backend = find_backend<RandomBackend>(DeviceType::kCUDA)) return *backend;
  throw RuntimeError("kumo.random needs cuRAND, which is loaded with the CUDA plugin (libkumo_cuda.so), "
                     "and the plugin is unavailable: " +
                     backend_unavailable_reason(DeviceType::kCUDA));
}

}  // namespace kumo
