// autograd/functions: products, the softmax family, mean and losses,
// checked against central finite differences.
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
