// autograd/functions/array.h, embed.h and rnn.h from C++: values of a few
// array functions, embed_id with an ignored label, an LSTM cell and an
// n-step GRU, and one gradient each by central differences.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;

namespace {

Array seq(const Shape& shape, double scale = 0.37, double offset = -0.8) {
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = offset + scale * std::sin(1.3 * static_cast<double>(i) + 0.2);
  return asarray(v, shape);
}

std::vector<double> values(const Array& a) { return a.astype(Dtype::kFloat64).to_vector<double>(); }

// d(sum(f(x) * w))/dx against central differences.
void check_gradient(const std::function<ag::Variable(const ag::Variable&)>& f, const Array& x) {
  ag::Variable v(x);
  ag::Variable out = f(v);
  Array w = seq(out.shape(), 0.9, 0.1);
  ag::sum(out * ag::Variable(w, false)).backward();
  auto value = [&](const Array& at) {
    ag::NoBackpropMode off;
    return values(sum(multiply(f(ag::Variable(at)).array(), w)))[0];
  };
  std::vector<double> base = values(x), got = values(v.grad());
  ASSERT_EQ(got.size(), base.size());
  for (size_t i = 0; i < base.size(); ++i) {
    std::vector<double> p = base, m = base;
    p[i] += 1e-6;
    m[i] -= 1e-6;
    const double want = (value(asarray(p, x.shape())) - value(asarray(m, x.shape()))) / 2e-6;
    EXPECT_NEAR(got[i], want, 1e-6 * (1 + std::abs(want))) << "element " << i;
  }
}

TEST(AutogradArray, AxisMovesMatchRoutines) {
  Array x = seq({2, 3, 4});
  EXPECT_EQ(values(ag::swapaxes(ag::Variable(x), 0, 2).array()), values(swapaxes(x, 0, 2)));
  EXPECT_EQ(values(ag::moveaxis(ag::Variable(x), 0, -1).array()), values(moveaxis(x, 0, -1)));
  EXPECT_EQ(ag::rollaxis(ag::Variable(x), 2).shape(), Shape({4, 2, 3}));
  EXPECT_EQ(ag::flatten(ag::Variable(x)).shape(), Shape({24}));
}

TEST(AutogradArray, TileRepeatFlipPad) {
  Array x = asarray(std::vector<double>{1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(values(ag::tile(ag::Variable(x), {1, 2}).array()), (std::vector<double>{1, 2, 1, 2, 3, 4, 3, 4}));
  EXPECT_EQ(values(ag::repeat(ag::Variable(x), {2}, 0).array()), (std::vector<double>{1, 2, 1, 2, 3, 4, 3, 4}));
  EXPECT_EQ(values(ag::flip(ag::Variable(x), 1).array()), (std::vector<double>{2, 1, 4, 3}));
  ag::Variable p = ag::pad(ag::Variable(x), {{1, 0}, {0, 1}}, "constant", {{Scalar(7), Scalar(7)}});
  EXPECT_EQ(values(p.array()), (std::vector<double>{7, 7, 7, 1, 2, 7, 3, 4, 7}));
  EXPECT_THROW(ag::pad(ag::Variable(x), {{1, 1}}, "edge"), ValueError);
}

TEST(AutogradArray, Gradients) {
  check_gradient([](const ag::Variable& v) { return ag::tile(v, {2, 1}); }, seq({2, 3}));
  check_gradient([](const ag::Variable& v) { return ag::repeat(v, {1, 0, 2}, 1); }, seq({2, 3}));
  check_gradient([](const ag::Variable& v) { return ag::diagonal(v, 1); }, seq({3, 4}));
  check_gradient([](const ag::Variable& v) { return ag::resize_images(v, {3, 5}); }, seq({1, 2, 2, 3}));
  check_gradient([](const ag::Variable& v) { return ag::depth2space(v, 2); }, seq({1, 8, 2, 1}));
  check_gradient(
      [](const ag::Variable& v) {
        return ag::scatter_add(v, {Index(asarray(std::vector<int64_t>{0, 2, 0}))}, ag::Variable(seq({3, 2}), false));
      },
      seq({3, 2}));
}

TEST(AutogradArray, SeparateStacksItsGradients) {
  ag::Variable x(seq({3, 2}));
  std::vector<ag::Variable> parts = ag::separate(x, 0);
  ASSERT_EQ(parts.size(), 3u);
  ag::sum(parts[2]).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0, 0, 0, 1, 1}));
}

