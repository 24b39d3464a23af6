#include "autograd/functions/normalization.h"

#include <algorithm>
#include <memory>
#include <string>

#include "autograd/functions/argument_checks.h"
#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/indexing.h"
#include "autograd/functions/math.h"
#include "autograd/mode.h"
#include "core/errors.h"
#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {
namespace {

// The reduced axes of a batch normalization (Chainer's rule when none are
// given: axis 0 and every axis after gamma's), normalized and sorted.
std::vector<int64_t> batch_axes(const std::string& who, int ndim, int gamma_ndim,
                                const std::optional<std::vector<int64_t>>& axis) {
  std::vector<int64_t> axes;
  if (axis) {
    for (int64_t a : *axis) axes.push_back(normalize_axis(a, ndim));
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
      throw ValueError(who + ": repeated axis in " + std::to_string(axes.size()) + " axes");
  } else {
    if (ndim < gamma_ndim + 1)
      throw ValueError(who + ": x must have at least " + std::to_string(gamma_ndim + 1) + " dimensions, got " +
                       std::to_string(ndim));
    axes.push_back(0);
    for (int a = gamma_ndim + 1; a < ndim; ++a) axes.push_back(a);
  }
  return axes;
}

// The shape of x with the reduced axes set to 1 (how gamma broadcasts), after
// checking that gamma's shape is x's over the kept axes.
Shape kept_shape(const std::string& who, const Shape& x, const std::vector<int64_t>& axes, const Shape& param,
                 const std::string& name) {
  Shape keep = x, expected;
  for (int64_t a : axes) keep[a] = 1;
  for (size_t i = 0; i < x.size(); ++i)
    if (!std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(i))) expected.push_back(x[i]);
  if (param != expected)
    throw ValueError(who + ": " + name + " must have shape " + expected.to_string() + ", got " + param.to_string());
  return keep;
}

// r = decay * r + (1 - decay) * value, written into r (Chainer updates the
// running statistics in place).
void update_running(const std::string& who, const std::string& name, const Array& running, const Array& value,
                    double decay) {
  if (running.shape() != value.shape())
    throw ValueError(who + ": " + name + " must have shape " + value.shape().to_string() + ", got " +
                     running.shape().to_string());
  Array updated = kumo::add(kumo::multiply(running, Scalar(decay)), kumo::multiply(value, Scalar(1.0 - decay)));
  copyto(running, updated, Casting::kUnsafe);
}

// Batch normalization as one node: the forward computes the statistics once
// (a mean and a variance reduction) and three elementwise passes, and
// keeps only x and gamma (plus the small per-channel mean and 1/std).
// The backward is the closed form
//   gx = gamma / std * (gy - mean(gy) - xhat * mean(gy * xhat)),
//   ggamma = sum(gy * xhat), gbeta = sum(gy)
// written with differentiable functions. Under double backprop the
// statistics are recomputed from x as Variables, so the result is
// differentiable in x too; otherwise the stored ones are used as constants.
class BatchNormalization : public FunctionNode {
 public:
  BatchNormalization(std::vector<int64_t> axes, Shape keep, double eps)
      : axes_(std::move(axes)), keep_(std::move(keep)), eps_(eps) {}
  std::string label() const override { return "BatchNormalization"; }

  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0, 1});
    const Array& x = in[0];
    mean_ = kumo::mean(x, Axes(axes_), ReduceOptions().keepdims(true));
    var_ = kumo::var(x, Axes(axes_), VarOptions().keepdims(true).mean(mean_));
    inv_std_ = kumo::divide(Scalar(1.0), kumo::sqrt(kumo::add(var_, Scalar(eps_))));
    Array scale = kumo::multiply(in[1].reshape(keep_), inv_std_);
    Array y = kumo::add(kumo::multiply(kumo::subtract(x, mean_), scale), in[2].reshape(keep_));
    return {y};
  }

  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gys) override {
    std::vector<Variable> retained = get_retained_inputs();
    const Variable& x = retained[0];
    const Variable& gamma = retained[1];
    const Variable& gy = gys[0];
    const Axes axes(axes_);
    Variable mu, inv_std;
    if (is_backprop_enabled()) {
      mu = mean(x, axes, true);
      inv_std = rsqrt(mean(square(x - mu), axes, true) + eps_);
    } else {
      mu = Variable(mean_, false);
      inv_std = Variable(inv_std_, false);
    }
    Variable xhat = (x - mu) * inv_std;
    Variable gbeta_k = sum(gy, axes, true);
    Variable ggamma_k = sum(gy * xhat, axes, true);
    std::vector<Variable> out;
    for (size_t i : targets) {
      if (i == 0) {
        const double m =
            std::max(static_cast<double>(x.size()) / static_cast<double>(std::max<int64_t>(gamma.size(), 1)), 1.0);
        out.push_back(reshape(gamma, keep_) * inv_std * (gy - gbeta_k / m - xhat * (ggamma_k / m)));
      } else if (i == 1) {
        out.push_back(reshape(ggamma_k, gamma.shape()));
      } else {
        out.push_back(reshape(gbeta_k, gamma.shape()));
      }
    }
    return out;
  }

  const Array& batch_mean() const { return mean_; }
  const Array& batch_var() const { return var_; }

 private:
  std::vector<int64_t> axes_;
  Shape keep_;
  double eps_;
  Array mean_, var_, inv_std_;
};

