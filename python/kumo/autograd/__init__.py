"""kumo.autograd: define-by-run automatic differentiation, Chainer's design.

The engine is C++ (autograd/ in the source tree); this package gives it
Chainer's Python names::

    import kumo
    from kumo.autograd import Variable
    import kumo.autograd.functions as F

    x = Variable(kumo.asarray([1.0, 2.0, 3.0]))
    y = F.sum(F.tanh(x) * x)
    y.backward()
    x.grad
"""
from kumo import _core
from kumo._namespace import package as _package
from kumo.autograd import functions  # noqa: F401
from kumo.autograd import gradient_check  # noqa: F401
from kumo.autograd import function_hooks  # noqa: F401
from kumo.autograd.function_hooks import FunctionHook  # noqa: F401

from kumo.autograd._variable import (FunctionNode, Variable, force_backprop_mode, is_backprop_enabled,
                                     no_backprop_mode)

_ag = _core.autograd


def grad(outputs, inputs, grad_outputs=None, retain_grad=False, enable_double_backprop=False):
    """Gradients of ``outputs`` with respect to ``inputs`` (a tuple, None
    where no gradient reaches an input), leaving every variable's ``grad``
    alone."""
    return _ag.grad(outputs, inputs, grad_outputs, retain_grad, enable_double_backprop)


def backward(outputs, grad_outputs=None, *, enable_double_backprop=False):
    """Backpropagates from several outputs at once (Chainer's chainer.backward).

    ``grad_outputs`` gives each output's gradient; without it each output's
    ``grad_var`` is used (and cleared), and an output without one is skipped
    with a RuntimeWarning: unlike ``Variable.backward``, no output starts from
    ones. The outputs' ``grad_var`` are left as they were otherwise.
    """
    outputs = list(outputs)
    if grad_outputs is None:
        grad_outputs = []
        for y in outputs:
            g = y.grad_var
            if g is None:
                import warnings
                warnings.warn("backward: an output has no grad (or appears twice); it is skipped, since "
                              "backward() does not start from ones", RuntimeWarning, stacklevel=2)
            y.grad_var = None
            grad_outputs.append(g)
    else:
        grad_outputs = list(grad_outputs)
        if len(grad_outputs) != len(outputs):
            raise ValueError("backward: %d grad_outputs for %d outputs" % (len(grad_outputs), len(outputs)))
    pairs = [(y, g if isinstance(g, Variable) else Variable(g, requires_grad=False))
             for y, g in zip(outputs, grad_outputs) if g is not None]
    if not pairs:
        return
    kept = [y.grad_var for y, _ in pairs]
    _ag._backward([y for y, _ in pairs], [g for _, g in pairs], enable_double_backprop)
    for (y, _), g in zip(pairs, kept):
        y.grad_var = g


def _variable_repr(self):
    body = repr(self.array)
    if body.startswith("array("):
        body = "variable(" + body[len("array("):]
    return body.replace("\n      ", "\n         ")


def _variable_str(self):
    return "variable(" + str(self.array) + ")"


def _reshape(self, *shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return functions.reshape(self, shape)


def _transpose(self, *axes):
    if len(axes) == 1 and (isinstance(axes[0], (tuple, list)) or axes[0] is None):
        axes = axes[0]
    return functions.transpose(self, axes if axes else None)


Variable.__repr__ = _variable_repr
Variable.__str__ = _variable_str
Variable.data = Variable.array
Variable.creator = Variable.creator_node
Variable.reshape = _reshape
Variable.transpose = _transpose
Variable.T = property(lambda self: functions.transpose(self))
Variable.device = property(lambda self: self.array.device)
Variable.__array_priority__ = 200  # ndarray op Variable goes to Variable's reflected operator


def _mean(self, axis=None, *, weights=None, keepdims=False):
    """Chainer's Variable.mean: F.average of this variable."""
    return functions.average(self, axis, weights, keepdims)


def _outside_graph(values):
    # Piecewise-constant results carry no gradient (zero almost everywhere):
    # a new Variable outside the graph, as F.sign and F.fix give.
    return Variable(values, requires_grad=False)


def _data_of(x):
    return x.array if isinstance(x, Variable) else x


def _to_device(self, device):
    """Moves the data and the gradient to ``device`` in place, as Chainer's
    Variable.to_device (F.copy is the differentiable copy); returns self."""
    grad = self.grad
    self.array = self.array.to_device(device)
    if grad is not None:
        self.grad = grad.to_device(device)
    return self


Variable.mean = _mean
Variable.__floordiv__ = lambda self, other: _outside_graph(self.array // _data_of(other))
Variable.__rfloordiv__ = lambda self, other: _outside_graph(_data_of(other) // self.array)
# The array module of the data, as Chainer's (numpy or cupy there; kumo on every device here).
Variable.xp = property(lambda self: _package())
Variable.to_device = _to_device
Variable.to_cpu = lambda self: _to_device(self, "cpu")

__all__ = ["Variable", "FunctionNode", "grad", "backward", "no_backprop_mode", "force_backprop_mode", "is_backprop_enabled",
           "functions", "gradient_check", "function_hooks", "FunctionHook"]

from kumo.autograd._config import (config, get_dtype, global_config, is_debug, mixed16, set_debug,  # noqa: E402
                                   using_config)

# Chainer's switch for its experimental-feature warnings (kumo gives none).
disable_experimental_feature_warning = False

__all__ += ["config", "global_config", "using_config", "get_dtype", "mixed16", "is_debug", "set_debug",
            "disable_experimental_feature_warning"]
from kumo.autograd import dataset, datasets, iterators  # noqa: E402,F401
from kumo.autograd import serializer, serializers  # noqa: E402,F401

# Links, initializers and the reporter (Chainer's chainer.links, chainer.initializers, chainer.reporter).
from kumo.autograd import initializers, links, reporter  # noqa: E402,F401
from kumo.autograd.links import Chain, ChainList, Link, Parameter, Sequential  # noqa: E402,F401
from kumo.autograd.reporter import Reporter, report, report_scope  # noqa: E402,F401
from kumo.autograd import reporter, training  # noqa: E402,F401

from kumo.autograd import optimizers, optimizer_hooks  # noqa: E402,F401  (fused optimizers, issue 11)
