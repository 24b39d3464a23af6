#include "autograd/functions/loss.h"

#include <cmath>

#include "autograd/functions/argument_checks.h"
#include "autograd/functions/activation.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/indexing.h"
#include "autograd/functions/linalg.h"
#include "autograd/functions/math.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {

Variable mean_squared_error(const Variable& a, const Variable& b) {
  if (a.shape() != b.shape())
    throw ValueError("mean_squared_error: shapes " + a.shape().to_string() + " and " + b.shape().to_string() +
                     " differ");
  return mean(square(a - b));
}

Variable softmax_cross_entropy(const Variable& x, const Array& t, bool normalize, const std::string& reduce,
                               int64_t ignore_label) {
  SoftmaxCrossEntropyOptions options;
  options.normalize = normalize;
  options.reduce = reduce;
  options.ignore_label = ignore_label;
  return softmax_cross_entropy(x, t, options);
}

namespace {

// Soft targets: t is a distribution over axis 1 for every position.
Variable soft_target_cross_entropy(const Variable& x, const Array& t, const SoftmaxCrossEntropyOptions& o) {
  if (t.shape() != x.shape())
    throw ValueError("softmax_cross_entropy: soft targets must have the shape of x " + x.shape().to_string() +
                     ", got " + t.shape().to_string());
  Variable log_y = log_softmax(x, 1);
  Variable target(t, false);
  Variable per_position;
  if (o.soft_target_loss == "kl-divergence") {
    // Chainer's eps keeps log(t) finite where a target probability is 0.
    Variable log_t(kumo::log(kumo::add(t, Scalar(1e-7))), false);
    per_position = sum(target * (log_t - log_y), Axes(1));
  } else {
    per_position = neg(sum(target * log_y, Axes(1)));
  }
  if (o.reduce == "no") return per_position;
  const int64_t positions = x.shape()[1] > 0 ? x.size() / x.shape()[1] : 0;
  return sum(per_position) / static_cast<double>(positions);
}

}  // namespace

Variable softmax_cross_entropy(const Variable& x, const Array& t, const SoftmaxCrossEntropyOptions& o) {
  const std::string who = "softmax_cross_entropy";
  if (o.reduce != "mean" && o.reduce != "no")
    throw ValueError(who + ": only 'mean' and 'no' are valid for 'reduce', but '" + o.reduce + "' is given");
  if (o.soft_target_loss != "cross-entropy" && o.soft_target_loss != "kl-divergence")
    throw ValueError(who + ": soft_target_loss must be 'cross-entropy' or 'kl-divergence', got '" + o.soft_target_loss +
                     "'");
  if (!is_floating(x.dtype())) throw TypeError(who + ": x must be of a floating dtype, got " + dtype_name(x.dtype()));
  if (x.ndim() < 2) throw ValueError(who + ": x must be (N, C, ...), got shape " + x.shape().to_string());
  if (is_floating(t.dtype())) return soft_target_cross_entropy(x, t, o);
  if (!is_integer(t.dtype()))
    throw TypeError(who + ": t must be integer labels or floating soft targets, got " + dtype_name(t.dtype()));
  Shape expected = x.shape();
  expected.erase(1);
  if (t.shape() != expected)
    throw ValueError(who + ": t must have shape " + expected.to_string() + " for x of shape " + x.shape().to_string() +
                     ", got " + t.shape().to_string());
  const int64_t classes = x.shape()[1];
  Variable log_y = log_softmax(x, 1);
  if (o.class_weight.defined()) {
    if (o.class_weight.ndim() != 1) throw ValueError(who + ": class_weight.ndim should be 1");
    if (!is_floating(o.class_weight.dtype())) throw ValueError(who + ": the dtype of class_weight should be 'f'");
    if (o.class_weight.shape()[0] != classes)
      throw ValueError(who + ": class_weight must have " + std::to_string(classes) + " elements, got " +
                       std::to_string(o.class_weight.shape()[0]));
    Shape wshape(std::vector<int64_t>(x.ndim(), 1));
    wshape[1] = classes;
    log_y = log_y * Variable(o.class_weight.astype(x.dtype()).reshape(wshape), false);
  }
  // Classes last, positions flattened: one row per label.
  if (x.ndim() > 2) {
    std::vector<int64_t> perm{0};
    for (int a = 2; a < x.ndim(); ++a) perm.push_back(a);
    perm.push_back(1);
    log_y = transpose(log_y, perm);
  }
  log_y = reshape(log_y, Shape{t.size(), classes});
  const Array valid = not_equal(t, Scalar(o.ignore_label));
  const Array safe_t = where(valid, t, Scalar(0)).reshape(Shape{t.size()});
  Variable per_position =
      reshape(neg(select_item(log_y, safe_t)), t.shape()) * Variable(valid.astype(x.dtype()), false);
  if (o.reduce == "no") return per_position;
  Array count = o.normalize
                    ? kumo::maximum(count_nonzero(valid), Scalar(1)).astype(x.dtype())
                    : full(Shape{}, Scalar(std::max<int64_t>(x.shape()[0], 1)), x.dtype(), Order::kC, x.device());
  // float16 sums in float32, as Chainer does.
  if (x.dtype() == Dtype::kFloat16)
    return cast(sum(cast(per_position, Dtype::kFloat32)) / Variable(count.astype(Dtype::kFloat32), false),
                Dtype::kFloat16);
  return sum(per_position) / Variable(count, false);
}

