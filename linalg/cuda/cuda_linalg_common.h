// Private helpers of the cuBLAS/cuSOLVER backend (linalg/cuda/): status
// names and checks, per-thread library handles, the per-call context (device,
// stream, handles, pooled workspace), argument validation, and the few small
// CUDA kernels the backend needs (compiled once per architecture by NVRTC,
// because the plugin is a C++-only target).
#pragma once
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "core/cuda/cuda_common.h"
#include "core/dtype.h"
#include "core/dtype_visit.h"
#include "core/errors.h"
#include "core/memory.h"
#include "core/memory_pool.h"
#include "linalg/linalg_backend.h"

namespace kumo {
namespace cuda_linalg {

// ---- Errors ------------------------------------------------------------------

const char* cublas_status_name(cublasStatus_t status);
const char* cusolver_status_name(cusolverStatus_t status);

template <typename... Args>
[[noreturn]] __attribute__((noinline, cold)) void throw_library_failure(const char* status_name, const char* call,
                                                                        const Args&... args) {
  // A failed library call may leave the runtime's last error set; it must
  // not be blamed on the next unrelated call.
  cuda_detail::clear_last_error();
  std::ostringstream os;
  os << call << '(';
  [[maybe_unused]] const char* sep = "";
  ((os << sep << args, sep = ", "), ...);
  os << ") failed: " << status_name;
  throw RuntimeError(os.str());
}

// check_cublas(cublasSgeam(...), "cublasSgeam", "m=3", ...) throws
// kumo::RuntimeError("cublasSgeam(m=3, ...) failed: CUBLAS_STATUS_INVALID_VALUE").
template <typename... Args>
inline void check_cublas(cublasStatus_t status, const char* call, const Args&... args) {
  if (status != CUBLAS_STATUS_SUCCESS) throw_library_failure(cublas_status_name(status), call, args...);
}

template <typename... Args>
inline void check_cusolver(cusolverStatus_t status, const char* call, const Args&... args) {
  if (status != CUSOLVER_STATUS_SUCCESS) {
    throw_library_failure(cusolver_status_name(status), call, args...);
  }
}

// "name=value" for messages.
template <typename T>
std::string kv(const char* name, const T& value) {
  std::ostringstream os;
  os << name << '=' << value;
  return os.str();
}

// ---- Argument validation ---------------------------------------------------------

// Throws TypeError unless dtype is float32/64 or complex64/128.
void require_linalg_dtype(Dtype dtype, const char* routine);
// Throws ValueError when value < 0.
void require_nonnegative(int64_t value, const char* name, const char* routine);
// Throws ValueError unless ld >= max(1, rows) (LAPACK's rule).
void require_leading_dimension(int64_t ld, int64_t rows, const char* name, const char* routine);
// Throws ValueError when the legacy 32-bit-integer APIs cannot take `value`.
int to_int(int64_t value, const char* name, const char* routine);

// ---- Scalar types ----------------------------------------------------------------

template <typename T>
struct Scalar;
template <>
struct Scalar<float> {
  using Real = float;
  static constexpr cudaDataType kType = CUDA_R_32F;
  static constexpr bool kComplex = false;
};
template <>
struct Scalar<double> {
  using Real = double;
  static constexpr cudaDataType kType = CUDA_R_64F;
  static constexpr bool kComplex = false;
};
template <>
struct Scalar<cuComplex> {
  using Real = float;
  static constexpr cudaDataType kType = CUDA_C_32F;
  static constexpr bool kComplex = true;
};
template <>
struct Scalar<cuDoubleComplex> {
  using Real = double;
  static constexpr cudaDataType kType = CUDA_C_64F;
  static constexpr bool kComplex = true;
};

// The CUDA scalar type of a C++ element type (cuComplex for std::complex<float>).
template <typename T>
struct CudaScalarOf {
  using type = T;
};
template <>
struct CudaScalarOf<std::complex<float>> {
  using type = cuComplex;
};
template <>
struct CudaScalarOf<std::complex<double>> {
  using type = cuDoubleComplex;
};

// Calls f(TypeTag<T>{}) with the CUDA scalar type of `dtype`.
template <typename F>
decltype(auto) dispatch(Dtype dtype, const char* routine, F&& f) {
  return visit_inexact_dtype(
      dtype, [&](auto tag) { return f(TypeTag<typename CudaScalarOf<typename decltype(tag)::type>::type>{}); },
      [&] { require_linalg_dtype(dtype, routine); });
}

template <typename T>
T scalar_one();
template <>
inline float scalar_one<float>() { return 1.0f; }
template <>
inline double scalar_one<double>() { return 1.0; }
template <>
inline cuComplex scalar_one<cuComplex>() { return make_cuComplex(1.0f, 0.0f); }
template <>
inline cuDoubleComplex scalar_one<cuDoubleComplex>() { return make_cuDoubleComplex(1.0, 0.0); }

template <typename T>
T scalar_zero();
template <>
inline float scalar_zero<float>() { return 0.0f; }
template <>
inline double scalar_zero<double>() { return 0.0; }
template <>
inline cuComplex scalar_zero<cuComplex>() { return make_cuComplex(0.0f, 0.0f); }
template <>
inline cuDoubleComplex scalar_zero<cuDoubleComplex>() { return make_cuDoubleComplex(0.0, 0.0); }

// ---- The call context -------------------------------------------------------------

// Everything one backend call works with: the device owning its data (made
// current), the stream, this thread's library handles for that device bound
// to the stream, and the device's memory pool for workspace.
class CallContext {
 public:
  // `data` is any non-null pointer of the call (its device is the call's
  // device); throws ValueError when it is not CUDA device memory.
  CallContext(const char* routine, const void* data, StreamHandle stream);

