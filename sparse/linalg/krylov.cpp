// cg, bicg, bicgstab and cgs: the short-recurrence Krylov solvers, with
// SciPy's stopping tests, breakdown codes and iteration counts (see
// isolve.h). Each is a template over the computation type T, run once per
// call for the system's dtype.
#include <cmath>
#include <limits>
#include <string>

#include "sparse/linalg/host/krylov_system.h"
#include "sparse/linalg/isolve.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace host {

Dtype floating(Dtype d) {
  switch (d) {
    case Dtype::kFloat32:
    case Dtype::kFloat64:
    case Dtype::kComplex64:
    case Dtype::kComplex128: return d;
    default: return Dtype::kFloat64;
  }
}

Dtype system_dtype(Dtype a, Dtype b) { return promote_types(floating(a), floating(b)); }

std::string call_name(const char* name) { return std::string("kumo.sparse.linalg.") + name; }

namespace {
std::string dims(const Array& x) {
  std::string s = "(";
  for (int i = 0; i < x.ndim(); ++i) s += (i ? ", " : "") + std::to_string(x.shape()[i]);
  return s + (x.ndim() == 1 ? ",)" : ")");
}
std::string dims(Shape2 s) { return "(" + std::to_string(s.rows) + ", " + std::to_string(s.cols) + ")"; }
}  // namespace

void check_rhs(const LinearOperator& a, const Array& b, const char* name, bool square) {
  if (square && a.shape().rows != a.shape().cols)
    throw ValueError(call_name(name) + ": expected square matrix, but got shape=" + dims(a.shape()));
  const int64_t n = a.shape().rows;
  const bool ok = (b.ndim() == 1 && b.shape()[0] == n) || (b.ndim() == 2 && b.shape()[0] == n && b.shape()[1] == 1);
  if (!ok)
    throw ValueError(call_name(name) + ": shapes of A " + dims(a.shape()) + " and b " + dims(b) + " are incompatible");
}

void check_x0(int64_t n, const LinearOperator& a, const Array& x0, const char* name) {
  const bool ok =
      (x0.ndim() == 1 && x0.shape()[0] == n) || (x0.ndim() == 2 && x0.shape()[0] == n && x0.shape()[1] == 1);
  if (!ok)
    throw ValueError(call_name(name) + ": shapes of A " + dims(a.shape()) + " and x0 " + dims(x0) +
                     " are incompatible");
}

double stopping_tolerance(double atol, double rtol, double bnrm2, const char* name) {
  if (!(atol >= 0))
    throw ValueError("'" + call_name(name) + "' called with invalid `atol`=" + std::to_string(atol) +
                     "; if set, `atol` must be a real, non-negative number.");
  return std::max(atol, rtol * bnrm2);
}

