// Caching allocator (see memory_pool.h for the algorithm in brief).
//
// Layout of the state:
//  * Every raw allocation ("segment") is cut into chunks kept in a doubly
//    linked list in address order (Chunk::prev/next). A chunk never crosses
//    a segment boundary, so a free chunk with no neighbours is exactly one
//    whole segment and can be handed back to the raw allocator.
//  * All free chunks of all streams live in one ordered set keyed by
//    (stream, size, address). A lower_bound on (stream, size) is therefore a
//    best-fit search restricted to that stream's free list, and ties go to
//    the lowest address, which keeps live data packed towards segment starts.
//  * Cache hits must not touch the heap: chunk objects are recycled through
//    an intrusive spare list, and each chunk carries the set node it was
//    extracted with (C++17 node handles), so moving a chunk in and out of the
//    free set re-links an existing node instead of allocating one.
//  * free_bytes is total - used rather than a third counter, so the three
//    figures cannot drift apart.
//  * Entirely free segments are also on an intrusive list in the order they
//    became free (Chunk::lru_prev/lru_next), so the cache policy can hand
//    back the least recently freed one in O(1).
//
// raw->allocate is called under the pool mutex. Segments leaving the pool
// are first taken off its books under the mutex, then handed to
// raw->deallocate after it is released: unmapping a few GiB of small pages
// takes a quarter of a second, which no other thread should wait for. A
// RawAllocator must not call back into its pool.
#include "core/memory_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "core/errors.h"

