#include "autograd/functions/math.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "autograd/function_node.h"
#include "autograd/functions/argument_checks.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/fused.h"
#include "autograd/functions/indexing.h"
#include "autograd/functions/unary_rule.h"
#include "autograd/mode.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/reduction.h"
#include "routines/special.h"

namespace kumo {
namespace autograd {
namespace {

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
const UnaryRule kArctanh{"Arctanh", [](const Array& x) { return kumo::arctanh(x); }, UnaryRule::kInput,
                         [](const Variable& x, const Variable& gy) { return gy / (1.0 - x * x); },
                         "gy / ((T)1 - v * v)"};
// 1/sqrt(x): its derivative -y^3/2.
const UnaryRule kRsqrt{"Rsqrt", [](const Array& x) { return kumo::reciprocal(kumo::sqrt(x)); }, UnaryRule::kOutput,
                       [](const Variable& y, const Variable& gy) { return gy * y * y * y * -0.5; },
                       "gy * v * v * v * (T)(-0.5)"};
// Piecewise constant: zero gradient everywhere it exists (as Chainer's).
Variable zero_gradient(const Variable& x, const Variable& gy) { return gy * constant(kumo::zeros_like(x.array())); }
const UnaryRule kFloor{"Floor", [](const Array& x) { return kumo::floor(x); }, UnaryRule::kInput, zero_gradient};
const UnaryRule kCeil{"Ceil", [](const Array& x) { return kumo::ceil(x); }, UnaryRule::kInput, zero_gradient};

Variable run(const UnaryRule& rule, const Variable& x) { return apply_unary_rule(rule, x); }

}  // namespace

Variable exp(const Variable& x) { return run(kExp, x); }
Variable log(const Variable& x) { return run(kLog, x); }
Variable sqrt(const Variable& x) { return run(kSqrt, x); }
Variable square(const Variable& x) { return run(kSquare, x); }
Variable sin(const Variable& x) { return run(kSin, x); }
Variable cos(const Variable& x) { return run(kCos, x); }
Variable tanh(const Variable& x) { return run(kTanh, x); }
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
Variable arctanh(const Variable& x) {
  require_floating(x, "arctanh");
  return run(kArctanh, x);
}

Variable sign(const Variable& x) {
  if (!x.defined()) throw TypeError("sign: x is None");
  return Variable(kumo::sign(x.array()), false);
}

// numpy.fix: rounds toward zero; integers and booleans are already whole
// (NumPy returns them unchanged in their dtype).
Variable fix(const Variable& x) {
  if (!x.defined()) throw TypeError("fix: x is None");
  const Array& a = x.array();
  return Variable(is_floating(a.dtype()) ? kumo::trunc(a) : a.copy(), false);
}

namespace {

constexpr double kTwoOverSqrtPi = 1.1283791670955126;
constexpr double kSqrtPiOverTwo = 0.886226925452758;

Array as_dtype(const Array& a, Dtype d) { return a.dtype() == d ? a : a.astype(d); }

const UnaryRule kErf{"Erf", [](const Array& a) { return as_dtype(special::erf(a), a.dtype()); }, UnaryRule::kInput,
                     [](const Variable& v, const Variable& gy) { return gy * exp(neg(v * v)) * kTwoOverSqrtPi; }};
const UnaryRule kErfc{"Erfc", [](const Array& a) { return as_dtype(special::erfc(a), a.dtype()); }, UnaryRule::kInput,
                      [](const Variable& v, const Variable& gy) { return gy * exp(neg(v * v)) * -kTwoOverSqrtPi; }};
const UnaryRule kErfInv{"ErfInv", [](const Array& a) { return as_dtype(special::erfinv(a), a.dtype()); },
                        UnaryRule::kOutput,
                        [](const Variable& v, const Variable& gy) { return gy * exp(v * v) * kSqrtPiOverTwo; }};
const UnaryRule kLGamma{"LGamma", [](const Array& a) { return as_dtype(special::gammaln(a), a.dtype()); },
                        UnaryRule::kInput, [](const Variable& v, const Variable& gy) { return gy * digamma(v); }};
const UnaryRule kDiGamma{"DiGamma", [](const Array& a) { return as_dtype(special::digamma(a), a.dtype()); },
                         UnaryRule::kInput,
                         [](const Variable& v, const Variable& gy) {
                           return gy * polygamma(kumo::ones(Shape{}, Dtype::kInt64, Order::kC, v.device()), v);
                         }};

// A special function (erf, lgamma, ...): floating input only, and the
// result in x's dtype (the special routines may widen float16).
Variable special_unary(const UnaryRule& rule, const Variable& x) {
  require_floating(x, rule.label, "x");
  return apply_unary_rule(rule, x);
}

Variable unbroadcast(const Variable& g, const Shape& shape) { return g.shape() == shape ? g : sum_to(g, shape); }

class Polygamma : public FunctionNode {
 public:
  explicit Polygamma(Array n) : n_(std::move(n)) {}
  std::string label() const override { return "Polygamma"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    return {as_dtype(special::polygamma(n_, x[0]), x[0].dtype())};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable x = get_retained_inputs()[0];
    return {unbroadcast(gy[0] * polygamma(kumo::add(n_, Scalar(1)), x), input_shape(0))};
  }

