// Shared helpers of the CUDA plugin (core/cuda/ and kernels/cuda/). Private
// to the plugin: nothing outside a cuda/ folder includes this header.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <new>
#include <sstream>
#include <string>
#include <utility>

#include "core/cuda_plugin.h"
#include "core/errors.h"

namespace kumo {
namespace cuda_detail {

// Formats "call(arg1, arg2) failed: <cudaGetErrorString>". Only runs on the
// failure path, so the hot path never builds strings.
template <typename... Args>
std::string format_call_failure(cudaError_t err, const char* call, const Args&... args) {
  std::ostringstream os;
  os << call << '(';
  [[maybe_unused]] const char* sep = "";
  ((os << sep << args, sep = ", "), ...);
  os << ") failed: " << cudaGetErrorString(err);
  return os.str();
}

// The runtime remembers the last error and hands it to the next
// cudaGetLastError caller; clearing it after every failure we report keeps a
// stale error from being blamed on an unrelated later call. Sticky errors
// (a faulted context) survive this and resurface on the next call anyway.
inline void clear_last_error() { (void)cudaGetLastError(); }

template <typename... Args>
[[noreturn]] __attribute__((noinline, cold)) void throw_call_failure(cudaError_t err, const char* call, const Args&... args) {
  clear_last_error();
  throw RuntimeError(format_call_failure(err, call, args...));
}

// check(cudaMalloc(&p, n), "cudaMalloc", n) throws
// kumo::RuntimeError("cudaMalloc(1048576) failed: out of memory").
template <typename... Args>
inline void check(cudaError_t err, const char* call, const Args&... args) {
  if (err != cudaSuccess) throw_call_failure(err, call, args...);
}

// Stream handles are printed as pointers in messages.
struct HexHandle {
  uintptr_t value;
};
inline std::ostream& operator<<(std::ostream& os, HexHandle h) {
  return os << "0x" << std::hex << h.value << std::dec;
}

inline cudaStream_t to_stream(StreamHandle h) { return reinterpret_cast<cudaStream_t>(h); }
inline cudaEvent_t to_event(uintptr_t h) { return reinterpret_cast<cudaEvent_t>(h); }

// Makes `device` current for this thread. cudaGetDevice only reads
// thread-local state, so the common "already current" case costs no
// context work.
inline void set_device(int device) {
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current == device) return;
  check(cudaSetDevice(device), "cudaSetDevice", device);
}

// Throws DeviceError unless 0 <= device < device_count() (with the reason
// when there is no device at all). Defined in cuda_plugin.cpp.
void require_device(int device);

// "13.0" from an encoded CUDA version such as 13000.
std::string format_cuda_version(int encoded);

// Singletons of the plugin's parts. They are created on first use and
// deliberately never destroyed: their destructors would call into the
// statically linked CUDA runtime after its own exit-time teardown.
CudaKernelBackend& nvrtc_kernel_backend();   // kernels/cuda/nvrtc_compiler.cpp
CudaStreamApi& cuda_stream_api();            // core/cuda/cuda_streams.cpp
Device& cuda_device(int index);              // core/cuda/cuda_device.cpp
MemoryPool& cuda_pinned_memory_pool();       // core/cuda/cuda_device.cpp

// Storage for an object that is constructed once and never destroyed
// (see above). Avoids a naked `new` that only exists to leak.
template <typename T>
class NoDestructor {
 public:
  template <typename... Args>
  explicit NoDestructor(Args&&... args) {
    new (storage_) T(std::forward<Args>(args)...);
  }
  NoDestructor(const NoDestructor&) = delete;
  NoDestructor& operator=(const NoDestructor&) = delete;
  T& get() { return *std::launder(reinterpret_cast<T*>(storage_)); }

 private:
  alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace cuda_detail
}  // namespace kumo
