"""norm and onenormest (scipy.sparse.linalg's) over kumo::sparse::linalg."""
import operator

import numpy

from kumo import _core
from kumo._interop import asnumpy
from kumo.sparse._formats import issparse
from kumo.sparse.linalg._interface import _sparse_value, aslinearoperator
from kumo.sparse.linalg._staging import staged_through_host

_ops = _core.sparse_linalg


def _axes(axis):
    if axis is None:
        return []
    if isinstance(axis, tuple):
        return [operator.index(a) for a in axis]
    msg = "'axis' must be None, an integer or a tuple of integers"
    try:
        int_axis = int(axis)
    except TypeError as e:
        raise TypeError(msg) from e
    if axis != int_axis:
        raise TypeError(msg)
    return [int_axis]


def norm(x, ord=None, axis=None):
    """Norm of a sparse matrix (scipy.sparse.linalg.norm).

    Matrix norms (axis None or two axes): None/'fro' (Frobenius), 1, -1,
    inf, -inf; vector norms along one axis: None/2, inf, -inf, 0, 1 and any
    other number. Duplicates are summed first. A matrix norm is a NumPy
    scalar, vector norms a 1-d kumo array, with SciPy's dtypes."""
    if not issparse(x):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    axes = _axes(axis)
    if isinstance(ord, str) and len(axes) == 1:
        raise ValueError("Invalid norm order for vectors.")
    r = _ops.norm(_sparse_value(x), ord, axes)
    if r.ndim == 0:
        return asnumpy(r)[()]
    return r


@staged_through_host
def onenormest(A, t=2, itmax=5, compute_v=False, compute_w=False):
    """A lower bound of the 1-norm of A from products with A and A^H
    (scipy.sparse.linalg.onenormest: Higham and Tisseur's block algorithm);
    exact when t >= n. With compute_v/compute_w also v (a unit vector) and
    w = A v, with ||w||_1 = est."""
    op = aslinearoperator(A)
    if op.shape[0] != op.shape[1]:
        raise ValueError("expected the operator to act like a square matrix")
    est, v, w, _, _ = _ops.onenormest(op._operator(), int(t), int(itmax))
    est = numpy.float64(est)
    if compute_v or compute_w:
        result = (est,)
        if compute_v:
            result += (v,)
        if compute_w:
            result += (w,)
        return result
    return est
