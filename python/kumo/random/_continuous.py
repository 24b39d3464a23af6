"""Continuous distributions of numpy.random.Generator on kumo arrays.

Each function takes the bit generator ``bg`` first and then the arguments of
the Generator method of the same name. Samples come from three sources:

* fixed-count transforms read uniforms (``bg._random_pos``, on (0, 1]) or
  normals (``bg._standard_normal``) drawn by the generator and map them in one
  elementwise kernel (exponential family by inversion, Laplace, logistic,
  Gumbel, Weibull, Pareto, power, Rayleigh, triangular, Cauchy, Wald);
* rejection samplers (gamma and everything built on it, von Mises) run one
  elementwise kernel in which element i draws from its own Philox4x32-10
  stream under a key taken from the generator (``_philox.PHILOX_PREAMBLE``),
  so they can take as many draws as they need;
* multivariate_normal factors the covariance with kumo.linalg.

Algorithms:

* gamma: Marsaglia and Tsang's squeeze-and-reject method (2000) for shape
  >= 1; for shape < 1 the boost Gamma(a) = Gamma(a + 1) * U**(1/a). Where the
  boost would underflow (tiny shapes in beta and dirichlet), the same
  construction is carried out on logarithms instead.
* beta: X / (X + Y) with X, Y gamma; when a or b < 1 the ratio is formed from
  the logarithms of X and Y, so tiny a and b still give the right mass near
  0 and 1 rather than 0/0 (NumPy uses Johnk's algorithm there for the same
  reason).
* dirichlet: normalised gammas, computed as a softmax of log-gammas, which
  is exact for every alpha (NumPy switches to stick-breaking betas when all
  alpha < 0.1 for the same reason).
* vonmises: Best and Fisher's (1979) wrapped-Cauchy rejection, with NumPy's
  special cases for kappa < 1e-8 (uniform) and kappa > 1e6 (wrapped normal).
* noncentral_chisquare: the Poisson mixture chi2(df + 2 N), N ~ Poisson(nonc/2)
  (the kernel is here; _mixtures draws N and calls it).
* wald: Michael, Schucany and Haas' transformation with one rejection step,
  with the root written in a cancellation-free form.

All kernels are compiled for the host and by NVRTC for CUDA from one source;
there is no host-only code on the sampling path.
"""
import functools
import math
import warnings

import numpy

from kumo import _core
from kumo import _numeric
from kumo import _searching
from kumo import _ufuncs as uf
from kumo import linalg as _linalg
from kumo._kernel import ElementwiseKernel
from kumo.linalg import _products
from kumo.random import _common
from kumo.random._common import (CONS_NON_NEGATIVE, CONS_POSITIVE, CONS_NONE, as_param, check, check_constraint,
                                 is_scalar, output_shape)
from kumo.random._philox import PHILOX_PREAMBLE

__all__ = ["exponential", "standard_exponential", "gamma", "standard_gamma", "beta", "chisquare",
           "f", "standard_t", "standard_cauchy", "laplace", "logistic",
           "gumbel", "weibull", "pareto", "power", "rayleigh", "triangular", "vonmises", "wald", "dirichlet",
           "multivariate_normal"]

ndarray = _core.ndarray
_F64 = numpy.dtype(numpy.float64)
_F32 = numpy.dtype(numpy.float32)

