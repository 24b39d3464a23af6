// The cuBLAS/cuSOLVER LinalgBackend: gemm here, the LAPACK-style routines
// in cusolver_routines.cpp, shared machinery in cuda_linalg_common.cpp.
//
// Float32 precision: gemm computes float32 and complex64 products with
// CUBLAS_COMPUTE_32F and the handle's default math mode, i.e. true float32
// arithmetic, so results agree with NumPy/OpenBLAS to float32 rounding.
// Setting KUMO_ALLOW_TF32=1 in the environment (read once, at the first
// gemm) selects CUBLAS_COMPUTE_32F_FAST_TF32 instead: tensor cores with
// inputs rounded to TF32 (10-bit mantissa), much faster on Ampere and later
// but only accurate to about 1e-3 relative.
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/backend_registry.h"
#include "linalg/cuda/cuda_linalg.h"
#include "linalg/cuda/cuda_linalg_common.h"

namespace kumo {
namespace cuda_linalg {
namespace {

bool tf32_allowed() {
  static const bool allowed = [] {
    const char* v = std::getenv("KUMO_ALLOW_TF32");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return allowed;
}

template <typename T>
bool is_value(const void* p, double value) {
  if constexpr (Scalar<T>::kComplex) {
    const auto* z = static_cast<const typename Scalar<T>::Real*>(p);
    return z[0] == value && z[1] == 0;
  } else {
    return *static_cast<const T*>(p) == value;
  }
}

cublasComputeType_t compute_type(Dtype dtype) {
  switch (dtype) {
    case Dtype::kFloat32:
    case Dtype::kComplex64:
      return tf32_allowed() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    default:
      return CUBLAS_COMPUTE_64F;
  }
}

// C = beta * C for gemm with k == 0 (no product term). Handled here rather
// than left to cuBLAS so that beta == 0 writes exact zeros (BLAS semantics:
// C is not read, NaN in C does not survive) and beta == 1 does nothing.
template <typename T>
void scale_c(CallContext& ctx, int64_t m, int64_t n, const void* beta, void* c, int64_t ldc, int64_t stride_c,
             int64_t batch) {
  if (is_value<T>(beta, 1.0)) return;
  const size_t elem = sizeof(T);
  if (is_value<T>(beta, 0.0)) {
    // One 2-D memset covers the whole batch when the matrices tile evenly.
    const bool tiled = batch == 1 || stride_c == ldc * n;
    const int64_t launches = tiled ? 1 : batch;
    const int64_t height = tiled ? n * batch : n;
    for (int64_t i = 0; i < launches; ++i) {
      char* ci = static_cast<char*>(c) + static_cast<size_t>(i * stride_c) * elem;
      cuda_detail::check(cudaMemset2DAsync(ci, static_cast<size_t>(ldc) * elem, 0, static_cast<size_t>(m) * elem,
                                           static_cast<size_t>(height), ctx.stream()),
                         "cudaMemset2DAsync", static_cast<void*>(ci), static_cast<size_t>(ldc) * elem, 0,
                         static_cast<size_t>(m) * elem, height, cuda_detail::HexHandle{ctx.stream_handle()});
    }
    return;
  }
  cublasHandle_t handle = ctx.blas();
  const cudaDataType type = Scalar<T>::kType;
  auto scal = [&](void* x, int64_t count) {
    check_cublas(cublasScalEx_64(handle, count, beta, type, x, type, 1, type), "cublasScalEx_64", kv("n", count), x);
  };
  if (ldc == m) {
    // Columns are contiguous: one call per matrix, or one for the batch.
    if (batch == 1 || stride_c == m * n) {
      scal(c, m * n * batch);
    } else {
      for (int64_t i = 0; i < batch; ++i) scal(static_cast<T*>(c) + i * stride_c, m * n);
    }
    return;
  }
  for (int64_t i = 0; i < batch; ++i) {
    for (int64_t j = 0; j < n; ++j) scal(static_cast<T*>(c) + i * stride_c + j * ldc, m);
  }
}

class CudaLinalgBackend final : public LinalgBackend {
 public:
  void gemm(Dtype dtype, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k, const void* alpha,
            const void* a, int64_t lda, int64_t stride_a, const void* b, int64_t ldb, int64_t stride_b,
            const void* beta, void* c, int64_t ldc, int64_t stride_c, int64_t batch, StreamHandle stream) override {
    const char* routine = "gemm";
    require_linalg_dtype(dtype, routine);
    require_nonnegative(m, "m", routine);
    require_nonnegative(n, "n", routine);
    require_nonnegative(k, "k", routine);
    require_nonnegative(batch, "batch", routine);
    const cublasOperation_t op_a = to_cublas_op(trans_a);
    const cublasOperation_t op_b = to_cublas_op(trans_b);
    require_leading_dimension(lda, trans_a == Transpose::kNo ? m : k, "lda", routine);
    require_leading_dimension(ldb, trans_b == Transpose::kNo ? k : n, "ldb", routine);
    require_leading_dimension(ldc, m, "ldc", routine);
    if (m == 0 || n == 0 || batch == 0) return;
    // Every product writes its own C; a shared one would be a race on the GPU.
    if (batch > 1 && stride_c == 0) throw ValueError("gemm: stride_c must not be 0 for a batch of outputs");

    CallContext ctx(routine, c, stream);
    dispatch(dtype, routine, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if (k == 0) {
        scale_c<T>(ctx, m, n, beta, c, ldc, stride_c, batch);
        return;
      }
      const cudaDataType type = Scalar<T>::kType;
      const cublasComputeType_t compute = compute_type(dtype);
      if (batch == 1) {
        check_cublas(cublasGemmEx_64(ctx.blas(), op_a, op_b, m, n, k, alpha, a, type, lda, b, type, ldb, beta, c, type,
                                     ldc, compute, CUBLAS_GEMM_DEFAULT),
                     "cublasGemmEx_64", kv("m", m), kv("n", n), kv("k", k), kv("lda", lda), kv("ldb", ldb),
                     kv("ldc", ldc), dtype_name(dtype));
        return;
      }
      if (stride_a < 0 || stride_b < 0 || stride_c < 0) {
        // Batches walked backwards (negative-stride views) go through
        // explicit pointer arrays, whose entries may be any address; the
        // strided API is only documented for forward strides.
        const size_t elem = sizeof(T);
        std::shared_ptr<Memory> ptrs = ctx.workspace(3 * static_cast<size_t>(batch) * sizeof(void*));
        void** pa = static_cast<void**>(ptrs->data());
        void** pb = pa + batch;
        void** pc = pb + batch;
        fill_pointer_array(ctx, const_cast<void*>(a), stride_a * static_cast<int64_t>(elem), batch, pa);
        fill_pointer_array(ctx, const_cast<void*>(b), stride_b * static_cast<int64_t>(elem), batch, pb);
        fill_pointer_array(ctx, c, stride_c * static_cast<int64_t>(elem), batch, pc);
        check_cublas(cublasGemmBatchedEx_64(ctx.blas(), op_a, op_b, m, n, k, alpha, pa, type, lda, pb, type, ldb,
                                            beta, pc, type, ldc, batch, compute, CUBLAS_GEMM_DEFAULT),
                     "cublasGemmBatchedEx_64", kv("m", m), kv("n", n), kv("k", k), kv("lda", lda),
                     kv("stride_a", stride_a), kv("ldb", ldb), kv("stride_b", stride_b), kv("ldc", ldc),
                     kv("stride_c", stride_c), kv("batch", batch), dtype_name(dtype));
        return;
      }
      check_cublas(cublasGemmStridedBatchedEx_64(ctx.blas(), op_a, op_b, m, n, k, alpha, a, type, lda, stride_a, b,
                                                 type, ldb, stride_b, beta, c, type, ldc, stride_c, batch, compute,
                                                 CUBLAS_GEMM_DEFAULT),
                   "cublasGemmStridedBatchedEx_64", kv("m", m), kv("n", n), kv("k", k), kv("lda", lda),
                   kv("stride_a", stride_a), kv("ldb", ldb), kv("stride_b", stride_b), kv("ldc", ldc),
                   kv("stride_c", stride_c), kv("batch", batch), dtype_name(dtype));
    });
  }

  void getrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* ipiv, int32_t* info,
             int64_t batch, StreamHandle stream) override {
    cuda_linalg::getrf(dtype, n, a, lda, stride_a, ipiv, info, batch, stream);
  }

