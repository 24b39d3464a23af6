#include "autograd/functions/array.h"

#include <memory>
#include <numeric>
#include <string>

#include "autograd/function_node.h"
#include "autograd/functions/basic_math.h"
#include "core/errors.h"
#include "routines/manipulation.h"

namespace kumo {
namespace autograd {
namespace {

class BroadcastTo : public FunctionNode {
 public:
  explicit BroadcastTo(Shape shape) : shape_(shape) {}
  std::string label() const override { return "BroadcastTo"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::broadcast_to(x[0], shape_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {sum_to(gy[0], input_shape(0))};
  }

 private:
  Shape shape_;
};

// The axes sum_to reduces: the leading ones x has beyond `shape`, and those
// where `shape` has extent 1 and x more.
std::vector<int64_t> sum_to_axes(const Shape& from, const Shape& to) {
  if (to.size() > from.size())
    throw ValueError("sum_to: cannot sum shape " + from.to_string() + " to the larger rank " + to.to_string());
  const int lead = from.size() - to.size();
  std::vector<int64_t> axes;
  for (int i = 0; i < lead; ++i) axes.push_back(i);
  for (int i = 0; i < to.size(); ++i) {
    if (to[i] == from[lead + i]) continue;
    if (to[i] != 1) throw ValueError("sum_to: shape " + from.to_string() + " is not a broadcast of " + to.to_string());
    axes.push_back(lead + i);
  }
  return axes;
}

class SumTo : public FunctionNode {
 public:
  explicit SumTo(Shape shape) : shape_(shape) {}
  std::string label() const override { return "SumTo"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    Array s = kumo::sum(x[0], Axes(sum_to_axes(x[0].shape(), shape_)), ReduceOptions().keepdims(true));
    return {s.reshape(shape_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {broadcast_to(gy[0], input_shape(0))};
  }

 private:
  Shape shape_;
};

class Sum : public FunctionNode {
 public:
  Sum(Axes axes, bool keepdims) : axes_(std::move(axes)), keepdims_(keepdims) {}
  std::string label() const override { return "Sum"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    return {kumo::sum(x[0], axes_, ReduceOptions().keepdims(keepdims_))};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    const Shape& in = input_shape(0);
    Variable g = gy[0];
    if (!keepdims_) {
      // Put the reduced axes back as extent 1, then broadcast.
      Shape kept = in;
      if (axes_.is_all()) {
        for (int i = 0; i < kept.size(); ++i) kept[i] = 1;
      } else {
        for (int64_t a : axes_.list()) kept[static_cast<int>(normalize_axis(a, in.size()))] = 1;
      }
      g = reshape(g, kept);
    }
    return {broadcast_to(g, in)};
  }

 private:
  Axes axes_;
  bool keepdims_;
};

class Reshape : public FunctionNode {
 public:
  explicit Reshape(Shape shape) : shape_(shape) {}
  std::string label() const override { return "Reshape"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {x[0].reshape(shape_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {reshape(gy[0], input_shape(0))};
  }

 private:
  Shape shape_;
};

class Transpose : public FunctionNode {
 public:
  explicit Transpose(std::vector<int64_t> axes) : axes_(std::move(axes)) {}
  std::string label() const override { return "Transpose"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    if (axes_.empty()) {
      axes_.resize(x[0].ndim());
      std::iota(axes_.rbegin(), axes_.rend(), 0);
    }
    return {x[0].transpose(axes_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    std::vector<int64_t> inverse(axes_.size());
    for (size_t i = 0; i < axes_.size(); ++i)
      inverse[static_cast<size_t>(normalize_axis(axes_[i], static_cast<int>(axes_.size())))] = static_cast<int64_t>(i);
    return {transpose(gy[0], inverse)};
  }

 private:
  std::vector<int64_t> axes_;
};

class Copy : public FunctionNode {
 public:
  explicit Copy(Device& device) : device_(&device) {}
  std::string label() const override { return "Copy"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    return {&x[0].device() == device_ ? x[0].copy() : x[0].to_device(*device_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {copy(gy[0], input_device(0))};
  }

 private:
  Device* device_;
};

Variable one(const std::shared_ptr<FunctionNode>& f, const Variable& x) { return apply(f, {x})[0]; }

}  // namespace

Variable broadcast_to(const Variable& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  return one(std::make_shared<BroadcastTo>(shape), x);
}

Variable sum_to(const Variable& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  return one(std::make_shared<SumTo>(shape), x);
}

Variable sum(const Variable& x, const Axes& axes, bool keepdims) {
  return one(std::make_shared<Sum>(axes, keepdims), x);
}

Variable mean(const Variable& x, const Axes& axes, bool keepdims) {
  int64_t count = 1;
  if (axes.is_all()) {
    count = x.size();
  } else {
    for (int64_t a : axes.list()) count *= x.shape()[normalize_axis(a, x.ndim())];
  }
  Variable s = sum(x, axes, keepdims);
  // Integer input: the mean is floating, as NumPy's.
  if (!is_inexact(s.dtype())) s = cast(s, Dtype::kFloat64);
  return s / static_cast<double>(count);
}

Variable reshape(const Variable& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  return one(std::make_shared<Reshape>(shape), x);
}

Variable copy(const Variable& x, Device& device) { return one(std::make_shared<Copy>(device), x); }

Variable transpose(const Variable& x, const std::vector<int64_t>& axes) {
  return one(std::make_shared<Transpose>(axes), x);
}

}  // namespace autograd
}  // namespace kumo
