// LSQR (Paige and Saunders 1982) and LSMR (Fong and Saunders 2011): Golub-
// Kahan bidiagonalization for min ||A x - b||^2 + damp^2 ||x||^2, with the
// estimates (||r||, ||A^H r||, ||A||, cond(A), ||x||) and stopping rules
// (istop 0-7) of SciPy's lsqr and lsmr. Both compute in double precision
// (float64 or complex128), as SciPy's do.
#include <cmath>
#include <limits>

#include "sparse/linalg/host/krylov_system.h"
#include "sparse/linalg/isolve.h"

namespace kumo {
namespace sparse {
namespace linalg {
namespace host {
namespace {

struct Rotation {
  double c, s, r;
};

double sign(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

// A stable plane rotation [c s; -s c] with c a + s b = r, -s a + c b = 0.
Rotation sym_ortho(double a, double b) {
  if (b == 0) return {sign(a), 0, std::abs(a)};
  if (a == 0) return {0, sign(b), std::abs(b)};
  if (std::abs(b) > std::abs(a)) {
    const double tau = a / b, s = sign(b) / std::sqrt(1 + tau * tau);
    return {s * tau, s, b / s};
  }
  const double tau = b / a, c = sign(a) / std::sqrt(1 + tau * tau);
  return {c, c * tau, a / c};
}

template <class T>
void scale_by(double f, const Vec<T>& v) {
  scal(T(static_cast<Real<T>>(f)), v);
}

// The start both methods share: u = b - A x0, beta = ||u||, v = A^H u / alpha.
template <class T>
struct Start {
  Vec<T> x, u, v;
  double bnorm = 0, beta = 0, alpha = 0;
};

template <class T>
Start<T> start(const LinearOperator& a, const Array& b, const LeastSquaresOptions& o, Dtype dtype, const char* name) {
  Start<T> st;
  const int64_t n = a.shape().cols;
  st.u = copy_vec(as_vec<T>(b, dtype, name));
  st.bnorm = nrm2(st.u);
  if (o.x0) {
    if (o.x0->size() != n) throw ValueError(call_name(name) + ": x0 must have " + std::to_string(n) + " elements");
    st.x = copy_vec(as_vec<T>(*o.x0, dtype, name));
    const Vec<T> ax = apply(a, st.x, name);
    axpy(T(-1), ax, st.u);
    st.beta = nrm2(st.u);
  } else {
    st.x = zeros_vec<T>(n, dtype, st.u.array.device());
    st.beta = st.bnorm;
  }
  if (st.beta > 0) {
    scale_by(1 / st.beta, st.u);
    st.v = copy_vec(apply_adjoint(a, st.u, name));
    st.alpha = nrm2(st.v);
  } else {
    st.v = zeros_vec(st.x);
  }
  if (st.alpha > 0) scale_by(1 / st.alpha, st.v);
  return st;
}

// u = A v - alpha u, beta = ||u||, u /= beta; then v = A^H u - beta v likewise.
// on_beta(alpha, beta) runs between the two halves (LSQR's ||A|| estimate
// takes the old alpha with the new beta).
template <class T, class OnBeta>
void bidiagonalize(const LinearOperator& a, Vec<T>& u, Vec<T>& v, double& alpha, double& beta, const char* name,
                   const OnBeta& on_beta) {
  const Vec<T> av = apply(a, v, name);
  xpay(av, T(static_cast<Real<T>>(-alpha)), u);
  beta = nrm2(u);
  if (beta > 0) {
    scale_by(1 / beta, u);
    on_beta(alpha, beta);
    const Vec<T> au = apply_adjoint(a, u, name);
    xpay(au, T(static_cast<Real<T>>(-beta)), v);
    alpha = nrm2(v);
    if (alpha > 0) scale_by(1 / alpha, v);
  }
}

template <class T>
LsqrResult lsqr_typed(const LinearOperator& a, const Array& b, const LeastSquaresOptions& o, Dtype dtype) {
  const char* name = "lsqr";
  const int64_t n = a.shape().cols;
  const int64_t iter_lim = o.iter_lim ? *o.iter_lim : 2 * n;
  const double eps = std::numeric_limits<double>::epsilon();
  const double damp = o.damp, dampsq = damp * damp, atol = o.atol, btol = o.btol;
  const double ctol = o.conlim > 0 ? 1 / o.conlim : 0;
  Start<T> st = start<T>(a, b, o, dtype, name);
  Vec<T>&x = st.x, &u = st.u, &v = st.v;
  double alfa = st.alpha, beta = st.beta;
  LsqrResult res;
  Vec<double> var = zeros_vec<double>(n, Dtype::kFloat64, x.array.device());
  double anorm = 0, acond = 0, ddnorm = 0, res2 = 0, xnorm = 0, xxnorm = 0, z = 0, cs2 = -1, sn2 = 0;
  Vec<T> w = copy_vec(v);
  double rhobar = alfa, phibar = beta, rnorm = beta, r1norm = rnorm, r2norm = rnorm, arnorm = alfa * beta;
  int64_t itn = 0, istop = 0;
  const auto finish = [&]() {
    res.x = x.array;
    res.istop = istop;
    res.itn = itn;
    res.r1norm = r1norm;
    res.r2norm = r2norm;
    res.anorm = anorm;
    res.acond = acond;
    res.arnorm = arnorm;
    res.xnorm = xnorm;
    res.var = var.array;
    return res;
  };
  if (arnorm == 0) return finish();
  while (itn < iter_lim) {
    ++itn;
    bidiagonalize(a, u, v, alfa, beta, name, [&](double al, double be) {
      anorm = std::sqrt(anorm * anorm + al * al + be * be + dampsq);
    });
    double rhobar1 = rhobar, psi = 0;
    if (damp > 0) {
      rhobar1 = std::sqrt(rhobar * rhobar + dampsq);
      const double cs1 = rhobar / rhobar1, sn1 = damp / rhobar1;
      psi = sn1 * phibar;
      phibar = cs1 * phibar;
    }
    const Rotation g = sym_ortho(rhobar1, beta);
    const double cs = g.c, sn = g.s, rho = g.r;
    const double theta = sn * alfa;
    rhobar = -cs * alfa;
    const double phi = cs * phibar;
    phibar = sn * phibar;
    const double tau = sn * phi;
    using R = Real<T>;
    const T t1 = T(R(phi / rho)), t2 = T(R(-theta / rho));
    const double inv_rho = 1 / rho;
    const bool calc_var = o.calc_var;
    // dk = w / rho; x += t1 w; w = v + t2 w; ||dk||^2 (and var += |dk|^2).
    double dk2 = 0;
    if (x.on_host_loops()) {
      dk2 = block_sum<double>(n, [&](int64_t lo, int64_t hi) {
        double acc = 0;
        for (int64_t i = lo; i < hi; ++i) {
          const double d2 = static_cast<double>(abs2(w.p[i])) * inv_rho * inv_rho;
          acc += d2;
          if (calc_var) var.p[i] += d2;
          x.p[i] += t1 * w.p[i];
          w.p[i] = v.p[i] + t2 * w.p[i];
        }
        return acc;
      });
    } else {
      dk2 = sumsq(w) * inv_rho * inv_rho;
      if (calc_var) {
        const Array d = kumo::absolute(w.array);
        kumo::multiply(d, d, d);
        kumo::multiply(d, inv_rho * inv_rho, d);
        kumo::add(var.array, d, var.array);
      }
      fused<T>({"kumo_lsqr_xw", "T v", "T x, T w", "x += s[0] * w; w = v + s[1] * w"}, {t1, t2}, {v}, {x, w},
               [](int64_t) {});
    }
    ddnorm += dk2;
    const double delta = sn2 * rho, gambar = -cs2 * rho, rhs = phi - delta * z, zbar = rhs / gambar;
    xnorm = std::sqrt(xxnorm + zbar * zbar);
    const double gamma = std::sqrt(gambar * gambar + theta * theta);
    cs2 = gambar / gamma;
    sn2 = theta / gamma;
    z = rhs / gamma;
    xxnorm += z * z;
    acond = anorm * std::sqrt(ddnorm);
    const double res1 = phibar * phibar;
    res2 += psi * psi;
    rnorm = std::sqrt(res1 + res2);
    arnorm = alfa * std::abs(tau);
    if (damp > 0) {
      const double r1sq = rnorm * rnorm - dampsq * xxnorm;
      r1norm = std::sqrt(std::abs(r1sq));
      if (r1sq < 0) r1norm = -r1norm;
    } else {
      r1norm = rnorm;
    }
    r2norm = rnorm;
    const double bnorm = st.bnorm;
    const double test1 = rnorm / bnorm, test2 = arnorm / (anorm * rnorm + eps), test3 = 1 / (acond + eps);
    const double tt1 = test1 / (1 + anorm * xnorm / bnorm);
    const double rtol = btol + atol * anorm * xnorm / bnorm;
    if (itn >= iter_lim) istop = 7;
    if (1 + test3 <= 1) istop = 6;
    if (1 + test2 <= 1) istop = 5;
    if (1 + tt1 <= 1) istop = 4;
    if (test3 <= ctol) istop = 3;
    if (test2 <= atol) istop = 2;
    if (test1 <= rtol) istop = 1;
    if (istop != 0) break;
  }
  return finish();
}

template <class T>
LsmrResult lsmr_typed(const LinearOperator& a, const Array& b, const LeastSquaresOptions& o, Dtype dtype) {
  const char* name = "lsmr";
  const int64_t m = a.shape().rows, n = a.shape().cols;
  const int64_t maxiter = o.iter_lim ? *o.iter_lim : std::min(m, n);
  const double damp = o.damp, atol = o.atol, btol = o.btol;
  const double ctol = o.conlim > 0 ? 1 / o.conlim : 0;
  Start<T> st = start<T>(a, b, o, dtype, name);
  Vec<T>&x = st.x, &u = st.u, &v = st.v;
  double alpha = st.alpha, beta = st.beta;
  const double normb = st.bnorm;
  double zetabar = alpha * beta, alphabar = alpha, rho = 1, rhobar = 1, cbar = 1, sbar = 0;
  Vec<T> h = copy_vec(v), hbar = zeros_vec(v);
  double betadd = beta, betad = 0, rhodold = 1, tautildeold = 0, thetatilde = 0, zeta = 0, d = 0;
  double norma2 = alpha * alpha, maxrbar = 0, minrbar = 1e100, norma = std::sqrt(norma2), conda = 1, normx = 0;
  double normr = beta, normar = alpha * beta;
  int64_t itn = 0, istop = 0;
  const auto finish = [&]() { return LsmrResult{x.array, istop, itn, normr, normar, norma, conda, normx}; };
  if (normar == 0) return finish();
  if (normb == 0) {
    scal(T(0), x);
    return finish();
  }
  using R = Real<T>;
  while (itn < maxiter) {
    ++itn;
    bidiagonalize(a, u, v, alpha, beta, name, [](double, double) {});
    const Rotation hat = sym_ortho(alphabar, damp);
    const double rhoold = rho;
    const Rotation g = sym_ortho(hat.r, beta);
    rho = g.r;
    const double thetanew = g.s * alpha;
    alphabar = g.c * alpha;
    const double rhobarold = rhobar, zetaold = zeta, thetabar = sbar * rho, rhotemp = cbar * rho;
    const Rotation gbar = sym_ortho(cbar * rho, thetanew);
    cbar = gbar.c;
    sbar = gbar.s;
    rhobar = gbar.r;
    zeta = cbar * zetabar;
    zetabar = -sbar * zetabar;
    // hbar = h - (thetabar rho / (rhoold rhobarold)) hbar; x += zeta / (rho rhobar) hbar;
    // h = v - (thetanew / rho) h; ||x||^2 in the same pass.
    const T fh = T(R(-(thetabar * rho / (rhoold * rhobarold)))), fx = T(R(zeta / (rho * rhobar)));
    const T fv = T(R(-(thetanew / rho)));
    double xx = 0;
    if (x.on_host_loops()) {
      xx = block_sum<double>(n, [&](int64_t lo, int64_t hi) {
        double acc = 0;
        for (int64_t i = lo; i < hi; ++i) {
          hbar.p[i] = h.p[i] + fh * hbar.p[i];
          x.p[i] += fx * hbar.p[i];
          h.p[i] = v.p[i] + fv * h.p[i];
          acc += static_cast<double>(abs2(x.p[i]));
        }
        return acc;
      });
    } else {
      fused<T>({"kumo_lsmr_update", "T v", "T hbar, T x, T h",
                "hbar = h + s[0] * hbar; x += s[1] * hbar; h = v + s[2] * h"},
               {fh, fx, fv}, {v}, {hbar, x, h}, [](int64_t) {});
      xx = sumsq(x);
    }
    const double betaacute = hat.c * betadd, betacheck = -hat.s * betadd;
    const double betahat = g.c * betaacute;
    betadd = -g.s * betaacute;
    const double thetatildeold = thetatilde;
    const Rotation tilde = sym_ortho(rhodold, thetabar);
    thetatilde = tilde.s * rhobar;
    rhodold = tilde.c * rhobar;
    betad = -tilde.s * betad + tilde.c * betahat;
    tautildeold = (zetaold - thetatildeold * tautildeold) / tilde.r;
    const double taud = (zeta - thetatilde * tautildeold) / rhodold;
    d += betacheck * betacheck;
    normr = std::sqrt(d + (betad - taud) * (betad - taud) + betadd * betadd);
    norma2 += beta * beta;
    norma = std::sqrt(norma2);
    norma2 += alpha * alpha;
    maxrbar = std::max(maxrbar, rhobarold);
    if (itn > 1) minrbar = std::min(minrbar, rhobarold);
    conda = std::max(maxrbar, rhotemp) / std::min(minrbar, rhotemp);
    normar = std::abs(zetabar);
    normx = std::sqrt(xx);
    const double test1 = normr / normb;
    const double test2 = (norma * normr) != 0 ? normar / (norma * normr) : INFINITY;
    const double test3 = 1 / conda;
    const double t1 = test1 / (1 + norma * normx / normb);
    const double rtol = btol + atol * norma * normx / normb;
    if (itn >= maxiter) istop = 7;
    if (1 + test3 <= 1) istop = 6;
    if (1 + test2 <= 1) istop = 5;
    if (1 + t1 <= 1) istop = 4;
    if (test3 <= ctol) istop = 3;
    if (test2 <= atol) istop = 2;
    if (test1 <= rtol) istop = 1;
    if (istop > 0) break;
  }
  return finish();
}

// Double precision of the system's kind: float64, or complex128 when A, b
// (or x0) are complex.
Dtype least_squares_dtype(const LinearOperator& a, const Array& b, const LeastSquaresOptions& o) {
  Dtype d = promote_types(system_dtype(a.dtype(), b.dtype()), Dtype::kFloat64);
  if (o.x0) d = promote_types(d, floating(o.x0->dtype()));
  return d;
}

void check_least_squares(const LinearOperator& a, const Array& b, const char* name) {
  if (b.size() != a.shape().rows || b.ndim() > 2 || (b.ndim() == 2 && b.shape()[1] != 1 && b.shape()[0] != 1))
    throw ValueError(call_name(name) + ": b must have " + std::to_string(a.shape().rows) + " elements for A of shape (" +
                     std::to_string(a.shape().rows) + ", " + std::to_string(a.shape().cols) + ")");
}

}  // namespace
}  // namespace host

LsqrResult lsqr(const LinearOperator& a, const Array& b, const LeastSquaresOptions& o) {
  host::check_least_squares(a, b, "lsqr");
  const Dtype d = host::least_squares_dtype(a, b, o);
  if (d == Dtype::kComplex128) return host::lsqr_typed<std::complex<double>>(a, b, o, d);
  return host::lsqr_typed<double>(a, b, o, d);
}

LsmrResult lsmr(const LinearOperator& a, const Array& b, const LeastSquaresOptions& o) {
  host::check_least_squares(a, b, "lsmr");
  const Dtype d = host::least_squares_dtype(a, b, o);
  if (d == Dtype::kComplex128) return host::lsmr_typed<std::complex<double>>(a, b, o, d);
  return host::lsmr_typed<double>(a, b, o, d);
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
