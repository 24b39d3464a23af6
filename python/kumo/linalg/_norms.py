"""numpy.linalg's norms on kumo arrays: norm, vector_norm, matrix_norm.

norm is the C++ routine kumo::linalg::norm (linalg/linalg.h); Python parses
ord and axis and keeps the array-API wrappers. Dtypes follow NumPy:
integer/bool input computes in float64, float16/float32 stay, complex
input gives the matching real dtype.
"""
import operator

from numpy.lib.array_utils import normalize_axis_tuple

from kumo import _core
from kumo import _ufuncs as uf
from kumo.linalg import _util


def _abs_sq(x):
    """|x|^2 elementwise, real."""
    if x.dtype.kind == "c":
        return uf.add(uf.square(x.real), uf.square(x.imag))
    return uf.square(x)


def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm (NumPy's ``numpy.linalg.norm``; C++:
    kumo::linalg::norm).

    axis None: the 2-norm of the flattened array for ord None, else a
    vector norm (1-D) or matrix norm (2-D); an int: vector norms along it;
    a 2-tuple: matrix norms over those axes. Vector ords: inf, -inf, 0, any
    number; matrix ords: 'fro', 'nuc', inf, -inf, 1, -1, 2, -2."""
    x = _util.asarray(x)
    if axis is None:
        axes = []
    elif isinstance(axis, tuple):
        axes = [operator.index(i) for i in axis]
        if not axes:
            raise ValueError("Improper number of dimensions to norm.")
    else:
        try:
            axes = [operator.index(axis)]
        except TypeError as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    if isinstance(ord, str):
        if ord not in ("fro", "f", "nuc"):
            n = len(axes) or x.ndim
            if n == 2:
                raise ValueError("Invalid norm order for matrices.")
            if n == 1:
                raise ValueError("Invalid norm order '%s' for vectors" % ord)
            raise ValueError("Improper number of dimensions to norm.")
    elif ord is not None:
        ord = float(ord)
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
