"""kumo as an array API standard namespace (version 2025.12).

``ndarray.__array_namespace__()`` returns this module. It is the ``kumo``
namespace with the few names whose NumPy behaviour differs from the
standard's replaced by the standard's:

- ``linalg.eig``/``linalg.eigvals`` always return complex results (NumPy
  returns real ones for real input whose eigenvalues are all real);
- ``sort``/``argsort`` take ``descending=`` and are stable by default;
- ``expand_dims`` inserts at axis 0 by default;
- ``fft.fftfreq``/``fft.rfftfreq`` take ``dtype=``;
- ``__array_namespace_info__().devices()`` returns a tuple.

Every other name resolves to kumo's own object, so arrays, dtypes and
functions are shared with ``kumo``.
"""
from kumo._array_api import ArrayNamespaceInfo as _Info
from kumo._manipulation import expand_dims as _expand_dims
from kumo._namespace import package as _package
from kumo._sorting import argsort as _argsort, sort as _sort
from kumo.array_api import fft, linalg  # noqa: F401

__array_api_version__ = "2025.12"

# The versions whose names and semantics this namespace provides; 2025.12
# only adds to the ones before it.
_SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


def __array_namespace_info__():
    return _Info(devices_as_tuple=True)


def _reverse(x, axis):
    """A view of x reversed along axis."""
    axis = axis + x.ndim if axis < 0 else axis
    return x[(slice(None),) * axis + (slice(None, None, -1),)]


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """The standard's sort: ascending, or descending with equal elements
    kept in their order."""
    r = _sort(x, axis=axis, stable=stable)
    return _reverse(r, axis) if descending else r


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """The standard's argsort. Descending order sorts the reversed array
    ascending (stable) and maps the indices back, so equal elements keep
    their original order as the standard asks."""
    if not descending:
        return _argsort(x, axis=axis, stable=stable)
    n = x.shape[axis] if x.ndim else 1
    reversed_order = _argsort(_reverse(x, axis), axis=axis, stable=stable)
    return _reverse(n - 1 - reversed_order, axis)


def expand_dims(x, /, *, axis=0):
    return _expand_dims(x, axis)


# Every other name is kumo's own, looked up when asked for (kumo._namespace).
def __getattr__(name):
    try:
        return getattr(_package(), name)
    except AttributeError:
        raise AttributeError("module 'kumo.array_api' has no attribute %r" % name) from None


def __dir__():
    return sorted(set(dir(_package())) | {"__array_api_version__", "__array_namespace_info__", "linalg"})
