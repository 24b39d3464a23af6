"""matrix_power (scipy.sparse.linalg's, SciPy 1.12+): A to a non-negative
integer power by repeated squaring over kumo's sparse products (SpGEMM in
C++), so the result's format is what those products give, as SciPy's."""
import operator

import numpy

from kumo.sparse._base import _ROUTINES
from kumo.sparse._construct import eye_array


def _integer_power(power):
    if numpy.ndim(power) != 0:
        raise ValueError("exponent must be an integer")
    try:
        return operator.index(power)
    except TypeError:
        raise ValueError("exponent must be an integer") from None


def matrix_power(A, power):
    """A ** power for a square sparse A and an integer power >= 0 (A ** 0 is
    the identity as a DIA array of A's dtype, as SciPy's)."""
    m, n = A.shape
    if m != n:
        raise TypeError("sparse matrix is not square")
    power = _integer_power(power)
    if power < 0:
        raise ValueError("exponent must be >= 0")
    if power == 0:
        return eye_array(m, dtype=A.dtype)
    if power == 1:
        return A.copy()
    half = matrix_power(A, power // 2)
    return A @ half @ half if power % 2 else half @ half


_ROUTINES["matrix_power"] = matrix_power  # for spmatrix.__pow__
