// argmax/argmin, mean, var, std and the NaN-ignoring variants.
#include <algorithm>
#include <limits>
#include <string>

#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "core/warnings.h"
#include "kernels/elementwise.h"
#include "kernels/reduction.h"
#include "routines/elementwise.h"
#include "routines/reduction.h"
#include "routines/reduction_detail.h"

namespace kumo {

using namespace detail;

namespace {

Axes to_axes(const std::vector<int>& ax) { return Axes(std::vector<int64_t>(ax.begin(), ax.end())); }

bool is_int_or_bool(Dtype d) { return d == Dtype::kBool || is_integer(d); }

// mean's result dtype: float64 for integers and bool, else the input's (or dtype=).
Dtype mean_dtype(Dtype in, std::optional<Dtype> dtype) {
  if (dtype) return *dtype;
  return is_int_or_bool(in) ? Dtype::kFloat64 : in;
}

// float16 statistics accumulate in float32, as NumPy's do.
Dtype accumulation_dtype(Dtype d) { return d == Dtype::kFloat16 ? Dtype::kFloat32 : d; }

// How many elements of each reduced slice the mask selects (int64).
Array mask_count(const Array& a, const Array& where, const std::vector<int>& ax, bool keepdims) {
  return sum(where.astype(Dtype::kBool, Order::kK, false).broadcast_to(a.shape()), to_axes(ax),
             ReduceOptions().dtype(Dtype::kInt64).keepdims(keepdims));
}

// ---- argmax / argmin -------------------------------------------------------
// Two vectorizable passes instead of one reduction over (value, index)
// pairs, whose NaN and tie rules keep compilers from vectorizing it: the
// extremum (NaN-propagating), then the first position holding it (or the
// first NaN: a NaN extremum means the slice has one).
const kernels::ReductionSpec& first_index_spec() {
  static auto spec = kernels::ReductionSpec::create("kumo_first_index", "T x, T m", "int64 y",
                                                    "(x == m || !(x == x)) ? _j : (int64_t)9223372036854775807LL",
                                                    "a < b ? a : b", "y = a", "", "int64");
  return *spec;
}

// The two passes over one axis of src (the first index of the extremum).
Array two_pass_arg(const Array& src, int ax, bool is_max) {
  ReduceOptions keep = ReduceOptions().keepdims(true);
  Array m = is_max ? max(src, ax, keep) : min(src, ax, keep);
  return kernels::call_reduction(first_index_spec(), {src, m}, {}, {ax}, false, false)[0];
}

// Flat index of the extremum of a 1-D array. Long arrays are cut into
// blocks: one pass finds each block's extremum, the first block holding the
// overall one is searched again while it is small enough to sit in cache,
// so the data is read about once instead of twice.
int64_t flat_arg(const Array& x, bool is_max) {
  constexpr int64_t kBlock = 4096;
  const int64_t n = x.size(), nblocks = n / kBlock;
  if (nblocks < 4) return two_pass_arg(x, 0, is_max).item<int64_t>();
  Array head = x.index({IndexItem::slice(0, nblocks * kBlock, 1)}).reshape(Shape{nblocks, kBlock});
  Array block_ext = is_max ? max(head, 1) : min(head, 1);
  const int64_t b = two_pass_arg(block_ext, 0, is_max).item<int64_t>();
  int64_t best = b * kBlock + two_pass_arg(head.index({IndexItem::integer(b)}), 0, is_max).item<int64_t>();
  if (nblocks * kBlock < n) {
    // The tail wins only when strictly better, or NaN where the head has none.
    Array tail = x.index({IndexItem::slice(nblocks * kBlock, std::nullopt, 1)});
    Array vb = block_ext.index({IndexItem::integer(b)});
    Array vt = is_max ? max(tail) : min(tail);
    const bool nan_b = isnan(vb).item<bool>(), nan_t = isnan(vt).item<bool>();
    const bool better = is_max ? greater(vt, vb).item<bool>() : less(vt, vb).item<bool>();
    if (!nan_b && (nan_t || better)) best = nblocks * kBlock + two_pass_arg(tail, 0, is_max).item<int64_t>();
  }
  return best;
}

// One pass per contiguous row for argmax/argmin of real (non-float16)
// dtypes. The two reductions used otherwise (extremum, then first index)
// read the data twice and were twice NumPy's time along rows; compilers do
// not vectorize a (value, index) reduction with NaN and tie rules written
// plainly, so the host loop is written with (GCC/Clang) vector types.
const char* const kArgRowPreamble = R"(
template <bool IsMax, class T>
KUMO_FN bool kumo_arg_better(const T& a, const T& b) { return IsMax ? a > b : a < b; }
// Position of the first extremum of p[0, n) (n >= 1), or of the first NaN.
template <bool IsMax, class T>
KUMO_FN int64_t kumo_arg_scalar(const T* p, int64_t n) {
  int64_t i = 0;
  if (p[0] != p[0]) return 0;
  for (int64_t k = 1; k < n; ++k) {
    if (p[k] != p[k]) return k;
    if (kumo_arg_better<IsMax>(p[k], p[i])) i = k;
  }
  return i;
}
template <bool IsMax, class T, int Size = sizeof(T)>
struct kumo_arg_pick {
  static KUMO_FN int64_t run(const T* p, int64_t n) { return kumo_arg_scalar<IsMax>(p, n); }
};
#if !defined(__CUDACC__)
// Host, 4- and 8-byte elements. Blocks of up to 256 elements: the block's
// extremum from four vectors of running extrema (a plain compare-select,
// which is one max instruction), NaN detected by running sums (a NaN makes
// a sum NaN; so may inf - inf, and then the exact search just finds no
// NaN). Only the block that held the best last is searched again, for the
// first position of its extremum, so ties keep the earliest. One pass over
// memory and about two vector operations per vector of input.
template <bool IsMax, class T>
struct kumo_arg_vec {
  typedef T V __attribute__((vector_size(32)));
  enum { W = 32 / sizeof(T), C = 4 * W, B = 256 };
  static V load(const T* p) { V v; __builtin_memcpy(&v, p, sizeof(V)); return v; }
  static V pick(const V& v, const V& a) { return (IsMax ? v > a : v < a) ? v : a; }
  static int64_t find(const T* p, int64_t n, T m) {
    int64_t k = 0;
    const V mv = m - V{};
    for (; k + C <= n; k += C) {
      const auto eq = (load(p + k) == mv) | (load(p + k + W) == mv) | (load(p + k + 2 * W) == mv) |
                      (load(p + k + 3 * W) == mv);
      bool hit = false;
      for (int w = 0; w < W; ++w) hit |= eq[w] != 0;
      if (hit) break;
    }
    while (p[k] != m) ++k;
    return k;
  }
  static int64_t run(const T* p, int64_t n) {
    if (n < C) return kumo_arg_scalar<IsMax>(p, n);
    // The last C elements form a final block of one chunk that may overlap
    // the one before: a value in the overlap is no better than that
    // block's extremum, so the overlap never changes the answer.
    const int64_t body = n - n % C;
    T best = T();
    int64_t best_b = -1, best_e = -1;
    V sum = V{};
    for (int64_t k = 0; k < n;) {
      const int64_t e = k >= body ? n : (body - k > B ? k + B : body);
      if (k >= body) k = n - C;
      V a0 = load(p + k), a1 = load(p + k + W), a2 = load(p + k + 2 * W), a3 = load(p + k + 3 * W);
      V s0 = a0, s1 = a1, s2 = a2, s3 = a3;
      for (int64_t j = k + C; j < e; j += C) {
        const V v0 = load(p + j), v1 = load(p + j + W), v2 = load(p + j + 2 * W), v3 = load(p + j + 3 * W);
        a0 = pick(v0, a0); a1 = pick(v1, a1); a2 = pick(v2, a2); a3 = pick(v3, a3);
        s0 += v0; s1 += v1; s2 += v2; s3 += v3;
      }
      sum += (s0 + s1) + (s2 + s3);
      const V a = pick(pick(a0, a1), pick(a2, a3));
      T m = a[0];
      for (int w = 1; w < W; ++w) m = kumo_arg_better<IsMax>(a[w], m) ? a[w] : m;
      if (best_b < 0 || kumo_arg_better<IsMax>(m, best)) {
        best = m;
        best_b = k;
        best_e = e;
      }
      k = e;
    }
    // A NaN anywhere is the answer at its first position (checked once per
    // row: a NaN sum with no NaN, from inf - inf, just costs this scan).
    bool nan = false;
    for (int w = 0; w < W; ++w) nan |= sum[w] != sum[w];
    if (nan) {
      for (int64_t j = 0; j < n; ++j)
        if (p[j] != p[j]) return j;
    }
    // Earlier blocks hold only values strictly worse than a later block's
    // extremum, so the first position of the best is in its block.
    return best_b + find(p + best_b, best_e - best_b, best);
  }
};
template <bool IsMax, class T>
struct kumo_arg_pick<IsMax, T, 4> : kumo_arg_vec<IsMax, T> {};
template <bool IsMax, class T>
struct kumo_arg_pick<IsMax, T, 8> : kumo_arg_vec<IsMax, T> {};
#endif
template <bool IsMax, class T>
KUMO_FN int64_t kumo_arg_row(const T* p, int64_t n) { return kumo_arg_pick<IsMax, T>::run(p, n); }
)";

// Inputs from this size on are split over the threads (the reductions' threshold).
constexpr int64_t kArgParallelBytes = kernels::kReductionParallelBytes;

bool arg_row_dtype(Dtype d) { return d == Dtype::kFloat32 || d == Dtype::kFloat64 || is_int_or_bool(d); }

// Index of the extremum of each row of a C-contiguous 2-D array (int64, one per row).
Array arg_rows(const Array& x2, bool is_max) {
  static auto spec_max = kernels::ElementwiseSpec::create(
      "kumo_argmax_rows", "raw T x", "int64 y",
      "const int64_t n = x.shape()[1];\ny = kumo_arg_row<true>(x.data() + i * n, n);", kArgRowPreamble);
  static auto spec_min = kernels::ElementwiseSpec::create(
      "kumo_argmin_rows", "raw T x", "int64 y",
      "const int64_t n = x.shape()[1];\ny = kumo_arg_row<false>(x.data() + i * n, n);", kArgRowPreamble);
  const kernels::ElementwiseSpec& spec = is_max ? *spec_max : *spec_min;
  const int64_t rows = x2.shape()[0];
  Array y = Array::empty(Shape{rows}, Dtype::kInt64, x2.device());
  // The elementwise launcher splits by rows only past tens of thousands of
  // them; inputs past kReductionParallelBytes are split here, one row range
  // per thread, since memory then serves two cores faster than one.
  const int64_t threads = host_num_threads();
  if (x2.device().type() == DeviceType::kCPU && threads > 1 && rows >= 2 &&
      x2.size() * x2.itemsize() >= kArgParallelBytes) {
    const int64_t parts = std::min<int64_t>(threads, rows);
    parallel_for(parts, 1, [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) {
        const int64_t r0 = rows * p / parts, r1 = rows * (p + 1) / parts;
        if (r0 == r1) continue;
        Array xs = x2.index({IndexItem::slice(r0, r1, 1)});
        Array ys = y.index({IndexItem::slice(r0, r1, 1)});
        kernels::call_elementwise(spec, {xs}, {ys}, {}, r1 - r0);
      }
    });
    return y;
  }
  kernels::call_elementwise(spec, {x2}, {y}, {}, rows);
  return y;
}

