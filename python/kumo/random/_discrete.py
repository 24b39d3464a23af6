"""Discrete distributions of numpy.random.Generator on kumo arrays.

Every sampler is one elementwise kernel: element i of a call runs its own
Philox4x32-10 stream (``_philox.PHILOX_PREAMBLE``) under a key drawn from the
generator, so rejection samplers can take as many draws as they need and a
seed gives the same samples on the host and on CUDA. Output dtype is int64 as
in NumPy's Generator.

The kernels use the platform's log/exp/log1p/pow (host libm, CUDA's math
library), which may differ in the last bit; a draw can therefore differ
between backends only when a rejection test or a floor() lands within an ulp
of its threshold (probability ~1e-15 per test), never systematically.

Decisions:

* Poisson always runs the Philox kernel (inversion for lam < 10, Hoermann's
  PTRS transformed rejection above, the same split as NumPy), also for a
  scalar lam: cuRAND's scalar Poisson generator would make
  ``poisson(5.0, size=n)`` and ``poisson(full(n, 5.0))`` differ for one seed;
  here they are identical.
* Binomial: inversion for n*min(p, 1-p) < 10, else Hoermann's BTRD
  (transformed rejection with decomposition); p > 0.5 is drawn as
  n - Binomial(n, 1-p). The final acceptance test is evaluated in a
  cancellation-free form (log1p of small relative differences and Stirling
  corrections), so it stays exact for n up to 2**63 - 1.
* Hypergeometric: inversion (search from 0) when min(nsample, total-nsample)
  < 10, else a ratio-of-uniforms rejection with a table-mountain hat
  (Stadlober's HRUA construction) on the reduced problem.
* Geometric: inversion, floor(log(U) / log1p(-p)) + 1 with U uniform on (0, 1].
* Logseries: Kemp's LK algorithm. Zipf: Devroye's rejection.
* Negative binomial: Poisson(Gamma(n, (1-p)/p)), with NumPy's "n too large or
  p too small" limit.
* Multinomial: sequential conditional binomials over the categories, one
  kernel thread per output row. multivariate_hypergeometric: 'marginals' is
  sequential conditional hypergeometrics; 'count' draws the items one at a
  time without replacement (or the items left out, whichever is fewer), so it
  needs no memory proportional to sum(colors) (NumPy's 'count' allocates that
  and may raise MemoryError; kumo's never does).
"""
import numbers

import numpy

from kumo import _core
from kumo import _creation
from kumo import _manipulation
from kumo import _ufuncs as uf
from kumo._kernel import ElementwiseKernel
from kumo.random import _common
from kumo.random._common import (CONS_BOUNDED_0_1, CONS_BOUNDED_GT_0_1, CONS_BOUNDED_LT_0_1, CONS_GT_1,
                                 CONS_NON_NEGATIVE_INT, CONS_POISSON, as_param, check, check_constraint, is_scalar,
                                 output_shape)
from kumo.random._philox import PHILOX_PREAMBLE

__all__ = ["binomial", "poisson", "geometric", "hypergeometric", "logseries", "zipf",
           "multinomial", "multivariate_hypergeometric"]

ndarray = _core.ndarray
_INT64_MAX = int(numpy.iinfo(numpy.int64).max)
_HYPERGEOMETRIC_MAX = 10 ** 9  # NumPy's Generator limit on ngood and nbad (and on sum(colors) for 'marginals')

