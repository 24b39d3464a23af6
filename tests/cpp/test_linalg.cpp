// The host LinalgBackend (OpenBLAS/LAPACK): every routine for every dtype,
// checked by reconstructing the input from the factors (or against a naive
// product for gemm), plus failure reports (info > 0), empty sizes and
// argument errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "linalg/linalg_backend.h"

using namespace kumo;

namespace {

template <typename T>
struct RealOf {
  using type = T;
};
template <typename R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <typename T>
using Real = typename RealOf<T>::type;

template <typename T>
constexpr bool kIsComplex = !std::is_same_v<T, Real<T>>;

template <typename T>
Dtype dtype_of() {
  if (std::is_same_v<T, float>) return Dtype::kFloat32;
  if (std::is_same_v<T, double>) return Dtype::kFloat64;
  if (std::is_same_v<T, std::complex<float>>) return Dtype::kComplex64;
  return Dtype::kComplex128;
}

template <typename T>
using Complex = std::complex<Real<T>>;

template <typename T>
T conj_of(T v) {
  if constexpr (kIsComplex<T>) return std::conj(v);
  else return v;
}

template <typename T>
double tolerance() {
  return std::is_same_v<Real<T>, float> ? 2e-4 : 1e-11;
}

template <typename T>
std::vector<T> random_values(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (kIsComplex<T>) x = T(static_cast<Real<T>>(dist(gen)), static_cast<Real<T>>(dist(gen)));
    else x = static_cast<T>(dist(gen));
  }
  return v;
}

// Element (r, c) of op(X) where X is column-major with leading dimension ld.
template <typename T>
T op_at(const T* x, int64_t ld, Transpose t, int64_t r, int64_t c) {
  if (t == Transpose::kNo) return x[r + c * ld];
  T v = x[c + r * ld];
  return t == Transpose::kConjTrans ? conj_of(v) : v;
}

template <typename T>
double max_abs_diff(const std::vector<T>& a, const std::vector<T>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, static_cast<double>(std::abs(a[i] - b[i])));
  return m;
}

// C (m x n, column-major) = X (m x k) * Y (k x n), all column-major, complex arithmetic.
template <typename T>
std::vector<Complex<T>> product(const std::vector<Complex<T>>& x, const std::vector<Complex<T>>& y, int64_t m,
                                int64_t k, int64_t n) {
  std::vector<Complex<T>> c(static_cast<size_t>(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t i = 0; i < m; ++i) c[i + j * m] += x[i + p * m] * y[p + j * k];
  return c;
}

template <typename T>
std::vector<Complex<T>> to_complex(const T* x, int64_t rows, int64_t cols, int64_t ld) {
  std::vector<Complex<T>> out(static_cast<size_t>(rows * cols));
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) out[i + j * rows] = Complex<T>(x[i + j * ld]);
  return out;
}

LinalgBackend& backend() { return host_linalg_backend(); }

template <typename T>
class LinalgTyped : public ::testing::Test {};
using LinalgTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(LinalgTyped, LinalgTypes);

// ---- gemm ----

TYPED_TEST(LinalgTyped, GemmMatchesNaiveProductForAllTransposes) {
  using T = TypeParam;
  const int64_t m = 5, n = 4, k = 3, batch = 3;
  const Transpose ts[] = {Transpose::kNo, Transpose::kTrans, Transpose::kConjTrans};
  for (Transpose ta : ts) {
    for (Transpose tb : ts) {
      const int64_t ar = ta == Transpose::kNo ? m : k, ac = ta == Transpose::kNo ? k : m;
      const int64_t br = tb == Transpose::kNo ? k : n, bc = tb == Transpose::kNo ? n : k;
      const int64_t lda = ar + 2, ldb = br + 1, ldc = m + 3;
      auto a = random_values<T>(static_cast<size_t>(lda * ac * batch), 1);
      auto b = random_values<T>(static_cast<size_t>(ldb * bc * batch), 2);
      auto c = random_values<T>(static_cast<size_t>(ldc * n * batch), 3);
      auto expect = c;
      const T alpha = T(2), beta = T(0.5);
      for (int64_t i = 0; i < batch; ++i)
        for (int64_t col = 0; col < n; ++col)
          for (int64_t r = 0; r < m; ++r) {
            T acc = T(0);
            for (int64_t p = 0; p < k; ++p)
              acc += op_at(a.data() + i * lda * ac, lda, ta, r, p) * op_at(b.data() + i * ldb * bc, ldb, tb, p, col);
            T& e = expect[i * ldc * n + r + col * ldc];
            e = alpha * acc + beta * e;
          }
      backend().gemm(dtype_of<T>(), ta, tb, m, n, k, &alpha, a.data(), lda, lda * ac, b.data(), ldb, ldb * bc,
                     &beta, c.data(), ldc, ldc * n, batch, 0);
      EXPECT_LT(max_abs_diff(c, expect), 10 * tolerance<T>());
    }
  }
}