namespace kumo {

namespace {

constexpr size_t kMaxSize = std::numeric_limits<size_t>::max();

std::string with_commas(size_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// Rounds n up to a multiple of the power of two a; n must leave room.
constexpr size_t align_up(size_t n, size_t a) { return (n + a - 1) & ~(a - 1); }

// Requests from this size on are checked against the memory the machine can
// still back: Linux overcommits, so an mmap larger than that succeeds and the
// process is killed when the pages are touched. Below it the check would
// cost more than it saves.
constexpr size_t kCheckedRequest = size_t(1) << 30;
// Above this no address space has room (x86-64 and AArch64 user space is at
// most 2^47-2^48 bytes): mmap refuses such a request itself, and says so.
constexpr size_t kAddressSpace = size_t(1) << 48;

// A number from a "Key:   N kB" line of /proc/meminfo, in bytes (0 if absent).
size_t meminfo_bytes(const std::string& text, const char* key) {
  const size_t at = text.find(key);
  if (at == std::string::npos) return 0;
  return static_cast<size_t>(std::strtoull(text.c_str() + at + std::strlen(key), nullptr, 10)) * 1024;
}

std::string read_file(const char* path) {
  std::string out;
  if (FILE* f = std::fopen(path, "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
  }
  return out;
}

// What a new allocation can still get: MemAvailable plus free swap, and no
// more than the cgroup (container) limit leaves. SIZE_MAX when unknown or
// when KUMO_HOST_MEMORY_CHECK=0.
size_t host_memory_available() {
  static const bool enabled = [] {
    const char* env = std::getenv("KUMO_HOST_MEMORY_CHECK");
    return !(env && std::strcmp(env, "0") == 0);
  }();
  if (!enabled) return kMaxSize;
  const std::string info = read_file("/proc/meminfo");
  size_t avail = kMaxSize;
  if (info.find("MemAvailable:") != std::string::npos)
    avail = meminfo_bytes(info, "MemAvailable:") + meminfo_bytes(info, "SwapFree:");
  const std::string max = read_file("/sys/fs/cgroup/memory.max");
  if (!max.empty() && std::isdigit(static_cast<unsigned char>(max[0]))) {
    const size_t limit = std::strtoull(max.c_str(), nullptr, 10);
    const size_t used = std::strtoull(read_file("/sys/fs/cgroup/memory.current").c_str(), nullptr, 10);
    avail = std::min(avail, limit > used ? limit - used : 0);
  }
  return avail;
}

}  // namespace

size_t round_allocation_size(size_t nbytes) {
  static_assert((MemoryPool::kRoundSize & (MemoryPool::kRoundSize - 1)) == 0,
                "kRoundSize must be a power of two");
  if (nbytes > kMaxSize - (MemoryPool::kRoundSize - 1)) {
    throw OutOfMemoryError("Out of memory allocating " + with_commas(nbytes) +
                           " bytes (the size cannot be represented after rounding)");
  }
  return (nbytes + MemoryPool::kRoundSize - 1) & ~(MemoryPool::kRoundSize - 1);
}

// ---------------------------------------------------------------------------
// HostRawAllocator

void* HostRawAllocator::allocate(size_t nbytes) {
  failed_call_ = nullptr;
  // aligned_alloc wants a size that is a non-zero multiple of the alignment.
  if (nbytes == 0) nbytes = kHostAlignment;
  if (nbytes >= kMapThreshold) {
    // Large blocks are aligned to 2 MiB and advised to use transparent huge
    // pages: streaming kernels over them then miss the TLB far less often,
    // and first-touch page faults are 512 times fewer.
    if (nbytes > kMaxSize - 2 * kHugePage) {
      failed_call_ = "mmap";
      failed_bytes_ = nbytes;
      failed_errno_ = ENOMEM;
      return nullptr;
    }
    const size_t n = align_up(nbytes, kHugePage);
    if (n >= kCheckedRequest && n < kAddressSpace && n > host_memory_available()) {
      failed_call_ = "the check against the memory available (/proc/meminfo, the cgroup limit)";
      failed_bytes_ = n;
      failed_errno_ = ENOMEM;
      return nullptr;
    }
    // mmap only promises page alignment: map one huge page more and unmap
    // the unaligned head and the unused tail.
    const size_t span = n + kHugePage;
    void* m = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      failed_call_ = "mmap";
      failed_bytes_ = span;
      failed_errno_ = errno;
      return nullptr;
    }
    char* const base = static_cast<char*>(m);
    char* const p = reinterpret_cast<char*>(align_up(reinterpret_cast<uintptr_t>(base), kHugePage));
    const size_t head = static_cast<size_t>(p - base);
    const size_t tail = span - head - n;
    // These untouched pages cost address space only, so a failure to unmap
    // them (possible only at the vm.max_map_count limit) is not worth failing
    // the allocation for.
    if (head != 0) munmap(base, head);
    if (tail != 0) munmap(p + n, tail);
    // A hint: without transparent huge pages it fails and small pages serve.
    madvise(p, n, MADV_HUGEPAGE);
    return p;
  }
  const size_t n = align_up(nbytes, kHostAlignment);
  void* p = std::aligned_alloc(kHostAlignment, n);
  if (p == nullptr) {
    failed_call_ = "aligned_alloc";
    failed_bytes_ = n;
    failed_errno_ = errno != 0 ? errno : ENOMEM;
  }
  return p;
}

void HostRawAllocator::deallocate(void* ptr, size_t nbytes) {
  // The pool passes back the size it allocated, so this picks the same path
  // allocate took.
  if (nbytes >= kMapThreshold) {
    munmap(ptr, align_up(nbytes, kHugePage));
  } else {
    std::free(ptr);
  }
}

std::string HostRawAllocator::last_failure() const {
  if (failed_call_ == nullptr) return {};
  // Plain digits: thousands separators would read as more arguments.
  const std::string call(failed_call_);
  if (call.rfind("the check", 0) == 0)
    return "refused by " + call + ": the machine cannot back " + std::to_string(failed_bytes_) +
           " more bytes (an mmap would succeed and the process be killed when the pages are touched; "
           "KUMO_HOST_MEMORY_CHECK=0 turns the check off)";
  const std::string args = call == "mmap" ? "NULL, " + std::to_string(failed_bytes_) +
                                                ", PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0"
                                          : std::to_string(kHostAlignment) + ", " + std::to_string(failed_bytes_);
  return call + "(" + args + ") failed: " + std::strerror(failed_errno_);
}

// ---------------------------------------------------------------------------
// Cache policy and KUMO_HOST_POOL_LIMIT

CachePolicy CachePolicy::for_budget(size_t max_cached_bytes) {
  CachePolicy p;
  p.max_cached_bytes = max_cached_bytes;
  p.max_cached_block = max_cached_bytes == kUnbounded ? kUnbounded : max_cached_bytes / 4;
  return p;
}

size_t parse_byte_size(const std::string& text, const std::string& what) {
  auto bad = [&](const std::string& why) {
    return ValueError(what + "='" + text + "' " + why +
                      ": expected a number of bytes with an optional K, M, G or T suffix "
                      "(powers of 1024), such as 1073741824, 512M or 2G, or 'unlimited'");
  };
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  std::string s;
  for (size_t i = b; i < e; ++i) s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))));
  if (s == "unlimited") return CachePolicy::kUnbounded;
  size_t i = 0;
  size_t value = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    const size_t d = static_cast<size_t>(s[i] - '0');
    if (value > (kMaxSize - d) / 10) throw bad("is too large");
    value = value * 10 + d;
  }
  if (i == 0) throw bad("is not a byte count");
  std::string suffix = s.substr(i);
  // "2g", "2gb" and "2gib" all mean 2 GiB; a bare "b" means bytes.
  if (suffix.size() > 1 && (suffix.substr(1) == "b" || suffix.substr(1) == "ib")) suffix.resize(1);
  unsigned shift = 0;
  if (suffix.empty() || suffix == "b") shift = 0;
  else if (suffix == "k") shift = 10;
  else if (suffix == "m") shift = 20;
  else if (suffix == "g") shift = 30;
  else if (suffix == "t") shift = 40;
  else throw bad("has an unknown suffix '" + text.substr(b + i, e - b - i) + "'");
  if (value > (kMaxSize >> shift)) throw bad("is too large");
  return value << shift;
}

