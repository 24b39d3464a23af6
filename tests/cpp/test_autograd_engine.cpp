// autograd/: the engine (Variable, FunctionNode, backward, grad, modes) and
// its memory and threading contracts, with gradients checked against
// central finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;

namespace {

Array vec(std::vector<double> v, Shape shape = {}) {
  if (shape.empty() && v.size() != 1) shape = Shape{static_cast<int64_t>(v.size())};
  return asarray(v, shape);
}

std::vector<double> values(const Array& a) { return a.astype(Dtype::kFloat64).to_vector<double>(); }

void expect_near(const Array& got, const std::vector<double>& want, double tol = 1e-7) {
  std::vector<double> g = values(got);
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol * (1 + std::abs(want[i]))) << "at " << i;
}

// d(sum(f(x) * w))/dx by central differences, w fixed random weights.
std::vector<double> numerical_grad(const std::function<Array(const Array&)>& f, const Array& x, const Array& w) {
  std::vector<double> xs = values(x), g(xs.size());
  const double h = 1e-6;
  for (size_t i = 0; i < xs.size(); ++i) {
    std::vector<double> plus = xs, minus = xs;
    plus[i] += h;
    minus[i] -= h;
    double fp = values(sum(multiply(f(asarray(plus, x.shape())), w)))[0];
    double fm = values(sum(multiply(f(asarray(minus, x.shape())), w)))[0];
    g[i] = (fp - fm) / (2 * h);
  }
  return g;
}

using UnaryVar = std::function<ag::Variable(const ag::Variable&)>;

void check_unary(const UnaryVar& fv, const std::vector<double>& xs) {
  Array x = vec(xs, Shape{2, static_cast<int64_t>(xs.size() / 2)});
  auto f = [&](const Array& a) {
    ag::NoBackpropMode off;
    return fv(ag::Variable(a)).array();
  };
  // Fixed weights shaped like the output, so every output element counts differently.
  const Shape out_shape = f(x).shape();
  std::vector<double> ws;
  for (int64_t i = 0; i < shape_size(out_shape); ++i)
    ws.push_back(0.3 + 0.7 * static_cast<double>(i % 5) - 1.1 * (i % 2));
  Array w = asarray(ws, out_shape);
  ag::Variable xv(x);
  ag::Variable y = ag::sum(fv(xv) * ag::Variable(w, false));
  y.backward();
  expect_near(xv.grad(), numerical_grad(f, x, w), 1e-5);
}

const std::vector<double> kPositive{0.5, 1.3, 2.0, 0.8, 1.7, 3.1};
const std::vector<double> kMixed{-1.5, -0.3, 0.4, 1.2, -2.2, 0.9};

TEST(AutogradFunctions, UnaryGradientsMatchFiniteDifferences) {
  check_unary([](const ag::Variable& x) { return ag::exp(x); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::log(x); }, kPositive);
  check_unary([](const ag::Variable& x) { return ag::sqrt(x); }, kPositive);
  check_unary([](const ag::Variable& x) { return ag::square(x); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::sin(x); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::cos(x); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::tanh(x); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::sigmoid(x); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::relu(x); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::absolute(x); }, kMixed);
  check_unary([](const ag::Variable& x) { return -x; }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::pow(x, 3); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::pow(x, 0.5); }, kPositive);
  check_unary([](const ag::Variable& x) { return ag::pow(2.0, x); }, kMixed);
  check_unary([](const ag::Variable& x) { return 3.0 / x; }, kPositive);
  check_unary([](const ag::Variable& x) { return 1.0 - x * 2.0 + 4; }, kMixed);
  check_unary([](const ag::Variable& x) { return x / 4.0 - 1; }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::transpose(x) * 2.0; }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::reshape(x, Shape{3, 2}); }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::sum(x, 1, true) * x; }, kMixed);
  check_unary([](const ag::Variable& x) { return ag::sum(x, 0) + ag::sum(x * x, 0); }, kMixed);
}

