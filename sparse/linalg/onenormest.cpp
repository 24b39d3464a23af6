// The block 1-norm estimator of Higham and Tisseur ("A block algorithm for
// matrix 1-norm estimation, with an application to 1-norm pseudospectra",
// SIAM J. Matrix Anal. Appl. 21(4), 2000), Algorithm 2.4, with the
// parallel-column resampling and the starting matrix SciPy's onenormest
// uses. The products with A and A^H go through the operator (matmat /
// rmatmat on (n, t) blocks); the bookkeeping is on the host.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <random>
#include <vector>

#include "core/errors.h"
#include "routines/creation.h"
#include "sparse/linalg/norm.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace {

using Block = std::vector<std::complex<double>>;  // n x t, row-major

// An (n, t) block as an Array of dtype, and back.
Array to_array(const Block& x, int64_t n, int64_t t, Dtype dtype) {
  Array a = Array::empty(Shape{n, t}, Dtype::kComplex128, host_device());
  std::copy(x.begin(), x.end(), reinterpret_cast<std::complex<double>*>(a.data()));
  return is_complex(dtype) ? a : a.real_view().astype(Dtype::kFloat64, Order::kC, true);
}
Block from_array(const Array& a) {
  const Array c = a.astype(Dtype::kComplex128, Order::kC, true);
  const auto* p = reinterpret_cast<const std::complex<double>*>(c.data());
  return Block(p, p + c.size());
}

// Column j of x (n x t) dotted with column k of y, without conjugation
// (for the +-1 sign vectors the parallel test looks at).
std::complex<double> column_dot(const Block& x, int64_t j, const Block& y, int64_t k, int64_t n, int64_t t) {
  std::complex<double> s = 0;
  for (int64_t i = 0; i < n; ++i) s += x[i * t + j] * y[i * t + k];
  return s;
}

bool parallel(const Block& x, int64_t j, const Block& y, int64_t k, int64_t n, int64_t t) {
  return column_dot(x, j, y, k, n, t) == std::complex<double>(static_cast<double>(n));
}

class Estimator {
 public:
  Estimator(const LinearOperator& a, int64_t t, int64_t itmax)
      : a_(a), ah_(adjoint(a)), n_(a.shape().rows), t_(t), itmax_(itmax), rng_(0x6b756d6f) {}