# ---------------------------------------------------------------------------
# Device code shared by the kernels. Templates on the float type F so that the
# float32 variants of standard_gamma compute in single precision.
# ---------------------------------------------------------------------------
_PREAMBLE = PHILOX_PREAMBLE + r"""
#ifndef KUMO_CONTINUOUS_DEFINED
#define KUMO_CONTINUOUS_DEFINED
KUMO_INL double kumo_rc_uniform(KumoPhilox& r, double) { return kumo_philox_uniform(r); }
KUMO_INL float kumo_rc_uniform(KumoPhilox& r, float) { return kumo_philox_uniformf(r); }
KUMO_INL double kumo_rc_normal(KumoPhilox& r, double) { return kumo_philox_normal(r); }
// Single-precision polar method, so float32 samplers stay in float.
KUMO_INL float kumo_rc_normal(KumoPhilox& r, float) {
  float u, v, s;
  do {
    u = 2.0f * kumo_philox_uniformf(r) - 1.0f;
    v = 2.0f * kumo_philox_uniformf(r) - 1.0f;
    s = u * u + v * v;
  } while (s >= 1.0f || s == 0.0f);
  return u * sqrt(-2.0f * log(s) / s);
}

// Standard exponential from u in (0, 1]; 0 - log(1) is +0, never -0.
template <class F> KUMO_FN F kumo_rc_exp(F u) { return F(0) - log(u); }

// u in (0, 1] moved into the open interval: the single value 1 (whose
// transform would be infinite) becomes the largest value below 1.
template <class F> KUMO_FN F kumo_rc_open(F u) {
  return u < F(1) ? u : F(1) - kumo::limits<F>::epsilon() / F(2);
}

// Normals by the polar method, keeping the second value of each pair for
// the next call (kumo_philox_normal discards it; the gamma loop is
// dominated by normal draws).
template <class F> struct KumoRcNormals {
  F spare;
  bool has;
};
template <class F> KUMO_INL F kumo_rc_next_normal(KumoPhilox& r, KumoRcNormals<F>& c) {
  if (c.has) {
    c.has = false;
    return c.spare;
  }
  F u, v, s;
  do {
    u = F(2) * kumo_rc_uniform(r, F(0)) - F(1);
    v = F(2) * kumo_rc_uniform(r, F(0)) - F(1);
    s = u * u + v * v;
  } while (s >= F(1) || s == F(0));
  const F m = sqrt(F(-2) * log(s) / s);
  c.spare = v * m;
  c.has = true;
  return u * m;
}

// Marsaglia-Tsang for a >= 1.
template <class F> KUMO_INL F kumo_rc_gamma_mt(KumoPhilox& r, F a) {
  const F d = a - F(1) / F(3);
  const F c = F(1) / sqrt(F(9) * d);
  KumoRcNormals<F> normals;
  normals.spare = F(0);
  normals.has = false;
  for (;;) {
    F x, v;
    do {
      x = kumo_rc_next_normal(r, normals);
      v = F(1) + c * x;
    } while (v <= F(0));
    v = v * v * v;
    const F u = kumo_rc_uniform(r, F(0));
    const F x2 = x * x;
    if (u < F(1) - F(0.0331) * x2 * x2) return d * v;
    if (log(u) < F(0.5) * x2 + d * (F(1) - v + log(v))) return d * v;
  }
}

// Gamma(a, 1) for a >= 0 (a < 0 is rejected before launch); NaN gives NaN.
template <class F> KUMO_INL F kumo_rc_standard_gamma(KumoPhilox& r, F a) {
  if (!(a > F(0))) return a == F(0) ? F(0) : a;
  if (a == F(1)) return kumo_rc_exp(kumo_rc_uniform(r, F(0)));
  if (a < F(1)) {
    const F g = kumo_rc_gamma_mt(r, a + F(1));
    return g * pow(kumo_rc_uniform(r, F(0)), F(1) / a);
  }
  return kumo_rc_gamma_mt(r, a);
}

// log(Gamma(a, 1)) without underflow for tiny a: -inf for a == 0.
template <class F> KUMO_INL F kumo_rc_log_standard_gamma(KumoPhilox& r, F a) {
  if (!(a > F(0))) return a == F(0) ? -kumo::limits<F>::infinity() : a;
  if (a < F(1)) {
    const F g = kumo_rc_gamma_mt(r, a + F(1));
    return log(g) + log(kumo_rc_uniform(r, F(0))) / a;
  }
  return log(kumo_rc_gamma_mt(r, a));
}

KUMO_INL double kumo_rc_beta(KumoPhilox& r, double a, double b) {
  if (isnan(a) || isnan(b)) return a + b;
  if (a < 1.0 || b < 1.0) {
    // X / (X + Y) = 1 / (1 + exp(log Y - log X)), exact for tiny a and b.
    const double lx = kumo_rc_log_standard_gamma(r, a);
    const double ly = kumo_rc_log_standard_gamma(r, b);
    if (lx == ly) return lx == -kumo::limits<double>::infinity() ? kumo::limits<double>::quiet_NaN() : 0.5;
    return 1.0 / (1.0 + exp(ly - lx));
  }
  const double x = kumo_rc_gamma_mt(r, a);
  const double y = kumo_rc_gamma_mt(r, b);
  return x / (x + y);
}

// Best-Fisher, following NumPy's special cases for extreme kappa.
KUMO_INL double kumo_rc_vonmises(KumoPhilox& r, double mu, double kappa) {
  const double pi = 3.14159265358979323846;
  if (isnan(kappa)) return kappa;
  if (kappa < 1e-8) return pi * (2.0 * kumo_philox_uniform(r) - 1.0);
  double t;
  if (kappa > 1e6) {
    // The distribution is a normal with variance 1/kappa to double precision.
    t = mu + sqrt(1.0 / kappa) * kumo_philox_normal(r);
  } else {
    double s;
    if (kappa < 1e-5) {
      s = 1.0 / kappa + kappa;  // series of the expression below, which cancels for tiny kappa
    } else {
      const double q = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa);
      const double rho = (q - sqrt(2.0 * q)) / (2.0 * kappa);
      s = (1.0 + rho * rho) / (2.0 * rho);
    }
    double w;
    for (;;) {
      const double z = cos(pi * kumo_philox_uniform(r));
      w = (1.0 + s * z) / (s + z);
      const double y = kappa * (s - w);
      const double v = kumo_philox_uniform(r);
      if (y * (2.0 - y) - v >= 0.0 || log(y / v) + 1.0 - y >= 0.0) break;
    }
    t = acos(w);
    if (kumo_philox_uniform(r) < 0.5) t = -t;
    t += mu;
  }
  // Wrap into [-pi, pi] for any mu (NumPy wraps the kappa > 1e6 case by one
  // turn only, so a far-away mu leaves its results outside).
  const bool neg = t < 0.0;
  t = fmod(fabs(t) + pi, 2.0 * pi) - pi;
  return neg ? -t : t;
}
#endif
"""

