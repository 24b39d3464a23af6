#include "autograd/functions/combine.h"

#include <memory>
#include <string>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/indexing.h"
#include "core/errors.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"

namespace kumo {
namespace autograd {
namespace {

// The index selecting [begin, end) along `axis` of an ndim-d array.
std::vector<Index> range_along(int ndim, int axis, int64_t begin, int64_t end) {
  std::vector<Index> index;
  for (int i = 0; i < axis; ++i) index.emplace_back(IndexItem::slice(std::nullopt, std::nullopt, 1));
  index.emplace_back(IndexItem::slice(begin, end, 1));
  (void)ndim;
  return index;
}

class Concat : public FunctionNode {
 public:
  explicit Concat(int64_t axis) : axis_(axis) {}
  std::string label() const override { return "Concat"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {concatenate(x, axis_)}; }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    const int ndim = gy[0].ndim();
    const int axis = normalize_axis(axis_, ndim);
    std::vector<int64_t> begin(num_inputs() + 1, 0);
    for (size_t i = 0; i < num_inputs(); ++i) begin[i + 1] = begin[i] + input_shape(i)[axis];
    std::vector<Variable> gx;
    for (size_t i : targets) gx.push_back(get_item(gy[0], range_along(ndim, axis, begin[i], begin[i + 1])));
    return gx;
  }

 private:
  int64_t axis_;
};

// A constant of the operands' dtype from a boolean mask.
Variable mask_of(const Array& m, Dtype dtype) { return Variable(m.astype(dtype), false); }

Variable unbroadcast(const Variable& g, const Shape& shape) { return g.shape() == shape ? g : sum_to(g, shape); }

class Where : public FunctionNode {
 public:
  explicit Where(Array condition) : condition_(std::move(condition)) {}
  std::string label() const override { return "Where"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::where(condition_, x[0], x[1])}; }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> gx;
    for (size_t i : targets) {
      Array m = i == 0 ? condition_ : kumo::logical_not(condition_);
      gx.push_back(unbroadcast(gy[0] * mask_of(m, gy[0].dtype()), input_shape(i)));
    }
    return gx;
  }

 private:
  Array condition_;
};