namespace {

template <class T>
constexpr double eps_of() {
  return std::numeric_limits<Real<T>>::epsilon();
}

// The opening every short-recurrence solver shares: the system, ||b||, the
// tolerance and maxiter. Returns false (and sets `out`) when b = 0.
template <class T>
struct Setup {
  System<T> s;
  double bnrm2 = 0, atol = 0;
  int64_t maxiter = 0;
};

template <class T>
Setup<T> setup(const LinearOperator& a, const Array& b, const SolverOptions& o, const char* name) {
  Setup<T> st;
  st.s = make_system<T>(a, b, o, system_dtype(a.dtype(), b.dtype()), name);
  st.bnrm2 = static_cast<double>(nrm2(st.s.b));
  st.atol = stopping_tolerance(o.atol, o.rtol, st.bnrm2, name);
  st.maxiter = o.maxiter ? *o.maxiter : st.s.n * 10;
  return st;
}

template <class T>
SolveResult result(const Vec<T>& x, int64_t info) {
  return SolveResult{x.array, info};
}

template <class T>
SolveResult cg_typed(const LinearOperator& a, const Array& b, const SolverOptions& o) {
  const char* name = "cg";
  Setup<T> st = setup<T>(a, b, o, name);
  System<T>& s = st.s;
  if (st.bnrm2 == 0) return result(s.b, 0);
  Vec<T> x = s.x;
  Vec<T> r = residual(a, s, name);
  Vec<T> p;
  T rho_prev(0);
  // Without a preconditioner z = r, so rho = |r|^2 comes with the residual
  // update and each iteration is one SpMV, one dot and two fused passes.
  Real<T> rr = static_cast<Real<T>>(nrm2(r));
  rr *= rr;
  for (int64_t it = 0; it < st.maxiter; ++it) {
    if (std::sqrt(static_cast<double>(rr)) < st.atol) return result(x, 0);
    const Vec<T> z = psolve(s, r, name);
    const T rho = s.has_m ? dot(r, z) : T(rr);
    if (it > 0) {
      xpay(z, rho / rho_prev, p);
    } else {
      p = copy_vec(z);
    }
    const Vec<T> q = apply(a, p, name);
    const T alpha = rho / dot(p, q);
    rr = update_xr(alpha, p, q, x, r);
    rho_prev = rho;
    report(o.callback, x);
  }
  return result(x, st.maxiter);
}

template <class T>
SolveResult bicg_typed(const LinearOperator& a, const Array& b, const SolverOptions& o) {
  const char* name = "bicg";
  Setup<T> st = setup<T>(a, b, o, name);
  System<T>& s = st.s;
  if (st.bnrm2 == 0) return result(s.b, 0);
  const double rhotol = eps_of<T>() * eps_of<T>();
  Vec<T> x = s.x;
  Vec<T> r = residual(a, s, name);
  Vec<T> rt = copy_vec(r);
  Vec<T> p, pt;
  T rho_prev(0);
  for (int64_t it = 0; it < st.maxiter; ++it) {
    if (nrm2(r) < st.atol) return result(x, 0);
    const Vec<T> z = psolve(s, r, name);
    const Vec<T> zt = rpsolve(s, rt, name);
    const T rho = dot(rt, z);
    if (std::abs(rho) < rhotol) return result(x, -10);
    if (it > 0) {
      const T beta = rho / rho_prev;
      xpay(z, beta, p);
      xpay(zt, conj_of(beta), pt);
    } else {
      p = copy_vec(z);
      pt = copy_vec(zt);
    }
    const Vec<T> q = apply(a, p, name);
    const Vec<T> qt = apply_adjoint(a, pt, name);
    const T rv = dot(pt, q);
    if (rv == T(0)) return result(x, -11);
    const T alpha = rho / rv;
    axpy(alpha, p, x);
    axpy(-alpha, q, r);
    axpy(-conj_of(alpha), qt, rt);
    rho_prev = rho;
    report(o.callback, x);
  }
  return result(x, st.maxiter);
}

template <class T>
SolveResult bicgstab_typed(const LinearOperator& a, const Array& b, const SolverOptions& o) {
  const char* name = "bicgstab";
  Setup<T> st = setup<T>(a, b, o, name);
  System<T>& s = st.s;
  if (st.bnrm2 == 0) return result(s.b, 0);
  const double rhotol = eps_of<T>() * eps_of<T>(), omegatol = rhotol;
  Vec<T> x = s.x;
  Vec<T> r = residual(a, s, name);
  Vec<T> rt = copy_vec(r);
  Vec<T> p, v, sv;
  T rho_prev(0), omega(0), alpha(0);
  for (int64_t it = 0; it < st.maxiter; ++it) {
    if (nrm2(r) < st.atol) return result(x, 0);
    const T rho = dot(rt, r);
    if (std::abs(rho) < rhotol) return result(x, -10);
    if (it > 0) {
      if (std::abs(omega) < omegatol) return result(x, -11);
      const T beta = (rho / rho_prev) * (alpha / omega);
      fused<T>({"kumo_bicgstab_p", "T r, T v", "T p", "p = r + s[0] * (p - s[1] * v)"}, {beta, omega}, {r, v}, {p},
               [&](int64_t i) { p.p[i] = r.p[i] + beta * (p.p[i] - omega * v.p[i]); });
    } else {
      p = copy_vec(r);
      sv = new_vec(r);
    }
    const Vec<T> phat = psolve(s, p, name);
    v = apply(a, phat, name);
    const T rv = dot(rt, v);
    if (rv == T(0)) return result(x, -11);
    alpha = rho / rv;
    axpy(-alpha, v, r);
    assign(sv, r);
    if (nrm2(sv) < st.atol) {
      axpy(alpha, phat, x);
      return result(x, 0);
    }
    const Vec<T> shat = psolve(s, sv, name);
    const Vec<T> t = apply(a, shat, name);
    omega = dot(t, sv) / dot(t, t);
    fused<T>({"kumo_bicgstab_xr", "T phat, T shat, T t", "T x, T r",
              "x += s[0] * phat; x += s[1] * shat; r -= s[1] * t"},
             {alpha, omega}, {phat, shat, t}, {x, r}, [&](int64_t i) {
               x.p[i] += alpha * phat.p[i];
               x.p[i] += omega * shat.p[i];
               r.p[i] -= omega * t.p[i];
             });
    rho_prev = rho;
    report(o.callback, x);
  }
  return result(x, st.maxiter);
}

template <class T>
SolveResult cgs_typed(const LinearOperator& a, const Array& b, const SolverOptions& o) {
  const char* name = "cgs";
  Setup<T> st = setup<T>(a, b, o, name);
  System<T>& s = st.s;
  if (st.bnrm2 == 0) return result(s.b, 0);
  const double rhotol = eps_of<T>() * eps_of<T>();
  Vec<T> x = s.x;
  Vec<T> r = residual(a, s, name);
  Vec<T> rt = copy_vec(r);
  Vec<T> p, u, q;
  Vec<T> uq = new_vec(s.b);
  T rho_prev(0);
  for (int64_t it = 0; it < st.maxiter; ++it) {
    if (nrm2(r) < st.atol) return result(x, 0);
    const T rho = dot(rt, r);
    if (std::abs(rho) < rhotol) return result(x, -10);
    if (it > 0) {
      const T beta = rho / rho_prev;
      fused<T>({"kumo_cgs_up", "T r, T q", "T u, T p", "u = r + s[0] * q; p = u + s[0] * (q + s[0] * p)"}, {beta},
               {r, q}, {u, p}, [&](int64_t i) {
                 u.p[i] = r.p[i] + beta * q.p[i];
                 p.p[i] = u.p[i] + beta * (q.p[i] + beta * p.p[i]);
               });
    } else {
      p = copy_vec(r);
      u = copy_vec(r);
      q = new_vec(s.b);
    }
    const Vec<T> phat = psolve(s, p, name);
    const Vec<T> vhat = apply(a, phat, name);
    const T rv = dot(rt, vhat);
    if (rv == T(0)) return result(x, -11);
    const T alpha = rho / rv;
    fused<T>({"kumo_cgs_quq", "T u, T vhat", "T q, T uq", "q = u - s[0] * vhat; uq = u + q"}, {alpha}, {u, vhat},
             {q, uq}, [&](int64_t i) {
               q.p[i] = u.p[i] - alpha * vhat.p[i];
               uq.p[i] = u.p[i] + q.p[i];
             });
    const Vec<T> uhat = psolve(s, uq, name);
    axpy(alpha, uhat, x);
    // The true residual, not the recurrence: rounding builds up in CGS's.
    const Vec<T> ax = apply(a, x, name);
    sub(s.b, ax, r);
    rho_prev = rho;
    report(o.callback, x);
  }
  return result(x, st.maxiter);
}

template <template <class> class Solver, class Opts>
SolveResult dispatch(const LinearOperator& a, const Array& b, const Opts& o, const char* name, bool square) {
  check_rhs(a, b, name, square);
  return visit_float(system_dtype(a.dtype(), b.dtype()), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Solver<T>::run(a, b, o);
  });
}