TEST(AutogradEmbed, IgnoredLabelGivesZerosAndNoGradient) {
  ag::Variable W(seq({3, 2}));
  Array ids = asarray(std::vector<int64_t>{2, -1, 2});
  ag::Variable y = ag::embed_id(ids, W, -1);
  std::vector<double> w = values(W.array()), got = values(y.array());
  EXPECT_EQ(got, (std::vector<double>{w[4], w[5], 0, 0, w[4], w[5]}));
  ag::sum(y).backward();
  EXPECT_EQ(values(W.grad()), (std::vector<double>{0, 0, 0, 0, 2, 2}));
  EXPECT_THROW(ag::embed_id(seq({2}), W), TypeError);
}

TEST(AutogradRnn, LstmCell) {
  Array c_prev = seq({1, 2}), x = seq({1, 8}, 0.5, 0.1);
  auto [c, h] = ag::lstm(ag::Variable(c_prev), ag::Variable(x));
  std::vector<double> cp = values(c_prev), xv = values(x);
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  for (int k = 0; k < 2; ++k) {
    // Gates interleaved along the channels: a, i, f, o of unit k at 4k..4k+3.
    const double a = std::tanh(xv[4 * k]), i = sigmoid(xv[4 * k + 1]), f = sigmoid(xv[4 * k + 2]),
                 o = sigmoid(xv[4 * k + 3]);
    const double want_c = a * i + f * cp[k];
    EXPECT_NEAR(values(c.array())[k], want_c, 1e-14);
    EXPECT_NEAR(values(h.array())[k], o * std::tanh(want_c), 1e-14);
  }
  check_gradient([&](const ag::Variable& v) { return ag::lstm(ag::Variable(c_prev, false), v).second; }, x);
}

TEST(AutogradRnn, NStepGruShapesAndGradient) {
  const int64_t H = 2, in = 3;
  std::vector<std::vector<ag::Variable>> ws(1), bs(1);
  for (int k = 0; k < 6; ++k) {
    ws[0].emplace_back(seq({H, k < 3 ? in : H}, 0.3, 0.05 * k), false);
    bs[0].emplace_back(seq({H}, 0.2, -0.1 * k), false);
  }
  std::vector<ag::Variable> xs{ag::Variable(seq({2, in})), ag::Variable(seq({1, in}, 0.4))};
  ag::NStepResult r = ag::n_step_gru(1, 0.0, ag::Variable(), ws, bs, xs);
  EXPECT_EQ(r.hy.shape(), Shape({1, 2, H}));
  ASSERT_EQ(r.ys.size(), 2u);
  EXPECT_EQ(r.ys[1].shape(), Shape({1, H}));
  EXPECT_FALSE(r.cy.defined());
  check_gradient([&](const ag::Variable& h0) { return ag::n_step_gru(1, 0.0, h0, ws, bs, xs).hy; }, seq({1, 2, H}));
  EXPECT_THROW(ag::n_step_gru(0, 0.0, ag::Variable(), ws, bs, xs), ValueError);
}

TEST(AutogradRnn, NStepLstmPassesGradientCheck) {
  // Every input (hx, cx, the weights and biases, xs) checked at once, first
  // and second derivatives, with the engine's gradient_check.
  const int64_t H = 2, in = 3;
  std::vector<Array> inputs{seq({1, 2, H}), seq({1, 2, H}, 0.3, 0.2)};
  for (int k = 0; k < 8; ++k) inputs.push_back(seq({H, k < 4 ? in : H}, 0.4, 0.05 * k));
  for (int k = 0; k < 8; ++k) inputs.push_back(seq({H}, 0.2, -0.1 * k));
  inputs.push_back(seq({2, in}));
  inputs.push_back(seq({1, in}, 0.5));
  auto f = [](const std::vector<ag::Variable>& v) {
    std::vector<std::vector<ag::Variable>> ws{{v.begin() + 2, v.begin() + 10}}, bs{{v.begin() + 10, v.begin() + 18}};
    ag::NStepResult r = ag::n_step_lstm(1, 0.0, v[0], v[1], ws, bs, {v[18], v[19]});
    return std::vector<ag::Variable>{r.hy, r.cy, r.ys[0], r.ys[1]};
  };
  ag::check_backward(f, inputs);
  ag::check_double_backward(f, inputs);
}

}  // namespace