TEST(AutogradFunctions, BinaryGradientsBroadcast) {
  Array a = vec({1.0, 2.0, 3.0}, Shape{3, 1});
  Array b = vec({0.5, -1.0, 2.0, 4.0}, Shape{1, 4});
  for (int op = 0; op < 5; ++op) {
    ag::Variable av(a), bv(b);
    auto f = [op](const ag::Variable& x, const ag::Variable& y) {
      switch (op) {
        case 0:
          return x + y;
        case 1:
          return x - y;
        case 2:
          return x * y;
        case 3:
          return x / y;
        default:
          return ag::pow(x, y);
      }
    };
    ag::sum(f(av, bv)).backward();
    ASSERT_EQ(av.grad().shape(), a.shape());
    ASSERT_EQ(bv.grad().shape(), b.shape());
    auto fa = [&](const Array& x) {
      ag::NoBackpropMode off;
      return f(ag::Variable(x), ag::Variable(b)).array();
    };
    auto fb = [&](const Array& y) {
      ag::NoBackpropMode off;
      return f(ag::Variable(a), ag::Variable(y)).array();
    };
    Array ones12 = ones(Shape{3, 4});
    expect_near(av.grad(), numerical_grad(fa, a, ones12), 1e-5);
    expect_near(bv.grad(), numerical_grad(fb, b, ones12), 1e-5);
  }
}

TEST(AutogradEngine, GradientsOfReusedVariableAccumulate) {
  ag::Variable x(vec({1.0, -2.0, 3.0}));
  ag::Variable y = ag::sum(x * x + x + ag::tanh(x) * 0.0);
  y.backward();
  expect_near(x.grad(), {3.0, -3.0, 7.0});
}

TEST(AutogradEngine, LeafGradientsAccumulateOverBackwardCalls) {
  ag::Variable x(vec({1.0, 2.0}));
  ag::sum(x * 3.0).backward();
  ag::sum(x * 3.0).backward();
  expect_near(x.grad(), {6.0, 6.0});
  x.cleargrad();
  EXPECT_FALSE(x.grad().defined());
  x.zerograd();
  expect_near(x.grad(), {0.0, 0.0});
}

TEST(AutogradEngine, SecondBackwardOfTheSameGraphAccumulatesAgain) {
  // Chainer's rule: backward keeps the graph.
  ag::Variable x(vec({0.5, -1.0}));
  ag::Variable y = ag::sum(ag::tanh(x) * x);
  y.backward();
  const std::vector<double> once = {std::tanh(0.5) + 0.5 * (1 - std::tanh(0.5) * std::tanh(0.5)),
                                    std::tanh(-1.0) - 1.0 * (1 - std::tanh(-1.0) * std::tanh(-1.0))};
  expect_near(x.grad(), once);
  y.backward();
  expect_near(x.grad(), {2 * once[0], 2 * once[1]});
}

TEST(AutogradEngine, TwoLossesSharingAGraphEachReachTheLeaves) {
  // A GAN's pattern: two losses over one shared intermediate, backpropagated
  // one after the other.
  ag::Variable x(vec({0.5, -1.0}));
  ag::Variable h = ag::tanh(x);
  ag::Variable first = ag::sum(h);
  ag::Variable second = ag::sum(h * h);
  first.backward();
  x.cleargrad();
  second.backward();
  std::vector<double> want;
  for (double v : {0.5, -1.0}) want.push_back(2 * std::tanh(v) * (1 - std::tanh(v) * std::tanh(v)));
  expect_near(x.grad(), want);
}

TEST(AutogradEngine, ReleaseGraphFreesTheGraphAsBackwardPasses) {
  ag::Variable x(vec({0.5, -1.0}));
  ag::Variable y = ag::sum(ag::tanh(x));
  y.backward(false, false, /*release_graph=*/true);
  EXPECT_FALSE(y.creator());
  const std::vector<double> once = {1 - std::tanh(0.5) * std::tanh(0.5), 1 - std::tanh(-1.0) * std::tanh(-1.0)};
  expect_near(x.grad(), once);
  y.backward();  // y is a root now: nothing more reaches x
  expect_near(x.grad(), once);
}

TEST(AutogradEngine, LossScaleScalesTheSeedAndMarksTheLeavesReached) {
  ag::Variable w(vec({1.0, 2.0}));
  ag::Variable unused(vec({3.0}));
  ag::Variable y = ag::sum(w * 3.0);
  y.backward(false, false, false, /*loss_scale=*/8.0);
  expect_near(w.grad(), {24.0, 24.0});
  ASSERT_TRUE(w.loss_scale().has_value());
  EXPECT_EQ(*w.loss_scale(), 8.0);
  EXPECT_FALSE(unused.loss_scale().has_value());
  EXPECT_THROW(y.backward(false, false, false, 0.0), ValueError);
  EXPECT_THROW(w.set_loss_scale(-1.0), ValueError);
}

