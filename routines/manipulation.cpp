#include "routines/manipulation.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>

#include "core/errors.h"
#include "kernels/elementwise.h"
#include "kernels/ufunc.h"
#include "routines/creation.h"
#include "routines/indexing.h"
#include "routines/interop.h"
#include "routines/reduction.h"
#include "routines/row_copy.h"

namespace kumo {

namespace {

// normalize_axis with NumPy's "source: " / "destination: " prefix in the message.
int axis_with_prefix(int64_t axis, int ndim, const char* prefix) {
  try {
    return normalize_axis(axis, ndim);
  } catch (const AxisError& e) {
    throw AxisError(std::string(prefix) + ": " + e.what());
  }
}

// The axis order (outermost first) that follows the inputs' memory layout,
// as NumPy lays out the result of concatenate: an axis moves before another
// only when every input in which both have extent > 1 strides it further
// (an insertion sort, so ties keep the C order).
std::vector<int> stride_order(const std::vector<Array>& arrays, int ndim) {
  std::vector<int> perm(ndim);
  std::iota(perm.begin(), perm.end(), 0);
  for (int i = 1; i < ndim; ++i) {
    const int ax = perm[i];
    int pos = i;
    for (int j = i - 1; j >= 0; --j) {
      const int other = perm[j];
      bool decided = false, swap = true;
      for (const Array& a : arrays) {
        if (a.shape()[ax] != 1 && a.shape()[other] != 1) {
          decided = true;
          if (std::abs(a.strides()[ax]) <= std::abs(a.strides()[other])) swap = false;
        }
      }
      if (!decided) continue;
      if (!swap) break;
      pos = j;
    }
    perm.erase(perm.begin() + i);
    perm.insert(perm.begin() + pos, ax);
  }
  return perm;
}

Array empty_in_layout_of(const Shape& shape, Dtype dtype, const std::vector<Array>& arrays) {
  const int nd = shape.size();
  std::vector<int> perm = stride_order(arrays, nd);
  Device& device = arrays[0].device();
  bool identity = true;
  for (int i = 0; i < nd; ++i) identity &= perm[i] == i;
  if (identity) return Array::empty(shape, dtype, device);
  Shape pshape(nd);
  for (int i = 0; i < nd; ++i) pshape[i] = shape[perm[i]];
  std::vector<int64_t> inverse(nd);
  for (int i = 0; i < nd; ++i) inverse[perm[i]] = i;
  return Array::empty(pshape, dtype, device).transpose(inverse);
}

// A weak scalar as a 0-d array of `dtype`. Integers go through an int64 (or
// uint64) array and an unsafe cast, so a value out of range wraps as in
// numpy.where rather than raising.
Array weak_scalar_array(const kernels::ScalarValue& v, Dtype dtype, Device& device) {
  if (v.kind == WeakScalar::kInt && !v.huge && (is_integer(dtype) || dtype == Dtype::kBool))
    return kernels::scalar_to_array(v, v.is_uint ? Dtype::kUInt64 : Dtype::kInt64, device).astype(dtype);
  return kernels::scalar_to_array(v, dtype, device);
}

const kernels::ElementwiseSpec& where_spec() {
  // The condition is read through the kernel's bool parameter, so any
  // condition dtype works without a separate cast.
  static auto spec = kernels::ElementwiseSpec::create("kumo_where", "bool c, T x, T y", "T z", "z = c ? x : y");
  return *spec;
}

// A weak integer bound as NumPy 2.4's clip takes it. Against an integer
// array, one that cannot change a value (a lower bound at or below the
// dtype's minimum, an upper one at or above its maximum) is dropped; any
// other must fit the dtype clip computes in (`target`), else OverflowError
// "Python integer -3 out of bounds for uint8", as the ufunc's conversion.
std::optional<Operand> weak_bound(const Operand& b, Dtype a_dtype, Dtype target, bool lower) {
  if (!b.is_scalar || b.scalar.kind != WeakScalar::kInt) return b;
  const kernels::ScalarValue& v = b.scalar;
  if (is_integer(a_dtype) && a_dtype != Dtype::kBool) {
    long double lo = 0, hi = 0, x = v.huge ? static_cast<long double>(v.f)
                                           : v.is_uint ? static_cast<long double>(v.u) : static_cast<long double>(v.i);
    const int bits = static_cast<int>(itemsize(a_dtype)) * 8;
    if (kind(a_dtype) == DtypeKind::kSigned) {
      lo = -std::ldexp(1.0L, bits - 1);
      hi = std::ldexp(1.0L, bits - 1) - 1;
    } else {
      hi = std::ldexp(1.0L, bits) - 1;
    }
    if (lower ? x <= lo : x >= hi) return std::nullopt;
  }
  if (is_integer(target) && target != Dtype::kBool) {
    unsigned char bytes[16];
    kernels::store_scalar(v, target, bytes);  // OverflowError when it does not fit
  }
  return b;
}

}  // namespace

// ---- shapes and axes ----

Array reshape(const Array& a, const Shape& shape, Order order, std::optional<bool> copy) {
  if (copy && *copy) {
    if (order == Order::kK) throw ValueError("order 'K' is not permitted for reshaping");
    return a.copy(order == Order::kF ? Order::kF : Order::kC).reshape(shape, order);
  }
  if (copy && !*copy) {
    auto v = a.reshape_view(shape, order);
    if (!v) throw ValueError("Unable to avoid creating a copy while reshaping.");
    return *v;
  }
  return a.reshape(shape, order);
}

Array ravel(const Array& a, Order order) { return a.ravel(order); }
Array transpose(const Array& a) { return a.transpose(); }
Array transpose(const Array& a, const std::vector<int64_t>& axes) { return a.transpose(axes); }
Array swapaxes(const Array& a, int64_t axis1, int64_t axis2) { return a.swapaxes(axis1, axis2); }

Array moveaxis(const Array& a, const std::vector<int64_t>& source, const std::vector<int64_t>& destination) {
  const int nd = a.ndim();
  std::vector<int> src, dst;
  for (int64_t s : source) src.push_back(axis_with_prefix(s, nd, "source"));
  for (int64_t d : destination) dst.push_back(axis_with_prefix(d, nd, "destination"));
  auto repeated = [](std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) != v.end();
  };
  if (repeated(src)) throw ValueError("repeated axis in `source` argument");
  if (repeated(dst)) throw ValueError("repeated axis in `destination` argument");
  if (src.size() != dst.size())
    throw ValueError("`source` and `destination` arguments must have the same number of elements");
  // The axes that stay, in order, with the moved ones inserted at their
  // destinations from the lowest destination up.
  std::vector<int64_t> order;
  for (int i = 0; i < nd; ++i)
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  std::vector<std::pair<int, int>> moves;
  for (size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (const auto& [d, s] : moves) order.insert(order.begin() + d, s);
  return a.transpose(order);
}

Array moveaxis(const Array& a, int64_t source, int64_t destination) {
  return moveaxis(a, std::vector<int64_t>{source}, std::vector<int64_t>{destination});
}

Array squeeze(const Array& a) { return a.squeeze(); }
Array squeeze(const Array& a, const std::vector<int64_t>& axes) { return a.squeeze(axes); }

Array expand_dims(const Array& a, const std::vector<int64_t>& axes) {
  const int out_nd = a.ndim() + static_cast<int>(axes.size());
  std::vector<int> seen;
  for (int64_t ax : axes) {
    int n = normalize_axis(ax, out_nd);
    if (std::find(seen.begin(), seen.end(), n) != seen.end()) throw ValueError("repeated axis");
    seen.push_back(n);
  }
  return a.expand_dims(axes);
}
Array expand_dims(const Array& a, int64_t axis) { return expand_dims(a, std::vector<int64_t>{axis}); }

Array broadcast_to(const Array& a, const Shape& shape) {
  if (shape.empty() && a.ndim() > 0) throw ValueError("cannot broadcast a non-scalar to a scalar array");
  return a.broadcast_to(shape);
}

Array as_strided(const Array& a, const Shape& shape, const Strides& strides, int64_t byte_offset, bool writeable) {
  if (shape.size() != strides.size())
    throw ValueError("as_strided: shape " + shape.to_string() + " and strides " + strides.to_string() +
                     " have different lengths");
  const int64_t item = a.itemsize();
  // The lowest and highest byte the view can address, relative to the block.
  __int128 lo = static_cast<__int128>(a.offset()) + byte_offset, hi = lo;
  bool empty = false;
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0) throw ValueError("as_strided: negative dimensions are not allowed");
    if (shape[d] == 0) empty = true;
    const __int128 span = static_cast<__int128>(shape[d] - 1) * strides[d];
    (span < 0 ? lo : hi) += span;
  }
  if (!empty && (lo < 0 || hi + item > static_cast<__int128>(a.memory()->size())))
    throw ValueError("as_strided: shape " + shape.to_string() + " with strides " + strides.to_string() +
                     " and offset " + std::to_string(byte_offset) + " reaches outside the array's " +
                     std::to_string(a.memory()->size()) + "-byte memory");
  Array v = a.view_with(shape, strides, byte_offset);
  if (!writeable || !a.writeable()) v.set_writeable(false);
  return v;
}

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  std::vector<Shape> shapes;
  for (const Array& a : arrays) shapes.push_back(a.shape());
  const Shape shape = broadcast_shapes(shapes);
  std::vector<Array> out;
  for (const Array& a : arrays) out.push_back(a.shape() == shape ? a : a.broadcast_to(shape));
  return out;
}