namespace {

void require_labels(const Array& t, const std::string& who) {
  if (!is_integer(t.dtype()))
    throw TypeError(who + ": labels must be of an integer dtype, got " + dtype_name(t.dtype()));
}

void require_same_shape(const Variable& a, const Variable& b, const std::string& who) {
  if (a.shape() != b.shape())
    throw ValueError(who + ": shapes " + a.shape().to_string() + " and " + b.shape().to_string() + " differ");
}

void require_reduce(const std::string& reduce, const std::string& reduced, const std::string& who) {
  if (reduce != reduced && reduce != "no")
    throw ValueError(who + ": only '" + reduced + "' and 'no' are valid for 'reduce', but '" + reduce + "' is given");
}

Variable constant(const Array& a) { return Variable(a, false); }

// The centered columns of a 2-d (N, M) variable.
Variable centered_columns(const Variable& v) { return v - mean(v, Axes(0), true); }

}  // namespace

Variable squared_error(const Variable& x0, const Variable& x1) {
  require_floating(x0, "squared_error", "x0");
  require_floating(x1, "squared_error", "x1");
  require_same_shape(x0, x1, "squared_error");
  return square(x0 - x1);
}

Variable absolute_error(const Variable& x0, const Variable& x1) {
  require_floating(x0, "absolute_error", "x0");
  require_floating(x1, "absolute_error", "x1");
  require_same_shape(x0, x1, "absolute_error");
  return absolute(x0 - x1);
}

Variable mean_absolute_error(const Variable& x0, const Variable& x1) {
  require_floating(x0, "mean_absolute_error", "x0");
  require_floating(x1, "mean_absolute_error", "x1");
  require_same_shape(x0, x1, "mean_absolute_error");
  return mean(absolute(x0 - x1));
}

Variable sigmoid_cross_entropy(const Variable& x, const Array& t, bool normalize, const std::string& reduce) {
  const std::string who = "sigmoid_cross_entropy";
  require_floating(x, who, "x");
  require_labels(t, who);
  require_reduce(reduce, "mean", who);
  if (x.shape() != t.shape())
    throw ValueError(who + ": x and t must have the same shape, got " + x.shape().to_string() + " and " +
                     t.shape().to_string());
  const Array valid = kumo::not_equal(t, Scalar(-1));
  Variable tv = constant(kumo::where(valid, t, Scalar(0)).astype(x.dtype()));
  // -(x t - log(1 + exp(x))) = softplus(x) - x t, stable for every x.
  Variable loss = (softplus(x) - x * tv) * constant(valid.astype(x.dtype()));
  if (reduce == "no") return loss;
  Array count = normalize ? kumo::maximum(count_nonzero(valid), Scalar(1)).astype(x.dtype())
                          : full(Shape{}, Scalar(std::max<int64_t>(x.ndim() > 0 ? x.shape()[0] : 1, 1)), x.dtype(),
                                 Order::kC, x.device());
  return sum(loss) / constant(count);
}

