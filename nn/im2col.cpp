// im2col, col2im and the pooling kernels (see im2col.h).
//
// Every kernel reads the geometry from one small int64 array on the device,
// [nd, in[nd], k[nd], s[nd], p[nd], d[nd], o[nd]], so one compiled kernel
// serves every rank and size. Each output element is computed by a gather
// (no atomics), so the kernels run in parallel on the host and on CUDA alike.
#include "nn/im2col.h"

#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "kernels/elementwise.h"
#include "routines/creation.h"
#include "nn/host/pool_kernels.h"
#include "routines/interop.h"

namespace kumo {

namespace {

// The deepest spatial rank the kernels' fixed-size index arrays hold.
constexpr int kMaxSpatial = 8;

// Shared by every kernel: the geometry view, and a sum type wide enough for
// float16 (float) and bool (a count whose truth is the result).
const char* const kPreamble = R"(
struct kumo_cg {
  int nd;
  const int64_t* in; const int64_t* k; const int64_t* s; const int64_t* p; const int64_t* d; const int64_t* o;
};
static KUMO_FN kumo_cg kumo_cg_load(const int64_t* g) {
  kumo_cg c;
  c.nd = (int)g[0];
  c.in = g + 1; c.k = c.in + c.nd; c.s = c.k + c.nd; c.p = c.s + c.nd; c.d = c.p + c.nd; c.o = c.d + c.nd;
  return c;
}
template <class T> struct kumo_cg_acc { typedef T type; };
template <> struct kumo_cg_acc<bool> { typedef int64_t type; };
template <> struct kumo_cg_acc<kumo::float16> { typedef float type; };
)";

// One kernel element per (n, c, window position) plane of the col array:
// its rows are shifted copies of input rows, each split into a padded head,
// an in-bounds middle (a strided copy) and a padded tail, so the divisions
// that decode the element index are paid once per plane.
const kernels::ElementwiseSpec& im2col_spec() {
  static auto s = [] {
    auto spec = kernels::ElementwiseSpec::create("kumo_im2col", "raw int64 g, raw T x, raw T pv", "raw T col",
                                                 R"(const kumo_cg c = kumo_cg_load(g.data());
const int L = c.nd - 1;
int64_t r = i, oq[8], kq[8];
for (int a = L; a >= 0; --a) { kq[a] = r % c.k[a]; r /= c.k[a]; oq[a] = 0; }
int64_t insz = 1, O = 1;
for (int a = 0; a < c.nd; ++a) { insz *= c.in[a]; O *= c.o[a]; }
const T* src = x.data() + r * insz;
T* dst = col.data() + i * O;
const T pad = pv.data()[0];
const int64_t n = c.in[L], st = c.s[L], ol = c.o[L], b = kq[L] * c.d[L] - c.p[L];
int64_t lo = b >= 0 ? 0 : (-b + st - 1) / st;
int64_t hi = n - 1 - b < 0 ? 0 : (n - 1 - b) / st + 1;
if (hi > ol) hi = ol;
if (lo > hi) lo = hi;
const int64_t rows = O / ol;
for (int64_t row = 0; row < rows; ++row, dst += ol) {
  int64_t off = 0;
  bool ok = true;
  for (int a = 0; a < L; ++a) {
    const int64_t q = oq[a] * c.s[a] - c.p[a] + kq[a] * c.d[a];
    ok = ok && q >= 0 && q < c.in[a];
    off = off * c.in[a] + q;
  }
  for (int a = L - 1; a >= 0; --a) { if (++oq[a] < c.o[a]) break; oq[a] = 0; }
  const int64_t l2 = ok ? lo : 0, h2 = ok ? hi : 0, base = off * n + b;
  int64_t j = 0;
  for (; j < l2; ++j) dst[j] = pad;
  if (st == 1) { for (; j < h2; ++j) dst[j] = src[base + j]; }
  else { for (; j < h2; ++j) dst[j] = src[base + j * st]; }
  for (; j < ol; ++j) dst[j] = pad;
})",
                                                 kPreamble);
    spec->host_grain = 1;
    return spec;
  }();
  return *s;
}

