// Differentiable noise (Chainer's dropout, gaussian, gumbel_softmax) and the
// train flag that switches dropout off (Chainer's chainer.config.train).
// Random numbers come from a Philox generator per device (random/generator.h),
// drawn on the array's device; seed_noise makes them reproducible.
#pragma once
#include <cstdint>
#include <utility>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// Whether functions run in training mode (true by default). Thread-local,
// like the backprop mode.
bool is_train();
// Sets this thread's train flag outright (chainer.config.train = value).
void set_train(bool train);

// RAII: sets the train flag of this thread while it lives, restoring the
// previous value after (Chainer's `using_config('train', value)`).
class TrainModeScope {
 public:
  explicit TrainModeScope(bool train);
  ~TrainModeScope();
  TrainModeScope(const TrainModeScope&) = delete;
  TrainModeScope& operator=(const TrainModeScope&) = delete;

 private:
  bool previous_;
};

// Reseeds the noise generator of every device: each starts again from `seed`.
void seed_noise(uint64_t seed);

// x * mask where mask is 0 with probability `ratio` and 1 / (1 - ratio)
// otherwise (or the given mask); the identity outside training. The second
// result is the mask used (undefined outside training).
std::pair<Variable, Array> dropout_with_mask(const Variable& x, double ratio = 0.5, const Array& mask = Array());
Variable dropout(const Variable& x, double ratio = 0.5, const Array& mask = Array());

// mean + exp(ln_var / 2) * eps with eps ~ N(0, 1) (or the given eps): the
// reparameterized Gaussian sample. The second result is eps.
std::pair<Variable, Array> gaussian_with_eps(const Variable& mean, const Variable& ln_var, const Array& eps = Array());
Variable gaussian(const Variable& mean, const Variable& ln_var, const Array& eps = Array());

// softmax((log_p + g) / tau, axis) with g standard Gumbel noise.
Variable gumbel_softmax(const Variable& log_p, double tau = 0.1, int64_t axis = 1);

}  // namespace autograd
}  // namespace kumo
