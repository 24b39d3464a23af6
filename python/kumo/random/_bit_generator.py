"""Bit generators over cuRAND: Philox4x3210, XORWOW and MRG32k3a.

A bit generator is a position in one cuRAND stream: (kind, seed, offset),
where offset counts the 32-bit words drawn so far. It wraps the C++
kumo::random::BitGenerator, and its uniform and normal draws are those of the
C++ kumo::random::Generator (random/generator.h, which documents the
transforms), so C++ programs and Python draw the same numbers for a seed, on
the CPU (cuRAND host generators) and on a GPU (cuRAND device generators).
Poisson variates come from cuRAND (one offset unit per value).
"""
import os
import threading

import numpy

from kumo import _core
from kumo._device import Device
from kumo._kernel import ElementwiseKernel
from kumo.random._common import normalize_size

_MASK64 = (1 << 64) - 1

# The fma-only math the transforms use (log, sin/cos, exp, exact integer to
# double conversions), defined once in C++ (random/generator.cpp) and put in
# front of every distribution kernel.
RNG_MATH_PREAMBLE = _core.random.rng_math_preamble

_kernels = {}
_kernels_lock = threading.Lock()


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
        self._set_gen(self._create(self._seed, 0, self._device_name))

    def _set_gen(self, gen):
        self._gen = gen
        # The C++ Generator drawing the core distributions from this stream.
        self._cxx = _core.random.Generator(gen)

    @classmethod
    def _create(cls, seed, offset, device_name):
        try:
            return _core.random.BitGenerator(cls._curand_kind, seed, offset, device_name)
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
            seed, offset = self._gen.get_state()
            return {"bit_generator": type(self).__name__, "state": {"seed": int(seed), "offset": int(offset)}}

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
            try:
                self._gen.set_state(seed, offset)
            except RuntimeError as e:
                if _core.random.backend_available():
                    raise _cuda_unavailable_error() from e
                raise
            self._seed = seed

    def __getstate__(self):
        return {"state": self.state, "device": self._device_name}

    def __setstate__(self, d):
        self._lock = threading.RLock()
        self._device_name = d["device"]
        st = d["state"]["state"]
        self._seed = int(st["seed"])
        self._set_gen(self._create(self._seed, int(st["offset"]), self._device_name))

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

    def _random(self, shape, dtype=numpy.float64):
        """Uniform on [0, 1) (float32 or float64)."""
        return self._cxx.random(tuple(shape), dtype)

    def _random_pos(self, shape, dtype=numpy.float64):
        """Uniform on (0, 1]."""
        return self._cxx.random_positive(tuple(shape), dtype)

    def _standard_normal(self, shape, dtype=numpy.float64):
        return self._cxx.standard_normal(tuple(shape), dtype)

    def _next_key(self):
        """A fresh 64-bit key (for one Philox kernel launch)."""
        return int(self._gen.next_key())

    def _poisson_scalar(self, shape, lam):
        out = self._empty(shape, numpy.uint32)
        if out.size:
            with self._lock:
                self._gen.fill_poisson(out, float(lam))
        return out

    # ---- public extras ----
    def random_raw(self, size=None, output=True):
        """Raw 64-bit outputs (two stream words each) as a uint64 array (0-d for size=None)."""
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
