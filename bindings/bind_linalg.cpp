// kumo._core.linalg: the C++ products (linalg/products.h) and numpy.linalg
// routines (linalg/linalg.h) that kumo.matmul, kumo.linalg.solve, ... call,
// and the raw LinalgBackend routines the remaining Python compositions
// (pinv, lstsq, eig, ...) still use. Each function dispatches on the arrays'
// device (host -> OpenBLAS/LAPACK, CUDA -> the plugin's cuBLAS/cuSOLVER) and
// runs on the device's current stream.
//
// Matrix arguments are 3-D (batch, rows, cols) with column-major matrices:
// strides[1] == itemsize, strides[2] a leading dimension >= rows. gemm alone
// also takes row-major matrices (mapped to transpose flags, never copied).
// Routines report per-matrix failures through their info arrays and never
// raise for them; the Python callers decide (LinAlgError).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <string>

#include "bindings/convert.h"
#include "core/array.h"
#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "kernels/copy.h"
#include "linalg/einsum.h"
#include "linalg/linalg_backend.h"
#include "linalg/linalg.h"
#include "linalg/products.h"

namespace kumo {
namespace py_bind {

namespace {

using linalg::detail::backend_for;

bool is_linalg_dtype(Dtype d) {
  return d == Dtype::kFloat32 || d == Dtype::kFloat64 || d == Dtype::kComplex64 || d == Dtype::kComplex128;
}

std::string where(const char* fn, const char* arg) { return std::string("linalg.") + fn + ": argument '" + arg + "'"; }

void check_3d(const Array& a, const char* fn, const char* arg) {
  if (a.ndim() != 3)
    throw ValueError(where(fn, arg) + " must be a 3-D (batch, rows, cols) array, got " + std::to_string(a.ndim()) +
                     " dimensions");
}

void check_dtype(const Array& a, Dtype expected, const char* fn, const char* arg) {
  if (!is_linalg_dtype(a.dtype()))
    throw TypeError(where(fn, arg) + " has unsupported dtype " + dtype_name(a.dtype()) +
                    " (expected float32, float64, complex64 or complex128)");
  if (a.dtype() != expected)
    throw TypeError(where(fn, arg) + " has dtype " + dtype_name(a.dtype()) + ", expected " + dtype_name(expected));
}

void check_writeable(const Array& a, const char* fn, const char* arg) {
  if (!a.writeable()) throw ValueError(where(fn, arg) + " is read-only but is written to");
}

using linalg::detail::batch_stride;
using linalg::detail::column_major_ld;

// A batch of column-major matrices as the backend takes them.
struct Mat {
  char* data;
  int64_t batch, rows, cols, ld, stride;
};

Mat column_major(const Array& a, const char* fn, const char* arg, bool written) {
  check_3d(a, fn, arg);
  if (written) check_writeable(a, fn, arg);
  Mat m{a.data(), a.shape()[0], a.shape()[1], a.shape()[2], 1, 0};
  if (!column_major_ld(m.rows, m.cols, a.strides()[1], a.strides()[2], a.itemsize(), &m.ld) ||
      !batch_stride(a, &m.stride))
    throw ValueError(where(fn, arg) + " must hold column-major matrices (strides[1] == itemsize, strides[2] >= " +
                     "rows * itemsize); create it as empty((batch, cols, rows)).transpose(0, 2, 1)");
  if (written && m.batch > 1 && m.stride == 0)
    throw ValueError(where(fn, arg) + " repeats one matrix across the batch but is written to");
  return m;
}

Mat square(const Array& a, const char* fn, const char* arg, bool written) {
  Mat m = column_major(a, fn, arg, written);
  if (m.rows != m.cols)
    throw ValueError(where(fn, arg) + " must hold square matrices, got " + std::to_string(m.rows) + "x" +
                     std::to_string(m.cols));
  return m;
}

// A C-contiguous int32/element vector per batch entry (ipiv, tau): made so by
// a copy when needed, since these are small.
Array contiguous_rows(const Array& a, Dtype dtype, int64_t batch, const char* fn, const char* arg) {
  if (a.ndim() != 2) throw ValueError(where(fn, arg) + " must be a 2-D (batch, k) array");
  if (a.dtype() != dtype)
    throw TypeError(where(fn, arg) + " has dtype " + dtype_name(a.dtype()) + ", expected " + dtype_name(dtype));
  if (a.shape()[0] != batch)
    throw ValueError(where(fn, arg) + " has batch size " + std::to_string(a.shape()[0]) + ", expected " +
                     std::to_string(batch));
  return a.c_contiguous() ? a : a.copy(Order::kC);
}

void same_device(std::initializer_list<const Array*> arrays) { check_same_device(std::vector<const Array*>(arrays)); }

Transpose transpose_from(const std::string& t, const char* fn) {
  if (t == "N") return Transpose::kNo;
  if (t == "T") return Transpose::kTrans;
  if (t == "C") return Transpose::kConjTrans;
  throw ValueError(std::string("linalg.") + fn + ": trans must be 'N', 'T' or 'C', got '" + t + "'");
}

// Freshly allocated (batch, rows, cols) column-major array on `device`.
Array empty_column_major(int64_t batch, int64_t rows, int64_t cols, Dtype dtype, Device& device) {
  return Array::empty(Shape{batch, cols, rows}, dtype, device).transpose({0, 2, 1});
}

Array empty_vector(int64_t batch, int64_t n, Dtype dtype, Device& device) {
  return Array::empty(Shape{batch, n}, dtype, device);
}

using linalg::detail::ScalarBytes;
using linalg::detail::scalar_of;

// Identity matrices in every batch entry of a column-major (batch, n, n) array.
void fill_identity(const Array& a) {
  ScalarBytes zero = scalar_of(a.dtype(), 0.0), one = scalar_of(a.dtype(), 1.0);
  kernels::fill_bytes(a, zero.bytes);
  int64_t n = std::min(a.shape()[1], a.shape()[2]);
  if (n == 0 || a.shape()[0] == 0) return;
  Array diag = a.view_with(Shape{a.shape()[0], n}, Strides{a.strides()[0], a.strides()[1] + a.strides()[2]});
  kernels::fill_bytes(diag, one.bytes);
}

// ---- LAPACK ------------------------------------------------------------------

py::tuple getrf(const Array& a) {
  Mat m = square(a, "getrf", "a", true);
  check_dtype(a, a.dtype(), "getrf", "a");
  Device& dev = a.device();
  Array ipiv = empty_vector(m.batch, m.rows, Dtype::kInt32, dev);
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  {
    py::gil_scoped_release release;
    backend_for(dev).getrf(a.dtype(), m.rows, m.data, m.ld, m.stride, reinterpret_cast<int32_t*>(ipiv.data()),
                           reinterpret_cast<int32_t*>(info.data()), m.batch, dev.current_stream());
  }
  return py::make_tuple(ipiv, info);
}

void getrs(const Array& lu, const Array& ipiv, const Array& b, const std::string& trans) {
  static const char* fn = "getrs";
  Transpose t = transpose_from(trans, fn);
  Mat ml = square(lu, fn, "lu", false);
  Mat mb = column_major(b, fn, "b", true);
  same_device({&lu, &ipiv, &b});
  check_dtype(lu, lu.dtype(), fn, "lu");
  check_dtype(b, lu.dtype(), fn, "b");
  if (mb.batch != ml.batch)
    throw ValueError(where(fn, "b") + " has batch size " + std::to_string(mb.batch) + ", expected " +
                     std::to_string(ml.batch));
  if (mb.rows != ml.rows)
    throw ValueError(where(fn, "b") + " has " + std::to_string(mb.rows) + " rows, expected " +
                     std::to_string(ml.rows));
  Array piv = contiguous_rows(ipiv, Dtype::kInt32, ml.batch, fn, "ipiv");
  if (piv.shape()[1] != ml.rows)
    throw ValueError(where(fn, "ipiv") + " must have " + std::to_string(ml.rows) + " entries per matrix");
  Device& dev = b.device();
  py::gil_scoped_release release;
  backend_for(dev).getrs(lu.dtype(), t, ml.rows, mb.cols, ml.data, ml.ld, ml.stride,
                         reinterpret_cast<const int32_t*>(piv.data()), mb.data, mb.ld, mb.stride, mb.batch,
                         dev.current_stream());
}

Array potrf(const Array& a) {
  Mat m = square(a, "potrf", "a", true);
  check_dtype(a, a.dtype(), "potrf", "a");
  Device& dev = a.device();
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  py::gil_scoped_release release;
  backend_for(dev).potrf(a.dtype(), m.rows, m.data, m.ld, m.stride, reinterpret_cast<int32_t*>(info.data()),
                         m.batch, dev.current_stream());
  return info;
}

py::tuple geqrf(const Array& a) {
  Mat m = column_major(a, "geqrf", "a", true);
  check_dtype(a, a.dtype(), "geqrf", "a");
  Device& dev = a.device();
  Array tau = empty_vector(m.batch, std::min(m.rows, m.cols), a.dtype(), dev);
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  {
    py::gil_scoped_release release;
    backend_for(dev).geqrf(a.dtype(), m.rows, m.cols, m.data, m.ld, m.stride, tau.data(),
                           reinterpret_cast<int32_t*>(info.data()), m.batch, dev.current_stream());
  }
  return py::make_tuple(tau, info);
}

Array orgqr(const Array& a, const Array& tau, int64_t k) {
  static const char* fn = "orgqr";
  Mat m = column_major(a, fn, "a", true);
  check_dtype(a, a.dtype(), fn, "a");
  same_device({&a, &tau});
  Array t = contiguous_rows(tau, a.dtype(), m.batch, fn, "tau");
  if (m.cols > m.rows)
    throw ValueError(where(fn, "a") + " must have at least as many rows as columns, got " + std::to_string(m.rows) +
                     "x" + std::to_string(m.cols));
  if (k < 0 || k > m.cols)
    throw ValueError("linalg.orgqr: k = " + std::to_string(k) + " must be in [0, " + std::to_string(m.cols) + "]");
  if (t.shape()[1] < k)
    throw ValueError(where(fn, "tau") + " has " + std::to_string(t.shape()[1]) + " entries per matrix, need k = " +
                     std::to_string(k));
  Device& dev = a.device();
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  py::gil_scoped_release release;
  backend_for(dev).orgqr(a.dtype(), m.rows, m.cols, k, m.data, m.ld, m.stride, t.data(), t.shape()[1],
                         reinterpret_cast<int32_t*>(info.data()), m.batch, dev.current_stream());
  return info;
}

py::tuple gesvd(const Array& a, const std::string& job) {
  static const char* fn = "gesvd";
  if (job != "N" && job != "S" && job != "A")
    throw ValueError("linalg.gesvd: job must be 'N', 'S' or 'A', got '" + job + "'");
  Mat m = column_major(a, fn, "a", true);
  check_dtype(a, a.dtype(), fn, "a");
  const Dtype dt = a.dtype();
  Device& dev = a.device();
  const int64_t mn = std::min(m.rows, m.cols);
  const char j = job[0];
  Array s = empty_vector(m.batch, mn, real_dtype(dt), dev);
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  Array u, vt;
  Mat mu{nullptr, m.batch, 0, 0, 1, 0}, mvt{nullptr, m.batch, 0, 0, 1, 0};
  if (j != 'N') {
    u = empty_column_major(m.batch, m.rows, j == 'A' ? m.rows : mn, dt, dev);
    vt = empty_column_major(m.batch, j == 'A' ? m.cols : mn, m.cols, dt, dev);
    mu = column_major(u, fn, "u", true);
    mvt = column_major(vt, fn, "vt", true);
    // With no singular values LAPACK computes nothing; the full bases are
    // then any orthonormal ones, and NumPy returns identities.
    if (mn == 0 && j == 'A') {
      fill_identity(u);
      fill_identity(vt);
    }
  }
  {
    py::gil_scoped_release release;
    backend_for(dev).gesvd(dt, j, m.rows, m.cols, m.data, m.ld, m.stride, s.data(), mu.data, mu.ld, mu.stride,
                           mvt.data, mvt.ld, mvt.stride, reinterpret_cast<int32_t*>(info.data()), m.batch,
                           dev.current_stream());
  }
  if (j == 'N') return py::make_tuple(s, py::none(), py::none(), info);
  return py::make_tuple(s, u, vt, info);
}

py::tuple syevd(const Array& a, bool vectors) {
  Mat m = square(a, "syevd", "a", true);
  check_dtype(a, a.dtype(), "syevd", "a");
  Device& dev = a.device();
  Array w = empty_vector(m.batch, m.rows, real_dtype(a.dtype()), dev);
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  {
    py::gil_scoped_release release;
    backend_for(dev).syevd(a.dtype(), vectors, m.rows, m.data, m.ld, m.stride, w.data(),
                           reinterpret_cast<int32_t*>(info.data()), m.batch, dev.current_stream());
  }
  return py::make_tuple(w, info);
}

py::tuple geev(const Array& a, bool vectors) {
  Mat m = square(a, "geev", "a", true);
  check_dtype(a, a.dtype(), "geev", "a");
  const Dtype dt = a.dtype();
  const Dtype cdt = (dt == Dtype::kFloat32 || dt == Dtype::kComplex64) ? Dtype::kComplex64 : Dtype::kComplex128;
  Device& dev = a.device();
  Array w = empty_vector(m.batch, m.rows, cdt, dev);
  Array info = Array::empty(Shape{m.batch}, Dtype::kInt32, dev);
  Array vr;
  Mat mv{nullptr, m.batch, 0, 0, 1, 0};
  if (vectors) {
    vr = empty_column_major(m.batch, m.rows, m.rows, cdt, dev);
    mv = column_major(vr, "geev", "vr", true);
  }
  {
    py::gil_scoped_release release;
    backend_for(dev).geev(dt, vectors, m.rows, m.data, m.ld, m.stride, w.data(), mv.data, mv.ld, mv.stride,
                          reinterpret_cast<int32_t*>(info.data()), m.batch, dev.current_stream());
  }
  if (!vectors) return py::make_tuple(w, py::none(), info);
  return py::make_tuple(w, vr, info);
}

}  // namespace

void bind_linalg(py::module_& parent) {
  py::module_ m = parent.def_submodule("linalg", "BLAS/LAPACK routines over batches of matrices (host or CUDA)");
  // The products of kumo.matmul & co.: the C++ routines of linalg/products.h.
  // They release the GIL: BLAS and the kernels run without Python.
  using Release = py::call_guard<py::gil_scoped_release>;
  // The fast path behind kumo.matmul for same-dtype 2-D (or equally batched
  // 3-D) operands; it skips Python's argument handling altogether.
  m.def("matmul_new", [](const Array& a, const Array& b) { return kumo::matmul(a, b); }, py::arg("a"),
        py::arg("b"), Release());
  m.def("matmul", [](const Array& a, const Array& b, std::optional<Array> out, py::object dtype,
                     const std::string& casting, const std::string& name) {
    MatmulOptions o;
    if (out) o.out(*out);
    if (auto d = to_dtype(dtype)) o.dtype(*d);
    o.casting(casting_from_name(casting));
    py::gil_scoped_release release;
    return linalg::detail::matmul_named(a, b, o, name.c_str());
  }, py::arg("a"), py::arg("b"), py::arg("out") = py::none(), py::arg("dtype") = py::none(),
        py::arg("casting") = "same_kind", py::arg("name") = "matmul");
  m.def("dot", [](const Array& a, const Array& b, std::optional<Array> out) {
    return kumo::dot(a, b, out ? *out : Array());
  }, py::arg("a"), py::arg("b"), py::arg("out") = py::none(), Release());
  m.def("vdot", [](const Array& a, const Array& b) { return kumo::vdot(a, b); }, Release());
  m.def("inner", [](const Array& a, const Array& b) { return kumo::inner(a, b); }, Release());
  m.def("outer", [](const Array& a, const Array& b, std::optional<Array> out) {
    return kumo::outer(a, b, out ? *out : Array());
  }, py::arg("a"), py::arg("b"), py::arg("out") = py::none(), Release());
  m.def("tensordot", [](const Array& a, const Array& b, int64_t n) { return kumo::tensordot(a, b, n); },
        Release());
  m.def("tensordot", [](const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                        const std::vector<int64_t>& axes_b) { return kumo::tensordot(a, b, axes_a, axes_b); },
        Release());
  // numpy.einsum / numpy.einsum_path (linalg/einsum.h). Python turns the
  // sublist form into subscripts and optimize= into (kind, path, limit):
  // kind is "none", "greedy", "optimal" or "path".
  auto einsum_optimize = [](const std::string& kind, const std::vector<std::vector<int64_t>>& path,
                            std::optional<int64_t> memory_limit) {
    if (kind == "none") return EinsumOptimize::none();
    if (kind == "path") return EinsumOptimize::path(path);
    return EinsumOptimize::from_name(kind, memory_limit);
  };
  m.def("einsum", [einsum_optimize](const std::string& subscripts, const std::vector<Array>& operands,
                                    std::optional<Array> out, py::object dtype, py::object order,
                                    const std::string& casting, const std::string& optimize,
                                    const std::vector<std::vector<int64_t>>& path,
                                    std::optional<int64_t> memory_limit) {
    EinsumOptions o;
    if (out) o.out(*out);
    if (auto d = to_dtype(dtype)) o.dtype(*d);
    o.order(to_order(order));
    o.casting(casting_from_name(casting));
    o.optimize(einsum_optimize(optimize, path, memory_limit));
    py::gil_scoped_release release;
    return kumo::einsum(subscripts, operands, o);
  }, py::arg("subscripts"), py::arg("operands"), py::arg("out") = py::none(), py::arg("dtype") = py::none(),
        py::arg("order") = "K", py::arg("casting") = "safe", py::arg("optimize") = "none",
        py::arg("path") = std::vector<std::vector<int64_t>>(), py::arg("memory_limit") = py::none());
  m.def("einsum_path", [einsum_optimize](const std::string& subscripts, const std::vector<std::vector<int64_t>>& shapes,
                                         const std::string& optimize, const std::vector<std::vector<int64_t>>& path,
                                         std::optional<int64_t> memory_limit) {
    std::vector<Shape> s;
    for (const auto& v : shapes) s.push_back(Shape(v));
    EinsumPath r = kumo::einsum_path(subscripts, s, einsum_optimize(optimize, path, memory_limit));
    return std::make_pair(r.path, r.report);
  }, py::arg("subscripts"), py::arg("shapes"), py::arg("optimize") = "greedy",
        py::arg("path") = std::vector<std::vector<int64_t>>(), py::arg("memory_limit") = py::none());
  // numpy.linalg's routines (linalg/linalg.h); Python wraps the results in
  // NumPy's namedtuples.
  m.def("solve", [](const Array& a, const Array& b) { return linalg::solve(a, b); }, Release());
  m.def("inv", [](const Array& a) { return linalg::inv(a); }, Release());
  m.def("det", [](const Array& a) { return linalg::det(a); }, Release());
  m.def("slogdet", [](const Array& a) {
    auto r = linalg::slogdet(a);
    return std::make_pair(r.sign, r.logabsdet);
  }, Release());
  m.def("cholesky", [](const Array& a, bool upper) { return linalg::cholesky(a, upper); }, py::arg("a"),
        py::arg("upper") = false, Release());
  m.def("qr", [](const Array& a, const std::string& mode) {
    linalg::QRMode m = mode == "reduced"    ? linalg::QRMode::kReduced
                       : mode == "complete" ? linalg::QRMode::kComplete
                       : mode == "r"        ? linalg::QRMode::kR
                       : mode == "raw"      ? linalg::QRMode::kRaw
                                            : throw ValueError("Unrecognized mode '" + mode + "'");
    linalg::QRResult r;
    {
      py::gil_scoped_release release;
      r = linalg::qr(a, m);
    }
    if (!r.Q.defined()) return py::object(py::cast(r.R));
    return py::object(py::make_tuple(r.Q, r.R));
  }, py::arg("a"), py::arg("mode") = "reduced");
  m.def("svd", [](const Array& a, bool full_matrices, bool compute_uv) {
    linalg::SVDResult r;
    {
      py::gil_scoped_release release;
      r = linalg::svd(a, full_matrices, compute_uv);
    }
    if (!compute_uv) return py::object(py::cast(r.S));
    return py::object(py::make_tuple(r.U, r.S, r.Vh));
  }, py::arg("a"), py::arg("full_matrices") = true, py::arg("compute_uv") = true);
  m.def("eigh", [](const Array& a, const std::string& uplo, bool vectors) {
    if (uplo != "L" && uplo != "U") throw ValueError("UPLO argument must be 'L' or 'U'");
    linalg::EighResult r;
    {
      // Python objects are made only once the GIL is back.
      py::gil_scoped_release release;
      if (vectors) r = linalg::eigh(a, uplo[0]);
      else r.eigenvalues = linalg::eigvalsh(a, uplo[0]);
    }
    if (!vectors) return py::object(py::cast(r.eigenvalues));
    return py::object(py::make_tuple(r.eigenvalues, r.eigenvectors));
  }, py::arg("a"), py::arg("uplo") = "L", py::arg("vectors") = true);
  // ord: None, a number, or "fro"/"f"/"nuc"; axis: () for None.
  m.def("norm", [](const Array& x, py::object ord, std::vector<int64_t> axis, bool keepdims) {
    linalg::NormOrder o;
    if (py::isinstance<py::str>(ord)) o = linalg::NormOrder::from_string(ord.cast<std::string>());
    else if (!ord.is_none()) o = linalg::NormOrder(ord.cast<double>());
    py::gil_scoped_release release;
    return linalg::norm(x, o, axis, keepdims);
  }, py::arg("x"), py::arg("ord") = py::none(), py::arg("axis") = std::vector<int64_t>{},
        py::arg("keepdims") = false);
  m.def("gemm", &linalg::detail::gemm, py::arg("a"), py::arg("b"), py::arg("out"), Release(),
        "out = a @ b for (batch, rows, cols) arrays; a/b may have batch 1 (broadcast); row- or column-major.");
  m.def("getrf", &getrf, py::arg("a"), "LU of a (overwritten); returns (ipiv, info).");
  m.def("getrs", &getrs, py::arg("lu"), py::arg("ipiv"), py::arg("b"), py::arg("trans") = "N",
        "Solves op(A) X = B from getrf's factors; b is overwritten by X.");
  m.def("potrf", &potrf, py::arg("a"), "Cholesky factor L (lower triangle of a, in place); returns info.");
  m.def("geqrf", &geqrf, py::arg("a"), "Householder QR of a (in place); returns (tau, info).");
  m.def("orgqr", &orgqr, py::arg("a"), py::arg("tau"), py::arg("k"),
        "Overwrites a with the first columns of Q from k reflectors; returns info.");
  m.def("gesvd", &gesvd, py::arg("a"), py::arg("job"),
        "SVD of a (destroyed); job 'N', 'S' or 'A'; returns (s, u, vt, info).");
  m.def("syevd", &syevd, py::arg("a"), py::arg("vectors"),
        "Hermitian eigen-decomposition from the lower triangle; returns (w, info).");
  m.def("geev", &geev, py::arg("a"), py::arg("vectors"),
        "General eigen-decomposition (a destroyed); returns (w, vr, info) with complex w/vr.");
}

}  // namespace py_bind
}  // namespace kumo
