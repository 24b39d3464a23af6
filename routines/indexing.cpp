#include "routines/indexing.h"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <tuple>
#include <string>

#include "core/errors.h"
#include "kernels/scalar_assign.h"
#include "kernels/elementwise.h"
#include "kernels/reduction.h"
#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/interop.h"
#include "routines/reduction.h"

namespace kumo {

namespace {

using kernels::ElementwiseSpec;
using kernels::ReductionSpec;

// The kernels' index mode for byte offsets that need no fixing (see
// kIndexPreamble); IndexMode's values are 0, 1 and 2.
constexpr int kOffsetMode = 3;

// ---- kernels ----------------------------------------------------------------

// An index brought into [0, n): mode 0 takes negative indices from the end
// (bounds were checked before the launch), 1 wraps, 2 clips. Mode 3
// (kOffsetMode) passes v through: it is a byte offset combined from several
// index arrays already checked, negative where an indexed axis has a
// negative stride, so it must not be taken for an index from the end.
const char* const kIndexPreamble = R"(
static KUMO_FN int64_t kumo_index_fix(int64_t v, int64_t n, int mode) {
  if (mode == 3) return v;
  if (mode == 0) return v < 0 ? v + n : v;
  if (mode == 1) { v %= n; return v < 0 ? v + n : v; }
  return v < 0 ? 0 : (v >= n ? n - 1 : v);
}
// Mode 0 with a check: an index outside [-n, n) sets *err and reads 0.
static KUMO_FN int64_t kumo_index_checked(int64_t v, int64_t n, int mode, int32_t* err) {
  if (mode != 0) return kumo_index_fix(v, n, mode);
  if (v < -n || v >= n) {
    *err = 1;
    return 0;
  }
  return v < 0 ? v + n : v;
}
template <class T> static KUMO_FN T* kumo_shift(T* p, int64_t bytes) {
  return reinterpret_cast<T*>(reinterpret_cast<char*>(p) + bytes);
}
)";

// Additions that several CUDA threads may make to one element: atomicAdd
// where CUDA has it, complex numbers part by part, and a compare-and-swap on
// the enclosing 32-bit word for 1- and 2-byte types. On the host the
// scatter-add runs on one thread, in C order.
const char* const kAtomicAddPreamble = R"(
#if defined(__CUDA_ARCH__)
static KUMO_FN void kumo_atomic_add(float* p, float v) { atomicAdd(p, v); }
static KUMO_FN void kumo_atomic_add(double* p, double v) { atomicAdd(p, v); }
static KUMO_FN void kumo_atomic_add(int32_t* p, int32_t v) { atomicAdd(reinterpret_cast<int*>(p), (int)v); }
static KUMO_FN void kumo_atomic_add(uint32_t* p, uint32_t v) { atomicAdd(reinterpret_cast<unsigned*>(p), (unsigned)v); }
static KUMO_FN void kumo_atomic_add(int64_t* p, int64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
}
static KUMO_FN void kumo_atomic_add(uint64_t* p, uint64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
}
static KUMO_FN void kumo_atomic_add(kumo::complex<float>* p, kumo::complex<float> v) {
  atomicAdd(&p->re, v.re);
  atomicAdd(&p->im, v.im);
}
static KUMO_FN void kumo_atomic_add(kumo::complex<double>* p, kumo::complex<double> v) {
  atomicAdd(&p->re, v.re);
  atomicAdd(&p->im, v.im);
}
template <class T> static KUMO_FN void kumo_atomic_add(T* p, T v) {
  unsigned* word = reinterpret_cast<unsigned*>(reinterpret_cast<unsigned long long>(p) & ~3ull);
  const unsigned shift = (unsigned)(reinterpret_cast<unsigned long long>(p) & 3ull) * 8u;
  const unsigned mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
  unsigned old = *word, assumed;
  do {
    assumed = old;
    unsigned bits = (assumed & mask) >> shift;
    T cur;
    unsigned char* cb = reinterpret_cast<unsigned char*>(&cur);
    for (unsigned k = 0; k < sizeof(T); ++k) cb[k] = (unsigned char)(bits >> (8 * k));
    T next = T(cur + v);
    const unsigned char* nb = reinterpret_cast<const unsigned char*>(&next);
    unsigned nbits = 0;
    for (unsigned k = 0; k < sizeof(T); ++k) nbits |= (unsigned)nb[k] << (8 * k);
    old = atomicCAS(word, assumed, (assumed & ~mask) | (nbits << shift));
  } while (assumed != old);
}
#else
template <class T> static KUMO_FN void kumo_atomic_add(T* p, T v) { *p = T(*p + v); }
#endif
)";

std::shared_ptr<ElementwiseSpec> make_spec(const char* name, const char* in, const char* out, const char* op,
                                           const std::string& preamble = kIndexPreamble) {
  return ElementwiseSpec::create(name, in, out, op, preamble);
}

// The gather and scatter kernels. Each element moves between position
// (b..., r...) of the (index dims..., rest dims...) iteration and the
// element of the rest view at r shifted by index(b...) * s bytes; without
// rest dims the base is the view's pointer (no division by `rest`).
enum class IndexKernel { kGather, kScatter, kScatterDistinct, kScatterAdd };