TYPED_TEST(LinalgTyped, GemmBroadcastsStrideZeroOperand) {
  using T = TypeParam;
  // Many small products (the pool path) and a few larger ones (batch_strided).
  for (int64_t size : {4, 48}) {
    const int64_t batch = size == 4 ? 200 : 3;
    auto a = random_values<T>(static_cast<size_t>(size * size), 4);
    auto b = random_values<T>(static_cast<size_t>(size * size * batch), 5);
    std::vector<T> c(static_cast<size_t>(size * size * batch));
    const T one = T(1), zero = T(0);
    backend().gemm(dtype_of<T>(), Transpose::kNo, Transpose::kNo, size, size, size, &one, a.data(), size, 0,
                   b.data(), size, size * size, &zero, c.data(), size, size * size, batch, 0);
    double err = 0;
    for (int64_t i = 0; i < batch; ++i) {
      auto expect = product<T>(to_complex(a.data(), size, size, size),
                               to_complex(b.data() + i * size * size, size, size, size), size, size, size);
      auto got = to_complex(c.data() + i * size * size, size, size, size);
      err = std::max(err, max_abs_diff(got, expect));
    }
    EXPECT_LT(err, size * tolerance<T>());
  }
}

TYPED_TEST(LinalgTyped, GemmWithZeroInnerSizeScalesOutputByBeta) {
  using T = TypeParam;
  std::vector<T> c(6, T(std::nan("")));
  const T one = T(1), zero = T(0);
  backend().gemm(dtype_of<T>(), Transpose::kNo, Transpose::kNo, 2, 3, 0, &one, nullptr, 2, 0, nullptr, 1, 0, &zero,
                 c.data(), 2, 6, 1, 0);
  for (const T& v : c) EXPECT_EQ(v, T(0));
  std::vector<T> d(6, T(3));
  const T two = T(2);
  backend().gemm(dtype_of<T>(), Transpose::kNo, Transpose::kNo, 2, 3, 0, &one, nullptr, 2, 0, nullptr, 1, 0, &two,
                 d.data(), 2, 6, 1, 0);
  for (const T& v : d) EXPECT_EQ(v, T(6));
}

TEST(LinalgGemm, EmptyOutputIsANoOp) {
  const double one = 1, zero = 0;
  EXPECT_NO_THROW(backend().gemm(Dtype::kFloat64, Transpose::kNo, Transpose::kNo, 0, 3, 2, &one, nullptr, 1, 0,
                                 nullptr, 2, 0, &zero, nullptr, 1, 0, 4, 0));
  EXPECT_NO_THROW(backend().gemm(Dtype::kFloat64, Transpose::kNo, Transpose::kNo, 2, 3, 2, &one, nullptr, 2, 0,
                                 nullptr, 2, 0, &zero, nullptr, 2, 0, 0, 0));
}

TEST(LinalgGemm, InvalidArgumentsThrow) {
  const double one = 1, zero = 0;
  std::vector<double> a(16), b(16), c(16);
  EXPECT_THROW(backend().gemm(Dtype::kFloat64, Transpose::kNo, Transpose::kNo, -1, 2, 2, &one, a.data(), 2, 0,
                              b.data(), 2, 0, &zero, c.data(), 2, 0, 1, 0),
               ValueError);
  EXPECT_THROW(backend().gemm(Dtype::kFloat64, Transpose::kNo, Transpose::kNo, 3, 2, 2, &one, a.data(), 2, 0,
                              b.data(), 2, 0, &zero, c.data(), 3, 0, 1, 0),
               ValueError);  // lda < m
  EXPECT_THROW(backend().gemm(Dtype::kFloat64, Transpose::kNo, Transpose::kNo, 2, 2, 2, &one, a.data(), 2, 0,
                              b.data(), 2, 0, &zero, c.data(), 1, 0, 1, 0),
               ValueError);  // ldc < m
  EXPECT_THROW(backend().gemm(Dtype::kInt32, Transpose::kNo, Transpose::kNo, 2, 2, 2, &one, a.data(), 2, 0, b.data(),
                              2, 0, &zero, c.data(), 2, 0, 1, 0),
               TypeError);
}

