// The cuBLAS/cuSOLVER LinalgBackend against the OpenBLAS/LAPACK host backend
// (linalg/linalg_backend.h is the contract both follow). Every test runs for
// float32, float64, complex64 and complex128 and is skipped without a GPU.
//
// Results that LAPACK defines only up to a choice (pivots of complex LU,
// signs/phases of QR and SVD factors, eigenvector phases, the order of geev
// eigenvalues) are compared through what is invariant: reconstructions,
// orthonormality, singular values, eigenvalue sets, residuals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/backend_registry.h"
#include "core/cuda_plugin.h"
#include "core/device.h"
#include "core/errors.h"
#include "core/memory.h"
#include "linalg/linalg_backend.h"

namespace kumo {
namespace {

// ---- Scalar helpers --------------------------------------------------------------

template <typename T>
struct is_complex_t : std::false_type {};
template <typename R>
struct is_complex_t<std::complex<R>> : std::true_type {};

template <typename T>
struct real_of {
  using type = T;
};
template <typename R>
struct real_of<std::complex<R>> {
  using type = R;
};

template <typename T>
using Real = typename real_of<T>::type;
template <typename T>
using Cplx = std::complex<Real<T>>;

template <typename T>
constexpr Dtype dtype_of() {
  if constexpr (std::is_same_v<T, float>) return Dtype::kFloat32;
  if constexpr (std::is_same_v<T, double>) return Dtype::kFloat64;
  if constexpr (std::is_same_v<T, std::complex<float>>) return Dtype::kComplex64;
  return Dtype::kComplex128;
}

// Relative tolerance of results that went through O(n) rounding steps.
template <typename T>
double tolerance() {
  return std::is_same_v<Real<T>, float> ? 2e-4 : 1e-10;
}

template <typename T>
T conj_of(T x) {
  if constexpr (is_complex_t<T>::value) {
    return std::conj(x);
  } else {
    return x;
  }
}

template <typename T>
T random_value(std::mt19937& gen) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  if constexpr (is_complex_t<T>::value) {
    return T(static_cast<Real<T>>(dist(gen)), static_cast<Real<T>>(dist(gen)));
  } else {
    return static_cast<T>(dist(gen));
  }
}

template <typename T>
std::vector<T> random_vector(size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(count);
  for (T& x : v) x = random_value<T>(gen);
  return v;
}

// Column-major matrix view helpers (element (i, j) at i + j * ld).
template <typename T>
std::vector<T> matmul(const T* a, int64_t lda, const T* b, int64_t ldb, int64_t m, int64_t n, int64_t k) {
  std::vector<T> c(static_cast<size_t>(m * n), T(0));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t i = 0; i < m; ++i) c[i + j * m] += a[i + p * lda] * b[p + j * ldb];
  return c;
}

// The conjugate transpose of an m x n matrix (result n x m, ld n).
template <typename T>
std::vector<T> adjoint(const T* a, int64_t lda, int64_t m, int64_t n) {
  std::vector<T> out(static_cast<size_t>(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) out[j + i * n] = conj_of(a[i + j * lda]);
  return out;
}

template <typename T>
double max_abs(const std::vector<T>& v) {
  double m = 0;
  for (const T& x : v) m = std::max(m, static_cast<double>(std::abs(x)));
  return m;
}

// max |a - b| over an m x n block of two column-major matrices.
template <typename T, typename U>
double max_diff(const T* a, int64_t lda, const U* b, int64_t ldb, int64_t m, int64_t n) {
  double d = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) d = std::max(d, static_cast<double>(std::abs(a[i + j * lda] - b[i + j * ldb])));
  return d;
}

// max |A^H A - I| for the n columns of an m x n matrix.
template <typename T>
double orthonormality_error(const T* a, int64_t lda, int64_t m, int64_t n) {
  const std::vector<T> ah = adjoint(a, lda, m, n);
  const std::vector<T> g = matmul(ah.data(), n, a, lda, n, n, m);
  double d = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) d = std::max(d, std::abs(g[i + j * n] - T(i == j ? 1 : 0)) + 0.0);
  return d;
}

// ---- Fixture ---------------------------------------------------------------------

template <typename T>
class CudaLinalgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_is_available()) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
    device_ = &cuda_plugin()->device(0);
    cuda_ = find_backend<LinalgBackend>(DeviceType::kCUDA);
    host_ = &host_linalg_backend();
    stream_ = device_->current_stream();
  }

  // Device copy of host data (kept alive by the fixture).
  template <typename U>
  U* upload(const std::vector<U>& host) {
    std::shared_ptr<Memory> mem = device_->allocate(std::max<size_t>(host.size(), 1) * sizeof(U));
    device_->copy_from_host(mem->data(), host.data(), host.size() * sizeof(U));
    buffers_.push_back(mem);
    return static_cast<U*>(mem->data());
  }

  template <typename U>
  U* device_buffer(size_t count, U fill) {
    return upload(std::vector<U>(count, fill));
  }

  template <typename U>
  std::vector<U> download(const U* device_ptr, size_t count) {
    std::vector<U> host(count);
    device_->copy_to_host(host.data(), device_ptr, count * sizeof(U));
    return host;
  }

  Device* device_ = nullptr;
  LinalgBackend* cuda_ = nullptr;
  LinalgBackend* host_ = nullptr;
  StreamHandle stream_ = 0;
  std::vector<std::shared_ptr<Memory>> buffers_;
};

using LinalgTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(CudaLinalgTest, LinalgTypes);

constexpr Dtype kInt = Dtype::kInt32;

// ---- gemm --------------------------------------------------------------------------

