"""numpy.random.Generator over kumo bit generators, and default_rng.

random, standard_normal, uniform, normal, integers and permutation are the
C++ kumo::random::Generator's (random/generator.h); this module parses their
arguments as NumPy does and composes the rest.
"""
import functools
import operator

import numpy

from kumo import _core
from kumo.random import _bit_generator as _bg
from kumo.random._common import normalize_size, float_dtype, check_out, as_param, check_constraint, \
    output_shape, CONS_NON_NEGATIVE

ndarray = _core.ndarray

def _lognormal_kernel():
    return _bg.rng_kernel("lognormal", "float64 z, float64 mean, float64 sigma", "T y",
                          "y = (T)kumo_rng_exp(fma(sigma, z, mean))")


def _bg_to_device(bg, host):
    with bg.device:
        return _core.from_numpy(numpy.asarray(host, order="C"))


def _shape_of(size):
    s = normalize_size(size)
    return () if s is None else s


def _is_int_scalar(v):
    if isinstance(v, ndarray):
        return False
    if isinstance(v, numpy.ndarray):
        return v.ndim == 0 and v.dtype.kind in "biu"
    return isinstance(v, (int, numpy.integer, bool, numpy.bool_))


def _host(v):
    return _core.to_numpy(v) if isinstance(v, ndarray) else numpy.asarray(v)


def _check_int_bounds(lo, hi, vmin, vmax, name, endpoint):
    # NumPy's checks, in NumPy's order; the C++ Generator makes the same ones.
    if lo < vmin:
        raise ValueError("low is out of bounds for %s" % name)
    if hi > vmax:
        raise ValueError("high is out of bounds for %s" % name)
    if lo > hi:
        raise ValueError("low > high" if endpoint else "low >= high")


def _int64_bounds(values, what, vmin, vmax, name, endpoint):
    """Integer bounds as an int64 or uint64 NumPy array for the C++ Generator.
    Bounds no 64-bit dtype holds are out of range for every dtype: NumPy's
    error is raised here."""
    a = _host(values)
    if a.dtype.kind in "biu":
        return a
    if a.dtype.kind != "O" or not all(isinstance(v, (int, numpy.integer)) for v in a.flat):
        raise TypeError("Unsupported dtype for low/high: integers are required")
    for dt in (numpy.int64, numpy.uint64):
        info = numpy.iinfo(dt)
        if all(info.min <= int(v) <= info.max for v in a.flat):
            return a.astype(dt)
    if what == "low":
        raise ValueError("low is out of bounds for %s" % name)
    raise ValueError("high is out of bounds for %s" % name)


def _integers(bg, low, high, size, dtype, endpoint, legacy=False):
    dt = numpy.dtype(dtype)
    if dt.kind not in "biu":
        raise TypeError("Unsupported dtype %r for %s" % (dt, "randint" if legacy else "integers"))
    if high is None:
        low, high = 0, low
    if dt.kind == "b":
        vmin, vmax, name = 0, 1, "bool"
    else:
        info = numpy.iinfo(dt)
        vmin, vmax, name = int(info.min), int(info.max), dt.name
    shape = normalize_size(size)
    if _is_int_scalar(low) and _is_int_scalar(high):
        lo, hi = int(low), int(high)
        if not (-2**63 <= lo < 2**64 and -2**63 <= hi < 2**64 + (0 if endpoint else 1)):
            # Beyond 64 bits: out of range for every dtype, so this raises.
            _check_int_bounds(lo, hi - (0 if endpoint else 1), vmin, vmax, name, endpoint)
        if hi == 2**64:
            # uint64's whole span, [lo, 2**64): the same range with an endpoint that fits 64 bits.
            return bg._cxx.integers(lo, hi - 1, shape, dt, True)
        return bg._cxx.integers(lo, hi, shape, dt, endpoint)
    lo_h = _int64_bounds(low, "low", vmin, vmax, name, endpoint)
    hi_h = _int64_bounds(high, "high", vmin, vmax, name, endpoint)
    return bg._cxx.integers(_bg_to_device(bg, lo_h), _bg_to_device(bg, hi_h), shape, dt, endpoint)


def _sample_keys(bg, n):
    """n uniform 64-bit sort keys drawn from the stream, on the host."""
    return _core.to_numpy(bg._words(2 * n).view(numpy.uint64)) if n else numpy.empty(0, numpy.uint64)


def _perm(bg, n):
    """A uniformly random permutation of range(n) (host int64), from the C++
    Generator's permutation: the stable argsort of random 64-bit keys."""
    return _core.to_numpy(bg._cxx.permutation(int(n)))


def _to_kumo_like(bg, host):
    return _bg_to_device(bg, host)


