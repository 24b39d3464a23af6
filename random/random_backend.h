// The random-number backend: cuRAND generators for both device kinds.
// CUDA arrays are filled by device generators (curandCreateGenerator), host
// arrays by cuRAND's host generators (curandCreateGeneratorHost, no GPU
// needed), so one (kind, seed, offset) gives the same numbers on CPU and GPU.
//
// Only two cuRAND outputs are used: raw 32-bit words and Poisson variates.
// For those two, "generate N then M" equals "a new generator at offset N,
// generate M" (checked on the host generator for every N, mixed calls
// included, for Philox4_32_10 and MRG32k3a), so a stream position is one
// integer: the number of 32-bit words (or Poisson values) produced. Every
// other distribution is a transform of raw words in kumo's own kernels, which
// compile for both backends (python/kumo/random/).
//
// XORWOW is the exception: its default ordering spreads a call over many
// per-thread subsequences, so after a call whose size is not a multiple of
// the thread count the live state is not the state at any single offset.
// sync_to_offset() re-creates the state at the tracked offset; state export
// calls it first, which makes save/restore exact for every kind.
//
// The implementation lives in the CUDA plugin (random/cuda/curand_random.cpp)
// because libkumo never links CUDA libraries; random_backend() loads it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/backend_registry.h"
#include "core/device.h"

namespace kumo {

enum class RandomKind : uint8_t { kPhilox4x32_10 = 0, kXorwow = 1, kMrg32k3a = 2 };

// "philox4x32_10", "xorwow", "mrg32k3a".
const char* random_kind_name(RandomKind kind);
// Accepts the names above; throws ValueError otherwise.
RandomKind random_kind_from_name(const std::string& name);

// One cuRAND generator bound to one device. Not copyable; calls on one
// generator are serialized internally. Pointers passed to generate_* belong
// to device() (host memory for the host device); work is queued on the
// device's current stream at the time of the call.
class RandomGenerator {
 public:
  virtual ~RandomGenerator() = default;
  virtual RandomKind kind() const = 0;
  virtual Device& device() const = 0;
  virtual uint64_t seed() const = 0;
  // Values produced since offset 0 (32-bit words and Poisson values alike).
  virtual uint64_t offset() const = 0;
  // n raw 32-bit words.
  virtual void generate_u32(uint32_t* out, size_t n) = 0;
  // n Poisson(lambda) variates (lambda > 0; cuRAND's algorithm).
  virtual void generate_poisson(uint32_t* out, size_t n, double lambda) = 0;
  // Makes the live state equal to that of a new generator created at
  // (seed(), offset()). Cheap for Philox/MRG32k3a (their state always is);
  // for XORWOW it re-runs cuRAND's skip-ahead (tens of ms on the host).
  virtual void sync_to_offset() = 0;
};

class RandomBackend {
 public:
  static constexpr Capability kCapability = Capability::kRandom;
  virtual ~RandomBackend() = default;
  // A generator on `device` positioned at `offset` of the stream of `seed`.
  virtual std::unique_ptr<RandomGenerator> create_generator(RandomKind kind, uint64_t seed, uint64_t offset,
                                                            Device& device) = 0;
};

// The cuRAND backend from the CUDA plugin. Throws RuntimeError saying why
// when the plugin (and with it cuRAND) cannot be loaded.
RandomBackend& random_backend();

}  // namespace kumo
