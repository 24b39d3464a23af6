// The LAPACK-style routines of the CUDA backend on cuSOLVER (and cuBLAS's
// batched LU for small matrices).
//
// API choice: the legacy cusolverDn<t> routines, one matrix at a time on
// the call's stream. They take 32-bit integers, and in particular int32
// pivots, which is the contract's ipiv type; the 64-bit API (cusolverDnX*)
// pivots with int64 and would need a conversion pass. Sizes above INT_MAX
// are rejected with ValueError (such a matrix would not fit in memory
// anyway). The exception is geev, which exists only as cusolverDnXgeev.
//
// Batches of small matrices (n <= kSmallBatchedN) use the batched routines
// (cublas<t>getrfBatched/getrsBatched, cusolverDn<t>potrfBatched,
// cusolverDn<t>syevjBatched/heevjBatched), which run the whole batch in one
// launch instead of one launch per matrix; they follow the same output and
// info conventions. gesvd and geev have no batched form with the
// contract's outputs (gesvdjBatched returns V, not V^H, and full U/V only)
// and loop over the batch.
#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "linalg/cuda/cuda_linalg_common.h"

namespace kumo {
namespace cuda_linalg {
namespace {

// A cuSOLVER parameter object owned for one call.
template <class Handle, cusolverStatus_t (*Create)(Handle*), cusolverStatus_t (*Destroy)(Handle)>
class CusolverObject {
 public:
  CusolverObject() { check_cusolver(Create(&handle_), "cusolverDnCreate(params)"); }
  ~CusolverObject() { (void)Destroy(handle_); }
  CusolverObject(const CusolverObject&) = delete;
  CusolverObject& operator=(const CusolverObject&) = delete;
  Handle get() const { return handle_; }

