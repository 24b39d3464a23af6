#include "routines/rearranging.h"

#include <algorithm>
#include <string>

#include "core/errors.h"
#include "kernels/elementwise.h"
#include "routines/assignment.h"
#include "routines/axis_slice.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/indexing.h"
#include "routines/interop.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"
#include "routines/sorting.h"

namespace kumo {

namespace {

// normalize_axis_tuple: AxisError out of range, ValueError for a repeat.
std::vector<int> axis_tuple(const std::vector<int64_t>& axes, int ndim, bool allow_duplicates = false) {
  std::vector<int> out;
  for (int64_t a : axes) {
    const int n = normalize_axis(a, ndim);
    if (!allow_duplicates && std::find(out.begin(), out.end(), n) != out.end()) throw ValueError("repeated axis");
    out.push_back(n);
  }
  return out;
}

IndexItem whole() { return IndexItem::slice(std::nullopt, std::nullopt, 1); }

// NumPy's insert/delete write their result in F order for an F- (and not
// C-) contiguous input, else in C order.
Order result_order(const Array& a) { return a.f_contiguous() && !a.c_contiguous() ? Order::kF : Order::kC; }

// The flattened array and axis 0 for axis=None, else the normalised axis.
std::pair<Array, int> flat_or_axis(const Array& arr, std::optional<int64_t> axis) {
  if (!axis) return {arr.ndim() == 1 ? arr : arr.ravel(), 0};
  return {arr, normalize_axis(*axis, arr.ndim())};
}

std::vector<Index> at_axis(int axis, Index what) {
  std::vector<Index> idx(static_cast<size_t>(axis), Index(whole()));
  idx.push_back(std::move(what));
  return idx;
}

int64_t py_mod(int64_t a, int64_t n) {
  const int64_t r = a % n;
  return r < 0 ? r + n : r;
}

}  // namespace

// ---- flip ----

Array flip(const Array& m, const std::optional<std::vector<int64_t>>& axes) {
  std::vector<int> ax;
  if (axes) {
    ax = axis_tuple(*axes, m.ndim());
  } else {
    for (int i = 0; i < m.ndim(); ++i) ax.push_back(i);
  }
  std::vector<IndexItem> idx(static_cast<size_t>(m.ndim()), whole());
  for (int a : ax) idx[a] = IndexItem::slice(std::nullopt, std::nullopt, -1);
  return m.index(idx);
}

Array flip(const Array& m, int64_t axis) { return flip(m, std::vector<int64_t>{axis}); }

Array fliplr(const Array& m) {
  if (m.ndim() < 2) throw ValueError("Input must be >= 2-d.");
  return flip(m, 1);
}

Array flipud(const Array& m) {
  if (m.ndim() < 1) throw ValueError("Input must be >= 1-d.");
  return flip(m, 0);
}

// ---- roll ----

Array roll(const Array& a, const std::vector<int64_t>& shift, const std::optional<std::vector<int64_t>>& axes) {
  if (!axes) return roll(a.ravel(), shift, std::vector<int64_t>{0}).reshape(a.shape());
  const std::vector<int> ax = axis_tuple(*axes, a.ndim(), true);
  const size_t ns = shift.size(), na = ax.size();
  if (ns != na && ns != 1 && na != 1)
    throw ValueError(
        "shape mismatch: objects cannot be broadcast to a single "
        "shape.  Mismatch is between arg 0 "
        "with shape (" +
        std::to_string(ns) + ",) and arg 1 with shape (" + std::to_string(na) + ",).");
  std::vector<int64_t> offset(static_cast<size_t>(a.ndim()), 0);
  for (size_t i = 0; i < std::max(ns, na); ++i) {
    const int axis = ax[na == 1 ? 0 : i];
    offset[axis] += shift[ns == 1 ? 0 : i];
  }
  Array result = empty_like(a);
  if (a.size() == 0) return result;
  // Each rolled axis splits into two (source, destination) slab pairs; every
  // combination over the axes is one strided copy.
  std::vector<std::vector<std::pair<IndexItem, IndexItem>>> parts(static_cast<size_t>(a.ndim()));
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t n = a.shape()[d];
    const int64_t off = py_mod(offset[d], n);
    if (off == 0) {
      parts[d].push_back({whole(), whole()});
    } else {
      parts[d].push_back({IndexItem::slice(std::nullopt, n - off, 1), IndexItem::slice(off, std::nullopt, 1)});
      parts[d].push_back({IndexItem::slice(n - off, std::nullopt, 1), IndexItem::slice(std::nullopt, off, 1)});
    }
  }
  std::vector<size_t> pick(static_cast<size_t>(a.ndim()), 0);
  while (true) {
    std::vector<IndexItem> src, dst;
    for (int d = 0; d < a.ndim(); ++d) {
      src.push_back(parts[d][pick[d]].first);
      dst.push_back(parts[d][pick[d]].second);
    }
    a.index(src).copy_to(result.index(dst));
    int d = a.ndim() - 1;
    while (d >= 0 && ++pick[d] == parts[d].size()) pick[d--] = 0;
    if (d < 0) break;
  }
  return result;
}