const ElementwiseSpec& index_kernel(IndexKernel kind, bool has_rest) {
  static const auto specs = [] {
    std::array<std::array<std::shared_ptr<ElementwiseSpec>, 2>, 4> t;
    for (int r = 0; r < 2; ++r) {
      const std::string suffix = r ? "_rest" : "";
      auto base = [&](const char* p) { return r ? std::string("&") + p + ".at(i % rest)" : std::string(p) + ".data()"; };
      // A gather checks its indices as it goes and flags the bad ones in
      // err (reading element 0 instead), so valid indices cost no extra pass.
      t[0][r] = make_spec(("kumo_gather" + suffix).c_str(),
                          "int64 idx, raw T src, int64 n, int64 s, int64 rest, int32 mode, raw int32 err", "T y",
                          ("y = *kumo_shift(" + base("src") + ", kumo_index_checked(idx, n, mode, err.data()) * s)")
                              .c_str());
      // Scatters are checked before they write anything. With repeated
      // indices the last write in C order wins, as NumPy's, so the host runs
      // them as one task; a mask's positions are distinct and go parallel.
      const char* scatter_in = "int64 idx, T x, int64 n, int64 s, int64 rest, int32 mode";
      const std::string target = "kumo_shift(" + base("dst") + ", kumo_index_fix(idx, n, mode) * s)";
      t[1][r] = make_spec(("kumo_scatter" + suffix).c_str(), scatter_in, "raw T dst", ("*" + target + " = x").c_str());
      t[1][r]->host_grain = INT64_MAX;
      t[2][r] = make_spec(("kumo_scatter_distinct" + suffix).c_str(), scatter_in, "raw T dst",
                          ("*" + target + " = x").c_str());
      t[3][r] = make_spec(("kumo_scatter_add" + suffix).c_str(), scatter_in, "raw T dst",
                          ("kumo_atomic_add(" + target + ", x)").c_str(),
                          std::string(kIndexPreamble) + kAtomicAddPreamble);
      t[3][r]->host_grain = INT64_MAX;  // deterministic on the host: one task, C order
    }
    return t;
  }();
  return *specs[static_cast<size_t>(kind)][has_rest ? 1 : 0];
}

// Byte offsets of several index arrays combined: o = acc + index * s
// (checked as the gather checks).
const ElementwiseSpec& offset_spec() {
  static auto spec = make_spec("kumo_index_offset",
                               "int64 idx, int64 acc, int64 n, int64 s, int32 mode, raw int32 err", "int64 o",
                               "o = acc + kumo_index_checked(idx, n, mode, err.data()) * s");
  return *spec;
}

// put: dst.flat[fix(idx)] = x.flat[i % vsize], in C order (repeats: last wins).
const ElementwiseSpec& put_spec() {
  static auto spec = [] {
    auto s = make_spec("kumo_put", "int64 idx, raw T x, int64 n, int64 vsize, int32 mode", "raw T dst",
                       "dst.at(kumo_index_fix(idx, n, mode)) = x.at(i % vsize)");
    s->host_grain = INT64_MAX;
    return s;
  }();
  return *spec;
}

// putmask: y.flat[i] = v.flat[i % vsize] where m.
const ElementwiseSpec& putmask_spec() {
  static auto spec = make_spec("kumo_putmask", "bool m, raw T v, int64 vsize", "T y", "if (m) y = v.at(i % vsize)");
  return *spec;
}

// Whether an index lies outside [-n, n).
const ReductionSpec& out_of_bounds_spec() {
  static auto spec = ReductionSpec::create("kumo_index_out_of_bounds", "int64 x, int64 n", "bool bad",
                                           "(x < -n || x >= n)", "a || b", "bad = a", "false", "bool");
  return *spec;
}

// Stream compaction in three launches over chunks of a contiguous boolean
// mask: count the true elements of each chunk, prefix-sum the counts, then
// let each chunk write its part (indices, or the selected elements) from
// its offset. One task per chunk: the chunks are few and each is long.
// The writes are branch-free (write every element, advance the output on
// true ones), because a branch on random masks mispredicts; each chunk
// stops once its last output is written, so it never writes into the
// next chunk's part.
std::shared_ptr<ElementwiseSpec> one_task_per_chunk(std::shared_ptr<ElementwiseSpec> s) {
  s->host_grain = 1;
  return s;
}

// The count step over chunks of `m`: `load` declares q over m's data,
// `truth` is whether element k counts.
std::shared_ptr<ElementwiseSpec> chunk_count(const char* name, const std::string& mask, const std::string& load,
                                             const std::string& truth) {
  return one_task_per_chunk(make_spec(
      name, (mask + " m, int64 n, int64 chunk").c_str(), "int64 c",
      // Summed into 32 bits in blocks: a loop the compiler vectorizes.
      (load + "int64_t b = i * chunk, e = b + chunk < n ? b + chunk : n; int64_t s = 0;"
              "while (b < e) { int64_t stop = e - b > (1 << 20) ? b + (1 << 20) : e; uint32_t acc = 0;"
              "  for (int64_t k = b; k < stop; ++k) acc += " + truth + ";"
              "  s += acc; b = stop; }"
              "c = s")
          .c_str()));
}

// The write step of a compaction over a mask of element type `mask_type`:
// `value` is what position k contributes, `truth` whether it is kept.
std::shared_ptr<ElementwiseSpec> compaction_write(const char* name, const std::string& mask_type,
                                                  const std::string& truth, const std::string& in,
                                                  const char* out_type, const std::string& value) {
  return one_task_per_chunk(make_spec(
      name, ("raw " + mask_type + " m, int64 n, int64 chunk, int64 c, int64 end" + in).c_str(), out_type,
      ("const " + mask_type + "* q = m.data(); auto* d = dst.data(); int64_t o = end - c;"
       "int64_t b = i * chunk, e = b + chunk < n ? b + chunk : n;"
       "if (o < end) for (int64_t k = b; k < e; ++k) { d[o] = " + value + "; o += " + truth +
       "; if (o == end) break; }")
          .c_str()));
}

// Boolean masks: bytes summed as they are.
const ElementwiseSpec& count_spec() {
  static auto spec = chunk_count("kumo_chunk_count", "raw bool",
                                 "const unsigned char* q = reinterpret_cast<const unsigned char*>(m.data());", "q[k]");
  return *spec;
}

const ElementwiseSpec& write_indices_spec() {
  static auto spec = compaction_write("kumo_chunk_indices", "bool", "q[k]", "", "raw int64 dst", "k");
  return *spec;
}

