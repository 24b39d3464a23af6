"""Helpers for test_autograd_norm.py and test_autograd_norm_loss.py: inputs,
and gradient checks in float64: kumo.autograd.gradient_check (one random
direction) and, element by element, central differences of the first
derivatives against the backward pass and of the second derivatives against
a recorded (enable_double_backprop) backward pass."""
import numpy

import kumo
from kumo.autograd import Variable, grad

try:
    from kumo.autograd import gradient_check
except ImportError:  # an older engine: the element-by-element checks only
    gradient_check = None


def rand(shape, seed=0, low=-1.0, high=1.0, dtype=numpy.float64):
    return numpy.random.default_rng(seed).uniform(low, high, shape).astype(dtype)


def to_input(a, layout="c"):
    """A kumo array holding a: C-contiguous ("c") or a transposed view of
    Fortran-ordered storage ("nc", non-contiguous for ndim >= 2)."""
    if layout == "nc" and a.ndim >= 2:
        return kumo.asarray(numpy.ascontiguousarray(a.T)).T
    return kumo.asarray(a)


def _numerical(func, xs, gy, eps):
    """d sum(func(*xs) * gy) / dx for each x, by central differences."""
    def value(arrays):
        y = func(*[Variable(kumo.asarray(a)) for a in arrays])
        return float(numpy.sum(y.array.get() * gy))

    grads = []
    for k, x in enumerate(xs):
        g = numpy.zeros_like(x)
        for i in numpy.ndindex(x.shape):
            plus = [a.copy() for a in xs]
            minus = [a.copy() for a in xs]
            plus[k][i] += eps
            minus[k][i] -= eps
            g[i] = (value(plus) - value(minus)) / (2 * eps)
        grads.append(g)
    return grads


def _local_check_backward(func, xs, gy, eps=1e-6, atol=1e-6, rtol=1e-5):
    vs = [Variable(kumo.asarray(x)) for x in xs]
    y = func(*vs)
    gxs = grad([y], vs, [Variable(kumo.asarray(numpy.asarray(gy, dtype=y.dtype)), requires_grad=False)])
    for g, expected in zip(gxs, _numerical(func, xs, gy, eps)):
        actual = numpy.zeros_like(expected) if g is None else g.array.get()
        numpy.testing.assert_allclose(actual, expected, atol=atol, rtol=rtol)


def _local_check_double_backward(func, xs, gy, eps=1e-6, atol=1e-6, rtol=1e-5):
    # The gradients of sum(<dL/dx_i, ggx_i>) w.r.t. the inputs, through the
    # recorded first backward pass, against central differences.
    ggxs = [numpy.random.default_rng(100 + i).uniform(-1, 1, x.shape) for i, x in enumerate(xs)]

    def first_order(*vs):
        y = func(*vs)
        gxs = grad([y], list(vs), [Variable(kumo.asarray(numpy.asarray(gy, dtype=y.dtype)), requires_grad=False)],
                   enable_double_backprop=True)
        total = None
        for g, gg in zip(gxs, ggxs):
            if g is None:
                continue
            term = kumo.autograd.functions.sum(g * kumo.asarray(gg))
            total = term if total is None else total + term
        return total

    _local_check_backward(first_order, xs, numpy.ones(()), eps=eps, atol=atol, rtol=rtol)


def check_backward(func, xs, gy, **kw):
    xs = tuple(numpy.asarray(x, dtype=numpy.float64) for x in xs)
    if gradient_check is not None:
        gradient_check.check_backward(func, xs, numpy.asarray(gy, dtype=numpy.float64), eps=1e-5, atol=1e-6,
                                      rtol=1e-5)
    _local_check_backward(func, xs, gy, **kw)


def check_double_backward(func, xs, gy, **kw):
    xs = tuple(numpy.asarray(x, dtype=numpy.float64) for x in xs)
    if gradient_check is not None:
        ggx = tuple(numpy.random.default_rng(200 + i).uniform(-1, 1, x.shape) for i, x in enumerate(xs))
        gradient_check.check_double_backward(func, xs, numpy.asarray(gy, dtype=numpy.float64), ggx, eps=1e-5,
                                             atol=1e-6, rtol=1e-5)
    _local_check_double_backward(func, xs, gy, **kw)
