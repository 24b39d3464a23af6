// Fits a two-layer network y = W2 tanh(W1 x + b1) + b2 to sin(3x) with
// kumo's C++ autograd and plain gradient descent, printing the loss.
//
//   cmake --build build-tests --target autograd_fit && build-tests/autograd_fit
#include <cmath>
#include <cstdio>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;

int main() {
  const int64_t n = 256, hidden = 32;
  std::vector<double> xs(n), ys(n);
  for (int64_t i = 0; i < n; ++i) {
    xs[i] = -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
    ys[i] = std::sin(3.0 * xs[i]);
  }
  ag::Variable x(asarray(xs, {n, 1}), false), t(asarray(ys, {n, 1}), false);

  // Deterministic spread-out initial weights (no random generator needed).
  std::vector<double> w1(hidden), w2(hidden), c1(hidden);
  for (int64_t j = 0; j < hidden; ++j) {
    w1[j] = 2.0 * std::sin(1.7 * static_cast<double>(j) + 0.3);
    c1[j] = std::cos(2.3 * static_cast<double>(j));
    w2[j] = std::sin(0.9 * static_cast<double>(j) + 1.1) / std::sqrt(static_cast<double>(hidden));
  }
  ag::Variable W1(asarray(w1, {hidden, 1})), b1(asarray(c1, {hidden}));
  ag::Variable W2(asarray(w2, {1, hidden})), b2(zeros(Shape{1}));
  std::vector<ag::Variable> params{W1, b1, W2, b2};

  const double lr = 0.1;
  for (int step = 0; step <= 2000; ++step) {
    ag::Variable h = ag::tanh(ag::linear(x, W1, b1));
    ag::Variable loss = ag::mean_squared_error(ag::linear(h, W2, b2), t);
    for (const ag::Variable& p : params) p.cleargrad();
    loss.backward();
    for (const ag::Variable& p : params) {
      Array data = p.array();
      subtract(data, multiply(p.grad(), lr), UfuncOptions().out(data));  // p -= lr * grad
    }
    if (step % 400 == 0) std::printf("step %4d  loss %.6f\n", step, loss.array().item<double>());
  }
  return 0;
}
