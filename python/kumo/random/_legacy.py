"""numpy.random.RandomState (legacy API, XORWOW by default) and the
module-level functions bound to a global RandomState."""
import operator
import sys
import threading
import warnings

import numpy

from kumo import _core
from kumo.random import _bit_generator as _bg
from kumo.random import _generator as _gen

_METHODS = {"xorwow": _bg.XORWOW, "philox": _bg.Philox4x3210, "philox4x3210": _bg.Philox4x3210,
            "mrg32k3a": _bg.MRG32k3a}


class RandomState:
    """Legacy generator: ``RandomState(seed=None, method='xorwow')`` (method:
    'xorwow', 'philox' or 'mrg32k3a', or a BitGenerator class)."""

    def __init__(self, seed=None, method="xorwow"):
        if isinstance(seed, _bg.BitGenerator):
            self._bit_generator = seed
            return
        cls = method if isinstance(method, type) and issubclass(method, _bg.BitGenerator) else \
            _METHODS.get(str(method).lower())
        if cls is None:
            raise ValueError("unknown method %r (expected one of %s)" % (method, ", ".join(sorted(_METHODS))))
        self._cls = cls
        self._bit_generator = cls(_bg.normalize_seed(seed, legacy=True))

    def __repr__(self):
        return "RandomState(%s) at 0x%X" % (type(self._bit_generator).__name__, id(self))

    def __reduce__(self):
        return (RandomState, (self._bit_generator,))

    def seed(self, seed=None):
        self._bit_generator = type(self._bit_generator)(_bg.normalize_seed(seed, legacy=True))

    def get_state(self, legacy=True):
        """(name, seed, offset) with legacy=True (the default), else the bit generator's state dict."""
        st = self._bit_generator.state
        if not legacy:
            return st
        return (st["bit_generator"], st["state"]["seed"], st["state"]["offset"])

    def set_state(self, state):
        if isinstance(state, dict):
            d = state
        else:
            if not isinstance(state, (tuple, list)) or len(state) != 3:
                raise ValueError("state must be a dict or a (name, seed, offset) tuple")
            d = {"bit_generator": state[0], "state": {"seed": state[1], "offset": state[2]}}
        cls = _bg.BIT_GENERATORS.get(d.get("bit_generator"))
        if cls is None:
            raise ValueError("unknown bit generator %r in state" % (d.get("bit_generator"),))
        if not isinstance(self._bit_generator, cls):
            self._bit_generator = cls(0)
        self._bit_generator.state = d

    # ---- floats ----
    def random_sample(self, size=None):
        return self._bit_generator._random(_gen._shape_of(size))

    random = ranf = sample = random_sample

    def rand(self, *args):
        return self.random_sample(args if args else None)

    def randn(self, *args):
        return self.standard_normal(args if args else None)

    def standard_normal(self, size=None):
        return self._bit_generator._standard_normal(_gen._shape_of(size))

    def uniform(self, low=0.0, high=1.0, size=None):
        return _gen.Generator(self._bit_generator).uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return _gen.Generator(self._bit_generator).normal(loc, scale, size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return _gen.Generator(self._bit_generator).lognormal(mean, sigma, size)

    # ---- integers ----
    def randint(self, low, high=None, size=None, dtype=int):
        return _gen._integers(self._bit_generator, low, high, size, dtype, False, legacy=True)

    def random_integers(self, low, high=None, size=None):
        if high is None:
            warnings.warn("This function is deprecated. Please call randint(1, {low} + 1) instead".format(low=low),
                          DeprecationWarning, stacklevel=2)
            low, high = 1, low
        else:
            warnings.warn("This function is deprecated. Please call randint({low}, {high} + 1) instead".format(
                low=low, high=high), DeprecationWarning, stacklevel=2)
        return _gen._integers(self._bit_generator, low, high, size, numpy.int64, True, legacy=True)

    def tomaxint(self, size=None):
        return _gen._integers(self._bit_generator, 0, sys.maxsize, size, numpy.int64, True, legacy=True)

    def bytes(self, length):
        return _gen.Generator(self._bit_generator).bytes(length)

    # ---- sampling ----
    def choice(self, a, size=None, replace=True, p=None):
        return _gen._choice(self._bit_generator, a, size, replace, p, 0, True, legacy=True)

    def shuffle(self, x):
        _gen.Generator(self._bit_generator).shuffle(x)

    def permutation(self, x):
        return _gen.Generator(self._bit_generator).permutation(x)


_global_lock = threading.Lock()
_global_state = None


def get_random_state():
    """The global RandomState used by the module-level functions (created on first use)."""
    global _global_state
    rs = _global_state
    if rs is None:
        with _global_lock:
            if _global_state is None:
                _global_state = RandomState()
            rs = _global_state
    return rs


def set_random_state(rs):
    """Replace the global RandomState."""
    global _global_state
    if rs is not None and not isinstance(rs, RandomState):
        raise TypeError("set_random_state expects a kumo.random.RandomState, got %s" % type(rs).__name__)
    with _global_lock:
        _global_state = rs


def seed(seed=None):
    """Reseed the global RandomState, and kumo.autograd's noise (dropout,
    gaussian, ...) with it: Chainer's noise functions draw from the array
    library's global generator, so seeding it makes a training run
    reproducible."""
    get_random_state().seed(seed)
    noise_seed = numpy.random.SeedSequence(None if seed is None else seed).generate_state(1, numpy.uint64)[0]
    _core.autograd.functions._seed_noise(int(noise_seed))


def module_function(name):
    def f(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = getattr(getattr(RandomState, name, None), "__doc__", None)
    return f