 private:
  Handle handle_ = nullptr;
};

constexpr int64_t kSmallBatchedN = 32;

// ---- Typed wrappers: one overload per scalar type --------------------------------

#define KUMO_GETRF(T, P)                                                                                     \
  cusolverStatus_t getrf_buffer(cusolverDnHandle_t h, int n, T* a, int lda, int* lwork) {                   \
    return cusolverDn##P##getrf_bufferSize(h, n, n, a, lda, lwork);                                         \
  }                                                                                                          \
  cusolverStatus_t getrf_call(cusolverDnHandle_t h, int n, T* a, int lda, T* work, int* ipiv, int* info) {  \
    return cusolverDn##P##getrf(h, n, n, a, lda, work, ipiv, info);                                         \
  }                                                                                                          \
  cusolverStatus_t getrs_call(cusolverDnHandle_t h, cublasOperation_t op, int n, int nrhs, const T* a,      \
                              int lda, const int* ipiv, T* b, int ldb, int* info) {                         \
    return cusolverDn##P##getrs(h, op, n, nrhs, a, lda, ipiv, b, ldb, info);                                \
  }                                                                                                          \
  cublasStatus_t getrf_batched(cublasHandle_t h, int n, T* const a[], int lda, int* ipiv, int* info,        \
                               int batch) {                                                                  \
    return cublas##P##getrfBatched(h, n, a, lda, ipiv, info, batch);                                        \
  }                                                                                                          \
  cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int nrhs, const T* const a[], \
                               int lda, const int* ipiv, T* const b[], int ldb, int* info, int batch) {     \
    return cublas##P##getrsBatched(h, op, n, nrhs, a, lda, ipiv, b, ldb, info, batch);                      \
  }                                                                                                          \
  cusolverStatus_t potrf_buffer(cusolverDnHandle_t h, int n, T* a, int lda, int* lwork) {                   \
    return cusolverDn##P##potrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, a, lda, lwork);                    \
  }                                                                                                          \
  cusolverStatus_t potrf_call(cusolverDnHandle_t h, int n, T* a, int lda, T* work, int lwork, int* info) {  \
    return cusolverDn##P##potrf(h, CUBLAS_FILL_MODE_LOWER, n, a, lda, work, lwork, info);                   \
  }                                                                                                          \
  cusolverStatus_t potrf_batched(cusolverDnHandle_t h, int n, T* a[], int lda, int* info, int batch) {      \
    return cusolverDn##P##potrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, a, lda, info, batch);                  \
  }                                                                                                          \
  cusolverStatus_t geqrf_buffer(cusolverDnHandle_t h, int m, int n, T* a, int lda, int* lwork) {            \
    return cusolverDn##P##geqrf_bufferSize(h, m, n, a, lda, lwork);                                         \
  }                                                                                                          \
  cusolverStatus_t geqrf_call(cusolverDnHandle_t h, int m, int n, T* a, int lda, T* tau, T* work, int lwork, \
                              int* info) {                                                                   \
    return cusolverDn##P##geqrf(h, m, n, a, lda, tau, work, lwork, info);                                   \
  }                                                                                                          \
  cusolverStatus_t gesvd_buffer(cusolverDnHandle_t h, TypeTag<T>, int m, int n, int* lwork) {               \
    return cusolverDn##P##gesvd_bufferSize(h, m, n, lwork);                                                 \
  }                                                                                                          \
  cusolverStatus_t gesvd_call(cusolverDnHandle_t h, signed char job, int m, int n, T* a, int lda,           \
                              Scalar<T>::Real* s, T* u, int ldu, T* vt, int ldvt, T* work, int lwork,       \
                              Scalar<T>::Real* rwork, int* info) {                                          \
    return cusolverDn##P##gesvd(h, job, job, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, info);  \
  }                                                                                                          \
  cublasStatus_t geam_transpose(cublasHandle_t h, int64_t rows, int64_t cols, const T* src, int64_t ld_src, \
                                T* dst, int64_t ld_dst) {                                                    \
    /* dst (rows x cols) = src^T; beta is 0, so src also stands in for B, which is not read. */              \
    const T one = scalar_one<T>();                                                                           \
    const T zero = scalar_zero<T>();                                                                         \
    return cublas##P##geam_64(h, CUBLAS_OP_T, CUBLAS_OP_T, rows, cols, &one, src, ld_src, &zero, src, ld_src, \
                              dst, ld_dst);                                                                  \
  }

KUMO_GETRF(float, S)
KUMO_GETRF(double, D)
KUMO_GETRF(cuComplex, C)
KUMO_GETRF(cuDoubleComplex, Z)
#undef KUMO_GETRF

// orgqr for real types, ungqr for complex; syevd / heevd likewise.
#define KUMO_ORGQR_SYEVD(T, P, QR, EV, EVJ)                                                                          \
  cusolverStatus_t orgqr_buffer(cusolverDnHandle_t h, int m, int n, int k, const T* a, int lda, const T* tau, \
                                int* lwork) {                                                                 \
    return cusolverDn##P##QR##_bufferSize(h, m, n, k, a, lda, tau, lwork);                                    \
  }                                                                                                            \
  cusolverStatus_t orgqr_call(cusolverDnHandle_t h, int m, int n, int k, T* a, int lda, const T* tau, T* work, \
                              int lwork, int* info) {                                                         \
    return cusolverDn##P##QR(h, m, n, k, a, lda, tau, work, lwork, info);                                     \
  }                                                                                                            \
  cusolverStatus_t syevd_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz, int n, const T* a, int lda,     \
                                const Scalar<T>::Real* w, int* lwork) {                                       \
    return cusolverDn##P##EV##_bufferSize(h, jobz, CUBLAS_FILL_MODE_LOWER, n, a, lda, w, lwork);              \
  }                                                                                                            \
  cusolverStatus_t syevd_call(cusolverDnHandle_t h, cusolverEigMode_t jobz, int n, T* a, int lda,             \
                              Scalar<T>::Real* w, T* work, int lwork, int* info) {                            \
    return cusolverDn##P##EV(h, jobz, CUBLAS_FILL_MODE_LOWER, n, a, lda, w, work, lwork, info);               \
  }                                                                                                            \
  cusolverStatus_t syevj_batched_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz, int n, const T* a,      \
                                        int lda, const Scalar<T>::Real* w, int* lwork, syevjInfo_t params,    \
                                        int batch) {                                                          \
    return cusolverDn##P##EVJ##Batched_bufferSize(h, jobz, CUBLAS_FILL_MODE_LOWER, n, a, lda, w, lwork,       \
                                                  params, batch);                                             \
  }                                                                                                            \
  cusolverStatus_t syevj_batched(cusolverDnHandle_t h, cusolverEigMode_t jobz, int n, T* a, int lda,          \
                                 Scalar<T>::Real* w, T* work, int lwork, int* info, syevjInfo_t params,       \
                                 int batch) {                                                                 \
    return cusolverDn##P##EVJ##Batched(h, jobz, CUBLAS_FILL_MODE_LOWER, n, a, lda, w, work, lwork, info,      \
                                       params, batch);                                                        \
  }

KUMO_ORGQR_SYEVD(float, S, orgqr, syevd, syevj)
KUMO_ORGQR_SYEVD(double, D, orgqr, syevd, syevj)
KUMO_ORGQR_SYEVD(cuComplex, C, ungqr, heevd, heevj)
KUMO_ORGQR_SYEVD(cuDoubleComplex, Z, ungqr, heevd, heevj)
#undef KUMO_ORGQR_SYEVD