// col2im on the host: one kernel element per (n, c) image plane, which it
// zeroes and then adds every col row of that plane into (a scatter within
// the plane, so no two elements write the same memory).
const kernels::ElementwiseSpec& col2im_plane_spec() {
  static auto s = [] {
    auto spec = kernels::ElementwiseSpec::create("kumo_col2im_plane", "raw int64 g, raw T col", "raw T img",
                                                 R"(const kumo_cg c = kumo_cg_load(g.data());
const int L = c.nd - 1;
int64_t oq[8], kq[8];
int64_t insz = 1, O = 1, K = 1;
for (int a = 0; a < c.nd; ++a) { insz *= c.in[a]; O *= c.o[a]; K *= c.k[a]; oq[a] = 0; kq[a] = 0; }
T* dst = img.data() + i * insz;
for (int64_t j = 0; j < insz; ++j) dst[j] = T(0);
const T* src = col.data() + i * K * O;
const int64_t n = c.in[L], st = c.s[L], ol = c.o[L], rows = O / ol;
for (int64_t kk = 0; kk < K; ++kk) {
  const int64_t b = kq[L] * c.d[L] - c.p[L];
  int64_t lo = b >= 0 ? 0 : (-b + st - 1) / st;
  int64_t hi = n - 1 - b < 0 ? 0 : (n - 1 - b) / st + 1;
  if (hi > ol) hi = ol;
  if (lo > hi) lo = hi;
  for (int64_t row = 0; row < rows; ++row, src += ol) {
    int64_t off = 0;
    bool ok = true;
    for (int a = 0; a < L; ++a) {
      const int64_t q = oq[a] * c.s[a] - c.p[a] + kq[a] * c.d[a];
      ok = ok && q >= 0 && q < c.in[a];
      off = off * c.in[a] + q;
    }
    for (int a = L - 1; a >= 0; --a) { if (++oq[a] < c.o[a]) break; oq[a] = 0; }
    if (!ok) continue;
    const int64_t base = off * n + b;
    if (st == 1) { for (int64_t j = lo; j < hi; ++j) dst[base + j] += src[j]; }
    else { for (int64_t j = lo; j < hi; ++j) dst[base + j * st] += src[j]; }
  }
  for (int a = L; a >= 0; --a) { if (++kq[a] < c.k[a]) break; kq[a] = 0; }
}
)",
                                                 kPreamble);
    spec->host_grain = 1;
    return spec;
  }();
  return *s;
}

// Max pooling on the host: one kernel element per (n, c) plane. Each row
// of outputs is initialised to padding, then every window position updates
// the whole row in one strided pass (so the inner loop is a plain compare
// over contiguous outputs); a later position wins only when strictly
// greater or the first NaN, as the first-maximum rule wants.
const kernels::ElementwiseSpec& max_pool_plane_spec() {
  static auto s = [] {
    auto spec = kernels::ElementwiseSpec::create("kumo_max_pool_plane", "raw int64 g, raw T x, raw T pv",
                                                 "raw T y, raw int64 idx",
                                                 R"(const kumo_cg c = kumo_cg_load(g.data());
const int L = c.nd - 1;
int64_t oq[8], kq[8];
int64_t insz = 1, O = 1, K = 1;
for (int a = 0; a < c.nd; ++a) { insz *= c.in[a]; O *= c.o[a]; K *= c.k[a]; oq[a] = 0; kq[a] = 0; }
const T* src = x.data() + i * insz;
const T pad = pv.data()[0];
const int64_t n = c.in[L], st = c.s[L], ol = c.o[L], rows = O / ol;
for (int64_t row = 0; row < rows; ++row) {
  T* yr = y.data() + i * O + row * ol;
  int64_t* ir = idx.data() + i * O + row * ol;
  for (int64_t j = 0; j < ol; ++j) { yr[j] = pad; ir[j] = 0; }
  for (int a = 0; a < c.nd; ++a) kq[a] = 0;
  for (int64_t kk = 0; kk < K; ++kk) {
    int64_t off = 0;
    bool ok = true;
    for (int a = 0; a < L; ++a) {
      const int64_t q = oq[a] * c.s[a] - c.p[a] + kq[a] * c.d[a];
      ok = ok && q >= 0 && q < c.in[a];
      off = off * c.in[a] + q;
    }
    if (ok) {
      const int64_t b = kq[L] * c.d[L] - c.p[L], base = off * n + b;
      int64_t lo = b >= 0 ? 0 : (-b + st - 1) / st;
      int64_t hi = n - 1 - b < 0 ? 0 : (n - 1 - b) / st + 1;
      if (hi > ol) hi = ol;
      for (int64_t j = lo; j < hi; ++j) {
        const T v = src[base + j * st];
        if (v > yr[j] || (v != v && yr[j] == yr[j])) { yr[j] = v; ir[j] = kk; }
      }
    }
    for (int a = L; a >= 0; --a) { if (++kq[a] < c.k[a]) break; kq[a] = 0; }
  }
  for (int a = L - 1; a >= 0; --a) { if (++oq[a] < c.o[a]) break; oq[a] = 0; }
})",
                                                 kPreamble);
    spec->host_grain = 1;
    return spec;
  }();
  return *s;
}

