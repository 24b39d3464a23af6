// The CUDA plugin's entry point: the CudaPlugin singleton returned by
// kumo_cuda_plugin_instance(), device discovery and version reporting.
//
// The plugin links the CUDA runtime statically and never links libcuda: the
// runtime opens the driver itself on first use, so the plugin loads on a
// machine without a driver and reports "no device" instead of failing to load.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>

#include "core/cuda/cuda_common.h"
#include "core/cuda_plugin.h"
#include "core/errors.h"

namespace kumo {
namespace cuda_detail {

std::string format_cuda_version(int encoded) {
  // The runtime encodes versions as 1000*major + 10*minor.
  return std::to_string(encoded / 1000) + "." + std::to_string((encoded % 1000) / 10);
}

namespace {

// Outcome of the one-time device probe.
struct DeviceProbe {
  int count = 0;
  std::string reason;  // "" when count > 0
};

std::string describe_probe_failure(cudaError_t err) {
  const std::string detail = std::string("(cudaGetDeviceCount: ") + cudaGetErrorString(err) + ")";
  switch (err) {
    case cudaErrorInsufficientDriver: {
      // The runtime reports a missing driver and an old driver with the same
      // code; the driver version (0 when there is none) tells them apart.
      int driver = 0;
      if (cudaDriverGetVersion(&driver) != cudaSuccess) clear_last_error();
      if (driver == 0) return "no CUDA driver found " + detail;
      int runtime = 0;
      if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) clear_last_error();
      return "the CUDA driver (" + format_cuda_version(driver) + ") is older than the CUDA runtime kumo was built with (" +
             format_cuda_version(runtime) + ") " + detail;
    }
    case cudaErrorNoDevice: {
      std::string reason = "no CUDA-capable device found " + detail;
      if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
        reason += " with CUDA_VISIBLE_DEVICES=\"" + std::string(visible) + "\"";
      }
      return reason;
    }
    case cudaErrorStubLibrary:
      return "the CUDA driver found is the toolkit's stub library, not a real driver " + detail;
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
      return "the CUDA driver library does not match the installed kernel driver " + detail;
    case cudaErrorDevicesUnavailable:
      return "every CUDA device is busy or unavailable (compute mode) " + detail;
    default:
      return "CUDA initialisation failed " + detail;
  }
}

DeviceProbe probe_devices() {
  DeviceProbe probe;
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    clear_last_error();
    probe.reason = describe_probe_failure(err);
    return probe;
  }
  probe.count = n;
  if (n == 0) probe.reason = "no CUDA device found (cudaGetDeviceCount reported 0 devices)";
  return probe;
}

// The probe runs once per process: the runtime fixes its device list at
// initialisation (CUDA_VISIBLE_DEVICES is read then), so asking again could
// not give a different answer.
const DeviceProbe& device_probe() {
  static const DeviceProbe probe = probe_devices();
  return probe;
}

class CudaPluginImpl final : public CudaPlugin {
 public:
  int device_count() override { return device_probe().count; }

  std::string unavailable_reason() override { return device_probe().reason; }

  Device& device(int index) override {
    require_device(index);
    return cuda_device(index);
  }

  CudaKernelBackend& kernels() override { return nvrtc_kernel_backend(); }

  CudaStreamApi& streams() override { return cuda_stream_api(); }

  MemoryPool& pinned_memory_pool() override {
    // Page-locking goes through the driver; without a device there is none.
    if (device_count() == 0) {
      throw DeviceError("pinned host memory needs a CUDA device: " + unavailable_reason());
    }
    return cuda_pinned_memory_pool();
  }

  std::string version_info() override {
    std::ostringstream os;
    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) clear_last_error();
    int driver = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) clear_last_error();
    os << "CUDA runtime " << format_cuda_version(runtime) << " (static)";
    os << ", CUDA driver " << (driver ? format_cuda_version(driver) : std::string("not found"));
    os << ", NVRTC " << kernels().nvrtc_version();
    const int n = device_count();
    if (n == 0) {
      os << ", no device: " << unavailable_reason();
      return os.str();
    }
    for (int i = 0; i < n; ++i) {
      cudaDeviceProp prop{};
      if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
        clear_last_error();
        os << ", cuda:" << i << " (properties unavailable)";
        continue;
      }
      os << ", cuda:" << i << ' ' << prop.name << " (sm_" << prop.major << prop.minor << ", "
         << (prop.totalGlobalMem >> 20) << " MiB)";
    }
    return os.str();
  }
};

}  // namespace

void require_device(int device) {
  const DeviceProbe& probe = device_probe();
  if (probe.count == 0) {
    throw DeviceError("CUDA device " + std::to_string(device) + " is not available: " + probe.reason);
  }
  if (device < 0 || device >= probe.count) {
    throw DeviceError("CUDA device index " + std::to_string(device) + " is out of range: " +
                      std::to_string(probe.count) + " device(s) visible");
  }
}

}  // namespace cuda_detail
}  // namespace kumo

// Exported with default visibility so the loader's dlsym finds it whatever
// visibility the plugin is compiled with.
extern "C" __attribute__((visibility("default"))) kumo::CudaPlugin* kumo_cuda_plugin_instance() {
  // Constructing the plugin makes no CUDA call, so loading the plugin can
  // never fail because of the driver; the first device query does that.
  static kumo::cuda_detail::NoDestructor<kumo::cuda_detail::CudaPluginImpl> instance;
  return &instance.get();
}