// ---- Helpers ---------------------------------------------------------------------------

template <typename T>
T* at(void* base, int64_t stride, int64_t i) {
  return static_cast<T*>(base) + stride * i;
}
template <typename T>
const T* at(const void* base, int64_t stride, int64_t i) {
  return static_cast<const T*>(base) + stride * i;
}

// Device workspace of `count` elements of T (at least one, so that the
// library always sees a valid pointer).
template <typename T>
std::shared_ptr<Memory> elements(CallContext& ctx, int64_t count) {
  return ctx.workspace(static_cast<size_t>(std::max<int64_t>(count, 1)) * sizeof(T));
}

template <typename T>
T* data_of(const std::shared_ptr<Memory>& m) {
  return static_cast<T*>(m->data());
}

// Device array of batch pointers base + i * stride (elements of T).
template <typename T>
std::shared_ptr<Memory> pointer_array(CallContext& ctx, const void* base, int64_t stride, int64_t batch) {
  std::shared_ptr<Memory> ptrs = ctx.workspace(static_cast<size_t>(batch) * sizeof(void*));
  fill_pointer_array(ctx, const_cast<void*>(base), stride * static_cast<int64_t>(sizeof(T)), batch,
                     static_cast<void**>(ptrs->data()));
  return ptrs;
}

const char* typed_name(Dtype dtype, const char* real_name, const char* complex_name) {
  return is_complex(dtype) ? complex_name : real_name;
}

}  // namespace

// ---- LU --------------------------------------------------------------------------------

void getrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* ipiv, int32_t* info,
           int64_t batch, StreamHandle stream) {
  const char* routine = "getrf";
  require_linalg_dtype(dtype, routine);
  require_nonnegative(n, "n", routine);
  require_nonnegative(batch, "batch", routine);
  require_leading_dimension(lda, n, "lda", routine);
  if (batch == 0) return;
  CallContext ctx(routine, info, stream);
  if (n == 0) {
    ctx.zero_info(info, batch);
    return;
  }
  const int in = to_int(n, "n", routine), ilda = to_int(lda, "lda", routine);
  dispatch(dtype, routine, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (batch > 1 && n <= kSmallBatchedN) {
      const int ibatch = to_int(batch, "batch", routine);
      std::shared_ptr<Memory> ptrs = pointer_array<T>(ctx, a, stride_a, batch);
      check_cublas(getrf_batched(ctx.blas(), in, static_cast<T* const*>(ptrs->data()), ilda, ipiv, info, ibatch),
                   "cublas<t>getrfBatched", kv("n", n), kv("lda", lda), kv("batch", batch), dtype_name(dtype));
      return;
    }
    cusolverDnHandle_t h = ctx.solver();
    int lwork = 0;
    check_cusolver(getrf_buffer(h, in, static_cast<T*>(a), ilda, &lwork), "cusolverDn<t>getrf_bufferSize",
                   kv("n", n), kv("lda", lda), dtype_name(dtype));
    std::shared_ptr<Memory> work = elements<T>(ctx, lwork);
    for (int64_t i = 0; i < batch; ++i) {
      check_cusolver(getrf_call(h, in, at<T>(a, stride_a, i), ilda, data_of<T>(work), ipiv + i * n, info + i),
                     "cusolverDn<t>getrf", kv("n", n), kv("lda", lda), kv("matrix", i), dtype_name(dtype));
    }
  });
}

