// eigsh by thick-restarted Lanczos, and svds on top of it.
//
// The basis V (ncv + 1 vectors of n) is kept orthonormal by classical
// Gram-Schmidt applied twice (products with V as BLAS matrix-vector
// products through kumo::matmul). The projected matrix is real symmetric
// (Hermitian Lanczos has real alpha, beta): tridiagonal, with an arrow of
// couplings to the kept Ritz vectors after each restart. Its eigenpairs come
// from kumo::linalg::eigh; the Ritz value theta_i has the residual
// |beta_m y_{m,i}|, and converges when that is <= tol * max(|theta_i|,
// eps^(2/3)) (ARPACK's test). Converged wanted pairs are locked: they leave
// the active basis, and later vectors are orthogonalized against them. A
// restart keeps the wanted Ritz vectors not yet locked and two more. With
// the default ncv the basis widens (up to twice) when no wanted pair has
// converged for 25 restarts, which interior eigenvalues (which='SM' under
// shift-invert) need; an ncv the caller gave is kept.
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
  // Ascending first: theta holds locked values before the active ones.
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return theta[a] < theta[b]; });
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
      for (bool high = true; lo <= hi; high = !high) out.push_back(high ? idx[hi--] : idx[lo++]);
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
  // absent for the Euclidean one. max_ncv: how far the basis may widen
  // (ncv when the caller chose it).
  Lanczos(const LinearOperator& op, std::optional<LinearOperator> b, int64_t n, int64_t k, int64_t ncv,
          int64_t max_ncv, Which which, double tol, int64_t maxiter, Dtype dtype)
      : op_(op), b_(std::move(b)), n_(n), k_(k), ncv_(ncv), ncv_step_(std::max<int64_t>(1, ncv / 2)),
        max_ncv_(std::max(ncv, max_ncv)), m_(ncv), which_(which), maxiter_(maxiter), dtype_(dtype) {
    const double eps = std::numeric_limits<R>::epsilon();
    tol_ = tol > 0 ? tol : eps;
    eps23_ = std::pow(eps, 2.0 / 3.0);
    v_ = zeros(Shape{m_ + 1, n}, dtype, Order::kC, host_device());
    locked_ = zeros(Shape{k, n}, dtype, Order::kC, host_device());
  }

  // Runs until the k wanted Ritz values converge or maxiter restarts pass.
  void run(const Array& v0) {
    Array start = v0.defined() ? v0.reshape(Shape{n_}).astype(dtype_) : random_vector();
    if (norm2(start) == 0) start = random_vector();  // a zero v0 spans nothing
    set_row(0, start, 1.0 / b_norm(start, apply_b(start)));
    t_.assign(static_cast<size_t>(m_ * m_), 0.0);
    int64_t kept = 0, last_progress = 0;
    for (int64_t restart = 0;; ++restart) {
      extend(kept);
      ritz();
      select_wanted();
      std::vector<int64_t> newly_locked;
      for (int64_t i : wanted_active_)
        if (converged(i)) newly_locked.push_back(i);
      converged_ = newly_locked.size() == wanted_active_.size();
      if (converged_ || restart + 1 >= maxiter_) break;
      lock(newly_locked);
      if (!newly_locked.empty()) last_progress = restart;
      // Stagnation (no wanted pair converged for a while; interior
      // eigenvalues such as 'SM' under shift-invert): a wider basis, when
      // the caller left ncv to us.
      if (restart - last_progress >= kStagnantRestarts && ncv_ < max_ncv_) {
        ncv_ = std::min(max_ncv_, ncv_ + ncv_step_);
        last_progress = restart;
      }
      // Thick restart: the wanted Ritz vectors not locked, and two more of
      // the next-best, as the active basis of the next cycle.
      const int64_t still_wanted = static_cast<int64_t>(wanted_active_.size() - newly_locked.size());
      const int64_t next_m = std::max(ncv_ - nlocked_, still_wanted + 1);
      std::vector<int64_t> sel;
      for (int64_t i : priority(theta_, which_)) {
        if (std::find(newly_locked.begin(), newly_locked.end(), i) != newly_locked.end()) continue;
        if (static_cast<int64_t>(sel.size()) == std::min(next_m - 1, still_wanted + kExtraKept)) break;
        sel.push_back(i);
      }
      restart_with(sel, next_m);
      kept = static_cast<int64_t>(sel.size());
    }
  }

  // The wanted Ritz values (converged ones only when not all converged)
  // and vectors, ascending.
  void results(bool vectors, std::vector<double>* values, Array* x) const {
    struct Pick {
      double value;
      int64_t locked, active;  // one of them is -1
    };
    std::vector<Pick> picks;
    for (int64_t i : wanted_locked_) picks.push_back({locked_theta_[static_cast<size_t>(i)], i, -1});
    for (int64_t i : wanted_active_)
      if (converged_ || converged(i)) picks.push_back({theta_[static_cast<size_t>(i)], -1, i});
    std::sort(picks.begin(), picks.end(), [](const Pick& a, const Pick& b) { return a.value < b.value; });
    values->clear();
    for (const Pick& p : picks) values->push_back(p.value);
    if (!vectors) return;
    std::vector<int64_t> active;
    for (const Pick& p : picks)
      if (p.active >= 0) active.push_back(p.active);
    const Array ritz_vectors = active.empty() ? Array() : combine(active);
    Array out = Array::empty(Shape{static_cast<int64_t>(picks.size()), n_}, dtype_, host_device());
    int64_t next_active = 0;
    for (size_t r = 0; r < picks.size(); ++r) {
      const Array src = picks[r].locked >= 0 ? locked_.index({IndexItem(picks[r].locked)})
                                             : ritz_vectors.index({IndexItem(next_active++)});
      src.copy_to(out.index({IndexItem(static_cast<int64_t>(r))}));
    }
    *x = out.transpose().copy(Order::kC);  // (n, k)
  }

  bool all_converged() const { return converged_; }

 private:
  // Restarts without a newly converged wanted pair before the basis widens.
  static constexpr int64_t kStagnantRestarts = 25;
  // Ritz vectors kept beyond the wanted ones at a restart. Few: a long
  // fresh Krylov segment per cycle converges interior eigenvalues (which =
  // 'SM' of a shift-inverted pencil) several times faster than keeping half
  // the basis, and extremal ones no slower.
  static constexpr int64_t kExtraKept = 2;

  // Basis vector i (a view), and src written into it.
  Array row(int64_t i) const { return v_.index({IndexItem(i)}); }
  Array rows(int64_t count) const { return v_.index({IndexItem::slice(0, count, 1)}); }
  Array locked_rows() const { return locked_.index({IndexItem::slice(0, nlocked_, 1)}); }
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

  // c = V^H B w for the rows of `basis` (as row vectors: conj(V conj(B w))).
  static Array projection(const Array& basis, const Array& bw) {
    return host::kIsComplex<T> ? kumo::conj(kumo::matmul(basis, kumo::conj(bw))) : kumo::matmul(basis, bw);
  }

  // w minus its B-projection on the locked vectors and the first `count`
  // basis vectors (twice, for orthogonality to working precision), with
  // bw = B w; returns the basis coefficients summed over both passes.
  Array orthogonalize(Array& w, Array& bw, int64_t count) {
    const Array basis = rows(count);
    const Array locked = locked_rows();
    Array total;
    for (int pass = 0; pass < 2; ++pass) {
      Array c = projection(basis, bw);
      Array update = kumo::matmul(c, basis);
      if (nlocked_ > 0) update = kumo::add(update, kumo::matmul(projection(locked, bw), locked));
      w = kumo::subtract(w, update).astype(dtype_);
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

  // The k wanted values among the locked and the active Ritz values
  // together: a pair found later may outrank one locked earlier.
  void select_wanted() {
    std::vector<double> all(locked_theta_);
    all.insert(all.end(), theta_.begin(), theta_.end());
    const std::vector<int64_t> order = priority(all, which_);
    wanted_locked_.clear();
    wanted_active_.clear();
    for (int64_t r = 0; r < k_; ++r) {
      if (order[r] < nlocked_) wanted_locked_.push_back(order[r]);
      else wanted_active_.push_back(order[r] - nlocked_);
    }
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

  // Converged wanted Ritz pairs leave the active basis for good (locking):
  // later vectors are orthogonalized against them, and rounding in later
  // cycles can no longer pull them back (without it, converged pairs of a
  // slowly converging problem came undone and were found again).
  void lock(const std::vector<int64_t>& sel) {
    if (sel.empty()) return;
    const Array vectors = combine(sel);
    const int64_t count = static_cast<int64_t>(sel.size());
    if (nlocked_ + count > locked_.shape()[0]) {
      Array wider = zeros(Shape{nlocked_ + count + k_, n_}, dtype_, Order::kC, host_device());
      if (nlocked_ > 0) locked_rows().copy_to(wider.index({IndexItem::slice(0, nlocked_, 1)}));
      locked_ = wider;
    }
    vectors.copy_to(locked_.index({IndexItem::slice(nlocked_, nlocked_ + count, 1)}));
    for (int64_t i : sel) locked_theta_.push_back(theta_[static_cast<size_t>(i)]);
    nlocked_ += count;
  }

  // The kept Ritz vectors, the residual after them, and the arrowhead
  // projected matrix of size next_m (the basis widens when next_m grows).
  void restart_with(const std::vector<int64_t>& sel, int64_t next_m) {
    const int64_t kept = static_cast<int64_t>(sel.size());
    const Array ritz_vectors = combine(sel);
    const Array residual = row(m_).copy(Order::kC);
    if (next_m + 1 > v_.shape()[0]) v_ = zeros(Shape{next_m + 1, n_}, dtype_, Order::kC, host_device());
    ritz_vectors.copy_to(rows(kept));
    set_row(kept, residual, 1.0);
    std::vector<double> next(static_cast<size_t>(next_m * next_m), 0.0);
    for (int64_t a = 0; a < kept; ++a) {
      next[static_cast<size_t>(a * next_m + a)] = theta_[sel[a]];
      const double s = beta_ * y(m_ - 1, sel[a]);
      next[static_cast<size_t>(a * next_m + kept)] = next[static_cast<size_t>(kept * next_m + a)] = s;
    }
    t_ = next;
    m_ = next_m;
  }

  LinearOperator op_;
  std::optional<LinearOperator> b_;
  int64_t n_, k_;
  int64_t ncv_;       // locked plus active vectors
  int64_t ncv_step_;  // how much a widening adds
  int64_t max_ncv_;
  int64_t m_;  // the active basis (v_ has m_ + 1 rows in use)
  Which which_;
  int64_t maxiter_;
  Dtype dtype_;
  double tol_ = 0, eps23_ = 0, beta_ = 0;
  Array v_;  // the active basis, B-orthonormal
  Array locked_;  // converged Ritz vectors (rows), B-orthonormal to v_
  int64_t nlocked_ = 0;
  std::vector<double> locked_theta_;
  std::vector<double> t_, theta_, y_;
  std::vector<int64_t> wanted_locked_, wanted_active_;
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
  // With SciPy's default ncv the basis may widen to twice that when the
  // iteration stagnates; an ncv the caller gave is kept.
  const int64_t max_ncv = o.ncv ? ncv : std::min(n, 2 * ncv);
  const SpectralTransform t = spectral_transform(a, o);
  const Dtype dtype = host::floating(a.dtype());
  EigshResult r;
  host::visit_float(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Lanczos<T> lz(t.op, t.inner, n, o.k, ncv, max_ncv, o.which, o.tol, maxiter, dtype);
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
