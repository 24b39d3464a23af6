#include "autograd/functions/loss.h"

#include "autograd/functions/activation.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/indexing.h"
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

Variable accuracy(const Variable& y, const Array& t, std::optional<int64_t> ignore_label) {
  Shape expected = y.shape();
  if (y.ndim() >= 2) expected.erase(1);
  if (y.ndim() < 2 || t.shape() != expected)
    throw ValueError("accuracy: y must be (N, C, ...) and t (N, ...), got shapes " + y.shape().to_string() + " and " +
                     t.shape().to_string());
  if (!is_integer(t.dtype()))
    throw TypeError(std::string("accuracy: t must be of an integer dtype, got ") + dtype_name(t.dtype()));
  Array hit = equal(argmax(y.array(), 1).reshape(t.shape()), t);
  Array value;
  if (ignore_label) {
    // Computed on the device: hits / counted, 0 when nothing is counted.
    Array counted = not_equal(t, Scalar(*ignore_label));
    Array hits = count_nonzero(logical_and(hit, counted)).astype(Dtype::kFloat64);
    Array total = count_nonzero(counted).astype(Dtype::kFloat64);
    value = where(equal(total, Scalar(0)), Scalar(0.0), divide(hits, maximum(total, Scalar(1.0))));
  } else {
    value = mean(hit.astype(Dtype::kFloat64));
  }
  return Variable(value.astype(y.dtype()), false);
}

}  // namespace autograd
}  // namespace kumo