 private:
  Array n_;
};

class Arctan2 : public FunctionNode {
 public:
  std::string label() const override { return "Arctan2"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0, 1});
    return {kumo::arctan2(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    Variable g = gy[0] / (x[0] * x[0] + x[1] * x[1]);
    std::vector<Variable> gx;
    for (size_t i : targets) gx.push_back(unbroadcast(i == 0 ? g * x[1] : neg(g * x[0]), input_shape(i)));
    return gx;
  }
};

class Fmod : public FunctionNode {
 public:
  std::string label() const override { return "Fmod"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    // d/d divisor of x - trunc(x / divisor) * divisor: the quotient is
    // piecewise constant, so it is kept as data.
    quotient_ = kumo::trunc(kumo::divide(x[0], x[1]));
    return {kumo::fmod(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> gx;
    for (size_t i : targets)
      gx.push_back(
          unbroadcast(i == 0 ? gy[0] : neg(gy[0] * constant(as_dtype(quotient_, gy[0].dtype()))), input_shape(i)));
    return gx;
  }

 private:
  Array quotient_;
};

// x reversed along axis.
Variable flip(const Variable& x, int axis) {
  std::vector<Index> index;
  for (int i = 0; i < axis; ++i) index.emplace_back(IndexItem::slice(std::nullopt, std::nullopt, 1));
  index.emplace_back(IndexItem::slice(std::nullopt, std::nullopt, -1));
  return get_item(x, index);
}

// sum_{j >= i} v_j along axis: the adjoint of cumsum.
Variable reverse_cumsum(const Variable& v, int axis) { return flip(cumsum(flip(v, axis), axis), axis); }

class Cumsum : public FunctionNode {
 public:
  explicit Cumsum(int axis) : axis_(axis) {}
  std::string label() const override { return "Cumsum"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::cumsum(x[0], axis_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {reverse_cumsum(gy[0], axis_)};
  }

 private:
  int axis_;
};

// The gradient of y = cumprod(x) along axis: gx_i = sum_{k >= i} gy_k
// prod_{j <= k, j != i} x_j, without dividing by zeros. Before the first zero
// along the axis it is reverse_cumsum(gy * y) / x; at the first zero z it is
// reverse_cumsum(gy * y1) with y1 = cumprod(x with x_z = 1); after it, x_z
// times the same gradient for x with x_z = 1. That last term is 0 but keeps
// the dependence on x_z, so second derivatives are exact (`exact` false
// drops it one level down, where only its value, 0, matters).
Variable cumprod_grad(const Variable& x, const Variable& y, const Variable& gy, int axis, bool exact) {
  const Array& xa = x.array();
  const Dtype dt = xa.dtype();
  Array is_zero = kumo::equal(xa, Scalar(0));
  Array zeros_so_far = kumo::cumsum(is_zero, axis);
  Array before = kumo::equal(zeros_so_far, Scalar(0));
  Array first = kumo::logical_and(is_zero, kumo::equal(zeros_so_far, Scalar(1)));
  Variable one = constant(kumo::ones_like(xa));
  Variable first_mask = constant(first.astype(dt));
  Variable gx = reverse_cumsum(gy * y, axis) / where(before, x, one) * constant(before.astype(dt));
  Variable x1 = where(first, one, x);
  Variable y1 = cumprod(x1, axis);
  gx = gx + reverse_cumsum(gy * y1, axis) * first_mask;
  if (exact) {
    Array after = kumo::logical_and(kumo::greater_equal(zeros_so_far, Scalar(1)), kumo::logical_not(first));
    Variable xz = sum(x * first_mask, Axes(static_cast<int64_t>(axis)), true);
    gx = gx + cumprod_grad(x1, y1, gy, axis, false) * xz * constant(after.astype(dt));
  }
  return gx;
}

class Cumprod : public FunctionNode {
 public:
  explicit Cumprod(int axis) : axis_(axis) {}
  std::string label() const override { return "Cumprod"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    retain_outputs({0});
    return {kumo::cumprod(x[0], axis_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {cumprod_grad(get_retained_inputs()[0], get_retained_outputs()[0], gy[0], axis_, true)};
  }

 private:
  int axis_;
};

// The product of the elements before / after each along the last axis
// (exclusive scans from both ends), with ones at the ends.
Variable exclusive_product_last(const Variable& f) {
  const int last = f.ndim() - 1;
  const int64_t n = f.shape()[last];
  if (n <= 1) return constant(kumo::ones_like(f.array()));
  Shape one_shape = f.shape();
  one_shape[last] = 1;
  Variable ones = constant(kumo::ones(one_shape, f.dtype(), Order::kC, f.device()));
  std::vector<Index> head{IndexItem::ellipsis(), IndexItem::slice(std::nullopt, n - 1, 1)};
  Variable left = concat({ones, cumprod(get_item(f, head), last)}, last);
  Variable right = flip(concat({ones, cumprod(get_item(flip(f, last), head), last)}, last), last);
  return left * right;
}

// For each element, the product of the other elements of its reduction
// group (the axes flagged in `reduced`).
Variable exclusive_product(const Variable& x, const std::vector<bool>& reduced) {
  const int nd = x.ndim();
  if (nd == 0) return constant(kumo::ones_like(x.array()));
  std::vector<int64_t> perm, inverse(static_cast<size_t>(nd));
  Shape flat;
  int64_t group = 1;
  for (int i = 0; i < nd; ++i)
    if (!reduced[i]) {
      perm.push_back(i);
      flat.push_back(x.shape()[i]);
    }
  for (int i = 0; i < nd; ++i)
    if (reduced[i]) {
      perm.push_back(i);
      group *= x.shape()[i];
    }
  flat.push_back(group);
  for (int i = 0; i < nd; ++i) inverse[static_cast<size_t>(perm[i])] = i;
  Variable t = transpose(x, perm);
  Shape ts = t.shape();
  Variable e = reshape(exclusive_product_last(reshape(t, flat)), ts);
  return transpose(e, inverse);
}

class Prod : public FunctionNode {
 public:
  Prod(Axes axes, bool keepdims) : axes_(std::move(axes)), keepdims_(keepdims) {}
  std::string label() const override { return "Prod"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    Array kept = kumo::prod(x[0], axes_, ReduceOptions().keepdims(true));
    kept_shape_ = kept.shape();
    if (keepdims_) return {kept};
    return {kumo::prod(x[0], axes_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable x = get_retained_inputs()[0];
    std::vector<bool> reduced(static_cast<size_t>(x.ndim()));
    for (int i = 0; i < x.ndim(); ++i) reduced[i] = kept_shape_[i] == 1 && (axes_.is_all() || in_axes(i, x.ndim()));
    Variable g = broadcast_to(reshape(gy[0], kept_shape_), x.shape());
    return {g * exclusive_product(x, reduced)};
  }

 private:
  bool in_axes(int i, int nd) const {
    for (int64_t a : axes_.list())
      if (normalize_axis(a, nd) == i) return true;
    return false;
  }
  Axes axes_;
  bool keepdims_;
  Shape kept_shape_;
};

}  // namespace

Variable erf(const Variable& x) { return special_unary(kErf, x); }

Variable erfc(const Variable& x) { return special_unary(kErfc, x); }

Variable erfinv(const Variable& x) { return special_unary(kErfInv, x); }

Variable lgamma(const Variable& x) { return special_unary(kLGamma, x); }

Variable digamma(const Variable& x) { return special_unary(kDiGamma, x); }

Variable polygamma(const Array& n, const Variable& x) {
  require_floating(x, "polygamma", "x");
  if (!is_integer(n.dtype()))
    throw TypeError(std::string("polygamma: n must be integers, got ") + dtype_name(n.dtype()));
  return autograd::apply(std::make_shared<Polygamma>(n), {x})[0];
}

Variable arctan2(const Variable& x1, const Variable& x2) {
  require_floating(x1, "arctan2", "x1");
  require_floating(x2, "arctan2", "x2");
  return autograd::apply(std::make_shared<Arctan2>(), {x1, x2})[0];
}

Variable fmod(const Variable& x, const Variable& divisor) {
  require_floating(x, "fmod", "x");
  require_floating(divisor, "fmod", "divisor");
  return autograd::apply(std::make_shared<Fmod>(), {x, divisor})[0];
}

Variable prod(const Variable& x, const Axes& axes, bool keepdims) {
  require_floating(x, "prod", "x");
  return autograd::apply(std::make_shared<Prod>(axes, keepdims), {x})[0];
}

Variable cumsum(const Variable& x, std::optional<int64_t> axis) {
  require_floating(x, "cumsum", "x");
  if (!axis) return cumsum(reshape(x, Shape{x.size()}), 0);
  return autograd::apply(std::make_shared<Cumsum>(normalize_axis(*axis, x.ndim())), {x})[0];
}

Variable cumprod(const Variable& x, std::optional<int64_t> axis) {
  require_floating(x, "cumprod", "x");
  if (!axis) return cumprod(reshape(x, Shape{x.size()}), 0);
  return autograd::apply(std::make_shared<Cumprod>(normalize_axis(*axis, x.ndim())), {x})[0];
}

Variable average(const Variable& x, const Axes& axes, const Variable& weights, bool keepdims) {
  require_floating(x, "average", "x");
  if (!weights.defined()) return mean(x, axes, keepdims);
  require_floating(weights, "average", "weights");
  Variable w = weights;
  if (axes.is_all()) {
    if (w.shape() != x.shape())
      throw ValueError("average: the shape of weights " + w.shape().to_string() + " must be that of x " +
                       x.shape().to_string() + " when axis is None");
  } else {
    if (axes.list().size() != 1) throw ValueError("average: tuple axis is not supported when weights is given");
    const int a = normalize_axis(axes.list()[0], x.ndim());
    if (w.ndim() != 1 || w.shape()[0] != x.shape()[a])
      throw ValueError("average: weights must be 1-d with length " + std::to_string(x.shape()[a]) +
                       " (x's size along axis), got shape " + w.shape().to_string());
    Shape s(static_cast<size_t>(x.ndim()), 1);
    s[a] = x.shape()[a];
    w = reshape(w, s);
  }
  return sum(x * w, axes, keepdims) / sum(w);
}

Variable argmax(const Variable& x, std::optional<int64_t> axis) {
  require_floating(x, "argmax", "x");
  return constant(kumo::argmax(x.array(), axis));
}

Variable argmin(const Variable& x, std::optional<int64_t> axis) {
  require_floating(x, "argmin", "x");
  return constant(kumo::argmin(x.array(), axis));
}

Variable squared_difference(const Variable& x1, const Variable& x2) {
  require_floating(x1, "squared_difference", "x1");
  require_floating(x2, "squared_difference", "x2");
  Variable d = x1 - x2;
  return d * d;
}

Variable batch_l2_norm_squared(const Variable& x) {
  require_floating(x, "batch_l2_norm_squared", "x");
  if (x.ndim() < 2)
    throw ValueError("batch_l2_norm_squared: x must have at least 2 dimensions, got shape " + x.shape().to_string());
  const int64_t n = x.shape()[0];
  int64_t per = 1;  // not x.size() / n: n may be 0
  for (int i = 1; i < x.ndim(); ++i) per *= x.shape()[i];
  Variable flat = reshape(x, Shape{n, per});
  return sum(flat * flat, Axes(1));
}

}  // namespace autograd
}  // namespace kumo
