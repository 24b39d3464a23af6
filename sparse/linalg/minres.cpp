// MINRES (Paige and Saunders 1975) for symmetric or Hermitian A - shift I
// with a symmetric positive definite preconditioner, following SciPy's
// minres: the same Lanczos recurrences, QR of the tridiagonal matrix by
// plane rotations, norm estimates and stopping tests. Complex systems use
// the Hermitian inner product (x^H y), so Hermitian A is solved exactly as
// the real symmetric case (SciPy's minres takes unconjugated products and
// fails on complex input). Iterates are float64 or complex128, as SciPy's.
#include <cmath>
#include <limits>

#include "sparse/linalg/host/krylov_system.h"
#include "sparse/linalg/isolve.h"

namespace kumo {
namespace sparse {
namespace linalg {
namespace host {
namespace {

// The real part of x^H y: x^H y is real for the Hermitian products MINRES
// takes, up to rounding.
template <class T>
double rdot(const Vec<T>& x, const Vec<T>& y) {
  return static_cast<double>(std::real(dot(x, y)));
}

// Double precision, as SciPy's minres, whose float64 rotation scalars
// promote single-precision iterates.
Dtype minres_dtype(const LinearOperator& a, const Array& b) {
  return promote_types(system_dtype(a.dtype(), b.dtype()), Dtype::kFloat64);
}

template <class T>
SolveResult minres_typed(const LinearOperator& a, const Array& b, const MinresOptions& o) {
  using R = Real<T>;
  const char* name = "minres";
  System<T> s = make_system<T>(a, b, o, minres_dtype(a, b), name);
  const int64_t n = s.n;
  const int64_t maxiter = o.maxiter ? *o.maxiter : 5 * n;
  const double rtol = o.rtol, shift = o.shift;
  const double eps = std::numeric_limits<R>::epsilon();
  Vec<T> x = s.x;
  // SciPy computes b - A x0 whenever x0 is given, zero or not.
  Vec<T> r1 = copy_vec(s.b);
  if (o.x0) sub(s.b, apply(a, x, name), r1);
  Vec<T> y = psolve(s, r1, name);
  double beta1 = rdot(r1, y);
  if (beta1 < 0) throw ValueError("indefinite preconditioner");
  if (beta1 == 0) return SolveResult{x.array, 0};
  if (nrm2(s.b) == 0) return SolveResult{s.b.array, 0};
  beta1 = std::sqrt(beta1);
  if (o.check) {
    const Vec<T> w = apply(a, y, name);
    const Vec<T> r2 = apply(a, w, name);
    double ss = rdot(w, w), t = rdot(y, r2);
    if (std::abs(ss - t) > (ss + eps) * std::cbrt(eps)) throw ValueError("non-symmetric matrix");
    const Vec<T> r2m = psolve(s, y, name);
    ss = rdot(y, y);
    t = rdot(r1, r2m);
    if (std::abs(ss - t) > (ss + eps) * std::cbrt(eps)) throw ValueError("non-symmetric preconditioner");
  }
  double oldb = 0, beta = beta1, dbar = 0, epsln = 0, phibar = beta1, rhs1 = beta1, rhs2 = 0, tnorm2 = 0;
  double gmax = 0, gmin = std::numeric_limits<R>::max(), cs = -1, sn = 0;
  Vec<T> w = zeros_vec(s.b), w1 = zeros_vec(s.b), w2 = zeros_vec(s.b);
  Vec<T> r2 = r1;
  Vec<T> v = new_vec(s.b);
  int istop = 0;
  int64_t itn = 0;
  while (itn < maxiter) {
    ++itn;
    scaled(T(R(1.0 / beta)), y, v);
    Vec<T> ay = apply(a, v, name);
    Vec<T> yn = new_vec(s.b);
    const T tshift = T(R(shift)), tb = T(R(itn >= 2 ? beta / oldb : 0.0));
    fused<T>({"kumo_minres_lanczos", "T ay, T v, T r1", "T yn", "yn = ay - s[0] * v - s[1] * r1"}, {tshift, tb},
             {ay, v, r1}, {yn}, [&](int64_t i) { yn.p[i] = ay.p[i] - tshift * v.p[i] - tb * r1.p[i]; });
    const double alfa = rdot(v, yn);
    axpy(T(R(-alfa / beta)), r2, yn);
    r1 = r2;
    r2 = yn;
    y = psolve(s, r2, name);
    oldb = beta;
    beta = rdot(r2, y);
    if (beta < 0) throw ValueError("non-symmetric matrix");
    beta = std::sqrt(beta);
    tnorm2 += alfa * alfa + oldb * oldb + beta * beta;
    if (itn == 1 && beta / beta1 <= 10 * eps) istop = -1;  // terminate later
    // The previous rotation on [dbar 0; alfa beta], then the next one.
    const double oldeps = epsln;
    const double delta = cs * dbar + sn * alfa;
    const double gbar = sn * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * beta;
    const double root = std::hypot(gbar, dbar);
    double gamma = std::max(std::hypot(gbar, beta), eps);
    cs = gbar / gamma;
    sn = beta / gamma;
    const double phi = cs * phibar;
    phibar = sn * phibar;
    // w = (v - oldeps w1 - delta w2) / gamma with (w1, w2) <- (w2, w); x += phi w.
    std::swap(w1, w2);  // w1 = old w2
    std::swap(w2, w);   // w2 = old w, w = old w1 (overwritten below)
    const T de = T(R(delta)), oe = T(R(oldeps)), ig = T(R(1.0 / gamma)), ph = T(R(phi));
    double xx = 0;
    if (x.on_host_loops()) {
      xx = block_sum<double>(n, [&](int64_t lo, int64_t hi) {
        double acc = 0;
        for (int64_t i = lo; i < hi; ++i) {
          w.p[i] = (v.p[i] - oe * w1.p[i] - de * w2.p[i]) * ig;
          x.p[i] += ph * w.p[i];
          acc += static_cast<double>(abs2(x.p[i]));
        }
        return acc;
      });
    } else {
      fused<T>({"kumo_minres_wx", "T v, T w1, T w2", "T w, T x", "w = (v - s[0] * w1 - s[1] * w2) * s[2]; x += s[3] * w"},
               {oe, de, ig, ph}, {v, w1, w2}, {w, x}, [](int64_t) {});
      xx = sumsq(x);
    }
    gmax = std::max(gmax, gamma);
    gmin = std::min(gmin, gamma);
    const double z = rhs1 / gamma;
    rhs1 = rhs2 - delta * z;
    rhs2 = -epsln * z;
    const double anorm = std::sqrt(tnorm2), ynorm = std::sqrt(xx);
    const double epsx = anorm * ynorm * eps;
    const double rnorm = phibar;
    const double test1 = (ynorm == 0 || anorm == 0) ? INFINITY : rnorm / (anorm * ynorm);
    const double test2 = anorm == 0 ? INFINITY : root / anorm;
    const double acond = gmax / gmin;
    if (istop == 0) {
      if (1 + test2 <= 1) istop = 2;
      if (1 + test1 <= 1) istop = 1;
      if (itn >= maxiter) istop = 6;
      if (acond >= 0.1 / eps) istop = 4;
      if (epsx >= beta1) istop = 3;
      if (test2 <= rtol) istop = 2;
      if (test1 <= rtol) istop = 1;
    }
    report(o.callback, x);
    if (istop != 0) break;
  }
  return SolveResult{x.array, istop == 6 ? maxiter : 0};
}

}  // namespace
}  // namespace host

SolveResult minres(const LinearOperator& a, const Array& b, const MinresOptions& o) {
  host::check_rhs(a, b, "minres", true);
  return host::visit_float(host::minres_dtype(a, b), [&](auto tag) {
    return host::minres_typed<typename decltype(tag)::type>(a, b, o);
  });
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