size_t default_host_cache_budget() {
  constexpr size_t kCap = size_t(1) << 30;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return kCap;  // unknown: assume a machine big enough for the cap
  const size_t phys = static_cast<size_t>(pages) * static_cast<size_t>(page_size);
  return std::min(kCap, phys / 16);
}

CachePolicy host_cache_policy_from_env() {
  const char* env = std::getenv(kHostPoolLimitEnv);
  if (env == nullptr || *env == '\0') return CachePolicy::for_budget(default_host_cache_budget());
  return CachePolicy::for_budget(parse_byte_size(env, kHostPoolLimitEnv));
}

// ---------------------------------------------------------------------------
// Pool state

struct MemoryPool::Impl {
  struct Chunk;

  // Heterogeneous key so best-fit lookups need no probe Chunk.
  struct FitKey {
    StreamHandle stream;
    size_t size;
  };

  struct ChunkOrder {
    using is_transparent = void;
    bool operator()(const Chunk* a, const Chunk* b) const;
    bool operator()(const Chunk* a, const FitKey& b) const;
    bool operator()(const FitKey& a, const Chunk* b) const;
  };

  using FreeSet = std::set<Chunk*, ChunkOrder>;

  struct Chunk {
    char* ptr = nullptr;
    size_t size = 0;
    StreamHandle stream = 0;
    Chunk* prev = nullptr;  // address-order neighbours within one segment;
    Chunk* next = nullptr;  // `next` also links the spare list and segments leaving the pool
    bool in_use = false;
    bool in_lru = false;        // an entirely free segment on the LRU list
    Chunk* lru_prev = nullptr;  // towards the least recently freed
    Chunk* lru_next = nullptr;  // towards the most recently freed
    FreeSet::iterator pos;  // valid while the chunk is in the free set
    FreeSet::node_type node;  // the chunk's set node while it is out of the set
  };

  enum class Grow { kOk, kOverLimit, kRefused };

  Impl(std::unique_ptr<RawAllocator> r, Device* d, CachePolicy p)
      : raw(std::move(r)), device(d), policy(p) {}
  ~Impl();