// ---- getrf / getrs ----

// P L U from getrf's packed factors, as a complex matrix.
template <typename T>
std::vector<Complex<T>> lu_reconstruct(const T* lu, int64_t n, int64_t ld, const int32_t* ipiv) {
  std::vector<Complex<T>> l(static_cast<size_t>(n * n)), u(static_cast<size_t>(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      Complex<T> v(lu[i + j * ld]);
      if (i > j) l[i + j * n] = v;
      else u[i + j * n] = v;
      if (i == j) l[i + j * n] = Complex<T>(1);
    }
  auto pa = product<T>(l, u, n, n, n);
  // Undo the row interchanges, last first.
  for (int64_t i = n - 1; i >= 0; --i) {
    int64_t p = ipiv[i] - 1;
    if (p != i)
      for (int64_t j = 0; j < n; ++j) std::swap(pa[i + j * n], pa[p + j * n]);
  }
  return pa;
}

TYPED_TEST(LinalgTyped, GetrfFactorsReconstructTheMatrix) {
  using T = TypeParam;
  // batch 50 of 6x6 goes through the thread pool; one 100x100 does not.
  for (auto [n, batch] : {std::pair<int64_t, int64_t>{6, 50}, {100, 1}}) {
    const int64_t ld = n + 1;
    auto a = random_values<T>(static_cast<size_t>(ld * n * batch), 7);
    auto lu = a;
    std::vector<int32_t> ipiv(static_cast<size_t>(n * batch));
    std::vector<int32_t> info(static_cast<size_t>(batch), -7);
    backend().getrf(dtype_of<T>(), n, lu.data(), ld, ld * n, ipiv.data(), info.data(), batch, 0);
    double err = 0;
    for (int64_t i = 0; i < batch; ++i) {
      EXPECT_EQ(info[i], 0);
      auto got = lu_reconstruct(lu.data() + i * ld * n, n, ld, ipiv.data() + i * n);
      err = std::max(err, max_abs_diff(got, to_complex(a.data() + i * ld * n, n, n, ld)));
    }
    EXPECT_LT(err, n * tolerance<T>());
  }
}

TYPED_TEST(LinalgTyped, GetrfReportsSingularMatrixInInfo) {
  using T = TypeParam;
  // Second matrix has a zero column 2, so U(2,2) == 0 -> info 2.
  std::vector<T> a = {T(2), T(1), T(1), T(3), T(1), T(0), T(0), T(0)};
  std::vector<int32_t> ipiv(4), info(2, -1);
  backend().getrf(dtype_of<T>(), 2, a.data(), 2, 4, ipiv.data(), info.data(), 2, 0);
  EXPECT_EQ(info[0], 0);
  EXPECT_EQ(info[1], 2);
}

TYPED_TEST(LinalgTyped, GetrsSolvesForEachTranspose) {
  using T = TypeParam;
  const int64_t n = 7, nrhs = 3, batch = 4;
  auto a = random_values<T>(static_cast<size_t>(n * n * batch), 8);
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t d = 0; d < n; ++d) a[i * n * n + d * (n + 1)] += T(4);  // well conditioned
  auto lu = a;
  std::vector<int32_t> ipiv(static_cast<size_t>(n * batch)), info(static_cast<size_t>(batch));
  backend().getrf(dtype_of<T>(), n, lu.data(), n, n * n, ipiv.data(), info.data(), batch, 0);
  for (Transpose t : {Transpose::kNo, Transpose::kTrans, Transpose::kConjTrans}) {
    auto rhs = random_values<T>(static_cast<size_t>(n * nrhs * batch), 9);
    auto x = rhs;
    backend().getrs(dtype_of<T>(), t, n, nrhs, lu.data(), n, n * n, ipiv.data(), x.data(), n, n * nrhs, batch, 0);
    double err = 0;
    for (int64_t i = 0; i < batch; ++i)
      for (int64_t c = 0; c < nrhs; ++c)
        for (int64_t r = 0; r < n; ++r) {
          T acc = T(0);
          for (int64_t p = 0; p < n; ++p) acc += op_at(a.data() + i * n * n, n, t, r, p) * x[i * n * nrhs + p + c * n];
          err = std::max(err, static_cast<double>(std::abs(acc - rhs[i * n * nrhs + r + c * n])));
        }
    EXPECT_LT(err, 10 * n * tolerance<T>());
  }
}

