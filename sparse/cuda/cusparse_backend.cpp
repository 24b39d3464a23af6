#include "sparse/cuda/cusparse_backend.h"

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/backend_registry.h"
#include "core/cuda/cuda_common.h"
#include "core/cuda/thread_handles.h"
#include "core/errors.h"
#include "sparse/cuda/cusolver_sparse_qr.h"
#include "sparse/portable_sparse.h"

namespace kumo {
namespace sparse {
namespace {

void check_cusparse(cusparseStatus_t status, const char* call, const std::string& detail) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  cuda_detail::clear_last_error();
  throw RuntimeError(std::string(call) + "(" + detail + ") failed: " + cusparseGetErrorString(status));
}

thread_local cuda_detail::ThreadDeviceHandles<cusparseHandle_t, cusparseDestroy> t_handles;

// The cuSPARSE value type of a dtype; false for dtypes the generic API's
// products do not take (those use the portable kernels).
bool value_type(Dtype dtype, cudaDataType* type) {
  switch (dtype) {
    case Dtype::kFloat32: *type = CUDA_R_32F; return true;
    case Dtype::kFloat64: *type = CUDA_R_64F; return true;
    case Dtype::kComplex64: *type = CUDA_C_32F; return true;
    case Dtype::kComplex128: *type = CUDA_C_64F; return true;
    default: return false;
  }
}

cusparseIndexType_t index_type(Dtype dtype) {
  return dtype == Dtype::kInt64 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
}

// alpha = 1 and beta = 0 in the call's value type (host pointer mode): a
// complex one is a real one followed by a zero imaginary part.
class UnitScalars {
 public:
  explicit UnitScalars(Dtype dtype) {
    if (dtype == Dtype::kFloat32 || dtype == Dtype::kComplex64) {
      const float one = 1.0f;
      std::memcpy(one_, &one, sizeof one);
    } else {
      const double one = 1.0;
      std::memcpy(one_, &one, sizeof one);
    }
  }
  const void* one() const { return one_; }
  const void* zero() const { return zero_; }

 private:
  alignas(16) unsigned char one_[16] = {};
  alignas(16) unsigned char zero_[16] = {};
};

// Owners of the generic API's descriptors.
struct SpMatrix {
  cusparseConstSpMatDescr_t descr = nullptr;
  SpMatrix() = default;
  SpMatrix(const SpMatrix&) = delete;
  SpMatrix& operator=(const SpMatrix&) = delete;
  ~SpMatrix() {
    if (descr != nullptr) cusparseDestroySpMat(descr);
  }
};
struct DenseVector {
  cusparseConstDnVecDescr_t in = nullptr;
  cusparseDnVecDescr_t out = nullptr;
  DenseVector() = default;
  DenseVector(const DenseVector&) = delete;
  DenseVector& operator=(const DenseVector&) = delete;
  ~DenseVector() {
    if (in != nullptr) cusparseDestroyDnVec(in);
    if (out != nullptr) cusparseDestroyDnVec(out);
  }
};
struct DenseMatrix {
  cusparseConstDnMatDescr_t in = nullptr;
  cusparseDnMatDescr_t out = nullptr;
  DenseMatrix() = default;
  DenseMatrix(const DenseMatrix&) = delete;
  DenseMatrix& operator=(const DenseMatrix&) = delete;
  ~DenseMatrix() {
    if (in != nullptr) cusparseDestroyDnMat(in);
    if (out != nullptr) cusparseDestroyDnMat(out);
  }
};

struct SpGemmDescr {
  cusparseSpGEMMDescr_t descr = nullptr;
  SpGemmDescr() = default;
  SpGemmDescr(const SpGemmDescr&) = delete;
  SpGemmDescr& operator=(const SpGemmDescr&) = delete;
  ~SpGemmDescr() {
    if (descr != nullptr) cusparseSpGEMM_destroyDescr(descr);
  }
};

struct OutputMatrix {
  cusparseSpMatDescr_t descr = nullptr;
  OutputMatrix() = default;
  OutputMatrix(const OutputMatrix&) = delete;
  OutputMatrix& operator=(const OutputMatrix&) = delete;
  ~OutputMatrix() {
    if (descr != nullptr) cusparseDestroySpMat(descr);
  }
};

// The handle of the device of `a`, current and bound to its current stream.
cusparseHandle_t bound_handle(Device& device, const std::string& detail) {
  cuda_detail::set_device(device.index());
  cusparseHandle_t handle = t_handles.at(device.index(), [&](cusparseHandle_t* h) {
    check_cusparse(cusparseCreate(h), "cusparseCreate", "device=" + std::to_string(device.index()));
  });
  check_cusparse(cusparseSetStream(handle, cuda_detail::to_stream(device.current_stream())), "cusparseSetStream",
                 detail);
  return handle;
}

class CusparseBackend final : public PortableSparseBackend {
 public:
  std::string name() const override { return "cuSPARSE"; }