Array roll(const Array& a, int64_t shift, std::optional<int64_t> axis) {
  if (!axis) return roll(a, std::vector<int64_t>{shift}, std::nullopt);
  return roll(a, std::vector<int64_t>{shift}, std::vector<int64_t>{*axis});
}

// ---- rot90 ----

Array rot90(const Array& m, int64_t k, const std::vector<int64_t>& axes) {
  if (axes.size() != 2) throw ValueError("len(axes) must be 2.");
  const int64_t nd = m.ndim();
  if (axes[0] == axes[1] || std::abs(axes[0] - axes[1]) == nd) throw ValueError("Axes must be different.");
  if (axes[0] >= nd || axes[0] < -nd || axes[1] >= nd || axes[1] < -nd)
    throw ValueError("Axes=(" + std::to_string(axes[0]) + ", " + std::to_string(axes[1]) +
                     ") out of range for array of ndim=" + std::to_string(nd) + ".");
  k = py_mod(k, 4);
  if (k == 0) return m.index({whole()});
  if (k == 2) return flip(flip(m, axes[0]), axes[1]);
  std::vector<int64_t> perm(static_cast<size_t>(nd));
  for (int64_t i = 0; i < nd; ++i) perm[i] = i;
  const int64_t a0 = axes[0] < 0 ? axes[0] + nd : axes[0], a1 = axes[1] < 0 ? axes[1] + nd : axes[1];
  std::swap(perm[a0], perm[a1]);
  if (k == 1) return flip(m, axes[1]).transpose(perm);
  return flip(m.transpose(perm), axes[1]);
}

// ---- resize / append ----

Array resize(const Array& a_in, const Shape& shape) {
  int64_t new_size = 1;
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("all elements of `new_shape` must be non-negative");
    new_size *= d;
  }
  const Array a = a_in.ravel();
  if (a.size() == 0 || new_size == 0) return zeros_like(a, std::nullopt, Order::kC, shape);
  const int64_t n = a.size(), repeats = (new_size + n - 1) / n;
  // The data repeated as rows of a (repeats, n) block in one broadcast copy;
  // its first new_size elements are the result.
  Array block = Array::empty(Shape{repeats, n}, a.dtype(), a.device());
  a.reshape(Shape{1, n}).broadcast_to(block.shape()).copy_to(block);
  return block.reshape(Shape{repeats * n})(kumo::slice(0, new_size)).reshape(shape);
}

Array append(const Array& arr, const Array& values, std::optional<int64_t> axis) {
  if (!axis) return concatenate({arr.ndim() == 1 ? arr : arr.ravel(), values.ravel()}, 0);
  return concatenate({arr, values}, *axis);
}

// ---- insert ----

Array insert(const Array& arr_in, int64_t index, const Array& values, std::optional<int64_t> axis) {
  return insert(arr_in, asarray<int64_t>({index}, arr_in.device()).reshape(Shape{}), values, axis);
}

Array insert(const Array& arr_in, const IndexItem& slice, const Array& values, std::optional<int64_t> axis) {
  auto [arr, ax] = flat_or_axis(arr_in, axis);
  const detail::SliceRange r = detail::slice_range(slice, arr.shape()[ax]);
  Array positions = arange(Scalar(r.start), Scalar(r.stop), Scalar(r.step), Dtype::kInt64, arr.device());
  return insert(arr_in, positions, values, axis);
}

