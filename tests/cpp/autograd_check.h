// Helpers shared by the autograd C++ tests: deterministic inputs and a
// gradient check of every element against central finite differences.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "kumo/kumo.h"

namespace kumo_test {

using namespace kumo;  // NOLINT: the helpers read like the tests that use them
namespace ag = kumo::autograd;

inline Array seq(const Shape& shape, double scale = 0.37, double offset = -0.8) {
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = offset + scale * std::sin(1.3 * static_cast<double>(i) + 0.2);
  return asarray(v, shape);
}

inline std::vector<double> values(const Array& a) { return a.astype(Dtype::kFloat64).to_vector<double>(); }

// Checks d(sum(f(args) * w))/d(args[k]) for every k against finite differences.
inline void check(const std::function<ag::Variable(const std::vector<ag::Variable>&)>& f,
                  const std::vector<Array>& args) {
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

}  // namespace kumo_test