  Chunk* allocate(size_t rounded, size_t requested, StreamHandle stream);
  void release(Chunk* c) noexcept;
  void release_spares() noexcept;
  std::string oom_message(size_t requested, const std::string& reason) const;

  Chunk* take_best_fit(size_t rounded, StreamHandle stream);
  Grow grow(size_t rounded, StreamHandle stream);
  Chunk* new_chunk();
  void recycle(Chunk* c) noexcept {
    c->next = spare;
    spare = c;
  }
  void insert_free(Chunk* c);
  void extract_free(Chunk* c) noexcept { c->node = free_set.extract(c->pos); }

  // Segments leave the pool in two steps: detach (under the mutex) takes an
  // entirely free segment off the books and chains it through Chunk::next;
  // hand_back (without the mutex) gives the chain to the raw allocator.
  void detach(Chunk* c, Chunk** chain) noexcept;
  size_t detach_free_segments(std::optional<StreamHandle> stream, Chunk** chain) noexcept;
  void trim_to_budget(Chunk** chain) noexcept {
    // The test inline, the loop not: this runs on every free.
    if (lru_oldest != nullptr && total - used > policy.max_cached_bytes) trim_to_budget_slow(chain);
  }
  void trim_to_budget_slow(Chunk** chain) noexcept;
  void hand_back(Chunk* chain) noexcept {
    if (chain != nullptr) hand_back_slow(chain);
  }
  void hand_back_slow(Chunk* chain) noexcept;

  void lru_push(Chunk* c) noexcept;
  void lru_unlink(Chunk* c) noexcept;

  mutable std::mutex mu;
  std::unique_ptr<RawAllocator> raw;
  Device* device;
  CachePolicy policy;
  FreeSet free_set;
  Chunk* spare = nullptr;
  Chunk* lru_oldest = nullptr;  // entirely free segments in the order they
  Chunk* lru_newest = nullptr;  // became free
  size_t used = 0;   // rounded bytes of chunks handed out
  size_t peak_used = 0;  // the highest `used` since creation or the last reset
  size_t total = 0;  // bytes held from the raw allocator
  size_t limit = 0;
  // Once the MemoryPool object is gone nobody can reuse cached chunks, so
  // segments go back to the raw allocator as soon as they become free.
  bool pool_alive = true;
};

namespace {

using Chunk = MemoryPool::Impl::Chunk;

inline uintptr_t addr(const Chunk* c) { return reinterpret_cast<uintptr_t>(c->ptr); }

inline bool whole_segment(const Chunk* c) { return c->prev == nullptr && c->next == nullptr; }

// Ownership of one chunk; the chunk goes back to the pool when the last
// array referencing it is gone. Holding the Impl keeps the pool state (and
// the raw allocator) alive even if the MemoryPool object is destroyed first.
class PooledMemory final : public Memory {
 public:
  PooledMemory(std::shared_ptr<MemoryPool::Impl> impl, Chunk* chunk, size_t nbytes)
      : Memory(chunk->ptr, nbytes, impl->device), impl_(std::move(impl)), chunk_(chunk) {}
  ~PooledMemory() override { impl_->release(chunk_); }

 private:
  std::shared_ptr<MemoryPool::Impl> impl_;
  Chunk* chunk_;
};

}  // namespace

bool MemoryPool::Impl::ChunkOrder::operator()(const Chunk* a, const Chunk* b) const {
  if (a->stream != b->stream) return a->stream < b->stream;
  if (a->size != b->size) return a->size < b->size;
  return addr(a) < addr(b);
}
bool MemoryPool::Impl::ChunkOrder::operator()(const Chunk* a, const FitKey& b) const {
  if (a->stream != b.stream) return a->stream < b.stream;
  return a->size < b.size;
}
bool MemoryPool::Impl::ChunkOrder::operator()(const FitKey& a, const Chunk* b) const {
  if (a.stream != b->stream) return a.stream < b->stream;
  return a.size < b->size;
}

