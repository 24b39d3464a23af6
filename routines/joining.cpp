#include "routines/joining.h"

#include <string>

#include "core/errors.h"
#include "routines/axis_slice.h"

namespace kumo {

namespace {

// NumPy's split routines index ary.shape[axis] first, so a bad axis is the
// IndexError of a tuple rather than an AxisError.
int split_axis(const Array& a, int64_t axis) {
  const int nd = a.ndim();
  if (axis < -nd || axis >= nd) throw IndexError("tuple index out of range");
  return static_cast<int>(axis < 0 ? axis + nd : axis);
}

std::vector<Array> pieces_between(const Array& a, int axis, const std::vector<int64_t>& points) {
  std::vector<Array> out;
  out.reserve(points.size() + 1);
  std::optional<int64_t> start = 0;
  for (size_t i = 0; i <= points.size(); ++i) {
    std::optional<int64_t> stop = i < points.size() ? std::optional<int64_t>(points[i]) : std::nullopt;
    out.push_back(detail::slice_axis(a, axis, start, stop));
    start = stop;
  }
  return out;
}

Array at_least(const Array& a, int nd) {
  if (a.ndim() >= nd) return a;
  Shape s(nd - a.ndim(), 1);
  for (int64_t e : a.shape()) s.push_back(e);
  return a.reshape(s);
}

// numpy.atleast_3d's placement of the original axes.
Array at_least_3d(const Array& a) {
  if (a.ndim() == 0) return a.reshape(Shape{1, 1, 1});
  if (a.ndim() == 1) return a.reshape(Shape{1, a.shape()[0], 1});
  if (a.ndim() == 2) return a.reshape(Shape{a.shape()[0], a.shape()[1], 1});
  return a;
}

}  // namespace

std::vector<Array> array_split(const Array& a, int64_t sections, int64_t axis) {
  const int ax = split_axis(a, axis);
  if (sections <= 0) throw ValueError("number sections must be larger than 0.");
  const int64_t n = a.shape()[ax];
  const int64_t each = n / sections, extras = n % sections;
  std::vector<int64_t> points;
  int64_t pos = 0;
  for (int64_t i = 0; i + 1 < sections; ++i) {
    pos += each + (i < extras ? 1 : 0);
    points.push_back(pos);
  }
  return pieces_between(a, ax, points);
}

std::vector<Array> array_split(const Array& a, const std::vector<int64_t>& indices, int64_t axis) {
  return pieces_between(a, split_axis(a, axis), indices);
}

std::vector<Array> split(const Array& a, int64_t sections, int64_t axis) {
  const int ax = split_axis(a, axis);
  if (sections == 0) throw ZeroDivisionError("integer modulo by zero");
  if (a.shape()[ax] % sections != 0) throw ValueError("array split does not result in an equal division");
  return array_split(a, sections, ax);
}

std::vector<Array> split(const Array& a, const std::vector<int64_t>& indices, int64_t axis) {
  return array_split(a, indices, axis);
}

#define KUMO_DIRECTIONAL_SPLIT(name, min_nd, what, axis_expr)                                                \
  std::vector<Array> name(const Array& a, int64_t sections) {                                                \
    if (a.ndim() < (min_nd)) throw ValueError(#name " only works on arrays of " what " or more dimensions"); \
    return split(a, sections, (axis_expr));                                                                  \
  }                                                                                                          \
  std::vector<Array> name(const Array& a, const std::vector<int64_t>& indices) {                             \
    if (a.ndim() < (min_nd)) throw ValueError(#name " only works on arrays of " what " or more dimensions"); \
    return split(a, indices, (axis_expr));                                                                   \
  }
KUMO_DIRECTIONAL_SPLIT(hsplit, 1, "1", a.ndim() > 1 ? 1 : 0)
KUMO_DIRECTIONAL_SPLIT(vsplit, 2, "2", 0)
KUMO_DIRECTIONAL_SPLIT(dsplit, 3, "3", 2)
#undef KUMO_DIRECTIONAL_SPLIT

std::vector<Array> unstack(const Array& x, int64_t axis) {
  if (x.ndim() == 0) throw ValueError("Input array must be at least 1-d.");
  const Array m = moveaxis(x, axis, 0);
  std::vector<Array> out;
  out.reserve(static_cast<size_t>(m.shape()[0]));
  for (int64_t i = 0; i < m.shape()[0]; ++i) out.push_back(m(i));
  return out;
}

Array tile(const Array& a_in, const std::vector<int64_t>& reps_in) {
  for (int64_t r : reps_in)
    if (r < 0) throw ValueError("negative dimensions are not allowed");
  const int d = static_cast<int>(reps_in.size());
  bool all_one = true;
  for (int64_t r : reps_in) all_one &= r == 1;
  if (all_one) return at_least(a_in.copy(), d);
  const Array a = at_least(a_in, d);
  const int nd = a.ndim();
  std::vector<int64_t> reps(static_cast<size_t>(nd - d), 1);
  reps.insert(reps.end(), reps_in.begin(), reps_in.end());
  Shape out_shape(nd);
  for (int k = 0; k < nd; ++k) out_shape[k] = a.shape()[k] * reps[k];
  Array out = Array::empty(out_shape, a.dtype(), a.device());
  if (out.size() == 0) return out;
  // The result seen as (reps0, n0, reps1, n1, ...) with every repeated axis
  // split in two; the input broadcast over the repeat axes fills it in one
  // copy. Axes that are not repeated stay whole, which keeps the view within
  // the dimension limit for all but extreme ranks.
  int split_ndim = nd;
  for (int k = 0; k < nd; ++k) split_ndim += reps[k] != 1;
  if (split_ndim > kMaxNdim) {
    // Too many axes for one view: repeat one axis at a time.
    Array cur = a;
    for (int k = 0; k < nd; ++k) {
      if (reps[k] == 1) continue;
      std::vector<int64_t> one(static_cast<size_t>(nd), 1);
      one[k] = reps[k];
      cur = tile(cur, one);
    }
    return cur;
  }
  Shape vshape, src_shape;
  Strides vstrides;
  for (int k = 0; k < nd; ++k) {
    const int64_t stride = out.strides()[k];
    if (reps[k] != 1) {
      vshape.push_back(reps[k]);
      vstrides.push_back(stride * a.shape()[k]);
      src_shape.push_back(1);
    }
    vshape.push_back(a.shape()[k]);
    vstrides.push_back(stride);
    src_shape.push_back(a.shape()[k]);
  }
  a.reshape(src_shape).broadcast_to(vshape).copy_to(out.view_with(vshape, vstrides));
  return out;
}

Array dstack(const std::vector<Array>& arrays) {
  std::vector<Array> arrs;
  for (const Array& a : arrays) arrs.push_back(at_least_3d(a));
  return concatenate(arrs, 2);
}

Array column_stack(const std::vector<Array>& arrays) {
  std::vector<Array> arrs;
  for (const Array& a : arrays) {
    if (a.ndim() == 0)
      arrs.push_back(a.reshape(Shape{1, 1}));
    else if (a.ndim() == 1)
      arrs.push_back(a.reshape(Shape{a.shape()[0], 1}));
    else
      arrs.push_back(a);
  }
  return concatenate(arrs, 1);
}

Array vstack(const std::vector<Array>& arrays, const JoinOptions& options) {
  std::vector<Array> arrs;
  for (const Array& a : arrays) arrs.push_back(at_least(a, 2));
  return concatenate(arrs, 0, options);
}

Array hstack(const std::vector<Array>& arrays, const JoinOptions& options) {
  std::vector<Array> arrs;
  for (const Array& a : arrays) arrs.push_back(at_least(a, 1));
  const int64_t axis = !arrs.empty() && arrs[0].ndim() == 1 ? 0 : 1;
  return concatenate(arrs, axis, options);
}

}  // namespace kumo
