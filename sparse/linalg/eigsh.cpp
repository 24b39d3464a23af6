// eigsh by thick-restarted Lanczos, and svds on top of it.
//
// The basis V (ncv + 1 vectors of n) is kept orthonormal by classical
// Gram-Schmidt applied twice (products with V as BLAS matrix-vector
// products through kumo::matmul). The projected matrix is real symmetric
// (Hermitian Lanczos has real alpha, beta): tridiagonal, with an arrow of
// couplings to the kept Ritz vectors after each restart. Its eigenpairs come
// from kumo::linalg::eigh; the Ritz value theta_i has the residual
// |beta_m y_{m,i}|, and converges when that is <= tol * max(|theta_i|,
// eps^(2/3)) (ARPACK's test). A restart keeps the wanted Ritz vectors and as
// many of the next-best as half the free basis.
//
// Shift-invert and the generalized problem only change the operator and the
// inner product the method runs in (ARPACK's modes 2 to 5, see
// ShiftInvertMode) and map the Ritz values back afterwards.
#include "sparse/linalg/eigsh.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "linalg/linalg.h"
#include "linalg/products.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "sparse/linalg/host/krylov_system.h"
#include "sparse/linalg/iterative_inverse.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace {

using host::Real;
using host::Vec;

// The order in which Ritz values are wanted: indices into theta (ascending).
std::vector<int64_t> priority(const std::vector<double>& theta, Which which) {
  const int64_t m = static_cast<int64_t>(theta.size());
  std::vector<int64_t> idx(static_cast<size_t>(m));
  std::iota(idx.begin(), idx.end(), int64_t{0});
  switch (which) {
    case Which::kLA: std::reverse(idx.begin(), idx.end()); break;
    case Which::kSA: break;
    case Which::kLM:
      std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return std::abs(theta[a]) > std::abs(theta[b]); });
      break;
    case Which::kSM:
      std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return std::abs(theta[a]) < std::abs(theta[b]); });
      break;
    case Which::kBE: {
      // High, low, high, low, ... from the two ends.
      std::vector<int64_t> out;
      int64_t lo = 0, hi = m - 1;
      for (bool high = true; lo <= hi; high = !high) out.push_back(high ? hi-- : lo++);
      idx = out;
      break;
    }
  }
  return idx;
}

template <class T>
class Lanczos {
 public:
  using R = Real<T>;

  // b: the inner product's matrix B (x^H B y) of a generalized problem,
  // absent for the Euclidean one.
  Lanczos(const LinearOperator& op, std::optional<LinearOperator> b, int64_t n, int64_t k, int64_t m, Which which,
          double tol, int64_t maxiter, Dtype dtype)
      : op_(op), b_(std::move(b)), n_(n), k_(k), m_(m), which_(which), maxiter_(maxiter), dtype_(dtype) {
    const double eps = std::numeric_limits<R>::epsilon();
    tol_ = tol > 0 ? tol : eps;
    eps23_ = std::pow(eps, 2.0 / 3.0);
    v_ = zeros(Shape{m + 1, n}, dtype, Order::kC, host_device());
  }

  // Runs until the k wanted Ritz values converge or maxiter restarts pass.
  void run(const Array& v0) {
    Array start = v0.defined() ? v0.reshape(Shape{n_}).astype(dtype_) : random_vector();
    if (norm2(start) == 0) start = random_vector();  // a zero v0 spans nothing
    set_row(0, start, 1.0 / b_norm(start, apply_b(start)));
    t_.assign(static_cast<size_t>(m_ * m_), 0.0);
    int64_t kept = 0;
    for (int64_t restart = 0;; ++restart) {
      extend(kept);
      ritz();
      const std::vector<int64_t> order = priority(theta_, which_);
      int64_t nconv = 0;
      for (int64_t i = 0; i < k_; ++i) nconv += converged(order[i]);
      wanted_.assign(order.begin(), order.begin() + k_);
      converged_ = nconv == k_;
      if (converged_ || restart + 1 >= maxiter_) break;
      // Thick restart: the wanted Ritz vectors and the next-best ones.
      kept = std::min<int64_t>(m_ - 1, k_ + (m_ - k_) / 2);
      restart_with(std::vector<int64_t>(order.begin(), order.begin() + kept));
    }
  }

