// Prototypes of the CBLAS and Fortran LAPACK routines the host backend
// calls, from the OpenBLAS of the scipy-openblas32 wheel (CMake's default,
// KUMO_BLAS=wheel) or the system's OpenBLAS (KUMO_BLAS=system). The wheel's
// build prefixes every symbol with `scipy_` while its headers declare the
// unprefixed names, so the headers cannot be used; KUMO_BLAS() applies the
// prefix in one place. CMake passes the prefix as KUMO_BLAS_PREFIX (empty
// for the system's library); a build without CMake gets the wheel's.
//
// Fortran ABI: every argument by pointer, 32-bit integers (the wheel is the
// LP64 "openblas32" build), complex numbers as two consecutive reals (the
// layout of std::complex), and one trailing size_t length per CHARACTER
// argument (gfortran's hidden arguments; passing them keeps the call
// well-defined even for routines that never read them).
#pragma once
#include <complex>
#include <cstddef>

#ifndef KUMO_BLAS_PREFIX
#define KUMO_BLAS_PREFIX scipy_
#endif
// Two levels, so KUMO_BLAS_PREFIX is expanded before it is pasted.
#define KUMO_BLAS_PASTE_(prefix, name) prefix##name
#define KUMO_BLAS_PASTE(prefix, name) KUMO_BLAS_PASTE_(prefix, name)
#define KUMO_BLAS(name) KUMO_BLAS_PASTE(KUMO_BLAS_PREFIX, name)

// cblas_?gemm_batch_strided is an OpenBLAS extension (0.3.27 and later);
// CMake sets this to 0 for an older system OpenBLAS, and the functions are
// then defined below as loops of single gemms.
#ifndef KUMO_BLAS_HAS_GEMM_BATCH_STRIDED
#define KUMO_BLAS_HAS_GEMM_BATCH_STRIDED 1
#endif

namespace kumo {
namespace lapack {

using lapack_int = int;  // blasint of the 32-bit-integer OpenBLAS build
using cfloat = std::complex<float>;
using cdouble = std::complex<double>;

// CBLAS enum values (cblas.h); passed as int, which is how C passes enums.
constexpr int kColMajor = 102;
constexpr int kNoTrans = 111;
constexpr int kTrans = 112;
constexpr int kConjTrans = 113;

}  // namespace lapack
}  // namespace kumo