void getrs(Dtype dtype, Transpose trans, int64_t n, int64_t nrhs, const void* lu, int64_t lda, int64_t stride_a,
           const int32_t* ipiv, void* b, int64_t ldb, int64_t stride_b, int64_t batch, StreamHandle stream) {
  const char* routine = "getrs";
  require_linalg_dtype(dtype, routine);
  const cublasOperation_t op = to_cublas_op(trans);
  require_nonnegative(n, "n", routine);
  require_nonnegative(nrhs, "nrhs", routine);
  require_nonnegative(batch, "batch", routine);
  require_leading_dimension(lda, n, "lda", routine);
  require_leading_dimension(ldb, n, "ldb", routine);
  if (batch == 0 || n == 0 || nrhs == 0) return;
  const int in = to_int(n, "n", routine), inrhs = to_int(nrhs, "nrhs", routine);
  const int ilda = to_int(lda, "lda", routine), ildb = to_int(ldb, "ldb", routine);
  CallContext ctx(routine, b, stream);
  dispatch(dtype, routine, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (batch > 1 && n <= kSmallBatchedN) {
      const int ibatch = to_int(batch, "batch", routine);
      std::shared_ptr<Memory> pa = pointer_array<T>(ctx, lu, stride_a, batch);
      std::shared_ptr<Memory> pb = pointer_array<T>(ctx, b, stride_b, batch);
      // This routine's info is a host value reporting argument errors only;
      // it is set before the call returns.
      int host_info = 0;
      check_cublas(getrs_batched(ctx.blas(), op, in, inrhs, static_cast<const T* const*>(pa->data()), ilda, ipiv,
                                 static_cast<T* const*>(pb->data()), ildb, &host_info, ibatch),
                   "cublas<t>getrsBatched", kv("n", n), kv("nrhs", nrhs), kv("lda", lda), kv("ldb", ldb),
                   kv("batch", batch), dtype_name(dtype));
      if (host_info != 0) {
        throw ValueError("getrs: cublas<t>getrsBatched rejected argument " + std::to_string(-host_info) +
                         " (n=" + std::to_string(n) + ", nrhs=" + std::to_string(nrhs) + ")");
      }
      return;
    }
    cusolverDnHandle_t h = ctx.solver();
    // getrs reports only argument errors through info, and those are
    // checked above; the device scratch just gives it somewhere to write.
    std::shared_ptr<Memory> scratch = elements<int>(ctx, 1);
    for (int64_t i = 0; i < batch; ++i) {
      check_cusolver(getrs_call(h, op, in, inrhs, at<T>(lu, stride_a, i), ilda, ipiv + i * n, at<T>(b, stride_b, i),
                                ildb, data_of<int>(scratch)),
                     "cusolverDn<t>getrs", kv("n", n), kv("nrhs", nrhs), kv("lda", lda), kv("ldb", ldb),
                     kv("matrix", i), dtype_name(dtype));
    }
  });
}

// ---- Cholesky --------------------------------------------------------------------------

void potrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* info, int64_t batch,
           StreamHandle stream) {
  const char* routine = "potrf";
  require_linalg_dtype(dtype, routine);
  require_nonnegative(n, "n", routine);
  require_nonnegative(batch, "batch", routine);
  require_leading_dimension(lda, n, "lda", routine);
  if (batch == 0) return;
  CallContext ctx(routine, info, stream);
  if (n == 0) {
    ctx.zero_info(info, batch);
    return;
  }
  const int in = to_int(n, "n", routine), ilda = to_int(lda, "lda", routine);
  dispatch(dtype, routine, [&](auto tag) {
    using T = typename decltype(tag)::type;
    cusolverDnHandle_t h = ctx.solver();
    if (batch > 1 && n <= kSmallBatchedN) {
      const int ibatch = to_int(batch, "batch", routine);
      std::shared_ptr<Memory> ptrs = pointer_array<T>(ctx, a, stride_a, batch);
      check_cusolver(potrf_batched(h, in, static_cast<T**>(ptrs->data()), ilda, info, ibatch),
                     "cusolverDn<t>potrfBatched", "CUBLAS_FILL_MODE_LOWER", kv("n", n), kv("lda", lda),
                     kv("batch", batch), dtype_name(dtype));
      return;
    }
    int lwork = 0;
    check_cusolver(potrf_buffer(h, in, static_cast<T*>(a), ilda, &lwork), "cusolverDn<t>potrf_bufferSize",
                   "CUBLAS_FILL_MODE_LOWER", kv("n", n), kv("lda", lda), dtype_name(dtype));
    std::shared_ptr<Memory> work = elements<T>(ctx, lwork);
    for (int64_t i = 0; i < batch; ++i) {
      check_cusolver(potrf_call(h, in, at<T>(a, stride_a, i), ilda, data_of<T>(work), lwork, info + i),
                     "cusolverDn<t>potrf", "CUBLAS_FILL_MODE_LOWER", kv("n", n), kv("lda", lda), kv("matrix", i),
                     dtype_name(dtype));
    }
  });
}

// ---- QR --------------------------------------------------------------------------------