# name -> (in_params, out_params, operation). Parameters are float64 unless the
# kernel is generic in T (the dtype= samplers). `key` is one Philox key per call.
_PHILOX_INIT = "KumoPhilox r; kumo_philox_init(r, key, i);\n"
_KERNELS = {
    "exponential": ("float64 u, float64 scale", "float64 y", "y = kumo_rc_exp(u) * scale;"),
    "standard_exponential": ("T u", "T y", "y = kumo_rc_exp(u);"),
    "standard_gamma": ("T shape, uint64 key", "T y", _PHILOX_INIT + "y = kumo_rc_standard_gamma(r, shape);"),
    "gamma": ("float64 shape, float64 scale, uint64 key", "float64 y",
              _PHILOX_INIT + "y = kumo_rc_standard_gamma(r, shape) * scale;"),
    "log_gamma": ("float64 shape, uint64 key", "float64 y", _PHILOX_INIT + "y = kumo_rc_log_standard_gamma(r, shape);"),
    "beta": ("float64 a, float64 b, uint64 key", "float64 y", _PHILOX_INIT + "y = kumo_rc_beta(r, a, b);"),
    "chisquare": ("float64 df, uint64 key", "float64 y",
                  _PHILOX_INIT + "y = 2.0 * kumo_rc_standard_gamma(r, 0.5 * df);"),
    # chi2(df + 2k) with k ~ Poisson(nonc / 2) drawn beforehand.
    "noncentral_chisquare": (
        "float64 df, float64 nonc, int64 k, uint64 key", "float64 y",
        _PHILOX_INIT + "y = isnan(nonc) ? nonc : 2.0 * kumo_rc_standard_gamma(r, 0.5 * df + (double)k);"),
    "f": ("float64 dfnum, float64 dfden, uint64 key", "float64 y",
          _PHILOX_INIT + "const double num = kumo_rc_standard_gamma(r, 0.5 * dfnum);\n"
          "const double den = kumo_rc_standard_gamma(r, 0.5 * dfden);\n"
          "y = (num * dfden) / (den * dfnum);"),
    "noncentral_f": (
        "float64 dfnum, float64 dfden, float64 nonc, int64 k, uint64 key", "float64 y",
        _PHILOX_INIT + "const double num = kumo_rc_standard_gamma(r, 0.5 * dfnum + (double)k);\n"
        "const double den = kumo_rc_standard_gamma(r, 0.5 * dfden);\n"
        "y = isnan(nonc) ? nonc : (num * dfden) / (den * dfnum);"),
    # Z / sqrt(chi2(df) / df) with chi2(df) = 2 Gamma(df / 2).
    "standard_t": ("float64 z, float64 df, uint64 key", "float64 y",
                   _PHILOX_INIT + "const double g = kumo_rc_standard_gamma(r, 0.5 * df);\n"
                   "y = sqrt(0.5 * df) * z / sqrt(g);"),
    "laplace": ("float64 u, float64 loc, float64 scale", "float64 y",
                "const double v = kumo_rc_open(u);\n"
                "y = v <= 0.5 ? loc + scale * log(v + v) : loc - scale * log(2.0 - (v + v));"),
    "logistic": ("float64 u, float64 loc, float64 scale", "float64 y",
                 "const double v = kumo_rc_open(u);\ny = loc + scale * log(v / (1.0 - v));"),
    "gumbel": ("float64 u, float64 loc, float64 scale", "float64 y",
               "const double v = kumo_rc_open(u);\ny = loc - scale * log(0.0 - log(v));"),
    "weibull": ("float64 u, float64 a", "float64 y", "y = a == 0.0 ? 0.0 : pow(kumo_rc_exp(u), 1.0 / a);"),
    "pareto": ("float64 u, float64 a", "float64 y", "y = expm1(kumo_rc_exp(u) / a);"),
    "power": ("float64 u, float64 a", "float64 y", "y = pow(0.0 - expm1(0.0 - kumo_rc_exp(u)), 1.0 / a);"),
    "rayleigh": ("float64 u, float64 scale", "float64 y", "y = scale * sqrt(2.0 * kumo_rc_exp(u));"),
    "triangular": (
        "float64 u, float64 left, float64 mode, float64 right", "float64 y",
        "const double base = right - left, lbase = mode - left;\n"
        "y = u <= lbase / base ? left + sqrt(u * lbase * base)\n"
        "                      : right - sqrt((1.0 - u) * (right - mode) * base);"),
    "vonmises": ("float64 mu, float64 kappa, uint64 key", "float64 y",
                 _PHILOX_INIT + "y = kumo_rc_vonmises(r, mu, kappa);"),
    # Michael-Schucany-Haas: x = mean * 4 s Y / (Y + sqrt(Y^2 + 4 s Y))^2 is
    # the smaller root, written without the cancellation of the usual form.
    "wald": ("float64 z, float64 u, float64 mean, float64 scale", "float64 y",
             "const double yy = mean * z * z;\n"
             "const double q = yy + sqrt(yy * yy + 4.0 * scale * yy);\n"
             "const double x = yy > 0.0 ? mean * (4.0 * scale / q) * (yy / q) : mean;\n"
             "y = u * (mean + x) <= mean ? x : mean * (mean / x);"),
}
_compiled = {}