Variable huber_loss(const Variable& x, const Variable& t, double delta, const std::string& reduce) {
  const std::string who = "huber_loss";
  require_floating(x, who, "x");
  require_floating(t, who, "t");
  require_reduce(reduce, "sum_along_second_axis", who);
  require_same_shape(x, t, who);
  if (reduce != "no" && x.ndim() < 2)
    throw ValueError(who + ": x must have at least 2 dimensions to sum along the second axis, got " +
                     x.shape().to_string());
  Variable d = x - t;
  const Array inside = kumo::less_equal(kumo::absolute(d.array()), Scalar(delta));
  Variable loss = where(inside, square(d) * 0.5, (absolute(d) - 0.5 * delta) * delta);
  return reduce == "no" ? loss : sum(loss, Axes(1));
}

Variable hinge(const Variable& x, const Array& t, const std::string& norm, const std::string& reduce) {
  const std::string who = "hinge";
  require_floating(x, who, "x");
  require_labels(t, who);
  if (norm != "L1" && norm != "L2") throw ValueError(who + ": norm must be 'L1' or 'L2', got '" + norm + "'");
  require_reduce(reduce, "mean", who);
  if (x.ndim() != 2 || t.ndim() != 1 || t.shape()[0] != x.shape()[0])
    throw ValueError(who + ": x must be (N, K) and t (N,), got " + x.shape().to_string() + " and " +
                     t.shape().to_string());
  // -1 at each row's label, +1 elsewhere: the margin is 1 + sign * x.
  Array classes = arange(Scalar(x.shape()[1]), Dtype::kInt64, x.device()).reshape(Shape{1, x.shape()[1]});
  Array is_label = kumo::equal(classes, t.reshape(Shape{t.shape()[0], 1}));
  Variable sign = constant(kumo::where(is_label, Scalar(-1.0), Scalar(1.0)).astype(x.dtype()));
  Variable loss = relu(x * sign + 1.0);
  if (norm == "L2") loss = square(loss);
  if (reduce == "no") return loss;
  return sum(loss) / static_cast<double>(std::max<int64_t>(x.shape()[0], 1));
}

Variable contrastive(const Variable& x0, const Variable& x1, const Array& y, double margin, const std::string& reduce) {
  const std::string who = "contrastive";
  require_floating(x0, who, "x0");
  require_floating(x1, who, "x1");
  require_labels(y, who);
  require_reduce(reduce, "mean", who);
  if (margin <= 0) throw ValueError(who + ": margin should be positive value.");
  require_same_shape(x0, x1, who);
  if (x0.ndim() != 2 || y.ndim() != 1 || y.shape()[0] != x0.shape()[0])
    throw ValueError(who + ": x0 and x1 must be (N, K) and y (N,), got " + x0.shape().to_string() + " and " +
                     y.shape().to_string());
  Variable dist_sq = sum(square(x0 - x1), Axes(1));
  // The distance where it is positive; at 0 its gradient would be 0 / 0, so
  // the square root sees 1 there and the result is masked back to 0.
  const Array positive = kumo::greater(dist_sq.array(), Scalar(0));
  Variable ones = constant(ones_like(dist_sq.array()));
  Variable dist = where(positive, sqrt(where(positive, dist_sq, ones)), constant(zeros_like(dist_sq.array())));
  Variable yv = constant(y.astype(x0.dtype()));
  Variable hinge_part = square(relu(margin - dist));
  Variable loss = (yv * dist_sq + (1.0 - yv) * hinge_part) * 0.5;
  if (reduce == "no") return loss;
  return sum(loss) / static_cast<double>(std::max<int64_t>(x0.shape()[0], 1));
}