void geqrf(Dtype dtype, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* tau, int32_t* info,
           int64_t batch, StreamHandle stream) {
  const char* routine = "geqrf";
  require_linalg_dtype(dtype, routine);
  require_nonnegative(m, "m", routine);
  require_nonnegative(n, "n", routine);
  require_nonnegative(batch, "batch", routine);
  require_leading_dimension(lda, m, "lda", routine);
  if (batch == 0) return;
  CallContext ctx(routine, info, stream);
  const int64_t mn = std::min(m, n);
  if (mn == 0) {
    ctx.zero_info(info, batch);
    return;
  }
  const int im = to_int(m, "m", routine), in = to_int(n, "n", routine), ilda = to_int(lda, "lda", routine);
  dispatch(dtype, routine, [&](auto tag) {
    using T = typename decltype(tag)::type;
    cusolverDnHandle_t h = ctx.solver();
    int lwork = 0;
    check_cusolver(geqrf_buffer(h, im, in, static_cast<T*>(a), ilda, &lwork), "cusolverDn<t>geqrf_bufferSize",
                   kv("m", m), kv("n", n), kv("lda", lda), dtype_name(dtype));
    std::shared_ptr<Memory> work = elements<T>(ctx, lwork);
    for (int64_t i = 0; i < batch; ++i) {
      check_cusolver(geqrf_call(h, im, in, at<T>(a, stride_a, i), ilda, at<T>(tau, mn, i), data_of<T>(work), lwork,
                                info + i),
                     "cusolverDn<t>geqrf", kv("m", m), kv("n", n), kv("lda", lda), kv("matrix", i), dtype_name(dtype));
    }
  });
}

void orgqr(Dtype dtype, int64_t m, int64_t n, int64_t k, void* a, int64_t lda, int64_t stride_a, const void* tau,
           int64_t tau_stride, int32_t* info, int64_t batch, StreamHandle stream) {
  const char* routine = typed_name(dtype, "orgqr", "ungqr");
  require_linalg_dtype(dtype, routine);
  require_nonnegative(m, "m", routine);
  require_nonnegative(n, "n", routine);
  require_nonnegative(k, "k", routine);
  require_nonnegative(batch, "batch", routine);
  require_nonnegative(tau_stride, "tau_stride", routine);
  if (n > m) throw ValueError(std::string(routine) + ": n=" + std::to_string(n) + " must be <= m=" + std::to_string(m));
  if (k > n) throw ValueError(std::string(routine) + ": k=" + std::to_string(k) + " must be <= n=" + std::to_string(n));
  if (tau_stride < k && batch > 1) {
    throw ValueError(std::string(routine) + ": tau_stride=" + std::to_string(tau_stride) +
                     " must be >= k=" + std::to_string(k));
  }
  require_leading_dimension(lda, m, "lda", routine);
  if (batch == 0) return;
  CallContext ctx(routine, info, stream);
  if (n == 0) {
    ctx.zero_info(info, batch);
    return;
  }
  if (k == 0) {
    // No reflectors: Q is the identity's first n columns (what LAPACK's
    // orgqr produces for k = 0), built directly.
    ctx.zero_info(info, batch);
    for (int64_t i = 0; i < batch; ++i) {
      set_identity(ctx, dtype, static_cast<char*>(a) + stride_a * i * static_cast<int64_t>(itemsize(dtype)), m, n,
                   lda);
    }
    return;
  }
  const int im = to_int(m, "m", routine), in = to_int(n, "n", routine), ik = to_int(k, "k", routine);
  const int ilda = to_int(lda, "lda", routine);
  dispatch(dtype, routine, [&](auto tag) {
    using T = typename decltype(tag)::type;
    cusolverDnHandle_t h = ctx.solver();
    int lwork = 0;
    check_cusolver(orgqr_buffer(h, im, in, ik, static_cast<const T*>(a), ilda, static_cast<const T*>(tau), &lwork),
                   "cusolverDn<t>orgqr_bufferSize", kv("m", m), kv("n", n), kv("k", k), kv("lda", lda),
                   dtype_name(dtype));
    std::shared_ptr<Memory> work = elements<T>(ctx, lwork);
    for (int64_t i = 0; i < batch; ++i) {
      check_cusolver(orgqr_call(h, im, in, ik, at<T>(a, stride_a, i), ilda, at<T>(tau, tau_stride, i),
                                data_of<T>(work), lwork, info + i),
                     is_complex(dtype) ? "cusolverDn<t>ungqr" : "cusolverDn<t>orgqr", kv("m", m), kv("n", n),
                     kv("k", k), kv("lda", lda), kv("matrix", i), dtype_name(dtype));
    }
  });
}

// ---- SVD -------------------------------------------------------------------------------