# ---------------------------------------------------------------------------
# Device code shared by the kernels (host C++ and NVRTC alike).
# ---------------------------------------------------------------------------
_DISCRETE_PREAMBLE = PHILOX_PREAMBLE + r"""
#ifndef KUMO_DISCRETE_DEFINED
#define KUMO_DISCRETE_DEFINED
#define KUMO_LN_SQRT_2PI_ 0.91893853320467274178

// log(k!) for an integer-valued k >= 0.
KUMO_INL double kumo_lfact_(double k) {
  if (k < 16.0) {
    double s = 0.0;
    for (double j = 2.0; j <= k; j += 1.0) s += log(j);
    return s;
  }
  const double x = k + 1.0, ix = 1.0 / x, ix2 = ix * ix;
  return (x - 0.5) * log(x) - x + KUMO_LN_SQRT_2PI_
         + ix * (1.0 / 12.0 - ix2 * (1.0 / 360.0 - ix2 * (1.0 / 1260.0 - ix2 / 1680.0)));
}

// Stirling's correction: log(k!) - [(k + 1/2) log(k + 1) - (k + 1) + log(sqrt(2 pi))].
// Kept separate so that differences of log-factorials of large, close
// arguments never subtract two numbers of size k log k.
KUMO_INL double kumo_stirling_fc_(double k) {
  if (k < 16.0) return kumo_lfact_(k) - ((k + 0.5) * log(k + 1.0) - (k + 1.0) + KUMO_LN_SQRT_2PI_);
  const double ix = 1.0 / (k + 1.0), ix2 = ix * ix;
  return ix * (1.0 / 12.0 - ix2 * (1.0 / 360.0 - ix2 * (1.0 / 1260.0 - ix2 / 1680.0)));
}

// A double holding a non-negative integer as int64, saturating at INT64_MAX.
KUMO_INL long long kumo_to_i64_(double k) {
  return k >= 9223372036854775807.0 ? 9223372036854775807LL : (long long)k;
}

// ---- Poisson --------------------------------------------------------------
KUMO_INL long long kumo_poisson_(KumoPhilox& r, double lam) {
  if (!(lam > 0.0)) return 0;
  if (lam < 10.0) {
    // Inversion by sequential search; a draw lost in the rounded-off tail restarts.
    const double p0 = exp(-lam);
    for (;;) {
      double u = kumo_philox_uniform(r), p = p0;
      long long k = 0;
      while (u > p) {
        u -= p;
        ++k;
        p *= lam / (double)k;
        if (!(p > 0.0)) break;
      }
      if (u <= p) return k;
    }
  }
  // PTRS (Hoermann 1993, "The transformed rejection method for generating
  // Poisson random variables").
  const double slam = sqrt(lam);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double log_inv_alpha = log(1.1239 + 1.1328 / (b - 3.4));
  const double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = kumo_philox_uniform(r) - 0.5;
    const double v = kumo_philox_uniform(r);
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return kumo_to_i64_(k);
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    // log(lam^k e^-lam / k!) with d = k + 1 - lam: no cancellation of O(lam log lam) terms.
    const double d = (k + 1.0) - lam;
    const double log_pk = d - k * log1p(d / lam) - 0.5 * log(k + 1.0) - KUMO_LN_SQRT_2PI_ - kumo_stirling_fc_(k);
    if (log(v) + log_inv_alpha - log(a / (us * us) + b) <= log_pk) return kumo_to_i64_(k);
  }
}

// ---- Binomial -------------------------------------------------------------
KUMO_INL long long kumo_binomial_inversion_(KumoPhilox& r, long long n, double p) {
  const double q = 1.0 - p, s = p / q, a = ((double)n + 1.0) * s;
  const double p0 = exp((double)n * log1p(-p));
  for (;;) {
    double u = kumo_philox_uniform(r), pk = p0;
    long long x = 0;
    bool lost = false;
    while (u > pk) {
      u -= pk;
      ++x;
      if (x > n) { lost = true; break; }
      pk *= a / (double)x - s;
      if (!(pk > 0.0)) { lost = true; break; }
    }
    if (!lost) return x;
  }
}

// BTRD (Hoermann 1993, "The generation of binomial random variates"), for
// n p >= 10 and p <= 1/2.
KUMO_INL long long kumo_binomial_btrd_(KumoPhilox& r, long long n, double p) {
  const double nd = (double)n, q = 1.0 - p;
  const double m = floor((nd + 1.0) * p);
  const double rr = p / q, nr = (nd + 1.0) * rr, npq = nd * p * q, sq = sqrt(npq);
  const double b = 1.15 + 2.53 * sq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = nd * p + 0.5;
  const double alpha = (2.83 + 5.1 / b) * sq;
  const double vr = 0.92 - 4.2 / b, urvr = 0.86 * vr;
  const double log_rr = log(rr), fc_m = kumo_stirling_fc_(m) + kumo_stirling_fc_(nd - m);
  for (;;) {
    double v = kumo_philox_uniform(r), u;
    if (v <= urvr) {
      u = v / vr - 0.43;
      const double k = floor((2.0 * a / (0.5 - fabs(u)) + b) * u + c);
      if (k < 0.0 || k > nd) continue;
      return (long long)k;
    }
    if (v >= vr) {
      u = kumo_philox_uniform(r) - 0.5;
    } else {
      u = v / vr - 0.93;
      u = (u < 0.0 ? -0.5 : 0.5) - u;
      v = kumo_philox_uniform(r) * vr;
    }
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > nd) continue;
    v = v * alpha / (a / (us * us) + b);
    const double km = fabs(k - m);
    if (km <= 15.0) {
      // f(k) / f(m) by the recurrence f(j) / f(j-1) = (n + 1) r / j - r.
      double f = 1.0;
      if (m < k) {
        for (double j = m + 1.0; j <= k; j += 1.0) f *= nr / j - rr;
      } else if (m > k) {
        for (double j = k + 1.0; j <= m; j += 1.0) v *= nr / j - rr;
      }
      if (v <= f) return (long long)k;
      continue;
    }
    // log(f(k) / f(m)) from Stirling's formula, written in differences
    // delta = k - m so that it stays exact for n near 2**63.
    const double delta = k - m, nk = nd - k + 1.0, nm = nd - m + 1.0;
    const double log_ratio = -(m + 0.5) * log1p(delta / (m + 1.0)) + (nm - 0.5) * log1p(delta / nk)
                             + delta * (log(nk / (k + 1.0)) + log_rr)
                             + fc_m - kumo_stirling_fc_(k) - kumo_stirling_fc_(nd - k);
    if (log(v) <= log_ratio) return (long long)k;
  }
}

KUMO_INL long long kumo_binomial_(KumoPhilox& r, long long n, double p) {
  if (n <= 0 || !(p > 0.0)) return 0;
  if (p >= 1.0) return n;
  const bool flip = p > 0.5;
  const double pp = flip ? 1.0 - p : p;  // exact for p in [1/2, 1]
  const long long x = (double)n * pp < 10.0 ? kumo_binomial_inversion_(r, n, pp) : kumo_binomial_btrd_(r, n, pp);
  return flip ? n - x : x;
}

// ---- Hypergeometric -------------------------------------------------------
// Number of "good" items in `sample` draws without replacement from `good`
// good and `bad` bad items (0 <= sample <= good + bad < 2**31).
KUMO_INL long long kumo_hypergeometric_(KumoPhilox& r, long long good, long long bad, long long sample) {
  const long long total = good + bad;
  if (sample <= 0 || good <= 0) return 0;
  if (bad <= 0) return sample;
  // Reduced problem: m <= total / 2 draws, counting the smaller colour g.
  const long long m = sample <= total - sample ? sample : total - sample;
  const long long g = good <= bad ? good : bad;
  const long long G = total - g;
  long long k = 0;
  if (m < 10) {
    // Inversion from 0: P(0) = prod (G - j) / (total - j), then
    // P(k+1) / P(k) = (g - k)(m - k) / ((k + 1)(G - m + k + 1)).
    double p0 = 1.0;
    for (long long j = 0; j < m; ++j) p0 *= (double)(G - j) / (double)(total - j);
    const long long kmax = g < m ? g : m;
    for (;;) {
      double u = kumo_philox_uniform(r), pk = p0;
      k = 0;
      while (u > pk && k < kmax) {
        u -= pk;
        pk *= (double)((g - k) * (m - k)) / (double)((k + 1) * (G - m + k + 1));
        ++k;
      }
      if (u <= pk) break;
    }
  } else {
    // Ratio of uniforms: X = a + h (V - 1/2) / U, accept floor(X) = k when
    // U^2 <= f(k) / f(mode). h = 2 sqrt(2/e) sigma' + 3 - 2 sqrt(3/e) bounds
    // sqrt(f(floor(x))) |x - a| for unimodal discrete f (Stadlober).
    const double td = (double)total, md = (double)m, gd = (double)g, Gd = (double)G;
    const double mu = md * gd / td;
    const double a = mu + 0.5;
    const double var = (td - md) * md * (gd / td) * (Gd / td) / (td - 1.0);
    const double c = sqrt(var + 0.5);
    const double h = 1.7155277699214135 * c + 0.8989161620588988;
    const double mode = floor((md + 1.0) * (gd + 1.0) / (td + 2.0));
    const double lf_mode = kumo_lfact_(mode) + kumo_lfact_(gd - mode) + kumo_lfact_(md - mode)
                           + kumo_lfact_(Gd - md + mode);
    const double kmax = gd < md ? gd : md;
    double bound = floor(a + 16.0 * c);  // beyond 16 sigma the mass is below 1e-50
    if (bound > kmax + 1.0) bound = kmax + 1.0;
    for (;;) {
      const double u = kumo_philox_uniform(r), v = kumo_philox_uniform(r);
      const double x = a + h * (v - 0.5) / u;
      if (x < 0.0 || x >= bound) continue;
      const double kd = floor(x);
      const double t = lf_mode - (kumo_lfact_(kd) + kumo_lfact_(gd - kd) + kumo_lfact_(md - kd)
                                  + kumo_lfact_(Gd - md + kd));
      if (2.0 * log(u) <= t) { k = (long long)kd; break; }
    }
  }
  if (good > bad) k = m - k;          // count of good items in the m draws
  if (m < sample) k = good - k;       // the m draws were the items left out
  return k;
}

// ---- Logseries (Kemp's LK) ------------------------------------------------
KUMO_INL long long kumo_logseries_(KumoPhilox& r, double p) {
  const double lq = log1p(-p);
  for (;;) {
    const double v = kumo_philox_uniform(r);
    if (v >= p) return 1;
    const double u = kumo_philox_uniform(r);
    const double q = -expm1(lq * u);  // 1 - (1 - p)^u
    if (v <= q * q) {
      const double k = floor(1.0 + log(v) / log(q));
      if (k < 1.0 || !(k == k)) continue;
      return kumo_to_i64_(k);
    }
    return v >= q ? 1 : 2;
  }
}

// ---- Zipf (Devroye, "Non-Uniform Random Variate Generation", X.6) ----------
KUMO_INL long long kumo_zipf_(KumoPhilox& r, double a) {
  const double am1 = a - 1.0;
  if (am1 >= 1023.0) return 1;  // P(X >= 2) < 2**-1023
  const double b = exp2(am1);
  for (;;) {
    const double u = kumo_philox_uniform(r), v = kumo_philox_uniform(r);
    const double x = floor(pow(u, -1.0 / am1));
    if (!(x >= 1.0) || x >= 9223372036854775807.0) continue;  // int64 range only, as NumPy
    const double t = pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return (long long)x;
  }
}

// Uniform integer in [0, n) for 0 < n, without modulo bias.
KUMO_INL unsigned long long kumo_bounded_u64_(KumoPhilox& r, unsigned long long n) {
  const unsigned long long reject_below = (0ULL - n) % n;  // 2**64 mod n
  for (;;) {
    const unsigned long long x = kumo_philox_u64(r);
    if (x >= reject_below) return x % n;
  }
}
#endif
"""