MemoryPool::Impl::~Impl() {
  // Only reached when no PooledMemory is left, so every segment has merged
  // back into a single free chunk.
  for (Chunk* c : free_set) {
    assert(whole_segment(c));
    try {
      raw->deallocate(c->ptr, c->size);
    } catch (...) {
      // Nothing sensible to do while tearing down; the memory is lost.
    }
    delete c;
  }
  free_set.clear();
  release_spares();
}

void MemoryPool::Impl::release_spares() noexcept {
  while (spare != nullptr) {
    Chunk* c = spare;
    spare = c->next;
    delete c;
  }
}

MemoryPool::Impl::Chunk* MemoryPool::Impl::new_chunk() {
  if (spare == nullptr) return new Chunk();
  Chunk* c = spare;
  spare = c->next;
  return c;
}

void MemoryPool::Impl::insert_free(Chunk* c) {
  if (c->node.empty()) {
    c->pos = free_set.insert(c).first;  // allocates a node; may throw
  } else {
    c->node.value() = c;  // a recycled chunk may carry a node last used for another chunk
    c->pos = free_set.insert(std::move(c->node)).position;
  }
}

void MemoryPool::Impl::lru_push(Chunk* c) noexcept {
  assert(!c->in_lru);
  c->in_lru = true;
  c->lru_next = nullptr;
  c->lru_prev = lru_newest;
  if (lru_newest != nullptr) {
    lru_newest->lru_next = c;
  } else {
    lru_oldest = c;
  }
  lru_newest = c;
}

void MemoryPool::Impl::lru_unlink(Chunk* c) noexcept {
  assert(c->in_lru);
  if (c->lru_prev != nullptr) {
    c->lru_prev->lru_next = c->lru_next;
  } else {
    lru_oldest = c->lru_next;
  }
  if (c->lru_next != nullptr) {
    c->lru_next->lru_prev = c->lru_prev;
  } else {
    lru_newest = c->lru_prev;
  }
  c->lru_prev = c->lru_next = nullptr;
  c->in_lru = false;
}

void MemoryPool::Impl::detach(Chunk* c, Chunk** chain) noexcept {
  assert(!c->in_use && whole_segment(c));
  if (c->in_lru) lru_unlink(c);
  extract_free(c);
  total -= c->size;
  c->next = *chain;
  *chain = c;
}

size_t MemoryPool::Impl::detach_free_segments(std::optional<StreamHandle> stream, Chunk** chain) noexcept {
  size_t bytes = 0;
  auto it = stream ? free_set.lower_bound(FitKey{*stream, 0}) : free_set.begin();
  while (it != free_set.end() && (!stream || (*it)->stream == *stream)) {
    Chunk* c = *it;
    ++it;  // before detach, which invalidates c's iterator
    if (!whole_segment(c)) continue;  // segment partly in use
    bytes += c->size;
    detach(c, chain);
  }
  return bytes;
}

void MemoryPool::Impl::trim_to_budget_slow(Chunk** chain) noexcept {
  while (lru_oldest != nullptr && total - used > policy.max_cached_bytes) detach(lru_oldest, chain);
}

void MemoryPool::Impl::hand_back_slow(Chunk* chain) noexcept {
  Chunk* returned = nullptr;
  Chunk* kept = nullptr;
  while (chain != nullptr) {
    Chunk* c = chain;
    chain = c->next;
    try {
      raw->deallocate(c->ptr, c->size);
      c->next = returned;
      returned = c;
    } catch (...) {
      // Still the pool's memory: cache it again (over the budget, if need
      // be) rather than lose it; free_all_blocks or ~Impl try again.
      c->next = kept;
      kept = c;
    }
  }
  std::lock_guard<std::mutex> lock(mu);
  while (returned != nullptr) {
    Chunk* c = returned;
    returned = c->next;
    recycle(c);
  }
  while (kept != nullptr) {
    Chunk* c = kept;
    kept = c->next;
    c->next = nullptr;
    insert_free(c);  // c still holds the node detach extracted: cannot throw
    total += c->size;
    lru_push(c);
  }
}