// The same two steps over the values themselves (nonzero of a number
// array): x != 0 is the truth, so no boolean copy of the input is made.
const ElementwiseSpec& count_nonzero_spec() {
  static auto spec = chunk_count("kumo_chunk_count_nonzero", "raw T", "const T* q = m.data();", "q[k] != T(0)");
  return *spec;
}

const ElementwiseSpec& write_nonzero_indices_spec() {
  static auto spec =
      compaction_write("kumo_chunk_nonzero_indices", "T", "q[k] != T(0)", "", "raw int64 dst", "k");
  return *spec;
}

const ElementwiseSpec& write_values_spec() {
  static auto spec = compaction_write("kumo_chunk_values", "bool", "q[k]", ", raw T src", "raw T dst", "src.at(k)");
  return *spec;
}

const ElementwiseSpec& unravel_spec() {
  static auto spec = make_spec("kumo_unravel", "int64 flat, int64 dim, int64 div", "int64 coord",
                               "coord = (flat / div) % dim");
  return *spec;
}

// ---- helpers ----------------------------------------------------------------

Array int64_scalar(int64_t v, Device& device) {
  return kernels::scalar_to_array(Scalar(v).value(), Dtype::kInt64, device);
}
Array int32_scalar(int v, Device& device) { return kernels::scalar_to_array(Scalar(v).value(), Dtype::kInt32, device); }

