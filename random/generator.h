// numpy.random.Generator in C++: distributions over the cuRAND bit
// generators of random/random_backend.h, giving the very numbers that
// Python's kumo.random.default_rng(seed) gives (Python's methods for these
// distributions call this class).
//
//   kumo::random::Generator rng(42);                  // Philox4x32-10, like default_rng(42)
//   kumo::Array x = rng.normal(0.0, 1.0, {3, 4});
//   kumo::Array k = rng.integers(0, 10, {5}, kumo::Dtype::kInt32);
//   auto saved = rng.state();  ...  rng.set_state(saved);  // replays the same numbers
//
// Every value is a fixed function of the 32-bit words it consumes, computed
// by kernels compiled for the array's device from one source (transforms
// below), so a seed gives the same numbers on the CPU and on a GPU:
// - float64 uniform: 2 words -> 53 bits; float32: 1 word -> 24 bits.
// - standard normal (Box-Muller with fma-only math): a pair of float64
//   normals from 4 words, of float32 normals from 2; an odd count draws a
//   whole last pair.
// - integers: one 64-bit key from the stream (2 words), then element i runs
//   its own Philox stream under that key (Lemire's unbiased bounded draw).
// - permutation: the stable argsort of 64-bit keys (2 words per element).
//
// Errors are NumPy's: kumo::ValueError for "low >= high", "scale < 0",
// out-of-range integer bounds; kumo::TypeError for unsupported dtypes;
// kumo::OverflowError for an infinite uniform range.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/array.h"
#include "core/device.h"
#include "core/dtype.h"
#include "core/shape.h"
#include "random/random_backend.h"
#include "routines/scalar.h"

namespace kumo {
namespace random {

using BitGeneratorKind = RandomKind;

// A bit generator's position: NumPy's bit_generator.state as plain data.
// offset counts the 32-bit words drawn since the seed.
struct BitGeneratorState {
  RandomKind kind = RandomKind::kPhilox4x32_10;
  uint64_t seed = 0;
  uint64_t offset = 0;
  bool operator==(const BitGeneratorState& o) const {
    return kind == o.kind && seed == o.seed && offset == o.offset;
  }
  bool operator!=(const BitGeneratorState& o) const { return !(*this == o); }
};

// One cuRAND stream on one device. Thread-safe: draws and state changes
// are serialized. Shared (std::shared_ptr) by the Generators drawing from it,
// as NumPy's Generators share their bit_generator.
class BitGenerator {
 public:
  BitGenerator(RandomKind kind, uint64_t seed, uint64_t offset = 0, Device& device = current_device());
  BitGenerator(const BitGenerator&) = delete;
  BitGenerator& operator=(const BitGenerator&) = delete;

  RandomKind kind() const { return kind_; }
  Device& device() const { return device_; }
  uint64_t seed() const;
  uint64_t offset() const;

  // The state to give set_state() to replay from here (exact for every kind).
  BitGeneratorState state() const;
  // Moves to `state`; ValueError if it is for another kind.
  void set_state(const BitGeneratorState& state);

  // The next n words of the stream: a 1-d uint32 array on device().
  Array words(int64_t n);
  // The same into a C-contiguous uint32 array of this device (cuRAND writes dense buffers).
  void fill_words(const Array& out);
  // Poisson(lam) variates from cuRAND into a C-contiguous uint32 array.
  void fill_poisson(const Array& out, double lam);
  // A 64-bit key from two words (high word first), for per-element Philox kernels.
  uint64_t next_key();

 private:
  const RandomKind kind_;
  Device& device_;
  mutable std::mutex mutex_;
  std::unique_ptr<RandomGenerator> gen_;  // re-created by set_state
};

class Generator {
 public:
  // Philox4x32-10 (the default of default_rng) or another kind, seeded like
  // kumo.random.default_rng(seed) for seed in [0, 2**64).
  explicit Generator(uint64_t seed, RandomKind kind = RandomKind::kPhilox4x32_10, Device& device = current_device());
  explicit Generator(std::shared_ptr<BitGenerator> bit_generator);

  BitGenerator& bit_generator() const { return *bits_; }
  const std::shared_ptr<BitGenerator>& bit_generator_ptr() const { return bits_; }
  Device& device() const { return bits_->device(); }
  BitGeneratorState state() const { return bits_->state(); }
  void set_state(const BitGeneratorState& s) { bits_->set_state(s); }

  // Uniform on [0, 1); dtype float64 or float32.
  Array random(const Shape& size = {}, Dtype dtype = Dtype::kFloat64);
  // Uniform on (0, 1] (the form the inversion samplers want).
  Array random_positive(const Shape& size = {}, Dtype dtype = Dtype::kFloat64);
  Array standard_normal(const Shape& size = {}, Dtype dtype = Dtype::kFloat64);

  // low + (high - low) * random(); float64.
  Array uniform(double low = 0.0, double high = 1.0, const Shape& size = {});
  // Array bounds broadcast with each other; the result has `size` if given
  // (the bounds must broadcast to it), else their broadcast shape.
  Array uniform(const Array& low, const Array& high, const std::optional<Shape>& size = std::nullopt);

  // loc + scale * standard_normal(); float64.
  Array normal(double loc = 0.0, double scale = 1.0, const Shape& size = {});
  Array normal(const Array& loc, const Array& scale, const std::optional<Shape>& size = std::nullopt);

  // Integers in [low, high) ([low, high] with endpoint) of an integer or
  // bool dtype. low/high are C++ integers (up to uint64's range).
  Array integers(Scalar low, Scalar high, const Shape& size = {}, Dtype dtype = Dtype::kInt64,
                 bool endpoint = false);
  // Integer array bounds, broadcast like uniform's.
  Array integers(const Array& low, const Array& high, const std::optional<Shape>& size = std::nullopt,
                 Dtype dtype = Dtype::kInt64, bool endpoint = false);

  // A random permutation of 0..n-1 (int64).
  Array permutation(int64_t n);
  // A permuted copy of x along `axis` (C-ordered; NumPy permutes axis 0 by default).
  Array permutation(const Array& x, int64_t axis = 0);
  // The permutation indices permutation(n) uses, on the host.
  std::vector<int64_t> permutation_indices(int64_t n);

 private:
  std::shared_ptr<BitGenerator> bits_;
};

// kumo.random.default_rng(seed): a Generator over Philox4x32-10 on the current device.
Generator default_rng(uint64_t seed);
// Seeded from the operating system's entropy.
Generator default_rng();

// The device-portable math the transforms use (fma-only log, sin/cos,
// exp; exact integer-to-double conversions), as kernel preamble source. The
// Python distributions put it in front of their own kernels.
const std::string& rng_math_preamble();
// Per-element Philox4x32-10 for kernels that draw a variable number of
// values per element (rejection samplers), as kernel preamble source.
const std::string& philox_preamble();

}  // namespace random
}  // namespace kumo