// Flat index of the extremum of a contiguous 1-D array: one row, or a few
// long rows (one per thread) whose winners are compared here.
int64_t flat_arg_contiguous(const Array& x, bool is_max) {
  const int64_t n = x.size();
  const int64_t parts = n * x.itemsize() >= kArgParallelBytes ? host_num_threads() : 1;
  if (parts <= 1 || x.device().type() != DeviceType::kCPU)
    return arg_rows(x.reshape(Shape{1, n}), is_max).item<int64_t>();
  const int64_t len = n / parts;
  Array head = x.index({IndexItem::slice(0, parts * len, 1)}).reshape(Shape{parts, len});
  std::vector<int64_t> idx(parts);
  {
    Array r = arg_rows(head, is_max);
    for (int64_t p = 0; p < parts; ++p) idx[p] = p * len + r.index({IndexItem::integer(p)}).item<int64_t>();
  }
  if (parts * len < n) {
    Array tail = x.index({IndexItem::slice(parts * len, std::nullopt, 1)});
    idx.push_back(parts * len + arg_rows(tail.reshape(Shape{1, n - parts * len}), is_max).item<int64_t>());
  }
  // The first NaN wins; otherwise the strictly better value, earliest on ties.
  int64_t best = idx[0];
  Array vbest = x.index({IndexItem::integer(best)});
  if (isnan(vbest).item<bool>()) return best;
  for (size_t p = 1; p < idx.size(); ++p) {
    Array v = x.index({IndexItem::integer(idx[p])});
    if (isnan(v).item<bool>()) return idx[p];
    if ((is_max ? greater(v, vbest) : less(v, vbest)).item<bool>()) {
      best = idx[p];
      vbest = v;
    }
  }
  return best;
}