TYPED_TEST(CudaLinalgTest, GemmMatchesHostForEveryTransposeAndBatch) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  const Transpose ops[] = {Transpose::kNo, Transpose::kTrans, Transpose::kConjTrans};
  struct Shape {
    int64_t m, n, k, batch;
  };
  const Shape shapes[] = {{1, 1, 1, 1}, {3, 4, 5, 1}, {17, 9, 33, 1}, {6, 7, 8, 3}, {64, 48, 80, 2}};
  const T alpha = static_cast<T>(1.5), beta = static_cast<T>(-0.5);
  unsigned seed = 1;
  for (const Shape& s : shapes) {
    for (Transpose ta : ops) {
      for (Transpose tb : ops) {
        const int64_t a_rows = ta == Transpose::kNo ? s.m : s.k, a_cols = ta == Transpose::kNo ? s.k : s.m;
        const int64_t b_rows = tb == Transpose::kNo ? s.k : s.n, b_cols = tb == Transpose::kNo ? s.n : s.k;
        const int64_t lda = a_rows + 1, ldb = b_rows + 2, ldc = s.m + 3;  // padded leading dimensions
        const int64_t sa = lda * a_cols, sb = ldb * b_cols, sc = ldc * s.n;
        auto a = random_vector<T>(static_cast<size_t>(sa * s.batch), seed++);
        auto b = random_vector<T>(static_cast<size_t>(sb * s.batch), seed++);
        auto c = random_vector<T>(static_cast<size_t>(sc * s.batch), seed++);
        auto c_host = c;
        this->host_->gemm(dt, ta, tb, s.m, s.n, s.k, &alpha, a.data(), lda, sa, b.data(), ldb, sb, &beta,
                          c_host.data(), ldc, sc, s.batch, 0);
        T* da = this->upload(a);
        T* db = this->upload(b);
        T* dc = this->upload(c);
        this->cuda_->gemm(dt, ta, tb, s.m, s.n, s.k, &alpha, da, lda, sa, db, ldb, sb, &beta, dc, ldc, sc, s.batch,
                          this->stream_);
        const auto c_cuda = this->download(dc, c.size());
        // Padding rows of C must be untouched, so compare every element.
        for (size_t i = 0; i < c.size(); ++i) {
          ASSERT_NEAR(std::abs(c_cuda[i] - c_host[i]), 0.0, tolerance<T>() * (1 + static_cast<double>(s.k)))
              << "m=" << s.m << " n=" << s.n << " k=" << s.k << " batch=" << s.batch << " ta=" << int(ta)
              << " tb=" << int(tb) << " at " << i;
        }
      }
    }
  }
}

TYPED_TEST(CudaLinalgTest, GemmBroadcastsStrideZeroInputs) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  const int64_t m = 5, n = 4, k = 6, batch = 4;
  const T one = static_cast<T>(1), zero = static_cast<T>(0);
  auto a = random_vector<T>(static_cast<size_t>(m * k), 11);           // one A for all
  auto b = random_vector<T>(static_cast<size_t>(k * n * batch), 12);   // a B per product
  std::vector<T> c_host(static_cast<size_t>(m * n * batch));
  this->host_->gemm(dt, Transpose::kNo, Transpose::kNo, m, n, k, &one, a.data(), m, 0, b.data(), k, k * n, &zero,
                    c_host.data(), m, m * n, batch, 0);
  T* da = this->upload(a);
  T* db = this->upload(b);
  T* dc = this->device_buffer(c_host.size(), static_cast<T>(T(std::numeric_limits<Real<T>>::quiet_NaN())));
  this->cuda_->gemm(dt, Transpose::kNo, Transpose::kNo, m, n, k, &one, da, m, 0, db, k, k * n, &zero, dc, m, m * n,
                    batch, this->stream_);
  const auto c_cuda = this->download(dc, c_host.size());
  // beta == 0: the NaN in C must not survive.
  EXPECT_LE(max_diff(c_cuda.data(), 1, c_host.data(), 1, static_cast<int64_t>(c_host.size()), 1),
            tolerance<T>() * k);
}

TYPED_TEST(CudaLinalgTest, GemmWithNegativeBatchStrides) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  const int64_t m = 4, n = 3, k = 5, batch = 3;
  const T alpha = static_cast<T>(2), beta = static_cast<T>(1);
  auto a = random_vector<T>(static_cast<size_t>(m * k * batch), 21);
  auto b = random_vector<T>(static_cast<size_t>(k * n * batch), 22);
  auto c = random_vector<T>(static_cast<size_t>(m * n * batch), 23);
  auto c_host = c;
  // Matrix i lives at offset (batch - 1 - i) * size: pointers to the last matrix, negative strides.
  const int64_t last_a = (batch - 1) * m * k, last_b = (batch - 1) * k * n, last_c = (batch - 1) * m * n;
  this->host_->gemm(dt, Transpose::kNo, Transpose::kNo, m, n, k, &alpha, a.data() + last_a, m, -m * k,
                    b.data() + last_b, k, -k * n, &beta, c_host.data() + last_c, m, -m * n, batch, 0);
  T* da = this->upload(a);
  T* db = this->upload(b);
  T* dc = this->upload(c);
  this->cuda_->gemm(dt, Transpose::kNo, Transpose::kNo, m, n, k, &alpha, da + last_a, m, -m * k, db + last_b, k, -k * n,
                    &beta, dc + last_c, m, -m * n, batch, this->stream_);
  const auto c_cuda = this->download(dc, c.size());
  EXPECT_LE(max_diff(c_cuda.data(), 1, c_host.data(), 1, static_cast<int64_t>(c.size()), 1), tolerance<T>() * k);
}

