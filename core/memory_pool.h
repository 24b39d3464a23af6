// The caching allocator: one pool algorithm over a raw allocator, so the
// same code pools host memory, CUDA device memory and pinned host memory.
//
// Algorithm: requests are rounded up to kRoundSize; free chunks live in
// size-class bins per stream; allocation takes the best-fitting free chunk
// (smallest that fits), splitting off the remainder; freeing merges a chunk
// with free neighbours from the same raw allocation. When the raw allocator
// fails (or the limit would be exceeded) the pool frees its cached blocks
// and retries once, then throws OutOfMemoryError.
//
// What the pool keeps cached is bounded by a CachePolicy (unbounded by
// default, which is what the CUDA pools want: cudaMalloc is slow and
// synchronizing). The host pool bounds it (see host_cache_policy_from_env),
// because there cached memory is memory every other process on the machine
// is denied.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/memory.h"

namespace kumo {

class Device;

// Source of raw memory for a pool. allocate returns nullptr when out of
// memory (it must not throw for that case). The pool calls allocate under its
// mutex, but may call deallocate from any thread without it (returning a
// large block to the system can take a while), so deallocate must be safe to
// run concurrently with allocate and with itself.
class RawAllocator {
 public:
  virtual ~RawAllocator() = default;
  virtual void* allocate(size_t nbytes) = 0;
  virtual void deallocate(void* ptr, size_t nbytes) = 0;
  virtual std::string name() const = 0;
  // After allocate returned nullptr: the call that failed, its arguments and
  // the system's reason, for the pool's OutOfMemoryError ("" if unknown).
  // Called under the pool mutex right after the failing allocate.
  virtual std::string last_failure() const { return {}; }
};

// Aligned host memory (kHostAlignment bytes), used by the CPU device.
// Blocks of kMapThreshold bytes or more are mapped directly (2 MiB aligned,
// advised to use transparent huge pages) so that freeing them unmaps them:
// memory handed back by the pool then really leaves the process, which is
// not guaranteed for blocks malloc keeps in its heap.
class HostRawAllocator final : public RawAllocator {
 public:
  static constexpr size_t kHostAlignment = 64;
  static constexpr size_t kHugePage = size_t(2) << 20;
  static constexpr size_t kMapThreshold = 2 * kHugePage;
  void* allocate(size_t nbytes) override;
  void deallocate(void* ptr, size_t nbytes) override;
  std::string name() const override { return "host"; }
  std::string last_failure() const override;

 private:
  // Plain data so that recording a failure cannot itself fail.
  const char* failed_call_ = nullptr;
  size_t failed_bytes_ = 0;
  int failed_errno_ = 0;
};

// Bounds on what a pool keeps cached after its arrays are freed. Only whole
// raw allocations ("segments") whose every byte is free can go back to the
// raw allocator, so the bounds act on those:
//  * a segment larger than max_cached_block goes back as soon as it is
//    entirely free;
//  * while free_bytes() exceeds max_cached_bytes, entirely free segments go
//    back, least recently freed first. Free bytes inside segments that are
//    partly in use cannot go back but count towards the budget, so the
//    pool's whole overhead over what is in use stays within the budget
//    unless fragmentation alone exceeds it.
struct CachePolicy {
  static constexpr size_t kUnbounded = SIZE_MAX;
  size_t max_cached_block = kUnbounded;
  size_t max_cached_bytes = kUnbounded;

  // The host pool's bounds for a budget: blocks above a quarter of it are
  // not cached, so at least four of the largest cached blocks fit at once
  // (enough for the temporaries of a typical expression), and one huge
  // array cannot flush everything else out of the cache.
  static CachePolicy for_budget(size_t max_cached_bytes);
};

// Name of the environment variable that sets the host pool's cache budget.
inline constexpr const char* kHostPoolLimitEnv = "KUMO_HOST_POOL_LIMIT";

// Parses a byte count as written in KUMO_HOST_POOL_LIMIT: decimal digits
// with an optional K, M, G or T suffix (powers of 1024, case-insensitive,
// optionally followed by "B" or "iB"): "1073741824", "512M", "2G", "64KiB".
// Throws ValueError naming `what` and the text when it is not such a count.
size_t parse_byte_size(const std::string& text, const std::string& what);

// The default host cache budget: 1/16 of physical memory, at most 1 GiB.
size_t default_host_cache_budget();

// CachePolicy::for_budget(KUMO_HOST_POOL_LIMIT if set, else the default).
CachePolicy host_cache_policy_from_env();

// Stream identity for per-stream free lists (0 = the default/null stream).
using StreamHandle = uintptr_t;

class MemoryPool {
 public:
  static constexpr size_t kRoundSize = 512;

  MemoryPool(std::unique_ptr<RawAllocator> raw, Device* device, CachePolicy policy = {});
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // nbytes == 0 gives a Memory with a null pointer and size 0.
  std::shared_ptr<Memory> malloc(size_t nbytes, StreamHandle stream = 0);

  // Returns every cached free chunk whose raw allocation is entirely free
  // to the raw allocator (all streams, or only `stream`).
  void free_all_blocks(std::optional<StreamHandle> stream = std::nullopt);

  size_t used_bytes() const;    // bytes in chunks handed out
  // The most used_bytes() has been since the pool was made or the last
  // reset_peak_used_bytes() (which sets it to the current used bytes).
  size_t peak_used_bytes() const;
  void reset_peak_used_bytes();
  size_t free_bytes() const;    // bytes cached in free chunks
  size_t total_bytes() const;   // used + free (= bytes held from the raw allocator)
  size_t n_free_blocks() const; // number of free chunks
  void set_limit(size_t nbytes); // 0 = no limit
  size_t get_limit() const;
  // Applies at once: cached segments beyond the new bounds go back.
  void set_cache_policy(CachePolicy policy);
  CachePolicy cache_policy() const;
  std::string raw_name() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;  // shared with outstanding Memory objects
};

size_t round_allocation_size(size_t nbytes);

}  // namespace kumo
