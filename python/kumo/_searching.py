"""where, clip and complex-part helpers."""
import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray, zeros

ndarray = _core.ndarray


def _operand_dtype(v):
    if isinstance(v, ndarray):
        return v.dtype
    if isinstance(v, (bool, int, float, complex)):
        return v
    return numpy.asarray(v).dtype


def where(condition, x=None, y=None):
    from kumo._kernels_builtin import select_where
    if x is None and y is None:
        raise TypeError("kumo.where with a single argument (nonzero) is not supported yet")
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    dt = numpy.result_type(_operand_dtype(x), _operand_dtype(y))
    cond = asarray(condition)
    xa = asarray(x, dtype=dt) if not isinstance(x, ndarray) or x.dtype != dt else x
    ya = asarray(y, dtype=dt) if not isinstance(y, ndarray) or y.dtype != dt else y
    return select_where(cond, xa, ya)


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):
    if min is not None:
        a_min = min
    if max is not None:
        a_max = max
    if a_min is None and a_max is None:
        raise ValueError("One of max or min must be given")
    r = asarray(a)
    if a_min is not None:
        r = uf.maximum(r, a_min, **kwargs)
    if a_max is not None:
        r = uf.minimum(r, a_max, out=out, **kwargs)
    elif out is not None:
        out[...] = r
        r = out
    return r


def real(val):
    return asarray(val).real


def imag(val):
    return asarray(val).imag


def angle(z, deg=False):
    z = asarray(z)
    if z.dtype.kind == "c":
        a = uf.arctan2(z.imag, z.real)
    else:
        a = uf.arctan2(0, z)
    return uf.degrees(a) if deg else a


__all__ = ["where", "clip", "real", "imag", "angle"]
