#include "autograd/functions/indexing.h"

#include <memory>
#include <string>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "routines/manipulation.h"

namespace kumo {
namespace autograd {
namespace {

// The adjoint of get_item: zeros of `shape` with the values added at index.
Variable scatter_into_zeros(const Variable& values, const std::vector<Index>& index, const Shape& shape);

class GetItem : public FunctionNode {
 public:
  explicit GetItem(std::vector<Index> index) : index_(std::move(index)) {}
  std::string label() const override { return "GetItem"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {getitem(x[0], index_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {scatter_into_zeros(gy[0], index_, input_shape(0))};
  }

 private:
  std::vector<Index> index_;
};

class ScatterIntoZeros : public FunctionNode {
 public:
  ScatterIntoZeros(std::vector<Index> index, Shape shape) : index_(std::move(index)), shape_(shape) {}
  std::string label() const override { return "ScatterIntoZeros"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    Array out = zeros(shape_, x[0].dtype(), Order::kC, x[0].device());
    scatter_add(out, index_, x[0]);
    return {out};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {get_item(gy[0], index_)};
  }

 private:
  std::vector<Index> index_;
  Shape shape_;
};

Variable scatter_into_zeros(const Variable& values, const std::vector<Index>& index, const Shape& shape) {
  return apply(std::make_shared<ScatterIntoZeros>(index, shape), {values})[0];
}

// (N,) labels as the index (arange(N), t).
std::vector<Index> row_label_index(const Variable& x, const Array& t) {
  if (x.ndim() != 2) throw ValueError("select_item: x must be 2-d (N, C), got shape " + x.shape().to_string());
  if (t.ndim() != 1 || t.shape()[0] != x.shape()[0])
    throw ValueError("select_item: t must be 1-d with one label per row of x; shapes " + x.shape().to_string() +
                     " and " + t.shape().to_string());
  if (!is_integer(t.dtype())) throw TypeError("select_item: t must hold integers, got " + dtype_repr(t.dtype()));
  return {arange(Scalar(0), Scalar(x.shape()[0]), Scalar(1), Dtype::kInt64, x.device()), t};
}

}  // namespace

Variable get_item(const Variable& x, const std::vector<Index>& index) {
  return apply(std::make_shared<GetItem>(index), {x})[0];
}

Variable select_item(const Variable& x, const Array& t) { return get_item(x, row_label_index(x, t)); }

}  // namespace autograd
}  // namespace kumo
