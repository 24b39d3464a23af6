#include "autograd/functions/fused.h"

#include <memory>
#include <mutex>
#include <unordered_map>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/mode.h"
#include "kernels/elementwise.h"
#include "routines/creation.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {
namespace fused {
namespace {

// One key for all the strings a spec is made of ('\x1f' cannot occur in C++ source).
std::string join_key(std::initializer_list<const std::string*> parts) {
  std::string key;
  for (const std::string* p : parts) {
    key += *p;
    key += '\x1f';
  }
  return key;
}

Variable constant(Array a) { return Variable(std::move(a), false); }

// Put before every fused kernel (see fused.h). On the host, GCC may treat
// comparisons as non-trapping, so the selects become blends and the loops
// vectorize (as the exp and log ufuncs do); float32 exp and log are the
// prelude's branch-free vexpf/vlogf there (libm's are calls that stop
// vectorization). The derived functions are exact reformulations:
// sigmoid from exp(-|x|) (no overflow), log1p and expm1 by Goldberg's and
// Kahan's corrections of log(1 + e) and exp(x) - 1.
const char kMathPreamble[] = R"(#if !defined(__CUDACC_RTC__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif
KUMO_FN float kag_exp(float x) { return kumo::vexpf(x); }
KUMO_FN double kag_exp(double x) { return ::exp(x); }
KUMO_FN float kag_log(float x) { return kumo::vlogf(x); }
KUMO_FN double kag_log(double x) { return kumo::vlog(x); }
// -|x| as a select: the prelude's fabs stops vectorization.
template <class T> KUMO_FN T kag_nabs(T x) { return x > (T)0 ? -x : x; }
template <class T> KUMO_FN T kag_sigmoid(T x) {
  const T e = kag_exp(kag_nabs(x));
  const T r = (T)1 / ((T)1 + e);
  return x >= (T)0 ? r : e * r;
}
template <class T> KUMO_FN T kag_log1p(T e) {
  const T u = (T)1 + e;
  const T d = u - (T)1;
  const T r = kag_log(u) * (e / d);
  return d == (T)0 ? e : r;
}
template <class T> KUMO_FN T kag_expm1(T x) {
  const T u = kag_exp(x);
  const T d = u - (T)1;
  T r = d * (x / kag_log(u));
  r = u == (T)1 ? x : r;
  r = d == (T)(-1) ? (T)(-1) : r;
  r = u > (T)1 && u - u != (T)0 ? u : r;
  return x != x ? x : r;
}
)";

class UnaryActivationNode : public FunctionNode {
 public:
  UnaryActivationNode(const UnaryActivation& rule, double a, double b) : rule_(rule), a_(a), b_(b) {}
  std::string label() const override { return rule_.label; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    if (rule_.needs_output)
      retain_outputs({0});
    else
      retain_inputs({0});
    const auto& spec = elementwise(std::string("kumo_ag_") + rule_.label + "_fwd", "T x, T a, T b", "T y",
                                   rule_.forward, rule_.preamble);
    return call(spec, {x[0], scalar(a_, x[0]), scalar(b_, x[0])});
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    if (!gy[0].defined()) return {Variable()};
    Variable v = rule_.needs_output ? get_retained_outputs()[0] : get_retained_inputs()[0];
    if (!is_backprop_enabled() && applies({&v.array(), &gy[0].array()})) {
      const auto& spec = elementwise(std::string("kumo_ag_") + rule_.label + "_grad", "T v, T gy, T a, T b", "T gx",
                                     rule_.gradient, rule_.preamble);
      const Array& va = v.array();
      return {constant(call(spec, {va, gy[0].array(), scalar(a_, va), scalar(b_, va)})[0])};
    }
    return {rule_.composed(v, gy[0], a_, b_)};
  }