Array insert(const Array& arr_in, const Array& obj, const Array& values_in, std::optional<int64_t> axis) {
  auto [arr, ax] = flat_or_axis(arr_in, axis);
  const int64_t n = arr.shape()[ax];
  Device& device = arr.device();
  Array values = &values_in.device() == &device ? values_in : values_in.to_device(device);
  Array indices = &obj.device() == &device ? obj : obj.to_device(device);
  if (indices.dtype() == Dtype::kBool) {
    if (indices.ndim() != 1) throw ValueError("boolean array argument obj to insert must be one dimensional");
    indices = flatnonzero(indices);
  } else if (indices.ndim() > 1) {
    throw ValueError("index array argument obj to insert must be one dimensional or scalar");
  }
  Shape new_shape = arr.shape();
  const Order order = result_order(arr_in);
  if (indices.size() == 1) {
    if (!is_integer(indices.dtype()))
      throw TypeError("slice indices must be integers or None or have an __index__ method");
    int64_t index = indices.item<int64_t>();
    if (index < -n || index > n)
      throw IndexError("index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(ax) +
                       " with size " + std::to_string(n));
    if (index < 0) index += n;
    // values as an array of arr's dtype with at least arr.ndim dimensions;
    // a scalar position inserts them as a block whose first axis goes to `ax`.
    Array v = values.astype(arr.dtype(), Order::kK, false);
    if (v.ndim() < arr.ndim()) {
      Shape s(arr.ndim() - v.ndim(), 1);
      for (int64_t e : v.shape()) s.push_back(e);
      v = v.reshape(s);
    }
    if (indices.ndim() == 0) v = moveaxis(v, 0, ax);
    const int64_t numnew = v.shape()[ax];
    new_shape[ax] += numnew;
    Array out = Array::empty(new_shape, arr.dtype(), device, order);
    detail::slice_axis(arr, ax, std::nullopt, index).copy_to(detail::slice_axis(out, ax, std::nullopt, index));
    copyto(detail::slice_axis(out, ax, index, index + numnew), v, Casting::kUnsafe);
    detail::slice_axis(arr, ax, index, std::nullopt).copy_to(detail::slice_axis(out, ax, index + numnew, std::nullopt));
    return out;
  }
  if (!is_integer(indices.dtype()) && indices.size() > 0)
    throw IndexError("arrays used as indices must be of integer (or boolean) type");
  indices = indices.astype(Dtype::kInt64);
  indices = where(less(indices, Scalar(0)), add(indices, Scalar(n)), indices);
  const int64_t numnew = indices.size();
  // Each position moves right by the number of insertions before it (in
  // stable order, so equal positions keep the order of the values).
  const Array order_idx = argsort(indices, 0, std::string("stable"));
  setitem(indices, {order_idx},
          add(take(indices, order_idx), arange(Scalar(0), Scalar(numnew), Scalar(1), Dtype::kInt64, device)));
  new_shape[ax] += numnew;
  Array old_mask = ones(Shape{new_shape[ax]}, Dtype::kBool, Order::kC, device);
  setitem(old_mask, {indices}, Scalar(false));
  Array out = Array::empty(new_shape, arr.dtype(), device, order);
  setitem(out, at_axis(ax, indices), values);
  setitem(out, at_axis(ax, old_mask), arr);
  return out;
}

// ---- delete ----

Array delete_(const Array& arr_in, int64_t index, std::optional<int64_t> axis) {
  auto [arr, ax] = flat_or_axis(arr_in, axis);
  const int64_t n = arr.shape()[ax];
  if (index < -n || index >= n)
    throw IndexError("index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(ax) +
                     " with size " + std::to_string(n));
  if (index < 0) index += n;
  Shape new_shape = arr.shape();
  new_shape[ax] -= 1;
  Array out = Array::empty(new_shape, arr.dtype(), arr.device(), result_order(arr_in));
  detail::slice_axis(arr, ax, std::nullopt, index).copy_to(detail::slice_axis(out, ax, std::nullopt, index));
  detail::slice_axis(arr, ax, index + 1, std::nullopt).copy_to(detail::slice_axis(out, ax, index, std::nullopt));
  return out;
}

Array delete_(const Array& arr_in, const IndexItem& slice, std::optional<int64_t> axis) {
  auto [arr, ax] = flat_or_axis(arr_in, axis);
  const int64_t n = arr.shape()[ax];
  const Order order = result_order(arr_in);
  const detail::SliceRange r = detail::slice_range(slice, n);
  if (r.count <= 0) return arr.copy(order);
  // The deleted positions as an increasing range [start, stop) with `step`.
  int64_t start = r.start, stop = r.stop, step = r.step;
  if (step < 0) {
    step = -step;
    start = r.start + (r.count - 1) * r.step;
    stop = r.start + 1;
  }
  Shape new_shape = arr.shape();
  new_shape[ax] -= r.count;
  Array out = Array::empty(new_shape, arr.dtype(), arr.device(), order);
  if (start > 0)
    detail::slice_axis(arr, ax, std::nullopt, start).copy_to(detail::slice_axis(out, ax, std::nullopt, start));
  if (stop < n)
    detail::slice_axis(arr, ax, stop, std::nullopt).copy_to(detail::slice_axis(out, ax, stop - r.count, std::nullopt));
  if (step != 1) {
    // The survivors between start and stop: every position not on the step
    // grid.
    Array keep = ones(Shape{stop - start}, Dtype::kBool, Order::kC, arr.device());
    fill(keep(kumo::slice(std::nullopt, std::nullopt, step)), Scalar(false));
    Array middle = getitem(detail::slice_axis(arr, ax, start, stop), at_axis(ax, keep));
    middle.copy_to(detail::slice_axis(out, ax, start, stop - r.count));
  }
  return out;
}

