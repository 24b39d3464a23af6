#include "autograd/functions/math.h"

#include <memory>
#include <string>

#include "autograd/function_node.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/fused.h"
#include "autograd/mode.h"
#include "routines/creation.h"
#include "routines/elementwise.h"

namespace kumo {
namespace autograd {
namespace {

// One differentiable unary elementwise function: its forward routine, which
// of x and y its derivative needs, and the input's gradient from that value
// and the output's gradient (written with differentiable functions).
struct UnaryRule {
  const char* label;
  Array (*forward)(const Array& x);
  enum Needs { kInput, kOutput } needs;
  Variable (*gradient)(const Variable& x_or_y, const Variable& gy);
  // The same gradient as one elementwise expression of v (x or y) and gy,
  // used when the backward is not itself recorded (no double backprop):
  // one kernel instead of a chain of them. Null: always use `gradient`.
  const char* fused = nullptr;
};

// A constant (no gradient) array as a Variable.
Variable constant(Array a) { return Variable(std::move(a), false); }

// The table: add a function by adding a row.
const UnaryRule kExp{"Exp", [](const Array& x) { return kumo::exp(x); }, UnaryRule::kOutput,
                     [](const Variable& y, const Variable& gy) { return gy * y; }, "gy * v"};
const UnaryRule kLog{"Log", [](const Array& x) { return kumo::log(x); }, UnaryRule::kInput,
                     [](const Variable& x, const Variable& gy) { return gy / x; }, "gy / v"};
const UnaryRule kSqrt{"Sqrt", [](const Array& x) { return kumo::sqrt(x); }, UnaryRule::kOutput,
                      [](const Variable& y, const Variable& gy) { return gy / (y * 2.0); }, "gy / (v * (T)2)"};
const UnaryRule kSquare{"Square", [](const Array& x) { return kumo::square(x); }, UnaryRule::kInput,
                        [](const Variable& x, const Variable& gy) { return gy * x * 2.0; }, "gy * v * (T)2"};
const UnaryRule kSin{"Sin", [](const Array& x) { return kumo::sin(x); }, UnaryRule::kInput,
                     [](const Variable& x, const Variable& gy) { return gy * cos(x); }};
const UnaryRule kCos{"Cos", [](const Array& x) { return kumo::cos(x); }, UnaryRule::kInput,
                     [](const Variable& x, const Variable& gy) { return neg(gy * sin(x)); }};
const UnaryRule kTanh{"Tanh", [](const Array& x) { return kumo::tanh(x); }, UnaryRule::kOutput,
                      [](const Variable& y, const Variable& gy) { return gy * (1.0 - y * y); }, "gy * ((T)1 - v * v)"};
// sigmoid(x) = (1 + tanh(x / 2)) / 2: no overflow for large |x|. For
// float32/float64 one fused kernel (fused.h's kag_sigmoid: 1 / (1 + e) or
// e / (1 + e) with e = exp(-|x|), vectorizable); other dtypes follow NumPy's
// promotion.
Array sigmoid_forward(const Array& x) {
  if (fused::fused_dtype(x.dtype())) {
    const auto& spec = fused::elementwise("kumo_ag_Sigmoid_fwd", "T x", "T y", "y = kag_sigmoid(x)");
    return fused::call(spec, {x})[0];
  }
  return kumo::add(kumo::multiply(kumo::tanh(kumo::multiply(x, 0.5)), 0.5), 0.5);
}
const UnaryRule kSigmoid{"Sigmoid", sigmoid_forward, UnaryRule::kOutput,
                         [](const Variable& y, const Variable& gy) { return gy * y * (1.0 - y); },
                         "gy * v * ((T)1 - v)"};
const UnaryRule kRelu{"ReLU", [](const Array& x) { return kumo::maximum(x, Scalar(0)); }, UnaryRule::kOutput,
                      [](const Variable& y, const Variable& gy) {
                        return gy * constant(kumo::greater(y.array(), Scalar(0)).astype(y.dtype()));
                      },
                      "v > (T)0 ? gy : (T)0"};
const UnaryRule kAbsolute{"Absolute", [](const Array& x) { return kumo::absolute(x); }, UnaryRule::kInput,
                          [](const Variable& x, const Variable& gy) { return gy * constant(kumo::sign(x.array())); },
                          "v > (T)0 ? gy : (v < (T)0 ? -gy : (T)0)"};

const UnaryRule kLog2{"Log2", [](const Array& x) { return kumo::log2(x); }, UnaryRule::kInput,
                      [](const Variable& x, const Variable& gy) { return gy / (x * 0.6931471805599453); }};
const UnaryRule kLog10{"Log10", [](const Array& x) { return kumo::log10(x); }, UnaryRule::kInput,
                       [](const Variable& x, const Variable& gy) { return gy / (x * 2.302585092994046); }};
const UnaryRule kLog1p{"Log1p", [](const Array& x) { return kumo::log1p(x); }, UnaryRule::kInput,
                       [](const Variable& x, const Variable& gy) { return gy / (x + 1.0); }, "gy / (v + (T)1)"};
const UnaryRule kExpm1{"Expm1", [](const Array& x) { return kumo::expm1(x); }, UnaryRule::kOutput,
                       [](const Variable& y, const Variable& gy) { return gy * (y + 1.0); }, "gy * (v + (T)1)"};
const UnaryRule kTan{"Tan", [](const Array& x) { return kumo::tan(x); }, UnaryRule::kOutput,
                     [](const Variable& y, const Variable& gy) { return gy * (y * y + 1.0); }, "gy * (v * v + (T)1)"};
const UnaryRule kArcsin{"Arcsin", [](const Array& x) { return kumo::arcsin(x); }, UnaryRule::kInput,
                        [](const Variable& x, const Variable& gy) { return gy / sqrt(1.0 - x * x); }};
const UnaryRule kArccos{"Arccos", [](const Array& x) { return kumo::arccos(x); }, UnaryRule::kInput,
                        [](const Variable& x, const Variable& gy) { return neg(gy / sqrt(1.0 - x * x)); }};
const UnaryRule kArctan{"Arctan", [](const Array& x) { return kumo::arctan(x); }, UnaryRule::kInput,
                        [](const Variable& x, const Variable& gy) { return gy / (x * x + 1.0); },
                        "gy / (v * v + (T)1)"};
const UnaryRule kSinh{"Sinh", [](const Array& x) { return kumo::sinh(x); }, UnaryRule::kInput,
                      [](const Variable& x, const Variable& gy) { return gy * cosh(x); }};
const UnaryRule kCosh{"Cosh", [](const Array& x) { return kumo::cosh(x); }, UnaryRule::kInput,
                      [](const Variable& x, const Variable& gy) { return gy * sinh(x); }};
// 1/sqrt(x): its derivative -y^3/2.
const UnaryRule kRsqrt{"Rsqrt", [](const Array& x) { return kumo::reciprocal(kumo::sqrt(x)); }, UnaryRule::kOutput,
                       [](const Variable& y, const Variable& gy) { return gy * y * y * y * -0.5; },
                       "gy * v * v * v * (T)(-0.5)"};
// Piecewise constant: zero gradient everywhere it exists (as Chainer's).
Variable zero_gradient(const Variable& x, const Variable& gy) { return gy * constant(kumo::zeros_like(x.array())); }
const UnaryRule kFloor{"Floor", [](const Array& x) { return kumo::floor(x); }, UnaryRule::kInput, zero_gradient};
const UnaryRule kCeil{"Ceil", [](const Array& x) { return kumo::ceil(x); }, UnaryRule::kInput, zero_gradient};

// The fused kernel applies to float32/float64 with gy of v's dtype and shape
// (float16 and mixed dtypes take the composed path).
bool fusable(const Array& v, const Array& gy) {
  return v.dtype() == gy.dtype() && (v.dtype() == Dtype::kFloat32 || v.dtype() == Dtype::kFloat64) &&
         v.shape() == gy.shape();
}

Array fused_gradient(const UnaryRule& rule, const Array& v, const Array& gy) {
  const auto& spec = fused::elementwise(std::string("kumo_ag_") + rule.label + "_grad", "T v, T gy", "T gx",
                                        std::string("gx = ") + rule.fused);
  return fused::call(spec, {v, gy})[0];
}

class UnaryFunction : public FunctionNode {
 public:
  explicit UnaryFunction(const UnaryRule& rule) : rule_(rule) {}
  std::string label() const override { return rule_.label; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    if (rule_.needs == UnaryRule::kInput)
      retain_inputs({0});
    else
      retain_outputs({0});
    return {rule_.forward(x[0])};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable v = rule_.needs == UnaryRule::kInput ? get_retained_inputs()[0] : get_retained_outputs()[0];
    if (rule_.fused && !is_backprop_enabled() && fusable(v.array(), gy[0].array())) {
      return {constant(fused_gradient(rule_, v.array(), gy[0].array()))};
    }
    return {rule_.gradient(v, gy[0])};
  }

