"""NumPy's small utility names: dtype aliases and type-code helpers, the
array-to-text functions, index iterators and array checks.

The text functions format a host copy with NumPy's printer, as
``ndarray.__repr__`` does, so ``kumo.set_printoptions`` governs both.
"""
import numpy

from kumo import _core
from kumo._creation import asarray
from kumo._ufuncs import isfinite

ndarray = _core.ndarray

long, ulong = numpy.long, numpy.ulong
True_, False_ = numpy.True_, numpy.False_
typecodes = numpy.typecodes
ScalarType = numpy.ScalarType
little_endian = numpy.little_endian
typename = numpy.typename
iterable = numpy.iterable
ndindex = numpy.ndindex
binary_repr = numpy.binary_repr
base_repr = numpy.base_repr
format_float_positional = numpy.format_float_positional
format_float_scientific = numpy.format_float_scientific


def _host(a):
    return a.get() if isinstance(a, ndarray) else numpy.asarray(a)


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ", prefix="", *,
                 formatter=None, threshold=None, edgeitems=None, sign=None, floatmode=None, suffix="", legacy=None):
    return numpy.array2string(_host(a), max_line_width, precision, suppress_small, separator, prefix,
                              formatter=formatter, threshold=threshold, edgeitems=edgeitems, sign=sign,
                              floatmode=floatmode, suffix=suffix, legacy=legacy)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    return numpy.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return numpy.array_str(_host(a), max_line_width, precision, suppress_small)


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """numpy.mintypecode, with kumo arrays standing for their dtype's character."""
    chars = [t.dtype.char if isinstance(t, ndarray) else t for t in typechars]
    return numpy.mintypecode(chars, typeset, default)


def ndenumerate(arr):
    """(index, value) pairs in C order; the values are NumPy scalars, as
    iterating a NumPy array gives, read from one host copy."""
    return numpy.ndenumerate(_host(arr))


def diagonal(a, offset=0, axis1=0, axis2=1):
    return asarray(a).diagonal(offset, axis1, axis2)


def isfortran(a):
    """True when a is Fortran-contiguous and not C-contiguous."""
    if not isinstance(a, ndarray):
        return numpy.isfortran(a)
    return bool(a._f_contiguous and not a._c_contiguous)


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray, refusing arrays that hold an inf or a NaN (ValueError)."""
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.kind in "fc" and not bool(isfinite(a).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


__all__ = ["long", "ulong", "True_", "False_", "typecodes", "ScalarType", "little_endian", "typename", "iterable",
           "ndindex", "binary_repr", "base_repr", "format_float_positional", "format_float_scientific",
           "array2string", "array_repr", "array_str", "mintypecode", "ndenumerate", "diagonal", "isfortran",
           "asarray_chkfinite"]
