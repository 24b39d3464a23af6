// autograd/functions/fused.h: the cached kernels and the fused activations
// (one kernel forward, one kernel unrecorded backward) from C++.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "autograd_check.h"
#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;
using kumo_test::check;
using kumo_test::seq;
using kumo_test::values;

namespace {

TEST(AutogradFused, CachedKernelTakesScalarArguments) {
  const auto& k1 = ag::fused::elementwise("kumo_test_axpb", "T x, T a, T b", "T y", "y = a * x + b");
  const auto& k2 = ag::fused::elementwise("kumo_test_axpb", "T x, T a, T b", "T y", "y = a * x + b");
  EXPECT_EQ(&k1, &k2);  // one spec per (name, params, operation)
  Array x = seq({2, 3});
  std::vector<double> y = values(ag::fused::call(k1, {x, ag::fused::scalar(2.0, x), ag::fused::scalar(-1.0, x)})[0]);
  std::vector<double> xv = values(x);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_DOUBLE_EQ(y[i], 2.0 * xv[i] - 1.0);
}

TEST(AutogradFused, AppliesToOneFloatDtypeAndShape) {
  Array a = seq({2, 3}), b = seq({2, 3});
  Array c = seq({3});
  Array h = a.astype(Dtype::kFloat16), f = a.astype(Dtype::kFloat32);
  EXPECT_TRUE(ag::fused::applies({&a, &b}));
  EXPECT_FALSE(ag::fused::applies({&a, &c}));
  EXPECT_TRUE(ag::fused::applies({&a, &c}, false));
  EXPECT_FALSE(ag::fused::applies({&h, &h}));
  EXPECT_FALSE(ag::fused::applies({&a, &f}));
}

TEST(AutogradFused, ActivationGradients) {
  check([](const std::vector<ag::Variable>& v) { return ag::elu(v[0], 0.5); }, {seq({3, 4}, 2.0)});
  check([](const std::vector<ag::Variable>& v) { return ag::gelu(v[0]); }, {seq({3, 4}, 2.0)});
  check([](const std::vector<ag::Variable>& v) { return ag::softplus(v[0], 2.0); }, {seq({3, 4}, 2.0)});
  check([](const std::vector<ag::Variable>& v) { return ag::softmax(v[0], -1); }, {seq({3, 4}, 2.0)});
  check([](const std::vector<ag::Variable>& v) { return ag::swish(v[0], v[1]); }, {seq({2, 3, 2}, 2.0), seq({3})});
}

TEST(AutogradFused, UnrecordedBackwardMatchesComposed) {
  for (bool log : {false, true}) {
    ag::Variable x(seq({4, 5}, 2.0).astype(Dtype::kFloat32));
    ag::Variable gy(seq({4, 5}, 1.0, 0.3).astype(Dtype::kFloat32), false);
    auto f = [&] { return log ? ag::log_softmax(x) : ag::silu(x); };
    Array fused = ag::grad({f()}, {x}, {gy})[0].array();
    Array composed = ag::grad({f()}, {x}, {gy}, false, true)[0].array();
    EXPECT_EQ(fused.dtype(), Dtype::kFloat32);
    std::vector<double> a = values(fused), b = values(composed);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6 * (1 + std::abs(b[i])));
  }
}

TEST(AutogradFused, Float16KeepsComposedPath) {
  ag::Variable x(seq({3}).astype(Dtype::kFloat16));
  ag::Variable y = ag::leaky_relu(x, 0.1);
  EXPECT_EQ(y.dtype(), Dtype::kFloat16);
  std::vector<double> xv = values(x.array()), yv = values(y.array());
  for (size_t i = 0; i < xv.size(); ++i) EXPECT_NEAR(yv[i], xv[i] >= 0 ? xv[i] : 0.1 * xv[i], 1e-3);
}

}  // namespace
