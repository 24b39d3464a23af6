// ufunc.reduce / ufunc.accumulate and the reductions built on them (sum,
// prod, max, min, all, any, argmax, ...). Statistics (mean, var, std) and
// the NaN-ignoring variants live in routines/statistics.cpp.
#include "routines/reduction.h"

#include <algorithm>
#include <string>

#include "core/errors.h"
#include "core/fp_errors.h"
#include "core/warnings.h"
#include "kernels/scalar_assign.h"
#include "kernels/elementwise.h"
#include "kernels/reduction.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "routines/reduction_detail.h"

namespace kumo {

namespace detail {

Dtype sum_dtype(Dtype d) {
  // NumPy accumulates add/multiply of bool and integers narrower than the
  // default integer in the default integer (unsigned ones in uint64), so
  // sum(int8) does not wrap at 127.
  switch (d) {
    case Dtype::kBool:
    case Dtype::kInt8:
    case Dtype::kInt16:
    case Dtype::kInt32:
      return Dtype::kInt64;
    case Dtype::kUInt8:
    case Dtype::kUInt16:
    case Dtype::kUInt32:
      return Dtype::kUInt64;
    default:
      return d;
  }
}

std::vector<int> normalize_reduce_axes(const Axes& axes, int ndim, bool legacy_0d) {
  std::vector<int> out;
  if (axes.is_all()) {
    for (int d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  // ufunc.reduce (and argmax) accept axis 0 or -1 on a 0-d array and reduce nothing.
  if (legacy_0d && ndim == 0 && axes.is_single() && (axes.list()[0] == 0 || axes.list()[0] == -1)) return out;
  out = normalize_axes(axes.list(), ndim);
  std::sort(out.begin(), out.end());
  return out;
}

Shape reduced_shape(const Shape& shape, const std::vector<int>& axes, bool keepdims) {
  Shape out;
  for (int d = 0; d < shape.size(); ++d) {
    bool r = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!r) out.push_back(shape[d]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

int64_t reduced_count(const Shape& shape, const std::vector<int>& axes) {
  int64_t n = 1;
  for (int d : axes) n *= shape[d];
  return n;
}

Array filled(const Shape& shape, const Scalar& v, Dtype dtype, Device& device) {
  Array out = Array::empty(shape, dtype, device);
  if (out.size() > 0) kernels::scalar_to_array(v.value(), dtype, device).copy_to(out);
  return out;
}

Array select(const Array& mask, const Array& x, const Array& y) {
  // One kernel for NumPy's where(mask, x, y) with x and y of one dtype; the
  // mask is cast to bool as it is loaded.
  static auto spec = kernels::ElementwiseSpec::create("kumo_select", "bool m, T x, T y", "T z", "z = m ? x : y");
  return kernels::call_elementwise(*spec, {mask, x, y}, {})[0];
}

Array finish(const Array& res, const Array& out, const std::string& name) {
  if (!out.defined()) return res;
  if (out.shape() != res.shape())
    throw ValueError("output parameter for reduction operation " + name + " has the wrong shape " +
                     out.shape().to_string() + " (expected " + res.shape().to_string() + ")");
  if (!out.writeable()) throw ValueError("output array is read-only");
  if (!(out.memory() == res.memory() && out.offset() == res.offset() && out.strides() == res.strides() &&
        out.dtype() == res.dtype()))
    res.copy_to(out);
  return out;
}

}  // namespace detail

using namespace detail;

namespace {

bool is_logical(const std::string& n) { return n == "logical_and" || n == "logical_or" || n == "logical_xor"; }
// Reductions without an identity that may still run over several axes at
// once: the result does not depend on the order the elements are visited.
bool reorderable_without_identity(const std::string& n) {
  return n == "maximum" || n == "minimum" || n == "fmax" || n == "fmin";
}
bool accumulates_wide(const std::string& n) { return n == "add" || n == "multiply"; }

// NumPy resolves a reduction with out= and no dtype= as the binary ufunc of
// (out's dtype, the input's): a float32 sum into a float64 out accumulates
// in float64, a float sum into an int out in float (cast once at the end),
// an int8 sum into a uint8 out in int16.
Dtype out_loop_dtype(const Array& out, const Array& src) { return promote_types(out.dtype(), src.dtype()); }

// NumPy's ComplexWarning for the casts a reduction makes: complex input into
// a real loop (dtype=), a complex out= read back as the real loop's
// accumulator, a complex loop's result into a real out=.
void warn_complex_reduction_casts(const Array& src, Dtype loop_dtype, const Array& out) {
  warn_if_complex_to_real(src.dtype(), loop_dtype);
  if (out.defined()) {
    warn_if_complex_to_real(out.dtype(), loop_dtype);
    warn_if_complex_to_real(loop_dtype, out.dtype());
  }
}

// For the ordered ufuncs without an identity, a right operand that leaves
// the left one as it is (x - 0 == x, x / 1 == x, ...): elements a where=
// mask leaves out become it, so the reduction skips them exactly.
std::optional<Scalar> right_identity(const std::string& n) {
  if (n == "subtract" || n == "left_shift" || n == "right_shift") return Scalar(0);
  if (n == "divide" || n == "true_divide" || n == "power" || n == "float_power") return Scalar(1);
  return std::nullopt;
}

// The loop a reduce/accumulate runs, with the input as its one dtype.
int reduce_loop(const kernels::Ufunc& u, const Array& src, std::optional<Dtype> dtype) {
  const kernels::UfuncOperand ops[2] = {src, src};
  int k = u.resolve(ops, 2, dtype, Casting::kUnsafe);
  // A reduction runs in its dtype= (logical_and.reduce(float16, dtype=bool)
  // in ??->?), also where a call's loop search ignores it (bool on the
  // ufuncs whose every loop gives bool).
  const std::vector<Dtype>& found = u.loops()[k].types;
  if (dtype && (found[0] != *dtype || found[1] != *dtype || found[2] != *dtype))
    for (size_t j = 0; j < u.loops().size(); ++j) {
      const std::vector<Dtype>& tj = u.loops()[j].types;
      if (tj[0] == *dtype && tj[1] == *dtype && tj[2] == *dtype) {
        k = static_cast<int>(j);
        break;
      }
    }
  const std::vector<Dtype>& t = u.loops()[k].types;
  if (t[0] != t[2] || t[1] != t[2])
    throw TypeError("reduction of " + u.name() + " is not supported for dtype " + dtype_name(src.dtype()));
  return k;
}

// The identity of a loop as a 0-d array: the reduction of an empty array.
Array identity_array(const kernels::Ufunc& u, int loop, Device& device) {
  Dtype t = u.loops()[loop].types[2];
  return kernels::call_reduction(u.reduce_spec(loop), {Array::empty(Shape{0}, t, device)}, {}, {0}, false, false)[0];
}

// max/min of float32/float64: the generic kernel combines with maximum(),
// whose NaN test doubles the work of each step. This spec computes the same
// values, but reduces each contiguous run (the whole array, or a row) on
// the host with vector running extrema (a plain compare-select: one max
// instruction) and running sums to notice NaN; a NaN sum (a NaN, or
// inf - inf) sends the run through an exact scan, so NaN still propagates.
const char* const kExtremumPreamble = R"(
#if !defined(__CUDACC__)
template <bool IsMax, class T>
static T kumo_ext_exact(const T* p, int64_t n) {
  T m = p[0];
  for (int64_t k = 1; k < n; ++k) m = IsMax ? kumo::maximum(m, p[k]) : kumo::minimum(m, p[k]);
  return m;
}
template <bool IsMax, class T>
static T kumo_ext_run(const T* p, int64_t n) {
  typedef T V __attribute__((vector_size(32)));
  enum { W = 32 / sizeof(T), C = 4 * W };
  if (n < 2 * C) return kumo_ext_exact<IsMax>(p, n);
  struct L { static V at(const T* p) { V v; __builtin_memcpy(&v, p, sizeof(V)); return v; } };
  V a0 = L::at(p), a1 = L::at(p + W), a2 = L::at(p + 2 * W), a3 = L::at(p + 3 * W);
  V s0 = a0, s1 = a1, s2 = a2, s3 = a3;
  // The last chunk ends at n and may overlap the one before it, which
  // changes neither an extremum nor whether a NaN is seen.
  const int64_t last = n - C;
  for (int64_t k = C; k < n; k += C) {
    if (k > last) k = last;
    const V v0 = L::at(p + k), v1 = L::at(p + k + W), v2 = L::at(p + k + 2 * W), v3 = L::at(p + k + 3 * W);
    a0 = (IsMax ? v0 > a0 : v0 < a0) ? v0 : a0;
    a1 = (IsMax ? v1 > a1 : v1 < a1) ? v1 : a1;
    a2 = (IsMax ? v2 > a2 : v2 < a2) ? v2 : a2;
    a3 = (IsMax ? v3 > a3 : v3 < a3) ? v3 : a3;
    s0 += v0; s1 += v1; s2 += v2; s3 += v3;
  }
  const V s = (s0 + s1) + (s2 + s3);
  bool nan = false;
  for (int w = 0; w < W; ++w) nan |= s[w] != s[w];
  if (nan) return kumo_ext_exact<IsMax>(p, n);
  a0 = (IsMax ? a1 > a0 : a1 < a0) ? a1 : a0;
  a2 = (IsMax ? a3 > a2 : a3 < a2) ? a3 : a2;
  a0 = (IsMax ? a2 > a0 : a2 < a0) ? a2 : a0;
  T m = a0[0];
  for (int w = 1; w < W; ++w) m = IsMax ? kumo::maximum(m, a0[w]) : kumo::minimum(m, a0[w]);
  return m;
}
#define KUMO_CONTIGUOUS_RUN(p, n) kumo_ext_run<KUMO_EXT_IS_MAX>(p, n)
#endif
)";

const kernels::ReductionSpec* extremum_spec(const std::string& name, Dtype loop_dtype) {
  if (loop_dtype != Dtype::kFloat32 && loop_dtype != Dtype::kFloat64) return nullptr;
  static auto max_spec = kernels::ReductionSpec::create(
      "kumo_max_float", "T in0", "T out0", "in0", "kumo::maximum(a, b)", "out0 = a", "", "T",
      std::string("#define KUMO_EXT_IS_MAX true\n") + kExtremumPreamble);
  static auto min_spec = kernels::ReductionSpec::create(
      "kumo_min_float", "T in0", "T out0", "in0", "kumo::minimum(a, b)", "out0 = a", "", "T",
      std::string("#define KUMO_EXT_IS_MAX false\n") + kExtremumPreamble);
  if (name == "maximum") return max_spec.get();
  if (name == "minimum") return min_spec.get();
  return nullptr;
}

}  // namespace

namespace {
Array reduce_impl(const kernels::Ufunc& u, const Array& a, const Axes& axes, const ReduceOptions& o);
Array accumulate_impl(const kernels::Ufunc& u, const Array& a, int64_t axis, const ReduceOptions& o);
}  // namespace

// Floating-point errors are reported per reduction, as NumPy's ("overflow
// encountered in reduce").
Array reduce(const kernels::Ufunc& u, const Array& a, const Axes& axes, const ReduceOptions& o) {
  take_fp_flags();
  Array r = reduce_impl(u, a, axes, o);
  report_reduction_fp_errors("reduce", a, r);
  return r;
}

Array accumulate(const kernels::Ufunc& u, const Array& a, int64_t axis, const ReduceOptions& o) {
  take_fp_flags();
  Array r = accumulate_impl(u, a, axis, o);
  report_reduction_fp_errors("accumulate", a, r);
  return r;
}

Array reduceat(const kernels::Ufunc& u, const Array& a, const std::vector<int64_t>& indices, int64_t axis,
               const ReduceOptions& o) {
  if (u.nin() != 2 || u.nout() != 1) throw ValueError("reduceat only supported for binary functions");
  if (a.ndim() == 0) throw TypeError("cannot reduceat on a scalar");
  const int ax = normalize_axis(axis, a.ndim());
  const int64_t n = a.shape()[ax];
  for (int64_t i : indices)
    if (i < 0 || i >= n)
      throw IndexError("index " + std::to_string(i) + " out-of-bounds in " + u.name() + ".reduceat [0, " +
                       std::to_string(n) + ")");
  // The loop's dtype as reduce chooses it (a one-element reduction of the
  // first slice tells it without a second rule).
  Shape shape = a.shape();
  shape[ax] = static_cast<int64_t>(indices.size());
  ReduceOptions seg_options;
  if (o.dtype()) seg_options.dtype(*o.dtype());
  else if (o.out().defined() && !is_logical(u.name())) seg_options.dtype(out_loop_dtype(o.out(), a));
  auto slab = [&](int64_t lo, int64_t hi) {
    std::vector<IndexItem> items(static_cast<size_t>(ax), IndexItem::slice(std::nullopt, std::nullopt, 1));
    items.push_back(IndexItem::slice(lo, hi, 1));
    return a.index(items);
  };
  take_fp_flags();
  Array res;
  for (size_t k = 0; k < indices.size(); ++k) {
    const int64_t lo = indices[k];
    const int64_t hi = k + 1 == indices.size() ? n : (indices[k + 1] > lo ? indices[k + 1] : lo + 1);
    Array part = reduce_impl(u, slab(lo, hi), Axes(std::vector<int64_t>{ax}), seg_options);
    if (!res.defined()) {
      if (o.out().defined()) {
        if (o.out().shape() != shape)
          throw ValueError("output parameter for reduceat has the wrong shape " + o.out().shape().to_string() +
                           " (expected " + shape.to_string() + ")");
        if (!o.out().writeable()) throw ValueError("output array is read-only");
        res = o.out();
      } else {
        res = Array::empty(shape, part.dtype(), a.device());
      }
    }
    std::vector<IndexItem> at(static_cast<size_t>(ax), IndexItem::slice(std::nullopt, std::nullopt, 1));
    at.push_back(IndexItem::integer(static_cast<int64_t>(k)));
    part.copy_to(res.index(at));
  }
  if (!res.defined()) {
    // No indices: an empty result along the axis, in the loop's dtype.
    Array probe = reduce_impl(u, slab(0, std::min<int64_t>(n, 1)), Axes(std::vector<int64_t>{ax}), seg_options);
    res = o.out().defined() ? o.out() : Array::empty(shape, probe.dtype(), a.device());
  }
  report_reduction_fp_errors("reduceat", a, res);
  return res;
}

namespace {

Array reduce_impl(const kernels::Ufunc& u, const Array& a, const Axes& axes, const ReduceOptions& o) {
  if (u.nin() != 2 || u.nout() != 1) throw ValueError("reduce only supported for binary functions");
  const std::string& name = u.name();
  // The logical ufuncs reduce in bool whatever the input type (NumPy runs
  // their '??->?' loop).
  Array src = (!o.dtype() && is_logical(name) && a.dtype() != Dtype::kBool) ? a.astype(Dtype::kBool) : a;
  const int nd = src.ndim();
  const bool has_identity = !u.reduce_identity().empty();
  if (!has_identity && !reorderable_without_identity(name)) {
    size_t naxes = axes.is_all() ? static_cast<size_t>(nd) : axes.list().size();
    if (naxes > 1)
      throw ValueError("reduction operation '" + name + "' is not reorderable, so at most one axis may be specified");
  }
  const std::vector<int> ax = normalize_reduce_axes(axes, nd, true);
  // The loop's dtype: dtype=, else out='s promoted with the input's, else
  // the input's (small integers widened for add and multiply). The logical
  // ufuncs stay in bool and their result is cast into out.
  std::optional<Dtype> dt = o.dtype();
  if (!dt && o.out().defined() && !is_logical(name)) dt = out_loop_dtype(o.out(), src);
  if (!dt && accumulates_wide(name)) dt = sum_dtype(src.dtype());
  const int k = reduce_loop(u, src, dt);
  const Dtype loop_dtype = u.loops()[k].types[2];
  warn_complex_reduction_casts(src, loop_dtype, o.out());
  Device& device = src.device();
  const bool keepdims = o.keepdims();
  const Shape res_shape = reduced_shape(src.shape(), ax, keepdims);
  // NumPy keeps the accumulator in out=: the starting value (initial=, or
  // the first element of each slice for a ufunc without an identity) is
  // cast into out's dtype and read back before the rest is combined in the
  // loop's dtype (maximum.reduce([1.5, 1.75], out=int) is 1, int(max(1, 1.75))).
  const bool start_in_out = o.out().defined() && o.out().dtype() != loop_dtype;
  Array initial;
  if (o.initial()) {
    initial = kernels::scalar_to_array(kernels::assigned_scalar(o.initial()->value(), loop_dtype), loop_dtype, device);
    if (start_in_out) initial = initial.astype(o.out().dtype()).astype(loop_dtype);
  }
  if (start_in_out && !has_identity && !o.initial() && src.size() > 0) {
    src = src.astype(loop_dtype, Order::kK, true);
    std::vector<IndexItem> first(static_cast<size_t>(nd), IndexItem::slice(std::nullopt, std::nullopt, 1));
    for (int d : ax) first[static_cast<size_t>(d)] = IndexItem::slice(0, 1, 1);
    Array head = src.index(first);
    head.astype(o.out().dtype()).astype(loop_dtype).copy_to(head);
  }

  if (o.where().defined()) {
    // Elements outside the mask become the identity (else the initial
    // value), so the plain reduction skips them.
    Array fill;
    if (has_identity) fill = identity_array(u, k, device);
    else if (auto r = right_identity(name); r && o.initial()) fill = kernels::scalar_to_array(r->value(), loop_dtype, device);
    else if (o.initial()) fill = initial;
    else
      throw ValueError("reduction operation '" + name +
                       "' does not have an identity, so to use a where mask one has to specify 'initial'");
    Array mask = o.where();
    // The mask broadcasts to the input, never the other way round.
    if (broadcast_shapes({src.shape(), mask.shape()}) != src.shape())
      throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                       mask.shape().to_string() + " and requested shape " + src.shape().to_string());
    src = select(mask, src.astype(loop_dtype, Order::kK, false), fill);
  }

  // initial= is the first operand of the reduction (NumPy's); where the
  // order matters (subtract, divide, ... reduce along one axis) it goes in
  // front of the elements, elsewhere it is combined with the result.
  bool initial_last = o.initial().has_value();
  if (initial_last && !has_identity && !reorderable_without_identity(name) && ax.size() == 1 &&
      (!o.where().defined() || right_identity(name))) {
    Shape slab_shape = src.shape();
    slab_shape[ax[0]] = 1;
    src = concatenate({initial.broadcast_to(slab_shape), src.astype(loop_dtype, Order::kK, false)}, ax[0]);
    initial_last = false;
  }
  const int64_t n_reduced = reduced_count(src.shape(), ax);
  if (n_reduced == 0 && !has_identity && !o.initial())
    throw ValueError("zero-size array to reduction operation " + name + " which has no identity");
  if (n_reduced == 0 && initial_last) return finish(initial.broadcast_to(res_shape).copy(), o.out(), name);

  std::vector<int64_t> ax64(ax.begin(), ax.end());
  // Reduce straight into out= when it has the loop's dtype (the kernel casts
  // the input as it loads it, so no converted copy of the input is made).
  std::vector<Array> outs(1);
  const Array& out = o.out();
  if (out.defined()) {
    if (out.shape() != res_shape)
      throw ValueError("output parameter for reduction operation " + name + " has the wrong shape " +
                       out.shape().to_string() + " (expected " + res_shape.to_string() + ")");
    if (!out.writeable()) throw ValueError("output array is read-only");
    if (out.dtype() == loop_dtype && !initial_last) outs[0] = out;
  }
  const kernels::ReductionSpec* fast = extremum_spec(name, loop_dtype);
  // The spec's T binds to the input: only when it already has the loop's dtype.
  if (fast && src.dtype() != loop_dtype) fast = nullptr;
  Array res = kernels::call_reduction(fast ? *fast : u.reduce_spec(k), {src}, outs, ax64, false, keepdims)[0];
  if (initial_last) {
    // initial op result: the order of an ordered ufunc over no axis at all.
    kernels::call_elementwise(u.loop_spec(k), {initial, res}, {res});
  }
  return finish(res, out, name);
}

Array accumulate_impl(const kernels::Ufunc& u, const Array& a, int64_t axis, const ReduceOptions& o) {
  if (u.nin() != 2 || u.nout() != 1) throw ValueError("accumulate only supported for binary functions");
  const std::string& name = u.name();
  Array src = (!o.dtype() && is_logical(name) && a.dtype() != Dtype::kBool) ? a.astype(Dtype::kBool) : a;
  if (src.ndim() == 0) throw TypeError("cannot accumulate on a scalar");
  const int nd = src.ndim();
  const int ax = normalize_axis(axis, nd);
  std::optional<Dtype> dt = o.dtype();
  if (!dt && o.out().defined() && !is_logical(name)) dt = out_loop_dtype(o.out(), src);
  if (!dt && accumulates_wide(name)) dt = sum_dtype(src.dtype());
  const int k = reduce_loop(u, src, dt);
  const Dtype loop_dtype = u.loops()[k].types[2];
  warn_complex_reduction_casts(src, loop_dtype, o.out());
  const Array& out = o.out();
  if (out.defined() && out.shape() != src.shape())
    throw ValueError("output parameter for accumulate operation " + name + " has the wrong shape " +
                     out.shape().to_string() + " (expected " + src.shape().to_string() + ")");
  if (src.size() == 0) return finish(Array::empty(src.shape(), loop_dtype, src.device()), out, name);
  // The scan kernel runs along the last axis of C-contiguous rows: move the
  // axis last, scan, and move it back (a view).
  std::vector<int64_t> perm;
  for (int d = 0; d < nd; ++d)
    if (d != ax) perm.push_back(d);
  perm.push_back(ax);
  Array moved = ax == nd - 1 ? src : src.transpose(perm);
  const int64_t n = moved.shape()[nd - 1];
  Array rows = moved.astype(loop_dtype, Order::kC, false).reshape(Shape{moved.size() / n, n});
  Array scanned = Array::empty(rows.shape(), loop_dtype, src.device());
  kernels::call_elementwise(u.accumulate_spec(k), {rows}, {scanned}, {}, rows.shape()[0]);
  Array res = scanned.reshape(moved.shape());
  if (ax != nd - 1) {
    std::vector<int64_t> inv(nd);
    for (int d = 0; d < nd; ++d) inv[perm[d]] = d;
    res = res.transpose(inv);
  }
  return finish(res, out, name);
}

}  // namespace

#define KUMO_UFUNC(name)                                  \
  static const BuiltinUfunc& u_##name = builtin_ufunc(#name); \
  (void)u_##name

Array sum(const Array& a, const Axes& axes, const ReduceOptions& o) {
  KUMO_UFUNC(add);
  return reduce(u_add, a, axes, o);
}
Array prod(const Array& a, const Axes& axes, const ReduceOptions& o) {
  KUMO_UFUNC(multiply);
  return reduce(u_multiply, a, axes, o);
}
Array max(const Array& a, const Axes& axes, const ReduceOptions& o) {
  KUMO_UFUNC(maximum);
  return reduce(u_maximum, a, axes, o);
}
Array min(const Array& a, const Axes& axes, const ReduceOptions& o) {
  KUMO_UFUNC(minimum);
  return reduce(u_minimum, a, axes, o);
}
namespace {
// fmax/fmin give NaN only where every element of the slice is NaN.
Array warn_if_all_nan(Array r) {
  if (is_inexact(r.dtype()) && r.size() > 0 && any(isnan(r)).item<bool>()) warn("All-NaN slice encountered");
  return r;
}
}  // namespace

Array nanmax(const Array& a, const Axes& axes, const ReduceOptions& o) {
  KUMO_UFUNC(fmax);
  return warn_if_all_nan(reduce(u_fmax, a, axes, o));
}
Array nanmin(const Array& a, const Axes& axes, const ReduceOptions& o) {
  KUMO_UFUNC(fmin);
  return warn_if_all_nan(reduce(u_fmin, a, axes, o));
}
Array all(const Array& a, const Axes& axes, const ReduceOptions& o) {
  KUMO_UFUNC(logical_and);
  return reduce(u_logical_and, a.astype(Dtype::kBool, Order::kK, false), axes, o);
}
Array any(const Array& a, const Axes& axes, const ReduceOptions& o) {
  KUMO_UFUNC(logical_or);
  return reduce(u_logical_or, a.astype(Dtype::kBool, Order::kK, false), axes, o);
}

// NumPy's order with out=: the maximum goes into out first, then
// subtract(out, minimum, out=out) under same_kind, so out= of a kind the
// difference cannot be cast to is its UFuncTypeError.
Array ptp(const Array& a, const Axes& axes, const ReduceOptions& o) {
  ReduceOptions k = ReduceOptions().keepdims(o.keepdims());
  if (!o.out().defined()) return subtract(max(a, axes, k), min(a, axes, k));
  const Array& out = o.out();
  max(a, axes, ReduceOptions().keepdims(o.keepdims()).out(out));
  KUMO_UFUNC(subtract);
  call_ufunc(u_subtract, {out, min(a, axes, k)}, UfuncOptions(out));
  return out;
}

// Counted by one reduction over the values (x != 0 summed as int64): no
// boolean copy of the input, which for a 2 GiB int8 array was 2 GiB more.
// float16 and complex values go through bool (their zero test is the cast's).
Array count_nonzero(const Array& a, const Axes& axes, bool keepdims) {
  const Dtype d = a.dtype();
  if (d == Dtype::kFloat16 || is_complex(d))
    return sum(a.astype(Dtype::kBool, Order::kK, false), axes,
               ReduceOptions().dtype(Dtype::kInt64).keepdims(keepdims));
  static auto spec = kernels::ReductionSpec::create("kumo_count_nonzero", "T x", "int64 count", "(x != T(0))",
                                                    "a + b", "count = a", "0", "int64");
  std::vector<int> ax = normalize_reduce_axes(axes, a.ndim(), /*legacy_0d=*/true);  // axis 0 of a 0-d array: NumPy counts it
  return kernels::call_reduction(*spec, {a}, {Array()}, std::vector<int64_t>(ax.begin(), ax.end()), axes.is_all(),
                                 keepdims)[0];
}

Array cumsum(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o) {
  KUMO_UFUNC(add);
  if (!axis) return accumulate(u_add, a.ravel(), 0, o);
  // A 0-d array with an axis scans as its 1-element 1-d form (NumPy's
  // PyArray_CheckAxis): axis 0 and -1 work, others are an AxisError of a 1-d array.
  return accumulate(u_add, a.ndim() == 0 ? a.reshape(Shape{1}) : a, *axis, o);
}
Array cumprod(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o) {
  KUMO_UFUNC(multiply);
  if (!axis) return accumulate(u_multiply, a.ravel(), 0, o);
  // A 0-d array with an axis scans as its 1-element 1-d form (NumPy's
  // PyArray_CheckAxis): axis 0 and -1 work, others are an AxisError of a 1-d array.
  return accumulate(u_multiply, a.ndim() == 0 ? a.reshape(Shape{1}) : a, *axis, o);
}

}  // namespace kumo
