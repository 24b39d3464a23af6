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
//
// Raw allocator calls happen under the pool mutex; a RawAllocator must not
// call back into its pool.
#include "core/memory_pool.h"

#include <sys/mman.h>

#include <cassert>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
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
  const std::string args = call == "mmap" ? "NULL, " + std::to_string(failed_bytes_) +
                                                ", PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0"
                                          : std::to_string(kHostAlignment) + ", " + std::to_string(failed_bytes_);
  return call + "(" + args + ") failed: " + std::strerror(failed_errno_);
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
    Chunk* next = nullptr;  // `next` also links the spare list
    bool in_use = false;
    FreeSet::iterator pos;  // valid while the chunk is in the free set
    FreeSet::node_type node;  // the chunk's set node while it is out of the set
  };

  Impl(std::unique_ptr<RawAllocator> r, Device* d) : raw(std::move(r)), device(d) {}
  ~Impl();

  Chunk* allocate(size_t rounded, size_t requested, StreamHandle stream);
  void release(Chunk* c) noexcept;
  size_t release_free_segments(std::optional<StreamHandle> stream);
  void release_spares() noexcept;
  std::string oom_message(size_t requested, const std::string& reason) const;

  enum class Grow { kOk, kOverLimit, kRefused };

  Chunk* take_best_fit(size_t rounded, StreamHandle stream);
  Grow grow(size_t rounded, StreamHandle stream);
  Chunk* new_chunk();
  void recycle(Chunk* c) noexcept {
    c->next = spare;
    spare = c;
  }
  void insert_free(Chunk* c);
  void extract_free(Chunk* c) noexcept { c->node = free_set.extract(c->pos); }

  mutable std::mutex mu;
  std::unique_ptr<RawAllocator> raw;
  Device* device;
  FreeSet free_set;
  Chunk* spare = nullptr;
  size_t used = 0;   // rounded bytes of chunks handed out
  size_t total = 0;  // bytes held from the raw allocator
  size_t limit = 0;
  // Once the MemoryPool object is gone nobody can reuse cached chunks, so
  // segments go back to the raw allocator as soon as they become free.
  bool pool_alive = true;
};

namespace {

using Chunk = MemoryPool::Impl::Chunk;

inline uintptr_t addr(const Chunk* c) { return reinterpret_cast<uintptr_t>(c->ptr); }

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
    assert(c->prev == nullptr && c->next == nullptr);
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
  c->in_use = true;
  used += rounded;
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
  std::lock_guard<std::mutex> lock(mu);
  if (Chunk* c = take_best_fit(rounded, stream)) return c;
  if (grow(rounded, stream) != Grow::kOk) {
    const size_t released = release_free_segments(std::nullopt);
    const Grow again = grow(rounded, stream);
    if (again != Grow::kOk) {
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
  }
  // The new segment is the only free chunk on this stream that fits, and it
  // fits exactly, so this neither splits nor throws.
  return take_best_fit(rounded, stream);
}

void MemoryPool::Impl::release(Chunk* c) noexcept {
  std::lock_guard<std::mutex> lock(mu);
  assert(c->in_use);
  used -= c->size;
  c->in_use = false;
  if (Chunk* n = c->next; n != nullptr && !n->in_use) {
    assert(n->stream == c->stream);
    extract_free(n);
    c->size += n->size;
    c->next = n->next;
    if (c->next != nullptr) c->next->prev = c;
    recycle(n);
  }
  if (Chunk* p = c->prev; p != nullptr && !p->in_use) {
    assert(p->stream == c->stream);
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
  if (!pool_alive && c->prev == nullptr && c->next == nullptr) {
    try {
      raw->deallocate(c->ptr, c->size);
    } catch (...) {
      return;  // keep it cached; ~Impl tries again
    }
    total -= c->size;
    extract_free(c);
    recycle(c);
  }
}

size_t MemoryPool::Impl::release_free_segments(std::optional<StreamHandle> stream) {
  size_t released = 0;
  auto it = stream ? free_set.lower_bound(FitKey{*stream, 0}) : free_set.begin();
  while (it != free_set.end() && (!stream || (*it)->stream == *stream)) {
    Chunk* c = *it;
    ++it;
    if (c->prev != nullptr || c->next != nullptr) continue;  // segment partly in use
    raw->deallocate(c->ptr, c->size);  // if this throws the chunk is still cached: consistent
    total -= c->size;
    released += c->size;
    extract_free(c);
    recycle(c);
  }
  // Spare chunk objects are part of what the cache holds; drop them too.
  release_spares();
  return released;
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

MemoryPool::MemoryPool(std::unique_ptr<RawAllocator> raw, Device* device)
    : impl_(std::make_shared<Impl>(std::move(raw), device)) {}

MemoryPool::~MemoryPool() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->pool_alive = false;
  try {
    impl_->release_free_segments(std::nullopt);
  } catch (...) {
    // A failing raw free must not escape a destructor; ~Impl retries.
  }
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
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->release_free_segments(stream);
}

size_t MemoryPool::used_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->used;
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

std::string MemoryPool::raw_name() const { return impl_->raw->name(); }

}  // namespace kumo
