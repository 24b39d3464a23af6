#include "autograd/backward.h"

#include <queue>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "autograd/function_hook.h"
#include "autograd/function_node.h"
#include "autograd/functions/basic_math.h"
#include "autograd/mode.h"
#include "core/errors.h"
#include "routines/creation.h"

namespace kumo {
namespace autograd {

class BackwardPass {
 public:
  BackwardPass(bool retain_grad, bool enable_double_backprop, bool release_graph)
      : retain_grad_(retain_grad),
        double_backprop_(enable_double_backprop),
        release_(release_graph && !enable_double_backprop) {}

  // Seeds the pass with the outputs and their initial gradients.
  void seed(const std::vector<Variable>& outputs, const std::vector<Variable>& grad_outputs, bool set_output_grad,
            std::optional<double> loss_scale = std::nullopt) {
    if (!grad_outputs.empty() && grad_outputs.size() != outputs.size())
      throw ValueError("backward: " + std::to_string(grad_outputs.size()) + " grad_outputs for " +
                       std::to_string(outputs.size()) + " outputs");
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Variable& y = outputs[i];
      if (!y.defined()) throw ValueError("backward: output " + std::to_string(i) + " is undefined");
      Variable gy = grad_outputs.empty() ? Variable() : grad_outputs[i];
      if (!gy.defined() && set_output_grad) gy = y.grad_var();
      if (!gy.defined()) {
        if (y.size() != 1)
          throw ValueError("backward: output " + std::to_string(i) + " has shape " + y.shape().to_string() +
                           "; give its gradient (only one-element outputs start from ones)");
        gy = Variable(loss_scale ? full_like(y.array(), Scalar(*loss_scale)) : ones_like(y.array()), false);
      }
      if (gy.shape() != y.shape())
        throw ValueError("backward: the gradient of output " + std::to_string(i) + " has shape " +
                         gy.shape().to_string() + ", the output " + y.shape().to_string());
      if (set_output_grad) y.set_grad_var(gy);
      accumulate(y.node(), gy);
    }
  }

  // Runs every function node reachable from the seeded outputs.
  void run() {
    BackpropModeScope mode(double_backprop_);
    while (!queue_.empty()) {
      std::shared_ptr<FunctionNode> f = queue_.top().node;
      queue_.pop();
      process(*f);
      if (release_) f->unchain();
    }
  }

  // The gradient accumulated for a node that no function consumed (a leaf,
  // or a node whose creator was outside the pass).
  Variable take(const std::shared_ptr<VariableNode>& node) {
    auto it = grads_.find(node.get());
    if (it == grads_.end()) return Variable();
    Variable g = std::move(it->second.grad);
    grads_.erase(it);
    return g;
  }

  // Leaves keep the gradients that reached them: added to their grad.
  // With a loss scale they also record it, for the optimizer to undo.
  void accumulate_into_leaves(std::optional<double> loss_scale = std::nullopt) {
    for (auto& [raw, entry] : grads_) {
      Variable v = entry.node->variable();
      if (!v.defined() || !entry.grad.defined() || !v.requires_grad()) continue;
      std::lock_guard<std::mutex> lock(v.body_->grad_mutex);
      Variable& g = v.body_->grad;
      g = g.defined() ? add(g, entry.grad) : entry.grad;
      if (loss_scale) v.body_->loss_scale = loss_scale;
    }
  }

  // Nodes whose gradients grad() returns: kept when their creator runs.
  void watch(const std::shared_ptr<VariableNode>& node) { watched_.insert(node.get()); }
  Variable watched_grad(const VariableNode* node) const {
    auto it = watched_grads_.find(node);
    return it == watched_grads_.end() ? Variable() : it->second;
  }

 private:
  struct Entry {
    std::shared_ptr<VariableNode> node;
    Variable grad;
  };
  struct Queued {
    int64_t rank;
    uint64_t order;  // ties: the node queued first runs first
    std::shared_ptr<FunctionNode> node;
    bool operator<(const Queued& o) const { return rank != o.rank ? rank < o.rank : order > o.order; }
  };

  void accumulate(const std::shared_ptr<VariableNode>& node, const Variable& g) {
    auto [it, inserted] = grads_.try_emplace(node.get(), Entry{node, g});
    if (!inserted) it->second.grad = it->second.grad.defined() ? add(it->second.grad, g) : g;
    const std::shared_ptr<FunctionNode>& c = node->creator();
    if (c && queued_.insert(c.get()).second) queue_.push({c->rank(), next_order_++, c});
  }