TEST(AutogradEngine, OutputGradStartsFromOnesOnlyForOneElement) {
  ag::Variable x(vec({1.0, 2.0}));
  ag::Variable y = x * 2.0;
  EXPECT_THROW(y.backward(), ValueError);
  y.set_grad(vec({1.0, 10.0}));
  y.backward();
  expect_near(x.grad(), {2.0, 20.0});
}

TEST(AutogradEngine, MixedDtypesPromoteAndCastGradientsBack) {
  ag::Variable x(asarray(std::vector<float>{1.0f, 2.0f}, Shape{2}));
  ag::Variable w(vec({0.5, 0.25}));
  ag::Variable y = x * w;
  EXPECT_EQ(y.dtype(), Dtype::kFloat64);
  ag::sum(y).backward();
  EXPECT_EQ(x.grad().dtype(), Dtype::kFloat32);
  EXPECT_EQ(w.grad().dtype(), Dtype::kFloat64);
  expect_near(x.grad(), {0.5, 0.25});
  expect_near(w.grad(), {1.0, 2.0});
}

TEST(AutogradEngine, RequiresGradFalseGetsNoGradient) {
  ag::Variable x(vec({1.0, 2.0}));
  ag::Variable c(vec({3.0, 4.0}), false);
  ag::sum(x * c).backward();
  EXPECT_FALSE(c.grad().defined());
  expect_near(x.grad(), {3.0, 4.0});
  ag::Variable d = c * 2.0;
  EXPECT_FALSE(d.requires_grad());
  EXPECT_EQ(d.creator(), nullptr);
}

TEST(AutogradEngine, RetainGradKeepsIntermediateGradients) {
  ag::Variable x(vec({1.0, 2.0}));
  ag::Variable h = x * 3.0;
  ag::Variable y = ag::sum(h * h);
  y.backward(/*retain_grad=*/true);
  expect_near(h.grad(), {6.0, 12.0});
  ag::Variable x2(vec({1.0, 2.0}));
  ag::Variable h2 = x2 * 3.0;
  ag::sum(h2 * h2).backward();
  EXPECT_FALSE(h2.grad().defined());
}

TEST(AutogradEngine, BackwardKeepsTheGraphUntilTheOutputGoes) {
  ag::Variable x(vec({0.1, 0.2}));
  ag::Variable h = ag::tanh(x);
  std::weak_ptr<ag::FunctionNode> tanh_node = h.creator();
  ag::Variable y = ag::sum(h * 2.0);
  h = ag::Variable();
  y.backward();
  EXPECT_FALSE(tanh_node.expired());
  EXPECT_NE(y.creator(), nullptr);
  y = ag::Variable();
  EXPECT_TRUE(tanh_node.expired());
}

TEST(AutogradEngine, BackwardWithReleaseGraphReleasesTheGraph) {
  ag::Variable x(vec({0.1, 0.2}));
  ag::Variable h = ag::tanh(x);
  std::weak_ptr<ag::FunctionNode> tanh_node = h.creator();
  ag::Variable y = ag::sum(h * 2.0);
  h = ag::Variable();
  EXPECT_FALSE(tanh_node.expired());
  y.backward(false, false, /*release_graph=*/true);
  EXPECT_TRUE(tanh_node.expired());
  EXPECT_EQ(y.creator(), nullptr);
}

TEST(AutogradEngine, DoubleBackpropKeepsTheGraph) {
  ag::Variable x(vec({0.1, 0.2}));
  ag::Variable y = ag::sum(ag::tanh(x));
  std::weak_ptr<ag::FunctionNode> sum_node = y.creator();
  y.backward(false, /*enable_double_backprop=*/true);
  EXPECT_FALSE(sum_node.expired());
}

TEST(AutogradEngine, GradOfIntermediateAndLeaf) {
  ag::Variable x(vec({1.0, -1.0, 0.5}));
  ag::Variable h = ag::tanh(x);
  ag::Variable z = ag::sum(h * h);
  std::vector<ag::Variable> g = ag::grad({z}, {h, x});
  std::vector<double> hs = values(h.array()), want_h, want_x;
  for (double v : hs) {
    want_h.push_back(2 * v);
    want_x.push_back(2 * v * (1 - v * v));
  }
  expect_near(g[0].array(), want_h);
  expect_near(g[1].array(), want_x);
  EXPECT_FALSE(x.grad().defined());  // grad() leaves grads alone
}