Array arg_reduce(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o, bool is_max) {
  const std::string name = is_max ? "argmax" : "argmin";
  const int nd = a.ndim();
  // NumPy writes the indices through out= taken as an intp array, which
  // needs a safe cast between the two.
  if (o.out().defined() && !can_cast(o.out().dtype(), Dtype::kInt64, Casting::kSafe))
    throw TypeError(std::string("Cannot cast ") + (o.out().ndim() == 0 ? "scalar" : "array data") + " from dtype('" +
                    dtype_name(o.out().dtype()) + "') to dtype('int64') according to the rule 'safe'");
  // Without an axis (or axis 0/-1 of a 0-d array) the flat C-order index counts.
  const bool flat = !axis || (nd == 0 && (*axis == 0 || *axis == -1));
  Array src;
  int ax = 0;
  Shape res_shape;
  if (flat) {
    if (a.size() == 0) throw ValueError("attempt to get " + name + " of an empty sequence");
    src = a.ravel();
    res_shape = o.keepdims() ? Shape(nd, 1) : Shape{};
  } else {
    ax = normalize_axis(*axis, nd);
    if (a.shape()[ax] == 0) throw ValueError("attempt to get " + name + " of an empty sequence");
    src = a;
    res_shape = reduced_shape(a.shape(), {ax}, o.keepdims());
    if (a.size() == 0) return finish(filled(res_shape, 0, Dtype::kInt64, a.device()), o.out(), name);
  }
  const bool rows = arg_row_dtype(src.dtype()) && src.c_contiguous() && (flat || ax == nd - 1);
  Array r;
  if (flat) {
    const int64_t i = rows ? flat_arg_contiguous(src, is_max) : flat_arg(src, is_max);
    r = kernels::scalar_to_array(Scalar(i).value(), Dtype::kInt64, a.device());
  } else if (rows && nd >= 1) {
    const int64_t n = src.shape()[nd - 1];
    r = arg_rows(src.reshape(Shape{src.size() / n, n}), is_max);
  } else {
    r = two_pass_arg(src, ax, is_max);
  }
  if (r.shape() != res_shape) r = r.reshape(res_shape);
  return finish(r, o.out(), name);
}

