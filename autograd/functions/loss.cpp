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
  if (reduce != "mean" && reduce != "no")
    throw ValueError("softmax_cross_entropy: reduce must be 'mean' or 'no', got '" + reduce + "'");
  if (x.ndim() != 2)
    throw ValueError("softmax_cross_entropy: x must be 2-d (N, C), got shape " + x.shape().to_string());
  const Array valid = not_equal(t, Scalar(ignore_label));
  const Array safe_t = where(valid, t, Scalar(0));
  Variable per_sample = neg(select_item(log_softmax(x, 1), safe_t)) * Variable(valid.astype(x.dtype()), false);
  if (reduce == "no") return per_sample;
  const int64_t count = normalize ? count_nonzero(valid).item<int64_t>() : x.shape()[0];
  return sum(per_sample) / static_cast<double>(count > 0 ? count : 1);
}

Variable accuracy(const Variable& y, const Array& t, std::optional<int64_t> ignore_label) {
  if (y.ndim() != 2 || t.ndim() != 1 || t.shape()[0] != y.shape()[0])
    throw ValueError("accuracy: y must be (N, C) and t (N,), got shapes " + y.shape().to_string() + " and " +
                     t.shape().to_string());
  Array hit = equal(argmax(y.array(), 1), t);
  int64_t total = t.shape()[0];
  if (ignore_label) {
    Array counted = not_equal(t, Scalar(*ignore_label));
    hit = logical_and(hit, counted);
    total = count_nonzero(counted).item<int64_t>();
  }
  const double hits = static_cast<double>(count_nonzero(hit).item<int64_t>());
  Array value =
      full(Shape{}, Scalar(total > 0 ? hits / static_cast<double>(total) : 0.0), y.dtype(), Order::kC, y.device());
  return Variable(value, false);
}

}  // namespace autograd
}  // namespace kumo
