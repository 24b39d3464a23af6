"""Ufunc objects built from the table in _ufunc_table, with the methods
reduce, accumulate, outer and at."""
import numpy

from kumo import _core
from kumo._ufunc_table import ROWS, ALIASES, ERROR, NEG_INF, PREAMBLES

_NoValue = object()


class ufunc(_core.ufunc):
    """A universal function: elementwise over broadcast arrays, with NumPy's
    type loops and casting rules."""

    def __init__(self, name, nin, nout, loops, identity, doc):
        super().__init__(name, nin, nout, loops, PREAMBLES.get(name, ""), identity)
        self.__doc__ = doc
        self.__name__ = name
        self._identity_value = _python_identity(identity)
        # Loops that only exist to refuse a type (an error snippet) are not
        # listed, as NumPy does not list them.
        self._types = [t for t, op in loops if not op.startswith(ERROR)]

    def __repr__(self):
        return "<ufunc '%s'>" % self.__name__


    @property
    def identity(self):
        return self._identity_value

    @property
    def types(self):
        return list(self._types)

    @property
    def ntypes(self):
        return len(self._types)

    @property
    def signature(self):
        return None

    # -- reduce ----------------------------------------------------------------------
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
        from kumo import _reductions
        array = self._reduction_input(array, dtype)
        if self._identity_value is None and self.__name__ not in _REORDERABLE_NONE:
            ndim = getattr(array, "ndim", numpy.ndim(array))
            naxes = ndim if axis is None else (len(axis) if isinstance(axis, (tuple, list)) else 1)
            if naxes > 1:
                raise ValueError("reduction operation '%s' is not reorderable, so at most one axis may be "
                                 "specified" % self.__name__)
        return _reductions.ufunc_reduce(self, array, axis, dtype, out, keepdims, initial, where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        from kumo import _reductions
        array = self._reduction_input(array, dtype)
        return _reductions.ufunc_accumulate(self, array, axis, dtype, out)

    def _reduction_input(self, array, dtype):
        # The logical ufuncs reduce in bool whatever the input type (their
        # loops take any type to bool; NumPy reduces with the '??->?' loop).
        if dtype is None and self.__name__ in _LOGICAL:
            from kumo._creation import asarray
            array = asarray(array)
            if array.dtype != numpy.bool_:
                array = array.astype(numpy.bool_)
        return array

    def outer(self, A, B, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        from kumo._creation import asarray
        A = asarray(A)
        B = asarray(B)
        a = A.reshape(A.shape + (1,) * B.ndim)
        return self(a, B, **kwargs)

    def at(self, a, indices, b=None):
        """Unbuffered in-place operation: repeated indices accumulate."""
        from kumo._interop import asnumpy
        from kumo._creation import asarray
        if not isinstance(a, _core.ndarray):
            raise TypeError("ufunc.at requires a kumo array as first argument")
        host = asnumpy(a)
        idx = _to_numpy_index(indices)
        npu = getattr(numpy, self.__name__)
        if b is None:
            npu.at(host, idx)
        else:
            npu.at(host, idx, asnumpy(asarray(b)))
        a[...] = asarray(host)

    def reduceat(self, *args, **kwargs):
        raise TypeError("ufunc.reduceat is not supported by kumo (use reduce over slices)")


def _to_numpy_index(indices):
    from kumo._interop import asnumpy
    if isinstance(indices, tuple):
        return tuple(_to_numpy_index(i) for i in indices)
    if isinstance(indices, _core.ndarray):
        return asnumpy(indices)
    return indices


def _python_identity(identity):
    return {"0": 0, "1": 1, "-1": -1, "true": True, "false": False, NEG_INF: -numpy.inf}.get(identity, None)


class _PowerUfunc(ufunc):
    """power refuses negative integer exponents, as NumPy does."""

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            from kumo._creation import asarray
            x, y = args[0], args[1]
            yk = y if isinstance(y, _core.ndarray) else None
            if isinstance(y, int) and not isinstance(y, bool):
                negative = y < 0
                if isinstance(x, _core.ndarray) and x.dtype.kind in "iu":
                    lo, hi = _int_range(x.dtype)
                    negative = negative and lo <= y  # out of range: OverflowError below
            elif yk is not None and yk.dtype.kind == "i":
                negative = yk.size > 0 and bool(_core_less_zero(yk))
            else:
                negative = False
            if negative:
                xd = x.dtype if isinstance(x, _core.ndarray) else numpy.asarray(x).dtype
                yd = yk.dtype if yk is not None else numpy.dtype(int)
                dt = kwargs.get("dtype")
                rt = numpy.dtype(dt) if dt is not None else numpy.result_type(
                    xd, yd if yk is not None else y)
                if rt.kind in "iub":
                    raise ValueError("Integers to negative integer powers are not allowed.")
        return super().__call__(*args, **kwargs)


_LOGICAL = ("logical_and", "logical_or", "logical_xor")
# Reductions without an identity that may still run over several axes at once.
_REORDERABLE_NONE = ("maximum", "minimum", "fmax", "fmin")


def _is_pyscalar(x):
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, numpy.generic)


def _int_range(dt):
    """The range of integers an array of dtype `dt` compares with exactly."""
    if dt.kind == "b":
        return 0, 1
    info = numpy.iinfo(dt)
    return int(info.min), int(info.max)


_PYCMP = {"equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b, "less": lambda a, b: a < b,
          "less_equal": lambda a, b: a <= b, "greater": lambda a, b: a > b, "greater_equal": lambda a, b: a >= b}


class _ComparisonUfunc(ufunc):
    """Comparisons with Python scalars as NumPy 2 does them: a Python int out of
    the integer array's range gives the exact (constant) answer instead of an
    OverflowError; a Python float or complex against integers compares in
    float64/complex128; two Python scalars compare in their default types."""

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            x, y = args[0], args[1]
            xs, ys = _is_pyscalar(x), _is_pyscalar(y)
            if xs and ys:
                args = (numpy.asarray(x)[()], numpy.asarray(y)[()]) + args[2:]
            elif xs != ys:
                arr, sc = (y, x) if xs else (x, y)
                if isinstance(arr, _core.ndarray) and arr.dtype.kind in "biu":
                    if isinstance(sc, int) and not isinstance(sc, bool):
                        lo, hi = _int_range(arr.dtype)
                        if sc < lo or sc > hi:
                            # Every element is below (or above) the scalar.
                            small, big = (0, 1) if sc > hi else (1, 0)
                            const = _PYCMP[self.__name__](*((big, small) if xs else (small, big)))
                            return (equal if const else not_equal)(arr, arr, *args[2:], **kwargs)
                    elif isinstance(sc, float):
                        sc = numpy.float64(sc)
                    elif isinstance(sc, complex):
                        sc = numpy.complex128(sc)
                    args = ((sc, arr) if xs else (arr, sc)) + args[2:]
        return super().__call__(*args, **kwargs)


class _DivideUfunc(ufunc):
    """True division of integers by a Python int out of their range divides in
    float64 (NumPy converts both to double) instead of raising OverflowError."""

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            x, y = args[0], args[1]
            for i, (arr, sc) in enumerate(((x, y), (y, x))):
                if (isinstance(arr, _core.ndarray) and arr.dtype.kind in "biu" and isinstance(sc, int)
                        and not isinstance(sc, bool)):
                    lo, hi = _int_range(arr.dtype if arr.dtype.kind != "b" else numpy.dtype(numpy.int64))
                    if sc < lo or sc > hi:
                        args = list(args)
                        args[1 - i] = float(sc)
                        args = tuple(args)
        return super().__call__(*args, **kwargs)


def _operand_dtype(x):
    if isinstance(x, _core.ndarray):
        return x.dtype
    if isinstance(x, numpy.generic):
        return x.dtype
    return None


class _FloatLoopsUfunc(ufunc):
    """Binary ufuncs with floating loops only (arctan2, hypot, ...). NumPy picks
    their loop by a linear search where each input is checked on its own (a
    Python scalar taking the type it promotes to): uint8 with int8 gives
    float16, not the float32 that the common type int16 would need."""

    def __call__(self, *args, **kwargs):
        if (len(args) >= 2 and "dtype" not in kwargs and "signature" not in kwargs):
            dts = [_operand_dtype(a) for a in args[:2]]
            strong = [d for d in dts if d is not None]
            if strong and all(d.kind in "biu" for d in strong):
                if None in dts:
                    common = numpy.result_type(*[d if d is not None else a for d, a in zip(dts, args[:2])])
                    dts = [d if d is not None else common for d in dts]
                if all(d.kind in "biu" for d in dts):
                    for t in self._types:
                        if all(numpy.can_cast(d, c, "safe") for d, c in zip(dts, t[:2])):
                            kwargs = dict(kwargs, dtype=numpy.dtype(t[-1]))
                            break
        return super().__call__(*args, **kwargs)


_FLOAT_LOOPS = ("arctan2", "hypot", "copysign", "logaddexp", "logaddexp2", "heaviside", "nextafter")


def _core_less_zero(y):
    return globals()["less"](y, 0).any()


def _build():
    made = {}
    for name, nin, nout, loops, identity, doc in ROWS:
        cls = {"power": _PowerUfunc, "divide": _DivideUfunc}.get(name, ufunc)
        if name in _FLOAT_LOOPS:
            cls = _FloatLoopsUfunc
        if name in _PYCMP:
            cls = _ComparisonUfunc
        made[name] = cls(name, nin, nout, loops, identity, doc)
    for alias, target in ALIASES.items():
        made[alias] = made[target]
    return made


_ALL = _build()
globals().update(_ALL)
__all__ = sorted(_ALL) + ["ufunc"]
