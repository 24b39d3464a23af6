"""kumo.fft: numpy.fft (NumPy 2.x) on pocketfft (host arrays) and cuFFT (CUDA arrays).

Every function is the C++ routine of the same name in kumo::fft (fft/fft.h);
this layer only converts array-likes and NumPy's keyword conventions
(norm=None, an int axes for the shifts, s with None entries)."""
import contextlib
import operator
import warnings

from kumo import _core
from kumo import _creation
from kumo._device import Device

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn",
           "fft2", "ifft2", "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_ndarray = _core.ndarray


def _asarray(a):
    return a if isinstance(a, _ndarray) else _creation.asarray(a)


def _norm(norm):
    if norm is None:
        return "backward"
    if isinstance(norm, str):
        return norm
    raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _n(n):
    return None if n is None else operator.index(n)


def _out(out):
    if out is None or isinstance(out, _ndarray):
        return out
    raise TypeError("out must be a kumo.ndarray")


def _named(transform, name, what):
    transform.__name__ = transform.__qualname__ = name
    transform.__module__ = __name__
    transform.__doc__ = f"numpy.fft.{name} (C++: kumo::fft::{name}): {what}"
    return transform


def _one_axis(name):
    impl = getattr(_core.fft, name)

    def transform(a, n=None, axis=-1, norm=None, out=None):
        r = impl(_asarray(a), _n(n), operator.index(axis), _norm(norm), _out(out))
        return r if out is None else out

    return _named(transform, name, "one-dimensional transform along `axis`; `n` pads with zeros or truncates.")


def _sizes_axes(s, axes):
    if s is not None:
        s = list(s)
        if any(v is None for v in s):
            warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and "
                          "will raise an error in a future version. Pass -1 instead.",
                          DeprecationWarning, stacklevel=3)
            s = [-1 if v is None else v for v in s]
        s = [operator.index(v) for v in s]
        if axes is None:
            warnings.warn("`axes` should not be `None` if `s` is not `None`. This behavior is deprecated in "
                          "NumPy 2.0 and will raise an error in a future version.", DeprecationWarning,
                          stacklevel=3)
    if axes is not None:
        axes = [operator.index(v) for v in axes]
    return s, axes


def _many_axes(name, impl_name, default_axes):
    impl = getattr(_core.fft, impl_name)

    def transform(a, s=None, axes=default_axes, norm=None, out=None):
        a = _asarray(a)
        s, axes = _sizes_axes(s, axes)
        r = impl(a, s, axes, _norm(norm), _out(out))
        return r if out is None else out

    return _named(transform, name, "transform over `axes` (last first); `s` pads with zeros or truncates.")


fft = _one_axis("fft")
ifft = _one_axis("ifft")
rfft = _one_axis("rfft")
irfft = _one_axis("irfft")
hfft = _one_axis("hfft")
ihfft = _one_axis("ihfft")
fftn = _many_axes("fftn", "fftn", None)
ifftn = _many_axes("ifftn", "ifftn", None)
rfftn = _many_axes("rfftn", "rfftn", None)
irfftn = _many_axes("irfftn", "irfftn", None)
fft2 = _many_axes("fft2", "fftn", (-2, -1))
ifft2 = _many_axes("ifft2", "ifftn", (-2, -1))
rfft2 = _many_axes("rfft2", "rfftn", (-2, -1))
irfft2 = _many_axes("irfft2", "irfftn", (-2, -1))


def _on_device(device):
    return contextlib.nullcontext() if device is None else Device(device)


def fftfreq(n, d=1.0, device=None):
    """numpy.fft.fftfreq: the sample frequencies of an n-point transform with sample spacing d (float64)."""
    if not isinstance(n, int) and not hasattr(n, "__index__"):
        raise ValueError("n should be an integer")
    with _on_device(device):
        return _core.fft.fftfreq(operator.index(n), float(d))


def rfftfreq(n, d=1.0, device=None):
    """numpy.fft.rfftfreq: the non-negative sample frequencies (float64)."""
    if not isinstance(n, int) and not hasattr(n, "__index__"):
        raise ValueError("n should be an integer")
    with _on_device(device):
        return _core.fft.rfftfreq(operator.index(n), float(d))


def _shift_axes(axes):
    if axes is None:
        return None
    if hasattr(axes, "__index__"):
        return [operator.index(axes)]
    return [operator.index(v) for v in axes]


def fftshift(x, axes=None):
    """numpy.fft.fftshift: moves the zero frequency to the centre of the given axes (all by default)."""
    return _core.fft.fftshift(_asarray(x), _shift_axes(axes))


def ifftshift(x, axes=None):
    """numpy.fft.ifftshift: the inverse of fftshift."""
    return _core.fft.ifftshift(_asarray(x), _shift_axes(axes))
