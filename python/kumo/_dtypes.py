"""Data types: Kumo uses NumPy's dtype objects and scalar types."""
import numpy

from kumo import _core

dtype = numpy.dtype
bool_ = numpy.bool_
int8, int16, int32, int64 = numpy.int8, numpy.int16, numpy.int32, numpy.int64
uint8, uint16, uint32, uint64 = numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64
float16, float32, float64 = numpy.float16, numpy.float32, numpy.float64
complex64, complex128 = numpy.complex64, numpy.complex128
byte, ubyte, short, ushort = numpy.byte, numpy.ubyte, numpy.short, numpy.ushort
intc, uintc, intp, uintp = numpy.intc, numpy.uintc, numpy.intp, numpy.uintp
int_, uint = numpy.int_, numpy.uint
longlong, ulonglong = numpy.longlong, numpy.ulonglong
half, single, double = numpy.half, numpy.single, numpy.double
csingle, cdouble = numpy.csingle, numpy.cdouble
float_ = numpy.float64
complex_ = numpy.complex128
generic, number, integer = numpy.generic, numpy.number, numpy.integer
signedinteger, unsignedinteger = numpy.signedinteger, numpy.unsignedinteger
inexact, floating, complexfloating = numpy.inexact, numpy.floating, numpy.complexfloating
finfo, iinfo = numpy.finfo, numpy.iinfo
issubdtype = numpy.issubdtype
isdtype = getattr(numpy, "isdtype", None)

_SUPPORTED = frozenset("?bBhHiIlLqQefdFD")


def _check_dtype(dt):
    """numpy.dtype(dt), refusing types Kumo arrays cannot hold."""
    d = numpy.dtype(dt)
    if d.char not in _SUPPORTED or d.byteorder == ">":
        raise TypeError("kumo does not support the data type %s" % d)
    return d


def _dtype_of(x):
    if isinstance(x, _core.ndarray):
        return x.dtype
    return x


def result_type(*arrays_and_dtypes):
    """numpy.result_type with Kumo arrays understood (NEP 50 rules)."""
    return numpy.result_type(*[_dtype_of(x) for x in arrays_and_dtypes])


def promote_types(type1, type2):
    return numpy.promote_types(type1, type2)


def can_cast(from_, to, casting="safe"):
    return numpy.can_cast(_dtype_of(from_), to, casting)


def min_scalar_type(a):
    return numpy.min_scalar_type(a)


def common_type(*arrays):
    return numpy.common_type(*[numpy.empty(0, a.dtype) for a in arrays])
