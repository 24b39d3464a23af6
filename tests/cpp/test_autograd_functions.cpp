// autograd/functions: products, the softmax family, mean and losses,
// checked against central finite differences.
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

// Checks d(sum(f(args) * w))/d(args[k]) for every k against finite differences.
void check(const std::function<ag::Variable(const std::vector<ag::Variable>&)>& f, const std::vector<Array>& args) {
  std::vector<ag::Variable> vars;
  for (const Array& a : args) vars.emplace_back(a);
  ag::Variable out = f(vars);
  Array w = seq(out.shape(), 0.9, 0.1);
  ag::sum(out * ag::Variable(w, false)).backward();
  auto value = [&](const std::vector<Array>& at) {
    ag::NoBackpropMode off;
    std::vector<ag::Variable> v;
    for (const Array& a : at) v.emplace_back(a);
    return values(sum(multiply(f(v).array(), w)))[0];
  };
  for (size_t k = 0; k < args.size(); ++k) {
    std::vector<double> base = values(args[k]);
    std::vector<double> got = values(vars[k].grad());
    ASSERT_EQ(got.size(), base.size());
    for (size_t i = 0; i < base.size(); ++i) {
      std::vector<Array> plus = args, minus = args;
      std::vector<double> p = base, m = base;
      p[i] += 1e-6;
      m[i] -= 1e-6;
      plus[k] = asarray(p, args[k].shape());
      minus[k] = asarray(m, args[k].shape());
      const double want = (value(plus) - value(minus)) / 2e-6;
      EXPECT_NEAR(got[i], want, 1e-5 * (1 + std::abs(want))) << "argument " << k << " element " << i;
    }
  }
}

ag::Variable mm(const std::vector<ag::Variable>& v) { return ag::matmul(v[0], v[1]); }

TEST(AutogradFunctions, MatmulGradients) {
  check(mm, {seq({2, 3}), seq({3, 4})});
  check(mm, {seq({3}), seq({3, 4})});
  check(mm, {seq({2, 3}), seq({3})});
  check(mm, {seq({3}), seq({3})});
  check(mm, {seq({5, 2, 3}), seq({3, 4})});     // batch broadcast on the left
  check(mm, {seq({2, 3}), seq({2, 1, 3, 4})});  // and on the right
  check(mm, {seq({2, 1, 2, 3}), seq({3, 3, 2})});
}

TEST(AutogradFunctions, MatmulOfScalarRaises) {
  EXPECT_THROW(ag::matmul(ag::Variable(seq({})), ag::Variable(seq({3}))), ValueError);
}

TEST(AutogradFunctions, LinearGradients) {
  check([](const std::vector<ag::Variable>& v) { return ag::linear(v[0], v[1], v[2]); },
        {seq({4, 3}), seq({2, 3}), seq({2})});
  check([](const std::vector<ag::Variable>& v) { return ag::linear(v[0], v[1]); }, {seq({4, 3, 2}), seq({5, 6})});
}

TEST(AutogradFunctions, SoftmaxFamily) {
  check([](const std::vector<ag::Variable>& v) { return ag::softmax(v[0]); }, {seq({3, 4}, 3.0)});
  check([](const std::vector<ag::Variable>& v) { return ag::log_softmax(v[0], 0); }, {seq({3, 4}, 3.0)});
  check([](const std::vector<ag::Variable>& v) { return ag::logsumexp(v[0], -1); }, {seq({2, 3, 4}, 3.0)});
  ag::Variable big(asarray(std::vector<double>{1000.0, 1001.0, -1000.0}, {1, 3}));
  std::vector<double> s = values(ag::softmax(big).array());
  EXPECT_NEAR(s[0] + s[1] + s[2], 1.0, 1e-12);
  EXPECT_NEAR(s[1], 1.0 / (1.0 + std::exp(-1.0)), 1e-12);
}

TEST(AutogradFunctions, MeanAndMeanSquaredError) {
  check([](const std::vector<ag::Variable>& v) { return ag::mean(v[0], 1); }, {seq({3, 4})});
  check([](const std::vector<ag::Variable>& v) { return ag::mean(v[0]); }, {seq({3, 4})});
  check([](const std::vector<ag::Variable>& v) { return ag::mean_squared_error(v[0], v[1]); },
        {seq({3, 4}), seq({3, 4}, 0.5, 0.2)});
  EXPECT_THROW(ag::mean_squared_error(ag::Variable(seq({3})), ag::Variable(seq({4}))), ValueError);
}

}  // namespace
