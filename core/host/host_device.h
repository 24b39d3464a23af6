// The CPU device: host memory through the caching pool; kernels run on the
// host thread pool, in order (no streams).
#pragma once
#include "core/device.h"

namespace kumo {

class HostDevice final : public Device {
 public:
  HostDevice();
  DeviceType type() const override { return DeviceType::kCPU; }
  int index() const override { return 0; }
  MemoryPool& memory_pool() override { return pool_; }
  void copy_to_host(void* host_dst, const void* src, size_t nbytes) override;
  void copy_from_host(void* dst, const void* host_src, size_t nbytes) override;
  void copy_within(void* dst, const void* src, size_t nbytes) override;
  void synchronize() override {}

 private:
  MemoryPool pool_;
};

}  // namespace kumo
