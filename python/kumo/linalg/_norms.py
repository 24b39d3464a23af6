"""numpy.linalg's norms on kumo arrays: norm, vector_norm, matrix_norm.

Built from kumo ufuncs and reductions (and the SVD for the spectral and
nuclear norms), so they run unchanged on every device. Dtypes follow NumPy:
integer/bool input computes in float64, float16/float32 stay, complex
input gives the matching real dtype.
"""
import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from kumo import _core
from kumo import _manipulation
from kumo import _reductions as red
from kumo import _ufuncs as uf
from kumo.linalg import _util

_inf = numpy.inf


def _abs_sq(x):
    """|x|^2 elementwise, real."""
    if x.dtype.kind == "c":
        return uf.add(uf.square(x.real), uf.square(x.imag))
    return uf.square(x)


def _svd_norm(x, row_axis, col_axis, op, **initial):
    from kumo.linalg._decompositions import svd
    y = _manipulation.moveaxis(x, (row_axis, col_axis), (-2, -1))
    return op(svd(y, compute_uv=False), axis=-1, **initial)


def _is(ord, value):
    """ord == value without tripping over strings or arrays."""
    if isinstance(ord, str):
        return False
    try:
        return bool(ord == value)
    except (TypeError, ValueError):
        return False


def _vector_norm_axes(x, ord, axis, keepdims):
    """Vector norm of x over `axis` (a 1-tuple)."""
    if _is(ord, _inf):
        return red.max(uf.absolute(x), axis=axis, keepdims=keepdims, initial=0)
    if _is(ord, -_inf):
        return red.min(uf.absolute(x), axis=axis, keepdims=keepdims)
    if _is(ord, 0):
        return red.sum(uf.not_equal(x, 0).astype(_util.real_dtype(x.dtype)), axis=axis, keepdims=keepdims)
    if _is(ord, 1):
        return red.sum(uf.absolute(x), axis=axis, keepdims=keepdims)
    if ord is None or _is(ord, 2):
        return uf.sqrt(red.sum(_abs_sq(x), axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError("Invalid norm order '%s' for vectors" % ord)
    absx = uf.absolute(x)
    absx = uf.power(absx, ord).astype(absx.dtype, copy=False)
    ret = red.sum(absx, axis=axis, keepdims=keepdims)
    inv_ord = numpy.reciprocal(numpy.asarray(ord, dtype=ret.dtype))
    return uf.power(ret, inv_ord.item()).astype(ret.dtype, copy=False)


def _matrix_norm_axes(x, ord, row_axis, col_axis):
    if _is(ord, 2):
        return _svd_norm(x, row_axis, col_axis, red.max, initial=0)
    if _is(ord, -2):
        return _svd_norm(x, row_axis, col_axis, red.min)
    if _is(ord, 1):
        if col_axis > row_axis:
            col_axis -= 1
        return red.max(red.sum(uf.absolute(x), axis=row_axis), axis=col_axis, initial=0)
    if _is(ord, _inf):
        if row_axis > col_axis:
            row_axis -= 1
        return red.max(red.sum(uf.absolute(x), axis=col_axis), axis=row_axis, initial=0)
    if _is(ord, -1):
        if col_axis > row_axis:
            col_axis -= 1
        return red.min(red.sum(uf.absolute(x), axis=row_axis), axis=col_axis)
    if _is(ord, -_inf):
        if row_axis > col_axis:
            row_axis -= 1
        return red.min(red.sum(uf.absolute(x), axis=col_axis), axis=row_axis)
    if ord is None or (isinstance(ord, str) and ord in ("fro", "f")):
        return uf.sqrt(red.sum(_abs_sq(x), axis=(row_axis, col_axis)))
    if isinstance(ord, str) and ord == "nuc":
        return _svd_norm(x, row_axis, col_axis, red.sum, initial=0)
    raise ValueError("Invalid norm order for matrices.")


def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm (NumPy's ``numpy.linalg.norm``).

    axis None: the 2-norm of the flattened array for ord None, else a
    vector norm (1-D) or matrix norm (2-D); an int: vector norms along it;
    a 2-tuple: matrix norms over those axes. Vector ords: inf, -inf, 0, any
    number; matrix ords: 'fro', 'nuc', inf, -inf, 1, -1, 2, -2."""
    x = _util.asarray(x)
    fast = _cpp_norm(x, ord, axis, keepdims)
    if fast is not None:
        return fast
    if x.dtype.kind not in "fc":
        x = x.astype(numpy.float64)
    with _util.on_device_of(x):
        if axis is None:
            nd = x.ndim
            if ord is None or (nd == 2 and isinstance(ord, str) and ord in ("f", "fro")) or (nd == 1 and _is(ord, 2)):
                ret = uf.sqrt(red.sum(_abs_sq(x.ravel())))
                if keepdims:
                    ret = ret.reshape((1,) * nd)
                return ret
        nd = x.ndim
        if axis is None:
            axis = tuple(range(nd))
        elif not isinstance(axis, tuple):
            try:
                axis = (operator.index(axis),)
            except TypeError as e:
                raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
        if len(axis) == 1:
            return _vector_norm_axes(x, ord, axis, keepdims)
        if len(axis) == 2:
            row_axis = normalize_axis_index(axis[0], nd)
            col_axis = normalize_axis_index(axis[1], nd)
            if row_axis == col_axis:
                raise ValueError("Duplicate axes given.")
            ret = _matrix_norm_axes(x, ord, row_axis, col_axis)
            if keepdims:
                shape = list(x.shape)
                shape[row_axis] = 1
                shape[col_axis] = 1
                ret = ret.reshape(tuple(shape))
            return ret
        raise ValueError("Improper number of dimensions to norm.")


def _cpp_norm(x, ord, axis, keepdims):
    """kumo::linalg::norm for the ords and axes it takes (None, numbers,
    'fro'/'f'/'nuc'; None, an int or a 2-tuple); None sends the rest (odd
    ords, with their own messages) through the Python composition below."""
    if isinstance(ord, str):
        if ord not in ("fro", "f", "nuc"):
            return None
    elif ord is not None:
        if isinstance(ord, (bool, numpy.bool_)) or not isinstance(ord, (int, float, numpy.integer, numpy.floating)):
            return None
        ord = float(ord)
    if axis is None:
        axes = []
    elif isinstance(axis, tuple):
        if len(axis) not in (1, 2):
            return None
        try:
            axes = [operator.index(i) for i in axis]
        except TypeError:
            return None
    else:
        try:
            axes = [operator.index(axis)]
        except TypeError:
            return None
    return _core.linalg.norm(x, ord, axes, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norms over the last two axes (array API)."""
    return norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector norm over `axis` (None: all elements; a tuple: those axes
    together), array API semantics."""
    x = _util.asarray(x)
    shape = list(x.shape)
    if axis is None:
        x = x.ravel()
        vaxis = 0
    elif isinstance(axis, tuple):
        axes = normalize_axis_tuple(axis, x.ndim)
        rest = tuple(i for i in range(x.ndim) if i not in axes)
        x = x.transpose(axes + rest)
        x = x.reshape((_util.prod(shape[i] for i in axes),) + tuple(shape[i] for i in rest))
        vaxis = 0
    else:
        vaxis = axis
    res = norm(x, axis=vaxis, ord=ord)
    if keepdims:
        kept = normalize_axis_tuple(range(len(shape)) if axis is None else axis, len(shape))
        for i in kept:
            shape[i] = 1
        res = res.reshape(tuple(shape))
    return res


__all__ = ["norm", "matrix_norm", "vector_norm"]