  int device() const { return device_; }
  cudaStream_t stream() const { return cuda_detail::to_stream(stream_); }
  StreamHandle stream_handle() const { return stream_; }
  const char* routine() const { return routine_; }

  // Handles are created lazily (per device and thread) and bound to the
  // call's stream on every call.
  cublasHandle_t blas();
  cusolverDnHandle_t solver();

  // Stream-ordered workspace from the device pool: blocks freed when the
  // returned Memory goes away may only be reused by later work on the same
  // stream, so releasing it right after queueing the work is safe.
  std::shared_ptr<Memory> workspace(size_t nbytes);

  // Queues info[0:count] = 0 (for matrices no library call touches).
  void zero_info(int32_t* info, int64_t count);

 private:
  const char* routine_;
  int device_;
  StreamHandle stream_;
  cublasHandle_t blas_ = nullptr;
  cusolverDnHandle_t solver_ = nullptr;
};

// ---- Small kernels (NVRTC) -------------------------------------------------------

// out[i] = base + i * stride_bytes for i < count, as a device array of
// pointers (the batched cuBLAS/cuSOLVER routines take such arrays).
void fill_pointer_array(CallContext& ctx, void* base, int64_t stride_bytes, int64_t count, void** out);

// The m x n matrix `a` (leading dimension lda) becomes the first n columns
// of the identity.
void set_identity(CallContext& ctx, Dtype dtype, void* a, int64_t m, int64_t n, int64_t lda);

// Converts the real geev output of one matrix into the contract's complex
// form. wr_wi holds n real parts then n imaginary parts; v (ld n) holds the
// right eigenvectors in LAPACK's real format (a complex pair j, j+1 as
// columns re, im). Writes complex w (n values) and, when v is not null,
// complex vectors into vr (leading dimension ldvr).
void unpack_real_geev(CallContext& ctx, bool is_double, int64_t n, const void* wr_wi, const void* v, void* w,
                      void* vr, int64_t ldvr);

// ---- Routines (cusolver_routines.cpp) --------------------------------------------

void getrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* ipiv, int32_t* info,
           int64_t batch, StreamHandle stream);
void getrs(Dtype dtype, Transpose trans, int64_t n, int64_t nrhs, const void* lu, int64_t lda, int64_t stride_a,
           const int32_t* ipiv, void* b, int64_t ldb, int64_t stride_b, int64_t batch, StreamHandle stream);
void potrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* info, int64_t batch,
           StreamHandle stream);
void geqrf(Dtype dtype, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* tau, int32_t* info,
           int64_t batch, StreamHandle stream);
void orgqr(Dtype dtype, int64_t m, int64_t n, int64_t k, void* a, int64_t lda, int64_t stride_a, const void* tau,
           int64_t tau_stride, int32_t* info, int64_t batch, StreamHandle stream);
void gesvd(Dtype dtype, char job, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* s, void* u,
           int64_t ldu, int64_t stride_u, void* vt, int64_t ldvt, int64_t stride_vt, int32_t* info, int64_t batch,
           StreamHandle stream);
void syevd(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, int32_t* info,
           int64_t batch, StreamHandle stream);
void geev(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, void* vr,
          int64_t ldvr, int64_t stride_vr, int32_t* info, int64_t batch, StreamHandle stream);

cublasOperation_t to_cublas_op(Transpose t);

}  // namespace cuda_linalg
}  // namespace kumo