  void getrs(Dtype dtype, Transpose trans, int64_t n, int64_t nrhs, const void* lu, int64_t lda, int64_t stride_a,
             const int32_t* ipiv, void* b, int64_t ldb, int64_t stride_b, int64_t batch,
             StreamHandle stream) override {
    cuda_linalg::getrs(dtype, trans, n, nrhs, lu, lda, stride_a, ipiv, b, ldb, stride_b, batch, stream);
  }

  void potrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* info, int64_t batch,
             StreamHandle stream) override {
    cuda_linalg::potrf(dtype, n, a, lda, stride_a, info, batch, stream);
  }

  void geqrf(Dtype dtype, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* tau, int32_t* info,
             int64_t batch, StreamHandle stream) override {
    cuda_linalg::geqrf(dtype, m, n, a, lda, stride_a, tau, info, batch, stream);
  }

  void orgqr(Dtype dtype, int64_t m, int64_t n, int64_t k, void* a, int64_t lda, int64_t stride_a, const void* tau,
             int64_t tau_stride, int32_t* info, int64_t batch, StreamHandle stream) override {
    cuda_linalg::orgqr(dtype, m, n, k, a, lda, stride_a, tau, tau_stride, info, batch, stream);
  }

  void gesvd(Dtype dtype, char job, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* s, void* u,
             int64_t ldu, int64_t stride_u, void* vt, int64_t ldvt, int64_t stride_vt, int32_t* info, int64_t batch,
             StreamHandle stream) override {
    cuda_linalg::gesvd(dtype, job, m, n, a, lda, stride_a, s, u, ldu, stride_u, vt, ldvt, stride_vt, info, batch,
                       stream);
  }

  void syevd(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, int32_t* info,
             int64_t batch, StreamHandle stream) override {
    cuda_linalg::syevd(dtype, vectors, n, a, lda, stride_a, w, info, batch, stream);
  }

  void geev(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, void* vr,
            int64_t ldvr, int64_t stride_vr, int32_t* info, int64_t batch, StreamHandle stream) override {
    cuda_linalg::geev(dtype, vectors, n, a, lda, stride_a, w, vr, ldvr, stride_vr, info, batch, stream);
  }
};

}  // namespace
}  // namespace cuda_linalg

LinalgBackend& cuda_linalg_backend() {
  // Never destroyed, like the plugin's other singletons (core/cuda/cuda_common.h).
  static cuda_detail::NoDestructor<cuda_linalg::CudaLinalgBackend> backend;
  return backend.get();
}

namespace {
const BackendRegistration registration(Capability::kLinalg, DeviceType::kCUDA, []() -> void* { return &cuda_linalg_backend(); });
}  // namespace

}  // namespace kumo