// ---- joining ----

Array concatenate(const std::vector<Array>& arrays_in, std::optional<int64_t> axis_opt, const JoinOptions& o) {
  if (arrays_in.empty()) throw ValueError("need at least one array to concatenate");
  if (o.out.defined() && o.dtype)
    throw TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
  std::vector<Array> arrays = arrays_in;
  if (!axis_opt) {
    for (Array& a : arrays) a = a.ravel();
    axis_opt = 0;
  }
  const int nd = arrays[0].ndim();
  if (nd == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
  for (size_t i = 0; i < arrays.size(); ++i)
    if (arrays[i].ndim() != nd)
      throw ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has " +
                       std::to_string(nd) + " dimension(s) and the array at index " + std::to_string(i) + " has " +
                       std::to_string(arrays[i].ndim()) + " dimension(s)");
  const int axis = normalize_axis(*axis_opt, nd);
  Shape shape = arrays[0].shape();
  shape[axis] = 0;
  for (size_t i = 0; i < arrays.size(); ++i) {
    for (int d = 0; d < nd; ++d)
      if (d != axis && arrays[i].shape()[d] != arrays[0].shape()[d])
        throw ValueError("all the input array dimensions except for the concatenation axis must match exactly, but "
                         "along dimension " + std::to_string(d) + ", the array at index 0 has size " +
                         std::to_string(arrays[0].shape()[d]) + " and the array at index " + std::to_string(i) +
                         " has size " + std::to_string(arrays[i].shape()[d]));
    shape[axis] += arrays[i].shape()[axis];
  }
  std::vector<const Array*> ptrs;
  for (const Array& a : arrays) ptrs.push_back(&a);
  if (o.out.defined()) ptrs.push_back(&o.out);
  check_same_device(ptrs);
  Dtype dt;
  if (o.out.defined()) {
    if (o.out.ndim() != nd) throw ValueError("Output array has wrong dimensionality");
    if (o.out.shape() != shape) throw ValueError("Output array is the wrong shape");
    if (!o.out.writeable()) throw ValueError("output array is read-only");
    dt = o.out.dtype();
  } else if (o.dtype) {
    dt = *o.dtype;
  } else {
    // All at once, as NumPy's result_type: pairwise promotion is not
    // associative (int8, uint8, float16: int16 then float32, not float16).
    std::vector<Dtype> dtypes;
    dtypes.reserve(arrays.size());
    for (const Array& a : arrays) dtypes.push_back(a.dtype());
    dt = result_type(dtypes, {});
  }
  for (const Array& a : arrays)
    if (!can_cast(a.dtype(), dt, o.casting))
      throw CastingError("Cannot cast array data from " + dtype_repr(a.dtype()) + " to " + dtype_repr(dt) +
                         " according to the rule '" + casting_name(o.casting) + "'");
  Array res = o.out.defined() ? o.out : empty_in_layout_of(shape, dt, arrays);
  // Each input is copied (with casting) into its slab of the result.
  int64_t pos = 0;
  for (const Array& a : arrays) {
    const int64_t n = a.shape()[axis];
    std::vector<IndexItem> idx(axis, IndexItem::slice(std::nullopt, std::nullopt, 1));
    idx.push_back(IndexItem::slice(pos, pos + n, 1));
    if (n > 0) detail::copy_rows(a, res.index(idx));
    pos += n;
  }
  return res;
}

