#include "autograd/functions/evaluation.h"

#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {

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

Variable binary_accuracy(const Variable& y, const Array& t) {
  if (!is_floating(y.dtype()))
    throw TypeError(std::string("binary_accuracy: y must be of a floating dtype, got ") + dtype_name(y.dtype()));
  if (!is_integer(t.dtype()))
    throw TypeError(std::string("binary_accuracy: t must be of an integer dtype, got ") + dtype_name(t.dtype()));
  if (y.shape() != t.shape())
    throw ValueError("binary_accuracy: y and t must have the same shape, got " + y.shape().to_string() + " and " +
                     t.shape().to_string());
  // Labels -1 never equal a 0/1 prediction, so they drop out of the hits;
  // the count leaves them out too. Everything stays on the device.
  Array hits = count_nonzero(kumo::equal(kumo::greater_equal(y.array(), Scalar(0)), t));
  Array counted = kumo::maximum(count_nonzero(kumo::not_equal(t, Scalar(-1))), Scalar(1));
  return Variable(kumo::divide(hits, counted).astype(y.dtype()), false);
}

Variable r2_score(const Variable& pred, const Variable& true_, const std::string& multioutput,
                  const std::optional<Array>& sample_weight) {
  if (multioutput != "uniform_average" && multioutput != "raw_values")
    throw ValueError("r2_score: multioutput must be 'uniform_average' or 'raw_values', got '" + multioutput + "'");
  if (!is_floating(pred.dtype()))
    throw TypeError(std::string("r2_score: pred must be of a floating dtype, got ") + dtype_name(pred.dtype()));
  if (pred.dtype() != true_.dtype() || pred.shape() != true_.shape())
    throw ValueError("r2_score: pred and true must have the same dtype and shape, got " +
                     std::string(dtype_name(pred.dtype())) + pred.shape().to_string() + " and " +
                     dtype_name(true_.dtype()) + true_.shape().to_string());
  if (pred.ndim() == 0) throw ValueError("r2_score: pred must have at least one dimension");
  const Array& p = pred.array();
  const Array& t = true_.array();
  // Unweighted, every sample weighs 1.
  Array w = Array();
  if (sample_weight) {
    if (sample_weight->ndim() != 1 || sample_weight->size() != p.shape()[0])
      throw ValueError("r2_score: sample_weight must have one weight per sample, shape (" +
                       std::to_string(p.shape()[0]) + ",), got " + sample_weight->shape().to_string());
    Shape column{p.shape()[0]};
    for (int i = 1; i < p.ndim(); ++i) column.push_back(1);
    w = sample_weight->astype(pred.dtype()).reshape(column);
  }
  auto weighted = [&w](const Array& x) { return w.defined() ? kumo::multiply(x, w) : x; };
  Array t_mean = w.defined() ? kumo::divide(sum(weighted(t), Axes(0), ReduceOptions().keepdims(true)), sum(w))
                             : mean(t, Axes(0), ReduceOptions().keepdims(true));
  Array ss_res = sum(weighted(kumo::square(kumo::subtract(p, t))), Axes(0));
  Array ss_tot = sum(weighted(kumo::square(kumo::subtract(t, t_mean))), Axes(0));
  Array zero = kumo::equal(ss_tot, Scalar(0));
  Array safe_tot = kumo::where(zero, Scalar(1), ss_tot);
  Array r2 =
      kumo::where(zero, Scalar(0.0), kumo::subtract(Scalar(1), kumo::divide(ss_res, safe_tot))).astype(pred.dtype());
  if (multioutput == "uniform_average") r2 = mean(r2).astype(pred.dtype());
  return Variable(r2, false);
}

}  // namespace autograd
}  // namespace kumo