TYPED_TEST(CudaLinalgTest, GemmWithKZeroScalesC) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  const int64_t m = 3, n = 2, ldc = 4, batch = 2;
  const T one = static_cast<T>(1), zero = static_cast<T>(0), three = static_cast<T>(3);
  const T nan = T(std::numeric_limits<Real<T>>::quiet_NaN());
  std::vector<T> c(static_cast<size_t>(ldc * n * batch));
  for (size_t i = 0; i < c.size(); ++i) c[i] = static_cast<T>(static_cast<Real<T>>(i + 1));
  c[0] = nan;  // element (0, 0) of matrix 0
  T* dc = this->upload(c);
  T* dummy = this->device_buffer(1, static_cast<T>(zero));
  // beta == 0: zeros, the NaN included; padding row untouched.
  this->cuda_->gemm(dt, Transpose::kNo, Transpose::kNo, m, n, 0, &one, dummy, m, 0, dummy, 1, 0, &zero, dc, ldc,
                    ldc * n, batch, this->stream_);
  auto out = this->download(dc, c.size());
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < ldc; ++i) {
        const size_t idx = static_cast<size_t>(b * ldc * n + j * ldc + i);
        if (i < m) {
          EXPECT_EQ(out[idx], zero) << idx;
        } else {
          EXPECT_EQ(out[idx], c[idx]) << idx;
        }
      }
  // beta == 3: C scaled.
  T* dc2 = this->upload(c);
  this->cuda_->gemm(dt, Transpose::kNo, Transpose::kNo, m, n, 0, &one, dummy, m, 0, dummy, 1, 0, &three, dc2, ldc,
                    ldc * n, batch, this->stream_);
  out = this->download(dc2, c.size());
  for (size_t idx = 1; idx < c.size(); ++idx) {
    const bool inside = static_cast<int64_t>(idx % ldc) < m;
    EXPECT_EQ(out[idx], inside ? three * c[idx] : c[idx]) << idx;
  }
}

TYPED_TEST(CudaLinalgTest, GemmRejectsBadArguments) {
  using T = TypeParam;
  const T one = static_cast<T>(1);
  T* d = this->device_buffer(16, static_cast<T>(one));
  EXPECT_THROW(this->cuda_->gemm(dtype_of<T>(), Transpose::kNo, Transpose::kNo, 4, 2, 2, &one, d, 3, 0, d, 2, 0, &one,
                                 d, 4, 0, 1, this->stream_),
               ValueError);  // lda < m
  EXPECT_THROW(this->cuda_->gemm(kInt, Transpose::kNo, Transpose::kNo, 2, 2, 2, &one, d, 2, 0, d, 2, 0, &one, d, 2, 0,
                                 1, this->stream_),
               TypeError);
  // Host memory is not accepted by the CUDA backend.
  std::vector<T> host(16, one);
  EXPECT_THROW(this->cuda_->gemm(dtype_of<T>(), Transpose::kNo, Transpose::kNo, 2, 2, 2, &one, host.data(), 2, 0,
                                 host.data(), 2, 0, &one, host.data(), 2, 0, 1, this->stream_),
               ValueError);
}

// ---- LU ----------------------------------------------------------------------------

// Rebuilds P L U from getrf output (n x n, leading dimension ld) and returns
// max |P L U - A|.
template <typename T>
double lu_residual(const T* lu, int64_t ld, const int32_t* ipiv, const T* a, int64_t lda, int64_t n) {
  std::vector<T> l(static_cast<size_t>(n * n), T(0)), u(static_cast<size_t>(n * n), T(0));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (i > j) l[i + j * n] = lu[i + j * ld];
      if (i == j) l[i + j * n] = T(1);
      if (i <= j) u[i + j * n] = lu[i + j * ld];
    }
  std::vector<T> plu = matmul(l.data(), n, u.data(), n, n, n, n);
  // Undo the row interchanges in reverse order: A = P L U.
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t p = ipiv[i] - 1;
    if (p != i)
      for (int64_t j = 0; j < n; ++j) std::swap(plu[i + j * n], plu[p + j * n]);
  }
  return max_diff(plu.data(), n, a, lda, n, n);
}

TYPED_TEST(CudaLinalgTest, GetrfFactorsLikeHost) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  // n <= 32 with batch > 1 takes the batched path; n = 40 the per-matrix one.
  for (int64_t n : {1, 5, 32, 40}) {
    for (int64_t batch : {1, 3}) {
      const int64_t lda = n + 1, stride = lda * n;
      auto a = random_vector<T>(static_cast<size_t>(stride * batch), static_cast<unsigned>(100 + n + batch));
      auto lu_host = a;
      std::vector<int32_t> ipiv_host(static_cast<size_t>(n * batch)), info_host(static_cast<size_t>(batch), -7);
      this->host_->getrf(dt, n, lu_host.data(), lda, stride, ipiv_host.data(), info_host.data(), batch, 0);
      T* da = this->upload(a);
      int32_t* dipiv = this->device_buffer(static_cast<size_t>(n * batch), static_cast<int32_t>(0));
      int32_t* dinfo = this->device_buffer(static_cast<size_t>(batch), static_cast<int32_t>(-7));
      this->cuda_->getrf(dt, n, da, lda, stride, dipiv, dinfo, batch, this->stream_);
      const auto lu = this->download(da, a.size());
      const auto ipiv = this->download(dipiv, ipiv_host.size());
      const auto info = this->download(dinfo, info_host.size());
      for (int64_t b = 0; b < batch; ++b) {
        SCOPED_TRACE("n=" + std::to_string(n) + " batch=" + std::to_string(batch) + " matrix " + std::to_string(b));
        EXPECT_EQ(info[b], 0);
        EXPECT_EQ(info[b], info_host[b]);
        EXPECT_LE(lu_residual(lu.data() + b * stride, lda, ipiv.data() + b * n, a.data() + b * stride, lda, n),
                  tolerance<T>() * n);
        if constexpr (!is_complex_t<T>::value) {
          // Real partial pivoting has one answer: the same rows and factors.
          for (int64_t i = 0; i < n; ++i) EXPECT_EQ(ipiv[b * n + i], ipiv_host[b * n + i]) << i;
          EXPECT_LE(max_diff(lu.data() + b * stride, lda, lu_host.data() + b * stride, lda, n, n), tolerance<T>() * n);
        }
        // The padding row stays as it was.
        for (int64_t j = 0; j < n; ++j) EXPECT_EQ(lu[b * stride + n + j * lda], a[b * stride + n + j * lda]);
      }
    }
  }
}