std::string shape_str(const Shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// The mask as a contiguous boolean array (nonzero's truth of any dtype).
Array contiguous_mask(const Array& mask) {
  if (mask.dtype() == Dtype::kBool && mask.c_contiguous()) return mask;
  return mask.astype(Dtype::kBool, Order::kC);
}

// What nonzero reads: integers and float32/64 as they are (C order; the
// kernels test x != 0), float16 and complex as booleans.
Array nonzero_source(const Array& a) {
  const Dtype d = a.dtype();
  if (d == Dtype::kBool || d == Dtype::kFloat16 || is_complex(d)) return contiguous_mask(a);
  return a.c_contiguous() ? a : a.copy(Order::kC);
}

struct Compaction {
  Array mask;  // contiguous bool
  Array counts, ends;
  int64_t chunk = 0, total = 0;
};

// `numbers`: mask_in is counted by its nonzero values (nonzero_source)
// rather than as a boolean mask.
Compaction count_true(const Array& mask_in, bool numbers = false) {
  Compaction c;
  c.mask = numbers ? nonzero_source(mask_in) : contiguous_mask(mask_in);
  const bool values = c.mask.dtype() != Dtype::kBool;
  const int64_t n = c.mask.size();
  Device& device = c.mask.device();
  // Host chunks: a few hundred tasks at most; CUDA: one short chunk per thread.
  c.chunk = device.type() == DeviceType::kCPU ? std::max<int64_t>(4096, (n + 255) / 256) : 256;
  const int64_t nchunks = std::max<int64_t>(1, (n + c.chunk - 1) / c.chunk);
  c.counts = Array::empty(Shape{nchunks}, Dtype::kInt64, device);
  kernels::call_elementwise(values ? count_nonzero_spec() : count_spec(), {c.mask.reshape(Shape{n}), int64_scalar(n, device),
                                           int64_scalar(c.chunk, device)},
                            {c.counts});
  c.ends = cumsum(c.counts);
  c.total = c.ends(nchunks - 1).item<int64_t>();
  return c;
}

// The flat (C-order) positions of the true (nonzero) elements of `mask`.
Array flat_true_positions(const Array& mask) {
  Compaction c = count_true(mask, /*numbers=*/true);
  Device& device = c.mask.device();
  Array out = Array::empty(Shape{c.total}, Dtype::kInt64, device);
  if (c.total > 0)
    kernels::call_elementwise(c.mask.dtype() != Dtype::kBool ? write_nonzero_indices_spec() : write_indices_spec(),
                              {c.mask.reshape(Shape{c.mask.size()}), int64_scalar(c.mask.size(), device),
                               int64_scalar(c.chunk, device), c.counts, c.ends},
                              {out});
  return out;
}

// a.flat[mask.flat] for a mask of a's size.
Array compact(const Array& a, const Array& mask) {
  Compaction c = count_true(mask);
  Device& device = a.device();
  Array out = Array::empty(Shape{c.total}, a.dtype(), device);
  if (c.total > 0)
    kernels::call_elementwise(write_values_spec(),
                              {c.mask.reshape(Shape{c.mask.size()}), int64_scalar(c.mask.size(), device),
                               int64_scalar(c.chunk, device), c.counts, c.ends, a},
                              {out});
  return out;
}

Array as_index_array(const Array& arr, Device& device) {
  if (!is_integer(arr.dtype()))
    throw IndexError("arrays used as indices must be of integer (or boolean) type");
  Array r = arr.astype(Dtype::kInt64, Order::kK, false);
  return &r.device() == &device ? r : r.to_device(device);
}

// IndexError (NumPy's message) when an index of `idx` is outside [-n, n).
void check_bounds(const Array& idx, int64_t n, int axis) {
  if (idx.size() == 0) return;
  Device& device = idx.device();
  Array bad =
      kernels::call_reduction(out_of_bounds_spec(), {idx, int64_scalar(n, device)}, {Array()}, {}, true, false)[0];
  if (!bad.item<bool>()) return;
  const int64_t hi = max(idx).item<int64_t>(), lo = min(idx).item<int64_t>();
  const int64_t v = hi >= n ? hi : lo;
  throw IndexError("index " + std::to_string(v) + " is out of bounds for axis " + std::to_string(axis) +
                   " with size " + std::to_string(n));
}

// ---- resolving an index expression -------------------------------------------

// a[index] seen as a view of `a` and a set of index arrays: the basic
// components are applied to the view; each axis an index array takes is kept
// whole in it.
struct Resolved {
  Array view;
  bool advanced = false;
  std::vector<int> axes;         // the axes of `view` the index arrays take
  std::vector<int> a_axes;       // the axes of `a` they came from (-1: a boolean scalar's new axis)
  std::vector<Array> arrays;     // int64, on a's device, not yet broadcast
  Shape index_shape;             // their broadcast shape
  int insert_at = 0;             // where index_shape goes among the other axes of `view`
  bool distinct = false;         // one mask's positions: no index repeats
  bool single_full_mask = false;  // one mask of a's whole shape
  Array full_mask;

  // The axes of `view` not taken by index arrays, in order.
  Array rest() const {
    Shape s;
    Strides st;
    for (int d = 0; d < view.ndim(); ++d) {
      if (std::find(axes.begin(), axes.end(), d) != axes.end()) continue;
      s.push_back(view.shape()[d]);
      st.push_back(view.strides()[d]);
    }
    return view.view_with(s, st, 0);
  }
  Shape result_shape(const Shape& rest_shape) const {
    Shape s;
    for (int d = 0; d < insert_at; ++d) s.push_back(rest_shape[d]);
    for (int d = 0; d < index_shape.size(); ++d) s.push_back(index_shape[d]);
    for (int d = insert_at; d < rest_shape.size(); ++d) s.push_back(rest_shape[d]);
    return s;
  }
  // The permutation taking the result's axes to (index dims..., rest dims...).
  std::vector<int64_t> index_first(int result_ndim) const {
    std::vector<int64_t> perm;
    const int nb = index_shape.size();
    for (int d = insert_at; d < insert_at + nb; ++d) perm.push_back(d);
    for (int d = 0; d < insert_at; ++d) perm.push_back(d);
    for (int d = insert_at + nb; d < result_ndim; ++d) perm.push_back(d);
    return perm;
  }
};

bool is_mask(const Index& ix) { return ix.is_array() && ix.array().dtype() == Dtype::kBool; }

Resolved resolve(const Array& a, const std::vector<Index>& index) {
  Resolved r;
  // Any array in the index makes it advanced, a 0-d integer array too
  // (NumPy's): the result is then a copy, never a view of `a`.
  bool any_advanced = false;
  for (const Index& ix : index)
    if (ix.is_boolean_scalar() || ix.is_array()) any_advanced = true;
  if (!any_advanced) {
    std::vector<IndexItem> items;
    items.reserve(index.size());
    for (const Index& ix : index) items.push_back(ix.item());
    r.view = a.index(items);
    return r;
  }
  r.advanced = true;
  Device& device = a.device();
  int consumed = 0, n_ellipsis = 0;
  for (const Index& ix : index) {
    if (is_mask(ix)) consumed += ix.array().ndim();
    else if (ix.is_array()) ++consumed;
    else if (ix.is_boolean_scalar()) continue;
    else if (ix.item().kind == IndexItem::Kind::kEllipsis) ++n_ellipsis;
    else if (ix.item().kind != IndexItem::Kind::kNewAxis) ++consumed;
  }
  if (n_ellipsis > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > a.ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");

  // Advanced components (arrays, booleans, and integers alongside them) that
  // a slice, newaxis or Ellipsis separates send the index dimensions first.
  std::vector<IndexItem> items;
  int dim = 0, vpos = 0, rest_count = 0, first_rest = -1;
  bool gap = false, separated = false;
  int n_masks = 0, n_advanced = 0;
  auto advanced_component = [&] {
    ++n_advanced;
    if (first_rest >= 0 && gap) separated = true;
    if (first_rest < 0) first_rest = rest_count;
    gap = false;
  };
  auto basic_component = [&] {
    if (first_rest >= 0) gap = true;
  };
  auto take_axis = [&](Array arr, int a_axis) {
    items.push_back(all());
    r.axes.push_back(vpos++);
    r.a_axes.push_back(a_axis);
    r.arrays.push_back(std::move(arr));
  };
  for (const Index& ix : index) {
    if (ix.is_boolean_scalar() || (is_mask(ix) && ix.array().ndim() == 0)) {
      const bool value = ix.is_boolean_scalar() ? ix.boolean() : ix.array().item<bool>();
      advanced_component();
      items.push_back(IndexItem::new_axis());
      r.axes.push_back(vpos++);
      r.a_axes.push_back(-1);
      r.arrays.push_back(value ? asarray<int64_t>({0}, device) : Array::empty(Shape{0}, Dtype::kInt64, device));
      ++n_masks;
    } else if (is_mask(ix)) {
      const Array& mask = ix.array();
      for (int k = 0; k < mask.ndim(); ++k)
        if (mask.shape()[k] != a.shape()[dim + k])
          throw IndexError("boolean index did not match indexed array along axis " + std::to_string(dim + k) +
                           "; size of axis is " + std::to_string(a.shape()[dim + k]) +
                           " but size of corresponding boolean axis is " + std::to_string(mask.shape()[k]));
      advanced_component();
      ++n_masks;
      if (mask.ndim() == a.ndim()) r.full_mask = mask;
      std::vector<Array> coords = nonzero(&mask.device() == &device ? mask : mask.to_device(device));
      for (Array& c : coords) take_axis(std::move(c), dim++);
    } else if (ix.is_array()) {
      advanced_component();
      take_axis(as_index_array(ix.array(), device), dim++);
    } else {
      const IndexItem& it = ix.item();
      items.push_back(it);
      switch (it.kind) {
        case IndexItem::Kind::kInt:
          advanced_component();
          ++dim;
          break;
        case IndexItem::Kind::kSlice:
          basic_component();
          ++dim, ++vpos, ++rest_count;
          break;
        case IndexItem::Kind::kNewAxis:
          basic_component();
          ++vpos, ++rest_count;
          break;
        case IndexItem::Kind::kEllipsis: {
          basic_component();
          const int fill = a.ndim() - consumed;
          dim += fill, vpos += fill, rest_count += fill;
          break;
        }
      }
    }
  }
  r.view = a.index(items);
  r.insert_at = separated ? 0 : first_rest;
  r.distinct = n_masks == 1 && n_advanced == 1;
  r.single_full_mask = r.distinct && r.full_mask.defined() && index.size() == 1;
  std::vector<Shape> shapes;
  for (const Array& arr : r.arrays) shapes.push_back(arr.shape());
  try {
    r.index_shape = broadcast_shapes(shapes);
  } catch (const ValueError&) {
    std::string msg = "shape mismatch: indexing arrays could not be broadcast together with shapes";
    for (const Shape& s : shapes) msg += " " + shape_str(s);
    throw IndexError(msg);
  }
  return r;
}

// The byte-offset operand of the gather and scatter kernels, broadcast to
// (index dims..., rest dims...), with its n, s and mode.
struct IndexOperand {
  Array idx, n, s, mode;
  Array err;  // int32, set by the checked kernels when an index is out of bounds
};

// IndexError naming a bad index (NumPy's message) for r's index arrays.
// NumPy checks the index arrays only when their broadcast shape is not
// empty, except 0-d integer arrays, which it checks as the integers they
// are (a[:, array(7), array(False)] raises on an axis of 2).
void check_all_bounds(const Resolved& r) {
  const bool all = shape_size(r.index_shape) > 0;
  for (size_t j = 0; j < r.arrays.size(); ++j)
    if (r.a_axes[j] >= 0 && (all || r.arrays[j].ndim() == 0))
      check_bounds(r.arrays[j], r.view.shape()[r.axes[j]], r.a_axes[j]);
}

bool needs_check(const Resolved& r, IndexMode mode) {
  if (mode != IndexMode::kRaise) return false;
  if (shape_size(r.index_shape) > 0) return true;
  for (size_t j = 0; j < r.arrays.size(); ++j)
    if (r.a_axes[j] >= 0 && r.arrays[j].ndim() == 0) return true;
  return false;
}

// The index operand of the gather and scatter kernels: one index array as
// it is, several combined into byte offsets; broadcast to (index dims...,
// rest dims...).
IndexOperand index_operand(const Resolved& r, const Shape& rest_shape, IndexMode mode) {
  Device& device = r.view.device();
  const int imode = static_cast<int>(mode);
  IndexOperand op;
  op.err = zeros(Shape{1}, Dtype::kInt32, Order::kC, device);
  Array idx;
  if (r.arrays.size() == 1) {
    idx = r.arrays[0];
    op.n = int64_scalar(r.view.shape()[r.axes[0]], device);
    op.s = int64_scalar(r.view.strides()[r.axes[0]], device);
    op.mode = int32_scalar(imode, device);
  } else {
    idx = int64_scalar(0, device);
    for (size_t j = 0; j < r.arrays.size(); ++j) {
      const int ax = r.axes[j];
      idx = kernels::call_elementwise(offset_spec(),
                                      {r.arrays[j], idx, int64_scalar(r.view.shape()[ax], device),
                                       int64_scalar(r.view.strides()[ax], device), int32_scalar(imode, device),
                                       op.err},
                                      {Array()})[0];
    }
    // The offsets were checked as they were combined; they are used as they
    // are (a negative one is a step back along a negative stride).
    op.n = int64_scalar(INT64_MAX, device);
    op.s = int64_scalar(1, device);
    op.mode = int32_scalar(kOffsetMode, device);
  }
  Shape b = r.index_shape, full = r.index_shape;
  for (int d = 0; d < rest_shape.size(); ++d) b.push_back(1), full.push_back(rest_shape[d]);
  op.idx = idx.broadcast_to(r.index_shape).reshape(b).broadcast_to(full);
  return op;
}

bool flagged(const IndexOperand& op) { return op.err.item<int32_t>() != 0; }

Array gather(const Resolved& r, IndexMode mode) {
  const Array rest = r.rest();
  const Shape shape = r.result_shape(rest.shape());
  Array out = Array::empty(shape, r.view.dtype(), r.view.device());
  const bool check = needs_check(r, mode);
  bool empty_axis = false;
  for (size_t j = 0; j < r.axes.size(); ++j) empty_axis |= r.view.shape()[r.axes[j]] == 0;
  if (out.size() == 0 || empty_axis) {
    if (check) check_all_bounds(r);
    if (out.size() == 0) return out;
    throw IndexError("cannot do a non-empty take from an empty axes.");
  }
  IndexOperand op = index_operand(r, rest.shape(), mode);
  kernels::call_elementwise(index_kernel(IndexKernel::kGather, rest.ndim() > 0),
                            {op.idx, rest, op.n, op.s, int64_scalar(std::max<int64_t>(rest.size(), 1), rest.device()),
                             op.mode, op.err},
                            {out.transpose(r.index_first(out.ndim()))});
  if (check && flagged(op)) {
    check_all_bounds(r);
    throw IndexError("index out of bounds");  // not reached: the check above names the index
  }
  return out;
}

// `value` made to broadcast to `shape` as NumPy's assignment allows (extra
// leading axes of length 1 dropped), else ValueError.
// The value's shape without the leading unit axes NumPy drops before it
// broadcasts a value into an indexing result; false when it cannot broadcast
// to `shape`.
bool value_fits(const Shape& value, const Shape& shape, Shape* stripped) {
  Shape vs = value;
  while (vs.size() > shape.size() && vs[0] == 1) vs = Shape(std::vector<int64_t>(vs.begin() + 1, vs.end()));
  bool ok = vs.size() <= shape.size();
  for (int k = 1; ok && k <= vs.size(); ++k) {
    const int64_t v = vs[vs.size() - k], d = shape[shape.size() - k];
    ok = v == 1 || v == d;
  }
  if (stripped) *stripped = vs;
  return ok;
}

Array fit_value(const Array& value, const Shape& shape, bool advanced) {
  Shape vs;
  if (!value_fits(value.shape(), shape, &vs)) {
    if (advanced)
      throw ValueError("shape mismatch: value array of shape " + shape_str(value.shape()) +
                       " could not be broadcast to indexing result of shape " + shape_str(shape));
    throw ValueError("could not broadcast input array from shape " + shape_str(value.shape()) + " into shape " +
                     shape_str(shape));
  }
  return value.reshape(vs).broadcast_to(shape);
}

void scatter(const Resolved& r, const Array& value_in, IndexMode mode, bool add) {
  const Array rest = r.rest();
  const Shape shape = r.result_shape(rest.shape());
  Array value = value_in.astype(r.view.dtype(), Order::kK, false);
  if (&value.device() != &r.view.device()) value = value.to_device(r.view.device());
  // The value may be a view of the destination (a[i] = a[::-1]): read it first.
  if (value.shares_memory_with(r.view)) value = value.copy();
  value = fit_value(value, shape, true);
  if (needs_check(r, mode)) check_all_bounds(r);  // before anything is written
  if (shape_size(shape) == 0) return;
  IndexOperand op = index_operand(r, rest.shape(), mode);
  const IndexKernel kind =
      add ? IndexKernel::kScatterAdd : (r.distinct ? IndexKernel::kScatterDistinct : IndexKernel::kScatter);
  kernels::call_elementwise(index_kernel(kind, rest.ndim() > 0),
                            {op.idx, value.transpose(r.index_first(value.ndim())), op.n, op.s,
                             int64_scalar(std::max<int64_t>(rest.size(), 1), rest.device()), op.mode},
                            {rest});
}


// The index arrays of take_along_axis: `indices` on `axis`, an arange
// broadcast along every other axis.
std::vector<Index> along_axis(const Array& a, const Array& indices, int axis) {
  if (!is_integer(indices.dtype())) throw IndexError("`indices` must be an integer array");
  if (indices.ndim() != a.ndim())
    throw ValueError("`indices` and `arr` must have the same number of dimensions");
  std::vector<Index> index;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d == axis) {
      index.emplace_back(indices);
      continue;
    }
    std::vector<int64_t> ar(static_cast<size_t>(a.shape()[d]));
    for (size_t k = 0; k < ar.size(); ++k) ar[k] = static_cast<int64_t>(k);
    Shape s(std::vector<int64_t>(static_cast<size_t>(a.ndim()), 1));
    s[d] = a.shape()[d];
    index.emplace_back(asarray(ar, s, a.device()));
  }
  return index;
}

}  // namespace

