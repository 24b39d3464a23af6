// The interface between the core and the CUDA backend plugin
// (libkumo_cuda.so). No CUDA header is included here: the core talks to the
// plugin only through these classes, and loads it lazily with dlopen.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/device.h"

namespace kumo {

struct LaunchDims {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  size_t shared_bytes = 0;
};

// NVRTC compilation and kernel launches. compile works without a GPU.
class CudaKernelBackend {
 public:
  virtual ~CudaKernelBackend() = default;
  // Compiles CUDA C++ source with NVRTC for sm_<arch> (e.g. 80, 90) and
  // returns the cubin. Throws CompileError carrying the NVRTC log.
  // Include paths to the toolkit headers are added by the backend.
  virtual std::string compile(const std::string& source, const std::string& program_name, int arch,
                              const std::vector<std::string>& options) = 0;
  // The same source through NVRTC for the virtual architecture
  // compute_<arch>: the PTX text, without ptxas's cubin. What checking that a
  // kernel compiles needs (KUMO_VERIFY_CUDA on a machine without a GPU).
  virtual std::string compile_ptx(const std::string& source, const std::string& program_name, int arch,
                                  const std::vector<std::string>& options) = 0;
  // e.g. "13.0"
  virtual std::string nvrtc_version() = 0;
  // Loads a cubin on a device and returns an opaque function handle
  // (valid for the process lifetime).
  virtual void* load_function(int device, const std::string& cubin, const std::string& function_name) = 0;
  // Launches `function` with the given kernel argument pointers on `stream`.
  virtual void launch(int device, void* function, const LaunchDims& dims, StreamHandle stream, void** args) = 0;
  // Compute capability of a device as major*10+minor (e.g. 90).
  virtual int device_arch(int device) = 0;

  // ---- User kernels (kumo::RawModule) ----
  // compile() plus, for each name expression ("f<float, 4>", "&g"), the
  // lowered (mangled) symbol NVRTC gave it, in the same order.
  struct CompiledModule {
    std::string cubin;
    std::vector<std::string> lowered_names;
  };
  virtual CompiledModule compile_module(const std::string& source, const std::string& program_name, int arch,
                                        const std::vector<std::string>& options,
                                        const std::vector<std::string>& name_expressions) = 0;
  // Loads a code image (cubin, fatbin or PTX text) on a device and returns
  // the device address and size in bytes of a __device__/__constant__ global.
  virtual std::pair<void*, size_t> load_global(int device, const std::string& image, const std::string& name) = 0;
  // The attributes of a function from load_function, as CUDA's
  // cudaFuncAttributes names them without prefix ("max_threads_per_block",
  // "num_regs", "shared_size_bytes", ...).
  virtual std::vector<std::pair<std::string, int>> function_attributes(int device, void* function) = 0;
  // Sets "max_dynamic_shared_size_bytes" or "preferred_shared_memory_carveout".
  virtual void set_function_attribute(int device, void* function, const std::string& name, int value) = 0;
};

// Streams and events (CUDA semantics) for kumo.cuda.Stream/Event.
class CudaStreamApi {
 public:
  virtual ~CudaStreamApi() = default;
  virtual StreamHandle create_stream(int device, bool non_blocking) = 0;
  virtual void destroy_stream(int device, StreamHandle stream) = 0;
  virtual void synchronize_stream(int device, StreamHandle stream) = 0;
  virtual bool query_stream(int device, StreamHandle stream) = 0;  // true when done
  virtual uintptr_t create_event(int device, bool timing) = 0;
  virtual void destroy_event(int device, uintptr_t event) = 0;
  virtual void record_event(int device, uintptr_t event, StreamHandle stream) = 0;
  virtual void synchronize_event(int device, uintptr_t event) = 0;
  virtual bool query_event(int device, uintptr_t event) = 0;
  virtual float elapsed_ms(int device, uintptr_t start, uintptr_t end) = 0;
  virtual void stream_wait_event(int device, StreamHandle stream, uintptr_t event) = 0;
  // Per-thread current stream of a device (0 = legacy default stream).
  virtual StreamHandle current_stream(int device) = 0;
  virtual void set_current_stream(int device, StreamHandle stream) = 0;
};

class CudaPlugin {
 public:
  virtual ~CudaPlugin() = default;
  // Number of usable CUDA devices (0 when there is no driver or GPU).
  virtual int device_count() = 0;
  // Why there is no usable device ("" when device_count() > 0).
  virtual std::string unavailable_reason() = 0;
  virtual Device& device(int index) = 0;
  virtual CudaKernelBackend& kernels() = 0;
  virtual CudaStreamApi& streams() = 0;
  // Pinned (page-locked) host memory pool.
  virtual MemoryPool& pinned_memory_pool() = 0;
  // The capability backends (cuBLAS/cuSOLVER, cuFFT, cuRAND, CUB sorts,
  // cuDNN, cuSPARSE) are not part of this interface: each registers itself
  // with core/backend_registry.h when the plugin is loaded, so the core
  // needs no header of the layers above it.
  // Human-readable versions: runtime, driver, NVRTC.
  virtual std::string version_info() = 0;
};

// Loads the plugin on first call. Returns nullptr when it cannot be loaded;
// cuda_plugin_load_error() then says why. Never throws.
CudaPlugin* cuda_plugin();
std::string cuda_plugin_load_error();
// True when the plugin loaded and reports at least one device.
bool cuda_is_available();
// A readable reason when cuda_is_available() is false.
std::string cuda_unavailable_reason();
// Whether this build of the core was configured with the CUDA toolkit.
bool built_with_cuda();

}  // namespace kumo

// The plugin exports this symbol (C linkage) returning its singleton.
extern "C" kumo::CudaPlugin* kumo_cuda_plugin_instance();
