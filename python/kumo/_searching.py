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
        return _nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    dt = numpy.result_type(_operand_dtype(x), _operand_dtype(y))
    cond = asarray(condition)
    xa = asarray(x, dtype=dt) if not isinstance(x, ndarray) or x.dtype != dt else x
    ya = asarray(y, dtype=dt) if not isinstance(y, ndarray) or y.dtype != dt else y
    return select_where(cond, xa, ya)


def _nonzero(condition):
    """where(condition) == nonzero(condition): a tuple of index arrays."""
    import kumo
    nz = getattr(kumo, "nonzero", None)
    if nz is not None and nz is not where:
        return nz(condition)
    c = asarray(condition)
    idx = numpy.nonzero(numpy.atleast_1d(c.get()))
    return tuple(asarray(i) for i in idx)


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):
    if min is not None:
        if a_min is not None:
            raise ValueError("Passed more than one argument for the lower bound")
        a_min = min
    if max is not None:
        if a_max is not None:
            raise ValueError("Passed more than one argument for the upper bound")
        a_max = max
    r = asarray(a)
    if a_min is None and a_max is None:
        # NumPy >= 2.1: no bounds means a copy of the input.
        r = r.copy()
    if a_min is not None:
        r = uf.maximum(r, a_min, **kwargs)
    if a_max is not None:
        r = uf.minimum(r, a_max, **kwargs)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("return arrays must be of ArrayType")
        uf.positive(r, out=out) if r.dtype.kind != "b" else out.__setitem__(Ellipsis, r)
        return out
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