MemoryPool::Impl::Chunk* MemoryPool::Impl::take_best_fit(size_t rounded, StreamHandle stream) {
  auto it = free_set.lower_bound(FitKey{stream, rounded});
  if (it == free_set.end() || (*it)->stream != stream) return nullptr;
  Chunk* c = *it;
  if (c->size > rounded) {
    // Everything that can throw comes before the first change to c.
    Chunk* rest = new_chunk();
    rest->ptr = c->ptr + rounded;
    rest->size = c->size - rounded;
    rest->stream = stream;
    rest->in_use = false;
    try {
      insert_free(rest);  // key differs from c's (other address), so c stays put
    } catch (...) {
      recycle(rest);
      throw;
    }
    extract_free(c);
    c->size = rounded;
    rest->prev = c;
    rest->next = c->next;
    if (c->next != nullptr) c->next->prev = rest;
    c->next = rest;
  } else {
    extract_free(c);
  }
  if (c->in_lru) lru_unlink(c);
  c->in_use = true;
  used += rounded;
  if (used > peak_used) peak_used = used;
  return c;
}

MemoryPool::Impl::Grow MemoryPool::Impl::grow(size_t rounded, StreamHandle stream) {
  if (limit != 0 && (total > limit || rounded > limit - total)) return Grow::kOverLimit;
  Chunk* seg = new_chunk();
  void* p = nullptr;
  try {
    p = raw->allocate(rounded);
  } catch (...) {
    recycle(seg);
    throw;
  }
  if (p == nullptr) {
    recycle(seg);
    return Grow::kRefused;
  }
  seg->ptr = static_cast<char*>(p);
  seg->size = rounded;
  seg->stream = stream;
  seg->prev = seg->next = nullptr;
  seg->in_use = false;
  seg->in_lru = false;
  // Going through the free set (instead of handing seg out directly) gives
  // the chunk a set node now, so its later release cannot need to allocate.
  try {
    insert_free(seg);
  } catch (...) {
    raw->deallocate(p, rounded);
    recycle(seg);
    throw;
  }
  total += rounded;
  return Grow::kOk;
}

MemoryPool::Impl::Chunk* MemoryPool::Impl::allocate(size_t rounded, size_t requested,
                                                    StreamHandle stream) {
  std::unique_lock<std::mutex> lock(mu);
  if (Chunk* c = take_best_fit(rounded, stream)) return c;
  // The new segment is the only free chunk on this stream that fits, and it
  // fits exactly, so take_best_fit neither splits nor throws.
  if (grow(rounded, stream) == Grow::kOk) return take_best_fit(rounded, stream);
  // Refused (or over the limit): give every entirely free cached segment
  // back, on all streams, and try once more.
  Chunk* chain = nullptr;
  const size_t released = detach_free_segments(std::nullopt, &chain);
  lock.unlock();
  hand_back(chain);
  lock.lock();
  release_spares();
  // Another thread may have freed a fitting chunk while the mutex was open.
  if (Chunk* c = take_best_fit(rounded, stream)) return c;
  const Grow again = grow(rounded, stream);
  if (again == Grow::kOk) return take_best_fit(rounded, stream);
  std::string reason;
  if (again == Grow::kOverLimit) {
    reason = "the request would exceed the pool's limit";
  } else {
    reason = raw->last_failure();
    if (reason.empty()) reason = "the " + raw->name() + " allocator refused";
  }
  reason += " (also after returning " + with_commas(released) + " cached bytes and retrying)";
  throw OutOfMemoryError(oom_message(requested, reason));
}