def _choice(bg, a, size, replace, p, axis, shuffle, legacy=False):
    if isinstance(a, ndarray):
        pop_arr = a
        pop = a.shape[axis] if a.ndim else None
        if a.ndim == 0:
            raise ValueError("a must be 1-dimensional or an integer" if legacy else
                             "a must be a sequence or an integer, not <class 'numpy.ndarray'>")
    elif isinstance(a, (int, numpy.integer)) or (isinstance(a, numpy.ndarray) and a.ndim == 0):
        pop_arr = None
        pop = operator.index(a)
    else:
        host = numpy.asarray(a)
        if host.ndim == 0:
            raise ValueError("a must be 1-dimensional or an integer")
        pop_arr = _to_kumo_like(bg, host)
        pop = host.shape[axis]
    shape = normalize_size(size)
    n_samples = 1 if shape is None else int(numpy.prod(shape, dtype=numpy.int64))
    if pop_arr is None and pop <= 0 and n_samples:
        raise ValueError("a must be greater than 0 unless no samples are taken" if legacy else
                         "a must be a positive integer unless no samples are taken")
    if pop_arr is not None and pop == 0 and n_samples:
        raise ValueError("a cannot be empty unless no samples are taken")
    if p is not None:
        ph = _host(p).astype(numpy.float64)
        if ph.ndim != 1:
            raise ValueError("p must be 1-dimensional")
        if ph.size != pop:
            raise ValueError("a and p must have same size")
        if numpy.any(numpy.isnan(ph)) or numpy.any(ph < 0):
            raise ValueError("probabilities are not non-negative" if legacy else "Probabilities are not non-negative")
        if abs(ph.sum() - 1.0) > numpy.sqrt(numpy.finfo(numpy.float64).eps):
            raise ValueError("probabilities do not sum to 1" if legacy else
                             "Probabilities do not sum to 1. See Notes section of docstring for more information.")
    if not replace and n_samples > pop:
        raise ValueError("Cannot take a larger sample than population when 'replace=False'" if legacy else
                         "Cannot take a larger sample than population when replace is False")
    if p is not None and not replace and numpy.count_nonzero(ph) < n_samples:
        raise ValueError("Fewer non-zero entries in p than size")
    if replace:
        if p is None:
            idx = _integers(bg, 0, pop, shape, numpy.int64, False)
        else:
            cdf = numpy.cumsum(ph)
            cdf /= cdf[-1]
            u = _core.to_numpy(bg._random(() if shape is None else shape))
            idx_h = numpy.searchsorted(cdf, u, side="right").astype(numpy.int64)
            # a u at or above the last positive cdf step maps to the last non-zero p
            idx_h = numpy.minimum(idx_h, numpy.flatnonzero(ph)[-1])
            idx = _to_kumo_like(bg, idx_h)
        idx_h = None
    else:
        if p is None:
            idx_h = _perm(bg, pop)[:n_samples]
        else:
            # Gumbel-top-k: the n largest log(u)/p are a weighted sample without replacement.
            u = _core.to_numpy(bg._random_pos((pop,)))
            with numpy.errstate(divide="ignore"):
                keys = numpy.where(ph > 0, numpy.log(u) / ph, -numpy.inf)
            idx_h = numpy.argsort(-keys, kind="stable")[:n_samples]
            if not shuffle:
                idx_h = numpy.sort(idx_h)
        if p is None and not shuffle:
            idx_h = numpy.sort(idx_h)
        idx_h = idx_h.reshape(() if shape is None else shape).astype(numpy.int64)
        idx = None
    if pop_arr is None:
        return idx if idx is not None else _to_kumo_like(bg, idx_h)
    if idx_h is None:
        idx_h = _core.to_numpy(idx)
    src = _host(pop_arr)
    res = numpy.take(src, idx_h, axis=axis)
    return _to_kumo_like(bg, res)


