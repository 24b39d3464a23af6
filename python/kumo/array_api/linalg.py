"""kumo.linalg as the array API standard's linalg extension: eig and eigvals
return complex arrays for every input, the rest is kumo.linalg."""
from kumo import linalg as _linalg
from kumo.linalg import EigResult


def _complex(a):
    if a.dtype.kind == "c":
        return a
    return a.astype("complex64" if a.dtype.char in "fe" else "complex128")


def eig(x, /):
    """Eigenvalues and right eigenvectors as complex arrays (complex64 for
    float32 input, complex128 for float64)."""
    w, v = _linalg.eig(x)
    return EigResult(_complex(w), _complex(v))


def eigvals(x, /):
    """Eigenvalues as a complex array (complex64 for float32 input,
    complex128 for float64)."""
    return _complex(_linalg.eigvals(x))


def __getattr__(name):
    try:
        return getattr(_linalg, name)
    except AttributeError:
        raise AttributeError("module 'kumo.array_api.linalg' has no attribute %r" % name) from None
