"""kumo.autograd.gradient_check: Chainer's check_backward/check_double_backward."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import FunctionNode, Variable, gradient_check


def _x(shape, seed=0):
    return kumo.asarray(numpy.random.default_rng(seed).uniform(-1, 1, shape))


class _Scaled(FunctionNode):
    """y = x**2 whose backward is off by `scale` (right for scale 1)."""

    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, inputs):
        self.retain_inputs((0,))
        return (inputs[0] * inputs[0],)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * x * (2.0 * self.scale),)


def _square(scale):
    return lambda x: _Scaled(scale).apply((x,))[0]


@pytest.mark.parametrize("shape", [(), (1,), (3, 4), (2, 0)])
def test_check_backward_passes(shape):
    gradient_check.check_backward(_square(1.0), _x(shape), _x(shape, 1))


def test_check_backward_catches_wrong_gradient():
    with pytest.raises(AssertionError, match="directional derivative"):
        gradient_check.check_backward(_square(1.02), _x((3, 4)), _x((3, 4), 1))


def test_check_backward_accepts_numpy_data_and_tuples():
    gradient_check.check_backward(lambda a, b: a * F.sin(b), (numpy.ones((2, 3)), _x((2, 3))), None)


def test_check_backward_no_grads_skips_integer_input():
    t = kumo.asarray([0, 2, 1])
    gradient_check.check_backward(lambda x, t: F.select_item(x, t.array), (_x((3, 4)), t), None)


def test_check_backward_params():
    w = Variable(_x((3,), 5))
    gradient_check.check_backward(lambda x: F.tanh(x * w), _x((2, 3)), None, params=(w,))


def test_check_backward_params_wrong_gradient_is_caught():
    w = Variable(_x((3,), 5))

    def f(x):
        return x * w + Variable(w.array * w.array, requires_grad=False) * 0 + _Scaled(1.5).apply((w,))[0]

    with pytest.raises(AssertionError):
        gradient_check.check_backward(f, _x((2, 3)), None, params=(w,))


def test_check_double_backward_passes():
    gradient_check.check_double_backward(F.tanh, _x((3, 2)), _x((3, 2), 1), _x((3, 2), 2))


def test_check_double_backward_catches_constant_backward():
    class NoSecond(FunctionNode):
        def forward(self, inputs):
            self.retain_inputs((0,))
            return (inputs[0] ** 3,)

        def backward(self, indexes, grad_outputs):
            (x,) = self.get_retained_inputs()
            return (grad_outputs[0] * Variable(3 * x.array ** 2, requires_grad=False),)

    f = lambda x: NoSecond().apply((x,))[0]  # noqa: E731
    gradient_check.check_backward(f, _x((4,)), None)
    with pytest.raises(AssertionError):
        gradient_check.check_double_backward(f, _x((4,)), _x((4,), 1), _x((4,), 2))


def test_check_backward_dtype_float64_for_float32_data():
    gradient_check.check_backward(F.exp, _x((3,)).astype(kumo.float32), None, dtype=numpy.float64)


def test_check_backward_wrong_number_of_grads_raises():
    with pytest.raises(ValueError):
        gradient_check.check_backward(F.exp, _x((3,)), (_x((3,)), _x((3,))))