  // The wanted Ritz values (converged ones only when not all converged)
  // and vectors, ascending.
  void results(bool vectors, std::vector<double>* values, Array* x) const {
    std::vector<int64_t> sel;
    for (int64_t i : wanted_)
      if (converged_ || converged(i)) sel.push_back(i);
    std::sort(sel.begin(), sel.end(), [&](int64_t a, int64_t b) { return theta_[a] < theta_[b]; });
    values->clear();
    for (int64_t i : sel) values->push_back(theta_[i]);
    if (vectors) *x = combine(sel).transpose().copy(Order::kC);  // (n, k)
  }

  bool all_converged() const { return converged_; }

 private:
  // Basis vector i (a view), and src written into it.
  Array row(int64_t i) const { return v_.index({IndexItem(i)}); }
  Array rows(int64_t count) const { return v_.index({IndexItem::slice(0, count, 1)}); }
  // v_i = x * scale.
  void set_row(int64_t i, const Array& x, double scale) const {
    kumo::multiply(x, Scalar(scale)).astype(dtype_).copy_to(row(i));
  }
  Array apply_b(const Array& x) const { return b_ ? b_->matvec(x).astype(dtype_, Order::kC, true) : x; }
  // sqrt(x^H B x) from x and B x.
  double b_norm(const Array& x, const Array& bx) const {
    if (!b_) return norm2(x);
    const Array xh = host::kIsComplex<T> ? kumo::conj(x) : x;
    const Array d = kumo::matmul(xh, bx).astype(Dtype::kComplex128);
    return std::sqrt(std::max(0.0, reinterpret_cast<const std::complex<double>*>(d.data())->real()));
  }

  static double norm2(const Array& x) {
    return kumo::linalg::norm(x).template item<double>();
  }

  Array random_vector() {
    Array r = Array::empty(Shape{n_}, dtype_, host_device());
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    T* p = reinterpret_cast<T*>(r.data());
    for (int64_t i = 0; i < n_; ++i) {
      if constexpr (host::kIsComplex<T>) p[i] = T(static_cast<R>(u(rng_)), static_cast<R>(u(rng_)));
      else p[i] = static_cast<T>(u(rng_));
    }
    return r;
  }

  // w minus its B-projection on the first `count` basis vectors (twice,
  // for orthogonality to working precision), with bw = B w; returns
  // the projection's coefficients summed over both passes.
  Array orthogonalize(Array& w, Array& bw, int64_t count) {
    const Array basis = rows(count);
    Array total;
    for (int pass = 0; pass < 2; ++pass) {
      // c = V^H B w; w -= V^T c (as row vectors: c = conj(V conj(B w))).
      Array c = host::kIsComplex<T> ? kumo::conj(kumo::matmul(basis, kumo::conj(bw))) : kumo::matmul(basis, bw);
      w = kumo::subtract(w, kumo::matmul(c, basis)).astype(dtype_);
      // B w afresh rather than updated: an updated one drifts, and dividing
      // by a small beta (converging Ritz values) amplifies the drift.
      bw = apply_b(w);
      total = pass == 0 ? c : kumo::add(total, c);
    }
    return total;
  }

  double& t(int64_t i, int64_t j) { return t_[static_cast<size_t>(i * m_ + j)]; }
  double t(int64_t i, int64_t j) const { return t_[static_cast<size_t>(i * m_ + j)]; }

  // Lanczos steps j = from .. m-1; v_m and beta_m end as the residual.
  void extend(int64_t from) {
    for (int64_t j = from; j < m_; ++j) {
      Array w = op_.matvec(row(j)).astype(dtype_, Order::kC, true);
      Array bw = apply_b(w);
      const double wnorm = b_norm(w, bw);
      const Array c = orthogonalize(w, bw, j + 1);
      t(j, j) = std::real(reinterpret_cast<const std::complex<double>*>(c.astype(Dtype::kComplex128).data())[j]);
      double beta = b_norm(w, bw);
      if (beta <= std::numeric_limits<R>::epsilon() * wnorm) {
        // An invariant subspace: continue from a random vector orthogonal to it.
        w = random_vector();
        bw = apply_b(w);
        orthogonalize(w, bw, j + 1);
        set_row(j + 1, w, 1.0 / b_norm(w, bw));
        beta = 0;
      } else {
        set_row(j + 1, w, 1.0 / beta);
      }
      if (j + 1 < m_) t(j, j + 1) = t(j + 1, j) = beta;
      beta_ = beta;
    }
  }

