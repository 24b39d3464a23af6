// CUDA streams and events behind kumo.cuda.Stream / kumo.cuda.Event, and the
// per-thread current stream of each device.
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "core/cuda/cuda_common.h"
#include "core/errors.h"

namespace kumo {
namespace cuda_detail {
namespace {

// Current stream per device for this thread; devices never set read as the
// legacy default stream (0). A plain thread_local vector keeps the lookup on
// the launch path to an index.
thread_local std::vector<StreamHandle> t_current_stream;

class CudaStreamApiImpl final : public CudaStreamApi {
 public:
  StreamHandle create_stream(int device, bool non_blocking) override {
    require_device(device);
    set_device(device);
    cudaStream_t stream = nullptr;
    // Non-blocking streams do not synchronise with the legacy default
    // stream, which is what lets independent work overlap with it.
    const unsigned flags = non_blocking ? cudaStreamNonBlocking : cudaStreamDefault;
    check(cudaStreamCreateWithFlags(&stream, flags), "cudaStreamCreateWithFlags",
          non_blocking ? "cudaStreamNonBlocking" : "cudaStreamDefault", "device=" + std::to_string(device));
    return reinterpret_cast<StreamHandle>(stream);
  }

  void destroy_stream(int device, StreamHandle stream) override {
    if (stream == 0) throw ValueError("the default CUDA stream cannot be destroyed");
    require_device(device);
    set_device(device);
    // A destroyed stream left current would be handed to the next launch.
    if (static_cast<size_t>(device) < t_current_stream.size() && t_current_stream[device] == stream) {
      t_current_stream[device] = 0;
    }
    check(cudaStreamDestroy(to_stream(stream)), "cudaStreamDestroy", HexHandle{stream});
  }

  void synchronize_stream(int device, StreamHandle stream) override {
    require_device(device);
    set_device(device);
    check(cudaStreamSynchronize(to_stream(stream)), "cudaStreamSynchronize", HexHandle{stream});
  }

  bool query_stream(int device, StreamHandle stream) override {
    require_device(device);
    set_device(device);
    const cudaError_t err = cudaStreamQuery(to_stream(stream));
    if (err == cudaErrorNotReady) {
      clear_last_error();
      return false;
    }
    check(err, "cudaStreamQuery", HexHandle{stream});
    return true;
  }

  uintptr_t create_event(int device, bool timing) override {
    require_device(device);
    set_device(device);
    cudaEvent_t event = nullptr;
    // Timing costs a timestamp per record; events used only for ordering
    // skip it.
    const unsigned flags = timing ? cudaEventDefault : cudaEventDisableTiming;
    check(cudaEventCreateWithFlags(&event, flags), "cudaEventCreateWithFlags",
          timing ? "cudaEventDefault" : "cudaEventDisableTiming", "device=" + std::to_string(device));
    return reinterpret_cast<uintptr_t>(event);
  }

  void destroy_event(int device, uintptr_t event) override {
    require_device(device);
    set_device(device);
    check(cudaEventDestroy(to_event(event)), "cudaEventDestroy", HexHandle{event});
  }

  void record_event(int device, uintptr_t event, StreamHandle stream) override {
    require_device(device);
    set_device(device);
    check(cudaEventRecord(to_event(event), to_stream(stream)), "cudaEventRecord", HexHandle{event},
          HexHandle{stream});
  }

  void synchronize_event(int device, uintptr_t event) override {
    require_device(device);
    set_device(device);
    check(cudaEventSynchronize(to_event(event)), "cudaEventSynchronize", HexHandle{event});
  }

  bool query_event(int device, uintptr_t event) override {
    require_device(device);
    set_device(device);
    const cudaError_t err = cudaEventQuery(to_event(event));
    if (err == cudaErrorNotReady) {
      clear_last_error();
      return false;
    }
    check(err, "cudaEventQuery", HexHandle{event});
    return true;
  }

  float elapsed_ms(int device, uintptr_t start, uintptr_t end) override {
    require_device(device);
    set_device(device);
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, to_event(start), to_event(end)), "cudaEventElapsedTime", HexHandle{start},
          HexHandle{end});
    return ms;
  }

  void stream_wait_event(int device, StreamHandle stream, uintptr_t event) override {
    require_device(device);
    set_device(device);
    check(cudaStreamWaitEvent(to_stream(stream), to_event(event), 0), "cudaStreamWaitEvent", HexHandle{stream},
          HexHandle{event}, 0);
  }

  StreamHandle current_stream(int device) override {
    const size_t i = static_cast<size_t>(device);
    return i < t_current_stream.size() ? t_current_stream[i] : 0;
  }

  void set_current_stream(int device, StreamHandle stream) override {
    require_device(device);
    const size_t i = static_cast<size_t>(device);
    if (i >= t_current_stream.size()) t_current_stream.resize(i + 1, 0);
    t_current_stream[i] = stream;
  }
};

}  // namespace

CudaStreamApi& cuda_stream_api() {
  static NoDestructor<CudaStreamApiImpl> api;
  return api.get();
}

}  // namespace cuda_detail
}  // namespace kumo
