#include "autograd/function_node.h"

#include <algorithm>
#include <string>

#include "autograd/function_hook.h"
#include "autograd/mode.h"
#include "core/errors.h"

namespace kumo {
namespace autograd {

std::vector<std::shared_ptr<VariableNode>> FunctionNode::outputs() const {
  std::vector<std::shared_ptr<VariableNode>> out;
  out.reserve(outputs_.size());
  for (const auto& o : outputs_) out.push_back(o.lock());
  return out;
}

void FunctionNode::unchain() {
  for (const auto& o : outputs_) {
    if (auto node = o.lock(); node && node->creator_.get() == this) {
      node->creator_.reset();
      node->rank_ = 0;
    }
  }
  inputs_.clear();
  retained_inputs_.clear();
  retained_outputs_.clear();
  released_ = true;
}

void FunctionNode::retain_inputs(std::vector<size_t> indexes) { retain_input_indexes_ = std::move(indexes); }

void FunctionNode::retain_outputs(std::vector<size_t> indexes) { retain_output_indexes_ = std::move(indexes); }

namespace {

std::string retained_what(const std::string& label, const char* kind) {
  return "FunctionNode '" + label + "': get_retained_" + kind;
}

}  // namespace

// The Variable backward sees for a retained array on `node`: the user's
// variable when it still holds exactly that array, otherwise a new variable
// on the same node, so the graph through the node stays reachable.
Variable FunctionNode::retained_variable(const std::shared_ptr<VariableNode>& node, const Array& array) {
  Variable v = node->variable();
  if (v.defined() && v.array().memory() == array.memory() && v.array().data() == array.data() &&
      v.array().strides() == array.strides())
    return v;
  auto body = std::make_shared<VariableBody>();
  body->data = array;
  body->node = node;
  body->requires_grad = node->requires_grad();
  body->name = node->name();
  if (node->body_.expired()) node->body_ = body;
  return Variable(std::move(body));
}

std::vector<Variable> FunctionNode::get_retained_inputs() {
  if (released_) throw RuntimeError(retained_what(label(), "inputs") + " after the node was released by backward");
  std::vector<Variable> out;
  out.reserve(retained_inputs_.size());
  for (const Retained& r : retained_inputs_) out.push_back(retained_variable(inputs_.at(r.index), r.array));
  return out;
}

std::vector<Variable> FunctionNode::get_retained_outputs() {
  if (released_) throw RuntimeError(retained_what(label(), "outputs") + " after the node was released by backward");
  std::vector<Variable> out;
  out.reserve(retained_outputs_.size());
  for (const Retained& r : retained_outputs_) {
    std::shared_ptr<VariableNode> node = outputs_.at(r.index).lock();
    if (!node) {
      // The output's node is gone (nobody held the output): recreate it from
      // the kept array, with this node as its creator. The new variable holds
      // the node and the node this function; nothing points back.
      node = std::make_shared<VariableNode>(r.array, true, std::string());
      node->creator_ = shared_from_this();
      node->rank_ = rank_;
      outputs_[r.index] = node;
    }
    out.push_back(retained_variable(node, r.array));
  }
  return out;
}

void FunctionNode::check_retained_unmodified() const {
  auto check = [this](const std::vector<Retained>& list, const char* kind) {
    for (const Retained& r : list)
      if (r.array.memory()->version() != r.version)
        throw RuntimeError("FunctionNode '" + label() + "': " + kind + " " + std::to_string(r.index) +
                           ", which it retained for backward, was modified in "
                           "place after the forward (version " +
                           std::to_string(r.version) + ", now " + std::to_string(r.array.memory()->version()) +
                           "); its gradient would be wrong. Copy the array "
                           "before modifying it.");
  };
  check(retained_inputs_, "input");
  check(retained_outputs_, "output");
}

std::vector<Variable> apply(const std::shared_ptr<FunctionNode>& node, const std::vector<Variable>& inputs) {
  if (!node) throw ValueError("apply: null FunctionNode");
  if (node->released_ || !node->output_meta_.empty())
    throw RuntimeError("FunctionNode '" + node->label() + "' was already applied; create a new node per call");
  std::vector<Array> in_arrays;
  in_arrays.reserve(inputs.size());
  bool any_requires_grad = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined())
      throw ValueError("FunctionNode '" + node->label() + "': input " + std::to_string(i) + " is undefined");
    in_arrays.push_back(inputs[i].array());
    any_requires_grad = any_requires_grad || inputs[i].requires_grad();
  }
  const bool hooked = !active_function_hooks().empty();
  if (hooked) detail::run_forward_hooks(true, *node, in_arrays);
  std::vector<Array> out_arrays = node->forward(in_arrays);
  if (hooked) detail::run_forward_hooks(false, *node, in_arrays);
  for (size_t i = 0; i < out_arrays.size(); ++i)
    if (!out_arrays[i].defined())
      throw RuntimeError("FunctionNode '" + node->label() + "': forward returned an undefined output " +
                         std::to_string(i));

  node->input_meta_.reserve(inputs.size());
  for (const Array& a : in_arrays) node->input_meta_.push_back({a.shape(), a.dtype(), &a.device()});
  node->output_meta_.reserve(out_arrays.size());
  for (const Array& a : out_arrays) node->output_meta_.push_back({a.shape(), a.dtype(), &a.device()});

  std::vector<Variable> outputs;
  outputs.reserve(out_arrays.size());
  for (Array& a : out_arrays) outputs.emplace_back(std::move(a), any_requires_grad);
  if (!any_requires_grad || !is_backprop_enabled()) {
    // No graph: the node and whatever forward asked to retain go away now.
    node->released_ = true;
    return outputs;
  }

  int64_t rank = 0;
  node->inputs_.reserve(inputs.size());
  for (const Variable& x : inputs) {
    rank = std::max(rank, x.rank());
    node->inputs_.push_back(x.node());
  }
  node->rank_ = rank + 1;
  for (size_t i : node->retain_input_indexes_) {
    const Array& a = in_arrays.at(i);
    node->retained_inputs_.push_back({i, a, a.memory()->version()});
  }
  node->outputs_.reserve(outputs.size());
  for (Variable& y : outputs) {
    y.node()->creator_ = node;
    y.node()->rank_ = node->rank_;
    node->outputs_.push_back(y.node());
  }
  for (size_t i : node->retain_output_indexes_) {
    const Array& a = outputs.at(i).array();
    node->retained_outputs_.push_back({i, a, a.memory()->version()});
  }
  return outputs;
}

}  // namespace autograd
}  // namespace kumo
