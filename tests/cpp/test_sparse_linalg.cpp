// kumo::sparse::linalg from C++: the solvers, norms, SuperLU and eigsh on a
// 1-d Laplacian (tridiagonal, symmetric positive definite) whose solutions
// and eigenvalues are known in closed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kumo/kumo.h"
#include "sparse/portable_sparse.h"

using namespace kumo;
using namespace kumo::sparse::linalg;

namespace {

// tridiag(-1, 2, -1) of order n in CSR.
sparse::CsrMatrix laplacian(int64_t n) {
  std::vector<double> data;
  std::vector<int32_t> indices, indptr{0};
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i - 1; j <= i + 1; ++j) {
      if (j < 0 || j >= n) continue;
      data.push_back(i == j ? 2.0 : -1.0);
      indices.push_back(static_cast<int32_t>(j));
    }
    indptr.push_back(static_cast<int32_t>(data.size()));
  }
  return sparse::make_csr(asarray(data), asarray(indices), asarray(indptr), sparse::Shape2{n, n});
}

// max |A x - b| for the Laplacian.
double residual(const sparse::CsrMatrix& a, const Array& x, const Array& b) {
  const std::vector<double> r = subtract(sparse::matmul(a, x), b).to_vector<double>();
  double m = 0;
  for (double v : r) m = std::max(m, std::abs(v));
  return m;
}

TEST(SparseLinalg, KrylovSolversSolveTheLaplacian) {
  const int64_t n = 200;
  const sparse::CsrMatrix a = laplacian(n);
  const Array b = ones(Shape{n});
  SolverOptions o;
  o.rtol = 1e-10;
  const LinearOperator op = aslinearoperator(a);
  for (auto solve : {cg, bicg, bicgstab, cgs}) {
    const SolveResult r = solve(op, b, o);
    EXPECT_EQ(r.info, 0);
    EXPECT_LT(residual(a, r.x, b), 1e-6);
  }
  GmresOptions g;
  g.rtol = 1e-10;
  g.restart = 250;
  EXPECT_EQ(gmres(op, b, g).info, 0);
  MinresOptions m;
  m.rtol = 1e-12;
  EXPECT_LT(residual(a, minres(op, b, m).x, b), 1e-6);
}

// The device path of the solvers (generated kernels, as on CUDA arrays),
// taken by host arrays while the portable sparse switch is on, reaches the
// host loops' solution in the same number of iterations.
TEST(SparseLinalg, DevicePathEqualsHostLoops) {
  const int64_t n = 200;
  const sparse::CsrMatrix a = laplacian(n);
  const Array b = ones(Shape{n});
  SolverOptions o;
  o.rtol = 1e-10;
  int64_t host_iterations = 0, device_iterations = 0;
  o.callback = [&](const Array&) { ++host_iterations; };
  const SolveResult host = cg(aslinearoperator(a), b, o);
  sparse::set_portable_sparse_on_host(true);
  o.callback = [&](const Array&) { ++device_iterations; };
  const SolveResult device = cg(aslinearoperator(a), b, o);
  sparse::set_portable_sparse_on_host(false);
  EXPECT_EQ(device.info, 0);
  EXPECT_EQ(device_iterations, host_iterations);
  const std::vector<double> hx = host.x.to_vector<double>(), dx = device.x.to_vector<double>();
  for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(dx[i], hx[i], 1e-9 * std::abs(hx[i]));
}

TEST(SparseLinalg, CgReportsMaxiter) {
  SolverOptions o;
  o.maxiter = 3;
  o.rtol = 1e-12;
  EXPECT_EQ(cg(aslinearoperator(laplacian(100)), ones(Shape{100}), o).info, 3);
}

TEST(SparseLinalg, SpluSolvesAndNormsAreExact) {
  const int64_t n = 50;
  const sparse::CsrMatrix a = laplacian(n);
  const Array b = ones(Shape{n});
  const SuperLU lu = splu(sparse::tocsc(a));
  EXPECT_LT(residual(a, lu.solve(b), b), 1e-10);
  EXPECT_FALSE(spsolve(a, b).singular);
  EXPECT_DOUBLE_EQ(norm(a, kumo::linalg::NormOrder(1.0)).astype(Dtype::kFloat64).item<double>(), 4.0);
  EXPECT_NEAR(onenormest(aslinearoperator(a)).est, 4.0, 1e-12);
}