def _kernel(name):
    k = _compiled.get(name)
    if k is None:
        in_params, out_params, op = _KERNELS[name]
        k = ElementwiseKernel(in_params, out_params, op, name="kumo_random_" + name, preamble=_PREAMBLE)
        _compiled[name] = k
    return k


def _key(bg):
    return numpy.uint64(bg._next_key())


def _launch(name, out, *args):
    """Run kernel `name` writing into `out` (params broadcast to out's shape)."""
    _kernel(name)(*args, out)
    return out


def _param(bg, value, name, cons):
    p = as_param(bg, value)
    check_constraint(p, name, cons)
    return p


def _uniform(bg, shape, dtype=_F64):
    return bg._random_pos(tuple(shape), dtype)


def _normal(bg, shape, dtype=_F64):
    return bg._standard_normal(tuple(shape), dtype)


def _u_transform(bg, name, size, params):
    """Distributions that map one uniform on (0, 1] per element."""
    shape = output_shape(size, *params)
    out = _common.empty(bg, shape)
    return _launch(name, out, _uniform(bg, shape), *params)


def _philox(bg, name, size, params, extra=()):
    """Rejection samplers: Philox streams under one fresh key per call."""
    shape = output_shape(size, *params)
    out = _common.empty(bg, shape)
    return _launch(name, out, *params, *extra, _key(bg))