void MemoryPool::Impl::release(Chunk* c) noexcept {
  Chunk* leaving = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu);
    assert(c->in_use);
    used -= c->size;
    c->in_use = false;
    // Neighbours in c's segment are not entirely free segments, so none of
    // them is on the LRU list.
    if (Chunk* n = c->next; n != nullptr && !n->in_use) {
      assert(n->stream == c->stream && !n->in_lru);
      extract_free(n);
      c->size += n->size;
      c->next = n->next;
      if (c->next != nullptr) c->next->prev = c;
      recycle(n);
    }
    if (Chunk* p = c->prev; p != nullptr && !p->in_use) {
      assert(p->stream == c->stream && !p->in_lru);
      extract_free(p);
      p->size += c->size;
      p->next = c->next;
      if (p->next != nullptr) p->next->prev = p;
      recycle(c);
      c = p;
    }
    // c holds a node here (it was extracted when handed out, or p just was),
    // so this insert does not allocate and cannot throw.
    assert(!c->node.empty());
    insert_free(c);
    if (whole_segment(c)) {
      // Too large to be worth keeping, or nobody left to reuse it: it goes
      // back now. Otherwise it is the most recently freed cached segment.
      if (!pool_alive || c->size > policy.max_cached_block) {
        detach(c, &leaving);
      } else {
        lru_push(c);
      }
    }
    // Also after freeing part of a segment: its free bytes count too.
    trim_to_budget(&leaving);
  }
  hand_back(leaving);
}

std::string MemoryPool::Impl::oom_message(size_t requested, const std::string& reason) const {
  return "Out of memory allocating " + with_commas(requested) +
         " bytes (allocated so far: " + with_commas(used) + " bytes, held: " +
         with_commas(total) + " bytes, limit: " +
         (limit == 0 ? std::string("none") : with_commas(limit) + " bytes") + ") on " +
         raw->name() + ": " + reason;
}

// ---------------------------------------------------------------------------
// MemoryPool

MemoryPool::MemoryPool(std::unique_ptr<RawAllocator> raw, Device* device, CachePolicy policy)
    : impl_(std::make_shared<Impl>(std::move(raw), device, policy)) {}

MemoryPool::~MemoryPool() {
  Impl::Chunk* chain = nullptr;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->pool_alive = false;
    impl_->detach_free_segments(std::nullopt, &chain);
  }
  impl_->hand_back(chain);
}

std::shared_ptr<Memory> MemoryPool::malloc(size_t nbytes, StreamHandle stream) {
  if (nbytes == 0) return std::make_shared<Memory>(nullptr, 0, impl_->device);
  if (nbytes > kMaxSize - (kRoundSize - 1)) {
    std::lock_guard<std::mutex> lock(impl_->mu);
    throw OutOfMemoryError(impl_->oom_message(
        nbytes, "the size cannot be rounded up to a multiple of " + std::to_string(kRoundSize) + " bytes"));
  }
  const size_t rounded = round_allocation_size(nbytes);
  Chunk* c = impl_->allocate(rounded, nbytes, stream);
  try {
    return std::make_shared<PooledMemory>(impl_, c, nbytes);
  } catch (...) {
    impl_->release(c);
    throw;
  }
}

void MemoryPool::free_all_blocks(std::optional<StreamHandle> stream) {
  Impl::Chunk* chain = nullptr;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->detach_free_segments(stream, &chain);
  }
  impl_->hand_back(chain);
  // Spare chunk objects are part of what the cache holds; drop them too.
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->release_spares();
}

size_t MemoryPool::used_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->used;
}

size_t MemoryPool::peak_used_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->peak_used;
}

void MemoryPool::reset_peak_used_bytes() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->peak_used = impl_->used;
}

size_t MemoryPool::free_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->total - impl_->used;
}

size_t MemoryPool::total_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->total;
}

size_t MemoryPool::n_free_blocks() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->free_set.size();
}

void MemoryPool::set_limit(size_t nbytes) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->limit = nbytes;
}

size_t MemoryPool::get_limit() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->limit;
}

void MemoryPool::set_cache_policy(CachePolicy policy) {
  Impl::Chunk* chain = nullptr;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->policy = policy;
    for (Chunk* c = impl_->lru_oldest; c != nullptr;) {
      Chunk* newer = c->lru_next;  // detach clears c's links
      if (c->size > policy.max_cached_block) impl_->detach(c, &chain);
      c = newer;
    }
    impl_->trim_to_budget(&chain);
  }
  impl_->hand_back(chain);
}

CachePolicy MemoryPool::cache_policy() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->policy;
}

std::string MemoryPool::raw_name() const { return impl_->raw->name(); }

}  // namespace kumo
