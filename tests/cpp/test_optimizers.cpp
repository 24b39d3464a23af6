// autograd/optimizers from C++: the multi-tensor engine against scalar
// formulas, the Optimizer API (Adam with hooks, float16 masters), and the
// CUDA sources of every (rule, dtype) compiled by NVRTC when the plugin loads.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/cuda_plugin.h"
#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;
namespace opt = kumo::autograd::optimizers;

namespace {

std::vector<double> values(const Array& a) { return a.astype(Dtype::kFloat64).to_vector<double>(); }

Array seq(int64_t n, double scale, double offset, Dtype dtype = Dtype::kFloat32) {
  std::vector<double> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = offset + scale * std::sin(0.7 * static_cast<double>(i) + 0.3);
  return asarray(v, Shape{n}).astype(dtype);
}

TEST(OptimizersEngine, MomentumSgdOverSeveralTensors) {
  std::vector<Array> p = {seq(5, 1.0, 0.1), seq(70000, 0.5, -0.2)};  // the second spans several blocks
  std::vector<Array> g = {seq(5, 0.3, 0.0), seq(70000, 0.2, 0.05)};
  std::vector<Array> v = {zeros(Shape{5}, Dtype::kFloat32), zeros(Shape{70000}, Dtype::kFloat32)};
  const auto p0 = values(p[1]);
  const auto g0 = values(g[1]);
  opt::multi_tensor_update(opt::Rule::kMomentumSGD, p, g, {v}, {0.1, 0.9});
  const auto p1 = values(p[1]);
  const auto v1 = values(v[1]);
  for (size_t i = 0; i < p0.size(); i += 997) {
    EXPECT_NEAR(v1[i], -0.1 * g0[i], 1e-6);
    EXPECT_NEAR(p1[i], p0[i] - 0.1 * g0[i], 1e-6);
  }
}

TEST(OptimizersEngine, SumSquares) {
  std::vector<Array> a = {seq(3, 1.0, 0.5, Dtype::kFloat64), seq(40000, 0.1, 0.0, Dtype::kFloat64)};
  double want = 0;
  for (const auto& x : a)
    for (double e : values(x)) want += e * e;
  EXPECT_NEAR(opt::multi_tensor_sum_squares(a), want, 1e-9 * want);
  a[0] = full(Shape{2}, std::nan(""), Dtype::kFloat64);
  EXPECT_FALSE(opt::multi_tensor_all_finite(a));
}

TEST(OptimizersEngine, RejectsIntegerParameters) {
  std::vector<Array> p = {zeros(Shape{3}, Dtype::kInt32)};
  EXPECT_THROW(opt::multi_tensor_update(opt::Rule::kSGD, p, p, {}, {0.1}), TypeError);
}

TEST(OptimizersApi, AdamMatchesFormulaWithWeightDecayHook) {
  ag::Variable w(seq(4, 1.0, 0.0, Dtype::kFloat64));
  opt::Adam adam;
  adam.setup({w});
  adam.add_hook(opt::WeightDecay(0.01));
  std::vector<double> p = values(w.array()), m(4, 0), v(4, 0);
  const opt::Hyperparameters hp = adam.hyperparam();
  for (int step = 1; step <= 3; ++step) {
    Array g = seq(4, 0.5, 0.1 * step, Dtype::kFloat64);
    std::vector<double> gv = values(g);
    w.set_grad(g);
    adam.update();
    const double alpha_t = hp.alpha * std::sqrt(1 - std::pow(hp.beta2, step)) / (1 - std::pow(hp.beta1, step));
    for (size_t i = 0; i < 4; ++i) {
      const double gi = gv[i] + 0.01 * p[i];
      m[i] += (1 - hp.beta1) * (gi - m[i]);
      v[i] += (1 - hp.beta2) * (gi * gi - v[i]);
      p[i] -= alpha_t * m[i] / (std::sqrt(v[i]) + hp.eps);
    }
  }
  EXPECT_EQ(adam.t(), 3);
  const auto got = values(w.array());
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], p[i], 1e-12);
}

TEST(OptimizersApi, Float16ParametersUseFloat32Masters) {
  ag::Variable w(full(Shape{3}, 1.0, Dtype::kFloat16));
  opt::SGD sgd;
  sgd.hyperparam().lr = 1e-4;  // below float16's resolution at 1.0 per step
  sgd.setup({w});
  for (int i = 0; i < 10; ++i) {
    w.set_grad(full(Shape{3}, 1.0, Dtype::kFloat16));
    sgd.update();
  }
  EXPECT_NEAR(values(sgd.master(0))[0], 1.0 - 1e-3, 1e-6);
  EXPECT_EQ(w.dtype(), Dtype::kFloat16);
  EXPECT_NEAR(values(w.array())[0], 0.999, 1e-3);
}

TEST(OptimizersApi, GradientClippingScalesToThreshold) {
  ag::Variable w(zeros(Shape{2}, Dtype::kFloat64));
  opt::SGD sgd(opt::Hyperparameters::defaults(opt::Rule::kSGD));
  sgd.hyperparam().lr = 1.0;
  sgd.setup({w});
  sgd.add_hook(opt::GradientClipping(1.0));
  w.set_grad(asarray(std::vector<double>{3.0, 4.0}));
  sgd.update();
  const auto got = values(w.array());
  EXPECT_NEAR(got[0], -0.6, 1e-12);
  EXPECT_NEAR(got[1], -0.8, 1e-12);
}

TEST(OptimizersCuda, EveryRuleCompilesWithNvrtc) {
  if (!KUMO_TEST_CUDA_PLUGIN_BUILT) GTEST_SKIP() << "kumo was built without the CUDA plugin";
  CudaPlugin* plugin = cuda_plugin();
  ASSERT_NE(plugin, nullptr) << cuda_plugin_load_error();
  for (int r = 0; r <= static_cast<int>(opt::Rule::kScaleGrad); ++r) {
    for (Dtype d : {Dtype::kFloat32, Dtype::kFloat64}) {
      const std::string src = opt::multi_tensor_cuda_source(static_cast<opt::Rule>(r), d);
      EXPECT_NO_THROW(plugin->kernels().compile(src, "kumo_opt.cu", 80, {})) << src;
    }
  }
}

}  // namespace
