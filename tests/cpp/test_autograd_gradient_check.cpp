// autograd/gradient_check: correct backwards pass, wrong ones are caught,
// and double backprop is checked through the first-order gradients.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;

namespace {

Array seq(const Shape& shape, double scale = 0.37, double offset = -0.3) {
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = offset + scale * std::sin(1.3 * static_cast<double>(i) + 0.2);
  return asarray(v, shape);
}

// x^3 whose backward says 3x^2 * scale: correct only for scale 1. Its
// backward is written with differentiable functions, so second derivatives
// are wrong for the same scales.
class Cube : public ag::FunctionNode {
 public:
  explicit Cube(double scale) : scale_(scale) {}
  std::string label() const override { return "Cube"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    return {multiply(multiply(x[0], x[0]), x[0])};
  }
  std::vector<ag::Variable> backward(const std::vector<size_t>&, const std::vector<ag::Variable>& gy) override {
    ag::Variable x = get_retained_inputs()[0];
    return {gy[0] * x * x * (3.0 * scale_)};
  }

 private:
  double scale_;
};

// The gradient of Cube is right but its own backward (second derivative) is
// not: gx = 3 x^2 gy computed from a constant copy of x.
class CubeNoSecond : public ag::FunctionNode {
 public:
  std::string label() const override { return "CubeNoSecond"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    return {multiply(multiply(x[0], x[0]), x[0])};
  }
  std::vector<ag::Variable> backward(const std::vector<size_t>&, const std::vector<ag::Variable>& gy) override {
    Array x = get_retained_inputs()[0].array();
    return {gy[0] * ag::Variable(multiply(multiply(x, x), Scalar(3.0)), false)};
  }
};

ag::VariadicFunction cube(double scale) {
  return [scale](const std::vector<ag::Variable>& x) { return ag::apply(std::make_shared<Cube>(scale), {x[0]}); };
}

TEST(GradientCheck, PassesForCorrectBackward) {
  ag::check_backward(cube(1.0), {seq({3, 4})}, {seq({3, 4}, 0.9, 0.1)});
  ag::check_backward(cube(1.0), {seq({})});  // 0-d input, random output gradient
}

TEST(GradientCheck, CatchesWrongBackward) {
  EXPECT_THROW(ag::check_backward(cube(1.01), {seq({3, 4})}, {seq({3, 4}, 0.9, 0.1)}), ag::GradientCheckError);
}

TEST(GradientCheck, SeveralInputsAndOutputs) {
  auto f = [](const std::vector<ag::Variable>& x) {
    return std::vector<ag::Variable>{ag::tanh(x[0]) * x[1], ag::exp(x[1])};
  };
  ag::check_backward(f, {seq({2, 3}), seq({3}, 0.5)}, {seq({2, 3}, 0.4), seq({3}, 0.7)});
  ag::check_double_backward(f, {seq({2, 3}), seq({3}, 0.5)});
}

TEST(GradientCheck, NoGradsLeavesIntegerInputsOut) {
  auto f = [](const std::vector<ag::Variable>& x) { return std::vector<ag::Variable>{ag::select_item(x[0], x[1].array())}; };
  ag::check_backward(f, {seq({3, 4}), asarray(std::vector<int64_t>{0, 3, 2}, {3})});
}

TEST(GradientCheck, Params) {
  ag::Variable w(seq({3}, 0.6, 0.2));
  auto f = [w](const std::vector<ag::Variable>& x) { return std::vector<ag::Variable>{ag::sin(x[0] * w)}; };
  ag::GradientCheckOptions options;
  options.params = {w};
  ag::check_backward(f, {seq({2, 3})}, {}, options);
  ag::check_double_backward(f, {seq({2, 3})}, {}, {}, options);
}

TEST(GradientCheck, DoubleBackwardPassesWhenSecondDerivativeIsRight) {
  ag::check_double_backward(cube(1.0), {seq({5})}, {seq({5}, 0.8)}, {seq({5}, 0.3, 0.5)});
}

TEST(GradientCheck, DoubleBackwardCatchesAConstantBackward) {
  auto f = [](const std::vector<ag::Variable>& x) { return ag::apply(std::make_shared<CubeNoSecond>(), {x[0]}); };
  ag::check_backward(f, {seq({5})});
  EXPECT_THROW(ag::check_double_backward(f, {seq({5})}, {seq({5}, 0.8)}, {seq({5}, 0.3, 0.5)}),
               ag::GradientCheckError);
}

TEST(GradientCheck, Float32RunsInFloat64WhenAsked) {
  ag::GradientCheckOptions options;
  options.dtype = Dtype::kFloat64;
  ag::check_backward(cube(1.0), {seq({4}).astype(Dtype::kFloat32)}, {}, options);
}

TEST(GradientCheck, WrongNumberOfOutputGradientsRaises) {
  EXPECT_THROW(ag::check_backward(cube(1.0), {seq({4})}, {seq({4}), seq({4})}), ValueError);
}

}  // namespace