// pool_scatter on the host: one kernel element per (n, c) plane, which it
// zeroes and then adds each value at the position its index names.
const kernels::ElementwiseSpec& pool_scatter_plane_spec() {
  static auto s = [] {
    auto spec =
        kernels::ElementwiseSpec::create("kumo_pool_scatter_plane", "raw int64 g, raw T v, raw int64 idx", "raw T img",
                                         R"(const kumo_cg c = kumo_cg_load(g.data());
int64_t oq[8], kq[8];
int64_t insz = 1, O = 1, K = 1;
for (int a = 0; a < c.nd; ++a) { insz *= c.in[a]; O *= c.o[a]; K *= c.k[a]; oq[a] = 0; }
T* dst = img.data() + i * insz;
for (int64_t j = 0; j < insz; ++j) dst[j] = T(0);
const T* src = v.data() + i * O;
const int64_t* ip = idx.data() + i * O;
for (int64_t oo = 0; oo < O; ++oo) {
  int64_t kk = ip[oo];
  if (kk >= 0 && kk < K) {
    for (int a = c.nd - 1; a >= 0; --a) { kq[a] = kk % c.k[a]; kk /= c.k[a]; }
    bool ok = true;
    int64_t off = 0;
    for (int a = 0; a < c.nd; ++a) {
      const int64_t q = oq[a] * c.s[a] - c.p[a] + kq[a] * c.d[a];
      ok = ok && q >= 0 && q < c.in[a];
      off = off * c.in[a] + q;
    }
    if (ok) dst[off] += src[oo];
  }
  for (int a = c.nd - 1; a >= 0; --a) { if (++oq[a] < c.o[a]) break; oq[a] = 0; }
})",
                                         kPreamble);
    spec->host_grain = 1;
    return spec;
  }();
  return *s;
}

// One element per image element: the sum over the kernel offsets whose
// window covers it (the positions a stride skips contribute nothing).
const kernels::ElementwiseSpec& col2im_spec() {
  static auto s = kernels::ElementwiseSpec::create("kumo_col2im", "raw int64 g, raw T col", "raw T img",
                                                   R"(const kumo_cg c = kumo_cg_load(g.data());
typedef typename kumo_cg_acc<T>::type Acc;
int64_t r = i, pq[8], kq[8];
for (int a = c.nd - 1; a >= 0; --a) { pq[a] = r % c.in[a]; r /= c.in[a]; kq[a] = 0; }
int64_t K = 1, O = 1;
for (int a = 0; a < c.nd; ++a) { K *= c.k[a]; O *= c.o[a]; }
const T* src = col.data() + r * K * O;
Acc acc = Acc(0);
for (int64_t kk = 0; kk < K; ++kk) {
  bool ok = true;
  int64_t oo = 0;
  for (int a = 0; a < c.nd && ok; ++a) {
    int64_t t = pq[a] + c.p[a] - kq[a] * c.d[a];
    if (t < 0 || t % c.s[a] != 0) { ok = false; break; }
    t /= c.s[a];
    if (t >= c.o[a]) { ok = false; break; }
    oo = oo * c.o[a] + t;
  }
  if (ok) acc += (Acc)src[kk * O + oo];
  for (int a = c.nd - 1; a >= 0; --a) { if (++kq[a] < c.k[a]) break; kq[a] = 0; }
}
img.data()[i] = (T)acc;)",
                                                   kPreamble);
  return *s;
}

// The window of output element i: its channel row r and the input offset of
// every window position, in flat window order. Shared by the pooling kernels.
const char* const kWindowDecode = R"(const kumo_cg c = kumo_cg_load(g.data());
int64_t r = i, oq[8], kq[8];
for (int a = c.nd - 1; a >= 0; --a) { oq[a] = r % c.o[a]; r /= c.o[a]; kq[a] = 0; }
int64_t insz = 1, K = 1;
for (int a = 0; a < c.nd; ++a) { insz *= c.in[a]; K *= c.k[a]; }
)";

