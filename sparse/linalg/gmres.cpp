// Restarted GMRES with SciPy's inner/outer tolerance control: the inner
// Arnoldi loop (modified Gram-Schmidt, Givens rotations on the Hessenberg
// matrix) stops at an adaptive tolerance on the preconditioned residual
// estimate, and each cycle ends with the true residual b - A x.
#include <cmath>
#include <limits>
#include <vector>

#include "sparse/linalg/host/krylov_system.h"
#include "sparse/linalg/isolve.h"

namespace kumo {
namespace sparse {
namespace linalg {
namespace host {
namespace {

// A plane rotation [c s; -conj(s) c] (c real) taking (f, g) to (r, 0).
template <class T>
void rotation(T f, T g, Real<T>* c, T* s, T* r) {
  using R = Real<T>;
  if (g == T(0)) {
    *c = 1;
    *s = T(0);
    *r = f;
  } else if (f == T(0)) {
    const R ag = std::abs(g);
    *c = 0;
    *s = conj_of(g) / ag;
    *r = T(ag);
  } else {
    const R af = std::abs(f), d = std::hypot(af, static_cast<R>(std::abs(g)));
    const T phase = f / af;
    *c = af / d;
    *s = phase * conj_of(g) / d;
    *r = phase * d;
  }
}

template <class T>
SolveResult gmres_typed(const LinearOperator& a, const Array& b, const GmresOptions& o) {
  using R = Real<T>;
  const char* name = "gmres";
  System<T> s = make_system<T>(a, b, o, system_dtype(a.dtype(), b.dtype()), name);
  const int64_t n = s.n;
  const double bnrm2 = nrm2(s.b);
  const double atol = stopping_tolerance(o.atol, o.rtol, bnrm2, name);
  if (bnrm2 == 0) return SolveResult{s.b.array, 0};
  const double eps = std::numeric_limits<R>::epsilon();
  const int64_t maxiter = o.maxiter ? *o.maxiter : n * 10;
  const int64_t restart = std::min<int64_t>(o.restart ? *o.restart : 20, n);
  if (restart < 1) throw ValueError(call_name(name) + ": restart must be positive");
  const GmresCallbackType cb = o.callback_type;
  const bool legacy = cb == GmresCallbackType::kLegacy;

  const double mb_nrm2 = nrm2(psolve(s, s.b, name));
  double ptol_max_factor = 1.0;
  double ptol = mb_nrm2 * std::min(ptol_max_factor, atol / bnrm2);
  double presid = 0;
  // H column-major by Arnoldi step: h[col * (restart + 1) + k] = H(k, col).
  const int64_t ld = restart + 1;
  std::vector<T> h(static_cast<size_t>(restart * ld)), sn(static_cast<size_t>(restart)), g(static_cast<size_t>(ld));
  std::vector<R> cs(static_cast<size_t>(restart));
  std::vector<Vec<T>> v(static_cast<size_t>(restart + 1));
  for (auto& vk : v) vk = new_vec(s.b);
  const auto H = [&](int64_t row, int64_t col) -> T& { return h[static_cast<size_t>(col * ld + row)]; };

  Vec<T> x = s.x;
  Vec<T> r;
  double rnorm = 0;
  int64_t inner_iter = 0;
  for (int64_t iteration = 0; iteration < maxiter; ++iteration) {
    if (iteration == 0) {
      r = residual(a, s, name);
      if (nrm2(r) < atol) return SolveResult{x.array, 0};
    }
    const Vec<T> z = psolve(s, r, name);
    const R beta = nrm2(z);
    {
      scaled(T(R(1) / beta), z, v[0]);
    }
    std::fill(g.begin(), g.end(), T(0));
    g[0] = T(beta);
    bool breakdown = false;
    int64_t col = 0;
    for (col = 0; col < restart; ++col) {
      const Vec<T> w0 = psolve(s, apply(a, v[static_cast<size_t>(col)], name), name);
      // Gram-Schmidt works in place: a copy when the operators handed back
      // their input (an identity).
      Vec<T> w = w0.array.shares_memory_with(v[static_cast<size_t>(col)].array) ? copy_vec(w0) : w0;
      const R h0 = nrm2(w);
      for (int64_t k = 0; k <= col; ++k) {
        const T hk = dot(v[static_cast<size_t>(k)], w);
        H(k, col) = hk;
        axpy(-hk, v[static_cast<size_t>(k)], w);
      }
      const R h1 = nrm2(w);
      H(col + 1, col) = T(h1);
      Vec<T>& next = v[static_cast<size_t>(col + 1)];
      if (h1 <= eps * h0) {
        H(col + 1, col) = T(0);
        breakdown = true;
        assign(next, w);
      } else {
        scaled(T(R(1) / h1), w, next);
      }
      for (int64_t k = 0; k < col; ++k) {
        const T n0 = H(k, col), n1 = H(k + 1, col);
        H(k, col) = cs[k] * n0 + sn[k] * n1;
        H(k + 1, col) = -conj_of(sn[k]) * n0 + cs[k] * n1;
      }
      T mag;
      rotation(H(col, col), H(col + 1, col), &cs[col], &sn[col], &mag);
      H(col, col) = mag;
      H(col + 1, col) = T(0);
      const T tmp = -conj_of(sn[col]) * g[col];
      g[col] = cs[col] * g[col];
      g[col + 1] = tmp;
      presid = std::abs(tmp);
      ++inner_iter;
      if ((legacy || cb == GmresCallbackType::kPrNorm) && o.residual_callback) o.residual_callback(presid / bnrm2);
      if (legacy && inner_iter == maxiter) break;
      if (presid <= ptol || breakdown) break;
    }
    if (col == restart) --col;  // the loop ran out: col is the last step
    // Back substitution with the triangular R, a zero pivot skipped (SciPy's
    // pseudo-solve of a singular R).
    if (H(col, col) == T(0)) g[col] = T(0);
    std::vector<T> y(g.begin(), g.begin() + col + 1);
    for (int64_t k = col; k > 0; --k) {
      if (y[k] != T(0)) {
        y[k] /= H(k, k);
        const T t = y[k];
        for (int64_t i = 0; i < k; ++i) y[i] -= t * H(i, k);
      }
    }
    if (y[0] != T(0)) y[0] /= H(0, 0);
    if (x.on_host_loops()) {
      blocks_for(n, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
          T acc(0);
          for (int64_t k = 0; k <= col; ++k) acc += y[k] * v[static_cast<size_t>(k)].p[i];
          x.p[i] += acc;
        }
      });
    } else {
      for (int64_t k = 0; k <= col; ++k) axpy(y[k], v[static_cast<size_t>(k)], x);
    }
    const Vec<T> ax = apply(a, x, name);
    r = new_vec(s.b);
    sub(s.b, ax, r);
    rnorm = nrm2(r);
    if (legacy && inner_iter == maxiter) return SolveResult{x.array, rnorm <= atol ? 0 : maxiter};
    if (cb == GmresCallbackType::kX) report(o.callback, x);
    if (rnorm <= atol || breakdown) break;
    if (presid <= ptol) ptol_max_factor = std::max(eps, 0.25 * ptol_max_factor);
    else ptol_max_factor = std::min(1.0, 1.5 * ptol_max_factor);
    ptol = presid * std::min(ptol_max_factor, atol / rnorm);
  }
  return SolveResult{x.array, rnorm <= atol ? 0 : maxiter};
}

}  // namespace
}  // namespace host

SolveResult gmres(const LinearOperator& a, const Array& b, const GmresOptions& o) {
  host::check_rhs(a, b, "gmres", true);
  return host::visit_float(host::system_dtype(a.dtype(), b.dtype()), [&](auto tag) {
    return host::gmres_typed<typename decltype(tag)::type>(a, b, o);
  });
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
