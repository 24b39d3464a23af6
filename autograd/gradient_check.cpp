#include "autograd/gradient_check.h"

#include <cmath>
#include <sstream>
#include <string>
#include <utility>

#include "autograd/backward.h"
#include "autograd/mode.h"
#include "random/generator.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {
namespace {

double scalar_of(const Array& a) { return a.astype(Dtype::kFloat64).item<double>(); }

// sum(a * b) in float64.
double dot(const Array& a, const Array& b) {
  return scalar_of(kumo::sum(kumo::multiply(a.astype(Dtype::kFloat64), b.astype(Dtype::kFloat64))));
}

std::string shape_text(const Shape& shape) {
  std::string text = "(";
  const int n = static_cast<int>(shape.size());
  for (int i = 0; i < n; ++i) text += std::to_string(shape[i]) + (n == 1 || i + 1 < n ? "," : "");
  return text + ")";
}

bool differentiable_dtype(Dtype dtype) { return is_floating(dtype); }

// The gradients fed to the outputs: those given, else random normal ones.
std::vector<Array> output_gradients(const std::vector<Variable>& outputs, const std::vector<Array>& given,
                                    random::Generator& rng, const char* call) {
  if (!given.empty() && given.size() != outputs.size()) {
    std::ostringstream msg;
    msg << call << ": " << given.size() << " output gradients given for " << outputs.size() << " outputs";
    throw ValueError(msg.str());
  }
  std::vector<Array> grads(outputs.size());
  for (size_t j = 0; j < outputs.size(); ++j) {
    const Variable& y = outputs[j];
    if (!y.defined() || !differentiable_dtype(y.dtype())) continue;
    if (!given.empty()) {
      if (given[j].defined() && given[j].shape() != y.shape()) {
        std::ostringstream msg;
        msg << call << ": the gradient of output " << j << " has shape " << shape_text(given[j].shape())
            << ", the output " << shape_text(y.shape());
        throw ValueError(msg.str());
      }
      grads[j] = given[j];
    } else {
      grads[j] = rng.standard_normal(y.shape()).to_device(y.device());
    }
  }
  return grads;
}

// sum over outputs of <y_j, gy_j>, the scalar whose derivative is checked.
double projected(const std::vector<Variable>& outputs, const std::vector<Array>& grads) {
  double total = 0;
  for (size_t j = 0; j < outputs.size() && j < grads.size(); ++j) {
    if (grads[j].defined() && outputs[j].defined()) total += dot(outputs[j].array(), grads[j]);
  }
  return total;
}

}  // namespace

void check_backward(const VariadicFunction& func, const std::vector<Array>& inputs_in,
                    const std::vector<Array>& grad_outputs, const GradientCheckOptions& options) {
  const char* call = "check_backward";
  if (!options.no_grads.empty() && options.no_grads.size() != inputs_in.size()) {
    throw ValueError("check_backward: no_grads has " + std::to_string(options.no_grads.size()) + " flags for " +
                     std::to_string(inputs_in.size()) + " inputs");
  }
  if (!(options.eps > 0)) throw ValueError("check_backward: eps must be positive");
  std::vector<Array> inputs;
  for (const Array& a : inputs_in)
    inputs.push_back(options.dtype && is_inexact(a.dtype()) ? a.astype(*options.dtype) : a);
  std::vector<Array> param_data;
  for (const Variable& p : options.params) {
    Array d = options.dtype ? p.array().astype(*options.dtype) : p.array();
    p.set_array(d);  // same shape; the dtype may change only with options.dtype
    param_data.push_back(d);
  }
  std::vector<bool> checked(inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    checked[k] = options.no_grads.empty() ? differentiable_dtype(inputs[k].dtype()) : !options.no_grads[k];
    if (checked[k] && !differentiable_dtype(inputs[k].dtype())) {
      throw TypeError(std::string("check_backward: input ") + std::to_string(k) + " of dtype " +
                      dtype_name(inputs[k].dtype()) + " cannot be differentiated");
    }
  }

  // Analytic: the gradients backward computes for <f(x), gy>.
  std::vector<Variable> xs;
  std::vector<Variable> targets;
  for (size_t k = 0; k < inputs.size(); ++k) {
    xs.emplace_back(inputs[k], checked[k]);
    if (checked[k]) targets.push_back(xs.back());
  }
  for (const Variable& p : options.params) targets.push_back(p);
  std::vector<Variable> ys = func(xs);
  random::Generator rng(options.seed);
  std::vector<Array> gys = output_gradients(ys, grad_outputs, rng, call);
  std::vector<Variable> ys_used, gys_used;
  for (size_t j = 0; j < ys.size(); ++j) {
    if (gys[j].defined() && ys[j].defined()) {
      ys_used.push_back(ys[j]);
      gys_used.emplace_back(gys[j].astype(ys[j].dtype()), false);
    }
  }
  std::vector<Variable> gxs;
  if (!ys_used.empty() && !targets.empty()) gxs = grad(ys_used, targets, gys_used);
  ys.clear();
  ys_used.clear();

  // A random unit direction over every checked element.
  std::vector<Array> directions;
  double norm2 = 0;
  for (const Variable& t : targets) {
    directions.push_back(rng.standard_normal(t.shape()).to_device(t.device()));
    norm2 += dot(directions.back(), directions.back());
  }
  const double scale = norm2 > 0 ? 1.0 / std::sqrt(norm2) : 0.0;
  for (Array& d : directions) d = kumo::multiply(d, Scalar(scale));

  double analytic = 0;
  for (size_t t = 0; t < targets.size(); ++t) {
    if (t < gxs.size() && gxs[t].defined()) analytic += dot(gxs[t].array(), directions[t]);
  }

  // Numerical: the central difference of <f(x + s d), gy> along d.
  auto evaluate = [&](double step) {
    NoBackpropMode off;
    std::vector<Variable> shifted;
    size_t t = 0;
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (!checked[k]) {
        shifted.emplace_back(inputs[k], false);
        continue;
      }
      Array moved = kumo::add(inputs[k].astype(Dtype::kFloat64), kumo::multiply(directions[t++], Scalar(step)));
      // requires_grad as in the analytic pass: func may differentiate
      // internally (check_double_backward's first-order function does).
      shifted.emplace_back(moved.astype(inputs[k].dtype()), true);
    }
    for (size_t p = 0; p < options.params.size(); ++p, ++t) {
      Array moved = kumo::add(param_data[p].astype(Dtype::kFloat64), kumo::multiply(directions[t], Scalar(step)));
      options.params[p].set_array(moved.astype(param_data[p].dtype()));
    }
    double value = projected(func(shifted), gys);
    for (size_t p = 0; p < options.params.size(); ++p) options.params[p].set_array(param_data[p]);
    return value;
  };
  const double numerical = (evaluate(options.eps) - evaluate(-options.eps)) / (2 * options.eps);

  const double error = std::abs(numerical - analytic);
  if (!(error <= options.atol + options.rtol * std::abs(numerical))) {
    std::ostringstream msg;
    msg.precision(10);
    msg << call << ": the directional derivative from backward is " << analytic
        << ", the numerical one (central difference, eps=" << options.eps << ") is " << numerical
        << "; |difference| = " << error
        << " > atol + rtol * |numerical| = " << options.atol + options.rtol * std::abs(numerical)
        << " (inputs: " << inputs.size() << ", params: " << options.params.size() << ")";
    throw GradientCheckError(msg.str());
  }
}