  void process(FunctionNode& f) {
    const std::vector<std::shared_ptr<VariableNode>> outs = f.outputs();
    std::vector<Variable> gys(outs.size());
    bool any = false;
    for (size_t i = 0; i < outs.size(); ++i) {
      if (!outs[i]) continue;
      Variable gy = take(outs[i]);
      if (!gy.defined()) continue;
      any = true;
      if (watched_.count(outs[i].get())) watched_grads_[outs[i].get()] = gy;
      if (retain_grad_) {
        Variable y = outs[i]->variable();
        if (y.defined()) y.set_grad_var(gy);
      }
      gys[i] = std::move(gy);
    }
    if (!any) return;
    std::vector<size_t> targets;
    for (size_t i = 0; i < f.inputs_.size(); ++i)
      if (f.inputs_[i]->requires_grad()) targets.push_back(i);
    if (targets.empty()) return;
    f.check_retained_unmodified();
    const bool hooked = !active_function_hooks().empty();
    if (hooked) detail::run_backward_hooks(true, f, gys);
    std::vector<Variable> gxs = f.backward(targets, gys);
    if (hooked) detail::run_backward_hooks(false, f, gys);
    if (gxs.size() != targets.size())
      throw RuntimeError("FunctionNode '" + f.label() + "': backward returned " + std::to_string(gxs.size()) +
                         " gradients for " + std::to_string(targets.size()) + " target inputs");
    for (size_t k = 0; k < targets.size(); ++k) {
      Variable& gx = gxs[k];
      if (!gx.defined()) continue;
      const size_t i = targets[k];
      if (gx.shape() != f.input_shape(i))
        throw RuntimeError("FunctionNode '" + f.label() + "': backward returned a gradient of shape " +
                           gx.shape().to_string() + " for input " + std::to_string(i) + " of shape " +
                           f.input_shape(i).to_string());
      // Mixed-dtype functions compute in the promoted dtype; each input
      // gets its gradient in its own dtype.
      if (gx.dtype() != f.input_dtype(i)) gx = cast(gx, f.input_dtype(i));
      accumulate(f.inputs_[i], gx);
    }
  }

  bool retain_grad_, double_backprop_, release_;
  std::unordered_map<const VariableNode*, Entry> grads_;
  std::priority_queue<Queued> queue_;
  std::unordered_set<const FunctionNode*> queued_;
  uint64_t next_order_ = 0;
  std::unordered_set<const VariableNode*> watched_;
  std::unordered_map<const VariableNode*, Variable> watched_grads_;
};

void backward(const std::vector<Variable>& outputs, const std::vector<Variable>& grad_outputs, bool retain_grad,
              bool enable_double_backprop, bool release_graph, std::optional<double> loss_scale) {
  if (loss_scale && !(*loss_scale > 0))
    throw ValueError("backward: loss_scale must be a positive number. Actual: " + std::to_string(*loss_scale));
  BackwardPass pass(retain_grad, enable_double_backprop, release_graph);
  pass.seed(outputs, grad_outputs, /*set_output_grad=*/true, loss_scale);
  // The outputs' own gradients are set above; they are not leaves' grads.
  std::vector<Variable> roots;
  for (const Variable& y : outputs)
    if (!y.creator()) roots.push_back(y);
  pass.run();
  for (const Variable& y : roots) pass.take(y.node());  // a root output's grad is its seed, already set
  pass.accumulate_into_leaves(loss_scale);
}

std::vector<Variable> grad(const std::vector<Variable>& outputs, const std::vector<Variable>& inputs,
                           const std::vector<Variable>& grad_outputs, bool retain_grad, bool enable_double_backprop) {
  BackwardPass pass(retain_grad, enable_double_backprop, /*release_graph=*/false);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) throw ValueError("grad: input " + std::to_string(i) + " is undefined");
    pass.watch(inputs[i].node());
  }
  pass.seed(outputs, grad_outputs, /*set_output_grad=*/false);
  pass.run();
  std::vector<Variable> result;
  result.reserve(inputs.size());
  for (const Variable& x : inputs) {
    // A leaf input's gradient is still in the table; an intermediate one's
    // was recorded when its creator ran.
    Variable g = pass.take(x.node());
    result.push_back(g.defined() ? g : pass.watched_grad(x.node().get()));
  }
  return result;
}

}  // namespace autograd
}  // namespace kumo
