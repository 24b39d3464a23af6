// autograd/functions/{normalization,noise,loss,evaluation}: the C++ API of
// Chainer's normalizations, dropout and the train flag, losses and
// evaluation functions (values and gradients are checked from Python).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;

namespace {

Array seq(const Shape& shape, double scale = 0.37, double offset = -0.2) {
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = offset + scale * std::sin(1.3 * static_cast<double>(i) + 0.2);
  return asarray(v, shape);
}

std::vector<double> values(const Array& a) { return a.astype(Dtype::kFloat64).to_vector<double>(); }

}  // namespace

TEST(AutogradNorm, BatchNormalizationNormalizesAndUpdatesRunningStats) {
  ag::Variable x(seq({4, 3}));
  ag::Variable gamma(ones({3}), true), beta(zeros({3}), true);
  Array running_mean = zeros({3}), running_var = ones({3});
  ag::Variable y = ag::batch_normalization(x, gamma, beta, 2e-5, running_mean, running_var, 0.9);
  std::vector<double> m = values(mean(y.array(), 0));
  for (double v : m) EXPECT_NEAR(v, 0.0, 1e-12);
  std::vector<double> batch_mean = values(mean(x.array(), 0)), rm = values(running_mean);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(rm[c], 0.1 * batch_mean[c], 1e-12);
  ag::sum(y * y).backward();
  EXPECT_EQ(x.grad().shape(), (Shape{4, 3}));
  EXPECT_EQ(gamma.grad().shape(), (Shape{3}));
}

TEST(AutogradNorm, LayerGroupAndLocalResponseNormalization) {
  ag::Variable x(seq({2, 4, 3}));
  ag::Variable ln = ag::layer_normalization(x, ag::Variable(ones({4, 3}), false), ag::Variable(zeros({4, 3}), false));
  for (double v : values(mean(ln.array(), Axes({1, 2})))) EXPECT_NEAR(v, 0.0, 1e-12);
  ag::Variable gn = ag::group_normalization(x, 2, ag::Variable(ones({4}), false), ag::Variable(zeros({4}), false));
  EXPECT_EQ(gn.shape(), x.shape());
  EXPECT_THROW(ag::group_normalization(x, 3, ag::Variable(ones({4}), false), ag::Variable(zeros({4}), false)),
               ValueError);
  ag::Variable lrn = ag::local_response_normalization(x);
  EXPECT_EQ(lrn.shape(), x.shape());
  ag::Variable n = ag::normalize(x, 1e-5, 1);
  ag::sum(n).backward();
  EXPECT_EQ(x.grad().shape(), x.shape());
}

TEST(AutogradNorm, DropoutFollowsTheTrainFlag) {
  ag::Variable x(ones({5, 4}));
  Array mask = multiply(astype(greater(seq({5, 4}), 0.0), Dtype::kFloat64), 2.0);
  ag::Variable y = ag::dropout(x, 0.5, mask);
  EXPECT_EQ(values(y.array()), values(mask));
  {
    ag::TrainModeScope test_mode(false);
    EXPECT_FALSE(ag::is_train());
    EXPECT_TRUE(ag::dropout(x, 0.5).is(x));
  }
  EXPECT_TRUE(ag::is_train());
  EXPECT_THROW(ag::dropout(x, 1.0), ValueError);
}

TEST(AutogradNorm, DropoutDrawsAMask) {
  // The noise comes from cuRAND's generators, which the CUDA plugin loads.
  if (cuda_plugin() == nullptr) GTEST_SKIP() << cuda_plugin_load_error();
  ag::seed_noise(3);
  auto [y, mask] = ag::dropout_with_mask(ag::Variable(ones({50, 40})), 0.5);
  for (double v : values(mask)) EXPECT_TRUE(v == 0.0 || v == 2.0);
  ag::seed_noise(3);
  EXPECT_EQ(values(ag::dropout_with_mask(ag::Variable(ones({50, 40})), 0.5).second), values(mask));
}

TEST(AutogradNorm, LossesAndEvaluation) {
  ag::Variable x(seq({4, 3}));
  Array t = asarray(std::vector<int64_t>{0, 2, 1, -1}, {4});
  ag::SoftmaxCrossEntropyOptions options;
  options.class_weight = asarray(std::vector<double>{1.0, 2.0, 0.5}, {3});
  ag::Variable loss = ag::softmax_cross_entropy(x, t, options) + ag::hinge(x, where(less(t, 0), 0, t)) + ag::decov(x) +
                      ag::gaussian_kl_divergence(x, x);
  EXPECT_EQ(loss.ndim(), 0);
  loss.backward();
  EXPECT_EQ(x.grad().shape(), x.shape());
  ag::Variable acc = ag::accuracy(x, t, -1);
  EXPECT_FALSE(acc.requires_grad());
  ag::Variable r2 = ag::r2_score(x, x);
  EXPECT_NEAR(values(r2.array())[0], 1.0, 1e-12);
  EXPECT_THROW(ag::huber_loss(x, x, 1.0, "mean"), ValueError);
}

TEST(AutogradNorm, GradientChecksOfTheCApi) {
  // gradient_check draws its random direction with cuRAND (the CUDA plugin).
  if (cuda_plugin() == nullptr) GTEST_SKIP() << cuda_plugin_load_error();
  ag::GradientCheckOptions o;
  o.eps = 1e-5;
  o.atol = 1e-6;
  o.rtol = 1e-5;
  auto bn = [](const std::vector<ag::Variable>& v) {
    return std::vector<ag::Variable>{ag::batch_normalization(v[0], v[1], v[2])};
  };
  std::vector<Array> bn_in{seq({4, 3, 2}), add(seq({3}, 0.2, 1.0), 0.0), seq({3}, 0.5, 0.1)};
  ag::check_backward(bn, bn_in, {seq({4, 3, 2}, 0.9, 0.1)}, o);
  ag::check_double_backward(bn, bn_in, {seq({4, 3, 2}, 0.9, 0.1)}, {}, o);
  Array t = asarray(std::vector<int64_t>{0, 2, 1, -1}, {4});
  auto sce = [&t](const std::vector<ag::Variable>& v) {
    ag::SoftmaxCrossEntropyOptions options;
    options.class_weight = asarray(std::vector<double>{1.0, 2.0, 0.5}, {3});
    return std::vector<ag::Variable>{ag::softmax_cross_entropy(v[0], t, options)};
  };
  ag::check_double_backward(sce, {seq({4, 3})}, {}, {}, o);
  auto ln = [](const std::vector<ag::Variable>& v) {
    return std::vector<ag::Variable>{ag::layer_normalization(v[0], v[1], v[2])};
  };
  ag::check_double_backward(ln, {seq({3, 4}), seq({4}, 0.3, 1.0), seq({4})}, {}, {}, o);
}