Variable triplet(const Variable& anchor, const Variable& positive, const Variable& negative, double margin,
                 const std::string& reduce) {
  const std::string who = "triplet";
  require_floating(anchor, who, "anchor");
  require_floating(positive, who, "positive");
  require_floating(negative, who, "negative");
  require_reduce(reduce, "mean", who);
  if (margin <= 0) throw ValueError(who + ": margin should be positive value.");
  require_same_shape(anchor, positive, who);
  require_same_shape(anchor, negative, who);
  if (anchor.ndim() != 2) throw ValueError(who + ": inputs must be (N, K), got " + anchor.shape().to_string());
  Variable d = sum(square(anchor - positive), Axes(1)) - sum(square(anchor - negative), Axes(1)) + margin;
  Variable loss = relu(d);
  if (reduce == "no") return loss;
  return mean(loss);
}

Variable gaussian_kl_divergence(const Variable& mean_, const Variable& ln_var, const std::string& reduce) {
  const std::string who = "gaussian_kl_divergence";
  require_floating(mean_, who, "mean");
  require_floating(ln_var, who, "ln_var");
  require_reduce(reduce, "sum", who);
  require_same_shape(mean_, ln_var, who);
  Variable loss = (square(mean_) + exp(ln_var) - ln_var - 1.0) * 0.5;
  return reduce == "no" ? loss : sum(loss);
}

Variable bernoulli_nll(const Variable& x, const Variable& y, const std::string& reduce) {
  const std::string who = "bernoulli_nll";
  require_floating(x, who, "x");
  require_floating(y, who, "y");
  require_reduce(reduce, "sum", who);
  require_same_shape(x, y, who);
  Variable loss = softplus(y) - x * y;
  return reduce == "no" ? loss : sum(loss);
}

Variable gaussian_nll(const Variable& x, const Variable& mean_, const Variable& ln_var, const std::string& reduce) {
  const std::string who = "gaussian_nll";
  require_floating(x, who, "x");
  require_floating(mean_, who, "mean");
  require_floating(ln_var, who, "ln_var");
  require_reduce(reduce, "sum", who);
  require_same_shape(x, mean_, who);
  require_same_shape(x, ln_var, who);
  const double log_2pi = std::log(2.0 * M_PI);
  Variable loss = (ln_var + log_2pi) * 0.5 + square(x - mean_) * exp(-ln_var) * 0.5;
  return reduce == "no" ? loss : sum(loss);
}

Variable cross_covariance(const Variable& y, const Variable& z, const std::string& reduce) {
  const std::string who = "cross_covariance";
  require_floating(y, who, "y");
  require_floating(z, who, "z");
  require_reduce(reduce, "half_squared_sum", who);
  if (y.ndim() != 2 || z.ndim() != 2 || y.shape()[0] != z.shape()[0])
    throw ValueError(who + ": y and z must be (N, M) and (N, K), got " + y.shape().to_string() + " and " +
                     z.shape().to_string());
  Variable cov = matmul(transpose(centered_columns(y)), centered_columns(z)) /
                 static_cast<double>(std::max<int64_t>(y.shape()[0], 1));
  return reduce == "no" ? cov : sum(square(cov)) * 0.5;
}

Variable decov(const Variable& h, const std::string& reduce) {
  const std::string who = "decov";
  require_floating(h, who, "h");
  require_reduce(reduce, "half_squared_sum", who);
  if (h.ndim() != 2) throw ValueError(who + ": h must be (N, M), got " + h.shape().to_string());
  Variable hc = centered_columns(h);
  const int64_t m = h.shape()[1];
  Variable off_diagonal =
      constant(kumo::subtract(Scalar(1), eye(m, std::nullopt, 0, h.dtype(), Order::kC, h.device())));
  Variable cov = matmul(transpose(hc), hc) * off_diagonal / static_cast<double>(std::max<int64_t>(h.shape()[0], 1));
  return reduce == "no" ? cov : sum(square(cov)) * 0.5;
}

}  // namespace autograd
}  // namespace kumo
