// The Array API's cumulative_sum and cumulative_prod: cumsum/cumprod with
// include_initial (a leading 0 or 1) and their axis rule for 1-D input.
#include "routines/cumulative.h"

#include <string>
#include <vector>

#include "core/errors.h"
#include "routines/creation.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {

namespace {

Array cumulative(const Array& x0, std::optional<int64_t> axis, std::optional<Dtype> dtype, const Array& out,
                 bool include_initial, bool is_sum) {
  Array x = x0.ndim() == 0 ? x0.reshape(Shape{1}) : x0;
  if (!axis) {
    if (x.ndim() >= 2) {
      throw ValueError("For arrays which have more than one dimension ``axis`` argument is required.");
    }
    axis = 0;
  }
  const int64_t nd = x.ndim();
  if (*axis < -nd || *axis >= nd) {
    throw AxisError("axis " + std::to_string(*axis) + " is out of bounds for array of dimension " + std::to_string(nd));
  }
  const int64_t ax = *axis < 0 ? *axis + nd : *axis;
  ReduceOptions o;
  if (dtype) o.dtype(*dtype);
  auto scan = [&](const ReduceOptions& ro) { return is_sum ? cumsum(x, ax, ro) : cumprod(x, ax, ro); };
  if (!include_initial) {
    if (out.defined()) o.out(out);
    return scan(o);
  }
  std::vector<IndexItem> rest(nd, IndexItem::slice(std::nullopt, std::nullopt, 1));
  if (out.defined()) {
    Shape want = x.shape();
    want[static_cast<int>(ax)] += 1;
    if (out.shape() != want) {
      throw ValueError("output parameter for reduction operation " + std::string(is_sum ? "add" : "multiply") +
                       " has the wrong shape");
    }
    rest[ax] = IndexItem::slice(1, std::nullopt, 1);
    o.out(out.index(rest));
    scan(o);
    rest[ax] = IndexItem::integer(0);
    full(out.index(rest).shape(), Scalar(int64_t(is_sum ? 0 : 1)), out.dtype(), Order::kC, out.device())
        .copy_to(out.index(rest));
    return out;
  }
  Array res = scan(o);
  Shape first = res.shape();
  first[static_cast<int>(ax)] = 1;
  Array init = full(first, Scalar(int64_t(is_sum ? 0 : 1)), res.dtype(), Order::kC, res.device());
  return concatenate({init, res}, ax);
}

}  // namespace

Array cumulative_sum(const Array& x, std::optional<int64_t> axis, std::optional<Dtype> dtype, const Array& out,
                     bool include_initial) {
  return cumulative(x, axis, dtype, out, include_initial, true);
}

Array cumulative_prod(const Array& x, std::optional<int64_t> axis, std::optional<Dtype> dtype, const Array& out,
                      bool include_initial) {
  return cumulative(x, axis, dtype, out, include_initial, false);
}

}  // namespace kumo