def _kernel(in_params, out_params, body, name):
    return ElementwiseKernel(in_params, out_params, "KumoPhilox r; kumo_philox_init(r, key, i);\n" + body,
                             name, preamble=_DISCRETE_PREAMBLE)


_kernels = {}


def _get(name):
    k = _kernels.get(name)
    if k is None:
        k = _kernels[name] = _make_kernel(name)
    return k


def _make_kernel(name):
    if name == "poisson":
        return _kernel("float64 lam, uint64 key", "int64 y", "y = kumo_poisson_(r, lam);", "kumo_rand_poisson")
    if name == "binomial":
        return _kernel("int64 n, float64 p, uint64 key", "int64 y", "y = kumo_binomial_(r, n, p);",
                       "kumo_rand_binomial")
    if name == "hypergeometric":
        return _kernel("int64 good, int64 bad, int64 sample, uint64 key", "int64 y",
                       "y = kumo_hypergeometric_(r, good, bad, sample);", "kumo_rand_hypergeometric")
    if name == "logseries":
        return _kernel("float64 p, uint64 key", "int64 y", "y = kumo_logseries_(r, p);", "kumo_rand_logseries")
    if name == "zipf":
        return _kernel("float64 a, uint64 key", "int64 y", "y = kumo_zipf_(r, a);", "kumo_rand_zipf")
    if name == "geometric":
        # u is uniform on (0, 1]: log(u) / log1p(-p) >= 0, so the result is >= 1 (and 1 for p = 1).
        return ElementwiseKernel(
            "float64 u, float64 p", "int64 y",
            "y = kumo_to_i64_(floor(log(u) / log1p(-p)) + 1.0);", "kumo_rand_geometric",
            preamble=_DISCRETE_PREAMBLE)
    if name == "multinomial":
        # One thread per output row: pv is the (rows, k) probabilities, out the (rows, k) counts.
        return _kernel("int64 n, raw float64 pv, int64 k, uint64 key", "raw int64 out", r"""
            const long long base = (long long)i * k;
            long long rem = n;
            double prem = 1.0;
            for (long long j = 0; j < k - 1; ++j) {
              const double pj = pv[base + j];
              long long x = 0;
              if (rem > 0 && prem > 0.0) {
                double pr = pj / prem;
                if (pr > 1.0) pr = 1.0;
                x = kumo_binomial_(r, rem, pr);
              }
              out[base + j] = x;
              rem -= x;
              prem -= pj;
            }
            out[base + k - 1] = rem;""", "kumo_rand_multinomial")
    if name == "mvhg_marginals":
        return _kernel("int64 nsample, raw int64 colors, int64 k, int64 total, uint64 key", "raw int64 out", r"""
            const long long base = (long long)i * k;
            long long rem = nsample, rem_total = total;
            for (long long j = 0; j < k - 1; ++j) {
              const long long cj = colors[j];
              const long long x = rem > 0 ? kumo_hypergeometric_(r, cj, rem_total - cj, rem) : 0;
              out[base + j] = x;
              rem -= x;
              rem_total -= cj;
            }
            out[base + k - 1] = rem;""", "kumo_rand_mvhg_marginals")
    if name == "mvhg_count":
        # Draw min(nsample, total - nsample) items one by one; with the
        # complement, the result is colors minus the items drawn.
        return _kernel("int64 nsample, raw int64 colors, int64 k, int64 total, uint64 key", "raw int64 out", r"""
            const long long base = (long long)i * k;
            const bool complement = nsample > total - nsample;
            const long long draws = complement ? total - nsample : nsample;
            for (long long j = 0; j < k; ++j) out[base + j] = 0;
            long long left = total;
            for (long long t = 0; t < draws; ++t, --left) {
              long long idx = (long long)kumo_bounded_u64_(r, (unsigned long long)left);
              long long j = 0;
              for (;; ++j) {
                const long long avail = colors[j] - out[base + j];
                if (idx < avail) break;
                idx -= avail;
              }
              out[base + j] += 1;
            }
            if (complement)
              for (long long j = 0; j < k; ++j) out[base + j] = colors[j] - out[base + j];""",
                       "kumo_rand_mvhg_count")
    raise KeyError(name)


