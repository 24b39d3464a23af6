"""Bit generators over cuRAND: Philox4x3210, XORWOW and MRG32k3a.

A bit generator is a position in one cuRAND stream: (kind, seed, offset),
where offset counts the 32-bit words drawn so far. Every output is a fixed
function of the words it consumes, computed by kumo kernels that compile for
both backends with the same arithmetic, so a seed gives the same numbers on the
CPU (cuRAND host generators) and on a GPU (cuRAND device generators):

- float64 uniform: 2 words -> 53 bits; float32: 1 word -> 24 bits.
- standard normal (Box-Muller): a pair of float64 normals from 4 words, a pair
  of float32 normals from 2 words; an odd count draws a whole last pair.
  The log, sin/cos and exp used here are written out with explicit fma, because
  the host libm and CUDA's math library may differ in the last bit.
- Poisson variates come from cuRAND (one offset unit per value).
"""
import os
import threading

import numpy

from kumo import _core
from kumo._device import Device
from kumo._kernel import ElementwiseKernel

_MASK64 = (1 << 64) - 1

# Math with one rounding sequence on every compiler: every multiply-add is an
# explicit fma, so no compiler can contract differently; the remaining
# operations (+, *, /, sqrt, frexp, ldexp, rint) are exactly rounded in IEEE.
RNG_MATH_PREAMBLE = r"""
#ifndef KUMO_RNG_MATH_DEFINED
#define KUMO_RNG_MATH_DEFINED
// Without trapping math GCC may if-convert the selects below, so the
// transforms vectorize (as for the exp ufunc; no complex selects here).
#if !defined(__CUDACC_RTC__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif
// Integer-to-double conversions that AVX2 can vectorize (it has no packed
// 64-bit integer conversion): OR the integer into the mantissa of 2^52 and
// subtract 2^52. Exact, so the results are those of a plain cast.
KUMO_FN double kumo_rng_small_u64_to_double(unsigned long long x) {  // x < 2^52
  return kumo::detail::u2d(0x4330000000000000ull | x) - 4503599627370496.0;
}
KUMO_FN double kumo_rng_u54_to_double(unsigned long long x) {  // x <= 2^53
  const double hi = kumo_rng_small_u64_to_double(x >> 26);
  const double lo = kumo_rng_small_u64_to_double(x & 0x3FFFFFFull);
  return fma(hi, 67108864.0, lo);  // exact: the sum is representable
}
// log(x) for x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s), s = (m-1)/(m+1).
KUMO_FN double kumo_rng_log(double x) {
  // frexp by bit manipulation (it vectorizes; the libm call does not).
  double scale_e = 0.0;
  if (x < 2.2250738585072014e-308) { x = x * 18014398509481984.0; scale_e = -54.0; }  // subnormal: times 2^54
  const uint64_t bits = kumo::detail::d2u(x);
  double e = kumo_rng_small_u64_to_double(bits >> 52) - 1022.0 + scale_e;
  double m = kumo::detail::u2d((bits & 0x000FFFFFFFFFFFFFull) | 0x3FE0000000000000ull);  // in [0.5, 1)
  if (m < 0.70710678118654752440) { m = m * 2.0; e = e - 1.0; }
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double s2 = s * s;
  double p = 1.0 / 23.0;
  p = fma(p, s2, 1.0 / 21.0); p = fma(p, s2, 1.0 / 19.0); p = fma(p, s2, 1.0 / 17.0);
  p = fma(p, s2, 1.0 / 15.0); p = fma(p, s2, 1.0 / 13.0); p = fma(p, s2, 1.0 / 11.0);
  p = fma(p, s2, 1.0 / 9.0); p = fma(p, s2, 1.0 / 7.0); p = fma(p, s2, 1.0 / 5.0);
  p = fma(p, s2, 1.0 / 3.0);
  const double t = 2.0 * s;
  const double logm = fma(t * s2, p, t);
  return fma(e, 0.69314718055994530942, logm);
}
// cos and sin of 2*pi*t for t in [0, 1]; the quadrant comes from t exactly.
KUMO_FN void kumo_rng_sincos_turn(double t, double* sn, double* cs) {
  const double v = t * 4.0;
  const double q = rint(v);
  const double a = (v - q) * 1.57079632679489661923;
  const double a2 = a * a;
  double ps = -1.0 / 121645100408832000.0;                  // -1/19!
  ps = fma(ps, a2, 1.0 / 355687428096000.0);                // 1/17!
  ps = fma(ps, a2, -1.0 / 1307674368000.0);
  ps = fma(ps, a2, 1.0 / 6227020800.0);
  ps = fma(ps, a2, -1.0 / 39916800.0);
  ps = fma(ps, a2, 1.0 / 362880.0);
  ps = fma(ps, a2, -1.0 / 5040.0);
  ps = fma(ps, a2, 1.0 / 120.0);
  ps = fma(ps, a2, -1.0 / 6.0);
  const double s = fma(a * a2, ps, a);
  double pc = -1.0 / 6402373705728000.0;                    // -1/18!
  pc = fma(pc, a2, 1.0 / 20922789888000.0);
  pc = fma(pc, a2, -1.0 / 87178291200.0);
  pc = fma(pc, a2, 1.0 / 479001600.0);
  pc = fma(pc, a2, -1.0 / 3628800.0);
  pc = fma(pc, a2, 1.0 / 40320.0);
  pc = fma(pc, a2, -1.0 / 720.0);
  pc = fma(pc, a2, 1.0 / 24.0);
  pc = fma(pc, a2, -0.5);
  const double c = fma(a2, pc, 1.0);
  // Quadrant q in {0, 1, 2, 3, 4} (4 is 0 again), kept in double so the
  // selects vectorize.
  const bool odd = (q == 1.0) || (q == 3.0);
  const double c1 = odd ? s : c;
  const double s1 = odd ? c : s;
  *cs = (q == 1.0 || q == 2.0) ? -c1 : c1;
  *sn = (q == 2.0 || q == 3.0) ? -s1 : s1;
}
// exp(x): x = k ln2 + r, |r| <= ln2/2, Taylor to r^13.
KUMO_FN double kumo_rng_exp(double x) {
  if (x != x) return x;
  if (x > 709.8) return ldexp(1.0, 2000);
  if (x < -745.2) return 0.0;
  const double k = rint(x * 1.44269504088896340736);
  double r = fma(-k, 6.93147180369123816490e-01, x);
  r = fma(-k, 1.90821492927058770002e-10, r);
  double p = 1.0 / 6227020800.0;
  p = fma(p, r, 1.0 / 479001600.0); p = fma(p, r, 1.0 / 39916800.0); p = fma(p, r, 1.0 / 3628800.0);
  p = fma(p, r, 1.0 / 362880.0); p = fma(p, r, 1.0 / 40320.0); p = fma(p, r, 1.0 / 5040.0);
  p = fma(p, r, 1.0 / 720.0); p = fma(p, r, 1.0 / 120.0); p = fma(p, r, 1.0 / 24.0);
  p = fma(p, r, 1.0 / 6.0); p = fma(p, r, 0.5); p = fma(p, r, 1.0); p = fma(p, r, 1.0);
  return ldexp(p, (int)k);
}
KUMO_FN unsigned long long kumo_rng_u64(const unsigned int hi, const unsigned int lo) {
  return ((unsigned long long)hi << 32) | (unsigned long long)lo;
}
#endif
"""