# ---------------------------------------------------------------------------
# Exponential family
# ---------------------------------------------------------------------------
def exponential(bg, scale=1.0, size=None):
    scale = _param(bg, scale, "scale", CONS_NON_NEGATIVE)
    return _u_transform(bg, "exponential", size, (scale,))


def _float_out(out, size, dtype, name, require_c):
    dt = _common.float_dtype(dtype, name)
    if out is None:
        return None, dt
    return _common.check_out(out, size, dt, require_c), dt


def standard_exponential(bg, size=None, dtype=numpy.float64, method="zig", out=None):
    # Every method is inversion here; NumPy likewise accepts any value and
    # treats everything but 'zig' as 'inv'.
    out_shape, dt = _float_out(out, size, dtype, "standard_exponential", False)
    if out is None:
        shape = output_shape(size)
        out = _common.empty(bg, shape, dt)
    else:
        _check_out_device(bg, out)
        shape = out_shape
    return _launch("standard_exponential", out, _uniform(bg, shape, dt))


def _check_out_device(bg, out):
    if out.device != bg.device:
        raise ValueError("out is on device %s but the generator draws on %s" % (out.device, bg.device))


# ---------------------------------------------------------------------------
# Gamma family
# ---------------------------------------------------------------------------
def standard_gamma(bg, shape, size=None, dtype=numpy.float64, out=None):
    out_shape, dt = _float_out(out, size, dtype, "standard_gamma", True)
    # NumPy's float32 path casts the parameter unsafely (float64 arrays are
    # accepted and rounded); convert as for float64, then round.
    a = as_param(bg, shape)
    if dt == _F32:
        a = numpy.float32(a).item() if is_scalar(a) else a.astype(_F32)
    check_constraint(a, "shape", CONS_NON_NEGATIVE)
    if out is None:
        rshape = output_shape(size, a)
        out = _common.empty(bg, rshape, dt)
    else:
        _check_out_device(bg, out)
        output_shape(out_shape, a)
    if is_scalar(a):
        a = numpy.dtype(dt).type(a)  # a Python float would bind T to float64
    return _launch("standard_gamma", out, a, _key(bg))


def gamma(bg, shape, scale=1.0, size=None):
    a = _param(bg, shape, "shape", CONS_NON_NEGATIVE)
    s = _param(bg, scale, "scale", CONS_NON_NEGATIVE)
    return _philox(bg, "gamma", size, (a, s))


