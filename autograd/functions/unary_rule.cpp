#include "autograd/functions/unary_rule.h"

#include <memory>
#include <string>
#include <vector>

#include "autograd/function_node.h"
#include "autograd/functions/fused.h"
#include "autograd/mode.h"

namespace kumo {
namespace autograd {
namespace {

bool fusable(const Array& v, const Array& gy) {
  return v.dtype() == gy.dtype() && fused::fused_dtype(v.dtype()) && v.shape() == gy.shape();
}

Array fused_gradient(const UnaryRule& rule, const Array& v, const Array& gy) {
  const auto& spec = fused::elementwise(std::string("kumo_ag_") + rule.label + "_grad", "T v, T gy", "T gx",
                                        std::string("gx = ") + rule.fused);
  return fused::call(spec, {v, gy})[0];
}

class UnaryFunction : public FunctionNode {
 public:
  explicit UnaryFunction(const UnaryRule& rule) : rule_(rule) {}
  std::string label() const override { return rule_.label; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    if (rule_.needs == UnaryRule::kInput)
      retain_inputs({0});
    else
      retain_outputs({0});
    return {rule_.forward(x[0])};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable v = rule_.needs == UnaryRule::kInput ? get_retained_inputs()[0] : get_retained_outputs()[0];
    if (rule_.fused && !is_backprop_enabled() && fusable(v.array(), gy[0].array()))
      return {Variable(fused_gradient(rule_, v.array(), gy[0].array()), false)};
    return {rule_.gradient(v, gy[0])};
  }

 private:
  const UnaryRule& rule_;
};

}  // namespace

Variable apply_unary_rule(const UnaryRule& rule, const Variable& x) {
  return apply(std::make_shared<UnaryFunction>(rule), {x})[0];
}

}  // namespace autograd
}  // namespace kumo