  void ritz() {
    Array tm = Array::empty(Shape{m_, m_}, Dtype::kFloat64, host_device());
    std::copy(t_.begin(), t_.end(), reinterpret_cast<double*>(tm.data()));
    auto [w, y] = kumo::linalg::eigh(tm);
    const Array wc = w.astype(Dtype::kFloat64, Order::kC, true), yc = y.astype(Dtype::kFloat64, Order::kC, true);
    theta_.assign(reinterpret_cast<const double*>(wc.data()), reinterpret_cast<const double*>(wc.data()) + m_);
    y_.assign(reinterpret_cast<const double*>(yc.data()), reinterpret_cast<const double*>(yc.data()) + m_ * m_);
  }

  double y(int64_t i, int64_t j) const { return y_[static_cast<size_t>(i * m_ + j)]; }

  bool converged(int64_t i) const {
    return std::abs(beta_ * y(m_ - 1, i)) <= tol_ * std::max(std::abs(theta_[i]), eps23_);
  }

  // The Ritz vectors V[:m]^T Y[:, sel] as rows (|sel|, n).
  Array combine(const std::vector<int64_t>& sel) const {
    const int64_t s = static_cast<int64_t>(sel.size());
    Array ys = Array::empty(Shape{s, m_}, Dtype::kFloat64, host_device());
    double* p = reinterpret_cast<double*>(ys.data());
    for (int64_t a = 0; a < s; ++a)
      for (int64_t l = 0; l < m_; ++l) p[a * m_ + l] = y(l, sel[a]);
    return kumo::matmul(ys.astype(dtype_), rows(m_)).astype(dtype_);
  }

  void restart_with(const std::vector<int64_t>& sel) {
    const int64_t kept = static_cast<int64_t>(sel.size());
    const Array ritz_vectors = combine(sel);
    const Array residual = row(m_).copy(Order::kC);
    ritz_vectors.copy_to(rows(kept));
    set_row(kept, residual, 1.0);
    std::vector<double> next(static_cast<size_t>(m_ * m_), 0.0);
    for (int64_t a = 0; a < kept; ++a) {
      next[static_cast<size_t>(a * m_ + a)] = theta_[sel[a]];
      const double s = beta_ * y(m_ - 1, sel[a]);
      next[static_cast<size_t>(a * m_ + kept)] = next[static_cast<size_t>(kept * m_ + a)] = s;
    }
    t_ = next;
  }

  LinearOperator op_;
  std::optional<LinearOperator> b_;
  int64_t n_, k_, m_;
  Which which_;
  int64_t maxiter_;
  Dtype dtype_;
  double tol_ = 0, eps23_ = 0, beta_ = 0;
  Array v_;  // the basis, B-orthonormal
  std::vector<double> t_, theta_, y_;
  std::vector<int64_t> wanted_;
  bool converged_ = false;
  std::mt19937_64 rng_{0x6c616e637a6f73};
};

const char* mode_name(ShiftInvertMode mode) {
  switch (mode) {
    case ShiftInvertMode::kNormal: return "normal";
    case ShiftInvertMode::kBuckling: return "buckling";
    case ShiftInvertMode::kCayley: return "cayley";
  }
  return "normal";
}

std::string shape_text(Shape2 s) { return "(" + std::to_string(s.rows) + ", " + std::to_string(s.cols) + ")"; }

void check_options(const LinearOperator& a, const EigshOptions& o) {
  const std::string name = host::call_name("eigsh");
  if (a.shape().rows != a.shape().cols) throw ValueError("expected square matrix (shape=" + shape_text(a.shape()) + ")");
  const int64_t n = a.shape().rows;
  if (o.k <= 0) throw ValueError("k must be greater than 0.");
  if (o.k >= n) throw ValueError("k must be less than ndim(A), k=" + std::to_string(o.k));
  if (o.maxiter && *o.maxiter <= 0) throw ValueError("maxiter must be positive, maxiter=" + std::to_string(*o.maxiter));
  if (is_complex(a.dtype()) && o.mode != ShiftInvertMode::kNormal)
    throw ValueError(std::string("mode=") + mode_name(o.mode) + " cannot be used with complex matrix A");
  if (o.m && o.m->shape() != a.shape())
    throw ValueError("wrong M dimensions " + shape_text(o.m->shape()) + ", should be " + shape_text(a.shape()));
  if (o.minv && !o.m) throw ValueError("Minv should not be specified with M = None.");
  if (o.opinv && !o.sigma) throw ValueError("OPinv should not be specified with sigma = None.");
  if (o.sigma) {
    if (o.minv) throw ValueError("Minv should not be specified when sigma is specified.");
    if (o.opinv && o.opinv->shape() != a.shape())
      throw ValueError(name + ": OPinv has shape " + shape_text(o.opinv->shape()) + ", should be " + shape_text(a.shape()));
    // With sigma = 0 both transformations collapse to the identity (nu = 1
    // for every eigenvalue), so nothing could be recovered.
    if (o.mode != ShiftInvertMode::kNormal && *o.sigma == 0)
      throw ValueError(name + ": mode='" + mode_name(o.mode) + "' needs a nonzero sigma");
  } else if (o.minv && o.minv->shape() != a.shape()) {
    throw ValueError(name + ": Minv has shape " + shape_text(o.minv->shape()) + ", should be " + shape_text(a.shape()));
  }
}

