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
from kumo.autograd import functions  # noqa: F401
from kumo.autograd import gradient_check  # noqa: F401
from kumo.autograd import function_hooks  # noqa: F401
from kumo.autograd.function_hooks import FunctionHook  # noqa: F401

_ag = _core.autograd

Variable = _ag.Variable
FunctionNode = _ag.FunctionNode


def grad(outputs, inputs, grad_outputs=None, retain_grad=False, enable_double_backprop=False):
    """Gradients of ``outputs`` with respect to ``inputs`` (a tuple, None
    where no gradient reaches an input), leaving every variable's ``grad``
    alone."""
    return _ag.grad(outputs, inputs, grad_outputs, retain_grad, enable_double_backprop)


def no_backprop_mode():
    """``with no_backprop_mode():`` functions record no graph (this thread)."""
    return _ag._ModeContext(False)


def force_backprop_mode():
    """``with force_backprop_mode():`` functions record the graph even inside
    a no_backprop_mode (this thread)."""
    return _ag._ModeContext(True)


def is_backprop_enabled():
    return _ag.is_backprop_enabled()


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
Variable.to_device = lambda self, device: functions.copy(self, device)
Variable.__array_priority__ = 200  # ndarray op Variable goes to Variable's reflected operator

__all__ = ["Variable", "FunctionNode", "grad", "no_backprop_mode", "force_backprop_mode", "is_backprop_enabled",
           "functions", "gradient_check", "function_hooks", "FunctionHook"]

from kumo.autograd._config import config, using_config  # noqa: E402

__all__ += ["config", "using_config"]
from kumo.autograd import dataset, datasets, iterators  # noqa: E402,F401
from kumo.autograd import serializer, serializers  # noqa: E402,F401

# Links, initializers and the reporter (Chainer's chainer.links, chainer.initializers, chainer.reporter).
from kumo.autograd import initializers, links, reporter  # noqa: E402,F401
from kumo.autograd.links import Chain, ChainList, Link, Parameter, Sequential  # noqa: E402,F401
from kumo.autograd.reporter import Reporter, report, report_scope  # noqa: E402,F401
from kumo.autograd import reporter, training  # noqa: E402,F401

from kumo.autograd import optimizers, optimizer_hooks  # noqa: E402,F401  (fused optimizers, issue 11)
