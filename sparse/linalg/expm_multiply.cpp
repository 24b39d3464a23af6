// Al-Mohy and Higham's exp(tA) B (see expm_multiply.h). The table of
// theta_m (the largest ||tA||_1 for which a degree-m Taylor series meets
// double precision) is from their paper: Table A.3 of Higham's "Functions
// of Matrices" for m <= 30, Table 3.1 of the 2011 paper beyond.
#include "sparse/linalg/expm_multiply.h"

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/errors.h"
#include "linalg/linalg.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "sparse/linalg/host/krylov_system.h"
#include "sparse/linalg/norm.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace {

const std::map<int, double>& theta() {
  static const std::map<int, double> table = {
      {1, 2.29e-16}, {2, 2.58e-8}, {3, 1.39e-5}, {4, 3.40e-4}, {5, 2.40e-3}, {6, 9.07e-3}, {7, 2.38e-2},
      {8, 5.00e-2},  {9, 8.96e-2}, {10, 1.44e-1}, {11, 2.14e-1}, {12, 3.00e-1}, {13, 4.00e-1}, {14, 5.14e-1},
      {15, 6.41e-1}, {16, 7.81e-1}, {17, 9.31e-1}, {18, 1.09}, {19, 1.26}, {20, 1.44}, {21, 1.62},
      {22, 1.82},    {23, 2.01},  {24, 2.22},  {25, 2.43},  {26, 2.64},  {27, 2.86},  {28, 3.08},
      {29, 3.31},    {30, 3.54},  {35, 4.7},   {40, 6.0},   {45, 7.2},   {50, 8.5},   {55, 9.9}};
  return table;
}

constexpr int kMMax = 55;
constexpr int kEll = 2;  // columns of the 1-norm estimates
constexpr double kTol = 1.1102230246251565e-16;  // 2^-53

// The largest p with p (p - 1) <= m_max + 1.
int p_max(int m_max) {
  int best = 0;
  for (int p = 1; p * (p - 1) <= m_max + 1; ++p) best = p;
  return best;
}

// ||(tA)^p||_1^(1/p), estimated once per p.
class PowerNorms {
 public:
  explicit PowerNorms(LinearOperator ta) : ta_(std::move(ta)) {}
  double d(int p) {
    auto it = d_.find(p);
    if (it != d_.end()) return it->second;
    const double est = onenormest(power(ta_, p), kEll).est;
    return d_[p] = std::pow(est, 1.0 / p);
  }
  double alpha(int p) { return std::max(d(p), d(p + 1)); }

 private:
  LinearOperator ta_;
  std::map<int, double> d_;
};

// (m*, s): the Taylor degree and the number of steps (the paper's
// Code Fragment 3.1), for ||tA||_1 = norm1 and n0 columns of B.
std::pair<int, int64_t> degree_and_steps(double norm1, int64_t n0, PowerNorms& norms) {
  int best_m = 0;
  int64_t best_s = 0;
  const auto consider = [&](int m, int64_t s) {
    if (best_m == 0 || static_cast<double>(m) * s < static_cast<double>(best_m) * best_s) {
      best_m = m;
      best_s = s;
    }
  };
  const int pm = p_max(kMMax);
  // Condition (3.13): ||A||_1 small enough that the cheap bound suffices.
  const double bound = 2.0 * kEll * pm * (pm + 3) * theta().at(kMMax) / static_cast<double>(n0 * kMMax);
  if (norm1 <= bound) {
    for (const auto& [m, th] : theta()) consider(m, static_cast<int64_t>(std::ceil(norm1 / th)));
  } else {
    for (int p = 2; p <= pm; ++p)
      for (int m = p * (p - 1) - 1; m <= kMMax; ++m) {
        auto it = theta().find(m);
        if (it != theta().end()) consider(m, static_cast<int64_t>(std::ceil(norms.alpha(p) / it->second)));
      }
  }
  return {best_m, std::max<int64_t>(best_s, 1)};
}

double inf_norm(const Array& x) {
  return kumo::linalg::norm(x, kumo::linalg::NormOrder(INFINITY)).item<double>();
}

// The core (the paper's Algorithm 3.2): F = e^(t mu) T_m*(tA / s)^s B.
Array taylor_steps(const LinearOperator& shifted, Array b, double t, std::complex<double> mu, int m_star, int64_t s,
                   bool complex_result) {
  const auto product = [&](const Array& x) { return x.ndim() == 1 ? shifted.matvec(x) : shifted.matmat(x); };
  const std::complex<double> eta = std::exp(t * mu / static_cast<double>(s));
  const Scalar eta_s = complex_result ? Scalar(eta) : Scalar(eta.real());
  Array f = b;
  for (int64_t i = 0; i < s; ++i) {
    double c1 = inf_norm(b);
    for (int j = 0; j < m_star; ++j) {
      const double coeff = t / static_cast<double>(s * (j + 1));
      b = kumo::multiply(product(b), Scalar(coeff));
      const double c2 = inf_norm(b);
      f = kumo::add(f, b);
      if (c1 + c2 <= kTol * inf_norm(f)) break;
      c1 = c2;
    }
    f = kumo::multiply(f, eta_s);
    b = f;
  }
  return f;
}