// What Lanczos runs on, by ARPACK's mode: the operator, the matrix of its
// inner product (absent: Euclidean) and, under shift-invert, the operator
// (A - sigma M)^-1 M the eigenvectors are purified with.
struct SpectralTransform {
  LinearOperator op;
  std::optional<LinearOperator> inner;
  std::optional<LinearOperator> shift_inverse;
};

SpectralTransform spectral_transform(const LinearOperator& a, const EigshOptions& o) {
  if (!o.sigma) {
    // A x = lambda M x as M^-1 A, self-adjoint in the M inner product.
    if (o.m) return {multiply(o.minv ? *o.minv : iterative_inverse(*o.m, o.tol, "M"), a), o.m, std::nullopt};
    return {a, std::nullopt, std::nullopt};
  }
  const LinearOperator m = o.m ? *o.m : identity_operator(a.shape(), a.dtype());
  const LinearOperator opinv =
      o.opinv ? *o.opinv : iterative_inverse(add(a, scale(m, -*o.sigma, false)), o.tol, "[A - sigma M]");
  const LinearOperator shift_inverse = o.m ? multiply(opinv, m) : opinv;
  switch (o.mode) {
    case ShiftInvertMode::kNormal:
      return {shift_inverse, o.m, shift_inverse};
    case ShiftInvertMode::kBuckling:
      return {multiply(opinv, a), a, shift_inverse};
    case ShiftInvertMode::kCayley:
      return {multiply(opinv, add(a, scale(m, *o.sigma, false))), o.m, shift_inverse};
  }
  return {a, std::nullopt, std::nullopt};
}

// lambda from a Ritz value nu of the transformed operator.
double back_transform(double nu, const EigshOptions& o) {
  if (!o.sigma) return nu;
  const double sigma = *o.sigma;
  switch (o.mode) {
    case ShiftInvertMode::kNormal: return sigma + 1.0 / nu;
    case ShiftInvertMode::kBuckling: return sigma * nu / (nu - 1.0);
    case ShiftInvertMode::kCayley: return sigma * (nu + 1.0) / (nu - 1.0);
  }
  return nu;
}

// The eigenvectors z_i (columns of x) after one step of inverse iteration,
// (lambda_i - sigma) (A - sigma M)^-1 M z_i, which is z_i for an exact one:
// ARPACK purifies its mode-3 vectors so. With a singular M, Lanczos in the
// M inner product cannot see (or orthogonalize away) the rounding errors in
// M's null space; this step removes them, in every mode.
template <class T>
Array purified(const LinearOperator& shift_inverse, double sigma, const std::vector<double>& lambda, const Array& x) {
  const int64_t n = x.shape()[0], k = x.shape()[1];
  const Array px = shift_inverse.matmat(x).astype(x.dtype(), Order::kC, true);
  Array out = x.copy(Order::kC);
  const T* src = reinterpret_cast<const T*>(px.data());
  T* dst = reinterpret_cast<T*>(out.data());
  for (int64_t c = 0; c < k; ++c) {
    const double scale = lambda[c] - sigma;
    if (!std::isfinite(scale)) continue;  // nu = 0: lambda at infinity, nothing to iterate towards
    for (int64_t i = 0; i < n; ++i) dst[i * k + c] = src[i * k + c] * static_cast<Real<T>>(scale);
  }
  return out;
}

// Orders values ascending and the columns of x (n, k) with them.
template <class T>
void sort_pairs(std::vector<double>* values, Array* x) {
  const int64_t kk = static_cast<int64_t>(values->size());
  std::vector<int64_t> idx(static_cast<size_t>(kk));
  std::iota(idx.begin(), idx.end(), int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t p, int64_t q) { return (*values)[p] < (*values)[q]; });
  std::vector<double> sorted;
  for (int64_t i : idx) sorted.push_back((*values)[i]);
  *values = sorted;
  if (!x->defined() || kk == 0) return;
  const int64_t n = x->shape()[0];
  Array y = Array::empty(x->shape(), x->dtype(), host_device());
  const T* src = reinterpret_cast<const T*>(x->data());
  T* dst = reinterpret_cast<T*>(y.data());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t c = 0; c < kk; ++c) dst[i * kk + c] = src[i * kk + idx[c]];
  *x = y;
}

}  // namespace