extern "C" {
using kumo::lapack::cdouble;
using kumo::lapack::cfloat;
using kumo::lapack::lapack_int;

// ---- BLAS ----
void KUMO_BLAS(cblas_sgemm)(int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k, float alpha,
                            const float* a, lapack_int lda, const float* b, lapack_int ldb, float beta, float* c,
                            lapack_int ldc);
void KUMO_BLAS(cblas_dgemm)(int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k, double alpha,
                            const double* a, lapack_int lda, const double* b, lapack_int ldb, double beta,
                            double* c, lapack_int ldc);
void KUMO_BLAS(cblas_cgemm)(int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k, const void* alpha,
                            const void* a, lapack_int lda, const void* b, lapack_int ldb, const void* beta, void* c,
                            lapack_int ldc);
void KUMO_BLAS(cblas_zgemm)(int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k, const void* alpha,
                            const void* a, lapack_int lda, const void* b, lapack_int ldb, const void* beta, void* c,
                            lapack_int ldc);
// OpenBLAS extension: `count` gemms whose operands are stride_* elements apart.
#if KUMO_BLAS_HAS_GEMM_BATCH_STRIDED
void KUMO_BLAS(cblas_sgemm_batch_strided)(int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k,
                                          float alpha, const float* a, lapack_int lda, lapack_int stride_a,
                                          const float* b, lapack_int ldb, lapack_int stride_b, float beta, float* c,
                                          lapack_int ldc, lapack_int stride_c, lapack_int count);
void KUMO_BLAS(cblas_dgemm_batch_strided)(int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k,
                                          double alpha, const double* a, lapack_int lda, lapack_int stride_a,
                                          const double* b, lapack_int ldb, lapack_int stride_b, double beta,
                                          double* c, lapack_int ldc, lapack_int stride_c, lapack_int count);
void KUMO_BLAS(cblas_cgemm_batch_strided)(int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k,
                                          const void* alpha, const void* a, lapack_int lda, lapack_int stride_a,
                                          const void* b, lapack_int ldb, lapack_int stride_b, const void* beta,
                                          void* c, lapack_int ldc, lapack_int stride_c, lapack_int count);
void KUMO_BLAS(cblas_zgemm_batch_strided)(int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k,
                                          const void* alpha, const void* a, lapack_int lda, lapack_int stride_a,
                                          const void* b, lapack_int ldb, lapack_int stride_b, const void* beta,
                                          void* c, lapack_int ldc, lapack_int stride_c, lapack_int count);
#else
// static: private to the one file that calls them, never exported where they
// could stand in for another library's cblas_?gemm_batch_strided.
#define KUMO_GEMM_BATCH_STRIDED_LOOP(p, T, S)                                                                \
  static inline void KUMO_BLAS(cblas_##p##gemm_batch_strided)(                                               \
      int order, int ta, int tb, lapack_int m, lapack_int n, lapack_int k, S alpha, const void* a,           \
      lapack_int lda, lapack_int stride_a, const void* b, lapack_int ldb, lapack_int stride_b, S beta,       \
      void* c, lapack_int ldc, lapack_int stride_c, lapack_int count) {                                      \
    for (lapack_int i = 0; i < count; ++i)                                                                   \
      KUMO_BLAS(cblas_##p##gemm)(order, ta, tb, m, n, k, alpha,                                              \
                                 static_cast<const T*>(a) + static_cast<std::ptrdiff_t>(i) * stride_a, lda,  \
                                 static_cast<const T*>(b) + static_cast<std::ptrdiff_t>(i) * stride_b, ldb,  \
                                 beta, static_cast<T*>(c) + static_cast<std::ptrdiff_t>(i) * stride_c, ldc); \
  }
KUMO_GEMM_BATCH_STRIDED_LOOP(s, float, float)
KUMO_GEMM_BATCH_STRIDED_LOOP(d, double, double)
KUMO_GEMM_BATCH_STRIDED_LOOP(c, cfloat, const void*)
KUMO_GEMM_BATCH_STRIDED_LOOP(z, cdouble, const void*)
#undef KUMO_GEMM_BATCH_STRIDED_LOOP
#endif  // KUMO_BLAS_HAS_GEMM_BATCH_STRIDED

// ---- LU ----
#define KUMO_DECLARE_GETRF(p, T)                                                                           \
  void KUMO_BLAS(p##getrf_)(const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda,         \
                            lapack_int* ipiv, lapack_int* info);                                           \
  void KUMO_BLAS(p##getrs_)(const char* trans, const lapack_int* n, const lapack_int* nrhs, const T* a,    \
                            const lapack_int* lda, const lapack_int* ipiv, T* b, const lapack_int* ldb,    \
                            lapack_int* info, size_t trans_len);                                           \
  void KUMO_BLAS(p##potrf_)(const char* uplo, const lapack_int* n, T* a, const lapack_int* lda,            \
                            lapack_int* info, size_t uplo_len);                                            \
  void KUMO_BLAS(p##geqrf_)(const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda, T* tau, \
                            T* work, const lapack_int* lwork, lapack_int* info);
KUMO_DECLARE_GETRF(s, float)
KUMO_DECLARE_GETRF(d, double)
KUMO_DECLARE_GETRF(c, cfloat)
KUMO_DECLARE_GETRF(z, cdouble)
#undef KUMO_DECLARE_GETRF

// ---- Q of a QR ----
void KUMO_BLAS(sorgqr_)(const lapack_int* m, const lapack_int* n, const lapack_int* k, float* a,
                        const lapack_int* lda, const float* tau, float* work, const lapack_int* lwork,
                        lapack_int* info);
void KUMO_BLAS(dorgqr_)(const lapack_int* m, const lapack_int* n, const lapack_int* k, double* a,
                        const lapack_int* lda, const double* tau, double* work, const lapack_int* lwork,
                        lapack_int* info);
void KUMO_BLAS(cungqr_)(const lapack_int* m, const lapack_int* n, const lapack_int* k, cfloat* a,
                        const lapack_int* lda, const cfloat* tau, cfloat* work, const lapack_int* lwork,
                        lapack_int* info);
void KUMO_BLAS(zungqr_)(const lapack_int* m, const lapack_int* n, const lapack_int* k, cdouble* a,
                        const lapack_int* lda, const cdouble* tau, cdouble* work, const lapack_int* lwork,
                        lapack_int* info);

// ---- SVD (divide and conquer) ----
void KUMO_BLAS(sgesdd_)(const char* jobz, const lapack_int* m, const lapack_int* n, float* a, const lapack_int* lda,
                        float* s, float* u, const lapack_int* ldu, float* vt, const lapack_int* ldvt, float* work,
                        const lapack_int* lwork, lapack_int* iwork, lapack_int* info, size_t jobz_len);
void KUMO_BLAS(dgesdd_)(const char* jobz, const lapack_int* m, const lapack_int* n, double* a,
                        const lapack_int* lda, double* s, double* u, const lapack_int* ldu, double* vt,
                        const lapack_int* ldvt, double* work, const lapack_int* lwork, lapack_int* iwork,
                        lapack_int* info, size_t jobz_len);
void KUMO_BLAS(cgesdd_)(const char* jobz, const lapack_int* m, const lapack_int* n, cfloat* a,
                        const lapack_int* lda, float* s, cfloat* u, const lapack_int* ldu, cfloat* vt,
                        const lapack_int* ldvt, cfloat* work, const lapack_int* lwork, float* rwork,
                        lapack_int* iwork, lapack_int* info, size_t jobz_len);
void KUMO_BLAS(zgesdd_)(const char* jobz, const lapack_int* m, const lapack_int* n, cdouble* a,
                        const lapack_int* lda, double* s, cdouble* u, const lapack_int* ldu, cdouble* vt,
                        const lapack_int* ldvt, cdouble* work, const lapack_int* lwork, double* rwork,
                        lapack_int* iwork, lapack_int* info, size_t jobz_len);

// ---- Hermitian eigenproblem (divide and conquer) ----
void KUMO_BLAS(ssyevd_)(const char* jobz, const char* uplo, const lapack_int* n, float* a, const lapack_int* lda,
                        float* w, float* work, const lapack_int* lwork, lapack_int* iwork, const lapack_int* liwork,
                        lapack_int* info, size_t jobz_len, size_t uplo_len);
void KUMO_BLAS(dsyevd_)(const char* jobz, const char* uplo, const lapack_int* n, double* a,
                        const lapack_int* lda, double* w, double* work, const lapack_int* lwork, lapack_int* iwork,
                        const lapack_int* liwork, lapack_int* info, size_t jobz_len, size_t uplo_len);
void KUMO_BLAS(cheevd_)(const char* jobz, const char* uplo, const lapack_int* n, cfloat* a,
                        const lapack_int* lda, float* w, cfloat* work, const lapack_int* lwork, float* rwork,
                        const lapack_int* lrwork, lapack_int* iwork, const lapack_int* liwork, lapack_int* info,
                        size_t jobz_len, size_t uplo_len);
void KUMO_BLAS(zheevd_)(const char* jobz, const char* uplo, const lapack_int* n, cdouble* a,
                        const lapack_int* lda, double* w, cdouble* work, const lapack_int* lwork, double* rwork,
                        const lapack_int* lrwork, lapack_int* iwork, const lapack_int* liwork, lapack_int* info,
                        size_t jobz_len, size_t uplo_len);

// ---- General eigenproblem ----
void KUMO_BLAS(sgeev_)(const char* jobvl, const char* jobvr, const lapack_int* n, float* a, const lapack_int* lda,
                       float* wr, float* wi, float* vl, const lapack_int* ldvl, float* vr, const lapack_int* ldvr,
                       float* work, const lapack_int* lwork, lapack_int* info, size_t jobvl_len,
                       size_t jobvr_len);
void KUMO_BLAS(dgeev_)(const char* jobvl, const char* jobvr, const lapack_int* n, double* a, const lapack_int* lda,
                       double* wr, double* wi, double* vl, const lapack_int* ldvl, double* vr,
                       const lapack_int* ldvr, double* work, const lapack_int* lwork, lapack_int* info,
                       size_t jobvl_len, size_t jobvr_len);
void KUMO_BLAS(cgeev_)(const char* jobvl, const char* jobvr, const lapack_int* n, cfloat* a, const lapack_int* lda,
                       cfloat* w, cfloat* vl, const lapack_int* ldvl, cfloat* vr, const lapack_int* ldvr,
                       cfloat* work, const lapack_int* lwork, float* rwork, lapack_int* info, size_t jobvl_len,
                       size_t jobvr_len);
void KUMO_BLAS(zgeev_)(const char* jobvl, const char* jobvr, const lapack_int* n, cdouble* a,
                       const lapack_int* lda, cdouble* w, cdouble* vl, const lapack_int* ldvl, cdouble* vr,
                       const lapack_int* ldvr, cdouble* work, const lapack_int* lwork, double* rwork,
                       lapack_int* info, size_t jobvl_len, size_t jobvr_len);
}  // extern "C"