// ---- public routines ----------------------------------------------------------

Array getitem(const Array& a, const std::vector<Index>& index) {
  Resolved r = resolve(a, index);
  if (!r.advanced) return r.view;
  if (r.single_full_mask) return compact(a, r.full_mask);
  return gather(r, IndexMode::kRaise);
}

void setitem(const Array& a, const std::vector<Index>& index, const Array& value) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  // One mask over the whole array and a single value: a masked fill, without
  // finding the positions.
  if (index.size() == 1 && is_mask(index[0]) && index[0].array().shape() == a.shape() && value.size() == 1 &&
      a.ndim() > 0) {
    const Array& mask = index[0].array();
    Array v = value.astype(a.dtype(), Order::kK, false).reshape(Shape{});
    copyto(a, &v.device() == &a.device() ? v : v.to_device(a.device()), Casting::kUnsafe,
           &mask.device() == &a.device() ? mask : mask.to_device(a.device()));
    return;
  }
  Resolved r = resolve(a, index);
  if (!r.advanced) {
    Array v = value;
    if (v.shares_memory_with(r.view)) v = v.copy();
    v = fit_value(&v.device() == &a.device() ? v : v.to_device(a.device()), r.view.shape(), false);
    copyto(r.view, v, Casting::kUnsafe);
    return;
  }
  scatter(r, value, IndexMode::kRaise, false);
}

