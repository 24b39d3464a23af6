"""where, clip and complex-part helpers."""

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray

ndarray = _core.ndarray


def _operand(v):
    """Python scalars stay weak (NEP 50); everything else becomes an array."""
    if isinstance(v, (bool, int, float, complex, ndarray)):
        return v
    return asarray(v)


def where(condition, x=None, y=None):
    if x is None and y is None:
        return _core.where(asarray(condition))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _core.where(asarray(condition), _operand(x), _operand(y))


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):
    if min is not None:
        if a_min is not None:
            raise ValueError("Passed more than one argument for the lower bound")
        a_min = min
    if max is not None:
        if a_max is not None:
            raise ValueError("Passed more than one argument for the upper bound")
        a_max = max
    if kwargs:
        # Ufunc keywords (dtype=, casting=, where=) go through the ufuncs.
        r = asarray(a)
        if a_min is None and a_max is None:
            r = uf.positive(r, **kwargs)
        if a_min is not None:
            r = uf.maximum(r, a_min, **kwargs)
        if a_max is not None:
            r = uf.minimum(r, a_max, **kwargs)
        if out is not None:
            out[...] = r
            return out
        return r
    r = _core.clip(asarray(a), None if a_min is None else _operand(a_min),
                   None if a_max is None else _operand(a_max), out)
    return r if out is None else out


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