// cusolverDn<t>gesvd (QR iteration, LAPACK's gesvd algorithm) returns
// V^H in vt like LAPACK, but accepts only m >= n. A wide matrix is handled
// through its transpose: if A^T = U' S V'^H then A = conj(V') S U'^T, so
// U = (V'^H)^T and V^H = U'^T, both formed with a cuBLAS geam transpose.
void gesvd(Dtype dtype, char job, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* s, void* u,
           int64_t ldu, int64_t stride_u, void* vt, int64_t ldvt, int64_t stride_vt, int32_t* info, int64_t batch,
           StreamHandle stream) {
  const char* routine = "gesvd";
  require_linalg_dtype(dtype, routine);
  if (job != 'N' && job != 'S' && job != 'A') {
    throw ValueError(std::string("gesvd: job must be 'N', 'S' or 'A', got '") + job + "'");
  }
  require_nonnegative(m, "m", routine);
  require_nonnegative(n, "n", routine);
  require_nonnegative(batch, "batch", routine);
  require_leading_dimension(lda, m, "lda", routine);
  const int64_t mn = std::min(m, n);
  const bool vectors = job != 'N';
  if (vectors) {
    require_leading_dimension(ldu, m, "ldu", routine);
    require_leading_dimension(ldvt, job == 'A' ? n : mn, "ldvt", routine);
  }
  if (batch == 0) return;
  CallContext ctx(routine, info, stream);
  if (mn == 0) {
    ctx.zero_info(info, batch);
    return;
  }
  const bool wide = m < n;
  // The matrix cuSOLVER factors: A itself, or A^T (rows >= cols).
  const int64_t rows = wide ? n : m, cols = wide ? m : n;
  const int irows = to_int(rows, "m", routine), icols = to_int(cols, "n", routine);
  const int ilda = to_int(lda, "lda", routine);
  const int ildu = vectors ? to_int(ldu, "ldu", routine) : 1;
  const int ildvt = vectors ? to_int(ldvt, "ldvt", routine) : 1;
  const signed char cjob = static_cast<signed char>(job);
  dispatch(dtype, routine, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = typename Scalar<T>::Real;
    cusolverDnHandle_t h = ctx.solver();
    int lwork = 0;
    check_cusolver(gesvd_buffer(h, tag, irows, icols, &lwork), "cusolverDn<t>gesvd_bufferSize", kv("m", rows),
                   kv("n", cols), dtype_name(dtype));
    std::shared_ptr<Memory> work = elements<T>(ctx, lwork);
    // Unconverged superdiagonal on failure (min(m,n) - 1 values).
    std::shared_ptr<Memory> rwork = elements<R>(ctx, mn);
    if (!wide) {
      // LAPACK ignores ldu/ldvt with job 'N' but requires them >= 1; rows
      // and cols are valid whatever cuSOLVER checks.
      const int lu = vectors ? ildu : irows, lvt = vectors ? ildvt : icols;
      for (int64_t i = 0; i < batch; ++i) {
        check_cusolver(gesvd_call(h, cjob, irows, icols, at<T>(a, stride_a, i), ilda, at<R>(s, mn, i),
                                  vectors ? at<T>(u, stride_u, i) : nullptr, lu,
                                  vectors ? at<T>(vt, stride_vt, i) : nullptr, lvt, data_of<T>(work), lwork,
                                  data_of<R>(rwork), info + i),
                       "cusolverDn<t>gesvd", std::string("job=") + job, kv("m", m), kv("n", n), kv("lda", lda),
                       kv("ldu", ldu), kv("ldvt", ldvt), kv("matrix", i), dtype_name(dtype));
      }
      return;
    }
    // Wide: factor At = A^T (n x m, leading dimension n).
    const int64_t up_cols = job == 'A' ? n : m;  // U' is n x n ('A') or n x m ('S')
    std::shared_ptr<Memory> at_buf = elements<T>(ctx, n * m);
    std::shared_ptr<Memory> up_buf = vectors ? elements<T>(ctx, n * up_cols) : nullptr;
    std::shared_ptr<Memory> vtp_buf = vectors ? elements<T>(ctx, m * m) : nullptr;
    cublasHandle_t blas = ctx.blas();
    for (int64_t i = 0; i < batch; ++i) {
      check_cublas(geam_transpose(blas, n, m, at<T>(a, stride_a, i), lda, data_of<T>(at_buf), n), "cublas<t>geam_64",
                   "CUBLAS_OP_T", kv("m", n), kv("n", m), kv("lda", lda), kv("matrix", i), dtype_name(dtype));
      check_cusolver(gesvd_call(h, cjob, irows, icols, data_of<T>(at_buf), irows, at<R>(s, mn, i),
                                vectors ? data_of<T>(up_buf) : nullptr, irows,
                                vectors ? data_of<T>(vtp_buf) : nullptr, icols, data_of<T>(work), lwork,
                                data_of<R>(rwork), info + i),
                     "cusolverDn<t>gesvd", std::string("job=") + job, kv("m", rows), kv("n", cols), "transposed",
                     kv("matrix", i), dtype_name(dtype));
      if (!vectors) continue;
      // U (m x m) = (V'^H)^T; V^H (up_cols x n) = U'^T.
      check_cublas(geam_transpose(blas, m, m, data_of<T>(vtp_buf), m, at<T>(u, stride_u, i), ldu),
                   "cublas<t>geam_64", "CUBLAS_OP_T", kv("m", m), kv("n", m), kv("ldc", ldu), kv("matrix", i),
                   dtype_name(dtype));
      check_cublas(geam_transpose(blas, up_cols, n, data_of<T>(up_buf), n, at<T>(vt, stride_vt, i), ldvt),
                   "cublas<t>geam_64", "CUBLAS_OP_T", kv("m", up_cols), kv("n", n), kv("ldc", ldvt),
                   kv("matrix", i), dtype_name(dtype));
    }
  });
}