void setitem(const Array& a, const std::vector<Index>& index, Scalar value) {
  Array v = kernels::scalar_to_array(kernels::assigned_scalar(value.value(), a.dtype()), a.dtype(), a.device());
  setitem(a, index, v);
}

void scatter_add(const Array& a, const std::vector<Index>& index, const Array& values) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (!can_cast(values.dtype(), a.dtype(), Casting::kSameKind))
    throw CastingError("Cannot cast ufunc 'add' output from " + dtype_repr(values.dtype()) + " to " +
                       dtype_repr(a.dtype()) + " with casting rule 'same_kind'");
  Resolved r = resolve(a, index);
  if (!r.advanced) {
    // Basic indices name each element once: an ordinary in-place add.
    call_ufunc("add", {r.view, values}, UfuncOptions(r.view));
    return;
  }
  scatter(r, values, IndexMode::kRaise, true);
}

namespace {

// The sequential kernel of ufunc.at for one loop of a ufunc: a single
// element walks every index in C order and applies the loop's operation to
// the addressed element (repeats apply again, as NumPy's).
const ElementwiseSpec& ufunc_at_spec(const kernels::Ufunc& ufunc, int loop, bool has_rest) {
  static std::mutex mu;
  static std::map<std::tuple<const kernels::Ufunc*, int, bool>, std::shared_ptr<ElementwiseSpec>> specs;
  std::lock_guard<std::mutex> lock(mu);
  auto& spec = specs[{&ufunc, loop, has_rest}];
  if (spec) return *spec;
  const kernels::UfuncLoop& l = ufunc.loops()[static_cast<size_t>(loop)];
  const bool binary = ufunc.nin() == 2;
  std::string op = "const int64_t total = idx.size();\nfor (int64_t k = 0; k < total; ++k) {\n";
  op += "  T* p = kumo_shift(" + std::string(has_rest ? "&dst.at(k % rest)" : "dst.data()") +
        ", kumo_index_fix(idx.at(k), n, mode) * s);\n";
  op += std::string("  const ") + kernel_type_name(l.types[0]) + " in0 = kumo_cast<" + kernel_type_name(l.types[0]) +
        ">(*p);\n";
  if (binary) op += std::string("  const ") + kernel_type_name(l.types[1]) + " in1 = x.at(k);\n";
  op += std::string("  ") + kernel_type_name(l.types.back()) + " out0;\n  {\n" + l.operation + ";\n  }\n";
  op += "  *p = kumo_cast<T>(out0);\n}";
  const std::string in = std::string("raw int64 idx, ") + (binary ? std::string("raw ") + dtype_name(l.types[1]) + " x, " : "") +
                         "int64 n, int64 s, int64 rest, int32 mode";
  spec = ElementwiseSpec::create("kumo_" + ufunc.name() + "_at", in, "raw T dst", op,
                                 ufunc.loop_spec(loop).preamble + kIndexPreamble);
  return *spec;
}

}  // namespace

