"""Helpers shared by the kumo.sparse tests of the DIA/BSR formats and the construction functions."""
import numpy

import kumo


def np_(a):
    return kumo.asnumpy(a)


def values(shape, dtype, seed=0, density=0.5):
    """Small integer values (complex: both parts, unsigned: non-negative) with about `density` nonzeros."""
    rng = numpy.random.default_rng(seed)
    v = rng.integers(-3, 4, shape) * (rng.random(shape) < density)
    dt = numpy.dtype(dtype)
    if dt.kind == "c":
        v = v + 1j * rng.integers(-2, 3, shape) * (v != 0)
    if dt.kind == "u":
        v = numpy.abs(v)
    return v.astype(dt)