const kernels::ElementwiseSpec& max_pool_spec() {
  static auto s =
      kernels::ElementwiseSpec::create("kumo_max_pool", "raw int64 g, raw T x, raw T pv", "raw T y, raw int64 idx",
                                       std::string(kWindowDecode) + R"(const T* src = x.data() + r * insz;
T best = pv.data()[0];
int64_t bi = 0;
for (int64_t kk = 0; kk < K; ++kk) {
  bool ok = true;
  int64_t off = 0;
  for (int a = 0; a < c.nd; ++a) {
    const int64_t q = oq[a] * c.s[a] - c.p[a] + kq[a] * c.d[a];
    ok = ok && q >= 0 && q < c.in[a];
    off = off * c.in[a] + q;
  }
  const T v = ok ? src[off] : pv.data()[0];
  if (kk == 0 || v > best || (v != v && best == best)) { best = v; bi = kk; }
  for (int a = c.nd - 1; a >= 0; --a) { if (++kq[a] < c.k[a]) break; kq[a] = 0; }
}
y.data()[i] = best;
idx.data()[i] = bi;)",
                                       kPreamble);
  return *s;
}

const kernels::ElementwiseSpec& pool_gather_spec() {
  static auto s = kernels::ElementwiseSpec::create("kumo_pool_gather", "raw int64 g, raw T x, raw int64 idx", "raw T y",
                                                   std::string(kWindowDecode) + R"(int64_t kk = idx.data()[i];
T v = T(0);
if (kk >= 0 && kk < K) {
  for (int a = c.nd - 1; a >= 0; --a) { kq[a] = kk % c.k[a]; kk /= c.k[a]; }
  bool ok = true;
  int64_t off = 0;
  for (int a = 0; a < c.nd; ++a) {
    const int64_t q = oq[a] * c.s[a] - c.p[a] + kq[a] * c.d[a];
    ok = ok && q >= 0 && q < c.in[a];
    off = off * c.in[a] + q;
  }
  if (ok) v = x.data()[r * insz + off];
}
y.data()[i] = v;)",
                                                   kPreamble);
  return *s;
}

// As col2im, but window position kk of output element o contributes v[o]
// only when idx[o] == kk.
const kernels::ElementwiseSpec& pool_scatter_spec() {
  static auto s =
      kernels::ElementwiseSpec::create("kumo_pool_scatter", "raw int64 g, raw T v, raw int64 idx", "raw T img",
                                       R"(const kumo_cg c = kumo_cg_load(g.data());
typedef typename kumo_cg_acc<T>::type Acc;
int64_t r = i, pq[8], kq[8];
for (int a = c.nd - 1; a >= 0; --a) { pq[a] = r % c.in[a]; r /= c.in[a]; kq[a] = 0; }
int64_t K = 1, O = 1;
for (int a = 0; a < c.nd; ++a) { K *= c.k[a]; O *= c.o[a]; }
const T* src = v.data() + r * O;
const int64_t* ix = idx.data() + r * O;
Acc acc = Acc(0);
for (int64_t kk = 0; kk < K; ++kk) {
  bool ok = true;
  int64_t oo = 0;
  for (int a = 0; a < c.nd && ok; ++a) {
    int64_t t = pq[a] + c.p[a] - kq[a] * c.d[a];
    if (t < 0 || t % c.s[a] != 0) { ok = false; break; }
    t /= c.s[a];
    if (t >= c.o[a]) { ok = false; break; }
    oo = oo * c.o[a] + t;
  }
  if (ok && ix[oo] == kk) acc += (Acc)src[oo];
  for (int a = c.nd - 1; a >= 0; --a) { if (++kq[a] < c.k[a]) break; kq[a] = 0; }
}
img.data()[i] = (T)acc;)",
                                       kPreamble);
  return *s;
}