class Generator:
    """numpy.random.Generator with a kumo bit generator (Philox4x3210 by default)."""

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, _bg.BitGenerator):
            raise TypeError("bit_generator must be a kumo.random BitGenerator instance")
        self._bit_generator = bit_generator

    @property
    def bit_generator(self):
        return self._bit_generator

    def __repr__(self):
        return "Generator(%s) at 0x%X" % (type(self._bit_generator).__name__, id(self))

    def __reduce__(self):
        return (Generator, (self._bit_generator,))

    def spawn(self, n_children):
        return [Generator(b) for b in self._bit_generator.spawn(n_children)]

    # ---- uniform floats ----
    def random(self, size=None, dtype=numpy.float64, out=None):
        dt = float_dtype(dtype, "random")
        return self._fill("_random", size, dt, out)

    def _fill(self, method, size, dt, out):
        bg = self._bit_generator
        if out is None:
            return getattr(bg, method)(_shape_of(size), dt)
        shape = check_out(out, size, dt, require_c=False)
        if out.device != bg.device:
            raise ValueError("out is on device %s but the generator draws on %s" % (out.device, bg.device))
        vals = getattr(bg, method)(shape, dt)
        out[...] = vals
        return out

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        dt = float_dtype(dtype, "standard_normal")
        return self._fill("_standard_normal", size, dt, out)

    def uniform(self, low=0.0, high=1.0, size=None):
        bg = self._bit_generator
        return bg._cxx.uniform(as_param(bg, low), as_param(bg, high), normalize_size(size))

    def normal(self, loc=0.0, scale=1.0, size=None):
        bg = self._bit_generator
        return bg._cxx.normal(as_param(bg, loc), as_param(bg, scale), normalize_size(size))

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        bg = self._bit_generator
        mean, sigma = as_param(bg, mean), as_param(bg, sigma)
        check_constraint(sigma, "sigma", CONS_NON_NEGATIVE)
        shape = output_shape(size, mean, sigma)
        z = bg._standard_normal(shape)
        out = bg._empty(shape, numpy.float64)
        with bg.device:
            m = mean if isinstance(mean, ndarray) else _bg_to_device(bg, numpy.array(float(mean)))
            s = sigma if isinstance(sigma, ndarray) else _bg_to_device(bg, numpy.array(float(sigma)))
            if out.size:
                _lognormal_kernel()(z, m, s, out)
        return out

    # ---- integers and bytes ----
    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        return _integers(self._bit_generator, low, high, size, dtype, endpoint)

    def bytes(self, length):
        length = operator.index(length)
        if length < 0:
            raise ValueError("negative dimensions are not allowed")
        w = _core.to_numpy(self._bit_generator._uint32(((length + 3) // 4,)))
        return w.astype("<u4").tobytes()[:length]

    # ---- sampling and permutations ----
    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        return _choice(self._bit_generator, a, size, replace, p, axis, shuffle)

    def permutation(self, x, axis=0):
        bg = self._bit_generator
        if isinstance(x, (int, numpy.integer)):
            return bg._cxx.permutation(int(x))
        if not (isinstance(x, ndarray) and x.device == bg.device):
            x = _to_kumo_like(bg, _host(x))
        return bg._cxx.permutation(x, operator.index(axis))

    def shuffle(self, x, axis=0):
        if not isinstance(x, ndarray):
            raise TypeError("x must be a kumo.ndarray")
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        bg = self._bit_generator
        axis = _normalize_axis(axis, x.ndim)
        perm = _perm(bg, x.shape[axis])
        host = _host(x)
        x[...] = _bg_to_device(bg, numpy.take(host, perm, axis=axis))

    def permuted(self, x, axis=None, out=None):
        bg = self._bit_generator
        host = numpy.array(_host(x))
        if axis is None:
            flat = host.reshape(-1)
            res = flat[_perm(bg, flat.size)].reshape(host.shape)
        else:
            axis = _normalize_axis(axis, host.ndim)
            moved = numpy.moveaxis(host, axis, -1)
            keys = _sample_keys(bg, moved.size).reshape(moved.shape)
            order = numpy.argsort(keys, axis=-1, kind="stable")
            res = numpy.moveaxis(numpy.take_along_axis(moved, order, axis=-1), -1, axis)
        if out is None:
            return _to_kumo_like(bg, numpy.ascontiguousarray(res))
        if not isinstance(out, ndarray) or tuple(out.shape) != host.shape:
            raise ValueError("out must have the same shape as x")
        out[...] = _to_kumo_like(bg, numpy.ascontiguousarray(res))
        return out


def _normalize_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError("axis %d is out of bounds for array of dimension %d" % (axis, ndim))
    return axis % ndim


def default_rng(seed=None):
    """A Generator: Philox4x3210 seeded with ``seed`` (None, int, sequence of
    ints, SeedSequence), or wrapping a given BitGenerator / returning a given Generator."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _bg.BitGenerator):
        return Generator(seed)
    return Generator(_bg.Philox4x3210(seed))


def attach_distributions(cls, modules, bg_attr="_bit_generator"):
    """Make every name in each module's __all__ a method of cls that passes the bit generator first."""
    for mod in modules:
        for name in getattr(mod, "__all__", ()):
            if name in cls.__dict__:
                continue
            func = getattr(mod, name)

            def method(self, *args, _f=func, **kwargs):
                return _f(getattr(self, bg_attr), *args, **kwargs)
            functools.update_wrapper(method, func)
            method.__qualname__ = cls.__name__ + "." + name
            setattr(cls, name, method)