// x with NaN replaced by v (float and complex inputs; others are returned).
Array nan_to(const Array& a, double v) {
  if (!is_inexact(a.dtype())) return a;
  static auto spec = kernels::ElementwiseSpec::create("kumo_nan_to", "T x, T f", "T y", "y = kumo::isnan(x) ? f : x");
  Array f = kernels::scalar_to_array(Scalar(v).value(), a.dtype(), a.device());
  return kernels::call_elementwise(*spec, {a, f}, {})[0];
}

// ---- var ---------------------------------------------------------------------
// Sum of squared deviations from m in one pass (no temporary for x - m);
// complex deviations contribute |d|^2. A is the accumulation type.
const char* const kSqdevPreamble = R"(
template <class A, class X, class M> KUMO_FN A kumo_sqdev(const X& x, const M& m) {
  const A d = kumo_cast<A>(x) - kumo_cast<A>(m);
  return d * d;
}
template <class A, class T, class M> KUMO_FN A kumo_sqdev(const kumo::complex<T>& x, const M& m) {
  const kumo::complex<A> d = kumo_cast<kumo::complex<A>>(x) - kumo_cast<kumo::complex<A>>(m);
  return d.re * d.re + d.im * d.im;
}
)";

Array sum_sq_dev(const Array& a, const Array& m, const Array& where, const std::vector<int>& ax, bool keepdims,
                 Dtype acc) {
  static auto plain = kernels::ReductionSpec::create("kumo_sum_sqdev", "X x, M m", "A y", "kumo_sqdev<A>(x, m)",
                                                     "a + b", "y = a", "0", "A", kSqdevPreamble);
  static auto masked =
      kernels::ReductionSpec::create("kumo_sum_sqdev_where", "X x, M m, bool w", "A y",
                                     "w ? kumo_sqdev<A>(x, m) : A(0)", "a + b", "y = a", "0", "A", kSqdevPreamble);
  std::vector<int64_t> ax64(ax.begin(), ax.end());
  kernels::TypeBindings forced{{"A", acc}};
  if (where.defined())
    return kernels::call_reduction(*masked, {a, m, where.broadcast_to(a.shape())}, {}, ax64, false, keepdims,
                                   forced)[0];
  return kernels::call_reduction(*plain, {a, m}, {}, ax64, false, keepdims, forced)[0];
}

