#include "core/host/host_device.h"

#include <cstring>

namespace kumo {

HostDevice::HostDevice() : pool_(std::make_unique<HostRawAllocator>(), this) {}

void HostDevice::copy_to_host(void* host_dst, const void* src, size_t nbytes) {
  if (nbytes) std::memcpy(host_dst, src, nbytes);
}
void HostDevice::copy_from_host(void* dst, const void* host_src, size_t nbytes) {
  if (nbytes) std::memcpy(dst, host_src, nbytes);
}
void HostDevice::copy_within(void* dst, const void* src, size_t nbytes) {
  if (nbytes) std::memmove(dst, src, nbytes);
}

}  // namespace kumo
