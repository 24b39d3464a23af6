"""Python-level methods of kumo.ndarray (composites of the core bindings)."""
import operator

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo import _searching, _sorting
from kumo._creation import _to_host_nested, array, asarray, zeros
from kumo._device import Device
from kumo.linalg._products import dot, matmul, trace

ndarray = _core.ndarray


class Flags:
    """The subset of numpy.ndarray.flags that describes layout."""

    __slots__ = ("_a",)

    def __init__(self, a):
        self._a = a

    c_contiguous = property(lambda self: self._a._c_contiguous)
    f_contiguous = property(lambda self: self._a._f_contiguous)
    owndata = property(lambda self: self._a._owndata)

    @property
    def writeable(self):
        return self._a._writeable

    @writeable.setter
    def writeable(self, value):
        if value and not self._a._writeable and self._a.base is not None and not self._a.base.flags.writeable:
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        self._a._writeable = bool(value)

    def __getitem__(self, key):
        names = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
                 "F": "f_contiguous", "OWNDATA": "owndata", "O": "owndata", "WRITEABLE": "writeable",
                 "W": "writeable", "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
                 "X": "writebackifcopy"}
        if key not in names:
            raise KeyError(key)
        return getattr(self, names[key])

    aligned = property(lambda self: True)
    writebackifcopy = property(lambda self: False)
    contiguous = c_contiguous
    fortran = f_contiguous

    def __repr__(self):
        return ("  C_CONTIGUOUS : %s\n  F_CONTIGUOUS : %s\n  OWNDATA : %s\n  WRITEABLE : %s\n  ALIGNED : %s\n"
                "  WRITEBACKIFCOPY : %s\n" % (self.c_contiguous, self.f_contiguous, self.owndata, self.writeable,
                                              self.aligned, self.writebackifcopy))


def _install():
    # Binary, reflected, in-place and comparison operators (and `a ** 2` as
    # square) are bound in C++ (bindings/bind_kernels.cpp) and call the C++
    # ufunc routines directly.
    ndarray.__neg__ = lambda self: uf.negative(self)
    ndarray.__pos__ = lambda self: uf.positive(self)
    ndarray.__abs__ = lambda self: uf.absolute(self)
    ndarray.__invert__ = lambda self: uf.invert(self)
    ndarray.__divmod__ = lambda self, other: uf.divmod(self, other)
    ndarray.__rdivmod__ = lambda self, other: uf.divmod(other, self)
    ndarray.__hash__ = None


_install()


# ---- properties ----
def _T(self):
    return self.transpose()


def _mT(self):
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return self.swapaxes(-1, -2)


def _real(self):
    return self._real_view() if self.dtype.kind == "c" else self


def _set_real(self, value):
    self.real[...] = value


def _imag(self):
    if self.dtype.kind == "c":
        return self._imag_view()
    z = zeros(self.shape, dtype=self.dtype)
    z._writeable = False
    return z


def _set_imag(self, value):
    if self.dtype.kind != "c":
        raise TypeError("array does not have imaginary part to set")
    self._imag_view()[...] = value


ndarray.T = property(_T)
ndarray.mT = property(_mT)
ndarray.real = property(_real, _set_real)
ndarray.imag = property(_imag, _set_imag)
ndarray.flags = property(lambda self: Flags(self))
ndarray.device = property(lambda self: _device_of(self))
ndarray.__array_priority__ = 100.0


def _device_of(a):
    return Device(a._device_name)


# ---- conversion ----
def get(self, stream=None, order="C", out=None, blocking=True):
    """A NumPy copy of the data (CuPy's ndarray.get)."""
    host = _core.to_numpy(self)
    res = numpy.array(host, order=order, copy=True)
    if out is not None:
        out[...] = res
        return out
    return res


def set(self, arr, stream=None):
    """Copies a NumPy array into this array (CuPy's ndarray.set)."""
    arr = numpy.asarray(arr)
    if arr.shape != self.shape:
        raise ValueError("Shape mismatch. Old shape: %r, new shape: %r" % (self.shape, arr.shape))
    if arr.dtype != self.dtype:
        raise TypeError("%s array cannot be set to %s array" % (arr.dtype, self.dtype))
    self[...] = _core.from_numpy(arr, self._device_name)


def _host(self):
    """NumPy view (CPU arrays) or copy (CUDA arrays)."""
    return _core.to_numpy(self)