std::string vec_str(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

// Checks one parameter vector: nd entries, each >= lo.
void check_param(const char* who, const char* what, const std::vector<int64_t>& v, size_t nd, int64_t lo) {
  if (v.size() != nd)
    throw ValueError(std::string(who) + ": " + what + " must have " + std::to_string(nd) + " entries, got " +
                     vec_str(v));
  for (int64_t e : v)
    if (e < lo)
      throw ValueError(std::string(who) + ": every " + what + " must be >= " + std::to_string(lo) + ", got " +
                       vec_str(v));
}

// The spatial rank of a (N, C, *spatial) array whose parameters have nd entries.
size_t spatial_rank(const char* who, const Array& x, size_t nd) {
  if (nd == 0 || nd > static_cast<size_t>(kMaxSpatial))
    throw ValueError(std::string(who) + ": the number of spatial dimensions must be 1 to " +
                     std::to_string(kMaxSpatial) + ", got " + std::to_string(nd));
  if (static_cast<size_t>(x.ndim()) != nd + 2)
    throw ValueError(std::string(who) + ": expected a " + std::to_string(nd + 2) +
                     "-d (N, C, *spatial) array, got shape " + x.shape().to_string());
  return nd;
}

std::vector<int64_t> ones_if_empty(const std::vector<int64_t>& d, size_t nd) {
  return d.empty() ? std::vector<int64_t>(nd, 1) : d;
}

Array geometry(Device& dev, const std::vector<int64_t>& in, const std::vector<int64_t>& k,
               const std::vector<int64_t>& s, const std::vector<int64_t>& p, const std::vector<int64_t>& d,
               const std::vector<int64_t>& o) {
  std::vector<int64_t> g{static_cast<int64_t>(in.size())};
  for (const auto* v : {&in, &k, &s, &p, &d, &o}) g.insert(g.end(), v->begin(), v->end());
  return asarray(g, Shape{static_cast<int64_t>(g.size())}, dev);
}

Array contiguous(const Array& x) { return x.c_contiguous() ? x : x.copy(Order::kC); }

Shape with_spatial(const Array& x, const std::vector<int64_t>& sp) {
  Shape s{x.shape()[0], x.shape()[1]};
  for (int64_t e : sp) s.push_back(e);
  return s;
}

std::vector<int64_t> spatial_of(const Array& x, size_t from, size_t nd) {
  std::vector<int64_t> v;
  for (size_t a = 0; a < nd; ++a) v.push_back(x.shape()[static_cast<int>(from + a)]);
  return v;
}

}  // namespace

int64_t conv_outsize(int64_t size, int64_t k, int64_t s, int64_t p, bool cover_all, int64_t d) {
  const int64_t dk = k + (k - 1) * (d - 1);
  const int64_t num = size + p * 2 - dk + (cover_all ? s - 1 : 0);
  // Python's floor division (the numerator may be negative).
  const int64_t q = num / s - ((num % s != 0) && ((num < 0) != (s < 0)) ? 1 : 0);
  return q + 1;
}

int64_t deconv_outsize(int64_t size, int64_t k, int64_t s, int64_t p, bool cover_all, int64_t d) {
  const int64_t dk = (k - 1) * d + 1;
  return cover_all ? s * (size - 1) + dk - s + 1 - 2 * p : s * (size - 1) + dk - 2 * p;
}

Array im2col_sized(const Array& x0, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& pad, const std::vector<int64_t>& dilate0,
                   const std::vector<int64_t>& outsize, Scalar pad_value) {
  const size_t nd = spatial_rank("im2col", x0, ksize.size());
  const std::vector<int64_t> dilate = ones_if_empty(dilate0, nd);
  check_param("im2col", "ksize", ksize, nd, 1);
  check_param("im2col", "stride", stride, nd, 1);
  check_param("im2col", "pad", pad, nd, 0);
  check_param("im2col", "dilate", dilate, nd, 1);
  check_param("im2col", "outsize", outsize, nd, 0);
  Shape cs{x0.shape()[0], x0.shape()[1]};
  for (int64_t k : ksize) cs.push_back(k);
  for (int64_t o : outsize) cs.push_back(o);
  Device& dev = x0.device();
  Array col = Array::empty(cs, x0.dtype(), dev);
  if (col.size() == 0) return col;
  const Array x = contiguous(x0);
  const Array pv = full(Shape{1}, pad_value, x.dtype(), Order::kC, dev);
  kernels::call_elementwise(im2col_spec(),
                            {geometry(dev, spatial_of(x, 2, nd), ksize, stride, pad, dilate, outsize), x, pv}, {col},
                            {}, col.size() / shape_size(Shape(outsize)));
  return col;
}

