"""Differentiable functions (Chainer's ``chainer.functions``, imported as F).

Each is a C++ FunctionNode (autograd/functions/); arguments may be
Variables, kumo arrays (constants that need no gradient) or Python scalars.
"""
from kumo import _core

_f = _core.autograd.functions

add, sub, mul, div, pow = _f.add, _f.sub, _f.mul, _f.div, _f.pow
neg, exp, log, sqrt, square = _f.neg, _f.exp, _f.log, _f.sqrt, _f.square
sin, cos, tanh, sigmoid, relu = _f.sin, _f.cos, _f.tanh, _f.sigmoid, _f.relu
absolute = _f.absolute
cast, broadcast_to, sum_to = _f.cast, _f.broadcast_to, _f.sum_to


def reshape(x, shape):
    return _f.reshape(x, shape)


def transpose(x, axes=None):
    return _f.transpose(x, axes)


def sum(x, axis=None, keepdims=False):  # noqa: A001 (Chainer's name)
    return _f.sum(x, axis, keepdims)


__all__ = ["add", "sub", "mul", "div", "pow", "neg", "exp", "log", "sqrt", "square", "sin", "cos", "tanh",
           "sigmoid", "relu", "absolute", "cast", "broadcast_to", "sum_to", "reshape", "transpose", "sum"]