# ---------------------------------------------------------------------------
# Parameter handling
# ---------------------------------------------------------------------------
def _int_scalar(value):
    """A scalar integer parameter as NumPy's Generator converts it (C long)."""
    v = int(value)  # floats truncate as in NumPy; NaN and inf raise ValueError and OverflowError
    if not -2 ** 63 <= v < 2 ** 63:
        raise OverflowError("Python int too large to convert to C long")
    return v


def _int_param(bg, value):
    """An int64 distribution parameter: a Python int for a scalar, else a kumo
    int64 array. Arrays must cast safely to int64 (NumPy's TypeError otherwise);
    sequences are converted like ``numpy.array(seq, dtype=int64)``."""
    if isinstance(value, ndarray):
        if not numpy.can_cast(value.dtype, numpy.int64, "safe"):
            raise TypeError("Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'"
                            % value.dtype)
        return as_param(bg, value, numpy.int64)
    if isinstance(value, numpy.ndarray):
        if value.ndim == 0:
            return _int_scalar(value[()])
        if not numpy.can_cast(value.dtype, numpy.int64, "safe"):
            raise TypeError("Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'"
                            % value.dtype)
        return as_param(bg, value, numpy.int64)
    if isinstance(value, (list, tuple)):
        return as_param(bg, numpy.array(value, dtype=numpy.int64), numpy.int64)
    return _int_scalar(value)


