// kumo._core.linalg: the LinalgBackend routines over kumo arrays, for the
// Python linalg layer. Each function dispatches on the arrays' device (host
// -> OpenBLAS/LAPACK, CUDA -> the plugin's cuBLAS/cuSOLVER) and runs on the
// device's current stream.
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
#include "linalg/linalg_backend.h"

namespace kumo {
namespace py_bind {

namespace {

LinalgBackend& backend_for(Device& device) {
  if (device.type() == DeviceType::kCPU) return host_linalg_backend();
  CudaPlugin* plugin = cuda_plugin();
  if (plugin == nullptr) throw DeviceError("linalg on " + device.name() + " needs the CUDA backend: " +
                                           cuda_plugin_load_error());
  return plugin->linalg();
}

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

// Leading dimension of a column-major view of (rows x cols) with byte
// strides s_row (between rows) and s_col (between columns); false when the
// strides do not describe one. A single row or column has no meaningful
// stride along that extent, so any value is accepted there.
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

// Batch stride in elements (0 for a single matrix, which may be broadcast).
bool batch_stride(const Array& a, int64_t* stride) {
  if (a.shape()[0] <= 1) {
    *stride = 0;
    return true;
  }
  if (a.strides()[0] % a.itemsize() != 0) return false;
  *stride = a.strides()[0] / a.itemsize();
  return true;
}

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

// 1 and 0 of `dtype` as host bytes (alpha/beta of gemm, fill values).
struct ScalarBytes {
  alignas(16) unsigned char bytes[16];
};
ScalarBytes scalar_of(Dtype dtype, double value) {
  ScalarBytes s{};
  switch (dtype) {
    case Dtype::kFloat32: { float v = static_cast<float>(value); std::memcpy(s.bytes, &v, sizeof v); break; }
    case Dtype::kFloat64: { double v = value; std::memcpy(s.bytes, &v, sizeof v); break; }
    case Dtype::kComplex64: { std::complex<float> v(static_cast<float>(value)); std::memcpy(s.bytes, &v, sizeof v); break; }
    case Dtype::kComplex128: { std::complex<double> v(value); std::memcpy(s.bytes, &v, sizeof v); break; }
    default: throw TypeError(std::string("linalg: unsupported dtype ") + dtype_name(dtype));
  }
  return s;
}

// Identity matrices in every batch entry of a column-major (batch, n, n) array.
void fill_identity(const Array& a) {
  ScalarBytes zero = scalar_of(a.dtype(), 0.0), one = scalar_of(a.dtype(), 1.0);
  kernels::fill_bytes(a, zero.bytes);
  int64_t n = std::min(a.shape()[1], a.shape()[2]);
  if (n == 0 || a.shape()[0] == 0) return;
  Array diag = a.view_with(Shape{a.shape()[0], n}, Strides{a.strides()[0], a.strides()[1] + a.strides()[2]});
  kernels::fill_bytes(diag, one.bytes);
}

// ---- gemm ----------------------------------------------------------------------

// One gemm operand as the backend takes it: column-major storage of either
// the matrix (transposed == false) or of its transpose.
struct Operand {
  const char* data;
  int64_t ld, stride;
  bool transposed;
};

bool gemm_operand(const Array& a, Operand* op) {
  const int64_t isz = a.itemsize(), r = a.shape()[1], c = a.shape()[2];
  int64_t stride;
  if (!batch_stride(a, &stride)) return false;
  int64_t ld;
  if (column_major_ld(r, c, a.strides()[1], a.strides()[2], isz, &ld)) {
    *op = Operand{a.data(), ld, stride, false};
    return true;
  }
  if (column_major_ld(c, r, a.strides()[2], a.strides()[1], isz, &ld)) {
    *op = Operand{a.data(), ld, stride, true};
    return true;
  }
  return false;
}

void gemm(const Array& a, const Array& b, const Array& out) {
  static const char* fn = "gemm";
  check_3d(a, fn, "a");
  check_3d(b, fn, "b");
  check_3d(out, fn, "out");
  same_device({&a, &b, &out});
  check_dtype(out, out.dtype(), fn, "out");
  check_dtype(a, out.dtype(), fn, "a");
  check_dtype(b, out.dtype(), fn, "b");
  check_writeable(out, fn, "out");
  const int64_t batch = out.shape()[0], m = out.shape()[1], n = out.shape()[2], k = a.shape()[2];
  if (a.shape()[1] != m || b.shape()[1] != k || b.shape()[2] != n)
    throw ValueError("linalg.gemm: shapes (" + std::to_string(a.shape()[1]) + "," + std::to_string(k) + ") @ (" +
                     std::to_string(b.shape()[1]) + "," + std::to_string(b.shape()[2]) + ") -> (" +
                     std::to_string(m) + "," + std::to_string(n) + ") do not match");
  for (const auto& [x, name] : {std::pair<const Array*, const char*>{&a, "a"}, {&b, "b"}})
    if (x->shape()[0] != batch && x->shape()[0] != 1)
      throw ValueError(where(fn, name) + " has batch size " + std::to_string(x->shape()[0]) + ", expected 1 or " +
                       std::to_string(batch));
  Operand oc;
  if (!gemm_operand(out, &oc))
    throw ValueError(where(fn, "out") + " must hold row-major or column-major matrices");
  if (batch > 1 && oc.stride == 0) throw ValueError(where(fn, "out") + " repeats one matrix across the batch");
  if (batch == 0 || m == 0 || n == 0) return;
  const Dtype dt = out.dtype();
  if (k == 0) {
    ScalarBytes zero = scalar_of(dt, 0.0);
    kernels::fill_bytes(out, zero.bytes);
    return;
  }
  // Operands with other strides (e.g. negative, stepped) become C-contiguous
  // copies, and so do operands in out's memory: BLAS would read entries it
  // has already overwritten.
  Array ac = a, bc = b;
  Operand oa, ob;
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
  py::gil_scoped_release release;
  if (!oc.transposed) {
    // out = a @ b, column-major.
    be.gemm(dt, flag(oa.transposed), flag(ob.transposed), m, n, k, one.bytes, oa.data, oa.ld, oa.stride, ob.data,
            ob.ld, ob.stride, zero.bytes, const_cast<char*>(oc.data), oc.ld, oc.stride, batch, stream);
  } else {
    // Row-major out is column-major out^T = b^T @ a^T: b's column-major
    // storage is b^T's transposed storage and vice versa.
    be.gemm(dt, flag(!ob.transposed), flag(!oa.transposed), n, m, k, one.bytes, ob.data, ob.ld, ob.stride, oa.data,
            oa.ld, oa.stride, zero.bytes, const_cast<char*>(oc.data), oc.ld, oc.stride, batch, stream);
  }
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
  // The allocation-included fast path behind kumo.matmul for same-dtype 2-D
  // (or equally batched 3-D) operands; it saves the Python-level reshapes.
  m.def("matmul_new", [](const Array& a, const Array& b) {
    if (a.ndim() != b.ndim() || (a.ndim() != 2 && a.ndim() != 3))
      throw ValueError("linalg.matmul_new: operands must both be 2-D or both 3-D");
    const bool two_d = a.ndim() == 2;
    Array a3 = two_d ? a.expand_dims({0}) : a, b3 = two_d ? b.expand_dims({0}) : b;
    Shape shape;
    if (!two_d) shape.push_back(a.shape()[0]);
    shape.push_back(a.shape()[a.ndim() - 2]);
    shape.push_back(b.shape()[b.ndim() - 1]);
    Array out = Array::empty(shape, a.dtype(), a.device());
    gemm(a3, b3, two_d ? out.expand_dims({0}) : out);
    return out;
  }, py::arg("a"), py::arg("b"));
  m.def("gemm", &gemm, py::arg("a"), py::arg("b"), py::arg("out"),
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