 private:
  const UnaryRule& rule_;
};

Variable run(const UnaryRule& rule, const Variable& x) { return apply(std::make_shared<UnaryFunction>(rule), {x})[0]; }

}  // namespace

Variable exp(const Variable& x) { return run(kExp, x); }
Variable log(const Variable& x) { return run(kLog, x); }
Variable sqrt(const Variable& x) { return run(kSqrt, x); }
Variable square(const Variable& x) { return run(kSquare, x); }
Variable sin(const Variable& x) { return run(kSin, x); }
Variable cos(const Variable& x) { return run(kCos, x); }
Variable tanh(const Variable& x) { return run(kTanh, x); }
Variable sigmoid(const Variable& x) { return run(kSigmoid, x); }
Variable relu(const Variable& x) { return run(kRelu, x); }
Variable absolute(const Variable& x) { return run(kAbsolute, x); }
Variable log2(const Variable& x) { return run(kLog2, x); }
Variable log10(const Variable& x) { return run(kLog10, x); }
Variable log1p(const Variable& x) { return run(kLog1p, x); }
Variable expm1(const Variable& x) { return run(kExpm1, x); }
Variable tan(const Variable& x) { return run(kTan, x); }
Variable arcsin(const Variable& x) { return run(kArcsin, x); }
Variable arccos(const Variable& x) { return run(kArccos, x); }
Variable arctan(const Variable& x) { return run(kArctan, x); }
Variable sinh(const Variable& x) { return run(kSinh, x); }
Variable cosh(const Variable& x) { return run(kCosh, x); }
Variable rsqrt(const Variable& x) { return run(kRsqrt, x); }
Variable floor(const Variable& x) { return run(kFloor, x); }
Variable ceil(const Variable& x) { return run(kCeil, x); }

}  // namespace autograd
}  // namespace kumo