 private:
  const UnaryActivation& rule_;
  double a_, b_;
};

class ParameterActivationNode : public FunctionNode {
 public:
  ParameterActivationNode(const ParameterActivation& rule, Shape p_shape) : rule_(rule), p_shape_(std::move(p_shape)) {}
  std::string label() const override { return rule_.label; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0, 1});
    const auto& spec =
        elementwise(std::string("kumo_ag_") + rule_.label + "_fwd", "T x, T p", "T y", rule_.forward, rule_.preamble);
    return call(spec, {in[0], kumo::reshape(in[1], p_shape_)});
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    if (!gy[0].defined()) return std::vector<Variable>(targets.size());
    std::vector<Variable> in = get_retained_inputs();
    const Variable& x = in[0];
    const Variable& p = in[1];
    std::vector<Variable> g(2);
    if (!is_backprop_enabled() && applies({&x.array(), &gy[0].array()}) && applies({&x.array(), &p.array()}, false)) {
      // reshapes are views here: no kernel, no node
      const auto& spec = elementwise(std::string("kumo_ag_") + rule_.label + "_grad", "T x, T p, T gy", "T gx, T gp",
                                     rule_.gradient, rule_.preamble);
      std::vector<Array> r = call(spec, {x.array(), kumo::reshape(p.array(), p_shape_), gy[0].array()}, 2);
      g[0] = constant(std::move(r[0]));
      g[1] = constant(kumo::reshape(sum_to_shape(r[1], p_shape_), p.shape()));
    } else {
      g = rule_.composed(x, reshape(p, p_shape_), gy[0]);
      g[1] = reshape(g[1], p.shape());
    }
    std::vector<Variable> out;
    for (size_t t : targets) out.push_back(g.at(t));
    return out;
  }

 private:
  const ParameterActivation& rule_;
  Shape p_shape_;  // p reshaped to broadcast against x
};

}  // namespace

bool fused_dtype(Dtype dtype) { return dtype == Dtype::kFloat32 || dtype == Dtype::kFloat64; }

bool applies(std::initializer_list<const Array*> arrays, bool same_shape) {
  const Array* first = nullptr;
  for (const Array* a : arrays) {
    if (!a->defined() || !fused_dtype(a->dtype())) return false;
    if (first && (a->dtype() != first->dtype() || (same_shape && a->shape() != first->shape()))) return false;
    if (!first) first = a;
  }
  return true;
}

const kernels::ElementwiseSpec& elementwise(const std::string& name, const std::string& in_params,
                                            const std::string& out_params, const std::string& operation,
                                            const std::string& preamble) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::shared_ptr<const kernels::ElementwiseSpec>> specs;
  std::string key = join_key({&name, &in_params, &out_params, &operation, &preamble});
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = specs[key];
  if (!slot) slot = kernels::ElementwiseSpec::create(name, in_params, out_params, operation, kMathPreamble + preamble);
  return *slot;
}

const kernels::ReductionSpec& reduction(const std::string& name, const std::string& in_params,
                                        const std::string& out_params, const std::string& map_expr,
                                        const std::string& reduce_expr, const std::string& post_map_expr,
                                        const std::string& identity, const std::string& reduce_type,
                                        const std::string& preamble) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::shared_ptr<const kernels::ReductionSpec>> specs;
  std::string key = join_key(
      {&name, &in_params, &out_params, &map_expr, &reduce_expr, &post_map_expr, &identity, &reduce_type, &preamble});
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = specs[key];
  if (!slot)
    slot = kernels::ReductionSpec::create(name, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                                          reduce_type, kMathPreamble + preamble);
  return *slot;
}

Array scalar(double v, const Array& like) {
  return kumo::full(Shape{}, Scalar(v), like.dtype(), Order::kC, like.device());
}

std::vector<Array> call(const kernels::ElementwiseSpec& spec, const std::vector<Array>& inputs, size_t n_outputs) {
  return kernels::call_elementwise(spec, inputs, std::vector<Array>(n_outputs));
}

Array sum_to_shape(const Array& a, const Shape& shape) {
  std::vector<int64_t> axes;
  for (int i = 0; i < shape.size(); ++i)
    if (shape[i] == 1 && a.shape()[i] != 1) axes.push_back(i);
  if (axes.empty()) return a;
  return kumo::sum(a, Axes(axes), ReduceOptions().keepdims(true));
}

Variable apply_unary(const UnaryActivation& rule, const Variable& x, double a, double b) {
  return apply(std::make_shared<UnaryActivationNode>(rule, a, b), {x})[0];
}

Variable apply_parameter(const ParameterActivation& rule, const Variable& x, const Variable& p,
                         const Shape& broadcast_shape) {
  return apply(std::make_shared<ParameterActivationNode>(rule, broadcast_shape), {x, p})[0];
}

}  // namespace fused
}  // namespace autograd
}  // namespace kumo
