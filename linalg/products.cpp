// Products (matmul, dot, vdot, inner, outer, tensordot) with NumPy 2's
// semantics; see products.h. The GEMM plumbing turns stacks of matrices into
// the (batch, rows, cols) operands the backend takes, as views whenever the
// strides allow, so a product of ordinary arrays never copies its inputs.
#include "linalg/products.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <memory>
#include <string>

#include "core/backend_registry.h"
#include "core/errors.h"
#include "kernels/copy.h"
#include "kernels/reduction.h"
#include "kernels/spec.h"
#include "routines/elementwise.h"

namespace kumo {
namespace linalg {
namespace detail {

LinalgBackend& backend_for(Device& device) { return require_backend<LinalgBackend>(device, "linalg"); }

Dtype product_compute_dtype(Dtype dt) { return dt == Dtype::kFloat16 ? Dtype::kFloat32 : dt; }

// Leading dimension of a column-major view of (rows x cols) with byte
// strides s_row / s_col; false when the strides do not describe one. A single
// row or column has no meaningful stride along that extent.
bool column_major_ld(int64_t rows, int64_t cols, int64_t s_row, int64_t s_col, int64_t isz, int64_t* ld) {
  if (rows == 0 || cols == 0 || cols == 1) {
    if (rows > 1 && s_row != isz && cols != 0) return false;
    *ld = std::max<int64_t>(1, rows);
    return true;
  }
  if (rows > 1 && s_row != isz) return false;
  if (s_col % isz != 0) return false;
  int64_t l = s_col / isz;
  if (l < std::max<int64_t>(1, rows)) return false;
  *ld = l;
  return true;
}

bool batch_stride(const Array& a, int64_t* stride) {
  if (a.shape()[0] <= 1) {
    *stride = 0;
    return true;
  }
  if (a.strides()[0] % a.itemsize() != 0) return false;
  *stride = a.strides()[0] / a.itemsize();
  return true;
}

bool is_blas_dtype(Dtype d) {
  return d == Dtype::kFloat32 || d == Dtype::kFloat64 || d == Dtype::kComplex64 || d == Dtype::kComplex128;
}

ScalarBytes scalar_of(Dtype dtype, double value) {
  if (!is_blas_dtype(dtype)) throw TypeError(std::string("linalg: unsupported dtype ") + dtype_name(dtype));
  kernels::ScalarValue v;
  v.kind = WeakScalar::kFloat;
  v.f = value;
  v.c = value;
  ScalarBytes s{};
  kernels::store_scalar(v, dtype, s.bytes);
  return s;
}

namespace {


// One gemm operand: column-major storage of the matrix or of its transpose.
struct GemmOperand {
  const char* data;
  int64_t ld, stride;
  bool transposed;
};

bool gemm_operand(const Array& a, GemmOperand* op) {
  const int64_t isz = a.itemsize(), r = a.shape()[1], c = a.shape()[2];
  int64_t stride, ld;
  if (!batch_stride(a, &stride)) return false;
  if (column_major_ld(r, c, a.strides()[1], a.strides()[2], isz, &ld)) {
    *op = GemmOperand{a.data(), ld, stride, false};
    return true;
  }
  if (column_major_ld(c, r, a.strides()[2], a.strides()[1], isz, &ld)) {
    *op = GemmOperand{a.data(), ld, stride, true};
    return true;
  }
  return false;
}

std::string gemm_arg(const char* arg) { return std::string("linalg.gemm: argument '") + arg + "'"; }

}  // namespace

void gemm(const Array& a, const Array& b, const Array& out) {
  for (const auto& [x, name] : {std::pair<const Array*, const char*>{&a, "a"}, {&b, "b"}, {&out, "out"}}) {
    if (x->ndim() != 3)
      throw ValueError(gemm_arg(name) + " must be a 3-D (batch, rows, cols) array, got " +
                       std::to_string(x->ndim()) + " dimensions");
    if (!is_blas_dtype(x->dtype()))
      throw TypeError(gemm_arg(name) + " has unsupported dtype " + dtype_name(x->dtype()) +
                      " (expected float32, float64, complex64 or complex128)");
    if (x->dtype() != out.dtype())
      throw TypeError(gemm_arg(name) + " has dtype " + dtype_name(x->dtype()) + ", expected " +
                      dtype_name(out.dtype()));
  }
  check_same_device({&a, &b, &out});
  if (!out.writeable()) throw ValueError(gemm_arg("out") + " is read-only but is written to");
  const int64_t batch = out.shape()[0], m = out.shape()[1], n = out.shape()[2], k = a.shape()[2];
  if (a.shape()[1] != m || b.shape()[1] != k || b.shape()[2] != n)
    throw ValueError("linalg.gemm: shapes (" + std::to_string(a.shape()[1]) + "," + std::to_string(k) + ") @ (" +
                     std::to_string(b.shape()[1]) + "," + std::to_string(b.shape()[2]) + ") -> (" +
                     std::to_string(m) + "," + std::to_string(n) + ") do not match");
  for (const auto& [x, name] : {std::pair<const Array*, const char*>{&a, "a"}, {&b, "b"}})
    if (x->shape()[0] != batch && x->shape()[0] != 1)
      throw ValueError(gemm_arg(name) + " has batch size " + std::to_string(x->shape()[0]) + ", expected 1 or " +
                       std::to_string(batch));
  GemmOperand oc;
  if (!gemm_operand(out, &oc)) throw ValueError(gemm_arg("out") + " must hold row-major or column-major matrices");
  if (batch > 1 && oc.stride == 0) throw ValueError(gemm_arg("out") + " repeats one matrix across the batch");
  if (batch == 0 || m == 0 || n == 0) return;
  const Dtype dt = out.dtype();
  if (k == 0) {
    ScalarBytes zero = scalar_of(dt, 0.0);
    kernels::fill_bytes(out, zero.bytes);
    return;
  }
  // Operands with other strides (negative, stepped) become C-contiguous
  // copies, and so do operands in out's memory: BLAS would read entries it
  // has already overwritten.
  Array ac = a, bc = b;
  GemmOperand oa, ob;
  if (a.shares_memory_with(out) || !gemm_operand(ac, &oa)) {
    ac = a.copy(Order::kC);
    gemm_operand(ac, &oa);
  }
  if (b.shares_memory_with(out) || !gemm_operand(bc, &ob)) {
    bc = b.copy(Order::kC);
    gemm_operand(bc, &ob);
  }
  if (a.shape()[0] == 1) oa.stride = 0;
  if (b.shape()[0] == 1) ob.stride = 0;
  ScalarBytes one = scalar_of(dt, 1.0), zero = scalar_of(dt, 0.0);
  LinalgBackend& be = backend_for(out.device());
  StreamHandle stream = out.device().current_stream();
  auto flag = [](bool t) { return t ? Transpose::kTrans : Transpose::kNo; };
  if (!oc.transposed) {
    be.gemm(dt, flag(oa.transposed), flag(ob.transposed), m, n, k, one.bytes, oa.data, oa.ld, oa.stride, ob.data,
            ob.ld, ob.stride, zero.bytes, const_cast<char*>(oc.data), oc.ld, oc.stride, batch, stream);
  } else {
    // A row-major out is the column-major out^T = b^T @ a^T.
    be.gemm(dt, flag(!ob.transposed), flag(!oa.transposed), n, m, k, one.bytes, ob.data, ob.ld, ob.stride, oa.data,
            oa.ld, oa.stride, zero.bytes, const_cast<char*>(oc.data), oc.ld, oc.stride, batch, stream);
  }
}

}  // namespace detail
}  // namespace linalg

namespace {

using linalg::detail::is_blas_dtype;
using linalg::detail::product_compute_dtype;

constexpr const char* kMatmulSig = "(n?,k),(k,m?)->(n?,m?)";

// NumPy's gufunc messages print shapes without spaces: "(2,3)", "(4,)".
std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (int i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

int64_t prod(const Shape& s, int begin = 0, int end = -1) {
  if (end < 0) end = s.size();
  int64_t p = 1;
  for (int i = begin; i < end; ++i) p *= s[i];
  return p;
}

Shape sub(const Shape& s, int begin, int end) {
  Shape r;
  for (int i = begin; i < end; ++i) r.push_back(s[i]);
  return r;
}

Shape cat(Shape a, std::initializer_list<int64_t> tail) {
  for (int64_t v : tail) a.push_back(v);
  return a;
}

Array zeros_on(const Shape& shape, Dtype dtype, Device& device) {
  Array r = Array::empty(shape, dtype, device);
  // All-zero bytes are zero in every dtype.
  alignas(16) unsigned char zero[16] = {};
  if (r.size()) kernels::fill_bytes(r, zero);
  return r;
}

// Strides (of an r x c matrix) that GEMM takes directly, row- or
// column-major with a valid leading dimension; size-1 axes never address
// anything, so their strides are chosen to fit.
bool blas_matrix_strides(int64_t r, int64_t c, int64_t sr, int64_t sc, int64_t isz, int64_t* out_sr,
                         int64_t* out_sc) {
  int64_t rsc = c == 1 ? isz : sc, rsr = r == 1 ? c * isz : sr;
  if (rsc == isz && rsr >= std::max<int64_t>(c, 1) * isz && rsr % isz == 0) {
    *out_sr = rsr;
    *out_sc = rsc;
    return true;
  }
  int64_t csr = r == 1 ? isz : sr, csc = c == 1 ? r * isz : sc;
  if (csr == isz && csc >= std::max<int64_t>(r, 1) * isz && csc % isz == 0) {
    *out_sr = csr;
    *out_sc = csc;
    return true;
  }
  return false;
}

// The single stride that walks the axes `dims` in C order, or nullopt when
// they are not one evenly strided sequence; size-1 axes are ignored.
std::optional<int64_t> merged_stride(const int64_t* dims, const int64_t* strides, int n) {
  std::optional<int64_t> stride;
  int64_t span = 0;
  for (int i = n - 1; i >= 0; --i) {
    if (dims[i] == 1) continue;
    if (!stride) {
      stride = strides[i];
      span = strides[i] * dims[i];
    } else if (strides[i] == span) {
      span = strides[i] * dims[i];
    } else {
      return std::nullopt;
    }
  }
  return stride ? *stride : 0;
}

// x (*xb, r, c), xb broadcastable to `batch`, as a 3-D (Bx, r, c) gemm
// operand with Bx = 1 (one matrix for the whole batch) or prod(batch): a view
// when the layout allows, else a C-ordered copy.
Array as_gemm3(const Array& x, const Shape& batch) {
  const int nd = x.ndim();
  const int64_t r = x.shape()[nd - 2], c = x.shape()[nd - 1], isz = x.itemsize();
  const int nb = batch.size();
  const Shape full_shape = cat(batch, {r, c});
  Array full = x.shape() == full_shape ? x : x.broadcast_to(full_shape);
  int64_t sr = 0, sc = 0;  // set when mats is true
  const bool mats = blas_matrix_strides(r, c, full.strides()[nb], full.strides()[nb + 1], isz, &sr, &sc);
  bool single = true;
  for (int i = 0; i < nb; ++i) single &= full.strides()[i] == 0 || batch[i] == 1;
  if (single) {
    if (mats) return full.view_with(Shape{1, r, c}, Strides{r * c * isz, sr, sc});
    Array one = full.view_with(Shape{r, c}, Strides{full.strides()[nb], full.strides()[nb + 1]});
    return one.copy(Order::kC).reshape(Shape{1, r, c});
  }
  const int64_t B = prod(batch);
  if (mats) {
    auto bs = merged_stride(batch.data(), full.strides().data(), nb);
    if (bs && *bs > 0 && *bs % isz == 0) return full.view_with(Shape{B, r, c}, Strides{*bs, sr, sc});
  }
  return full.copy(Order::kC).reshape(Shape{B, r, c});
}

// out (*batch, m, n) as a (B, m, n) view gemm can write into, if there is one.
std::optional<Array> out_gemm3(const Array& out, const Shape& batch) {
  const int nd = out.ndim(), nb = batch.size();
  const int64_t m = out.shape()[nd - 2], n = out.shape()[nd - 1], isz = out.itemsize();
  int64_t sr = 0, sc = 0;
  if (!blas_matrix_strides(m, n, out.strides()[nd - 2], out.strides()[nd - 1], isz, &sr, &sc)) return std::nullopt;
  const int64_t B = prod(batch);
  auto bs = merged_stride(batch.data(), out.strides().data(), nb);
  if (!bs || *bs < 0 || *bs % isz != 0 || (B > 1 && *bs == 0)) return std::nullopt;
  return out.view_with(Shape{B, m, n}, Strides{B > 1 ? *bs : m * n * isz, sr, sc});
}

// When a (*batch, m, k) stacks its rows evenly in memory (C-ordered, say),
// the (1, B*m, k) view that lets one GEMM serve the whole batch against a
// single right-hand matrix.
std::optional<Array> fold_rows(const Array& a, const Shape& batch) {
  const int nd = a.ndim(), nb = batch.size();
  if (sub(a.shape(), 0, nd - 2) != batch) return std::nullopt;
  const int64_t m = a.shape()[nd - 2], k = a.shape()[nd - 1], isz = a.itemsize();
  if (k > 1 && a.strides()[nd - 1] != isz) return std::nullopt;
  auto rows = merged_stride(a.shape().data(), a.strides().data(), nb + 1);
  if (!rows || *rows < std::max<int64_t>(k, 1) * isz || *rows % isz != 0) return std::nullopt;
  const int64_t M = prod(batch) * m;
  return a.view_with(Shape{1, M, k}, Strides{M * *rows, *rows, isz});
}

// a (*ba, m, k) @ b (*bb, k, n) for one BLAS dtype, batch = broadcast(ba, bb),
// into `out` (*batch, m, n) of that dtype when given (not overlapping a, b).
Array gemm_product(const Array& a, const Array& b, const Shape& batch, const Array& out) {
  const int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1], n = b.shape()[b.ndim() - 1];
  const Shape shape = cat(batch, {m, n});
  const int64_t B = prod(batch);
  Device& dev = a.device();
  if (B == 0 || m == 0 || n == 0) return out.defined() ? out : Array::empty(shape, a.dtype(), dev);
  if (k == 0) {
    if (!out.defined()) return zeros_on(shape, a.dtype(), dev);
    alignas(16) unsigned char zero[16] = {};
    kernels::fill_bytes(out, zero);
    return out;
  }
  if (B > 1 && prod(b.shape(), 0, b.ndim() - 2) == 1) {
    if (auto fa = fold_rows(a, batch)) {
      Array res = out.defined() ? out : Array::empty(shape, a.dtype(), dev);
      auto fo = fold_rows(res, batch);
      bool into_out = out.defined();
      if (!fo) {
        res = Array::empty(shape, a.dtype(), dev);
        fo = fold_rows(res, batch);
        into_out = false;
      }
      Array b2 = b.view_with(Shape{k, n}, Strides{b.strides()[b.ndim() - 2], b.strides()[b.ndim() - 1]});
      linalg::detail::gemm(*fa, as_gemm3(b2, Shape{}), *fo);
      if (out.defined() && !into_out) {
        res.copy_to(out);
        return out;
      }
      return res;
    }
  }
  Array a3 = as_gemm3(a, batch), b3 = as_gemm3(b, batch);
  Array res = out;
  std::optional<Array> o3;
  if (out.defined()) o3 = out_gemm3(out, batch);
  if (!o3) {
    res = Array::empty(shape, a.dtype(), dev);
    o3 = res.reshape(Shape{B, m, n});
  }
  linalg::detail::gemm(a3, b3, *o3);
  if (out.defined() && !o3->shares_memory_with(out)) {
    res.copy_to(out);
    return out;
  }
  return res;
}

// The integer product kernel: products and sums modulo 2**64 (unsigned
// arithmetic is defined to wrap), narrowed at the end to NumPy's wrapped
// result in T. bool: the logical or of ands.
const kernels::ReductionSpec& int_product_spec() {
  static const auto spec = kernels::ReductionSpec::create(
      "kumo_int_matmul", "T x, T y", "T z", "(unsigned long long)x * (unsigned long long)y", "a + b", "z = (T)a",
      "0", "unsigned long long");
  return *spec;
}
const kernels::ReductionSpec& bool_product_spec() {
  static const auto spec =
      kernels::ReductionSpec::create("kumo_bool_matmul", "bool x, bool y", "bool z", "x && y", "a || b", "z = a",
                                     "false", "bool");
  return *spec;
}

Array kernel_product(const Array& a, const Array& b) {
  // a[..., :, :, None] * b[..., None, :, :] summed over the k axis.
  Array x = a.expand_dims({a.ndim()}), y = b.expand_dims({b.ndim() - 2});
  const int nd = std::max(x.ndim(), y.ndim());
  const auto& spec = a.dtype() == Dtype::kBool ? bool_product_spec() : int_product_spec();
  return kernels::call_reduction(spec, {x, y}, {}, {nd - 2}, false, false)[0];
}

// A BLAS float dtype in which a length-k product of `dt` operands is exact:
// bool counts true terms, 8/16-bit integers have |products| below 2**16 and
// 2**32, so every partial sum stays below 2**24 (float32) / 2**53 (float64).
std::optional<Dtype> exact_float_route(Dtype dt, int64_t k) {
  switch (dt) {
    case Dtype::kBool: if (k < (int64_t{1} << 24)) return Dtype::kFloat32; break;
    case Dtype::kInt8: case Dtype::kUInt8: if (k < (int64_t{1} << 37)) return Dtype::kFloat64; break;
    case Dtype::kInt16: case Dtype::kUInt16: if (k < (int64_t{1} << 21)) return Dtype::kFloat64; break;
    default: break;
  }
  return std::nullopt;
}

// a (*ba, m, k) @ b (*bb, k, n), both in the compute dtype; `out` as in gemm_product.
Array product(const Array& a, const Array& b, const Shape& batch, const Array& out) {
  if (is_blas_dtype(a.dtype())) return gemm_product(a, b, batch, out);
  Array res;
  if (auto via = exact_float_route(a.dtype(), a.shape()[a.ndim() - 1])) {
    Array r = gemm_product(a.astype(*via), b.astype(*via), batch, Array());
    // The float result is exact; int64 then wraps it into narrow types the
    // way NumPy's integer loops do.
    res = a.dtype() == Dtype::kBool ? r.astype(Dtype::kBool) : r.astype(Dtype::kInt64).astype(a.dtype());
  } else {
    res = kernel_product(a, b);
  }
  if (out.defined()) {
    res.copy_to(out);
    return out;
  }
  return res;
}

// a (..., m, k) @ b (..., k, n) (ndim >= 2, core sizes checked) in `res_dt`.
Array matmul_nd(const Array& a, const Array& b, Dtype res_dt) {
  const Dtype cdt = product_compute_dtype(res_dt);
  Array a2 = a.astype(cdt, Order::kK, false), b2 = b.astype(cdt, Order::kK, false);
  Shape batch = broadcast_shapes({sub(a.shape(), 0, a.ndim() - 2), sub(b.shape(), 0, b.ndim() - 2)});
  return product(a2, b2, batch, Array()).astype(res_dt, Order::kK, false);
}

Dtype resolve_dtypes(const char* name, const Array& a, const Array& b, const MatmulOptions& o) {
  Dtype res;
  if (!o.dtype()) {
    res = result_type({a.dtype(), b.dtype()}, {});
  } else {
    res = *o.dtype();
    const Array* ins[2] = {&a, &b};
    for (int i = 0; i < 2; ++i)
      if (!can_cast(ins[i]->dtype(), res, o.casting()))
        throw CastingError(std::string("Cannot cast ufunc '") + name + "' input " + std::to_string(i) + " from " +
                           dtype_repr(ins[i]->dtype()) + " to " + dtype_repr(res) + " with casting rule '" +
                           casting_name(o.casting()) + "'");
  }
  if (o.out().defined() && !can_cast(res, o.out().dtype(), o.casting()))
    throw CastingError(std::string("Cannot cast ufunc '") + name + "' output from " + dtype_repr(res) + " to " +
                       dtype_repr(o.out().dtype()) + " with casting rule '" + casting_name(o.casting()) + "'");
  return res;
}

void check_out_shape(const char* name, const char* sig, const Array& out, const Shape& core, const Shape& batch) {
  const int nc = core.size();
  if (out.ndim() < nc)
    throw ValueError(std::string(name) + ": Output operand 0 does not have enough dimensions (has " +
                     std::to_string(out.ndim()) + ", gufunc core with signature " + sig + " requires " +
                     std::to_string(nc) + ")");
  for (int i = 0; i < nc; ++i) {
    const int64_t got = out.shape()[out.ndim() - nc + i];
    if (got != core[i])
      throw ValueError(std::string(name) + ": Output operand 0 has a mismatch in its core dimension " +
                       std::to_string(i) + ", with gufunc signature " + sig + " (size " + std::to_string(got) +
                       " is different from " + std::to_string(core[i]) + ")");
  }
  const Shape obatch = sub(out.shape(), 0, out.ndim() - nc);
  std::optional<Shape> full;
  try {
    full = broadcast_shapes({obatch, batch});
  } catch (const ValueError&) {
  }
  if (!full || *full != obatch) {
    Shape want = full ? *full : batch;
    for (int64_t c : core) want.push_back(c);
    throw ValueError("non-broadcastable output operand with shape " + shape_str(out.shape()) +
                     " doesn't match the broadcast shape " + shape_str(want));
  }
}

std::string remapped(const Array& x, int64_t r, int64_t c) {
  std::string s = shape_str(x.shape()) + "->(";
  if (x.ndim() > 2) {
    for (int i = 0; i < x.ndim() - 2; ++i) s += std::to_string(x.shape()[i]) + ",";
    return s + "newaxis,newaxis)";
  }
  return s + std::to_string(r) + "," + std::to_string(c) + ")";
}

std::string not_aligned(const Array& a, const Array& b, int da, int db) {
  return "shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) + " not aligned: " +
         std::to_string(a.shape()[da]) + " (dim " + std::to_string(da) + ") != " + std::to_string(b.shape()[db]) +
         " (dim " + std::to_string(db) + ")";
}

Array tensordot_impl(const Array& a, const Array& b, const std::vector<int>& axes_a, const std::vector<int>& axes_b,
                     Dtype res_dt) {
  std::vector<int64_t> perm_a, perm_b;
  Shape res_shape;
  int64_t M = 1, N = 1, K = 1;
  for (int i = 0; i < a.ndim(); ++i)
    if (std::find(axes_a.begin(), axes_a.end(), i) == axes_a.end()) {
      perm_a.push_back(i);
      M *= a.shape()[i];
      res_shape.push_back(a.shape()[i]);
    }
  for (int i : axes_a) {
    perm_a.push_back(i);
    K *= a.shape()[i];
  }
  for (int i : axes_b) perm_b.push_back(i);
  for (int i = 0; i < b.ndim(); ++i)
    if (std::find(axes_b.begin(), axes_b.end(), i) == axes_b.end()) {
      perm_b.push_back(i);
      N *= b.shape()[i];
      res_shape.push_back(b.shape()[i]);
    }
  Array a2 = a.transpose(perm_a).reshape(Shape{M, K}), b2 = b.transpose(perm_b).reshape(Shape{K, N});
  return matmul_nd(a2, b2, res_dt).reshape(res_shape);
}

}  // namespace

namespace linalg {
namespace detail {

// matmul under another gufunc's name (matvec, vecmat report their own).
Array matmul_named(const Array& a, const Array& b, const MatmulOptions& options, const char* name) {
  for (int i = 0; i < 2; ++i) {
    const Array& x = i ? b : a;
    if (!x.defined()) throw TypeError(std::string(name) + ": operand " + std::to_string(i) + " is not an array");
    if (x.ndim() == 0)
      throw ValueError(std::string(name) + ": Input operand " + std::to_string(i) +
                       " does not have enough dimensions (has 0, gufunc core with signature " + kMatmulSig +
                       " requires 1)");
  }
  const Array& out = options.out();
  check_same_device({&a, &b, &out});
  if (out.defined() && !out.writeable()) throw ValueError("output array is read-only");
  const Dtype res_dt = resolve_dtypes(name, a, b, options);
  const Array a2 = a.ndim() == 1 ? a.expand_dims({0}) : a;
  const Array b2 = b.ndim() == 1 ? b.expand_dims({1}) : b;
  const int64_t m = a2.shape()[a2.ndim() - 2], k = a2.shape()[a2.ndim() - 1];
  const int64_t bk = b2.shape()[b2.ndim() - 2], n = b2.shape()[b2.ndim() - 1];
  if (bk != k)
    throw ValueError(std::string(name) + ": Input operand 1 has a mismatch in its core dimension 0, with gufunc " +
                     "signature " + kMatmulSig + " (size " + std::to_string(bk) + " is different from " +
                     std::to_string(k) + ")");
  Shape batch;
  try {
    batch = broadcast_shapes({sub(a2.shape(), 0, a2.ndim() - 2), sub(b2.shape(), 0, b2.ndim() - 2)});
  } catch (const ValueError&) {
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                     remapped(a, m, k) + " " + remapped(b, bk, n) + "  and requested shape (" + std::to_string(m) +
                     "," + std::to_string(n) + ")");
  }
  Shape core;
  if (a.ndim() > 1) core.push_back(m);
  if (b.ndim() > 1) core.push_back(n);
  if (out.defined()) check_out_shape(name, kMatmulSig, out, core, batch);
  const Dtype cdt = product_compute_dtype(res_dt);
  const Array ac = a2.astype(cdt, Order::kK, false), bc = b2.astype(cdt, Order::kK, false);
  if (out.defined() && out.dtype() == cdt && sub(out.shape(), 0, out.ndim() - core.size()) == batch &&
      !out.shares_memory_with(a) && !out.shares_memory_with(b)) {
    // Write straight into out, seen with the removed core axes put back.
    Array full = out;
    if (a.ndim() == 1) full = full.expand_dims({full.ndim() - (b.ndim() > 1 ? 1 : 0)});
    if (b.ndim() == 1) full = full.expand_dims({full.ndim()});
    product(ac, bc, batch, full);
    return out;
  }
  Array res = product(ac, bc, batch, Array());
  if (a.ndim() == 1 || b.ndim() == 1) {
    std::vector<int64_t> drop;
    if (a.ndim() == 1) drop.push_back(res.ndim() - 2);
    if (b.ndim() == 1) drop.push_back(res.ndim() - 1);
    res = res.squeeze(drop);
  }
  res = res.astype(res_dt, Order::kK, false);
  if (out.defined()) {
    res.copy_to(out);
    return out;
  }
  return res;
}

}  // namespace detail
}  // namespace linalg

