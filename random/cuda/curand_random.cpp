// cuRAND implementation of RandomBackend: device generators for CUDA
// devices, host generators (curandCreateGeneratorHost, no GPU needed) for
// the CPU device. See random/random_backend.h for the stream model.
#include <curand.h>

#include <memory>
#include <mutex>
#include <sstream>
#include <string>

#include "core/backend_registry.h"
#include "core/cuda/cuda_common.h"
#include "core/errors.h"
#include "random/cuda/cuda_random.h"

namespace kumo {
namespace {

const char* curand_status_name(curandStatus_t status) {
  switch (status) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_VERSION_MISMATCH: return "CURAND_STATUS_VERSION_MISMATCH (header and library versions differ)";
    case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
    case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED (out of memory)";
    case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
    case CURAND_STATUS_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED: return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE";
    case CURAND_STATUS_PREEXISTING_FAILURE: return "CURAND_STATUS_PREEXISTING_FAILURE";
    case CURAND_STATUS_INITIALIZATION_FAILED: return "CURAND_STATUS_INITIALIZATION_FAILED (CUDA could not be initialised)";
    case CURAND_STATUS_ARCH_MISMATCH: return "CURAND_STATUS_ARCH_MISMATCH";
    case CURAND_STATUS_INTERNAL_ERROR: return "CURAND_STATUS_INTERNAL_ERROR";
  }
  return "unknown cuRAND status";
}

template <typename... Args>
[[noreturn]] __attribute__((noinline, cold)) void throw_curand_failure(curandStatus_t status, const char* call,
                                                                        const Args&... args) {
  std::ostringstream os;
  os << call << '(';
  [[maybe_unused]] const char* sep = "";
  ((os << sep << args, sep = ", "), ...);
  os << ") failed: " << curand_status_name(status) << " (" << static_cast<int>(status) << ')';
  if (status == CURAND_STATUS_ALLOCATION_FAILED) throw OutOfMemoryError(os.str());
  throw RuntimeError(os.str());
}

template <typename... Args>
inline void check(curandStatus_t status, const char* call, const Args&... args) {
  if (status != CURAND_STATUS_SUCCESS) throw_curand_failure(status, call, args...);
}

curandRngType_t to_curand(RandomKind kind) {
  switch (kind) {
    case RandomKind::kPhilox4x32_10: return CURAND_RNG_PSEUDO_PHILOX4_32_10;
    case RandomKind::kXorwow: return CURAND_RNG_PSEUDO_XORWOW;
    case RandomKind::kMrg32k3a: return CURAND_RNG_PSEUDO_MRG32K3A;
  }
  throw ValueError("invalid random generator kind " + std::to_string(static_cast<int>(kind)));
}

// Owns a curandGenerator_t.
class CurandHandle {
 public:
  CurandHandle(RandomKind kind, bool on_host, int device) {
    const curandRngType_t type = to_curand(kind);
    if (on_host) {
      check(curandCreateGeneratorHost(&handle_, type), "curandCreateGeneratorHost", random_kind_name(kind));
    } else {
      cuda_detail::set_device(device);
      check(curandCreateGenerator(&handle_, type), "curandCreateGenerator", random_kind_name(kind), device);
    }
  }
  ~CurandHandle() {
    if (handle_ != nullptr) (void)curandDestroyGenerator(handle_);
  }
  CurandHandle(const CurandHandle&) = delete;
  CurandHandle& operator=(const CurandHandle&) = delete;
  curandGenerator_t get() const { return handle_; }

 private:
  curandGenerator_t handle_ = nullptr;
};

class CurandGenerator final : public RandomGenerator {
 public:
  CurandGenerator(RandomKind kind, uint64_t seed, uint64_t offset, Device& device)
      : kind_(kind),
        device_(device),
        on_host_(device.type() == DeviceType::kCPU),
        handle_(kind, on_host_, prepare_device(device)),
        seed_(seed),
        offset_(offset) {
    check(curandSetPseudoRandomGeneratorSeed(handle_.get(), seed), "curandSetPseudoRandomGeneratorSeed",
          random_kind_name(kind), seed);
    check(curandSetGeneratorOffset(handle_.get(), offset), "curandSetGeneratorOffset", random_kind_name(kind),
          offset);
  }

  RandomKind kind() const override { return kind_; }
  Device& device() const override { return device_; }
  uint64_t seed() const override { return seed_; }
  uint64_t offset() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return offset_;
  }

  void generate_u32(uint32_t* out, size_t n) override {
    if (n == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    bind_stream();
    check(curandGenerate(handle_.get(), out, n), "curandGenerate", random_kind_name(kind_), n);
    advance(n);
  }

  void generate_poisson(uint32_t* out, size_t n, double lambda) override {
    if (!(lambda > 0.0)) {
      throw ValueError("Poisson generation needs lambda > 0 (got " + std::to_string(lambda) + ")");
    }
    if (n == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    bind_stream();
    check(curandGeneratePoisson(handle_.get(), out, n, lambda), "curandGeneratePoisson", random_kind_name(kind_),
          n, lambda);
    advance(n);
  }

  void sync_to_offset() override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!dirty_) return;
    check(curandSetGeneratorOffset(handle_.get(), offset_), "curandSetGeneratorOffset", random_kind_name(kind_),
          offset_);
    dirty_ = false;
  }

 private:
  static int prepare_device(Device& device) {
    if (device.type() == DeviceType::kCPU) return -1;
    cuda_detail::require_device(device.index());
    return device.index();
  }

  void bind_stream() {
    if (on_host_) return;
    cuda_detail::set_device(device_.index());
    const StreamHandle stream = device_.current_stream();
    check(curandSetStream(handle_.get(), cuda_detail::to_stream(stream)), "curandSetStream",
          random_kind_name(kind_), cuda_detail::HexHandle{stream});
  }

  void advance(size_t n) {
    offset_ += n;
    // XORWOW's live state drifts from "the state at offset_" (see the header).
    if (kind_ == RandomKind::kXorwow) dirty_ = true;
  }

  const RandomKind kind_;
  Device& device_;
  const bool on_host_;
  CurandHandle handle_;
  const uint64_t seed_;
  mutable std::mutex mutex_;
  uint64_t offset_;
  bool dirty_ = false;
};

class CurandRandomBackend final : public RandomBackend {
 public:
  std::unique_ptr<RandomGenerator> create_generator(RandomKind kind, uint64_t seed, uint64_t offset,
                                                    Device& device) override {
    return std::make_unique<CurandGenerator>(kind, seed, offset, device);
  }
};

}  // namespace

RandomBackend& curand_random_backend() {
  static cuda_detail::NoDestructor<CurandRandomBackend> backend;
  return backend.get();
}

namespace {
const BackendRegistration registration(Capability::kRandom, DeviceType::kCUDA, []() -> void* { return &curand_random_backend(); });
}  // namespace

}  // namespace kumo