double resolve_ddof(const VarOptions& o) {
  if (o.correction()) {
    if (o.ddof() != 0) throw ValueError("ddof and correction can't be provided simultaneously.");
    return *o.correction();
  }
  return o.ddof();
}

}  // namespace

Array argmax(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o) {
  return arg_reduce(a, axis, o, true);
}
Array argmin(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o) {
  return arg_reduce(a, axis, o, false);
}

namespace {
// warn_empty: whether an empty slice warns (var's own mean does not: var
// warns about its degrees of freedom instead, as NumPy does).
Array mean_impl(const Array& a, const Axes& axes, const ReduceOptions& o, bool warn_empty) {
  // NumPy refuses axis 0 of a 0-d array here, unless where= is given: its
  // count is then a sum, which takes it (the legacy reading).
  const std::vector<int> ax = normalize_reduce_axes(axes, a.ndim(), o.where().defined());
  const Dtype res = mean_dtype(a.dtype(), o.dtype());
  ReduceOptions so = ReduceOptions().dtype(accumulation_dtype(res)).keepdims(o.keepdims());
  if (o.where().defined()) so.where(o.where());
  const bool into_other_out = o.out().defined() && o.out().dtype() != res;
  if (into_other_out) {
    // NumPy sums into out= (in dtype=, float64 for integer and bool input,
    // float32 for float16, else in out='s dtype) and divides there, casting
    // back unsafely: each step lands in out='s dtype.
    so = ReduceOptions().keepdims(o.keepdims()).out(o.out());
    if (o.dtype()) so.dtype(*o.dtype());
    else if (is_int_or_bool(a.dtype())) so.dtype(Dtype::kFloat64);
    else if (a.dtype() == Dtype::kFloat16) so.dtype(Dtype::kFloat32);
    if (o.where().defined()) so.where(o.where());
  }
  Array total = sum(a, to_axes(ax), so);
  Array r;
  if (o.where().defined()) {
    Array count = mask_count(a, o.where(), ax, o.keepdims());
    if (warn_empty && count.size() > 0 && any(equal(count, Scalar(0))).item<bool>()) warn("Mean of empty slice");
    r = divide(total, count);
  } else {
    const int64_t count = reduced_count(a.shape(), ax);
    if (warn_empty && count == 0 && total.size() > 0) warn("Mean of empty slice");
    r = divide(total, Scalar(count));
  }
  return finish(r.astype(into_other_out ? o.out().dtype() : res, Order::kK, false), o.out(), "mean");
}
}  // namespace