Array matmul(const Array& a, const Array& b, const MatmulOptions& options) {
  return linalg::detail::matmul_named(a, b, options, "matmul");
}

Array dot(const Array& a, const Array& b, const Array& out) {
  const Dtype res_dt = result_type({a.dtype(), b.dtype()}, {});
  Array res;
  if (a.ndim() == 0 || b.ndim() == 0) {
    res = multiply(a, b);
  } else {
    const int db = b.ndim() == 1 ? 0 : b.ndim() - 2;
    if (a.shape()[a.ndim() - 1] != b.shape()[db]) throw ValueError(not_aligned(a, b, a.ndim() - 1, db));
    // matmul's 1-d promotion gives dot's shapes when b has at most 2 axes.
    res = b.ndim() <= 2 ? matmul(a, b) : tensordot_impl(a, b, {a.ndim() - 1}, {b.ndim() - 2}, res_dt);
  }
  if (!out.defined()) return res;
  if (out.dtype() != res_dt || out.ndim() != res.ndim() || !out.c_contiguous())
    throw ValueError(
        "output array is not acceptable (must have the right datatype, number of dimensions, and be a C-Array)");
  if (out.shape() != res.shape()) throw ValueError("output array has wrong dimensions");
  res.copy_to(out);
  return out;
}