Array im2col(const Array& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
             const std::vector<int64_t>& pad, const std::vector<int64_t>& dilate0, bool cover_all, Scalar pad_value) {
  const size_t nd = spatial_rank("im2col", x, ksize.size());
  const std::vector<int64_t> dilate = ones_if_empty(dilate0, nd);
  check_param("im2col", "ksize", ksize, nd, 1);
  check_param("im2col", "stride", stride, nd, 1);
  check_param("im2col", "pad", pad, nd, 0);
  check_param("im2col", "dilate", dilate, nd, 1);
  std::vector<int64_t> out;
  for (size_t a = 0; a < nd; ++a) {
    out.push_back(conv_outsize(x.shape()[static_cast<int>(a + 2)], ksize[a], stride[a], pad[a], cover_all, dilate[a]));
    if (out.back() <= 0)
      throw ValueError("im2col: the output size " + std::to_string(out.back()) + " of spatial axis " +
                       std::to_string(a) + " is not positive (input " + x.shape().to_string() + ", ksize " +
                       vec_str(ksize) + ", stride " + vec_str(stride) + ", pad " + vec_str(pad) + ")");
  }
  return im2col_sized(x, ksize, stride, pad, dilate, out, pad_value);
}

Array col2im(const Array& col0, const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
             const std::vector<int64_t>& outsize, const std::vector<int64_t>& dilate0,
             std::optional<bool> per_element) {
  const size_t nd = stride.size();
  if (nd == 0 || nd > static_cast<size_t>(kMaxSpatial) || static_cast<size_t>(col0.ndim()) != 2 * nd + 2)
    throw ValueError("col2im: expected a (N, C, *ksize, *outsize) array with " + std::to_string(nd) +
                     " spatial dimensions, got shape " + col0.shape().to_string());
  const std::vector<int64_t> dilate = ones_if_empty(dilate0, nd);
  check_param("col2im", "stride", stride, nd, 1);
  check_param("col2im", "pad", pad, nd, 0);
  check_param("col2im", "dilate", dilate, nd, 1);
  check_param("col2im", "outsize", outsize, nd, 0);
  Device& dev = col0.device();
  Array img = Array::empty(with_spatial(col0, outsize), col0.dtype(), dev);
  if (img.size() == 0) return img;
  if (col0.size() == 0) return zeros(img.shape(), img.dtype(), Order::kC, dev);
  const Array col = contiguous(col0);
  const bool gather = per_element.value_or(dev.type() == DeviceType::kCUDA);
  kernels::call_elementwise(
      gather ? col2im_spec() : col2im_plane_spec(),
      {geometry(dev, outsize, spatial_of(col, 2, nd), stride, pad, dilate, spatial_of(col, 2 + nd, nd)), col}, {img},
      {}, gather ? img.size() : img.shape()[0] * img.shape()[1]);
  return img;
}

std::pair<Array, Array> max_pool(const Array& x0, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                                 const std::vector<int64_t>& pad, bool cover_all, std::optional<bool> per_element) {
  const size_t nd = spatial_rank("max_pool", x0, ksize.size());
  check_param("max_pool", "ksize", ksize, nd, 1);
  check_param("max_pool", "stride", stride, nd, 1);
  check_param("max_pool", "pad", pad, nd, 0);
  if (!is_floating(x0.dtype()))
    throw TypeError(std::string("max_pool: x must be floating, got ") + dtype_name(x0.dtype()));
  std::vector<int64_t> out;
  for (size_t a = 0; a < nd; ++a) {
    out.push_back(conv_outsize(x0.shape()[static_cast<int>(a + 2)], ksize[a], stride[a], pad[a], cover_all));
    if (out.back() <= 0)
      throw ValueError("max_pool: the output size " + std::to_string(out.back()) + " of spatial axis " +
                       std::to_string(a) + " is not positive (input " + x0.shape().to_string() + ")");
  }
  Device& dev = x0.device();
  Array y = Array::empty(with_spatial(x0, out), x0.dtype(), dev);
  Array idx = Array::empty(y.shape(), Dtype::kInt64, dev);
  if (y.size() == 0) return {y, idx};
  const Array x = contiguous(x0);
  const bool gather = per_element.value_or(dev.type() == DeviceType::kCUDA);
  host_pool::Geometry hg;
  if (!gather && dev.type() == DeviceType::kCPU && host_pool::supports(x.dtype()) &&
      host_pool::make_geometry(spatial_of(x, 2, nd), ksize, stride, pad, out, &hg)) {
    host_pool::max_pool(x.dtype(), hg, y.shape()[0] * y.shape()[1], x.data(), y.data(),
                        reinterpret_cast<int64_t*>(idx.data()));
    return {y, idx};
  }
  const Array pv = full(Shape{1}, Scalar(-std::numeric_limits<double>::infinity()), x.dtype(), Order::kC, dev);
  kernels::call_elementwise(
      gather ? max_pool_spec() : max_pool_plane_spec(),
      {geometry(dev, spatial_of(x, 2, nd), ksize, stride, pad, std::vector<int64_t>(nd, 1), out), x, pv}, {y, idx}, {},
      gather ? y.size() : y.shape()[0] * y.shape()[1]);
  return {y, idx};
}