TYPED_TEST(CudaLinalgTest, GetrfReportsSingularMatrixInInfo) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  for (int64_t batch : {1, 2}) {  // per-matrix and batched paths
    const int64_t n = 4;
    auto a = random_vector<T>(static_cast<size_t>(n * n * batch), 7);
    // Matrix 0: third column zero -> U(3,3) == 0 exactly.
    for (int64_t i = 0; i < n; ++i) a[i + 2 * n] = T(0);
    auto a_host = a;
    std::vector<int32_t> ipiv_host(static_cast<size_t>(n * batch)), info_host(static_cast<size_t>(batch));
    this->host_->getrf(dt, n, a_host.data(), n, n * n, ipiv_host.data(), info_host.data(), batch, 0);
    T* da = this->upload(a);
    int32_t* dipiv = this->device_buffer(static_cast<size_t>(n * batch), static_cast<int32_t>(0));
    int32_t* dinfo = this->device_buffer(static_cast<size_t>(batch), static_cast<int32_t>(-7));
    this->cuda_->getrf(dt, n, da, n, n * n, dipiv, dinfo, batch, this->stream_);
    const auto info = this->download(dinfo, static_cast<size_t>(batch));
    EXPECT_EQ(info_host[0], 3);
    EXPECT_EQ(info[0], info_host[0]) << "batch=" << batch;
    if (batch > 1) {
      EXPECT_EQ(info[1], 0);
    }
  }
}

TYPED_TEST(CudaLinalgTest, GetrfZeroSizeWritesZeroInfo) {
  using T = TypeParam;
  int32_t* dinfo = this->device_buffer(3, static_cast<int32_t>(-7));
  T* da = this->device_buffer(1, static_cast<T>(T(0)));
  this->cuda_->getrf(dtype_of<T>(), 0, da, 1, 0, nullptr, dinfo, 3, this->stream_);
  EXPECT_EQ(this->download(dinfo, 3), (std::vector<int32_t>{0, 0, 0}));
}

TYPED_TEST(CudaLinalgTest, GetrsSolvesLikeHost) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  for (Transpose trans : {Transpose::kNo, Transpose::kTrans, Transpose::kConjTrans}) {
    for (int64_t n : {3, 40}) {
      for (int64_t batch : {1, 3}) {
        const int64_t nrhs = 2, lda = n + 2, ldb = n + 1;
        auto a = random_vector<T>(static_cast<size_t>(lda * n * batch), static_cast<unsigned>(300 + n));
        std::vector<int32_t> ipiv(static_cast<size_t>(n * batch)), info(static_cast<size_t>(batch));
        this->host_->getrf(dt, n, a.data(), lda, lda * n, ipiv.data(), info.data(), batch, 0);
        auto b = random_vector<T>(static_cast<size_t>(ldb * nrhs * batch), static_cast<unsigned>(400 + n));
        auto x_host = b;
        this->host_->getrs(dt, trans, n, nrhs, a.data(), lda, lda * n, ipiv.data(), x_host.data(), ldb, ldb * nrhs,
                           batch, 0);
        // The same factors on the device: the solve alone is compared.
        T* da = this->upload(a);
        int32_t* dipiv = this->upload(ipiv);
        T* db = this->upload(b);
        this->cuda_->getrs(dt, trans, n, nrhs, da, lda, lda * n, dipiv, db, ldb, ldb * nrhs, batch, this->stream_);
        const auto x = this->download(db, b.size());
        const double scale = std::max(1.0, max_abs(x_host));
        for (size_t i = 0; i < x.size(); ++i) {
          ASSERT_LE(std::abs(x[i] - x_host[i]), tolerance<T>() * n * scale)
              << "trans=" << int(trans) << " n=" << n << " batch=" << batch << " at " << i;
        }
      }
    }
  }
}

// ---- Cholesky ---------------------------------------------------------------------------

