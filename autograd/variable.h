// Variable: the user's handle on an array taking part in automatic
// differentiation (data, grad, name, requires_grad), and VariableNode: the
// graph's record of it.
//
// The two are separate so that the graph never keeps an array alive that no
// one needs (Chainer's design). A VariableNode records shape, dtype and
// device, points to the FunctionNode that created it, and refers to its
// Variable only weakly; it holds no array. Arrays that a backward needs are
// kept by the function node that retained them, and only until that node has
// been processed. A Variable is a shared handle: copies refer to the same
// variable, as Python names do.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <vector>

#include "core/array.h"

namespace kumo {
namespace autograd {

class BackwardPass;
class FunctionNode;
class Variable;
struct VariableBody;

class VariableNode {
 public:
  VariableNode(const Array& like, bool requires_grad, std::string name);

  const Shape& shape() const { return shape_; }
  Dtype dtype() const { return dtype_; }
  Device& device() const { return *device_; }
  const std::string& name() const { return name_; }
  bool requires_grad() const { return requires_grad_; }
  // The function that produced this variable (null for a root).
  const std::shared_ptr<FunctionNode>& creator() const { return creator_; }
  // The creator's generation: functions run backward from high to low rank.
  int64_t rank() const { return rank_; }
  // The user's Variable on this node while it lives; an undefined one after.
  Variable variable() const;

 private:
  friend class Variable;
  friend class FunctionNode;
  friend std::vector<Variable> apply(const std::shared_ptr<FunctionNode>& node, const std::vector<Variable>& inputs);

  Shape shape_;
  Dtype dtype_;
  Device* device_;
  bool requires_grad_;
  std::string name_;
  std::weak_ptr<VariableBody> body_;
  std::shared_ptr<FunctionNode> creator_;
  int64_t rank_ = 0;
};

class Variable {
 public:
  // An undefined variable (Chainer's None where a variable may be absent,
  // e.g. a gradient that does not flow).
  Variable() = default;
  explicit Variable(Array data, bool requires_grad = true, std::string name = {});

  bool defined() const { return body_ != nullptr; }
  // The same variable (not equal values).
  bool is(const Variable& other) const { return body_ == other.body_; }

  const Array& array() const;
  // Replaces the data (Chainer's `variable.array = x`); the graph is kept,
  // so the shape and dtype must stay those of the node.
  void set_array(const Array& data) const;
  const Shape& shape() const { return array().shape(); }
  Dtype dtype() const { return array().dtype(); }
  int ndim() const { return array().ndim(); }
  int64_t size() const { return array().size(); }
  Device& device() const { return array().device(); }

  const std::string& name() const;
  void set_name(std::string name) const;
  bool requires_grad() const;

  // The gradient: an undefined Variable/Array until backward sets one.
  Variable grad_var() const;
  Array grad() const;
  void set_grad_var(const Variable& grad) const;
  void set_grad(const Array& grad) const;  // undefined Array clears it
  void cleargrad() const;
  // Sets the gradient to zeros (Chainer's deprecated but common zerograd).
  void zerograd() const;

  const std::shared_ptr<VariableNode>& node() const;
  std::shared_ptr<FunctionNode> creator() const;
  int64_t rank() const;

  // Backpropagates from this variable: its gradient (ones when it has one
  // element and no gradient yet) flows to every variable it depends on;
  // leaves accumulate it into their grad. With retain_grad, intermediate
  // variables keep their gradients too. With enable_double_backprop,
  // backward records the gradient computation so gradients can be
  // differentiated. The graph stays for another backward (Chainer's rule)
  // unless release_graph, which frees each function's retained arrays as
  // the pass goes by (autograd/backward.h). With loss_scale (Chainer's
  // loss scaling for float16 training) the ones it starts from are
  // loss_scale instead, and every leaf reached records the scale
  // (loss_scale()) for the optimizer to divide its gradient by.
  void backward(bool retain_grad = false, bool enable_double_backprop = false, bool release_graph = false,
                std::optional<double> loss_scale = std::nullopt) const;

  // The loss scale of the last scaled backward that reached this leaf
  // (Chainer's Variable._loss_scale); none until one does.
  std::optional<double> loss_scale() const;
  void set_loss_scale(std::optional<double> scale) const;

  // Makes this variable a root: its creator is forgotten.
  void unchain() const;
  // Releases every function and reference upstream of this variable.
  void unchain_backward() const;

 private:
  friend class VariableNode;
  friend class FunctionNode;
  friend class BackwardPass;
  explicit Variable(std::shared_ptr<VariableBody> body) : body_(std::move(body)) {}
  VariableBody& body() const;

  std::shared_ptr<VariableBody> body_;
};

struct VariableBody {
  Array data;
  std::shared_ptr<VariableNode> node;
  bool requires_grad = true;
  std::string name;
  // Guards grad: leaves shared by graphs differentiated in several threads
  // (model parameters) accumulate into it concurrently.
  mutable std::mutex grad_mutex;
  Variable grad;
  std::optional<double> loss_scale;  // guarded by grad_mutex
};

}  // namespace autograd
}  // namespace kumo
