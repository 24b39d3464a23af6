"""Special functions (scipy.special's names and result dtypes).

The kernels are C++ (``kumo._core.special``, routines/special.h); this
module converts array-likes.
"""
from kumo import _core
from kumo._creation import asarray

_s = _core.special

__all__ = ["erf", "erfc", "erfinv", "gammaln", "digamma", "psi", "polygamma"]


def erf(x):
    """The error function."""
    return _s.erf(asarray(x))


def erfc(x):
    """1 - erf(x), accurate where erf(x) is close to 1."""
    return _s.erfc(asarray(x))


def erfinv(x):
    """The inverse of erf on [-1, 1]."""
    return _s.erfinv(asarray(x))


def gammaln(x):
    """log|Gamma(x)|."""
    return _s.gammaln(asarray(x))


def digamma(x):
    """psi(x) = Gamma'(x) / Gamma(x)."""
    return _s.digamma(asarray(x))


psi = digamma


def polygamma(n, x):
    """The n-th derivative of digamma (n broadcasts against x)."""
    return _s.polygamma(asarray(n), asarray(x))
