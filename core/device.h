// The device model: a Device owns a memory pool and knows how to copy
// memory; kernels are compiled and launched per backend (kernels/).
// Devices live for the whole process, so raw Device* are safe to keep.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "core/memory.h"
#include "core/memory_pool.h"

namespace kumo {

enum class DeviceType { kCPU = 0, kCUDA = 1 };

class Device {
 public:
  virtual ~Device() = default;
  virtual DeviceType type() const = 0;
  virtual int index() const = 0;
  // "cpu" or "cuda:N".
  std::string name() const;

  virtual MemoryPool& memory_pool() = 0;
  // Stream that work issued now from this thread goes to (0 on the host).
  virtual StreamHandle current_stream() const { return 0; }
  // Allocates from the pool on the current stream.
  std::shared_ptr<Memory> allocate(size_t nbytes) { return memory_pool().malloc(nbytes, current_stream()); }

  // host_dst/host_src are ordinary host pointers; the others belong to this device.
  virtual void copy_to_host(void* host_dst, const void* src, size_t nbytes) = 0;
  virtual void copy_from_host(void* dst, const void* host_src, size_t nbytes) = 0;
  virtual void copy_within(void* dst, const void* src, size_t nbytes) = 0;
  // Waits for all work queued on this device.
  virtual void synchronize() = 0;
};

// The single host (CPU) device.
Device& host_device();

// The device that new arrays go to from this thread. The first call decides
// the process default: KUMO_DEVICE ("cpu", "cuda", "cuda:N") if set, else
// the first CUDA device if the CUDA backend loads and sees one, else CPU.
Device& current_device();
void set_current_device(Device& device);

// Looks a device up by type and index; CUDA devices load the CUDA plugin.
// Throws DeviceError (with the plugin's reason) when it is not available.
Device& get_device(DeviceType type, int index = 0);
// Parses "cpu", "cuda", "cuda:1".
Device& get_device(const std::string& spec);

// RAII switch of the current device for this thread.
class DeviceScope {
 public:
  explicit DeviceScope(Device& device) : previous_(&current_device()) { set_current_device(device); }
  ~DeviceScope() { set_current_device(*previous_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  Device* previous_;
};

}  // namespace kumo