void check_operands(const LinearOperator& a, const Array& b) {
  if (a.shape().rows != a.shape().cols) throw ValueError("expected A to be like a square matrix");
  if (b.ndim() != 1 && b.ndim() != 2) throw ValueError("expected B to be like a matrix or a vector");
  if (b.shape()[0] != a.shape().cols)
    throw ValueError("shapes of matrices A (" + std::to_string(a.shape().rows) + ", " +
                     std::to_string(a.shape().cols) + ") and B are incompatible");
}

}  // namespace

Array expm_multiply(const LinearOperator& a, const Array& b, double t, std::complex<double> trace,
                    std::optional<double> onenorm) {
  check_operands(a, b);
  const int64_t n = a.shape().rows;
  const bool complex_result = is_complex(a.dtype()) || is_complex(b.dtype()) || trace.imag() != 0;
  const Dtype dtype = complex_result ? Dtype::kComplex128 : Dtype::kFloat64;
  const Array b0 = b.astype(dtype, Order::kC, true);
  if (n == 0) return b0;
  const std::complex<double> mu = trace / static_cast<double>(n);
  const LinearOperator shifted =
      mu == 0.0 ? a : add(a, scale(identity_operator(a.shape(), dtype), -mu, complex_result));
  const double norm1 = onenorm ? *onenorm : onenormest(shifted).est;
  const int64_t n0 = b.ndim() == 1 ? 1 : b.shape()[1];
  int m_star = 0;
  int64_t s = 1;
  if (t * norm1 != 0) {
    PowerNorms norms(scale(shifted, t, false));
    std::tie(m_star, s) = degree_and_steps(t * norm1, n0, norms);
  }
  // Computed in double precision; returned in the operands' dtype as
  // SciPy's (non-floating dtypes count as float64).
  Dtype out = host::system_dtype(a.dtype(), b.dtype());
  if (complex_result && !is_complex(out)) out = promote_types(out, Dtype::kComplex64);
  return taylor_steps(shifted, b0, t, mu, m_star, s, complex_result).astype(out);
}

namespace {
// A device's matrix and b are computed on the host (the step count comes
// from norm estimates that run there) and the result goes back: the
// staging decision of docs/sparse_linalg.md.
bool on_device(const CsrMatrix& a, const Array& b, const char* call) {
  if (a.data.device().type() == DeviceType::kCPU && b.device().type() == DeviceType::kCPU) return false;
  if (&a.data.device() != &b.device())
    throw DeviceError(std::string(call) + ": A is on " + a.data.device().name() + " but B on " + b.device().name());
  return true;
}
CsrMatrix host_copy(const CsrMatrix& a) {
  return CsrMatrix{a.data.to_device("cpu"), a.indices.to_device("cpu"), a.indptr.to_device("cpu"), a.shape};
}
}  // namespace

Array expm_multiply(const CsrMatrix& a, const Array& b, double t) {
  if (on_device(a, b, "kumo.sparse.linalg.expm_multiply"))
    return expm_multiply(host_copy(a), b.to_device("cpu"), t).to_device(b.device());
  // The trace, and the exact 1-norm of A - mu I (a sparse matrix of its own).
  const Array diag = diagonal(a).astype(Dtype::kComplex128);
  std::complex<double> trace = 0;
  const auto* dp = reinterpret_cast<const std::complex<double>*>(diag.data());
  for (int64_t i = 0; i < diag.size(); ++i) trace += dp[i];
  const int64_t n = a.shape.rows;
  if (a.shape.rows != a.shape.cols) throw ValueError("expected A to be like a square matrix");
  const bool complex_a = is_complex(a.dtype()) || trace.imag() != 0;
  const Dtype dtype = complex_a ? Dtype::kComplex128 : Dtype::kFloat64;
  const std::complex<double> mu = n > 0 ? trace / static_cast<double>(n) : 0.0;
  // mu I as CSR: indices and indptr 0..n.
  const Array idx = arange(int64_t{0}, n + 1, 1, Dtype::kInt64, host_device());
  const CsrMatrix mu_i = make_csr(full(Shape{n}, complex_a ? Scalar(mu) : Scalar(mu.real()), dtype, Order::kC,
                                       host_device()),
                                  idx.index({IndexItem::slice(0, n, 1)}), idx, a.shape);
  const CsrMatrix shifted = subtract(astype(a, dtype), mu_i);
  const double norm1 = n > 0 ? norm(shifted, kumo::linalg::NormOrder(1.0)).astype(Dtype::kFloat64).item<double>() : 0;
  return expm_multiply(aslinearoperator(a), b, t, trace, norm1);
}

Array expm_multiply_interval(const CsrMatrix& a, const Array& b, double start, double stop, int64_t num,
                             bool endpoint) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  if (num < 2) throw ValueError("at least two time points are required");
  if (on_device(a, b, "kumo.sparse.linalg.expm_multiply"))
    return expm_multiply_interval(host_copy(a), b.to_device("cpu"), start, stop, num, endpoint).to_device(b.device());
  std::vector<Array> points;
  const double h = (stop - start) / static_cast<double>(endpoint ? num - 1 : num);
  Array x = expm_multiply(a, b, start);
  for (int64_t q = 0; q < num; ++q) {
    if (q > 0) x = expm_multiply(a, x, h);
    points.push_back(x);
  }
  return stack(points, 0);
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