  bool has_device_solver() const override { return true; }
  int64_t solve_qr(const Compressed& a, const Array& b, double tol, const Array& x) override {
    return cusolver_csr_qr_solve(a, b, tol, x);
  }

  // SpMV (one column) and SpMM (row-major dense operands) with cuSPARSE's
  // default algorithms; A^T x is the same CSR with the transpose operation.
  Array spmm(const Compressed& a, const Array& x, bool transposed) override {
    cudaDataType type{};
    const int64_t nnz = a.indices.size(), p = x.shape()[1];
    if (!value_type(a.data.dtype(), &type) || nnz == 0 || p == 0) return PortableSparseBackend::spmm(a, x, transposed);
    Device& device = a.data.device();
    const std::string detail = "rows=" + std::to_string(a.n_major) + ", cols=" + std::to_string(a.n_minor) +
                               ", nnz=" + std::to_string(nnz) + ", p=" + std::to_string(p);
    cusparseHandle_t handle = bound_handle(device, detail);
    const int64_t rows = transposed ? a.n_minor : a.n_major;
    const Array y = Array::empty(Shape{rows, p}, a.data.dtype(), device);
    const cusparseIndexType_t itype = index_type(a.indices.dtype());
    SpMatrix matrix;
    check_cusparse(cusparseCreateConstCsr(&matrix.descr, a.n_major, a.n_minor, nnz, a.indptr.data(), a.indices.data(),
                                          a.data.data(), itype, itype, CUSPARSE_INDEX_BASE_ZERO, type),
                   "cusparseCreateConstCsr", detail);
    const cusparseOperation_t op = transposed ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
    const UnitScalars scalars(a.data.dtype());
    size_t bytes = 0;
    if (p == 1) {
      DenseVector xv, yv;
      check_cusparse(cusparseCreateConstDnVec(&xv.in, x.shape()[0], x.data(), type), "cusparseCreateConstDnVec", detail);
      check_cusparse(cusparseCreateDnVec(&yv.out, rows, y.data(), type), "cusparseCreateDnVec", detail);
      check_cusparse(cusparseSpMV_bufferSize(handle, op, scalars.one(), matrix.descr, xv.in, scalars.zero(), yv.out,
                                             type, CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
                     "cusparseSpMV_bufferSize", detail);
      const Array work = Array::empty(Shape{static_cast<int64_t>(bytes)}, Dtype::kUInt8, device);
      check_cusparse(cusparseSpMV(handle, op, scalars.one(), matrix.descr, xv.in, scalars.zero(), yv.out, type,
                                  CUSPARSE_SPMV_ALG_DEFAULT, bytes > 0 ? work.data() : nullptr),
                     "cusparseSpMV", detail);
      return y;
    }
    DenseMatrix xm, ym;
    check_cusparse(cusparseCreateConstDnMat(&xm.in, x.shape()[0], p, p, x.data(), type, CUSPARSE_ORDER_ROW),
                   "cusparseCreateConstDnMat", detail);
    check_cusparse(cusparseCreateDnMat(&ym.out, rows, p, p, y.data(), type, CUSPARSE_ORDER_ROW), "cusparseCreateDnMat",
                   detail);
    check_cusparse(cusparseSpMM_bufferSize(handle, op, CUSPARSE_OPERATION_NON_TRANSPOSE, scalars.one(), matrix.descr,
                                           xm.in, scalars.zero(), ym.out, type, CUSPARSE_SPMM_ALG_DEFAULT, &bytes),
                   "cusparseSpMM_bufferSize", detail);
    const Array work = Array::empty(Shape{static_cast<int64_t>(bytes)}, Dtype::kUInt8, device);
    check_cusparse(cusparseSpMM(handle, op, CUSPARSE_OPERATION_NON_TRANSPOSE, scalars.one(), matrix.descr, xm.in,
                                scalars.zero(), ym.out, type, CUSPARSE_SPMM_ALG_DEFAULT,
                                bytes > 0 ? work.data() : nullptr),
                   "cusparseSpMM", detail);
    return y;
  }

  // cuSPARSE's SpGEMM (work estimation, compute, copy) for 32-bit indices
  // and its value types; the rest uses the portable product. The result's
  // rows are sorted and cancelled sums dropped afterwards, as SciPy's
  // product has them.
  Compressed spgemm(const Compressed& a, const Compressed& b) override {
    cudaDataType type{};
    const int64_t nnz_a = a.indices.size(), nnz_b = b.indices.size();
    if (!value_type(a.data.dtype(), &type) || a.indices.dtype() != Dtype::kInt32 ||
        b.indices.dtype() != Dtype::kInt32 || nnz_a == 0 || nnz_b == 0) {
      return PortableSparseBackend::spgemm(a, b);
    }
    Device& device = a.data.device();
    const std::string detail = "(" + std::to_string(a.n_major) + ", " + std::to_string(a.n_minor) + ") @ (" +
                               std::to_string(b.n_major) + ", " + std::to_string(b.n_minor) +
                               "), nnz=" + std::to_string(nnz_a) + "/" + std::to_string(nnz_b);
    cusparseHandle_t handle = bound_handle(device, detail);
    SpMatrix ma, mb;
    check_cusparse(cusparseCreateConstCsr(&ma.descr, a.n_major, a.n_minor, nnz_a, a.indptr.data(), a.indices.data(),
                                          a.data.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_BASE_ZERO, type),
                   "cusparseCreateConstCsr", detail);
    check_cusparse(cusparseCreateConstCsr(&mb.descr, b.n_major, b.n_minor, nnz_b, b.indptr.data(), b.indices.data(),
                                          b.data.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_BASE_ZERO, type),
                   "cusparseCreateConstCsr", detail);
    OutputMatrix mc;
    check_cusparse(cusparseCreateCsr(&mc.descr, a.n_major, b.n_minor, 0, nullptr, nullptr, nullptr,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
                   "cusparseCreateCsr", detail);
    SpGemmDescr gemm;
    check_cusparse(cusparseSpGEMM_createDescr(&gemm.descr), "cusparseSpGEMM_createDescr", detail);
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const UnitScalars scalars(a.data.dtype());
    // Each phase is asked for its buffer size first, then run with it.
    size_t estimate_bytes = 0, compute_bytes = 0;
    check_cusparse(cusparseSpGEMM_workEstimation(handle, op, op, scalars.one(), ma.descr, mb.descr, scalars.zero(),
                                                 mc.descr, type, CUSPARSE_SPGEMM_DEFAULT, gemm.descr,
                                                 &estimate_bytes, nullptr),
                   "cusparseSpGEMM_workEstimation", detail);
    const Array estimate = Array::empty(Shape{static_cast<int64_t>(estimate_bytes)}, Dtype::kUInt8, device);
    check_cusparse(cusparseSpGEMM_workEstimation(handle, op, op, scalars.one(), ma.descr, mb.descr, scalars.zero(),
                                                 mc.descr, type, CUSPARSE_SPGEMM_DEFAULT, gemm.descr,
                                                 &estimate_bytes, estimate.data()),
                   "cusparseSpGEMM_workEstimation", detail);
    check_cusparse(cusparseSpGEMM_compute(handle, op, op, scalars.one(), ma.descr, mb.descr, scalars.zero(),
                                          mc.descr, type, CUSPARSE_SPGEMM_DEFAULT, gemm.descr, &compute_bytes,
                                          nullptr),
                   "cusparseSpGEMM_compute", detail);
    const Array compute = Array::empty(Shape{static_cast<int64_t>(compute_bytes)}, Dtype::kUInt8, device);
    check_cusparse(cusparseSpGEMM_compute(handle, op, op, scalars.one(), ma.descr, mb.descr, scalars.zero(),
                                          mc.descr, type, CUSPARSE_SPGEMM_DEFAULT, gemm.descr, &compute_bytes,
                                          compute.data()),
                   "cusparseSpGEMM_compute", detail);
    int64_t rows = 0, cols = 0, nnz = 0;
    check_cusparse(cusparseSpMatGetSize(mc.descr, &rows, &cols, &nnz), "cusparseSpMatGetSize", detail);
    Compressed c;
    c.n_major = a.n_major;
    c.n_minor = b.n_minor;
    c.indptr = Array::empty(Shape{a.n_major + 1}, Dtype::kInt32, device);
    c.indices = Array::empty(Shape{nnz}, Dtype::kInt32, device);
    c.data = Array::empty(Shape{nnz}, a.data.dtype(), device);
    check_cusparse(cusparseCsrSetPointers(mc.descr, c.indptr.data(), c.indices.data(), c.data.data()),
                   "cusparseCsrSetPointers", detail);
    check_cusparse(cusparseSpGEMM_copy(handle, op, op, scalars.one(), ma.descr, mb.descr, scalars.zero(), mc.descr,
                                       type, CUSPARSE_SPGEMM_DEFAULT, gemm.descr),
                   "cusparseSpGEMM_copy", detail);
    return eliminate_zeros(sort_indices(c));
  }
};

}  // namespace

SparseBackend& cusparse_sparse_backend() {
  static cuda_detail::NoDestructor<CusparseBackend> backend;
  return backend.get();
}

namespace {
const BackendRegistration registration(Capability::kSparse, DeviceType::kCUDA, []() -> void* { return &cusparse_sparse_backend(); });
}  // namespace

}  // namespace sparse
}  // namespace kumo