TEST(SparseLinalg, EigshFindsTheLaplacianSpectrum) {
  const int64_t n = 100;
  EigshOptions o;
  o.k = 3;
  o.which = Which::kLA;
  const EigshResult r = eigsh(aslinearoperator(laplacian(n)), o);
  ASSERT_TRUE(r.converged);
  const std::vector<double> w = r.w.to_vector<double>();
  // Eigenvalues 2 - 2 cos(j pi / (n + 1)), j = n - 2 .. n.
  for (int i = 0; i < 3; ++i) {
    const double j = static_cast<double>(n - 2 + i);
    EXPECT_NEAR(w[i], 2.0 - 2.0 * std::cos(j * M_PI / static_cast<double>(n + 1)), 1e-10);
  }
}

// tridiag(-1, 2, -1) eigenvalue j (1-based) of order n.
double laplacian_eigenvalue(int64_t j, int64_t n) {
  return 2.0 - 2.0 * std::cos(static_cast<double>(j) * M_PI / static_cast<double>(n + 1));
}

// c I of order n in CSR.
sparse::CsrMatrix scaled_identity(int64_t n, double c) {
  std::vector<double> data(static_cast<size_t>(n), c);
  std::vector<int32_t> indices, indptr{0};
  for (int64_t i = 0; i < n; ++i) {
    indices.push_back(static_cast<int32_t>(i));
    indptr.push_back(static_cast<int32_t>(i + 1));
  }
  return sparse::make_csr(asarray(data), asarray(indices), asarray(indptr), sparse::Shape2{n, n});
}

// A x = lambda (2 I) x has the Laplacian's eigenvalues halved; each mode of
// shift-invert, with a SuperLU OPinv and with the GMRES fallback, finds the
// three nearest sigma = 0.5 (the largest |nu| in all three transformations).
TEST(SparseLinalg, EigshShiftInvertModesOfAPencil) {
  const int64_t n = 60;
  const double sigma = 0.5;
  const sparse::CsrMatrix a = laplacian(n), m = scaled_identity(n, 2.0);
  std::vector<double> half;
  for (int64_t j = 1; j <= n; ++j) half.push_back(laplacian_eigenvalue(j, n) / 2);
  std::sort(half.begin(), half.end(), [&](double p, double q) { return std::abs(p - sigma) < std::abs(q - sigma); });
  std::vector<double> want(half.begin(), half.begin() + 3);
  std::sort(want.begin(), want.end());
  const SuperLU lu = splu(sparse::tocsc(sparse::subtract(a, sparse::multiply(m, Scalar(sigma)))));
  for (ShiftInvertMode mode : {ShiftInvertMode::kNormal, ShiftInvertMode::kBuckling, ShiftInvertMode::kCayley}) {
    for (bool factored : {true, false}) {
      EigshOptions o;
      o.k = 3;
      o.sigma = sigma;
      o.mode = mode;
      o.m = aslinearoperator(m);
      if (factored) o.opinv = inverse_operator(lu);
      const EigshResult r = eigsh(aslinearoperator(a), o);
      ASSERT_TRUE(r.converged);
      const std::vector<double> w = r.w.to_vector<double>();
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(w[i], want[i], factored ? 1e-10 : 1e-7);
    }
  }
}

TEST(SparseLinalg, EigshRejectsBucklingAtSigmaZero) {
  EigshOptions o;
  o.k = 2;
  o.sigma = 0.0;
  o.mode = ShiftInvertMode::kBuckling;
  EXPECT_THROW(eigsh(aslinearoperator(laplacian(10)), o), ValueError);
}

TEST(SparseLinalg, DensePencilEighIsMOrthonormal) {
  const int64_t n = 8;
  const Array a = sparse::toarray(laplacian(n)), m = sparse::toarray(scaled_identity(n, 4.0));
  const EigshResult r = dense_pencil_eigh(a, m, true);
  const std::vector<double> w = r.w.to_vector<double>();
  for (int64_t j = 0; j < n; ++j) EXPECT_NEAR(w[j], laplacian_eigenvalue(j + 1, n) / 4, 1e-12);
  // V^T M V = I: with M = 4 I, every column has norm 1/2.
  const std::vector<double> g = matmul(r.v.transpose(), matmul(m, r.v)).to_vector<double>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) EXPECT_NEAR(g[i * n + j], i == j ? 1.0 : 0.0, 1e-12);
}

}  // namespace