TEST(LinalgGetrf, ZeroSizeSetsInfoAndSkipsLapack) {
  std::vector<int32_t> info(3, -5);
  backend().getrf(Dtype::kFloat64, 0, nullptr, 1, 0, nullptr, info.data(), 3, 0);
  EXPECT_EQ(info, std::vector<int32_t>(3, 0));
  EXPECT_NO_THROW(backend().getrs(Dtype::kFloat64, Transpose::kNo, 0, 2, nullptr, 1, 0, nullptr, nullptr, 1, 0, 3, 0));
  EXPECT_NO_THROW(backend().getrf(Dtype::kFloat64, 4, nullptr, 4, 16, nullptr, nullptr, 0, 0));
}

TEST(LinalgGetrf, InvalidArgumentsThrow) {
  std::vector<double> a(16);
  std::vector<int32_t> ipiv(4), info(1);
  EXPECT_THROW(backend().getrf(Dtype::kFloat64, -1, a.data(), 1, 0, ipiv.data(), info.data(), 1, 0), ValueError);
  EXPECT_THROW(backend().getrf(Dtype::kFloat64, 4, a.data(), 3, 0, ipiv.data(), info.data(), 1, 0), ValueError);
  EXPECT_THROW(backend().getrf(Dtype::kFloat64, 4, a.data(), 4, 0, ipiv.data(), info.data(), -1, 0), ValueError);
  EXPECT_THROW(backend().getrf(Dtype::kFloat16, 4, a.data(), 4, 0, ipiv.data(), info.data(), 1, 0), TypeError);
  EXPECT_THROW(backend().getrs(Dtype::kFloat64, Transpose::kNo, 4, 1, a.data(), 4, 0, ipiv.data(), a.data(), 2, 0, 1,
                               0),
               ValueError);  // ldb < n
}

TEST(LinalgGetrf, ErrorMessageNamesRoutineAndArgument) {
  std::vector<float> a(4);
  std::vector<int32_t> ipiv(2), info(1);
  try {
    backend().getrf(Dtype::kFloat32, 2, a.data(), 1, 0, ipiv.data(), info.data(), 1, 0);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("sgetrf"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("lda"), std::string::npos) << e.what();
  }
}

// ---- potrf ----

