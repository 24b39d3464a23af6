"""kumo.random: numpy.random over cuRAND (device generators on CUDA, host generators on the CPU).

``default_rng(seed)`` gives a Generator over Philox4x3210; ``RandomState``
(XORWOW, as CuPy) and the module-level functions give the legacy API. One
seed and bit generator give the same numbers on the CPU and on a GPU.
"""
from kumo.random._bit_generator import BitGenerator, Philox4x3210, XORWOW, MRG32k3a
from kumo.random._generator import Generator, default_rng, attach_distributions
from kumo.random._legacy import RandomState, get_random_state, set_random_state, seed, module_function
from kumo.random import _continuous, _discrete, _mixtures

attach_distributions(Generator, (_continuous, _discrete, _mixtures))
attach_distributions(RandomState, (_continuous, _discrete, _mixtures))

_LEGACY_NAMES = ["rand", "randn", "randint", "random_integers", "random_sample", "random", "ranf", "sample",
                 "uniform", "normal", "standard_normal", "lognormal", "choice", "shuffle", "permutation", "bytes",
                 "tomaxint", "get_state", "set_state"]
_DIST_NAMES = list(_continuous.__all__) + list(_discrete.__all__) + list(_mixtures.__all__)
for _name in _LEGACY_NAMES + _DIST_NAMES:
    globals()[_name] = module_function(_name)
del _name

__all__ = ["BitGenerator", "Philox4x3210", "XORWOW", "MRG32k3a", "Generator", "default_rng", "RandomState",
           "get_random_state", "set_random_state", "seed"] + _LEGACY_NAMES + _DIST_NAMES