Array stack(const std::vector<Array>& arrays, int64_t axis, const JoinOptions& o) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  for (const Array& a : arrays)
    if (a.shape() != arrays[0].shape()) throw ValueError("all input arrays must have the same shape");
  const int ax = normalize_axis(axis, arrays[0].ndim() + 1);
  std::vector<Array> expanded;
  for (const Array& a : arrays) expanded.push_back(a.expand_dims({ax}));
  return concatenate(expanded, ax, o);
}

// ---- repeat ----

Array repeat(const Array& a, const Array& repeats, std::optional<int64_t> axis) {
  // (An empty list of repeats arrives as float64; NumPy takes it as no counts.)
  if (!is_integer(repeats.dtype()) && repeats.dtype() != Dtype::kBool && repeats.size() > 0)
    throw TypeError("Cannot cast array data from " + dtype_repr(repeats.dtype()) +
                    " to dtype('int64') according to the rule 'safe'");
  if (repeats.ndim() > 1) throw ValueError("repeats must be a scalar or a 1-d array");
  // With an axis a 0-d array is its 1-element 1-d form (NumPy's PyArray_CheckAxis).
  const Array src = axis && a.ndim() > 0 ? a : a.reshape(Shape{a.size()});
  const int ax = axis ? normalize_axis(*axis, src.ndim()) : 0;
  const int64_t n = src.shape()[ax];
  Device& device = src.device();
  Array counts = repeats.astype(Dtype::kInt64, Order::kC, false);
  if (&counts.device() != &device) counts = counts.to_device(device);
  if (counts.size() != 1 && counts.size() != n)
    throw ValueError("operands could not be broadcast together with shape (" + std::to_string(n) + ",) (" +
                     std::to_string(counts.size()) + ",)");
  if (counts.size() > 0 && min(counts).item<int64_t>() < 0) throw ValueError("negative dimensions are not allowed");
  counts = counts.reshape(Shape{counts.size()}).broadcast_to(Shape{n});
  // Source index of each output position: the number of segment starts
  // (after the first) at or before it, i.e. the cumulative sum of a marker
  // array that counts the starts falling on each position (zero counts
  // make several starts share one position).
  const Array ends = cumsum(counts);
  const int64_t total = n == 0 ? 0 : ends(n - 1).item<int64_t>();
  Array marks = zeros(Shape{total + 1}, Dtype::kInt64, Order::kC, device);
  if (n > 1) scatter_add(marks, {ends(kumo::slice(0, n - 1))}, ones(Shape{n - 1}, Dtype::kInt64, Order::kC, device));
  const Array source = cumsum(marks(kumo::slice(0, total)));
  return take(src, source, ax);
}