// A = X X^H + n I: Hermitian positive definite.
template <typename T>
std::vector<T> hpd_matrix(int64_t n, unsigned seed) {
  auto x = random_values<T>(static_cast<size_t>(n * n), seed);
  std::vector<T> a(static_cast<size_t>(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      T acc = i == j ? T(static_cast<Real<T>>(n)) : T(0);
      for (int64_t p = 0; p < n; ++p) acc += x[i + p * n] * conj_of(x[j + p * n]);
      a[i + j * n] = acc;
    }
  return a;
}

TYPED_TEST(LinalgTyped, PotrfLowerFactorReconstructsAndKeepsUpperTriangle) {
  using T = TypeParam;
  const int64_t n = 6;
  auto a = hpd_matrix<T>(n, 11);
  auto f = a;
  std::vector<int32_t> info(1, -1);
  backend().potrf(dtype_of<T>(), n, f.data(), n, n * n, info.data(), 1, 0);
  EXPECT_EQ(info[0], 0);
  std::vector<Complex<T>> l(static_cast<size_t>(n * n)), lh(static_cast<size_t>(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      l[i + j * n] = Complex<T>(f[i + j * n]);
      lh[j + i * n] = std::conj(l[i + j * n]);
    }
  EXPECT_LT(max_abs_diff(product<T>(l, lh, n, n, n), to_complex(a.data(), n, n, n)), n * tolerance<T>());
  for (int64_t j = 1; j < n; ++j)
    for (int64_t i = 0; i < j; ++i) EXPECT_EQ(f[i + j * n], a[i + j * n]);
}

TYPED_TEST(LinalgTyped, PotrfReportsNonPositiveDefinite) {
  using T = TypeParam;
  // diag(1, -1): the second leading minor is not positive.
  std::vector<T> a = {T(1), T(0), T(0), T(-1), T(4), T(0), T(0), T(9)};
  std::vector<int32_t> info(2, -1);
  backend().potrf(dtype_of<T>(), 2, a.data(), 2, 4, info.data(), 2, 0);
  EXPECT_EQ(info[0], 2);
  EXPECT_EQ(info[1], 0);
}

// ---- geqrf / orgqr ----

TYPED_TEST(LinalgTyped, QrFactorsReconstructAndQIsOrthonormal) {
  using T = TypeParam;
  const int64_t m = 7, n = 4, batch = 3, ld = 8;
  auto a = random_values<T>(static_cast<size_t>(ld * n * batch), 12);
  auto qr = a;
  std::vector<T> tau(static_cast<size_t>(n * batch));
  std::vector<int32_t> info(static_cast<size_t>(batch), -1);
  backend().geqrf(dtype_of<T>(), m, n, qr.data(), ld, ld * n, tau.data(), info.data(), batch, 0);
  for (int32_t v : info) EXPECT_EQ(v, 0);
  auto q = qr;
  backend().orgqr(dtype_of<T>(), m, n, n, q.data(), ld, ld * n, tau.data(), n, info.data(), batch, 0);
  for (int32_t v : info) EXPECT_EQ(v, 0);
  for (int64_t i = 0; i < batch; ++i) {
    auto qc = to_complex(q.data() + i * ld * n, m, n, ld);
    std::vector<Complex<T>> r(static_cast<size_t>(n * n)), qh(static_cast<size_t>(n * m));
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k <= j; ++k) r[k + j * n] = Complex<T>(qr[i * ld * n + k + j * ld]);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < m; ++k) qh[j + k * n] = std::conj(qc[k + j * m]);
    EXPECT_LT(max_abs_diff(product<T>(qc, r, m, n, n), to_complex(a.data() + i * ld * n, m, n, ld)),
              10 * tolerance<T>());
    auto eye = product<T>(qh, qc, n, m, n);
    for (int64_t j = 0; j < n; ++j) eye[j + j * n] -= Complex<T>(1);
    EXPECT_LT(max_abs_diff(eye, std::vector<Complex<T>>(eye.size())), 10 * tolerance<T>());
  }
}

TEST(LinalgQr, OrgqrChecksShapes) {
  std::vector<double> a(16), tau(4);
  std::vector<int32_t> info(1);
  EXPECT_THROW(backend().orgqr(Dtype::kFloat64, 2, 3, 2, a.data(), 2, 0, tau.data(), 2, info.data(), 1, 0),
               ValueError);  // n > m
  EXPECT_THROW(backend().orgqr(Dtype::kFloat64, 4, 2, 3, a.data(), 4, 0, tau.data(), 3, info.data(), 1, 0),
               ValueError);  // k > n
  std::vector<int32_t> zinfo(2, -1);
  backend().geqrf(Dtype::kFloat64, 0, 3, nullptr, 1, 0, nullptr, zinfo.data(), 2, 0);
  EXPECT_EQ(zinfo, std::vector<int32_t>(2, 0));
}

// ---- gesvd ----