Array mean(const Array& a, const Axes& axes, const ReduceOptions& o) { return mean_impl(a, axes, o, true); }

namespace {
// NumPy's var step by step: the mean's sum in dtype= (float64 for integer
// and bool input), its quotient cast back to that sum's dtype, the squared
// deviations (|x|^2 for complex) summed in dtype= -- or in
// out='s dtype when out= is given and dtype= is not -- into out=, then the
// quotient cast back unsafely. Used where the result is not simply the
// rounded variance: an integer or bool dtype= (integer arithmetic with
// wrap-around and truncation) and out= of another dtype (each step cast
// into it); the fused sum_sq_dev kernel serves everything else.
Array var_stepwise(const Array& a, const std::vector<int>& ax, const VarOptions& o, double ddof) {
  std::optional<Dtype> d = o.dtype();
  if (!d && is_int_or_bool(a.dtype())) d = Dtype::kFloat64;
  const bool masked = o.where().defined();
  Array count = masked ? mask_count(a, o.where(), ax, true)
                       : kernels::scalar_to_array(Scalar(reduced_count(a.shape(), ax)).value(), Dtype::kInt64,
                                                  a.device());
  Array m = o.mean();
  if (!m.defined()) {
    ReduceOptions mo = ReduceOptions().keepdims(true);
    if (d) mo.dtype(*d);
    if (masked) mo.where(o.where());
    Array total = sum(a, to_axes(ax), mo);
    m = divide(total, count).astype(total.dtype(), Order::kK, false);
  }
  Array x = subtract(a, m);
  if (is_complex(x.dtype())) {
    x = add(square(x.real_view()), square(x.imag_view()));
  } else {
    x = square(x);  // bool input too: NumPy's x * conj(x) for it is the square
  }
  ReduceOptions so = ReduceOptions().keepdims(o.keepdims());
  if (d) so.dtype(*d);
  if (masked) so.where(o.where());
  if (o.out().defined()) so.out(o.out());
  Array s = sum(x, to_axes(ax), so);
  Array dof = maximum(
      subtract(o.keepdims() || !masked ? count : count.squeeze(std::vector<int64_t>(ax.begin(), ax.end())),
               Scalar(ddof)),
      0.0);
  return finish(divide(s, dof).astype(s.dtype(), Order::kK, false), o.out(), "var");
}

bool var_needs_steps(const Array& a, const VarOptions& o) {
  if (o.dtype() && !is_inexact(*o.dtype())) return true;
  if (!o.out().defined()) return false;
  const Dtype res = mean_dtype(a.dtype(), o.dtype());
  return o.out().dtype() != (o.dtype() ? res : real_dtype(res));
}
}  // namespace