// ---- Hermitian eigenproblem ------------------------------------------------------------

// syevjBatched's defaults (tolerance: machine precision, up to 100 sweeps,
// eigenvalues sorted ascending) are what the contract needs.
using SyevjParams = CusolverObject<syevjInfo_t, cusolverDnCreateSyevjInfo, cusolverDnDestroySyevjInfo>;

void syevd(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, int32_t* info,
           int64_t batch, StreamHandle stream) {
  const char* routine = typed_name(dtype, "syevd", "heevd");
  require_linalg_dtype(dtype, routine);
  require_nonnegative(n, "n", routine);
  require_nonnegative(batch, "batch", routine);
  require_leading_dimension(lda, n, "lda", routine);
  if (batch == 0) return;
  CallContext ctx(routine, info, stream);
  if (n == 0) {
    ctx.zero_info(info, batch);
    return;
  }
  const int in = to_int(n, "n", routine), ilda = to_int(lda, "lda", routine);
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  dispatch(dtype, routine, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = typename Scalar<T>::Real;
    cusolverDnHandle_t h = ctx.solver();
    int lwork = 0;
    if (batch > 1 && n <= kSmallBatchedN && stride_a == lda * n) {
      // One launch for the whole batch (Jacobi; the routine takes densely
      // packed matrices, hence the stride condition). Same outputs: w
      // ascending, orthonormal vectors in A; info > 0 when a matrix does
      // not converge.
      const int ibatch = to_int(batch, "batch", routine);
      SyevjParams params;
      check_cusolver(syevj_batched_buffer(h, jobz, in, static_cast<const T*>(a), ilda, static_cast<const R*>(w),
                                          &lwork, params.get(), ibatch),
                     is_complex(dtype) ? "cusolverDn<t>heevjBatched_bufferSize" : "cusolverDn<t>syevjBatched_bufferSize",
                     kv("n", n), kv("lda", lda), kv("batch", batch), dtype_name(dtype));
      std::shared_ptr<Memory> work = elements<T>(ctx, lwork);
      check_cusolver(syevj_batched(h, jobz, in, static_cast<T*>(a), ilda, static_cast<R*>(w), data_of<T>(work), lwork,
                                   info, params.get(), ibatch),
                     is_complex(dtype) ? "cusolverDn<t>heevjBatched" : "cusolverDn<t>syevjBatched",
                     vectors ? "CUSOLVER_EIG_MODE_VECTOR" : "CUSOLVER_EIG_MODE_NOVECTOR", kv("n", n), kv("lda", lda),
                     kv("batch", batch), dtype_name(dtype));
      return;
    }
    check_cusolver(syevd_buffer(h, jobz, in, static_cast<const T*>(a), ilda, static_cast<const R*>(w), &lwork),
                   is_complex(dtype) ? "cusolverDn<t>heevd_bufferSize" : "cusolverDn<t>syevd_bufferSize",
                   vectors ? "CUSOLVER_EIG_MODE_VECTOR" : "CUSOLVER_EIG_MODE_NOVECTOR", kv("n", n), kv("lda", lda),
                   dtype_name(dtype));
    std::shared_ptr<Memory> work = elements<T>(ctx, lwork);
    for (int64_t i = 0; i < batch; ++i) {
      check_cusolver(syevd_call(h, jobz, in, at<T>(a, stride_a, i), ilda, at<R>(w, n, i), data_of<T>(work), lwork,
                                info + i),
                     is_complex(dtype) ? "cusolverDn<t>heevd" : "cusolverDn<t>syevd",
                     vectors ? "CUSOLVER_EIG_MODE_VECTOR" : "CUSOLVER_EIG_MODE_NOVECTOR", kv("n", n), kv("lda", lda),
                     kv("matrix", i), dtype_name(dtype));
    }
  });
}