TYPED_TEST(LinalgTyped, GesvdReconstructsForEveryJob) {
  using T = TypeParam;
  using R = Real<T>;
  for (auto [m, n] : {std::pair<int64_t, int64_t>{6, 4}, {3, 5}}) {
    const int64_t mn = std::min(m, n), batch = 2;
    auto a = random_values<T>(static_cast<size_t>(m * n * batch), 13);
    std::vector<R> s_values;
    for (char job : {'N', 'S', 'A'}) {
      auto work = a;
      const int64_t ucols = job == 'A' ? m : mn, vtrows = job == 'A' ? n : mn;
      std::vector<R> s(static_cast<size_t>(mn * batch));
      std::vector<T> u(static_cast<size_t>(m * ucols * batch)), vt(static_cast<size_t>(vtrows * n * batch));
      std::vector<int32_t> info(static_cast<size_t>(batch), -1);
      backend().gesvd(dtype_of<T>(), job, m, n, work.data(), m, m * n, s.data(), job == 'N' ? nullptr : u.data(), m,
                      m * ucols, job == 'N' ? nullptr : vt.data(), vtrows, vtrows * n, info.data(), batch, 0);
      for (int32_t v : info) EXPECT_EQ(v, 0);
      for (int64_t i = 0; i < batch; ++i)
        for (int64_t j = 1; j < mn; ++j) EXPECT_GE(s[i * mn + j - 1], s[i * mn + j]);
      if (job == 'N') {
        s_values = s;
        continue;
      }
      for (size_t j = 0; j < s.size(); ++j) EXPECT_NEAR(s[j], s_values[j], 10 * tolerance<T>());
      for (int64_t i = 0; i < batch; ++i) {
        // U[:, :mn] * diag(s) * VT[:mn, :]
        std::vector<Complex<T>> us(static_cast<size_t>(m * mn)), v(static_cast<size_t>(mn * n));
        for (int64_t j = 0; j < mn; ++j)
          for (int64_t r = 0; r < m; ++r) us[r + j * m] = Complex<T>(u[i * m * ucols + r + j * m]) * s[i * mn + j];
        for (int64_t j = 0; j < n; ++j)
          for (int64_t r = 0; r < mn; ++r) v[r + j * mn] = Complex<T>(vt[i * vtrows * n + r + j * vtrows]);
        EXPECT_LT(max_abs_diff(product<T>(us, v, m, mn, n), to_complex(a.data() + i * m * n, m, n, m)),
                  10 * tolerance<T>());
      }
    }
  }
}

TEST(LinalgGesvd, InvalidJobAndZeroSize) {
  std::vector<double> a(4), s(2);
  std::vector<int32_t> info(1, -1);
  EXPECT_THROW(backend().gesvd(Dtype::kFloat64, 'X', 2, 2, a.data(), 2, 0, s.data(), nullptr, 1, 0, nullptr, 1, 0,
                               info.data(), 1, 0),
               ValueError);
  EXPECT_THROW(backend().gesvd(Dtype::kFloat64, 'S', 2, 2, a.data(), 2, 0, s.data(), a.data(), 1, 0, a.data(), 2, 0,
                               info.data(), 1, 0),
               ValueError);  // ldu < m
  backend().gesvd(Dtype::kFloat64, 'A', 3, 0, nullptr, 3, 0, nullptr, a.data(), 3, 0, a.data(), 1, 0, info.data(), 1,
                  0);
  EXPECT_EQ(info[0], 0);
}

// ---- syevd ----

TYPED_TEST(LinalgTyped, SyevdEigenpairsFromLowerTriangle) {
  using T = TypeParam;
  using R = Real<T>;
  const int64_t n = 5, batch = 3;
  std::vector<T> a;
  for (int64_t i = 0; i < batch; ++i) {
    auto h = hpd_matrix<T>(n, 20 + static_cast<unsigned>(i));
    for (int64_t d = 0; d < n; ++d) h[d * (n + 1)] -= T(static_cast<R>(n + 2 * d));  // indefinite too
    a.insert(a.end(), h.begin(), h.end());
  }
  // Garbage in the strict upper triangle: only the lower one may be read.
  auto v = a;
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t j = 1; j < n; ++j)
      for (int64_t r = 0; r < j; ++r) v[i * n * n + r + j * n] = T(1e3);
  auto vn = v;
  std::vector<R> w(static_cast<size_t>(n * batch)), wn(static_cast<size_t>(n * batch));
  std::vector<int32_t> info(static_cast<size_t>(batch), -1);
  backend().syevd(dtype_of<T>(), true, n, v.data(), n, n * n, w.data(), info.data(), batch, 0);
  backend().syevd(dtype_of<T>(), false, n, vn.data(), n, n * n, wn.data(), info.data(), batch, 0);
  for (int32_t x : info) EXPECT_EQ(x, 0);
  for (size_t j = 0; j < w.size(); ++j) EXPECT_NEAR(w[j], wn[j], 10 * n * tolerance<T>());
  for (int64_t i = 0; i < batch; ++i) {
    for (int64_t j = 1; j < n; ++j) EXPECT_LE(w[i * n + j - 1], w[i * n + j]);
    auto ac = to_complex(a.data() + i * n * n, n, n, n);
    auto vc = to_complex(v.data() + i * n * n, n, n, n);
    auto av = product<T>(ac, vc, n, n, n);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t r = 0; r < n; ++r) av[r + j * n] -= vc[r + j * n] * w[i * n + j];
    EXPECT_LT(max_abs_diff(av, std::vector<Complex<T>>(av.size())), 10 * n * n * tolerance<T>());
  }
}