EigshResult eigsh(const LinearOperator& a, const EigshOptions& o) {
  check_options(a, o);
  const int64_t n = a.shape().rows;
  const int64_t ncv = o.ncv ? *o.ncv : std::min(n, std::max<int64_t>(2 * o.k + 1, 20));
  if (ncv > n || ncv <= o.k) throw ValueError("ncv must be k<ncv<=n, ncv=" + std::to_string(ncv));
  const int64_t maxiter = o.maxiter ? *o.maxiter : n * 10;
  const SpectralTransform t = spectral_transform(a, o);
  const Dtype dtype = host::floating(a.dtype());
  EigshResult r;
  host::visit_float(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Lanczos<T> lz(t.op, t.inner, n, o.k, ncv, o.which, o.tol, maxiter, dtype);
    lz.run(o.v0 ? *o.v0 : Array());
    std::vector<double> values;
    Array x;
    lz.results(o.return_eigenvectors, &values, &x);
    for (double& v : values) v = back_transform(v, o);
    if (t.shift_inverse && x.defined() && !values.empty()) x = purified<T>(*t.shift_inverse, *o.sigma, values, x);
    sort_pairs<T>(&values, &x);
    Array w = Array::empty(Shape{static_cast<int64_t>(values.size())}, Dtype::kFloat64, host_device());
    std::copy(values.begin(), values.end(), reinterpret_cast<double*>(w.data()));
    r.w = w.astype(is_complex(dtype) ? (dtype == Dtype::kComplex64 ? Dtype::kFloat32 : Dtype::kFloat64) : dtype);
    r.v = x;
    r.converged = lz.all_converged();
  });
  return r;
}

namespace {
// x^H for a 2-d array (a copy for complex dtypes).
Array herm(const Array& x) { return is_complex(x.dtype()) ? kumo::conj(x.transpose()) : x.transpose(); }
// x reversed along axis (0 or 1), copied.
Array reversed(const Array& x, int axis) {
  const IndexItem all = IndexItem::slice(std::nullopt, std::nullopt, 1);
  const IndexItem rev = IndexItem::slice(std::nullopt, std::nullopt, -1);
  if (x.ndim() == 1) return x.index({rev}).copy(Order::kC);
  return (axis == 0 ? x.index({rev, all}) : x.index({all, rev})).copy(Order::kC);
}
}  // namespace

SvdsResult svds(const LinearOperator& a, int64_t k, Which which, std::optional<Array> v0, std::optional<int64_t> ncv,
                std::optional<int64_t> maxiter, double tol, bool return_singular_vectors) {
  const int64_t rows = a.shape().rows, cols = a.shape().cols;
  const int64_t p = std::min(rows, cols);
  if (k <= 0 || k >= p) throw ValueError("k must be an integer satisfying 0 < k < min(A.shape).");
  if (which != Which::kLM && which != Which::kSM) throw ValueError("`which` must be in {'LM', 'SM'}.");
  if (tol < 0) throw ValueError("`tol` must be a non-negative number.");
  // X has at least as many rows as columns; the eigenproblem is X^H X (p x p).
  const bool transposed = rows < cols;
  const LinearOperator x = transposed ? adjoint(a) : a;
  EigshOptions e;
  e.k = k;
  e.which = which;
  e.v0 = std::move(v0);
  e.ncv = ncv;
  e.maxiter = maxiter;
  e.tol = tol * tol;
  const EigshResult er = eigsh(multiply(adjoint(x), x), e);
  SvdsResult r;
  r.converged = er.converged;
  const Array q = kumo::linalg::qr(er.v).Q;
  const Array av = x.matmat(q);
  if (!return_singular_vectors) {
    r.s = reversed(kumo::linalg::svdvals(av), 0);
    return r;
  }
  auto [u, sv, vh] = kumo::linalg::svd(av, false);
  u = reversed(u, 1);
  r.s = reversed(sv, 0);
  vh = reversed(vh, 0);
  if (transposed) {
    r.u = kumo::matmul(q, herm(vh));
    r.vh = herm(u).copy(Order::kC);
  } else {
    r.u = u;
    r.vh = kumo::matmul(vh, herm(q));
  }
  return r;
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