TEST(AutogradEngine, GradOfUnreachedInputIsUndefined) {
  ag::Variable x(vec({1.0})), unrelated(vec({2.0}));
  std::vector<ag::Variable> g = ag::grad({x * 2.0}, {x, unrelated});
  expect_near(g[0].array(), {2.0});
  EXPECT_FALSE(g[1].defined());
}

TEST(AutogradDoubleBackprop, SecondDerivativeOfCube) {
  ag::Variable x(vec({1.0, 2.0, -3.0}));
  ag::Variable y = ag::sum(ag::pow(x, 3));
  ag::Variable gx = ag::grad({y}, {x}, {}, false, true)[0];
  expect_near(gx.array(), {3.0, 12.0, 27.0});
  ag::Variable ggx = ag::grad({ag::sum(gx)}, {x})[0];
  expect_near(ggx.array(), {6.0, 12.0, -18.0});
}

TEST(AutogradDoubleBackprop, HessianVectorProductMatchesFiniteDifferences) {
  // f(x) = sum(tanh(x) * x^2 + exp(x0 * x)); H v by double backprop vs the
  // finite difference of the gradient along v.
  Array x0 = vec({0.3, -0.7, 1.1});
  Array v = vec({1.0, 0.5, -2.0});
  auto gradient = [](const Array& at, bool keep) {
    ag::Variable x(at);
    ag::Variable f = ag::sum(ag::tanh(x) * ag::square(x) + ag::exp(x * 0.5));
    return std::make_pair(x, ag::grad({f}, {x}, {}, false, keep)[0]);
  };
  auto [x, g] = gradient(x0, true);
  ag::Variable hv = ag::grad({ag::sum(g * ag::Variable(v, false))}, {x})[0];
  const double h = 1e-5;
  Array gp = gradient(add(x0, multiply(v, h)), false).second.array();
  Array gm = gradient(subtract(x0, multiply(v, h)), false).second.array();
  std::vector<double> p = values(gp), m = values(gm), want;
  for (size_t i = 0; i < p.size(); ++i) want.push_back((p[i] - m[i]) / (2 * h));
  expect_near(hv.array(), want, 1e-5);
}

// Two outputs, both retained: sin and cos.
class SinCos : public ag::FunctionNode {
 public:
  std::string label() const override { return "SinCos"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_outputs({0, 1});
    return {kumo::sin(x[0]), kumo::cos(x[0])};
  }
  std::vector<ag::Variable> backward(const std::vector<size_t>&, const std::vector<ag::Variable>& gy) override {
    std::vector<ag::Variable> y = get_retained_outputs();
    ag::Variable g;
    if (gy[0].defined()) g = gy[0] * y[1];
    if (gy[1].defined()) g = g.defined() ? g - gy[1] * y[0] : -(gy[1] * y[0]);
    return {g};
  }
};

TEST(AutogradDoubleBackprop, ReleasedRetainedOutputIsRecreated) {
  ag::Variable x(vec({0.4, -1.0}));
  std::weak_ptr<ag::VariableNode> cos_node;
  ag::Variable s;
  {
    std::vector<ag::Variable> sc = ag::apply(std::make_shared<SinCos>(), {x});
    s = sc[0];
    cos_node = sc[1].node();
  }
  EXPECT_TRUE(cos_node.expired());  // nobody holds the cos output
  ag::Variable gx = ag::grad({ag::sum(s)}, {x}, {}, false, true)[0];
  expect_near(gx.array(), {std::cos(0.4), std::cos(-1.0)});
  ag::Variable ggx = ag::grad({ag::sum(gx)}, {x})[0];  // d(cos x)/dx through the recreated output
  expect_near(ggx.array(), {-std::sin(0.4), -std::sin(-1.0)});
}