def _empty_int(bg, shape):
    return _common.empty(bg, shape, numpy.int64)


def _launch(bg, name, shape, *params):
    """Run sampler `name` elementwise over params broadcast to `shape`."""
    out = _empty_int(bg, shape)
    if out.size == 0:
        return out
    _get(name)(*params, bg._next_key(), out)
    return out


def _float_param(bg, value, name, cons):
    p = as_param(bg, value, numpy.float64)
    check_constraint(p, name, cons)
    return p


def _param_any(p, kumo_pred, scalar_pred):
    if is_scalar(p):
        return bool(scalar_pred(p))
    return p.size > 0 and bool(kumo_pred(p).any())


# ---------------------------------------------------------------------------
# Distributions
# ---------------------------------------------------------------------------
def poisson(bg, lam=1.0, size=None):
    """Poisson(lam) samples as int64."""
    lam = _float_param(bg, lam, "lam", CONS_POISSON)
    return _launch(bg, "poisson", output_shape(size, lam), lam)


def binomial(bg, n, p, size=None):
    """Binomial(n, p) samples as int64 (n integer >= 0, 0 <= p <= 1)."""
    p = _float_param(bg, p, "p", CONS_BOUNDED_0_1)
    n = _int_param(bg, n)
    check_constraint(n, "n", CONS_NON_NEGATIVE_INT)
    return _launch(bg, "binomial", output_shape(size, n, p), n, p)