_kernels = {}
_kernels_lock = threading.Lock()

# Words are consumed in stream order; a float64 draw reads two consecutive
# words as one little-endian uint64 (the words' uint64 view).
_KERNEL_SOURCES = {
    "u01_f64": ("uint64 b", "float64 y", "y = (double)(b >> 11) * 0x1p-53"),               # [0, 1)
    "u01_f32": ("uint32 w", "float32 y", "y = (float)(w >> 8) * 0x1p-24f"),
    "upos_f64": ("uint64 b", "float64 y", "y = (double)((b >> 11) + 1) * 0x1p-53"),       # (0, 1]
    "upos_f32": ("uint32 w", "float32 y", "y = (float)((w >> 8) + 1) * 0x1p-24f"),
    # One Box-Muller pair per element: (y0, y1) = r (cos, sin)(2 pi u2).
    "normal_f64": ("uint64 a, uint64 b", "float64 y0, float64 y1", """
        const double u1 = kumo_rng_u54_to_double((a >> 11) + 1) * 0x1p-53;
        const double u2 = kumo_rng_u54_to_double(b >> 11) * 0x1p-53;
        const double r = sqrt(-2.0 * kumo_rng_log(u1));
        double s, c;
        kumo_rng_sincos_turn(u2, &s, &c);
        y0 = r * c;
        y1 = r * s;"""),
    "normal_f32": ("uint32 a, uint32 b", "float32 y0, float32 y1", """
        const double u1 = (kumo_rng_small_u64_to_double(a) + 1.0) * 0x1p-32;
        const double u2 = kumo_rng_small_u64_to_double(b) * 0x1p-32;
        const double r = sqrt(-2.0 * kumo_rng_log(u1));
        double s, c;
        kumo_rng_sincos_turn(u2, &s, &c);
        y0 = (float)(r * c);
        y1 = (float)(r * s);"""),
}