Array delete_(const Array& arr_in, const Array& obj_in, std::optional<int64_t> axis) {
  if (obj_in.size() == 1 && is_integer(obj_in.dtype())) return delete_(arr_in, obj_in.item<int64_t>(), axis);
  auto [arr, ax] = flat_or_axis(arr_in, axis);
  const int64_t n = arr.shape()[ax];
  Device& device = arr.device();
  const Array obj = &obj_in.device() == &device ? obj_in : obj_in.to_device(device);
  Array keep;
  if (obj.dtype() == Dtype::kBool) {
    if (obj.ndim() != 1 || obj.shape()[0] != n)
      throw ValueError(
          "boolean array argument obj to delete must be one "
          "dimensional and match the axis length of " +
          std::to_string(n));
    keep = logical_not(obj);
  } else {
    keep = ones(Shape{n}, Dtype::kBool, Order::kC, device);
    setitem(keep, {obj}, Scalar(false));
  }
  return getitem(arr, at_axis(ax, keep));
}

// ---- trim_zeros ----

Array trim_zeros(const Array& filt, const std::string& trim, const std::optional<std::vector<int64_t>>& axes) {
  if (trim != "fb" && trim != "bf" && trim != "f" && trim != "b")
    throw ValueError("unexpected character(s) in `trim`: '" + trim + "'");
  const int nd = filt.ndim();
  std::vector<int> which;
  if (axes) {
    which = axis_tuple(*axes, nd);
  } else {
    for (int d = 0; d < nd; ++d) which.push_back(d);
  }
  const bool front = trim.find('f') != std::string::npos, back = trim.find('b') != std::string::npos;
  // Per trimmed axis, which positions hold a non-zero anywhere in their
  // slab; the first and last of them bound the kept range. Only these small
  // vectors come to the host.
  std::vector<IndexItem> idx(static_cast<size_t>(nd), whole());
  for (int d : which) {
    std::vector<int64_t> others;
    for (int e = 0; e < nd; ++e)
      if (e != d) others.push_back(e);
    const Array hit = others.empty() ? filt.astype(Dtype::kBool) : any(filt, Axes(others));
    const std::vector<bool> v = hit.to_vector<bool>();
    int64_t first = -1, last = -1;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i]) continue;
      if (first < 0) first = static_cast<int64_t>(i);
      last = static_cast<int64_t>(i);
    }
    // An all-zero array is trimmed to nothing whatever `trim` says.
    if (first < 0) {
      idx[d] = IndexItem::slice(0, 0, 1);
      continue;
    }
    idx[d] = IndexItem::slice(front ? std::optional<int64_t>(first) : std::nullopt,
                              back ? std::optional<int64_t>(last + 1) : std::nullopt, 1);
  }
  return filt.index(idx);
}

// ---- vander ----

Array vander(const Array& x_in, std::optional<int64_t> n_opt, bool increasing) {
  if (x_in.ndim() != 1) throw ValueError("x must be a one-dimensional array or sequence.");
  const int64_t n = n_opt ? *n_opt : x_in.shape()[0];
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  const Dtype dt = promote_types(x_in.dtype(), Dtype::kInt64);
  const Array x = x_in.astype(dt, Order::kK, false);
  Array out = Array::empty(Shape{x.shape()[0], n}, dt, x.device());
  if (out.size() == 0) return out;
  // Each element is its row's x multiplied into itself p times in order, the
  // same products (and roundings) as NumPy's multiply.accumulate.
  static auto spec = kernels::ElementwiseSpec::create("kumo_vander", "raw T x, int64 ncol, bool inc", "T y",
                                                      "const long long row = i / ncol, col = i % ncol;\n"
                                                      "const long long p = inc ? col : ncol - 1 - col;\n"
                                                      "const T b = x.at(row);\n"
                                                      "T v = p == 0 ? kumo_cast<T>(1) : b;\n"
                                                      "for (long long k = 1; k < p; ++k) v = v * b;\n"
                                                      "y = v;");
  Device& device = x.device();
  kernels::call_elementwise(*spec,
                            {x, full(Shape{}, Scalar(n), Dtype::kInt64, Order::kC, device),
                             full(Shape{}, Scalar(increasing), Dtype::kBool, Order::kC, device)},
                            {out});
  return out;
}

}  // namespace kumo