def __array__(self, dtype=None, copy=None):
    if self._is_cuda:
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a "
                        "NumPy array explicitly.")
    a = self._numpy_view()
    if copy:
        a = a.copy()
    if dtype is not None and numpy.dtype(dtype) != a.dtype:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        a = a.astype(dtype)
    return a


def item(self, *args):
    return _host(self).item(*args)


def tolist(self):
    return _host(self).tolist()


def tobytes(self, order="C"):
    return _host(self).tobytes(order)


def __repr__(self):
    return repr(_host(self))


def __str__(self):
    return str(_host(self))


def __format__(self, spec):
    return format(_host(self), spec)


def __bool__(self):
    if self.size != 1:
        if self.size == 0:
            raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that "
                             "an array is not empty.")
        raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or "
                         "a.all()")
    return bool(_host(self).reshape(()))


def _scalar(self, kind):
    if self.ndim != 0:
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    v = _host(self).reshape(())[()]
    if kind is not complex and self.dtype.kind == "c":
        # Python's own error for int(1j)/float(1j); NumPy raises the same.
        return kind(complex(v))
    return kind(v)


def __index__(self):
    if self.ndim != 0 or self.dtype.kind not in "iu":
        raise TypeError("only integer scalar arrays can be converted to a scalar index")
    return int(_host(self)[()])


def __iter__(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


# ---- indexing ----
# The C++ binding parses every index (basic and advanced) and stores Python
# ints, bools and floats itself; other values come here first for NumPy's
# conversion rules.
_core_setitem = ndarray._setitem_raw


def _setitem_general(self, key, value):
    t = type(value)
    if t is int or t is bool:
        _core_setitem(self, key, value)
        return
    kind = self.dtype.kind
    if t is float:  # into integers through int() (NaN, inf, out of range raise): kernels/scalar_assign.h
        _core_setitem(self, key, value)
        return
    if t is complex and kind == "b":
        _core_setitem(self, key, bool(value))
        return
    # A complex into a real dtype is refused in C++ (int()/float()'s
    # TypeError), after the read-only and index checks, as NumPy orders them.
    if t is complex or isinstance(value, ndarray):
        _core_setitem(self, key, value)
        return
    if not isinstance(value, numpy.ndarray):
        # Python sequences, NumPy scalars, None, strings...: NumPy's own conversion
        # to the destination dtype gives NumPy's values and errors (OverflowError
        # for out-of-range Python ints, TypeError for complex into real, ...).
        if isinstance(value, (list, tuple)):
            value = numpy.array(_to_host_nested(value), dtype=self.dtype)
        elif not isinstance(value, numpy.generic) and (hasattr(value, "__array__") or
                                                       hasattr(value, "__array_interface__")):
            value = numpy.asarray(value)
        else:
            tmp = numpy.empty((), dtype=self.dtype)
            tmp[()] = value
            value = tmp
    _core_setitem(self, key, value)


ndarray._set_setitem_fallback(_setitem_general)


def __copy__(self):
    return self.copy(order="K")


def __deepcopy__(self, memo):
    return self.copy(order="K")


def __reduce__(self):
    return (array, (self.get(),))


def fill(self, value):
    _core.fill(self, value)


def view(self, dtype=None, type=None):
    if dtype is None:
        return self[...]
    return self._view_dtype(dtype)


_core_ravel = ndarray.ravel


def _flat_order(self, order):
    o = "C" if order is None else str(order).upper()
    if o not in ("C", "F", "A", "K"):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))
    if o == "A":
        o = "F" if self._f_contiguous and not self._c_contiguous else "C"
    return o


def _keep_order_perm(shape, strides):
    """Outermost-first axis order in which NumPy walks an array for order='K':
    decreasing |stride|; an axis with a zero stride is not compared."""
    inner_first = list(range(len(shape)))[::-1]
    for i in range(1, len(inner_first)):
        ax = inner_first[i]
        pos = i
        for j in range(i - 1, -1, -1):
            other = inner_first[j]
            if strides[ax] == 0 or strides[other] == 0:
                continue
            if abs(strides[other]) > abs(strides[ax]):
                pos = j
            else:
                break
        del inner_first[i]
        inner_first.insert(pos, ax)
    return inner_first[::-1]