// maximum (greater = true) or minimum of two variables.
class Extremum : public FunctionNode {
 public:
  explicit Extremum(bool greater) : greater_(greater) {}
  std::string label() const override { return greater_ ? "Maximum" : "Minimum"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    first_wins_ = greater_ ? kumo::greater_equal(x[0], x[1]) : kumo::less_equal(x[0], x[1]);
    return {greater_ ? kumo::maximum(x[0], x[1]) : kumo::minimum(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> gx;
    for (size_t i : targets) {
      Array m = i == 0 ? first_wins_ : kumo::logical_not(first_wins_);
      gx.push_back(unbroadcast(gy[0] * mask_of(m, gy[0].dtype()), input_shape(i)));
    }
    return gx;
  }

 private:
  bool greater_;
  Array first_wins_;  // a boolean mask, not an input: in-place changes of the inputs cannot affect it
};

class Clip : public FunctionNode {
 public:
  Clip(double lo, double hi) : lo_(lo), hi_(hi) {}
  std::string label() const override { return "Clip"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    inside_ = kumo::logical_and(kumo::greater_equal(x[0], lo_), kumo::less_equal(x[0], hi_));
    return {kumo::clip(x[0], Scalar(lo_), Scalar(hi_))};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {gy[0] * mask_of(inside_, gy[0].dtype())};
  }

 private:
  double lo_, hi_;
  Array inside_;
};

class Extreme : public FunctionNode {
 public:
  Extreme(bool is_max, Axes axes, bool keepdims) : is_max_(is_max), axes_(std::move(axes)), keepdims_(keepdims) {}
  std::string label() const override { return is_max_ ? "Max" : "Min"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    ReduceOptions kept = ReduceOptions().keepdims(true);
    Array e = is_max_ ? kumo::max(x[0], axes_, kept) : kumo::min(x[0], axes_, kept);
    at_extreme_ = kumo::equal(x[0], e);
    kept_shape_ = e.shape();
    return {keepdims_ ? e : e.reshape(reduced_shape(x[0].shape()))};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable g = broadcast_to(reshape(gy[0], kept_shape_), input_shape(0));
    return {g * mask_of(at_extreme_, g.dtype())};
  }

 private:
  Shape reduced_shape(const Shape& in) const {
    Shape out;
    std::vector<bool> reduced(static_cast<size_t>(in.size()), axes_.is_all());
    if (!axes_.is_all())
      for (int64_t a : axes_.list()) reduced[static_cast<size_t>(normalize_axis(a, in.size()))] = true;
    for (int i = 0; i < in.size(); ++i)
      if (!reduced[static_cast<size_t>(i)]) out.push_back(in[i]);
    return out;
  }

  bool is_max_;
  Axes axes_;
  bool keepdims_;
  Array at_extreme_;
  Shape kept_shape_;
};

}  // namespace

Variable concat(const std::vector<Variable>& xs, int64_t axis) {
  if (xs.empty()) throw ValueError("concat: need at least one array to concatenate");
  return autograd::apply(std::make_shared<Concat>(axis), xs)[0];
}

Variable expand_dims(const Variable& x, int64_t axis) {
  Shape s = x.shape();
  s.insert(normalize_axis(axis, x.ndim() + 1), 1);
  return reshape(x, s);
}

Variable squeeze(const Variable& x) {
  Shape s;
  for (int64_t d : x.shape())
    if (d != 1) s.push_back(d);
  return reshape(x, s);
}

Variable squeeze(const Variable& x, const std::vector<int64_t>& axes) {
  const int64_t n = x.ndim();
  std::vector<bool> drop(static_cast<size_t>(n), false);
  for (int64_t a : axes) {
    if (a < -n || a >= n)
      throw AxisError("axis " + std::to_string(a) + " is out of bounds for array of dimension " + std::to_string(n));
    if (a < 0) a += n;
    if (x.shape()[static_cast<int>(a)] != 1)
      throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
    drop[static_cast<size_t>(a)] = true;
  }
  Shape s;
  for (int64_t i = 0; i < n; ++i)
    if (!drop[static_cast<size_t>(i)]) s.push_back(x.shape()[static_cast<int>(i)]);
  return reshape(x, s);
}

Variable stack(const std::vector<Variable>& xs, int64_t axis) {
  if (xs.empty()) throw ValueError("stack: need at least one array to stack");
  std::vector<Variable> expanded;
  for (const Variable& x : xs) expanded.push_back(expand_dims(x, axis));
  return concat(expanded, axis);
}

std::vector<Variable> split_axis(const Variable& x, const std::vector<int64_t>& indices, int64_t axis) {
  const int a = normalize_axis(axis, x.ndim());
  const int64_t n = x.shape()[a];
  // Piece i is x[indices[i-1]:indices[i]] along the axis, each bound read
  // as a Python slice bound (negative from the end, clamped), as
  // numpy.split: decreasing indices give an empty piece, and the next one
  // starts at its own index, not at the furthest so far.
  const auto bound = [n](int64_t v) { return v < 0 ? std::max<int64_t>(v + n, 0) : std::min(v, n); };
  std::vector<Variable> out;
  for (size_t i = 0; i <= indices.size(); ++i) {
    const int64_t begin = i == 0 ? 0 : bound(indices[i - 1]);
    const int64_t end = i < indices.size() ? bound(indices[i]) : n;
    out.push_back(get_item(x, range_along(x.ndim(), a, begin, std::max(begin, end))));
  }
  return out;
}

std::vector<Variable> split_axis(const Variable& x, int64_t sections, int64_t axis) {
  const int a = normalize_axis(axis, x.ndim());
  if (sections <= 0 || x.shape()[a] % sections != 0)
    throw ValueError("split_axis: array split does not result in an equal division (" + std::to_string(x.shape()[a]) +
                     " into " + std::to_string(sections) + ")");
  std::vector<int64_t> indices;
  const int64_t step = x.shape()[a] / sections;
  for (int64_t i = 1; i < sections; ++i) indices.push_back(i * step);
  return split_axis(x, indices, axis);
}

Variable where(const Array& condition, const Variable& x, const Variable& y) {
  if (condition.dtype() != Dtype::kBool) throw TypeError("where: the condition must be boolean");
  return autograd::apply(std::make_shared<Where>(condition), {x, y})[0];
}

Variable maximum(const Variable& a, const Variable& b) {
  return autograd::apply(std::make_shared<Extremum>(true), {a, b})[0];
}
Variable minimum(const Variable& a, const Variable& b) {
  return autograd::apply(std::make_shared<Extremum>(false), {a, b})[0];
}

Variable clip(const Variable& x, double lo, double hi) {
  if (lo > hi) throw ValueError("clip: x_min must be less than or equal to x_max");
  return autograd::apply(std::make_shared<Clip>(lo, hi), {x})[0];
}

Variable max(const Variable& x, const Axes& axes, bool keepdims) {
  return autograd::apply(std::make_shared<Extreme>(true, axes, keepdims), {x})[0];
}
Variable min(const Variable& x, const Axes& axes, bool keepdims) {
  return autograd::apply(std::make_shared<Extreme>(false, axes, keepdims), {x})[0];
}

}  // namespace autograd
}  // namespace kumo