// ---- General eigenproblem --------------------------------------------------------------

// Default options: the algorithm LAPACK uses.
using SolverParams = CusolverObject<cusolverDnParams_t, cusolverDnCreateParams, cusolverDnDestroyParams>;

// cusolverDnXgeev (CUDA 12.6+): right eigenvectors only (jobvl must be
// NOVECTOR, which is all the contract needs). Complex input returns complex
// W and VR directly, normalized like LAPACK (unit 2-norm, largest component
// real). Real input is run fully in real arithmetic with real W (wr then wi)
// and real VR in LAPACK's packed pair format, which a small kernel unpacks
// into the contract's complex w and vr; LAPACK's normalization (each
// complex vector of unit 2-norm) carries over unchanged.
void geev(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, void* vr,
          int64_t ldvr, int64_t stride_vr, int32_t* info, int64_t batch, StreamHandle stream) {
  const char* routine = "geev";
  require_linalg_dtype(dtype, routine);
  require_nonnegative(n, "n", routine);
  require_nonnegative(batch, "batch", routine);
  require_leading_dimension(lda, n, "lda", routine);
  if (vectors) require_leading_dimension(ldvr, n, "ldvr", routine);
  if (batch == 0) return;
  CallContext ctx(routine, info, stream);
  if (n == 0) {
    ctx.zero_info(info, batch);
    return;
  }
  const cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int64_t ld_unused = std::max<int64_t>(1, n);
  dispatch(dtype, routine, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = typename Scalar<T>::Real;
    constexpr bool kComplex = Scalar<T>::kComplex;
    const cudaDataType type = Scalar<T>::kType;
    cusolverDnHandle_t h = ctx.solver();
    SolverParams params;
    // Real input: packed outputs in workspace, unpacked per matrix.
    std::shared_ptr<Memory> wr_wi = kComplex ? nullptr : elements<R>(ctx, 2 * n);
    std::shared_ptr<Memory> vreal = (kComplex || !vectors) ? nullptr : elements<R>(ctx, n * n);
    auto w_of = [&](int64_t i) -> void* {
      if constexpr (kComplex) {
        return at<T>(w, n, i);
      } else {
        return wr_wi->data();
      }
    };
    auto vr_of = [&](int64_t i) -> void* {
      if (!vectors) return nullptr;
      if constexpr (kComplex) {
        return at<T>(vr, stride_vr, i);
      } else {
        return vreal->data();
      }
    };
    const int64_t ld_v = !vectors ? ld_unused : (kComplex ? ldvr : n);
    size_t device_bytes = 0, host_bytes = 0;
    check_cusolver(cusolverDnXgeev_bufferSize(h, params.get(), CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type, a, lda,
                                              type, w_of(0), type, nullptr, ld_unused, type, vr_of(0), ld_v, type,
                                              &device_bytes, &host_bytes),
                   "cusolverDnXgeev_bufferSize", vectors ? "jobvr=CUSOLVER_EIG_MODE_VECTOR" : "jobvr=NOVECTOR",
                   kv("n", n), kv("lda", lda), dtype_name(dtype));
    std::shared_ptr<Memory> device_work = ctx.workspace(std::max<size_t>(device_bytes, 1));
    std::vector<char> host_work(host_bytes);
    for (int64_t i = 0; i < batch; ++i) {
      check_cusolver(cusolverDnXgeev(h, params.get(), CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, type, at<T>(a, stride_a, i),
                                     lda, type, w_of(i), type, nullptr, ld_unused, type, vr_of(i), ld_v, type,
                                     device_work->data(), device_bytes, host_bytes ? host_work.data() : nullptr,
                                     host_bytes, info + i),
                     "cusolverDnXgeev", vectors ? "jobvr=CUSOLVER_EIG_MODE_VECTOR" : "jobvr=NOVECTOR", kv("n", n),
                     kv("lda", lda), kv("matrix", i), dtype_name(dtype));
      if (host_bytes != 0) {
        // The host workspace is reused by the next matrix and freed on
        // return; the routine may still be reading it from the stream.
        cuda_detail::check(cudaStreamSynchronize(ctx.stream()), "cudaStreamSynchronize",
                           cuda_detail::HexHandle{ctx.stream_handle()});
      }
      if constexpr (!kComplex) {
        unpack_real_geev(ctx, std::is_same_v<R, double>, n, wr_wi->data(), vectors ? vreal->data() : nullptr,
                         at<T>(w, 2 * n, i), vectors ? at<T>(vr, 2 * stride_vr, i) : nullptr, ldvr);
      }
    }
  });
}

}  // namespace cuda_linalg
}  // namespace kumo
