// numpy.linalg's routines over the LinalgBackend (see linalg.h).
//
// Each routine makes one column-major work copy of its input (the leading
// axes flattened into one batch axis; LAPACK factors in place anyway), runs
// the backend over the whole batch, checks every matrix's info, and returns
// views of the work arrays shaped like the input's batch. What follows a
// factorization (triangles, determinants, norms) runs as kernels on the
// arrays' device; only the small info arrays come to the host.
#include "linalg/linalg.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "core/errors.h"
#include "kernels/copy.h"
#include "kernels/elementwise.h"
#include "kernels/reduction.h"
#include "kernels/spec.h"
#include "linalg/linalg_backend.h"
#include "linalg/products.h"
#include "routines/elementwise.h"
#include "routines/interop.h"

namespace kumo {
namespace linalg {
namespace {

using detail::backend_for;

// ---- shapes and dtypes -------------------------------------------------------

void assert_stacked_2d(const Array& a) {
  if (a.ndim() < 2)
    throw LinAlgError(std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
}

void assert_stacked_square(const Array& a) {
  assert_stacked_2d(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw LinAlgError("Last 2 dimensions of the array must be square");
}

// numpy.linalg's computation dtype: bool and integers in float64, float16
// refused, single precision single unless mixed with double, complex wins.
Dtype common_type(std::initializer_list<const Array*> arrays) {
  bool cplx = false, dbl = false;
  for (const Array* a : arrays) {
    const Dtype d = a->dtype();
    if (d == Dtype::kBool || is_integer(d)) {
      dbl = true;
    } else if (d == Dtype::kFloat32 || d == Dtype::kFloat64) {
      dbl |= d == Dtype::kFloat64;
    } else if (d == Dtype::kComplex64 || d == Dtype::kComplex128) {
      cplx = true;
      dbl |= d == Dtype::kComplex128;
    } else {
      throw TypeError(std::string("array type ") + dtype_name(d) + " is unsupported in linalg");
    }
  }
  if (cplx) return dbl ? Dtype::kComplex128 : Dtype::kComplex64;
  return dbl ? Dtype::kFloat64 : Dtype::kFloat32;
}

Shape batch_shape(const Array& a) {
  Shape s;
  for (int i = 0; i < a.ndim() - 2; ++i) s.push_back(a.shape()[i]);
  return s;
}

Shape with(Shape s, std::initializer_list<int64_t> tail) {
  for (int64_t v : tail) s.push_back(v);
  return s;
}

int64_t prod(const Shape& s) {
  int64_t p = 1;
  for (int64_t v : s) p *= v;
  return p;
}

// An uninitialised (batch, rows, cols) array of column-major matrices.
Array fortran_batch(int64_t batch, int64_t rows, int64_t cols, Dtype dt, Device& dev) {
  return Array::empty(Shape{batch, cols, rows}, dt, dev).transpose({0, 2, 1});
}

Array zeros(const Shape& shape, Dtype dt, Device& dev) {
  Array r = Array::empty(shape, dt, dev);
  alignas(16) unsigned char zero[16] = {};  // all-zero bytes are zero in every dtype
  if (r.size()) kernels::fill_bytes(r, zero);
  return r;
}

// A view of the (B, rows, cols) work array `w` as (*batch, rows, cols).
Array unbatch(const Array& w, const Shape& batch) {
  return w.reshape(with(batch, {w.shape()[1], w.shape()[2]}));
}

// A column-major (B, m, n) copy of the stack `a` in `dt`; with conj_t the
// copy holds a^H (a^T for real dtypes).
Array to_work(const Array& a, Dtype dt, bool conj_t = false) {
  Array src = conj_t ? a.swapaxes(a.ndim() - 1, a.ndim() - 2) : a;
  const int64_t m = src.shape()[src.ndim() - 2], n = src.shape()[src.ndim() - 1];
  const Shape batch = batch_shape(src);
  Array work = fortran_batch(prod(batch), m, n, dt, a.device());
  if (work.size()) {
    if (conj_t && is_complex(src.dtype())) src = conjugate(src.astype(dt, Order::kK, false));
    src.copy_to(unbatch(work, batch));
  }
  return work;
}

// The backend's view of a (B, rows, cols) array of column-major matrices.
struct Mat {
  char* data;
  int64_t batch, rows, cols, ld, stride;
};
Mat mat(const Array& a) {
  const int64_t isz = a.itemsize();
  return Mat{a.data(), a.shape()[0], a.shape()[1], a.shape()[2], std::max<int64_t>(1, a.strides()[2] / isz),
             a.shape()[0] > 1 ? a.strides()[0] / isz : 0};
}

int32_t* i32(const Array& a) { return reinterpret_cast<int32_t*>(a.data()); }

// Raises LinAlgError(message) when a factorization of the batch failed
// (one small device-to-host copy).
void check_info(const Array& info, const char* message) {
  if (!info.defined() || info.size() == 0) return;
  for (int32_t v : info.to_vector<int32_t>()) {
    // An illegal argument is a bug in the caller, not a property of the data.
    if (v < 0) throw ValueError("LAPACK rejected argument " + std::to_string(-v) + " (" + message + ")");
    if (v > 0) throw LinAlgError(message);
  }
}

// Identity matrices in every entry of a (B, r, c) array (rectangular: the
// leading diagonal).
void fill_identity(const Array& a) {
  alignas(16) unsigned char zero[16] = {}, one[16] = {};
  switch (a.dtype()) {
    case Dtype::kFloat32: { float v = 1; std::memcpy(one, &v, sizeof v); break; }
    case Dtype::kFloat64: case Dtype::kComplex128: { double v = 1; std::memcpy(one, &v, sizeof v); break; }
    case Dtype::kComplex64: { float v = 1; std::memcpy(one, &v, sizeof v); break; }
    default: throw TypeError(std::string("linalg: unsupported dtype ") + dtype_name(a.dtype()));
  }
  if (a.size() == 0) return;
  kernels::fill_bytes(a, zero);
  const int64_t n = std::min(a.shape()[1], a.shape()[2]);
  Array diag = a.view_with(Shape{a.shape()[0], n}, Strides{a.strides()[0], a.strides()[1] + a.strides()[2]});
  kernels::fill_bytes(diag, one);
}

// ---- kernels -------------------------------------------------------------------

// Keeps the band lo <= col - row <= hi of the last two axes, zeroes the rest
// (tril: lo = -big, hi = 0; triu: lo = 0, hi = big).
Array band(const Array& x, int64_t lo, int64_t hi) {
  static const auto spec = kernels::ElementwiseSpec::create(
      "kumo_linalg_band", "T x, int64 r, int64 c, int64 lo, int64 hi", "T y",
      "const long long d = c - r; y = (d >= lo && d <= hi) ? x : T(0)");
  Device& dev = x.device();
  const int64_t m = x.shape()[x.ndim() - 2], n = x.shape()[x.ndim() - 1];
  std::vector<int64_t> rows(m), cols(n);
  for (int64_t i = 0; i < m; ++i) rows[i] = i;
  for (int64_t i = 0; i < n; ++i) cols[i] = i;
  return kernels::call_elementwise(*spec,
                                   {x, asarray(rows, Shape{m, 1}, dev), asarray(cols, Shape{n}, dev),
                                    scalar_array<int64_t>(lo, dev), scalar_array<int64_t>(hi, dev)},
                                   {Array()})[0];
}
constexpr int64_t kBig = std::numeric_limits<int64_t>::max() / 4;
Array tril(const Array& x) { return band(x, -kBig, 0); }
Array triu(const Array& x) { return band(x, 0, kBig); }

Array conj_t(const Array& x) {
  Array t = x.swapaxes(x.ndim() - 1, x.ndim() - 2);
  return is_complex(t.dtype()) ? conjugate(t) : t;
}

enum class Reduce { kSum, kMax, kMin, kAny };

// The few reductions linalg needs, over `axes` (private: the routines layer's
// reductions are another module's). max starts from 0 (its inputs here are
// magnitudes, as NumPy's norm uses initial=0); min has no identity.
Array reduce(const Array& x, Reduce kind, const std::vector<int64_t>& axes, bool keepdims = false) {
  static const auto sum = kernels::ReductionSpec::create("kumo_linalg_sum", "T x", "T y", "x", "a + b", "y = a",
                                                         "0", "T");
  static const auto mx = kernels::ReductionSpec::create("kumo_linalg_max", "T x", "T y", "x",
                                                        "(a > b || a != a) ? a : b", "y = a", "0", "T");
  static const auto mn = kernels::ReductionSpec::create("kumo_linalg_min", "T x", "T y", "x",
                                                        "(a < b || a != a) ? a : b", "y = a", "", "T");
  static const auto any = kernels::ReductionSpec::create("kumo_linalg_any", "bool x", "bool y", "x", "a || b",
                                                         "y = a", "false", "bool");
  const kernels::ReductionSpec* spec = kind == Reduce::kSum ? sum.get()
                                       : kind == Reduce::kMax ? mx.get()
                                       : kind == Reduce::kMin ? mn.get()
                                                              : any.get();
  std::vector<int64_t> norm_axes;
  for (int64_t ax : axes) norm_axes.push_back(ax < 0 ? ax + x.ndim() : ax);
  std::sort(norm_axes.begin(), norm_axes.end());
  if (kind == Reduce::kMin) {
    for (int64_t ax : norm_axes)
      if (x.shape()[static_cast<int>(ax)] == 0)
        throw ValueError("zero-size array to reduction operation minimum which has no identity");
  }
  return kernels::call_reduction(*spec, {x}, {}, norm_axes, norm_axes.empty(), keepdims)[0];
}

bool any_nan(const Array& a) {
  if (a.size() == 0 || !(is_complex(a.dtype()) || kind_char(a.dtype()) == 'f')) return false;
  return reduce(isnan(a), Reduce::kAny, {}).item<bool>();
}

// ---- LU ------------------------------------------------------------------------

struct LU {
  Array lu, ipiv, info;
  Transpose trans;
};

// LU factors of the stack a (..., n, n) in dt. A row-major input is copied as
// it lies (cheaper than a transposing copy), which LAPACK reads as a^T;
// solves then use op 'T'. det(a^T) == det(a), so determinants do not care.
LU lu_factor(const Array& a, Dtype dt) {
  const int64_t n = a.shape()[a.ndim() - 1];
  const Shape batch = batch_shape(a);
  Device& dev = a.device();
  LU f;
  if (a.strides()[a.ndim() - 2] == a.itemsize() && a.dtype() == dt && n > 1) {
    f.lu = to_work(a, dt);
    f.trans = Transpose::kNo;
  } else {
    Array rows = Array::empty(Shape{prod(batch), n, n}, dt, dev);
    if (rows.size()) a.copy_to(rows.reshape(with(batch, {n, n})));
    f.lu = rows.transpose({0, 2, 1});
    f.trans = Transpose::kTrans;
  }
  Mat m = mat(f.lu);
  f.ipiv = Array::empty(Shape{m.batch, n}, Dtype::kInt32, dev);
  f.info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  backend_for(dev).getrf(dt, n, m.data, m.ld, m.stride, i32(f.ipiv), i32(f.info), m.batch, dev.current_stream());
  return f;
}

void lu_solve(const LU& f, const Array& rhs) {
  Mat ml = mat(f.lu), mb = mat(rhs);
  Device& dev = rhs.device();
  backend_for(dev).getrs(rhs.dtype(), f.trans, ml.rows, mb.cols, ml.data, ml.ld, ml.stride, i32(f.ipiv), mb.data,
                         mb.ld, mb.stride, mb.batch, dev.current_stream());
}

std::string core_mismatch(const char* sig, const char* name, int64_t got, int64_t want) {
  return std::string(name) + ": Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
         sig + " (size " + std::to_string(got) + " is different from " + std::to_string(want) + ")";
}

}  // namespace

// ---- solvers -----------------------------------------------------------------------

Array solve(const Array& a, const Array& b_in) {
  assert_stacked_square(a);
  check_same_device({&a, &b_in});
  const Dtype t = common_type({&a, &b_in});
  const int64_t n = a.shape()[a.ndim() - 1];
  Array b = b_in;
  const bool vector = b.ndim() == 1;
  if (vector) {
    if (b.shape()[0] != n) throw ValueError(core_mismatch("(m,m),(m)->(m)", "solve1", b.shape()[0], n));
    b = b.reshape(Shape{n, 1});
  } else if (b.ndim() == 0 || b.shape()[b.ndim() - 2] != n) {
    if (b.ndim() == 0)
      throw ValueError("solve: Input operand 1 does not have enough dimensions (has 0, gufunc core with signature "
                       "(m,m),(m,n)->(m,n) requires 2)");
    throw ValueError(core_mismatch("(m,m),(m,n)->(m,n)", "solve", b.shape()[b.ndim() - 2], n));
  }
  const int64_t k = b.shape()[b.ndim() - 1];
  const Shape batch = broadcast_shapes({batch_shape(a), batch_shape(b)});
  const int64_t B = prod(batch);
  Shape out_shape = vector ? with(batch, {n}) : with(batch, {n, k});
  Device& dev = a.device();
  if (B == 0 || n == 0) return zeros(out_shape, t, dev);
  LU f;
  Array rhs, view;
  if (prod(batch_shape(a)) == 1) {
    // One matrix for every right-hand side: factor it once and solve all of
    // b's matrices as the columns of one n x (B*k) system.
    f = lu_factor(a.reshape(Shape{1, n, n}), t);
    check_info(f.info, "Singular matrix");
    Array base = Array::empty(Shape{1, B * k, n}, t, dev);
    rhs = base.transpose({0, 2, 1});
    view = base.reshape(Shape{B, k, n}).transpose({0, 2, 1});
  } else {
    Array ab = batch_shape(a) == batch ? a : a.broadcast_to(with(batch, {n, n}));
    f = lu_factor(ab, t);
    check_info(f.info, "Singular matrix");
    rhs = view = fortran_batch(B, n, k, t, dev);
  }
  if (rhs.size() == 0) return zeros(out_shape, t, dev);
  b.copy_to(view.reshape(with(batch, {n, k})));
  lu_solve(f, rhs);
  return view.reshape(out_shape);
}

Array inv(const Array& a) {
  assert_stacked_square(a);
  const Dtype t = common_type({&a});
  if (a.size() == 0) return Array::empty(a.shape(), t, a.device());
  const int64_t n = a.shape()[a.ndim() - 1];
  LU f = lu_factor(a, t);
  check_info(f.info, "Singular matrix");
  Array rhs = fortran_batch(f.lu.shape()[0], n, n, t, a.device());
  fill_identity(rhs);
  lu_solve(f, rhs);
  return rhs.reshape(a.shape());
}

SlogdetResult slogdet(const Array& a) {
  assert_stacked_square(a);
  const Dtype t = common_type({&a}), rt = real_dtype(t);
  const int64_t n = a.shape()[a.ndim() - 1];
  const Shape batch = batch_shape(a);
  Device& dev = a.device();
  if (prod(batch) == 0 || n == 0) {
    // The empty product: det 1, log|det| 0.
    Array one = asarray(std::vector<double>{1.0}, Shape{}, dev).astype(t);
    Array ones = Array::empty(batch, t, dev);
    one.copy_to(ones);
    return {ones, zeros(batch, rt, dev)};
  }
  LU f = lu_factor(a, t);
  // Each pivot that is not its own row is one row interchange; a failed
  // factorization has an exact zero on the diagonal (sign 0, log -inf).
  static const auto factor = kernels::ElementwiseSpec::create(
      "kumo_linalg_det_factor", "T d, int32 p, int64 j, int32 info", "T s, R l",
      "const R ad = (R)abs(d);\n"
      "if (info != 0 || ad == R(0)) { s = T(0); l = log(R(0)); }\n"
      "else { s = d / T(ad); if (p != j + 1) s = -s; l = log(ad); }");
  Array diag = f.lu.diagonal(0, 1, 2);  // (B, n)
  std::vector<int64_t> js(n);
  for (int64_t i = 0; i < n; ++i) js[i] = i;
  kernels::TypeBindings forced;
  auto outs = kernels::call_elementwise(
      *factor, {diag, f.ipiv, asarray(js, Shape{n}, dev), f.info.expand_dims({1})},
      {Array::empty(diag.shape(), t, dev), Array::empty(diag.shape(), rt, dev)});
  static const auto prod_spec = kernels::ReductionSpec::create("kumo_linalg_prod", "T x", "T y", "x", "a * b",
                                                               "y = a", "T(1)", "T");
  Array sign = kernels::call_reduction(*prod_spec, {outs[0]}, {}, {1}, false, false)[0];
  Array logdet = reduce(outs[1], Reduce::kSum, {1});
  return {sign.reshape(batch), logdet.reshape(batch)};
}

Array det(const Array& a) {
  auto [sign, logdet] = slogdet(a);
  return multiply(sign, exp(logdet));
}

// ---- factorizations ------------------------------------------------------------------

Array cholesky(const Array& a, bool upper) {
  assert_stacked_square(a);
  const Dtype t = common_type({&a});
  if (a.size() == 0) return Array::empty(a.shape(), t, a.device());
  Array work = to_work(a, t);
  Mat m = mat(work);
  Device& dev = a.device();
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  backend_for(dev).potrf(t, m.rows, m.data, m.ld, m.stride, i32(info), m.batch, dev.current_stream());
  check_info(info, "Matrix is not positive definite");
  // potrf leaves the strict upper triangle as it was: zero it.
  Array low = tril(work.reshape(a.shape()));
  return upper ? conj_t(low) : low;
}

QRResult qr(const Array& a, QRMode mode) {
  static const char* kMsg = "Incorrect argument found while performing QR factorization";
  assert_stacked_2d(a);
  const Dtype t = common_type({&a});
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1], k = std::min(m, n);
  const Shape batch = batch_shape(a);
  const int64_t B = prod(batch);
  Device& dev = a.device();
  Array work = to_work(a, t);
  Array tau;
  if (work.size()) {
    Mat w = mat(work);
    tau = Array::empty(Shape{B, k}, t, dev);
    Array info = Array::empty(Shape{B}, Dtype::kInt32, dev);
    backend_for(dev).geqrf(t, m, n, w.data, w.ld, w.stride, tau.data(), i32(info), B, dev.current_stream());
    check_info(info, kMsg);
  } else {
    tau = zeros(Shape{B, k}, t, dev);
  }
  auto rows = [&](int64_t r) { return work.view_with(Shape{B, r, n}, work.strides()); };
  if (mode == QRMode::kR) return {Array(), triu(rows(k)).reshape(with(batch, {k, n}))};
  if (mode == QRMode::kRaw)
    return {work.swapaxes(1, 2).reshape(with(batch, {n, m})), tau.reshape(with(batch, {k}))};
  const int64_t qcols = mode == QRMode::kComplete ? m : k;
  Array r = triu(rows(qcols)).reshape(with(batch, {qcols, n}));
  Array qwork;
  if (qcols == n && work.size()) {
    qwork = work;  // the reflectors sit in exactly the columns Q needs
  } else {
    qwork = zeros(Shape{B, qcols, m}, t, dev).transpose({0, 2, 1});
    const int64_t ncopy = std::min(n, qcols);
    if (qwork.size() && ncopy)
      work.view_with(Shape{B, m, ncopy}, work.strides())
          .copy_to(qwork.view_with(Shape{B, m, ncopy}, qwork.strides()));
  }
  if (qwork.size()) {
    if (k == 0) {
      fill_identity(qwork);  // no reflectors: Q is the identity's first columns
    } else {
      Mat q = mat(qwork);
      Array info = Array::empty(Shape{B}, Dtype::kInt32, dev);
      backend_for(dev).orgqr(t, m, qcols, k, q.data, q.ld, q.stride, tau.data(), k, i32(info), B,
                             dev.current_stream());
      check_info(info, kMsg);
    }
  }
  return {qwork.reshape(with(batch, {m, qcols})), r};
}

SVDResult svd(const Array& a, bool full_matrices, bool compute_uv) {
  assert_stacked_2d(a);
  const Dtype t = common_type({&a}), rt = real_dtype(t);
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1], k = std::min(m, n);
  const Shape batch = batch_shape(a);
  const int64_t B = prod(batch);
  Device& dev = a.device();
  const int64_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
  if (a.size() == 0) {
    Array s = Array::empty(with(batch, {k}), rt, dev);
    if (!compute_uv) return {Array(), s, Array()};
    Array u = zeros(with(batch, {m, ucols}), t, dev), vh = zeros(with(batch, {vrows, n}), t, dev);
    // With no singular values the full bases are any orthonormal ones; NumPy gives identities.
    if (full_matrices) {
      fill_identity(u.reshape(Shape{B, m, m}));
      fill_identity(vh.reshape(Shape{B, n, n}));
    }
    return {u, s, vh};
  }
  // LAPACK's SVD drivers reject NaN as an illegal argument; NumPy reports non-convergence.
  if (any_nan(a)) throw LinAlgError("SVD did not converge");
  Array work = to_work(a, t);
  Mat w = mat(work);
  Array s = Array::empty(Shape{B, k}, rt, dev);
  Array info = Array::empty(Shape{B}, Dtype::kInt32, dev);
  Array u, vt;
  Mat mu{nullptr, B, 0, 0, 1, 0}, mv{nullptr, B, 0, 0, 1, 0};
  if (compute_uv) {
    u = fortran_batch(B, m, ucols, t, dev);
    vt = fortran_batch(B, vrows, n, t, dev);
    mu = mat(u);
    mv = mat(vt);
  }
  const char job = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  backend_for(dev).gesvd(t, job, m, n, w.data, w.ld, w.stride, s.data(), mu.data, mu.ld, mu.stride, mv.data, mv.ld,
                         mv.stride, i32(info), B, dev.current_stream());
  check_info(info, "SVD did not converge");
  Array sv = s.reshape(with(batch, {k}));
  if (!compute_uv) return {Array(), sv, Array()};
  return {u.reshape(with(batch, {m, ucols})), sv, vt.reshape(with(batch, {vrows, n}))};
}

Array svdvals(const Array& a) { return svd(a, false, false).S; }

namespace {
EighResult eigh_impl(const Array& a, char uplo, bool vectors) {
  if (uplo != 'L' && uplo != 'U') throw ValueError("UPLO argument must be 'L' or 'U'");
  assert_stacked_square(a);
  const Dtype t = common_type({&a}), rt = real_dtype(t);
  const int64_t n = a.shape()[a.ndim() - 1];
  const Shape batch = batch_shape(a);
  Device& dev = a.device();
  if (a.size() == 0)
    return {Array::empty(with(batch, {n}), rt, dev), vectors ? Array::empty(a.shape(), t, dev) : Array()};
  // syevd reads the lower triangle; the upper triangle of a is the lower of a^H.
  Array work = to_work(a, t, uplo == 'U');
  Mat m = mat(work);
  Array w = Array::empty(Shape{m.batch, n}, rt, dev);
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  backend_for(dev).syevd(t, vectors, n, m.data, m.ld, m.stride, w.data(), i32(info), m.batch,
                         dev.current_stream());
  check_info(info, "Eigenvalues did not converge");
  return {w.reshape(with(batch, {n})), vectors ? work.reshape(a.shape()) : Array()};
}
}  // namespace

EighResult eigh(const Array& a, char uplo) { return eigh_impl(a, uplo, true); }
Array eigvalsh(const Array& a, char uplo) { return eigh_impl(a, uplo, false).eigenvalues; }

// ---- norms ----------------------------------------------------------------------------

NormOrder NormOrder::from_string(const std::string& s) {
  if (s == "fro" || s == "f") return fro();
  if (s == "nuc") return nuc();
  throw ValueError("Invalid norm order '" + s + "' for vectors");
}

namespace {

// |x|^2 elementwise, real.
Array abs_sq(const Array& x) {
  if (is_complex(x.dtype())) return add(square(x.real_view()), square(x.imag_view()));
  return square(x);
}

int normalize_axis(int64_t ax, int ndim) {
  if (ax < -ndim || ax >= ndim)
    throw AxisError("axis " + std::to_string(ax) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  return static_cast<int>(ax < 0 ? ax + ndim : ax);
}

Array vector_norm_along(const Array& x, const NormOrder& ord, int64_t axis, bool keepdims) {
  const std::vector<int64_t> ax{axis};
  const double inf = std::numeric_limits<double>::infinity();
  if (ord.is(inf)) return reduce(absolute(x), Reduce::kMax, ax, keepdims);
  if (ord.is(-inf)) return reduce(absolute(x), Reduce::kMin, ax, keepdims);
  if (ord.is(0)) return reduce(not_equal(x, 0).astype(real_dtype(x.dtype())), Reduce::kSum, ax, keepdims);
  if (ord.is(1)) return reduce(absolute(x), Reduce::kSum, ax, keepdims);
  if (ord.is_none() || ord.is(2)) return sqrt(reduce(abs_sq(x), Reduce::kSum, ax, keepdims));
  if (!ord.is_number()) throw ValueError(std::string("Invalid norm order '") + (ord.is_nuc() ? "nuc" : "fro") +
                                         "' for vectors");
  Array absx = absolute(x);
  absx = power(absx, ord.value()).astype(absx.dtype(), Order::kK, false);
  Array ret = reduce(absx, Reduce::kSum, ax, keepdims);
  return power(ret, 1.0 / ord.value()).astype(ret.dtype(), Order::kK, false);
}

Array matrix_norm_over(const Array& x, const NormOrder& ord, int row, int col) {
  const double inf = std::numeric_limits<double>::infinity();
  auto svd_values = [&]() {
    std::vector<int64_t> perm;
    for (int i = 0; i < x.ndim(); ++i)
      if (i != row && i != col) perm.push_back(i);
    perm.push_back(row);
    perm.push_back(col);
    return svd(x.transpose(perm), false, false).S;
  };
  if (ord.is(2)) return reduce(svd_values(), Reduce::kMax, {-1});
  if (ord.is(-2)) return reduce(svd_values(), Reduce::kMin, {-1});
  if (ord.is_nuc()) return reduce(svd_values(), Reduce::kSum, {-1});
  if (ord.is_none() || ord.is_fro()) return sqrt(reduce(abs_sq(x), Reduce::kSum, {row, col}));
  // 1/-1: extreme column sums; inf/-inf: extreme row sums.
  const bool cols = ord.is(1) || ord.is(-1);
  if (!cols && !ord.is(inf) && !ord.is(-inf)) throw ValueError("Invalid norm order for matrices.");
  const int summed = cols ? row : col;
  int kept = cols ? col : row;
  if (kept > summed) --kept;
  Array sums = reduce(absolute(x), Reduce::kSum, {summed});
  return reduce(sums, ord.is(1) || ord.is(inf) ? Reduce::kMax : Reduce::kMin, {kept});
}

}  // namespace

Array norm(const Array& x_in, NormOrder ord, const std::vector<int64_t>& axis, bool keepdims) {
  Array x = x_in;
  if (!(is_complex(x.dtype()) || kind_char(x.dtype()) == 'f')) x = x.astype(Dtype::kFloat64);
  const int nd = x.ndim();
  if (axis.empty()) {
    if (ord.is_none() || (nd == 2 && ord.is_fro()) || (nd == 1 && ord.is(2))) {
      Array ret = sqrt(reduce(abs_sq(x.reshape(Shape{-1})), Reduce::kSum, {}));
      return keepdims ? ret.reshape(Shape(nd, 1)) : ret;
    }
  }
  std::vector<int64_t> axes = axis;
  if (axes.empty())
    for (int i = 0; i < nd; ++i) axes.push_back(i);
  if (axes.size() == 1) return vector_norm_along(x, ord, normalize_axis(axes[0], nd), keepdims);
  if (axes.size() == 2) {
    const int row = normalize_axis(axes[0], nd), col = normalize_axis(axes[1], nd);
    if (row == col) throw ValueError("Duplicate axes given.");
    Array ret = matrix_norm_over(x, ord, row, col);
    if (keepdims) {
      Shape s = x.shape();
      s[row] = 1;
      s[col] = 1;
      ret = ret.reshape(s);
    }
    return ret;
  }
  throw ValueError("Improper number of dimensions to norm.");
}

}  // namespace linalg
}  // namespace kumo