void ufunc_at(const kernels::Ufunc& ufunc, const Array& a, const std::vector<Index>& index,
              const kernels::UfuncOperand* b) {
  if (ufunc.nout() != 1 || ufunc.nin() < 1 || ufunc.nin() > 2)
    throw ValueError("Only unary and binary ufuncs supported at this time");
  if (ufunc.nin() == 2 && !b) throw ValueError("second operand needed for ufunc");
  if (ufunc.nin() == 1 && b) throw ValueError("second operand provided when ufunc is unary");
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  Device& device = a.device();
  kernels::UfuncOperand ops[2] = {kernels::UfuncOperand(a), b ? *b : kernels::UfuncOperand()};
  const int li = ufunc.resolve(ops, ufunc.nin(), std::nullopt, Casting::kSameKind);
  const kernels::UfuncLoop& loop = ufunc.loops()[static_cast<size_t>(li)];
  // The result goes back into a's dtype unsafely, as NumPy's ufunc.at does.
  Resolved r = resolve(a, index);
  Array value;
  if (b) {
    value = b->is_scalar ? kernels::scalar_to_array(b->scalar, loop.types[1], device)
                         : b->array().astype(loop.types[1], Order::kK, false);
    if (&value.device() != &device) value = value.to_device(device);
  }
  if (!r.advanced) {  // basic indices name each element once: an ordinary in-place call
    std::vector<kernels::UfuncOperand> in{kernels::UfuncOperand(r.view)};
    if (b) in.emplace_back(value);
    Array result = ufunc.call(in, {}, std::nullopt, Casting::kSameKind)[0];
    result.copy_to(r.view);
    return;
  }
  // NumPy checks the values against the indexed shape before it looks at
  // the indices, so an empty index with values of another shape still fails.
  if (b && !b->is_scalar && !value_fits(value.shape(), r.result_shape(r.rest().shape()), nullptr))
    throw ValueError("array is not broadcastable to correct shape");
  if (b && ufunc.name() == "add" && loop.types.back() == a.dtype() && loop.types[1] == a.dtype()) {
    scatter(r, value, IndexMode::kRaise, true);  // additions in a's dtype: atomic on CUDA
    return;
  }
  const Array rest = r.rest();
  const Shape shape = r.result_shape(rest.shape());
  if (needs_check(r, IndexMode::kRaise)) check_all_bounds(r);
  if (shape_size(shape) == 0) return;
  IndexOperand op = index_operand(r, rest.shape(), IndexMode::kRaise);
  const std::vector<int64_t> perm = r.index_first(static_cast<int>(shape.size()));
  std::vector<Array> inputs{op.idx};
  if (b) inputs.push_back(fit_value(value, shape, true).transpose(perm));
  for (const Array* p : {&op.n, &op.s}) inputs.push_back(*p);
  inputs.push_back(int64_scalar(std::max<int64_t>(rest.size(), 1), device));
  inputs.push_back(op.mode);
  kernels::call_elementwise(ufunc_at_spec(ufunc, li, rest.ndim() > 0), inputs, {rest});
}

std::vector<Array> nonzero(const Array& a) {
  if (a.ndim() == 0)
    throw ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.");
  Array flat = flat_true_positions(a);
  if (a.ndim() == 1) return {flat};
  std::vector<Array> out;
  Device& device = a.device();
  int64_t div = a.size();
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t dim = a.shape()[d];
    div = dim == 0 ? 0 : div / dim;
    Array coord = Array::empty(flat.shape(), Dtype::kInt64, device);
    if (flat.size() > 0)
      kernels::call_elementwise(unravel_spec(), {flat, int64_scalar(dim, device), int64_scalar(div, device)},
                                {coord});
    out.push_back(coord);
  }
  return out;
}

Array flatnonzero(const Array& a) { return flat_true_positions(a); }

Array argwhere(const Array& a) {
  if (a.ndim() == 0) {
    // NumPy treats a 0-d input as 1-d and drops the axis: shape (0 or 1, 0).
    const bool nz = a.astype(Dtype::kBool).item<bool>();
    return Array::empty(Shape{nz ? 1 : 0, 0}, Dtype::kInt64, a.device());
  }
  std::vector<Array> coords = nonzero(a);
  const int64_t count = coords[0].size();
  Array out = Array::empty(Shape{count, a.ndim()}, Dtype::kInt64, a.device());
  for (int d = 0; d < a.ndim(); ++d) coords[static_cast<size_t>(d)].copy_to(out(all(), d));
  return out;
}

Array extract(const Array& condition, const Array& a) {
  if (condition.size() == a.size()) return compact(a.ravel(), condition.ravel());
  return take(a.ravel(), flatnonzero(condition.ravel()));
}

