// CUDA devices: a Device per GPU with a caching pool over cudaMalloc, host
// and device copies on the thread's current stream, and the pinned host pool.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "core/cuda/cuda_common.h"
#include "core/device.h"
#include "core/memory_pool.h"

namespace kumo {
namespace cuda_detail {
namespace {

// Frees run on paths that must not throw (the pool releasing cache from a
// Memory deleter, destructors). A failure there cannot be acted on, but a
// silent one would hide a corrupted context, so it is reported on stderr.
// At process exit the static runtime may already be torn down; that case is
// expected and stays quiet.
void report_free_failure(cudaError_t err, const char* call, const void* ptr) {
  clear_last_error();
  if (err == cudaErrorCudartUnloading) return;
  std::fprintf(stderr, "kumo: %s(%p) failed: %s\n", call, ptr, cudaGetErrorString(err));
}

class CudaRawAllocator final : public RawAllocator {
 public:
  explicit CudaRawAllocator(int device) : device_(device) {}

  void* allocate(size_t nbytes) override {
    set_device(device_);
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, nbytes);
    // Out of memory is the pool's to handle (release its cache, retry, then
    // raise OutOfMemoryError with sizes); any other failure is a real error.
    if (err == cudaErrorMemoryAllocation) {
      clear_last_error();
      return nullptr;
    }
    check(err, "cudaMalloc", nbytes);
    return ptr;
  }

  void deallocate(void* ptr, size_t /*nbytes*/) override {
    int current = -1;
    if (cudaGetDevice(&current) != cudaSuccess || current != device_) {
      const cudaError_t err = cudaSetDevice(device_);
      if (err != cudaSuccess) return report_free_failure(err, "cudaSetDevice before cudaFree", ptr);
    }
    const cudaError_t err = cudaFree(ptr);
    if (err != cudaSuccess) report_free_failure(err, "cudaFree", ptr);
  }

  std::string name() const override { return "cuda:" + std::to_string(device_); }

 private:
  int device_;
};

class PinnedRawAllocator final : public RawAllocator {
 public:
  void* allocate(size_t nbytes) override {
    void* ptr = nullptr;
    // Portable: the pages count as pinned for every device, so a buffer from
    // this one pool can stage copies to any GPU.
    const cudaError_t err = cudaHostAlloc(&ptr, nbytes, cudaHostAllocPortable);
    if (err == cudaErrorMemoryAllocation) {
      clear_last_error();
      return nullptr;
    }
    check(err, "cudaHostAlloc", nbytes, "cudaHostAllocPortable");
    return ptr;
  }

  void deallocate(void* ptr, size_t /*nbytes*/) override {
    const cudaError_t err = cudaFreeHost(ptr);
    if (err != cudaSuccess) report_free_failure(err, "cudaFreeHost", ptr);
  }

  std::string name() const override { return "cuda_pinned"; }
};

class CudaDevice final : public Device {
 public:
  explicit CudaDevice(int index) : index_(index), pool_(std::make_unique<CudaRawAllocator>(index), this) {}

  DeviceType type() const override { return DeviceType::kCUDA; }
  int index() const override { return index_; }
  MemoryPool& memory_pool() override { return pool_; }

  StreamHandle current_stream() const override { return cuda_stream_api().current_stream(index_); }

  void copy_to_host(void* host_dst, const void* src, size_t nbytes) override {
    if (nbytes == 0) return;
    set_device(index_);
    const StreamHandle stream = current_stream();
    check(cudaMemcpyAsync(host_dst, src, nbytes, cudaMemcpyDeviceToHost, to_stream(stream)), "cudaMemcpyAsync",
          host_dst, src, nbytes, "cudaMemcpyDeviceToHost", HexHandle{stream});
    // The caller reads host_dst as soon as we return.
    check(cudaStreamSynchronize(to_stream(stream)), "cudaStreamSynchronize", HexHandle{stream});
  }

  void copy_from_host(void* dst, const void* host_src, size_t nbytes) override {
    if (nbytes == 0) return;
    set_device(index_);
    const StreamHandle stream = current_stream();
    check(cudaMemcpyAsync(dst, host_src, nbytes, cudaMemcpyHostToDevice, to_stream(stream)), "cudaMemcpyAsync", dst,
          host_src, nbytes, "cudaMemcpyHostToDevice", HexHandle{stream});
    // The caller may free or overwrite host_src once we return. From pinned
    // memory the copy is truly asynchronous, and on HMM/ATS systems even
    // pageable memory can be read by the DMA engine after the call returns,
    // so only a stream sync makes reusing the buffer safe in every case.
    check(cudaStreamSynchronize(to_stream(stream)), "cudaStreamSynchronize", HexHandle{stream});
  }

  void copy_within(void* dst, const void* src, size_t nbytes) override {
    if (nbytes == 0) return;
    set_device(index_);
    const StreamHandle stream = current_stream();
    // Stream-ordered like a kernel: later work on the stream sees the data.
    check(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, to_stream(stream)), "cudaMemcpyAsync", dst,
          src, nbytes, "cudaMemcpyDeviceToDevice", HexHandle{stream});
  }

  void synchronize() override {
    set_device(index_);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", "device=" + std::to_string(index_));
  }

 private:
  int index_;
  MemoryPool pool_;
};

// One slot per visible device, each filled on first use. The table is sized
// once (the device count never changes in a process), so lookups after the
// first are a single acquire load in call_once.
class DeviceTable {
 public:
  explicit DeviceTable(int count) : slots_(std::make_unique<Slot[]>(count > 0 ? count : 0)) {}

  CudaDevice& get(int index) {
    Slot& slot = slots_[index];
    std::call_once(slot.once, [&] { slot.device = std::make_unique<CudaDevice>(index); });
    return *slot.device;
  }

 private:
  struct Slot {
    std::once_flag once;
    std::unique_ptr<CudaDevice> device;
  };
  std::unique_ptr<Slot[]> slots_;
};

}  // namespace

Device& cuda_device(int index) {
  require_device(index);
  static NoDestructor<DeviceTable> table(kumo_cuda_plugin_instance()->device_count());
  return table.get().get(index);
}

MemoryPool& cuda_pinned_memory_pool() {
  // Pinned memory is ordinary host memory to everything but the DMA engine,
  // so its blocks belong to the host device.
  static NoDestructor<MemoryPool> pool(std::make_unique<PinnedRawAllocator>(), &host_device());
  return pool.get();
}

}  // namespace cuda_detail
}  // namespace kumo
