// autograd/functions/{math,linalg,activation} and routines/special from
// C++: values against known results, gradients against central differences.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "autograd_check.h"
#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;
using kumo_test::check;
using kumo_test::seq;
using kumo_test::values;

namespace {

TEST(AutogradMath, SpecialRoutines) {
  Array x = asarray(std::vector<double>{0.5, 1.0, 2.0}, {3});
  std::vector<double> erf = values(special::erf(x)), lg = values(special::gammaln(x)),
                      psi = values(special::digamma(x));
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(erf[i], std::erf(values(x)[i]), 1e-15);
  EXPECT_NEAR(lg[0], std::log(std::sqrt(M_PI)), 1e-15);
  EXPECT_NEAR(psi[1], -0.5772156649015329, 1e-15);
  EXPECT_NEAR(values(special::polygamma(asarray(std::vector<int64_t>{1}, {1}), x))[1], M_PI * M_PI / 6, 1e-14);
  EXPECT_NEAR(values(special::erfinv(special::erf(x)))[2], 2.0, 1e-14);
  EXPECT_EQ(special::erfinv(x.astype(Dtype::kFloat32)).dtype(), Dtype::kFloat32);
}

TEST(AutogradMath, SpecialFunctionGradients) {
  check([](const std::vector<ag::Variable>& v) { return ag::erf(v[0]); }, {seq({4})});
  check([](const std::vector<ag::Variable>& v) { return ag::erfinv(v[0] * 0.5); }, {seq({4})});
  check([](const std::vector<ag::Variable>& v) { return ag::lgamma(v[0] + 2.0); }, {seq({4})});
  check([](const std::vector<ag::Variable>& v) { return ag::digamma(v[0] + 2.0); }, {seq({4})});
}

TEST(AutogradMath, ReductionAndScanGradients) {
  check([](const std::vector<ag::Variable>& v) { return ag::prod(v[0], Axes(1)); }, {seq({2, 3})});
  check([](const std::vector<ag::Variable>& v) { return ag::cumsum(v[0], 0); }, {seq({3, 2})});
  check([](const std::vector<ag::Variable>& v) { return ag::cumprod(v[0]); }, {seq({2, 3})});
  check([](const std::vector<ag::Variable>& v) { return ag::average(v[0], Axes(1), v[1]); },
        {seq({2, 3}), seq({3}, 0.1, 1.0)});
  check([](const std::vector<ag::Variable>& v) { return ag::arctan2(v[0], v[1]); }, {seq({3}), seq({3}, 0.2, 1.0)});
}

TEST(AutogradMath, ProdGradientWithZero) {
  ag::Variable x(asarray(std::vector<double>{2, 0, 3}, {3}));
  ag::prod(x).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 6, 0}));
}

TEST(AutogradMath, ArgmaxIsNotDifferentiable) {
  ag::Variable i = ag::argmax(ag::Variable(seq({2, 3})), 1);
  EXPECT_FALSE(i.requires_grad());
  EXPECT_EQ(i.shape(), (Shape{2}));
}

TEST(AutogradMath, LinalgGradients) {
  Array a = add(seq({3, 3}, 0.2), eye(3, std::nullopt, 0, Dtype::kFloat64));
  check([](const std::vector<ag::Variable>& v) { return ag::det(v[0]); }, {a});
  check([](const std::vector<ag::Variable>& v) { return ag::inv(v[0]); }, {a});
  check([](const std::vector<ag::Variable>& v) { return ag::solve(v[0], v[1]); }, {a, seq({3, 2})});
  check(
      [](const std::vector<ag::Variable>& v) {
        return ag::einsum("ij,jk->ik", {v[0], v[1]});
      },
      {seq({2, 3}), seq({3, 2})});
  check([](const std::vector<ag::Variable>& v) { return ag::tensordot(v[0], v[1], 1); }, {seq({2, 3}), seq({3, 2})});
}

TEST(AutogradMath, ActivationGradients) {
  check([](const std::vector<ag::Variable>& v) { return ag::gelu(v[0]); }, {seq({2, 4})});
  check([](const std::vector<ag::Variable>& v) { return ag::celu(v[0], 0.7); }, {seq({2, 4})});
  check([](const std::vector<ag::Variable>& v) { return ag::swish(v[0], v[1]); }, {seq({2, 4}), seq({4}, 0.1, 1.0)});
  check([](const std::vector<ag::Variable>& v) { return ag::crelu(v[0]); }, {seq({2, 4})});
}

TEST(AutogradMath, BadArguments) {
  EXPECT_THROW(ag::maxout(ag::Variable(seq({2, 5})), 2), ValueError);
  EXPECT_THROW(ag::erf(ag::Variable(asarray(std::vector<int64_t>{1}, {1}), false)), TypeError);
  EXPECT_THROW(ag::det(ag::Variable(seq({3}))), ValueError);
}

}  // namespace
