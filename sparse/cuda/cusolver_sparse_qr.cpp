#include "sparse/cuda/cusolver_sparse_qr.h"

// The sparse API is all cuSOLVER has for a device factorization here (see
// the header); its deprecation attributes would only repeat that.
#define DISABLE_CUSOLVER_DEPRECATED
#include <cuComplex.h>
#include <cuda_runtime_api.h>
#include <cusolverSp.h>
#include <cusparse.h>

#include <string>
#include <vector>

#include "core/cuda/cuda_common.h"
#include "core/cuda/thread_handles.h"
#include "core/errors.h"

namespace kumo {
namespace sparse {
namespace {

void check_cusolver(cusolverStatus_t status, const char* call, const std::string& detail) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  cuda_detail::clear_last_error();
  throw RuntimeError(std::string(call) + "(" + detail + ") failed with cusolverStatus " +
                     std::to_string(static_cast<int>(status)));
}

thread_local cuda_detail::ThreadDeviceHandles<cusolverSpHandle_t, cusolverSpDestroy> t_solver_handles;

// A general, zero-based matrix descriptor, destroyed with its scope.
struct GeneralDescriptor {
  cusparseMatDescr_t descr = nullptr;
  GeneralDescriptor() {
    if (cusparseCreateMatDescr(&descr) != CUSPARSE_STATUS_SUCCESS)
      throw RuntimeError("cusparseCreateMatDescr failed");
    cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
    cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
  }
  GeneralDescriptor(const GeneralDescriptor&) = delete;
  GeneralDescriptor& operator=(const GeneralDescriptor&) = delete;
  ~GeneralDescriptor() { cusparseDestroyMatDescr(descr); }
};

// symrcm reordering (reorder = 1) keeps the factor's fill low, as
// cuSOLVER's documentation recommends for csrlsvqr.
constexpr int kReorderSymrcm = 1;

}  // namespace

int64_t cusolver_csr_qr_solve(const Compressed& a, const Array& b, double tol, const Array& x) {
  if (a.indices.dtype() != Dtype::kInt32 || a.indptr.dtype() != Dtype::kInt32)
    throw ValueError("kumo.sparse.linalg.spsolve: cuSOLVER's sparse QR takes 32-bit indices");
  Device& device = a.data.device();
  const int n = static_cast<int>(a.n_major), nnz = static_cast<int>(a.indices.size());
  const std::string detail = "n=" + std::to_string(n) + ", nnz=" + std::to_string(nnz);
  cuda_detail::set_device(device.index());
  cusolverSpHandle_t handle = t_solver_handles.at(device.index(), [&](cusolverSpHandle_t* h) {
    check_cusolver(cusolverSpCreate(h), "cusolverSpCreate", "device=" + std::to_string(device.index()));
  });
  check_cusolver(cusolverSpSetStream(handle, cuda_detail::to_stream(device.current_stream())), "cusolverSpSetStream",
                 detail);
  const GeneralDescriptor descr;
  const int* ptr = reinterpret_cast<const int*>(a.indptr.data());
  const int* idx = reinterpret_cast<const int*>(a.indices.data());
  int singularity = -1;
  switch (a.data.dtype()) {
    case Dtype::kFloat32:
      check_cusolver(cusolverSpScsrlsvqr(handle, n, nnz, descr.descr, reinterpret_cast<const float*>(a.data.data()), ptr,
                                         idx, reinterpret_cast<const float*>(b.data()), static_cast<float>(tol),
                                         kReorderSymrcm, reinterpret_cast<float*>(x.data()), &singularity),
                     "cusolverSpScsrlsvqr", detail);
      break;
    case Dtype::kFloat64:
      check_cusolver(cusolverSpDcsrlsvqr(handle, n, nnz, descr.descr, reinterpret_cast<const double*>(a.data.data()), ptr,
                                         idx, reinterpret_cast<const double*>(b.data()), tol, kReorderSymrcm,
                                         reinterpret_cast<double*>(x.data()), &singularity),
                     "cusolverSpDcsrlsvqr", detail);
      break;
    case Dtype::kComplex64:
      check_cusolver(cusolverSpCcsrlsvqr(handle, n, nnz, descr.descr, reinterpret_cast<const cuComplex*>(a.data.data()),
                                         ptr, idx, reinterpret_cast<const cuComplex*>(b.data()), static_cast<float>(tol),
                                         kReorderSymrcm, reinterpret_cast<cuComplex*>(x.data()), &singularity),
                     "cusolverSpCcsrlsvqr", detail);
      break;
    case Dtype::kComplex128:
      check_cusolver(cusolverSpZcsrlsvqr(handle, n, nnz, descr.descr,
                                         reinterpret_cast<const cuDoubleComplex*>(a.data.data()), ptr, idx,
                                         reinterpret_cast<const cuDoubleComplex*>(b.data()), tol, kReorderSymrcm,
                                         reinterpret_cast<cuDoubleComplex*>(x.data()), &singularity),
                     "cusolverSpZcsrlsvqr", detail);
      break;
    default:
      throw TypeError(std::string("kumo.sparse.linalg.spsolve: cuSOLVER has no sparse QR for ") +
                      dtype_name(a.data.dtype()));
  }
  return singularity;
}

}  // namespace sparse
}  // namespace kumo
