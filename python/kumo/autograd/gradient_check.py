"""Numerical gradient checks with Chainer's signatures (the C++ checker in
autograd/gradient_check.cpp does the work).

The gradients backward computes for ``sum(f(x) * y_grad)`` are compared with
a central difference along one random direction over every checked input,
so one check costs a backward and two extra forward passes::

    from kumo.autograd import gradient_check
    gradient_check.check_backward(F.tanh, x, gy)
    gradient_check.check_double_backward(F.tanh, x, gy, ggx)

A mismatch raises AssertionError (``GradientCheckError``) with both values.
"""
from kumo import _core
from kumo import _creation

_ag = _core.autograd

GradientCheckError = _ag.GradientCheckError


def _as_tuple(data):
    if data is None:
        return None
    if isinstance(data, (tuple, list)):
        return tuple(None if d is None else _creation.asarray(d) for d in data)
    return (_creation.asarray(data),)


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5, rtol=1e-4, no_grads=None, dtype=None):
    """Checks func's first derivatives at ``x_data``.

    ``func`` takes one Variable per input and returns a Variable or a tuple.
    ``y_grad`` holds one gradient per output (None inside the tuple: that
    output is not used); ``y_grad=None`` draws random ones. ``params`` are
    Variables that func reads itself (a link's parameters): they are
    perturbed and checked too. ``no_grads`` flags inputs to leave out
    (default: those of non-floating dtypes). ``dtype`` runs the whole check
    in that dtype (e.g. float64 for a float16 function).
    """
    _ag.check_backward(func, _as_tuple(x_data), _as_tuple(y_grad), tuple(params), eps, atol, rtol,
                       None if no_grads is None else tuple(no_grads), dtype)


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(), params_grad_grad=(), eps=1e-3, atol=1e-4,
                          rtol=1e-3, no_grads=None, dtype=None):
    """Checks func's second derivatives: the backward of
    ``(x, gy) -> gradients of x and params`` with ``x_grad_grad`` (and
    ``params_grad_grad``) as its output gradients. ``y_grad`` and
    ``x_grad_grad`` may be None for random ones."""
    grad_grad = None
    if x_grad_grad is not None:
        grad_grad = _as_tuple(x_grad_grad) + (_as_tuple(tuple(params_grad_grad)) if params_grad_grad else ())
    _ag.check_double_backward(func, _as_tuple(x_data), _as_tuple(y_grad), grad_grad, tuple(params), eps, atol,
                              rtol, None if no_grads is None else tuple(no_grads), dtype)


__all__ = ["check_backward", "check_double_backward", "GradientCheckError"]
