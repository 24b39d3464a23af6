// The dense linear-algebra backend: BLAS and LAPACK routines over batches of
// matrices. Two implementations: OpenBLAS/LAPACK on the host
// (linalg/host/host_linalg.cpp) and cuBLAS/cuSOLVER in the CUDA plugin
// (linalg/cuda/cuda_linalg.cpp).
//
// Conventions, shared by every routine so callers never special-case a backend:
// - Matrices are column-major (BLAS/LAPACK's layout). A row-major matrix is
//   its transpose in column-major, which callers express through Transpose
//   flags where the routine has one (gemm) instead of copying.
// - A batch is `batch` matrices whose first elements are `stride_*` elements
//   apart (stride 0 repeats one matrix, for broadcast inputs of gemm only).
// - All data pointers (matrices, ipiv, tau, info, w, s) belong to the device
//   the backend serves: host memory for the host backend, device memory for
//   CUDA. Work happens in order on `stream` (ignored on the host).
// - dtype is one of kFloat32, kFloat64, kComplex64, kComplex128; anything
//   else throws TypeError. Real outputs of complex routines (s, w of syevd)
//   have the matching real dtype.
// - info[i] follows LAPACK: 0 success, >0 the factorization failed for
//   matrix i (singular, not positive definite, no convergence); it is written
//   for every matrix of a non-empty batch, also when the matrices are empty
//   (then 0). Routines never
//   throw for such per-matrix failures; callers decide (LinAlgError).
//   Invalid arguments (negative sizes, bad leading dimensions) throw ValueError.
// - Workspace is the backend's business (taken from the device's pool).
#pragma once
#include <cstdint>

#include "core/backend_registry.h"
#include "core/dtype.h"
#include "core/memory_pool.h"

namespace kumo {

enum class Transpose : uint8_t { kNo, kTrans, kConjTrans };

class LinalgBackend {
 public:
  static constexpr Capability kCapability = Capability::kLinalg;
  virtual ~LinalgBackend() = default;

  // C[i] = alpha * op(A[i]) * op(B[i]) + beta * C[i]; C is m x n, op(A) m x k,
  // op(B) k x n. alpha/beta point to host scalars of `dtype`.
  virtual void gemm(Dtype dtype, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k,
                    const void* alpha, const void* a, int64_t lda, int64_t stride_a, const void* b, int64_t ldb,
                    int64_t stride_b, const void* beta, void* c, int64_t ldc, int64_t stride_c, int64_t batch,
                    StreamHandle stream) = 0;

  // LU with partial pivoting of n x n matrices, in place. ipiv: batch * n
  // int32, 1-based as in LAPACK; info: batch int32 (>0: U(info,info) is 0).
  virtual void getrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* ipiv,
                     int32_t* info, int64_t batch, StreamHandle stream) = 0;

  // Solves op(A[i]) X = B[i] from getrf's factors; B is n x nrhs, overwritten by X.
  virtual void getrs(Dtype dtype, Transpose trans, int64_t n, int64_t nrhs, const void* lu, int64_t lda,
                     int64_t stride_a, const int32_t* ipiv, void* b, int64_t ldb, int64_t stride_b,
                     int64_t batch, StreamHandle stream) = 0;

  // Cholesky A = L L^H of the lower triangle, in place (the strict upper
  // triangle is left as it was). info > 0: not positive definite.
  virtual void potrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* info,
                     int64_t batch, StreamHandle stream) = 0;

  // Householder QR of m x n matrices in place; tau: batch * min(m, n) elements of dtype.
  virtual void geqrf(Dtype dtype, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* tau,
                     int32_t* info, int64_t batch, StreamHandle stream) = 0;

  // Forms the m x n matrix Q (n <= m) from k <= n reflectors left by geqrf,
  // in place (orgqr for real, ungqr for complex dtypes); tau as from geqrf
  // (batch * tau_stride elements, tau_stride = min(m_geqrf, n_geqrf)).
  virtual void orgqr(Dtype dtype, int64_t m, int64_t n, int64_t k, void* a, int64_t lda, int64_t stride_a,
                     const void* tau, int64_t tau_stride, int32_t* info, int64_t batch, StreamHandle stream) = 0;

  // SVD A = U S V^H of m x n matrices; A is destroyed. s: batch * min(m, n)
  // real values, descending. job 'N': values only (u, vt unused, may be
  // null); 'S': U is m x min(m,n), V^H is min(m,n) x n; 'A': U m x m, V^H n x n.
  // With min(m, n) == 0 nothing is computed and u, vt are not written.
  virtual void gesvd(Dtype dtype, char job, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a,
                     void* s, void* u, int64_t ldu, int64_t stride_u, void* vt, int64_t ldvt, int64_t stride_vt,
                     int32_t* info, int64_t batch, StreamHandle stream) = 0;

  // Eigen-decomposition of Hermitian n x n matrices from their lower
  // triangle. w: batch * n real eigenvalues, ascending. With vectors, A is
  // overwritten by the orthonormal eigenvectors (columns).
  virtual void syevd(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w,
                     int32_t* info, int64_t batch, StreamHandle stream) = 0;

  // Eigen-decomposition of general n x n matrices; A is destroyed.
  // w: batch * n eigenvalues of the complex dtype matching `dtype`
  // (complex64 for float32/complex64). With vectors, vr receives the right
  // eigenvectors (columns, unit 2-norm) as complex n x n matrices.
  virtual void geev(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w,
                    void* vr, int64_t ldvr, int64_t stride_vr, int32_t* info, int64_t batch,
                    StreamHandle stream) = 0;
};

// The OpenBLAS/LAPACK backend used for host arrays.
LinalgBackend& host_linalg_backend();

}  // namespace kumo