def beta(bg, a, b, size=None):
    a = _param(bg, a, "a", CONS_POSITIVE)
    b = _param(bg, b, "b", CONS_POSITIVE)
    return _philox(bg, "beta", size, (a, b))


def chisquare(bg, df, size=None):
    df = _param(bg, df, "df", CONS_POSITIVE)
    return _philox(bg, "chisquare", size, (df,))


def f(bg, dfnum, dfden, size=None):
    dfnum = _param(bg, dfnum, "dfnum", CONS_POSITIVE)
    dfden = _param(bg, dfden, "dfden", CONS_POSITIVE)
    return _philox(bg, "f", size, (dfnum, dfden))


def standard_t(bg, df, size=None):
    df = _param(bg, df, "df", CONS_POSITIVE)
    shape = output_shape(size, df)
    return _launch("standard_t", _common.empty(bg, shape), _normal(bg, shape), df, _key(bg))


# ---------------------------------------------------------------------------
# Location-scale and other inversion samplers
# ---------------------------------------------------------------------------
def standard_cauchy(bg, size=None):
    shape = output_shape(size)
    return uf.true_divide(_normal(bg, shape), _normal(bg, shape))


def laplace(bg, loc=0.0, scale=1.0, size=None):
    loc = _param(bg, loc, "loc", CONS_NONE)
    scale = _param(bg, scale, "scale", CONS_NON_NEGATIVE)
    return _u_transform(bg, "laplace", size, (loc, scale))


def logistic(bg, loc=0.0, scale=1.0, size=None):
    loc = _param(bg, loc, "loc", CONS_NONE)
    scale = _param(bg, scale, "scale", CONS_NON_NEGATIVE)
    return _u_transform(bg, "logistic", size, (loc, scale))


def gumbel(bg, loc=0.0, scale=1.0, size=None):
    loc = _param(bg, loc, "loc", CONS_NONE)
    scale = _param(bg, scale, "scale", CONS_NON_NEGATIVE)
    return _u_transform(bg, "gumbel", size, (loc, scale))


def weibull(bg, a, size=None):
    a = _param(bg, a, "a", CONS_NON_NEGATIVE)
    return _u_transform(bg, "weibull", size, (a,))


def pareto(bg, a, size=None):
    a = _param(bg, a, "a", CONS_POSITIVE)
    return _u_transform(bg, "pareto", size, (a,))


def power(bg, a, size=None):
    a = _param(bg, a, "a", CONS_POSITIVE)
    return _u_transform(bg, "power", size, (a,))


def rayleigh(bg, scale=1.0, size=None):
    scale = _param(bg, scale, "scale", CONS_NON_NEGATIVE)
    return _u_transform(bg, "rayleigh", size, (scale,))


def triangular(bg, left, mode, right, size=None):
    left = as_param(bg, left)
    mode = as_param(bg, mode)
    right = as_param(bg, right)
    if is_scalar(left) and is_scalar(mode) and is_scalar(right):
        check(left > mode, "left > mode")
        check(mode > right, "mode > right")
        check(left == right, "left == right")
    else:
        check(uf.greater(left, mode), "left > mode")
        check(uf.greater(mode, right), "mode > right")
        check(uf.equal(left, right), "left == right")
    return _u_transform(bg, "triangular", size, (left, mode, right))


def vonmises(bg, mu, kappa, size=None):
    mu = _param(bg, mu, "mu", CONS_NONE)
    kappa = _param(bg, kappa, "kappa", CONS_NON_NEGATIVE)
    return _philox(bg, "vonmises", size, (mu, kappa))


def wald(bg, mean, scale, size=None):
    mean = _param(bg, mean, "mean", CONS_POSITIVE)
    scale = _param(bg, scale, "scale", CONS_POSITIVE)
    shape = output_shape(size, mean, scale)
    return _launch("wald", _common.empty(bg, shape), _normal(bg, shape), _uniform(bg, shape), mean, scale)


