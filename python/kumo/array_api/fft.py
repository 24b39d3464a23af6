"""kumo.fft as the array API standard's fft extension: fftfreq and rfftfreq
take the standard's ``dtype=``; the rest is kumo.fft."""
from kumo import fft as _fft


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    r = _fft.fftfreq(n, d=d, device=device)
    return r if dtype is None else r.astype(dtype, copy=False)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    r = _fft.rfftfreq(n, d=d, device=device)
    return r if dtype is None else r.astype(dtype, copy=False)


def __getattr__(name):
    try:
        return getattr(_fft, name)
    except AttributeError:
        raise AttributeError("module 'kumo.array_api.fft' has no attribute %r" % name) from None