def geometric(bg, p, size=None):
    """Number of trials up to and including the first success (>= 1)."""
    p = _float_param(bg, p, "p", CONS_BOUNDED_GT_0_1)
    shape = output_shape(size, p)
    out = _empty_int(bg, shape)
    if out.size == 0:
        return out
    u = bg._random_pos(shape, numpy.float64)
    _get("geometric")(u, p, out)
    return out


def hypergeometric(bg, ngood, nbad, nsample, size=None):
    """Good items among nsample drawn without replacement from ngood good and nbad bad ones."""
    ngood = _int_param(bg, ngood)
    nbad = _int_param(bg, nbad)
    nsample = _int_param(bg, nsample)

    def any_ge(p, limit):
        return _param_any(p, lambda a: uf.greater_equal(a, limit), lambda a: a >= limit)

    check(any_ge(ngood, _HYPERGEOMETRIC_MAX) or any_ge(nbad, _HYPERGEOMETRIC_MAX),
          "both ngood and nbad must be less than %d" % _HYPERGEOMETRIC_MAX)
    # NumPy's order: the size limit, the urn too small, then the signs.
    if all(is_scalar(x) for x in (ngood, nbad, nsample)):
        short = ngood + nbad < nsample
    else:
        short = _nonempty(ngood, nbad, nsample) and bool(uf.less(uf.add(ngood, nbad), nsample).any())
    check(short, "ngood + nbad < nsample")
    check_constraint(ngood, "ngood", CONS_NON_NEGATIVE_INT)
    check_constraint(nbad, "nbad", CONS_NON_NEGATIVE_INT)
    check_constraint(nsample, "nsample", CONS_NON_NEGATIVE_INT)
    shape = output_shape(size, ngood, nbad, nsample)
    return _launch(bg, "hypergeometric", shape, ngood, nbad, nsample)


def _nonempty(*params):
    return all(is_scalar(x) or x.size > 0 for x in params)


def logseries(bg, p, size=None):
    """Logarithmic series distribution (support k >= 1)."""
    p = _float_param(bg, p, "p", CONS_BOUNDED_LT_0_1)
    return _launch(bg, "logseries", output_shape(size, p), p)


def zipf(bg, a, size=None):
    """Zipf (zeta) distribution with exponent a > 1 (support k >= 1)."""
    a = _float_param(bg, a, "a", CONS_GT_1)
    return _launch(bg, "zipf", output_shape(size, a), a)