// ---- geev ----

TYPED_TEST(LinalgTyped, GeevEigenpairsInComplexArithmetic) {
  using T = TypeParam;
  using C = Complex<T>;
  const int64_t n = 6, batch = 3;
  auto a = random_values<T>(static_cast<size_t>(n * n * batch), 30);
  auto work = a;
  std::vector<C> w(static_cast<size_t>(n * batch)), vr(static_cast<size_t>(n * n * batch));
  std::vector<int32_t> info(static_cast<size_t>(batch), -1);
  backend().geev(dtype_of<T>(), true, n, work.data(), n, n * n, w.data(), vr.data(), n, n * n, info.data(), batch, 0);
  for (int32_t x : info) EXPECT_EQ(x, 0);
  for (int64_t i = 0; i < batch; ++i) {
    std::vector<C> vc(vr.begin() + i * n * n, vr.begin() + (i + 1) * n * n);
    auto av = product<T>(to_complex(a.data() + i * n * n, n, n, n), vc, n, n, n);
    for (int64_t j = 0; j < n; ++j) {
      double norm = 0;
      for (int64_t r = 0; r < n; ++r) {
        av[r + j * n] -= vc[r + j * n] * w[i * n + j];
        norm += std::norm(vc[r + j * n]);
      }
      EXPECT_NEAR(norm, 1.0, 10 * tolerance<T>());
    }
    EXPECT_LT(max_abs_diff(av, std::vector<C>(av.size())), 10 * n * tolerance<T>());
  }
  // Values only agree with the vectors run.
  auto work2 = a;
  std::vector<C> w2(w.size());
  backend().geev(dtype_of<T>(), false, n, work2.data(), n, n * n, w2.data(), nullptr, 1, 0, info.data(), batch, 0);
  EXPECT_LT(max_abs_diff(w, w2), 10 * tolerance<T>());
}

TYPED_TEST(LinalgTyped, GeevOfRotationGivesConjugatePair) {
  using T = TypeParam;
  using C = Complex<T>;
  std::vector<T> a = {T(0), T(1), T(-1), T(0)};  // [[0, -1], [1, 0]]: eigenvalues +-i
  std::vector<C> w(2), vr(4);
  std::vector<int32_t> info(1, -1);
  backend().geev(dtype_of<T>(), true, 2, a.data(), 2, 4, w.data(), vr.data(), 2, 4, info.data(), 1, 0);
  EXPECT_EQ(info[0], 0);
  EXPECT_NEAR(std::abs(w[0].real()), 0.0, tolerance<T>());
  EXPECT_NEAR(std::abs(w[0].imag()), 1.0, tolerance<T>());
  EXPECT_NEAR(std::abs(w[0] - std::conj(w[1])), 0.0, tolerance<T>());
  // Eigenvector of +i is a multiple of (1, -i) (up to phase): |v0| == |v1|, v1 = -i * v0 * sign.
  for (int j = 0; j < 2; ++j) {
    C lhs0 = -vr[1 + 2 * j], lhs1 = vr[0 + 2 * j];  // A v
    EXPECT_NEAR(std::abs(lhs0 - w[j] * vr[0 + 2 * j]), 0.0, 10 * tolerance<T>());
    EXPECT_NEAR(std::abs(lhs1 - w[j] * vr[1 + 2 * j]), 0.0, 10 * tolerance<T>());
  }
}

TEST(LinalgGeev, ZeroSizeAndBadLeadingDimension) {
  std::vector<int32_t> info(2, -1);
  backend().geev(Dtype::kFloat64, true, 0, nullptr, 1, 0, nullptr, nullptr, 1, 0, info.data(), 2, 0);
  EXPECT_EQ(info, std::vector<int32_t>(2, 0));
  std::vector<double> a(9);
  std::vector<std::complex<double>> w(3), vr(9);
  EXPECT_THROW(backend().geev(Dtype::kFloat64, true, 3, a.data(), 3, 0, w.data(), vr.data(), 2, 0, info.data(), 1, 0),
               ValueError);
  EXPECT_THROW(backend().syevd(Dtype::kFloat64, true, 3, a.data(), 2, 0, w.data(), info.data(), 1, 0), ValueError);
  EXPECT_THROW(backend().potrf(Dtype::kBool, 3, a.data(), 3, 0, info.data(), 1, 0), TypeError);
}

}  // namespace
