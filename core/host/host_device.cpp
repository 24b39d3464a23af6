#include "core/host/host_device.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/host/thread_pool.h"

namespace kumo {

namespace {

// From this size on, a copy between non-overlapping blocks is split over the
// threads: one core does not use up the last-level cache's bandwidth, nor
// quite all of the memory's (the same threshold as memory-bound ufuncs).
// Only copies within the device's own memory: with transfers from NumPy's
// memory split too, kumo.fft.ifft of 2^20 complex128 values alternating
// with NumPy's ran 1.4x slower (0.87x NumPy's time with one thread); the
// cause was not found, and a single thread copies such transfers as fast as
// NumPy does.
constexpr size_t kParallelCopyBytes = size_t(1) << 20;

void copy_bytes(void* dst, const void* src, size_t nbytes) {
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  const bool overlap = d < s + nbytes && s < d + nbytes;
  if (nbytes < kParallelCopyBytes || overlap || host_num_threads() < 2) {
    std::memmove(d, s, nbytes);
    return;
  }
  // Chunks of whole cache lines, so no line is written by two threads.
  constexpr int64_t kLine = 64;
  const int64_t lines = static_cast<int64_t>((nbytes + kLine - 1) / kLine);
  parallel_for(lines, lines / host_num_threads() + 1, [&](int64_t b, int64_t e) {
    const size_t begin = static_cast<size_t>(b * kLine);
    const size_t end = std::min(nbytes, static_cast<size_t>(e * kLine));
    if (begin < end) std::memcpy(d + begin, s + begin, end - begin);
  });
}

}  // namespace

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
  if (nbytes) copy_bytes(dst, src, nbytes);
}

}  // namespace kumo