def rng_kernel(name, in_params, out_params, operation, preamble=""):
    """A cached ElementwiseKernel whose preamble carries the shared RNG math."""
    k = _kernels.get(name)
    if k is None:
        with _kernels_lock:
            k = _kernels.get(name)
            if k is None:
                k = ElementwiseKernel(in_params, out_params, operation, "kumo_random_" + name,
                                      preamble=RNG_MATH_PREAMBLE + preamble)
                _kernels[name] = k
    return k


def _kernel(name):
    return rng_kernel(name, *_KERNEL_SOURCES[name])


def _cuda_unavailable_error():
    reason = _core.random.backend_available()
    return RuntimeError("kumo.random is unavailable: cuRAND could not be loaded (%s)" % reason)


def _fold_int(value):
    """A non-negative int of any size folded into 64 bits (XOR of its 64-bit limbs)."""
    out = 0
    while value:
        out ^= value & _MASK64
        value >>= 64
    return out


def _mix64(x):
    # SplitMix64's finaliser: spreads every input bit over the output.
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def normalize_seed(seed, legacy=False):
    """A 64-bit cuRAND seed from what NumPy accepts: None (fresh entropy), a
    non-negative int of any size, a sequence of such ints, a SeedSequence."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, numpy.random.SeedSequence):
        words = seed.generate_state(2, numpy.uint32)
        return (int(words[0]) << 32) | int(words[1])
    if isinstance(seed, _core.ndarray):
        seed = _core.to_numpy(seed)
    if isinstance(seed, numpy.ndarray) and seed.ndim == 0:
        seed = seed[()]
    if isinstance(seed, (bool, numpy.bool_)):
        seed = int(seed)
    if isinstance(seed, (int, numpy.integer)):
        seed = int(seed)
        if seed < 0:
            raise ValueError("Seed must be between 0 and 2**32 - 1" if legacy else "expected non-negative integer")
        return _fold_int(seed)
    if isinstance(seed, (str, bytes)) or not hasattr(seed, "__len__"):
        if legacy:
            raise TypeError("Cannot cast scalar from dtype('%s') to dtype('int64') according to the rule 'safe'"
                            % numpy.asarray(seed).dtype)
        raise TypeError("SeedSequence expects int or sequence of ints for entropy not %s" % (seed,))
    values = numpy.asarray(seed)
    if values.size == 0 and legacy:
        raise ValueError("Seed must be non-empty")
    if values.dtype.kind not in "iub" and not (values.dtype == object and
                                                all(isinstance(v, (int, numpy.integer)) for v in values.flat)):
        raise TypeError("SeedSequence expects int or sequence of ints for entropy not %s" % (seed,))
    h = _mix64(values.size)
    for v in values.flat:
        v = int(v)
        if v < 0:
            raise ValueError("Seed must be between 0 and 2**32 - 1" if legacy else "expected non-negative integer")
        h = _mix64(h ^ _fold_int(v))
    return h


class BitGenerator:
    """Base class: a cuRAND stream on the device that is current at construction."""

    _curand_kind = None

    def __init__(self, seed=None):
        self._lock = threading.RLock()
        self._seed = normalize_seed(seed)
        self._device_name = _core.current_device_name()
        self._gen = self._create(self._seed, 0, self._device_name)

    @classmethod
    def _create(cls, seed, offset, device_name):
        try:
            return _core.random.CurandGenerator(cls._curand_kind, seed, offset, device_name)
        except RuntimeError as e:
            if _core.random.backend_available():
                raise _cuda_unavailable_error() from e
            raise

    @property
    def device(self):
        """The kumo Device the generator draws on (outputs are allocated there)."""
        return Device(self._device_name)

    # ---- state ----
    @property
    def state(self):
        """{'bit_generator': name, 'state': {'seed': int, 'offset': int}}; offset
        counts the 32-bit words drawn."""
        with self._lock:
            self._gen.sync_to_offset()
            return {"bit_generator": type(self).__name__,
                    "state": {"seed": int(self._gen.seed), "offset": int(self._gen.offset)}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError("state must be a dict")
        name = value.get("bit_generator")
        if name != type(self).__name__:
            raise ValueError("state must be for a %s PRNG" % type(self).__name__)
        inner = value.get("state")
        try:
            seed, offset = int(inner["seed"]), int(inner["offset"])
        except (TypeError, KeyError, ValueError):
            raise ValueError("state['state'] must hold integer 'seed' and 'offset' entries") from None
        if not (0 <= seed <= _MASK64 and 0 <= offset <= _MASK64):
            raise ValueError("seed and offset must be in [0, 2**64)")
        with self._lock:
            self._gen = self._create(seed, offset, self._device_name)
            self._seed = seed

    def __getstate__(self):
        return {"state": self.state, "device": self._device_name}

    def __setstate__(self, d):
        self._lock = threading.RLock()
        self._device_name = d["device"]
        st = d["state"]["state"]
        self._seed = int(st["seed"])
        self._gen = self._create(self._seed, int(st["offset"]), self._device_name)

    def __repr__(self):
        return "%s(device=%s) at 0x%X" % (type(self).__name__, self._device_name, id(self))

    # ---- the contract used by the distribution modules ----
    def _words(self, n):
        """A 1-d uint32 array of the next n words of the stream."""
        with self.device:
            w = _core.empty((n,), numpy.dtype(numpy.uint32), "C")
        if n:
            with self._lock:
                self._gen.fill_u32(w)
        return w

    def _empty(self, shape, dtype):
        with self.device:
            return _core.empty(tuple(shape), numpy.dtype(dtype), "C")

    def _uint32(self, shape):
        shape = tuple(shape)
        out = self._empty(shape, numpy.uint32)
        if out.size:
            with self._lock:
                self._gen.fill_u32(out)
        return out

    def _uniform(self, shape, dtype, name):
        dt = numpy.dtype(dtype)
        out = self._empty(shape, dt)
        if out.size == 0:
            return out
        if dt == numpy.float64:
            w = self._words(2 * out.size).view(numpy.uint64)
            name += "_f64"
        else:
            w = self._words(out.size)
            name += "_f32"
        with self.device:
            _kernel(name)(w.reshape(out.shape), out)
        return out

    def _random(self, shape, dtype=numpy.float64):
        """Uniform on [0, 1) (float32 or float64)."""
        return self._uniform(shape, dtype, "u01")

    def _random_pos(self, shape, dtype=numpy.float64):
        """Uniform on (0, 1]."""
        return self._uniform(shape, dtype, "upos")

    def _standard_normal(self, shape, dtype=numpy.float64):
        dt = numpy.dtype(dtype)
        shape = tuple(shape)
        n = 1
        for s in shape:
            n *= s
        if n == 0:
            return self._empty(shape, dt)
        pairs = (n + 1) // 2
        # An odd count draws a whole last pair and drops its second value.
        buf = self._empty((2 * pairs,), dt)
        if dt == numpy.float64:
            w = self._words(4 * pairs).view(numpy.uint64)
            name = "normal_f64"
        else:
            w = self._words(2 * pairs)
            name = "normal_f32"
        # Contiguous halves keep the kernel on its fast path: pair j takes
        # draws j and pairs + j and writes outputs j and pairs + j.
        with self.device:
            _kernel(name)(w[:pairs], w[pairs:], buf[:pairs], buf[pairs:])
        return (buf if n == 2 * pairs else buf[:n]).reshape(shape)

    def _next_key(self):
        """A fresh 64-bit key (for one Philox kernel launch)."""
        w = _core.to_numpy(self._words(2))
        return (int(w[0]) << 32) | int(w[1])

    def _poisson_scalar(self, shape, lam):
        out = self._empty(shape, numpy.uint32)
        if out.size:
            with self._lock:
                self._gen.fill_poisson(out, float(lam))
        return out

    # ---- public extras ----
    def random_raw(self, size=None, output=True):
        """Raw 64-bit outputs (two stream words each) as a uint64 array (0-d for size=None)."""
        from kumo.random._common import normalize_size
        shape = normalize_size(size)
        shape = () if shape is None else shape
        n = 1
        for d in shape:
            n *= d
        out = self._words(2 * n).view(numpy.uint64).reshape(shape)
        return out if output else None

    def spawn(self, n_children):
        """n independent bit generators of the same kind, seeded from this stream."""
        return [type(self)(self._next_key()) for _ in range(int(n_children))]


class Philox4x3210(BitGenerator):
    """Philox4x32-10 (counter-based; cuRAND CURAND_RNG_PSEUDO_PHILOX4_32_10). The default."""
    _curand_kind = "philox4x32_10"


class XORWOW(BitGenerator):
    """XORWOW (cuRAND's default pseudo generator; CuPy's default)."""
    _curand_kind = "xorwow"


class MRG32k3a(BitGenerator):
    """MRG32k3a (combined multiple recursive). Note: cuRAND's host generator
    takes about a second to seed it."""
    _curand_kind = "mrg32k3a"


BIT_GENERATORS = {"Philox4x3210": Philox4x3210, "XORWOW": XORWOW, "MRG32k3a": MRG32k3a}