# ---------------------------------------------------------------------------
# Multivariate
# ---------------------------------------------------------------------------
def dirichlet(bg, alpha, size=None):
    if isinstance(alpha, ndarray):
        alpha_dev = as_param(bg, alpha)
        if alpha_dev.ndim != 1:
            raise ValueError("setting an array element with a sequence. The requested array would exceed the "
                             "maximum number of dimension of 1.")
        k = alpha_dev.shape[0]
    else:
        k = len(alpha)  # NumPy's TypeError for scalars: "object of type 'int' has no len()"
        host = numpy.array(alpha, dtype=numpy.float64, ndmin=1)
        if host.ndim != 1:
            raise ValueError("setting an array element with a sequence. The requested array would exceed the "
                             "maximum number of dimension of 1.")
        alpha_dev = _common.to_device(bg, host)
    check(uf.less(alpha_dev, 0), "alpha < 0")
    size = _common.normalize_size(size)
    shape = (() if size is None else size) + (k,)
    if math.prod(shape) == 0:
        return _common.empty(bg, shape)
    logg = _launch("log_gamma", _common.empty(bg, shape), alpha_dev, _key(bg))
    # Normalised gammas as a softmax of their logarithms. A row whose alphas
    # are all zero has every log at -inf: NumPy gives zeros there.
    m = logg.max(axis=-1, keepdims=True)
    dead = uf.equal(m, -numpy.inf)
    e = uf.exp(uf.subtract(logg, _searching.where(dead, 0.0, m)))
    total = e.sum(axis=-1, keepdims=True)
    return _searching.where(dead, 0.0, uf.true_divide(e, total))


def multivariate_normal(bg, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
    mean = as_param(bg, mean)
    cov = as_param(bg, cov)
    if is_scalar(mean):
        mean = _common.to_device(bg, numpy.asarray(mean))
    if is_scalar(cov):
        cov = _common.to_device(bg, numpy.asarray(cov))
    size = _common.normalize_size(size)
    shape = () if size is None else size
    if mean.ndim != 1:
        raise ValueError("mean must be 1 dimensional")
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    n = mean.shape[0]
    if n != cov.shape[0]:
        raise ValueError("mean and cov must have same length")
    final_shape = tuple(shape) + (n,)
    if method != "cholesky" and check_valid not in ("warn", "raise", "ignore"):
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")

    def not_psd():
        msg = "covariance is not symmetric positive-semidefinite."
        if check_valid == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=3)
        elif check_valid == "raise":
            raise ValueError(msg)

    if method == "cholesky":
        # Cholesky raises LinAlgError for a matrix that is not positive
        # definite, as NumPy's does.
        factor = _linalg.cholesky(cov).T
    elif method == "eigh":
        s, u = _linalg.eigh(cov)
        if check_valid != "ignore" and bool(uf.less(s, -tol).any()):
            not_psd()
        factor = uf.multiply(u, uf.sqrt(uf.absolute(s))).T
    else:
        _, s, vh = _linalg.svd(cov)
        if check_valid != "ignore":
            recon = _products.matmul(uf.multiply(vh.T, s), vh)
            if not _numeric.allclose(recon, cov, rtol=tol, atol=tol):
                not_psd()
        factor = uf.multiply(uf.sqrt(s)[:, None], vh)
    x = _normal(bg, final_shape).reshape((-1, n))
    y = uf.add(_products.matmul(x, factor), mean)
    return y.reshape(final_shape)


def _on_device(fn):
    # Scalars passed to kernels and every temporary must live on the
    # generator's device, whatever device is current at the call.
    @functools.wraps(fn)
    def on_device(bg, *args, **kwargs):
        with bg.device:
            return fn(bg, *args, **kwargs)
    return on_device


for _name in __all__:
    globals()[_name] = _on_device(globals()[_name])
del _name