def ravel(self, order="C"):
    """A 1-d view when NumPy's ravel gives one (the layout already matches
    `order`), else a new flat copy."""
    o = _flat_order(self, order)
    if self._c_contiguous and o in ("C", "K"):
        return _core_ravel(self, "C")
    if self._f_contiguous and o in ("F", "K"):
        return _core_ravel(self, "F")
    if o == "K":
        shape, strides = self.shape, self.strides
        axes = sorted((i for i in range(self.ndim) if shape[i] != 1), key=lambda i: -strides[i])
        step = self.itemsize
        for i in reversed(axes):
            if strides[i] != step:
                break
            step *= shape[i]
        else:
            return self._with_strides((self.size,), (self.itemsize,), 0)
        return self.transpose(_keep_order_perm(shape, strides)).reshape(-1, copy=True)
    return self.reshape(-1, order=o, copy=True)


def flatten(self, order="C"):
    r = self.ravel(order)
    return r.copy() if r._same_memory(self) else r


def to_device(self, device, /, *, stream=None):
    d = device if isinstance(device, Device) else Device(device)
    return self._to_device(d.name)


def _cuda_array_interface(self):
    if not self._is_cuda:
        raise AttributeError("__cuda_array_interface__ is only defined for CUDA arrays")
    return {
        "shape": self.shape,
        "typestr": self.dtype.str,
        "data": (self._ptr, not self._writeable),
        "strides": None if self._c_contiguous else self.strides,
        "version": 3,
        "stream": 1,
    }


for _name, _fn in list(globals().items()):
    if _name in ("get", "set", "item", "tolist", "tobytes", "fill", "view", "flatten", "ravel", "to_device") or (
            _name.startswith("__") and _name.endswith("__") and callable(_fn) and _name not in (
                "__builtins__", "__doc__", "__name__", "__package__", "__loader__", "__spec__", "__file__",
                "__cached__")):
        setattr(ndarray, _name, _fn)

ndarray.__float__ = lambda self: _scalar(self, float)
ndarray.__int__ = lambda self: _scalar(self, int)
ndarray.__complex__ = lambda self: _scalar(self, complex)
ndarray.__cuda_array_interface__ = property(_cuda_array_interface)


# ---- reductions and other methods delegating to module functions ----
def _install_methods():
    def m(fn):
        def method(self, *args, **kwargs):
            return fn(self, *args, **kwargs)
        method.__name__ = fn.__name__
        method.__doc__ = fn.__doc__
        return method

    # sum, prod, max, min, all, any, mean, var, std, argmax, argmin, cumsum
    # and cumprod are C++ methods (bindings/bind_reduction.cpp).
    ndarray.clip = m(_searching.clip)
    # NumPy's method returns a real array itself (bool stays bool); the
    # ufunc is what turns bool into int8.
    ndarray.conj = lambda self: uf.conjugate(self) if self.dtype.kind == "c" else self
    ndarray.conjugate = ndarray.conj
    ndarray.diagonal = lambda self, offset=0, axis1=0, axis2=1: self._diagonal(offset, axis1, axis2)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        _sorting._check_order(order)
        if axis is None:
            raise TypeError("'NoneType' object cannot be interpreted as an integer")
        _sorting._s.sort_in_place(self, operator.index(axis), kind, stable)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        self[...] = _sorting.partition(self, kth, axis, kind, order)

    ndarray.sort = sort
    ndarray.partition = partition
    ndarray.argsort = m(_sorting.argsort)
    ndarray.argpartition = m(_sorting.argpartition)
    ndarray.searchsorted = lambda self, v, side="left", sorter=None: _sorting.searchsorted(self, v, side, sorter)




# ---- products (kumo.linalg._products) ----
def _matmul_op(self, other):
    if _core._is_foreign_operand(other):
        return NotImplemented
    return matmul(self, other)


def _rmatmul_op(self, other):
    if _core._is_foreign_operand(other):
        return NotImplemented
    return matmul(other, self)


def _imatmul_op(self, other):
    # NumPy: `a @= b` is matmul(a, b, out=a), allowed only when b is at least
    # 2-d (so the result has a's shape when the core sizes agree).
    if _core._is_foreign_operand(other):
        return NotImplemented
    other = asarray(other)
    if self.ndim < 1 or other.ndim < 2:
        raise ValueError("inplace matrix multiplication requires the first operand to have at least one and the "
                         "second at least two dimensions.")
    return matmul(self, other, out=self)


def _dot_method(self, b, out=None):
    return dot(self, b, out=out)


def _trace_method(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return trace(self, offset, axis1, axis2, dtype, out)


ndarray.__matmul__ = _matmul_op
ndarray.__rmatmul__ = _rmatmul_op
ndarray.__imatmul__ = _imatmul_op
ndarray.dot = _dot_method
ndarray.trace = _trace_method


_install_methods()
