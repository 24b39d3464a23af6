// The host LinalgBackend over OpenBLAS/LAPACK (scipy-openblas32).
//
// One template per routine, instantiated for the four dtypes through the
// per-dtype table Lapack<T>, which only adapts the BLAS/LAPACK entry points
// to a uniform signature (real routines ignore the complex-only rwork).
//
// Threading: a large matrix is left to OpenBLAS's own threads. A batch of
// small matrices is split over kumo's host thread pool instead, one LAPACK
// call per matrix with a private workspace per chunk: OpenBLAS runs such
// small problems on one thread anyway, so this is where the parallelism is.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/backend_registry.h"
#include "core/dtype_visit.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "linalg/host/lapack_api.h"
#include "linalg/linalg_backend.h"

namespace kumo {
namespace {

using lapack::cdouble;
using lapack::cfloat;
using lapack::lapack_int;

// ---- the per-dtype table ---------------------------------------------------

template <typename T>
struct Lapack;

// The routines whose LAPACK signatures are the same for real and complex dtypes.
#define KUMO_LAPACK_SHARED_ROUTINES(T, p)                                                                        \
    static void getrf(const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda, lapack_int* ipiv,   \
                      lapack_int* info) {                                                                        \
      KUMO_BLAS(p##getrf_)(m, n, a, lda, ipiv, info);                                                            \
    }                                                                                                            \
    static void getrs(const char* trans, const lapack_int* n, const lapack_int* nrhs, const T* a,                \
                      const lapack_int* lda, const lapack_int* ipiv, T* b, const lapack_int* ldb,                \
                      lapack_int* info) {                                                                        \
      KUMO_BLAS(p##getrs_)(trans, n, nrhs, a, lda, ipiv, b, ldb, info, 1);                                       \
    }                                                                                                            \
    static void potrf(const char* uplo, const lapack_int* n, T* a, const lapack_int* lda, lapack_int* info) {    \
      KUMO_BLAS(p##potrf_)(uplo, n, a, lda, info, 1);                                                            \
    }                                                                                                            \
    static void geqrf(const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda, T* tau, T* work,    \
                      const lapack_int* lwork, lapack_int* info) {                                               \
      KUMO_BLAS(p##geqrf_)(m, n, a, lda, tau, work, lwork, info);                                                \
    }

// Real dtypes: prefix s/d.
#define KUMO_REAL_TABLE(T, p)                                                                                    \
  template <>                                                                                                    \
  struct Lapack<T> {                                                                                             \
    using Real = T;                                                                                              \
    using Complex = std::complex<T>;                                                                             \
    static constexpr bool kIsComplex = false;                                                                    \
    static constexpr char kPrefix = #p[0];                                                                       \
    static void gemm(int ta, int tb, lapack_int m, lapack_int n, lapack_int k, const T* alpha, const T* a,       \
                     lapack_int lda, const T* b, lapack_int ldb, const T* beta, T* c, lapack_int ldc) {          \
      KUMO_BLAS(cblas_##p##gemm)(lapack::kColMajor, ta, tb, m, n, k, *alpha, a, lda, b, ldb, *beta, c, ldc);     \
    }                                                                                                            \
    static void gemm_batch_strided(int ta, int tb, lapack_int m, lapack_int n, lapack_int k, const T* alpha,     \
                                   const T* a, lapack_int lda, lapack_int sa, const T* b, lapack_int ldb,        \
                                   lapack_int sb, const T* beta, T* c, lapack_int ldc, lapack_int sc,            \
                                   lapack_int count) {                                                           \
      KUMO_BLAS(cblas_##p##gemm_batch_strided)(lapack::kColMajor, ta, tb, m, n, k, *alpha, a, lda, sa, b, ldb,  \
                                               sb, *beta, c, ldc, sc, count);                                    \
    }                                                                                                            \
    KUMO_LAPACK_SHARED_ROUTINES(T, p)                                                                            \
    static void orgqr(const lapack_int* m, const lapack_int* n, const lapack_int* k, T* a, const lapack_int* lda, \
                      const T* tau, T* work, const lapack_int* lwork, lapack_int* info) {                        \
      KUMO_BLAS(p##orgqr_)(m, n, k, a, lda, tau, work, lwork, info);                                             \
    }                                                                                                            \
    static void gesdd(const char* jobz, const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda,   \
                      T* s, T* u, const lapack_int* ldu, T* vt, const lapack_int* ldvt, T* work,                 \
                      const lapack_int* lwork, T* /*rwork*/, lapack_int* iwork, lapack_int* info) {              \
      KUMO_BLAS(p##gesdd_)(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork, info, 1);                \
    }                                                                                                            \
    static void syevd(const char* jobz, const char* uplo, const lapack_int* n, T* a, const lapack_int* lda,      \
                      T* w, T* work, const lapack_int* lwork, T* /*rwork*/, const lapack_int* /*lrwork*/,        \
                      lapack_int* iwork, const lapack_int* liwork, lapack_int* info) {                           \
      KUMO_BLAS(p##syevd_)(jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork, info, 1, 1);                    \
    }                                                                                                            \
    static void geev(const char* jobvr, const lapack_int* n, T* a, const lapack_int* lda, T* wr, T* wi, T* vr,   \
                     const lapack_int* ldvr, T* work, const lapack_int* lwork, lapack_int* info) {               \
      const char no = 'N';                                                                                       \
      const lapack_int one = 1;                                                                                  \
      KUMO_BLAS(p##geev_)(&no, jobvr, n, a, lda, wr, wi, nullptr, &one, vr, ldvr, work, lwork, info, 1, 1);      \
    }                                                                                                            \
  };

// Complex dtypes: prefix c/z; orgqr is ungqr, syevd is heevd.
#define KUMO_COMPLEX_TABLE(R, p)                                                                                 \
  template <>                                                                                                    \
  struct Lapack<std::complex<R>> {                                                                               \
    using T = std::complex<R>;                                                                                   \
    using Real = R;                                                                                              \
    using Complex = T;                                                                                           \
    static constexpr bool kIsComplex = true;                                                                     \
    static constexpr char kPrefix = #p[0];                                                                       \
    static void gemm(int ta, int tb, lapack_int m, lapack_int n, lapack_int k, const T* alpha, const T* a,       \
                     lapack_int lda, const T* b, lapack_int ldb, const T* beta, T* c, lapack_int ldc) {          \
      KUMO_BLAS(cblas_##p##gemm)(lapack::kColMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);       \
    }                                                                                                            \
    static void gemm_batch_strided(int ta, int tb, lapack_int m, lapack_int n, lapack_int k, const T* alpha,     \
                                   const T* a, lapack_int lda, lapack_int sa, const T* b, lapack_int ldb,        \
                                   lapack_int sb, const T* beta, T* c, lapack_int ldc, lapack_int sc,            \
                                   lapack_int count) {                                                           \
      KUMO_BLAS(cblas_##p##gemm_batch_strided)(lapack::kColMajor, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb,   \
                                               sb, beta, c, ldc, sc, count);                                     \
    }                                                                                                            \
    KUMO_LAPACK_SHARED_ROUTINES(T, p)                                                                            \
    static void orgqr(const lapack_int* m, const lapack_int* n, const lapack_int* k, T* a, const lapack_int* lda, \
                      const T* tau, T* work, const lapack_int* lwork, lapack_int* info) {                        \
      KUMO_BLAS(p##ungqr_)(m, n, k, a, lda, tau, work, lwork, info);                                             \
    }                                                                                                            \
    static void gesdd(const char* jobz, const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda,   \
                      R* s, T* u, const lapack_int* ldu, T* vt, const lapack_int* ldvt, T* work,                 \
                      const lapack_int* lwork, R* rwork, lapack_int* iwork, lapack_int* info) {                  \
      KUMO_BLAS(p##gesdd_)(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork, info, 1);         \
    }                                                                                                            \
    static void syevd(const char* jobz, const char* uplo, const lapack_int* n, T* a, const lapack_int* lda,      \
                      R* w, T* work, const lapack_int* lwork, R* rwork, const lapack_int* lrwork,                \
                      lapack_int* iwork, const lapack_int* liwork, lapack_int* info) {                           \
      KUMO_BLAS(p##heevd_)(jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork, info, 1, 1);     \
    }                                                                                                            \
    static void geev(const char* jobvr, const lapack_int* n, T* a, const lapack_int* lda, T* w, T* vr,           \
                     const lapack_int* ldvr, T* work, const lapack_int* lwork, R* rwork, lapack_int* info) {     \
      const char no = 'N';                                                                                       \
      const lapack_int one = 1;                                                                                  \
      KUMO_BLAS(p##geev_)(&no, jobvr, n, a, lda, w, nullptr, &one, vr, ldvr, work, lwork, rwork, info, 1, 1);    \
    }                                                                                                            \
  };

// The unprefixed routine names are spelled out because the ungqr/heevd
// names differ from their real counterparts.
KUMO_REAL_TABLE(float, s)
KUMO_REAL_TABLE(double, d)
KUMO_COMPLEX_TABLE(float, c)
KUMO_COMPLEX_TABLE(double, z)
#undef KUMO_REAL_TABLE
#undef KUMO_COMPLEX_TABLE

// Calls fn(TypeTag<T>{}) with the element type of `dtype`.
template <typename Fn>
void dispatch(Dtype dtype, const char* routine, Fn&& fn) {
  visit_inexact_dtype(dtype, fn, [&] {
    throw TypeError(std::string("linalg ") + routine + ": unsupported dtype " + dtype_name(dtype) +
                    " (expected float32, float64, complex64 or complex128)");
  });
}

template <typename T>
std::string routine_name(const char* base) {
  return std::string(1, Lapack<T>::kPrefix) + base;
}

// ---- argument checks -------------------------------------------------------

// The OpenBLAS build takes 32-bit integers; larger extents cannot be passed.
lapack_int to_lapack_int(int64_t v, const std::string& routine, const char* what) {
  if (v < 0) throw ValueError(routine + ": " + what + " must be >= 0, got " + std::to_string(v));
  if (v > std::numeric_limits<lapack_int>::max())
    throw ValueError(routine + ": " + what + " = " + std::to_string(v) +
                     " exceeds the 32-bit integer range of the host LAPACK");
  return static_cast<lapack_int>(v);
}

void check_nonnegative(int64_t v, const std::string& routine, const char* what) {
  if (v < 0) throw ValueError(routine + ": " + what + " must be >= 0, got " + std::to_string(v));
}

lapack_int check_ld(int64_t ld, int64_t rows, const std::string& routine, const char* what) {
  if (ld < std::max<int64_t>(1, rows))
    throw ValueError(routine + ": " + what + " = " + std::to_string(ld) + " must be >= max(1, " +
                     std::to_string(rows) + ")");
  return to_lapack_int(ld, routine, what);
}

// LAPACK reports argument i as info = -i; `names` lists the arguments in order.
void check_lapack_info(lapack_int info, const std::string& routine, std::initializer_list<const char*> names) {
  if (info >= 0) return;
  int idx = -info;
  std::string arg = "#" + std::to_string(idx);
  if (idx >= 1 && idx <= static_cast<int>(names.size())) arg = *(names.begin() + (idx - 1));
  throw ValueError(routine + ": argument " + std::to_string(idx) + " (" + arg + ") had an illegal value");
}

// A workspace size from a LAPACK query. Sizes come back as floating values
// of the dtype; rounding up guards against float32 sizes just below the
// integer LAPACK meant.
template <typename T>
lapack_int workspace_size(T queried, lapack_int minimum = 1) {
  double v = static_cast<double>(std::real(queried));
  if (std::is_same_v<typename Lapack<T>::Real, float> && v > (1 << 24)) v *= 1.0 + 1e-6;
  double capped = std::min<double>(std::ceil(v), std::numeric_limits<lapack_int>::max());
  return std::max<lapack_int>(minimum, static_cast<lapack_int>(capped));
}

template <typename T>
T* at(void* base, int64_t stride, int64_t i) {
  return static_cast<T*>(base) + stride * i;
}
template <typename T>
const T* at(const void* base, int64_t stride, int64_t i) {
  return static_cast<const T*>(base) + stride * i;
}

void zero_info(int32_t* info, int64_t batch) {
  if (batch > 0) std::memset(info, 0, sizeof(int32_t) * static_cast<size_t>(batch));
}

// Runs body(begin, end) over the batch: on the caller when a matrix is big
// enough for OpenBLAS to thread it (or there is one matrix), else split over
// the host pool. `cost` estimates the flops of one matrix.
template <typename Body>
void over_batch(int64_t batch, double cost, Body&& body) {
  // Below this size OpenBLAS runs LAPACK single-threaded, so two batch
  // entries at once cannot oversubscribe the cores.
  constexpr double kSmallMatrixCost = 64.0 * 64.0 * 64.0;
  if (batch <= 1 || cost > kSmallMatrixCost) {
    body(0, batch);
    return;
  }
  // Chunks of at least ~256k flops (a LAPACK call's own overhead counted as
  // ~1k) keep the pool's hand-off, which on a loaded machine can take as
  // long as a millisecond, small next to the work.
  int64_t grain = std::max<int64_t>(1, static_cast<int64_t>(262144.0 / (cost + 1024.0)));
  parallel_for(batch, grain, [&](int64_t b, int64_t e) { body(b, e); });
}

int blas_trans(Transpose t) {
  switch (t) {
    case Transpose::kNo: return lapack::kNoTrans;
    case Transpose::kTrans: return lapack::kTrans;
    case Transpose::kConjTrans: return lapack::kConjTrans;
  }
  throw ValueError("gemm: invalid Transpose value");
}

char lapack_trans(Transpose t) {
  switch (t) {
    case Transpose::kNo: return 'N';
    case Transpose::kTrans: return 'T';
    case Transpose::kConjTrans: return 'C';
  }
  throw ValueError("getrs: invalid Transpose value");
}

bool fits_int32(int64_t v) { return v >= 0 && v <= std::numeric_limits<lapack_int>::max(); }

// ---- gemm ------------------------------------------------------------------

template <typename T>
void gemm_impl(Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k, const void* alpha_p,
               const void* a, int64_t lda, int64_t stride_a, const void* b, int64_t ldb, int64_t stride_b,
               const void* beta_p, void* c, int64_t ldc, int64_t stride_c, int64_t batch) {
  using L = Lapack<T>;
  const std::string name = routine_name<T>("gemm");
  lapack_int im = to_lapack_int(m, name, "m"), in = to_lapack_int(n, name, "n"), ik = to_lapack_int(k, name, "k");
  check_nonnegative(batch, name, "batch");
  lapack_int ilda = check_ld(lda, trans_a == Transpose::kNo ? m : k, name, "lda");
  lapack_int ildb = check_ld(ldb, trans_b == Transpose::kNo ? k : n, name, "ldb");
  lapack_int ildc = check_ld(ldc, m, name, "ldc");
  if (m == 0 || n == 0 || batch == 0) return;
  const T alpha = *static_cast<const T*>(alpha_p);
  const T beta = *static_cast<const T*>(beta_p);
  int ta = blas_trans(trans_a), tb = blas_trans(trans_b);

  if (k == 0) {
    // C = beta * C; beta == 0 must not read C (it may hold NaN garbage).
    for (int64_t i = 0; i < batch; ++i) {
      T* ci = at<T>(c, stride_c, i);
      for (int64_t j = 0; j < n; ++j)
        for (int64_t r = 0; r < m; ++r) ci[j * ldc + r] = beta == T(0) ? T(0) : beta * ci[j * ldc + r];
    }
    return;
  }
  if (batch == 1) {
    L::gemm(ta, tb, im, in, ik, &alpha, static_cast<const T*>(a), ilda, static_cast<const T*>(b), ildb, &beta,
            static_cast<T*>(c), ildc);
    return;
  }
  const double cost = static_cast<double>(m) * n * k;
  // Measured on the 2-core dev machine (shared, so often loaded):
  // - up to ~16^3 flops per product (10000 x 8x8) a plain loop of gemm calls
  //   is fastest: 1.3 ms, vs 1.3-2.7 ms split over the host pool (waking a
  //   worker on a busy machine costs as much as the whole batch) and
  //   3-30 ms for OpenBLAS's batch_strided (threading set-up per entry);
  // - up to ~40^3 the pool wins (1000 x 32x32: 2.7 ms vs 4.8 ms serial);
  // - above, batch_strided wins for real dtypes (4 x 512^2 float32:
  //   16 ms vs 24-96 ms for a loop of threaded gemms);
  // - but up to 64^3 (262144 = m*n*k, OpenBLAS's own threshold for running
  //   one gemm on one thread) the pool wins on two threads too: a 3x3
  //   convolution's 64 per-sample products of 32x784x9 (its weight gradient
  //   through im2col) took 3.5 ms in batch_strided against 1.2 ms for the
  //   same loop on one thread, so batch_strided starts above that.
  constexpr double kTinyGemmCost = 16.0 * 16.0 * 16.0;
  constexpr double kSmallGemmCost = 64.0 * 64.0 * 64.0;
  // OpenBLAS 0.3.34's c/zgemm_batch_strided returns wrong products for some
  // entries of a batch (seen with 48x48 complex128), so complex batches
  // always loop over single gemms.
  if (!L::kIsComplex && cost > kSmallGemmCost && fits_int32(stride_a) && fits_int32(stride_b) &&
      fits_int32(stride_c) && fits_int32(batch)) {
    L::gemm_batch_strided(ta, tb, im, in, ik, &alpha, static_cast<const T*>(a), ilda,
                          static_cast<lapack_int>(stride_a), static_cast<const T*>(b), ildb,
                          static_cast<lapack_int>(stride_b), &beta, static_cast<T*>(c), ildc,
                          static_cast<lapack_int>(stride_c), static_cast<lapack_int>(batch));
    return;
  }
  auto body = [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      L::gemm(ta, tb, im, in, ik, &alpha, at<T>(a, stride_a, i), ilda, at<T>(b, stride_b, i), ildb, &beta,
              at<T>(c, stride_c, i), ildc);
  };
  if (cost > kSmallGemmCost || cost <= kTinyGemmCost) {
    body(0, batch);
  } else {
    int64_t grain = std::max<int64_t>(1, static_cast<int64_t>(32768.0 / std::max(cost, 1.0)));
    parallel_for(batch, grain, body);
  }
}

// ---- LU ----------------------------------------------------------------------

template <typename T>
void getrf_impl(int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* ipiv, int32_t* info, int64_t batch) {
  using L = Lapack<T>;
  const std::string name = routine_name<T>("getrf");
  const lapack_int in = to_lapack_int(n, name, "n");
  check_nonnegative(batch, name, "batch");
  const lapack_int ilda = check_ld(lda, n, name, "lda");
  if (batch == 0) return;
  zero_info(info, batch);
  if (n == 0) return;
  over_batch(batch, static_cast<double>(n) * n * n, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      lapack_int inf = 0;
      L::getrf(&in, &in, at<T>(a, stride_a, i), &ilda, ipiv + i * n, &inf);
      check_lapack_info(inf, name, {"M", "N", "A", "LDA", "IPIV", "INFO"});
      info[i] = inf;
    }
  });
}

template <typename T>
void getrs_impl(Transpose trans, int64_t n, int64_t nrhs, const void* lu, int64_t lda, int64_t stride_a,
                const int32_t* ipiv, void* b, int64_t ldb, int64_t stride_b, int64_t batch) {
  using L = Lapack<T>;
  const std::string name = routine_name<T>("getrs");
  const char t = lapack_trans(trans);
  const lapack_int in = to_lapack_int(n, name, "n"), inrhs = to_lapack_int(nrhs, name, "nrhs");
  check_nonnegative(batch, name, "batch");
  const lapack_int ilda = check_ld(lda, n, name, "lda"), ildb = check_ld(ldb, n, name, "ldb");
  if (batch == 0 || n == 0 || nrhs == 0) return;
  over_batch(batch, static_cast<double>(n) * n * nrhs, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      lapack_int inf = 0;
      L::getrs(&t, &in, &inrhs, at<T>(lu, stride_a, i), &ilda, ipiv + i * n, at<T>(b, stride_b, i), &ildb, &inf);
      check_lapack_info(inf, name, {"TRANS", "N", "NRHS", "A", "LDA", "IPIV", "B", "LDB", "INFO"});
    }
  });
}

// ---- Cholesky ----------------------------------------------------------------

template <typename T>
void potrf_impl(int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* info, int64_t batch) {
  using L = Lapack<T>;
  const std::string name = routine_name<T>("potrf");
  const lapack_int in = to_lapack_int(n, name, "n");
  check_nonnegative(batch, name, "batch");
  const lapack_int ilda = check_ld(lda, n, name, "lda");
  if (batch == 0) return;
  zero_info(info, batch);
  if (n == 0) return;
  const char uplo = 'L';
  over_batch(batch, static_cast<double>(n) * n * n / 3, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      lapack_int inf = 0;
      L::potrf(&uplo, &in, at<T>(a, stride_a, i), &ilda, &inf);
      check_lapack_info(inf, name, {"UPLO", "N", "A", "LDA", "INFO"});
      info[i] = inf;
    }
  });
}

// ---- QR ----------------------------------------------------------------------

template <typename T>
void geqrf_impl(int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* tau, int32_t* info,
                int64_t batch) {
  using L = Lapack<T>;
  const std::string name = routine_name<T>("geqrf");
  const lapack_int im = to_lapack_int(m, name, "m"), in = to_lapack_int(n, name, "n");
  check_nonnegative(batch, name, "batch");
  const lapack_int ilda = check_ld(lda, m, name, "lda");
  if (batch == 0) return;
  zero_info(info, batch);
  const int64_t mn = std::min(m, n);
  if (mn == 0) return;
  const std::initializer_list<const char*> args = {"M", "N", "A", "LDA", "TAU", "WORK", "LWORK", "INFO"};
  T query{};
  lapack_int lwork = -1, inf = 0;
  L::geqrf(&im, &in, static_cast<T*>(a), &ilda, static_cast<T*>(tau), &query, &lwork, &inf);
  check_lapack_info(inf, name, args);
  lwork = workspace_size(query, std::max<lapack_int>(1, in));
  over_batch(batch, 2.0 * m * n * mn, [&](int64_t lo, int64_t hi) {
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t i = lo; i < hi; ++i) {
      lapack_int inf_i = 0;
      L::geqrf(&im, &in, at<T>(a, stride_a, i), &ilda, at<T>(tau, mn, i), work.data(), &lwork, &inf_i);
      check_lapack_info(inf_i, name, args);
      info[i] = inf_i;
    }
  });
}

template <typename T>
void orgqr_impl(int64_t m, int64_t n, int64_t k, void* a, int64_t lda, int64_t stride_a, const void* tau,
                int64_t tau_stride, int32_t* info, int64_t batch) {
  using L = Lapack<T>;
  const std::string name = routine_name<T>(L::kIsComplex ? "ungqr" : "orgqr");
  const lapack_int im = to_lapack_int(m, name, "m"), in = to_lapack_int(n, name, "n"),
                   ik = to_lapack_int(k, name, "k");
  check_nonnegative(batch, name, "batch");
  check_nonnegative(tau_stride, name, "tau_stride");
  if (n > m) throw ValueError(name + ": n = " + std::to_string(n) + " must be <= m = " + std::to_string(m));
  if (k > n) throw ValueError(name + ": k = " + std::to_string(k) + " must be <= n = " + std::to_string(n));
  if (tau_stride < k && batch > 1)
    throw ValueError(name + ": tau_stride = " + std::to_string(tau_stride) + " must be >= k = " + std::to_string(k));
  const lapack_int ilda = check_ld(lda, m, name, "lda");
  if (batch == 0) return;
  zero_info(info, batch);
  if (n == 0) return;
  const std::initializer_list<const char*> args = {"M", "N", "K", "A", "LDA", "TAU", "WORK", "LWORK", "INFO"};
  T query{};
  lapack_int lwork = -1, inf = 0;
  L::orgqr(&im, &in, &ik, static_cast<T*>(a), &ilda, static_cast<const T*>(tau), &query, &lwork, &inf);
  check_lapack_info(inf, name, args);
  lwork = workspace_size(query, std::max<lapack_int>(1, in));
  over_batch(batch, 4.0 * m * n * k, [&](int64_t lo, int64_t hi) {
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t i = lo; i < hi; ++i) {
      lapack_int inf_i = 0;
      L::orgqr(&im, &in, &ik, at<T>(a, stride_a, i), &ilda, at<T>(tau, tau_stride, i), work.data(), &lwork,
               &inf_i);
      check_lapack_info(inf_i, name, args);
      info[i] = inf_i;
    }
  });
}

// ---- SVD ---------------------------------------------------------------------

template <typename T>
void gesvd_impl(char job, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* s, void* u,
                int64_t ldu, int64_t stride_u, void* vt, int64_t ldvt, int64_t stride_vt, int32_t* info,
                int64_t batch) {
  using L = Lapack<T>;
  using R = typename L::Real;
  const std::string name = routine_name<T>("gesdd");
  if (job != 'N' && job != 'S' && job != 'A')
    throw ValueError(name + ": job must be 'N', 'S' or 'A', got '" + std::string(1, job) + "'");
  const lapack_int im = to_lapack_int(m, name, "m"), in = to_lapack_int(n, name, "n");
  check_nonnegative(batch, name, "batch");
  const lapack_int ilda = check_ld(lda, m, name, "lda");
  const int64_t mn = std::min(m, n), mx = std::max(m, n);
  lapack_int ildu = 1, ildvt = 1;
  if (job != 'N') {
    ildu = check_ld(ldu, m, name, "ldu");
    ildvt = check_ld(ldvt, job == 'A' ? n : mn, name, "ldvt");
  }
  if (batch == 0) return;
  zero_info(info, batch);
  if (mn == 0) return;
  const std::initializer_list<const char*> args = {"JOBZ", "M",    "N",     "A",     "LDA",   "S",
                                                   "U",    "LDU",  "VT",    "LDVT",  "WORK",  "LWORK",
                                                   L::kIsComplex ? "RWORK" : "IWORK", L::kIsComplex ? "IWORK" : "INFO",
                                                   "INFO"};
  // Sizes of LAPACK's documentation (3.7+); rwork exists for complex only.
  const size_t liwork = static_cast<size_t>(8 * mn);
  size_t lrwork = 1;
  if (L::kIsComplex)
    lrwork = job == 'N' ? static_cast<size_t>(7 * mn)
                        : static_cast<size_t>(mn * std::max(5 * mn + 7, 2 * mx + 2 * mn + 1));
  T query{};
  lapack_int lwork = -1, inf = 0;
  {
    // A query reads neither rwork nor iwork, which can be large.
    lapack_int iwork_dummy = 0;
    R rwork_dummy{};
    T dummy_u{}, dummy_vt{};
    L::gesdd(&job, &im, &in, static_cast<T*>(a), &ilda, static_cast<R*>(s), job == 'N' ? &dummy_u : static_cast<T*>(u),
             &ildu, job == 'N' ? &dummy_vt : static_cast<T*>(vt), &ildvt, &query, &lwork, &rwork_dummy, &iwork_dummy,
             &inf);
    check_lapack_info(inf, name, args);
  }
  lwork = workspace_size(query);
  over_batch(batch, 4.0 * mx * mn * mn, [&](int64_t lo, int64_t hi) {
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<lapack_int> iwork(liwork);
    std::vector<R> rwork(L::kIsComplex ? lrwork : 1);
    T dummy_u{}, dummy_vt{};
    for (int64_t i = lo; i < hi; ++i) {
      lapack_int inf_i = 0;
      T* ui = job == 'N' ? &dummy_u : at<T>(u, stride_u, i);
      T* vti = job == 'N' ? &dummy_vt : at<T>(vt, stride_vt, i);
      L::gesdd(&job, &im, &in, at<T>(a, stride_a, i), &ilda, at<R>(s, mn, i), ui, &ildu, vti, &ildvt, work.data(),
               &lwork, rwork.data(), iwork.data(), &inf_i);
      check_lapack_info(inf_i, name, args);
      info[i] = inf_i;
    }
  });
}

// ---- Hermitian eigenproblem --------------------------------------------------

template <typename T>
void syevd_impl(bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, int32_t* info,
                int64_t batch) {
  using L = Lapack<T>;
  using R = typename L::Real;
  const std::string name = routine_name<T>(L::kIsComplex ? "heevd" : "syevd");
  const lapack_int in = to_lapack_int(n, name, "n");
  check_nonnegative(batch, name, "batch");
  const lapack_int ilda = check_ld(lda, n, name, "lda");
  if (batch == 0) return;
  zero_info(info, batch);
  if (n == 0) return;
  const char jobz = vectors ? 'V' : 'N', uplo = 'L';
  const std::initializer_list<const char*> args =
      L::kIsComplex ? std::initializer_list<const char*>{"JOBZ", "UPLO", "N", "A", "LDA", "W", "WORK", "LWORK",
                                                         "RWORK", "LRWORK", "IWORK", "LIWORK", "INFO"}
                    : std::initializer_list<const char*>{"JOBZ", "UPLO", "N", "A", "LDA", "W", "WORK", "LWORK",
                                                         "IWORK", "LIWORK", "INFO"};
  T query{};
  R rquery{};
  lapack_int iquery = 0, lwork = -1, lrwork = -1, liwork = -1, inf = 0;
  L::syevd(&jobz, &uplo, &in, static_cast<T*>(a), &ilda, static_cast<R*>(w), &query, &lwork, &rquery, &lrwork,
           &iquery, &liwork, &inf);
  check_lapack_info(inf, name, args);
  lwork = workspace_size(query);
  lrwork = L::kIsComplex ? workspace_size(rquery) : 1;
  liwork = std::max<lapack_int>(1, iquery);
  over_batch(batch, 4.0 * n * n * n, [&](int64_t lo, int64_t hi) {
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<R> rwork(static_cast<size_t>(lrwork));
    std::vector<lapack_int> iwork(static_cast<size_t>(liwork));
    for (int64_t i = lo; i < hi; ++i) {
      lapack_int inf_i = 0;
      L::syevd(&jobz, &uplo, &in, at<T>(a, stride_a, i), &ilda, at<R>(w, n, i), work.data(), &lwork, rwork.data(),
               &lrwork, iwork.data(), &liwork, &inf_i);
      check_lapack_info(inf_i, name, args);
      info[i] = inf_i;
    }
  });
}

// ---- General eigenproblem ----------------------------------------------------

template <typename T>
void geev_impl(bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, void* vr, int64_t ldvr,
               int64_t stride_vr, int32_t* info, int64_t batch) {
  using L = Lapack<T>;
  using R = typename L::Real;
  using C = typename L::Complex;
  const std::string name = routine_name<T>("geev");
  const lapack_int in = to_lapack_int(n, name, "n");
  check_nonnegative(batch, name, "batch");
  const lapack_int ilda = check_ld(lda, n, name, "lda");
  lapack_int ildvr = 1;
  if (vectors) ildvr = check_ld(ldvr, n, name, "ldvr");
  if (batch == 0) return;
  zero_info(info, batch);
  if (n == 0) return;
  const char jobvr = vectors ? 'V' : 'N';
  const double cost = 10.0 * n * n * n;

  if constexpr (L::kIsComplex) {
    const std::initializer_list<const char*> args = {"JOBVL", "JOBVR", "N",    "A",     "LDA",   "W",    "VL",
                                                     "LDVL",  "VR",    "LDVR", "WORK",  "LWORK", "RWORK", "INFO"};
    T query{};
    lapack_int lwork = -1, inf = 0;
    R rwork_dummy{};
    T dummy_vr{};
    L::geev(&jobvr, &in, static_cast<T*>(a), &ilda, static_cast<T*>(w), vectors ? static_cast<T*>(vr) : &dummy_vr,
            &ildvr, &query, &lwork, &rwork_dummy, &inf);
    check_lapack_info(inf, name, args);
    lwork = workspace_size(query);
    over_batch(batch, cost, [&](int64_t lo, int64_t hi) {
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<R> rw(static_cast<size_t>(2 * n));
      T dummy{};
      for (int64_t i = lo; i < hi; ++i) {
        lapack_int inf_i = 0;
        L::geev(&jobvr, &in, at<T>(a, stride_a, i), &ilda, at<T>(w, n, i), vectors ? at<T>(vr, stride_vr, i) : &dummy,
                &ildvr, work.data(), &lwork, rw.data(), &inf_i);
        check_lapack_info(inf_i, name, args);
        info[i] = inf_i;
      }
    });
  } else {
    const std::initializer_list<const char*> args = {"JOBVL", "JOBVR", "N",  "A",    "LDA",  "WR",    "WI",
                                                     "VL",    "LDVL",  "VR", "LDVR", "WORK", "LWORK", "INFO"};
    // The real routine returns eigenvalues as (WR, WI) and packs each
    // conjugate pair of eigenvectors into two real columns (re, im); both
    // are unpacked into the complex outputs of the contract.
    const lapack_int ldv = in;
    T query{};
    lapack_int lwork = -1, inf = 0;
    {
      std::vector<T> wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n));
      T dummy_vr{};
      L::geev(&jobvr, &in, static_cast<T*>(a), &ilda, wr.data(), wi.data(), &dummy_vr, vectors ? &ldv : &ildvr,
              &query, &lwork, &inf);
      check_lapack_info(inf, name, args);
    }
    lwork = workspace_size(query);
    over_batch(batch, cost, [&](int64_t lo, int64_t hi) {
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<T> wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n));
      std::vector<T> vreal(vectors ? static_cast<size_t>(n * n) : 1);
      for (int64_t i = lo; i < hi; ++i) {
        lapack_int inf_i = 0;
        L::geev(&jobvr, &in, at<T>(a, stride_a, i), &ilda, wr.data(), wi.data(), vreal.data(),
                vectors ? &ldv : &ildvr, work.data(), &lwork, &inf_i);
        check_lapack_info(inf_i, name, args);
        info[i] = inf_i;
        C* wi_out = at<C>(w, n, i);
        // On failure (info > 0) only entries info..n-1 are valid; LAPACK leaves
        // the others undefined, which callers never read.
        for (int64_t j = 0; j < n; ++j) wi_out[j] = C(wr[j], wi[j]);
        if (!vectors) continue;
        C* v = at<C>(vr, stride_vr, i);
        for (int64_t j = 0; j < n; ++j) {
          const T* re = vreal.data() + j * n;
          C* col = v + j * ldvr;
          if (wi[j] != T(0) && j + 1 < n) {
            // Columns j, j+1 hold re and im of the eigenvector of wr+i*wi
            // (wi > 0); the next eigenvalue is its conjugate.
            const T* im = re + n;
            C* col2 = col + ldvr;
            for (int64_t r = 0; r < n; ++r) {
              col[r] = C(re[r], im[r]);
              col2[r] = C(re[r], -im[r]);
            }
            ++j;
          } else {
            for (int64_t r = 0; r < n; ++r) col[r] = C(re[r], T(0));
          }
        }
      }
    });
  }
}

// ---- the backend -------------------------------------------------------------

class HostLinalgBackend final : public LinalgBackend {
 public:
  void gemm(Dtype dtype, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k, const void* alpha,
            const void* a, int64_t lda, int64_t stride_a, const void* b, int64_t ldb, int64_t stride_b,
            const void* beta, void* c, int64_t ldc, int64_t stride_c, int64_t batch, StreamHandle) override {
    dispatch(dtype, "gemm", [&](auto tag) {
      using T = typename decltype(tag)::type;
      gemm_impl<T>(trans_a, trans_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c,
                   batch);
    });
  }
  void getrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* ipiv, int32_t* info,
             int64_t batch, StreamHandle) override {
    dispatch(dtype, "getrf", [&](auto tag) {
      using T = typename decltype(tag)::type;
      getrf_impl<T>(n, a, lda, stride_a, ipiv, info, batch);
    });
  }
  void getrs(Dtype dtype, Transpose trans, int64_t n, int64_t nrhs, const void* lu, int64_t lda, int64_t stride_a,
             const int32_t* ipiv, void* b, int64_t ldb, int64_t stride_b, int64_t batch, StreamHandle) override {
    dispatch(dtype, "getrs", [&](auto tag) {
      using T = typename decltype(tag)::type;
      getrs_impl<T>(trans, n, nrhs, lu, lda, stride_a, ipiv, b, ldb, stride_b, batch);
    });
  }
  void potrf(Dtype dtype, int64_t n, void* a, int64_t lda, int64_t stride_a, int32_t* info, int64_t batch,
             StreamHandle) override {
    dispatch(dtype, "potrf", [&](auto tag) {
      using T = typename decltype(tag)::type;
      potrf_impl<T>(n, a, lda, stride_a, info, batch);
    });
  }
  void geqrf(Dtype dtype, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* tau, int32_t* info,
             int64_t batch, StreamHandle) override {
    dispatch(dtype, "geqrf", [&](auto tag) {
      using T = typename decltype(tag)::type;
      geqrf_impl<T>(m, n, a, lda, stride_a, tau, info, batch);
    });
  }
  void orgqr(Dtype dtype, int64_t m, int64_t n, int64_t k, void* a, int64_t lda, int64_t stride_a, const void* tau,
             int64_t tau_stride, int32_t* info, int64_t batch, StreamHandle) override {
    dispatch(dtype, "orgqr", [&](auto tag) {
      using T = typename decltype(tag)::type;
      orgqr_impl<T>(m, n, k, a, lda, stride_a, tau, tau_stride, info, batch);
    });
  }
  void gesvd(Dtype dtype, char job, int64_t m, int64_t n, void* a, int64_t lda, int64_t stride_a, void* s, void* u,
             int64_t ldu, int64_t stride_u, void* vt, int64_t ldvt, int64_t stride_vt, int32_t* info, int64_t batch,
             StreamHandle) override {
    dispatch(dtype, "gesvd", [&](auto tag) {
      using T = typename decltype(tag)::type;
      gesvd_impl<T>(job, m, n, a, lda, stride_a, s, u, ldu, stride_u, vt, ldvt, stride_vt, info, batch);
    });
  }
  void syevd(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, int32_t* info,
             int64_t batch, StreamHandle) override {
    dispatch(dtype, "syevd", [&](auto tag) {
      using T = typename decltype(tag)::type;
      syevd_impl<T>(vectors, n, a, lda, stride_a, w, info, batch);
    });
  }
  void geev(Dtype dtype, bool vectors, int64_t n, void* a, int64_t lda, int64_t stride_a, void* w, void* vr,
            int64_t ldvr, int64_t stride_vr, int32_t* info, int64_t batch, StreamHandle) override {
    dispatch(dtype, "geev", [&](auto tag) {
      using T = typename decltype(tag)::type;
      geev_impl<T>(vectors, n, a, lda, stride_a, w, vr, ldvr, stride_vr, info, batch);
    });
  }
};

}  // namespace

LinalgBackend& host_linalg_backend() {
  static HostLinalgBackend backend;
  return backend;
}

namespace {
const BackendRegistration registration(Capability::kLinalg, DeviceType::kCPU, []() -> void* { return &host_linalg_backend(); });
}  // namespace

}  // namespace kumo
