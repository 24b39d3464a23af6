// FunctionNode: one differentiable operation in the graph (Chainer's
// FunctionNode). A subclass implements forward on arrays and backward on
// Variables; because backward is written with differentiable functions, the
// gradient computation can itself be recorded and differentiated (double
// backprop).
//
//   class Square : public FunctionNode {
//     std::string label() const override { return "Square"; }
//     std::vector<Array> forward(const std::vector<Array>& x) override {
//       retain_inputs({0});
//       return {kumo::square(x[0])};
//     }
//     std::vector<Variable> backward(const std::vector<size_t>&, const
//     std::vector<Variable>& gy) override {
//       return {gy[0] * get_retained_inputs()[0] * 2.0};
//     }
//   };
//   Variable y = apply(std::make_shared<Square>(), {x})[0];
//
// Memory: a node keeps the arrays it retained and nothing else (its input
// variable nodes, and its output nodes weakly). Once backward has processed
// it, it lets go of them. A retained output whose node was released is
// recreated from the kept array, so no reference cycle is needed for
// double backprop.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

class FunctionNode : public std::enable_shared_from_this<FunctionNode> {
 public:
  FunctionNode() = default;
  virtual ~FunctionNode() = default;
  FunctionNode(const FunctionNode&) = delete;
  FunctionNode& operator=(const FunctionNode&) = delete;

  // The name in messages and graphs ("Add", "Tanh").
  virtual std::string label() const = 0;
  // Computes the outputs from the input arrays. May call retain_inputs /
  // retain_outputs to keep what backward needs.
  virtual std::vector<Array> forward(const std::vector<Array>& inputs) = 0;
  // Gradients of the inputs listed in target_input_indexes (in that order)
  // from the outputs' gradients; an undefined grad_outputs[i] means no
  // gradient reaches output i (treat it as zeros). An undefined result means
  // a zero gradient. Only retained arrays are available here.
  virtual std::vector<Variable> backward(const std::vector<size_t>& target_input_indexes,
                                         const std::vector<Variable>& grad_outputs) = 0;

  int64_t rank() const { return rank_; }
  size_t num_inputs() const { return input_meta_.size(); }
  size_t num_outputs() const { return output_meta_.size(); }
  // The input variable nodes (empty once the node has been released).
  const std::vector<std::shared_ptr<VariableNode>>& inputs() const { return inputs_; }
  // The output variable nodes that still exist (null entries for released
  // ones).
  std::vector<std::shared_ptr<VariableNode>> outputs() const;

  // Purges this node from the graph: its outputs forget their creator, and it
  // lets go of its inputs and retained arrays.
  void unchain();

 protected:
  // During forward: which inputs/outputs backward will need.
  void retain_inputs(std::vector<size_t> indexes);
  void retain_outputs(std::vector<size_t> indexes);
  // During backward: the retained inputs/outputs as Variables, in the order
  // they were retained. They are part of the graph, so gradients computed
  // from them flow through them under double backprop.
  std::vector<Variable> get_retained_inputs();
  std::vector<Variable> get_retained_outputs();

  // Shape, dtype and device of every input and output (kept for backward).
  const Shape& input_shape(size_t i) const { return input_meta_.at(i).shape; }
  Dtype input_dtype(size_t i) const { return input_meta_.at(i).dtype; }
  Device& input_device(size_t i) const { return *input_meta_.at(i).device; }
  const Shape& output_shape(size_t i) const { return output_meta_.at(i).shape; }
  Dtype output_dtype(size_t i) const { return output_meta_.at(i).dtype; }

 private:
  friend std::vector<Variable> apply(const std::shared_ptr<FunctionNode>& node, const std::vector<Variable>& inputs);
  friend class BackwardPass;

  struct Meta {
    Shape shape;
    Dtype dtype;
    Device* device;
  };
  struct Retained {
    size_t index;
    Array array;
    uint64_t version;  // the array's memory version when it was retained
  };
  // Throws when an array retained for backward was modified in place since.
  void check_retained_unmodified() const;
  static Variable retained_variable(const std::shared_ptr<VariableNode>& node, const Array& array);

  std::vector<std::shared_ptr<VariableNode>> inputs_;
  std::vector<std::weak_ptr<VariableNode>> outputs_;
  std::vector<Meta> input_meta_, output_meta_;
  std::vector<size_t> retain_input_indexes_, retain_output_indexes_;
  std::vector<Retained> retained_inputs_, retained_outputs_;
  int64_t rank_ = 0;
  bool released_ = false;
};

// Applies a function node to variables: runs forward on their arrays and,
// when backprop is enabled and some input requires a gradient, records the
// node in the graph. Outputs require a gradient when any input does.
std::vector<Variable> apply(const std::shared_ptr<FunctionNode>& node, const std::vector<Variable>& inputs);

}  // namespace autograd
}  // namespace kumo
