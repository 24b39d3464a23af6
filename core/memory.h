// A block of device (or host) memory that an ndarray points into.
// Ownership is shared: views of an array hold the same Memory.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace kumo {

class Device;

class Memory {
 public:
  Memory(void* ptr, size_t size, Device* device) : ptr_(ptr), size_(size), device_(device) {}
  virtual ~Memory() = default;
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  void* data() const { return ptr_; }
  size_t size() const { return size_; }
  Device* device() const { return device_; }

  // Counts writes into the block by in-place operations (assignment,
  // out= arguments, in-place operators, fill, in-place sort). The autograd
  // engine compares it with the count it saw when it retained an array, to
  // refuse a backward that would read modified data.
  uint64_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }

 private:
  void* ptr_;
  size_t size_;
  Device* device_;
  std::atomic<uint64_t> version_{0};
};

// Memory owned by someone else (a DLPack producer, a NumPy buffer); the
// deleter runs when the last array referencing it goes away.
class ExternalMemory final : public Memory {
 public:
  ExternalMemory(void* ptr, size_t size, Device* device, std::function<void()> deleter)
      : Memory(ptr, size, device), deleter_(std::move(deleter)) {}
  ~ExternalMemory() override {
    if (deleter_) deleter_();
  }

 private:
  std::function<void()> deleter_;
};

}  // namespace kumo