TYPED_TEST(CudaLinalgTest, PotrfMatchesHostAndKeepsUpperTriangle) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  for (int64_t n : {1, 6, 32, 45}) {
    for (int64_t batch : {1, 3}) {
      const int64_t lda = n + 1, stride = lda * n;
      std::vector<T> a(static_cast<size_t>(stride * batch), T(0));
      for (int64_t b = 0; b < batch; ++b) {
        // A = G G^H + n I in the lower triangle, a sentinel above it.
        auto g = random_vector<T>(static_cast<size_t>(n * n), static_cast<unsigned>(500 + n * 7 + b));
        const auto gh = adjoint(g.data(), n, n, n);
        auto s = matmul(g.data(), n, gh.data(), n, n, n, n);
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < lda; ++i) {
            T& x = a[b * stride + i + j * lda];
            if (i < n && i >= j) x = s[i + j * n] + T(i == j ? static_cast<Real<T>>(n) : 0);
            else x = static_cast<T>(-99);
          }
      }
      auto l_host = a;
      std::vector<int32_t> info_host(static_cast<size_t>(batch));
      this->host_->potrf(dt, n, l_host.data(), lda, stride, info_host.data(), batch, 0);
      T* da = this->upload(a);
      int32_t* dinfo = this->device_buffer(static_cast<size_t>(batch), static_cast<int32_t>(-7));
      this->cuda_->potrf(dt, n, da, lda, stride, dinfo, batch, this->stream_);
      const auto l = this->download(da, a.size());
      const auto info = this->download(dinfo, static_cast<size_t>(batch));
      for (int64_t b = 0; b < batch; ++b) {
        SCOPED_TRACE("n=" + std::to_string(n) + " batch=" + std::to_string(batch) + " matrix " + std::to_string(b));
        EXPECT_EQ(info[b], 0);
        EXPECT_EQ(info_host[b], 0);
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < lda; ++i) {
            const size_t idx = static_cast<size_t>(b * stride + i + j * lda);
            if (i < n && i >= j) {
              ASSERT_LE(std::abs(l[idx] - l_host[idx]), tolerance<T>() * n) << i << "," << j;
            } else {
              ASSERT_EQ(l[idx], a[idx]) << "strict upper triangle / padding changed at " << i << "," << j;
            }
          }
      }
    }
  }
}

TYPED_TEST(CudaLinalgTest, PotrfReportsNotPositiveDefinite) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  for (int64_t n : {4, 40}) {
    for (int64_t batch : {1, 2}) {
      std::vector<T> a(static_cast<size_t>(n * n * batch), T(0));
      for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < n; ++i) a[b * n * n + i + i * n] = T(1);
      a[2 + 2 * n] = T(-1);  // matrix 0: leading minor of order 3 not positive definite
      auto a_host = a;
      std::vector<int32_t> info_host(static_cast<size_t>(batch));
      this->host_->potrf(dt, n, a_host.data(), n, n * n, info_host.data(), batch, 0);
      T* da = this->upload(a);
      int32_t* dinfo = this->device_buffer(static_cast<size_t>(batch), static_cast<int32_t>(-7));
      this->cuda_->potrf(dt, n, da, n, n * n, dinfo, batch, this->stream_);
      const auto info = this->download(dinfo, static_cast<size_t>(batch));
      EXPECT_EQ(info_host[0], 3);
      EXPECT_EQ(info[0], 3) << "n=" << n << " batch=" << batch;
      if (batch > 1) {
        EXPECT_EQ(info[1], 0);
      }
    }
  }
}

// ---- QR ----------------------------------------------------------------------------------

TYPED_TEST(CudaLinalgTest, GeqrfAndOrgqrGiveQRLikeHost) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  struct Shape {
    int64_t m, n;
  };
  for (const Shape s : {Shape{6, 4}, Shape{4, 6}, Shape{5, 5}, Shape{50, 35}}) {
    const int64_t m = s.m, n = s.n, k = std::min(m, n), lda = m + 1, stride = lda * n, batch = 2;
    auto a = random_vector<T>(static_cast<size_t>(stride * batch), static_cast<unsigned>(600 + m * n));
    auto qr_host = a;
    std::vector<T> tau_host(static_cast<size_t>(k * batch));
    std::vector<int32_t> info_host(static_cast<size_t>(batch));
    this->host_->geqrf(dt, m, n, qr_host.data(), lda, stride, tau_host.data(), info_host.data(), batch, 0);
    T* da = this->upload(a);
    T* dtau = this->device_buffer(static_cast<size_t>(k * batch), static_cast<T>(T(0)));
    int32_t* dinfo = this->device_buffer(static_cast<size_t>(batch), static_cast<int32_t>(-7));
    this->cuda_->geqrf(dt, m, n, da, lda, stride, dtau, dinfo, batch, this->stream_);
    const auto qr = this->download(da, a.size());
    EXPECT_EQ(this->download(dinfo, static_cast<size_t>(batch)), std::vector<int32_t>(static_cast<size_t>(batch), 0));
    // Q (m x k) from the reflectors, in a copy with leading dimension m.
    std::vector<T> q_in(static_cast<size_t>(m * k * batch));
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t j = 0; j < k; ++j)
        for (int64_t i = 0; i < m; ++i) q_in[b * m * k + i + j * m] = qr[b * stride + i + j * lda];
    T* dq = this->upload(q_in);
    this->cuda_->orgqr(dt, m, k, k, dq, m, m * k, dtau, k, dinfo, batch, this->stream_);
    const auto q = this->download(dq, q_in.size());
    EXPECT_EQ(this->download(dinfo, static_cast<size_t>(batch)), std::vector<int32_t>(static_cast<size_t>(batch), 0));
    for (int64_t b = 0; b < batch; ++b) {
      SCOPED_TRACE("m=" + std::to_string(m) + " n=" + std::to_string(n) + " matrix " + std::to_string(b));
      const T* qb = q.data() + b * m * k;
      std::vector<T> r(static_cast<size_t>(k * n), T(0));
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= std::min(j, k - 1); ++i) r[i + j * k] = qr[b * stride + i + j * lda];
      const auto qr_product = matmul(qb, m, r.data(), k, m, n, k);
      EXPECT_LE(max_diff(qr_product.data(), m, a.data() + b * stride, lda, m, n), tolerance<T>() * m);
      EXPECT_LE(orthonormality_error(qb, m, m, k), tolerance<T>() * m);
      // R agrees with the host's up to the phase of each row: compare |R(i, i)|.
      for (int64_t i = 0; i < k; ++i) {
        EXPECT_NEAR(std::abs(qr[b * stride + i + i * lda]), std::abs(qr_host[b * stride + i + i * lda]),
                    tolerance<T>() * m);
      }
    }
  }
}