// (x - mean) / sqrt(var + eps) over `axes` as one node (layer and group
// normalization put their affine part after it): the statistics are
// computed once and only x is retained. The backward is the closed form
//   gx = (gy - mean(gy) - xhat * mean(gy * xhat)) / std
// with differentiable functions; under double backprop the statistics are
// recomputed from x as Variables so that it is differentiable in x too.
class Standardize : public FunctionNode {
 public:
  Standardize(std::vector<int64_t> axes, double eps) : axes_(std::move(axes)), eps_(eps) {}
  std::string label() const override { return "Standardize"; }

  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0});
    const Array& x = in[0];
    mean_ = kumo::mean(x, Axes(axes_), ReduceOptions().keepdims(true));
    Array var = kumo::var(x, Axes(axes_), VarOptions().keepdims(true).mean(mean_));
    inv_std_ = kumo::divide(Scalar(1.0), kumo::sqrt(kumo::add(var, Scalar(eps_))));
    return {kumo::multiply(kumo::subtract(x, mean_), inv_std_)};
  }

  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gys) override {
    const Variable x = get_retained_inputs()[0];
    const Variable& gy = gys[0];
    const Axes axes(axes_);
    Variable mu, inv_std;
    if (is_backprop_enabled()) {
      mu = mean(x, axes, true);
      inv_std = rsqrt(mean(square(x - mu), axes, true) + eps_);
    } else {
      mu = Variable(mean_, false);
      inv_std = Variable(inv_std_, false);
    }
    Variable xhat = (x - mu) * inv_std;
    return {(gy - mean(gy, axes, true) - xhat * mean(gy * xhat, axes, true)) * inv_std};
  }

 private:
  std::vector<int64_t> axes_;
  double eps_;
  Array mean_, inv_std_;
};

Variable standardize(const Variable& x, std::vector<int64_t> axes, double eps) {
  return apply(std::make_shared<Standardize>(std::move(axes), eps), {x})[0];
}

}  // namespace

Variable batch_normalization(const Variable& x, const Variable& gamma, const Variable& beta, double eps,
                             const Array& running_mean, const Array& running_var, double decay,
                             const std::optional<std::vector<int64_t>>& axis) {
  const std::string who = "batch_normalization";
  require_floating(x, who, "x");
  require_floating(gamma, who, "gamma");
  require_floating(beta, who, "beta");
  if (eps <= 0) throw ValueError(who + ": eps must be positive");
  const std::vector<int64_t> axes = batch_axes(who, x.ndim(), gamma.ndim(), axis);
  const Shape keep = kept_shape(who, x.shape(), axes, gamma.shape(), "gamma");
  kept_shape(who, x.shape(), axes, beta.shape(), "beta");
  auto node = std::make_shared<BatchNormalization>(axes, keep, eps);
  Variable y = apply(node, {x, gamma, beta})[0];
  if (running_mean.defined() || running_var.defined()) {
    const int64_t m = gamma.size() > 0 ? x.size() / gamma.size() : 0;
    // The running variance is the unbiased estimate: m / (m - 1) times the batch's.
    const double adjust = static_cast<double>(m) / std::max(static_cast<double>(m) - 1.0, 1.0);
    if (running_mean.defined())
      update_running(who, "running_mean", running_mean, node->batch_mean().reshape(gamma.shape()), decay);
    if (running_var.defined())
      update_running(who, "running_var", running_var,
                     kumo::multiply(node->batch_var().reshape(gamma.shape()), Scalar(adjust)), decay);
  }
  return y;
}

