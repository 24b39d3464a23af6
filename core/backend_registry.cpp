#include "core/backend_registry.h"

#include <atomic>

#include "core/cuda_plugin.h"
#include "core/errors.h"

namespace kumo {
namespace {

constexpr int kDeviceTypeCount = 2;

std::atomic<BackendFactory>& slot(Capability capability, DeviceType type) {
  // Constant-initialised (zero) storage: registrations from other libraries'
  // static initialisers may come before this library's own.
  static std::atomic<BackendFactory> slots[kCapabilityCount][kDeviceTypeCount];
  return slots[static_cast<int>(capability)][static_cast<int>(type)];
}

}  // namespace

void register_backend(Capability capability, DeviceType type, BackendFactory factory) {
  slot(capability, type).store(factory, std::memory_order_release);
}

void* find_backend(Capability capability, DeviceType type) {
  BackendFactory factory = slot(capability, type).load(std::memory_order_acquire);
  if (factory == nullptr && type == DeviceType::kCUDA && cuda_plugin() != nullptr) {
    factory = slot(capability, type).load(std::memory_order_acquire);
  }
  return factory ? factory() : nullptr;
}

std::string backend_unavailable_reason(DeviceType type) {
  if (type != DeviceType::kCUDA) return {};
  return cuda_plugin() == nullptr ? cuda_plugin_load_error() : "the CUDA plugin has no such backend";
}

void throw_backend_missing(const Device& device, const std::string& what) {
  if (device.type() == DeviceType::kCUDA) {
    throw DeviceError(what + " on " + device.name() + " needs the CUDA backend: " +
                      backend_unavailable_reason(device.type()));
  }
  throw DeviceError(what + " on " + device.name() + ": this build has no host backend for it");
}

}  // namespace kumo