Array var(const Array& a, const Axes& axes, const VarOptions& o) {
  const double ddof = resolve_ddof(o);
  const std::vector<int> ax = normalize_reduce_axes(axes, a.ndim(), o.where().defined());  // as mean's
  if (var_needs_steps(a, o)) {
    if (o.where().defined()) {
      Array dof = subtract(mask_count(a, o.where(), ax, o.keepdims()), Scalar(ddof));
      if (dof.size() > 0 && any(less_equal(dof, Scalar(0))).item<bool>()) warn("Degrees of freedom <= 0 for slice");
    } else if (static_cast<double>(reduced_count(a.shape(), ax)) - ddof <= 0) {
      warn("Degrees of freedom <= 0 for slice");
    }
    return var_stepwise(a, ax, o, ddof);
  }
  const Dtype res = mean_dtype(a.dtype(), o.dtype());
  const Dtype acc = accumulation_dtype(real_dtype(res));
  Array m = o.mean();
  if (!m.defined()) {
    ReduceOptions mo = ReduceOptions().dtype(accumulation_dtype(res)).keepdims(true);
    if (o.where().defined()) mo.where(o.where());
    m = mean_impl(a, to_axes(ax), mo, false);
  }
  Array s = sum_sq_dev(a, m, o.where(), ax, o.keepdims(), acc);
  Array r;
  if (o.where().defined()) {
    Array dof = maximum(subtract(mask_count(a, o.where(), ax, o.keepdims()), Scalar(ddof)), 0.0);
    if (dof.size() > 0 && any(less_equal(dof, Scalar(0))).item<bool>()) warn("Degrees of freedom <= 0 for slice");
    r = divide(s, dof);
  } else {
    const double dof = static_cast<double>(reduced_count(a.shape(), ax)) - ddof;
    if (dof <= 0 && s.size() > 0) warn("Degrees of freedom <= 0 for slice");
    r = divide(s, Scalar(std::max(dof, 0.0)));
  }
  // The variance is in `dtype` when one is given, even a complex one
  // (NumPy's); otherwise a complex input's is real.
  const Dtype out_dtype = o.dtype() ? res : real_dtype(res);
  return finish(r.astype(out_dtype, Order::kK, false), o.out(), "var");
}

Array std(const Array& a, const Axes& axes, const VarOptions& o) {
  if (var_needs_steps(a, o)) {
    // NumPy takes the root in place, sqrt(v, out=v), which its same_kind rule
    // refuses for an integer v; only a 0-d result without out= (a NumPy
    // scalar there) is converted back to the dtype instead.
    Array v = var(a, axes, o);
    Array root = sqrt(v);
    if (v.ndim() == 0 && !o.out().defined()) return root.astype(v.dtype(), Order::kK, false);
    if (!can_cast(root.dtype(), v.dtype(), Casting::kSameKind))
      throw CastingError(std::string("Cannot cast ufunc 'sqrt' output from dtype('") + dtype_name(root.dtype()) +
                         "') to dtype('" + dtype_name(v.dtype()) + "') with casting rule 'same_kind'");
    return finish(root.astype(v.dtype(), Order::kK, false), o.out(), "std");
  }
  VarOptions vo = o;
  vo.out(Array());
  return finish(sqrt(var(a, axes, vo)), o.out(), "std");
}

// ---- NaN-ignoring variants ----------------------------------------------------

Array nansum(const Array& a, const Axes& axes, const ReduceOptions& o) { return sum(nan_to(a, 0.0), axes, o); }
Array nanprod(const Array& a, const Axes& axes, const ReduceOptions& o) { return prod(nan_to(a, 1.0), axes, o); }

namespace {
Array nan_arg_reduce(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o, bool is_max) {
  if (!is_inexact(a.dtype())) return arg_reduce(a, axis, o, is_max);
  Array nan = isnan(a);
  Array all_nan = axis ? all(nan, *axis) : all(nan);
  if (any(all_nan).item<bool>()) throw ValueError("All-NaN slice encountered");
  const double inf = std::numeric_limits<double>::infinity();
  return arg_reduce(nan_to(a, is_max ? -inf : inf), axis, o, is_max);
}
}  // namespace

Array nanargmax(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o) {
  return nan_arg_reduce(a, axis, o, true);
}
Array nanargmin(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o) {
  return nan_arg_reduce(a, axis, o, false);
}