TYPED_TEST(CudaLinalgTest, OrgqrWithoutReflectorsIsIdentity) {
  using T = TypeParam;
  const int64_t m = 5, n = 3, lda = 6;
  T* da = this->device_buffer(static_cast<size_t>(lda * n * 2), static_cast<T>(static_cast<T>(7)));
  T* dtau = this->device_buffer(1, static_cast<T>(T(0)));
  int32_t* dinfo = this->device_buffer(2, static_cast<int32_t>(-7));
  this->cuda_->orgqr(dtype_of<T>(), m, n, 0, da, lda, lda * n, dtau, 0, dinfo, 2, this->stream_);
  const auto q = this->download(da, static_cast<size_t>(lda * n * 2));
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < lda; ++i) {
        const T want = i == m ? static_cast<T>(7) : T(i == j ? 1 : 0);
        EXPECT_EQ(q[b * lda * n + i + j * lda], want) << b << ": " << i << "," << j;
      }
  EXPECT_EQ(this->download(dinfo, 2), (std::vector<int32_t>{0, 0}));
}

// ---- SVD ---------------------------------------------------------------------------------

TYPED_TEST(CudaLinalgTest, GesvdMatchesHostForEveryJobAndShape) {
  using T = TypeParam;
  using R = Real<T>;
  const Dtype dt = dtype_of<T>();
  struct Shape {
    int64_t m, n;
  };
  for (const Shape s : {Shape{5, 3}, Shape{3, 5}, Shape{4, 4}, Shape{1, 6}, Shape{40, 23}, Shape{23, 40}}) {
    for (char job : {'N', 'S', 'A'}) {
      const int64_t m = s.m, n = s.n, k = std::min(m, n), batch = 2;
      const int64_t lda = m + 1, sa = lda * n;
      const int64_t ucols = job == 'A' ? m : k, vtrows = job == 'A' ? n : k;
      const int64_t ldu = m + 2, su = ldu * ucols, ldvt = vtrows + 1, svt = ldvt * n;
      auto a = random_vector<T>(static_cast<size_t>(sa * batch), static_cast<unsigned>(700 + m * 31 + n));
      auto a_host = a;
      std::vector<R> s_host(static_cast<size_t>(k * batch));
      std::vector<T> u_host(static_cast<size_t>(su * batch)), vt_host(static_cast<size_t>(svt * batch));
      std::vector<int32_t> info_host(static_cast<size_t>(batch));
      this->host_->gesvd(dt, job, m, n, a_host.data(), lda, sa, s_host.data(), u_host.data(), ldu, su, vt_host.data(),
                         ldvt, svt, info_host.data(), batch, 0);
      T* da = this->upload(a);
      R* ds = this->device_buffer(static_cast<size_t>(k * batch), static_cast<R>(R(-1)));
      T* du = this->device_buffer(static_cast<size_t>(su * batch), static_cast<T>(T(0)));
      T* dvt = this->device_buffer(static_cast<size_t>(svt * batch), static_cast<T>(T(0)));
      int32_t* dinfo = this->device_buffer(static_cast<size_t>(batch), static_cast<int32_t>(-7));
      this->cuda_->gesvd(dt, job, m, n, da, lda, sa, ds, job == 'N' ? nullptr : du, ldu, su,
                         job == 'N' ? nullptr : dvt, ldvt, svt, dinfo, batch, this->stream_);
      const auto sv = this->download(ds, s_host.size());
      const auto u = this->download(du, u_host.size());
      const auto vt = this->download(dvt, vt_host.size());
      const auto info = this->download(dinfo, static_cast<size_t>(batch));
      for (int64_t b = 0; b < batch; ++b) {
        SCOPED_TRACE(std::string("job=") + job + " m=" + std::to_string(m) + " n=" + std::to_string(n) + " matrix " +
                     std::to_string(b));
        EXPECT_EQ(info[b], 0);
        for (int64_t i = 0; i < k; ++i) {
          EXPECT_NEAR(sv[b * k + i], s_host[b * k + i], tolerance<T>() * std::max(m, n)) << i;
          if (i > 0) {
            EXPECT_GE(sv[b * k + i - 1], sv[b * k + i]) << "not descending at " << i;
          }
        }
        if (job == 'N') continue;
        const T* ub = u.data() + b * su;
        const T* vtb = vt.data() + b * svt;
        EXPECT_LE(orthonormality_error(ub, ldu, m, ucols), tolerance<T>() * std::max(m, n));
        const auto v = adjoint(vtb, ldvt, vtrows, n);  // n x vtrows
        EXPECT_LE(orthonormality_error(v.data(), n, n, vtrows), tolerance<T>() * std::max(m, n));
        // A = U[:, :k] diag(s) VT[:k, :].
        std::vector<T> us(static_cast<size_t>(m * k));
        for (int64_t j = 0; j < k; ++j)
          for (int64_t i = 0; i < m; ++i) us[i + j * m] = ub[i + j * ldu] * static_cast<T>(sv[b * k + j]);
        const auto usv = matmul(us.data(), m, vtb, ldvt, m, n, k);
        EXPECT_LE(max_diff(usv.data(), m, a.data() + b * sa, lda, m, n), tolerance<T>() * std::max(m, n));
      }
    }
  }
}

