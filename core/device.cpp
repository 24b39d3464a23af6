#include "core/device.h"

#include <cstdlib>
#include <mutex>

#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "core/host/host_device.h"

namespace kumo {

bool built_with_cuda() { return KUMO_BUILT_WITH_CUDA != 0; }

std::string Device::name() const {
  if (type() == DeviceType::kCPU) return index() == 0 ? "cpu" : "cpu:" + std::to_string(index());
  return "cuda:" + std::to_string(index());
}

Device& host_device() {
  // Never destroyed: arrays freed during interpreter shutdown still return
  // their memory to this device's pool.
  static HostDevice* device = new HostDevice();
  return *device;
}

namespace {

Device& default_device() {
  static Device* chosen = [] {
    const char* env = std::getenv("KUMO_DEVICE");
    if (env && *env) return &get_device(std::string(env));
    if (cuda_is_available()) return &cuda_plugin()->device(0);
    return &host_device();
  }();
  return *chosen;
}

thread_local Device* t_current = nullptr;

}  // namespace

Device& current_device() {
  if (!t_current) t_current = &default_device();
  return *t_current;
}

void set_current_device(Device& device) { t_current = &device; }

Device& get_device(DeviceType type, int index) {
  if (type == DeviceType::kCPU) {
    if (index != 0) throw ValueError("the CPU device has index 0 only (got " + std::to_string(index) + ")");
    return host_device();
  }
  CudaPlugin* plugin = cuda_plugin();
  if (!plugin) throw DeviceError("CUDA device requested but CUDA is not available: " + cuda_unavailable_reason());
  int n = plugin->device_count();
  if (n == 0) throw DeviceError("CUDA device requested but CUDA is not available: " + cuda_unavailable_reason());
  if (index < 0 || index >= n)
    throw DeviceError("CUDA device " + std::to_string(index) + " requested but only " + std::to_string(n) +
                      " device(s) are present");
  return plugin->device(index);
}

Device& get_device(const std::string& spec) {
  if (spec == "cpu") return host_device();
  if (spec == "cuda" || spec == "gpu") return get_device(DeviceType::kCUDA, 0);
  if (spec.rfind("cuda:", 0) == 0) {
    std::string idx = spec.substr(5);
    char* end = nullptr;
    long v = std::strtol(idx.c_str(), &end, 10);
    if (!idx.empty() && end && *end == '\0') return get_device(DeviceType::kCUDA, static_cast<int>(v));
  }
  throw ValueError("unknown device '" + spec + "' (expected 'cpu', 'cuda' or 'cuda:N')");
}

}  // namespace kumo