Array pool_gather(const Array& x0, const Array& idx0, const std::vector<int64_t>& ksize,
                  const std::vector<int64_t>& stride, const std::vector<int64_t>& pad) {
  const size_t nd = spatial_rank("pool_gather", x0, ksize.size());
  check_param("pool_gather", "ksize", ksize, nd, 1);
  check_param("pool_gather", "stride", stride, nd, 1);
  check_param("pool_gather", "pad", pad, nd, 0);
  if (idx0.ndim() != x0.ndim() || idx0.shape()[0] != x0.shape()[0] || idx0.shape()[1] != x0.shape()[1])
    throw ValueError("pool_gather: indexes of shape " + idx0.shape().to_string() + " do not fit x of shape " +
                     x0.shape().to_string());
  Device& dev = x0.device();
  Array y = Array::empty(idx0.shape(), x0.dtype(), dev);
  if (y.size() == 0) return y;
  const Array x = contiguous(x0);
  const Array idx = contiguous(idx0.astype(Dtype::kInt64, Order::kC, false));
  kernels::call_elementwise(
      pool_gather_spec(),
      {geometry(dev, spatial_of(x, 2, nd), ksize, stride, pad, std::vector<int64_t>(nd, 1), spatial_of(idx, 2, nd)), x,
       idx},
      {y}, {}, y.size());
  return y;
}

Array pool_scatter(const Array& v0, const Array& idx0, const std::vector<int64_t>& ksize,
                   const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                   const std::vector<int64_t>& outsize, std::optional<bool> per_element) {
  const size_t nd = spatial_rank("pool_scatter", v0, ksize.size());
  check_param("pool_scatter", "ksize", ksize, nd, 1);
  check_param("pool_scatter", "stride", stride, nd, 1);
  check_param("pool_scatter", "pad", pad, nd, 0);
  check_param("pool_scatter", "outsize", outsize, nd, 0);
  if (idx0.shape() != v0.shape())
    throw ValueError("pool_scatter: indexes of shape " + idx0.shape().to_string() + " do not match values of shape " +
                     v0.shape().to_string());
  Device& dev = v0.device();
  Array img = Array::empty(with_spatial(v0, outsize), v0.dtype(), dev);
  if (img.size() == 0) return img;
  if (v0.size() == 0) return zeros(img.shape(), img.dtype(), Order::kC, dev);
  const Array v = contiguous(v0);
  const Array idx = contiguous(idx0.astype(Dtype::kInt64, Order::kC, false));
  const bool gather = per_element.value_or(dev.type() == DeviceType::kCUDA);
  host_pool::Geometry hg;
  if (!gather && dev.type() == DeviceType::kCPU && host_pool::supports(v.dtype()) &&
      host_pool::make_geometry(outsize, ksize, stride, pad, spatial_of(v, 2, nd), &hg)) {
    host_pool::pool_scatter(v.dtype(), hg, img.shape()[0] * img.shape()[1], v.data(),
                            reinterpret_cast<const int64_t*>(idx.data()), img.data());
    return img;
  }
  kernels::call_elementwise(
      gather ? pool_scatter_spec() : pool_scatter_plane_spec(),
      {geometry(dev, outsize, ksize, stride, pad, std::vector<int64_t>(nd, 1), spatial_of(v, 2, nd)), v, idx}, {img},
      {}, gather ? img.size() : img.shape()[0] * img.shape()[1]);
  return img;
}

}  // namespace kumo
