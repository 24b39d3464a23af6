"""numpy.errstate, seterr, geterr, seterrcall and geterrcall.

The modes live in C++ per thread (core/fp_errors.h), where the host kernels'
floating-point status flags are checked after each ufunc call, reduction and
accumulation; this module is the Python face of that state and runs the
'call', 'print' and 'log' modes. Operations on a GPU report no floating-point
errors (CUDA kernels have no status flags), as CuPy's.
"""
import contextlib
import threading

from kumo import _core

_local = threading.local()
_CATEGORIES = ("divide", "over", "under", "invalid")


def geterr():
    """The current floating-point error modes: {'divide', 'over', 'under', 'invalid'}."""
    return dict(_core._get_fp_state())


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Sets how floating-point errors are handled and returns the old settings."""
    old = geterr()
    new = dict(old)
    if all is not None:
        new = dict.fromkeys(_CATEGORIES, all)
    for name, mode in zip(_CATEGORIES, (divide, over, under, invalid)):
        if mode is not None:
            new[name] = mode
    _core._set_fp_state(new["divide"], new["over"], new["under"], new["invalid"])
    return old


def geterrcall():
    return getattr(_local, "call", None)


def seterrcall(func):
    """The callable ('call' mode: func(kind, flag)) or object with a write
    method ('log' mode); returns the old one."""
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise ValueError("Only callable can be used as callback")
    old = geterrcall()
    _local.call = func
    return old


class _NoValue:
    pass


class errstate(contextlib.ContextDecorator):
    """with kumo.errstate(divide='ignore'): ... (also a decorator), as numpy.errstate."""

    def __init__(self, *, call=_NoValue, all=None, divide=None, over=None, under=None, invalid=None):
        self._call = call
        self._kwargs = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)

    def __enter__(self):
        self._old = seterr(**self._kwargs)
        if self._call is not _NoValue:
            self._old_call = seterrcall(self._call)
        return self

    def __exit__(self, *exc):
        seterr(**self._old)
        if self._call is not _NoValue:
            seterrcall(self._old_call)
        return False


def _dispatch(mode, kind, flag, message):
    """What C++ calls for the 'call', 'print' and 'log' modes."""
    if mode == "print":
        print("Warning: %s" % message)
        return
    func = geterrcall()
    if mode == "call":
        if func is None:
            raise ValueError("Callback function is not set (seterrcall) for error mode 'call'")
        func(kind, flag)
    else:  # log
        if func is None or not callable(getattr(func, "write", None)):
            raise ValueError("Log object has no write method (seterrcall) for error mode 'log'")
        func.write("Warning: %s\n" % message)


__all__ = ["errstate", "seterr", "geterr", "seterrcall", "geterrcall"]
