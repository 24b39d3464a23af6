#include "core/host/host_device.h"

#include <cstring>

namespace kumo {

// The host pool bounds its cache (KUMO_HOST_POOL_LIMIT): cached host memory
// is memory the rest of the machine cannot use.
HostDevice::HostDevice() : pool_(std::make_unique<HostRawAllocator>(), this, host_cache_policy_from_env()) {}

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