  OneNormEstimate run() {
    const int64_t n = n_, t = t_;
    OneNormEstimate r;
    // The first column is all ones (exact for nonnegative matrices at the
    // second step), the others random +-1 and not parallel to earlier ones.
    Block x(static_cast<size_t>(n * t), 1.0);
    for (int64_t j = 1; j < t; ++j) resample(x, j);
    for (int64_t j = 0; j < t; ++j)
      while (needs_resampling(x, j, nullptr)) {
        resample(x, j);
        ++r.nresamples;
      }
    for (auto& v : x) v /= static_cast<double>(n);
    std::vector<int64_t> ind_hist, ind;
    double est_old = 0;
    Block s(static_cast<size_t>(n * t), 0.0), s_old;
    int64_t ind_best = 0;
    Block w;
    for (int64_t k = 1;; ++k) {
      const Block y = product(a_, x, &r);
      // The column with the largest 1-norm.
      std::vector<double> mags(static_cast<size_t>(t), 0.0);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < t; ++j) mags[j] += std::abs(y[i * t + j]);
      const int64_t best_j = std::max_element(mags.begin(), mags.end()) - mags.begin();
      double est = mags[best_j];
      if (est > est_old || k == 2) {
        if (k >= 2) ind_best = ind[best_j];
        w.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) w[i] = y[i * t + best_j];
      }
      if (k >= 2 && est <= est_old) {
        r.est = est_old;
        break;
      }
      r.est = est;
      est_old = est;
      s_old = s;
      if (k > itmax_) break;
      // S = sign(Y), sign(0) = 1.
      for (size_t i = 0; i < s.size(); ++i) s[i] = y[i] == 0.0 ? 1.0 : y[i] / std::abs(y[i]);
      if (every_column_parallel(s, s_old)) break;
      if (t > 1)
        for (int64_t j = 0; j < t; ++j)
          while (needs_resampling(s, j, &s_old)) {
            resample(s, j);
            ++r.nresamples;
          }
      const Block z = product(ah_, s, &r);
      std::vector<double> h(static_cast<size_t>(n), 0.0);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < t; ++j) h[i] = std::max(h[i], std::abs(z[i * t + j]));
      if (k >= 2 && *std::max_element(h.begin(), h.end()) == h[ind_best]) break;
      // Indices by decreasing h (ties: the larger index first, as a reversed
      // stable ascending sort), keeping t + |hist| of them.
      std::vector<int64_t> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), int64_t{0});
      std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) { return h[p] < h[q]; });
      std::reverse(order.begin(), order.end());
      order.resize(static_cast<size_t>(std::min<int64_t>(n, t + static_cast<int64_t>(ind_hist.size()))));
      const auto seen = [&](int64_t i) { return std::find(ind_hist.begin(), ind_hist.end(), i) != ind_hist.end(); };
      if (t > 1) {
        bool all_seen = true;
        for (int64_t j = 0; j < t && j < static_cast<int64_t>(order.size()); ++j) all_seen = all_seen && seen(order[j]);
        if (all_seen) break;
        std::stable_partition(order.begin(), order.end(), [&](int64_t i) { return !seen(i); });
      }
      ind = order;
      std::fill(x.begin(), x.end(), 0.0);
      for (int64_t j = 0; j < t; ++j) x[ind[j] * t + j] = 1.0;
      std::vector<int64_t> fresh;
      for (int64_t j = 0; j < t; ++j)
        if (!seen(ind[j])) fresh.push_back(ind[j]);
      ind_hist.insert(ind_hist.end(), fresh.begin(), fresh.end());
    }
    r.v = zeros(Shape{n}, Dtype::kFloat64, Order::kC, host_device());
    reinterpret_cast<double*>(r.v.data())[ind_best] = 1.0;
    r.w = to_array(w, n, 1, a_.dtype()).reshape(Shape{n});
    return r;
  }

 private:
  Block product(const LinearOperator& op, const Block& x, OneNormEstimate* r) {
    ++r->nmults;
    return from_array(op.matmat(to_array(x, n_, t_, a_.dtype())));
  }

  void resample(Block& x, int64_t j) {
    for (int64_t i = 0; i < n_; ++i) x[i * t_ + j] = (rng_() & 1) ? 1.0 : -1.0;
  }

  // Column j parallel to an earlier column of x or to any column of y.
  bool needs_resampling(const Block& x, int64_t j, const Block* y) {
    for (int64_t k = 0; k < j; ++k)
      if (parallel(x, j, x, k, n_, t_)) return true;
    if (y)
      for (int64_t k = 0; k < t_; ++k)
        if (parallel(x, j, *y, k, n_, t_)) return true;
    return false;
  }

  bool every_column_parallel(const Block& x, const Block& y) {
    for (int64_t j = 0; j < t_; ++j) {
      bool found = false;
      for (int64_t k = 0; k < t_ && !found; ++k) found = parallel(x, j, y, k, n_, t_);
      if (!found) return false;
    }
    return true;
  }

  LinearOperator a_, ah_;
  int64_t n_, t_, itmax_;
  std::mt19937_64 rng_;
};

}  // namespace

OneNormEstimate onenormest(const LinearOperator& a, int64_t t, int64_t itmax) {
  if (a.shape().rows != a.shape().cols) throw ValueError("expected the operator to act like a square matrix");
  const int64_t n = a.shape().cols;
  if (t >= n) {
    // Exact: the columns of A and their 1-norms.
    const Array dense = a.matmat(eye(n, n, 0, Dtype::kFloat64));
    const Block d = from_array(dense);
    int64_t best = 0;
    double best_sum = -1;
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t i = 0; i < n; ++i) s += std::abs(d[i * n + j]);
      if (s > best_sum) {
        best_sum = s;
        best = j;
      }
    }
    OneNormEstimate r;
    r.est = n > 0 ? best_sum : 0;
    r.v = zeros(Shape{n}, Dtype::kFloat64, Order::kC, host_device());
    if (n > 0) reinterpret_cast<double*>(r.v.data())[best] = 1.0;
    Block w(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) w[i] = d[i * n + best];
    r.w = to_array(w, n, 1, dense.dtype()).reshape(Shape{n}).astype(dense.dtype());
    return r;
  }
  if (itmax < 2) throw ValueError("at least two iterations are required");
  if (t < 1) throw ValueError("at least one column is required");
  return Estimator(a, t, itmax).run();
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
