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

    @property
    def enable_backprop(self):
        return _ag.is_backprop_enabled()


config = _Config()


@contextlib.contextmanager
def using_config(name, value):
    """``with using_config('train', False):`` sets a configuration value of
    this thread for the block ('train' or 'enable_backprop')."""
    if name == "train":
        scope = _f._TrainContext(bool(value))
    elif name == "enable_backprop":
        scope = _ag._ModeContext(bool(value))
    else:
        raise ValueError("using_config: unknown configuration %r (known: 'train', 'enable_backprop')" % (name,))
    with scope:
        yield
