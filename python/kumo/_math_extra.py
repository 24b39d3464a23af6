"""Miscellaneous logic and math routines.

The numeric work is C++ (``kumo._core.math_extra``, routines/math_extra.h);
this module converts array-likes and keyword arguments, and holds the few
routines that only look at dtypes (iscomplexobj, isrealobj) or are one
composition of other kumo functions (array_equiv, real_if_close).
"""
import operator

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray

_m = _core.math_extra
ndarray = _core.ndarray


def _copy_out(result, out):
    if out is None:
        return result
    out[...] = result
    return out


# ---- logic -----------------------------------------------------------------------------

def array_equiv(a1, a2):
    try:
        a1, a2 = asarray(a1), asarray(a2)
    except Exception:
        return False
    try:
        numpy.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(uf.equal(a1, a2).all())


def isposinf(x, out=None):
    return _copy_out(_m.isposinf(asarray(x)), out)


def isneginf(x, out=None):
    return _copy_out(_m.isneginf(asarray(x)), out)


def iscomplex(x):
    return _m.iscomplex(asarray(x))


def isreal(x):
    return _m.isreal(asarray(x))


def _dtype_type(x):
    dt = getattr(x, "dtype", None)
    if isinstance(dt, numpy.dtype):
        return dt.type
    if isinstance(x, ndarray):
        return numpy.dtype(x.dtype).type
    return numpy.asarray(x).dtype.type


def iscomplexobj(x):
    return issubclass(_dtype_type(x), numpy.complexfloating)


def isrealobj(x):
    return not iscomplexobj(x)


def real_if_close(a, tol=100):
    a = asarray(a)
    dt = numpy.dtype(a.dtype)
    if dt.kind != "c":
        return a
    if tol > 1:
        tol = numpy.finfo(dt).eps * tol
    if bool((uf.absolute(a.imag) < tol).all()):
        a = a.real
    return a


# ---- special functions -----------------------------------------------------------------

def sinc(x):
    return _m.sinc(asarray(x))


def i0(x):
    return _m.i0(asarray(x))


def _real_number(v, name):
    if v is None:
        return None
    if isinstance(v, ndarray):
        v = v.item()
    return float(v)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = asarray(x)
    return _m.nan_to_num(x, bool(copy), _real_number(nan, "nan"), _real_number(posinf, "posinf"),
                         _real_number(neginf, "neginf"))


# ---- calculus --------------------------------------------------------------------------

def _number_or_array(v):
    """Python numbers stay weak (NEP 50); NumPy scalars and the rest become arrays."""
    if isinstance(v, (bool, int, float, complex, ndarray)):
        return v
    return asarray(v)


def gradient(f, *varargs, axis=None, edge_order=1):
    f = asarray(f)
    if axis is None:
        axes = None
    elif isinstance(axis, (tuple, list)):
        axes = [operator.index(a) for a in axis]
    else:
        axes = [operator.index(axis)]
    res = _m.gradient(f, [_number_or_array(v) for v in varargs], axes, operator.index(edge_order))
    if len(res) == 1:
        return res[0]
    return tuple(res)


def ediff1d(ary, to_end=None, to_begin=None):
    ary = asarray(ary)
    return _m.ediff1d(ary, None if to_end is None else asarray(to_end),
                      None if to_begin is None else asarray(to_begin))


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = asarray(y)
    return _m.trapezoid(y, None if x is None else asarray(x), _number_or_array(dx), operator.index(axis))


def interp(x, xp, fp, left=None, right=None, period=None):
    x, xp, fp = asarray(x), asarray(xp), asarray(fp)
    conv = complex if numpy.dtype(fp.dtype).kind == "c" else float
    if left is not None:
        left = conv(left)
    if right is not None:
        right = conv(right)
    if period is not None:
        period = float(period)
    return _m.interp(x, xp, fp, left, right, period)


def _python_number(v):
    if isinstance(v, ndarray):
        return v.item()
    if isinstance(v, numpy.generic):
        return v.item()
    return v


def unwrap(p, discont=None, axis=-1, *, period=2 * numpy.pi):
    p = asarray(p)
    return _m.unwrap(p, None if discont is None else _python_number(discont), operator.index(axis),
                     _python_number(period))


# ---- windows ---------------------------------------------------------------------------

def bartlett(M):
    return _m.bartlett(float(M))


def blackman(M):
    return _m.blackman(float(M))


def hamming(M):
    return _m.hamming(float(M))


def hanning(M):
    return _m.hanning(float(M))


def kaiser(M, beta):
    return _m.kaiser(float(M), float(beta))


# ---- bits ------------------------------------------------------------------------------

def bitwise_count(x, out=None):
    return _copy_out(_m.bitwise_count(asarray(x)), out)


def _axis_arg(axis):
    return None if axis is None else operator.index(axis)


def packbits(a, axis=None, bitorder="big"):
    return _m.packbits(asarray(a), _axis_arg(axis), "big" if bitorder is None else bitorder)


def unpackbits(a, axis=None, count=None, bitorder="big"):
    if count is not None:
        count = operator.index(count)
    return _m.unpackbits(asarray(a), _axis_arg(axis), count, "big" if bitorder is None else bitorder)


def _byteswap(self, inplace=False):
    return _m.byteswap(self, bool(inplace))


ndarray.byteswap = _byteswap


# ---- memory overlap --------------------------------------------------------------------

def _overlap(a, b, max_work):
    if not isinstance(a, ndarray) and not isinstance(b, ndarray):
        # Neither is a kumo array: NumPy answers for its own arrays.
        return numpy.shares_memory(a, b, max_work=max_work) if max_work == -1 \
            else numpy.may_share_memory(a, b, max_work=max_work)
    if not isinstance(a, ndarray) or not isinstance(b, ndarray):
        return False  # anything converted now is new memory
    if max_work < -1:
        raise ValueError("Invalid value for max_work")
    r = _m.memory_overlap(a, b, max_work)
    if r is None:
        raise numpy.exceptions.TooHardError("Exceeded max_work")
    return r


def shares_memory(a, b, max_work=None):
    return _overlap(a, b, -1 if max_work is None else operator.index(max_work))


def may_share_memory(a, b, max_work=None):
    return _overlap(a, b, 0 if max_work is None else operator.index(max_work))


__all__ = ["array_equiv", "isposinf", "isneginf", "iscomplex", "isreal", "iscomplexobj", "isrealobj",
           "real_if_close", "sinc", "i0", "nan_to_num", "gradient", "ediff1d", "trapezoid", "interp", "unwrap",
           "bartlett", "blackman", "hamming", "hanning", "kaiser", "bitwise_count", "packbits", "unpackbits",
           "shares_memory", "may_share_memory"]
