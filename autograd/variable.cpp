#include "autograd/variable.h"

#include <unordered_set>
#include <vector>

#include "autograd/backward.h"
#include "autograd/function_node.h"
#include "core/errors.h"
#include "routines/creation.h"

namespace kumo {
namespace autograd {

VariableNode::VariableNode(const Array& like, bool requires_grad, std::string name)
    : shape_(like.shape()),
      dtype_(like.dtype()),
      device_(&like.device()),
      requires_grad_(requires_grad),
      name_(std::move(name)) {}

Variable VariableNode::variable() const { return Variable(body_.lock()); }

Variable::Variable(Array data, bool requires_grad, std::string name) : body_(std::make_shared<VariableBody>()) {
  if (!data.defined()) throw ValueError("Variable: the data array is undefined");
  body_->node = std::make_shared<VariableNode>(data, requires_grad, name);
  body_->node->body_ = body_;
  body_->data = std::move(data);
  body_->requires_grad = requires_grad;
  body_->name = std::move(name);
}

VariableBody& Variable::body() const {
  if (!body_) throw ValueError("the Variable is undefined (no data)");
  return *body_;
}

const Array& Variable::array() const { return body().data; }

void Variable::set_array(const Array& data) const {
  VariableBody& b = body();
  if (data.shape() != b.node->shape() || data.dtype() != b.node->dtype())
    throw ValueError("Variable.array: the new array has shape " + data.shape().to_string() + " and dtype " +
                     dtype_name(data.dtype()) + ", the variable's node " + b.node->shape().to_string() + " and " +
                     dtype_name(b.node->dtype()));
  b.data = data;
}

const std::string& Variable::name() const { return body().name; }

void Variable::set_name(std::string name) const {
  body().node->name_ = name;
  body().name = std::move(name);
}

bool Variable::requires_grad() const { return body().requires_grad; }

Variable Variable::grad_var() const {
  std::lock_guard<std::mutex> lock(body().grad_mutex);
  return body_->grad;
}

Array Variable::grad() const {
  Variable g = grad_var();
  return g.defined() ? g.array() : Array();
}

void Variable::set_grad_var(const Variable& grad) const {
  VariableBody& b = body();
  if (grad.defined() && grad.shape() != b.data.shape())
    throw ValueError("Variable.grad: a gradient of shape " + grad.shape().to_string() + " for a variable of shape " +
                     b.data.shape().to_string());
  std::lock_guard<std::mutex> lock(b.grad_mutex);
  b.grad = grad;
}

void Variable::set_grad(const Array& grad) const { set_grad_var(grad.defined() ? Variable(grad, false) : Variable()); }

void Variable::cleargrad() const { set_grad_var(Variable()); }

void Variable::zerograd() const { set_grad(zeros_like(array())); }

const std::shared_ptr<VariableNode>& Variable::node() const { return body().node; }

std::shared_ptr<FunctionNode> Variable::creator() const { return body().node->creator_; }

int64_t Variable::rank() const { return body().node->rank_; }

void Variable::backward(bool retain_grad, bool enable_double_backprop, bool release_graph,
                        std::optional<double> loss_scale) const {
  autograd::backward({*this}, {}, retain_grad, enable_double_backprop, release_graph, loss_scale);
}

std::optional<double> Variable::loss_scale() const {
  std::lock_guard<std::mutex> lock(body().grad_mutex);
  return body().loss_scale;
}

void Variable::set_loss_scale(std::optional<double> scale) const {
  if (scale && !(*scale > 0))
    throw ValueError("loss_scale must be a positive number. Actual: " + std::to_string(*scale));
  std::lock_guard<std::mutex> lock(body().grad_mutex);
  body().loss_scale = scale;
}

void Variable::unchain() const {
  VariableNode& n = *body().node;
  n.creator_.reset();
  n.rank_ = 0;
}

void Variable::unchain_backward() const {
  std::shared_ptr<FunctionNode> first = creator();
  if (!first) return;
  std::vector<std::shared_ptr<FunctionNode>> pending{first};
  std::unordered_set<const FunctionNode*> seen{first.get()};
  while (!pending.empty()) {
    std::shared_ptr<FunctionNode> f = std::move(pending.back());
    pending.pop_back();
    for (const auto& x : f->inputs()) {
      const std::shared_ptr<FunctionNode>& c = x->creator();
      if (c && seen.insert(c.get()).second) pending.push_back(c);
    }
    f->unchain();
  }
}

}  // namespace autograd
}  // namespace kumo