TYPED_TEST(CudaLinalgTest, GesvdZeroSizeWritesZeroInfo) {
  using T = TypeParam;
  int32_t* dinfo = this->device_buffer(2, static_cast<int32_t>(-7));
  T* da = this->device_buffer(1, static_cast<T>(T(0)));
  this->cuda_->gesvd(dtype_of<T>(), 'S', 0, 3, da, 1, 0, nullptr, nullptr, 1, 0, nullptr, 1, 0, dinfo, 2,
                     this->stream_);
  EXPECT_EQ(this->download(dinfo, 2), (std::vector<int32_t>{0, 0}));
  EXPECT_THROW(this->cuda_->gesvd(dtype_of<T>(), 'X', 2, 2, da, 2, 0, nullptr, nullptr, 2, 0, nullptr, 2, 0, dinfo, 1,
                                  this->stream_),
               ValueError);
}

// ---- Hermitian eigenproblem ------------------------------------------------------------

TYPED_TEST(CudaLinalgTest, SyevdMatchesHost) {
  using T = TypeParam;
  using R = Real<T>;
  const Dtype dt = dtype_of<T>();
  for (int64_t n : {1, 6, 40}) {
    for (bool vectors : {false, true}) {
      const int64_t lda = n + 1, stride = lda * n, batch = 2;
      std::vector<T> a(static_cast<size_t>(stride * batch), static_cast<T>(-99));
      for (int64_t b = 0; b < batch; ++b) {
        auto g = random_vector<T>(static_cast<size_t>(n * n), static_cast<unsigned>(800 + n + b));
        // Lower triangle of (G + G^H) / 2; the upper triangle holds junk the routine must ignore.
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = j; i < n; ++i) {
            T x = (g[i + j * n] + conj_of(g[j + i * n])) / static_cast<T>(2);
            if (i == j) x = static_cast<T>(std::real(x));
            a[b * stride + i + j * lda] = x;
          }
      }
      auto a_host = a;
      std::vector<R> w_host(static_cast<size_t>(n * batch));
      std::vector<int32_t> info_host(static_cast<size_t>(batch));
      this->host_->syevd(dt, vectors, n, a_host.data(), lda, stride, w_host.data(), info_host.data(), batch, 0);
      T* da = this->upload(a);
      R* dw = this->device_buffer(w_host.size(), static_cast<R>(R(0)));
      int32_t* dinfo = this->device_buffer(static_cast<size_t>(batch), static_cast<int32_t>(-7));
      this->cuda_->syevd(dt, vectors, n, da, lda, stride, dw, dinfo, batch, this->stream_);
      const auto w = this->download(dw, w_host.size());
      const auto v = this->download(da, a.size());
      const auto info = this->download(dinfo, static_cast<size_t>(batch));
      for (int64_t b = 0; b < batch; ++b) {
        SCOPED_TRACE("n=" + std::to_string(n) + " vectors=" + std::to_string(vectors) + " matrix " +
                     std::to_string(b));
        EXPECT_EQ(info[b], 0);
        for (int64_t i = 0; i < n; ++i) {
          EXPECT_NEAR(w[b * n + i], w_host[b * n + i], tolerance<T>() * n) << i;
          if (i > 0) {
            EXPECT_LE(w[b * n + i - 1], w[b * n + i]) << "not ascending at " << i;
          }
        }
        if (!vectors) continue;
        // Full Hermitian matrix from its lower triangle, then A V = V diag(w).
        std::vector<T> full(static_cast<size_t>(n * n));
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < n; ++i)
            full[i + j * n] = i >= j ? a[b * stride + i + j * lda] : conj_of(a[b * stride + j + i * lda]);
        const T* vb = v.data() + b * stride;
        EXPECT_LE(orthonormality_error(vb, lda, n, n), tolerance<T>() * n);
        const auto av = matmul(full.data(), n, vb, lda, n, n, n);
        double residual = 0;
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < n; ++i)
            residual = std::max(residual, static_cast<double>(std::abs(av[i + j * n] - vb[i + j * lda] *
                                                                                  static_cast<T>(w[b * n + j]))));
        EXPECT_LE(residual, tolerance<T>() * n);
      }
    }
  }
}

// ---- General eigenproblem --------------------------------------------------------------

// Greedy matching: max over a of min over unused b of |a - b|.
template <typename C>
double eigenvalue_set_distance(std::vector<C> a, std::vector<C> b) {
  double worst = 0;
  for (const C& x : a) {
    size_t best = 0;
    double best_d = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < b.size(); ++j) {
      const double d = std::abs(x - b[j]);
      if (d < best_d) {
        best_d = d;
        best = j;
      }
    }
    worst = std::max(worst, best_d);
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return worst;
}

