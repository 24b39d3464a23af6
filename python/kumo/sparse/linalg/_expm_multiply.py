"""expm_multiply (scipy.sparse.linalg's) over kumo::sparse::linalg's
Al-Mohy and Higham algorithm (sparse/linalg/expm_multiply.h)."""
import warnings

import numpy

from kumo import _core
from kumo._manipulation import stack
from kumo.sparse._formats import csr_matrix, issparse
from kumo.sparse.linalg._interface import _asarray, LinearOperator

_ops = _core.sparse_linalg


def expm_multiply(A, B, start=None, stop=None, num=None, endpoint=None, traceA=None):
    """exp(A) B, or exp(t A) B at the points of numpy.linspace(start, stop,
    num, endpoint) (an array (num,) + B.shape), without forming exp(A)
    (scipy.sparse.linalg.expm_multiply; Al-Mohy and Higham 2011).

    A is a sparse matrix, a dense array or a LinearOperator; for an operator
    traceA sets the shift (without it the shift is 0, with SciPy's warning:
    exact, possibly slower). Results are float64 or complex128."""
    B = _asarray(B)
    interval = not all(arg is None for arg in (start, stop, num, endpoint))
    if isinstance(A, LinearOperator):
        if traceA is None:
            warnings.warn("Trace of LinearOperator not available, it will be estimated. Provide `traceA` to ensure "
                          "performance.", stacklevel=2)
            traceA = 0.0
        op = A._operator()
        if not interval:
            return _ops.expm_multiply(op, B, 1.0, complex(traceA))
        samples, step = numpy.linspace(start, stop, num=50 if num is None else num,
                                       endpoint=True if endpoint is None else endpoint, retstep=True)
        if len(samples) < 2:
            raise ValueError("at least two time points are required")
        points = [_ops.expm_multiply(op, B, float(samples[0]), complex(traceA))]
        for _ in samples[1:]:
            points.append(_ops.expm_multiply(op, points[-1], float(step), complex(traceA)))
        return stack(points)
    a = (A if A.format == "csr" else A.tocsr()) if issparse(A) else csr_matrix(
        A.tocsr() if hasattr(A, "tocsr") else _asarray(A))
    if not interval:
        return _ops.expm_multiply(a._m, B, 1.0)
    if start is None or stop is None:
        raise TypeError("expm_multiply needs both start and stop for an interval")
    return _ops.expm_multiply_interval(a._m, B, float(start), float(stop), 50 if num is None else int(num),
                                       True if endpoint is None else bool(endpoint))