Array repeat(const Array& a, int64_t repeats, std::optional<int64_t> axis) {
  return repeat(a, asarray<int64_t>({repeats}, a.device()), axis);
}

// ---- where / clip ----

std::vector<Array> where(const Array& condition) { return nonzero(condition); }

Array where(const Array& condition, const Operand& x, const Operand& y) {
  std::vector<Dtype> strong;
  std::vector<WeakScalar> weak;
  for (const Operand* v : {&x, &y}) {
    if (v->is_scalar) weak.push_back(v->scalar.kind);
    else strong.push_back(v->array().dtype());
  }
  // Two lone scalars take their default dtypes (int64, float64, ...).
  const Dtype dt = result_type(strong, weak);
  std::vector<const Array*> ptrs{&condition};
  for (const Operand* v : {&x, &y})
    if (!v->is_scalar) ptrs.push_back(&v->array());
  check_same_device(ptrs);
  Device& device = condition.device();
  auto operand = [&](const Operand& v) {
    return v.is_scalar ? weak_scalar_array(v.scalar, dt, device) : v.array().astype(dt, Order::kK, false);
  };
  return kernels::call_elementwise(where_spec(), {condition, operand(x), operand(y)}, {Array()})[0];
}

Array clip(const Array& a, const ClipBound& lo, const ClipBound& hi, const Array& out) {
  Array r;
  if (!lo.operand() && !hi.operand()) {
    // NumPy >= 2.1: no bounds is numpy.positive(a), a copy that bool refuses.
    r = call_ufunc("positive", {a})[0];
  } else {
    // The dtype clip computes in: NumPy's result_type of a and both bounds
    // at once (int16, uint16 and float16 give float32, where two pairwise
    // steps give float64); Python numbers are weak.
    std::vector<Dtype> strong{a.dtype()};
    std::vector<WeakScalar> weak;
    for (const ClipBound* b : {&lo, &hi}) {
      if (!b->operand()) continue;
      if (b->operand()->is_scalar) weak.push_back(b->operand()->scalar.kind);
      else strong.push_back(b->operand()->array().dtype());
    }
    const Dtype target = result_type(strong, weak);
    std::optional<Operand> lower = lo.operand() ? weak_bound(*lo.operand(), a.dtype(), target, true) : std::nullopt;
    std::optional<Operand> upper = hi.operand() ? weak_bound(*hi.operand(), a.dtype(), target, false) : std::nullopt;
    r = a.astype(target, Order::kK, /*copy=*/!lower && !upper);
    if (lower) r = call_ufunc("maximum", {r, *lower})[0];
    if (upper) r = call_ufunc("minimum", {r, *upper})[0];
  }
  if (!out.defined()) return r;
  if (!out.writeable()) throw ValueError("output array is read-only");
  if (!can_cast(r.dtype(), out.dtype(), Casting::kSameKind))
    throw CastingError("Cannot cast ufunc 'clip' output from " + dtype_repr(r.dtype()) + " to " +
                       dtype_repr(out.dtype()) + " with casting rule 'same_kind'");
  r.copy_to(out);
  return out;
}

}  // namespace kumo