void check_double_backward(const VariadicFunction& func, const std::vector<Array>& inputs,
                           const std::vector<Array>& grad_outputs, const std::vector<Array>& grad_grad_inputs,
                           const GradientCheckOptions& options) {
  // The outputs' shapes decide the shapes of their gradients.
  std::vector<Array> gys = grad_outputs;
  if (gys.empty()) {
    NoBackpropMode off;
    std::vector<Variable> xs;
    for (const Array& a : inputs)
      xs.emplace_back(options.dtype && is_inexact(a.dtype()) ? a.astype(*options.dtype) : a, false);
    random::Generator rng(options.seed + 1);
    std::vector<Variable> ys = func(xs);
    gys = output_gradients(ys, {}, rng, "check_double_backward");
  }
  const size_t n_inputs = inputs.size();
  std::vector<bool> checked(n_inputs);
  for (size_t k = 0; k < n_inputs; ++k) {
    checked[k] = options.no_grads.empty() ? differentiable_dtype(inputs[k].dtype()) : !options.no_grads[k];
  }
  std::vector<Array> first_inputs = inputs;
  std::vector<size_t> gy_slot;  // which output each gradient input belongs to
  for (size_t j = 0; j < gys.size(); ++j) {
    if (!gys[j].defined()) continue;
    gy_slot.push_back(j);
    first_inputs.push_back(gys[j]);
  }
  const size_t n_outputs = gys.size();
  const std::vector<Variable> params = options.params;
  // (x, gy) -> the gradients of the checked inputs and params.
  VariadicFunction first_order = [&, n_inputs, n_outputs](const std::vector<Variable>& args) {
    // The numerical pass calls this inside no_backprop_mode; the gradients
    // need the graph of func.
    ForceBackpropMode on;
    std::vector<Variable> xs(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(n_inputs));
    std::vector<Variable> ys = func(xs);
    if (ys.size() != n_outputs) throw ValueError("check_double_backward: func returned a different number of outputs");
    std::vector<Variable> ys_used, gys_used;
    for (size_t i = 0; i < gy_slot.size(); ++i) {
      ys_used.push_back(ys[gy_slot[i]]);
      gys_used.push_back(args[n_inputs + i]);
    }
    std::vector<Variable> targets;
    for (size_t k = 0; k < n_inputs; ++k) {
      if (checked[k]) targets.push_back(xs[k]);
    }
    for (const Variable& p : params) targets.push_back(p);
    std::vector<Variable> gxs = grad(ys_used, targets, gys_used, false, true);
    for (size_t t = 0; t < gxs.size(); ++t) {
      // A gradient that does not flow is zero; its derivative is zero too.
      if (!gxs[t].defined()) gxs[t] = Variable(zeros_like(targets[t].array()), false);
    }
    return gxs;
  };
  GradientCheckOptions second = options;
  if (!options.no_grads.empty()) {
    for (size_t i = 0; i < gy_slot.size(); ++i) second.no_grads.push_back(false);
  }
  check_backward(first_order, first_inputs, grad_grad_inputs, second);
}

}  // namespace autograd
}  // namespace kumo