IndexMode index_mode_from_string(const std::string& mode) {
  if (mode == "raise") return IndexMode::kRaise;
  if (mode == "wrap") return IndexMode::kWrap;
  if (mode == "clip") return IndexMode::kClip;
  throw ValueError("clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + mode + "')");
}

Array take(const Array& a, const Array& indices, std::optional<int64_t> axis, IndexMode mode, const Array& out) {
  if (!is_integer(indices.dtype()) && indices.dtype() != Dtype::kBool)
    throw TypeError("Cannot cast array data from " + dtype_repr(indices.dtype()) +
                    " to dtype('int64') according to the rule 'safe'");
  // With an axis a 0-d array is its 1-element 1-d form (NumPy's PyArray_CheckAxis).
  const Array src = axis && a.ndim() > 0 ? a : a.reshape(Shape{a.size()});
  const int ax = axis ? normalize_axis(*axis, src.ndim()) : 0;
  Device& device = src.device();
  Resolved r;
  r.advanced = true;
  r.view = src;
  r.axes = {ax};
  r.a_axes = {ax};
  r.arrays = {as_index_array(indices.astype(Dtype::kInt64, Order::kK, false), device)};
  r.index_shape = indices.shape();
  r.insert_at = ax;
  if (src.shape()[ax] == 0 && indices.size() > 0) throw IndexError("cannot do a non-empty take from an empty axes.");
  Array result;
  int64_t outer = 1;
  for (int d = 0; d < ax; ++d) outer *= src.shape()[d];
  if (outer == 0) {
    // NumPy checks the indices once per element of the axes before `axis`;
    // with none there it checks none (take(zeros((0, 1)), [5], axis=1) is
    // empty, take(zeros((1, 0)), [5], axis=0) an IndexError).
    Shape shape;
    for (int d = 0; d < ax; ++d) shape.push_back(src.shape()[d]);
    for (int d = 0; d < indices.ndim(); ++d) shape.push_back(indices.shape()[d]);
    for (int d = ax + 1; d < src.ndim(); ++d) shape.push_back(src.shape()[d]);
    result = Array::empty(shape, src.dtype(), device);
  } else {
    result = gather(r, mode);
  }
  if (!out.defined()) return result;
  if (out.shape() != result.shape()) throw ValueError("output array does not match result of ndarray.take");
  copyto(out, result, Casting::kSameKind);
  return out;
}

void put(const Array& a, const Array& indices, const Array& values, IndexMode mode) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (!is_integer(indices.dtype()))
    throw TypeError("Cannot cast array data from " + dtype_repr(indices.dtype()) +
                    " to dtype('int64') according to the rule 'safe'");
  Device& device = a.device();
  Array idx = as_index_array(indices, device).ravel();
  if (idx.size() == 0 || values.size() == 0) return;
  if (a.size() == 0) throw IndexError("cannot replace elements of an empty array");
  if (mode == IndexMode::kRaise) check_bounds(idx, a.size(), 0);
  Array v = values.astype(a.dtype(), Order::kC, false).ravel();
  if (&v.device() != &device) v = v.to_device(device);
  if (v.shares_memory_with(a)) v = v.copy();
  kernels::call_elementwise(put_spec(),
                            {idx, v, int64_scalar(a.size(), device), int64_scalar(v.size(), device),
                             int32_scalar(static_cast<int>(mode), device)},
                            {a});
}

Array take_along_axis(const Array& a, const Array& indices, std::optional<int64_t> axis) {
  if (!axis) {
    if (indices.ndim() != 1) throw ValueError("when axis=None, `indices` must have a single dimension.");
    return take_along_axis(a.ravel(), indices, 0);
  }
  return getitem(a, along_axis(a, indices, normalize_axis(*axis, a.ndim())));
}

void put_along_axis(const Array& a, const Array& indices, const Array& values, std::optional<int64_t> axis) {
  if (!axis) {
    // a.flat[indices] = values, the values broadcast to the indices. NumPy
    // writes through a.ravel(), which is a read-only copy unless a is C-contiguous.
    if (indices.ndim() != 1) throw ValueError("when axis=None, `indices` must have a single dimension.");
    if (!a.c_contiguous()) throw ValueError("assignment destination is read-only");
    put(a, indices, values.broadcast_to(indices.shape()));
    return;
  }
  setitem(a, along_axis(a, indices, normalize_axis(*axis, a.ndim())), values);
}

Array compress(const Array& condition, const Array& a, std::optional<int64_t> axis, const Array& out) {
  if (condition.ndim() != 1) throw ValueError("condition must be a 1-d array");
  // With an axis a 0-d array is its 1-element 1-d form (NumPy's PyArray_CheckAxis).
  const Array src = axis && a.ndim() > 0 ? a : a.reshape(Shape{a.size()});
  const int ax = axis ? normalize_axis(*axis, src.ndim()) : 0;
  Array idx = flatnonzero(condition);
  return take(src, idx, ax, IndexMode::kRaise, out);
}

void putmask(const Array& a, const Array& mask, const Array& values) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (mask.size() != a.size()) throw ValueError("putmask: mask and data must be the same size");
  if (values.size() == 0) return;
  Device& device = a.device();
  Array v = values.astype(a.dtype(), Order::kC, false).ravel();
  if (&v.device() != &device) v = v.to_device(device);
  if (v.shares_memory_with(a)) v = v.copy();
  Array m = mask.astype(Dtype::kBool, Order::kK, false).reshape(a.shape());
  if (&m.device() != &device) m = m.to_device(device);
  kernels::call_elementwise(putmask_spec(), {m, v, int64_scalar(v.size(), device)}, {a});
}

void place(const Array& a, const Array& mask, const Array& values) {
  if (mask.size() != a.size()) throw ValueError("place: mask and data must be the same size");
  Array idx = flatnonzero(mask);
  if (idx.size() > 0 && values.size() == 0) throw ValueError("Cannot insert from an empty array!");
  put(a, idx, values, IndexMode::kWrap);
}

}  // namespace kumo
