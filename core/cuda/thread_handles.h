// One CUDA library handle (cuSPARSE, cuSOLVER, ...) per (device, thread):
// a handle is bound to one stream at a time, so threads that set different
// streams must not share one, and creating one costs far more than a call.
// Handles go away with their thread (for the main thread at exit(), before
// the runtime is torn down); without a usable runtime they are left to the
// process's end, since destroying them could only fail.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "core/cuda/cuda_common.h"

namespace kumo {
namespace cuda_detail {

// Destroy: the library's destroy function, e.g. cusparseDestroy.
template <class Handle, auto Destroy>
class ThreadDeviceHandles {
 public:
  ThreadDeviceHandles() = default;
  ThreadDeviceHandles(const ThreadDeviceHandles&) = delete;
  ThreadDeviceHandles& operator=(const ThreadDeviceHandles&) = delete;
  ~ThreadDeviceHandles() {
    for (size_t d = 0; d < slots_.size(); ++d) {
      if (slots_[d] == nullptr) continue;
      if (cudaSetDevice(static_cast<int>(d)) != cudaSuccess) {
        clear_last_error();
        continue;
      }
      (void)Destroy(slots_[d]);
      clear_last_error();
    }
  }

  // The handle of `device`, made by create(&handle) (which throws on
  // failure) on first use.
  template <class Create>
  Handle at(int device, const Create& create) {
    if (static_cast<size_t>(device) >= slots_.size()) slots_.resize(static_cast<size_t>(device) + 1, nullptr);
    Handle& h = slots_[static_cast<size_t>(device)];
    if (h == nullptr) create(&h);
    return h;
  }

 private:
  std::vector<Handle> slots_;
};

}  // namespace cuda_detail
}  // namespace kumo