namespace {
// NumPy's nanmean/nanvar refuse an integer or bool dtype= or out= for a
// float or complex input, before anything else is checked.
void check_inexact_request(std::optional<Dtype> dtype, const Array& out) {
  if (dtype && !is_inexact(*dtype)) throw TypeError("If a is inexact, then dtype must be inexact");
  if (out.defined() && !is_inexact(out.dtype())) throw TypeError("If a is inexact, then out must be inexact");
}

Array nanmean_impl(const Array& a, const Axes& axes, const ReduceOptions& o, bool warn_empty) {
  if (!is_inexact(a.dtype())) return mean_impl(a, axes, o, warn_empty);
  check_inexact_request(o.dtype(), o.out());
  // NumPy's nan-statistics of float input are sums, which take axis 0 of a
  // 0-d array (the legacy reading); mean and var themselves refuse it.
  const std::vector<int> ax = normalize_reduce_axes(axes, a.ndim(), true);
  Array notnan = logical_not(isnan(a));
  if (o.where().defined()) notnan = logical_and(notnan, o.where());
  Array cnt = sum(notnan, to_axes(ax), ReduceOptions().dtype(Dtype::kInt64).keepdims(o.keepdims()));
  ReduceOptions so = ReduceOptions().keepdims(o.keepdims());
  if (o.dtype()) so.dtype(*o.dtype());
  if (o.where().defined()) so.where(o.where());
  Array tot = nansum(a, to_axes(ax), so);
  if (warn_empty && cnt.size() > 0 && any(equal(cnt, Scalar(0))).item<bool>()) warn("Mean of empty slice");
  return finish(divide(tot, cnt).astype(tot.dtype(), Order::kK, false), o.out(), "nanmean");
}
}  // namespace

Array nanmean(const Array& a, const Axes& axes, const ReduceOptions& o) { return nanmean_impl(a, axes, o, true); }

Array nanvar(const Array& a, const Axes& axes, const VarOptions& o) {
  const double ddof = resolve_ddof(o);
  if (!is_inexact(a.dtype())) {
    return var(a, axes, o);
  }
  check_inexact_request(o.dtype(), o.out());
  // NumPy's nan-statistics of float input are sums, which take axis 0 of a
  // 0-d array (the legacy reading); mean and var themselves refuse it.
  const std::vector<int> ax = normalize_reduce_axes(axes, a.ndim(), true);
  // NumPy subtracts a complex dtype='s mean from the real input in place.
  if (o.dtype()) warn_if_complex_to_real(*o.dtype(), a.dtype());
  Array notnan = logical_not(isnan(a));
  if (o.where().defined()) notnan = logical_and(notnan, o.where());
  Array m = o.mean();
  if (!m.defined()) {
    ReduceOptions mo = ReduceOptions().keepdims(true);
    if (o.dtype()) mo.dtype(*o.dtype());
    if (o.where().defined()) mo.where(o.where());
    m = nanmean_impl(a, to_axes(ax), mo, false);
  }
  // NaN elements deviate by 0 and are not counted.
  const Dtype acc = accumulation_dtype(real_dtype(o.dtype() ? *o.dtype() : a.dtype()));
  Array s = sum_sq_dev(nan_to(a, 0.0), m, notnan, ax, o.keepdims(), acc);
  Array dof =
      subtract(sum(notnan, to_axes(ax), ReduceOptions().dtype(Dtype::kInt64).keepdims(o.keepdims())), Scalar(ddof));
  if (dof.size() > 0 && any(less_equal(dof, Scalar(0))).item<bool>()) warn("Degrees of freedom <= 0 for slice.");
  // In dtype= when one is given, complex too (as var); else real.
  Array r = divide(s, dof).astype(o.dtype() ? *o.dtype() : real_dtype(a.dtype()), Order::kK, false);
  // Slices with no degrees of freedom left are NaN, as in NumPy.
  Array nan_fill =
      kernels::scalar_to_array(Scalar(std::numeric_limits<double>::quiet_NaN()).value(), r.dtype(), r.device());
  r = select(less_equal(dof, 0.0), nan_fill.broadcast_to(r.shape()), r);
  return finish(r, o.out(), "nanvar");
}

Array nanstd(const Array& a, const Axes& axes, const VarOptions& o) {
  if (is_inexact(a.dtype())) check_inexact_request(o.dtype(), o.out());
  VarOptions vo = o;
  vo.out(Array());
  return finish(sqrt(nanvar(a, axes, vo)), o.out(), "nanstd");
}

Array nancumsum(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o) {
  return cumsum(nan_to(a, 0.0), axis, o);
}
Array nancumprod(const Array& a, std::optional<int64_t> axis, const ReduceOptions& o) {
  return cumprod(nan_to(a, 1.0), axis, o);
}

}  // namespace kumo