TYPED_TEST(CudaLinalgTest, GeevMatchesHostEigenvaluesAndGivesUnitEigenvectors) {
  using T = TypeParam;
  using C = Cplx<T>;
  const Dtype dt = dtype_of<T>();
  for (int64_t n : {1, 2, 7, 30}) {
    for (bool vectors : {false, true}) {
      const int64_t lda = n + 1, stride = lda * n, batch = 2, ldvr = n + 2, svr = ldvr * n;
      auto a = random_vector<T>(static_cast<size_t>(stride * batch), static_cast<unsigned>(900 + n));
      auto a_host = a;
      std::vector<C> w_host(static_cast<size_t>(n * batch));
      std::vector<C> vr_host(static_cast<size_t>(svr * batch));
      std::vector<int32_t> info_host(static_cast<size_t>(batch));
      this->host_->geev(dt, vectors, n, a_host.data(), lda, stride, w_host.data(), vr_host.data(), ldvr, svr,
                        info_host.data(), batch, 0);
      T* da = this->upload(a);
      C* dw = this->device_buffer(w_host.size(), static_cast<C>(C(0)));
      C* dvr = this->device_buffer(vr_host.size(), static_cast<C>(C(0)));
      int32_t* dinfo = this->device_buffer(static_cast<size_t>(batch), static_cast<int32_t>(-7));
      this->cuda_->geev(dt, vectors, n, da, lda, stride, dw, vectors ? dvr : nullptr, ldvr, svr, dinfo, batch,
                        this->stream_);
      const auto w = this->download(dw, w_host.size());
      const auto vr = this->download(dvr, vr_host.size());
      const auto info = this->download(dinfo, static_cast<size_t>(batch));
      for (int64_t b = 0; b < batch; ++b) {
        SCOPED_TRACE("n=" + std::to_string(n) + " vectors=" + std::to_string(vectors) + " matrix " +
                     std::to_string(b));
        EXPECT_EQ(info[b], 0);
        const std::vector<C> wb(w.begin() + b * n, w.begin() + (b + 1) * n);
        const std::vector<C> wb_host(w_host.begin() + b * n, w_host.begin() + (b + 1) * n);
        EXPECT_LE(eigenvalue_set_distance(wb, wb_host), tolerance<T>() * 10 * n);
        if constexpr (!is_complex_t<T>::value) {
          // Real input: conjugate pairs are adjacent, positive imaginary part first.
          for (int64_t j = 0; j < n; ++j) {
            if (wb[j].imag() > 0) {
              ASSERT_LT(j + 1, n);
              EXPECT_LE(std::abs(wb[j + 1] - std::conj(wb[j])), tolerance<T>() * std::abs(wb[j])) << j;
              ++j;
            } else {
              EXPECT_EQ(wb[j].imag(), 0) << j;
            }
          }
        }
        if (!vectors) continue;
        const C* vb = vr.data() + b * svr;
        for (int64_t j = 0; j < n; ++j) {
          double norm2 = 0, residual = 0;
          for (int64_t i = 0; i < n; ++i) {
            norm2 += std::norm(vb[i + j * ldvr]);
            C av(0);
            for (int64_t p = 0; p < n; ++p) av += C(a[b * stride + i + p * lda]) * vb[p + j * ldvr];
            residual = std::max(residual, static_cast<double>(std::abs(av - wb[j] * vb[i + j * ldvr])));
          }
          EXPECT_NEAR(std::sqrt(norm2), 1.0, tolerance<T>() * n) << "column " << j;
          EXPECT_LE(residual, tolerance<T>() * 10 * n) << "column " << j;
        }
      }
    }
  }
}

TYPED_TEST(CudaLinalgTest, GeevOfRotationGivesConjugatePair) {
  using T = TypeParam;
  using C = Cplx<T>;
  // [[0, -1], [1, 0]] has eigenvalues +i, -i with eigenvectors (1, -i)/sqrt2, (1, i)/sqrt2.
  const std::vector<T> a = {T(0), T(1), T(-1), T(0)};
  T* da = this->upload(a);
  C* dw = this->device_buffer(2, static_cast<C>(C(0)));
  C* dvr = this->device_buffer(4, static_cast<C>(C(0)));
  int32_t* dinfo = this->device_buffer(1, static_cast<int32_t>(-7));
  this->cuda_->geev(dtype_of<T>(), true, 2, da, 2, 4, dw, dvr, 2, 4, dinfo, 1, this->stream_);
  const auto w = this->download(dw, 2);
  const auto vr = this->download(dvr, 4);
  EXPECT_EQ(this->download(dinfo, 1)[0], 0);
  const double tol = tolerance<T>();
  const std::vector<C> expected = {C(0, 1), C(0, -1)};
  EXPECT_LE(eigenvalue_set_distance(w, expected), tol);
  for (int j = 0; j < 2; ++j) {
    // A v = w v row by row: (-v1, v0) = w (v0, v1); and |v| = 1.
    const C v0 = vr[0 + 2 * j], v1 = vr[1 + 2 * j];
    EXPECT_NEAR(std::abs(-v1 - w[j] * v0), 0.0, tol) << j;
    EXPECT_NEAR(std::abs(v0 - w[j] * v1), 0.0, tol) << j;
    EXPECT_NEAR(std::norm(v0) + std::norm(v1), 1.0, tol) << j;
  }
  if constexpr (!is_complex_t<T>::value) {
    EXPECT_GT(w[0].imag(), 0);
    EXPECT_NEAR(std::abs(vr[2] - std::conj(vr[0])), 0.0, tol);
    EXPECT_NEAR(std::abs(vr[3] - std::conj(vr[1])), 0.0, tol);
  }
}

TYPED_TEST(CudaLinalgTest, ZeroBatchAndNonDevicePointers) {
  using T = TypeParam;
  const Dtype dt = dtype_of<T>();
  // batch == 0 touches nothing, so null pointers are fine.
  this->cuda_->potrf(dt, 3, nullptr, 3, 9, nullptr, 0, this->stream_);
  this->cuda_->syevd(dt, true, 3, nullptr, 3, 9, nullptr, nullptr, 0, this->stream_);
  std::vector<T> host(9, T(1));
  std::vector<int32_t> info(1);
  EXPECT_THROW(this->cuda_->potrf(dt, 3, host.data(), 3, 9, info.data(), 1, this->stream_), ValueError);
}

}  // namespace
}  // namespace kumo
