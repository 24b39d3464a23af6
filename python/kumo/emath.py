"""kumo.emath (numpy.emath): square roots, logarithms, powers and inverse
trigonometric functions that return complex results where real input leaves
their real domain, instead of NaN.

Whether a complex result is needed depends on the data (any negative value
for sqrt, any |x| > 1 for arcsin, ...), so each function reads one boolean
back from the array's device to decide, as NumPy's does.
"""
import numpy

from kumo import _ufuncs as uf
from kumo._creation import asarray

# NumPy's choice of complex type for real input: single precision for the
# small types, double otherwise.
_SINGLE_CHARS = set("fehbBH")


def _to_complex(x):
    return x.astype(numpy.complex64 if x.dtype.char in _SINGLE_CHARS else numpy.complex128)


def _complex_if(x, outside):
    x = asarray(x)
    if x.dtype.kind != "c" and bool(outside(x).any()):
        return _to_complex(x)
    return x


def _lt_zero(x):
    return _complex_if(x, lambda v: uf.less(v, 0))


def _abs_gt_1(x):
    return _complex_if(x, lambda v: uf.greater(uf.absolute(v), 1))


def sqrt(x):
    return uf.sqrt(_lt_zero(x))


def log(x):
    return uf.log(_lt_zero(x))


def log10(x):
    return uf.log10(_lt_zero(x))


def log2(x):
    return uf.log2(_lt_zero(x))


def logn(n, x):
    """Logarithm of x to the base n."""
    return uf.divide(uf.log(_lt_zero(x)), uf.log(_lt_zero(n)))


def power(x, p):
    """x**p, complex for negative x; negative integer powers as floats."""
    p = asarray(p)
    if p.dtype.kind in "iu" and bool(uf.less(p, 0).any()):
        p = p.astype(numpy.float64)
    return uf.power(_lt_zero(x), p)


def arccos(x):
    return uf.arccos(_abs_gt_1(x))


def arcsin(x):
    return uf.arcsin(_abs_gt_1(x))


def arctanh(x):
    return uf.arctanh(_abs_gt_1(x))


__all__ = ["sqrt", "log", "log10", "log2", "logn", "power", "arccos", "arcsin", "arctanh"]