Variable fixed_batch_normalization(const Variable& x, const Variable& gamma, const Variable& beta,
                                   const Variable& mean_, const Variable& var, double eps,
                                   const std::optional<std::vector<int64_t>>& axis) {
  const std::string who = "fixed_batch_normalization";
  for (const auto& [v, name] : {std::pair<const Variable&, const char*>{x, "x"},
                                {gamma, "gamma"},
                                {beta, "beta"},
                                {mean_, "mean"},
                                {var, "var"}})
    require_floating(v, who, name);
  if (eps <= 0) throw ValueError(who + ": eps must be positive");
  const std::vector<int64_t> axes = batch_axes(who, x.ndim(), gamma.ndim(), axis);
  const Shape keep = kept_shape(who, x.shape(), axes, gamma.shape(), "gamma");
  kept_shape(who, x.shape(), axes, beta.shape(), "beta");
  kept_shape(who, x.shape(), axes, mean_.shape(), "mean");
  kept_shape(who, x.shape(), axes, var.shape(), "var");
  Variable scale = reshape(gamma * rsqrt(var + eps), keep);
  return (x - reshape(mean_, keep)) * scale + reshape(beta, keep);
}

Variable layer_normalization(const Variable& x, const Variable& gamma, const Variable& beta, double eps) {
  const std::string who = "layer_normalization";
  require_floating(x, who, "x");
  require_floating(gamma, who, "gamma");
  require_floating(beta, who, "beta");
  if (x.ndim() < 2) throw ValueError(who + ": x must have at least 2 dimensions, got " + x.shape().to_string());
  Shape unit(std::vector<int64_t>(x.shape().begin() + 1, x.shape().end()));
  if (gamma.shape() != unit || beta.shape() != unit)
    throw ValueError(who + ": gamma and beta must have shape " + unit.to_string() + ", got " +
                     gamma.shape().to_string() + " and " + beta.shape().to_string());
  std::vector<int64_t> axes;
  for (int a = 1; a < x.ndim(); ++a) axes.push_back(a);
  return standardize(x, axes, eps) * gamma + beta;
}

Variable group_normalization(const Variable& x, int64_t groups, const Variable& gamma, const Variable& beta,
                             double eps) {
  const std::string who = "group_normalization";
  require_floating(x, who, "x");
  require_floating(gamma, who, "gamma");
  require_floating(beta, who, "beta");
  if (x.ndim() <= 2)
    throw ValueError(who + ": input dimension must be greater than 2, including the batch dimension, got " +
                     x.shape().to_string());
  const int64_t channels = x.shape()[1];
  if (groups <= 0 || channels % groups != 0)
    throw ValueError(who + ": groups (" + std::to_string(groups) + ") must be a positive divisor of the " +
                     std::to_string(channels) + " channels");
  if (gamma.shape() != Shape{channels} || beta.shape() != Shape{channels})
    throw ValueError(who + ": gamma and beta must have shape (" + std::to_string(channels) + ",), got " +
                     gamma.shape().to_string() + " and " + beta.shape().to_string());
  const int64_t n = x.shape()[0];
  const int64_t per_group = n * groups > 0 ? x.size() / (n * groups) : 0;
  Variable grouped = reshape(x, Shape{n, groups, per_group});
  Variable normalized = reshape(standardize(grouped, {2}, eps), x.shape());
  Shape param(std::vector<int64_t>(x.ndim(), 1));
  param[1] = channels;
  return normalized * reshape(gamma, param) + reshape(beta, param);
}

Variable local_response_normalization(const Variable& x, int64_t n, double k, double alpha, double beta) {
  const std::string who = "local_response_normalization";
  require_floating(x, who, "x");
  if (x.ndim() < 2) throw ValueError(who + ": x must have at least 2 dimensions, got " + x.shape().to_string());
  if (n <= 0) throw ValueError(who + ": n must be positive");
  const int64_t half = n / 2, channels = x.shape()[1];
  Variable x2 = square(x);
  // Zero channels on both sides, then the window sum as 2 * half + 1 shifted slices.
  Shape pad_shape = x.shape();
  pad_shape[1] = half;
  Variable pad(zeros(pad_shape, x.dtype(), Order::kC, x.device()), false);
  Variable padded = half > 0 ? concat({pad, x2, pad}, 1) : x2;
  Variable window;
  for (int64_t i = 0; i <= 2 * half; ++i) {
    std::vector<Index> index{kumo::all(), kumo::slice(i, i + channels)};
    Variable part = get_item(padded, index);
    window = window.defined() ? window + part : part;
  }
  return x * pow(window * alpha + k, -beta);
}

Variable normalize(const Variable& x, double eps, int64_t axis) {
  require_floating(x, "normalize", "x");
  return x / (sqrt(sum(square(x), Axes(axis), true)) + eps);
}

}  // namespace autograd
}  // namespace kumo