def multinomial(bg, n, pvals, size=None):
    """Counts of n trials over the categories of pvals (last axis); the last
    probability is implied by the others, as in NumPy."""
    pv_host = None
    if isinstance(pvals, ndarray):
        pv = as_param(bg, pvals, numpy.float64)
    else:
        pv_host = numpy.asarray(pvals, dtype=numpy.float64)
        pv = pv_host
    if pv.ndim == 0 or pv.shape[-1] == 0:
        raise ValueError("pvals must have at least 1 dimension and the last dimension of pvals must be greater "
                         "than 0.")
    if pv_host is not None:
        bad = not bool(numpy.all((pv_host >= 0) & (pv_host <= 1)))
        head_sum = pv_host[..., :-1].sum(axis=-1)
        over = bool(numpy.any(head_sum > 1.0 + 1e-12))
        pv = _common.to_device(bg, pv_host)
    else:
        bad = pv.size > 0 and not bool(uf.logical_and(uf.greater_equal(pv, 0), uf.less_equal(pv, 1)).all())
        over = pv.size > 0 and bool(uf.greater(pv[..., :-1].sum(axis=-1), 1.0 + 1e-12).any())
    check(bad, "pvals < 0, pvals > 1 or pvals contains NaNs")
    check(over, "sum(pvals[:-1]) > 1.0" if pv.ndim == 1 else "sum(pvals[...,:-1]) > 1.0")
    n = _int_param(bg, n)
    check_constraint(n, "n", CONS_NON_NEGATIVE_INT)
    k = pv.shape[-1]
    batch = output_shape(size, n, _BatchShape(tuple(pv.shape[:-1])))
    out = _empty_int(bg, batch + (k,))
    rows = 1
    for s in batch:
        rows *= s
    if rows == 0:
        return out
    with bg.device:
        n_rows = _manipulation.broadcast_to(_creation.asarray(numpy.int64(n)) if is_scalar(n) else n, batch)
        pv_rows = _manipulation.broadcast_to(pv, batch + (k,))
    _get("multinomial")(n_rows, pv_rows, k, bg._next_key(), out)
    return out


class _BatchShape:
    """Stands for an array parameter of a given shape in output_shape()."""

    def __init__(self, shape):
        self.shape = shape


def multivariate_hypergeometric(bg, colors, nsample, size=None, method="marginals"):
    """Counts per colour of nsample items drawn without replacement from an
    urn holding colors[i] items of colour i."""
    if method not in ("count", "marginals"):
        raise ValueError('method must be "count" or "marginals".')
    if isinstance(nsample, ndarray) and nsample.ndim == 0:
        nsample = _core.to_numpy(nsample)[()]
    if not isinstance(nsample, (numbers.Integral, numpy.integer)) or isinstance(nsample, (bool, numpy.bool_)):
        raise ValueError("nsample must be an integer")
    nsample = int(nsample)
    if nsample < 0:
        raise ValueError("nsample must be nonnegative.")
    if nsample > _INT64_MAX:
        raise ValueError("nsample must not exceed %d" % _INT64_MAX)
    host = _core.to_numpy(colors) if isinstance(colors, ndarray) else colors
    invalid = ("colors must be a one-dimensional sequence of nonnegative integers not exceeding %d." % _INT64_MAX)
    try:
        c = numpy.asarray(host)
        if c.dtype.kind not in "iub" and c.size > 0:
            raise ValueError(invalid)
        c = c.astype(numpy.int64) if c.size == 0 or c.dtype.kind != "u" or numpy.all(c <= _INT64_MAX) else None
    except OverflowError:
        c = None
    if c is None or c.ndim != 1 or numpy.any(c < 0):
        raise ValueError(invalid)
    total = sum(int(x) for x in c)
    if total > _INT64_MAX:
        raise ValueError("sum(colors) must not exceed the maximum value of a 64 bit signed integer (%d)"
                         % _INT64_MAX)
    if method == "marginals" and total >= _HYPERGEOMETRIC_MAX:
        raise ValueError('When method is "marginals", sum(colors) must be less than %d.' % _HYPERGEOMETRIC_MAX)
    if nsample > total:
        raise ValueError("nsample > sum(colors)")
    shape = () if size is None else _common.normalize_size(size)
    k = c.shape[0]
    out = _empty_int(bg, shape + (k,))
    rows = int(numpy.prod(shape, dtype=numpy.int64))
    if rows == 0 or k == 0:
        return out
    colors_dev = _common.to_device(bg, c)
    with bg.device:
        ns = _creation.full(shape, nsample, dtype=numpy.int64)
    _get("mvhg_" + method)(ns, colors_dev, k, total, bg._next_key(), out)
    return out
