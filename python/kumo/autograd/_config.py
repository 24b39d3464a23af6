"""Chainer's configuration for kumo.autograd: ``config`` (this thread's
values, falling back to ``global_config``), ``using_config``, ``get_dtype``,
``mixed16``, ``is_debug``/``set_debug``. The train flag lives in C++
(thread-local, autograd/functions/noise.h), so C++ functions see what Python
set; ``enable_backprop`` maps to the backprop mode; ``use_ideep`` and
``use_cudnn`` switch the vendor libraries. Every other name is a plain value,
as in Chainer: its defaults are Chainer 7's, and a program may set names of
its own."""
import contextlib
import sys
import threading

import numpy

from kumo import _core

_f = _core.autograd.functions
_ag = _core.autograd


class _Config:
    """``kumo.autograd.config.train``: this thread's train flag."""

    @property
    def train(self):
        return _f._is_train()

    @train.setter
    def train(self, value):
        _f._set_train(bool(value))

    # Chainer's switches for the vendor libraries: 'never' makes this
    # thread's convolutions (and, on CUDA, pooling) use kumo's own kernels;
    # 'auto' and 'always' use oneDNN on the host / cuDNN on CUDA where they
    # handle the case.
    @property
    def use_ideep(self):
        return "auto" if _f._dnn_enabled(False) else "never"

    @use_ideep.setter
    def use_ideep(self, value):
        _f._set_dnn_enabled(False, _dnn_value("use_ideep", value))

    @property
    def use_cudnn(self):
        return "auto" if _f._dnn_enabled(True) else "never"

    @use_cudnn.setter
    def use_cudnn(self, value):
        _f._set_dnn_enabled(True, _dnn_value("use_cudnn", value))

    @property
    def enable_backprop(self):
        return _ag.is_backprop_enabled()


def _dnn_value(name, value):
    if value not in ("always", "auto", "never"):
        raise ValueError("config.%s must be 'always', 'auto' or 'never', got %r" % (name, value))
    return value != "never"


# Chainer 7's defaults of the plain values (chainer/__init__.py).
_DEFAULTS = {
    "autotune": False, "cudnn_deterministic": False, "cudnn_fast_batch_normalization": False,
    "debug": False, "dtype": numpy.dtype(numpy.float32), "in_recomputing": False,
    "keep_graph_on_report": False, "lazy_grad_sum": False, "schedule_func": None, "type_check": True,
    "use_cudnn_tensor_core": "auto", "use_static_graph": True, "warn_nondeterministic": False,
    "_will_recompute": False,
}
_SPECIAL = ("train", "use_ideep", "use_cudnn", "enable_backprop")


class _GlobalConfig:
    """``global_config``: the values a thread sees until it sets its own."""

    def __init__(self):
        object.__setattr__(self, "_values", dict(_DEFAULTS))

    def __getattr__(self, name):
        if name in _SPECIAL:
            return getattr(config, name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError("'GlobalConfig' object has no attribute %r" % name) from None

    def __setattr__(self, name, value):
        if name in _SPECIAL:
            setattr(config, name, value)
        else:
            self._values[name] = value

    def __delattr__(self, name):
        try:
            del self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def show(self, file=sys.stdout):
        config.show(file)


global_config = _GlobalConfig()
_local = threading.local()


def _local_values():
    values = getattr(_local, "values", None)
    if values is None:
        values = _local.values = {}
    return values


class _LocalConfig(_Config):
    """``config``: this thread's values over ``global_config``."""

    def __getattr__(self, name):  # only reached for names that are not properties
        values = _local_values()
        if name in values:
            return values[name]
        return getattr(global_config, name)

    def __setattr__(self, name, value):
        if name in _SPECIAL:
            object.__setattr__(self, name, value)  # the property setter
        else:
            _local_values()[name] = value

    def __delattr__(self, name):
        try:
            del _local_values()[name]
        except KeyError:
            raise AttributeError(name) from None

    def show(self, file=sys.stdout):
        """Prints every value, one per line, sorted by name (Chainer's config.show)."""
        names = set(_DEFAULTS) | set(global_config._values) | set(_local_values()) | set(_SPECIAL)
        for name in sorted(n for n in names if not n.startswith("_")):
            file.write("%-31s %s\n" % (name, getattr(self, name)))


config = _LocalConfig()


class _Mixed16:
    """``mixed16``: float16 arrays with float32 parameters and statistics
    where a link keeps them (get_dtype maps it to float16, or to
    ``map_mixed16``)."""

    def __repr__(self):
        return "mixed16"

    __str__ = __repr__


mixed16 = _Mixed16()


def get_dtype(dtype=None, map_mixed16=None):
    """The NumPy dtype ``dtype`` names, ``config.dtype`` when None; mixed16
    is float16, or ``map_mixed16`` when given."""
    if dtype is None:
        dtype = config.dtype
    if dtype is mixed16:
        return numpy.dtype(numpy.float16) if map_mixed16 is None else numpy.dtype(map_mixed16)
    return numpy.dtype(dtype)


def is_debug():
    """Whether this thread runs in Chainer's debug mode (``config.debug``)."""
    return bool(config.debug)


def set_debug(debug):
    """Sets debug mode for every thread that has not set its own (``global_config.debug``)."""
    global_config.debug = debug


@contextlib.contextmanager
def _dnn_scope(cuda, name, value):
    old = _f._dnn_enabled(cuda)
    _f._set_dnn_enabled(cuda, _dnn_value(name, value))
    try:
        yield
    finally:
        _f._set_dnn_enabled(cuda, old)


@contextlib.contextmanager
def using_config(name, value):
    """``with using_config('train', False):`` sets a configuration value of
    this thread for the block: 'train', 'enable_backprop', 'use_ideep',
    'use_cudnn', or any other name (Chainer's plain values, or a program's)."""
    if name == "train":
        scope = _f._TrainContext(bool(value))
    elif name == "enable_backprop":
        scope = _ag._ModeContext(bool(value))
    elif name in ("use_ideep", "use_cudnn"):
        scope = _dnn_scope(name == "use_cudnn", name, value)
    else:
        scope = _value_scope(name, value)
    with scope:
        yield


@contextlib.contextmanager
def _value_scope(name, value):
    values = _local_values()
    missing = object()
    old = values.get(name, missing)
    values[name] = value
    try:
        yield
    finally:
        if old is missing:
            values.pop(name, None)
        else:
            values[name] = old