#define KUMO_SOLVER(fn)                                                                   \
  template <class T>                                                                      \
  struct fn##_solver {                                                                    \
    static SolveResult run(const LinearOperator& a, const Array& b, const SolverOptions& o) { \
      return fn##_typed<T>(a, b, o);                                                      \
    }                                                                                     \
  };
KUMO_SOLVER(cg)
KUMO_SOLVER(bicg)
KUMO_SOLVER(bicgstab)
KUMO_SOLVER(cgs)
#undef KUMO_SOLVER

}  // namespace
}  // namespace host

SolveResult cg(const LinearOperator& a, const Array& b, const SolverOptions& o) {
  return host::dispatch<host::cg_solver>(a, b, o, "cg", true);
}
SolveResult bicg(const LinearOperator& a, const Array& b, const SolverOptions& o) {
  return host::dispatch<host::bicg_solver>(a, b, o, "bicg", true);
}
SolveResult bicgstab(const LinearOperator& a, const Array& b, const SolverOptions& o) {
  return host::dispatch<host::bicgstab_solver>(a, b, o, "bicgstab", true);
}
SolveResult cgs(const LinearOperator& a, const Array& b, const SolverOptions& o) {
  return host::dispatch<host::cgs_solver>(a, b, o, "cgs", true);
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