Array vdot(const Array& a, const Array& b) {
  Array x = a.reshape(Shape{-1}), y = b.reshape(Shape{-1});
  if (x.size() != y.size()) throw ValueError("vectors have different lengths");
  if (is_complex(x.dtype())) x = conjugate(x);
  return matmul(x, y);
}

Array inner(const Array& a, const Array& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  if (a.shape()[a.ndim() - 1] != b.shape()[b.ndim() - 1])
    throw ValueError(not_aligned(a, b, a.ndim() - 1, b.ndim() - 1));
  return tensordot_impl(a, b, {a.ndim() - 1}, {b.ndim() - 1}, result_type({a.dtype(), b.dtype()}, {}));
}

Array outer(const Array& a, const Array& b, const Array& out) {
  Array x = a.reshape(Shape{-1}).expand_dims({1}), y = b.reshape(Shape{-1}).expand_dims({0});
  return out.defined() ? multiply(x, y, UfuncOptions(out)) : multiply(x, y);
}

Array tensordot(const Array& a, const Array& b, int64_t axes) {
  std::vector<int64_t> axes_a, axes_b;
  // NumPy's literal ranges: a negative N gives empty lists (an outer product).
  for (int64_t i = -axes; i < 0; ++i) axes_a.push_back(i);
  for (int64_t i = 0; i < axes; ++i) axes_b.push_back(i);
  return tensordot(a, b, axes_a, axes_b);
}

Array tensordot(const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                const std::vector<int64_t>& axes_b) {
  if (axes_a.size() != axes_b.size()) throw ValueError("shape-mismatch for sum");
  auto normalize = [](const std::vector<int64_t>& axes, int ndim) {
    std::vector<int> r;
    for (int64_t ax : axes) {
      // NumPy indexes the shape tuple with the axis, hence IndexError.
      if (ax < -ndim || ax >= ndim) throw IndexError("tuple index out of range");
      r.push_back(static_cast<int>(ax < 0 ? ax + ndim : ax));
    }
    return r;
  };
  const std::vector<int> na = normalize(axes_a, a.ndim()), nb = normalize(axes_b, b.ndim());
  for (size_t i = 0; i < na.size(); ++i)
    if (a.shape()[na[i]] != b.shape()[nb[i]]) throw ValueError("shape-mismatch for sum");
  return tensordot_impl(a, b, na, nb, result_type({a.dtype(), b.dtype()}, {}));
}

}  // namespace kumo
