#include "autograd/functions/linalg.h"

#include <memory>
#include <string>
#include <vector>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "core/dtype.h"
#include "core/errors.h"
#include "linalg/products.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"

namespace kumo {
namespace autograd {
namespace {

// The last two axes swapped.
Variable swap_last(const Variable& x) {
  std::vector<int64_t> perm(static_cast<size_t>(x.ndim()));
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(x, perm);
}

// Shape of a matmul operand once a 1-d vector is made a matrix: a row for
// the left operand, a column for the right one.
Shape as_matrix(const Shape& s, bool left) {
  if (s.size() != 1) return s;
  return left ? Shape{1, s[0]} : Shape{s[0], 1};
}

class MatMul : public FunctionNode {
 public:
  std::string label() const override { return "MatMul"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0, 1});
    return {kumo::matmul(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    const Shape sa = as_matrix(input_shape(0), true), sb = as_matrix(input_shape(1), false);
    Variable a = reshape(x[0], sa), b = reshape(x[1], sb);
    // The output with the dimensions a 1-d operand dropped put back.
    Shape gs = gy[0].shape();
    if (input_shape(0).size() == 1) gs.insert(gs.size() - (input_shape(1).size() == 1 ? 0 : 1), 1);
    if (input_shape(1).size() == 1) gs.push_back(1);
    Variable g = reshape(gy[0], gs);
    std::vector<Variable> gx;
    for (size_t i : targets) {
      Variable d = i == 0 ? matmul(g, swap_last(b)) : matmul(swap_last(a), g);
      const Shape& want = i == 0 ? sa : sb;
      gx.push_back(reshape(sum_to(d, want), input_shape(i)));
    }
    return gx;
  }
};

// Chainer's LinearFunction: y = x W^T (+ b) as one node. Its weight gradient
// gy^T x comes out C-contiguous in W's own (out, in) layout, so the fused
// optimizer updates it in place; as a MatMul of a transposed W it was a
// transposed view that the optimizer had to copy in and back every step.
// The bias is added into the product in place.
class LinearFunction : public FunctionNode {
 public:
  std::string label() const override { return "LinearFunction"; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0, 1});
    Array y = kumo::matmul(in[0], kumo::transpose(in[1]));
    if (in.size() == 3) {
      if (promote_types(y.dtype(), in[2].dtype()) == y.dtype()) {
        kumo::add(y, in[2], y);
      } else {
        y = kumo::add(y, in[2]);
      }
    }
    return {y};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    std::vector<Variable> gx;
    for (size_t i : targets) {
      if (i == 0) {
        gx.push_back(matmul(gy[0], x[1]));
      } else if (i == 1) {
        gx.push_back(matmul(transpose(gy[0]), x[0]));
      } else {
        gx.push_back(sum(gy[0], Axes{0}));
      }
    }
    return gx;
  }
};

}  // namespace

Variable matmul(const Variable& a, const Variable& b) {
  if (a.ndim() == 0 || b.ndim() == 0) throw ValueError("matmul: input operand does not have enough dimensions");
  return apply(std::make_shared<MatMul>(), {a, b})[0];
}

Variable linear(const Variable& x, const Variable& W, const Variable& b) {
  if (W.ndim() != 2) throw ValueError("linear: W must be 2-d (out, in), got shape " + W.shape().to_string());
  Variable x2 = x.ndim() == 2 ? x : reshape(x, Shape{x.ndim() ? x.shape()[0] : 1, -1});
  if (x2.shape()[1] != W.shape()[1]) {
    throw ValueError("linear: x has " + std::to_string(x2.shape()[1]) + " features per example but W expects " +
                     std::to_string(W.shape()[1]) + " (W has shape " + W.shape().to_string() + ")");
  }
  if (!b.defined()) return apply(std::make_shared<LinearFunction>(), {x2, W})[0];
  if (b.ndim() == 1 && b.shape()[0] == W.shape()[0]) return apply(std::make_shared<LinearFunction>(), {x2, W, b})[0];
  return matmul(x2, transpose(W)) + b;  // a bias of another shape broadcasts as NumPy would
}

}  // namespace autograd
}  // namespace kumo
