#include "autograd/functions/noise.h"

#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>

#include "autograd/functions/argument_checks.h"
#include "autograd/functions/activation.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/math.h"
#include "core/errors.h"
#include "random/generator.h"
#include "routines/elementwise.h"

namespace kumo {
namespace autograd {
namespace {

thread_local bool train_mode = true;

// One generator per device, created on first use: from the seed of
// seed_noise when one was given, else from the operating system's entropy.
struct NoiseGenerators {
  std::mutex mutex;
  std::optional<uint64_t> seed;
  std::map<Device*, std::unique_ptr<random::Generator>> by_device;
};

NoiseGenerators& generators() {
  static NoiseGenerators g;
  return g;
}

random::Generator& generator_for(Device& device) {
  NoiseGenerators& g = generators();
  std::lock_guard<std::mutex> lock(g.mutex);
  auto& slot = g.by_device[&device];
  if (!slot) {
    uint64_t seed = 0;
    if (g.seed) {
      seed = *g.seed;
    } else {
      std::random_device entropy;
      seed = (static_cast<uint64_t>(entropy()) << 32) ^ entropy();
    }
    slot = std::make_unique<random::Generator>(seed, RandomKind::kPhilox4x32_10, device);
  }
  return *slot;
}

// Uniform [0, 1) numbers of x's shape on its device, float64 for float64
// inputs and float32 otherwise (the generator draws those two).
Dtype draw_dtype(Dtype d) { return d == Dtype::kFloat64 ? Dtype::kFloat64 : Dtype::kFloat32; }

}  // namespace

bool is_train() { return train_mode; }
void set_train(bool train) { train_mode = train; }

TrainModeScope::TrainModeScope(bool train) : previous_(train_mode) { train_mode = train; }
TrainModeScope::~TrainModeScope() { train_mode = previous_; }

void seed_noise(uint64_t seed) {
  NoiseGenerators& g = generators();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.seed = seed;
  g.by_device.clear();
}

std::pair<Variable, Array> dropout_with_mask(const Variable& x, double ratio, const Array& mask) {
  require_floating(x, "dropout", "x");
  if (!(ratio >= 0.0 && ratio < 1.0))
    throw ValueError("dropout: ratio must be in [0, 1), got " + std::to_string(ratio));
  if (!is_train()) return {x, Array()};
  Array m;
  if (mask.defined()) {
    if (mask.shape() != x.shape())
      throw ValueError("dropout: mask must have the shape of x " + x.shape().to_string() + ", got " +
                       mask.shape().to_string());
    m = mask.dtype() == x.dtype() ? mask : mask.astype(x.dtype());
  } else {
    Array u = generator_for(x.device()).random(x.shape(), draw_dtype(x.dtype()));
    Array keep = kumo::greater_equal(u, Scalar(ratio));
    m = kumo::multiply(keep.astype(x.dtype()), Scalar(1.0 / (1.0 - ratio)));
  }
  return {x * Variable(m, false), m};
}

Variable dropout(const Variable& x, double ratio, const Array& mask) { return dropout_with_mask(x, ratio, mask).first; }

std::pair<Variable, Array> gaussian_with_eps(const Variable& mean, const Variable& ln_var, const Array& eps) {
  require_floating(mean, "gaussian", "mean");
  require_floating(ln_var, "gaussian", "ln_var");
  if (mean.shape() != ln_var.shape())
    throw ValueError("gaussian: mean and ln_var must have the same shape, got " + mean.shape().to_string() + " and " +
                     ln_var.shape().to_string());
  Array e;
  if (eps.defined()) {
    if (eps.shape() != mean.shape())
      throw ValueError("gaussian: eps must have the shape of mean " + mean.shape().to_string() + ", got " +
                       eps.shape().to_string());
    e = eps;
  } else {
    e = generator_for(mean.device()).standard_normal(mean.shape(), draw_dtype(mean.dtype())).astype(mean.dtype());
  }
  return {mean + exp(ln_var * 0.5) * Variable(e, false), e};
}

Variable gaussian(const Variable& mean, const Variable& ln_var, const Array& eps) {
  return gaussian_with_eps(mean, ln_var, eps).first;
}

Variable gumbel_softmax(const Variable& log_p, double tau, int64_t axis) {
  require_floating(log_p, "gumbel_softmax", "log_p");
  if (!(tau > 0)) throw ValueError("gumbel_softmax: tau must be positive, got " + std::to_string(tau));
  const Dtype d = draw_dtype(log_p.dtype());
  // g = -log(E) with E = -log(U) ~ Exp(1), U on (0, 1]; E is kept above the
  // smallest normal number so that U == 1 gives a large finite g, not inf.
  Array u = generator_for(log_p.device()).random_positive(log_p.shape(), d);
  Array e = kumo::maximum(kumo::negative(kumo::log(u)),
                          Scalar(d == Dtype::kFloat64 ? std::numeric_limits<double>::min()
                                                      : static_cast<double>(std::numeric_limits<float>::min())));
  Array g = kumo::negative(kumo::log(e)).astype(log_p.dtype());
  return softmax((log_p + Variable(g, false)) / tau, axis);
}

}  // namespace autograd
}  // namespace kumo
