"""Chainer's configuration for kumo.autograd: ``config.train`` (read by
dropout) and ``using_config``. The train flag lives in C++ (thread-local,
autograd/functions/noise.h), so C++ functions see what Python set;
``enable_backprop`` maps to the backprop mode."""
import contextlib

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


config = _Config()


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
    this thread for the block ('train', 'enable_backprop', 'use_ideep' or
    'use_cudnn')."""
    if name == "train":
        scope = _f._TrainContext(bool(value))
    elif name == "enable_backprop":
        scope = _ag._ModeContext(bool(value))
    elif name in ("use_ideep", "use_cudnn"):
        scope = _dnn_scope(name == "use_cudnn", name, value)
    else:
        raise ValueError("using_config: unknown configuration %r (known: 'train', 'enable_backprop', "
                         "'use_ideep', 'use_cudnn')" % (name,))
    with scope:
        yield