TEST(AutogradDoubleBackprop, GradientPenalty) {
  // loss = sum(w * x)^2 + |d loss0/dx|^2 with loss0 = sum(tanh(w * x)).
  ag::Variable w(vec({0.5, -1.5}));
  Array x = vec({1.0, 2.0});
  ag::Variable xv(x);
  ag::Variable loss0 = ag::sum(ag::tanh(w * xv));
  ag::Variable gx = ag::grad({loss0}, {xv}, {}, false, true)[0];
  ag::Variable penalty = ag::sum(gx * gx);
  penalty.backward();
  // d/dw of sum((w * (1 - tanh(w x)^2))^2) by finite differences.
  auto pen = [&](const Array& wa) {
    Array t = kumo::tanh(multiply(wa, x));
    Array d = multiply(wa, subtract(1.0, multiply(t, t)));
    return multiply(d, d);
  };
  expect_near(w.grad(), numerical_grad(pen, w.array(), ones(Shape{2})), 1e-5);
}

TEST(AutogradModes, NoBackpropRecordsNothing) {
  ag::Variable x(vec({1.0}));
  {
    ag::NoBackpropMode off;
    EXPECT_FALSE(ag::is_backprop_enabled());
    ag::Variable y = x * 2.0;
    EXPECT_EQ(y.creator(), nullptr);
    {
      ag::ForceBackpropMode on;
      EXPECT_NE((x * 2.0).creator(), nullptr);
    }
    EXPECT_FALSE(ag::is_backprop_enabled());
  }
  EXPECT_TRUE(ag::is_backprop_enabled());
}

TEST(AutogradModes, ModeIsPerThread) {
  ag::NoBackpropMode off;
  bool other_thread_enabled = false;
  std::thread t([&] { other_thread_enabled = ag::is_backprop_enabled(); });
  t.join();
  EXPECT_TRUE(other_thread_enabled);
}

TEST(AutogradEngine, InPlaceChangeOfRetainedOutputIsRefused) {
  ag::Variable x(vec({0.1, 0.2}));
  ag::Variable y = ag::tanh(x);
  fill(y.array(), Scalar(0.0));
  EXPECT_THROW(ag::sum(y).backward(), RuntimeError);
}

TEST(AutogradEngine, InPlaceChangeOfRetainedInputIsRefused) {
  ag::Variable x(vec({0.1, 0.2}));
  ag::Variable y = ag::sum(ag::log(x + 1.0) * x);
  Array xa = x.array();
  add(xa, 1.0, UfuncOptions().out(xa));  // x += 1
  EXPECT_THROW(y.backward(), RuntimeError);
}

TEST(AutogradEngine, InPlaceChangeOfUnretainedInputIsAllowed) {
  ag::Variable x(vec({0.1, 0.2}));
  ag::Variable y = ag::sum(x * 2.0);  // MulConstant retains nothing
  fill(x.array(), Scalar(5.0));
  y.backward();
  expect_near(x.grad(), {2.0, 2.0});
}

TEST(AutogradEngine, UnchainMakesARoot) {
  ag::Variable x(vec({1.0}));
  ag::Variable h = x * 2.0;
  h.unchain();
  ag::sum(h * 3.0).backward();
  EXPECT_FALSE(x.grad().defined());
  expect_near(h.grad(), {3.0});
}

TEST(AutogradEngine, UnchainBackwardReleasesUpstream) {
  ag::Variable x(vec({1.0}));
  ag::Variable h = ag::tanh(x);
  std::weak_ptr<ag::FunctionNode> first = h.creator();
  ag::Variable y = ag::exp(h);
  h = ag::Variable();
  y.unchain_backward();
  EXPECT_TRUE(first.expired());
  EXPECT_EQ(y.creator(), nullptr);
}

TEST(AutogradEngine, IndependentGraphsInThreads) {
  constexpr int kThreads = 4;
  std::vector<std::vector<double>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &results] {
      for (int rep = 0; rep < 20; ++rep) {
        ag::Variable x(vec({1.0 + t, 2.0 + t}));
        ag::Variable y = ag::sum(ag::tanh(x * 0.1) * x + x * x);
        y.backward();
        results[t] = values(x.grad());
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < 2; ++i) {
      const double v = 1.0 + t + i, th = std::tanh(0.1 * v);
      EXPECT_NEAR(results[t][i], th + 0.1 * v * (1 - th * th) + 2 * v, 1e-12);
    }
  }
}

TEST(AutogradEngine, ParameterSharedByThreadsAccumulatesEveryGradient) {
  ag::Variable w(vec({1.0, 1.0}));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&w] {
      for (int rep = 0; rep < 25; ++rep) ag::sum(w * 1.0).backward();
    });
  for (auto& th : threads) th.join();
  expect_near(w.grad(), {100.0, 100.0});
}

}  // namespace
